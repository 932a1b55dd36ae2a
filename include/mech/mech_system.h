/* SPDX-License-Identifier: MIT */
/*
** libmech planar systems: rigid bodies in absolute coordinates (x, y, phi per body),
** force elements, ideal joints and drivers.
**
** A system owns every entity.  Entities are created through the system, named
** (names are unique within their kind: bodies, points, forces, joints, drivers) and
** referred to by small integer ids; body 0 is the ground.  Points and joint anchors
** are given in body coordinates (x along the body's own axis, origin at its centre of
** mass).  Angles are in radians, counter-clockwise; everything is SI.
**
** Equations (Nikravesh's absolute coordinates, as in the source papers):
**     M q'' = Q(q, q', t) - Phi_q^T lambda
**     Phi_q q'' = gamma - 2 alpha Phi' - beta^2 Phi         (Baumgarte)
** for joints enforced by Lagrange multipliers; joints enforced by penalty add the force
** -Phi_q^T (K Phi + C Phi') to Q instead ([Zheng & Wang, Eq. 4]).  M is diagonal; a body with
** zero inertia is allowed when a Lagrange joint keeps it from rotating (a slider).
**
** Life cycle: create, add entities, mech_system_finalize (checks the model, sizes the
** workspaces, assembles the initial configuration), then simulate (mech_sim.h) or call
** mech_system_rhs yourself.  Adding an entity after finalize marks the system for a new
** finalize.
*/
#ifndef MECH_SYSTEM_H
#define MECH_SYSTEM_H

#include "mech_contact.h"
#include "mech_core.h"

/// Longest entity name, terminating NUL included.
#define MECH_NAME_MAX 48

/// Id of the ground body.
#define MECH_GROUND 0

typedef struct mech_system mech_system;

/// How a joint is enforced.
typedef enum mech_enforce {
    MECH_LAGRANGE = 0,  ///< Lagrange multipliers with Baumgarte stabilisation
    MECH_PENALTY = 1,   ///< stiff spring-dampers on the constraint equations
    MECH_CLEARANCE = 2, ///< no equation: contact forces within a clearance (revolute and
                        ///< prismatic joints; see mech_clearance_def)
} mech_enforce;

/// Joint types; the counts of equations are a planar system's (mech_spatial.h gives a spatial
/// one's, where every type exists).
typedef enum mech_joint_type {
    MECH_REVOLUTE = 0,    ///< pin: the anchor points coincide (2 equations)
    MECH_PRISMATIC = 1,   ///< slide along an axis of body a, no relative rotation (2)
    MECH_FIXED = 2,       ///< anchors coincide and the relative angle is fixed (3)
    MECH_SPHERICAL = 3,   ///< spatial only: ball joint
    MECH_UNIVERSAL = 4,   ///< spatial only: cardan joint
    MECH_CYLINDRICAL = 5, ///< spatial only: turn about and slide along one axis
    MECH_PLANAR = 6,      ///< spatial only: b moves in a plane of a
} mech_joint_type;

/*
** User callbacks return 0 on success, a positive value to ask an adaptive integrator for
** a smaller step, a negative value on failure (the callback keeps its own message).
*/

/// Scalar law, e.g. a spring force f(l, l') [N] (tension positive).
typedef int (*mech_law_fn)(void *ud, double t, double x, double xdot, double *f);

/// Prescribed motion: out = {value, first derivative, second derivative} at time t.
typedef int (*mech_motion_fn)(void *ud, double t, double out[3]);

/// State of one body as callbacks see it.
typedef struct mech_body_state {
    double x, y, phi;     ///< position of the centre of mass [m], angle [rad]
    double vx, vy, omega; ///< velocities [m/s], [rad/s]
} mech_body_state;

/// Applied load computed by a callback: out = {fx, fy, torque} (global frame).
typedef int (*mech_load_fn)(void *ud, double t, const mech_body_state *body, double out[3]);

/* ---- bodies -------------------------------------------------------------------------- */

typedef struct mech_body_def {
    const char *name;
    double mass;    ///< [kg], > 0
    double inertia; ///< centroidal moment of inertia [kg m^2], >= 0 (0: must not rotate)
    double pos[2];  ///< initial centre of mass [m]
    double angle;   ///< initial angle [rad]
    double vel[2];  ///< initial velocity of the centre of mass [m/s]
    double omega;   ///< initial angular velocity [rad/s]
} mech_body_def;

mech_body_def mech_body_default(void);

mech_status mech_body_add(mech_system *sys, const mech_body_def *def, int *id, mech_error *err);

/// Outline for later contacts: a rectangle of half sizes (hx, hy) centred on the body.
mech_status mech_body_set_rectangle(mech_system *sys, int body, double hx, double hy,
                                    mech_error *err);

/// Outline for later contacts: the segment from p to q (body coordinates).
mech_status mech_body_set_segment(mech_system *sys, int body, const double p[2], const double q[2],
                                  mech_error *err);

/// A named point (marker) of a body, in body coordinates.  Its full name is "body.point".
mech_status mech_point_add(mech_system *sys, int body, const char *name, const double local[2],
                           int *id, mech_error *err);

/* ---- force elements ------------------------------------------------------------------ */

typedef enum mech_force_type {
    MECH_SPRING = 0,     ///< translational spring-damper between two points
    MECH_ROT_SPRING = 1, ///< rotational spring-damper between two bodies
    MECH_LOAD = 2,       ///< applied force or torque on one body
} mech_force_type;

typedef enum mech_profile {
    MECH_CONSTANT = 0, ///< value
    MECH_HARMONIC = 1, ///< value + amplitude sin(freq t + phase)
    MECH_CALLBACK = 2, ///< computed by a callback
} mech_profile;

typedef struct mech_spring_def {
    const char *name;
    int body_a, body_b;
    double pa[2], pb[2]; ///< attachment points in body coordinates [m]
    double k;            ///< stiffness [N/m], >= 0
    double c;            ///< damping [N s/m], >= 0
    double length0;      ///< rest length [m]; NaN: the initial distance
    double axis[2];      ///< (0, 0): along the line between the points; else a fixed world
                         ///< direction: the spring stretches by the points' separation along
                         ///< it (a spring to ground at a node), length0 then measured along it
    mech_law_fn law;     ///< if set, tension = law(length, length rate) instead of k, c
    void *ud;
} mech_spring_def;

typedef struct mech_rot_spring_def {
    const char *name;
    int body_a, body_b;
    double k;      ///< [N m/rad]
    double c;      ///< [N m s/rad]
    double angle0; ///< rest value of phi_b - phi_a [rad]; NaN: the initial value
} mech_rot_spring_def;

typedef struct mech_load_def {
    const char *name;
    int body;
    int torque;      ///< 1: a torque; 0: a force applied at `point`
    int body_frame;  ///< force components given in the body frame (they turn with it)
    double point[2]; ///< application point, body coordinates [m]
    mech_profile profile;
    double value[2];     ///< constant part: force (fx, fy) [N] or torque in value[0] [N m]
    double amplitude[2]; ///< harmonic amplitude, same layout as value
    double freq;         ///< harmonic angular frequency Omega [rad/s]
    double phase;        ///< harmonic phase [rad]
    mech_load_fn fn;     ///< MECH_CALLBACK: computes {fx, fy, torque} in the global frame
    void *ud;
} mech_load_def;

mech_spring_def mech_spring_default(void);
mech_rot_spring_def mech_rot_spring_default(void);
mech_load_def mech_load_default(void);

mech_status mech_spring_add(mech_system *sys, const mech_spring_def *def, int *id, mech_error *err);
mech_status mech_rot_spring_add(mech_system *sys, const mech_rot_spring_def *def, int *id,
                                mech_error *err);
mech_status mech_load_add(mech_system *sys, const mech_load_def *def, int *id, mech_error *err);

/* ---- joints and drivers ---------------------------------------------------------------- */

/// Most points of a slider's outline in a prismatic joint with clearance.
#define MECH_CLEARANCE_CORNERS 8

/*
** The clearance of a joint enforced by MECH_CLEARANCE.  Such a joint has no constraint
** equation: it is a force element that owns contact elements (mech_contact_def), so the
** mechanism keeps the degrees of freedom the ideal joint would remove.
**
** Revolute (journal in bearing, Flores and Ambrosio): a bearing of radius `radius` on body
** a centred at the anchor pa, a journal of radius radius - gap on body b centred at pb; one
** contact of the two circles, named "<joint>.journal".
**
** Prismatic (slider in guide): the guide is two parallel surfaces fixed to body a, at
** -+(h + gap) from the axis through pa along `axis`, their normals pointing inwards; h is
** half the slider's height, the extent of the corners' y coordinates (b's frame) / 2.  The
** slider is the corners, in b's coordinates; b's x axis runs along the guide when the
** slider is not tilted.  Every corner k against each surface is a point-plane contact,
** named "<joint>.c<k>_bottom" (the surface on the right of the axis direction, below a
** guide along +x) and "<joint>.c<k>_top".
**
** The bodies must start where the joint says: the journal's centre within the radial
** clearance, every corner inside the guide.
*/
typedef struct mech_clearance_def {
    double gap;    ///< radial clearance (revolute) or clearance on each side (prismatic) [m]
    double radius; ///< revolute: the bearing's radius [m], > gap
    int ncorners;  ///< prismatic: points of the slider's outline, 1 to MECH_CLEARANCE_CORNERS
    double corners[MECH_CLEARANCE_CORNERS][2]; ///< prismatic: the points, b's coordinates [m]
    mech_normal_law normal_law;                ///< any law of mech_contact.h
    mech_friction_law friction;                ///< any friction law (MECH_FRICTION_NONE: none)
} mech_clearance_def;

typedef struct mech_joint_def {
    const char *name;
    mech_joint_type type;
    int body_a, body_b;
    double pa[2], pb[2]; ///< anchors in body coordinates [m]
    double axis[2];      ///< prismatic: sliding direction in body a's coordinates
    double angle0;       ///< prismatic/fixed: phi_b - phi_a held [rad]; NaN: initial value
    mech_enforce enforce;
    double k[3];                  ///< penalty stiffness per equation (revolute: x, y; prismatic:
                                  ///< normal [N/m], rotation [N m/rad]; fixed: x, y, rotation)
    double c[3];                  ///< penalty damping per equation
    double alpha, beta;           ///< Baumgarte coefficients [1/s]; NaN: the system's
    mech_clearance_def clearance; ///< enforce = MECH_CLEARANCE: the geometry and the laws
} mech_joint_def;

typedef enum mech_driver_type {
    MECH_DRIVE_BODY_ANGLE = 0,     ///< phi of a body (relative to ground)
    MECH_DRIVE_JOINT_ANGLE = 1,    ///< phi_b - phi_a of a revolute joint
    MECH_DRIVE_JOINT_DISTANCE = 2, ///< position of b's anchor along a prismatic axis
} mech_driver_type;

typedef struct mech_driver_def {
    const char *name;
    mech_driver_type type;
    int target;        ///< body id or joint id
    double value0;     ///< value at t = 0 [rad or m]; NaN: the initial configuration's
    double speed;      ///< constant speed [rad/s or m/s] when no callback is given
    mech_motion_fn fn; ///< if set: value, speed, acceleration as functions of time
    double axis[3];    ///< spatial MECH_DRIVE_BODY_ANGLE: the world axis of the rotation
    void *ud;
    double alpha, beta; ///< Baumgarte coefficients; NaN: the system's
} mech_driver_def;

mech_joint_def mech_joint_default(void);
mech_driver_def mech_driver_default(void);

mech_status mech_joint_add(mech_system *sys, const mech_joint_def *def, int *id, mech_error *err);
mech_status mech_driver_add(mech_system *sys, const mech_driver_def *def, int *id, mech_error *err);

/* ---- contacts ------------------------------------------------------------------------------ */

/*
** A point of body a against a straight surface fixed to body b (often the ground): the
** line through `surface_point` with unit normal `normal` (pointing to the free side), both
** in b's coordinates.  The gap is normal . (P - Q); a negative gap is a penetration d.
** The tangent is t = (n_y, -n_x) (the normal turned -90 degrees: +x for a floor with
** normal +y); `surface_speed` moves the surface material along t (a belt).  The normal
** force acts along the normal on a (and back on b), the friction force along t.
** The contact's onset and end are events located in time: the impact velocity is the
** penetration rate at the onset and stays fixed until the contact ends.
*/
typedef struct mech_contact_def {
    const char *name;
    int body_a;              ///< the body whose point touches
    double point[2];         ///< in a's coordinates [m]
    int body_b;              ///< the body carrying the surface
    double surface_point[2]; ///< a point of the surface line, b's coordinates [m]
    double normal[2];        ///< its normal, b's coordinates (normalised by libmech)
    double surface_speed;    ///< tangential speed of the surface material [m/s]
    int flip_tangent;        ///< 1: the tangent is -(n_y, -n_x) (the upper surface of a guide
                             ///< whose friction is counted along the guide's axis)
    mech_normal_law normal_law;
    mech_friction_law friction;
} mech_contact_def;

mech_contact_def mech_contact_default(void);

mech_status mech_contact_add(mech_system *sys, const mech_contact_def *def, int *id,
                             mech_error *err);

/* ---- the system -------------------------------------------------------------------------- */

/// "revolute", "prismatic", "fixed".
const char *mech_joint_type_name(mech_joint_type t);
/// Number of equations an ideal joint of type t imposes (revolute 2, prismatic 2, fixed 3);
/// 0 for an unknown type.
int mech_joint_type_equations(mech_joint_type t);
/// "spring", "rotational spring", "load".
const char *mech_force_type_name(mech_force_type t);

mech_status mech_system_create(mech_system **out, const double gravity[2], mech_error *err);
void mech_system_destroy(mech_system *sys);

/// Default Baumgarte coefficients of Lagrange joints and drivers (5 and 5 1/s).
mech_status mech_system_set_baumgarte(mech_system *sys, double alpha, double beta, mech_error *err);

/// Assembly (initial positions and velocities made consistent): on by default.
void mech_system_set_assembly(mech_system *sys, int on);

/*
** How the assembly starts a model with joints with clearance (MECH_CLEARANCE).
**
** MECH_START_IDEAL: the assembly holds every joint with clearance as the ideal joint (a
** revolute one: the journal's centre on the bearing's; a prismatic one: the middle of the
** slider's corners on the guide's axis, the slider not tilted), so that the positions are
** centred and the velocities are those of the ideal mechanism (the rate equations of the
** ideal joints hold); the joints are then released for the run.  This is how clearance
** studies start (Flores and Ambrosio): the journal free of its bearing, moving with it.
**
** MECH_START_AS_GIVEN: the joints with clearance take no part in the assembly: the bodies
** they join keep their relative position and velocity as given, up to what the other
** joints change.
**
** MECH_START_AUTO (the default): MECH_START_IDEAL when the model has a joint with clearance,
** every body was given zero velocity and angular velocity, and every joint with clearance
** was placed centred (within a thousandth of its clearance: not placed on purpose
** elsewhere); otherwise MECH_START_AS_GIVEN.  A model without joints with clearance starts
** the same either way.  Without assembly (mech_system_set_assembly) nothing is changed.
*/
typedef enum mech_start {
    MECH_START_AUTO = 0,
    MECH_START_IDEAL = 1,
    MECH_START_AS_GIVEN = 2,
} mech_start;

/// Chooses how the assembly starts the joints with clearance (default MECH_START_AUTO).
mech_status mech_system_set_start(mech_system *sys, mech_start start, mech_error *err);

/// The start the next (or last) assembly uses: MECH_START_IDEAL or MECH_START_AS_GIVEN (the
/// rule of MECH_START_AUTO applied to the model as it is now).
mech_start mech_system_start(const mech_system *sys);

/*
** After finalize: when a joint with clearance starts with a large relative velocity across
** its clearance, writes a one-line note naming it into buf (size bytes) and returns 1;
** otherwise writes "" and returns 0.  "Large": above V sqrt(2 c / L), with V the fastest
** speed of the mechanism's centres of mass and joint anchors at the start, c the clearance
** and L the model's longest anchor offset.  A journal started centred and consistent meets
** its bearing only after the mechanism's own relative acceleration, of order V^2 / L, has
** carried it across c, at about that speed: a start faster than it makes the first impact
** an artefact of the start.
*/
int mech_system_start_note(const mech_system *sys, char *buf, size_t size);

/*
** How the constrained solve factors its reduced matrix: S = G M^-1 G^T over the Lagrange
** equations (G their Jacobian, M the mass matrix), bordered by the coordinates without
** inertia.  Both solvers give the same accelerations and multipliers up to rounding, and the
** same errors (a singular matrix names the same joint, driver or body).
**
** MECH_SOLVER_DENSE: Cholesky, or LU with pivoting, of the full matrix: the fastest for small
** mechanisms, but its cost grows as the cube of the number of equations.
**
** MECH_SOLVER_SPARSE: sparse LU (SuiteSparse's KLU) of the entries two equations share a body
** in: its cost grows about linearly for chains and other mechanisms whose bodies each carry a
** few joints.  The pattern is analysed at finalize, the pivots chosen at the first
** evaluation and reused while they stay sound; nothing is allocated while stepping.  KLU's
** memory comes from libmech's allocator (through SuiteSparse_config's functions, which
** libmech points at its own the first time, unless the program changed them).
**
** MECH_SOLVER_AUTO (the default): MECH_SOLVER_SPARSE when the reduced matrix has at least
** 24 equations and at most half of its entries can be non-zero (measured: below that size the
** two are within 20 % of each other, and beyond that share the dense solve is faster), otherwise
** MECH_SOLVER_DENSE: the slider-cranks stay dense, chains of 12 links or more go sparse.
*/
typedef enum mech_solver {
    MECH_SOLVER_AUTO = 0,
    MECH_SOLVER_DENSE = 1,
    MECH_SOLVER_SPARSE = 2,
} mech_solver;

/// Chooses the solver of the constrained solve (default MECH_SOLVER_AUTO); the next finalize
/// applies it.
mech_status mech_system_set_solver(mech_system *sys, mech_solver solver, mech_error *err);

/// After finalize: the solver in use, MECH_SOLVER_DENSE or MECH_SOLVER_SPARSE; before, the
/// one set.
mech_solver mech_system_solver(const mech_system *sys);

/// "auto", "dense" or "sparse"; NULL for a value that is not a mech_solver.
const char *mech_solver_name(mech_solver solver);

/*
** Checks the model, sizes the workspaces and, unless turned off, assembles: Newton
** iterations make the Lagrange and penalty joint equations hold at t = 0 (drivers at
** their initial values) moving the bodies as little as possible, then the velocities
** are made consistent.  Errors name the entities at fault (a redundant or conflicting
** joint, a joint still violated and by how much, a body without inertia that can turn).
*/
mech_status mech_system_finalize(mech_system *sys, mech_error *err);

/// 1 when the system was finalized and not changed since.
int mech_system_is_final(const mech_system *sys);

typedef enum mech_kind {
    MECH_KIND_NONE = 0,
    MECH_KIND_BODY,
    MECH_KIND_POINT,
    MECH_KIND_FORCE,
    MECH_KIND_JOINT,
    MECH_KIND_DRIVER,
    MECH_KIND_SYSTEM,
    MECH_KIND_CONTACT,
    MECH_KIND_FE, ///< a flexible (finite-element) body; its nodes are bodies
} mech_kind;

/// Finds an entity by name ("crank", "crank.tip", "system"); returns its kind (NONE if absent).
mech_kind mech_system_find(const mech_system *sys, const char *name, int *id);

/// Counts of entities of a kind (bodies include the ground).
int mech_system_count(const mech_system *sys, mech_kind kind);

/*
** Makes room for n more contacts, so that adding them allocates nothing: a caller that adds
** several as one (a guide) either fails on the first or adds them all.
*/
mech_status mech_system_reserve_contacts(mech_system *sys, int n, mech_error *err);

/// Name of an entity.
const char *mech_system_name(const mech_system *sys, mech_kind kind, int id);

/*
** Sizes of the state y = (q, u, w): position coordinates q (3 per planar body: x, y, phi;
** 2 per node), velocities u (as many, q' = u, in a planar system), and all state values
** (nstate, after finalize; else 0).
*/
int mech_system_ncoord(const mech_system *sys);
int mech_system_nvel(const mech_system *sys);
int mech_system_nstate(const mech_system *sys);

/// A count of the changes made to the model (an entity added or changed): states kept by a
/// run (mech_run_motion) are the model's while it stays the same.
unsigned long mech_system_revision(const mech_system *sys);

/// Degrees of freedom left by the Lagrange joints and drivers (velocities - equations).
int mech_system_dof(const mech_system *sys);

/// Initial state after finalize: positions, velocities, then the energy accounts.
mech_status mech_system_initial_state(mech_system *sys, double *y, mech_error *err);

/*
** Right-hand side y' = f(t, y) for the integrators (a mech_rhs_fn with ctx = system).
** On failure the message is kept and read with mech_system_last_error.
*/
int mech_system_rhs(void *sys, double t, const double *y, double *ydot);

/// The message of the last failure of mech_system_rhs or mech_system_evaluate.
const mech_error *mech_system_last_error(const mech_system *sys);

/*
** Full evaluation at (t, y): positions, forces, accelerations, multipliers, reactions
** and energies, kept for reading by mech_system_value until the next call.
*/
mech_status mech_system_evaluate(mech_system *sys, double t, const double *y, mech_error *err);

/// Writes an entity's parameters on one line ("mass 0.17 kg, ..."); returns the length needed.
size_t mech_entity_summary(const mech_system *sys, int kind, int id, char *buf, size_t size);

/// The pose (x, y, angle) body b was given at creation, before assembly.
void mech_body_initial_pose(const mech_system *sys, int b, double pose[3]);

/// Type of joint j.
mech_joint_type mech_joint_type_of(const mech_system *sys, int j);

/// Writes a one-line description of state component i ("body 'rod' omega") into buf.
void mech_system_describe_state(const mech_system *sys, int i, char *buf, size_t size);

/*
** Writes a description of the model (one line per entity with its parameters, each
** starting with prefix) into buf; returns the length it needed (like snprintf).
*/
size_t mech_system_describe(const mech_system *sys, const char *prefix, char *buf, size_t size);

#endif

/* SPDX-License-Identifier: MIT */
/* Private layout of mech_system, shared by system.c, constraints.c, dynamics.c,
** assemble.c, channels.c and sim.c. */
#ifndef MECH_SYSTEM_IMPL_H
#define MECH_SYSTEM_IMPL_H

#include "mech_fe.h"
#include "mech_integ.h"
#include "mech_system.h"
#include "planar_body.h"

typedef struct body {
    char name[MECH_NAME_MAX];
    double mass, inertia;
    double q0[3], v0[3]; /* as the user gave them */
    int dof;             /* index of x in q, -1 for the ground */
    int nc;              /* coordinates: 3 (x, y, phi), 2 for a node of a flexible body */
    int fe, node;        /* a node: its flexible body and index there; else -1 */
    int outline;         /* 0 none, 1 rectangle, 2 segment */
    double outline_data[4];
} body;

typedef struct point {
    char name[MECH_NAME_MAX];
    char full[2 * MECH_NAME_MAX + 1]; /* "body.point" */
    int body;
    double s[2];
} point;

typedef struct force {
    char name[MECH_NAME_MAX];
    mech_force_type type;
    int a, b;            /* springs: both bodies; loads: a is the body */
    double pa[2], pb[2]; /* springs: attachments; loads: pa is the application point */
    double k, c, rest;   /* springs: rest length; rotational: rest angle */
    double axis[2];      /* springs along a fixed world direction (unit), else (0, 0) */
    mech_law_fn law;
    mech_load_def load; /* loads */
    void *ud;
    /* last evaluation */
    double out[4]; /* spring: tension, length, rate, energy; load: fx, fy, torque, power */
} force;

typedef struct joint {
    char name[MECH_NAME_MAX];
    mech_joint_type type;
    int a, b;
    double pa[2], pb[2];
    double axis[2]; /* unit, body a coordinates */
    double angle0;
    mech_enforce enforce;
    double k[3], c[3];
    double alpha, beta;
    int neq; /* equations (0 with clearance) */
    int row; /* first row among the Lagrange rows, -1 for penalty and clearance */
    /* clearance: the joint's contacts are contacts[contact0 .. contact0 + ncontact) */
    int contact0, ncontact;
    double gap, radius; /* the clearance and the bearing's radius, as given */
    double mid;         /* prismatic: the y of the middle of the slider's corners, b's frame */
    /* last evaluation */
    double phi[3], phidot[3], lambda[3];
    double react[4]; /* on body b: fx, fy, moment about anchor b, normal force (prismatic) */
} joint;

typedef struct driver {
    char name[MECH_NAME_MAX];
    mech_driver_type type;
    int target;
    double value0, speed;
    mech_motion_fn fn;
    void *ud;
    double alpha, beta;
    int row;  /* its Lagrange row */
    int work; /* state index of its work */
    /* last evaluation */
    double motion[3]; /* prescribed value, speed, acceleration */
    double lambda, effort, power, actual;
} driver;

/* The geometry of a contact: only how the gap, the normal and the two contact points are
** found differs; the laws, events, friction and energy accounts are the same for all. */
typedef enum contact_shape {
    SHAPE_POINT_PLANE = 0, /* a point of a against a straight surface of b */
    SHAPE_CIRCLE_IN_CIRCLE /* a circle of a (a journal) inside a circle of b (its bearing) */
} contact_shape;

/* A contact pair: body a touches a surface of body b, with its laws and its history.  The
** discrete state (active, v0, impacts) changes only at located events, never inside a
** step; the bristle state (Dahl, LuGre) is part of the state vector. */
typedef struct contact {
    char name[2 * MECH_NAME_MAX + 1]; /* "joint.c1_top" for the contacts a joint owns */
    contact_shape shape;
    int a, b;
    double pa[2];        /* the point (the journal's centre), a's coordinates */
    double qb[2], nb[2]; /* the surface point and unit normal (the bearing's centre), b's */
    double ra, rb;       /* circle in circle: the journal's and the bearing's radii */
    double speed;        /* surface speed along the tangent */
    int flip;            /* the tangent is -(n_y, -n_x) */
    int owner;           /* the clearance joint this contact belongs to, -1 for none */
    mech_normal_law nlaw;
    mech_friction_law flaw;
    int z; /* state index of the bristle deflection, -1 if none */
    /* history */
    int active; /* in contact since the last onset */
    double v0;  /* impact velocity of the current contact */
    long impacts;
    /* last evaluation */
    double gap, dd, vt, fn, ft, elastic, zdot;
    int sticking;
} contact;

/* A flexible body (fe.c): its nodes are the bodies body0 .. body0 + mesh.nnodes - 1, their
** coordinates dof0 .. dof0 + 2 nnodes - 1 (x, y per node), contiguous.  K is kept in
** compressed rows over those 2 nnodes coordinates. */
typedef struct fe_body {
    char name[MECH_NAME_MAX];
    mech_mesh mesh;
    double E, nu, density, thickness, alpha, beta;
    int plane_strain;
    mech_lumping lumping;
    int body0, dof0;   /* the first node's body and coordinate */
    int *rowptr, *col; /* CSR of K: 2 nnodes + 1 row starts, column indices */
    double *val;
    double *mass; /* nnodes lumped masses */
    double total; /* total mass */
    /* last full evaluation */
    double strain_energy, p_damping;
} fe_body;

/* One constraint equation as evaluated: value, partial time derivative, the
** acceleration right-hand side gamma (Phi_q q'' = gamma), and the Jacobian entries on
** the coordinates (x, y, phi) of bodies a and b. */
typedef struct crow {
    double phi, phit, gamma;
    double ja[3], jb[3];
} crow;

/* Two Lagrange rows that share a body: an entry of S = A M^-1 A^T that may be non-zero.
** s[m], u[m] say which body (0 = a, 1 = b) of row r and of row c is the shared one. */
typedef struct kpair {
    int r, c, nm;
    signed char s[2], u[2];
} kpair;

/* A Lagrange row: which entity owns it. */
typedef struct rowinfo {
    int kind; /* MECH_KIND_JOINT or MECH_KIND_DRIVER */
    int id;
    int eq;           /* equation index within the entity */
    int dof_a, dof_b; /* first coordinate of bodies a and b, -1 for ground */
    int nc_a, nc_b;   /* their numbers of coordinates (3, or 2 for a node) */
    double alpha, beta;
} rowinfo;

struct mech_system {
    double gravity[2];
    double alpha, beta;
    int assemble;
    mech_start start;      /* as chosen (MECH_START_AUTO by default) */
    mech_start start_used; /* by the last assembly: IDEAL or AS_GIVEN */
    char start_note[400];  /* after finalize: the warning of mech_system_start_note, or "" */
    int final;

    body *bodies;
    point *points;
    force *forces;
    joint *joints;
    driver *drivers;
    contact *contacts;
    fe_body *fes;
    int nbodies, npoints, nforces, njoints, ndrivers, ncontacts, nfes;
    int cap_bodies, cap_points, cap_forces, cap_joints, cap_drivers, cap_contacts, cap_fes;
    int ncoord_given; /* coordinates of the bodies added so far */

    /* sizes, set by finalize */
    int ncoord;              /* 3 per moving body */
    int nrows;               /* Lagrange rows */
    int nz;                  /* coordinates without inertia (solved through the constraints) */
    int nquad;               /* energy accounts: driver works, applied work, dissipation */
    int nstate;              /* 2 ncoord + nquad */
    int iapplied, idissip;   /* state indices of the two global accounts */
    int icontact, ifriction; /* dissipated by contact damping and by friction */
    int nbristle;            /* bristle states, at the end of the state vector */

    /* workspaces, sized by finalize */
    double *minv; /* 1/mass per coordinate, 0 for massless coordinates */
    int *zcoord;  /* the massless coordinates */
    /* fast solve (see dynamics.c): per massless coordinate its own row, the sign of its
    ** coefficient there and the weight w; 1/M~ per coordinate */
    int fast;
    int *zrow;
    double *zcoef, *zw, *minv_aug;
    rowinfo *rows; /* nrows */
    crow *cr;      /* nrows */
    double *rhs;   /* nrows: gamma - 2 alpha Phi' - beta^2 Phi */
    double *Q;     /* ncoord generalized forces */
    double *qdd;   /* ncoord accelerations */
    double *K;     /* (nrows + nz)^2 reduced matrix */
    kpair *pairs;  /* its structurally non-zero entries in the rows block */
    int npairs;
    double *sol;        /* nrows + nz */
    int *piv;           /* nrows + nz */
    double *y0;         /* nstate: the assembled initial state */
    double *ydot;       /* nstate: scratch derivative for full evaluations */
    double *cs;         /* cos and sin of every body's angle during one evaluation */
    const double *cs_q; /* the positions cs was computed from (NULL: none) */

    /* last full evaluation */
    double t_eval;
    const double *q, *v; /* views into the evaluated state */
    double kinetic, potential, p_applied, p_dissip;
    double elastic;               /* the part of potential stored in springs and penalty joints */
    double contact_energy;        /* stored in contacts (part of elastic) */
    double p_contact, p_friction; /* power dissipated by contact damping and friction */
    double energy0;               /* kinetic + potential at the assembled initial state */
    const double *y_eval;         /* the state evaluated (for the energy accounts) */

    mech_error last_err;
};

/* ---- system.c: the life cycle, and the checks of a run against the model's scale ---- */
/*
** The length scale of a run to t_end [m]: the largest of the positions at the assembled
** start (y0), the lengths of the model (anchors, attachment and contact points, rest
** lengths, outlines, bearing radii), and how far the start could carry a body in t_end:
** its speed times t_end, its acceleration and gravity times t_end^2 / 2.  Reads the
** accelerations of the last evaluation (qdd): call it right after evaluating at y0.
*/
double system_scale(const mech_system *sys, double t_end);
/* The first position coordinate (x or y of a body or node) of state y that is farther than
** bound from 0 or not finite, or -1. */
int system_runaway(const mech_system *sys, const double *y, double bound);
/* Runs stop when a body goes farther than this many times the scale (by default). */
#define SYSTEM_RUNAWAY_FACTOR 1e6
/* Says that state component i (a position) has the value x, beyond bound, which is
** SYSTEM_RUNAWAY_FACTOR times scale when scale > 0, else the user's max_distance. */
void system_runaway_text(const mech_system *sys, int i, double x, double bound, double scale,
                         char *buf, size_t size);

/*
** The energy balance of the last full evaluation (energy - initial energy - work of the
** drivers - work of the loads + energy dissipated: the channel system.balance); *inputs
** (unless NULL) gets the sum of the magnitudes of the works of the drivers and the loads.
*/
double system_balance(const mech_system *sys, double *inputs);
/*
** After a full evaluation of state y: when the energy balance is off by more than
** SYSTEM_RUNAWAY_FACTOR times the energy the model was given (|initial energy|, total mass
** times |gravity| times the length L, the works of the drivers and loads so far), writes
** why into buf, naming the body with the most kinetic energy, and returns 1; else 0.  A
** motion that gains energy from nothing has run away (a law too stiff for the step), also
** when no position has gone far yet.
*/
int system_energy_runaway(const mech_system *sys, const double *y, double L, char *buf,
                          size_t size);

/* ---- sim.c ---- */
/*
** Appends to buf (the reason of a failed step, or of a run that ran away) what the run knows
** beyond it: for the integrator's own failures (own: the model did not report it itself)
** the state component behind it and its entity; when the stiffness test flagged a
** fixed-step method (io), that the step is too long; for a bristle state, its law's remedy.
*/
void sim_failure_notes(const mech_system *sys, const mech_integ *integ,
                       const mech_integ_options *io, mech_status st, int own, char *buf,
                       size_t size);

/*
** Appends to buf, the reason of a run stopped for its pace (mech_integ_check_pace), what held
** it: stiffness under "dopri5" (the stiffness test), steps rejected again and again (a stiff
** law or a force that jumps), or else a run that is simply long.
*/
void sim_pace_notes(const mech_integ *integ, const mech_integ_options *io, char *buf, size_t size);

/* ---- fe.c ---- */
/* Internal forces -K u - C u' of every flexible body added to Q; adds the damping power to
** *p_dissip and, when full, keeps each body's strain energy and adds it to *v_elastic. */
void fe_forces(mech_system *sys, const double *q, const double *v, double *p_dissip,
               double *v_elastic, int full);
/* Frees what the flexible bodies hold. */
void fe_free_all(mech_system *sys);

/* ---- constraints.c ---- */

/* Number of equations of a joint type. */
int joint_equations(mech_joint_type type);
/* Evaluates the equations of joint j at (q, v) into rows[0..neq). */
void joint_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                crow *rows);
/* Evaluates the driver equation at (q, v, t); needs d->motion filled for time t. */
void driver_eval(const mech_system *sys, const driver *d, const double *q, const double *v,
                 crow *row);
/* Bodies a and b a driver's equation involves. */
void driver_bodies(const mech_system *sys, const driver *d, int *a, int *b);
/* The value the driver's coordinate has at (q): angle or distance. */
double driver_coordinate(const mech_system *sys, const driver *d, const double *q);
/* Fills d->motion for time t (value, speed, acceleration); returns a callback status. */
int driver_motion(mech_system *sys, driver *d, double t);

/* ---- dynamics.c ---- */

/* Right-hand side with full = 1 also keeps reactions, energies and element outputs. */
int dynamics(mech_system *sys, double t, const double *y, double *ydot, int full);

/* Absolute tolerances per state component: `given` (per component) if not NULL, else
** atol for positions and velocities; the energy accounts get an infinite tolerance: they
** follow the steps the mechanical states need and do not steer the error control. */
void system_atol(const mech_system *sys, double atol, const double *given, double *out);

/* ---- contact.c ---- */
/* Contact forces (normal and friction) into Q; the accounts' powers and the bristle
** rates into ydot.  pass 1: everything but sticking friction; pass 2: sticking friction
** (trial-and-error), once all other forces on the bodies are known.  Returns a callback
** status (0). */
int contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass);
/* Gap of every contact at state y (events of the model). */
void contact_gaps(const mech_system *sys, const double *y, double *g);
/* Contact k's onset or end at (t, y): updates its history (and resets its bristle state
** in y at an onset).  Returns 1 if it changed: the integration must restart from y. */
int contact_event(mech_system *sys, int k, double t, double *y);
/* Sets every contact's history from state y (at the start of a run). */
void contact_start(mech_system *sys, double t, const double *y);
/* Gap of contact k at state y. */
double contact_gap(const mech_system *sys, int k, const double *y);

/* ---- clearance.c: joints with clearance, made of contacts ---- */
/* Checks the clearance d of joint j (the last one added), adds its contacts and checks that
** its bodies start within the clearance.  On failure no contact is added (the caller then
** removes the joint). */
mech_status clearance_attach(mech_system *sys, int j, const mech_clearance_def *d, mech_error *err);
/* Checks that every joint with clearance holds its bodies within the clearance in state y;
** `when` ends the message ("after assembly"). */
mech_status clearance_check_state(const mech_system *sys, const double *y, const char *when,
                                  mech_error *err);
/* Revolute joint j with clearance at (q, v): the eccentricity (journal centre - bearing
** centre) in the world and in the bearing body's frame. */
void clearance_eccentricity(const mech_system *sys, const joint *j, const double *q,
                            const double *v, double world[2], double local[2]);
/* The ideal joint of joint j with clearance, for an ideal start: a revolute one holds the
** journal's centre on the bearing's; a prismatic one the middle of the slider's corners on
** the guide's axis, the slider not tilted (the nearest untilted angle to that in positions q).
** Writes it into *ideal (j itself for a joint without clearance). */
void clearance_ideal(const mech_system *sys, const joint *j, const double *q, joint *ideal);
/* Whether joint j with clearance is centred at positions q: the journal's centre within tol
** of the bearing's, or the slider's corners within tol of their centred, untilted places. */
int clearance_centred(const mech_system *sys, const joint *j, const double *q, double tol);
/* The speed across the clearance of joint j at (q, v): the journal's centre relative to the
** bearing's (any direction crosses the clearance from the centre), or the largest speed of a
** slider's corner along the guide's normal relative to the guide. */
double clearance_speed(const mech_system *sys, const joint *j, const double *q, const double *v);
/* Prismatic joint j with clearance at (q, v): the slider's angle to the guide axis and the
** distance of its centre of mass from the axis (along the axis turned +90 degrees). */
void clearance_slider(const mech_system *sys, const joint *j, const double *q, const double *v,
                      double *tilt, double *offset);
/* Joint j with clearance at (q, v), with its contacts' forces of the last evaluation:
** the resultant force its contacts apply to its second body b (the journal, the slider),
** in the world, and its moment about b's anchor: f = {fx, fy, m}, as an ideal joint's
** reaction. */
void clearance_force(const mech_system *sys, const joint *j, const double *q, const double *v,
                     double f[3]);

/* ---- assemble.c ---- */
/* Moves the positions and velocities of state y the least so that every joint and driver
** equation holds at time t (the initial assembly is t = 0, y = y0).  With ideal, the joints
** with clearance take part as their ideal joints (clearance_ideal): an ideal start. */
mech_status assemble_state(mech_system *sys, double t, double *y, int ideal, mech_error *err);

#endif

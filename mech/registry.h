/* SPDX-License-Identifier: MIT */
/*
** The registry of a system (registry.c): the storage of every entity (the structs below,
** which every stage reads) and what the constructors share, below every stage.  A constructor
** checks its definition, takes a name, grows its array, appends
** and calls system_changed; nothing here calls assembly or dynamics.
*/
#ifndef MECH_REGISTRY_H
#define MECH_REGISTRY_H

#include <math.h>
#include <stddef.h>

#include "mech_fe.h"
#include "mech_integ.h"
#include "mech_spatial.h"
#include "mech_system.h"
#include "mass_block.h"

struct dim_ops;    /* dim.h */
struct system_jac; /* system_jac.h */
struct joint_type; /* joint_type.h */
struct sparse_map; /* dynamics.c: a reduced matrix of the sparse solve */

/* The most equations a joint has (a spatial fixed joint). */
#define JOINT_NEQ_MAX 6

/*
** An angle followed from step to step, whole turns counted (spatial joints' angles about their
** axes): its value and rate at the last accepted step, at time t.  Within a step, and at the
** rows of the step before, the angle is read within pi of where that value carried on at that
** rate leads (angle_track_near): a joint may turn more than half a turn in a step, as long as
** its rate changes over the step by less than pi over the step's length.
*/
typedef struct angle_track {
    double value, rate, t;
} angle_track;

static inline double angle_track_near(const angle_track *a, double t)
{
    return a->value + a->rate * (t - a->t);
}

typedef struct body {
    char name[MECH_NAME_MAX];
    double mass, inertia; /* inertia: a planar body's; a spatial body's mean principal moment */
    double J[9], Jinv[9]; /* a spatial body: its inertia tensor about the centre of mass in body
                          ** axes, and its inverse (inertia.h) */
    /* pose and velocities as the user gave them: planar (x, y, phi), (vx, vy, omega); spatial
    ** (x, y, z, e0, e1, e2, e3), (vx, vy, vz, wx, wy, wz) with omega in world axes */
    double q0[7], u0[6];
    int q_at, nq; /* its positions q[q_at ..] (x, y, phi; x, y for a node; 7 spatial); -1 ground */
    int u_at, nu; /* its velocities u[u_at ..] (vx, vy, omega; vx, vy; 6 spatial); -1 ground */
    int fe, node; /* a node: its flexible body and index there; else -1 */
    int block;    /* its mass block (set by finalize), -1 for the ground */
    int outline;  /* 0 none, 1 rectangle, 2 segment */
    double outline_data[4];
} body;

typedef struct point {
    char name[MECH_NAME_MAX];
    char full[2 * MECH_NAME_MAX + 1]; /* "body.point" */
    int body;
    double s[3]; /* body coordinates (z: spatial only) */
} point;

typedef struct force {
    char name[MECH_NAME_MAX];
    mech_force_type type;
    int a, b;            /* springs: both bodies; loads: a is the body */
    double pa[3], pb[3]; /* springs: attachments; loads: pa is the application point */
    double k, c, rest;   /* springs: rest length; rotational: rest angle */
    double axis[3];      /* springs along a fixed world direction (unit), else zero */
    int joint;           /* a spatial rotational spring: the joint whose axis it turns about */
    angle_track angle;   /* ... and its angle at the last accepted step, whole turns counted:
                         ** the next evaluations read it within pi of where that one leads */
    mech_law_fn law;
    mech_load_def load;   /* planar loads */
    mech_sload_def sload; /* spatial loads */
    void *ud;
    /* last evaluation */
    double out[8]; /* spring: tension, length, rate, energy; planar load: fx, fy, torque, power;
                   ** spatial load: fx, fy, fz, tx, ty, tz, power */
} force;

/* A spatial prismatic joint with clearance (sbox_joint.c): the sizes of its channel and
** slider, its stiffness model, and per wall (SBOX_XPOS ...) what the last evaluation found. */
typedef struct joint_box {
    double Wx, Wz;        /* the channel's inner half-widths along the guide's X and Z */
    double hx, hy, hz;    /* the slider's half sizes along X, the travel Y, Z */
    int model;            /* mech_sbox_stiffness */
    double E[2], nu[2];   /* the area models: the guide's and the slider's materials */
    int damped;           /* the area models: with the Lankarani-Nikravesh factor */
    double e, v_min;      /* its restitution and least impact speed */
    int mode[4];          /* per wall: SBOX_NONE ... SBOX_THROUGH */
    double pen[4];        /* the deepest corner's penetration (< 0: the least clearance) */
    double fn[4], ft[4];  /* the normal forces' sum, the friction forces' resultant's magnitude */
    double ftv[4][3];     /* the friction forces' resultant (world), for the sticking pass */
    double area[4], k[4]; /* the patch's area and the stiffness (area models; 0 per corner) */
} joint_box;

typedef struct joint {
    char name[MECH_NAME_MAX];
    mech_joint_type type;
    const struct joint_type *jt; /* its entry in its system's table of joint types */
    int a, b;
    double pa[3], pb[3]; /* anchors, body coordinates (z: spatial only) */
    double axis[2];      /* planar: unit, body a coordinates */
    /* spatial: the joint's frame on each body, body coordinates, row-major 3 x 3 whose columns
    ** are the frame's x, y, z axes (z the joint's axis); the two frames coincide when the
    ** joint is at its reference configuration */
    double fa[9], fb[9];
    angle_track angle; /* spatial revolute or cylindrical: the angle about the axis at the last
                       ** accepted step, whole turns counted (its channel follows it) */
    double angle0;
    mech_enforce enforce;
    double k[JOINT_NEQ_MAX], c[JOINT_NEQ_MAX];
    double alpha, beta;
    int neq; /* equations (0 with clearance) */
    int row; /* first row among the Lagrange rows, -1 for penalty and clearance */
    /* clearance: the joint's contacts are contacts[contact0 .. contact0 + ncontact) */
    int contact0, ncontact;
    double gap, radius; /* the clearance and the bearing's radius, as given */
    double mid;         /* prismatic: the y of the middle of the slider's corners, b's frame */
    joint_box box;      /* spatial prismatic with clearance: the box slider in its channel */
    /* last evaluation */
    double phi[JOINT_NEQ_MAX], phidot[JOINT_NEQ_MAX], lambda[JOINT_NEQ_MAX];
    /* on body b at its anchor: planar fx, fy, moment, normal force (prismatic); spatial the
    ** force (3) and the moment (3) in world axes, then both in a's joint frame */
    double react[12];
} joint;

typedef struct driver {
    char name[MECH_NAME_MAX];
    mech_driver_type type;
    int target;
    double fa[9], fb[9]; /* a spatial body's angle: the world frame of its axis, and the same
                         ** frame in the body's coordinates at the start (as joint.fa, fb) */
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
    SHAPE_POINT_PLANE = 0,    /* a point of a against a straight surface of b */
    SHAPE_CIRCLE_IN_CIRCLE,   /* a circle of a (a journal) inside a circle of b (its bearing) */
    SHAPE_JOURNAL_IN_BEARING, /* spatial: one of the four contacts of a journal cylinder of a in
                              ** the cavity of b (sclearance_geom.h), `slot` says which */
    SHAPE_BOX_CORNER,         /* spatial: a corner of a box slider a against a wall of the channel
                              ** of b (sbox_geom.h): `slot` = 8 wall + corner */
    SHAPE_BOX_WALL            /* spatial: a box slider a against a wall of the channel of b by an
                              ** area-dependent law (sbox_law.h): `slot` = the wall */
} contact_shape;

/* A contact pair: body a touches a surface of body b, with its laws and its history.  The
** discrete state (active, impact_speed, impacts) changes only at located events, never inside a
** step; the bristle state (Dahl, LuGre) is part of the state vector. */
typedef struct contact {
    char name[2 * MECH_NAME_MAX + 1]; /* "joint.c1_top" for the contacts a joint owns */
    contact_shape shape;
    int a, b;
    double pa[2];        /* the point (the journal's centre), a's coordinates */
    double qb[2], nb[2]; /* the surface point and unit normal (the bearing's centre), b's */
    double ra, rb;       /* circle in circle: the journal's and the bearing's radii */
    double la, lb;       /* journal in bearing: the journal's and the bearing's lengths */
    int slot;            /* journal in bearing: SCLEARANCE_RADIAL_A ... SCLEARANCE_AXIAL_B */
    double speed;        /* surface speed along the tangent */
    int flip;            /* the tangent is -(n_y, -n_x) */
    int owner;           /* the clearance joint this contact belongs to, -1 for none */
    mech_normal_law nlaw;
    mech_friction_law flaw;
    int bristle; /* state index of the bristle deflection, -1 if none */
    /* history */
    int active;          /* in contact since the last onset */
    double impact_speed; /* the penetration rate when the current contact began */
    long impacts;
    /* last evaluation */
    double gap, dd, vt, fn, ft, elastic, zdot;
    int sticking;
    /* sticking friction (planar) at the last evaluation: the derivative of its force along t
    ** by every other force along t (-1 holding, 0 clamped or not sticking) and t itself */
    double dft_dother, t_stick[2];
    /* spatial: the friction force on a at the last evaluation (world), of magnitude ft */
    double ft_vec[3];
} contact;

/* A flexible body (fe.c): its nodes are the bodies body0 .. body0 + mesh.nnodes - 1, their
** coordinates dof0 .. dof0 + 2 nnodes - 1 (x, y per node), contiguous, among the positions
** and among the velocities alike (a planar system: q_at == u_at for every body).  K is kept in
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
** acceleration right-hand side gamma (G u' = gamma), and the Jacobian entries on the
** velocities of bodies a and b (x, y, phi for a planar body: as many as its mass block). */
typedef struct crow {
    double phi, phit, gamma;
    double ja[BODY_NU_MAX], jb[BODY_NU_MAX];
} crow;

/* Two Lagrange rows that share a body: an entry of S = G M^-1 G^T that may be non-zero.
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
    int blk_a, blk_b; /* their mass blocks, -1 for ground */
    double alpha, beta;
} rowinfo;

struct mech_system {
    int dim;                    /* 2 planar, 3 spatial: fixed at creation */
    const struct dim_ops *dops; /* what depends on the dimension (dim.h): planar or spatial */
    double gravity[3];          /* z: spatial only */
    double alpha, beta;
    int assemble;
    mech_start start;      /* as chosen (MECH_START_AUTO by default) */
    mech_start start_used; /* by the last assembly: IDEAL or AS_GIVEN */
    char start_note[400];  /* after finalize: the warning of mech_system_start_note, or "" */
    mech_solver solver;    /* as chosen (MECH_SOLVER_AUTO by default) */
    int final;
    unsigned long revision; /* counts the changes of the model (system_changed) */

    body *bodies;
    point *points;
    force *forces;
    joint *joints;
    driver *drivers;
    contact *contacts;
    fe_body *fes;
    int nbodies, npoints, nforces, njoints, ndrivers, ncontacts, nfes;
    int cap_bodies, cap_points, cap_forces, cap_joints, cap_drivers, cap_contacts, cap_fes;
    int nq_given, nu_given; /* positions and velocities of the bodies added so far */

    /* sizes, set by finalize */
    int nq, nu;              /* positions q and velocities u: 3 and 3 per planar body */
    int nrows;               /* Lagrange rows */
    int nmassless;           /* velocities without inertia (solved through the constraints) */
    int nquad;               /* energy accounts: driver works, applied work, dissipation */
    int nstate;              /* nq + nu + nquad + nbristle: y = (q, u, the rest) */
    int iapplied, idissip;   /* state indices of the two global accounts */
    int icontact, ifriction; /* dissipated by contact damping and by friction */
    int nbristle;            /* bristle states, at the end of the state vector */

    /* workspaces, sized by finalize */
    mass_block *blocks; /* one per moving body, in the order of their velocities */
    int nblocks;
    double *minv;        /* diagonal blocks: 1/mass per velocity, 0 for massless ones */
    double *minv_full;   /* full blocks' inverses (none in a planar system) */
    int *massless;       /* the velocities without inertia ... */
    int *massless_block; /* ... and their blocks */
    /* fast solve (see dynamics.c): per massless coordinate its own row, the sign of its
    ** coefficient there and the weight w; 1/M~ per coordinate */
    int fast;
    /* the factors the solve's workspaces hold: 1 the fast solve's, 0 the general one's, -1
    ** none (a failure, or used since); they are those of the rows in cr */
    int factored;
    int *massless_row;
    double *massless_coef, *massless_w, *minv_aug;
    rowinfo *rows; /* nrows */
    crow *cr;      /* nrows */
    double *rhs;   /* nrows: gamma - 2 alpha Phi' - beta^2 Phi */
    double *Q;     /* nu generalized forces */
    double *udot;  /* nu accelerations u' */
    double *K;     /* (nrows + nmassless)^2 reduced matrix (the dense solve; NULL otherwise) */
    double *mj;    /* nrows x 2 x BODY_NU_MAX: M^-1 j of each row on its full or rigid blocks */
    kpair *pairs;  /* its structurally non-zero entries from diagonal mass blocks */
    int npairs;
    /* the rows on each block that is not diagonal: blkrows[blkrows_at[k] .. blkrows_at[k+1])
    ** holds 2 r + side (0: the row's body a, 1: its body b) for block k */
    int *blkrows, *blkrows_at;
    double *sol;         /* nrows + nmassless */
    int *piv;            /* nrows + nmassless (the dense solve; NULL otherwise) */
    double *y0;          /* nstate: the assembled initial state */
    double *ydot;        /* nstate: scratch derivative for full evaluations */
    double *cs;          /* cos and sin of every body's angle during one evaluation */
    const double *cs_q;  /* the positions cs was computed from (NULL: none) */
    double *rot;         /* spatial: every body's rotation matrix during one evaluation (9 each) */
    const double *rot_q; /* the positions rot was computed from (NULL: none) */
    /* the solver finalize chose (MECH_SOLVER_DENSE or MECH_SOLVER_SPARSE); the sparse solve's
    ** matrices: sp_fast the fast solve's (the rows only), sp_gen the general one's (the rows
    ** and the massless columns): the same one when there are no massless columns, sp_fast NULL
    ** without the fast solve (dynamics.c) */
    mech_solver solver_used;
    struct sparse_map *sp_fast, *sp_gen;
    struct project_work *proj; /* the projection onto the constraints (project.c) */
    struct system_jac *jac;    /* BDF's Jacobian structure (system_jac.c), NULL until asked for */

    /* last full evaluation */
    double t_eval;
    const double *q, *v; /* views into the evaluated state */
    double kinetic, potential, p_applied, p_dissip;
    double elastic;               /* the part of potential stored in springs and penalty joints */
    double contact_energy;        /* stored in contacts (part of elastic) */
    int full_eval;                /* the evaluation in progress is a full one (its energies are
                                  ** reported: contacts may skip theirs otherwise) */
    int skip_costly_energy;       /* full evaluations leave out the energies that cost
                                  ** (model_ops.costly_energy) */
    double p_contact, p_friction; /* power dissipated by contact damping and friction */
    double energy0;               /* kinetic + potential at the assembled initial state */
    const double *y_eval;         /* the state evaluated (for the energy accounts) */

    mech_error last_err;
};

/* Grows an entity array by one; returns 0 on allocation failure. */
int system_grow(void **items, int *cap, int count, size_t size);
/* Checks a requested entity name or makes one from base and a counter; copies it to out. */
mech_status system_take_name(mech_system *sys, const char *what, const char *requested,
                             const char *base, char out[MECH_NAME_MAX], mech_error *err);
/* The configuration as given: positions, then velocities of every body (nq + nu values,
** allocated; the caller frees it), or NULL when out of memory. */
double *system_initial_state(const mech_system *sys);
/* Checks that b is a body of the system; the message names the entity and its role. */
mech_status system_check_body(const mech_system *sys, const char *what, const char *name,
                              const char *role, int b, mech_error *err);
/* The model changed: the next simulation finalizes it again. */
void system_changed(mech_system *sys);
/* The body that owns position i (0 <= i < nq), and velocity i (0 <= i < nu). */
int system_position_body(const mech_system *sys, int i);
int system_velocity_body(const mech_system *sys, int i);
/* For an entity attached to a node (a body without rotation): checks that the attachment
** point s is the node itself (|s| tiny against the mesh) and snaps it to 0; for a rigid body
** does nothing.  `what` and `name` start the message. */
mech_status system_node_point(const mech_system *sys, const char *what, const char *name, int b,
                              double s[2], mech_error *err);

/* MECH_ERR_ARG unless sys has dimension dim (2 planar, 3 spatial): "<what> makes <kind>
** entities; this system is spatial (use <instead>)". */
mech_status system_check_dim(const mech_system *sys, int dim, const char *what, const char *instead,
                             mech_error *err);
/* Appends point `name` (body coordinates s, z 0 in a planar system) to body b: checks the
** name, that it is new on the body, and s finite; the caller checked b. */
mech_status system_new_point(mech_system *sys, int b, const char *name, const double s[3], int *id,
                             mech_error *err);

/* Appends a zeroed force element named `name` (joint -1); NULL on allocation failure, with err
** filled.  The caller fills it and counts it (sys->nforces++). */
force *system_new_force(mech_system *sys, const char *name, mech_error *err);
/* The enforcement of joint `name` of type tname: neq penalty stiffnesses k > 0 and dampings
** c >= 0 when penalty, Baumgarte coefficients alpha and beta NaN (the system's) or >= 0. */
mech_status system_check_enforcement(const char *tname, const char *name, mech_enforce enforce,
                                     int neq, const double *k, const double *c, double alpha,
                                     double beta, mech_error *err);

/* Position (from 1) of the first control character of s, 0 if none: names refuse them (a
** newline would break the CSV header and the descriptions). */
size_t system_control_at(const char *s);
/* Writes the configuration as given (positions, then velocities of every body) into y. */
void system_fill_initial_state(const mech_system *sys, double *y);
/* A joint's or driver's own Baumgarte coefficient, or the system's when it has none (NaN). */
static inline double system_baumgarte_or(double own, double system)
{
    return isnan(own) ? system : own;
}
/* "body angle", "joint angle", "joint distance". */
const char *system_driver_type_name(mech_driver_type t);

#endif

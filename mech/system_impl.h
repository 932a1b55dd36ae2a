/* SPDX-License-Identifier: MIT */
/* Private layout of mech_system, shared by system.c, constraints.c, dynamics.c,
** assemble.c, channels.c and sim.c. */
#ifndef MECH_SYSTEM_IMPL_H
#define MECH_SYSTEM_IMPL_H

#include "mech_system.h"

typedef struct body {
    char name[MECH_NAME_MAX];
    double mass, inertia;
    double q0[3], v0[3]; /* as the user gave them */
    int dof;             /* index of x in q, -1 for the ground */
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
    int neq; /* equations */
    int row; /* first row among the Lagrange rows, -1 for penalty */
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
    double alpha, beta;
} rowinfo;

struct mech_system {
    double gravity[2];
    double alpha, beta;
    int assemble;
    int final;

    body *bodies;
    point *points;
    force *forces;
    joint *joints;
    driver *drivers;
    int nbodies, npoints, nforces, njoints, ndrivers;
    int cap_bodies, cap_points, cap_forces, cap_joints, cap_drivers;

    /* sizes, set by finalize */
    int ncoord;            /* 3 per moving body */
    int nrows;             /* Lagrange rows */
    int nz;                /* coordinates without inertia (solved through the constraints) */
    int nquad;             /* energy accounts: driver works, applied work, dissipation */
    int nstate;            /* 2 ncoord + nquad */
    int iapplied, idissip; /* state indices of the two global accounts */

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
    double *cs;         /* cos and sin of every body\'s angle during one evaluation */
    const double *cs_q; /* the positions cs was computed from (NULL: none) */

    /* last full evaluation */
    double t_eval;
    const double *q, *v; /* views into the evaluated state */
    double kinetic, potential, p_applied, p_dissip;
    double elastic;       /* the part of potential stored in springs and penalty joints */
    double energy0;       /* kinetic + potential at the assembled initial state */
    const double *y_eval; /* the state evaluated (for the energy accounts) */

    mech_error last_err;
};

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

/* cos and sin of body b's angle in q (from the per-evaluation cache when it holds q). */
void body_trig(const mech_system *sys, int b, const double *q, double *c, double *s);

/* Position (x, y, phi) and velocity of body b from q, v (ground: zeros). */
void body_pose(const mech_system *sys, int b, const double *q, const double *v, double pose[3],
               double vel[3]);
/* World position and velocity of the body point s (body coordinates). */
void body_point(const mech_system *sys, int b, const double s[2], const double *q, const double *v,
                double p[2], double pv[2]);

/* ---- dynamics.c ---- */

/* Right-hand side with full = 1 also keeps reactions, energies and element outputs. */
int dynamics(mech_system *sys, double t, const double *y, double *ydot, int full);

/* Absolute tolerances per state component: `given` (per component) if not NULL, else
** atol for positions and velocities; the energy accounts get an infinite tolerance: they
** follow the steps the mechanical states need and do not steer the error control. */
void system_atol(const mech_system *sys, double atol, const double *given, double *out);

/* ---- assemble.c ---- */
/* Moves the positions and velocities of state y the least so that every joint and driver
** equation holds at time t (the initial assembly is t = 0, y = y0). */
mech_status assemble_state(mech_system *sys, double t, double *y, mech_error *err);

/* ---- linalg.c: small dense solvers (row-major n x n) ---- */
/* Cholesky (lower, in place, with the reciprocals of the pivots on the diagonal); -1 on
** success, else the row whose pivot was not positive enough (relative tol to the largest
** diagonal entry). */
int chol_factor(double *a, int n, double tol);
void chol_solve(const double *a, int n, double *b);
/* LU with partial pivoting; returns -1 on success, else the column whose pivot was below
** tol (relative to the largest entry of the matrix). */
int lu_factor(double *a, int n, int *piv, double tol);
void lu_solve(const double *a, int n, const int *piv, double *b);

#endif

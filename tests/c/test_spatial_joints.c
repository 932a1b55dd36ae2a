/* SPDX-License-Identifier: MIT */
/*
** The spatial joints (sjoint_types.c), their three kinds of equation and the angle about a
** joint's axis (spatial_frame.h), and the spatial drivers' equations (spatial_dim.c through
** the dimension table), against finite differences along exact motions:
**   - every row's rate ja . u_a + jb . u_b + phit is the time derivative of its phi along a
**     motion with the velocities u, and Phi'' = ja . u_a' + jb . u_b' - gamma along one with
**     the accelerations u' too;
**   - at each joint's reference configuration (its two frames together) its rows hold, have
**     full rank, and their null space is the relative motions the joint leaves free;
**   - the angle about a joint's axis counts whole turns through `near`;
**   - the reaction channels of an evaluated system are -G_b^T lambda reduced to b's anchor,
**     and balance b's Newton-Euler equations.
**
** The motion.  Each moving body moves by q(t) = spatial_displace(q, u t + u' t^2 / 2): its
** centre by v t + a t^2 / 2, its orientation turned by the world rotation vector
** theta(t) = omega t + alpha t^2 / 2.  Its velocity at t = 0 is u (r' = v; the angular
** velocity of exp(theta(t)) R0 is dexp(theta) theta' = omega at theta = 0), and its
** acceleration is u' (d/dt dexp(theta) theta' = theta'' + 1/2 theta' x theta' = alpha at
** t = 0), so these are the first two time derivatives a row must predict.
**
** Tolerances.  Positions are within 1 m of the origin, anchors within 0.5 m of their centres
** (|d| < 4 m), |alpha| <= 2.6 (components in +-1.5) and |omega| <= 2.6, or 4.6 where a body
** spins through +-pi (spin_through), so a derivative of order n of a row's phi is below about
** L (|omega| + |alpha|^(1/2))^n with L = 4 m and the rate 4.6 + 1.6 = 6.2 /s.
**   First derivative, five points, step d = 5e-4: truncation d^4 / 30 |f^(5)| < 6.3e-14 / 30 *
**   6.2^5 * 4 = 7.6e-11, rounding 1.5 eps |f| / d < 1.4e-12: 1e-9.
**   Second derivative, five points, d = 1.5e-3: truncation d^4 / 90 |f^(6)| < 5.1e-12 / 90 *
**   6.2^6 * 4 = 1.3e-8, rounding 64 eps |f| / (12 d^2) < 1.1e-9: 1e-7.
** (Seen: 3e-12 and 3e-9.  The error of the second difference went down 12.5 times when d was
** halved from 3e-3: truncation, d^4.)
** A wrong or missing term in a Jacobian or in gamma is of the size of the terms themselves,
** 1e-2 to 10 at these samples.  Algebraic identities (the same quantity computed twice, a
** reference configuration's phi, a null space) are chains of a few O(1) operations: 1e-13.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "constraints.h"
#include "dim.h"
#include "inertia.h"
#include "joint_type.h"
#include "registry.h"
#include "rotation.h"
#include "spatial_body.h"
#include "spatial_frame.h"
#include "tap.h"
#include "uniform.h"
#include "vec3.h"

static const double pi = 3.14159265358979323846;

static unsigned long long rng_state = 0x5eed5a7a1f0e11aULL;
static double uniform(double lo, double hi)
{
    return uniform_next(&rng_state, lo, hi);
}

static void random_vec(double lo, double hi, double v[3])
{
    for (int i = 0; i < 3; i++) v[i] = uniform(lo, hi);
}

static void random_quat(double e[4])
{
    do {
        for (int k = 0; k < 4; k++) e[k] = uniform(-1, 1);
    } while (rot_normalize(e, NULL, 0));
}

static void random_rotation(double R[9])
{
    double e[4];
    random_quat(e);
    rot_matrix(e, R);
}

/* The seven types in mech_spatial.h's order, with their counts of equations. */
static const mech_joint_type types[7] = {MECH_SPHERICAL,   MECH_REVOLUTE,  MECH_UNIVERSAL,
                                         MECH_CYLINDRICAL, MECH_PRISMATIC, MECH_PLANAR,
                                         MECH_FIXED};
static const int type_neq[7] = {3, 5, 4, 4, 5, 3, 6};
static const char *const pairing_name[3] = {"ground - body", "body - body", "body - ground"};

/* ---- motions and finite differences ---------------------------------------------------------- */

/* q(t) of the motion from q0 with velocities u and accelerations ud (every moving body). */
static void move(const mech_system *sys, const double *q0, const double *u, const double *ud,
                 double t, double *q)
{
    memcpy(q, q0, sizeof(double) * (size_t)sys->nq_given);
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        double du[6];
        for (int k = 0; k < 6; k++) du[k] = u[bd->u_at + k] * t + 0.5 * ud[bd->u_at + k] * t * t;
        spatial_displace(q + bd->q_at, du);
    }
}

/* What is checked: rows of a joint, of a driver, or the angle row of a joint's frames. */
typedef enum { ROWS_JOINT, ROWS_DRIVER, ROWS_ANGLE } rows_kind;

static double angle_near = NAN; /* the `near` of ROWS_ANGLE */

/* Driver motions: value c0 + c1 t + c2 t^2 + c3 sin(3 t) and its derivatives. */
static double motion_c[4] = {0.3, 0.7, -0.4, 0.25};
static int motion_fn(void *ud, double t, double out[3])
{
    (void)ud;
    const double *c = motion_c;
    out[0] = c[0] + c[1] * t + c[2] * t * t + c[3] * sin(3 * t);
    out[1] = c[1] + 2 * c[2] * t + 3 * c[3] * cos(3 * t);
    out[2] = 2 * c[2] - 9 * c[3] * sin(3 * t);
    return 0;
}

static void entity_bodies(const mech_system *sys, rows_kind kind, int id, int *a, int *b)
{
    if (kind == ROWS_DRIVER) {
        driver_bodies(sys, &sys->drivers[id], a, b);
    } else {
        *a = sys->joints[id].a;
        *b = sys->joints[id].b;
    }
}

/* The rows of the entity at (q, v, t); returns how many. */
static int eval_rows(mech_system *sys, rows_kind kind, int id, const double *q, const double *v,
                     double t, crow *rows)
{
    if (kind == ROWS_DRIVER) {
        driver *d = &sys->drivers[id];
        driver_motion(sys, d, t);
        sys->dops->driver_eval(sys, d, q, v, rows);
        return 1;
    }
    const joint *j = &sys->joints[id];
    if (kind == ROWS_ANGLE) {
        sframe f;
        make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, v, &f);
        angle_row(&f, angle_near, rows);
        return 1;
    }
    joint_eval(sys, j, q, v, rows);
    return j->neq;
}

/* ja . u_a + jb . u_b of row r for the velocities (or accelerations) u of bodies a and b. */
static double row_dot(const mech_system *sys, const crow *r, int a, int b, const double *u)
{
    double s = 0;
    if (sys->bodies[a].u_at >= 0)
        for (int k = 0; k < 6; k++) s += r->ja[k] * u[sys->bodies[a].u_at + k];
    if (sys->bodies[b].u_at >= 0)
        for (int k = 0; k < 6; k++) s += r->jb[k] * u[sys->bodies[b].u_at + k];
    return s;
}

typedef struct worst {
    double rate, gamma;
} worst;

/* Checks the entity's rows at (q0, u, ud, t0) against five-point differences along the
** motion; keeps the worst errors in w. */
static void check_rows(mech_system *sys, rows_kind kind, int id, const double *q0, const double *u,
                       const double *ud, double t0, worst *w)
{
    int a, b;
    entity_bodies(sys, kind, id, &a, &b);
    double q[14];
    crow r[5][JOINT_NEQ_MAX], r0[JOINT_NEQ_MAX];
    static const double w1[5] = {1, -8, 0, 8, -1}, w2[5] = {-1, 16, -30, 16, -1};
    const double d1 = 5e-4, d2 = 1.5e-3;
    int n = 0;
    for (int k = 0; k < 5; k++) {
        move(sys, q0, u, ud, (k - 2) * d1, q);
        n = eval_rows(sys, kind, id, q, u, t0 + (k - 2) * d1, r[k]);
    }
    double fd1[JOINT_NEQ_MAX] = {0}, fd2[JOINT_NEQ_MAX] = {0};
    for (int e = 0; e < n; e++)
        for (int k = 0; k < 5; k++) fd1[e] += w1[k] * r[k][e].phi / (12 * d1);
    for (int k = 0; k < 5; k++) {
        move(sys, q0, u, ud, (k - 2) * d2, q);
        eval_rows(sys, kind, id, q, u, t0 + (k - 2) * d2, r[k]);
    }
    for (int e = 0; e < n; e++)
        for (int k = 0; k < 5; k++) fd2[e] += w2[k] * r[k][e].phi / (12 * d2 * d2);
    eval_rows(sys, kind, id, q0, u, t0, r0); /* last: a driver's motion at t0 */
    for (int e = 0; e < n; e++) {
        double rate = row_dot(sys, &r0[e], a, b, u) + r0[e].phit;
        double acc = row_dot(sys, &r0[e], a, b, ud) - r0[e].gamma;
        w->rate = fmax(w->rate, fabs(rate - fd1[e]));
        w->gamma = fmax(w->gamma, fabs(acc - fd2[e]));
    }
}

/* Asserts the worst errors against the tolerances of the header and keeps the largest for
** the summary. */
static worst overall = {0, 0};
static void report(const char *name, const worst *w)
{
    overall.rate = fmax(overall.rate, w->rate);
    overall.gamma = fmax(overall.gamma, w->gamma);
    if (!ok(w->rate < 1e-9 && w->gamma < 1e-7, name))
        diag("worst rate error %.3g (tolerance 1e-9), Phi'' error %.3g (tolerance 1e-7)", w->rate,
             w->gamma);
}

/* ---- configurations -------------------------------------------------------------------------- */

/* Random poses of both bodies, velocities and accelerations. */
static void random_state(const mech_system *sys, double *q, double *u, double *ud)
{
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        random_vec(-1, 1, q + bd->q_at);
        random_quat(q + bd->q_at + 3);
        random_vec(-1, 1, u + bd->u_at);
        random_vec(-1.5, 1.5, u + bd->u_at + 3);
        random_vec(-1.5, 1.5, ud + bd->u_at);
        random_vec(-1.5, 1.5, ud + bd->u_at + 3);
    }
}

/* The world pose of body b at q (the ground's: origin, identity). */
static void pose_of(const mech_system *sys, int b, const double *q, double r[3], double A[9])
{
    sbody_pose(sys, b, q, r, A);
}

/* Sets the pose of body `mover` (a or b, not the ground) in q so that the frame (pb, fb) on
** b sits on the frame (pa, fa) on a turned by theta about its z axis and moved by `slide`
** along it, then turned by the small world rotation vector dr about b's anchor and moved by
** dp (the reference configuration when all three are zero). */
static void place(const mech_system *sys, int a, int b, int mover, const double pa[3],
                  const double pb[3], const double fa[9], const double fb[9], double theta,
                  double slide, const double dr[3], const double dp[3], double *q)
{
    double ra[3], Aa[9], rb[3], Ab[9], W[9], Wb[9], P[3], Pb[3];
    pose_of(sys, a, q, ra, Aa);
    pose_of(sys, b, q, rb, Ab);
    double c = cos(theta), s = sin(theta), Rz[9] = {c, -s, 0, s, c, 0, 0, 0, 1}, Rd[9], e[4];
    double ang = vec3_norm(dr);
    if (ang > 0) {
        rot_from_axis_angle(dr, ang, e, NULL, 0);
        rot_matrix(e, Rd);
    } else {
        static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        memcpy(Rd, I, sizeof I);
    }
    if (mover == b) {
        /* b's frame: Wb = Rd W Rz, its origin P + slide z + dp; A_b = Wb fb^T */
        mat3_mul(Aa, fa, W);
        double t1[9];
        mat3_mul(W, Rz, t1);
        mat3_mul(Rd, t1, Wb);
        mat3_vec(Aa, pa, P);
        vec3_add(P, ra, P);
        for (int k = 0; k < 3; k++) Pb[k] = P[k] + slide * W[3 * k + 2] + dp[k];
        mat3_mul_t(Wb, fb, Ab);
        double sb[3];
        mat3_vec(Ab, pb, sb);
        vec3_sub(Pb, sb, rb);
        double *qb = q + sys->bodies[b].q_at;
        memcpy(qb, rb, sizeof rb);
        rot_from_matrix(Ab, 1e-9, qb + 3, NULL, 0);
    } else {
        /* a moves instead: Wa Rz = Rd^T Wb, the origin Pb - slide z - dp */
        mat3_mul(Ab, fb, Wb);
        double t1[9], RzT[9], Wa[9];
        mat3_transpose(Rz, RzT);
        mat3t_mul(Rd, Wb, t1);
        mat3_mul(t1, RzT, Wa);
        mat3_vec(Ab, pb, Pb);
        vec3_add(Pb, rb, Pb);
        for (int k = 0; k < 3; k++) P[k] = Pb[k] - slide * Wa[3 * k + 2] - dp[k];
        mat3_mul_t(Wa, fa, Aa);
        double sa[3];
        mat3_vec(Aa, pa, sa);
        vec3_sub(P, sa, ra);
        double *qa = q + sys->bodies[a].q_at;
        memcpy(qa, ra, sizeof ra);
        rot_from_matrix(Aa, 1e-9, qa + 3, NULL, 0);
    }
}

/* ---- the systems ----------------------------------------------------------------------------- */

typedef struct bench {
    mech_system *sys;
    int a, b;         /* the joints' bodies (one of them the ground but for pairing 1) */
    int joint[7];     /* one joint of each type, types[] order */
    int drv[5];       /* angle on revolute, angle on cylindrical, distance on prismatic,
                      ** distance on cylindrical, body angle about a world axis */
    double axis[3];   /* the body-angle driver's axis */
    int angle_target; /* its body */
} bench;

static const char *const driver_name[5] = {
    "joint angle (revolute)", "joint angle (cylindrical)", "joint distance (prismatic)",
    "joint distance (cylindrical)", "body angle about a world axis"};

/* Two moving bodies; seven joints between ground and body 2 (pairing 0), bodies 1 and 2
** (pairing 1) or body 1 and the ground (pairing 2), random anchors and frames; the five
** drivers on them. */
static void bench_make(bench *B, int pairing)
{
    mech_error err;
    mech_system_create_spatial(&B->sys, NULL, &err);
    mech_sbody_def bd = mech_sbody_default();
    bd.mass = 1;
    bd.inertia[0] = bd.inertia[1] = bd.inertia[2] = 1;
    int id1, id2;
    bd.name = "one";
    random_vec(-1, 1, bd.pos);
    random_quat(bd.quat);
    mech_sbody_add(B->sys, &bd, &id1, &err);
    bd.name = "two";
    random_vec(-1, 1, bd.pos);
    random_quat(bd.quat);
    mech_sbody_add(B->sys, &bd, &id2, &err);
    B->a = pairing == 0 ? MECH_GROUND : id1;
    B->b = pairing == 2 ? MECH_GROUND : id2;
    for (int t = 0; t < 7; t++) {
        mech_sjoint_def jd = mech_sjoint_default();
        jd.type = types[t];
        jd.body_a = B->a;
        jd.body_b = B->b;
        random_vec(-0.5, 0.5, jd.pa);
        random_vec(-0.5, 0.5, jd.pb);
        random_rotation(jd.frame_a);
        random_rotation(jd.frame_b);
        if (mech_sjoint_add(B->sys, &jd, &B->joint[t], &err)) diag("joint: %s", err.msg);
    }
    mech_driver_def dd = mech_driver_default();
    dd.fn = motion_fn;
    static const int on[4] = {1, 3, 4, 3}; /* revolute, cylindrical, prismatic, cylindrical */
    for (int k = 0; k < 4; k++) {
        dd.type = k < 2 ? MECH_DRIVE_JOINT_ANGLE : MECH_DRIVE_JOINT_DISTANCE;
        dd.target = B->joint[on[k]];
        if (mech_driver_add(B->sys, &dd, &B->drv[k], &err)) diag("driver: %s", err.msg);
    }
    dd.type = MECH_DRIVE_BODY_ANGLE;
    B->angle_target = pairing == 2 ? id1 : id2;
    dd.target = B->angle_target;
    random_vec(-1, 1, B->axis);
    memcpy(dd.axis, B->axis, sizeof dd.axis);
    if (mech_driver_add(B->sys, &dd, &B->drv[4], &err)) diag("driver: %s", err.msg);
}

/* The state as given to mech_sbody_add (q0 of every body). */
static void given_state(const mech_system *sys, double *q)
{
    for (int b = 1; b < sys->nbodies; b++)
        memcpy(q + sys->bodies[b].q_at, sys->bodies[b].q0, 7 * sizeof(double));
}

/* A configuration near the driver's or joint's reference: the moving one of its bodies
** placed with a random turn and slide and a small random misalignment. */
static void near_reference(const bench *B, rows_kind kind, int id, double *q, double theta,
                           double slide)
{
    const mech_system *sys = B->sys;
    double dr[3], dp[3];
    random_vec(-0.15, 0.15, dr);
    random_vec(-0.1, 0.1, dp);
    if (kind == ROWS_DRIVER && sys->drivers[id].type == MECH_DRIVE_BODY_ANGLE) {
        static const double zero[3] = {0, 0, 0};
        const driver *d = &sys->drivers[id];
        place(sys, MECH_GROUND, d->target, d->target, zero, zero, d->fa, d->fb, theta, 0, dr, dp,
              q);
        return;
    }
    int jid = kind == ROWS_DRIVER ? sys->drivers[id].target : id;
    const joint *j = &sys->joints[jid];
    int mover = j->b != MECH_GROUND ? j->b : j->a;
    place(sys, j->a, j->b, mover, j->pa, j->pb, j->fa, j->fb, theta, slide, dr, dp, q);
}

/* Sets the relative angular velocity about the axis of the entity's frames (the joint's z
** axis, or the body-angle driver's axis) to 2 rad/s: the other body's omega halved (|.| <=
** 1.3), the moving body's that plus 2 z plus half its own part normal to z (|.| <= 4.6).
** Started at pi - 2e-3 or -pi + 2e-3, the angle then crosses +-pi within the second
** differences' +-3e-3 s. */
static void spin_through(const mech_system *sys, rows_kind kind, int id, double *q, double *u)
{
    static const double zero[3] = {0, 0, 0};
    int a, b;
    const double *fa, *fb, *pa = zero, *pb = zero;
    if (kind == ROWS_DRIVER && sys->drivers[id].type == MECH_DRIVE_BODY_ANGLE) {
        const driver *d = &sys->drivers[id];
        a = MECH_GROUND, b = d->target, fa = d->fa, fb = d->fb;
    } else {
        const joint *j = &sys->joints[kind == ROWS_DRIVER ? sys->drivers[id].target : id];
        a = j->a, b = j->b, fa = j->fa, fb = j->fb, pa = j->pa, pb = j->pb;
    }
    int mover = b != MECH_GROUND ? b : a, other = mover == b ? a : b, sign = mover == b ? 1 : -1;
    double wo[3] = {0, 0, 0}, *wm = u + sys->bodies[mover].u_at + 3;
    if (other != MECH_GROUND) {
        double *w = u + sys->bodies[other].u_at + 3;
        for (int k = 0; k < 3; k++) wo[k] = w[k] *= 0.5;
    }
    sframe f;
    make_sframe(sys, a, b, pa, pb, fa, fb, q, u, &f);
    double z[3];
    mat3_col(f.Wa, 2, z);
    double along = vec3_dot(wm, z);
    for (int k = 0; k < 3; k++) wm[k] = wo[k] + sign * 2 * z[k] + 0.5 * (wm[k] - along * z[k]);
}

/* ---- rows against finite differences --------------------------------------------------------- */

static void test_joint_rows(void)
{
    for (int pairing = 0; pairing < 3; pairing++) {
        bench B;
        bench_make(&B, pairing);
        mech_system *sys = B.sys;
        for (int t = 0; t < 7; t++) {
            worst w = {0, 0};
            for (int trial = 0; trial < 16; trial++) {
                double q[14], u[12], ud[12];
                random_state(sys, q, u, ud);
                if (trial % 2) /* every other one near its reference configuration */
                    near_reference(&B, ROWS_JOINT, B.joint[t], q, uniform(-pi, pi), uniform(-1, 1));
                check_rows(sys, ROWS_JOINT, B.joint[t], q, u, ud, 0, &w);
            }
            char name[160];
            snprintf(name, sizeof name,
                     "%s joint (%s): every row's rate is d(phi)/dt, and Phi'' = G u' - gamma",
                     mech_joint_type_name(types[t]), pairing_name[pairing]);
            report(name, &w);
        }
        mech_system_destroy(sys);
    }
}

/* The drivers and the angle row, at configurations near their references; one of them with
** the angle just below pi and turning through it during the differences. */
static void test_driver_rows(void)
{
    for (int pairing = 0; pairing < 3; pairing++) {
        bench B;
        bench_make(&B, pairing);
        mech_system *sys = B.sys;
        for (int k = 0; k < 5; k++) {
            worst w = {0, 0};
            driver *d = &sys->drivers[B.drv[k]];
            for (int trial = 0; trial < 12; trial++) {
                double q[14], u[12], ud[12];
                random_state(sys, q, u, ud);
                double theta = trial == 0 ? pi - 2e-3 : trial == 1 ? -pi + 2e-3 : uniform(-7, 7);
                near_reference(&B, ROWS_DRIVER, B.drv[k], q, theta, uniform(-1, 1));
                if (trial < 2) spin_through(sys, ROWS_DRIVER, B.drv[k], q, u);
                /* the prescribed value 0.3 from the coordinate at t0 = 0.4: away from the
                ** unwrapping's cut at +-pi from it */
                double t0 = 0.4, out[3];
                motion_c[0] = 0;
                motion_fn(NULL, t0, out);
                motion_c[0] = sys->dops->driver_coordinate(sys, d, q) + 0.3 - out[0];
                check_rows(sys, ROWS_DRIVER, B.drv[k], q, u, ud, t0, &w);
            }
            char name[160];
            snprintf(name, sizeof name, "driver %s (%s): rate and Phi'' against differences",
                     driver_name[k], pairing_name[pairing]);
            report(name, &w);
        }
        /* angle_row on the revolute and cylindrical joints' frames */
        static const int with_angle[2] = {1, 3};
        for (int i = 0; i < 2; i++) {
            worst w = {0, 0};
            int jid = B.joint[with_angle[i]];
            for (int trial = 0; trial < 12; trial++) {
                double q[14], u[12], ud[12];
                random_state(sys, q, u, ud);
                double theta = trial == 0 ? pi - 2e-3 : trial == 1 ? -pi + 2e-3 : uniform(-7, 7);
                near_reference(&B, ROWS_ANGLE, jid, q, theta, uniform(-1, 1));
                if (trial < 2) spin_through(sys, ROWS_ANGLE, jid, q, u);
                const joint *j = &sys->joints[jid];
                sframe f;
                make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, u, &f);
                /* near: the angle plus whole turns (0, 1, -2 ...) and up to 1 rad */
                angle_near = frame_angle(&f, NAN) + 2 * pi * (trial % 4 - 1) + uniform(-1, 1);
                check_rows(sys, ROWS_ANGLE, jid, q, u, ud, 0, &w);
            }
            char name[160];
            snprintf(name, sizeof name,
                     "angle_row on the %s joint's frames (%s): rate and Phi'' against differences",
                     mech_joint_type_name(types[with_angle[i]]), pairing_name[pairing]);
            report(name, &w);
        }
        mech_system_destroy(sys);
    }
}

/* ---- the angle: whole turns through `near` --------------------------------------------------- */

/*
** The revolute joint (body - body) placed exactly at its reference turned by theta about the
** axis, theta swept from -7 to 7 rad: read with `near` the previous reading, the angle follows
** theta through every +-pi (to rounding: 1e-13 for angles up to 7 rad); without near it is
** theta moved into (-pi, pi].  The drivers' coordinates read the same angle, and the slide
** along the axis as the distance.  Then the same sweep with the z axes 0.2 rad apart: the
** reading stays continuous (no step near 2 pi) and ends within 0.2 + 0.2 rad of theta (the
** projection of x_b on a's xy plane turns with it up to the misalignment).
*/
static void test_unwrap(void)
{
    bench B;
    bench_make(&B, 1);
    mech_system *sys = B.sys;
    double q[14], u[12] = {0};
    given_state(sys, q);
    static const double zero[3] = {0, 0, 0};
    int jrev = B.joint[1], jcyl = B.joint[3], jpri = B.joint[4];
    const joint *j = &sys->joints[jrev];
    double near = -7, e_near = 0, e_wrap = 0, e_row = 0, e_coord = 0, e_dist = 0;
    for (int i = 0; i <= 40; i++) {
        double theta = -7 + 14.0 * i / 40, slide = uniform(-1, 1);
        place(sys, j->a, j->b, j->b, j->pa, j->pb, j->fa, j->fb, theta, slide, zero, zero, q);
        sframe f;
        make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, u, &f);
        double got = frame_angle(&f, near), wrapped = frame_angle(&f, NAN);
        crow r;
        angle_row(&f, near, &r);
        e_near = fmax(e_near, fabs(got - theta));
        e_row = fmax(e_row, fabs(r.phi - got));
        double want = theta - 2 * pi * nearbyint(theta / (2 * pi));
        e_wrap = fmax(e_wrap, wrapped > -pi && wrapped <= pi ? fabs(wrapped - want) : 1);
        /* the joint-angle driver on the revolute joint reads the wrapped angle */
        e_coord = fmax(
            e_coord, fabs(sys->dops->driver_coordinate(sys, &sys->drivers[B.drv[0]], q) - wrapped));
        near = got;
        /* the cylindrical and prismatic joints placed the same way: angle and distance */
        const joint *c = &sys->joints[jcyl], *p = &sys->joints[jpri];
        place(sys, c->a, c->b, c->b, c->pa, c->pb, c->fa, c->fb, theta, slide, zero, zero, q);
        e_coord = fmax(e_coord,
                       fabs(sys->dops->driver_coordinate(sys, &sys->drivers[B.drv[1]], q) - want));
        e_dist = fmax(e_dist,
                      fabs(sys->dops->driver_coordinate(sys, &sys->drivers[B.drv[3]], q) - slide));
        place(sys, p->a, p->b, p->b, p->pa, p->pb, p->fa, p->fb, 0, slide, zero, zero, q);
        e_dist = fmax(e_dist,
                      fabs(sys->dops->driver_coordinate(sys, &sys->drivers[B.drv[2]], q) - slide));
        /* the body-angle driver: its body turned by theta about the axis */
        const driver *d = &sys->drivers[B.drv[4]];
        place(sys, MECH_GROUND, d->target, d->target, zero, zero, d->fa, d->fb, theta, 0, zero,
              zero, q);
        e_coord = fmax(e_coord, fabs(sys->dops->driver_coordinate(sys, d, q) - want));
    }
    diag("sweep of 14 rad: unwrapped angle off by %.3g, wrapped by %.3g, angle_row vs "
         "frame_angle %.3g; drivers' angles %.3g, distances %.3g",
         e_near, e_wrap, e_row, e_coord, e_dist);
    ok(e_near < 1e-13 && e_row == 0,
       "frame_angle with near follows the turn through +-pi (14 rad), as angle_row's phi");
    ok(e_wrap < 1e-13, "frame_angle without near is the angle in (-pi, pi]");
    ok(e_coord < 1e-13 && e_dist < 1e-13,
       "drivers read the angle from x_a to x_b about z_a and the slide along z_a");
    /* misaligned z axes: continuity */
    double dr[3] = {0.2, 0, 0}, jump = 0, start = NAN, theta_end = 0;
    near = -7;
    for (int i = 0; i <= 200; i++) {
        double theta = -7 + 14.0 * i / 200;
        double rot[3];
        /* a tilt about a direction normal to the axis, fixed in a's frame */
        double Aa[9], ra[3];
        pose_of(sys, j->a, q, ra, Aa);
        double W[9];
        mat3_mul(Aa, j->fa, W);
        mat3_vec(W, dr, rot);
        place(sys, j->a, j->b, j->b, j->pa, j->pb, j->fa, j->fb, theta, 0, rot, zero, q);
        sframe f;
        make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, u, &f);
        double got = frame_angle(&f, near);
        if (i == 0)
            start = got - theta;
        else
            jump = fmax(jump, fabs(got - near));
        near = got;
        theta_end = got - theta;
    }
    diag("misaligned sweep: largest step %.3g rad (theta steps 0.07), offset at start %.3g, "
         "at end %.3g",
         jump, start, theta_end);
    ok(jump < 0.3 && fabs(start) < 0.4 && fabs(theta_end) < 0.4,
       "with the axes 0.2 rad apart the angle stays continuous across +-pi and counts turns");
    /* a body-angle driver about the body's own x axis (as given): its frame's x axis cannot
    ** be the body's x, so it is the body's y; the angle still reads the turn about the axis */
    double A0[9], xb[3];
    spatial_rotation(sys->bodies[B.angle_target].q0, A0);
    mat3_col(A0, 0, xb);
    mech_driver_def dd = mech_driver_default();
    dd.type = MECH_DRIVE_BODY_ANGLE, dd.target = B.angle_target, dd.name = "about_x";
    memcpy(dd.axis, xb, sizeof xb);
    int did;
    mech_error err;
    mech_status st = mech_driver_add(sys, &dd, &did, &err);
    double e_x = st ? INFINITY : 0;
    for (int i = 0; !st && i <= 20; i++) {
        double theta = -7 + 14.0 * i / 20, want = theta - 2 * pi * nearbyint(theta / (2 * pi));
        const driver *d = &sys->drivers[did];
        given_state(sys, q);
        place(sys, MECH_GROUND, d->target, d->target, zero, zero, d->fa, d->fb, theta, 0, zero,
              zero, q);
        /* the same pose from the axis-angle turn of the given orientation */
        double e[4], e2[4], *qb = q + sys->bodies[d->target].q_at;
        rot_from_axis_angle(xb, theta, e, NULL, 0);
        rot_mul(e, sys->bodies[d->target].q0 + 3, e2);
        double same = fabs(fabs(e2[0] * qb[3] + e2[1] * qb[4] + e2[2] * qb[5] + e2[3] * qb[6]) - 1);
        e_x = fmax(e_x, fmax(fabs(sys->dops->driver_coordinate(sys, d, q) - want), same));
    }
    if (!ok(e_x < 1e-13, "a body-angle driver about the body's own x axis reads its turn"))
        diag("status %d, worst %.3g", (int)st, e_x);
    mech_system_destroy(sys);
}

/* ---- counts, rank and the free motions at the reference configuration ------------------------ */

/* Eigenvalues of the symmetric n x n matrix S (row-major, destroyed) by cyclic Jacobi. */
static void sym_eigen(double *S, int n, double *lambda)
{
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int r = p + 1; r < n; r++) off += S[p * n + r] * S[p * n + r];
        if (off < 1e-300) break;
        for (int p = 0; p < n; p++)
            for (int r = p + 1; r < n; r++) {
                double apr = S[p * n + r];
                if (apr == 0) continue;
                double th = 0.5 * (S[r * n + r] - S[p * n + p]) / apr;
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) { /* columns p, r */
                    double kp = S[k * n + p], kr = S[k * n + r];
                    S[k * n + p] = c * kp - s * kr;
                    S[k * n + r] = s * kp + c * kr;
                }
                for (int k = 0; k < n; k++) { /* rows p, r */
                    double pk = S[p * n + k], rk = S[r * n + k];
                    S[p * n + k] = c * pk - s * rk;
                    S[r * n + k] = s * pk + c * rk;
                }
            }
    }
    for (int i = 0; i < n; i++) lambda[i] = S[i * n + i];
}

/* The relative motions each type leaves free at its reference: R rotation about a frame axis
** through the joint's origin, T translation along it; x, y, z the axis. */
static const char *const free_motions[7] = {"RxRyRz", "Rz", "RxRy", "RzTz", "Tz", "TxTyRz", ""};

static void test_reference(void)
{
    int counts = 1;
    for (int t = 0; t < 7; t++) {
        const joint_type *jt = spatial_joint_type(types[t]);
        counts &= mech_sjoint_type_equations(types[t]) == type_neq[t] && jt &&
                  jt->neq == type_neq[t] && jt->type == types[t] &&
                  (int)strlen(free_motions[t]) / 2 == 6 - type_neq[t];
        for (int e = 0; jt && e < jt->neq; e++)
            counts &= jt->eq_names[e] != NULL && jt->eq_names[e][0] != '\0';
    }
    ok(counts && mech_sjoint_type_equations((mech_joint_type)99) == 0,
       "equations per type: spherical 3, revolute 5, universal 4, cylindrical 4, prismatic 5, "
       "planar 3, fixed 6 (each named), unknown 0");
    double all_phi = 0, all_null = 0, all_ratio = INFINITY;
    for (int pairing = 0; pairing < 3; pairing++) {
        bench B;
        bench_make(&B, pairing);
        mech_system *sys = B.sys;
        for (int t = 0; t < 7; t++) {
            const joint *j = &sys->joints[B.joint[t]];
            int neq_ok = j->neq == type_neq[t];
            double worst_phi = 0, worst_null = 0, ratio = INFINITY;
            int rank_ok = 1;
            for (int trial = 0; trial < 4; trial++) {
                double q[14], u[12], ud[12];
                random_state(sys, q, u, ud);
                /* the reference, and (odd trials) turned or slid as the type allows */
                const char *fm = free_motions[t];
                double theta = trial % 2 && strstr(fm, "Rz") ? uniform(-pi, pi) : 0;
                double slide = trial % 2 && strstr(fm, "Tz") ? uniform(-1, 1) : 0;
                static const double zero[3] = {0, 0, 0};
                int mover = j->b != MECH_GROUND ? j->b : j->a, other = mover == j->b ? j->a : j->b;
                place(sys, j->a, j->b, mover, j->pa, j->pb, j->fa, j->fb, theta, slide, zero, zero,
                      q);
                crow rows[JOINT_NEQ_MAX];
                joint_eval(sys, j, q, u, rows);
                /* G on the moving bodies' velocities */
                double G[JOINT_NEQ_MAX][12];
                int ncol = 0;
                for (int e = 0; e < j->neq; e++) {
                    worst_phi = fmax(worst_phi, fabs(rows[e].phi));
                    int c = 0;
                    if (j->a != MECH_GROUND)
                        for (int k = 0; k < 6; k++) G[e][c++] = rows[e].ja[k];
                    if (j->b != MECH_GROUND)
                        for (int k = 0; k < 6; k++) G[e][c++] = rows[e].jb[k];
                    ncol = c;
                }
                double S[36], lam[6];
                for (int r = 0; r < j->neq; r++)
                    for (int c = 0; c < j->neq; c++) {
                        double s = 0;
                        for (int k = 0; k < ncol; k++) s += G[r][k] * G[c][k];
                        S[r * j->neq + c] = s;
                    }
                sym_eigen(S, j->neq, lam);
                double lmin = INFINITY, lmax = 0;
                for (int e = 0; e < j->neq; e++)
                    lmin = fmin(lmin, lam[e]), lmax = fmax(lmax, lam[e]);
                ratio = fmin(ratio, sqrt(fmax(lmin, 0) / lmax));
                rank_ok &= lmin > 1e-12 * lmax; /* singular values above 1e-6 of the largest */
                /* the free motions: the mover welded to the other body, plus one of them */
                double ro[3], Ao[9], rm[3], Am[9], W[9], P[3], ra[3], Aa[9];
                pose_of(sys, other, q, ro, Ao);
                pose_of(sys, mover, q, rm, Am);
                pose_of(sys, j->a, q, ra, Aa);
                mat3_mul(Aa, j->fa, W);
                mat3_vec(Aa, j->pa, P);
                vec3_add(P, ra, P);
                for (int m = 0; m <= (int)strlen(fm) / 2; m++) {
                    double v[12] = {0};
                    const double *uo = other == MECH_GROUND ? v : u + sys->bodies[other].u_at;
                    double *um = v + sys->bodies[mover].u_at, wr[3], rel[3];
                    if (other != MECH_GROUND)
                        memcpy(v + sys->bodies[other].u_at, uo, 6 * sizeof *v);
                    vec3_sub(rm, ro, rel);
                    vec3_cross(uo + 3, rel, wr);
                    for (int k = 0; k < 3; k++) um[k] = uo[k] + wr[k], um[3 + k] = uo[3 + k];
                    if (m > 0) {
                        char kindc = fm[2 * (m - 1)];
                        int ax = fm[2 * (m - 1) + 1] - 'x';
                        double n[3];
                        mat3_col(W, ax, n);
                        if (kindc == 'T') {
                            for (int k = 0; k < 3; k++) um[k] += n[k];
                        } else {
                            double arm[3], nxr[3];
                            vec3_sub(rm, P, arm);
                            vec3_cross(n, arm, nxr);
                            for (int k = 0; k < 3; k++) um[k] += nxr[k], um[3 + k] += n[k];
                        }
                    }
                    for (int e = 0; e < j->neq; e++)
                        worst_null = fmax(worst_null, fabs(row_dot(sys, &rows[e], j->a, j->b, v)));
                }
            }
            char name[200];
            snprintf(name, sizeof name,
                     "%s joint (%s): at its reference %d equations hold, rank %d, and the "
                     "relative motions it leaves free (%s) are its null space",
                     mech_joint_type_name(types[t]), pairing_name[pairing], type_neq[t],
                     type_neq[t], free_motions[t][0] ? free_motions[t] : "none");
            all_phi = fmax(all_phi, worst_phi), all_null = fmax(all_null, worst_null);
            all_ratio = fmin(all_ratio, ratio);
            if (!ok(neq_ok && rank_ok && worst_phi < 1e-13 && worst_null < 1e-13, name))
                diag("neq %d, smallest singular value / largest %.3g, |phi| %.3g, |G u_free| %.3g",
                     j->neq, ratio, worst_phi, worst_null);
        }
        mech_system_destroy(sys);
    }
    diag("reference configurations: |phi| <= %.3g, |G u_free| <= %.3g (tolerance 1e-13), "
         "smallest singular value / largest >= %.3g (rank: above 1e-6)",
         all_phi, all_null, all_ratio);
}

/* ---- reactions ------------------------------------------------------------------------------- */

static double channel(const mech_system *sys, const char *name)
{
    mech_channel ch;
    mech_error err;
    if (mech_channel_lookup(sys, name, &ch, &err)) {
        diag("%s", err.msg);
        return NAN;
    }
    return mech_channel_value(sys, &ch);
}

static double channel_of(const mech_system *sys, const char *entity, const char *q)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", entity, q);
    return channel(sys, name);
}

/*
** Body "two" hangs on joint "j" of each type, from the ground (pairing 0) or from body "one"
** (pairing 1, itself on a spherical joint to the ground), under a tilted gravity, with random
** velocities (made consistent by the assembly).  At an evaluation of the initial state:
**   - the reaction channels (force fx, fy, fz and moment mx, my, mz about b's anchor, world;
**     fx_j ... mz_j the same in a's joint frame) are -G_b^T lambda of the joint's rows and
**     multipliers, the moment reduced to the anchor (N_anchor = N - s_b x F); by virtual
**     work: for any virtual velocity du of b, F . (dv + dw x s_b) + M . dw = -lambda . G_b du;
**   - they balance b's Newton-Euler equations: F = m (a - g), N = J_w alpha + omega x J_w
**     omega about the centre, with a, alpha, omega b's channels: every other force on b is
**     gravity (and the gyroscopic term), so the joint's generalized force is the rest.
** Both are identities of one evaluation (u' = M^-1 (Q - G^T lambda) is computed from the same
** lambda; the inertia's condition number is below 10): 1e-12 of the forces' scale.  One
** penalty joint (revolute, k = 1e4, c = 10) is checked the same way, lambda = k Phi + c Phi'.
*/
static void test_reactions(void)
{
    static const double grav[3] = {1.2, -0.7, -9.81};
    static const double inertia[6] = {0.3, 0.4, 0.5, 0.02, -0.01, 0.03};
    double all = 0, all_pen = 0;
    for (int pairing = 0; pairing < 2; pairing++) {
        for (int t = 0; t < 8; t++) {
            int penalty = t == 7;
            mech_joint_type type = penalty ? MECH_REVOLUTE : types[t];
            mech_system *sys;
            mech_error err;
            mech_system_create_spatial(&sys, grav, &err);
            mech_sbody_def bd = mech_sbody_default();
            int one = MECH_GROUND, two;
            if (pairing == 1) {
                bd.name = "one";
                bd.mass = 1.5;
                bd.inertia[0] = 0.2, bd.inertia[1] = 0.25, bd.inertia[2] = 0.3;
                random_vec(-1, 1, bd.pos);
                random_quat(bd.quat);
                random_vec(-1, 1, bd.vel);
                random_vec(-2, 2, bd.omega);
                mech_sbody_add(sys, &bd, &one, &err);
                mech_sjoint_def sp = mech_sjoint_default();
                sp.name = "hang";
                sp.type = MECH_SPHERICAL;
                sp.body_a = MECH_GROUND, sp.body_b = one;
                random_vec(-0.5, 0.5, sp.pb);
                double Ao[9], s[3];
                rot_matrix(bd.quat, Ao);
                mat3_vec(Ao, sp.pb, s);
                vec3_add(bd.pos, s, sp.pa);
                mech_sjoint_add(sys, &sp, NULL, &err);
            }
            bd = mech_sbody_default();
            bd.name = "two";
            bd.mass = 2;
            memcpy(bd.inertia, inertia, sizeof inertia);
            random_vec(-1, 1, bd.vel);
            random_vec(-2, 2, bd.omega);
            mech_sbody_add(sys, &bd, &two, &err);
            mech_sjoint_def jd = mech_sjoint_default();
            jd.name = "j";
            jd.type = type;
            jd.body_a = one, jd.body_b = two;
            random_vec(-0.5, 0.5, jd.pa);
            random_vec(-0.5, 0.5, jd.pb);
            random_rotation(jd.frame_a);
            random_rotation(jd.frame_b);
            if (penalty) {
                jd.enforce = MECH_PENALTY;
                for (int e = 0; e < 6; e++) jd.k[e] = 1e4, jd.c[e] = 10;
            }
            int jid;
            if (mech_sjoint_add(sys, &jd, &jid, &err)) diag("%s", err.msg);
            /* b placed on the joint's reference (turned about z where that is free) */
            double q[14], zero[3] = {0, 0, 0}, dr[3] = {0, 0, 0};
            given_state(sys, q);
            if (penalty) random_vec(-0.02, 0.02, dr); /* a little off: the penalty acts */
            const joint *j = &sys->joints[jid];
            int turns = type == MECH_SPHERICAL || type == MECH_REVOLUTE ||
                        type == MECH_CYLINDRICAL || type == MECH_PLANAR;
            place(sys, one, two, two, j->pa, j->pb, j->fa, j->fb, turns ? 0.8 : 0, 0, dr, zero, q);
            body *b2 = &sys->bodies[two];
            memcpy(b2->q0, q + b2->q_at, 7 * sizeof(double)); /* as if given so */
            system_changed(sys);
            if (mech_system_finalize(sys, &err)) {
                ok(0, "finalize");
                diag("%s", err.msg);
                mech_system_destroy(sys);
                continue;
            }
            double y[64];
            mech_system_initial_state(sys, y, &err);
            if (mech_system_evaluate(sys, 0, y, &err)) diag("evaluate: %s", err.msg);
            /* b's Newton-Euler from its channels */
            static const char *const acc[] = {"ax", "ay", "az"}, *const alp[] = {"alphax", "alphay",
                                                                                 "alphaz"};
            static const char *const om[] = {"wx", "wy", "wz"}, *const eq[] = {"e0", "e1", "e2",
                                                                               "e3"};
            double a[3], al[3], w[3], e[4], A[9], J[9], Jw[9], AJ[9];
            for (int k = 0; k < 3; k++) {
                a[k] = channel_of(sys, "two", acc[k]);
                al[k] = channel_of(sys, "two", alp[k]);
                w[k] = channel_of(sys, "two", om[k]);
            }
            for (int k = 0; k < 4; k++) e[k] = channel_of(sys, "two", eq[k]);
            mech_quat_matrix(e, A);
            inertia_tensor(inertia, INERTIA_PRODUCTS_INTEGRAL, J);
            mat3_mul(A, J, AJ);
            mat3_mul_t(AJ, A, Jw);
            double F[3], N[3], Jal[3], Jww[3], gyr[3], sb[3], sxf[3], M[3];
            mat3_vec(Jw, al, Jal);
            mat3_vec(Jw, w, Jww);
            vec3_cross(w, Jww, gyr);
            for (int k = 0; k < 3; k++) F[k] = 2 * (a[k] - grav[k]), N[k] = Jal[k] + gyr[k];
            mat3_vec(A, jd.pb, sb);
            vec3_cross(sb, F, sxf);
            vec3_sub(N, sxf, M);
            /* -G_b^T lambda */
            crow rows[JOINT_NEQ_MAX];
            joint_eval(sys, j, sys->q, sys->v, rows);
            double g[6] = {0};
            for (int r = 0; r < j->neq; r++)
                for (int k = 0; k < 6; k++) g[k] -= rows[r].jb[k] * j->lambda[r];
            double gm[3];
            vec3_cross(sb, g, sxf);
            vec3_sub(g + 3, sxf, gm);
            static const char *const fch[] = {"fx", "fy", "fz"}, *const mch[] = {"mx", "my", "mz"};
            /* a's joint frame */
            double ra[3], Aa[9], Wa[9], Fj[3], Mj[3];
            pose_of(sys, one, sys->q, ra, Aa);
            mat3_mul(Aa, j->fa, Wa);
            mat3t_vec(Wa, F, Fj);
            mat3t_vec(Wa, M, Mj);
            static const char *const fjc[] = {"fx_j", "fy_j", "fz_j"}, *const mjc[] = {
                                                                           "mx_j", "my_j", "mz_j"};
            double scale = 2 * vec3_norm(grav) + vec3_norm(F) + vec3_norm(N) + vec3_norm(M);
            double e_ne = 0, e_g = 0, e_j = 0;
            for (int k = 0; k < 3; k++) {
                double fc = channel_of(sys, "j", fch[k]), mc = channel_of(sys, "j", mch[k]);
                e_ne = fmax(e_ne, fmax(fabs(fc - F[k]), fabs(mc - M[k])));
                e_g = fmax(e_g, fmax(fabs(fc - g[k]), fabs(mc - gm[k])));
                e_j = fmax(e_j, fmax(fabs(channel_of(sys, "j", fjc[k]) - Fj[k]),
                                     fabs(channel_of(sys, "j", mjc[k]) - Mj[k])));
            }
            /* virtual work: for virtual velocities du of b's centre (dv, dw), the channels'
            ** wrench at the anchor does F . (dv + dw x s_b) + M . dw = -lambda . (G_b du) */
            double e_vw = 0;
            for (int trial = 0; trial < 4; trial++) {
                double du[6], dvp[3], wxs[3], pw = 0, pl = 0, Fc[3], Mc[3];
                random_vec(-1, 1, du), random_vec(-1, 1, du + 3);
                vec3_cross(du + 3, sb, wxs);
                vec3_add(du, wxs, dvp);
                for (int k = 0; k < 3; k++)
                    Fc[k] = channel_of(sys, "j", fch[k]), Mc[k] = channel_of(sys, "j", mch[k]);
                pw = vec3_dot(Fc, dvp) + vec3_dot(Mc, du + 3);
                for (int r = 0; r < j->neq; r++)
                    for (int k = 0; k < 6; k++) pl -= j->lambda[r] * rows[r].jb[k] * du[k];
                e_vw = fmax(e_vw, fabs(pw - pl));
            }
            e_g = fmax(e_g, e_vw);
            double lam_pen = 0;
            if (penalty) /* lambda = k Phi + c Phi' of the last evaluation */
                for (int r = 0; r < j->neq; r++)
                    lam_pen =
                        fmax(lam_pen, fabs(j->lambda[r] - (1e4 * rows[r].phi + 10 * j->phidot[r])));
            all = fmax(all, fmax(e_ne, fmax(e_g, e_j)) / scale);
            all_pen = fmax(all_pen, lam_pen / scale);
            char name[200];
            snprintf(name, sizeof name,
                     "%s%s joint (%s): reaction channels are -G_b^T lambda at b's anchor and "
                     "balance b's Newton-Euler equations",
                     penalty ? "penalty " : "", mech_joint_type_name(type), pairing_name[pairing]);
            if (!ok(e_ne < 1e-12 * scale && e_g < 1e-12 * scale && e_j < 1e-12 * scale &&
                        lam_pen < 1e-9 * scale,
                    name))
                diag("scale %.3g N: vs Newton-Euler %.3g, vs -G^T lambda %.3g, joint frame %.3g, "
                     "penalty lambda %.3g",
                     scale, e_ne, e_g, e_j, lam_pen);
            mech_system_destroy(sys);
        }
    }
    diag("reactions: worst error / force scale %.3g (tolerance 1e-12), penalty multipliers %.3g "
         "(tolerance 1e-9)",
         all, all_pen);
}

int main(void)
{
    test_joint_rows();
    test_driver_rows();
    diag("rows, drivers and angle rows: worst rate error %.3g (tolerance 1e-9), worst Phi'' "
         "error %.3g (tolerance 1e-7)",
         overall.rate, overall.gamma);
    test_unwrap();
    test_reference();
    test_reactions();
    return done_testing();
}

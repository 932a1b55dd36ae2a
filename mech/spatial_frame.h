/* SPDX-License-Identifier: MIT */
/*
** The spatial geometry every spatial joint family and driver builds its equations from, what
** joint_frame.h is for the planar ones: the poses of a system's spatial bodies (with the
** per-evaluation cache of their rotations), the frame of two bodies' anchors, and the three
** kinds of equation every ideal spatial joint is made of (Haug, Computer-Aided Kinematics and
** Dynamics of Mechanical Systems, 1989, ch. 9; Nikravesh 1988, ch. 7):
**
**   sphere  Phi = P_a - P_b                       the anchors together (3 equations)
**   dot1    Phi = w_a . w_b                       a vector fixed in a normal to one fixed in b
**   dot2    Phi = w_a . d,  d = P_b - P_a         the anchors' offset normal to a vector of a
**
** P = r + A s is an anchor (s in body coordinates, s_w = A s its world offset) and w = A w0 a
** body-fixed vector in the world; with the world angular velocity omega, w' = omega x w and
** P' = v + omega x s_w.  Each equation gives its value Phi, its Jacobian rows on the
** velocities u = (v, omega) of bodies a and b, and gamma, the part of Phi'' without
** accelerations with its sign flipped (Phi'' = G u' - gamma):
**
**   sphere: G_a = [I, -tilde(s_a)], G_b = [-I, tilde(s_b)],
**           gamma = -omega_a x (omega_a x s_a) + omega_b x (omega_b x s_b)
**   dot1:   G_a = [0, w_a x w_b], G_b = [0, w_b x w_a],
**           gamma = -[(omega_a x (omega_a x w_a)) . w_b + 2 (omega_a x w_a) . (omega_b x w_b)
**                     + w_a . (omega_b x (omega_b x w_b))]
**   dot2:   G_a = [-w_a, w_a x (d + s_a)], G_b = [w_a, s_b x w_a],
**           gamma = -[(omega_a x (omega_a x w_a)) . d + 2 (omega_a x w_a) . d'
**                     + w_a . (omega_b x (omega_b x s_b) - omega_a x (omega_a x s_a))]
**
** tests/c/test_spatial_joints.c checks every row and gamma against finite differences.
*/
#ifndef MECH_SPATIAL_FRAME_PRIVATE_H
#define MECH_SPATIAL_FRAME_PRIVATE_H

#include <string.h>

#include "registry.h"
#include "spatial_body.h"
#include "vec3.h"

/* The pose of spatial body b at q: its centre r and rotation A (world = A body); the ground's
** is the origin and the identity.  A comes from the evaluation's cache when q is the
** positions it was computed from. */
static inline void sbody_pose(const mech_system *sys, int b, const double *q, double r[3],
                              double A[9])
{
    const body *bd = &sys->bodies[b];
    if (bd->q_at < 0) {
        static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        r[0] = r[1] = r[2] = 0;
        memcpy(A, I, sizeof I);
        return;
    }
    const double *qb = q + bd->q_at;
    r[0] = qb[0], r[1] = qb[1], r[2] = qb[2];
    if (q == sys->rot_q)
        memcpy(A, sys->rot + 9 * b, 9 * sizeof(double));
    else
        spatial_rotation(qb, A);
}

/* The velocities (v, omega) of spatial body b in v (6 values; zeros for the ground). */
static inline const double *sbody_u(const mech_system *sys, int b, const double *v)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    int e = sys->bodies[b].u_at;
    return e < 0 ? zero : v + e;
}

/* The geometry one joint's equations share: the two bodies' poses and velocities, the
** anchors' world offsets, their separation d = P_b - P_a and its rate, and the joint's two
** frames in world axes (columns x, y, z). */
typedef struct sframe {
    double ra[3], rb[3], Aa[9], Ab[9];
    const double *ua, *ub; /* (v, omega) of a and b */
    double sa[3], sb[3];   /* the anchors' world offsets from the centres */
    double d[3], dd[3];    /* P_b - P_a and its rate */
    double Wa[9], Wb[9];   /* the frames: Wa = A_a fa, Wb = A_b fb (row-major, columns) */
} sframe;

/* The frame of bodies a and b with anchors pa, pb and joint frames fa, fb (body coordinates;
** fa, fb may be NULL when no equation reads them) at (q, v). */
static inline void make_sframe(const mech_system *sys, int a, int b, const double pa[3],
                               const double pb[3], const double *fa, const double *fb,
                               const double *q, const double *v, sframe *f)
{
    sbody_pose(sys, a, q, f->ra, f->Aa);
    sbody_pose(sys, b, q, f->rb, f->Ab);
    f->ua = sbody_u(sys, a, v);
    f->ub = sbody_u(sys, b, v);
    mat3_vec(f->Aa, pa, f->sa);
    mat3_vec(f->Ab, pb, f->sb);
    double pva[3], pvb[3];
    spatial_point_velocity(f->ua, f->sa, pva);
    spatial_point_velocity(f->ub, f->sb, pvb);
    for (int k = 0; k < 3; k++) {
        f->d[k] = f->rb[k] + f->sb[k] - f->ra[k] - f->sa[k];
        f->dd[k] = pvb[k] - pva[k];
    }
    if (fa) mat3_mul(f->Aa, fa, f->Wa);
    if (fb) mat3_mul(f->Ab, fb, f->Wb);
}

/* Column c (0 x, 1 y, 2 z) of a row-major 3 x 3 matrix. */
static inline void mat3_col(const double M[9], int c, double out[3])
{
    out[0] = M[c], out[1] = M[3 + c], out[2] = M[6 + c];
}

static inline void szero_row(crow *r)
{
    r->phi = r->phit = r->gamma = 0;
    for (int k = 0; k < BODY_NU_MAX; k++) r->ja[k] = r->jb[k] = 0;
}

/* omega x (omega x s) */
static inline void centripetal(const double w[3], const double s[3], double out[3])
{
    double ws[3];
    vec3_cross(w, s, ws);
    vec3_cross(w, ws, out);
}

/* The anchors together: Phi = P_a - P_b, three rows. */
static inline void sphere_rows(const sframe *f, crow *rows)
{
    double ca[3], cb[3];
    centripetal(f->ua + 3, f->sa, ca);
    centripetal(f->ub + 3, f->sb, cb);
    for (int k = 0; k < 3; k++) {
        crow *r = &rows[k];
        szero_row(r);
        r->phi = -f->d[k];
        r->ja[k] = 1;
        r->jb[k] = -1;
        /* d(omega x s)_k / d omega = (s x e_k) */
        double e[3] = {0, 0, 0}, sxe[3];
        e[k] = 1;
        vec3_cross(f->sa, e, sxe);
        for (int i = 0; i < 3; i++) r->ja[3 + i] = sxe[i];
        vec3_cross(f->sb, e, sxe);
        for (int i = 0; i < 3; i++) r->jb[3 + i] = -sxe[i];
        r->gamma = -ca[k] + cb[k];
    }
}

/* A vector wa fixed in a normal to wb fixed in b (world components): Phi = wa . wb - value. */
static inline void dot1_row(const sframe *f, const double wa[3], const double wb[3], double value,
                            crow *r)
{
    const double *oa = f->ua + 3, *ob = f->ub + 3;
    szero_row(r);
    r->phi = vec3_dot(wa, wb) - value;
    double axb[3];
    vec3_cross(wa, wb, axb);
    for (int i = 0; i < 3; i++) {
        r->ja[3 + i] = axb[i];
        r->jb[3 + i] = -axb[i];
    }
    double ra[3], rb[3], va[3], vb[3];
    centripetal(oa, wa, ra);
    centripetal(ob, wb, rb);
    vec3_cross(oa, wa, va);
    vec3_cross(ob, wb, vb);
    r->gamma = -(vec3_dot(ra, wb) + 2 * vec3_dot(va, vb) + vec3_dot(wa, rb));
}

/* The anchors' offset d = P_b - P_a along wa fixed in a: Phi = wa . d - value. */
static inline void dot2_row(const sframe *f, const double wa[3], double value, crow *r)
{
    const double *oa = f->ua + 3, *ob = f->ub + 3;
    szero_row(r);
    r->phi = vec3_dot(wa, f->d) - value;
    double dsa[3], t[3];
    vec3_add(f->d, f->sa, dsa);
    vec3_cross(wa, dsa, t);
    for (int i = 0; i < 3; i++) {
        r->ja[i] = -wa[i];
        r->ja[3 + i] = t[i];
        r->jb[i] = wa[i];
    }
    vec3_cross(f->sb, wa, t);
    for (int i = 0; i < 3; i++) r->jb[3 + i] = t[i];
    double cw[3], vw[3], ca[3], cb[3];
    centripetal(oa, wa, cw);
    vec3_cross(oa, wa, vw);
    centripetal(oa, f->sa, ca);
    centripetal(ob, f->sb, cb);
    double dc[3];
    vec3_sub(cb, ca, dc);
    r->gamma = -(vec3_dot(cw, f->d) + 2 * vec3_dot(vw, f->dd) + vec3_dot(wa, dc));
}

/*
** The rotation about the frames' z axes: the angle from a's x axis to b's x axis,
**     theta = atan2(y_a . x_b, x_a . x_b)
** taken within pi of `near` (the value it follows, so that it counts whole turns), as the row
** Phi = theta with its exact Jacobian and gamma (the z axes need not be parallel: theta is
** the angle of x_b's projection on a's xy plane).  With c = x_a . x_b, s = y_a . x_b and
** h = (c y_a x x_b - s x_a x x_b) / (c^2 + s^2), theta' = h . (omega_a - omega_b).
*/
void angle_row(const sframe *f, double near, crow *r);

/* The angle alone (no row), within pi of near. */
double frame_angle(const sframe *f, double near);

#endif

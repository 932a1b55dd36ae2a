/* SPDX-License-Identifier: MIT */
/*
** The planar geometry every joint family and driver builds its equations from: the frame of
** two bodies' anchors, and the rows of the equations they share (the anchors together, the
** relative rotation, a distance along a direction that turns with the first body).  Inline
** as before in one file: these run in every evaluation.
**
** Notation: body i has position r_i, angle phi_i, rotation A_i; an anchor s (body
** coordinates) is at P = r + A s; s_g = A s; R90 v = (-v_y, v_x) turns a vector by +90
** degrees, so d(A s)/dphi = R90 s_g.  For each equation we return Phi, its partial time
** derivative Phi_t, its Jacobian rows on (x, y, phi) of bodies a and b, and gamma, the
** part of Phi'' that does not involve accelerations with its sign flipped:
**     Phi'' = Phi_q q'' - gamma.
** tests/c/test_constraints.c checks every Jacobian and gamma against finite differences.
*/
#ifndef MECH_JOINT_FRAME_PRIVATE_H
#define MECH_JOINT_FRAME_PRIVATE_H

#include <math.h>

#include "planar_body.h"
#include "registry.h"
#include "vec2.h"

/* Geometry shared by the equations of one joint. */
typedef struct frame {
    double ra[2], rb[2]; /* centres of mass */
    double va[2], vb[2]; /* their velocities */
    double wa, wb;       /* angular velocities */
    double pha, phb;     /* angles */
    double sa[2], sb[2]; /* anchors in the world frame, relative to the centres */
    double d[2], dd[2];  /* P_b - P_a and its rate */
    double u[2], n[2];   /* prismatic axis of body a in the world frame, and its normal */
} frame;

static inline void make_frame(const mech_system *sys, int a, int b, const double pa[2],
                              const double pb[2], const double axis[2], const double *q,
                              const double *v, frame *f)
{
    double posea[3], vela[3], poseb[3], velb[3];
    body_pose(sys, a, q, v, posea, vela);
    body_pose(sys, b, q, v, poseb, velb);
    f->ra[0] = posea[0], f->ra[1] = posea[1], f->pha = posea[2];
    f->rb[0] = poseb[0], f->rb[1] = poseb[1], f->phb = poseb[2];
    f->va[0] = vela[0], f->va[1] = vela[1], f->wa = vela[2];
    f->vb[0] = velb[0], f->vb[1] = velb[1], f->wb = velb[2];
    double ca, sa, cb, sb;
    body_trig(sys, a, q, &ca, &sa);
    body_trig(sys, b, q, &cb, &sb);
    vec2_rotate(ca, sa, pa, f->sa);
    vec2_rotate(cb, sb, pb, f->sb);
    for (int k = 0; k < 2; k++) f->d[k] = f->rb[k] + f->sb[k] - f->ra[k] - f->sa[k];
    /* rate: v_b + R90 s_b w_b - v_a - R90 s_a w_a */
    f->dd[0] = f->vb[0] - f->sb[1] * f->wb - f->va[0] + f->sa[1] * f->wa;
    f->dd[1] = f->vb[1] + f->sb[0] * f->wb - f->va[1] - f->sa[0] * f->wa;
    vec2_rotate(ca, sa, axis, f->u);
    f->n[0] = -f->u[1];
    f->n[1] = f->u[0];
}

/* The frame of joint j at (q, v). */
static inline void joint_frame(const mech_system *sys, const joint *j, const double *q,
                               const double *v, frame *f)
{
    make_frame(sys, j->a, j->b, j->pa, j->pb, j->axis, q, v, f);
}

static inline void zero_row(crow *r)
{
    r->phi = r->phit = r->gamma = 0;
    for (int k = 0; k < 3; k++) r->ja[k] = r->jb[k] = 0;
}

/* The anchors together (x, y): Phi = P_a - P_b. */
static inline void revolute_rows(const frame *f, crow *rows)
{
    for (int k = 0; k < 2; k++) {
        crow *r = &rows[k];
        zero_row(r);
        r->phi = -f->d[k];
        r->ja[k] = 1;
        r->jb[k] = -1;
        /* d(A s)/dphi = R90 s_g: x component -s_y, y component s_x */
        r->ja[2] = k == 0 ? -f->sa[1] : f->sa[0];
        r->jb[2] = k == 0 ? f->sb[1] : -f->sb[0];
        r->gamma = f->sa[k] * f->wa * f->wa - f->sb[k] * f->wb * f->wb;
    }
}

/* Relative rotation: Phi = phi_b - phi_a - angle. */
static inline void rotation_row(const frame *f, double angle, crow *r)
{
    zero_row(r);
    r->phi = f->phb - f->pha - angle;
    r->ja[2] = -1;
    r->jb[2] = 1;
}

/* Component of P_b - P_a along the unit vector e (world frame) that turns with body a,
** with R90 e = e_perp.  Phi = e . d, used for the prismatic normal (e = n, e_perp = -u)
** and the prismatic distance (e = u, e_perp = n). */
static inline void along_row(const frame *f, const double e[2], const double eperp[2], crow *r)
{
    zero_row(r);
    r->phi = vec2_dot(e, f->d);
    r->ja[0] = -e[0];
    r->ja[1] = -e[1];
    /* d/dphi_a: (R90 e).d - e.(R90 s_a) = eperp.d - eperp.s_a... written out: */
    double R90sa[2] = {-f->sa[1], f->sa[0]}, R90sb[2] = {-f->sb[1], f->sb[0]};
    r->ja[2] = vec2_dot(eperp, f->d) - vec2_dot(e, R90sa);
    r->jb[0] = e[0];
    r->jb[1] = e[1];
    r->jb[2] = vec2_dot(e, R90sb);
    /* Phi'' = e''.d + 2 e'.d' + e.d''; e' = eperp w_a, e'' = -e w_a^2 + eperp alpha_a;
    ** d'' = a_b + R90 s_b alpha_b - s_b w_b^2 - a_a - R90 s_a alpha_a + s_a w_a^2 */
    double wa2 = f->wa * f->wa, wb2 = f->wb * f->wb;
    double rest = -vec2_dot(e, f->d) * wa2 + 2 * f->wa * vec2_dot(eperp, f->dd) +
                  vec2_dot(e, f->sa) * wa2 - vec2_dot(e, f->sb) * wb2;
    r->gamma = -rest;
}

/* The violation channel of a joint that holds its anchors together: their distance in the
** last evaluation (j->phi). */
static inline double anchors_violation(const joint *j)
{
    return hypot(j->phi[0], j->phi[1]);
}

#endif

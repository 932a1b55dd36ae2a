/* SPDX-License-Identifier: MIT */
/*
** Constraint equations of joints and drivers in absolute coordinates.
**
** Notation: body i has position r_i, angle phi_i, rotation A_i; an anchor s (body
** coordinates) is at P = r + A s; s_g = A s; R90 v = (-v_y, v_x) turns a vector by +90
** degrees, so d(A s)/dphi = R90 s_g.  For each equation we return Phi, its partial time
** derivative Phi_t, its Jacobian rows on (x, y, phi) of bodies a and b, and gamma, the
** part of Phi'' that does not involve accelerations with its sign flipped:
**     Phi'' = Phi_q q'' - gamma.
** tests/c/test_constraints.c checks every Jacobian and gamma against finite differences.
*/
#include <math.h>

#include "planar_body.h"
#include "constraints.h"
#include "registry.h"
#include "vec2.h"

int joint_equations(mech_joint_type type)
{
    return type == MECH_FIXED ? 3 : 2;
}

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

static void make_frame(const mech_system *sys, int a, int b, const double pa[2], const double pb[2],
                       const double axis[2], const double *q, const double *v, frame *f)
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

static void zero_row(crow *r)
{
    r->phi = r->phit = r->gamma = 0;
    for (int k = 0; k < 3; k++) r->ja[k] = r->jb[k] = 0;
}

/* Revolute equations (x, y): Phi = P_a - P_b. */
static void revolute_rows(const frame *f, crow *rows)
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
static void rotation_row(const frame *f, double angle, crow *r)
{
    zero_row(r);
    r->phi = f->phb - f->pha - angle;
    r->ja[2] = -1;
    r->jb[2] = 1;
}

/* Component of P_b - P_a along the unit vector e (world frame) that turns with body a,
** with R90 e = e_perp.  Phi = e . d, used for the prismatic normal (e = n, e_perp = -u)
** and the prismatic distance (e = u, e_perp = n). */
static void along_row(const frame *f, const double e[2], const double eperp[2], crow *r)
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

void joint_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                crow *rows)
{
    frame f;
    make_frame(sys, j->a, j->b, j->pa, j->pb, j->axis, q, v, &f);
    switch (j->type) {
    case MECH_REVOLUTE: revolute_rows(&f, rows); break;
    case MECH_FIXED:
        revolute_rows(&f, rows);
        rotation_row(&f, j->angle0, &rows[2]);
        break;
    case MECH_PRISMATIC: {
        double minus_u[2] = {-f.u[0], -f.u[1]};
        along_row(&f, f.n, minus_u, &rows[0]);
        rotation_row(&f, j->angle0, &rows[1]);
        break;
    }
    }
}

void driver_bodies(const mech_system *sys, const driver *d, int *a, int *b)
{
    if (d->type == MECH_DRIVE_BODY_ANGLE) {
        *a = MECH_GROUND;
        *b = d->target;
    } else {
        *a = sys->joints[d->target].a;
        *b = sys->joints[d->target].b;
    }
}

double driver_coordinate(const mech_system *sys, const driver *d, const double *q)
{
    int a, b;
    driver_bodies(sys, d, &a, &b);
    const joint *j = d->type == MECH_DRIVE_BODY_ANGLE ? NULL : &sys->joints[d->target];
    static const double zero[2] = {0, 0}, xaxis[2] = {1, 0};
    frame f;
    make_frame(sys, a, b, j ? j->pa : zero, j ? j->pb : zero, j ? j->axis : xaxis, q, q, &f);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) return vec2_dot(f.u, f.d);
    return f.phb - f.pha;
}

int driver_motion(mech_system *sys, driver *d, double t)
{
    if (d->fn) {
        int rc = d->fn(d->ud, t, d->motion);
        if (rc) return rc;
        if (!isfinite(d->motion[0]) || !isfinite(d->motion[1]) || !isfinite(d->motion[2])) {
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "driver '%s': its function gave a non-finite value at t = %.9g", d->name,
                           t);
            return -1;
        }
        return 0;
    }
    d->motion[0] = d->value0 + d->speed * t;
    d->motion[1] = d->speed;
    d->motion[2] = 0;
    return 0;
}

void driver_eval(const mech_system *sys, const driver *d, const double *q, const double *v, crow *r)
{
    int a, b;
    driver_bodies(sys, d, &a, &b);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) {
        const joint *j = &sys->joints[d->target];
        frame f;
        make_frame(sys, a, b, j->pa, j->pb, j->axis, q, v, &f);
        along_row(&f, f.u, f.n, r);
    } else {
        double posea[3], poseb[3];
        body_pose(sys, a, q, v, posea, NULL);
        body_pose(sys, b, q, v, poseb, NULL);
        zero_row(r);
        r->phi = poseb[2] - posea[2];
        r->ja[2] = -1;
        r->jb[2] = 1;
    }
    r->phi -= d->motion[0];
    r->phit = -d->motion[1];
    r->gamma += d->motion[2];
}

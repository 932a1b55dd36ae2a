/* SPDX-License-Identifier: MIT */
/*
** The planar system's entry of the dimension table (dim.h): rigid bodies (x, y, phi) with a
** diagonal mass block (m, m, I; I may be 0 when a Lagrange row holds the angle), nodes of
** flexible bodies (x, y), q' = u, gravity in the plane, springs, rotational springs and
** loads, the reactions of the planar joints, the drivers' equations.  The arithmetic is the
** planar system's as it always was (every result the same bits).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constraints.h"
#include "contact.h"
#include "dim.h"
#include "joint_frame.h"
#include "kind.h"
#include "planar_body.h"
#include "registry.h"
#include "vec2.h"

/* ---- finalize ------------------------------------------------------------------------------ */

static int planar_count_massless(const mech_system *sys)
{
    int nz = 0;
    for (int b = 1; b < sys->nbodies; b++)
        if (sys->bodies[b].inertia == 0 && sys->bodies[b].nu == 3) nz++;
    return nz;
}

static size_t planar_full_size(const mech_system *sys)
{
    (void)sys;
    return 1; /* planar blocks are diagonal */
}

static mech_status planar_setup_blocks(mech_system *sys, mech_error *err)
{
    int z = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        body *bd = &sys->bodies[b];
        mass_block *k = &sys->blocks[sys->nblocks];
        k->at = bd->u_at;
        k->n = bd->nu;
        k->full = 0;
        k->off = 0;
        bd->block = sys->nblocks++;
        /* a mass or inertia so small that its inverse overflows: every acceleration of
        ** the body would be inf or NaN */
        if (!isfinite(1.0 / bd->mass) || (bd->inertia > 0 && !isfinite(1.0 / bd->inertia))) {
            int m = !isfinite(1.0 / bd->mass);
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': %s %g is too small (its inverse is not finite)",
                                  bd->fe >= 0 ? "node" : "body", bd->name, m ? "mass" : "inertia",
                                  m ? bd->mass : bd->inertia);
        }
        sys->minv[bd->u_at] = sys->minv[bd->u_at + 1] = 1.0 / bd->mass;
        if (bd->nu == 2) continue; /* a node: no rotation */
        if (bd->inertia > 0) {
            sys->minv[bd->u_at + 2] = 1.0 / bd->inertia;
        } else {
            sys->massless_block[z] = bd->block;
            sys->massless[z++] = bd->u_at + 2;
        }
    }
    return MECH_OK;
}

/* ---- evaluation ---------------------------------------------------------------------------- */

/* The angles' cos and sin are computed once per evaluation, for every body. */
static void planar_begin(mech_system *sys, const double *q)
{
    bodies_trig_begin(sys, q);
}

static void planar_end(mech_system *sys)
{
    bodies_trig_end(sys);
}

static void planar_body_forces(mech_system *sys, const double *q, const double *v, int full,
                               double *kinetic, double *v_grav)
{
    double *Q = sys->Q;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        int d = bd->q_at, e = bd->u_at;
        Q[e] = bd->mass * sys->gravity[0];
        Q[e + 1] = bd->mass * sys->gravity[1];
        if (bd->nu == 3) Q[e + 2] = 0;
        if (full) {
            *v_grav -= bd->mass * (sys->gravity[0] * q[d] + sys->gravity[1] * q[d + 1]);
            *kinetic += 0.5 * bd->mass * (v[e] * v[e] + v[e + 1] * v[e + 1]);
            if (bd->nu == 3) *kinetic += 0.5 * bd->inertia * v[e + 2] * v[e + 2];
        }
    }
}

/* Forces of springs, rotational springs and loads. */
static int planar_element_forces(mech_system *sys, double t, const double *q, const double *v,
                                 double *p_applied, double *p_dissip, double *v_elastic)
{
    for (int i = 0; i < sys->nforces; i++) {
        force *f = &sys->forces[i];
        switch (f->type) {
        case MECH_SPRING: {
            double sa[2], sb[2], va[2], vb[2], pa[2], pb[2];
            body_offset(sys, f->a, f->pa, q, v, sa, va);
            body_offset(sys, f->b, f->pb, q, v, sb, vb);
            body_point(sys, f->a, f->pa, q, v, pa, NULL);
            body_point(sys, f->b, f->pb, q, v, pb, NULL);
            double d[2] = {pb[0] - pa[0], pb[1] - pa[1]};
            double len, e[2] = {0, 0};
            if (f->axis[0] != 0 || f->axis[1] != 0) { /* along a fixed direction */
                e[0] = f->axis[0];
                e[1] = f->axis[1];
                len = e[0] * d[0] + e[1] * d[1];
            } else {
                len = hypot(d[0], d[1]);
                if (len > 0) e[0] = d[0] / len, e[1] = d[1] / len;
            }
            double rate = e[0] * (vb[0] - va[0]) + e[1] * (vb[1] - va[1]);
            double tension;
            if (f->law) {
                int rc = f->law(f->ud, t, len, rate, &tension);
                if (rc) {
                    if (rc < 0)
                        mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                                       "spring '%s': its force function failed at t = %.9g",
                                       f->name, t);
                    return rc;
                }
                *p_applied -= tension * rate;
                f->out[3] = 0;
            } else {
                double stretch = len - f->rest;
                tension = f->k * stretch + f->c * rate;
                *p_dissip += f->c * rate * rate;
                f->out[3] = 0.5 * f->k * stretch * stretch;
                *v_elastic += f->out[3];
            }
            body_add_force(sys, sys->Q, f->a, sa, tension * e[0], tension * e[1]);
            body_add_force(sys, sys->Q, f->b, sb, -tension * e[0], -tension * e[1]);
            f->out[0] = tension;
            f->out[1] = len;
            f->out[2] = rate;
            break;
        }
        case MECH_ROT_SPRING: {
            double pa[3], wa[3], pb[3], wb[3];
            body_pose(sys, f->a, q, v, pa, wa);
            body_pose(sys, f->b, q, v, pb, wb);
            double twist = pb[2] - pa[2] - f->rest, rate = wb[2] - wa[2];
            double torque = -f->k * twist - f->c * rate;                  /* on b */
            int da = sys->bodies[f->a].u_at, db = sys->bodies[f->b].u_at; /* rigid bodies */
            if (da >= 0) sys->Q[da + 2] -= torque;
            if (db >= 0) sys->Q[db + 2] += torque;
            *p_dissip += f->c * rate * rate;
            f->out[0] = torque;
            f->out[1] = twist;
            f->out[2] = rate;
            f->out[3] = 0.5 * f->k * twist * twist;
            *v_elastic += f->out[3];
            break;
        }
        case MECH_LOAD: {
            const mech_load_def *l = &f->load;
            double sg[2], pv[2], pose[3], vel[3];
            body_offset(sys, f->a, l->point, q, v, sg, pv);
            body_pose(sys, f->a, q, v, pose, vel);
            double fx = 0, fy = 0, tq = 0;
            if (l->profile == MECH_CALLBACK) {
                mech_body_state st = {pose[0], pose[1], pose[2], vel[0], vel[1], vel[2]};
                double out[3] = {0, 0, 0};
                int rc = l->fn(l->ud, t, &st, out);
                if (rc) {
                    if (rc < 0)
                        mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                                       "load '%s': its function failed at t = %.9g", f->name, t);
                    return rc;
                }
                fx = out[0], fy = out[1], tq = out[2];
            } else {
                double s = l->profile == MECH_HARMONIC ? sin(l->freq * t + l->phase) : 0.0;
                double cx = l->value[0] + l->amplitude[0] * s;
                double cy = l->value[1] + l->amplitude[1] * s;
                if (l->torque) {
                    tq = cx;
                } else if (l->body_frame) {
                    double fb[2] = {cx, cy}, fw[2];
                    body_rotate(sys, f->a, q, fb, fw);
                    fx = fw[0], fy = fw[1];
                } else {
                    fx = cx, fy = cy;
                }
            }
            body_add_force(sys, sys->Q, f->a, sg, fx, fy);
            body_add_torque(sys, sys->Q, f->a, tq); /* a node takes no torque */
            double power = fx * pv[0] + fy * pv[1] + tq * vel[2];
            *p_applied += power;
            f->out[0] = fx;
            f->out[1] = fy;
            f->out[2] = tq;
            f->out[3] = power;
            break;
        }
        }
    }
    return 0;
}

/* q' = u: every body of a planar system. */
static void planar_qdot(const mech_system *sys, const double *q, const double *u, double *qdot)
{
    (void)q;
    memcpy(qdot, u, sizeof(double) * (size_t)sys->nq);
}

/* The generalized force of the joint on its body b: force, moment about b's anchor, and the
** component along the normal of a's axis (a prismatic joint's normal force). */
static void planar_reaction(const mech_system *sys, joint *j, const crow *rows, const double *q,
                            const double *v)
{
    const double *lam = j->lambda;
    double g[3] = {0, 0, 0};
    for (int e = 0; e < j->neq; e++)
        for (int k = 0; k < 3; k++) g[k] -= rows[e].jb[k] * lam[e];
    double sb[2], pv[2];
    body_offset(sys, j->b, j->pb, q, v, sb, pv);
    j->react[0] = g[0];
    j->react[1] = g[1];
    j->react[2] = g[2] - (sb[0] * g[1] - sb[1] * g[0]);
    double u[2];
    body_rotate(sys, j->a, q, j->axis, u);
    j->react[3] = -u[1] * g[0] + u[0] * g[1]; /* along the normal R90 u */
}

static double planar_kinetic(const mech_system *sys, int b, const double *q, const double *v)
{
    (void)q;
    return body_kinetic_energy(sys, b, v);
}

static int planar_energy_fault(mech_system *sys, double t, const double *q, const double *v)
{
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        int d = bd->q_at, e = bd->u_at;
        double ke = body_kinetic_energy(sys, b, v);
        double pe = -bd->mass * (sys->gravity[0] * q[d] + sys->gravity[1] * q[d + 1]);
        if (!isfinite(ke) || !isfinite(pe)) {
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "the %s energy of %s '%s' is not finite at t = %.9g (at (%.3g, %.3g) "
                           "m moving at (%.3g, %.3g) m/s)",
                           isfinite(ke) ? "gravity" : "kinetic", bd->fe >= 0 ? "node" : "body",
                           bd->name, t, q[d], q[d + 1], v[e], v[e + 1]);
            return 1;
        }
    }
    return 0;
}

/* ---- drivers ------------------------------------------------------------------------------- */

/* A body's angle (not a node's), a revolute joint's angle, a prismatic joint's distance. */
static mech_status planar_driver_setup(const mech_system *sys, const mech_driver_def *d,
                                       const char *name, driver *dr, mech_error *err)
{
    (void)dr;
    switch (d->type) {
    case MECH_DRIVE_BODY_ANGLE:
        if (d->target <= MECH_GROUND || d->target >= sys->nbodies)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': target must be a moving body of this system", name);
        if (sys->bodies[d->target].fe >= 0)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': '%s' is a node of a flexible body and has no angle",
                                  name, sys->bodies[d->target].name);
        break;
    case MECH_DRIVE_JOINT_ANGLE:
    case MECH_DRIVE_JOINT_DISTANCE: {
        mech_joint_type want = d->type == MECH_DRIVE_JOINT_ANGLE ? MECH_REVOLUTE : MECH_PRISMATIC;
        if (d->target < 0 || d->target >= sys->njoints)
            return mech_error_set(err, MECH_ERR_ARG, "driver '%s': target must be a joint", name);
        if (sys->joints[d->target].type != want)
            return mech_error_set(
                err, MECH_ERR_ARG, "driver '%s': a %s driver needs a %s joint, '%s' is a %s joint",
                name, system_driver_type_name(d->type), mech_joint_type_name(want),
                sys->joints[d->target].name, mech_joint_type_name(sys->joints[d->target].type));
        const joint *tj = &sys->joints[d->target];
        if (d->type == MECH_DRIVE_JOINT_ANGLE &&
            (sys->bodies[tj->a].fe >= 0 || sys->bodies[tj->b].fe >= 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': joint '%s' holds a node of a flexible body, which "
                                  "has no angle",
                                  name, tj->name);
        break;
    }
    default: return mech_error_set(err, MECH_ERR_ARG, "driver '%s': unknown type", name);
    }
    return MECH_OK;
}

static double planar_driver_coordinate(const mech_system *sys, const driver *d, const double *q)
{
    int a, b;
    driver_bodies(sys, d, &a, &b);
    const joint *j = d->type == MECH_DRIVE_BODY_ANGLE ? NULL : &sys->joints[d->target];
    static const double zero[3] = {0, 0, 0}, xaxis[2] = {1, 0};
    frame f;
    make_frame(sys, a, b, j ? j->pa : zero, j ? j->pb : zero, j ? j->axis : xaxis, q, q, &f);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) return vec2_dot(f.u, f.d);
    return f.phb - f.pha;
}

static void planar_driver_eval(const mech_system *sys, const driver *d, const double *q,
                               const double *v, crow *r)
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

/* ---- assembly and runs --------------------------------------------------------------------- */

static void planar_displace(const mech_system *sys, double *q, const double *du)
{
    for (int c = 0; c < sys->nu; c++) q[c] += du[c];
}

/* The first position coordinate (x or y of a body or node) farther than bound from 0 or not
** finite. */
static int planar_runaway(const mech_system *sys, const double *q, double bound)
{
    for (int b = 1; b < sys->nbodies; b++) {
        int d = sys->bodies[b].q_at;
        if (!(fabs(q[d]) <= bound)) return d;
        if (!(fabs(q[d + 1]) <= bound)) return d + 1;
    }
    return -1;
}

/* Grows *L to |x| (a NaN leaves it). */
static void reach(double *L, double x)
{
    *L = fmax(*L, fabs(x));
}

static double planar_point_speed(const mech_system *sys, int b, const double s[3], const double *q,
                                 const double *v)
{
    double p[2], pv[2];
    body_point(sys, b, s, q, v, p, pv);
    return hypot(pv[0], pv[1]);
}

static double planar_body_scale(const mech_system *sys, const double *q, const double *v, double T)
{
    double L = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        for (int k = 0; k < 2; k++) { /* x and y */
            reach(&L, q[bd->q_at + k]);
            reach(&L, v[bd->u_at + k] * T);
            reach(&L, 0.5 * sys->udot[bd->u_at + k] * T * T);
        }
        for (int k = 0; bd->outline && k < 4; k++) reach(&L, bd->outline_data[k]);
    }
    reach(&L, 0.5 * hypot(sys->gravity[0], sys->gravity[1]) * T * T);
    return L;
}

static const char *planar_coordinate_name(const body *bd, int velocity, int c)
{
    static const char *const coord[] = {"x", "y", "phi"};
    static const char *const vel[] = {"vx", "vy", "omega"};
    (void)bd;
    return c >= 0 && c < 3 ? (velocity ? vel[c] : coord[c]) : "?";
}

static void planar_describe_gravity(const mech_system *sys, char *buf, size_t size)
{
    snprintf(buf, size, "gravity (%.10g, %.10g) m/s^2", sys->gravity[0], sys->gravity[1]);
}

/* ---- the entry ------------------------------------------------------------------------------ */

static const kind_ops *const planar_kinds[] = {
    [MECH_KIND_BODY] = &kind_body,       [MECH_KIND_POINT] = &kind_point,
    [MECH_KIND_FORCE] = &kind_force,     [MECH_KIND_JOINT] = &kind_joint,
    [MECH_KIND_DRIVER] = &kind_driver,   [MECH_KIND_SYSTEM] = &kind_system,
    [MECH_KIND_CONTACT] = &kind_contact, [MECH_KIND_FE] = &kind_fe,
};

static void planar_body_frame(const mech_system *sys, int b, const double *q, double r[3],
                              double A[9])
{
    double pose[3], c, sn;
    body_pose(sys, b, q, NULL, pose, NULL);
    body_trig(sys, b, q, &c, &sn);
    const double R[9] = {c, -sn, 0, sn, c, 0, 0, 0, 1};
    r[0] = pose[0], r[1] = pose[1], r[2] = 0;
    memcpy(A, R, sizeof R);
}

const dim_ops planar_dim = {
    .dim = 2,
    .name = "mech.planar",
    .joint_type = planar_joint_type,
    .kinds = planar_kinds,
    .nkinds = (int)(sizeof planar_kinds / sizeof planar_kinds[0]),
    .count_massless = planar_count_massless,
    .full_size = planar_full_size,
    .setup_blocks = planar_setup_blocks,
    .begin = planar_begin,
    .end = planar_end,
    .body_forces = planar_body_forces,
    .element_forces = planar_element_forces,
    .qdot = planar_qdot,
    .reaction = planar_reaction,
    .kinetic = planar_kinetic,
    .energy_fault = planar_energy_fault,
    .driver_setup = planar_driver_setup,
    .driver_eval = planar_driver_eval,
    .driver_coordinate = planar_driver_coordinate,
    .displace = planar_displace,
    .normalize = NULL,
    .runaway = planar_runaway,
    .contact_tangents = 1,
    .contact_rates = planar_contact_rates,
    .contact_forces = planar_contact_forces,
    .contact_frame = planar_contact_frame,
    .body_frame = planar_body_frame,
    .body_scale = planar_body_scale,
    .point_speed = planar_point_speed,
    .coordinate_name = planar_coordinate_name,
    .describe_gravity = planar_describe_gravity,
};

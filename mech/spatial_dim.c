/* SPDX-License-Identifier: MIT */
/*
** The spatial system's entry of the dimension table (dim.h): rigid bodies with positions
** (r, e) and velocities (v, omega) in world axes (spatial_body.h), a full 6 x 6 mass block per
** body, diag(m I, A J^-1 A^T) inverted, refreshed at every evaluation as the body turns; gravity
** and the gyroscopic term; springs between points, loads and torques, rotational springs about
** a joint's axis; the drivers' equations; q' = N(q) u; assembly steps that turn the quaternions
** exactly; unit quaternions by projection after accepted steps.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clearance.h"
#include "constraints.h"
#include "contact.h"
#include "dim.h"
#include "inertia.h"
#include "kind.h"
#include "registry.h"
#include "rotation.h"
#include "spatial_body.h"
#include "spatial_frame.h"
#include "vec3.h"

/* ---- finalize ------------------------------------------------------------------------------ */

static int spatial_count_massless(const mech_system *sys)
{
    (void)sys;
    return 0; /* every spatial body has a positive definite inertia */
}

static size_t spatial_full_size(const mech_system *sys)
{
    return (size_t)MASS_RIGID_SIZE * (size_t)(sys->nbodies > 1 ? sys->nbodies - 1 : 1);
}

static mech_status spatial_setup_blocks(mech_system *sys, mech_error *err)
{
    for (int b = 1; b < sys->nbodies; b++) {
        body *bd = &sys->bodies[b];
        mass_block *k = &sys->blocks[sys->nblocks];
        k->at = bd->u_at;
        k->n = SPATIAL_NU;
        k->full = MASS_RIGID;
        k->off = MASS_RIGID_SIZE * sys->nblocks;
        bd->block = sys->nblocks++;
        double m = 1.0 / bd->mass;
        if (!isfinite(m) || !mat3_finite(bd->Jinv))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "body '%s': %s is too small (its inverse is not finite)",
                                  bd->name, isfinite(m) ? "inertia" : "mass");
        for (int i = 0; i < SPATIAL_NU; i++) sys->minv[bd->u_at + i] = i < 3 ? m : 0;
    }
    return MECH_OK;
}

/* ---- evaluation ---------------------------------------------------------------------------- */

/* Every body's rotation from q, once, and its mass block's inverse diag(I / m, A J^-1 A^T)
** (mass_block.h: a rigid block, 1 / m and the 3 x 3). */
static void spatial_begin(mech_system *sys, const double *q)
{
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        double *A = sys->rot + 9 * b;
        spatial_rotation(q + bd->q_at, A);
        double *M = sys->minv_full + sys->blocks[bd->block].off;
        M[0] = 1.0 / bd->mass;
        inertia_world_inverse(A, bd->Jinv, M + 1);
    }
    sys->rot_q = q;
}

static void spatial_end(mech_system *sys)
{
    sys->rot_q = NULL;
}

/* Gravity m g, and the gyroscopic torque -omega x (J_w omega) through body axes. */
static void spatial_body_forces(mech_system *sys, const double *q, const double *v, int full,
                                double *kinetic, double *v_grav)
{
    double *Q = sys->Q;
    const double *g = sys->gravity;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        const double *qb = q + bd->q_at, *u = v + bd->u_at, *A = sys->rot + 9 * b;
        double *Qb = Q + bd->u_at;
        double wb[3], h[3], gb[3], gw[3];
        mat3t_vec(A, u + 3, wb);
        mat3_vec(bd->J, wb, h);
        vec3_cross(wb, h, gb);
        mat3_vec(A, gb, gw);
        for (int k = 0; k < 3; k++) {
            Qb[k] = bd->mass * g[k];
            Qb[3 + k] = -gw[k];
        }
        if (full) {
            *v_grav -= bd->mass * vec3_dot(g, qb);
            *kinetic += 0.5 * bd->mass * vec3_dot(u, u) + 0.5 * vec3_dot(wb, h);
        }
    }
}

/* The world offset s_w of body point s and its velocity; the ground's points are fixed. */
static void offset(const mech_system *sys, int b, const double s[3], const double *q,
                   const double *v, double sw[3], double pv[3])
{
    double r[3], A[9];
    sbody_pose(sys, b, q, r, A);
    mat3_vec(A, s, sw);
    if (pv) spatial_point_velocity(sbody_u(sys, b, v), sw, pv);
}

/* Adds force f at world offset sw (and torque t, may be NULL) to body b's generalized forces. */
static void add_wrench(mech_system *sys, int b, const double sw[3], const double f[3],
                       const double *t)
{
    int e = sys->bodies[b].u_at;
    if (e < 0) return;
    spatial_add_force(sys->Q + e, sw, f);
    if (t) spatial_add_torque(sys->Q + e, t);
}

static int spring_forces(mech_system *sys, force *f, double t, const double *q, const double *v,
                         double *p_applied, double *p_dissip, double *v_elastic)
{
    double ra[3], rb[3], A[9], sa[3], sb[3], va[3], vb[3], d[3], e[3] = {0, 0, 0};
    sbody_pose(sys, f->a, q, ra, A);
    offset(sys, f->a, f->pa, q, v, sa, va);
    sbody_pose(sys, f->b, q, rb, A);
    offset(sys, f->b, f->pb, q, v, sb, vb);
    for (int k = 0; k < 3; k++) d[k] = rb[k] + sb[k] - ra[k] - sa[k];
    double len = vec3_norm(d);
    vec3_unit(d, e); /* d / len: 1 / len overflows for a subnormal length */
    double dv[3];
    vec3_sub(vb, va, dv);
    double rate = vec3_dot(e, dv), tension;
    if (f->law) {
        int rc = f->law(f->ud, t, len, rate, &tension);
        if (rc) {
            if (rc < 0)
                mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                               "spring '%s': its force function failed at t = %.9g", f->name, t);
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
    double fa[3], fb[3];
    vec3_scale(tension, e, fa);
    vec3_scale(-tension, e, fb);
    add_wrench(sys, f->a, sa, fa, NULL);
    add_wrench(sys, f->b, sb, fb, NULL);
    f->out[0] = tension;
    f->out[1] = len;
    f->out[2] = rate;
    return 0;
}

/* About the joint's axis: the torque -k (theta - rest) - c theta' on b, its opposite on a,
** through the angle row's Jacobian h (theta' = h . (omega_a - omega_b)). */
static void rot_spring_forces(mech_system *sys, force *f, double t, const double *q,
                              const double *v, double *p_dissip, double *v_elastic)
{
    const joint *j = &sys->joints[f->joint];
    sframe fr;
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, v, &fr);
    crow r;
    angle_row(&fr, angle_track_near(&f->angle, t), &r);
    double rate = 0;
    for (int k = 0; k < 3; k++) rate += r.ja[3 + k] * fr.ua[3 + k] + r.jb[3 + k] * fr.ub[3 + k];
    double twist = r.phi - f->rest, torque = -f->k * twist - f->c * rate;
    /* the power torque * rate: generalized torques torque * h on a and -torque * h on b */
    double ta[3], tb[3], zero[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) ta[k] = torque * r.ja[3 + k], tb[k] = torque * r.jb[3 + k];
    add_wrench(sys, j->a, zero, zero, ta);
    add_wrench(sys, j->b, zero, zero, tb);
    *p_dissip += f->c * rate * rate;
    f->out[0] = torque;
    f->out[1] = twist;
    f->out[2] = rate;
    f->out[3] = 0.5 * f->k * twist * twist;
    *v_elastic += f->out[3];
}

static int load_forces(mech_system *sys, force *f, double t, const double *q, const double *v,
                       double *p_applied)
{
    const mech_sload_def *l = &f->sload;
    double r[3], A[9], sw[3], pv[3], F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
    sbody_pose(sys, f->a, q, r, A);
    offset(sys, f->a, l->point, q, v, sw, pv);
    const double *u = sbody_u(sys, f->a, v);
    if (l->profile == MECH_CALLBACK) {
        mech_sbody_state st;
        const double *qb = q + sys->bodies[f->a].q_at;
        double en = sqrt(qb[3] * qb[3] + qb[4] * qb[4] + qb[5] * qb[5] + qb[6] * qb[6]);
        for (int k = 0; k < 3; k++) {
            st.pos[k] = qb[k];
            st.vel[k] = u[k];
            st.omega[k] = u[3 + k];
        }
        for (int k = 0; k < 4; k++) st.quat[k] = qb[3 + k] / en;
        double out[6] = {0, 0, 0, 0, 0, 0};
        int rc = l->fn(l->ud, t, &st, out);
        if (rc) {
            if (rc < 0)
                mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                               "load '%s': its function failed at t = %.9g", f->name, t);
            return rc;
        }
        for (int k = 0; k < 3; k++) F[k] = out[k], T[k] = out[3 + k];
    } else {
        double s = l->profile == MECH_HARMONIC ? sin(l->freq * t + l->phase) : 0.0, c[3], cw[3];
        for (int k = 0; k < 3; k++) c[k] = l->value[k] + l->amplitude[k] * s;
        if (l->body_frame)
            mat3_vec(A, c, cw);
        else
            memcpy(cw, c, sizeof cw);
        memcpy(l->torque ? T : F, cw, sizeof cw);
    }
    add_wrench(sys, f->a, sw, F, T);
    double power = vec3_dot(F, pv) + vec3_dot(T, u + 3);
    *p_applied += power;
    for (int k = 0; k < 3; k++) f->out[k] = F[k], f->out[3 + k] = T[k];
    f->out[6] = power;
    return 0;
}

static int spatial_element_forces(mech_system *sys, double t, const double *q, const double *v,
                                  double *p_applied, double *p_dissip, double *v_elastic)
{
    for (int i = 0; i < sys->nforces; i++) {
        force *f = &sys->forces[i];
        int rc = 0;
        switch (f->type) {
        case MECH_SPRING:
            rc = spring_forces(sys, f, t, q, v, p_applied, p_dissip, v_elastic);
            break;
        case MECH_ROT_SPRING: rot_spring_forces(sys, f, t, q, v, p_dissip, v_elastic); break;
        case MECH_LOAD: rc = load_forces(sys, f, t, q, v, p_applied); break;
        }
        if (rc) return rc;
    }
    return 0;
}

static void spatial_qdot_all(const mech_system *sys, const double *q, const double *u, double *qdot)
{
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        spatial_qdot(q + bd->q_at, u + bd->u_at, qdot + bd->q_at);
    }
}

/* The generalized force -G_b^T lambda of the joint on b: the force and, about b's anchor, the
** moment; then both in a's joint frame. */
static void spatial_reaction(const mech_system *sys, joint *j, const crow *rows, const double *q,
                             const double *v)
{
    double g[6] = {0, 0, 0, 0, 0, 0};
    for (int e = 0; e < j->neq; e++)
        for (int k = 0; k < 6; k++) g[k] -= rows[e].jb[k] * j->lambda[e];
    sframe f;
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, v, &f);
    double sxf[3], m[3];
    vec3_cross(f.sb, g, sxf);
    vec3_sub(g + 3, sxf, m);
    double fj[3], mj[3];
    mat3t_vec(f.Wa, g, fj);
    mat3t_vec(f.Wa, m, mj);
    for (int k = 0; k < 3; k++) {
        j->react[k] = g[k];
        j->react[3 + k] = m[k];
        j->react[6 + k] = fj[k];
        j->react[9 + k] = mj[k];
    }
}

static double spatial_kinetic(const mech_system *sys, int b, const double *q, const double *v)
{
    const body *bd = &sys->bodies[b];
    return spatial_kinetic_energy(q + bd->q_at, v + bd->u_at, bd->mass, bd->J);
}

static int spatial_energy_fault(mech_system *sys, double t, const double *q, const double *v)
{
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        const double *qb = q + bd->q_at, *u = v + bd->u_at;
        double ke = spatial_kinetic_energy(qb, u, bd->mass, bd->J);
        double pe = -bd->mass * vec3_dot(sys->gravity, qb);
        if (!isfinite(ke) || !isfinite(pe)) {
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "the %s energy of body '%s' is not finite at t = %.9g (at (%.3g, %.3g, "
                           "%.3g) m moving at (%.3g, %.3g, %.3g) m/s, omega (%.3g, %.3g, %.3g) "
                           "rad/s)",
                           isfinite(ke) ? "gravity" : "kinetic", bd->name, t, qb[0], qb[1], qb[2],
                           u[0], u[1], u[2], u[3], u[4], u[5]);
            return 1;
        }
    }
    return 0;
}

/* ---- drivers ------------------------------------------------------------------------------- */

/*
** A body's angle about the world axis d->axis (the body must be moving), a revolute or
** cylindrical joint's angle, a prismatic or cylindrical joint's distance.  A body's angle
** measures the turn of its frame W (z the axis, x the body's x axis as given, or its y axis
** when x is along the axis) from the world: fa = W on the ground, fb = W in the body's
** coordinates as given, so it starts at 0.
*/
static mech_status spatial_driver_setup(const mech_system *sys, const mech_driver_def *d,
                                        const char *name, driver *dr, mech_error *err)
{
    if (d->type == MECH_DRIVE_BODY_ANGLE) {
        if (d->target <= MECH_GROUND || d->target >= sys->nbodies)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': target must be a moving body of this system", name);
        const body *bd = &sys->bodies[d->target];
        double A[9], e[4], W[9];
        spatial_rotation(bd->q0, A);
        double ax[3], ay[3];
        mat3_col(A, 0, ax);
        mat3_col(A, 1, ay);
        char reason[120];
        if (!vec3_finite(d->axis) || !(vec3_norm(d->axis) > 0))
            return mech_error_set(
                err, MECH_ERR_ARG,
                "driver '%s': the axis of the rotation of body '%s' must be a non-zero "
                "finite vector (got %g, %g, %g)",
                name, bd->name, d->axis[0], d->axis[1], d->axis[2]);
        if (rot_from_axes(2, d->axis, 0, ax, e, reason, sizeof reason) &&
            rot_from_axes(2, d->axis, 0, ay, e, reason, sizeof reason))
            return mech_error_set(err, MECH_ERR_ARG, "driver '%s': axis: %s", name, reason);
        rot_matrix(e, W);
        memcpy(dr->fa, W, sizeof W);
        mat3t_mul(A, W, dr->fb);
        return MECH_OK;
    }
    if (d->type != MECH_DRIVE_JOINT_ANGLE && d->type != MECH_DRIVE_JOINT_DISTANCE)
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': unknown type", name);
    if (d->target < 0 || d->target >= sys->njoints)
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': target must be a joint", name);
    const joint *j = &sys->joints[d->target];
    mech_joint_type want = d->type == MECH_DRIVE_JOINT_ANGLE ? MECH_REVOLUTE : MECH_PRISMATIC;
    if (j->type != want && j->type != MECH_CYLINDRICAL)
        return mech_error_set(err, MECH_ERR_ARG,
                              "driver '%s': a %s driver needs a %s or cylindrical joint, '%s' is a "
                              "%s joint",
                              name, system_driver_type_name(d->type), mech_joint_type_name(want),
                              j->name, j->jt->name);
    return MECH_OK;
}

/* A driver's frame: its joint's, or for a body's angle the world frame of its axis (on the
** ground) against the body's. */
static void driver_sframe(const mech_system *sys, const driver *d, const double *q, const double *v,
                          sframe *f)
{
    static const double zero[3] = {0, 0, 0};
    if (d->type == MECH_DRIVE_BODY_ANGLE) {
        make_sframe(sys, MECH_GROUND, d->target, zero, zero, d->fa, d->fb, q, v, f);
    } else {
        const joint *j = &sys->joints[d->target];
        make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, v, f);
    }
}

static double spatial_driver_coordinate(const mech_system *sys, const driver *d, const double *q)
{
    sframe f;
    driver_sframe(sys, d, q, q, &f);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) {
        double za[3];
        mat3_col(f.Wa, 2, za);
        return vec3_dot(za, f.d);
    }
    return frame_angle(&f, NAN);
}

static void spatial_driver_eval(const mech_system *sys, const driver *d, const double *q,
                                const double *v, crow *r)
{
    sframe f;
    driver_sframe(sys, d, q, v, &f);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) {
        double za[3];
        mat3_col(f.Wa, 2, za);
        dot2_row(&f, za, 0, r);
    } else {
        angle_row(&f, d->motion[0], r);
    }
    r->phi -= d->motion[0];
    r->phit = -d->motion[1];
    r->gamma += d->motion[2];
}

/*
** An angle driver's reference direction (the x axis of the driven frame on body b) may come
** this close to the driver's axis (the sine of the angle between them) before the step fails:
** its angle about the axis, atan2 of x's two components across the axis, is undefined on the
** axis, and the constraint's Jacobian grows as 1 / sine on the way (ten times a turning body's
** here).  A body held on the axis by a revolute joint keeps the sine at 1.
*/
#define DRIVER_AXIS_SINE 0.1

/* After an accepted step: a driver whose angle is about to be undefined, a journal that left its
** bearing (sclearance_fault). */
static int spatial_step_fault(const mech_system *sys, double t, const double *y, char *why,
                              size_t size)
{
    for (int i = 0; i < sys->ndrivers; i++) {
        const driver *d = &sys->drivers[i];
        if (d->type == MECH_DRIVE_JOINT_DISTANCE) continue;
        sframe f;
        driver_sframe(sys, d, y, y + sys->nq, &f);
        double za[3], xb[3];
        mat3_col(f.Wa, 2, za);
        mat3_col(f.Wb, 0, xb);
        double along = vec3_dot(za, xb), sine = sqrt(fmax(0.0, 1 - along * along));
        if (sine >= DRIVER_AXIS_SINE) continue;
        int b = d->type == MECH_DRIVE_BODY_ANGLE ? d->target : sys->joints[d->target].b;
        snprintf(why, size,
                 "driver '%s': body '%s' has turned the reference direction of its angle to %.3g "
                 "degrees of the driver's axis at t = %.9g s; on the axis the angle about it is "
                 "undefined: a driven body must be held upright on the axis (a revolute joint "
                 "about it)",
                 d->name, sys->bodies[b].name, asin(sine) * 180 / 3.14159265358979323846, t);
        return 1;
    }
    return sclearance_fault(sys, t, y, why, size);
}

/* ---- history of a run ------------------------------------------------------------------------ */

/*
** Joint j's angle about its axis at the state y at t into *a, within pi of where its last one
** leads (start: within pi of near), and its rate there.  Over a step the prediction carries the
** mean of the rates at its two ends: exact for a joint turning at a steady acceleration.
*/
static void follow_angle(const mech_system *sys, const joint *j, double t, const double *y,
                         int start, double near, angle_track *a)
{
    sframe f;
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, y, y + sys->nq, &f);
    crow r;
    angle_row(&f, 0.0, &r);
    double rate = 0;
    for (int k = 0; k < 3; k++) rate += r.ja[3 + k] * f.ua[3 + k] + r.jb[3 + k] * f.ub[3 + k];
    if (!isfinite(rate)) rate = 0; /* a frame without an angle: the value alone */
    if (!start) near = a->value + 0.5 * (a->rate + rate) * (t - a->t);
    *a = (angle_track){frame_angle(&f, near), rate, t};
}

/* Every rotational spring's and revolute or cylindrical joint's angle at y, within pi of where
** it was leads (start: a spring's rest angle, a joint's 0, its reference configuration's). */
static void follow_angles(mech_system *sys, double t, const double *y, int start)
{
    for (int i = 0; i < sys->nforces; i++) {
        force *f = &sys->forces[i];
        if (f->type == MECH_ROT_SPRING)
            follow_angle(sys, &sys->joints[f->joint], t, y, start, f->rest, &f->angle);
    }
    for (int i = 0; i < sys->njoints; i++) {
        joint *j = &sys->joints[i];
        if (j->type == MECH_REVOLUTE || j->type == MECH_CYLINDRICAL)
            follow_angle(sys, j, t, y, start, 0.0, &j->angle);
    }
}

static void spatial_history_start(mech_system *sys, double t, const double *y)
{
    follow_angles(sys, t, y, 1);
}

static void spatial_history_step(mech_system *sys, double t, const double *y)
{
    follow_angles(sys, t, y, 0);
}

/* ---- assembly and runs --------------------------------------------------------------------- */

/* Each body moves by its part of du: r by dr, e turned by the rotation vector dtheta. */
static void spatial_displace_all(const mech_system *sys, double *q, const double *du)
{
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        spatial_displace(q + bd->q_at, du + bd->u_at);
    }
}

static double spatial_normalize(const mech_system *sys, double *q)
{
    double worst = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        double off = spatial_project(q + sys->bodies[b].q_at);
        if (off < 0) return -1;
        worst = fmax(worst, off);
    }
    return worst;
}

static int spatial_runaway(const mech_system *sys, const double *q, double bound)
{
    for (int b = 1; b < sys->nbodies; b++) {
        int d = sys->bodies[b].q_at;
        for (int k = 0; k < 3; k++)
            if (!(fabs(q[d + k]) <= bound)) return d + k;
    }
    return -1;
}

static void reach(double *L, double x)
{
    *L = fmax(*L, fabs(x));
}

static double spatial_point_speed(const mech_system *sys, int b, const double s[3], const double *q,
                                  const double *v)
{
    const body *bd = &sys->bodies[b];
    if (bd->u_at < 0) return 0;
    double A[9], sw[3], pv[3];
    spatial_rotation(q + bd->q_at, A);
    mat3_vec(A, s, sw);
    spatial_point_velocity(v + bd->u_at, sw, pv);
    return vec3_norm(pv);
}

static double spatial_body_scale(const mech_system *sys, const double *q, const double *v, double T)
{
    double L = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        for (int k = 0; k < 3; k++) {
            reach(&L, q[bd->q_at + k]);
            reach(&L, v[bd->u_at + k] * T);
            reach(&L, 0.5 * sys->udot[bd->u_at + k] * T * T);
        }
    }
    reach(&L, 0.5 * vec3_norm(sys->gravity) * T * T);
    return L;
}

static const char *spatial_coordinate_name(const body *bd, int velocity, int c)
{
    static const char *const coord[] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
    static const char *const vel[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
    (void)bd;
    if (velocity) return c >= 0 && c < 6 ? vel[c] : "?";
    return c >= 0 && c < 7 ? coord[c] : "?";
}

static void spatial_describe_gravity(const mech_system *sys, char *buf, size_t size)
{
    snprintf(buf, size, "spatial; gravity (%.10g, %.10g, %.10g) m/s^2", sys->gravity[0],
             sys->gravity[1], sys->gravity[2]);
}

/* ---- the entry ------------------------------------------------------------------------------ */

static const kind_ops *const spatial_kinds[] = {
    [MECH_KIND_BODY] = &kind_sbody,      [MECH_KIND_POINT] = &kind_spoint,
    [MECH_KIND_FORCE] = &kind_sforce,    [MECH_KIND_JOINT] = &kind_sjoint,
    [MECH_KIND_DRIVER] = &kind_driver,   [MECH_KIND_SYSTEM] = &kind_system,
    [MECH_KIND_CONTACT] = &kind_contact, [MECH_KIND_FE] = &kind_fe,
};

static void spatial_body_frame(const mech_system *sys, int b, const double *q, double r[3],
                               double A[9])
{
    sbody_pose(sys, b, q, r, A);
}

const dim_ops spatial_dim = {
    .dim = 3,
    .name = "mech.spatial",
    .joint_type = spatial_joint_type,
    .kinds = spatial_kinds,
    .nkinds = (int)(sizeof spatial_kinds / sizeof spatial_kinds[0]),
    .count_massless = spatial_count_massless,
    .full_size = spatial_full_size,
    .setup_blocks = spatial_setup_blocks,
    .begin = spatial_begin,
    .end = spatial_end,
    .body_forces = spatial_body_forces,
    .element_forces = spatial_element_forces,
    .qdot = spatial_qdot_all,
    .reaction = spatial_reaction,
    .kinetic = spatial_kinetic,
    .energy_fault = spatial_energy_fault,
    .driver_setup = spatial_driver_setup,
    .driver_eval = spatial_driver_eval,
    .driver_coordinate = spatial_driver_coordinate,
    .history_start = spatial_history_start,
    .history_step = spatial_history_step,
    .step_fault = spatial_step_fault,
    .displace = spatial_displace_all,
    .normalize = spatial_normalize,
    .runaway = spatial_runaway,
    .contact_tangents = 2,
    .contact_rates = spatial_contact_rates,
    .contact_forces = spatial_contact_forces,
    .contact_frame = spatial_contact_frame,
    .body_frame = spatial_body_frame,
    .body_scale = spatial_body_scale,
    .point_speed = spatial_point_speed,
    .coordinate_name = spatial_coordinate_name,
    .describe_gravity = spatial_describe_gravity,
};

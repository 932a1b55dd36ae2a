/* SPDX-License-Identifier: MIT */
/*
** The constructors of bodies, points, force elements, joints and drivers: each checks its
** definition, names the entity and appends it through the registry.
*/
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_system.h"
#include "planar_body.h"
#include "registry.h"
#include "clearance.h"
#include "constraints.h"
#include "joint_type.h"
#include "vec2.h"

/* ---- defaults ------------------------------------------------------------------------ */

mech_body_def mech_body_default(void)
{
    mech_body_def d;
    memset(&d, 0, sizeof d);
    return d;
}

mech_spring_def mech_spring_default(void)
{
    mech_spring_def d;
    memset(&d, 0, sizeof d);
    d.length0 = NAN;
    return d;
}

mech_rot_spring_def mech_rot_spring_default(void)
{
    mech_rot_spring_def d;
    memset(&d, 0, sizeof d);
    d.angle0 = NAN;
    return d;
}

mech_load_def mech_load_default(void)
{
    mech_load_def d;
    memset(&d, 0, sizeof d);
    return d;
}

mech_joint_def mech_joint_default(void)
{
    mech_joint_def d;
    memset(&d, 0, sizeof d);
    d.axis[0] = 1;
    d.angle0 = NAN;
    d.alpha = d.beta = NAN;
    d.clearance.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
    d.clearance.friction = mech_friction_default(MECH_FRICTION_NONE);
    return d;
}

mech_driver_def mech_driver_default(void)
{
    mech_driver_def d;
    memset(&d, 0, sizeof d);
    d.value0 = NAN;
    d.alpha = d.beta = NAN;
    return d;
}

/* ---- bodies and points ---------------------------------------------------------------- */

mech_status mech_body_add(mech_system *sys, const mech_body_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_check_dim(sys, 2, "mech_body_add", "mech_sbody_add", err);
    if (st) return st;
    st = system_take_name(sys, "body", d->name, "body", name, err);
    if (st) return st;
    if (!(isfinite(d->mass) && d->mass > 0))
        return mech_error_set(err, MECH_ERR_ARG, "body '%s': mass must be > 0 (got %g)", name,
                              d->mass);
    if (!(isfinite(d->inertia) && d->inertia >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': inertia must be >= 0 (got %g); 0 only for a body "
                              "a joint keeps from rotating",
                              name, d->inertia);
    if (!vec2_finite(d->pos) || !isfinite(d->angle) || !vec2_finite(d->vel) || !isfinite(d->omega))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': position, angle and velocities must be finite", name);
    if (!system_grow((void **)&sys->bodies, &sys->cap_bodies, sys->nbodies, sizeof(body)))
        return mech_error_set(err, MECH_ERR_NOMEM, "body '%s': out of memory", name);
    body *b = &sys->bodies[sys->nbodies];
    memset(b, 0, sizeof *b);
    memcpy(b->name, name, sizeof name);
    b->mass = d->mass;
    b->inertia = d->inertia;
    b->q0[0] = d->pos[0];
    b->q0[1] = d->pos[1];
    b->q0[2] = d->angle;
    b->u0[0] = d->vel[0];
    b->u0[1] = d->vel[1];
    b->u0[2] = d->omega;
    b->q_at = sys->nq_given;
    b->u_at = sys->nu_given;
    b->nq = b->nu = 3;
    b->fe = b->node = -1;
    sys->nq_given += 3;
    sys->nu_given += 3;
    if (id) *id = sys->nbodies;
    sys->nbodies++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_body_set_rectangle(mech_system *sys, int b, double hx, double hy, mech_error *err)
{
    mech_status st = system_check_body(sys, "outline", "rectangle", "body", b, err);
    if (st) return st;
    if (!(isfinite(hx) && hx > 0 && isfinite(hy) && hy > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': rectangle half sizes must be > 0 (got %g, %g)",
                              sys->bodies[b].name, hx, hy);
    body *bd = &sys->bodies[b];
    bd->outline = 1;
    bd->outline_data[0] = hx;
    bd->outline_data[1] = hy;
    return MECH_OK;
}

mech_status mech_body_set_segment(mech_system *sys, int b, const double p[2], const double q[2],
                                  mech_error *err)
{
    mech_status st = system_check_body(sys, "outline", "segment", "body", b, err);
    if (st) return st;
    if (!vec2_finite(p) || !vec2_finite(q) || (p[0] == q[0] && p[1] == q[1]))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': segment ends must be finite and distinct",
                              sys->bodies[b].name);
    body *bd = &sys->bodies[b];
    bd->outline = 2;
    memcpy(bd->outline_data, p, 2 * sizeof(double));
    memcpy(bd->outline_data + 2, q, 2 * sizeof(double));
    return MECH_OK;
}

mech_status mech_point_add(mech_system *sys, int b, const char *name, const double local[2],
                           int *id, mech_error *err)
{
    mech_status st = system_check_body(sys, "point", name ? name : "?", "its body", b, err);
    if (st || (st = system_check_dim(sys, 2, "mech_point_add", "mech_spoint_add", err))) return st;
    double s3[3] = {local[0], local[1], 0};
    return system_new_point(sys, b, name, s3, id, err);
}

/* ---- force elements ------------------------------------------------------------------ */

/* Initial configuration as the user gave it: pose of body b. */
static void initial_pose(const mech_system *sys, int b, double pose[3])
{
    memcpy(pose, sys->bodies[b].q0, sizeof(double) * 3);
}

static void initial_point(const mech_system *sys, int b, const double s[2], double p[2])
{
    double pose[3];
    initial_pose(sys, b, pose);
    pose_point(pose, s, p);
}

mech_status mech_spring_add(mech_system *sys, const mech_spring_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_check_dim(sys, 2, "mech_spring_add", "mech_sspring_add", err);
    if (st || (st = system_take_name(sys, "spring", d->name, "spring", name, err)) ||
        (st = system_check_body(sys, "spring", name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, "spring", name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': joins body '%s' to itself", name,
                              sys->bodies[d->body_a].name);
    if (!vec2_finite(d->pa) || !vec2_finite(d->pb))
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': attachment points must be finite",
                              name);
    double spa[2] = {d->pa[0], d->pa[1]}, spb[2] = {d->pb[0], d->pb[1]};
    if ((st = system_node_point(sys, "spring", name, d->body_a, spa, err)) ||
        (st = system_node_point(sys, "spring", name, d->body_b, spb, err)))
        return st;
    if (d->law == NULL) {
        if (!(isfinite(d->k) && d->k >= 0))
            return mech_error_set(err, MECH_ERR_ARG, "spring '%s': stiffness must be >= 0 (got %g)",
                                  name, d->k);
        if (!(isfinite(d->c) && d->c >= 0))
            return mech_error_set(err, MECH_ERR_ARG, "spring '%s': damping must be >= 0 (got %g)",
                                  name, d->c);
    }
    double axis[2] = {0, 0};
    if (!vec2_finite(d->axis))
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': axis must be finite", name);
    double alen = hypot(d->axis[0], d->axis[1]);
    if (alen > 0) axis[0] = d->axis[0] / alen, axis[1] = d->axis[1] / alen;
    double rest = d->length0;
    if (isnan(rest)) {
        double p[2], q[2];
        initial_point(sys, d->body_a, spa, p);
        initial_point(sys, d->body_b, spb, q);
        rest = alen > 0 ? axis[0] * (q[0] - p[0]) + axis[1] * (q[1] - p[1])
                        : hypot(q[0] - p[0], q[1] - p[1]);
    } else if (!(isfinite(rest) && (rest >= 0 || alen > 0))) {
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': rest length must be >= 0 (got %g)",
                              name, rest);
    }
    force *f = system_new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_SPRING;
    f->a = d->body_a;
    f->b = d->body_b;
    memcpy(f->pa, spa, sizeof spa);
    memcpy(f->pb, spb, sizeof spb);
    f->k = d->k;
    f->c = d->c;
    f->rest = rest;
    memcpy(f->axis, axis, sizeof axis);
    f->law = d->law;
    f->ud = d->ud;
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_rot_spring_add(mech_system *sys, const mech_rot_spring_def *d, int *id,
                                mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_check_dim(sys, 2, "mech_rot_spring_add", "mech_srot_spring_add", err);
    if (st || (st = system_take_name(sys, "rotational spring", d->name, "rotspring", name, err)) ||
        (st = system_check_body(sys, "rotational spring", name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, "rotational spring", name, "body_b", d->body_b, err)))
        return st;
    for (int k = 0; k < 2; k++) {
        const body *bd = &sys->bodies[k ? d->body_b : d->body_a];
        if (bd->fe >= 0)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "rotational spring '%s': '%s' is a node of a flexible body and "
                                  "has no rotation",
                                  name, bd->name);
    }
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "rotational spring '%s': joins a body to itself",
                              name);
    if (!(isfinite(d->k) && d->k >= 0) || !(isfinite(d->c) && d->c >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': stiffness and damping must be >= 0 "
                              "(got %g, %g)",
                              name, d->k, d->c);
    double rest = d->angle0;
    if (isnan(rest))
        rest = sys->bodies[d->body_b].q0[2] - sys->bodies[d->body_a].q0[2];
    else if (!isfinite(rest))
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': rest angle must be finite", name);
    force *f = system_new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_ROT_SPRING;
    f->a = d->body_a;
    f->b = d->body_b;
    f->k = d->k;
    f->c = d->c;
    f->rest = rest;
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_load_add(mech_system *sys, const mech_load_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_check_dim(sys, 2, "mech_load_add", "mech_sload_add", err);
    if (st ||
        (st = system_take_name(sys, d->torque ? "torque" : "force", d->name,
                               d->torque ? "torque" : "force", name, err)) ||
        (st = system_check_body(sys, "load", name, "body", d->body, err)))
        return st;
    if (d->body == MECH_GROUND)
        return mech_error_set(err, MECH_ERR_ARG, "load '%s': cannot act on the ground", name);
    double lpoint[2] = {d->point[0], d->point[1]};
    if (sys->bodies[d->body].fe >= 0) {
        if (d->torque)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "torque '%s': '%s' is a node of a flexible body and has no "
                                  "rotation; load the mesh with nodal forces",
                                  name, sys->bodies[d->body].name);
        if (vec2_finite(lpoint) &&
            (st = system_node_point(sys, "force", name, d->body, lpoint, err)))
            return st;
        if (d->body_frame)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "force '%s': a node has no frame of its own; give the force in "
                                  "the world frame",
                                  name);
    }
    if (d->profile == MECH_CALLBACK) {
        if (d->fn == NULL)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "load '%s': callback profile without a function", name);
    } else if (d->profile == MECH_CONSTANT || d->profile == MECH_HARMONIC) {
        if (!vec2_finite(d->value) || !vec2_finite(d->amplitude) || !isfinite(d->freq) ||
            !isfinite(d->phase) || !vec2_finite(d->point))
            return mech_error_set(err, MECH_ERR_ARG, "load '%s': values must be finite", name);
    } else {
        return mech_error_set(err, MECH_ERR_ARG, "load '%s': unknown profile", name);
    }
    force *f = system_new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_LOAD;
    f->a = d->body;
    f->load = *d;
    f->load.name = NULL;
    memcpy(f->load.point, lpoint, sizeof lpoint);
    memcpy(f->pa, lpoint, sizeof lpoint);
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

/* ---- joints and drivers ---------------------------------------------------------------- */

mech_status mech_joint_add(mech_system *sys, const mech_joint_def *d, int *id, mech_error *err)
{
    mech_status st0 = system_check_dim(sys, 2, "mech_joint_add", "mech_sjoint_add", err);
    if (st0) return st0;
    const joint_type *jt = planar_joint_type(d->type);
    if (jt == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "joint: unknown type %d", (int)d->type);
    const char *tname = jt->name;
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, tname, d->name, tname, name, err);
    if (st || (st = system_check_body(sys, tname, name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, tname, name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': joins body '%s' to itself", tname, name,
                              sys->bodies[d->body_a].name);
    if (!vec2_finite(d->pa) || !vec2_finite(d->pb))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': anchor points must be finite", tname,
                              name);
    double jpa[2] = {d->pa[0], d->pa[1]}, jpb[2] = {d->pb[0], d->pb[1]};
    for (int k = 0; k < 2; k++) {
        int b = k ? d->body_b : d->body_a;
        if (sys->bodies[b].fe < 0) continue;
        if (!jt->takes_node || d->enforce == MECH_CLEARANCE)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': '%s' is a node of a flexible body; a node takes only "
                                  "revolute joints without clearance (Lagrange or penalty)",
                                  tname, name, sys->bodies[b].name);
        if ((st = system_node_point(sys, tname, name, b, k ? jpb : jpa, err))) return st;
    }
    double axis[2] = {d->axis[0], d->axis[1]};
    if (jt->has_axis) {
        double len = hypot(axis[0], axis[1]);
        if (!(isfinite(len) && len > 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': axis must be a non-zero finite vector (got %g, %g)",
                                  tname, name, axis[0], axis[1]);
        axis[0] /= len;
        axis[1] /= len;
    }
    int neq = d->enforce == MECH_CLEARANCE ? 0 : jt->neq;
    if (d->enforce != MECH_LAGRANGE && d->enforce != MECH_PENALTY && d->enforce != MECH_CLEARANCE)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': unknown enforcement", tname, name);
    if ((st = system_check_enforcement(tname, name, d->enforce, neq, d->k, d->c, d->alpha, d->beta,
                                       err)))
        return st;
    double alpha = d->alpha, beta = d->beta;
    double angle0 = d->angle0;
    if (isnan(angle0))
        angle0 = sys->bodies[d->body_b].q0[2] - sys->bodies[d->body_a].q0[2];
    else if (!isfinite(angle0))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': angle must be finite", tname, name);

    if (!system_grow((void **)&sys->joints, &sys->cap_joints, sys->njoints, sizeof(joint)))
        return mech_error_set(err, MECH_ERR_NOMEM, "%s '%s': out of memory", tname, name);
    joint *j = &sys->joints[sys->njoints];
    memset(j, 0, sizeof *j);
    memcpy(j->name, name, sizeof name);
    j->type = d->type;
    j->jt = jt;
    j->a = d->body_a;
    j->b = d->body_b;
    memcpy(j->pa, jpa, sizeof jpa);
    memcpy(j->pb, jpb, sizeof jpb);
    j->axis[0] = axis[0];
    j->axis[1] = axis[1];
    j->angle0 = angle0;
    j->enforce = d->enforce;
    memcpy(j->k, d->k, sizeof d->k);
    memcpy(j->c, d->c, sizeof d->c);
    j->alpha = alpha;
    j->beta = beta;
    j->neq = neq;
    j->row = -1;
    sys->njoints++;
    if (d->enforce == MECH_CLEARANCE &&
        (st = clearance_attach(sys, sys->njoints - 1, &d->clearance, err))) {
        sys->njoints--;
        return st;
    }
    if (id) *id = sys->njoints - 1;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_driver_add(mech_system *sys, const mech_driver_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "driver", d->name, "driver", name, err);
    if (st) return st;
    if (d->fn == NULL && !isfinite(d->speed))
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': speed must be finite (got %g)", name,
                              d->speed);
    if (!isnan(d->value0) && !isfinite(d->value0))
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': initial value must be finite", name);
    if ((!isnan(d->alpha) && !(isfinite(d->alpha) && d->alpha >= 0)) ||
        (!isnan(d->beta) && !(isfinite(d->beta) && d->beta >= 0)))
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': Baumgarte coefficients must be >= 0",
                              name);
    if (!system_grow((void **)&sys->drivers, &sys->cap_drivers, sys->ndrivers, sizeof(driver)))
        return mech_error_set(err, MECH_ERR_NOMEM, "driver '%s': out of memory", name);
    driver *dr = &sys->drivers[sys->ndrivers];
    memset(dr, 0, sizeof *dr);
    memcpy(dr->name, name, sizeof name);
    dr->type = d->type;
    dr->target = d->target;
    dr->speed = d->speed;
    dr->fn = d->fn;
    dr->ud = d->ud;
    dr->alpha = d->alpha;
    dr->beta = d->beta;
    dr->value0 = d->value0;
    if ((st = sys->dops->driver_setup(sys, d, name, dr, err))) return st;
    if (isnan(dr->value0)) {
        /* the coordinate's value in the configuration as given */
        double *q = system_initial_state(sys);
        if (q == NULL)
            return mech_error_set(err, MECH_ERR_NOMEM, "driver '%s': out of memory", name);
        dr->value0 = driver_coordinate(sys, dr, q);
        mech_free(q);
    }
    if (id) *id = sys->ndrivers;
    sys->ndrivers++;
    system_changed(sys);
    return MECH_OK;
}

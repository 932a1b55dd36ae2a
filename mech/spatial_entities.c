/* SPDX-License-Identifier: MIT */
/*
** The constructors of a spatial system's bodies, points, joints and force elements
** (mech_spatial.h), and the rotations of its public API: each checks its definition, names the
** entity and appends it through the registry, as entities.c does for the planar ones.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech_spatial.h"
#include "clearance.h"
#include "inertia.h"
#include "joint_type.h"
#include "registry.h"
#include "rotation.h"
#include "spatial_body.h"
#include "spatial_frame.h"
#include "vec3.h"

/* ---- rotations --------------------------------------------------------------------------- */

int mech_quat_from_matrix(const double A[9], double tol, double e[4], char *why, size_t n)
{
    return rot_from_matrix(A, tol, e, why, n);
}

int mech_quat_from_axis_angle(const double axis[3], double angle, double e[4], char *why, size_t n)
{
    return rot_from_axis_angle(axis, angle, e, why, n);
}

int mech_quat_from_axes(int i, const double u[3], int j, const double v[3], double e[4], char *why,
                        size_t n)
{
    return rot_from_axes(i, u, j, v, e, why, n);
}

int mech_quat_from_euler(const char *seq, const double ang[3], double e[4], char *why, size_t n)
{
    return rot_from_euler(seq, ang, e, why, n);
}

int mech_quat_to_euler(const char *seq, const double e[4], double ang[3], char *why, size_t n)
{
    return rot_to_euler(seq, e, ang, why, n);
}

void mech_quat_matrix(const double e[4], double A[9])
{
    double q[7] = {0, 0, 0, e[0], e[1], e[2], e[3]};
    spatial_rotation(q, A);
}

/* ---- defaults ------------------------------------------------------------------------------ */

mech_sbody_def mech_sbody_default(void)
{
    mech_sbody_def d;
    memset(&d, 0, sizeof d);
    d.quat[0] = 1;
    return d;
}

mech_sjoint_def mech_sjoint_default(void)
{
    mech_sjoint_def d;
    memset(&d, 0, sizeof d);
    for (int k = 0; k < 3; k++) d.frame_a[4 * k] = d.frame_b[4 * k] = 1;
    d.enforce = MECH_LAGRANGE;
    d.alpha = d.beta = NAN;
    d.clearance.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
    d.clearance.friction = mech_friction_default(MECH_FRICTION_NONE);
    d.box.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
    d.box.friction = mech_friction_default(MECH_FRICTION_NONE);
    d.box.stiffness = MECH_SBOX_CORNERS;
    d.box.v_min = 1e-4;
    return d;
}

mech_sload_def mech_sload_default(void)
{
    mech_sload_def d;
    memset(&d, 0, sizeof d);
    return d;
}

mech_sspring_def mech_sspring_default(void)
{
    mech_sspring_def d;
    memset(&d, 0, sizeof d);
    d.length0 = NAN;
    return d;
}

mech_srot_spring_def mech_srot_spring_default(void)
{
    mech_srot_spring_def d;
    memset(&d, 0, sizeof d);
    d.angle0 = NAN;
    return d;
}

/* ---- bodies and points ---------------------------------------------------------------------- */

mech_status mech_sbody_add(mech_system *sys, const mech_sbody_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX], why[200];
    mech_status st = system_check_dim(sys, 3, "mech_sbody_add", "mech_body_add", err);
    if (st || (st = system_take_name(sys, "body", d->name, "body", name, err))) return st;
    if (!(isfinite(d->mass) && d->mass > 0))
        return mech_error_set(err, MECH_ERR_ARG, "body '%s': mass must be > 0 (got %g)", name,
                              d->mass);
    const double *c = d->inertia;
    for (int k = 0; k < 6; k++)
        if (!isfinite(c[k]))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "body '%s': inertia must be finite (got %g, %g, %g, %g, %g, %g)",
                                  name, c[0], c[1], c[2], c[3], c[4], c[5]);
    if (d->products != MECH_PRODUCTS_INTEGRAL && d->products != MECH_PRODUCTS_TENSOR)
        return mech_error_set(err, MECH_ERR_ARG, "body '%s': unknown convention of products", name);
    double J[9];
    inertia_tensor(c,
                   d->products == MECH_PRODUCTS_TENSOR ? INERTIA_PRODUCTS_TENSOR
                                                       : INERTIA_PRODUCTS_INTEGRAL,
                   J);
    if (inertia_check(J, INERTIA_TRIANGLE_RTOL, why, sizeof why))
        return mech_error_set(err, MECH_ERR_ARG, "body '%s': inertia (%g, %g, %g, %g, %g, %g): %s",
                              name, c[0], c[1], c[2], c[3], c[4], c[5], why);
    if (!vec3_finite(d->pos) || !vec3_finite(d->vel) || !vec3_finite(d->omega))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': position and velocities must be finite", name);
    double e[4] = {d->quat[0], d->quat[1], d->quat[2], d->quat[3]};
    if (rot_normalize(e, why, sizeof why))
        return mech_error_set(err, MECH_ERR_ARG, "body '%s': orientation (%g, %g, %g, %g): %s",
                              name, d->quat[0], d->quat[1], d->quat[2], d->quat[3], why);
    if (!system_grow((void **)&sys->bodies, &sys->cap_bodies, sys->nbodies, sizeof(body)))
        return mech_error_set(err, MECH_ERR_NOMEM, "body '%s': out of memory", name);
    body *b = &sys->bodies[sys->nbodies];
    memset(b, 0, sizeof *b);
    memcpy(b->name, name, sizeof name);
    b->mass = d->mass;
    memcpy(b->J, J, sizeof J);
    inertia_inverse(J, b->Jinv);
    b->inertia = (J[0] + J[4] + J[8]) / 3;
    for (int k = 0; k < 3; k++) {
        b->q0[k] = d->pos[k];
        b->u0[k] = d->vel[k];
        b->u0[3 + k] = d->omega[k];
    }
    memcpy(b->q0 + 3, e, sizeof e);
    b->q_at = sys->nq_given;
    b->u_at = sys->nu_given;
    b->nq = SPATIAL_NQ;
    b->nu = SPATIAL_NU;
    b->fe = b->node = -1;
    sys->nq_given += SPATIAL_NQ;
    sys->nu_given += SPATIAL_NU;
    if (id) *id = sys->nbodies;
    sys->nbodies++;
    system_changed(sys);
    return MECH_OK;
}

void mech_sbody_initial_pose(const mech_system *sys, int b, double pos[3], double quat[4])
{
    pos[0] = pos[1] = pos[2] = 0;
    quat[0] = 1, quat[1] = quat[2] = quat[3] = 0;
    if (b <= MECH_GROUND || b >= sys->nbodies || sys->bodies[b].nq != SPATIAL_NQ) return;
    memcpy(pos, sys->bodies[b].q0, 3 * sizeof(double));
    memcpy(quat, sys->bodies[b].q0 + 3, 4 * sizeof(double));
}

mech_status mech_spoint_add(mech_system *sys, int b, const char *name, const double local[3],
                            int *id, mech_error *err)
{
    mech_status st = system_check_body(sys, "point", name ? name : "?", "its body", b, err);
    if (st || (st = system_check_dim(sys, 3, "mech_spoint_add", "mech_point_add", err))) return st;
    return system_new_point(sys, b, name, local, id, err);
}

/* ---- joints ------------------------------------------------------------------------------- */

mech_status mech_sjoint_add(mech_system *sys, const mech_sjoint_def *d, int *id, mech_error *err)
{
    mech_status st = system_check_dim(sys, 3, "mech_sjoint_add", "mech_joint_add", err);
    if (st) return st;
    const joint_type *jt = spatial_joint_type(d->type);
    if (jt == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "joint: unknown type %d", (int)d->type);
    const char *tname = jt->name;
    char name[MECH_NAME_MAX], why[200];
    if ((st = system_take_name(sys, tname, d->name, tname, name, err)) ||
        (st = system_check_body(sys, tname, name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, tname, name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': joins body '%s' to itself", tname, name,
                              sys->bodies[d->body_a].name);
    if (!vec3_finite(d->pa) || !vec3_finite(d->pb))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': anchor points must be finite", tname,
                              name);
    for (int k = 0; k < 2; k++) {
        const double *F = k ? d->frame_b : d->frame_a;
        if (rot_matrix_check(F, ROT_MATRIX_TOL, why, sizeof why))
            return mech_error_set(err, MECH_ERR_ARG, "%s '%s': the frame on body '%s': %s", tname,
                                  name, sys->bodies[k ? d->body_b : d->body_a].name, why);
    }
    if (d->enforce == MECH_CLEARANCE && jt->clearance == NULL)
        return mech_error_set(err, MECH_ERR_ARG,
                              "%s '%s': a spatial %s joint takes no clearance (revolute and "
                              "prismatic ones do)",
                              tname, name, tname);
    int clear = d->enforce == MECH_CLEARANCE;
    if (d->enforce != MECH_LAGRANGE && d->enforce != MECH_PENALTY && !clear)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': unknown enforcement", tname, name);
    if (!clear && (st = system_check_enforcement(tname, name, d->enforce, jt->neq, d->k, d->c,
                                                 d->alpha, d->beta, err)))
        return st;
    if (!system_grow((void **)&sys->joints, &sys->cap_joints, sys->njoints, sizeof(joint)))
        return mech_error_set(err, MECH_ERR_NOMEM, "%s '%s': out of memory", tname, name);
    joint *j = &sys->joints[sys->njoints];
    memset(j, 0, sizeof *j);
    memcpy(j->name, name, sizeof name);
    j->type = d->type;
    j->jt = jt;
    j->a = d->body_a;
    j->b = d->body_b;
    memcpy(j->pa, d->pa, sizeof j->pa);
    memcpy(j->pb, d->pb, sizeof j->pb);
    memcpy(j->fa, d->frame_a, sizeof j->fa);
    memcpy(j->fb, d->frame_b, sizeof j->fb);
    j->angle0 = NAN;
    j->enforce = d->enforce;
    memcpy(j->k, d->k, sizeof j->k);
    memcpy(j->c, d->c, sizeof j->c);
    j->alpha = d->alpha;
    j->beta = d->beta;
    j->neq = clear ? 0 : jt->neq;
    j->row = -1;
    j->contact0 = j->ncontact = 0;
    sys->njoints++;
    if (clear && (st = d->type == MECH_PRISMATIC
                           ? sbox_attach(sys, sys->njoints - 1, &d->box, err)
                           : sclearance_attach(sys, sys->njoints - 1, &d->clearance, err))) {
        sys->njoints--;
        return st;
    }
    if (id) *id = sys->njoints - 1;
    system_changed(sys);
    return MECH_OK;
}

/* ---- force elements -------------------------------------------------------------------------- */

/* World position of body b's point s as the body was given. */
static void initial_point(const mech_system *sys, int b, const double s[3], double p[3])
{
    double pos[3], e[4], A[9];
    mech_sbody_initial_pose(sys, b, pos, e);
    mech_quat_matrix(e, A);
    mat3_vec(A, s, p);
    vec3_add(pos, p, p);
}

mech_status mech_sspring_add(mech_system *sys, const mech_sspring_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_check_dim(sys, 3, "mech_sspring_add", "mech_spring_add", err);
    if (st || (st = system_take_name(sys, "spring", d->name, "spring", name, err)) ||
        (st = system_check_body(sys, "spring", name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, "spring", name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': joins body '%s' to itself", name,
                              sys->bodies[d->body_a].name);
    if (!vec3_finite(d->pa) || !vec3_finite(d->pb))
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': attachment points must be finite",
                              name);
    if (d->law == NULL && (!(isfinite(d->k) && d->k >= 0) || !(isfinite(d->c) && d->c >= 0)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "spring '%s': stiffness and damping must be >= 0 (got %g, %g)", name,
                              d->k, d->c);
    double rest = d->length0;
    if (isnan(rest)) {
        double p[3], q[3], dd[3];
        initial_point(sys, d->body_a, d->pa, p);
        initial_point(sys, d->body_b, d->pb, q);
        vec3_sub(q, p, dd);
        rest = vec3_norm(dd);
    } else if (!(isfinite(rest) && rest >= 0)) {
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': rest length must be >= 0 (got %g)",
                              name, rest);
    }
    force *f = system_new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_SPRING;
    f->a = d->body_a;
    f->b = d->body_b;
    memcpy(f->pa, d->pa, sizeof f->pa);
    memcpy(f->pb, d->pb, sizeof f->pb);
    f->k = d->k;
    f->c = d->c;
    f->rest = rest;
    f->law = d->law;
    f->ud = d->ud;
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_srot_spring_add(mech_system *sys, const mech_srot_spring_def *d, int *id,
                                 mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_check_dim(sys, 3, "mech_srot_spring_add", "mech_rot_spring_add", err);
    if (st || (st = system_take_name(sys, "rotational spring", d->name, "rotspring", name, err)))
        return st;
    if (d->joint < 0 || d->joint >= sys->njoints)
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': joint must be a joint of this system", name);
    const joint *j = &sys->joints[d->joint];
    if (j->type != MECH_REVOLUTE && j->type != MECH_CYLINDRICAL)
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': it turns about a revolute or cylindrical "
                              "joint's axis; '%s' is a %s joint",
                              name, j->name, j->jt->name);
    if (!(isfinite(d->k) && d->k >= 0) || !(isfinite(d->c) && d->c >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': stiffness and damping must be >= 0 "
                              "(got %g, %g)",
                              name, d->k, d->c);
    double rest = d->angle0;
    if (isnan(rest)) {
        double *q = system_initial_state(sys);
        if (q == NULL)
            return mech_error_set(err, MECH_ERR_NOMEM, "rotational spring '%s': out of memory",
                                  name);
        sframe f;
        make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, q + sys->nq_given, &f);
        rest = frame_angle(&f, NAN);
        mech_free(q);
    } else if (!isfinite(rest)) {
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': rest angle must be finite", name);
    }
    force *f = system_new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_ROT_SPRING;
    f->angle = (angle_track){rest, 0, 0};
    f->joint = d->joint;
    f->a = j->a;
    f->b = j->b;
    f->k = d->k;
    f->c = d->c;
    f->rest = rest;
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_sload_add(mech_system *sys, const mech_sload_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    const char *what = d->torque ? "torque" : "force";
    mech_status st = system_check_dim(sys, 3, "mech_sload_add", "mech_load_add", err);
    if (st || (st = system_take_name(sys, what, d->name, what, name, err)) ||
        (st = system_check_body(sys, "load", name, "body", d->body, err)))
        return st;
    if (d->body == MECH_GROUND)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': cannot act on the ground", what, name);
    if (d->profile == MECH_CALLBACK) {
        if (d->fn == NULL)
            return mech_error_set(err, MECH_ERR_ARG, "%s '%s': callback profile without a function",
                                  what, name);
        if (!vec3_finite(d->point))
            return mech_error_set(err, MECH_ERR_ARG, "%s '%s': point must be finite", what, name);
    } else if (d->profile == MECH_CONSTANT || d->profile == MECH_HARMONIC) {
        if (!vec3_finite(d->value) || !vec3_finite(d->amplitude) || !isfinite(d->freq) ||
            !isfinite(d->phase) || !vec3_finite(d->point))
            return mech_error_set(err, MECH_ERR_ARG, "%s '%s': values must be finite", what, name);
    } else {
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': unknown profile", what, name);
    }
    force *f = system_new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_LOAD;
    f->a = d->body;
    f->sload = *d;
    f->sload.name = NULL;
    memcpy(f->pa, d->point, sizeof f->pa);
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

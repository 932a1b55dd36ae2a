/* SPDX-License-Identifier: MIT */
/*
** The life cycle of a system: creation, settings, finalize (which sizes the dynamics
** workspace and runs the assembly) and destruction.
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
#include "assemble.h"
#include "clearance.h"
#include "constraints.h"
#include "dynamics.h"
#include "fe_impl.h"
#include "start.h"
#include "dim.h"
#include "project.h"
#include "spatial_body.h"
#include "system_jac.h"

#define DEFAULT_BAUMGARTE 5.0

/* ---- system -------------------------------------------------------------------------- */

/* A system of dimension dops->dim with gravity g (dim values, NULL: none); its ground has the
** sizes of one of its rigid bodies and no coordinates. */
static mech_status create(mech_system **out, const dim_ops *dops, const double *gravity,
                          mech_error *err)
{
    *out = NULL;
    double g[3] = {0, 0, 0};
    if (gravity) {
        for (int k = 0; k < dops->dim; k++) {
            if (!isfinite(gravity[k]))
                return mech_error_set(err, MECH_ERR_ARG, "system: gravity must be finite");
            g[k] = gravity[k];
        }
    }
    mech_system *sys = mech_calloc(1, sizeof *sys);
    if (sys == NULL) return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
    sys->dops = dops;
    sys->dim = dops->dim;
    memcpy(sys->gravity, g, sizeof g);
    sys->alpha = sys->beta = DEFAULT_BAUMGARTE;
    sys->assemble = 1;
    if (!system_grow((void **)&sys->bodies, &sys->cap_bodies, 0, sizeof(body))) {
        mech_free(sys);
        return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
    }
    body *ground = &sys->bodies[0];
    memset(ground, 0, sizeof *ground);
    strcpy(ground->name, "ground");
    ground->q_at = ground->u_at = -1;
    ground->nq = dops->dim == 3 ? SPATIAL_NQ : 3;
    ground->nu = dops->dim == 3 ? SPATIAL_NU : 3;
    ground->q0[3] = dops->dim == 3 ? 1 : 0; /* a spatial ground: the identity orientation */
    ground->fe = ground->node = -1;
    sys->nbodies = 1;
    *out = sys;
    return MECH_OK;
}

mech_status mech_system_create(mech_system **out, const double gravity[2], mech_error *err)
{
    return create(out, &planar_dim, gravity, err);
}

mech_status mech_system_create_spatial(mech_system **out, const double gravity[3], mech_error *err)
{
    return create(out, &spatial_dim, gravity, err);
}

int mech_system_dim(const mech_system *sys)
{
    return sys->dim;
}

static void free_workspace(mech_system *sys)
{
    system_jac_free(sys);
    mech_free(sys->minv);
    mech_free(sys->blocks);
    sys->blocks = NULL;
    sys->nblocks = 0;
    mech_free(sys->minv_full);
    sys->minv_full = NULL;
    mech_free(sys->massless);
    mech_free(sys->massless_block);
    sys->massless_block = NULL;
    mech_free(sys->massless_row);
    mech_free(sys->massless_coef);
    mech_free(sys->massless_w);
    mech_free(sys->minv_aug);
    sys->massless_row = NULL;
    sys->massless_coef = sys->massless_w = sys->minv_aug = NULL;
    sys->fast = 0;
    mech_free(sys->rows);
    mech_free(sys->cr);
    mech_free(sys->rhs);
    mech_free(sys->Q);
    mech_free(sys->udot);
    dynamics_free(sys);
    mech_free(sys->mj);
    sys->mj = NULL;
    mech_free(sys->pairs);
    sys->pairs = NULL;
    mech_free(sys->blkrows);
    mech_free(sys->blkrows_at);
    sys->blkrows = sys->blkrows_at = NULL;
    sys->npairs = 0;
    mech_free(sys->sol);
    mech_free(sys->y0);
    mech_free(sys->ydot);
    sys->ydot = NULL;
    mech_free(sys->cs);
    sys->cs = NULL;
    sys->cs_q = NULL;
    mech_free(sys->rot);
    sys->rot = NULL;
    sys->rot_q = NULL;
    sys->minv = sys->Q = sys->udot = sys->sol = sys->rhs = sys->y0 = NULL;
    sys->q = sys->v = sys->y_eval = NULL; /* the last evaluation may have been of y0 */
    sys->massless = NULL;
    sys->rows = NULL;
    sys->cr = NULL;
    project_free(sys);
}

void mech_system_destroy(mech_system *sys)
{
    if (sys == NULL) return;
    free_workspace(sys);
    mech_free(sys->bodies);
    mech_free(sys->points);
    mech_free(sys->forces);
    mech_free(sys->joints);
    mech_free(sys->drivers);
    mech_free(sys->contacts);
    fe_free_all(sys);
    mech_free(sys);
}

mech_status mech_system_set_baumgarte(mech_system *sys, double alpha, double beta, mech_error *err)
{
    if (!(isfinite(alpha) && alpha >= 0 && isfinite(beta) && beta >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "system: Baumgarte alpha and beta must be finite and >= 0 "
                              "(got %g, %g)",
                              alpha, beta);
    sys->alpha = alpha;
    sys->beta = beta;
    system_changed(sys);
    return MECH_OK;
}

void mech_system_set_assembly(mech_system *sys, int on)
{
    sys->assemble = on != 0;
    system_changed(sys);
}

mech_status mech_system_set_start(mech_system *sys, mech_start start, mech_error *err)
{
    if (start != MECH_START_AUTO && start != MECH_START_IDEAL && start != MECH_START_AS_GIVEN)
        return mech_error_set(err, MECH_ERR_ARG, "system: unknown start %d", (int)start);
    sys->start = start;
    system_changed(sys);
    return MECH_OK;
}

/* ---- finalize -------------------------------------------------------------------------- */

mech_status mech_system_finalize(mech_system *sys, mech_error *err)
{
    if (sys->final) return MECH_OK;
    free_workspace(sys);
    sys->nq = sys->nq_given;
    sys->nu = sys->nu_given;
    const int nq = sys->nq, n = sys->nu;

    /* Lagrange rows: joints first, then drivers */
    int nrows = 0;
    for (int i = 0; i < sys->njoints; i++) {
        joint *j = &sys->joints[i];
        j->row = j->enforce == MECH_LAGRANGE ? nrows : -1;
        if (j->enforce == MECH_LAGRANGE) nrows += j->neq;
    }
    for (int i = 0; i < sys->ndrivers; i++) sys->drivers[i].row = nrows++;
    sys->nrows = nrows;

    int nz = sys->dops->count_massless(sys);
    sys->nmassless = nz;

    sys->nquad = sys->ndrivers + 4;
    for (int i = 0; i < sys->ndrivers; i++) sys->drivers[i].work = nq + n + i;
    sys->iapplied = nq + n + sys->ndrivers;
    sys->idissip = sys->iapplied + 1;
    sys->icontact = sys->iapplied + 2;
    sys->ifriction = sys->iapplied + 3;
    sys->nbristle = 0;
    for (int i = 0; i < sys->ncontacts; i++) {
        contact *c = &sys->contacts[i];
        int n_bristle_states = mech_friction_states(&c->flaw) * sys->dops->contact_tangents;
        c->bristle = n_bristle_states ? nq + n + sys->nquad + sys->nbristle : -1;
        sys->nbristle += n_bristle_states;
    }
    sys->nstate = nq + n + sys->nquad + sys->nbristle;

    int ns = nrows + nz;
    size_t nn = (size_t)(n ? n : 1), nr = (size_t)(nrows ? nrows : 1), nk = (size_t)(ns ? ns : 1);
    sys->minv = mech_calloc(nn, sizeof(double));
    sys->blocks = mech_calloc((size_t)sys->nbodies, sizeof(mass_block));
    sys->minv_full = mech_calloc(sys->dops->full_size(sys), sizeof(double));
    sys->massless = mech_calloc((size_t)(nz ? nz : 1), sizeof(int));
    sys->massless_block = mech_calloc((size_t)(nz ? nz : 1), sizeof(int));
    sys->massless_row = mech_calloc((size_t)(nz ? nz : 1), sizeof(int));
    sys->massless_coef = mech_calloc((size_t)(nz ? nz : 1), sizeof(double));
    sys->massless_w = mech_calloc((size_t)(nz ? nz : 1), sizeof(double));
    sys->minv_aug = mech_calloc(nn, sizeof(double));
    sys->rows = mech_calloc(nr, sizeof(rowinfo));
    sys->cr = mech_calloc(nr, sizeof(crow));
    sys->rhs = mech_calloc(nr, sizeof(double));
    sys->Q = mech_calloc(nn, sizeof(double));
    sys->udot = mech_calloc(nn, sizeof(double));
    sys->mj = mech_calloc(nr * 2 * BODY_NU_MAX, sizeof(double));
    sys->sol = mech_calloc(nk, sizeof(double));
    sys->y0 = mech_calloc((size_t)sys->nstate, sizeof(double));
    sys->ydot = mech_calloc((size_t)sys->nstate, sizeof(double));
    sys->cs = mech_calloc((size_t)(2 * sys->nbodies), sizeof(double));
    sys->rot = mech_calloc((size_t)(9 * sys->nbodies), sizeof(double));
    if (!sys->minv || !sys->blocks || !sys->minv_full || !sys->massless || !sys->massless_block ||
        !sys->massless_row || !sys->massless_coef || !sys->massless_w || !sys->minv_aug ||
        !sys->rows || !sys->cr || !sys->rhs || !sys->Q || !sys->udot || !sys->mj || !sys->sol ||
        !sys->y0 || !sys->ydot || !sys->cs || !sys->rot || project_alloc(sys) != 0) {
        free_workspace(sys);
        return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory sizing the workspaces");
    }

    sys->bodies[MECH_GROUND].block = -1;
    mech_status bst = sys->dops->setup_blocks(sys, err);
    if (bst) {
        free_workspace(sys);
        return bst;
    }

    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        for (int e = 0; j->row >= 0 && e < j->neq; e++) {
            rowinfo *r = &sys->rows[j->row + e];
            r->kind = MECH_KIND_JOINT;
            r->id = i;
            r->eq = e;
            r->blk_a = sys->bodies[j->a].block;
            r->blk_b = sys->bodies[j->b].block;
            r->alpha = system_baumgarte_or(j->alpha, sys->alpha);
            r->beta = system_baumgarte_or(j->beta, sys->beta);
        }
    }
    for (int i = 0; i < sys->ndrivers; i++) {
        const driver *d = &sys->drivers[i];
        rowinfo *r = &sys->rows[d->row];
        int a, b;
        driver_bodies(sys, d, &a, &b);
        r->kind = MECH_KIND_DRIVER;
        r->id = i;
        r->eq = 0;
        r->blk_a = sys->bodies[a].block;
        r->blk_b = sys->bodies[b].block;
        r->alpha = system_baumgarte_or(d->alpha, sys->alpha);
        r->beta = system_baumgarte_or(d->beta, sys->beta);
    }

    /* fast solve: every massless rotation needs a Lagrange row on it alone (dynamics.c) */
    memcpy(sys->minv_aug, sys->minv, sizeof(double) * nn);
    sys->fast = 1;
    for (int k = 0; k < nz; k++) {
        int zk = sys->massless_block[k], found = -1;
        double coef = 0;
        for (int r = 0; r < nrows && found < 0; r++) {
            const rowinfo *ri = &sys->rows[r];
            int alone;
            if (ri->kind == MECH_KIND_JOINT) {
                alone = sys->joints[ri->id].jt->alone == ri->eq;
            } else {
                alone = sys->drivers[ri->id].type != MECH_DRIVE_JOINT_DISTANCE;
            }
            if (alone && ri->blk_b == zk && ri->blk_a < 0) found = r, coef = 1;
            if (alone && ri->blk_a == zk && ri->blk_b < 0) found = r, coef = -1;
        }
        if (found < 0) {
            sys->fast = 0;
            break;
        }
        const body *bd = &sys->bodies[system_velocity_body(sys, sys->massless[k])];
        sys->massless_row[k] = found;
        sys->massless_coef[k] = coef;
        sys->massless_w[k] =
            bd->mass * 1e-2; /* the inertia of a ~0.1 m body: keeps S well scaled */
        sys->minv_aug[sys->massless[k]] = 1.0 / sys->massless_w[k];
    }

    /* the structure of S = G M^-1 G^T: row pairs that share a moving body with a diagonal
    ** mass block; the rows on each other block (full or rigid), listed per block */
    int npairs = 0;
    for (int pass = 0; pass < 2; pass++) {
        npairs = 0;
        for (int r = 0; r < nrows; r++) {
            for (int c = r; c < nrows; c++) {
                const int dr[2] = {sys->rows[r].blk_a, sys->rows[r].blk_b};
                const int dc[2] = {sys->rows[c].blk_a, sys->rows[c].blk_b};
                kpair kp = {r, c, 0, {0, 0}, {0, 0}};
                for (int s2 = 0; s2 < 2; s2++)
                    for (int u = 0; u < 2; u++)
                        if (dr[s2] >= 0 && dr[s2] == dc[u] && kp.nm < 2 &&
                            sys->blocks[dr[s2]].full == MASS_DIAGONAL) {
                            kp.s[kp.nm] = (signed char)s2;
                            kp.u[kp.nm] = (signed char)u;
                            kp.nm++;
                        }
                if (kp.nm == 0) continue;
                if (pass == 1) sys->pairs[npairs] = kp;
                npairs++;
            }
        }
        if (pass == 0) {
            sys->pairs = mech_calloc((size_t)(npairs ? npairs : 1), sizeof(kpair));
            if (sys->pairs == NULL) {
                free_workspace(sys);
                return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
            }
        }
    }
    sys->npairs = npairs;
    sys->blkrows_at = mech_calloc((size_t)sys->nblocks + 1, sizeof(int));
    sys->blkrows = mech_calloc((size_t)(2 * nrows + 1), sizeof(int));
    if (sys->blkrows_at == NULL || sys->blkrows == NULL) {
        free_workspace(sys);
        return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
    }
    for (int k = 0, at = 0; k < sys->nblocks; k++) {
        sys->blkrows_at[k] = at;
        for (int r = 0; r < nrows && sys->blocks[k].full != MASS_DIAGONAL; r++)
            for (int side = 0; side < 2; side++)
                if ((side ? sys->rows[r].blk_b : sys->rows[r].blk_a) == k)
                    sys->blkrows[at++] = 2 * r + side;
        sys->blkrows_at[k + 1] = at;
    }

    mech_status dst = dynamics_setup(sys, err);
    if (dst) {
        free_workspace(sys);
        return dst;
    }

    /* a body without inertia must have its rotation tied by some Lagrange equation */
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        if (bd->inertia > 0 || bd->nu == 2) continue;
        int tied = 0;
        for (int r = 0; r < nrows && !tied; r++)
            tied = sys->rows[r].blk_a == bd->block || sys->rows[r].blk_b == bd->block;
        if (!tied) {
            /* a joint with clearance does not hold it: say so when one is on it */
            const joint *cj = NULL;
            for (int i = 0; i < sys->njoints && !cj; i++)
                if (sys->joints[i].enforce == MECH_CLEARANCE &&
                    (sys->joints[i].a == b || sys->joints[i].b == b))
                    cj = &sys->joints[i];
            free_workspace(sys);
            if (cj)
                return mech_error_set(err, MECH_ERR_ARG,
                                      "body '%s': inertia is 0, but %s '%s' has clearance: it is "
                                      "a force element, not a constraint, and lets the body turn; "
                                      "give '%s' its inertia",
                                      bd->name, mech_joint_type_name(cj->type), cj->name, bd->name);
            return mech_error_set(err, MECH_ERR_ARG,
                                  "body '%s': inertia is 0 but no Lagrange joint keeps it from "
                                  "rotating; give it an inertia or guide it with a prismatic or "
                                  "fixed joint",
                                  bd->name);
        }
    }

    system_fill_initial_state(sys, sys->y0);
    sys->start_used = sys->assemble ? start_resolve(sys, sys->y0) : MECH_START_AS_GIVEN;
    if (sys->assemble) {
        /* assembly moves bodies only through the joint equations: the bodies of a joint
        ** with clearance must still be within it afterwards */
        mech_status st =
            assemble_state(sys, 0.0, sys->y0, sys->start_used == MECH_START_IDEAL, err);
        if (!st) st = clearance_check_state(sys, sys->y0, "after assembly", err);
        if (st) {
            free_workspace(sys);
            return st;
        }
    }
    sys->final = 1;

    /* the solve must work at the initial state: catches rotation ties that do not hold */
    mech_status st = mech_system_evaluate(sys, 0.0, sys->y0, err);
    if (st) {
        sys->final = 0;
        free_workspace(sys);
        return st;
    }
    sys->energy0 = sys->kinetic + sys->potential;
    start_note(sys);
    return MECH_OK;
}

mech_status mech_system_initial_state(mech_system *sys, double *y, mech_error *err)
{
    if (!sys->final) {
        mech_status st = mech_system_finalize(sys, err);
        if (st) return st;
    }
    memcpy(y, sys->y0, sizeof(double) * (size_t)sys->nstate);
    return MECH_OK;
}

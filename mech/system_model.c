/* SPDX-License-Identifier: MIT */
/*
** A system as a model (model.h): the simulator's view of a mech_system, planar or spatial.
** Its state is (q, u, w) with q' = N(q) u (planar: q' = u, nq = nu: x, y, phi per body, x, y
** per node; spatial: 7 positions and 6 velocities per body), w the driver works,
*the energy accounts and the bristle states; its events
** are the contacts' onsets and ends.  Besides the adapters to the system's own functions
** this file holds the run checks of the planar system: tolerances per component, the
** length scale, positions that run away, an energy balance that runs away.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dim.h"
#include "model.h"
#include "spatial_body.h"
#include "assemble.h"
#include "contact.h"
#include "registry.h"
#include "kind.h"
#include "project.h"
#include "system_jac.h"

/* ---- run checks --------------------------------------------------------------------------- */

/*
** Absolute tolerances per state component: `given` (per component) if not NULL, else atol
** for positions and velocities; the energy accounts get an infinite tolerance: they follow
** the steps the mechanical states need and do not steer the error control.
*/
static void system_atol(const mech_system *sys, double atol, const double *given, double *out)
{
    for (int i = 0; i < sys->nstate; i++)
        out[i] = given ? given[i] : i < sys->nq + sys->nu ? atol : 1e300;
    if (given) return;
    /* bristle deflections are tiny (of order mu / sigma0): tolerances in proportion */
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        for (int i = 0; c->bristle >= 0 && i < sys->dops->contact_tangents; i++)
            out[c->bristle + i] = 1e-4 * fmax(c->flaw.mu, c->flaw.mu_s) / c->flaw.sigma0;
    }
}

/* Grows *L to |x| (a NaN leaves it). */
static void reach(double *L, double x)
{
    *L = fmax(*L, fabs(x));
}

/*
** The length scale of a run to t_end [m]: the largest of the positions at the assembled
** start (y0), the lengths of the model (anchors, attachment and contact points, rest
** lengths, outlines, bearing radii), and how far the start could carry a body in t_end:
** its speed times t_end, its acceleration and gravity times t_end^2 / 2.  Reads the
** accelerations of the last evaluation (udot): call it right after evaluating at y0.
*/
static double system_scale(const mech_system *sys, double t_end)
{
    const double *q = sys->y0, *v = sys->y0 + sys->nq, T = t_end;
    double L = sys->dops->body_scale(sys, q, v, T);
    /* lengths in body coordinates: z is 0 in a planar system */
    for (int i = 0; i < sys->npoints; i++) {
        reach(&L, hypot(sys->points[i].s[0], sys->points[i].s[1]));
        reach(&L, sys->points[i].s[2]);
    }
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        reach(&L, hypot(j->pa[0], j->pa[1]));
        reach(&L, hypot(j->pb[0], j->pb[1]));
        reach(&L, j->pa[2]);
        reach(&L, j->pb[2]);
        if (j->enforce == MECH_CLEARANCE) reach(&L, j->radius);
    }
    for (int i = 0; i < sys->nforces; i++) {
        const force *f = &sys->forces[i];
        reach(&L, hypot(f->pa[0], f->pa[1]));
        reach(&L, f->pa[2]);
        if (f->type == MECH_SPRING) {
            reach(&L, hypot(f->pb[0], f->pb[1]));
            reach(&L, f->pb[2]);
            reach(&L, f->rest);
        }
    }
    for (int i = 0; i < sys->ncontacts; i++) {
        const contact *c = &sys->contacts[i];
        reach(&L, hypot(c->pa[0], c->pa[1]));
        reach(&L, hypot(c->qb[0], c->qb[1]));
        reach(&L, c->rb);
    }
    return L;
}

/* Says that state component i (a position) has the value x, beyond bound, which is
** MODEL_RUNAWAY_FACTOR times scale when scale > 0, else the user's max_distance. */
static void system_runaway_text(const mech_system *sys, int i, double x, double bound, double scale,
                                char *buf, size_t size)
{
    char what[120], limit[120];
    mech_system_describe_state(sys, i, what, sizeof what);
    if (scale > 0)
        snprintf(limit, sizeof limit, "%.3g m, %g times the model's scale", bound,
                 MODEL_RUNAWAY_FACTOR);
    else
        snprintf(limit, sizeof limit, "max_distance = %.3g m", bound);
    snprintf(buf, size,
             "%s = %.3g m is beyond %s: the motion has run away (a law too stiff for the "
             "step?); if it is real, raise max_distance",
             what, x, limit);
}

/*
** After a full evaluation of state y: when the energy balance is off by more than
** MODEL_RUNAWAY_FACTOR times the energy the model was given (|initial energy|, total mass
** times |gravity| times the length L, the works of the drivers and loads so far), writes
** why into buf, naming the body with the most kinetic energy, and returns 1; else 0.  A
** motion that gains energy from nothing has run away (a law too stiff for the step), also
** when no position has gone far yet.
*/
static int system_energy_runaway(const mech_system *sys, const double *y, double L, char *buf,
                                 size_t size)
{
    double inputs, balance = system_balance(sys, &inputs), mass = 0, worst = -1;
    int who = -1;
    const double *v = y + sys->nq;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        double ke = sys->dops->kinetic(sys, b, y, v);
        mass += bd->mass;
        if (!(ke <= worst)) worst = ke, who = b;
    }
    double g = hypot(hypot(sys->gravity[0], sys->gravity[1]), sys->gravity[2]);
    double held = fabs(sys->energy0) + mass * g * L + inputs;
    if (!(held > 0) || fabs(balance) <= MODEL_RUNAWAY_FACTOR * held) return 0;
    const body *bd = &sys->bodies[who];
    double speed = hypot(v[bd->u_at], v[bd->u_at + 1]);
    if (bd->nu == SPATIAL_NU) speed = hypot(speed, v[bd->u_at + 2]); /* its vz */
    snprintf(buf, size,
             "the energy balance is off by %.3g J, more than %g times the %.3g J the model was "
             "given (initial energy, gravity over its size, work of drivers and loads): the "
             "motion has run away (a law too stiff for the step?); %s '%s' has the most kinetic "
             "energy, %.3g J at %.3g m/s",
             balance, MODEL_RUNAWAY_FACTOR, held, bd->fe >= 0 ? "node" : "body", bd->name, worst,
             speed);
    return 1;
}

/* ---- the operations ----------------------------------------------------------------------- */

static mech_status sm_prepare(mech_model *m, mech_error *err)
{
    mech_system *sys = m->ctx;
    mech_status st = mech_system_finalize(sys, err);
    if (st) return st;
    m->nq = sys->nq;
    m->nu = sys->nu; /* == nq: q' = u (dynamics.c) */
    m->nstate = sys->nstate;
    m->nevents = sys->ncontacts;
    m->y0 = sys->y0;
    return MECH_OK;
}

static mech_status sm_evaluate(void *ctx, double t, const double *y, mech_error *err)
{
    return mech_system_evaluate(ctx, t, y, err);
}

static void sm_costly_energy(void *ctx, int on)
{
    ((mech_system *)ctx)->skip_costly_energy = !on;
}

static void sm_forget(void *ctx)
{
    mech_system *sys = ctx;
    sys->q = sys->v = sys->y_eval = NULL;
}

static void sm_event_values(void *ctx, double t, const double *y, double *g)
{
    (void)t;
    contact_gaps(ctx, y, g);
}

static void sm_events_start(void *ctx, double t, const double *y)
{
    mech_system *sys = ctx;
    contact_start(sys, t, y);
    if (sys->dops->history_start) sys->dops->history_start(sys, t, y);
}

static int sm_event_crossed(void *ctx, int k, double t, double *y)
{
    return contact_event(ctx, k, t, y);
}

static mech_status sm_refuse_lyapunov(void *ctx, mech_error *err)
{
    const mech_system *sys = ctx;
    if (sys->ncontacts == 0) return MECH_OK;
    /* the two trajectories would share one contact history, and nothing there locates
    ** the onsets: refuse rather than let the bodies pass through each other */
    const contact *c = &sys->contacts[0];
    return mech_error_set(err, MECH_ERR_ARG,
                          "lyapunov: systems with contacts are not supported (%s '%s')",
                          c->owner >= 0 ? "joint with clearance" : "contact",
                          c->owner >= 0 ? sys->joints[c->owner].name : c->name);
}

/* A position beyond the bound ends the run (the integrators keep the quaternions unit), and
** so does what the dimension's step_fault finds (a journal out of its bearing). */
static int sm_step_accepted(void *ctx, const model_limits *lim, double t, const double *y,
                            double *ynew, char *why, size_t size)
{
    (void)ynew;
    mech_system *sys = ctx;
    int far = sys->dops->runaway(sys, y, lim->bound);
    if (far >= 0) {
        system_runaway_text(sys, far, y[far], lim->bound, lim->scale, why, size);
        return MODEL_STEP_FAILED;
    }
    if (sys->dops->step_fault && sys->dops->step_fault(sys, t, y, why, size))
        return MODEL_STEP_FAILED;
    if (sys->dops->history_step) sys->dops->history_step(sys, t, y);
    return MODEL_STEP_KEPT;
}

static int sm_energy_runaway(void *ctx, const double *y, double L, char *why, size_t size)
{
    return system_energy_runaway(ctx, y, L, why, size);
}

static double sm_scale(void *ctx, double t_end)
{
    return system_scale(ctx, t_end);
}

static void sm_atol(void *ctx, double atol, const double *given, double *out)
{
    system_atol(ctx, atol, given, out);
}

static void sm_describe_state(const void *ctx, int i, char *buf, size_t size)
{
    mech_system_describe_state(ctx, i, buf, size);
}

/* A bristle state behind a failure: its law's remedy. */
static void sm_state_notes(const void *ctx, int i, char *buf, size_t size)
{
    const mech_system *sys = ctx;
    size_t len = strlen(buf);
    for (int k = 0; k < sys->ncontacts && len < size; k++) {
        const contact *c = &sys->contacts[k];
        if (c->bristle != i) continue;
        int force_form = c->flaw.type != MECH_FRICTION_LUGRE_NORMALIZED;
        len += (size_t)snprintf(
            buf + len, size - len,
            "; its bristles relax at sigma0 |v| / g%s: %sa smaller sigma0 "
            "eases it",
            force_form ? ", without bound as fn -> 0" : "",
            c->flaw.type == MECH_FRICTION_LUGRE ? "normalized = true avoids it, " : "");
    }
}

static size_t sm_describe(const void *ctx, const char *prefix, char *buf, size_t size)
{
    return mech_system_describe(ctx, prefix, buf, size);
}

static const mech_error *sm_last_error(const void *ctx)
{
    return mech_system_last_error(ctx);
}

static void sm_clear_error(void *ctx)
{
    mech_error_clear(&((mech_system *)ctx)->last_err);
}

/* Onto the joints' and drivers' equations, and (a spatial system) unit quaternions. */
static mech_status sm_project(void *ctx, double t, double *y, mech_error *err)
{
    mech_system *sys = ctx;
    if (sys->dops->normalize && sys->dops->normalize(sys, y) < 0)
        return mech_error_set(err, MECH_ERR_NUMERIC,
                              "projection: an orientation is not finite or zero at t = %.9g", t);
    return assemble_state(sys, t, y, 0, err);
}

static int sm_projectable(const void *ctx)
{
    return project_wanted(ctx);
}

/* The period from the start's motion, over the model's lengths and positions at the start. */
static double sm_period(void *ctx)
{
    return project_period(ctx, system_scale(ctx, 0));
}

/* Over the model's size: its lengths and positions at the start. */
static void sm_project_start(void *ctx, double atol, double rtol, int strict, double t0)
{
    project_start(ctx, atol, rtol, system_scale(ctx, 0), strict, t0);
}

static void sm_project_stats(const void *ctx, mech_project_stats *out)
{
    project_get_stats(ctx, out);
}

static mech_status sm_channel_lookup(const void *ctx, const char *name, mech_channel *out,
                                     mech_error *err)
{
    return mech_channel_lookup(ctx, name, out, err);
}

static double sm_channel_value(const void *ctx, const mech_channel *ch)
{
    return mech_channel_value(ctx, ch);
}

static mech_status sm_jacobian(void *ctx, mech_jac_structure *js, mech_error *err)
{
    return system_jac_structure(ctx, js, err);
}

/* The operations both dimensions share; they differ in the kinematic map and the projection. */
#define SYSTEM_MODEL_OPS                                                                           \
    .prepare = sm_prepare, .rhs = mech_system_rhs, .evaluate = sm_evaluate, .forget = sm_forget,   \
    .costly_energy = sm_costly_energy, .event_values = sm_event_values,                            \
    .events_start = sm_events_start, .event_crossed = sm_event_crossed,                            \
    .refuse_lyapunov = sm_refuse_lyapunov, .step_accepted = sm_step_accepted,                      \
    .energy_runaway = sm_energy_runaway, .scale = sm_scale, .atol = sm_atol,                       \
    .describe_state = sm_describe_state, .state_notes = sm_state_notes, .describe = sm_describe,   \
    .last_error = sm_last_error, .clear_error = sm_clear_error, .project = sm_project,             \
    .channel_lookup = sm_channel_lookup, .channel_value = sm_channel_value,                        \
    .projectable = sm_projectable, .period = sm_period, .project_start = sm_project_start,         \
    .constrain = project_state, .project_stats = sm_project_stats, .jacobian = sm_jacobian,

static const model_ops planar_ops = {SYSTEM_MODEL_OPS.kinematics = NULL, /* q' = u */
                                     .normalize = NULL};

/* q' = N(q) u of a spatial system. */
static int spatial_kinematics(void *ctx, const double *q, const double *u, double *qdot)
{
    const mech_system *sys = ctx;
    sys->dops->qdot(sys, q, u, qdot);
    return 0;
}

/* Unit quaternions after every accepted step. */
static int spatial_normalize(void *ctx, double t, double *y)
{
    (void)t;
    const mech_system *sys = ctx;
    return sys->dops->normalize(sys, y) < 0 ? -1 : 0;
}

static const model_ops spatial_ops = {SYSTEM_MODEL_OPS.kinematics = spatial_kinematics,
                                      .normalize = spatial_normalize};

void system_model_bind(mech_system *sys, mech_model *m)
{
    memset(m, 0, sizeof *m);
    m->ops = sys->dops->dim == 3 ? &spatial_ops : &planar_ops;
    m->ctx = sys;
}

mech_status system_model(mech_system *sys, mech_model *m, mech_error *err)
{
    system_model_bind(sys, m);
    return m->ops->prepare(m, err);
}

/* SPDX-License-Identifier: MIT */
/*
** The largest Lyapunov exponent by two nearby trajectories with renormalisation
** (Benettin et al. 1980).  See mech_sim.h.  The system is seen through the model interface
** (model.h) only: its right-hand side, the hook after each accepted step (a position beyond
** the bound fails), tolerances and scale, and its projection onto the constraints for the
** neighbour; the separation is measured over the positions and velocities (nq + nu).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech_sim.h"
#include "model.h"
#include "sim_impl.h"

mech_lyapunov_options mech_lyapunov_default_options(void)
{
    mech_lyapunov_options o;
    memset(&o, 0, sizeof o);
    o.integ = mech_integ_default_options();
    o.integ.method = MECH_DOPRI5;
    o.d0 = 1e-8;
    return o;
}

void mech_lyapunov_free(mech_lyapunov_result *res)
{
    if (res == NULL) return;
    mech_free(res->t);
    mech_free(res->estimate);
    res->t = res->estimate = NULL;
    res->n = 0;
}

/*
** Steps integ up to t_stop exactly; a state the model's hook refuses (a position beyond
** lim's bound) fails, and so does an adaptive trajectory started at t0 whose pace would take
** too many steps to o->t_end; a state the hook changed is where integ restarts.
*/
static mech_status advance(const mech_model *m, mech_integ *integ, double t0, double t_stop,
                           const mech_lyapunov_options *o, const model_limits *lim, double *ynew,
                           const char *which, mech_error *err)
{
    mech_error ierr;
    const int adaptive = o->integ.method != MECH_RK4 && !o->integ.fixed;
    while (mech_integ_time(integ) < t_stop) {
        double t = mech_integ_time(integ);
        long step = mech_integ_get_stats(integ).steps + 1;
        if (o->interrupt && *o->interrupt)
            return mech_error_set(err, MECH_ERR_INTERRUPTED,
                                  "lyapunov: interrupted at t = %.9g s (step %ld of the %s "
                                  "trajectory)",
                                  t, step, which);
        model_clear_error(m);
        mech_status st = mech_integ_step(integ, t_stop, &ierr);
        char why[MECH_ERROR_MSG_SIZE];
        if (st) {
            const mech_error *merr = model_last_error(m);
            int own = !merr->code; /* else the model's report says it */
            snprintf(why, sizeof why, "%s", own ? ierr.msg : merr->msg);
            sim_failure_notes(m, integ, &o->integ, st, own, why, sizeof why);
            return mech_error_set(err, own ? st : merr->code,
                                  "lyapunov: the %s trajectory failed at t = %.9g s (step %ld): %s",
                                  which, t, step, why);
        }
        if (adaptive && (st = mech_integ_check_pace(&o->integ, step, t0, mech_integ_time(integ),
                                                    o->t_end, &ierr))) {
            snprintf(why, sizeof why, "%s", ierr.msg);
            mech_integ_locate_limiting(integ);
            sim_failure_notes(m, integ, &o->integ, st, 1, why, sizeof why);
            sim_pace_notes(integ, &o->integ, why, sizeof why);
            return mech_error_set(err, st,
                                  "lyapunov: the %s trajectory failed at t = %.9g s (step %ld): %s",
                                  which, mech_integ_time(integ), step, why);
        }
        double t1 = mech_integ_time(integ);
        int h =
            m->ops->step_accepted(m->ctx, lim, t1, mech_integ_state(integ), ynew, why, sizeof why);
        if (h == MODEL_STEP_FAILED) {
            sim_failure_notes(m, integ, &o->integ, MECH_ERR_NUMERIC, 0, why, sizeof why);
            return mech_error_set(err, MECH_ERR_NUMERIC,
                                  "lyapunov: the %s trajectory failed at t = %.9g s (step %ld): %s",
                                  which, t1, step, why);
        }
        if (h == MODEL_STEP_CHANGED && (st = mech_integ_reinit(integ, t1, ynew, &ierr)))
            return mech_error_set(err, st,
                                  "lyapunov: the %s trajectory failed at t = %.9g s (step %ld): %s",
                                  which, t1, step, ierr.msg);
    }
    return MECH_OK;
}

/* Euclidean norm of the position and velocity differences. */
static double separation(const double *a, const double *b, int n2)
{
    double s = 0;
    for (int i = 0; i < n2; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

mech_status mech_lyapunov(mech_system *sys, const mech_lyapunov_options *o,
                          mech_lyapunov_result *res, mech_error *err)
{
    memset(res, 0, sizeof *res);
    res->lambda = NAN;
    if (!(isfinite(o->t_end) && isfinite(o->transient) && o->transient >= 0 &&
          o->t_end > o->transient))
        return mech_error_set(err, MECH_ERR_ARG,
                              "lyapunov: need 0 <= transient < end time (got %g and %g)",
                              o->transient, o->t_end);
    if (!(isfinite(o->every) && o->every > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "lyapunov: the renormalisation interval must be > 0 (got %g)",
                              o->every);
    if (!(isfinite(o->d0) && o->d0 > 0))
        return mech_error_set(err, MECH_ERR_ARG, "lyapunov: d0 must be > 0 (got %g)", o->d0);
    if (!(o->max_distance >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "lyapunov: max_distance must be > 0 (got %g; 0: the default)",
                              o->max_distance);
    double span = (o->t_end - o->transient) / o->every;
    if (o->t_end - o->transient > MECH_MAX_RENORMALISATIONS * o->every)
        return mech_error_set(err, MECH_ERR_ARG,
                              "lyapunov: every = %g s makes %.3Lg renormalisations from transient "
                              "= %g s to t = %g s, more than the limit of %g: take a longer every",
                              o->every, (long double)(o->t_end - o->transient) / o->every,
                              o->transient, o->t_end, MECH_MAX_RENORMALISATIONS);
    if (floor(span * (1 + 1e-12)) < 1)
        return mech_error_set(err, MECH_ERR_ARG,
                              "lyapunov: every = %g s is longer than the measured time (t - "
                              "transient = %g s): there would be no estimate",
                              o->every, o->t_end - o->transient);
    mech_error why;
    mech_status st = mech_integ_check_span(&o->integ, 0.0, o->t_end, &why);
    if (st) return mech_error_set(err, st, "lyapunov: %s", why.msg);
    /* a fixed step cut at every renormalisation: an every shorter than h is a step each */
    const int fixed =
        o->integ.method == MECH_RK4 || (o->integ.method == MECH_DOPRI5 && o->integ.fixed);
    if (fixed && o->integ.h > o->every && span > mech_integ_max_steps(&o->integ))
        return mech_error_set(err, MECH_ERR_ARG,
                              "lyapunov: every = %g s is shorter than h = %g s, so each of its "
                              "%.3Lg renormalisations takes a step of its own, more than "
                              "max_steps = %g: take a longer every",
                              o->every, o->integ.h, (long double)span,
                              mech_integ_max_steps(&o->integ));
    /* the result: a time and an estimate per renormalisation */
    double bytes = 16 * (floor(span * (1 + 1e-12)) + 1);
    double memory = o->max_memory ? (double)o->max_memory : (double)mech_physical_memory();
    if (bytes > memory)
        return mech_error_set(err, MECH_ERR_ARG,
                              o->max_memory
                                  ? "lyapunov: every = %g s makes %.0f renormalisations whose "
                                    "results take %.3g bytes, more than max_memory = %.3g bytes: "
                                    "take a longer every"
                                  : "lyapunov: every = %g s makes %.0f renormalisations whose "
                                    "results take %.3g bytes, more than this machine's memory "
                                    "(%.3g bytes): take a longer every",
                              o->every, bytes / 16 - 1, bytes, memory);
    /* the two trajectories would share the history of the model's events, and nothing here
    ** locates them: a model with events refuses (before it is prepared, as it always did) */
    mech_model model;
    system_model_bind(sys, &model);
    const mech_model *m = &model;
    if ((st = m->ops->refuse_lyapunov(m->ctx, err))) return st;
    if ((st = m->ops->prepare(&model, err))) return st;
    m->ops->events_start(m->ctx, 0.0, m->y0); /* the history the steps follow from y0 */

    const int ns = m->nstate, n2 = m->nq + m->nu;
    long kmax = (long)floor(span * (1 + 1e-12));
    double *ya = mech_calloc((size_t)ns, sizeof(double));
    double *yb = mech_calloc((size_t)ns, sizeof(double));
    double *atol = mech_calloc((size_t)ns, sizeof(double));
    double *ynew = mech_calloc((size_t)ns, sizeof(double));
    res->t = mech_calloc((size_t)(kmax + 1), sizeof(double));
    res->estimate = mech_calloc((size_t)(kmax + 1), sizeof(double));
    mech_integ *ia = NULL, *ib = NULL;
    if (!ya || !yb || !atol || !ynew || !res->t || !res->estimate) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "lyapunov: out of memory");
        goto done;
    }
    mech_integ_options io = o->integ;
    m->ops->atol(m->ctx, io.atol, io.atol_vec, atol);
    io.atol_vec = atol;
    model_integ_structure(m, &io);
    mech_jac_structure js;
    if ((st = model_integ_jacobian(m, &io, o->jac_columns, &js, err)) ||
        (st = mech_integ_create(&ia, ns, &io, m->ops->rhs, m->ctx, err)) ||
        (st = mech_integ_create(&ib, ns, &io, m->ops->rhs, m->ctx, err)))
        goto done;

    mech_error ierr;
    memcpy(ya, m->y0, sizeof(double) * (size_t)ns);
    if ((st = mech_integ_init(ia, 0.0, ya, &ierr))) {
        st = mech_error_set(err, st, "lyapunov: %s", ierr.msg);
        goto done;
    }
    /* init evaluated the model at the start: its accelerations are those of y0 */
    const model_limits lim = model_run_limits(m, o->t_end, o->max_distance);
    if ((st = advance(m, ia, 0.0, o->transient, o, &lim, ynew, "reference", err))) goto done;

    /* The neighbour: a fixed direction over positions and velocities, pushed back onto
    ** the constraints (a large step, projected, then scaled down to d0). */
    memcpy(ya, mech_integ_state(ia), sizeof(double) * (size_t)ns);
    memcpy(yb, ya, sizeof(double) * (size_t)ns);
    for (int i = 0; i < n2; i++) yb[i] += 1e-4 * sin(1.0 + 2.0 * i);
    if ((st = m->ops->project(m->ctx, o->transient, yb, err))) goto done;
    double d = separation(ya, yb, n2);
    if (!(d > 1e-12))
        st = mech_error_set(err, MECH_ERR_ARG,
                            "lyapunov: the joints and drivers leave no freedom to move: the "
                            "exponent is not defined");
    if (st) goto done;
    for (int i = 0; i < n2; i++) yb[i] = ya[i] + o->d0 / d * (yb[i] - ya[i]);
    if ((st = mech_integ_init(ib, o->transient, yb, &ierr))) {
        st = mech_error_set(err, st, "lyapunov: %s", ierr.msg);
        goto done;
    }

    double sum = 0;
    for (long k = 1; k <= kmax; k++) {
        double tk = o->transient + (double)k * o->every;
        if ((st = advance(m, ia, 0.0, tk, o, &lim, ynew, "reference", err)) ||
            (st = advance(m, ib, o->transient, tk, o, &lim, ynew, "neighbouring", err)))
            goto done;
        const double *a = mech_integ_state(ia);
        memcpy(yb, mech_integ_state(ib), sizeof(double) * (size_t)ns);
        d = separation(a, yb, n2);
        if (!(d > 0 && isfinite(d))) {
            st = mech_error_set(err, MECH_ERR_NUMERIC,
                                "lyapunov: the separation became %g at t = %.9g s", d, tk);
            goto done;
        }
        sum += log(d / o->d0);
        res->t[res->n] = tk;
        res->estimate[res->n] = sum / (tk - o->transient);
        res->n++;
        for (int i = 0; i < n2; i++) yb[i] = a[i] + o->d0 / d * (yb[i] - a[i]);
        if ((st = mech_integ_reinit(ib, tk, yb, &ierr))) {
            st = mech_error_set(err, st, "lyapunov: %s", ierr.msg);
            goto done;
        }
    }
    res->lambda = res->n ? res->estimate[res->n - 1] : NAN;

done:
    /* the workspaces hold trial evaluations of both trajectories: none is left to read */
    m->ops->forget(m->ctx);
    mech_integ_free(ia);
    mech_integ_free(ib);
    mech_free(ya);
    mech_free(yb);
    mech_free(atol);
    mech_free(ynew);
    return st;
}

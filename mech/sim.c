/* SPDX-License-Identifier: MIT */
/*
** The simulation loop: integrate, locate events, record channels on the report grid
** from the dense output, poll for interruption, report progress.  Everything the loop
** needs is allocated before it starts; it allocates only when the event table fills up
** (capacity doubles).
**
** The loop sees the system only through the model interface (model.h): sizes, right-hand
** side, full evaluation and channels, the model's own events (contact onsets and ends),
** the hook after each accepted step (a position beyond the run's bound fails), the energy
** check at recorded rows, tolerances and scale.  The user's callbacks get the public
** mech_system handle, passed through unopened.
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run_impl.h"
#include "model.h"
#include "sim_impl.h"

/* An event located in the current step. */
typedef struct pending {
    double t;
    int def;
} pending;

#define MAX_PERIODIC_PER_STEP 256
/* A periodic event's channel is at most this many periods from its level (2^52: counting
** levels k, k + 1, ... in doubles is exact below it). */
#define PERIODS_MAX 4503599627370496.0

/*
** Chatter of the model's own events.  Each crossing of a contact's gap cuts the step there
** and restarts the integrator (BDF: CVodeReInit, then a first step of CVODE's choosing).  A
** law so stiff that a body at rest presses it in by 1e-15 m leaves the gap within rounding
** of 0, where its sign is noise.  With BDF the first step after a restart (1e-11 s) moves
** the gap a rounding unit back across 0, and the next one (1e-7 s, its interpolant falling
** through 0 at once) finds a crossing a few 1e-11 s after the last, again and again: the
** fuzzer's slider in a guide with K = 1e16 N/m (seed 1 case 1048) cut 5e5 steps in its
** first 3e-5 s, and would have taken 1.3e8 steps of 4 us to reach t = 0.01 s, within the
** pace limit of 1e9 steps.  Every one of those steps is short work: the time goes into the
** cuts.  So a model event that crosses CHATTER_CROSSINGS times in a row, each crossing less
** than CHATTER_FRACTION of a step after the one before (the longest step that found one of
** them: the integrator would go a thousand times farther), stops the run.  Crossings of a
** motion the integrator resolves come about a step apart or more (an onset and its end, at
** least the time the law takes to throw the body off).
*/
#define CHATTER_CROSSINGS 1000
#define CHATTER_FRACTION  1e-3

/* A model event's current series of crossings in close succession (see CHATTER_*). */
typedef struct chatter {
    int n;          /* crossings in the series */
    double t_first; /* the time of its first */
    double t;       /* and of its last */
    double h;       /* the longest step that found one of them */
} chatter;

typedef struct sim {
    mech_model m;     /* the model run */
    mech_system *sys; /* the handle the user's callbacks get */
    const mech_sim_options *opt;
    mech_channel *ch; /* resolved built-in channels */
    mech_channel *evch;
    mech_run *run;
    double *ybuf;
    double *ynew;   /* the state as the accepted-step hook changed it */
    double *atol;   /* absolute tolerance per state component */
    int *imap;      /* integrator event k -> event definition */
    int nint;       /* events located by the integrator (all but the periodic ones) */
    double *uprev;  /* periodic events: (channel - level) / period at the last step end */
    double *ustart; /* the same at the start of the current step */
    int *ndone;     /* periodic events delivered in the current step */
    int stop_def;   /* the first event of the current step that stops the run, -1 if none */
    double stop_t;  /* its time */
    pending *pend;  /* events of the current step, sorted by time */
    int npend, cap_pend;
    chatter *chat;     /* per model event: its series of crossings in close succession */
    int failed;        /* a user callback failed while evaluating */
    mech_error cb_err; /* its message */
    double memory;     /* the most bytes the rows and events may take */
    int event_energy;  /* an event reads an energy (or a function, anything) */
    /* the projection onto the constraints: the state of the model's last evaluation, if it was
    ** a right-hand side (rhs_y NULL: none, or a full evaluation since), and whether a step end
    ** may be that state (an explicit method: its last stage is at the step end) */
    const double *rhs_y;
    double rhs_t;
    int rhs_trusted;
    /* ybuf holds the dense output of the current step at dense_t (dense_ok), projected when the
    ** run projects: the events at one time (an action, its row) take it once */
    double dense_t;
    int dense_ok;
} sim;

mech_sim_options mech_sim_default_options(void)
{
    mech_sim_options o;
    memset(&o, 0, sizeof o);
    o.integ = mech_integ_default_options();
    return o;
}

size_t mech_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0 || (unsigned long)pages > SIZE_MAX / (unsigned long)size)
        return SIZE_MAX;
    return (size_t)pages * (size_t)size;
}

/* "this machine's memory (N bytes)" or "max_memory = N bytes" into buf. */
static const char *memory_text(size_t max_memory, double limit, char *buf, size_t size)
{
    snprintf(buf, size,
             max_memory ? "max_memory = %.3g bytes" : "this machine's memory (%.3g bytes)", limit);
    return buf;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Full evaluation of the model at (t, y); a failure is kept as the run's reason. */
static int evaluate_at(sim *s, double t, const double *y)
{
    mech_error err;
    s->rhs_y = NULL;
    if (model_evaluate(&s->m, t, y, &err) == MECH_OK) return 0;
    s->cb_err = err;
    s->failed = 1;
    return -1;
}

/* A full evaluation for the events: without the costly energies unless an event reads one
** (the rows and the actions of events keep them). */
static int evaluate_for_events(sim *s, double t, const double *y)
{
    void (*energy)(void *, int) = s->event_energy ? NULL : s->m.ops->costly_energy;
    if (energy) energy(s->m.ctx, 0);
    int rc = evaluate_at(s, t, y);
    if (energy) energy(s->m.ctx, 1);
    return rc;
}

/*
** The dense output of the last step at t into s->ybuf (at once when it holds it already).  It
** fails only when its projection onto the constraints does (a driver's motion function, a
** singular or diverging projection): the model's reason becomes the run's.
*/
static int dense_at(sim *s, mech_integ *integ, double t)
{
    if (s->dense_ok && s->dense_t == t) return 0;
    s->dense_ok = 0;
    if (mech_integ_dense(integ, t, s->ybuf) == MECH_OK) {
        s->dense_ok = 1;
        s->dense_t = t;
        return 0;
    }
    const mech_error *e = model_last_error(&s->m);
    if (e->code != MECH_OK)
        s->cb_err = *e;
    else
        mech_error_set(&s->cb_err, MECH_ERR_CALLBACK,
                       "the state at t = %.9g (the dense output of the step) failed", t);
    s->failed = 1;
    return -1;
}

/* Evaluates the model at (t, y) and writes every recorded channel into out. */
static int channel_values(sim *s, double t, const double *y, double *out)
{
    mech_system *sys = s->sys;
    if (evaluate_at(s, t, y) != 0) return -1;
    const mech_sim_options *o = s->opt;
    for (int i = 0; i < o->nchannels; i++) out[i] = model_channel_value(&s->m, &s->ch[i]);
    for (int i = 0; i < o->nuser_channels; i++) {
        const mech_user_channel *u = &o->user_channels[i];
        double v = NAN;
        if (u->fn(u->ud, sys, t, &v) != 0) {
            mech_error_set(&s->cb_err, MECH_ERR_CALLBACK,
                           "channel '%s': its function failed at t = %.9g", u->name, t);
            s->failed = 1;
            return -1;
        }
        out[o->nchannels + i] = v;
    }
    return 0;
}

static int record_row(sim *s, double t, const double *y)
{
    mech_run *run = s->run;
    if (run->rows >= run->cap) return 0;
    double vals[64];
    double *out = run->nch <= 64 ? vals : s->ybuf + s->m.nstate; /* see buffer sizing */
    if (channel_values(s, t, y, out) != 0) return -1;
    for (int i = 0; i < run->nch; i++)
        run->data[(size_t)i * (size_t)run->cap + (size_t)run->rows] = out[i];
    run->t[run->rows++] = t;
    return 0;
}

/* Points of a grid of step h over [0, t_end] (the report rows, the kept states). */
static double grid_points(double t_end, double h)
{
    return floor(t_end / h * (1 + 1e-12)) + 1;
}

/*
** The state at tk of a grid inside the accepted step [t0, t1]: the step's end itself when tk
** is it (unprojected runs: the integrator's state as it is), else the dense output (s->ybuf).
** NULL when the dense output failed (s->failed says why).
*/
static const double *grid_state(sim *s, mech_integ *integ, double tk, double t0, double t1,
                                double slack, int project)
{
    if (fabs(tk - t1) <= slack && !project) return mech_integ_state(integ);
    return dense_at(s, integ, fmin(fmax(tk, t0), t1)) == 0 ? s->ybuf : NULL;
}

/* Keeps the state y at t on the motion grid. */
static void keep_state(sim *s, double t, const double *y)
{
    mech_run *run = s->run;
    if (run->nmotion >= run->mcap) return;
    memcpy(run->motion + (size_t)run->nmotion * (size_t)run->nstate, y,
           sizeof(double) * (size_t)run->nstate);
    run->motion_t[run->nmotion++] = t;
}

/*
** Room for one more event in the run: the capacity doubles, within MECH_MAX_ROWS events and
** within the memory left by the rows.  -1 with s->failed when there is none.
*/
static int event_room(sim *s, int def)
{
    mech_run *run = s->run;
    if (run->nev < run->evcap) return 0;
    double width = run->nch > 0 ? run->nch : 1;
    double rows = (double)run->cap * 8 * (1 + width) + (double)run->mcap * 8 * (1 + run->nstate),
           each = 12 + 8 * width;
    double fit = floor((s->memory - rows) / each);
    double cap = fmin(fmin(2 * (double)run->evcap, fit), MECH_MAX_ROWS);
    if (cap > (double)run->nev && run_reserve_events(run, (long)cap) == 0) return 0;
    char mem[80];
    if (run->nev >= MECH_MAX_ROWS)
        mech_error_set(&s->cb_err, MECH_ERR_NOMEM,
                       "event '%s': %ld events listed, the limit: list fewer events (a longer "
                       "period)",
                       run->evnames[def], run->nev);
    else if (cap <= (double)run->nev)
        mech_error_set(&s->cb_err, MECH_ERR_NOMEM,
                       "event '%s': %ld events listed (%.3g bytes each, besides %.3g bytes of "
                       "rows), more would not fit in %s: record fewer channels or list fewer "
                       "events (a longer period)",
                       run->evnames[def], run->nev, each, rows,
                       memory_text(s->opt->max_memory, s->memory, mem, sizeof mem));
    else
        mech_error_set(&s->cb_err, MECH_ERR_NOMEM, "event '%s': out of memory for %ld events",
                       run->evnames[def], run->nev + 1);
    s->failed = 1;
    return -1;
}

static int record_event(sim *s, int def, double t, const double *y)
{
    mech_run *run = s->run;
    if (event_room(s, def) != 0) return -1;
    double *out = run->evval + (size_t)run->nev * (size_t)(run->nch ? run->nch : 1);
    if (channel_values(s, t, y, out) != 0) return -1;
    run->evdef[run->nev] = def;
    run->evt[run->nev] = t;
    run->nev++;
    return 0;
}

/* The integrator's context is the sim (for the event functions), so the right-hand side
** goes through this. */
static int sim_rhs(void *ctx, double t, const double *y, double *ydot)
{
    sim *s = ctx;
    int rc = model_rhs(&s->m, t, y, ydot);
    s->rhs_y = rc == 0 ? y : NULL;
    s->rhs_t = t;
    return rc;
}

/*
** The projection of a state y at t (with MODEL_PROJECT_OUTPUT in flags: a value of the dense
** output, or a truncated step's end).  An explicit method's last evaluation was of its step end
** itself, whose rows the model need not evaluate again.
*/
static int sim_project(sim *s, double t, double *y, int flags)
{
    if (s->rhs_trusted && y == s->rhs_y && t == s->rhs_t) flags |= MODEL_PROJECT_EVALUATED;
    s->rhs_y = NULL;
    return s->m.ops->constrain(s->m.ctx, t, y, flags);
}

/* The integrators' options project and project_output. */
static int sim_project_step(void *ctx, double t, double *y)
{
    return sim_project(ctx, t, y, 0);
}

static int sim_project_output(void *ctx, double t, double *y)
{
    return sim_project(ctx, t, y, MODEL_PROJECT_OUTPUT);
}

/* Event functions for the integrator: the model's own (contact gaps) first, then
** channel crossings and user functions. */
static int event_functions(void *ctx, double t, const double *y, double *g)
{
    sim *s = ctx;
    mech_system *sys = s->sys;
    int nmodel = s->m.nevents;
    s->m.ops->event_values(s->m.ctx, t, y, g);
    if (s->nint == nmodel) return 0;
    if (evaluate_for_events(s, t, y) != 0) return -1;
    for (int k = nmodel; k < s->nint; k++) {
        int i = s->imap[k];
        const mech_event_def *e = &s->opt->events[i];
        if (e->channel) {
            g[k] = model_channel_value(&s->m, &s->evch[i]) - e->level;
        } else if (e->fn(e->fn_ud, sys, t, &g[k]) != 0) {
            mech_error_set(&s->cb_err, MECH_ERR_CALLBACK,
                           "event '%s': its function failed at t = %.9g", s->run->evnames[i], t);
            s->failed = 1;
            return -1;
        }
    }
    return 0;
}

static int add_pending(sim *s, double t, int def)
{
    if (s->npend >= s->cap_pend) {
        mech_error_set(&s->cb_err, MECH_ERR_ARG,
                       "event '%s' fired more than %d times in one step at t = %.9g: limit the "
                       "step size (max_step)",
                       s->run->evnames[def], MAX_PERIODIC_PER_STEP, t);
        s->failed = 1;
        return -1;
    }
    int i = s->npend++;
    while (i > 0 && s->pend[i - 1].t > t) { /* keep them sorted by time */
        s->pend[i] = s->pend[i - 1];
        i--;
    }
    s->pend[i].t = t;
    s->pend[i].def = def;
    return 0;
}

/*
** Model event k crossed at te, found by a step of length h (before any cut): counts it in
** its series of close crossings; -1 with s->failed when the series says the event chatters
** (the message names the state component with the largest error of the last step).
*/
static int note_crossing(sim *s, mech_integ *integ, int k, double te, double h)
{
    chatter *c = &s->chat[k];
    if (c->n > 0 && te - c->t < CHATTER_FRACTION * fmax(c->h, h)) {
        c->n++;
        c->h = fmax(c->h, h);
    } else {
        c->n = 1;
        c->h = h;
        c->t_first = te;
    }
    c->t = te;
    if (c->n < CHATTER_CROSSINGS) return 0;
    mech_error_set(&s->cb_err, MECH_ERR_STEPSIZE,
                   "a contact chatters: its gap crossed 0 %d times in %.3g s, each time less "
                   "than %g of a step (%.3g s) after the last: a law this stiff keeps the gap "
                   "within rounding of 0, where its sign is noise; use a softer law (a smaller "
                   "K) or method = \"dopri5\"",
                   c->n, te - c->t_first, CHATTER_FRACTION, c->h);
    mech_integ_locate_limiting(integ);
    sim_failure_notes(&s->m, integ, &s->opt->integ, MECH_ERR_STEPSIZE, 1, s->cb_err.msg,
                      sizeof s->cb_err.msg);
    s->failed = 1;
    return -1;
}

/* (channel - level) / period of periodic event d at the evaluated state. */
static double winding(const sim *s, int d)
{
    const mech_event_def *e = &s->opt->events[d];
    return (model_channel_value(&s->m, &s->evch[d]) - e->level) / e->period;
}

/*
** Time in [ta, tb] where periodic event d's channel crosses level + k period, by the
** Illinois method on the dense output (fa, fb: winding - k at the ends, of opposite
** signs).  Returns the end of the final bracket on the far side of the crossing, within
** 1e-12 max(1, |t|) of it.
*/
static int periodic_time(sim *s, mech_integ *integ, int d, double k, double ta, double fa,
                         double tb, double fb, double *t_out)
{
    const double tol = 1e-12 * fmax(1.0, fabs(tb));
    double lo = ta, flo = fa, hi = tb, fhi = fb;
    int side = 0;
    for (int it = 0; it < 200 && hi - lo > tol; it++) {
        double t = hi - fhi * (hi - lo) / (fhi - flo);
        if (!(t > lo && t < hi)) t = 0.5 * (lo + hi);
        if (dense_at(s, integ, t) != 0 || evaluate_for_events(s, t, s->ybuf) != 0) return -1;
        double f = winding(s, d) - k;
        if (f == 0 || (f > 0) == (fhi > 0)) {
            hi = t, fhi = f;
            if (f == 0) break;
            if (side == 1) flo *= 0.5; /* the same end moved twice: Illinois */
            side = 1;
        } else {
            lo = t, flo = f;
            if (side == -1) fhi *= 0.5;
            side = -1;
        }
    }
    *t_out = hi;
    return 0;
}

/*
** Periodic crossings in the last step: the winding number (channel - level) / period at
** its end against its start tells which levels were passed in the wanted direction; each
** is located on the dense output.  This counts every crossing even when one step spans
** several periods, which a sign change of a periodic function would miss.
*/
static int periodic_events(sim *s, mech_integ *integ)
{
    const mech_sim_options *o = s->opt;
    double t0 = mech_integ_prev_time(integ), t1 = mech_integ_time(integ);
    int evaluated = 0;
    for (int d = 0; d < o->nevents; d++) {
        const mech_event_def *e = &o->events[d];
        if (!(e->channel && e->period > 0)) continue;
        if (!evaluated) {
            if (evaluate_for_events(s, t1, mech_integ_state(integ)) != 0) return -1;
            evaluated = 1;
        }
        double u0 = s->uprev[d], u1 = winding(s, d);
        s->ustart[d] = u0;
        s->uprev[d] = u1;
        s->ndone[d] = 0;
        if (!(fabs(u1) < PERIODS_MAX)) { /* k + 1 == k: the levels cannot be told apart */
            mech_error_set(&s->cb_err, MECH_ERR_ARG,
                           "event '%s': the channel is %.3g periods from its level at t = "
                           "%.9g: the period is too small to count its crossings",
                           s->run->evnames[d], u1, t1);
            s->failed = 1;
            return -1;
        }
        double first = e->direction > 0 ? floor(u0) + 1 : ceil(u0) - 1;
        double last = e->direction > 0 ? floor(u1) : ceil(u1);
        for (double k = first; e->direction > 0 ? k <= last : k >= last; k += e->direction) {
            double te;
            if (periodic_time(s, integ, d, k, t0, u0 - k, t1, u1 - k, &te) != 0 ||
                add_pending(s, te, d) != 0)
                return -1;
        }
    }
    return 0;
}

/*
** The action of user event di at te, on the dense output of the last step: 1 when it stops
** the run, 0 when not, -1 when a callback failed (s->failed).
*/
static int event_action(sim *s, mech_integ *integ, int di, double te)
{
    const mech_event_def *def = &s->opt->events[di];
    if (def->action != MECH_EVENT_CALL) return def->action == MECH_EVENT_STOP;
    if (dense_at(s, integ, te) != 0 || evaluate_at(s, te, s->ybuf) != 0) return -1;
    int want_stop = 0;
    if (def->on_event(def->on_event_ud, s->sys, te, &want_stop) != 0) {
        mech_error_set(&s->cb_err, MECH_ERR_CALLBACK, "event '%s': its action failed at t = %.9g",
                       s->run->evnames[di], te);
        s->failed = 1;
        return -1;
    }
    return want_stop != 0;
}

/*
** Delivers user event di at te: its action, then its row of channel values from the dense
** output of the last step.  Returns 1 when it stops the run (the first such event is kept
** for the run's message), 0 when not, -1 when a callback failed (s->failed).
*/
static int deliver(sim *s, mech_integ *integ, int di, double te)
{
    int a = event_action(s, integ, di, te);
    if (a < 0) return -1;
    if (a && s->stop_def < 0) s->stop_def = di, s->stop_t = te;
    if (dense_at(s, integ, te) != 0 || record_event(s, di, te, s->ybuf) != 0) return -1;
    const mech_event_def *e = &s->opt->events[di];
    if (e->channel && e->period > 0) s->ndone[di]++;
    return a;
}

/*
** Periodic crossings after the step was cut at its new end t1: the channel's winding there
** tells how many levels it has passed since the step start; those not delivered yet were
** located just after t1 (within the tolerance) and are delivered at t1.  Then the next
** step counts from t1, so that the crossings of the part cut off are found again if they
** still happen.  Returns whether one stops the run (-1: a failure).
*/
static int periodic_after_cut(sim *s, mech_integ *integ)
{
    const mech_sim_options *o = s->opt;
    double t1 = mech_integ_time(integ);
    int stop = 0;
    for (int d = 0; d < o->nevents; d++) {
        const mech_event_def *e = &o->events[d];
        if (!(e->channel && e->period > 0)) continue;
        if (evaluate_for_events(s, t1, mech_integ_state(integ)) != 0) return -1;
        double u0 = s->ustart[d], u1 = winding(s, d);
        s->uprev[d] = u1;
        double passed = e->direction > 0 ? floor(u1) - floor(u0) : ceil(u0) - ceil(u1);
        if (passed - s->ndone[d] > MAX_PERIODIC_PER_STEP) { /* as add_pending */
            mech_error_set(&s->cb_err, MECH_ERR_ARG,
                           "event '%s' fired more than %d times in one step at t = %.9g: limit "
                           "the step size (max_step)",
                           s->run->evnames[d], MAX_PERIODIC_PER_STEP, t1);
            s->failed = 1;
            return -1;
        }
        while (s->ndone[d] < passed) {
            int a = deliver(s, integ, d, t1);
            if (a < 0) return -1;
            stop |= a;
        }
    }
    return stop;
}

void sim_failure_notes(const mech_model *m, const mech_integ *integ, const mech_integ_options *io,
                       mech_status st, int own, char *buf, size_t size)
{
    size_t len = strlen(buf);
    int fault = own ? mech_integ_fault(integ) : -1;
    char what[120];
    if (fault >= 0 && len < size) {
        m->ops->describe_state(m->ctx, fault, what, sizeof what);
        len += (size_t)snprintf(buf + len, size - len, " (%s %s)",
                                st == MECH_ERR_STEPSIZE || st == MECH_ERR_CONVERGENCE
                                    ? "largest error in"
                                    : "at fault:",
                                what);
    }
    int stiff = 0;
    double hlamb = mech_integ_stiffness(integ, &stiff);
    int fixed = io->method == MECH_RK4 || (io->method == MECH_DOPRI5 && io->fixed);
    if (fixed && stiff > 0 && len < size)
        len += (size_t)snprintf(
            buf + len, size - len,
            "; the step h = %.3g s is too long for the stiffness here (h "
            "|lambda| up to %.3g > %.3g in the last %d steps): use a smaller h "
            "or method = \"bdf\"",
            io->h, hlamb, io->method == MECH_RK4 ? MECH_STIFF_LIMIT_RK4 : MECH_STIFF_LIMIT_DOPRI5,
            stiff);
    if (fault >= 0 && len < size && m->ops->state_notes)
        m->ops->state_notes(m->ctx, fault, buf, size);
}

void sim_pace_notes(const mech_integ *integ, const mech_integ_options *io, char *buf, size_t size)
{
    size_t len = strlen(buf);
    if (len >= size) return;
    /* a step held short by stiffness or a jump is rejected again and again; a long run of
    ** smooth steps is not (a huge t) */
    mech_integ_stats is = mech_integ_get_stats(integ);
    int stiff = 0;
    double hlamb = mech_integ_stiffness(integ, &stiff);
    if (io->method == MECH_DOPRI5 && stiff > 0)
        snprintf(buf + len, size - len,
                 "; the model is stiff for an explicit method here (h |lambda| up to %.3g > %.3g "
                 "in the last %d steps): use method = \"bdf\"",
                 hlamb, MECH_STIFF_LIMIT_DOPRI5, stiff);
    else if (is.rejected > 0.3 * (double)is.steps)
        snprintf(buf + len, size - len, "; %ld of %ld steps were rejected: %s", is.rejected,
                 is.steps + is.rejected,
                 io->method == MECH_DOPRI5
                     ? "a law too stiff for an explicit method (try method = \"bdf\") or a force "
                       "that jumps holds the step short"
                     : "a force that jumps (a law or a Lua function that is not smooth) or "
                       "tolerances too tight hold the step short");
    else
        snprintf(buf + len, size - len, "; shorten t or loosen rtol and atol");
}

static mech_status check_options(const mech_sim_options *o, sim *s, mech_error *err)
{
    if (!(isfinite(o->t_end) && o->t_end > 0))
        return mech_error_set(err, MECH_ERR_ARG, "simulate: end time must be > 0 (got %g)",
                              o->t_end);
    if (!(isfinite(o->report) && o->report > 0))
        return mech_error_set(err, MECH_ERR_ARG, "simulate: report step must be > 0 (got %g)",
                              o->report);
    if (o->t_end > (MECH_MAX_ROWS - 1) * o->report)
        return mech_error_set(err, MECH_ERR_ARG,
                              "simulate: report = %g s makes %.3Lg rows to t = %g s, more than "
                              "the limit of %g: take a longer report step",
                              o->report, (long double)o->t_end / o->report + 1, o->t_end,
                              MECH_MAX_ROWS);
    if (!(isfinite(o->motion) && o->motion >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "simulate: motion must be >= 0 s (got %g; 0: no states kept)",
                              o->motion);
    if (o->motion > 0 && o->t_end > (MECH_MAX_ROWS - 1) * o->motion)
        return mech_error_set(err, MECH_ERR_ARG,
                              "simulate: motion = %g s keeps %.3Lg states to t = %g s, more than "
                              "the limit of %g: take a longer motion step",
                              o->motion, (long double)o->t_end / o->motion + 1, o->t_end,
                              MECH_MAX_ROWS);
    if (!(o->max_distance >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "simulate: max_distance must be > 0 (got %g; 0: the default)",
                              o->max_distance);
    if (o->project != MECH_PROJECT_AUTO && o->project != MECH_PROJECT_OFF &&
        o->project != MECH_PROJECT_ON)
        return mech_error_set(err, MECH_ERR_ARG,
                              "simulate: project = %d: must be MECH_PROJECT_AUTO, MECH_PROJECT_OFF "
                              "or MECH_PROJECT_ON",
                              (int)o->project);
    if (o->nchannels < 0 || o->nuser_channels < 0 || o->nevents < 0)
        return mech_error_set(err, MECH_ERR_ARG, "simulate: negative count");
    mech_error why;
    mech_status st = mech_integ_check_span(&o->integ, 0.0, o->t_end, &why);
    if (st) return mech_error_set(err, st, "simulate: %s", why.msg);
    /* the rows are allocated at the start: t and one column per channel (at least one) */
    double rows = grid_points(o->t_end, o->report);
    int nch = o->nchannels + o->nuser_channels;
    double bytes = rows * 8 * (1 + (nch > 0 ? nch : 1));
    s->memory = o->max_memory ? (double)o->max_memory : (double)mech_physical_memory();
    if (o->motion > 0) {
        double states = grid_points(o->t_end, o->motion);
        double kept = states * 8 * (1 + s->m.nstate);
        if (bytes + kept > s->memory) {
            char mem[80];
            return mech_error_set(err, MECH_ERR_ARG,
                                  "simulate: %.0f states of %d values (motion = %g s) take %.3g "
                                  "bytes; with the rows' %.3g, more than %s: take a longer motion "
                                  "step",
                                  states, s->m.nstate, o->motion, kept, bytes,
                                  memory_text(o->max_memory, s->memory, mem, sizeof mem));
        }
        bytes += kept;
    }
    if (bytes > s->memory) {
        char mem[80];
        return mech_error_set(err, MECH_ERR_ARG,
                              "simulate: %.0f rows of t and %d channel%s take %.3g bytes, more "
                              "than %s: record fewer channels or take a longer report step",
                              rows, nch, nch == 1 ? "" : "s", bytes,
                              memory_text(o->max_memory, s->memory, mem, sizeof mem));
    }
    for (int i = 0; i < o->nchannels; i++) {
        if ((st = s->m.ops->channel_lookup(s->m.ctx, o->channels[i], &s->ch[i], err))) return st;
        for (int j = 0; j < i; j++)
            if (strcmp(s->ch[j].name, s->ch[i].name) == 0)
                return mech_error_set(err, MECH_ERR_ARG, "simulate: channel '%s' is listed twice",
                                      s->ch[i].name);
    }
    for (int i = 0; i < o->nuser_channels; i++) {
        const mech_user_channel *u = &o->user_channels[i];
        if (u->name == NULL || u->name[0] == '\0' || strlen(u->name) >= RUN_NAME_MAX ||
            u->fn == NULL)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "simulate: user channel %d needs a name (1 to %d characters) "
                                  "and a function",
                                  i + 1, RUN_NAME_MAX - 1);
        for (int j = 0; j < o->nchannels; j++)
            if (strcmp(s->ch[j].name, u->name) == 0)
                return mech_error_set(err, MECH_ERR_ARG, "simulate: channel '%s' is listed twice",
                                      u->name);
    }
    for (int i = 0; i < o->nevents; i++) {
        const mech_event_def *e = &o->events[i];
        const char *name = e->name ? e->name : "?";
        if ((e->channel == NULL) == (e->fn == NULL))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "event '%s': give either a channel and a level, or a function",
                                  name);
        if (e->fn) s->event_energy = 1; /* it may read anything */
        if (e->channel) {
            if ((st = s->m.ops->channel_lookup(s->m.ctx, e->channel, &s->evch[i], err))) return st;
            if (s->evch[i].kind == MECH_KIND_SYSTEM) s->event_energy = 1;
            if (!isfinite(e->level))
                return mech_error_set(err, MECH_ERR_ARG, "event '%s': level must be finite", name);
            if (!(isfinite(e->period) && e->period >= 0))
                return mech_error_set(err, MECH_ERR_ARG, "event '%s': period must be >= 0", name);
            if (e->period > 0 && e->direction == 0)
                return mech_error_set(err, MECH_ERR_ARG,
                                      "event '%s': a periodic crossing needs a direction (1 or -1)",
                                      name);
        }
        if (e->direction < -1 || e->direction > 1)
            return mech_error_set(err, MECH_ERR_ARG, "event '%s': direction must be -1, 0 or 1",
                                  name);
        if (e->action == MECH_EVENT_CALL && e->on_event == NULL)
            return mech_error_set(err, MECH_ERR_ARG, "event '%s': action 'call' needs a function",
                                  name);
        if (e->action < MECH_EVENT_RECORD || e->action > MECH_EVENT_CALL)
            return mech_error_set(err, MECH_ERR_ARG, "event '%s': unknown action", name);
    }
    return MECH_OK;
}

/*
** Whether the run projects onto the constraints after its steps, with the reason in why (the
** line of the run's parameters): ON and OFF as asked, AUTO when the model has something to
** project and the run is longer than MECH_PROJECT_PERIODS characteristic periods.  A projection
** of the caller's own (integ.project) takes the place of this one.
*/
static int projection_decided(const mech_model *m, const mech_sim_options *o, double *period,
                              char *why, size_t size)
{
    *period = m->ops->period ? m->ops->period(m->ctx) : INFINITY;
    int able = m->ops->projectable && m->ops->projectable(m->ctx);
    const char *caller = o->integ.project ? " (the caller's integ.project instead)" : "";
    if (o->project == MECH_PROJECT_OFF) {
        snprintf(why, size, "projection off (asked)");
        return 0;
    }
    if (!able || o->integ.project) {
        snprintf(why, size, "projection off (%s)%s",
                 o->project == MECH_PROJECT_ON ? "asked on, nothing to project" : "auto", caller);
        return 0;
    }
    if (o->project == MECH_PROJECT_ON) {
        snprintf(why, size, "projection on (asked; characteristic period %.3g s)", *period);
        return 1;
    }
    if (o->integ.method == MECH_BDF) {
        snprintf(why, size, "projection off (auto: not with bdf)");
        return 0;
    }
    int on = o->t_end > MECH_PROJECT_PERIODS * *period;
    if (!isfinite(*period))
        snprintf(why, size, "projection off (auto: no characteristic period)");
    else
        snprintf(why, size,
                 "projection %s (auto: t = %.10g s is %.3g characteristic periods of %.3g s, %s "
                 "%g)",
                 on ? "on" : "off", o->t_end, o->t_end / *period, *period,
                 on ? "more than" : "not more than", MECH_PROJECT_PERIODS);
    return on;
}

/* The run's parameter text: the model, then the integration settings. */
static int describe_run(const mech_model *m, const mech_sim_options *o, mech_run *run,
                        const char *projection)
{
    size_t need = m->ops->describe(m->ctx, "", NULL, 0);
    char line[400];
    const mech_integ_options *io = &o->integ;
    if (io->method == MECH_RK4 || (io->method == MECH_DOPRI5 && io->fixed))
        snprintf(line, sizeof line,
                 "integrator %s, fixed step %.10g s; report every %.10g s; end %.10g s\n",
                 mech_method_name(io->method), io->h, o->report, o->t_end);
    else {
        char hmax[40] = "", order[24] = "";
        if (io->hmax > 0) snprintf(hmax, sizeof hmax, ", max step %.10g s", io->hmax);
        if (io->max_order > 0) snprintf(order, sizeof order, ", max order %d", io->max_order);
        snprintf(line, sizeof line,
                 "integrator %s, rtol %.3g, atol %.3g%s%s; report every %.10g s; end %.10g s\n",
                 mech_method_name(io->method), io->rtol, io->atol, hmax, order, o->report,
                 o->t_end);
    }
    run->params = mech_malloc(need + strlen(line) + strlen(projection) + 2);
    if (run->params == NULL) return -1;
    m->ops->describe(m->ctx, "", run->params, need + 1);
    strcat(run->params, line);
    strcat(run->params, projection);
    strcat(run->params, "\n");
    return 0;
}

mech_status mech_simulate(mech_system *sys, const mech_sim_options *o, mech_run **out,
                          mech_error *err)
{
    *out = NULL;
    mech_model m;
    mech_status st = system_model(sys, &m, err);
    if (st) return st;
    st = sim_run_model(&m, sys, o, out, err);
    if (*out) {
        (*out)->stats.solver = mech_system_solver(sys); /* finalized by the run */
        (*out)->revision = mech_system_revision(sys);
    }
    return st;
}

mech_status sim_run_model(const mech_model *model, mech_system *handle, const mech_sim_options *o,
                          mech_run **out, mech_error *err)
{
    *out = NULL;
    sim s;
    memset(&s, 0, sizeof s);
    s.m = *model;
    const mech_model *m = &s.m;
    s.sys = handle;
    s.opt = o;
    mech_status st = MECH_OK;
    int nch = o->nchannels + o->nuser_channels;
    s.ch = mech_calloc((size_t)(o->nchannels > 0 ? o->nchannels : 1), sizeof(mech_channel));
    s.evch = mech_calloc((size_t)(o->nevents > 0 ? o->nevents : 1), sizeof(mech_channel));
    /* state buffer, then room for one row of channel values */
    s.ybuf = mech_calloc((size_t)(m->nstate + nch + 1), sizeof(double));
    s.ynew = mech_calloc((size_t)m->nstate + 1, sizeof(double));
    mech_integ *integ = NULL;
    mech_run *run = NULL;
    int started = 0; /* a run that did not start is not returned */
    if (!s.ch || !s.evch || !s.ybuf || !s.ynew) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "simulate: out of memory");
        goto done;
    }
    if ((st = check_options(o, &s, err))) goto done;

    long rows_max = (long)grid_points(o->t_end, o->report);
    run = run_create(nch, rows_max, o->nevents, err);
    if (run == NULL) {
        st = MECH_ERR_NOMEM;
        goto done;
    }
    s.run = run;
    if (o->motion > 0 && run_reserve_motion(run, (long)grid_points(o->t_end, o->motion), m->nstate,
                                            o->motion) != 0) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "simulation: out of memory for the motion");
        goto done;
    }
    for (int i = 0; i < o->nchannels; i++) {
        snprintf(run->names[i], RUN_NAME_MAX, "%s", s.ch[i].name);
        snprintf(run->units[i], RUN_UNIT_MAX, "%s", s.ch[i].unit);
    }
    for (int i = 0; i < o->nuser_channels; i++) {
        const mech_user_channel *u = &o->user_channels[i];
        snprintf(run->names[o->nchannels + i], RUN_NAME_MAX, "%s", u->name);
        snprintf(run->units[o->nchannels + i], RUN_UNIT_MAX, "%s", u->unit ? u->unit : "");
    }
    for (int i = 0; i < o->nevents; i++) {
        if (o->events[i].name)
            snprintf(run->evnames[i], MECH_NAME_MAX, "%s", o->events[i].name);
        else
            snprintf(run->evnames[i], MECH_NAME_MAX, "event%d", i + 1);
    }
    char projection[200];
    double period = INFINITY;
    int project = projection_decided(m, o, &period, projection, sizeof projection);
    if (describe_run(m, o, run, projection) != 0) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "simulate: out of memory");
        goto done;
    }
    run->stats.method = o->integ.method;

    mech_integ_options io = o->integ;
    s.atol = mech_calloc((size_t)m->nstate, sizeof(double));
    if (s.atol == NULL) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "simulate: out of memory");
        goto done;
    }
    m->ops->atol(m->ctx, io.atol, io.atol_vec, s.atol);
    io.atol_vec = s.atol;
    if (project) { /* in place of the model's normalize, which the projection includes */
        /* BDF's step ends are projected as strictly as the dense output (strict): CVODE's
        ** history takes in each correction; an explicit method's only when they leave the
        ** positions' tolerance (project.c) */
        double atol = INFINITY;
        for (int i = 0; i < m->nq; i++) atol = fmin(atol, s.atol[i]);
        m->ops->project_start(m->ctx, atol, io.rtol, io.method == MECH_BDF, 0.0);
        io.project = sim_project_step;
        io.project_output = sim_project_output;
        io.project_ctx = &s;
        s.rhs_trusted = io.method != MECH_BDF;
    }
    run->stats.project.on = project;
    run->stats.project.period = period;
    model_integ_structure(m, &io);
    mech_jac_structure js;
    if ((st = model_integ_jacobian(m, &io, o->jac_columns, &js, err)) ||
        (st = mech_integ_create(&integ, m->nstate, &io, sim_rhs, &s, err)))
        goto done;
    s.imap = mech_calloc((size_t)(m->nevents + o->nevents + 1), sizeof(int));
    s.uprev = mech_calloc(2 * (size_t)(o->nevents + 1), sizeof(double));
    s.ustart = s.uprev ? s.uprev + o->nevents + 1 : NULL;
    s.ndone = mech_calloc((size_t)(o->nevents + 1), sizeof(int));
    s.cap_pend = m->nevents + o->nevents + MAX_PERIODIC_PER_STEP;
    s.pend = mech_calloc((size_t)s.cap_pend, sizeof(pending));
    s.chat = mech_calloc((size_t)m->nevents + 1, sizeof(chatter));
    int *dir = mech_calloc((size_t)(m->nevents + o->nevents + 1), sizeof(int));
    if (!s.imap || !s.uprev || !s.ndone || !s.pend || !s.chat || !dir) {
        mech_free(dir);
        st = mech_error_set(err, MECH_ERR_NOMEM, "simulate: out of memory");
        goto done;
    }
    for (int i = 0; i < m->nevents; i++) { /* the model's own: contact onsets and ends */
        dir[s.nint] = 0;
        s.imap[s.nint++] = -(i + 1);
    }
    for (int i = 0; i < o->nevents; i++) {
        if (o->events[i].channel && o->events[i].period > 0) continue; /* found by sim */
        dir[s.nint] = o->events[i].direction;
        s.imap[s.nint++] = i;
    }
    if (s.nint > 0) st = mech_integ_set_events(integ, s.nint, event_functions, dir, err);
    mech_free(dir);
    if (st) goto done;

    double wall0 = now(), last_progress = wall0;
    model_clear_error(m);
    mech_error ierr;
    mech_error_clear(&ierr);
    started = 1;
    m->ops->events_start(m->ctx, 0.0, m->y0);
    if ((st = mech_integ_init(integ, 0.0, m->y0, &ierr)) != MECH_OK ||
        record_row(&s, 0.0, m->y0) != 0) {
        if (st == MECH_OK) st = s.cb_err.code ? s.cb_err.code : MECH_ERR_CALLBACK;
        const mech_error *merr = model_last_error(m);
        const char *why = s.failed ? s.cb_err.msg : merr->code ? merr->msg : ierr.msg;
        mech_error_set(err, st, "simulation failed at t = 0 (start): %s", why);
        run->status = MECH_RUN_FAILED;
        snprintf(run->message, sizeof run->message, "%s", err->msg);
        goto finish;
    }
    keep_state(&s, 0.0, m->y0);

    /* the model was just evaluated at the start: its accelerations are those of y0 */
    const model_limits lim = model_run_limits(m, o->t_end, o->max_distance);

    for (int d = 0; d < o->nevents; d++) {
        const mech_event_def *e = &o->events[d];
        if (!(e->channel && e->period > 0)) continue;
        if (evaluate_at(&s, 0.0, m->y0) != 0) break;
        s.uprev[d] = winding(&s, d);
    }

    long step = 0;
    /* the pace over the last MECH_PACE_STEPS steps (the check from t = 0 averages a run that
    ** was fast and now crawls: a force with a pole holds DOPRI5 at 5e-16 s a step) */
    long w_step = 0;
    double w_t = 0;
    long k = 1; /* next report row */
    /* a fixed step's count was checked before the start; an adaptive one's shows as it goes */
    const int adaptive = o->integ.method != MECH_RK4 && !o->integ.fixed;
    for (;;) {
        double t = mech_integ_time(integ);
        if (t >= o->t_end) break;
        if (o->interrupt && *o->interrupt) {
            st = mech_error_set(err, MECH_ERR_INTERRUPTED,
                                "simulation interrupted at t = %.9g s (step %ld)", t, step);
            run->status = MECH_RUN_INTERRUPTED;
            break;
        }
        model_clear_error(m);
        s.failed = 0;
        s.dense_ok = 0;
        st = mech_integ_step(integ, o->t_end, &ierr);
        if (st) {
            const mech_error *merr = model_last_error(m);
            int own = !s.failed && !merr->code; /* else the model's report says it */
            char why[MECH_ERROR_MSG_SIZE];
            snprintf(why, sizeof why, "%s", s.failed ? s.cb_err.msg : own ? ierr.msg : merr->msg);
            sim_failure_notes(m, integ, &o->integ, st, own, why, sizeof why);
            if (s.failed)
                st = s.cb_err.code;
            else if (merr->code)
                st = merr->code;
            mech_error_set(err, st, "simulation failed at t = %.9g s (step %ld): %s", t, step + 1,
                           why);
            run->status = MECH_RUN_FAILED;
            break;
        }
        step++;
        double t1 = mech_integ_time(integ), t0 = mech_integ_prev_time(integ);
        const double t_acc = t1; /* the end of the step as accepted (t1 moves back at a cut) */
        int window = adaptive && step - w_step >= MECH_PACE_STEPS;
        if (adaptive && ((st = mech_integ_check_pace(&o->integ, step, 0.0, t1, o->t_end, &ierr)) ||
                         (window && (st = mech_integ_check_pace(&o->integ, step - w_step, w_t, t1,
                                                                o->t_end, &ierr))))) {
            char why[MECH_ERROR_MSG_SIZE];
            snprintf(why, sizeof why, "%s", ierr.msg);
            mech_integ_locate_limiting(integ);
            sim_failure_notes(m, integ, &o->integ, st, 1, why, sizeof why);
            sim_pace_notes(integ, &o->integ, why, sizeof why);
            mech_error_set(err, st, "simulation failed at t = %.9g s (step %ld): %s", t1, step,
                           why);
            run->status = MECH_RUN_FAILED;
            break;
        }
        if (window) w_step = step, w_t = t1;
        /* the model's hook: a state beyond its bounds fails; a state it changed (set aside
        ** in ynew) is where the integrator restarts once the step's events and rows are in */
        char why[MECH_ERROR_MSG_SIZE];
        int renew = m->ops->step_accepted(m->ctx, &lim, t1, mech_integ_state(integ), s.ynew, why,
                                          sizeof why);
        if (renew == MODEL_STEP_FAILED) {
            sim_failure_notes(m, integ, &o->integ, MECH_ERR_NUMERIC, 0, why, sizeof why);
            st = mech_error_set(err, MECH_ERR_NUMERIC,
                                "simulation failed at t = %.9g s (step %ld): %s", t1, step, why);
            run->status = MECH_RUN_FAILED;
            break;
        }

        /* events of this step, earliest first */
        const mech_integ_event *evs;
        int nev = mech_integ_events(integ, &evs);
        s.npend = 0;
        for (int e = 0; e < nev && !s.failed; e++) add_pending(&s, evs[e].t, s.imap[evs[e].index]);
        if (!s.failed) periodic_events(&s, integ);
        /*
        ** Deliver them in time order.  A contact's onset or end, or an event that stops the
        ** run, cuts the step at its time: the events after it are dropped (the next steps
        ** find them again if they still happen), those at that very time are delivered, and
        ** so are those the integrator located just after it but whose functions have already
        ** crossed there.
        */
        int stop = 0, crossed = 0; /* the model's own events crossed */
        double t_limit = t1, cut = INFINITY;
        s.stop_def = -1;
        for (int e = 0; e < s.npend && !s.failed; e++) {
            int di = s.pend[e].def;
            double te = s.pend[e].t;
            if (te > cut) break;
            /* an event that stops the run: its action decides, on the step before the cut */
            int a = di < 0 ? 0 : event_action(&s, integ, di, te);
            if (a < 0) break;
            if ((di < 0 || a) && te < cut) {
                s.dense_ok = 0; /* the step is redone to te */
                if ((st = mech_integ_truncate(integ, te, &ierr)) != MECH_OK) {
                    mech_error_set(err, st, "simulation failed at t = %.9g s (step %ld): %s", te,
                                   step, ierr.msg);
                    run->status = MECH_RUN_FAILED;
                    goto finish;
                }
                cut = te;
            }
            if (di < 0) { /* the contacts' histories change below, then the run restarts */
                crossed = 1;
                if (note_crossing(&s, integ, -di - 1, te, t_acc - t0) != 0) break;
                continue;
            }
            if (a && s.stop_def < 0) s.stop_def = di, s.stop_t = te;
            stop |= a;
            if (dense_at(&s, integ, te) == 0) record_event(&s, di, te, s.ybuf);
            if (o->events[di].channel && o->events[di].period > 0) s.ndone[di]++;
        }
        if (cut < INFINITY) t_limit = t1 = cut; /* the integrator is there now */
        if (cut < INFINITY && !s.failed) {
            const mech_integ_event *late;
            int nlate = mech_integ_events(integ, &late);
            for (int e = 0; e < nlate && !s.failed; e++) {
                int di = s.imap[late[e].index];
                if (di < 0) {
                    crossed = 1; /* every contact is brought up to date below */
                    note_crossing(&s, integ, -di - 1, cut, t_acc - t0);
                } else if (deliver(&s, integ, di, cut) > 0)
                    stop = 1;
            }
            if (!s.failed && periodic_after_cut(&s, integ) > 0) stop = 1;
        }
        if (stop && !s.failed)
            snprintf(run->message, sizeof run->message, "stopped by event '%s' at t = %.9g s",
                     run->evnames[s.stop_def], s.stop_t);

        /* report rows inside the step (or up to the stopping event) */
        double slack = 1e-12 * fmax(1.0, fabs(t_limit));
        while (!s.failed && k < run->cap) {
            double tk = (double)k * o->report;
            if (tk > t_limit + slack) break;
            const double *y = grid_state(&s, integ, tk, t0, t1, slack, project);
            if (y == NULL || record_row(&s, tk, y) != 0) break;
            k++;
            if (isfinite(lim.elen) &&
                m->ops->energy_runaway(m->ctx, y, lim.elen, s.cb_err.msg, sizeof s.cb_err.msg)) {
                sim_failure_notes(m, integ, &o->integ, MECH_ERR_NUMERIC, 0, s.cb_err.msg,
                                  sizeof s.cb_err.msg);
                s.cb_err.code = MECH_ERR_NUMERIC;
                s.failed = 1;
            }
        }
        /* the motion's states inside the step, as the rows */
        while (!s.failed && run->nmotion < run->mcap) {
            double tk = (double)run->nmotion * o->motion;
            if (tk > t_limit + slack) break;
            const double *y = grid_state(&s, integ, tk, t0, t1, slack, project);
            if (y == NULL) break;
            keep_state(&s, tk, y);
        }
        if (s.failed) {
            st = s.cb_err.code ? s.cb_err.code : MECH_ERR_CALLBACK;
            mech_error_set(err, st, "simulation failed at t = %.9g s (step %ld): %s", t1, step,
                           s.cb_err.msg);
            run->status = MECH_RUN_FAILED;
            break;
        }
        if (stop) {
            run->status = MECH_RUN_STOPPED;
            break;
        }
        if (renew == MODEL_STEP_CHANGED && t1 < t_acc) {
            /* the step was cut: what the hook changed at its old end is gone; the hook again,
            ** on the state at the cut */
            renew = m->ops->step_accepted(m->ctx, &lim, t1, mech_integ_state(integ), s.ynew, why,
                                          sizeof why);
            if (renew == MODEL_STEP_FAILED) {
                sim_failure_notes(m, integ, &o->integ, MECH_ERR_NUMERIC, 0, why, sizeof why);
                st =
                    mech_error_set(err, MECH_ERR_NUMERIC,
                                   "simulation failed at t = %.9g s (step %ld): %s", t1, step, why);
                run->status = MECH_RUN_FAILED;
                break;
            }
        }
        if (crossed || renew == MODEL_STEP_CHANGED) {
            const double *y1 = renew == MODEL_STEP_CHANGED ? s.ynew : mech_integ_state(integ);
            memcpy(s.ybuf, y1, sizeof(double) * (size_t)m->nstate);
            s.dense_ok = 0;
            int changed = renew == MODEL_STEP_CHANGED;
            for (int c = 0; crossed && c < m->nevents; c++)
                changed |= m->ops->event_crossed(m->ctx, c, t1, s.ybuf);
            if (changed && (st = mech_integ_reinit(integ, t1, s.ybuf, &ierr)) != MECH_OK) {
                const mech_error *merr = model_last_error(m);
                mech_error_set(err, st, "simulation failed at t = %.9g s (step %ld): %s", t1, step,
                               merr->code ? merr->msg : ierr.msg);
                run->status = MECH_RUN_FAILED;
                break;
            }
        }
        if (o->progress && (step & 15) == 0) {
            double w = now();
            if (w - last_progress >= 0.25) {
                last_progress = w;
                o->progress(o->progress_ud, t1, 0.0, o->t_end, w - wall0);
            }
        }
    }
    if (run->status == MECH_RUN_FAILED || run->status == MECH_RUN_INTERRUPTED)
        snprintf(run->message, sizeof run->message, "%s", err->msg);
    if (run->status == MECH_RUN_STOPPED) st = MECH_OK;

finish:
    if (project) { /* the counts are the model's, the decision the run's */
        m->ops->project_stats(m->ctx, &run->stats.project);
        run->stats.project.on = 1;
        run->stats.project.period = period;
    }
    run->stats.integ = mech_integ_get_stats(integ);
    run->stats.integ.events = run->nev; /* the count matches the list */
    run->stats.wall_time = now() - wall0;
    run->stats.t_end = mech_integ_time(integ);
    if (o->progress) o->progress(o->progress_ud, run->stats.t_end, 0.0, o->t_end, -1.0);

done:
    /* the last evaluation was of a state in the buffers freed here: none is left to read */
    m->ops->forget(m->ctx);
    mech_integ_free(integ);
    mech_free(s.ch);
    mech_free(s.evch);
    mech_free(s.ybuf);
    mech_free(s.ynew);
    mech_free(s.atol);
    mech_free(s.imap);
    mech_free(s.uprev);
    mech_free(s.ndone);
    mech_free(s.pend);
    mech_free(s.chat);
    if (run && !started) { /* could not start: bad options (the integrator's), no memory */
        mech_run_free(run);
        run = NULL;
    }
    *out = run;
    return st;
}

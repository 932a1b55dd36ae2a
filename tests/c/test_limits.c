/* SPDX-License-Identifier: MIT */
/*
** Runs that cannot end do not start: the step counts of mech_integ_check_span and the pace
** of mech_integ_check_pace at their limits, and the memory of a run's rows and events and of
** mech_lyapunov's results within max_memory (by default the machine's memory, which the Lua
** tests exceed; here a small max_memory shows the events' limit, reached as they come).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "tap.h"

/* A body moving along x at 1 m/s, on a spring of stiffness k to the ground (none if 0). */
static mech_system *mover(double k)
{
    mech_error err;
    mech_system *sys = NULL;
    double g[2] = {0, 0};
    mech_body_def b = mech_body_default();
    b.name = "b", b.mass = 1, b.inertia = 1, b.vel[0] = 1;
    mech_status st = mech_system_create(&sys, g, &err);
    int id = 0;
    if (!st) st = mech_body_add(sys, &b, &id, &err);
    if (!st && k > 0) {
        mech_spring_def sp = mech_spring_default();
        sp.name = "s", sp.body_a = MECH_GROUND, sp.body_b = id, sp.k = k;
        st = mech_spring_add(sys, &sp, NULL, &err);
    }
    if (st) {
        diag("cannot build the model: %s", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

static void spans(void)
{
    mech_error err;
    mech_integ_options o = mech_integ_default_options();
    o.method = MECH_DOPRI5, o.fixed = 1, o.h = 1e-9;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_OK, "fixed dopri5: 1e9 steps are allowed");
    o.h = 0.999e-9;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_ERR_ARG, "1.001e9 steps are not");
    is_str(err.msg,
           "h = 9.99e-10 s makes 1e+09 steps to t = 1 s, more than max_steps = 1e+09: take a "
           "longer h or a shorter t (or raise max_steps)",
           "the message names h, the count and the limit");
    o.max_steps = 1e10;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_OK, "max_steps = 1e10 allows them");
    o.max_steps = INFINITY, o.h = 1e-300;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_OK, "max_steps = inf: no limit");
    o.max_steps = 0;
    o.h = 2;
    ok(mech_integ_check_span(&o, 5, 6, &err) == MECH_ERR_ARG &&
           strcmp(err.msg, "h = 2 s is longer than the run (t = 6 s): take h <= t") == 0,
       "a step longer than the run from t0 = 5 s");
    o.fixed = 0, o.hmax = 1e-9;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_OK,
       "adaptive: hmax = 1e-9 over 1 s is allowed");
    o.hmax = 0.999e-9;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "max_step = 9.99e-10 s makes at least 1e+09 steps") != NULL,
       "hmax = 0.999e-9 is not");
    o.h = 1e-300, o.hmax = 0;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_OK,
       "an adaptive first step counts nothing (it grows)");
    o.method = MECH_RK4, o.h = -1;
    ok(mech_integ_check_span(&o, 0, 1, &err) == MECH_OK,
       "a step that is not positive is left to mech_integ_create");

    o = mech_integ_default_options();
    ok(mech_integ_check_pace(&o, MECH_PACE_STEPS - 1, 0, 1e-300, 1, &err) == MECH_OK,
       "pace: not judged before MECH_PACE_STEPS steps");
    ok(mech_integ_check_pace(&o, MECH_PACE_STEPS, 0, 1e-4, 1, &err) == MECH_OK,
       "1e5 steps to 1e-4 of the run: 1e9 in all, allowed");
    ok(mech_integ_check_pace(&o, MECH_PACE_STEPS, 2, 2 + 0.999e-4, 3, &err) == MECH_ERR_STEPSIZE,
       "1e5 steps to 0.999e-4 of the run (from t0 = 2 s): refused");
    is_str(err.msg,
           "at the pace of its 100000 steps to t = 2.0000999 s (9.99e-10 s a step) the run would "
           "take about 1e+09 steps to reach t = 3 s, more than max_steps = 1e+09",
           "naming the steps, the time and the projection");
    o.max_steps = 500;
    ok(mech_integ_check_pace(&o, 500, 0, 0.1, 1, &err) == MECH_OK, "500 steps of max_steps = 500");
    ok(mech_integ_check_pace(&o, 501, 0, 0.1, 1, &err) == MECH_ERR_STEPSIZE &&
           strcmp(err.msg, "501 steps to t = 0.1 s, more than max_steps = 500") == 0,
       "the 501st is one too many");
}

static void rows(void)
{
    mech_error err;
    mech_system *sys = mover(0);
    static const char *const ch[] = {"b.x"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.t_end = 1, o.report = 0.1, o.channels = ch, o.nchannels = 1, o.max_memory = 175;
    mech_run *run = NULL;
    ok(mech_simulate(sys, &o, &run, &err) == MECH_ERR_ARG && run == NULL,
       "11 rows of 2 values (176 bytes) do not fit in 175 bytes: the run does not start");
    is_str(err.msg,
           "simulate: 11 rows of t and 1 channel take 176 bytes, more than max_memory = 175 "
           "bytes: record fewer channels or take a longer report step",
           "the message names the rows, the channels and the bytes");
    o.max_memory = 176;
    if (!ok(mech_simulate(sys, &o, &run, &err) == MECH_OK && mech_run_rows(run) == 11,
            "in 176 bytes they do"))
        diag("%s", err.msg);
    mech_run_free(run);
    ok(mech_physical_memory() >= ((size_t)1 << 24), "the machine has some memory");
    mech_system_destroy(sys);
}

static void events(void)
{
    mech_error err;
    mech_system *sys = mover(0);
    static const char *const ch[] = {"b.x"};
    mech_event_def ev = {0};
    ev.name = "tick", ev.channel = "b.x", ev.period = 1e-4, ev.direction = 1;
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_RK4, o.integ.h = 1e-3;
    o.t_end = 1, o.report = 0.1, o.channels = ch, o.nchannels = 1;
    o.events = &ev, o.nevents = 1;
    /* rows: 176 bytes; an event: time, index and one value, 20 bytes: 491 fit in 10000 */
    o.max_memory = 10000;
    mech_run *run = NULL;
    ok(mech_simulate(sys, &o, &run, &err) == MECH_ERR_NOMEM && run != NULL,
       "10000 events every 1e-4 m: the run fails");
    is_str(err.msg,
           "simulation failed at t = 0.05 s (step 50): event 'tick': 491 events listed (20 bytes "
           "each, besides 176 bytes of rows), more would not fit in max_memory = 1e+04 bytes: "
           "record fewer channels or list fewer events (a longer period)",
           "when the next event would not fit, naming it, the count and the bytes");
    ok(run && mech_run_get_status(run) == MECH_RUN_FAILED && mech_run_nevents(run) == 491,
       "the 491 events that fit are kept");
    mech_run_free(run);
    o.max_memory = 0; /* the machine's */
    ok(mech_simulate(sys, &o, &run, &err) == MECH_OK && mech_run_nevents(run) == 10000,
       "within the machine's memory all 10000 are listed");
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void lyapunov(void)
{
    mech_error err;
    mech_system *sys = mover(1);
    mech_lyapunov_options o = mech_lyapunov_default_options();
    o.t_end = 1, o.every = 0.01, o.max_memory = 1000;
    mech_lyapunov_result res;
    ok(mech_lyapunov(sys, &o, &res, &err) == MECH_ERR_ARG && res.n == 0,
       "lyapunov: 100 renormalisations (1616 bytes) in 1000 bytes: refused");
    is_str(err.msg,
           "lyapunov: every = 0.01 s makes 100 renormalisations whose results take 1.62e+03 "
           "bytes, more than max_memory = 1e+03 bytes: take a longer every",
           "naming every, the count and the bytes");
    mech_lyapunov_free(&res);
    o.max_memory = 1616;
    ok(mech_lyapunov(sys, &o, &res, &err) == MECH_OK && res.n == 100, "in 1616 bytes it runs");
    mech_lyapunov_free(&res);
    mech_system_destroy(sys);
}

int main(void)
{
    spans();
    rows();
    events();
    lyapunov();
    return done_testing();
}

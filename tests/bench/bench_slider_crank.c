/* SPDX-License-Identifier: MIT */
/*
** Benchmark: the ideal slider-crank of benchmark A (crank 0.05 m, rod 0.12 m, slider in
** a prismatic joint, crank driven at 5000 rpm).  Prints the time per right-hand-side
** evaluation next to the target (under 1 microsecond on one core), and the
** steps per second and real-time factor of whole simulations.
*/
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mech.h"
#include "models.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static mech_system *slider_crank(void)
{
    mech_error err;
    mech_system *sys = model_slider_crank(5000 * 2 * 3.14159265358979 / 60, &err);
    if (sys == NULL || mech_system_finalize(sys, &err) != MECH_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

static void simulate(mech_system *sys, mech_method method, double h, const char *label)
{
    static const char *const ch[] = {"slider.x", "slider.vx", "slider.ax", "motor.torque"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = method;
    o.integ.h = h;
    o.integ.rtol = 1e-6;
    o.integ.atol = 1e-9;
    o.t_end = 0.024; /* two crank revolutions */
    o.report = 1e-5;
    o.channels = ch;
    o.nchannels = 4;
    mech_run *run;
    mech_error err;
    if (mech_simulate(sys, &o, &run, &err) != MECH_OK) {
        printf("  %-28s failed: %s\n", label, err.msg);
        mech_run_free(run);
        return;
    }
    mech_run_stats s = mech_run_get_stats(run);
    printf("  %-28s %8ld steps %9ld rhs  %7.3f s  %10.0f steps/s  real-time factor %.3g\n", label,
           s.integ.steps, s.integ.rhs_evals, s.wall_time, (double)s.integ.steps / s.wall_time,
           o.t_end / s.wall_time);
    mech_run_free(run);
}

int main(void)
{
    mech_system *sys = slider_crank();
    if (sys == NULL) return 1;
    int n = mech_system_nstate(sys);
    double y[64], ydot[64];
    mech_error err;
    mech_system_initial_state(sys, y, &err);

    /* time per right-hand side: many evaluations at slightly changing states, best of 5 */
    const long reps = 2000000;
    double best = 1e30;
    for (int trial = 0; trial < 5; trial++) {
        double t0 = now();
        for (long i = 0; i < reps; i++) {
            y[n / 2 - 1] += 1e-12; /* defeat any caching */
            mech_system_rhs(sys, 1e-9 * (double)i, y, ydot);
        }
        double per = (now() - t0) / (double)reps;
        if (per < best) best = per;
    }
    printf("ideal slider-crank (benchmark A geometry, 3 bodies, 9 Lagrange equations, "
           "slider without inertia)\n");
    printf("  right-hand side evaluation: %.3f us      target: under 1 us on one core  [%s]\n",
           best * 1e6, best < 1e-6 ? "met" : "NOT met");
    printf("  two revolutions at 5000 rpm (0.024 s), report every 1e-5 s:\n");
    simulate(sys, MECH_RK4, 1e-6, "rk4, h = 1e-6 s (papers)");
    simulate(sys, MECH_RK4, 1e-5, "rk4, h = 1e-5 s");
    simulate(sys, MECH_DOPRI5, 0, "dopri5, rtol 1e-6");
    simulate(sys, MECH_BDF, 0, "bdf, rtol 1e-6");
    mech_system_destroy(sys);
    return 0;
}

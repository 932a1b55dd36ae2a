/* SPDX-License-Identifier: MIT */
/*
** libmech from C alone: build the benchmark slider-crank, simulate, read the results;
** nothing is allocated while it steps; failures keep their data.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "models.h"
#include "tap.h"

static mech_system *slider_crank(double speed)
{
    mech_error err;
    mech_system *sys = model_slider_crank(speed, &err);
    if (sys == NULL) diag("cannot build the model: %s", err.msg);
    return sys;
}

static long allocations_for(double t_end, mech_method method)
{
    mech_system *sys = slider_crank(523.6);
    mech_error err;
    mech_system_finalize(sys, &err);
    static const char *const ch[] = {"slider.x", "slider.ax", "motor.torque", "system.energy"};
    long used = model_run_allocations(sys, method, 1e-5, t_end, ch, 4, &err);
    if (used < 0) diag("simulate failed: %s", err.msg);
    mech_system_destroy(sys);
    return used;
}

/*
** The same for BDF on the slider-crank with a flexible slider of nx x ny elements (its
** Jacobian from the model's structure: groups of columns and the mesh in closed form), with
** the Newton solver newton; *st gets the run's statistics.
*/
static long fe_allocations_for(double t_end, int nx, int ny, mech_newton newton, mech_run_stats *st)
{
    mech_error err;
    int fe;
    mech_system *sys = model_fe_slider_crank(nx, ny, 0, &fe, &err);
    if (!sys || mech_system_finalize(sys, &err)) {
        diag("cannot build the model: %s", err.msg);
        mech_system_destroy(sys);
        return -1;
    }
    static const char *const ch[] = {"crank.phi", "system.energy"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_BDF;
    o.integ.rtol = 1e-5;
    o.integ.atol = 1e-8;
    o.integ.max_order = 3;
    o.integ.newton = newton;
    o.t_end = t_end;
    o.report = 1e-3;
    o.channels = ch;
    o.nchannels = 2;
    long before = mech_alloc_count();
    mech_run *run;
    mech_status rc = mech_simulate(sys, &o, &run, &err);
    long used = mech_alloc_count() - before;
    if (rc) diag("simulate failed: %s", err.msg);
    *st = mech_run_get_stats(run);
    mech_run_free(run);
    mech_system_destroy(sys);
    return rc ? -1 : used;
}

static int failing_law(void *ud, double t, double x, double xdot, double *f)
{
    (void)ud, (void)x, (void)xdot;
    *f = 0;
    return t > 0.05 ? -1 : 0;
}

int main(void)
{
    mech_error err;
    mech_system *sys = slider_crank(523.6);
    ok(mech_system_finalize(sys, &err) == MECH_OK, "the slider-crank assembles");
    ok(mech_system_dof(sys) == 0, "it is kinematically driven (0 dof)");
    ok(mech_system_nstate(sys) == 2 * 9 + 5,
       "state: 9 positions, 9 velocities, 5 energy accounts (driver work, applied work, "
       "damper, contact and friction dissipation)");

    static const char *const ch[] = {"slider.x", "slider.vx", "slider.ax"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_RK4;
    o.integ.h = 1e-6;
    o.t_end = 0.012;
    o.report = 1e-4;
    o.channels = ch;
    o.nchannels = 3;
    mech_run *run;
    ok(mech_simulate(sys, &o, &run, &err) == MECH_OK, "one revolution with RK4");
    ok(mech_run_rows(run) == 121, "121 rows (0 .. 0.012 s every 1e-4 s)");
    const double *x = mech_run_column(run, 0), *ax = mech_run_column(run, 2);
    const double *t = mech_run_time(run);
    /* closed form at t: theta = w t; x = r cos + sqrt(l^2 - r^2 sin^2) */
    double worst = 0;
    for (long i = 0; i < mech_run_rows(run); i++) {
        double th = 523.6 * t[i], r = 0.05, l = 0.12;
        double xe = r * cos(th) + sqrt(l * l - r * r * sin(th) * sin(th));
        worst = fmax(worst, fabs(x[i] - xe));
    }
    if (!ok(worst < 1e-9, "slider position follows the closed form")) diag("worst %g", worst);
    is_num(ax[0], -523.6 * 523.6 * (0.05 + 0.05 * 0.05 / 0.12), 1e-3,
           "slider acceleration at the start is -w^2 (r + r^2/l)");
    mech_run_stats st = mech_run_get_stats(run);
    ok(st.integ.steps == 12000, "12000 RK4 steps of 1e-6 s");
    mech_run_free(run);

    long a1 = allocations_for(0.005, MECH_RK4), a2 = allocations_for(0.010, MECH_RK4);
    if (!ok(a1 == a2, "RK4: allocations do not grow with the number of steps"))
        diag("%ld vs %ld allocations", a1, a2);
    a1 = allocations_for(0.005, MECH_DOPRI5), a2 = allocations_for(0.010, MECH_DOPRI5);
    if (!ok(a1 == a2, "DOPRI5: allocations do not grow with the number of steps"))
        diag("%ld vs %ld allocations", a1, a2);
    a1 = allocations_for(0.005, MECH_BDF), a2 = allocations_for(0.010, MECH_BDF);
    if (!ok(a1 == a2, "BDF: allocations do not grow with the number of steps"))
        diag("%ld vs %ld allocations", a1, a2);
    /* BDF with the model's Jacobian structure, a dense and a sparse Newton solver; KLU
    ** allocates (through mech_malloc, counted) only when it chooses pivots, which it does
    ** once, at setup */
    mech_run_stats s1, s2;
    a1 = fe_allocations_for(0.05, 4, 2, MECH_NEWTON_DENSE, &s1);
    a2 = fe_allocations_for(0.1, 4, 2, MECH_NEWTON_DENSE, &s2);
    if (!ok(a1 == a2 && a1 > 0 && s2.integ.steps > s1.integ.steps && s1.integ.jac_linear > 0 &&
                s1.integ.newton == MECH_NEWTON_DENSE,
            "BDF, flexible slider of 8 elements, grouped Jacobian, dense Newton: allocations "
            "do not grow with the number of steps"))
        diag("%ld vs %ld allocations, %ld and %ld steps", a1, a2, s1.integ.steps, s2.integ.steps);
    a1 = fe_allocations_for(0.05, 8, 8, MECH_NEWTON_AUTO, &s1);
    a2 = fe_allocations_for(0.1, 8, 8, MECH_NEWTON_AUTO, &s2);
    if (!ok(a1 == a2 && a1 > 0 && s2.integ.steps > s1.integ.steps &&
                s2.integ.newton == MECH_NEWTON_SPARSE && s2.integ.sparse_factorizations == 1,
            "BDF, flexible slider of 64 elements, sparse Newton: allocations do not grow with the "
            "number of steps, and KLU chose its pivots once"))
        diag("%ld vs %ld allocations, %ld and %ld steps, %s, %ld factorizations", a1, a2,
             s1.integ.steps, s2.integ.steps, mech_newton_name(s2.integ.newton),
             s2.integ.sparse_factorizations);

    /* BDF, whose Newton systems are on the velocities and accounts (the positions are
    ** q' = v).  At rtol 1e-8 its global error is ~100 rtol (see test_integ) of the 0.17 m
    ** scale: measured 2.4e-7 m, as with the full Newton systems before; bound 1e-6 m. */
    o.integ.method = MECH_BDF;
    o.integ.rtol = 1e-8;
    o.integ.atol = 1e-10;
    ok(mech_simulate(sys, &o, &run, &err) == MECH_OK, "one revolution with BDF");
    x = mech_run_column(run, 0), t = mech_run_time(run);
    worst = 0;
    for (long i = 0; i < mech_run_rows(run); i++) {
        double th = 523.6 * t[i], r = 0.05, l = 0.12;
        double xe = r * cos(th) + sqrt(l * l - r * r * sin(th) * sin(th));
        worst = fmax(worst, fabs(x[i] - xe));
    }
    st = mech_run_get_stats(run);
    diag("bdf: %ld steps, %ld rejected, %ld evaluations, %ld Jacobians, error %.3g m",
         st.integ.steps, st.integ.rejected, st.integ.rhs_evals, st.integ.jac_evals, worst);
    ok(worst < 1e-6, "BDF: slider position follows the closed form");
    mech_run_free(run);

    /* a failing callback: the run keeps what was recorded */
    mech_spring_def sp = mech_spring_default();
    sp.name = "weak", sp.body_a = MECH_GROUND, sp.body_b = 1, sp.law = failing_law;
    mech_spring_add(sys, &sp, NULL, &err);
    o.integ.method = MECH_DOPRI5;
    o.t_end = 0.1;
    mech_status s = mech_simulate(sys, &o, &run, &err);
    ok(s == MECH_ERR_CALLBACK, "a failing callback fails the run");
    ok(strstr(err.msg, "spring 'weak': its force function failed at t = 0.05") != NULL,
       "the message names the element and the time");
    ok(run != NULL && mech_run_get_status(run) == MECH_RUN_FAILED,
       "the run is kept, marked failed");
    /* rows end at the last accepted step before 0.05 s: the failing step was near it */
    long kept = run ? mech_run_rows(run) : 0;
    double last = kept ? mech_run_time(run)[kept - 1] : 0;
    if (!ok(kept > 400 && last <= 0.05, "with the rows before the failure (0 .. 0.05 s)"))
        diag("rows kept: %ld, last at %g", kept, last);
    mech_run_free(run);

    mech_system_destroy(sys);
    return done_testing();
}

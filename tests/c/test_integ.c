/* SPDX-License-Identifier: MIT */
/*
** libmech integrators: convergence orders, dense output, events, truncation and restart,
** stiffness, second-order systems in BDF, failures, option checks, allocation and
** statistics.  Every bound is derived in the comment next to it.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mech.h"
#include "tap.h"

#define G  9.81 /* gravity of the free-fall problems [m/s^2] */
#define PI 3.14159265358979323846

/* ---- problems ---------------------------------------------------------------------- */

/* Harmonic oscillator x'' = -x, y = [x, v]; from [1, 0] the solution is [cos t, -sin t]. */
static int osc(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx, (void)t;
    yd[0] = y[1];
    yd[1] = -y[0];
    return 0;
}

/* The oscillator, counting its calls in *(long *)ctx. */
static int osc_count(void *ctx, double t, const double *y, double *yd)
{
    ++*(long *)ctx;
    return osc(NULL, t, y, yd);
}

/* Free fall y' = v, v' = -G. */
static int fall(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx, (void)t;
    yd[0] = y[1];
    yd[1] = -G;
    return 0;
}

/* Event: the height (or the position of the oscillator). */
static int g_pos(void *ctx, double t, const double *y, double *g)
{
    (void)ctx, (void)t;
    g[0] = y[0];
    return 0;
}

/* Two events: height 5 (index 0) and height 6 (index 1, crossed first when falling). */
static int g_two(void *ctx, double t, const double *y, double *g)
{
    (void)ctx, (void)t;
    g[0] = y[0] - 5;
    g[1] = y[0] - 6;
    return 0;
}

/* Two events with nearly the same root: x and x + 1e-15 (1e-15 s apart on the oscillator,
** far below the location tolerance). */
static int g_tie(void *ctx, double t, const double *y, double *g)
{
    (void)ctx, (void)t;
    g[0] = y[0];
    g[1] = y[0] + 1e-15;
    return 0;
}

/* Stiff test problem y' = -1000 (y - cos t). */
static int stiff(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx;
    yd[0] = -1000 * (y[0] - cos(t));
    return 0;
}

/* Its solution from y(0) = 0. */
static double stiff_exact(double t)
{
    const double l = 1000, l2 = l * l;
    return (l2 * cos(t) + l * sin(t)) / (l2 + 1) - l2 / (l2 + 1) * exp(-l * t);
}

/* Finite-time blow-up y' = y^2: from y(0) = 1, y = 1/(1 - t). */
static int blowup(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx, (void)t;
    yd[0] = y[0] * y[0];
    return 0;
}

/* y' = -lambda y, lambda = *(double *)ctx. */
static int decay(void *ctx, double t, const double *y, double *yd)
{
    (void)t;
    yd[0] = -*(const double *)ctx * y[0];
    return 0;
}

/* A stiff track, y' = -lambda (y - sin t) + cos t: y = sin t from y(0) = 0.  ctx points to
** {lambda, calls}: after 1e6 calls f fails, so that a run that no longer moves ends. */
static int track(void *ctx, double t, const double *y, double *yd)
{
    double *c = ctx;
    if (++c[1] > 1e6) return -1;
    yd[0] = -c[0] * (y[0] - sin(t)) + cos(t);
    return 0;
}

/* y0' = -y0 and the blow-up y1' = y1^2 (infinite at t = 1 from y1 = 1). */
static int decay_blowup(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx, (void)t;
    yd[0] = -y[0];
    yd[1] = y[1] * y[1];
    return 0;
}

/* The oscillator, but f fails after t = 0.5: ctx points to the way it fails. */
enum { BAD_NAN, BAD_NEGATIVE, BAD_POSITIVE };
static int osc_bad(void *ctx, double t, const double *y, double *yd)
{
    osc(NULL, t, y, yd);
    if (t <= 0.5) return 0;
    int how = *(const int *)ctx;
    if (how == BAD_NAN) yd[0] = NAN;
    return how == BAD_NEGATIVE ? -1 : how == BAD_POSITIVE ? 1 : 0;
}

/* y0' = -y0 (smooth) and y1' = 1 - 2 sgn(y1 - 0.5): y1 rises to 0.5 and then would slide
** along y1 = 0.5 (pushed back from both sides), where the step equation of an implicit
** method has no solution. */
static int slide(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx, (void)t;
    yd[0] = -y[0];
    yd[1] = y[1] > 0.5 ? -1 : 3;
    return 0;
}

/* y' = -sqrt(y), y(0) = 1: y = (1 - t/2)^2; f refuses y < 0 with a positive return. */
static int sqrt_decay(void *ctx, double t, const double *y, double *yd)
{
    (void)ctx, (void)t;
    if (y[0] < 0) return 1;
    yd[0] = -sqrt(y[0]);
    return 0;
}

/*
** A stiff second-order system with other states: y = (q[0..CN), v[0..CN), w0, w1), CN unit
** masses in a row between two walls, joined by springs of stiffness 1e4 and dampers of 20
** (modes up to 200 rad/s, damped down to ~1/(40 s) for the slowest, -80 1/s for the fastest),
** a hardening spring -1e6 q0^3 on the first mass; w0' = sum v^2 is a quadrature (nothing
** depends on it) and w1' = -50 w1 + q0 a first-order lag that pushes the last mass with
** 1e3 w1.  q' = v exactly: second_order = CN.
*/
#define CN 6
#define CK 1e4
#define CC 20
static int chain(void *ctx, double t, const double *y, double *yd)
{
    (void)t;
    if (ctx) ++*(long *)ctx;
    const double *q = y, *v = y + CN, *w = y + 2 * CN;
    for (int i = 0; i < CN; i++) {
        double ql = i > 0 ? q[i - 1] : 0, qr = i < CN - 1 ? q[i + 1] : 0;
        double vl = i > 0 ? v[i - 1] : 0, vr = i < CN - 1 ? v[i + 1] : 0;
        yd[i] = v[i];
        yd[CN + i] = CK * (ql - 2 * q[i] + qr) + CC * (vl - 2 * v[i] + vr);
    }
    yd[CN] -= 1e6 * q[0] * q[0] * q[0];
    yd[2 * CN - 1] += 1e3 * w[1];
    yd[2 * CN] = 0;
    for (int i = 0; i < CN; i++) yd[2 * CN] += v[i] * v[i];
    yd[2 * CN + 1] = -50 * w[1] + q[0];
    return 0;
}

/* ---- helpers ----------------------------------------------------------------------- */

static mech_integ *make(mech_method m, double h, int fixed, double tol, int n, mech_rhs_fn f)
{
    mech_integ_options o = mech_integ_default_options();
    o.method = m;
    o.h = h;
    o.fixed = fixed;
    o.rtol = o.atol = tol;
    mech_integ *ig = NULL;
    mech_error err;
    if (mech_integ_create(&ig, n, &o, f, NULL, &err)) diag("create: %s", err.msg);
    return ig;
}

static int start(mech_integ *ig, double t0, const double *y0)
{
    mech_error err;
    if (!ig) return -1;
    if (mech_integ_init(ig, t0, y0, &err)) {
        diag("init: %s", err.msg);
        return -1;
    }
    return 0;
}

/* Integrates to t_end; returns the status of the first failing step. */
static mech_status run_to(mech_integ *ig, double t_end, mech_error *err)
{
    while (mech_integ_time(ig) < t_end) {
        mech_status st = mech_integ_step(ig, t_end, err);
        if (st) return st;
    }
    return MECH_OK;
}

/* Oscillator over [0, 10]: max error of both components at t = 10 (NAN on failure). */
static double osc_error(mech_method m, double h, int fixed, double tol, long *steps)
{
    const double y0[2] = {1, 0};
    mech_integ *ig = make(m, h, fixed, tol, 2, osc);
    mech_error err;
    double e = NAN;
    if (!start(ig, 0, y0) && !run_to(ig, 10, &err)) {
        const double *y = mech_integ_state(ig);
        e = fmax(fabs(y[0] - cos(10.0)), fabs(y[1] + sin(10.0)));
        if (steps) *steps = mech_integ_get_stats(ig).steps;
    }
    mech_integ_free(ig);
    return e;
}

/*
** Oscillator with fixed steps over [0, 2]: the largest error of the dense output against
** the exact solution at theta = 1/4, 1/2, 3/4 of every step; *ends is set to 0 when the
** dense output at a step end differs from the step value (bit for bit).
*/
static double dense_error(mech_method m, double h, int *ends)
{
    const double y0[2] = {1, 0};
    mech_integ *ig = make(m, h, 1, 1e-6, 2, osc);
    mech_error err;
    double e = 0, prev[2] = {1, 0}, y[2];
    if (start(ig, 0, y0)) return NAN;
    while (mech_integ_time(ig) < 2) {
        if (mech_integ_step(ig, 2, &err)) {
            e = NAN;
            break;
        }
        double t0 = mech_integ_prev_time(ig), t1 = mech_integ_time(ig);
        for (int j = 1; j <= 3; j++) {
            double t = t0 + j * (t1 - t0) / 4;
            mech_integ_dense(ig, t, y);
            e = fmax(e, fmax(fabs(y[0] - cos(t)), fabs(y[1] + sin(t))));
        }
        const double *s = mech_integ_state(ig);
        mech_integ_dense(ig, t1, y);
        *ends &= y[0] == s[0] && y[1] == s[1];
        mech_integ_dense(ig, t0, y);
        *ends &= y[0] == prev[0] && y[1] == prev[1];
        memcpy(prev, s, sizeof prev);
    }
    mech_integ_free(ig);
    return e;
}

static double order(double e_h, double e_h2)
{
    return log2(e_h / e_h2);
}

static const char *mname[] = {"rk4", "dopri5", "bdf"};

/* Integrator for the event tests: RK4 and DOPRI5 as given; BDF at tight tolerances. */
static mech_integ *make_ev(mech_method m, double h, double hmax, mech_rhs_fn f, int nev,
                           mech_event_fn g, const int *dir)
{
    mech_integ_options o = mech_integ_default_options();
    o.method = m;
    o.h = m == MECH_RK4 ? h : 0;
    o.hmax = hmax;
    o.rtol = m == MECH_BDF ? 1e-10 : 1e-8;
    o.atol = m == MECH_BDF ? 1e-12 : 1e-10;
    mech_integ *ig = NULL;
    mech_error err;
    if (mech_integ_create(&ig, 2, &o, f, NULL, &err) ||
        mech_integ_set_events(ig, nev, g, dir, &err))
        diag("create: %s", err.msg);
    return ig;
}

/* Steps until the first event or t_end; returns the event count of that step. */
static int step_to_event(mech_integ *ig, double t_end, const mech_integ_event **ev)
{
    mech_error err;
    while (mech_integ_time(ig) < t_end) {
        if (mech_integ_step(ig, t_end, &err)) {
            diag("step: %s", err.msg);
            return -1;
        }
        int k = mech_integ_events(ig, ev);
        if (k) return k;
    }
    return 0;
}

/* Time t in a message "... t = <number> ...", or NAN. */
static double time_in(const char *msg)
{
    const char *p = strstr(msg, "t = ");
    return p ? strtod(p + 4, NULL) : NAN;
}

/* ---- tests ------------------------------------------------------------------------- */

static void test_names_and_defaults(void)
{
    is_str(mech_method_name(MECH_RK4), "rk4", "method name rk4");
    is_str(mech_method_name(MECH_DOPRI5), "dopri5", "method name dopri5");
    is_str(mech_method_name(MECH_BDF), "bdf", "method name bdf");
    mech_integ_options o = mech_integ_default_options();
    ok(o.method == MECH_RK4 && o.rtol == 1e-6 && o.atol == 1e-9 && o.h == 0 && o.event_tol == 0 &&
           o.hmax == 0 && !o.fixed && !o.atol_vec && o.second_order == 0,
       "default options: rk4, rtol 1e-6, atol 1e-9, h 0, event_tol 0, second_order 0");
}

/*
** Convergence orders on the oscillator over [0, 10].  Errors stay far above rounding
** (smallest: RK4 h = 0.0125 ~ 2e-9, DOPRI5 h = 0.025 ~ 2e-11, against ~1e-13 of
** accumulated rounding over 800 steps), so log2 of successive ratios is the order plus
** the effect of the next error term, O(h): measured 4.01 ... 4.03 and 5.04 ... 5.10,
** decreasing towards 4 and 5 as h shrinks.  The windows [3.8, 4.2] and [4.8, 5.3] allow
** twice that deviation and are far from the neighbouring orders.
*/
static void test_orders(void)
{
    double e[4];
    const double hr[4] = {0.1, 0.05, 0.025, 0.0125};
    for (int i = 0; i < 4; i++) e[i] = osc_error(MECH_RK4, hr[i], 1, 1e-6, NULL);
    for (int i = 0; i < 3; i++) {
        double p = order(e[i], e[i + 1]);
        diag("rk4 h = %g: error %.3e, observed order %.3f", hr[i], e[i], p);
        ok(p >= 3.8 && p <= 4.2, "rk4 observed order in [3.8, 4.2]");
    }
    const double hd[4] = {0.2, 0.1, 0.05, 0.025};
    for (int i = 0; i < 4; i++) e[i] = osc_error(MECH_DOPRI5, hd[i], 1, 1e-6, NULL);
    for (int i = 0; i < 3; i++) {
        double p = order(e[i], e[i + 1]);
        diag("dopri5 fixed h = %g: error %.3e, observed order %.3f", hd[i], e[i], p);
        ok(p >= 4.8 && p <= 5.3, "dopri5 observed order in [4.8, 5.3]");
    }
}

/*
** Adaptive DOPRI5 on the oscillator.  At rtol = atol = 1e-10 the local errors are ~1e-10
** per step and the global error after 1.6 periods a few times that (measured 3e-10):
** < 1e-8 leaves a factor 30 of margin, yet fails if the tolerance is not obeyed (at the
** default rtol 1e-6 the error is ~3e-6).  Tolerance proportionality: with local extrapolation the
*global error of
** DOPRI5 scales about like tol (Hairer I, II.4), so the slope of log(error) against
** log(tol) over tol = 1e-5 ... 1e-9 must be within [0.75, 1.15] (ideal 1; the safety
** factor and the error of the estimate blur it by about +-0.1).
*/
static void test_adaptive(void)
{
    long steps = 0;
    double e = osc_error(MECH_DOPRI5, 0, 0, 1e-10, &steps);
    diag("dopri5 tol 1e-10: error %.3e in %ld steps", e, steps);
    ok(e < 1e-8, "dopri5 adaptive, tol 1e-10: error at t = 10 below 1e-8");
    double e5 = osc_error(MECH_DOPRI5, 0, 0, 1e-5, NULL);
    double e7 = osc_error(MECH_DOPRI5, 0, 0, 1e-7, NULL);
    double e9 = osc_error(MECH_DOPRI5, 0, 0, 1e-9, NULL);
    double s1 = log10(e5 / e7) / 2, s2 = log10(e7 / e9) / 2;
    diag("dopri5 errors at tol 1e-5, 1e-7, 1e-9: %.3e %.3e %.3e (slopes %.3f %.3f)", e5, e7, e9, s1,
         s2);
    ok(s1 >= 0.75 && s1 <= 1.15, "dopri5 error scales with tol (1e-5 to 1e-7)");
    ok(s2 >= 0.75 && s2 <= 1.15, "dopri5 error scales with tol (1e-7 to 1e-9)");

    /* hmax is honoured: over [0, 1] with hmax = 0.01 at least 100 steps, none longer */
    mech_integ_options o = mech_integ_default_options();
    o.method = MECH_DOPRI5;
    o.hmax = 0.01;
    mech_integ *ig = NULL;
    mech_error err;
    const double y0[2] = {1, 0};
    double hbig = 0;
    if (!mech_integ_create(&ig, 2, &o, osc, NULL, &err) && !start(ig, 0, y0)) {
        while (mech_integ_time(ig) < 1 && !mech_integ_step(ig, 1, &err))
            hbig = fmax(hbig, mech_integ_time(ig) - mech_integ_prev_time(ig));
    }
    /* a step t + 0.01 - t may round up by an ulp of t: 1e-15 of slack */
    ok(ig && mech_integ_time(ig) == 1 && hbig <= 0.01 + 1e-15 &&
           mech_integ_get_stats(ig).steps >= 100,
       "dopri5 honours hmax");
    mech_integ_free(ig);
}

/*
** Dense output.  RK4: cubic Hermite between fourth-order step values, error O(h^4);
** DOPRI5: the continuous extension of order 4, local error O(h^5), on top of global errors
** O(h^5), so O(h^5).  Halving h must divide the largest error by 2^p with p within 0.4
** of the order (the interpolation error's leading term is exact in h; the step values'
** error adds a different constant, which makes the ratio drift a little at large h).
** Errors are 2e-6 ... 2e-10, well above rounding.  Step ends are returned bit for bit.
*/
static void test_dense(void)
{
    int ends = 1;
    double r1 = dense_error(MECH_RK4, 0.1, &ends), r2 = dense_error(MECH_RK4, 0.05, &ends);
    double d1 = dense_error(MECH_DOPRI5, 0.1, &ends), d2 = dense_error(MECH_DOPRI5, 0.05, &ends);
    diag("dense rk4: %.3e %.3e order %.3f; dopri5: %.3e %.3e order %.3f", r1, r2, order(r1, r2), d1,
         d2, order(d1, d2));
    ok(fabs(order(r1, r2) - 4) <= 0.4, "rk4 Hermite dense output is fourth order");
    ok(r1 < 1e-5, "rk4 dense output error at h = 0.1 is small (h^4/384*10 ~ 3e-6)");
    ok(fabs(order(d1, d2) - 5) <= 0.4, "dopri5 continuous extension is O(h^5)");
    ok(ends, "dense output returns the step values exactly at both ends");

    /* outside the last step it refuses */
    mech_integ *ig = make(MECH_RK4, 0.1, 0, 1e-6, 2, osc);
    const double y0[2] = {1, 0};
    double y[2];
    mech_error err;
    if (!start(ig, 0, y0)) mech_integ_step(ig, 1, &err);
    ok(ig && mech_integ_dense(ig, 0.2, y) == MECH_ERR_ARG &&
           mech_integ_dense(ig, -0.01, y) == MECH_ERR_ARG &&
           mech_integ_dense(ig, 0.05, y) == MECH_OK,
       "dense output outside the last step is MECH_ERR_ARG");
    mech_integ_free(ig);
}

/*
** Free fall from 10 m: y = 0 at sqrt(2*10/G).  RK4 and DOPRI5 are exact for this
** quadratic solution (their order exceeds 2, and so do the Hermite and continuous
** extensions), so the time is found to the event tolerance 1e-12*max(1, t): 1e-10 is
** a safe bound.  BDF at rtol 1e-10 carries its local errors into the state: ~1e-10
** relative, ~1e-9 m at 10 m, which at v ~ 14 m/s is ~1e-10 s: bound 1e-8 (measured 6e-11).
** The truncated state is then within |v| * (time bound) of the exact one at the exact time.
*/
static void test_events(void)
{
    const double tfall = sqrt(2 * 10 / G), vfall = -sqrt(2 * G * 10);
    const double y0[2] = {10, 0};
    const double tol[3] = {1e-10, 1e-10, 1e-8};
    for (int m = 0; m < 3; m++) {
        mech_integ *ig = make_ev((mech_method)m, 0.1, 0, fall, 1, g_pos, NULL);
        const mech_integ_event *ev = NULL;
        char name[100];
        int k = start(ig, 0, y0) ? -1 : step_to_event(ig, 10, &ev);
        snprintf(name, sizeof name, "%s: free fall hits y = 0 at sqrt(2h/g)", mname[m]);
        ok(k == 1 && ev[0].index == 0 && ev[0].direction == -1, name);
        if (k == 1) {
            snprintf(name, sizeof name, "%s: event time (error %.1e)", mname[m], ev[0].t - tfall);
            is_num(ev[0].t, tfall, tol[m], name);
            ok(ev[0].t >= mech_integ_prev_time(ig) && ev[0].t <= mech_integ_time(ig),
               "event time is inside the last step");
            double t = ev[0].t, y[2];
            mech_integ_dense(ig, t, y);
            ok(y[0] <= 0, "at the event time g already has its new sign");
            /* truncation: the state at the event, redone from the step start (exact for
            ** RK4/DOPRI5 here; BDF interpolates), so y is within |v| * time error */
            mech_error err;
            ok(mech_integ_truncate(ig, t, &err) == MECH_OK && mech_integ_time(ig) == t &&
                   mech_integ_events(ig, NULL) == 0,
               "truncate moves to the event and clears the events");
            const double *s = mech_integ_state(ig);
            snprintf(name, sizeof name, "%s: truncated height ~ 0 (%.1e)", mname[m], s[0]);
            is_num(s[0], 0, 15 * tol[m], name);
            snprintf(name, sizeof name, "%s: truncated velocity -sqrt(2 g h) (error %.1e)",
                     mname[m], s[1] - vfall);
            is_num(s[1], vfall, 10 * tol[m], name);
        }
        mech_integ_free(ig);
    }
}

/*
** Direction filtering on the oscillator x = cos t over [0, 12]: x crosses zero falling
** at pi/2, 5pi/2 and rising at 3pi/2, 7pi/2.  DOPRI5 at tol 1e-8 gives times to ~1e-8
** (the state error divided by |x'| = 1): bound 1e-6.
*/
static void test_directions(void)
{
    const double y0[2] = {1, 0};
    const int want[3][4] = {{1, 3, 5, 7}, {3, 7, 0, 0}, {1, 5, 0, 0}}; /* multiples of pi/2 */
    const int nwant[3] = {4, 2, 2}, dirs[3] = {0, 1, -1};
    for (int c = 0; c < 3; c++) {
        mech_integ *ig = make_ev(MECH_DOPRI5, 0, 0, osc, 1, g_pos, &dirs[c]);
        int n = 0, good = 1;
        mech_error err;
        if (start(ig, 0, y0)) good = 0;
        while (good && mech_integ_time(ig) < 12) {
            if (mech_integ_step(ig, 12, &err)) good = 0;
            const mech_integ_event *ev;
            int k = mech_integ_events(ig, &ev);
            for (int j = 0; j < k; j++, n++) {
                int expect_dir = want[c][n % 4] % 4 == 1 ? -1 : 1;
                good &= n < nwant[c] && fabs(ev[j].t - want[c][n] * PI / 2) < 1e-6 &&
                        ev[j].direction == expect_dir;
            }
        }
        char name[100];
        snprintf(name, sizeof name, "direction %+d: %d crossings, right times and signs", dirs[c],
                 nwant[c]);
        ok(good && n == nwant[c], name);
        mech_integ_free(ig);
    }
}

/*
** Truncating to each event and going on (no reinit) reports every crossing once: x = cos t
** has 32 zeros in [0, 100], at (j + 1/2) pi.  The state after truncation must be on the
** new side (d*x >= 0), which for DOPRI5 needs the event time checked against the redone
** step (its dense output differs from it by the local error).  Default tolerances: the
** times are off by the global error at t <= 100 (RK4 h = 0.1: 7e-6 per 10 s, DOPRI5 and BDF
** at rtol 1e-6: a few 1e-5 at most): bound 1e-3.
*/
static void test_truncate_continue(void)
{
    const double y0[2] = {1, 0};
    for (int m = 0; m < 3; m++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = (mech_method)m;
        o.h = m == MECH_RK4 ? 0.1 : 0;
        mech_integ *ig = NULL;
        mech_error err;
        int n = 0, side = 1;
        double worst = 0;
        if (mech_integ_create(&ig, 2, &o, osc, NULL, &err) ||
            mech_integ_set_events(ig, 1, g_pos, NULL, &err) || start(ig, 0, y0))
            diag("%s", err.msg);
        else
            while (mech_integ_time(ig) < 100 && !mech_integ_step(ig, 100, &err)) {
                const mech_integ_event *ev;
                if (!mech_integ_events(ig, &ev)) continue;
                worst = fmax(worst, fabs(ev[0].t - (n + 0.5) * PI));
                n++;
                if (mech_integ_truncate(ig, ev[0].t, &err)) break;
                side &= ev[0].direction * mech_integ_state(ig)[0] >= 0;
            }
        char name[120];
        snprintf(name, sizeof name, "%s: truncate and go on: 32 crossings, each once (%d)",
                 mname[m], n);
        ok(n == 32 && mech_integ_time(ig) == 100, name);
        ok(side, "the truncated state is on the new side of every crossing");
        snprintf(name, sizeof name, "the crossing times are right (worst %.1e)", worst);
        ok(worst < 1e-3, name);
        mech_integ_free(ig);
    }
}

/*
** Two functions crossing at the same instant, x = cos t and x + 1e-15, 32 times each in
** [0, 100]: the caller delivers the events up to the earliest and truncates there, as
** mech_simulate does for a contact's onset; the other crossing, located a hair later, has
** either crossed already at the truncated state (listed again, at that time) or not (found
** by the next step).  Each crossing is delivered once and counted once.
*/
static void test_truncate_tie(void)
{
    const double y0[2] = {1, 0};
    for (int m = 0; m < 3; m++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = (mech_method)m;
        o.h = m == MECH_RK4 ? 0.1 : 0;
        mech_integ *ig = NULL;
        mech_error err;
        int n[2] = {0, 0}, late = 0;
        if (mech_integ_create(&ig, 2, &o, osc, NULL, &err) ||
            mech_integ_set_events(ig, 2, g_tie, NULL, &err) || start(ig, 0, y0))
            diag("%s", err.msg);
        else
            while (mech_integ_time(ig) < 100 && !mech_integ_step(ig, 100, &err)) {
                const mech_integ_event *ev;
                int k = mech_integ_events(ig, &ev);
                if (!k) continue;
                double tc = ev[0].t;
                for (int j = 0; j < k; j++)
                    if (ev[j].t <= tc) n[ev[j].index]++;
                if (mech_integ_truncate(ig, tc, &err)) break;
                k = mech_integ_events(ig, &ev);
                for (int j = 0; j < k; j++, late++) n[ev[j].index] += ev[j].t == tc;
            }
        char name[160];
        snprintf(name, sizeof name,
                 "%s: two crossings at one instant, each delivered once (%d and %d of 32, %d "
                 "listed after the truncation), counted once (%ld)",
                 mname[m], n[0], n[1], late, ig ? mech_integ_get_stats(ig).events : -1);
        ok(n[0] == 32 && n[1] == 32 && mech_integ_time(ig) == 100 &&
               mech_integ_get_stats(ig).events == 64,
           name);
        mech_integ_free(ig);
    }
}

/*
** Locating events must not disturb the integration: the same run with and without an
** event function (3 crossings in [0, 10]) takes the same steps to the same state, bit
** for bit, with each method.
*/
static void test_events_passive(void)
{
    const double y0[2] = {1, 0};
    for (int m = 0; m < 3; m++) {
        double y[2][2] = {{NAN, NAN}, {NAN, 0}};
        long steps[2] = {-1, -2}, nev = 0;
        for (int with = 0; with < 2; with++) {
            mech_integ *ig = make_ev((mech_method)m, 0.1, 0, osc, with, g_pos, NULL);
            mech_error err;
            if (!start(ig, 0, y0) && !run_to(ig, 10, &err)) {
                memcpy(y[with], mech_integ_state(ig), sizeof y[with]);
                steps[with] = mech_integ_get_stats(ig).steps;
                if (with) nev = mech_integ_get_stats(ig).events;
            }
            mech_integ_free(ig);
        }
        char name[100];
        snprintf(name, sizeof name, "%s: %ld events change nothing (%ld steps)", mname[m], nev,
                 steps[0]);
        ok(nev == 3 && steps[0] == steps[1] && y[0][0] == y[1][0] && y[0][1] == y[1][1], name);
    }
}

/*
** A root at the start is not an event: a ball thrown up at 5 m/s from y = 0 (g = 0 at
** t = 0) reports only its return at 2*5/G, falling (RK4 exact: bound 1e-10).
*/
static void test_start_on_root(void)
{
    const double y0[2] = {0, 5};
    mech_integ *ig = make_ev(MECH_RK4, 0.1, 0, fall, 1, g_pos, NULL);
    const mech_integ_event *ev = NULL;
    int k = start(ig, 0, y0) ? -1 : step_to_event(ig, 2, &ev);
    ok(k == 1 && ev[0].direction == -1 && mech_integ_get_stats(ig).events == 1,
       "starting on g = 0 reports no event; the return is the first one");
    if (k == 1) is_num(ev[0].t, 2 * 5 / G, 1e-10, "at 2 v0 / g");
    mech_integ_free(ig);
}

/*
** Two events in one RK4 step of 1.2 s from 10 m: height 6 at sqrt(8/G) (index 1) comes
** before height 5 at sqrt(10/G) (index 0).  Exact dense output: bound 1e-10.
*/
static void test_two_events(void)
{
    const double y0[2] = {10, 0};
    mech_integ *ig = make_ev(MECH_RK4, 1.2, 0, fall, 2, g_two, NULL);
    const mech_integ_event *ev = NULL;
    int k = start(ig, 0, y0) ? -1 : step_to_event(ig, 10, &ev);
    ok(k == 2 && mech_integ_time(ig) == 1.2, "two events in the first step");
    if (k == 2) {
        ok(ev[0].index == 1 && ev[1].index == 0, "sorted by time, not by index");
        is_num(ev[0].t, sqrt(8 / G), 1e-10, "first: height 6");
        is_num(ev[1].t, sqrt(10 / G), 1e-10, "second: height 5");
        ok(mech_integ_get_stats(ig).events == 2, "stats count 2 events");
    }
    mech_integ_free(ig);
}

/*
** Bouncing ball: falls from 10 m, each impact reverses the velocity with restitution
** e = 0.9 (truncate to the event, reinit with v -> -e v).  Closed form: first impact at
** t1 = sqrt(2*10/G) with speed v1 = G*t1, then t_{k+1} = t_k + 2 e^k v1 / G.  The
** errors of successive impacts add up (each a few event tolerances for RK4/DOPRI5, ~1e-10
** for BDF): bounds 1e-9 and 1e-8 over five bounces (measured 2e-11 and 5e-10).  Events
** are seen through the signs of g at step ends, so a step must not span a whole flight
** (up and down again): hmax = 0.5 s, below the shortest flight here (2 e^4 v1/G = 1.87 s).
** Without it DOPRI5, whose error estimate is 0 on this quadratic solution, grows its step
** past t = 100 at once.
*/
static void test_bounce(void)
{
    const double e = 0.9, t1 = sqrt(2 * 10 / G), v1 = G * t1;
    const double tol[3] = {1e-9, 1e-9, 1e-8};
    const int down = -1;
    for (int m = 0; m < 3; m++) {
        mech_integ *ig = make_ev((mech_method)m, 0.01, 0.5, fall, 1, g_pos, &down);
        const double y0[2] = {10, 0};
        double want = t1, worst = 0;
        int bounces = 0;
        if (!start(ig, 0, y0)) {
            for (; bounces < 5; bounces++) {
                const mech_integ_event *ev;
                mech_error err;
                if (step_to_event(ig, 100, &ev) != 1) break;
                if (mech_integ_truncate(ig, ev[0].t, &err)) break;
                const double *s = mech_integ_state(ig);
                double y[2] = {s[0], -e * s[1]};
                worst = fmax(worst, fabs(ev[0].t - want));
                if (mech_integ_reinit(ig, ev[0].t, y, &err)) break;
                want += 2 * pow(e, bounces + 1) * v1 / G;
            }
        }
        char name[100];
        snprintf(name, sizeof name, "%s: five bounces at the closed-form times (worst %.1e)",
                 mname[m], worst);
        ok(bounces == 5 && worst <= tol[m], name);
        mech_integ_free(ig);
    }
}

/*
** Stiff problem y' = -1000 (y - cos t) over [0, 10] at rtol = atol = 1e-6.  DOPRI5 is
** held to h < 3.3/1000 by stability (>= 3000 steps); BDF follows the slow solution with
** steps limited by accuracy only: fewer than a tenth.  Both end within 1e-5 of the exact
** value (a few tolerances of global error).
*/
static void test_stiff(void)
{
    long sd = 0, sb = 0;
    double yd = NAN, yb = NAN;
    const double y0[1] = {0};
    for (int m = 1; m <= 2; m++) {
        mech_integ *ig = make((mech_method)m, 0, 0, 1e-6, 1, stiff);
        mech_error err;
        if (!start(ig, 0, y0) && !run_to(ig, 10, &err)) {
            *(m == 1 ? &yd : &yb) = mech_integ_state(ig)[0];
            *(m == 1 ? &sd : &sb) = mech_integ_get_stats(ig).steps;
        }
        mech_integ_free(ig);
    }
    diag("stiff: dopri5 %ld steps (error %.2e), bdf %ld steps (error %.2e)", sd,
         yd - stiff_exact(10), sb, yb - stiff_exact(10));
    ok(sb > 0 && sb * 10 < sd, "bdf takes fewer than a tenth of dopri5's steps");
    is_num(yb, stiff_exact(10), 1e-5, "bdf solution at t = 10");
    is_num(yd, stiff_exact(10), 1e-5, "dopri5 solution at t = 10");
}

/*
** BDF on the chain with second_order = 0 (Newton systems of size 14) and = 6 (size 8, on
** the velocities and the other states): the same method, whose Newton matrices and
** corrections differ only by rounding (the exact q' = v rows of the Jacobian against their
** difference quotients, ~1e-8 relative, and the block elimination).  The Newton iteration
** stops at a fraction of the error-test tolerance, so the two solutions may differ by a few
** rtol in the states that the tolerance controls: at rtol 1e-10 they must agree to 1e-8 of
** each component's scale (the largest magnitude it reaches; measured ~1e-10), with step
** counts within 5% of each other (measured: equal or within a few steps).
*/
static void test_second_order(void)
{
    const int N = 2 * CN + 2;
    double y0[2 * CN + 2] = {0}, ya[2 * CN + 2], yb[2 * CN + 2], scale[2 * CN + 2] = {0};
    for (int i = 0; i < CN; i++) y0[i] = 0.01 * (i + 1);
    y0[CN + 2] = -1;
    mech_integ_stats st[2];
    long calls[2] = {0, 0}, before = -1, after = -2;
    for (int k = 0; k < 2; k++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = MECH_BDF;
        o.rtol = 1e-10;
        o.atol = 1e-12;
        o.second_order = k ? CN : 0;
        mech_integ *ig = NULL;
        mech_error err;
        double *y = k ? yb : ya;
        memset(y, 0, sizeof ya);
        if (mech_integ_create(&ig, N, &o, chain, &calls[k], &err) || start(ig, 0, y0)) {
            diag("create: %s", err.msg);
            mech_integ_free(ig);
            continue;
        }
        if (k) before = mech_alloc_count();
        mech_status s = MECH_OK;
        while (!s && mech_integ_time(ig) < 2) {
            s = mech_integ_step(ig, 2, &err);
            const double *yi = mech_integ_state(ig);
            for (int i = 0; i < N; i++) scale[i] = fmax(scale[i], fabs(yi[i]));
        }
        if (k) after = mech_alloc_count();
        if (s)
            diag("%s", err.msg);
        else
            memcpy(y, mech_integ_state(ig), sizeof ya);
        st[k] = mech_integ_get_stats(ig);
        mech_integ_free(ig);
    }
    double worst = 0;
    int at = -1;
    for (int i = 0; i < N; i++) {
        double d = fabs(ya[i] - yb[i]) / scale[i];
        if (!(d <= worst)) worst = d, at = i;
    }
    diag("second_order 0: %ld steps, %ld rejected, %ld evaluations, %ld Jacobians", st[0].steps,
         st[0].rejected, st[0].rhs_evals, st[0].jac_evals);
    diag("second_order %d: %ld steps, %ld rejected, %ld evaluations, %ld Jacobians", CN,
         st[1].steps, st[1].rejected, st[1].rhs_evals, st[1].jac_evals);
    diag("largest difference %.3g of the component's scale (component %d)", worst, at);
    ok(worst <= 1e-8, "bdf chain: second_order = n gives the solution of second_order = 0");
    ok(st[0].steps > 100 && labs(st[1].steps - st[0].steps) <= st[0].steps / 20,
       "and about as many steps");
    ok(st[1].rhs_evals == calls[1] && st[1].jac_evals > 0,
       "its evaluations are counted (Jacobians included)");
    ok(before >= 0 && after == before, "nothing allocated while stepping with second_order");

    /* the oscillator is second_order = 1 with no other state */
    long steps[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const double y1[2] = {1, 0};
        mech_integ_options o = mech_integ_default_options();
        o.method = MECH_BDF;
        o.rtol = o.atol = 1e-8;
        o.second_order = k;
        mech_integ *ig = NULL;
        mech_error err;
        double *y = k ? yb : ya;
        y[0] = y[1] = NAN;
        if (!mech_integ_create(&ig, 2, &o, osc, NULL, &err) && !start(ig, 0, y1) &&
            !run_to(ig, 10, &err)) {
            memcpy(y, mech_integ_state(ig), 2 * sizeof(double));
            steps[k] = mech_integ_get_stats(ig).steps;
        }
        mech_integ_free(ig);
    }
    /* global error ~100 tol (see test_stats): the two differ by far less */
    ok(fabs(ya[0] - yb[0]) <= 1e-7 && fabs(ya[1] - yb[1]) <= 1e-7 &&
           labs(steps[0] - steps[1]) <= steps[0] / 20,
       "bdf oscillator: second_order = 1 (no other state) as second_order = 0");
    is_num(yb[0], cos(10.0), 1e-5, "and it is the solution");
}

/* Failures of the right-hand side: NaN, negative and positive returns, blow-up. */
static void test_failures(void)
{
    const double y0[2] = {1, 0};
    for (int m = 0; m < 3; m++) {
        for (int how = BAD_NAN; how <= BAD_NEGATIVE; how++) {
            mech_integ_options o = mech_integ_default_options();
            o.method = (mech_method)m;
            o.h = m == MECH_RK4 ? 0.1 : 0;
            mech_integ *ig = NULL;
            mech_error err = {0};
            mech_status st = mech_integ_create(&ig, 2, &o, osc_bad, &how, &err);
            double tb = NAN, yb[2] = {NAN, NAN};
            if (!st) st = mech_integ_init(ig, 0, y0, &err);
            while (!st && mech_integ_time(ig) < 2) {
                tb = mech_integ_time(ig);
                memcpy(yb, mech_integ_state(ig), sizeof yb);
                st = mech_integ_step(ig, 2, &err);
            }
            char name[700];
            mech_status want = how == BAD_NAN ? MECH_ERR_NUMERIC : MECH_ERR_CALLBACK;
            snprintf(name, sizeof name, "%s: f %s -> %s (%s)", mname[m],
                     how == BAD_NAN ? "gives NaN" : "returns -1", mech_status_name(want), err.msg);
            ok(st == want, name);
            ok(ig && mech_integ_time(ig) == tb && mech_integ_state(ig)[0] == yb[0] &&
                   mech_integ_state(ig)[1] == yb[1] && tb <= 0.5,
               "after the failure the state is the last accepted one");
            if (how == BAD_NEGATIVE)
                ok(strstr(err.msg, "right-hand side failed") != NULL, "message says f failed");
            else
                ok(strstr(err.msg, "non-finite") && time_in(err.msg) > 0.5,
                   "message says non-finite and names a time after 0.5");
            mech_integ_free(ig);
        }
    }

    /* a positive return: RK4 cannot take a smaller step; DOPRI5 and BDF retry */
    int how = BAD_POSITIVE;
    mech_integ_options o = mech_integ_default_options();
    o.h = 0.1;
    mech_integ *ig = NULL;
    mech_error err;
    mech_status st = mech_integ_create(&ig, 2, &o, osc_bad, &how, &err);
    if (!st) st = mech_integ_init(ig, 0, y0, &err);
    if (!st) st = run_to(ig, 2, &err);
    ok(st == MECH_ERR_CALLBACK, "rk4: f returns +1 -> MECH_ERR_CALLBACK");
    mech_integ_free(ig);

    /* a sliding mode: y1 reaches 0.5 at t = 1/6; BDF creeps along it with ever smaller
    ** steps until its error test gives up, and names component 1 */
    {
        o = mech_integ_default_options();
        o.method = MECH_BDF;
        ig = NULL;
        const double ys[2] = {1, 0};
        st = mech_integ_create(&ig, 2, &o, slide, NULL, &err);
        if (!st) st = mech_integ_init(ig, 0, ys, &err);
        if (!st) st = run_to(ig, 2, &err);
        char m2[800];
        snprintf(m2, sizeof m2, "bdf: a sliding mode -> %s naming component %d (%s)",
                 mech_status_name(st), mech_integ_fault(ig), err.msg);
        ok(st == MECH_ERR_CONVERGENCE && mech_integ_fault(ig) == 1 && time_in(err.msg) > 1.0 / 6,
           m2);
        mech_integ_free(ig);
    }

    /* a failure inside CVODE is reported with its flag: tolerances below the precision */
    o = mech_integ_default_options();
    o.method = MECH_BDF;
    o.rtol = o.atol = 1e-30;
    ig = NULL;
    st = mech_integ_create(&ig, 2, &o, osc, NULL, &err);
    if (!st) st = mech_integ_init(ig, 0, y0, &err);
    if (!st) st = run_to(ig, 2, &err);
    char msg[700];
    snprintf(msg, sizeof msg, "bdf: rtol = 1e-30 -> %s (%s)", mech_status_name(st), err.msg);
    ok(st == MECH_ERR_STEPSIZE && strstr(err.msg, "CV_TOO_MUCH_ACC") && time_in(err.msg) == 0, msg);
    mech_integ_free(ig);

    /* f asks for smaller steps forever after t = 0.5: both adaptive methods shrink the step
    ** until it no longer moves t (DOPRI5 halves it; CVODE cuts it after each failure and
    ** would go on with steps that leave t unchanged) */
    for (int m = 1; m <= 2; m++) {
        o = mech_integ_default_options();
        o.method = (mech_method)m;
        ig = NULL;
        st = mech_integ_create(&ig, 2, &o, osc_bad, &how, &err);
        if (!st) st = mech_integ_init(ig, 0, y0, &err);
        if (!st) st = run_to(ig, 2, &err);
        double t = time_in(err.msg);
        char name[700];
        snprintf(name, sizeof name, "%s: f returns +1 for t > 0.5 -> %s (%s)", mname[m],
                 mech_status_name(st), err.msg);
        ok(st == MECH_ERR_STEPSIZE && strstr(err.msg, "step size underflow"), name);
        ok(t >= 0.45 && t <= 0.5 && mech_integ_time(ig) <= 0.5,
           "the failure names a time just before 0.5 and the state stays there");
        mech_integ_free(ig);
    }

    /* y' = -sqrt(y) refuses y < 0; a first step of 4 s overshoots and must be retried.
    ** At t = 1.9, y = 0.0025 = (1 - 0.95)^2.  At tol 1e-8 the global error is a few
    ** 1e-9 (measured 1.5e-9 and 6e-10): bound 1e-7, as the derivatives of sqrt(y) grow
    ** near y = 0 and make the error less predictable than on smooth problems. */
    for (int m = 1; m <= 2; m++) {
        o = mech_integ_default_options();
        o.method = (mech_method)m;
        o.h = 4;
        o.rtol = o.atol = 1e-8;
        const double one = 1;
        ig = NULL;
        st = mech_integ_create(&ig, 1, &o, sqrt_decay, NULL, &err);
        if (!st) st = mech_integ_init(ig, 0, &one, &err);
        if (!st) st = run_to(ig, 1.9, &err);
        char name[120];
        snprintf(name, sizeof name, "%s: f returns +1 for y < 0: retried, reaches t = 1.9",
                 mname[m]);
        ok(st == MECH_OK && mech_integ_get_stats(ig).rejected > 0, name);
        if (st) diag("%s", err.msg);
        snprintf(name, sizeof name, "%s: and the solution is right (error %.1e, %ld rejected)",
                 mname[m], ig ? mech_integ_state(ig)[0] - 0.0025 : NAN,
                 ig ? mech_integ_get_stats(ig).rejected : -1);
        is_num(ig ? mech_integ_state(ig)[0] : NAN, 0.0025, 1e-7, name);
        mech_integ_free(ig);
    }

    /* finite-time blow-up at t = 1 */
    for (int m = 1; m <= 2; m++) {
        o = mech_integ_default_options();
        o.method = (mech_method)m;
        const double one = 1;
        ig = NULL;
        st = mech_integ_create(&ig, 1, &o, blowup, NULL, &err);
        if (!st) st = mech_integ_init(ig, 0, &one, &err);
        if (!st) st = run_to(ig, 2, &err);
        char name[700];
        snprintf(name, sizeof name, "%s: y' = y^2 fails near t = 1 (%s: %s)", mname[m],
                 mech_status_name(st), err.msg);
        ok((st == MECH_ERR_STEPSIZE || st == MECH_ERR_NUMERIC) &&
               fabs(time_in(err.msg) - 1) < 1e-3 && fabs(mech_integ_time(ig) - 1) < 1e-3,
           name);
        mech_integ_free(ig);
    }
}

/*
** The stiffness test of the explicit methods.  On y' = -lambda y both estimates of h |lambda|
** are exact (RK4's stages 2 and 3 differ by h/2 lambda (k2 - k1), DOPRI5's 6 and 7 by
** lambda (yn - ys)): with h lambda = 4, RK4 is beyond its limit 2.75 at every step (and
** unstable), with h lambda = 2 never.
*/
static void test_stiffness(void)
{
    const double one = 1;
    for (int k = 0; k < 2; k++) {
        double lambda = k ? 2 : 4, hl = -1;
        mech_integ_options o = mech_integ_default_options();
        o.h = 1;
        mech_integ *ig = NULL;
        mech_error err;
        int steps = -1;
        if (!mech_integ_create(&ig, 1, &o, decay, &lambda, &err) &&
            !mech_integ_init(ig, 0, &one, &err) && !run_to(ig, 3, &err))
            hl = mech_integ_stiffness(ig, &steps);
        char name[120];
        snprintf(name, sizeof name, "rk4, h lambda = %g: %d stiff steps of 3, h |lambda| %.17g",
                 lambda, steps, hl);
        ok(k ? steps == 0 && hl == 0 : steps == 3 && fabs(hl - 4) < 1e-12, name);
        mech_integ_free(ig);
    }

    /* DOPRI5 on the track with lambda = 1e5 over [0, 1]: held at its stability limit
    ** (h ~ 3.3e-5, ~3e4 steps) it is stiff, but it moves, and goes on to the end */
    double c[2] = {1e5, 0};
    mech_integ_options o = mech_integ_default_options();
    o.method = MECH_DOPRI5;
    mech_integ *ig = NULL;
    mech_error err = {0};
    const double zero = 0;
    int steps = 0;
    double hl = 0;
    mech_status st = mech_integ_create(&ig, 1, &o, track, c, &err);
    if (!st) st = mech_integ_init(ig, 0, &zero, &err);
    if (!st) st = run_to(ig, 1, &err);
    if (!st) hl = mech_integ_stiffness(ig, &steps);
    char name[800];
    snprintf(name, sizeof name,
             "dopri5, lambda = 1e5: stiff (%d steps, h |lambda| up to %.3g), %ld steps, reaches "
             "t = 1 (%s)",
             steps, hl, ig ? mech_integ_get_stats(ig).steps : -1, st ? err.msg : "ok");
    ok(st == MECH_OK && steps >= 15 && hl > 3.25, name);
    is_num(ig ? mech_integ_state(ig)[0] : NAN, sin(1.0), 1e-5, "and its solution is right");
    mech_integ_free(ig);

    /* lambda = 3.3e13: the stability limit h ~ 1e-13 s would take 1e13 steps to t = 1;
    ** DOPRI5 stops once 15 steps in a row are that short, and says why */
    c[0] = 3.3e13, c[1] = 0;
    ig = NULL;
    st = mech_integ_create(&ig, 1, &o, track, c, &err);
    if (!st) st = mech_integ_init(ig, 0, &zero, &err);
    if (!st) st = run_to(ig, 1, &err);
    snprintf(name, sizeof name, "dopri5, lambda = 3.3e13: %s after %ld steps (%s)",
             mech_status_name(st), ig ? mech_integ_get_stats(ig).steps : -1, err.msg);
    ok(st == MECH_ERR_STEPSIZE && strstr(err.msg, "dopri5: the step has collapsed to ") &&
           strstr(err.msg, ": stiff (h |lambda| up to ") &&
           strstr(err.msg, "; use method = \"bdf\"") && mech_integ_fault(ig) == 0 && c[1] < 1e4,
       name);
    mech_integ_free(ig);

    /* every failure names a component: the blow-up of component 1, by DOPRI5 (underflow,
    ** largest error) and by BDF (its own underflow check or CVODE's failure) */
    const double y0[2] = {1, 1};
    for (int m = 1; m <= 2; m++) {
        o = mech_integ_default_options();
        o.method = (mech_method)m;
        ig = NULL;
        st = mech_integ_create(&ig, 2, &o, decay_blowup, NULL, &err);
        if (!st) st = mech_integ_init(ig, 0, y0, &err);
        if (!st) st = run_to(ig, 2, &err);
        snprintf(name, sizeof name, "%s: the blow-up of component 1 names it (%d: %s)", mname[m],
                 mech_integ_fault(ig), err.msg);
        ok(st && mech_integ_fault(ig) == 1, name);
        mech_integ_free(ig);
    }
}

/* Bad options and calls: MECH_ERR_ARG naming the option. */
static void test_options(void)
{
    struct {
        mech_method m;
        int n;
        double h, rtol, atol;
        const char *name, *what;
    } bad[] = {
        {MECH_RK4, 2, 0, 1e-6, 1e-9, "option h ", "rk4 with h = 0"},
        {MECH_RK4, 2, -0.1, 1e-6, 1e-9, "option h ", "rk4 with h < 0"},
        {MECH_RK4, 2, NAN, 1e-6, 1e-9, "option h ", "rk4 with h = NaN"},
        {MECH_DOPRI5, 2, NAN, 1e-6, 1e-9, "option h ", "dopri5 with h = NaN"},
        {MECH_DOPRI5, 2, 0, 0, 1e-9, "option rtol ", "rtol = 0"},
        {MECH_BDF, 2, 0, -1e-6, 1e-9, "option rtol ", "rtol < 0"},
        {MECH_DOPRI5, 2, 0, 1e-6, 0, "option atol ", "atol = 0"},
        {MECH_RK4, 0, 0.1, 1e-6, 1e-9, "n = 0", "n = 0"},
        {MECH_DOPRI5, -3, 0, 1e-6, 1e-9, "n = -3", "n < 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = bad[i].m;
        o.h = bad[i].h;
        o.rtol = bad[i].rtol;
        o.atol = bad[i].atol;
        mech_integ *ig = (mech_integ *)&o; /* must be reset to NULL */
        mech_error err = {0};
        mech_status st = mech_integ_create(&ig, bad[i].n, &o, osc, NULL, &err);
        char name[700];
        snprintf(name, sizeof name, "%s -> MECH_ERR_ARG naming it (%s)", bad[i].what, err.msg);
        ok(st == MECH_ERR_ARG && err.code == MECH_ERR_ARG && !ig && strstr(err.msg, bad[i].name),
           name);
    }
    mech_integ_options o = mech_integ_default_options();
    o.method = MECH_DOPRI5;
    o.fixed = 1;
    mech_integ *ig = NULL;
    mech_error err = {0};
    ok(mech_integ_create(&ig, 2, &o, osc, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "option h "),
       "fixed dopri5 needs h");
    o.h = 0.1;
    ok(mech_integ_create(&ig, 2, &o, osc, NULL, &err) == MECH_OK, "fixed dopri5 with h is fine");
    const double y0[2] = {1, 0}, ybad[2] = {NAN, 0};
    ok(mech_integ_step(ig, 1, &err) == MECH_ERR_STATE, "step before init -> MECH_ERR_STATE");
    ok(mech_integ_init(ig, 0, ybad, &err) == MECH_ERR_ARG,
       "non-finite initial state -> MECH_ERR_ARG");
    ok(mech_integ_init(ig, 0, y0, &err) == MECH_OK, "init");
    ok(mech_integ_step(ig, 0, &err) == MECH_ERR_ARG, "t_stop not after t -> MECH_ERR_ARG");
    ok(mech_integ_set_events(ig, 1, g_pos, NULL, &err) == MECH_ERR_STATE,
       "events after init -> MECH_ERR_STATE");
    ok(mech_integ_step(ig, 1, &err) == MECH_OK &&
           mech_integ_truncate(ig, 0.5, &err) == MECH_ERR_ARG,
       "truncate outside the last step -> MECH_ERR_ARG");
    mech_integ_free(ig);
    struct {
        int n, second_order;
        mech_status want;
    } so[] = {{2, -1, MECH_ERR_ARG}, {4, 3, MECH_ERR_ARG}, {5, 3, MECH_ERR_ARG},
              {5, 2, MECH_OK},       {4, 2, MECH_OK},      {1, 1, MECH_ERR_ARG}};
    for (int m = 1; m <= 2; m++) /* checked for every method, used by BDF */
        for (size_t i = 0; i < sizeof so / sizeof so[0]; i++) {
            mech_integ_options b = mech_integ_default_options();
            b.method = (mech_method)m;
            b.second_order = so[i].second_order;
            ig = (mech_integ *)&b;
            err.msg[0] = '\0';
            mech_status st = mech_integ_create(&ig, so[i].n, &b, osc, NULL, &err);
            char name[700];
            snprintf(name, sizeof name, "%s: second_order = %d with n = %d -> %s (%s)", mname[m],
                     so[i].second_order, so[i].n, mech_status_name(so[i].want), err.msg);
            ok(st == so[i].want && (st ? !ig && strstr(err.msg, "option second_order ") : !!ig),
               name);
            if (!st) mech_integ_free(ig);
        }
}

/*
** Nothing is allocated while stepping: 1000 steps of RK4 and of adaptive DOPRI5 on the
** oscillator with an event function (about 30 events located), dense output at every
** step, and a truncate + reinit at every event.
*/
static void test_allocation(void)
{
    const double y0[2] = {1, 0};
    for (int m = 0; m < 2; m++) {
        mech_integ *ig = make_ev((mech_method)m, 0.1, 0, osc, 1, g_pos, NULL);
        mech_error err;
        long before = -1, nev = 0;
        int steps = 0;
        if (!start(ig, 0, y0)) {
            before = mech_alloc_count();
            for (; steps < 1000; steps++) {
                if (mech_integ_step(ig, 1e6, &err)) break;
                double y[2];
                mech_integ_dense(ig, 0.5 * (mech_integ_prev_time(ig) + mech_integ_time(ig)), y);
                const mech_integ_event *ev;
                if (mech_integ_events(ig, &ev)) {
                    nev++;
                    if (mech_integ_truncate(ig, ev[0].t, &err) ||
                        mech_integ_reinit(ig, ev[0].t, mech_integ_state(ig), &err))
                        break;
                }
            }
        }
        char name[100];
        snprintf(name, sizeof name, "%s: 1000 steps, %ld events, no allocation", mname[m], nev);
        ok(steps == 1000 && nev > 10 && mech_alloc_count() == before, name);
        mech_integ_free(ig);
    }
}

/*
** Statistics.  RK4: 1 evaluation at init, then exactly 4 per step (the fourth is f at the
** step end, reused as the first stage of the next step).  DOPRI5: 1 at init, 1 for the
** initial step estimate, 6 per attempt (FSAL).  BDF: CVODE's counters, which must add up
** to the calls f really saw, also across a reinit (CVodeReInit zeroes CVODE's counters).
*/
static void test_stats(void)
{
    const double y0[2] = {1, 0};
    long calls[3] = {0, 0, 0};
    mech_integ *ig[3] = {NULL, NULL, NULL};
    mech_error err;
    for (int m = 0; m < 3; m++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = (mech_method)m;
        o.h = m == MECH_RK4 ? 0.1 : 0;
        o.rtol = o.atol = 1e-8;
        if (mech_integ_create(&ig[m], 2, &o, osc_count, &calls[m], &err) || start(ig[m], 0, y0) ||
            run_to(ig[m], 5, &err) || mech_integ_reinit(ig[m], 5, mech_integ_state(ig[m]), &err) ||
            run_to(ig[m], 10, &err))
            diag("%s: %s", mname[m], err.msg);
    }
    mech_integ_stats st = mech_integ_get_stats(ig[0]);
    ok(st.steps == 100 && st.rhs_evals == 4 * st.steps + 2 && st.rejected == 0,
       "rk4: 100 steps of 0.1 s to t = 10, 4 evaluations per step + 1 per init/reinit");
    ok(st.rhs_evals == calls[0], "rk4: evaluations counted = calls of f");
    is_num(st.h_last, 0.1, 1e-14, "rk4: h_last");
    is_num(mech_integ_time(ig[0]), 10, 0, "rk4 lands exactly on t_stop");

    st = mech_integ_get_stats(ig[1]);
    diag("dopri5: %ld steps, %ld rejected, %ld evaluations", st.steps, st.rejected, st.rhs_evals);
    ok(st.steps > 10 && st.rhs_evals == 3 + 6 * (st.steps + st.rejected) &&
           st.rhs_evals == calls[1],
       "dopri5: 6 evaluations per attempt, + 2 at init (f and the initial step), + 1 at reinit");
    is_num(mech_integ_time(ig[1]), 10, 0, "dopri5 lands exactly on t_stop");

    st = mech_integ_get_stats(ig[2]);
    diag("bdf: %ld steps, %ld rejected, %ld evaluations (f saw %ld), %ld Jacobians, %ld Newton "
         "iterations (%ld failed)",
         st.steps, st.rejected, st.rhs_evals, calls[2], st.jac_evals, st.newton_iters,
         st.newton_fails);
    ok(st.steps > 10 && st.jac_evals >= 2 && st.rhs_evals == calls[2],
       "bdf: CVODE's counters accumulate across reinit and match the calls of f");
    /* every attempt takes at least one Newton iteration; the explicit methods take none */
    ok(st.newton_iters >= st.steps + st.rejected && st.newton_fails >= 0 &&
           mech_integ_get_stats(ig[0]).newton_iters == 0 &&
           mech_integ_get_stats(ig[1]).newton_iters == 0,
       "bdf counts its Newton iterations (at least one per attempt), rk4 and dopri5 none");
    is_num(mech_integ_time(ig[2]), 10, 0, "bdf lands exactly on t_stop");
    /* BDF at tol 1e-8 over 1.6 periods with a restart: global error ~100 tol (BDF's error
    ** grows along an undamped oscillation; measured 7e-7): bound 1e-5 */
    is_num(mech_integ_state(ig[2])[0], cos(10.0), 1e-5, "bdf oscillator after reinit");
    for (int m = 0; m < 3; m++) mech_integ_free(ig[m]);

    /* events are counted */
    mech_integ *e = make_ev(MECH_DOPRI5, 0, 0, osc, 1, g_pos, NULL);
    if (!start(e, 0, y0)) run_to(e, 10, &err);
    ok(mech_integ_get_stats(e).events == 3, "x = cos t crosses 0 three times in [0, 10]");
    mech_integ_free(e);
}

/*
** max_order limits BDF's order: on the oscillator over 20 s (rtol 1e-7), fewer steps at each
** higher limit, as the step of an order-p method grows like rtol^(1/(p+1)); the limit is
** honoured (order 1 needs more than ten times the steps of order 5).  Orders 2 to 5 end
** within 1e-4 of (cos t, -sin t); order 1 (backward Euler) damps the amplitude by h^2/2 per
** step, so that N nearly equal steps over 20 s leave an error near N (20/N)^2 / 2 = 200/N:
** its error is checked against that within 30%.  Out-of-range values and a limit for
** another method are refused.
*/
static void test_max_order(void)
{
    const int orders[] = {1, 2, 3, 5};
    long steps[4];
    for (int i = 0; i < 4; i++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = MECH_BDF;
        o.rtol = 1e-7;
        o.atol = 1e-10;
        o.max_order = orders[i];
        mech_integ *ig = NULL;
        mech_error err;
        const double y0[2] = {1, 0};
        double e = NAN;
        int fail =
            mech_integ_create(&ig, 2, &o, osc, NULL, &err) || mech_integ_init(ig, 0, y0, &err);
        while (!fail && mech_integ_time(ig) < 20) fail = mech_integ_step(ig, 20, &err);
        if (fail) {
            diag("max_order %d: %s", orders[i], err.msg);
        } else {
            const double *y = mech_integ_state(ig);
            e = fmax(fabs(y[0] - cos(20.0)), fabs(y[1] + sin(20.0)));
        }
        mech_integ_stats st = mech_integ_get_stats(ig);
        steps[i] = st.steps;
        char name[200];
        snprintf(name, sizeof name, "bdf max_order %d: %ld steps, error at t = 20: %.2g", orders[i],
                 st.steps, e);
        int accurate = i == 0 ? fabs(e - 200.0 / st.steps) < 0.3 * 200.0 / st.steps : e < 1e-4;
        ok(accurate && (i == 0 || steps[i] < steps[i - 1]), name);
        mech_integ_free(ig);
    }
    ok(steps[0] > 10 * steps[3], "bdf max_order 1 takes over ten times the steps of order 5");
    struct {
        mech_method m;
        int order;
    } bad[] = {{MECH_BDF, 6}, {MECH_BDF, -1}, {MECH_DOPRI5, 2}, {MECH_RK4, 4}};
    for (int i = 0; i < 4; i++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = bad[i].m;
        o.h = 0.1;
        o.max_order = bad[i].order;
        mech_integ *ig = NULL;
        mech_error err = {0};
        mech_status st = mech_integ_create(&ig, 2, &o, osc, NULL, &err);
        char name[700];
        snprintf(name, sizeof name, "%s with max_order %d refused (%s)", mname[bad[i].m],
                 bad[i].order, err.msg);
        ok(st == MECH_ERR_ARG && !ig && strstr(err.msg, "option max_order"), name);
    }
}

int main(void)
{
    plan(166);
    test_names_and_defaults();
    test_orders();
    test_adaptive();
    test_dense();
    test_events();
    test_directions();
    test_truncate_continue();
    test_truncate_tie();
    test_events_passive();
    test_start_on_root();
    test_two_events();
    test_bounce();
    test_stiff();
    test_second_order();
    test_failures();
    test_stiffness();
    test_options();
    test_allocation();
    test_stats();
    test_max_order();
    return done_testing();
}

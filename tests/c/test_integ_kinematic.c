/* SPDX-License-Identifier: MIT */
/*
** BDF's second-order structure through a kinematic map q' = N(q) u (mech_integ_options
** second_order, nu, kinematic): a rigid body with a unit quaternion (4 positions) and its
** angular velocity in body axes (3 velocities), torque-free and with a stiff damper, and the
** scalar q' = (1 + q^2) u, all with closed forms; the solution is checked against them and
** against BDF without the structure (second_order = 0, Newton systems on every state), and
** the step and Jacobian counts of both are printed.  Then the option checks and a failing
** map.  Every bound is derived in the comment next to it.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mech.h"
#include "tap.h"

/* ---- problems ---------------------------------------------------------------------- */

/*
** An axisymmetric rigid body: principal moments IA, IA, IC about its body axes, y = (e, w),
** e = (e0, e1, e2, e3) the unit quaternion of its orientation (body to space), w its angular
** velocity in body axes.  e' = 1/2 e * (0, w) (quaternion product), and Euler's equations with
** a damping torque -c (w1, w2, 0) on the transverse rates (c = *(double *)ctx):
**     IA w1' = (IA - IC) w2 w3 - c w1,  IA w2' = (IC - IA) w3 w1 - c w2,  IC w3' = 0.
** So w3 stays, and with OM = (IC - IA) w3 / IA and d = c / IA,
**     w1 + i w2 = (w1(0) + i w2(0)) exp((i OM - d) t).
** For c = 0 the kinetic energy and the angular momentum in space, R(e) diag(IA, IA, IC) w,
** are conserved.
*/
#define IA 1.0
#define IC 2.0

typedef struct body_ctx {
    double c;   /* damping [N m s] */
    long calls; /* right-hand sides */
    long maps;  /* kinematic maps */
} body_ctx;

/* The kinematic map of the quaternion: ed = N(e) w = 1/2 e * (0, w). */
static int quat_map(void *ctx, const double *e, const double *w, double *ed)
{
    if (ctx) ((body_ctx *)ctx)->maps++;
    ed[0] = -0.5 * (e[1] * w[0] + e[2] * w[1] + e[3] * w[2]);
    ed[1] = 0.5 * (e[0] * w[0] + e[2] * w[2] - e[3] * w[1]);
    ed[2] = 0.5 * (e[0] * w[1] + e[3] * w[0] - e[1] * w[2]);
    ed[3] = 0.5 * (e[0] * w[2] + e[1] * w[1] - e[2] * w[0]);
    return 0;
}

static int body(void *ctx, double t, const double *y, double *yd)
{
    (void)t;
    body_ctx *b = ctx;
    b->calls++;
    const double *w = y + 4;
    quat_map(NULL, y, w, yd);
    yd[4] = ((IA - IC) * w[1] * w[2] - b->c * w[0]) / IA;
    yd[5] = ((IC - IA) * w[2] * w[0] - b->c * w[1]) / IA;
    yd[6] = 0;
    return 0;
}

/* The body's angular velocity at t from w0. */
static void body_omega(double c, const double *w0, double t, double *w)
{
    const double om = (IC - IA) * w0[2] / IA, a = exp(-c / IA * t);
    w[0] = a * (w0[0] * cos(om * t) - w0[1] * sin(om * t));
    w[1] = a * (w0[0] * sin(om * t) + w0[1] * cos(om * t));
    w[2] = w0[2];
}

/* Its angular momentum in space, R(e) I w (e normalized first). */
static void body_momentum(const double *y, double *h)
{
    double n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
    double s = y[0] / n, x = y[1] / n, v = y[2] / n, z = y[3] / n;
    const double l[3] = {IA * y[4], IA * y[5], IC * y[6]};
    const double R[3][3] = {{1 - 2 * (v * v + z * z), 2 * (x * v - s * z), 2 * (x * z + s * v)},
                            {2 * (x * v + s * z), 1 - 2 * (x * x + z * z), 2 * (v * z - s * x)},
                            {2 * (x * z - s * v), 2 * (v * z + s * x), 1 - 2 * (x * x + v * v)}};
    for (int i = 0; i < 3; i++) h[i] = R[i][0] * l[0] + R[i][1] * l[1] + R[i][2] * l[2];
}

static double body_energy(const double *y)
{
    return 0.5 * (IA * (y[4] * y[4] + y[5] * y[5]) + IC * y[6] * y[6]);
}

/*
** q' = (1 + q^2) u, u' = -atan q: with q = tan th, th' = u and th'' = -th, so from
** (tan 1, 0): q = tan(cos t), u = -sin t.
*/
static int tan_map(void *ctx, const double *q, const double *u, double *qd)
{
    (void)ctx;
    qd[0] = (1 + q[0] * q[0]) * u[0];
    return 0;
}

static int tan_osc(void *ctx, double t, const double *y, double *yd)
{
    (void)t;
    ++*(long *)ctx;
    yd[0] = (1 + y[0] * y[0]) * y[1];
    yd[1] = -atan(y[0]);
    return 0;
}

/* ---- helpers ----------------------------------------------------------------------- */

/* One BDF run: its options, then what it gave. */
typedef struct run {
    int nq, nu; /* second_order and nu (0, 0: no structure) */
    mech_kinematic_fn map;
    double rtol, atol;
    mech_integ_stats st;
    long allocs; /* mech_alloc_count() change while stepping (-1: not measured) */
    int failed;
} run;

/*
** Runs BDF from y0 (n states) to t_end, calling each(ctx, t, y) after every step (may be NULL),
** and leaves the final state in y.
*/
static void bdf_run(run *r, int n, mech_rhs_fn f, void *ctx, const double *y0, double t_end,
                    double *y, void (*each)(void *, double, const double *))
{
    mech_integ_options o = mech_integ_default_options();
    o.method = MECH_BDF;
    o.rtol = r->rtol;
    o.atol = r->atol;
    o.second_order = r->nq;
    o.nu = r->nu;
    o.kinematic = r->map;
    o.kinematic_ctx = ctx;
    mech_integ *ig = NULL;
    mech_error err;
    r->failed = 1;
    r->allocs = -1;
    for (int i = 0; i < n; i++) y[i] = NAN;
    if (mech_integ_create(&ig, n, &o, f, ctx, &err) || mech_integ_init(ig, 0, y0, &err)) {
        diag("create: %s", err.msg);
        mech_integ_free(ig);
        return;
    }
    long before = mech_alloc_count();
    mech_status s = MECH_OK;
    while (!s && mech_integ_time(ig) < t_end) {
        s = mech_integ_step(ig, t_end, &err);
        if (!s && each) each(ctx, mech_integ_time(ig), mech_integ_state(ig));
    }
    r->allocs = mech_alloc_count() - before;
    if (s) {
        diag("%s", err.msg);
    } else {
        memcpy(y, mech_integ_state(ig), (size_t)n * sizeof(double));
        r->failed = 0;
    }
    r->st = mech_integ_get_stats(ig);
    mech_integ_free(ig);
}

static void show(const char *what, const run *r)
{
    diag("%s: %ld steps, %ld rejected, %ld Newton iterations (%ld failed), %ld Jacobians, "
         "%ld evaluations",
         what, r->st.steps, r->st.rejected, r->st.newton_iters, r->st.newton_fails, r->st.jac_evals,
         r->st.rhs_evals);
}

/* ---- tests ------------------------------------------------------------------------- */

/* Largest drift of the invariants of the body along a run, and error of w. */
static struct {
    double h0[3], t0, w0[3];
    double norm, energy, momentum, omega;
} drift;

static void body_drift(void *ctx, double t, const double *y)
{
    double h[3], w[3];
    body_omega(((const body_ctx *)ctx)->c, drift.w0, t, w);
    for (int i = 0; i < 3; i++) drift.omega = fmax(drift.omega, fabs(y[4 + i] - w[i]));
    body_momentum(y, h);
    double n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
    double dh = sqrt((h[0] - drift.h0[0]) * (h[0] - drift.h0[0]) +
                     (h[1] - drift.h0[1]) * (h[1] - drift.h0[1]) +
                     (h[2] - drift.h0[2]) * (h[2] - drift.h0[2]));
    drift.norm = fmax(drift.norm, fabs(n - 1));
    drift.energy = fmax(drift.energy, fabs(body_energy(y) - drift.t0));
    drift.momentum = fmax(drift.momentum, dh);
}

/*
** The torque-free body, spinning at 5 rad/s about its axis with 1 rad/s across it (w0 =
** (1, 0, 5), |w| 5.1 rad/s, nutation OM = 5 rad/s), from e = (1, 0, 0, 0) over 10 s (eight
** turns), rtol 1e-8, atol 1e-10, with the structure (nq 4, nu 3, the quaternion map) and
** without.  BDF's global error grows along an undamped rotation like that of the oscillator
** in test_integ.c (~100 tol after 1.6 periods there): over eight turns, 1e3 rtol = 1e-5 on
** w (scale 5), on |e| - 1 and on the invariants (energy 13, |H| 10: relative 1e-6 of them);
** the two runs differ by their own errors, 2e-5 at most.  Measured: see the diagnostics.
*/
static void test_free_body(void)
{
    const double y0[7] = {1, 0, 0, 0, 1, 0, 5};
    double y[2][7], w[3];
    run r[2] = {{.nq = 4, .nu = 3, .map = quat_map, .rtol = 1e-8, .atol = 1e-10},
                {.rtol = 1e-8, .atol = 1e-10}};
    body_ctx ctx[2] = {{.c = 0}, {.c = 0}};
    body_omega(0, y0 + 4, 10, w);
    for (int k = 0; k < 2; k++) {
        memset(&drift, 0, sizeof drift);
        memcpy(drift.w0, y0 + 4, sizeof drift.w0);
        body_momentum(y0, drift.h0);
        drift.t0 = body_energy(y0);
        bdf_run(&r[k], 7, body, &ctx[k], y0, 10, y[k], body_drift);
        show(k ? "free body, second_order 0" : "free body, second_order 4, nu 3, quaternion map",
             &r[k]);
        double ew = fmax(fabs(y[k][4] - w[0]), fmax(fabs(y[k][5] - w[1]), fabs(y[k][6] - w[2])));
        diag("  error of w at t = 10: %.3g; largest drift: |e| - 1 %.3g, energy %.3g, "
             "H %.3g, error of w %.3g",
             ew, drift.norm, drift.energy, drift.momentum, drift.omega);
        if (k == 0) {
            ok(!r[0].failed && ew <= 1e-5, "free body with the map: w(10) is the closed form");
            ok(drift.norm <= 1e-5 && drift.energy <= 1e-5 && drift.momentum <= 1e-5 &&
                   drift.omega <= 1e-5,
               "and |e|, the energy and the angular momentum in space are kept (every step)");
            ok(r[0].allocs == 0, "nothing allocated while stepping with a kinematic map");
            ok(r[0].st.rhs_evals == ctx[0].calls && ctx[0].maps == 3 * r[0].st.jac_evals,
               "evaluations counted; the map is called nu = 3 times per Jacobian");
        }
    }
    double d = 0;
    for (int i = 0; i < 7; i++) d = fmax(d, fabs(y[0][i] - y[1][i]) / (i < 4 ? 1 : 5));
    diag("largest difference of the two: %.3g of the state's scale", d);
    ok(!r[1].failed && d <= 2e-5, "free body: the map gives the solution of second_order = 0");
}

/*
** The body with a stiff damper, c = 1e5 N m s across the spin axis (eigenvalues -1e5 +- 50i
** 1/s), spinning at 50 rad/s with 1 rad/s across, over 2 s, rtol 1e-6, atol 1e-8: the
** transverse rates die out within ~1e-4 s and the quaternion turns at 50 rad/s (16 turns).
** Stiff: an explicit method would need steps below 3.3e-5 s (6e4 steps); BDF's steps follow
** the spin.  The error on w, checked at every step, is that of the transverse rates during
** their decay (the spin w3 is exact), a few rtol of their scale 1 rad/s (damped, it does not
** grow): bound 1e-4.  |e| - 1 drifts with the error of the turning quaternion, which grows
** along the 16 turns as on the free body: 1e3 rtol = 1e-3.  The two runs agree within the
** sum.
*/
static void test_damped_body(void)
{
    const double y0[7] = {1, 0, 0, 0, 1, 0, 50};
    double y[2][7];
    run r[2] = {{.nq = 4, .nu = 3, .map = quat_map, .rtol = 1e-6, .atol = 1e-8},
                {.rtol = 1e-6, .atol = 1e-8}};
    body_ctx ctx[2] = {{.c = 1e5}, {.c = 1e5}};
    double ew[2], en[2], d = 0;
    for (int k = 0; k < 2; k++) {
        memset(&drift, 0, sizeof drift);
        memcpy(drift.w0, y0 + 4, sizeof drift.w0);
        bdf_run(&r[k], 7, body, &ctx[k], y0, 2, y[k], body_drift);
        show(k ? "damped body, second_order 0" : "damped body, second_order 4, nu 3, map", &r[k]);
        ew[k] = drift.omega;
        en[k] = drift.norm;
        diag("  largest error of w: %.3g; largest drift of |e| - 1: %.3g", ew[k], en[k]);
    }
    for (int i = 0; i < 7; i++) d = fmax(d, fabs(y[0][i] - y[1][i]) / (i < 4 ? 1 : 50));
    diag("largest difference of the two: %.3g of the state's scale", d);
    ok(!r[0].failed && ew[0] <= 1e-4 && en[0] <= 1e-3,
       "damped body with the map: w is the closed form, |e| stays 1");
    ok(!r[1].failed && d <= 2e-3, "and it is the solution of second_order = 0");
}

/*
** q' = (1 + q^2) u, u' = -atan q over 20 s (3.2 periods of th = atan q), rtol 1e-8,
** atol 1e-10, with the map (nq = nu = 1, N(q) = 1 + q^2 not the identity) and without.  q
** reaches tan 1 = 1.56, where dq/dth = 1 + q^2 = 3.4 magnifies the error of th; like the
** free body, ~1e3 rtol over the run: bound 1e-5 on q and u.
*/
static void test_tan(void)
{
    const double y0[2] = {tan(1.0), 0};
    double y[2][2];
    run r[2] = {{.nq = 1, .nu = 1, .map = tan_map, .rtol = 1e-8, .atol = 1e-10},
                {.rtol = 1e-8, .atol = 1e-10}};
    long calls[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        bdf_run(&r[k], 2, tan_osc, &calls[k], y0, 20, y[k], NULL);
        show(k ? "q' = (1 + q^2) u, second_order 0" : "q' = (1 + q^2) u, second_order 1, map",
             &r[k]);
        diag("  error at t = 20: q %.3g, u %.3g", y[k][0] - tan(cos(20.0)), y[k][1] + sin(20.0));
    }
    ok(!r[0].failed && fabs(y[0][0] - tan(cos(20.0))) <= 1e-5 && fabs(y[0][1] + sin(20.0)) <= 1e-5,
       "q' = (1 + q^2) u with the map: the closed form at t = 20");
    ok(!r[1].failed && fabs(y[0][0] - y[1][0]) <= 2e-5 && fabs(y[0][1] - y[1][1]) <= 2e-5,
       "and the solution of second_order = 0");
}

static int bad_map(void *ctx, const double *q, const double *u, double *qd)
{
    (void)q, (void)u;
    qd[0] = *(const int *)ctx ? NAN : 0;
    return *(const int *)ctx ? 0 : -1;
}

/*
** The option checks, for every method (RK4 and DOPRI5 ignore the structure but check it),
** and a map that fails or gives NaN: MECH_ERR_CALLBACK naming the map.
*/
static void test_options(void)
{
    static const char *const mname[] = {"rk4", "dopri5", "bdf"};
    struct {
        int n, nq, nu, map;
        const char *want; /* NULL: accepted; else the option the message names */
    } c[] = {
        {7, 4, 3, 1, NULL},
        {8, 4, 0, 1, NULL},
        {7, 6, 1, 1, NULL},
        {5, 2, 2, 0, NULL},
        {7, 4, 3, 0, "nu"},
        {7, 4, 4, 1, "nu"},
        {7, 4, -1, 1, "nu"},
        {7, 0, 3, 1, "nu"},
        {7, 0, 0, 1, "kinematic"},
        {7, 4, 0, 1, "second_order"},
        {7, -1, 3, 1, "second_order"},
    };
    for (int m = 0; m < 3; m++)
        for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
            mech_integ_options o = mech_integ_default_options();
            o.method = (mech_method)m;
            o.h = 0.1;
            o.second_order = c[i].nq;
            o.nu = c[i].nu;
            o.kinematic = c[i].map ? quat_map : NULL;
            mech_integ *ig = (mech_integ *)&o;
            mech_error err = {0};
            body_ctx ctx = {.c = 0};
            mech_status st = mech_integ_create(&ig, c[i].n, &o, body, &ctx, &err);
            char want[40] = "", name[700];
            if (c[i].want) snprintf(want, sizeof want, "option %s", c[i].want);
            snprintf(name, sizeof name, "%s: n %d, second_order %d, nu %d, %s -> %s (%s)", mname[m],
                     c[i].n, c[i].nq, c[i].nu, c[i].map ? "a map" : "no map",
                     c[i].want ? "refused" : "accepted", err.msg);
            const char *at = c[i].want ? strstr(err.msg, want) : NULL;
            ok(c[i].want ? st == MECH_ERR_ARG && !ig && at && strchr(" :", at[strlen(want)])
                         : st == MECH_OK && ig,
               name);
            if (!st) mech_integ_free(ig);
        }

    for (int nan = 0; nan < 2; nan++) {
        mech_integ_options o = mech_integ_default_options();
        o.method = MECH_BDF;
        o.second_order = o.nu = 1;
        o.kinematic = bad_map;
        o.kinematic_ctx = &nan;
        const double y0[2] = {0.5, 0};
        long calls = 0;
        mech_integ *ig = NULL;
        mech_error err = {0};
        mech_status st = mech_integ_create(&ig, 2, &o, tan_osc, &calls, &err);
        if (!st) st = mech_integ_init(ig, 0, y0, &err);
        while (!st && mech_integ_time(ig) < 1) st = mech_integ_step(ig, 1, &err);
        char name[700];
        snprintf(name, sizeof name, "a map that %s: MECH_ERR_CALLBACK (%s)",
                 nan ? "gives NaN" : "fails", err.msg);
        ok(st == MECH_ERR_CALLBACK && strstr(err.msg, "kinematic map failed"), name);
        mech_integ_free(ig);
    }
}

int main(void)
{
    plan(44);
    test_free_body();
    test_damped_body();
    test_tan();
    test_options();
    return done_testing();
}

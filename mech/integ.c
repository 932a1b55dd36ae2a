/* SPDX-License-Identifier: MIT */
/*
** libmech integrators: options, life cycle, the step driver shared by all methods (event
** detection and location, truncation, restart), and the explicit Runge-Kutta methods
** RK4 and DOPRI5.  The BDF method (CVODE) lives in integ_bdf.c.
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "integ_impl.h"

/* f asked an adaptive method for a smaller step (a positive return). */
#define RETRY 1

/* DOPRI5 step-size control: safety factor, factor limits, exponent of the error norm
** and the PI (Lund) stabilisation exponent beta, as in Hairer's DOPRI5 (beta = 0 turns
** the PI part off). */
#define SAFE   0.9
#define FACMIN 0.2
#define FACMAX 10.0
#define BETA   0.04
#define EXPO   (0.2 - 0.75 * BETA)

/*
** Stiffness test (Hairer & Wanner, Solving ODEs II, IV.2, as in their DOPRI5): two stages
** evaluated at the same time from states a and b give |f(a) - f(b)| / |a - b|, an estimate
** of the largest |lambda| of the Jacobian.  When h |lambda| is beyond the method's stability
** limit on the negative real axis (DOPRI5 3.3, RK4 2.8) the step is held by stability, not
** accuracy: STIFF_STEPS such steps, without NONSTIFF_STEPS in a row within it in between,
** declare the problem stiff for an explicit method.
*/
#define STIFF_LIMIT_DOPRI5 MECH_STIFF_LIMIT_DOPRI5
#define STIFF_LIMIT_RK4    MECH_STIFF_LIMIT_RK4
#define STIFF_STEPS        15
#define NONSTIFF_STEPS     6

/*
** DOPRI5's step has collapsed when STIFF_STEPS accepted steps in a row were shorter than
** COLLAPSE_ULPS rounding units of t (2.2e-12 |t|), or so short that going on at that size to
** t_stop would take more than the run's max_steps (MECH_MAX_STEPS) steps.  A stiff problem can hold
*the steps
** there, at the stability limit and just above an underflow, for ever (the bristles of a
** force-form LuGre contact that begins hold DOPRI5 at 1e-18 s at t = 3e-4 s): when the
** stiffness test agrees, the run stops.  Stiff runs that make progress go on: the stiff
** spring of test_planar (DOPRI5 at 3.7e-6 s, 5e5 steps in all), a slider-crank with the
** normalised LuGre law at 5e-8 s.
*/
#define COLLAPSE_ULPS 1e4

/* Rounding tolerance on times near a and b. */
static double tround(double a, double b)
{
    return 16 * DBL_EPSILON * fmax(fabs(a), fabs(b));
}

static void swap(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

int integ_nonfinite(int n, const double *v)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return i;
    return -1;
}

const char *mech_method_name(mech_method m)
{
    switch (m) {
    case MECH_RK4: return "rk4";
    case MECH_DOPRI5: return "dopri5";
    case MECH_BDF: return "bdf";
    }
    return "unknown";
}

const char *mech_newton_name(mech_newton n)
{
    switch (n) {
    case MECH_NEWTON_AUTO: return "auto";
    case MECH_NEWTON_DENSE: return "dense";
    case MECH_NEWTON_SPARSE: return "sparse";
    }
    return "unknown";
}

mech_integ_options mech_integ_default_options(void)
{
    mech_integ_options o = {0};
    o.method = MECH_RK4;
    o.rtol = 1e-6;
    o.atol = 1e-9;
    return o;
}

/* ---- evaluations ------------------------------------------------------------------ */

/*
** Calls f at (t, y).  Returns 0 on success; RETRY when f asked for a smaller step and
** the caller may retry; otherwise MECH_ERR_CALLBACK with err filled.
*/
static int call_f(mech_integ *s, double t, const double *y, double *ydot, int may_retry,
                  mech_error *err)
{
    s->stats.rhs_evals++;
    int r = s->f(s->ctx, t, y, ydot);
    if (r == 0) return 0;
    if (r > 0 && may_retry) return RETRY;
    if (r > 0)
        return mech_error_set(err, MECH_ERR_CALLBACK,
                              "right-hand side asked for a smaller step at t = %.9g, which "
                              "%s cannot take here",
                              t, mech_method_name(s->opt.method));
    return mech_error_set(err, MECH_ERR_CALLBACK, "right-hand side failed at t = %.9g", t);
}

/* Evaluates the event functions at (t, y) into g; every return but 0 is a failure. */
static mech_status call_g(mech_integ *s, double t, const double *y, double *g, mech_error *err)
{
    if (s->nev == 0) return MECH_OK;
    int r = s->g(s->ctx, t, y, g);
    if (r < 0)
        return mech_error_set(err, MECH_ERR_CALLBACK, "event function failed at t = %.9g", t);
    if (r > 0)
        return mech_error_set(err, MECH_ERR_CALLBACK,
                              "event function returned %d at t = %.9g: only the right-hand "
                              "side may ask for a smaller step",
                              r, t);
    int i = integ_nonfinite(s->nev, g);
    if (i >= 0)
        return mech_error_set(err, MECH_ERR_NUMERIC, "non-finite event function %d at t = %.9g", i,
                              t);
    return MECH_OK;
}

/* MECH_ERR_NUMERIC if the state y or its derivative f (may be NULL) at t is not finite. */
static mech_status check_finite(mech_integ *s, double t, const double *y, const double *f,
                                mech_error *err)
{
    int i = integ_nonfinite(s->n, y);
    if (i >= 0) {
        s->fault = i;
        return mech_error_set(err, MECH_ERR_NUMERIC, "non-finite state at t = %.9g (component %d)",
                              t, i);
    }
    if (f && (i = integ_nonfinite(s->n, f)) >= 0) {
        s->fault = i;
        return mech_error_set(err, MECH_ERR_NUMERIC,
                              "non-finite derivative at t = %.9g (component %d)", t, i);
    }
    return MECH_OK;
}

/* ---- stiffness ---------------------------------------------------------------------- */

/* h |f(a) - f(b)| / |a - b| over the n components (0 when a = b). */
static double stiffness_estimate(int n, double h, const double *fa, const double *fb,
                                 const double *a, const double *b)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        num += (fa[i] - fb[i]) * (fa[i] - fb[i]);
        den += (a[i] - b[i]) * (a[i] - b[i]);
    }
    return den > 0 ? fabs(h) * sqrt(num / den) : 0;
}

/* Counts the estimate hlamb of a step about to be accepted against the method's limit. */
static void stiffness_count(mech_integ *s, double hlamb, double limit)
{
    if (hlamb > limit) {
        s->nonstiff = 0;
        if (s->stiff < INT_MAX) s->stiff++;
        s->hlamb = fmax(s->stiff > 1 ? s->hlamb : 0, hlamb);
    } else if (++s->nonstiff >= NONSTIFF_STEPS) {
        s->stiff = 0;
        s->hlamb = 0;
    }
}

/* "stiff (h |lambda| ...); use method = "bdf"" when the stiffness test says so, else "". */
static const char *stiff_note(const mech_integ *s, char *buf, size_t size)
{
    buf[0] = '\0';
    if (s->stiff >= STIFF_STEPS)
        snprintf(buf, size,
                 "stiff (h |lambda| up to %.3g > %.3g in %d steps); use method = \"bdf\"", s->hlamb,
                 s->opt.method == MECH_RK4 ? STIFF_LIMIT_RK4 : STIFF_LIMIT_DOPRI5, s->stiff);
    return buf;
}

/*
** DOPRI5, before accepting a step of size h from t towards t_stop: fails when the problem is
** stiff and the step has collapsed (see COLLAPSE_ULPS).  Without stiffness a shrinking step
** ends in an underflow (a singularity, a jump).
*/
static mech_status collapse_check(mech_integ *s, double t, double h, double t_stop, mech_error *err)
{
    int tiny = h < COLLAPSE_ULPS * DBL_EPSILON * fabs(t) ||
               (t_stop - t) > mech_integ_max_steps(&s->opt) * h;
    if (t + h >= t_stop || !tiny) {
        s->collapsed = 0;
        return MECH_OK;
    }
    if (++s->collapsed < STIFF_STEPS || s->stiff < STIFF_STEPS) return MECH_OK;
    char note[160];
    return mech_error_set(err, MECH_ERR_STEPSIZE,
                          "dopri5: the step has collapsed to %.3g s at t = %.9g (%.2g steps to "
                          "go): %s",
                          h, t, (t_stop - t) / h, stiff_note(s, note, sizeof note));
}

/* ---- RK4 and fixed-step DOPRI5 ------------------------------------------------------ */

/*
** End of the next fixed step: the next point of the grid tgrid + k*h after t1, or t_stop
** if that comes first or within rounding.  Grid times are computed from the origin, not
** accumulated, so they do not drift.
*/
static double grid_next(const mech_integ *s, double t_stop)
{
    double h = s->opt.h, t = s->t1;
    double k = floor((t - s->tgrid) / h) + 1;
    double next = s->tgrid + k * h;
    if (next <= t + tround(t, next)) next = s->tgrid + (k + 1) * h;
    return next >= t_stop - tround(t_stop, next) ? t_stop : next;
}

/*
** One classic RK4 step from (t, y, k1 = f(t, y)) to tn, into yn and fn = f(tn, yn) (the
** first stage of the next step, so a step costs 4 evaluations).
*/
static int rk4_attempt(mech_integ *s, double t, const double *y, const double *k1, double tn,
                       mech_error *err)
{
    const int n = s->n;
    const double h = tn - t, th = t + 0.5 * h;
    double *k2 = s->k, *k3 = k2 + n, *k4 = k3 + n, *ys = s->ys;
    int r;
    for (int i = 0; i < n; i++) ys[i] = y[i] + 0.5 * h * k1[i];
    if ((r = call_f(s, th, ys, k2, 0, err))) return r;
    for (int i = 0; i < n; i++) ys[i] = y[i] + 0.5 * h * k2[i];
    if ((r = call_f(s, th, ys, k3, 0, err))) return r;
    for (int i = 0; i < n; i++) ys[i] = y[i] + h * k3[i];
    if ((r = call_f(s, tn, ys, k4, 0, err))) return r;
    for (int i = 0; i < n; i++) s->yn[i] = y[i] + h / 6 * (k1[i] + 2 * (k2[i] + k3[i]) + k4[i]);
    if ((r = call_f(s, tn, s->yn, s->fn, 0, err))) return r;
    return check_finite(s, tn, s->yn, s->fn, err);
}

/*
** RK4's stiffness estimate: stages 2 and 3 are both at t + h/2, from y + h/2 k1 and
** y + h/2 k2, so h |lambda| ~ 2 |k3 - k2| / |k2 - k1|.
*/
static mech_status rk4_step(mech_integ *s, double t_stop, mech_error *err)
{
    s->tn = grid_next(s, t_stop);
    mech_status st = rk4_attempt(s, s->t1, s->y1, s->f1, s->tn, err);
    if (st) return st;
    const double *k2 = s->k, *k3 = k2 + s->n;
    stiffness_count(s, stiffness_estimate(s->n, 2, k3, k2, k2, s->f1), STIFF_LIMIT_RK4);
    return MECH_OK;
}

static mech_status rk4_truncate(mech_integ *s, double t, mech_error *err)
{
    return rk4_attempt(s, s->t0, s->y0, s->f0, t, err);
}

/*
** Cubic Hermite interpolation between (t0, y0, f0) and (t1, y1, f1): fourth-order
** accurate, like the step values.
*/
static mech_status rk4_dense(mech_integ *s, double t, double *y)
{
    const double h = s->t1 - s->t0, th = (t - s->t0) / h;
    for (int i = 0; i < s->n; i++) {
        double d = s->y1[i] - s->y0[i];
        y[i] = s->y0[i] + th * d +
               th * (th - 1) * ((1 - 2 * th) * d + (th - 1) * h * s->f0[i] + th * h * s->f1[i]);
    }
    return MECH_OK;
}

/* ---- DOPRI5 ------------------------------------------------------------------------ */

/* Dormand-Prince 5(4) coefficients: nodes c, matrix a, 5th-order weights b (row 7 of a,
** FSAL), error weights e = b - b*, dense-output weights d (Hairer's continuous
** extension of order 4). */
static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                    a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                    a65 = -5103.0 / 18656;
static const double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784,
                    b6 = 11.0 / 84;
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                    e6 = 22.0 / 525, e7 = -1.0 / 40;
static const double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                    d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                    d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

/*
** One Dormand-Prince step from (t, y, k1 = f(t, y)) to tn, into yn and fn = k7 = f(tn, yn).
** If errn is not NULL it receives the RMS norm of the embedded error estimate scaled by
** atol_i + rtol*max(|y_i|, |yn_i|).  Returns 0, RETRY (f asked for a smaller step and
** may_retry is set) or a failure status.  The stages stay in s->k for dp_dense_coeffs.
*/
static int dp_attempt(mech_integ *s, double t, const double *y, const double *k1, double tn,
                      int may_retry, double *errn, mech_error *err)
{
    const int n = s->n;
    const double h = tn - t;
    double *k2 = s->k, *k3 = k2 + n, *k4 = k3 + n, *k5 = k4 + n, *k6 = k5 + n, *ys = s->ys;
    double *yn = s->yn, *k7 = s->fn;
    int r;
    for (int i = 0; i < n; i++) ys[i] = y[i] + h * a21 * k1[i];
    if ((r = call_f(s, t + c2 * h, ys, k2, may_retry, err))) return r;
    for (int i = 0; i < n; i++) ys[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
    if ((r = call_f(s, t + c3 * h, ys, k3, may_retry, err))) return r;
    for (int i = 0; i < n; i++) ys[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
    if ((r = call_f(s, t + c4 * h, ys, k4, may_retry, err))) return r;
    for (int i = 0; i < n; i++)
        ys[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
    if ((r = call_f(s, t + c5 * h, ys, k5, may_retry, err))) return r;
    for (int i = 0; i < n; i++)
        ys[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
    if ((r = call_f(s, tn, ys, k6, may_retry, err))) return r;
    for (int i = 0; i < n; i++)
        yn[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
    if ((r = call_f(s, tn, yn, k7, may_retry, err))) return r;
    if ((r = check_finite(s, tn, yn, k7, err))) return r;
    if (errn) {
        double sum = 0, worst = -1;
        for (int i = 0; i < n; i++) {
            double e =
                h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
            double sk = s->atol[i] + s->opt.rtol * fmax(fabs(y[i]), fabs(yn[i]));
            double ratio = (e / sk) * (e / sk);
            sum += ratio;
            if (ratio > worst) worst = ratio, s->fault = i;
        }
        *errn = sqrt(sum / n);
    }
    return 0;
}

/*
** DOPRI5's stiffness estimate (Hairer's): stage 6 and the last stage k7 are both at t + h,
** from the stage input ys and from yn.
*/
static double dp_stiffness(const mech_integ *s, double h)
{
    return stiffness_estimate(s->n, h, s->fn, s->k + 4 * (size_t)s->n, s->yn, s->ys);
}

/* Dense-output coefficients of the step just computed by dp_attempt from (y, k1) over h. */
static void dp_dense_coeffs(mech_integ *s, const double *y, const double *k1, double h)
{
    const int n = s->n;
    const double *k3 = s->k + 1 * n, *k4 = s->k + 2 * n, *k5 = s->k + 3 * n, *k6 = s->k + 4 * n;
    double *r = s->rcn;
    for (int i = 0; i < n; i++) {
        double dy = s->yn[i] - y[i], bspl = h * k1[i] - dy;
        r[i] = y[i];
        r[n + i] = dy;
        r[2 * n + i] = bspl;
        r[3 * n + i] = dy - h * s->fn[i] - bspl;
        r[4 * n + i] =
            h * (d1 * k1[i] + d3 * k3[i] + d4 * k4[i] + d5 * k5[i] + d6 * k6[i] + d7 * s->fn[i]);
    }
}

static mech_status dp_dense(mech_integ *s, double t, double *y)
{
    const int n = s->n;
    const double th = (t - s->t0) / (s->t1 - s->t0), th1 = 1 - th, *r = s->rc;
    for (int i = 0; i < n; i++)
        y[i] = r[i] +
               th * (r[n + i] + th1 * (r[2 * n + i] + th * (r[3 * n + i] + th1 * r[4 * n + i])));
    return MECH_OK;
}

/*
** Initial step size (Hairer, Norsett & Wanner, Solving ODEs I, II.4): the step at which
** an explicit Euler step's local error would be about the tolerance, from the sizes of
** y, f and an estimate of y'', for an order-5 method.  Costs one evaluation of f.
*/
static int dp_hinit(mech_integ *s, double t_stop, mech_error *err)
{
    const int n = s->n;
    const double t = s->t1, *y = s->y1, *f = s->f1;
    double dny = 0, dnf = 0, d2 = 0;
    for (int i = 0; i < n; i++) {
        double sk = s->atol[i] + s->opt.rtol * fabs(y[i]);
        dny += (y[i] / sk) * (y[i] / sk);
        dnf += (f[i] / sk) * (f[i] / sk);
    }
    dny = sqrt(dny / n);
    dnf = sqrt(dnf / n);
    if (!isfinite(dnf)) { /* every f_i is finite (checked), (f_i / sk)^2 overflows */
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double r = fabs(f[i]) / (s->atol[i] + s->opt.rtol * fabs(y[i]));
            if (!(r <= worst)) worst = r, s->fault = i;
        }
        return mech_error_set(err, MECH_ERR_NUMERIC,
                              "derivative too large to control at t = %.9g (component %d: %.3g "
                              "against a tolerance of %.3g)",
                              t, s->fault, f[s->fault],
                              s->atol[s->fault] + s->opt.rtol * fabs(y[s->fault]));
    }
    double hlim = t_stop - t;
    if (s->opt.hmax > 0) hlim = fmin(hlim, s->opt.hmax);
    double h = fmin(dny <= 1e-5 || dnf <= 1e-5 ? 1e-6 : 0.01 * dny / dnf, hlim);
    for (int i = 0; i < n; i++) s->ys[i] = y[i] + h * f[i];
    int r = call_f(s, t + h, s->ys, s->k, 1, err);
    if (r < 0) return r;
    if (r == RETRY) { /* f rejected the Euler probe: keep the first guess */
        s->h = h;
        return 0;
    }
    for (int i = 0; i < n; i++) {
        double sk = s->atol[i] + s->opt.rtol * fabs(y[i]), d = (s->k[i] - f[i]) / sk;
        d2 += d * d;
    }
    d2 = sqrt(d2 / n) / h;
    double der = fmax(d2, dnf); /* fmax ignores a NaN d2 */
    double h1 = der <= 1e-15 ? fmax(1e-6, h * 1e-3) : pow(0.01 / der, 0.2);
    s->h = fmin(fmin(100 * h, h1), hlim);
    return 0;
}

/*
** One accepted DOPRI5 step.  Fixed: a step of the grid, no error control.  Adaptive:
** attempts with error control until one is accepted; the step proposal s->h survives
** between calls.
*/
static mech_status dp_step(mech_integ *s, double t_stop, mech_error *err)
{
    const double t = s->t1;
    int r;
    if (s->opt.fixed) {
        s->tn = grid_next(s, t_stop);
        if ((r = dp_attempt(s, t, s->y1, s->f1, s->tn, 0, NULL, err))) return r;
        stiffness_count(s, dp_stiffness(s, s->tn - t), STIFF_LIMIT_DOPRI5);
        dp_dense_coeffs(s, s->y1, s->f1, s->tn - t);
        return MECH_OK;
    }
    if (!(s->h > 0) && (r = dp_hinit(s, t_stop, err))) return r;
    for (;;) {
        double h = s->opt.hmax > 0 ? fmin(s->h, s->opt.hmax) : s->h;
        if (h < 16 * DBL_EPSILON * fmax(fabs(t), DBL_MIN)) {
            char note[160];
            return mech_error_set(
                err, MECH_ERR_STEPSIZE, "step size underflow at t = %.17g (h = %.3g)%s%s", t, h,
                s->stiff >= STIFF_STEPS ? ": " : "", stiff_note(s, note, sizeof note));
        }
        /* land on t_stop when it is within 1% more than h (and hmax), to avoid a sliver
        ** of a step after this one */
        double reach = s->opt.hmax > 0 ? fmin(1.01 * h, s->opt.hmax) : 1.01 * h;
        double tn = t + reach >= t_stop ? t_stop : t + h, hh = tn - t, e = 0;
        r = dp_attempt(s, t, s->y1, s->f1, tn, 1, &e, err);
        if (r < 0) return r;
        if (r == RETRY) {
            s->h = 0.5 * hh;
            s->stats.rejected++;
            s->rejected = 1;
            continue;
        }
        if (e <= 1) {
            stiffness_count(s, dp_stiffness(s, hh), STIFF_LIMIT_DOPRI5);
            if ((r = collapse_check(s, t, hh, t_stop, err))) return r;
            double fac = e > 0 ? SAFE * pow(e, -EXPO) * pow(s->errold, BETA) : FACMAX;
            fac = fmin(FACMAX, fmax(FACMIN, fac));
            if (s->rejected) fac = fmin(fac, 1);
            s->h = hh * fac;
            if (hh < h && s->h < h) s->h = h; /* a step shortened to t_stop says nothing */
            s->errold = fmax(e, 1e-4);
            s->rejected = 0;
            s->tn = tn;
            dp_dense_coeffs(s, s->y1, s->f1, hh);
            return MECH_OK;
        }
        s->h = hh * fmax(FACMIN, SAFE * pow(e, -EXPO));
        s->stats.rejected++;
        s->rejected = 1;
    }
}

static mech_status dp_truncate(mech_integ *s, double t, mech_error *err)
{
    int r = dp_attempt(s, s->t0, s->y0, s->f0, t, 0, NULL, err);
    if (r) return r;
    dp_dense_coeffs(s, s->y0, s->f0, t - s->t0);
    return MECH_OK;
}

static mech_status dp_restart(mech_integ *s, int fresh, mech_error *err)
{
    (void)err;
    if (fresh) s->h = s->opt.h; /* reinit keeps the last proposal as a first guess */
    s->errold = 1e-4;
    s->rejected = 0;
    return MECH_OK;
}

static const integ_ops rk4_ops = {.step = rk4_step, .dense = rk4_dense, .truncate = rk4_truncate};
/* The step end moved by the projection: the dense output ends on it (project_explicit). */
static void dp_reproject(mech_integ *s, const double *ya, const double *fa, double h)
{
    dp_dense_coeffs(s, ya, fa, h);
}

static const integ_ops dopri5_ops = {.restart = dp_restart,
                                     .step = dp_step,
                                     .dense = dp_dense,
                                     .truncate = dp_truncate,
                                     .reproject = dp_reproject};

/* ---- creation ----------------------------------------------------------------------- */

static mech_status check_options(int n, const mech_integ_options *o, mech_rhs_fn f, mech_error *err)
{
    if (n <= 0)
        return mech_error_set(err, MECH_ERR_ARG, "integrator: n = %d equations, must be > 0", n);
    if (!f) return mech_error_set(err, MECH_ERR_ARG, "integrator: the right-hand side f is NULL");
    if (o->method != MECH_RK4 && o->method != MECH_DOPRI5 && o->method != MECH_BDF)
        return mech_error_set(err, MECH_ERR_ARG, "integrator option method = %d: unknown method",
                              (int)o->method);
    const char *name = mech_method_name(o->method);
    if (o->fixed && o->method == MECH_BDF)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option fixed: only dopri5 takes fixed steps");
    int fixed = o->method == MECH_RK4 || o->fixed;
    if (fixed && !(o->h > 0 && isfinite(o->h)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option h = %g: %s%s needs a positive finite step", o->h,
                              o->method == MECH_DOPRI5 ? "fixed " : "", name);
    if (!(o->h >= 0 && isfinite(o->h)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option h = %g: must be >= 0 and finite (0: automatic)",
                              o->h);
    if (!(o->hmax >= 0 && isfinite(o->hmax)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option hmax = %g: must be >= 0 and finite (0: no limit)",
                              o->hmax);
    if (o->max_order < 0 || o->max_order > 5)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option max_order = %d: must be 1 to 5 (0: 5)",
                              o->max_order);
    if (o->max_order > 0 && o->method != MECH_BDF)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option max_order: only bdf varies its order (got %s)",
                              name);
    if (!(o->rtol > 0 && isfinite(o->rtol)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option rtol = %g: must be > 0 and finite", o->rtol);
    if (o->atol_vec) {
        for (int i = 0; i < n; i++)
            if (!(o->atol_vec[i] > 0 && isfinite(o->atol_vec[i])))
                return mech_error_set(err, MECH_ERR_ARG,
                                      "integrator option atol_vec[%d] = %g: must be > 0 and finite",
                                      i, o->atol_vec[i]);
    } else if (!(o->atol > 0 && isfinite(o->atol))) {
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option atol = %g: must be > 0 and finite", o->atol);
    }
    if (!(o->event_tol >= 0 && isfinite(o->event_tol)))
        return mech_error_set(
            err, MECH_ERR_ARG,
            "integrator option event_tol = %g: must be >= 0 and finite (0: default)", o->event_tol);
    if ((unsigned)o->newton > MECH_NEWTON_SPARSE)
        return mech_error_set(err, MECH_ERR_ARG, "integrator option newton = %d: unknown",
                              (int)o->newton);
    if (o->second_order < 0 || (o->nu == 0 && o->second_order > n / 2))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option second_order = %d: must be in [0, %d] (the "
                              "positions, then as many velocities, among n = %d equations)",
                              o->second_order, n / 2, n);
    if (o->nu < 0)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option nu = %d: must be >= 0 (0: as many velocities as "
                              "positions)",
                              o->nu);
    if (o->second_order == 0 && (o->nu != 0 || o->kinematic))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option %s: needs second_order > 0 (the number of "
                              "positions)",
                              o->nu ? "nu" : "kinematic");
    if (o->nu != 0 && o->nu != o->second_order && !o->kinematic)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option nu = %d: without a kinematic map q' = u, so nu "
                              "must be second_order = %d (or 0)",
                              o->nu, o->second_order);
    if (o->nu > n - o->second_order)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator option nu = %d: must be at most %d (second_order = %d "
                              "positions, then the velocities, among n = %d equations)",
                              o->nu, n - o->second_order, o->second_order, n);
    return MECH_OK;
}

mech_status mech_integ_create(mech_integ **out, int n, const mech_integ_options *opt, mech_rhs_fn f,
                              void *ctx, mech_error *err)
{
    if (!out) return mech_error_set(err, MECH_ERR_ARG, "integrator: out is NULL");
    *out = NULL;
    mech_integ_options o = opt ? *opt : mech_integ_default_options();
    mech_status st = check_options(n, &o, f, err);
    if (st) return st;

    mech_integ *s = mech_calloc(1, sizeof *s);
    if (!s) return mech_error_set(err, MECH_ERR_NOMEM, "integrator: out of memory");
    s->fault = -1;
    s->n = n;
    s->opt = o;
    s->opt.atol_vec = NULL;
    if (s->opt.nu == 0) s->opt.nu = s->opt.second_order;
    s->f = f;
    s->ctx = ctx;
    s->ops = o.method == MECH_RK4      ? &rk4_ops
             : o.method == MECH_DOPRI5 ? &dopri5_ops
                                       : &integ_bdf_ops;

    /* y0 y1 yn f0 f1 fn yw atol, then stage input and stages, then 2 x 5 dense vectors */
    size_t nk = o.method == MECH_RK4 ? 3 : o.method == MECH_DOPRI5 ? 5 : 0;
    size_t nrc = o.method == MECH_DOPRI5 ? 10 : 0;
    size_t nv = 8 + (nk ? 1 + nk : 0) + nrc;
    s->mem = mech_calloc(nv * (size_t)n, sizeof(double));
    if (!s->mem) {
        mech_integ_free(s);
        return mech_error_set(err, MECH_ERR_NOMEM, "integrator: out of memory");
    }
    double **vec[] = {&s->y0, &s->y1, &s->yn, &s->f0, &s->f1, &s->fn, &s->yw, &s->atol};
    double *p = s->mem;
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++, p += n) *vec[i] = p;
    if (nk) {
        s->ys = p;
        s->k = p + n;
        p += (1 + nk) * (size_t)n;
    }
    if (nrc) {
        s->rc = p;
        s->rcn = p + 5 * (size_t)n;
    }
    for (int i = 0; i < n; i++) s->atol[i] = opt && opt->atol_vec ? opt->atol_vec[i] : o.atol;

    if (s->ops->setup && (st = s->ops->setup(s, err))) {
        mech_integ_free(s);
        return st;
    }
    *out = s;
    return MECH_OK;
}

double mech_integ_max_steps(const mech_integ_options *o)
{
    return o->max_steps > 0 ? o->max_steps : MECH_MAX_STEPS;
}

mech_status mech_integ_check_span(const mech_integ_options *o, double t0, double t_end,
                                  mech_error *err)
{
    const double span = t_end - t0, limit = mech_integ_max_steps(o);
    /* a step that is not positive and finite is mech_integ_create's to refuse; the counts are
    ** printed in long double: 1 / 1e-320 overflows a double */
    if (o->method == MECH_RK4 || (o->method == MECH_DOPRI5 && o->fixed)) {
        if (!(o->h > 0 && isfinite(o->h))) return MECH_OK;
        if (o->h > span)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "h = %g s is longer than the run (t = %g s): take h <= t", o->h,
                                  t_end);
        if (span > limit * o->h)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "h = %g s makes %.3Lg steps to t = %g s, more than max_steps = "
                                  "%g: take a longer h or a shorter t (or raise max_steps)",
                                  o->h, (long double)span / o->h, t_end, limit);
    } else if (o->hmax > 0 && isfinite(o->hmax) && span > limit * o->hmax) {
        return mech_error_set(err, MECH_ERR_ARG,
                              "max_step = %g s makes at least %.3Lg steps to t = %g s, more than "
                              "max_steps = %g: take a longer max_step or leave it out",
                              o->hmax, (long double)span / o->hmax, t_end, limit);
    }
    return MECH_OK;
}

mech_status mech_integ_check_pace(const mech_integ_options *o, long steps, double t0, double t,
                                  double t_end, mech_error *err)
{
    const double limit = mech_integ_max_steps(o);
    if (steps > limit)
        return mech_error_set(err, MECH_ERR_STEPSIZE,
                              "%ld steps to t = %.9g s, more than max_steps = %g", steps, t, limit);
    if (steps < MECH_PACE_STEPS || !(t > t0)) return MECH_OK;
    if (!((t_end - t0) > limit / (double)steps * (t - t0))) return MECH_OK;
    return mech_error_set(err, MECH_ERR_STEPSIZE,
                          "at the pace of its %ld steps to t = %.9g s (%.3g s a step) the run "
                          "would take about %.2Lg steps to reach t = %g s, more than max_steps = "
                          "%g",
                          steps, t, (t - t0) / (double)steps,
                          (long double)steps * ((long double)(t_end - t0) / (t - t0)), t_end,
                          limit);
}

static void free_events(mech_integ *s)
{
    mech_free(s->gmem);
    mech_free(s->dir);
    mech_free(s->events);
    s->gmem = s->g0 = s->g1 = s->gn = s->gw = NULL;
    s->dir = NULL;
    s->events = NULL;
    s->nev = 0;
}

void mech_integ_free(mech_integ *s)
{
    if (!s) return;
    if (s->ops && s->ops->release) s->ops->release(s);
    free_events(s);
    mech_free(s->mem);
    mech_free(s);
}

mech_status mech_integ_set_events(mech_integ *s, int nev, mech_event_fn g, const int *direction,
                                  mech_error *err)
{
    if (!s) return mech_error_set(err, MECH_ERR_ARG, "integrator is NULL");
    if (s->ready)
        return mech_error_set(err, MECH_ERR_STATE,
                              "integrator: events must be declared before mech_integ_init");
    if (nev < 0 || (nev > 0 && !g))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator: %d event functions%s: need nev >= 0 and g", nev,
                              g ? "" : " without g");
    for (int k = 0; direction && k < nev; k++)
        if (direction[k] < -1 || direction[k] > 1)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "integrator: event %d: direction %d must be -1, 0 or +1", k,
                                  direction[k]);
    free_events(s);
    if (nev == 0) return MECH_OK;
    s->gmem = mech_calloc(4 * (size_t)nev, sizeof(double));
    s->dir = mech_calloc((size_t)nev, sizeof(int));
    s->events = mech_calloc((size_t)nev, sizeof(mech_integ_event));
    if (!s->gmem || !s->dir || !s->events) {
        free_events(s);
        return mech_error_set(err, MECH_ERR_NOMEM, "integrator: out of memory for %d events", nev);
    }
    s->g0 = s->gmem;
    s->g1 = s->g0 + nev;
    s->gn = s->g1 + nev;
    s->gw = s->gn + nev;
    for (int k = 0; k < nev; k++) s->dir[k] = direction ? direction[k] : 0;
    s->nev = nev;
    s->g = g;
    return MECH_OK;
}

/* ---- state -------------------------------------------------------------------------- */

/*
** Makes (t, y) the current state and an empty last step: checks it, evaluates f and g
** there and commits only when all of that succeeded.  Restarts the fixed-step grid.
*/
static mech_status set_state(mech_integ *s, double t, const double *y, mech_error *err)
{
    if (!y) return mech_error_set(err, MECH_ERR_ARG, "integrator: the state is NULL");
    if (!isfinite(t))
        return mech_error_set(err, MECH_ERR_ARG, "integrator: time %g is not finite", t);
    int i = integ_nonfinite(s->n, y);
    if (i >= 0)
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator: state component %d is not finite at t = %.9g", i, t);
    mech_status st = call_f(s, t, y, s->fn, 0, err);
    if (!st) st = check_finite(s, t, y, s->fn, err);
    if (!st) st = call_g(s, t, y, s->gn, err);
    if (st) return st;
    s->t0 = s->t1 = s->tn = s->tgrid = t;
    memcpy(s->y0, y, (size_t)s->n * sizeof *y);
    memcpy(s->y1, y, (size_t)s->n * sizeof *y);
    memcpy(s->f0, s->fn, (size_t)s->n * sizeof *y);
    memcpy(s->f1, s->fn, (size_t)s->n * sizeof *y);
    if (s->nev) {
        memcpy(s->g0, s->gn, (size_t)s->nev * sizeof *y);
        memcpy(s->g1, s->gn, (size_t)s->nev * sizeof *y);
    }
    s->nevents = 0;
    return MECH_OK;
}

mech_status mech_integ_init(mech_integ *s, double t0, const double *y0, mech_error *err)
{
    if (!s) return mech_error_set(err, MECH_ERR_ARG, "integrator is NULL");
    s->ready = 0;
    memset(&s->stats, 0, sizeof s->stats);
    s->fault = -1;
    s->stiff = s->nonstiff = s->collapsed = 0;
    s->hlamb = 0;
    mech_status st = set_state(s, t0, y0, err);
    if (!st && s->ops->restart) st = s->ops->restart(s, 1, err);
    s->ready = st == MECH_OK;
    return st;
}

mech_status mech_integ_reinit(mech_integ *s, double t, const double *y, mech_error *err)
{
    if (!s) return mech_error_set(err, MECH_ERR_ARG, "integrator is NULL");
    if (!s->ready)
        return mech_error_set(err, MECH_ERR_STATE, "integrator: mech_integ_init has not succeeded");
    mech_status st = set_state(s, t, y, err);
    if (!st && s->ops->restart) st = s->ops->restart(s, 0, err);
    return st;
}

/* ---- events ------------------------------------------------------------------------- */

static mech_status truncate_projected(mech_integ *s, double t, mech_error *err);

/* The dense output of the last step at t in [t0, t1] into y, projected as the option
** project_output says (MECH_ERR_CALLBACK when the projection fails). */
static mech_status dense_projected(mech_integ *s, double t, double *y)
{
    mech_status st = MECH_OK;
    if (t == s->t0 || t == s->t1)
        memcpy(y, t == s->t1 ? s->y1 : s->y0, (size_t)s->n * sizeof *y);
    else
        st = s->ops->dense(s, t, y);
    if (!st && s->opt.project_output && s->opt.project_output(s->opt.project_ctx, t, y) < 0)
        st = MECH_ERR_CALLBACK;
    return st;
}

/* d*g_k at time t of the last step: on the dense output, or (redo) in the state that
** truncation to t would give, left in yn (projected as truncation projects it when the dense
** output is projected; a step end's projection that only renormalises is left out). */
static mech_status event_value(mech_integ *s, int k, int d, int redo, double t, double *v,
                               mech_error *err)
{
    double *y = redo ? s->yn : s->yw;
    mech_status st = !redo                   ? dense_projected(s, t, y)
                     : s->opt.project_output ? truncate_projected(s, t, err)
                                             : s->ops->truncate(s, t, err);
    if (st == MECH_ERR_CALLBACK && !redo)
        mech_error_set(err, st,
                       "integrator: the projection of the dense output failed at t = %.17g", t);
    if (!st) st = call_g(s, t, y, s->gw, err);
    if (!st) *v = d * s->gw[k];
    return st;
}

/*
** Illinois (modified regula falsi) on v(t) = d*g_k over the bracket [a, *b] with
** v(a) = fa < 0 <= fb = v(*b), until the bracket is at most tol wide; *b receives its right
** end, where v >= 0.  Each trial point is kept at least tol/2 inside the bracket, so that
** once the iterates close in on the root from one side the next lands on the other and
** the bracket collapses; after 60 iterations (not seen in practice) it bisects.
*/
static mech_status illinois(mech_integ *s, int k, int d, int redo, double a, double fa, double *b,
                            double fb, double tol, mech_error *err)
{
    double bb = *b;
    int side = 0;
    for (int it = 0; bb - a > tol; it++) {
        double den = fb - fa, ft;
        double t = it < 60 && den > 0 ? bb - fb * (bb - a) / den : 0.5 * (a + bb);
        t = fmin(fmax(t, a + 0.5 * tol), bb - 0.5 * tol);
        mech_status st = event_value(s, k, d, redo, t, &ft, err);
        if (st) return st;
        if (ft >= 0) {
            bb = t, fb = ft;
            if (side == 1) fa *= 0.5;
            side = 1;
        } else {
            a = t, fa = ft;
            if (side == -1) fb *= 0.5;
            side = -1;
        }
    }
    *b = bb;
    return MECH_OK;
}

/*
** Locates the crossing of event k in the last step, where d*g_k goes from < 0 at t0 to
** >= 0 at t1, and returns in *tev a time just after it (g has its new sign there).
**
** First on the dense output, to within tol.  The default tol is 1e-12*max(1 s, |t|): far
** above the rounding level of t (4500 ulps), so reachable, and below the accuracy of the
** dense output at any tolerance we use, so it adds no visible error.
**
** Then the time is checked against the state that mech_integ_truncate would give there
** (the step redone to that time, which differs from the dense output by about the local
** error): if g has not crossed yet in that state, the root is searched on to the step
** end, where the redone step reproduces y1 and so the new sign.  Without this, truncating
** to an event of DOPRI5 lands on the old side about half of the time, and the next step
** reports the same crossing again.  For BDF both states are the same interpolant.
*/
static mech_status locate(mech_integ *s, int k, int d, double *tev, mech_error *err)
{
    double a = s->t0, b = s->t1, v = 0;
    double tol = s->opt.event_tol > 0 ? s->opt.event_tol : 1e-12 * fmax(1, fabs(b));
    tol = fmax(tol, 4 * DBL_EPSILON * fmax(fabs(a), fabs(b)));
    mech_status st = illinois(s, k, d, 0, a, d * s->g0[k], &b, d * s->g1[k], tol, err);
    if (!st && b < s->t1) st = event_value(s, k, d, 1, b, &v, err);
    if (!st && v < 0) {
        a = b, b = s->t1;
        st = illinois(s, k, d, 1, a, v, &b, d * s->g1[k], tol, err);
    }
    *tev = b;
    return st;
}

/*
** Finds the events of the last step [t0, t1] from the signs of g at its ends.  A rising
** crossing goes from g < 0 to g >= 0, a falling one from g > 0 to g <= 0; so g == 0 at
** t0 (a root already reported, or one the user started on) never counts again.
*/
static mech_status find_events(mech_integ *s, mech_error *err)
{
    s->nevents = 0;
    for (int k = 0; k < s->nev; k++) {
        double ga = s->g0[k], gb = s->g1[k];
        int d = ga < 0 && gb >= 0 ? 1 : ga > 0 && gb <= 0 ? -1 : 0;
        if (!d || (s->dir[k] && s->dir[k] != d)) continue;
        double t;
        mech_status st = locate(s, k, d, &t, err);
        if (st) return st;
        int j = s->nevents++; /* insertion sort: earliest first, ties by index */
        for (; j > 0 && s->events[j - 1].t > t; j--) s->events[j] = s->events[j - 1];
        s->events[j] = (mech_integ_event){.index = k, .direction = d, .t = t};
    }
    s->stats.events += s->nevents;
    return MECH_OK;
}

/* ---- stepping ----------------------------------------------------------------------- */

/*
** The option project on the step end (t, yn, fn) of an explicit method (BDF projects inside
** CVODE), a step from (ta, ya, fa).  A projection that only renormalises quaternions changes no
** force and no motion (mech_project_fn): the step's derivative and dense output stay.  One that
** moved the state (a positive return) is followed where the step depends on it: the positions'
** rates in fn, the first stage of the next step, become those of the moved state (q' = u, or
** the kinematic map), and DOPRI5's dense output is formed again to end on the moved state with
** that slope, so that the dense output, the events and the next step all start from it.  The
** velocities' rates in fn (the accelerations) stay those of the end before the move: they
** differ by the forces' change over the projection's change, which is of the size of the step's
** error, times the step's length, and a new evaluation would cost a sixth of a DOPRI5 step.
*/
static mech_status project_explicit(mech_integ *s, mech_project_fn project, double t, double ta,
                                    const double *ya, const double *fa, mech_error *err)
{
    if (!project || s->ops->own_projection) return MECH_OK;
    int r = project(s->opt.project_ctx, t, s->yn);
    if (r < 0)
        return mech_error_set(err, MECH_ERR_CALLBACK,
                              "integrator: the projection of the state failed at t = %.17g", t);
    if (r == 0) return MECH_OK;
    const int nq = s->opt.second_order;
    if (nq > 0 && s->opt.kinematic) {
        if (s->opt.kinematic(s->opt.kinematic_ctx, s->yn, s->yn + nq, s->fn) != 0)
            return mech_error_set(err, MECH_ERR_CALLBACK,
                                  "integrator: the kinematic map failed at t = %.17g", t);
    } else if (nq > 0) {
        memcpy(s->fn, s->yn + nq, sizeof(double) * (size_t)nq);
    }
    if (s->ops->reproject) s->ops->reproject(s, ya, fa, t - ta);
    return MECH_OK;
}

/*
** Truncation to t inside the last step, projected (into yn, fn, rcn): an explicit method's
** state is the end of a step redone to t, BDF's the dense output at t; both are projected as
** the dense output's values are (project_output, else as a step end), so that an event located
** on the dense output has crossed in the state the run goes on from.
*/
static mech_status truncate_projected(mech_integ *s, double t, mech_error *err)
{
    mech_status st = s->ops->truncate(s, t, err);
    if (st) return st;
    mech_project_fn project = s->opt.project_output ? s->opt.project_output : s->opt.project;
    if (!s->ops->own_projection) return project_explicit(s, project, t, s->t0, s->y0, s->f0, err);
    if (s->opt.project_output && s->opt.project_output(s->opt.project_ctx, t, s->yn) < 0)
        return mech_error_set(err, MECH_ERR_CALLBACK,
                              "integrator: the projection of the state failed at t = %.17g", t);
    return MECH_OK;
}

mech_status mech_integ_step(mech_integ *s, double t_stop, mech_error *err)
{
    if (!s) return mech_error_set(err, MECH_ERR_ARG, "integrator is NULL");
    if (!s->ready)
        return mech_error_set(err, MECH_ERR_STATE, "integrator: mech_integ_init has not succeeded");
    s->nevents = 0;
    if (!(t_stop > s->t1) || !isfinite(t_stop))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator: t_stop = %.17g is not after the current time %.17g",
                              t_stop, s->t1);
    mech_status st = s->ops->step(s, t_stop, err);
    if (!st) st = project_explicit(s, s->opt.project, s->tn, s->t1, s->y1, s->f1, err);
    if (!st) st = call_g(s, s->tn, s->yn, s->gn, err);
    if (st) {
        if (s->ops->resync) s->ops->resync(s);
        return st;
    }
    /* accept: the attempt becomes the current state, the current state the step start */
    double *y = s->y0, *f = s->f0, *g = s->g0;
    s->y0 = s->y1, s->y1 = s->yn, s->yn = y;
    s->f0 = s->f1, s->f1 = s->fn, s->fn = f;
    s->g0 = s->g1, s->g1 = s->gn, s->gn = g;
    swap(&s->rc, &s->rcn);
    s->t0 = s->t1;
    s->t1 = s->tn;
    s->stats.steps++;
    s->stats.h_last = s->t1 - s->t0;
    return find_events(s, err);
}

double mech_integ_time(const mech_integ *s)
{
    return s->t1;
}

const double *mech_integ_state(const mech_integ *s)
{
    return s->y1;
}

double mech_integ_prev_time(const mech_integ *s)
{
    return s->t0;
}

int mech_integ_size(const mech_integ *s)
{
    return s->n;
}

/* Clamps t into the last step [t0, t1]; -1 if it is outside by more than rounding. */
static int clamp_to_step(const mech_integ *s, double *t)
{
    double tol = tround(s->t0, s->t1);
    if (!(*t >= s->t0 - tol && *t <= s->t1 + tol)) return -1;
    *t = fmin(fmax(*t, s->t0), s->t1);
    return 0;
}

mech_status mech_integ_dense(mech_integ *s, double t, double *y)
{
    if (!s || !y || !s->ready || clamp_to_step(s, &t)) return MECH_ERR_ARG;
    return dense_projected(s, t, y);
}

int mech_integ_events(const mech_integ *s, const mech_integ_event **events)
{
    if (events) *events = s->events;
    return s->nevents;
}

mech_status mech_integ_truncate(mech_integ *s, double t, mech_error *err)
{
    if (!s) return mech_error_set(err, MECH_ERR_ARG, "integrator is NULL");
    if (!s->ready)
        return mech_error_set(err, MECH_ERR_STATE, "integrator: mech_integ_init has not succeeded");
    if (clamp_to_step(s, &t))
        return mech_error_set(err, MECH_ERR_ARG,
                              "integrator: cannot truncate to t = %.17g, outside the last step "
                              "[%.17g, %.17g]",
                              t, s->t0, s->t1);
    int kept = 0;
    if (t < s->t1) {
        mech_status st = truncate_projected(s, t, err);
        if (!st) st = call_g(s, t, s->yn, s->gn, err);
        if (st) return st;
        swap(&s->y1, &s->yn);
        swap(&s->f1, &s->fn);
        swap(&s->g1, &s->gn);
        swap(&s->rc, &s->rcn);
        s->t1 = s->tn = s->tgrid = t;
        s->stats.h_last = t - s->t0;
        if (s->ops->resync) s->ops->resync(s);
        /* the events located after t: those whose functions have already crossed at t
        ** (within the location tolerance) are reported at t; the others are dropped and
        ** no longer counted (the next steps find them again if they still happen) */
        for (int e = 0; e < s->nevents; e++) {
            mech_integ_event ev = s->events[e];
            if (ev.t <= t) continue; /* the caller has delivered it */
            double ga = s->g0[ev.index], gb = s->g1[ev.index];
            if (ev.direction > 0 ? ga < 0 && gb >= 0 : ga > 0 && gb <= 0) {
                ev.t = t;
                s->events[kept++] = ev;
            } else {
                s->stats.events--;
            }
        }
    }
    s->nevents = kept;
    return MECH_OK;
}

void mech_integ_locate_limiting(mech_integ *s)
{
    /* DOPRI5 keeps the largest error of every attempt in fault; BDF asks CVODE */
    if (s && s->ops && s->ops->locate) s->ops->locate(s);
}

int mech_integ_fault(const mech_integ *integ)
{
    return integ ? integ->fault : -1;
}

double mech_integ_stiffness(const mech_integ *integ, int *steps)
{
    if (steps) *steps = integ ? integ->stiff : 0;
    return integ ? integ->hlamb : 0;
}

mech_integ_stats mech_integ_get_stats(const mech_integ *s)
{
    mech_integ_stats st = s->stats;
    if (s->ops->stats) s->ops->stats(s, &st);
    return st;
}

/* SPDX-License-Identifier: MIT */
/*
** Minimal TAP producer for the C unit tests of libmech (header only).
**     plan(3); ok(x == 1, "x is one"); is_num(a, b, 1e-12, "a"); return done_testing();
** The exit status is non-zero when a test failed or the plan was not met, so prove
** reports the file as failed.
*/
#ifndef MECH_TAP_H
#define MECH_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_planned = -1, tap_run = 0, tap_failed = 0;

static inline void plan(int n)
{
    tap_planned = n;
    printf("1..%d\n", n);
}

static inline void diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

static inline int ok(int cond, const char *name)
{
    tap_run++;
    if (!cond) tap_failed++;
    printf("%sok %d - %s\n", cond ? "" : "not ", tap_run, name);
    return cond;
}

/* Passes when |got - want| <= tol (both finite), or both are the same infinity/NaN. */
static inline int is_num(double got, double want, double tol, const char *name)
{
    int same = (isnan(got) && isnan(want)) || (isinf(got) && got == want) ||
               (isfinite(got) && isfinite(want) && fabs(got - want) <= tol);
    if (!ok(same, name)) diag("got %.17g, want %.17g (tolerance %g)", got, want, tol);
    return same;
}

/* The largest difference of two 3-vectors' components. */
static inline double vdiff(const double a[3], const double b[3])
{
    double d = 0;
    for (int i = 0; i < 3; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/* Passes when every component of got is within tol of want's. */
static inline int vec_is(const double got[3], const double want[3], double tol, const char *name)
{
    double d = vdiff(got, want);
    if (!ok(d <= tol, name))
        diag("got (%.17g, %.17g, %.17g), want (%.17g, %.17g, %.17g): off by %g", got[0], got[1],
             got[2], want[0], want[1], want[2], d);
    return d <= tol;
}

static inline int is_str(const char *got, const char *want, const char *name)
{
    int same = got && want && strcmp(got, want) == 0;
    if (!ok(same, name)) diag("got '%s', want '%s'", got ? got : "(null)", want ? want : "(null)");
    return same;
}

static inline int done_testing(void)
{
    if (tap_planned < 0)
        printf("1..%d\n", tap_run);
    else if (tap_planned != tap_run)
        diag("planned %d tests but ran %d", tap_planned, tap_run);
    fflush(stdout);
    return tap_failed > 0 || (tap_planned >= 0 && tap_planned != tap_run);
}

#endif

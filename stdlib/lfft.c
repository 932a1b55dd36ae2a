/* SPDX-License-Identifier: MIT */
/*
** fft: single-sided amplitude spectra of evenly sampled signals, over FFTW3.
**
**   local freq, amp = fft.spectrum(y, { dt = 1e-4, window = "hann", detrend = "mean" })
**
** y is a results column (its C array is read directly, without a Lua table in between)
** or a list of numbers.  Plans are made with FFTW_ESTIMATE: no measurement, no wisdom
** files, so the same input gives the same bits on every run.  The FFTW plan is the only
** resource that Lua's garbage collector does not own; it lives between two lines that
** cannot raise.
*/
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include <fftw3.h>
#include <lauxlib.h>
#include <lua.h>

#include "lfft.h"
#include "lmodule.h"

#define TWO_PI 6.283185307179586476925286766559

enum { WIN_HANN, WIN_NONE, WIN_HAMMING, WIN_BLACKMAN };
static const char *const window_names[] = {"hann", "none", "hamming", "blackman", NULL};

enum { DETREND_MEAN, DETREND_NONE, DETREND_LINEAR };
static const char *const detrend_names[] = {"mean", "none", "linear", NULL};

/*
** Window value at sample i of n, in the periodic (DFT-even) form: w(i) for i = 0..n-1 is
** one period of the window of length n + 1 with its last point dropped, so that a sine
** at a bin frequency falls on exactly three bins (Hann) and the coherent gain sum(w) / n
** is exactly 1/2 (Hann), 0.54 (Hamming), 0.42 (Blackman).
*/
static double window_value(int kind, long i, long n)
{
    double x = TWO_PI * (double)i / (double)n;
    switch (kind) {
    case WIN_HANN: return 0.5 - 0.5 * cos(x);
    case WIN_HAMMING: return 0.54 - 0.46 * cos(x);
    case WIN_BLACKMAN: return 0.42 - 0.5 * cos(x) + 0.08 * cos(2.0 * x);
    default: return 1.0;
    }
}

/*
** Removes the mean or the least-squares line a + b i (i = 0..n-1) from y[0..n-1].
*/
static void detrend(double *y, long n, int kind)
{
    if (kind == DETREND_NONE) return;
    double mean = 0;
    for (long i = 0; i < n; i++) mean += y[i];
    mean /= (double)n;
    double slope = 0, ic = 0.5 * (double)(n - 1); /* centre of the sample indices */
    if (kind == DETREND_LINEAR) {
        double sxy = 0, sxx = 0;
        for (long i = 0; i < n; i++) {
            double d = (double)i - ic;
            sxy += d * (y[i] - mean);
            sxx += d * d;
        }
        slope = sxx > 0 ? sxy / sxx : 0;
    }
    for (long i = 0; i < n; i++) y[i] -= mean + slope * ((double)i - ic);
}

/*
** Copies argument 1 (a column or a list of numbers) into a new userdata buffer, pushed on
** the stack, and returns it with its length in *n.  Raises on anything else.
*/
static double *read_signal(lua_State *L, const char *fn, long *n)
{
    const char *name;
    const double *col = lmech_to_column(L, 1, n, &name, NULL);
    if (col == NULL && luaL_testudata(L, 1, LMECH_COLUMN))
        lu_error(L, fn, "argument #1 is a column of a run that was freed");
    if (col == NULL && lua_type(L, 1) != LUA_TTABLE)
        lu_error(L, fn, "argument #1 must be a results column or a list of numbers (got %s)",
                 luaL_typename(L, 1));
    if (col == NULL) *n = (long)lua_rawlen(L, 1);
    if (*n < 2) lu_error(L, fn, "the signal needs at least 2 samples (got %ld)", *n);
    if (*n > INT_MAX / 2) lu_error(L, fn, "the signal is too long (%ld samples)", *n);
    double *y = lua_newuserdatauv(L, sizeof *y * (size_t)*n, 0);
    if (col) {
        memcpy(y, col, sizeof *y * (size_t)*n);
        for (long i = 0; i < *n; i++)
            if (!isfinite(y[i]))
                lu_error(L, fn, "sample %ld of column '%s' is not finite (%g)", i + 1, name, y[i]);
        return y;
    }
    for (long i = 0; i < *n; i++) {
        int t = lua_rawgeti(L, 1, (lua_Integer)i + 1);
        if (t != LUA_TNUMBER)
            lu_error(L, fn, "y[%ld] must be a number (got %s)", i + 1, luaL_typename(L, -1));
        y[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(y[i])) lu_error(L, fn, "y[%ld] must be finite (got %g)", i + 1, y[i]);
    }
    return y;
}

/* Pushes a list of the m numbers v[0..m-1]. */
static void push_list(lua_State *L, const double *v, long m)
{
    lua_createtable(L, (int)m, 0);
    for (long i = 0; i < m; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

/*
** fft.spectrum(y, { dt, window, detrend }) -> freq, amp
** The single-sided amplitude spectrum of n samples taken every dt seconds, at the
** frequencies k / (n dt), k = 0 .. floor(n / 2):
**   amp[k] = c_k |Y_k| / sum(w),  Y_k = sum_i w_i y_i exp(-2 pi j i k / n)
** with c_k = 2, except c_0 = 1 and, for even n, c_{n/2} = 1 (the Nyquist bin), where y is
** the signal after detrending and w the window.  Dividing by sum(w) (n times the coherent
** gain) makes a sine of amplitude A at a bin frequency read A, whatever the window.
*/
static int fft_spectrum(lua_State *L)
{
    const char *fn = "fft.spectrum";
    static const char *const known[] = {"dt", "window", "detrend", NULL};
    int o = lu_checktable(L, 2, fn, "of options { dt = ..., window = ..., detrend = ... }");
    lu_checkfields(L, o, fn, known, 0);
    double dt = lu_number(L, o, fn, "dt", 0, 1);
    if (!(dt > 0)) lu_error(L, fn, "field 'dt' must be > 0 (got %g)", dt);
    int win = lu_option(L, o, fn, "window", window_names, WIN_HANN);
    int trend = lu_option(L, o, fn, "detrend", detrend_names, DETREND_MEAN);
    lua_settop(L, 2);

    long n;
    double *y = read_signal(L, fn, &n); /* 3 */
    long m = n / 2 + 1;                 /* bins 0 .. floor(n / 2) */
    if (!(isfinite((double)n * dt) && isfinite(1.0 / ((double)n * dt))))
        return lu_error(L, fn, "field 'dt' = %g gives no finite frequencies for %ld samples", dt,
                        n);
    /* samples so large that sums of n of them could overflow are scaled down meanwhile */
    double big = 0, scale = 1;
    for (long i = 0; i < n; i++) big = fmax(big, fabs(y[i]));
    if (big > DBL_MAX / (8.0 * (double)n)) {
        scale = big;
        for (long i = 0; i < n; i++) y[i] /= scale;
    }
    fftw_complex *out = lua_newuserdatauv(L, sizeof *out * (size_t)m, 0); /* 4 */
    double *res = lua_newuserdatauv(L, sizeof *res * (size_t)m, 0);       /* 5 */

    detrend(y, n, trend);
    double gain = 0;
    for (long i = 0; i < n; i++) {
        double w = window_value(win, i, n);
        gain += w;
        y[i] *= w;
    }
    /* FFTW_ESTIMATE leaves the input alone while planning; nothing here can raise */
    fftw_plan plan = fftw_plan_dft_r2c_1d((int)n, y, out, FFTW_ESTIMATE);
    if (plan == NULL) return lu_error(L, fn, "FFTW could not plan a transform of %ld points", n);
    fftw_execute(plan);
    fftw_destroy_plan(plan);

    for (long k = 0; k < m; k++) {
        double c = (k == 0 || 2 * k == n) ? 1.0 : 2.0;
        res[k] = c * hypot(out[k][0], out[k][1]) / gain;
        if (scale != 1) res[k] *= scale;
        if (!isfinite(res[k]))
            return lu_error(L, fn, "the amplitude at bin %ld overflows (samples up to %g)", k + 1,
                            big);
    }
    lua_createtable(L, (int)m, 0);
    for (long k = 0; k < m; k++) {
        lua_pushnumber(L, (double)k / ((double)n * dt));
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    push_list(L, res, m);
    return 2;
}

static const luaL_Reg fft_funcs[] = {{"spectrum", fft_spectrum}, {NULL, NULL}};

int luaopen_fft(lua_State *L)
{
    luaL_newlib(L, fft_funcs);
    return 1;
}

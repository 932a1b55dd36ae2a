/* SPDX-License-Identifier: MIT */
/* Small dense LU with partial pivoting for the constrained solve (n is a few tens). */
#include <math.h>

#include "linalg.h"

int lu_factor(double *a, int n, int *piv, double tol)
{
    double scale = 0;
    for (int i = 0; i < n * n; i++) {
        double v = fabs(a[i]);
        if (v > scale) scale = v; /* not fmax: a libm call in this hot loop */
    }
    if (scale == 0) return n > 0 ? 0 : -1;
    double limit = tol * scale;
    for (int k = 0; k < n; k++) {
        int p = k;
        double best = fabs(a[k * n + k]);
        for (int i = k + 1; i < n; i++) {
            double v = fabs(a[i * n + k]);
            if (v > best) best = v, p = i;
        }
        if (!(best > limit)) return k;
        piv[k] = p;
        if (p != k)
            for (int j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
        double inv = 1.0 / a[k * n + k];
        for (int i = k + 1; i < n; i++) {
            double f = a[i * n + k] * inv;
            a[i * n + k] = f;
            if (f == 0) continue;
            for (int j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
        }
    }
    return -1;
}

void lu_solve(const double *a, int n, const int *piv, double *b)
{
    for (int k = 0; k < n; k++) {
        int p = piv[k];
        if (p != k) {
            double t = b[k];
            b[k] = b[p];
            b[p] = t;
        }
    }
    for (int i = 1; i < n; i++) {
        double s = b[i];
        for (int j = 0; j < i; j++) s -= a[i * n + j] * b[j];
        b[i] = s;
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int j = i + 1; j < n; j++) s -= a[i * n + j] * b[j];
        b[i] = s / a[i * n + i];
    }
}

int chol_factor(double *a, int n, double tol)
{
    double scale = 0;
    for (int i = 0; i < n; i++)
        if (a[i * n + i] > scale) scale = a[i * n + i];
    double limit = tol * scale;
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (int k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
        if (!(d > limit)) return j;
        double inv = 1.0 / sqrt(d);
        a[j * n + j] = inv; /* the solve multiplies by the reciprocal */
        for (int i = j + 1; i < n; i++) {
            double s = a[i * n + j];
            for (int k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s * inv;
        }
    }
    return -1;
}

void chol_solve(const double *a, int n, double *b)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++) s -= a[i * n + k] * b[k];
        b[i] = s * a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int k = i + 1; k < n; k++) s -= a[k * n + i] * b[k];
        b[i] = s * a[i * n + i];
    }
}

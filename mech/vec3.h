/* SPDX-License-Identifier: MIT */
/*
** Space vectors and 3 x 3 matrices, inline: the arithmetic every spatial formula shares.
** A vector is double[3]; a matrix double[9], row-major (m[3 * i + j] is row i, column j).
** An output may alias an input only where the comment says so.
*/
#ifndef MECH_VEC3_H
#define MECH_VEC3_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* Writes the reason of a refused input into why (when there is one: n > 0) and returns -1:
** the failure convention of the spatial geometry (rotation.c, inertia.c). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int
geom_fail(char *why, size_t n, const char *fmt, ...)
{
    if (why && n > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* out = a + b (out may alias a or b). */
static inline void vec3_add(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = a[i] + b[i];
}

/* out = a - b (out may alias a or b). */
static inline void vec3_sub(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = a[i] - b[i];
}

/* out = s a (out may alias a). */
static inline void vec3_scale(double s, const double a[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = s * a[i];
}

static inline double vec3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* out = a x b (out may not alias a or b). */
static inline void vec3_cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The Euclidean length, without overflow or underflow of the squares. */
static inline double vec3_norm(const double a[3])
{
    return hypot(hypot(a[0], a[1]), a[2]);
}

/* out = a / |a| (out may alias a); returns the length, or 0 with out untouched when a is
** zero or not finite (no direction). */
static inline double vec3_unit(const double a[3], double out[3])
{
    double n = vec3_norm(a);
    if (!(n > 0) || !isfinite(n)) return 0;
    for (int i = 0; i < 3; i++) out[i] = a[i] / n;
    return n;
}

/* Whether all three components are finite. */
static inline int vec3_finite(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

/* Whether all nine entries are finite. */
static inline int mat3_finite(const double m[9])
{
    for (int i = 0; i < 9; i++)
        if (!isfinite(m[i])) return 0;
    return 1;
}

/* out = M v (out may not alias v). */
static inline void mat3_vec(const double m[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
}

/* out = M^T v (out may not alias v). */
static inline void mat3t_vec(const double m[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = m[i] * v[0] + m[3 + i] * v[1] + m[6 + i] * v[2];
}

/* out = A B (out may not alias A or B). */
static inline void mat3_mul(const double a[9], const double b[9], double out[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

/* out = A^T B (out may not alias A or B). */
static inline void mat3t_mul(const double a[9], const double b[9], double out[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
}

/* out = A B^T (out may not alias A or B). */
static inline void mat3_mul_t(const double a[9], const double b[9], double out[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] =
                a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
}

/* out = A^T (out may alias A). */
static inline void mat3_transpose(const double a[9], double out[9])
{
    double t;
    out[0] = a[0];
    out[4] = a[4];
    out[8] = a[8];
    t = a[1], out[1] = a[3], out[3] = t;
    t = a[2], out[2] = a[6], out[6] = t;
    t = a[5], out[5] = a[7], out[7] = t;
}

/* The skew-symmetric (tilde) matrix of a: tilde(a) b = a x b. */
static inline void vec3_skew(const double a[3], double out[9])
{
    out[0] = 0, out[1] = -a[2], out[2] = a[1];
    out[3] = a[2], out[4] = 0, out[5] = -a[0];
    out[6] = -a[1], out[7] = a[0], out[8] = 0;
}

/* The determinant. */
static inline double mat3_det(const double m[9])
{
    return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
           m[2] * (m[3] * m[7] - m[4] * m[6]);
}

#endif

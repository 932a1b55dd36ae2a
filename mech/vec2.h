/* SPDX-License-Identifier: MIT */
/* Plane vectors and rotations, inline: the arithmetic every planar formula shares. */
#ifndef MECH_VEC2_H
#define MECH_VEC2_H

#include <math.h>

/* out = A v for the rotation whose angle has cosine c and sine s (out may not alias v). */
static inline void vec2_rotate(double c, double s, const double v[2], double out[2])
{
    out[0] = c * v[0] - s * v[1];
    out[1] = s * v[0] + c * v[1];
}

/* out = A^T v: v seen in the frame turned by the rotation (c, s) (out may not alias v). */
static inline void vec2_rotate_back(double c, double s, const double v[2], double out[2])
{
    out[0] = c * v[0] + s * v[1];
    out[1] = -s * v[0] + c * v[1];
}

/* Whether both components are finite. */
static inline int vec2_finite(const double v[2])
{
    return isfinite(v[0]) && isfinite(v[1]);
}

static inline double vec2_dot(const double a[2], const double b[2])
{
    return a[0] * b[0] + a[1] * b[1];
}

/* The z component of a x b: the moment of force b at offset a. */
static inline double vec2_cross(const double a[2], const double b[2])
{
    return a[0] * b[1] - a[1] * b[0];
}

#endif

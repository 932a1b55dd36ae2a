/* SPDX-License-Identifier: MIT */
/* The rotation about a spatial joint's axis (spatial_frame.h), for drivers, rotational springs
** and channels. */
#include <math.h>

#include "spatial_frame.h"

#define TWO_PI 6.283185307179586476925

/* theta in (-pi, pi] moved by whole turns to within pi of near. */
static double unwrap(double theta, double near)
{
    if (!isfinite(near)) return theta;
    return theta + TWO_PI * nearbyint((near - theta) / TWO_PI);
}

double frame_angle(const sframe *f, double near)
{
    double xa[3], ya[3], xb[3];
    mat3_col(f->Wa, 0, xa);
    mat3_col(f->Wa, 1, ya);
    mat3_col(f->Wb, 0, xb);
    return unwrap(atan2(vec3_dot(ya, xb), vec3_dot(xa, xb)), near);
}

void angle_row(const sframe *f, double near, crow *r)
{
    const double *oa = f->ua + 3, *ob = f->ub + 3;
    double xa[3], ya[3], xb[3];
    mat3_col(f->Wa, 0, xa);
    mat3_col(f->Wa, 1, ya);
    mat3_col(f->Wb, 0, xb);
    double c = vec3_dot(xa, xb), s = vec3_dot(ya, xb), n = c * c + s * s;
    szero_row(r);
    r->phi = unwrap(atan2(s, c), near);
    /* g = y_a x x_b, k = x_a x x_b: c' = k . dw, s' = g . dw, dw = omega_a - omega_b */
    double g[3], k[3], h[3], dw[3];
    vec3_cross(ya, xb, g);
    vec3_cross(xa, xb, k);
    vec3_sub(oa, ob, dw);
    for (int i = 0; i < 3; i++) {
        h[i] = (c * g[i] - s * k[i]) / n;
        r->ja[3 + i] = h[i];
        r->jb[3 + i] = -h[i];
    }
    /* theta'' = h . (alpha_a - alpha_b) + h' . dw: gamma = -h' . dw, with
    ** h' = (c' g + c g' - s' k - s k') / n - h n' / n,  n' = 2 (c c' + s s'),
    ** g' = (omega_a x y_a) x x_b + y_a x (omega_b x x_b), likewise k' */
    double cd = vec3_dot(k, dw), sd = vec3_dot(g, dw), nd = 2 * (c * cd + s * sd);
    double oya[3], oxa[3], oxb[3], t1[3], t2[3], gd[3], kd[3];
    vec3_cross(oa, ya, oya);
    vec3_cross(oa, xa, oxa);
    vec3_cross(ob, xb, oxb);
    vec3_cross(oya, xb, t1);
    vec3_cross(ya, oxb, t2);
    vec3_add(t1, t2, gd);
    vec3_cross(oxa, xb, t1);
    vec3_cross(xa, oxb, t2);
    vec3_add(t1, t2, kd);
    double hd_dw = 0;
    for (int i = 0; i < 3; i++) {
        double hd = (cd * g[i] + c * gd[i] - sd * k[i] - s * kd[i]) / n - h[i] * nd / n;
        hd_dw += hd * dw[i];
    }
    r->gamma = -hd_dw;
}

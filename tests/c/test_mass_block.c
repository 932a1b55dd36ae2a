/* SPDX-License-Identifier: MIT */
/*
** The per-body mass blocks of the constrained solve (mass_block.h): a full block must give
** what the same matrix gives as a diagonal one, and a full inverse R D R^T (a spatial body's
** inertia in world axes, D its principal values, R its rotation) must act on rotated
** vectors as D acts on the originals: x^T (R D R^T) y = (R^T x)^T D (R^T y).  Values are O(1)
** and each is a sum of at most 36 products, so 1e-14 relative covers the rounding.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mass_block.h"
#include "tap.h"

/* A rotation about the unit axis (ax, ay, az) by angle, row-major. */
static void rotation(double ax, double ay, double az, double angle, double R[9])
{
    double c = cos(angle), s = sin(angle), t = 1 - c;
    double r[9] = {t * ax * ax + c,      t * ax * ay - s * az, t * ax * az + s * ay,
                   t * ax * ay + s * az, t * ay * ay + c,      t * ay * az - s * ax,
                   t * ax * az - s * ay, t * ay * az + s * ax, t * az * az + c};
    memcpy(R, r, sizeof r);
}

int main(void)
{
    /* a planar body at velocities 4..6 of u: diagonal, and the same as a full block */
    double minv[9] = {0, 0, 0, 0, 2.0, 2.0, 50.0, 0, 0};
    double full[9] = {2.0, 0, 0, 0, 2.0, 0, 0, 0, 50.0};
    mass_block d = {4, 3, 0, 0}, f = {4, 3, 1, 0};
    double x[3] = {0.3, -1.2, 0.07}, y[3] = {-0.8, 0.4, 1.5};
    double Q[9] = {0, 0, 0, 0, 3.0, -9.81, 0.25, 0, 0};
    double want = 0.3 * -0.8 * 2.0 + -1.2 * 0.4 * 2.0 + 0.07 * 1.5 * 50.0;
    is_num(mass_block_quad(&d, minv, full, x, y, 0.0), want, 1e-14, "diagonal x^T M^-1 y");
    is_num(mass_block_quad(&f, minv, full, x, y, 0.0), want, 1e-14, "the same block full");
    is_num(mass_block_quad(&d, minv, full, x, y, 1.5), 1.5 + want, 1e-14,
           "the product adds to the running sum");
    double wdot = 0.3 * 2.0 * 3.0 + -1.2 * 2.0 * -9.81 + 0.07 * 50.0 * 0.25;
    is_num(mass_block_dot(&d, minv, full, x, Q, 0.0), wdot, 1e-14,
           "diagonal x^T M^-1 Q reads Q at the block's velocities");
    is_num(mass_block_dot(&f, minv, full, x, Q, 0.0), wdot, 1e-14, "full x^T M^-1 Q");
    double acc_d[9] = {0}, acc_f[9] = {0};
    mass_block_apply(&d, minv, full, Q, acc_d);
    mass_block_apply(&f, minv, full, Q, acc_f);
    int same = 1, outside = 1;
    for (int i = 0; i < 9; i++) {
        same &= acc_d[i] == acc_f[i];
        if (i < 4 || i > 6) outside &= acc_d[i] == 0 && acc_f[i] == 0;
    }
    ok(same && acc_d[5] == 2.0 * -9.81, "M^-1 Q, diagonal and full alike");
    ok(outside, "M^-1 Q writes only the block's velocities");

    /* a spatial body: 6 velocities, the rotation block R D R^T */
    const double m = 2.5, D[3] = {1.0 / 0.02, 1.0 / 0.05, 1.0 / 0.11};
    double R[9];
    double n = sqrt(1.0 + 4.0 + 0.25);
    rotation(1.0 / n, 2.0 / n, -0.5 / n, 0.9, R);
    double M6[36] = {0};
    for (int i = 0; i < 3; i++) M6[i * 6 + i] = 1.0 / m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += R[i * 3 + k] * D[k] * R[j * 3 + k];
            M6[(3 + i) * 6 + 3 + j] = s;
        }
    double a[6] = {0.4, -0.1, 0.9, 0.3, -0.7, 0.2}, b[6] = {-0.2, 0.6, 0.1, 1.1, 0.5, -0.4};
    double ra[6], rb[6]; /* the rotational parts turned by R */
    for (int i = 0; i < 3; i++) {
        ra[i] = a[i], rb[i] = b[i];
        ra[3 + i] = rb[3 + i] = 0;
        for (int k = 0; k < 3; k++) {
            ra[3 + i] += R[i * 3 + k] * a[3 + k];
            rb[3 + i] += R[i * 3 + k] * b[3 + k];
        }
    }
    double want6 = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / m;
    for (int k = 0; k < 3; k++) want6 += a[3 + k] * D[k] * b[3 + k];
    mass_block s6 = {0, 6, 1, 0};
    double none[6] = {0};
    double got = mass_block_quad(&s6, none, M6, ra, rb, 0.0);
    is_num(got, want6, 1e-14 * fabs(want6) + 1e-14, "full 6 x 6: rotated vectors see D");
    is_num(mass_block_quad(&s6, none, M6, rb, ra, 0.0), got, 1e-14 * fabs(got),
           "full 6 x 6: symmetric");
    double acc6[6];
    mass_block_apply(&s6, none, M6, rb, acc6);
    double xa = 0;
    for (int i = 0; i < 6; i++) xa += ra[i] * acc6[i];
    is_num(mass_block_dot(&s6, none, M6, ra, rb, 0.0), xa, 1e-14 * fabs(xa),
           "x^T (M^-1 f) by apply equals the dot");
    return done_testing();
}

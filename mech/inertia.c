/* SPDX-License-Identifier: MIT */
/*
** The inertia tensor of a spatial rigid body: construction, checks, inverse in world axes
** (inertia.h has the conventions).
*/
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "inertia.h"
#include "vec3.h"

void inertia_tensor(const double c[6], inertia_products conv, double J[9])
{
    double s = conv == INERTIA_PRODUCTS_TENSOR ? 1 : -1;
    J[0] = c[0], J[4] = c[1], J[8] = c[2];
    J[1] = J[3] = s * c[3]; /* xy */
    J[5] = J[7] = s * c[4]; /* yz */
    J[2] = J[6] = s * c[5]; /* zx */
}

/*
** Cyclic Jacobi: each step zeroes one off-diagonal entry a_pq by the plane rotation
** [c s; -s c] in (p, q) with t = s / c the smaller root of t^2 + 2 theta t - 1 = 0,
** theta = (a_qq - a_pp) / (2 a_pq); the sum of squares of the off-diagonal entries falls by
** 2 a_pq^2 each step and converges quadratically (Golub and Van Loan, Matrix Computations,
** the symmetric Jacobi method).  Three or four sweeps reach rounding for a 3 x 3.
*/
void sym3_eigen(const double S[9], double lambda[3], double V[9])
{
    double a[9], v[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(a, S, sizeof a);
    for (int sweep = 0; sweep < 32; sweep++) {
        double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
        double diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
        if (!(off > DBL_EPSILON * DBL_EPSILON * 1e-4 * diag)) break;
        for (int p = 0; p < 2; p++) {
            for (int q = p + 1; q < 3; q++) {
                double apq = a[3 * p + q];
                if (apq == 0) continue;
                double theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + hypot(theta, 1));
                double c = 1 / hypot(t, 1), s = t * c;
                a[3 * p + p] -= t * apq;
                a[3 * q + q] += t * apq;
                a[3 * p + q] = a[3 * q + p] = 0;
                int r = 3 - p - q;
                double arp = a[3 * r + p], arq = a[3 * r + q];
                a[3 * r + p] = a[3 * p + r] = c * arp - s * arq;
                a[3 * r + q] = a[3 * q + r] = s * arp + c * arq;
                for (int k = 0; k < 3; k++) {
                    double vp = v[3 * k + p], vq = v[3 * k + q];
                    v[3 * k + p] = c * vp - s * vq;
                    v[3 * k + q] = s * vp + c * vq;
                }
            }
        }
    }
    int ord[3] = {0, 1, 2};
    for (int i = 0; i < 2; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[4 * ord[j]] < a[4 * ord[i]]) {
                int t = ord[i];
                ord[i] = ord[j], ord[j] = t;
            }
    double w[9];
    for (int i = 0; i < 3; i++) {
        lambda[i] = a[4 * ord[i]];
        for (int k = 0; k < 3; k++) w[3 * k + i] = v[3 * k + ord[i]];
    }
    if (mat3_det(w) < 0)
        for (int k = 0; k < 3; k++) w[3 * k + 2] = -w[3 * k + 2];
    if (V) memcpy(V, w, sizeof w);
}

/* The checks on principal moments p (any order), named by names[i]. */
static int check_moments(const double p[3], const char *const names[3], double rtol, char *why,
                         size_t n)
{
    double big = fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2])));
    for (int i = 0; i < 3; i++)
        if (!(p[i] > 1e-12 * big))
            return geom_fail(why, n,
                             "inertia not positive definite: %s %.6g (%s %.6g, %s %.6g, %s %.6g)",
                             names[i], p[i], names[0], p[0], names[1], p[1], names[2], p[2]);
    for (int i = 0; i < 3; i++) {
        double a = p[(i + 1) % 3], b = p[(i + 2) % 3];
        if (a + b < p[i] * (1 - rtol))
            return geom_fail(why, n,
                             "inertia violates the triangle inequality: %s + %s = %.6g < %s = %.6g "
                             "(no mass distribution has these moments)",
                             names[(i + 1) % 3], names[(i + 2) % 3], a + b, names[i], p[i]);
    }
    return 0;
}

int inertia_check_principal(const double p[3], double rtol, char *why, size_t n)
{
    static const char *const names[3] = {"Ixx", "Iyy", "Izz"};
    if (!vec3_finite(p))
        return geom_fail(why, n, "inertia (%g, %g, %g) is not finite", p[0], p[1], p[2]);
    return check_moments(p, names, rtol, why, n);
}

int inertia_check(const double J[9], double rtol, char *why, size_t n)
{
    static const char *const names[3] = {"I1", "I2", "I3"};
    if (!mat3_finite(J)) return geom_fail(why, n, "inertia tensor has an entry that is not finite");
    double big = 0;
    for (int i = 0; i < 9; i++) big = fmax(big, fabs(J[i]));
    static const int pairs[3][2] = {{1, 3}, {5, 7}, {2, 6}};
    static const char *const pn[3] = {"xy", "yz", "zx"};
    for (int k = 0; k < 3; k++) {
        double x = J[pairs[k][0]], y = J[pairs[k][1]];
        if (fabs(x - y) > 1e-12 * big)
            return geom_fail(why, n, "inertia tensor not symmetric: its %s entries %.6g and %.6g",
                             pn[k], x, y);
    }
    double lam[3];
    sym3_eigen(J, lam, NULL);
    return check_moments(lam, names, rtol, why, n);
}

void inertia_inverse(const double J[9], double Jinv[9])
{
    double lam[3], V[9], W[9];
    sym3_eigen(J, lam, V);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) W[3 * k + i] = V[3 * k + i] / lam[i];
    mat3_mul_t(W, V, Jinv);     /* V diag(1/lambda) V^T */
    for (int i = 0; i < 3; i++) /* exactly symmetric */
        for (int j = i + 1; j < 3; j++)
            Jinv[3 * i + j] = Jinv[3 * j + i] = 0.5 * (Jinv[3 * i + j] + Jinv[3 * j + i]);
}

void inertia_world_inverse(const double A[9], const double Jinv[9], double out[9])
{
    double B[9];
    mat3_mul(A, Jinv, B);
    mat3_mul_t(B, A, out);
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            out[3 * i + j] = out[3 * j + i] = 0.5 * (out[3 * i + j] + out[3 * j + i]);
}

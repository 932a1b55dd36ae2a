/* SPDX-License-Identifier: MIT */
/*
** Inertia tensors of spatial rigid bodies (mech/inertia.h): the sign convention of the
** products, the checks that a mass distribution can have the tensor (with the reasons), the
** Jacobi eigen decomposition, and the world-axis inverse of the mass block.
**
** Tolerances are relative to the largest moment: every value is a short sum of products of
** O(1) numbers once scaled (a tensor from 8 point masses, a rotation A J A^T, three Jacobi
** sweeps, whose eigenvalues are exact to a few ulps of the largest), so 1e-14 of the scale
** except where a value goes through an inverse: J^-1 has the condition number of J (at most
** 10 in these tests) on its rounding, so 1e-13.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inertia.h"
#include "rotation.h"
#include "tap.h"
#include "vec3.h"

static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

static double mat_diff(const double a[9], const double b[9])
{
    double d = 0;
    for (int i = 0; i < 9; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/* The principal moments of a uniform box of mass m and sides a, b, c (along x, y, z). */
static void box_moments(double m, double a, double b, double c, double p[3])
{
    p[0] = m * (b * b + c * c) / 12;
    p[1] = m * (a * a + c * c) / 12;
    p[2] = m * (a * a + b * b) / 12;
}

/*
** The six components (Ixx, Iyy, Izz, Pxy, Pyz, Pzx), products as integrals, of the same box
** turned by A, computed without A J A^T: a uniform box has the second moments
** int x^2 dm = m a^2 / 12 ... and no products, as do eight masses m / 8 at the corners of a
** box of half-sides a / sqrt(12), b / sqrt(12), c / sqrt(12); turn those points by A and sum
** m_i (y^2 + z^2), m_i x y and so on over them.
*/
static void box_turned(double m, double a, double b, double c, const double A[9], double six[6])
{
    memset(six, 0, 6 * sizeof *six);
    double h[3] = {a / sqrt(12.0), b / sqrt(12.0), c / sqrt(12.0)};
    for (int k = 0; k < 8; k++) {
        double s[3] = {(k & 1 ? 1 : -1) * h[0], (k & 2 ? 1 : -1) * h[1], (k & 4 ? 1 : -1) * h[2]};
        double r[3];
        mat3_vec(A, s, r);
        double mi = m / 8;
        six[0] += mi * (r[1] * r[1] + r[2] * r[2]);
        six[1] += mi * (r[0] * r[0] + r[2] * r[2]);
        six[2] += mi * (r[0] * r[0] + r[1] * r[1]);
        six[3] += mi * r[0] * r[1];
        six[4] += mi * r[1] * r[2];
        six[5] += mi * r[2] * r[0];
    }
}

static void test_box(void)
{
    char why[200];
    /* the slider of the spatial slider-crank: 15 x 30 x 15 mm, 0.019 kg */
    double m = 0.019, a = 0.015, b = 0.030, c = 0.015, p[3];
    box_moments(m, a, b, c, p);
    is_num(p[0], 1.78125e-6, 1e-20, "the slider box: Ixx = m (b^2 + c^2) / 12");
    ok(inertia_check_principal(p, INERTIA_TRIANGLE_RTOL, why, sizeof why) == 0,
       "a box's principal moments pass");
    double J[9] = {p[0], 0, 0, 0, p[1], 0, 0, 0, p[2]};
    ok(inertia_check(J, INERTIA_TRIANGLE_RTOL, why, sizeof why) == 0, "and its tensor");

    /* turned by A: the tensor from point masses equals A J A^T */
    double e[4], A[9], six[6], Jt[9], Jt2[9], AJ[9], AJAt[9];
    rot_from_axis_angle((double[3]){0.3, -1, 0.6}, 0.9, e, NULL, 0);
    rot_matrix(e, A);
    box_turned(m, a, b, c, A, six);
    ok(fabs(six[3]) > 1e-3 * p[0] && fabs(six[4]) > 1e-3 * p[0] && fabs(six[5]) > 1e-3 * p[0],
       "the turned box has products of inertia");
    inertia_tensor(six, INERTIA_PRODUCTS_INTEGRAL, Jt);
    mat3_mul(A, J, AJ);
    mat3_mul_t(AJ, A, AJAt);
    double scale = p[0];
    ok(mat_diff(Jt, AJAt) < 1e-14 * scale,
       "products as integrals: the turned box's tensor is A J A^T");
    double neg[6] = {six[0], six[1], six[2], -six[3], -six[4], -six[5]};
    inertia_tensor(neg, INERTIA_PRODUCTS_TENSOR, Jt2);
    ok(mat_diff(Jt2, Jt) == 0, "the same given as the tensor's entries (-Pxy)");
    ok(Jt[1] == -six[3] && Jt[5] == -six[4] && Jt[2] == -six[5] && Jt[3] == Jt[1] &&
           Jt[7] == Jt[5] && Jt[6] == Jt[2],
       "(Ixx, Iyy, Izz, Pxy, Pyz, Pzx) land at xy, yz, zx, symmetric");
    ok(inertia_check(Jt, INERTIA_TRIANGLE_RTOL, why, sizeof why) == 0,
       "the turned tensor passes the checks");
    double lam[3], V[9];
    sym3_eigen(Jt, lam, V);
    double want[3] = {p[1], p[0], p[2]}; /* ascending: Iyy < Ixx = Izz */
    ok(fabs(lam[0] - want[0]) < 1e-14 * scale && fabs(lam[1] - want[1]) < 1e-14 * scale &&
           fabs(lam[2] - want[2]) < 1e-14 * scale,
       "its eigenvalues are the box's principal moments, ascending");
    double VL[9], R[9], VtV[9];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) VL[3 * r + k] = V[3 * r + k] * lam[k];
    mat3_mul_t(VL, V, R);
    mat3t_mul(V, V, VtV);
    ok(mat_diff(R, Jt) < 1e-14 * scale && mat_diff(VtV, I3) < 1e-14 && mat3_det(V) > 0,
       "J = V diag(lambda) V^T with V a rotation");
    /* the eigenvector of the smallest moment is the box's long axis, the body y turned */
    double ylong[3] = {A[1], A[4], A[7]}, v0[3] = {V[0], V[3], V[6]};
    is_num(fabs(vec3_dot(ylong, v0)), 1, 1e-12, "the least moment is about the long axis");

    /* the world inverse of the mass block */
    double Jinv[9], Jw[9], P[9];
    inertia_inverse(J, Jinv);
    is_num(Jinv[0] * p[0], 1, 1e-15, "the inverse of a diagonal tensor");
    inertia_world_inverse(A, Jinv, Jw);
    mat3_mul(Jw, Jt, P);
    ok(mat_diff(P, I3) < 1e-13, "A J^-1 A^T is the inverse of the turned tensor");
    ok(Jw[1] == Jw[3] && Jw[2] == Jw[6] && Jw[5] == Jw[7], "and exactly symmetric");
    double Jtinv[9];
    inertia_inverse(Jt, Jtinv);
    ok(mat_diff(Jtinv, Jw) < 1e-13 / scale, "the same as the inverse of the turned tensor");
}

static void test_refused(void)
{
    char why[240];
    /* (1, 1, 3): no mass distribution has these */
    ok(inertia_check_principal((double[3]){1, 1, 3}, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1,
       "principal moments (1, 1, 3) are refused");
    is_str(why,
           "inertia violates the triangle inequality: Ixx + Iyy = 2 < Izz = 3 (no mass "
           "distribution has these moments)",
           "naming the moments");
    ok(inertia_check_principal((double[3]){2, 0.5, 1.2}, INERTIA_TRIANGLE_RTOL, why, sizeof why) ==
               -1 &&
           strstr(why, "Iyy + Izz = 1.7 < Ixx = 2"),
       "whichever moment is too large");
    ok(inertia_check_principal((double[3]){1, 2, -0.5}, INERTIA_TRIANGLE_RTOL, why, sizeof why) ==
           -1,
       "a negative moment is refused");
    is_str(why, "inertia not positive definite: Izz -0.5 (Ixx 1, Iyy 2, Izz -0.5)", "naming it");
    ok(inertia_check_principal((double[3]){1, 1, 0}, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1,
       "a zero moment (a rod with no axial inertia) is refused");
    ok(inertia_check_principal((double[3]){0, 0, 0}, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1,
       "zero inertia is refused");
    ok(inertia_check_principal((double[3]){1, NAN, 1}, INERTIA_TRIANGLE_RTOL, why, sizeof why) ==
           -1,
       "NaN is refused");
    /* a thin plate meets the inequality with equality: it passes, and so does one whose
    ** moments were rounded to 4 digits (deficit 2.8e-4 relative), unless the tolerance is 0 */
    ok(inertia_check_principal((double[3]){1.25e-4, 2.5e-4, 3.75e-4}, 0, why, sizeof why) == 0,
       "a thin plate (I1 + I2 = I3) passes");
    double rounded[3] = {1.234e-4, 2.346e-4, 3.581e-4};
    ok(inertia_check_principal(rounded, INERTIA_TRIANGLE_RTOL, why, sizeof why) == 0,
       "a plate rounded to 4 digits passes at the default tolerance");
    ok(inertia_check_principal(rounded, 0, why, sizeof why) == -1, "and not at 0");
    /* products that make the tensor indefinite: diag(1, 1, 1) with Pxy = 2 has -1 */
    double J[9], six[6] = {1, 1, 1, 2, 0, 0};
    inertia_tensor(six, INERTIA_PRODUCTS_INTEGRAL, J);
    ok(inertia_check(J, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1,
       "a tensor with too large a product is refused");
    diag("%s", why);
    ok(strncmp(why, "inertia not positive definite: I1 -1 (I1 -1, I2 1, I3 3)", 56) == 0,
       "naming its principal moments");
    /* positive definite but no body: principal (1, 1, 3) turned */
    double e[4], A[9], D[9] = {1, 0, 0, 0, 1, 0, 0, 0, 3}, AD[9], T[9];
    rot_from_axis_angle((double[3]){1, 2, 2}, 0.4, e, NULL, 0);
    rot_matrix(e, A);
    mat3_mul(A, D, AD);
    mat3_mul_t(AD, A, T);
    ok(inertia_check(T, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1 &&
           strstr(why, "triangle inequality: I1 + I2 = 2 < I3 = 3"),
       "a turned tensor violating the triangle inequality, by its principal moments");
    double asym[9] = {1, 0.1, 0, 0.2, 1, 0, 0, 0, 1};
    ok(inertia_check(asym, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1, "an asymmetric tensor");
    is_str(why, "inertia tensor not symmetric: its xy entries 0.1 and 0.2", "is named");
    double inf[9] = {1, 0, 0, 0, INFINITY, 0, 0, 0, 1};
    ok(inertia_check(inf, INERTIA_TRIANGLE_RTOL, why, sizeof why) == -1, "an infinite entry");
}

static void test_eigen(void)
{
    /* a symmetric top (repeated moment) turned, and an already diagonal matrix */
    double e[4], A[9], D[9] = {2, 0, 0, 0, 2, 0, 0, 0, 1}, AD[9], T[9], lam[3], V[9];
    rot_from_axis_angle((double[3]){-1, 0.5, 3}, 2.1, e, NULL, 0);
    rot_matrix(e, A);
    mat3_mul(A, D, AD);
    mat3_mul_t(AD, A, T);
    sym3_eigen(T, lam, V);
    ok(fabs(lam[0] - 1) < 1e-14 && fabs(lam[1] - 2) < 1e-14 && fabs(lam[2] - 2) < 1e-14,
       "eigenvalues of a turned symmetric top (1, 2, 2)");
    double axis[3] = {A[2], A[5], A[8]}, v0[3] = {V[0], V[3], V[6]};
    is_num(fabs(vec3_dot(axis, v0)), 1, 1e-14, "its symmetry axis is the odd eigenvector");
    sym3_eigen((double[9]){3, 0, 0, 0, 1, 0, 0, 0, 2}, lam, V);
    ok(lam[0] == 1 && lam[1] == 2 && lam[2] == 3 && mat3_det(V) == 1,
       "a diagonal matrix: its diagonal sorted, V a permutation with det +1");
}

/*
** [Wang et al. 2025, Tab. 2]: (J_xx, J_yy, J_zz, J_xy, J_xz, J_yz) of crank, rod, slider,
** printed without their sign convention.  Positive definite either way, but the triangle
** inequality, which holds about any point of a real body (I1 + I2 - I3 = 2 int x3^2 dm in
** principal axes), decides more: crank and rod are possible only with the products read as
** integrals (as entries of the tensor they miss it by 6 % and 1.5 %), and the slider is
** possible in neither reading, its diagonal alone already failing (Jyy + Jzz = 6.75e-5 <
** Jxx = 7.34e-5).  The margins are far beyond INERTIA_TRIANGLE_RTOL.
*/
static void test_table(void)
{
    static const double tab[3][6] = {
        {8.433e-5, 8.638e-5, 1.366e-5, 3.480e-6, 1.158e-5, 1.944e-5},
        {5.439e-4, 5.514e-4, 1.247e-5, 3.729e-6, 5.593e-5, 2.797e-5},
        {7.340e-5, 6.198e-5, 5.541e-6, 3.943e-6, 1.948e-6, 1.399e-5},
    };
    static const char *const part[3] = {"crank", "rod", "slider"};
    static const int possible[3][2] = {{1, 0}, {1, 0}, {0, 0}}; /* integrals, tensor entries */
    char why[240], name[160];
    for (int k = 0; k < 3; k++) {
        /* our order is (xx, yy, zz, xy, yz, zx) */
        double six[6] = {tab[k][0], tab[k][1], tab[k][2], tab[k][3], tab[k][5], tab[k][4]};
        for (int conv = 0; conv < 2; conv++) {
            const char *how = conv ? "tensor entries" : "integrals";
            double J[9], lam[3];
            inertia_tensor(six, conv ? INERTIA_PRODUCTS_TENSOR : INERTIA_PRODUCTS_INTEGRAL, J);
            sym3_eigen(J, lam, NULL);
            int r = inertia_check(J, INERTIA_TRIANGLE_RTOL, why, sizeof why);
            diag("%s, products as %s: principal %.4g %.4g %.4g: %s", part[k], how, lam[0], lam[1],
                 lam[2], r ? why : "ok");
            snprintf(name, sizeof name, "Tab. 2 %s, products as %s: positive definite", part[k],
                     how);
            ok(lam[0] > 0, name);
            snprintf(name, sizeof name, "Tab. 2 %s, products as %s: %s", part[k], how,
                     possible[k][conv] ? "passes" : "refused by the triangle inequality");
            ok(possible[k][conv] ? r == 0 : r == -1 && strstr(why, "triangle inequality"), name);
        }
    }
}

int main(void)
{
    test_box();
    test_refused();
    test_eigen();
    test_table();
    return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
** Rotations as Euler parameters (mech/rotation.h) and the 3-vector arithmetic under them
** (mech/vec3.h).
**
** Tolerances.  Quaternions, matrices and unit vectors are O(1), and each value checked is a
** short chain of O(1) operations (a product of two quaternions, a matrix from a quaternion,
** Shepperd's square root and division by a number >= 1/2), so rounding stays within a few
** ulps: 1e-14 for these.  Euler angles read back through atan2 of matrix entries: away from
** the singularities (|cos b| or |sin b| >= 0.1 here) their error is at most a few ulps
** divided by that, so 1e-13.  Finite differences are central with step h = 1e-5 along a
** smooth curve of unit quaternions whose rates are O(1) (|omega| < 10): truncation
** h^2 / 6 |A'''| < 2e-8 (|A'''| <= |omega|^3), rounding eps / h ~ 2e-11, so 1e-8 (seen:
** a few 1e-10).  The rate e' is linear in e, so the central differences of its Jacobian
** have no truncation, only rounding: |e'| <= 20 here, step 1e-4, 20 eps / 1e-4 ~ 4e-11, so
** 1e-10.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rotation.h"
#include "tap.h"
#include "uniform.h"
#include "vec3.h"

static const double pi = 3.14159265358979323846;

/* Uniform in [lo, hi), the same samples every run. */
static unsigned long long rng_state = 0x2545f4914f6cdd1dULL;
static double uniform(double lo, double hi)
{
    return uniform_next(&rng_state, lo, hi);
}

static void random_quat(double e[4])
{
    do {
        for (int k = 0; k < 4; k++) e[k] = uniform(-1, 1);
    } while (rot_normalize(e, NULL, 0));
}

static double mat_diff(const double a[9], const double b[9])
{
    double d = 0;
    for (int i = 0; i < 9; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/* |a - b| up to the sign of the quaternion. */
static double quat_diff(const double a[4], const double b[4])
{
    double dp = 0, dm = 0;
    for (int k = 0; k < 4; k++) {
        dp = fmax(dp, fabs(a[k] - b[k]));
        dm = fmax(dm, fabs(a[k] + b[k]));
    }
    return fmin(dp, dm);
}

/* The elementary rotation about axis k (0 x, 1 y, 2 z) by t, written out independently. */
static void elementary(int k, double t, double R[9])
{
    double c = cos(t), s = sin(t);
    double x[9] = {1, 0, 0, 0, c, -s, 0, s, c}, y[9] = {c, 0, s, 0, 1, 0, -s, 0, c},
           z[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
    memcpy(R, k == 0 ? x : k == 1 ? y : z, sizeof x);
}

static void test_vec3(void)
{
    double a[3] = {1, 2, 3}, b[3] = {-4, 0.5, 2}, c[3], t[9], d[3];
    vec3_cross(a, b, c);
    vec3_skew(a, t);
    mat3_vec(t, b, d);
    ok(mat_diff((double[9]){c[0], c[1], c[2]}, (double[9]){d[0], d[1], d[2]}) == 0,
       "vec3: tilde(a) b = a x b");
    is_num(c[0], 2 * 2 - 3 * 0.5, 0, "vec3: cross product, x component");
    is_num(vec3_dot(c, a), 0, 1e-14, "vec3: a x b is normal to a");
    is_num(vec3_norm((double[3]){3, 4, 12}), 13, 1e-15, "vec3: |(3, 4, 12)| = 13");
    double u[3] = {0, 0, 0}, z[3] = {0, 0, 0};
    ok(vec3_unit(z, u) == 0, "vec3: the zero vector has no direction");
    ok(vec3_unit((double[3]){0, 0, NAN}, u) == 0, "vec3: nor a vector that is not finite");
    ok(vec3_unit((double[3]){0, 3, 4}, u) == 5 && u[1] == 0.6 && u[2] == 0.8,
       "vec3: the unit vector of (0, 3, 4)");
    ok(!vec3_finite((double[3]){1, INFINITY, 0}) && vec3_finite(a), "vec3: finite check");
    double M[9] = {1, 2, 3, 4, 5, 6, 7, 8, 10}, N[9] = {2, -1, 0, 0.5, 3, 1, -2, 1, 4};
    double MN[9], MtN[9], Mt[9], MtN2[9], MNt[9], Nt[9], MNt2[9], mv[3], mtv[3], mtv2[3];
    mat3_mul(M, N, MN);
    ok(MN[0] == 1 * 2 + 2 * 0.5 + 3 * -2 && MN[5] == 4 * 0 + 5 * 1 + 6 * 4,
       "mat3: product entries (0,0) and (1,2)");
    mat3_transpose(M, Mt);
    mat3t_mul(M, N, MtN);
    mat3_mul(Mt, N, MtN2);
    ok(mat_diff(MtN, MtN2) == 0, "mat3: M^T N = transpose(M) N");
    mat3_transpose(N, Nt);
    mat3_mul_t(M, N, MNt);
    mat3_mul(M, Nt, MNt2);
    ok(mat_diff(MNt, MNt2) == 0, "mat3: M N^T = M transpose(N)");
    mat3_vec(M, a, mv);
    mat3t_vec(M, a, mtv);
    mat3_vec(Mt, a, mtv2);
    ok(mv[2] == 7 + 16 + 30 && mat_diff((double[9]){mtv[0], mtv[1], mtv[2]},
                                        (double[9]){mtv2[0], mtv2[1], mtv2[2]}) == 0,
       "mat3: M v and M^T v");
    double T[9];
    memcpy(T, M, sizeof T);
    mat3_transpose(T, T);
    ok(mat_diff(T, Mt) == 0, "mat3: transpose in place");
    is_num(mat3_det(M), -3, 1e-13, "mat3: determinant");
    ok(!mat3_finite((double[9]){0, 0, 0, 0, NAN, 0, 0, 0, 0}) && mat3_finite(M),
       "mat3: finite check");
}

static void test_known(void)
{
    double e[4], A[9], v[3], w[3];
    char why[160];
    rot_from_axis_angle((double[3]){0, 0, 2}, pi / 2, e, why, sizeof why);
    rot_rotate(e, (double[3]){1, 0, 0}, v);
    ok(fabs(v[0]) < 1e-15 && fabs(v[1] - 1) < 1e-15 && fabs(v[2]) < 1e-15,
       "90 deg about z maps x to y");
    rot_rotate_back(e, (double[3]){0, 1, 0}, w);
    ok(fabs(w[0] - 1) < 1e-15 && fabs(w[1]) < 1e-15, "and back: the world y is the body x");
    rot_matrix(e, A);
    double Rz[9];
    elementary(2, pi / 2, Rz);
    ok(mat_diff(A, Rz) < 1e-15, "A(e) of 90 deg about z is the elementary R_z");
    /* 120 deg about (1, 1, 1) permutes the axes x -> y -> z -> x */
    rot_from_axis_angle((double[3]){1, 1, 1}, 2 * pi / 3, e, why, sizeof why);
    rot_rotate(e, (double[3]){0, 0, 1}, v);
    ok(fabs(v[0] - 1) < 1e-14 && fabs(v[1]) < 1e-14 && fabs(v[2]) < 1e-14,
       "120 deg about (1, 1, 1) maps z to x");
    double id[4];
    rot_identity(id);
    rot_matrix(id, A);
    ok(mat_diff(A, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}) == 0, "the identity quaternion");
    /* a rotation by more than 180 deg comes back as the same rotation with e0 >= 0 */
    rot_from_axis_angle((double[3]){0, 1, 0}, 1.5 * pi, e, why, sizeof why);
    ok(e[0] >= 0 && fabs(e[2] + sin(0.75 * pi)) < 1e-15, "270 deg about y is -90 deg: e0 >= 0");
}

static void test_algebra(void)
{
    int bad_comp = 0, bad_orth = 0, bad_conj = 0, bad_back = 0, bad_rt = 0, bad_gl = 0;
    for (int trial = 0; trial < 200; trial++) {
        double p[4], q[4], pq[4], Ap[9], Aq[9], Apq[9], ApAq[9], AtA[9];
        random_quat(p);
        random_quat(q);
        rot_mul(p, q, pq);
        rot_matrix(p, Ap);
        rot_matrix(q, Aq);
        rot_matrix(pq, Apq);
        mat3_mul(Ap, Aq, ApAq);
        bad_comp += mat_diff(Apq, ApAq) > 1e-14;
        mat3t_mul(Ap, Ap, AtA);
        bad_orth += mat_diff(AtA, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}) > 1e-14 ||
                    fabs(mat3_det(Ap) - 1) > 1e-14;
        double pc[4], ppc[4];
        rot_conj(p, pc);
        rot_mul(p, pc, ppc);
        bad_conj += quat_diff(ppc, (double[4]){1, 0, 0, 0}) > 1e-15;
        double v[3] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}, w[3], v2[3];
        rot_rotate(p, v, w);
        rot_rotate_back(p, w, v2);
        bad_back += fabs(v2[0] - v[0]) + fabs(v2[1] - v[1]) + fabs(v2[2] - v[2]) > 1e-14;
        double e[4];
        char why[120];
        bad_rt += rot_from_matrix(Ap, ROT_MATRIX_TOL, e, why, sizeof why) != 0 ||
                  quat_diff(e, p) > 1e-14 || e[0] < 0;
        double G[12], L[12], GLt[9], Ge[3], Le[3];
        rot_G(p, G);
        rot_L(p, L);
        for (int i = 0; i < 3; i++) {
            Ge[i] = Le[i] = 0;
            for (int k = 0; k < 4; k++) {
                Ge[i] += G[4 * i + k] * p[k];
                Le[i] += L[4 * i + k] * p[k];
            }
            for (int j = 0; j < 3; j++) {
                GLt[3 * i + j] = 0;
                for (int k = 0; k < 4; k++) GLt[3 * i + j] += G[4 * i + k] * L[4 * j + k];
            }
        }
        bad_gl += mat_diff(GLt, Ap) > 1e-14 || vec3_norm(Ge) > 1e-15 || vec3_norm(Le) > 1e-15;
    }
    ok(!bad_comp, "composition: A(p*q) = A(p) A(q) for 200 random pairs");
    ok(!bad_orth, "A(e) is orthonormal with det +1");
    ok(!bad_conj, "p * conj(p) = 1");
    ok(!bad_back, "rotate then rotate back gives the vector");
    ok(!bad_rt, "quaternion -> matrix -> quaternion (Shepperd) up to sign, e0 >= 0");
    ok(!bad_gl, "A = G L^T and G e = L e = 0");
    /* Shepperd's four branches, each by a rotation whose largest e_k is that one */
    int branches = 0;
    for (int k = 0; k < 4; k++) {
        double p[4] = {0.1, 0.2, -0.3, 0.25}, e[4], A[9];
        p[k] = 0.9;
        rot_normalize(p, NULL, 0);
        rot_matrix(p, A);
        branches += rot_from_matrix(A, ROT_MATRIX_TOL, e, NULL, 0) == 0 && quat_diff(e, p) < 1e-15;
    }
    ok(branches == 4, "Shepperd's method in each of its four branches");
    /* 180 degrees: e0 = 0, where a trace-only formula divides by zero */
    double A180[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1}, e[4];
    ok(rot_from_matrix(A180, ROT_MATRIX_TOL, e, NULL, 0) == 0 &&
           quat_diff(e, (double[4]){0, 0, 1, 0}) < 1e-15,
       "180 deg about y from its matrix");
}

static void test_bad_input(void)
{
    char why[200];
    double e[4], A[9];
    double refl[9] = {1, 0, 0, 0, 1, 0, 0, 0, -1};
    ok(rot_from_matrix(refl, ROT_MATRIX_TOL, e, why, sizeof why) == -1, "a reflection is refused");
    is_str(why, "not a rotation: det A = -1 (a reflection)", "with its reason");
    rot_from_axis_angle((double[3]){1, 2, 3}, 0.7, e, NULL, 0);
    rot_matrix(e, A);
    A[4] += 3e-3;
    ok(rot_from_matrix(A, ROT_MATRIX_TOL, e, why, sizeof why) == -1,
       "a matrix 3e-3 from a rotation is refused");
    ok(strncmp(why, "not a rotation: |A^T A - I| = 0.00", 34) == 0, "naming |A^T A - I|");
    diag("%s", why);
    ok(rot_from_matrix(A, 1e-2, e, why, sizeof why) == 0, "and accepted at tolerance 1e-2");
    A[0] = NAN;
    ok(rot_from_matrix(A, 1, e, why, sizeof why) == -1, "a matrix with NaN is refused");
    ok(rot_from_axis_angle((double[3]){0, 0, 0}, 1, e, why, sizeof why) == -1,
       "a zero axis is refused");
    is_str(why, "axis has zero length", "with its reason");
    ok(rot_from_axis_angle((double[3]){0, 0, 1}, INFINITY, e, why, sizeof why) == -1,
       "an infinite angle is refused");
    double z[4] = {0, 0, 0, 0};
    ok(rot_normalize(z, why, sizeof why) == -1, "a zero quaternion cannot be normalised");
    is_str(why, "quaternion is zero", "with its reason");
    double big[4] = {3e200, 4e200, 0, 0};
    ok(rot_normalize(big, why, sizeof why) == 0 && fabs(big[0] - 0.6) < 1e-15,
       "a huge quaternion normalises without overflow");
    ok(rot_euler_axes("xxy", (int[3]){0}, why, sizeof why) == -1, "'xxy' is no Euler sequence");
    ok(strncmp(why, "'xxy' is not an Euler sequence", 30) == 0, "with its reason");
    ok(rot_from_euler("abc", (double[3]){0, 0, 0}, e, NULL, 0) == -1 &&
           rot_from_euler(NULL, (double[3]){0, 0, 0}, e, NULL, 0) == -1 &&
           rot_to_euler("xyzx", (double[4]){1, 0, 0, 0}, (double[3]){0}, NULL, 0) == -1,
       "nor 'abc', NULL, 'xyzx'");
    /* the buffer is optional and too short ones are cut, terminated */
    char tiny[8];
    ok(rot_from_axis_angle((double[3]){0, 0, 0}, 1, e, tiny, sizeof tiny) == -1 &&
           strcmp(tiny, "axis ha") == 0,
       "a short reason buffer is cut and terminated");
}

static void test_axes(void)
{
    char why[200];
    double e[4], A[9];
    /* body x along world (1, 1, 0), body y near world z: third axis z = x X y */
    double u[3] = {1, 1, 0}, v[3] = {0.3, -0.1, 2};
    ok(rot_from_axes(0, u, 1, v, e, why, sizeof why) == 0, "a frame from body x and y");
    rot_matrix(e, A);
    double s = 1 / sqrt(2.0);
    ok(fabs(A[0] - s) < 1e-15 && fabs(A[3] - s) < 1e-15 && fabs(A[6]) < 1e-15,
       "its body x is u, kept");
    double y[3] = {A[1], A[4], A[7]}, ax[3] = {A[0], A[3], A[6]};
    ok(fabs(vec3_dot(y, ax)) < 1e-15 && vec3_dot(y, v) > 0 && fabs(y[2] - 0.99) < 0.01,
       "its body y is v orthogonalised, on v's side");
    double AtA[9];
    mat3t_mul(A, A, AtA);
    ok(mat_diff(AtA, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}) < 1e-14 && mat3_det(A) > 0,
       "a right-handed orthonormal frame");
    /* every ordered pair of axes gives back a random rotation from two of its columns */
    int bad = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (i == j) continue;
            double p[4], Ap[9], ci[3], cj[3], q[4];
            random_quat(p);
            rot_matrix(p, Ap);
            for (int r = 0; r < 3; r++) {
                ci[r] = 2.5 * Ap[3 * r + i];
                cj[r] = 0.7 * Ap[3 * r + j] + 0.4 * Ap[3 * r + i]; /* not orthogonal */
            }
            bad += rot_from_axes(i, ci, j, cj, q, NULL, 0) != 0 || quat_diff(p, q) > 1e-14;
        }
    ok(!bad, "axes (i, j) of a rotation, scaled and skewed, give it back, all six pairs");
    ok(rot_from_axes(0, u, 1, (double[3]){2, 2, 1e-9}, e, why, sizeof why) == -1,
       "parallel axes are refused");
    ok(strncmp(why, "axes x and y are parallel (sine of their angle ", 47) == 0, "with its reason");
    diag("%s", why);
    ok(rot_from_axes(2, (double[3]){0, 0, 0}, 0, v, e, why, sizeof why) == -1, "a zero axis");
    is_str(why, "axis z has zero length", "is named");
    ok(rot_from_axes(2, u, 0, (double[3]){0, 0, 0}, e, why, sizeof why) == -1 &&
           strcmp(why, "axis x has zero length") == 0,
       "a zero second axis is named");
    ok(rot_from_axes(1, u, 1, v, e, why, sizeof why) == -1, "the same axis twice is refused");
    ok(rot_from_axes(0, (double[3]){NAN, 0, 0}, 1, v, e, NULL, 0) == -1, "NaN is refused");
}

/* The matrix of Euler angles written out from elementary rotations. */
static void euler_matrix(const char *seq, const double ang[3], double A[9])
{
    double R[9], T[9];
    elementary(seq[0] - 'x', ang[0], A);
    for (int k = 1; k < 3; k++) {
        elementary(seq[k] - 'x', ang[k], R);
        mat3_mul(A, R, T);
        memcpy(A, T, sizeof T);
    }
}

static void test_euler(void)
{
    char why[240];
    for (int s = 0; s < 12; s++) {
        const char *seq = rot_euler_names[s];
        int proper = seq[0] == seq[2], bad_m = 0, bad_rt = 0, bad_out = 0;
        for (int trial = 0; trial < 200; trial++) {
            double ang[3], e[4], A[9], Aw[9], back[3];
            ang[0] = uniform(-pi, pi);
            ang[2] = uniform(-pi, pi);
            ang[1] = proper ? uniform(0.1, pi - 0.1) : uniform(-pi / 2 + 0.1, pi / 2 - 0.1);
            bad_m += rot_from_euler(seq, ang, e, why, sizeof why) != 0;
            rot_matrix(e, A);
            euler_matrix(seq, ang, Aw);
            bad_m += mat_diff(A, Aw) > 1e-14;
            bad_rt += rot_to_euler(seq, e, back, why, sizeof why) != 0;
            for (int k = 0; k < 3; k++) bad_rt += fabs(back[k] - ang[k]) > 1e-13;
            /* angles outside the ranges: the same rotation, read back inside them */
            double wide[3] = {uniform(-7, 7), uniform(-7, 7), uniform(-7, 7)};
            if (proper ? fabs(sin(wide[1])) < 0.1 : fabs(cos(wide[1])) < 0.1) continue;
            rot_from_euler(seq, wide, e, NULL, 0);
            bad_out += rot_to_euler(seq, e, back, NULL, 0) != 0;
            euler_matrix(seq, back, A);
            euler_matrix(seq, wide, Aw);
            bad_out += mat_diff(A, Aw) > 1e-13 || fabs(back[0]) > pi || fabs(back[2]) > pi ||
                       (proper ? back[1] < 0 || back[1] > pi : fabs(back[1]) > pi / 2);
        }
        char name[120];
        snprintf(name, sizeof name, "Euler '%s': A of the quaternion = product of elementary R",
                 seq);
        ok(!bad_m, name);
        snprintf(name, sizeof name, "Euler '%s': angles -> quaternion -> the same angles", seq);
        ok(!bad_rt, name);
        snprintf(name, sizeof name, "Euler '%s': any angles read back in range, same rotation",
                 seq);
        ok(!bad_out, name);
    }
    /* intrinsic: "zyx" (30, 20, 10 deg) = 30 about z, then 20 about the new y, then 10
    ** about the newest x; the body x axis ends at (cos 30 cos 20, sin 30 cos 20, -sin 20) */
    double d = pi / 180, e[4], x[3];
    rot_from_euler("zyx", (double[3]){30 * d, 20 * d, 10 * d}, e, NULL, 0);
    rot_rotate(e, (double[3]){1, 0, 0}, x);
    ok(fabs(x[0] - cos(30 * d) * cos(20 * d)) < 1e-15 &&
           fabs(x[1] - sin(30 * d) * cos(20 * d)) < 1e-15 && fabs(x[2] + sin(20 * d)) < 1e-15,
       "'zyx' is intrinsic: yaw, then pitch about the new y");
    /* singular configurations, both ways */
    double ang[3];
    ok(rot_from_euler("zyx", (double[3]){0.3, pi / 2, 0.2}, e, why, sizeof why) == -1,
       "'zyx' with pitch 90 deg is refused (gimbal lock)");
    diag("%s", why);
    ok(strstr(why, "'zyx' singular (gimbal lock): middle angle 90 deg") != NULL,
       "naming the sequence and the angle");
    double A[9], Aw[9];
    rot_matrix(e, A);
    euler_matrix("zyx", (double[3]){0.3, pi / 2, 0.2}, Aw);
    ok(mat_diff(A, Aw) < 1e-15, "its quaternion is still the rotation meant");
    ok(rot_to_euler("zyx", e, ang, why, sizeof why) == -1 && strstr(why, "gimbal lock"),
       "and it cannot be read back as 'zyx'");
    euler_matrix("zyx", ang, Aw);
    ok(mat_diff(A, Aw) < 1e-14 && ang[2] == 0 && fabs(ang[0] - 0.1) < 1e-12,
       "the fallback angles are the rotation (a = 0.3 - 0.2, c = 0)");
    ok(rot_from_euler("xyz", (double[3]){0.3, -pi / 2 + 1e-9, 0.2}, e, why, sizeof why) == -1,
       "'xyz' at -90 deg + 1e-9 is refused");
    ok(rot_from_euler("xyz", (double[3]){0.3, -pi / 2 + 1e-5, 0.2}, e, why, sizeof why) == 0,
       "'xyz' at -90 deg + 1e-5 is accepted");
    ok(rot_from_euler("zxz", (double[3]){0.3, 0, 0.2}, e, why, sizeof why) == -1,
       "'zxz' with middle angle 0 is refused");
    diag("%s", why);
    ok(strstr(why, "'zxz' singular: middle angle 0 deg") && strstr(why, "0 or 180"),
       "naming the sequence and the angle");
    ok(rot_to_euler("zxz", e, ang, why, sizeof why) == -1, "and cannot be read back");
    euler_matrix("zxz", ang, Aw);
    rot_matrix(e, A);
    ok(mat_diff(A, Aw) < 1e-14 && fabs(ang[0] - 0.5) < 1e-12,
       "the fallback angles are the rotation (a = 0.3 + 0.2, c = 0)");
    ok(rot_from_euler("yzy", (double[3]){0.3, pi, -0.2}, e, why, sizeof why) == -1,
       "'yzy' at 180 deg is refused");
    ok(rot_to_euler("yzy", e, ang, why, sizeof why) == -1, "and cannot be read back");
    euler_matrix("yzy", ang, Aw);
    rot_matrix(e, A);
    ok(mat_diff(A, Aw) < 1e-14, "its fallback angles are the rotation");
    ok(rot_from_euler("zyx", (double[3]){NAN, 0, 0}, e, why, sizeof why) == -1,
       "angles that are not finite are refused");
}

/* A smooth curve of unit quaternions: e(t) = n(t) / |n(t)|, n(t) = n0 + t n1 + t^2 n2. */
static void curve(double n[3][4], double t, double e[4], double edot[4])
{
    double m[4], md[4];
    for (int k = 0; k < 4; k++) {
        m[k] = n[0][k] + t * n[1][k] + t * t * n[2][k];
        md[k] = n[1][k] + 2 * t * n[2][k];
    }
    double r = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
    double rd = (m[0] * md[0] + m[1] * md[1] + m[2] * md[2] + m[3] * md[3]) / r;
    for (int k = 0; k < 4; k++) {
        e[k] = m[k] / r;
        if (edot) edot[k] = md[k] / r - m[k] * rd / (r * r);
    }
}

static void test_kinematics(void)
{
    const double h = 1e-5;
    double worst_w = 0, worst_b = 0, worst_map = 0, worst_norm = 0, worst_jac = 0;
    for (int trial = 0; trial < 50; trial++) {
        double n[3][4];
        random_quat(n[0]); /* |n(t)| >= 1 - 0.1 * 2 - 0.01 * 1 > 0.7: rates O(1) */
        for (int k = 0; k < 4; k++) n[1][k] = uniform(-1, 1), n[2][k] = uniform(-0.5, 0.5);
        double t = uniform(-0.1, 0.1), e[4], edot[4], ep[4], em[4], Ap[9], Am[9], A[9];
        curve(n, t, e, edot);
        curve(n, t + h, ep, NULL);
        curve(n, t - h, em, NULL);
        rot_matrix(e, A);
        rot_matrix(ep, Ap);
        rot_matrix(em, Am);
        double Ad[9], W[9], Wb[9];
        for (int i = 0; i < 9; i++) Ad[i] = (Ap[i] - Am[i]) / (2 * h);
        mat3_mul_t(Ad, A, W); /* tilde(omega_world) = A' A^T */
        mat3t_mul(A, Ad, Wb); /* tilde(omega_body) = A^T A' */
        double wfd[3] = {W[7], W[2], W[3]}, wbfd[3] = {Wb[7], Wb[2], Wb[3]}, w[3], wb[3];
        rot_omega_world(e, edot, w);
        rot_omega_body(e, edot, wb);
        for (int i = 0; i < 3; i++) {
            worst_w = fmax(worst_w, fabs(w[i] - wfd[i]));
            worst_b = fmax(worst_b, fabs(wb[i] - wbfd[i]));
        }
        /* the maps back: e' = 1/2 G^T omega = 1/2 L^T omega_body is the curve's rate */
        double r1[4], r2[4];
        rot_rate(e, w, r1);
        rot_rate_body(e, wb, r2);
        for (int k = 0; k < 4; k++)
            worst_map = fmax(worst_map, fmax(fabs(r1[k] - edot[k]), fabs(r2[k] - edot[k])));
        /* d|e|^2/dt = 2 e . e' = 0, for a unit e and for any other */
        double f[4] = {uniform(-2, 2), uniform(-2, 2), uniform(-2, 2), uniform(-2, 2)};
        double om[3] = {uniform(-10, 10), uniform(-10, 10), uniform(-10, 10)}, fd[4], fb[4];
        rot_rate(f, om, fd);
        rot_rate_body(f, om, fb);
        double de = 0, db = 0;
        for (int k = 0; k < 4; k++) de += f[k] * fd[k], db += f[k] * fb[k];
        worst_norm = fmax(worst_norm, fmax(fabs(de), fabs(db)));
        /* the Jacobians d(e')/de against central differences (e' linear in e: exact) */
        double J[16], Jb[16];
        rot_rate_jacobian(om, J);
        rot_rate_body_jacobian(om, Jb);
        for (int c = 0; c < 4; c++) {
            double fp[4], fm[4], rp[4], rm[4], bp[4], bm[4];
            memcpy(fp, f, sizeof fp);
            memcpy(fm, f, sizeof fm);
            fp[c] += 1e-4;
            fm[c] -= 1e-4;
            rot_rate(fp, om, rp);
            rot_rate(fm, om, rm);
            rot_rate_body(fp, om, bp);
            rot_rate_body(fm, om, bm);
            for (int r = 0; r < 4; r++) {
                worst_jac = fmax(worst_jac, fabs((rp[r] - rm[r]) / 2e-4 - J[4 * r + c]));
                worst_jac = fmax(worst_jac, fabs((bp[r] - bm[r]) / 2e-4 - Jb[4 * r + c]));
            }
        }
    }
    diag("finite differences: omega world %.2g, body %.2g; Jacobian %.2g", worst_w, worst_b,
         worst_jac);
    ok(worst_w < 1e-8, "omega_world = 2 G e' against A' A^T by finite differences");
    ok(worst_b < 1e-8, "omega_body = 2 L e' against A^T A' by finite differences");
    ok(worst_map < 1e-14, "e' = 1/2 G^T omega = 1/2 L^T omega_body gives the curve's rate back");
    ok(worst_norm < 1e-13, "the kinematic map keeps |e|: e . e' = 0 for any e and omega");
    ok(worst_jac < 1e-10, "d(e')/de of both maps against central differences");
    /* omega = A omega_body */
    double e[4], w[3], wb[3], Awb[3], edot[4] = {0.3, -0.2, 0.5, 0.1};
    random_quat(e);
    rot_omega_world(e, edot, w);
    rot_omega_body(e, edot, wb);
    rot_rotate(e, wb, Awb);
    ok(fabs(w[0] - Awb[0]) + fabs(w[1] - Awb[1]) + fabs(w[2] - Awb[2]) < 1e-14,
       "omega_world = A omega_body");
}

int main(void)
{
    test_vec3();
    test_known();
    test_algebra();
    test_bad_input();
    test_axes();
    test_euler();
    test_kinematics();
    return done_testing();
}

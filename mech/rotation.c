/* SPDX-License-Identifier: MIT */
/*
** Rotations in space as Euler parameters: conversions from and to matrices, axis-angle,
** two axes and Euler angles, and the kinematic matrices G and L (rotation.h has the
** conventions).
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rotation.h"
#include "vec3.h"

const char *const rot_euler_names[12] = {"xyz", "xzy", "yxz", "yzx", "zxy", "zyx",
                                         "xyx", "xzx", "yxy", "yzy", "zxz", "zyz"};

static const double pi = 3.14159265358979323846;

static int finite4(const double e[4])
{
    return isfinite(e[0]) && isfinite(e[1]) && isfinite(e[2]) && isfinite(e[3]);
}

void rot_identity(double e[4])
{
    e[0] = 1, e[1] = e[2] = e[3] = 0;
}

int rot_normalize(double e[4], char *why, size_t n)
{
    if (!finite4(e))
        return geom_fail(why, n, "quaternion (%g, %g, %g, %g) is not finite", e[0], e[1], e[2],
                         e[3]);
    double s = hypot(hypot(e[0], e[1]), hypot(e[2], e[3]));
    if (!(s > 0)) return geom_fail(why, n, "quaternion is zero");
    if (isinf(s)) { /* components near DBL_MAX: scaled by the largest first */
        double m = fmax(fmax(fabs(e[0]), fabs(e[1])), fmax(fabs(e[2]), fabs(e[3])));
        for (int k = 0; k < 4; k++) e[k] /= m;
        s = hypot(hypot(e[0], e[1]), hypot(e[2], e[3]));
    }
    for (int k = 0; k < 4; k++) e[k] /= s;
    return 0;
}

void rot_mul(const double p[4], const double q[4], double out[4])
{
    double r0 = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
    double r1 = p[0] * q[1] + q[0] * p[1] + p[2] * q[3] - p[3] * q[2];
    double r2 = p[0] * q[2] + q[0] * p[2] + p[3] * q[1] - p[1] * q[3];
    double r3 = p[0] * q[3] + q[0] * p[3] + p[1] * q[2] - p[2] * q[1];
    out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;
}

void rot_conj(const double e[4], double out[4])
{
    out[0] = e[0], out[1] = -e[1], out[2] = -e[2], out[3] = -e[3];
}

void rot_matrix(const double e[4], double A[9])
{
    double e0 = e[0], e1 = e[1], e2 = e[2], e3 = e[3];
    double d = e0 * e0 - e1 * e1 - e2 * e2 - e3 * e3;
    A[0] = d + 2 * e1 * e1;
    A[4] = d + 2 * e2 * e2;
    A[8] = d + 2 * e3 * e3;
    A[1] = 2 * (e1 * e2 - e0 * e3);
    A[3] = 2 * (e1 * e2 + e0 * e3);
    A[2] = 2 * (e1 * e3 + e0 * e2);
    A[6] = 2 * (e1 * e3 - e0 * e2);
    A[5] = 2 * (e2 * e3 - e0 * e1);
    A[7] = 2 * (e2 * e3 + e0 * e1);
}

void rot_rotate(const double e[4], const double v[3], double out[3])
{
    double A[9];
    rot_matrix(e, A);
    mat3_vec(A, v, out);
}

void rot_rotate_back(const double e[4], const double v[3], double out[3])
{
    double A[9];
    rot_matrix(e, A);
    mat3t_vec(A, v, out);
}

int rot_matrix_check(const double A[9], double tol, char *why, size_t n)
{
    if (!mat3_finite(A)) return geom_fail(why, n, "not a rotation: an entry is not finite");
    double AtA[9], err = 0;
    mat3t_mul(A, A, AtA);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) err = fmax(err, fabs(AtA[3 * i + j] - (i == j)));
    if (!(err <= tol)) return geom_fail(why, n, "not a rotation: |A^T A - I| = %.3g", err);
    double det = mat3_det(A);
    if (!(det > 0)) return geom_fail(why, n, "not a rotation: det A = %.3g (a reflection)", det);
    return 0;
}

/* Shepperd's choice: of 4 e_k^2 (k = 0..3), all computable from the diagonal, take the
** largest (at least 1 for a rotation, so its square root and the division are well
** conditioned), and the other three from the off-diagonal sums and differences
**     A10 - A01 = 4 e0 e3,  A02 - A20 = 4 e0 e2,  A21 - A12 = 4 e0 e1,
**     A01 + A10 = 4 e1 e2,  A02 + A20 = 4 e1 e3,  A12 + A21 = 4 e2 e3. */
static void shepperd(const double A[9], double e[4])
{
    double tr = A[0] + A[4] + A[8];
    double d[4] = {1 + tr, 1 + 2 * A[0] - tr, 1 + 2 * A[4] - tr, 1 + 2 * A[8] - tr};
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (d[i] > d[k]) k = i;
    double s = sqrt(d[k]), f = 0.5 / s; /* e_k = s / 2, others = (sum) / (4 e_k) */
    switch (k) {
    case 0:
        e[0] = 0.5 * s;
        e[1] = (A[7] - A[5]) * f;
        e[2] = (A[2] - A[6]) * f;
        e[3] = (A[3] - A[1]) * f;
        break;
    case 1:
        e[1] = 0.5 * s;
        e[0] = (A[7] - A[5]) * f;
        e[2] = (A[1] + A[3]) * f;
        e[3] = (A[2] + A[6]) * f;
        break;
    case 2:
        e[2] = 0.5 * s;
        e[0] = (A[2] - A[6]) * f;
        e[1] = (A[1] + A[3]) * f;
        e[3] = (A[5] + A[7]) * f;
        break;
    default:
        e[3] = 0.5 * s;
        e[0] = (A[3] - A[1]) * f;
        e[1] = (A[2] + A[6]) * f;
        e[2] = (A[5] + A[7]) * f;
        break;
    }
    if (e[0] < 0)
        for (int i = 0; i < 4; i++) e[i] = -e[i];
    double r = hypot(hypot(e[0], e[1]), hypot(e[2], e[3]));
    for (int i = 0; i < 4; i++) e[i] /= r;
}

int rot_from_matrix(const double A[9], double tol, double e[4], char *why, size_t n)
{
    if (rot_matrix_check(A, tol, why, n)) return -1;
    shepperd(A, e);
    return 0;
}

int rot_from_axis_angle(const double axis[3], double angle, double e[4], char *why, size_t n)
{
    double u[3];
    if (!vec3_finite(axis) || !isfinite(angle))
        return geom_fail(why, n, "axis (%g, %g, %g) or angle %g is not finite", axis[0], axis[1],
                         axis[2], angle);
    if (!vec3_unit(axis, u)) return geom_fail(why, n, "axis has zero length");
    double s = sin(0.5 * angle);
    e[0] = cos(0.5 * angle);
    for (int k = 0; k < 3; k++) e[k + 1] = s * u[k];
    if (e[0] < 0)
        for (int k = 0; k < 4; k++) e[k] = -e[k];
    return 0;
}

int rot_from_axes(int i, const double u[3], int j, const double v[3], double e[4], char *why,
                  size_t n)
{
    static const char name[] = "xyz";
    if (i < 0 || i > 2 || j < 0 || j > 2 || i == j)
        return geom_fail(why, n, "body axes %d and %d are not two different axes of x, y, z", i, j);
    if (!vec3_finite(u) || !vec3_finite(v))
        return geom_fail(why, n, "axis %c (%g, %g, %g) or %c (%g, %g, %g) is not finite", name[i],
                         u[0], u[1], u[2], name[j], v[0], v[1], v[2]);
    double a[3], b[3], c[3], w[3];
    if (!vec3_unit(u, a)) return geom_fail(why, n, "axis %c has zero length", name[i]);
    double vn = vec3_norm(v);
    if (!(vn > 0)) return geom_fail(why, n, "axis %c has zero length", name[j]);
    for (int k = 0; k < 3; k++) w[k] = v[k] / vn; /* (1 / vn overflows for a tiny v) */
    double p = vec3_dot(w, a);
    for (int k = 0; k < 3; k++) b[k] = w[k] - p * a[k];
    double s = vec3_norm(b); /* sine of the angle between u and v */
    if (!(s >= ROT_PARALLEL_TOL))
        return geom_fail(why, n, "axes %c and %c are parallel (sine of their angle %.3g)", name[i],
                         name[j], s);
    vec3_scale(1 / s, b, b);
    /* the third axis k: (i, j, k) cyclic gives k = i x j, else k = j x i */
    int k = 3 - i - j, cyclic = (j == (i + 1) % 3);
    if (cyclic)
        vec3_cross(a, b, c);
    else
        vec3_cross(b, a, c);
    double A[9];
    for (int r = 0; r < 3; r++) {
        A[3 * r + i] = a[r];
        A[3 * r + j] = b[r];
        A[3 * r + k] = c[r];
    }
    shepperd(A, e);
    return 0;
}

int rot_euler_axes(const char *seq, int axes[3], char *why, size_t n)
{
    for (int s = 0; s < 12; s++) {
        if (seq && strcmp(seq, rot_euler_names[s]) == 0) {
            for (int k = 0; k < 3; k++) axes[k] = seq[k] - 'x';
            return 0;
        }
    }
    return geom_fail(why, n,
                     "'%s' is not an Euler sequence (xyz, zyx, zxz, ...: three of x, y, z, "
                     "none twice in a row)",
                     seq ? seq : "(null)");
}

/* Whether the middle angle b (by its cosine and sine) is singular for the sequence. */
static int euler_singular(int proper, double cb, double sb, double *meas)
{
    *meas = proper ? fabs(sb) : fabs(cb);
    return !(*meas >= ROT_EULER_TOL);
}

static int euler_fail(char *why, size_t n, const char *seq, int proper, double b, double meas)
{
    if (proper)
        return geom_fail(why, n,
                         "Euler angles '%s' singular: middle angle %.9g deg (|sin| = %.3g) is at "
                         "0 or 180 deg, where only the sum or difference of the first and third is "
                         "defined",
                         seq, b * 180 / pi, meas);
    return geom_fail(
        why, n,
        "Euler angles '%s' singular (gimbal lock): middle angle %.9g deg (|cos| = %.3g) "
        "is at +-90 deg, where only the sum or difference of the first and third is "
        "defined",
        seq, b * 180 / pi, meas);
}

int rot_from_euler(const char *seq, const double ang[3], double e[4], char *why, size_t n)
{
    int ax[3];
    if (rot_euler_axes(seq, ax, why, n)) return -1;
    if (!vec3_finite(ang))
        return geom_fail(why, n, "Euler angles (%g, %g, %g) are not finite", ang[0], ang[1],
                         ang[2]);
    rot_identity(e);
    for (int k = 0; k < 3; k++) { /* e = q_a * q_b * q_c, each about its body axis */
        double q[4] = {cos(0.5 * ang[k]), 0, 0, 0};
        q[1 + ax[k]] = sin(0.5 * ang[k]);
        rot_mul(e, q, e);
    }
    if (e[0] < 0)
        for (int k = 0; k < 4; k++) e[k] = -e[k];
    double meas;
    int proper = ax[0] == ax[2];
    if (euler_singular(proper, cos(ang[1]), sin(ang[1]), &meas))
        return euler_fail(why, n, seq, proper, ang[1], meas);
    return 0;
}

/*
** Angles from the matrix A = R_i(a) R_j(b) R_k(c) (i, j, k the axes; for a proper sequence
** k = i and m is the axis that is neither).  With s = +1 when (i, j, m) or (i, j, k) runs
** cyclically (x y z, y z x, z x y), else -1:
**   Tait-Bryan:  A_ik = s sin b,  A_jk = -s sin a cos b,  A_kk = cos a cos b,
**                A_ij = -s cos b sin c,  A_ii = cos b cos c;
**   proper:      A_ii = cos b,  A_ji = sin a sin b,  A_mi = -s cos a sin b,
**                A_ij = sin b sin c,  A_im = s sin b cos c.
** The middle angle is taken by atan2 of its sine and cosine, both from entries, which keeps
** it accurate near the singularity as well as away from it.
*/
int rot_to_euler(const char *seq, const double e[4], double ang[3], char *why, size_t n)
{
    int ax[3];
    if (rot_euler_axes(seq, ax, why, n)) return -1;
    double q[4] = {e[0], e[1], e[2], e[3]}, A[9];
    if (rot_normalize(q, why, n)) return -1;
    rot_matrix(q, A);
#define M(r, c) A[3 * (r) + (c)]
    int i = ax[0], j = ax[1], proper = ax[0] == ax[2];
    int k = proper ? 3 - i - j : ax[2];
    double s = j == (i + 1) % 3 ? 1 : -1;
    double a, b, c, cb, sb;
    if (!proper) {
        sb = s * M(i, k);
        cb = hypot(M(i, i), M(i, j));
        b = atan2(sb, cb);
        a = atan2(-s * M(j, k), M(k, k));
        c = atan2(-s * M(i, j), M(i, i));
    } else {
        cb = M(i, i);
        sb = hypot(M(i, j), M(i, k));
        b = atan2(sb, cb);
        a = atan2(M(j, i), -s * M(k, i));
        c = atan2(M(i, j), s * M(i, k));
    }
    double meas;
    if (euler_singular(proper, cb, sb, &meas)) {
        /* With c = 0, A R_j(b)^T = R_i(a): a from the block of that product in the plane
        ** normal to axis i, (A R_j(b)^T)_{pp} = cos a and _{qp} = sin a for (i, p, q) cyclic. */
        double Rb[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, P[9];
        int p = (i + 1) % 3, r = (i + 2) % 3, u = (j + 1) % 3, w = (j + 2) % 3;
        Rb[3 * u + u] = Rb[3 * w + w] = cos(b);
        Rb[3 * w + u] = sin(b);
        Rb[3 * u + w] = -sin(b);
        mat3_mul_t(A, Rb, P);
        a = atan2(P[3 * r + p], P[3 * p + p]);
        ang[0] = a, ang[1] = b, ang[2] = 0;
        return euler_fail(why, n, seq, proper, b, meas);
    }
#undef M
    ang[0] = a, ang[1] = b, ang[2] = c;
    return 0;
}

void rot_G(const double e[4], double G[12])
{
    double g[12] = {-e[1], e[0], -e[3], e[2], -e[2], e[3], e[0], -e[1], -e[3], -e[2], e[1], e[0]};
    memcpy(G, g, sizeof g);
}

void rot_L(const double e[4], double L[12])
{
    double l[12] = {-e[1], e[0], e[3], -e[2], -e[2], -e[3], e[0], e[1], -e[3], e[2], -e[1], e[0]};
    memcpy(L, l, sizeof l);
}

/* out = 2 M x for a 3 x 4 M. */
static void times2(const double M[12], const double x[4], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] =
            2 * (M[4 * r] * x[0] + M[4 * r + 1] * x[1] + M[4 * r + 2] * x[2] + M[4 * r + 3] * x[3]);
}

/* out = 1/2 M^T w for a 3 x 4 M. */
static void half_t(const double M[12], const double w[3], double out[4])
{
    for (int c = 0; c < 4; c++) out[c] = 0.5 * (M[c] * w[0] + M[4 + c] * w[1] + M[8 + c] * w[2]);
}

void rot_omega_world(const double e[4], const double edot[4], double w[3])
{
    double G[12];
    rot_G(e, G);
    times2(G, edot, w);
}

void rot_omega_body(const double e[4], const double edot[4], double wb[3])
{
    double L[12];
    rot_L(e, L);
    times2(L, edot, wb);
}

void rot_rate(const double e[4], const double w[3], double edot[4])
{
    double G[12];
    rot_G(e, G);
    half_t(G, w, edot);
}

void rot_rate_body(const double e[4], const double wb[3], double edot[4])
{
    double L[12];
    rot_L(e, L);
    half_t(L, wb, edot);
}

/* 1/2 [0, -w^T; w, sign tilde(w)]. */
static void rate_jacobian(const double w[3], double sign, double J[16])
{
    double t[9];
    vec3_skew(w, t);
    J[0] = 0;
    for (int r = 0; r < 3; r++) {
        J[1 + r] = -0.5 * w[r];
        J[4 * (r + 1)] = 0.5 * w[r];
        for (int c = 0; c < 3; c++) J[4 * (r + 1) + 1 + c] = 0.5 * sign * t[3 * r + c];
    }
}

void rot_rate_jacobian(const double w[3], double J[16])
{
    rate_jacobian(w, 1, J);
}

void rot_rate_body_jacobian(const double wb[3], double J[16])
{
    rate_jacobian(wb, -1, J);
}

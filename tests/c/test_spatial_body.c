/* SPDX-License-Identifier: MIT */
/*
** One spatial rigid body (mech/spatial_body.h): pose and point kinematics against finite
** differences along an analytic motion, the kinematic map, forces by virtual power, the
** Newton-Euler equations against closed forms of torque-free motion, and the mass block.
**
** Tolerances.  Algebraic identities (the same quantity two ways: a 3 x 3 product against
** body axes, M^-1 M, a projection) are short chains of O(1) operations: a few ulps, 1e-14
** relative (1e-13 where an inverse of condition number <= 3 enters).  Finite differences:
** the five-point first derivative with step d = 1e-3 has truncation d^4 / 30 |f^(5)| and
** rounding about 1.5 eps |f| / d; the motion's rates are below 3 rad/s and its points within
** 1.5 m of the origin, so |f^(5)| < 3^5 * 1.5 and the error is below 2e-12 + 4e-13: 1e-10.
** The five-point second derivative with d = 3e-3: truncation d^4 / 90 |f^(6)| < 8.1e-11 /
** 90 * 3^6 * 1.5 = 1e-9, rounding 64 eps |f| / (12 d^2) < 2e-10: 1e-8.  The integrations
** (RK4 in this file) state their own estimates where they are.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inertia.h"
#include "rotation.h"
#include "spatial_body.h"
#include "tap.h"
#include "uniform.h"
#include "vec3.h"

static const double pi = 3.14159265358979323846;

/* Uniform in [lo, hi), the same samples every run. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static double uniform(double lo, double hi)
{
    return uniform_next(&rng_state, lo, hi);
}

static void random_vec(double lo, double hi, double v[3])
{
    for (int i = 0; i < 3; i++) v[i] = uniform(lo, hi);
}

static void random_quat(double e[4])
{
    do {
        for (int k = 0; k < 4; k++) e[k] = uniform(-1, 1);
    } while (rot_normalize(e, NULL, 0));
}

static double vec_diff(const double *a, const double *b, int n)
{
    double d = 0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

static double vec_norm(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * a[i];
    return sqrt(s);
}

/* ---- an analytic motion ---------------------------------------------------------------- */

/* The half-angle quaternion (cos th/2, sin th/2 n) and its first two time derivatives for
** th(t) with rates th1, th2. */
static void turn(const double n[3], double th, double th1, double th2, double f[4], double f1[4],
                 double f2[4])
{
    double c = cos(0.5 * th), s = sin(0.5 * th);
    f[0] = c, f1[0] = -0.5 * th1 * s, f2[0] = -0.5 * th2 * s - 0.25 * th1 * th1 * c;
    for (int i = 0; i < 3; i++) {
        f[1 + i] = s * n[i];
        f1[1 + i] = 0.5 * th1 * c * n[i];
        f2[1 + i] = (0.5 * th2 * c - 0.25 * th1 * th1 * s) * n[i];
    }
}

/*
** A smooth motion: r(t) on sines and a parabola, e(t) = p(t) * c(t) two turns about fixed
** axes with non-uniform angles, and from them q, u = (r', omega) and u' = (r'', alpha),
** omega = 2 G(e) e' and alpha = 2 G(e) e'' (G(e') e' = 0: G(x) x = 0 for any x).  Rates
** stay below 3 rad/s, |r| below 0.5 m.
*/
static void motion(double t, double q[7], double u[6], double ud[6])
{
    static const double n1[3] = {0.48, 0.6, 0.64}, n2[3] = {0.8, 0, -0.6};
    double a = 0.8 * t + 0.4 * sin(1.3 * t), a1 = 0.8 + 0.52 * cos(1.3 * t),
           a2 = -0.676 * sin(1.3 * t);
    double b = -0.5 * t + 0.3 * cos(0.9 * t), b1 = -0.5 - 0.27 * sin(0.9 * t),
           b2 = -0.243 * cos(0.9 * t);
    double p[4], p1[4], p2[4], c[4], c1[4], c2[4], x[4], y[4], e1[4], e2[4], G[12];
    turn(n1, a, a1, a2, p, p1, p2);
    turn(n2, b, b1, b2, c, c1, c2);
    rot_mul(p, c, q + 3);
    rot_mul(p1, c, x), rot_mul(p, c1, y);
    for (int k = 0; k < 4; k++) e1[k] = x[k] + y[k];
    rot_mul(p2, c, x), rot_mul(p, c2, y);
    for (int k = 0; k < 4; k++) e2[k] = x[k] + y[k];
    rot_mul(p1, c1, x);
    for (int k = 0; k < 4; k++) e2[k] += 2 * x[k];
    q[0] = 0.3 * sin(1.1 * t), u[0] = 0.33 * cos(1.1 * t), ud[0] = -0.363 * sin(1.1 * t);
    q[1] = 0.2 * cos(0.7 * t), u[1] = -0.14 * sin(0.7 * t), ud[1] = -0.098 * cos(0.7 * t);
    q[2] = 0.1 * t * t, u[2] = 0.2 * t, ud[2] = 0.2;
    rot_G(q + 3, G);
    for (int i = 0; i < 3; i++) {
        u[3 + i] = ud[3 + i] = 0;
        for (int k = 0; k < 4; k++) {
            u[3 + i] += 2 * G[4 * i + k] * e1[k];
            ud[3 + i] += 2 * G[4 * i + k] * e2[k];
        }
    }
}

/* The world position of body point s along the motion at t. */
static void motion_point(double t, const double s[3], double p[3])
{
    double q[7], u[6], ud[6], A[9], sw[3];
    motion(t, q, u, ud);
    spatial_rotation(q, A);
    spatial_point(q, A, s, sw, p);
}

/* The velocity of body point s along the motion at t (through spatial_point_velocity). */
static void motion_point_velocity(double t, const double s[3], double v[3])
{
    double q[7], u[6], ud[6], A[9], sw[3];
    motion(t, q, u, ud);
    spatial_rotation(q, A);
    spatial_point(q, A, s, sw, NULL);
    spatial_point_velocity(u, sw, v);
}

/* Five-point first and second derivatives of f(t) (3 components) with step d. */
static void fd1(void (*f)(double, const double *, double *), double t, const double *s, double d,
                double out[3])
{
    double m2[3], m1[3], p1[3], p2[3];
    f(t - 2 * d, s, m2), f(t - d, s, m1), f(t + d, s, p1), f(t + 2 * d, s, p2);
    for (int i = 0; i < 3; i++) out[i] = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * d);
}

static void fd2(void (*f)(double, const double *, double *), double t, const double *s, double d,
                double out[3])
{
    double m2[3], m1[3], z[3], p1[3], p2[3];
    f(t - 2 * d, s, m2), f(t - d, s, m1), f(t, s, z), f(t + d, s, p1), f(t + 2 * d, s, p2);
    for (int i = 0; i < 3; i++)
        out[i] = (-m2[i] + 16 * m1[i] - 30 * z[i] + 16 * p1[i] - p2[i]) / (12 * d * d);
}

static void test_pose(void)
{
    double q[7] = {1, -2, 3}, A[9], R[9], r[3], At[9];
    random_quat(q + 3);
    spatial_pose(q, r, A);
    rot_matrix(q + 3, R);
    ok(vec_diff(r, q, 3) == 0 && vec_diff(A, R, 9) < 1e-15,
       "pose: r is q's first three, A is rot_matrix(e) for a unit e");
    /* a non-unit e: the same rotation, not |e|^2 times it */
    for (int k = 3; k < 7; k++) q[k] *= 1.3;
    spatial_rotation(q, At);
    ok(vec_diff(At, R, 9) < 1e-15, "pose: e scaled by 1.3 gives the same rotation");
    double s[3] = {0.5, -0.25, 2}, sw[3], p[3], Rs[3];
    spatial_point(q, At, s, sw, p);
    mat3_vec(R, s, Rs);
    ok(vec_diff(sw, Rs, 3) < 1e-15 &&
           fabs(p[0] - 1 - sw[0]) + fabs(p[1] + 2 - sw[1]) + fabs(p[2] - 3 - sw[2]) == 0,
       "pose: a point's world offset is A s and its position r + A s");
}

static void test_point_kinematics(void)
{
    static const double ts[3] = {0.3, 1.7, 4.1};
    static const double ss[3][3] = {{1, 0, 0}, {0.3, -0.7, 0.5}, {-0.6, 0.2, 0.9}};
    double ev = 0, ea = 0, eav = 0, emap = 0;
    for (int i = 0; i < 3; i++) {
        double q[7], u[6], ud[6], A[9], qd[7];
        motion(ts[i], q, u, ud);
        spatial_rotation(q, A);
        for (int j = 0; j < 3; j++) {
            double sw[3], v[3], a[3], fv[3], fa[3], fav[3];
            spatial_point(q, A, ss[j], sw, NULL);
            spatial_point_velocity(u, sw, v);
            spatial_point_acceleration(u, ud, sw, a);
            fd1(motion_point, ts[i], ss[j], 1e-3, fv);
            fd2(motion_point, ts[i], ss[j], 3e-3, fa);
            fd1(motion_point_velocity, ts[i], ss[j], 1e-3, fav);
            ev = fmax(ev, vec_diff(v, fv, 3));
            ea = fmax(ea, vec_diff(a, fa, 3));
            eav = fmax(eav, vec_diff(a, fav, 3));
        }
        /* the map gives back the motion's e' (1/2 G^T 2 G e' = (I - e e^T) e' = e') */
        spatial_qdot(q, u, qd);
        double fq[3], fe[4];
        for (int k = 0; k < 4; k++) {
            double h = 1e-3, qq[7], uu[6], dd[6], m2, m1, p1, p2;
            motion(ts[i] - 2 * h, qq, uu, dd), m2 = qq[3 + k];
            motion(ts[i] - h, qq, uu, dd), m1 = qq[3 + k];
            motion(ts[i] + h, qq, uu, dd), p1 = qq[3 + k];
            motion(ts[i] + 2 * h, qq, uu, dd), p2 = qq[3 + k];
            fe[k] = (m2 - 8 * m1 + 8 * p1 - p2) / (12 * h);
        }
        for (int k = 0; k < 3; k++) fq[k] = u[k];
        emap = fmax(emap, fmax(vec_diff(qd + 3, fe, 4), vec_diff(qd, fq, 3)));
    }
    diag("point velocity vs FD %.2g, acceleration vs FD of position %.2g, of velocity %.2g, "
         "map vs FD of e(t) %.2g",
         ev, ea, eav, emap);
    ok(ev < 1e-10, "a point's velocity v + omega x s_w is the derivative of its position");
    ok(ea < 1e-8, "its acceleration a + alpha x s_w + omega x (omega x s_w) the second");
    ok(eav < 1e-10, "and the derivative of its velocity");
    ok(emap < 1e-10, "the map q' = N(q) u gives the motion's r' and e'");
}

/* One RK4 step of the map alone at constant u (no dynamics). */
static void rk4_map(double *q, const double *u, double h)
{
    double k[4][7], y[7];
    spatial_qdot(q, u, k[0]);
    for (int i = 0; i < 7; i++) y[i] = q[i] + 0.5 * h * k[0][i];
    spatial_qdot(y, u, k[1]);
    for (int i = 0; i < 7; i++) y[i] = q[i] + 0.5 * h * k[1][i];
    spatial_qdot(y, u, k[2]);
    for (int i = 0; i < 7; i++) y[i] = q[i] + h * k[2][i];
    spatial_qdot(y, u, k[3]);
    for (int i = 0; i < 7; i++) q[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
}

/* e(t) = (cos(|w| t / 2), sin(|w| t / 2) w / |w|) * e0 for a constant world spin w. */
static void spin(const double e0[4], const double w[3], double t, double e[4])
{
    double n = vec3_norm(w), d[4] = {cos(0.5 * n * t)};
    for (int i = 0; i < 3; i++) d[1 + i] = sin(0.5 * n * t) * w[i] / n;
    rot_mul(d, e0, e);
}

static void test_map(void)
{
    double e0[4], u[6] = {0.1, 0.2, 0.3, 1.2, -2.1, 0.9}, q[7] = {0}, qd[7], e[4];
    random_quat(e0);
    /* e' against central differences of the closed-form spin, at a few times */
    double err = 0;
    for (int i = 0; i < 3; i++) {
        double t = 0.7 * i, h = 1e-3, fe[4], m2[4], m1[4], p1[4], p2[4];
        spin(e0, u + 3, t, e);
        memcpy(q + 3, e, sizeof e);
        spatial_qdot(q, u, qd);
        spin(e0, u + 3, t - 2 * h, m2), spin(e0, u + 3, t - h, m1);
        spin(e0, u + 3, t + h, p1), spin(e0, u + 3, t + 2 * h, p2);
        for (int k = 0; k < 4; k++) fe[k] = (m2[k] - 8 * m1[k] + 8 * p1[k] - p2[k]) / (12 * h);
        err = fmax(err, vec_diff(qd + 3, fe, 4));
    }
    ok(err < 1e-10, "constant spin: e' = 1/2 G^T omega is the derivative of e(t)");
    /* e . e' = 0 for any e, unit or not, and it is rot_rate */
    double worst = 0, rr = 0;
    for (int i = 0; i < 20; i++) {
        double rate[4];
        random_quat(q + 3);
        for (int k = 3; k < 7; k++) q[k] *= uniform(0.5, 2);
        random_vec(-5, 5, u + 3);
        spatial_qdot(q, u, qd);
        rot_rate(q + 3, u + 3, rate);
        double dot = 0;
        for (int k = 0; k < 4; k++) dot += q[3 + k] * qd[3 + k];
        worst = fmax(worst, fabs(dot));
        rr = fmax(rr, vec_diff(qd + 3, rate, 4));
    }
    ok(worst < 1e-14 && rr < 1e-15, "the map keeps |e| (e . e' = 0 for any e) and is rot_rate");
    /* RK4 on the map alone: the norm's error per step is (|w| h / 2)^6 / 144 (the
    ** amplification of a rotation), here 1e-19, so only rounding moves |e|; the position
    ** error per step (|w| h / 2)^5 / 120 ~ 4e-17, 1e4 steps: a few 1e-13. */
    double wn[6] = {0, 0, 0, 1.2, -2.1, 0.9};
    memcpy(q + 3, e0, sizeof e0);
    for (int n = 0; n < 10000; n++) rk4_map(q, wn, 1e-3);
    spin(e0, wn + 3, 10, e);
    double nd = fabs(vec_norm(q + 3, 4) - 1), ed = vec_diff(q + 3, e, 4);
    diag("RK4 of the map over 1e4 steps: | |e| - 1 | = %.2g, e vs closed form %.2g", nd, ed);
    ok(nd < 1e-13 && ed < 1e-11, "integrating the map keeps |e| and follows the spin");
    /* the finite rotation: one displacement by w t is the spin itself */
    double du[6] = {1, 2, 3, 1.2 * 10, -2.1 * 10, 0.9 * 10};
    q[0] = q[1] = q[2] = 0;
    memcpy(q + 3, e0, sizeof e0);
    spatial_displace(q, du);
    ok(vec_diff(q + 3, e, 4) < 1e-14 && q[0] == 1 && q[1] == 2 && q[2] == 3,
       "spatial_displace by (dr, w t) moves r by dr and turns e as the spin does");
    double tiny[6] = {0, 0, 0, 1e-9, -2e-9, 3e-9}, qt[7] = {0}, qdt[7];
    memcpy(qt + 3, e0, sizeof e0);
    spatial_qdot(qt, tiny, qdt);
    spatial_displace(qt, tiny);
    for (int k = 3; k < 7; k++) qdt[k] = e0[k - 3] + qdt[k];
    /* they differ by |du|^2 / 8 ~ 2e-18 and the rounding of O(1) components (1e-16) */
    ok(vec_diff(qt + 3, qdt + 3, 4) < 4e-16 && fabs(vec_norm(qt + 3, 4) - 1) < 4e-16,
       "a tiny displacement is q + N(q) du and keeps |e| = 1");
}

static void test_project(void)
{
    double q[7] = {1, 2, 3}, A[9], B[9];
    random_quat(q + 3);
    spatial_rotation(q, A);
    for (int k = 3; k < 7; k++) q[k] *= 1.25;
    double d = spatial_project(q);
    spatial_rotation(q, B);
    is_num(d, 0.25, 1e-15, "projection returns how far |e| was from 1");
    ok(fabs(vec_norm(q + 3, 4) - 1) < 3e-16 && vec_diff(A, B, 9) < 1e-15 && q[0] == 1,
       "and leaves |e| = 1, the same rotation, r untouched");
    double z[7] = {0, 0, 0, 0, 0, 0, 0}, nan[7] = {0, 0, 0, NAN, 0, 0, 1};
    ok(spatial_project(z) == -1 && z[3] == 0 && spatial_project(nan) == -1 && nan[6] == 1,
       "a zero or NaN e is refused and left as it was");
}

static void test_forces(void)
{
    double worst = 0;
    for (int i = 0; i < 10; i++) {
        double q[7], u[6], s[3], f[3], t[3], A[9], sw[3], pv[3], Q[6] = {0}, Qt[6] = {0};
        random_vec(-1, 1, q), random_quat(q + 3);
        random_vec(-2, 2, u), random_vec(-2, 2, u + 3);
        random_vec(-1, 1, s), random_vec(-10, 10, f), random_vec(-10, 10, t);
        spatial_rotation(q, A);
        spatial_point(q, A, s, sw, NULL);
        spatial_point_velocity(u, sw, pv);
        spatial_add_force(Q, sw, f);
        spatial_add_torque(Qt, t);
        double pq = 0, pt = 0;
        for (int k = 0; k < 6; k++) pq += Q[k] * u[k], pt += Qt[k] * u[k];
        worst = fmax(worst, fabs(pq - vec3_dot(f, pv)) + fabs(pt - vec3_dot(t, u + 3)));
        worst = fmax(worst, vec_diff(Qt, (double[3]){0, 0, 0}, 3));
    }
    ok(worst < 1e-12, "a force's and a torque's generalized forces have their virtual power");
}

/* The inertia tensor J = V diag(p) V^T of principal moments p turned by the axis-angle. */
static void tensor(const double p[3], const double axis[3], double angle, double J[9])
{
    double e[4], V[9], D[9] = {p[0], 0, 0, 0, p[1], 0, 0, 0, p[2]}, VD[9];
    rot_from_axis_angle(axis, angle, e, NULL, 0);
    rot_matrix(e, V);
    mat3_mul(V, D, VD);
    mat3_mul_t(VD, V, J);
}

static void test_newton_euler_forms(void)
{
    double p[3] = {0.4, 0.7, 0.9}, J[9], Jinv[9], m = 2.5;
    tensor(p, (double[3]){1, 2, 3}, 0.7, J);
    inertia_inverse(J, Jinv);
    double ew = 0, emi = 0, eid = 0, eke = 0, eh = 0, ewb = 0, erate = 0;
    for (int i = 0; i < 10; i++) {
        double q[7], u[6], F[3], T[3], ud[6], A[9], Jw[9], AJ[9], Jww[3], gyro[3], rhs[3], Jal[3];
        random_vec(-1, 1, q), random_quat(q + 3);
        random_vec(-2, 2, u), random_vec(-3, 3, u + 3);
        random_vec(-5, 5, F), random_vec(-5, 5, T);
        spatial_accelerations(q, u, m, J, Jinv, F, T, ud);
        /* the world form with J_w = A J A^T written out */
        spatial_rotation(q, A);
        mat3_mul(A, J, AJ);
        mat3_mul_t(AJ, A, Jw);
        mat3_vec(Jw, u + 3, Jww);
        vec3_cross(u + 3, Jww, gyro);
        vec3_sub(T, gyro, rhs);
        mat3_vec(Jw, ud + 3, Jal);
        ew = fmax(ew, vec_diff(Jal, rhs, 3) / vec3_norm(rhs));
        for (int k = 0; k < 3; k++) ew = fmax(ew, fabs(ud[k] - F[k] / m));
        /* M^-1 (F, T + g) is the same, g the gyroscopic term */
        double Minv[36], M[36], g[3], Qf[6], ud2[6] = {0};
        spatial_gyroscopic(q, u, J, g);
        for (int k = 0; k < 3; k++) Qf[k] = F[k], Qf[3 + k] = T[k] + g[k];
        spatial_mass_inverse(q, m, Jinv, Minv);
        spatial_mass_matrix(q, m, J, M);
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) ud2[r] += Minv[6 * r + c] * Qf[c];
        emi = fmax(emi, vec_diff(ud, ud2, 6) / vec_norm(ud, 6));
        emi =
            fmax(emi, vec_diff(g, (double[3]){-gyro[0], -gyro[1], -gyro[2]}, 3) / vec3_norm(gyro));
        /* Minv M = I, and Minv is symmetric */
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) {
                double s = 0;
                for (int k = 0; k < 6; k++) s += Minv[6 * r + k] * M[6 * k + c];
                eid = fmax(eid, fabs(s - (r == c)));
                eid = fmax(eid, fabs(Minv[6 * r + c] - Minv[6 * c + r]));
            }
        /* kinetic energy 1/2 u^T M u, momentum J_w omega */
        double Mu[6] = {0}, uMu = 0, H[3];
        for (int r = 0; r < 6; r++) {
            for (int c = 0; c < 6; c++) Mu[r] += M[6 * r + c] * u[c];
            uMu += u[r] * Mu[r];
        }
        eke = fmax(eke, fabs(spatial_kinetic_energy(q, u, m, J) - 0.5 * uMu) / (0.5 * uMu));
        spatial_angular_momentum(q, u, J, H);
        eh = fmax(eh, vec_diff(H, Jww, 3) / vec3_norm(Jww));
        /* body-axis angular velocity to world and back; e' from either is the same */
        double wb[3], w[3], wb2[3], rb[4], qd[7], uw[6] = {0};
        random_vec(-3, 3, wb);
        spatial_omega_world(q, wb, w);
        memcpy(uw + 3, w, sizeof w);
        spatial_omega_body(q, uw, wb2);
        ewb = fmax(ewb, vec_diff(wb, wb2, 3));
        rot_rate_body(q + 3, wb, rb);
        spatial_qdot(q, uw, qd);
        erate = fmax(erate, vec_diff(qd + 3, rb, 4));
    }
    diag("world form %.2g, M^-1 Q %.2g, M^-1 M - I %.2g, energy %.2g, momentum %.2g", ew, emi, eid,
         eke, eh);
    ok(ew < 1e-14, "Newton-Euler through body axes solves J_w alpha = T - omega x J_w omega");
    ok(emi < 1e-14, "and equals M^-1 (F, T + g), g = -omega x J_w omega the gyroscopic term");
    ok(eid < 1e-13, "the inverse mass block times the mass matrix is the identity");
    ok(eke < 1e-14 && eh < 1e-14, "kinetic energy 1/2 u^T M u and momentum J_w omega");
    ok(ewb < 1e-14 && erate < 1e-14,
       "a body-axis angular velocity turned to world axes gives back the body-axis e' map");
}

/* ---- torque-free motion by RK4 --------------------------------------------------------- */

typedef struct rigid {
    double m, J[9], Jinv[9];
} rigid;

static void rhs(const rigid *b, const double *y, double *dy)
{
    spatial_qdot(y, y + 7, dy);
    spatial_accelerations(y, y + 7, b->m, b->J, b->Jinv, NULL, NULL, dy + 7);
}

/* One RK4 step of y = (q, u) (13 values), then the projection of e; returns | |e| - 1 |
** before it. */
static double rk4(const rigid *b, double *y, double h)
{
    double k1[13], k2[13], k3[13], k4[13], z[13];
    rhs(b, y, k1);
    for (int i = 0; i < 13; i++) z[i] = y[i] + 0.5 * h * k1[i];
    rhs(b, z, k2);
    for (int i = 0; i < 13; i++) z[i] = y[i] + 0.5 * h * k2[i];
    rhs(b, z, k3);
    for (int i = 0; i < 13; i++) z[i] = y[i] + h * k3[i];
    rhs(b, z, k4);
    for (int i = 0; i < 13; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return spatial_project(y);
}

static void body_init(rigid *b, double m, const double J[9])
{
    b->m = m;
    memcpy(b->J, J, sizeof b->J);
    inertia_inverse(J, b->Jinv);
}

/* The body-axis angular velocity of y. */
static void omega_b(const double *y, double wb[3])
{
    spatial_omega_body(y, y + 7, wb);
}

/*
** Torque-free axisymmetric body (I1 = I2): in body axes omega turns about the symmetry axis
** at Omega = (I3 - I1) / I1 w3, omega_b = (w cos Omega t, w sin Omega t, w3) (Euler's
** equations, I1 w1' = (I1 - I3) w2 w3 ...), and the symmetry axis turns about the constant
** world momentum H at |H| / I1 (Landau and Lifshitz, Mechanics, sec. 33).  RK4 with h = 1e-4
** at |omega| <= 4 rad/s: local error ~ (4 h)^5 / 120 ~ 1e-19 a step, 5e4 steps, so rounding
** (~ sqrt(5e4) eps per unit) dominates: 1e-10 with room.
*/
static void test_axisymmetric(void)
{
    rigid b;
    double J[9] = {2, 0, 0, 0, 2, 0, 0, 0, 3}, y[13] = {0}, wb0[3] = {0.6, 0, 4};
    body_init(&b, 1.5, J);
    rot_from_axis_angle((double[3]){1, -1, 2}, 1.1, y + 3, NULL, 0);
    spatial_omega_world(y, wb0, y + 10);
    double Om = (3.0 - 2.0) / 2.0 * 4, ud[6], ab[3], A[9];
    /* the instantaneous acceleration in body axes: (-Omega w2, Omega w1, 0) = (0, 1.2, 0) */
    spatial_accelerations(y, y + 7, b.m, b.J, b.Jinv, NULL, NULL, ud);
    spatial_rotation(y, A);
    mat3t_vec(A, ud + 3, ab);
    ok(vec_diff(ab, (double[3]){0, Om * 0.6, 0}, 3) < 1e-14,
       "axisymmetric: alpha_b = (-Omega w2, Omega w1, 0) at the start");
    double H[3], z0[3], T = 5, h = 1e-4;
    spatial_angular_momentum(y, y + 7, J, H);
    mat3_vec(A, (double[3]){0, 0, 1}, z0);
    for (int n = 0; n < 50000; n++) rk4(&b, y, h);
    double wb[3], want[3] = {0.6 * cos(Om * T), 0.6 * sin(Om * T), 4};
    omega_b(y, wb);
    double eo = vec_diff(wb, want, 3);
    /* the symmetry axis: z0 turned about H by |H| / I1 T */
    double Hn = vec3_norm(H), e[4], zw[3], z[3];
    rot_from_axis_angle(H, Hn / 2 * T, e, NULL, 0);
    rot_rotate(e, z0, zw);
    spatial_rotation(y, A);
    mat3_vec(A, (double[3]){0, 0, 1}, z);
    double ez = vec_diff(z, zw, 3);
    diag("axisymmetric after %g s: omega_b off by %.2g, symmetry axis by %.2g (Omega = %g, "
         "precession %g rad/s)",
         T, eo, ez, Om, Hn / 2);
    ok(eo < 1e-10, "axisymmetric: omega_b precesses at Omega = (I3 - I1) / I1 w3");
    ok(ez < 1e-10, "and the symmetry axis turns about H at |H| / I1");
}

/* The arithmetic-geometric mean and K(k) = pi / (2 AGM(1, k')), k' = sqrt(1 - k^2)
** (Abramowitz and Stegun, Handbook of Mathematical Functions, 1964, 17.6), from k'^2. */
static double ellip_k(double kp2)
{
    double a = 1, g = sqrt(kp2);
    /* quadratic convergence: 8 steps take g >= 1e-30 to a = g within rounding (which can
    ** leave them an ulp apart for ever, so the loop counts) */
    for (int i = 0; i < 8 && a != g; i++) {
        double an = 0.5 * (a + g);
        g = sqrt(a * g);
        a = an;
    }
    return pi / (2 * a);
}

/*
** The time between two flips of a torque-free body with principal moments I1 < I2 < I3
** (diagonal J) and body-axis angular velocity w: the Jacobi elliptic solution (Landau and
** Lifshitz, Mechanics, sec. 37): for M^2 > 2 E I2
**     w2 ~ sn(tau, k),  tau = lambda t,  lambda^2 = (I3 - I2)(M^2 - 2E I1) / (I1 I2 I3),
**     k^2 = (I2 - I1)(2E I3 - M^2) / ((I3 - I2)(M^2 - 2E I1))
** and for M^2 < 2 E I2 the same with I1 and I3 exchanged.  sn has the period 4K(k) and its
** zeros 2K apart, so w2 changes sign every 2K / lambda.  The differences that vanish at the
** separatrix are taken from w itself, without cancellation:
**     M^2 - 2E I = sum I_i (I_i - I) w_i^2,   k'^2 = (I3 - I1)(M^2 - 2E I2) / ((I3 - I2)(M^2 - 2E
*I1))
*/
static double flip_time(const double I[3], const double w[3], double *kp2_out)
{
    double d2 = 0, da = 0, a = I[0], c = I[2];
    for (int i = 0; i < 3; i++) d2 += I[i] * (I[i] - I[1]) * w[i] * w[i];
    if (d2 < 0) a = I[2], c = I[0];
    for (int i = 0; i < 3; i++) da += I[i] * (I[i] - a) * w[i] * w[i];
    double lam2 = (c - I[1]) * da / (I[0] * I[1] * I[2]);
    double kp2 = (c - a) * d2 / ((c - I[1]) * da);
    if (kp2_out) *kp2_out = kp2;
    return 2 * ellip_k(kp2) / sqrt(lam2);
}

/* Runs the body from y for T s with step h; writes up to nmax times where omega_b's second
** component changes sign (linear interpolation between steps) and returns their number. */
static int flips(const rigid *b, double *y, double T, double h, double *tz, int nmax)
{
    double wb[3], prev;
    int nz = 0;
    omega_b(y, wb);
    prev = wb[1];
    long steps = lround(T / h);
    for (long n = 1; n <= steps; n++) {
        rk4(b, y, h);
        omega_b(y, wb);
        if ((prev < 0) != (wb[1] < 0) && nz < nmax) tz[nz++] = h * (n - 1 + prev / (prev - wb[1]));
        prev = wb[1];
    }
    return nz;
}

/*
** The tennis-racket flip: I = (1, 2, 3), spun at 10 rad/s about the intermediate axis with a
** small component on another (both sides of the separatrix M^2 = 2E I2).  Errors of the
** flip interval: RK4's phase error, T (lambda h)^4 lambda / 120 with lambda < 6: 1e-13 s;
** the secant's root error O(h^3 |w2'''| / |w2'|) ~ 1e-12 lambda^2 < 4e-11 s (w2'' = 0 at
** sn = 0); K near k = 1 is ln(4 / k') + ..., so an error d in M^2 - 2E I2 (rounding of the
** conserved E and M, about 1e-13 of M^2 = 400) moves the interval by d / (2 (M^2 - 2E I2)
** lambda) ~ 1e-11 s.  1e-8 s is a hundred times the sum.
*/
static void test_flip(void)
{
    static const double cases[2][3] = {{0.1, 10, 0}, {0, 10, 0.1}};
    double I[3] = {1, 2, 3}, J[9] = {1, 0, 0, 0, 2, 0, 0, 0, 3};
    rigid b;
    body_init(&b, 1, J);
    for (int c = 0; c < 2; c++) {
        double y[13] = {0}, tz[16], kp2;
        rot_from_axis_angle((double[3]){0.3, 1, -0.2}, 2.0, y + 3, NULL, 0);
        spatial_omega_world(y, cases[c], y + 10);
        double want = flip_time(I, cases[c], &kp2);
        int nz = flips(&b, y, 10, 1e-4, tz, 16);
        double worst = 0;
        for (int i = 1; i < nz; i++) worst = fmax(worst, fabs(tz[i] - tz[i - 1] - want));
        diag("flip case %d: k'^2 = %.3g, closed form 2K/lambda = %.12f s, %d sign changes in "
             "10 s, intervals off by %.2g s",
             c + 1, kp2, want, nz, worst);
        char name[120];
        snprintf(name, sizeof name, "tennis racket (%s): it flips, every 2K/lambda s",
                 c ? "M^2 > 2E I2" : "M^2 < 2E I2");
        ok(nz >= 3 && worst < 1e-8, name);
    }
}

/*
** A torque-free asymmetric body (principal moments 0.4, 0.7, 0.9 about turned axes, so J is
** full) spun at |omega| = 57 rad/s by RK4, h = 1e-4 over 10 s, projecting e after each step.
** Energy and world momentum are exact invariants, so their drift is RK4's error, estimated
** by Richardson from runs at 2h and 4h: with p = log2(d(4h) / d(2h)) the observed order,
** d(h) ~ d(2h) / 2^p = d(2h)^2 / d(4h).  The drift at h must be within twice that plus
** rounding (1e5 steps of O(1) sums, random walk sqrt(1e5) eps = 7e-14: 1e-13).  At the
** spin of a few rad/s the error is below rounding (seen: 5e-14 at every h), hence the fast
** spin, at which the orders show: 5 for the energy (the h^4 term cancels), 4 for H.
*/
static void run_free(const rigid *b, double h, double *de, double *dh, double *dn)
{
    double y[13] = {0.1, 0.2, 0.3}, E0, H0[3], H[3];
    rot_from_axis_angle((double[3]){1, 1, 0}, 0.4, y + 3, NULL, 0);
    y[7] = 0.5, y[8] = -0.2, y[9] = 0.1;
    y[10] = 24, y[11] = -32, y[12] = 40;
    E0 = spatial_kinetic_energy(y, y + 7, b->m, b->J);
    spatial_angular_momentum(y, y + 7, b->J, H0);
    *de = *dh = *dn = 0;
    long steps = lround(10 / h);
    for (long n = 0; n < steps; n++) {
        rk4(b, y, h);
        *dn = fmax(*dn, fabs(vec_norm(y + 3, 4) - 1));
        if (n % 100 == 99 || n == steps - 1) {
            spatial_angular_momentum(y, y + 7, b->J, H);
            *de = fmax(*de, fabs(spatial_kinetic_energy(y, y + 7, b->m, b->J) - E0) / E0);
            *dh = fmax(*dh, vec_diff(H, H0, 3) / vec3_norm(H0));
        }
    }
}

static void test_asymmetric(void)
{
    double p[3] = {0.4, 0.7, 0.9}, J[9];
    rigid b;
    tensor(p, (double[3]){1, 2, 3}, 0.7, J);
    body_init(&b, 2, J);
    double de[3], dh[3], dn[3];
    for (int i = 0; i < 3; i++) run_free(&b, 1e-4 * (1 << i), &de[i], &dh[i], &dn[i]);
    double ee = de[1] * de[1] / de[2], eh = dh[1] * dh[1] / dh[2];
    double pe = log2(de[2] / de[1]), ph = log2(dh[2] / dh[1]);
    diag("asymmetric, 10 s at h = 1e-4, 2e-4, 4e-4: energy drift %.3g, %.3g, %.3g (order %.2f, "
         "estimate at h %.3g); momentum %.3g, %.3g, %.3g (order %.2f, estimate %.3g); "
         "max | |e| - 1 | after projection %.2g",
         de[0], de[1], de[2], pe, ee, dh[0], dh[1], dh[2], ph, eh, fmax(dn[0], dn[1]));
    ok(pe > 3.5 && ph > 3.5 && de[0] <= 2 * ee + 1e-13 && de[0] < 1e-10,
       "asymmetric: energy kept to RK4's estimated error");
    ok(dh[0] <= 2 * eh + 1e-13 && dh[0] < 1e-10, "and the world angular momentum vector");
    ok(fmax(dn[0], fmax(dn[1], dn[2])) <= 1e-12, "and |e| within 1e-12 of 1 after the projection");
}

int main(void)
{
    plan(29);
    test_pose();
    test_point_kinematics();
    test_map();
    test_project();
    test_forces();
    test_newton_euler_forms();
    test_axisymmetric();
    test_flip();
    test_asymmetric();
    return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
** A spatial rigid body's projection, finite rotation and Newton-Euler equations
** (spatial_body.h has the conventions).  Everything turning with the body is evaluated in
** body axes, where the inertia tensor J and its inverse are constant, and turned to world
** axes by A once at the end.
*/
#include <math.h>

#include "inertia.h"
#include "rotation.h"
#include "spatial_body.h"
#include "vec3.h"

double spatial_project(double *q)
{
    double *e = q + 3;
    double n = hypot(hypot(e[0], e[1]), hypot(e[2], e[3]));
    if (!(n > 0) || !isfinite(n)) return -1;
    for (int i = 0; i < 4; i++) e[i] /= n;
    return fabs(n - 1);
}

void spatial_displace(double *q, const double du[6])
{
    for (int i = 0; i < 3; i++) q[i] += du[i];
    double th = vec3_norm(du + 3);
    if (th == 0) return;
    /* sin(th/2) / th by its series below 1e-4 (the next term, th^4 / 3840, is under rounding
    ** there), so a tiny turn loses no digits to the division. */
    double c = cos(0.5 * th), k = th < 1e-4 ? 0.5 - th * th / 48 : sin(0.5 * th) / th;
    double d[4] = {c, k * du[3], k * du[4], k * du[5]};
    rot_mul(d, q + 3, q + 3);
}

/* wb = A^T omega and h = J wb, the body-axis angular velocity and momentum. */
static void body_momentum(const double A[9], const double *u, const double J[9], double wb[3],
                          double hb[3])
{
    mat3t_vec(A, u + 3, wb);
    mat3_vec(J, wb, hb);
}

void spatial_accelerations(const double *q, const double *u, double m, const double J[9],
                           const double Jinv[9], const double F[3], const double T[3], double *udot)
{
    double A[9], wb[3], hb[3], nb[3], gb[3], ab[3];
    spatial_rotation(q, A);
    body_momentum(A, u, J, wb, hb);
    vec3_cross(wb, hb, gb);
    if (T)
        mat3t_vec(A, T, nb);
    else
        nb[0] = nb[1] = nb[2] = 0;
    vec3_sub(nb, gb, nb);
    mat3_vec(Jinv, nb, ab);
    mat3_vec(A, ab, udot + 3);
    for (int i = 0; i < 3; i++) udot[i] = F ? F[i] / m : 0;
}

void spatial_gyroscopic(const double *q, const double *u, const double J[9], double g[3])
{
    double A[9], wb[3], hb[3], gb[3];
    spatial_rotation(q, A);
    body_momentum(A, u, J, wb, hb);
    vec3_cross(hb, wb, gb); /* -(wb x hb) */
    mat3_vec(A, gb, g);
}

/* The 6 x 6 block diag(s I, R) row-major. */
static void block6(double s, const double R[9], double M[36])
{
    for (int i = 0; i < 36; i++) M[i] = 0;
    for (int i = 0; i < 3; i++) {
        M[7 * i] = s;
        for (int j = 0; j < 3; j++) M[6 * (3 + i) + 3 + j] = R[3 * i + j];
    }
}

void spatial_mass_inverse(const double *q, double m, const double Jinv[9], double Minv[36])
{
    double A[9], W[9];
    spatial_rotation(q, A);
    inertia_world_inverse(A, Jinv, W);
    block6(1 / m, W, Minv);
}

void spatial_mass_matrix(const double *q, double m, const double J[9], double M[36])
{
    double A[9], W[9];
    spatial_rotation(q, A);
    inertia_world_inverse(A, J, W); /* A J A^T, symmetrised: the same product */
    block6(m, W, M);
}

double spatial_kinetic_energy(const double *q, const double *u, double m, const double J[9])
{
    double A[9], wb[3], hb[3];
    spatial_rotation(q, A);
    body_momentum(A, u, J, wb, hb);
    return 0.5 * m * vec3_dot(u, u) + 0.5 * vec3_dot(wb, hb);
}

void spatial_angular_momentum(const double *q, const double *u, const double J[9], double H[3])
{
    double A[9], wb[3], hb[3];
    spatial_rotation(q, A);
    body_momentum(A, u, J, wb, hb);
    mat3_vec(A, hb, H);
}

void spatial_omega_world(const double *q, const double wb[3], double w[3])
{
    double A[9];
    spatial_rotation(q, A);
    mat3_vec(A, wb, w);
}

void spatial_omega_body(const double *q, const double *u, double wb[3])
{
    double A[9];
    spatial_rotation(q, A);
    mat3t_vec(A, u + 3, wb);
}

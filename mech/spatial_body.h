/* SPDX-License-Identifier: MIT */
/*
** The kinematics and Newton-Euler equations of one spatial rigid body, private to libmech:
** what the planar body's planar_body.h is for a planar one.  The functions take the body's
** slices of the state, never the system: q (7 values) and u (6), and where they say so its
** accelerations udot = u' (6) or generalized forces Q (6).
**
**   q = (x, y, z, e0, e1, e2, e3)   centre of mass (world) and Euler parameters, scalar first
**   u = (vx, vy, vz, wx, wy, wz)    velocity of the centre of mass and angular velocity omega,
**                                   BOTH IN WORLD AXES (rotation.h says why world)
**   q' = N(q) u:  r' = v,  e' = 1/2 G(e)^T omega                       (spatial_qdot)
**
** The orientation is A = A(e / |e|), world = A body, computed as
**     A = I + 2 (e0 tilde(ev) + tilde(ev)^2) / (e . e)
** which is a rotation for any e != 0, not only a unit one (rotation.h's rot_matrix(e) is
** |e|^2 times it).  Why: between two projections (spatial_project at accepted steps) the
** integrator's stages and Newton iterates carry |e| = 1 + O(error), and A(e) itself would
** then stretch every body point by |e|^2; A(e / |e|) keeps the body rigid.  It costs one
** division, and it changes nothing along the map: G e = 0 makes e . e' = 0, so |e| is
** constant along q' = N(q) u, e / |e| moves by the same map, and d/dt A(e / |e|) =
** tilde(omega) A exactly (spatial_point_velocity is the derivative of spatial_point for
** any e != 0).  e = 0 has no orientation (A is then not finite): the projection refuses it.
**
** A body point s (body coordinates) is at p = r + s_w with the world offset s_w = A s, and
** (Nikravesh, Computer-Aided Analysis of Mechanical Systems, 1988, spatial kinematics, with
** the angular velocity in world axes):
**     p' = v + omega x s_w,     p'' = a + alpha x s_w + omega x (omega x s_w)
** A force f acting at world offset s_w is the generalized force (f, s_w x f) on u (its
** virtual power f . p' equals Q . u), a torque t the generalized force (0, t).
**
** Newton-Euler (Shabana, Dynamics of Multibody Systems, the Newton-Euler equations of a
** rigid body; Nikravesh 1988, spatial dynamics), with J the constant body-axis inertia tensor about
** the centre of mass (inertia.h) and J_w = A J A^T the world one:
**     m a = F,     J_w alpha = T - omega x (J_w omega)
** evaluated in body axes, where J is constant (omega_b = A^T omega, T_b = A^T T):
**     alpha = A J^-1 (T_b - omega_b x (J omega_b))
** so no 3 x 3 product and no inversion happens during a run.
**
** How the constrained solve uses a spatial body.  Its mass block (mass_block.h) is 6 x 6
** and full: M = diag(m I, J_w), whose inverse diag(I / m, A J^-1 A^T) spatial_mass_inverse
** writes row-major for minv_full (refreshed whenever q changes: A turns with the body).  The
** equations of motion on u are
**     M u' = Q - G^T lambda,     G u' = c
** with G the constraint Jacobian on u and Q the applied forces and torques (spatial_add_force,
** spatial_add_torque) plus the gyroscopic term (0, -omega x J_w omega) (spatial_gyroscopic),
** which M carries no part of.  For a free body (no rows) M^-1 Q is spatial_accelerations'
** result; test_spatial_body.c checks the two agree.
**
** Small and hot functions are inline; the rest are in spatial_body.c.
*/
#ifndef MECH_SPATIAL_BODY_H
#define MECH_SPATIAL_BODY_H

#include "vec3.h"

/* The sizes of a spatial rigid body's positions q and velocities u. */
#define SPATIAL_NQ 7
#define SPATIAL_NU 6

/* A = A(e / |e|) of the body's q (world = A body); e = q + 3 must not be zero. */
static inline void spatial_rotation(const double *q, double A[9])
{
    double e0 = q[3], e1 = q[4], e2 = q[5], e3 = q[6];
    double s = 2 / (e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3);
    A[0] = 1 - s * (e2 * e2 + e3 * e3);
    A[4] = 1 - s * (e1 * e1 + e3 * e3);
    A[8] = 1 - s * (e1 * e1 + e2 * e2);
    A[1] = s * (e1 * e2 - e0 * e3);
    A[3] = s * (e1 * e2 + e0 * e3);
    A[2] = s * (e1 * e3 + e0 * e2);
    A[6] = s * (e1 * e3 - e0 * e2);
    A[5] = s * (e2 * e3 - e0 * e1);
    A[7] = s * (e2 * e3 + e0 * e1);
}

/* The pose: the centre of mass r and the rotation A (spatial_rotation). */
static inline void spatial_pose(const double *q, double r[3], double A[9])
{
    r[0] = q[0], r[1] = q[1], r[2] = q[2];
    spatial_rotation(q, A);
}

/* The body point s (body coordinates) at the pose (q, A): its world offset s_w = A s from the
** centre of mass and its world position p = r + s_w (p may be NULL). */
static inline void spatial_point(const double *q, const double A[9], const double s[3],
                                 double sw[3], double p[3])
{
    mat3_vec(A, s, sw);
    if (p)
        for (int i = 0; i < 3; i++) p[i] = q[i] + sw[i];
}

/* The velocity v + omega x s_w of the material point at world offset s_w. */
static inline void spatial_point_velocity(const double *u, const double sw[3], double pv[3])
{
    vec3_cross(u + 3, sw, pv);
    for (int i = 0; i < 3; i++) pv[i] += u[i];
}

/* The acceleration a + alpha x s_w + omega x (omega x s_w) of the material point at world
** offset s_w, from the velocities u and accelerations udot = (a, alpha). */
static inline void spatial_point_acceleration(const double *u, const double *udot,
                                              const double sw[3], double pa[3])
{
    double wxs[3], wwxs[3], axs[3];
    vec3_cross(u + 3, sw, wxs);
    vec3_cross(u + 3, wxs, wwxs);
    vec3_cross(udot + 3, sw, axs);
    for (int i = 0; i < 3; i++) pa[i] = udot[i] + axs[i] + wwxs[i];
}

/* Adds the force f (world) acting at world offset s_w to the body's generalized forces Q
** (6 values): Q += (f, s_w x f). */
static inline void spatial_add_force(double *Q, const double sw[3], const double f[3])
{
    double m[3];
    vec3_cross(sw, f, m);
    for (int i = 0; i < 3; i++) {
        Q[i] += f[i];
        Q[3 + i] += m[i];
    }
}

/* Adds the torque t (world) to the body's generalized forces Q: Q += (0, t). */
static inline void spatial_add_torque(double *Q, const double t[3])
{
    for (int i = 0; i < 3; i++) Q[3 + i] += t[i];
}

/* q' = N(q) u: r' = v and e' = 1/2 G(e)^T omega, written out:
**     e0' = -1/2 ev . omega,     ev' = 1/2 (e0 omega + omega x ev)
** (rotation.h's rot_rate; Nikravesh 1988, ch. 6).  Linear in u, so the same call maps a
** velocity-space step du to the first-order position step N(q) du. */
static inline void spatial_qdot(const double *q, const double *u, double *qdot)
{
    const double *e = q + 3, *w = u + 3;
    qdot[0] = u[0], qdot[1] = u[1], qdot[2] = u[2];
    qdot[3] = -0.5 * (e[1] * w[0] + e[2] * w[1] + e[3] * w[2]);
    qdot[4] = 0.5 * (e[0] * w[0] + w[1] * e[3] - w[2] * e[2]);
    qdot[5] = 0.5 * (e[0] * w[1] + w[2] * e[1] - w[0] * e[3]);
    qdot[6] = 0.5 * (e[0] * w[2] + w[0] * e[2] - w[1] * e[1]);
}

/* Scales e = q + 3 back to |e| = 1 (at accepted steps and in assembly) and returns how far
** it was: | |e| - 1 |; -1 with q untouched when e is zero or not finite.  The orientation
** (spatial_rotation) and hence every point and velocity stay the same. */
double spatial_project(double *q);

/* Moves q by the velocity-space displacement du = (dr, dtheta) exactly: r += dr and e turns
** by the rotation vector dtheta (world axes), e <- (cos(|dtheta|/2), sin(|dtheta|/2)
** dtheta / |dtheta|) * e (Hamilton product, rotation.h), so |e| is kept.  To first order it
** is q += N(q) du (spatial_qdot); for a Newton correction or a step at constant omega it
** needs no projection. */
void spatial_displace(double *q, const double du[6]);

/* Newton-Euler: the accelerations udot = (a, alpha) of the free body of mass m, body-axis
** inertia J and its inverse Jinv (inertia.h), under the force F and the torque T about the
** centre of mass (both world, F or T NULL for none), gyroscopic term included. */
void spatial_accelerations(const double *q, const double *u, double m, const double J[9],
                           const double Jinv[9], const double F[3], const double T[3],
                           double *udot);
/* The gyroscopic term of Q, g = -omega x (J_w omega) (world), through body axes. */
void spatial_gyroscopic(const double *q, const double *u, const double J[9], double g[3]);
/* The 6 x 6 inverse mass block diag(I / m, A J^-1 A^T), row-major, from the body-axis
** inverse Jinv (exactly symmetric). */
void spatial_mass_inverse(const double *q, double m, const double Jinv[9], double Minv[36]);
/* The 6 x 6 mass matrix diag(m I, A J A^T), row-major (for checks and channels; the solve
** uses the inverse). */
void spatial_mass_matrix(const double *q, double m, const double J[9], double M[36]);
/* The kinetic energy 1/2 m v . v + 1/2 omega . J_w omega. */
double spatial_kinetic_energy(const double *q, const double *u, double m, const double J[9]);
/* The angular momentum about the centre of mass, H = J_w omega (world).  About a world
** point o it is H + m (r - o) x v. */
void spatial_angular_momentum(const double *q, const double *u, const double J[9], double H[3]);

/* The world angular velocity w = A wb of the body-axis one wb (initial velocities given in
** body axes; world ones go into u as they are). */
void spatial_omega_world(const double *q, const double wb[3], double w[3]);
/* The body-axis angular velocity wb = A^T omega (channels in body axes). */
void spatial_omega_body(const double *q, const double *u, double wb[3]);

#endif

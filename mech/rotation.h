/* SPDX-License-Identifier: MIT */
/*
** Rotations in space as Euler parameters (a unit quaternion), private to libmech: the
** orientation of a spatial rigid body and every way a user can give one.
**
** Conventions (the formulas are those of Nikravesh, Computer-Aided Analysis of Mechanical
** Systems, 1988, ch. 6, "Euler parameters"):
**   - e = (e0, e1, e2, e3), scalar first: e0 = cos(phi/2), (e1, e2, e3) = sin(phi/2) u for
**     the rotation by phi about the unit axis u.  e and -e are the same rotation; the
**     functions that produce a quaternion from other data return the one with e0 >= 0.
**   - A(e) maps body components to world components: r_world = A r_body, so the columns
**     of A are the body axes in world coordinates.
**       A = (e0^2 - ev.ev) I + 2 ev ev^T + 2 e0 tilde(ev)
**   - The product is Hamilton's, p*q = (p0 q0 - pv.qv, p0 qv + q0 pv + pv x qv), and
**     A(p*q) = A(p) A(q): q turns first (in the frame p has turned).
**   - G(e) = [-ev, tilde(ev) + e0 I] and L(e) = [-ev, -tilde(ev) + e0 I] (3 x 4, row-major
**     double[12]): omega_world = 2 G e', omega_body = 2 L e', A = G L^T, G e = L e = 0 and
**     G G^T = L L^T = I for a unit e.
**
** Which angular velocity a spatial body carries: the world one, omega = A omega_body.  Its
** velocities are u = (v, omega), both in world axes, and its positions q = (r, e) with
**     e' = 1/2 G(e)^T omega          (rot_rate; the map q' = N(q) u of the model)
** Why world: the issue gives initial velocities in the world frame; a joint's equations
** and a force at a point are written with the world offset s = A s_body of the point
** (point velocity v + omega x s, moment s x f), as the planar body's are, so the Jacobian
** rows on u need no rotation back; and the constrained solve's mass block of a spatial
** body is the world inverse inertia A J^-1 A^T (mass_block.h, inertia_world_inverse),
** recomputed from the constant body-axis inverse, never inverted during a run.  The
** Newton-Euler equations stay simplest in body axes, and are evaluated there:
**     J omega_b' = n_b - omega_b x (J omega_b),  omega_b = A^T omega,  omega' = A omega_b'
** (omega' = A omega_b' holds exactly: A' omega_b = omega x (A omega_b) = 0).  The body-axis
** forms (rot_omega_body, rot_rate_body, rot_rate_body_jacobian) are here for the channels
** and tests.
**
** Euler angles: a sequence names three axes, "xyz", "zyx", "zxz" and so on (the twelve with
** no axis twice in a row, rot_euler_names).  The letters are INTRINSIC rotations about the
** moving (body) axes, in the order written: "zyx" with angles (a, b, c) is a rotation by a
** about z, then by b about the new y, then by c about the newest x, so
**     A = R_z(a) R_y(b) R_x(c)
** (the yaw, pitch, roll of aircraft).  The same matrix read right to left is the extrinsic
** sequence "xyz" about fixed axes with the angles reversed.  Angles come back with the
** first and third in (-pi, pi], the middle one in [-pi/2, pi/2] for the six Tait-Bryan
** sequences (three different axes) and in [0, pi] for the six proper Euler sequences (first
** axis = third).  The decomposition is singular (gimbal lock: only the sum or difference of
** the first and third angles is defined) when the middle angle is +-90 degrees for a
** Tait-Bryan sequence and 0 or 180 degrees for a proper one.
**
** Functions that can fail return 0 on success and -1 on failure, and then write a short
** reason into why (at most n bytes, always terminated; why may be NULL).
*/
#ifndef MECH_ROTATION_H
#define MECH_ROTATION_H

#include <stddef.h>

/* A matrix passes as a rotation when every entry of A^T A - I is within this of zero
** (decimals written by hand to 9 or more digits pass; a matrix typed with 4 digits does
** not, and the caller may pass a larger tolerance for it). */
#define ROT_MATRIX_TOL 1e-9
/* Two directions are parallel (no frame from them) when the sine of the angle between
** them is below this: the second axis would then carry a relative error of eps / sin, and
** directions that close are a mistake in the input rather than an intended frame. */
#define ROT_PARALLEL_TOL 1e-6
/* Euler angles are at a singular configuration when |cos b| (Tait-Bryan) or |sin b|
** (proper) of the middle angle b is below this: the first and third angles then carry
** errors of eps / tol ~ 1e-10 rad or worse. */
#define ROT_EULER_TOL 1e-6

/* The twelve Euler sequences, Tait-Bryan first. */
extern const char *const rot_euler_names[12];

/* e = (1, 0, 0, 0), no rotation. */
void rot_identity(double e[4]);
/* Scales e to unit length; -1 when e is zero or not finite (e untouched). */
int rot_normalize(double e[4], char *why, size_t n);
/* out = p * q (Hamilton product; out may alias p or q). */
void rot_mul(const double p[4], const double q[4], double out[4]);
/* out = (e0, -e1, -e2, -e3), the inverse of a unit e (out may alias e). */
void rot_conj(const double e[4], double out[4]);
/* A(e), world = A body.  e is taken as it is (not normalised): for a non-unit e the matrix
** is |e|^2 times a rotation. */
void rot_matrix(const double e[4], double A[9]);
/* out = A(e) v, a body vector in world coordinates (out may not alias v). */
void rot_rotate(const double e[4], const double v[3], double out[3]);
/* out = A(e)^T v, a world vector in body coordinates (out may not alias v). */
void rot_rotate_back(const double e[4], const double v[3], double out[3]);

/* Whether A is a rotation: finite, |A^T A - I| (largest entry) <= tol, det A > 0. */
int rot_matrix_check(const double A[9], double tol, char *why, size_t n);
/* The quaternion of the rotation matrix A, checked by rot_matrix_check with tol (Shepperd's
** method: the largest of 4 e0^2, 4 e1^2, 4 e2^2, 4 e3^2 from the diagonal, the rest from
** the off-diagonal sums and differences; S. W. Shepperd, Quaternion from rotation matrix,
** J. Guidance and Control 1(3), 1978).  The result is normalised. */
int rot_from_matrix(const double A[9], double tol, double e[4], char *why, size_t n);
/* The rotation by angle (rad) about axis (any length but zero, world = body axes). */
int rot_from_axis_angle(const double axis[3], double angle, double e[4], char *why, size_t n);
/* The rotation whose body axis i (0 x, 1 y, 2 z) points along u (world coordinates) and
** whose body axis j (j != i) lies in the plane of u and v, on v's side: u is kept, v is
** orthogonalised against it, the third axis completes a right-handed frame.  Fails when
** u or v is zero or not finite, or when they are parallel (ROT_PARALLEL_TOL). */
int rot_from_axes(int i, const double u[3], int j, const double v[3], double e[4], char *why,
                  size_t n);

/* The axes (0 x, 1 y, 2 z) of the Euler sequence seq ("xyz", "zxz", ...); -1 when seq is not
** one of the twelve. */
int rot_euler_axes(const char *seq, int axes[3], char *why, size_t n);
/* The quaternion of the intrinsic Euler angles ang (rad) in sequence seq.  At a singular
** configuration (ROT_EULER_TOL) e is still the rotation meant, and -1 says the angles
** cannot be read back. */
int rot_from_euler(const char *seq, const double ang[3], double e[4], char *why, size_t n);
/* The Euler angles of e (normalised first) in sequence seq.  At a singular configuration
** -1, with ang still a decomposition of the rotation: the middle angle, the third 0 and
** the first carrying the rest. */
int rot_to_euler(const char *seq, const double e[4], double ang[3], char *why, size_t n);

/* G(e) and L(e), 3 x 4 row-major. */
void rot_G(const double e[4], double G[12]);
void rot_L(const double e[4], double L[12]);
/* omega_world = 2 G(e) e' and omega_body = 2 L(e) e'. */
void rot_omega_world(const double e[4], const double edot[4], double w[3]);
void rot_omega_body(const double e[4], const double edot[4], double wb[3]);
/* The quaternion rate e' = 1/2 G(e)^T w for the world angular velocity w: the kinematic map
** of a spatial body.  e . e' = 0 for any e (G e = 0), so the map keeps |e| exactly; only
** the integrator's error changes it. */
void rot_rate(const double e[4], const double w[3], double edot[4]);
/* e' = 1/2 L(e)^T wb for the body angular velocity wb. */
void rot_rate_body(const double e[4], const double wb[3], double edot[4]);
/* d(e')/de (4 x 4 row-major) of rot_rate at fixed w: e' is linear in e,
**     e' = 1/2 [0, -w^T; w, tilde(w)] e,
** so this is the matrix itself, the same at every e. */
void rot_rate_jacobian(const double w[3], double J[16]);
/* d(e')/de of rot_rate_body at fixed wb: 1/2 [0, -wb^T; wb, -tilde(wb)]. */
void rot_rate_body_jacobian(const double wb[3], double J[16]);

#endif

/* SPDX-License-Identifier: MIT */
/*
** The kinematics of a planar body: its pose, where its points are and how they move, and
** how a force at one of its points enters the generalized forces.  Nothing else in
** libmech computes these for a planar body: joints, contacts, loads, springs and channels
** call here.  The small ones are inline: they run many times in every evaluation.  A rigid body has
*the coordinates (x, y, phi); a node of a flexible body (x, y)
** and no rotation; the ground none (its pose is zero).
*/
#ifndef MECH_PLANAR_BODY_H
#define MECH_PLANAR_BODY_H

#include <math.h>

#include "registry.h"
#include "vec2.h"

/* Position (x, y, phi) and velocity of body b from q, v (ground: zeros); vel may be NULL. */
static inline void body_pose(const mech_system *sys, int b, const double *q, const double *v,
                             double pose[3], double vel[3])
{
    const body *bd = &sys->bodies[b];
    int d = bd->q_at, e = bd->u_at, nq = bd->nq, nu = bd->nu;
    for (int k = 0; k < 3; k++) {
        pose[k] = d < 0 || k >= nq ? 0.0 : q[d + k];
        if (vel) vel[k] = e < 0 || k >= nu ? 0.0 : v[e + k];
    }
}
/* Computes the cos and sin of every body's angle in q once, for the evaluation that
** follows (body_trig reads them while q is the positions evaluated); _end forgets them. */
void bodies_trig_begin(mech_system *sys, const double *q);
void bodies_trig_end(mech_system *sys);
/* cos and sin of body b's angle in q (from the per-evaluation cache when it holds q). */
static inline void body_trig(const mech_system *sys, int b, const double *q, double *c, double *s)
{
    int dof = sys->bodies[b].q_at;
    if (dof < 0 || sys->bodies[b].nq == 2) {
        *c = 1;
        *s = 0;
    } else if (q == sys->cs_q) {
        *c = sys->cs[2 * b];
        *s = sys->cs[2 * b + 1];
    } else {
        *c = cos(q[dof + 2]);
        *s = sin(q[dof + 2]);
    }
}
/* World position and velocity (pv may be NULL) of the body point s (body coordinates). */
static inline void body_point(const mech_system *sys, int b, const double s[2], const double *q,
                              const double *v, double p[2], double pv[2])
{
    double pose[3], vel[3], sg[2], c, sn;
    body_pose(sys, b, q, v, pose, vel);
    body_trig(sys, b, q, &c, &sn);
    vec2_rotate(c, sn, s, sg);
    p[0] = pose[0] + sg[0];
    p[1] = pose[1] + sg[1];
    if (pv) {
        pv[0] = vel[0] - sg[1] * vel[2];
        pv[1] = vel[1] + sg[0] * vel[2];
    }
}
/* The world position of body point s when the body has the pose (x, y, phi): for poses that
** are not in a state vector (as the user placed the body). */
void pose_point(const double pose[3], const double s[2], double p[2]);
/* The velocity of the material point at world offset sg from the centre of a body moving
** with vel (vx, vy, omega). */
static inline void pose_point_velocity(const double vel[3], const double sg[2], double out[2])
{
    out[0] = vel[0] - vel[2] * sg[1];
    out[1] = vel[1] + vel[2] * sg[0];
}
/* The acceleration of the material point at world offset sg from body b's centre, from the
** velocities v and accelerations acc of the bodies: a + alpha R90 sg - omega^2 sg (a node
** does not turn; the ground does not move). */
static inline void body_offset_acceleration(const mech_system *sys, int b, const double sg[2],
                                            const double *v, const double *acc, double out[2])
{
    int d = sys->bodies[b].u_at;
    if (d < 0) {
        out[0] = out[1] = 0;
        return;
    }
    int rigid = sys->bodies[b].nu == 3;
    double w = rigid ? v[d + 2] : 0, al = rigid ? acc[d + 2] : 0;
    out[0] = acc[d] - sg[1] * al - sg[0] * w * w;
    out[1] = acc[d + 1] + sg[0] * al - sg[1] * w * w;
}
/* The world direction of the body vector s at q. */
static inline void body_rotate(const mech_system *sys, int b, const double *q, const double s[2],
                               double out[2])
{
    double c, sn;
    body_trig(sys, b, q, &c, &sn);
    vec2_rotate(c, sn, s, out);
}
/* The offset of body point s from the centre in the world (its position minus the centre's),
** and the point's velocity. */
static inline void body_offset(const mech_system *sys, int b, const double s[2], const double *q,
                               const double *v, double sg[2], double pv[2])
{
    double p[2], pose[3];
    body_point(sys, b, s, q, v, p, pv);
    body_pose(sys, b, q, v, pose, NULL);
    sg[0] = p[0] - pose[0];
    sg[1] = p[1] - pose[1];
}
/* The body-frame components of the world vector w at q. */
static inline void body_rotate_back(const mech_system *sys, int b, const double *q,
                                    const double w[2], double out[2])
{
    double c, sn;
    body_trig(sys, b, q, &c, &sn);
    vec2_rotate_back(c, sn, w, out);
}
/* Adds the force (fx, fy) acting at world offset sg from body b's centre to the generalized
** forces Q: the force and, on a rigid body, its moment (a node takes no moment; the ground
** nothing). */
static inline void body_add_force(const mech_system *sys, double *Q, int b, const double sg[2],
                                  double fx, double fy)
{
    int dof = sys->bodies[b].u_at;
    if (dof < 0) return;
    Q[dof] += fx;
    Q[dof + 1] += fy;
    if (sys->bodies[b].nu == 3) Q[dof + 2] += sg[0] * fy - sg[1] * fx;
}
/* The kinetic energy of body b (not the ground) at velocities v: m |v|^2 / 2, and I omega^2 / 2
** for a rigid body. */
static inline double body_kinetic_energy(const mech_system *sys, int b, const double *v)
{
    const body *bd = &sys->bodies[b];
    int d = bd->u_at;
    double ke = 0.5 * bd->mass * (v[d] * v[d] + v[d + 1] * v[d + 1]);
    if (bd->nu == 3) ke += 0.5 * bd->inertia * v[d + 2] * v[d + 2];
    return ke;
}
/* Adds a torque to a rigid body's generalized forces (nothing on a node or the ground). */
static inline void body_add_torque(const mech_system *sys, double *Q, int b, double torque)
{
    int dof = sys->bodies[b].u_at;
    if (dof >= 0 && sys->bodies[b].nu == 3) Q[dof + 2] += torque;
}

#endif

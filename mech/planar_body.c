/* SPDX-License-Identifier: MIT */
/*
** Planar body kinematics (planar_body.h).  A body point s (body coordinates) is at
** P = r + A(phi) s and moves at P' = r' + R90 (A s) phi', R90 v = (-v_y, v_x).
*/
#include <math.h>

#include "planar_body.h"
#include "registry.h"
#include "vec2.h"

void body_pose(const mech_system *sys, int b, const double *q, const double *v, double pose[3],
               double vel[3])
{
    int dof = sys->bodies[b].dof, nc = sys->bodies[b].nc;
    for (int k = 0; k < 3; k++) {
        pose[k] = dof < 0 || k >= nc ? 0.0 : q[dof + k];
        if (vel) vel[k] = dof < 0 || k >= nc ? 0.0 : v[dof + k];
    }
}

void bodies_trig_begin(mech_system *sys, const double *q)
{
    for (int b = 1; b < sys->nbodies; b++) {
        if (sys->bodies[b].nc == 2) continue; /* a node: never rotated */
        double phi = q[sys->bodies[b].dof + 2];
        sys->cs[2 * b] = cos(phi);
        sys->cs[2 * b + 1] = sin(phi);
    }
    sys->cs_q = q;
}

void bodies_trig_end(mech_system *sys)
{
    sys->cs_q = NULL;
}

void body_trig(const mech_system *sys, int b, const double *q, double *c, double *s)
{
    int dof = sys->bodies[b].dof;
    if (dof < 0 || sys->bodies[b].nc == 2) {
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

void body_point(const mech_system *sys, int b, const double s[2], const double *q, const double *v,
                double p[2], double pv[2])
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

void body_rotate(const mech_system *sys, int b, const double *q, const double s[2], double out[2])
{
    double c, sn;
    body_trig(sys, b, q, &c, &sn);
    vec2_rotate(c, sn, s, out);
}

void body_rotate_back(const mech_system *sys, int b, const double *q, const double w[2],
                      double out[2])
{
    double c, sn;
    body_trig(sys, b, q, &c, &sn);
    vec2_rotate_back(c, sn, w, out);
}

void pose_point(const double pose[3], const double s[2], double p[2])
{
    double c = cos(pose[2]), sn = sin(pose[2]);
    p[0] = pose[0] + c * s[0] - sn * s[1];
    p[1] = pose[1] + sn * s[0] + c * s[1];
}

void body_offset(const mech_system *sys, int b, const double s[2], const double *q, const double *v,
                 double sg[2], double pv[2])
{
    double p[2], pose[3];
    body_point(sys, b, s, q, v, p, pv);
    body_pose(sys, b, q, v, pose, NULL);
    sg[0] = p[0] - pose[0];
    sg[1] = p[1] - pose[1];
}

void body_add_force(const mech_system *sys, double *Q, int b, const double sg[2], double fx,
                    double fy)
{
    int dof = sys->bodies[b].dof;
    if (dof < 0) return;
    Q[dof] += fx;
    Q[dof + 1] += fy;
    if (sys->bodies[b].nc == 3) Q[dof + 2] += sg[0] * fy - sg[1] * fx;
}

void body_add_torque(const mech_system *sys, double *Q, int b, double torque)
{
    int dof = sys->bodies[b].dof;
    if (dof >= 0 && sys->bodies[b].nc == 3) Q[dof + 2] += torque;
}

/* SPDX-License-Identifier: MIT */
/*
** Planar body kinematics (planar_body.h).  A body point s (body coordinates) is at
** P = r + A(phi) s and moves at P' = r' + R90 (A s) phi', R90 v = (-v_y, v_x).
*/
#include <math.h>

#include "planar_body.h"
#include "registry.h"
#include "vec2.h"

void bodies_trig_begin(mech_system *sys, const double *q)
{
    for (int b = 1; b < sys->nbodies; b++) {
        if (sys->bodies[b].nq == 2) continue; /* a node: never rotated */
        double phi = q[sys->bodies[b].q_at + 2];
        sys->cs[2 * b] = cos(phi);
        sys->cs[2 * b + 1] = sin(phi);
    }
    sys->cs_q = q;
}

void bodies_trig_end(mech_system *sys)
{
    sys->cs_q = NULL;
}

void pose_point(const double pose[3], const double s[2], double p[2])
{
    double c = cos(pose[2]), sn = sin(pose[2]);
    p[0] = pose[0] + c * s[0] - sn * s[1];
    p[1] = pose[1] + sn * s[0] + c * s[1];
}

/* SPDX-License-Identifier: MIT */
/* The point kind of a spatial system: a named point of a body ("body.point"), its position,
** velocity and acceleration in world axes, with their magnitudes. */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"
#include "spatial_frame.h"

enum { P_X, P_Y, P_Z, P_VX, P_VY, P_VZ, P_V, P_AX, P_AY, P_AZ, P_A };
static const quantity spoint_q[] = {
    {"x", "m"},   {"y", "m"},      {"z", "m"},      {"vx", "m/s"},   {"vy", "m/s"},  {"vz", "m/s"},
    {"v", "m/s"}, {"ax", "m/s^2"}, {"ay", "m/s^2"}, {"az", "m/s^2"}, {"a", "m/s^2"}, {NULL, NULL}};

static void spoint_describe(sbuf *b, const mech_system *sys, int id)
{
    const point *p = &sys->points[id];
    sb_printf(b, "(%.10g, %.10g, %.10g) m in body coordinates", p->s[0], p->s[1], p->s[2]);
}

static double spoint_value(const mech_system *sys, int id, int qn)
{
    const point *p = &sys->points[id];
    double r[3], A[9], sw[3], out[3];
    sbody_pose(sys, p->body, sys->q, r, A);
    mat3_vec(A, p->s, sw);
    const double *u = sbody_u(sys, p->body, sys->v);
    if (qn <= P_Z) return r[qn] + sw[qn];
    if (qn <= P_V) {
        spatial_point_velocity(u, sw, out);
        return qn == P_V ? vec3_norm(out) : out[qn - P_VX];
    }
    const double *acc = sbody_u(sys, p->body, sys->udot);
    spatial_point_acceleration(u, acc, sw, out);
    return qn == P_A ? vec3_norm(out) : out[qn - P_AX];
}

const kind_ops kind_spoint = {
    .kind = MECH_KIND_POINT,
    .label = "point",
    .describe = spoint_describe,
    .table = spoint_q,
    .value = spoint_value,
};

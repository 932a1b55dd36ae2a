/* SPDX-License-Identifier: MIT */
/* The point kind: a named point of a body ("body.point"). */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "planar_body.h"
#include "registry.h"

enum { P_X, P_Y, P_VX, P_VY, P_AX, P_AY };
static const quantity point_q[] = {{"x", "m"},      {"y", "m"},      {"vx", "m/s"}, {"vy", "m/s"},
                                   {"ax", "m/s^2"}, {"ay", "m/s^2"}, {NULL, NULL}};

static void point_describe(sbuf *b, const mech_system *sys, int id)
{
    const point *p = &sys->points[id];
    sb_printf(b, "(%.10g, %.10g) m in body coordinates", p->s[0], p->s[1]);
}

static double point_value(const mech_system *sys, int id, int qn)
{
    const point *p = &sys->points[id];
    double pos[2], vel[2];
    body_point(sys, p->body, p->s, sys->q, sys->v, pos, vel);
    switch (qn) {
    case P_X: return pos[0];
    case P_Y: return pos[1];
    case P_VX: return vel[0];
    case P_VY: return vel[1];
    default: {
        double sg[2], pv[2], acc[2];
        body_offset(sys, p->body, p->s, sys->q, sys->v, sg, pv);
        body_offset_acceleration(sys, p->body, sg, sys->v, sys->udot, acc);
        return qn == P_AX ? acc[0] : acc[1];
    }
    }
}

const kind_ops kind_point = {
    .kind = MECH_KIND_POINT,
    .label = "point",
    .describe = point_describe,
    .table = point_q,
    .value = point_value,
};

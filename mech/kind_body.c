/* SPDX-License-Identifier: MIT */
/* The body kind: rigid bodies (and the ground), and the nodes of flexible bodies, which are
** bodies without rotation. */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"

enum { B_X, B_Y, B_PHI, B_VX, B_VY, B_OMEGA, B_AX, B_AY, B_ALPHA, B_KINETIC };
static const quantity body_q[] = {{"x", "m"},       {"y", "m"},      {"phi", "rad"},
                                  {"vx", "m/s"},    {"vy", "m/s"},   {"omega", "rad/s"},
                                  {"ax", "m/s^2"},  {"ay", "m/s^2"}, {"alpha", "rad/s^2"},
                                  {"kinetic", "J"}, {NULL, NULL}};

/* Nodes of flexible bodies: no rotation; their displacement from the mesh's coordinates
** and the totals of the contacts they touch (friction along each contact's tangent). */
enum { N_X, N_Y, N_VX, N_VY, N_AX, N_AY, N_UX, N_UY, N_FN, N_FT, N_KINETIC };
static const quantity node_q[] = {{"x", "m"},      {"y", "m"},      {"vx", "m/s"},    {"vy", "m/s"},
                                  {"ax", "m/s^2"}, {"ay", "m/s^2"}, {"ux", "m"},      {"uy", "m"},
                                  {"fn", "N"},     {"ft", "N"},     {"kinetic", "J"}, {NULL, NULL}};

/* The ground has no line; a node is described with its flexible body. */
static int body_listed(const mech_system *sys, int id)
{
    return id != MECH_GROUND && sys->bodies[id].fe < 0;
}

static void body_describe(sbuf *b, const mech_system *sys, int id)
{
    const body *bd = &sys->bodies[id];
    if (id == MECH_GROUND) {
        sb_printf(b, "fixed frame");
        return;
    }
    if (bd->fe >= 0) {
        sb_printf(b, "node %d of %s, mass %.10g kg, at (%.10g, %.10g) m", bd->node + 1,
                  sys->fes[bd->fe].name, bd->mass, bd->q0[0], bd->q0[1]);
        return;
    }
    sb_printf(b,
              "mass %.10g kg, inertia %.10g kg m^2, at (%.10g, %.10g) m, angle %.10g rad, "
              "velocity (%.10g, %.10g) m/s, omega %.10g rad/s",
              bd->mass, bd->inertia, bd->q0[0], bd->q0[1], bd->q0[2], bd->u0[0], bd->u0[1],
              bd->u0[2]);
    if (bd->outline == 1)
        sb_printf(b, ", rectangle %.10g x %.10g m", 2 * bd->outline_data[0],
                  2 * bd->outline_data[1]);
    if (bd->outline == 2)
        sb_printf(b, ", segment (%.10g, %.10g) - (%.10g, %.10g)", bd->outline_data[0],
                  bd->outline_data[1], bd->outline_data[2], bd->outline_data[3]);
}

static const quantity *body_quantities(const mech_system *sys, int id)
{
    return sys->bodies[id].fe >= 0 ? node_q : body_q;
}

static double rigid_value(const mech_system *sys, int b, int qn)
{
    const body *bd = &sys->bodies[b];
    int d = bd->q_at, e = bd->u_at;
    if (d < 0) return 0;
    switch (qn) {
    case B_X:
    case B_Y: return sys->q[d + qn];
    case B_PHI: return bd->nq == 3 ? sys->q[d + 2] : 0;
    case B_VX:
    case B_VY: return sys->v[e + qn - B_VX];
    case B_OMEGA: return bd->nu == 3 ? sys->v[e + 2] : 0;
    case B_AX:
    case B_AY: return sys->udot[e + qn - B_AX];
    case B_ALPHA: return bd->nu == 3 ? sys->udot[e + 2] : 0;
    case B_KINETIC: {
        const double *v = sys->v + e;
        double w = bd->nu == 3 ? v[2] : 0;
        return 0.5 * (bd->mass * (v[0] * v[0] + v[1] * v[1]) + bd->inertia * w * w);
    }
    }
    return NAN;
}

static double node_value(const mech_system *sys, int b, int qn)
{
    const body *bd = &sys->bodies[b];
    int d = bd->q_at, e = bd->u_at;
    const double *X = sys->fes[bd->fe].mesh.xy + 2 * bd->node;
    switch (qn) {
    case N_X:
    case N_Y: return sys->q[d + qn - N_X];
    case N_VX:
    case N_VY: return sys->v[e + qn - N_VX];
    case N_AX:
    case N_AY: return sys->udot[e + qn - N_AX];
    case N_UX:
    case N_UY: return sys->q[d + qn - N_UX] - X[qn - N_UX];
    case N_FN: return contact_sum(sys, b, b + 1, 0);
    case N_FT: return contact_sum(sys, b, b + 1, 1);
    case N_KINETIC: return 0.5 * bd->mass * (sys->v[e] * sys->v[e] + sys->v[e + 1] * sys->v[e + 1]);
    }
    return NAN;
}

static double body_value(const mech_system *sys, int id, int qn)
{
    return sys->bodies[id].fe >= 0 ? node_value(sys, id, qn) : rigid_value(sys, id, qn);
}

const kind_ops kind_body = {
    .kind = MECH_KIND_BODY,
    .label = "body",
    .listed = body_listed,
    .describe = body_describe,
    .quantities = body_quantities,
    .value = body_value,
};

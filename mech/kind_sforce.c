/* SPDX-License-Identifier: MIT */
/*
** The force kind of a spatial system: springs between points, rotational springs about a
** joint's axis and loads, with the planar kind's names where the meaning is the same (what
** the last evaluation left in out[]).
*/
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"

static const quantity spring_q[] = {
    {"f", "N"}, {"length", "m"}, {"rate", "m/s"}, {"energy", "J"}, {NULL, NULL}};
static const quantity rot_q[] = {
    {"torque", "N m"}, {"angle", "rad"}, {"rate", "rad/s"}, {"energy", "J"}, {NULL, NULL}};
static const quantity load_q[] = {{"fx", "N"},   {"fy", "N"},   {"fz", "N"},    {"tx", "N m"},
                                  {"ty", "N m"}, {"tz", "N m"}, {"power", "W"}, {NULL, NULL}};

static void sforce_describe(sbuf *b, const mech_system *sys, int id)
{
    const force *f = &sys->forces[id];
    const char *an = sys->bodies[f->a].name, *bn = sys->bodies[f->b].name;
    switch (f->type) {
    case MECH_SPRING:
        sb_printf(b, "spring, %s (%.10g, %.10g, %.10g) - %s (%.10g, %.10g, %.10g)", an, f->pa[0],
                  f->pa[1], f->pa[2], bn, f->pb[0], f->pb[1], f->pb[2]);
        if (f->law)
            sb_printf(b, ", force law by function");
        else
            sb_printf(b, ", k %.10g N/m, c %.10g N s/m, rest length %.10g m", f->k, f->c, f->rest);
        break;
    case MECH_ROT_SPRING:
        sb_printf(b,
                  "rotational spring about joint %s (%s - %s), k %.10g N m/rad, c %.10g N m s/rad, "
                  "rest angle %.10g rad",
                  sys->joints[f->joint].name, an, bn, f->k, f->c, f->rest);
        break;
    case MECH_LOAD: {
        const mech_sload_def *l = &f->sload;
        sb_printf(b, "%s on %s", l->torque ? "torque" : "force", an);
        if (!l->torque)
            sb_printf(b, " at (%.10g, %.10g, %.10g)", l->point[0], l->point[1], l->point[2]);
        if (l->body_frame) sb_printf(b, ", body frame");
        if (l->profile == MECH_CALLBACK)
            sb_printf(b, ", by function");
        else
            sb_printf(b, ", (%.10g, %.10g, %.10g) + (%.10g, %.10g, %.10g) sin(%.10g t + %.10g) %s",
                      l->value[0], l->value[1], l->value[2], l->amplitude[0], l->amplitude[1],
                      l->amplitude[2], l->freq, l->phase, l->torque ? "N m" : "N");
        break;
    }
    }
}

static const quantity *sforce_quantities(const mech_system *sys, int id)
{
    switch (sys->forces[id].type) {
    case MECH_SPRING: return spring_q;
    case MECH_ROT_SPRING: return rot_q;
    default: return load_q;
    }
}

static double sforce_value(const mech_system *sys, int id, int qn)
{
    return sys->forces[id].out[qn];
}

const kind_ops kind_sforce = {
    .kind = MECH_KIND_FORCE,
    .label = "force",
    .describe = sforce_describe,
    .quantities = sforce_quantities,
    .value = sforce_value,
};

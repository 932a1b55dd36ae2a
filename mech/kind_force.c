/* SPDX-License-Identifier: MIT */
/*
** The force kind: springs, rotational springs and loads, each type with its name, its line
** of text and its channels (what its last evaluation left in out[]) in the table below.
*/
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"

static const quantity spring_q[] = {
    {"f", "N"}, {"length", "m"}, {"rate", "m/s"}, {"energy", "J"}, {NULL, NULL}};
static const quantity rot_q[] = {
    {"torque", "N m"}, {"angle", "rad"}, {"rate", "rad/s"}, {"energy", "J"}, {NULL, NULL}};
static const quantity load_q[] = {
    {"fx", "N"}, {"fy", "N"}, {"torque", "N m"}, {"power", "W"}, {NULL, NULL}};

static void spring_describe(sbuf *b, const mech_system *sys, const force *f)
{
    const char *an = sys->bodies[f->a].name, *bn = sys->bodies[f->b].name;
    sb_printf(b, "%s (%.10g, %.10g) - %s (%.10g, %.10g)", an, f->pa[0], f->pa[1], bn, f->pb[0],
              f->pb[1]);
    if (f->axis[0] != 0 || f->axis[1] != 0)
        sb_printf(b, ", along (%.10g, %.10g)", f->axis[0], f->axis[1]);
    if (f->law)
        sb_printf(b, ", force law by function");
    else
        sb_printf(b, ", k %.10g N/m, c %.10g N s/m, rest length %.10g m", f->k, f->c, f->rest);
}

static void rot_describe(sbuf *b, const mech_system *sys, const force *f)
{
    const char *an = sys->bodies[f->a].name, *bn = sys->bodies[f->b].name;
    sb_printf(b, "%s - %s, k %.10g N m/rad, c %.10g N m s/rad, rest angle %.10g rad", an, bn, f->k,
              f->c, f->rest);
}

static void load_describe(sbuf *b, const mech_system *sys, const force *f)
{
    const char *an = sys->bodies[f->a].name;
    const mech_load_def *l = &f->load;
    sb_printf(b, "%s on %s", l->torque ? "torque" : "force", an);
    if (!l->torque)
        sb_printf(b, " at (%.10g, %.10g)%s", l->point[0], l->point[1],
                  l->body_frame ? ", body frame" : "");
    if (l->profile == MECH_CALLBACK)
        sb_printf(b, ", by function");
    else if (l->torque)
        sb_printf(b, ", %.10g + %.10g sin(%.10g t + %.10g) N m", l->value[0], l->amplitude[0],
                  l->freq, l->phase);
    else
        sb_printf(b, ", (%.10g, %.10g) + (%.10g, %.10g) sin(%.10g t + %.10g) N", l->value[0],
                  l->value[1], l->amplitude[0], l->amplitude[1], l->freq, l->phase);
}

static const struct force_type {
    const char *name;
    const quantity *quantities;
    void (*describe)(sbuf *b, const mech_system *sys, const force *f);
} force_types[] = {
    [MECH_SPRING] = {"spring", spring_q, spring_describe},
    [MECH_ROT_SPRING] = {"rotational spring", rot_q, rot_describe},
    [MECH_LOAD] = {"load", load_q, load_describe},
};

const char *mech_force_type_name(mech_force_type t)
{
    return t >= MECH_SPRING && t <= MECH_LOAD ? force_types[t].name : "?";
}

static void force_describe(sbuf *b, const mech_system *sys, int id)
{
    const force *f = &sys->forces[id];
    force_types[f->type].describe(b, sys, f);
}

static const quantity *force_quantities(const mech_system *sys, int id)
{
    return force_types[sys->forces[id].type].quantities;
}

static double force_value(const mech_system *sys, int id, int qn)
{
    return sys->forces[id].out[qn];
}

const kind_ops kind_force = {
    .kind = MECH_KIND_FORCE,
    .label = "force",
    .describe = force_describe,
    .quantities = force_quantities,
    .value = force_value,
};

/* SPDX-License-Identifier: MIT */
/* The driver kind: a prescribed angle (of a body or a revolute joint) or distance (of a
** prismatic joint). */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"

enum { D_EFFORT, D_VALUE, D_TARGET, D_POWER, D_WORK };
static const quantity drive_angle_q[] = {{"torque", "N m"}, {"angle", "rad"}, {"target", "rad"},
                                         {"power", "W"},    {"work", "J"},    {NULL, NULL}};
static const quantity drive_dist_q[] = {{"force", "N"}, {"distance", "m"}, {"target", "m"},
                                        {"power", "W"}, {"work", "J"},     {NULL, NULL}};

static void driver_describe(sbuf *b, const mech_system *sys, int id)
{
    const driver *d = &sys->drivers[id];
    const char *target = d->type == MECH_DRIVE_BODY_ANGLE ? sys->bodies[d->target].name
                                                          : sys->joints[d->target].name;
    sb_printf(b, "%s of %s, from %.10g", system_driver_type_name(d->type), target, d->value0);
    if (d->fn)
        sb_printf(b, ", by function");
    else
        sb_printf(b, " at constant speed %.10g", d->speed);
}

static const quantity *driver_quantities(const mech_system *sys, int id)
{
    return sys->drivers[id].type == MECH_DRIVE_JOINT_DISTANCE ? drive_dist_q : drive_angle_q;
}

static double driver_value(const mech_system *sys, int id, int qn)
{
    const driver *d = &sys->drivers[id];
    switch (qn) {
    case D_EFFORT: return d->effort;
    case D_VALUE: return d->actual;
    case D_TARGET: return d->motion[0];
    case D_POWER: return d->power;
    case D_WORK: return sys->y_eval[d->work];
    }
    return NAN;
}

const kind_ops kind_driver = {
    .kind = MECH_KIND_DRIVER,
    .label = "driver",
    .describe = driver_describe,
    .quantities = driver_quantities,
    .value = driver_value,
};

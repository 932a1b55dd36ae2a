/* SPDX-License-Identifier: MIT */
/*
** The table of joint types: one entry per family, each in its own file (joint_revolute.c,
** joint_prismatic.c, joint_fixed.c), which the stages reach through joint_types[] (the
** equations through joint_eval) instead of a switch on the type.
*/
#include "constraints.h"
#include "joint_type.h"
#include "mech_system.h"

const joint_type *const joint_types[] = {
    [MECH_REVOLUTE] = &joint_revolute,
    [MECH_PRISMATIC] = &joint_prismatic,
    [MECH_FIXED] = &joint_fixed,
};

const joint_type *joint_type_of(mech_joint_type t)
{
    return t >= MECH_REVOLUTE && t <= MECH_FIXED ? joint_types[t] : NULL;
}

int joint_equations(mech_joint_type type)
{
    return joint_types[type]->neq;
}

const char *mech_joint_type_name(mech_joint_type t)
{
    const joint_type *jt = joint_type_of(t);
    return jt ? jt->name : "?";
}

int mech_joint_type_equations(mech_joint_type t)
{
    const joint_type *jt = joint_type_of(t);
    return jt ? jt->neq : 0;
}

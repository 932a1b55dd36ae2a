/* SPDX-License-Identifier: MIT */
/*
** The tables of joint types, planar and spatial: one entry per family, each in its own file
** (joint_*.c, sjoint_*.c), which a joint keeps (joint.jt) and the stages reach through it (the
** equations through joint_eval) instead of a switch on the type.
*/
#include "constraints.h"
#include "joint_type.h"
#include "mech_system.h"

static const joint_type *const planar_types[] = {
    [MECH_REVOLUTE] = &joint_revolute,
    [MECH_PRISMATIC] = &joint_prismatic,
    [MECH_FIXED] = &joint_fixed,
};

static const joint_type *const spatial_types[] = {
    [MECH_REVOLUTE] = &sjoint_revolute,   [MECH_PRISMATIC] = &sjoint_prismatic,
    [MECH_FIXED] = &sjoint_fixed,         [MECH_SPHERICAL] = &sjoint_spherical,
    [MECH_UNIVERSAL] = &sjoint_universal, [MECH_CYLINDRICAL] = &sjoint_cylindrical,
    [MECH_PLANAR] = &sjoint_planar,
};

const joint_type *planar_joint_type(mech_joint_type t)
{
    return t >= MECH_REVOLUTE && t <= MECH_FIXED ? planar_types[t] : NULL;
}

const joint_type *spatial_joint_type(mech_joint_type t)
{
    return t >= MECH_REVOLUTE && t <= MECH_PLANAR ? spatial_types[t] : NULL;
}

const char *mech_joint_type_name(mech_joint_type t)
{
    const joint_type *jt = spatial_joint_type(t); /* the names are the same in both */
    return jt ? jt->name : "?";
}

int mech_joint_type_equations(mech_joint_type t)
{
    const joint_type *jt = planar_joint_type(t);
    return jt ? jt->neq : 0;
}

int mech_sjoint_type_equations(mech_joint_type t)
{
    const joint_type *jt = spatial_joint_type(t);
    return jt ? jt->neq : 0;
}

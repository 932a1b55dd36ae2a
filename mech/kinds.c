/* SPDX-License-Identifier: MIT */
/* The table of entity kinds: one entry per kind, each in its own file (kind_*.c). */
#include <stddef.h>

#include "kind.h"

static const kind_ops *const kinds[] = {
    [MECH_KIND_BODY] = &kind_body,       [MECH_KIND_POINT] = &kind_point,
    [MECH_KIND_FORCE] = &kind_force,     [MECH_KIND_JOINT] = &kind_joint,
    [MECH_KIND_DRIVER] = &kind_driver,   [MECH_KIND_SYSTEM] = &kind_system,
    [MECH_KIND_CONTACT] = &kind_contact, [MECH_KIND_FE] = &kind_fe,
};

const kind_ops *kind_of(int k)
{
    return k > MECH_KIND_NONE && (size_t)k < sizeof kinds / sizeof kinds[0] ? kinds[k] : NULL;
}

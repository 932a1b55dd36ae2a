/* SPDX-License-Identifier: MIT */
/* The entity kinds of a system: one entry per kind, each in its own file (kind_*.c), in a
** table per dimension (dim.h). */
#include <stddef.h>

#include "dim.h"
#include "kind.h"

const kind_ops *kind_of(const mech_system *sys, int k)
{
    const dim_ops *d = sys->dops;
    return k > MECH_KIND_NONE && k < d->nkinds ? d->kinds[k] : NULL;
}

/* SPDX-License-Identifier: MIT */
/* How a model with clearance starts (start.c), for the finalize. */
#ifndef MECH_START_PRIVATE_H
#define MECH_START_PRIVATE_H

#include "registry.h"

/* The start that MECH_START_AUTO's rule gives (or the one set) with the positions q. */
mech_start start_resolve(const mech_system *sys, const double *q);
/* After the assembly of y0: the joint with clearance that starts fastest across its
** clearance beyond V sqrt(2 c / L), noted in sys->start_note (empty when none). */
void start_note(mech_system *sys);

#endif

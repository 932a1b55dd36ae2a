/* SPDX-License-Identifier: MIT */
/* The energy balance of a system (channels.c), which its run checks read too
 * (system_model.c). */
#ifndef MECH_SYSTEM_IMPL_PRIVATE_H
#define MECH_SYSTEM_IMPL_PRIVATE_H

#include "registry.h"

/*
** The energy balance of the last full evaluation (energy - initial energy - work of the
** drivers - work of the loads + energy dissipated: the channel system.balance); *inputs
** (unless NULL) gets the sum of the magnitudes of the works of the drivers and the loads.
*/
double system_balance(const mech_system *sys, double *inputs);

#endif

/* SPDX-License-Identifier: MIT */
/* The equations of motion (dynamics.c). */
#ifndef MECH_DYNAMICS_PRIVATE_H
#define MECH_DYNAMICS_PRIVATE_H

#include "registry.h"

/* Right-hand side with full = 1 also keeps reactions, energies and element outputs. */
int dynamics(mech_system *sys, double t, const double *y, double *ydot, int full);

#endif

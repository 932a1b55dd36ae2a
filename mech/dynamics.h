/* SPDX-License-Identifier: MIT */
/* The equations of motion (dynamics.c). */
#ifndef MECH_DYNAMICS_PRIVATE_H
#define MECH_DYNAMICS_PRIVATE_H

#include "registry.h"

/* Right-hand side with full = 1 also keeps reactions, energies and element outputs. */
int dynamics(mech_system *sys, double t, const double *y, double *ydot, int full);

/* Absolute tolerances per state component: `given` (per component) if not NULL, else
** atol for positions and velocities; the energy accounts get an infinite tolerance: they
** follow the steps the mechanical states need and do not steer the error control. */
void system_atol(const mech_system *sys, double atol, const double *given, double *out);

#endif

/* SPDX-License-Identifier: MIT */
/* The equations of motion (dynamics.c). */
#ifndef MECH_DYNAMICS_PRIVATE_H
#define MECH_DYNAMICS_PRIVATE_H

#include "registry.h"

/* Right-hand side with full = 1 also keeps reactions, energies and element outputs. */
int dynamics(mech_system *sys, double t, const double *y, double *ydot, int full);

/* Sizes the constrained solve once finalize has the rows, the pairs and the block lists:
** chooses the solver (sys->solver_used) and makes its matrices.  MECH_ERR_NOMEM. */
mech_status dynamics_setup(mech_system *sys, mech_error *err);
/* Frees what dynamics_setup made (safe to call again). */
void dynamics_free(mech_system *sys);

#endif

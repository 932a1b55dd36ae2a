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
/*
** The least change in the metric of the mass matrix that satisfies the Lagrange rows in
** sys->cr to first order (their Jacobian G as evaluated, at the positions of the current
** dops->begin): du = -M^-1 G^T lambda with (G M^-1 G^T) lambda = b, b the rows' residuals
** (nrows values), the velocities without inertia free (the reduced matrix of the constrained
** solve, fast or general: *fast says which).  With factor the matrix is filled and factored
** at the rows; without, the factors of the last call are used again (with the rows' present
** Jacobian in M^-1 G^T, and *fast as that call set it).  du receives nu values.  Uses the
** solve's workspaces (K, sol, piv, mj): call it between evaluations.  Returns 0, or -1 when
** the matrix is singular (last_err says where).
*/
int dynamics_least_change(mech_system *sys, double t, int factor, int *fast, const double *b,
                          double *du);

#endif

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
** The Lagrange rows of the joints and the drivers at (t, q, v) into sys->cr, between the
** dimension's begin at q and its end; with motions the drivers' motions are first taken at t
** (else those of the last call stand).  Returns 0, or a driver's failure (last_err says it).
*/
int dynamics_rows(mech_system *sys, double t, const double *q, const double *v, int motions);
/* The rate of Lagrange row r in sys->cr at the velocities v: Phi_t + G_r v. */
double dynamics_row_rate(const mech_system *sys, int r, const double *v);
/* Names the entity behind column c of the reduced matrix (a Lagrange row when c < nrows, else
** a rotation without inertia) into buf. */
void dynamics_describe_column(const mech_system *sys, int c, char *buf, size_t size);

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

/* SPDX-License-Identifier: MIT */
/* Projection of a state onto the constraints after accepted steps (project.c). */
#ifndef MECH_PROJECT_PRIVATE_H
#define MECH_PROJECT_PRIVATE_H

#include "mech_sim.h"
#include "model.h"
#include "registry.h"

/* The projection's workspace of a finalized system (nothing is allocated while a run steps);
** -1 when out of memory.  project_free releases it (NULL is fine). */
int project_alloc(mech_system *sys);
void project_free(mech_system *sys);

/* Whether the system has anything to project beyond its quaternions' norms (which the
** integrators' normalize keeps without projection): Lagrange equations. */
int project_wanted(const mech_system *sys);

/*
** The characteristic period of the system at its assembled start [s]: 2 pi / omega, omega the
** fastest of the drivers' speeds (a distance driver's over the size L [m]), the bodies' angular
** speeds and their speeds over L, and sqrt(g / L); INFINITY when there is none.  The drivers'
** motion functions are called at t = 0 for their speeds there.
*/
double project_period(mech_system *sys, double L);

/*
** Starts a run's projections from t0, their counts from zero.  A step end is projected when a
** violation exceeds the positions' tolerance atol + rtol L (L the model's size [m]), what the
** integrator accepts of a step (with strict, when it exceeds what an output may keep); an
** output (a value of the dense output, a truncated step's end) when it exceeds CONVERGED
** (project.c) of atol, which is also where Newton stops.
*/
void project_start(mech_system *sys, double atol, double rtol, double L, int strict, double t0);

/*
** Moves the state y at time t onto the Lagrange joints' and drivers' equations, positions by
** Newton iterations and velocities by one least change, both in the metric of the mass matrix,
** after renormalising the quaternions.  A state whose violations are within the tolerance of
** project_start (an output, MODEL_PROJECT_OUTPUT in flags: within CONVERGED of atol, project.c)
** is left as it is.  MODEL_PROJECT_EVALUATED: the system's last evaluation was of this state (its
*rows
** are current).  Returns 1 when it moved the state, 0 when not, -1 on failure (the reason in
** the system's last error).
*/
int project_state(void *ctx, double t, double *y, int flags);

/* What the projections did since project_start (on and period zero: the caller's). */
void project_get_stats(const mech_system *sys, mech_project_stats *out);

#endif

/* SPDX-License-Identifier: MIT */
/* The life cycle of a system (system.c): finalize, and the checks of a run against the model's
 * scale. */
#ifndef MECH_SYSTEM_IMPL_PRIVATE_H
#define MECH_SYSTEM_IMPL_PRIVATE_H

#include "registry.h"

/*
** The length scale of a run to t_end [m]: the largest of the positions at the assembled
** start (y0), the lengths of the model (anchors, attachment and contact points, rest
** lengths, outlines, bearing radii), and how far the start could carry a body in t_end:
** its speed times t_end, its acceleration and gravity times t_end^2 / 2.  Reads the
** accelerations of the last evaluation (qdd): call it right after evaluating at y0.
*/
double system_scale(const mech_system *sys, double t_end);
/* The first position coordinate (x or y of a body or node) of state y that is farther than
** bound from 0 or not finite, or -1. */
int system_runaway(const mech_system *sys, const double *y, double bound);
/* Runs stop when a body goes farther than this many times the scale (by default). */
#define SYSTEM_RUNAWAY_FACTOR 1e6
/* Says that state component i (a position) has the value x, beyond bound, which is
** SYSTEM_RUNAWAY_FACTOR times scale when scale > 0, else the user's max_distance. */
void system_runaway_text(const mech_system *sys, int i, double x, double bound, double scale,
                         char *buf, size_t size);

/*
** The energy balance of the last full evaluation (energy - initial energy - work of the
** drivers - work of the loads + energy dissipated: the channel system.balance); *inputs
** (unless NULL) gets the sum of the magnitudes of the works of the drivers and the loads.
*/
double system_balance(const mech_system *sys, double *inputs);
/*
** After a full evaluation of state y: when the energy balance is off by more than
** SYSTEM_RUNAWAY_FACTOR times the energy the model was given (|initial energy|, total mass
** times |gravity| times the length L, the works of the drivers and loads so far), writes
** why into buf, naming the body with the most kinetic energy, and returns 1; else 0.  A
** motion that gains energy from nothing has run away (a law too stiff for the step), also
** when no position has gone far yet.
*/
int system_energy_runaway(const mech_system *sys, const double *y, double L, char *buf,
                          size_t size);

#endif

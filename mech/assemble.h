/* SPDX-License-Identifier: MIT */
/* Assembly of a consistent state (assemble.c). */
#ifndef MECH_ASSEMBLE_PRIVATE_H
#define MECH_ASSEMBLE_PRIVATE_H

#include "registry.h"

/* Moves the positions and velocities of state y the least so that every joint and driver
** equation holds at time t (the initial assembly is t = 0, y = y0).  With ideal, the joints
** with clearance take part as their ideal joints (clearance_ideal): an ideal start. */
mech_status assemble_state(mech_system *sys, double t, double *y, int ideal, mech_error *err);

#endif

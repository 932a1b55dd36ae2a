/* SPDX-License-Identifier: MIT */
/*
** The registry of a system (registry.c): what the constructors of every entity share, below
** every stage.  A constructor checks its definition, takes a name, grows its array, appends
** and calls system_changed; nothing here calls assembly or dynamics.
*/
#ifndef MECH_REGISTRY_H
#define MECH_REGISTRY_H

#include <math.h>
#include <stddef.h>

#include "mech_system.h"

/* Grows an entity array by one; returns 0 on allocation failure. */
int system_grow(void **items, int *cap, int count, size_t size);
/* Checks a requested entity name or makes one from base and a counter; copies it to out. */
mech_status system_take_name(mech_system *sys, const char *what, const char *requested,
                             const char *base, char out[MECH_NAME_MAX], mech_error *err);
/* The configuration as given: positions, then velocities of every body (2 ncoord values,
** allocated; the caller frees it), or NULL when out of memory. */
double *system_initial_state(const mech_system *sys);
/* Checks that b is a body of the system; the message names the entity and its role. */
mech_status system_check_body(const mech_system *sys, const char *what, const char *name,
                              const char *role, int b, mech_error *err);
/* The model changed: the next simulation finalizes it again. */
void system_changed(mech_system *sys);
/* The body that owns coordinate i (0 <= i < ncoord). */
int system_coord_body(const mech_system *sys, int i);
/* For an entity attached to a node (a body without rotation): checks that the attachment
** point s is the node itself (|s| tiny against the mesh) and snaps it to 0; for a rigid body
** does nothing.  `what` and `name` start the message. */
mech_status system_node_point(const mech_system *sys, const char *what, const char *name, int b,
                              double s[2], mech_error *err);

/* Position (from 1) of the first control character of s, 0 if none: names refuse them (a
** newline would break the CSV header and the descriptions). */
size_t system_control_at(const char *s);
/* Writes the configuration as given (positions, then velocities of every body) into y. */
void system_fill_initial_state(const mech_system *sys, double *y);
/* A joint's or driver's own Baumgarte coefficient, or the system's when it has none (NaN). */
static inline double system_baumgarte_or(double own, double system)
{
    return isnan(own) ? system : own;
}
/* "body angle", "joint angle", "joint distance". */
const char *system_driver_type_name(mech_driver_type t);

#endif

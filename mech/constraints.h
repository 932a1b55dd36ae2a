/* SPDX-License-Identifier: MIT */
/* The equations of joints (joints.c and joint_*.c, through the table of joint_type.h) and
** of drivers (driver.c). */
#ifndef MECH_CONSTRAINTS_PRIVATE_H
#define MECH_CONSTRAINTS_PRIVATE_H

#include "joint_type.h"
#include "registry.h"

#include "dim.h"

/* Evaluates the equations of joint j at (q, v) into rows[0..neq). */
static inline void joint_eval(const mech_system *sys, const joint *j, const double *q,
                              const double *v, crow *rows)
{
    j->jt->eval(sys, j, q, v, rows);
}
/* Evaluates the driver equation at (q, v, t); needs d->motion filled for time t. */
static inline void driver_eval(const mech_system *sys, const driver *d, const double *q,
                               const double *v, crow *row)
{
    sys->dops->driver_eval(sys, d, q, v, row);
}
/* Bodies a and b a driver's equation involves. */
void driver_bodies(const mech_system *sys, const driver *d, int *a, int *b);
/* The value the driver's coordinate has at (q): angle or distance. */
static inline double driver_coordinate(const mech_system *sys, const driver *d, const double *q)
{
    return sys->dops->driver_coordinate(sys, d, q);
}
/* Fills d->motion for time t (value, speed, acceleration); returns a callback status. */
int driver_motion(mech_system *sys, driver *d, double t);

#endif

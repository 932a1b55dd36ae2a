/* SPDX-License-Identifier: MIT */
/* The equations of joints (joints.c and joint_*.c, through the table of joint_type.h) and
** of drivers (driver.c). */
#ifndef MECH_CONSTRAINTS_PRIVATE_H
#define MECH_CONSTRAINTS_PRIVATE_H

#include "joint_type.h"
#include "registry.h"

/* Number of equations of a joint type. */
int joint_equations(mech_joint_type type);
/* Evaluates the equations of joint j at (q, v) into rows[0..neq). */
static inline void joint_eval(const mech_system *sys, const joint *j, const double *q,
                              const double *v, crow *rows)
{
    joint_types[j->type]->eval(sys, j, q, v, rows);
}
/* Evaluates the driver equation at (q, v, t); needs d->motion filled for time t. */
void driver_eval(const mech_system *sys, const driver *d, const double *q, const double *v,
                 crow *row);
/* Bodies a and b a driver's equation involves. */
void driver_bodies(const mech_system *sys, const driver *d, int *a, int *b);
/* The value the driver's coordinate has at (q): angle or distance. */
double driver_coordinate(const mech_system *sys, const driver *d, const double *q);
/* Fills d->motion for time t (value, speed, acceleration); returns a callback status. */
int driver_motion(mech_system *sys, driver *d, double t);

#endif

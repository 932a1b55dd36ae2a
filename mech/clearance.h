/* SPDX-License-Identifier: MIT */
/* Joints with clearance, made of contacts (clearance.c). */
#ifndef MECH_CLEARANCE_PRIVATE_H
#define MECH_CLEARANCE_PRIVATE_H

#include "registry.h"

/* Checks the clearance d of joint j (the last one added), adds its contacts and checks that
** its bodies start within the clearance.  On failure no contact is added (the caller then
** removes the joint). */
mech_status clearance_attach(mech_system *sys, int j, const mech_clearance_def *d, mech_error *err);
/* Checks that every joint with clearance holds its bodies within the clearance in state y;
** `when` ends the message ("after assembly"). */
mech_status clearance_check_state(const mech_system *sys, const double *y, const char *when,
                                  mech_error *err);
/* Revolute joint j with clearance at (q, v): the eccentricity (journal centre - bearing
** centre) in the world and in the bearing body's frame. */
void clearance_eccentricity(const mech_system *sys, const joint *j, const double *q,
                            const double *v, double world[2], double local[2]);
/* The ideal joint of joint j with clearance, for an ideal start: a revolute one holds the
** journal's centre on the bearing's; a prismatic one the middle of the slider's corners on
** the guide's axis, the slider not tilted (the nearest untilted angle to that in positions q).
** Writes it into *ideal (j itself for a joint without clearance). */
void clearance_ideal(const mech_system *sys, const joint *j, const double *q, joint *ideal);
/* Whether joint j with clearance is centred at positions q: the journal's centre within tol
** of the bearing's, or the slider's corners within tol of their centred, untilted places. */
int clearance_centred(const mech_system *sys, const joint *j, const double *q, double tol);
/* The speed across the clearance of joint j at (q, v): the journal's centre relative to the
** bearing's (any direction crosses the clearance from the centre), or the largest speed of a
** slider's corner along the guide's normal relative to the guide. */
double clearance_speed(const mech_system *sys, const joint *j, const double *q, const double *v);
/* Prismatic joint j with clearance at (q, v): the slider's angle to the guide axis and the
** distance of its centre of mass from the axis (along the axis turned +90 degrees). */
void clearance_slider(const mech_system *sys, const joint *j, const double *q, const double *v,
                      double *tilt, double *offset);
/* Joint j with clearance at (q, v), with its contacts' forces of the last evaluation:
** the resultant force its contacts apply to its second body b (the journal, the slider),
** in the world, and its moment about b's anchor: f = {fx, fy, m}, as an ideal joint's
** reaction. */
void clearance_force(const mech_system *sys, const joint *j, const double *q, const double *v,
                     double f[3]);

#endif

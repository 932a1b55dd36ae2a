/* SPDX-License-Identifier: MIT */
/* Contact forces and their history (contact.c). */
#ifndef MECH_CONTACT_PRIVATE_H
#define MECH_CONTACT_PRIVATE_H

#include "registry.h"

/* Contact forces (normal and friction) into Q; the accounts' powers and the bristle
** rates into ydot.  pass 1: everything but sticking friction; pass 2: sticking friction
** (trial-and-error), once all other forces on the bodies are known.  Returns a callback
** status (0). */
int contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass);
/* Gap of every contact at state y (events of the model). */
void contact_gaps(const mech_system *sys, const double *y, double *g);
/* Contact k's onset or end at (t, y): updates its history (and resets its bristle state
** in y at an onset).  Returns 1 if it changed: the integration must restart from y. */
int contact_event(mech_system *sys, int k, double t, double *y);
/* Sets every contact's history from state y (at the start of a run). */
void contact_start(mech_system *sys, double t, const double *y);
/* Gap of contact k at state y. */
double contact_gap(const mech_system *sys, int k, const double *y);

/* The planar entries of the dimension table (dim.h), contact.c. */
void planar_contact_rates(const mech_system *sys, const contact *c, const double *q,
                          const double *v, double *gap, double *dd);
int planar_contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass);
int planar_contact_frame(const mech_system *sys, const contact *c, const double *q, const double *v,
                         double p[3], double n[3], double t[3]);
/* The spatial ones (scontact.c): the contacts of spatial joints with clearance. */
void spatial_contact_rates(const mech_system *sys, const contact *c, const double *q,
                           const double *v, double *gap, double *dd);
int spatial_contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass);
int spatial_contact_frame(const mech_system *sys, const contact *c, const double *q,
                          const double *v, double p[3], double n[3], double t[3]);
/* The contacts of a spatial prismatic joint with clearance (sbox_contact.c): one contact's gap
** and rate; every contact of joint j at state y (pass 1: forces into Q, accounts, bristle
** rates, the joint's per-wall totals and resultant; the contacts that stick marked); pass 2,
** the sticking contacts' holding forces, added to the same. */
void sbox_contact_rates(const mech_system *sys, const contact *c, const double *q, const double *v,
                        double *gap, double *dd);
/* A box slider's contact for drawing (spatial_contact_frame): its point on the slider (the
** corner, or the overlap's pressure centre), the wall's normal towards the free side, and the
** friction force's direction at the last evaluation (zeros without one); returns 1. */
int sbox_contact_frame(const mech_system *sys, const contact *c, const double *q, const double *v,
                       double p[3], double n[3], double t[3]);
void sbox_contact_forces(mech_system *sys, joint *j, const double *y, double *ydot);
void sbox_stick_forces(mech_system *sys, joint *j, const double *y);
/* A spatial clearance joint's sticking contacts (contacts[contact0 ..]): the sum of their normal
** forces into total and every other force on the joint's first body a (world, from sys->Q; the
** opposite of b's when a is the ground) into other; returns 0 when none sticks. */
int stick_share(const mech_system *sys, const joint *j, double *total, double other[3]);

#endif

/* SPDX-License-Identifier: MIT */
/*
** Joints with clearance, made of contacts: clearance.c holds what every one shares (the
** contacts' creation, the checks of where the bodies are, the resultant of the contacts'
** forces, the channels of that resultant); each type's own geometry is in its file
** (clearance_revolute.c: a journal in a bearing; clearance_prismatic.c: a slider in a
** guide), reached through its joint type's entry (joint_type.h).
*/
#ifndef MECH_CLEARANCE_PRIVATE_H
#define MECH_CLEARANCE_PRIVATE_H

#include "kind.h"
#include "registry.h"
#include "sbox_geom.h"
#include "sclearance_geom.h"

typedef struct clearance_type {
    const char *part; /* the body that moves in the clearance: "journal", "slider" */
    /* Checks the numbers of d that are this type's own; the message names joint j. */
    mech_status (*check)(const joint *j, const mech_clearance_def *d, mech_error *err);
    /* How many contacts d makes. */
    int (*ncontacts)(const mech_clearance_def *d);
    /* Appends the contacts of joint jid (room was reserved) through clearance_new_contact. */
    void (*contacts)(mech_system *sys, int jid, const mech_clearance_def *d);
    /* Says that contact i of joint j is g < 0 apart in the state `when` names. */
    mech_status (*misplaced)(const mech_system *sys, const joint *j, int i, double g,
                             const char *when, mech_error *err);
    /* Adjusts the ideal joint of j (a copy of j) for positions q; NULL: nothing to adjust. */
    void (*ideal)(const mech_system *sys, const joint *j, const double *q, joint *ideal);
    /* See clearance_centred and clearance_speed. */
    int (*centred)(const mech_system *sys, const joint *j, const double *q, double tol);
    double (*speed)(const mech_system *sys, const joint *j, const double *q, const double *v);
    /* The normal n of contact c's surface (on the bearing, the guide) at (q, v) and the point
    ** `at` of the touching body where the force acts, which comes in as c's point. */
    void (*contact_normal)(const mech_system *sys, const joint *j, const contact *c,
                           const double *q, const double *v, double n[2], double at[2]);
    /* Writes ", clearance ..." of the joint's line in sys:describe; own_laws: the laws too
    ** (else the joint's line goes on with its first contact's). */
    void (*describe)(sbuf *b, const mech_system *sys, const joint *j);
    int own_laws;
    /* The joint's channels: a table ended by a NULL name, whose entries from force_q on are
    ** the resultant's fx, fy, f (and m) (clearance_value gives those); a spatial type's
    ** resultant has the ideal spatial joint's names (fx .. mz_j), and its value gives them. */
    const quantity *quantities;
    int force_q;
    /* The value of one of the joint's own channels (below force_q; a spatial type's: all). */
    double (*value)(const mech_system *sys, const joint *j, int qn);
    /* Lists the channels it offers beyond its table, NULL none; the entity that has a
    ** quantity its table lacks, NULL none (see kind_ops). */
    void (*list_more)(sbuf *b, const mech_system *sys, const joint *j);
    int (*other)(const mech_system *sys, const joint *j, int *kind, int *oid);
} clearance_type;

/* The entries (clearance_revolute.c, clearance_prismatic.c; sclearance.c: the spatial
** revolute joint's journal cylinder in its bearing cavity). */
extern const clearance_type clearance_journal, clearance_guide, sclearance_journal;
/* The spatial counterpart of clearance_attach, for the clearance d of spatial joint j (the last
** one added): checks it, adds the four contacts and checks that the journal starts inside. */
mech_status sclearance_attach(mech_system *sys, int j, const mech_sclearance_def *d,
                              mech_error *err);
/* The sizes of spatial joint j's bearing and journal, and their poses (mid-points and axes) at
** positions q (scontact.c). */
void sclearance_pose_at(const mech_system *sys, const joint *j, const double *q,
                        sclearance_geom *sz, sclearance_pose *p);
/* After an accepted step of a spatial system, at (t, y): 1 with the reason in why when the
** journal of a joint with clearance has left its bearing (a rim point of one end beyond the end
** wall on the other side, which none of its contacts faces: sclearance_geom.h), else 0.  The
** spatial dimension's step_fault (dim.h). */
int sclearance_fault(const mech_system *sys, double t, const double *y, char *why, size_t size);
/* The spatial prismatic joint with clearance (sbox_joint.c): a box slider in a channel.  Its
** entry; its attach, as sclearance_attach (checks d, adds the contacts, checks that the slider
** starts inside the channel); the walls' names ("xpos", "xneg", "zpos", "zneg"); its fault
** after an accepted step at (t, y) (the slider's centre past a wall: 1 with the reason in why),
** which sclearance_fault calls for it. */
extern const clearance_type sbox_slider;
mech_status sbox_attach(mech_system *sys, int j, const mech_sbox_def *d, mech_error *err);
extern const char *const sbox_wall_names[SBOX_NFACES];
int sbox_fault(const mech_system *sys, const joint *j, double t, const double *y, char *why,
               size_t size);
/* Joint j's sizes, the poses of its guide and slider and the bodies' states at (q, v) (v NULL:
** at rest), sbox_contact.c. */
void sbox_pose_at(const mech_system *sys, const joint *j, const double *q, const double *v,
                  sbox_geom *g, sbox_pose *p, sbox_body *slider, sbox_body *guide);
/* The clearance of joint j's type (NULL: the type takes none). */
const clearance_type *clearance_of(const joint *j);

/* "bottom", "top": the guide's surfaces, in the contacts' names. */
extern const char *const clearance_surface_names[2];

/* Appends a contact of joint jid with the laws of d (room was reserved): a is the body that
** touches (journal, slider), b the one that carries the surface (bearing, guide). */
contact *clearance_new_contact(mech_system *sys, int jid, const mech_clearance_def *d,
                               const char *suffix);
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
/* Joint j with clearance at (q, v), with its contacts' forces of the last evaluation:
** the resultant force its contacts apply to its second body b (the journal, the slider),
** in the world, and its moment about b's anchor: f = {fx, fy, m}, as an ideal joint's
** reaction. */
void clearance_force(const mech_system *sys, const joint *j, const double *q, const double *v,
                     double f[3]);
/* The value of channel qn of joint j with clearance in the last full evaluation. */
double clearance_value(const mech_system *sys, const joint *j, int qn);

/* A list_more for joints whose contacts are entities of their own: each contact's gap and
** normal force, as "<contact's name less the joint's>.gap" ("xpos.c0.gap", "c1_upper.fn"). */
void clearance_list_contacts(sbuf *b, const mech_system *sys, const joint *j);

#endif

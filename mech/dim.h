/* SPDX-License-Identifier: MIT */
/*
** What depends on a system's dimension, as one table of operations (like model_ops and
** integ_ops): the planar one (planar_dim.c) and the spatial one (spatial_dim.c).  A system
** points at its table from creation; the stages that are written once for both dimensions
** (finalize, the evaluation and the constrained solve in dynamics.c, assembly, the model's run
** checks, the channels machinery) call through it where a body's coordinates, its mass block,
** gravity, the force elements, the drivers' equations or the kinds' channels differ.  What
** does not depend on the dimension (rows of the constraint Jacobian on u, mass blocks, the
** solve, energy accounts, integrators, runs) has no entry here.
*/
#ifndef MECH_DIM_PRIVATE_H
#define MECH_DIM_PRIVATE_H

#include <stddef.h>

#include "registry.h"

struct kind_ops; /* kind.h */

typedef struct dim_ops {
    int dim;          /* 2 or 3 */
    const char *name; /* "mech.planar", "mech.spatial": what the system is called in messages */

    /* The joint type t of this dimension (joint_type.h), NULL when it has none. */
    const struct joint_type *(*joint_type)(mech_joint_type t);
    /* The kind k's entry (kind.h) for this dimension's entities. */
    const struct kind_ops *const *kinds;
    int nkinds;

    /* ---- finalize ---------------------------------------------------------------------- */
    /* How many velocities have no inertia (planar bodies with zero inertia). */
    int (*count_massless)(const mech_system *sys);
    /* The doubles minv_full needs (at least 1). */
    size_t (*full_size)(const mech_system *sys);
    /*
    ** Fills the mass blocks (one per moving body, in order), minv (the diagonal blocks'
    ** inverse masses), minv_full's offsets, and massless / massless_block; MECH_ERR_ARG when a
    ** body's mass or inertia cannot be inverted.
    */
    mech_status (*setup_blocks)(mech_system *sys, mech_error *err);

    /* ---- one evaluation at (t, q, v) --------------------------------------------------- */
    /* Before and after an evaluation at q: caches of the bodies' rotations (and the full mass
    ** blocks' inverses, which turn with the bodies). */
    void (*begin)(mech_system *sys, const double *q);
    void (*end)(mech_system *sys);
    /* Q = gravity and the inertial (gyroscopic) forces of every body; with full, also the
    ** kinetic energy and the potential of gravity into *kinetic and *v_grav. */
    void (*body_forces)(mech_system *sys, const double *q, const double *v, int full,
                        double *kinetic, double *v_grav);
    /* Adds the forces of springs and loads to Q; the powers and the elastic energy are added
    ** to the three accounts.  A callback's status (0 done). */
    int (*element_forces)(mech_system *sys, double t, const double *q, const double *v,
                          double *p_applied, double *p_dissip, double *v_elastic);
    /* q' = N(q) u for every body into qdot (nq values). */
    void (*qdot)(const mech_system *sys, const double *q, const double *u, double *qdot);
    /* A full evaluation: each ideal joint's reaction on its body b (react) from its rows and
    ** multipliers (j->lambda). */
    void (*reaction)(const mech_system *sys, joint *j, const crow *rows, const double *q,
                     const double *v);
    /* Body b's kinetic energy at positions q and velocities v. */
    double (*kinetic)(const mech_system *sys, int b, const double *q, const double *v);
    /* Names the first body whose kinetic or gravity energy is not finite (MECH_ERR_NUMERIC in
    ** sys->last_err) and returns 1, else 0. */
    int (*energy_fault)(mech_system *sys, double t, const double *q, const double *v);

    /* ---- contacts (contact.c: the history, events and accounts they share) ------------ */
    /* The tangent directions of a contact: 1 planar (a line), 2 spatial (a plane); a friction
    ** law with bristles keeps that many states per contact. */
    int contact_tangents;
    /* Contact c's gap (< 0: a penetration) and penetration rate dd at (q, v). */
    void (*contact_rates)(const mech_system *sys, const contact *c, const double *q,
                          const double *v, double *gap, double *dd);
    /* Every contact's forces into Q, the accounts' powers and the bristle rates into ydot;
    ** see contact_forces (contact.h). */
    int (*contact_forces)(mech_system *sys, double t, const double *y, double *ydot, int pass);
    /* Contact c at (q, v), for pictures (scene.c): its point on the touching body a (a box
    ** slider's: its corner or the overlap's pressure centre), the unit normal of the surface
    ** and the unit direction of its friction force on a (planar: the tangent, signed as ft;
    ** spatial: of the last evaluation's friction force, zeros without one); returns 1. */
    int (*contact_frame)(const mech_system *sys, const contact *c, const double *q, const double *v,
                         double p[3], double n[3], double t[3]);

    /* ---- pictures (scene.c) ------------------------------------------------------------ */
    /* Body b's centre of mass r and rotation A (row-major, world = A body; planar: about z by
    ** its angle, the identity for a node and the ground) at positions q. */
    void (*body_frame)(const mech_system *sys, int b, const double *q, double r[3], double A[9]);

    /* ---- drivers ------------------------------------------------------------------------- */
    /* Checks what d drives (type and target) and sets up dr (its frames) for the driver `name`;
    ** MECH_ERR_ARG naming it when the target cannot be driven so. */
    mech_status (*driver_setup)(const mech_system *sys, const mech_driver_def *d, const char *name,
                                driver *dr, mech_error *err);
    /* The driver's equation at (q, v); d->motion holds its motion at the time. */
    void (*driver_eval)(const mech_system *sys, const driver *d, const double *q, const double *v,
                        crow *row);
    /* The driven coordinate's value at q (angle or distance). */
    double (*driver_coordinate)(const mech_system *sys, const driver *d, const double *q);

    /* ---- history of a run ------------------------------------------------------------- */
    /* A run starts from state y at t, and a step of it was accepted at (t, y): what the model
    ** follows from step to step (the turns of a spatial joint's angle).  NULL: nothing. */
    void (*history_start)(mech_system *sys, double t, const double *y);
    void (*history_step)(mech_system *sys, double t, const double *y);

    /* After an accepted step at (t, y), once the positions are within bounds: 1 with the reason
    ** in why when the state cannot go on for a reason of this dimension's elements (a spatial
    ** journal that left its bearing), else 0.  NULL: none. */
    int (*step_fault)(const mech_system *sys, double t, const double *y, char *why, size_t size);

    /* ---- assembly and runs -------------------------------------------------------------- */
    /* Moves the positions q by the velocity-space step du (nu values): q += N(q) du to first
    ** order (exactly q + du for the planar system). */
    void (*displace)(const mech_system *sys, double *q, const double *du);
    /* Projects the positions q onto what they must satisfy by themselves (unit quaternions);
    ** returns the largest change, -1 when a position cannot be projected.  NULL: none. */
    double (*normalize)(const mech_system *sys, double *q);
    /* The state index of the first coordinate of a body's position (not its orientation)
    ** farther than bound from 0 or not finite, or -1: the model's runaway check. */
    int (*runaway)(const mech_system *sys, const double *q, double bound);
    /* The run's length scale from the bodies: the positions at the start q, how far the
    ** velocities v and accelerations udot carry them in T, their outlines, gravity. */
    double (*body_scale)(const mech_system *sys, const double *q, const double *v, double T);
    /* The speed of body b's point s (body coordinates; 2 used in a planar system) at (q, v):
    ** 0 for the ground. */
    double (*point_speed)(const mech_system *sys, int b, const double s[3], const double *q,
                          const double *v);
    /* "body 'rod' omega": the name of position (velocity = 0) or velocity coordinate c of
    ** body bd (c counted from the body's first). */
    const char *(*coordinate_name)(const body *bd, int velocity, int c);
    /* The system's first line in sys:describe ("gravity (...) m/s^2"). */
    void (*describe_gravity)(const mech_system *sys, char *buf, size_t size);
} dim_ops;

extern const dim_ops planar_dim, spatial_dim;

#endif

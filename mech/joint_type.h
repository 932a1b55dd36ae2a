/* SPDX-License-Identifier: MIT */
/*
** Joint types as tables (joints.c), one per dimension: each family (planar: joint_revolute.c,
** joint_prismatic.c, joint_fixed.c; spatial: sjoint_*.c) gives one entry with its equations
** and what the rest of the library asks of the type, so that a new type adds a file and an
** entry, not a branch in every stage.
*/
#ifndef MECH_JOINT_TYPE_PRIVATE_H
#define MECH_JOINT_TYPE_PRIVATE_H

#include "registry.h"

/* The channels of an ideal joint (Lagrange or penalty); the index is the quantity code. */
enum { J_FX, J_FY, J_F, J_M, J_FN, J_VIOLATION, J_DX, J_DY, J_TWIST, J_NQUANTITIES };
#define JOINT_OFFERS(q) (1u << (q))

struct clearance_type; /* clearance.h */

typedef struct joint_type {
    mech_joint_type type;
    const char *name; /* "revolute", as in messages and descriptions */
    int neq;          /* equations of the ideal joint */
    const char *eq_names[JOINT_NEQ_MAX];
    /* the equation on the relative rotation alone (phi_b - phi_a), -1 for none: the fast
    ** solve holds a body without inertia through it */
    int alone;
    int has_axis;   /* the joint has an axis (normalized by the constructor, described) */
    int has_angle;  /* the joint holds a relative angle (described) */
    int takes_node; /* a node of a flexible body may be one of its bodies */
    /* Evaluates the neq equations of joint j at (q, v) into rows[0 .. neq). */
    void (*eval)(const mech_system *sys, const joint *j, const double *q, const double *v,
                 crow *rows);
    unsigned offers; /* the J_* channels the ideal joint offers, a mask of JOINT_OFFERS */
    /* The violation channel of the last evaluation (j->phi): how far apart the anchors are
    ** [m]; a spatial joint's misalignment channel: its largest error of direction [-]. */
    double (*violation)(const joint *j);
    double (*misalignment)(const joint *j);
    /* The joint with clearance of this type, NULL when it takes none. */
    const struct clearance_type *clearance;
} joint_type;

/* The entries of type t in a planar and in a spatial system (joints.c), NULL for a type the
** dimension does not have.  A joint keeps its own (joint.jt). */
const joint_type *planar_joint_type(mech_joint_type t);
const joint_type *spatial_joint_type(mech_joint_type t);

/* The families' entries (joint_*.c: planar; sjoint_*.c: spatial). */
extern const joint_type joint_revolute, joint_prismatic, joint_fixed;
extern const joint_type sjoint_spherical, sjoint_revolute, sjoint_universal, sjoint_cylindrical,
    sjoint_prismatic, sjoint_planar, sjoint_fixed;

#endif

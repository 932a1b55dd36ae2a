/* SPDX-License-Identifier: MIT */
/*
** The structure of a system's Jacobian for BDF (system_jac.c): the pattern of the rates'
** dependences and the flexible bodies' forces in closed form.
*/
#ifndef MECH_SYSTEM_JAC_PRIVATE_H
#define MECH_SYSTEM_JAC_PRIVATE_H

#include "registry.h"

/* How an evaluation treats the internal forces of the flexible bodies' linear nodes
** (system_jac.mode). */
enum {
    JAC_LIVE = 0,    /* computed, as always */
    JAC_CAPTURE = 1, /* computed and kept (the point of a Jacobian) */
    JAC_FROZEN = 2   /* the kept ones (the perturbed points around it) */
};

typedef struct system_jac {
    int mode; /* JAC_* of the evaluation in progress */
    /* g's pattern and L's (mech_jac_structure), compressed columns */
    int *colptr, *rowind;
    int *lcolptr, *lrowind;
    int nlin;
    /* per flexible body f: its nodes start at node_at[f] in the arrays per node below and at
    ** 2 node_at[f] in q0; its stiffness entries at k_at[f] (4 each) in lpos */
    int *node_at, *k_at;
    unsigned char *linear; /* per node: its internal force goes into L (a linear node) */
    int *stick;            /* per node: the contact of MECH_FRICTION_STICK on it, -1 */
    double *q0;            /* per coordinate: the internal force kept at the Jacobian's point */
    /* per stiffness entry p of a linear node's rows (node row k, coordinate r'): the places
    ** in L of rows (k, 0) and (k, 1) in its column's position, then velocity columns */
    int *lpos;
} system_jac;

/* Builds sys->jac (once after each finalize; freed by system_jac_free) and fills js: the
** functions get sys.  MECH_ERR_NOMEM. */
mech_status system_jac_structure(mech_system *sys, mech_jac_structure *js, mech_error *err);
void system_jac_free(mech_system *sys);

#endif

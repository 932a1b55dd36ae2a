/* SPDX-License-Identifier: MIT */
/*
** BDF's difference-quotient Jacobian with the model's structure (integ_jac.c): which entries
** it keeps, the groups of columns evaluated together, the linear part.  See
** mech_jac_structure (mech_integ.h).
*/
#ifndef MECH_INTEG_JAC_PRIVATE_H
#define MECH_INTEG_JAC_PRIVATE_H

#include "mech_integ.h"

typedef struct integ_jac {
    int n;    /* states */
    int row0; /* rows before it are not kept (BDF's positions, q' = N(q) u) */
    /* the caller's structure, copied (its patterns and ctx are the model's, which outlives the
    ** integrator; the copy needs no caller's variable to) */
    mech_jac_structure js;
    /* the entries kept: rows row0.. but those of the outputs (states no rate depends on), in
    ** compressed columns over the n states, rows counted from row0 (colptr[n] of them); val
    ** their values after integ_jac_eval */
    int *colptr, *rowind;
    double *val;
    int grouped; /* the outputs left out, the columns grouped (else one by one, outputs kept) */
    int use_lin; /* ... and L added to g's quotients */
    /* g's kept entries: gpos[gptr[j] .. gptr[j + 1]) their positions in val */
    int *gptr, *gpos;
    /* the groups of columns: grp_col[grp_ptr[k] .. grp_ptr[k + 1]) */
    int ngroups;
    int *grp_ptr, *grp_col;
    /* L: the position in val of each entry of its pattern (-1: a row not kept), its values */
    int nlin, nlin_kept;
    int *lpos;
    double *lval;
    /* work: g at the Jacobian's point and at the perturbed ones, increments, saved states */
    double *g0, *gt, *inc, *ysave;
} integ_jac;

/*
** Reads the structure js of a system of n equations whose rows before row0 BDF does not
** need: checks it, unites g's and L's patterns over the rows kept, groups the columns.  js
** is copied: the caller's may go once this returns (the arrays and ctx it points to may not).
** Everything is allocated here.  MECH_ERR_ARG when js is malformed, MECH_ERR_NOMEM.
*/
mech_status integ_jac_setup(integ_jac *J, int n, int row0, const mech_jac_structure *js,
                            mech_error *err);
void integ_jac_free(integ_jac *J);

/*
** The Jacobian's kept entries at (t, y) into J->val: difference quotients of g (f itself, that
** is f(ctx, ...) with fy = f(t, y), without a linear part) one group of columns at a time, with
** the increments sqrt(eps) max(|y_j|, |h fy_j|, 1/w_j), plus L.  y is perturbed and restored.
** *nrhs counts the evaluations.  Returns 0, or what the failing evaluation returned (> 0: retry
** with a smaller step).
*/
int integ_jac_eval(integ_jac *J, mech_rhs_fn f, void *ctx, double t, double *y, const double *fy,
                   const double *w, double h, long *nrhs);

#endif

/* SPDX-License-Identifier: MIT */
/*
** BDF's Jacobian from the model's structure (mech_jac_structure, mech_integ.h).
**
** Column grouping (Curtis, Powell and Reid): columns j and k of g's pattern that share no
** row can be perturbed in one evaluation of g, since every rate that moves depends on one of
** them only; the difference g(y + sum inc_j e_j) - g(y) then holds each column's quotient in
** its own rows.  The groups come from a greedy colouring in column order: each column takes
** the first group none of whose columns shares one of its rows.  For a mesh whose forces are
** the linear part the groups are few and fixed (those of the bodies the nodes touch); for
** bodies coupled by Lagrange rows every column of the component is a group of its own.
**
** The rows kept are those BDF needs (after row0) but the outputs: a state that no rate
** depends on (an energy account, a driver's work) has an empty column, and its row of the
** Newton matrix only moves itself.  Leaving it out (a row of the identity) makes the corrector
** iterate it by substitution, one iteration behind the states it integrates (off by the last
** Newton correction's effect, which the convergence test bounds), and changes no other state;
** it keeps the accounts' rows, which depend on every velocity, from tying all columns
** together.  That is worth it when the groups (with one evaluation more for L) at most halve
** the evaluations of the columns one by one; else every row is kept and each column with a
** kept row is a group of its own, its quotients those of f, L unused: the quotients and the
** Newton matrices of BDF without the structure, the same numbers (the pattern's zeros are
** exact zeros of the quotients), the empty columns skipped.
**
** Everything is sized at setup; an evaluation allocates nothing.
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "csr.h"
#include "integ_jac.h"

/* The groups and the linear part are used when they take at most this share of the
** evaluations of the columns one by one (else the outputs' rows are kept: see the top). */
#define GROUPS_WORTH 0.5

void integ_jac_free(integ_jac *J)
{
    mech_free(J->colptr);
    mech_free(J->rowind);
    mech_free(J->val);
    mech_free(J->gptr);
    mech_free(J->gpos);
    mech_free(J->grp_ptr);
    mech_free(J->grp_col);
    mech_free(J->lpos);
    mech_free(J->lval);
    mech_free(J->g0);
    mech_free(J->gt);
    mech_free(J->inc);
    mech_free(J->ysave);
    memset(J, 0, sizeof *J);
}

/* A pattern of n columns: starts from 0, never decreasing, rows in [0, n) ascending. */
static int pattern_ok(int n, const int *colptr, const int *rowind)
{
    if (colptr[0] != 0) return 0;
    for (int j = 0; j < n; j++) {
        if (colptr[j + 1] < colptr[j]) return 0;
        for (int p = colptr[j]; p < colptr[j + 1]; p++)
            if (rowind[p] < 0 || rowind[p] >= n || (p > colptr[j] && rowind[p] <= rowind[p - 1]))
                return 0;
    }
    return 1;
}

static mech_status nomem(integ_jac *J, mech_error *err)
{
    integ_jac_free(J);
    return mech_error_set(err, MECH_ERR_NOMEM, "bdf: out of memory for the Jacobian's structure");
}

/*
** Greedy colouring of the columns of g's kept pattern (rows relative to row0 in J->rowind at
** J->gpos): fills the groups.  rowstart / rowcol: the same pattern by rows.
*/
static mech_status group_columns(integ_jac *J, mech_error *err)
{
    const int n = J->n, r = n - J->row0, ng = J->gptr[n];
    int *rowstart = mech_calloc((size_t)r + 1, sizeof(int));
    int *rowcol = mech_calloc((size_t)(ng ? ng : 1), sizeof(int));
    int *colour = mech_malloc((size_t)n * sizeof(int));
    /* per group: the column that last found it taken by a neighbour */
    int *mark = mech_malloc(((size_t)n + 1) * sizeof(int));
    int *count = mech_calloc((size_t)n + 1, sizeof(int));
    if (!rowstart || !rowcol || !colour || !mark || !count) {
        mech_free(rowstart);
        mech_free(rowcol);
        mech_free(colour);
        mech_free(mark);
        mech_free(count);
        return nomem(J, err);
    }
    for (int p = 0; p < ng; p++) rowstart[J->rowind[J->gpos[p]] + 1]++;
    for (int i = 0; i < r; i++) rowstart[i + 1] += rowstart[i];
    for (int j = 0; j < n; j++)
        for (int p = J->gptr[j]; p < J->gptr[j + 1]; p++) {
            int i = J->rowind[J->gpos[p]];
            rowcol[rowstart[i]++] = j;
        }
    for (int i = r; i > 0; i--) rowstart[i] = rowstart[i - 1];
    rowstart[0] = 0;

    int ncol = 0;
    for (int c = 0; c <= n; c++) mark[c] = -1;
    for (int j = 0; j < n; j++) {
        colour[j] = -1;
        if (J->gptr[j] == J->gptr[j + 1]) continue; /* no kept row depends on it */
        for (int p = J->gptr[j]; p < J->gptr[j + 1]; p++) {
            int i = J->rowind[J->gpos[p]];
            for (int q = rowstart[i]; q < rowstart[i + 1]; q++) {
                int k = rowcol[q];
                if (k < j && colour[k] >= 0) mark[colour[k]] = j;
            }
        }
        int c = 0;
        while (mark[c] == j) c++;
        colour[j] = c;
        count[c]++;
        if (c + 1 > ncol) ncol = c + 1;
    }
    mech_free(rowstart);
    mech_free(rowcol);
    mech_free(mark);

    J->ngroups = ncol;
    J->grp_ptr = mech_calloc((size_t)ncol + 1, sizeof(int));
    int ncols = 0;
    for (int c = 0; c < ncol; c++) ncols += count[c];
    J->grp_col = mech_calloc((size_t)(ncols ? ncols : 1), sizeof(int));
    if (!J->grp_ptr || !J->grp_col) {
        mech_free(colour);
        mech_free(count);
        return nomem(J, err);
    }
    for (int c = 0; c < ncol; c++) J->grp_ptr[c + 1] = J->grp_ptr[c] + count[c];
    memset(count, 0, ((size_t)n + 1) * sizeof(int));
    for (int j = 0; j < n; j++)
        if (colour[j] >= 0) J->grp_col[J->grp_ptr[colour[j]] + count[colour[j]]++] = j;
    mech_free(colour);
    mech_free(count);
    return MECH_OK;
}

/*
** The kept entries, their places, the groups.  leave_out: the outputs' rows are left out, the
** columns grouped and L used; else every row after row0 is kept and every column with one of
** them is a group of its own, its quotients those of f (g and L's patterns together).
*/
static mech_status layout(integ_jac *J, int leave_out, mech_error *err)
{
    const mech_jac_structure *js = &J->js;
    const int n = J->n, row0 = J->row0, has_lin = js->lin_colptr != NULL;
    const int *gp = js->colptr, *gr = js->rowind;
    const int *lp = js->lin_colptr, *lr = js->lin_rowind;
    J->grouped = leave_out;
    J->use_lin = leave_out && has_lin;
    J->nlin = J->use_lin ? lp[n] : 0;

    /* kept rows: after row0 and, leaving the outputs out, read by some rate */
    char *keep = mech_calloc((size_t)n, 1);
    J->colptr = mech_calloc((size_t)n + 1, sizeof(int));
    J->gptr = mech_calloc((size_t)n + 1, sizeof(int));
    if (!keep || !J->colptr || !J->gptr) {
        mech_free(keep);
        return nomem(J, err);
    }
    for (int i = row0; i < n; i++)
        keep[i] = !leave_out || gp[i + 1] > gp[i] || (has_lin && lp[i + 1] > lp[i]);
    /* the union of the kept rows of g and L, column by column (both ascending: a merge) */
    for (int pass = 0; pass < 2; pass++) {
        int nnz = 0, ng = 0;
        for (int j = 0; j < n; j++) {
            int p = gp[j], pe = gp[j + 1], q = has_lin ? lp[j] : 0, qe = has_lin ? lp[j + 1] : 0;
            while (p < pe || q < qe) {
                int i = p < pe && (q >= qe || gr[p] <= lr[q]) ? gr[p] : lr[q];
                int in_g = (p < pe && gr[p] == i) || !J->use_lin;
                if (p < pe && gr[p] == i) p++;
                if (q < qe && lr[q] == i) q++;
                if (!keep[i]) continue;
                if (pass) {
                    J->rowind[nnz] = i - row0;
                    if (in_g) J->gpos[ng] = nnz;
                }
                nnz++;
                ng += in_g;
            }
            if (!pass) {
                J->colptr[j + 1] = nnz;
                J->gptr[j + 1] = ng;
            }
        }
        if (!pass) {
            J->rowind = mech_calloc((size_t)(nnz ? nnz : 1), sizeof(int));
            J->val = mech_calloc((size_t)(nnz ? nnz : 1), sizeof(double));
            J->gpos = mech_calloc((size_t)(ng ? ng : 1), sizeof(int));
            if (!J->rowind || !J->val || !J->gpos) {
                mech_free(keep);
                return nomem(J, err);
            }
        }
    }
    /* L's entries in the kept pattern */
    J->lpos = mech_calloc((size_t)(J->nlin ? J->nlin : 1), sizeof(int));
    J->lval = mech_calloc((size_t)(J->nlin ? J->nlin : 1), sizeof(double));
    if (!J->lpos || !J->lval) {
        mech_free(keep);
        return nomem(J, err);
    }
    for (int j = 0; J->use_lin && j < n; j++)
        for (int q = lp[j]; q < lp[j + 1]; q++) {
            /* in the union by construction */
            J->lpos[q] = keep[lr[q]]
                             ? csr_find(J->rowind, J->colptr[j], J->colptr[j + 1], lr[q] - row0)
                             : -1;
            J->nlin_kept += J->lpos[q] >= 0;
        }
    mech_free(keep);
    if (leave_out) return group_columns(J, err);
    int ncol = 0; /* each column with a kept row alone */
    for (int j = 0; j < n; j++) ncol += J->gptr[j + 1] > J->gptr[j];
    J->grp_ptr = mech_calloc((size_t)ncol + 1, sizeof(int));
    J->grp_col = mech_calloc((size_t)(ncol ? ncol : 1), sizeof(int));
    if (!J->grp_ptr || !J->grp_col) return nomem(J, err);
    for (int j = 0; j < n; j++)
        if (J->gptr[j + 1] > J->gptr[j]) {
            J->grp_col[J->ngroups] = j;
            J->grp_ptr[J->ngroups + 1] = J->ngroups + 1;
            J->ngroups++;
        }
    return MECH_OK;
}

mech_status integ_jac_setup(integ_jac *J, int n, int row0, const mech_jac_structure *js,
                            mech_error *err)
{
    memset(J, 0, sizeof *J);
    J->n = n;
    J->row0 = row0;
    J->js = *js;
    const int has_lin = js->lin_colptr != NULL;
    if (!js->colptr || !js->rowind || (has_lin && (!js->lin_rowind || !js->linearize)) ||
        (js->linearize && (!has_lin || !js->remainder)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "bdf: the Jacobian's structure lacks a pattern or a function");
    if (!pattern_ok(n, js->colptr, js->rowind) ||
        (has_lin && !pattern_ok(n, js->lin_colptr, js->lin_rowind)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "bdf: the Jacobian's structure is not a pattern of %d columns with "
                              "ascending rows",
                              n);
    /* the columns that f's quotients, one by one, would take */
    int ncol = 0;
    for (int j = 0; j < n; j++) {
        int any = 0;
        for (int p = js->colptr[j]; p < js->colptr[j + 1] && !any; p++) any = js->rowind[p] >= row0;
        for (int p = has_lin ? js->lin_colptr[j] : 0; has_lin && p < js->lin_colptr[j + 1] && !any;
             p++)
            any = js->lin_rowind[p] >= row0;
        ncol += any;
    }
    mech_status st = layout(J, 1, err);
    if (st) return st;
    if (J->ngroups + J->use_lin > GROUPS_WORTH * ncol) { /* not worth the outputs' lag */
        integ_jac_free(J);
        J->n = n;
        J->row0 = row0;
        J->js = *js;
        if ((st = layout(J, 0, err))) return st;
    }
    size_t sn = (size_t)n;
    J->g0 = mech_calloc(sn, sizeof(double));
    J->gt = mech_calloc(sn, sizeof(double));
    J->inc = mech_calloc(sn, sizeof(double));
    J->ysave = mech_calloc(sn, sizeof(double));
    if (!J->g0 || !J->gt || !J->inc || !J->ysave) return nomem(J, err);
    return MECH_OK;
}

int integ_jac_eval(integ_jac *J, mech_rhs_fn f, void *ctx, double t, double *y, const double *fy,
                   const double *w, double h, long *nrhs)
{
    const mech_jac_structure *js = &J->js;
    const double srur = sqrt(DBL_EPSILON);
    const double *base = fy;
    mech_rhs_fn fun = f;
    void *fctx = ctx;
    if (J->use_lin) {
        int rc = js->linearize(js->ctx, t, y, J->g0, J->lval);
        ++*nrhs;
        if (rc) return rc;
        base = J->g0;
        fun = js->remainder;
        fctx = js->ctx;
    }
    memset(J->val, 0, sizeof(double) * (size_t)J->colptr[J->n]);
    for (int k = 0; k < J->ngroups; k++) {
        const int *cols = J->grp_col + J->grp_ptr[k], nc = J->grp_ptr[k + 1] - J->grp_ptr[k];
        for (int c = 0; c < nc; c++) {
            int j = cols[c];
            double yj = y[j];
            double inc = srur * fmax(fabs(yj), fmax(fabs(h * fy[j]), w[j] > 0 ? 1.0 / w[j] : 0.0));
            if (!(inc > 0)) inc = srur;
            J->inc[j] = inc;
            J->ysave[j] = yj;
            y[j] = yj + inc;
        }
        int rc = fun(fctx, t, y, J->gt);
        ++*nrhs;
        for (int c = 0; c < nc; c++) y[cols[c]] = J->ysave[cols[c]];
        if (rc) return rc;
        for (int c = 0; c < nc; c++) {
            int j = cols[c];
            double inc = J->inc[j];
            for (int p = J->gptr[j]; p < J->gptr[j + 1]; p++) {
                int q = J->gpos[p], i = J->rowind[q] + J->row0;
                J->val[q] = (J->gt[i] - base[i]) / inc;
            }
        }
    }
    for (int e = 0; e < J->nlin; e++)
        if (J->lpos[e] >= 0) J->val[J->lpos[e]] += J->lval[e];
    return 0;
}

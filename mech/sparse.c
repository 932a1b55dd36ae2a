/* SPDX-License-Identifier: MIT */
/*
** Sparse LU by SuiteSparse's KLU (sparse.h).
**
** KLU takes its memory from SuiteSparse_config's functions, one set for the whole process:
** the first sparse matrix made points them at libmech's allocator, once, and only while
** they are still the C library's own (a program that chose its own for SuiteSparse keeps
** them, and KLU's allocations then go uncounted by mech_alloc_count).
**
** Pivots: klu_refactor keeps the row order of the last fresh factorization, which was
** chosen for other values.  It is kept while the new pivots pass two checks, both O(n):
** none at or below the singularity bound (tol times the largest |entry|), and the ratio of
** the smallest |pivot| to the largest (klu_rcond's estimate) not below REFRESH times the best
** it has been since that fresh factorization; a ratio that falls that far means that a pivot
** shrank against the others as the values moved: the pivots are then chosen afresh
** (klu_factor, which allocates: rare, at sharp changes of the mechanism's pose).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <suitesparse/klu.h>

#include "csr.h"
#include "mech_core.h"
#include "sparse.h"

/* A refactorization whose smallest-to-largest pivot ratio falls below this fraction of its
** best since the pivots were chosen makes a fresh factorization. */
#define REFRESH 1e-3

struct sparse_lu {
    int n, nnz;
    int *Ap, *Ai; /* compressed columns: n + 1 starts, nnz row indices (sorted) */
    double *Ax;   /* nnz values */
    klu_common common;
    klu_symbolic *sym;
    klu_numeric *num;  /* NULL until factored, or after a factorization gave up its pivots */
    double rcond_best; /* the best pivot ratio since the pivots were chosen */
    long fresh, kept;  /* factorizations: klu_factor's, klu_refactor's kept */
};

static once_flag route_once = ONCE_FLAG_INIT;

static void route_allocations(void)
{
    struct SuiteSparse_config_struct *c = &SuiteSparse_config;
    if (c->malloc_func == malloc && c->calloc_func == calloc && c->realloc_func == realloc &&
        c->free_func == free) {
        c->malloc_func = mech_malloc;
        c->calloc_func = mech_calloc;
        c->realloc_func = mech_realloc;
        c->free_func = mech_free;
    }
}

sparse_lu *sparse_create(int n, int m, const int *row, const int *col, int *slot)
{
    call_once(&route_once, route_allocations);
    sparse_lu *s = mech_calloc(1, sizeof *s);
    int *at = mech_calloc((size_t)n + 1, sizeof(int)),
        *all = mech_calloc((size_t)m + 1, sizeof(int));
    if (s == NULL || at == NULL || all == NULL) goto fail;
    s->n = n;
    /* the rows of each column, duplicates and all, sorted */
    for (int k = 0; k < m; k++) at[col[k] + 1]++;
    for (int j = 0; j < n; j++) at[j + 1] += at[j];
    s->Ap = mech_calloc((size_t)n + 1, sizeof(int));
    if (s->Ap == NULL) goto fail;
    memcpy(s->Ap, at, sizeof(int) * (size_t)n);
    for (int k = 0; k < m; k++) all[s->Ap[col[k]]++] = row[k];
    for (int j = 0; j < n; j++)
        qsort(all + at[j], (size_t)(at[j + 1] - at[j]), sizeof(int), csr_cmp_int);
    /* without the duplicates */
    int nnz = 0;
    for (int j = 0; j < n; j++) {
        s->Ap[j] = nnz;
        for (int k = at[j]; k < at[j + 1]; k++)
            if (k == at[j] || all[k] != all[k - 1]) all[nnz++] = all[k];
    }
    s->Ap[n] = nnz;
    s->nnz = nnz;
    s->Ai = mech_calloc((size_t)(nnz ? nnz : 1), sizeof(int));
    s->Ax = mech_calloc((size_t)(nnz ? nnz : 1), sizeof(double));
    if (s->Ai == NULL || s->Ax == NULL) goto fail;
    memcpy(s->Ai, all, sizeof(int) * (size_t)nnz);
    for (int k = 0; k < m; k++) slot[k] = csr_find(s->Ai, s->Ap[col[k]], s->Ap[col[k] + 1], row[k]);
    mech_free(at);
    mech_free(all);
    klu_defaults(&s->common);
    s->common.scale = -1; /* no row scaling, as the dense solve: the pivots in the matrix's units */
    return s;
fail:
    mech_free(at);
    mech_free(all);
    sparse_free(s);
    return NULL;
}

int sparse_analyze(sparse_lu *s)
{
    s->sym = klu_analyze(s->n, s->Ap, s->Ai, &s->common);
    return s->sym ? 0 : -1;
}

void sparse_scale_rows(sparse_lu *s)
{
    s->common.scale = 2;
}

void sparse_free(sparse_lu *s)
{
    if (s == NULL) return;
    if (s->num) klu_free_numeric(&s->num, &s->common);
    if (s->sym) klu_free_symbolic(&s->sym, &s->common);
    mech_free(s->Ap);
    mech_free(s->Ai);
    mech_free(s->Ax);
    mech_free(s);
}

int sparse_order(const sparse_lu *s)
{
    return s->n;
}

int sparse_nnz(const sparse_lu *s)
{
    return s->nnz;
}

double *sparse_values(sparse_lu *s)
{
    return s->Ax;
}

/* The largest |entry|. */
static double largest(const sparse_lu *s)
{
    double scale = 0;
    for (int k = 0; k < s->nnz; k++) {
        double v = fabs(s->Ax[k]);
        if (v > scale) scale = v;
    }
    return scale;
}

/* Checks num's pivots against limit: 1 when all are above it (and finite), with their
** smallest-to-largest ratio in *rcond; else 0. */
static int pivots_sound(const sparse_lu *s, const klu_numeric *num, double limit, double *rcond)
{
    const double *u = num->Udiag;
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < s->n; k++) {
        double v = fabs(u[k]);
        if (!(v > limit) || !isfinite(v)) return 0;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    *rcond = s->n ? lo / hi : 1;
    return 1;
}

int sparse_factor(sparse_lu *s, double tol)
{
    double scale = largest(s), rcond;
    if (scale == 0) return s->n > 0 ? SPARSE_SMALL : SPARSE_OK;
    double limit = s->common.scale > 0 ? tol : tol * scale; /* scaled: largest |entry| 1 */
    if (s->num) {
        if (klu_refactor(s->Ap, s->Ai, s->Ax, s->sym, s->num, &s->common) &&
            pivots_sound(s, s->num, limit, &rcond) && rcond >= REFRESH * s->rcond_best) {
            if (rcond > s->rcond_best) s->rcond_best = rcond;
            s->kept++;
            return SPARSE_OK;
        }
        klu_free_numeric(&s->num, &s->common); /* pivots chosen afresh */
    }
    s->fresh++;
    s->num = klu_factor(s->Ap, s->Ai, s->Ax, s->sym, &s->common);
    if (s->num == NULL) return s->common.status == KLU_SINGULAR ? SPARSE_SMALL : SPARSE_NOMEM;
    if (!pivots_sound(s, s->num, limit, &rcond)) {
        /* pivots chosen for a singular matrix: the next values choose their own */
        klu_free_numeric(&s->num, &s->common);
        return SPARSE_SMALL;
    }
    s->rcond_best = rcond;
    return SPARSE_OK;
}

void sparse_forget_ratio(sparse_lu *s)
{
    s->rcond_best = 0;
}

void sparse_counts(const sparse_lu *s, long *fresh, long *kept)
{
    *fresh = s->fresh;
    *kept = s->kept;
}

void sparse_solve(sparse_lu *s, double *b)
{
    klu_solve(s->sym, s->num, s->n, 1, b, &s->common);
}

int sparse_first_singular(sparse_lu *s, double tol, double *b)
{
    double limit = tol * largest(s);
    /* the dense LU's order: no block form, the columns as they are, the largest pivot of each;
    ** a zero pivot does not stop it (the first small one may come before) */
    klu_common c = s->common;
    c.btf = 0;
    c.tol = 1.0;
    c.halt_if_singular = 0;
    klu_symbolic *sym = klu_analyze_given(s->n, s->Ap, s->Ai, NULL, NULL, &c);
    klu_numeric *num = sym ? klu_factor(s->Ap, s->Ai, s->Ax, sym, &c) : NULL;
    int bad = -2;
    if (num) {
        const double *u = num->Udiag;
        bad = -1;
        for (int k = 0; k < s->n && bad < 0; k++) {
            double v = fabs(u[k]);
            if (!(v > limit) || !isfinite(v)) bad = k; /* natural order: pivot k is column k */
        }
        if (bad < 0) klu_solve(sym, num, s->n, 1, b, &c);
        klu_free_numeric(&num, &c);
    }
    if (sym) klu_free_symbolic(&sym, &c);
    return bad;
}

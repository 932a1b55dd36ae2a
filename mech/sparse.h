/* SPDX-License-Identifier: MIT */
/*
** Sparse LU of libmech (private; sparse.c), SuiteSparse's KLU: the reduced matrix of the
** constrained solve when it is large and sparse (dynamics.c), and BDF's sparse Newton matrices
** (integ_bdf.c).  The only place that calls KLU.
**
** The pattern is fixed when the matrix is made: sparse_create takes its structurally non-zero
** entries (duplicates allowed) and tells each its slot in the value array, which the caller
** fills in place before every factorization.  sparse_analyze orders the pattern once (KLU: a
** block triangular form, then AMD within its blocks).  The first factorization chooses the
** pivots; later ones reuse them (klu_refactor, which allocates nothing) as long as the pivots
** stay sound, and choose new ones when they do not (see sparse_factor).  KLU's memory comes
** from libmech's allocator (mech_malloc: counted, and failing on demand in a build with fault
** injection), whichever of its users comes first.
*/
#ifndef MECH_SPARSE_PRIVATE_H
#define MECH_SPARSE_PRIVATE_H

typedef struct sparse_lu sparse_lu;

/* What sparse_factor found. */
enum {
    SPARSE_OK = 0,    /* factored: sparse_solve may be called */
    SPARSE_SMALL = 1, /* a pivot at or below tol times the largest entry: singular, or nearly */
    SPARSE_NOMEM = -1 /* out of memory (or a matrix KLU refuses) */
};

/*
** The pattern of an n x n matrix from its m structurally non-zero entries (row[k], col[k]),
** in any order, duplicates allowed: slot[k] receives the index of entry k in the value array
** (sparse_values).  NULL when out of memory.  Nothing is ordered yet (sparse_analyze).
*/
sparse_lu *sparse_create(int n, int m, const int *row, const int *col, int *slot);
/* Orders the pattern for the factorizations; -1 when out of memory, else 0. */
int sparse_analyze(sparse_lu *s);
void sparse_free(sparse_lu *s);

/*
** KLU's row scaling (its default: each row divided by its largest |entry| before the pivots
** are chosen) instead of none.  Without it the pivots are those of the matrix in its own units,
** as the dense LU's (linalg.h), which the constrained solve needs to name the same singular
** column; with it sparse_factor's tol bounds the pivots of the scaled matrix, whose largest
** |entry| is 1.  Before the first factorization.
*/
void sparse_scale_rows(sparse_lu *s);

/* The matrix's order, and its number of stored entries (the length of sparse_values). */
int sparse_order(const sparse_lu *s);
int sparse_nnz(const sparse_lu *s);
/* The values, column by column (compressed columns): filled by the caller through the slots. */
double *sparse_values(sparse_lu *s);

/*
** Factors the matrix as its values now are (after sparse_analyze).  SPARSE_OK when every pivot
** is above tol times the largest |entry| (the dense LU's test, linalg.h); SPARSE_SMALL when
** one is not, even with pivots chosen afresh; SPARSE_NOMEM.  The pivots of the last fresh
** factorization are reused while they stay sound: every pivot above that bound, and the ratio
** of the smallest to the largest |pivot| no worse than a thousandth of its best since then.
*/
int sparse_factor(sparse_lu *s, double tol);
/*
** Forgets the pivot ratio of the last fresh factorization: the next refactorization that is
** sound sets it.  For a factorization of values that only stand for the pattern (BDF factors
** the identity on its Newton matrix's pattern when it is made, so that KLU sizes its factors
** before the first step), whose ratio says nothing of the matrices to come.
*/
void sparse_forget_ratio(sparse_lu *s);
/* How many factorizations chose pivots afresh (klu_factor, which allocates) and how many kept
** those of the last one (klu_refactor, which does not), since sparse_create. */
void sparse_counts(const sparse_lu *s, long *fresh, long *kept);
/* x = A^-1 b in place, after sparse_factor gave SPARSE_OK. */
void sparse_solve(sparse_lu *s, double *b);

/*
** After SPARSE_SMALL: factors the matrix again as the dense LU would (the columns in their
** natural order, the largest pivot of each), to name the same column it would.  Returns the
** first column whose pivot is at or below tol times the largest |entry|; -1 when there is
** none (a matrix only nearly singular in KLU's order), after solving b in place with that
** factorization; -2 when out of memory.  It allocates: for the error path only.
*/
int sparse_first_singular(sparse_lu *s, double tol, double *b);

#endif

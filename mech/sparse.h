/* SPDX-License-Identifier: MIT */
/*
** Sparse LU of libmech (private; sparse.c): the reduced matrix of the constrained solve when it
** is large and sparse (dynamics.c), factored by SuiteSparse's KLU.
**
** The pattern is fixed when the matrix is made: sparse_create takes its structurally non-zero
** entries (duplicates allowed) and tells each its slot in the value array, which the caller
** fills in place before every factorization.  sparse_analyze orders the pattern once (KLU: a
** block triangular form, then AMD within its blocks).  The first factorization chooses the
** pivots; later ones reuse them (klu_refactor, which allocates nothing) as long as the pivots
** stay sound, and choose new ones when they do not (see sparse_factor).  KLU's memory comes
** from libmech's allocator (mech_malloc: counted, and failing on demand in a build with fault
** injection).
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

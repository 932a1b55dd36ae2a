/* SPDX-License-Identifier: MIT */
/*
** Small dense solvers of libmech (private): the constrained solve, the assembly and the
** BDF integrator's Newton systems.  Matrices are row-major n x n, n a few tens.
*/
#ifndef MECH_LINALG_H
#define MECH_LINALG_H

/* Cholesky (lower, in place, with the reciprocals of the pivots on the diagonal); -1 on
** success, else the row whose pivot was not positive enough (relative tol to the largest
** diagonal entry). */
int chol_factor(double *a, int n, double tol);
void chol_solve(const double *a, int n, double *b);
/* LU with partial pivoting; returns -1 on success, else the column whose pivot was below
** tol (relative to the largest entry of the matrix). */
int lu_factor(double *a, int n, int *piv, double tol);
void lu_solve(const double *a, int n, const int *piv, double *b);

#endif

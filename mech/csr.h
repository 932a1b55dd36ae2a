/* SPDX-License-Identifier: MIT */
/*
** Compressed rows or columns (private): what the patterns' builders share (the mesh's stiffness
** in fe.c, the Jacobian's structure in system_jac.c and integ_jac.c, the sparse LU in sparse.c).
*/
#ifndef MECH_CSR_PRIVATE_H
#define MECH_CSR_PRIVATE_H

/* The position of key in idx[lo .. hi), ascending; -1 when it is not there. */
static inline int csr_find(const int *idx, int lo, int hi, int key)
{
    hi--;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (idx[mid] == key) return mid;
        if (idx[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* qsort's comparison of ints, ascending. */
static inline int csr_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

#endif

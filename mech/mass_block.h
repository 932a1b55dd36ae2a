/* SPDX-License-Identifier: MIT */
/*
** The mass matrix of a system is block-diagonal, one block per moving body over its
** velocities: 3 x 3 for a planar rigid body (m, m, I), 2 x 2 for a node of a flexible body
** (m, m), 6 x 6 for a spatial rigid body (m I, and the inertia tensor in world axes, which
** turns with the body).  The constrained solve (dynamics.c) and the rows of the constraint
** Jacobian work on these blocks: a row holds, per body it involves, as many entries as the
** body has velocities, and S = G M^-1 G^T sums over the bodies two rows share the products
** x^T M_b^-1 y of their entries.
**
** A block's inverse is diagonal (planar bodies and nodes: n inverse masses in the system's
** per-velocity array), full (n x n, row-major, symmetric, in a separate array, refreshed
** by the body's kinematics when it turns), or a spatial rigid body's: diag(I / m, J_w^-1),
** kept as 10 numbers in the separate array (1 / m, then J_w^-1 row-major), which the
** products below use without the 27 zeros of the full 6 x 6 form (a third of the work).
** The diagonal arithmetic is written out in the order the planar solve has always used, so
** its results are the same bits.
*/
#ifndef MECH_MASS_BLOCK_PRIVATE_H
#define MECH_MASS_BLOCK_PRIVATE_H

/* The most velocities a body has (a spatial rigid body), so a Jacobian row's entries on
** one body fit in a fixed array. */
#define BODY_NU_MAX 6

/* What a block's inverse is (mass_block.full). */
enum { MASS_DIAGONAL = 0, MASS_FULL = 1, MASS_RIGID = 2 };

/* The numbers a MASS_RIGID block keeps in minv_full: 1 / m and J_w^-1 (3 x 3). */
#define MASS_RIGID_SIZE 10

typedef struct mass_block {
    int at;   /* first velocity of the body in u */
    int n;    /* its number of velocities: 3 planar body, 2 node, 6 spatial body */
    int full; /* MASS_DIAGONAL: inverse masses at minv[at .. at + n); MASS_FULL: n x n at
              ** minv_full + off; MASS_RIGID: n = 6, MASS_RIGID_SIZE numbers at minv_full + off */
    int off;  /* full and rigid: offset of its inverse in minv_full */
} mass_block;

/* x^T M^-1 y of a rigid block whose inverse is m (1 / m, then J_w^-1). */
static inline double mass_rigid_quad(const double *m, const double *x, const double *y)
{
    const double *J = m + 1, *xr = x + 3, *yr = y + 3;
    double s = m[0] * (x[0] * y[0] + x[1] * y[1] + x[2] * y[2]);
    for (int i = 0; i < 3; i++)
        s += xr[i] * (J[3 * i] * yr[0] + J[3 * i + 1] * yr[1] + J[3 * i + 2] * yr[2]);
    return s;
}

/* out = M^-1 f of a rigid block whose inverse is m. */
static inline void mass_rigid_apply(const double *m, const double *f, double *out)
{
    const double *J = m + 1, *fr = f + 3;
    for (int i = 0; i < 3; i++) {
        out[i] = m[0] * f[i];
        out[3 + i] = J[3 * i] * fr[0] + J[3 * i + 1] * fr[1] + J[3 * i + 2] * fr[2];
    }
}

/* sum + x^T M^-1 y over block k: the diagonal terms added in order, the first two together
** (as the planar solve always has). */
static inline double mass_block_quad(const mass_block *k, const double *minv,
                                     const double *minv_full, const double *x, const double *y,
                                     double sum)
{
    if (!k->full) {
        const double *m = minv + k->at;
        sum += x[0] * y[0] * m[0] + x[1] * y[1] * m[1];
        for (int i = 2; i < k->n; i++) sum += x[i] * y[i] * m[i];
        return sum;
    }
    if (k->full == MASS_RIGID) return sum + mass_rigid_quad(minv_full + k->off, x, y);
    const double *m = minv_full + k->off;
    for (int i = 0; i < k->n; i++) {
        double my = 0;
        for (int j = 0; j < k->n; j++) my += m[i * k->n + j] * y[j];
        sum += x[i] * my;
    }
    return sum;
}

/* sum + x^T M^-1 f[at ..] over block k, f indexed by velocity (a generalized force), the
** terms added one by one. */
static inline double mass_block_dot(const mass_block *k, const double *minv,
                                    const double *minv_full, const double *x, const double *f,
                                    double sum)
{
    const double *fk = f + k->at;
    if (!k->full) {
        const double *m = minv + k->at;
        for (int i = 0; i < k->n; i++) sum += x[i] * m[i] * fk[i];
        return sum;
    }
    if (k->full == MASS_RIGID) return sum + mass_rigid_quad(minv_full + k->off, x, fk);
    const double *m = minv_full + k->off;
    for (int i = 0; i < k->n; i++) {
        double mf = 0;
        for (int j = 0; j < k->n; j++) mf += m[i * k->n + j] * fk[j];
        sum += x[i] * mf;
    }
    return sum;
}

/* acc[at ..] = M^-1 f[at ..] over block k. */
static inline void mass_block_apply(const mass_block *k, const double *minv,
                                    const double *minv_full, const double *f, double *acc)
{
    const double *fk = f + k->at;
    double *ak = acc + k->at;
    if (!k->full) {
        const double *m = minv + k->at;
        for (int i = 0; i < k->n; i++) ak[i] = m[i] * fk[i];
        return;
    }
    if (k->full == MASS_RIGID) {
        mass_rigid_apply(minv_full + k->off, fk, ak);
        return;
    }
    const double *m = minv_full + k->off;
    for (int i = 0; i < k->n; i++) {
        double s = 0;
        for (int j = 0; j < k->n; j++) s += m[i * k->n + j] * fk[j];
        ak[i] = s;
    }
}

#endif

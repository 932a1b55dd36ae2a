/* SPDX-License-Identifier: MIT */
/*
** The equations of motion: generalized forces, the constrained solve, and the full
** evaluation behind recorded channels.
**
** The mass matrix is block-diagonal, one block per moving body over its velocities
** (mass_block.h).  With the velocities split into those with inertia (a) and those without
** (z: the angles of planar bodies with zero inertia, which a Lagrange joint must hold),
**     M_a u_a' = Q_a - G_a^T lambda,     0 = Q_z - G_z^T lambda,
**     G_a u_a' + G_z u_z' = c            (c = gamma - 2 alpha Phi' - beta^2 Phi)
** eliminating u_a' = M_a^-1 (Q_a - G_a^T lambda) leaves the small symmetric system
**     [  S    -G_z ] [ lambda ]   [ G_a M_a^-1 Q_a - c ]
**     [ -G_z^T  0  ] [ u_z'   ] = [ -Q_z               ],   S = G_a M_a^-1 G_a^T,
** of size (Lagrange rows + z), solved by LU.  G is stored by rows with the entries on the
** (at most two) bodies a row involves, one per velocity of each body's block, and S is
** summed over the blocks two rows share: a few hundred flops for a slider-crank.  For
** planar bodies and nodes the velocities are the coordinates' rates (q' = u).
**
** Two solvers factor it (mech_system_set_solver): dense, into the full matrix K, or sparse
** (sparse.h), into the values of a pattern fixed at finalize, where each term lands in a slot
** found once (struct sparse_map).  Both sum the same terms in the same order, so their
** matrices are the same to the bit; only the factorizations differ.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech_system.h"
#include "linalg.h"
#include "registry.h"
#include "constraints.h"
#include "contact.h"
#include "dim.h"
#include "dynamics.h"
#include "fe_impl.h"
#include "sparse.h"

#define SINGULAR_TOL 1e-13 /* pivot threshold relative to the largest entry of the matrix */

/* Where a row's Jacobian lands: the first velocity and the number of velocities of
** bodies a and b (their mass blocks; da -1 for the ground). */
typedef struct rowdofs {
    int da, na, db, nb;
} rowdofs;

static rowdofs dofs_blocks(const mech_system *sys, int ka, int kb)
{
    rowdofs r = {-1, 0, -1, 0};
    if (ka >= 0) r.da = sys->blocks[ka].at, r.na = sys->blocks[ka].n;
    if (kb >= 0) r.db = sys->blocks[kb].at, r.nb = sys->blocks[kb].n;
    return r;
}

static rowdofs dofs_of(const mech_system *sys, int a, int b)
{
    return dofs_blocks(sys, sys->bodies[a].block, sys->bodies[b].block);
}

static rowdofs dofs_row(const mech_system *sys, const rowinfo *ri)
{
    return dofs_blocks(sys, ri->blk_a, ri->blk_b);
}

/* Generalized force of a row with multiplier lam added to Q with sign -1. */
static void add_row_force(mech_system *sys, rowdofs d, const crow *r, double lam)
{
    if (d.da >= 0)
        for (int k = 0; k < d.na; k++) sys->Q[d.da + k] -= r->ja[k] * lam;
    if (d.db >= 0)
        for (int k = 0; k < d.nb; k++) sys->Q[d.db + k] -= r->jb[k] * lam;
}

static double row_rate(const crow *r, rowdofs d, const double *v)
{
    double s = r->phit;
    if (d.da >= 0)
        for (int k = 0; k < d.na; k++) s += r->ja[k] * v[d.da + k];
    if (d.db >= 0)
        for (int k = 0; k < d.nb; k++) s += r->jb[k] * v[d.db + k];
    return s;
}

void dynamics_describe_column(const mech_system *sys, int c, char *buf, size_t size)
{
    if (c < sys->nrows) {
        const rowinfo *r = &sys->rows[c];
        if (r->kind == MECH_KIND_JOINT) {
            const joint *j = &sys->joints[r->id];
            snprintf(buf, size, "%s '%s' (equation %s)", j->jt->name, j->name,
                     j->jt->eq_names[r->eq]);
        } else {
            snprintf(buf, size, "driver '%s'", sys->drivers[r->id].name);
        }
    } else {
        int zc = sys->massless[c - sys->nrows];
        snprintf(buf, size, "the rotation of body '%s' (no inertia)",
                 sys->bodies[system_velocity_body(sys, zc)].name);
    }
}

/* M^-1 j of a row's entries j on block k into out, when k is not diagonal (full or rigid:
** the products of two rows on it then take one dot product each). */
static void row_minv(const mech_system *sys, int k, const double *j, double *out)
{
    if (k < 0) return;
    const mass_block *b = &sys->blocks[k];
    if (b->full == MASS_RIGID) {
        mass_rigid_apply(sys->minv_full + b->off, j, out);
    } else if (b->full == MASS_FULL) {
        const double *m = sys->minv_full + b->off;
        for (int i = 0; i < b->n; i++) {
            double s = 0;
            for (int l = 0; l < b->n; l++) s += m[i * b->n + l] * j[l];
            out[i] = s;
        }
    }
}

/* The entry of S of pair kp (two rows sharing diagonal blocks) for the inverse masses minv,
** blocks and minv_full sys's (its callers keep them at hand: inlined, with the loads of each
** call, the slider-crank's right-hand side cost 2 % more). */
__attribute__((always_inline)) static inline double pair_value(const mech_system *sys,
                                                               const kpair *kp, const double *minv,
                                                               const mass_block *blocks,
                                                               const double *mfull)
{
    const rowinfo *ri = &sys->rows[kp->r];
    const crow *cr = &sys->cr[kp->r], *cc = &sys->cr[kp->c];
    double sum = 0;
    for (int m = 0; m < kp->nm; m++) {
        const double *jr = kp->s[m] ? cr->jb : cr->ja, *jc = kp->u[m] ? cc->jb : cc->ja;
        const mass_block *k = &blocks[kp->s[m] ? ri->blk_b : ri->blk_a];
        sum = mass_block_quad(k, minv, mfull, jr, jc, sum);
    }
    return sum;
}

/* M^-1 j of every row's entries on the blocks that are not diagonal, into sys->mj. */
static void rows_minv(mech_system *sys)
{
    for (int r = 0; r < sys->nrows; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *cr = &sys->cr[r];
        double *m = sys->mj + (size_t)r * 2 * BODY_NU_MAX;
        row_minv(sys, ri->blk_a, cr->ja, m);
        row_minv(sys, ri->blk_b, cr->jb, m + BODY_NU_MAX);
    }
}

/* j_r . (M^-1 j_c) on a block of n velocities (w = M^-1 j_c). */
static inline double block_product(const double *jr, const double *w, int n)
{
    if (n == 6) /* a spatial body: written out */
        return jr[0] * w[0] + jr[1] * w[1] + jr[2] * w[2] + jr[3] * w[3] + jr[4] * w[4] +
               jr[5] * w[5];
    double sum = 0;
    for (int e = 0; e < n; e++) sum += jr[e] * w[e];
    return sum;
}

/* sol[r] = (G M^-1 Q)_r - rhs_r for the inverse masses minv; with blocks that are not diagonal,
** M^-1 j of the rows on them from sys->mj (rows_minv). */
__attribute__((always_inline)) static inline void schur_rhs(mech_system *sys, const double *minv)
{
    double *sol = sys->sol, *mj = sys->mj;
    const double *Q = sys->Q, *mfull = sys->minv_full;
    const mass_block *blocks = sys->blocks;
    if (sys->blkrows_at[sys->nblocks] == 0) { /* diagonal blocks only */
        for (int r = 0; r < sys->nrows; r++) {
            const rowinfo *ri = &sys->rows[r];
            const crow *cr = &sys->cr[r];
            double b = -sys->rhs[r];
            if (ri->blk_a >= 0) b = mass_block_dot(&blocks[ri->blk_a], minv, mfull, cr->ja, Q, b);
            if (ri->blk_b >= 0) b = mass_block_dot(&blocks[ri->blk_b], minv, mfull, cr->jb, Q, b);
            sol[r] = b;
        }
        return;
    }
    for (int r = 0; r < sys->nrows; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *cr = &sys->cr[r];
        double b = -sys->rhs[r];
        for (int side = 0; side < 2; side++) {
            int kb = side ? ri->blk_b : ri->blk_a;
            if (kb < 0) continue;
            const mass_block *k = &blocks[kb];
            if (k->full == MASS_DIAGONAL) {
                b = mass_block_dot(k, minv, mfull, side ? cr->jb : cr->ja, Q, b);
            } else {
                const double *w = mj + ((size_t)r * 2 + (size_t)side) * BODY_NU_MAX;
                for (int i = 0; i < k->n; i++) b += w[i] * Q[k->at + i];
            }
        }
        sol[r] = b;
    }
}

/* The products of rows on the blocks that are not diagonal, added into K (ns x ns). */
static void fill_products(mech_system *sys, int ns)
{
    double *K = sys->K;
    rows_minv(sys);
    for (int k = 0; k < sys->nblocks; k++) {
        const int *list = sys->blkrows + sys->blkrows_at[k];
        int nl = sys->blkrows_at[k + 1] - sys->blkrows_at[k], n = sys->blocks[k].n;
        for (int i = 0; i < nl; i++) {
            int r = list[i] >> 1;
            const crow *cr = &sys->cr[r];
            const double *jr = list[i] & 1 ? cr->jb : cr->ja;
            for (int l = i; l < nl; l++) {
                int c = list[l] >> 1;
                double sum = block_product(jr, sys->mj + (size_t)list[l] * BODY_NU_MAX, n);
                K[r * ns + c] += sum;
                if (c != r) K[c * ns + r] += sum;
            }
        }
    }
}

/* Fills the rows block of K (ns x ns) with S = G M^-1 G^T for the inverse mass blocks minv
** (diagonal ones; full and rigid ones in sys->minv_full, through sys->mj), and
** sol[r] = (G M^-1 Q)_r - rhs_r. */
static void fill_schur(mech_system *sys, const double *minv, int ns)
{
    double *K = sys->K;
    const double *mfull = sys->minv_full;
    const mass_block *blocks = sys->blocks;
    memset(K, 0, sizeof(double) * (size_t)(ns * ns));
    for (int p = 0; p < sys->npairs; p++) {
        const kpair *kp = &sys->pairs[p];
        K[kp->r * ns + kp->c] = K[kp->c * ns + kp->r] = pair_value(sys, kp, minv, blocks, mfull);
    }
    if (sys->blkrows_at[sys->nblocks] > 0)
        fill_products(sys, ns); /* rows on full or rigid blocks */
    schur_rhs(sys, minv);
}

/* u' = M^-1 (Q - G^T lambda), lambda in sol, for the inverse mass blocks minv. */
static void accelerations(mech_system *sys, const double *minv)
{
    for (int r = 0; r < sys->nrows; r++) {
        const rowinfo *ri = &sys->rows[r];
        add_row_force(sys, dofs_row(sys, ri), &sys->cr[r], sys->sol[r]);
    }
    for (int k = 0; k < sys->nblocks; k++)
        mass_block_apply(&sys->blocks[k], minv, sys->minv_full, sys->Q, sys->udot);
}

/* The coefficient of massless coordinate z in row r (its entry of G_z). */
static inline double zcoef(const mech_system *sys, int r, int z)
{
    const rowinfo *ri = &sys->rows[r];
    const crow *cr = &sys->cr[r];
    int zk = sys->massless_block[z], i = sys->massless[z] - sys->blocks[zk].at;
    return (ri->blk_a == zk ? cr->ja[i] : 0) + (ri->blk_b == zk ? cr->jb[i] : 0);
}

/* Q += (or -=, sign -1) w a^T rhs for the rows that hold a massless coordinate alone (the
** augmented Lagrangian of the fast solve). */
static void augment_forces(mech_system *sys, int sign)
{
    for (int z = 0; z < sys->nmassless; z++) {
        double f = sys->massless_coef[z] * sys->massless_w[z] * sys->rhs[sys->massless_row[z]];
        if (sign > 0)
            sys->Q[sys->massless[z]] += f;
        else
            sys->Q[sys->massless[z]] -= f;
    }
}

/* The reduced matrix is singular: names the entity behind column c.  Returns 1 (see
** evaluate: an adaptive integrator retries with a shorter step). */
static int report_singular(mech_system *sys, double t, int c)
{
    char what[160];
    dynamics_describe_column(sys, c, what, sizeof what);
    mech_error_set(&sys->last_err, MECH_ERR_SINGULAR,
                   "the constraint equations are singular at t = %.9g near %s: the "
                   "mechanism is locked, redundant or in a singular position",
                   t, what);
    return 1;
}

/*
** Fast solve, when every coordinate without inertia has a Lagrange row on it alone (the
** rotation row of a prismatic or fixed joint to the ground, or an angle driver): adding
** w a a^T for those rows (augmented Lagrangian, exact because A q'' = c) gives it the
** inertia w and keeps M diagonal, so S = A M~^-1 A^T is positive definite: Cholesky.
** Returns -1 when S is not positive definite (the general path then diagnoses).
*/
static int solve_fast(mech_system *sys)
{
    const int nr = sys->nrows;
    augment_forces(sys, 1);
    fill_schur(sys, sys->minv_aug, nr);
    if (chol_factor(sys->K, nr, SINGULAR_TOL) >= 0) {
        augment_forces(sys, -1);
        return -1;
    }
    chol_solve(sys->K, nr, sys->sol);
    accelerations(sys, sys->minv_aug);
    return 0;
}

/* General solve of the reduced system [S -A_z; -A_z^T 0] by LU with pivoting.  Returns 0, or
** 1 when it is singular (report_singular). */
static int solve_general(mech_system *sys, double t)
{
    const int nr = sys->nrows, nz = sys->nmassless, ns = nr + nz;
    double *K = sys->K, *sol = sys->sol;
    fill_schur(sys, sys->minv, ns);
    for (int r = 0; r < nr; r++)
        for (int z = 0; z < nz; z++) K[r * ns + nr + z] = K[(nr + z) * ns + r] = -zcoef(sys, r, z);
    for (int z = 0; z < nz; z++) sol[nr + z] = -sys->Q[sys->massless[z]];
    int bad = lu_factor(K, ns, sys->piv, SINGULAR_TOL);
    if (bad >= 0) return report_singular(sys, t, bad);
    lu_solve(K, ns, sys->piv, sol);
    accelerations(sys, sys->minv);
    for (int z = 0; z < nz; z++) sys->udot[sys->massless[z]] = sol[nr + z];
    return 0;
}

/* ---- the sparse solve ------------------------------------------------------------------ */

/*
** A reduced matrix of the sparse solve: its factorization (sparse.h), and where each term of
** fill_sparse lands among its values: the two slots (r, c) and (c, r) of every pair and of
** every product of two rows on a block that is not diagonal (in the order fill_sparse visits
** them), and for the general solve the entries of the massless columns: row r, coordinate z
** and the slots of (r, nr + z), (nr + z, r).
*/
typedef struct sparse_map {
    sparse_lu *lu;
    int *pair, *prod, *zent;
    int nzent;
} sparse_map;

static void sparse_map_free(sparse_map *sm)
{
    if (sm == NULL) return;
    sparse_free(sm->lu);
    mech_free(sm->pair);
    mech_free(sm->prod);
    mech_free(sm->zent);
    mech_free(sm);
}

/* The number of products of two rows on a shared block that is not diagonal. */
static int count_products(const mech_system *sys)
{
    int n = 0;
    for (int k = 0; k < sys->nblocks; k++) {
        int nl = sys->blkrows_at[k + 1] - sys->blkrows_at[k];
        n += nl * (nl + 1) / 2;
    }
    return n;
}

/* The map of the reduced matrix over the rows and, with massless != 0, the massless columns;
** not analysed yet.  NULL when out of memory. */
static sparse_map *sparse_map_create(const mech_system *sys, int massless)
{
    const int nr = sys->nrows, nz = massless ? sys->nmassless : 0, nprod = count_products(sys);
    int nzent = 0;
    for (int r = 0; r < nr; r++)
        for (int z = 0; z < nz; z++) {
            int zk = sys->massless_block[z];
            if (sys->rows[r].blk_a == zk || sys->rows[r].blk_b == zk) nzent++;
        }
    /* the entries: the diagonal, the pairs, the products, the massless columns */
    size_t m = (size_t)nr + 2 * ((size_t)sys->npairs + (size_t)nprod + (size_t)nzent);
    sparse_map *sm = mech_calloc(1, sizeof *sm);
    int *row = mech_calloc(m, sizeof(int)), *col = mech_calloc(m, sizeof(int));
    int *slot = mech_calloc(m, sizeof(int));
    if (sm) {
        sm->pair = mech_calloc(2 * (size_t)sys->npairs + 1, sizeof(int));
        sm->prod = mech_calloc(2 * (size_t)nprod + 1, sizeof(int));
        sm->zent = mech_calloc(4 * (size_t)nzent + 1, sizeof(int));
    }
    if (!sm || !row || !col || !slot || !sm->pair || !sm->prod || !sm->zent) goto fail;
    size_t e = 0;
#define ENTRY(i, j) (row[e] = (i), col[e] = (j), e++)
    for (int r = 0; r < nr; r++) ENTRY(r, r);
    for (int p = 0; p < sys->npairs; p++) {
        ENTRY(sys->pairs[p].r, sys->pairs[p].c);
        ENTRY(sys->pairs[p].c, sys->pairs[p].r);
    }
    for (int k = 0; k < sys->nblocks; k++) {
        const int *list = sys->blkrows + sys->blkrows_at[k];
        int nl = sys->blkrows_at[k + 1] - sys->blkrows_at[k];
        for (int i = 0; i < nl; i++)
            for (int l = i; l < nl; l++) {
                ENTRY(list[i] >> 1, list[l] >> 1);
                ENTRY(list[l] >> 1, list[i] >> 1);
            }
    }
    for (int r = 0; r < nr; r++)
        for (int z = 0; z < nz; z++) {
            int zk = sys->massless_block[z];
            if (sys->rows[r].blk_a != zk && sys->rows[r].blk_b != zk) continue;
            ENTRY(r, nr + z);
            ENTRY(nr + z, r);
        }
#undef ENTRY
    sm->lu = sparse_create(nr + nz, (int)m, row, col, slot);
    if (sm->lu == NULL) goto fail;
    e = (size_t)nr;
    for (int p = 0; p < 2 * sys->npairs; p++) sm->pair[p] = slot[e++];
    for (int q = 0; q < 2 * nprod; q++) sm->prod[q] = slot[e++];
    sm->nzent = nzent;
    for (int r = 0, q = 0; r < nr; r++)
        for (int z = 0; z < nz; z++) {
            int zk = sys->massless_block[z];
            if (sys->rows[r].blk_a != zk && sys->rows[r].blk_b != zk) continue;
            sm->zent[4 * q] = r;
            sm->zent[4 * q + 1] = z;
            sm->zent[4 * q + 2] = slot[e++];
            sm->zent[4 * q + 3] = slot[e++];
            q++;
        }
    mech_free(row);
    mech_free(col);
    mech_free(slot);
    return sm;
fail:
    mech_free(row);
    mech_free(col);
    mech_free(slot);
    sparse_map_free(sm);
    return NULL;
}

/* fill_schur into the values of sm's matrix: the same terms summed in the same order, so the
** same entries; nothing outside its pattern is touched. */
static void fill_sparse(mech_system *sys, const sparse_map *sm, const double *minv)
{
    double *A = sparse_values(sm->lu);
    const double *mfull = sys->minv_full;
    const mass_block *blocks = sys->blocks;
    memset(A, 0, sizeof(double) * (size_t)sparse_nnz(sm->lu));
    const int *slot = sm->pair;
    for (int p = 0; p < sys->npairs; p++, slot += 2)
        A[slot[0]] = A[slot[1]] = pair_value(sys, &sys->pairs[p], minv, blocks, mfull);
    if (sys->blkrows_at[sys->nblocks] > 0) {
        rows_minv(sys);
        slot = sm->prod;
        for (int k = 0; k < sys->nblocks; k++) {
            const int *list = sys->blkrows + sys->blkrows_at[k];
            int nl = sys->blkrows_at[k + 1] - sys->blkrows_at[k], n = sys->blocks[k].n;
            for (int i = 0; i < nl; i++) {
                const crow *cr = &sys->cr[list[i] >> 1];
                const double *jr = list[i] & 1 ? cr->jb : cr->ja;
                for (int l = i; l < nl; l++, slot += 2) {
                    double sum = block_product(jr, sys->mj + (size_t)list[l] * BODY_NU_MAX, n);
                    A[slot[0]] += sum;
                    if (slot[1] != slot[0]) A[slot[1]] += sum;
                }
            }
        }
    }
    schur_rhs(sys, minv);
}

static int sparse_nomem(mech_system *sys, double t)
{
    mech_error_set(&sys->last_err, MECH_ERR_NOMEM,
                   "system: out of memory factoring the constraint equations at t = %.9g", t);
    return -1;
}

/*
** The solves above on the sparse matrices: the fast one when it applies, else (or when its
** matrix is not positive enough) the general one, and when that is singular or nearly, the
** dense LU's order to name the same column (sparse_first_singular).  Returns 0, 1 when
** singular (report_singular), -1 when out of memory.
*/
static int solve_sparse(mech_system *sys, double t)
{
    const int nr = sys->nrows, nz = sys->nmassless;
    const sparse_map *gen = sys->sp_gen;
    double *sol = sys->sol;
    int rc = SPARSE_SMALL;
    if (sys->fast) {
        augment_forces(sys, 1);
        fill_sparse(sys, sys->sp_fast, sys->minv_aug);
        rc = sparse_factor(sys->sp_fast->lu, SINGULAR_TOL);
        if (rc == SPARSE_OK) {
            sparse_solve(sys->sp_fast->lu, sol);
            accelerations(sys, sys->minv_aug);
            sys->factored = 1;
            return 0;
        }
        augment_forces(sys, -1);
        if (rc == SPARSE_NOMEM) return sparse_nomem(sys, t);
    }
    if (!sys->fast || sys->sp_fast != gen) { /* else the same matrix: nz = 0 */
        fill_sparse(sys, gen, sys->minv);
        double *A = sparse_values(gen->lu);
        for (int q = 0; q < gen->nzent; q++) {
            const int *ze = gen->zent + 4 * q;
            A[ze[2]] = A[ze[3]] = -zcoef(sys, ze[0], ze[1]);
        }
        for (int z = 0; z < nz; z++) sol[nr + z] = -sys->Q[sys->massless[z]];
        rc = sparse_factor(gen->lu, SINGULAR_TOL);
        if (rc == SPARSE_NOMEM) return sparse_nomem(sys, t);
        if (rc == SPARSE_OK) sparse_solve(gen->lu, sol);
    }
    if (rc != SPARSE_OK) {
        int bad = sparse_first_singular(gen->lu, SINGULAR_TOL, sol);
        if (bad == -2) return sparse_nomem(sys, t);
        if (bad >= 0) return report_singular(sys, t, bad);
    }
    accelerations(sys, sys->minv);
    for (int z = 0; z < nz; z++) sys->udot[sys->massless[z]] = sol[nr + z];
    sys->factored = rc == SPARSE_OK ? 0 : -1;
    return 0;
}

/*
** MECH_SOLVER_AUTO's rule, from the crossover tables of tests/bench/bench_chain.c ("bench_chain
** crossover": microseconds per right-hand side, dense / sparse, medians of 7 on the development
** machine, 2 shared cores), by the size of the reduced matrix and the share of its entries in
** the pattern:
**   planar chains (2 equations a link): 16 equations 1.41 / 1.56, 20: 2.00 / 1.79, 24: 2.71 / 2.19,
**     40: 7.6 / 3.7;
**   spatial chains on revolute joints (5 a link): 20: 2.70 / 3.07, 25 (share 0.52): 3.83 / 4.08,
**     30 (0.44): 5.22 / 4.81, 40 (0.34): 9.2 / 6.6;
**   spatial chains on spherical joints (3 a link): 12: 1.45 / 1.67, 24 (0.34): 3.83 / 3.40;
**   fans (joints that share a hub: a dense block in the pattern) of 42, 62 and 122 equations:
**     sparse wins up to half the entries (share 0.49: 13.8 / 10.7 at 42, 182 / 165 at 122;
**     0.26 at 62: 24 / 13) and loses beyond (0.53 at 62: 26.7 / 29.2; 0.60 at 122: 186 / 216;
**     a full matrix: 2 to 2.8 times slower).
** Sparse, then, from 24 equations (below, the two are within 20 % of each other) when at most
** half the entries of the reduced matrix are in its pattern.
*/
#define SPARSE_MIN_EQUATIONS 24
#define SPARSE_MAX_DENSITY   0.5

void dynamics_free(mech_system *sys)
{
    if (sys->sp_fast != sys->sp_gen) sparse_map_free(sys->sp_fast);
    sparse_map_free(sys->sp_gen);
    sys->sp_fast = sys->sp_gen = NULL;
    mech_free(sys->K);
    mech_free(sys->piv);
    sys->K = NULL;
    sys->piv = NULL;
}

mech_status dynamics_setup(mech_system *sys, mech_error *err)
{
    const int nr = sys->nrows, nz = sys->nmassless, ns = nr + nz;
    dynamics_free(sys);
    int sparse = sys->solver == MECH_SOLVER_SPARSE;
    if (sys->solver == MECH_SOLVER_AUTO && ns >= SPARSE_MIN_EQUATIONS) {
        sys->sp_gen = sparse_map_create(sys, 1);
        if (sys->sp_gen == NULL) goto nomem;
        sparse = sparse_nnz(sys->sp_gen->lu) <= SPARSE_MAX_DENSITY * (double)ns * (double)ns;
        if (!sparse) dynamics_free(sys);
    }
    if (sparse && ns > 0) { /* without equations, nothing to solve */
        if (sys->sp_gen == NULL && (sys->sp_gen = sparse_map_create(sys, 1)) == NULL) goto nomem;
        if (sparse_analyze(sys->sp_gen->lu)) goto nomem;
        if (sys->fast && nz == 0) {
            sys->sp_fast = sys->sp_gen;
        } else if (sys->fast) {
            sys->sp_fast = sparse_map_create(sys, 0);
            if (sys->sp_fast == NULL || sparse_analyze(sys->sp_fast->lu)) goto nomem;
        }
    } else if (!sparse) {
        size_t nk = (size_t)(ns ? ns : 1);
        sys->K = mech_calloc(nk * nk, sizeof(double));
        sys->piv = mech_calloc(nk, sizeof(int));
        if (sys->K == NULL || sys->piv == NULL) goto nomem;
    }
    sys->solver_used = sparse ? MECH_SOLVER_SPARSE : MECH_SOLVER_DENSE;
    return MECH_OK;
nomem:
    dynamics_free(sys);
    return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory sizing the constraint solve");
}

/* Reports the first non-finite quantity after a solve.  Returns 1: an adaptive integrator
** retries with a smaller step (a stiff law overshooting in a too long step gives inf, not
** a broken model); if the step size underflows the report stays as the reason.  Returns 0
** when every value is finite. */
static int diagnose(mech_system *sys, double t, const double *y, const double *ydot)
{
    char what[160];
    int n = sys->nu;
    for (int i = 0; i < sys->nq + n; i++) {
        if (!isfinite(y[i])) {
            mech_system_describe_state(sys, i, what, sizeof what);
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC, "%s is not finite at t = %.9g", what,
                           t);
            return 1;
        }
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(sys->Q[i])) {
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "the forces on body '%s' are not finite at t = %.9g",
                           sys->bodies[system_velocity_body(sys, i)].name, t);
            return 1;
        }
    }
    for (int i = 0; i < sys->nstate; i++) {
        if (!isfinite(ydot[i])) {
            mech_system_describe_state(sys, i, what, sizeof what);
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "the rate of %s is not finite at t = %.9g", what, t);
            return 1;
        }
    }
    return 0;
}

/*
** A full evaluation also reports energies, which can overflow while every force and rate
** is finite (a speed of 1e200 m/s, gravity 1e308 on a falling body): names the first
** non-finite term, or the overflowing sum.  Returns 1 like diagnose, 0 when all is finite.
*/
static int diagnose_energy(mech_system *sys, double t, const double *q, const double *v,
                           double kinetic, double v_grav, double v_elastic)
{
    if (isfinite(kinetic + v_grav + v_elastic)) return 0;
    if (sys->dops->energy_fault(sys, t, q, v)) return 1;
    for (int i = 0; i < sys->nforces; i++) {
        const force *f = &sys->forces[i];
        if ((f->type == MECH_SPRING || f->type == MECH_ROT_SPRING) && !isfinite(f->out[3])) {
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "the energy of spring '%s' is not finite at t = %.9g (%s %.3g)", f->name,
                           t, f->type == MECH_SPRING ? "length" : "angle", f->out[1]);
            return 1;
        }
    }
    mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                   "the energy of the system is not finite at t = %.9g (kinetic %.3g J, gravity "
                   "%.3g J, elastic %.3g J)",
                   t, kinetic, v_grav, v_elastic);
    return 1;
}

static int evaluate(mech_system *sys, double t, const double *y, double *ydot, int full);

int dynamics_rows(mech_system *sys, double t, const double *q, const double *v, int motions)
{
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->row >= 0) joint_eval(sys, j, q, v, &sys->cr[j->row]);
    }
    for (int i = 0; i < sys->ndrivers; i++) {
        driver *d = &sys->drivers[i];
        int rc = motions ? driver_motion(sys, d, t) : 0;
        if (rc) {
            if (rc < 0 && sys->last_err.code == MECH_OK)
                mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                               "driver '%s': its motion function failed at t = %.9g", d->name, t);
            return rc;
        }
        driver_eval(sys, d, q, v, &sys->cr[d->row]);
    }
    return 0;
}

double dynamics_row_rate(const mech_system *sys, int r, const double *v)
{
    return row_rate(&sys->cr[r], dofs_row(sys, &sys->rows[r]), v);
}

/* The bodies' rotations are computed once per evaluation (dim.h: begin and end). */
int dynamics(mech_system *sys, double t, const double *y, double *ydot, int full)
{
    sys->dops->begin(sys, y); /* q is the start of y */
    int rc = evaluate(sys, t, y, ydot, full);
    sys->dops->end(sys);
    return rc;
}

static int evaluate(mech_system *sys, double t, const double *y, double *ydot, int full)
{
    const int nq = sys->nq, n = sys->nu, nr = sys->nrows, nz = sys->nmassless, ns = nr + nz;
    const double *q = y, *v = y + nq;
    double *Q = sys->Q;

    /* gravity and the bodies' inertial forces */
    double v_grav = 0, kinetic = 0;
    sys->dops->body_forces(sys, q, v, full, &kinetic, &v_grav);

    double p_applied = 0, p_dissip = 0, v_elastic = 0;
    int rc = sys->dops->element_forces(sys, t, q, v, &p_applied, &p_dissip, &v_elastic);
    if (rc) return rc;
    if (sys->nfes) fe_forces(sys, q, v, &p_dissip, &v_elastic, full);

    /* penalty joints: -Phi_q^T (K Phi + C Phi') */
    for (int i = 0; i < sys->njoints; i++) {
        joint *j = &sys->joints[i];
        if (j->enforce != MECH_PENALTY) continue;
        crow rows[JOINT_NEQ_MAX];
        joint_eval(sys, j, q, v, rows);
        rowdofs rd = dofs_of(sys, j->a, j->b);
        for (int e = 0; e < j->neq; e++) {
            double rate = row_rate(&rows[e], rd, v);
            double lam = j->k[e] * rows[e].phi + j->c[e] * rate;
            add_row_force(sys, rd, &rows[e], lam);
            p_dissip += j->c[e] * rate * rate;
            v_elastic += 0.5 * j->k[e] * rows[e].phi * rows[e].phi;
            j->phi[e] = rows[e].phi;
            j->phidot[e] = rate;
            j->lambda[e] = lam;
        }
    }

    /* contacts: normal forces and friction, then sticking friction (it needs the rest) */
    sys->p_contact = sys->p_friction = sys->contact_energy = 0;
    sys->full_eval = full;
    if (sys->ncontacts > 0) {
        contact_forces(sys, t, y, ydot, 1);
        contact_forces(sys, t, y, ydot, 2);
        v_elastic += sys->contact_energy;
    }

    /* Lagrange rows */
    if ((rc = dynamics_rows(sys, t, q, v, 1)) != 0) return rc;
    for (int r = 0; r < nr; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *c = &sys->cr[r];
        double rate = row_rate(c, dofs_row(sys, ri), v);
        sys->rhs[r] = c->gamma - 2 * ri->alpha * rate - ri->beta * ri->beta * c->phi;
    }

    double *udot = sys->udot;
    sys->factored = -1;
    if (ns == 0) {
        for (int k = 0; k < sys->nblocks; k++)
            mass_block_apply(&sys->blocks[k], sys->minv, sys->minv_full, Q, udot);
    } else if (sys->solver_used == MECH_SOLVER_SPARSE) {
        /* 1 when singular, as solve_general */
        if ((rc = solve_sparse(sys, t)) != 0) return rc;
    } else if (sys->fast && solve_fast(sys) == 0) {
        sys->factored = 1;
    } else {
        /* 1 like diagnose: a too long trial step can carry the bodies into a singular
        ** pose (a stiff contact throwing a body off); an adaptive integrator retries shorter,
        ** and the report stays as the reason if it cannot */
        if (solve_general(sys, t) != 0) return 1;
        sys->factored = 0;
    }
    /* q' = N(q) u */
    sys->dops->qdot(sys, q, v, ydot);
    memcpy(ydot + nq, udot, sizeof(double) * (size_t)n);
    for (int i = 0; i < sys->ndrivers; i++) {
        driver *d = &sys->drivers[i];
        const rowinfo *ri = &sys->rows[d->row];
        const crow *c = &sys->cr[d->row];
        double lam = sys->sol[d->row];
        double power = -lam * (row_rate(c, dofs_row(sys, ri), v) - c->phit);
        ydot[d->work] = power;
        if (full) {
            d->lambda = lam;
            d->effort = -lam;
            d->power = power;
            d->actual = c->phi + d->motion[0];
        }
    }
    ydot[sys->iapplied] = p_applied;
    ydot[sys->idissip] = p_dissip;
    ydot[sys->icontact] = sys->p_contact;
    ydot[sys->ifriction] = sys->p_friction;

    /* a quick screen: the sum is finite when every term is, but finite terms can overflow
    ** it, so only the term-by-term check decides */
    double check = 0;
    for (int i = 0; i < sys->nstate; i++) check += ydot[i];
    if (!isfinite(check) && (rc = diagnose(sys, t, y, ydot)) != 0) return rc;

    if (full && (rc = diagnose_energy(sys, t, q, v, kinetic, v_grav, v_elastic)) != 0) return rc;
    if (full) {
        sys->t_eval = t;
        sys->q = q;
        sys->v = v;
        sys->y_eval = y;
        sys->kinetic = kinetic;
        sys->potential = v_grav + v_elastic;
        sys->elastic = v_elastic;
        sys->p_applied = p_applied;
        sys->p_dissip = p_dissip;
        /* reactions: the generalized force of each joint on its body b */
        for (int i = 0; i < sys->njoints; i++) {
            joint *j = &sys->joints[i];
            if (j->enforce == MECH_CLEARANCE) continue; /* its contacts keep their forces */
            crow local[JOINT_NEQ_MAX];
            const crow *rows = local;
            if (j->row >= 0) {
                rows = &sys->cr[j->row];
                for (int e = 0; e < j->neq; e++) {
                    j->lambda[e] = sys->sol[j->row + e];
                    j->phi[e] = rows[e].phi;
                    j->phidot[e] = row_rate(&rows[e], dofs_of(sys, j->a, j->b), v);
                }
            } else {
                joint_eval(sys, j, q, v, local);
            }
            sys->dops->reaction(sys, j, rows, q, v);
        }
    }
    return 0;
}

int mech_system_rhs(void *ctx, double t, const double *y, double *ydot)
{
    return dynamics((mech_system *)ctx, t, y, ydot, 0);
}

mech_status mech_system_evaluate(mech_system *sys, double t, const double *y, mech_error *err)
{
    if (!sys->final) return mech_error_set(err, MECH_ERR_STATE, "system: not finalized");
    /* the derivative goes to scratch: the accelerations are kept in sys->udot */
    mech_error_clear(&sys->last_err);
    int rc = dynamics(sys, t, y, sys->ydot, 1);
    if (rc) {
        if (sys->last_err.code == MECH_OK)
            mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                           "a callback asked to retry at t = %.9g", t);
        if (err) *err = sys->last_err;
        return sys->last_err.code;
    }
    return MECH_OK;
}

mech_status mech_system_set_solver(mech_system *sys, mech_solver solver, mech_error *err)
{
    if (mech_solver_name(solver) == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "system: unknown solver %d", (int)solver);
    sys->solver = solver;
    system_changed(sys);
    return MECH_OK;
}

mech_solver mech_system_solver(const mech_system *sys)
{
    return sys->final ? sys->solver_used : sys->solver;
}

const char *mech_solver_name(mech_solver solver)
{
    switch (solver) {
    case MECH_SOLVER_AUTO: return "auto";
    case MECH_SOLVER_DENSE: return "dense";
    case MECH_SOLVER_SPARSE: return "sparse";
    }
    return NULL;
}

/* ---- the least change onto the constraints (project.c) ------------------------------------ */

/* du -= M^-1 j lam over block kb for the entries j of row r on its side `side`. */
static void least_change_block(const mech_system *sys, const double *minv, int kb, int r, int side,
                               const double *j, double lam, double *du)
{
    if (kb < 0) return;
    const mass_block *k = &sys->blocks[kb];
    if (k->full == MASS_DIAGONAL) {
        for (int i = 0; i < k->n; i++) du[k->at + i] -= minv[k->at + i] * j[i] * lam;
    } else { /* M^-1 j was kept by rows_minv (fill_schur, fill_sparse) */
        const double *w = sys->mj + ((size_t)r * 2 + (size_t)side) * BODY_NU_MAX;
        for (int i = 0; i < k->n; i++) du[k->at + i] -= w[i] * lam;
    }
}

/* The projection's singular matrix: names the entity behind column c (-1: none found). */
static int least_change_singular(mech_system *sys, double t, int c)
{
    char what[160] = "no single equation";
    if (c >= 0) dynamics_describe_column(sys, c, what, sizeof what);
    mech_error_set(&sys->last_err, MECH_ERR_SINGULAR,
                   "projection: the constraint equations are singular at t = %.9g near %s: the "
                   "mechanism is locked, redundant or in a singular position",
                   t, what);
    return -1;
}

/* Fills and factors the reduced matrix of dynamics_least_change on the sparse solver's
** matrices (sys->sp_fast, sys->sp_gen), as solve_sparse does.  Returns 0 or -1. */
static int least_change_factor_sparse(mech_system *sys, double t, int *fast)
{
    const sparse_map *gen = sys->sp_gen;
    int rc;
    if (*fast) {
        fill_sparse(sys, sys->sp_fast, sys->minv_aug);
        rc = sparse_factor(sys->sp_fast->lu, SINGULAR_TOL);
        if (rc == SPARSE_NOMEM) return sparse_nomem(sys, t);
        if (rc == SPARSE_OK) return 0;
        *fast = 0;
    }
    fill_sparse(sys, gen, sys->minv);
    double *A = sparse_values(gen->lu);
    for (int q = 0; q < gen->nzent; q++) {
        const int *ze = gen->zent + 4 * q;
        A[ze[2]] = A[ze[3]] = -zcoef(sys, ze[0], ze[1]);
    }
    rc = sparse_factor(gen->lu, SINGULAR_TOL);
    if (rc == SPARSE_NOMEM) return sparse_nomem(sys, t);
    if (rc == SPARSE_OK) return 0;
    /* the dense LU's order names the column (sol is scratch here) */
    int bad = sparse_first_singular(gen->lu, SINGULAR_TOL, sys->sol);
    if (bad == -2) return sparse_nomem(sys, t);
    return least_change_singular(sys, t, bad);
}

int dynamics_least_change(mech_system *sys, double t, int factor, int *fast, const double *b,
                          double *du)
{
    const int nr = sys->nrows, nz = sys->nmassless;
    const int sparse = sys->solver_used == MECH_SOLVER_SPARSE;
    double *K = sys->K, *sol = sys->sol;
    if (factor) {
        sys->factored = -1;
        *fast = sys->fast;
        if (sparse) {
            if (least_change_factor_sparse(sys, t, fast) != 0) return -1;
        } else {
            /* as solve_fast: the rows on a massless coordinate alone give it inertia */
            if (*fast) {
                fill_schur(sys, sys->minv_aug, nr);
                if (chol_factor(K, nr, SINGULAR_TOL) >= 0) *fast = 0;
            }
            if (!*fast) { /* as solve_general: the massless coordinates move freely */
                const int ns = nr + nz;
                fill_schur(sys, sys->minv, ns);
                for (int r = 0; r < nr; r++)
                    for (int z = 0; z < nz; z++)
                        K[r * ns + nr + z] = K[(nr + z) * ns + r] = -zcoef(sys, r, z);
                int bad = lu_factor(K, ns, sys->piv, SINGULAR_TOL);
                if (bad >= 0) return least_change_singular(sys, t, bad);
            }
        }
        sys->factored = *fast;
    }
    memcpy(sol, b, sizeof(double) * (size_t)nr);
    if (!*fast)
        for (int z = 0; z < nz; z++) sol[nr + z] = 0;
    if (sparse)
        sparse_solve((*fast ? sys->sp_fast : sys->sp_gen)->lu, sol);
    else if (*fast)
        chol_solve(K, nr, sol);
    else
        lu_solve(K, nr + nz, sys->piv, sol);
    const double *minv = *fast ? sys->minv_aug : sys->minv;
    memset(du, 0, sizeof(double) * (size_t)sys->nu);
    for (int r = 0; r < nr; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *cr = &sys->cr[r];
        least_change_block(sys, minv, ri->blk_a, r, 0, cr->ja, sol[r], du);
        least_change_block(sys, minv, ri->blk_b, r, 1, cr->jb, sol[r], du);
    }
    for (int z = 0; !*fast && z < nz; z++) du[sys->massless[z]] = sol[nr + z];
    return 0;
}

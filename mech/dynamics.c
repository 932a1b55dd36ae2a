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

/* Names the entity behind column c of the reduced matrix. */
static void describe_column(const mech_system *sys, int c, char *buf, size_t size)
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

/*
** The part of S = G M^-1 G^T from the blocks that are not diagonal (full or rigid: a spatial
** body's), body by body: M^-1 j of every row's entries on them once (in sys->mj), then
** j_r . (M^-1 j_c) for every two rows on a block; and sol = G M^-1 Q - rhs over all blocks.
*/
static void fill_schur_blocks(mech_system *sys, int ns)
{
    double *K = sys->K, *sol = sys->sol, *mj = sys->mj;
    const double *Q = sys->Q, *minv = sys->minv, *mfull = sys->minv_full;
    const mass_block *blocks = sys->blocks;
    for (int r = 0; r < sys->nrows; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *cr = &sys->cr[r];
        double *m = mj + (size_t)r * 2 * BODY_NU_MAX;
        row_minv(sys, ri->blk_a, cr->ja, m);
        row_minv(sys, ri->blk_b, cr->jb, m + BODY_NU_MAX);
    }
    for (int k = 0; k < sys->nblocks; k++) {
        const int *list = sys->blkrows + sys->blkrows_at[k];
        int nl = sys->blkrows_at[k + 1] - sys->blkrows_at[k], n = blocks[k].n;
        for (int i = 0; i < nl; i++) {
            int r = list[i] >> 1;
            const crow *cr = &sys->cr[r];
            const double *jr = list[i] & 1 ? cr->jb : cr->ja;
            for (int l = i; l < nl; l++) {
                int c = list[l] >> 1;
                const double *w = mj + (size_t)list[l] * BODY_NU_MAX;
                double sum;
                if (n == 6) { /* a spatial body: written out */
                    sum = jr[0] * w[0] + jr[1] * w[1] + jr[2] * w[2] + jr[3] * w[3] + jr[4] * w[4] +
                          jr[5] * w[5];
                } else {
                    sum = 0;
                    for (int e = 0; e < n; e++) sum += jr[e] * w[e];
                }
                K[r * ns + c] += sum;
                if (c != r) K[c * ns + r] += sum;
            }
        }
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

/* Fills the rows block of K (ns x ns) with S = G M^-1 G^T for the inverse mass blocks minv
** (diagonal ones; full and rigid ones in sys->minv_full, fill_schur_blocks), and
** sol[r] = (G M^-1 Q)_r - rhs_r. */
static void fill_schur(mech_system *sys, const double *minv, int ns)
{
    double *K = sys->K, *sol = sys->sol;
    const double *Q = sys->Q, *mfull = sys->minv_full;
    const mass_block *blocks = sys->blocks;
    memset(K, 0, sizeof(double) * (size_t)(ns * ns));
    for (int p = 0; p < sys->npairs; p++) {
        const kpair *kp = &sys->pairs[p];
        const rowinfo *ri = &sys->rows[kp->r];
        const crow *cr = &sys->cr[kp->r], *cc = &sys->cr[kp->c];
        double sum = 0;
        for (int m = 0; m < kp->nm; m++) {
            const double *jr = kp->s[m] ? cr->jb : cr->ja, *jc = kp->u[m] ? cc->jb : cc->ja;
            const mass_block *k = &blocks[kp->s[m] ? ri->blk_b : ri->blk_a];
            sum = mass_block_quad(k, minv, mfull, jr, jc, sum);
        }
        K[kp->r * ns + kp->c] = K[kp->c * ns + kp->r] = sum;
    }
    if (sys->blkrows_at[sys->nblocks] > 0) { /* rows on full or rigid blocks */
        fill_schur_blocks(sys, ns);
        return;
    }
    for (int r = 0; r < sys->nrows; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *cr = &sys->cr[r];
        double b = -sys->rhs[r];
        if (ri->blk_a >= 0) b = mass_block_dot(&blocks[ri->blk_a], minv, mfull, cr->ja, Q, b);
        if (ri->blk_b >= 0) b = mass_block_dot(&blocks[ri->blk_b], minv, mfull, cr->jb, Q, b);
        sol[r] = b;
    }
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

/*
** Fast solve, when every coordinate without inertia has a Lagrange row on it alone (the
** rotation row of a prismatic or fixed joint to the ground, or an angle driver): adding
** w a a^T for those rows (augmented Lagrangian, exact because A q'' = c) gives it the
** inertia w and keeps M diagonal, so S = A M~^-1 A^T is positive definite: Cholesky.
** Returns -1 when S is not positive definite (the general path then diagnoses).
*/
static int solve_fast(mech_system *sys)
{
    const int nr = sys->nrows, nz = sys->nmassless;
    double *Q = sys->Q;
    for (int z = 0; z < nz; z++)
        Q[sys->massless[z]] +=
            sys->massless_coef[z] * sys->massless_w[z] * sys->rhs[sys->massless_row[z]];
    fill_schur(sys, sys->minv_aug, nr);
    if (chol_factor(sys->K, nr, SINGULAR_TOL) >= 0) {
        for (int z = 0; z < nz; z++)
            Q[sys->massless[z]] -=
                sys->massless_coef[z] * sys->massless_w[z] * sys->rhs[sys->massless_row[z]];
        return -1;
    }
    chol_solve(sys->K, nr, sys->sol);
    accelerations(sys, sys->minv_aug);
    return 0;
}

/* General solve of the reduced system [S -A_z; -A_z^T 0] by LU with pivoting. */
static int solve_general(mech_system *sys, double t)
{
    const int nr = sys->nrows, nz = sys->nmassless, ns = nr + nz;
    double *K = sys->K, *sol = sys->sol;
    fill_schur(sys, sys->minv, ns);
    for (int r = 0; r < nr; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *cr = &sys->cr[r];
        for (int z = 0; z < nz; z++) {
            int zk = sys->massless_block[z], i = sys->massless[z] - sys->blocks[zk].at;
            double coef = (ri->blk_a == zk ? cr->ja[i] : 0) + (ri->blk_b == zk ? cr->jb[i] : 0);
            K[r * ns + nr + z] = K[(nr + z) * ns + r] = -coef;
        }
    }
    for (int z = 0; z < nz; z++) sol[nr + z] = -sys->Q[sys->massless[z]];
    int bad = lu_factor(K, ns, sys->piv, SINGULAR_TOL);
    if (bad >= 0) {
        char what[160];
        describe_column(sys, bad, what, sizeof what);
        mech_error_set(&sys->last_err, MECH_ERR_SINGULAR,
                       "the constraint equations are singular at t = %.9g near %s: the "
                       "mechanism is locked, redundant or in a singular position",
                       t, what);
        return -1;
    }
    lu_solve(K, ns, sys->piv, sol);
    accelerations(sys, sys->minv);
    for (int z = 0; z < nz; z++) sys->udot[sys->massless[z]] = sol[nr + z];
    return 0;
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
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->row >= 0) joint_eval(sys, j, q, v, &sys->cr[j->row]);
    }
    for (int i = 0; i < sys->ndrivers; i++) {
        driver *d = &sys->drivers[i];
        rc = driver_motion(sys, d, t);
        if (rc) {
            if (rc < 0 && sys->last_err.code == MECH_OK)
                mech_error_set(&sys->last_err, MECH_ERR_CALLBACK,
                               "driver '%s': its motion function failed at t = %.9g", d->name, t);
            return rc;
        }
        driver_eval(sys, d, q, v, &sys->cr[d->row]);
    }
    for (int r = 0; r < nr; r++) {
        const rowinfo *ri = &sys->rows[r];
        const crow *c = &sys->cr[r];
        double rate = row_rate(c, dofs_row(sys, ri), v);
        sys->rhs[r] = c->gamma - 2 * ri->alpha * rate - ri->beta * ri->beta * c->phi;
    }

    double *udot = sys->udot;
    if (ns == 0) {
        for (int k = 0; k < sys->nblocks; k++)
            mass_block_apply(&sys->blocks[k], sys->minv, sys->minv_full, Q, udot);
    } else if (!sys->fast || solve_fast(sys) != 0) {
        /* 1 like diagnose: a too long trial step can carry the bodies into a singular
        ** pose (a stiff contact throwing a body off); an adaptive integrator retries shorter,
        ** and the report stays as the reason if it cannot */
        if (solve_general(sys, t) != 0) return 1;
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

/* ---- the least change onto the constraints (project.c) ------------------------------------ */

/* du -= M^-1 j lam over block kb for the entries j of row r on its side `side`. */
static void least_change_block(const mech_system *sys, const double *minv, int kb, int r, int side,
                               const double *j, double lam, double *du)
{
    if (kb < 0) return;
    const mass_block *k = &sys->blocks[kb];
    if (k->full == MASS_DIAGONAL) {
        for (int i = 0; i < k->n; i++) du[k->at + i] -= minv[k->at + i] * j[i] * lam;
    } else { /* M^-1 j was kept by fill_schur_blocks */
        const double *w = sys->mj + ((size_t)r * 2 + (size_t)side) * BODY_NU_MAX;
        for (int i = 0; i < k->n; i++) du[k->at + i] -= w[i] * lam;
    }
}

int dynamics_least_change(mech_system *sys, double t, int factor, int *fast, const double *b,
                          double *du)
{
    const int nr = sys->nrows, nz = sys->nmassless;
    double *K = sys->K, *sol = sys->sol;
    if (factor) {
        *fast = sys->fast;
        if (*fast) { /* as solve_fast: the rows on a massless coordinate alone give it inertia */
            fill_schur(sys, sys->minv_aug, nr);
            if (chol_factor(K, nr, SINGULAR_TOL) >= 0) *fast = 0;
        }
        if (!*fast) { /* as solve_general: the massless coordinates move freely */
            const int ns = nr + nz;
            fill_schur(sys, sys->minv, ns);
            for (int r = 0; r < nr; r++) {
                const rowinfo *ri = &sys->rows[r];
                const crow *cr = &sys->cr[r];
                for (int z = 0; z < nz; z++) {
                    int zk = sys->massless_block[z], i = sys->massless[z] - sys->blocks[zk].at;
                    double coef =
                        (ri->blk_a == zk ? cr->ja[i] : 0) + (ri->blk_b == zk ? cr->jb[i] : 0);
                    K[r * ns + nr + z] = K[(nr + z) * ns + r] = -coef;
                }
            }
            int bad = lu_factor(K, ns, sys->piv, SINGULAR_TOL);
            if (bad >= 0) {
                char what[160];
                describe_column(sys, bad, what, sizeof what);
                mech_error_set(&sys->last_err, MECH_ERR_SINGULAR,
                               "projection: the constraint equations are singular at t = %.9g "
                               "near %s: the mechanism is locked, redundant or in a singular "
                               "position",
                               t, what);
                return -1;
            }
        }
    }
    memcpy(sol, b, sizeof(double) * (size_t)nr);
    if (*fast) {
        chol_solve(K, nr, sol);
    } else {
        for (int z = 0; z < nz; z++) sol[nr + z] = 0;
        lu_solve(K, nr + nz, sys->piv, sol);
    }
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

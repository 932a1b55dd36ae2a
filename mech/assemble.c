/* SPDX-License-Identifier: MIT */
/*
** Assembly: from the positions and velocities the user gave, find the nearest
** configuration where every joint equation holds (Lagrange and penalty joints, drivers
** at t = 0), then the nearest velocities that satisfy their rate equations.
**
** Positions: Gauss-Newton with minimum-norm corrections, dq = -A^T (A A^T)^-1 Phi.
** Velocities: v = v0 - A^T (A A^T)^-1 (A v0 + Phi_t).
** Before iterating, the rows of A are orthogonalized in order (modified Gram-Schmidt,
** twice): a row that adds nothing to the ones before it is redundant, and if it does
** not hold once the others do, the model is conflicting.  Both are reported by name, and
** so is a row that comes to depend on the others in the assembled configuration (a locked
** mechanism, a dead centre): the velocities are not determined there.
**
** An ideal start (mech_system_set_start) adds the equations of the joints with clearance
** as their ideal joints: the journals centred, the velocities those of the ideal mechanism.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "assemble.h"
#include "clearance.h"
#include "constraints.h"
#include "registry.h"
#include "spatial_body.h"

#define MAX_ITER      100
#define DEPENDENT_TOL 1e-8 /* a row whose new part is this small relative to it is redundant */
/* In the assembled configuration: Newton reaches a configuration where rows become dependent
** (links aligned) only to about the square root of its tolerance, so a row whose new part is
** below this is taken as dependent there; its velocities would be 1e5 times the drivers'. */
#define LOCKED_TOL 1e-5

typedef struct eqref {
    int kind, id, eq;
} eqref;

typedef struct work {
    int n, m;
    eqref *eqs;
    double *A; /* m x n */
    double *phi, *phit;
    double *G; /* m x m */
    double *w; /* m */
    int *piv;
    int *indep;    /* 1 for rows kept */
    int *indep0;   /* indep before the assembled configuration's check */
    double *basis; /* m x n orthonormalized rows */
    double *du;    /* n: a Newton step in velocity space */
} work;

static const char *eq_label(const mech_system *sys, const eqref *e, char *buf, size_t size)
{
    if (e->kind == MECH_KIND_DRIVER) {
        snprintf(buf, size, "driver '%s'", sys->drivers[e->id].name);
    } else {
        const joint *j = &sys->joints[e->id];
        snprintf(buf, size, "%s '%s' (%sequation %s)", j->jt->name, j->name,
                 j->enforce == MECH_CLEARANCE ? "with clearance, held ideal for the start; " : "",
                 j->jt->eq_names[e->eq]);
    }
    return buf;
}

/* Dense rows of every equation at (q, v), drivers at their current motion. */
static void evaluate(mech_system *sys, work *w, const double *q, const double *v)
{
    int n = w->n;
    memset(w->A, 0, sizeof(double) * (size_t)(w->m * n));
    for (int r = 0; r < w->m; r++) {
        const eqref *e = &w->eqs[r];
        crow rows[JOINT_NEQ_MAX];
        int a, b;
        if (e->kind == MECH_KIND_DRIVER) {
            driver *d = &sys->drivers[e->id];
            driver_eval(sys, d, q, v, rows);
            driver_bodies(sys, d, &a, &b);
        } else {
            joint held;
            clearance_ideal(sys, &sys->joints[e->id], q, &held);
            joint_eval(sys, &held, q, v, rows);
            a = held.a, b = held.b;
        }
        const crow *c = &rows[e->kind == MECH_KIND_DRIVER ? 0 : e->eq];
        int da = sys->bodies[a].u_at, db = sys->bodies[b].u_at;
        for (int k = 0; k < sys->bodies[a].nu && da >= 0; k++) w->A[r * n + da + k] += c->ja[k];
        for (int k = 0; k < sys->bodies[b].nu && db >= 0; k++) w->A[r * n + db + k] += c->jb[k];
        w->phi[r] = c->phi;
        w->phit[r] = c->phit;
    }
}

/*
** MECH_ERR_NUMERIC naming the first equation whose value, rate or Jacobian row is not
** finite, or so large that the squares of its row overflow (positions or anchors near the
** largest double): the orthogonalization and the Newton steps would read them as redundant
** or diverging.  `when` ends the message.
*/
static mech_status check_rows(const mech_system *sys, const work *w, const char *when,
                              mech_error *err)
{
    for (int r = 0; r < w->m; r++) {
        const double *a = w->A + (size_t)r * w->n;
        double norm = 0;
        for (int k = 0; k < w->n; k++) norm += a[k] * a[k];
        if (isfinite(norm) && isfinite(w->phi[r]) && isfinite(w->phit[r])) continue;
        char label[160];
        return mech_error_set(err, MECH_ERR_NUMERIC,
                              "assembly: %s is not finite %s (value %g, rate %g, Jacobian norm "
                              "%g): positions, anchors or the motion too large",
                              eq_label(sys, &w->eqs[r], label, sizeof label), when, w->phi[r],
                              w->phit[r], sqrt(norm));
    }
    return MECH_OK;
}

/* Marks rows that are combinations of earlier rows (to tol); returns how many. */
static int find_dependent(work *w, double tol)
{
    int n = w->n, nb = 0, dep = 0;
    for (int r = 0; r < w->m; r++) {
        double *u = w->basis + (size_t)nb * n;
        memcpy(u, w->A + (size_t)r * n, sizeof(double) * (size_t)n);
        double norm0 = 0;
        for (int k = 0; k < n; k++) norm0 += u[k] * u[k];
        norm0 = sqrt(norm0);
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < nb; i++) {
                const double *e = w->basis + (size_t)i * n;
                double p = 0;
                for (int k = 0; k < n; k++) p += e[k] * u[k];
                for (int k = 0; k < n; k++) u[k] -= p * e[k];
            }
        }
        double norm = 0;
        for (int k = 0; k < n; k++) norm += u[k] * u[k];
        norm = sqrt(norm);
        if (norm <= tol * norm0 || norm0 == 0) {
            w->indep[r] = 0;
            dep++;
            continue;
        }
        for (int k = 0; k < n; k++) u[k] /= norm;
        w->indep[r] = 1;
        nb++;
    }
    return dep;
}

/* Solves (A A^T) x = rhs over the independent rows; x is written in w->w.  Returns 0 if
** the matrix is singular. */
static int solve_normal(work *w, const double *rhs)
{
    int n = w->n, m = w->m, k = 0;
    int *idx = w->piv + m; /* piv has room for 2m: pivots first, then the row map */
    for (int r = 0; r < m; r++)
        if (w->indep[r]) idx[k++] = r;
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
            double s = 0;
            const double *ai = w->A + (size_t)idx[i] * n, *aj = w->A + (size_t)idx[j] * n;
            for (int c = 0; c < n; c++) s += ai[c] * aj[c];
            w->G[i * k + j] = s;
        }
        w->w[i] = rhs[idx[i]];
    }
    if (lu_factor(w->G, k, w->piv, 1e-14) >= 0) return 0;
    lu_solve(w->G, k, w->piv, w->w);
    /* spread back to row positions */
    for (int i = k - 1; i >= 0; i--) {
        double x = w->w[i];
        w->w[i] = 0;
        w->w[idx[i]] = x;
    }
    for (int r = 0; r < m; r++)
        if (!w->indep[r]) w->w[r] = 0;
    return 1;
}

static double length_scale(const mech_system *sys, const double *q)
{
    double L = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        int d = sys->bodies[b].q_at;
        L = fmax(L, fmax(fabs(q[d]), fabs(q[d + 1])));
        if (sys->bodies[b].nq == SPATIAL_NQ) L = fmax(L, fabs(q[d + 2])); /* its z */
    }
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        L = fmax(L, fmax(hypot(j->pa[0], j->pa[1]), hypot(j->pb[0], j->pb[1])));
        L = fmax(L, fmax(fabs(j->pa[2]), fabs(j->pb[2]))); /* 0 in a planar system */
    }
    return L;
}

/* The equations joint j adds: its own, or with ideal those of its ideal joint. */
static int joint_rows(const joint *j, int ideal)
{
    return ideal && j->enforce == MECH_CLEARANCE ? j->jt->neq : j->neq;
}

mech_status assemble_state(mech_system *sys, double t, double *y, int ideal, mech_error *err)
{
    int n = sys->nu, m = sys->ndrivers; /* the Jacobian's columns: the velocities */
    for (int i = 0; i < sys->njoints; i++) m += joint_rows(&sys->joints[i], ideal);
    if (m == 0 || n == 0) return MECH_OK;

    work w;
    memset(&w, 0, sizeof w);
    w.n = n;
    w.m = m;
    w.eqs = mech_calloc((size_t)m, sizeof(eqref));
    w.A = mech_calloc((size_t)m * n, sizeof(double));
    w.basis = mech_calloc((size_t)m * n, sizeof(double));
    w.phi = mech_calloc((size_t)m, sizeof(double));
    w.phit = mech_calloc((size_t)m, sizeof(double));
    w.G = mech_calloc((size_t)m * m, sizeof(double));
    w.w = mech_calloc((size_t)m, sizeof(double));
    w.piv = mech_calloc((size_t)(2 * m), sizeof(int));
    w.indep = mech_calloc((size_t)m, sizeof(int));
    w.indep0 = mech_calloc((size_t)m, sizeof(int));
    w.du = mech_calloc((size_t)n, sizeof(double));
    mech_status st = MECH_OK;
    char label[160];
    if (!w.eqs || !w.A || !w.basis || !w.phi || !w.phit || !w.G || !w.w || !w.piv || !w.indep ||
        !w.indep0 || !w.du) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "assembly: out of memory");
        goto done;
    }
    int r = 0;
    for (int i = 0; i < sys->njoints; i++)
        for (int e = 0; e < joint_rows(&sys->joints[i], ideal); e++)
            w.eqs[r++] = (eqref){MECH_KIND_JOINT, i, e};
    for (int i = 0; i < sys->ndrivers; i++) {
        w.eqs[r++] = (eqref){MECH_KIND_DRIVER, i, 0};
        if (driver_motion(sys, &sys->drivers[i], t) != 0) {
            st = mech_error_set(err, MECH_ERR_CALLBACK,
                                "assembly: the motion function of driver '%s' failed at t = %g",
                                sys->drivers[i].name, t);
            goto done;
        }
    }

    double *q = y, *v = y + sys->nq;
    evaluate(sys, &w, q, v);
    if ((st = check_rows(sys, &w, "at the start", err))) goto done;
    int ndep = find_dependent(&w, DEPENDENT_TOL);
    double tol = 1e-12 * (1 + length_scale(sys, q));

    /* positions */
    int converged = 0;
    for (int it = 0; it <= MAX_ITER; it++) {
        evaluate(sys, &w, q, v);
        if ((st = check_rows(sys, &w, "while assembling", err))) goto done;
        double worst = 0;
        for (int i = 0; i < m; i++)
            if (w.indep[i]) worst = fmax(worst, fabs(w.phi[i]));
        if (!(worst > tol)) {
            converged = isfinite(worst);
            break;
        }
        if (it == MAX_ITER || !solve_normal(&w, w.phi)) break;
        /* the correction is in velocity space: the dimension moves the positions by it
        ** (q' = u: as it is; a spatial body turns by its rotation part) */
        for (int c = 0; c < n; c++) {
            double s = 0;
            for (int i = 0; i < m; i++) s += w.A[i * n + c] * w.w[i];
            w.du[c] = -s;
        }
        sys->dops->displace(sys, q, w.du);
    }
    if (!converged) {
        char msg[MECH_ERROR_MSG_SIZE];
        size_t used = (size_t)snprintf(
            msg, sizeof msg, "assembly failed: the joints cannot all hold; still violated:");
        /* the four largest violations, largest first */
        for (int listed = 0; listed < 4; listed++) {
            int worst = -1;
            for (int i = 0; i < m; i++)
                if (w.indep[i] == 1 && fabs(w.phi[i]) > tol &&
                    (worst < 0 || fabs(w.phi[i]) > fabs(w.phi[worst])))
                    worst = i;
            if (worst < 0) break;
            if (used < sizeof msg)
                used += (size_t)snprintf(
                    msg + used, sizeof msg - used, "%s %s by %.3g", listed ? "," : "",
                    eq_label(sys, &w.eqs[worst], label, sizeof label), fabs(w.phi[worst]));
            w.indep[worst] = 2; /* listed */
        }
        if (ideal && used < sizeof msg)
            snprintf(msg + used, sizeof msg - used,
                     " (an ideal start: the joints with clearance held as ideal joints; the ideal "
                     "mechanism cannot be assembled here)");
        st = mech_error_set(err, MECH_ERR_CONVERGENCE, "%s", msg);
        goto done;
    }
    if (ndep > 0) {
        for (int i = 0; i < m; i++) {
            if (w.indep[i]) continue;
            /* a joint with clearance held ideal may repeat the others (two hinges of a door):
            ** harmless for the start as long as it holds */
            int held = w.eqs[i].kind == MECH_KIND_JOINT &&
                       sys->joints[w.eqs[i].id].enforce == MECH_CLEARANCE;
            if (held && fabs(w.phi[i]) <= 1e3 * tol) continue;
            eq_label(sys, &w.eqs[i], label, sizeof label);
            if (fabs(w.phi[i]) > 1e3 * tol)
                st = mech_error_set(err, MECH_ERR_SINGULAR,
                                    "%s conflicts with the joints and drivers before it: when they "
                                    "hold it is violated by %.3g%s",
                                    label, fabs(w.phi[i]),
                                    held ? " (an ideal start: the ideal mechanism cannot be "
                                           "assembled here)"
                                         : "");
            else
                st = mech_error_set(err, MECH_ERR_SINGULAR,
                                    "%s is redundant: the joints and drivers before it already "
                                    "impose it; remove it or make the joint a penalty joint",
                                    label);
            goto done;
        }
    }

    /* in the assembled configuration a row may have come to depend on those before it: the
    ** mechanism is locked there (links aligned at a dead centre) and its velocities are not
    ** determined.  The positions' last evaluation was at this configuration. */
    memcpy(w.indep0, w.indep, sizeof(int) * (size_t)m);
    if (find_dependent(&w, LOCKED_TOL) > 0) {
        for (int i = 0; i < m; i++) {
            if (w.indep[i] || !w.indep0[i]) continue; /* independent, or dependent from the start */
            st = mech_error_set(err, MECH_ERR_SINGULAR,
                                "assembly: in the assembled configuration %s depends on the joints "
                                "and drivers before it: the mechanism is locked there (links "
                                "aligned, a dead centre) and its velocities are not determined%s",
                                eq_label(sys, &w.eqs[i], label, sizeof label),
                                ideal ? " (an ideal start: the joints with clearance held as "
                                        "ideal joints)"
                                      : "");
            goto done;
        }
    }

    /* velocities */
    for (int i = 0; i < m; i++) {
        double s = w.phit[i];
        for (int c = 0; c < n; c++) s += w.A[i * n + c] * v[c];
        w.phi[i] = s; /* reuse as the rate residual */
    }
    if (!solve_normal(&w, w.phi)) {
        st = mech_error_set(err, MECH_ERR_SINGULAR,
                            "assembly: the joints are singular in the assembled configuration");
        goto done;
    }
    for (int c = 0; c < n; c++) {
        double s = 0;
        for (int i = 0; i < m; i++) s += w.A[i * n + c] * w.w[i];
        v[c] -= s;
    }

done:
    mech_free(w.eqs);
    mech_free(w.A);
    mech_free(w.basis);
    mech_free(w.phi);
    mech_free(w.phit);
    mech_free(w.G);
    mech_free(w.w);
    mech_free(w.piv);
    mech_free(w.indep);
    mech_free(w.indep0);
    mech_free(w.du);
    return st;
}

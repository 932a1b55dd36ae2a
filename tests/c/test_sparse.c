/* SPDX-License-Identifier: MIT */
/*
** The sparse constrained solve (mech/sparse.c through dynamics.c) against the dense one: the
** same accelerations and multipliers on planar and spatial chains, the slider-cranks, a chain
** whose links have no inertia (the general solve) at several states; the automatic choice;
** singular matrices give the same error; whole simulations agree; nothing is allocated while
** stepping, and KLU's memory is libmech's.  The sparse LU alone (mech/sparse.h): its pattern,
** the pivots it keeps and those it chooses again, the column it names.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/SuiteSparse_config.h>

#include "mech.h"
#include "models.h"
#include "smodels.h"
#include "tap.h"

#include "linalg.h"   /* white box: the dense LU, to compare */
#include "registry.h" /* the multipliers (sys->sol) */
#include "sparse.h"   /* the sparse LU itself */

#define TOL 1e-12

static mech_system *finalized(mech_system *sys, mech_solver solver)
{
    mech_error err;
    if (sys == NULL) return NULL;
    if (mech_system_set_solver(sys, solver, &err) || mech_system_finalize(sys, &err)) {
        diag("cannot finalize: %s", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* A reproducible number in [-1, 1). */
static double noise(unsigned *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return (double)(*seed >> 8) / (double)(1u << 23) - 1;
}

/* max |a - b| / max |b| over n values (0 when b is all zero and a equals it). */
static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return s > 0 ? d / s : d;
}

/*
** Evaluates the dense and the sparse system (the same model) at their assembled state and
** at nstates - 1 states about it (positions moved by up to dq, velocities by up to dv: the
** sparse solve reuses its first pivots there) and checks that the accelerations and the
** multipliers agree to TOL.
*/
static void agree(const char *what, mech_system *dense, mech_system *sparse, double dq, double dv,
                  int nstates)
{
    char name[200];
    if (dense == NULL || sparse == NULL) {
        snprintf(name, sizeof name, "%s: dense and sparse agree (not built)", what);
        ok(0, name);
        mech_system_destroy(dense);
        mech_system_destroy(sparse);
        return;
    }
    int n = mech_system_nstate(dense), nq = dense->nq, nu = dense->nu, nr = dense->nrows;
    double *y0 = calloc((size_t)n, sizeof(double)), *y = calloc((size_t)n, sizeof(double));
    double *yd = calloc((size_t)n, sizeof(double)), *ys = calloc((size_t)n, sizeof(double));
    double *lam = calloc((size_t)nr + 1, sizeof(double));
    mech_error err;
    mech_system_initial_state(dense, y0, &err);
    unsigned seed = 12345;
    double worst_acc = 0, worst_lam = 0;
    int rcs = 0;
    for (int s = 0; s < nstates; s++) {
        memcpy(y, y0, sizeof(double) * (size_t)n);
        if (s > 0)
            for (int i = 0; i < nq + nu; i++) y[i] += (i < nq ? dq : dv) * noise(&seed);
        rcs |= mech_system_rhs(dense, 0.01 * s, y, yd);
        memcpy(lam, dense->sol, sizeof(double) * (size_t)nr);
        rcs |= mech_system_rhs(sparse, 0.01 * s, y, ys);
        worst_acc = fmax(worst_acc, rel_diff(ys + nq, yd + nq, nu));
        worst_lam = fmax(worst_lam, rel_diff(sparse->sol, lam, nr));
    }
    snprintf(name, sizeof name, "%s: the sparse solver is used", what);
    ok(mech_system_solver(sparse) == MECH_SOLVER_SPARSE &&
           mech_system_solver(dense) == MECH_SOLVER_DENSE,
       name);
    snprintf(name, sizeof name, "%s: accelerations agree to %g at %d states", what, TOL, nstates);
    if (!ok(rcs == 0 && worst_acc <= TOL, name)) diag("worst %.3g, rc %d", worst_acc, rcs);
    snprintf(name, sizeof name, "%s: multipliers agree to %g", what, TOL);
    if (!ok(worst_lam <= TOL, name)) diag("worst %.3g", worst_lam);
    diag("%s: %d equations; largest relative differences %.2g (accelerations), %.2g "
         "(multipliers)",
         what, nr + dense->nmassless, worst_acc, worst_lam);
    free(y0), free(y), free(yd), free(ys), free(lam);
    mech_system_destroy(dense);
    mech_system_destroy(sparse);
}

/* The solver AUTO chooses for model sys (destroyed). */
static mech_solver auto_choice(mech_system *sys)
{
    sys = finalized(sys, MECH_SOLVER_AUTO);
    mech_solver s = sys ? mech_system_solver(sys) : MECH_SOLVER_AUTO;
    mech_system_destroy(sys);
    return s;
}

/* The planar chain of n links closed by a joint "close" from its last link's end to the
** ground where that end starts (the links' angles as model_chain gives them). */
static mech_system *closed_chain(int n, mech_error *err)
{
    mech_system *sys = model_chain(n, err);
    if (sys == NULL) return NULL;
    double end[2] = {0, 0};
    for (int i = 1; i <= n; i++) {
        double th = -0.3 + 0.4 * sin(0.7 * i);
        end[0] += 0.1 * cos(th), end[1] += 0.1 * sin(th);
    }
    mech_joint_def j = mech_joint_default();
    j.name = "close", j.body_a = MECH_GROUND, j.body_b = n, j.pb[0] = 0.05;
    j.pa[0] = end[0], j.pa[1] = end[1];
    if (mech_joint_add(sys, &j, NULL, err)) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/*
** A chain closed to the ground, evaluated straight: its loop's equations are dependent (a
** dead point).  Both solvers must say so alike, and ask for a shorter step (1).
*/
static void singular_pose(void)
{
    mech_error err;
    char msg[2][MECH_ERROR_MSG_SIZE];
    int rc[2];
    for (int k = 0; k < 2; k++) {
        mech_system *sys =
            finalized(closed_chain(15, &err), k ? MECH_SOLVER_SPARSE : MECH_SOLVER_DENSE);
        if (sys == NULL) {
            ok(0, "the closed chain finalizes");
            return;
        }
        int n = mech_system_nstate(sys);
        double *y = calloc((size_t)n, sizeof(double)), *yd = calloc((size_t)n, sizeof(double));
        for (int i = 0; i < 15; i++) y[3 * i] = (i + 0.5) * 0.1; /* straight along x, at rest */
        rc[k] = mech_system_rhs(sys, 0.5, y, yd);
        snprintf(msg[k], sizeof msg[k], "%s", mech_system_last_error(sys)->msg);
        free(y), free(yd);
        mech_system_destroy(sys);
    }
    ok(rc[0] == 1 && rc[1] == 1, "a dead point: both solvers ask for a shorter step (1)");
    if (!ok(strcmp(msg[0], msg[1]) == 0 && strstr(msg[0], "singular at t = 0.5 near revolute"),
            "... with the same message, naming the same joint"))
        diag("dense: %s\nsparse: %s", msg[0], msg[1]);
    else
        diag("%s", msg[1]);
}

/* A redundant joint (a second j5 on the chain): finalize fails alike on both solvers. */
static void redundant(const char *what, mech_system *(*make)(int, mech_error *), int n, int spatial)
{
    mech_error err[2];
    mech_status st[2];
    for (int k = 0; k < 2; k++) {
        mech_system *sys = make(n, &err[k]);
        if (sys == NULL) {
            ok(0, "the model builds");
            return;
        }
        mech_system_set_assembly(sys, 0); /* the solve finds it, not the assembly */
        if (spatial) {
            mech_sjoint_def j = mech_sjoint_default();
            j.name = "again", j.type = MECH_REVOLUTE, j.body_a = 4, j.body_b = 5, j.pb[0] = -0.05;
            j.pa[0] = 0.05;
            static const double Wy[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
            memcpy(j.frame_a, Wy, sizeof Wy);
            memcpy(j.frame_b, Wy, sizeof Wy);
            mech_sjoint_add(sys, &j, NULL, &err[k]);
        } else {
            mech_joint_def j = mech_joint_default();
            j.name = "again", j.body_a = 4, j.body_b = 5, j.pa[0] = 0.05, j.pb[0] = -0.05;
            mech_joint_add(sys, &j, NULL, &err[k]);
        }
        mech_system_set_solver(sys, k ? MECH_SOLVER_SPARSE : MECH_SOLVER_DENSE, &err[k]);
        st[k] = mech_system_finalize(sys, &err[k]);
        mech_system_destroy(sys);
    }
    char name[200];
    snprintf(name, sizeof name, "%s with a redundant joint: singular on both solvers", what);
    ok(st[0] == MECH_ERR_SINGULAR && st[1] == MECH_ERR_SINGULAR, name);
    snprintf(name, sizeof name, "%s: the same message", what);
    if (!ok(strcmp(err[0].msg, err[1].msg) == 0 && strstr(err[0].msg, "'again'"), name))
        diag("dense: %s\nsparse: %s", err[0].msg, err[1].msg);
}

static mech_system *chain_massless(int n, mech_error *err)
{
    return model_chain_massless(n, 1, err);
}

static mech_system *schain(int n, mech_error *err)
{
    return smodel_chain(n, 0, err);
}

/* Allocations of one run of the planar chain of 20 links on the sparse solver to t_end. */
static long allocations_for(double t_end, mech_method method)
{
    mech_error err;
    mech_system *sys = finalized(model_chain(20, &err), MECH_SOLVER_SPARSE);
    if (sys == NULL) return -1;
    static const char *const ch[] = {"link20.x", "link20.ay", "j1.fx", "system.energy"};
    long used = model_run_allocations(sys, method, 1e-4, t_end, ch, 4, &err);
    if (used < 0) diag("simulate failed: %s", err.msg);
    mech_system_destroy(sys);
    return used;
}

/* The largest difference between two runs' channel k, relative to its largest value. */
static double run_diff(const mech_run *a, const mech_run *b, int k)
{
    if (mech_run_rows(a) != mech_run_rows(b)) return INFINITY;
    return rel_diff(mech_run_column(a, k), mech_run_column(b, k), (int)mech_run_rows(a));
}

/*
** Whole runs of the 30-link chain, dense and sparse, agree to tol: to rounding with fixed steps;
** an adaptive step's error estimate is a difference of two solutions and feels the rounding,
** so its step sizes, and the results within the integration's tolerance, differ a little.
*/
static void whole_runs(mech_method method, int fixed, double tol, const char *what)
{
    static const char *const ch[] = {"link30.x", "link30.y", "link30.ay",
                                     "j1.fx",    "j15.fy",   "system.kinetic"};
    mech_run *run[2] = {NULL, NULL};
    mech_error err;
    for (int k = 0; k < 2; k++) {
        mech_system *sys =
            finalized(model_chain(30, &err), k ? MECH_SOLVER_SPARSE : MECH_SOLVER_DENSE);
        mech_sim_options o = mech_sim_default_options();
        o.integ.method = method;
        o.integ.fixed = fixed;
        o.integ.h = 1e-4;
        o.integ.rtol = 1e-8;
        o.integ.atol = 1e-10;
        o.t_end = 0.2;
        o.report = 1e-3;
        o.channels = ch;
        o.nchannels = 6;
        if (sys == NULL || mech_simulate(sys, &o, &run[k], &err) != MECH_OK)
            diag("run failed: %s", sys ? err.msg : "no model");
        mech_system_destroy(sys);
    }
    double worst = run[0] && run[1] ? 0 : INFINITY;
    for (int c = 0; c < 6 && run[0] && run[1]; c++)
        worst = fmax(worst, run_diff(run[0], run[1], c));
    char name[160];
    snprintf(name, sizeof name, "%s: 0.2 s of the 30-link chain, sparse as dense to %g", what, tol);
    if (!ok(worst <= tol, name))
        diag("largest relative difference %.3g", worst);
    else
        diag("%s: largest relative difference %.2g", what, worst);
    mech_run_free(run[0]);
    mech_run_free(run[1]);
}

/* The 3 x 3 matrix a (row-major, every entry in the pattern) into s's values. */
static void set3(sparse_lu *s, const int *slot, const double a[9])
{
    double *v = sparse_values(s);
    for (int k = 0; k < 9; k++) v[slot[k]] = a[k];
}

/* Solves a x = b by s and checks x against want; the allocations it made in *allocs. */
static int solves3(sparse_lu *s, const int *slot, const double a[9], const double want[3],
                   long *allocs)
{
    double b[3];
    for (int i = 0; i < 3; i++)
        b[i] = a[3 * i] * want[0] + a[3 * i + 1] * want[1] + a[3 * i + 2] * want[2];
    set3(s, slot, a);
    long before = mech_alloc_count();
    int rc = sparse_factor(s, 1e-13);
    *allocs = mech_alloc_count() - before;
    if (rc != SPARSE_OK) return 0;
    sparse_solve(s, b);
    return fabs(b[0] - want[0]) + fabs(b[1] - want[1]) + fabs(b[2] - want[2]) < 1e-12;
}

static void unit(void)
{
    /* every entry of a 3 x 3, row by row, the diagonal given twice */
    int row[12], col[12], slot[12];
    for (int k = 0; k < 9; k++) row[k] = k / 3, col[k] = k % 3;
    for (int k = 9; k < 12; k++) row[k] = col[k] = k - 9;
    sparse_lu *s = sparse_create(3, 12, row, col, slot);
    ok(s && sparse_nnz(s) == 9 && sparse_order(s) == 3, "a pattern: duplicates stored once");
    if (s == NULL) return;
    ok(slot[9] == slot[0] && slot[10] == slot[4] && slot[11] == slot[8] && slot[1] == 3 &&
           slot[3] == 1,
       "... each entry told its slot (compressed columns)");
    ok(sparse_analyze(s) == 0, "analysed");
    const double x[3] = {1, -2, 0.5};
    const double a1[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
    const double a2[9] = {4.5, 1.2, 0, 1.2, 2.5, 0.8, 0, 0.8, 2.2};
    const double a3[9] = {1e-7, 1, 0, 1, 3, 1, 0, 1, 2}; /* the first pivot nearly vanishes */
    const double a4[9] = {0, 1, 0, 1, 3, 1, 0, 1, 2};    /* ... and vanishes */
    long n1, n2, n3, n4;
    ok(solves3(s, slot, a1, x, &n1) && n1 > 0, "the first factorization chooses its pivots");
    ok(solves3(s, slot, a2, x, &n2) && n2 == 0, "new values: the pivots kept, nothing allocated");
    ok(solves3(s, slot, a3, x, &n3) && n3 > 0,
       "a pivot a million times smaller than before: chosen afresh, solved");
    ok(solves3(s, slot, a1, x, &n1), "back: solved");
    sparse_lu *s2 = sparse_create(3, 12, row, col, slot);
    ok(s2 && sparse_analyze(s2) == 0 && solves3(s2, slot, a1, x, &n1) &&
           solves3(s2, slot, a4, x, &n4) && n4 > 0,
       "a zero pivot on the kept order: chosen afresh, solved");
    ok(s2 && solves3(s2, slot, a2, x, &n2), "and back again");
    sparse_free(s2);

    /* as BDF uses it (integ_bdf.c): rows scaled, the identity first to size the factors and
    ** its pivot ratio forgotten; then matrices nearly singular at every factorization (a pivot
    ** ratio of 1e-12, below any fixed bound such as SUNDIALS' 3.7e-11) keep their pivots while
    ** the ratio holds against its best */
    const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double ill1[9] = {1, 1, 0, 1, 1 + 1e-12, 0, 0, 0, 1};
    const double ill2[9] = {1, 1, 0, 1, 1 + 1.5e-12, 0, 0, 0, 1};
    for (int forget = 0; forget < 2; forget++) {
        sparse_lu *s3 = sparse_create(3, 12, row, col, slot);
        if (s3 == NULL) break;
        sparse_scale_rows(s3);
        long fresh[4] = {0}, kept[4] = {0};
        int rc[3] = {sparse_analyze(s3), -1, -1};
        const double *a[3] = {eye, ill1, ill2};
        for (int k = 0; k < 3 && rc[0] == 0; k++) {
            set3(s3, slot, a[k]);
            rc[k] = sparse_factor(s3, 1e-14);
            if (k == 0 && forget) sparse_forget_ratio(s3);
            sparse_counts(s3, &fresh[k], &kept[k]);
        }
        if (forget)
            ok(rc[0] == SPARSE_OK && rc[1] == SPARSE_OK && rc[2] == SPARSE_OK && fresh[2] == 1 &&
                   kept[2] == 2,
               "scaled rows, the identity's ratio forgotten: nearly singular matrices refactored "
               "with its pivots (1 fresh factorization, 2 kept)");
        else
            ok(rc[0] == SPARSE_OK && rc[1] == SPARSE_OK && rc[2] == SPARSE_OK && fresh[1] == 2 &&
                   kept[1] == 0 && fresh[2] == 2 && kept[2] == 1,
               "the identity's ratio kept: the first of them chooses its pivots afresh, the "
               "next keeps them");
        sparse_free(s3);
    }

    /* the column the dense LU names */
    const double sing[9] = {1, 2, 0, 2, 4, 0, 0, 0, 1};
    set3(s, slot, sing);
    ok(sparse_factor(s, 1e-13) == SPARSE_SMALL, "a singular matrix: SPARSE_SMALL");
    double K[9], b[3] = {1, 1, 1};
    int piv[3];
    memcpy(K, sing, sizeof K);
    int dense_bad = lu_factor(K, 3, piv, 1e-13);
    ok(sparse_first_singular(s, 1e-13, b) == 1 && dense_bad == 1,
       "its first dependent column, as the dense LU finds it (1)");
    set3(s, slot, a4);
    b[0] = a4[1] * x[1], b[1] = x[0] + 3 * x[1] + x[2], b[2] = x[1] + 2 * x[2];
    ok(sparse_first_singular(s, 1e-13, b) == -1 &&
           fabs(b[0] - x[0]) + fabs(b[1] - x[1]) + fabs(b[2] - x[2]) < 1e-12,
       "a regular one: no column, solved in the dense LU's order");
    sparse_free(s);
}

int main(void)
{
    mech_error err;
    double w = 5000 * 2 * 3.14159265358979 / 60;
    unit();

    /* the same numbers */
    agree("planar chain of 100 links", finalized(model_chain(100, &err), MECH_SOLVER_DENSE),
          finalized(model_chain(100, &err), MECH_SOLVER_SPARSE), 1e-3, 0.5, 5);
    agree("planar chain of 30 links without inertia on every second one (general solve)",
          finalized(model_chain_massless(30, 1, &err), MECH_SOLVER_DENSE),
          finalized(model_chain_massless(30, 1, &err), MECH_SOLVER_SPARSE), 1e-3, 0.5, 5);
    agree("planar slider-crank (a slider without inertia: fast solve)",
          finalized(model_slider_crank(w, &err), MECH_SOLVER_DENSE),
          finalized(model_slider_crank(w, &err), MECH_SOLVER_SPARSE), 1e-4, 1, 5);
    agree("spatial chain of 40 links (revolute joints, rigid mass blocks)",
          finalized(smodel_chain(40, 0, &err), MECH_SOLVER_DENSE),
          finalized(smodel_chain(40, 0, &err), MECH_SOLVER_SPARSE), 1e-3, 0.5, 5);
    agree("spatial chain of 30 links (spherical joints)",
          finalized(smodel_chain(30, 1, &err), MECH_SOLVER_DENSE),
          finalized(smodel_chain(30, 1, &err), MECH_SOLVER_SPARSE), 1e-3, 0.5, 5);
    agree("spatial slider-crank (driven)",
          finalized(smodel_slider_crank(-2 * 3.14159265358979, 1, &err), MECH_SOLVER_DENSE),
          finalized(smodel_slider_crank(-2 * 3.14159265358979, 1, &err), MECH_SOLVER_SPARSE), 1e-4,
          1, 5);

    /* the choice */
    mech_system *sys = model_chain(100, &err);
    ok(mech_system_solver(sys) == MECH_SOLVER_AUTO, "before finalize: the solver set (auto)");
    ok(mech_system_set_solver(sys, (mech_solver)7, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "unknown solver 7"),
       "an unknown solver is refused");
    mech_system_destroy(sys);
    ok(auto_choice(model_chain(100, &err)) == MECH_SOLVER_SPARSE,
       "auto: sparse for a chain of 100 links");
    ok(auto_choice(model_chain(11, &err)) == MECH_SOLVER_DENSE,
       "auto: dense for a chain of 11 links (22 equations)");
    ok(auto_choice(model_chain(12, &err)) == MECH_SOLVER_SPARSE,
       "auto: sparse for a chain of 12 links (24 equations)");
    ok(auto_choice(smodel_chain(5, 0, &err)) == MECH_SOLVER_DENSE,
       "auto: dense for a spatial chain of 5 links (25 equations, 52 % of the entries)");
    ok(auto_choice(smodel_chain(6, 0, &err)) == MECH_SOLVER_SPARSE,
       "auto: sparse for a spatial chain of 6 links (30 equations, 44 % of the entries)");
    ok(auto_choice(model_slider_crank(w, &err)) == MECH_SOLVER_DENSE,
       "auto: dense for the slider-crank");
    ok(auto_choice(smodel_slider_crank(-2 * 3.14159265358979, 1, &err)) == MECH_SOLVER_DENSE,
       "auto: dense for the spatial slider-crank");
    ok(auto_choice(smodel_chain(100, 0, &err)) == MECH_SOLVER_SPARSE,
       "auto: sparse for a spatial chain of 100 links");
    ok(strcmp(mech_solver_name(MECH_SOLVER_SPARSE), "sparse") == 0 &&
           strcmp(mech_solver_name(MECH_SOLVER_DENSE), "dense") == 0 &&
           strcmp(mech_solver_name(MECH_SOLVER_AUTO), "auto") == 0 &&
           mech_solver_name((mech_solver)3) == NULL,
       "mech_solver_name");

    /* the same errors */
    singular_pose();
    redundant("planar chain of 20 links", model_chain, 20, 0);
    redundant("planar chain of 20 links without inertia on every second one", chain_massless, 20,
              0);
    redundant("spatial chain of 10 links", schain, 10, 1);

    /* whole runs */
    whole_runs(MECH_RK4, 0, 1e-12, "rk4, h = 1e-4 s");
    whole_runs(MECH_DOPRI5, 1, 1e-12, "dopri5, fixed h = 1e-4 s");
    whole_runs(MECH_DOPRI5, 0, 1e-8, "dopri5, rtol 1e-8");

    /* memory */
    long a1 = allocations_for(0.02, MECH_RK4), a2 = allocations_for(0.04, MECH_RK4);
    if (!ok(a1 >= 0 && a1 == a2, "sparse, RK4: allocations do not grow with the number of steps"))
        diag("%ld vs %ld allocations", a1, a2);
    a1 = allocations_for(0.02, MECH_DOPRI5), a2 = allocations_for(0.04, MECH_DOPRI5);
    if (!ok(a1 >= 0 && a1 == a2,
            "sparse, DOPRI5: allocations do not grow with the number of steps"))
        diag("%ld vs %ld allocations", a1, a2);
    a1 = allocations_for(0.02, MECH_BDF), a2 = allocations_for(0.04, MECH_BDF);
    if (!ok(a1 >= 0 && a1 == a2, "sparse, BDF: allocations do not grow with the number of steps"))
        diag("%ld vs %ld allocations", a1, a2);
    ok(SuiteSparse_config.malloc_func == mech_malloc && SuiteSparse_config.free_func == mech_free,
       "KLU allocates through libmech's allocator (counted)");

    return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
** BDF with the model's Jacobian structure, as an integrator's user sees it:
**   - its sparse Newton solver's memory is libmech's (mech_malloc: counted, and failing on
**     demand in a build with fault injection) even when it is the first sparse matrix of the
**     process (before, only the constrained solve's sparse LU pointed KLU at libmech's
**     allocator, and a process that had made none ran BDF's KLU on the C library's);
**   - the structure is copied when the integrator is made: the caller's may go at once.
** The flexible slider-crank of 64 elements (the sparse solver) and of 8 (the dense one).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/SuiteSparse_config.h>

#include "mech.h"
#include "model.h"
#include "models.h"
#include "tap.h"

static mech_system *fe_crank(int nx, int ny)
{
    mech_error err;
    int fe;
    mech_system *sys = model_fe_slider_crank(nx, ny, 0, &fe, &err);
    /* the dense constrained solve: no sparse matrix but BDF's */
    if (!sys || mech_system_set_solver(sys, MECH_SOLVER_DENSE, &err) ||
        mech_system_finalize(sys, &err)) {
        diag("cannot build the model: %s", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* The first thing the process does: a run with the sparse Newton solver. */
static void klu_allocator(void)
{
    mech_system *sys = fe_crank(8, 8);
    ok(SuiteSparse_config.malloc_func == malloc,
       "before the first run: KLU's allocator is still the C library's");
    mech_error err;
    static const char *const ch[] = {"crank.phi"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_BDF;
    o.integ.rtol = 1e-5;
    o.integ.atol = 1e-8;
    o.integ.max_order = 3;
    o.t_end = 0.02;
    o.report = 1e-2;
    o.channels = ch;
    o.nchannels = 1;
    mech_run *run = NULL;
    mech_status st = sys ? mech_simulate(sys, &o, &run, &err) : MECH_ERR_ARG;
    if (st) diag("simulate failed: %s", sys ? err.msg : "no model");
    mech_run_stats s = run ? mech_run_get_stats(run) : (mech_run_stats){0};
    if (!ok(st == MECH_OK && s.integ.newton == MECH_NEWTON_SPARSE &&
                s.integ.sparse_factorizations >= 1 && s.integ.sparse_refactorizations > 0,
            "64 elements: the sparse Newton solver, refactoring with kept pivots"))
        diag("%s, %ld fresh factorizations, %ld kept", mech_newton_name(s.integ.newton),
             s.integ.sparse_factorizations, s.integ.sparse_refactorizations);
    ok(SuiteSparse_config.malloc_func == mech_malloc &&
           SuiteSparse_config.calloc_func == mech_calloc &&
           SuiteSparse_config.realloc_func == mech_realloc &&
           SuiteSparse_config.free_func == mech_free,
       "after it: KLU allocates through libmech's allocator (counted, fault-injected)");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* What the caller's structure becomes once the integrator is made (a stack frame that is gone,
** a block of the heap used again): functions that fail the run and say they were called. */
static int trapped;

static int trap_linearize(void *ctx, double t, const double *y, double *gdot, double *lval)
{
    (void)ctx, (void)t, (void)y, (void)gdot, (void)lval;
    trapped = 1;
    return -1;
}

static int trap_rhs(void *ctx, double t, const double *y, double *ydot)
{
    (void)ctx, (void)t, (void)y, (void)ydot;
    trapped = 1;
    return -1;
}

/*
** BDF on the model's equations to t_end with its structure (newton as given), unless keep the
** caller's copy of the structure overwritten right after mech_integ_create with one whose
** pattern is empty and whose functions are traps; the final state into y (nstate values).
** 0 on success.
*/
static int run_structure(mech_system *sys, mech_newton newton, int keep, double t_end, double *y,
                         mech_integ_stats *st)
{
    mech_error err;
    mech_model m;
    if (system_model(sys, &m, &err)) {
        diag("system_model: %s", err.msg);
        return -1;
    }
    mech_integ_options io = mech_integ_default_options();
    io.method = MECH_BDF;
    io.rtol = 1e-6;
    io.atol = 1e-9;
    io.max_order = 3;
    io.newton = newton;
    model_integ_structure(&m, &io);
    mech_jac_structure js;
    mech_integ *ig = NULL;
    int rc = -1;
    if (m.ops->jacobian(m.ctx, &js, &err)) goto done;
    io.jacobian = &js;
    if (mech_integ_create(&ig, m.nstate, &io, m.ops->rhs, m.ctx, &err)) goto done;
    if (!keep) {
        static const int none[1] = {0};
        js = (mech_jac_structure){.colptr = none,
                                  .rowind = none,
                                  .lin_colptr = none,
                                  .lin_rowind = none,
                                  .linearize = trap_linearize,
                                  .remainder = trap_rhs,
                                  .ctx = NULL};
    }
    if (mech_integ_init(ig, 0, m.y0, &err)) goto done;
    while (mech_integ_time(ig) < t_end)
        if (mech_integ_step(ig, t_end, &err)) goto done;
    memcpy(y, mech_integ_state(ig), sizeof(double) * (size_t)m.nstate);
    *st = mech_integ_get_stats(ig);
    rc = 0;
done:
    if (rc) diag("BDF failed: %s", err.msg);
    mech_integ_free(ig);
    return rc;
}

static void structure_copied(int nx, int ny, mech_newton newton, const char *label)
{
    mech_system *sys = fe_crank(nx, ny);
    int n = sys ? mech_system_nstate(sys) : 0;
    double *a = calloc((size_t)n + 1, sizeof(double)), *b = calloc((size_t)n + 1, sizeof(double));
    mech_integ_stats sa = {0}, sb = {0};
    int ra = sys ? run_structure(sys, newton, 1, 0.05, a, &sa) : -1;
    int rb = sys ? run_structure(sys, newton, 0, 0.05, b, &sb) : -1;
    char name[200];
    snprintf(name, sizeof name,
             "%s: the caller's structure changed once the integrator is made, the same run (%ld "
             "steps, %d "
             "groups, %s)",
             label, sb.steps, sb.jac_groups, mech_newton_name(sb.newton));
    ok(ra == 0 && rb == 0 && !trapped && sa.steps == sb.steps && sa.jac_groups < n &&
           sb.newton == (newton == MECH_NEWTON_SPARSE ? MECH_NEWTON_SPARSE : MECH_NEWTON_DENSE) &&
           memcmp(a, b, sizeof(double) * (size_t)n) == 0,
       name);
    free(a);
    free(b);
    mech_system_destroy(sys);
}

int main(void)
{
    klu_allocator(); /* first: no sparse matrix made before */
    structure_copied(8, 8, MECH_NEWTON_SPARSE, "64 elements, sparse Newton");
    structure_copied(4, 2, MECH_NEWTON_DENSE, "8 elements, dense Newton");
    return done_testing();
}

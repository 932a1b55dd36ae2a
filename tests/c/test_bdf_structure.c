/* SPDX-License-Identifier: MIT */
/*
** BDF with the model's Jacobian structure, as an integrator's user sees it: its sparse Newton
** solver's memory is libmech's (mech_malloc: counted, and failing on demand in a build with
** fault injection) even when it is the first sparse matrix of the process (before, only the
** constrained solve's sparse LU pointed KLU at libmech's allocator, and a process that had made
** none ran BDF's KLU on the C library's).  The flexible slider-crank of 64 elements.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/SuiteSparse_config.h>

#include "mech.h"
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

int main(void)
{
    klu_allocator(); /* first: no sparse matrix made before */
    return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
** Benchmark: the constrained solve on long chains (tests/c/models.h, smodels.h: links on
** revolute joints hanging from the ground).  Prints the time per right-hand side of planar
** chains of 3, 10, 30 and 100 links and of spatial chains with the dense, the sparse and the
** automatic solver, the growth exponent between 30 and 100 links, and the ideal slider-crank's
** time (the automatic solver keeps it dense), beside the targets.  Each figure is the median
** of 7 timings.  With the argument "crossover" it also prints short chains and fans (joints
** sharing a hub: a dense block in the pattern) with both solvers: where the sparse one starts
** to win, by size and by the share of the matrix's entries in its pattern (the rule of
** MECH_SOLVER_AUTO, mech/dynamics.c).
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mech.h"
#include "models.h"
#include "smodels.h"

#define TRIALS 7

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of TRIALS timings of right-hand sides at slightly changing states [s], each
** timing about 40 ms long; -1 when it cannot run. */
static double rhs_time(mech_system *sys)
{
    int n = mech_system_nstate(sys);
    double *y = malloc(sizeof(double) * (size_t)n), *ydot = malloc(sizeof(double) * (size_t)n);
    mech_error err;
    if (y == NULL || ydot == NULL || mech_system_initial_state(sys, y, &err)) {
        free(y);
        free(ydot);
        return -1;
    }
    long reps = 1;
    for (;;) { /* a repetition count that takes about 40 ms */
        double t0 = now();
        for (long i = 0; i < reps; i++) mech_system_rhs(sys, 0, y, ydot);
        double took = now() - t0;
        if (took > 0.01 || reps > 100000000) {
            reps = (long)ceil((double)reps * 0.04 / (took > 0 ? took : 1e-9));
            break;
        }
        reps *= 4;
    }
    double t[TRIALS];
    for (int trial = 0; trial < TRIALS; trial++) {
        double t0 = now();
        for (long i = 0; i < reps; i++) {
            y[n / 2 - 1] += 1e-12; /* defeat any caching */
            mech_system_rhs(sys, 1e-9 * (double)i, y, ydot);
        }
        t[trial] = (now() - t0) / (double)reps;
    }
    qsort(t, TRIALS, sizeof t[0], cmp_double);
    free(y);
    free(ydot);
    return t[TRIALS / 2];
}

/* The median time per right-hand side [s] of model sys (destroyed) with the given solver; -1
** when it cannot be built or finalized.  *used receives the solver finalize chose. */
static double timed(mech_system *sys, mech_solver solver, mech_solver *used)
{
    mech_error err;
    double t = -1;
    if (sys && mech_system_set_solver(sys, solver, &err) == MECH_OK &&
        mech_system_finalize(sys, &err) == MECH_OK) {
        *used = mech_system_solver(sys);
        t = rhs_time(sys);
    } else {
        fprintf(stderr, "bench: %s\n", err.msg);
    }
    mech_system_destroy(sys);
    return t;
}

typedef mech_system *(*model_fn)(int n, mech_error *err);

/*
** A fan: a hub (a link pinned to the ground) with m branches, each a chain of c links pinned to
** the hub's end, and one more of `tail` links (none if 0), all 0.1 m long, hanging at angles
** spread over 1 rad: 2 + 2 (m c + tail) equations, of which the 2 m + 2 (+ 2) on the hub all
** share it.  From a chain (m = 1) to a star (c = 1) at the same size, the reduced matrix goes
** from sparse to dense.
*/
static mech_system *fan(int m, int c, int tail, mech_error *err)
{
    mech_system *sys;
    double g[2] = {0, -9.81}, L = 0.1, mass = 0.1;
    if (mech_system_create(&sys, g, err)) return NULL;
    mech_body_def b = mech_body_default();
    b.name = "hub", b.mass = mass, b.inertia = mass * L * L / 12, b.pos[0] = L / 2;
    int hub;
    mech_status st = mech_body_add(sys, &b, &hub, err);
    mech_joint_def j = mech_joint_default();
    j.body_a = MECH_GROUND, j.body_b = hub, j.pb[0] = -L / 2;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    for (int k = 0; k < m + (tail > 0) && !st; k++) {
        double th = -1.5 + (m > 1 ? (double)k / (m - 1) : 0.5), p[2] = {L, 0};
        for (int i = 0, prev = hub; i < (k < m ? c : tail) && !st; i++) {
            char name[32];
            snprintf(name, sizeof name, "b%d_%d", k, i);
            b = mech_body_default();
            b.name = name, b.mass = mass, b.inertia = mass * L * L / 12, b.angle = th;
            b.pos[0] = p[0] + L / 2 * cos(th), b.pos[1] = p[1] + L / 2 * sin(th);
            int id;
            st = mech_body_add(sys, &b, &id, err);
            j = mech_joint_default();
            j.body_a = prev, j.body_b = id, j.pa[0] = L / 2, j.pb[0] = -L / 2;
            if (!st) st = mech_joint_add(sys, &j, NULL, err);
            p[0] += L * cos(th), p[1] += L * sin(th), prev = id;
        }
    }
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* The figures of a fan with m branches of c links and a tail of `tail` links. */
static void fan_line(int m, int c, int tail)
{
    mech_error err;
    mech_solver used, chose = MECH_SOLVER_AUTO;
    int eq = 2 + 2 * (m * c + tail), mh = m + (tail > 0);
    double d = timed(fan(m, c, tail, &err), MECH_SOLVER_DENSE, &used);
    double s = timed(fan(m, c, tail, &err), MECH_SOLVER_SPARSE, &used);
    timed(fan(m, c, tail, &err), MECH_SOLVER_AUTO, &chose);
    /* the entries two joints' rows share a body in (2 x 2 each): the hub's joint and those on
    ** the hub all together, and each joint down a branch with itself and its neighbours */
    int down = m * (c - 1) + (tail > 0 ? tail - 1 : 0);
    double density = 4.0 * ((mh + 1) * (mh + 1) + 3 * down) / ((double)eq * eq);
    printf("  %4d %4d %4d %5d %8.2f %12.3f %12.3f  %s\n", m, c, tail, eq, density, d * 1e6, s * 1e6,
           mech_solver_name(chose));
}

/* Fans from a chain to a star. */
static void fans(void)
{
    printf("crossover: fans (m branches of c links and a tail on a hub)\n");
    printf("  %4s %4s %4s %5s %8s %12s %12s  %s\n", "m", "c", "tail", "eq", "density", "dense [us]",
           "sparse [us]", "auto chose");
    static const int cases[][3] = {{1, 20, 0},  {4, 5, 0},   {10, 2, 0}, {12, 1, 8},  {16, 1, 4},
                                   {20, 1, 0},  {1, 30, 0},  {10, 3, 0}, {12, 1, 18}, {16, 1, 14},
                                   {20, 1, 10}, {24, 1, 6},  {30, 1, 0}, {20, 3, 0},  {30, 2, 0},
                                   {40, 1, 20}, {45, 1, 15}, {60, 1, 0}};
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++)
        fan_line(cases[i][0], cases[i][1], cases[i][2]);
}

static mech_system *spatial_revolute(int n, mech_error *err)
{
    return smodel_chain(n, 0, err);
}

static mech_system *spatial_spherical(int n, mech_error *err)
{
    return smodel_chain(n, 1, err);
}

/* One line per size: dense, sparse, auto [us] and the solver auto chose; the figures at the
** last two sizes in out[0..1] (sparse) and dense in out[2..3]. */
static void table(const char *title, model_fn make, const int *sizes, int nsizes, double out[4])
{
    printf("%s\n", title);
    printf("  %6s %12s %12s %12s  %s\n", "links", "dense [us]", "sparse [us]", "auto [us]",
           "auto chose");
    for (int i = 0; i < nsizes; i++) {
        mech_error err;
        mech_solver used = MECH_SOLVER_AUTO, chose = MECH_SOLVER_AUTO;
        double d = timed(make(sizes[i], &err), MECH_SOLVER_DENSE, &used);
        double s = timed(make(sizes[i], &err), MECH_SOLVER_SPARSE, &used);
        double a = timed(make(sizes[i], &err), MECH_SOLVER_AUTO, &chose);
        printf("  %6d %12.3f %12.3f %12.3f  %s\n", sizes[i], d * 1e6, s * 1e6, a * 1e6,
               mech_solver_name(chose));
        if (i >= nsizes - 2) out[i - (nsizes - 2)] = s, out[2 + i - (nsizes - 2)] = d;
    }
}

int main(int argc, char **argv)
{
    static const int planar[] = {3, 10, 30, 100}, spatial[] = {10, 30, 100};
    double p[4], sr[4], ss[4];
    table("planar chains (n links, n revolute joints: 2n Lagrange equations)", model_chain, planar,
          4, p);
    double grow = log(p[1] / p[0]) / log(100.0 / 30.0),
           grow_dense = log(p[3] / p[2]) / log(100.0 / 30.0);
    printf("  growth between 30 and 100 links: sparse N^%.2f, dense N^%.2f\n", grow, grow_dense);
    table("spatial chains, revolute joints with alternating axes (5n equations)", spatial_revolute,
          spatial, 3, sr);
    table("spatial chains, spherical joints (3n equations)", spatial_spherical, spatial, 3, ss);

    mech_error err;
    mech_solver chose = MECH_SOLVER_AUTO;
    double sc =
        timed(model_slider_crank(5000 * 2 * 3.14159265358979 / 60, &err), MECH_SOLVER_AUTO, &chose);
    printf("ideal slider-crank (benchmark A), auto: %.3f us per right-hand side (%s)\n", sc * 1e6,
           mech_solver_name(chose));

    printf("targets:\n");
    printf("  chain of 100 links under 30 us per right-hand side: %.1f us  [%s]\n", p[1] * 1e6,
           p[1] < 30e-6 ? "met" : "NOT met");
    printf("  growth between N=30 and 100 at most N^1.2: N^%.2f  [%s]\n", grow,
           grow <= 1.2 ? "met" : "NOT met");
    printf("  the ideal slider-crank at most its current cost per right-hand side (about 0.7 "
           "us): %.3f us  [%s]\n",
           sc * 1e6, sc <= 0.7e-6 ? "met" : "NOT met");

    if (argc > 1 && strcmp(argv[1], "crossover") == 0) {
        static const int sizes[] = {5, 8, 10, 11, 12, 13, 14, 16, 20};
        double dummy[4];
        table("crossover: planar chains", model_chain, sizes, 9, dummy);
        static const int ssizes[] = {2, 3, 4, 5, 6, 8};
        table("crossover: spatial chains, revolute joints", spatial_revolute, ssizes, 6, dummy);
        static const int s3sizes[] = {4, 6, 8, 10, 12, 16};
        table("crossover: spatial chains, spherical joints", spatial_spherical, s3sizes, 6, dummy);
        fans();
    }
    return 0;
}

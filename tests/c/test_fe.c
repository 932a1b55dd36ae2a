/* SPDX-License-Identifier: MIT */
/*
** libmech flexible bodies (mech_fe.h) in a system: nodes as bodies, lumped masses, the
** internal forces against closed forms (a rigid translation is exact, mass-proportional
** damping decays it as exp(-alpha t), energy is conserved without damping, a damped
** cantilever settles on the static solution K u = f), natural frequencies (lumped and
** consistent mass agree in the fine-mesh limit and approach beam theory; a step load makes
** the tip vibrate at the first one), and the errors of attaching rigid-body entities to
** nodes.  Every tolerance is derived in the comment next to it.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech.h"
#include "contact.h"  /* contact_start */
#include "registry.h" /* the system's y0 */
#include "tap.h"

#define PI 3.14159265358979323846

static mech_mesh rect(double w, double h, int nx, int ny, double x0, double y0)
{
    mech_rectangle_def r = mech_rectangle_default();
    r.size[0] = w, r.size[1] = h, r.nx = nx, r.ny = ny, r.origin[0] = x0, r.origin[1] = y0;
    mech_mesh m = mech_mesh_empty();
    mech_error err;
    if (mech_mesh_rectangle(&m, &r, &err)) diag("mesh: %s", err.msg);
    return m;
}

static mech_system *new_system(double gy)
{
    mech_system *sys;
    double g[2] = {0, gy};
    mech_system_create(&sys, g, NULL);
    return sys;
}

static int add_fe(mech_system *sys, const mech_mesh *m, double E, double rho, double alpha,
                  double beta, const char *name)
{
    mech_fe_def d = mech_fe_default();
    d.name = name, d.mesh = m, d.E = E, d.nu = 0.3, d.density = rho, d.thickness = 1;
    d.alpha = alpha, d.beta = beta;
    int id = -1;
    mech_error err;
    if (mech_fe_add(sys, &d, &id, &err)) diag("fe: %s", err.msg);
    return id;
}

/* Pins node k of fe to the ground with a Lagrange revolute joint. */
static void pin(mech_system *sys, int fe, int k)
{
    mech_joint_def j = mech_joint_default();
    j.body_a = MECH_GROUND;
    j.body_b = mech_fe_node_body(sys, fe, k);
    double pose[3];
    mech_body_initial_pose(sys, j.body_b, pose);
    j.pa[0] = pose[0], j.pa[1] = pose[1];
    mech_error err;
    if (mech_joint_add(sys, &j, NULL, &err)) diag("pin: %s", err.msg);
}

static mech_run *simulate(mech_system *sys, mech_method method, double t, double report,
                          double rtol, const char *const *ch, int nch)
{
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = method;
    o.integ.rtol = rtol;
    o.integ.atol = rtol * 1e-3;
    o.t_end = t;
    o.report = report;
    o.channels = ch;
    o.nchannels = nch;
    mech_run *run = NULL;
    mech_error err;
    if (mech_simulate(sys, &o, &run, &err)) diag("simulate: %s", err.msg);
    return run;
}

static double last(const mech_run *run, const char *name)
{
    if (run == NULL) return NAN;
    int i = mech_run_channel_index(run, name);
    return i < 0 ? NAN : mech_run_column(run, i)[mech_run_rows(run) - 1];
}

static void test_nodes(void)
{
    mech_mesh m = rect(0.6, 0.5, 5, 5, 0, 0);
    mech_system *sys = new_system(-9.81);
    int fe = add_fe(sys, &m, 1000, 1.0 / 3, 0.01, 0.544, "slider");
    ok(fe == 0 && mech_fe_count(sys) == 1, "one flexible body");
    ok(mech_system_count(sys, MECH_KIND_BODY) == 37, "36 nodes are bodies (plus the ground)");
    ok(mech_system_ncoord(sys) == 72, "two coordinates per node");
    int id, f, k;
    ok(mech_system_find(sys, "slider.n36", &id) == MECH_KIND_BODY &&
           mech_body_is_node(sys, id, &f, &k) && f == 0 && k == 35,
       "slider.n36 is node 36");
    ok(mech_system_find(sys, "slider", &id) == MECH_KIND_FE && id == 0,
       "the body is found by name");
    /* rectangles: row-sum = rho t A_e / 4 per element corner, exact sums of 1/3 * 0.012 */
    is_num(mech_fe_total_mass(sys, 0), 0.1, 1e-15, "slider mass 0.1 kg ([Zheng & Wang, Table 1])");
    is_num(mech_fe_node_mass(sys, 0, 0), 0.001, 1e-16, "corner node: one quarter element");
    is_num(mech_fe_node_mass(sys, 0, 1), 0.002, 1e-16, "edge node: two quarters");
    is_num(mech_fe_node_mass(sys, 0, 7), 0.004, 1e-16, "interior node: four quarters");
    double pose[3];
    mech_body_initial_pose(sys, mech_fe_node_body(sys, 0, 30), pose);
    ok(pose[0] == 0 && pose[1] == 0, "node 31 at the origin ([Zheng & Wang, Fig. 6])");
    char buf[4096];
    mech_system_describe(sys, "", buf, sizeof buf);
    ok(strstr(buf, "flexible body slider: 36 nodes, 25 quadrilaterals") != NULL &&
           strstr(buf, "slider.n1") == NULL,
       "describe: the body in one line, not its nodes");
    mech_system_destroy(sys);
    mech_mesh_free(&m);
}

/* A free body translating: beta K u' vanishes on rigid modes, so with alpha = 0 every node
** moves at its initial velocity to round-off; alpha M u' decays it as exp(-alpha t). */
static void test_rigid_modes(void)
{
    mech_mesh m = rect(0.3, 0.2, 3, 2, 0, 0);
    for (int damped = 0; damped < 2; damped++) {
        mech_system *sys = new_system(0);
        mech_fe_def d = mech_fe_default();
        d.name = "plate", d.mesh = &m, d.E = 1e4, d.density = 10, d.beta = 0.05;
        d.alpha = damped ? 2.0 : 0;
        d.velocity[0] = 1, d.velocity[1] = 0.5;
        mech_fe_add(sys, &d, NULL, NULL);
        const char *ch[] = {"plate.n12.x", "plate.n12.vy", "plate.strain", "plate.vx"};
        mech_run *run = simulate(sys, MECH_DOPRI5, 1.0, 0.1, 1e-10, ch, 4);
        if (!damped) {
            /* K times a rigid translation is zero only to round-off: |K| |u| eps ~ 1e4 N/m
            ** 1 m 2e-16 = 2e-12 N on a node of 0.005 kg gives 4e-10 m/s^2 at most, so 1e-9
            ** after 1 s; the error control adds ~1e-12 */
            is_num(last(run, "plate.n12.x"), 1.3, 1e-9, "free translation: x = X + v t");
            is_num(last(run, "plate.n12.vy"), 0.5, 1e-9, "free translation: v constant");
            ok(last(run, "plate.strain") < 1e-20, "free translation: no strain energy");
        } else {
            /* the mean velocity obeys m v' = -alpha m v exactly */
            is_num(last(run, "plate.vx"), exp(-2.0), 1e-8,
                   "alpha M damps the mean velocity "
                   "as exp(-alpha t)");
        }
        mech_run_free(run);
        mech_system_destroy(sys);
    }
    mech_mesh_free(&m);
}

/* An elastic plate hanging from a Lagrange pin at one corner, swinging under gravity with
** no damping: kinetic + strain + gravity energy is constant (the joint does no work). */
static void test_energy(void)
{
    mech_mesh m = rect(0.2, 0.1, 4, 2, 0, -0.1);
    mech_system *sys = new_system(-9.81);
    int fe = add_fe(sys, &m, 2e4, 50, 0, 0, "plate");
    pin(sys, fe, 0); /* the top-left corner */
    const char *ch[] = {"system.energy", "plate.strain", "plate.n1.x"};
    mech_run *run = simulate(sys, MECH_DOPRI5, 0.5, 0.01, 1e-10, ch, 3);
    const double *e = mech_run_column(run, 0), *s = mech_run_column(run, 1);
    double e0 = e[0], drift = 0, smax = 0;
    for (long i = 0; i < mech_run_rows(run); i++) {
        drift = fmax(drift, fabs(e[i] - e0));
        smax = fmax(smax, s[i]);
    }
    /* the plate falls ~0.1 m: the energy scale is m g 0.1 = 1 kg * 9.81 * 0.1 ~ 1 J;
    ** rtol 1e-10 over ~1e4 steps bounds the drift near 1e-7 J */
    ok(mech_run_get_status(run) == MECH_RUN_COMPLETE, "hanging plate: run complete");
    ok(drift < 1e-6, "hanging plate: energy conserved without damping");
    diag("energy drift %.3g J, strain energy up to %.3g J", drift, smax);
    ok(smax > 1e-4, "hanging plate: the plate deforms (the test is not trivial)");
    is_num(last(run, "plate.n1.x"), 0, 1e-7, "the pinned node stays (Baumgarte drift)");
    mech_run_free(run);
    mech_system_destroy(sys);
    mech_mesh_free(&m);
}

/* Dense Gaussian elimination with partial pivoting (n small). */
static void solve(double *A, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[p * n + c])) p = r;
        for (int k = 0; k < n; k++) {
            double t = A[c * n + k];
            A[c * n + k] = A[p * n + k];
            A[p * n + k] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        for (int k = r + 1; k < n; k++) b[r] -= A[r * n + k] * b[k];
        b[r] /= A[r * n + r];
    }
}

/* A cantilever clamped by pins at its left nodes, a tip load at its right nodes, heavily
** damped (beta K): it settles on the static solution of K u = f over the free nodes. */
static void test_static(void)
{
    int nx = 6, ny = 2;
    double L = 1.0, H = 0.2, P = -2.0;
    mech_mesh m = rect(L, H, nx, ny, 0, 0);
    mech_system *sys = new_system(0);
    int fe = add_fe(sys, &m, 1e4, 10, 5.0, 0.02, "beam");
    int nn = m.nnodes, n = 2 * nn;
    int *held = calloc((size_t)nn, sizeof(int));
    for (int k = 0; k < nn; k++)
        if (m.xy[2 * k] < 1e-12) held[k] = 1, pin(sys, fe, k);
    mech_load_def ld = mech_load_default();
    int tips[8], ntip = 0;
    for (int k = 0; k < nn; k++)
        if (m.xy[2 * k] > L - 1e-12) tips[ntip++] = k;
    for (int i = 0; i < ntip; i++) {
        ld.body = mech_fe_node_body(sys, fe, tips[i]);
        ld.value[1] = P / ntip;
        ld.name = NULL;
        mech_load_add(sys, &ld, NULL, NULL);
    }
    char name[64];
    snprintf(name, sizeof name, "beam.n%d.uy", tips[0] + 1);
    const char *ch[] = {name};
    mech_run *run = simulate(sys, MECH_BDF, 20.0, 1.0, 1e-8, ch, 1);
    /* the static solution over the free coordinates */
    double *K = malloc(sizeof(double) * (size_t)(n * n));
    mech_fe_matrices(sys, fe, K, NULL, NULL);
    int nf = 0, *map = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        if (!held[i / 2]) map[nf++] = i;
    double *A = malloc(sizeof(double) * (size_t)(nf * nf)), *b = calloc((size_t)nf, sizeof(double));
    for (int i = 0; i < nf; i++) {
        for (int j = 0; j < nf; j++) A[i * nf + j] = K[map[i] * n + map[j]];
        for (int t = 0; t < ntip; t++)
            if (map[i] == 2 * tips[t] + 1) b[i] = P / ntip;
    }
    solve(A, b, nf);
    double want = NAN;
    for (int i = 0; i < nf; i++)
        if (map[i] == 2 * tips[0] + 1) want = b[i];
    /* the slowest mode decays as exp(-alpha/2 t) at least: e^-50 after 20 s; the pins'
    ** Baumgarte error and rtol 1e-8 leave ~1e-8 relative */
    is_num(last(run, name), want, 1e-6 * fabs(want), "damped cantilever settles on K u = f");
    diag("tip deflection %.10g m (static %.10g m)", last(run, name), want);
    free(K), free(map), free(A), free(b), free(held);
    mech_run_free(run);
    mech_system_destroy(sys);
    mech_mesh_free(&m);
}

/* Cantilever frequencies: lumped and consistent mass converge together; Timoshenko's
** beam gives the limit.  A step load makes the free tip vibrate at the first frequency. */
static void test_frequencies(void)
{
    double L = 1.0, H = 0.1, E = 1e6, rho = 100, nu = 0.3;
    double prev_gap = INFINITY, w_lump = 0, w_cons = 0;
    int meshes[][2] = {{10, 1}, {20, 2}, {40, 4}};
    for (int s = 0; s < 3; s++) {
        mech_mesh m = rect(L, H, meshes[s][0], meshes[s][1], 0, 0);
        mech_system *sys = new_system(0);
        int fe = add_fe(sys, &m, E, rho, 0, 0, "beam");
        int fixed[8], nfix = 0;
        for (int k = 0; k < m.nnodes; k++)
            if (m.xy[2 * k] < 1e-12) fixed[nfix++] = k;
        mech_error err;
        double wl[1], wc[1];
        mech_status st = mech_fe_frequencies(sys, fe, 0, fixed, nfix, 1, wl, &err);
        st = st ? st : mech_fe_frequencies(sys, fe, 1, fixed, nfix, 1, wc, &err);
        if (st) diag("frequencies: %s", err.msg);
        double gap = fabs(wl[0] - wc[0]) / wc[0];
        diag("mesh %dx%d: first frequency lumped %.6g, consistent %.6g rad/s (gap %.2g)",
             meshes[s][0], meshes[s][1], wl[0], wc[0], gap);
        ok(gap < prev_gap, "lumped and consistent mass: the gap closes as the mesh is refined");
        prev_gap = gap;
        w_lump = wl[0], w_cons = wc[0];
        mech_system_destroy(sys);
        mech_mesh_free(&m);
    }
    /* the 40x4 gap is a fraction of a percent: both converge to the same limit */
    ok(prev_gap < 0.01, "fine mesh: lumped and consistent first frequencies within 1%");
    /* Timoshenko (plane stress, shear factor 5/6) for a slender beam L/H = 10 */
    double I = H * H * H / 12, A = H, G = E / (2 * (1 + nu)), kappa = 5.0 / 6;
    double wb = 1.875104 * 1.875104 * sqrt(E * I / (rho * A * L * L * L * L));
    double shear =
        1 + (1.875104 * 1.875104) * (E * I / (kappa * G * A * L * L) + I / (A * L * L)) / 2;
    double wt = wb / sqrt(shear); /* first-order rotary inertia and shear correction */
    diag("beam theory: Euler-Bernoulli %.6g, Timoshenko (first order) %.6g rad/s", wb, wt);
    /* bilinear quads converge from above (too stiff in bending); at 40x4 within ~2% */
    ok(fabs(w_cons - wt) / wt < 0.03 && fabs(w_lump - wt) / wt < 0.03,
       "fine mesh within 3% of Timoshenko's beam");

    /* free-free: three rigid modes at zero */
    mech_mesh m = rect(L, H, 10, 1, 0, 0);
    mech_system *sys = new_system(0);
    int fe = add_fe(sys, &m, E, rho, 0, 0, "free");
    double w[4];
    mech_fe_frequencies(sys, fe, 1, NULL, 0, 4, w, NULL);
    ok(w[0] < 1e-5 * w[3] && w[1] < 1e-5 * w[3] && w[2] < 1e-5 * w[3] && w[3] > 1,
       "free body: three zero frequencies, then the first bending mode");
    mech_error err;
    ok(mech_fe_frequencies(sys, fe, 1, NULL, 0, 100, w, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "ask for 1 to 44") != NULL,
       "frequencies: asking for too many is an error");
    mech_system_destroy(sys);
    mech_mesh_free(&m);

    /* the step response of the undamped 20x2 cantilever: tip period 2 pi / w1 (lumped) */
    m = rect(L, H, 20, 2, 0, 0);
    sys = new_system(0);
    fe = add_fe(sys, &m, E, rho, 0, 0, "beam");
    int fixed[8], nfix = 0, tip = -1;
    for (int k = 0; k < m.nnodes; k++) {
        if (m.xy[2 * k] < 1e-12) fixed[nfix++] = k, pin(sys, fe, k);
        if (m.xy[2 * k] > L - 1e-12 && fabs(m.xy[2 * k + 1] - H / 2) < 1e-12) tip = k;
    }
    double w1[1];
    mech_fe_frequencies(sys, fe, 0, fixed, nfix, 1, w1, NULL);
    mech_load_def ld = mech_load_default();
    ld.body = mech_fe_node_body(sys, fe, tip);
    ld.value[1] = -1e-3;
    mech_load_add(sys, &ld, NULL, NULL);
    char name[64];
    snprintf(name, sizeof name, "beam.n%d.uy", tip + 1);
    const char *ch[] = {name};
    double T = 2 * PI / w1[0];
    mech_run *run = simulate(sys, MECH_DOPRI5, 10 * T, T / 400, 1e-9, ch, 1);
    const double *u = mech_run_column(run, 0), *t = mech_run_time(run);
    long rows = mech_run_rows(run);
    /* the tip swings about the static deflection, the mean over the ten periods; the
    ** higher modes' share of the displacement falls as 1/w^2: crossings of the mean are
    ** those of the first mode */
    double mean = 0;
    for (long i = 0; i < rows - 1; i++) mean += u[i] / (double)(rows - 1);
    double first = NAN, lastc = NAN;
    int crossings = 0;
    for (long i = 1; i < rows; i++)
        if (u[i - 1] < mean && u[i] >= mean) { /* upward crossings, linear interpolation */
            double tc = t[i - 1] + (t[i] - t[i - 1]) * (mean - u[i - 1]) / (u[i] - u[i - 1]);
            if (crossings == 0) first = tc;
            lastc = tc;
            crossings++;
        }
    double period = (lastc - first) / (crossings - 1);
    /* higher modes ride on the first one (a point load excites them): they shift each
    ** crossing by a small fraction of a period, averaged over nine periods: 0.5% */
    is_num(period, T, 5e-3 * T, "step load: the tip vibrates at the first lumped frequency");
    diag("tip period %.6g s, 2 pi / w1 = %.6g s (%d crossings)", period, T, crossings);
    mech_run_free(run);
    mech_system_destroy(sys);
    mech_mesh_free(&m);
}

static void expect_error(mech_status st, const mech_error *err, const char *want, const char *name)
{
    if (!ok(st != MECH_OK && strstr(err->msg, want) != NULL, name))
        diag("message: %s", st ? err->msg : "(none)");
}

static void test_errors(void)
{
    mech_mesh m = rect(0.2, 0.1, 2, 1, 0, 0);
    mech_system *sys = new_system(-9.81);
    mech_error err;
    mech_fe_def d = mech_fe_default();
    d.name = "s", d.mesh = &m, d.E = 0, d.density = 1;
    expect_error(mech_fe_add(sys, &d, NULL, &err), &err, "E must be > 0", "E = 0 refused");
    d.E = 1, d.nu = 0.5;
    expect_error(mech_fe_add(sys, &d, NULL, &err), &err, "nu must be in (-1, 0.5)",
                 "nu = 0.5 refused");
    d.nu = 0.3, d.density = -1;
    expect_error(mech_fe_add(sys, &d, NULL, &err), &err, "density must be > 0", "density refused");
    d.density = 1, d.mesh = NULL;
    expect_error(mech_fe_add(sys, &d, NULL, &err), &err, "no mesh", "no mesh refused");
    /* an element given clockwise */
    mech_mesh bad;
    mech_mesh_copy(&bad, &m, NULL);
    int t = bad.conn[1];
    bad.conn[1] = bad.conn[3], bad.conn[3] = t;
    d.mesh = &bad;
    expect_error(mech_fe_add(sys, &d, NULL, &err), &err, "element 1",
                 "a clockwise element is named");
    mech_mesh_free(&bad);
    ok(mech_system_count(sys, MECH_KIND_BODY) == 1 && mech_fe_count(sys) == 0,
       "nothing was added by the failures");
    d.mesh = &m;
    int fe;
    mech_fe_add(sys, &d, &fe, NULL);
    d.name = "s";
    expect_error(mech_fe_add(sys, &d, NULL, &err), &err, "already used", "names are unique");
    int node = mech_fe_node_body(sys, fe, 0);

    mech_joint_def j = mech_joint_default();
    j.type = MECH_PRISMATIC, j.body_a = MECH_GROUND, j.body_b = node;
    expect_error(mech_joint_add(sys, &j, NULL, &err), &err, "a node takes only revolute joints",
                 "prismatic joint on a node refused");
    j = mech_joint_default();
    j.body_a = MECH_GROUND, j.body_b = node, j.pb[0] = 0.01;
    expect_error(mech_joint_add(sys, &j, NULL, &err), &err, "is a point",
                 "joint anchor away from the node refused");
    mech_rot_spring_def rs = mech_rot_spring_default();
    rs.body_a = MECH_GROUND, rs.body_b = node;
    expect_error(mech_rot_spring_add(sys, &rs, NULL, &err), &err, "has no rotation",
                 "rotational spring on a node refused");
    mech_load_def ld = mech_load_default();
    ld.body = node, ld.torque = 1;
    expect_error(mech_load_add(sys, &ld, NULL, &err), &err, "has no rotation",
                 "torque on a node refused");
    mech_driver_def dr = mech_driver_default();
    dr.type = MECH_DRIVE_BODY_ANGLE, dr.target = node;
    expect_error(mech_driver_add(sys, &dr, NULL, &err), &err, "has no angle",
                 "angle driver on a node refused");
    mech_contact_def c = mech_contact_default();
    c.body_a = mech_fe_node_body(sys, fe, 1), c.body_b = node;
    expect_error(mech_contact_add(sys, &c, NULL, &err), &err, "surface must be on a rigid body",
                 "a surface on a node refused");
    mech_system_destroy(sys);
    mech_mesh_free(&m);
}

/*
** Sticking friction near the edge of its band ([Zheng & Wang, Eq. 13], with the ramp of
** contact.c): a block of 1 kg pressed on the floor by its weight (F_n = 9.81 N, mu = 0.3,
** mu_s = 0.4, v_eps = 1e-5 m/s) and pulled along x by P (a tilted gravity).  Inside the band
** the friction holds it (a_x = 0, or (P - mu_s F_n)/m once P passes the static limit);
** beyond 2 v_eps it slides with a_x = (P - mu F_n sgn v)/m; in between a_x moves linearly
** from one to the other.  Swept in steps of v_eps/1000, a_x never jumps by more than that
** slope allows: the right-hand side is continuous, so an implicit step equation always
** has a solution.
*/
static void test_stick_ramp(void)
{
    const double fn = 9.81, mu = 0.3, mu_s = 0.4, veps = 1e-5;
    const double pulls[] = {2.0, 3.5, 5.0}; /* below mu F_n, between, above mu_s F_n */
    for (int ip = 0; ip < 3; ip++) {
        double P = pulls[ip];
        mech_system *sys;
        double g[2] = {P, -fn};
        mech_system_create(&sys, g, NULL);
        mech_body_def b = mech_body_default();
        b.name = "block", b.mass = 1, b.inertia = 1;
        int block = -1;
        mech_error err;
        if (mech_body_add(sys, &b, &block, &err)) diag("body: %s", err.msg);
        mech_contact_def c = mech_contact_default();
        c.name = "floor", c.body_a = block, c.body_b = MECH_GROUND;
        c.normal_law = mech_normal_default(MECH_NORMAL_KELVIN_VOIGT);
        c.normal_law.K = 1e6, c.normal_law.c = 1e3;
        c.friction = mech_friction_default(MECH_FRICTION_STICK);
        c.friction.mu = mu, c.friction.mu_s = mu_s, c.friction.v_eps = veps;
        if (mech_contact_add(sys, &c, NULL, &err)) diag("contact: %s", err.msg);
        if (mech_system_finalize(sys, &err)) diag("finalize: %s", err.msg);
        int n = mech_system_ncoord(sys), ns = mech_system_nstate(sys);
        double *y = calloc((size_t)ns, sizeof(double)), *yd = calloc((size_t)ns, sizeof(double));
        memcpy(y, sys->y0, sizeof(double) * (size_t)ns);
        y[1] = -fn / 1e6; /* the static penetration: F_n = K d = 9.81 N */
        contact_start(sys, 0.0, y);
        double held = P > mu_s * fn ? P - mu_s * fn : 0, slide = P - mu * fn;
        double worst_in = 0, worst_out = 0, worst_mid = 0, worst_jump = 0, prev = NAN;
        double slope = fabs(slide - held) / veps;
        for (int i = 0; i <= 3000; i++) {
            double v = i * veps / 1000;
            y[n] = v;
            mech_system_rhs(sys, 0.0, y, yd);
            double a = yd[n];
            if (v < veps) worst_in = fmax(worst_in, fabs(a - held));
            if (v > 2 * veps) worst_out = fmax(worst_out, fabs(a - slide));
            if (i == 1500) worst_mid = fabs(a - 0.5 * (held + slide));
            if (i > 0) worst_jump = fmax(worst_jump, fabs(a - prev) - slope * veps / 1000);
            prev = a;
        }
        /* 1e-9 m/s^2: round-off on forces of ~10 N */
        char name[160];
        snprintf(name, sizeof name,
                 "stick ramp, P = %g N: held inside v_eps, sliding beyond 2 v_eps, halfway at "
                 "1.5 v_eps (errors %.2g, %.2g, %.2g m/s^2)",
                 P, worst_in, worst_out, worst_mid);
        ok(worst_in < 1e-9 && worst_out < 1e-9 && worst_mid < 1e-9, name);
        snprintf(name, sizeof name,
                 "stick ramp, P = %g N: a_x(v) continuous (largest step beyond the slope %.2g "
                 "m/s^2)",
                 P, worst_jump);
        ok(worst_jump < 1e-9, name);
        free(y);
        free(yd);
        mech_system_destroy(sys);
    }
}

int main(void)
{
    test_stick_ramp();
    test_nodes();
    test_rigid_modes();
    test_energy();
    test_static();
    test_frequencies();
    test_errors();
    return done_testing();
}

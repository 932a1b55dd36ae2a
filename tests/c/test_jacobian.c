/* SPDX-License-Identifier: MIT */
/*
** BDF's Jacobian from the model's structure (system_jac.c, integ_jac.c), white-box: on planar
** and spatial models with every kind of element, at states with contacts open and closed,
** sticking, on the ramp and sliding,
**   - every non-zero of the difference-quotient Jacobian of f, column by column, lies in the
**     pattern (g's and L's together), and every non-zero of g's in g's;
**   - the grouped difference quotients plus the linear part equal the column-by-column ones
**     on the rows BDF keeps.
** The increments are BDF's, sqrt(eps) max(|y_j|, |h f_j|, 1/w_j).  Both Jacobians are
** difference quotients of the same functions with the same increments: where f is linear in
** y_j (the mesh's forces) they agree to rounding, eps |f_i| / inc_j, and elsewhere the grouped
** one adds L's closed form where f's quotient has its truncation error, inc_j |d2f/dy_j2| / 2;
** both are of relative size sqrt(eps) ~ 1.5e-8 for rates that vary on the scale of the
** states.  The comparison allows 1e-5 of the entry plus 1e-7 of the row's largest entry:
** hundreds of times those, and far below any error that matters to a Newton iteration (a
** wrong entry is wrong by 100%).
*/
#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech.h"
#include "integ_jac.h"
#include "model.h"
#include "registry.h"
#include "models.h"
#include "smodels.h"
#include "tap.h"

/* ---- the checks ------------------------------------------------------------------------ */

static int okf(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int okf(int cond, const char *fmt, ...)
{
    char name[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    return ok(cond, name);
}

typedef struct probe {
    mech_model m;
    mech_jac_structure js;
    int n;
    double *y, *f0, *ft, *inc, *J, *w;
} probe;

static int probe_open(probe *p, mech_system *sys, const char *label)
{
    mech_error err;
    memset(p, 0, sizeof *p);
    if (!sys || system_model(sys, &p->m, &err) || p->m.ops->jacobian(p->m.ctx, &p->js, &err)) {
        okf(0, "%s: the model and its Jacobian's structure", label);
        diag("%s", sys ? err.msg : "no model");
        return 0;
    }
    int n = p->n = p->m.nstate;
    size_t sn = (size_t)n;
    p->y = calloc(sn, sizeof(double));
    p->f0 = calloc(sn, sizeof(double));
    p->ft = calloc(sn, sizeof(double));
    p->inc = calloc(sn, sizeof(double));
    p->w = calloc(sn, sizeof(double));
    p->J = calloc(sn * sn, sizeof(double));
    memcpy(p->y, p->m.y0, sizeof(double) * sn);
    return 1;
}

static void probe_close(probe *p)
{
    free(p->y);
    free(p->f0);
    free(p->ft);
    free(p->inc);
    free(p->w);
    free(p->J);
}

static int in_pattern(const int *colptr, const int *rowind, int j, int i)
{
    for (int q = colptr ? colptr[j] : 0; colptr && q < colptr[j + 1]; q++)
        if (rowind[q] == i) return 1;
    return 0;
}

/* The column-by-column quotients of fn (f, or g once linearized) at p->y into p->J. */
static int quotients(probe *p, mech_rhs_fn fn, void *ctx, double t)
{
    const int n = p->n;
    if (fn(ctx, t, p->y, p->f0)) return 0;
    for (int j = 0; j < n; j++) {
        double yj = p->y[j];
        p->y[j] = yj + p->inc[j];
        int rc = fn(ctx, t, p->y, p->ft);
        p->y[j] = yj;
        if (rc) return 0;
        for (int i = 0; i < n; i++)
            p->J[(size_t)j * (size_t)n + (size_t)i] = (p->ft[i] - p->f0[i]) / p->inc[j];
    }
    return 1;
}

/* Non-zeros of p->J outside the pattern (g's and, with lin, L's); the first few told. */
static int outside(const probe *p, int lin, const char *label)
{
    int bad = 0;
    for (int j = 0; j < p->n; j++)
        for (int i = 0; i < p->n; i++) {
            double v = p->J[(size_t)j * (size_t)p->n + (size_t)i];
            if (v == 0 || in_pattern(p->js.colptr, p->js.rowind, j, i) ||
                (lin && in_pattern(p->js.lin_colptr, p->js.lin_rowind, j, i)))
                continue;
            if (bad++ < 5) {
                char a[120], b[120];
                mech_system_describe_state(p->m.ctx, i, a, sizeof a);
                mech_system_describe_state(p->m.ctx, j, b, sizeof b);
                diag("%s: d(%s)/d(%s) = %g is outside the pattern", label, a, b, v);
            }
        }
    return bad;
}

static int nchecks, worst_count;
static double worst_rel;

/*
** At (t, p->y): the pattern holds f's non-zeros and g's; the grouped Jacobian equals f's
** quotients on the kept rows.  row0: the rows BDF keeps start there (nq).
*/
static void check_state(probe *p, double t, const char *label)
{
    const int n = p->n, nq = p->m.nq;
    const double h = 1e-4, srur = sqrt(DBL_EPSILON);
    mech_rhs_fn f = p->m.ops->rhs;
    void *ctx = p->m.ctx;
    p->m.ops->events_start(ctx, t, p->y); /* the contacts that touch at y are closed */
    if (f(ctx, t, p->y, p->f0)) {
        okf(0, "%s: the right-hand side evaluates", label);
        return;
    }
    for (int j = 0; j < n; j++) {
        /* weights that keep the increments well above the rounding of f (a velocity of 0
        ** with atol 1e-9 would give 1.5e-17, and quotients that are rounding noise) */
        p->w[j] = 1 / (1e-6 * fabs(p->y[j]) + (j < nq + p->m.nu ? 1e-3 : 1e-9));
        double inc = srur * fmax(fabs(p->y[j]), fmax(fabs(h * p->f0[j]), 1 / p->w[j]));
        p->inc[j] = inc > 0 ? inc : srur;
    }
    char what[200];
    snprintf(what, sizeof what, "%s: f's non-zeros are in the pattern", label);
    int good = quotients(p, f, ctx, t);
    okf(good && outside(p, 1, label) == 0, "%s", what);
    nchecks++;

    /* the grouped Jacobian, and what it is compared with */
    integ_jac ij;
    mech_error err;
    if (integ_jac_setup(&ij, n, nq, &p->js, &err)) {
        okf(0, "%s: integ_jac_setup: %s", label, err.msg);
        return;
    }
    double *y = malloc(sizeof(double) * (size_t)n), *fy = malloc(sizeof(double) * (size_t)n);
    memcpy(y, p->y, sizeof(double) * (size_t)n);
    f(ctx, t, y, fy);
    long nrhs = 0;
    int rc = integ_jac_eval(&ij, f, ctx, t, y, fy, p->w, h, &nrhs);
    int same = rc == 0 && memcmp(y, p->y, sizeof(double) * (size_t)n) == 0;
    double worst = 0;
    int wi = -1, wj = -1, bad = 0;
    for (int j = 0; same && j < n; j++) {
        for (int q = ij.colptr[j]; q < ij.colptr[j + 1]; q++) {
            int i = ij.rowind[q] + nq;
            double a = ij.val[q], b = p->J[(size_t)j * (size_t)n + (size_t)i], rowmax = 0;
            for (int k = 0; k < n; k++)
                rowmax = fmax(rowmax, fabs(p->J[(size_t)k * (size_t)n + (size_t)i]));
            double tol = 1e-5 * fabs(b) + 1e-7 * rowmax, d = fabs(a - b);
            if (d > tol) bad++;
            if (d / (tol > 0 ? tol : DBL_MIN) > worst) worst = d / tol, wi = i, wj = j;
        }
    }
    if (worst > worst_rel) worst_rel = worst;
    if (!okf(same && bad == 0, "%s: grouped (%d groups%s) = column by column on the kept rows",
             label, ij.ngroups, ij.nlin_kept ? ", with L" : "")) {
        char a[120] = "?", b[120] = "?";
        if (wi >= 0) {
            mech_system_describe_state(ctx, wi, a, sizeof a);
            mech_system_describe_state(ctx, wj, b, sizeof b);
        }
        diag("rc %d, %d entries off; worst %g tolerances at d(%s)/d(%s)", rc, bad, worst, a, b);
        for (int q = ij.colptr[wj]; q < ij.colptr[wj + 1]; q++)
            if (ij.rowind[q] + nq == wi)
                diag("grouped %.10g column %.10g inc %g", ij.val[q], p->J[(size_t)wj * n + wi],
                     p->inc[wj]);
    }
    worst_count += bad;

    /* g's own non-zeros: its quotients once linearized at y */
    if (p->js.linearize) {
        double *lval = calloc((size_t)p->js.lin_colptr[n] + 1, sizeof(double));
        p->js.linearize(p->js.ctx, t, p->y, p->f0, lval);
        int good_g = 1;
        for (int j = 0; j < n && good_g; j++) {
            double yj = p->y[j];
            p->y[j] = yj + p->inc[j];
            good_g = p->js.remainder(p->js.ctx, t, p->y, p->ft) == 0;
            p->y[j] = yj;
            for (int i = 0; i < n; i++)
                p->J[(size_t)j * (size_t)n + (size_t)i] = (p->ft[i] - p->f0[i]) / p->inc[j];
        }
        /* the outputs' rows of g are not f's (the mesh's power is left out): skip them */
        for (int i = 0; i < n; i++)
            if (p->js.colptr[i] == p->js.colptr[i + 1])
                for (int j = 0; j < n; j++) p->J[(size_t)j * (size_t)n + (size_t)i] = 0;
        char gl[200];
        snprintf(gl, sizeof gl, "%s (g)", label);
        okf(good_g && outside(p, 0, gl) == 0, "%s: g's non-zeros are in its pattern", label);
        free(lval);
    }
    free(y);
    free(fy);
    integ_jac_free(&ij);
}

/* ---- the models ------------------------------------------------------------------------ */

/* Sets state component i (a position or velocity of body b, coordinate k) of y. */
static void set_q(const mech_system *sys, double *y, int b, int k, double v)
{
    y[sys->bodies[b].q_at + k] = v;
}
static void set_u(const mech_system *sys, double *y, int b, int k, double v)
{
    y[sys->nq + sys->bodies[b].u_at + k] = v;
}

/* The slider-crank's states: as assembled; the slider pressed 0.5 mm into the lower surface,
** its lower nodes at rest (sticking), on the ramp, sliding. */
static void fe_crank_states(int nx, int lagrange)
{
    int fe = -1;
    mech_error err;
    mech_system *sys = model_fe_slider_crank(nx, 2, lagrange, &fe, &err);
    if (!sys) diag("%s", err.msg);
    probe p;
    char label[120];
    snprintf(label, sizeof label, "FE slider-crank %d x 2 (%s B)", nx,
             lagrange ? "Lagrange" : "penalty");
    if (!probe_open(&p, sys, label)) return;
    check_state(&p, 0.0, label);
    const mech_mesh *mesh = mech_fe_mesh(sys, fe);
    /* everything 3 mm down: the lower nodes 0.5 mm in; the rod's end with them */
    for (int k = 0; k < mesh->nnodes; k++)
        set_q(sys, p.y, mech_fe_node_body(sys, fe, k), 1,
              p.y[sys->bodies[mech_fe_node_body(sys, fe, k)].q_at + 1] - 3e-3);
    static const double speeds[] = {0, 1.5e-5, 1e-3, -4e-6};
    static const char *const names[] = {"sticking", "on the ramp", "sliding", "mixed"};
    for (int s = 0; s < 4; s++) {
        for (int k = 0; k < mesh->nnodes; k++) {
            int b = mech_fe_node_body(sys, fe, k);
            double v = s == 3 ? speeds[k % 3] : speeds[s];
            set_u(sys, p.y, b, 0, v);
            set_u(sys, p.y, b, 1, s == 2 ? -1e-4 : 0);
        }
        snprintf(label, sizeof label, "FE slider-crank %d x 2 (%s B), pressed, %s", nx,
                 lagrange ? "Lagrange" : "penalty", names[s]);
        check_state(&p, 0.7, label);
    }
    probe_close(&p);
    mech_system_destroy(sys);
}

/* A flexible bob on a rigid bar (tests/lua/test_fe.lua), joined by penalty or Lagrange. */
static void fe_pendulum(int lagrange)
{
    mech_error err;
    mech_system *sys;
    double g[2] = {0, -9.81};
    mech_system_create(&sys, g, &err);
    mech_body_def b = mech_body_default();
    b.name = "bar", b.mass = 1, b.inertia = 1.0 / 12, b.pos[0] = 0.5;
    int bar, fe;
    mech_status st = mech_body_add(sys, &b, &bar, &err);
    mech_joint_def j = mech_joint_default();
    j.body_a = MECH_GROUND, j.body_b = bar, j.pb[0] = -0.5;
    if (!st) st = mech_joint_add(sys, &j, NULL, &err);
    mech_mesh mesh = mech_mesh_empty();
    mech_rectangle_def rd = mech_rectangle_default();
    rd.size[0] = rd.size[1] = 0.1, rd.nx = rd.ny = 2, rd.origin[0] = 0.95, rd.origin[1] = -0.05;
    if (!st) st = mech_mesh_rectangle(&mesh, &rd, &err);
    mech_fe_def fd = mech_fe_default();
    fd.name = "tip", fd.mesh = &mesh, fd.E = 1e5, fd.density = 20, fd.beta = 0.005;
    fd.alpha = 0.3;
    if (!st) st = mech_fe_add(sys, &fd, &fe, &err);
    j = mech_joint_default();
    j.body_a = bar, j.body_b = mech_fe_node_body(sys, fe, 4), j.pa[0] = 0.5; /* the centre */
    if (!lagrange) j.enforce = MECH_PENALTY, j.k[0] = j.k[1] = 1e6, j.c[0] = j.c[1] = 10;
    if (!st) st = mech_joint_add(sys, &j, NULL, &err);
    mech_mesh_free(&mesh);
    probe p;
    char label[80];
    snprintf(label, sizeof label, "flexible bob (%s)", lagrange ? "Lagrange" : "penalty");
    if (st) diag("%s", err.msg);
    if (st || !probe_open(&p, sys, label)) {
        mech_system_destroy(sys);
        return;
    }
    check_state(&p, 0.0, label);
    srand(7);
    for (int i = 0; i < p.m.nq + p.m.nu; i++) p.y[i] += 1e-3 * ((double)rand() / RAND_MAX - 0.5);
    snprintf(label, sizeof label, "flexible bob (%s), moved", lagrange ? "Lagrange" : "penalty");
    check_state(&p, 0.1, label);
    probe_close(&p);
    mech_system_destroy(sys);
}

static int law_spring(void *ud, double t, double x, double xdot, double *f)
{
    (void)ud, (void)t;
    *f = 50 * (x - 0.3) + 0.5 * xdot + 10 * (x - 0.3) * (x - 0.3);
    return 0;
}

static int load_fn(void *ud, double t, const mech_body_state *bs, double out[3])
{
    (void)ud;
    out[0] = -2 * bs->x + 0.1 * bs->vy * bs->vy;
    out[1] = sin(t) - bs->vx;
    out[2] = -0.1 * bs->phi - 0.01 * bs->omega;
    return 0;
}

static int motion_fn(void *ud, double t, double out[3])
{
    (void)ud;
    out[0] = 0.2 * sin(t), out[1] = 0.2 * cos(t), out[2] = -0.2 * sin(t);
    return 0;
}

/*
** Rigid bodies with every element: springs (one with a law), a rotational spring, loads (one
** computed), penalty and Lagrange joints, a driver on its own body, a block on a platform with
** sticking friction (the platform's forces follow the block's), a block on the ground with
** LuGre bristles, a free body touching nothing.
*/
static void rigid_elements(void)
{
    mech_error err;
    mech_system *sys;
    double g[2] = {0, -9.81};
    mech_system_create(&sys, g, &err);
    int id[8];
    mech_body_def b = mech_body_default();
    static const char *const names[] = {"a", "b", "c", "platform", "block", "sled", "loner", "arm"};
    mech_status st = MECH_OK;
    for (int k = 0; k < 8 && !st; k++) {
        b.name = names[k], b.mass = 1 + 0.1 * k, b.inertia = 0.05 + 0.01 * k;
        b.pos[0] = 0.4 * k, b.pos[1] = k == 4 ? 0.2 : 0, b.vel[0] = 0.01 * k;
        st = mech_body_add(sys, &b, &id[k], &err);
    }
    mech_spring_def sp = mech_spring_default();
    sp.body_a = id[0], sp.body_b = id[1], sp.k = 100, sp.c = 1, sp.length0 = 0.3;
    if (!st) st = mech_spring_add(sys, &sp, NULL, &err);
    sp = mech_spring_default();
    sp.body_a = id[1], sp.body_b = id[4], sp.law = law_spring, sp.pa[0] = 0.1;
    if (!st) st = mech_spring_add(sys, &sp, NULL, &err);
    mech_rot_spring_def rs = mech_rot_spring_default();
    rs.body_a = id[1], rs.body_b = id[2], rs.k = 3, rs.c = 0.1;
    if (!st) st = mech_rot_spring_add(sys, &rs, NULL, &err);
    mech_load_def l = mech_load_default();
    l.body = id[2], l.profile = MECH_CALLBACK, l.fn = load_fn, l.point[0] = 0.05;
    if (!st) st = mech_load_add(sys, &l, NULL, &err);
    mech_joint_def j = mech_joint_default();
    j.body_a = id[2], j.body_b = id[3], j.enforce = MECH_PENALTY, j.k[0] = j.k[1] = 1e4;
    j.c[0] = j.c[1] = 5, j.pa[0] = 0.2, j.pb[0] = -0.2;
    if (!st) st = mech_joint_add(sys, &j, NULL, &err);
    j = mech_joint_default(); /* the platform on a prismatic guide along x */
    j.type = MECH_PRISMATIC, j.body_a = MECH_GROUND, j.body_b = id[3], j.pa[0] = 1.2;
    j.axis[0] = 1;
    if (!st) st = mech_joint_add(sys, &j, NULL, &err);
    j = mech_joint_default(); /* the arm pivots on the ground, driven */
    j.body_a = MECH_GROUND, j.body_b = id[7], j.pa[0] = 2.8, j.pb[0] = 0;
    int arm_joint = -1;
    if (!st) st = mech_joint_add(sys, &j, &arm_joint, &err);
    mech_driver_def d = mech_driver_default();
    d.type = MECH_DRIVE_BODY_ANGLE, d.target = id[7], d.fn = motion_fn;
    if (!st) st = mech_driver_add(sys, &d, NULL, &err);
    mech_contact_def cd = mech_contact_default(); /* the block on the platform: sticking */
    cd.body_a = id[4], cd.body_b = id[3], cd.point[1] = -0.1, cd.surface_point[1] = 0.1;
    cd.normal_law = mech_normal_default(MECH_NORMAL_HERTZ), cd.normal_law.K = 1e6;
    cd.friction = mech_friction_default(MECH_FRICTION_STICK);
    cd.friction.mu = 0.3, cd.friction.mu_s = 0.4, cd.friction.v_eps = 1e-4;
    if (!st) st = mech_contact_add(sys, &cd, NULL, &err);
    cd = mech_contact_default(); /* the sled on the ground: LuGre */
    cd.body_a = id[5], cd.body_b = MECH_GROUND, cd.point[1] = -0.05, cd.surface_point[1] = -0.05;
    cd.normal_law = mech_normal_default(MECH_NORMAL_HUNT_CROSSLEY), cd.normal_law.K = 1e6;
    cd.normal_law.c = 0.5;
    cd.friction = mech_friction_default(MECH_FRICTION_LUGRE);
    if (!st) st = mech_contact_add(sys, &cd, NULL, &err);
    probe p;
    if (st) diag("%s", err.msg);
    if (st || !probe_open(&p, sys, "rigid elements")) {
        mech_system_destroy(sys);
        return;
    }
    check_state(&p, 0.0, "rigid elements");
    /* the block pressed into the platform, sticking then sliding; the sled into the ground */
    set_q(sys, p.y, id[4], 1, p.y[sys->bodies[id[4]].q_at + 1] - 1e-4);
    set_q(sys, p.y, id[5], 1, p.y[sys->bodies[id[5]].q_at + 1] - 1e-4);
    set_u(sys, p.y, id[4], 0, p.y[sys->nq + sys->bodies[id[3]].u_at]);
    set_u(sys, p.y, id[5], 0, 0.01);
    int bristle = sys->contacts[1].bristle;
    if (bristle >= 0) p.y[bristle] = 1e-7;
    check_state(&p, 0.3, "rigid elements, pressed, block sticking");
    set_u(sys, p.y, id[4], 0, 0.05);
    check_state(&p, 0.3, "rigid elements, pressed, block sliding");
    probe_close(&p);
    mech_system_destroy(sys);
}

/* The benchmark slider-crank with a clearance pin, LuGre friction in it, the journal touching. */
static void pin_clearance(void)
{
    mech_error err;
    mech_clearance_def pin;
    memset(&pin, 0, sizeof pin);
    pin.gap = 0.5e-3, pin.radius = 10e-3;
    pin.normal_law = mech_normal_default(MECH_NORMAL_LANKARANI_NIKRAVESH);
    pin.normal_law.K = 1e9;
    pin.friction = mech_friction_default(MECH_FRICTION_LUGRE);
    mech_system *sys = model_slider_crank_pin(50, &pin, &err);
    probe p;
    if (!sys) diag("%s", err.msg);
    if (!probe_open(&p, sys, "clearance pin")) {
        mech_system_destroy(sys);
        return;
    }
    check_state(&p, 0.0, "clearance pin");
    int rod = -1;
    mech_system_find(sys, "rod", &rod);
    set_q(sys, p.y, rod, 0, p.y[sys->bodies[rod].q_at] + 0.55e-3); /* the journal 0.05 mm in */
    int bristle = sys->contacts[0].bristle;
    if (bristle >= 0) p.y[bristle] = 2e-7;
    check_state(&p, 0.01, "clearance pin, the journal touching");
    probe_close(&p);
    mech_system_destroy(sys);
}

/* The spatial slider-crank (ideal joints, driven), and a box slider in a channel with
** clearance and sticking friction, and a journal in a bearing with LuGre friction. */
static void spatial_models(void)
{
    mech_error err;
    mech_system *sys = smodel_slider_crank(-10, 1, &err);
    probe p;
    if (!sys) diag("%s", err.msg);
    if (probe_open(&p, sys, "spatial slider-crank")) {
        check_state(&p, 0.0, "spatial slider-crank");
        probe_close(&p);
    }
    mech_system_destroy(sys);

    double g[3] = {0, 0, -9.81};
    for (int kind = 0; kind < 2; kind++) {
        if (mech_system_create_spatial(&sys, g, &err)) continue;
        mech_sbody_def b = mech_sbody_default();
        b.name = "slider", b.mass = 1;
        b.inertia[0] = b.inertia[1] = b.inertia[2] = 1e-4;
        b.vel[1] = 0.01;
        int sb = -1, other = -1;
        mech_status st = mech_sbody_add(sys, &b, &sb, &err);
        b.name = "other", b.pos[0] = 0.3, b.vel[1] = 0;
        if (!st) st = mech_sbody_add(sys, &b, &other, &err);
        mech_sspring_def sp = mech_sspring_default();
        sp.body_a = sb, sp.body_b = other, sp.k = 200, sp.c = 2;
        if (!st) st = mech_sspring_add(sys, &sp, NULL, &err);
        mech_sjoint_def j = mech_sjoint_default();
        const double F[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0}; /* z along world y */
        memcpy(j.frame_a, F, sizeof F);
        memcpy(j.frame_b, F, sizeof F);
        j.body_a = MECH_GROUND, j.body_b = sb, j.enforce = MECH_CLEARANCE;
        if (kind == 0) {
            j.name = "guide", j.type = MECH_PRISMATIC;
            j.box.cx = j.box.cz = 0.1e-3;
            j.box.length = 30e-3, j.box.width = j.box.height = 15e-3;
            j.box.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
            j.box.normal_law.K = 1e9;
            j.box.friction = mech_friction_default(MECH_FRICTION_STICK);
            j.box.friction.mu = 0.2, j.box.friction.mu_s = 0.3, j.box.friction.v_eps = 1e-4;
        } else {
            j.name = "bear", j.type = MECH_REVOLUTE;
            j.clearance.radial = 0.5e-3, j.clearance.axial = 0.5e-3;
            j.clearance.radius = 10e-3, j.clearance.length = 40e-3;
            j.clearance.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
            j.clearance.normal_law.K = 1e9;
            j.clearance.friction = mech_friction_default(MECH_FRICTION_LUGRE);
        }
        if (!st) st = mech_sjoint_add(sys, &j, NULL, &err);
        const char *label = kind == 0 ? "spatial box in a channel" : "spatial journal in a bearing";
        if (st) diag("%s: %s", label, err.msg);
        if (!st && probe_open(&p, sys, label)) {
            check_state(&p, 0.0, label);
            /* down into the lower wall (z) and tilted a little */
            p.y[sys->bodies[sb].q_at + 2] -= kind == 0 ? 0.15e-3 : 0.6e-3;
            p.y[sys->bodies[sb].q_at + 4] += 1e-3;
            char l2[120];
            snprintf(l2, sizeof l2, "%s, pressed", label);
            check_state(&p, 0.0, l2);
            p.y[sys->nq + sys->bodies[sb].u_at + 1] = 1e-5; /* slow: sticking */
            snprintf(l2, sizeof l2, "%s, pressed, slow", label);
            check_state(&p, 0.0, l2);
            probe_close(&p);
        }
        mech_system_destroy(sys);
    }
}

int main(void)
{
    fe_crank_states(2, 0);
    fe_crank_states(4, 0);
    fe_crank_states(8, 1); /* 4 x 2 would not halve the evaluations: columns one by one */
    fe_pendulum(0);
    fe_pendulum(1);
    rigid_elements();
    pin_clearance();
    spatial_models();
    diag("%d states; the largest difference was %.3g of its tolerance", nchecks, worst_rel);
    return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
** Scenes (mech_scene.h): a body's link ends where its joint's anchor is, a mesh's nodes and
** stresses follow the state, a journal's centre is the bearing's plus the eccentricity and its
** contact's force is the channel's, a spatial body's rotation is its quaternion's; updates
** allocate nothing, creation fails cleanly at every allocation, bad calls are refused.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact.h" /* contact_event: opens a contact, white box */
#include "mech.h"
#include "mech_fault.h"
#include "models.h"
#include "registry.h"
#include "smodels.h"
#include "tap.h"

#define SPEED 523.5987755982989 /* 5000 rpm */

static mech_system *finalized(mech_system *sys)
{
    mech_error err;
    if (sys == NULL || mech_system_finalize(sys, &err)) {
        diag("model: %s", sys ? err.msg : "not built");
        exit(1);
    }
    return sys;
}

static double *state(mech_system *sys)
{
    double *y = calloc((size_t)mech_system_nstate(sys), sizeof(double));
    mech_system_initial_state(sys, y, NULL);
    return y;
}

/* The world position of body b's point s, from its pose in y: pos + R(phi) s. */
static void pin_point(const mech_system *sys, int b, const double *y, const double s[2],
                      double p[2])
{
    const double *q = y + sys->bodies[b].q_at;
    double c = cos(q[2]), sn = sin(q[2]);
    p[0] = q[0] + c * s[0] - sn * s[1];
    p[1] = q[1] + sn * s[0] + c * s[1];
}

/* Whether one of body b's links ends at p (to tol). */
static int link_ends_at(const mech_scene *sc, int b, const double p[2], double tol)
{
    for (int i = 0; i < sc->nitems; i++) {
        const mech_scene_item *it = &sc->items[i];
        if (it->kind == MECH_KIND_BODY && it->id == b && it->role == MECH_SCENE_LINK &&
            fabs(it->p[1][0] - p[0]) <= tol && fabs(it->p[1][1] - p[1]) <= tol)
            return 1;
    }
    return 0;
}

static void test_slider_crank(void)
{
    mech_system *sys = finalized(model_slider_crank(SPEED, NULL));
    mech_scene *sc;
    mech_error err;
    ok(mech_scene_create(sys, &sc, &err) == MECH_OK, "slider-crank: scene made");
    int crank;
    mech_system_find(sys, "crank", &crank);
    const double anchor[2] = {0.025, 0}; /* the crank pin, crank's coordinates */
    double *y = state(sys), p[2];
    pin_point(sys, crank, y, anchor, p);
    ok(link_ends_at(sc, crank, p, 1e-15), "slider-crank: the crank's link ends at its pin");
    y[sys->bodies[crank].q_at + 2] = 0.7; /* another crank angle, the rest as it was */
    mech_scene_update(sc, 0.0, y, &err);
    pin_point(sys, crank, y, anchor, p);
    ok(link_ends_at(sc, crank, p, 1e-15), "slider-crank: ... and at another crank angle");
    int found = 0;
    for (int i = 0; i < sc->nbodies; i++)
        if (sc->bodies[i].id == crank)
            found = fabs(sc->bodies[i].angle - 0.7) < 1e-15 &&
                    fabs(sc->bodies[i].R[3] - sin(0.7)) < 1e-15;
    ok(found, "slider-crank: the crank's pose has the angle set");
    long n0 = mech_alloc_count();
    for (int k = 0; k < 10; k++) mech_scene_update(sc, 0.0, y, &err);
    ok(mech_alloc_count() == n0, "slider-crank: updates allocate nothing");
    mech_scene_free(sc);
    free(y);
    mech_system_destroy(sys);
}

/* A plate alone: nodes at X (1 + eps) stretch it uniformly along x. */
static void test_fe(int plane_strain)
{
    const double E = 2e11, nu = 0.3, eps = 1e-4;
    mech_system *sys;
    const double g[2] = {0, 0};
    mech_system_create(&sys, g, NULL);
    mech_rectangle_def r = mech_rectangle_default();
    r.size[0] = 0.2, r.size[1] = 0.05, r.nx = 4, r.ny = 2, r.origin[0] = 0.1, r.origin[1] = -0.3;
    r.triangles = plane_strain; /* both element types */
    mech_mesh m = mech_mesh_empty();
    mech_mesh_rectangle(&m, &r, NULL);
    mech_fe_def d = mech_fe_default();
    d.name = "plate", d.mesh = &m, d.E = E, d.nu = nu, d.density = 7800, d.thickness = 0.01;
    d.plane_strain = plane_strain;
    int fe;
    mech_fe_add(sys, &d, &fe, NULL);
    finalized(sys);
    mech_scene *sc;
    mech_error err;
    ok(mech_scene_create(sys, &sc, &err) == MECH_OK && sc->nmeshes == 1, "fe: scene made");
    double *y = state(sys);
    int dof = sys->fes[fe].dof0, nq = sys->nq;
    for (int k = 0; k < m.nnodes; k++) {
        y[dof + 2 * k] = m.xy[2 * k] * (1 + eps);
        y[dof + 2 * k + 1] = m.xy[2 * k + 1] + 1e-3 * k; /* a displacement along y too ... */
        y[nq + dof + 2 * k] = 0.1 * k;
    }
    mech_scene_update(sc, 0.0, y, &err);
    const mech_scene_mesh *sm = &sc->meshes[0];
    double dmax = 0, vmax = 0;
    for (int k = 0; k < 2 * m.nnodes; k++) {
        dmax = fmax(dmax, fabs(sm->xy[k] - (m.xy[k] + sm->disp[k])));
        dmax = fmax(dmax, fabs(sm->xy[k] - y[dof + k]));
        vmax = fmax(vmax, fabs(sm->vel[k] - y[nq + dof + k]));
    }
    ok(dmax == 0 && vmax == 0, "fe: positions are the reference plus the displacements of y");
    ok(sm->nelems == m.nelems && sm->conn == sys->fes[fe].mesh.conn, "fe: the mesh's elements");
    /* ... which is no strain only when uniform: set it back to the pure stretch */
    for (int k = 0; k < m.nnodes; k++) y[dof + 2 * k + 1] = m.xy[2 * k + 1];
    mech_scene_update(sc, 0.0, y, &err);
    double sx, sy, sz;
    if (plane_strain) { /* eps_y = eps_z = 0 */
        double f = E / ((1 + nu) * (1 - 2 * nu));
        sx = f * (1 - nu) * eps, sy = sz = f * nu * eps;
    } else {
        sx = E * eps / (1 - nu * nu), sy = nu * E * eps / (1 - nu * nu), sz = 0;
    }
    double vm = sqrt(0.5 * ((sx - sy) * (sx - sy) + (sy - sz) * (sy - sz) + (sz - sx) * (sz - sx)));
    double worst = 0;
    for (int e = 0; e < sm->nelems; e++) worst = fmax(worst, fabs(sm->von_mises[e] - vm) / vm);
    if (!ok(worst <= 1e-9, plane_strain ? "fe: von Mises of a uniform stretch, plane strain"
                                        : "fe: von Mises of a uniform stretch, plane stress"))
        diag("relative error %g (vm %g Pa)", worst, vm);
    long n0 = mech_alloc_count();
    for (int k = 0; k < 10; k++) mech_scene_update(sc, 0.0, y, &err);
    ok(mech_alloc_count() == n0, "fe: updates allocate nothing");
    mech_scene_free(sc);
    free(y);
    mech_mesh_free(&m);
    mech_system_destroy(sys);
}

static const mech_scene_item *joint_item(const mech_scene *sc, int j, mech_scene_role role)
{
    for (int i = 0; i < sc->nitems; i++)
        if (sc->items[i].kind == MECH_KIND_JOINT && sc->items[i].id == j &&
            sc->items[i].role == role)
            return &sc->items[i];
    return NULL;
}

static void test_clearance(void)
{
    mech_clearance_def c = model_benchmark_a_journal();
    mech_system *sys = finalized(model_slider_crank_pin(SPEED, &c, NULL));
    mech_scene *sc;
    mech_error err;
    ok(mech_scene_create(sys, &sc, &err) == MECH_OK, "clearance: scene made");
    int pin, rod;
    mech_system_find(sys, "pin", &pin);
    mech_system_find(sys, "rod", &rod);
    const joint *j = &sys->joints[pin];
    double *y = state(sys);
    /* the rod (the journal's body) moved by e, beyond the clearance: a penetration of 20 um */
    const double a = 0.3, len = c.gap + 20e-6, e[2] = {len * cos(a), len * sin(a)};
    double e0[2];
    const mech_scene_item *bi = joint_item(sc, pin, MECH_SCENE_BEARING),
                          *ji = joint_item(sc, pin, MECH_SCENE_JOURNAL);
    ok(bi && ji && bi->shape == MECH_SCENE_CIRCLE && bi->radius == c.radius &&
           ji->radius == c.radius - c.gap,
       "clearance: bearing and journal circles at their sizes");
    e0[0] = ji->p[0][0] - bi->p[0][0], e0[1] = ji->p[0][1] - bi->p[0][1];
    ok(hypot(e0[0], e0[1]) < 1e-12, "clearance: centred at the start");
    y[sys->bodies[rod].q_at] += e[0];
    y[sys->bodies[rod].q_at + 1] += e[1];
    contact_event(sys, j->contact0, 0.0, y); /* the contact opens, as a run's event would */
    ok(mech_scene_update(sc, 0.0, y, &err) == MECH_OK, "clearance: updated");
    double ex = ji->p[0][0] - bi->p[0][0], ey = ji->p[0][1] - bi->p[0][1];
    ok(fabs(ex - e0[0] - e[0]) < 1e-15 && fabs(ey - e0[1] - e[1]) < 1e-15,
       "clearance: the centres differ by the eccentricity");
    const mech_scene_contact *sk = &sc->contacts[j->contact0];
    ok(sk->kind == MECH_KIND_JOINT && sk->owner == pin && sk->touching && sk->has_point,
       "clearance: the joint's contact touches");
    double fn = sk->fn_mag;
    mech_system_evaluate(sys, 0.0, y, NULL);
    mech_channel ch;
    double want = NAN;
    if (mech_channel_lookup(sys, "pin.journal.fn", &ch, &err) == MECH_OK)
        want = mech_channel_value(sys, &ch);
    else
        diag("channel: %s", err.msg);
    if (!ok(fn > 0 && fabs(fn - want) <= 1e-12 * want, "clearance: fn is the channel's"))
        diag("scene %.17g N, channel %.17g N", fn, want);
    double u[2] = {(ex) / hypot(ex, ey), (ey) / hypot(ex, ey)};
    ok(fabs(sk->normal[0] + u[0]) < 1e-12 && fabs(sk->normal[1] + u[1]) < 1e-12 &&
           fabs(sk->fn[0] + fn * u[0]) < 1e-9 * fn && fabs(sk->fn[1] + fn * u[1]) < 1e-9 * fn,
       "clearance: the normal force pushes the journal back to the centre");
    double rim[2] = {ji->p[0][0] + ji->radius * u[0], ji->p[0][1] + ji->radius * u[1]};
    ok(fabs(sk->point[0] - rim[0]) < 1e-15 && fabs(sk->point[1] - rim[1]) < 1e-15,
       "clearance: the contact point is on the journal's rim");
    long n0 = mech_alloc_count();
    for (int k = 0; k < 10; k++) mech_scene_update(sc, 0.0, y, &err);
    ok(mech_alloc_count() == n0, "clearance: updates allocate nothing");
    /* a state's contacts are those it penetrates, whatever the history says (a run's end) */
    contact *hc = &sys->contacts[j->contact0];
    hc->active = 0;
    mech_scene_update(sc, 0.0, y, &err);
    ok(sk->touching && sk->fn_mag == fn && hc->active == 0,
       "clearance: a penetrating state touches with a history that says open, which stays so");
    y[sys->bodies[rod].q_at] -= e[0];
    y[sys->bodies[rod].q_at + 1] -= e[1];
    hc->active = 1;
    mech_scene_update(sc, 0.0, y, &err);
    ok(!sk->touching && sk->fn_mag == 0 && hc->active == 1,
       "clearance: a centred state does not touch with a history that says closed");
    mech_scene_free(sc);
    ok(!mech_system_evaluated(sys), "clearance: freeing the scene forgets its evaluation");
    free(y);
    mech_system_destroy(sys);
}

static void test_spatial(void)
{
    mech_system *sys = finalized(smodel_slider_crank(-10, 1, NULL));
    mech_scene *sc;
    mech_error err;
    ok(mech_scene_create(sys, &sc, &err) == MECH_OK && sc->dim == 3, "spatial: scene made");
    double *y = state(sys);
    int crank;
    mech_system_find(sys, "crank", &crank);
    double *e = y + sys->bodies[crank].q_at + 3;
    const double turn[4] = {0.8, 0.1, -0.5, 0.3}; /* not of unit length: A(e / |e|) */
    memcpy(e, turn, sizeof turn);
    mech_scene_update(sc, 0.0, y, &err);
    double worst = 0;
    for (int i = 0; i < sc->nbodies; i++) {
        const double *q = y + sys->bodies[sc->bodies[i].id].q_at;
        double A[9];
        mech_quat_matrix(q + 3, A);
        for (int k = 0; k < 9; k++) worst = fmax(worst, fabs(A[k] - sc->bodies[i].R[k]));
        for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(q[k] - sc->bodies[i].pos[k]));
    }
    ok(worst < 1e-15, "spatial: every body's rotation is its quaternion's");
    int links = 0;
    for (int i = 0; i < sc->nitems; i++)
        links += sc->items[i].role == MECH_SCENE_LINK && sc->items[i].id == crank;
    ok(links == 2, "spatial: the crank has two links (to its pivot and its pin)");
    long n0 = mech_alloc_count();
    for (int k = 0; k < 10; k++) mech_scene_update(sc, 0.0, y, &err);
    ok(mech_alloc_count() == n0, "spatial: updates allocate nothing");
    mech_scene_free(sc);
    free(y);
    mech_system_destroy(sys);
}

/* The flexible slider in its guide: one surface line per guide surface, the nodes' contacts
** on them. */
static void test_guide(void)
{
    int fe;
    mech_system *sys = finalized(model_fe_slider_crank(4, 2, 0, &fe, NULL));
    mech_scene *sc;
    mech_error err;
    ok(mech_scene_create(sys, &sc, &err) == MECH_OK, "guide: scene made");
    int surfaces = 0, off = 0;
    for (int i = 0; i < sc->nitems; i++) {
        const mech_scene_item *it = &sc->items[i];
        if (it->role != MECH_SCENE_SURFACE) continue;
        surfaces++;
        /* every contact on it has its point its gap away from the line (the nodes start 2.5 mm
        ** off the surfaces) and a unit normal */
        for (int k = 0; k < sc->ncontacts; k++) {
            const contact *c = &sys->contacts[k];
            const contact *c0 = &sys->contacts[it->id];
            if (c->owner >= 0 || c->b != c0->b || c->nb[1] != c0->nb[1]) continue;
            const mech_scene_contact *o = &sc->contacts[k];
            double d[2] = {o->point[0] - it->p[0][0], o->point[1] - it->p[0][1]};
            double along[2] = {it->p[1][0] - it->p[0][0], it->p[1][1] - it->p[0][1]};
            double cross = fabs(along[0] * d[1] - along[1] * d[0]) / hypot(along[0], along[1]);
            off += !o->has_point || fabs(cross - c->gap) > 1e-12 ||
                   fabs(hypot(o->normal[0], o->normal[1]) - 1) > 1e-15;
        }
    }
    ok(surfaces == 2 && off == 0,
       "guide: two surface lines, each contact's point off it by its gap");
    long n0 = mech_alloc_count();
    for (int k = 0; k < 10; k++) mech_scene_update(sc, 0.0, sys->y0, &err);
    ok(mech_alloc_count() == n0, "guide: updates allocate nothing");
    mech_scene_free(sc);
    mech_system_destroy(sys);
}

/* Every allocation of mech_scene_create failing in turn. */
static void test_nomem(void)
{
#ifdef MECH_FAULT_INJECTION
    mech_clearance_def c = model_benchmark_a_journal();
    mech_system *sys = finalized(model_slider_crank_pin(SPEED, &c, NULL));
    int fails = 0, bad = 0, k;
    for (k = 1; k < 1000; k++) {
        mech_scene *sc = (mech_scene *)&fails; /* must be set to NULL */
        mech_error err;
        mech_fault_arm(k, MECH_FAULT_ONCE);
        mech_status st = mech_scene_create(sys, &sc, &err);
        mech_fault_disarm();
        if (st == MECH_OK) {
            mech_scene_free(sc);
            break;
        }
        fails++;
        bad += st != MECH_ERR_NOMEM || sc != NULL || strstr(err.msg, "mech_scene_create") == NULL;
    }
    ok(fails > 0 && bad == 0, "out of memory at every allocation of mech_scene_create");
    diag("%d allocations failed in turn", fails);
    mech_system_destroy(sys);
#else
    ok(1, "out of memory at every allocation # SKIP no fault injection in this build");
#endif
}

static void test_errors(void)
{
    mech_error err;
    mech_scene *sc = NULL;
    ok(mech_scene_create(NULL, &sc, &err) == MECH_ERR_ARG && sc == NULL &&
           strstr(err.msg, "mech_scene_create") != NULL,
       "a NULL system is refused");
    mech_system *sys = model_slider_crank(SPEED, NULL);
    ok(mech_scene_create(sys, &sc, &err) == MECH_ERR_STATE &&
           strstr(err.msg, "mech_scene_create: the system is not finalized") != NULL,
       "a system not finalized is refused");
    finalized(sys);
    ok(mech_scene_create(sys, NULL, &err) == MECH_ERR_ARG, "a NULL output is refused");
    mech_scene_create(sys, &sc, NULL);
    double *y = state(sys);
    ok(mech_scene_update(NULL, 0, y, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "mech_scene_update") != NULL,
       "updating a NULL scene is refused");
    ok(mech_scene_update(sc, 0, NULL, &err) == MECH_ERR_ARG, "a NULL state is refused");
    mech_body_def b = mech_body_default();
    b.name = "extra", b.mass = 1, b.inertia = 1;
    mech_body_add(sys, &b, NULL, NULL);
    ok(mech_scene_update(sc, 0, y, &err) == MECH_ERR_STATE &&
           strstr(err.msg, "mech_scene_update") != NULL,
       "a system changed since is refused");
    mech_scene_free(sc);
    mech_scene_free(NULL);
    free(y);
    mech_system_destroy(sys);
}

int main(void)
{
    plan(42);
    test_slider_crank();
    test_fe(0);
    test_fe(1);
    test_clearance();
    test_spatial();
    test_guide();
    test_nomem();
    test_errors();
    return done_testing();
}

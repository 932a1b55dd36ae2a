/* SPDX-License-Identifier: MIT */
/*
** Models shared by the C tests and the benchmarks (header only).
*/
#ifndef MECH_TEST_MODELS_H
#define MECH_TEST_MODELS_H

#include <math.h>
#include <stdio.h>

#include "mech.h"

/*
** The slider-crank of benchmark A ([Flores & Ambrosio 2004], module benchmarks): crank
** 0.05 m, rod 0.12 m,
** masses 0.17 / 0.25 / 0.14 kg, inertias 1e-4 / 4e-4 kg m^2 (the slider has none: the
** prismatic guide holds its angle), gravity -y, the crank driven at `speed` rad/s by the
** driver "motor", from crank angle 0 with the ideal mechanism's velocities.  The piston
** pin "pin" is ideal, or with pin != NULL a journal on the rod in a bearing on the slider
** with that clearance.  With motion, the driver follows that function of time instead (speed
** then only sets the starting velocities).  Not finalized.  NULL on failure, with err filled.
*/
static inline mech_system *model_slider_crank_motion(double speed, const mech_clearance_def *pin,
                                                     mech_motion_fn motion, mech_error *err)
{
    mech_system *sys;
    double g[2] = {0, -9.81}, r = 0.05, l = 0.12;
    if (mech_system_create(&sys, g, err)) return NULL;
    mech_body_def b = mech_body_default();
    int crank, rod, slider;
    b.name = "crank", b.mass = 0.17, b.inertia = 1e-4, b.pos[0] = r / 2;
    b.vel[1] = r * speed / 2, b.omega = speed;
    mech_status st = mech_body_add(sys, &b, &crank, err);
    b.name = "rod", b.mass = 0.25, b.inertia = 4e-4, b.pos[0] = r + l / 2;
    b.omega = -r * speed / l;
    if (!st) st = mech_body_add(sys, &b, &rod, err);
    b = mech_body_default();
    b.name = "slider", b.mass = 0.14, b.inertia = 0, b.pos[0] = r + l;
    if (!st) st = mech_body_add(sys, &b, &slider, err);
    mech_joint_def j = mech_joint_default();
    j.body_a = MECH_GROUND, j.body_b = crank, j.pb[0] = -0.025;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    j.body_a = crank, j.body_b = rod, j.pa[0] = 0.025, j.pb[0] = -0.06;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    if (pin) { /* the bearing on the slider, the journal on the rod */
        j.body_a = slider, j.body_b = rod, j.pa[0] = 0, j.pb[0] = 0.06;
        j.enforce = MECH_CLEARANCE, j.clearance = *pin;
    } else {
        j.body_a = rod, j.body_b = slider, j.pa[0] = 0.06, j.pb[0] = 0;
    }
    j.name = "pin";
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    j = mech_joint_default();
    j.type = MECH_PRISMATIC, j.body_a = MECH_GROUND, j.body_b = slider, j.pa[0] = 0.17;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    mech_driver_def d = mech_driver_default();
    d.type = MECH_DRIVE_BODY_ANGLE, d.target = crank, d.speed = speed, d.name = "motor";
    d.fn = motion;
    if (!st) st = mech_driver_add(sys, &d, NULL, err);
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* Benchmark A's journal in its bearing: 0.5 mm of radial clearance, radius 10 mm,
** Lankarani-Nikravesh K = 3.35e10, e = 0.9, Ambrosio friction mu = 0.01. */
static inline mech_clearance_def model_benchmark_a_journal(void)
{
    mech_joint_def j = mech_joint_default(); /* its clearance has the default laws */
    mech_clearance_def c = j.clearance;
    c.gap = 0.5e-3;
    c.radius = 10e-3;
    c.normal_law = mech_normal_default(MECH_NORMAL_LANKARANI_NIKRAVESH);
    c.normal_law.K = 3.35e10;
    c.normal_law.e = 0.9;
    c.friction = mech_friction_default(MECH_FRICTION_AMBROSIO);
    c.friction.mu = 0.01;
    return c;
}

static inline mech_system *model_slider_crank_pin(double speed, const mech_clearance_def *pin,
                                                  mech_error *err)
{
    return model_slider_crank_motion(speed, pin, NULL, err);
}

/*
** How many allocations one simulation of the finalized system sys to t_end makes (method,
** step h for RK4, reporting the nch channels ch every 1e-4 s); -1 when it fails, with err
** filled.  The tests compare two durations: nothing may be allocated while it steps.
*/
static inline long model_run_allocations(mech_system *sys, mech_method method, double h,
                                         double t_end, const char *const *ch, int nch,
                                         mech_error *err)
{
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = method;
    o.integ.h = h;
    o.t_end = t_end;
    o.report = 1e-4;
    o.channels = ch;
    o.nchannels = nch;
    long before = mech_alloc_count();
    mech_run *run;
    mech_status st = mech_simulate(sys, &o, &run, err);
    long used = mech_alloc_count() - before;
    mech_run_free(run);
    return st ? -1 : used;
}

/*
** A planar chain of n links hanging from the ground: links "link1" .. "linkN" of 0.1 m,
** 0.1 kg (a slender rod's inertia), joined end to end by revolute joints "j1" .. "jN" (j1 to
** the ground at the origin), at rest, the links at angles near -0.3 rad that vary along it (no
** two consecutive ones aligned), gravity -y: 2 n Lagrange equations, n degrees of freedom.
** With massless, links 2, 4, ... have no inertia (their rotation follows from the joints: the
** general solve).  Not finalized.  NULL on failure, with err filled.
*/
static inline mech_system *model_chain_massless(int n, int massless, mech_error *err)
{
    mech_system *sys;
    double g[2] = {0, -9.81}, L = 0.1, m = 0.1, p[2] = {0, 0};
    if (mech_system_create(&sys, g, err)) return NULL;
    mech_status st = MECH_OK;
    for (int i = 1; i <= n && !st; i++) {
        char bname[24], jname[24];
        snprintf(bname, sizeof bname, "link%d", i);
        snprintf(jname, sizeof jname, "j%d", i);
        double th = -0.3 + 0.4 * sin(0.7 * i);
        mech_body_def b = mech_body_default();
        b.name = bname, b.mass = m, b.inertia = massless && i % 2 == 0 ? 0 : m * L * L / 12;
        b.pos[0] = p[0] + 0.5 * L * cos(th), b.pos[1] = p[1] + 0.5 * L * sin(th), b.angle = th;
        int id;
        st = mech_body_add(sys, &b, &id, err);
        mech_joint_def j = mech_joint_default();
        j.name = jname, j.body_a = id - 1, j.body_b = id, j.pb[0] = -L / 2;
        if (i > 1) j.pa[0] = L / 2;
        if (!st) st = mech_joint_add(sys, &j, NULL, err);
        p[0] += L * cos(th), p[1] += L * sin(th);
    }
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

static inline mech_system *model_chain(int n, mech_error *err)
{
    return model_chain_massless(n, 0, err);
}

/* The ideal slider-crank of benchmark A. */
static inline mech_system *model_slider_crank(double speed, mech_error *err)
{
    return model_slider_crank_pin(speed, NULL, err);
}

/*
** The slider-crank with a flexible slider of [Zheng & Wang, Sec. 4.2], as stdlib/spec000.lua
** builds it: crank "crank" and rod "rod" on Lagrange revolutes, the moment P0 sin(Omega t) on
** the crank, the slider's nx x ny mesh (nx, ny even) joined at its centre node to the rod's end
** (penalty, or with lagrange an ideal revolute), one contact per surface node against the
** guide's surfaces 2.5 mm away (Kelvin-Voigt, sticking friction).  Not finalized; *fe is the
** flexible body.  NULL on failure, with err filled.
*/
static inline mech_system *model_fe_slider_crank(int nx, int ny, int lagrange, int *fe,
                                                 mech_error *err)
{
    mech_system *sys;
    double g[2] = {0, -9.81}, L1 = 1.8, L2 = 2.0, W = 0.5, H = 0.3, c = 2.5e-3;
    if (mech_system_create(&sys, g, err)) return NULL;
    mech_body_def b = mech_body_default();
    b.name = "crank", b.mass = 2, b.inertia = 2 * L1 * L1 / 12, b.pos[0] = L1 / 2;
    int crank, rod;
    mech_status st = mech_body_add(sys, &b, &crank, err);
    b.name = "rod", b.mass = 1, b.inertia = L2 * L2 / 12, b.pos[0] = L1 + L2 / 2;
    if (!st) st = mech_body_add(sys, &b, &rod, err);
    mech_joint_def j = mech_joint_default();
    j.name = "O", j.body_a = MECH_GROUND, j.body_b = crank, j.pb[0] = -L1 / 2;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    j.name = "A", j.body_a = crank, j.body_b = rod, j.pa[0] = L1 / 2, j.pb[0] = -L2 / 2;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    mech_load_def l = mech_load_default();
    l.name = "P", l.body = crank, l.torque = 1, l.profile = MECH_HARMONIC;
    l.amplitude[0] = 6, l.freq = 3.14159265358979323846 / 6;
    if (!st) st = mech_load_add(sys, &l, NULL, err);
    mech_mesh mesh = mech_mesh_empty();
    mech_rectangle_def rd = mech_rectangle_default();
    rd.size[0] = W, rd.size[1] = H, rd.nx = nx, rd.ny = ny;
    rd.origin[0] = L1 + L2 - W / 2, rd.origin[1] = -H / 2;
    if (!st) st = mech_mesh_rectangle(&mesh, &rd, err);
    mech_fe_def fd = mech_fe_default();
    fd.name = "slider", fd.mesh = &mesh, fd.E = 1000, fd.nu = 0.3, fd.density = 20.0 / 3;
    fd.alpha = 0.01, fd.beta = 0.544;
    if (!st) st = mech_fe_add(sys, &fd, fe, err);
    int centre = 0;
    double best = INFINITY;
    for (int k = 0; !st && k < mesh.nnodes; k++) {
        double d = hypot(mesh.xy[2 * k] - (L1 + L2), mesh.xy[2 * k + 1]);
        if (d < best) best = d, centre = k;
    }
    j = mech_joint_default();
    j.name = "B", j.body_a = rod, j.pa[0] = L2 / 2;
    if (!st) j.body_b = mech_fe_node_body(sys, *fe, centre);
    if (!lagrange) j.enforce = MECH_PENALTY, j.k[0] = j.k[1] = 1e5;
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    for (int k = 0; !st && k < mesh.nnodes; k++) {
        double y = mesh.xy[2 * k + 1];
        if (fabs(fabs(y) - H / 2) > 1e-9) continue;
        mech_contact_def cd = mech_contact_default();
        cd.body_a = mech_fe_node_body(sys, *fe, k);
        cd.body_b = MECH_GROUND;
        cd.surface_point[1] = y > 0 ? H / 2 + c : -(H / 2 + c);
        cd.normal[1] = y > 0 ? -1 : 1;
        cd.flip_tangent = y > 0;
        cd.normal_law = mech_normal_default(MECH_NORMAL_KELVIN_VOIGT);
        cd.normal_law.K = 1e4, cd.normal_law.c = 1e3;
        cd.friction = mech_friction_default(MECH_FRICTION_STICK);
        cd.friction.mu = 0.03, cd.friction.mu_s = 0.04, cd.friction.v_eps = 1e-5;
        st = mech_contact_add(sys, &cd, NULL, err);
    }
    mech_mesh_free(&mesh);
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

#endif

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
** with that clearance.  Not finalized.  NULL on failure, with err filled.
*/
static inline mech_system *model_slider_crank_pin(double speed, const mech_clearance_def *pin,
                                                  mech_error *err)
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
    if (!st) st = mech_driver_add(sys, &d, NULL, err);
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
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

#endif

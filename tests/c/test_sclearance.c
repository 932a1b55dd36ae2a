/* SPDX-License-Identifier: MIT */
/*
** The spatial revolute joint with radial and axial clearance ([Spatial revolute paper]): a
** free journal (a cylinder of 1 kg) in a bearing cavity fixed to the ground, built through
** mech_sjoint_add with MECH_CLEARANCE, run through mech_simulate.
**
**   drop      gravity, frictionless Hertz contact (elastic, no damping): the journal falls and
**             bounces on the bearing's wall many times; the mechanical energy (kinetic +
**             gravity + the contacts' stored energy) stays what it was, the energy balance
**             closes, the onsets are located (tens of impacts counted at both ends, the
**             penetration a small fraction of the clearance);
**   damped    the same with the Lankarani-Nikravesh law (e = 0.8): the mechanical energy only
**             decreases, and what it loses is the contact damping account;
**   axial     no gravity, the journal (tilted by 2 mrad) pushed along the axis: it hits end wall
**             B once, comes back (part of its energy now turns it: the rim point hits off the
**             axis), the energy kept, then hits end wall A;
**   rest      a journal at rest on a damped law: the joint's resultant carries its weight;
**   tumble    a disc that turns over in its bearing leaves it through the far end wall: the
**             run fails, naming the joint, the end and the values, its rows kept;
**   errors    the definition's checks name the joint and the values.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "tap.h"

#define RI 10e-3  /* bearing radius */
#define LI 40e-3  /* bearing length */
#define CR 0.5e-3 /* radial clearance */
#define CA 0.5e-3 /* axial clearance per side */

/* The journal tilted by `tilt` rad about x, moving with vel and omega. */
static mech_system *model(const double g[3], double tilt, const double vel[3],
                          const double omega[3], mech_normal_law law, mech_friction_law fr,
                          mech_error *err)
{
    mech_system *sys = NULL;
    if (mech_system_create_spatial(&sys, g, err)) return NULL;
    mech_sbody_def b = mech_sbody_default();
    b.name = "journal";
    b.mass = 1;
    double r = RI - CR, l = LI - 2 * CA;
    b.inertia[0] = b.inertia[1] = (3 * r * r + l * l) / 12;
    b.inertia[2] = r * r / 2;
    b.quat[0] = cos(tilt / 2);
    b.quat[1] = sin(tilt / 2);
    memcpy(b.vel, vel, sizeof b.vel);
    memcpy(b.omega, omega, sizeof b.omega);
    int jb = -1;
    if (mech_sbody_add(sys, &b, &jb, err)) goto fail;
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "bear";
    j.type = MECH_REVOLUTE;
    j.body_a = MECH_GROUND;
    j.body_b = jb;
    j.enforce = MECH_CLEARANCE;
    j.clearance.radial = CR;
    j.clearance.axial = CA;
    j.clearance.radius = RI;
    j.clearance.length = LI;
    j.clearance.normal_law = law;
    j.clearance.friction = fr;
    if (mech_sjoint_add(sys, &j, NULL, err)) goto fail;
    return sys;
fail:
    mech_system_destroy(sys);
    return NULL;
}

static mech_run *run_for(mech_system *sys, double t_end, const char *const *ch, int nch)
{
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.rtol = 1e-8;
    o.integ.atol = 1e-11;
    o.t_end = t_end;
    o.report = t_end / 2000;
    o.channels = ch;
    o.nchannels = nch;
    mech_run *run = NULL;
    mech_error err;
    if (mech_simulate(sys, &o, &run, &err)) diag("simulate: %s", err.msg);
    if (run) {
        mech_run_stats st = mech_run_get_stats(run);
        diag("steps %ld rejected %ld evaluations %ld wall %.2f s", st.integ.steps,
             st.integ.rejected, st.integ.rhs_evals, st.wall_time);
    }
    return run;
}

static const double *col(const mech_run *run, const char *name)
{
    int i = mech_run_channel_index(run, name);
    if (i < 0) diag("no channel %s", name);
    return i < 0 ? NULL : mech_run_column(run, i);
}

static mech_normal_law hertz(void)
{
    mech_normal_law n = mech_normal_default(MECH_NORMAL_HERTZ);
    n.K = 1e9;
    n.n = 1.5;
    return n;
}

static const char *const CH[] = {"system.energy",
                                 "system.balance",
                                 "system.contact_damping",
                                 "bear.radial_a.impacts",
                                 "bear.radial_b.impacts",
                                 "bear.radial_a.penetration",
                                 "bear.radial_b.penetration",
                                 "bear.radial_a.active",
                                 "journal.vx",
                                 "journal.vz",
                                 "bear.axial_a.impacts",
                                 "bear.axial_b.impacts"};
#define NCH ((int)(sizeof CH / sizeof CH[0]))

/* The energy scale of the drop: the fall across the clearance and the kinetic energy. */
static double scale_of(const double vel[3])
{
    return 9.81 * CR + 0.5 * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
}

static void drop(void)
{
    mech_error err;
    const double g[3] = {0, -9.81, 0}, vel[3] = {0.02, 0, 0.001}, omega[3] = {0.3, 0.2, 5};
    mech_system *sys =
        model(g, 0, vel, omega, hertz(), mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "drop: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    mech_run *run = run_for(sys, 0.2, CH, NCH);
    if (!ok(run != NULL && mech_run_get_status(run) == MECH_RUN_COMPLETE, "drop: the run ends")) {
        if (run) diag("%s", mech_run_message(run));
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run);
    const double *E = col(run, "system.energy"), *B = col(run, "system.balance");
    const double *ia = col(run, "bear.radial_a.impacts"), *ib = col(run, "bear.radial_b.impacts");
    const double *pa = col(run, "bear.radial_a.penetration"),
                 *pb = col(run, "bear.radial_b.penetration");
    double drift = 0, bal = 0, pen = 0;
    for (long i = 0; i < n; i++) {
        drift = fmax(drift, fabs(E[i] - E[0]));
        bal = fmax(bal, fabs(B[i]));
        pen = fmax(pen, fmax(pa[i], pb[i]));
    }
    double S = scale_of(vel);
    diag("drop: %g + %g impacts, energy drift %.3g J (scale %.3g J), balance %.3g J, "
         "penetration %.3g m",
         ia[n - 1], ib[n - 1], drift, S, bal, pen);
    ok(ia[n - 1] >= 10 && ib[n - 1] >= 10, "drop: many radial impacts at both ends, located");
    /* rtol 1e-9 per step over a few thousand steps and tens of impacts: the drift of an
    ** elastic run stays below 1e-5 of the energy that moves (measured: far below) */
    ok(drift <= 1e-5 * S, "drop: elastic contact conserves the mechanical energy");
    ok(bal <= 5e-5 * S, "drop: the energy balance closes");
    ok(pen > 0 && pen < 0.1 * CR, "drop: the penetration is small against the clearance");
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void damped(void)
{
    mech_error err;
    const double g[3] = {0, -9.81, 0}, vel[3] = {0.02, 0, 0}, omega[3] = {0, 0, 5};
    mech_normal_law law = mech_normal_default(MECH_NORMAL_LANKARANI_NIKRAVESH);
    law.K = 1e9;
    law.n = 1.5;
    law.e = 0.8;
    mech_system *sys =
        model(g, 0, vel, omega, law, mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "damped: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    mech_run *run = run_for(sys, 0.15, CH, NCH);
    if (!ok(run != NULL && mech_run_get_status(run) == MECH_RUN_COMPLETE, "damped: the run ends")) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run);
    const double *E = col(run, "system.energy"), *B = col(run, "system.balance"),
                 *D = col(run, "system.contact_damping");
    double S = scale_of(vel), rise = 0, bal = 0;
    for (long i = 1; i < n; i++) {
        rise = fmax(rise, E[i] - E[i - 1]);
        bal = fmax(bal, fabs(B[i]));
    }
    diag("damped: loss %.3g J, largest rise %.3g J, balance %.3g J", E[0] - E[n - 1], rise, bal);
    ok(rise <= 1e-7 * S, "damped: the mechanical energy never rises");
    ok(E[0] - E[n - 1] > 0.1 * S, "damped: the impacts dissipate energy");
    ok(D[n - 1] > 0 && fabs(D[n - 1] - (E[0] - E[n - 1])) <= 1e-5 * S,
       "damped: the loss is the contact damping account");
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void axial(void)
{
    mech_error err;
    const double g[3] = {0, 0, 0}, vel[3] = {0, 0, 0.05}, omega[3] = {0, 0, 0};
    /* tilted by 2 mrad: an aligned flat end meets the flat wall all along its rim, where the
    ** deepest rim point (and the moment of the force) is not unique */
    mech_system *sys =
        model(g, 2e-3, vel, omega, hertz(), mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "axial: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    /* the journal reaches end wall B after CA / v = 10 ms, wall A 2 CA / v = 20 ms later */
    mech_run *run = run_for(sys, 0.035, CH, NCH);
    if (!ok(run != NULL && mech_run_get_status(run) == MECH_RUN_COMPLETE, "axial: the run ends")) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run);
    const double *E = col(run, "system.energy"), *vz = col(run, "journal.vz"),
                 *xa = col(run, "bear.axial_a.impacts"), *xb = col(run, "bear.axial_b.impacts"),
                 *ra = col(run, "bear.radial_a.impacts");
    const double *t = mech_run_time(run);
    long i20 = 0;
    while (i20 < n - 1 && t[i20] < 0.02) i20++;
    ok(xb[i20] == 1 && xa[i20] == 0, "axial: the journal hits end wall B once by 20 ms");
    /* the rim point hits off the axis: part of the energy goes into turning the journal */
    double drift = 0, E0 = 0.5 * 0.05 * 0.05;
    for (long i = 0; i < n; i++) drift = fmax(drift, fabs(E[i] - E0));
    diag("axial: vz %.6g m/s after the first impact, energy drift %.3g J, %g radial impacts",
         vz[i20], drift, ra[n - 1]);
    ok(vz[i20] < -0.02, "axial: it comes back");
    ok(drift <= 5e-5 * E0, "axial: the elastic impact keeps the energy");
    ok(xa[n - 1] >= 1, "axial: then it hits end wall A");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** At rest under gravity on a damped linear law (Kelvin-Voigt K 1e8 N/m, c 1.5e4 N s/m per
** contact: the bounce on the two end contacts and the rocking damped beyond critical, settled
** in about 1e-4 s): after 0.02 s the joint's resultant on the journal is its weight, fy = m g
** to 1e-6 (seen: 7e-11, the integrator's tolerance), with no other component and no moment
** about its centre (its anchor); each end's radial contact carries half, the journal sits
** m g / (2 K) below the clearance (e = CR + that, 1e-6 of it: rounding of e is 1e-19 m).
*/
static void rest(void)
{
    mech_error err;
    const double g[3] = {0, -9.81, 0};
    mech_normal_law law = mech_normal_default(MECH_NORMAL_KELVIN_VOIGT);
    law.K = 1e8;
    law.c = 1.5e4;
    mech_system *sys = NULL;
    if (mech_system_create_spatial(&sys, g, &err)) return;
    mech_sbody_def b = mech_sbody_default();
    b.name = "journal";
    b.mass = 1;
    double r = RI - CR, l = LI - 2 * CA;
    b.inertia[0] = b.inertia[1] = (3 * r * r + l * l) / 12;
    b.inertia[2] = r * r / 2;
    b.pos[1] = -CR; /* on the wall, just touching */
    int jb = -1;
    mech_sbody_add(sys, &b, &jb, &err);
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "bear";
    j.type = MECH_REVOLUTE;
    j.body_b = jb;
    j.enforce = MECH_CLEARANCE;
    j.clearance.radial = CR;
    j.clearance.axial = CA;
    j.clearance.radius = RI;
    j.clearance.length = LI;
    j.clearance.normal_law = law;
    if (!ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_OK, "rest: the model is built")) {
        diag("%s", err.msg);
        mech_system_destroy(sys);
        return;
    }
    char list[1024];
    int id = -1;
    mech_kind kind = mech_system_find(sys, "bear", &id);
    mech_channel_list(sys, kind, id, list, sizeof list);
    ok(strcmp(list, "ex, ey, ez, e, exb, eyb, axial, tilt, angle, impacts, active, fx, fy, fz, f, "
                    "mx, my, mz, m, fx_j, fy_j, fz_j, mx_j, my_j, mz_j, radial_a.gap, "
                    "radial_a.fn, radial_b.gap, radial_b.fn, axial_a.gap, axial_a.fn, "
                    "axial_b.gap, axial_b.fn") == 0,
       "rest: the joint's channels");
    static const char *const ch[] = {"bear.fx",     "bear.fy",          "bear.fz",
                                     "bear.m",      "bear.e",           "bear.eyb",
                                     "bear.active", "bear.radial_a.fn", "bear.radial_b.fn",
                                     "bear.fy_j",   "bear.tilt",        "bear.impacts"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.rtol = 1e-10;
    o.integ.atol = 1e-14;
    o.t_end = 0.02;
    o.report = 1e-3;
    o.channels = ch;
    o.nchannels = (int)(sizeof ch / sizeof ch[0]);
    mech_run *run = NULL;
    if (!ok(mech_simulate(sys, &o, &run, &err) == MECH_OK, "rest: the run ends")) {
        diag("%s", err.msg);
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run) - 1;
    double W = 9.81, d = W / 2 / law.K;
    diag("rest: fy %.12g N, e - CR %.6g m (m g / 2K %.6g m)", col(run, "bear.fy")[n],
         col(run, "bear.e")[n] - CR, d);
    ok(fabs(col(run, "bear.fy")[n] - W) <= 1e-6 * W, "rest: fy is the weight");
    ok(fabs(col(run, "bear.fx")[n]) + fabs(col(run, "bear.fz")[n]) + fabs(col(run, "bear.m")[n]) <=
           1e-9 * W,
       "rest: no other force, no moment about the journal's centre");
    ok(fabs(col(run, "bear.fy_j")[n] - col(run, "bear.fy")[n]) == 0,
       "rest: the bearing's frame is the world's here");
    ok(fabs(col(run, "bear.radial_a.fn")[n] - W / 2) <= 1e-6 * W &&
           fabs(col(run, "bear.radial_b.fn")[n] - W / 2) <= 1e-6 * W &&
           col(run, "bear.active")[n] == 2,
       "rest: each end's radial contact carries half");
    ok(fabs(col(run, "bear.e")[n] - CR - d) <= 1e-6 * d && col(run, "bear.eyb")[n] < 0,
       "rest: the eccentricity is the clearance plus m g / (2 K), downwards");
    ok(col(run, "bear.tilt")[n] <= 1e-12 && col(run, "bear.impacts")[n] == 0,
       "rest: aligned, no impact (it started touching)");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** A disc (radius 8 mm, length 4 mm) turns over in the bearing (radius 10 mm: sqrt(8^2 + 2^2)
** < 10) while drifting along its axis: past 90 degrees end A leads towards end wall B, which
** only end B's axial contact faces, and its rim crosses the wall: the run fails with a
** message naming the joint, the ends, the time and the values, and keeps its rows so far.
*/
static void tumble(void)
{
    mech_error err;
    mech_system *sys = NULL;
    const double g[3] = {0, 0, 0};
    mech_system_create_spatial(&sys, g, &err);
    mech_sbody_def b = mech_sbody_default();
    b.name = "disc";
    b.mass = 1;
    double r = 8e-3, l = 4e-3;
    b.inertia[0] = b.inertia[1] = (3 * r * r + l * l) / 12;
    b.inertia[2] = r * r / 2;
    b.vel[2] = 0.5;
    b.omega[0] = 87;
    int jb = -1;
    mech_sbody_add(sys, &b, &jb, &err);
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "bear";
    j.type = MECH_REVOLUTE;
    j.body_b = jb;
    j.enforce = MECH_CLEARANCE;
    j.clearance.radial = RI - r;
    j.clearance.axial = (LI - l) / 2;
    j.clearance.radius = RI;
    j.clearance.length = LI;
    j.clearance.normal_law = hertz();
    if (!ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_OK, "tumble: the model is built")) {
        diag("%s", err.msg);
        mech_system_destroy(sys);
        return;
    }
    static const char *const ch[] = {"bear.impacts", "bear.tilt"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.rtol = 1e-8;
    o.integ.atol = 1e-11;
    o.t_end = 0.05;
    o.report = 1e-3;
    o.channels = ch;
    o.nchannels = 2;
    mech_run *run = NULL;
    mech_status st = mech_simulate(sys, &o, &run, &err);
    diag("%s", err.msg);
    ok(st == MECH_ERR_NUMERIC && run && mech_run_get_status(run) == MECH_RUN_FAILED,
       "tumble: the run fails");
    ok(strstr(err.msg, "revolute 'bear': the journal's end A left the bearing through end wall B "
                       "at t = ") &&
           strstr(err.msg, "is beyond the half length 0.02 m") &&
           strstr(err.msg, "the journal turned over"),
       "tumble: the message names the joint, the end, the wall and the values");
    double t = NAN;
    const char *at = strstr(err.msg, "end wall B at t = ");
    if (at) sscanf(at + strlen("end wall B at t = "), "%lf", &t);
    long n = run ? mech_run_rows(run) : 0;
    const double *tt = run ? mech_run_time(run) : NULL,
                 *imp = run ? col(run, "bear.impacts") : NULL;
    ok(n >= 20 && imp && tt[n - 1] < t && t > 0.02 && t < 0.03 && imp[n - 1] == 0,
       "tumble: the rows before are kept, no contact was touched");
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void errors(void)
{
    mech_error err;
    mech_system *sys = NULL;
    const double g[3] = {0, 0, 0};
    mech_system_create_spatial(&sys, g, &err);
    mech_sbody_def b = mech_sbody_default();
    b.name = "journal";
    b.mass = 1;
    b.inertia[0] = b.inertia[1] = b.inertia[2] = 1e-4;
    b.pos[1] = -0.6e-3; /* beyond the radial clearance */
    int jb = -1;
    mech_sbody_add(sys, &b, &jb, &err);
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "bear";
    j.type = MECH_REVOLUTE;
    j.body_b = jb;
    j.enforce = MECH_CLEARANCE;
    j.clearance.radial = CR;
    j.clearance.axial = CA;
    j.clearance.radius = RI;
    j.clearance.length = LI;
    j.clearance.normal_law = hertz();
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG && strstr(err.msg, "'bear'") &&
           strstr(err.msg, "inside the bearing"),
       "errors: a journal outside the cavity");
    diag("%s", err.msg);
    ok(mech_system_count(sys, MECH_KIND_CONTACT) == 0 &&
           mech_system_count(sys, MECH_KIND_JOINT) == 0,
       "errors: nothing is left behind");
    j.clearance.radial = 0;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG && strstr(err.msg, "radial 0 m"),
       "errors: a zero radial clearance");
    j.clearance.radial = CR;
    j.clearance.length = 2 * CA;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG && strstr(err.msg, "length"),
       "errors: a bearing too short for the axial clearance");
    j.clearance.length = LI;
    j.clearance.friction = mech_friction_default(MECH_FRICTION_STICK);
    j.clearance.friction.mu = -0.1;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG && strstr(err.msg, "revolute 'bear'") &&
           strstr(err.msg, "mu"),
       "errors: a friction law that its check refuses, named with the joint");
    diag("%s", err.msg);
    j.clearance.friction = mech_friction_default(MECH_FRICTION_NONE);
    j.type = MECH_SPHERICAL;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG && strstr(err.msg, "no clearance"),
       "errors: a spherical joint takes no clearance");
    mech_system_destroy(sys);
}

int main(void)
{
    drop();
    damped();
    axial();
    rest();
    tumble();
    errors();
    return done_testing();
}

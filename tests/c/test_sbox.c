/* SPDX-License-Identifier: MIT */
/*
** The spatial prismatic joint with clearance ([Wang et al. 2025]): a free box slider (1 kg,
** 30 mm long, 15 mm wide and high) in a channel fixed to the ground with 0.1 mm of clearance on
** every side, built through mech_sjoint_add with MECH_CLEARANCE and the per-corner model, run
** through mech_simulate.
**
**   channels  the joint's channel list; the contacts' names;
**   rest      at rest on the floor on a damped law: the floor's four corners carry the weight,
**             the joint's resultant is the weight, no moment about the slider's centre;
**   drop      gravity, thrown sideways with a spin, frictionless Hertz contact (elastic): tens
**             of located impacts on the walls and the floor, the mechanical energy kept;
**   damped    the same with the Lankarani-Nikravesh law: the mechanical energy only decreases,
**             the loss is the contact damping account;
**   friction  the same with Ambrosio's friction: the balance closes with the friction account;
**   newton    the resultant of the contacts is m (a - g) at every row of a run with friction;
**   pose      the offsets and angles of the slider in the channel, turned as given;
**   stick     the stick law in both layouts: pushed below mu_s m g the slider is held, above
**             it slides with (F - mu m g)/m, friction only takes energy;
**   errors    the definition's checks and the start name the joint and the values.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "tap.h"

#define LEN  30e-3  /* slider length (travel) */
#define WID  15e-3  /* slider width (x) */
#define HEI  15e-3  /* slider height (z) */
#define CLR  0.1e-3 /* clearance on each side */
#define MASS 1.0

static mech_sbody_def slider_body(const double pos[3], const double vel[3], const double omega[3])
{
    mech_sbody_def b = mech_sbody_default();
    b.name = "slider";
    b.mass = MASS;
    /* a uniform box: along x (WID), y (LEN, the travel), z (HEI) */
    b.inertia[0] = MASS * (LEN * LEN + HEI * HEI) / 12;
    b.inertia[1] = MASS * (WID * WID + HEI * HEI) / 12;
    b.inertia[2] = MASS * (WID * WID + LEN * LEN) / 12;
    if (pos) memcpy(b.pos, pos, sizeof b.pos);
    if (vel) memcpy(b.vel, vel, sizeof b.vel);
    if (omega) memcpy(b.omega, omega, sizeof b.omega);
    return b;
}

/* The channel on the ground along the world y axis, x lateral (the guide's frame is the
** world's: X = x, Y = y, Z = z): the joint frame's z axis is y, its x axis x. */
static mech_sjoint_def guide_def(int slider, mech_normal_law law, mech_friction_law fr)
{
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "guide";
    j.type = MECH_PRISMATIC;
    j.body_a = MECH_GROUND;
    j.body_b = slider;
    /* columns x = (1, 0, 0), y = (0, 0, -1), z = (0, 1, 0) */
    const double F[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
    memcpy(j.frame_a, F, sizeof F);
    memcpy(j.frame_b, F, sizeof F);
    j.enforce = MECH_CLEARANCE;
    j.box.cx = j.box.cz = CLR;
    j.box.length = LEN;
    j.box.width = WID;
    j.box.height = HEI;
    j.box.normal_law = law;
    j.box.friction = fr;
    return j;
}

static mech_system *model(const double g[3], const mech_sbody_def *b, mech_normal_law law,
                          mech_friction_law fr, mech_error *err)
{
    mech_system *sys = NULL;
    if (mech_system_create_spatial(&sys, g, err)) return NULL;
    int sb = -1;
    if (mech_sbody_add(sys, b, &sb, err)) goto fail;
    mech_sjoint_def j = guide_def(sb, law, fr);
    if (mech_sjoint_add(sys, &j, NULL, err)) goto fail;
    return sys;
fail:
    mech_system_destroy(sys);
    return NULL;
}

static mech_run *run_for(mech_system *sys, double t_end, double rtol, const char *const *ch,
                         int nch)
{
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.rtol = rtol;
    o.integ.atol = rtol * 1e-3;
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

static int complete(mech_run *run, const char *what)
{
    int done = run != NULL && mech_run_get_status(run) == MECH_RUN_COMPLETE;
    char msg[80];
    snprintf(msg, sizeof msg, "%s: the run ends", what);
    if (!ok(done, msg) && run) diag("%s", mech_run_message(run));
    return done;
}

static void channels(void)
{
    mech_error err;
    mech_sbody_def b = slider_body(NULL, NULL, NULL);
    mech_system *sys = model(NULL, &b, hertz(), mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "channels: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    char list[4096];
    int id = -1;
    mech_kind kind = mech_system_find(sys, "guide", &id);
    mech_channel_list(sys, kind, id, list, sizeof list);
    const char *head =
        "x, y, z, roll, pitch, yaw, xpos_mode, xpos_penetration, xpos_fn, xpos_ft, xpos_area, "
        "xpos_stiffness, xneg_mode, xneg_penetration, xneg_fn, xneg_ft, xneg_area, "
        "xneg_stiffness, zpos_mode, zpos_penetration, zpos_fn, zpos_ft, zpos_area, "
        "zpos_stiffness, zneg_mode, zneg_penetration, zneg_fn, zneg_ft, zneg_area, "
        "zneg_stiffness, impacts, active, fx, fy, fz, f, mx, my, mz, m, fx_j, fy_j, fz_j, mx_j, "
        "my_j, mz_j, xpos.c0.gap, xpos.c0.fn, xpos.c1.gap, ";
    ok(strncmp(list, head, strlen(head)) == 0, "channels: the joint's channels");
    ok(strstr(list, "zneg.c7.gap, zneg.c7.fn") != NULL &&
           strcmp(list + strlen(list) - strlen("zneg.c7.fn"), "zneg.c7.fn") == 0,
       "channels: each contact's gap and fn, to the last");
    int cid = -1;
    ok(mech_system_find(sys, "guide.xpos.c0", &cid) == MECH_KIND_CONTACT &&
           mech_system_find(sys, "guide.zneg.c7", &cid) == MECH_KIND_CONTACT,
       "channels: the contacts are guide.xpos.c0 .. guide.zneg.c7");
    char d[1024];
    mech_system_describe(sys, "", d, sizeof d);
    ok(strstr(d, "clearance: channel 0.0152 m wide (x), 0.0152 m high (z); slider 0.03 m long, "
                 "0.015 m wide, 0.015 m high; contacts at the slider's corners; hertz K "
                 "1000000000 n 1.5") != NULL,
       "channels: the joint's description");
    mech_system_destroy(sys);
}

/*
** At rest on the floor under gravity, on a damped linear law (Kelvin-Voigt K 1e8 N/m, c 1e4
** N s/m per contact: the bounce and the rocking on the four corners damped near or beyond
** critical, settled within a few milliseconds): after 0.05 s the floor (zneg) carries the
** weight, each corner a quarter, the joint's resultant is the weight (fz = m g to 1e-6; seen
** at the integrator's tolerance) with no other component and no moment about the slider's
** centre; the floor is in face mode, its penetration m g / (4 K).
*/
static void rest(void)
{
    mech_error err;
    const double g[3] = {0, 0, -9.81}, pos[3] = {0, 0, -CLR};
    mech_normal_law law = mech_normal_default(MECH_NORMAL_KELVIN_VOIGT);
    law.K = 1e8;
    law.c = 1e4;
    mech_sbody_def b = slider_body(pos, NULL, NULL);
    mech_system *sys = model(g, &b, law, mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "rest: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    static const char *const ch[] = {
        "guide.fx",    "guide.fy",      "guide.fz",         "guide.m",
        "guide.z",     "guide.zneg_fn", "guide.zneg_mode",  "guide.zneg_penetration",
        "guide.fz_j",  "guide.fy_j",    "guide.zneg.c0.fn", "guide.zneg.c7.fn",
        "guide.pitch", "guide.roll",    "guide.xpos_fn",    "guide.active"};
    mech_run *run = run_for(sys, 0.05, 1e-10, ch, (int)(sizeof ch / sizeof ch[0]));
    if (!complete(run, "rest")) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run) - 1;
    double W = MASS * 9.81, d = W / 4 / law.K;
    diag("rest: fz %.12g N, floor %.12g N, penetration %.6g m (m g / 4K %.6g m)",
         col(run, "guide.fz")[n], col(run, "guide.zneg_fn")[n],
         col(run, "guide.zneg_penetration")[n], d);
    ok(fabs(col(run, "guide.zneg_fn")[n] - W) <= 1e-6 * W, "rest: the floor carries the weight");
    ok(fabs(col(run, "guide.fz")[n] - W) <= 1e-6 * W, "rest: the resultant fz is the weight");
    ok(fabs(col(run, "guide.fx")[n]) + fabs(col(run, "guide.fy")[n]) +
               fabs(col(run, "guide.m")[n]) <=
           1e-9 * W,
       "rest: no other force, no moment about the slider's centre");
    /* a's joint frame: x = X, y = -Z, z = Y (the travel) */
    ok(col(run, "guide.fy_j")[n] == -col(run, "guide.fz")[n] &&
           col(run, "guide.fz_j")[n] == 0 + col(run, "guide.fy")[n],
       "rest: in a's joint frame the weight is along -y");
    ok(fabs(col(run, "guide.zneg.c0.fn")[n] - W / 4) <= 1e-6 * W &&
           fabs(col(run, "guide.zneg.c7.fn")[n]) == 0 && col(run, "guide.active")[n] == 4,
       "rest: a quarter on each floor corner, the corners above free");
    ok(col(run, "guide.zneg_mode")[n] == 3 &&
           fabs(col(run, "guide.zneg_penetration")[n] - d) <= 1e-6 * d,
       "rest: the floor in face mode, penetrated by m g / (4 K)");
    ok(fabs(col(run, "guide.z")[n] + CLR + d) <= 1e-6 * d &&
           fabs(col(run, "guide.pitch")[n]) < 1e-12 && fabs(col(run, "guide.roll")[n]) < 1e-12 &&
           col(run, "guide.xpos_fn")[n] == 0,
       "rest: the slider's centre at z = -(clearance + m g / 4K), flat");
    mech_run_free(run);
    mech_system_destroy(sys);
}

static const char *const CH[] = {"system.energy",
                                 "system.balance",
                                 "system.contact_damping",
                                 "system.friction",
                                 "guide.impacts",
                                 "guide.xpos_penetration",
                                 "guide.xneg_penetration",
                                 "guide.zpos_penetration",
                                 "guide.zneg_penetration",
                                 "guide.xpos_mode",
                                 "guide.zneg_mode",
                                 "guide.xpos.c0.impacts",
                                 "guide.fx",
                                 "guide.fy",
                                 "guide.fz",
                                 "slider.ax",
                                 "slider.ay",
                                 "slider.az"};
#define NCH ((int)(sizeof CH / sizeof CH[0]))

/* Thrown sideways with a spin and along the travel: the energy scale is the kinetic energy and
** the fall across the clearance. */
static const double VEL[3] = {0.05, 0.02, 0.01}, OMEGA[3] = {0.3, -0.2, 0.5};

static double scale_of(void)
{
    double k = 0.5 * MASS * (VEL[0] * VEL[0] + VEL[1] * VEL[1] + VEL[2] * VEL[2]);
    return k + MASS * 9.81 * 2 * CLR;
}

/* The largest penetration of the four walls over the run, the walls touched. */
static double deepest(const mech_run *run, int *walls)
{
    static const char *const w[] = {"guide.xpos_penetration", "guide.xneg_penetration",
                                    "guide.zpos_penetration", "guide.zneg_penetration"};
    long n = mech_run_rows(run);
    double pen = 0;
    *walls = 0;
    for (int k = 0; k < 4; k++) {
        const double *p = col(run, w[k]);
        double m = -1;
        for (long i = 0; i < n; i++) m = fmax(m, p[i]);
        *walls += m > 0;
        pen = fmax(pen, m);
    }
    return pen;
}

/*
** Elastic: the slider crosses the clearance sideways in 2 ms and bounces between the walls,
** the floor and (spinning) on its corners and edges; tens of impacts, each onset located.
** The mechanical energy (kinetic + gravity + the contacts' stored Hertz energy) is kept to the
** integrator's error: rtol 1e-10 over some thousands of steps keeps it within 1e-6 of the
** energy that moves (a wrong force, a force not the gradient of the stored energy or an impact
** not restarted at its onset changes it by percents).
*/
static void drop(void)
{
    mech_error err;
    const double g[3] = {0, 0, -9.81};
    mech_sbody_def b = slider_body(NULL, VEL, OMEGA);
    mech_system *sys = model(g, &b, hertz(), mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "drop: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    mech_run *run = run_for(sys, 0.05, 1e-10, CH, NCH);
    if (!complete(run, "drop")) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run);
    const double *E = col(run, "system.energy"), *B = col(run, "system.balance");
    double drift = 0, bal = 0, S = scale_of();
    for (long i = 0; i < n; i++) {
        drift = fmax(drift, fabs(E[i] - E[0]));
        bal = fmax(bal, fabs(B[i]));
    }
    int walls;
    double pen = deepest(run, &walls);
    double hits = col(run, "guide.impacts")[n - 1];
    diag("drop: %g impacts on %d walls, energy drift %.3g J (%.3g of the scale %.3g J), balance "
         "%.3g J, deepest penetration %.3g m",
         hits, walls, drift, drift / S, S, bal, pen);
    ok(hits >= 20 && walls >= 3, "drop: tens of impacts on the walls and the floor");
    ok(drift <= 1e-6 * S, "drop: elastic contacts keep the mechanical energy");
    ok(bal <= 1e-6 * S, "drop: the energy balance closes");
    /* Hertz K 1e9 at 0.05 m/s on a corner: (5 m v^2 / 4K)^(2/5) = 2.5e-5 m */
    ok(pen > 0 && pen < 0.5 * CLR, "drop: the penetration stays within the clearance");
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void damped(void)
{
    mech_error err;
    const double g[3] = {0, 0, -9.81};
    mech_normal_law law = mech_normal_default(MECH_NORMAL_LANKARANI_NIKRAVESH);
    law.K = 1e9;
    law.n = 1.5;
    law.e = 0.8;
    mech_sbody_def b = slider_body(NULL, VEL, OMEGA);
    mech_system *sys = model(g, &b, law, mech_friction_default(MECH_FRICTION_NONE), &err);
    if (!ok(sys != NULL, "damped: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    mech_run *run = run_for(sys, 0.05, 1e-10, CH, NCH);
    if (!complete(run, "damped")) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run);
    const double *E = col(run, "system.energy"), *B = col(run, "system.balance"),
                 *D = col(run, "system.contact_damping");
    double S = scale_of(), rise = 0, bal = 0;
    for (long i = 1; i < n; i++) {
        rise = fmax(rise, E[i] - E[i - 1]);
        bal = fmax(bal, fabs(B[i]));
    }
    diag("damped: %g impacts, loss %.3g J, largest rise %.3g J, balance %.3g J",
         col(run, "guide.impacts")[n - 1], E[0] - E[n - 1], rise, bal);
    ok(rise <= 1e-7 * S, "damped: the mechanical energy never rises");
    ok(E[0] - E[n - 1] > 0.1 * S, "damped: the impacts dissipate energy");
    ok(D[n - 1] > 0 && fabs(D[n - 1] - (E[0] - E[n - 1])) <= 1e-6 * S,
       "damped: the loss is the contact damping account");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** With Ambrosio's friction on every contact (mu 0.2): the friction account takes energy, the
** balance closes; and the joint's resultant on the slider is what moves it: m a = F + m g at
** every row (the contacts are the only other force), to the rounding of the accelerations.
*/
static void friction(void)
{
    mech_error err;
    const double g[3] = {0, 0, -9.81};
    mech_friction_law fr = mech_friction_default(MECH_FRICTION_AMBROSIO);
    fr.mu = 0.2;
    fr.v0 = 1e-4;
    fr.v1 = 2e-4;
    mech_normal_law law = mech_normal_default(MECH_NORMAL_LANKARANI_NIKRAVESH);
    law.K = 1e9;
    law.n = 1.5;
    law.e = 0.8;
    mech_sbody_def b = slider_body(NULL, VEL, OMEGA);
    mech_system *sys = model(g, &b, law, fr, &err);
    if (!ok(sys != NULL, "friction: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    mech_run *run = run_for(sys, 0.05, 1e-10, CH, NCH);
    if (!complete(run, "friction")) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run);
    const double *B = col(run, "system.balance"), *Fr = col(run, "system.friction");
    const double *fx = col(run, "guide.fx"), *fy = col(run, "guide.fy"), *fz = col(run, "guide.fz");
    const double *ax = col(run, "slider.ax"), *ay = col(run, "slider.ay"),
                 *az = col(run, "slider.az");
    double S = scale_of(), bal = 0, newton = 0, peak = 0;
    for (long i = 0; i < n; i++) {
        bal = fmax(bal, fabs(B[i]));
        double e = fmax(fabs(MASS * ax[i] - fx[i]),
                        fmax(fabs(MASS * ay[i] - fy[i]), fabs(MASS * (az[i] + 9.81) - fz[i])));
        newton = fmax(newton, e);
        peak = fmax(peak, fmax(fabs(fx[i]), fmax(fabs(fy[i]), fabs(fz[i]))));
    }
    diag("friction: %g impacts, friction %.3g J, balance %.3g J, m a - F - m g up to %.3g N "
         "(peak force %.3g N)",
         col(run, "guide.impacts")[n - 1], Fr[n - 1], bal, newton, peak);
    ok(Fr[n - 1] > 1e-3 * S, "friction: the friction account takes energy");
    ok(bal <= 1e-6 * S, "friction: the energy balance closes");
    ok(newton <= 1e-9 * peak, "friction: the joint's resultant is m (a - g) at every row");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* The slider turned and moved in a channel turned about the world: the channels read back the
** pose given, through the joint's frames. */
static void pose(void)
{
    mech_error err;
    mech_system *sys = NULL;
    mech_system_create_spatial(&sys, NULL, &err);
    /* the guide: a body turned by 0.7 rad about (1, 2, 3) */
    mech_sbody_def gd = mech_sbody_default();
    gd.name = "rail";
    gd.mass = 10;
    gd.inertia[0] = gd.inertia[1] = gd.inertia[2] = 1;
    const double ax[3] = {1, 2, 3};
    mech_quat_from_axis_angle(ax, 0.7, gd.quat, NULL, 0);
    double A[9], Rrel[9], e[4], ang[3] = {0, 0, 0};
    mech_quat_matrix(gd.quat, A);
    int rail = -1, sl = -1;
    mech_sbody_add(sys, &gd, &rail, &err);
    /* the guide's frame in the rail's coordinates: X, Y, Z = the rail's x, y, z; the joint frame
    ** (x, y, z) = (X, -Z, Y) */
    const double F[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
    /* the slider: offset (30, 5, -40) um in the guide's frame, turned by Rz(yaw) Rx(pitch)
    ** Ry(roll) relative to it; its body axes are its box's */
    const double off[3] = {30e-6, 5e-3, -40e-6}, roll = 2e-3, pitch = -1e-3, yaw = 1.5e-3;
    ang[0] = yaw, ang[1] = pitch, ang[2] = roll;
    mech_quat_from_euler("zxy", ang, e, NULL, 0);
    mech_quat_matrix(e, Rrel);
    double R[9];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double s = 0;
            for (int m = 0; m < 3; m++) s += A[3 * i + m] * Rrel[3 * m + k];
            R[3 * i + k] = s;
        }
    mech_sbody_def b = slider_body(NULL, NULL, NULL);
    for (int i = 0; i < 3; i++)
        b.pos[i] = gd.pos[i] + A[3 * i] * off[0] + A[3 * i + 1] * off[1] + A[3 * i + 2] * off[2];
    mech_quat_from_matrix(R, 1e-12, b.quat, NULL, 0);
    mech_sbody_add(sys, &b, &sl, &err);
    mech_sjoint_def j = guide_def(sl, hertz(), mech_friction_default(MECH_FRICTION_NONE));
    j.body_a = rail;
    memcpy(j.frame_a, F, sizeof F);
    memcpy(j.frame_b, F, sizeof F);
    if (!ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_OK, "pose: the model is built")) {
        diag("%s", err.msg);
        mech_system_destroy(sys);
        return;
    }
    mech_system_set_start(sys, MECH_START_AS_GIVEN, &err);
    static const char *const ch[] = {"guide.x",    "guide.y",     "guide.z",
                                     "guide.roll", "guide.pitch", "guide.yaw"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.t_end = 1e-6;
    o.report = 1e-6;
    o.channels = ch;
    o.nchannels = 6;
    mech_run *run = NULL;
    if (!ok(mech_simulate(sys, &o, &run, &err) == MECH_OK, "pose: the run ends"))
        diag("%s", err.msg);
    if (run) {
        const double want[6] = {off[0], off[1], off[2], roll, pitch, yaw};
        double worst = 0;
        for (int i = 0; i < 6; i++) worst = fmax(worst, fabs(col(run, ch[i])[0] - want[i]));
        diag("pose: worst %.3g", worst);
        ok(worst <= 1e-15, "pose: x, y, z, roll, pitch, yaw read back as given");
    }
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void errors(void)
{
    mech_error err;
    mech_system *sys = NULL;
    mech_system_create_spatial(&sys, NULL, &err);
    const double pos[3] = {0, 0, 0.12e-3}; /* the top corners 20 um into the ceiling */
    mech_sbody_def b = slider_body(pos, NULL, NULL);
    int sb = -1;
    mech_sbody_add(sys, &b, &sb, &err);
    mech_sjoint_def j = guide_def(sb, hertz(), mech_friction_default(MECH_FRICTION_NONE));
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "prismatic 'guide': the slider's corner c4 (-x -y +z) is 2e-05 m into "
                           "the channel's wall zpos at the start (channel 0.0152 m wide, 0.0152 m "
                           "high; slider 0.03 m long, 0.015 m wide, 0.015 m high)") != NULL,
       "errors: a slider in the wall at the start, named with its corner and the sizes");
    diag("%s", err.msg);
    int cid;
    ok(mech_system_count(sys, MECH_KIND_JOINT) == 0 &&
           mech_system_find(sys, "guide.xpos.c0", &cid) == MECH_KIND_NONE,
       "errors: nothing is left behind");
    mech_system_destroy(sys);
    mech_system_create_spatial(&sys, NULL, &err);
    b = slider_body(NULL, NULL, NULL);
    mech_sbody_add(sys, &b, &sb, &err);
    j = guide_def(sb, hertz(), mech_friction_default(MECH_FRICTION_NONE));
    j.box.cz = 0;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "the clearances on each side must be > 0 (got x 0.0001 m, z 0 m)"),
       "errors: no clearance");
    j.box.cz = CLR;
    j.box.height = -1;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "the slider's sizes must be > 0 (got length 0.03 m, width 0.015 m, "
                           "height -1 m)"),
       "errors: a size not positive");
    j.box.height = HEI;
    j.box.friction = mech_friction_default(MECH_FRICTION_STICK);
    j.box.friction.mu = 0.3;
    j.box.friction.mu_s = 0.05;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "prismatic 'guide': stick friction: "),
       "errors: a stick law that its check refuses, named with the joint");
    diag("%s", err.msg);
    j.box.friction = mech_friction_default(MECH_FRICTION_COULOMB);
    j.box.friction.mu = -1;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "prismatic 'guide': coulomb friction: "),
       "errors: a friction law that its check refuses, named with the joint");
    j.box.friction = mech_friction_default(MECH_FRICTION_NONE);
    j.box.normal_law.K = 0;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "prismatic 'guide': hertz law: "),
       "errors: a contact law that its check refuses");
    j.box.normal_law = hertz();
    j.box.stiffness = (mech_sbox_stiffness)99;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG && strstr(err.msg, "stiffness model"),
       "errors: an unknown stiffness model");
    j.box.stiffness = MECH_SBOX_CORNERS;
    j.type = MECH_CYLINDRICAL;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_ERR_ARG &&
           strstr(err.msg, "a spatial cylindrical joint takes no clearance (revolute and "
                           "prismatic ones do)"),
       "errors: a cylindrical joint takes no clearance");
    j.type = MECH_PRISMATIC;
    ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_OK, "errors: then the joint is added");
    mech_system_destroy(sys);
}

/*
** Sticking friction ([Zheng & Wang, Eq. 13]: mu_s 0.3, mu 0.2, v_eps 1e-5 m/s) on every contact,
** in both layouts: the corners on a damped Hertz law (Lankarani-Nikravesh K 1e9, n 1.5, e 0.5,
** v_min 1e-3 m/s: settled on the floor within 10 ms) and stiffness = "area" (steel guide,
** aluminium slider, damped likewise).  Started on the floor, the slider settles for T0 = 20 ms,
** then a push F along the travel acts at the centre of its bottom face: in line with the floor's
** contacts, so that the push does not rock the slider (the holding force ignores rotations:
** corners that slip by the rocking would leave the band).
**   F = 1 N < mu_s m g = 2.943 N: the floor's contacts stick and hold it: the slider does not
**     move (its travel within 1e-12 m, a thousandth of the floor's penetration; it was measured
**     at 1e-20 m and below, the rounding of the positions), the friction resultant is -F to 1e-9
**     F, each sticking corner's share is its part of the floor's normal force;
**   F = 4 N > 2.943 N: it slides, the friction is mu F_N, and its acceleration from T0 + 10 ms
**     to the end is (F - mu m g)/m = 2.038 m/s^2: the corners to 1e-6 (measured below 1e-9);
**     the area law to 2e-3 (the slider chatters on its face as it slides, the floor's force
**     between 0 and about 3 m g, as it does with Ambrosio's law: the mean acceleration over
**     40 ms is 8e-4 off, the slider's vertical speed differing at the two ends); in both the
**     friction's impulse along the travel is mu times the floor's, mu m (dvz + g dt), to 1e-6
**     of the momentum gained (measured 6e-16 m/s of 0.061 m/s);
**   both: the friction account never decreases (by more than 1e-15 J, the rounding of slips of
**     1e-14 m/s under 1 N over the run), and with the corners the balance closes (1e-9 J).
*/
#define T0 0.02

static int push_fn(void *ud, double t, const mech_sbody_state *s, double out[6])
{
    (void)s;
    const double *F = ud;
    for (int i = 0; i < 6; i++) out[i] = 0;
    if (t >= T0) out[1] = *F;
    return 0;
}

static void stick_case(int area, double F)
{
    const char *what = area ? "stick, area" : "stick, corners";
    char msg[160];
    mech_error err;
    mech_system *sys = NULL;
    const double g[3] = {0, 0, -9.81}, pos[3] = {0, 0, -CLR};
    mech_system_create_spatial(&sys, g, &err);
    mech_sbody_def b = slider_body(pos, NULL, NULL);
    int sb = -1;
    mech_sbody_add(sys, &b, &sb, &err);
    mech_friction_law fr = mech_friction_default(MECH_FRICTION_STICK);
    fr.mu_s = 0.3;
    fr.mu = 0.2;
    fr.v_eps = 1e-5;
    mech_normal_law law = mech_normal_default(MECH_NORMAL_LANKARANI_NIKRAVESH);
    law.K = 1e9;
    law.n = 1.5;
    law.e = 0.5;
    law.v_min = 1e-3;
    mech_sjoint_def j = guide_def(sb, law, fr);
    if (area) {
        j.box.stiffness = MECH_SBOX_AREA;
        j.box.E_guide = 207e9, j.box.nu_guide = 0.3;
        j.box.E_slider = 70e9, j.box.nu_slider = 0.33;
        j.box.damped = 1;
        j.box.restitution = 0.5;
        j.box.v_min = 1e-3;
    }
    mech_sload_def push = mech_sload_default();
    push.name = "push";
    push.body = sb;
    push.profile = MECH_CALLBACK;
    push.fn = push_fn;
    push.ud = &F;
    push.point[2] = -HEI / 2;
    snprintf(msg, sizeof msg, "%s, F = %g N: the model is built", what, F);
    if (!ok(mech_sjoint_add(sys, &j, NULL, &err) == MECH_OK &&
                mech_sload_add(sys, &push, NULL, &err) == MECH_OK,
            msg)) {
        diag("%s", err.msg);
        mech_system_destroy(sys);
        return;
    }
    /* the floor's contacts: corners c0 .. c3 (bit 2 clear: -Z), or the wall's one */
    static const char *const corners[] = {
        "guide.y",          "slider.vy",           "slider.vz",
        "guide.fy",         "guide.zneg_fn",       "guide.zneg_ft",
        "system.friction",  "system.balance",      "guide.zneg.c0.fn",
        "guide.zneg.c0.ft", "guide.zneg.c0.stick", "guide.zneg.c1.fn",
        "guide.zneg.c1.ft", "guide.zneg.c1.stick", "guide.zneg.c2.fn",
        "guide.zneg.c2.ft", "guide.zneg.c2.stick", "guide.zneg.c3.fn",
        "guide.zneg.c3.ft", "guide.zneg.c3.stick"};
    static const char *const walls[] = {"guide.y",         "slider.vy",       "slider.vz",
                                        "guide.fy",        "guide.zneg_fn",   "guide.zneg_ft",
                                        "system.friction", "system.balance",  "guide.zneg.fn",
                                        "guide.zneg.ft",   "guide.zneg.stick"};
    int nc =
        area ? (int)(sizeof walls / sizeof walls[0]) : (int)(sizeof corners / sizeof corners[0]);
    int ncontacts = area ? 1 : 4;
    double t_end = 0.06;
    mech_run *run = run_for(sys, t_end, 1e-9, area ? walls : corners, nc);
    snprintf(msg, sizeof msg, "%s, F = %g N", what, F);
    if (!complete(run, msg)) {
        mech_run_free(run);
        mech_system_destroy(sys);
        return;
    }
    long n = mech_run_rows(run), k0 = 0, k1 = 0;
    const double *t = mech_run_time(run), *y = col(run, "guide.y"), *vy = col(run, "slider.vy");
    const double *Fr = col(run, "system.friction"), *B = col(run, "system.balance");
    while (k0 < n && t[k0] < T0) k0++;
    while (k1 < n && t[k1] < T0 + 0.01) k1++;
    double slip = 0, vmax = 0, drop = 0, bal = 0;
    for (long i = k0; i < n; i++) {
        slip = fmax(slip, fabs(y[i] - y[k0]));
        vmax = fmax(vmax, fabs(vy[i]));
    }
    for (long i = 0; i < n; i++) {
        if (i > 0) drop = fmax(drop, Fr[i - 1] - Fr[i]);
        bal = fmax(bal, fabs(B[i]));
    }
    long e = n - 1;
    double fy = col(run, "guide.fy")[e], fn = col(run, "guide.zneg_fn")[e];
    double ft = col(run, "guide.zneg_ft")[e], W = MASS * 9.81;
    int stuck = 0;
    double share = 0; /* the largest departure of a contact's friction from its share of F */
    for (int c = 0; c < ncontacts; c++) {
        char nst[40], nfn[40], nft[40];
        const char *pre = area ? "guide.zneg" : "guide.zneg.c";
        char at[4] = "";
        if (!area) snprintf(at, sizeof at, "%d", c);
        snprintf(nst, sizeof nst, "%s%s.stick", pre, at);
        snprintf(nfn, sizeof nfn, "%s%s.fn", pre, at);
        snprintf(nft, sizeof nft, "%s%s.ft", pre, at);
        stuck += col(run, nst)[e] == 1;
        share = fmax(share, fabs(col(run, nft)[e] - F * col(run, nfn)[e] / fn));
    }
    diag("%s, F = %g N: travel %.3g m, |vy| up to %.3g m/s, fy %.12g N, floor %.12g N, friction "
         "%.12g N, %d of %d contacts sticking, shares off by %.3g N; friction account %.6g J, "
         "its largest drop %.3g J; balance %.3g J",
         what, F, slip, vmax, fy, fn, ft, stuck, ncontacts, share, Fr[e], drop, bal);
    if (F < 0.3 * W) {
        snprintf(msg, sizeof msg, "%s, F = %g N < mu_s m g: the slider stays put", what, F);
        ok(slip <= 1e-12 && vmax <= 1e-10, msg);
        snprintf(msg, sizeof msg, "%s, F = %g N: the friction holds it, -F", what, F);
        ok(fabs(fy + F) <= 1e-9 * F && fabs(ft - F) <= 1e-9 * F, msg);
        snprintf(msg, sizeof msg, "%s, F = %g N: its floor contacts stick, by their shares", what,
                 F);
        ok(stuck == ncontacts && share <= 1e-9 * F, msg);
    } else {
        /* the mean acceleration; and with the floor's impulse m (dvz + g dt) in place of m g dt,
        ** the momentum along the travel: dvy = (F dt - mu m (dvz + g dt))/m */
        const double *vz = col(run, "slider.vz");
        double dt = t[e] - t[k1], a = (vy[e] - vy[k1]) / dt, want = (F - 0.2 * W) / MASS;
        double impulse =
            (vy[e] - vy[k1]) - (F * dt - 0.2 * MASS * (vz[e] - vz[k1] + 9.81 * dt)) / MASS;
        diag("%s, F = %g N: acceleration %.9g m/s^2, (F - mu m g)/m %.9g m/s^2; the momentum "
             "along the travel off by %.3g m/s of %.3g m/s",
             what, F, a, want, impulse, vy[e] - vy[k1]);
        snprintf(msg, sizeof msg, "%s, F = %g N > mu_s m g: it slides, a = (F - mu m g)/m", what,
                 F);
        ok(fabs(a - want) <= (area ? 2e-3 : 1e-6) * want, msg);
        snprintf(msg, sizeof msg, "%s, F = %g N: the friction's impulse is mu times the floor's",
                 what, F);
        ok(fabs(impulse) <= 1e-6 * (vy[e] - vy[k1]), msg);
        snprintf(msg, sizeof msg, "%s, F = %g N: kinetic friction, mu F_N, no contact sticking",
                 what, F);
        ok(fabs(ft - 0.2 * fn) <= 1e-9 * fn && stuck == 0, msg);
    }
    snprintf(msg, sizeof msg, "%s, F = %g N: the friction account never decreases", what, F);
    ok(drop <= 1e-15 && Fr[e] >= -1e-15, msg);
    if (!area) {
        snprintf(msg, sizeof msg, "%s, F = %g N: the energy balance closes", what, F);
        ok(bal <= 1e-9, msg);
    }
    mech_run_free(run);
    mech_system_destroy(sys);
}

static void stick(void)
{
    for (int area = 0; area < 2; area++) {
        stick_case(area, 1.0);
        stick_case(area, 4.0);
    }
}

int main(void)
{
    channels();
    rest();
    drop();
    damped();
    friction();
    pose();
    stick();
    errors();
    return done_testing();
}

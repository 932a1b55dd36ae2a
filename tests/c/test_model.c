/* SPDX-License-Identifier: MIT */
/*
** The model interface (mech/model.h) of the planar system, driven through its operations
** only, as the simulator drives it: a pendulum (sizes, right-hand side, kinematics,
** tolerances, full evaluation and channels, the accepted-step hook and its bounds) and a
** block over a floor with LuGre friction (its contact as the model's event, the bristle
** state's tolerance and remedy, the refusal of mech_lyapunov); and the simulator on a model
** whose accepted-step hook changes the state (as the spatial system's will, renormalising its
** quaternions), which the planar system never does.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech.h"
#include "model.h"
#include "sim_impl.h"
#include "tap.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* A bar "bob" of 1 kg, its centre 0.5 m from a revolute joint at the origin, level at rest. */
static mech_system *pendulum(void)
{
    mech_system *sys;
    mech_error err;
    double g[2] = {0, -9.81};
    if (mech_system_create(&sys, g, &err)) return NULL;
    mech_body_def b = mech_body_default();
    b.name = "bob", b.mass = 1, b.inertia = 0.02, b.pos[0] = 0.5;
    int bob = -1;
    mech_status st = mech_body_add(sys, &b, &bob, &err);
    mech_joint_def j = mech_joint_default();
    j.name = "pivot", j.body_a = MECH_GROUND, j.body_b = bob, j.pb[0] = -0.5;
    if (!st) st = mech_joint_add(sys, &j, NULL, &err);
    if (st) {
        diag("pendulum: %s", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* A block "block" whose point (0, -0.05) is `height` above a floor "floor" (LuGre friction),
** sliding at 1 m/s; no joint. */
static mech_system *block_on_floor(double height)
{
    mech_system *sys;
    mech_error err;
    double g[2] = {0, -9.81};
    if (mech_system_create(&sys, g, &err)) return NULL;
    mech_body_def b = mech_body_default();
    b.name = "block", b.mass = 2, b.inertia = 0.01, b.pos[1] = 0.05 + height, b.vel[0] = 1;
    int block = -1;
    mech_status st = mech_body_add(sys, &b, &block, &err);
    mech_contact_def c = mech_contact_default();
    c.name = "floor", c.body_a = block, c.point[1] = -0.05, c.body_b = MECH_GROUND;
    c.normal_law = mech_normal_default(MECH_NORMAL_KELVIN_VOIGT);
    c.normal_law.K = 1e6, c.normal_law.c = 1e2;
    c.friction = mech_friction_default(MECH_FRICTION_LUGRE);
    c.friction.mu = 0.3, c.friction.mu_s = 0.4, c.friction.sigma0 = 1e5;
    if (!st) st = mech_contact_add(sys, &c, NULL, &err);
    if (st) {
        diag("block: %s", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

static double channel(const mech_model *m, const char *name)
{
    mech_channel ch;
    mech_error err;
    if (m->ops->channel_lookup(m->ctx, name, &ch, &err) != MECH_OK) {
        diag("%s", err.msg);
        return -999; /* not NaN: a test of a value must fail on it */
    }
    return model_channel_value(m, &ch);
}

static void test_pendulum(void)
{
    mech_system *sys = pendulum();
    mech_model model, *m = &model;
    mech_error err;
    if (!ok(sys && system_model(sys, m, &err) == MECH_OK, "pendulum: the model is prepared")) {
        mech_system_destroy(sys);
        return;
    }
    int ns = mech_system_nstate(sys);
    ok(m->nq == 3 && m->nu == 3 && m->nq == mech_system_ncoord(sys) &&
           m->nu == mech_system_nvel(sys) && mech_system_dof(sys) == 1,
       "pendulum: 3 positions and 3 velocities (x, y, phi of one body)");
    ok(m->nstate == ns && ns > m->nq + m->nu,
       "pendulum: the state is q, u and the energy accounts after them");
    ok(m->nevents == 0, "pendulum: no events of its own");
    double *y = calloc((size_t)ns, sizeof(double)), *y0 = calloc((size_t)ns, sizeof(double));
    double *f1 = calloc((size_t)ns, sizeof(double)), *f2 = calloc((size_t)ns, sizeof(double));
    double *out = calloc((size_t)ns, sizeof(double));
    mech_system_initial_state(sys, y0, &err);
    ok(memcmp(m->y0, y0, sizeof(double) * (size_t)ns) == 0,
       "pendulum: y0 is the system's initial state");

    /* a state off the start: turned and moving, so that every term of the rhs counts */
    memcpy(y, y0, sizeof(double) * (size_t)ns);
    double th = -0.4;
    y[0] = 0.5 * cos(th), y[1] = 0.5 * sin(th), y[2] = th;
    y[3] = -0.5 * sin(th) * 2.0, y[4] = 0.5 * cos(th) * 2.0, y[5] = 2.0;
    int rc1 = model_rhs(m, 0.3, y, f1), rc2 = mech_system_rhs(sys, 0.3, y, f2);
    ok(rc1 == 0 && rc2 == 0 && memcmp(f1, f2, sizeof(double) * (size_t)ns) == 0,
       "pendulum: the model's rhs is mech_system_rhs bit for bit");
    ok(f1[0] == y[3] && f1[5] != 0, "pendulum: q' = u, and the bar accelerates");

    ok(m->ops->kinematics == NULL, "pendulum: no kinematic map of its own (the identity)");
    double qdot[3] = {NAN, NAN, NAN};
    model_kinematics(m, y, y + m->nq, qdot);
    ok(qdot[0] == y[3] && qdot[1] == y[4] && qdot[2] == y[5],
       "pendulum: model_kinematics gives q' = u");

    m->ops->atol(m->ctx, 1e-7, NULL, out);
    int pos_vel = 1, accounts = 1;
    for (int i = 0; i < m->nq + m->nu; i++) pos_vel &= out[i] == 1e-7;
    for (int i = m->nq + m->nu; i < ns; i++) accounts &= out[i] == 1e300;
    ok(pos_vel, "pendulum: positions and velocities get atol");
    ok(accounts, "pendulum: the energy accounts get 1e300 (they do not steer the steps)");
    m->ops->atol(m->ctx, 1e-7, f1, out);
    ok(memcmp(out, f1, sizeof(double) * (size_t)ns) == 0,
       "pendulum: tolerances given per component are kept");

    ok(model_evaluate(m, 0.3, y, &err) == MECH_OK, "pendulum: full evaluation");
    is_num(channel(m, "bob.x"), y[0], 0, "pendulum: its channels read the evaluated state");
    is_num(channel(m, "bob.omega"), 2.0, 0, "pendulum: omega too");
    ok(m->ops->energy_runaway(m->ctx, y, 1.0, (char[200]){0}, 200) == 0,
       "pendulum: its energy balance holds");
    m->ops->forget(m->ctx);
    ok(isnan(channel(m, "bob.x")), "pendulum: forget leaves no evaluation to read");

    /* the hook after an accepted step, with the limits of a run to t = 1 s */
    ok(model_evaluate(m, 0.0, m->y0, &err) == MECH_OK, "pendulum: evaluated at the start");
    model_limits lim = model_run_limits(m, 1.0, 0);
    ok(lim.scale >= 0.5 && lim.bound == MODEL_RUNAWAY_FACTOR * lim.scale &&
           fabs(lim.elen - lim.scale) <= 1e-15 * lim.scale,
       "pendulum: the run's bound is 1e6 times its scale");
    char why[300] = "";
    ok(m->ops->step_accepted(m->ctx, &lim, 0.1, y, out, why, sizeof why) == MODEL_STEP_KEPT,
       "pendulum: a state within the bound is kept");
    y[1] = -3 * lim.bound;
    int h = m->ops->step_accepted(m->ctx, &lim, 0.1, y, out, why, sizeof why);
    if (!ok(h == MODEL_STEP_FAILED && contains(why, "body 'bob' y = ") &&
                contains(why, "times the model's scale: the motion has run away"),
            "pendulum: a position beyond the bound fails, naming the body"))
        diag("%d: %s", h, why);
    lim = model_run_limits(m, 1.0, 0.25);
    y[1] = 0.5 * sin(th);
    h = m->ops->step_accepted(m->ctx, &lim, 0.1, y, out, why, sizeof why);
    if (!ok(h == MODEL_STEP_FAILED && contains(why, "body 'bob' x = 0.461 m is beyond max_distance "
                                                    "= 0.25 m: the motion has run away"),
            "pendulum: and beyond the user's max_distance"))
        diag("%d: %s", h, why);
    lim = model_run_limits(m, 1.0, INFINITY);
    ok(isinf(lim.bound) && isinf(lim.elen) &&
           m->ops->step_accepted(m->ctx, &lim, 0.1, y, out, why, sizeof why) == MODEL_STEP_KEPT,
       "pendulum: max_distance = inf turns the checks off");

    ok(m->ops->refuse_lyapunov(m->ctx, &err) == MECH_OK, "pendulum: mech_lyapunov may run it");
    double yp[64];
    memcpy(yp, y0, sizeof(double) * (size_t)ns);
    yp[0] += 1e-3, yp[4] += 0.1;
    ok(m->ops->project(m->ctx, 0.0, yp, &err) == MECH_OK && fabs(hypot(yp[0], yp[1]) - 0.5) < 1e-10,
       "pendulum: the projection puts the bar back on its joint");

    /* through mech_simulate: the hook ends the run with its message */
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.t_end = 1, o.report = 0.01, o.max_distance = 0.4;
    mech_run *run = NULL;
    mech_status st = mech_simulate(sys, &o, &run, &err);
    if (!ok(st == MECH_ERR_NUMERIC &&
                contains(err.msg, "(step 1): body 'bob' x = 0.5 m is beyond max_distance = 0.4 "
                                  "m: the motion has run away"),
            "pendulum: mech_simulate stops at the hook's refusal"))
        diag("%s", err.msg);
    mech_run_free(run);
    free(y), free(y0), free(f1), free(f2), free(out);
    mech_system_destroy(sys);
}

static void test_contact(void)
{
    mech_system *sys = block_on_floor(0.01);
    mech_model model, *m = &model;
    mech_error err;
    if (!ok(sys != NULL, "block: built")) return;
    system_model_bind(sys, m);
    mech_status st = m->ops->refuse_lyapunov(m->ctx, &err);
    ok(st == MECH_ERR_ARG && strcmp(err.msg, "lyapunov: systems with contacts are not "
                                             "supported (contact 'floor')") == 0,
       "block: mech_lyapunov refuses it, before it is prepared");
    if (!ok(m->ops->prepare(m, &err) == MECH_OK, "block: then prepared")) {
        mech_system_destroy(sys);
        return;
    }
    ok(m->nevents == 1, "block: its contact is the model's one event");
    int ns = m->nstate, nb = ns - 1; /* the bristle state is the last */
    double y[64], g = NAN;
    memcpy(y, m->y0, sizeof(double) * (size_t)ns);

    m->ops->event_values(m->ctx, 0.0, y, &g);
    ok(model_evaluate(m, 0.0, y, &err) == MECH_OK && g == channel(m, "floor.gap"),
       "block: the event value is the gap channel, bit for bit");
    is_num(g, 0.01, 1e-15, "block: 1 cm above the floor");
    m->ops->events_start(m->ctx, 0.0, y);

    y[1] = 0.05 - 2e-4; /* 0.2 mm into the floor, sinking */
    y[m->nq + 1] = -0.5;
    m->ops->event_values(m->ctx, 0.0, y, &g);
    ok(model_evaluate(m, 0.0, y, &err) == MECH_OK && g == channel(m, "floor.gap") && g < 0,
       "block: and below it (a penetration)");
    y[nb] = 1e-7;
    ok(m->ops->event_crossed(m->ctx, 0, 0.1, y) == 1 && y[nb] == 0,
       "block: the onset changes the rhs and starts its bristles again");
    ok(m->ops->event_crossed(m->ctx, 0, 0.1, y) == 0, "block: a second call finds nothing new");
    ok(model_evaluate(m, 0.1, y, &err) == MECH_OK && channel(m, "floor.impacts") == 1 &&
           channel(m, "floor.fn") > 0,
       "block: the contact now acts (one impact, a normal force)");
    y[1] = 0.06;
    ok(m->ops->event_crossed(m->ctx, 0, 0.2, y) == 1, "block: its end changes the rhs too");

    double atol[64];
    m->ops->atol(m->ctx, 1e-6, NULL, atol);
    is_num(atol[nb], 1e-4 * 0.4 / 1e5, 1e-24,
           "block: the bristle state's tolerance is in proportion to mu_s / sigma0");
    ok(atol[nb - 1] == 1e300, "block: the energy accounts before it get 1e300");
    char what[120];
    m->ops->describe_state(m->ctx, nb, what, sizeof what);
    is_str(what, "contact 'floor' bristle deflection", "block: the model names its states");
    char note[400] = "it failed";
    m->ops->state_notes(m->ctx, nb, note, sizeof note);
    ok(contains(note, "it failed; its bristles relax at sigma0 |v| / g, without bound as fn -> "
                      "0: normalized = true avoids it"),
       "block: the bristle state's remedy");
    char none[40] = "it failed";
    m->ops->state_notes(m->ctx, 0, none, sizeof none);
    is_str(none, "it failed", "block: nothing to add for a position");
    mech_system_destroy(sys);
}

/* ---- a hook that changes the state ---------------------------------------------------- */

static const model_ops *planar;   /* the planar system's own operations */
static int hook_nstate, hook_vy;  /* the state's size, the index of the ball's vy */
static int hook_mode;             /* 1: stop the ball once at t >= 0.5; 2: change nothing, always */
static double hook_t, hook_prev;  /* 1: when it stopped the ball; 2: the time of the last call */
static int hook_calls, hook_back; /* 2: calls, and those again at a cut */

static int changing_hook(void *ctx, const model_limits *lim, double t, const double *y,
                         double *ynew, char *why, size_t size)
{
    int h = planar->step_accepted(ctx, lim, t, y, ynew, why, size);
    if (h != MODEL_STEP_KEPT) return h;
    if (hook_mode == 1 && !(t >= 0.5 && isnan(hook_t))) return MODEL_STEP_KEPT;
    memcpy(ynew, y, sizeof(double) * (size_t)hook_nstate);
    if (hook_mode == 1) {
        ynew[hook_vy] = 0;
        hook_t = t;
    } else {
        hook_calls++;
        /* a call back in time with the ball on the floor's surface (y[1]: its y): at the cut
        ** of a contact's onset or end */
        hook_back += t < hook_prev && fabs(y[1]) < 1e-8;
        hook_prev = t;
    }
    return MODEL_STEP_CHANGED;
}

/* A ball of 1 kg dropped from 1 m (over the floor of the block test when floor is set). */
static mech_system *ball(int floor)
{
    mech_system *sys;
    mech_error err;
    double g[2] = {0, -9.81};
    if (mech_system_create(&sys, g, &err)) return NULL;
    mech_body_def b = mech_body_default();
    b.name = "ball", b.mass = 1, b.inertia = 0.01, b.pos[1] = floor ? 0.1 : 1;
    int id = -1;
    mech_status st = mech_body_add(sys, &b, &id, &err);
    mech_contact_def c = mech_contact_default();
    c.name = "floor", c.body_a = id, c.body_b = MECH_GROUND;
    c.normal_law = mech_normal_default(MECH_NORMAL_KELVIN_VOIGT);
    c.normal_law.K = 1e5, c.normal_law.c = 10;
    if (!st && floor) st = mech_contact_add(sys, &c, NULL, &err);
    if (st) {
        diag("ball: %s", err.msg);
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* The ball simulated through a model whose hook is changing_hook, in mode `mode`. */
static mech_status drop(mech_system *sys, int mode, double t_end, const char *const *ch, int nch,
                        mech_run **run, mech_error *err)
{
    mech_model m;
    *run = NULL;
    mech_status st = system_model(sys, &m, err);
    if (st) return st;
    static model_ops ops;
    planar = m.ops;
    ops = *m.ops;
    ops.step_accepted = changing_hook;
    m.ops = &ops;
    hook_nstate = m.nstate, hook_vy = m.nq + 1, hook_mode = mode;
    hook_t = NAN, hook_prev = -1, hook_calls = hook_back = 0;
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.hmax = 0.013; /* steps that end between the rows */
    o.t_end = t_end, o.report = 0.01;
    o.channels = ch, o.nchannels = nch;
    return sim_run_model(&m, sys, &o, run, err);
}

static void test_changing_hook(void)
{
    mech_system *sys = ball(0);
    mech_error err;
    mech_run *run = NULL;
    static const char *const ch[] = {"ball.y", "ball.vy"};
    mech_status st = sys ? drop(sys, 1, 1.0, ch, 2, &run, &err) : MECH_ERR_ARG;
    if (!ok(st == MECH_OK && run && !isnan(hook_t), "changed state: the run ends")) {
        if (st) diag("%s", err.msg);
    } else {
        long n = mech_run_rows(run);
        const double *t = mech_run_time(run), *y = mech_run_column(run, 0),
                     *vy = mech_run_column(run, 1);
        double worst_before = 0, worst_after = 0, tc = hook_t, yc = 1 - 0.5 * 9.81 * tc * tc;
        for (long i = 0; i < n; i++) {
            if (t[i] <= tc)
                worst_before = fmax(worst_before, fabs(vy[i] + 9.81 * t[i]));
            else
                worst_after =
                    fmax(worst_after, fabs(vy[i] + 9.81 * (t[i] - tc)) +
                                          fabs(y[i] - yc + 0.5 * 9.81 * (t[i] - tc) * (t[i] - tc)));
        }
        if (!ok(n == 101 && tc >= 0.5 && tc < 0.9, "changed state: the hook stopped the ball once"))
            diag("%ld rows, stopped at t = %.9g", n, tc);
        if (!ok(worst_before < 1e-9 && worst_after < 1e-9,
                "changed state: the run restarts from the state the hook changed"))
            diag("worst %g before, %g after the change at t = %.9g", worst_before, worst_after, tc);
    }
    mech_run_free(run);
    mech_system_destroy(sys);

    /* a hook that asks for a restart after every step, on a ball that bounces: at the
    ** contact's onsets the step is cut, and the hook is asked again at the cut */
    sys = ball(1);
    static const char *const ch2[] = {"ball.y", "floor.impacts"};
    st = sys ? drop(sys, 2, 0.5, ch2, 2, &run, &err) : MECH_ERR_ARG;
    if (!ok(st == MECH_OK && run, "restarts: the run ends")) {
        if (st) diag("%s", err.msg);
    } else {
        long n = mech_run_rows(run);
        const double *y = mech_run_column(run, 0), *impacts = mech_run_column(run, 1);
        double lowest = INFINITY;
        for (long i = 0; i < n; i++) lowest = fmin(lowest, y[i]);
        ok(impacts[n - 1] >= 1 && lowest > -0.01 && lowest < 0.001,
           "restarts: the ball bounces on the floor");
        if (!ok(hook_back >= 1 && hook_calls > 10, "restarts: the hook is asked again at a cut"))
            diag("%d calls, %d at a cut", hook_calls, hook_back);
    }
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- the kinematic map reaches the integrator ------------------------------------------- */

static int map_nq, map_calls, map_fail_after; /* the map fails from call map_fail_after on */

/* q' = u written out, as a spatial model's map would be called; fails when told to. */
static int counted_map(void *ctx, const double *q, const double *u, double *qdot)
{
    (void)ctx, (void)q;
    if (++map_calls > map_fail_after) return -1;
    memcpy(qdot, u, sizeof(double) * (size_t)map_nq);
    return 0;
}

/* The pendulum by BDF through sim_run_model, with the model's kinematics replaced by
** counted_map when `mapped`; its angle at 1 s in *phi. */
static mech_status swing(int mapped, int fail_after, double *phi, mech_error *err)
{
    mech_system *sys = pendulum();
    mech_model m;
    mech_run *run = NULL;
    mech_status st = sys ? system_model(sys, &m, err) : MECH_ERR_ARG;
    static model_ops ops;
    if (!st && mapped) {
        ops = *m.ops;
        ops.kinematics = counted_map;
        m.ops = &ops;
    }
    map_nq = m.nq, map_calls = 0, map_fail_after = fail_after;
    static const char *const ch[] = {"bob.phi"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_BDF;
    o.integ.rtol = 1e-8, o.integ.atol = 1e-10;
    o.t_end = 1, o.report = 0.5;
    o.channels = ch, o.nchannels = 1;
    if (!st) st = sim_run_model(&m, sys, &o, &run, err);
    *phi = run && mech_run_rows(run) == 3 ? mech_run_column(run, 0)[2] : NAN;
    mech_run_free(run);
    mech_system_destroy(sys);
    return st;
}

static void test_kinematic_map(void)
{
    mech_error err;
    double plain, mapped;
    mech_status st = swing(0, 0, &plain, &err);
    if (!ok(st == MECH_OK && map_calls == 0, "map: BDF runs the pendulum without a map"))
        diag("%s", st ? err.msg : "the map was called");
    st = swing(1, 1 << 30, &mapped, &err);
    if (!ok(st == MECH_OK && map_calls > 0, "map: the model's map is handed to BDF"))
        diag("%s (%d calls)", st ? err.msg : "", map_calls);
    /* N = I written out gives BDF the same Newton matrices: the same steps */
    ok(isfinite(plain) && plain < -0.1, "map: the pendulum swings down");
    is_num(mapped, plain, 1e-12, "map: the identity map as a function changes nothing");
    st = swing(1, 0, &mapped, &err);
    if (!ok(st != MECH_OK && contains(err.msg, "kinematic map failed"),
            "map: a failing map stops the run with its reason"))
        diag("status %d: %s", (int)st, err.msg);
}

int main(void)
{
    test_pendulum();
    test_contact();
    test_changing_hook();
    test_kinematic_map();
    return done_testing();
}

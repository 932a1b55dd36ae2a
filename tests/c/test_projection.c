/* SPDX-License-Identifier: MIT */
/*
** Projection onto the constraints (mech_sim_options.project): the ideal slider-crank of
** benchmark A held on its joints over 10 s at the default tolerance, with every method; a
** spatial slider-crank's joints and quaternions; conservative mechanisms keep their energy; an
** unprojected run is the integrator's own to the bit; AUTO's decision; the statistics; a bad
** option; events located on the projected dense output; nothing allocated while it steps.
**
** White-box parts: registry.h for the raw quaternions of the evaluated state (the e0..e3
** channels are normalised).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "models.h"
#include "registry.h"
#include "smodels.h"
#include "tap.h"

static const double pi = 3.14159265358979323846;
static const double W = 5000 * 2 * 3.14159265358979323846 / 60; /* 5000 rpm */
static const double R = 0.05, L = 0.12;                         /* crank, rod */

/* The ideal slider-crank's slider position at crank angle th (closed form). */
static double slider_x(double th)
{
    double s = R * sin(th);
    return R * cos(th) + sqrt(L * L - s * s);
}

static mech_system *slider_crank(void)
{
    mech_error err;
    mech_system *sys = model_slider_crank(W, &err);
    if (sys == NULL || mech_system_finalize(sys, &err) != MECH_OK) diag("model: %s", err.msg);
    return sys;
}

typedef struct runspec {
    mech_method method;
    double rtol, atol, h, t_end, report;
    mech_project_mode project;
    const char *const *channels;
    int nchannels;
    const mech_user_channel *user;
    int nuser;
    const mech_event_def *events;
    int nevents;
} runspec;

/* The run of r (NULL when it could not start; a failure is reported). */
static mech_run *simulate(mech_system *sys, const runspec *r)
{
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = r->method;
    if (r->rtol > 0) o.integ.rtol = r->rtol;
    if (r->atol > 0) o.integ.atol = r->atol;
    if (r->h > 0) o.integ.h = r->h;
    o.t_end = r->t_end;
    o.report = r->report > 0 ? r->report : r->t_end / 1000;
    o.project = r->project;
    o.channels = r->channels;
    o.nchannels = r->nchannels;
    o.user_channels = r->user;
    o.nuser_channels = r->nuser;
    o.events = r->events;
    o.nevents = r->nevents;
    mech_run *run = NULL;
    mech_error err;
    if (mech_simulate(sys, &o, &run, &err)) diag("simulate: %s", err.msg);
    return run;
}

static const double *col(const mech_run *run, const char *name)
{
    int i = mech_run_channel_index(run, name);
    if (i < 0) diag("no column %s", name);
    return i < 0 ? NULL : mech_run_column(run, i);
}

/* The largest |c| over the run's rows. */
static double largest(const mech_run *run, const double *c)
{
    double m = 0;
    for (long i = 0; i < mech_run_rows(run); i++) m = fmax(m, fabs(c[i]));
    return m;
}

/* The largest |c[i] - c[0]| over the run's rows. */
static double drift(const mech_run *run, const double *c)
{
    double m = 0;
    for (long i = 0; i < mech_run_rows(run); i++) m = fmax(m, fabs(c[i] - c[0]));
    return m;
}

/* ---- the slider-crank over 10 s -------------------------------------------------------------- */

static const char *const sc_ch[] = {"slider.x", "pin.violation", "system.violation"};

/* The slider-crank's largest pin violation [m] and slider error [m] over a run's rows. */
static void slider_crank_errors(const mech_run *run, double *viol, double *err)
{
    const double *x = col(run, "slider.x"), *t = mech_run_time(run);
    *viol =
        fmax(largest(run, col(run, "pin.violation")), largest(run, col(run, "system.violation")));
    *err = 0;
    for (long i = 0; i < mech_run_rows(run); i++)
        *err = fmax(*err, fabs(x[i] - slider_x(W * t[i])));
}

/*
** DOPRI5 at its default tolerance (rtol 1e-6, atol 1e-9), 10 s (833 turns), rows every 0.01 s:
** without projection Baumgarte stabilisation balances the drift at some 30 um of the pin and
** the slider is 50-60 um off its closed form; projected, every row holds the joints to 1e-9 m
** and the slider is within 1e-6 m of the closed form.  The statistics say what was done.
*/
static void test_slider_crank_dopri5(void)
{
    double viol[2], err[2];
    for (int proj = 0; proj < 2; proj++) {
        mech_system *sys = slider_crank();
        runspec r = {.method = MECH_DOPRI5,
                     .t_end = 10,
                     .project = proj ? MECH_PROJECT_ON : MECH_PROJECT_OFF,
                     .channels = sc_ch,
                     .nchannels = 3};
        mech_run *run = simulate(sys, &r);
        if (!run) {
            ok(0, "the slider-crank runs 10 s");
            mech_system_destroy(sys);
            return;
        }
        slider_crank_errors(run, &viol[proj], &err[proj]);
        mech_run_stats st = mech_run_get_stats(run);
        diag("dopri5, 10 s, %s projection: violation %.3g m, slider off by %.3g m; %ld steps, "
             "%ld of %ld step ends and %ld outputs projected, %ld iterations, %.3g s of %.3g s; "
             "step ends up to %.3g m, %.3g m/s",
             proj ? "with" : "without", viol[proj], err[proj], st.integ.steps,
             st.project.projections, st.project.checks, st.project.outputs, st.project.iterations,
             st.project.time, st.wall_time, st.project.violation, st.project.velocity);
        if (proj) {
            ok(st.project.on == 1, "stats: the run was projected");
            is_num(st.project.period, 2 * pi / W, 1e-12 * st.project.period,
                   "stats: the characteristic period is a turn of the crank");
            ok(st.project.checks == st.integ.steps && st.project.projections > 0 &&
                   st.project.projections < st.project.checks,
               "stats: every step end checked, some projected");
            ok(st.project.outputs > 0 && st.project.outputs <= 1001,
               "stats: the rows projected (the dense output's values)");
            ok(st.project.iterations > 0 &&
                   st.project.iterations <= 8 * (st.project.projections + st.project.outputs),
               "stats: Newton iterations counted");
            ok(st.project.time > 0 && st.project.time < st.wall_time,
               "stats: the time spent is part of the run's");
            /* a step end may keep atol + rtol L, L the model's size 0.17 m; one step's drift
            ** more is found before it is projected */
            ok(st.project.violation > 1e-9 + 1e-6 * 0.17 &&
                   st.project.violation < 2 * (1e-9 + 1e-6 * 0.17),
               "stats: the step ends' violations are held to the positions' tolerance");
        } else {
            ok(st.project.on == 0 && st.project.projections == 0 && st.project.checks == 0,
               "stats: nothing projected when off");
        }
        mech_run_free(run);
        mech_system_destroy(sys);
    }
    ok(viol[0] > 1e-5 && err[0] > 1e-5,
       "without projection the pins drift apart by tens of micrometres");
    ok(viol[1] < 1e-9, "projected: the joints hold to 1e-9 m at every row over 10 s");
    ok(err[1] < 1e-6, "projected: the slider is within 1e-6 m of the closed form over 10 s");
}

/* RK4 (h = 1e-5 s, the papers' step ten times longer) and BDF, 2 s each: the same bounds. */
static void test_slider_crank_methods(void)
{
    const mech_method methods[] = {MECH_RK4, MECH_BDF};
    for (int k = 0; k < 2; k++) {
        mech_system *sys = slider_crank();
        runspec r = {.method = methods[k],
                     .h = methods[k] == MECH_RK4 ? 1e-5 : 0,
                     .t_end = 2,
                     .report = 2e-3,
                     .project = MECH_PROJECT_ON,
                     .channels = sc_ch,
                     .nchannels = 3};
        mech_run *run = simulate(sys, &r);
        char name[120];
        snprintf(name, sizeof name, "%s, 2 s projected: joints within 1e-9 m, slider within 1e-6 m",
                 mech_method_name(methods[k]));
        if (!run) {
            ok(0, name);
        } else {
            double viol, err;
            slider_crank_errors(run, &viol, &err);
            mech_run_stats st = mech_run_get_stats(run);
            diag("%s: violation %.3g m, slider off by %.3g m; %ld steps, %ld projections",
                 mech_method_name(methods[k]), viol, err, st.integ.steps, st.project.projections);
            ok(viol < 1e-9 && err < 1e-6 && st.project.on, name);
            mech_run_free(run);
        }
        mech_system_destroy(sys);
    }
}

/* ---- an unprojected run is the integrator's own ---------------------------------------------- */

/*
** With projection off the run integrates as it did before the option existed: its rows at step
** ends equal, bit for bit, the states of the integrator run by hand on the system's right-hand
** side with the run's settings (tolerances per component: atol for positions and velocities,
** none for the energy accounts).  DOPRI5, 0.5 s, rows on 1e-3 s; the last row, at t_end, is the
** last step's end.
*/
static void test_off_bit_for_bit(void)
{
    mech_system *sys = slider_crank();
    runspec r = {.method = MECH_DOPRI5,
                 .t_end = 0.5,
                 .report = 1e-3,
                 .project = MECH_PROJECT_OFF,
                 .channels = sc_ch,
                 .nchannels = 1};
    mech_run *run = simulate(sys, &r);
    int n = mech_system_nstate(sys), same = 0;
    double y[64], atol[64];
    mech_error err;
    mech_system_initial_state(sys, y, &err);
    for (int i = 0; i < n; i++) atol[i] = i < 18 ? 1e-9 : 1e300;
    mech_integ_options io = mech_integ_default_options();
    io.method = MECH_DOPRI5;
    io.atol_vec = atol;
    io.second_order = 9;
    mech_integ *integ = NULL;
    if (run && mech_integ_create(&integ, n, &io, mech_system_rhs, sys, &err) == MECH_OK &&
        mech_integ_init(integ, 0, y, &err) == MECH_OK) {
        while (mech_integ_time(integ) < 0.5 && mech_integ_step(integ, 0.5, &err) == MECH_OK) {
        }
        /* slider x is the position of body 3 (crank, rod, slider: x, y, phi each) */
        const double *x = col(run, "slider.x");
        same = mech_integ_time(integ) == 0.5 &&
               x[mech_run_rows(run) - 1] == mech_integ_state(integ)[6];
        diag("off: %.17g, by hand: %.17g", x[mech_run_rows(run) - 1], mech_integ_state(integ)[6]);
    }
    ok(same, "projection off: the run's state is the bare integrator's, bit for bit");
    mech_integ_free(integ);
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- AUTO ------------------------------------------------------------------------------------ */

/* Whether a run of the slider-crank to t_end with method m and mode p was projected. */
static int projected(double t_end, mech_method m, mech_project_mode p)
{
    mech_system *sys = slider_crank();
    runspec r = {.method = m,
                 .h = m == MECH_RK4 ? 1e-5 : 0,
                 .t_end = t_end,
                 .project = p,
                 .channels = sc_ch,
                 .nchannels = 1};
    mech_run *run = simulate(sys, &r);
    int on = run ? mech_run_get_stats(run).project.on : -1;
    mech_run_free(run);
    mech_system_destroy(sys);
    return on;
}

/*
** AUTO projects runs longer than 5 characteristic periods (here a turn of the crank, 0.012 s)
** of models with constraints, with the explicit methods; not two turns (the papers' runs), not
** BDF; ON projects those too; a model with nothing to project is never projected.
*/
static void test_auto(void)
{
    ok(projected(0.024, MECH_DOPRI5, MECH_PROJECT_AUTO) == 0, "auto: two turns are not projected");
    ok(projected(0.1, MECH_DOPRI5, MECH_PROJECT_AUTO) == 1, "auto: eight turns are (dopri5)");
    ok(projected(0.1, MECH_RK4, MECH_PROJECT_AUTO) == 1, "auto: eight turns are (rk4)");
    ok(projected(0.1, MECH_BDF, MECH_PROJECT_AUTO) == 0, "auto: not with bdf");
    ok(projected(0.024, MECH_DOPRI5, MECH_PROJECT_ON) == 1 &&
           projected(0.024, MECH_BDF, MECH_PROJECT_ON) == 1,
       "on: whatever the length and the method");
    ok(projected(0.1, MECH_DOPRI5, MECH_PROJECT_OFF) == 0, "off: never");

    /* a falling body: nothing to project, no period either way */
    mech_system *sys;
    mech_error err;
    double g[2] = {0, -9.81};
    mech_system_create(&sys, g, &err);
    mech_body_def b = mech_body_default();
    b.name = "ball", b.mass = 1, b.inertia = 1e-3, b.vel[0] = 1;
    mech_body_add(sys, &b, NULL, &err);
    static const char *const ch[] = {"ball.y"};
    runspec r = {.method = MECH_DOPRI5,
                 .t_end = 10,
                 .project = MECH_PROJECT_ON,
                 .channels = ch,
                 .nchannels = 1};
    mech_run *run = simulate(sys, &r);
    ok(run && mech_run_get_stats(run).project.on == 0,
       "on: a model without constraints or quaternions has nothing to project");
    const char *p = run ? mech_run_parameters(run) : "";
    ok(strstr(p, "projection off (asked on, nothing to project)") != NULL,
       "the run's parameters say why");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* The crank's motion from rest, accelerating at 1000 rad/s^2. */
static int spin_up(void *ud, double t, double out[3])
{
    (void)ud;
    out[0] = 500 * t * t, out[1] = 1000 * t, out[2] = 1000;
    return 0;
}

/*
** AUTO's period comes from the start's motion, whatever the system did before: a second run
** of the same system (whose last evaluation was at its end, the crank at 1000 rad/s) has the
** first run's period, from gravity at the start (the crank at rest).  It once took the
** driver's speed of the last evaluation.
*/
static void test_period_of_the_start(void)
{
    mech_error err;
    mech_system *sys = model_slider_crank_motion(0, NULL, spin_up, &err);
    if (sys == NULL || mech_system_finalize(sys, &err) != MECH_OK) diag("model: %s", err.msg);
    runspec r = {.method = MECH_DOPRI5, .t_end = 1, .channels = sc_ch, .nchannels = 1};
    double period[2] = {0, 0};
    for (int i = 0; i < 2 && sys; i++) {
        mech_run *run = simulate(sys, &r);
        period[i] = run ? mech_run_get_stats(run).project.period : NAN;
        mech_run_free(run);
    }
    diag("periods %.9g s and %.9g s", period[0], period[1]);
    ok(period[0] == period[1] && period[0] > 0.1 && period[0] < 10,
       "auto: a second run's period is the start's, as the first run's");
    mech_system_destroy(sys);
}

/* The parameters record the setting and AUTO's reasoning; a bad mode is refused. */
static void test_parameters_and_errors(void)
{
    mech_system *sys = slider_crank();
    runspec r = {.method = MECH_DOPRI5, .t_end = 0.1, .channels = sc_ch, .nchannels = 1};
    mech_run *run = simulate(sys, &r);
    const char *p = run ? mech_run_parameters(run) : "";
    if (!ok(strstr(p, "projection on (auto: t = 0.1 s is 8.33 characteristic periods of 0.012 s, "
                      "more than 5)") != NULL,
            "parameters: the projection and why"))
        diag("%s", p);
    mech_run_free(run);

    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.t_end = 0.1;
    o.report = 0.01;
    o.project = (mech_project_mode)7;
    mech_error err;
    run = NULL;
    mech_status st = mech_simulate(sys, &o, &run, &err);
    ok(st == MECH_ERR_ARG && run == NULL &&
           strstr(err.msg, "project = 7: must be MECH_PROJECT_AUTO, MECH_PROJECT_OFF or "
                           "MECH_PROJECT_ON") != NULL,
       "a bad mode is refused, naming the option and the choices");
    mech_system_destroy(sys);
}

/* ---- spatial --------------------------------------------------------------------------------- */

/* | |e| - 1 | of the evaluated state's quaternions, the largest over the bodies. */
static int quat_norm(void *ud, const mech_system *sys, double t, double *value)
{
    (void)ud, (void)t;
    *value = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        const double *e = sys->q + sys->bodies[b].q_at + 3;
        double n = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
        *value = fmax(*value, fabs(n - 1));
    }
    return 0;
}

/* The spatial slider-crank's slider y at crank angle th (as test_spatial_system.c). */
static double sslider_y(double th)
{
    double c = cos(th), s = sin(th), xp = -0.1 + 0.1 * s, zp = 0.12 + 0.1 * c;
    return sqrt(SMODEL_ROD * SMODEL_ROD - xp * xp - zp * zp);
}

/*
** The spatial slider-crank driven at 6 pi rad/s for 10 s (30 turns) at DOPRI5's default
** tolerance: projected, its joints (revolute, spherical, universal, prismatic) hold to 1e-9 at
** every row, the quaternions of the evaluated states are unit to 1e-12, and the slider is within
** 1e-6 m of its closed form; without, the joints drift by far more.
*/
static void test_spatial(void)
{
    static const char *const ch[] = {"slider.y", "system.violation"};
    mech_user_channel uc = {.name = "norm", .unit = "-", .fn = quat_norm};
    double viol[2] = {0, 0}, err[2] = {0, 0}, nrm[2] = {0, 0};
    for (int proj = 0; proj < 2; proj++) {
        mech_error e;
        mech_system *sys = smodel_slider_crank(-6 * pi, 1, &e);
        runspec r = {.method = MECH_DOPRI5,
                     .t_end = 10,
                     .report = 0.01,
                     .project = proj ? MECH_PROJECT_ON : MECH_PROJECT_OFF,
                     .channels = ch,
                     .nchannels = 2,
                     .user = &uc,
                     .nuser = 1};
        mech_run *run = sys ? simulate(sys, &r) : NULL;
        if (run) {
            const double *y = col(run, "slider.y"), *t = mech_run_time(run);
            viol[proj] = largest(run, col(run, "system.violation"));
            nrm[proj] = largest(run, col(run, "norm"));
            for (long i = 0; i < mech_run_rows(run); i++)
                err[proj] = fmax(err[proj], fabs(y[i] - sslider_y(-6 * pi * t[i])));
            diag("spatial, %s projection: violation %.3g, slider off by %.3g m, | |e| - 1 | up to "
                 "%.3g; %ld projections",
                 proj ? "with" : "without", viol[proj], err[proj], nrm[proj],
                 mech_run_get_stats(run).project.projections);
        }
        mech_run_free(run);
        mech_system_destroy(sys);
    }
    ok(viol[1] < 1e-9 && viol[0] > 100 * viol[1],
       "spatial: the joints hold to 1e-9 at every row projected, and drift without");
    ok(nrm[1] < 1e-12, "spatial: the quaternions are unit to 1e-12");
    ok(err[1] < 1e-6, "spatial: the slider is within 1e-6 m of the closed form");
}

/* ---- energy ---------------------------------------------------------------------------------- */

/* A Grashof crank-rocker (ground 0.3 m, crank 0.1, coupler 0.3, rocker 0.25) under gravity,
** no driver, no damping: the crank starts up at omega rad/s. */
static mech_system *four_bar(double omega)
{
    mech_system *sys;
    mech_error err;
    double g[2] = {0, -9.81};
    mech_system_create(&sys, g, &err);
    mech_body_def b = mech_body_default();
    int crank, coupler, rocker;
    b.name = "crank", b.mass = 0.2, b.inertia = 2e-4, b.pos[1] = 0.05, b.angle = pi / 2;
    b.omega = omega;
    mech_body_add(sys, &b, &crank, &err);
    b = mech_body_default();
    b.name = "coupler", b.mass = 0.4, b.inertia = 3e-3, b.pos[0] = 0.1308, b.pos[1] = 0.1735;
    b.angle = 0.5122;
    mech_body_add(sys, &b, &coupler, &err);
    b = mech_body_default();
    b.name = "rocker", b.mass = 0.3, b.inertia = 1.6e-3, b.pos[0] = 0.2808, b.pos[1] = 0.1235;
    b.angle = 1.7254;
    mech_body_add(sys, &b, &rocker, &err);
    /* the joints at world points: each anchor in its body's coordinates */
    const int a[4] = {MECH_GROUND, crank, coupler, MECH_GROUND};
    const int c[4] = {crank, coupler, rocker, rocker};
    const double at[4][2] = {{0, 0}, {0, 0.1}, {0.2615, 0.247}, {0.3, 0}};
    const double pose[4][3] = {{0, 0, 0},
                               {0, 0.05, pi / 2},
                               {0.1308, 0.1735, 0.5122},
                               {0.2808, 0.1235, 1.7254}}; /* ground, crank, coupler, rocker */
    for (int k = 0; k < 4; k++) {
        mech_joint_def j = mech_joint_default();
        j.body_a = a[k], j.body_b = c[k];
        for (int side = 0; side < 2; side++) {
            int bd = side ? c[k] : a[k];
            const double *p = pose[bd == MECH_GROUND ? 0 : bd == crank ? 1 : bd == coupler ? 2 : 3];
            double dx = at[k][0] - p[0], dy = at[k][1] - p[1], cs = cos(p[2]), sn = sin(p[2]);
            double *anchor = side ? j.pb : j.pa;
            anchor[0] = cs * dx + sn * dy;
            anchor[1] = -sn * dx + cs * dy;
        }
        if (mech_joint_add(sys, &j, NULL, &err)) diag("four-bar: %s", err.msg);
    }
    if (mech_system_finalize(sys, &err)) diag("four-bar: %s", err.msg);
    return sys;
}

/*
** Energy-conserving runs stay conserving.  A step end is projected only when its violation
** exceeds the positions' tolerance, so a conservative mechanism whose Baumgarte-held violation
** stays below it runs as without projection, only its rows projected (the crank-rocker at 3
** rad/s).  Where step ends are projected the energy moves by two things: the projection's own
** change, of the size of the violation it removes (the velocity step only takes kinetic energy
** out, |du|_M^2 / 2; the position step changes the potential by -Q . dq), and the work of the
** constraint forces on the drift that builds the violation up again between projections, which
** Baumgarte stabilisation would have given back: some max|lambda| |dq| per projection.
** Measured on the crank-rocker at rtol 1e-6 over 10 and 30 s: 1.0 to 1.9 times the drift
** without projection from 20 to 60 rad/s, the drift growing linearly in both.  Asserted: the
** crank-rocker at 3, 30 and 50 rad/s and the spatial slider-crank free under gravity, 30 s at
** DOPRI5's default tolerance and at rtol 1e-8: at most twice the drift without projection, and
** falling with the tolerance.
*/
static void test_energy(void)
{
    static const char *const ch[] = {"system.energy"};
    static const char *const names[] = {"four-bar at 3 rad/s", "four-bar at 30 rad/s",
                                        "four-bar at 50 rad/s", "spatial slider-crank"};
    for (int model = 0; model < 4; model++) {
        double dE[2][2];
        long steps_projected = 0;
        for (int tol = 0; tol < 2; tol++) {
            for (int proj = 0; proj < 2; proj++) {
                mech_error e;
                mech_system *sys = model == 3 ? smodel_slider_crank(-2 * pi, 0, &e)
                                              : four_bar(model == 0   ? 3
                                                         : model == 1 ? 30
                                                                      : 50);
                runspec r = {.method = MECH_DOPRI5,
                             .rtol = tol ? 1e-8 : 1e-6,
                             .atol = tol ? 1e-11 : 1e-9,
                             .t_end = 30,
                             .report = 0.01,
                             .project = proj ? MECH_PROJECT_ON : MECH_PROJECT_OFF,
                             .channels = ch,
                             .nchannels = 1};
                mech_run *run = simulate(sys, &r);
                dE[tol][proj] = run ? drift(run, col(run, "system.energy")) : INFINITY;
                if (run && proj && !tol)
                    steps_projected = mech_run_get_stats(run).project.projections;
                mech_run_free(run);
                mech_system_destroy(sys);
            }
            diag("%s, rtol %g: energy drift %.3g J without projection, %.3g J with", names[model],
                 tol ? 1e-8 : 1e-6, dE[tol][0], dE[tol][1]);
        }
        diag("%s: %ld step ends projected at rtol 1e-6", names[model], steps_projected);
        char name[160];
        snprintf(name, sizeof name,
                 "%s: the energy drift with projection is at most twice the drift without",
                 names[model]);
        ok(dE[0][1] <= 2 * dE[0][0] && dE[1][1] <= 2 * dE[1][0], name);
        snprintf(name, sizeof name, "%s: and falls with the tolerance", names[model]);
        ok(dE[1][1] < 0.1 * dE[0][1], name);
        if (model == 1 || model == 2) {
            snprintf(name, sizeof name, "%s: step ends were projected", names[model]);
            ok(steps_projected > 0, name);
        }
    }
}

/* ---- events ---------------------------------------------------------------------------------- */

/*
** Events are located on the projected dense output, and a step truncated at one is projected
** as its values are: the slider passing x = 0.1 m downwards over 1 s, each within the location
** tolerance (1e-12 s) of the closed form's time, with the recorded slider.x at its level and the
** joints held; the crank passing 2 pi k (a periodic event) with the slider at r + l; a stopping
** event ends the run there, on the constraints.
*/
static void test_events(void)
{
    mech_system *sys = slider_crank();
    mech_event_def ev[2] = {
        {.name = "pass", .channel = "slider.x", .level = 0.1, .direction = -1},
        {.name = "turn", .channel = "crank.phi", .period = 2 * pi, .direction = 1}};
    static const char *const ch[] = {"slider.x", "pin.violation", "crank.phi"};
    runspec r = {.method = MECH_DOPRI5,
                 .t_end = 1,
                 .project = MECH_PROJECT_ON,
                 .channels = ch,
                 .nchannels = 3,
                 .events = ev,
                 .nevents = 2};
    mech_run *run = simulate(sys, &r);
    /* the closed form's crossing: cos th = (x^2 + r^2 - l^2) / (2 x r), th in (0, pi) */
    double x0 = 0.1, th0 = acos((x0 * x0 + R * R - L * L) / (2 * x0 * R));
    long npass = 0, nturn = 0;
    double dt = 0, dx = 0, dv = 0, dturn = 0;
    for (long k = 0; run && k < mech_run_nevents(run); k++) {
        int def;
        double t;
        const double *v;
        mech_run_event(run, k, &def, &t, &v);
        dv = fmax(dv, fabs(v[1]));
        if (def == 0) {
            double th = th0 + 2 * pi * (double)npass++;
            dt = fmax(dt, fabs(t - th / W));
            dx = fmax(dx, fabs(v[0] - x0));
        } else {
            double th = 2 * pi * (double)++nturn;
            dturn = fmax(dturn, fmax(fabs(t - th / W), fabs(v[0] - (R + L))));
        }
    }
    diag("events: %ld passes off by %.3g s and %.3g m, %ld turns off by %.3g, violation %.3g",
         npass, dt, dx, nturn, dturn, dv);
    ok(npass == 84 && nturn == 83, "events: 84 passes and 83 turns in 1 s");
    ok(dt < 1e-11 && dx < 1e-9, "events: each pass at the closed form's time, at the level");
    ok(dturn < 1e-9, "events: each turn at its time, the slider at r + l");
    ok(dv < 1e-9, "events: the joints hold at the events");
    mech_run_free(run);

    ev[0].action = MECH_EVENT_STOP;
    r.nevents = 1;
    run = simulate(sys, &r);
    const double *t = run ? mech_run_time(run) : NULL;
    ok(run && mech_run_get_status(run) == MECH_RUN_STOPPED && mech_run_nevents(run) == 1,
       "a stopping event ends the run");
    if (run) {
        int def;
        double te;
        const double *v;
        mech_run_event(run, 0, &def, &te, &v);
        diag("stopped at %.17g (closed form %.17g), last row %.17g", te, th0 / W,
             t[mech_run_rows(run) - 1]);
        ok(fabs(te - th0 / W) < 1e-11 && fabs(v[0] - x0) < 1e-9 && v[1] < 1e-9,
           "at the closed form's time, on the constraints");
    } else {
        ok(0, "at the closed form's time, on the constraints");
    }
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- allocations ----------------------------------------------------------------------------- */

static long allocations_for(double t_end, mech_method method)
{
    mech_system *sys = slider_crank();
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = method;
    o.integ.h = 1e-5;
    o.t_end = t_end;
    o.report = 1e-4;
    o.project = MECH_PROJECT_ON;
    o.channels = sc_ch;
    o.nchannels = 3;
    long before = mech_alloc_count();
    mech_run *run;
    mech_error err;
    mech_status st = mech_simulate(sys, &o, &run, &err);
    long used = mech_alloc_count() - before;
    if (st) diag("simulate: %s", err.msg);
    mech_run_free(run);
    mech_system_destroy(sys);
    return st ? -1 : used;
}

static void test_allocations(void)
{
    const mech_method methods[] = {MECH_RK4, MECH_DOPRI5, MECH_BDF};
    for (int k = 0; k < 3; k++) {
        long a1 = allocations_for(0.02, methods[k]), a2 = allocations_for(0.04, methods[k]);
        char name[120];
        snprintf(name, sizeof name,
                 "%s projected: allocations do not grow with the number of steps",
                 mech_method_name(methods[k]));
        if (!ok(a1 == a2 && a1 > 0, name)) diag("%ld vs %ld allocations", a1, a2);
    }
}

int main(void)
{
    test_slider_crank_dopri5();
    test_slider_crank_methods();
    test_off_bit_for_bit();
    test_auto();
    test_period_of_the_start();
    test_parameters_and_errors();
    test_spatial();
    test_energy();
    test_events();
    test_allocations();
    return done_testing();
}

/* SPDX-License-Identifier: MIT */
/*
** Spatial systems end to end: models built with the public API (mech_spatial.h), run by
** mech_simulate, read from the runs' channels, against closed forms and conservation laws;
** the projection of the quaternions; and bad input through the C API.
**
** Tolerances of the conservation laws.  DOPRI5 accepts a step when its error estimate, in
** the root mean square over the n states of err_i / (atol + rtol |y_i|), is at most 1, so
** every component's local error is below sqrt(n) (atol + rtol |y_i|).  A quantity that is
** conserved exactly and is linear (momentum) or quadratic (energy) in the state then moves
** per step by at most sqrt(n) rtol times 1 or 2 times its own size (the atol part is a
** hundredth of that here), and over N accepted steps by N times that: the bound these tests
** assert, with N the run's count of steps.  It is loose (the method carries the fifth-order
** solution, whose error is well below the fourth-order estimate, and errors of successive
** steps do not all add), but it is what the options promise; the diagnostics print what the
** runs achieve.  CVODE's (BDF) local error test is the same weighted norm.
**
** White-box parts: registry.h for the raw quaternions of the integrated state (the e0..e3
** channels are normalised, so the public API cannot see |e|) and, in test_assembly, to move
** bodies off their joints after they were added.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "registry.h"
#include "tap.h"

static const double pi = 3.14159265358979323846;

/* ---- helpers --------------------------------------------------------------------------------- */

static mech_system *spatial(const double g[3])
{
    mech_system *sys;
    mech_error err;
    if (mech_system_create_spatial(&sys, g, &err)) {
        diag("create: %s", err.msg);
        return NULL;
    }
    return sys;
}

static int add_body(mech_system *sys, const char *name, double m, const double I[3],
                    const double pos[3], const double quat[4], const double vel[3],
                    const double omega[3])
{
    mech_sbody_def d = mech_sbody_default();
    d.name = name;
    d.mass = m;
    for (int k = 0; k < 3; k++) {
        d.inertia[k] = I[k];
        if (pos) d.pos[k] = pos[k];
        if (vel) d.vel[k] = vel[k];
        if (omega) d.omega[k] = omega[k];
    }
    if (quat) memcpy(d.quat, quat, sizeof d.quat);
    int id = -1;
    mech_error err;
    if (mech_sbody_add(sys, &d, &id, &err)) diag("body: %s", err.msg);
    return id;
}

typedef struct runspec {
    mech_method method;
    double rtol, atol, h, t_end, report;
    const char *const *channels;
    int nchannels;
    const mech_user_channel *user;
    int nuser;
    const mech_event_def *events;
    int nevents;
    mech_project_fn project; /* NULL: the model's */
} runspec;

static mech_run *simulate(mech_system *sys, const runspec *r)
{
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = r->method;
    if (r->rtol > 0) o.integ.rtol = r->rtol;
    if (r->atol > 0) o.integ.atol = r->atol;
    if (r->h > 0) o.integ.h = r->h;
    o.integ.project = r->project;
    o.t_end = r->t_end;
    o.report = r->report;
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
    if (i < 0) {
        diag("no column %s", name);
        return NULL;
    }
    return mech_run_column(run, i);
}

/* Largest |c[i] - c[0]| over the run. */
static double drift(const mech_run *run, const double *c)
{
    double d = 0;
    for (long i = 0; i < mech_run_rows(run); i++) d = fmax(d, fabs(c[i] - c[0]));
    return d;
}

/* The bound of the header: N steps of sqrt(n) rtol each, times `order` (1 linear, 2
** quadratic). */
static double conservation_bound(const mech_run *run, const mech_system *sys, double rtol,
                                 int order)
{
    mech_run_stats st = mech_run_get_stats(run);
    return (double)st.integ.steps * sqrt((double)mech_system_nstate(sys)) * rtol * order;
}

/* ---- the arithmetic-geometric mean and the tennis racket ------------------------------------- */

/* K(k) = pi / (2 AGM(1, k')), from k'^2 (as tests/c/test_spatial_body.c). */
static double ellip_k(double kp2)
{
    double a = 1, g = sqrt(kp2);
    for (int i = 0; i < 8 && a != g; i++) {
        double an = 0.5 * (a + g);
        g = sqrt(a * g);
        a = an;
    }
    return pi / (2 * a);
}

/* The time between sign changes of w2 of a torque-free body with principal moments I1 < I2 <
** I3 and body-axis angular velocity w: 2K(k) / lambda (tests/c/test_spatial_body.c's
** flip_time: Landau and Lifshitz, Mechanics, sec. 37). */
static double flip_time(const double I[3], const double w[3], double *kp2_out)
{
    double d2 = 0, da = 0, a = I[0], c = I[2];
    for (int i = 0; i < 3; i++) d2 += I[i] * (I[i] - I[1]) * w[i] * w[i];
    if (d2 < 0) a = I[2], c = I[0];
    for (int i = 0; i < 3; i++) da += I[i] * (I[i] - a) * w[i] * w[i];
    double lam2 = (c - I[1]) * da / (I[0] * I[1] * I[2]);
    double kp2 = (c - a) * d2 / ((c - I[1]) * da);
    if (kp2_out) *kp2_out = kp2;
    return 2 * ellip_k(kp2) / sqrt(lam2);
}

/* The same from the invariants E and M^2 (for its sensitivity to them). */
static double flip_time_em(const double I[3], double E, double M2)
{
    double d2 = M2 - 2 * E * I[1], a = d2 < 0 ? I[2] : I[0], c = d2 < 0 ? I[0] : I[2];
    double da = M2 - 2 * E * a;
    double lam2 = (c - I[1]) * da / (I[0] * I[1] * I[2]), kp2 = (c - a) * d2 / ((c - I[1]) * da);
    return 2 * ellip_k(kp2) / sqrt(lam2);
}

/* The body-axis angular velocity w of the racket turned to world axes by its orientation e. */
static void world_omega(const double e[4], const double wb[3], double w[3])
{
    double A[9];
    mech_quat_matrix(e, A);
    for (int i = 0; i < 3; i++)
        w[i] = A[3 * i] * wb[0] + A[3 * i + 1] * wb[1] + A[3 * i + 2] * wb[2];
}

/*
** The tennis-racket flip: a free body with principal moments (1, 2, 3) kg m^2, spun at 10
** rad/s about its intermediate axis with 0.5 rad/s about the first, run 100 s by DOPRI5 at
** rtol 1e-10.  Kinetic energy and the world angular momentum (the channels hx, hy, hz about
** the centre of mass, which is at rest) are conserved to the bound of the header; the
** times where the body-axis w2 changes sign (events on the channel wby) are 2K(k) / lambda
** apart and a whole period 4K(k) / lambda.  The intervals' error: each event is located to
** 1e-12 max(1, t) s on the dense output, whose error in w2 (rtol-sized, 1e-9 rad/s) moves it
** by 1e-9 / |w2'| (|w2'| > 10 rad/s^2 at a crossing) = 1e-10 s; the invariants' errors move
** the closed form's interval itself by dT = (dT / dE) dE + (dT / dM^2) dM^2 (relative dE
** and dM^2 = 2 dH, the run's worst drifts; the partial derivatives by differences of the
** closed form, large here: the spin is near the separatrix, K ~ ln(4 / k')).  The tolerance
** is 10 times their sum.
*/
static void test_tennis_racket(void)
{
    mech_system *sys = spatial(NULL);
    double I[3] = {1, 2, 3}, wb[3] = {0.5, 10, 0}, e[4], w[3];
    mech_quat_from_axis_angle((double[3]){0.3, 1, -0.2}, 2.0, e, NULL, 0);
    world_omega(e, wb, w);
    add_body(sys, "racket", 1, I, NULL, e, NULL, w);
    static const char *const ch[] = {"racket.kinetic", "racket.hx", "racket.hy", "racket.hz",
                                     "racket.wby"};
    mech_event_def ev = {.name = "flip", .channel = "racket.wby", .level = 0};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 100,
                 .report = 0.1,
                 .channels = ch,
                 .nchannels = 5,
                 .events = &ev,
                 .nevents = 1};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "tennis racket: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *E = col(run, "racket.kinetic"), *hx = col(run, "racket.hx"),
                 *hy = col(run, "racket.hy"), *hz = col(run, "racket.hz");
    double dE = drift(run, E) / E[0], dH = 0,
           H0 = sqrt(hx[0] * hx[0] + hy[0] * hy[0] + hz[0] * hz[0]);
    for (long i = 0; i < mech_run_rows(run); i++) {
        double d[3] = {hx[i] - hx[0], hy[i] - hy[0], hz[i] - hz[0]};
        dH = fmax(dH, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / H0);
    }
    double bE = conservation_bound(run, sys, 1e-10, 2), bH = conservation_bound(run, sys, 1e-10, 1);
    diag("tennis racket, 100 s, %ld steps: energy drift %.3g (bound %.3g), momentum %.3g "
         "(bound %.3g)",
         mech_run_get_stats(run).integ.steps, dE, bE, dH, bH);
    ok(dE <= bE && dH <= bH, "tennis racket: kinetic energy and world angular momentum kept");
    /* the flips */
    double kp2, want = flip_time(I, wb, &kp2);
    long n = mech_run_nevents(run);
    double tz[128];
    int nz = 0;
    for (long k = 0; k < n && nz < 128; k++) {
        int def;
        double t;
        const double *vals;
        mech_run_event(run, k, &def, &t, &vals);
        tz[nz++] = t;
    }
    double worst2 = 0, worst4 = 0;
    for (int i = 1; i < nz; i++) worst2 = fmax(worst2, fabs(tz[i] - tz[i - 1] - want));
    for (int i = 2; i < nz; i++) worst4 = fmax(worst4, fabs(tz[i] - tz[i - 2] - 2 * want));
    /* the interval's sensitivity to relative changes of E and M^2 (differences of 1e-8:
    ** M^2 - 2 E I2 = -0.25 against M^2 = 400 loses 3 digits, the difference keeps 5) */
    double E0 = 0, M2 = 0;
    for (int k = 0; k < 3; k++) E0 += 0.5 * I[k] * wb[k] * wb[k], M2 += I[k] * I[k] * wb[k] * wb[k];
    double T0 = flip_time_em(I, E0, M2);
    double sE = fabs(flip_time_em(I, E0 * (1 + 1e-8), M2) - T0) / 1e-8;
    double sM = fabs(flip_time_em(I, E0, M2 * (1 + 1e-8)) - T0) / 1e-8;
    double tol = 10 * (2e-10 + 2e-10 + sE * dE + sM * 2 * dH);
    diag("flips: k'^2 = %.4g, 2K/lambda = %.12f s, %d sign changes in 100 s; intervals off by "
         "%.3g s, periods by %.3g s (tolerance %.3g s)",
         kp2, want, nz, worst2, worst4, tol);
    ok(nz >= 20 && worst2 < tol && worst4 < tol,
       "tennis racket: w2 changes sign every 2K(k)/lambda, a period is 4K(k)/lambda");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- the heavy symmetric top ----------------------------------------------------------------- */

/*
** A symmetric top: mass 1 kg, moments 0.002 (transverse, about the centre) and 0.004 kg m^2
** (about its axis, body z), its centre l = 0.1 m up the axis from a spherical joint to the
** ground at the origin; gravity 9.81 m/s^2 down; spin w3 = omega . n = 100 rad/s about the
** axis n, which starts at theta0 from the vertical in the xz plane.  About the pivot the
** transverse moment is I1 = 0.002 + m l^2 = 0.012 kg m^2.
*/
static const double top_m = 1, top_l = 0.1, top_I1c = 0.002, top_I3 = 0.004, top_g = 9.81;

static mech_system *make_top(double theta, double w3, double Omega)
{
    double g[3] = {0, 0, -top_g}, n[3] = {sin(theta), 0, cos(theta)}, e[4], pos[3], w[3], v[3];
    mech_system *sys = spatial(g);
    mech_quat_from_axis_angle((double[3]){0, 1, 0}, theta, e, NULL, 0);
    /* omega = Omega z + (w3 - Omega cos theta) n, so omega . n = w3; v = omega x (l n) */
    for (int k = 0; k < 3; k++) {
        pos[k] = top_l * n[k];
        w[k] = (w3 - Omega * cos(theta)) * n[k] + (k == 2 ? Omega : 0);
    }
    v[0] = w[1] * pos[2] - w[2] * pos[1];
    v[1] = w[2] * pos[0] - w[0] * pos[2];
    v[2] = w[0] * pos[1] - w[1] * pos[0];
    int b = add_body(sys, "top", top_m, (double[3]){top_I1c, top_I1c, top_I3}, pos, e, v, w);
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "pivot";
    j.type = MECH_SPHERICAL;
    j.body_a = MECH_GROUND, j.body_b = b;
    j.pb[2] = -top_l;
    mech_error err;
    if (mech_sjoint_add(sys, &j, NULL, &err)) diag("pivot: %s", err.msg);
    return sys;
}

/*
** Steady precession (Goldstein, Classical Mechanics, sec. 5.7): at nutation theta with spin
** w3 the axis precesses uniformly at Omega when m g l = Omega (I3 w3 - I1 Omega cos theta);
** the slow root Omega = 2 m g l / (I3 w3 + sqrt(I3^2 w3^2 - 4 I1 cos theta m g l)).  Started
** with exactly that motion, the centre stays at height l cos theta and turns about the
** vertical at Omega: over 3 s (some 10 turns of the 0.2 s nutation that a wrong Omega would
** excite, with amplitude ~ (Omega error) I1 / (I3 w3)) the centre's height and azimuth are
** checked against the closed form to 1e-8 (m, rad).  The header's bound on the run's error
** (5e3 steps at rtol 1e-10: 2e-6) is looser than that, but the run does far better (1e-10);
** 1e-8 is what tells a right Omega from a wrong one: a relative error of 1e-4 in Omega makes
** the axis nod by dOmega sin(theta) / w_n = 2.6e-4 * 0.64 / 33 = 5e-6 rad (w_n = I3 w3 / I1
** the nutation frequency), 3e-7 m in height, and drifts the azimuth by 8e-4 rad in 3 s.
*/
static void test_top_steady(void)
{
    double theta = 0.7, w3 = 100, I1 = top_I1c + top_m * top_l * top_l, mgl = top_m * top_g * top_l;
    double D = top_I3 * top_I3 * w3 * w3 - 4 * I1 * cos(theta) * mgl;
    double Omega = 2 * mgl / (top_I3 * w3 + sqrt(D));
    mech_system *sys = make_top(theta, w3, Omega);
    static const char *const ch[] = {"top.x", "top.y", "top.z", "system.energy"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 3,
                 .report = 0.01,
                 .channels = ch,
                 .nchannels = 4};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "heavy top: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *x = col(run, "top.x"), *y = col(run, "top.y"), *z = col(run, "top.z"),
                 *t = mech_run_time(run), *E = col(run, "system.energy");
    double eh = 0, ea = 0, prev = 0, turns = 0;
    for (long i = 0; i < mech_run_rows(run); i++) {
        eh = fmax(eh, fabs(z[i] - top_l * cos(theta)));
        double az = atan2(y[i], x[i]);
        if (i > 0) turns += nearbyint((prev - az) / (2 * pi));
        prev = az;
        ea = fmax(ea, fabs(az + 2 * pi * turns - Omega * t[i]));
    }
    double dE = drift(run, E) / fabs(E[0]), bE = conservation_bound(run, sys, 1e-10, 2);
    diag("steady precession: Omega = %.12g rad/s (theta 0.7, w3 100); over 3 s the height is off "
         "by %.3g m, the azimuth by %.3g rad; energy drift %.3g (bound %.3g), %ld steps",
         Omega, eh, ea, dE, bE, mech_run_get_stats(run).integ.steps);
    ok(eh < 1e-8 && ea < 1e-8 && dE <= bE,
       "heavy top: steady precession at the closed form's rate, no nutation");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** The top released at theta0 = 0.5 with spin w3 = 100 rad/s and no precession (Goldstein,
** sec. 5.7): with u = cos theta, energy and the momenta p_psi = I3 w3 and p_phi = I1 phi'
** sin^2 theta + I3 w3 u = I3 w3 u0 give at the turning points (theta' = 0)
**     (I3 w3)^2 (u0 - u)^2 / (2 I1 (1 - u^2)) = m g l (u0 - u)
** so u = u0 and the root of u^2 - a u + a u0 - 1 = 0, a = (I3 w3)^2 / (2 I1 m g l), in
** [-1, u0]: the axis nods between theta0 and theta1 = acos(u1).  The turning points are the
** events where the centre's vertical velocity vz changes sign: its height there must be l u0
** or l u1, to the run's error (1e-9 m: the bound of the header over ~3e3 steps is 1e-6 of l,
** a cusp's height is known to the event's location, 1e-12 s, times vz' there); 1e-8 m.  And
** the height never leaves [l u1, l u0] by more than that between them.
*/
static void test_top_released(void)
{
    double theta0 = 0.5, w3 = 100, I1 = top_I1c + top_m * top_l * top_l,
           mgl = top_m * top_g * top_l;
    double a = top_I3 * top_I3 * w3 * w3 / (2 * I1 * mgl), u0 = cos(theta0);
    double u1 = (a - sqrt(a * a - 4 * (a * u0 - 1))) / 2;
    mech_system *sys = make_top(theta0, w3, 0);
    static const char *const ch[] = {"top.z", "top.vz"};
    mech_event_def ev = {.name = "turn", .channel = "top.vz", .level = 0};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 3,
                 .report = 1e-3,
                 .channels = ch,
                 .nchannels = 2,
                 .events = &ev,
                 .nevents = 1};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "released top: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *z = col(run, "top.z");
    int iz = mech_run_channel_index(run, "top.z");
    double e_turn = 0, below = 0, above = 0;
    long n = mech_run_nevents(run), lows = 0, highs = 0;
    for (long k = 0; k < n; k++) {
        int def;
        double t;
        const double *vals;
        mech_run_event(run, k, &def, &t, &vals);
        double h = vals[iz] / top_l;
        int low = fabs(h - u1) < fabs(h - u0);
        lows += low, highs += !low;
        e_turn = fmax(e_turn, fabs(vals[iz] - top_l * (low ? u1 : u0)));
    }
    for (long i = 0; i < mech_run_rows(run); i++) {
        below = fmax(below, top_l * u1 - z[i]);
        above = fmax(above, z[i] - top_l * u0);
    }
    diag("released top: nutation between theta0 = 0.5 and theta1 = %.12g rad (u1 = %.12g); %ld "
         "low and %ld high turning points, their heights off by %.3g m; height below l u1 by "
         "%.3g, above l u0 by %.3g m",
         acos(u1), u1, lows, highs, e_turn, below, above);
    ok(lows >= 10 && highs >= 10 && e_turn < 1e-8 && below < 1e-8 && above < 1e-8,
       "released heavy top: nutation between theta0 and the turning point of the closed form");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- the spherical pendulum ------------------------------------------------------------------ */

/*
** A 1 kg body with tiny inertia (1e-5 kg m^2) hangs 1 m below a spherical joint to the ground
** at the origin (its anchor (0, 0, 1) in body coordinates), started 0.8 rad out in the xz
** plane moving at 1.5 m/s along y: a spherical pendulum, which swings and precesses for 20 s.
** Energy (channel system.energy) and the vertical angular momentum about the pivot, m (x vy -
** y vx) + hz, are conserved (gravity has no moment about the vertical through the pivot, the
** joint's force passes through it); to the bound of the header.
*/
static void test_spherical_pendulum(void)
{
    double g[3] = {0, 0, -9.81}, th = 0.8, e[4];
    mech_system *sys = spatial(g);
    double pos[3] = {sin(th), 0, -cos(th)}, vel[3] = {0, 1.5, 0}, w[3];
    /* the body's z axis along the rod, towards the pivot; omega = r x v / |r|^2 */
    mech_quat_from_axis_angle((double[3]){0, 1, 0}, -th, e, NULL, 0);
    w[0] = pos[1] * vel[2] - pos[2] * vel[1];
    w[1] = pos[2] * vel[0] - pos[0] * vel[2];
    w[2] = pos[0] * vel[1] - pos[1] * vel[0];
    int b = add_body(sys, "bob", 1, (double[3]){1e-5, 1e-5, 1e-5}, pos, e, vel, w);
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "pivot";
    j.type = MECH_SPHERICAL;
    j.body_a = MECH_GROUND, j.body_b = b;
    j.pb[2] = 1;
    mech_error err;
    if (mech_sjoint_add(sys, &j, NULL, &err)) diag("pivot: %s", err.msg);
    static const char *const ch[] = {"system.energy", "bob.x",  "bob.y", "bob.vx",
                                     "bob.vy",        "bob.hz", "bob.z"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 20,
                 .report = 0.01,
                 .channels = ch,
                 .nchannels = 7};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "spherical pendulum: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *E = col(run, "system.energy"), *x = col(run, "bob.x"), *y = col(run, "bob.y"),
                 *vx = col(run, "bob.vx"), *vy = col(run, "bob.vy"), *hz = col(run, "bob.hz"),
                 *z = col(run, "bob.z");
    double L0 = x[0] * vy[0] - y[0] * vx[0] + hz[0], dL = 0, zmin = 0, zmax = -1;
    for (long i = 0; i < mech_run_rows(run); i++) {
        dL = fmax(dL, fabs(x[i] * vy[i] - y[i] * vx[i] + hz[i] - L0));
        zmin = fmin(zmin, z[i]), zmax = fmax(zmax, z[i]);
    }
    /* the scales: energy |E| ~ m g l, momentum ~ m l |v| */
    double dE = drift(run, E) / fabs(E[0]), bE = conservation_bound(run, sys, 1e-10, 2);
    double bL = conservation_bound(run, sys, 1e-10, 1);
    diag("spherical pendulum, 20 s, %ld steps: height between %.4f and %.4f m; energy drift %.3g "
         "(bound %.3g), vertical momentum %.3g of %.4g (bound %.3g)",
         mech_run_get_stats(run).integ.steps, zmin, zmax, dE, bE, dL / fabs(L0), L0, bL);
    ok(dE <= bE && dL / fabs(L0) <= bL && zmax - zmin > 0.1,
       "spherical pendulum: energy and vertical angular momentum about the pivot kept");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- quaternion norms ------------------------------------------------------------------------ */

/* A user channel: | |e| - 1 | of the raw integrated state of body 1 (the e0..e3 channels are
** divided by |e|, so they cannot show it): the evaluated positions sys->q are the state the
** run evaluates, at a step's end the integrator's own (mech_sim.h: rows on step ends read
** mech_integ_state). */
static int raw_norm(void *ud, const mech_system *sys, double t, double *value)
{
    (void)ud, (void)t;
    const double *e = sys->q + sys->bodies[1].q_at + 3;
    *value = fabs(sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]) - 1);
    return 0;
}

/* A projection that does nothing: the run without the model's. */
static int no_projection(void *ctx, double t, double *y)
{
    (void)ctx, (void)t, (void)y;
    return 0;
}

/* A spinning, tumbling free body: full inertia tensor, |omega| = 29 spin rad/s. */
static mech_system *make_tumbler(double spin)
{
    mech_system *sys = spatial(NULL);
    mech_sbody_def d = mech_sbody_default();
    d.name = "tumbler";
    d.mass = 2;
    double c[6] = {0.4, 0.7, 0.9, 0.05, -0.03, 0.02};
    memcpy(d.inertia, c, sizeof c);
    mech_quat_from_axis_angle((double[3]){1, 1, 0}, 0.4, d.quat, NULL, 0);
    d.vel[0] = 0.5, d.vel[1] = -0.2, d.vel[2] = 0.1;
    d.omega[0] = 12 * spin, d.omega[1] = -16 * spin, d.omega[2] = 21 * spin;
    mech_error err;
    if (mech_sbody_add(sys, &d, NULL, &err)) diag("tumbler: %s", err.msg);
    return sys;
}

/*
** Quaternion norms under RK4: the tumbler at |omega| = 116 rad/s, h = 1e-4 s, 1e6 steps (100
** s), |e| read from the raw state every 10 s (rows on step ends: the integrator's state).
** With the model's projection after every step |e| is 1 to rounding (the projection divides
** by |e|: a few ulps, never accumulating): within 1e-12.  Without it (a projection that does
** nothing, the run otherwise the same) RK4's error in |e| accumulates: per step about
** (|omega| h / 2)^6 / 144 = 3e-16 for a steady spin (RK4's amplification |R(i x)| = 1 - x^6 /
** 144 of a rotation), 3e-10 over the run, more as omega varies: it must exceed 1e-10.  At
** the spin of 29 rad/s the same drift is 1e-13, below rounding's random walk: hence the fast
** spin.  (The public API cannot see the raw norm: the e0..e3 channels are normalised; the
** user channel reads the evaluated state through registry.h.)
*/
static void test_quaternion_norm(void)
{
    mech_user_channel uc = {.name = "norm", .unit = "-", .fn = raw_norm};
    static const char *const ch[] = {"tumbler.kinetic"};
    double worst[2] = {0, 0}, last[2] = {0, 0};
    for (int proj = 1; proj >= 0; proj--) {
        mech_system *sys = make_tumbler(4);
        runspec r = {.method = MECH_RK4,
                     .h = 1e-4,
                     .t_end = 100,
                     .report = 10,
                     .channels = ch,
                     .nchannels = 1,
                     .user = &uc,
                     .nuser = 1,
                     .project = proj ? NULL : no_projection};
        mech_run *run = simulate(sys, &r);
        if (run) {
            const double *nrm = col(run, "norm");
            long n = mech_run_rows(run);
            for (long i = 0; i < n; i++) worst[proj] = fmax(worst[proj], nrm[i]);
            last[proj] = nrm[n - 1];
            diag("RK4 %s projection: %ld steps, | |e| - 1 | at the end %.3g, largest %.3g",
                 proj ? "with" : "without", mech_run_get_stats(run).integ.steps, last[proj],
                 worst[proj]);
            mech_run_free(run);
        }
        mech_system_destroy(sys);
    }
    ok(worst[1] <= 1e-12 && last[1] <= 1e-12, "RK4, 1e6 steps: |e| stays within 1e-12 of 1");
    ok(last[0] > 1e-10, "and without the projection it drifts");
}

/*
** BDF (CVODE) on the tumbler (|omega| = 29 rad/s) and on the released heavy top, 10 s at
** rtol 1e-8: the energy (kinetic, resp. kinetic + gravity) kept to the header's bound for
** rtol 1e-8 (CVODE's local error test is the same weighted RMS norm <= 1); at the last row,
** the last step's end (CVODE stops at t_end), |e| is 1 within 1e-12 by CVODE's projection
** (CVodeSetProjFn), and without it drifts by the method's error (> 1e-10).
*/
static void test_bdf(void)
{
    mech_user_channel uc = {.name = "norm", .unit = "-", .fn = raw_norm};
    for (int model = 0; model < 2; model++) {
        double last[2] = {0, 0}, dE[2] = {0, 0}, bE = 0;
        for (int proj = 1; proj >= 0; proj--) {
            mech_system *sys;
            const char *ech;
            if (model == 0) {
                sys = make_tumbler(1);
                ech = "tumbler.kinetic";
            } else {
                sys = make_top(0.5, 100, 0);
                ech = "system.energy";
            }
            const char *ch[] = {ech};
            runspec r = {.method = MECH_BDF,
                         .rtol = 1e-8,
                         .atol = 1e-10,
                         .t_end = 10,
                         .report = 0.5,
                         .channels = ch,
                         .nchannels = 1,
                         .user = &uc,
                         .nuser = 1,
                         .project = proj ? NULL : no_projection};
            mech_run *run = simulate(sys, &r);
            if (run) {
                const double *nrm = col(run, "norm"), *E = col(run, ech);
                long n = mech_run_rows(run);
                last[proj] = nrm[n - 1];
                dE[proj] = drift(run, E) / fabs(E[0]);
                if (proj) bE = conservation_bound(run, sys, 1e-8, 2);
                diag("BDF, %s, %s projection: %ld steps, energy drift %.3g, | |e| - 1 | at the "
                     "end %.3g",
                     model ? "heavy top" : "tumbler", proj ? "with" : "without",
                     mech_run_get_stats(run).integ.steps, dE[proj], last[proj]);
                mech_run_free(run);
            }
            mech_system_destroy(sys);
        }
        char name[160];
        snprintf(
            name, sizeof name,
            "BDF on the %s: energy kept to its tolerance, |e| = 1 at the end by the projection",
            model ? "heavy top" : "tumbler");
        diag("BDF, %s: energy bound %.3g", model ? "heavy top" : "tumbler", bE);
        ok(dE[1] <= bE && last[1] <= 1e-12 && last[0] > 1e-10, name);
    }
}

/* ---- the spatial slider-crank ---------------------------------------------------------------- */

/*
** The spatial slider-crank of [Spatial revolute paper] (tests/c/smodels.h): a crank of 0.1 m
** turning about the world y axis on a revolute joint to the ground at (-0.1, 0, 0.12),
** starting along +z; a rod of 0.29 m joined to the crank's pin by a spherical joint and to the
** slider by a universal joint (cross axis on the slider along world x); the slider on a
** prismatic joint along world y through the origin.  Gravity -z.  With `driven` the crank
** turns at -2 pi rad/s about the joint's axis (+y) by a joint-angle driver; without, it starts
** with that angular velocity and the assembly makes the others consistent.
*/
static const double sc_L = 0.29;

static mech_system *make_slider_crank(int driven)
{
    double g[3] = {0, 0, -9.81};
    mech_system *sys = spatial(g);
    mech_error err;
    double yc = sqrt(sc_L * sc_L - 0.1 * 0.1 - 0.22 * 0.22);
    int ic = add_body(sys, "crank", 0.12, (double[3]){1e-4, 1e-4, 1e-5}, (double[3]){-0.1, 0, 0.17},
                      NULL, NULL, (double[3]){0, -2 * pi, 0});
    /* the rod from the pin P to the slider S, its body y axis along it */
    double P[3] = {-0.1, 0, 0.22}, S[3] = {0, yc, 0}, d[3], mid[3], xdir[3] = {1, 0, 0}, e[4];
    for (int k = 0; k < 3; k++) d[k] = S[k] - P[k], mid[k] = 0.5 * (P[k] + S[k]);
    mech_quat_from_axes(1, d, 0, xdir, e, NULL, 0);
    int ir = add_body(sys, "rod", 0.5, (double[3]){4e-3, 4e-4, 4e-3}, mid, e, NULL, NULL);
    int is = add_body(sys, "slider", 0.5, (double[3]){1e-4, 1e-4, 1e-4}, S, NULL, NULL, NULL);
    /* joint frames with z along world y: columns x = (1, 0, 0), y = (0, 0, -1), z = (0, 1, 0) */
    static const double Wr[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "crank_pin", j.type = MECH_REVOLUTE, j.body_a = MECH_GROUND, j.body_b = ic;
    j.pa[0] = -0.1, j.pa[2] = 0.12, j.pb[2] = -0.05;
    memcpy(j.frame_a, Wr, sizeof Wr), memcpy(j.frame_b, Wr, sizeof Wr);
    int jc;
    if (mech_sjoint_add(sys, &j, &jc, &err)) diag("%s", err.msg);
    j = mech_sjoint_default();
    j.name = "crank_rod", j.type = MECH_SPHERICAL, j.body_a = ic, j.body_b = ir;
    j.pa[2] = 0.05, j.pb[1] = -sc_L / 2;
    if (mech_sjoint_add(sys, &j, NULL, &err)) diag("%s", err.msg);
    /* universal: a = slider with x_a along world x, b = rod with y_b normal to the rod and x */
    double A[9], ee[4], Wu[9];
    mech_quat_matrix(e, A);
    double rodax[3] = {A[1], A[4], A[7]}, y2[3] = {0, rodax[2], -rodax[1]}; /* rod x (1,0,0) */
    mech_quat_from_axes(0, xdir, 1, y2, ee, NULL, 0);
    mech_quat_matrix(ee, Wu);
    j = mech_sjoint_default();
    j.name = "rod_slider", j.type = MECH_UNIVERSAL, j.body_a = is, j.body_b = ir;
    j.pb[1] = sc_L / 2;
    memcpy(j.frame_a, Wu, sizeof Wu);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double sum = 0;
            for (int m = 0; m < 3; m++) sum += A[m * 3 + i] * Wu[m * 3 + k];
            j.frame_b[i * 3 + k] = sum;
        }
    if (mech_sjoint_add(sys, &j, NULL, &err)) diag("%s", err.msg);
    j = mech_sjoint_default();
    j.name = "guide", j.type = MECH_PRISMATIC, j.body_a = MECH_GROUND, j.body_b = is;
    j.pa[1] = yc;
    memcpy(j.frame_a, Wr, sizeof Wr), memcpy(j.frame_b, Wr, sizeof Wr);
    if (mech_sjoint_add(sys, &j, NULL, &err)) diag("%s", err.msg);
    if (mech_spoint_add(sys, ic, "pin", (double[3]){0, 0, 0.05}, NULL, &err)) diag("%s", err.msg);
    if (driven) {
        mech_driver_def dd = mech_driver_default();
        dd.name = "motor", dd.type = MECH_DRIVE_JOINT_ANGLE, dd.target = jc;
        dd.value0 = 0, dd.speed = -2 * pi;
        if (mech_driver_add(sys, &dd, NULL, &err)) diag("%s", err.msg);
    }
    return sys;
}

/*
** The slider's position y(t) and its first two derivatives when the crank turns at the
** constant rate w from theta = 0: the pin is at (-0.1 + 0.1 sin theta, 0, 0.12 + 0.1 cos
** theta) (the crank, along +z at theta = 0, turned by theta about +y), the slider at (0, y,
** 0) with |S - P| = L, so with f = x_p^2 + z_p^2
**     y = sqrt(L^2 - f),  f_theta = 0.2 (x_p cos theta - z_p sin theta),
**     f_theta_theta = 0.2 (0.1 - x_p sin theta - z_p cos theta),
**     y_theta = -f_theta / (2 y),  y_theta_theta = -f_theta_theta / (2 y) - f_theta^2 / (4 y^3)
** and y' = w y_theta, y'' = w^2 y_theta_theta.
*/
static void slider_closed_form(double th, double w, double out[3])
{
    double c = cos(th), s = sin(th), xp = -0.1 + 0.1 * s, zp = 0.12 + 0.1 * c;
    double f = xp * xp + zp * zp, y = sqrt(sc_L * sc_L - f);
    double ft = 0.2 * (xp * c - zp * s), ftt = 0.2 * (0.1 - xp * s - zp * c);
    out[0] = y;
    out[1] = w * (-ft / (2 * y));
    out[2] = w * w * (-ftt / (2 * y) - ft * ft / (4 * y * y * y));
}

/*
** Driven at -2 pi rad/s for 2 s (two turns), DOPRI5 at rtol 1e-10: the slider's y, vy and ay
** against the closed form at every report (0.005 s), to 1e-8 (m, m/s, m/s^2).  The driven
** motion is kinematic: the run's error is that of the constraints (Baumgarte keeps the
** violations at the integration error, ~1e-12 here) and of the driver's angle, both far
** below 1e-8 of the slider's scale (y ~ 0.2 m, vy ~ 0.5 m/s, ay ~ 5 m/s^2: relative errors
** of 5e-8, 2e-8 and 2e-9).  The same for the crank pin (a named point: position, velocity,
** acceleration) and the channels of the joints (the revolute's angle, in (-pi, pi], the
** prismatic's distance from its anchor) and of the driver (its angle, counting turns).  The
** energy balance (kinetic + potential - the driver's work) is kept to 1e-8 J too.
*/
static void test_slider_crank_driven(void)
{
    mech_system *sys = make_slider_crank(1);
    static const char *const ch[] = {
        "slider.y",     "slider.vy",       "slider.ay",      "system.balance", "system.violation",
        "crank.pin.x",  "crank.pin.z",     "crank.pin.vx",   "crank.pin.vz",   "crank.pin.ax",
        "crank.pin.az", "crank_pin.angle", "guide.distance", "motor.angle"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 2,
                 .report = 0.005,
                 .channels = ch,
                 .nchannels = 14};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "driven slider-crank: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *y = col(run, "slider.y"), *vy = col(run, "slider.vy"),
                 *ay = col(run, "slider.ay"), *bal = col(run, "system.balance"),
                 *vio = col(run, "system.violation"), *t = mech_run_time(run);
    const double *pc[6];
    for (int k = 0; k < 6; k++) pc[k] = mech_run_column(run, 5 + k);
    const double *jang = col(run, "crank_pin.angle"), *jdist = col(run, "guide.distance"),
                 *mang = col(run, "motor.angle");
    double yc = sqrt(sc_L * sc_L - 0.1 * 0.1 - 0.22 * 0.22), w = -2 * pi;
    double e[3] = {0, 0, 0}, eb = 0, ev = 0, amax = 0, ep = 0, ej = 0;
    for (long i = 0; i < mech_run_rows(run); i++) {
        double want[3], th = w * t[i], c = cos(th), sn = sin(th);
        slider_closed_form(th, w, want);
        e[0] = fmax(e[0], fabs(y[i] - want[0]));
        e[1] = fmax(e[1], fabs(vy[i] - want[1]));
        e[2] = fmax(e[2], fabs(ay[i] - want[2]));
        amax = fmax(amax, fabs(want[2]));
        eb = fmax(eb, fabs(bal[i]));
        ev = fmax(ev, fabs(vio[i]));
        /* the crank pin: (-0.1 + 0.1 sin th, 0, 0.12 + 0.1 cos th) and its derivatives */
        double pw[6] = {-0.1 + 0.1 * sn, 0.12 + 0.1 * c,    0.1 * c * w,
                        -0.1 * sn * w,   -0.1 * sn * w * w, -0.1 * c * w * w};
        for (int k = 0; k < 6; k++) ep = fmax(ep, fabs(pc[k][i] - pw[k]));
        /* the joint's angle and the driver's, both counting turns, the slide from the guide's
        ** anchor */
        ej = fmax(ej, fabs(jang[i] - th));
        ej = fmax(ej, fmax(fabs(jdist[i] - (y[i] - yc)), fabs(mang[i] - th)));
    }
    diag("driven slider-crank, 2 s: y off by %.3g m, vy by %.3g m/s, ay by %.3g m/s^2 (|ay| up "
         "to %.3g); crank pin (point channels) by %.3g; joint angle, guide distance, driver "
         "angle by %.3g; energy balance %.3g J, violation %.3g",
         e[0], e[1], e[2], amax, ep, ej, eb, ev);
    ok(e[0] < 1e-8 && e[1] < 1e-8 && e[2] < 1e-8,
       "driven spatial slider-crank: slider position, velocity, acceleration as the closed form");
    ok(ep < 1e-8 && ej < 1e-8,
       "and the crank pin's point channels, the joints' angle and distance channels");
    ok(eb < 1e-8, "and the energy balance with the driver's work holds");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* Free under gravity for 2 s from the assembled (consistent) start: the mechanical energy
** is kept to 1e-8 of itself at rtol 1e-10 (the bound of the header is far looser; the
** constraint forces do no work, the Baumgarte terms act on violations of ~1e-12). */
static void test_slider_crank_free(void)
{
    mech_system *sys = make_slider_crank(0);
    static const char *const ch[] = {"system.energy", "crank.wy"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 2,
                 .report = 0.005,
                 .channels = ch,
                 .nchannels = 2};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "free slider-crank: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *E = col(run, "system.energy"), *w = col(run, "crank.wy");
    double dE = drift(run, E) / fabs(E[0]), wmin = 0;
    for (long i = 0; i < mech_run_rows(run); i++) wmin = fmin(wmin, w[i]);
    diag("free slider-crank, 2 s, %ld steps: energy %.6g J, drift %.3g of it; crank rate down to "
         "%.3g rad/s",
         mech_run_get_stats(run).integ.steps, E[0], dE, wmin);
    ok(dE < 1e-8 && wmin < -1, "free spatial slider-crank: mechanical energy kept to 1e-8");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* ---- force elements -------------------------------------------------------------------------- */

/*
** Loads: a free body (no gravity) under a constant world force (1, -2, 0.5) N at the body
** point (0.1, 0.2, -0.3) and a harmonic torque (0.2, 0, 0.1) + (0, 0.3, 0) sin(2 t + 0.4) N m
** in body axes, for 5 s.  The centre moves as x0 + v0 t + F t^2 / (2 m) whatever the body
** does (the force's moment only turns it); the energy balance (kinetic - the loads' work)
** holds and the force channels read the force.  DOPRI5 at rtol 1e-10: positions to 1e-8 m
** (the centre's motion is a parabola, which the method integrates with its local error
** alone), the balance to 1e-8 J of the ~50 J of work.
*/
static void test_loads(void)
{
    mech_system *sys = spatial(NULL);
    double v0[3] = {0.3, 0, -0.1}, F[3] = {1, -2, 0.5}, m = 1.5;
    int b = add_body(sys, "box", m, (double[3]){0.1, 0.15, 0.2}, (double[3]){0.5, 0.5, 0.5}, NULL,
                     v0, (double[3]){1, 2, -1});
    mech_sload_def l = mech_sload_default();
    mech_error err;
    l.name = "push", l.body = b;
    memcpy(l.value, F, sizeof F);
    l.point[0] = 0.1, l.point[1] = 0.2, l.point[2] = -0.3;
    if (mech_sload_add(sys, &l, NULL, &err)) diag("%s", err.msg);
    l = mech_sload_default();
    l.name = "twist", l.body = b, l.torque = 1, l.body_frame = 1, l.profile = MECH_HARMONIC;
    l.value[0] = 0.2, l.value[2] = 0.1, l.amplitude[1] = 0.3, l.freq = 2, l.phase = 0.4;
    if (mech_sload_add(sys, &l, NULL, &err)) diag("%s", err.msg);
    static const char *const ch[] = {"box.x",   "box.y",   "box.z",   "system.balance",
                                     "push.fx", "push.fy", "push.fz", "system.applied"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 5,
                 .report = 0.05,
                 .channels = ch,
                 .nchannels = 8};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "loads: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *x[3] = {col(run, "box.x"), col(run, "box.y"), col(run, "box.z")},
                 *bal = col(run, "system.balance"), *t = mech_run_time(run),
                 *fc[3] = {col(run, "push.fx"), col(run, "push.fy"), col(run, "push.fz")},
                 *W = col(run, "system.applied");
    double ex = 0, eb = 0, ef = 0;
    long n = mech_run_rows(run);
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            ex = fmax(ex, fabs(x[k][i] - (0.5 + v0[k] * t[i] + F[k] / (2 * m) * t[i] * t[i])));
            ef = fmax(ef, fabs(fc[k][i] - F[k]));
        }
        eb = fmax(eb, fabs(bal[i]));
    }
    diag("loads, 5 s: centre off by %.3g m, balance %.3g J (work %.4g J), force channels %.3g", ex,
         eb, W[n - 1], ef);
    ok(ex < 1e-8 && eb < 1e-8 && ef == 0 && fabs(W[n - 1]) > 1,
       "loads: the centre follows F / m, the loads' work balances the kinetic energy");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/* row-major 3 x 3 times vector, and its transpose */
static void mv(const double A[9], const double x[3], double y[3])
{
    for (int i = 0; i < 3; i++) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/*
** Where loads act, at one evaluation: a free body (full inertia tensor, turned, spinning)
** under gravity, a world force at one body point, a body-axis harmonic force at another, a
** world torque and a body-axis torque.  Its acceleration from the channels must be
** (F1 + A F2 + m g) / m and its angular acceleration J_w^-1 (s1 x F1 + s2 x A F2 + T3 + A T4
** - omega x J_w omega), s1, s2 the points' world offsets; the first force's power channel
** F1 . (v + omega x s1).  Algebraic identities of one evaluation with an inertia of condition
** number below 3: 1e-13 of the accelerations' size.  The same body with its products of
** inertia given as the tensor's entries (MECH_PRODUCTS_TENSOR, the negated integrals) moves
** identically.
*/
static void test_load_points(void)
{
    double g[3] = {0, 0, -9.81}, m = 2, pos[3] = {0.1, 0.2, 0.3}, v[3] = {0.3, -0.1, 0.2},
           w[3] = {1, -2, 0.5}, e[4];
    double ci[6] = {0.3, 0.4, 0.5, 0.02, -0.01, 0.03};
    double F1[3] = {1, -2, 3}, s1[3] = {0.1, 0.2, -0.3}, F2b[3] = {0.5, 0.2, -1},
           A2[3] = {0.1, 0, 0}, s2[3] = {-0.2, 0.1, 0.05}, T3[3] = {0.2, -0.1, 0.4},
           T4b[3] = {0, 0.3, -0.2};
    mech_quat_from_axis_angle((double[3]){-1, 2, 0.5}, 1.9, e, NULL, 0);
    double acc[2][6], h[2][3], power = 0, want_power = 0, worst = 0, scale = 0;
    for (int conv = 0; conv < 2; conv++) {
        mech_system *sys = spatial(g);
        mech_sbody_def d = mech_sbody_default();
        d.name = "box", d.mass = m;
        memcpy(d.inertia, ci, sizeof ci);
        if (conv) { /* the tensor's own entries: -Pxy, -Pyz, -Pzx */
            d.products = MECH_PRODUCTS_TENSOR;
            for (int k = 3; k < 6; k++) d.inertia[k] = -ci[k];
        }
        memcpy(d.pos, pos, sizeof pos), memcpy(d.vel, v, sizeof v), memcpy(d.omega, w, sizeof w);
        memcpy(d.quat, e, sizeof e);
        mech_error err;
        int b;
        mech_sbody_add(sys, &d, &b, &err);
        mech_sload_def l = mech_sload_default();
        l.name = "f1", l.body = b;
        memcpy(l.value, F1, sizeof F1), memcpy(l.point, s1, sizeof s1);
        mech_sload_add(sys, &l, NULL, &err);
        l = mech_sload_default();
        l.name = "f2", l.body = b, l.body_frame = 1, l.profile = MECH_HARMONIC, l.freq = 3,
        l.phase = 0.3;
        memcpy(l.value, F2b, sizeof F2b), memcpy(l.amplitude, A2, sizeof A2);
        memcpy(l.point, s2, sizeof s2);
        mech_sload_add(sys, &l, NULL, &err);
        l = mech_sload_default();
        l.name = "t3", l.body = b, l.torque = 1;
        memcpy(l.value, T3, sizeof T3);
        mech_sload_add(sys, &l, NULL, &err);
        l = mech_sload_default();
        l.name = "t4", l.body = b, l.torque = 1, l.body_frame = 1;
        memcpy(l.value, T4b, sizeof T4b);
        mech_sload_add(sys, &l, NULL, &err);
        if (mech_system_finalize(sys, &err)) diag("%s", err.msg);
        double y[64];
        mech_system_initial_state(sys, y, &err);
        if (mech_system_evaluate(sys, 0, y, &err)) diag("%s", err.msg);
        static const char *const names[] = {"box.ax",     "box.ay",     "box.az", "box.alphax",
                                            "box.alphay", "box.alphaz", "box.hx", "box.hy",
                                            "box.hz",     "f1.power"};
        double val[10];
        for (int k = 0; k < 10; k++) {
            mech_channel c;
            if (mech_channel_lookup(sys, names[k], &c, &err)) diag("%s", err.msg);
            val[k] = mech_channel_value(sys, &c);
        }
        memcpy(acc[conv], val, sizeof acc[conv]);
        memcpy(h[conv], val + 6, sizeof h[conv]);
        power = val[9];
        mech_system_destroy(sys);
    }
    /* the closed form */
    double A[9], J[9], Jw[9], AJ[9], F2[3], F2v[3], T4[3], s1w[3], s2w[3], N[3], Jww[3], gy[3];
    mech_quat_matrix(e, A);
    J[0] = ci[0], J[4] = ci[1], J[8] = ci[2];
    J[1] = J[3] = -ci[3], J[5] = J[7] = -ci[4], J[2] = J[6] = -ci[5];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            AJ[3 * i + k] = 0;
            for (int j = 0; j < 3; j++) AJ[3 * i + k] += A[3 * i + j] * J[3 * j + k];
        }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            Jw[3 * i + k] = 0;
            for (int j = 0; j < 3; j++) Jw[3 * i + k] += AJ[3 * i + j] * A[3 * k + j];
        }
    for (int k = 0; k < 3; k++) F2v[k] = F2b[k] + A2[k] * sin(0.3);
    mv(A, F2v, F2), mv(A, T4b, T4), mv(A, s1, s1w), mv(A, s2, s2w);
    double m1[3], m2[3];
    cross(s1w, F1, m1), cross(s2w, F2, m2);
    mv(Jw, w, Jww), cross(w, Jww, gy);
    for (int k = 0; k < 3; k++) N[k] = m1[k] + m2[k] + T3[k] + T4[k] - gy[k];
    /* J_w alpha = N: compare J_w alpha from the channels with N (no inverse needed) */
    double Jal[3];
    mv(Jw, acc[0] + 3, Jal);
    double wxs[3], pv[3];
    cross(w, s1w, wxs);
    for (int k = 0; k < 3; k++) pv[k] = v[k] + wxs[k];
    want_power = F1[0] * pv[0] + F1[1] * pv[1] + F1[2] * pv[2];
    for (int k = 0; k < 3; k++) {
        double a = (F1[k] + F2[k]) / m + g[k];
        scale = fmax(scale, fmax(fabs(a), fabs(N[k])));
        worst = fmax(worst, fmax(fabs(acc[0][k] - a), fabs(Jal[k] - N[k])));
    }
    double same = 0;
    for (int k = 0; k < 6; k++) same = fmax(same, fabs(acc[0][k] - acc[1][k]));
    for (int k = 0; k < 3; k++) same = fmax(same, fabs(h[0][k] - h[1][k]));
    diag("loads at points: accelerations off by %.3g (scale %.3g), power by %.3g; products as "
         "integrals or tensor entries differ by %.3g",
         worst, scale, fabs(power - want_power), same);
    ok(worst < 1e-13 * scale && fabs(power - want_power) < 1e-13 * fabs(want_power),
       "loads: forces at body points (world and body axes) and torques act as Newton-Euler says");
    ok(same < 1e-14 * scale, "products of inertia as integrals or as the tensor's entries agree");
}

/*
** Springs: two free bodies joined by a spring-damper between off-centre points (k 50 N/m, c
** 0 or 0.3 N s/m, rest 0.5 m), started stretched and spinning, no gravity, 5 s.  Internal
** forces: the total linear momentum sum m v and the total angular momentum about the origin,
** sum (m r x v + H), are conserved whatever the spring does (a wrong moment arm breaks the
** second), and the energy balance (kinetic + elastic + dissipated) holds; the same with
** the spring-damper's law given as a callback (whose work the accounts count as applied).  Momenta
*and the
** balance (relative to the largest energy of the run) to the header's bound.
*/
/* The spring-damper's law as a callback: tension = 50 (l - 0.5) + 0.3 l'. */
static int spring_law(void *ud, double t, double l, double ldot, double *f)
{
    (void)ud, (void)t;
    *f = 50 * (l - 0.5) + 0.3 * ldot;
    return 0;
}

static void test_springs(void)
{
    for (int damped = 0; damped < 3; damped++) {
        mech_system *sys = spatial(NULL);
        double e[4];
        mech_quat_from_axis_angle((double[3]){1, 2, 3}, 0.7, e, NULL, 0);
        int a = add_body(sys, "a", 1, (double[3]){0.02, 0.03, 0.04}, (double[3]){0, 0, 0}, NULL,
                         (double[3]){0.1, 0, 0}, (double[3]){0, 0, 3});
        int b = add_body(sys, "b", 2, (double[3]){0.05, 0.04, 0.06}, (double[3]){0.9, 0.2, -0.1}, e,
                         (double[3]){0, 0.2, 0}, (double[3]){1, -2, 0.5});
        mech_sspring_def sp = mech_sspring_default();
        sp.name = "spring", sp.body_a = a, sp.body_b = b, sp.k = 50, sp.c = damped ? 0.3 : 0;
        sp.pa[0] = 0.1, sp.pa[1] = 0.05, sp.pb[0] = -0.1, sp.pb[2] = 0.08, sp.length0 = 0.5;
        if (damped == 2) sp.law = spring_law, sp.k = sp.c = 0; /* its work counts as applied */
        mech_error err;
        if (mech_sspring_add(sys, &sp, NULL, &err)) diag("%s", err.msg);
        static const char *const ch[] = {"a.x",
                                         "a.y",
                                         "a.z",
                                         "a.vx",
                                         "a.vy",
                                         "a.vz",
                                         "a.hx",
                                         "a.hy",
                                         "a.hz",
                                         "b.x",
                                         "b.y",
                                         "b.z",
                                         "b.vx",
                                         "b.vy",
                                         "b.vz",
                                         "b.hx",
                                         "b.hy",
                                         "b.hz",
                                         "system.balance",
                                         "spring.length",
                                         "system.dissipated",
                                         "system.energy"};
        runspec r = {.method = MECH_DOPRI5,
                     .rtol = 1e-10,
                     .atol = 1e-12,
                     .t_end = 5,
                     .report = 0.01,
                     .channels = ch,
                     .nchannels = 22};
        mech_run *run = simulate(sys, &r);
        if (!run) {
            ok(0, "springs: runs");
            mech_system_destroy(sys);
            continue;
        }
        const double *c[22];
        for (int i = 0; i < 22; i++) c[i] = mech_run_column(run, i);
        double P0[3] = {0}, L0[3] = {0}, eP = 0, eL = 0, eb = 0, lmin = 1e9, lmax = 0, Emax = 0;
        long n = mech_run_rows(run);
        for (long i = 0; i < n; i++) {
            double P[3] = {0, 0, 0}, L[3] = {0, 0, 0};
            for (int bi = 0; bi < 2; bi++) {
                const double **q = c + 9 * bi, mass = bi ? 2 : 1;
                double r3[3] = {q[0][i], q[1][i], q[2][i]}, v3[3] = {q[3][i], q[4][i], q[5][i]};
                for (int k = 0; k < 3; k++) P[k] += mass * v3[k];
                L[0] += mass * (r3[1] * v3[2] - r3[2] * v3[1]) + q[6][i];
                L[1] += mass * (r3[2] * v3[0] - r3[0] * v3[2]) + q[7][i];
                L[2] += mass * (r3[0] * v3[1] - r3[1] * v3[0]) + q[8][i];
            }
            if (i == 0) memcpy(P0, P, sizeof P), memcpy(L0, L, sizeof L);
            for (int k = 0; k < 3; k++) {
                eP = fmax(eP, fabs(P[k] - P0[k]));
                eL = fmax(eL, fabs(L[k] - L0[k]));
            }
            eb = fmax(eb, fabs(c[18][i]));
            lmin = fmin(lmin, c[19][i]), lmax = fmax(lmax, c[19][i]);
            Emax = fmax(Emax, fabs(c[21][i]));
        }
        double Ls = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
        double bound = conservation_bound(run, sys, 1e-10, 1), bE = 2 * bound * Emax;
        static const char *const kinds[3] = {"spring", "spring-damper", "spring by a force law"};
        diag("%s, 5 s: length %.3f to %.3f m, dissipated %.3g J; momentum off by %.3g, "
             "angular momentum by %.3g of %.3g (bound %.3g relative), balance %.3g J (bound %.3g "
             "J)",
             kinds[damped], lmin, lmax, c[20][n - 1], eP, eL, Ls, bound, eb, bE);
        char name[120];
        snprintf(name, sizeof name,
                 "%s between two free bodies: momenta conserved, energy balance holds",
                 kinds[damped]);
        ok(eP <= bound && eL <= bound * Ls && eb <= bE && lmax - lmin > 0.1 &&
               (damped == 1 ? c[20][n - 1] > 0.01 : c[20][n - 1] == 0),
           name);
        mech_run_free(run);
        mech_system_destroy(sys);
    }
}

/*
** Rotational spring: a wheel (moments 0.03, 0.03, 0.05 about its centre, z its axis) on a
** revolute joint to the ground at its centre, the joint's axis along the world direction
** (1, 1, 1) / sqrt 3 (frames turned), a rotational spring k = 0.02 N m/rad about it; started
** at its rest angle turning at w0 about the axis: the angle is (w0 / Omega) sin(Omega t),
** Omega = sqrt(k / I_zz) = 0.632 rad/s, read from the spring's channel `angle` (its twist).
** With w0 = 1 rad/s the amplitude is 1.58 rad: to 1e-8 rad over 10 s (DOPRI5 at rtol 1e-10,
** a few hundred steps of global error ~1e-10 rad), energy to the header's bound.  With w0 =
** 2.4 rad/s it is 3.79 rad, beyond pi: the spring is wound more than half a turn and must keep
** pulling back (the planar rotational spring's angle is phi_b - phi_a, whole turns counted).
** And with damping c = 0.01 N m s/rad (w0 = 1): the damped oscillation, and the energy
** balance with the dissipated energy.
*/
static void test_rot_spring(void)
{
    for (int variant = 0; variant < 3; variant++) {
        int wound = variant == 1, damped = variant == 2;
        mech_system *sys = spatial(NULL);
        double n[3] = {1 / sqrt(3), 1 / sqrt(3), 1 / sqrt(3)}, e[4], W[9], w0 = wound ? 2.4 : 1;
        double x0[3] = {1, -1, 0};
        mech_quat_from_axes(2, n, 0, x0, e, NULL, 0);
        mech_quat_matrix(e, W);
        double w[3] = {w0 * n[0], w0 * n[1], w0 * n[2]};
        /* the wheel's body axes are the joint's frame: body z along n */
        int b = add_body(sys, "wheel", 3, (double[3]){0.03, 0.03, 0.05}, (double[3]){0.2, 0.1, 0},
                         e, NULL, w);
        mech_sjoint_def j = mech_sjoint_default();
        j.name = "axle", j.type = MECH_REVOLUTE, j.body_a = MECH_GROUND, j.body_b = b;
        j.pa[0] = 0.2, j.pa[1] = 0.1;
        memcpy(j.frame_a, W, sizeof W);
        int jid;
        mech_error err;
        if (mech_sjoint_add(sys, &j, &jid, &err)) diag("%s", err.msg);
        mech_srot_spring_def rs = mech_srot_spring_default();
        rs.name = "coil", rs.joint = jid, rs.k = 0.02, rs.c = damped ? 0.01 : 0;
        if (mech_srot_spring_add(sys, &rs, NULL, &err)) diag("%s", err.msg);
        static const char *const ch[] = {"coil.angle", "system.energy", "coil.energy",
                                         "system.balance"};
        runspec r = {.method = MECH_DOPRI5,
                     .rtol = 1e-10,
                     .atol = 1e-12,
                     .t_end = 10,
                     .report = 0.01,
                     .channels = ch,
                     .nchannels = 4};
        mech_run *run = simulate(sys, &r);
        if (!run) {
            ok(0, "rotational spring: runs");
            mech_system_destroy(sys);
            continue;
        }
        const double *ang = col(run, "coil.angle"), *E = col(run, "system.energy"),
                     *t = mech_run_time(run), *bal = col(run, "system.balance");
        /* damped: theta = w0 / wd exp(-c t / (2 I)) sin(wd t), wd = sqrt(k / I - (c / 2 I)^2) */
        double I = 0.05, cd = damped ? 0.01 : 0, Om = sqrt(0.02 / I - pow(cd / (2 * I), 2));
        double ea = 0, amax = 0, eb = 0;
        for (long i = 0; i < mech_run_rows(run); i++) {
            ea = fmax(ea, fabs(ang[i] - w0 / Om * exp(-cd * t[i] / (2 * I)) * sin(Om * t[i])));
            amax = fmax(amax, fabs(ang[i]));
            eb = fmax(eb, fabs(bal[i]));
        }
        double dE = damped ? eb / E[0] : drift(run, E) / E[0];
        double bE = conservation_bound(run, sys, 1e-10, 2);
        diag("rotational spring%s, w0 = %g rad/s: amplitude %.4f rad (closed form %.4f), angle off "
             "by %.3g rad, energy %s %.3g (bound %.3g)",
             damped ? "-damper" : "", w0, amax, w0 / Om, ea, damped ? "balance" : "drift", dE, bE);
        char name[160];
        snprintf(name, sizeof name,
                 "rotational spring%s about a revolute joint: torsional oscillation, amplitude "
                 "%.2f rad%s",
                 damped ? "-damper" : "", w0 / Om, wound ? " (wound beyond half a turn)" : "");
        /* wound beyond half a turn: the twist counts turns (it read within pi of the rest
        ** angle once, and the torque changed sign past pi) */
        ok(ea < 1e-8 && dE <= bE, name);
        mech_run_free(run);
        mech_system_destroy(sys);
    }
}

/*
** Drivers in a run, with gravity (0, 0, -9.81): a body on a cylindrical joint to the ground
** along n = (0.48, 0.6, 0.64) turned at 2 rad/s by a joint-angle driver and moved by a
** joint-distance driver along 0.1 sin(3 t); another on a revolute joint about n turned by a
** body-angle driver about n at -1.5 rad/s from 0.3 rad.  The motion is prescribed: omega = 2 n
** and -1.5 n, the first body's centre (at its anchor) r0 + 0.1 sin(3 t) n, the second's fixed;
** the joints' and drivers' channels read the prescribed values.  DOPRI5 at rtol 1e-10 with
** Baumgarte: 1e-8.
*/
static int sine_motion(void *ud, double t, double out[3])
{
    (void)ud;
    out[0] = 0.1 * sin(3 * t), out[1] = 0.3 * cos(3 * t), out[2] = -0.9 * sin(3 * t);
    return 0;
}

static void test_drivers_run(void)
{
    double g[3] = {0, 0, -9.81}, n[3] = {0.48, 0.6, 0.64}, x0[3] = {1, 0, 0}, e[4], W[9];
    mech_system *sys = spatial(g);
    mech_quat_from_axes(2, n, 0, x0, e, NULL, 0);
    mech_quat_matrix(e, W);
    double r0[3] = {0.3, -0.2, 0.5}, r1[3] = {-0.4, 0.1, 0.2};
    int a = add_body(sys, "spinner", 2, (double[3]){0.3, 0.4, 0.5}, r0, NULL, NULL, NULL);
    int b = add_body(sys, "rotor", 1, (double[3]){0.2, 0.25, 0.3}, r1, NULL, NULL, NULL);
    mech_sjoint_def j = mech_sjoint_default();
    mech_error err;
    int jc, jr;
    j.name = "barrel", j.type = MECH_CYLINDRICAL, j.body_a = MECH_GROUND, j.body_b = a;
    memcpy(j.pa, r0, sizeof r0);
    memcpy(j.frame_a, W, sizeof W), memcpy(j.frame_b, W, sizeof W);
    if (mech_sjoint_add(sys, &j, &jc, &err)) diag("%s", err.msg);
    j.name = "hinge", j.type = MECH_REVOLUTE, j.body_b = b;
    memcpy(j.pa, r1, sizeof r1);
    if (mech_sjoint_add(sys, &j, &jr, &err)) diag("%s", err.msg);
    mech_driver_def d = mech_driver_default();
    d.name = "turn", d.type = MECH_DRIVE_JOINT_ANGLE, d.target = jc, d.value0 = 0, d.speed = 2;
    if (mech_driver_add(sys, &d, NULL, &err)) diag("%s", err.msg);
    d = mech_driver_default();
    d.name = "push", d.type = MECH_DRIVE_JOINT_DISTANCE, d.target = jc, d.fn = sine_motion;
    if (mech_driver_add(sys, &d, NULL, &err)) diag("%s", err.msg);
    d = mech_driver_default();
    d.name = "spin", d.type = MECH_DRIVE_BODY_ANGLE, d.target = b, d.value0 = 0.3, d.speed = -1.5;
    memcpy(d.axis, n, sizeof n);
    if (mech_driver_add(sys, &d, NULL, &err)) diag("%s", err.msg);
    static const char *const ch[] = {
        "spinner.wx",      "spinner.wy",    "spinner.wz", "spinner.x",  "spinner.y",   "spinner.z",
        "rotor.wx",        "rotor.wy",      "rotor.wz",   "rotor.x",    "rotor.y",     "rotor.z",
        "barrel.distance", "push.distance", "spin.angle", "turn.angle", "barrel.angle"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 4,
                 .report = 0.01,
                 .channels = ch,
                 .nchannels = 17};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "drivers: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *c[17], *t = mech_run_time(run);
    for (int i = 0; i < 17; i++) c[i] = mech_run_column(run, i);
    double ew = 0, er = 0, ech = 0;
    for (long i = 0; i < mech_run_rows(run); i++) {
        double s = 0.1 * sin(3 * t[i]), ta = 2 * t[i];
        for (int k = 0; k < 3; k++) {
            ew = fmax(ew, fmax(fabs(c[k][i] - 2 * n[k]), fabs(c[6 + k][i] + 1.5 * n[k])));
            er = fmax(er, fmax(fabs(c[3 + k][i] - r0[k] - s * n[k]), fabs(c[9 + k][i] - r1[k])));
        }
        ech = fmax(ech, fmax(fabs(c[12][i] - s), fabs(c[13][i] - s)));
        ech = fmax(ech, fmax(fabs(c[14][i] - (0.3 - 1.5 * t[i])), fabs(c[15][i] - ta)));
        ech = fmax(ech, fabs(c[16][i] - ta)); /* the joint's angle counts turns */
    }
    diag("drivers, 4 s: omega off by %.3g rad/s, centres by %.3g m, joint and driver channels by "
         "%.3g",
         ew, er, ech);
    ok(ew < 1e-8 && er < 1e-8 && ech < 1e-8,
       "joint-angle and joint-distance drivers on a cylindrical joint, a body-angle driver: "
       "the prescribed motion");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** A callback load: a central force -k r on a free body's centre (k = 4 N/m, m = 1 kg) and a
** torque -c omega (c = 0.05 N m s) about it.  The centre moves as the isotropic oscillator
** r0 cos(w t) + v0 / w sin(w t), w = 2 rad/s, whatever the body turns; the callback sees the
** body's state as the channels show it (its quaternion normalised); the energy balance
** (kinetic - the callback's work, which here includes the torque's dissipation) holds.
*/
static double cb_err = 0;
static int central(void *ud, double t, const mech_sbody_state *b, double out[6])
{
    (void)ud, (void)t;
    double n = 0;
    for (int k = 0; k < 4; k++) n += b->quat[k] * b->quat[k];
    cb_err = fmax(cb_err, fabs(n - 1));
    for (int k = 0; k < 3; k++) out[k] = -4 * b->pos[k], out[3 + k] = -0.05 * b->omega[k];
    return 0;
}

static void test_callback_load(void)
{
    mech_system *sys = spatial(NULL);
    double r0[3] = {0.5, 0, 0.1}, v0[3] = {0, 0.8, 0.2};
    int b = add_body(sys, "ball", 1, (double[3]){0.01, 0.012, 0.015}, r0, NULL, v0,
                     (double[3]){3, -1, 2});
    mech_sload_def l = mech_sload_default();
    l.name = "pull", l.body = b, l.profile = MECH_CALLBACK, l.fn = central;
    mech_error err;
    if (mech_sload_add(sys, &l, NULL, &err)) diag("%s", err.msg);
    static const char *const ch[] = {"ball.x", "ball.y", "ball.z", "system.balance", "ball.omega"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 5,
                 .report = 0.01,
                 .channels = ch,
                 .nchannels = 5};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "callback load: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *x[3] = {col(run, "ball.x"), col(run, "ball.y"), col(run, "ball.z")},
                 *bal = col(run, "system.balance"), *om = col(run, "ball.omega"),
                 *t = mech_run_time(run);
    double ex = 0, eb = 0;
    long n = mech_run_rows(run);
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            ex = fmax(ex, fabs(x[k][i] - (r0[k] * cos(2 * t[i]) + v0[k] / 2 * sin(2 * t[i]))));
        eb = fmax(eb, fabs(bal[i]));
    }
    diag("callback load, 5 s: centre off by %.3g m, balance %.3g J, |omega| from %.3g to %.3g "
         "rad/s, the callback's quaternion off unit by %.3g",
         ex, eb, om[0], om[n - 1], cb_err);
    ok(ex < 1e-8 && eb < 1e-8 && om[n - 1] < 0.9 * om[0] && cb_err < 4e-15, /* a few ulps */
       "callback load: a central force and a damping torque, as computed by the callback");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** A penalty joint in a run: the spherical pendulum of test_spherical_pendulum with the joint
** enforced by penalty (k = 1e5 N/m, c = 5 N s/m per equation).  The joint's elastic energy
** and dissipation enter the accounts: the balance kinetic + gravity + elastic + dissipated
** is kept (to 1e-8 of the pendulum's ~6 J), the anchors stay within (m g + m v^2 / l) / k
** ~ 2e-4 m, and the violation channel reads it.
*/
static void test_penalty_run(void)
{
    double g[3] = {0, 0, -9.81}, th = 0.8, e[4];
    mech_system *sys = spatial(g);
    double pos[3] = {sin(th), 0, -cos(th)}, vel[3] = {0, 1.5, 0}, w[3];
    mech_quat_from_axis_angle((double[3]){0, 1, 0}, -th, e, NULL, 0);
    w[0] = pos[1] * vel[2] - pos[2] * vel[1];
    w[1] = pos[2] * vel[0] - pos[0] * vel[2];
    w[2] = pos[0] * vel[1] - pos[1] * vel[0];
    int b = add_body(sys, "bob", 1, (double[3]){1e-3, 1e-3, 1e-3}, pos, e, vel, w);
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "pivot", j.type = MECH_SPHERICAL, j.body_a = MECH_GROUND, j.body_b = b;
    j.pb[2] = 1, j.enforce = MECH_PENALTY;
    for (int k = 0; k < 3; k++) j.k[k] = 1e5, j.c[k] = 5;
    mech_error err;
    if (mech_sjoint_add(sys, &j, NULL, &err)) diag("pivot: %s", err.msg);
    static const char *const ch[] = {"system.balance", "pivot.violation", "system.dissipated",
                                     "system.energy"};
    runspec r = {.method = MECH_DOPRI5,
                 .rtol = 1e-10,
                 .atol = 1e-12,
                 .t_end = 5,
                 .report = 0.01,
                 .channels = ch,
                 .nchannels = 4};
    mech_run *run = simulate(sys, &r);
    if (!run) {
        ok(0, "penalty joint: runs");
        mech_system_destroy(sys);
        return;
    }
    const double *bal = col(run, "system.balance"), *vio = col(run, "pivot.violation"),
                 *dis = col(run, "system.dissipated"), *E = col(run, "system.energy");
    double eb = 0, vmax = 0;
    long n = mech_run_rows(run);
    for (long i = 0; i < n; i++) eb = fmax(eb, fabs(bal[i])), vmax = fmax(vmax, vio[i]);
    diag("penalty spherical joint, 5 s, %ld steps: balance %.3g J (energy %.4g J), dissipated "
         "%.3g J, violation up to %.3g m",
         mech_run_get_stats(run).integ.steps, eb, E[0], dis[n - 1], vmax);
    ok(eb < 1e-8 * fabs(E[0]) && vmax < 3e-4 && vmax > 1e-5 && dis[n - 1] > 0,
       "penalty spherical joint: energy balance with its elastic energy and dissipation");
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** Assembly: the slider-crank with its rod given 0.02 m and 0.1 rad off, its slider 0.03 m
** off the guide (written into the bodies as given, after mech_sbody_add: the public API
** cannot misplace a body this way, it can only place it).  Finalize moves the bodies onto
** their joints by Newton steps through spatial_displace, which turns the quaternions exactly
** (1e-15: a few roundings per step): every joint's violation and misalignment below 1e-10 at
** the assembled start, the driver at its initial value; the state is described with the
** spatial coordinates' names.
*/
static void test_assembly(void)
{
    mech_system *sys = make_slider_crank(1);
    body *rod = &sys->bodies[2], *slider = &sys->bodies[3];
    double turn[4], e[4];
    mech_quat_from_axis_angle((double[3]){0.3, -0.5, 1}, 0.1, turn, NULL, 0);
    e[0] =
        turn[0] * rod->q0[3] - turn[1] * rod->q0[4] - turn[2] * rod->q0[5] - turn[3] * rod->q0[6];
    e[1] =
        turn[0] * rod->q0[4] + turn[1] * rod->q0[3] + turn[2] * rod->q0[6] - turn[3] * rod->q0[5];
    e[2] =
        turn[0] * rod->q0[5] - turn[1] * rod->q0[6] + turn[2] * rod->q0[3] + turn[3] * rod->q0[4];
    e[3] =
        turn[0] * rod->q0[6] + turn[1] * rod->q0[5] - turn[2] * rod->q0[4] + turn[3] * rod->q0[3];
    for (int k = 0; k < 4; k++) rod->q0[3 + k] = e[k]; /* unit, as mech_sbody_add keeps it */
    rod->q0[0] += 0.02, slider->q0[2] += 0.03;
    mech_error err;
    mech_status st = mech_system_finalize(sys, &err);
    if (st) diag("finalize: %s", err.msg);
    double y[128], worst = 0, norm = 0;
    mech_system_initial_state(sys, y, &err);
    if (mech_system_evaluate(sys, 0, y, &err)) diag("%s", err.msg);
    static const char *const names[] = {"crank_pin", "crank_rod", "rod_slider", "guide"};
    for (int i = 0; i < 4; i++) {
        char ch[80];
        mech_channel c;
        snprintf(ch, sizeof ch, "%s.violation", names[i]);
        mech_channel_lookup(sys, ch, &c, &err);
        worst = fmax(worst, fabs(mech_channel_value(sys, &c)));
        snprintf(ch, sizeof ch, "%s.misalignment", names[i]);
        mech_channel_lookup(sys, ch, &c, &err);
        worst = fmax(worst, fabs(mech_channel_value(sys, &c)));
    }
    mech_channel c;
    mech_channel_lookup(sys, "motor.angle", &c, &err);
    double ang = mech_channel_value(sys, &c);
    for (int b = 1; b < 4; b++) {
        const double *q = y + sys->bodies[b].q_at + 3;
        norm = fmax(norm, fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1));
    }
    char d1[120], d2[120];
    mech_system_describe_state(sys, sys->bodies[2].q_at + 4, d1, sizeof d1);
    mech_system_describe_state(sys, mech_system_ncoord(sys) + sys->bodies[3].u_at + 5, d2,
                               sizeof d2);
    diag("assembled: worst violation or misalignment %.3g, driver angle %.3g, | |e| - 1 | %.3g; "
         "states '%s', '%s'",
         worst, ang, norm, d1, d2);
    ok(st == MECH_OK && worst < 1e-10 && fabs(ang) < 1e-10 && norm < 1e-14,
       "assembly moves misplaced spatial bodies onto their joints, quaternions of unit length");
    ok(strstr(d1, "'rod'") && strstr(d1, "e1") && strstr(d2, "'slider'") && strstr(d2, "wz"),
       "states are named by body and spatial coordinate (e1, wz)");
    mech_system_destroy(sys);
}

/* ---- bad input ------------------------------------------------------------------------------- */

/* status is MECH_ERR_ARG, the message holds every one of the NULL-terminated strings, and
** the count of entities of kind did not change. */
static void refused(mech_status st, const mech_error *err, const mech_system *sys, mech_kind kind,
                    int count, const char *what, ...)
{
    va_list ap;
    va_start(ap, what);
    int all = st == MECH_ERR_ARG && mech_system_count(sys, kind) == count;
    const char *s;
    while ((s = va_arg(ap, const char *)) != NULL) all &= strstr(err->msg, s) != NULL;
    va_end(ap);
    char name[200];
    snprintf(name, sizeof name, "refused with MECH_ERR_ARG naming it: %s", what);
    if (!ok(all, name)) diag("status %d, message '%s'", (int)st, err->msg);
}

static void test_bad_input(void)
{
    mech_system *sys = spatial(NULL), *planar;
    mech_error err;
    mech_system_create(&planar, NULL, &err);
    int nb = mech_system_count(sys, MECH_KIND_BODY);
    mech_sbody_def d = mech_sbody_default();
    d.mass = 1;
    /* inertia */
    d.name = "notposdef";
    d.inertia[0] = 1, d.inertia[1] = 1, d.inertia[2] = -0.5;
    refused(mech_sbody_add(sys, &d, NULL, &err), &err, sys, MECH_KIND_BODY, nb,
            "inertia not positive definite", "'notposdef'", "-0.5", NULL);
    d.name = "products";
    d.inertia[0] = 1, d.inertia[1] = 1, d.inertia[2] = 1, d.inertia[3] = 1.5;
    refused(mech_sbody_add(sys, &d, NULL, &err), &err, sys, MECH_KIND_BODY, nb,
            "inertia not positive definite through its products", "'products'", "1.5", NULL);
    d.name = "triangle";
    d.inertia[0] = 1, d.inertia[1] = 1, d.inertia[2] = 3, d.inertia[3] = 0;
    refused(mech_sbody_add(sys, &d, NULL, &err), &err, sys, MECH_KIND_BODY, nb,
            "principal moments against the triangle inequality", "'triangle'", "1, 1, 3", NULL);
    /* orientation */
    d.name = "noturn";
    d.inertia[2] = 1;
    memset(d.quat, 0, sizeof d.quat);
    refused(mech_sbody_add(sys, &d, NULL, &err), &err, sys, MECH_KIND_BODY, nb, "a zero quaternion",
            "'noturn'", "(0, 0, 0, 0)", NULL);
    d.quat[0] = 1;
    d.mass = 0;
    d.name = "massless";
    refused(mech_sbody_add(sys, &d, NULL, &err), &err, sys, MECH_KIND_BODY, nb, "a zero mass",
            "'massless'", "got 0", NULL);
    d.mass = 1;
    int b1, b2;
    d.name = "one";
    mech_sbody_add(sys, &d, &b1, &err);
    d.name = "two";
    mech_sbody_add(sys, &d, &b2, &err);
    /* joints */
    int nj = mech_system_count(sys, MECH_KIND_JOINT);
    mech_sjoint_def j = mech_sjoint_default();
    j.type = MECH_REVOLUTE;
    j.name = "stretched";
    j.body_a = b1, j.body_b = b2;
    for (int k = 0; k < 9; k += 4) j.frame_a[k] = 2;
    refused(mech_sjoint_add(sys, &j, NULL, &err), &err, sys, MECH_KIND_JOINT, nj,
            "a frame that is not a rotation (scaled)", "'stretched'", "'one'", "not a rotation",
            "= 3", NULL);
    j = mech_sjoint_default();
    j.type = MECH_REVOLUTE;
    j.name = "mirrored";
    j.body_a = b1, j.body_b = b2;
    j.frame_b[8] = -1;
    refused(mech_sjoint_add(sys, &j, NULL, &err), &err, sys, MECH_KIND_JOINT, nj,
            "a frame that is a reflection", "'mirrored'", "'two'", "det A = -1", NULL);
    j.frame_b[8] = 1;
    j.name = "self";
    j.body_b = b1;
    refused(mech_sjoint_add(sys, &j, NULL, &err), &err, sys, MECH_KIND_JOINT, nj,
            "a joint of a body to itself", "'self'", "'one'", "itself", NULL);
    j.body_b = b2;
    j.name = "soft";
    j.enforce = MECH_PENALTY;
    for (int k = 0; k < 6; k++) j.k[k] = 1e5, j.c[k] = 1;
    j.k[2] = 0;
    refused(mech_sjoint_add(sys, &j, NULL, &err), &err, sys, MECH_KIND_JOINT, nj,
            "a penalty stiffness of 0", "'soft'", "stiffness 3", "got 0", NULL);
    j.k[2] = 1e5, j.k[4] = -2;
    refused(mech_sjoint_add(sys, &j, NULL, &err), &err, sys, MECH_KIND_JOINT, nj,
            "a negative penalty stiffness", "'soft'", "stiffness 5", "got -2", NULL);
    /* the dimension */
    mech_body_def pd = mech_body_default();
    pd.mass = 1, pd.inertia = 1, pd.name = "flat";
    refused(mech_body_add(sys, &pd, NULL, &err), &err, sys, MECH_KIND_BODY, nb + 2,
            "mech_body_add on a spatial system", "mech_body_add", "spatial", "mech_sbody_add",
            NULL);
    d.name = "deep";
    refused(mech_sbody_add(planar, &d, NULL, &err), &err, planar, MECH_KIND_BODY, 1,
            "mech_sbody_add on a planar system", "mech_sbody_add", "planar", "mech_body_add", NULL);
    mech_joint_def pj = mech_joint_default();
    pj.body_a = MECH_GROUND, pj.body_b = b1;
    refused(mech_joint_add(sys, &pj, NULL, &err), &err, sys, MECH_KIND_JOINT, nj,
            "mech_joint_add on a spatial system", "mech_joint_add", "mech_sjoint_add", NULL);
    /* drivers on the wrong joint types */
    int jsph, jpri, jrev;
    j = mech_sjoint_default();
    j.body_a = MECH_GROUND, j.body_b = b1;
    j.name = "ball", j.type = MECH_SPHERICAL;
    mech_sjoint_add(sys, &j, &jsph, &err);
    j.name = "slide", j.type = MECH_PRISMATIC;
    mech_sjoint_add(sys, &j, &jpri, &err);
    j.name = "hinge", j.type = MECH_REVOLUTE, j.body_a = b1, j.body_b = b2;
    mech_sjoint_add(sys, &j, &jrev, &err);
    int nd = mech_system_count(sys, MECH_KIND_DRIVER);
    mech_driver_def dd = mech_driver_default();
    dd.name = "turn_slide", dd.type = MECH_DRIVE_JOINT_ANGLE, dd.target = jpri;
    refused(mech_driver_add(sys, &dd, NULL, &err), &err, sys, MECH_KIND_DRIVER, nd,
            "a joint-angle driver on a prismatic joint", "'turn_slide'", "'slide'", "prismatic",
            NULL);
    dd.name = "turn_ball", dd.target = jsph;
    refused(mech_driver_add(sys, &dd, NULL, &err), &err, sys, MECH_KIND_DRIVER, nd,
            "a joint-angle driver on a spherical joint", "'turn_ball'", "'ball'", "spherical",
            NULL);
    dd.name = "push_hinge", dd.type = MECH_DRIVE_JOINT_DISTANCE, dd.target = jrev;
    refused(mech_driver_add(sys, &dd, NULL, &err), &err, sys, MECH_KIND_DRIVER, nd,
            "a joint-distance driver on a revolute joint", "'push_hinge'", "'hinge'", "revolute",
            NULL);
    dd.name = "no_axis", dd.type = MECH_DRIVE_BODY_ANGLE, dd.target = b1;
    refused(mech_driver_add(sys, &dd, NULL, &err), &err, sys, MECH_KIND_DRIVER, nd,
            "a body-angle driver without an axis", "'no_axis'", "'one'", "0, 0, 0", NULL);
    dd.name = "turn_ground", dd.target = MECH_GROUND, dd.axis[2] = 1;
    refused(mech_driver_add(sys, &dd, NULL, &err), &err, sys, MECH_KIND_DRIVER, nd,
            "a body-angle driver on the ground", "'turn_ground'", "moving body", NULL);
    /* force elements */
    int nf = mech_system_count(sys, MECH_KIND_FORCE);
    mech_srot_spring_def rs = mech_srot_spring_default();
    rs.name = "twist_ball", rs.joint = jsph, rs.k = 1;
    refused(mech_srot_spring_add(sys, &rs, NULL, &err), &err, sys, MECH_KIND_FORCE, nf,
            "a rotational spring on a spherical joint", "'twist_ball'", "'ball'", "spherical",
            NULL);
    mech_sspring_def sp = mech_sspring_default();
    sp.name = "selfish", sp.body_a = b2, sp.body_b = b2, sp.k = 1;
    refused(mech_sspring_add(sys, &sp, NULL, &err), &err, sys, MECH_KIND_FORCE, nf,
            "a spring from a body to itself", "'selfish'", "'two'", "itself", NULL);
    sp.name = "negative", sp.body_a = b1, sp.k = -3;
    refused(mech_sspring_add(sys, &sp, NULL, &err), &err, sys, MECH_KIND_FORCE, nf,
            "a negative spring stiffness", "'negative'", "-3", NULL);
    mech_sload_def ld = mech_sload_default();
    ld.name = "on_ground", ld.body = MECH_GROUND;
    refused(mech_sload_add(sys, &ld, NULL, &err), &err, sys, MECH_KIND_FORCE, nf,
            "a load on the ground", "'on_ground'", "ground", NULL);
    /* the planar-only constructors of contacts and flexible bodies on a spatial system:
    ** refused (they were accepted once, and a flexible body's nodes then overflowed
    ** spatial_setup_blocks' arrays at finalize) */
    mech_contact_def cd = mech_contact_default();
    cd.name = "floor", cd.body_a = b1, cd.body_b = MECH_GROUND, cd.normal[1] = 1;
    cd.normal_law.type = MECH_NORMAL_HERTZ, cd.normal_law.K = 1e6, cd.normal_law.n = 1.5;
    mech_status st = mech_contact_add(sys, &cd, NULL, &err);
    ok(st == MECH_ERR_ARG && strstr(err.msg, "spatial"),
       "refused with MECH_ERR_ARG naming it: mech_contact_add on a spatial system");
    mech_mesh mesh;
    mech_rectangle_def rd = mech_rectangle_default();
    rd.size[0] = 1, rd.size[1] = 0.1, rd.nx = 2, rd.ny = 1;
    mech_system *fsys = spatial(NULL);
    if (mech_mesh_rectangle(&mesh, &rd, &err) == MECH_OK) {
        mech_fe_def fd = mech_fe_default();
        fd.name = "plate", fd.mesh = &mesh, fd.E = 2e11, fd.nu = 0.3, fd.density = 7800,
        fd.thickness = 0.01;
        st = mech_fe_add(fsys, &fd, NULL, &err);
        ok(st == MECH_ERR_ARG && strstr(err.msg, "spatial"),
           "refused with MECH_ERR_ARG naming it: mech_fe_add on a spatial system");
        mech_mesh_free(&mesh);
    }
    mech_system_destroy(fsys);
    mech_system_destroy(planar);
    mech_system_destroy(sys);
}

int main(void)
{
    test_tennis_racket();
    test_top_steady();
    test_top_released();
    test_spherical_pendulum();
    test_quaternion_norm();
    test_bdf();
    test_slider_crank_driven();
    test_slider_crank_free();
    test_loads();
    test_load_points();
    test_springs();
    test_rot_spring();
    test_drivers_run();
    test_callback_load();
    test_penalty_run();
    test_assembly();
    test_bad_input();
    return done_testing();
}

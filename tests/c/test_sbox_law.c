/* SPDX-License-Identifier: MIT */
/*
** The area-dependent normal laws of a box slider in its channel ([Wang et al. 2025], Eqs.
** 18-22; mech/sbox_law.h) and the spatial prismatic joint with clearance that uses them:
**
**   stiffness  each mode's k against hand values from the helpers of mech_contact.h: a corner
**              (the three triangles), an edge (the two rectangles), a face, the projected
**              patch, the flat punch; the stored energy V = int_0^delta k(s) s ds against its
**              closed forms (a corner's k grows as s: V = k delta^2 / 3; a face's and the
**              punch's are constant: k delta^2 / 2) and against a fine numerical integral;
**   impact     the paper's single-impact check (its Fig. 9): a slider of 19 g, its turning held,
**              hits a side wall at 1 m/s in four poses (roll, yaw) = (0, 0.3), (0, 1.5),
**              (0.3, 1.5), (1.5, 1.5) degrees, Al-Al, the area-dependent stiffness against the
**              constant one (the flat punch of the slider's 15 mm face): the peak force and the
**              contact's duration, and the energy kept through the elastic impacts;
**   turning    a slider thrown with a spin, elastic area law: what the pose-dependent k does
**              to the energy (measured, bounded);
**   damped     the Lankarani-Nikravesh factor: the rebound speed and the loss into the contact
**              damping account.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mech.h"
#include "sbox_geom.h"
#include "sbox_law.h"
#include "tap.h"
#include "vec3.h"

static const double DEG = 3.14159265358979323846 / 180;
#define E_AL  72e9
#define NU_AL 0.33

/* The paper's slider, 30 mm along the travel, 15 x 15 mm across: half sizes x, y, z. */
static const double H[3] = {7.5e-3, 15e-3, 7.5e-3};

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(a), fabs(b));
}

/* Rz(yaw) Ry(roll), row-major: the slider turned in the guide's frame (pitch 0). */
static void rot_zy(double yaw, double roll, double out[9])
{
    double ct = cos(yaw), st = sin(yaw), cp = cos(roll), sp = sin(roll);
    const double rz[9] = {ct, -st, 0, st, ct, 0, 0, 0, 1};
    const double ry[9] = {cp, 0, sp, 0, 1, 0, -sp, 0, cp};
    mat3_mul(rz, ry, out);
}

/* The wall x = +Wx (n = -X) in the slider's coordinates for the slider turned by R in the
** guide's frame (the guide's axes the world's) with its deepest corner delta deep: m, off, the
** wall's axes e1 = R^T Y, e2 = R^T Z. */
static void wall_plane(const double R[9], double delta, double m[3], double *off, double e1[3],
                       double e2[3])
{
    const double n[3] = {-1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
    mat3t_vec(R, n, m);
    mat3t_vec(R, Y, e1);
    mat3t_vec(R, Z, e2);
    *off = H[0] * fabs(m[0]) + H[1] * fabs(m[1]) + H[2] * fabs(m[2]) - delta;
}

static double law_k(int model, const double R[9], double delta, sbox_face *f, sbox_section *s)
{
    const sbox_law law = {model, {E_AL, E_AL}, {NU_AL, NU_AL}};
    double m[3], off, e1[3], e2[3];
    wall_plane(R, delta, m, &off, e1, e2);
    sbox_cut(H, m, off, s);
    sbox_face_from_section(H, m, s, f);
    return sbox_law_stiffness(&law, H, m, s, f, e1, e2, 1);
}

static double law_V(int model, const double R[9], double delta)
{
    const sbox_law law = {model, {E_AL, E_AL}, {NU_AL, NU_AL}};
    double m[3], off, e1[3], e2[3];
    wall_plane(R, delta, m, &off, e1, e2);
    return sbox_law_energy(&law, H, m, off, e1, e2, 1);
}

/* int_0^delta k(s) s ds by the midpoint rule on N pieces. */
static double numeric_V(int model, const double R[9], double delta, int N)
{
    double V = 0;
    for (int i = 0; i < N; i++) {
        double s = (i + 0.5) * delta / N;
        sbox_face f;
        sbox_section sec;
        V += law_k(model, R, s, &f, &sec) * s * delta / N;
    }
    return V;
}

static double tri(double S, double a, double b)
{
    return mech_stiffness_triangle(E_AL, NU_AL, E_AL, NU_AL, S, a, b);
}

static double rect(double S, double a, double b)
{
    return mech_stiffness_rectangle(E_AL, NU_AL, E_AL, NU_AL, S, a, b);
}

/*
** Hand values.  For the wall x = +Wx and the slider turned by Rz(yaw) Ry(roll), m = R^T n =
** (-cos(yaw) cos(roll), sin(yaw), -cos(yaw) sin(roll)): the deepest corner is (+x, -y, +z)
** and its three edges run delta / |m_i| into the wall (a, b, c), while the neighbours stay out
** (delta < 2 h_i |m_i|).  The tolerances: the sizes come out of the gaps, differences of O(h)
** terms: a few 1e-16 m against delta = 1e-6 m, so 1e-9 relative on k.
*/
static void test_stiffness(void)
{
    const double delta = 1e-6;
    double R[9];
    sbox_face f;
    sbox_section s;

    /* a corner: roll 1.5, yaw 1.5 degrees */
    double yaw = 1.5 * DEG, roll = 1.5 * DEG;
    rot_zy(yaw, roll, R);
    double m0 = cos(yaw) * cos(roll), m1 = sin(yaw), m2 = cos(yaw) * sin(roll);
    double a = delta / m0, b = delta / m1, c = delta / m2;
    double want = tri(b * c / 2, b, c) * m0 + tri(a * c / 2, a, c) * m1 + tri(a * b / 2, a, b) * m2;
    double k = law_k(MECH_SBOX_AREA, R, delta, &f, &s);
    ok(f.mode == SBOX_CORNER && f.deepest == 5 && rel(k, want) <= 1e-9,
       "area, corner: the three triangles (Eq. 22) projected on the wall");
    diag("corner (1.5, 1.5) deg at 1 um: k = %.6g N/m (hand %.6g), a b c = %.4g %.4g %.4g m", k,
         want, a, b, c);
    /* the patch: the cut triangle, its extents along the travel and across it in the wall */
    {
        const double uc[3] = {H[0], -H[1], H[2]};
        const double d[3][3] = {{-a, 0, 0}, {0, b, 0}, {0, 0, -c}}; /* into the slider */
        double v[3][3], Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1}, e1[3], e2[3];
        mat3t_vec(R, Y, e1);
        mat3t_vec(R, Z, e2);
        double lo1 = INFINITY, hi1 = -INFINITY, lo2 = INFINITY, hi2 = -INFINITY;
        for (int i = 0; i < 3; i++) {
            vec3_add(uc, d[i], v[i]);
            lo1 = fmin(lo1, vec3_dot(v[i], e1)), hi1 = fmax(hi1, vec3_dot(v[i], e1));
            lo2 = fmin(lo2, vec3_dot(v[i], e2)), hi2 = fmax(hi2, vec3_dot(v[i], e2));
        }
        double S = 0.5 * sqrt(a * a * b * b + b * b * c * c + c * c * a * a);
        double kp = law_k(MECH_SBOX_PATCH, R, delta, &f, &s);
        double wp = rect(S, fmax(hi1 - lo1, hi2 - lo2), fmin(hi1 - lo1, hi2 - lo2));
        ok(rel(kp, wp) <= 1e-9, "patch, corner: the rectangle fit on the cut triangle");
        diag("patch: k = %.6g N/m (hand %.6g), S = %.4g m^2", kp, wp, S);
    }
    /* the energy: a corner's k grows as s (its legs do, the ratios stay): V = k delta^2 / 3 */
    double V = law_V(MECH_SBOX_AREA, R, delta);
    ok(rel(V, k * delta * delta / 3) <= 1e-9, "area, corner: V = k delta^2 / 3");

    /* a corner, roll 0.3, yaw 1.5 */
    yaw = 1.5 * DEG, roll = 0.3 * DEG;
    rot_zy(yaw, roll, R);
    m0 = cos(yaw) * cos(roll), m1 = sin(yaw), m2 = cos(yaw) * sin(roll);
    a = delta / m0, b = delta / m1, c = delta / m2;
    want = tri(b * c / 2, b, c) * m0 + tri(a * c / 2, a, c) * m1 + tri(a * b / 2, a, b) * m2;
    k = law_k(MECH_SBOX_AREA, R, delta, &f, &s);
    ok(f.mode == SBOX_CORNER && rel(k, want) <= 1e-9, "area, corner (0.3, 1.5)");

    /* an edge: yaw 1.5, no roll: the edge along z at (+x, -y); its rectangles 2 hz x delta /
    ** cos(yaw) on the end face (normal y, weight sin(yaw)) and 2 hz x delta / sin(yaw) on the
    ** side face (normal x, weight cos(yaw)), Eqs. 20-21 */
    yaw = 1.5 * DEG;
    rot_zy(yaw, 0, R);
    double lx = delta / cos(yaw), ly = delta / sin(yaw);
    want =
        rect(2 * H[2] * lx, 2 * H[2], lx) * sin(yaw) + rect(2 * H[2] * ly, 2 * H[2], ly) * cos(yaw);
    k = law_k(MECH_SBOX_AREA, R, delta, &f, &s);
    ok(f.mode == SBOX_EDGE && f.axis == 2 && rel(k, want) <= 1e-9,
       "area, edge: the two rectangles (Eqs. 20-21) projected on the wall");
    diag("edge (0, 1.5) deg at 1 um: k = %.6g N/m (hand %.6g)", k, want);
    double Vn = numeric_V(MECH_SBOX_AREA, R, delta, 200000);
    V = law_V(MECH_SBOX_AREA, R, delta);
    diag("edge: V %.10g J, numerical %.10g J (%.2g)", V, Vn, rel(V, Vn));
    ok(rel(V, Vn) <= 1e-6, "area, edge: V against the numerical integral");
    /* past the second corner on that wall: the edge's far end comes in at 2 hy sin(yaw) deep */
    double deep = 2 * H[1] * sin(yaw) * 1.5;
    V = law_V(MECH_SBOX_AREA, R, deep);
    Vn = numeric_V(MECH_SBOX_AREA, R, deep, 200000);
    law_k(MECH_SBOX_AREA, R, deep, &f, &s);
    diag("a face (yaw 1.5) at %.3g m: V %.10g J, numerical %.10g J (%.2g)", deep, V, Vn,
         rel(V, Vn));
    ok(f.mode == SBOX_FACE && rel(V, Vn) <= 1e-6,
       "area: V through the change of mode, against the numerical integral");
    V = law_V(MECH_SBOX_PATCH, R, deep);
    Vn = numeric_V(MECH_SBOX_PATCH, R, deep, 200000);
    diag("patch at %.3g m: V %.10g J, numerical %.10g J (%.2g)", deep, V, Vn, rel(V, Vn));
    ok(rel(V, Vn) <= 1e-6, "patch: V through the change of mode");

    /* a face flat on the wall: the whole face, 30 x 15 mm (Eq. 20, a/b = 2, the longer side
    ** over the shorter) */
    rot_zy(0, 0, R);
    want = rect(4 * H[1] * H[2], H[1], H[2]);
    k = law_k(MECH_SBOX_AREA, R, delta, &f, &s);
    ok(f.mode == SBOX_FACE && rel(k, want) <= 1e-12, "area, face: Eq. 20 on the slider's face");
    ok(rel(law_V(MECH_SBOX_AREA, R, delta), k * delta * delta / 2) <= 1e-12,
       "area, face: V = k delta^2 / 2");
    double kp = law_k(MECH_SBOX_PATCH, R, delta, &f, &s);
    ok(rel(kp, want) <= 1e-12, "patch, face: the same (the patch is the face)");
    /* the flat punch: 2d = the face's width across the travel, 15 mm (Eq. 19) */
    double punch = mech_stiffness_punch(E_AL, NU_AL, E_AL, NU_AL, H[2]);
    rot_zy(1.5 * DEG, 1.5 * DEG, R);
    k = law_k(MECH_SBOX_CONSTANT, R, delta, &f, &s);
    ok(k == punch && rel(law_V(MECH_SBOX_CONSTANT, R, delta), k * delta * delta / 2) <= 1e-9,
       "constant: the flat punch of the 15 mm face whatever the pose, V = k delta^2 / 2");
    diag("the punch: k = %.6g N/m; the face by Eq. 20: %.6g N/m", punch, want);
    /* nothing in */
    k = law_k(MECH_SBOX_AREA, R, -1e-6, &f, &s);
    ok(k == 0 && law_V(MECH_SBOX_AREA, R, -1e-6) == 0 && f.mode == SBOX_NONE,
       "a wall not touched: k = 0, V = 0");
}

/* ---- the joint --------------------------------------------------------------------------- */

/* The slider (19 g, 15 x 30 x 15 mm) in a channel on the ground along world y (the guide's
** frame the world's), turned by R_rel (Rz(yaw) Ry(roll)) in it; with lock, an ideal prismatic
** joint along world x holds its turning (and y, z): it only moves towards the side walls. */
static mech_system *model(const double Rrel[9], double cx, const double pos[3], const double vel[3],
                          const double omega[3], int lock, const mech_sbox_def *box,
                          mech_error *err)
{
    mech_system *sys = NULL;
    if (mech_system_create_spatial(&sys, NULL, err)) return NULL;
    mech_sbody_def b = mech_sbody_default();
    b.name = "slider";
    b.mass = 0.019;
    b.inertia[0] = b.mass * (4 * H[1] * H[1] + 4 * H[2] * H[2]) / 12;
    b.inertia[1] = b.mass * (4 * H[0] * H[0] + 4 * H[2] * H[2]) / 12;
    b.inertia[2] = b.mass * (4 * H[0] * H[0] + 4 * H[1] * H[1]) / 12;
    memcpy(b.pos, pos, sizeof b.pos);
    memcpy(b.vel, vel, sizeof b.vel);
    if (omega) memcpy(b.omega, omega, sizeof b.omega);
    int sb = -1;
    if (mech_sbody_add(sys, &b, &sb, err)) goto fail;
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "guide";
    j.type = MECH_PRISMATIC;
    j.body_b = sb;
    /* a's frame: x = X, y = -Z, z = Y; the box's axes are (x, z, -y) of b's frame, so b's frame
    ** is R_rel times (x, z, -y)^T for the box to be turned by R_rel */
    const double F[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0}, PT[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
    memcpy(j.frame_a, F, sizeof F);
    mat3_mul(Rrel, PT, j.frame_b);
    j.enforce = MECH_CLEARANCE;
    j.box = *box;
    j.box.cx = j.box.cz = cx;
    j.box.length = 2 * H[1];
    j.box.width = 2 * H[0];
    j.box.height = 2 * H[2];
    if (mech_sjoint_add(sys, &j, NULL, err)) goto fail;
    if (lock) {
        mech_sjoint_def l = mech_sjoint_default();
        l.name = "lock";
        l.type = MECH_PRISMATIC;
        l.body_b = sb;
        const double X[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0}; /* z along world x */
        memcpy(l.frame_a, X, sizeof X);
        memcpy(l.frame_b, X, sizeof X);
        if (mech_sjoint_add(sys, &l, NULL, err)) goto fail;
    }
    return sys;
fail:
    mech_system_destroy(sys);
    return NULL;
}

static mech_sbox_def law_def(mech_sbox_stiffness model, int damped, double e)
{
    mech_sjoint_def d = mech_sjoint_default();
    mech_sbox_def b = d.box;
    b.stiffness = model;
    b.E_guide = b.E_slider = E_AL;
    b.nu_guide = b.nu_slider = NU_AL;
    b.damped = damped;
    b.restitution = e;
    return b;
}

static const double *col(const mech_run *run, const char *name)
{
    int i = mech_run_channel_index(run, name);
    if (i < 0) diag("no channel %s", name);
    return i < 0 ? NULL : mech_run_column(run, i);
}

typedef struct impact {
    double peak, duration, vout, drift, kmax;
    int ok;
} impact;

/* One impact on the wall xpos at 1 m/s, the slider's turning held, its deepest corner 1 um
** from the wall at the start: the peak force, how long the force acts (between the rows where
** it rises from and falls to 0, reported every 1e-8 s: 0.1 % of the shortest), the rebound
** speed and the largest change of the mechanical energy. */
static impact one_impact(double roll, double yaw, const mech_sbox_def *box)
{
    impact out = {0, 0, 0, 0, 0, 0};
    double R[9];
    rot_zy(yaw, roll, R);
    const double cx = 1e-3; /* (1.5, 1.5) degrees take 0.59 mm more on each side */
    double reach = H[0] * fabs(R[0]) + H[1] * fabs(R[1]) + H[2] * fabs(R[2]);
    const double pos[3] = {H[0] + cx - reach - 1e-6, 0, 0}, vel[3] = {1, 0, 0};
    mech_error err;
    mech_system *sys = model(R, cx, pos, vel, NULL, 1, box, &err);
    if (!sys) {
        diag("%s", err.msg);
        return out;
    }
    static const char *const ch[] = {"guide.xpos_fn", "slider.vx", "system.energy",
                                     "guide.xpos_stiffness"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.rtol = 1e-11;
    o.integ.atol = 1e-16;
    o.t_end = 6e-5;
    o.report = 1e-8;
    o.channels = ch;
    o.nchannels = 4;
    mech_run *run = NULL;
    if (mech_simulate(sys, &o, &run, &err)) diag("%s", err.msg);
    if (run && mech_run_get_status(run) == MECH_RUN_COMPLETE) {
        long n = mech_run_rows(run);
        const double *t = mech_run_time(run), *fn = col(run, "guide.xpos_fn"),
                     *vx = col(run, "slider.vx"), *E = col(run, "system.energy"),
                     *k = col(run, "guide.xpos_stiffness");
        double t0 = NAN, t1 = NAN;
        for (long i = 1; i < n; i++) {
            if (fn[i] > 0 && fn[i - 1] == 0 && isnan(t0)) t0 = t[i - 1];
            if (fn[i] == 0 && fn[i - 1] > 0) t1 = t[i];
            out.peak = fmax(out.peak, fn[i]);
            out.kmax = fmax(out.kmax, k[i]);
            out.drift = fmax(out.drift, fabs(E[i] - E[0]));
        }
        out.duration = t1 - t0;
        out.vout = vx[n - 1];
        out.ok = isfinite(out.duration) && vx[n - 1] < 0;
    }
    mech_run_free(run);
    mech_system_destroy(sys);
    return out;
}

/*
** The paper's Fig. 9 check: variable against constant stiffness in four poses.  Elastic laws:
** the rebound is the impact speed and the energy is kept (the turning is held, so V's k(s) is
** the law's along the path: the energy changes by the integrator's error only).  The paper
** claims a lower peak and a slightly longer contact for the variable stiffness in every pose:
** checked here (area and patch), the numbers printed.
*/
static void test_impacts(void)
{
    const double poses[4][2] = {{0, 0.3}, {0, 1.5}, {0.3, 1.5}, {1.5, 1.5}};
    const mech_sbox_stiffness models[3] = {MECH_SBOX_CONSTANT, MECH_SBOX_AREA, MECH_SBOX_PATCH};
    const char *names[3] = {"constant", "area", "patch"};
    const double E0 = 0.5 * 0.019;
    int kept = 1, lower = 1, longer = 1, all = 1;
    for (int p = 0; p < 4; p++) {
        impact r[3];
        for (int m = 0; m < 3; m++) {
            mech_sbox_def box = law_def(models[m], 0, 1);
            r[m] = one_impact(poses[p][0] * DEG, poses[p][1] * DEG, &box);
            all &= r[m].ok;
            kept &= r[m].drift <= 1e-8 * E0 && fabs(r[m].vout + 1) <= 1e-8;
            diag("(roll %.1f, yaw %.1f) deg, %-8s: peak %9.5g N, contact %8.4g us, k up to %.4g "
                 "N/m, "
                 "rebound %.10f m/s, energy drift %.2g J",
                 poses[p][0], poses[p][1], names[m], r[m].peak, r[m].duration * 1e6, r[m].kmax,
                 -r[m].vout, r[m].drift);
        }
        for (int m = 1; m < 3; m++) {
            lower &= r[m].peak < r[0].peak;
            longer &= r[m].duration > r[0].duration;
        }
    }
    ok(all, "impact: every run ends with the slider thrown back");
    ok(kept, "impact: elastic, the turning held: the rebound is 1 m/s, the energy kept to 1e-8");
    ok(lower, "impact: the variable stiffness gives a lower peak force in the four poses");
    ok(longer, "impact: and a longer contact");
}

/* Damped: the Lankarani-Nikravesh factor with e = 0.58 (the paper's Tab. 3) in the pose (0.3,
** 1.5): the rebound is slower (not e times the impact speed: the factor was fitted to Hertz's
** law, and k changes through the contact), and the loss is the contact damping account. */
static void test_damped(void)
{
    double R[9];
    rot_zy(0.3 * DEG, 1.5 * DEG, R);
    const double cx = 0.5e-3;
    double reach = H[0] * fabs(R[0]) + H[1] * fabs(R[1]) + H[2] * fabs(R[2]);
    const double pos[3] = {H[0] + cx - reach - 1e-6, 0, 0}, vel[3] = {1, 0, 0};
    mech_sbox_def box = law_def(MECH_SBOX_AREA, 1, 0.58);
    mech_error err;
    mech_system *sys = model(R, cx, pos, vel, NULL, 1, &box, &err);
    if (!ok(sys != NULL, "damped: the model is built")) {
        diag("%s", err.msg);
        return;
    }
    static const char *const ch[] = {"slider.vx", "system.energy", "system.contact_damping",
                                     "system.balance", "guide.xpos.impacts"};
    mech_sim_options o = mech_sim_default_options();
    o.integ.method = MECH_DOPRI5;
    o.integ.rtol = 1e-11;
    o.integ.atol = 1e-16;
    o.t_end = 6e-5;
    o.report = 1e-7;
    o.channels = ch;
    o.nchannels = 5;
    mech_run *run = NULL;
    mech_simulate(sys, &o, &run, &err);
    long n = run ? mech_run_rows(run) : 0;
    if (ok(n > 0 && mech_run_get_status(run) == MECH_RUN_COMPLETE, "damped: the run ends")) {
        const double *vx = col(run, "slider.vx"), *E = col(run, "system.energy"),
                     *D = col(run, "system.contact_damping"), *B = col(run, "system.balance");
        double loss = E[0] - E[n - 1], bal = 0;
        for (long i = 0; i < n; i++) bal = fmax(bal, fabs(B[i]));
        diag("damped (0.3, 1.5) deg, e = 0.58: rebound %.6g m/s, loss %.6g J, damping account "
             "%.6g J, balance %.3g J",
             -vx[n - 1], loss, D[n - 1], bal);
        ok(-vx[n - 1] > 0.4 && -vx[n - 1] < 0.9, "damped: it rebounds slower");
        ok(fabs(loss - D[n - 1]) <= 1e-9 * E[0] && bal <= 1e-9 * E[0],
           "damped: the loss is the contact damping account");
    }
    mech_run_free(run);
    mech_system_destroy(sys);
}

/*
** Free to turn: the slider thrown across the channel with a spin, elastic area and patch laws,
** no gravity.  Now k changes with the orientation during each contact, and F = k delta at the
** overlap's pressure centre is no gradient of V: the energy changes at each impact by what the
** turning did to V beyond the force's work.  Measured and bounded here (the constant law, whose
** k does not change, keeps the energy but for its force's moment about the deepest corner: the
** pressure centre is not where delta' is measured; only a force at the deepest corner would
** keep it, with a moment that jumps between the ends of an edge as the slider rocks).
*/
static void test_turning(void)
{
    const mech_sbox_stiffness models[3] = {MECH_SBOX_CONSTANT, MECH_SBOX_AREA, MECH_SBOX_PATCH};
    const char *names[3] = {"constant", "area", "patch"};
    const double vel[3] = {0.5, 0.1, 0.3}, omega[3] = {2, -3, 5}, pos[3] = {0, 0, 0};
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    double worst[3] = {0, 0, 0}, E0[3] = {1, 1, 1};
    long hits[3] = {0, 0, 0};
    for (int m = 0; m < 3; m++) {
        mech_sbox_def box = law_def(models[m], 0, 1);
        mech_error err;
        mech_system *sys = model(I, 0.5e-3, pos, vel, omega, 0, &box, &err);
        if (!sys) {
            diag("%s", err.msg);
            continue;
        }
        static const char *const ch[] = {"system.energy", "system.balance", "guide.impacts"};
        mech_sim_options o = mech_sim_default_options();
        o.integ.method = MECH_DOPRI5;
        o.integ.rtol = 1e-10;
        o.integ.atol = 1e-14;
        o.t_end = 0.02;
        o.report = 1e-5;
        o.channels = ch;
        o.nchannels = 3;
        mech_run *run = NULL;
        if (mech_simulate(sys, &o, &run, &err)) diag("%s", err.msg);
        if (run && mech_run_get_status(run) == MECH_RUN_COMPLETE) {
            long n = mech_run_rows(run);
            const double *E = col(run, "system.energy");
            for (long i = 0; i < n; i++) worst[m] = fmax(worst[m], fabs(E[i] - E[0]));
            E0[m] = E[0];
            hits[m] = (long)col(run, "guide.impacts")[n - 1];
            diag("turning, %-8s: %ld impacts, the energy changes by up to %.3g J (%.3g of %.4g J)",
                 names[m], hits[m], worst[m], worst[m] / E[0], E[0]);
        }
        mech_run_free(run);
        mech_system_destroy(sys);
    }
    ok(hits[0] >= 10 && hits[1] >= 10 && hits[2] >= 10, "turning: tens of impacts");
    /* the bounds: twice what was measured (4.4 %, 1.9 %, 2.7 %: the laws' own, not the
    ** integrator's: the same at rtol 1e-9).  With the force at the patch's centroid, as before
    ** the pressure centre, they were 0.66 %, 9.6 % and 3.8 % (the largest change in one
    ** impact: 0.6 %, 5.2 %, 4.4 % then, 2.5 %, 1.0 %, 2.1 % now) */
    ok(worst[0] <= 0.09 * E0[0], "turning: the constant law changes the energy by 9 % at most");
    ok(worst[1] <= 0.04 * E0[1] && worst[2] <= 0.06 * E0[2],
       "turning: the area law by 4 %, the patch law by 6 % at most");
}

/* The stored energy at depths down to the rounding of the wall's offset (fuzz, F17: a slider
** grazing a wall by 1e-17 m): there k(s) is rounding noise, and the adaptive quadrature, which
** halved every piece to its last level without meeting its relative tolerance, evaluated k
** millions of times per call (seconds under the sanitizers, a run's report rows minutes).  The
** pieces now stop at the depth's resolution; the energy stays k delta^2 / 2 to the noise. */
static void test_tiny_depth(void)
{
    double R[9];
    rot_zy(0.3 * DEG, 0.2 * DEG, R);
    for (int model = MECH_SBOX_AREA; model <= MECH_SBOX_CONSTANT; model++) {
        for (double delta = 1e-19; delta <= 1.1e-12; delta *= 100) {
            clock_t t0 = clock();
            double V = law_V(model, R, delta);
            double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
            sbox_face f;
            sbox_section sec;
            double k = law_k(model, R, delta, &f, &sec);
            diag("model %d, delta %g m: V %.6g J (k delta^2/2 %.6g J) in %.3g s", model, delta, V,
                 k * delta * delta / 2, cpu);
            char name[128];
            snprintf(
                name, sizeof name,
                "model %d: the energy at a depth of %g m, finite, at most k delta^2, in %.2g s",
                model, delta, cpu);
            ok(isfinite(V) && V >= 0 && V <= k * delta * delta && cpu < 0.05, name);
        }
    }
}

int main(void)
{
    test_tiny_depth();
    test_stiffness();
    test_impacts();
    test_damped();
    test_turning();
    return done_testing();
}

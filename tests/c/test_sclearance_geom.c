/* SPDX-License-Identifier: MIT */
/*
** The contact geometry of a spatial revolute joint with radial and axial clearance
** (mech/sclearance_geom.h): the four contacts of hand-computed poses, the exact farthest rim
** point against brute force, the contact kinematics against finite differences, the A/B
** symmetry, the journal-edge and beyond flags, each contact alone and the input checks.
**
** The hand poses are written in the orthonormal frame e1, e2, e3 = ai of the bearing (tilted
** against the world axes so that no component is trivially zero), with the bearing of radius
** 1 and length 2 and the journal of radius 0.9 and length 1.8: cr = ca = 0.1.
**
** Tolerances.  Hand values are O(1) lengths computed through a few dozen flops (a projection,
** a hypot, a handful of sums), so a few ulps of 1: 1e-14.  The rim maximiser solves its
** secular equation to rounding, so its value agrees with the brute-force maximum (1e5
** samples, every discrete local maximum refined by golden section to an angle bracket of
** 1e-9, where the value is flat to rounding: its error is curvature * 1e-18) to a few ulps;
** 1e-12 relative, as asked.  The rates of the hand poses are short dot products of O(1)
** values: 1e-14; a spin about the journal axis has delta_dot = 0 at the exact maximiser
** since the rim tangent is normal to n there, up to the maximiser's rounding times |w| Rj
** (w = 2.5): 1e-13.  Finite differences are central with h = 1e-6 along motions of constant
** angular velocity (|w| < 3.5) and acceleration, with the tilt between the axes >= 0.2: the
** axial depth holds Rj sin(tilt), whose third derivative grows like Rj |w|^3 / sin(tilt)^2
** (~ 1e3 here), so the truncation h^2 / 6 |depth'''| is ~ 2e-10 and the rounding
** eps |depth| / h ~ 4e-10: 1e-8 (seen: 8e-10).  Symmetric poses go through the same
** operations up to signs: 1e-14.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sclearance_geom.h"
#include "tap.h"
#include "uniform.h"
#include "vec3.h"

static const double pi = 3.14159265358979323846;

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static double uniform(double lo, double hi)
{
    return uniform_next(&rng_state, lo, hi);
}

static void random_unit(double a[3])
{
    do {
        for (int k = 0; k < 3; k++) a[k] = uniform(-1, 1);
    } while (vec3_norm(a) < 0.1 || vec3_norm(a) > 1);
    vec3_unit(a, a);
}

/* The bearing frame: e3 = ai, e1, e2 normal to it. */
static const double e1[3] = {2. / 3, 1. / 3, -2. / 3}, e2[3] = {2. / 3, -2. / 3, 1. / 3},
                    e3[3] = {1. / 3, 2. / 3, 2. / 3};
static const double P0[3] = {0.3, -0.2, 0.5};
static const sclearance_geom G = {1.0, 2.0, 0.9, 1.8};
/* The face contact's smoothing angle of sclearance_geom.c: an end face meeting its end wall
** at tilt b has the depth (end centre's depth) + Rj sqrt(sin^2 b + FACE^2); aligned, Rj FACE
** deeper than the face. */
#define FACE 1e-6
static double face(double Rj, double sb)
{
    return Rj * sqrt(sb * sb + FACE * FACE);
}

/* out = P0 + x e1 + y e2 + z e3 (origin o = P0) or the direction x e1 + y e2 + z e3. */
static void at(const double *o, double x, double y, double z, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = (o ? o[i] : 0) + x * e1[i] + y * e2[i] + z * e3[i];
}

static void pose_set(sclearance_pose *p, const double Pj[3], const double aj[3])
{
    memcpy(p->Pi, P0, sizeof P0);
    memcpy(p->ai, e3, sizeof e3);
    memcpy(p->Pj, Pj, 3 * sizeof(double));
    memcpy(p->aj, aj, 3 * sizeof(double));
}

static const char *cname[4] = {"radial A", "radial B", "axial A", "axial B"};

/* Distance from the bearing axis and coordinate along it of x. */
static void cyl(const sclearance_pose *p, const double x[3], double *rho, double *s)
{
    double rel[3], t[3];
    vec3_sub(x, p->Pi, rel);
    *s = vec3_dot(rel, p->ai);
    vec3_scale(*s, p->ai, t);
    vec3_sub(rel, t, t);
    *rho = vec3_norm(t);
}

static void test_centred(void)
{
    sclearance_pose p;
    sclearance_result r;
    pose_set(&p, P0, e3);
    ok(sclearance_check(&G, &p, NULL) == MECH_OK, "centred: the pose is accepted");
    ok(sclearance_detect(&G, &p, &r) == 0 && r.nactive == 0, "centred aligned: no contact");
    for (int k = 0; k < 4; k++) {
        char name[80];
        snprintf(name, sizeof name, "centred: %s inactive, depth -0.1, delta 0", cname[k]);
        double want = k < 2 ? -0.1 : -0.1 + face(0.9, 0); /* aligned */
        ok(!r.c[k].active && fabs(r.c[k].depth - want) <= 1e-14 && r.c[k].delta == 0, name);
    }
    ok(!r.edge[0].active && !r.edge[1].active, "centred: no edge flag");
}

/* Offset e along cos(phi) e1 + sin(phi) e2, aligned. */
static void test_radial(void)
{
    const double phis[4] = {0, 1.1, 2.5, -2.0};
    for (int f = 0; f < 4; f++) {
        double c = cos(phis[f]), s = sin(phis[f]), dir[3], Pj[3], want[3];
        char name[120];
        at(NULL, c, s, 0, dir);
        at(P0, 0.15 * c, 0.15 * s, 0, Pj);
        sclearance_pose p;
        sclearance_result r;
        pose_set(&p, Pj, e3);
        sclearance_detect(&G, &p, &r);
        snprintf(name, sizeof name, "radial e = 0.15, phi = %g: two contacts", phis[f]);
        ok(r.nactive == 2, name);
        for (int end = 0; end < 2; end++) {
            const sclearance_contact *k = &r.c[end];
            double z = end ? 0.9 : -0.9;
            snprintf(name, sizeof name, "radial e = 0.15, phi = %g, %s: active, delta = e - cr",
                     phis[f], cname[end]);
            ok(k->active, name);
            is_num(k->delta, 0.05, 1e-14, name);
            snprintf(name, sizeof name, "radial e = 0.15, phi = %g, %s: n along the offset",
                     phis[f], cname[end]);
            vec_is(k->n, dir, 1e-14, name);
            /* Cj = Pi + z e3 + (e + Rj) dir, Ci = Pi + z e3 + Ri dir */
            at(P0, 1.05 * c, 1.05 * s, z, want);
            snprintf(name, sizeof name, "radial e = 0.15, phi = %g, %s: Cj", phis[f], cname[end]);
            vec_is(k->cj, want, 1e-14, name);
            at(P0, c, s, z, want);
            snprintf(name, sizeof name, "radial e = 0.15, phi = %g, %s: Ci", phis[f], cname[end]);
            vec_is(k->ci, want, 1e-14, name);
            snprintf(name, sizeof name, "radial e = 0.15, phi = %g, %s: inactive, depth -0.1",
                     phis[f], cname[2 + end]);
            ok(!r.c[2 + end].active && fabs(r.c[2 + end].depth + 0.1 - face(0.9, 0)) <= 1e-14,
               name);
        }
        ok(!r.edge[0].active && !r.edge[1].active, "radial: no edge flag");
        at(P0, 0.05 * c, 0.05 * s, 0, Pj);
        pose_set(&p, Pj, e3);
        sclearance_detect(&G, &p, &r);
        snprintf(name, sizeof name, "radial e = 0.05, phi = %g: no contact, radial depth -0.05",
                 phis[f]);
        ok(r.nactive == 0 && fabs(r.c[0].depth + 0.05) <= 1e-14 &&
               fabs(r.c[1].depth + 0.05) <= 1e-14,
           name);
    }
}

/* Offset z along ai, aligned. */
static void test_axial(void)
{
    for (int side = 0; side < 2; side++) {
        double sigma = side ? 1 : -1, Pj[3], n[3];
        char name[120];
        at(P0, 0, 0, 0.15 * sigma, Pj);
        at(NULL, 0, 0, sigma, n);
        sclearance_pose p;
        sclearance_result r;
        pose_set(&p, Pj, e3);
        sclearance_detect(&G, &p, &r);
        const sclearance_contact *k = &r.c[2 + side], *o = &r.c[3 - side];
        snprintf(name, sizeof name, "axial %+g: one contact, %s", 0.15 * sigma, cname[2 + side]);
        ok(r.nactive == 1 && k->active, name);
        snprintf(name, sizeof name, "axial %+g: delta = offset - ca + Rj FACE", 0.15 * sigma);
        is_num(k->delta, 0.05 + face(0.9, 0), 1e-14, name);
        snprintf(name, sizeof name, "axial %+g: n = %+g ai", 0.15 * sigma, sigma);
        vec_is(k->n, n, 1e-15, name);
        /* aligned: the whole face presses, Cj is the end centre, s = sigma (Lj/2 + 0.15) */
        double E[3], want[3];
        at(P0, 0, 0, sigma * 1.05, E);
        snprintf(name, sizeof name, "axial %+g: Cj at the end face's centre", 0.15 * sigma);
        vec_is(k->cj, E, 1e-14, name);
        snprintf(name, sizeof name, "axial %+g: Ci = its foot on the end wall", 0.15 * sigma);
        for (int i = 0; i < 3; i++) want[i] = k->cj[i] - 0.05 * n[i];
        vec_is(k->ci, want, 1e-14, name);
        double rho, s;
        cyl(&p, k->ci, &rho, &s);
        is_num(s, sigma, 1e-14, name);
        snprintf(name, sizeof name, "axial %+g: the other end wall: depth -0.25 + Rj FACE",
                 0.15 * sigma);
        ok(!o->active && fabs(o->depth + 0.25 - face(0.9, 0)) <= 1e-14, name);
        snprintf(name, sizeof name, "axial %+g: radial depth -cr, inactive, no edge", 0.15 * sigma);
        ok(!r.c[0].active && !r.c[1].active && fabs(r.c[0].depth + 0.1) <= 1e-14 &&
               fabs(r.c[1].depth + 0.1) <= 1e-14 && !r.edge[0].active && !r.edge[1].active,
           name);
    }
}

/*
** A journal tilted by beta about e2 through its centre, offset e along e1:
** aj = cos(beta) e3 + sin(beta) e1.  The end plane of E = Pj +- (Lj/2) aj is spanned by
** u = cos(beta) e1 - sin(beta) e3 and e2, and E's offset from the bearing axis is D e1 with
** D = e +- (Lj/2) sin(beta).  The rim point E + Rj (x u + y e2), x^2 + y^2 = 1, is at the
** squared distance from the axis
**     rho^2 = (D + Rj cos(beta) x)^2 + Rj^2 y^2 = D^2 + Rj^2 + 2 D Rj cos(beta) x
**             - Rj^2 sin(beta)^2 x^2.
** In x on [-1, 1] this is a concave parabola with its vertex at
** x* = D cos(beta) / (Rj sin(beta)^2).  When |x*| >= 1 the maximum is at x = sign(D):
**     rho = |D| + Rj cos(beta),  the point E + sign(D) Rj u,  n = sign(D) e1
** (also the direction of the reconstructed scheme).  Otherwise it is at x*, y = +-sqrt(1 - x*^2):
**     rho^2 = Rj^2 + D^2 / sin(beta)^2,
** with the radial vector (D / sin(beta)^2) e1 + Rj y e2, which the scheme misses (it keeps x = 1).
*/
static double tilt_rho(double D, double beta, double Rj)
{
    double sb = sin(beta), cb = cos(beta);
    if (fabs(D) * cb >= Rj * sb * sb) return fabs(D) + Rj * cb;
    return sqrt(Rj * Rj + D * D / (sb * sb));
}

static void tilt_pose(sclearance_pose *p, double e, double beta)
{
    double Pj[3], aj[3];
    at(P0, e, 0, 0, Pj);
    at(NULL, sin(beta), 0, cos(beta), aj);
    pose_set(p, Pj, aj);
}

static void test_tilt_small(void)
{
    const double beta = 0.1, e = 0.05, sb = sin(beta), cb = cos(beta);
    sclearance_pose p;
    sclearance_result r;
    tilt_pose(&p, e, beta);
    sclearance_detect(&G, &p, &r);
    double DB = e + 0.9 * sb, DA = e - 0.9 * sb, want[3];
    ok(DB * cb >= 0.9 * sb * sb && fabs(DA) * cb >= 0.9 * sb * sb,
       "small tilt: both ends in the regime x = sign(D)");
    ok(r.nactive == 1 && r.c[SCLEARANCE_RADIAL_B].active, "small tilt: radial B alone touches");
    /* delta_B = e + (Lj/2) sin(beta) + Rj cos(beta) - Ri = 0.0353... */
    is_num(r.c[SCLEARANCE_RADIAL_B].delta, DB + 0.9 * cb - 1, 1e-14,
           "small tilt: delta at B = e + (Lj/2) sin b + Rj cos b - Ri");
    /* Cj = E_B + Rj u = Pi + (DB + Rj cos b) e1 + ((Lj/2) cos b - Rj sin b) e3 */
    double sB = 0.9 * cb - 0.9 * sb;
    at(P0, DB + 0.9 * cb, 0, sB, want);
    vec_is(r.c[SCLEARANCE_RADIAL_B].cj, want, 1e-14, "small tilt: Cj at B");
    at(P0, 1, 0, sB, want);
    vec_is(r.c[SCLEARANCE_RADIAL_B].ci, want, 1e-14, "small tilt: Ci at B on the cylinder");
    vec_is(r.c[SCLEARANCE_RADIAL_B].n, e1, 1e-14, "small tilt: n at B = e1");
    /* end A: D_A < 0, so the rim point is on the -e1 side, at |D_A| + Rj cos b < Ri */
    is_num(r.c[SCLEARANCE_RADIAL_A].depth, fabs(DA) + 0.9 * cb - 1, 1e-14,
           "small tilt: depth at A = |e - (Lj/2) sin b| + Rj cos b - Ri < 0");
    ok(r.c[SCLEARANCE_RADIAL_A].depth < 0 && !r.c[SCLEARANCE_RADIAL_A].active,
       "small tilt: A is open");
    at(NULL, -1, 0, 0, want);
    vec_is(r.c[SCLEARANCE_RADIAL_A].n, want, 1e-14, "small tilt: n at A = -e1");
    /* axial: the highest rim point at B is at s = (Lj/2) cos b + Rj sin b; the face law adds
    ** Rj (sqrt(sin^2 b + FACE^2) - sin b), 4.5e-12 here */
    is_num(r.c[SCLEARANCE_AXIAL_B].depth, 0.9 * cb + face(0.9, sb) - 1, 1e-14,
           "small tilt: axial depth at B = (Lj/2) cos b + Rj sqrt(sin^2 b + FACE^2) - Li/2");
    is_num(r.c[SCLEARANCE_AXIAL_A].depth, 0.9 * cb + face(0.9, sb) - 1, 1e-14,
           "small tilt: axial depth at A, the same");
    ok(fabs(r.c[SCLEARANCE_AXIAL_B].depth - (0.9 * cb + 0.9 * sb - 1)) <= 1e-11,
       "small tilt: within 1e-11 of the deepest rim point's depth");
}

/* A short journal (a disc) tilted far: the exact maximum is inside the rim, off the scheme. */
static const sclearance_geom G2 = {1.0, 2.0, 0.9, 0.2};

static void test_tilt_large(void)
{
    const double beta = 0.7, e = 0.3, sb = sin(beta), cb = cos(beta);
    sclearance_pose p;
    sclearance_result r;
    tilt_pose(&p, e, beta);
    ok(sclearance_check(&G2, &p, NULL) == MECH_OK, "large tilt: the pose is accepted");
    sclearance_detect(&G2, &p, &r);
    double DB = e + 0.1 * sb, DA = e - 0.1 * sb;
    ok(DB * cb < 0.9 * sb * sb && DA * cb < 0.9 * sb * sb,
       "large tilt: both ends in the regime |x*| < 1");
    const sclearance_contact *k = &r.c[SCLEARANCE_RADIAL_B];
    double rhoB = sqrt(0.81 + DB * DB / (sb * sb));
    ok(k->active && r.nactive == 1, "large tilt: radial B alone touches");
    is_num(k->delta, rhoB - 1, 1e-14, "large tilt: delta at B = sqrt(Rj^2 + D^2/sin^2 b) - Ri");
    ok(k->delta - (DB + 0.9 * cb - 1) > 0.01,
       "large tilt: deeper than the scheme's rim point by > 0.01");
    double x = DB * cb / (0.9 * sb * sb), y = sqrt(1 - x * x), want[3], want2[3];
    at(NULL, DB / (sb * sb) / rhoB, 0.9 * y / rhoB, 0, want);
    at(NULL, DB / (sb * sb) / rhoB, -0.9 * y / rhoB, 0, want2);
    ok(fmin(vdiff(k->n, want), vdiff(k->n, want2)) <= 1e-13,
       "large tilt: n at B is one of the two mirror maximisers");
    is_num(r.c[SCLEARANCE_RADIAL_A].depth, tilt_rho(DA, beta, 0.9) - 1, 1e-14,
           "large tilt: depth at A from the closed form, < 0");
    ok(!r.c[SCLEARANCE_RADIAL_A].active, "large tilt: A is open");
}

/* A tilted journal centred on the bearing axis: the farthest rim points are +-(aj x ai). */
static void test_on_axis(void)
{
    sclearance_pose p;
    sclearance_result r;
    double aj[3], want[3];
    at(NULL, sin(0.3), 0, cos(0.3), aj);
    /* end B centre on the bearing axis (to rounding): E_B = Pj + (Lj/2) aj = P0 */
    double Pj[3];
    for (int i = 0; i < 3; i++) Pj[i] = P0[i] - 0.9 * aj[i];
    pose_set(&p, Pj, aj);
    sclearance_detect(&G, &p, &r);
    is_num(r.c[SCLEARANCE_RADIAL_B].rho, 0.9, 1e-14, "end centre on the axis, tilted: rho = Rj");
    vec3_cross(aj, e3, want);
    vec3_unit(want, want);
    double want2[3];
    vec3_scale(-1, want, want2);
    ok(fmin(vdiff(r.c[SCLEARANCE_RADIAL_B].n, want), vdiff(r.c[SCLEARANCE_RADIAL_B].n, want2)) <=
           1e-14,
       "and n = +-unit(aj x ai) (the sign from E's rounding off the axis)");
    double m[3];
    sclearance_rim_farthest(P0, aj, 0.9, P0, e3, m);
    vec_is(m, want, 1e-15, "a tilted rim centred exactly on the axis: m = +unit(aj x ai)");
    double E[3];
    at(P0, 0, 0, 0.9, E);
    sclearance_rim_farthest(E, e3, 0.9, P0, e3, m);
    ok(fabs(vec3_norm(m) - 1) <= 1e-15 && fabs(vec3_dot(m, e3)) <= 1e-15,
       "end centre on the axis, aligned: a unit direction in the end plane");
}

/* Radial and axial contact at once; the edge flag. */
static void test_radial_axial_edge(void)
{
    sclearance_pose p;
    sclearance_result r;
    double Pj[3], want[3];
    at(P0, 0.15, 0, 0.13, Pj);
    pose_set(&p, Pj, e3);
    sclearance_detect(&G, &p, &r);
    ok(r.nactive == 2 && r.c[SCLEARANCE_RADIAL_A].active && r.c[SCLEARANCE_AXIAL_B].active,
       "radial 0.15 + axial 0.13: radial A and axial B active");
    is_num(r.c[SCLEARANCE_RADIAL_A].delta, 0.05, 1e-14, "radial A: delta = 0.15 - cr");
    is_num(r.c[SCLEARANCE_RADIAL_A].s, -0.77, 1e-14, "radial A: s = -Lj/2 + 0.13");
    is_num(r.c[SCLEARANCE_AXIAL_B].delta, 0.03 + face(0.9, 0), 1e-14,
           "axial B: delta = 0.13 - ca + Rj FACE");
    at(P0, 0.15, 0, 1.03, want);
    vec_is(r.c[SCLEARANCE_AXIAL_B].cj, want, 1e-14, "axial B: Cj at the face's centre");
    at(P0, 0.15, 0, 1.0, want);
    vec_is(r.c[SCLEARANCE_AXIAL_B].ci, want, 1e-14, "axial B: Ci its foot on the end wall");
    ok(!r.c[SCLEARANCE_RADIAL_B].active && fabs(r.c[SCLEARANCE_RADIAL_B].depth - 0.05) <= 1e-14,
       "radial B: out past Li/2 (s = 1.03), so dropped, depth 0.05");
    ok(r.edge[1].active && !r.edge[0].active, "edge flag at B only");
    is_num(r.edge[1].radial, 0.05, 1e-14, "edge B: rho - Ri");
    is_num(r.edge[1].axial, 0.03, 1e-14, "edge B: |s| - Li/2");

    at(P0, 0.15, 0, 0.05, Pj);
    pose_set(&p, Pj, e3);
    sclearance_detect(&G, &p, &r);
    ok(r.nactive == 2 && r.c[0].active && r.c[1].active && !r.edge[0].active && !r.edge[1].active,
       "radial 0.15 + axial 0.05 (< ca): both radial, no edge");

    /* pushed past the A end wall while offset radially */
    at(P0, 0, -0.12, -0.3, Pj);
    pose_set(&p, Pj, e3);
    sclearance_detect(&G, &p, &r);
    ok(r.edge[0].active && !r.edge[1].active, "pushed past A, offset 0.12: edge flag at A");
    is_num(r.edge[0].radial, 0.02, 1e-14, "edge A: rho - Ri = 0.12 - cr");
    is_num(r.edge[0].axial, 0.2, 1e-14, "edge A: |s| - Li/2 = 0.3 - ca");
    at(P0, 0, -1.02, -1.2, want);
    vec_is(r.edge[0].p, want, 1e-14, "edge A: the point");
    at(P0, 0, 0, -0.3, Pj);
    pose_set(&p, Pj, e3);
    sclearance_detect(&G, &p, &r);
    ok(!r.edge[0].active && !r.edge[1].active, "pushed past A, centred radially: no edge flag");
}

/* rho and s of the rim point E + R (cos t u + sin t v) */
static void rim_eval(const sclearance_pose *p, const double E[3], const double u[3],
                     const double v[3], double R, double t, double *rho, double *s)
{
    double x[3];
    for (int i = 0; i < 3; i++) x[i] = E[i] + R * (cos(t) * u[i] + sin(t) * v[i]);
    cyl(p, x, rho, s);
}

/* The maximum over the rim of f = rho (which = 0) or sigma s (which = 1): samples, then golden
** section around every discrete local maximum. */
static double brute_max(const sclearance_pose *p, const double E[3], const double a[3], double R,
                        int which, double sigma)
{
    enum { N = 100000 };
    static double f[N];
    double u[3], v[3], t[3] = {1, 0, 0};
    if (fabs(a[0]) > 0.6) t[0] = 0, t[1] = 1;
    vec3_cross(a, t, u);
    vec3_unit(u, u);
    vec3_cross(a, u, v);
    double h = 2 * pi / N, best = -INFINITY;
    for (int k = 0; k < N; k++) {
        double rho, s;
        rim_eval(p, E, u, v, R, k * h, &rho, &s);
        f[k] = which ? sigma * s : rho;
    }
    for (int k = 0; k < N; k++) {
        if (!(f[k] >= f[(k + N - 1) % N] && f[k] >= f[(k + 1) % N])) continue;
        double lo = (k - 1) * h, hi = (k + 1) * h, g = (sqrt(5) - 1) / 2;
        while (hi - lo > 1e-9) {
            double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo), r1, r2, s1, s2;
            rim_eval(p, E, u, v, R, m1, &r1, &s1);
            rim_eval(p, E, u, v, R, m2, &r2, &s2);
            double f1 = which ? sigma * s1 : r1, f2 = which ? sigma * s2 : r2;
            if (f1 < f2)
                lo = m1;
            else
                hi = m2;
        }
        double rho, s;
        rim_eval(p, E, u, v, R, (lo + hi) / 2, &rho, &s);
        best = fmax(best, fmax(f[k], which ? sigma * s : rho));
    }
    return best;
}

/* A random pose: a random bearing axis, a journal tilted by up to tmax, offsets. */
static void pose_tilted(sclearance_geom *g, sclearance_pose *p, double tilt, double offmax);

static void random_pose(sclearance_geom *g, sclearance_pose *p, double tmax)
{
    pose_tilted(g, p, uniform(0, tmax), 0.4);
}

/* A random pose with the journal tilted by tilt from the bearing axis, its centre offset
** radially by up to offmax and axially by up to 0.3. */
static void pose_tilted(sclearance_geom *g, sclearance_pose *p, double tilt, double offmax)
{
    g->Ri = 1, g->Li = 2;
    g->Rj = uniform(0.3, 0.99), g->Lj = uniform(0.05, 1.95);
    for (int i = 0; i < 3; i++) p->Pi[i] = uniform(-1, 1);
    random_unit(p->ai);
    double w[3], t[3], axis[3];
    random_unit(w);
    vec3_cross(p->ai, w, axis);
    vec3_unit(axis, axis);
    vec3_cross(axis, p->ai, t); /* unit normal to ai */
    for (int i = 0; i < 3; i++) p->aj[i] = cos(tilt) * p->ai[i] + sin(tilt) * t[i];
    vec3_unit(p->aj, p->aj);
    random_unit(w);
    double off = uniform(0, offmax), ax = uniform(-0.3, 0.3);
    for (int i = 0; i < 3; i++) p->Pj[i] = p->Pi[i] + off * w[i] + ax * p->ai[i];
}

static void test_brute_force(void)
{
    double worst_r = 0, worst_a = 0, worst_rim = 0, worst_face = 0;
    int below = 0, n = 0, over = 0;
    /* the extremes: tilts from 1e-9 to pi/2, offsets from 1e-9 */
    const double tilts[5] = {1e-9, 1e-6, 1e-3, pi / 2 - 1e-9, pi / 2};
    const double offs[4] = {1e-9, 1e-4, 0.02, 0.4};
    for (int trial = 0; trial < 80; trial++) {
        sclearance_geom g;
        sclearance_pose p;
        sclearance_result r;
        if (trial < 60)
            random_pose(&g, &p, trial < 40 ? pi / 2 : 0.05);
        else
            pose_tilted(&g, &p, tilts[(trial - 60) % 5], offs[(trial - 60) / 5]);
        if (trial % 10 == 9) { /* end A centre on the bearing axis */
            double t[3];
            vec3_scale(g.Lj / 2, p.aj, t);
            vec3_add(p.Pi, t, p.Pj);
        }
        if (sclearance_check(&g, &p, NULL) != MECH_OK) continue;
        sclearance_detect(&g, &p, &r);
        for (int end = 0; end < 2; end++) {
            double E[3], t[3], sigma = end ? 1 : -1;
            vec3_scale(sigma * g.Lj / 2, p.aj, t);
            vec3_add(p.Pj, t, E);
            double rb = brute_max(&p, E, p.aj, g.Rj, 0, 0);
            double ab = brute_max(&p, E, p.aj, g.Rj, 1, sigma);
            const sclearance_contact *k = &r.c[end], *x = &r.c[2 + end];
            worst_r = fmax(worst_r, fabs(k->rho - rb) / rb);
            /* the face law: (centre depth) + Rj sqrt(|u|^2 + FACE^2) >= the deepest rim point,
            ** by at most Rj FACE */
            double xs = x->depth + g.Li / 2;
            worst_a = fmax(worst_a, fabs(xs - ab) / fmax(1, fabs(ab)));
            over += xs < ab - 1e-12 * fmax(1, fabs(ab)) || xs > ab + g.Rj * FACE * (1 + 1e-9);
            below += k->rho < rb - 1e-12 * rb;
            double rel[3];
            vec3_sub(k->cj, E, rel);
            worst_rim =
                fmax(worst_rim, fmax(fabs(vec3_norm(rel) - g.Rj), fabs(vec3_dot(rel, p.aj))));
            /* the axial point: in the end face, on the rim when the tilt is far above FACE */
            vec3_sub(x->cj, E, rel);
            double u = sqrt(fmax(0, 1 - vec3_dot(p.ai, p.aj) * vec3_dot(p.ai, p.aj)));
            worst_face = fmax(worst_face, fabs(vec3_dot(rel, p.aj)));
            worst_face = fmax(worst_face, vec3_norm(rel) - g.Rj);
            if (u > 1e-3) worst_face = fmax(worst_face, fabs(vec3_norm(rel) - g.Rj) - g.Rj * 1e-6);
            n++;
        }
    }
    ok(n == 160, "brute force: 160 ends checked (40 at extreme tilts and offsets)");
    ok(worst_r <= 1e-12, "brute force: the farthest rim distance to 1e-12 relative");
    diag("largest relative difference of rho: %.3g", worst_r);
    ok(below == 0, "brute force: never below the sampled maximum");
    ok(over == 0, "brute force: axial depth between the deepest rim point's and Rj FACE more");
    diag("largest difference of the axial depth from the deepest rim point's: %.3g", worst_a);
    ok(worst_rim <= 1e-14, "brute force: every radial Cj on its end rim (1e-14)");
    ok(worst_face <= 1e-14, "brute force: every axial Cj in its end face, on the rim (to Rj "
                            "FACE^2/tilt^2) when tilted more than 1e-3");
    diag("largest axial Cj off its face or rim: %.3g", worst_face);
    diag("largest distance off the rim: %.3g", worst_rim);
}

static void test_kinematics_hand(void)
{
    sclearance_pose p;
    sclearance_result r;
    double Pj[3];
    at(P0, 0.15 * cos(1.1), 0.15 * sin(1.1), 0.12, Pj);
    pose_set(&p, Pj, e3);
    sclearance_detect(&G, &p, &r);
    sclearance_body jb, ib;
    memset(&jb, 0, sizeof jb), memset(&ib, 0, sizeof ib);
    memcpy(jb.r, Pj, sizeof Pj);
    const double v[3] = {0.3, -0.7, 0.2};
    memcpy(jb.v, v, sizeof v);
    memcpy(ib.r, P0, sizeof P0);
    double worst = 0, worst_t = 0;
    for (int k = 0; k < 4; k++) {
        sclearance_rates q;
        sclearance_kinematics(&r.c[k], &jb, &ib, &q);
        double vn = vec3_dot(v, r.c[k].n), vt[3];
        for (int i = 0; i < 3; i++) vt[i] = v[i] - vn * r.c[k].n[i];
        worst = fmax(worst, fabs(q.delta_dot - vn));
        worst_t = fmax(worst_t, vdiff(q.vt, vt));
    }
    ok(worst <= 1e-14, "translation: delta_dot = v.n for the four contacts");
    ok(worst_t <= 1e-14, "translation: vT = v - (v.n) n");

    /* the bearing translating with the same velocity: no relative motion */
    memcpy(ib.v, v, sizeof v);
    sclearance_rates q;
    sclearance_kinematics(&r.c[0], &jb, &ib, &q);
    ok(fabs(q.delta_dot) <= 1e-15 && vec3_norm(q.vt) <= 1e-15,
       "common translation: no relative velocity");

    /* the bearing spinning about its own axis through Pi: no normal rate for any contact */
    memset(ib.v, 0, sizeof ib.v);
    memset(jb.v, 0, sizeof jb.v);
    vec3_scale(3.0, e3, ib.w);
    worst = 0;
    for (int k = 0; k < 4; k++) {
        sclearance_kinematics(&r.c[k], &jb, &ib, &q);
        worst = fmax(worst, fabs(q.delta_dot));
        double want[3];
        vec3_cross(ib.w, q.arm_i, want);
        vec3_scale(-1, want, want);
        worst_t = fmax(worst_t, vdiff(q.vt, want));
    }
    ok(worst <= 1e-14 && worst_t <= 1e-14,
       "bearing spin about ai: delta_dot = 0, vT = -w x (Ci - Pi)");
}

/* A pure spin of the journal about its own axis: delta_dot = 0 at the exact maximisers. */
static void test_kinematics_spin(void)
{
    double worst = 0, worst_t = 0, worst_arm = 0;
    for (int trial = 0; trial < 40; trial++) {
        sclearance_geom g;
        sclearance_pose p;
        sclearance_result r;
        if (trial == 0)
            g = G2, tilt_pose(&p, 0.3, 0.7);
        else
            random_pose(&g, &p, pi / 2);
        sclearance_detect(&g, &p, &r);
        sclearance_body jb, ib;
        memset(&jb, 0, sizeof jb), memset(&ib, 0, sizeof ib);
        memcpy(jb.r, p.Pj, sizeof jb.r);
        vec3_scale(2.5, p.aj, jb.w);
        memcpy(ib.r, p.Pi, sizeof ib.r);
        for (int k = 0; k < 4; k++) {
            sclearance_rates q;
            sclearance_kinematics(&r.c[k], &jb, &ib, &q);
            double want[3], arm[3];
            vec3_sub(r.c[k].cj, p.Pj, arm);
            vec3_cross(jb.w, arm, want);
            worst = fmax(worst, fabs(q.delta_dot));
            worst_t = fmax(worst_t, vdiff(q.vt, want));
            worst_arm = fmax(worst_arm, vdiff(q.arm_j, arm));
        }
    }
    ok(worst <= 1e-13, "journal spin about aj: delta_dot = 0 (the rim tangent is normal to n)");
    diag("largest |delta_dot|: %.3g", worst);
    ok(worst_t <= 1e-13, "journal spin: vT = w x (Cj - Pj), all tangential");
    ok(worst_arm == 0, "journal spin: arm_j = Cj - r");
}

/* Rodrigues: out = exp(t [w]x) x0. */
static void rotate(const double w[3], double t, const double x0[3], double out[3])
{
    double th = vec3_norm(w) * t, k[3], c1[3], c2[3];
    if (th == 0) {
        memcpy(out, x0, 3 * sizeof(double));
        return;
    }
    vec3_scale(1 / vec3_norm(w), w, k);
    vec3_cross(k, x0, c1);
    vec3_cross(k, c1, c2);
    for (int i = 0; i < 3; i++) out[i] = x0[i] + sin(th) * c1[i] + (1 - cos(th)) * c2[i];
}

typedef struct motion {
    double r0[3], v0[3], acc[3], w[3];
    double sP[3], a0[3]; /* mid-point offset from r and axis at t = 0 */
} motion;

static void motion_random(motion *m, const double P[3], const double a[3])
{
    for (int i = 0; i < 3; i++) {
        m->sP[i] = uniform(-0.5, 0.5);
        m->r0[i] = P[i] - m->sP[i];
        m->v0[i] = uniform(-1, 1);
        m->acc[i] = uniform(-2, 2);
        m->w[i] = uniform(-2, 2);
        m->a0[i] = a[i];
    }
}

static void motion_at(const motion *m, double t, double P[3], double a[3])
{
    double s[3];
    rotate(m->w, t, m->sP, s);
    rotate(m->w, t, m->a0, a);
    for (int i = 0; i < 3; i++) P[i] = m->r0[i] + m->v0[i] * t + 0.5 * m->acc[i] * t * t + s[i];
}

static void test_kinematics_fd(void)
{
    const double h = 1e-6;
    double worst = 0;
    for (int trial = 0; trial < 30; trial++) {
        sclearance_geom g;
        sclearance_pose p, pp, pm;
        sclearance_result r, rp, rm;
        do random_pose(&g, &p, 1.2);
        while (acos(fmin(1, fabs(vec3_dot(p.ai, p.aj)))) < 0.2);
        motion mi, mj;
        motion_random(&mi, p.Pi, p.ai);
        motion_random(&mj, p.Pj, p.aj);
        motion_at(&mi, h, pp.Pi, pp.ai);
        motion_at(&mj, h, pp.Pj, pp.aj);
        motion_at(&mi, -h, pm.Pi, pm.ai);
        motion_at(&mj, -h, pm.Pj, pm.aj);
        sclearance_detect(&g, &p, &r);
        sclearance_detect(&g, &pp, &rp);
        sclearance_detect(&g, &pm, &rm);
        sclearance_body jb, ib;
        memcpy(jb.r, mj.r0, sizeof jb.r), memcpy(jb.v, mj.v0, sizeof jb.v);
        memcpy(jb.w, mj.w, sizeof jb.w);
        memcpy(ib.r, mi.r0, sizeof ib.r), memcpy(ib.v, mi.v0, sizeof ib.v);
        memcpy(ib.w, mi.w, sizeof ib.w);
        for (int k = 0; k < 4; k++) {
            sclearance_rates q;
            sclearance_kinematics(&r.c[k], &jb, &ib, &q);
            double fd = (rp.c[k].depth - rm.c[k].depth) / (2 * h);
            worst = fmax(worst, fabs(q.delta_dot - fd));
        }
    }
    ok(worst <= 1e-8, "delta_dot = d(depth)/dt by central differences, 30 motions x 4 contacts");
    diag("largest difference: %.3g", worst);
}

static int same_contact(const sclearance_contact *a, const sclearance_contact *b, double tol)
{
    return a->active == b->active && fabs(a->depth - b->depth) <= tol && vdiff(a->n, b->n) <= tol &&
           vdiff(a->cj, b->cj) <= tol && vdiff(a->ci, b->ci) <= tol;
}

static void test_symmetry(void)
{
    int okr = 1, oka = 1, oke = 1;
    for (int trial = 0; trial < 20; trial++) {
        sclearance_geom g;
        sclearance_pose p, f;
        sclearance_result r, rf, rb;
        random_pose(&g, &p, 0.3);
        sclearance_detect(&g, &p, &r);
        f = p;
        vec3_scale(-1, p.aj, f.aj);
        sclearance_detect(&g, &f, &rf);
        okr =
            okr && same_contact(&r.c[0], &rf.c[1], 1e-14) && same_contact(&r.c[1], &rf.c[0], 1e-14);
        vec3_scale(-1, p.ai, f.ai);
        sclearance_detect(&g, &f, &rb);
        for (int end = 0; end < 2; end++) {
            okr = okr && same_contact(&r.c[end], &rb.c[1 - end], 1e-14);
            oka = oka && same_contact(&r.c[2 + end], &rb.c[3 - end], 1e-14);
            oke = oke && r.edge[end].active == rb.edge[1 - end].active &&
                  r.beyond[end].active == rb.beyond[1 - end].active &&
                  fabs(r.beyond[end].past - rb.beyond[1 - end].past) <= 1e-14;
        }
    }
    ok(okr, "flipping aj (and also ai) exchanges radial A and radial B");
    ok(oka, "flipping ai and aj exchanges axial A and axial B, with the same normals");
    ok(oke, "and the edge and beyond flags");
}

/* Whether two evaluations of a contact are the same bits (the fields, not the padding). */
static int identical(const sclearance_contact *a, const sclearance_contact *b)
{
    int same = a->active == b->active && a->depth == b->depth && a->delta == b->delta &&
               a->s == b->s && a->rho == b->rho;
    for (int i = 0; i < 3; i++)
        same = same && a->n[i] == b->n[i] && a->cj[i] == b->cj[i] && a->ci[i] == b->ci[i];
    return same;
}

/* sclearance_detect_one gives each contact alone, as sclearance_detect does: the same bits,
** through the whole range of tilts (turned over too), axes exactly parallel or opposite, and
** an end centre on the bearing's axis. */
static void test_detect_one(void)
{
    int same = 1, n = 0;
    for (int trial = 0; trial < 400; trial++) {
        sclearance_geom g;
        sclearance_pose p;
        sclearance_result r;
        pose_tilted(&g, &p, trial % 4 == 0 ? 0 : trial % 4 == 1 ? pi : uniform(0, pi), 0.4);
        if (trial % 10 == 9) {
            double t[3];
            vec3_scale(g.Lj / 2, p.aj, t);
            vec3_add(p.Pi, t, p.Pj);
        }
        sclearance_detect(&g, &p, &r);
        for (int k = 0; k < SCLEARANCE_NCONTACTS; k++) {
            sclearance_contact one;
            memset(&one, 0xa5, sizeof one); /* nothing left over from before */
            sclearance_detect_one(&g, &p, k, &one);
            same = same && identical(&one, &r.c[k]);
            n++;
        }
    }
    ok(same && n == 1600, "detect_one: every contact alone, the same bits as detect (1600)");
}

/* The beyond flags: the rim point of each end farthest towards the other end wall. */
static void test_beyond(void)
{
    sclearance_pose p;
    sclearance_result r;
    double Pj[3], aj[3], want[3];
    /* turned over exactly: end A (Pj - 0.9 aj) is on B's side, at s = 0.2 + 0.9 */
    at(P0, 0, 0, 0.2, Pj);
    at(NULL, 0, 0, -1, aj);
    pose_set(&p, Pj, aj);
    sclearance_detect(&G, &p, &r);
    ok(r.nactive == 0 && r.c[SCLEARANCE_AXIAL_A].depth < -2 && r.c[SCLEARANCE_AXIAL_B].depth < -1,
       "turned over, end A past wall B: no contact faces it (axial A 2.1, axial B 1.7 away)");
    ok(r.beyond[0].active && !r.beyond[1].active, "turned over: beyond flag at end A only");
    is_num(r.beyond[0].past, 0.1, 1e-14, "turned over: end A 0.1 past wall B");
    is_num(r.beyond[0].s, 1.1, 1e-14, "turned over: at s = 1.1");
    is_num(r.beyond[1].past, -0.3, 1e-14, "turned over: end B 0.3 short of wall A");

    /* turned over by pi - 0.3 about e1: aj = (0, sin b, -cos b); end A's point towards wall B
    ** is E_A + Rj (0, cos b, sin b), at s = 0.9 (cos b + sin b) and y = 0.9 (cos b - sin b) */
    const double b = 0.3, cb = cos(b), sb = sin(b);
    at(NULL, 0, sb, -cb, aj);
    pose_set(&p, P0, aj);
    sclearance_detect(&G, &p, &r);
    is_num(r.beyond[0].past, 0.9 * (cb + sb) - 1, 1e-14, "turned over, tilted: end A past wall B");
    at(P0, 0, 0.9 * (cb - sb), 0.9 * (cb + sb), want);
    vec_is(r.beyond[0].p, want, 1e-14, "turned over, tilted: the point");
    is_num(r.beyond[0].rho, 0.9 * (cb - sb), 1e-14,
           "turned over, tilted: its distance from the axis");
    ok(r.beyond[0].active && r.beyond[1].active &&
           fabs(r.beyond[0].past - r.beyond[1].past) <= 1e-14,
       "turned over, tilted, centred: both ends past the other walls, alike");

    /* a corner: an aligned journal on the wall and past end wall B, the same rim point: the edge
    ** flag, bounded by the axial contact, but nothing beyond */
    at(P0, 0.15, 0, 0.13, Pj);
    pose_set(&p, Pj, e3);
    sclearance_detect(&G, &p, &r);
    ok(r.edge[1].active && r.edge[1].axial <= r.c[SCLEARANCE_AXIAL_B].depth &&
           !r.beyond[0].active && !r.beyond[1].active,
       "corner: edge flag within the axial contact's depth, no beyond flag");

    /* random poses, tilts across (0.05, pi - 0.05): the closed form of the farthest point
    ** along -sigma ai, -sigma s(E) + Rj sqrt(1 - (ai.aj)^2) (a sinusoid over the rim); the
    ** offset Lj (ai.aj) from the other end's axial contact; and an edge on an end's own side
    ** never farther past its wall than that end's axial contact */
    double worst = 0, worst_lag = 0, worst_edge = -1;
    int over = 0, under = 0, own = 0;
    for (int trial = 0; trial < 400; trial++) {
        sclearance_geom g;
        sclearance_pose q;
        pose_tilted(&g, &q, uniform(0.05, pi - 0.05), 0.4);
        sclearance_detect(&g, &q, &r);
        double c = vec3_dot(q.ai, q.aj), root = sqrt(1 - c * c);
        for (int end = 0; end < 2; end++) {
            double sigma = end ? 1 : -1, E[3], rel[3];
            vec3_scale(sigma * g.Lj / 2, q.aj, E);
            vec3_add(q.Pj, E, E);
            vec3_sub(E, q.Pi, rel);
            double past = -sigma * vec3_dot(rel, q.ai) + g.Rj * root - g.Li / 2;
            worst = fmax(worst, fabs(r.beyond[end].past - past));
            const sclearance_contact *other = &r.c[end ? SCLEARANCE_AXIAL_A : SCLEARANCE_AXIAL_B];
            worst_lag = fmax(worst_lag, fabs(r.beyond[end].past - (other->depth - g.Lj * c)));
            *(c > 0 ? &under : &over) += r.beyond[end].active;
        }
    }
    /* journals nearly aligned, long (small axial clearance) and pushed along the axis past an
    ** end wall while off the axis: corners */
    for (int trial = 0; trial < 400; trial++) {
        sclearance_geom g;
        sclearance_pose q;
        pose_tilted(&g, &q, uniform(0, 0.05), 0.4);
        g.Rj = uniform(0.7, 0.99), g.Lj = uniform(1.6, 1.95);
        double shift = (trial % 2 ? 1 : -1) * uniform(0, 0.35), t[3];
        vec3_scale(shift, q.ai, t);
        vec3_add(q.Pj, t, q.Pj);
        sclearance_detect(&g, &q, &r);
        for (int end = 0; end < 2; end++) {
            double sigma = end ? 1 : -1;
            const sclearance_edge *e = &r.edge[end];
            double pe[3];
            vec3_sub(e->p, q.Pi, pe);
            if (e->active && sigma * vec3_dot(pe, q.ai) > 0) { /* past its own end wall */
                own++;
                worst_edge = fmax(worst_edge, e->axial - r.c[2 + end].depth);
            }
        }
    }
    diag("beyond: closed form off by %.3g, lag off by %.3g; %d flags turned over, %d not; "
         "%d own-side edges, largest overshoot past the axial depth %.3g",
         worst, worst_lag, over, under, own, worst_edge);
    /* O(1) lengths through a few roundings; sqrt(1 - c^2) >= 0.05 loses at most 1e-15 */
    ok(worst <= 1e-14, "beyond: the farthest rim point towards the other wall (closed form)");
    /* the face law's axial depth exceeds the deepest rim point's by Rj (sqrt(sin^2 + FACE^2) -
    ** sin) <= Rj FACE^2 / (2 sin 0.05) = 1e-11 at these tilts */
    ok(worst_lag <= 2e-11, "beyond: Lj (ai . aj) behind the other end's axial contact");
    ok(over > 20, "beyond: flagged on turned-over poses");
    ok(own > 20 && worst_edge <= 1e-14, "edge on its own side: within the axial contact's depth");
}

static int refused(const sclearance_geom *g, const sclearance_pose *p, const char *want1,
                   const char *want2, const char *name)
{
    mech_error err;
    mech_error_clear(&err);
    mech_status st = sclearance_check(g, p, &err);
    int good = st == MECH_ERR_ARG && err.code == MECH_ERR_ARG && strstr(err.msg, want1) &&
               (!want2 || strstr(err.msg, want2));
    if (!ok(good, name)) diag("status %d, message '%s'", (int)st, err.msg);
    return good;
}

static void test_checks(void)
{
    sclearance_pose p;
    pose_set(&p, P0, e3);
    mech_error err;
    mech_error_clear(&err);
    ok(sclearance_check(&G, &p, &err) == MECH_OK && sclearance_check(&G, NULL, NULL) == MECH_OK,
       "valid sizes and poses are accepted");
    sclearance_geom g = G;
    g.Rj = 1.0;
    refused(&g, &p, "Rj = 1", "Ri = 1", "Rj = Ri is refused, naming both");
    g = G, g.Rj = 1.5;
    refused(&g, &p, "Rj = 1.5", "Ri = 1", "Rj > Ri is refused");
    g = G, g.Lj = 2.5;
    refused(&g, &p, "Lj = 2.5", "Li = 2", "Lj > Li is refused, naming both");
    g = G, g.Lj = 2;
    refused(&g, &p, "Lj = 2", "Li = 2", "Lj = Li is refused");
    g = G, g.Ri = -1;
    refused(&g, &p, "Ri = -1", NULL, "a negative radius is refused");
    g = G, g.Rj = 0;
    refused(&g, &p, "Rj = 0", NULL, "a zero radius is refused");
    g = G, g.Li = NAN;
    refused(&g, &p, "Li = nan", NULL, "a NaN length is refused");
    g = G, g.Lj = 0;
    refused(&g, NULL, "Lj = 0", NULL, "a zero length is refused (sizes alone)");
    sclearance_pose q = p;
    memset(q.ai, 0, sizeof q.ai);
    refused(&G, &q, "bearing axis ai (0, 0, 0)", "length 0", "a zero axis is refused");
    q = p, q.aj[0] = 0, q.aj[1] = 0, q.aj[2] = 2;
    refused(&G, &q, "journal axis aj (0, 0, 2)", "length 2", "a non-unit axis is refused");
    q = p, q.Pj[1] = INFINITY;
    refused(&G, &q, "journal mid-point Pj", "inf", "a non-finite mid-point is refused");
    g = G, g.Rj = 1.5;
    ok(sclearance_check(&g, &p, NULL) == MECH_ERR_ARG, "the status without a message buffer");
}

int main(void)
{
    test_centred();
    test_radial();
    test_axial();
    test_tilt_small();
    test_tilt_large();
    test_on_axis();
    test_radial_axial_edge();
    test_brute_force();
    test_kinematics_hand();
    test_kinematics_spin();
    test_kinematics_fd();
    test_symmetry();
    test_detect_one();
    test_beyond();
    test_checks();
    return done_testing();
}

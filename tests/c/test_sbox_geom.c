/* SPDX-License-Identifier: MIT */
/*
** The contact geometry of a box slider in a rectangular channel (mech/sbox_geom.h): the gaps,
** modes and overlap sizes of hand-computed poses (centred, pushed sideways, yawed onto an edge,
** rolled and yawed onto a corner, onto three corners, through a wall), the cut of a cube by
** hand, the cut polygon, the faces' parts and the volume against numerical integration over
** random poses, the cut area across the mode changes, the rates against finite differences,
** symmetries, the input checks, and one corner's gap alone bit for bit.
**
** The hand poses are written in the guide frame X, Y, Z (tilted against the world axes so that
** no component is trivially zero) with the channel Wx = 1, Wz = 0.58 and the slider hx = 0.9,
** hy = 2, hz = 0.5: clearances 0.1 in x and 0.08 in z.  The slider's rotation in the guide
** frame is Rz(theta) Ry(phi): a roll phi about the travel axis, then a yaw theta about the
** channel's z axis.  For the face x = +Wx, n = -X, so m = R^T n = -(first row of Rz Ry)
** = (-cos(theta) cos(phi), sin(theta), -cos(theta) sin(phi)), and the corner (sx, sy, sz) is at
**     x = e + sx hx cos(theta) cos(phi) - sy hy sin(theta) + sz hz cos(theta) sin(phi)
** for the slider's centre offset by e along X: the deepest corner is (+, -, +), its
** neighbours 2 hx cos(theta) cos(phi), 2 hy sin(theta) and 2 hz cos(theta) sin(phi) shallower.
**
** Tolerances.  Hand values are O(1) lengths and areas up to 7.2 through a few dozen flops:
** 1e-14 for lengths, 1e-13 for areas and volumes.  The gaps of a turned slider come out of
** gP + m . u_c, differences of O(1) terms, with errors of a few 1e-16; sizes divided by
** sin(theta) = 0.02 carry them times 50: 1e-12.  The numerical section area integrates the
** exact chord of lines in the plane by the midpoint rule on lines spaced h apart, running at
** least 29.75 degrees from every edge the section can have (edges lie along m x e_i; the best
** of 360 directions, and three lines leave a gap of 60 degrees): the chord is piecewise linear
** with a kink at each of at most 6 vertices, its slope changing there by at most
** 4 cot(29.75 deg) = 7, and the rule errs by at most (jump) h^2 / 8 per kink: 5.25 h^2 < 6 h^2.
** The faces' parts integrate the exact interval along the axis with the larger |m_j| (slope
** <= 1, at most 2 kinks): h^2 / 4 < h^2.  The volume integrates the numerical section areas
** over the depth by Simpson's rule between the corners' depths (the section area is
** quadratic there, so Simpson is exact): the depth range times the sections' bound.  Finite
** differences are central with h = 1e-6 over rigid motions of constant angular velocity
** (|w| < 3.5) and acceleration, points up to L ~ 6 from the bodies' references: the gap's
** third derivative is ~ |w|^3 L ~ 3e2, so the truncation is ~ 5e-11, the rounding
** eps |g| / h ~ 1e-9 (|g| < 5): 1e-8 (seen: 6e-10).
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sbox_geom.h"
#include "tap.h"
#include "uniform.h"
#include "vec3.h"

static const double pi = 3.14159265358979323846;

static unsigned long long rng_state = 0x2545f4914f6cdd1dULL;
static double uniform(double lo, double hi)
{
    return uniform_next(&rng_state, lo, hi);
}

/* The guide frame of the hand poses: right-handed, X x Y = Z. */
static const double X0[3] = {2. / 3, 1. / 3, -2. / 3}, Y0[3] = {1. / 3, 2. / 3, 2. / 3},
                    Z0[3] = {2. / 3, -2. / 3, 1. / 3};
static const double O0[3] = {0.3, -0.2, 0.5};
static const sbox_geom G = {1.0, 0.58, 0.9, 2.0, 0.5};

/* out = o + x X0 + y Y0 + z Z0 (o NULL: the direction). */
static void at(const double *o, double x, double y, double z, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = (o ? o[i] : 0) + x * X0[i] + y * Y0[i] + z * Z0[i];
}

/* Rz(theta) Ry(phi), row-major. */
static void rot_zy(double theta, double phi, double out[9])
{
    double ct = cos(theta), st = sin(theta), cp = cos(phi), sp = sin(phi);
    const double rz[9] = {ct, -st, 0, st, ct, 0, 0, 0, 1};
    const double ry[9] = {cp, 0, sp, 0, 1, 0, -sp, 0, cp};
    mat3_mul(rz, ry, out);
}

/* The slider's centre at O0 + (ex, ey, ez) in the guide frame, turned by Rl in that frame. */
static void pose_set(sbox_pose *p, double ex, double ey, double ez, const double Rl[9])
{
    double Gm[9];
    for (int r = 0; r < 3; r++) Gm[3 * r] = X0[r], Gm[3 * r + 1] = Y0[r], Gm[3 * r + 2] = Z0[r];
    memcpy(p->O, O0, sizeof O0);
    memcpy(p->X, X0, sizeof X0);
    memcpy(p->Y, Y0, sizeof Y0);
    memcpy(p->Z, Z0, sizeof Z0);
    at(O0, ex, ey, ez, p->P);
    mat3_mul(Gm, Rl, p->R);
}

static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* Column i of R: the slider's axis i in the world. */
static void axis_of(const double R[9], int i, double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = R[3 * r + i];
}

static int popcount8(int x)
{
    int n = 0;
    for (int i = 0; i < 8; i++) n += (x >> i) & 1;
    return n;
}

static void test_centred(void)
{
    sbox_pose p;
    sbox_result r;
    pose_set(&p, 0, 0, 0, I3);
    ok(sbox_check(&G, &p, NULL) == MECH_OK, "centred: the pose is accepted");
    ok(sbox_detect(&G, &p, &r) == 0 && r.ncontact == 0, "centred, unturned: no contact");
    /* the corners on the face's side at the clearance W - h, the others at W + h */
    const double clear[4] = {0.1, 0.1, 0.08, 0.08}, far[4] = {1.9, 1.9, 1.08, 1.08};
    const int axis[4] = {0, 0, 2, 2}, bit[4] = {1, 0, 1, 0};
    for (int k = 0; k < SBOX_NFACES; k++) {
        const sbox_face *f = &r.face[k];
        double worst = 0, foot = 0;
        for (int c = 0; c < 8; c++) {
            int near = ((c >> axis[k]) & 1) == bit[k];
            worst = fmax(worst, fabs(f->gap[c] - (near ? clear[k] : far[k])));
            double rel[3];
            vec3_sub(f->foot[c], f->q, rel);
            foot = fmax(foot, fabs(vec3_dot(rel, f->n)));
        }
        char name[120];
        snprintf(name, sizeof name,
                 "centred, face %d: the near corners' gaps = the clearance %g, the far ones' %g", k,
                 clear[k], far[k]);
        ok(worst <= 1e-14, name);
        snprintf(name, sizeof name, "centred, face %d: mode none, no corner, delta_max = -%g", k,
                 clear[k]);
        ok(f->mode == SBOX_NONE && f->ncorners == 0 && f->inside == 0 &&
               fabs(f->delta_max + clear[k]) <= 1e-14,
           name);
        snprintf(name, sizeof name, "centred, face %d: no overlap (areas, volume, sizes 0)", k);
        ok(f->cut_area == 0 && f->volume == 0 && f->cut_n == 0 && f->axis == -1 && f->len[0] == 0 &&
               f->len[1] == 0 && f->len[2] == 0 && f->area[0] == 0 && f->area[1] == 0 &&
               f->area[2] == 0,
           name);
        snprintf(name, sizeof name, "centred, face %d: the feet on the face's plane", k);
        ok(foot <= 1e-14, name);
    }
    double n[3];
    at(NULL, -1, 0, 0, n);
    vec_is(r.face[SBOX_XPOS].n, n, 1e-15, "face x = +Wx: n = -X, into the channel");
    at(NULL, 0, 0, 1, n);
    vec_is(r.face[SBOX_ZNEG].n, n, 1e-15, "face z = -Wz: n = +Z");
}

/* Pushed sideways by e along X (face x = +-Wx) or Z (z = +-Wz), unturned. */
static void test_lateral(void)
{
    struct {
        double ex, ez;
        int face, other, axis, bit;
        double delta, cut, len[3], area[3];
    } cases[4] = {
        {0.15, 0, SBOX_XPOS, SBOX_XNEG, 0, 1, 0.05, 4.0, {0.05, 4, 1}, {4.0, 0.05, 0.2}},
        {-0.15, 0, SBOX_XNEG, SBOX_XPOS, 0, 0, 0.05, 4.0, {0.05, 4, 1}, {4.0, 0.05, 0.2}},
        {0, 0.13, SBOX_ZPOS, SBOX_ZNEG, 2, 1, 0.05, 7.2, {1.8, 4, 0.05}, {0.2, 0.09, 7.2}},
        {0, -0.13, SBOX_ZNEG, SBOX_ZPOS, 2, 0, 0.05, 7.2, {1.8, 4, 0.05}, {0.2, 0.09, 7.2}},
    };
    for (int t = 0; t < 4; t++) {
        sbox_pose p;
        sbox_result r;
        char name[160];
        pose_set(&p, cases[t].ex, 0, cases[t].ez, I3);
        sbox_detect(&G, &p, &r);
        const sbox_face *f = &r.face[cases[t].face];
        int want_in = 0;
        for (int c = 0; c < 8; c++)
            if (((c >> cases[t].axis) & 1) == cases[t].bit) want_in |= 1 << c;
        snprintf(name, sizeof name, "lateral (%g, %g): one face in contact, mode face, 4 corners",
                 cases[t].ex, cases[t].ez);
        ok(r.ncontact == 1 && f->mode == SBOX_FACE && f->ncorners == 4 && f->inside == want_in,
           name);
        snprintf(name, sizeof name, "lateral (%g, %g): delta = offset - clearance", cases[t].ex,
                 cases[t].ez);
        is_num(f->delta_max, cases[t].delta, 1e-14, name);
        double worst = 0;
        for (int c = 0; c < 8; c++)
            if ((want_in >> c) & 1) worst = fmax(worst, fabs(f->gap[c] + cases[t].delta));
        snprintf(name, sizeof name, "lateral (%g, %g): the four corners all at that depth",
                 cases[t].ex, cases[t].ez);
        ok(worst <= 1e-14, name);
        snprintf(name, sizeof name,
                 "lateral (%g, %g): the cut = the slider face parallel to the wall, %g",
                 cases[t].ex, cases[t].ez, cases[t].cut);
        is_num(f->cut_area, cases[t].cut, 1e-13, name);
        snprintf(name, sizeof name, "lateral (%g, %g): axis %d, the face normal to it", cases[t].ex,
                 cases[t].ez, cases[t].axis);
        ok(f->axis == cases[t].axis && f->cut_n == 4, name);
        for (int i = 0; i < 3; i++) {
            snprintf(name, sizeof name, "lateral (%g, %g): len[%d] = %g", cases[t].ex, cases[t].ez,
                     i, cases[t].len[i]);
            is_num(f->len[i], cases[t].len[i], 1e-14, name);
            snprintf(name, sizeof name, "lateral (%g, %g): area[%d] = %g", cases[t].ex, cases[t].ez,
                     i, cases[t].area[i]);
            is_num(f->area[i], cases[t].area[i], 1e-13, name);
        }
        snprintf(name, sizeof name, "lateral (%g, %g): volume = cut x delta", cases[t].ex,
                 cases[t].ez);
        is_num(f->volume, cases[t].cut * 0.05, 1e-13, name);
        /* the centroid: the wall's point facing the slider's centre */
        double want[3];
        at(O0, cases[t].axis == 0 ? (cases[t].bit ? 1 : -1) : 0, 0,
           cases[t].axis == 2 ? (cases[t].bit ? 0.58 : -0.58) : 0, want);
        snprintf(name, sizeof name, "lateral (%g, %g): the cut's centroid on the wall opposite P",
                 cases[t].ex, cases[t].ez);
        vec_is(f->cut_centroid, want, 1e-14, name);
        const sbox_face *o = &r.face[cases[t].other];
        snprintf(name, sizeof name, "lateral (%g, %g): the opposite wall 0.25 (0.21) away",
                 cases[t].ex, cases[t].ez);
        ok(o->mode == SBOX_NONE && fabs(o->delta_max + (cases[t].axis ? 0.21 : 0.25)) <= 1e-14,
           name);
    }
}

/* A yaw theta about Z pressing the wall x = +Wx with the slider edge (+x, -y) along z. */
static void test_yaw_edge(void)
{
    const double th = 0.02, e = 0.1, ct = cos(th), st = sin(th);
    const double d = e + 0.9 * ct + 2 * st - 1; /* the edge's depth */
    double Rl[9];
    sbox_pose p;
    sbox_result r;
    rot_zy(th, 0, Rl);
    pose_set(&p, e, 0, 0, Rl);
    ok(sbox_check(&G, &p, NULL) == MECH_OK, "yaw: the pose is accepted");
    sbox_detect(&G, &p, &r);
    const sbox_face *f = &r.face[SBOX_XPOS];
    ok(r.ncontact == 1 && f->mode == SBOX_EDGE && f->ncorners == 2 &&
           f->inside == ((1 << 1) | (1 << 5)),
       "yaw 0.02: an edge, corners 1 and 5 (x+, y-, z-+)");
    ok(d < 2 * 2 * st && d < 2 * 0.9 * ct, "yaw: its neighbours along x and y are out");
    is_num(f->delta_max, d, 1e-14, "yaw: delta = e + hx cos + hy sin - Wx");
    is_num(f->gap[1], f->gap[5], 1e-15, "yaw: both ends of the edge equally deep");
    ok(f->deepest == 1 || f->deepest == 5, "yaw: the deepest corner on that edge");
    ok(f->axis == 2, "yaw: the edge along the slider's z");
    /* the prism: the whole edge 2 hz; along x delta / cos, along y delta / sin */
    is_num(f->len[2], 1.0, 1e-15, "yaw: len along the edge = 2 hz");
    is_num(f->len[0], d / ct, 1e-14, "yaw: depth along the slider's x, delta / cos");
    is_num(f->len[1], d / st, 1e-12, "yaw: depth along the slider's y, delta / sin");
    is_num(f->area[0], 1.0 * d / st, 1e-12, "yaw: the rectangle on the +x face, 2hz x delta/sin");
    is_num(f->area[1], 1.0 * d / ct, 1e-14, "yaw: the rectangle on the -y face, 2hz x delta/cos");
    is_num(f->area[2], d * d / (2 * st * ct), 1e-13, "yaw: the end triangle at c*");
    is_num(f->side[4] + f->side[5], d * d / (st * ct), 1e-13, "yaw: the two end triangles");
    is_num(f->cut_area, 1.0 * d / (st * ct), 1e-12,
           "yaw: the cut, 2hz x sqrt((d/cos)^2 + (d/sin)^2) = 2hz d / (sin cos)");
    is_num(f->volume, 0.5 * d * d / (st * ct), 1e-13, "yaw: the volume 2hz (d/cos)(d/sin)/2");
    ok(f->cut_n == 4, "yaw: the cut has 4 vertices");
    /* the cut along Y from y_c - d tan to y_c + d cot, y_c = hx sin - hy cos the edge's */
    double yc = 0.9 * st - 2 * ct, want[3];
    at(O0, 1, yc + d / 2 * (ct / st - st / ct), 0, want);
    vec_is(f->cut_centroid, want, 1e-12, "yaw: the cut's centroid on the wall, mid-rectangle");
    ok(r.face[SBOX_XNEG].mode == SBOX_NONE && r.face[SBOX_ZPOS].mode == SBOX_NONE &&
           fabs(r.face[SBOX_ZPOS].delta_max + 0.08) <= 1e-14,
       "yaw: the other walls open, z unchanged (0.08)");
}

/* Roll phi about Y then yaw theta about Z: one corner, (+, -, +) = 5. */
static void test_corner(void)
{
    const double th = 0.02, ph = 0.05, e = 0.06;
    const double ct = cos(th), st = sin(th), cp = cos(ph), sp = sin(ph);
    const double d = e + 0.9 * ct * cp + 2 * st + 0.5 * ct * sp - 1;
    double Rl[9];
    sbox_pose p;
    sbox_result r;
    rot_zy(th, ph, Rl);
    pose_set(&p, e, 0, 0, Rl);
    sbox_detect(&G, &p, &r);
    const sbox_face *f = &r.face[SBOX_XPOS];
    ok(d > 0 && d < 2 * 0.5 * ct * sp && d < 2 * 2 * st,
       "roll + yaw: only the deepest corner past the wall");
    ok(r.ncontact == 1 && f->mode == SBOX_CORNER && f->ncorners == 1 && f->inside == 1 << 5 &&
           f->deepest == 5 && f->axis == -1,
       "roll + yaw: a corner, number 5 (x+, y-, z+)");
    is_num(f->delta_max, d, 1e-14, "roll + yaw: delta");
    const double a = d / (ct * cp), b = d / st, c = d / (ct * sp);
    is_num(f->len[0], a, 1e-14, "roll + yaw: a = delta / (cos t cos p) along x");
    is_num(f->len[1], b, 1e-12, "roll + yaw: b = delta / sin t along y");
    is_num(f->len[2], c, 1e-13, "roll + yaw: c = delta / (cos t sin p) along z");
    is_num(f->area[0], b * c / 2, 1e-13, "roll + yaw: the triangle bc/2 on the +x face");
    is_num(f->area[1], c * a / 2, 1e-14, "roll + yaw: the triangle ca/2 on the -y face");
    is_num(f->area[2], a * b / 2, 1e-13, "roll + yaw: the triangle ab/2 on the +z face");
    ok(f->side[1] == f->area[0] && f->side[2] == f->area[1] && f->side[5] == f->area[2] &&
           f->side[0] == 0 && f->side[3] == 0 && f->side[4] == 0,
       "roll + yaw: three triangles, on the faces of corner 5 only");
    double tri = 0.5 * sqrt(a * a * b * b + b * b * c * c + c * c * a * a);
    is_num(f->cut_area, tri, 1e-13, "roll + yaw: the cut (1/2) sqrt(a^2b^2 + b^2c^2 + c^2a^2)");
    is_num(f->volume, a * b * c / 6, 1e-14, "roll + yaw: the tetrahedron abc/6");
    ok(f->cut_n == 3, "roll + yaw: a triangle");
    /* the centroid: the mean of the three points where the edges of corner 5 leave the wall */
    double xs[3], ys[3], zs[3], want[3];
    axis_of(p.R, 0, xs), axis_of(p.R, 1, ys), axis_of(p.R, 2, zs);
    for (int i = 0; i < 3; i++) want[i] = r.corner[5][i] + (-a * xs[i] + b * ys[i] - c * zs[i]) / 3;
    vec_is(f->cut_centroid, want, 1e-13, "roll + yaw: the centroid of the cut triangle");
    /* z: the rows of Rz Ry give z = -sx hx sin p + sz hz cos p, highest at (x-, z+) */
    is_num(r.face[SBOX_ZPOS].delta_max, 0.9 * sp + 0.5 * cp - 0.58, 1e-14,
           "roll + yaw: the z wall's least clearance hx sin p + hz cos p - Wz");
    ok(r.face[SBOX_ZPOS].mode == SBOX_NONE && (r.face[SBOX_ZPOS].deepest & 5) == 4,
       "roll + yaw: no z contact, nearest corner (x-, z+)");
}

/*
** The section of a box by a plane numerically: lines in the plane, each clipped exactly to the
** box (slab by slab), their chords summed by the midpoint rule over N lines.  The lines run
** along a direction at least 30 degrees from every edge the section can have (m x e_i).
*/
static double chord(const double h[3], const double x0[3], const double e[3])
{
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0; i < 3; i++) {
        if (e[i] == 0) {
            if (fabs(x0[i]) > h[i]) return 0;
            continue;
        }
        double s1 = (-h[i] - x0[i]) / e[i], s2 = (h[i] - x0[i]) / e[i];
        lo = fmax(lo, fmin(s1, s2));
        hi = fmin(hi, fmax(s1, s2));
    }
    return hi > lo ? hi - lo : 0;
}

static double num_section(const double h[3], const double m[3], double off, int N, double *hstep)
{
    /* a basis of the plane, then the direction farthest from the three edge directions */
    double b1[3], b2[3], t[3] = {1, 0, 0};
    if (fabs(m[0]) > 0.6) t[0] = 0, t[1] = 1;
    vec3_cross(m, t, b1);
    vec3_unit(b1, b1);
    vec3_cross(m, b1, b2);
    double edge_ang[3];
    int ne = 0;
    for (int i = 0; i < 3; i++) {
        double ei[3] = {0, 0, 0}, dir[3];
        ei[i] = 1;
        vec3_cross(m, ei, dir);
        if (vec3_norm(dir) < 1e-12) continue;
        edge_ang[ne++] = fmod(atan2(vec3_dot(dir, b2), vec3_dot(dir, b1)) + 2 * pi, pi);
    }
    double best = 0, best_gap = -1;
    for (int k = 0; k < 360; k++) {
        double a = k * pi / 360, gap = pi;
        for (int q = 0; q < ne; q++) {
            double dd = fabs(a - edge_ang[q]);
            gap = fmin(gap, fmin(dd, pi - dd));
        }
        if (gap > best_gap) best_gap = gap, best = a;
    }
    double e1[3], e2[3], o[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = cos(best) * b1[i] + sin(best) * b2[i];
        e2[i] = -sin(best) * b1[i] + cos(best) * b2[i];
        o[i] = -off * m[i];
    }
    double ylo = INFINITY, yhi = -INFINITY;
    for (int c = 0; c < 8; c++) {
        double u[3] = {c & 1 ? h[0] : -h[0], c & 2 ? h[1] : -h[1], c & 4 ? h[2] : -h[2]};
        double y = vec3_dot(u, e2);
        ylo = fmin(ylo, y), yhi = fmax(yhi, y);
    }
    double dy = (yhi - ylo) / N, sum = 0;
    for (int k = 0; k < N; k++) {
        double y = ylo + (k + 0.5) * dy, x0[3];
        for (int i = 0; i < 3; i++) x0[i] = o[i] + y * e2[i];
        sum += chord(h, x0, e1);
    }
    if (hstep) *hstep = dy;
    return sum * dy;
}

/* The area of box face (i, s) with off + m . u < 0: the exact interval along the axis of larger
** |m| among the two in the face, integrated over the other by the midpoint rule. */
static double num_face(const double h[3], const double m[3], double off, int i, int s, int N,
                       double *hstep)
{
    int j = (i + 1) % 3, l = (i + 2) % 3;
    if (fabs(m[l]) > fabs(m[j])) {
        int t = j;
        j = l, l = t;
    }
    double ui = s ? h[i] : -h[i], dl = 2 * h[l] / N, sum = 0;
    for (int k = 0; k < N; k++) {
        double ul = -h[l] + (k + 0.5) * dl, rest = off + m[i] * ui + m[l] * ul, lo, hi;
        /* rest + m_j u_j < 0 */
        if (m[j] > 0)
            lo = -h[j], hi = fmin(h[j], -rest / m[j]);
        else if (m[j] < 0)
            lo = fmax(-h[j], -rest / m[j]), hi = h[j];
        else
            lo = -h[j], hi = rest < 0 ? h[j] : -h[j];
        sum += hi > lo ? hi - lo : 0;
    }
    if (hstep) *hstep = dl;
    return sum * dl;
}

/* The volume with off + m . u < 0: the section areas at the depths t in [0, delta_max],
** Simpson's rule between the corners' depths. */
static double num_volume(const double h[3], const double m[3], double off, int N, double *err)
{
    double dep[10];
    int nd = 0;
    dep[nd++] = 0;
    double dmax = 0;
    for (int c = 0; c < 8; c++) {
        double u[3] = {c & 1 ? h[0] : -h[0], c & 2 ? h[1] : -h[1], c & 4 ? h[2] : -h[2]};
        double t = -(off + vec3_dot(m, u));
        if (t > 0) dep[nd++] = t;
        dmax = fmax(dmax, t);
    }
    for (int a = 1; a < nd; a++)
        for (int b = a; b > 0 && dep[b] < dep[b - 1]; b--) {
            double t = dep[b];
            dep[b] = dep[b - 1], dep[b - 1] = t;
        }
    double vol = 0, worst_h = 0, hs;
    for (int k = 0; k + 1 < nd; k++) {
        double t0 = dep[k], t1 = dep[k + 1];
        if (!(t1 > t0)) continue;
        double a0 = num_section(h, m, off + t0, N, &hs);
        worst_h = fmax(worst_h, hs);
        double a1 = num_section(h, m, off + (t0 + t1) / 2, N, &hs);
        double a2 = num_section(h, m, off + t1, N, &hs);
        vol += (t1 - t0) / 6 * (a0 + 4 * a1 + a2);
    }
    if (err) *err = dmax * (6 * worst_h * worst_h + 1e-10);
    return vol;
}

/* Three corners of the +x face in: rolled and yawed as test_corner, pushed deeper. */
static void test_three(void)
{
    const double th = 0.02, ph = 0.05, e = 0.136;
    const double ct = cos(th), st = sin(th), cp = cos(ph), sp = sin(ph);
    const double d = e + 0.9 * ct * cp + 2 * st + 0.5 * ct * sp - 1;
    const double dy = 2 * 2 * st, dz = 2 * 0.5 * ct * sp; /* the neighbours' shallower by */
    double Rl[9];
    sbox_pose p;
    sbox_result r;
    rot_zy(th, ph, Rl);
    pose_set(&p, e, 0, 0, Rl);
    sbox_detect(&G, &p, &r);
    const sbox_face *f = &r.face[SBOX_XPOS];
    ok(d > dy && d > dz && d < dy + dz && d < 2 * 0.9 * ct * cp,
       "three corners: 5, 7 and 1 in, 3 out (hand)");
    ok(f->mode == SBOX_FACE && f->ncorners == 3 && f->inside == ((1 << 5) | (1 << 7) | (1 << 1)),
       "three corners: mode face, corners 1, 5, 7");
    ok(f->axis == 0 && f->deepest == 5, "three corners: the slider's +x face, c* = 5");
    is_num(f->delta_max, d, 1e-14, "three corners: delta");
    /* the +x face beyond: the whole face less the triangle at corner 3 (depth d - dy - dz < 0),
    ** legs |d3| / |m_y| and |d3| / |m_z| */
    const double d3 = d - dy - dz, my = st, mz = ct * sp, mx = ct * cp;
    const double notch = d3 * d3 / (2 * my * mz);
    is_num(f->area[0], 4 * 2 * 0.5 - notch, 1e-12, "three corners: the +x face less a notch");
    /* the volume: depth along x over the face, (1/|m_x|) integral of max(0, depth):
    ** the linear depth's mean over the face plus the notch's part, area |d3| / 3 */
    const double mean = (d + (d - dy) + (d - dz) + d3) / 4;
    const double vol = (4 * 2 * 0.5 * mean + notch * fabs(d3) / 3) / mx;
    is_num(f->volume, vol, 1e-13, "three corners: the volume");
    is_num(f->len[0], vol / 4, 1e-13, "three corners: len along x = volume / (2hy 2hz)");
    ok(f->len[1] == 4 && f->len[2] == 1, "three corners: len along y, z: the face's sides");
    ok(f->cut_n == 5, "three corners: the cut is a pentagon");
    double m[3], rel[3], hs;
    const double h[3] = {0.9, 2, 0.5};
    mat3t_vec(p.R, f->n, m);
    vec3_sub(p.P, f->q, rel);
    double an = num_section(h, m, vec3_dot(f->n, rel), 100000, &hs);
    diag("three corners: the cut %.15g, by lines %.15g (step %.2g)", f->cut_area, an, hs);
    is_num(f->cut_area, an, 6 * hs * hs + 1e-10, "three corners: the cut against its lines");
    /* and by counting a fine grid of points of the plane inside the slider, 2000 x 2000
    ** cells of side s: the boundary (perimeter at most that of the square, 4 L) meets at
    ** most 4 (4 L / s + 1) cells, each off by at most s^2 */
    double b1[3], b2[3], t[3] = {0, 0, 1};
    vec3_cross(m, t, b1);
    vec3_unit(b1, b1);
    vec3_cross(m, b1, b2);
    const int N = 2000;
    const double L = 2 * sqrt(0.81 + 4 + 0.25), s = L / N;
    long count = 0;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            double u[3], x = -L / 2 + (a + 0.5) * s, y = -L / 2 + (b + 0.5) * s;
            for (int i = 0; i < 3; i++) u[i] = -vec3_dot(f->n, rel) * m[i] + x * b1[i] + y * b2[i];
            count += fabs(u[0]) <= 0.9 && fabs(u[1]) <= 2 && fabs(u[2]) <= 0.5;
        }
    double ag = count * s * s, tol = 4 * (4 * L / s + 1) * s * s;
    diag("three corners: the cut by a grid %.6g (bound %.2g, off by %.2g)", ag, tol,
         fabs(ag - f->cut_area));
    is_num(f->cut_area, ag, tol, "three corners: the cut against a grid count");
}

/* Through a wall: the slider's centre past x = +Wx. */
static void test_through(void)
{
    double Rl[9];
    sbox_pose p;
    sbox_result r;
    rot_zy(0.02, 0, Rl);
    pose_set(&p, 1.95, 0, 0, Rl);
    sbox_detect(&G, &p, &r);
    const sbox_face *f = &r.face[SBOX_XPOS];
    ok(f->mode == SBOX_THROUGH && f->ncorners == 8,
       "centre 1.95 past the channel's axis: all 8 corners past the wall");
    ok(f->cut_area == 0 && f->cut_n == 0, "all in: no cut");
    is_num(f->volume, 8 * 0.9 * 2 * 0.5, 1e-13, "all in: the volume of the slider");
    pose_set(&p, 1.9, 0, 0, Rl);
    sbox_detect(&G, &p, &r);
    ok(f->mode == SBOX_THROUGH && f->ncorners == 6 && (f->inside & 0xaa) == 0xaa,
       "centre 1.9: 6 corners, through");
    double m[3], rel[3], hs;
    const double h[3] = {0.9, 2, 0.5};
    mat3t_vec(p.R, f->n, m);
    vec3_sub(p.P, f->q, rel);
    double off = vec3_dot(f->n, rel);
    double an = num_section(h, m, off, 100000, &hs);
    is_num(f->cut_area, an, 6 * hs * hs + 1e-10, "centre 1.9: the cut against its lines");
    /* the rest of the slider is a prism on the channel's side: 8 hx hy hz - volume */
    sbox_section rest;
    const double mm[3] = {-m[0], -m[1], -m[2]};
    sbox_cut(h, mm, -off, &rest);
    is_num(f->volume + rest.volume, 7.2, 1e-13, "centre 1.9: the volume and the rest's make 7.2");
    ok(rest.nin == 2, "centre 1.9: the rest an edge");
}

/* sbox_cut on a cube by hand: the hexagon through its centre, a corner's triangle. */
static void test_cut_cube(void)
{
    const double h[3] = {1, 1, 1}, r3 = sqrt(3.0);
    const double m[3] = {1 / r3, 1 / r3, 1 / r3};
    sbox_section s;
    sbox_cut(h, m, 0, &s);
    ok(s.nin == 1 + 3 && s.n == 6, "cube, the plane through the centre normal to a diagonal: "
                                   "a hexagon, corner 0 and its neighbours in");
    is_num(s.area, 3 * r3, 1e-14, "cube: the hexagon's area 3 sqrt 3 (side sqrt 2)");
    is_num(s.volume, 4, 1e-14, "cube: half the cube beyond");
    double worst = 0, turn = INFINITY;
    for (int k = 0; k < 6; k++) {
        double a[3], b[3], x[3];
        worst = fmax(worst, fabs(vec3_norm(s.v[k]) - sqrt(2.0)));
        vec3_sub(s.v[(k + 1) % 6], s.v[k], a);
        vec3_sub(s.v[(k + 2) % 6], s.v[(k + 1) % 6], b);
        vec3_cross(a, b, x);
        turn = fmin(turn, vec3_dot(x, m));
        worst = fmax(worst, fabs(vec3_norm(a) - sqrt(2.0)));
    }
    ok(worst <= 1e-15, "cube: vertices sqrt 2 from the centre, sides sqrt 2");
    ok(turn > 0, "cube: the vertices turn counter-clockwise about m");
    ok(vec3_norm(s.centroid) <= 1e-15, "cube: the hexagon's centroid at the centre");
    for (int f = 0; f < 6; f++) worst = fmax(worst, fabs(s.side[f] - (f % 2 ? 0.5 : 3.5)));
    ok(worst <= 1e-14, "cube: the faces at the deep corner 7/8 beyond, the others 1/8");
    /* the corner (-, -, -) 0.3 sqrt 3 deep: legs 0.9, the equilateral cut of side 0.9 sqrt 2 */
    sbox_cut(h, m, 0.7 * r3, &s);
    ok(s.nin == 1 && s.deepest == 0 && s.n == 3, "cube: a corner cut off");
    is_num(s.area, r3 / 4 * 0.81 * 2, 1e-14, "cube: the triangle (sqrt 3 / 4)(0.9 sqrt 2)^2");
    is_num(s.volume, 0.729 / 6, 1e-15, "cube: the tetrahedron 0.9^3 / 6");
    is_num(s.side[0], 0.405, 1e-15, "cube: a leg triangle 0.9^2 / 2");
    const double want[3] = {-0.7, -0.7, -0.7};
    vec_is(s.centroid, want, 1e-15, "cube: the triangle's centroid (-1 + 0.9/3 each)");
    /* a face on the plane: the slider on the channel's side (no cut), and beyond (the face) */
    const double ex[3] = {1, 0, 0};
    sbox_cut(h, ex, 1, &s);
    ok(s.nin == 0 && s.n == 0 && s.area == 0 && s.volume == 0,
       "cube touching with a face: nothing beyond, no cut");
    sbox_cut(h, ex, -1, &s);
    ok(s.nin == 4 && s.n == 4, "cube beyond but for a face on the plane: the face is the cut");
    is_num(s.area, 4, 1e-15, "and its area 4");
    is_num(s.volume, 8, 1e-14, "and the volume the cube's");
}

/* A random rotation (uniform enough: a normalised quaternion from a ball), row-major. */
static void random_rotation(double R[9])
{
    double q[4], n;
    do {
        n = 0;
        for (int i = 0; i < 4; i++) q[i] = uniform(-1, 1), n += q[i] * q[i];
    } while (n < 0.01 || n > 1);
    n = sqrt(n);
    for (int i = 0; i < 4; i++) q[i] /= n;
    double w = q[0], x = q[1], y = q[2], z = q[3];
    const double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                         2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                         2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    memcpy(R, M, sizeof M);
}

/* A small rotation: about a random axis by up to amax. */
static void small_rotation(double amax, double R[9])
{
    double a[3], n;
    do {
        for (int i = 0; i < 3; i++) a[i] = uniform(-1, 1);
    } while ((n = vec3_norm(a)) < 0.1 || n > 1);
    vec3_scale(1 / n, a, a);
    double t = uniform(0, amax), c = cos(t), s = sin(t), K[9], K2[9];
    vec3_skew(a, K);
    mat3_mul(K, K, K2);
    for (int i = 0; i < 9; i++) R[i] = (i % 4 == 0) + s * K[i] + (1 - c) * K2[i];
}

/* A random channel and slider, pose near or past the walls; kind 0: small turns (the
** clearance joint's poses), 1: any turn. */
static void random_pose(sbox_geom *g, sbox_pose *p, int kind)
{
    g->Wx = 1, g->Wz = uniform(0.3, 1.5);
    g->hx = uniform(0.5, 0.98), g->hz = g->Wz * uniform(0.5, 0.98), g->hy = uniform(0.3, 2.5);
    double Gm[9], Rl[9];
    random_rotation(Gm);
    for (int r = 0; r < 3; r++)
        p->X[r] = Gm[3 * r], p->Y[r] = Gm[3 * r + 1], p->Z[r] = Gm[3 * r + 2];
    for (int i = 0; i < 3; i++) p->O[i] = uniform(-1, 1);
    if (kind == 0)
        small_rotation(uniform(0, 1) < 0.3 ? 0.01 : 0.15, Rl);
    else
        random_rotation(Rl);
    mat3_mul(Gm, Rl, p->R);
    double cx = g->Wx - g->hx, cz = g->Wz - g->hz;
    double ex = uniform(-1, 1) * (kind == 0 ? cx + 0.1 : 1.2);
    double ez = uniform(-1, 1) * (kind == 0 ? cz + 0.1 : g->Wz + 0.2);
    for (int i = 0; i < 3; i++)
        p->P[i] = p->O[i] + ex * p->X[i] + uniform(-3, 3) * p->Y[i] + ez * p->Z[i];
}

/* Whether the corners in `in` are those a plane cuts off, by shape (head of sbox_geom.h). */
static int shape_ok(int in, int nin)
{
    if (nin <= 1) return 1;
    /* the bits in which every corner in agrees */
    int first = -1, agree = 0x7;
    for (int c = 0; c < 8; c++)
        if ((in >> c) & 1) {
            if (first < 0) first = c;
            agree &= ~(c ^ first) & 0x7;
        }
    if (nin == 2) return popcount8(agree) == 2;
    if (nin == 3) return popcount8(agree) == 1;
    if (nin == 4) {
        if (popcount8(agree) == 1) return 1; /* a face */
        for (int c = 0; c < 8; c++)          /* a corner with its three neighbours */
            if ((in >> c) & 1 && (in >> (c ^ 1)) & 1 && (in >> (c ^ 2)) & 1 && (in >> (c ^ 4)) & 1)
                return 1;
        return 0;
    }
    return 1;
}

static void test_brute_force(void)
{
    double worst_gap = 0, worst_foot = 0, worst_cut = 0, worst_face = 0, worst_vol = 0;
    double worst_flux = 0, worst_vert = 0, worst_comp = 0, worst_sizes = 0;
    int modes[5] = {0}, bad_shape = 0, bad_through = 0, bad_axis = 0, n = 0, stars = 0;
    for (int trial = 0; trial < 300; trial++) {
        sbox_geom g;
        sbox_pose p;
        sbox_result r;
        random_pose(&g, &p, trial % 3 == 2);
        if (sbox_check(&g, &p, NULL) != MECH_OK) continue;
        sbox_detect(&g, &p, &r);
        const double h[3] = {g.hx, g.hy, g.hz};
        for (int k = 0; k < SBOX_NFACES; k++) {
            const sbox_face *f = &r.face[k];
            double m[3], rel[3];
            mat3t_vec(p.R, f->n, m);
            vec3_sub(p.P, f->q, rel);
            double off = vec3_dot(f->n, rel);
            n++;
            modes[f->mode]++;
            /* the gaps and feet against the corners' world positions */
            for (int c = 0; c < 8; c++) {
                double u[3], pc[3], x[3];
                for (int i = 0; i < 3; i++) u[i] = (c >> i) & 1 ? h[i] : -h[i];
                mat3_vec(p.R, u, pc);
                vec3_add(p.P, pc, pc);
                vec3_sub(pc, f->q, x);
                worst_gap = fmax(worst_gap, fabs(f->gap[c] - vec3_dot(f->n, x)));
                worst_gap = fmax(worst_gap, vdiff(pc, r.corner[c]));
                vec3_sub(f->foot[c], f->q, x);
                worst_foot = fmax(worst_foot, fabs(vec3_dot(f->n, x)));
                vec3_sub(pc, f->foot[c], x);
                double cr[3];
                vec3_cross(x, f->n, cr);
                worst_foot = fmax(worst_foot, vec3_norm(cr));
            }
            bad_shape += !shape_ok(f->inside, f->ncorners) || popcount8(f->inside) != f->ncorners;
            bad_through += (off >= 0 && f->ncorners > 4) || (f->mode == SBOX_THROUGH && off >= 0);
            /* the cut, the faces' parts and the volume, numerically */
            double hs;
            double an = num_section(h, m, off, 50000, &hs);
            worst_cut = fmax(worst_cut, fabs(f->cut_area - an) / (6 * hs * hs + 1e-10));
            for (int fi = 0; fi < 6; fi++) {
                double af = num_face(h, m, off, fi / 2, fi % 2, 10000, &hs);
                worst_face = fmax(worst_face, fabs(f->side[fi] - af) / (hs * hs + 1e-12));
            }
            if (f->mode != SBOX_NONE && trial % 3 != 1) {
                double err;
                double vn = num_volume(h, m, off, 5000, &err);
                worst_vol = fmax(worst_vol, fabs(f->volume - vn) / err);
            }
            /* the flux of a constant field through the overlap's boundary: A m = side- - side+ */
            for (int i = 0; i < 3; i++)
                worst_flux = fmax(worst_flux,
                                  fabs(f->cut_area * m[i] - (f->side[2 * i] - f->side[2 * i + 1])));
            /* the vertices on the plane and on the slider's surface */
            for (int v = 0; v < f->cut_n; v++) {
                double x[3], u[3];
                vec3_sub(f->cut[v], f->q, x);
                worst_vert = fmax(worst_vert, fabs(vec3_dot(x, f->n)));
                vec3_sub(f->cut[v], p.P, x);
                mat3t_vec(p.R, x, u);
                double out = -INFINITY;
                for (int i = 0; i < 3; i++) out = fmax(out, fabs(u[i]) - h[i]);
                worst_vert = fmax(worst_vert, fabs(out));
            }
            /* the complement: the other side of the plane */
            if (f->ncorners > 0 && f->ncorners < 8) {
                sbox_section s;
                const double mm[3] = {-m[0], -m[1], -m[2]};
                sbox_cut(h, mm, -off, &s);
                worst_comp = fmax(worst_comp, fabs(s.area - f->cut_area));
                worst_comp = fmax(worst_comp, fabs(s.volume + f->volume - 8 * h[0] * h[1] * h[2]));
            }
            /* the sizes by mode, in closed form */
            int d = f->deepest;
            double dm = f->delta_max;
            if (f->mode == SBOX_CORNER) {
                double a = dm / fabs(m[0]), b = dm / fabs(m[1]), c = dm / fabs(m[2]);
                double want[7] = {a, b, c, b * c / 2, c * a / 2, a * b / 2, a * b * c / 6};
                double got[7] = {f->len[0],  f->len[1],  f->len[2], f->area[0],
                                 f->area[1], f->area[2], f->volume};
                for (int q = 0; q < 7; q++)
                    worst_sizes = fmax(worst_sizes, fabs(got[q] - want[q]) / want[q]);
                double tri = 0.5 * sqrt(a * a * b * b + b * b * c * c + c * c * a * a);
                worst_sizes = fmax(worst_sizes, fabs(f->cut_area - tri) / tri);
            } else if (f->mode == SBOX_EDGE) {
                int i = f->axis, j = (i + 1) % 3, l = (i + 2) % 3, other = d ^ (1 << i);
                double d2 = -f->gap[other];
                bad_axis += i < 0 || !((f->inside >> other) & 1);
                double mj = fabs(m[j]), ml = fabs(m[l]);
                double want[5] = {2 * h[i], (dm + d2) / (2 * mj), (dm + d2) / (2 * ml),
                                  2 * h[i] * (dm * dm + dm * d2 + d2 * d2) / (6 * mj * ml),
                                  2 * h[i] * (dm + d2) / (2 * ml)};
                double got[5] = {f->len[i], f->len[j], f->len[l], f->volume, f->area[j]};
                for (int q = 0; q < 5; q++)
                    worst_sizes = fmax(worst_sizes, fabs(got[q] - want[q]) / want[q]);
            } else if (f->mode == SBOX_FACE) {
                int i = f->axis, j = (i + 1) % 3, l = (i + 2) % 3;
                /* the corners in on c*'s side of axis i: all, for three and a whole face */
                int all_on = 1, face_type;
                for (int c = 0; c < 8; c++)
                    if ((f->inside >> c) & 1 && ((c ^ d) >> i) & 1) all_on = 0;
                face_type = f->ncorners == 3 || all_on;
                stars += !face_type;
                if (face_type) bad_axis += !all_on;
                double mi = fabs(m[i]), mj = fabs(m[j]), ml = fabs(m[l]);
                if (f->ncorners == 3) {
                    /* the face less the notch at its corner out */
                    int out = -1;
                    for (int c = 0; c < 8; c++)
                        if (!(((c ^ d) >> i) & 1) && !((f->inside >> c) & 1)) out = c;
                    double go = out < 0 ? 0 : f->gap[out];
                    double want = 4 * h[j] * h[l] - go * go / (2 * mj * ml);
                    worst_sizes = fmax(worst_sizes, fabs(f->area[i] - want) / want);
                    worst_sizes =
                        fmax(worst_sizes, fabs(f->len[j] - 2 * h[j]) + fabs(f->len[l] - 2 * h[l]));
                } else if (face_type) {
                    /* the whole face, and the volume: the face times its mean depth */
                    double mean = 0;
                    for (int c = 0; c < 8; c++)
                        if (!(((c ^ d) >> i) & 1)) mean -= f->gap[c] / (4 * mi);
                    worst_sizes =
                        fmax(worst_sizes, fabs(f->area[i] - 4 * h[j] * h[l]) / (4 * h[j] * h[l]));
                    worst_sizes = fmax(worst_sizes, fabs(f->len[i] - mean) / mean);
                }
            }
        }
    }
    diag("brute force: %d faces: %d none, %d corner, %d edge, %d face (%d stars), %d through", n,
         modes[0], modes[1], modes[2], modes[3], stars, modes[4]);
    ok(n == 1200 && modes[1] > 20 && modes[2] > 20 && modes[3] > 20 && modes[4] > 5,
       "brute force: 300 poses, every mode met");
    ok(worst_gap <= 1e-14, "brute force: gaps = n . (p_c - Q), corners = P + R u_c (1e-14)");
    diag("largest gap or corner difference %.3g", worst_gap);
    ok(worst_foot <= 1e-14, "brute force: the feet on the plane, on the corners' normals");
    ok(bad_shape == 0, "brute force: the corners in are a corner, an edge, three corners of a "
                       "face, a face or a corner with its neighbours");
    ok(bad_through == 0, "brute force: more than 4 corners in only with the centre past");
    ok(worst_cut <= 1, "brute force: the cut area against the lines' (within 6 h^2)");
    diag("largest cut difference, in units of the bound: %.3g", worst_cut);
    ok(worst_face <= 1, "brute force: the faces' parts against their integrals (within h^2)");
    diag("largest face difference, in units of the bound: %.3g", worst_face);
    ok(worst_vol <= 1, "brute force: the volume against the sections' integral");
    diag("largest volume difference, in units of the bound: %.3g", worst_vol);
    ok(worst_flux <= 1e-13, "brute force: cut_area m_i = side(-i) - side(+i)");
    diag("largest flux imbalance %.3g", worst_flux);
    ok(worst_vert <= 1e-14, "brute force: the cut's vertices on the plane and on the slider");
    ok(worst_comp <= 1e-13, "brute force: the other side of the plane: the same cut, the rest "
                            "of the volume");
    ok(bad_axis == 0, "brute force: the edge's two corners, the face's corners on its face");
    ok(worst_sizes <= 1e-10, "brute force: the sizes by mode against their closed forms");
    diag("largest relative difference of the sizes %.3g", worst_sizes);
}

/* Simpson's rule on [0, L] with one interval: exact for cubics. */
static double simpson(double f0, double fm, double f1, double L)
{
    return L * (f0 + 4 * fm + f1) / 6;
}

/* The pressure centre of the overlap (sbox_cut's pcentre) against closed forms of the overlap's
** centroid, for random boxes and planes that cut off a corner (a tetrahedron of legs
** delta / |m_k|: its centroid a quarter of the way along each), an edge (triangles of legs
** delta(s) / |m_j|, delta(s) / |m_l| along it, delta linear in s: the centroid by Simpson's
** rule, exact for these cubics) or a face (a slab of thickness delta(x) / |m_i|, delta linear
** across the face: Simpson's in both directions), moved along m onto the plane.  The depths run
** from 1e-9 of the box to most of it, so that the small overlaps of a contact are checked.
** Tolerance: every quantity is taken from the deepest corner in sums of positive terms, a few
** dozen flops on numbers of the overlap's size L: 1e-13 L (seen: a few 1e-16 L), beside the
** rounding of the result's slider coordinates, a few ulps of the half sizes. */
static void test_pressure_centre(void)
{
    double worst[3] = {0, 0, 0}, worst_plane = 0;
    int count[3] = {0, 0, 0};
    for (int trial = 0; trial < 3000; trial++) {
        const double h[3] = {uniform(0.2, 2), uniform(0.2, 2), uniform(0.2, 2)};
        double m[3], nm;
        do {
            for (int i = 0; i < 3; i++) m[i] = uniform(-1, 1);
        } while ((nm = vec3_norm(m)) < 0.2 || nm > 1);
        vec3_scale(1 / nm, m, m);
        /* the corners' m . u, in order */
        double gu[8];
        int order[8];
        for (int c = 0; c < 8; c++) {
            gu[c] = 0;
            for (int i = 0; i < 3; i++) gu[c] += m[i] * ((c >> i) & 1 ? h[i] : -h[i]);
            order[c] = c;
        }
        for (int a = 1; a < 8; a++)
            for (int b = a; b > 0 && gu[order[b]] < gu[order[b - 1]]; b--) {
                int t = order[b];
                order[b] = order[b - 1], order[b - 1] = t;
            }
        int kind = trial % 3, nin = kind == 0 ? 1 : kind == 1 ? 2 : 4, d = order[0];
        if (kind == 2) { /* the four deepest a face? */
            int agree = 0x7;
            for (int q = 1; q < 4; q++) agree &= ~(order[q] ^ d) & 0x7;
            if (popcount8(agree) != 1) continue;
        }
        double lo = gu[order[nin - 1]], hi = gu[order[nin]];
        double frac = pow(10, uniform(-9, 0)) * (kind == 0 ? 1 : uniform(0.05, 0.95));
        if (kind == 0) lo = gu[d];
        double off = -(lo + frac * (hi - lo));
        sbox_section s;
        sbox_cut(h, m, off, &s);
        if (s.nin != nin || s.deepest != d) continue;
        double dm = -s.gap[d], sg[3], am[3], c[3] = {0, 0, 0}, size = 0;
        for (int i = 0; i < 3; i++) sg[i] = (d >> i) & 1 ? -1 : 1, am[i] = fabs(m[i]);
        if (kind == 0) {
            for (int i = 0; i < 3; i++) c[i] = sg[i] * dm / am[i] / 4, size += dm / am[i];
        } else if (kind == 1) {
            int i = 0, other = order[1];
            if (popcount8(d ^ other) != 1) continue; /* a tie: the second not a neighbour */
            while (!(((d ^ other) >> i) & 1)) i++;
            int j = (i + 1) % 3, l = (i + 2) % 3;
            double L = 2 * h[i], d2 = -s.gap[other], dmid = (dm + d2) / 2;
            double V = simpson(dm * dm, dmid * dmid, d2 * d2, L);
            c[i] = sg[i] * simpson(0, L / 2 * dmid * dmid, L * d2 * d2, L) / V;
            double lat = simpson(dm * dm * dm, dmid * dmid * dmid, d2 * d2 * d2, L) / (3 * V);
            c[j] = sg[j] * lat / am[j], c[l] = sg[l] * lat / am[l];
            size = L + dm / am[j] + dm / am[l];
        } else {
            int agree = ~(order[1] ^ d) & ~(order[2] ^ d) & ~(order[3] ^ d) & 0x7, i = 0;
            while (!((agree >> i) & 1)) i++;
            int j = (i + 1) % 3, l = (i + 2) % 3;
            double Lj = 2 * h[j], Ll = 2 * h[l];
            /* thickness along i at (x_j, x_l) from c*: t = (dm - |m_j| x_j - |m_l| x_l) / |m_i| */
            double V = 0, Mj = 0, Ml = 0, Mi = 0;
            const double wq[3] = {1, 4, 1};
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    double xj = a * Lj / 2, xl = b * Ll / 2;
                    double t = (dm - am[j] * xj - am[l] * xl) / am[i], w = wq[a] * wq[b];
                    V += w * t, Mj += w * xj * t, Ml += w * xl * t, Mi += w * t * t / 2;
                }
            c[i] = sg[i] * Mi / V, c[j] = sg[j] * Mj / V, c[l] = sg[l] * Ml / V;
            size = Lj + Ll + dm / am[i];
        }
        double gc = -dm + vec3_dot(m, c), want[3], err = 0;
        for (int q = 0; q < 3; q++) {
            want[q] = c[q] - gc * m[q];
            double ud = (d >> q) & 1 ? h[q] : -h[q];
            err = fmax(err, fabs((s.pcentre[q] - ud) - want[q]));
        }
        /* beside the rounding of the point's slider coordinates: a few ulps of h */
        double ulps = 8 * DBL_EPSILON * fmax(h[0], fmax(h[1], h[2]));
        worst[kind] = fmax(worst[kind], fmax(0, err - ulps) / size);
        worst_plane = fmax(worst_plane, fmax(0, fabs(off + vec3_dot(m, s.pcentre)) - ulps) / size);
        count[kind]++;
    }
    diag("pressure centre: %d corners, %d edges, %d faces; worst %.3g, %.3g, %.3g of the "
         "overlap's size, off the plane %.3g",
         count[0], count[1], count[2], worst[0], worst[1], worst[2], worst_plane);
    ok(count[0] > 500 && count[1] > 500 && count[2] > 100, "pressure centre: every kind met");
    ok(worst_plane <= 1e-13, "pressure centre: on the plane");
    ok(worst[0] <= 1e-13, "pressure centre of a corner: the tetrahedron's centroid on the plane");
    ok(worst[1] <= 1e-13, "pressure centre of an edge: the wedge's centroid on the plane");
    ok(worst[2] <= 1e-13, "pressure centre of a face: the slab's centroid on the plane");
}

/* The cut area across the mode changes of test_corner's pose pushed along X: continuous. */
static void test_switches(void)
{
    const double th = 0.02, ph = 0.05, ct = cos(th), st = sin(th), cp = cos(ph), sp = sin(ph);
    const double top = 0.9 * ct * cp + 2 * st + 0.5 * ct * sp - 1; /* depth at e = 0 */
    /* the e at which 2, 3, 4 corners are in: the depth reaches 2hz ct sp, 2hy st, both */
    const double dz = 2 * 0.5 * ct * sp, dy = 2 * 2 * st;
    const double es[4] = {-top, dz - top, dy - top, dy + dz - top};
    const int before[4] = {SBOX_NONE, SBOX_CORNER, SBOX_EDGE, SBOX_FACE};
    const int nb[4] = {0, 1, 2, 3};
    double Rl[9];
    rot_zy(th, ph, Rl);
    for (int s = 0; s < 4; s++) {
        const double eps = 1e-7, at_e[3] = {-3 * eps, -eps, eps};
        double a[3];
        int mode[3], nc[3];
        for (int q = 0; q < 3; q++) {
            sbox_pose p;
            sbox_result r;
            pose_set(&p, es[s] + at_e[q], 0, 0, Rl);
            sbox_detect(&G, &p, &r);
            a[q] = r.face[SBOX_XPOS].cut_area;
            mode[q] = r.face[SBOX_XPOS].mode;
            nc[q] = r.face[SBOX_XPOS].ncorners;
        }
        char name[160];
        snprintf(name, sizeof name, "mode change %d -> %d corners at e = %.6f: the modes", nb[s],
                 nb[s] + 1, es[s]);
        ok(mode[0] == before[s] && mode[1] == before[s] && nc[1] == nb[s] && nc[2] == nb[s] + 1,
           name);
        /* the section area is C^1 through a corner's passage: the step of 2 eps across the
        ** change is the one before it to O(eps) (the factor 2.5 leaves room for that); from
        ** no contact, the area starts as 500 delta^2 (the corner's triangle at these angles),
        ** 2e-11 after 2 eps: 1e-9.  A vertex or a face lost would jump by O(0.1 - 1). */
        double step = fabs(a[1] - a[0]), jump = fabs(a[2] - a[1]);
        snprintf(name, sizeof name, "mode change %d -> %d: the cut area continuous", nb[s],
                 nb[s] + 1);
        ok(jump <= 2.5 * step + 1e-9, name);
        diag("cut area %.12g, %.12g, %.12g: steps %.3g then %.3g", a[0], a[1], a[2], step, jump);
    }
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

static void test_kinematics_hand(void)
{
    double Rl[9];
    sbox_pose p;
    sbox_result r;
    rot_zy(0.02, 0.05, Rl);
    pose_set(&p, 0.06, 0.3, 0, Rl);
    sbox_detect(&G, &p, &r);
    sbox_body sb, gb;
    memset(&sb, 0, sizeof sb), memset(&gb, 0, sizeof gb);
    memcpy(sb.r, p.P, sizeof sb.r);
    memcpy(gb.r, O0, sizeof gb.r);
    const double v[3] = {0.3, -0.7, 0.2};
    memcpy(sb.v, v, sizeof v);
    double worst = 0, worst_t = 0, worst_arm = 0;
    for (int k = 0; k < SBOX_NFACES; k++)
        for (int c = 0; c < 8; c++) {
            sbox_rates q;
            sbox_kinematics(&r, k, c, &sb, &gb, &q);
            const double *n = r.face[k].n;
            double vn = vec3_dot(v, n), vt[3], arm[3];
            for (int i = 0; i < 3; i++) vt[i] = v[i] - vn * n[i];
            worst = fmax(worst, fabs(q.delta_dot + vn));
            worst_t = fmax(worst_t, vdiff(q.vt, vt));
            vec3_sub(r.corner[c], p.P, arm);
            worst_arm = fmax(worst_arm, vdiff(q.arm_s, arm));
            vec3_sub(r.face[k].foot[c], O0, arm);
            worst_arm = fmax(worst_arm, vdiff(q.arm_g, arm));
        }
    ok(worst <= 1e-15, "slider translating: delta_dot = -v . n, 32 pairs");
    ok(worst_t <= 1e-15, "slider translating: vt = v - (v . n) n");
    ok(worst_arm == 0, "the arms: p_c - r of the slider, D - r of the guide");
    memcpy(gb.v, v, sizeof v);
    sbox_rates q;
    sbox_kinematics(&r, SBOX_XPOS, 5, &sb, &gb, &q);
    ok(fabs(q.delta_dot) <= 1e-16 && vec3_norm(q.vt) <= 1e-16,
       "both translating alike: no relative velocity");

    /* the guide turning about its travel axis Y through O, w = 1.5: the wall x = +Wx moves
    ** along X at w z, so a corner at guide height z closes at delta_dot = -w z */
    memset(gb.v, 0, sizeof gb.v);
    memset(sb.v, 0, sizeof sb.v);
    vec3_scale(1.5, Y0, gb.w);
    worst = 0;
    for (int c = 0; c < 8; c++) {
        sbox_kinematics(&r, SBOX_XPOS, c, &sb, &gb, &q);
        double rel[3];
        vec3_sub(r.corner[c], O0, rel);
        worst = fmax(worst, fabs(q.delta_dot + 1.5 * vec3_dot(rel, Z0)));
    }
    ok(worst <= 1e-14, "guide turning about Y: delta_dot = -w z of each corner");

    /* the slider turning about its own x axis through P: each corner at w x (p_c - P) */
    double xs[3];
    axis_of(p.R, 0, xs);
    memset(gb.w, 0, sizeof gb.w);
    vec3_scale(2.0, xs, sb.w);
    worst = 0;
    for (int c = 0; c < 8; c++) {
        sbox_kinematics(&r, SBOX_XPOS, c, &sb, &gb, &q);
        double arm[3], vc[3];
        vec3_sub(r.corner[c], p.P, arm);
        vec3_cross(sb.w, arm, vc);
        worst = fmax(worst, fabs(q.delta_dot + vec3_dot(vc, r.face[SBOX_XPOS].n)));
        worst_t = fmax(worst_t, fabs(vec3_dot(q.vt, r.face[SBOX_XPOS].n)));
    }
    ok(worst <= 1e-15 && worst_t <= 1e-15,
       "slider turning about its x axis: delta_dot = -(w x (p_c - P)) . n, vt in the plane");
}

typedef struct motion {
    double r0[3], v0[3], acc[3], w[3];
} motion;

static void motion_random(motion *m, const double ref[3])
{
    for (int i = 0; i < 3; i++) {
        m->r0[i] = ref[i] + uniform(-0.5, 0.5);
        m->v0[i] = uniform(-1, 1);
        m->acc[i] = uniform(-2, 2);
        m->w[i] = uniform(-2, 2);
    }
}

/* A point x0 of the body (at t = 0) at time t. */
static void motion_point(const motion *m, double t, const double x0[3], double out[3])
{
    double s[3];
    vec3_sub(x0, m->r0, s);
    rotate(m->w, t, s, out);
    for (int i = 0; i < 3; i++) out[i] += m->r0[i] + m->v0[i] * t + 0.5 * m->acc[i] * t * t;
}

static void pose_at(const sbox_pose *p, const motion *mg, const motion *ms, double t,
                    sbox_pose *out)
{
    motion_point(mg, t, p->O, out->O);
    rotate(mg->w, t, p->X, out->X);
    rotate(mg->w, t, p->Y, out->Y);
    rotate(mg->w, t, p->Z, out->Z);
    motion_point(ms, t, p->P, out->P);
    for (int i = 0; i < 3; i++) {
        double col[3], c2[3];
        axis_of(p->R, i, col);
        rotate(ms->w, t, col, c2);
        for (int r = 0; r < 3; r++) out->R[3 * r + i] = c2[r];
    }
}

static void test_kinematics_fd(void)
{
    const double h = 1e-6;
    double worst = 0, worst_t = 0;
    int n = 0;
    for (int trial = 0; trial < 30; trial++) {
        sbox_geom g;
        sbox_pose p, pp, pm;
        sbox_result r, rp, rm;
        random_pose(&g, &p, trial % 2);
        motion mg, ms;
        motion_random(&mg, p.O);
        motion_random(&ms, p.P);
        pose_at(&p, &mg, &ms, h, &pp);
        pose_at(&p, &mg, &ms, -h, &pm);
        sbox_detect(&g, &p, &r);
        sbox_detect(&g, &pp, &rp);
        sbox_detect(&g, &pm, &rm);
        sbox_body sb, gb;
        memcpy(sb.r, ms.r0, sizeof sb.r), memcpy(sb.v, ms.v0, sizeof sb.v);
        memcpy(sb.w, ms.w, sizeof sb.w);
        memcpy(gb.r, mg.r0, sizeof gb.r), memcpy(gb.v, mg.v0, sizeof gb.v);
        memcpy(gb.w, mg.w, sizeof gb.w);
        for (int k = 0; k < SBOX_NFACES; k++)
            for (int c = 0; c < 8; c++) {
                sbox_rates q;
                sbox_kinematics(&r, k, c, &sb, &gb, &q);
                double fd = -(rp.face[k].gap[c] - rm.face[k].gap[c]) / (2 * h);
                worst = fmax(worst, fabs(q.delta_dot - fd));
                worst_t =
                    fmax(worst_t, fabs(vec3_dot(q.vt, r.face[k].n)) / fmax(1, vec3_norm(q.vrel)));
                n++;
            }
    }
    ok(n == 960 && worst <= 1e-8,
       "delta_dot = -d(gap)/dt by central differences, 30 motions of both bodies x 32 pairs");
    diag("largest difference: %.3g", worst);
    ok(worst_t <= 1e-15, "vt normal to n");
}

/* The slider turned by pi about its own y (R columns x, z negated): corner c becomes c ^ 5,
** the same gaps; the guide turned by pi about Y: the faces +x <-> -x, +z <-> -z. */
static void test_symmetry(void)
{
    int same_gap = 1, same_guide = 1;
    double worst = 0;
    for (int trial = 0; trial < 40; trial++) {
        sbox_geom g;
        sbox_pose p, q;
        sbox_result r, rq;
        random_pose(&g, &p, trial % 2);
        sbox_detect(&g, &p, &r);
        q = p;
        for (int row = 0; row < 3; row++) q.R[3 * row] *= -1, q.R[3 * row + 2] *= -1;
        sbox_detect(&g, &q, &rq);
        for (int k = 0; k < SBOX_NFACES; k++) {
            const sbox_face *a = &r.face[k], *b = &rq.face[k];
            for (int c = 0; c < 8; c++) same_gap = same_gap && a->gap[c] == b->gap[c ^ 5];
            same_gap = same_gap && a->mode == b->mode && a->ncorners == b->ncorners;
            worst = fmax(worst, fabs(a->cut_area - b->cut_area));
            worst = fmax(worst, fabs(a->volume - b->volume));
            worst = fmax(worst, fabs(a->side[0] - b->side[1]) + fabs(a->side[4] - b->side[5]));
            worst = fmax(worst, vdiff(a->cut_centroid, b->cut_centroid));
        }
        q = p;
        vec3_scale(-1, p.X, q.X);
        vec3_scale(-1, p.Z, q.Z);
        sbox_detect(&g, &q, &rq);
        const int swap[4] = {SBOX_XNEG, SBOX_XPOS, SBOX_ZNEG, SBOX_ZPOS};
        for (int k = 0; k < SBOX_NFACES; k++) {
            const sbox_face *a = &r.face[k], *b = &rq.face[swap[k]];
            for (int c = 0; c < 8; c++) same_guide = same_guide && a->gap[c] == b->gap[c];
            same_guide = same_guide && a->mode == b->mode && a->cut_area == b->cut_area &&
                         a->volume == b->volume;
        }
    }
    ok(same_gap, "slider turned by pi about its y: the same gaps, corner c as c ^ 5, same modes");
    ok(worst <= 1e-13, "and the same cut, volume, centroid, side areas mirrored");
    diag("largest difference %.3g", worst);
    ok(same_guide, "guide turned by pi about Y: +x and -x, +z and -z exchanged, the same bits");
}

static int refused(const sbox_geom *g, const sbox_pose *p, const char *want1, const char *want2,
                   const char *name)
{
    mech_error err;
    mech_error_clear(&err);
    mech_status st = sbox_check(g, p, &err);
    int good = st == MECH_ERR_ARG && err.code == MECH_ERR_ARG && strstr(err.msg, want1) &&
               (!want2 || strstr(err.msg, want2));
    if (!ok(good, name)) diag("status %d, message '%s'", (int)st, err.msg);
    return good;
}

static void test_checks(void)
{
    sbox_pose p, q;
    pose_set(&p, 0, 0, 0, I3);
    mech_error err;
    mech_error_clear(&err);
    ok(sbox_check(&G, &p, &err) == MECH_OK && sbox_check(&G, NULL, NULL) == MECH_OK,
       "valid sizes and poses are accepted");
    sbox_geom g = G;
    g.hx = 1.2;
    refused(&g, &p, "hx = 1.2", "Wx = 1", "a slider wider than the channel in x is refused");
    g = G, g.hx = 1;
    refused(&g, &p, "hx = 1", "Wx = 1", "hx = Wx (no clearance) is refused");
    g = G, g.hz = 0.6;
    refused(&g, &p, "hz = 0.6", "Wz = 0.58", "a slider taller than the channel in z is refused");
    g = G, g.hy = 0;
    refused(&g, &p, "hy = 0", NULL, "a zero half size is refused");
    g = G, g.hx = -0.5;
    refused(&g, &p, "hx = -0.5", NULL, "a negative half size is refused");
    g = G, g.Wz = NAN;
    refused(&g, NULL, "Wz = nan", NULL, "a NaN half-width is refused (sizes alone)");
    g = G, g.hy = INFINITY;
    refused(&g, &p, "hy = inf", NULL, "an infinite half size is refused");
    q = p, q.X[0] *= 2;
    refused(&G, &q, "guide axis X (1.33333", "length 1.52753", "a non-unit X is refused");
    q = p, q.Y[1] = NAN;
    refused(&G, &q, "guide axis Y", "nan", "a NaN in Y is refused");
    q = p;
    memcpy(q.Z, X0, sizeof X0);
    refused(&G, &q, "Z and X", "Z . X = 1", "Z = X is refused: not orthogonal");
    q = p;
    vec3_scale(-1, Z0, q.Z);
    refused(&G, &q, "left-handed", "= -1", "a left-handed guide frame is refused");
    q = p, q.P[2] = INFINITY;
    refused(&G, &q, "slider centre P", "inf", "a non-finite centre is refused");
    q = p, q.O[0] = NAN;
    refused(&G, &q, "guide origin O", "nan", "a NaN origin is refused");
    q = p, q.R[4] *= 1.01;
    refused(&G, &q, "not orthonormal", "R^T R", "a stretched rotation is refused");
    q = p;
    for (int row = 0; row < 3; row++) q.R[3 * row] *= -1;
    refused(&G, &q, "det R = -1", "reflection", "a reflection is refused");
    q = p, q.R[8] = NAN;
    refused(&G, &q, "slider rotation R", "not finite", "a NaN in R is refused");
    g = G, g.hx = 1.2;
    ok(sbox_check(&g, &p, NULL) == MECH_ERR_ARG, "the status without a message buffer");
}

/* One corner alone (what a per-corner contact reads): sbox_face_gaps, sbox_corner_gap and
** sbox_corner give sbox_detect's gaps, normals and corners to the bit, over random poses. */
static void test_one_corner(void)
{
    int same = 1;
    for (int trial = 0; trial < 400; trial++) {
        sbox_geom g;
        sbox_pose p;
        sbox_result r;
        random_pose(&g, &p, trial % 2);
        sbox_detect(&g, &p, &r);
        for (int k = 0; k < SBOX_NFACES; k++) {
            double gaps[8], n[3], n1[3];
            sbox_face_gaps(&g, &p, k, n, gaps);
            same &= memcmp(gaps, r.face[k].gap, sizeof gaps) == 0;
            same &= memcmp(n, r.face[k].n, sizeof n) == 0;
            for (int c = 0; c < 8; c++) {
                double pc[3], gc = sbox_corner_gap(&g, &p, k, c, n1);
                sbox_corner(&g, &p, c, pc);
                same &= memcmp(&gc, &r.face[k].gap[c], sizeof gc) == 0;
                same &= memcmp(n1, r.face[k].n, sizeof n1) == 0;
                same &= memcmp(pc, r.corner[c], sizeof pc) == 0;
            }
        }
    }
    ok(same, "one corner alone: the gaps, normals and corners of sbox_detect, bit for bit");
}

int main(void)
{
    test_centred();
    test_lateral();
    test_yaw_edge();
    test_corner();
    test_three();
    test_through();
    test_cut_cube();
    test_brute_force();
    test_pressure_centre();
    test_switches();
    test_kinematics_hand();
    test_kinematics_fd();
    test_symmetry();
    test_checks();
    test_one_corner();
    return done_testing();
}

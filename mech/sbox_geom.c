/* SPDX-License-Identifier: MIT */
/*
** The contact geometry of a spatial translational joint with clearance, a box slider in a
** rectangular channel: see sbox_geom.h.
**
** The section.  Everything about one face is computed in the slider's coordinates from the
** eight gaps g_c = off + m . u_c, and once: which corners are in (g_c < 0), the cut polygon
** (the points where the twelve slider edges with one end in and one out meet the plane, at
** t = g_in / (g_in - g_out) from the end in), the parts of the six slider faces beyond (each
** rectangle clipped to g < 0) and the volume.  So the mode, the polygon and the sizes agree
** whatever the rounding near a tie.  The coordinates are taken from the deepest corner c*,
** w = u - u_c*: the corners' w are 0 or +-2 h_i exactly, and a small overlap at c* is
** described by small numbers (its triangle's legs t 2 h_i to full relative precision) rather
** than by differences of the slider's half sizes.
**
** The volume by the divergence theorem with the origin at c*: the overlap's boundary is the
** cut (outward normal m, at the distance delta_max = -g_c* from c*) and the faces' parts
** beyond (outward normals +-e_i); the faces through c* contribute nothing, the opposite ones
** lie 2 h_i from it:
**     volume = (cut_area delta_max + sum over the faces opposite c* of 2 h_i side_f) / 3,
** a sum of terms >= 0, so a small overlap does not come out of cancelling large terms.
**
** The in-set is the set of corners cut off by a plane (one corner, an edge, three corners of a
** face, a face, a corner with its neighbours, their complements) up to rounding.  Rounding can
** break that only where four corners lie on the plane to rounding (a slider face on it, or a
** diagonal section through two opposite edges), and the corners on the plane may then count
** either way: the cut comes from points on the plane's segments of the slider's edges there,
** the volume and the faces' parts stay within rounding of the exact ones.  A face on the
** plane is where the exact cut jumps anyway, from nothing (touching) to the whole face (the
** least penetration); rounding puts the cut anywhere between.  The edge mode then takes the
** lowest axis in which its two corners differ.
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sbox_geom.h"
#include "vec3.h"

/* How far from 1 an axis's length, from 0 the products of two axes, may be. */
#define SBOX_UNIT_TOL 1e-9

/* The corner's coordinate along axis i: +h_i when bit i of c is set, else -h_i. */
static double corner_coord(const double h[3], int c, int i)
{
    return (c >> i) & 1 ? h[i] : -h[i];
}

/* w_c = u_c - u_d along axis i: 0 when corners c and d agree in bit i, else +-2 h_i. */
static double rel_coord(const double h[3], int c, int d, int i)
{
    int bc = (c >> i) & 1, bd = (d >> i) & 1;
    return bc == bd ? 0 : bc ? 2 * h[i] : -2 * h[i];
}

/* The point of the slider edge from corner a (in) to corner b (out), which differ along axis
** i, where g = 0, in coordinates from corner d: w_a + t (w_b - w_a). */
static void edge_point(const double h[3], const double g[8], int a, int b, int i, int d,
                       double w[3])
{
    double t = g[a] / (g[a] - g[b]); /* in (0, 1]: g[a] < 0 <= g[b] */
    for (int k = 0; k < 3; k++) w[k] = rel_coord(h, a, d, k);
    w[i] += t * (rel_coord(h, b, d, i) - w[i]);
}

/* A unit vector normal to the unit m, and the one that completes a right-handed frame. */
static void plane_basis(const double m[3], double e1[3], double e2[3])
{
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(m[i]) < fabs(m[k])) k = i;
    double e[3] = {0, 0, 0};
    e[k] = 1;
    vec3_cross(m, e, e1);
    vec3_unit(e1, e1);
    vec3_cross(m, e1, e2);
}

/* The area of the part of slider face (i, s) (s = 1: +h_i, 0: -h_i) with g < 0: its rectangle
** clipped to the half-plane, in the coordinates from corner d; cen its centroid there (the
** moments taken from the part's first vertex, so that a small part far from d keeps its
** digits). */
static double face_part(const double h[3], const double g[8], int i, int s, int d, double cen[3])
{
    int j = (i + 1) % 3, l = (i + 2) % 3;
    /* the rectangle's corners in cyclic order: (bit j, bit l) = 00, 10, 11, 01 */
    const int bj[4] = {0, 1, 1, 0}, bl[4] = {0, 0, 1, 1};
    int c[4];
    for (int k = 0; k < 4; k++) c[k] = (s << i) | (bj[k] << j) | (bl[k] << l);
    double x[8], y[8];
    int n = 0;
    for (int k = 0; k < 4; k++) {
        int p = c[k], q = c[(k + 1) % 4];
        int pin = g[p] < 0, qin = g[q] < 0;
        if (pin) {
            x[n] = rel_coord(h, p, d, j), y[n] = rel_coord(h, p, d, l);
            n++;
        }
        if (pin != qin) {
            int a = pin ? p : q, b = pin ? q : p, axis = (p ^ q) == (1 << j) ? j : l;
            double w[3];
            edge_point(h, g, a, b, axis, d, w);
            x[n] = w[j], y[n] = w[l];
            n++;
        }
    }
    double twice = 0, mx = 0, my = 0;
    for (int k = 1; k + 1 < n; k++) {
        double ax = x[k] - x[0], ay = y[k] - y[0], bx = x[k + 1] - x[0], by = y[k + 1] - y[0];
        double t = ax * by - bx * ay;
        twice += t;
        mx += t * (ax + bx) / 3;
        my += t * (ay + by) / 3;
    }
    cen[i] = rel_coord(h, s << i, d, i);
    cen[j] = n > 0 ? x[0] : 0;
    cen[l] = n > 0 ? y[0] : 0;
    if (twice != 0) cen[j] += mx / twice, cen[l] += my / twice;
    return fabs(twice) / 2;
}

void sbox_cut(const double h[3], const double m[3], double off, sbox_section *out)
{
    memset(out, 0, sizeof *out);
    int d = 0;
    for (int c = 0; c < 8; c++) {
        out->gap[c] = off + (m[0] * corner_coord(h, c, 0) + m[1] * corner_coord(h, c, 1) +
                             m[2] * corner_coord(h, c, 2));
        out->nin += out->gap[c] < 0;
        if (out->gap[c] < out->gap[d]) d = c;
    }
    out->deepest = d;
    const double *g = out->gap;
    /* no cut: the centroid stands at c*'s foot on the plane */
    for (int k = 0; k < 3; k++) out->centroid[k] = corner_coord(h, d, k) - g[d] * m[k];
    memcpy(out->pcentre, out->centroid, sizeof out->pcentre);
    if (out->nin == 0) return;

    /* the cut: the crossings of the twelve edges, from c* */
    double w[12][3];
    int n = 0;
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 8; c++) {
            if ((c >> i) & 1) continue;
            int b = c | (1 << i);
            if ((g[c] < 0) == (g[b] < 0)) continue;
            if (g[c] < 0)
                edge_point(h, g, c, b, i, d, w[n]);
            else
                edge_point(h, g, b, c, i, d, w[n]);
            n++;
        }
    /* in order around the mean, counter-clockwise about m; exact repeats (corners on the
    ** plane, met from several edges) dropped */
    double e1[3], e2[3], c0[3] = {0, 0, 0}, ang[12];
    plane_basis(m, e1, e2);
    for (int k = 0; k < n; k++) vec3_add(c0, w[k], c0);
    if (n > 0) vec3_scale(1.0 / n, c0, c0);
    for (int k = 0; k < n; k++) {
        double r[3];
        vec3_sub(w[k], c0, r);
        ang[k] = atan2(vec3_dot(r, e2), vec3_dot(r, e1));
    }
    for (int k = 1; k < n; k++) {
        double a = ang[k], p[3];
        memcpy(p, w[k], sizeof p);
        int q = k - 1;
        for (; q >= 0 && ang[q] > a; q--) {
            ang[q + 1] = ang[q];
            memcpy(w[q + 1], w[q], sizeof p);
        }
        ang[q + 1] = a;
        memcpy(w[q + 1], p, sizeof p);
    }
    int kept = 0;
    for (int k = 0; k < n; k++) {
        if (kept > 0 && memcmp(w[k], w[kept - 1], sizeof w[k]) == 0) continue;
        memmove(w[kept], w[k], sizeof w[k]);
        kept++;
    }
    if (kept > 1 && memcmp(w[0], w[kept - 1], sizeof w[0]) == 0) kept--;
    n = kept > 6 ? 6 : kept; /* at most six edges cross a plane */

    /* area and centroid: the fan of triangles from the mean */
    double cen[3] = {0, 0, 0}, area = 0;
    if (n >= 3) {
        for (int k = 0; k < n; k++) {
            double a[3], b[3], x[3];
            vec3_sub(w[k], c0, a);
            vec3_sub(w[(k + 1) % n], c0, b);
            vec3_cross(a, b, x);
            double ak = vec3_dot(x, m) / 2;
            area += ak;
            for (int q = 0; q < 3; q++) cen[q] += ak * (a[q] + b[q]) / 3;
        }
    }
    if (area > 0)
        vec3_scale(1 / area, cen, cen);
    else
        area = 0, cen[0] = cen[1] = cen[2] = 0;
    out->n = n;
    out->area = area;
    for (int q = 0; q < 3; q++) {
        double ud = corner_coord(h, d, q);
        if (n > 0) out->centroid[q] = ud + (c0[q] + cen[q]);
        for (int k = 0; k < n; k++) out->v[k][q] = ud + w[k][q];
    }

    /* the faces' parts beyond, and the volume from c*: pyramids with their apex at c*, whose
    ** centroids lie 3/4 of the way to their bases' */
    double vol = area * -g[d], mom[3];
    for (int q = 0; q < 3; q++) mom[q] = vol * (c0[q] + cen[q]);
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++) {
            double fc[3];
            double a = face_part(h, g, i, s, d, fc);
            out->side[2 * i + s] = a;
            if (s == ((d >> i) & 1)) continue;
            vol += 2 * h[i] * a;
            for (int q = 0; q < 3; q++) mom[q] += 2 * h[i] * a * fc[q];
        }
    out->volume = vol / 3;
    /* the pressure centre: the overlap's centroid moved along m onto the plane */
    memcpy(out->pcentre, out->centroid, sizeof out->pcentre);
    if (vol > 0) {
        double c[3];
        for (int q = 0; q < 3; q++) c[q] = 0.75 * mom[q] / vol;
        double gc = g[d] + vec3_dot(m, c);
        for (int q = 0; q < 3; q++) out->pcentre[q] = corner_coord(h, d, q) + (c[q] - gc * m[q]);
    }
}

/* How far a slider edge from a corner at depth delta runs beyond the plane: delta / |m_i|,
** at most the edge's length 2 h_i. */
static double edge_run(double delta, double mi, double hi)
{
    return delta >= 2 * hi * fabs(mi) ? 2 * hi : delta / fabs(mi);
}

/* The sizes of the stiffness laws by mode (head of sbox_geom.h). */
static void sizes(const double h[3], const double m[3], const sbox_section *s, sbox_face *f)
{
    int d = s->deepest;
    double dmax = -s->gap[d];
    f->axis = -1;
    for (int i = 0; i < 3; i++) f->len[i] = 0, f->area[i] = s->side[2 * i + ((d >> i) & 1)];
    if (s->nin == 1) {
        for (int i = 0; i < 3; i++) f->len[i] = edge_run(dmax, m[i], h[i]);
    } else if (s->nin == 2) {
        int other = d;
        for (int c = 0; c < 8; c++)
            if (c != d && s->gap[c] < 0) other = c;
        int diff = d ^ other, i = 0;
        while (!((diff >> i) & 1)) i++;
        f->axis = i;
        for (int k = 0; k < 3; k++)
            f->len[k] =
                k == i ? 2 * h[i]
                       : (edge_run(dmax, m[k], h[k]) + edge_run(-s->gap[other], m[k], h[k])) / 2;
    } else if (s->nin >= 3) {
        int i = 0;
        for (int k = 1; k < 3; k++)
            if (h[k] * fabs(m[k]) > h[i] * fabs(m[i])) i = k;
        int j = (i + 1) % 3, l = (i + 2) % 3;
        f->axis = i;
        f->len[j] = 2 * h[j], f->len[l] = 2 * h[l];
        f->len[i] = s->volume / (4 * h[j] * h[l]);
    }
}

/* The face's normal into the channel and a point of it. */
static void face_plane(const sbox_geom *g, const sbox_pose *pose, int k, double n[3], double q[3])
{
    const double *ax = k < SBOX_ZPOS ? pose->X : pose->Z;
    double W = k < SBOX_ZPOS ? g->Wx : g->Wz, sign = k == SBOX_XPOS || k == SBOX_ZPOS ? 1 : -1;
    for (int i = 0; i < 3; i++) {
        n[i] = -sign * ax[i];
        q[i] = pose->O[i] + sign * W * ax[i];
    }
}

/* world = P + R u */
static void to_world(const sbox_pose *pose, const double u[3], double out[3])
{
    mat3_vec(pose->R, u, out);
    vec3_add(pose->P, out, out);
}

void sbox_face_from_section(const double h[3], const double m[3], const sbox_section *s,
                            sbox_face *f)
{
    f->ncorners = s->nin;
    f->mode = s->nin == 0   ? SBOX_NONE
              : s->nin == 1 ? SBOX_CORNER
              : s->nin == 2 ? SBOX_EDGE
              : s->nin <= 4 ? SBOX_FACE
                            : SBOX_THROUGH;
    f->deepest = s->deepest;
    f->delta_max = -s->gap[s->deepest];
    sizes(h, m, s, f);
    memcpy(f->side, s->side, sizeof f->side);
    f->volume = s->volume;
    f->cut_area = s->area;
    f->cut_n = s->n;
}

int sbox_detect(const sbox_geom *g, const sbox_pose *pose, sbox_result *out)
{
    const double h[3] = {g->hx, g->hy, g->hz};
    out->ncontact = 0;
    for (int c = 0; c < 8; c++) {
        double u[3];
        for (int i = 0; i < 3; i++) u[i] = corner_coord(h, c, i);
        to_world(pose, u, out->corner[c]);
    }
    for (int k = 0; k < SBOX_NFACES; k++) {
        sbox_face *f = &out->face[k];
        sbox_section s;
        double rel[3], m[3];
        memset(f, 0, sizeof *f);
        face_plane(g, pose, k, f->n, f->q);
        mat3t_vec(pose->R, f->n, m);
        vec3_sub(pose->P, f->q, rel);
        sbox_cut(h, m, vec3_dot(f->n, rel), &s);
        for (int c = 0; c < 8; c++) {
            f->gap[c] = s.gap[c];
            for (int i = 0; i < 3; i++) f->foot[c][i] = out->corner[c][i] - s.gap[c] * f->n[i];
            if (s.gap[c] < 0) f->inside |= 1 << c;
        }
        sbox_face_from_section(h, m, &s, f);
        for (int v = 0; v < s.n; v++) to_world(pose, s.v[v], f->cut[v]);
        to_world(pose, s.centroid, f->cut_centroid);
        out->ncontact += f->mode != SBOX_NONE;
    }
    return out->ncontact;
}

void sbox_face_terms(const sbox_geom *g, const sbox_pose *pose, int k, double n[3], double m[3],
                     double *off)
{
    double q[3], rel[3];
    face_plane(g, pose, k, n, q);
    mat3t_vec(pose->R, n, m);
    vec3_sub(pose->P, q, rel);
    *off = vec3_dot(n, rel);
}

static double corner_gap(const double h[3], const double m[3], double off, int c)
{
    return off + (m[0] * corner_coord(h, c, 0) + m[1] * corner_coord(h, c, 1) +
                  m[2] * corner_coord(h, c, 2));
}

void sbox_face_gaps(const sbox_geom *g, const sbox_pose *pose, int k, double n[3], double gap[8])
{
    const double h[3] = {g->hx, g->hy, g->hz};
    double nk[3], m[3], off;
    sbox_face_terms(g, pose, k, nk, m, &off);
    for (int c = 0; c < 8; c++) gap[c] = corner_gap(h, m, off, c);
    if (n) memcpy(n, nk, sizeof nk);
}

double sbox_corner_gap(const sbox_geom *g, const sbox_pose *pose, int k, int c, double n[3])
{
    const double h[3] = {g->hx, g->hy, g->hz};
    double nk[3], m[3], off;
    sbox_face_terms(g, pose, k, nk, m, &off);
    if (n) memcpy(n, nk, sizeof nk);
    return corner_gap(h, m, off, c);
}

void sbox_corner(const sbox_geom *g, const sbox_pose *pose, int c, double p[3])
{
    const double h[3] = {g->hx, g->hy, g->hz};
    double u[3];
    for (int i = 0; i < 3; i++) u[i] = corner_coord(h, c, i);
    to_world(pose, u, p);
}

void sbox_point_kinematics(const double ps[3], const double pg[3], const double n[3],
                           const sbox_body *slider, const sbox_body *guide, sbox_rates *out)
{
    double vs[3], vg[3], t[3];
    vec3_sub(ps, slider->r, out->arm_s);
    vec3_sub(pg, guide->r, out->arm_g);
    vec3_cross(slider->w, out->arm_s, t);
    vec3_add(slider->v, t, vs);
    vec3_cross(guide->w, out->arm_g, t);
    vec3_add(guide->v, t, vg);
    vec3_sub(vs, vg, out->vrel);
    double vn = vec3_dot(out->vrel, n);
    out->delta_dot = -vn;
    vec3_scale(vn, n, t);
    vec3_sub(out->vrel, t, out->vt);
}

void sbox_kinematics(const sbox_result *r, int k, int c, const sbox_body *slider,
                     const sbox_body *guide, sbox_rates *out)
{
    sbox_point_kinematics(r->corner[c], r->face[k].foot[c], r->face[k].n, slider, guide, out);
}

/* Whether a is finite and of unit length; else writes the reason. */
static mech_status check_axis(const double a[3], const char *what, mech_error *err)
{
    double len = vec3_norm(a);
    if (!vec3_finite(a) || !(fabs(len - 1) <= SBOX_UNIT_TOL))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the %s (%g, %g, %g) has length %g, not 1 "
                              "(within %g)",
                              what, a[0], a[1], a[2], len, SBOX_UNIT_TOL);
    return MECH_OK;
}

static mech_status check_point(const double p[3], const char *what, mech_error *err)
{
    if (!vec3_finite(p))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the %s (%g, %g, %g) is not finite", what,
                              p[0], p[1], p[2]);
    return MECH_OK;
}

static mech_status check_sizes(const sbox_geom *g, mech_error *err)
{
    static const char *names[5] = {"channel half-width Wx", "channel half-width Wz",
                                   "slider half size hx", "slider half size hy",
                                   "slider half size hz"};
    const double val[5] = {g->Wx, g->Wz, g->hx, g->hy, g->hz};
    for (int i = 0; i < 5; i++)
        if (!(val[i] > 0) || !isfinite(val[i]))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "translational clearance: the %s = %g must be positive and "
                                  "finite",
                                  names[i], val[i]);
    if (!(g->hx < g->Wx))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the slider half size hx = %g must be less "
                              "than the channel half-width Wx = %g",
                              g->hx, g->Wx);
    if (!(g->hz < g->Wz))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the slider half size hz = %g must be less "
                              "than the channel half-width Wz = %g",
                              g->hz, g->Wz);
    return MECH_OK;
}

static mech_status check_frame(const sbox_pose *pose, mech_error *err)
{
    const double *ax[3] = {pose->X, pose->Y, pose->Z};
    static const char *names[3] = {"X", "Y", "Z"};
    mech_status st;
    for (int i = 0; i < 3; i++) {
        char what[32];
        snprintf(what, sizeof what, "guide axis %s", names[i]);
        if ((st = check_axis(ax[i], what, err)) != MECH_OK) return st;
    }
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        double d = vec3_dot(ax[i], ax[j]);
        if (!(fabs(d) <= SBOX_UNIT_TOL))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "translational clearance: the guide axes %s and %s are not "
                                  "orthogonal: %s . %s = %g (within %g of 0)",
                                  names[i], names[j], names[i], names[j], d, SBOX_UNIT_TOL);
    }
    double x[3];
    vec3_cross(pose->X, pose->Y, x);
    double t = vec3_dot(x, pose->Z);
    if (!(t > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the guide axes are left-handed: "
                              "(X x Y) . Z = %g, not 1",
                              t);
    return MECH_OK;
}

static mech_status check_rotation(const double R[9], mech_error *err)
{
    if (!mat3_finite(R))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the slider rotation R has an entry that "
                              "is not finite");
    double rtr[9], worst = 0;
    mat3t_mul(R, R, rtr);
    for (int i = 0; i < 9; i++) worst = fmax(worst, fabs(rtr[i] - (i % 4 == 0 ? 1 : 0)));
    if (!(worst <= SBOX_UNIT_TOL))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the slider rotation R is not orthonormal: "
                              "R^T R differs from I by %g (more than %g)",
                              worst, SBOX_UNIT_TOL);
    double det = mat3_det(R);
    if (!(det > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "translational clearance: the slider rotation R has det R = %g, a "
                              "reflection, not a rotation",
                              det);
    return MECH_OK;
}

mech_status sbox_check(const sbox_geom *g, const sbox_pose *pose, mech_error *err)
{
    mech_status st;
    if ((st = check_sizes(g, err)) != MECH_OK) return st;
    if (!pose) return MECH_OK;
    if ((st = check_point(pose->O, "guide origin O", err)) != MECH_OK) return st;
    if ((st = check_point(pose->P, "slider centre P", err)) != MECH_OK) return st;
    if ((st = check_frame(pose, err)) != MECH_OK) return st;
    return check_rotation(pose->R, err);
}

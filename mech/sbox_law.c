/* SPDX-License-Identifier: MIT */
/* The area-dependent normal laws of a box slider against a wall: see sbox_law.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "mech_contact.h"
#include "mech_spatial.h"
#include "sbox_law.h"
#include "vec3.h"

/* A piece of the overlap by one of Wu's fits (rect: the rectangle's, else the triangle's), on
** the area S with the side ratio a/b, weighted by w; 0 for a piece of no area. */
static double piece(const sbox_law *law, int rect, double S, double a, double b, double w)
{
    if (!(S > 0 && a > 0 && b > 0 && w > 0)) return 0;
    double k = rect
                   ? mech_stiffness_rectangle(law->E[0], law->nu[0], law->E[1], law->nu[1], S, a, b)
                   : mech_stiffness_triangle(law->E[0], law->nu[0], law->E[1], law->nu[1], S, a, b);
    return isfinite(k) ? k * w : 0;
}

/* The patch's extents along e1 and e2: the ranges of its vertices' coordinates. */
static void extents(const sbox_section *s, const double e1[3], const double e2[3], double *a,
                    double *b)
{
    double lo1 = INFINITY, hi1 = -INFINITY, lo2 = INFINITY, hi2 = -INFINITY;
    for (int k = 0; k < s->n; k++) {
        double x = vec3_dot(s->v[k], e1), y = vec3_dot(s->v[k], e2);
        lo1 = fmin(lo1, x), hi1 = fmax(hi1, x);
        lo2 = fmin(lo2, y), hi2 = fmax(hi2, y);
    }
    *a = s->n ? hi1 - lo1 : 0;
    *b = s->n ? hi2 - lo2 : 0;
}

double sbox_law_stiffness(const sbox_law *law, const double h[3], const double m[3],
                          const sbox_section *s, const sbox_face *f, const double e1[3],
                          const double e2[3], int xwall)
{
    if (f->mode == SBOX_NONE) return 0;
    if (law->model == MECH_SBOX_CONSTANT) {
        double k =
            mech_stiffness_punch(law->E[0], law->nu[0], law->E[1], law->nu[1], xwall ? h[2] : h[0]);
        return isfinite(k) ? k : 0;
    }
    if (law->model == MECH_SBOX_PATCH) {
        double a, b;
        extents(s, e1, e2, &a, &b);
        return piece(law, 1, s->area, fmax(a, b), fmin(a, b), 1);
    }
    const double *len = f->len, *area = f->area;
    if (f->mode == SBOX_CORNER)
        return piece(law, 0, area[0], len[1], len[2], fabs(m[0])) +
               piece(law, 0, area[1], len[0], len[2], fabs(m[1])) +
               piece(law, 0, area[2], len[0], len[1], fabs(m[2]));
    int i = f->axis, j = (i + 1) % 3, l = (i + 2) % 3;
    if (f->mode == SBOX_EDGE)
        return piece(law, 1, area[l], len[i], len[j], fabs(m[l])) +
               piece(law, 1, area[j], len[i], len[l], fabs(m[j]));
    return piece(law, 1, area[i], fmax(h[j], h[l]), fmin(h[j], h[l]), fabs(m[i])); /* a face */
}

/* k at depth s of the plane (m, off0 - s): off0 = off + delta puts the deepest corner on it. */
static double stiffness_at(const sbox_law *law, const double h[3], const double m[3], double off0,
                           double s, const double e1[3], const double e2[3], int xwall)
{
    sbox_section sec;
    sbox_face f;
    sbox_cut(h, m, off0 - s, &sec);
    sbox_face_from_section(h, m, &sec, &f);
    return sbox_law_stiffness(law, h, m, &sec, &f, e1, e2, xwall);
}

/* The pieces of the energy's quadrature: u in [0, 2^-GRADE], then up to 1 by factors of 2; a
** piece is halved while its halves' sum differs from it by more than TOL of the first estimate
** (a kink where the patch's extents cross), to DEPTH halvings.  TOL is at least NOISE times the
** slider's size over the depth: k(s) at a depth s comes from a section cut at off0 - s, so its
** sides are known to about DBL_EPSILON (|off0| + size), a relative error of that over s; at
** depths of 1e-13 m (a graze) the relative 1e-11 was noise, never met, and every piece was
** halved to DEPTH (1e6 evaluations of k, seconds per call). */
#define GRADE 10
#define TOL   1e-11
#define NOISE (64 * DBL_EPSILON)
#define DEPTH 16

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The integrand's set-up: k(s) s over s = s0 + L u^2 (ds = 2 L u du). */
typedef struct vctx {
    const sbox_law *law;
    const double *h, *m, *e1, *e2;
    double off0, s0, L;
    int xwall;
} vctx;

/* Gauss-Legendre's 8 points on [u0, u1]. */
static double gl8(const vctx *c, double u0, double u1)
{
    static const double x[8] = {0.0198550717512319, 0.1016667612931866, 0.2372337950418355,
                                0.4082826787521751, 0.5917173212478249, 0.7627662049581645,
                                0.8983332387068134, 0.9801449282487681},
                        w[8] = {0.0506142681451881, 0.1111905172266872, 0.1568533229389436,
                                0.1813418916891810, 0.1813418916891810, 0.1568533229389436,
                                0.1111905172266872, 0.0506142681451881};
    double sum = 0;
    for (int q = 0; q < 8; q++) {
        double u = u0 + (u1 - u0) * x[q], s = c->s0 + c->L * u * u;
        sum += w[q] * stiffness_at(c->law, c->h, c->m, c->off0, s, c->e1, c->e2, c->xwall) * s * 2 *
               c->L * u;
    }
    return sum * (u1 - u0);
}

static double adapt(const vctx *c, double u0, double u1, double whole, double tol, int depth)
{
    double mid = 0.5 * (u0 + u1), left = gl8(c, u0, mid), right = gl8(c, mid, u1);
    if (depth >= DEPTH || fabs(left + right - whole) <= tol) return left + right;
    return adapt(c, u0, mid, left, tol / 2, depth + 1) +
           adapt(c, mid, u1, right, tol / 2, depth + 1);
}

double sbox_law_energy(const sbox_law *law, const double h[3], const double m[3], double off,
                       const double e1[3], const double e2[3], int xwall)
{
    /* the corners' gaps, and the depths where each comes in: g_c + delta */
    double g[8], gmin = INFINITY;
    for (int c = 0; c < 8; c++) {
        g[c] = off + (m[0] * (c & 1 ? h[0] : -h[0]) + m[1] * (c & 2 ? h[1] : -h[1]) +
                      m[2] * (c & 4 ? h[2] : -h[2]));
        gmin = fmin(gmin, g[c]);
    }
    double delta = -gmin;
    if (!(delta > 0)) return 0;
    double off0 = off + delta;
    if (law->model == MECH_SBOX_CONSTANT)
        return 0.5 * stiffness_at(law, h, m, off0, delta, e1, e2, xwall) * delta * delta;
    double at[10];
    int n = 0;
    at[n++] = 0;
    for (int c = 0; c < 8; c++) {
        double b = g[c] + delta;
        if (b > 0 && b < delta) at[n++] = b;
    }
    qsort(at + 1, (size_t)(n - 1), sizeof at[0], ascending);
    at[n++] = delta;
    /* each piece after s = s0 + L u^2, u in [0, 1] cut at 2^-GRADE .. 1/4, 1/2 (a stiffness
    ** whose side ratio runs to infinity at s0 is a rational function with a pole as near as
    ** the ratio's scale: the pieces shrink towards it) */
    double V = 0, tol = fmax(TOL, NOISE * (fabs(off0) + h[0] + h[1] + h[2]) / delta);
    for (int p = 0; p + 1 < n; p++) {
        vctx c = {law, h, m, e1, e2, off0, at[p], at[p + 1] - at[p], xwall};
        if (!(c.L > 0)) continue;
        double first[GRADE + 1], total = 0;
        for (int piece = GRADE; piece >= 0; piece--) {
            double u0 = piece == GRADE ? 0 : ldexp(1, -piece - 1), u1 = ldexp(1, -piece);
            first[piece] = gl8(&c, u0, u1);
            total += first[piece];
        }
        if (law->model == MECH_SBOX_AREA) { /* smooth between the corners: no kink */
            V += total;
            continue;
        }
        for (int piece = GRADE; piece >= 0; piece--) {
            double u0 = piece == GRADE ? 0 : ldexp(1, -piece - 1), u1 = ldexp(1, -piece);
            V += adapt(&c, u0, u1, first[piece], tol * fabs(total), 0);
        }
    }
    return V;
}

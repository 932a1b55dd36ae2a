/* SPDX-License-Identifier: MIT */
/*
** The contact geometry of a spatial revolute joint with radial and axial clearance: see
** sclearance_geom.h.
**
** The farthest rim point.  Let the rim be c + R (x u + y v), x^2 + y^2 = 1, with v a unit
** vector normal to both a and the line direction ax (v = unit(a x ax)) and u = v x a.  With
** d the offset of c from the line normal to ax, p = d.u, q = d.v and sg = u.ax, the squared
** distance from the line is
**     |d|^2 + R^2 + 2 R (p x + q y) - R^2 sg^2 x^2
** since u projected normal to ax has squared length 1 - sg^2 and stays orthogonal to v.  So
** the farthest point maximises h = p x + q y - (k/2) x^2, k = R sg^2 >= 0, on the unit circle:
** a quadratic with Hessian diag(-k, 0) over a circle.  Its global maximum is the stationary
** point (x, y) = (p / (lambda + k), q / lambda) with multiplier lambda >= 0 (then
** lambda I - Hessian is positive semidefinite), found from the secular equation
**     phi(lambda) = p^2 / (lambda + k)^2 + q^2 / lambda^2 = 1.
** For q != 0, phi decreases from infinity to 0 on lambda > 0, so the root is unique and lies
** in [max(|q|, |p| - k), hypot(p, q)]; 1/sqrt(phi) is concave there (More and Sorensen's
** argument for trust regions), so Newton on 1/sqrt(phi) - 1 from the lower end of the bracket
** climbs monotonically to the root, quadratically at the end.  For q = 0: x = sign(p), y = 0
** when |p| > k (lambda = |p| - k); otherwise lambda = 0, x = p / k and y = +sqrt(1 - x^2)
** (the two mirror points are equally far; the one towards +v = +(a x ax) is taken).  p = q =
** k = 0 (an aligned circle centred on the line) takes x = 1: every point is equally far.
** k = 0 (aligned) gives (x, y) = (p, q) / hypot(p, q), the direction of the reconstructed
** scheme.
*/
#include <math.h>
#include <stddef.h>

#include "sclearance_geom.h"
#include "vec3.h"

/* Below this length, sigma ai - ((sigma ai).aj) aj is taken as zero: ai parallel to aj. */
#define SCLR_PARALLEL 1e-12
/* The face contact's smoothing angle [rad]: see the head of sclearance_geom.h. */
#define SCLR_FACE_EPS 1e-6
/* How far from 1 an axis's length may be. */
#define SCLR_UNIT_TOL 1e-9

/* A unit vector normal to the unit a. */
static void perpendicular(const double a[3], double out[3])
{
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(a[i]) < fabs(a[k])) k = i;
    double e[3] = {0, 0, 0}, t[3];
    e[k] = 1;
    vec3_cross(a, e, t);
    vec3_unit(t, out);
}

/* out = unit(x - (x.a) a) for the unit a, twice over so that out.a is rounding even when x is
** nearly along a; returns the length of the first pass (0: out untouched). */
static double normal_part(const double x[3], const double a[3], double out[3])
{
    double t[3], len;
    vec3_scale(vec3_dot(x, a), a, t);
    vec3_sub(x, t, t);
    if (!((len = vec3_unit(t, t)) > 0)) return 0;
    double t2[3];
    vec3_scale(vec3_dot(t, a), a, t2);
    vec3_sub(t, t2, t2);
    if (!(vec3_unit(t2, out) > 0)) return 0;
    return len;
}

/* The maximiser (x, y) on the unit circle of p x + q y - (k/2) x^2, k >= 0 (see the top). */
static void circle_max(double p, double q, double k, double *x, double *y)
{
    double sc = fmax(fmax(fabs(p), fabs(q)), k);
    if (!(sc > 0)) {
        *x = 1, *y = 0;
        return;
    }
    p /= sc, q /= sc, k /= sc;
    if (q == 0) {
        if (fabs(p) > k) {
            *x = p > 0 ? 1 : -1, *y = 0;
        } else {
            *x = p / k;
            *y = sqrt(fmax(0, 1 - *x * *x));
        }
        return;
    }
    double lo = fmax(fabs(q), fabs(p) - k), hi = hypot(p, q), lam = lo;
    for (int it = 0; it < 100; it++) {
        double a = p / (lam + k), b = q / lam;
        double phi = a * a + b * b;
        double dphi = -2 * (a * a / (lam + k) + b * b / lam);
        double psi = 1 / sqrt(phi), dpsi = -0.5 * dphi / (phi * sqrt(phi));
        double next = lam - (psi - 1) / dpsi;
        if (!(next > lam)) break; /* the root, to rounding: the climb stalls */
        if (next > hi) next = hi;
        if (next - lam <= 1e-16 * lam) {
            lam = next;
            break;
        }
        lam = next;
    }
    double xx = p / (lam + k), yy = q / lam, r = hypot(xx, yy);
    *x = xx / r, *y = yy / r;
}

void sclearance_rim_farthest(const double c[3], const double a[3], double R, const double p[3],
                             const double ax[3], double m[3])
{
    double rel[3], d[3], u[3], v[3], t[3];
    vec3_sub(c, p, rel);
    vec3_scale(vec3_dot(rel, ax), ax, t);
    vec3_sub(rel, t, d);
    vec3_cross(a, ax, t);
    if (!(normal_part(t, a, v) > 0)) perpendicular(a, v);
    vec3_cross(v, a, u);
    double sg = vec3_dot(u, ax), x, y;
    circle_max(vec3_dot(d, u), vec3_dot(d, v), R * sg * sg, &x, &y);
    for (int i = 0; i < 3; i++) t[i] = x * u[i] + y * v[i];
    if (!(normal_part(t, a, m) > 0)) vec3_scale(1, u, m);
}

/* Fills k's s and rho from its cj. */
static void locate(const sclearance_pose *pose, sclearance_contact *k, double rv[3])
{
    double rel[3], t[3];
    vec3_sub(k->cj, pose->Pi, rel);
    k->s = vec3_dot(rel, pose->ai);
    vec3_scale(k->s, pose->ai, t);
    vec3_sub(rel, t, rv);
    k->rho = vec3_norm(rv);
}

static void edge_set(sclearance_edge *e, const sclearance_geom *g, const sclearance_contact *k)
{
    e->active = 1;
    e->radial = k->rho - g->Ri;
    e->axial = fabs(k->s) - g->Li / 2;
    for (int i = 0; i < 3; i++) e->p[i] = k->cj[i];
}

/* The centre of end `end` (0: A, 1: B): Pj + sigma (Lj/2) aj. */
static void end_centre(const sclearance_geom *g, const sclearance_pose *pose, int end, double E[3])
{
    double t[3];
    vec3_scale((end == 0 ? -1 : 1) * g->Lj / 2, pose->aj, t);
    vec3_add(pose->Pj, t, E);
}

/* The radial check of the end centred at E, into r; m gets the rim direction of its point. */
static void radial_check(const sclearance_geom *g, const sclearance_pose *pose, const double E[3],
                         double m[3], sclearance_contact *r)
{
    double rv[3];
    sclearance_rim_farthest(E, pose->aj, g->Rj, pose->Pi, pose->ai, m);
    for (int i = 0; i < 3; i++) r->cj[i] = E[i] + g->Rj * m[i];
    locate(pose, r, rv);
    if (r->rho > 0)
        vec3_scale(1 / r->rho, rv, r->n);
    else
        vec3_scale(1, m, r->n); /* not reached: the farthest rim point is >= Rj away */
    r->depth = r->rho - g->Ri;
    for (int i = 0; i < 3; i++) r->ci[i] = r->cj[i] - r->depth * r->n[i];
    r->active = r->depth > 0 && fabs(r->s) <= g->Li / 2;
    r->delta = r->active ? r->depth : 0;
}

/* The axial check of end `end` centred at E, into x; w gets the rim direction of its point.
** m is the radial check's direction, or NULL to compute it only when needed (ai parallel to
** aj), with the same operations. */
static void axial_check(const sclearance_geom *g, const sclearance_pose *pose, int end,
                        const double E[3], const double *m, double w[3], sclearance_contact *x)
{
    double sigma = end == 0 ? -1 : 1, sa[3], u[3], d[3], rv[3];
    vec3_scale(sigma, pose->ai, sa);
    /* w: the unit direction of the deepest rim point (for the beyond flags) */
    if (!(normal_part(sa, pose->aj, w) > SCLR_PARALLEL)) {
        /* ai parallel to aj: all equally deep, take the corner */
        double mm[3];
        if (m == NULL) sclearance_rim_farthest(E, pose->aj, g->Rj, pose->Pi, pose->ai, mm);
        vec3_scale(1, m ? m : mm, w);
    }
    /* the face law (head of sclearance_geom.h): u = sa - (sa.aj) aj, |u| = sin(tilt), as a
    ** double cross product so that it stays in the end plane to rounding near alignment */
    vec3_cross(sa, pose->aj, d);
    vec3_cross(pose->aj, d, u);
    double sm = sqrt(vec3_dot(u, u) + SCLR_FACE_EPS * SCLR_FACE_EPS);
    for (int i = 0; i < 3; i++) x->cj[i] = E[i] + g->Rj * u[i] / sm;
    locate(pose, x, rv);
    vec3_scale(1, sa, x->n);
    vec3_sub(E, pose->Pi, d);
    x->depth = sigma * vec3_dot(d, pose->ai) - g->Li / 2 + g->Rj * sm;
    /* Ci at the foot of Cj on the end wall: on the line of action through Cj, so the moment
    ** and the normal rate are those of any point of that line */
    double foot = sigma * x->s - g->Li / 2;
    for (int i = 0; i < 3; i++) x->ci[i] = x->cj[i] - foot * x->n[i];
    x->active = x->depth > 0;
    x->delta = x->active ? x->depth : 0;
}

int sclearance_detect(const sclearance_geom *g, const sclearance_pose *pose, sclearance_result *out)
{
    out->nactive = 0;
    for (int end = 0; end < 2; end++) {
        double sigma = end == 0 ? -1 : 1, E[3], m[3], w[3], rv[3];
        end_centre(g, pose, end, E);

        /* radial: the rim point farthest from the bearing axis, against the cylinder */
        sclearance_contact *r = &out->c[end == 0 ? SCLEARANCE_RADIAL_A : SCLEARANCE_RADIAL_B];
        radial_check(g, pose, E, m, r);

        /* axial: the rim point farthest along sigma ai, against the end wall on its side */
        sclearance_contact *x = &out->c[end == 0 ? SCLEARANCE_AXIAL_A : SCLEARANCE_AXIAL_B];
        axial_check(g, pose, end, E, m, w, x);

        /* the journal edge against the bearing edge: out of both walls' reach */
        sclearance_edge *e = &out->edge[end];
        *e = (sclearance_edge){0};
        if (r->rho > g->Ri && fabs(r->s) > g->Li / 2)
            edge_set(e, g, r);
        else if (x->rho > g->Ri && fabs(x->s) > g->Li / 2)
            edge_set(e, g, x);

        /* the rim point farthest towards the other end wall: the opposite of x's on the rim */
        sclearance_beyond *b = &out->beyond[end];
        for (int i = 0; i < 3; i++) b->p[i] = E[i] - g->Rj * w[i];
        double rel[3], t[3];
        vec3_sub(b->p, pose->Pi, rel);
        b->s = vec3_dot(rel, pose->ai);
        vec3_scale(b->s, pose->ai, t);
        vec3_sub(rel, t, rv);
        b->rho = vec3_norm(rv);
        b->past = -sigma * b->s - g->Li / 2;
        b->active = b->past > 0;
        out->nactive += r->active + x->active;
    }
    return out->nactive;
}

void sclearance_detect_one(const sclearance_geom *g, const sclearance_pose *pose, int slot,
                           sclearance_contact *out)
{
    int end = slot == SCLEARANCE_RADIAL_A || slot == SCLEARANCE_AXIAL_A ? 0 : 1;
    double E[3], m[3], w[3];
    end_centre(g, pose, end, E);
    if (slot <= SCLEARANCE_RADIAL_B)
        radial_check(g, pose, E, m, out);
    else
        axial_check(g, pose, end, E, NULL, w, out);
}

void sclearance_kinematics(const sclearance_contact *k, const sclearance_body *journal,
                           const sclearance_body *bearing, sclearance_rates *out)
{
    double vj[3], vi[3], t[3];
    vec3_sub(k->cj, journal->r, out->arm_j);
    vec3_sub(k->ci, bearing->r, out->arm_i);
    vec3_cross(journal->w, out->arm_j, t);
    vec3_add(journal->v, t, vj);
    vec3_cross(bearing->w, out->arm_i, t);
    vec3_add(bearing->v, t, vi);
    vec3_sub(vj, vi, out->vrel);
    out->delta_dot = vec3_dot(out->vrel, k->n);
    vec3_scale(out->delta_dot, k->n, t);
    vec3_sub(out->vrel, t, out->vt);
}

/* Whether a is a finite vector of unit length; else writes the reason. */
static mech_status check_axis(const double a[3], const char *what, mech_error *err)
{
    double len = vec3_norm(a);
    if (!vec3_finite(a) || !(fabs(len - 1) <= SCLR_UNIT_TOL))
        return mech_error_set(err, MECH_ERR_ARG,
                              "spatial clearance: the %s (%g, %g, %g) has length %g, not 1 "
                              "(within %g)",
                              what, a[0], a[1], a[2], len, SCLR_UNIT_TOL);
    return MECH_OK;
}

static mech_status check_point(const double p[3], const char *what, mech_error *err)
{
    if (!vec3_finite(p))
        return mech_error_set(err, MECH_ERR_ARG,
                              "spatial clearance: the %s (%g, %g, %g) is not finite", what, p[0],
                              p[1], p[2]);
    return MECH_OK;
}

mech_status sclearance_check(const sclearance_geom *g, const sclearance_pose *pose, mech_error *err)
{
    static const char *names[4] = {"bearing radius Ri", "bearing length Li", "journal radius Rj",
                                   "journal length Lj"};
    const double val[4] = {g->Ri, g->Li, g->Rj, g->Lj};
    for (int i = 0; i < 4; i++)
        if (!(val[i] > 0) || !isfinite(val[i]))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "spatial clearance: the %s = %g must be positive and finite",
                                  names[i], val[i]);
    if (!(g->Rj < g->Ri))
        return mech_error_set(err, MECH_ERR_ARG,
                              "spatial clearance: the journal radius Rj = %g must be less than "
                              "the bearing radius Ri = %g",
                              g->Rj, g->Ri);
    if (!(g->Lj < g->Li))
        return mech_error_set(err, MECH_ERR_ARG,
                              "spatial clearance: the journal length Lj = %g must be less than "
                              "the bearing length Li = %g",
                              g->Lj, g->Li);
    if (!pose) return MECH_OK;
    mech_status st;
    if ((st = check_point(pose->Pi, "bearing mid-point Pi", err)) != MECH_OK) return st;
    if ((st = check_point(pose->Pj, "journal mid-point Pj", err)) != MECH_OK) return st;
    if ((st = check_axis(pose->ai, "bearing axis ai", err)) != MECH_OK) return st;
    return check_axis(pose->aj, "journal axis aj", err);
}

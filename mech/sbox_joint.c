/* SPDX-License-Identifier: MIT */
/*
** A spatial prismatic joint with clearance ([Wang et al. 2025]): no constraint equation; a box
** slider of body b in the rectangular channel of body a, held by contacts of its corners
** against the channel's four walls (sbox_contact.c, on the geometry of sbox_geom.h).  This file
** checks the definition, adds the contacts, gives the clearance type entries a spatial joint
** needs (where the slider must be, whether it is centred, how fast it crosses the clearance,
** its description and channels) and stops a run whose slider went through a wall.  The ideal
** joint for an ideal start is the spatial prismatic joint itself: the slider's centre on the
** channel's centre line, its sides along the channel's.
**
** The contacts, per-corner model: contact 8 k + c is corner c against wall k, named
** "<joint>.<wall>.c<c>": the walls xpos, xneg, zpos, zneg (x = +Wx, -Wx, z = +Wz, -Wz of the
** guide's frame), the corners c0 .. c7 by the bits of c (bit 0: + along X, bit 1: + along the
** travel Y, bit 2: + along Z, each clear: -).  The area models (sbox_law.h): contact k is the
** slider against wall k, "<joint>.<wall>".
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clearance.h"
#include "contact.h"
#include "kind.h"
#include "registry.h"
#include "sbox_geom.h"
#include "spatial_frame.h"
#include "vec3.h"

#define NCORNERS  8
#define NCONTACTS (SBOX_NFACES * NCORNERS)

const char *const sbox_wall_names[SBOX_NFACES] = {"xpos", "xneg", "zpos", "zneg"};

static const char *const stiffness_names[] = {"corners", "area", "patch", "constant"};

static mech_status check(const joint *j, const mech_sbox_def *d, mech_error *err)
{
    if (!(isfinite(d->cx) && d->cx > 0 && isfinite(d->cz) && d->cz > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "prismatic '%s': the clearances on each side must be > 0 (got x "
                              "%g m, z %g m)",
                              j->name, d->cx, d->cz);
    if (!(isfinite(d->length) && d->length > 0 && isfinite(d->width) && d->width > 0 &&
          isfinite(d->height) && d->height > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "prismatic '%s': the slider's sizes must be > 0 (got length %g m, "
                              "width %g m, height %g m)",
                              j->name, d->length, d->width, d->height);
    if (d->stiffness < MECH_SBOX_CORNERS || d->stiffness > MECH_SBOX_CONSTANT)
        return mech_error_set(err, MECH_ERR_ARG, "prismatic '%s': unknown stiffness model %d",
                              j->name, (int)d->stiffness);
    mech_error lerr;
    if (d->stiffness == MECH_SBOX_CORNERS && mech_normal_check(&d->normal_law, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "prismatic '%s': %s law: %s", j->name,
                              mech_normal_name(d->normal_law.type), lerr.msg);
    if (d->stiffness != MECH_SBOX_CORNERS) {
        const double E[2] = {d->E_guide, d->E_slider}, nu[2] = {d->nu_guide, d->nu_slider};
        for (int i = 0; i < 2; i++)
            if (!(isfinite(E[i]) && E[i] > 0 && nu[i] > -1 && nu[i] < 0.5))
                return mech_error_set(err, MECH_ERR_ARG,
                                      "prismatic '%s': the %s stiffness needs the materials, E > "
                                      "0 and -1 < nu < 0.5 (got the guide's E %g Pa, nu %g; the "
                                      "slider's E %g Pa, nu %g)",
                                      j->name, stiffness_names[d->stiffness], E[0], nu[0], E[1],
                                      nu[1]);
        if (d->damped && !(d->restitution > 0 && d->restitution <= 1))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "prismatic '%s': the restitution of the damped %s law must be "
                                  "in (0, 1] (got %g)",
                                  j->name, stiffness_names[d->stiffness], d->restitution);
        if (d->damped && !(isfinite(d->v_min) && d->v_min > 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "prismatic '%s': v_min must be > 0 (got %g m/s)", j->name,
                                  d->v_min);
    }
    if (mech_friction_check(&d->friction, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "prismatic '%s': %s friction: %s", j->name,
                              mech_friction_name(d->friction.type), lerr.msg);
    return MECH_OK;
}

mech_status sbox_attach(mech_system *sys, int jid, const mech_sbox_def *d, mech_error *err)
{
    joint *j = &sys->joints[jid];
    mech_status st = check(j, d, err);
    if (st) return st;
    int first = sys->ncontacts, corners = d->stiffness == MECH_SBOX_CORNERS;
    int n = corners ? NCONTACTS : SBOX_NFACES;
    for (int i = 0; i < n; i++)
        if (!system_grow((void **)&sys->contacts, &sys->cap_contacts, first + i, sizeof(contact)))
            return mech_error_set(err, MECH_ERR_NOMEM, "prismatic '%s': out of memory", j->name);
    double *y = system_initial_state(sys);
    if (y == NULL)
        return mech_error_set(err, MECH_ERR_NOMEM, "prismatic '%s': out of memory", j->name);
    joint_box *b = &j->box;
    memset(b, 0, sizeof *b);
    b->hx = d->width / 2;
    b->hy = d->length / 2;
    b->hz = d->height / 2;
    b->Wx = b->hx + d->cx;
    b->Wz = b->hz + d->cz;
    b->model = d->stiffness;
    b->E[0] = d->E_guide, b->nu[0] = d->nu_guide;
    b->E[1] = d->E_slider, b->nu[1] = d->nu_slider;
    b->damped = d->damped != 0;
    b->e = d->restitution;
    b->v_min = d->v_min;
    for (int k = 0; k < SBOX_NFACES; k++) b->pen[k] = -(k < SBOX_ZPOS ? d->cx : d->cz);
    j->gap = fmin(d->cx, d->cz);
    j->radius = sqrt(b->Wx * b->Wx + b->hy * b->hy + b->Wz * b->Wz); /* the run's length scale */
    j->contact0 = first;
    j->ncontact = n;
    mech_clearance_def laws;
    memset(&laws, 0, sizeof laws);
    laws.normal_law = d->normal_law;
    laws.friction = d->friction;
    for (int k = 0; k < SBOX_NFACES; k++) {
        if (!corners) { /* one contact per wall */
            contact *ct = clearance_new_contact(sys, jid, &laws, sbox_wall_names[k]);
            ct->shape = SHAPE_BOX_WALL;
            ct->slot = k;
            continue;
        }
        for (int c = 0; c < NCORNERS; c++) {
            char suffix[16];
            snprintf(suffix, sizeof suffix, "%s.c%d", sbox_wall_names[k], c);
            contact *ct = clearance_new_contact(sys, jid, &laws, suffix);
            ct->shape = SHAPE_BOX_CORNER;
            ct->slot = NCORNERS * k + c;
        }
    }
    st = clearance_check_state(sys, y, "at the start", err);
    mech_free(y);
    if (st) sys->ncontacts = first;
    return st;
}

/* "+x -y +z": corner c's sides. */
static const char *corner_sides(int c)
{
    static const char *const sides[NCORNERS] = {"-x -y -z", "+x -y -z", "-x +y -z", "+x +y -z",
                                                "-x -y +z", "+x -y +z", "-x +y +z", "+x +y +z"};
    return sides[c & 7];
}

static mech_status misplaced(const mech_system *sys, const joint *j, int i, double g,
                             const char *when, mech_error *err)
{
    const contact *c = &sys->contacts[j->contact0 + i];
    const joint_box *b = &j->box;
    if (c->shape == SHAPE_BOX_WALL)
        return mech_error_set(err, MECH_ERR_ARG,
                              "prismatic '%s': the slider is %g m into the channel's wall %s %s "
                              "(channel %g m wide, %g m high; slider %g m long, %g m wide, %g m "
                              "high): place the slider inside the channel",
                              j->name, -g, sbox_wall_names[c->slot], when, 2 * b->Wx, 2 * b->Wz,
                              2 * b->hy, 2 * b->hx, 2 * b->hz);
    int k = c->slot / NCORNERS, corner = c->slot % NCORNERS;
    return mech_error_set(err, MECH_ERR_ARG,
                          "prismatic '%s': the slider's corner c%d (%s) is %g m into the "
                          "channel's wall %s %s (channel %g m wide, %g m high; slider %g m long, "
                          "%g m wide, %g m high): place the slider inside the channel",
                          j->name, corner, corner_sides(corner), -g, sbox_wall_names[k], when,
                          2 * b->Wx, 2 * b->Wz, 2 * b->hy, 2 * b->hx, 2 * b->hz);
}

/* The slider's corner c where it would be, aligned with the channel about its centre P. */
static void aligned_corner(const sbox_geom *g, const sbox_pose *p, int c, double out[3])
{
    const double u[3] = {c & 1 ? g->hx : -g->hx, c & 2 ? g->hy : -g->hy, c & 4 ? g->hz : -g->hz};
    for (int i = 0; i < 3; i++) out[i] = p->P[i] + p->X[i] * u[0] + p->Y[i] * u[1] + p->Z[i] * u[2];
}

/* Centred: the slider's centre within tol of the channel's centre line, and each corner within
** tol of its place aligned with the channel. */
static int centred(const mech_system *sys, const joint *j, const double *q, double tol)
{
    sbox_geom g;
    sbox_pose p;
    sbox_body s, gd;
    sbox_pose_at(sys, j, q, NULL, &g, &p, &s, &gd);
    double d[3];
    vec3_sub(p.P, p.O, d);
    if (!(fabs(vec3_dot(d, p.X)) <= tol && fabs(vec3_dot(d, p.Z)) <= tol)) return 0;
    for (int c = 0; c < NCORNERS; c++) {
        double pc[3], a[3], e[3];
        sbox_corner(&g, &p, c, pc);
        aligned_corner(&g, &p, c, a);
        vec3_sub(pc, a, e);
        if (!(vec3_norm(e) <= tol)) return 0;
    }
    return 1;
}

/* The speed across the clearance: the largest speed of a slider's corner along X or Z relative
** to the guide's material point there. */
static double speed(const mech_system *sys, const joint *j, const double *q, const double *v)
{
    sbox_geom g;
    sbox_pose p;
    sbox_body s, gd;
    sbox_pose_at(sys, j, q, v, &g, &p, &s, &gd);
    double fastest = 0;
    for (int c = 0; c < NCORNERS; c++) {
        double pc[3];
        sbox_rates r;
        sbox_corner(&g, &p, c, pc);
        sbox_point_kinematics(pc, pc, p.X, &s, &gd, &r);
        fastest = fmax(fastest, fmax(fabs(vec3_dot(r.vrel, p.X)), fabs(vec3_dot(r.vrel, p.Z))));
    }
    return fastest;
}

static void describe(sbuf *b, const mech_system *sys, const joint *j)
{
    const joint_box *x = &j->box;
    const contact *c = &sys->contacts[j->contact0];
    sb_printf(b,
              ", clearance: channel %.10g m wide (x), %.10g m high (z); slider %.10g m long, "
              "%.10g m wide, %.10g m high; ",
              2 * x->Wx, 2 * x->Wz, 2 * x->hy, 2 * x->hx, 2 * x->hz);
    if (x->model == MECH_SBOX_CORNERS) {
        sb_printf(b, "contacts at the slider's corners");
        contact_describe_laws(b, c);
        return;
    }
    sb_printf(b, "a contact per wall, stiffness %s", stiffness_names[x->model]);
    if (x->model == MECH_SBOX_AREA) sb_printf(b, " (by the overlap's mode)");
    if (x->model == MECH_SBOX_PATCH) sb_printf(b, " (the projected patch)");
    if (x->model == MECH_SBOX_CONSTANT)
        sb_printf(b, " (flat punch, 2d = %.10g m on the x walls, %.10g m on the z walls)",
                  2 * x->hz, 2 * x->hx);
    sb_printf(b, "; guide E %.10g Pa nu %.10g, slider E %.10g Pa nu %.10g; linear", x->E[0],
              x->nu[0], x->E[1], x->nu[1]);
    if (x->damped)
        sb_printf(b, ", damped (Lankarani-Nikravesh) restitution %.10g v_min %.10g", x->e,
                  x->v_min);
    else
        sb_printf(b, ", elastic");
    contact_describe_friction(b, c);
}

/* ---- channels ------------------------------------------------------------------------------ */

/* The slider's centre in the guide's frame and its rotation there, per wall the mode, the
** deepest penetration, the forces, the area and the stiffness, the contacts' totals, then the
** resultant of the contacts on the slider with the ideal joint's names and layout (react:
** force and moment about the slider's anchor in world axes, then in a's joint frame). */
enum {
    SB_X,
    SB_Y,
    SB_Z,
    SB_ROLL,
    SB_PITCH,
    SB_YAW,
    SB_WALL, /* then 6 per wall */
    SB_IMPACTS = SB_WALL + 6 * SBOX_NFACES,
    SB_ACTIVE,
    SB_FX,
    SB_FY,
    SB_FZ,
    SB_F,
    SB_MX,
    SB_MY,
    SB_MZ,
    SB_M,
    SB_FXJ /* then fy_j .. mz_j */
};
enum { W_MODE, W_PEN, W_FN, W_FT, W_AREA, W_K };

#define WALL_Q(w)                                                                                  \
    {w "_mode", "-"}, {w "_penetration", "m"}, {w "_fn", "N"}, {w "_ft", "N"}, {w "_area", "m^2"}, \
    {                                                                                              \
        w "_stiffness", "N/m"                                                                      \
    }
static const quantity slider_q[] = {
    {"x", "m"},       {"y", "m"},      {"z", "m"},     {"roll", "rad"}, {"pitch", "rad"},
    {"yaw", "rad"},   WALL_Q("xpos"),  WALL_Q("xneg"), WALL_Q("zpos"),  WALL_Q("zneg"),
    {"impacts", "-"}, {"active", "-"}, {"fx", "N"},    {"fy", "N"},     {"fz", "N"},
    {"f", "N"},       {"mx", "N m"},   {"my", "N m"},  {"mz", "N m"},   {"m", "N m"},
    {"fx_j", "N"},    {"fy_j", "N"},   {"fz_j", "N"},  {"mx_j", "N m"}, {"my_j", "N m"},
    {"mz_j", "N m"},  {NULL, NULL}};
#undef WALL_Q

static double slider_value(const mech_system *sys, const joint *j, int qn)
{
    if (qn >= SB_FX) {
        if (qn >= SB_FXJ) return j->react[6 + qn - SB_FXJ];
        int m = qn >= SB_MX, k = qn - (m ? SB_MX : SB_FX);
        const double *r = j->react + 3 * m;
        return k == 3 ? sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) : r[k];
    }
    if (qn == SB_IMPACTS || qn == SB_ACTIVE) {
        double sum = 0;
        for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
            const contact *c = &sys->contacts[k];
            sum += qn == SB_IMPACTS ? (double)c->impacts : c->active;
        }
        return sum;
    }
    if (qn >= SB_WALL) {
        const joint_box *b = &j->box;
        int k = (qn - SB_WALL) / 6;
        switch ((qn - SB_WALL) % 6) {
        case W_MODE: return b->mode[k];
        case W_PEN: return b->pen[k];
        case W_FN: return b->fn[k];
        case W_FT: return b->ft[k];
        case W_AREA: return b->area[k];
        case W_K: return b->k[k];
        }
        return NAN;
    }
    sbox_geom g;
    sbox_pose p;
    sbox_body s, gd;
    sbox_pose_at(sys, j, sys->q, NULL, &g, &p, &s, &gd);
    if (qn <= SB_Z) {
        double d[3];
        vec3_sub(p.P, p.O, d);
        return vec3_dot(d, qn == SB_X ? p.X : qn == SB_Y ? p.Y : p.Z);
    }
    /* the relative rotation G^T R (G's columns X, Y, Z; R's the slider's axes xs, ys, zs) as
    ** Rz(yaw) Rx(pitch) Ry(roll): its last row is (-cos(pitch) sin(roll), sin(pitch),
    ** cos(pitch) cos(roll)), its middle column (-sin(yaw) cos(pitch), cos(yaw) cos(pitch), ...) */
    double xs[3], ys[3], zs[3];
    mat3_col(p.R, 0, xs);
    mat3_col(p.R, 1, ys);
    mat3_col(p.R, 2, zs);
    double r20 = vec3_dot(p.Z, xs), r21 = vec3_dot(p.Z, ys), r22 = vec3_dot(p.Z, zs);
    switch (qn) {
    case SB_ROLL: return atan2(-r20, r22);
    case SB_PITCH: return atan2(r21, hypot(r20, r22));
    case SB_YAW: return atan2(-vec3_dot(p.X, ys), vec3_dot(p.Y, ys));
    }
    return NAN;
}

/* ---- a slider through a wall ----------------------------------------------------------------- */

int sbox_fault(const mech_system *sys, const joint *j, double t, const double *y, char *why,
               size_t size)
{
    sbox_geom g;
    sbox_pose p;
    sbox_body s, gd;
    sbox_pose_at(sys, j, y, NULL, &g, &p, &s, &gd);
    double gaps[SBOX_NFACES][NCORNERS];
    for (int k = 0; k < SBOX_NFACES; k++) sbox_face_gaps(&g, &p, k, NULL, gaps[k]);
    /* a contact that sinks here without having begun: the step ends past an onset the
    ** integrator is about to locate, where it will be cut; the state is not the motion's */
    for (int i = 0; i < j->ncontact; i++) {
        const contact *c = &sys->contacts[j->contact0 + i];
        int k = c->shape == SHAPE_BOX_WALL ? c->slot : c->slot / NCORNERS, sinks = 0;
        for (int corner = 0; corner < NCORNERS; corner++)
            if (c->shape == SHAPE_BOX_WALL || corner == c->slot % NCORNERS)
                sinks |= gaps[k][corner] < 0;
        if (sinks && !c->active) return 0;
    }
    for (int k = 0; k < SBOX_NFACES; k++) {
        int nin = 0;
        double centre = 0; /* the centre's gap: the mean of the corners' */
        for (int c = 0; c < NCORNERS; c++) {
            nin += gaps[k][c] < 0;
            centre += gaps[k][c] / NCORNERS;
        }
        if (nin <= 4) continue;
        snprintf(why, size,
                 "prismatic '%s': the slider went through the channel's wall %s at t = %.9g s: "
                 "%d of its corners are past it, its centre %.3g m beyond (half the slider's "
                 "size across the wall is %.3g m): the contact law is far too soft for the load",
                 j->name, sbox_wall_names[k], t, nin, -centre, k < SBOX_ZPOS ? g.hx : g.hz);
        return 1;
    }
    return 0;
}

const clearance_type sbox_slider = {
    .part = "slider",
    .misplaced = misplaced,
    .ideal = NULL, /* the spatial prismatic joint's equations */
    .centred = centred,
    .speed = speed,
    .describe = describe,
    .own_laws = 1,
    .quantities = slider_q,
    .force_q = SB_FX,
    .value = slider_value,
    .list_more = clearance_list_contacts,
    .other = NULL, /* its contacts are named "<joint>.xpos.c0" ... themselves */
};

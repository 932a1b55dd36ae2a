/* SPDX-License-Identifier: MIT */
/*
** Systems and their entities: creation, validation, names, finalize.
*/
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_system.h"
#include "system_impl.h"

#define DEFAULT_BAUMGARTE 5.0

static const char *const joint_type_names[] = {"revolute", "prismatic", "fixed"};
static const char *const force_type_names[] = {"spring", "rotational spring", "load"};
static const char *const driver_type_names[] = {"body angle", "joint angle", "joint distance"};

/* ---- defaults ------------------------------------------------------------------------ */

mech_body_def mech_body_default(void)
{
    mech_body_def d;
    memset(&d, 0, sizeof d);
    return d;
}

mech_spring_def mech_spring_default(void)
{
    mech_spring_def d;
    memset(&d, 0, sizeof d);
    d.length0 = NAN;
    return d;
}

mech_rot_spring_def mech_rot_spring_default(void)
{
    mech_rot_spring_def d;
    memset(&d, 0, sizeof d);
    d.angle0 = NAN;
    return d;
}

mech_load_def mech_load_default(void)
{
    mech_load_def d;
    memset(&d, 0, sizeof d);
    return d;
}

mech_joint_def mech_joint_default(void)
{
    mech_joint_def d;
    memset(&d, 0, sizeof d);
    d.axis[0] = 1;
    d.angle0 = NAN;
    d.alpha = d.beta = NAN;
    d.clearance.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
    d.clearance.friction = mech_friction_default(MECH_FRICTION_NONE);
    return d;
}

mech_driver_def mech_driver_default(void)
{
    mech_driver_def d;
    memset(&d, 0, sizeof d);
    d.value0 = NAN;
    d.alpha = d.beta = NAN;
    return d;
}

/* ---- helpers ------------------------------------------------------------------------- */

/* Grows an entity array by one; returns 0 on allocation failure. */
int system_grow(void **items, int *cap, int count, size_t size)
{
    if (count < *cap) return 1;
    int ncap = *cap ? 2 * *cap : 8;
    void *p = mech_realloc(*items, (size_t)ncap * size);
    if (p == NULL) return 0;
    *items = p;
    *cap = ncap;
    return 1;
}

static int finite2(const double v[2])
{
    return isfinite(v[0]) && isfinite(v[1]);
}

/* The entity with this name among bodies, forces, joints and drivers. */
mech_kind mech_system_find(const mech_system *sys, const char *name, int *id)
{
    if (name == NULL) return MECH_KIND_NONE;
    int dummy;
    if (id == NULL) id = &dummy;
    if (strcmp(name, "system") == 0) {
        *id = 0;
        return MECH_KIND_SYSTEM;
    }
    for (int i = 0; i < sys->nbodies; i++)
        if (strcmp(sys->bodies[i].name, name) == 0) return *id = i, MECH_KIND_BODY;
    for (int i = 0; i < sys->npoints; i++)
        if (strcmp(sys->points[i].full, name) == 0) return *id = i, MECH_KIND_POINT;
    for (int i = 0; i < sys->nforces; i++)
        if (strcmp(sys->forces[i].name, name) == 0) return *id = i, MECH_KIND_FORCE;
    for (int i = 0; i < sys->njoints; i++)
        if (strcmp(sys->joints[i].name, name) == 0) return *id = i, MECH_KIND_JOINT;
    for (int i = 0; i < sys->ndrivers; i++)
        if (strcmp(sys->drivers[i].name, name) == 0) return *id = i, MECH_KIND_DRIVER;
    for (int i = 0; i < sys->ncontacts; i++)
        if (strcmp(sys->contacts[i].name, name) == 0) return *id = i, MECH_KIND_CONTACT;
    for (int i = 0; i < sys->nfes; i++)
        if (strcmp(sys->fes[i].name, name) == 0) return *id = i, MECH_KIND_FE;
    return MECH_KIND_NONE;
}

/*
** Checks a requested name (or makes one from `base` and a counter when it is NULL or
** empty) and copies it into out.  Names are unique among bodies, forces, joints and
** drivers, and contain no '.', which separates entity and quantity in channel names, and
** no control character (a newline would break the CSV header and the descriptions).
*/
/* Position (from 1) of the first control character of s, 0 if none. */
static size_t control_at(const char *s)
{
    for (size_t i = 0; s[i]; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) return i + 1;
    return 0;
}

mech_status system_take_name(mech_system *sys, const char *what, const char *requested,
                             const char *base, char out[MECH_NAME_MAX], mech_error *err)
{
    if (requested == NULL || requested[0] == '\0') {
        for (int n = 1;; n++) {
            snprintf(out, MECH_NAME_MAX, "%s%d", base, n);
            if (mech_system_find(sys, out, NULL) == MECH_KIND_NONE) return MECH_OK;
        }
    }
    size_t len = strlen(requested);
    if (len >= MECH_NAME_MAX)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%.20s...': name is longer than %d characters",
                              what, requested, MECH_NAME_MAX - 1);
    size_t bad = control_at(requested);
    if (bad)
        return mech_error_set(err, MECH_ERR_ARG,
                              "%s: name must not contain control characters (byte 0x%02x at "
                              "position %zu): names head CSV columns and lines of text",
                              what, (unsigned char)requested[bad - 1], bad);
    if (strchr(requested, '.'))
        return mech_error_set(err, MECH_ERR_ARG,
                              "%s '%s': name must not contain '.' (it separates entity and "
                              "quantity in channel names)",
                              what, requested);
    if (mech_system_find(sys, requested, NULL) != MECH_KIND_NONE)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': the name is already used", what,
                              requested);
    memcpy(out, requested, len + 1);
    return MECH_OK;
}

mech_status system_check_body(const mech_system *sys, const char *what, const char *name,
                              const char *role, int b, mech_error *err)
{
    if (b < 0 || b >= sys->nbodies)
        return mech_error_set(err, MECH_ERR_NOTFOUND, "%s '%s': %s is not a body of this system",
                              what, name, role);
    return MECH_OK;
}

void system_changed(mech_system *sys)
{
    sys->final = 0;
}

/* Writes the positions and velocities as given into y (2 ncoord values). */
static void fill_initial_state(const mech_system *sys, double *y)
{
    int n = mech_system_ncoord(sys);
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        memcpy(y + bd->dof, bd->q0, (size_t)bd->nc * sizeof(double));
        memcpy(y + n + bd->dof, bd->v0, (size_t)bd->nc * sizeof(double));
    }
}

int system_coord_body(const mech_system *sys, int i)
{
    /* dof grows with the body id (the ground, -1, first) */
    int lo = 1, hi = sys->nbodies - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (sys->bodies[mid].dof <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

mech_status system_node_point(const mech_system *sys, const char *what, const char *name, int b,
                              double s[2], mech_error *err)
{
    const body *bd = &sys->bodies[b];
    if (bd->fe < 0) return MECH_OK;
    /* a node is a point: an offset is allowed only at round-off of the mesh's coordinates */
    double scale = 0;
    const fe_body *f = &sys->fes[bd->fe];
    for (int k = 0; k < 2 * f->mesh.nnodes; k++) scale = fmax(scale, fabs(f->mesh.xy[k]));
    if (hypot(s[0], s[1]) > 1e-9 * fmax(scale, 1e-3))
        return mech_error_set(err, MECH_ERR_ARG,
                              "%s '%s': node '%s' is a point; attach at the node itself (the "
                              "offset is (%g, %g) m)",
                              what, name, bd->name, s[0], s[1]);
    s[0] = s[1] = 0;
    return MECH_OK;
}

double *system_initial_state(const mech_system *sys)
{
    int n = mech_system_ncoord(sys);
    double *y = mech_malloc(sizeof(double) * (size_t)(n ? 2 * n : 1));
    if (y) fill_initial_state(sys, y);
    return y;
}

/* ---- system -------------------------------------------------------------------------- */

mech_status mech_system_create(mech_system **out, const double gravity[2], mech_error *err)
{
    *out = NULL;
    double g[2] = {0, 0};
    if (gravity) {
        if (!finite2(gravity))
            return mech_error_set(err, MECH_ERR_ARG, "system: gravity must be finite");
        g[0] = gravity[0];
        g[1] = gravity[1];
    }
    mech_system *sys = mech_calloc(1, sizeof *sys);
    if (sys == NULL) return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
    sys->gravity[0] = g[0];
    sys->gravity[1] = g[1];
    sys->alpha = sys->beta = DEFAULT_BAUMGARTE;
    sys->assemble = 1;
    if (!system_grow((void **)&sys->bodies, &sys->cap_bodies, 0, sizeof(body))) {
        mech_free(sys);
        return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
    }
    body *ground = &sys->bodies[0];
    memset(ground, 0, sizeof *ground);
    strcpy(ground->name, "ground");
    ground->dof = -1;
    ground->nc = 3;
    ground->fe = ground->node = -1;
    sys->nbodies = 1;
    *out = sys;
    return MECH_OK;
}

static void free_workspace(mech_system *sys)
{
    mech_free(sys->minv);
    mech_free(sys->zcoord);
    mech_free(sys->zrow);
    mech_free(sys->zcoef);
    mech_free(sys->zw);
    mech_free(sys->minv_aug);
    sys->zrow = NULL;
    sys->zcoef = sys->zw = sys->minv_aug = NULL;
    sys->fast = 0;
    mech_free(sys->rows);
    mech_free(sys->cr);
    mech_free(sys->rhs);
    mech_free(sys->Q);
    mech_free(sys->qdd);
    mech_free(sys->K);
    mech_free(sys->pairs);
    sys->pairs = NULL;
    sys->npairs = 0;
    mech_free(sys->sol);
    mech_free(sys->piv);
    mech_free(sys->y0);
    mech_free(sys->ydot);
    sys->ydot = NULL;
    mech_free(sys->cs);
    sys->cs = NULL;
    sys->cs_q = NULL;
    sys->minv = sys->Q = sys->qdd = sys->K = sys->sol = sys->rhs = sys->y0 = NULL;
    sys->q = sys->v = sys->y_eval = NULL; /* the last evaluation may have been of y0 */
    sys->zcoord = sys->piv = NULL;
    sys->rows = NULL;
    sys->cr = NULL;
}

void mech_system_destroy(mech_system *sys)
{
    if (sys == NULL) return;
    free_workspace(sys);
    mech_free(sys->bodies);
    mech_free(sys->points);
    mech_free(sys->forces);
    mech_free(sys->joints);
    mech_free(sys->drivers);
    mech_free(sys->contacts);
    fe_free_all(sys);
    mech_free(sys);
}

mech_status mech_system_set_baumgarte(mech_system *sys, double alpha, double beta, mech_error *err)
{
    if (!(isfinite(alpha) && alpha >= 0 && isfinite(beta) && beta >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "system: Baumgarte alpha and beta must be finite and >= 0 "
                              "(got %g, %g)",
                              alpha, beta);
    sys->alpha = alpha;
    sys->beta = beta;
    system_changed(sys);
    return MECH_OK;
}

void mech_system_set_assembly(mech_system *sys, int on)
{
    sys->assemble = on != 0;
    system_changed(sys);
}

mech_status mech_system_set_start(mech_system *sys, mech_start start, mech_error *err)
{
    if (start != MECH_START_AUTO && start != MECH_START_IDEAL && start != MECH_START_AS_GIVEN)
        return mech_error_set(err, MECH_ERR_ARG, "system: unknown start %d", (int)start);
    sys->start = start;
    system_changed(sys);
    return MECH_OK;
}

/* A joint with clearance placed within this fraction of its clearance of the centre was
** centred, up to the rounding of its anchors; farther, it was placed there on purpose. */
#define CENTRED_FRACTION 1e-3

/* The start of MECH_START_AUTO's rule with the positions as given in q. */
static mech_start resolve_start(const mech_system *sys, const double *q)
{
    if (sys->start != MECH_START_AUTO) return sys->start;
    int clearance = 0;
    for (int i = 0; i < sys->njoints; i++) clearance |= sys->joints[i].enforce == MECH_CLEARANCE;
    if (!clearance) return MECH_START_AS_GIVEN;
    for (int b = 1; b < sys->nbodies; b++)
        for (int k = 0; k < sys->bodies[b].nc; k++)
            if (sys->bodies[b].v0[k] != 0) return MECH_START_AS_GIVEN;
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->enforce == MECH_CLEARANCE &&
            !clearance_centred(sys, j, q, CENTRED_FRACTION * j->gap))
            return MECH_START_AS_GIVEN;
    }
    return MECH_START_IDEAL;
}

mech_start mech_system_start(const mech_system *sys)
{
    if (sys->final) return sys->start_used;
    if (sys->start != MECH_START_AUTO) return sys->start;
    double *y = system_initial_state(sys);
    if (y == NULL) return MECH_START_AS_GIVEN; /* out of memory: the finalize will say so */
    mech_start st = resolve_start(sys, y);
    mech_free(y);
    return st;
}

int mech_system_start_note(const mech_system *sys, char *buf, size_t size)
{
    if (size) snprintf(buf, size, "%s", sys->final ? sys->start_note : "");
    return sys->final && sys->start_note[0] != '\0';
}

/* After the assembly of y0: the joint with clearance that starts fastest across its
** clearance beyond V sqrt(2 c / L) (mech_system_start_note), noted in sys->start_note. */
static void note_start(mech_system *sys)
{
    const double *q = sys->y0, *v = sys->y0 + sys->ncoord;
    sys->start_note[0] = '\0';
    double V = 0, L = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        double pose[3], vel[3];
        body_pose(sys, b, q, v, pose, vel);
        V = fmax(V, hypot(vel[0], vel[1]));
    }
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        double p[2], pv[2];
        body_point(sys, j->a, j->pa, q, v, p, pv);
        V = fmax(V, hypot(pv[0], pv[1]));
        body_point(sys, j->b, j->pb, q, v, p, pv);
        V = fmax(V, hypot(pv[0], pv[1]));
        L = fmax(L, fmax(hypot(j->pa[0], j->pa[1]), hypot(j->pb[0], j->pb[1])));
    }
    double worst = 0;
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->enforce != MECH_CLEARANCE) continue;
        double speed = clearance_speed(sys, j, q, v);
        double limit = V * sqrt(2 * j->gap / fmax(L, j->gap));
        if (!(speed > limit) || !(speed / limit > worst)) continue;
        worst = speed / limit;
        snprintf(sys->start_note, sizeof sys->start_note,
                 "%s '%s' starts with its %s moving at %.3g m/s across its clearance of %.3g m, "
                 "while the mechanism's fastest point moves at %.3g m/s: the first impact comes "
                 "from the start (above %.3g m/s, what the mechanism itself gives it across the "
                 "clearance)",
                 mech_joint_type_name(j->type), j->name,
                 j->type == MECH_REVOLUTE ? "journal" : "slider", speed, j->gap, V, limit);
    }
}

int mech_system_is_final(const mech_system *sys)
{
    return sys->final;
}

int mech_system_count(const mech_system *sys, mech_kind kind)
{
    switch (kind) {
    case MECH_KIND_BODY: return sys->nbodies;
    case MECH_KIND_POINT: return sys->npoints;
    case MECH_KIND_FORCE: return sys->nforces;
    case MECH_KIND_JOINT: return sys->njoints;
    case MECH_KIND_DRIVER: return sys->ndrivers;
    case MECH_KIND_CONTACT: return sys->ncontacts;
    case MECH_KIND_FE: return sys->nfes;
    case MECH_KIND_SYSTEM: return 1;
    default: return 0;
    }
}

mech_status mech_system_reserve_contacts(mech_system *sys, int n, mech_error *err)
{
    if (n < 0 || n > INT_MAX - sys->ncontacts)
        return mech_error_set(err, MECH_ERR_ARG, "contacts: cannot make room for %d more", n);
    int need = sys->ncontacts + n;
    if (need <= sys->cap_contacts) return MECH_OK;
    contact *p = mech_realloc(sys->contacts, (size_t)need * sizeof *p);
    if (p == NULL)
        return mech_error_set(err, MECH_ERR_NOMEM, "contacts: out of memory for %d more", n);
    sys->contacts = p;
    sys->cap_contacts = need;
    return MECH_OK;
}

const char *mech_system_name(const mech_system *sys, mech_kind kind, int id)
{
    if (id < 0 || id >= mech_system_count(sys, kind)) return NULL;
    switch (kind) {
    case MECH_KIND_BODY: return sys->bodies[id].name;
    case MECH_KIND_POINT: return sys->points[id].full;
    case MECH_KIND_FORCE: return sys->forces[id].name;
    case MECH_KIND_JOINT: return sys->joints[id].name;
    case MECH_KIND_DRIVER: return sys->drivers[id].name;
    case MECH_KIND_CONTACT: return sys->contacts[id].name;
    case MECH_KIND_FE: return sys->fes[id].name;
    case MECH_KIND_SYSTEM: return "system";
    default: return NULL;
    }
}

int mech_system_ncoord(const mech_system *sys)
{
    return sys->ncoord_given;
}

int mech_system_nstate(const mech_system *sys)
{
    return sys->final ? sys->nstate : 0;
}

int mech_system_dof(const mech_system *sys)
{
    int eq = sys->ndrivers;
    for (int i = 0; i < sys->njoints; i++)
        if (sys->joints[i].enforce == MECH_LAGRANGE) eq += sys->joints[i].neq;
    return mech_system_ncoord(sys) - eq;
}

const mech_error *mech_system_last_error(const mech_system *sys)
{
    return &sys->last_err;
}

/* ---- bodies and points ---------------------------------------------------------------- */

mech_status mech_body_add(mech_system *sys, const mech_body_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "body", d->name, "body", name, err);
    if (st) return st;
    if (!(isfinite(d->mass) && d->mass > 0))
        return mech_error_set(err, MECH_ERR_ARG, "body '%s': mass must be > 0 (got %g)", name,
                              d->mass);
    if (!(isfinite(d->inertia) && d->inertia >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': inertia must be >= 0 (got %g); 0 only for a body "
                              "a joint keeps from rotating",
                              name, d->inertia);
    if (!finite2(d->pos) || !isfinite(d->angle) || !finite2(d->vel) || !isfinite(d->omega))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': position, angle and velocities must be finite", name);
    if (!system_grow((void **)&sys->bodies, &sys->cap_bodies, sys->nbodies, sizeof(body)))
        return mech_error_set(err, MECH_ERR_NOMEM, "body '%s': out of memory", name);
    body *b = &sys->bodies[sys->nbodies];
    memset(b, 0, sizeof *b);
    memcpy(b->name, name, sizeof name);
    b->mass = d->mass;
    b->inertia = d->inertia;
    b->q0[0] = d->pos[0];
    b->q0[1] = d->pos[1];
    b->q0[2] = d->angle;
    b->v0[0] = d->vel[0];
    b->v0[1] = d->vel[1];
    b->v0[2] = d->omega;
    b->dof = sys->ncoord_given;
    b->nc = 3;
    b->fe = b->node = -1;
    sys->ncoord_given += 3;
    if (id) *id = sys->nbodies;
    sys->nbodies++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_body_set_rectangle(mech_system *sys, int b, double hx, double hy, mech_error *err)
{
    mech_status st = system_check_body(sys, "outline", "rectangle", "body", b, err);
    if (st) return st;
    if (!(isfinite(hx) && hx > 0 && isfinite(hy) && hy > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': rectangle half sizes must be > 0 (got %g, %g)",
                              sys->bodies[b].name, hx, hy);
    body *bd = &sys->bodies[b];
    bd->outline = 1;
    bd->outline_data[0] = hx;
    bd->outline_data[1] = hy;
    return MECH_OK;
}

mech_status mech_body_set_segment(mech_system *sys, int b, const double p[2], const double q[2],
                                  mech_error *err)
{
    mech_status st = system_check_body(sys, "outline", "segment", "body", b, err);
    if (st) return st;
    if (!finite2(p) || !finite2(q) || (p[0] == q[0] && p[1] == q[1]))
        return mech_error_set(err, MECH_ERR_ARG,
                              "body '%s': segment ends must be finite and distinct",
                              sys->bodies[b].name);
    body *bd = &sys->bodies[b];
    bd->outline = 2;
    memcpy(bd->outline_data, p, 2 * sizeof(double));
    memcpy(bd->outline_data + 2, q, 2 * sizeof(double));
    return MECH_OK;
}

mech_status mech_point_add(mech_system *sys, int b, const char *name, const double local[2],
                           int *id, mech_error *err)
{
    mech_status st = system_check_body(sys, "point", name ? name : "?", "its body", b, err);
    if (st) return st;
    if (name == NULL || name[0] == '\0' || strchr(name, '.') || strlen(name) >= MECH_NAME_MAX ||
        control_at(name))
        return mech_error_set(err, MECH_ERR_ARG,
                              "point of body '%s': name must be 1 to %d characters without '.' "
                              "and control characters",
                              sys->bodies[b].name, MECH_NAME_MAX - 1);
    if (!finite2(local))
        return mech_error_set(err, MECH_ERR_ARG, "point '%s.%s': coordinates must be finite",
                              sys->bodies[b].name, name);
    char full[2 * MECH_NAME_MAX + 1];
    snprintf(full, sizeof full, "%s.%s", sys->bodies[b].name, name);
    for (int i = 0; i < sys->npoints; i++)
        if (strcmp(sys->points[i].full, full) == 0)
            return mech_error_set(err, MECH_ERR_ARG, "point '%s': the name is already used", full);
    if (!system_grow((void **)&sys->points, &sys->cap_points, sys->npoints, sizeof(point)))
        return mech_error_set(err, MECH_ERR_NOMEM, "point '%s': out of memory", full);
    point *p = &sys->points[sys->npoints];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    memcpy(p->full, full, sizeof full);
    p->body = b;
    p->s[0] = local[0];
    p->s[1] = local[1];
    if (id) *id = sys->npoints;
    sys->npoints++;
    return MECH_OK;
}

/* ---- force elements ------------------------------------------------------------------ */

static force *new_force(mech_system *sys, const char *name, mech_error *err)
{
    if (!system_grow((void **)&sys->forces, &sys->cap_forces, sys->nforces, sizeof(force))) {
        mech_error_set(err, MECH_ERR_NOMEM, "force '%s': out of memory", name);
        return NULL;
    }
    force *f = &sys->forces[sys->nforces];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

/* Initial configuration as the user gave it: pose of body b. */
static void initial_pose(const mech_system *sys, int b, double pose[3])
{
    memcpy(pose, sys->bodies[b].q0, sizeof(double) * 3);
}

static void initial_point(const mech_system *sys, int b, const double s[2], double p[2])
{
    double pose[3];
    initial_pose(sys, b, pose);
    pose_point(pose, s, p);
}

mech_status mech_spring_add(mech_system *sys, const mech_spring_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "spring", d->name, "spring", name, err);
    if (st || (st = system_check_body(sys, "spring", name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, "spring", name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': joins body '%s' to itself", name,
                              sys->bodies[d->body_a].name);
    if (!finite2(d->pa) || !finite2(d->pb))
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': attachment points must be finite",
                              name);
    double spa[2] = {d->pa[0], d->pa[1]}, spb[2] = {d->pb[0], d->pb[1]};
    if ((st = system_node_point(sys, "spring", name, d->body_a, spa, err)) ||
        (st = system_node_point(sys, "spring", name, d->body_b, spb, err)))
        return st;
    if (d->law == NULL) {
        if (!(isfinite(d->k) && d->k >= 0))
            return mech_error_set(err, MECH_ERR_ARG, "spring '%s': stiffness must be >= 0 (got %g)",
                                  name, d->k);
        if (!(isfinite(d->c) && d->c >= 0))
            return mech_error_set(err, MECH_ERR_ARG, "spring '%s': damping must be >= 0 (got %g)",
                                  name, d->c);
    }
    double axis[2] = {0, 0};
    if (!finite2(d->axis))
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': axis must be finite", name);
    double alen = hypot(d->axis[0], d->axis[1]);
    if (alen > 0) axis[0] = d->axis[0] / alen, axis[1] = d->axis[1] / alen;
    double rest = d->length0;
    if (isnan(rest)) {
        double p[2], q[2];
        initial_point(sys, d->body_a, spa, p);
        initial_point(sys, d->body_b, spb, q);
        rest = alen > 0 ? axis[0] * (q[0] - p[0]) + axis[1] * (q[1] - p[1])
                        : hypot(q[0] - p[0], q[1] - p[1]);
    } else if (!(isfinite(rest) && (rest >= 0 || alen > 0))) {
        return mech_error_set(err, MECH_ERR_ARG, "spring '%s': rest length must be >= 0 (got %g)",
                              name, rest);
    }
    force *f = new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_SPRING;
    f->a = d->body_a;
    f->b = d->body_b;
    memcpy(f->pa, spa, sizeof f->pa);
    memcpy(f->pb, spb, sizeof f->pb);
    f->k = d->k;
    f->c = d->c;
    f->rest = rest;
    memcpy(f->axis, axis, sizeof axis);
    f->law = d->law;
    f->ud = d->ud;
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_rot_spring_add(mech_system *sys, const mech_rot_spring_def *d, int *id,
                                mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "rotational spring", d->name, "rotspring", name, err);
    if (st || (st = system_check_body(sys, "rotational spring", name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, "rotational spring", name, "body_b", d->body_b, err)))
        return st;
    for (int k = 0; k < 2; k++) {
        const body *bd = &sys->bodies[k ? d->body_b : d->body_a];
        if (bd->fe >= 0)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "rotational spring '%s': '%s' is a node of a flexible body and "
                                  "has no rotation",
                                  name, bd->name);
    }
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "rotational spring '%s': joins a body to itself",
                              name);
    if (!(isfinite(d->k) && d->k >= 0) || !(isfinite(d->c) && d->c >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': stiffness and damping must be >= 0 "
                              "(got %g, %g)",
                              name, d->k, d->c);
    double rest = d->angle0;
    if (isnan(rest))
        rest = sys->bodies[d->body_b].q0[2] - sys->bodies[d->body_a].q0[2];
    else if (!isfinite(rest))
        return mech_error_set(err, MECH_ERR_ARG,
                              "rotational spring '%s': rest angle must be finite", name);
    force *f = new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_ROT_SPRING;
    f->a = d->body_a;
    f->b = d->body_b;
    f->k = d->k;
    f->c = d->c;
    f->rest = rest;
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_load_add(mech_system *sys, const mech_load_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, d->torque ? "torque" : "force", d->name,
                                      d->torque ? "torque" : "force", name, err);
    if (st || (st = system_check_body(sys, "load", name, "body", d->body, err))) return st;
    if (d->body == MECH_GROUND)
        return mech_error_set(err, MECH_ERR_ARG, "load '%s': cannot act on the ground", name);
    double lpoint[2] = {d->point[0], d->point[1]};
    if (sys->bodies[d->body].fe >= 0) {
        if (d->torque)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "torque '%s': '%s' is a node of a flexible body and has no "
                                  "rotation; load the mesh with nodal forces",
                                  name, sys->bodies[d->body].name);
        if (finite2(lpoint) && (st = system_node_point(sys, "force", name, d->body, lpoint, err)))
            return st;
        if (d->body_frame)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "force '%s': a node has no frame of its own; give the force in "
                                  "the world frame",
                                  name);
    }
    if (d->profile == MECH_CALLBACK) {
        if (d->fn == NULL)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "load '%s': callback profile without a function", name);
    } else if (d->profile == MECH_CONSTANT || d->profile == MECH_HARMONIC) {
        if (!finite2(d->value) || !finite2(d->amplitude) || !isfinite(d->freq) ||
            !isfinite(d->phase) || !finite2(d->point))
            return mech_error_set(err, MECH_ERR_ARG, "load '%s': values must be finite", name);
    } else {
        return mech_error_set(err, MECH_ERR_ARG, "load '%s': unknown profile", name);
    }
    force *f = new_force(sys, name, err);
    if (f == NULL) return MECH_ERR_NOMEM;
    f->type = MECH_LOAD;
    f->a = d->body;
    f->load = *d;
    f->load.name = NULL;
    memcpy(f->load.point, lpoint, sizeof lpoint);
    memcpy(f->pa, lpoint, sizeof f->pa);
    if (id) *id = sys->nforces;
    sys->nforces++;
    system_changed(sys);
    return MECH_OK;
}

/* ---- joints and drivers ---------------------------------------------------------------- */

mech_status mech_joint_add(mech_system *sys, const mech_joint_def *d, int *id, mech_error *err)
{
    if (d->type < MECH_REVOLUTE || d->type > MECH_FIXED)
        return mech_error_set(err, MECH_ERR_ARG, "joint: unknown type %d", (int)d->type);
    const char *tname = joint_type_names[d->type];
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, tname, d->name, tname, name, err);
    if (st || (st = system_check_body(sys, tname, name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, tname, name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': joins body '%s' to itself", tname, name,
                              sys->bodies[d->body_a].name);
    if (!finite2(d->pa) || !finite2(d->pb))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': anchor points must be finite", tname,
                              name);
    double jpa[2] = {d->pa[0], d->pa[1]}, jpb[2] = {d->pb[0], d->pb[1]};
    for (int k = 0; k < 2; k++) {
        int b = k ? d->body_b : d->body_a;
        if (sys->bodies[b].fe < 0) continue;
        if (d->type != MECH_REVOLUTE || d->enforce == MECH_CLEARANCE)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': '%s' is a node of a flexible body; a node takes only "
                                  "revolute joints without clearance (Lagrange or penalty)",
                                  tname, name, sys->bodies[b].name);
        if ((st = system_node_point(sys, tname, name, b, k ? jpb : jpa, err))) return st;
    }
    double axis[2] = {d->axis[0], d->axis[1]};
    if (d->type == MECH_PRISMATIC) {
        double len = hypot(axis[0], axis[1]);
        if (!(isfinite(len) && len > 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': axis must be a non-zero finite vector (got %g, %g)",
                                  tname, name, axis[0], axis[1]);
        axis[0] /= len;
        axis[1] /= len;
    }
    int neq = d->enforce == MECH_CLEARANCE ? 0 : joint_equations(d->type);
    if (d->enforce != MECH_LAGRANGE && d->enforce != MECH_PENALTY && d->enforce != MECH_CLEARANCE)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': unknown enforcement", tname, name);
    if (d->enforce == MECH_PENALTY) {
        for (int i = 0; i < neq; i++) {
            if (!(isfinite(d->k[i]) && d->k[i] > 0))
                return mech_error_set(err, MECH_ERR_ARG,
                                      "%s '%s': penalty stiffness %d must be > 0 (got %g)", tname,
                                      name, i + 1, d->k[i]);
            if (!(isfinite(d->c[i]) && d->c[i] >= 0))
                return mech_error_set(err, MECH_ERR_ARG,
                                      "%s '%s': penalty damping %d must be >= 0 (got %g)", tname,
                                      name, i + 1, d->c[i]);
        }
    }
    double alpha = isnan(d->alpha) ? NAN : d->alpha, beta = isnan(d->beta) ? NAN : d->beta;
    if ((!isnan(alpha) && !(isfinite(alpha) && alpha >= 0)) ||
        (!isnan(beta) && !(isfinite(beta) && beta >= 0)))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': Baumgarte coefficients must be >= 0",
                              tname, name);
    double angle0 = d->angle0;
    if (isnan(angle0))
        angle0 = sys->bodies[d->body_b].q0[2] - sys->bodies[d->body_a].q0[2];
    else if (!isfinite(angle0))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': angle must be finite", tname, name);

    if (!system_grow((void **)&sys->joints, &sys->cap_joints, sys->njoints, sizeof(joint)))
        return mech_error_set(err, MECH_ERR_NOMEM, "%s '%s': out of memory", tname, name);
    joint *j = &sys->joints[sys->njoints];
    memset(j, 0, sizeof *j);
    memcpy(j->name, name, sizeof name);
    j->type = d->type;
    j->a = d->body_a;
    j->b = d->body_b;
    memcpy(j->pa, jpa, sizeof j->pa);
    memcpy(j->pb, jpb, sizeof j->pb);
    j->axis[0] = axis[0];
    j->axis[1] = axis[1];
    j->angle0 = angle0;
    j->enforce = d->enforce;
    memcpy(j->k, d->k, sizeof j->k);
    memcpy(j->c, d->c, sizeof j->c);
    j->alpha = alpha;
    j->beta = beta;
    j->neq = neq;
    j->row = -1;
    sys->njoints++;
    if (d->enforce == MECH_CLEARANCE &&
        (st = clearance_attach(sys, sys->njoints - 1, &d->clearance, err))) {
        sys->njoints--;
        return st;
    }
    if (id) *id = sys->njoints - 1;
    system_changed(sys);
    return MECH_OK;
}

mech_status mech_driver_add(mech_system *sys, const mech_driver_def *d, int *id, mech_error *err)
{
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "driver", d->name, "driver", name, err);
    if (st) return st;
    switch (d->type) {
    case MECH_DRIVE_BODY_ANGLE:
        if (d->target <= MECH_GROUND || d->target >= sys->nbodies)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': target must be a moving body of this system", name);
        if (sys->bodies[d->target].fe >= 0)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': '%s' is a node of a flexible body and has no angle",
                                  name, sys->bodies[d->target].name);
        break;
    case MECH_DRIVE_JOINT_ANGLE:
    case MECH_DRIVE_JOINT_DISTANCE: {
        mech_joint_type want = d->type == MECH_DRIVE_JOINT_ANGLE ? MECH_REVOLUTE : MECH_PRISMATIC;
        if (d->target < 0 || d->target >= sys->njoints)
            return mech_error_set(err, MECH_ERR_ARG, "driver '%s': target must be a joint", name);
        if (sys->joints[d->target].type != want)
            return mech_error_set(
                err, MECH_ERR_ARG, "driver '%s': a %s driver needs a %s joint, '%s' is a %s joint",
                name, driver_type_names[d->type], joint_type_names[want],
                sys->joints[d->target].name, joint_type_names[sys->joints[d->target].type]);
        const joint *tj = &sys->joints[d->target];
        if (d->type == MECH_DRIVE_JOINT_ANGLE &&
            (sys->bodies[tj->a].fe >= 0 || sys->bodies[tj->b].fe >= 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "driver '%s': joint '%s' holds a node of a flexible body, which "
                                  "has no angle",
                                  name, tj->name);
        break;
    }
    default: return mech_error_set(err, MECH_ERR_ARG, "driver '%s': unknown type", name);
    }
    if (d->fn == NULL && !isfinite(d->speed))
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': speed must be finite (got %g)", name,
                              d->speed);
    if (!isnan(d->value0) && !isfinite(d->value0))
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': initial value must be finite", name);
    if ((!isnan(d->alpha) && !(isfinite(d->alpha) && d->alpha >= 0)) ||
        (!isnan(d->beta) && !(isfinite(d->beta) && d->beta >= 0)))
        return mech_error_set(err, MECH_ERR_ARG, "driver '%s': Baumgarte coefficients must be >= 0",
                              name);
    if (!system_grow((void **)&sys->drivers, &sys->cap_drivers, sys->ndrivers, sizeof(driver)))
        return mech_error_set(err, MECH_ERR_NOMEM, "driver '%s': out of memory", name);
    driver *dr = &sys->drivers[sys->ndrivers];
    memset(dr, 0, sizeof *dr);
    memcpy(dr->name, name, sizeof name);
    dr->type = d->type;
    dr->target = d->target;
    dr->speed = d->speed;
    dr->fn = d->fn;
    dr->ud = d->ud;
    dr->alpha = d->alpha;
    dr->beta = d->beta;
    dr->value0 = d->value0;
    if (isnan(dr->value0)) {
        /* the coordinate's value in the configuration as given */
        double *q = system_initial_state(sys);
        if (q == NULL)
            return mech_error_set(err, MECH_ERR_NOMEM, "driver '%s': out of memory", name);
        dr->value0 = driver_coordinate(sys, dr, q);
        mech_free(q);
    }
    if (id) *id = sys->ndrivers;
    sys->ndrivers++;
    system_changed(sys);
    return MECH_OK;
}

/* ---- finalize -------------------------------------------------------------------------- */

static double coalesce(double v, double fallback)
{
    return isnan(v) ? fallback : v;
}

mech_status mech_system_finalize(mech_system *sys, mech_error *err)
{
    if (sys->final) return MECH_OK;
    free_workspace(sys);
    int n = mech_system_ncoord(sys);
    sys->ncoord = n;

    /* Lagrange rows: joints first, then drivers */
    int nrows = 0;
    for (int i = 0; i < sys->njoints; i++) {
        joint *j = &sys->joints[i];
        j->row = j->enforce == MECH_LAGRANGE ? nrows : -1;
        if (j->enforce == MECH_LAGRANGE) nrows += j->neq;
    }
    for (int i = 0; i < sys->ndrivers; i++) sys->drivers[i].row = nrows++;
    sys->nrows = nrows;

    int nz = 0;
    for (int b = 1; b < sys->nbodies; b++)
        if (sys->bodies[b].inertia == 0 && sys->bodies[b].nc == 3) nz++;
    sys->nz = nz;

    sys->nquad = sys->ndrivers + 4;
    for (int i = 0; i < sys->ndrivers; i++) sys->drivers[i].work = 2 * n + i;
    sys->iapplied = 2 * n + sys->ndrivers;
    sys->idissip = sys->iapplied + 1;
    sys->icontact = sys->iapplied + 2;
    sys->ifriction = sys->iapplied + 3;
    sys->nbristle = 0;
    for (int i = 0; i < sys->ncontacts; i++) {
        contact *c = &sys->contacts[i];
        int nz_states = mech_friction_states(&c->flaw);
        c->z = nz_states ? 2 * n + sys->nquad + sys->nbristle : -1;
        sys->nbristle += nz_states;
    }
    sys->nstate = 2 * n + sys->nquad + sys->nbristle;

    int ns = nrows + nz;
    size_t nn = (size_t)(n ? n : 1), nr = (size_t)(nrows ? nrows : 1), nk = (size_t)(ns ? ns : 1);
    sys->minv = mech_calloc(nn, sizeof(double));
    sys->zcoord = mech_calloc((size_t)(nz ? nz : 1), sizeof(int));
    sys->zrow = mech_calloc((size_t)(nz ? nz : 1), sizeof(int));
    sys->zcoef = mech_calloc((size_t)(nz ? nz : 1), sizeof(double));
    sys->zw = mech_calloc((size_t)(nz ? nz : 1), sizeof(double));
    sys->minv_aug = mech_calloc(nn, sizeof(double));
    sys->rows = mech_calloc(nr, sizeof(rowinfo));
    sys->cr = mech_calloc(nr, sizeof(crow));
    sys->rhs = mech_calloc(nr, sizeof(double));
    sys->Q = mech_calloc(nn, sizeof(double));
    sys->qdd = mech_calloc(nn, sizeof(double));
    sys->K = mech_calloc(nk * nk, sizeof(double));
    sys->sol = mech_calloc(nk, sizeof(double));
    sys->piv = mech_calloc(nk, sizeof(int));
    sys->y0 = mech_calloc((size_t)sys->nstate, sizeof(double));
    sys->ydot = mech_calloc((size_t)sys->nstate, sizeof(double));
    sys->cs = mech_calloc((size_t)(2 * sys->nbodies), sizeof(double));
    if (!sys->minv || !sys->zcoord || !sys->zrow || !sys->zcoef || !sys->zw || !sys->minv_aug ||
        !sys->rows || !sys->cr || !sys->rhs || !sys->Q || !sys->qdd || !sys->K || !sys->sol ||
        !sys->piv || !sys->y0 || !sys->ydot || !sys->cs) {
        free_workspace(sys);
        return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory sizing the workspaces");
    }

    int z = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        /* a mass or inertia so small that its inverse overflows: every acceleration of
        ** the body would be inf or NaN */
        if (!isfinite(1.0 / bd->mass) || (bd->inertia > 0 && !isfinite(1.0 / bd->inertia))) {
            int m = !isfinite(1.0 / bd->mass);
            free_workspace(sys);
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': %s %g is too small (its inverse is not finite)",
                                  bd->fe >= 0 ? "node" : "body", bd->name, m ? "mass" : "inertia",
                                  m ? bd->mass : bd->inertia);
        }
        sys->minv[bd->dof] = sys->minv[bd->dof + 1] = 1.0 / bd->mass;
        if (bd->nc == 2) continue; /* a node: no rotation */
        if (bd->inertia > 0)
            sys->minv[bd->dof + 2] = 1.0 / bd->inertia;
        else
            sys->zcoord[z++] = bd->dof + 2;
    }

    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        for (int e = 0; j->row >= 0 && e < j->neq; e++) {
            rowinfo *r = &sys->rows[j->row + e];
            r->kind = MECH_KIND_JOINT;
            r->id = i;
            r->eq = e;
            r->dof_a = sys->bodies[j->a].dof;
            r->dof_b = sys->bodies[j->b].dof;
            r->nc_a = sys->bodies[j->a].nc;
            r->nc_b = sys->bodies[j->b].nc;
            r->alpha = coalesce(j->alpha, sys->alpha);
            r->beta = coalesce(j->beta, sys->beta);
        }
    }
    for (int i = 0; i < sys->ndrivers; i++) {
        const driver *d = &sys->drivers[i];
        rowinfo *r = &sys->rows[d->row];
        int a, b;
        driver_bodies(sys, d, &a, &b);
        r->kind = MECH_KIND_DRIVER;
        r->id = i;
        r->eq = 0;
        r->dof_a = sys->bodies[a].dof;
        r->dof_b = sys->bodies[b].dof;
        r->nc_a = sys->bodies[a].nc;
        r->nc_b = sys->bodies[b].nc;
        r->alpha = coalesce(d->alpha, sys->alpha);
        r->beta = coalesce(d->beta, sys->beta);
    }

    /* fast solve: every massless rotation needs a Lagrange row on it alone (dynamics.c) */
    memcpy(sys->minv_aug, sys->minv, sizeof(double) * nn);
    sys->fast = 1;
    for (int k = 0; k < nz; k++) {
        int zb = sys->zcoord[k] - 2, found = -1;
        double coef = 0;
        for (int r = 0; r < nrows && found < 0; r++) {
            const rowinfo *ri = &sys->rows[r];
            int alone;
            if (ri->kind == MECH_KIND_JOINT) {
                mech_joint_type jt = sys->joints[ri->id].type;
                alone = (jt == MECH_PRISMATIC && ri->eq == 1) || (jt == MECH_FIXED && ri->eq == 2);
            } else {
                alone = sys->drivers[ri->id].type != MECH_DRIVE_JOINT_DISTANCE;
            }
            if (alone && ri->dof_b == zb && ri->dof_a < 0) found = r, coef = 1;
            if (alone && ri->dof_a == zb && ri->dof_b < 0) found = r, coef = -1;
        }
        if (found < 0) {
            sys->fast = 0;
            break;
        }
        const body *bd = &sys->bodies[system_coord_body(sys, zb)];
        sys->zrow[k] = found;
        sys->zcoef[k] = coef;
        sys->zw[k] = bd->mass * 1e-2; /* the inertia of a ~0.1 m body: keeps S well scaled */
        sys->minv_aug[sys->zcoord[k]] = 1.0 / sys->zw[k];
    }

    /* the structure of S = A M^-1 A^T: row pairs that share a moving body */
    int npairs = 0;
    for (int pass = 0; pass < 2; pass++) {
        npairs = 0;
        for (int r = 0; r < nrows; r++) {
            for (int c = r; c < nrows; c++) {
                const int dr[2] = {sys->rows[r].dof_a, sys->rows[r].dof_b};
                const int dc[2] = {sys->rows[c].dof_a, sys->rows[c].dof_b};
                kpair kp = {r, c, 0, {0, 0}, {0, 0}};
                for (int s2 = 0; s2 < 2; s2++)
                    for (int u = 0; u < 2; u++)
                        if (dr[s2] >= 0 && dr[s2] == dc[u] && kp.nm < 2) {
                            kp.s[kp.nm] = (signed char)s2;
                            kp.u[kp.nm] = (signed char)u;
                            kp.nm++;
                        }
                if (kp.nm == 0) continue;
                if (pass == 1) sys->pairs[npairs] = kp;
                npairs++;
            }
        }
        if (pass == 0) {
            sys->pairs = mech_calloc((size_t)(npairs ? npairs : 1), sizeof(kpair));
            if (sys->pairs == NULL) {
                free_workspace(sys);
                return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory");
            }
        }
    }
    sys->npairs = npairs;

    /* a body without inertia must have its rotation tied by some Lagrange equation */
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        if (bd->inertia > 0 || bd->nc == 2) continue;
        int tied = 0;
        for (int r = 0; r < nrows && !tied; r++)
            tied = sys->rows[r].dof_a == bd->dof || sys->rows[r].dof_b == bd->dof;
        if (!tied) {
            /* a joint with clearance does not hold it: say so when one is on it */
            const joint *cj = NULL;
            for (int i = 0; i < sys->njoints && !cj; i++)
                if (sys->joints[i].enforce == MECH_CLEARANCE &&
                    (sys->joints[i].a == b || sys->joints[i].b == b))
                    cj = &sys->joints[i];
            free_workspace(sys);
            if (cj)
                return mech_error_set(err, MECH_ERR_ARG,
                                      "body '%s': inertia is 0, but %s '%s' has clearance: it is "
                                      "a force element, not a constraint, and lets the body turn; "
                                      "give '%s' its inertia",
                                      bd->name, mech_joint_type_name(cj->type), cj->name, bd->name);
            return mech_error_set(err, MECH_ERR_ARG,
                                  "body '%s': inertia is 0 but no Lagrange joint keeps it from "
                                  "rotating; give it an inertia or guide it with a prismatic or "
                                  "fixed joint",
                                  bd->name);
        }
    }

    fill_initial_state(sys, sys->y0);
    sys->start_used = sys->assemble ? resolve_start(sys, sys->y0) : MECH_START_AS_GIVEN;
    if (sys->assemble) {
        /* assembly moves bodies only through the joint equations: the bodies of a joint
        ** with clearance must still be within it afterwards */
        mech_status st =
            assemble_state(sys, 0.0, sys->y0, sys->start_used == MECH_START_IDEAL, err);
        if (!st) st = clearance_check_state(sys, sys->y0, "after assembly", err);
        if (st) {
            free_workspace(sys);
            return st;
        }
    }
    sys->final = 1;

    /* the solve must work at the initial state: catches rotation ties that do not hold */
    mech_status st = mech_system_evaluate(sys, 0.0, sys->y0, err);
    if (st) {
        sys->final = 0;
        free_workspace(sys);
        return st;
    }
    sys->energy0 = sys->kinetic + sys->potential;
    note_start(sys);
    return MECH_OK;
}

void system_atol(const mech_system *sys, double atol, const double *given, double *out)
{
    for (int i = 0; i < sys->nstate; i++)
        out[i] = given ? given[i] : i < 2 * sys->ncoord ? atol : 1e300;
    if (given) return;
    /* bristle deflections are tiny (of order mu / sigma0): tolerances in proportion */
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        if (c->z >= 0) out[c->z] = 1e-4 * fmax(c->flaw.mu, c->flaw.mu_s) / c->flaw.sigma0;
    }
}

/* Grows *L to |x| (a NaN leaves it). */
static void reach(double *L, double x)
{
    *L = fmax(*L, fabs(x));
}

double system_scale(const mech_system *sys, double t_end)
{
    const int n = sys->ncoord;
    const double *q = sys->y0, *v = sys->y0 + n, T = t_end;
    double L = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        for (int k = bd->dof; k < bd->dof + 2; k++) {
            reach(&L, q[k]);
            reach(&L, v[k] * T);
            reach(&L, 0.5 * sys->qdd[k] * T * T);
        }
        for (int k = 0; bd->outline && k < 4; k++) reach(&L, bd->outline_data[k]);
    }
    reach(&L, 0.5 * hypot(sys->gravity[0], sys->gravity[1]) * T * T);
    for (int i = 0; i < sys->npoints; i++)
        reach(&L, hypot(sys->points[i].s[0], sys->points[i].s[1]));
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        reach(&L, hypot(j->pa[0], j->pa[1]));
        reach(&L, hypot(j->pb[0], j->pb[1]));
        if (j->enforce == MECH_CLEARANCE) reach(&L, j->radius);
    }
    for (int i = 0; i < sys->nforces; i++) {
        const force *f = &sys->forces[i];
        reach(&L, hypot(f->pa[0], f->pa[1]));
        if (f->type == MECH_SPRING) {
            reach(&L, hypot(f->pb[0], f->pb[1]));
            reach(&L, f->rest);
        }
    }
    for (int i = 0; i < sys->ncontacts; i++) {
        const contact *c = &sys->contacts[i];
        reach(&L, hypot(c->pa[0], c->pa[1]));
        reach(&L, hypot(c->qb[0], c->qb[1]));
        reach(&L, c->rb);
    }
    return L;
}

void system_runaway_text(const mech_system *sys, int i, double x, double bound, double scale,
                         char *buf, size_t size)
{
    char what[120], limit[120];
    mech_system_describe_state(sys, i, what, sizeof what);
    if (scale > 0)
        snprintf(limit, sizeof limit, "%.3g m, %g times the model's scale", bound,
                 SYSTEM_RUNAWAY_FACTOR);
    else
        snprintf(limit, sizeof limit, "max_distance = %.3g m", bound);
    snprintf(buf, size,
             "%s = %.3g m is beyond %s: the motion has run away (a law too stiff for the "
             "step?); if it is real, raise max_distance",
             what, x, limit);
}

int system_energy_runaway(const mech_system *sys, const double *y, double L, char *buf, size_t size)
{
    double inputs, balance = system_balance(sys, &inputs), mass = 0, worst = -1;
    int who = -1;
    const double *v = y + sys->ncoord;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        int d = bd->dof;
        double ke = 0.5 * bd->mass * (v[d] * v[d] + v[d + 1] * v[d + 1]);
        if (bd->nc == 3) ke += 0.5 * bd->inertia * v[d + 2] * v[d + 2];
        mass += bd->mass;
        if (!(ke <= worst)) worst = ke, who = b;
    }
    double held = fabs(sys->energy0) + mass * hypot(sys->gravity[0], sys->gravity[1]) * L + inputs;
    if (!(held > 0) || fabs(balance) <= SYSTEM_RUNAWAY_FACTOR * held) return 0;
    const body *bd = &sys->bodies[who];
    snprintf(buf, size,
             "the energy balance is off by %.3g J, more than %g times the %.3g J the model was "
             "given (initial energy, gravity over its size, work of drivers and loads): the "
             "motion has run away (a law too stiff for the step?); %s '%s' has the most kinetic "
             "energy, %.3g J at %.3g m/s",
             balance, SYSTEM_RUNAWAY_FACTOR, held, bd->fe >= 0 ? "node" : "body", bd->name, worst,
             hypot(v[bd->dof], v[bd->dof + 1]));
    return 1;
}

int system_runaway(const mech_system *sys, const double *y, double bound)
{
    for (int b = 1; b < sys->nbodies; b++) {
        int d = sys->bodies[b].dof;
        if (!(fabs(y[d]) <= bound)) return d;
        if (!(fabs(y[d + 1]) <= bound)) return d + 1;
    }
    return -1;
}

mech_status mech_system_initial_state(mech_system *sys, double *y, mech_error *err)
{
    if (!sys->final) {
        mech_status st = mech_system_finalize(sys, err);
        if (st) return st;
    }
    memcpy(y, sys->y0, sizeof(double) * (size_t)sys->nstate);
    return MECH_OK;
}

/* ---- descriptions ------------------------------------------------------------------------ */

void mech_system_describe_state(const mech_system *sys, int i, char *buf, size_t size)
{
    static const char *const coord[] = {"x", "y", "phi"};
    static const char *const vel[] = {"vx", "vy", "omega"};
    int n = mech_system_ncoord(sys);
    if (i >= 0 && i < 2 * n) {
        int c = i % n;
        const body *bd = &sys->bodies[system_coord_body(sys, c)];
        snprintf(buf, size, "%s '%s' %s", bd->fe >= 0 ? "node" : "body", bd->name,
                 i < n ? coord[c - bd->dof] : vel[c - bd->dof]);
    } else if (sys->final && i >= 2 * n && i < 2 * n + sys->ndrivers) {
        snprintf(buf, size, "driver '%s' work", sys->drivers[i - 2 * n].name);
    } else if (sys->final && i == sys->iapplied) {
        snprintf(buf, size, "work of the applied loads");
    } else if (sys->final && i == sys->idissip) {
        snprintf(buf, size, "energy dissipated by dampers");
    } else if (sys->final && i == sys->icontact) {
        snprintf(buf, size, "energy dissipated by contact damping");
    } else if (sys->final && i == sys->ifriction) {
        snprintf(buf, size, "energy dissipated by friction");
    } else if (sys->final && i >= sys->ifriction + 1 && i < sys->nstate) {
        const char *cname = "?";
        for (int k = 0; k < sys->ncontacts; k++)
            if (sys->contacts[k].z == i) cname = sys->contacts[k].name;
        snprintf(buf, size, "contact '%s' bristle deflection", cname);
    } else {
        snprintf(buf, size, "state component %d", i);
    }
}

/* Appends printf output to a buffer, tracking the length it would need. */
typedef struct sbuf {
    char *p;
    size_t size, len;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = b->len < b->size ? b->p + b->len : NULL;
    size_t room = b->len < b->size ? b->size - b->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n;
}

/* Writes the laws of a contact: "; <law> K .. n ..[; friction <law> ...]". */
static void describe_laws(sbuf *b, const contact *c)
{
    const mech_normal_law *nl = &c->nlaw;
    const mech_friction_law *fl = &c->flaw;
    sb_printf(b, "; %s K %.10g n %.10g", mech_normal_name(nl->type), nl->K, nl->n);
    if (nl->type == MECH_NORMAL_KELVIN_VOIGT) sb_printf(b, " c %.10g", nl->c);
    if (nl->type == MECH_NORMAL_HUNT_CROSSLEY)
        sb_printf(b, " b %.10g p %.10g q %.10g", nl->c, nl->p, nl->q);
    if (mech_normal_uses_impact(nl))
        sb_printf(b, " restitution %.10g v_min %.10g", nl->e, nl->v_min);
    if (fl->type == MECH_FRICTION_NONE) return;
    sb_printf(b, "; friction %s mu %.10g", mech_friction_name(fl->type), fl->mu);
    switch (fl->type) { /* only the parameters the law uses */
    case MECH_FRICTION_COULOMB_LINEAR: sb_printf(b, " (linear) v_reg %.10g", fl->v_reg); break;
    case MECH_FRICTION_COULOMB_TANH: sb_printf(b, " (tanh) v_reg %.10g", fl->v_reg); break;
    case MECH_FRICTION_STICK: sb_printf(b, " mu_s %.10g v_eps %.10g", fl->mu_s, fl->v_eps); break;
    case MECH_FRICTION_AMBROSIO: sb_printf(b, " v0 %.10g v1 %.10g", fl->v0, fl->v1); break;
    case MECH_FRICTION_THRELFALL: sb_printf(b, " v0 %.10g", fl->v0); break;
    case MECH_FRICTION_STRIBECK:
        sb_printf(b, " mu_s %.10g vs %.10g delta %.10g sigma2 %.10g", fl->mu_s, fl->vs, fl->delta,
                  fl->sigma2);
        break;
    case MECH_FRICTION_DAHL: sb_printf(b, " sigma0 %.10g", fl->sigma0); break;
    case MECH_FRICTION_LUGRE:
    case MECH_FRICTION_LUGRE_NORMALIZED:
        sb_printf(b, "%s mu_s %.10g vs %.10g sigma0 %.10g sigma1 %.10g sigma2 %.10g",
                  fl->type == MECH_FRICTION_LUGRE_NORMALIZED ? " (normalized)" : "", fl->mu_s,
                  fl->vs, fl->sigma0, fl->sigma1, fl->sigma2);
        break;
    default: break;
    }
}

/* Writes an entity's parameters (without its kind and name) to b. */
static void entity_line(sbuf *b, const mech_system *sys, int kind, int id)
{
    switch (kind) {
    case MECH_KIND_BODY: {
        const body *bd = &sys->bodies[id];
        if (id == MECH_GROUND) {
            sb_printf(b, "fixed frame");
            break;
        }
        if (bd->fe >= 0) {
            sb_printf(b, "node %d of %s, mass %.10g kg, at (%.10g, %.10g) m", bd->node + 1,
                      sys->fes[bd->fe].name, bd->mass, bd->q0[0], bd->q0[1]);
            break;
        }
        sb_printf(b,
                  "mass %.10g kg, inertia %.10g kg m^2, at (%.10g, %.10g) m, angle %.10g rad, "
                  "velocity (%.10g, %.10g) m/s, omega %.10g rad/s",
                  bd->mass, bd->inertia, bd->q0[0], bd->q0[1], bd->q0[2], bd->v0[0], bd->v0[1],
                  bd->v0[2]);
        if (bd->outline == 1)
            sb_printf(b, ", rectangle %.10g x %.10g m", 2 * bd->outline_data[0],
                      2 * bd->outline_data[1]);
        if (bd->outline == 2)
            sb_printf(b, ", segment (%.10g, %.10g) - (%.10g, %.10g)", bd->outline_data[0],
                      bd->outline_data[1], bd->outline_data[2], bd->outline_data[3]);
        break;
    }
    case MECH_KIND_POINT: {
        const point *p = &sys->points[id];
        sb_printf(b, "(%.10g, %.10g) m in body coordinates", p->s[0], p->s[1]);
        break;
    }
    case MECH_KIND_FE: {
        const fe_body *f = &sys->fes[id];
        int nq = 0;
        for (int e = 0; e < f->mesh.nelems; e++) nq += f->mesh.nvert[e] == 4;
        sb_printf(b,
                  "%d nodes, %d quadrilaterals, %d triangles; E %.10g Pa, nu %.10g, density "
                  "%.10g kg/m^3, thickness %.10g m, plane %s; mass %.10g kg (%s lumping); "
                  "Rayleigh alpha %.10g 1/s, beta %.10g s",
                  f->mesh.nnodes, nq, f->mesh.nelems - nq, f->E, f->nu, f->density, f->thickness,
                  f->plane_strain ? "strain" : "stress", f->total,
                  f->lumping == MECH_LUMP_HRZ ? "HRZ" : "row-sum", f->alpha, f->beta);
        break;
    }
    case MECH_KIND_FORCE: {
        const force *f = &sys->forces[id];
        const char *an = sys->bodies[f->a].name, *bn = sys->bodies[f->b].name;
        switch (f->type) {
        case MECH_SPRING:
            sb_printf(b, "%s (%.10g, %.10g) - %s (%.10g, %.10g)", an, f->pa[0], f->pa[1], bn,
                      f->pb[0], f->pb[1]);
            if (f->axis[0] != 0 || f->axis[1] != 0)
                sb_printf(b, ", along (%.10g, %.10g)", f->axis[0], f->axis[1]);
            if (f->law)
                sb_printf(b, ", force law by function");
            else
                sb_printf(b, ", k %.10g N/m, c %.10g N s/m, rest length %.10g m", f->k, f->c,
                          f->rest);
            break;
        case MECH_ROT_SPRING:
            sb_printf(b, "%s - %s, k %.10g N m/rad, c %.10g N m s/rad, rest angle %.10g rad", an,
                      bn, f->k, f->c, f->rest);
            break;
        case MECH_LOAD: {
            const mech_load_def *l = &f->load;
            sb_printf(b, "%s on %s", l->torque ? "torque" : "force", an);
            if (!l->torque)
                sb_printf(b, " at (%.10g, %.10g)%s", l->point[0], l->point[1],
                          l->body_frame ? ", body frame" : "");
            if (l->profile == MECH_CALLBACK)
                sb_printf(b, ", by function");
            else if (l->torque)
                sb_printf(b, ", %.10g + %.10g sin(%.10g t + %.10g) N m", l->value[0],
                          l->amplitude[0], l->freq, l->phase);
            else
                sb_printf(b, ", (%.10g, %.10g) + (%.10g, %.10g) sin(%.10g t + %.10g) N",
                          l->value[0], l->value[1], l->amplitude[0], l->amplitude[1], l->freq,
                          l->phase);
            break;
        }
        }
        break;
    }
    case MECH_KIND_JOINT: {
        const joint *j = &sys->joints[id];
        sb_printf(b, "%s, %s (%.10g, %.10g) - %s (%.10g, %.10g)", joint_type_names[j->type],
                  sys->bodies[j->a].name, j->pa[0], j->pa[1], sys->bodies[j->b].name, j->pb[0],
                  j->pb[1]);
        if (j->type == MECH_PRISMATIC)
            sb_printf(b, ", axis (%.10g, %.10g)", j->axis[0], j->axis[1]);
        if (j->type != MECH_REVOLUTE && j->enforce != MECH_CLEARANCE)
            sb_printf(b, ", angle %.10g rad", j->angle0);
        if (j->enforce == MECH_CLEARANCE) {
            const contact *c = &sys->contacts[j->contact0];
            if (j->type == MECH_REVOLUTE) {
                sb_printf(b, ", clearance: bearing radius %.10g m, journal radius %.10g m", c->rb,
                          c->ra);
            } else {
                sb_printf(b, ", clearance %.10g m on each side of the slider's corners", j->gap);
                for (int k = 0; k < j->ncontact; k += 2)
                    sb_printf(b, " (%.10g, %.10g)", c[k].pa[0], c[k].pa[1]);
            }
            describe_laws(b, c);
        } else if (j->enforce == MECH_PENALTY) {
            sb_printf(b, ", penalty k");
            for (int e = 0; e < j->neq; e++) sb_printf(b, " %.10g", j->k[e]);
            sb_printf(b, ", c");
            for (int e = 0; e < j->neq; e++) sb_printf(b, " %.10g", j->c[e]);
        } else {
            sb_printf(b, ", Lagrange (Baumgarte %.10g, %.10g)", coalesce(j->alpha, sys->alpha),
                      coalesce(j->beta, sys->beta));
        }
        break;
    }
    case MECH_KIND_CONTACT: {
        const contact *c = &sys->contacts[id];
        if (c->shape == SHAPE_CIRCLE_IN_CIRCLE)
            sb_printf(b,
                      "circle of %s centred (%.10g, %.10g) radius %.10g m inside the circle of %s "
                      "centred (%.10g, %.10g) radius %.10g m",
                      sys->bodies[c->a].name, c->pa[0], c->pa[1], c->ra, sys->bodies[c->b].name,
                      c->qb[0], c->qb[1], c->rb);
        else
            sb_printf(b,
                      "%s (%.10g, %.10g) on the surface of %s through (%.10g, %.10g) normal "
                      "(%.10g, %.10g)",
                      sys->bodies[c->a].name, c->pa[0], c->pa[1], sys->bodies[c->b].name, c->qb[0],
                      c->qb[1], c->nb[0], c->nb[1]);
        if (c->speed != 0) sb_printf(b, " moving at %.10g m/s", c->speed);
        describe_laws(b, c);
        break;
    }
    case MECH_KIND_DRIVER: {
        const driver *d = &sys->drivers[id];
        const char *target = d->type == MECH_DRIVE_BODY_ANGLE ? sys->bodies[d->target].name
                                                              : sys->joints[d->target].name;
        sb_printf(b, "%s of %s, from %.10g", driver_type_names[d->type], target, d->value0);
        if (d->fn)
            sb_printf(b, ", by function");
        else
            sb_printf(b, " at constant speed %.10g", d->speed);
        break;
    }
    default: break;
    }
}

size_t mech_entity_summary(const mech_system *sys, int kind, int id, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    if (size) buf[0] = '\0';
    if (id >= 0 && id < mech_system_count(sys, kind)) entity_line(&b, sys, kind, id);
    return b.len;
}

size_t mech_system_describe(const mech_system *sys, const char *prefix, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    if (size) buf[0] = '\0';
    const char *pf = prefix ? prefix : "";
    sb_printf(&b, "%sgravity (%.10g, %.10g) m/s^2; Baumgarte alpha %.10g, beta %.10g 1/s\n", pf,
              sys->gravity[0], sys->gravity[1], sys->alpha, sys->beta);
    int clearance = 0;
    for (int i = 0; i < sys->njoints; i++) clearance |= sys->joints[i].enforce == MECH_CLEARANCE;
    if (clearance && !sys->assemble)
        sb_printf(&b, "%sstart: as given, not assembled\n", pf);
    else if (clearance && mech_system_start(sys) == MECH_START_IDEAL)
        sb_printf(&b,
                  "%sstart: ideal (the joints with clearance held as ideal joints for the "
                  "assembly: centred, the velocities of the ideal mechanism; released for the "
                  "run)\n",
                  pf);
    else if (clearance)
        sb_printf(&b,
                  "%sstart: as given (the joints with clearance free in the assembly: their "
                  "bodies placed and moving as given)\n",
                  pf);
    static const struct {
        int kind;
        const char *label;
    } order[] = {{MECH_KIND_BODY, "body"},        {MECH_KIND_POINT, "point"},
                 {MECH_KIND_FORCE, "force"},      {MECH_KIND_JOINT, "joint"},
                 {MECH_KIND_FE, "flexible body"}, {MECH_KIND_DRIVER, "driver"},
                 {MECH_KIND_CONTACT, "contact"}};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int n = mech_system_count(sys, order[k].kind);
        for (int i = order[k].kind == MECH_KIND_BODY ? 1 : 0; i < n; i++) {
            if (order[k].kind == MECH_KIND_CONTACT && sys->contacts[i].owner >= 0)
                continue; /* described with its joint */
            if (order[k].kind == MECH_KIND_BODY && sys->bodies[i].fe >= 0)
                continue; /* described with its flexible body */
            sb_printf(&b, "%s%s %s: ", pf, order[k].label, mech_system_name(sys, order[k].kind, i));
            entity_line(&b, sys, order[k].kind, i);
            sb_printf(&b, "\n");
        }
    }
    return b.len;
}

void mech_body_initial_pose(const mech_system *sys, int b, double pose[3])
{
    if (b < 0 || b >= sys->nbodies) {
        pose[0] = pose[1] = pose[2] = 0;
        return;
    }
    memcpy(pose, sys->bodies[b].q0, 3 * sizeof(double));
}

mech_joint_type mech_joint_type_of(const mech_system *sys, int j)
{
    return j >= 0 && j < sys->njoints ? sys->joints[j].type : MECH_REVOLUTE;
}

const char *mech_force_type_name(mech_force_type t)
{
    return t >= MECH_SPRING && t <= MECH_LOAD ? force_type_names[t] : "?";
}

const char *mech_joint_type_name(mech_joint_type t)
{
    return t >= MECH_REVOLUTE && t <= MECH_FIXED ? joint_type_names[t] : "?";
}

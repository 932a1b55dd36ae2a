/* SPDX-License-Identifier: MIT */
/*
** The bottom of a system: its entity arrays and how they grow, names and their lookup, the
** "changed" flag every constructor raises, the configuration as given, and the queries on
** counts and names.  Nothing here calls the stages (assembly, dynamics) above it.
*/
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_system.h"
#include "registry.h"
#include "vec2.h"

static const char *const driver_type_names[] = {"body angle", "joint angle", "joint distance"};

/* Where the entities of each stored kind are: their count and the name of entity i.  The
** system itself is the one entity not stored ("system"); a kind the spatial layer adds is one
** more STORE and one more line of the table. */
typedef struct kind_store {
    int (*count)(const mech_system *sys);
    const char *(*name)(const mech_system *sys, int i);
} kind_store;
#define STORE(items, n, field)                                                                     \
    static int count_##items(const mech_system *sys)                                               \
    {                                                                                              \
        return sys->n;                                                                             \
    }                                                                                              \
    static const char *name_##items(const mech_system *sys, int i)                                 \
    {                                                                                              \
        return sys->items[i].field;                                                                \
    }
STORE(bodies, nbodies, name)
STORE(points, npoints, full)
STORE(forces, nforces, name)
STORE(joints, njoints, name)
STORE(drivers, ndrivers, name)
STORE(contacts, ncontacts, name)
STORE(fes, nfes, name)
#undef STORE
static const kind_store stores[] = {
    [MECH_KIND_BODY] = {count_bodies, name_bodies},
    [MECH_KIND_POINT] = {count_points, name_points},
    [MECH_KIND_FORCE] = {count_forces, name_forces},
    [MECH_KIND_JOINT] = {count_joints, name_joints},
    [MECH_KIND_DRIVER] = {count_drivers, name_drivers},
    [MECH_KIND_CONTACT] = {count_contacts, name_contacts},
    [MECH_KIND_FE] = {count_fes, name_fes},
};
#define NSTORES ((int)(sizeof stores / sizeof stores[0]))

/* The store of kind k, NULL for the system, MECH_KIND_NONE and unknown kinds. */
static const kind_store *store_of(int k)
{
    return k > MECH_KIND_NONE && k < NSTORES && stores[k].count ? &stores[k] : NULL;
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
    /* in the order of mech_kind: bodies, points, forces, joints, drivers, contacts, flexible
    ** bodies */
    for (int k = 0; k < NSTORES; k++) {
        const kind_store *st = store_of(k);
        if (st == NULL) continue;
        int n = st->count(sys);
        for (int i = 0; i < n; i++)
            if (strcmp(st->name(sys, i), name) == 0) return *id = i, (mech_kind)k;
    }
    return MECH_KIND_NONE;
}

/*
** Checks a requested name (or makes one from `base` and a counter when it is NULL or
** empty) and copies it into out.  Names are unique among bodies, forces, joints and
** drivers, and contain no '.', which separates entity and quantity in channel names, and
** no control character (a newline would break the CSV header and the descriptions).
*/
/* Position (from 1) of the first control character of s, 0 if none. */
size_t system_control_at(const char *s)
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
    size_t bad = system_control_at(requested);
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

mech_status system_check_dim(const mech_system *sys, int dim, const char *what, const char *instead,
                             mech_error *err)
{
    int have = sys->dim;
    if (have == dim) return MECH_OK;
    return mech_error_set(err, MECH_ERR_ARG, "%s: a %s system's; this system is %s (use %s)", what,
                          dim == 3 ? "spatial" : "planar", have == 3 ? "spatial" : "planar",
                          instead);
}

mech_status system_new_point(mech_system *sys, int b, const char *name, const double s[3], int *id,
                             mech_error *err)
{
    if (name == NULL || name[0] == '\0' || strchr(name, '.') || strlen(name) >= MECH_NAME_MAX ||
        system_control_at(name))
        return mech_error_set(err, MECH_ERR_ARG,
                              "point of body '%s': name must be 1 to %d characters without '.' "
                              "and control characters",
                              sys->bodies[b].name, MECH_NAME_MAX - 1);
    if (!(isfinite(s[0]) && isfinite(s[1]) && isfinite(s[2])))
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
    memcpy(p->s, s, sizeof p->s);
    if (id) *id = sys->npoints;
    sys->npoints++;
    return MECH_OK;
}

force *system_new_force(mech_system *sys, const char *name, mech_error *err)
{
    if (!system_grow((void **)&sys->forces, &sys->cap_forces, sys->nforces, sizeof(force))) {
        mech_error_set(err, MECH_ERR_NOMEM, "force '%s': out of memory", name);
        return NULL;
    }
    force *f = &sys->forces[sys->nforces];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->joint = -1;
    return f;
}

/* NaN (none given) or finite and >= 0. */
static int baumgarte_ok(double x)
{
    return isnan(x) || (isfinite(x) && x >= 0);
}

mech_status system_check_enforcement(const char *tname, const char *name, mech_enforce enforce,
                                     int neq, const double *k, const double *c, double alpha,
                                     double beta, mech_error *err)
{
    for (int i = 0; enforce == MECH_PENALTY && i < neq; i++) {
        if (!(isfinite(k[i]) && k[i] > 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': penalty stiffness %d must be > 0 (got %g)", tname, name,
                                  i + 1, k[i]);
        if (!(isfinite(c[i]) && c[i] >= 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "%s '%s': penalty damping %d must be >= 0 (got %g)", tname, name,
                                  i + 1, c[i]);
    }
    if (!baumgarte_ok(alpha) || !baumgarte_ok(beta))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': Baumgarte coefficients must be >= 0",
                              tname, name);
    return MECH_OK;
}

void system_changed(mech_system *sys)
{
    sys->final = 0;
    sys->revision++;
}

unsigned long mech_system_revision(const mech_system *sys)
{
    return sys->revision;
}

/* Writes the positions and velocities as given into y (nq + nu values). */
void system_fill_initial_state(const mech_system *sys, double *y)
{
    int nq = sys->nq_given;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        memcpy(y + bd->q_at, bd->q0, (size_t)bd->nq * sizeof(double));
        memcpy(y + nq + bd->u_at, bd->u0, (size_t)bd->nu * sizeof(double));
    }
}

/* The body whose index (its first position, or velocity) is the largest not above i: the
** indices grow with the body id (the ground, -1, first). */
static int body_at(const mech_system *sys, int i, int velocity)
{
    int lo = 1, hi = sys->nbodies - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if ((velocity ? sys->bodies[mid].u_at : sys->bodies[mid].q_at) <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int system_position_body(const mech_system *sys, int i)
{
    return body_at(sys, i, 0);
}

int system_velocity_body(const mech_system *sys, int i)
{
    return body_at(sys, i, 1);
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
    int n = sys->nq_given + sys->nu_given;
    double *y = mech_malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (y) system_fill_initial_state(sys, y);
    return y;
}

int mech_system_is_final(const mech_system *sys)
{
    return sys->final;
}

int mech_system_count(const mech_system *sys, mech_kind kind)
{
    if (kind == MECH_KIND_SYSTEM) return 1;
    const kind_store *st = store_of(kind);
    return st ? st->count(sys) : 0;
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
    if (kind == MECH_KIND_SYSTEM) return "system";
    return store_of(kind)->name(sys, id);
}

int mech_system_ncoord(const mech_system *sys)
{
    return sys->nq_given;
}

int mech_system_nvel(const mech_system *sys)
{
    return sys->nu_given;
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
    return mech_system_nvel(sys) - eq;
}

const mech_error *mech_system_last_error(const mech_system *sys)
{
    return &sys->last_err;
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

const char *system_driver_type_name(mech_driver_type t)
{
    return t >= MECH_DRIVE_BODY_ANGLE && t <= MECH_DRIVE_JOINT_DISTANCE ? driver_type_names[t]
                                                                        : "?";
}

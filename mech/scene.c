/* SPDX-License-Identifier: MIT */
/*
** Scenes (mech_scene.h): the figures of a finalized system at a state.  Creation decides every
** item once (what it shows and where its data come from: `src` per item) and allocates;
** an update reads the state through the per-dimension ops (dim.h: body_frame, contact_frame),
** the joints with clearance's own pose functions and fe.c's element strains, and allocates
** nothing.
*/
#include <math.h>
#include <string.h>

#include "mech_scene.h"

#include "clearance.h"
#include "dim.h"
#include "registry.h"
#include "vec3.h"

/* Where an item's data come from. */
typedef enum src_type {
    SRC_LINK,     /* body `body`'s centre to its point s */
    SRC_RECT,     /* body's rectangle outline */
    SRC_SEGMENT,  /* body's segment outline */
    SRC_JOINT,    /* ideal joint `ref` */
    SRC_BEARING,  /* planar revolute joint with clearance `ref`: the bearing ... */
    SRC_JOURNAL,  /* ... the journal */
    SRC_WALL,     /* planar prismatic joint with clearance: the surface of contact `ref` */
    SRC_SLIDER,   /* ... the slider's corners (joint `ref`) */
    SRC_SBEARING, /* spatial revolute joint with clearance `ref`: the bearing's cylinder ... */
    SRC_SJOURNAL, /* ... the journal's */
    SRC_CHANNEL,  /* spatial prismatic joint with clearance `ref`: the channel ... */
    SRC_SBOX,     /* ... the box slider */
    SRC_SURFACE,  /* the surface of the point-plane contacts of no joint, first contact `ref` */
} src_type;

typedef struct src {
    src_type type;
    int ref;
    double s[3];
} src;

struct mech_scene_private {
    mech_system *sys; /* updates evaluate it (its evaluation's results change) */
    double *y;        /* the state evaluated: a copy of the caller's */
    src *src;         /* per item */
    int *surface;     /* per contact: its SRC_SURFACE item, or -1 */
    int *active;      /* per contact: the system's history, kept while a state is evaluated */
    double *impact;
};

/* The world position of body b's point s (body coordinates) at positions q. */
static void world_point(const mech_system *sys, int b, const double s[3], const double *q,
                        double p[3])
{
    double r[3], A[9], w[3];
    sys->dops->body_frame(sys, b, q, r, A);
    mat3_vec(A, s, w);
    vec3_add(r, w, p);
}

/* The world direction of body b's vector s at q. */
static void world_vector(const mech_system *sys, int b, const double s[3], const double *q,
                         double w[3])
{
    double r[3], A[9];
    sys->dops->body_frame(sys, b, q, r, A);
    mat3_vec(A, s, w);
}

/* ---- creation: the items ------------------------------------------------------------------- */

/* Adds an item (or counts it when items is NULL); returns its index. */
static int add_item(mech_scene *sc, mech_kind kind, int id, int on, mech_scene_role role,
                    mech_scene_shape shape, int npoints, src_type type, int ref, const double *s)
{
    int i = sc->nitems++;
    if (sc->items == NULL) return i;
    mech_scene_item *it = &sc->items[i];
    memset(it, 0, sizeof *it);
    it->kind = kind, it->id = id, it->body = on, it->role = role, it->shape = shape;
    it->npoints = npoints;
    src *r = &sc->priv->src[i];
    r->type = type, r->ref = ref;
    r->s[0] = r->s[1] = r->s[2] = 0;
    if (s) memcpy(r->s, s, 3 * sizeof(double));
    return i;
}

/* Adds a link of rigid body b to its point s unless b has an outline, is the ground or a node,
** s is its centre, or the same link was added. */
static void add_link(mech_scene *sc, const mech_system *sys, int b, const double s[3], int first)
{
    const body *bd = &sys->bodies[b];
    if (b == MECH_GROUND || bd->fe >= 0 || bd->outline) return;
    if (s[0] == 0 && s[1] == 0 && s[2] == 0) return;
    for (int i = first; sc->items && i < sc->nitems; i++) {
        const src *r = &sc->priv->src[i];
        if (r->type == SRC_LINK && r->ref == b && r->s[0] == s[0] && r->s[1] == s[1] &&
            r->s[2] == s[2])
            return;
    }
    if (sc->items == NULL) { /* counting: duplicates counted too (an upper bound) */
        sc->nitems++;
        return;
    }
    add_item(sc, MECH_KIND_BODY, b, b, MECH_SCENE_LINK, MECH_SCENE_SEGMENT, 2, SRC_LINK, b, s);
}

/* Two point-plane contacts on the same surface (the same body and line). */
static int same_surface(const contact *a, const contact *b)
{
    double d[2] = {b->qb[0] - a->qb[0], b->qb[1] - a->qb[1]};
    return a->b == b->b && a->nb[0] == b->nb[0] && a->nb[1] == b->nb[1] &&
           fabs(d[0] * a->nb[0] + d[1] * a->nb[1]) <= 1e-12 * (1 + hypot(d[0], d[1]));
}

/* The joint's items. */
static void add_joint(mech_scene *sc, const mech_system *sys, int jid)
{
    const joint *j = &sys->joints[jid];
    const clearance_type *ct = j->enforce == MECH_CLEARANCE ? clearance_of(j) : NULL;
    const mech_kind K = MECH_KIND_JOINT;
    if (ct == NULL) {
        add_item(sc, K, jid, j->b, MECH_SCENE_JOINT, MECH_SCENE_POINTS, 2, SRC_JOINT, jid, NULL);
    } else if (ct == &clearance_journal) {
        int i = add_item(sc, K, jid, j->a, MECH_SCENE_BEARING, MECH_SCENE_CIRCLE, 1, SRC_BEARING,
                         jid, NULL);
        int k = add_item(sc, K, jid, j->b, MECH_SCENE_JOURNAL, MECH_SCENE_CIRCLE, 1, SRC_JOURNAL,
                         jid, NULL);
        if (sc->items) sc->items[i].radius = j->radius, sc->items[k].radius = j->radius - j->gap;
    } else if (ct == &clearance_guide) { /* contacts c1_bottom, c1_top, c2_bottom, ... */
        for (int s = 0; s < 2; s++)
            add_item(sc, K, jid, j->a, MECH_SCENE_GUIDE, MECH_SCENE_SEGMENT, 2, SRC_WALL,
                     j->contact0 + s, NULL);
        add_item(sc, K, jid, j->b, MECH_SCENE_SLIDER, MECH_SCENE_POLYGON, j->ncontact / 2,
                 SRC_SLIDER, jid, NULL);
    } else if (ct == &sclearance_journal) {
        add_item(sc, K, jid, j->a, MECH_SCENE_BEARING, MECH_SCENE_CYLINDER, 1, SRC_SBEARING, jid,
                 NULL);
        add_item(sc, K, jid, j->b, MECH_SCENE_JOURNAL, MECH_SCENE_CYLINDER, 1, SRC_SJOURNAL, jid,
                 NULL);
    } else if (ct == &sbox_slider) {
        add_item(sc, K, jid, j->a, MECH_SCENE_GUIDE, MECH_SCENE_BOX, 1, SRC_CHANNEL, jid, NULL);
        add_item(sc, K, jid, j->b, MECH_SCENE_SLIDER, MECH_SCENE_BOX, 1, SRC_SBOX, jid, NULL);
    }
}

/* Every item, in order: outlines, joints, surfaces, then links.  With sc->items NULL, counts
** them (links at most). */
static void add_items(mech_scene *sc, const mech_system *sys)
{
    sc->nitems = 0;
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        if (bd->outline == 1)
            add_item(sc, MECH_KIND_BODY, b, b, MECH_SCENE_OUTLINE, MECH_SCENE_POLYGON, 4, SRC_RECT,
                     b, NULL);
        else if (bd->outline == 2)
            add_item(sc, MECH_KIND_BODY, b, b, MECH_SCENE_OUTLINE, MECH_SCENE_SEGMENT, 2,
                     SRC_SEGMENT, b, NULL);
    }
    for (int k = 0; k < sys->njoints; k++) add_joint(sc, sys, k);
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        if (sc->items) sc->priv->surface[k] = -1;
        if (c->owner >= 0 || c->shape != SHAPE_POINT_PLANE) continue;
        int first = -1;
        for (int m = 0; m < k && first < 0; m++)
            if (sys->contacts[m].owner < 0 && sys->contacts[m].shape == SHAPE_POINT_PLANE &&
                same_surface(&sys->contacts[m], c))
                first = m;
        if (first >= 0) {
            if (sc->items) sc->priv->surface[k] = sc->priv->surface[first];
            continue;
        }
        int i = add_item(sc, MECH_KIND_CONTACT, k, c->b, MECH_SCENE_SURFACE, MECH_SCENE_SEGMENT, 2,
                         SRC_SURFACE, k, NULL);
        if (sc->items) sc->priv->surface[k] = i;
    }
    int links = sc->nitems;
    for (int k = 0; k < sys->njoints; k++) {
        const joint *j = &sys->joints[k];
        add_link(sc, sys, j->a, j->pa, links);
        add_link(sc, sys, j->b, j->pb, links);
    }
    for (int k = 0; k < sys->nforces; k++) {
        const force *f = &sys->forces[k];
        if (f->type == MECH_SPRING) {
            add_link(sc, sys, f->a, f->pa, links);
            add_link(sc, sys, f->b, f->pb, links);
        } else if (f->type == MECH_LOAD && sys->dim == 2 && !f->load.torque) {
            add_link(sc, sys, f->a, f->pa, links);
        } else if (f->type == MECH_LOAD && sys->dim == 3 && !f->sload.torque) {
            add_link(sc, sys, f->a, f->pa, links);
        }
    }
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        if (c->owner >= 0 || c->shape != SHAPE_POINT_PLANE) continue; /* the joint's anchors */
        const double pa[3] = {c->pa[0], c->pa[1], 0}, qb[3] = {c->qb[0], c->qb[1], 0};
        add_link(sc, sys, c->a, pa, links);
        add_link(sc, sys, c->b, qb, links);
    }
}

/* ---- updates ----------------------------------------------------------------------------- */

/* A planar guide's wall (contact c's surface) at q: the line through its point along the
** guide's axis, drawn over the slider's extent along it and as far again on each side. */
static void fill_wall(const mech_system *sys, const contact *c, const double *q,
                      mech_scene_item *it)
{
    const joint *j = &sys->joints[c->owner];
    const double qb[3] = {c->qb[0], c->qb[1], 0}, ax[3] = {j->axis[0], j->axis[1], 0};
    double o[3], u[3], lo = INFINITY, hi = -INFINITY;
    world_point(sys, c->b, qb, q, o);
    world_vector(sys, c->b, ax, q, u);
    for (int k = j->contact0; k < j->contact0 + j->ncontact; k += 2) {
        const contact *ck = &sys->contacts[k];
        const double s[3] = {ck->pa[0], ck->pa[1], 0};
        double p[3], d[3];
        world_point(sys, ck->a, s, q, p);
        vec3_sub(p, o, d);
        lo = fmin(lo, vec3_dot(d, u));
        hi = fmax(hi, vec3_dot(d, u));
    }
    double len = hi - lo;
    for (int i = 0; i < 3; i++) {
        it->p[0][i] = o[i] + (lo - len) * u[i];
        it->p[1][i] = o[i] + (hi + len) * u[i];
    }
}

/* The ideal joint's anchors, and its axis: planar, z for a revolute joint, the sliding axis
** (body a's) for a prismatic one; spatial, the z axis of a's joint frame for the types that
** have an axis. */
static void fill_joint(const mech_system *sys, const joint *j, const double *q, mech_scene_item *it)
{
    world_point(sys, j->a, j->pa, q, it->p[0]);
    world_point(sys, j->b, j->pb, q, it->p[1]);
    double s[3] = {0, 0, 0};
    if (sys->dim == 2) {
        if (j->type == MECH_REVOLUTE) s[2] = 1;
        if (j->type == MECH_PRISMATIC) s[0] = j->axis[0], s[1] = j->axis[1];
    } else if (j->type == MECH_REVOLUTE || j->type == MECH_PRISMATIC ||
               j->type == MECH_CYLINDRICAL) {
        s[0] = j->fa[2], s[1] = j->fa[5], s[2] = j->fa[8];
    }
    world_vector(sys, j->a, s, q, it->axis);
}

static void fill_item(mech_scene *sc, int i, const double *q)
{
    const mech_system *sys = sc->priv->sys;
    const src *r = &sc->priv->src[i];
    mech_scene_item *it = &sc->items[i];
    switch (r->type) {
    case SRC_LINK:
        world_point(sys, r->ref, (const double[3]){0, 0, 0}, q, it->p[0]);
        world_point(sys, r->ref, r->s, q, it->p[1]);
        break;
    case SRC_RECT: {
        const double *h = sys->bodies[r->ref].outline_data;
        const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
        for (int k = 0; k < 4; k++)
            world_point(sys, r->ref, (const double[3]){sx[k] * h[0], sy[k] * h[1], 0}, q, it->p[k]);
        break;
    }
    case SRC_SEGMENT: {
        const double *d = sys->bodies[r->ref].outline_data;
        world_point(sys, r->ref, (const double[3]){d[0], d[1], 0}, q, it->p[0]);
        world_point(sys, r->ref, (const double[3]){d[2], d[3], 0}, q, it->p[1]);
        break;
    }
    case SRC_JOINT: fill_joint(sys, &sys->joints[r->ref], q, it); break;
    case SRC_BEARING: {
        const joint *j = &sys->joints[r->ref];
        world_point(sys, j->a, j->pa, q, it->p[0]);
        break;
    }
    case SRC_JOURNAL: {
        const joint *j = &sys->joints[r->ref];
        world_point(sys, j->b, j->pb, q, it->p[0]);
        break;
    }
    case SRC_WALL: fill_wall(sys, &sys->contacts[r->ref], q, it); break;
    case SRC_SLIDER: {
        const joint *j = &sys->joints[r->ref];
        for (int k = 0; k < it->npoints; k++) {
            const contact *c = &sys->contacts[j->contact0 + 2 * k];
            world_point(sys, c->a, (const double[3]){c->pa[0], c->pa[1], 0}, q, it->p[k]);
        }
        break;
    }
    case SRC_SBEARING:
    case SRC_SJOURNAL: {
        sclearance_geom g;
        sclearance_pose p;
        sclearance_pose_at(sys, &sys->joints[r->ref], q, &g, &p);
        int bearing = r->type == SRC_SBEARING;
        memcpy(it->p[0], bearing ? p.Pi : p.Pj, 3 * sizeof(double));
        memcpy(it->axis, bearing ? p.ai : p.aj, 3 * sizeof(double));
        it->radius = bearing ? g.Ri : g.Rj;
        it->length = bearing ? g.Li : g.Lj;
        break;
    }
    case SRC_CHANNEL:
    case SRC_SBOX: {
        sbox_geom g;
        sbox_pose p;
        sbox_body slider, guide;
        sbox_pose_at(sys, &sys->joints[r->ref], q, NULL, &g, &p, &slider, &guide);
        if (r->type == SRC_SBOX) {
            memcpy(it->p[0], p.P, sizeof p.P);
            memcpy(it->R, p.R, sizeof p.R);
            it->half[0] = g.hx, it->half[1] = g.hy, it->half[2] = g.hz;
            break;
        }
        /* the channel's inner faces, level with the slider and three times its length */
        double d[3];
        vec3_sub(p.P, p.O, d);
        double s = vec3_dot(d, p.Y);
        for (int k = 0; k < 3; k++) {
            it->p[0][k] = p.O[k] + s * p.Y[k];
            it->R[3 * k] = p.X[k], it->R[3 * k + 1] = p.Y[k], it->R[3 * k + 2] = p.Z[k];
        }
        it->half[0] = g.Wx, it->half[1] = 3 * g.hy, it->half[2] = g.Wz;
        break;
    }
    case SRC_SURFACE: break; /* with the contacts (fill_contacts) */
    }
}

/* The contacts, and the extents of the surfaces of those of no joint: each surface line is
** drawn between the farthest contact points along it. */
static void fill_contacts(mech_scene *sc, const double *q, const double *v)
{
    const mech_system *sys = sc->priv->sys;
    for (int i = 0; i < sc->nitems; i++)
        if (sc->priv->src[i].type == SRC_SURFACE) sc->items[i].radius = INFINITY;
    for (int k = 0; k < sc->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        mech_scene_contact *o = &sc->contacts[k];
        double t[3];
        o->has_point = sys->dops->contact_frame(sys, c, q, v, o->point, o->normal, t);
        o->fn_mag = c->fn;
        o->ft_mag = fabs(c->ft);
        o->touching = c->fn != 0 || c->ft != 0;
        for (int i = 0; i < 3; i++) {
            o->fn[i] = c->fn * o->normal[i];
            o->ft[i] = c->ft * t[i];
        }
        int s = sc->priv->surface[k];
        if (s < 0) continue;
        /* the surface line through c's surface point, along its tangent; its extent in
        ** radius (lowest) and length (highest) while the contacts are gathered */
        mech_scene_item *it = &sc->items[s];
        double d[3];
        vec3_sub(o->point, it->p[0], d);
        if (isinf(it->radius)) {
            const contact *c0 = &sys->contacts[sc->priv->src[s].ref];
            world_point(sys, c0->b, (const double[3]){c0->qb[0], c0->qb[1], 0}, q, it->p[0]);
            memcpy(it->axis, (const double[3]){-o->normal[1], o->normal[0], 0}, sizeof it->axis);
            vec3_sub(o->point, it->p[0], d);
            it->radius = it->length = vec3_dot(d, it->axis);
        }
        double a = vec3_dot(d, it->axis);
        it->radius = fmin(it->radius, a);
        it->length = fmax(it->length, a);
    }
    for (int i = 0; i < sc->nitems; i++) {
        if (sc->priv->src[i].type != SRC_SURFACE) continue;
        mech_scene_item *it = &sc->items[i];
        double lo = it->radius, hi = it->length, o[3];
        memcpy(o, it->p[0], sizeof o);
        for (int k = 0; k < 3; k++) {
            it->p[0][k] = o[k] + lo * it->axis[k];
            it->p[1][k] = o[k] + hi * it->axis[k];
        }
        it->radius = it->length = 0;
    }
}

/* Von Mises stress of stresses (sx, sy, txy) with the out-of-plane stress sz. */
static double von_mises(double sx, double sy, double sz, double txy)
{
    double a = sx - sy, b = sy - sz, c = sz - sx;
    return sqrt(0.5 * (a * a + b * b + c * c) + 3 * txy * txy);
}

static void fill_mesh(const mech_system *sys, mech_scene_mesh *m, const double *q, const double *v)
{
    const fe_body *f = &sys->fes[m->fe];
    const mech_mesh *mesh = &f->mesh;
    for (int k = 0; k < 2 * m->nnodes; k++) {
        m->xy[k] = q[f->dof0 + k];
        m->disp[k] = m->xy[k] - mesh->xy[k];
        m->vel[k] = v[f->dof0 + k];
    }
    double D[9];
    mech_fe_elasticity(f->E, f->nu, f->plane_strain, D);
    for (int e = 0; e < m->nelems; e++) {
        int nn = mesh->nvert[e];
        double xy[8], u[8], eps[3], sg[3];
        for (int k = 0; k < nn; k++) {
            int n = mesh->conn[4 * e + k];
            for (int i = 0; i < 2; i++) {
                xy[2 * k + i] = mesh->xy[2 * n + i];
                u[2 * k + i] = m->disp[2 * n + i];
            }
        }
        mech_fe_strain(nn, xy, u, eps);
        for (int i = 0; i < 3; i++)
            sg[i] = D[3 * i] * eps[0] + D[3 * i + 1] * eps[1] + D[3 * i + 2] * eps[2];
        double sz = f->plane_strain ? f->nu * (sg[0] + sg[1]) : 0;
        m->von_mises[e] = von_mises(sg[0], sg[1], sz, sg[2]);
    }
}

mech_status mech_scene_update(mech_scene *sc, double t, const double *y, mech_error *err)
{
    if (sc == NULL || y == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "mech_scene_update: %s is NULL",
                              sc == NULL ? "the scene" : "the state y");
    mech_system *sys = sc->priv->sys;
    if (!sys->final)
        return mech_error_set(err, MECH_ERR_STATE,
                              "mech_scene_update: the system was changed since the scene was made "
                              "(finalize it and make a new scene)");
    int ns = sys->nstate;
    memcpy(sc->priv->y, y, (size_t)ns * sizeof(double));
    const double *q = sc->priv->y, *v = sc->priv->y + sys->nq;
    if (sys->ncontacts > 0) {
        /*
        ** The state's contacts are those it penetrates (between a run's located onset and end,
        ** a contact is active exactly while its gap is negative), whatever the system's
        ** history says now (as the run ended, say); an impact speed the history does not
        ** have is the closing speed at this state.  The history is put back after.
        */
        for (int k = 0; k < sys->ncontacts; k++) {
            contact *c = &sys->contacts[k];
            double gap, dd;
            sys->dops->contact_rates(sys, c, q, v, &gap, &dd);
            sc->priv->active[k] = c->active;
            sc->priv->impact[k] = c->impact_speed;
            if (!c->active && gap < 0) c->impact_speed = fmax(dd, 0.0);
            c->active = gap < 0;
        }
        mech_error e;
        mech_status st = mech_system_evaluate(sys, t, sc->priv->y, &e);
        for (int k = 0; k < sys->ncontacts; k++) {
            sys->contacts[k].active = sc->priv->active[k];
            sys->contacts[k].impact_speed = sc->priv->impact[k];
        }
        if (st) return mech_error_set(err, e.code, "mech_scene_update: at t = %.9g: %s", t, e.msg);
    }
    sc->t = t;
    for (int i = 0; i < sc->nbodies; i++) {
        mech_scene_body *b = &sc->bodies[i];
        const body *bd = &sys->bodies[b->id];
        sys->dops->body_frame(sys, b->id, q, b->pos, b->R);
        b->angle = sys->dim == 2 ? q[bd->q_at + 2] : 0;
    }
    for (int i = 0; i < sc->nitems; i++) fill_item(sc, i, q);
    fill_contacts(sc, q, v);
    for (int i = 0; i < sc->nmeshes; i++) fill_mesh(sys, &sc->meshes[i], q, v);
    return MECH_OK;
}

/* ---- creation and release ------------------------------------------------------------------ */

void mech_scene_free(mech_scene *sc)
{
    if (sc == NULL) return;
    if (sc->priv) {
        mech_system *sys = sc->priv->sys;
        /* the system's last evaluation read the scene's copy of the state: forget it */
        if (sys->y_eval == sc->priv->y && sc->priv->y) sys->q = sys->v = sys->y_eval = NULL;
        mech_free(sc->priv->y);
        mech_free(sc->priv->src);
        mech_free(sc->priv->surface);
        mech_free(sc->priv->active);
        mech_free(sc->priv->impact);
        mech_free(sc->priv);
    }
    for (int i = 0; sc->meshes && i < sc->nmeshes; i++) {
        mech_free(sc->meshes[i].xy);
        mech_free(sc->meshes[i].disp);
        mech_free(sc->meshes[i].vel);
        mech_free(sc->meshes[i].von_mises);
    }
    mech_free(sc->meshes);
    mech_free(sc->bodies);
    mech_free(sc->items);
    mech_free(sc->contacts);
    mech_free(sc);
}

/* n elements of size bytes each (at least one: mech_calloc's rule); NULL when out of memory. */
static void *array(int n, size_t size)
{
    return mech_calloc(n > 0 ? (size_t)n : 1, size);
}

mech_status mech_scene_create(const mech_system *sys, mech_scene **out, mech_error *err)
{
    if (out) *out = NULL;
    if (sys == NULL || out == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "mech_scene_create: %s is NULL",
                              sys == NULL ? "the system" : "the output pointer");
    if (!sys->final)
        return mech_error_set(err, MECH_ERR_STATE,
                              "mech_scene_create: the system is not finalized (call "
                              "mech_system_finalize first)");
    mech_scene *sc = mech_calloc(1, sizeof *sc);
    if (sc == NULL) goto nomem;
    sc->dim = sys->dim;
    sc->priv = mech_calloc(1, sizeof *sc->priv);
    if (sc->priv == NULL) goto nomem;
    sc->priv->sys = (mech_system *)sys; /* updates evaluate it: see mech_scene_update */
    for (int b = 1; b < sys->nbodies; b++) sc->nbodies += sys->bodies[b].fe < 0;
    add_items(sc, sys); /* counts */
    int nitems = sc->nitems;
    sc->ncontacts = sys->ncontacts;
    sc->nmeshes = sys->nfes;
    sc->priv->y = array(sys->nstate, sizeof(double));
    sc->priv->src = array(nitems, sizeof(src));
    sc->priv->surface = array(sys->ncontacts, sizeof(int));
    sc->priv->active = array(sys->ncontacts, sizeof(int));
    sc->priv->impact = array(sys->ncontacts, sizeof(double));
    sc->bodies = array(sc->nbodies, sizeof(mech_scene_body));
    sc->items = array(nitems, sizeof(mech_scene_item));
    sc->contacts = array(sc->ncontacts, sizeof(mech_scene_contact));
    sc->meshes = array(sc->nmeshes, sizeof(mech_scene_mesh));
    if (!sc->priv->y || !sc->priv->src || !sc->priv->surface || !sc->priv->active ||
        !sc->priv->impact || !sc->bodies || !sc->items || !sc->contacts || !sc->meshes)
        goto nomem;
    for (int i = 0; i < sc->nmeshes; i++) {
        const fe_body *f = &sys->fes[i];
        mech_scene_mesh *m = &sc->meshes[i];
        m->fe = i;
        m->nnodes = f->mesh.nnodes;
        m->nelems = f->mesh.nelems;
        m->nvert = f->mesh.nvert;
        m->conn = f->mesh.conn;
        m->xy = array(2 * m->nnodes, sizeof(double));
        m->disp = array(2 * m->nnodes, sizeof(double));
        m->vel = array(2 * m->nnodes, sizeof(double));
        m->von_mises = array(m->nelems, sizeof(double));
        if (!m->xy || !m->disp || !m->vel || !m->von_mises) goto nomem;
    }
    add_items(sc, sys); /* fills */
    for (int b = 1, i = 0; b < sys->nbodies; b++)
        if (sys->bodies[b].fe < 0) sc->bodies[i++].id = b;
    for (int k = 0; k < sc->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        sc->contacts[k].id = k;
        sc->contacts[k].kind = c->owner >= 0 ? MECH_KIND_JOINT : MECH_KIND_CONTACT;
        sc->contacts[k].owner = c->owner >= 0 ? c->owner : k;
    }
    mech_status st = mech_scene_update(sc, 0.0, sys->y0, err);
    if (st) {
        mech_scene_free(sc);
        return st;
    }
    *out = sc;
    return MECH_OK;
nomem:
    mech_scene_free(sc);
    return mech_error_set(err, MECH_ERR_NOMEM, "mech_scene_create: out of memory");
}

/* SPDX-License-Identifier: MIT */
/*
** The structure of a system's Jacobian for BDF (mech_jac_structure, mech_integ.h): which
** rates may depend on which states, at any state the run may reach, and the forces of the
** flexible bodies in closed form.
**
** The pattern is built body by body.  The generalized force on a body depends on the states
** of the bodies that an element shares with it (springs, loads, penalty joints, contacts with
** their bristle states, whether they touch now or not; a node and every node of its elements),
** gravity and inertia on its own.  A sticking contact's friction (MECH_FRICTION_STICK) holds
** against every other force on its body a, so it carries a's dependences to its body b too;
** these are followed to the end.  Bodies joined by Lagrange rows (ideal joints, drivers) form
** a component whose accelerations all depend, through the multipliers, on every force on the
** component and on the states of all its bodies: the component's rows are dense over that.
** Positions depend on their body's states (q' = N(q) u), a bristle state on its contact's two
** bodies and the bristles of its joint, a driver's work on its component, and the energy
** accounts on every state (they are outputs: BDF leaves their rows out).  User functions read
** only what they are given (a load its body's state, a spring's law its length and rate, a
** motion the time; what sys:value reads inside them is the last full evaluation, which no
** perturbed state changes), so they add nothing.
**
** The linear part: a node of a flexible body outside every component, with at most one
** sticking contact, against the ground, has internal forces -K (q - X) - (alpha M + beta K) u
** that only its own acceleration reads (and that contact's holding force).  In g those forces
** are held at their values at the Jacobian's point, so that its pattern loses the mesh, and L
** gives their part of the Jacobian there:
**     L = -M^-1 (I + phi t t^T) [K, beta K + alpha M]   on the node's rows,
** phi = d ft / d (t . Q) of its contact (-1 while holding the node, scaled by 1 - s on the
** ramp v_eps < |v_t| < 2 v_eps; 0 when sliding or at the limit mu_s F_N).  By the chain rule
** df/dy = dg/dy + L exactly at that point: the mesh's forces are linear (small strains: K is
** constant), and everything else f does with them g does with the same values.
*/
#include <stdlib.h>
#include <string.h>

#include "mech_contact.h"
#include "constraints.h"
#include "csr.h"
#include "dim.h"
#include "dynamics.h"
#include "system_jac.h"

/* ---- building ---------------------------------------------------------------------------- */

typedef struct ivec {
    int *v;
    int n, cap;
} ivec;

static int push(ivec *a, int x)
{
    if (!system_grow((void **)&a->v, &a->cap, a->n, sizeof(int))) return 0;
    a->v[a->n++] = x;
    return 1;
}

/* Lists by key: the entries (key, value) of pairs into start (nkeys + 1) and val. */
static int by_key(const ivec *pairs, int nkeys, int **start, int **val)
{
    int np = pairs->n / 2;
    *start = mech_calloc((size_t)nkeys + 1, sizeof(int));
    *val = mech_calloc((size_t)(np ? np : 1), sizeof(int));
    if (!*start || !*val) return 0;
    for (int p = 0; p < np; p++) (*start)[pairs->v[2 * p] + 1]++;
    for (int k = 0; k < nkeys; k++) (*start)[k + 1] += (*start)[k];
    int *fill = mech_calloc((size_t)nkeys + 1, sizeof(int));
    if (!fill) return 0;
    for (int p = 0; p < np; p++) {
        int k = pairs->v[2 * p];
        (*val)[(*start)[k] + fill[k]++] = pairs->v[2 * p + 1];
    }
    mech_free(fill);
    return 1;
}

static int root(int *parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* What the pattern's construction keeps. */
typedef struct build {
    mech_system *sys;
    int nb, n;
    int *parent;         /* union-find of the Lagrange components */
    unsigned char *lag;  /* per body: in a Lagrange row */
    int *adj_at, *adj;   /* per body: the bodies an element shares with it */
    int *inh_at, *inh;   /* per body b: the bodies a whose dependences b inherits (stick) */
    int *br_at, *br;     /* per body: the contacts whose bristle states its forces read */
    int *comp_at, *comp; /* per component root: its bodies */
    unsigned char *lin;  /* per body: a linear node (its internal forces are in L) */
    int *mark;           /* per state: the list it was last added to */
    int *bmark;          /* per body: the list whose sources it was last visited for */
    int *stack;
    ivec cols; /* the list being built */
    int stamp;
} build;

static int is_node(const mech_system *sys, int b)
{
    return b > 0 && sys->bodies[b].fe >= 0;
}

static int add_state(build *B, int i)
{
    if (B->mark[i] == B->stamp) return 1;
    B->mark[i] = B->stamp;
    return push(&B->cols, i);
}

static int add_body(build *B, int x)
{
    const body *bd = &B->sys->bodies[x];
    if (x <= 0 || bd->q_at < 0) return 1;
    for (int k = 0; k < bd->nq; k++)
        if (!add_state(B, bd->q_at + k)) return 0;
    for (int k = 0; k < bd->nu; k++)
        if (!add_state(B, B->sys->nq + bd->u_at + k)) return 0;
    return 1;
}

static int add_bristles(build *B, int k)
{
    const contact *c = &B->sys->contacts[k];
    int m = mech_friction_states(&c->flaw) * B->sys->dops->contact_tangents;
    for (int i = 0; c->bristle >= 0 && i < m; i++)
        if (!add_state(B, c->bristle + i)) return 0;
    return 1;
}

/*
** What the force on body b depends on, into the list: the bodies b inherits from (itself and,
** through sticking contacts, their a's, to the end), the states of every body their elements
** share with them, of the mesh of those of them that are nodes whose forces g computes (not
** linear ones), and the bristles their contacts read.
*/
static int add_force_deps(build *B, int b)
{
    const mech_system *sys = B->sys;
    int top = 0;
    if (B->bmark[b] == B->stamp) return 1;
    B->bmark[b] = B->stamp;
    B->stack[top++] = b;
    while (top > 0) {
        int s = B->stack[--top];
        if (!add_body(B, s)) return 0;
        for (int p = B->adj_at[s]; p < B->adj_at[s + 1]; p++)
            if (!add_body(B, B->adj[p])) return 0;
        for (int p = B->br_at[s]; p < B->br_at[s + 1]; p++)
            if (!add_bristles(B, B->br[p])) return 0;
        if (is_node(sys, s) && !B->lin[s]) {
            const fe_body *f = &sys->fes[sys->bodies[s].fe];
            int row = 2 * sys->bodies[s].node;
            for (int p = f->rowptr[row]; p < f->rowptr[row + 1]; p += 2)
                if (!add_body(B, f->body0 + f->col[p] / 2)) return 0;
        }
        for (int p = B->inh_at[s]; p < B->inh_at[s + 1]; p++) {
            int a = B->inh[p];
            if (B->bmark[a] != B->stamp) {
                B->bmark[a] = B->stamp;
                B->stack[top++] = a;
            }
        }
    }
    return 1;
}

/* The columns of body b's accelerations: its component's forces and bodies, or its own. */
static int add_acceleration_deps(build *B, int b)
{
    if (!B->lag[b]) return add_force_deps(B, b);
    int r = root(B->parent, b);
    for (int p = B->comp_at[r]; p < B->comp_at[r + 1]; p++)
        if (!add_body(B, B->comp[p]) || !add_force_deps(B, B->comp[p])) return 0;
    return 1;
}

/* Starts a new list. */
static void begin_list(build *B)
{
    B->stamp++;
    B->cols.n = 0;
}

static void free_build(build *B)
{
    mech_free(B->parent);
    mech_free(B->lag);
    mech_free(B->adj_at);
    mech_free(B->adj);
    mech_free(B->inh_at);
    mech_free(B->inh);
    mech_free(B->br_at);
    mech_free(B->br);
    mech_free(B->comp_at);
    mech_free(B->comp);
    mech_free(B->lin);
    mech_free(B->mark);
    mech_free(B->bmark);
    mech_free(B->stack);
    mech_free(B->cols.v);
}

/* Both ways, between moving bodies. */
static int edge(ivec *e, int a, int b)
{
    if (a <= 0 || b <= 0 || a == b) return 1;
    return push(e, a) && push(e, b) && push(e, b) && push(e, a);
}

/* The relations between bodies: components, elements, bristles, sticking contacts. */
static int relations(build *B, system_jac *J)
{
    mech_system *sys = B->sys;
    const int nb = B->nb;
    ivec edges = {0}, inh = {0}, br = {0}, comp = {0};
    int ok = 1;
    for (int b = 0; b < nb; b++) B->parent[b] = b;
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->row >= 0) {
            if (j->a > 0) B->lag[j->a] = 1;
            if (j->b > 0) B->lag[j->b] = 1;
            if (j->a > 0 && j->b > 0) B->parent[root(B->parent, j->a)] = root(B->parent, j->b);
        } else if (j->enforce == MECH_PENALTY) {
            ok = ok && edge(&edges, j->a, j->b);
        }
    }
    for (int i = 0; i < sys->ndrivers; i++) {
        int a, b;
        driver_bodies(sys, &sys->drivers[i], &a, &b);
        if (a > 0) B->lag[a] = 1;
        if (b > 0) B->lag[b] = 1;
        if (a > 0 && b > 0) B->parent[root(B->parent, a)] = root(B->parent, b);
    }
    for (int i = 0; i < sys->nforces; i++) {
        const force *f = &sys->forces[i];
        int x[4] = {f->a, f->type == MECH_LOAD ? f->a : f->b, f->a, f->a};
        if (f->joint >= 0) x[2] = sys->joints[f->joint].a, x[3] = sys->joints[f->joint].b;
        for (int u = 0; u < 4; u++)
            for (int v = u + 1; v < 4; v++) ok = ok && edge(&edges, x[u], x[v]);
    }
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        ok = ok && edge(&edges, c->a, c->b);
        int first = k, end = k + 1;
        if (c->owner >= 0) {
            const joint *j = &sys->joints[c->owner];
            first = j->contact0, end = j->contact0 + j->ncontact;
            ok = ok && edge(&edges, c->a, j->a) && edge(&edges, c->a, j->b) &&
                 edge(&edges, c->b, j->a) && edge(&edges, c->b, j->b);
        }
        for (int g = first; g < end; g++) {
            if (sys->contacts[g].bristle < 0) continue;
            if (c->a > 0) ok = ok && push(&br, c->a) && push(&br, g);
            if (c->b > 0) ok = ok && push(&br, c->b) && push(&br, g);
        }
        if (c->flaw.type == MECH_FRICTION_STICK) {
            /* its force reads a's other forces (b's when a is the ground) and acts on both */
            if (c->a > 0 && c->b > 0) ok = ok && push(&inh, c->b) && push(&inh, c->a);
            for (int s = 0; s < 2; s++) {
                int x = s ? c->b : c->a;
                if (!is_node(sys, x)) continue;
                int *stick = J->stick + J->node_at[sys->bodies[x].fe] + sys->bodies[x].node;
                /* a linear node: its only sticking contact is against the ground */
                *stick = (s == 0 && c->b == 0 && c->owner < 0 && *stick == -1) ? k : -2;
            }
        }
    }
    for (int b = 1; b < nb; b++) ok = ok && push(&comp, root(B->parent, b)) && push(&comp, b);
    ok = ok && by_key(&edges, nb, &B->adj_at, &B->adj) && by_key(&inh, nb, &B->inh_at, &B->inh) &&
         by_key(&br, nb, &B->br_at, &B->br) && by_key(&comp, nb, &B->comp_at, &B->comp);
    mech_free(edges.v);
    mech_free(inh.v);
    mech_free(br.v);
    mech_free(comp.v);
    return ok;
}

/* Appends the sorted list as row i's columns. */
static int emit(build *B, ivec *rows, int i)
{
    if (B->cols.n > 1) /* an empty list may have no array: qsort wants one */
        qsort(B->cols.v, (size_t)B->cols.n, sizeof(int), csr_cmp_int);
    for (int p = 0; p < B->cols.n; p++)
        if (!push(rows, i) || !push(rows, B->cols.v[p])) return 0;
    return 1;
}

/* Compressed columns from (row, column) pairs, rows ascending in each column. */
static int to_columns(const ivec *pairs, int n, int **colptr, int **rowind)
{
    int np = pairs->n / 2;
    *colptr = mech_calloc((size_t)n + 1, sizeof(int));
    *rowind = mech_calloc((size_t)(np ? np : 1), sizeof(int));
    int *fill = mech_calloc((size_t)n + 1, sizeof(int));
    if (!*colptr || !*rowind || !fill) {
        mech_free(fill);
        return 0;
    }
    for (int p = 0; p < np; p++) (*colptr)[pairs->v[2 * p + 1] + 1]++;
    for (int j = 0; j < n; j++) (*colptr)[j + 1] += (*colptr)[j];
    /* the pairs come row by row: each column fills in ascending rows */
    for (int p = 0; p < np; p++) {
        int j = pairs->v[2 * p + 1];
        (*rowind)[(*colptr)[j] + fill[j]++] = pairs->v[2 * p];
    }
    mech_free(fill);
    return 1;
}

/* g's pattern, row by row in state order. */
static int pattern(build *B, system_jac *J)
{
    mech_system *sys = B->sys;
    const int nq = sys->nq, nu = sys->nu;
    ivec rows = {0};
    int ok = 1;
    for (int i = 0; ok && i < nq; i++) { /* q' = N(q) u */
        begin_list(B);
        ok = add_body(B, system_position_body(sys, i)) && emit(B, &rows, i);
    }
    for (int i = 0; ok && i < nu;) { /* a body's accelerations, all its rows alike */
        int b = system_velocity_body(sys, i), nrow = sys->bodies[b].nu;
        begin_list(B);
        ok = add_acceleration_deps(B, b);
        for (int k = 0; ok && k < nrow; k++) ok = emit(B, &rows, nq + i + k);
        i += nrow;
    }
    for (int d = 0; ok && d < sys->ndrivers; d++) { /* a driver's work: its multiplier */
        int a, b;
        driver_bodies(sys, &sys->drivers[d], &a, &b);
        begin_list(B);
        ok = add_acceleration_deps(B, b > 0 ? b : a) && emit(B, &rows, sys->drivers[d].work);
    }
    begin_list(B); /* the energy accounts: every position, velocity and bristle */
    for (int i = 0; ok && i < nq + nu; i++) ok = add_state(B, i);
    for (int i = nq + nu + sys->nquad; ok && i < sys->nstate; i++) ok = add_state(B, i);
    for (int k = 0; ok && k < 4; k++) ok = emit(B, &rows, sys->iapplied + k);
    for (int k = 0; ok && k < sys->ncontacts; k++) { /* bristles: their contact, their joint */
        const contact *c = &sys->contacts[k];
        if (c->bristle < 0) continue;
        begin_list(B);
        ok = add_body(B, c->a) && add_body(B, c->b);
        int first = k, end = k + 1;
        if (c->owner >= 0) {
            const joint *j = &sys->joints[c->owner];
            first = j->contact0, end = j->contact0 + j->ncontact;
            ok = ok && add_body(B, j->a) && add_body(B, j->b);
        }
        for (int g = first; ok && g < end; g++) ok = add_bristles(B, g);
        int m = mech_friction_states(&c->flaw) * sys->dops->contact_tangents;
        for (int r = 0; ok && r < m; r++) ok = emit(B, &rows, c->bristle + r);
    }
    ok = ok && to_columns(&rows, sys->nstate, &J->colptr, &J->rowind);
    mech_free(rows.v);
    return ok;
}

/*
** L's pattern: each linear node's two rows over the positions and velocities of the columns of
** either row of its stiffness (fe.c gives both the same columns: 2 x 2 blocks); and where each
** stiffness entry of its rows goes in L: by construction in the pattern of both rows, so that
** every lpos is a place in L.
*/
static int linear_part(build *B, system_jac *J)
{
    mech_system *sys = B->sys;
    const int nq = sys->nq;
    ivec rows = {0};
    int ok = 1;
    for (int f = 0; ok && f < sys->nfes; f++) {
        const fe_body *fb = &sys->fes[f];
        for (int k = 0; ok && k < fb->mesh.nnodes; k++) {
            if (!J->linear[J->node_at[f] + k]) continue;
            const body *bd = &sys->bodies[fb->body0 + k];
            begin_list(B);
            for (int p = fb->rowptr[2 * k]; ok && p < fb->rowptr[2 * k + 2]; p++) {
                const body *bj = &sys->bodies[fb->body0 + fb->col[p] / 2];
                int c = fb->col[p] % 2;
                ok = add_state(B, bj->q_at + c) && add_state(B, nq + bj->u_at + c);
            }
            for (int r = 0; ok && r < 2; r++) ok = emit(B, &rows, nq + bd->u_at + r);
        }
    }
    J->nlin = rows.n / 2;
    ok = ok && to_columns(&rows, sys->nstate, &J->lcolptr, &J->lrowind);
    mech_free(rows.v);
    for (int f = 0; ok && f < sys->nfes; f++) {
        const fe_body *fb = &sys->fes[f];
        for (int k = 0; k < fb->mesh.nnodes; k++) {
            if (!J->linear[J->node_at[f] + k]) continue;
            int ru = nq + sys->bodies[fb->body0 + k].u_at;
            for (int p = fb->rowptr[2 * k]; p < fb->rowptr[2 * k + 2]; p++) {
                const body *bj = &sys->bodies[fb->body0 + fb->col[p] / 2];
                int c = fb->col[p] % 2, *lp = J->lpos + 4 * ((size_t)J->k_at[f] + (size_t)p);
                const int jq = bj->q_at + c, ju = nq + bj->u_at + c;
                for (int r = 0; r < 2; r++) {
                    lp[r] = csr_find(J->lrowind, J->lcolptr[jq], J->lcolptr[jq + 1], ru + r);
                    lp[2 + r] = csr_find(J->lrowind, J->lcolptr[ju], J->lcolptr[ju + 1], ru + r);
                }
            }
        }
    }
    return ok;
}

void system_jac_free(mech_system *sys)
{
    system_jac *J = sys->jac;
    if (!J) return;
    mech_free(J->colptr);
    mech_free(J->rowind);
    mech_free(J->lcolptr);
    mech_free(J->lrowind);
    mech_free(J->node_at);
    mech_free(J->k_at);
    mech_free(J->linear);
    mech_free(J->stick);
    mech_free(J->q0);
    mech_free(J->lpos);
    mech_free(J);
    sys->jac = NULL;
}

static mech_status build_jac(mech_system *sys, mech_error *err)
{
    system_jac *J = sys->jac = mech_calloc(1, sizeof *J);
    if (!J) return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory for the Jacobian");
    J->node_at = mech_calloc((size_t)sys->nfes + 1, sizeof(int));
    J->k_at = mech_calloc((size_t)sys->nfes + 1, sizeof(int));
    int ok = J->node_at && J->k_at;
    for (int f = 0; ok && f < sys->nfes; f++) {
        const fe_body *fb = &sys->fes[f];
        J->node_at[f + 1] = J->node_at[f] + fb->mesh.nnodes;
        J->k_at[f + 1] = J->k_at[f] + fb->rowptr[2 * fb->mesh.nnodes];
    }
    size_t nn = ok ? (size_t)J->node_at[sys->nfes] : 0, nk = ok ? (size_t)J->k_at[sys->nfes] : 0;
    J->linear = mech_calloc(nn ? nn : 1, 1);
    J->stick = mech_calloc(nn ? nn : 1, sizeof(int));
    J->q0 = mech_calloc(nn ? 2 * nn : 1, sizeof(double));
    J->lpos = mech_calloc(nk ? 4 * nk : 1, sizeof(int));
    ok = ok && J->linear && J->stick && J->q0 && J->lpos;
    for (size_t i = 0; ok && i < nn; i++) J->stick[i] = -1;
    for (size_t i = 0; ok && i < 4 * nk; i++) J->lpos[i] = -1;

    build B;
    memset(&B, 0, sizeof B);
    B.sys = sys;
    B.nb = sys->nbodies;
    B.n = sys->nstate;
    size_t nb = (size_t)B.nb;
    B.parent = mech_calloc(nb, sizeof(int));
    B.lag = mech_calloc(nb, 1);
    B.lin = mech_calloc(nb, 1);
    B.mark = mech_calloc((size_t)B.n + 1, sizeof(int));
    B.bmark = mech_calloc(nb, sizeof(int));
    B.stack = mech_calloc(nb, sizeof(int));
    ok = ok && B.parent && B.lag && B.lin && B.mark && B.bmark && B.stack && relations(&B, J);
    for (int b = 1; ok && b < B.nb; b++) {
        if (!is_node(sys, b)) continue;
        int i = J->node_at[sys->bodies[b].fe] + sys->bodies[b].node;
        B.lin[b] = J->linear[i] = !B.lag[b] && J->stick[i] != -2;
        if (J->stick[i] < 0) J->stick[i] = -1;
    }
    ok = ok && pattern(&B, J) && linear_part(&B, J);
    free_build(&B);
    if (!ok) {
        system_jac_free(sys);
        return mech_error_set(err, MECH_ERR_NOMEM, "system: out of memory for the Jacobian");
    }
    return MECH_OK;
}

/* ---- the functions ------------------------------------------------------------------------- */

/* g: the right-hand side with the linear nodes' internal forces held at the kept ones. */
static int jac_remainder(void *ctx, double t, const double *y, double *ydot)
{
    mech_system *sys = ctx;
    sys->jac->mode = JAC_FROZEN;
    int rc = dynamics(sys, t, y, ydot, 0);
    sys->jac->mode = JAC_LIVE;
    return rc;
}

/* At the Jacobian's point: g = f (the forces kept as they are there), and L's values. */
static int jac_linearize(void *ctx, double t, const double *y, double *gdot, double *lval)
{
    mech_system *sys = ctx;
    system_jac *J = sys->jac;
    J->mode = JAC_CAPTURE;
    int rc = dynamics(sys, t, y, gdot, 0);
    J->mode = JAC_LIVE;
    if (rc) return rc;
    memset(lval, 0, sizeof(double) * (size_t)J->nlin);
    for (int f = 0; f < sys->nfes; f++) {
        const fe_body *fb = &sys->fes[f];
        for (int k = 0; k < fb->mesh.nnodes; k++) {
            int i = J->node_at[f] + k;
            if (!J->linear[i]) continue;
            const double *mi = sys->minv + sys->bodies[fb->body0 + k].u_at;
            double P[2][2] = {{1, 0}, {0, 1}}; /* d (the node's force) / d (the mesh's force) */
            if (J->stick[i] >= 0) {
                const contact *c = &sys->contacts[J->stick[i]];
                for (int r = 0; r < 2; r++)
                    for (int s = 0; s < 2; s++)
                        P[r][s] += c->dft_dother * c->t_stick[r] * c->t_stick[s];
            }
            for (int rp = 0; rp < 2; rp++) {
                int row = 2 * k + rp;
                for (int p = fb->rowptr[row]; p < fb->rowptr[row + 1]; p++) {
                    double kv = fb->val[p], cv = fb->beta * kv;
                    if (fb->col[p] == row) cv += fb->alpha * fb->mass[k];
                    const int *lp = J->lpos + 4 * ((size_t)J->k_at[f] + (size_t)p);
                    for (int r = 0; r < 2; r++) {
                        double coef = -mi[r] * P[r][rp];
                        lval[lp[r]] += coef * kv;
                        lval[lp[2 + r]] += coef * cv;
                    }
                }
            }
        }
    }
    return 0;
}

mech_status system_jac_structure(mech_system *sys, mech_jac_structure *js, mech_error *err)
{
    memset(js, 0, sizeof *js);
    if (!sys->final) return mech_error_set(err, MECH_ERR_STATE, "system: not finalized");
    mech_status st;
    if (!sys->jac && (st = build_jac(sys, err))) return st;
    const system_jac *J = sys->jac;
    js->colptr = J->colptr;
    js->rowind = J->rowind;
    js->ctx = sys;
    if (J->nlin > 0) {
        js->lin_colptr = J->lcolptr;
        js->lin_rowind = J->lrowind;
        js->linearize = jac_linearize;
        js->remainder = jac_remainder;
    }
    return MECH_OK;
}

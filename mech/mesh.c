/* SPDX-License-Identifier: MIT */
/*
** Planar meshes (mech_mesh.h): the plain-data mesh, the structured rectangle mesher, the
** checks of a mesh given by hand and the gmsh reader (ASCII MSH 2.2 and 4.1).
**
** The reader loads the whole file, reads it token by token keeping the line number of
** each token for the messages, and collects nodes, elements, physical names and (4.1)
** the physical tags of the geometric entities into growing arrays: no count read from
** the file is trusted for an allocation, so a header announcing a billion nodes ends
** at the end of the file with a message, not with a huge allocation.  The mesh is then
** built from the surface elements: the nodes they use renumbered in the order of their
** file numbers, clockwise elements turned around, elements listed twice (MSH 2.2 repeats
** an element for each physical group it belongs to) kept once, and one group per
** physical group.
*/
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_mesh.h"

/* Most elements (and nodes) a structured mesh or a file may give. */
#define RECT_MAX_ELEMS 10000000
#define MSH_MAX_ITEMS  (1 << 28)
/* Largest file read: the line numbers and sizes stay in int. */
#define MSH_MAX_BYTES (INT_MAX / 2)

/* An element whose area is below this fraction of its longest edge squared is degenerate
** (the rounding of collinear corners gives a few 1e-16). */
#define AREA_REL_TOL 1e-12

/* ---- the mesh as data ------------------------------------------------------------------ */

mech_mesh mech_mesh_empty(void)
{
    mech_mesh m;
    memset(&m, 0, sizeof m);
    return m;
}

void mech_mesh_free(mech_mesh *m)
{
    if (m == NULL) return;
    for (int g = 0; g < m->ngroups && m->groups; g++) {
        mech_free(m->groups[g].nodes);
        mech_free(m->groups[g].elems);
    }
    mech_free(m->groups);
    mech_free(m->xy);
    mech_free(m->tag);
    mech_free(m->nvert);
    mech_free(m->conn);
    *m = mech_mesh_empty();
}

/* A copy of n items of src (NULL when there are none); sets *failed when memory runs out. */
static void *copy_items(const void *src, size_t n, size_t size, int *failed)
{
    if (n == 0 || src == NULL) return NULL;
    void *p = mech_malloc(n * size);
    if (p == NULL)
        *failed = 1;
    else
        memcpy(p, src, n * size);
    return p;
}

mech_status mech_mesh_copy(mech_mesh *dst, const mech_mesh *src, mech_error *err)
{
    if (dst == NULL || src == NULL) return mech_error_set(err, MECH_ERR_ARG, "mesh: no mesh");
    *dst = mech_mesh_empty();
    if (src->nnodes < 0 || src->nelems < 0 || src->ngroups < 0)
        return mech_error_set(err, MECH_ERR_ARG, "mesh: negative counts");
    int failed = 0;
    size_t nn = (size_t)src->nnodes, ne = (size_t)src->nelems;
    dst->nnodes = src->nnodes;
    dst->nelems = src->nelems;
    dst->xy = copy_items(src->xy, 2 * nn, sizeof(double), &failed);
    dst->tag = copy_items(src->tag, nn, sizeof(int), &failed);
    dst->nvert = copy_items(src->nvert, ne, sizeof(int), &failed);
    dst->conn = copy_items(src->conn, 4 * ne, sizeof(int), &failed);
    if (src->ngroups > 0 && src->groups) {
        dst->groups = mech_calloc((size_t)src->ngroups, sizeof *dst->groups);
        if (dst->groups == NULL) failed = 1;
        for (int g = 0; dst->groups && g < src->ngroups; g++) {
            const mech_mesh_group *s = &src->groups[g];
            mech_mesh_group *d = &dst->groups[g];
            *d = *s;
            d->nodes =
                copy_items(s->nodes, s->nnodes > 0 ? (size_t)s->nnodes : 0, sizeof(int), &failed);
            d->elems =
                copy_items(s->elems, s->nelems > 0 ? (size_t)s->nelems : 0, sizeof(int), &failed);
            dst->ngroups = g + 1;
        }
    }
    if (failed) {
        mech_mesh_free(dst);
        return mech_error_set(err, MECH_ERR_NOMEM, "mesh: out of memory");
    }
    return MECH_OK;
}

int mech_mesh_find_group(const mech_mesh *m, const char *name)
{
    if (m == NULL || name == NULL || m->groups == NULL) return -1;
    for (int g = 0; g < m->ngroups; g++)
        if (strncmp(m->groups[g].name, name, MECH_MESH_NAME_MAX) == 0) return g;
    return -1;
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts a[n] and removes duplicates; returns the new count. */
static int sort_unique(int *a, int n)
{
    if (n <= 1) return n;
    qsort(a, (size_t)n, sizeof *a, compare_int);
    int k = 1;
    for (int i = 1; i < n; i++)
        if (a[i] != a[k - 1]) a[k++] = a[i];
    return k;
}

/* Fills group g (name, dim, arrays of nnodes and nelems ints); 0 when memory runs out. */
static int group_alloc(mech_mesh_group *g, const char *name, int dim, int tag, int nnodes,
                       int nelems)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->dim = dim;
    g->tag = tag;
    g->nnodes = nnodes;
    g->nelems = nelems;
    g->nodes = nnodes > 0 ? mech_malloc((size_t)nnodes * sizeof(int)) : NULL;
    g->elems = nelems > 0 ? mech_malloc((size_t)nelems * sizeof(int)) : NULL;
    return (nnodes == 0 || g->nodes) && (nelems == 0 || g->elems);
}

static int compare_group(const void *a, const void *b)
{
    return strcmp(((const mech_mesh_group *)a)->name, ((const mech_mesh_group *)b)->name);
}

mech_status mech_mesh_tidy_groups(mech_mesh *m, mech_error *err)
{
    for (int i = 0; i < m->ngroups; i++) {
        mech_mesh_group *g = &m->groups[i];
        if (g->elems == NULL) g->nelems = 0; /* a count without its list counts nothing */
        if (g->nodes == NULL) g->nnodes = 0;
        for (int k = 0; k < g->nelems; k++)
            if (g->elems[k] < 0 || g->elems[k] >= m->nelems)
                return mech_error_set(err, MECH_ERR_ARG,
                                      "set '%s': element %d does not exist (the mesh has %d)",
                                      g->name, g->elems[k] + 1, m->nelems);
            else if (m->nvert[g->elems[k]] != 3 && m->nvert[g->elems[k]] != 4)
                return mech_error_set(err, MECH_ERR_ARG, "element %d: %d corners (3 or 4 expected)",
                                      g->elems[k] + 1, m->nvert[g->elems[k]]);
        for (int k = 0; k < g->nnodes; k++)
            if (g->nodes[k] < 0 || g->nodes[k] >= m->nnodes)
                return mech_error_set(err, MECH_ERR_ARG,
                                      "set '%s': node %d does not exist (the mesh has %d)", g->name,
                                      g->nodes[k] + 1, m->nnodes);
        g->nelems = sort_unique(g->elems, g->nelems);
        if (g->nodes == NULL && g->nelems > 0) { /* the nodes of its elements */
            int n = 0;
            for (int e = 0; e < g->nelems; e++) n += m->nvert[g->elems[e]];
            g->nodes = mech_malloc((size_t)n * sizeof(int));
            if (g->nodes == NULL)
                return mech_error_set(err, MECH_ERR_NOMEM, "set '%s': out of memory", g->name);
            n = 0;
            for (int e = 0; e < g->nelems; e++)
                for (int k = 0; k < m->nvert[g->elems[e]]; k++)
                    g->nodes[n++] = m->conn[4 * g->elems[e] + k];
            g->nnodes = n;
        }
        g->nnodes = sort_unique(g->nodes, g->nnodes);
    }
    if (m->ngroups > 1) qsort(m->groups, (size_t)m->ngroups, sizeof *m->groups, compare_group);
    return MECH_OK;
}

/* ---- element geometry -------------------------------------------------------------------- */

/* Twice the signed area of the polygon of nv corners c[] (positive counter-clockwise),
** and the longest edge squared in *edge2. */
static double twice_area(const double *xy, const int *c, int nv, double *edge2)
{
    double a = 0, l2 = 0;
    for (int k = 0; k < nv; k++) {
        const double *p = xy + 2 * c[k], *q = xy + 2 * c[(k + 1) % nv];
        a += p[0] * q[1] - q[0] * p[1];
        double dx = q[0] - p[0], dy = q[1] - p[1];
        if (dx * dx + dy * dy > l2) l2 = dx * dx + dy * dy;
    }
    if (edge2) *edge2 = l2;
    return a;
}

/*
** What is wrong with the shape of an element whose corners exist and are distinct: 0, or
** 1 with the end of a sentence written to why ("is inverted (area ...)"), naming nodes
** by tag[] (from 1 when NULL).  Corners must turn counter-clockwise: positive area, and
** for a quadrilateral every corner convex.
*/
static int element_shape(const double *xy, const int *tag, const int *c, int nv, char *why,
                         size_t size)
{
    double l2, area = 0.5 * twice_area(xy, c, nv, &l2);
    double tol = AREA_REL_TOL * l2;
    if (area < -tol) {
        snprintf(why, size, "is inverted (area %g m^2 < 0: corners listed clockwise)", area);
        return 1;
    }
    if (!(area > tol)) {
        snprintf(why, size, "is degenerate (area %g m^2)", area);
        return 1;
    }
    if (nv == 4)
        for (int k = 0; k < 4; k++) {
            const double *p = xy + 2 * c[(k + 3) % 4], *q = xy + 2 * c[k],
                         *s = xy + 2 * c[(k + 1) % 4];
            double turn = (q[0] - p[0]) * (s[1] - q[1]) - (q[1] - p[1]) * (s[0] - q[0]);
            if (!(turn > tol)) {
                snprintf(why, size, "is not convex (its angle at node %d is 180 degrees or more)",
                         tag ? tag[c[k]] : c[k] + 1);
                return 1;
            }
        }
    return 0;
}

/* ---- the structured mesher --------------------------------------------------------------- */

mech_rectangle_def mech_rectangle_default(void)
{
    mech_rectangle_def d;
    memset(&d, 0, sizeof d);
    d.size[0] = d.size[1] = 1;
    d.nx = d.ny = 1;
    d.numbering = MECH_ROWS_FROM_TOP;
    return d;
}

/* Node at column i (0 left) and row j (0 bottom) of a grid of nx by ny cells. */
static int grid_node(const mech_rectangle_def *d, int i, int j)
{
    int row = d->numbering == MECH_ROWS_FROM_TOP ? d->ny - j : j;
    return row * (d->nx + 1) + i;
}

/* Cell at column i and row j (from the bottom), numbered like the nodes. */
static int grid_cell(const mech_rectangle_def *d, int i, int j)
{
    int row = d->numbering == MECH_ROWS_FROM_TOP ? d->ny - 1 - j : j;
    return row * d->nx + i;
}

static mech_status check_rectangle(const mech_rectangle_def *d, mech_error *err)
{
    if (!(isfinite(d->origin[0]) && isfinite(d->origin[1])))
        return mech_error_set(err, MECH_ERR_ARG,
                              "mesh.rectangle: the origin must be finite (got %g, %g)",
                              d->origin[0], d->origin[1]);
    if (!(isfinite(d->size[0]) && isfinite(d->size[1]) && d->size[0] > 0 && d->size[1] > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "mesh.rectangle: the width and height must be finite and > 0 (got "
                              "%g x %g)",
                              d->size[0], d->size[1]);
    if (!(isfinite(d->origin[0] + d->size[0]) && isfinite(d->origin[1] + d->size[1])))
        return mech_error_set(err, MECH_ERR_ARG,
                              "mesh.rectangle: the far corner is not a finite point");
    if (d->nx < 1)
        return mech_error_set(err, MECH_ERR_ARG,
                              "mesh.rectangle: nx must be an integer >= 1 (got %d)", d->nx);
    if (d->ny < 1)
        return mech_error_set(err, MECH_ERR_ARG,
                              "mesh.rectangle: ny must be an integer >= 1 (got %d)", d->ny);
    if ((long long)d->nx * d->ny > RECT_MAX_ELEMS)
        return mech_error_set(err, MECH_ERR_ARG,
                              "mesh.rectangle: nx ny = %lld cells is too many (at most %d)",
                              (long long)d->nx * d->ny, RECT_MAX_ELEMS);
    if (d->numbering != MECH_ROWS_FROM_TOP && d->numbering != MECH_ROWS_FROM_BOTTOM)
        return mech_error_set(err, MECH_ERR_ARG, "mesh.rectangle: unknown numbering %d",
                              (int)d->numbering);
    return MECH_OK;
}

mech_status mech_mesh_rectangle(mech_mesh *out, const mech_rectangle_def *def, mech_error *err)
{
    if (out == NULL || def == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "mesh.rectangle: no mesh or definition");
    *out = mech_mesh_empty();
    mech_status st = check_rectangle(def, err);
    if (st) return st;
    const mech_rectangle_def *d = def;
    int nx = d->nx, ny = d->ny, per_cell = d->triangles ? 2 : 1;
    int nn = (nx + 1) * (ny + 1), ne = per_cell * nx * ny;
    mech_mesh m = mech_mesh_empty();
    m.nnodes = nn;
    m.nelems = ne;
    m.xy = mech_malloc(2 * (size_t)nn * sizeof(double));
    m.nvert = mech_malloc((size_t)ne * sizeof(int));
    m.conn = mech_malloc(4 * (size_t)ne * sizeof(int));
    m.groups = mech_calloc(6, sizeof *m.groups);
    if (!m.xy || !m.nvert || !m.conn || !m.groups) goto nomem;

    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++) {
            double *p = m.xy + 2 * grid_node(d, i, j);
            /* i/nx and j/ny reach exactly 1 on the far sides */
            p[0] = d->origin[0] + d->size[0] * ((double)i / nx);
            p[1] = d->origin[1] + d->size[1] * ((double)j / ny);
        }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int ll = grid_node(d, i, j), lr = grid_node(d, i + 1, j);
            int ur = grid_node(d, i + 1, j + 1), ul = grid_node(d, i, j + 1);
            int e = per_cell * grid_cell(d, i, j);
            int *c = m.conn + 4 * e;
            if (d->triangles) { /* lower-right triangle first, both from the lower-left */
                m.nvert[e] = m.nvert[e + 1] = 3;
                c[0] = ll, c[1] = lr, c[2] = ur, c[3] = -1;
                c[4] = ll, c[5] = ur, c[6] = ul, c[7] = -1;
            } else {
                m.nvert[e] = 4;
                c[0] = ll, c[1] = lr, c[2] = ur, c[3] = ul;
            }
        }

    /* groups: sides (dim 1), corners (dim 0), everything (dim 2) */
    static const char *const sides[] = {"top", "bottom", "left", "right"};
    for (int s = 0; s < 4; s++) {
        int n = s < 2 ? nx + 1 : ny + 1;
        mech_mesh_group *g = &m.groups[m.ngroups++];
        if (!group_alloc(g, sides[s], 1, 0, n, 0)) goto nomem;
        for (int k = 0; k < n; k++)
            g->nodes[k] = s == 0   ? grid_node(d, k, ny)
                          : s == 1 ? grid_node(d, k, 0)
                          : s == 2 ? grid_node(d, 0, k)
                                   : grid_node(d, nx, k);
        sort_unique(g->nodes, n);
    }
    mech_mesh_group *g = &m.groups[m.ngroups++];
    if (!group_alloc(g, "corners", 0, 0, 4, 0)) goto nomem;
    g->nodes[0] = grid_node(d, 0, 0);
    g->nodes[1] = grid_node(d, nx, 0);
    g->nodes[2] = grid_node(d, nx, ny);
    g->nodes[3] = grid_node(d, 0, ny);
    sort_unique(g->nodes, 4);
    g = &m.groups[m.ngroups++];
    if (!group_alloc(g, "all", 2, 0, nn, ne)) goto nomem;
    for (int k = 0; k < nn; k++) g->nodes[k] = k;
    for (int k = 0; k < ne; k++) g->elems[k] = k;
    *out = m;
    return MECH_OK;

nomem:
    mech_mesh_free(&m);
    return mech_error_set(err, MECH_ERR_NOMEM,
                          "mesh.rectangle: out of memory (%d nodes, %d elements)", nn, ne);
}

/* ---- checks -------------------------------------------------------------------------------- */

/* Checks that a[n] holds sorted distinct numbers in [0, max). */
static int sorted_in_range(const int *a, int n, int max, int *bad)
{
    for (int k = 0; k < n; k++) {
        if (a[k] < 0 || a[k] >= max) {
            *bad = a[k];
            return 0;
        }
        if (k > 0 && a[k] <= a[k - 1]) {
            *bad = INT_MIN;
            return 0;
        }
    }
    return 1;
}

static mech_status check_groups(const mech_mesh *m, mech_error *err)
{
    if (m->ngroups < 0 || (m->ngroups > 0 && m->groups == NULL))
        return mech_error_set(err, MECH_ERR_ARG, "the mesh's groups are missing");
    for (int i = 0; i < m->ngroups; i++) {
        const mech_mesh_group *g = &m->groups[i];
        if (memchr(g->name, '\0', sizeof g->name) == NULL || g->name[0] == '\0')
            return mech_error_set(err, MECH_ERR_ARG, "group %d has no name (or one too long)",
                                  i + 1);
        for (int k = 0; k < i; k++)
            if (strcmp(m->groups[k].name, g->name) == 0)
                return mech_error_set(err, MECH_ERR_ARG, "two groups are named '%s'", g->name);
        if (g->dim < 0 || g->dim > 2)
            return mech_error_set(err, MECH_ERR_ARG, "group '%s': dim must be 0, 1 or 2 (got %d)",
                                  g->name, g->dim);
        if (g->nnodes < 0 || (g->nnodes > 0 && g->nodes == NULL) || g->nelems < 0 ||
            (g->nelems > 0 && g->elems == NULL))
            return mech_error_set(err, MECH_ERR_ARG, "group '%s': its lists are missing", g->name);
        if (g->nelems > 0 && g->dim != 2)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "group '%s': only a group of dim 2 lists elements", g->name);
        int bad;
        if (!sorted_in_range(g->nodes, g->nnodes, m->nnodes, &bad))
            return bad == INT_MIN
                       ? mech_error_set(err, MECH_ERR_ARG,
                                        "group '%s': its nodes must be sorted and distinct",
                                        g->name)
                       : mech_error_set(err, MECH_ERR_ARG,
                                        "group '%s': node %d does not exist (the mesh has %d "
                                        "nodes)",
                                        g->name, bad + 1, m->nnodes);
        if (!sorted_in_range(g->elems, g->nelems, m->nelems, &bad))
            return bad == INT_MIN
                       ? mech_error_set(err, MECH_ERR_ARG,
                                        "group '%s': its elements must be sorted and distinct",
                                        g->name)
                       : mech_error_set(err, MECH_ERR_ARG,
                                        "group '%s': element %d does not exist (the mesh has %d "
                                        "elements)",
                                        g->name, bad + 1, m->nelems);
    }
    return MECH_OK;
}

mech_status mech_mesh_check(const mech_mesh *m, mech_error *err)
{
    if (m == NULL) return mech_error_set(err, MECH_ERR_ARG, "no mesh");
    if (m->nnodes < 1 || m->xy == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "the mesh has no nodes");
    if (m->nelems < 1 || m->nvert == NULL || m->conn == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "the mesh has no elements");
    for (int i = 0; i < m->nnodes; i++)
        if (!(isfinite(m->xy[2 * i]) && isfinite(m->xy[2 * i + 1])))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "node %d: its coordinates must be finite (got %g, %g)", i + 1,
                                  m->xy[2 * i], m->xy[2 * i + 1]);
    for (int e = 0; e < m->nelems; e++) {
        int nv = m->nvert[e];
        const int *c = m->conn + 4 * e;
        if (nv != 3 && nv != 4)
            return mech_error_set(err, MECH_ERR_ARG, "element %d has %d nodes (expected 3 or 4)",
                                  e + 1, nv);
        if (nv == 3 && c[3] != -1)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "element %d is a triangle: its fourth entry must be -1 (got %d)",
                                  e + 1, c[3]);
        for (int k = 0; k < nv; k++) {
            if (c[k] < 0 || c[k] >= m->nnodes)
                return mech_error_set(err, MECH_ERR_ARG,
                                      "element %d: node %d does not exist (the mesh has %d nodes)",
                                      e + 1, c[k] + 1, m->nnodes);
            for (int l = 0; l < k; l++)
                if (c[l] == c[k])
                    return mech_error_set(err, MECH_ERR_ARG, "element %d repeats node %d", e + 1,
                                          c[k] + 1);
        }
        char why[160];
        if (element_shape(m->xy, NULL, c, nv, why, sizeof why))
            return mech_error_set(err, MECH_ERR_ARG, "element %d %s", e + 1, why);
    }
    unsigned char *used = mech_calloc((size_t)m->nnodes, 1);
    if (used == NULL) return mech_error_set(err, MECH_ERR_NOMEM, "mesh check: out of memory");
    for (int e = 0; e < m->nelems; e++)
        for (int k = 0; k < m->nvert[e]; k++) used[m->conn[4 * e + k]] = 1;
    int unused = -1;
    for (int i = 0; i < m->nnodes && unused < 0; i++)
        if (!used[i]) unused = i;
    mech_free(used);
    if (unused >= 0)
        return mech_error_set(err, MECH_ERR_ARG, "node %d is not used by any element", unused + 1);
    return check_groups(m, err);
}

/* ---- gmsh files: reading tokens ----------------------------------------------------------- */

typedef struct reader {
    const char *path;
    const char *buf;
    size_t len, pos;
    int line;            /* line of the cursor (from 1) */
    int tokline;         /* line of the last token read */
    const char *section; /* the section being read, for messages */
    mech_error *err;
} reader;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static mech_status
fail_code(reader *r, mech_status code, int line, const char *fmt, ...)
{
    char msg[MECH_ERROR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0) return mech_error_set(r->err, code, "%s:%d: %s", r->path, line, msg);
    return mech_error_set(r->err, code, "%s: %s", r->path, msg);
}

#define fail(r, line, ...) fail_code(r, MECH_ERR_ARG, line, __VA_ARGS__)

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void skip_space(reader *r)
{
    while (r->pos < r->len && is_space(r->buf[r->pos])) {
        if (r->buf[r->pos] == '\n') r->line++;
        r->pos++;
    }
}

/* The next whitespace-separated token: 1 with *s and *n set, 0 at the end of the file. */
static int next_token(reader *r, const char **s, size_t *n)
{
    skip_space(r);
    if (r->pos >= r->len) return 0;
    size_t start = r->pos;
    while (r->pos < r->len && !is_space(r->buf[r->pos])) r->pos++;
    *s = r->buf + start;
    *n = r->pos - start;
    r->tokline = r->line;
    return 1;
}

/* A token as printable text for a message (at most 40 characters). */
static void shown(const char *s, size_t n, char out[48])
{
    size_t k = 0;
    for (; k < n && k < 40; k++) {
        unsigned char c = (unsigned char)s[k];
        out[k] = c >= 32 && c < 127 ? (char)c : '?';
    }
    if (n > 40) out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k] = '\0';
}

static mech_status fail_eof(reader *r, const char *what)
{
    return fail(r, r->tokline, "the file ends in %s (expected %s)", r->section, what);
}

static mech_status fail_token(reader *r, const char *s, size_t n, const char *what)
{
    char tok[48];
    shown(s, n, tok);
    return fail(r, r->tokline, "expected %s, got '%s'", what, tok);
}

/* Reads an integer in [lo, hi] into *out; 0 (error set) otherwise.  what: "a node tag". */
static int read_ll(reader *r, const char *what, long long lo, long long hi, long long *out)
{
    const char *s;
    size_t n;
    char desc[160];
    if (hi == LLONG_MAX)
        snprintf(desc, sizeof desc, "%s (an integer >= %lld)", what, lo);
    else
        snprintf(desc, sizeof desc, "%s (an integer from %lld to %lld)", what, lo, hi);
    if (!next_token(r, &s, &n)) return fail_eof(r, desc), 0;
    char buf[32];
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        errno = 0;
        long long v = strtoll(buf, &end, 10);
        if (end == buf + n && errno == 0 && v >= lo && v <= hi) {
            *out = v;
            return 1;
        }
    }
    return fail_token(r, s, n, desc), 0;
}

static int read_int(reader *r, const char *what, int lo, int hi, int *out)
{
    long long v;
    if (!read_ll(r, what, lo, hi, &v)) return 0;
    *out = (int)v;
    return 1;
}

/* Counts of items: never used to allocate, only to loop. */
static int read_count(reader *r, const char *what, long long *out)
{
    return read_ll(r, what, 0, LLONG_MAX, out);
}

static int read_double(reader *r, const char *what, double *out)
{
    const char *s;
    size_t n;
    char desc[160];
    snprintf(desc, sizeof desc, "%s (a number)", what);
    if (!next_token(r, &s, &n)) return fail_eof(r, desc), 0;
    char buf[64];
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        double v = strtod(buf, &end);
        if (end == buf + n && isfinite(v)) {
            *out = v;
            return 1;
        }
    }
    return fail_token(r, s, n, desc), 0;
}

/* Reads the token that must close the current section ("$EndNodes"). */
static int expect_end(reader *r, const char *end)
{
    const char *s;
    size_t n;
    if (!next_token(r, &s, &n)) return fail_eof(r, end), 0;
    if (n != strlen(end) || memcmp(s, end, n) != 0) return fail_token(r, s, n, end), 0;
    return 1;
}

/* A quoted name ("top") on one line into out[size]. */
static int read_quoted(reader *r, char *out, size_t size)
{
    skip_space(r);
    if (r->pos >= r->len) return fail_eof(r, "a quoted name"), 0;
    r->tokline = r->line;
    if (r->buf[r->pos] != '"') {
        const char *s;
        size_t n;
        next_token(r, &s, &n);
        return fail_token(r, s, n, "a quoted name"), 0;
    }
    size_t start = r->pos + 1, end = start;
    while (end < r->len && r->buf[end] != '"' && r->buf[end] != '\n') end++;
    if (end >= r->len || r->buf[end] != '"')
        return fail(r, r->tokline, "the name is not closed by '\"' on its line"), 0;
    size_t n = end - start;
    if (n == 0) return fail(r, r->tokline, "a physical name is empty"), 0;
    if (n >= size) {
        char tok[48];
        shown(r->buf + start, n, tok);
        return fail(r, r->tokline, "the name \"%s\" is longer than %d characters", tok,
                    (int)size - 1),
               0;
    }
    memcpy(out, r->buf + start, n);
    out[n] = '\0';
    r->pos = end + 1;
    return 1;
}

/* ---- gmsh files: what is collected ------------------------------------------------------- */

typedef struct msh_node {
    int tag, line;
    double x, y, z;
} msh_node;

typedef struct msh_elem {
    long long tag;
    int line;
    int type, nv;
    int v[4];       /* node tags, then indices into the sorted nodes */
    int edim, etag; /* its entity (4.1) */
    int phys;       /* its physical tag (2.2; 0: none) */
} msh_elem;

typedef struct msh_name {
    int dim, tag;
    char name[MECH_MESH_NAME_MAX];
} msh_name;

typedef struct msh_key { /* (dim, tag, value): entity -> physical, or a membership */
    int dim, tag, value;
} msh_key;

typedef struct msh {
    int version; /* 2 or 4 */
    int has_nodes, has_elems, has_names, has_entities;
    msh_node *nodes;
    int nnodes, cap_nodes;
    msh_elem *elems;
    int nelems, cap_elems;
    msh_name *names;
    int nnames, cap_names;
    msh_key *ephys; /* 4.1: (entity dim, entity tag, physical tag) */
    int nephys, cap_ephys;
} msh;

/* Room for one more item in *p (n used of *cap); 0 when memory runs out. */
static int grow(void **p, int *cap, int n, size_t size)
{
    if (n < *cap) return 1;
    if (n >= MSH_MAX_ITEMS) return 0;
    int ncap = *cap ? 2 * *cap : 64;
    void *q = mech_realloc(*p, (size_t)ncap * size);
    if (q == NULL) return 0;
    *p = q;
    *cap = ncap;
    return 1;
}

static int nomem(reader *r, const char *what)
{
    fail_code(r, MECH_ERR_NOMEM, r->tokline, "out of memory (or more than %d %s)", MSH_MAX_ITEMS,
              what);
    return 0;
}

static void msh_free(msh *d)
{
    mech_free(d->nodes);
    mech_free(d->elems);
    mech_free(d->names);
    mech_free(d->ephys);
}

/* Element types: nodes (0 if not read) and dimension. */
static int type_nodes(int type, int *dim)
{
    switch (type) {
    case 15: *dim = 0; return 1;
    case 1: *dim = 1; return 2;
    case 2: *dim = 2; return 3;
    case 3: *dim = 2; return 4;
    default: return 0;
    }
}

static const char *type_name(long long type)
{
    static const struct {
        int type;
        const char *name;
    } names[] = {
        {4, "4-node tetrahedron"},
        {5, "8-node hexahedron"},
        {6, "6-node prism"},
        {7, "5-node pyramid"},
        {8, "3-node second-order line"},
        {9, "6-node second-order triangle"},
        {10, "9-node second-order quadrangle"},
        {11, "10-node second-order tetrahedron"},
        {12, "27-node second-order hexahedron"},
        {16, "8-node second-order quadrangle"},
        {20, "9-node third-order incomplete triangle"},
        {21, "10-node third-order triangle"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].type == type) return names[i].name;
    return "unknown to mechlua";
}

/* Reads an element type and checks that it is one mechlua reads. */
static int read_type(reader *r, int *type, int *nv, int *dim)
{
    long long t;
    if (!read_ll(r, "an element type", 1, INT_MAX, &t)) return 0;
    *type = (int)t;
    *nv = type_nodes(*type, dim);
    if (*nv == 0)
        return fail(r, r->tokline,
                    "element type %lld (%s) is not supported: mechlua reads 3-node triangles (2) "
                    "and 4-node quadrangles (3), and lines (1) and points (15) for their "
                    "physical groups",
                    t, type_name(t)),
               0;
    return 1;
}

static int push_node(reader *r, msh *d, int tag)
{
    if (!grow((void **)&d->nodes, &d->cap_nodes, d->nnodes, sizeof *d->nodes))
        return nomem(r, "nodes");
    msh_node *n = &d->nodes[d->nnodes++];
    memset(n, 0, sizeof *n);
    n->tag = tag;
    n->line = r->tokline;
    return 1;
}

static int read_coords(reader *r, msh_node *n, int extra)
{
    if (!read_double(r, "the x coordinate of a node", &n->x) ||
        !read_double(r, "the y coordinate of a node", &n->y) ||
        !read_double(r, "the z coordinate of a node", &n->z))
        return 0;
    for (int k = 0; k < extra; k++) {
        double u;
        if (!read_double(r, "a parametric coordinate of a node", &u)) return 0;
    }
    return 1;
}

/* Reads an element of a 4.1 block: its tag (whose line is the element's) and nodes. */
static int read_elem(reader *r, msh *d, msh_elem *proto)
{
    long long tag;
    if (!read_ll(r, "an element tag", 1, LLONG_MAX, &tag)) return 0;
    int line = r->tokline;
    int v[4] = {0, 0, 0, 0};
    for (int k = 0; k < proto->nv; k++)
        if (!read_int(r, "a node tag", 1, INT_MAX, &v[k])) return 0;
    if (!grow((void **)&d->elems, &d->cap_elems, d->nelems, sizeof *d->elems))
        return nomem(r, "elements");
    msh_elem *e = &d->elems[d->nelems++];
    *e = *proto;
    e->tag = tag;
    e->line = line;
    memcpy(e->v, v, sizeof v);
    return 1;
}

/* ---- gmsh files: sections -------------------------------------------------------------- */

static int parse_format(reader *r, msh *d)
{
    const char *s;
    size_t n;
    r->section = "$MeshFormat";
    if (!next_token(r, &s, &n)) return fail_eof(r, "the format version (2.2 or 4.1)"), 0;
    char buf[32] = "";
    if (n < sizeof buf) memcpy(buf, s, n), buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (n >= sizeof buf || end != buf + n || (v != 2.2 && v != 4.1)) {
        char tok[48];
        shown(s, n, tok);
        return fail(r, r->tokline,
                    "gmsh format version '%s' is not supported (mechlua reads versions 2.2 "
                    "and 4.1: save with gmsh -format msh41 or msh22)",
                    tok),
               0;
    }
    d->version = v == 2.2 ? 2 : 4;
    int type, size;
    if (!read_int(r, "the file type (0: ASCII)", 0, 1, &type)) return 0;
    if (type == 1)
        return fail(r, r->tokline,
                    "binary gmsh files are not supported: save the mesh as ASCII (Mesh.Binary "
                    "= 0, or gmsh -format msh41 without -bin)"),
               0;
    if (!read_int(r, "the data size", 1, 64, &size)) return 0;
    return expect_end(r, "$EndMeshFormat");
}

static int parse_names(reader *r, msh *d)
{
    r->section = "$PhysicalNames";
    long long n;
    if (!read_count(r, "the number of physical names", &n)) return 0;
    for (long long i = 0; i < n; i++) {
        msh_name nm;
        if (!read_int(r, "the dimension of a physical group", 0, 3, &nm.dim) ||
            !read_int(r, "a physical tag", -INT_MAX, INT_MAX, &nm.tag) ||
            !read_quoted(r, nm.name, sizeof nm.name))
            return 0;
        if (nm.dim > 2) continue; /* volumes: nothing of a planar mesh */
        if (!grow((void **)&d->names, &d->cap_names, d->nnames, sizeof *d->names))
            return nomem(r, "physical names");
        d->names[d->nnames++] = nm;
    }
    return expect_end(r, "$EndPhysicalNames");
}

static int parse_entities(reader *r, msh *d)
{
    r->section = "$Entities";
    long long count[4];
    static const char *const what[4] = {"the number of points", "the number of curves",
                                        "the number of surfaces", "the number of volumes"};
    for (int k = 0; k < 4; k++)
        if (!read_count(r, what[k], &count[k])) return 0;
    for (int dim = 0; dim < 4; dim++)
        for (long long i = 0; i < count[dim]; i++) {
            int tag;
            long long nphys, nbound;
            if (!read_int(r, "an entity tag", -INT_MAX, INT_MAX, &tag)) return 0;
            for (int k = 0; k < (dim == 0 ? 3 : 6); k++) {
                double x;
                if (!read_double(r, "a coordinate of an entity", &x)) return 0;
            }
            if (!read_count(r, "the number of physical tags of an entity", &nphys)) return 0;
            for (long long k = 0; k < nphys; k++) {
                int phys;
                if (!read_int(r, "a physical tag", -INT_MAX, INT_MAX, &phys)) return 0;
                if (dim > 2) continue;
                if (!grow((void **)&d->ephys, &d->cap_ephys, d->nephys, sizeof *d->ephys))
                    return nomem(r, "physical tags");
                d->ephys[d->nephys++] = (msh_key){dim, tag, phys};
            }
            if (dim == 0) continue;
            if (!read_count(r, "the number of bounding entities", &nbound)) return 0;
            for (long long k = 0; k < nbound; k++) {
                int b;
                if (!read_int(r, "a bounding entity tag", -INT_MAX, INT_MAX, &b)) return 0;
            }
        }
    return expect_end(r, "$EndEntities");
}

static int parse_nodes(reader *r, msh *d)
{
    r->section = "$Nodes";
    if (d->version == 2) {
        long long n;
        if (!read_count(r, "the number of nodes", &n)) return 0;
        for (long long i = 0; i < n; i++) {
            int tag;
            if (!read_int(r, "a node tag", 1, INT_MAX, &tag) || !push_node(r, d, tag) ||
                !read_coords(r, &d->nodes[d->nnodes - 1], 0))
                return 0;
        }
        return expect_end(r, "$EndNodes");
    }
    long long nblocks, total, lo, hi, held = 0;
    if (!read_count(r, "the number of entity blocks", &nblocks)) return 0;
    int header = r->tokline;
    if (!read_count(r, "the number of nodes", &total) ||
        !read_count(r, "the smallest node tag", &lo) || !read_count(r, "the largest node tag", &hi))
        return 0;
    for (long long b = 0; b < nblocks; b++) {
        int dim, tag, param;
        long long n;
        if (!read_int(r, "the dimension of an entity", 0, 3, &dim) ||
            !read_int(r, "an entity tag", -INT_MAX, INT_MAX, &tag) ||
            !read_int(r, "the parametric flag (0 or 1)", 0, 1, &param) ||
            !read_count(r, "the number of nodes in a block", &n))
            return 0;
        int first = d->nnodes;
        for (long long i = 0; i < n; i++) {
            int t;
            if (!read_int(r, "a node tag", 1, INT_MAX, &t) || !push_node(r, d, t)) return 0;
        }
        for (int i = first; i < d->nnodes; i++)
            if (!read_coords(r, &d->nodes[i], param ? dim : 0)) return 0;
        held += n;
    }
    if (held != total)
        return fail(r, header, "$Nodes announces %lld nodes but its blocks hold %lld", total, held),
               0;
    return expect_end(r, "$EndNodes");
}

static int parse_elements(reader *r, msh *d)
{
    r->section = "$Elements";
    if (d->version == 2) {
        long long n;
        if (!read_count(r, "the number of elements", &n)) return 0;
        for (long long i = 0; i < n; i++) {
            msh_elem proto;
            memset(&proto, 0, sizeof proto);
            /* 2.2: tag, type, number of tags, tags (physical, entity, partitions), nodes */
            long long tag;
            if (!read_ll(r, "an element tag", 1, LLONG_MAX, &tag)) return 0;
            int line = r->tokline;
            if (!read_type(r, &proto.type, &proto.nv, &proto.edim)) return 0;
            long long ntags;
            if (!read_count(r, "the number of tags of an element", &ntags)) return 0;
            for (long long k = 0; k < ntags; k++) {
                int t;
                if (!read_int(r, "an element's tag", -INT_MAX, INT_MAX, &t)) return 0;
                if (k == 0) proto.phys = t;
                if (k == 1) proto.etag = t;
            }
            for (int k = 0; k < proto.nv; k++)
                if (!read_int(r, "a node tag", 1, INT_MAX, &proto.v[k])) return 0;
            if (!grow((void **)&d->elems, &d->cap_elems, d->nelems, sizeof *d->elems))
                return nomem(r, "elements");
            proto.tag = tag;
            proto.line = line;
            d->elems[d->nelems++] = proto;
        }
        return expect_end(r, "$EndElements");
    }
    long long nblocks, total, lo, hi, held = 0;
    if (!read_count(r, "the number of entity blocks", &nblocks)) return 0;
    int header = r->tokline;
    if (!read_count(r, "the number of elements", &total) ||
        !read_count(r, "the smallest element tag", &lo) ||
        !read_count(r, "the largest element tag", &hi))
        return 0;
    for (long long b = 0; b < nblocks; b++) {
        msh_elem proto;
        memset(&proto, 0, sizeof proto);
        int tdim;
        long long n;
        if (!read_int(r, "the dimension of an entity", 0, 3, &proto.edim) ||
            !read_int(r, "an entity tag", -INT_MAX, INT_MAX, &proto.etag) ||
            !read_type(r, &proto.type, &proto.nv, &tdim) ||
            !read_count(r, "the number of elements in a block", &n))
            return 0;
        for (long long i = 0; i < n; i++)
            if (!read_elem(r, d, &proto)) return 0;
        held += n;
    }
    if (held != total)
        return fail(r, header, "$Elements announces %lld elements but its blocks hold %lld", total,
                    held),
               0;
    return expect_end(r, "$EndElements");
}

/* Skips a section mechlua does not read ($NodeData, $Periodic, ...) up to its $End line. */
static int skip_section(reader *r, const char *name, size_t n)
{
    int start = r->tokline;
    const char *s;
    size_t k;
    while (next_token(r, &s, &k))
        if (k == n + 3 && memcmp(s, "$End", 4) == 0 && memcmp(s + 4, name + 1, n - 1) == 0)
            return 1;
    char tok[48];
    shown(name, n, tok);
    return fail(r, start, "section %s is not closed (no $End%s)", tok, tok + 1), 0;
}

static int parse(reader *r, msh *d)
{
    const char *s;
    size_t n;
    if (!next_token(r, &s, &n)) return fail(r, 0, "the file is empty (expected $MeshFormat)"), 0;
    if (n != 11 || memcmp(s, "$MeshFormat", 11) != 0)
        return fail_token(r, s, n, "$MeshFormat at the start of a gmsh file"), 0;
    if (!parse_format(r, d)) return 0;
    while (next_token(r, &s, &n)) {
        int line = r->tokline, *seen;
        int (*section)(reader *, msh *);
        if (s[0] != '$') return fail_token(r, s, n, "a section such as $Nodes"), 0;
        if (n == 14 && memcmp(s, "$PhysicalNames", 14) == 0)
            seen = &d->has_names, section = parse_names;
        else if (n == 9 && memcmp(s, "$Entities", 9) == 0 && d->version == 4)
            seen = &d->has_entities, section = parse_entities;
        else if (n == 6 && memcmp(s, "$Nodes", 6) == 0)
            seen = &d->has_nodes, section = parse_nodes;
        else if (n == 9 && memcmp(s, "$Elements", 9) == 0)
            seen = &d->has_elems, section = parse_elements;
        else if (n == 11 && memcmp(s, "$MeshFormat", 11) == 0)
            return fail(r, line, "a second $MeshFormat section"), 0;
        else if (!skip_section(r, s, n))
            return 0;
        else
            continue;
        if (*seen) {
            char tok[48];
            shown(s, n, tok);
            return fail(r, line, "a second %s section", tok), 0;
        }
        if (!section(r, d)) return 0;
        *seen = 1;
    }
    if (!d->has_nodes) return fail(r, 0, "no $Nodes section"), 0;
    if (!d->has_elems) return fail(r, 0, "no $Elements section"), 0;
    return 1;
}

/* ---- gmsh files: the mesh ----------------------------------------------------------------- */

static int compare_node(const void *a, const void *b)
{
    const msh_node *x = a, *y = b;
    if (x->tag != y->tag) return (x->tag > y->tag) - (x->tag < y->tag);
    return (x->line > y->line) - (x->line < y->line);
}

static int compare_key(const void *a, const void *b)
{
    const msh_key *x = a, *y = b;
    if (x->dim != y->dim) return (x->dim > y->dim) - (x->dim < y->dim);
    if (x->tag != y->tag) return (x->tag > y->tag) - (x->tag < y->tag);
    return (x->value > y->value) - (x->value < y->value);
}

/* Surface elements by their sorted corners, to find the ones listed twice. */
typedef struct elem_key {
    int nv, v[4], raw;
} elem_key;

static int compare_elem_key(const void *a, const void *b)
{
    const elem_key *x = a, *y = b;
    if (x->nv != y->nv) return (x->nv > y->nv) - (x->nv < y->nv);
    for (int k = 0; k < 4; k++)
        if (x->v[k] != y->v[k]) return (x->v[k] > y->v[k]) - (x->v[k] < y->v[k]);
    return (x->raw > y->raw) - (x->raw < y->raw);
}

static int same_corners(const elem_key *x, const elem_key *y)
{
    return x->nv == y->nv && memcmp(x->v, y->v, sizeof x->v) == 0;
}

/* Index of the node with this tag in the sorted nodes, or -1. */
static int find_node(const msh *d, int tag)
{
    int lo = 0, hi = d->nnodes - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (d->nodes[mid].tag == tag) return mid;
        if (d->nodes[mid].tag < tag)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* First index of (dim, tag) in the sorted keys, or n. */
static int find_key(const msh_key *k, int n, int dim, int tag)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (k[mid].dim < dim || (k[mid].dim == dim && k[mid].tag < tag))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Work arrays of the build, freed together. */
typedef struct build {
    int *mesh_of;     /* raw element -> mesh element (surface elements), else -1 */
    int *new_node;    /* sorted node -> mesh node, or -1 */
    elem_key *keys;   /* surface elements by corners */
    msh_key *members; /* (group dim, physical tag, raw element) */
    msh_key *groups;  /* (dim, physical tag) of each group */
    int *scratch;     /* the nodes or elements of one group */
} build;

static void build_free(build *b)
{
    mech_free(b->mesh_of);
    mech_free(b->new_node);
    mech_free(b->keys);
    mech_free(b->members);
    mech_free(b->groups);
    mech_free(b->scratch);
}

static int is_surface(const msh_elem *e)
{
    return e->type == 2 || e->type == 3;
}

/* Resolves node tags, finds the surface elements and the nodes they use. */
static int resolve(reader *r, msh *d, build *b, mech_mesh *m)
{
    qsort(d->nodes, (size_t)d->nnodes, sizeof *d->nodes, compare_node);
    for (int i = 1; i < d->nnodes; i++)
        if (d->nodes[i].tag == d->nodes[i - 1].tag)
            return fail(r, d->nodes[i].line, "node %d is defined twice (first on line %d)",
                        d->nodes[i].tag, d->nodes[i - 1].line),
                   0;
    int nsurf = 0;
    for (int i = 0; i < d->nelems; i++) {
        msh_elem *e = &d->elems[i];
        for (int k = 0; k < e->nv; k++) {
            int idx = find_node(d, e->v[k]);
            if (idx < 0)
                return fail(r, e->line, "element %lld uses node %d, which $Nodes does not define",
                            e->tag, e->v[k]),
                       0;
            for (int l = 0; l < k; l++)
                if (e->v[l] == idx)
                    return fail(r, e->line, "element %lld repeats node %d", e->tag, e->v[k]), 0;
            e->v[k] = idx;
        }
        nsurf += is_surface(e);
    }
    if (nsurf == 0)
        return fail(r, 0,
                    "no triangles or quadrangles (element types 2 and 3): nothing to make a "
                    "planar mesh of"),
               0;

    b->mesh_of = mech_malloc((size_t)d->nelems * sizeof(int));
    b->new_node = mech_malloc((size_t)d->nnodes * sizeof(int));
    b->keys = mech_malloc((size_t)nsurf * sizeof *b->keys);
    if (!b->mesh_of || !b->new_node || !b->keys) return nomem(r, "elements");
    int nk = 0;
    for (int i = 0; i < d->nelems; i++) {
        b->mesh_of[i] = -1;
        if (!is_surface(&d->elems[i])) continue;
        elem_key *k = &b->keys[nk++];
        k->nv = d->elems[i].nv;
        k->raw = i;
        for (int l = 0; l < 4; l++) k->v[l] = l < k->nv ? d->elems[i].v[l] : INT_MAX;
        sort_unique(k->v, 4);
    }
    /* an element listed again (same corners) is its first listing: mesh_of is -2 for a
    ** first listing, -3 - first for a copy, until the mesh numbers are given */
    qsort(b->keys, (size_t)nk, sizeof *b->keys, compare_elem_key);
    int first = -1;
    for (int i = 0; i < nk; i++) {
        if (i == 0 || !same_corners(&b->keys[i], &b->keys[i - 1])) first = b->keys[i].raw;
        b->mesh_of[b->keys[i].raw] = first == b->keys[i].raw ? -2 : -3 - first;
    }
    /* mesh elements in file order; copies come after their first listing */
    m->nelems = 0;
    for (int i = 0; i < d->nelems; i++) {
        if (b->mesh_of[i] == -2)
            b->mesh_of[i] = m->nelems++;
        else if (b->mesh_of[i] <= -3)
            b->mesh_of[i] = b->mesh_of[-3 - b->mesh_of[i]];
    }
    /* used nodes, numbered in the order of their tags */
    for (int i = 0; i < d->nnodes; i++) b->new_node[i] = -1;
    for (int i = 0; i < d->nelems; i++)
        if (is_surface(&d->elems[i]))
            for (int k = 0; k < d->elems[i].nv; k++) b->new_node[d->elems[i].v[k]] = 0;
    m->nnodes = 0;
    double scale = 0;
    for (int i = 0; i < d->nnodes; i++)
        if (b->new_node[i] == 0) {
            b->new_node[i] = m->nnodes++;
            scale = fmax(scale, fmax(fabs(d->nodes[i].x), fabs(d->nodes[i].y)));
        }
    for (int i = 0; i < d->nnodes; i++)
        if (b->new_node[i] >= 0 && !(fabs(d->nodes[i].z) <= 1e-12 * scale))
            return fail(r, d->nodes[i].line,
                        "the mesh is not planar (node %d has z = %g; mechlua reads meshes in "
                        "the plane z = 0)",
                        d->nodes[i].tag, d->nodes[i].z),
                   0;
    return 1;
}

/* Fills the nodes and elements of m, counter-clockwise. */
static int fill_mesh(reader *r, msh *d, build *b, mech_mesh *m)
{
    m->xy = mech_malloc(2 * (size_t)m->nnodes * sizeof(double));
    m->tag = mech_malloc((size_t)m->nnodes * sizeof(int));
    m->nvert = mech_malloc((size_t)m->nelems * sizeof(int));
    m->conn = mech_malloc(4 * (size_t)m->nelems * sizeof(int));
    if (!m->xy || !m->tag || !m->nvert || !m->conn) return nomem(r, "nodes");
    for (int i = 0; i < d->nnodes; i++) {
        int k = b->new_node[i];
        if (k < 0) continue;
        m->xy[2 * k] = d->nodes[i].x;
        m->xy[2 * k + 1] = d->nodes[i].y;
        m->tag[k] = d->nodes[i].tag;
    }
    int next = 0;
    for (int i = 0; i < d->nelems; i++) {
        const msh_elem *e = &d->elems[i];
        if (b->mesh_of[i] != next) continue; /* not a surface element, or a copy */
        int *c = m->conn + 4 * next, nv = e->nv;
        m->nvert[next] = nv;
        c[3] = -1;
        for (int k = 0; k < nv; k++) c[k] = b->new_node[e->v[k]];
        if (twice_area(m->xy, c, nv, NULL) < 0) { /* clockwise: the same corners reversed */
            int t = c[1];
            c[1] = c[nv - 1];
            c[nv - 1] = t;
        }
        char why[160];
        if (element_shape(m->xy, m->tag, c, nv, why, sizeof why))
            return fail(r, e->line, "element %lld %s", e->tag, why), 0;
        next++;
    }
    return 1;
}

/* The physical groups of the elements (and those only named) as groups of m. */
static int fill_groups(reader *r, msh *d, build *b, mech_mesh *m)
{
    size_t cap = 0;
    int nmem = 0;
    if (d->version == 4) {
        qsort(d->ephys, (size_t)d->nephys, sizeof *d->ephys, compare_key);
        for (int i = 0; i < d->nelems; i++) {
            const msh_elem *e = &d->elems[i];
            for (int j = find_key(d->ephys, d->nephys, e->edim, e->etag);
                 j < d->nephys && d->ephys[j].dim == e->edim && d->ephys[j].tag == e->etag; j++) {
                if ((size_t)nmem == cap) {
                    if (nmem >= MSH_MAX_ITEMS) return nomem(r, "group members");
                    size_t ncap = cap ? 2 * cap : 64;
                    msh_key *p = mech_realloc(b->members, ncap * sizeof *p);
                    if (p == NULL) return nomem(r, "group members");
                    b->members = p, cap = ncap;
                }
                b->members[nmem++] = (msh_key){e->edim, d->ephys[j].value, i};
            }
        }
    } else {
        b->members = mech_malloc((size_t)d->nelems * sizeof *b->members);
        if (b->members == NULL) return nomem(r, "group members");
        for (int i = 0; i < d->nelems; i++) {
            int dim = 0;
            type_nodes(d->elems[i].type, &dim);
            if (d->elems[i].phys != 0) b->members[nmem++] = (msh_key){dim, d->elems[i].phys, i};
        }
    }
    qsort(b->members, (size_t)nmem, sizeof *b->members, compare_key);

    /* the groups: every (dim, physical tag) with members or a name */
    b->groups = mech_malloc((size_t)(nmem + d->nnames + 1) * sizeof *b->groups);
    if (b->groups == NULL) return nomem(r, "groups");
    int ng = 0;
    for (int i = 0; i < nmem; i++)
        if (i == 0 || compare_key(&(msh_key){b->members[i].dim, b->members[i].tag, 0},
                                  &(msh_key){b->members[i - 1].dim, b->members[i - 1].tag, 0}))
            b->groups[ng++] = (msh_key){b->members[i].dim, b->members[i].tag, 0};
    for (int i = 0; i < d->nnames; i++)
        b->groups[ng++] = (msh_key){d->names[i].dim, d->names[i].tag, 0};
    qsort(b->groups, (size_t)ng, sizeof *b->groups, compare_key);
    int ug = 0;
    for (int i = 0; i < ng; i++)
        if (ug == 0 || compare_key(&b->groups[i], &b->groups[ug - 1]))
            b->groups[ug++] = b->groups[i];
    ng = ug;

    b->scratch = mech_malloc((4 * (size_t)nmem + 1) * sizeof(int));
    m->groups = mech_calloc((size_t)ng + 1, sizeof *m->groups);
    if (!b->scratch || !m->groups) return nomem(r, "groups");
    int j = 0;
    for (int g = 0; g < ng; g++) {
        int dim = b->groups[g].dim, tag = b->groups[g].tag;
        char name[MECH_MESH_NAME_MAX];
        snprintf(name, sizeof name, "%d:%d", dim, tag);
        for (int i = 0; i < d->nnames; i++)
            if (d->names[i].dim == dim && d->names[i].tag == tag) {
                memcpy(name, d->names[i].name, sizeof name);
                break;
            }
        while (j < nmem &&
               (b->members[j].dim < dim || (b->members[j].dim == dim && b->members[j].tag < tag)))
            j++;
        int first = j, nn = 0, ne = 0;
        while (j < nmem && b->members[j].dim == dim && b->members[j].tag == tag) {
            const msh_elem *e = &d->elems[b->members[j].value];
            for (int k = 0; k < e->nv; k++)
                if (b->new_node[e->v[k]] >= 0) b->scratch[nn++] = b->new_node[e->v[k]];
            j++;
        }
        nn = sort_unique(b->scratch, nn);
        if (dim == 2)
            for (int i = first; i < j; i++) ne += b->mesh_of[b->members[i].value] >= 0;
        mech_mesh_group *gr = &m->groups[m->ngroups++];
        if (!group_alloc(gr, name, dim, tag, nn, ne)) return nomem(r, "groups");
        if (nn) memcpy(gr->nodes, b->scratch, (size_t)nn * sizeof(int));
        ne = 0;
        if (dim == 2)
            for (int i = first; i < j; i++)
                if (b->mesh_of[b->members[i].value] >= 0)
                    gr->elems[ne++] = b->mesh_of[b->members[i].value];
        gr->nelems = sort_unique(gr->elems, ne);
    }
    return 1;
}

/* Reads the whole file into *buf (NUL-terminated); 0 with the error set otherwise. */
static int load(reader *r, char **buf, size_t *len)
{
    FILE *f = fopen(r->path, "rb");
    if (f == NULL) {
        int e = errno;
        mech_error_set(r->err, MECH_ERR_IO, "cannot open '%s': %s", r->path, strerror(e));
        return 0;
    }
    size_t cap = 0, n = 0;
    char *p = NULL;
    int ok = 1;
    for (;;) {
        if (cap - n < 4096 + 1) {
            size_t ncap = cap ? 2 * cap : 65536;
            char *q = ncap <= (size_t)MSH_MAX_BYTES + 65536 ? mech_realloc(p, ncap) : NULL;
            if (q == NULL) {
                mech_error_set(r->err, MECH_ERR_NOMEM,
                               "%s: out of memory (or larger than %d bytes)", r->path,
                               MSH_MAX_BYTES);
                ok = 0;
                break;
            }
            p = q, cap = ncap;
        }
        size_t got = fread(p + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ok && ferror(f)) {
        int e = errno;
        mech_error_set(r->err, MECH_ERR_IO, "cannot read '%s': %s", r->path, strerror(e));
        ok = 0;
    }
    fclose(f);
    if (!ok) {
        mech_free(p);
        return 0;
    }
    p[n] = '\0';
    *buf = p;
    *len = n;
    return 1;
}

mech_status mech_mesh_read_msh(mech_mesh *out, const char *path, mech_error *err)
{
    if (out == NULL || path == NULL) return mech_error_set(err, MECH_ERR_ARG, "mesh: no path");
    *out = mech_mesh_empty();
    mech_error local;
    if (err == NULL) err = &local;
    mech_error_clear(err);
    reader r = {.path = path, .line = 1, .tokline = 1, .section = "the file", .err = err};
    char *buf = NULL;
    if (!load(&r, &buf, &r.len)) return err->code;
    r.buf = buf;
    msh d;
    memset(&d, 0, sizeof d);
    build b;
    memset(&b, 0, sizeof b);
    mech_mesh m = mech_mesh_empty();
    int ok = parse(&r, &d) && resolve(&r, &d, &b, &m) && fill_mesh(&r, &d, &b, &m) &&
             fill_groups(&r, &d, &b, &m);
    if (ok) {
        mech_error cerr;
        if (mech_mesh_check(&m, &cerr) != MECH_OK) {
            mech_error_set(err, cerr.code, "%s: %s", path, cerr.msg);
            ok = 0;
        }
    }
    build_free(&b);
    msh_free(&d);
    mech_free(buf);
    if (!ok) {
        mech_mesh_free(&m);
        return err->code != MECH_OK ? err->code : MECH_ERR_ARG;
    }
    *out = m;
    return MECH_OK;
}

/* SPDX-License-Identifier: MIT */
/*
** libmech planar meshes (mech_mesh.h): the structured mesher's numbering against
** [Zheng & Wang] (Figs. 6 and 12), its groups and triangles, the checks of a mesh given
** by hand (one message each), and the gmsh reader: the same hand-written mesh in MSH 2.2
** and 4.1 read to identical meshes, a plate with a hole written by gmsh in both formats,
** and malformed files (written to a temporary folder) each refused with the file name and
** the line.
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mech_mesh.h"
#include "tap.h"

static char tmpdir[256];
static char srcdir[512];

/* ---- helpers ------------------------------------------------------------------------------ */

static int contains(const char *s, const char *part)
{
    return s && part && strstr(s, part) != NULL;
}

/* ok() on the status and a part of the message; prints the message when it fails. */
static int is_error(mech_status got, mech_status want, const mech_error *err, const char *part,
                    const char *name)
{
    int pass = got == want && err->code == want && contains(err->msg, part);
    if (!ok(pass, name))
        diag("got %s '%s', want %s with '%s'", mech_status_name(got), err->msg,
             mech_status_name(want), part);
    return pass;
}

static const double *node_xy(const mech_mesh *m, int node1)
{
    return m->xy + 2 * (node1 - 1);
}

static int is_xy(const mech_mesh *m, int node1, double x, double y, const char *name)
{
    const double *p = node_xy(m, node1);
    int pass = fabs(p[0] - x) <= 1e-12 && fabs(p[1] - y) <= 1e-12;
    if (!ok(pass, name)) diag("node %d at (%.17g, %.17g), want (%g, %g)", node1, p[0], p[1], x, y);
    return pass;
}

static double elem_area(const mech_mesh *m, int e)
{
    double a = 0;
    int nv = m->nvert[e];
    for (int k = 0; k < nv; k++) {
        const double *p = m->xy + 2 * m->conn[4 * e + k];
        const double *q = m->xy + 2 * m->conn[4 * e + (k + 1) % nv];
        a += p[0] * q[1] - q[0] * p[1];
    }
    return 0.5 * a;
}

/* Smallest element area and the sum of the areas. */
static double areas(const mech_mesh *m, double *sum)
{
    double mn = INFINITY;
    *sum = 0;
    for (int e = 0; e < m->nelems; e++) {
        double a = elem_area(m, e);
        *sum += a;
        if (a < mn) mn = a;
    }
    return mn;
}

/* The group's nodes, 1-based, equal to want[n]. */
static int is_nodes(const mech_mesh *m, const char *group, const int *want, int n, const char *name)
{
    int g = mech_mesh_find_group(m, group);
    int pass = g >= 0 && m->groups[g].nnodes == n;
    for (int k = 0; pass && k < n; k++) pass = m->groups[g].nodes[k] + 1 == want[k];
    if (!ok(pass, name)) {
        if (g < 0) {
            diag("no group '%s'", group);
        } else {
            char buf[512] = "";
            for (int k = 0; k < m->groups[g].nnodes && strlen(buf) < 480; k++)
                snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %d",
                         m->groups[g].nodes[k] + 1);
            diag("group '%s' has nodes%s", group, buf);
        }
    }
    return pass;
}

/* Corners of element e (1-based) as 1-based nodes. */
static int is_corners(const mech_mesh *m, int e1, const int *want, int nv, const char *name)
{
    int pass = m->nvert[e1 - 1] == nv;
    for (int k = 0; pass && k < nv; k++) pass = m->conn[4 * (e1 - 1) + k] + 1 == want[k];
    if (!ok(pass, name))
        diag("element %d: %d corners %d %d %d %d", e1, m->nvert[e1 - 1], m->conn[4 * (e1 - 1)] + 1,
             m->conn[4 * (e1 - 1) + 1] + 1, m->conn[4 * (e1 - 1) + 2] + 1,
             m->conn[4 * (e1 - 1) + 3] + 1);
    return pass;
}

static int same_mesh(const mech_mesh *a, const mech_mesh *b)
{
    if (a->nnodes != b->nnodes || a->nelems != b->nelems || a->ngroups != b->ngroups) return 0;
    if (memcmp(a->xy, b->xy, 2 * (size_t)a->nnodes * sizeof(double)) != 0) return 0;
    if ((a->tag == NULL) != (b->tag == NULL)) return 0;
    if (a->tag && memcmp(a->tag, b->tag, (size_t)a->nnodes * sizeof(int)) != 0) return 0;
    if (memcmp(a->nvert, b->nvert, (size_t)a->nelems * sizeof(int)) != 0) return 0;
    if (memcmp(a->conn, b->conn, 4 * (size_t)a->nelems * sizeof(int)) != 0) return 0;
    for (int g = 0; g < a->ngroups; g++) {
        const mech_mesh_group *x = &a->groups[g], *y = &b->groups[g];
        if (strcmp(x->name, y->name) || x->dim != y->dim || x->tag != y->tag ||
            x->nnodes != y->nnodes || x->nelems != y->nelems)
            return 0;
        if (x->nnodes && memcmp(x->nodes, y->nodes, (size_t)x->nnodes * sizeof(int))) return 0;
        if (x->nelems && memcmp(x->elems, y->elems, (size_t)x->nelems * sizeof(int))) return 0;
    }
    return 1;
}

/* Writes text to tmpdir/name and returns the path (static buffer). */
static const char *write_file(const char *name, const char *text, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        diag("cannot write %s", path);
        return path;
    }
    fwrite(text, 1, len, f);
    fclose(f);
    return path;
}

static const char *data_file(const char *name)
{
    static char path[768];
    snprintf(path, sizeof path, "%s/tests/data/%s", srcdir, name);
    return path;
}

/* Reads a whole fixture into a malloc'ed string. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (p) p[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* ---- the structured mesher ---------------------------------------------------------------- */

static mech_mesh rectangle(double x0, double y0, double w, double h, int nx, int ny, int tri,
                           mech_mesh_numbering numbering)
{
    mech_rectangle_def d = mech_rectangle_default();
    d.origin[0] = x0, d.origin[1] = y0;
    d.size[0] = w, d.size[1] = h;
    d.nx = nx, d.ny = ny;
    d.triangles = tri;
    d.numbering = numbering;
    mech_mesh m;
    mech_error err;
    if (mech_mesh_rectangle(&m, &d, &err) != MECH_OK) diag("rectangle: %s", err.msg);
    return m;
}

static void test_defaults(void)
{
    mech_rectangle_def d = mech_rectangle_default();
    ok(d.size[0] == 1 && d.size[1] == 1 && d.nx == 1 && d.ny == 1 && d.origin[0] == 0 &&
           d.origin[1] == 0 && !d.triangles && d.numbering == MECH_ROWS_FROM_TOP,
       "default rectangle: 1 x 1 m at the origin, one quadrilateral, rows from the top");
    mech_mesh e = mech_mesh_empty();
    ok(e.nnodes == 0 && e.nelems == 0 && e.ngroups == 0 && !e.xy && !e.tag && !e.groups,
       "an empty mesh holds nothing");
    mech_mesh_free(&e);
    mech_mesh_free(NULL);
    ok(1, "mech_mesh_free accepts an empty mesh and NULL");
}

static void test_spec000_5x5(void)
{
    /* [Zheng & Wang, Sec. 4.1]: 25 Q4 in 5 x 5 over 0.6 x 0.5 m; nodes 1-6 on top, 31-36 at
    ** the bottom, node 31 at the origin */
    mech_mesh m = rectangle(0, 0, 0.6, 0.5, 5, 5, 0, MECH_ROWS_FROM_TOP);
    ok(m.nnodes == 36 && m.nelems == 25 && m.tag == NULL, "5 x 5: 36 nodes, 25 elements, no tags");
    is_xy(&m, 1, 0, 0.5, "5 x 5: node 1 is the top-left corner");
    is_xy(&m, 6, 0.6, 0.5, "5 x 5: node 6 is the top-right corner");
    is_xy(&m, 31, 0, 0, "5 x 5: node 31 is the origin (bottom-left)");
    is_xy(&m, 36, 0.6, 0, "5 x 5: node 36 is the bottom-right corner");
    is_xy(&m, 2, 0.12, 0.5, "5 x 5: node 2 is next to node 1 on the top row");
    is_xy(&m, 7, 0, 0.4, "5 x 5: node 7 starts the second row");
    const int e1[] = {7, 8, 2, 1}, e25[] = {35, 36, 30, 29};
    is_corners(&m, 1, e1, 4, "5 x 5: element 1 is the top-left cell, counter-clockwise");
    is_corners(&m, 25, e25, 4, "5 x 5: element 25 is the bottom-right cell");
    double sum, mn = areas(&m, &sum);
    ok(fabs(mn - 0.012) < 1e-15 && fabs(sum - 0.3) < 1e-14,
       "5 x 5: every element has area 0.012 m^2 (counter-clockwise), 0.3 in all");
    const int top[] = {1, 2, 3, 4, 5, 6}, bottom[] = {31, 32, 33, 34, 35, 36};
    const int left[] = {1, 7, 13, 19, 25, 31}, right[] = {6, 12, 18, 24, 30, 36};
    const int corners[] = {1, 6, 31, 36};
    is_nodes(&m, "top", top, 6, "5 x 5: group top is nodes 1-6");
    is_nodes(&m, "bottom", bottom, 6, "5 x 5: group bottom is nodes 31-36");
    is_nodes(&m, "left", left, 6, "5 x 5: group left, sorted");
    is_nodes(&m, "right", right, 6, "5 x 5: group right, sorted");
    is_nodes(&m, "corners", corners, 4, "5 x 5: group corners is 1, 6, 31, 36");
    int all = mech_mesh_find_group(&m, "all");
    ok(all >= 0 && m.groups[all].dim == 2 && m.groups[all].nnodes == 36 &&
           m.groups[all].nelems == 25 && m.groups[all].elems[24] == 24,
       "5 x 5: group all (dim 2) holds every node and element");
    int t = mech_mesh_find_group(&m, "top"), c = mech_mesh_find_group(&m, "corners");
    ok(m.ngroups == 6 && m.groups[t].dim == 1 && m.groups[t].nelems == 0 && m.groups[c].dim == 0 &&
           m.groups[t].tag == 0,
       "5 x 5: six groups; sides of dim 1, corners of dim 0, tag 0");
    ok(mech_mesh_find_group(&m, "middle") == -1 && mech_mesh_find_group(NULL, "top") == -1,
       "find_group: -1 for an unknown name");
    mech_error err;
    ok(mech_mesh_check(&m, &err) == MECH_OK, "5 x 5: mech_mesh_check passes");

    mech_mesh copy;
    ok(mech_mesh_copy(&copy, &m, &err) == MECH_OK && same_mesh(&copy, &m) && copy.xy != m.xy &&
           copy.groups[0].nodes != m.groups[0].nodes,
       "copy: a deep copy, equal");
    copy.xy[0] = 42;
    ok(m.xy[0] == 0, "copy: changing the copy leaves the original");
    mech_mesh_free(&copy);
    mech_mesh_free(&m);
    ok(m.nnodes == 0 && m.xy == NULL && m.groups == NULL, "free empties the mesh");
}

static void test_spec000_fig12(void)
{
    /* [Zheng & Wang, Sec. 4.2]: the slider 0.2 x 0.1 m centred on B = (3.8, 0) */
    mech_mesh m = rectangle(3.7, -0.05, 0.2, 0.1, 2, 2, 0, MECH_ROWS_FROM_TOP);
    ok(m.nnodes == 9 && m.nelems == 4, "2 x 2: 9 nodes, 4 elements");
    is_xy(&m, 1, 3.7, 0.05, "2 x 2: node 1 top-left");
    is_xy(&m, 3, 3.9, 0.05, "2 x 2: node 3 top-right");
    is_xy(&m, 5, 3.8, 0, "2 x 2: node 5 is the centre (B)");
    is_xy(&m, 7, 3.7, -0.05, "2 x 2: node 7 bottom-left");
    is_xy(&m, 9, 3.9, -0.05, "2 x 2: node 9 bottom-right");
    const int top[] = {1, 2, 3}, bottom[] = {7, 8, 9};
    is_nodes(&m, "top", top, 3, "2 x 2: nodes 1-3 on the upper surface");
    is_nodes(&m, "bottom", bottom, 3, "2 x 2: nodes 7-9 on the lower surface");
    mech_mesh_free(&m);

    m = rectangle(3.7, -0.05, 0.2, 0.1, 4, 2, 0, MECH_ROWS_FROM_TOP);
    ok(m.nnodes == 15 && m.nelems == 8, "4 x 2: 15 nodes, 8 elements");
    is_xy(&m, 1, 3.7, 0.05, "4 x 2: node 1 top-left");
    is_xy(&m, 5, 3.9, 0.05, "4 x 2: node 5 top-right");
    is_xy(&m, 8, 3.8, 0, "4 x 2: node 8 is the centre");
    is_xy(&m, 11, 3.7, -0.05, "4 x 2: node 11 bottom-left");
    is_xy(&m, 15, 3.9, -0.05, "4 x 2: node 15 bottom-right");
    const int top5[] = {1, 2, 3, 4, 5}, bottom5[] = {11, 12, 13, 14, 15};
    is_nodes(&m, "top", top5, 5, "4 x 2: nodes 1-5 on top");
    is_nodes(&m, "bottom", bottom5, 5, "4 x 2: nodes 11-15 at the bottom");
    mech_mesh_free(&m);
}

static void test_from_bottom_and_triangles(void)
{
    mech_mesh m = rectangle(1, 2, 2, 1, 2, 2, 0, MECH_ROWS_FROM_BOTTOM);
    is_xy(&m, 1, 1, 2, "from the bottom: node 1 at the origin");
    is_xy(&m, 3, 3, 2, "from the bottom: node 3 bottom-right");
    is_xy(&m, 9, 3, 3, "from the bottom: node 9 top-right");
    const int e1[] = {1, 2, 5, 4}, top[] = {7, 8, 9};
    is_corners(&m, 1, e1, 4, "from the bottom: element 1 is the bottom-left cell");
    is_nodes(&m, "top", top, 3, "from the bottom: top is nodes 7-9");
    double sum, mn = areas(&m, &sum);
    ok(mn > 0 && fabs(sum - 2) < 1e-14, "from the bottom: counter-clockwise, area 2");
    mech_mesh_free(&m);

    m = rectangle(-1, 0, 3, 2, 3, 2, 1, MECH_ROWS_FROM_TOP);
    int tri = m.nelems == 12;
    for (int e = 0; tri && e < m.nelems; e++) tri = m.nvert[e] == 3 && m.conn[4 * e + 3] == -1;
    ok(m.nnodes == 12 && tri, "triangles: 3 x 2 cells give 12 triangles padded with -1");
    mn = areas(&m, &sum);
    ok(fabs(mn - 0.5) < 1e-14 && fabs(sum - 6) < 1e-13,
       "triangles: each 0.5 m^2 and counter-clockwise, 6 m^2 in all");
    /* cell 1 is the top-left cell: nodes 1, 2 (top), 5, 6 (below); the lower-right
    ** triangle 5-6-2 comes first, then 5-2-1 */
    const int t1[] = {5, 6, 2}, t2[] = {5, 2, 1};
    is_corners(&m, 1, t1, 3, "triangles: the lower-right triangle of a cell first");
    is_corners(&m, 2, t2, 3, "triangles: then the upper-left one, on the same diagonal");
    int all = mech_mesh_find_group(&m, "all");
    mech_error err;
    ok(all >= 0 && m.groups[all].nelems == 12 && mech_mesh_check(&m, &err) == MECH_OK,
       "triangles: group all has the 12 triangles; the mesh checks");
    mech_mesh_free(&m);
}

static void test_rectangle_errors(void)
{
    mech_error err;
    mech_mesh m;
    mech_rectangle_def d = mech_rectangle_default();
    d.nx = 0;
    is_error(mech_mesh_rectangle(&m, &d, &err), MECH_ERR_ARG, &err,
             "mesh.rectangle: nx must be an integer >= 1 (got 0)", "rectangle: nx = 0");
    ok(m.nnodes == 0 && m.xy == NULL, "rectangle: a refused definition leaves an empty mesh");
    d = mech_rectangle_default();
    d.ny = -3;
    is_error(mech_mesh_rectangle(&m, &d, &err), MECH_ERR_ARG, &err,
             "ny must be an integer >= 1 (got -3)", "rectangle: ny < 1");
    d = mech_rectangle_default();
    d.size[1] = 0;
    is_error(mech_mesh_rectangle(&m, &d, &err), MECH_ERR_ARG, &err,
             "width and height must be finite and > 0 (got 1 x 0)", "rectangle: zero height");
    d = mech_rectangle_default();
    d.origin[0] = NAN;
    is_error(mech_mesh_rectangle(&m, &d, &err), MECH_ERR_ARG, &err, "origin must be finite",
             "rectangle: origin not finite");
    d = mech_rectangle_default();
    d.nx = d.ny = 10000;
    is_error(mech_mesh_rectangle(&m, &d, &err), MECH_ERR_ARG, &err,
             "nx ny = 100000000 cells is too many", "rectangle: too many cells");
    d = mech_rectangle_default();
    d.numbering = (mech_mesh_numbering)7;
    is_error(mech_mesh_rectangle(&m, &d, &err), MECH_ERR_ARG, &err, "unknown numbering 7",
             "rectangle: unknown numbering");
}

/* ---- checks of a mesh given by hand -------------------------------------------------------- */

/* Runs mech_mesh_check on a copy of the 2 x 1 mesh changed by `change`. */
static void check_case(void (*change)(mech_mesh *), const char *part, const char *name)
{
    mech_mesh m = rectangle(0, 0, 2, 1, 2, 1, 0, MECH_ROWS_FROM_BOTTOM);
    change(&m);
    mech_error err;
    is_error(mech_mesh_check(&m, &err), MECH_ERR_ARG, &err, part, name);
    mech_mesh_free(&m);
}

/* The 2 x 1 mesh from the bottom: nodes 1 2 3 (y = 0), 4 5 6 (y = 1); element 1 is
** 1-2-5-4, element 2 is 2-3-6-5. */
static void inverted(mech_mesh *m)
{
    int *c = m->conn + 4;
    int t = c[1];
    c[1] = c[3], c[3] = t;
}

static void missing_node(mech_mesh *m)
{
    m->conn[2] = 98;
}

static void repeated(mech_mesh *m)
{
    m->conn[4 + 2] = m->conn[4 + 0];
}

static void not_convex(mech_mesh *m)
{
    m->xy[2 * 4] = 0.2, m->xy[2 * 4 + 1] = 0.2; /* node 5 pulled inside element 1 */
}

static void degenerate(mech_mesh *m)
{
    /* element 2 becomes the triangle 2-3-6, node 6 moved onto the line through 2 and 3 */
    m->nvert[1] = 3;
    m->conn[4 + 2] = 5, m->conn[4 + 3] = -1; /* 2, 3, 6 */
    m->xy[2 * 5] = 3, m->xy[2 * 5 + 1] = 0;
}

static void five_nodes(mech_mesh *m)
{
    m->nvert[0] = 5;
}

static void not_finite(mech_mesh *m)
{
    m->xy[2 * 2 + 1] = INFINITY;
}

static void unused_node(mech_mesh *m)
{
    double *xy = mech_realloc(m->xy, 2 * 7 * sizeof(double));
    if (xy == NULL) return;
    m->xy = xy;
    xy[12] = 5, xy[13] = 5;
    m->nnodes = 7;
}

static void tri_pad(mech_mesh *m)
{
    m->nvert[0] = 3; /* conn[3] is still node 4 */
}

static void group_unsorted(mech_mesh *m)
{
    int g = mech_mesh_find_group(m, "left");
    int t = m->groups[g].nodes[0];
    m->groups[g].nodes[0] = m->groups[g].nodes[1];
    m->groups[g].nodes[1] = t;
}

static void group_range(mech_mesh *m)
{
    m->groups[mech_mesh_find_group(m, "top")].nodes[2] = 6;
}

static void group_elems(mech_mesh *m)
{
    m->groups[mech_mesh_find_group(m, "top")].dim = 2;
    m->groups[mech_mesh_find_group(m, "all")].dim = 1;
}

static void no_elements(mech_mesh *m)
{
    m->nelems = 0;
}

static void test_check(void)
{
    check_case(inverted, "element 2 is inverted (area -1 m^2 < 0",
               "check: a clockwise element is inverted, with its area");
    check_case(missing_node, "element 1: node 99 does not exist (the mesh has 6 nodes)",
               "check: an element naming a node that does not exist");
    check_case(repeated, "element 2 repeats node 2", "check: a repeated corner");
    check_case(not_convex, "element 1 is not convex", "check: a non-convex quadrilateral");
    check_case(degenerate, "element 2 is degenerate (area 0 m^2)", "check: a zero-area triangle");
    check_case(five_nodes, "element 1 has 5 nodes (expected 3 or 4)", "check: five corners");
    check_case(not_finite, "node 3: its coordinates must be finite", "check: infinite coordinate");
    check_case(unused_node, "node 7 is not used by any element", "check: an unused node");
    check_case(tri_pad, "element 1 is a triangle: its fourth entry must be -1",
               "check: a triangle's padding");
    check_case(group_unsorted, "group 'left': its nodes must be sorted and distinct",
               "check: group nodes unsorted");
    check_case(group_range, "group 'top': node 7 does not exist", "check: group node range");
    check_case(group_elems, "group 'all': only a group of dim 2 lists elements",
               "check: elements in a group of dim 1");
    check_case(no_elements, "the mesh has no elements", "check: no elements");
    mech_mesh e = mech_mesh_empty();
    mech_error err;
    is_error(mech_mesh_check(&e, &err), MECH_ERR_ARG, &err, "the mesh has no nodes",
             "check: an empty mesh");
}

/*
** Sets given by hand, tidied: a 2 x 1 strip of quadrilaterals (nodes 0-2 below, 3-5 above);
** set "z" by its elements only, listed with a repeat, gets the sorted nodes of those
** elements; set "a" by its nodes, unsorted and repeated, gets them sorted and distinct; the
** sets come out ordered by name, and the result passes mech_mesh_check.  A node or an
** element out of range is an error naming the set.
*/
static void test_tidy(void)
{
    mech_rectangle_def d = mech_rectangle_default();
    d.size[0] = 2, d.size[1] = 1, d.nx = 2, d.ny = 1, d.numbering = MECH_ROWS_FROM_BOTTOM;
    mech_mesh m = mech_mesh_empty();
    mech_error err;
    if (mech_mesh_rectangle(&m, &d, &err)) diag("rectangle: %s", err.msg);
    for (int g = 0; g < m.ngroups; g++) mech_free(m.groups[g].nodes), mech_free(m.groups[g].elems);
    mech_free(m.groups);
    m.ngroups = 2;
    m.groups = mech_calloc(2, sizeof *m.groups);
    mech_mesh_group *z = &m.groups[0], *a = &m.groups[1];
    snprintf(z->name, sizeof z->name, "z");
    z->dim = 2;
    z->nelems = 3;
    z->elems = mech_malloc(3 * sizeof(int));
    z->elems[0] = 1, z->elems[1] = 1, z->elems[2] = 0;
    snprintf(a->name, sizeof a->name, "a");
    a->dim = 0;
    a->nnodes = 4;
    a->nodes = mech_malloc(4 * sizeof(int));
    a->nodes[0] = 5, a->nodes[1] = 1, a->nodes[2] = 5, a->nodes[3] = 0;
    int st = mech_mesh_tidy_groups(&m, &err);
    const mech_mesh_group *ga = &m.groups[0], *gz = &m.groups[1];
    ok(st == MECH_OK && strcmp(ga->name, "a") == 0 && strcmp(gz->name, "z") == 0,
       "tidy: the sets ordered by name");
    ok(ga->nnodes == 3 && ga->nodes[0] == 0 && ga->nodes[1] == 1 && ga->nodes[2] == 5,
       "tidy: a set's nodes sorted and distinct");
    int want[] = {0, 1, 2, 3, 4, 5}, same = gz->nnodes == 6 && gz->nelems == 2;
    for (int k = 0; same && k < 6; k++) same = gz->nodes[k] == want[k];
    ok(same && gz->elems[0] == 0 && gz->elems[1] == 1,
       "tidy: a set of elements gets the sorted nodes of its elements");
    ok(mech_mesh_check(&m, &err) == MECH_OK, "tidy: the result passes mech_mesh_check");
    m.groups[1].elems[1] = 7;
    is_error(mech_mesh_tidy_groups(&m, &err), MECH_ERR_ARG, &err,
             "set 'z': element 8 does not exist (the mesh has 2)", "tidy: an element out of range");
    m.groups[1].elems[1] = 1;
    m.groups[0].nodes[2] = -1;
    is_error(mech_mesh_tidy_groups(&m, &err), MECH_ERR_ARG, &err,
             "set 'a': node 0 does not exist (the mesh has 6)", "tidy: a node out of range");
    mech_mesh_free(&m);
}

/* ---- gmsh files ---------------------------------------------------------------------------- */

static void test_square(void)
{
    mech_mesh a, b;
    mech_error err;
    mech_status sa = mech_mesh_read_msh(&a, data_file("square_22.msh"), &err);
    if (!ok(sa == MECH_OK, "square_22.msh reads")) diag("%s", err.msg);
    mech_status sb = mech_mesh_read_msh(&b, data_file("square_41.msh"), &err);
    if (!ok(sb == MECH_OK, "square_41.msh reads")) diag("%s", err.msg);
    if (sa || sb) {
        mech_mesh_free(&a);
        mech_mesh_free(&b);
        return;
    }
    ok(a.nnodes == 9 && a.nelems == 5,
       "square: 9 nodes (node 10, in no element, dropped), 5 elements (element 11 repeats 6)");
    int tags = a.tag != NULL;
    for (int i = 0; tags && i < 9; i++) tags = a.tag[i] == i + 1;
    ok(tags, "square: nodes keep their file numbers, in order");
    is_xy(&a, 5, 0.5, 0, "square: node 5 at (0.5, 0)");
    is_xy(&a, 9, 0.5, 0.5, "square: node 9 at the centre");
    const int q1[] = {1, 5, 9, 8}, t1[] = {9, 6, 3}, t2[] = {9, 3, 7};
    is_corners(&a, 1, q1, 4, "square: element 1 as in the file");
    is_corners(&a, 4, t1, 3, "square: element 4, a triangle");
    is_corners(&a, 5, t2, 3, "square: element 5, given clockwise 9-7-3, turned to 9-3-7");
    double sum, mn = areas(&a, &sum);
    ok(mn > 0 && fabs(sum - 1) < 1e-15, "square: every element counter-clockwise, area 1");
    ok(a.ngroups == 5 && strcmp(a.groups[0].name, "0:5") == 0 &&
           strcmp(a.groups[1].name, "bottom") == 0 && strcmp(a.groups[2].name, "top") == 0 &&
           strcmp(a.groups[3].name, "body") == 0 && strcmp(a.groups[4].name, "corner") == 0,
       "square: groups 0:5 (unnamed point), bottom, top, body, corner");
    ok(a.groups[0].dim == 0 && a.groups[0].tag == 5 && a.groups[1].dim == 1 &&
           a.groups[1].tag == 1 && a.groups[3].dim == 2 && a.groups[3].tag == 3,
       "square: groups keep gmsh's dimension and physical tag");
    const int pt[] = {1}, bottom[] = {1, 2, 5}, top[] = {3, 4, 7}, corner[] = {1, 5, 8, 9};
    is_nodes(&a, "0:5", pt, 1, "square: the physical point");
    is_nodes(&a, "bottom", bottom, 3, "square: bottom, from its lines");
    is_nodes(&a, "top", top, 3, "square: top, from its lines");
    is_nodes(&a, "corner", corner, 4, "square: corner, the nodes of element 1");
    int body = mech_mesh_find_group(&a, "body"), corner_g = mech_mesh_find_group(&a, "corner");
    ok(a.groups[body].nnodes == 9 && a.groups[body].nelems == 5 && a.groups[corner_g].nelems == 1 &&
           a.groups[corner_g].elems[0] == 0 && a.groups[1].nelems == 0,
       "square: body holds the 5 elements, corner element 1, lines list none");
    ok(same_mesh(&a, &b), "square: the 2.2 and 4.1 files give the same mesh and groups");
    ok(mech_mesh_check(&a, &err) == MECH_OK, "square: the mesh read checks");
    mech_mesh_free(&a);
    mech_mesh_free(&b);
}

/* Area of the polygon through the nodes of a group, taken in angle order about (cx, cy). */
static double hole_area(const mech_mesh *m, const char *group, double cx, double cy, int *n)
{
    int g = mech_mesh_find_group(m, group);
    *n = 0;
    if (g < 0) return 0;
    int k = m->groups[g].nnodes;
    double *ang = malloc((size_t)k * sizeof *ang);
    int *id = malloc((size_t)k * sizeof *id);
    if (!ang || !id) {
        free(ang);
        free(id);
        return 0;
    }
    for (int i = 0; i < k; i++) {
        id[i] = m->groups[g].nodes[i];
        ang[i] = atan2(m->xy[2 * id[i] + 1] - cy, m->xy[2 * id[i]] - cx);
    }
    for (int i = 1; i < k; i++) /* insertion sort by angle */
        for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
            double ta = ang[j];
            ang[j] = ang[j - 1], ang[j - 1] = ta;
            int ti = id[j];
            id[j] = id[j - 1], id[j - 1] = ti;
        }
    double a = 0;
    for (int i = 0; i < k; i++) {
        const double *p = m->xy + 2 * id[i], *q = m->xy + 2 * id[(i + 1) % k];
        a += p[0] * q[1] - q[0] * p[1];
    }
    free(ang);
    free(id);
    *n = k;
    return 0.5 * a;
}

static void test_plate_with_hole(void)
{
    const char *files[] = {"plate_hole_41.msh", "plate_hole_22.msh"};
    mech_mesh m[2];
    mech_error err;
    for (int f = 0; f < 2; f++) {
        char name[128];
        snprintf(name, sizeof name, "gmsh's %s reads", files[f]);
        if (!ok(mech_mesh_read_msh(&m[f], data_file(files[f]), &err) == MECH_OK, name)) {
            diag("%s", err.msg);
            return;
        }
    }
    /* gmsh wrote 232 nodes (not the centre of the hole: no element uses it), 196 quadrangles */
    int quads = 1;
    for (int e = 0; e < m[0].nelems; e++) quads &= m[0].nvert[e] == 4;
    ok(m[0].nnodes == 232 && m[0].nelems == 196 && quads, "plate: 196 quadrangles on 232 nodes");
    int tags = 1;
    for (int i = 0; i < m[0].nnodes; i++) tags &= m[0].tag[i] == i + 1;
    ok(tags, "plate: nodes numbered as in the file");
    /* the 16 nodes gmsh put on the hole are evenly spaced (lc = 0.012 m on arcs of
    ** 0.039 m: 4 segments each), so their polygon is the regular one: n/2 r^2 sin(2 pi / n) */
    int n;
    double hole = hole_area(&m[0], "hole", 0.1, 0.05, &n), sum, mn = areas(&m[0], &sum);
    double regular = 0.5 * n * 0.025 * 0.025 * sin(2 * 3.14159265358979323846 / n);
    ok(n == 16 && fabs(hole - regular) < 1e-15,
       "plate: the hole is the regular 16-gon of radius 0.025 m");
    diag("plate: polygon %.12g m^2 for a circle of %.12g m^2", hole,
         3.14159265358979323846 * 0.025 * 0.025);
    ok(mn > 0 && fabs(sum - (0.02 - hole)) < 1e-15,
       "plate: the elements are counter-clockwise and cover the plate minus the hole polygon");
    const int corner[] = {1};
    is_nodes(&m[0], "corner", corner, 1, "plate: the physical point corner is node 1");
    is_xy(&m[0], 1, 0, 0, "plate: node 1 at the origin");
    int bottom = mech_mesh_find_group(&m[0], "bottom"),
        plate = mech_mesh_find_group(&m[0], "plate");
    int flat = bottom >= 0;
    for (int k = 0; flat && k < m[0].groups[bottom].nnodes; k++)
        flat = m[0].xy[2 * m[0].groups[bottom].nodes[k] + 1] == 0;
    ok(flat && m[0].groups[bottom].nnodes == 19, "plate: bottom holds the 19 nodes on y = 0");
    ok(plate >= 0 && m[0].groups[plate].dim == 2 && m[0].groups[plate].nelems == 196 &&
           m[0].groups[plate].nnodes == 232,
       "plate: the surface group holds every element");
    /* the two formats: the same mesh to the last digit gmsh writes */
    int same = m[0].nnodes == m[1].nnodes && m[0].nelems == m[1].nelems &&
               memcmp(m[0].conn, m[1].conn, 4 * (size_t)m[0].nelems * sizeof(int)) == 0 &&
               memcmp(m[0].tag, m[1].tag, (size_t)m[0].nnodes * sizeof(int)) == 0 &&
               m[0].ngroups == m[1].ngroups;
    for (int i = 0; same && i < 2 * m[0].nnodes; i++) same = fabs(m[0].xy[i] - m[1].xy[i]) <= 1e-15;
    ok(same, "plate: MSH 4.1 and 2.2 give the same mesh");
    ok(mech_mesh_check(&m[0], &err) == MECH_OK && mech_mesh_check(&m[1], &err) == MECH_OK,
       "plate: both check");
    mech_mesh_free(&m[0]);
    mech_mesh_free(&m[1]);
}

/* One malformed file: the status, "name:line:" and a part of the message. */
static void bad_file(const char *name, const char *text, int line, const char *part,
                     const char *title)
{
    const char *path = write_file(name, text, strlen(text));
    char where[600];
    if (line > 0)
        snprintf(where, sizeof where, "%s:%d: ", path, line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    mech_mesh m;
    mech_error err;
    mech_status st = mech_mesh_read_msh(&m, path, &err);
    int pass = st == MECH_ERR_ARG && strncmp(err.msg, where, strlen(where)) == 0 &&
               contains(err.msg, part) && m.nnodes == 0 && m.xy == NULL;
    if (!ok(pass, title))
        diag("got %s '%s', want '%s...%s'", mech_status_name(st), err.msg, where, part);
    mech_mesh_free(&m);
}

#define HEAD22  "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
#define NODES22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n" /* lines 4-10 */

static void test_malformed(void)
{
    mech_mesh m;
    mech_error err;
    char missing[600];
    snprintf(missing, sizeof missing, "%s/no_such.msh", tmpdir);
    mech_status st = mech_mesh_read_msh(&m, missing, &err);
    ok(st == MECH_ERR_IO && contains(err.msg, missing) && contains(err.msg, "No such file"),
       "a missing file: MECH_ERR_IO naming the path and the reason");
    diag("%s", err.msg);

    /* binary: the header says file-type 1, then binary data follows */
    static const char binary[] = "$MeshFormat\n4.1 1 8\n\x01\x00\x00\x00\n$EndMeshFormat\n";
    const char *path = write_file("binary.msh", binary, sizeof binary - 1);
    st = mech_mesh_read_msh(&m, path, &err);
    ok(st == MECH_ERR_ARG && contains(err.msg, "binary.msh:2: binary gmsh files are not supported"),
       "a binary file is refused on line 2");
    bad_file("v30.msh", "$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", 2,
             "gmsh format version '3.0' is not supported", "version 3.0 is refused");
    bad_file("v40.msh", "$MeshFormat\n4 0 8\n$EndMeshFormat\n", 2, "version '4' is not supported",
             "version 4.0 is refused");
    bad_file("empty.msh", "\n\n", 0, "the file is empty", "an empty file");
    bad_file("nohead.msh", "\n$Nodes\n0\n$EndNodes\n", 2, "expected $MeshFormat at the start",
             "a file without $MeshFormat");
    bad_file("type9.msh",
             HEAD22 NODES22 "$Elements\n2\n1 2 2 1 1 1 2 3\n2 9 2 1 1 1 2 3 4 1 2\n$EndElements\n",
             14, "element type 9 (6-node second-order triangle) is not supported",
             "a 6-node triangle (type 9) is refused, on its line");
    bad_file("type4.msh",
             "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 "
             "0 0\n0 1 0\n0 0 1\n$EndNodes\n$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n$EndElements\n",
             18, "element type 4 (4-node tetrahedron)", "4.1: a tetrahedron block is refused");
    bad_file("badnum.msh", HEAD22 "$Nodes\n2\n1 0 0 0\n2 0.5x 0 0\n$EndNodes\n", 7,
             "expected the x coordinate of a node (a number), got '0.5x'",
             "a malformed number, on its line");
    bad_file("badint.msh", HEAD22 "$Nodes\n1.5\n", 5, "got '1.5'",
             "a count that is not an integer");
    bad_file("unknown_node.msh",
             HEAD22 NODES22 "$Elements\n2\n1 3 2 1 1 1 2 3 4\n2 2 2 1 1 1 3 99\n$EndElements\n", 14,
             "element 2 uses node 99, which $Nodes does not define",
             "an element using an undefined node");
    bad_file("nosurf.msh", HEAD22 NODES22 "$Elements\n1\n1 1 2 1 1 1 2\n$EndElements\n", 0,
             "no triangles or quadrangles", "a file with lines only");
    bad_file("huge.msh", HEAD22 "$Nodes\n2000000000\n1 0 0 0\n$EndNodes\n", 7,
             "expected a node tag (an integer from 1 to 2147483647), got '$EndNodes'",
             "a huge count is not trusted: the file's end decides");
    bad_file("hugeblock.msh",
             "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 9000000000000 1 "
             "9000000000000\n2 1 0 9000000000000\n1\n",
             7, "the file ends in $Nodes (expected a node tag", "4.1: a huge block count");
    bad_file("mismatch.msh",
             "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 5 1 4\n2 1 0 4\n1\n2\n3\n4\n0 0 0\n1 "
             "0 0\n1 1 0\n0 1 0\n$EndNodes\n",
             5, "$Nodes announces 5 nodes but its blocks hold 4", "4.1: node counts that disagree");
    bad_file("extra.msh", HEAD22 "$Nodes\n1\n1 0 0 0\n2 1 0 0\n$EndNodes\n", 7,
             "expected $EndNodes, got '2'", "more nodes than announced");
    bad_file("planar.msh",
             HEAD22 "$Nodes\n3\n1 0 0 0\n2 1 0 0.5\n3 0 1 0\n$EndNodes\n$Elements\n1\n1 2 2 1 1 1 "
                    "2 3\n$EndElements\n",
             7, "the mesh is not planar (node 2 has z = 0.5", "a mesh out of the plane z = 0");
    bad_file("twice.msh",
             HEAD22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n2 0 1 0\n$EndNodes\n$Elements\n1\n1 2 2 1 1 1 2 "
                    "3\n$EndElements\n",
             8, "node 2 is defined twice (first on line 7)", "a node defined twice");
    bad_file("flat.msh",
             HEAD22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 2 0 0\n$EndNodes\n$Elements\n1\n7 2 2 1 1 1 2 "
                    "3\n$EndElements\n",
             12, "element 7 is degenerate", "a zero-area triangle in a file");
    bad_file("repeat.msh", HEAD22 NODES22 "$Elements\n1\n1 3 2 1 1 1 2 2 4\n$EndElements\n", 13,
             "element 1 repeats node 2", "an element repeating a node");
    bad_file("dart.msh",
             HEAD22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0.2 0.2 0\n4 0 1 0\n$EndNodes\n$Elements\n1\n1 "
                    "3 2 1 1 1 2 3 4\n$EndElements\n",
             13, "element 1 is not convex (its angle at node 3", "a non-convex quadrangle");
    bad_file("open.msh", HEAD22 "$Comments\nnot closed\n", 4, "section $Comments is not closed",
             "an unknown section that never ends");
    bad_file("quote.msh", HEAD22 "$PhysicalNames\n1\n2 1 \"body\n\"\n$EndPhysicalNames\n", 6,
             "the name is not closed", "a physical name without its closing quote");
    bad_file("longname.msh",
             HEAD22 "$PhysicalNames\n1\n2 1 "
                    "\"a_name_much_longer_than_sixty_three_characters_is_refused_by_the_reader\"\n$"
                    "EndPhysicalNames\n",
             6, "is longer than 63 characters", "a physical name too long");
    bad_file("second.msh", HEAD22 NODES22 NODES22, 11, "a second $Nodes section",
             "a second $Nodes section");
    bad_file("junk.msh", HEAD22 "hello\n", 4, "expected a section such as $Nodes, got 'hello'",
             "text outside a section");
    bad_file("noelems.msh", HEAD22 NODES22, 0, "no $Elements section", "no $Elements");
}

/* Every prefix of the 4.1 square: refused with the file name (or read when the cut falls
** after $EndElements), never a crash or a leak; and a cut in each section names it. */
static void test_truncated(void)
{
    size_t len = 0;
    char *text = slurp(data_file("square_41.msh"), &len);
    if (!ok(text != NULL, "square_41.msh loads for the truncation tests")) return;
    const char *end_elems = strstr(text, "$EndElements\n");
    size_t complete = end_elems ? (size_t)(end_elems - text) + strlen("$EndElements") : len;
    int clean = 1, reads = 0;
    for (size_t n = 0; n < len; n++) {
        const char *path = write_file("cut.msh", text, n);
        mech_mesh m;
        mech_error err;
        mech_status st = mech_mesh_read_msh(&m, path, &err);
        if (st == MECH_OK) {
            reads++;
            if (n < complete) {
                clean = 0;
                diag("a cut at byte %zu reads", n);
            }
        } else if (st != MECH_ERR_ARG || strncmp(err.msg, path, strlen(path)) != 0) {
            clean = 0;
            diag("a cut at byte %zu: %s %s", n, mech_status_name(st), err.msg);
        }
        mech_mesh_free(&m);
    }
    ok(clean && reads > 0,
       "every byte prefix of square_41.msh is refused with the file's name until $EndElements");

    /* cuts after whole lines: in each section, the message names it and the last line */
    static const struct {
        int lines, chars; /* whole lines, then characters of the next */
        const char *part;
    } cuts[] = {
        {2, 0, "cut.msh:2: the file ends in $MeshFormat (expected $EndMeshFormat)"},
        {7, 0, "cut.msh:7: the file ends in $PhysicalNames (expected the dimension of a physical"},
        {13, 0, "cut.msh:13: the file ends in $Entities (expected an entity tag"},
        {31, 0, "cut.msh:31: the file ends in $Nodes (expected the x coordinate of a node"},
        {55, 0, "cut.msh:55: the file ends in $Elements (expected an element tag"},
        {65, 6, "cut.msh:66: the file ends in $Elements (expected a node tag"},
        {80, 0, "cut.msh:72: section $NodeData is not closed (no $EndNodeData)"},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        size_t n = 0;
        for (int l = 0; l < cuts[i].lines && n < len; n++)
            if (text[n] == '\n') l++;
        n += (size_t)cuts[i].chars;
        const char *path = write_file("cut.msh", text, n);
        mech_mesh m;
        mech_error err;
        mech_status st = mech_mesh_read_msh(&m, path, &err);
        char name[96];
        snprintf(name, sizeof name, "square_41.msh cut after line %d and %d characters",
                 cuts[i].lines, cuts[i].chars);
        if (!ok(st == MECH_ERR_ARG && contains(err.msg, cuts[i].part), name))
            diag("got '%s'", err.msg);
        mech_mesh_free(&m);
    }
    free(text);
}

int main(void)
{
    const char *src = getenv("MECHLUA_SOURCE");
    snprintf(srcdir, sizeof srcdir, "%s", src && *src ? src : ".");
    snprintf(tmpdir, sizeof tmpdir, "%s/mech_mesh_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(tmpdir) == NULL) {
        printf("Bail out! cannot create a temporary folder\n");
        return 1;
    }
    test_defaults();
    test_spec000_5x5();
    test_spec000_fig12();
    test_from_bottom_and_triangles();
    test_rectangle_errors();
    test_check();
    test_tidy();
    test_square();
    test_plate_with_hole();
    test_malformed();
    test_truncated();

    /* remove what the tests wrote */
    static const char *const written[] = {
        "binary.msh",    "v30.msh",          "v40.msh",      "empty.msh",
        "nohead.msh",    "type9.msh",        "type4.msh",    "badnum.msh",
        "badint.msh",    "unknown_node.msh", "nosurf.msh",   "huge.msh",
        "hugeblock.msh", "mismatch.msh",     "extra.msh",    "planar.msh",
        "twice.msh",     "flat.msh",         "repeat.msh",   "dart.msh",
        "open.msh",      "quote.msh",        "longname.msh", "second.msh",
        "junk.msh",      "noelems.msh",      "cut.msh",      NULL};
    for (int i = 0; written[i]; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", tmpdir, written[i]);
        remove(p);
    }
    rmdir(tmpdir);
    return done_testing();
}

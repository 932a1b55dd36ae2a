/* SPDX-License-Identifier: MIT */
/*
** Planar meshes for Lua:
**   mech.mesh.rectangle{ size = {w, h} | width, height, origin = {x, y} | center = {x, y},
**                        nx, ny, triangles = false, numbering = "top" | "bottom" }
**   mech.mesh.read(path)     a gmsh file, MSH 2.2 or 4.1 (ASCII)
**   mech.mesh.check(t)       checks a mesh table made by hand; returns it
** A mesh is a plain table (lmesh.h) that scripts may read and build, with the metatable
** "mech.mesh" for tostring(m) and the methods m:find_nodes{...} and m:node_at{x, y}.
**
** The C mesh a constructor makes lives in a userdata with __gc until its table is built,
** so that a memory error while pushing leaks nothing.  lmesh_check validates the whole
** table first (raising on the first fault) and only then allocates and copies, with raw
** accesses that cannot raise: an error never leaves C memory behind.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "host.h"
#include "lmesh.h"
#include "lutil.h"

#define HOLDER_MT "mech.mesh.holder"
/* Longest list read from a table (nodes, elements, a group). */
#define MAX_ITEMS (1 << 26)

/* ---- pushing a mesh ----------------------------------------------------------------------- */

/* Every 4096 items, takes a Ctrl-C: building the tables of a large mesh runs no Lua code
** that the interrupt hook could stop (1e7 cells take a minute). */
static void poll_interrupt(lua_State *L, int i)
{
    if ((i & 4095) == 4095 && host_interrupt_requested()) {
        host_interrupt_consume(L);
        luaL_error(L, "interrupted");
    }
}

/* Pushes {a[0] + 1, ..., a[n - 1] + 1}. */
static void push_numbers(lua_State *L, const int *a, int n)
{
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_pushinteger(L, (lua_Integer)a[k] + 1);
        lua_rawseti(L, -2, k + 1);
    }
}

int lmesh_push(lua_State *L, const mech_mesh *m)
{
    luaL_checkstack(L, 8, "mesh");
    lua_createtable(L, 0, 4);
    lua_createtable(L, m->nnodes, 0);
    for (int i = 0; i < m->nnodes; i++) {
        poll_interrupt(L, i);
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, m->xy[2 * i]);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, m->xy[2 * i + 1]);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "nodes");
    lua_createtable(L, m->nelems, 0);
    for (int e = 0; e < m->nelems; e++) {
        poll_interrupt(L, e);
        push_numbers(L, m->conn + 4 * e, m->nvert[e]);
        lua_rawseti(L, -2, e + 1);
    }
    lua_setfield(L, -2, "elements");
    lua_createtable(L, 0, m->ngroups);
    for (int g = 0; g < m->ngroups; g++) {
        const mech_mesh_group *gr = &m->groups[g];
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, gr->dim);
        lua_setfield(L, -2, "dim");
        if (gr->tag) {
            lua_pushinteger(L, gr->tag);
            lua_setfield(L, -2, "tag");
        }
        push_numbers(L, gr->nodes, gr->nnodes);
        lua_setfield(L, -2, "nodes");
        if (gr->dim == 2) {
            push_numbers(L, gr->elems, gr->nelems);
            lua_setfield(L, -2, "elements");
        }
        lua_setfield(L, -2, gr->name);
    }
    lua_setfield(L, -2, "groups");
    if (m->tag) {
        lua_createtable(L, m->nnodes, 0);
        for (int i = 0; i < m->nnodes; i++) {
            lua_pushinteger(L, m->tag[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "tags");
    }
    luaL_setmetatable(L, LMESH_MT);
    return 1;
}

/* ---- reading a mesh table ------------------------------------------------------------------- */

/* Pushes t[key] without metamethods; returns its type. */
static int rawfield(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

/* The value at idx as an integer in [lo, hi]: 1 and *out set, else 0. */
static int integer_at(lua_State *L, int idx, lua_Integer lo, lua_Integer hi, lua_Integer *out)
{
    int isnum = 0;
    lua_Integer v = lua_type(L, idx) == LUA_TNUMBER ? lua_tointegerx(L, idx, &isnum) : 0;
    *out = v;
    return isnum && v >= lo && v <= hi;
}

/* "3", "2.5" or "string": a value for a message (pushed, and returned). */
static const char *describe(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) return luaL_tolstring(L, idx, NULL);
    return lua_pushstring(L, luaL_typename(L, idx));
}

/* Checks that the table on top is a list of integers in [1, max]; returns its length. */
static int check_numbers(lua_State *L, const char *fn, const char *group, const char *what,
                         lua_Integer max)
{
    if (!lua_istable(L, -1))
        lu_error(L, fn, "mesh: group '%s': field '%s' must be a list of %s numbers (got %s)", group,
                 what, what[0] == 'n' ? "node" : "element", luaL_typename(L, -1));
    lua_Unsigned n = lua_rawlen(L, -1);
    if (n > MAX_ITEMS) lu_error(L, fn, "mesh: group '%s': too many %s", group, what);
    for (lua_Unsigned k = 1; k <= n; k++) {
        lua_rawgeti(L, -1, (lua_Integer)k);
        lua_Integer v;
        if (!integer_at(L, -1, 1, max, &v)) {
            const char *got = describe(L, -1);
            if (lua_type(L, -2) == LUA_TNUMBER && lua_isinteger(L, -2))
                lu_error(L, fn, "mesh: group '%s': %s %s does not exist (the mesh has %lld)", group,
                         what[0] == 'n' ? "node" : "element", got, (long long)max);
            lu_error(L, fn, "mesh: group '%s': %s[%d] must be a number from 1 to %lld (got %s)",
                     group, what, (int)k, (long long)max, got);
        }
        lua_pop(L, 1);
    }
    return (int)n;
}

/* Counts read by the first pass; the tables sit at base + 1 .. base + 4. */
typedef struct mesh_shape {
    int nnodes, nelems, ngroups;
} mesh_shape;

/* First pass: raises on the first fault, allocates nothing (but Lua values). */
static void validate(lua_State *L, int t, const char *fn, mesh_shape *s)
{
    memset(s, 0, sizeof *s);
    luaL_checkstack(L, 16, fn);
    int base = lua_gettop(L);
    if (rawfield(L, t, "nodes") != LUA_TTABLE || lua_rawlen(L, -1) == 0)
        lu_error(L, fn, "mesh: field 'nodes' must be a list of nodes {{x, y}, ...} (got %s)",
                 lua_istable(L, -1) ? "an empty table" : luaL_typename(L, -1));
    if (lua_rawlen(L, -1) > MAX_ITEMS) lu_error(L, fn, "mesh: too many nodes");
    s->nnodes = (int)lua_rawlen(L, -1);
    for (int i = 1; i <= s->nnodes; i++) {
        int good = lua_rawgeti(L, -1, i) == LUA_TTABLE && lua_rawlen(L, -1) == 2;
        for (int k = 1; good && k <= 2; k++) {
            good = lua_rawgeti(L, -1, k) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
            lua_pop(L, 1);
        }
        if (!good && lua_istable(L, -1))
            lu_error(L, fn, "mesh: node %d must be {x, y}, two finite numbers", i);
        if (!good)
            lu_error(L, fn, "mesh: node %d must be {x, y}, two finite numbers (got %s)", i,
                     luaL_typename(L, -1));
        lua_pop(L, 1);
    }
    if (rawfield(L, t, "elements") != LUA_TTABLE || lua_rawlen(L, -1) == 0)
        lu_error(L, fn,
                 "mesh: field 'elements' must be a list of elements {{n1, n2, n3[, n4]}, ...} "
                 "(got %s)",
                 lua_istable(L, -1) ? "an empty table" : luaL_typename(L, -1));
    if (lua_rawlen(L, -1) > MAX_ITEMS) lu_error(L, fn, "mesh: too many elements");
    s->nelems = (int)lua_rawlen(L, -1);
    for (int e = 1; e <= s->nelems; e++) {
        if (lua_rawgeti(L, -1, e) != LUA_TTABLE)
            lu_error(L, fn, "mesh: element %d must be a list of 3 or 4 node numbers (got %s)", e,
                     luaL_typename(L, -1));
        lua_Unsigned nv = lua_rawlen(L, -1);
        if (nv != 3 && nv != 4)
            lu_error(L, fn, "mesh: element %d has %llu nodes (expected 3 or 4)", e,
                     (unsigned long long)nv);
        for (int k = 1; k <= (int)nv; k++) {
            lua_rawgeti(L, -1, k);
            lua_Integer v;
            if (!integer_at(L, -1, 1, s->nnodes, &v)) {
                const char *got = describe(L, -1);
                if (lua_isinteger(L, -2))
                    lu_error(L, fn,
                             "mesh: element %d: node %s does not exist (the mesh has %d nodes)", e,
                             got, s->nnodes);
                lu_error(L, fn, "mesh: element %d: corner %d must be a node number (got %s)", e, k,
                         got);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    int type = rawfield(L, t, "tags");
    if (type != LUA_TNIL) {
        int good = type == LUA_TTABLE && lua_rawlen(L, -1) == (lua_Unsigned)s->nnodes;
        for (int i = 1; good && i <= s->nnodes; i++) {
            lua_Integer v;
            lua_rawgeti(L, -1, i);
            good = integer_at(L, -1, -2147483647, 2147483647, &v);
            lua_pop(L, 1);
        }
        if (!good)
            lu_error(L, fn, "mesh: field 'tags' must list one integer per node (%d)", s->nnodes);
    }
    type = rawfield(L, t, "groups");
    if (type != LUA_TNIL && type != LUA_TTABLE)
        lu_error(L, fn,
                 "mesh: field 'groups' must be a table { name = { nodes = {...} }, ... } (got %s)",
                 luaL_typename(L, -1));
    if (type == LUA_TTABLE) {
        int groups = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, groups)) {
            if (lua_type(L, -2) != LUA_TSTRING)
                lu_error(L, fn, "mesh: field 'groups': keys must be names (got a %s)",
                         luaL_typename(L, -2));
            size_t len;
            const char *name = lua_tolstring(L, -2, &len);
            if (len == 0 || len >= MECH_MESH_NAME_MAX || strlen(name) != len)
                lu_error(L, fn, "mesh: group name '%s' must have 1 to %d characters", name,
                         MECH_MESH_NAME_MAX - 1);
            if (!lua_istable(L, -1))
                lu_error(L, fn,
                         "mesh: group '%s' must be a table { dim = ..., nodes = {...}, "
                         "elements = {...} } (got %s)",
                         name, luaL_typename(L, -1));
            int g = lua_gettop(L), nn = -1, ne = -1;
            lua_Integer dim = -1, v;
            lua_pushnil(L);
            while (lua_next(L, g)) {
                const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
                if (strcmp(k, "dim") == 0) {
                    if (!integer_at(L, -1, 0, 2, &dim))
                        lu_error(L, fn, "mesh: group '%s': dim must be 0, 1 or 2 (got %s)", name,
                                 describe(L, -1));
                } else if (strcmp(k, "tag") == 0) {
                    if (!integer_at(L, -1, -2147483647, 2147483647, &v))
                        lu_error(L, fn, "mesh: group '%s': tag must be an integer (got %s)", name,
                                 describe(L, -1));
                } else if (strcmp(k, "nodes") == 0) {
                    nn = check_numbers(L, fn, name, "nodes", s->nnodes);
                } else if (strcmp(k, "elements") == 0) {
                    ne = check_numbers(L, fn, name, "elements", s->nelems);
                } else {
                    lu_error(L, fn,
                             "mesh: group '%s': unknown field %s (known fields: dim, tag, "
                             "nodes, elements)",
                             name,
                             lua_type(L, -2) == LUA_TSTRING
                                 ? lua_pushfstring(L, "'%s'", lua_tostring(L, -2))
                                 : luaL_typename(L, -2));
                }
                lua_pop(L, 1);
            }
            if (nn < 0 && ne < 0)
                lu_error(L, fn, "mesh: group '%s' lists no nodes and no elements", name);
            if (ne >= 0 && dim >= 0 && dim != 2)
                lu_error(L, fn, "mesh: group '%s': only a group of dim 2 lists elements", name);
            if (s->ngroups == MAX_ITEMS) lu_error(L, fn, "mesh: too many groups");
            s->ngroups++;
            lua_pop(L, 1);
        }
    }
    lua_settop(L, base + 4); /* nodes, elements, tags, groups */
}

/* Copies the list on top (numbers from 1, checked) to a[] from 0. */
static void copy_numbers(lua_State *L, int *a, int n)
{
    for (int k = 0; k < n; k++) {
        lua_rawgeti(L, -1, k + 1);
        a[k] = (int)lua_tointeger(L, -1) - 1;
        lua_pop(L, 1);
    }
}

/* Second pass: copies the checked tables at base + 1 .. base + 4 into m; 0 when memory
** runs out.  Uses only raw accesses and lua_next on checked tables: it cannot raise. */
static int copy_mesh(lua_State *L, int base, const mesh_shape *s, mech_mesh *m)
{
    int nodes = base + 1, elems = base + 2, tags = base + 3, groups = base + 4;
    m->nnodes = s->nnodes;
    m->nelems = s->nelems;
    m->xy = mech_malloc(2 * (size_t)s->nnodes * sizeof(double));
    m->nvert = mech_malloc((size_t)s->nelems * sizeof(int));
    m->conn = mech_malloc(4 * (size_t)s->nelems * sizeof(int));
    m->tag = lua_istable(L, tags) ? mech_malloc((size_t)s->nnodes * sizeof(int)) : NULL;
    m->groups = s->ngroups ? mech_calloc((size_t)s->ngroups, sizeof *m->groups) : NULL;
    if (!m->xy || !m->nvert || !m->conn || (lua_istable(L, tags) && !m->tag) ||
        (s->ngroups && !m->groups))
        return 0;
    for (int i = 0; i < s->nnodes; i++) {
        lua_rawgeti(L, nodes, i + 1);
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        m->xy[2 * i] = lua_tonumber(L, -2);
        m->xy[2 * i + 1] = lua_tonumber(L, -1);
        lua_pop(L, 3);
        if (m->tag) {
            lua_rawgeti(L, tags, i + 1);
            m->tag[i] = (int)lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
    }
    for (int e = 0; e < s->nelems; e++) {
        lua_rawgeti(L, elems, e + 1);
        int nv = (int)lua_rawlen(L, -1);
        m->nvert[e] = nv;
        m->conn[4 * e + 3] = -1;
        copy_numbers(L, m->conn + 4 * e, nv);
        lua_pop(L, 1);
    }
    if (!lua_istable(L, groups)) return 1;
    int ok = 1;
    lua_pushnil(L);
    while (lua_next(L, groups)) {
        mech_mesh_group *g = &m->groups[m->ngroups++];
        strcpy(g->name, lua_tostring(L, -2)); /* checked: shorter than the field */
        int given_dim = -1;
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            const char *k = lua_tostring(L, -2);
            int n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
            if (strcmp(k, "dim") == 0) {
                given_dim = (int)lua_tointeger(L, -1);
            } else if (strcmp(k, "tag") == 0) {
                g->tag = (int)lua_tointeger(L, -1);
            } else if (strcmp(k, "nodes") == 0) {
                g->nodes = n ? mech_malloc((size_t)n * sizeof(int)) : NULL;
                if (n && !g->nodes) ok = 0;
                if (g->nodes) copy_numbers(L, g->nodes, g->nnodes = n);
            } else if (strcmp(k, "elements") == 0) {
                g->elems = n ? mech_malloc((size_t)n * sizeof(int)) : NULL;
                if (n && !g->elems) ok = 0;
                if (g->elems) copy_numbers(L, g->elems, g->nelems = n);
                if (given_dim < 0) g->dim = 2;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (given_dim >= 0) g->dim = given_dim;
    }
    return ok; /* sorted and completed by mech_mesh_tidy_groups */
}

int lmesh_check(lua_State *L, int idx, const char *fname, mech_mesh *out)
{
    *out = mech_mesh_empty();
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        lu_error(L, fname,
                 "mesh: expected a mesh table { nodes = {{x, y}, ...}, elements = {{n1, n2, n3, "
                 "n4}, ...} } (got %s)",
                 luaL_typename(L, idx));
    int base = lua_gettop(L);
    mesh_shape s;
    validate(L, idx, fname, &s);
    /* nothing below raises until the mesh is whole or freed */
    mech_mesh m = mech_mesh_empty();
    int ok = copy_mesh(L, base, &s, &m);
    lua_settop(L, base);
    if (!ok) {
        mech_mesh_free(&m);
        return lu_error(L, fname, "mesh: out of memory (%d nodes, %d elements)", s.nnodes,
                        s.nelems);
    }
    mech_error err;
    if (mech_mesh_tidy_groups(&m, &err) != MECH_OK || mech_mesh_check(&m, &err) != MECH_OK) {
        mech_mesh_free(&m);
        return lu_error(L, fname, "mesh: %s", err.msg);
    }
    *out = m;
    return 0;
}

/* ---- the mesh table's methods ---------------------------------------------------------- */

/* Reads the coordinates of self.nodes into a userdata (pushed): xy[2 n]. */
static double *read_nodes(lua_State *L, int self, const char *fn, int *n)
{
    if (rawfield(L, self, "nodes") != LUA_TTABLE)
        lu_error(L, fn, "the mesh has no field 'nodes' (got %s)", luaL_typename(L, -1));
    lua_Unsigned len = lua_rawlen(L, -1);
    if (len > MAX_ITEMS) lu_error(L, fn, "the mesh has too many nodes");
    *n = (int)len;
    double *xy = lua_newuserdatauv(L, 2 * (len ? len : 1) * sizeof(double), 0);
    for (int i = 0; i < *n; i++) {
        int good = lua_rawgeti(L, -2, i + 1) == LUA_TTABLE;
        for (int k = 0; good && k < 2; k++) {
            good = lua_rawgeti(L, -1, k + 1) == LUA_TNUMBER;
            xy[2 * i + k] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        if (!good) lu_error(L, fn, "node %d of the mesh must be {x, y}", i + 1);
        lua_pop(L, 1);
    }
    lua_remove(L, -2);
    return xy;
}

/* Pushes the names of the groups, sorted, joined by ", " (or "none"). */
static void push_group_names(lua_State *L, int self)
{
    int top = lua_gettop(L);
    lua_newtable(L);
    int names = top + 1, n = 0;
    if (rawfield(L, self, "groups") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) == LUA_TSTRING) {
                lua_pushvalue(L, -1);
                lua_rawseti(L, names, ++n);
            }
        }
    }
    lua_pop(L, 1);
    for (int i = 2; i <= n; i++) /* insertion sort: few groups */
        for (int j = i; j > 1; j--) {
            lua_rawgeti(L, names, j - 1);
            lua_rawgeti(L, names, j);
            if (strcmp(lua_tostring(L, -1), lua_tostring(L, -2)) >= 0) {
                lua_pop(L, 2);
                break;
            }
            lua_rawseti(L, names, j - 1);
            lua_rawseti(L, names, j);
        }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addstring(&b, ", ");
        lua_rawgeti(L, names, i);
        luaL_addvalue(&b);
    }
    if (n == 0) luaL_addstring(&b, "none");
    luaL_pushresult(&b);
    lua_replace(L, names);
    lua_settop(L, names);
}

/*
** m:find_nodes(selection): sorted node numbers.  selection is a function(x, y, node) that
** returns true for the nodes wanted, or a table whose fields all apply:
**   box = {xmin, ymin, xmax, ymax}  (edges included, within 1e-9 of the mesh's size)
**   group = "top"                   the nodes of a group
**   where = function(x, y, node)    as above
**   near = {x, y}                   only the nearest of the others (the lowest number on a tie)
** An empty result is an error.
*/
static int mesh_find_nodes(lua_State *L)
{
    const char *fn = "mesh:find_nodes";
    int self = lu_checktable(L, 1, fn, "(the mesh: call it as m:find_nodes{...})");
    int sel = 2, where = 0;
    static const char *const known[] = {"box", "group", "where", "near", NULL};
    if (lua_isfunction(L, sel)) {
        where = sel;
    } else if (lua_istable(L, sel)) {
        lu_checkfields(L, sel, fn, known, 0);
        if (lu_function(L, sel, fn, "where")) where = lua_gettop(L);
    } else {
        return lu_error(L, fn,
                        "expected a function(x, y) or a table { box = {xmin, ymin, xmax, ymax}, "
                        "group = name, near = {x, y}, where = function } (got %s)",
                        luaL_typename(L, sel));
    }
    int n;
    const double *xy = read_nodes(L, self, fn, &n);
    unsigned char *keep = lua_newuserdatauv(L, n ? (size_t)n : 1, 0);
    memset(keep, 1, (size_t)n);
    luaL_Buffer why; /* what was asked, for the message of an empty result */
    int nwhy = 0;
    lua_newtable(L);
    int reasons = lua_gettop(L);

    const char *group = lua_istable(L, sel) ? lu_string(L, sel, fn, "group", NULL) : NULL;
    if (group) {
        int ok = rawfield(L, self, "groups") == LUA_TTABLE &&
                 (lua_pushstring(L, group), lua_rawget(L, -2), 1) && lua_istable(L, -1);
        if (!ok) {
            push_group_names(L, self);
            return lu_error(L, fn, "the mesh has no group '%s' (groups: %s)", group,
                            lua_tostring(L, -1));
        }
        if (rawfield(L, lua_gettop(L), "nodes") != LUA_TTABLE)
            return lu_error(L, fn, "group '%s' has no field 'nodes'", group);
        unsigned char *in = lua_newuserdatauv(L, n ? (size_t)n : 1, 0);
        memset(in, 0, (size_t)n);
        lua_Unsigned len = lua_rawlen(L, -2);
        for (lua_Unsigned k = 1; k <= len; k++) {
            lua_rawgeti(L, -2, (lua_Integer)k);
            lua_Integer v;
            if (!integer_at(L, -1, 1, n, &v))
                return lu_error(L, fn, "group '%s': nodes[%d] is not a node of the mesh", group,
                                (int)k);
            in[v - 1] = 1;
            lua_pop(L, 1);
        }
        for (int i = 0; i < n; i++) keep[i] &= in[i];
        lua_pushfstring(L, "of group '%s'", group);
        lua_rawseti(L, reasons, ++nwhy);
    }

    double box[4];
    if (lua_istable(L, sel) && lu_getfield(L, sel, fn, "box") != LUA_TNIL) {
        int good = lua_istable(L, -1) && lua_rawlen(L, -1) == 4;
        for (int k = 0; good && k < 4; k++) {
            good = lua_rawgeti(L, -1, k + 1) == LUA_TNUMBER;
            box[k] = lua_tonumber(L, -1);
            good = good && !isnan(box[k]);
            lua_pop(L, 1);
        }
        if (!good || box[0] > box[2] || box[1] > box[3])
            return lu_error(L, fn,
                            "field 'box' must be {xmin, ymin, xmax, ymax} with xmin <= xmax and "
                            "ymin <= ymax");
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 2; k++) {
                lo[k] = fmin(lo[k], xy[2 * i + k]);
                hi[k] = fmax(hi[k], xy[2 * i + k]);
            }
        double tol = n ? 1e-9 * fmax(hi[0] - lo[0], hi[1] - lo[1]) : 0;
        for (int i = 0; i < n; i++) {
            double x = xy[2 * i], y = xy[2 * i + 1];
            keep[i] &=
                x >= box[0] - tol && x <= box[2] + tol && y >= box[1] - tol && y <= box[3] + tol;
        }
        lua_pushfstring(L, "in box {%f, %f, %f, %f}", box[0], box[1], box[2], box[3]);
        lua_rawseti(L, reasons, ++nwhy);
    }

    if (where) {
        for (int i = 0; i < n; i++) {
            if (!keep[i]) continue;
            lua_pushvalue(L, where);
            lua_pushnumber(L, xy[2 * i]);
            lua_pushnumber(L, xy[2 * i + 1]);
            lua_pushinteger(L, i + 1);
            lua_call(L, 3, 1);
            keep[i] = (unsigned char)lua_toboolean(L, -1);
            lua_pop(L, 1);
        }
        lua_pushstring(L, "for which the function is true");
        lua_rawseti(L, reasons, ++nwhy);
    }

    double p[2];
    if (lua_istable(L, sel) && lu_vec2(L, sel, fn, "near", p)) {
        int best = -1;
        double d2 = INFINITY;
        for (int i = 0; i < n; i++) {
            double dx = xy[2 * i] - p[0], dy = xy[2 * i + 1] - p[1];
            if (keep[i] && dx * dx + dy * dy < d2) d2 = dx * dx + dy * dy, best = i;
        }
        for (int i = 0; i < n; i++) keep[i] = i == best;
    }

    lua_newtable(L);
    int count = 0;
    for (int i = 0; i < n; i++)
        if (keep[i]) {
            lua_pushinteger(L, i + 1);
            lua_rawseti(L, -2, ++count);
        }
    if (count == 0) {
        luaL_buffinit(L, &why);
        for (int i = 1; i <= nwhy; i++) {
            if (i > 1) luaL_addstring(&why, " and ");
            lua_rawgeti(L, reasons, i);
            luaL_addvalue(&why);
        }
        if (nwhy == 0) luaL_addstring(&why, "in the mesh");
        luaL_pushresult(&why);
        return lu_error(L, fn, "no node %s", lua_tostring(L, -1));
    }
    return 1;
}

/* m:node_at{x, y} (or m:node_at(x, y)): the nearest node and its distance. */
static int mesh_node_at(lua_State *L)
{
    const char *fn = "mesh:node_at";
    int self = lu_checktable(L, 1, fn, "(the mesh: call it as m:node_at{x, y})");
    double p[2];
    if (lua_istable(L, 2) && lua_rawlen(L, 2) == 2 && lua_rawgeti(L, 2, 1) == LUA_TNUMBER &&
        lua_rawgeti(L, 2, 2) == LUA_TNUMBER) {
        p[0] = lua_tonumber(L, -2), p[1] = lua_tonumber(L, -1);
    } else if (lua_type(L, 2) == LUA_TNUMBER && lua_type(L, 3) == LUA_TNUMBER) {
        p[0] = lua_tonumber(L, 2), p[1] = lua_tonumber(L, 3);
    } else {
        return lu_error(L, fn, "expected a point {x, y} (got %s)", luaL_typename(L, 2));
    }
    int n;
    const double *xy = read_nodes(L, self, fn, &n);
    int best = -1;
    double d2 = INFINITY;
    for (int i = 0; i < n; i++) {
        double dx = xy[2 * i] - p[0], dy = xy[2 * i + 1] - p[1];
        if (dx * dx + dy * dy < d2) d2 = dx * dx + dy * dy, best = i;
    }
    if (best < 0) return lu_error(L, fn, "the mesh has no nodes");
    lua_pushinteger(L, best + 1);
    lua_pushnumber(L, sqrt(d2));
    return 2;
}

/* "mesh: 36 nodes, 25 quadrilaterals, groups: all, bottom, ..." */
static int mesh_tostring(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer nn = rawfield(L, 1, "nodes") == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, -1) : 0;
    lua_Integer quads = 0, tris = 0;
    if (rawfield(L, 1, "elements") == LUA_TTABLE) {
        lua_Unsigned ne = lua_rawlen(L, -1);
        for (lua_Unsigned e = 1; e <= ne; e++) {
            if (lua_rawgeti(L, -1, (lua_Integer)e) == LUA_TTABLE) {
                lua_Unsigned nv = lua_rawlen(L, -1);
                quads += nv == 4;
                tris += nv == 3;
            }
            lua_pop(L, 1);
        }
    }
    lua_settop(L, 1);
    push_group_names(L, 1);
    const char *groups = lua_tostring(L, -1);
    const char *nodes = nn == 1 ? "node" : "nodes",
               *q = quads == 1 ? "quadrilateral" : "quadrilaterals",
               *t = tris == 1 ? "triangle" : "triangles";
    if (quads && tris)
        lua_pushfstring(L, "mesh: %I %s, %I %s and %I %s, groups: %s", nn, nodes, quads, q, tris, t,
                        groups);
    else if (tris)
        lua_pushfstring(L, "mesh: %I %s, %I %s, groups: %s", nn, nodes, tris, t, groups);
    else
        lua_pushfstring(L, "mesh: %I %s, %I %s, groups: %s", nn, nodes, quads, q, groups);
    return 1;
}

/* ---- mech.mesh ------------------------------------------------------------------------- */

static int holder_gc(lua_State *L)
{
    mech_mesh_free(luaL_checkudata(L, 1, HOLDER_MT));
    return 0;
}

mech_mesh *lmesh_new_holder(lua_State *L)
{
    mech_mesh *m = lua_newuserdatauv(L, sizeof *m, 0);
    *m = mech_mesh_empty();
    luaL_setmetatable(L, HOLDER_MT);
    return m;
}

/* An integer field of at least 1 (the C side checks the bounds). */
static int count_field(lua_State *L, int t, const char *fn, const char *key, int def)
{
    int type = lu_getfield(L, t, fn, key);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    lua_Integer v;
    if (!integer_at(L, -1, -2147483647, 2147483647, &v))
        lu_error(L, fn, "%s must be an integer >= 1 (got %s)", key, describe(L, -1));
    lua_pop(L, 1);
    return (int)v;
}

static int mesh_rectangle(lua_State *L)
{
    const char *fn = "mech.mesh.rectangle";
    static const char *const known[] = {"size", "width", "height",    "origin",    "center",
                                        "nx",   "ny",    "triangles", "numbering", NULL};
    static const char *const numberings[] = {"top", "bottom", NULL};
    int t = lu_checktable(L, 1, fn,
                          "{ size = {w, h}, origin = {x, y} | center = {x, y}, nx = ..., ny = "
                          "... }");
    lu_checkfields(L, t, fn, known, 0);
    mech_rectangle_def d = mech_rectangle_default();
    double w, h, c[2];
    int has_w = lu_optnumber(L, t, fn, "width", &w), has_h = lu_optnumber(L, t, fn, "height", &h);
    if (lu_vec2(L, t, fn, "size", d.size)) {
        if (has_w || has_h)
            return lu_error(L, fn, "give 'size' = {w, h} or 'width' and 'height', not both");
    } else if (has_w != has_h) {
        return lu_error(L, fn, "give both 'width' and 'height' (or 'size' = {w, h})");
    } else if (has_w) {
        d.size[0] = w, d.size[1] = h;
    }
    int has_origin = lu_vec2(L, t, fn, "origin", d.origin);
    if (lu_vec2(L, t, fn, "center", c)) {
        if (has_origin) return lu_error(L, fn, "give 'origin' or 'center', not both");
        d.origin[0] = c[0] - 0.5 * d.size[0];
        d.origin[1] = c[1] - 0.5 * d.size[1];
    }
    d.nx = count_field(L, t, fn, "nx", d.nx);
    d.ny = count_field(L, t, fn, "ny", d.ny);
    d.triangles = lu_bool(L, t, fn, "triangles", 0);
    d.numbering = lu_option(L, t, fn, "numbering", numberings, 0) == 1 ? MECH_ROWS_FROM_BOTTOM
                                                                       : MECH_ROWS_FROM_TOP;
    mech_mesh *m = lmesh_new_holder(L);
    mech_error err;
    if (mech_mesh_rectangle(m, &d, &err) != MECH_OK)
        return luaL_error(L, "mech.%s", err.msg); /* "mesh.rectangle: ..." */
    lmesh_push(L, m);
    mech_mesh_free(m);
    return 1;
}

static int mesh_read(lua_State *L)
{
    const char *fn = "mech.mesh.read";
    if (lua_type(L, 1) != LUA_TSTRING)
        return lu_error(L, fn, "expected the path of a gmsh file (got %s)", luaL_typename(L, 1));
    const char *path = lua_tostring(L, 1);
    mech_mesh *m = lmesh_new_holder(L);
    mech_error err;
    if (mech_mesh_read_msh(m, path, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    lmesh_push(L, m);
    mech_mesh_free(m);
    return 1;
}

/* mech.mesh.check(t): raises on a bad mesh; gives t the mesh methods if it has no metatable. */
static int mesh_check(lua_State *L)
{
    mech_mesh m;
    lmesh_check(L, 1, "mech.mesh.check", &m);
    mech_mesh_free(&m);
    lua_settop(L, 1);
    if (lua_getmetatable(L, 1))
        lua_pop(L, 1);
    else
        luaL_setmetatable(L, LMESH_MT);
    return 1;
}

void lmech_open_mesh(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"find_nodes", mesh_find_nodes}, {"node_at", mesh_node_at}, {NULL, NULL}};
    static const luaL_Reg functions[] = {
        {"rectangle", mesh_rectangle}, {"read", mesh_read}, {"check", mesh_check}, {NULL, NULL}};
    luaL_newmetatable(L, HOLDER_MT);
    lua_pushcfunction(L, holder_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newmetatable(L, LMESH_MT);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, mesh_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    luaL_newlib(L, functions);
    lua_setfield(L, -2, "mesh");
}

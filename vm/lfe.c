/* SPDX-License-Identifier: MIT */
/*
** Flexible bodies in Lua: sys:flexible{...} turns a mesh table (mech.mesh) into a
** finite-element body whose nodes are bodies named "<name>.n<k>"; sys:guide{...} puts the
** nodes of a flexible body in a guide of two straight surfaces, one contact per node and
** surface.  A flexible body entity answers fe:node(k), fe:find_nodes{...}, fe.mesh, fe.mass,
** fe.nnodes, fe:node_mass(k) and fe:frequencies{...}.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lmech.h"
#include "lmesh.h"
#include "lsys_build.h"
#include "lsystem.h"
#include "lutil.h"

/*
** sys:flexible{ name = ..., mesh = <mesh table>, E = ..., nu = 0.3, density = ...,
**               thickness = 1, plane = "stress" | "strain", lumping = "row_sum" | "hrz",
**               alpha = 0, beta = 0, displacement = {ux, uy}, velocity = {vx, vy} }
*/
static int sys_flexible(lua_State *L)
{
    const char *fn = "sys:flexible";
    static const char *const known[] = {"name",         "mesh",     "E",       "nu",    "density",
                                        "thickness",    "plane",    "lumping", "alpha", "beta",
                                        "displacement", "velocity", NULL};
    static const char *const planes[] = {"stress", "strain", NULL};
    static const char *const lumpings[] = {"row_sum", "hrz", NULL};
    int t;
    lsys *ls =
        lsys_method_args(L, fn, "{ name = ..., mesh = ..., E = ..., density = ... }", known, 0, &t);
    mech_fe_def d = mech_fe_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.E = lu_number(L, t, fn, "E", 0, 1);
    d.nu = lu_number(L, t, fn, "nu", 0.3, 0);
    d.density = lu_number(L, t, fn, "density", 0, 1);
    d.thickness = lu_number(L, t, fn, "thickness", 1, 0);
    d.plane_strain = lu_option(L, t, fn, "plane", planes, 0);
    d.lumping = (mech_lumping)lu_option(L, t, fn, "lumping", lumpings, MECH_LUMP_ROW_SUM);
    d.alpha = lu_number(L, t, fn, "alpha", 0, 0);
    d.beta = lu_number(L, t, fn, "beta", 0, 0);
    lu_vec2(L, t, fn, "displacement", d.displacement);
    lu_vec2(L, t, fn, "velocity", d.velocity);
    if (lu_getfield(L, t, fn, "mesh") != LUA_TTABLE)
        return lu_error(L, fn,
                        "field 'mesh' is required: a mesh table, e.g. mech.mesh.rectangle{...} "
                        "or mech.mesh.read(\"part.msh\")");
    int mt = lua_gettop(L);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FE, -1); /* before the body is added */
    mech_mesh mesh = mech_mesh_empty();
    lmesh_check(L, mt, fn, &mesh);
    d.mesh = &mesh;
    mech_error err;
    if (ls->sys == NULL) { /* closed by Lua code run while the mesh was read */
        mech_mesh_free(&mesh);
        return lu_error(L, fn, "the system was closed");
    }
    mech_status st = mech_fe_add(ls->sys, &d, &e->id, &err);
    mech_mesh_free(&mesh);
    if (st != MECH_OK) return lu_mech_error(L, fn, &err);
    /* plausibility (mechlua(3), PLAUSIBILITY WARNINGS): a modulus below 1e6 Pa, which no
    ** solid of a mechanism has, with the density of a real solid (kg/m^3): E in GPa or
    ** MPa.  Models in scaled units (E = 1000 with density 1/3) pass.  The name is read
    ** before the warning, which may run Lua code */
    if (d.E < 1e6 && d.density >= 100)
        lu_warn(L,
                "flexible body '%s': E = %g Pa is below 1e6 Pa, with density = %g kg/m^3: E in "
                "GPa or MPa? use mech.GPa(%g) or mech.MPa(%g)",
                ls->sys ? mech_fe_name(ls->sys, e->id) : "?", d.E, d.density, d.E, d.E);
    return 1;
}

/* Node number (from 1) at stack index idx of flexible body fe; raises if out of range. */
static int check_node(lua_State *L, int idx, const mech_system *sys, int fe, const char *fn)
{
    int n = mech_fe_mesh(sys, fe)->nnodes;
    if (!lua_isinteger(L, idx))
        return lu_error(L, fn, "node number expected (an integer from 1 to %d), got %s", n,
                        luaL_typename(L, idx));
    lua_Integer k = lua_tointeger(L, idx);
    if (k < 1 || k > n)
        return lu_error(L, fn, "node %lld does not exist ('%s' has nodes 1 to %d)", (long long)k,
                        mech_fe_name(sys, fe), n);
    return (int)k - 1;
}

/* Reads the list of node numbers (from 1) at idx into out (allocated as userdata on the
** stack); returns the count. */
static int node_list(lua_State *L, int idx, lsys *ls, int fe, const char *fn, const char *what,
                     int **out)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        return lu_error(L, fn, "'%s' must be a list of node numbers, e.g. from fe:find_nodes{...}",
                        what);
    int n = (int)lua_rawlen(L, idx);
    if (n == 0) return lu_error(L, fn, "'%s' is empty: give at least one node", what);
    int *list = lua_newuserdatauv(L, sizeof(int) * (size_t)n, 0);
    const mech_system *sys = lsys_live(L, ls, fn); /* after the allocation (a finalizer) */
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, idx, i + 1);
        char label[96];
        snprintf(label, sizeof label, "%s[%d]", fn, i + 1);
        list[i] = check_node(L, -1, sys, fe, label);
        lua_pop(L, 1);
    }
    *out = list;
    return n;
}

/* Pushes the mesh of flexible body fe as a mesh table, made from a copy: building the
** tables allocates, which may run a finalizer that closes the system. */
static void push_mesh(lua_State *L, lsys *ls, int fe, const char *fn)
{
    mech_mesh *copy = lmesh_new_holder(L);
    mech_error err;
    if (mech_mesh_copy(copy, mech_fe_mesh(lsys_live(L, ls, fn), fe), &err) != MECH_OK)
        lu_mech_error(L, fn, &err);
    lmesh_push(L, copy);
    lua_remove(L, -2); /* the holder frees the copy */
}

static lentity *check_fe(lua_State *L, int arg, lsys **ls, const char *fn)
{
    lentity *e = lsys_check_entity(L, arg, ls);
    if (e->kind != MECH_KIND_FE) lu_error(L, fn, "a flexible body expected");
    return e;
}

/* fe:node(k): the body of node k. */
static int fe_node(lua_State *L)
{
    const char *fn = "fe:node";
    lsys *ls;
    lentity *e = check_fe(L, 1, &ls, fn);
    int k = check_node(L, 2, ls->sys, e->id, fn);
    lua_getiuservalue(L, 1, 1);
    lsys_push_entity(L, -1, MECH_KIND_BODY, mech_fe_node_body(ls->sys, e->id, k));
    return 1;
}

/* fe:node_mass(k): lumped mass of node k. */
static int fe_node_mass(lua_State *L)
{
    const char *fn = "fe:node_mass";
    lsys *ls;
    lentity *e = check_fe(L, 1, &ls, fn);
    int k = check_node(L, 2, ls->sys, e->id, fn);
    lua_pushnumber(L, mech_fe_node_mass(ls->sys, e->id, k));
    return 1;
}

/* fe:find_nodes(selection): mesh:find_nodes on this body's mesh. */
static int fe_find_nodes(lua_State *L)
{
    const char *fn = "fe:find_nodes";
    lsys *ls;
    lentity *e = check_fe(L, 1, &ls, fn);
    luaL_checkany(L, 2);
    push_mesh(L, ls, e->id, fn);
    lua_getfield(L, -1, "find_nodes"); /* the mesh table's method */
    lua_insert(L, -2);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

/* fe:frequencies{ n = 6, mass = "consistent" | "lumped", fixed = {nodes} }: the n lowest
** natural frequencies [rad/s]. */
static int fe_frequencies(lua_State *L)
{
    const char *fn = "fe:frequencies";
    static const char *const known[] = {"n", "mass", "fixed", NULL};
    static const char *const masses[] = {"lumped", "consistent", NULL};
    lsys *ls;
    lentity *e = check_fe(L, 1, &ls, fn);
    int t =
        lua_isnoneornil(L, 2) ? 0 : lu_checktable(L, 2, fn, "{ n = ..., mass = ..., fixed = ... }");
    int count = 6, consistent = 0, nfixed = 0, *fixed = NULL;
    if (t) {
        lu_checkfields(L, t, fn, known, 0);
        double n = lu_number(L, t, fn, "n", 6, 0);
        if (n != floor(n) || n < 1 || n > 1e6)
            return lu_error(L, fn, "'n' must be an integer >= 1");
        count = (int)n;
        consistent = lu_option(L, t, fn, "mass", masses, 0);
        if (lu_getfield(L, t, fn, "fixed") != LUA_TNIL)
            nfixed = node_list(L, -1, ls, e->id, fn, "fixed", &fixed);
    }
    double *w = lua_newuserdatauv(L, sizeof(double) * (size_t)count, 0);
    mech_error err;
    if (mech_fe_frequencies(lsys_live(L, ls, fn), e->id, consistent, fixed, nfixed, count, w, &err))
        return lu_mech_error(L, fn, &err);
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_pushnumber(L, w[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static const luaL_Reg fe_methods[] = {{"node", fe_node},
                                      {"find_nodes", fe_find_nodes},
                                      {"node_mass", fe_node_mass},
                                      {"frequencies", fe_frequencies},
                                      {NULL, NULL}};

/* The fields of a flexible body (its methods are found first, in fe_methods). */
static int fe_index(lua_State *L, lsys *ls, lentity *e, const char *key)
{
    if (strcmp(key, "mesh") == 0) {
        push_mesh(L, ls, e->id, "fe.mesh");
        return 1;
    }
    if (strcmp(key, "mass") == 0) {
        lua_pushnumber(L, mech_fe_total_mass(ls->sys, e->id));
        return 1;
    }
    if (strcmp(key, "nnodes") == 0) {
        lua_pushinteger(L, mech_fe_mesh(ls->sys, e->id)->nnodes);
        return 1;
    }
    return 0;
}

/* Offsets along the guide's normal n from the point a of the nodes in list. */
static void offsets(const mech_mesh *m, const int *list, int n, const double a[2],
                    const double nrm[2], double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        const double *X = m->xy + 2 * list[i];
        double s = nrm[0] * (X[0] - a[0]) + nrm[1] * (X[1] - a[1]);
        *lo = fmin(*lo, s);
        *hi = fmax(*hi, s);
    }
}

/* A group's nodes as a node list (from the mesh), or 0 if the mesh has no such group. */
static int group_list(const mech_mesh *m, const char *name, int **out)
{
    int g = mech_mesh_find_group(m, name);
    if (g < 0 || m->groups[g].nnodes == 0) return 0;
    *out = m->groups[g].nodes;
    return m->groups[g].nnodes;
}

/*
** sys:guide{ fe, name = ..., on = body (ground), at = {x, y}, axis = {1, 0},
**            lower_nodes = {...}, upper_nodes = {...} (default: the mesh's "bottom", "top"),
**            clearance = c | lower = s_low, upper = s_up, law = ..., friction = ... }
** Returns { lower = {contacts...}, upper = {contacts...} }.
*/
static int sys_guide(lua_State *L)
{
    const char *fn = "sys:guide";
    static const char *const known[] = {"name",      "on",    "at",          "axis",
                                        "lower",     "upper", "lower_nodes", "upper_nodes",
                                        "clearance", "law",   "friction",    NULL};
    int t;
    lsys *ls =
        lsys_method_args(L, fn, "{ flexible_body, clearance = ..., law = ..., ... }", known, 1, &t);
    int fe = lsys_table_entity(L, t, 1, ls, MECH_KIND_FE, fn, "the flexible body");
    const char *name = lu_string(L, t, fn, "name", "guide");
    int on = MECH_GROUND;
    if (lu_getfield(L, t, fn, "on") != LUA_TNIL) {
        lua_newtable(L);
        lua_pushvalue(L, -2);
        lua_rawseti(L, -2, 1);
        on = lsys_table_entity(L, lua_gettop(L), 1, ls, MECH_KIND_BODY, fn, "'on'");
    }
    lua_settop(L, t);
    double at[2] = {0, 0}, axis[2] = {1, 0};
    lu_vec2(L, t, fn, "at", at);
    lu_vec2(L, t, fn, "axis", axis);
    double len = hypot(axis[0], axis[1]);
    if (!(len > 0)) return lu_error(L, fn, "'axis' must not be zero");
    axis[0] /= len;
    axis[1] /= len;
    double nrm[2] = {-axis[1], axis[0]}; /* from the lower surface towards the upper */

    int *lower = NULL, *upper = NULL, nlower = 0, nupper = 0;
    double c = NAN, s_low = NAN, s_up = NAN;
    lu_optnumber(L, t, fn, "clearance", &c);
    lu_optnumber(L, t, fn, "lower", &s_low);
    lu_optnumber(L, t, fn, "upper", &s_up);
    int has_l = lu_getfield(L, t, fn, "lower_nodes") != LUA_TNIL;
    if (has_l) nlower = node_list(L, -1, ls, fe, fn, "lower_nodes", &lower);
    int has_u = lu_getfield(L, t, fn, "upper_nodes") != LUA_TNIL;
    if (has_u) nupper = node_list(L, -1, ls, fe, fn, "upper_nodes", &upper);
    /* from here on, only the laws and the result table run Lua code (allocations): the
    ** system is checked again after them */
    mech_system *sys = lsys_live(L, ls, fn);
    const mech_mesh *m = mech_fe_mesh(sys, fe);
    if (!has_l && !has_u) {
        nlower = group_list(m, "bottom", &lower);
        nupper = group_list(m, "top", &upper);
        if (nlower == 0 && nupper == 0)
            return lu_error(L, fn,
                            "give 'lower_nodes' and/or 'upper_nodes' (the mesh has no sets "
                            "\"bottom\" and \"top\")");
    }
    if (!isnan(c) && !(c >= 0)) return lu_error(L, fn, "'clearance' must be >= 0 (got %g)", c);
    double lo, hi;
    if (nlower && isnan(s_low)) {
        if (isnan(c)) return lu_error(L, fn, "give 'clearance' or 'lower' (the lower surface)");
        offsets(m, lower, nlower, at, nrm, &lo, &hi);
        s_low = lo - c;
    }
    if (nupper && isnan(s_up)) {
        if (isnan(c)) return lu_error(L, fn, "give 'clearance' or 'upper' (the upper surface)");
        offsets(m, upper, nupper, at, nrm, &lo, &hi);
        s_up = hi + c;
    }
    if (nlower && nupper && !(s_up > s_low))
        return lu_error(L, fn, "the upper surface (%g m) must be above the lower one (%g m)", s_up,
                        s_low);

    mech_contact_def d = mech_contact_default();
    lsys_read_laws(L, ls, t, fn, &d.normal_law, &d.friction);
    /* the result, its entities made before any contact is added: a call that fails (a
    ** memory error) adds nothing */
    lua_newtable(L);
    int res = lua_gettop(L); /* then the lists of the lower and upper contacts */
    for (int side = 0; side < 2; side++) {
        int n = side ? nupper : nlower;
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lsys_push_entity(L, 1, MECH_KIND_CONTACT, -1);
            lua_rawseti(L, -2, i + 1);
        }
        lua_pushvalue(L, -1);
        lua_setfield(L, res, side ? "upper" : "lower");
    }
    /* nor does one whose contact names cannot all be taken: checked first (the lists are
    ** read after the last allocation, which may have run a finalizer closing the system) */
    sys = lsys_live(L, ls, fn);
    int nn = mech_fe_mesh(sys, fe)->nnodes;
    unsigned char *seen = lua_newuserdatauv(L, 2 * (size_t)nn, 0);
    memset(seen, 0, 2 * (size_t)nn);
    sys = lsys_live(L, ls, fn);
    for (int side = 0; side < 2; side++) {
        int n = side ? nupper : nlower;
        const int *list = side ? upper : lower;
        for (int i = 0; i < n; i++) {
            char cname[MECH_NAME_MAX];
            int w = snprintf(cname, sizeof cname, "%s_n%d_%s", name, list[i] + 1,
                             side ? "upper" : "lower");
            if (w < 0 || (size_t)w >= sizeof cname)
                return lu_error(L, fn,
                                "name '%s' is too long for the names of its contacts (at most %d "
                                "characters in all, as '%s_n1_lower')",
                                name, MECH_NAME_MAX - 1, name);
            if (seen[2 * list[i] + side]++)
                return lu_error(L, fn, "node %d is listed twice in '%s'", list[i] + 1,
                                side ? "upper_nodes" : "lower_nodes");
            if (mech_system_find(sys, cname, NULL) != MECH_KIND_NONE)
                return lu_error(L, fn, "contact '%s': the name is already used", cname);
        }
    }
    /* and the room for them all first: then the first contact fails, or none does */
    mech_error err;
    if (mech_system_reserve_contacts(sys, nlower + nupper, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    double pose[3];
    mech_body_initial_pose(sys, on, pose);
    double co = cos(pose[2]), so = sin(pose[2]);
    for (int side = 0; side < 2; side++) {
        int n = side ? nupper : nlower;
        const int *list = side ? upper : lower;
        double s = side ? s_up : s_low, sign = side ? -1 : 1;
        double p[2] = {at[0] + s * nrm[0], at[1] + s * nrm[1]};
        double nw[2] = {sign * nrm[0], sign * nrm[1]};
        lsys_to_body2(sys, on, p, d.surface_point);
        d.normal[0] = co * nw[0] + so * nw[1];
        d.normal[1] = -so * nw[0] + co * nw[1];
        d.flip_tangent = side; /* both surfaces count friction along the axis */
        for (int i = 0; i < n; i++) {
            char cname[MECH_NAME_MAX];
            snprintf(cname, sizeof cname, "%s_n%d_%s", name, list[i] + 1, side ? "upper" : "lower");
            d.name = cname;
            d.body_a = mech_fe_node_body(sys, fe, list[i]);
            d.point[0] = d.point[1] = 0;
            lua_rawgeti(L, res + 1 + side, i + 1);
            lentity *e = lua_touserdata(L, -1);
            lua_pop(L, 1);
            if (mech_contact_add(sys, &d, &e->id, &err) != MECH_OK)
                return lu_mech_error(L, fn, &err);
        }
    }
    lua_settop(L, res);
    return 1;
}

void lmech_open_fe(lua_State *L)
{
    static const char *const fe_fields[] = {"mesh", "mass", "nnodes", NULL};
    static const lsys_kind_binding fe_kind = {MECH_KIND_FE, fe_methods, fe_fields, fe_index};
    static const luaL_Reg sys_methods[] = {
        {"flexible", sys_flexible}, {"guide", sys_guide}, {NULL, NULL}};
    lsys_add_methods(L, lua_gettop(L), 2, sys_methods);
    lsys_add_kind(L, &fe_kind);
}

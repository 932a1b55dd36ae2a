/* SPDX-License-Identifier: MIT */
/*
** mech.planar and mech.spatial: the system and entity handles, the Lua callbacks, and the
** registration that the other binding files add their methods through (constructors:
** lsys_build.c, lspatial.c; assembly, simulate and lyapunov: lsys_run.c; flexible bodies:
** lfe.c).  The system type is one for both dimensions: a system finds the methods of its
** dimension first (lsys_add_methods).
**
** A system userdata owns its mech_system.  Its user value is a table holding the Lua
** functions of callbacks (laws, drivers, loads, channels, events) at integer keys, the
** last run, and a channel cache; it is also reachable from the registry while the
** system lives so that the C callbacks can find their functions.  Entities (bodies,
** points, forces, joints, drivers) are small userdata {kind, id} whose user value is the
** system, which they keep alive.
**
** Callbacks run inside protected calls: a Lua error in a callback becomes a failure of
** the simulation (with the Lua message appended), never a longjmp through libmech.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lmech.h"
#include "lsystem.h"
#include "lutil.h"

/* Registry table (weak values) from a system's address to its user value table, so
** that C callbacks can find their Lua functions without keeping the system alive. */
#define UV_REGISTRY "mech.system.uv"

/* Registry table from an entity kind to its binding (light userdata), what lsys_add_kind
** registered; also the upvalue of the entity metatable's __index and __complete. */
#define KINDS_REGISTRY "mech.entity.kinds"

const char *const lsys_kind_names[] = {"none",   "body",   "point",   "force",        "joint",
                                       "driver", "system", "contact", "flexible body"};

/* ---- access -------------------------------------------------------------------------- */

lsys *lsys_check(lua_State *L, int arg)
{
    lsys *ls = luaL_checkudata(L, arg, LMECH_SYSTEM);
    if (ls->sys == NULL) luaL_argerror(L, arg, "system was closed");
    return ls;
}

lsys *lsys_check_mutable(lua_State *L, int arg, const char *fname)
{
    lsys *ls = lsys_check(L, arg);
    if (ls->busy) lu_error(L, fname, "the system cannot change while it is %s", ls->busy);
    return ls;
}

/* The error of a method of dimension dim called on a system of the other. */
static int dim_error(lua_State *L, const char *fname, int dim)
{
    static const char *const kinds[] = {"planar", "spatial"};
    const char *own = kinds[dim == 3], *other = kinds[dim != 3];
    return lu_error(L, fname, "a %s system's method; this system is %s (mech.%s{} makes a %s one)",
                    own, other, own, own);
}

lsys *lsys_method_args(lua_State *L, const char *fname, const char *usage, const char *const *known,
                       int npos, int *t)
{
    lsys *ls = lsys_check_mutable(L, 1, fname);
    /* a method of one dimension, taken from a system of that dimension (sys.revolute) and
    ** called with one of the other, would read the other's fields into its definitions:
    ** its dimension is its upvalue 2 (lsys_add_methods; 0 for every system's) */
    int dim = (int)lua_tointeger(L, lua_upvalueindex(2));
    if (dim && ls->dim != dim) dim_error(L, fname, dim);
    *t = lu_checktable(L, 2, fname, usage);
    lu_checkfields(L, *t, fname, known, npos);
    return ls;
}

/* The system of ls, which Lua code run since it was checked (a metamethod, tostring) may
** have closed. */
mech_system *lsys_live(lua_State *L, lsys *ls, const char *fname)
{
    if (ls->sys == NULL) lu_error(L, fname, "the system was closed");
    return ls->sys;
}

/* Pushes the user value table of a system. */
void lsys_push_uv(lua_State *L, lsys *ls)
{
    lua_getfield(L, LUA_REGISTRYINDEX, UV_REGISTRY);
    lua_rawgetp(L, -1, ls);
    lua_remove(L, -2);
}

lentity *lsys_push_entity(lua_State *L, int sysidx, int kind, int id)
{
    sysidx = lua_absindex(L, sysidx);
    lentity *e = lua_newuserdatauv(L, sizeof *e, 1);
    e->kind = kind;
    e->id = id;
    lua_pushvalue(L, sysidx);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, LMECH_ENTITY);
    return e;
}

/* Entity at arg and its system (pushed on the stack). */
lentity *lsys_check_entity(lua_State *L, int arg, lsys **ls)
{
    lentity *e = luaL_checkudata(L, arg, LMECH_ENTITY);
    lua_getiuservalue(L, arg, 1);
    lsys *s = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (s == NULL || s->sys == NULL) luaL_argerror(L, arg, "its system was closed");
    if (ls) *ls = s;
    return e;
}

/* Positional value pos of table t must be an entity of kind `kind` of system ls; returns
** its id.  `role` names it in messages. */
int lsys_table_entity(lua_State *L, int t, int pos, lsys *ls, int kind, const char *fname,
                      const char *role)
{
    lua_rawgeti(L, t, pos);
    lentity *e = luaL_testudata(L, -1, LMECH_ENTITY);
    if (e == NULL)
        lu_error(L, fname, "%s (value #%d) must be a %s of this system (got %s)", role, pos,
                 lsys_kind_names[kind], luaL_typename(L, -1));
    lua_getiuservalue(L, -1, 1);
    lsys *owner = lua_touserdata(L, -1);
    lua_pop(L, 2);
    if (owner != ls) lu_error(L, fname, "%s (value #%d) belongs to another system", role, pos);
    if (e->kind != kind)
        lu_error(L, fname, "%s (value #%d) must be a %s, not a %s", role, pos,
                 lsys_kind_names[kind], lsys_kind_names[e->kind]);
    return e->id;
}

/* ---- callbacks ------------------------------------------------------------------------- */

/* Stores the function on top of the stack in the user value table; returns a context. */
lcb *lsys_new_callback(lua_State *L, lsys *ls, const char *what)
{
    lsys_push_uv(L, ls);
    lua_insert(L, -2);
    int ref = ++ls->ncallbacks;
    lua_rawseti(L, -2, 2 * ref);                   /* the function */
    lcb *cb = lua_newuserdatauv(L, sizeof *cb, 1); /* its user value: a state table */
    cb->owner = ls;
    cb->ref = ref;
    snprintf(cb->what, sizeof cb->what, "%s", what);
    lua_rawseti(L, -2, 2 * ref + 1); /* its context, kept alive with the system */
    lua_pop(L, 1);
    return cb;
}

/* Pushes the callback's function; returns the state to call it in, or NULL. */
static lua_State *push_callback(lcb *cb)
{
    lua_State *L = cb->owner->L;
    if (L == NULL || !lua_checkstack(L, 16)) return NULL;
    lsys_push_uv(L, cb->owner);
    lua_rawgeti(L, -1, 2 * cb->ref);
    lua_remove(L, -2);
    return L;
}

/* Keeps "<what>: <msg>" as the callback error; restores the stack. */
static int callback_error(lcb *cb, lua_State *L, int top, const char *msg)
{
    snprintf(cb->owner->cb_error, sizeof cb->owner->cb_error, "%s: %s", cb->what, msg);
    lua_settop(L, top);
    return -1;
}

/* Keeps "<what>: <error object on top>" as the callback error; restores the stack.  An
** error object that is not a string is shown by its __tostring (in a protected call: it
** may fail too), else by its type.  Nothing here may raise (no memory is allocated outside
** that call): the C code of libmech that called the callback is below. */
static int callback_failed(lcb *cb, lua_State *L, int top)
{
    char text[64];
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (msg == NULL && lua_type(L, -1) == LUA_TNUMBER) {
        if (lua_isinteger(L, -1))
            snprintf(text, sizeof text, "%lld", (long long)lua_tointeger(L, -1));
        else if (snprintf(text, sizeof text, "%.14g", lua_tonumber(L, -1)) > 0 &&
                 text[strspn(text, "-0123456789")] == '\0')
            strcat(text, ".0"); /* as Lua writes a float that looks like an integer */
        msg = text;
    }
    if (msg == NULL && luaL_getmetafield(L, -1, "__tostring") != LUA_TNIL) {
        lua_pushvalue(L, -2);
        if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            lua_pop(L, 1);
    }
    if (msg == NULL) {
        snprintf(text, sizeof text, "(error object is a %s value)", luaL_typename(L, -1));
        msg = text;
    }
    return callback_error(cb, L, top, msg);
}

/* Calls the pushed function with nargs arguments; the results replace it. */
static int call_callback(lcb *cb, lua_State *L, int top, int nargs, int nres)
{
    if (lua_pcall(L, nargs, nres, 0) != LUA_OK) return callback_failed(cb, L, top);
    return 0;
}

/* The nres results on top must be numbers; results from `need` on may be missing (nil),
** and are then set to `missing`. */
static int numbers_result(lcb *cb, lua_State *L, int top, int nres, int need, double missing,
                          double *out)
{
    for (int i = 0; i < nres; i++) {
        int idx = top + 1 + i;
        if (lua_isnil(L, idx) && i >= need) {
            out[i] = missing;
            continue;
        }
        if (!lua_isnumber(L, idx)) {
            char msg[64];
            snprintf(msg, sizeof msg, "result #%d must be a number (got %s)", i + 1,
                     luaL_typename(L, idx));
            return callback_error(cb, L, top, msg);
        }
        out[i] = lua_tonumber(L, idx);
    }
    lua_settop(L, top);
    return 0;
}

int lsys_law_trampoline(void *ud, double t, double x, double xdot, double *f)
{
    lcb *cb = ud;
    lua_State *L = push_callback(cb);
    if (L == NULL) return -1;
    int top = lua_gettop(L) - 1;
    lua_pushnumber(L, x);
    lua_pushnumber(L, xdot);
    lua_pushnumber(L, t);
    if (call_callback(cb, L, top, 3, 1)) return -1;
    return numbers_result(cb, L, top, 1, 1, 0, f);
}

/* Motion function: returns value[, speed[, acceleration]].  Missing derivatives come
** from five-point central differences with h = 1e-3 s (times |t| past 1 s): truncation
** errors ~h^4 |f^(5)| / 30 and h^4 |f^(6)| / 90, rounding ~eps/h and eps/h^2, that is
** about 1e-9 relative for motions of a few hundred rad/s. */
int lsys_motion_trampoline(void *ud, double t, double out[3])
{
    lcb *cb = ud;
    double v[3];
    lua_State *L = push_callback(cb);
    if (L == NULL) return -1;
    int top = lua_gettop(L) - 1;
    lua_pushnumber(L, t);
    if (call_callback(cb, L, top, 1, 3)) return -1;
    if (numbers_result(cb, L, top, 3, 1, NAN, v)) return -1; /* NaN: take differences */
    out[0] = v[0];
    if (isnan(v[1]) || isnan(v[2])) {
        const double h = 1e-3 * fmax(1.0, fabs(t));
        static const double offsets[4] = {-2, -1, 1, 2};
        double f[4];
        for (int s = 0; s < 4; s++) {
            if ((L = push_callback(cb)) == NULL) return -1;
            lua_pushnumber(L, t + offsets[s] * h);
            if (call_callback(cb, L, top, 1, 1)) return -1;
            if (numbers_result(cb, L, top, 1, 1, 0, &f[s])) return -1;
        }
        if (isnan(v[1])) v[1] = (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h);
        if (isnan(v[2])) v[2] = (-f[0] + 16 * f[1] - 30 * v[0] + 16 * f[2] - f[3]) / (12 * h * h);
    }
    out[1] = v[1];
    out[2] = v[2];
    return 0;
}

int lsys_load_trampoline(void *ud, double t, const mech_body_state *b, double out[3])
{
    lcb *cb = ud;
    lua_State *L = push_callback(cb);
    if (L == NULL) return -1;
    int top = lua_gettop(L) - 1;
    lua_pushnumber(L, t);
    lua_pushnumber(L, b->x);
    lua_pushnumber(L, b->y);
    lua_pushnumber(L, b->phi);
    lua_pushnumber(L, b->vx);
    lua_pushnumber(L, b->vy);
    lua_pushnumber(L, b->omega);
    if (call_callback(cb, L, top, 7, 3)) return -1;
    return numbers_result(cb, L, top, 3, 1, 0, out);
}

/* A torque load's function returns the torque only. */
int lsys_torque_trampoline(void *ud, double t, const mech_body_state *b, double out[3])
{
    double v[3];
    if (lsys_load_trampoline(ud, t, b, v)) return -1;
    out[0] = out[1] = 0;
    out[2] = v[0];
    return 0;
}

void lsys_callback_state(lua_State *L, lsys *ls, lcb *cb)
{
    static const char *const keys[] = {"x",  "y",  "z",  "e0", "e1", "e2", "e3",
                                       "vx", "vy", "vz", "wx", "wy", "wz", NULL};
    lua_createtable(L, 0, 13);
    for (int i = 0; keys[i]; i++) {
        lua_pushnumber(L, 0);
        lua_setfield(L, -2, keys[i]);
    }
    lsys_push_uv(L, ls);
    lua_rawgeti(L, -1, 2 * cb->ref + 1);
    lua_rotate(L, -3, -1); /* table, uv, cb -> uv, cb, table */
    lua_setiuservalue(L, -2, 1);
    lua_pop(L, 2);
}

/* Protected part of a spatial load's call: 1 the function, 2 the state table, 3 t, 4..16 the
** body's state in the order of lsys_callback_state's keys; fills the table (a user's
** function may have changed it: what may allocate or raise runs here, in the protected
** call) and returns the function's first six results. */
static int sload_call(lua_State *L)
{
    static const char *const keys[] = {"x",  "y",  "z",  "e0", "e1", "e2", "e3",
                                       "vx", "vy", "vz", "wx", "wy", "wz"};
    if (lua_type(L, 2) == LUA_TTABLE)
        for (int i = 0; i < 13; i++) {
            lua_pushstring(L, keys[i]);
            lua_pushvalue(L, 4 + i);
            lua_rawset(L, 2);
        }
    lua_settop(L, 3);
    lua_insert(L, 2); /* fn, t, state */
    lua_call(L, 2, 6);
    return 6;
}

/* Calls a spatial load's function; its nres (3 or 6) numbers go to out, missing ones from
** the fourth on as 0. */
static int sload_results(void *ud, double t, const mech_sbody_state *b, int nres, double *out)
{
    lcb *cb = ud;
    if (cb->owner->L == NULL || !lua_checkstack(cb->owner->L, 24)) return -1;
    lua_State *L = push_callback(cb);
    if (L == NULL) return -1;
    int top = lua_gettop(L) - 1;
    lua_pushcfunction(L, sload_call); /* a light C function: nothing allocated */
    lua_insert(L, -2);
    lsys_push_uv(L, cb->owner);
    lua_rawgeti(L, -1, 2 * cb->ref + 1);
    lua_getiuservalue(L, -1, 1);
    lua_replace(L, -3);
    lua_pop(L, 1);
    lua_pushnumber(L, t);
    const double *v[4] = {b->pos, b->quat, b->vel, b->omega};
    const int len[4] = {3, 4, 3, 3};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < len[k]; i++) lua_pushnumber(L, v[k][i]);
    if (call_callback(cb, L, top, 16, 6)) return -1;
    lua_settop(L, top + nres);
    return numbers_result(cb, L, top, nres, 3, 0, out);
}

int lsys_sload_trampoline(void *ud, double t, const mech_sbody_state *b, double out[6])
{
    return sload_results(ud, t, b, 6, out);
}

int lsys_storque_trampoline(void *ud, double t, const mech_sbody_state *b, double out[6])
{
    out[0] = out[1] = out[2] = 0;
    return sload_results(ud, t, b, 3, out + 3);
}

/*
** Calls a function(t, system) callback; on success its one result is on top of the
** returned state's stack and *top is where the stack was before the call.
*/
static lua_State *call_with_system(lcb *cb, double t, int *top)
{
    lua_State *L = push_callback(cb);
    if (L == NULL) return NULL;
    *top = lua_gettop(L) - 1;
    lua_pushnumber(L, t);
    lsys_push_uv(L, cb->owner);
    lua_getfield(L, -1, "self");
    lua_remove(L, -2);
    return call_callback(cb, L, *top, 2, 1) ? NULL : L;
}

/* Channel and event functions: function(t, system) returning a number. */
int lsys_system_fn_trampoline(void *ud, const mech_system *sys, double t, double *value)
{
    (void)sys;
    int top;
    lua_State *L = call_with_system(ud, t, &top);
    return L ? numbers_result(ud, L, top, 1, 1, 0, value) : -1;
}

/* An event action: function(t, system) returning "stop" (or true) to end the run. */
int lsys_event_action_trampoline(void *ud, const mech_system *sys, double t, int *stop)
{
    (void)sys;
    int top;
    lua_State *L = call_with_system(ud, t, &top);
    if (L == NULL) return -1;
    /* a string only: turning a number into one would allocate, which may raise here */
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    *stop =
        (lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1)) || (s && strcmp(s, "stop") == 0);
    lua_settop(L, top);
    return 0;
}

/* ---- mech.planar, mech.spatial and system methods ------------------------------------------ */

/* __gc and __close.  A system that libmech is simulating or assembling is in use by the C
** code below the callback that asks: closing it from there is an error.  (When the state
** itself closes, as os.exit(code, true) does from a callback, nothing returns to that C
** code: the system is freed then.) */
static int sys_gc(lua_State *L)
{
    lsys *ls = luaL_checkudata(L, 1, LMECH_SYSTEM);
    lua_Debug ar;
    if (ls->busy && lua_getstack(L, 1, &ar))
        return luaL_error(L, "sys:close: the system is being %s", ls->busy);
    if (ls->sys) {
        mech_system_destroy(ls->sys);
        ls->sys = NULL;
    }
    return 0;
}

/*
** mech.planar{ gravity = {gx, gy}, baumgarte = {a, b}, assemble = true, start = "auto",
** solver = "auto" } and mech.spatial{ gravity = {gx, gy, gz}, baumgarte = {a, b}, assemble = true,
** solver = "auto" }: a new system of dimension dim (spatial systems have no joints with
** clearance, so no start).
*/
static int new_system(lua_State *L, int dim)
{
    const char *fn = dim == 3 ? "mech.spatial" : "mech.planar";
    static const char *const known2[] = {"gravity", "baumgarte", "assemble",
                                         "start",   "solver",    NULL};
    static const char *const known3[] = {"gravity", "baumgarte", "assemble", "solver", NULL};
    /* in the order of mech_start, of mech_solver */
    static const char *const starts[] = {"auto", "ideal", "as_given", NULL};
    static const char *const solvers[] = {"auto", "dense", "sparse", NULL};
    double g[3] = {0, 0, 0};
    int assemble = 1, start = MECH_START_AUTO, solver = MECH_SOLVER_AUTO;
    double bg[2] = {NAN, NAN};
    if (!lua_isnoneornil(L, 1)) {
        int t = lu_checktable(L, 1, fn,
                              dim == 3 ? "{ gravity = {gx, gy, gz} }" : "{ gravity = {gx, gy} }");
        lu_checkfields(L, t, fn, dim == 3 ? known3 : known2, 0);
        if (dim == 3)
            lu_vec3(L, t, fn, "gravity", g);
        else
            lu_vec2(L, t, fn, "gravity", g);
        lu_vec2(L, t, fn, "baumgarte", bg);
        assemble = lu_bool(L, t, fn, "assemble", 1);
        if (dim == 2) start = lu_option(L, t, fn, "start", starts, MECH_START_AUTO);
        solver = lu_option(L, t, fn, "solver", solvers, MECH_SOLVER_AUTO);
        if (start == MECH_START_IDEAL && !assemble)
            lu_error(L, fn,
                     "field 'start' = \"ideal\" is an assembly: it needs assemble = true "
                     "(assemble = false keeps the state as given)");
    }
    lsys *ls = lua_newuserdatauv(L, sizeof *ls, 1);
    memset(ls, 0, sizeof *ls);
    ls->dim = dim;
    luaL_setmetatable(L, LMECH_SYSTEM);
    lua_newtable(L);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "self"); /* callbacks reach the system object through this */
    lua_getfield(L, LUA_REGISTRYINDEX, UV_REGISTRY);
    lua_pushvalue(L, -2);
    lua_rawsetp(L, -2, ls);
    lua_pop(L, 1);
    lua_setiuservalue(L, -2, 1);
    mech_error err;
    mech_status st = dim == 3 ? mech_system_create_spatial(&ls->sys, g, &err)
                              : mech_system_create(&ls->sys, g, &err);
    if (st != MECH_OK) return lu_mech_error(L, fn, &err);
    if (!isnan(bg[0]) && mech_system_set_baumgarte(ls->sys, bg[0], bg[1], &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    mech_system_set_assembly(ls->sys, assemble);
    if (mech_system_set_start(ls->sys, (mech_start)start, &err) != MECH_OK ||
        mech_system_set_solver(ls->sys, (mech_solver)solver, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    return 1;
}

static int l_planar(lua_State *L)
{
    return new_system(L, 2);
}

static int l_spatial(lua_State *L)
{
    return new_system(L, 3);
}

static int sys_entity(lua_State *L)
{
    const char *fn = "sys:entity";
    lsys *ls = lsys_check(L, 1);
    const char *name = luaL_checkstring(L, 2);
    int id;
    mech_kind kind = mech_system_find(LSYS_LIVE(ls), name, &id);
    if (kind == MECH_KIND_NONE || kind == MECH_KIND_SYSTEM) return luaL_pushfail(L), 1;
    lsys_push_entity(L, 1, kind, id);
    return 1;
}

static int sys_describe(lua_State *L)
{
    const char *fn = "sys:describe";
    lsys *ls = lsys_check(L, 1);
    size_t n = mech_system_describe(ls->sys, "", NULL, 0);
    char *buf = lua_newuserdatauv(L, n + 1, 0);
    mech_system_describe(LSYS_LIVE(ls), "", buf, n + 1); /* what fits, if it changed meanwhile */
    lua_pushstring(L, buf);
    return 1;
}

/* Composed in C: the text is pushed once, so no allocation (which may run a finalizer)
** comes between reading the system and using what was read. */
static int sys_tostring(lua_State *L)
{
    lsys *ls = luaL_checkudata(L, 1, LMECH_SYSTEM);
    const char *type = ls->dim == 3 ? "mech.spatial" : "mech.planar";
    if (ls->sys == NULL) {
        lua_pushfstring(L, "%s (closed)", type);
        return 1;
    }
    const mech_system *s = ls->sys;
    char buf[16 * MECH_NAME_MAX];
    size_t len = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + len, sizeof buf - len, __VA_ARGS__);                               \
        if (w_ > 0) len = len + (size_t)w_ < sizeof buf ? len + (size_t)w_ : sizeof buf - 1;       \
    } while (0)
    int nb = mech_system_count(s, MECH_KIND_BODY) - 1;
    ADD("%s: %d bod%s", type, nb, nb == 1 ? "y" : "ies");
    for (int i = 1; i <= nb && i <= 6; i++) {
        ADD("%s%s", i == 1 ? " (" : ", ", mech_system_name(s, MECH_KIND_BODY, i));
        if (i == nb || i == 6) ADD("%s", i < nb ? ", ...)" : ")");
    }
    int nj = mech_system_count(s, MECH_KIND_JOINT), nd = mech_system_count(s, MECH_KIND_DRIVER);
    int nf = mech_system_count(s, MECH_KIND_FORCE), np = mech_system_count(s, MECH_KIND_POINT);
    ADD(", %d joint%s, %d driver%s, %d force element%s, %d point%s", nj, nj == 1 ? "" : "s", nd,
        nd == 1 ? "" : "s", nf, nf == 1 ? "" : "s", np, np == 1 ? "" : "s");
    int nc = mech_system_count(s, MECH_KIND_CONTACT);
    if (nc > 0) ADD(", %d contact%s", nc, nc == 1 ? "" : "s");
    int dof = mech_system_dof(s);
    ADD("; %d degree%s of freedom", dof, dof == 1 ? "" : "s");
#undef ADD
    lua_pushlstring(L, buf, len);
    return 1;
}

/* The metatable fields of the methods of systems of dimension dim (2 or 3), and of the stubs
** that systems of the other dimension find under the same names. */
static const char *dim_methods(int dim)
{
    return dim == 3 ? "__spatial_methods" : "__planar_methods";
}

static const char *dim_stubs(int dim)
{
    return dim == 3 ? "__spatial_stubs" : "__planar_stubs";
}

static int sys_index(lua_State *L)
{
    const char *key = luaL_checkstring(L, 2); /* first: turning a number into text allocates */
    lsys *ls = lsys_check(L, 1);
    if (strcmp(key, "ground") == 0) {
        lsys_push_entity(L, 1, MECH_KIND_BODY, MECH_GROUND);
        return 1;
    }
    if (strcmp(key, "dof") == 0) {
        lua_pushinteger(L, mech_system_dof(ls->sys));
        return 1;
    }
    if (strcmp(key, "dim") == 0) {
        lua_pushinteger(L, ls->dim);
        return 1;
    }
    if (strcmp(key, "last_run") == 0) {
        lsys_push_uv(L, ls);
        lua_getfield(L, -1, "last_run");
        return 1;
    }
    /* this dimension's methods, then every system's, then the other dimension's stubs */
    const char *const tables[] = {dim_methods(ls->dim), "__methods", dim_stubs(5 - ls->dim)};
    luaL_getmetatable(L, LMECH_SYSTEM);
    for (int i = 0; i < 3; i++) {
        lua_getfield(L, -1, tables[i]);
        if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
        lua_pop(L, 2);
    }
    return 0;
}

/* What Tab completes on system s (the REPL calls the metatable's __complete with it): its
** fields, every system's methods and those of its dimension, exactly what sys_index finds
** (the other dimension's stubs aside). */
static int sys_complete(lua_State *L)
{
    static const char *const fields[] = {"ground", "dof", "dim", "last_run", NULL};
    lsys *ls = luaL_checkudata(L, 1, LMECH_SYSTEM);
    lua_newtable(L);
    int set = lua_gettop(L);
    lu_setflags(L, fields);
    luaL_getmetatable(L, LMECH_SYSTEM);
    const char *const tables[] = {"__methods", dim_methods(ls->dim)};
    for (int i = 0; i < 2; i++) {
        lua_getfield(L, -1, tables[i]);
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, set);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, set);
    return 1;
}

/* ---- entities -------------------------------------------------------------------------------- */

static int ent_tostring(lua_State *L)
{
    lsys *ls;
    lentity *e = lsys_check_entity(L, 1, &ls);
    char desc[600], text[700 + MECH_NAME_MAX];
    mech_entity_summary(ls->sys, e->kind, e->id, desc, sizeof desc);
    snprintf(text, sizeof text, "%s '%s': %s", lsys_kind_names[e->kind],
             mech_system_name(ls->sys, e->kind, e->id), desc);
    lua_pushstring(L, text);
    return 1;
}

static int ent_eq(lua_State *L)
{
    lentity *a = luaL_testudata(L, 1, LMECH_ENTITY), *b = luaL_testudata(L, 2, LMECH_ENTITY);
    if (!a || !b || a->kind != b->kind || a->id != b->id) {
        lua_pushboolean(L, 0);
        return 1;
    }
    lua_getiuservalue(L, 1, 1);
    lua_getiuservalue(L, 2, 1);
    lua_pushboolean(L, lua_rawequal(L, -1, -2));
    return 1;
}

/* The binding registered for entities of `kind` (lsys_add_kind), or NULL: the kinds table is
** the upvalue of ent_index and ent_complete.  Reads a table only (nothing allocates). */
static const lsys_kind_binding *kind_binding(lua_State *L, int kind)
{
    lua_rawgeti(L, lua_upvalueindex(1), kind);
    const lsys_kind_binding *b = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return b;
}

static int ent_index(lua_State *L)
{
    const char *key = luaL_checkstring(L, 2); /* first: turning a number into text allocates */
    lsys *ls;
    lentity *e = lsys_check_entity(L, 1, &ls);
    if (strcmp(key, "name") == 0) {
        lua_pushstring(L, mech_system_name(ls->sys, e->kind, e->id));
        return 1;
    }
    if (strcmp(key, "kind") == 0) {
        lua_pushstring(L, lsys_kind_names[e->kind]);
        return 1;
    }
    if (strcmp(key, "system") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    if (strcmp(key, "channels") == 0) { /* what can be recorded: a list of names */
        size_t need = mech_channel_list(ls->sys, e->kind, e->id, NULL, 0);
        char *list = lua_newuserdatauv(L, need + 1, 0);
        mech_channel_list(ls->sys, e->kind, e->id, list, need + 1);
        lu_push_names(L, list);
        return 1;
    }
    const lsys_kind_binding *b = kind_binding(L, e->kind);
    if (b == NULL) return 0;
    for (const luaL_Reg *m = b->methods; m && m->name; m++)
        if (strcmp(key, m->name) == 0) {
            lua_pushcfunction(L, m->func);
            return 1;
        }
    return b->index ? b->index(L, ls, e, key) : 0;
}

/* What Tab completes on entity e (the REPL calls the metatable's __complete with it): the
** fields every entity has, and the methods and fields of its kind, exactly those that
** ent_index answers. */
static int ent_complete(lua_State *L)
{
    static const char *const fields[] = {"name", "kind", "system", "channels", NULL};
    lsys *ls;
    lentity *e = lsys_check_entity(L, 1, &ls);
    lua_newtable(L);
    lu_setflags(L, fields);
    const lsys_kind_binding *b = kind_binding(L, e->kind);
    if (b && b->fields) lu_setflags(L, b->fields);
    if (b && b->methods) luaL_setfuncs(L, b->methods, 0);
    return 1;
}

/* ---- registration ---------------------------------------------------------------------------- */

static const luaL_Reg sys_methods[] = {
    {"entity", sys_entity}, {"describe", sys_describe}, {NULL, NULL}};

/* A method of the other dimension's systems (upvalues: the method, its name, its dimension):
** raises, naming the method and the system's dimension; called on a system of its own
** dimension (taken from the other's), it is the method. */
static int wrong_dim(lua_State *L)
{
    static const char *const kinds[] = {"planar", "spatial"};
    lsys *ls = luaL_testudata(L, 1, LMECH_SYSTEM);
    int dim = (int)lua_tointeger(L, lua_upvalueindex(3));
    if (ls && ls->dim == dim) {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        return lua_gettop(L);
    }
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    const char *own = kinds[dim == 3];
    char fn[MECH_NAME_MAX + 8];
    snprintf(fn, sizeof fn, "sys:%s", name);
    if (ls == NULL)
        return lu_error(L, fn, "a %s system's method: call it as sys:%s{...} (got %s)", own, name,
                        luaL_typename(L, 1));
    return dim_error(L, fn, dim);
}

void lsys_add_methods(lua_State *L, int mech, int dim, const luaL_Reg methods[])
{
    mech = lua_absindex(L, mech);
    luaL_getmetatable(L, LMECH_SYSTEM);
    lua_getfield(L, -1, dim ? dim_methods(dim) : "__methods");
    lua_pushvalue(L, mech);  /* upvalue 1 of each method: the mech table (for mech.quiet) */
    lua_pushinteger(L, dim); /* upvalue 2: its dimension, which lsys_method_args checks */
    luaL_setfuncs(L, methods, 2);
    if (dim) {
        lua_getfield(L, -2, dim_stubs(dim));
        for (const luaL_Reg *m = methods; m->name; m++) {
            lua_getfield(L, -2, m->name);
            lua_pushstring(L, m->name);
            lua_pushinteger(L, dim);
            lua_pushcclosure(L, wrong_dim, 3);
            lua_setfield(L, -2, m->name);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

void lsys_add_kind(lua_State *L, const lsys_kind_binding *b)
{
    lua_getfield(L, LUA_REGISTRYINDEX, KINDS_REGISTRY);
    lua_pushlightuserdata(L, (void *)b);
    lua_rawseti(L, -2, b->kind);
    lua_pop(L, 1);
    /* every method some kind of entity has (help() finds them by value here; what an
    ** entity offers is ent_index's and ent_complete's business) */
    luaL_getmetatable(L, LMECH_ENTITY);
    lua_getfield(L, -1, "__methods");
    if (b->methods) luaL_setfuncs(L, b->methods, 0);
    lua_pop(L, 2);
}

void lmech_open_system(lua_State *L)
{
    static const luaL_Reg sys_meta[] = {{"__index", sys_index},       {"__gc", sys_gc},
                                        {"__close", sys_gc},          {"__tostring", sys_tostring},
                                        {"__complete", sys_complete}, {NULL, NULL}};
    static const char *const method_tables[] = {"__methods",         "__planar_methods",
                                                "__spatial_methods", "__planar_stubs",
                                                "__spatial_stubs",   NULL};
    static const luaL_Reg ent_meta[] = {{"__index", ent_index},
                                        {"__tostring", ent_tostring},
                                        {"__eq", ent_eq},
                                        {"__complete", ent_complete},
                                        {NULL, NULL}};
    int mech = lua_gettop(L);
    luaL_newmetatable(L, LMECH_SYSTEM);
    for (int i = 0; method_tables[i]; i++) { /* filled by lsys_add_methods */
        lua_newtable(L);
        lua_setfield(L, -2, method_tables[i]);
    }
    luaL_setfuncs(L, sys_meta, 0);
    lua_pop(L, 1);

    lua_newtable(L); /* the kinds' bindings */
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, KINDS_REGISTRY);
    luaL_newmetatable(L, LMECH_ENTITY);
    lua_insert(L, -2);
    luaL_setfuncs(L, ent_meta, 1); /* their upvalue: the kinds table */
    lua_newtable(L);
    lua_setfield(L, -2, "__methods"); /* the kinds' methods, as they are added */
    lua_pop(L, 1);

    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, UV_REGISTRY);

    lsys_add_methods(L, mech, 0, sys_methods);

    lua_pushcfunction(L, l_planar);
    lua_setfield(L, mech, "planar");
    lua_pushcfunction(L, l_spatial);
    lua_setfield(L, mech, "spatial");
}

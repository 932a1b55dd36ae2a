/* SPDX-License-Identifier: MIT */
/*
** mech.planar: systems, their entities, and simulate.
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
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "host.h"
#include "lcontact.h"
#include "lmech.h"
#include "lsystem.h"
#include "lutil.h"

/* Registry table (weak values) from a system's address to its user value table, so
** that C callbacks can find their Lua functions without keeping the system alive. */
#define UV_REGISTRY "mech.system.uv"

/* Registry table from an entity kind to its binding (light userdata), what lsys_add_kind
** registered; also the upvalue of the entity metatable's __index and __complete. */
#define KINDS_REGISTRY "mech.entity.kinds"

/* Context of one Lua callback: the function is uservalue[ref]. */
typedef struct lcb {
    lsys *owner;
    int ref;
    char what[96]; /* "spring 's1' law", for messages */
} lcb;

const char *const lsys_kind_names[] = {"none",   "body",   "point",   "force",        "joint",
                                       "driver", "system", "contact", "flexible body"};

/* ---- access -------------------------------------------------------------------------- */

static lsys *check_sys(lua_State *L, int arg)
{
    lsys *ls = luaL_checkudata(L, arg, LMECH_SYSTEM);
    if (ls->sys == NULL) luaL_argerror(L, arg, "system was closed");
    return ls;
}

lsys *lsys_check_mutable(lua_State *L, int arg, const char *fname)
{
    lsys *ls = check_sys(L, arg);
    if (ls->busy) lu_error(L, fname, "the system cannot change while it is %s", ls->busy);
    return ls;
}

/* The system of ls, which Lua code run since it was checked (a metamethod, tostring) may
** have closed. */
mech_system *lsys_live(lua_State *L, lsys *ls, const char *fname)
{
    if (ls->sys == NULL) lu_error(L, fname, "the system was closed");
    return ls->sys;
}

/* ls->sys for a call into libmech, in a function with `fn`: Lua code that ran since the
** system was checked (a metamethod, or a finalizer that an allocation ran) may have
** closed it. */
#define LIVE(ls) lsys_live(L, (ls), fn)

/* Runs a libmech call that may call back into Lua with the system marked busy (`what` it
** is being: "simulated", "assembled", ...): callbacks can read it but neither change nor
** close it.  No Lua error can escape in between: callbacks run in protected calls. */
#define BUSY(ls, what, call) ((ls)->busy = (what), (ls)->cb_error[0] = '\0', busy_end((ls), (call)))

static mech_status busy_end(lsys *ls, mech_status st)
{
    ls->busy = NULL;
    return st;
}

/* Pushes the user value table of a system. */
static void push_uv(lua_State *L, lsys *ls)
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
static lcb *new_callback(lua_State *L, lsys *ls, const char *what)
{
    push_uv(L, ls);
    lua_insert(L, -2);
    int ref = ++ls->ncallbacks;
    lua_rawseti(L, -2, 2 * ref); /* the function */
    lcb *cb = lua_newuserdatauv(L, sizeof *cb, 0);
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
    push_uv(L, cb->owner);
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

static int law_trampoline(void *ud, double t, double x, double xdot, double *f)
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
static int motion_trampoline(void *ud, double t, double out[3])
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

static int load_trampoline(void *ud, double t, const mech_body_state *b, double out[3])
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
static int torque_trampoline(void *ud, double t, const mech_body_state *b, double out[3])
{
    double v[3];
    if (load_trampoline(ud, t, b, v)) return -1;
    out[0] = out[1] = 0;
    out[2] = v[0];
    return 0;
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
    push_uv(L, cb->owner);
    lua_getfield(L, -1, "self");
    lua_remove(L, -2);
    return call_callback(cb, L, *top, 2, 1) ? NULL : L;
}

/* Channel and event functions: function(t, system) returning a number. */
static int system_fn_trampoline(void *ud, const mech_system *sys, double t, double *value)
{
    (void)sys;
    int top;
    lua_State *L = call_with_system(ud, t, &top);
    return L ? numbers_result(ud, L, top, 1, 1, 0, value) : -1;
}

/* An event action: function(t, system) returning "stop" (or true) to end the run. */
static int event_action_trampoline(void *ud, const mech_system *sys, double t, int *stop)
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

/* ---- mech.planar and system methods ---------------------------------------------------------- */

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

static int l_planar(lua_State *L)
{
    const char *fn = "mech.planar";
    static const char *const known[] = {"gravity", "baumgarte", "assemble", "start", NULL};
    /* in the order of mech_start */
    static const char *const starts[] = {"auto", "ideal", "as_given", NULL};
    double g[2] = {0, 0};
    int assemble = 1, start = MECH_START_AUTO;
    double bg[2] = {NAN, NAN};
    if (!lua_isnoneornil(L, 1)) {
        int t = lu_checktable(L, 1, fn, "{ gravity = {gx, gy} }");
        lu_checkfields(L, t, fn, known, 0);
        lu_vec2(L, t, fn, "gravity", g);
        lu_vec2(L, t, fn, "baumgarte", bg);
        assemble = lu_bool(L, t, fn, "assemble", 1);
        start = lu_option(L, t, fn, "start", starts, MECH_START_AUTO);
        if (start == MECH_START_IDEAL && !assemble)
            lu_error(L, fn,
                     "field 'start' = \"ideal\" is an assembly: it needs assemble = true "
                     "(assemble = false keeps the state as given)");
    }
    lsys *ls = lua_newuserdatauv(L, sizeof *ls, 1);
    memset(ls, 0, sizeof *ls);
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
    if (mech_system_create(&ls->sys, g, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    if (!isnan(bg[0]) && mech_system_set_baumgarte(ls->sys, bg[0], bg[1], &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    mech_system_set_assembly(ls->sys, assemble);
    if (mech_system_set_start(ls->sys, (mech_start)start, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    return 1;
}

/* Reads {alpha, beta} from field baumgarte into a, b (NaN when absent). */
static void baumgarte_field(lua_State *L, int t, const char *fn, double *a, double *b)
{
    double v[2] = {NAN, NAN};
    lu_vec2(L, t, fn, "baumgarte", v);
    *a = v[0];
    *b = v[1];
}

/* ---- plausibility: values that are legal but probably a slip of unit -------------------
** Warnings, never errors (lu_warn); each names the entity, the value and the likely slip.
** The thresholds are explained in mechlua(3), section PLAUSIBILITY WARNINGS. */

#define PLAUS_TURN    (2 * 3.14159265358979323846) /* an angle given at creation, rad */
#define PLAUS_OMEGA   1000.0 /* rad/s (9549 rpm): a speed in rpm taken as rad/s */
#define PLAUS_SPEED   100.0  /* m/s: a speed in mm/s taken as m/s */
#define PLAUS_MASSES  1e4    /* ratio of the largest to the smallest body mass */
#define PLAUS_OUTLINE 100.0  /* a body's outline against the model's extent */

/* The name of entity (kind, id): read before any Lua code runs. */
static const char *plaus_name(lsys *ls, int kind, int id)
{
    const char *name = ls->sys ? mech_system_name(ls->sys, kind, id) : NULL;
    return name ? name : "?";
}

/* An angle given at creation beyond one turn: degrees? */
static void plaus_angle(lua_State *L, const char *what, const char *name, const char *field,
                        double v)
{
    if (fabs(v) > PLAUS_TURN)
        lu_warn(L, "%s '%s': %s = %g rad is more than 2 pi: degrees? use mech.deg(%g)", what, name,
                field, v, v);
}

/* An angular speed above PLAUS_OMEGA: rpm? */
static void plaus_omega(lua_State *L, const char *what, const char *name, const char *field,
                        double v)
{
    if (fabs(v) > PLAUS_OMEGA)
        lu_warn(L, "%s '%s': %s = %g rad/s (%.0f rpm) is above %g rad/s: rpm? use mech.rpm(%g)",
                what, name, field, v, v * 60 / PLAUS_TURN, PLAUS_OMEGA, v);
}

/* A linear speed above PLAUS_SPEED: mm/s? */
static void plaus_speed(lua_State *L, const char *what, const char *name, const char *field,
                        double v)
{
    if (fabs(v) > PLAUS_SPEED)
        lu_warn(L, "%s '%s': %s = %g m/s is above %g m/s: mm/s? use mech.mm(%g)", what, name, field,
                v, PLAUS_SPEED, v);
}

/* Adds world point p to the model's extent. */
static void scale_point(lsys_scale *sc, const double p[2])
{
    if (!(isfinite(p[0]) && isfinite(p[1]))) return;
    if (sc->npoints++ == 0) {
        sc->box[0] = sc->box[2] = p[0];
        sc->box[1] = sc->box[3] = p[1];
        return;
    }
    sc->box[0] = fmin(sc->box[0], p[0]);
    sc->box[1] = fmin(sc->box[1], p[1]);
    sc->box[2] = fmax(sc->box[2], p[0]);
    sc->box[3] = fmax(sc->box[3], p[1]);
}

/* The model's extent: the diagonal of the box of the bodies' centres and the ideal joints'
** anchors (0 when there is no length yet). */
static double scale_extent(const lsys_scale *sc)
{
    return sc->npoints < 2 ? 0 : hypot(sc->box[2] - sc->box[0], sc->box[3] - sc->box[1]);
}

/* Anchor pa of body b (body coordinates) in the world, before assembly. */
static void scale_anchor(lsys *ls, int b, const double pa[2])
{
    double pose[3], w[2];
    mech_body_initial_pose(ls->sys, b, pose);
    double c = cos(pose[2]), s = sin(pose[2]);
    w[0] = pose[0] + c * pa[0] - s * pa[1];
    w[1] = pose[1] + s * pa[0] + c * pa[1];
    scale_point(&ls->scale, w);
}

/* A body just added: its centre, mass and outline. */
static void scale_body(lsys *ls, int id, const mech_body_def *d, double outline)
{
    lsys_scale *sc = &ls->scale;
    scale_point(sc, d->pos);
    if (d->mass > 0 && isfinite(d->mass)) {
        if (sc->mass[0] == 0 || d->mass < sc->mass[0]) sc->mass[0] = d->mass, sc->mass_id[0] = id;
        if (d->mass > sc->mass[1]) sc->mass[1] = d->mass, sc->mass_id[1] = id;
    }
    if (outline > sc->outline) sc->outline = outline, sc->outline_id = id;
}

/*
** The checks against the whole model, before it is assembled (again after a change: lu_warn
** gives each message once): a bearing radius or a gap larger than the model, an outline
** much larger than the model, masses that differ too much.  Names are read before each
** warning (which may run Lua code).
*/
static void scale_check(lua_State *L, lsys *ls)
{
    lsys_scale *sc = &ls->scale;
    if (ls->sys == NULL) return;
    double ext = scale_extent(sc);
    for (int i = 0; i < sc->nclear && i < LSYS_SCALE_CLEARANCES && ext > 0; i++) {
        if (!(sc->clear[i].size > ext) || ls->sys == NULL) continue;
        lu_warn(L,
                "joint '%s': %s = %g m is larger than the whole model (%g m across its bodies "
                "and joints): millimetres? use mech.mm(%g)",
                plaus_name(ls, MECH_KIND_JOINT, sc->clear[i].joint), sc->clear[i].what,
                sc->clear[i].size, ext, sc->clear[i].size);
    }
    if (ext > 0 && sc->outline > PLAUS_OUTLINE * ext && ls->sys)
        lu_warn(L,
                "body '%s': its outline is %g m long, more than %g times the whole model (%g m "
                "across its bodies and joints): millimetres? use mech.mm{...}",
                plaus_name(ls, MECH_KIND_BODY, sc->outline_id), sc->outline, PLAUS_OUTLINE, ext);
    if (sc->mass[0] > 0 && sc->mass[1] > PLAUS_MASSES * sc->mass[0] && ls->sys)
        lu_warn(L,
                "body '%s': mass = %g kg is more than %g times the mass of body '%s' (%g kg): "
                "grams and kilograms mixed?",
                plaus_name(ls, MECH_KIND_BODY, sc->mass_id[1]), sc->mass[1], PLAUS_MASSES,
                plaus_name(ls, MECH_KIND_BODY, sc->mass_id[0]), sc->mass[0]);
}

/* World point `at` in the initial configuration -> coordinates of body b. */

static int sys_body(lua_State *L)
{
    const char *fn = "sys:body";
    static const char *const known[] = {"name",     "mass",  "inertia",   "at",      "angle",
                                        "velocity", "omega", "rectangle", "segment", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ name = ..., mass = ..., ... }");
    lu_checkfields(L, t, fn, known, 0);
    mech_body_def d = mech_body_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.mass = lu_number(L, t, fn, "mass", 0, 1);
    d.inertia = lu_number(L, t, fn, "inertia", 0, 0);
    lu_vec2(L, t, fn, "at", d.pos);
    d.angle = lu_number(L, t, fn, "angle", 0, 0);
    lu_vec2(L, t, fn, "velocity", d.vel);
    d.omega = lu_number(L, t, fn, "omega", 0, 0);
    double rect[2], seg[2][2];
    /* outlines are checked before the body is added, so that a call that fails adds nothing */
    int has_rect = lu_vec2(L, t, fn, "rectangle", rect);
    if (has_rect && !(rect[0] > 0 && rect[1] > 0))
        return lu_error(L, fn, "field 'rectangle' must be {width, height}, both > 0 (got {%g, %g})",
                        rect[0], rect[1]);
    int has_seg = lu_points(L, t, fn, "segment", seg, 2, 2);
    if (has_seg && seg[0][0] == seg[1][0] && seg[0][1] == seg[1][1])
        return lu_error(L, fn, "field 'segment' must be two distinct points");
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_BODY, -1);
    mech_error err;
    int id;
    if (mech_body_add(LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    if (has_rect && mech_body_set_rectangle(ls->sys, id, rect[0] / 2, rect[1] / 2, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    if (has_seg && mech_body_set_segment(ls->sys, id, seg[0], seg[1], &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    double outline = has_rect ? fmax(rect[0], rect[1]) : 0;
    if (has_seg) outline = fmax(outline, hypot(seg[1][0] - seg[0][0], seg[1][1] - seg[0][1]));
    scale_body(ls, id, &d, outline);
    plaus_angle(L, "body", plaus_name(ls, MECH_KIND_BODY, id), "angle", d.angle);
    plaus_omega(L, "body", plaus_name(ls, MECH_KIND_BODY, id), "omega", d.omega);
    return 1;
}

/* Reads a point given as `at` (world) or `body_at` (body coordinates) of body b. */
static void one_point(lua_State *L, lsys *ls, int t, const char *fn, int b, double out[2])
{
    double at[2];
    int has_at = lu_vec2(L, t, fn, "at", at), has_local = lu_vec2(L, t, fn, "body_at", out);
    if (has_at && has_local) lu_error(L, fn, "give either 'at' or 'body_at', not both");
    if (has_at) lsys_to_body(LIVE(ls), b, at, out);
    if (!has_at && !has_local) out[0] = out[1] = 0;
}

void lsys_to_body(const mech_system *sys, int b, const double at[2], double out[2])
{
    /* the body's pose as given (before assembly): read back through the description API
    ** is not possible, so the binding keeps it: ask libmech for the initial pose */
    double pose[3];
    mech_body_initial_pose(sys, b, pose);
    double dx = at[0] - pose[0], dy = at[1] - pose[1];
    double c = cos(pose[2]), s = sin(pose[2]);
    out[0] = c * dx + s * dy;
    out[1] = -s * dx + c * dy;
}

static int point_common(lua_State *L, lsys *ls, int sysidx, int t, int b, const char *fn)
{
    const char *name = lu_string(L, t, fn, "name", NULL);
    if (name == NULL) return lu_error(L, fn, "field 'name' is required (a string)");
    double s[2];
    one_point(L, ls, t, fn, b, s);
    lentity *e = lsys_push_entity(L, sysidx, MECH_KIND_POINT, -1);
    mech_error err;
    if (mech_point_add(LIVE(ls), b, name, s, &e->id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    return 1;
}

static int sys_point(lua_State *L)
{
    const char *fn = "sys:point";
    static const char *const known[] = {"name", "at", "body_at", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body, name = ..., at = {x, y} }");
    lu_checkfields(L, t, fn, known, 1);
    int b = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    return point_common(L, ls, 1, t, b, fn);
}

/* Anchors of a two-body element: `at` (one world point, or two for springs) or a_at and
** b_at in body coordinates. */
static void two_points(lua_State *L, lsys *ls, int t, const char *fn, int a, int b, int two_ends,
                       double pa[2], double pb[2])
{
    int has_a = lu_vec2(L, t, fn, "a_at", pa), has_b = lu_vec2(L, t, fn, "b_at", pb);
    int type = lu_getfield(L, t, fn, "at");
    lua_pop(L, 1);
    if (type == LUA_TNIL) {
        if (!has_a) pa[0] = pa[1] = 0;
        if (!has_b) pb[0] = pb[1] = 0;
        if (!has_a && !has_b && !two_ends)
            lu_error(L, fn,
                     "give the anchor: 'at' = {x, y} (world), or 'a_at' and 'b_at' (body "
                     "coordinates)");
        return;
    }
    if (has_a || has_b) lu_error(L, fn, "give either 'at' or 'a_at'/'b_at', not both");
    double w[2][2];
    if (two_ends) {
        lu_getfield(L, t, fn, "at");
        if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 2 || lua_rawgeti(L, -1, 1) != LUA_TTABLE)
            lu_error(L, fn, "field 'at' must be {{x1, y1}, {x2, y2}}: the two ends (world)");
        lua_pop(L, 1);
        for (int i = 0; i < 2; i++) {
            lua_newtable(L);
            lua_rawgeti(L, -2, i + 1);
            lua_setfield(L, -2, "at");
            lu_vec2(L, lua_gettop(L), fn, "at", w[i]);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    } else {
        lu_vec2(L, t, fn, "at", w[0]);
        w[1][0] = w[0][0];
        w[1][1] = w[0][1];
    }
    lsys_to_body(LIVE(ls), a, w[0], pa);
    lsys_to_body(LIVE(ls), b, w[1], pb);
}

/* Reads the required field `law` (a contact law) and the optional `friction` of table t. */
void lsys_read_laws(lua_State *L, lsys *ls, int t, const char *fn, mech_normal_law *law,
                    mech_friction_law *friction)
{
    if (lu_getfield(L, t, fn, "law") == LUA_TNIL)
        lu_error(L, fn,
                 "field 'law' is required: a contact law, e.g. mech.contact.hertz{ K = ... }");
    lcontact_read(L, -1, fn, "law", law, NULL);
    lua_pop(L, 1);
    if (lu_getfield(L, t, fn, "friction") != LUA_TNIL)
        lcontact_read(L, -1, fn, "friction", NULL, friction);
    lua_pop(L, 1);
    lsys_live(L, ls, fn); /* a law's metamethods are Lua code */
}

/*
** Reads field `clearance` of the joint table t into d (making it a joint with clearance);
** returns 0 when there is none (an ideal joint).
**   revolute:  { radial = c | journal = R_j, radius = R_b, law, friction }
**   prismatic: { gap = c | width = W, length, height | corners = {{x, y}, ...}, law, friction }
*/
static int read_clearance(lua_State *L, lsys *ls, int t, const char *fn, mech_joint_def *d)
{
    static const char *const rknown[] = {"radial", "journal", "radius", "law", "friction", NULL};
    static const char *const pknown[] = {"gap",     "width", "length",   "height",
                                         "corners", "law",   "friction", NULL};
    static const char *const ideal_only[] = {"method", "k", "c", "baumgarte", "angle", NULL};
    if (lu_getfield(L, t, fn, "clearance") == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    int c = lua_gettop(L);
    for (const char *const *k = ideal_only; *k; k++) {
        if (lu_getfield(L, t, fn, *k) != LUA_TNIL)
            lu_error(L, fn,
                     "'%s' is for ideal joints: a joint with clearance has no constraint "
                     "equation",
                     *k);
        lua_pop(L, 1);
    }
    char cfn[MECH_NAME_MAX + 48];
    if (d->name)
        snprintf(cfn, sizeof cfn, "%s (clearance of '%.*s')", fn, MECH_NAME_MAX, d->name);
    else
        snprintf(cfn, sizeof cfn, "%s (clearance)", fn);
    lu_checktable(L, c, cfn,
                  d->type == MECH_REVOLUTE
                      ? "{ radial = ..., radius = ..., law = ... }"
                      : "{ gap = ..., length = ..., height = ..., law = ... }");
    lu_checkfields(L, c, cfn, d->type == MECH_REVOLUTE ? rknown : pknown, 0);
    mech_clearance_def *cl = &d->clearance;
    d->enforce = MECH_CLEARANCE;
    double other;
    const char *size = d->type == MECH_REVOLUTE ? "radial" : "gap";
    const char *alt = d->type == MECH_REVOLUTE ? "journal" : "width";
    int has_size = lu_optnumber(L, c, cfn, size, &cl->gap);
    int has_alt = lu_optnumber(L, c, cfn, alt, &other);
    if (has_size == has_alt)
        lu_error(L, cfn, "give either '%s' (the clearance) or '%s' (%s)", size, alt,
                 d->type == MECH_REVOLUTE ? "the journal's radius" : "the guide's width");
    if (d->type == MECH_REVOLUTE) {
        cl->radius = lu_number(L, c, cfn, "radius", 0, 1);
        if (has_alt) cl->gap = cl->radius - other;
    } else {
        cl->ncorners = lu_points(L, c, cfn, "corners", cl->corners, 1, MECH_CLEARANCE_CORNERS);
        double len, height;
        int has_len = lu_optnumber(L, c, cfn, "length", &len);
        int has_height = lu_optnumber(L, c, cfn, "height", &height);
        if (cl->ncorners && (has_len || has_height))
            lu_error(L, cfn, "give either 'length' and 'height' or 'corners', not both");
        if (!cl->ncorners) {
            if (!has_len || !has_height || !(len > 0) || !(height > 0))
                lu_error(L, cfn,
                         "the slider's outline: 'length' and 'height' > 0 (a rectangle centred "
                         "on its centre of mass) or 'corners' = {{x, y}, ...}");
            /* counter-clockwise from the lower left corner, in the slider's frame */
            const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
            cl->ncorners = 4;
            for (int k = 0; k < 4; k++) {
                cl->corners[k][0] = sx[k] * len / 2;
                cl->corners[k][1] = sy[k] * height / 2;
            }
        }
        if (has_alt) { /* the guide's width: what the slider's height leaves, on each side */
            double ymin = INFINITY, ymax = -INFINITY;
            for (int k = 0; k < cl->ncorners; k++) {
                ymin = fmin(ymin, cl->corners[k][1]);
                ymax = fmax(ymax, cl->corners[k][1]);
            }
            if (!(other > ymax - ymin))
                lu_error(L, cfn, "the slider (%g m high) does not fit in the guide (width %g m)",
                         ymax - ymin, other);
            cl->gap = (other - (ymax - ymin)) / 2;
        }
    }
    lsys_read_laws(L, ls, c, cfn, &cl->normal_law, &cl->friction);
    lua_settop(L, c - 1);
    return 1;
}

/* A joint just added: its anchors, its clearance (checked against the model at assembly,
** and against itself now) and the angle of an ideal one. */
static void scale_joint(lua_State *L, lsys *ls, int id, const mech_joint_def *d)
{
    lsys_scale *sc = &ls->scale;
    if (d->enforce != MECH_CLEARANCE) { /* a clearance joint's anchors are its bearing's
                                        ** centre and its journal's, its own size */
        scale_anchor(ls, d->body_a, d->pa);
        scale_anchor(ls, d->body_b, d->pb);
        plaus_angle(L, "joint", plaus_name(ls, MECH_KIND_JOINT, id), "angle", d->angle0);
        return;
    }
    const mech_clearance_def *cl = &d->clearance;
    int revolute = d->type == MECH_REVOLUTE;
    if (sc->nclear < LSYS_SCALE_CLEARANCES) {
        sc->clear[sc->nclear].joint = id;
        sc->clear[sc->nclear].size = revolute ? cl->radius : cl->gap;
        sc->clear[sc->nclear].what = revolute ? "bearing radius" : "gap";
    }
    sc->nclear++;
    if (revolute) {
        if (cl->gap > cl->radius / 2)
            lu_warn(L,
                    "joint '%s': radial clearance = %g m is more than half the bearing radius "
                    "(%g m), which leaves a journal of %g m: journal's radius and clearance "
                    "mixed up? (clearance = { journal = %g, radius = %g } gives the journal)",
                    plaus_name(ls, MECH_KIND_JOINT, id), cl->gap, cl->radius, cl->radius - cl->gap,
                    cl->gap, cl->radius);
        return;
    }
    double ymin = INFINITY, ymax = -INFINITY;
    for (int k = 0; k < cl->ncorners; k++) {
        ymin = fmin(ymin, cl->corners[k][1]);
        ymax = fmax(ymax, cl->corners[k][1]);
    }
    if (cl->ncorners && cl->gap > ymax - ymin)
        lu_warn(L,
                "joint '%s': gap = %g m is more than the slider's height (%g m): the guide's "
                "width? (clearance = { width = %g, ... } gives the gap)",
                plaus_name(ls, MECH_KIND_JOINT, id), cl->gap, ymax - ymin, cl->gap);
}

static int add_joint(lua_State *L, mech_joint_type type, const char *fn)
{
    static const char *const known[] = {"name",   "at", "a_at", "b_at",      "axis", "angle",
                                        "method", "k",  "c",    "baumgarte", NULL};
    static const char *const known_clearance[] = {"name", "at",        "a_at",      "b_at",
                                                  "axis", "angle",     "method",    "k",
                                                  "c",    "baumgarte", "clearance", NULL};
    static const char *const methods[] = {"lagrange", "penalty", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body_a, body_b, at = {x, y}, ... }");
    lu_checkfields(L, t, fn, type == MECH_FIXED ? known : known_clearance, 2);
    mech_joint_def d = mech_joint_default();
    d.type = type;
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    if (type == MECH_PRISMATIC) {
        /* default anchor: body b's centre */
        int has =
            lu_getfield(L, t, fn, "at") != LUA_TNIL || lu_getfield(L, t, fn, "a_at") != LUA_TNIL;
        lua_settop(L, t);
        if (!has) {
            double pose[3];
            mech_body_initial_pose(LIVE(ls), d.body_b, pose);
            double at[2] = {pose[0], pose[1]};
            lsys_to_body(LIVE(ls), d.body_a, at, d.pa);
            d.pb[0] = d.pb[1] = 0;
        } else {
            two_points(L, ls, t, fn, d.body_a, d.body_b, 0, d.pa, d.pb);
        }
        if (!lu_vec2(L, t, fn, "axis", d.axis)) d.axis[0] = 1, d.axis[1] = 0;
        /* the axis is given in the world frame at the start: turn it into body a's frame */
        double pose[3];
        mech_body_initial_pose(LIVE(ls), d.body_a, pose);
        double c = cos(pose[2]), s = sin(pose[2]), ax = d.axis[0], ay = d.axis[1];
        d.axis[0] = c * ax + s * ay;
        d.axis[1] = -s * ax + c * ay;
    } else {
        two_points(L, ls, t, fn, d.body_a, d.body_b, 0, d.pa, d.pb);
    }
    if (!read_clearance(L, ls, t, fn, &d)) {
        double angle;
        if (lu_optnumber(L, t, fn, "angle", &angle)) d.angle0 = angle;
        d.enforce = lu_option(L, t, fn, "method", methods, MECH_LAGRANGE);
        int neq = type == MECH_FIXED ? 3 : 2;
        int has_k = lu_numbers(L, t, fn, "k", d.k, neq);
        lu_numbers(L, t, fn, "c", d.c, neq);
        if (d.enforce == MECH_PENALTY && !has_k)
            lu_error(L, fn, "a penalty joint needs 'k', its stiffness (one number or %d)", neq);
        if (d.enforce == MECH_LAGRANGE && has_k)
            lu_error(L, fn, "'k' is for penalty joints: add method = \"penalty\"");
        baumgarte_field(L, t, fn, &d.alpha, &d.beta);
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_JOINT, -1);
    mech_error err;
    if (mech_joint_add(LIVE(ls), &d, &e->id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    scale_joint(L, ls, e->id, &d);
    return 1;
}

static int sys_revolute(lua_State *L)
{
    return add_joint(L, MECH_REVOLUTE, "sys:revolute");
}

static int sys_prismatic(lua_State *L)
{
    return add_joint(L, MECH_PRISMATIC, "sys:prismatic");
}

static int sys_fixed(lua_State *L)
{
    return add_joint(L, MECH_FIXED, "sys:fixed");
}

static int sys_drive(lua_State *L)
{
    const char *fn = "sys:drive";
    static const char *const known[] = {"name", "speed", "start", "motion", "baumgarte", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body or joint, speed = ... }");
    lu_checkfields(L, t, fn, known, 1);
    mech_driver_def d = mech_driver_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    lua_rawgeti(L, t, 1);
    lentity *e = luaL_testudata(L, -1, LMECH_ENTITY);
    lua_pop(L, 1);
    if (e == NULL || (e->kind != MECH_KIND_BODY && e->kind != MECH_KIND_JOINT))
        return lu_error(L, fn, "value #1 must be the body or joint to drive");
    int kind = e->kind;
    d.target = lsys_table_entity(L, t, 1, ls, kind, fn, "the driven body or joint");
    if (kind == MECH_KIND_BODY) {
        d.type = MECH_DRIVE_BODY_ANGLE;
    } else {
        mech_joint_type jt = mech_joint_type_of(LIVE(ls), d.target);
        if (jt == MECH_FIXED) return lu_error(L, fn, "a fixed joint cannot be driven");
        d.type = jt == MECH_REVOLUTE ? MECH_DRIVE_JOINT_ANGLE : MECH_DRIVE_JOINT_DISTANCE;
    }
    double start;
    if (lu_optnumber(L, t, fn, "start", &start)) d.value0 = start;
    int has_speed = lu_optnumber(L, t, fn, "speed", &d.speed);
    baumgarte_field(L, t, fn, &d.alpha, &d.beta);
    if (lu_function(L, t, fn, "motion")) {
        if (has_speed) lu_error(L, fn, "give either 'speed' or 'motion', not both");
        char what[96];
        snprintf(what, sizeof what, "driver '%s' motion function", d.name ? d.name : "?");
        lcb *cb = new_callback(L, ls, what);
        d.fn = motion_trampoline;
        d.ud = cb;
    } else if (!has_speed) {
        return lu_error(L, fn, "give 'speed' (constant) or 'motion' (a function of time)");
    }
    lentity *driver = lsys_push_entity(L, 1, MECH_KIND_DRIVER, -1);
    mech_error err;
    int id;
    ls->L = L;
    if (mech_driver_add(LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    driver->id = id;
    if (d.fn) { /* name the callback now that the driver has its final name */
        lcb *cb = d.ud;
        snprintf(cb->what, sizeof cb->what, "driver '%s' motion function",
                 mech_system_name(ls->sys, MECH_KIND_DRIVER, id));
    }
    if (d.type == MECH_DRIVE_JOINT_DISTANCE) {
        if (has_speed)
            plaus_speed(L, "driver", plaus_name(ls, MECH_KIND_DRIVER, id), "speed", d.speed);
    } else {
        plaus_angle(L, "driver", plaus_name(ls, MECH_KIND_DRIVER, id), "start", d.value0);
        if (has_speed)
            plaus_omega(L, "driver", plaus_name(ls, MECH_KIND_DRIVER, id), "speed", d.speed);
    }
    return 1;
}

static int sys_spring(lua_State *L)
{
    const char *fn = "sys:spring";
    static const char *const known[] = {"name", "at",     "a_at", "b_at", "k",
                                        "c",    "length", "law",  "axis", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body_a, body_b, k = ..., ... }");
    lu_checkfields(L, t, fn, known, 2);
    mech_spring_def d = mech_spring_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    two_points(L, ls, t, fn, d.body_a, d.body_b, 1, d.pa, d.pb);
    lu_optnumber(L, t, fn, "length", &d.length0);
    lu_vec2(L, t, fn, "axis", d.axis);
    lcb *cb = NULL;
    if (lu_function(L, t, fn, "law")) {
        if (lu_getfield(L, t, fn, "k") != LUA_TNIL || lu_getfield(L, t, fn, "c") != LUA_TNIL)
            lu_error(L, fn, "give either 'k'/'c' or 'law', not both");
        lua_settop(L, t + 1);
        cb = new_callback(L, ls, "spring law");
        d.law = law_trampoline;
        d.ud = cb;
    } else {
        d.k = lu_number(L, t, fn, "k", 0, 1);
        d.c = lu_number(L, t, fn, "c", 0, 0);
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    int id;
    if (mech_spring_add(LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    if (cb)
        snprintf(cb->what, sizeof cb->what, "spring '%s' law",
                 mech_system_name(ls->sys, MECH_KIND_FORCE, id));
    return 1;
}

static int sys_rotational_spring(lua_State *L)
{
    const char *fn = "sys:rotational_spring";
    static const char *const known[] = {"name", "k", "c", "angle", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body_a, body_b, k = ..., ... }");
    lu_checkfields(L, t, fn, known, 2);
    mech_rot_spring_def d = mech_rot_spring_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    d.k = lu_number(L, t, fn, "k", 0, 1);
    d.c = lu_number(L, t, fn, "c", 0, 0);
    lu_optnumber(L, t, fn, "angle", &d.angle0);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    if (mech_rot_spring_add(LIVE(ls), &d, &e->id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    plaus_angle(L, "rotational spring", plaus_name(ls, MECH_KIND_FORCE, e->id), "angle", d.angle0);
    return 1;
}

static int add_load(lua_State *L, int torque)
{
    const char *fn = torque ? "sys:torque" : "sys:force";
    static const char *const known_f[] = {"name",  "at",    "body_at", "value", "amplitude",
                                          "omega", "phase", "frame",   "fn",    NULL};
    static const char *const known_t[] = {"name",  "value", "amplitude", "omega",
                                          "phase", "fn",    NULL};
    static const char *const frames[] = {"global", "body", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body, value = ..., ... }");
    lu_checkfields(L, t, fn, torque ? known_t : known_f, 1);
    mech_load_def d = mech_load_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    d.torque = torque;
    if (!torque) {
        one_point(L, ls, t, fn, d.body, d.point);
        d.body_frame = lu_option(L, t, fn, "frame", frames, 0);
        lu_vec2(L, t, fn, "value", d.value);
        lu_vec2(L, t, fn, "amplitude", d.amplitude);
    } else {
        d.value[0] = lu_number(L, t, fn, "value", 0, 0);
        d.amplitude[0] = lu_number(L, t, fn, "amplitude", 0, 0);
    }
    int has_omega = lu_optnumber(L, t, fn, "omega", &d.freq);
    d.phase = lu_number(L, t, fn, "phase", 0, 0);
    lcb *cb = NULL;
    if (lu_function(L, t, fn, "fn")) {
        cb = new_callback(L, ls, torque ? "torque function" : "force function");
        d.profile = MECH_CALLBACK;
        d.fn = torque ? torque_trampoline : load_trampoline;
        d.ud = cb;
    } else {
        int has_amp = d.amplitude[0] != 0 || d.amplitude[1] != 0;
        if (has_amp && !has_omega)
            lu_error(L, fn, "a harmonic load needs 'omega', its angular frequency [rad/s]");
        d.profile = has_amp ? MECH_HARMONIC : MECH_CONSTANT;
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    int id;
    if (mech_load_add(LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    if (cb)
        snprintf(cb->what, sizeof cb->what, "%s '%s' function", torque ? "torque" : "force",
                 mech_system_name(ls->sys, MECH_KIND_FORCE, id));
    plaus_angle(L, torque ? "torque" : "force", plaus_name(ls, MECH_KIND_FORCE, id), "phase",
                d.phase);
    return 1;
}

static int sys_force(lua_State *L)
{
    return add_load(L, 0);
}

static int sys_torque(lua_State *L)
{
    return add_load(L, 1);
}

/*
** sys:contact{ body, at | body_at, surface = { body, at | body_at, normal, speed },
**              law = mech.contact.<law>{...}, friction = mech.friction.<law>{...}, name }
*/
static int sys_contact(lua_State *L)
{
    const char *fn = "sys:contact";
    static const char *const known[] = {"name", "at",       "body_at", "surface",
                                        "law",  "friction", NULL};
    static const char *const sknown[] = {"body", "at", "body_at", "normal", "speed", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ body, at = {x, y}, surface = {...}, law = ... }");
    lu_checkfields(L, t, fn, known, 1);
    mech_contact_def d = mech_contact_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    one_point(L, ls, t, fn, d.body_a, d.point);
    if (lu_getfield(L, t, fn, "surface") != LUA_TTABLE)
        return lu_error(L, fn,
                        "field 'surface' is required: { body = ..., at = {x, y}, normal = "
                        "{nx, ny}, speed = ... }");
    int s = lua_gettop(L);
    const char *sfn = "sys:contact (surface)";
    lu_checkfields(L, s, sfn, sknown, 0);
    d.body_b = MECH_GROUND;
    if (lu_getfield(L, s, fn, "body") != LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lu_getfield(L, s, fn, "body");
        lua_rawseti(L, -2, 1);
        d.body_b =
            lsys_table_entity(L, lua_gettop(L), 1, ls, MECH_KIND_BODY, sfn, "the surface's body");
    }
    lua_settop(L, s);
    one_point(L, ls, s, sfn, d.body_b, d.surface_point);
    double n[2] = {0, 1};
    lu_vec2(L, s, sfn, "normal", n);
    double pose[3];
    mech_body_initial_pose(LIVE(ls), d.body_b, pose); /* the normal is given in the world */
    double c = cos(pose[2]), sn = sin(pose[2]);
    d.normal[0] = c * n[0] + sn * n[1];
    d.normal[1] = -sn * n[0] + c * n[1];
    d.surface_speed = lu_number(L, s, sfn, "speed", 0, 0);
    lua_settop(L, t);
    lsys_read_laws(L, ls, t, fn, &d.normal_law, &d.friction);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_CONTACT, -1);
    mech_error err;
    if (mech_contact_add(LIVE(ls), &d, &e->id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    return 1;
}

static int sys_entity(lua_State *L)
{
    const char *fn = "sys:entity";
    lsys *ls = check_sys(L, 1);
    const char *name = luaL_checkstring(L, 2);
    int id;
    mech_kind kind = mech_system_find(LIVE(ls), name, &id);
    if (kind == MECH_KIND_NONE || kind == MECH_KIND_SYSTEM) return luaL_pushfail(L), 1;
    lsys_push_entity(L, 1, kind, id);
    return 1;
}

/* Finalizes (assembles) with the Lua state set for callbacks. */
static void finalize(lua_State *L, lsys *ls, const char *fn)
{
    if (ls->busy)
        lu_error(L, fn, "the system is being %s: it is not assembled yet, and cannot be now",
                 ls->busy);
    if (!mech_system_is_final(LIVE(ls))) scale_check(L, ls);
    mech_error err;
    mech_system *sys = LIVE(ls);
    ls->L = L;
    if (BUSY(ls, "assembled", mech_system_finalize(sys, &err)) != MECH_OK) {
        if (ls->cb_error[0]) lu_error(L, fn, "%s: %s", err.msg, ls->cb_error);
        lu_mech_error(L, fn, &err);
    }
    /* a joint with clearance started fast across it: the first impact is the start's */
    char note[400];
    if (mech_system_start_note(sys, note, sizeof note))
        lu_warn(L,
                "%s; mech.planar{ start = \"ideal\" } starts it with the ideal mechanism's "
                "velocities (the default when no body is given a velocity)",
                note);
}

static int sys_assemble(lua_State *L)
{
    lsys *ls = lsys_check_mutable(L, 1, "sys:assemble");
    finalize(L, ls, "sys:assemble");
    lua_settop(L, 1);
    return 1;
}

/* Makes sure that the system has an evaluation to read: outside callbacks, that of the
** assembled initial state (the runs and lyapunov leave none). */
static void need_evaluation(lua_State *L, lsys *ls, const char *fn)
{
    if (!mech_system_is_final(LIVE(ls))) finalize(L, ls, fn);
    mech_system *sys = LIVE(ls);
    if (mech_system_evaluated(sys)) return;
    if (ls->busy)
        lu_error(L, fn,
                 "the system is being %s: it has no values yet (the first are those of its "
                 "assembled initial state)",
                 ls->busy);
    mech_error err;
    ls->L = L;
    if (BUSY(ls, "evaluated", mech_system_evaluate_initial(sys, &err)) != MECH_OK) {
        if (ls->cb_error[0]) lu_error(L, fn, "%s: %s", err.msg, ls->cb_error);
        lu_mech_error(L, fn, &err);
    }
}

/* sys:value(channel): the channel's value at the current evaluation: inside callbacks
** during a run, the last one of the run; elsewhere, the assembled initial state's. */
static int sys_value(lua_State *L)
{
    const char *fn = "sys:value";
    lsys *ls = check_sys(L, 1);
    const char *name = luaL_checkstring(L, 2);
    need_evaluation(L, ls, fn);
    push_uv(L, ls);
    if (lua_getfield(L, -1, "channels") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "channels");
    }
    mech_channel *ch;
    if (lua_getfield(L, -1, name) == LUA_TUSERDATA) {
        ch = lua_touserdata(L, -1);
    } else {
        lua_pop(L, 1);
        ch = lua_newuserdatauv(L, sizeof *ch, 0);
        mech_error err;
        if (mech_channel_lookup(LIVE(ls), name, ch, &err) != MECH_OK)
            return lu_mech_error(L, fn, &err);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, name);
    }
    lua_pushnumber(L, mech_channel_value(LIVE(ls), ch));
    return 1;
}

static int sys_describe(lua_State *L)
{
    const char *fn = "sys:describe";
    lsys *ls = check_sys(L, 1);
    size_t n = mech_system_describe(ls->sys, "", NULL, 0);
    char *buf = lua_newuserdatauv(L, n + 1, 0);
    mech_system_describe(LIVE(ls), "", buf, n + 1); /* what fits, if it changed meanwhile */
    lua_pushstring(L, buf);
    return 1;
}

/* Composed in C: the text is pushed once, so no allocation (which may run a finalizer)
** comes between reading the system and using what was read. */
static int sys_tostring(lua_State *L)
{
    lsys *ls = luaL_checkudata(L, 1, LMECH_SYSTEM);
    if (ls->sys == NULL) {
        lua_pushliteral(L, "mech.planar (closed)");
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
    ADD("mech.planar: %d bod%s", nb, nb == 1 ? "y" : "ies");
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

/* ---- simulate ----------------------------------------------------------------------------- */

/* Reads method, h, rtol, atol, max_step and max_order; returns whether h was given. */
static int integ_options(lua_State *L, int t, const char *fn, mech_integ_options *io)
{
    static const char *const methods[] = {"rk4", "dopri5", "bdf", NULL};
    io->method = lu_option(L, t, fn, "method", methods, MECH_DOPRI5);
    int has_h = lu_optnumber(L, t, fn, "h", &io->h);
    if (io->method == MECH_RK4 && !has_h)
        lu_error(L, fn, "method \"rk4\" needs 'h', the fixed step [s]");
    io->rtol = lu_number(L, t, fn, "rtol", io->rtol, 0);
    io->atol = lu_number(L, t, fn, "atol", io->atol, 0);
    io->hmax = lu_number(L, t, fn, "max_step", 0, 0);
    double order = 0;
    if (lu_optnumber(L, t, fn, "max_order", &order)) {
        if (io->method != MECH_BDF)
            lu_error(L, fn, "'max_order' is for method \"bdf\" (the others have a fixed order)");
        if (!(order >= 1 && order <= 5 && order == floor(order)))
            lu_error(L, fn, "'max_order' must be an integer from 1 to 5 (got %g)", order);
        io->max_order = (int)order;
    }
    int type = lu_getfield(L, t, fn, "max_steps");
    double steps = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (type != LUA_TNIL) {
        if (type != LUA_TNUMBER || !(steps >= 1))
            lu_error(L, fn, "field 'max_steps' must be a number >= 1 (math.huge: no limit)");
        io->max_steps = steps;
    }
    return has_h;
}

/* Reads max_distance [m]: > 0, math.huge for no limit; 0 when not given (the default). */
static double max_distance_option(lua_State *L, int t, const char *fn)
{
    int type = lu_getfield(L, t, fn, "max_distance");
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (type == LUA_TNIL) return 0;
    if (type != LUA_TNUMBER || !(v > 0))
        lu_error(L, fn, "field 'max_distance' must be a number > 0 [m] (math.huge: no limit)");
    return v;
}

static void release_lyapunov(void *res)
{
    mech_lyapunov_free(res);
}

/*
** sys:lyapunov{ t, transient, every, d0, method, h, rtol, atol, max_step, max_order,
** max_distance } ->
** lambda, { t = {...}, estimate = {...} }: the largest Lyapunov exponent [1/s] and how its
** estimate converged.
*/
static int sys_lyapunov(lua_State *L)
{
    const char *fn = "sys:lyapunov";
    static const char *const known[] = {
        "t",    "transient", "every",     "d0",           "method",    "h", "rtol",
        "atol", "max_step",  "max_order", "max_distance", "max_steps", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ t = end time, every = renormalisation interval, ... }");
    lu_checkfields(L, t, fn, known, 0);
    mech_lyapunov_options o = mech_lyapunov_default_options();
    o.t_end = lu_number(L, t, fn, "t", 0, 1);
    o.transient = lu_number(L, t, fn, "transient", 0, 0);
    o.every = lu_number(L, t, fn, "every", 0, 1);
    o.d0 = lu_number(L, t, fn, "d0", o.d0, 0);
    o.max_distance = max_distance_option(L, t, fn);
    integ_options(L, t, fn, &o.integ);
    o.interrupt = host_interrupt_flag();
    /* the result's arrays are freed by this guard, whatever Lua call below raises */
    mech_lyapunov_result *res = lu_newguard(L, sizeof *res, release_lyapunov);
    mech_error err;
    need_evaluation(L, ls, fn); /* as for a run: callbacks find values from the first call */
    mech_system *sys = LIVE(ls);
    ls->L = L;
    mech_status st = BUSY(ls, "simulated", mech_lyapunov(sys, &o, res, &err));
    if (st == MECH_ERR_INTERRUPTED) host_interrupt_consume(L);
    if (st) {
        mech_lyapunov_free(res);
        if (ls->cb_error[0]) return lu_error(L, fn, "%s: %s", err.msg, ls->cb_error);
        return lu_mech_error(L, fn, &err);
    }
    lua_pushnumber(L, res->lambda);
    lua_createtable(L, 0, 2);
    lua_createtable(L, (int)res->n, 0);
    lua_createtable(L, (int)res->n, 0);
    for (long i = 0; i < res->n; i++) {
        lua_pushnumber(L, res->t[i]);
        lua_rawseti(L, -3, i + 1);
        lua_pushnumber(L, res->estimate[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -3, "estimate");
    lua_setfield(L, -2, "t");
    mech_lyapunov_free(res);
    return 2;
}

typedef struct progress {
    int enabled, shown;
} progress;

static void show_progress(void *ud, double t, double t0, double t_end, double elapsed)
{
    progress *p = ud;
    if (elapsed < 0) {
        if (p->shown) fputs("\r\033[K", stderr), fflush(stderr);
        return;
    }
    if (!p->enabled || elapsed < 1.0) return;
    double frac = (t - t0) / (t_end - t0);
    double left = frac > 0 ? elapsed * (1 - frac) / frac : 0;
    fprintf(stderr, "\rsimulating: %3.0f%%  t = %.6g of %.6g s  %.0f s left   ", 100 * frac, t,
            t_end, left);
    fflush(stderr);
    p->shown = 1;
}

/* User channels in the order of their names. */
static int by_name(const void *a, const void *b)
{
    return strcmp(((const mech_user_channel *)a)->name, ((const mech_user_channel *)b)->name);
}

/* 1 when the string at idx has no control character and no zero byte (a name that can
** head a CSV column on one line). */
static int plain_name(lua_State *L, int idx)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) return 0;
    return 1;
}

/* Builds the CSV header: program, script, user parameters. */
static void push_header(lua_State *L, int t)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "mechlua %s", mech_version());
    luaL_addvalue(&b);
    lua_pushglobaltable(L); /* read raw: no metamethod of _G runs */
    lua_pushliteral(L, "arg");
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_istable(L, -1) && lua_rawgeti(L, -1, 0) == LUA_TSTRING) {
        lua_pushfstring(L, ", script %s", lua_tostring(L, -1));
        lua_remove(L, -2);
        lua_remove(L, -2);
        luaL_addvalue(&b);
    } else {
        lua_pop(L, lua_istable(L, -1) ? 2 : 1);
    }
    luaL_addchar(&b, '\n');
    if (lu_getfield(L, t, "sys:simulate", "params") != LUA_TNIL) {
        if (!lua_istable(L, -1)) lu_error(L, "sys:simulate", "field 'params' must be a table");
        lu_push_params(L, lua_gettop(L));
        lua_remove(L, -2);
        luaL_addvalue(&b);
        lua_pushnil(L);
    }
    lua_pop(L, 1);
    luaL_pushresult(&b);
}

static int sys_simulate(lua_State *L)
{
    const char *fn = "sys:simulate";
    static const char *const known[] = {"t",      "report",       "method",    "h",
                                        "rtol",   "atol",         "max_step",  "max_order",
                                        "record", "events",       "quiet",     "on_error",
                                        "params", "max_distance", "max_steps", NULL};
    static const char *const on_error[] = {"error", "return", NULL};
    static const char *const actions[] = {"record", "stop", NULL};
    static const char *const ev_known[] = {"name", "channel",   "value",  "period",
                                           "fn",   "direction", "action", NULL};
    lsys *ls = lsys_check_mutable(L, 1, fn);
    int t = lu_checktable(L, 2, fn, "{ t = end time, report = ..., ... }");
    lu_checkfields(L, t, fn, known, 0);
    lua_settop(L, 2);

    mech_sim_options o = mech_sim_default_options();
    o.t_end = lu_number(L, t, fn, "t", 0, 1);
    int has_h = integ_options(L, t, fn, &o.integ);
    o.report = lu_number(L, t, fn, "report", has_h ? o.integ.h : o.t_end / 1000, 0);
    o.max_distance = max_distance_option(L, t, fn);
    int quiet = lu_bool(L, t, fn, "quiet", 0);
    int return_on_error = lu_option(L, t, fn, "on_error", on_error, 0);

    /* the rest of the stack: 3 = record names, 4 = user channel defs, 5 = events */
    lua_newtable(L); /* 3 */
    lua_newtable(L); /* 4 */
    int nnames = 0, nuser = 0;
    if (lu_getfield(L, t, fn, "record") != LUA_TNIL) {
        if (!lua_istable(L, -1))
            return lu_error(L, fn, "field 'record' must be a list of channel names");
        int rec = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, rec);
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, rec, i) != LUA_TSTRING)
                return lu_error(L, fn, "record[%lld] must be a channel name like \"slider.x\"",
                                (long long)i);
            lua_rawseti(L, 3, ++nnames);
        }
        lua_pushnil(L);
        while (lua_next(L, rec)) {
            if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n) {
                lua_pop(L, 1);
                continue;
            }
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TFUNCTION)
                return lu_error(L, fn, "record: named entries must be name = function(t, sys)");
            if (!plain_name(L, -2))
                return lu_error(L, fn,
                                "record: the name of a channel function must not contain "
                                "control characters or zero bytes");
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, 4);
            nuser++;
        }
    }
    lua_pop(L, 1);
    const char **names = lua_newuserdatauv(L, sizeof(char *) * (size_t)(nnames + 1), 0);
    for (int i = 0; i < nnames; i++) {
        lua_rawgeti(L, 3, i + 1);
        names[i] = lua_tostring(L, -1); /* anchored in table 3 */
        lua_pop(L, 1);
    }
    mech_user_channel *uch = lua_newuserdatauv(L, sizeof *uch * (size_t)(nuser + 1), 0);
    {
        /* sorted names: the column order does not depend on hashing (the names are keys of
        ** table 4, which keeps them alive) */
        int k = 0;
        lua_pushnil(L);
        while (lua_next(L, 4)) {
            lua_pop(L, 1);
            uch[k++].name = lua_tostring(L, -1);
        }
        qsort(uch, (size_t)nuser, sizeof *uch, by_name);
        for (int i = 0; i < nuser; i++) {
            lua_pushstring(L, uch[i].name);
            lua_rawget(L, 4);
            char what[96];
            snprintf(what, sizeof what, "channel '%s' function", uch[i].name);
            lcb *cb = new_callback(L, ls, what);
            uch[i].fn = system_fn_trampoline;
            uch[i].ud = cb;
            uch[i].unit = "";
        }
    }
    o.channels = names;
    o.nchannels = nnames;
    o.user_channels = uch;
    o.nuser_channels = nuser;

    int nev = 0;
    mech_event_def *evs = NULL;
    if (lu_getfield(L, t, fn, "events") != LUA_TNIL) {
        if (!lua_istable(L, -1)) return lu_error(L, fn, "field 'events' must be a list of tables");
        int et = lua_gettop(L);
        nev = (int)lua_rawlen(L, et);
        evs = lua_newuserdatauv(L, sizeof *evs * (size_t)(nev + 1), 0);
        memset(evs, 0, sizeof *evs * (size_t)(nev + 1));
        for (int i = 0; i < nev; i++) {
            char efn[64];
            snprintf(efn, sizeof efn, "sys:simulate: events[%d]", i + 1);
            lua_rawgeti(L, et, i + 1);
            int e = lu_checktable(L, -1, efn, "{ channel = ..., value = ... } or { fn = ... }");
            lu_checkfields(L, e, efn, ev_known, 0);
            mech_event_def *d = &evs[i];
            d->name = lu_string(L, e, efn, "name", NULL);
            d->channel = lu_string(L, e, efn, "channel", NULL);
            d->level = lu_number(L, e, efn, "value", 0, 0);
            d->period = lu_number(L, e, efn, "period", 0, 0);
            double dir = lu_number(L, e, efn, "direction", 0, 0);
            if (!(dir == -1 || dir == 0 || dir == 1))
                lu_error(L, efn, "field 'direction' must be -1, 0 or 1 (got %g)", dir);
            d->direction = (int)dir;
            if (lu_function(L, e, efn, "fn")) {
                if (d->channel) lu_error(L, efn, "give either 'channel' or 'fn', not both");
                char what[96];
                snprintf(what, sizeof what, "event '%s' function", d->name ? d->name : "?");
                lcb *cb = new_callback(L, ls, what);
                d->fn = system_fn_trampoline;
                d->fn_ud = cb;
            } else if (d->channel == NULL) {
                lu_error(L, efn, "give 'channel' (and 'value') or 'fn'");
            }
            int atype = lu_getfield(L, e, efn, "action");
            lua_pop(L, 1);
            if (atype == LUA_TFUNCTION && lu_function(L, e, efn, "action")) {
                char what[96];
                snprintf(what, sizeof what, "event '%s' action", d->name ? d->name : "?");
                lcb *cb = new_callback(L, ls, what);
                d->action = MECH_EVENT_CALL;
                d->on_event = event_action_trampoline;
                d->on_event_ud = cb;
            } else {
                d->action = lu_option(L, e, efn, "action", actions, MECH_EVENT_RECORD);
            }
            lua_pop(L, 1);
        }
    }
    o.events = evs;
    o.nevents = nev;

    progress prog = {0, 0};
    lua_pushliteral(L, "quiet");
    lua_rawget(L, lua_upvalueindex(1));
    prog.enabled = !quiet && !lua_toboolean(L, -1) && isatty(STDERR_FILENO);
    lua_pop(L, 1);
    o.progress = show_progress;
    o.progress_ud = &prog;
    o.interrupt = host_interrupt_flag();

    push_header(L, t);
    /* the run's owner comes first: once libmech returns the run, an error raised by any
    ** Lua call (running out of memory) leaves it to the userdata's __gc, not leaked */
    mech_run **run = lmech_new_run(L, -1, 1);

    /* the parameters' tostring may have run Lua code; the run starts from an evaluated
    ** initial state, so that callbacks find values to read from the first call on */
    need_evaluation(L, ls, fn);
    mech_system *sys = LIVE(ls);
    mech_error err;
    ls->L = L;
    mech_status st = BUSY(ls, "simulated", mech_simulate(sys, &o, run, &err));
    if (st == MECH_ERR_INTERRUPTED) host_interrupt_consume(L); /* reported below, once */
    if (*run == NULL) {
        if (ls->cb_error[0]) return lu_error(L, fn, "%s: %s", err.msg, ls->cb_error);
        return lu_mech_error(L, fn, &err);
    }
    push_uv(L, ls);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "last_run");
    lua_pop(L, 1);
    if (st != MECH_OK) {
        char msg[MECH_ERROR_MSG_SIZE + 1100];
        if (ls->cb_error[0])
            snprintf(msg, sizeof msg, "%s: %s", err.msg, ls->cb_error);
        else
            snprintf(msg, sizeof msg, "%s", err.msg);
        if (return_on_error) {
            lua_pushstring(L, msg);
            return 2;
        }
        return lu_error(L, fn, "%s (the results so far are in sys.last_run)", msg);
    }
    return 1;
}

static int sys_index(lua_State *L)
{
    const char *key = luaL_checkstring(L, 2); /* first: turning a number into text allocates */
    lsys *ls = check_sys(L, 1);
    if (strcmp(key, "ground") == 0) {
        lsys_push_entity(L, 1, MECH_KIND_BODY, MECH_GROUND);
        return 1;
    }
    if (strcmp(key, "dof") == 0) {
        lua_pushinteger(L, mech_system_dof(ls->sys));
        return 1;
    }
    if (strcmp(key, "last_run") == 0) {
        push_uv(L, ls);
        lua_getfield(L, -1, "last_run");
        return 1;
    }
    luaL_getmetatable(L, LMECH_SYSTEM);
    lua_getfield(L, -1, "__methods");
    lua_getfield(L, -1, key);
    return 1;
}

/* ---- entities -------------------------------------------------------------------------------- */

/* Whether entity e takes points (body:point): bodies, the ground and the nodes of flexible
** bodies (which are bodies). */
static int has_points(const lentity *e)
{
    return e->kind == MECH_KIND_BODY;
}

static int ent_point(lua_State *L)
{
    const char *fn = "body:point";
    static const char *const known[] = {"name", "at", "body_at", NULL};
    lsys *ls;
    lentity *e = lsys_check_entity(L, 1, &ls);
    if (e->kind != MECH_KIND_BODY) return lu_error(L, fn, "only bodies have points");
    if (ls->busy) return lu_error(L, fn, "the system cannot change while it is %s", ls->busy);
    int t = lu_checktable(L, 2, fn, "{ name = ..., at = {x, y} }");
    lu_checkfields(L, t, fn, known, 0);
    lua_getiuservalue(L, 1, 1);
    int sysidx = lua_gettop(L);
    return point_common(L, ls, sysidx, t, e->id, fn);
}

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
    if (strcmp(key, "point") == 0 && has_points(e)) {
        lua_pushcfunction(L, ent_point);
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
    if (has_points(e)) {
        lua_pushcfunction(L, ent_point);
        lua_setfield(L, -2, "point");
    }
    const lsys_kind_binding *b = kind_binding(L, e->kind);
    if (b && b->fields) lu_setflags(L, b->fields);
    if (b && b->methods) luaL_setfuncs(L, b->methods, 0);
    return 1;
}

/* ---- registration ---------------------------------------------------------------------------- */

static const luaL_Reg sys_methods[] = {
    {"body", sys_body},         {"point", sys_point},
    {"revolute", sys_revolute}, {"prismatic", sys_prismatic},
    {"fixed", sys_fixed},       {"drive", sys_drive},
    {"spring", sys_spring},     {"rotational_spring", sys_rotational_spring},
    {"force", sys_force},       {"torque", sys_torque},
    {"contact", sys_contact},   {"entity", sys_entity},
    {"assemble", sys_assemble}, {"value", sys_value},
    {"describe", sys_describe}, {"simulate", sys_simulate},
    {"lyapunov", sys_lyapunov}, {NULL, NULL},
};

void lsys_add_methods(lua_State *L, int mech, const luaL_Reg methods[])
{
    mech = lua_absindex(L, mech);
    luaL_getmetatable(L, LMECH_SYSTEM);
    lua_getfield(L, -1, "__methods");
    lua_pushvalue(L, mech); /* upvalue of each method: the mech table (for mech.quiet) */
    luaL_setfuncs(L, methods, 1);
    lua_getfield(L, -2, "__complete"); /* what Tab completes after "sys." or "sys:" */
    for (const luaL_Reg *m = methods; m->name; m++) {
        lua_getfield(L, -2, m->name);
        lua_setfield(L, -2, m->name);
    }
    lua_pop(L, 3);
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
    static const char *const sys_fields[] = {"ground", "dof", "last_run", NULL};
    static const luaL_Reg sys_meta[] = {{"__index", sys_index},
                                        {"__gc", sys_gc},
                                        {"__close", sys_gc},
                                        {"__tostring", sys_tostring},
                                        {NULL, NULL}};
    static const luaL_Reg ent_meta[] = {{"__index", ent_index},
                                        {"__tostring", ent_tostring},
                                        {"__eq", ent_eq},
                                        {"__complete", ent_complete},
                                        {NULL, NULL}};
    int mech = lua_gettop(L);
    luaL_newmetatable(L, LMECH_SYSTEM);
    lua_newtable(L);
    lua_setfield(L, -2, "__methods"); /* filled by lsys_add_methods */
    lua_newtable(L);
    lu_setflags(L, sys_fields);
    lua_setfield(L, -2, "__complete"); /* the fields, and the methods as they are added */
    luaL_setfuncs(L, sys_meta, 0);
    lua_pop(L, 1);

    lua_newtable(L); /* the kinds' bindings */
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, KINDS_REGISTRY);
    luaL_newmetatable(L, LMECH_ENTITY);
    lua_insert(L, -2);
    luaL_setfuncs(L, ent_meta, 1); /* their upvalue: the kinds table */
    lua_newtable(L);
    lua_pushcfunction(L, ent_point);
    lua_setfield(L, -2, "point");
    lua_setfield(L, -2, "__methods"); /* and the kinds' methods, as they are added */
    lua_pop(L, 1);

    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, UV_REGISTRY);

    lsys_add_methods(L, mech, sys_methods);

    lua_pushcfunction(L, l_planar);
    lua_setfield(L, mech, "planar");
}

/* SPDX-License-Identifier: MIT */
/*
** Running a system: sys:assemble, sys:value (the assembled initial state's values, or the
** current ones inside callbacks), sys:simulate and sys:lyapunov.  libmech runs with the
** system busy (lsystem.h: LSYS_BUSY), calling back into Lua through lsystem.c's trampolines;
** the error of a callback that failed is appended to libmech's.
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
#include "lmech.h"
#include "lsys_build.h"
#include "lsystem.h"
#include "lutil.h"

/* Finalizes (assembles) with the Lua state set for callbacks. */
static void finalize(lua_State *L, lsys *ls, const char *fn)
{
    if (ls->busy)
        lu_error(L, fn, "the system is being %s: it is not assembled yet, and cannot be now",
                 ls->busy);
    if (!mech_system_is_final(LSYS_LIVE(ls))) lsys_scale_check(L, ls);
    mech_error err;
    mech_system *sys = LSYS_LIVE(ls);
    ls->L = L;
    if (LSYS_BUSY(ls, "assembled", mech_system_finalize(sys, &err)) != MECH_OK) {
        if (ls->cb_error[0]) lu_error(L, fn, "%s: %s", err.msg, ls->cb_error);
        lu_mech_error(L, fn, &err);
    }
    /* a joint with clearance started fast across it: the first impact is the start's */
    char note[400];
    if (mech_system_start_note(sys, note, sizeof note) && ls->dim == 2)
        lu_warn(L,
                "%s; mech.planar{ start = \"ideal\" } starts it with the ideal mechanism's "
                "velocities (the default when no body is given a velocity)",
                note);
    else if (note[0] && ls->dim == 3)
        lu_warn(L,
                "%s; the bodies given the ideal mechanism's velocities (the journal moving with "
                "its bearing) start without it",
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
    if (!mech_system_is_final(LSYS_LIVE(ls))) finalize(L, ls, fn);
    mech_system *sys = LSYS_LIVE(ls);
    if (mech_system_evaluated(sys)) return;
    if (ls->busy)
        lu_error(L, fn,
                 "the system is being %s: it has no values yet (the first are those of its "
                 "assembled initial state)",
                 ls->busy);
    mech_error err;
    ls->L = L;
    if (LSYS_BUSY(ls, "evaluated", mech_system_evaluate_initial(sys, &err)) != MECH_OK) {
        if (ls->cb_error[0]) lu_error(L, fn, "%s: %s", err.msg, ls->cb_error);
        lu_mech_error(L, fn, &err);
    }
}

/* sys:value(channel): the channel's value at the current evaluation: inside callbacks
** during a run, the last one of the run; elsewhere, the assembled initial state's. */
static int sys_value(lua_State *L)
{
    const char *fn = "sys:value";
    lsys *ls = lsys_check(L, 1);
    const char *name = luaL_checkstring(L, 2);
    need_evaluation(L, ls, fn);
    lsys_push_uv(L, ls);
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
        if (mech_channel_lookup(LSYS_LIVE(ls), name, ch, &err) != MECH_OK)
            return lu_mech_error(L, fn, &err);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, name);
    }
    lua_pushnumber(L, mech_channel_value(LSYS_LIVE(ls), ch));
    return 1;
}

/* ---- simulate ----------------------------------------------------------------------------- */

/* Reads method, h, rtol, atol, max_step, max_order, max_steps, newton and jacobian (*columns:
** "columns" asked); returns whether h was given. */
static int integ_options(lua_State *L, int t, const char *fn, mech_integ_options *io, int *columns)
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
    static const char *const newtons[] = {"auto", "dense", "sparse", NULL};
    static const char *const jacobians[] = {"auto", "columns", NULL};
    int newton = lu_option(L, t, fn, "newton", newtons, -1);
    int jacobian = lu_option(L, t, fn, "jacobian", jacobians, -1);
    if ((newton >= 0 || jacobian >= 0) && io->method != MECH_BDF)
        lu_error(L, fn, "'%s' is for method \"bdf\" (the others solve no Newton systems)",
                 newton >= 0 ? "newton" : "jacobian");
    if (newton >= 0) io->newton = (mech_newton)newton;
    *columns = jacobian == 1;
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
** max_distance, max_steps, newton, jacobian } ->
** lambda, { t = {...}, estimate = {...} }: the largest Lyapunov exponent [1/s] and how its
** estimate converged.
*/
static int sys_lyapunov(lua_State *L)
{
    const char *fn = "sys:lyapunov";
    static const char *const known[] = {
        "t",        "transient", "every",        "d0",        "method", "h",        "rtol", "atol",
        "max_step", "max_order", "max_distance", "max_steps", "newton", "jacobian", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ t = end time, every = renormalisation interval, ... }",
                                known, 0, &t);
    mech_lyapunov_options o = mech_lyapunov_default_options();
    o.t_end = lu_number(L, t, fn, "t", 0, 1);
    o.transient = lu_number(L, t, fn, "transient", 0, 0);
    o.every = lu_number(L, t, fn, "every", 0, 1);
    o.d0 = lu_number(L, t, fn, "d0", o.d0, 0);
    o.max_distance = max_distance_option(L, t, fn);
    integ_options(L, t, fn, &o.integ, &o.jac_columns);
    o.interrupt = host_interrupt_flag();
    /* the result's arrays are freed by this guard, whatever Lua call below raises */
    mech_lyapunov_result *res = lu_newguard(L, sizeof *res, release_lyapunov);
    mech_error err;
    need_evaluation(L, ls, fn); /* as for a run: callbacks find values from the first call */
    mech_system *sys = LSYS_LIVE(ls);
    ls->L = L;
    mech_status st = LSYS_BUSY(ls, "simulated", mech_lyapunov(sys, &o, res, &err));
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

/* Reads project: true, false or "auto" (the default). */
static mech_project_mode project_option(lua_State *L, int t, const char *fn)
{
    int type = lu_getfield(L, t, fn, "project");
    mech_project_mode mode = MECH_PROJECT_AUTO;
    if (type == LUA_TBOOLEAN)
        mode = lua_toboolean(L, -1) ? MECH_PROJECT_ON : MECH_PROJECT_OFF;
    else if (type == LUA_TSTRING && strcmp(lua_tostring(L, -1), "auto") == 0)
        mode = MECH_PROJECT_AUTO;
    else if (type == LUA_TSTRING)
        lu_error(L, fn, "field 'project' must be true, false or \"auto\" (got \"%s\")",
                 lua_tostring(L, -1));
    else if (type != LUA_TNIL)
        lu_error(L, fn, "field 'project' must be true, false or \"auto\" (got %s)",
                 luaL_typename(L, -1));
    lua_pop(L, 1);
    return mode;
}

/* What sys:simulate was asked (the fields that are not channels or events). */
typedef struct sim_request {
    mech_sim_options o;
    int quiet;           /* no progress line */
    int return_on_error; /* on_error = "return": a failed run returns run, message */
} sim_request;

/* Reads the options of table t (the end time, the integrator, report, max_distance, quiet,
** on_error) into rq. */
static void read_options(lua_State *L, int t, const char *fn, sim_request *rq)
{
    static const char *const on_error[] = {"error", "return", NULL};
    rq->o = mech_sim_default_options();
    rq->o.t_end = lu_number(L, t, fn, "t", 0, 1);
    int has_h = integ_options(L, t, fn, &rq->o.integ, &rq->o.jac_columns);
    rq->o.report = lu_number(L, t, fn, "report", has_h ? rq->o.integ.h : rq->o.t_end / 1000, 0);
    rq->o.max_distance = max_distance_option(L, t, fn);
    rq->o.project = project_option(L, t, fn);
    if (lu_getfield(L, t, fn, "motion") != LUA_TNIL) {
        double dt = lua_tonumber(L, -1);
        if (!lua_isnumber(L, -1) || !(isfinite(dt) && dt > 0))
            lu_error(L, fn, "field 'motion' must be a time step > 0 [s] (got %s)",
                     luaL_tolstring(L, -1, NULL));
        rq->o.motion = dt;
    }
    lua_pop(L, 1);
    rq->quiet = lu_bool(L, t, fn, "quiet", 0);
    rq->return_on_error = lu_option(L, t, fn, "on_error", on_error, 0);
}

/*
** Reads field `record` of table t (at index 2, the top of the stack): the names of the
** channels to record and the named channel functions, into o.  Pushes what keeps them
** alive while the run lasts: at 3 the table of names, at 4 the table of channel functions
** (by name), then the arrays of names and of user channels.
*/
static void read_record(lua_State *L, lsys *ls, int t, const char *fn, mech_sim_options *o)
{
    lua_newtable(L); /* 3 */
    lua_newtable(L); /* 4 */
    int nnames = 0, nuser = 0;
    if (lu_getfield(L, t, fn, "record") != LUA_TNIL) {
        if (!lua_istable(L, -1)) lu_error(L, fn, "field 'record' must be a list of channel names");
        int rec = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, rec);
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, rec, i) != LUA_TSTRING)
                lu_error(L, fn, "record[%lld] must be a channel name like \"slider.x\"",
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
                lu_error(L, fn, "record: named entries must be name = function(t, sys)");
            if (!plain_name(L, -2))
                lu_error(L, fn,
                         "record: the name of a channel function must not contain control "
                         "characters or zero bytes");
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
        lcb *cb = lsys_new_callback(L, ls, what);
        uch[i].fn = lsys_system_fn_trampoline;
        uch[i].ud = cb;
        uch[i].unit = "";
    }
    o->channels = names;
    o->nchannels = nnames;
    o->user_channels = uch;
    o->nuser_channels = nuser;
}

/*
** Reads field `events` of table t into o; pushes, when it is given, the list and the array
** of event definitions (which the run uses).
*/
static void read_events(lua_State *L, lsys *ls, int t, const char *fn, mech_sim_options *o)
{
    static const char *const actions[] = {"record", "stop", NULL};
    static const char *const ev_known[] = {"name", "channel",   "value",  "period",
                                           "fn",   "direction", "action", NULL};
    int nev = 0;
    mech_event_def *evs = NULL;
    if (lu_getfield(L, t, fn, "events") != LUA_TNIL) {
        if (!lua_istable(L, -1)) lu_error(L, fn, "field 'events' must be a list of tables");
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
                lcb *cb = lsys_new_callback(L, ls, what);
                d->fn = lsys_system_fn_trampoline;
                d->fn_ud = cb;
            } else if (d->channel == NULL) {
                lu_error(L, efn, "give 'channel' (and 'value') or 'fn'");
            }
            int atype = lu_getfield(L, e, efn, "action");
            lua_pop(L, 1);
            if (atype == LUA_TFUNCTION && lu_function(L, e, efn, "action")) {
                char what[96];
                snprintf(what, sizeof what, "event '%s' action", d->name ? d->name : "?");
                lcb *cb = lsys_new_callback(L, ls, what);
                d->action = MECH_EVENT_CALL;
                d->on_event = lsys_event_action_trampoline;
                d->on_event_ud = cb;
            } else {
                d->action = lu_option(L, e, efn, "action", actions, MECH_EVENT_RECORD);
            }
            lua_pop(L, 1);
        }
    }
    o->events = evs;
    o->nevents = nev;
}

/*
** Builds the recording: the progress line (prog, shown unless quiet or mech.quiet, the
** upvalue of sys:simulate, and only on a terminal), the interrupt flag, and the run's owner
** with its CSV header (pushed; returns where the run goes).  The owner comes first: once
** libmech returns the run, an error raised by any Lua call (running out of memory) leaves
** it to the userdata's __gc, not leaked.
*/
static mech_run **new_recording(lua_State *L, int t, sim_request *rq, progress *prog)
{
    lua_pushliteral(L, "quiet");
    lua_rawget(L, lua_upvalueindex(1));
    prog->enabled = !rq->quiet && !lua_toboolean(L, -1) && isatty(STDERR_FILENO);
    lua_pop(L, 1);
    rq->o.progress = show_progress;
    rq->o.progress_ud = prog;
    rq->o.interrupt = host_interrupt_flag();
    push_header(L, t);
    return lmech_new_run(L, -1, 1, rq->o.motion > 0); /* its states need the system */
}

/*
** Runs the simulation into *run, with the system busy.  The parameters' tostring may have
** run Lua code; the run starts from an evaluated initial state, so that callbacks find
** values to read from the first call on.
*/
static mech_status run_simulation(lua_State *L, lsys *ls, const char *fn, const mech_sim_options *o,
                                  mech_run **run, mech_error *err)
{
    need_evaluation(L, ls, fn);
    mech_system *sys = LSYS_LIVE(ls);
    ls->L = L;
    mech_status st = LSYS_BUSY(ls, "simulated", mech_simulate(sys, o, run, err));
    if (st == MECH_ERR_INTERRUPTED) host_interrupt_consume(L); /* reported below, once */
    return st;
}

/*
** Hands back the run on top of the stack (kept as sys.last_run): returns it; a run that
** failed raises its message, or with on_error = "return" returns it and the message.  No
** run at all (a failure before the first step) raises.
*/
static int hand_back(lua_State *L, lsys *ls, const char *fn, const sim_request *rq,
                     const mech_run *run, mech_status st, const mech_error *err)
{
    if (run == NULL) {
        if (ls->cb_error[0]) return lu_error(L, fn, "%s: %s", err->msg, ls->cb_error);
        return lu_mech_error(L, fn, err);
    }
    lsys_push_uv(L, ls);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "last_run");
    lua_pop(L, 1);
    if (st != MECH_OK) {
        char msg[MECH_ERROR_MSG_SIZE + 1100];
        if (ls->cb_error[0])
            snprintf(msg, sizeof msg, "%s: %s", err->msg, ls->cb_error);
        else
            snprintf(msg, sizeof msg, "%s", err->msg);
        if (rq->return_on_error) {
            lua_pushstring(L, msg);
            return 2;
        }
        return lu_error(L, fn, "%s (the results so far are in sys.last_run)", msg);
    }
    return 1;
}

/* sys:simulate{ t, report, method, ..., record, events, quiet, on_error, params } -> run[, msg] */
static int sys_simulate(lua_State *L)
{
    const char *fn = "sys:simulate";
    static const char *const known[] = {
        "t",         "report",  "method", "h",        "rtol",     "atol",   "max_step",
        "max_order", "record",  "events", "quiet",    "on_error", "params", "max_distance",
        "max_steps", "project", "newton", "jacobian", "motion",   NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ t = end time, report = ..., ... }", known, 0, &t);
    lua_settop(L, 2);
    sim_request rq;
    read_options(L, t, fn, &rq);
    read_record(L, ls, t, fn, &rq.o);
    read_events(L, ls, t, fn, &rq.o);
    progress prog = {0, 0};
    mech_run **out = new_recording(L, t, &rq, &prog);
    mech_error err;
    mech_status st = run_simulation(L, ls, fn, &rq.o, out, &err);
    return hand_back(L, ls, fn, &rq, *out, st, &err);
}

void lmech_open_sys_run(lua_State *L)
{
    static const luaL_Reg sys_methods[] = {{"assemble", sys_assemble},
                                           {"value", sys_value},
                                           {"simulate", sys_simulate},
                                           {"lyapunov", sys_lyapunov},
                                           {NULL, NULL}};
    lsys_add_methods(L, lua_gettop(L), 0, sys_methods);
}

/* SPDX-License-Identifier: MIT */
/*
** Runs and columns.  A run userdata owns a mech_run (the recorded results); a column is
** a view of one recorded channel (or of time) that keeps its run alive, so that plots
** and analysis read the C arrays without copying them into Lua tables.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "host.h"
#include "lmat.h"
#include "lmech.h"
#include "lsystem.h"
#include "lutil.h"

typedef struct lrun {
    mech_run *run;
} lrun;

typedef struct lcolumn {
    int index; /* channel index, -1 for time */
} lcolumn;

static const char *const status_names[] = {"complete", "stopped", "failed", "interrupted"};

mech_run *lmech_check_run(lua_State *L, int arg)
{
    lrun *r = luaL_checkudata(L, arg, LMECH_RUN);
    if (r->run == NULL) luaL_argerror(L, arg, "run was freed");
    return r->run;
}

mech_run **lmech_new_run(lua_State *L, int header, int sys, int keep)
{
    header = lua_absindex(L, header);
    if (sys) sys = lua_absindex(L, sys);
    lrun *r = lua_newuserdatauv(L, sizeof *r, 2);
    r->run = NULL;
    luaL_setmetatable(L, LMECH_RUN);
    lua_pushvalue(L, header);
    lua_setiuservalue(L, -2, 1);
    if (sys) { /* the system, weakly (the run does not keep it alive) unless keep */
        lua_createtable(L, 1, 0);
        if (luaL_newmetatable(L, "mech.weak")) {
            lua_pushliteral(L, "v");
            lua_setfield(L, -2, "__mode");
        }
        if (keep)
            lua_pop(L, 1);
        else
            lua_setmetatable(L, -2);
        lua_pushvalue(L, sys);
        lua_rawseti(L, -2, 1);
        lua_setiuservalue(L, -2, 2);
    }
    return &r->run;
}

static int run_gc(lua_State *L)
{
    lrun *r = luaL_checkudata(L, 1, LMECH_RUN);
    mech_run_free(r->run);
    r->run = NULL;
    return 0;
}

/* Pushes a column of the run at index runidx. */
static void push_column(lua_State *L, int runidx, int index)
{
    runidx = lua_absindex(L, runidx);
    lcolumn *c = lua_newuserdatauv(L, sizeof *c, 1);
    c->index = index;
    lua_pushvalue(L, runidx);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, LMECH_COLUMN);
}

static mech_run *column_run(lua_State *L, int idx, lcolumn **col)
{
    lcolumn *c = luaL_checkudata(L, idx, LMECH_COLUMN);
    lua_getiuservalue(L, idx, 1);
    lrun *r = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (r == NULL || r->run == NULL) luaL_argerror(L, idx, "its run was freed");
    if (col) *col = c;
    return r->run;
}

const double *lmech_to_column(lua_State *L, int idx, long *n, const char **name, const char **unit)
{
    lcolumn *c = luaL_testudata(L, idx, LMECH_COLUMN);
    if (c == NULL) return NULL;
    lua_getiuservalue(L, idx, 1);
    lrun *r = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (r == NULL || r->run == NULL) return NULL;
    if (n) *n = mech_run_rows(r->run);
    if (name) *name = c->index < 0 ? "t" : mech_run_channel_name(r->run, c->index);
    if (unit) *unit = c->index < 0 ? "s" : mech_run_channel_unit(r->run, c->index);
    return c->index < 0 ? mech_run_time(r->run) : mech_run_column(r->run, c->index);
}

static const double *column_data(lua_State *L, int idx, long *n, const char **name,
                                 const char **unit)
{
    column_run(L, idx, NULL);
    return lmech_to_column(L, idx, n, name, unit);
}

/* ---- run ---------------------------------------------------------------------------- */

#define LISTED_MAX 20 /* recorded channels a message lists */

/*
** Raises: channel `name` was not recorded in the run at index 1, whose channels the message
** lists.  When the run's system is still there and `name` has the form of a model channel
** ("entity.quantity"), it says whether the model has it, and then how to record it; if not,
** why (libmech's lookup message).
*/
static int not_recorded(lua_State *L, mech_run *run, const char *fn, const char *name)
{
    char why[MECH_ERROR_MSG_SIZE] = "";
    int known = -1; /* 1: a channel of the model, 0: not one, -1: the system is gone */
    if (lua_getiuservalue(L, 1, 2) == LUA_TTABLE && strchr(name, '.') != NULL) {
        lua_rawgeti(L, -1, 1);
        lsys *ls = luaL_testudata(L, -1, LMECH_SYSTEM);
        if (ls != NULL && ls->sys != NULL) {
            mech_channel ch;
            mech_error err;
            known = mech_channel_lookup(ls->sys, name, &ch, &err) == MECH_OK;
            if (!known) { /* without the lookup's own "channel '<name>': " */
                const char *m = err.msg;
                size_t len = strlen(name);
                if (strncmp(m, "channel '", 9) == 0 && strncmp(m + 9, name, len) == 0 &&
                    strncmp(m + 9 + len, "': ", 3) == 0)
                    m += 9 + len + 3;
                snprintf(why, sizeof why, "%s", m);
            }
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int n = mech_run_nchannels(run);
    luaL_addstring(&b, "t");
    for (int k = 0; k < n && k < LISTED_MAX; k++) {
        luaL_addstring(&b, ", ");
        luaL_addstring(&b, mech_run_channel_name(run, k));
    }
    if (n > LISTED_MAX) {
        char more[80];
        snprintf(more, sizeof more, ", ... (%d in all: run.channels)", n + 1);
        luaL_addstring(&b, more);
    }
    luaL_pushresult(&b);
    const char *recorded = lua_tostring(L, -1);
    if (known == 1)
        return luaL_error(L,
                          "%s: channel '%s' was not recorded (recorded: %s); record it with "
                          "sys:simulate{ ..., record = { \"%s\", ... } }",
                          fn, name, recorded, name);
    if (known == 0)
        return luaL_error(L, "%s: no channel '%s' in this run (recorded: %s), nor in the model: %s",
                          fn, name, recorded, why);
    return luaL_error(L, "%s: channel '%s' was not recorded (recorded: %s)", fn, name, recorded);
}

static int run_column(lua_State *L)
{
    mech_run *run = lmech_check_run(L, 1);
    const char *name = luaL_checkstring(L, 2);
    if (strcmp(name, "t") == 0) {
        push_column(L, 1, -1);
        return 1;
    }
    int i = mech_run_channel_index(run, name);
    if (i < 0) return not_recorded(L, run, "run:column", name);
    push_column(L, 1, i);
    return 1;
}

/* run:state(k) -> t, {y}: the k-th state kept on the motion grid (sys:simulate{ motion }). */
static int run_state(lua_State *L)
{
    const char *fn = "run:state";
    mech_run *run = lmech_check_run(L, 1);
    long n = mech_run_motion_rows(run);
    if (n == 0)
        return lu_error(L, fn, "the run kept no states (give sys:simulate a 'motion' step)");
    if (!lua_isinteger(L, 2))
        return lu_error(L, fn, "argument #1 must be a state index from 1 to %ld (got %s)", n,
                        luaL_tolstring(L, 2, NULL));
    lua_Integer k = lua_tointeger(L, 2);
    if (k < 1 || k > n)
        return lu_error(L, fn, "argument #1 must be a state index from 1 to %ld (got %lld)", n,
                        (long long)k);
    double t;
    const double *y = mech_run_motion(run, (long)k - 1, &t);
    int m = mech_run_state_size(run);
    lua_pushnumber(L, t);
    lua_createtable(L, m, 0);
    for (int i = 0; i < m; i++) {
        lua_pushnumber(L, y[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 2;
}

/* The stdlib Lua module's function module.fn called with the arguments on the stack. */
static int call_stdlib(lua_State *L, const char *module, const char *fn)
{
    int n = lua_gettop(L);
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    lua_call(L, 1, 1);
    lua_getfield(L, -1, fn);
    lua_replace(L, -2);
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* run:animate{...}: stdlib/animate.lua. */
static int run_animate(lua_State *L)
{
    return call_stdlib(L, "animate", "animate");
}

/*
** run:paraview(prefix, opts): the ParaView files of the run's motion, written by the Lua
** module paraview (stdlib/paraview.lua) from run:scene; the run's CSV header (program,
** script, the user's parameters) goes along for the files' comments.
*/
static int run_paraview(lua_State *L)
{
    lmech_check_run(L, 1);
    lua_settop(L, 3);
    lua_getiuservalue(L, 1, 1); /* 4: the header made by simulate */
    return call_stdlib(L, "paraview", "write");
}

static int run_csv(lua_State *L)
{
    const char *fn = "run:csv";
    static const char *const known[] = {"columns", "params", NULL};
    mech_run *run = lmech_check_run(L, 1);
    const char *path = luaL_checkstring(L, 2);
    int opts = 0;
    if (!lua_isnoneornil(L, 3)) {
        opts = lu_checktable(L, 3, fn, "of options { columns = {...}, params = {...} }");
        lu_checkfields(L, opts, fn, known, 0);
    }
    lua_settop(L, 3);
    lua_getiuservalue(L, 1, 1); /* 4: the header made by simulate */
    int ncol = 0;
    const char **cols = NULL;
    if (opts) {
        if (lu_getfield(L, opts, fn, "params") != LUA_TNIL) {
            if (!lua_istable(L, -1)) return lu_error(L, fn, "field 'params' must be a table");
            lu_push_params(L, lua_gettop(L));
            lua_remove(L, -2); /* the params table */
            lua_concat(L, 2);  /* header .. params */
        } else {
            lua_pop(L, 1);
        }
        if (lu_getfield(L, opts, fn, "columns") != LUA_TNIL) {
            if (!lua_istable(L, -1))
                return lu_error(L, fn, "field 'columns' must be a list of names");
            int ct = lua_gettop(L);
            ncol = (int)lua_rawlen(L, ct);
            cols = lua_newuserdatauv(L, sizeof(char *) * (size_t)(ncol + 1), 0);
            for (int i = 0; i < ncol; i++) {
                if (lua_rawgeti(L, ct, i + 1) != LUA_TSTRING)
                    return lu_error(L, fn, "columns[%d] must be a channel name", i + 1);
                cols[i] = lua_tostring(L, -1);
                lua_pop(L, 1); /* anchored in the table */
            }
        }
    }
    /* the parameters' tostring is Lua code, which may have freed the run */
    run = ((lrun *)lua_touserdata(L, 1))->run;
    if (run == NULL) return lu_error(L, fn, "the run was freed while its header was made");
    mech_error err;
    host_interrupt_polled(1); /* the writer polls Ctrl-C and removes its temporary file */
    mech_status st = mech_run_write_csv(run, path, lua_tostring(L, 4), cols, cols ? ncol : 0,
                                        host_interrupt_flag(), &err);
    host_interrupt_polled(0);
    if (st == MECH_ERR_INTERRUPTED) host_interrupt_consume(L); /* reported here, once */
    char hint[600];
    if (st == MECH_ERR_IO && lu_folder_hint(path, hint, sizeof hint)[0])
        return lu_error(L, fn, "%s%s", err.msg, hint);
    if (st != MECH_OK) return lu_mech_error(L, fn, &err);
    lua_pushstring(L, path);
    return 1;
}

static void push_stats(lua_State *L, mech_run *run)
{
    mech_run_stats s = mech_run_get_stats(run);
    lua_createtable(L, 0, 16);
    lua_pushstring(L, mech_method_name(s.method));
    lua_setfield(L, -2, "method");
    lua_pushstring(L, mech_solver_name(s.solver));
    lua_setfield(L, -2, "solver");
    lua_pushinteger(L, s.integ.steps);
    lua_setfield(L, -2, "steps");
    lua_pushinteger(L, s.integ.rejected);
    lua_setfield(L, -2, "rejected");
    lua_pushinteger(L, s.integ.rhs_evals);
    lua_setfield(L, -2, "rhs_evals");
    lua_pushinteger(L, s.integ.jac_evals);
    lua_setfield(L, -2, "jac_evals");
    lua_pushinteger(L, s.integ.newton_iters);
    lua_setfield(L, -2, "newton_iters");
    lua_pushinteger(L, s.integ.newton_fails);
    lua_setfield(L, -2, "newton_fails");
    lua_pushinteger(L, s.integ.events);
    lua_setfield(L, -2, "events");
    lua_pushnumber(L, s.integ.h_last);
    lua_setfield(L, -2, "h_last");
    const mech_project_stats *p = &s.project;
    lua_createtable(L, 0, 9);
    lua_pushboolean(L, p->on);
    lua_setfield(L, -2, "on");
    lua_pushnumber(L, p->period);
    lua_setfield(L, -2, "period");
    lua_pushinteger(L, p->checks);
    lua_setfield(L, -2, "checks");
    lua_pushinteger(L, p->projections);
    lua_setfield(L, -2, "projections");
    lua_pushinteger(L, p->outputs);
    lua_setfield(L, -2, "outputs");
    lua_pushinteger(L, p->iterations);
    lua_setfield(L, -2, "iterations");
    lua_pushnumber(L, p->time);
    lua_setfield(L, -2, "time");
    lua_pushnumber(L, p->violation);
    lua_setfield(L, -2, "violation");
    lua_pushnumber(L, p->velocity);
    lua_setfield(L, -2, "velocity");
    lua_setfield(L, -2, "project");
    lua_pushstring(L, s.method == MECH_BDF ? mech_newton_name(s.integ.newton) : "none");
    lua_setfield(L, -2, "newton");
    lua_pushinteger(L, s.integ.jac_groups);
    lua_setfield(L, -2, "jacobian_groups");
    lua_pushinteger(L, s.integ.jac_linear);
    lua_setfield(L, -2, "jacobian_linear");
    lua_pushnumber(L, s.wall_time);
    lua_setfield(L, -2, "wall_time");
    lua_pushnumber(L, s.t_end);
    lua_setfield(L, -2, "t_end");
}

static void push_events(lua_State *L, mech_run *run)
{
    long n = mech_run_nevents(run);
    int nch = mech_run_nchannels(run);
    lua_createtable(L, (int)n, 0);
    for (long k = 0; k < n; k++) {
        int def;
        double t;
        const double *v;
        mech_run_event(run, k, &def, &t, &v);
        lua_createtable(L, 0, 3);
        lua_pushstring(L, mech_run_event_name(run, def));
        lua_setfield(L, -2, "name");
        lua_pushnumber(L, t);
        lua_setfield(L, -2, "t");
        lua_createtable(L, 0, nch);
        for (int i = 0; i < nch; i++) {
            lua_pushnumber(L, v[i]);
            lua_setfield(L, -2, mech_run_channel_name(run, i));
        }
        lua_setfield(L, -2, "values");
        lua_rawseti(L, -2, k + 1);
    }
}

static int run_index(lua_State *L)
{
    mech_run *run = lmech_check_run(L, 1);
    const char *key = luaL_checkstring(L, 2);
    if (strcmp(key, "t") == 0) {
        push_column(L, 1, -1);
    } else if (strcmp(key, "csv") == 0) {
        lua_pushcfunction(L, run_csv);
    } else if (strcmp(key, "mat") == 0) {
        lua_pushcfunction(L, lmat_run_mat);
    } else if (strcmp(key, "column") == 0) {
        lua_pushcfunction(L, run_column);
    } else if (strcmp(key, "channels") == 0) {
        int n = mech_run_nchannels(run);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_pushstring(L, mech_run_channel_name(run, i));
            lua_rawseti(L, -2, i + 1);
        }
        lu_names_meta(L);
    } else if (strcmp(key, "rows") == 0) {
        lua_pushinteger(L, mech_run_rows(run));
    } else if (strcmp(key, "motion") == 0) {
        lua_pushinteger(L, mech_run_motion_rows(run));
    } else if (strcmp(key, "state") == 0) {
        lua_pushcfunction(L, run_state);
    } else if (strcmp(key, "scene") == 0) {
        lua_pushcfunction(L, lmech_run_scene);
    } else if (strcmp(key, "animate") == 0) {
        lua_pushcfunction(L, run_animate);
    } else if (strcmp(key, "paraview") == 0) {
        lua_pushcfunction(L, run_paraview);
    } else if (strcmp(key, "status") == 0) {
        lua_pushstring(L, status_names[mech_run_get_status(run)]);
    } else if (strcmp(key, "ok") == 0) {
        mech_run_status s = mech_run_get_status(run);
        lua_pushboolean(L, s == MECH_RUN_COMPLETE || s == MECH_RUN_STOPPED);
    } else if (strcmp(key, "message") == 0) {
        lua_pushstring(L, mech_run_message(run));
    } else if (strcmp(key, "stats") == 0) {
        push_stats(L, run);
    } else if (strcmp(key, "events") == 0) {
        push_events(L, run);
    } else if (strcmp(key, "parameters") == 0) {
        lua_pushstring(L, mech_run_parameters(run));
    } else {
        int i = mech_run_channel_index(run, key);
        /* a name that is neither a field, a method nor a recorded channel is nil, but one of
        ** the model's "entity.quantity" names (never a field) is an error that says what
        ** was recorded, rather than a nil that fails later */
        if (i < 0 && strchr(key, '.') != NULL) return not_recorded(L, run, "run", key);
        if (i < 0) return 0;
        push_column(L, 1, i);
    }
    return 1;
}

static int run_len(lua_State *L)
{
    lua_pushinteger(L, mech_run_rows(lmech_check_run(L, 1)));
    return 1;
}

static int run_tostring(lua_State *L)
{
    lrun *r = luaL_checkudata(L, 1, LMECH_RUN);
    if (r->run == NULL) {
        lua_pushliteral(L, "run (freed)");
        return 1;
    }
    mech_run *run = r->run;
    mech_run_stats s = mech_run_get_stats(run);
    long rows = mech_run_rows(run);
    const double *t = mech_run_time(run);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "run (%s): %s, t = 0 .. %f s, %d rows x %d channels",
                    mech_method_name(s.method), status_names[mech_run_get_status(run)],
                    rows ? t[rows - 1] : 0.0, (int)rows, mech_run_nchannels(run));
    luaL_addvalue(&b);
    int n = mech_run_nchannels(run);
    for (int i = 0; i < n && i < 4; i++) {
        luaL_addstring(&b, i ? ", " : " (");
        luaL_addstring(&b, mech_run_channel_name(run, i));
    }
    if (n > 4) luaL_addstring(&b, ", ...");
    if (n > 0) luaL_addstring(&b, ")");
    char buf[200];
    snprintf(buf, sizeof buf, "; %ld steps, %ld rejected, %ld right-hand sides, %ld events, %.3g s",
             s.integ.steps, s.integ.rejected, s.integ.rhs_evals, s.integ.events, s.wall_time);
    luaL_addstring(&b, buf);
    luaL_pushresult(&b);
    return 1;
}

/* ---- column ---------------------------------------------------------------------------- */

static int col_index(lua_State *L);

static int col_len(lua_State *L)
{
    long n;
    column_data(L, 1, &n, NULL, NULL);
    lua_pushinteger(L, n);
    return 1;
}

/* col:min(), col:max(), col:mean(): reduction op (0, 1, 2). */
static int col_reduce(lua_State *L, int op)
{
    long n;
    const double *d = column_data(L, 1, &n, NULL, NULL);
    double r = n ? d[0] : NAN;
    for (long i = 1; i < n; i++) r = op == 0 ? fmin(r, d[i]) : op == 1 ? fmax(r, d[i]) : r + d[i];
    lua_pushnumber(L, op == 2 && n ? r / (double)n : r);
    return 1;
}

/* Plain C functions, not closures: col.min is the same value at every access, so that
** help(col.min) finds its topic by value. */
static int col_min(lua_State *L)
{
    return col_reduce(L, 0);
}
static int col_max(lua_State *L)
{
    return col_reduce(L, 1);
}
static int col_mean(lua_State *L)
{
    return col_reduce(L, 2);
}

static int col_table(lua_State *L)
{
    long n;
    const double *d = column_data(L, 1, &n, NULL, NULL);
    lua_createtable(L, (int)n, 0);
    for (long i = 0; i < n; i++) {
        lua_pushnumber(L, d[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* col:at(t): linear interpolation on the run's time grid */
static int col_at(lua_State *L)
{
    long n;
    const double *d = column_data(L, 1, &n, NULL, NULL);
    double t = luaL_checknumber(L, 2);
    mech_run *run = column_run(L, 1, NULL);
    const double *tt = mech_run_time(run);
    if (n == 0 || t < tt[0] || t > tt[n - 1])
        return luaL_error(L, "column:at: t = %f is outside the recorded time %f .. %f", t,
                          n ? tt[0] : 0.0, n ? tt[n - 1] : 0.0);
    long lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        if (tt[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double w = tt[hi] > tt[lo] ? (t - tt[lo]) / (tt[hi] - tt[lo]) : 0;
    lua_pushnumber(L, d[lo] + w * (d[hi] - d[lo]));
    return 1;
}

static int col_tostring(lua_State *L)
{
    long n;
    const char *name, *unit;
    const double *d = column_data(L, 1, &n, &name, &unit);
    double lo = n ? d[0] : NAN, hi = lo;
    for (long i = 1; i < n; i++) lo = fmin(lo, d[i]), hi = fmax(hi, d[i]);
    char buf[200];
    snprintf(buf, sizeof buf, "column '%s' [%s]: %ld values from %.6g to %.6g", name, unit, n, lo,
             hi);
    lua_pushstring(L, buf);
    return 1;
}

static const luaL_Reg col_methods[] = {{"min", col_min},     {"max", col_max}, {"mean", col_mean},
                                       {"table", col_table}, {"at", col_at},   {NULL, NULL}};

/* Pushes the column method `key` and returns 1, or returns 0. */
static int push_col_method(lua_State *L, const char *key)
{
    for (const luaL_Reg *r = col_methods; r->name; r++) {
        if (strcmp(r->name, key) == 0) {
            lua_pushcfunction(L, r->func);
            return 1;
        }
    }
    return 0;
}

static int col_index(lua_State *L)
{
    long n;
    const char *name, *unit;
    const double *d = column_data(L, 1, &n, &name, &unit);
    if (lua_isinteger(L, 2)) {
        lua_Integer i = lua_tointeger(L, 2);
        if (i >= 1 && i <= n)
            lua_pushnumber(L, d[i - 1]);
        else
            lua_pushnil(L);
        return 1;
    }
    const char *key = luaL_checkstring(L, 2);
    if (strcmp(key, "name") == 0) {
        lua_pushstring(L, name);
        return 1;
    }
    if (strcmp(key, "unit") == 0) {
        lua_pushstring(L, unit);
        return 1;
    }
    if (strcmp(key, "run") == 0) { /* the run it belongs to */
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    return push_col_method(L, key);
}

void lmech_open_run(lua_State *L)
{
    static const char *const run_fields[] = {"t",          "channels", "rows",  "status",
                                             "ok",         "message",  "stats", "events",
                                             "parameters", "motion",   NULL};
    static const luaL_Reg run_completed[] = {{"csv", run_csv},           {"mat", lmat_run_mat},
                                             {"column", run_column},     {"state", run_state},
                                             {"scene", lmech_run_scene}, {"animate", run_animate},
                                             {"state", run_state},       {"scene", lmech_run_scene},
                                             {"paraview", run_paraview}, {NULL, NULL}};
    static const luaL_Reg run_meta[] = {
        {"__index", run_index}, {"__len", run_len},           {"__gc", run_gc},
        {"__close", run_gc},    {"__tostring", run_tostring}, {NULL, NULL}};
    static const char *const col_fields[] = {"name", "unit", "run", NULL};
    static const luaL_Reg col_meta[] = {
        {"__index", col_index}, {"__len", col_len}, {"__tostring", col_tostring}, {NULL, NULL}};
    luaL_newmetatable(L, LMECH_RUN);
    lua_newtable(L); /* what Tab completes after "run." or "run:" */
    lu_setflags(L, run_fields);
    luaL_setfuncs(L, run_completed, 0);
    lua_setfield(L, -2, "__complete");
    luaL_setfuncs(L, run_meta, 0);
    lua_pop(L, 1);

    luaL_newmetatable(L, LMECH_COLUMN);
    lua_newtable(L); /* methods are functions here: "col:" completes only those */
    lu_setflags(L, col_fields);
    luaL_setfuncs(L, col_methods, 0);
    lua_setfield(L, -2, "__complete");
    luaL_setfuncs(L, col_meta, 0);
    lua_pop(L, 1);
}

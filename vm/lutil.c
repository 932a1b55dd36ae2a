/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>

#include "lutil.h"

#define GUARD_MT "mech.guard"

typedef struct guard {
    void (*release)(void *);
    union {
        double d;
        void *p;
        long long ll;
    } data[]; /* the guarded state */
} guard;

static int guard_gc(lua_State *L)
{
    guard *g = luaL_checkudata(L, 1, GUARD_MT);
    void (*release)(void *) = g->release;
    g->release = NULL;
    if (release) release(g->data);
    return 0;
}

void *lu_newguard(lua_State *L, size_t size, void (*release)(void *p))
{
    if (luaL_newmetatable(L, GUARD_MT)) {
        lua_pushcfunction(L, guard_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, guard_gc);
        lua_setfield(L, -2, "__close");
    }
    guard *g = lua_newuserdatauv(L, sizeof *g + size, 0);
    memset(g, 0, sizeof *g + size);
    g->release = release;
    lua_insert(L, -2);
    lua_setmetatable(L, -2); /* the finalizer is known from here on */
    return g->data;
}

/* msg, into buf, without a "<name>: " that repeats the last name of fname, whose prefix the
** message gets: libmech names the operation that failed, first ("simulate: end time must be
** > 0", "csv: cannot write ...") or after the entity ("flexible body 'plate': frequencies:
** ..."), which after "sys:simulate: " or "fe:frequencies: " says it twice. */
static const char *unrepeated(const char *fname, const char *msg, char *buf, size_t size)
{
    const char *name = fname + strlen(fname);
    while (name > fname && name[-1] != ':' && name[-1] != '.') name--;
    size_t len = strlen(name);
    if (len == 0) return msg;
    const char *at = msg;
    if (strncmp(at, name, len) != 0 || strncmp(at + len, ": ", 2) != 0) {
        const char *entity = strstr(msg, "': "); /* "<kind> '<name>': " */
        if (entity == NULL) return msg;
        at = entity + 3;
        if (strncmp(at, name, len) != 0 || strncmp(at + len, ": ", 2) != 0) return msg;
    }
    snprintf(buf, size, "%.*s%s", (int)(at - msg), msg, at + len + 2);
    return buf;
}

int lu_error(lua_State *L, const char *fname, const char *fmt, ...)
{
    char msg[1024], buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return luaL_error(L, "%s: %s", fname, unrepeated(fname, msg, buf, sizeof buf));
}

int lu_mech_error(lua_State *L, const char *fname, const mech_error *err)
{
    char buf[MECH_ERROR_MSG_SIZE];
    return luaL_error(L, "%s: %s", fname, unrepeated(fname, err->msg, buf, sizeof buf));
}

int lu_getfield(lua_State *L, int idx, const char *fname, const char *key)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    lua_pushvalue(L, idx);
    for (int depth = 0;; depth++) {
        lua_pushstring(L, key);
        if (lua_rawget(L, -2) != LUA_TNIL || !lua_getmetatable(L, -2)) break;
        lua_pushliteral(L, "__index");
        int t = lua_rawget(L, -2);
        if (t == LUA_TNIL) {
            lua_pop(L, 2); /* nil: the field is absent */
            break;
        }
        if (t != LUA_TTABLE || depth == 8)
            lu_error(L, fname,
                     "field '%s' would be looked up through an __index %s: argument tables are "
                     "read as they are (give the field itself, or an __index table of defaults)",
                     key, t == LUA_TTABLE ? "chain deeper than 8 tables" : luaL_typename(L, -1));
        lua_replace(L, -4); /* the __index table replaces the table searched */
        lua_pop(L, 2);      /* the metatable and the nil */
    }
    lua_remove(L, -2); /* the table searched */
    return lua_type(L, -1);
}

int lu_checktable(lua_State *L, int arg, const char *fname, const char *what)
{
    if (lua_type(L, arg) != LUA_TTABLE)
        lu_error(L, fname, "expected a table %s (got %s)", what, luaL_typename(L, arg));
    return lua_absindex(L, arg);
}

void lu_checkfields(lua_State *L, int idx, const char *fname, const char *const known[], int npos)
{
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_isinteger(L, -1)) {
            lua_Integer k = lua_tointeger(L, -1);
            if (k >= 1 && k <= npos) continue;
            lu_error(L, fname, "unexpected positional value #%lld (at most %d)", (long long)k,
                     npos);
        }
        if (lua_type(L, -1) != LUA_TSTRING)
            lu_error(L, fname, "unexpected %s key in the argument table", luaL_typename(L, -1));
        const char *k = lua_tostring(L, -1);
        int found = 0;
        for (int i = 0; known[i] && !found; i++) found = strcmp(known[i], k) == 0;
        if (!found) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (int i = 0; known[i]; i++) {
                if (i) luaL_addstring(&b, ", ");
                luaL_addstring(&b, known[i]);
            }
            luaL_pushresult(&b);
            lu_error(L, fname, "unknown field '%s' (known fields: %s)", k, lua_tostring(L, -1));
        }
    }
}

double lu_number(lua_State *L, int idx, const char *fname, const char *key, double def,
                 int required)
{
    int t = lu_getfield(L, idx, fname, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required) lu_error(L, fname, "field '%s' is required (a number)", key);
        return def;
    }
    if (t != LUA_TNUMBER)
        lu_error(L, fname, "field '%s' must be a number (got %s)", key, luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!isfinite(v)) lu_error(L, fname, "field '%s' must be finite (got %g)", key, v);
    return v;
}

int lu_optnumber(lua_State *L, int idx, const char *fname, const char *key, double *out)
{
    if (lu_getfield(L, idx, fname, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pop(L, 1);
    *out = lu_number(L, idx, fname, key, 0, 1);
    return 1;
}

int lu_tovec(lua_State *L, int idx, const char *fname, const char *what, double *out, int n)
{
    static const char *const shapes[] = {"two numbers {x, y}", "three numbers {x, y, z}"};
    const char *shape = shapes[n == 3];
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx) || (int)lua_rawlen(L, idx) != n)
        lu_error(L, fname, "%s must be a table of %s", what, shape);
    for (int i = 0; i < n; i++) {
        if (lua_rawgeti(L, idx, i + 1) != LUA_TNUMBER)
            lu_error(L, fname, "%s must be a table of %s", what, shape);
        out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(out[i])) lu_error(L, fname, "%s must be finite", what);
    }
    return 1;
}

/* Vector field key of n (2 or 3) numbers: 1 and out set when present. */
static int vec_field(lua_State *L, int idx, const char *fname, const char *key, double *out, int n)
{
    if (lu_getfield(L, idx, fname, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    char what[80];
    snprintf(what, sizeof what, "field '%s'", key);
    lu_tovec(L, -1, fname, what, out, n);
    lua_pop(L, 1);
    return 1;
}

int lu_vec2(lua_State *L, int idx, const char *fname, const char *key, double out[2])
{
    return vec_field(L, idx, fname, key, out, 2);
}

int lu_vec3(lua_State *L, int idx, const char *fname, const char *key, double out[3])
{
    return vec_field(L, idx, fname, key, out, 3);
}

int lu_points(lua_State *L, int idx, const char *fname, const char *key, double (*out)[2], int min,
              int max)
{
    int t = lu_getfield(L, idx, fname, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    int n = t == LUA_TTABLE ? (int)lua_rawlen(L, -1) : -1;
    if (n < min || n > max) {
        if (min == max)
            lu_error(L, fname, "field '%s' must be a list of %d points {{x1, y1}, ...}", key, min);
        lu_error(L, fname, "field '%s' must be a list of %d to %d points {{x1, y1}, ...}", key, min,
                 max);
    }
    for (int i = 0; i < n; i++) {
        int ok = lua_rawgeti(L, -1, i + 1) == LUA_TTABLE && lua_rawlen(L, -1) == 2;
        for (int k = 0; ok && k < 2; k++) {
            ok = lua_rawgeti(L, -1, k + 1) == LUA_TNUMBER;
            out[i][k] = lua_tonumber(L, -1);
            ok = ok && isfinite(out[i][k]);
            lua_pop(L, 1);
        }
        if (!ok)
            lu_error(L, fname, "field '%s': point %d must be {x, y}, two finite numbers", key,
                     i + 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return n;
}

int lu_numbers(lua_State *L, int idx, const char *fname, const char *key, double *out, int n)
{
    int t = lu_getfield(L, idx, fname, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (t == LUA_TNUMBER) {
        double v = lua_tonumber(L, -1);
        for (int i = 0; i < n; i++) out[i] = v;
    } else if (t == LUA_TTABLE && (int)lua_rawlen(L, -1) == n) {
        for (int i = 0; i < n; i++) {
            if (lua_rawgeti(L, -1, i + 1) != LUA_TNUMBER)
                lu_error(L, fname, "field '%s' must be a number or %d numbers", key, n);
            out[i] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
    } else {
        lu_error(L, fname, "field '%s' must be a number or a table of %d numbers", key, n);
    }
    lua_pop(L, 1);
    for (int i = 0; i < n; i++)
        if (!isfinite(out[i])) lu_error(L, fname, "field '%s' must be finite", key);
    return 1;
}

const char *lu_string(lua_State *L, int idx, const char *fname, const char *key, const char *def)
{
    int t = lu_getfield(L, idx, fname, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    if (t != LUA_TSTRING)
        lu_error(L, fname, "field '%s' must be a string (got %s)", key, luaL_typename(L, -1));
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (strlen(s) != len) lu_error(L, fname, "field '%s' must not contain a zero byte", key);
    lua_pop(L, 1); /* the string stays alive in the table (or in its __index table) */
    return s;
}

int lu_option(lua_State *L, int idx, const char *fname, const char *key, const char *const opts[],
              int def)
{
    const char *s = lu_string(L, idx, fname, key, NULL);
    if (s == NULL) return def;
    for (int i = 0; opts[i]; i++)
        if (strcmp(opts[i], s) == 0) return i;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; opts[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addchar(&b, '"');
        luaL_addstring(&b, opts[i]);
        luaL_addchar(&b, '"');
    }
    luaL_pushresult(&b);
    return lu_error(L, fname, "field '%s' must be one of %s (got \"%s\")", key, lua_tostring(L, -1),
                    s);
}

int lu_bool(lua_State *L, int idx, const char *fname, const char *key, int def)
{
    int t = lu_getfield(L, idx, fname, key);
    int v = def;
    if (t == LUA_TBOOLEAN)
        v = lua_toboolean(L, -1);
    else if (t != LUA_TNIL)
        lu_error(L, fname, "field '%s' must be true or false (got %s)", key, luaL_typename(L, -1));
    lua_pop(L, 1);
    return v;
}

int lu_function(lua_State *L, int idx, const char *fname, const char *key)
{
    int t = lu_getfield(L, idx, fname, key);
    if (t == LUA_TFUNCTION) return 1;
    if (t != LUA_TNIL)
        lu_error(L, fname, "field '%s' must be a function (got %s)", key, luaL_typename(L, -1));
    lua_pop(L, 1);
    return 0;
}

/* Adds string pos of the list at index list to b, control characters as escapes (the
** string stays alive in the list; the stack is as it was for each buffer operation). */
static void add_escaped(luaL_Buffer *b, lua_State *L, int list, int pos)
{
    size_t len;
    lua_rawgeti(L, list, pos);
    const char *s = lua_tolstring(L, -1, &len);
    lua_pop(L, 1);
    char esc[8];
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != 0x7f) {
            luaL_addchar(b, (char)c);
            continue;
        }
        if (c == '\n')
            snprintf(esc, sizeof esc, "\\n");
        else if (c == '\r')
            snprintf(esc, sizeof esc, "\\r");
        else if (c == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else
            snprintf(esc, sizeof esc, "\\x%02x", c);
        luaL_addstring(b, esc);
    }
}

void lu_push_params(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    int keys = lua_gettop(L), nk = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, keys, ++nk);
        }
    }
    /* insertion sort: parameter lists are short */
    for (int i = 2; i <= nk; i++) {
        for (int j = i; j > 1; j--) {
            lua_rawgeti(L, keys, j - 1);
            lua_rawgeti(L, keys, j);
            int swap = strcmp(lua_tostring(L, -1), lua_tostring(L, -2)) < 0;
            if (swap) {
                lua_rawseti(L, keys, j - 1);
                lua_rawseti(L, keys, j);
            } else {
                lua_pop(L, 2);
                break;
            }
        }
    }
    /* the values as text first: tostring may run a __tostring metamethod */
    lua_createtable(L, nk, 0);
    int texts = lua_gettop(L);
    for (int i = 1; i <= nk; i++) {
        lua_rawgeti(L, keys, i);
        lua_rawget(L, idx);
        luaL_tolstring(L, -1, NULL);
        lua_rawseti(L, texts, i);
        lua_pop(L, 1);
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= nk; i++) {
        luaL_addstring(&b, "parameter ");
        add_escaped(&b, L, keys, i);
        luaL_addstring(&b, " = ");
        add_escaped(&b, L, texts, i);
        luaL_addchar(&b, '\n');
    }
    luaL_pushresult(&b);
    lua_remove(L, texts);
    lua_remove(L, keys);
}

void lu_setflags(lua_State *L, const char *const names[])
{
    for (; *names; names++) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, *names);
    }
}

/* tostring of a list of names: its strings separated by ", ". */
static int names_tostring(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        if (i > 1) luaL_addstring(&b, ", ");
        if (lua_rawgeti(L, 1, i) == LUA_TSTRING)
            luaL_addvalue(&b);
        else
            lua_pop(L, 1);
    }
    luaL_pushresult(&b);
    return 1;
}

void lu_names_meta(lua_State *L)
{
    if (luaL_newmetatable(L, "mech.names")) {
        lua_pushcfunction(L, names_tostring);
        lua_setfield(L, -2, "__tostring");
    }
    lua_setmetatable(L, -2);
}

void lu_push_names(lua_State *L, const char *list)
{
    lua_newtable(L);
    lua_Integer n = 0;
    while (*list) {
        const char *end = strstr(list, ", ");
        size_t len = end ? (size_t)(end - list) : strlen(list);
        lua_pushlstring(L, list, len);
        lua_rawseti(L, -2, ++n);
        list += len + (end ? 2 : 0);
    }
    lu_names_meta(L);
}

/* Registry key of the set of warnings already given. */
#define WARNED "mechlua.warned"

/* lua_pcall'able: stack 1 = the message (a light userdata: a C string); prints it unless
** given before or silenced. */
static int warn_once(lua_State *L)
{
    lua_pushstring(L, lua_touserdata(L, 1));
    lua_replace(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    if (lua_istable(L, -1) && lua_getfield(L, -1, "mech") == LUA_TTABLE) {
        lua_pushliteral(L, "warnings");
        if (lua_rawget(L, -2) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) return 0;
    }
    lua_settop(L, 1);
    if (lua_getfield(L, LUA_REGISTRYINDEX, WARNED) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, WARNED);
    }
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) != LUA_TNIL) return 0;
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, 2);
    fprintf(stderr, "mechlua: warning: %s\n", lua_tostring(L, 1));
    fflush(stderr);
    return 0;
}

void lu_warn(lua_State *L, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!lua_checkstack(L, 4)) return;
    lua_pushcfunction(L, warn_once); /* allocates nothing: a memory error stays in the pcall */
    lua_pushlightuserdata(L, msg);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
}

const char *lu_folder_hint(const char *path, char *buf, size_t size)
{
    buf[0] = '\0';
    const char *slash = strrchr(path, '/');
    if (slash == NULL || slash == path) return buf; /* the current folder, or the root */
    int saved = errno;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    struct stat st;
    if (strlen(dir) < sizeof dir - 1 && stat(dir, &st) != 0 && errno == ENOENT)
        snprintf(buf, size,
                 "; the folder '%s' does not exist: create it first with mech.mkdir(\"%s\")", dir,
                 dir);
    errno = saved;
    return buf;
}

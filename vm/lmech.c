/* SPDX-License-Identifier: MIT */
/*
** The `mech` module: the Lua face of libmech.  Later modules (bodies, joints,
** integrators) add their functions to the same table.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lcontact.h"
#include "lmech.h"
#include "lmesh.h"
#include "lutil.h"
#include "mech.h"

/* Creates `dir` unless it is already a folder; on failure returns errno. */
static int make_one(const char *dir)
{
    if (mkdir(dir, 0777) == 0) return 0;
    int err = errno;
    struct stat st;
    if (err == EEXIST && stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    return err;
}

/*
** mech.mkdir(path): creates the folder and its missing parents (like mkdir -p), so
** that scenario scripts can write into out/...; returns path.
*/
static int mech_mkdir(lua_State *L)
{
    size_t len;
    const char *path = luaL_checklstring(L, 1, &len);
    luaL_argcheck(L, len > 0, 1, "path is empty");
    luaL_argcheck(L, strlen(path) == len, 1, "path contains a zero byte");
    char *buf = lua_newuserdatauv(L, len + 1, 0);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char saved = buf[i];
        buf[i] = '\0';
        int err = make_one(buf);
        if (err) return luaL_error(L, "mech.mkdir: cannot create '%s': %s", buf, strerror(err));
        buf[i] = saved;
    }
    lua_settop(L, 1);
    return 1;
}

/*
** mech.program_digest(): FNV-1a (64 bits) of the running program's file (/proc/self/exe: the
** interpreter with libmech linked in), 16 hex digits, so that results kept for a rerun can tell
** a rebuilt program from the one that made them (the version names only the release).  Where
** the file cannot be read, the digest of the version string.
*/
static int mech_program_digest(lua_State *L)
{
    uint64_t h = 14695981039346656037u;
    FILE *f = fopen("/proc/self/exe", "rb");
    if (f) {
        unsigned char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            for (size_t i = 0; i < n; i++) h = (h ^ buf[i]) * 1099511628211u;
        if (ferror(f)) f = (fclose(f), NULL);
    }
    if (f) {
        fclose(f);
    } else {
        h = 14695981039346656037u;
        for (const char *c = mech_version(); *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211u;
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    lua_pushstring(L, hex);
    return 1;
}

/*
** Unit helpers: mech.<unit>(x) is x <unit> in SI units, mech.to_<unit>(x) an SI value in
** <unit>.  x is a number, a list of numbers or a column (a new list is returned for
** both).  The upvalues are the factor and the function's name.
*/
typedef struct unit {
    const char *name;
    double factor;
} unit;

#define PI 3.14159265358979323846

static const unit units[] = {
    {"um", 1e-6},
    {"mm", 1e-3},
    {"cm", 1e-2},
    {"deg", PI / 180},
    {"rpm", 2 * PI / 60},
    {"Hz", 2 * PI},
    {"ms", 1e-3},
    {"kN", 1e3},
    {"MPa", 1e6},
    {"GPa", 1e9},
    {"to_um", 1e6},
    {"to_mm", 1e3},
    {"to_deg", 180 / PI},
    {"to_rpm", 60 / (2 * PI)},
    {"to_ms", 1e3},
    {"to_kN", 1e-3},
    {NULL, 0},
};

/* Raises "mech.<unit>: argument #1 must be ... (got <what>)". */
static int unit_error(lua_State *L, const char *what)
{
    return lu_error(L, lua_tostring(L, lua_upvalueindex(2)),
                    "argument #1 must be a number, a list of numbers or a column (got %s)", what);
}

static int unit_convert(lua_State *L)
{
    double f = lua_tonumber(L, lua_upvalueindex(1));
    int type = lua_type(L, 1);
    if (type == LUA_TNUMBER || type == LUA_TSTRING) {
        int ok;
        double x = lua_tonumberx(L, 1, &ok);
        if (!ok) return unit_error(L, "a string that is not a number");
        lua_pushnumber(L, x * f);
        return 1;
    }
    long n;
    const double *col = lmech_to_column(L, 1, &n, NULL, NULL);
    if (col != NULL) {
        if (n > INT_MAX)
            return lu_error(L, lua_tostring(L, lua_upvalueindex(2)),
                            "the column is too long for a list");
        lua_createtable(L, (int)n, 0);
        col = lmech_to_column(L, 1, &n, NULL, NULL); /* the allocation may have run Lua code */
        for (long i = 0; col != NULL && i < n; i++) {
            lua_pushnumber(L, col[i] * f);
            lua_rawseti(L, -2, i + 1);
        }
        return 1;
    }
    if (type != LUA_TTABLE) return unit_error(L, luaL_typename(L, 1));
    lua_Unsigned len = lua_rawlen(L, 1);
    lua_createtable(L, len > INT_MAX ? 0 : (int)len, 0);
    for (lua_Unsigned i = 1; i <= len; i++) {
        int ok;
        lua_rawgeti(L, 1, (lua_Integer)i);
        double x = lua_tonumberx(L, -1, &ok);
        if (!ok || lua_type(L, -1) != LUA_TNUMBER)
            return lu_error(L, lua_tostring(L, lua_upvalueindex(2)),
                            "element %d of the list must be a number (got %s)", (int)i,
                            luaL_typename(L, -1));
        lua_pop(L, 1);
        lua_pushnumber(L, x * f);
        lua_rawseti(L, -2, (lua_Integer)i);
    }
    return 1;
}

/* mech.isatty(fd): whether file descriptor 0, 1 or 2 (or "stdin", "stdout", "stderr") is
** a terminal, e.g. to decide about progress lines. */
static int mech_isatty(lua_State *L)
{
    static const char *const names[] = {"stdin", "stdout", "stderr", NULL};
    lua_Integer fd = lua_type(L, 1) == LUA_TSTRING ? luaL_checkoption(L, 1, NULL, names)
                                                   : luaL_checkinteger(L, 1);
    luaL_argcheck(L, fd >= 0 && fd <= 2, 1,
                  "expected 0, 1, 2, \"stdin\", \"stdout\" or \"stderr\"");
    lua_pushboolean(L, isatty((int)fd));
    return 1;
}

static const luaL_Reg mech_functions[] = {
    {"isatty", mech_isatty},
    {"mkdir", mech_mkdir},
    {"program_digest", mech_program_digest},
    {NULL, NULL},
};

int luaopen_mech(lua_State *L)
{
    luaL_newlib(L, mech_functions);
    for (const unit *u = units; u->name; u++) {
        lua_pushnumber(L, u->factor);
        lua_pushfstring(L, "mech.%s", u->name);
        lua_pushcclosure(L, unit_convert, 2);
        lua_setfield(L, -2, u->name);
    }
    lua_pushnumber(L, 9.80665); /* standard gravity (CGPM 1901), m/s^2 */
    lua_setfield(L, -2, "g");
    lua_pushstring(L, mech_version());
    lua_setfield(L, -2, "version");
    lua_pushinteger(L, mech_version_number());
    lua_setfield(L, -2, "version_number");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "quiet");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "warnings");
    lmech_open_system(L);
    lmech_open_sys_build(L);
    lmech_open_spatial(L);
    lmech_open_sys_run(L);
    lmech_open_fe(L);
    lmech_open_run(L);
    lmech_open_contact(L);
    lmech_open_mesh(L);
    return 1;
}

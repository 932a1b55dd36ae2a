/* SPDX-License-Identifier: MIT */
/*
** The `mech` module: the Lua face of libmech.  Later modules (bodies, joints,
** integrators) add their functions to the same table.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lcontact.h"
#include "lmech.h"
#include "lmesh.h"
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

/* Unit helpers: the result in SI units. */
static int mech_rpm(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * (2 * 3.14159265358979323846 / 60));
    return 1;
}

static int mech_deg(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * (3.14159265358979323846 / 180));
    return 1;
}

static int mech_mm(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * 1e-3);
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
    {"isatty", mech_isatty}, {"mkdir", mech_mkdir}, {"rpm", mech_rpm},
    {"deg", mech_deg},       {"mm", mech_mm},       {NULL, NULL},
};

int luaopen_mech(lua_State *L)
{
    luaL_newlib(L, mech_functions);
    lua_pushstring(L, mech_version());
    lua_setfield(L, -2, "version");
    lua_pushinteger(L, mech_version_number());
    lua_setfield(L, -2, "version_number");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "quiet");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "warnings");
    lmech_open_system(L);
    lmech_open_run(L);
    lmech_open_contact(L);
    lmech_open_mesh(L);
    return 1;
}

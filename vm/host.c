/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "host.h"
#include "lmech.h"
#include "preload.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Where the stdlib lives relative to the folder of the executable (the build tree
** mirrors the installed layout), and absolute fallbacks for an installed prefix. */
#ifndef MECHLUA_LUADIR_REL
#error "MECHLUA_LUADIR_REL must be defined by the build"
#endif
#ifndef MECHLUA_CMODDIR_REL
#error "MECHLUA_CMODDIR_REL must be defined by the build"
#endif
#ifndef MECHLUA_LUADIR_ABS
#error "MECHLUA_LUADIR_ABS must be defined by the build"
#endif
#ifndef MECHLUA_CMODDIR_ABS
#error "MECHLUA_CMODDIR_ABS must be defined by the build"
#endif
#ifndef MECHLUA_MANDIR_REL
#error "MECHLUA_MANDIR_REL must be defined by the build"
#endif
#ifndef MECHLUA_MANDIR_ABS
#error "MECHLUA_MANDIR_ABS must be defined by the build"
#endif

/*
** {==================================================================
** Ctrl-C
** ===================================================================
*/

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t polled;  /* C code that polls the flag is running */
static volatile sig_atomic_t pressed; /* Ctrl-C was pressed during this host_docall */
static lua_State *volatile running;   /* state inside host_docall, if any */
static int last_interrupted;          /* the last host_docall was stopped by Ctrl-C */

/* Debug hook installed by the signal handler: raises the error at the next
** instruction count, call or return, that is at a point where Lua can unwind.  The
** interrupt is then delivered: the flag is cleared, so that code which catches the error
** (a pcall in a callback) does not leave it set for the next run to find. */
static void stop_hook(lua_State *L, lua_Debug *ar)
{
    lua_sethook(L, NULL, 0, 0);
    interrupted = 0;
    lua_getinfo(L, "Sl", ar);
    if (ar->currentline > 0) luaL_error(L, "%s:%d: interrupted", ar->short_src, ar->currentline);
    luaL_error(L, "interrupted");
}

/* A first Ctrl-C asks the running code to stop; a second one before the first was
** acted upon (C code that does not poll) falls back to the default action, unless the
** code running is known to poll (it stops soon, and cleans up after itself). */
static void on_sigint(int sig)
{
    if (interrupted && !polled) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    interrupted = 1;
    pressed = 1;
    lua_State *L = running;
    if (L) lua_sethook(L, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

int host_interrupt_requested(void)
{
    return interrupted != 0;
}

void host_interrupt_consume(lua_State *L)
{
    lua_State *r = running;
    if (r && lua_gethook(r) == stop_hook) lua_sethook(r, NULL, 0, 0);
    if (L && lua_gethook(L) == stop_hook) lua_sethook(L, NULL, 0, 0);
    interrupted = 0;
}

const volatile sig_atomic_t *host_interrupt_flag(void)
{
    return &interrupted;
}

void host_interrupt_polled(int on)
{
    polled = on != 0;
}

/* }================================================================== */

const char *host_error_message(lua_State *L, int idx)
{
    const char *msg = lua_tostring(L, idx);
    if (msg != NULL) return msg;
    if (luaL_callmeta(L, idx, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
        return lua_tostring(L, -1);
    return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, idx));
}

/* Message handler of host_docall: turns any error object into a string and appends
** a traceback. */
static int msghandler(lua_State *L)
{
    luaL_traceback(L, L, host_error_message(L, 1), 1);
    return 1;
}

int host_docall(lua_State *L, int narg, int nres)
{
    int base = lua_gettop(L) - narg;
    lua_pushcfunction(L, msghandler);
    lua_insert(L, base);

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: blocking reads return EINTR */
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    pressed = 0;
    running = L;
    sigaction(SIGINT, &sa, &old);

    int status = lua_pcall(L, narg, nres, base);

    sigaction(SIGINT, &old, NULL);
    running = NULL;
    if (lua_gethook(L) == stop_hook) lua_sethook(L, NULL, 0, 0); /* signal came too late */
    last_interrupted = status != LUA_OK && pressed;
    interrupted = 0;
    polled = 0;
    lua_remove(L, base);
    return status;
}

void host_message(const char *msg)
{
    fprintf(stderr, "%s: %s\n", HOST_PROGNAME, msg);
    fflush(stderr);
}

int host_report(lua_State *L, int status)
{
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        if (msg == NULL) msg = "(error object is not a string)";
        /* the terminal echoed ^C without a newline: start the message on its own line */
        if (last_interrupted && isatty(STDERR_FILENO)) fputc('\n', stderr);
        last_interrupted = 0;
        fprintf(stderr, "%s\n", msg);
        fflush(stderr);
        lua_pop(L, 1);
    }
    return status;
}

/*
** {==================================================================
** Library set-up
** ===================================================================
*/

/* Writes into buf the folder holding the running executable; 0 if unknown. */
static int exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0 || (size_t)n >= size - 1) return 0;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash == NULL) return 0;
    *slash = '\0';
    return 1;
}

/* Pushes the stdlib folder: `rel` beside the executable when that folder exists
** (build tree or relocated install), else the configured absolute path.  Returns 1 when
** that folder is the configured one (an installed program), 0 otherwise. */
static int push_dir(lua_State *L, const char *rel, const char *abs)
{
    char dir[PATH_MAX], full[PATH_MAX], real[PATH_MAX], conf[PATH_MAX];
    if (exe_dir(dir, sizeof dir)) {
        int n = snprintf(full, sizeof full, "%s/%s", dir, rel);
        if (n > 0 && (size_t)n < sizeof full && realpath(full, real) != NULL) {
            lua_pushstring(L, real);
            return realpath(abs, conf) != NULL && strcmp(real, conf) == 0;
        }
    }
    lua_pushstring(L, abs);
    return 1;
}

/* package[field] = templates (with the folder on top of the stack) .. ";" .. old */
static void prepend_path(lua_State *L, const char *field, const char *templates)
{
    int dir = lua_gettop(L);
    lua_getglobal(L, "package");
    const char *old = (lua_getfield(L, -1, field), lua_tostring(L, -1));
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (const char *t = templates; *t; t++) {
        if (*t == '@') {
            lua_pushvalue(L, dir);
            luaL_addvalue(&b);
        } else {
            luaL_addchar(&b, *t);
        }
    }
    if (old) {
        luaL_addchar(&b, ';');
        luaL_addstring(&b, old);
    }
    luaL_pushresult(&b);
    lua_setfield(L, -3, field);
    lua_pop(L, 3); /* old value, package, folder */
}

void host_openlibs(lua_State *L, int ignore_env)
{
    if (ignore_env) {
        lua_pushboolean(L, 1);
        lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
    }
    luaL_openlibs(L);

    push_dir(L, MECHLUA_LUADIR_REL, MECHLUA_LUADIR_ABS);
    prepend_path(L, "path", "@/?.lua;@/?/init.lua");
    push_dir(L, MECHLUA_CMODDIR_REL, MECHLUA_CMODDIR_ABS);
    prepend_path(L, "cpath", "@/?.so");

    luaL_requiref(L, "mech", luaopen_mech, 1);
    lua_pop(L, 1);

    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    for (const struct preload_module *m = preload_modules; m->name; m++) {
        lua_pushcfunction(L, m->open);
        lua_setfield(L, -2, m->name);
    }
    lua_pop(L, 1);

    /* Where help() finds the man pages: registry["mechlua.mandir"] is the folder holding
    ** man1/ and man3/, registry["mechlua.man_installed"] whether it is the configured
    ** one (then `man 3 mechlua` finds the page, else help() says `man -l path`). */
    int installed = push_dir(L, MECHLUA_MANDIR_REL, MECHLUA_MANDIR_ABS);
    lua_setfield(L, LUA_REGISTRYINDEX, "mechlua.mandir");
    lua_pushboolean(L, installed);
    lua_setfield(L, LUA_REGISTRYINDEX, "mechlua.man_installed");

    /* help(x): the text lives in the stdlib module mechhelp, loaded on first use */
    static const char help[] = "help = function(...) return require('mechhelp')(...) end";
    if (luaL_loadbuffer(L, help, sizeof help - 1, "=help") == LUA_OK) lua_call(L, 0, 0);
}

/* }================================================================== */

/* SPDX-License-Identifier: MIT */
/*
** The stdlib's C modules, compiled into mechlua and put in package.preload by
** host_openlibs: require "plot" and the others work without a shared library.
*/
#ifndef MECHLUA_PRELOAD_H
#define MECHLUA_PRELOAD_H

#include <lua.h>

/// NULL-terminated list of {module name, luaopen function}.
extern const struct preload_module {
    const char *name;
    lua_CFunction open;
} preload_modules[];

#endif

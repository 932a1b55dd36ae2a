/* SPDX-License-Identifier: MIT */
/* sweepcore: the process primitives under the sweep module (stdlib/lsweep.c). */
#ifndef MECHLUA_LSWEEP_H
#define MECHLUA_LSWEEP_H

#include <lua.h>

/// Opens the `sweepcore` module and leaves its table on the stack.
int luaopen_sweepcore(lua_State *L);

#endif

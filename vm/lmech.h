/* SPDX-License-Identifier: MIT */
/* Lua bindings of libmech: one luaopen_ function per module, all reached from `mech`. */
#ifndef MECHLUA_LMECH_H
#define MECHLUA_LMECH_H

#include <lua.h>

/// Opens the `mech` module and leaves its table on the stack.
int luaopen_mech(lua_State *L);

#endif

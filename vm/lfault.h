/* SPDX-License-Identifier: MIT */
/* faultinject: allocation fault injection from Lua (MECH_FAULT_INJECTION builds only). */
#ifndef MECHLUA_LFAULT_H
#define MECHLUA_LFAULT_H

#include <lua.h>

#ifdef MECH_FAULT_INJECTION
int luaopen_faultinject(lua_State *L);
#endif

#endif

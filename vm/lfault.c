/* SPDX-License-Identifier: MIT */
/*
** faultinject: the Lua control of allocation fault injection (include/mech/mech_fault.h), in
** builds with MECH_FAULT_INJECTION only (CMake compiles this file then), for tests and the fuzzer
*(tests/fuzz):
**   faultinject.arm(k [, mode])  the k-th allocation from now (Lua's or libmech's) fails;
**                                mode "fail" (default: it and every later one, until
**                                disarm), "once" (it alone) or "interrupt" (SIGINT there,
**                                as Ctrl-C would; the allocation succeeds)
**   faultinject.disarm()         stops failing; returns the allocations counted since arm
**   faultinject.count()          allocations counted since the last arm
*/
#include <lauxlib.h>

#include "lfault.h"

#include "mech_fault.h"

static int fi_arm(lua_State *L)
{
    static const char *const modes[] = {"fail", "once", "interrupt", NULL};
    static const mech_fault_mode values[] = {MECH_FAULT_FAIL, MECH_FAULT_ONCE,
                                             MECH_FAULT_INTERRUPT};
    lua_Integer k = luaL_checkinteger(L, 1);
    luaL_argcheck(L, k >= 1, 1, "expected an allocation number >= 1");
    int mode = luaL_checkoption(L, 2, "fail", modes);
    mech_fault_arm(k > 0x7fffffffL ? 0x7fffffffL : (long)k, values[mode]);
    return 0;
}

static int fi_disarm(lua_State *L)
{
    lua_pushinteger(L, mech_fault_disarm());
    return 1;
}

static int fi_count(lua_State *L)
{
    lua_pushinteger(L, mech_fault_count());
    return 1;
}

int luaopen_faultinject(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        {"arm", fi_arm}, {"disarm", fi_disarm}, {"count", fi_count}, {NULL, NULL}};
    luaL_newlib(L, funcs);
    return 1;
}

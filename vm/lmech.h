/* SPDX-License-Identifier: MIT */
/* Lua bindings of libmech: one luaopen_ function per module, all reached from `mech`. */
#ifndef MECHLUA_LMECH_H
#define MECHLUA_LMECH_H

#include <lua.h>

#include "lmodule.h"
#include "mech.h"

#define LMECH_SYSTEM "mech.system"
#define LMECH_ENTITY "mech.entity"
#define LMECH_RUN    "mech.run"

/// Opens the `mech` module and leaves its table on the stack.
int luaopen_mech(lua_State *L);

/// Adds mech.planar, mech.spatial and the system and entity types to the table on top of the
/// stack.
void lmech_open_system(lua_State *L);

/// Adds the constructors (sys:body, sys:revolute, ..., body:point) to the system types (which
/// lmech_open_system made), the mech table on top of the stack.
void lmech_open_sys_build(lua_State *L);

/// Adds the constructors of spatial systems (lspatial.c: sys:body, sys:spherical, ...), the same
/// way.
void lmech_open_spatial(lua_State *L);

/// Adds sys:assemble, sys:value, sys:simulate and sys:lyapunov, the same way.
void lmech_open_sys_run(lua_State *L);

/// Adds sys:flexible, sys:guide and the flexible bodies' methods to the system types (which
/// lmech_open_system made), the mech table on top of the stack.
void lmech_open_fe(lua_State *L);

/// Registers the run and column types.
void lmech_open_run(lua_State *L);

/*
** Pushes a run userdata that owns no run yet, and returns where its run goes: the caller
** stores the run there as soon as libmech returns it, with no Lua call in between, so that
** the run is freed with the userdata even when a later Lua call raises (a memory error).
** The string at index `header` is the comment text its CSV files start with (program
** version, script, parameters); `sys` (0 for none) the index of the system it comes from,
** which the run refers to without keeping it alive (to say, of a channel that was not
** recorded, whether the model has it), unless `keep`: a run that kept states keeps its system
** (run:scene, run:animate draw them with it).
*/
mech_run **lmech_new_run(lua_State *L, int header, int sys, int keep);

/// Checks that argument arg is a run and returns it.
mech_run *lmech_check_run(lua_State *L, int arg);

/// run:scene(t) (lscene.c).
int lmech_run_scene(lua_State *L);

#endif

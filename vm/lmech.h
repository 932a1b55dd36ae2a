/* SPDX-License-Identifier: MIT */
/* Lua bindings of libmech: one luaopen_ function per module, all reached from `mech`. */
#ifndef MECHLUA_LMECH_H
#define MECHLUA_LMECH_H

#include <lua.h>

#include "mech.h"

#define LMECH_SYSTEM "mech.system"
#define LMECH_ENTITY "mech.entity"
#define LMECH_RUN    "mech.run"
#define LMECH_COLUMN "mech.column"

/// Opens the `mech` module and leaves its table on the stack.
int luaopen_mech(lua_State *L);

/// Adds mech.planar and the system and entity types to the table on top of the stack.
void lmech_open_system(lua_State *L);

/// Registers the run and column types.
void lmech_open_run(lua_State *L);

/*
** Pushes a run userdata that owns `run` (freed with it).  `header` is the comment text
** its CSV files start with (program version, script, parameters).
*/
void lmech_push_run(lua_State *L, mech_run *run, const char *header);

/// Checks that argument arg is a run and returns it.
mech_run *lmech_check_run(lua_State *L, int arg);

/*
** A column of numbers for plots and analysis: the data of a recorded channel (or time)
** without copying.  Returns NULL if the value at idx is not a column.
*/
const double *lmech_to_column(lua_State *L, int idx, long *n, const char **name, const char **unit);

#endif

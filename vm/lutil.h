/* SPDX-License-Identifier: MIT */
/*
** Helpers for the Lua bindings of libmech: reading named fields of argument tables with
** error messages that name the function, the field and what was expected, and turning
** libmech error reports into Lua errors.  The readers that the stdlib's C modules share
** (lu_error, lu_number, lu_option, ...) are declared in lmodule.h, included here.
*/
#ifndef MECHLUA_LUTIL_H
#define MECHLUA_LUTIL_H

#include <lua.h>

#include "lmodule.h"
#include "mech.h"

/// Raises "fname: <err->msg>" (without a repeated name, as lu_error).
int lu_mech_error(lua_State *L, const char *fname, const mech_error *err);

/// List of min to max points {{x1, y1}, {x2, y2}, ...} into out: returns how many (0 when the
/// field is absent); raises on anything else.
int lu_points(lua_State *L, int idx, const char *fname, const char *key, double (*out)[2], int min,
              int max);

/// n numbers (1 to 6), given as one number (for all n) or a table of n (penalty stiffness per
/// equation): 1 and out set when present.
int lu_numbers(lua_State *L, int idx, const char *fname, const char *key, double *out, int n);

/*
** The value at idx as a vector of n (2 or 3) finite numbers into out; raises naming it by
** `what` ("field 'at'", "field 'at' (point 2)") otherwise.  Returns 1.
*/
int lu_tovec(lua_State *L, int idx, const char *fname, const char *what, double *out, int n);

/*
** Pushes the table at idx as text, one "parameter key = value" line per string key in
** sorted order (so that headers are the same from run to run).  Values are turned into
** text by tostring; control characters in keys and values are written as escapes ("\n"),
** so that each parameter stays on its line.
*/
void lu_push_params(lua_State *L, int idx);


/*
** Prints "mechlua: warning: <message>" to stderr, once per distinct message in the life of
** the Lua state, unless the program's mech.warnings is false.  For values that are legal
** but probably a slip (a unit, a sign); never raises.
*/
void lu_warn(lua_State *L, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Sets t[name] = true for each name of the NULL-terminated list, t the table on top of the
/// stack (how an object's metatable lists, under __complete, what Tab completes).
void lu_setflags(lua_State *L, const char *const names[]);

/*
** Pushes a list of names (a sequence of strings) made from `list`, names separated by ", "
** ("x, y, phi"), with the metatable ("mech.names") that all such lists share: tostring
** gives them back separated by ", ", so that print shows them on one line (the REPL shows
** them as the lists they are).
*/
void lu_push_names(lua_State *L, const char *list);

/// Gives the table on top of the stack the metatable of lu_push_names' lists.
void lu_names_meta(lua_State *L);

#endif

/* SPDX-License-Identifier: MIT */
/*
** Helpers for the Lua bindings of libmech: reading named fields of argument tables with
** error messages that name the function, the field and what was expected, and turning
** libmech error reports into Lua errors.
*/
#ifndef MECHLUA_LUTIL_H
#define MECHLUA_LUTIL_H

#include <lua.h>

#include "mech.h"

/*
** Raises "fname: message" (with the caller's position) .  Never returns.  A message that
** starts with fname's last name ("simulate: ..." for "sys:simulate", as libmech's do) does
** not repeat it: "sys:simulate: end time must be > 0".
*/
int lu_error(lua_State *L, const char *fname, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/// Raises "fname: <err->msg>" (without a repeated name, as lu_error).
int lu_mech_error(lua_State *L, const char *fname, const mech_error *err);

/*
** Pushes field `key` of the table at idx and returns its type, without running Lua code:
** the table's own field, else the field of its metatable's __index table (a chain of up to
** 8).  An __index function is refused with an error naming fname: a metamethod that ran
** while a binding holds pointers into its objects could close them or drop the strings it
** reads.  All the lu_ field readers below read this way.
*/
int lu_getfield(lua_State *L, int idx, const char *fname, const char *key);

/// Checks that argument arg is a table; returns its absolute index.
int lu_checktable(lua_State *L, int arg, const char *fname, const char *what);

/*
** Rejects keys of the table at idx that are not in `known` (NULL-terminated) and not
** integers 1..npos: catches misspelled field names.
*/
void lu_checkfields(lua_State *L, int idx, const char *fname, const char *const known[], int npos);

/// Number field: returns def when absent (or raises when required); must be finite.
double lu_number(lua_State *L, int idx, const char *fname, const char *key, double def,
                 int required);

/// Optional number field: 1 and *out set when present.
int lu_optnumber(lua_State *L, int idx, const char *fname, const char *key, double *out);

/// Vector field {x, y}: 1 and out set when present; raises on a malformed value.
int lu_vec2(lua_State *L, int idx, const char *fname, const char *key, double out[2]);

/// List of min to max points {{x1, y1}, {x2, y2}, ...} into out: returns how many (0 when the
/// field is absent); raises on anything else.
int lu_points(lua_State *L, int idx, const char *fname, const char *key, double (*out)[2], int min,
              int max);

/// 1 to 3 numbers, given as a number or a table (penalty stiffness per equation).
int lu_numbers(lua_State *L, int idx, const char *fname, const char *key, double out[3], int n);

/// String field or def; a string with a zero byte is refused.
const char *lu_string(lua_State *L, int idx, const char *fname, const char *key, const char *def);

/// Option field: index of the value in opts, def when absent.
int lu_option(lua_State *L, int idx, const char *fname, const char *key, const char *const opts[],
              int def);

/// Boolean field or def.
int lu_bool(lua_State *L, int idx, const char *fname, const char *key, int def);

/// 1 when t[key] is a function (left on the stack), else 0 (nothing pushed; raises if
/// the field is present but is not a function).
int lu_function(lua_State *L, int idx, const char *fname, const char *key);

/*
** Pushes the table at idx as text, one "parameter key = value" line per string key in
** sorted order (so that headers are the same from run to run).  Values are turned into
** text by tostring; control characters in keys and values are written as escapes ("\n"),
** so that each parameter stays on its line.
*/
void lu_push_params(lua_State *L, int idx);

/*
** Pushes a userdata of `size` zeroed bytes whose finalizer (__gc, also __close) calls
** release(p) once, p the pointer returned: the owner of a C resource that a binding holds
** across Lua calls, any of which may raise (a memory error), so that the resource is
** freed on every path.  Store the resource in *p as soon as it is acquired; release must
** accept the zeroed state, and may be called early by the binding if it leaves the state
** released (zeroed pointers).  The memory is aligned for doubles and pointers.
*/
void *lu_newguard(lua_State *L, size_t size, void (*release)(void *p));

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

/*
** For a file that could not be written at path: when its folder does not exist, writes into
** buf (and returns it) "; the folder 'out' does not exist: create it first with
** mech.mkdir("out")", the end of the error message; else "".  Keeps errno.
*/
const char *lu_folder_hint(const char *path, char *buf, size_t size);

/// Gives the table on top of the stack the metatable of lu_push_names' lists.
void lu_names_meta(lua_State *L);

#endif

/* SPDX-License-Identifier: MIT */
/*
** What the stdlib's C modules (stdlib/lplot.c, lfft.c, lsweep.c, lmovie.c) use of the
** program, and all they include from vm/: the argument readers and error helpers of the
** bindings (lutil.c), the columns of a run (lrun.c) and the interrupt flag (host.c).
** Plain Lua API, nothing of libmech: the vm's own headers (lutil.h, lmech.h, host.h)
** include this one and stay internal to vm/.
*/
#ifndef MECHLUA_LMODULE_H
#define MECHLUA_LMODULE_H

#include <stddef.h>

#include <lua.h>

/* ---- argument readers and errors (lutil.c) ------------------------------------------------ */

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

/*
** Pushes field `key` of the table at idx and returns its type, without running Lua code:
** the table's own field, else the field of its metatable's __index table (a chain of up to
** 8).  An __index function is refused with an error naming fname: a metamethod that ran
** while a binding holds pointers into its objects could close them or drop the strings it
** reads.  All the lu_ field readers (here and in lutil.h) read this way.
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

/// Vector field {x, y, z}: 1 and out set when present; raises on a malformed value.
int lu_vec3(lua_State *L, int idx, const char *fname, const char *key, double out[3]);

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
** Pushes a userdata of `size` zeroed bytes whose finalizer (__gc, also __close) calls
** release(p) once, p the pointer returned: the owner of a C resource that a binding holds
** across Lua calls, any of which may raise (a memory error), so that the resource is
** freed on every path.  Store the resource in *p as soon as it is acquired; release must
** accept the zeroed state, and may be called early by the binding if it leaves the state
** released (zeroed pointers).  The memory is aligned for doubles and pointers.
*/
void *lu_newguard(lua_State *L, size_t size, void (*release)(void *p));

/*
** For a file that could not be written at path: when its folder does not exist, writes into
** buf (and returns it) "; the folder 'out' does not exist: create it first with
** mech.mkdir("out")", the end of the error message; else "".  Keeps errno.
*/
const char *lu_folder_hint(const char *path, char *buf, size_t size);

/* ---- columns (lrun.c) --------------------------------------------------------------------- */

/// Metatable name of columns: luaL_testudata(L, idx, LMECH_COLUMN).
#define LMECH_COLUMN "mech.column"

/*
** A column of numbers for plots and analysis: the data of a recorded channel (or time)
** without copying.  Returns NULL if the value at idx is not a column.
*/
const double *lmech_to_column(lua_State *L, int idx, long *n, const char **name, const char **unit);

/* ---- Ctrl-C (host.c) ---------------------------------------------------------------------- */

/*
** The text of the error object at idx: the string itself, its __tostring, or "(error object
** is a <type> value)"; may push the text (host.c, the program's message handler's too).
*/
const char *host_error_message(lua_State *L, int idx);

/*
** Set by SIGINT while host_docall runs.  C code that loops for long (integrators) polls it
** and stops with an error; code that waits (stdlib/lsweep.c) checks it after its sleep.
*/
int host_interrupt_requested(void);

/*
** For C code that polled the flag and stopped with its own error: clears the request and
** the pending Lua hook, so that the error it raises is the one the user sees and a later
** Ctrl-C counts as a first one again.
*/
void host_interrupt_consume(lua_State *L);

#endif

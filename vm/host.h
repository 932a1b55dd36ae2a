/* SPDX-License-Identifier: MIT */
/*
** The parts of the mechlua program shared by the script runner and the REPL:
** opening the libraries, finding the stdlib, protected calls with tracebacks,
** Ctrl-C handling and error reports.
*/
#ifndef MECHLUA_HOST_H
#define MECHLUA_HOST_H

#include <signal.h>

#include <lua.h>

#include "lmodule.h"

/// Name the program reports itself under in messages ("mechlua").
#define HOST_PROGNAME "mechlua"

/*
** Opens the standard Lua libraries and mechlua's own, preloads `mech` (also set as a
** global), and puts the stdlib folders in front of package.path and package.cpath.
** With ignore_env set, LUA_PATH and LUA_CPATH are ignored as by `lua -E`.
*/
void host_openlibs(lua_State *L, int ignore_env);

/*
** Calls the function below `narg` arguments on the stack, like lua_pcall, with a
** traceback added to errors and with Ctrl-C turned into a Lua error "interrupted".
*/
int host_docall(lua_State *L, int narg, int nres);

/*
** If status is not LUA_OK, prints the error message on top of the stack to stderr
** and pops it.  Returns status.
*/
int host_report(lua_State *L, int status);

/// Prints "mechlua: <msg>" to stderr (for the program's own errors).
void host_message(const char *msg);

/* host_interrupt_requested (the flag SIGINT sets while host_docall runs): lmodule.h. */

/// Pointer to the interrupt flag, for libmech loops that poll it without the vm.
const volatile sig_atomic_t *host_interrupt_flag(void);

/*
** Brackets C code that polls the flag often and cleans up when it stops (the CSV writer
** removes its temporary file): while on, a second Ctrl-C does not kill the program.
*/
void host_interrupt_polled(int on);

#endif

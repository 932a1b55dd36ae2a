/* SPDX-License-Identifier: MIT */
/* The read-eval-print loop of mechlua. */
#ifndef MECHLUA_REPL_H
#define MECHLUA_REPL_H

#include <stdio.h>

#include <lua.h>

/*
** Runs the REPL until end of input (Ctrl-D) or os.exit.  On a terminal it edits
** lines with libedit, keeps a persistent history and completes names with Tab; on a
** pipe it reads lines without prompts.  Returns the exit status: 0, or 1 when input
** from a pipe had a chunk that failed (so scripted use can detect errors).
*/
int repl_run(lua_State *L);

/*
** Writes the value at idx the way the REPL shows it: a table one level deep with its
** length, anything else through tostring (so __tostring and __name apply).
*/
void repl_show(lua_State *L, int idx, FILE *out);

/// Lua's reserved words, NULL-terminated.
extern const char *const repl_keywords[];

/// 1 when s[0..len) is a Lua name usable after a dot (an identifier, not a keyword).
int repl_is_identifier(const char *s, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/* The movie module: images of fig:render written as animated GIF or MP4 frames. */
#ifndef MECHLUA_LMOVIE_H
#define MECHLUA_LMOVIE_H

#include <lua.h>

/// Opens the `movie` module (require "movie") and leaves its table on the stack.
int luaopen_movie(lua_State *L);

#endif

/* SPDX-License-Identifier: MIT */
/* The plot module: publication figures drawn with PLplot into PNG, SVG and PDF files. */
#ifndef MECHLUA_LPLOT_H
#define MECHLUA_LPLOT_H

#include <lua.h>

/// Opens the `plot` module (require "plot") and leaves its table on the stack.
int luaopen_plot(lua_State *L);

/// A new white image of width x height pixels, pushed; its RGB rows, to fill.
unsigned char *lplot_new_image(lua_State *L, int width, int height);

/// The pixels of the image (fig:render) at index i: RGB rows from the top, 3 bytes a pixel;
/// NULL when the value there is not an image.
const unsigned char *lplot_image(lua_State *L, int i, int *width, int *height);

#endif

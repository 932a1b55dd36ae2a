/* SPDX-License-Identifier: MIT */
/* Planar meshes for Lua (vm/lmesh.c): mech.mesh and the mesh table. */
#ifndef MECHLUA_LMESH_H
#define MECHLUA_LMESH_H

#include <lua.h>

#include "mech_mesh.h"

/// Metatable of the mesh tables (methods find_nodes and node_at, __tostring).
#define LMESH_MT "mech.mesh"

/// Adds mech.mesh (rectangle, read, check) to the table on top of the stack.
void lmech_open_mesh(lua_State *L);

/*
** Pushes m as a mesh table with the mesh metatable:
**   { nodes = {{x, y}, ...}, elements = {{n1, n2, n3[, n4]}, ...},
**     groups = { name = { dim = 0|1|2, nodes = {...}, elements = {...} (dim 2), tag = t } },
**     tags = {...} (file numbers of the nodes, when m->tag is set) }
** with nodes numbered from 1.  May raise a memory error: m stays the caller's to free.
*/
int lmesh_push(lua_State *L, const mech_mesh *m);

/// Pushes a userdata holding an empty mesh, freed with it (by its __gc); returns the mesh.
mech_mesh *lmesh_new_holder(lua_State *L);

/*
** Reads the mesh table at idx into *out, checked by mech_mesh_check: node i is
** nodes[i] = {x, y}, element e lists 3 or 4 node numbers (from 1) counter-clockwise;
** groups and tags are optional (a group gives dim 0..2, nodes and/or elements; without
** nodes, a group's nodes are its elements').  Raises "fname: mesh: ..." on bad input
** with *out empty and nothing allocated; on success *out is the caller's to free with
** mech_mesh_free.  Returns 0.
*/
int lmesh_check(lua_State *L, int idx, const char *fname, mech_mesh *out);

#endif

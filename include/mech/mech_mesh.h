/* SPDX-License-Identifier: MIT */
/*
** libmech planar meshes: nodes, three-node triangles and four-node quadrilaterals, and
** named sets of nodes and elements.  A mesh is plain data: the structured rectangle
** mesher and the gmsh reader fill one, mech_fe_add copies it into a system.
**
** Numbering is from 0 in C (the Lua bindings add 1).  Element corners are listed
** counter-clockwise; quadrilaterals use conn[4 e .. 4 e + 3], triangles the first three
** with conn[4 e + 3] = -1.
*/
#ifndef MECH_MESH_H
#define MECH_MESH_H

#include "mech_core.h"

/// Longest name of a node or element set, terminating NUL included.
#define MECH_MESH_NAME_MAX 64

/// A named set: the nodes it holds, and the elements (2-D groups only).
typedef struct mech_mesh_group {
    char name[MECH_MESH_NAME_MAX];
    int dim;    ///< 0 points, 1 lines, 2 surfaces (gmsh's dimension of the physical group)
    int tag;    ///< gmsh's physical tag (0 for sets made by the mesher)
    int nnodes; ///< sorted, no duplicates
    int *nodes;
    int nelems; ///< sorted; 0 unless dim = 2
    int *elems;
} mech_mesh_group;

typedef struct mech_mesh {
    int nnodes;
    double *xy; ///< 2 nnodes: x, y of each node [m]
    int *tag;   ///< nnodes: the file's node number (gmsh), or NULL (mesher: node + 1)
    int nelems;
    int *nvert; ///< nelems: 3 or 4
    int *conn;  ///< 4 nelems: corner nodes, counter-clockwise, -1 pads triangles
    int ngroups;
    mech_mesh_group *groups;
} mech_mesh;

/// An empty mesh (all counts 0, pointers NULL); mech_mesh_free accepts it.
mech_mesh mech_mesh_empty(void);

/// Frees what the mesh holds and empties it.
void mech_mesh_free(mech_mesh *m);

/// Deep copy of src into dst (dst is overwritten, not freed first).
mech_status mech_mesh_copy(mech_mesh *dst, const mech_mesh *src, mech_error *err);

/// How the structured mesher numbers its nodes and elements.
typedef enum mech_mesh_numbering {
    MECH_ROWS_FROM_TOP = 0,    ///< row by row from the top-left corner, left to right
                               ///< ([Zheng & Wang, Figs. 6 and 12]: nodes 1.. on the top)
    MECH_ROWS_FROM_BOTTOM = 1, ///< row by row from the bottom-left corner, left to right
} mech_mesh_numbering;

typedef struct mech_rectangle_def {
    double origin[2]; ///< the lower-left corner [m]
    double size[2];   ///< width (x) and height (y) [m], > 0
    int nx, ny;       ///< elements along x and y, >= 1
    int triangles;    ///< 1: each cell split into two triangles by its diagonal from the
                      ///< lower-left to the upper-right corner
    mech_mesh_numbering numbering;
} mech_rectangle_def;

mech_rectangle_def mech_rectangle_default(void);

/*
** A structured mesh of a rectangle: (nx + 1)(ny + 1) nodes, nx ny quadrilaterals (or
** 2 nx ny triangles).  Elements are numbered like the nodes (cells row by row from the
** same corner; the two triangles of a cell are consecutive, the lower-right one first).
** Node sets made: "top", "bottom", "left", "right" (the nodes on each side, dim 1),
** "corners" (dim 0), "all" (dim 2, every node and element).
*/
mech_status mech_mesh_rectangle(mech_mesh *out, const mech_rectangle_def *def, mech_error *err);

/*
** Reads a gmsh mesh file, ASCII format 2.2 or 4.1.  Surface elements of type 2 (3-node
** triangle) and 3 (4-node quadrangle) make the mesh; points and lines are read only for
** their physical groups; any other element type is an error.  Nodes that no surface
** element uses are dropped, the rest are numbered in the order of their file numbers
** (kept in tag).  Every physical group becomes a set named by $PhysicalNames (or
** "<dim>:<tag>" when unnamed): its nodes, and for surfaces its elements.  Elements
** given clockwise are turned counter-clockwise.  Errors name the file and line.
*/
mech_status mech_mesh_read_msh(mech_mesh *out, const char *path, mech_error *err);

/// Index of the set called name, or -1.
int mech_mesh_find_group(const mech_mesh *m, const char *name);

/*
** Puts the sets of a mesh given by hand in the form the rest of libmech expects: each
** set's elements sorted without repeats; a set given by its elements only (nodes NULL)
** gets the nodes of those elements; nodes sorted without repeats; the sets ordered by name.
** Node and element numbers out of range are errors naming the set.  Call it before
** mech_mesh_check, which wants the sets in that form.
*/
mech_status mech_mesh_tidy_groups(mech_mesh *m, mech_error *err);

/*
** Checks a mesh given by hand: counts, finite coordinates, node numbers in range, no
** repeated corner, every element with positive area and convex (quadrilaterals), every
** node used.  The message names the element or node (numbered from 1).
*/
mech_status mech_mesh_check(const mech_mesh *m, mech_error *err);

#endif

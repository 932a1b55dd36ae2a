/* SPDX-License-Identifier: MIT */
/*
** libmech scenes: what a finalized system looks like at a state y, as plain data for drawing
** animation frames or writing visualisation files (nothing is drawn or written here).
**
** A scene is made once for a system (mech_scene_create: every allocation happens there) and
** filled for any (t, y) by mech_scene_update, which allocates nothing.  Everything is in world
** coordinates [m, N]; a planar system's z components are 0.  Every item names the entity it
** belongs to (kind and id: mech_system_name gives its name) and its role.
**
** What a scene holds:
**   bodies    every rigid body but the ground: its centre of mass and orientation;
**   items     the figures: each rigid body's outline (the rectangle or segment of
**             mech_body_set_rectangle / mech_body_set_segment), or else its links (segments
**             from its centre of mass to each point where a joint, spring, load or contact
**             attaches to it); each ideal joint's anchors and axis; each joint with clearance's
**             bearing and journal (circles, cylinders) or guide and slider (surfaces, corners,
**             boxes) at their true sizes; the surfaces of the point-plane contacts that belong
**             to no joint (a guide along a mesh);
**   contacts  every contact: its point, normal and forces;
**   meshes    every flexible body: its nodes' positions, displacements and velocities, its
**             elements and each element's von Mises stress.
** The arrays' sizes are fixed by the system at creation; the system must not change (no entity
** added, no new finalize) while the scene is used.
*/
#ifndef MECH_SCENE_H
#define MECH_SCENE_H

#include "mech_core.h"
#include "mech_system.h"

/// Most points of an item (a slider's corners).
#define MECH_SCENE_POINTS_MAX 8

/// What an item shows.
typedef enum mech_scene_role {
    MECH_SCENE_OUTLINE = 0, ///< a rigid body's own outline (kind BODY)
    MECH_SCENE_LINK,        ///< a body's centre of mass to an attachment point (kind BODY)
    MECH_SCENE_JOINT,       ///< an ideal (Lagrange or penalty) joint's anchors and axis
    MECH_SCENE_BEARING,     ///< a revolute joint with clearance: the bearing (on body a)
    MECH_SCENE_JOURNAL,     ///< ... and the journal (on body b)
    MECH_SCENE_GUIDE,       ///< a prismatic joint with clearance: a guide surface or channel
    MECH_SCENE_SLIDER,      ///< ... and the slider (body b)
    MECH_SCENE_SURFACE,     ///< the surface line of contacts of no joint (kind CONTACT: the first)
} mech_scene_role;

/// The geometry of an item; which fields it uses.
typedef enum mech_scene_shape {
    MECH_SCENE_POINTS = 0, ///< p[0 .. npoints): points (a joint: a's anchor, then b's)
    MECH_SCENE_SEGMENT,    ///< p[0] to p[1]
    MECH_SCENE_POLYGON,    ///< closed polygon p[0 .. npoints), in order around it
    MECH_SCENE_CIRCLE,     ///< centre p[0], radius (planar: in the xy plane)
    MECH_SCENE_CYLINDER,   ///< mid-point p[0], unit axis, radius, length
    MECH_SCENE_BOX,        ///< centre p[0], rotation R (columns: the box's axes), half sizes
} mech_scene_shape;

typedef struct mech_scene_item {
    mech_kind kind; ///< owner: MECH_KIND_BODY, MECH_KIND_JOINT or MECH_KIND_CONTACT
    int id;         ///< owner's id
    int body;       ///< the body the item moves with (a joint's: body b; a guide's: body a)
    mech_scene_role role;
    mech_scene_shape shape;
    int npoints; ///< points used in p
    double p[MECH_SCENE_POINTS_MAX][3];
    double axis[3]; ///< JOINT: revolute (planar: z), prismatic, cylindrical axis; CYLINDER
    double R[9];    ///< BOX: row-major rotation
    double radius;  ///< CIRCLE, CYLINDER [m]
    double length;  ///< CYLINDER [m]
    double half[3]; ///< BOX: half sizes along its axes [m]
} mech_scene_item;

typedef struct mech_scene_body {
    int id;        ///< body id (MECH_KIND_BODY)
    double pos[3]; ///< centre of mass [m]
    double angle;  ///< planar: the angle [rad]; spatial: 0
    double R[9];   ///< row-major rotation, world = R body (planar: about z by angle)
} mech_scene_body;

typedef struct mech_scene_contact {
    int id;                ///< contact id (MECH_KIND_CONTACT)
    mech_kind kind;        ///< its owner: MECH_KIND_JOINT for a joint with clearance's contact,
    int owner;             ///< else MECH_KIND_CONTACT (the contact itself)
    int has_point;         ///< 1 when point and normal are filled (every contact: a box
                           ///< slider's at its corner, or at its overlap's pressure centre)
    int touching;          ///< 1 when the contact carries a force at this state
    double point[3];       ///< the contact point on the touching body (the journal's rim, a
                           ///< corner, a node, a box slider's corner or pressure centre) [m]
    double normal[3];      ///< unit normal of the surface, pointing to the free side
    double fn[3], ft[3];   ///< normal and friction force on the touching body [N]
    double fn_mag, ft_mag; ///< the normal force and the friction force's magnitude [N]
} mech_scene_contact;

typedef struct mech_scene_mesh {
    int fe; ///< flexible body id (MECH_KIND_FE)
    int nnodes, nelems;
    const int *nvert;  ///< nelems: 3 or 4 corners (the system's mesh)
    const int *conn;   ///< 4 nelems corner nodes, -1 pads triangles (the system's mesh)
    double *xy;        ///< 2 nnodes: node positions x, y at y [m]
    double *disp;      ///< 2 nnodes: displacements from the reference positions [m]
    double *vel;       ///< 2 nnodes: velocities [m/s]
    double *von_mises; ///< nelems: von Mises stress at the element's centre [Pa]
} mech_scene_mesh;

/// A scene: read its public fields; the rest is private.
typedef struct mech_scene {
    int dim; ///< 2 or 3
    double t;
    int nbodies, nitems, ncontacts, nmeshes;
    mech_scene_body *bodies;
    mech_scene_item *items;
    mech_scene_contact *contacts;
    mech_scene_mesh *meshes;
    struct mech_scene_private *priv;
} mech_scene;

/*
** Makes the scene of a finalized system sys (not changed since), sized for it: MECH_ERR_STATE
** when sys is not finalized, MECH_ERR_NOMEM when out of memory (nothing is kept).  The scene
** holds sys: free the scene before the system.  It is filled for the system's initial state.
*/
mech_status mech_scene_create(const mech_system *sys, mech_scene **out, mech_error *err);

/*
** Fills the scene for the state y (mech_system_nstate values) at time t; allocates nothing.
** When the system has contacts, their forces come from a full evaluation of the system at
** (t, y) (mech_system_evaluate on the scene's copy of y) with the contacts that y penetrates
** active (between a run's located onset and end a contact is active exactly while its gap is
** negative); an impact speed the system's history lacks is the closing speed at y.  The
** history is left as it was; the evaluation replaces the system's last one, which
** mech_channel_value reads.  MECH_ERR_STATE when the system is no longer final; the
** evaluation's errors.
*/
mech_status mech_scene_update(mech_scene *scene, double t, const double *y, mech_error *err);

/// Frees a scene (NULL is allowed).
void mech_scene_free(mech_scene *scene);

#endif

/* SPDX-License-Identifier: MIT */
/*
** Entity kinds as a table (kinds.c): each kind (kind_*.c) gives one entry with its line of
** text and its channels, so that a new kind adds a file and an entry, not an arm in the
** describing and channel code.  Which entities exist and their names stay in the registry
** (registry.c), below every kind.
*/
#ifndef MECH_KIND_PRIVATE_H
#define MECH_KIND_PRIVATE_H

#include <stddef.h>

#include "registry.h"

/* A channel's quantity: name and unit. */
typedef struct quantity {
    const char *name;
    const char *unit;
} quantity;

/* Appends printf output to a buffer, tracking the length it would need (describe.c). */
typedef struct sbuf {
    char *p;
    size_t size, len;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void sb_printf(sbuf *b, const char *fmt, ...);
/* Appends ", <prefix><name>" (no comma first) to b. */
void sb_list_add(sbuf *b, const char *prefix, const char *name);

typedef struct kind_ops {
    mech_kind kind;
    const char *label; /* "flexible body": starts the entity's line in sys:describe */
    /* Whether sys:describe gives entity id a line of its own (NULL: every one). */
    int (*listed)(const mech_system *sys, int id);
    /* Writes the entity's parameters (without its kind and name); NULL: nothing. */
    void (*describe)(sbuf *b, const mech_system *sys, int id);
    /* The entity's quantities: a table ended by a NULL name; the index is the quantity code.
    ** `table` when every entity of the kind has the same, else `quantities`. */
    const quantity *table;
    const quantity *(*quantities)(const mech_system *sys, int id);
    /* Whether the entity offers quantity code qn of its table (NULL: all). */
    int (*offers)(const mech_system *sys, int id, int qn);
    /* Lists the channels it offers beyond its table (another entity's); NULL: none. */
    void (*list_more)(sbuf *b, const mech_system *sys, int id);
    /* For a quantity its table lacks: the entity (kind, id) that has it, 0 if none; NULL:
    ** none. */
    int (*other)(const mech_system *sys, int id, int *kind, int *oid);
    /* The value of quantity qn in the last full evaluation. */
    double (*value)(const mech_system *sys, int id, int qn);
} kind_ops;

/* The entry of kind k in system sys's dimension (dim.h), NULL for MECH_KIND_NONE or an
** unknown kind. */
const kind_ops *kind_of(const mech_system *sys, int k);

/* The entries (kind_*.c; the spatial system's own: kind_sbody.c, kind_spoint.c, kind_sforce.c,
** kind_sjoint.c). */
extern const kind_ops kind_body, kind_point, kind_force, kind_joint, kind_driver, kind_system,
    kind_contact, kind_fe;
extern const kind_ops kind_sbody, kind_spoint, kind_sforce, kind_sjoint;

/* A contact's quantities (kind_contact.c): a joint with clearance offers them too. */
extern const quantity contact_quantities[];
enum { C_GAP, C_PEN, C_RATE, C_FN, C_FT, C_VT, C_MU, C_ACTIVE, C_IMPACTS, C_V0, C_Z, C_STICK };
/* Writes the laws of contact c: "; <law> K .. n ..[; friction <law> ...]". */
void contact_describe_laws(sbuf *b, const contact *c);
/* Its friction law alone ("; friction ..."; nothing without friction). */
void contact_describe_friction(sbuf *b, const contact *c);
/* Sum over the contacts whose touching point is on a body in [b0, b1): normal forces (what
** 0), friction forces (1), or how many are active (2) (kind_contact.c). */
double contact_sum(const mech_system *sys, int b0, int b1, int what);
/*
** The energy balance of the last full evaluation (energy - initial energy - work of the
** drivers - work of the loads + energy dissipated: the channel system.balance); *inputs
** (unless NULL) gets the sum of the magnitudes of the works of the drivers and the loads
** (kind_system.c; the run checks of system_model.c read it too).
*/
double system_balance(const mech_system *sys, double *inputs);

#endif

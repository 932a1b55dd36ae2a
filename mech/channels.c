/* SPDX-License-Identifier: MIT */
/*
** Recorded channels: "entity.quantity" names, units, and values read from the last full
** evaluation of the system.  The machinery only: each kind's quantities and how their values
** are read are the kind's own (kind_*.c), beside its line of text, through kind_of.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech_sim.h"
#include "kind.h"
#include "registry.h"

/* The quantity table of an entity and its length (NULL and 0 for an unknown kind). */
static const quantity *table_of(const mech_system *sys, int kind, int id, int *count)
{
    const kind_ops *k = kind_of(sys, kind);
    const quantity *t = k == NULL ? NULL : k->table ? k->table : k->quantities(sys, id);
    int n = 0;
    while (t && t[n].name) n++;
    if (count) *count = n;
    return t;
}

/* Whether entity (kind, id) offers quantity code qn of its table. */
static int offers(const mech_system *sys, int kind, int id, int qn)
{
    const kind_ops *k = kind_of(sys, kind);
    return k->offers == NULL || k->offers(sys, id, qn);
}

size_t mech_channel_list(const mech_system *sys, int kind, int id, char *buf, size_t size)
{
    int n;
    const quantity *t = table_of(sys, kind, id, &n);
    sbuf b = {buf, size, 0};
    if (size) buf[0] = '\0';
    for (int i = 0; i < n; i++)
        if (offers(sys, kind, id, i)) sb_list_add(&b, "", t[i].name);
    const kind_ops *k = kind_of(sys, kind);
    if (k && k->list_more) k->list_more(&b, sys, id);
    return b.len;
}

/* Index of quantity `name` among the n of table t that entity (kind, id) offers, or -1. */
static int find_quantity(const mech_system *sys, int kind, int id, const quantity *t, int n,
                         const char *name)
{
    for (int i = 0; i < n; i++)
        if (offers(sys, kind, id, i) && strcmp(t[i].name, name) == 0) return i;
    return -1;
}

mech_status mech_channel_lookup(const mech_system *sys, const char *name, mech_channel *out,
                                mech_error *err)
{
    const char *dot = name ? strrchr(name, '.') : NULL;
    if (dot == NULL || dot == name || dot[1] == '\0')
        return mech_error_set(err, MECH_ERR_ARG,
                              "channel '%s': expected \"entity.quantity\", e.g. \"slider.x\"",
                              name ? name : "(null)");
    char entity[2 * MECH_NAME_MAX + 2];
    size_t elen = (size_t)(dot - name);
    if (elen >= sizeof entity)
        return mech_error_set(err, MECH_ERR_NOTFOUND, "channel '%.60s...': no such entity", name);
    memcpy(entity, name, elen);
    entity[elen] = '\0';
    int id = 0;
    mech_kind kind = mech_system_find(sys, entity, &id);
    if (kind == MECH_KIND_NONE)
        return mech_error_set(
            err, MECH_ERR_NOTFOUND,
            "channel '%s': no body, node, flexible body, point, force, joint, driver or contact "
            "is named '%s'",
            name, entity);
    int n, qkind = kind, qid = id;
    const quantity *t = table_of(sys, kind, id, &n);
    int i = find_quantity(sys, kind, id, t, n, dot + 1);
    const kind_ops *k = kind_of(sys, kind);
    /* a quantity another entity holds for it (a journal's other quantities are its contact's) */
    if (i < 0 && k->other && k->other(sys, id, &qkind, &qid)) {
        t = table_of(sys, qkind, qid, &n);
        i = find_quantity(sys, qkind, qid, t, n, dot + 1);
    }
    if (i >= 0) {
        memset(out, 0, sizeof *out);
        snprintf(out->name, sizeof out->name, "%s", name);
        out->unit = t[i].unit;
        out->kind = qkind;
        out->id = qid;
        out->quantity = i;
        return MECH_OK;
    }
    char list[1024];
    mech_channel_list(sys, kind, id, list, sizeof list);
    return mech_error_set(err, MECH_ERR_NOTFOUND,
                          "channel '%s': '%s' has no quantity '%s'; it has %s", name, entity,
                          dot + 1, list);
}

int mech_system_evaluated(const mech_system *sys)
{
    return sys->final && sys->q != NULL;
}

mech_status mech_system_evaluate_initial(mech_system *sys, mech_error *err)
{
    if (!sys->final)
        return mech_error_set(err, MECH_ERR_STATE, "system: not finalized (assemble it first)");
    /* callbacks of this evaluation read the positions and velocities it evaluates (what
    ** the evaluation computes is, until it ends, that of the one before) */
    sys->q = sys->y0;
    sys->v = sys->y0 + sys->nq;
    sys->y_eval = sys->y0;
    mech_status st = mech_system_evaluate(sys, 0.0, sys->y0, err);
    if (st) sys->q = sys->v = sys->y_eval = NULL; /* nothing whole to read */
    return st;
}

double mech_channel_value(const mech_system *sys, const mech_channel *ch)
{
    if (!mech_system_evaluated(sys)) return NAN;
    const kind_ops *k = kind_of(sys, ch->kind);
    return k ? k->value(sys, ch->id, ch->quantity) : NAN;
}

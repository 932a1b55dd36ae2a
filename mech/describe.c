/* SPDX-License-Identifier: MIT */
/*
** Text about a system: one line per entity (sys:describe, the CSV headers; each kind writes
** its own, kind_*.c) and the names of the state components.
*/
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_system.h"
#include "dim.h"
#include "kind.h"
#include "registry.h"

/* ---- descriptions ------------------------------------------------------------------------ */

void mech_system_describe_state(const mech_system *sys, int i, char *buf, size_t size)
{
    int nq = sys->nq_given, n = nq + sys->nu_given;
    if (i >= 0 && i < n) {
        int velocity = i >= nq, c = velocity ? i - nq : i;
        const body *bd =
            &sys->bodies[velocity ? system_velocity_body(sys, c) : system_position_body(sys, c)];
        snprintf(buf, size, "%s '%s' %s", bd->fe >= 0 ? "node" : "body", bd->name,
                 sys->dops->coordinate_name(bd, velocity, velocity ? c - bd->u_at : c - bd->q_at));
    } else if (sys->final && i >= n && i < n + sys->ndrivers) {
        snprintf(buf, size, "driver '%s' work", sys->drivers[i - n].name);
    } else if (sys->final && i == sys->iapplied) {
        snprintf(buf, size, "work of the applied loads");
    } else if (sys->final && i == sys->idissip) {
        snprintf(buf, size, "energy dissipated by dampers");
    } else if (sys->final && i == sys->icontact) {
        snprintf(buf, size, "energy dissipated by contact damping");
    } else if (sys->final && i == sys->ifriction) {
        snprintf(buf, size, "energy dissipated by friction");
    } else if (sys->final && i >= sys->ifriction + 1 && i < sys->nstate) {
        const char *cname = "?";
        for (int k = 0; k < sys->ncontacts; k++)
            if (sys->contacts[k].bristle >= 0 && i >= sys->contacts[k].bristle &&
                i < sys->contacts[k].bristle + sys->dops->contact_tangents)
                cname = sys->contacts[k].name;
        snprintf(buf, size, "contact '%s' bristle deflection", cname);
    } else {
        snprintf(buf, size, "state component %d", i);
    }
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = b->len < b->size ? b->p + b->len : NULL;
    size_t room = b->len < b->size ? b->size - b->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n;
}

void sb_list_add(sbuf *b, const char *prefix, const char *name)
{
    sb_printf(b, "%s%s%s", b->len ? ", " : "", prefix, name);
}

/* Writes an entity's parameters (without its kind and name) to b. */
static void entity_line(sbuf *b, const mech_system *sys, int kind, int id)
{
    const kind_ops *k = kind_of(sys, kind);
    if (k && k->describe) k->describe(b, sys, id);
}

size_t mech_entity_summary(const mech_system *sys, int kind, int id, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    if (size) buf[0] = '\0';
    if (id >= 0 && id < mech_system_count(sys, kind)) entity_line(&b, sys, kind, id);
    return b.len;
}

size_t mech_system_describe(const mech_system *sys, const char *prefix, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    if (size) buf[0] = '\0';
    const char *pf = prefix ? prefix : "";
    char gravity[160];
    sys->dops->describe_gravity(sys, gravity, sizeof gravity);
    sb_printf(&b, "%s%s; Baumgarte alpha %.10g, beta %.10g 1/s\n", pf, gravity, sys->alpha,
              sys->beta);
    int clearance = 0;
    for (int i = 0; i < sys->njoints; i++) clearance |= sys->joints[i].enforce == MECH_CLEARANCE;
    if (clearance && !sys->assemble)
        sb_printf(&b, "%sstart: as given, not assembled\n", pf);
    else if (clearance && mech_system_start(sys) == MECH_START_IDEAL)
        sb_printf(&b,
                  "%sstart: ideal (the joints with clearance held as ideal joints for the "
                  "assembly: centred, the velocities of the ideal mechanism; released for the "
                  "run)\n",
                  pf);
    else if (clearance)
        sb_printf(&b,
                  "%sstart: as given (the joints with clearance free in the assembly: their "
                  "bodies placed and moving as given)\n",
                  pf);
    /* the order of the description, not that of mech_kind */
    static const mech_kind order[] = {MECH_KIND_BODY,   MECH_KIND_POINT, MECH_KIND_FORCE,
                                      MECH_KIND_JOINT,  MECH_KIND_FE,    MECH_KIND_DRIVER,
                                      MECH_KIND_CONTACT};
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        const kind_ops *k = kind_of(sys, order[o]);
        int n = mech_system_count(sys, order[o]);
        for (int i = 0; i < n; i++) {
            if (k->listed && !k->listed(sys, i)) continue;
            sb_printf(&b, "%s%s %s: ", pf, k->label, mech_system_name(sys, order[o], i));
            entity_line(&b, sys, order[o], i);
            sb_printf(&b, "\n");
        }
    }
    return b.len;
}

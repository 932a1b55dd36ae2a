/* SPDX-License-Identifier: MIT */
/*
** How a model with joints with clearance starts (mech.planar{ start = ... }): the rule of
** MECH_START_AUTO, and the note on a joint that starts fast across its clearance.
*/
#include <math.h>
#include <stdio.h>

#include "clearance.h"
#include "dim.h"
#include "registry.h"
#include "start.h"
#include "vec3.h"

/* A joint with clearance placed within this fraction of its clearance of the centre was
** centred, up to the rounding of its anchors; farther, it was placed there on purpose. */
#define CENTRED_FRACTION 1e-3

/* The start of MECH_START_AUTO's rule with the positions as given in q. */
mech_start start_resolve(const mech_system *sys, const double *q)
{
    if (sys->start != MECH_START_AUTO) return sys->start;
    int clearance = 0;
    for (int i = 0; i < sys->njoints; i++) clearance |= sys->joints[i].enforce == MECH_CLEARANCE;
    if (!clearance) return MECH_START_AS_GIVEN;
    for (int b = 1; b < sys->nbodies; b++)
        for (int k = 0; k < sys->bodies[b].nu; k++)
            if (sys->bodies[b].u0[k] != 0) return MECH_START_AS_GIVEN;
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->enforce == MECH_CLEARANCE &&
            !clearance_centred(sys, j, q, CENTRED_FRACTION * j->gap))
            return MECH_START_AS_GIVEN;
    }
    return MECH_START_IDEAL;
}

mech_start mech_system_start(const mech_system *sys)
{
    if (sys->final) return sys->start_used;
    if (sys->start != MECH_START_AUTO) return sys->start;
    double *y = system_initial_state(sys);
    if (y == NULL) return MECH_START_AS_GIVEN; /* out of memory: the finalize will say so */
    mech_start st = start_resolve(sys, y);
    mech_free(y);
    return st;
}

int mech_system_start_note(const mech_system *sys, char *buf, size_t size)
{
    if (size) snprintf(buf, size, "%s", sys->final ? sys->start_note : "");
    return sys->final && sys->start_note[0] != '\0';
}

/* After the assembly of y0: the joint with clearance that starts fastest across its
** clearance beyond V sqrt(2 c / L) (mech_system_start_note), noted in sys->start_note. */
void start_note(mech_system *sys)
{
    const double *q = sys->y0, *v = sys->y0 + sys->nq;
    sys->start_note[0] = '\0';
    /* the fastest point: a body's centre or a joint's anchor; the size: the longest anchor */
    static const double centre[3] = {0, 0, 0};
    double V = 0, L = 0;
    for (int b = 1; b < sys->nbodies; b++)
        V = fmax(V, sys->dops->point_speed(sys, b, centre, q, v));
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        V = fmax(V, sys->dops->point_speed(sys, j->a, j->pa, q, v));
        V = fmax(V, sys->dops->point_speed(sys, j->b, j->pb, q, v));
        L = fmax(L, fmax(vec3_norm(j->pa), vec3_norm(j->pb)));
    }
    double worst = 0;
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->enforce != MECH_CLEARANCE) continue;
        double speed = clearance_speed(sys, j, q, v);
        double limit = V * sqrt(2 * j->gap / fmax(L, j->gap));
        if (!(speed > limit) || !(speed / limit > worst)) continue;
        worst = speed / limit;
        snprintf(sys->start_note, sizeof sys->start_note,
                 "%s '%s' starts with its %s moving at %.3g m/s across its clearance of %.3g m, "
                 "while the mechanism's fastest point moves at %.3g m/s: the first impact comes "
                 "from the start (above %.3g m/s, what the mechanism itself gives it across the "
                 "clearance)",
                 mech_joint_type_name(j->type), j->name, clearance_of(j)->part, speed, j->gap, V,
                 limit);
    }
}

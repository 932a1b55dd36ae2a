/* SPDX-License-Identifier: MIT */
/* The system as an entity ("system"): its energies and the worst constraint violation. */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"

enum {
    Y_KINETIC,
    Y_POTENTIAL,
    Y_GRAVITY,
    Y_ELASTIC,
    Y_ENERGY,
    Y_WORK,
    Y_APPLIED,
    Y_DISSIPATED,
    Y_BALANCE,
    Y_VIOLATION,
    Y_CONTACT,
    Y_CONTACT_DAMPING,
    Y_FRICTION
};
static const quantity system_q[] = {
    {"kinetic", "J"},  {"potential", "J"}, {"gravity", "J"}, {"elastic", "J"},
    {"energy", "J"},   {"work", "J"},      {"applied", "J"}, {"dissipated", "J"},
    {"balance", "J"},  {"violation", "-"}, {"contact", "J"}, {"contact_damping", "J"},
    {"friction", "J"}, {NULL, NULL}};

double system_balance(const mech_system *sys, double *inputs)
{
    double work = 0, moved = 0;
    for (int i = 0; i < sys->ndrivers; i++) {
        work += sys->y_eval[sys->drivers[i].work];
        moved += fabs(sys->y_eval[sys->drivers[i].work]);
    }
    double applied = sys->y_eval[sys->iapplied], dissipated = sys->y_eval[sys->idissip];
    double dc = sys->y_eval[sys->icontact], df = sys->y_eval[sys->ifriction];
    if (inputs) *inputs = moved + fabs(applied);
    return sys->kinetic + sys->potential - sys->energy0 - work - applied + dissipated + dc + df;
}

static double system_value(const mech_system *sys, int id, int qn)
{
    (void)id;
    double work = 0;
    for (int i = 0; i < sys->ndrivers; i++) work += sys->y_eval[sys->drivers[i].work];
    double applied = sys->y_eval[sys->iapplied], dissipated = sys->y_eval[sys->idissip];
    double dc = sys->y_eval[sys->icontact], df = sys->y_eval[sys->ifriction];
    switch (qn) {
    case Y_KINETIC: return sys->kinetic;
    case Y_POTENTIAL: return sys->potential;
    case Y_GRAVITY: return sys->potential - sys->elastic;
    case Y_ELASTIC: return sys->elastic;
    case Y_ENERGY: return sys->kinetic + sys->potential;
    case Y_WORK: return work;
    case Y_APPLIED: return applied;
    case Y_DISSIPATED: return dissipated;
    case Y_BALANCE: return system_balance(sys, NULL);
    case Y_CONTACT: return sys->contact_energy;
    case Y_CONTACT_DAMPING: return dc;
    case Y_FRICTION: return df;
    case Y_VIOLATION: {
        double worst = 0;
        for (int r = 0; r < sys->nrows; r++) worst = fmax(worst, fabs(sys->cr[r].phi));
        return worst;
    }
    }
    return NAN;
}

/* No line in sys:describe: its gravity and Baumgarte coefficients head the description. */
const kind_ops kind_system = {
    .kind = MECH_KIND_SYSTEM,
    .label = "system",
    .table = system_q,
    .value = system_value,
};

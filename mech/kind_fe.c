/* SPDX-License-Identifier: MIT */
/* The flexible-body kind: its mesh and material, its centre of mass, energies and the totals
** of the contacts on its nodes (the nodes themselves are bodies, kind_body.c). */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"

enum { F_X, F_Y, F_VX, F_VY, F_STRAIN, F_KINETIC, F_DAMPING, F_FN, F_FT, F_ACTIVE };
static const quantity fe_q[] = {{"x", "m"},      {"y", "m"},        {"vx", "m/s"},    {"vy", "m/s"},
                                {"strain", "J"}, {"kinetic", "J"},  {"damping", "W"}, {"fn", "N"},
                                {"ft", "N"},     {"contacts", "-"}, {NULL, NULL}};

static void fe_describe(sbuf *b, const mech_system *sys, int id)
{
    const fe_body *f = &sys->fes[id];
    int nq = 0;
    for (int e = 0; e < f->mesh.nelems; e++) nq += f->mesh.nvert[e] == 4;
    sb_printf(b,
              "%d nodes, %d quadrilaterals, %d triangles; E %.10g Pa, nu %.10g, density "
              "%.10g kg/m^3, thickness %.10g m, plane %s; mass %.10g kg (%s lumping); "
              "Rayleigh alpha %.10g 1/s, beta %.10g s",
              f->mesh.nnodes, nq, f->mesh.nelems - nq, f->E, f->nu, f->density, f->thickness,
              f->plane_strain ? "strain" : "stress", f->total,
              f->lumping == MECH_LUMP_HRZ ? "HRZ" : "row-sum", f->alpha, f->beta);
}

static double fe_value(const mech_system *sys, int id, int qn)
{
    const fe_body *f = &sys->fes[id];
    switch (qn) {
    case F_STRAIN: return f->strain_energy;
    case F_DAMPING: return f->p_damping;
    case F_FN: return contact_sum(sys, f->body0, f->body0 + f->mesh.nnodes, 0);
    case F_FT: return contact_sum(sys, f->body0, f->body0 + f->mesh.nnodes, 1);
    case F_ACTIVE: return contact_sum(sys, f->body0, f->body0 + f->mesh.nnodes, 2);
    default: break;
    }
    double sum = 0;
    for (int k = 0; k < f->mesh.nnodes; k++) {
        const double *q = sys->q + f->dof0 + 2 * k, *v = sys->v + f->dof0 + 2 * k;
        double m = f->mass[k];
        switch (qn) {
        case F_X:
        case F_Y: sum += m * q[qn - F_X]; break;
        case F_VX:
        case F_VY: sum += m * v[qn - F_VX]; break;
        case F_KINETIC: sum += 0.5 * m * (v[0] * v[0] + v[1] * v[1]); break;
        }
    }
    return qn == F_KINETIC ? sum : sum / f->total;
}

const kind_ops kind_fe = {
    .kind = MECH_KIND_FE,
    .label = "flexible body",
    .describe = fe_describe,
    .table = fe_q,
    .value = fe_value,
};

/* SPDX-License-Identifier: MIT */
/*
** Text about a system: one line per entity (sys:describe, the CSV headers) and the names of
** the state components.
*/
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_system.h"
#include "joint_type.h"
#include "registry.h"

/* ---- descriptions ------------------------------------------------------------------------ */

void mech_system_describe_state(const mech_system *sys, int i, char *buf, size_t size)
{
    static const char *const coord[] = {"x", "y", "phi"};
    static const char *const vel[] = {"vx", "vy", "omega"};
    int n = mech_system_ncoord(sys);
    if (i >= 0 && i < 2 * n) {
        int c = i % n;
        const body *bd = &sys->bodies[system_coord_body(sys, c)];
        snprintf(buf, size, "%s '%s' %s", bd->fe >= 0 ? "node" : "body", bd->name,
                 i < n ? coord[c - bd->dof] : vel[c - bd->dof]);
    } else if (sys->final && i >= 2 * n && i < 2 * n + sys->ndrivers) {
        snprintf(buf, size, "driver '%s' work", sys->drivers[i - 2 * n].name);
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
            if (sys->contacts[k].bristle == i) cname = sys->contacts[k].name;
        snprintf(buf, size, "contact '%s' bristle deflection", cname);
    } else {
        snprintf(buf, size, "state component %d", i);
    }
}

/* Appends printf output to a buffer, tracking the length it would need. */
typedef struct sbuf {
    char *p;
    size_t size, len;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = b->len < b->size ? b->p + b->len : NULL;
    size_t room = b->len < b->size ? b->size - b->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n;
}

/* Writes the laws of a contact: "; <law> K .. n ..[; friction <law> ...]". */
static void describe_laws(sbuf *b, const contact *c)
{
    const mech_normal_law *nl = &c->nlaw;
    const mech_friction_law *fl = &c->flaw;
    sb_printf(b, "; %s K %.10g n %.10g", mech_normal_name(nl->type), nl->K, nl->n);
    if (nl->type == MECH_NORMAL_KELVIN_VOIGT) sb_printf(b, " c %.10g", nl->c);
    if (nl->type == MECH_NORMAL_HUNT_CROSSLEY)
        sb_printf(b, " b %.10g p %.10g q %.10g", nl->c, nl->p, nl->q);
    if (mech_normal_uses_impact(nl))
        sb_printf(b, " restitution %.10g v_min %.10g", nl->e, nl->v_min);
    if (fl->type == MECH_FRICTION_NONE) return;
    sb_printf(b, "; friction %s mu %.10g", mech_friction_name(fl->type), fl->mu);
    switch (fl->type) { /* only the parameters the law uses */
    case MECH_FRICTION_COULOMB_LINEAR: sb_printf(b, " (linear) v_reg %.10g", fl->v_reg); break;
    case MECH_FRICTION_COULOMB_TANH: sb_printf(b, " (tanh) v_reg %.10g", fl->v_reg); break;
    case MECH_FRICTION_STICK: sb_printf(b, " mu_s %.10g v_eps %.10g", fl->mu_s, fl->v_eps); break;
    case MECH_FRICTION_AMBROSIO: sb_printf(b, " v0 %.10g v1 %.10g", fl->v0, fl->v1); break;
    case MECH_FRICTION_THRELFALL: sb_printf(b, " v0 %.10g", fl->v0); break;
    case MECH_FRICTION_STRIBECK:
        sb_printf(b, " mu_s %.10g vs %.10g delta %.10g sigma2 %.10g", fl->mu_s, fl->vs, fl->delta,
                  fl->sigma2);
        break;
    case MECH_FRICTION_DAHL: sb_printf(b, " sigma0 %.10g", fl->sigma0); break;
    case MECH_FRICTION_LUGRE:
    case MECH_FRICTION_LUGRE_NORMALIZED:
        sb_printf(b, "%s mu_s %.10g vs %.10g sigma0 %.10g sigma1 %.10g sigma2 %.10g",
                  fl->type == MECH_FRICTION_LUGRE_NORMALIZED ? " (normalized)" : "", fl->mu_s,
                  fl->vs, fl->sigma0, fl->sigma1, fl->sigma2);
        break;
    default: break;
    }
}

/* Writes an entity's parameters (without its kind and name) to b. */
static void entity_line(sbuf *b, const mech_system *sys, int kind, int id)
{
    switch (kind) {
    case MECH_KIND_BODY: {
        const body *bd = &sys->bodies[id];
        if (id == MECH_GROUND) {
            sb_printf(b, "fixed frame");
            break;
        }
        if (bd->fe >= 0) {
            sb_printf(b, "node %d of %s, mass %.10g kg, at (%.10g, %.10g) m", bd->node + 1,
                      sys->fes[bd->fe].name, bd->mass, bd->q0[0], bd->q0[1]);
            break;
        }
        sb_printf(b,
                  "mass %.10g kg, inertia %.10g kg m^2, at (%.10g, %.10g) m, angle %.10g rad, "
                  "velocity (%.10g, %.10g) m/s, omega %.10g rad/s",
                  bd->mass, bd->inertia, bd->q0[0], bd->q0[1], bd->q0[2], bd->u0[0], bd->u0[1],
                  bd->u0[2]);
        if (bd->outline == 1)
            sb_printf(b, ", rectangle %.10g x %.10g m", 2 * bd->outline_data[0],
                      2 * bd->outline_data[1]);
        if (bd->outline == 2)
            sb_printf(b, ", segment (%.10g, %.10g) - (%.10g, %.10g)", bd->outline_data[0],
                      bd->outline_data[1], bd->outline_data[2], bd->outline_data[3]);
        break;
    }
    case MECH_KIND_POINT: {
        const point *p = &sys->points[id];
        sb_printf(b, "(%.10g, %.10g) m in body coordinates", p->s[0], p->s[1]);
        break;
    }
    case MECH_KIND_FE: {
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
        break;
    }
    case MECH_KIND_FORCE: {
        const force *f = &sys->forces[id];
        const char *an = sys->bodies[f->a].name, *bn = sys->bodies[f->b].name;
        switch (f->type) {
        case MECH_SPRING:
            sb_printf(b, "%s (%.10g, %.10g) - %s (%.10g, %.10g)", an, f->pa[0], f->pa[1], bn,
                      f->pb[0], f->pb[1]);
            if (f->axis[0] != 0 || f->axis[1] != 0)
                sb_printf(b, ", along (%.10g, %.10g)", f->axis[0], f->axis[1]);
            if (f->law)
                sb_printf(b, ", force law by function");
            else
                sb_printf(b, ", k %.10g N/m, c %.10g N s/m, rest length %.10g m", f->k, f->c,
                          f->rest);
            break;
        case MECH_ROT_SPRING:
            sb_printf(b, "%s - %s, k %.10g N m/rad, c %.10g N m s/rad, rest angle %.10g rad", an,
                      bn, f->k, f->c, f->rest);
            break;
        case MECH_LOAD: {
            const mech_load_def *l = &f->load;
            sb_printf(b, "%s on %s", l->torque ? "torque" : "force", an);
            if (!l->torque)
                sb_printf(b, " at (%.10g, %.10g)%s", l->point[0], l->point[1],
                          l->body_frame ? ", body frame" : "");
            if (l->profile == MECH_CALLBACK)
                sb_printf(b, ", by function");
            else if (l->torque)
                sb_printf(b, ", %.10g + %.10g sin(%.10g t + %.10g) N m", l->value[0],
                          l->amplitude[0], l->freq, l->phase);
            else
                sb_printf(b, ", (%.10g, %.10g) + (%.10g, %.10g) sin(%.10g t + %.10g) N",
                          l->value[0], l->value[1], l->amplitude[0], l->amplitude[1], l->freq,
                          l->phase);
            break;
        }
        }
        break;
    }
    case MECH_KIND_JOINT: {
        const joint *j = &sys->joints[id];
        const joint_type *jt = joint_types[j->type];
        sb_printf(b, "%s, %s (%.10g, %.10g) - %s (%.10g, %.10g)", jt->name, sys->bodies[j->a].name,
                  j->pa[0], j->pa[1], sys->bodies[j->b].name, j->pb[0], j->pb[1]);
        if (jt->has_axis) sb_printf(b, ", axis (%.10g, %.10g)", j->axis[0], j->axis[1]);
        if (jt->has_angle && j->enforce != MECH_CLEARANCE)
            sb_printf(b, ", angle %.10g rad", j->angle0);
        if (j->enforce == MECH_CLEARANCE) {
            const contact *c = &sys->contacts[j->contact0];
            if (j->type == MECH_REVOLUTE) {
                sb_printf(b, ", clearance: bearing radius %.10g m, journal radius %.10g m", c->rb,
                          c->ra);
            } else {
                sb_printf(b, ", clearance %.10g m on each side of the slider's corners", j->gap);
                for (int k = 0; k < j->ncontact; k += 2)
                    sb_printf(b, " (%.10g, %.10g)", c[k].pa[0], c[k].pa[1]);
            }
            describe_laws(b, c);
        } else if (j->enforce == MECH_PENALTY) {
            sb_printf(b, ", penalty k");
            for (int e = 0; e < j->neq; e++) sb_printf(b, " %.10g", j->k[e]);
            sb_printf(b, ", c");
            for (int e = 0; e < j->neq; e++) sb_printf(b, " %.10g", j->c[e]);
        } else {
            sb_printf(b, ", Lagrange (Baumgarte %.10g, %.10g)",
                      system_baumgarte_or(j->alpha, sys->alpha),
                      system_baumgarte_or(j->beta, sys->beta));
        }
        break;
    }
    case MECH_KIND_CONTACT: {
        const contact *c = &sys->contacts[id];
        if (c->shape == SHAPE_CIRCLE_IN_CIRCLE)
            sb_printf(b,
                      "circle of %s centred (%.10g, %.10g) radius %.10g m inside the circle of %s "
                      "centred (%.10g, %.10g) radius %.10g m",
                      sys->bodies[c->a].name, c->pa[0], c->pa[1], c->ra, sys->bodies[c->b].name,
                      c->qb[0], c->qb[1], c->rb);
        else
            sb_printf(b,
                      "%s (%.10g, %.10g) on the surface of %s through (%.10g, %.10g) normal "
                      "(%.10g, %.10g)",
                      sys->bodies[c->a].name, c->pa[0], c->pa[1], sys->bodies[c->b].name, c->qb[0],
                      c->qb[1], c->nb[0], c->nb[1]);
        if (c->speed != 0) sb_printf(b, " moving at %.10g m/s", c->speed);
        describe_laws(b, c);
        break;
    }
    case MECH_KIND_DRIVER: {
        const driver *d = &sys->drivers[id];
        const char *target = d->type == MECH_DRIVE_BODY_ANGLE ? sys->bodies[d->target].name
                                                              : sys->joints[d->target].name;
        sb_printf(b, "%s of %s, from %.10g", system_driver_type_name(d->type), target, d->value0);
        if (d->fn)
            sb_printf(b, ", by function");
        else
            sb_printf(b, " at constant speed %.10g", d->speed);
        break;
    }
    default: break;
    }
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
    sb_printf(&b, "%sgravity (%.10g, %.10g) m/s^2; Baumgarte alpha %.10g, beta %.10g 1/s\n", pf,
              sys->gravity[0], sys->gravity[1], sys->alpha, sys->beta);
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
    static const struct {
        int kind;
        const char *label;
    } order[] = {{MECH_KIND_BODY, "body"},        {MECH_KIND_POINT, "point"},
                 {MECH_KIND_FORCE, "force"},      {MECH_KIND_JOINT, "joint"},
                 {MECH_KIND_FE, "flexible body"}, {MECH_KIND_DRIVER, "driver"},
                 {MECH_KIND_CONTACT, "contact"}};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int n = mech_system_count(sys, order[k].kind);
        for (int i = order[k].kind == MECH_KIND_BODY ? 1 : 0; i < n; i++) {
            if (order[k].kind == MECH_KIND_CONTACT && sys->contacts[i].owner >= 0)
                continue; /* described with its joint */
            if (order[k].kind == MECH_KIND_BODY && sys->bodies[i].fe >= 0)
                continue; /* described with its flexible body */
            sb_printf(&b, "%s%s %s: ", pf, order[k].label, mech_system_name(sys, order[k].kind, i));
            entity_line(&b, sys, order[k].kind, i);
            sb_printf(&b, "\n");
        }
    }
    return b.len;
}

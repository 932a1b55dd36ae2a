/* SPDX-License-Identifier: MIT */
/*
** Recorded channels: "entity.quantity" names, units, and values read from the last full
** evaluation of the system.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech_sim.h"
#include "clearance.h"
#include "joint_type.h"
#include "planar_body.h"
#include "registry.h"
#include "system_impl.h"

typedef struct quantity {
    const char *name;
    const char *unit;
} quantity;

/* Quantity tables per kind; the index in the table is the quantity code. */
enum { B_X, B_Y, B_PHI, B_VX, B_VY, B_OMEGA, B_AX, B_AY, B_ALPHA, B_KINETIC };
static const quantity body_q[] = {{"x", "m"},       {"y", "m"},      {"phi", "rad"},
                                  {"vx", "m/s"},    {"vy", "m/s"},   {"omega", "rad/s"},
                                  {"ax", "m/s^2"},  {"ay", "m/s^2"}, {"alpha", "rad/s^2"},
                                  {"kinetic", "J"}, {NULL, NULL}};

/* Nodes of flexible bodies: no rotation; their displacement from the mesh's coordinates
** and the totals of the contacts they touch (friction along each contact's tangent). */
enum { N_X, N_Y, N_VX, N_VY, N_AX, N_AY, N_UX, N_UY, N_FN, N_FT, N_KINETIC };
static const quantity node_q[] = {{"x", "m"},      {"y", "m"},      {"vx", "m/s"},    {"vy", "m/s"},
                                  {"ax", "m/s^2"}, {"ay", "m/s^2"}, {"ux", "m"},      {"uy", "m"},
                                  {"fn", "N"},     {"ft", "N"},     {"kinetic", "J"}, {NULL, NULL}};

/* Flexible bodies: centre of mass, energies and the totals of the contacts on its nodes. */
enum { F_X, F_Y, F_VX, F_VY, F_STRAIN, F_KINETIC, F_DAMPING, F_FN, F_FT, F_ACTIVE };
static const quantity fe_q[] = {{"x", "m"},      {"y", "m"},        {"vx", "m/s"},    {"vy", "m/s"},
                                {"strain", "J"}, {"kinetic", "J"},  {"damping", "W"}, {"fn", "N"},
                                {"ft", "N"},     {"contacts", "-"}, {NULL, NULL}};

enum { P_X, P_Y, P_VX, P_VY, P_AX, P_AY };
static const quantity point_q[] = {{"x", "m"},      {"y", "m"},      {"vx", "m/s"}, {"vy", "m/s"},
                                   {"ax", "m/s^2"}, {"ay", "m/s^2"}, {NULL, NULL}};

enum { S_F, S_L, S_DL, S_ENERGY };
static const quantity spring_q[] = {
    {"f", "N"}, {"length", "m"}, {"rate", "m/s"}, {"energy", "J"}, {NULL, NULL}};

enum { R_TORQUE, R_ANGLE, R_RATE, R_ENERGY };
static const quantity rot_q[] = {
    {"torque", "N m"}, {"angle", "rad"}, {"rate", "rad/s"}, {"energy", "J"}, {NULL, NULL}};

enum { L_FX, L_FY, L_TORQUE, L_POWER };
static const quantity load_q[] = {
    {"fx", "N"}, {"fy", "N"}, {"torque", "N m"}, {"power", "W"}, {NULL, NULL}};

/* The channels of an ideal joint (Lagrange or penalty): each type offers some of them
** (joint_type.h). */
static const quantity rev_q[] = {{"fx", "N"},      {"fy", "N"},        {"f", "N"},  {"m", "N m"},
                                 {"fn", "N"},      {"violation", "m"}, {"dx", "m"}, {"dy", "m"},
                                 {"twist", "rad"}, {NULL, NULL}};

/* Joints with clearance: a journal in a bearing also offers its contact's quantities, a
** slider in a guide each corner contact's as "c<k>_<surface>.<quantity>". */
/* Both also give the resultant of their contacts' forces on the second body (the journal,
** the slider) under the ideal joint's names: fx, fy, f, and for the slider m. */
enum { E_EX, E_EY, E_E, E_EXB, E_EYB, E_FX, E_FY, E_F };
static const quantity journal_q[] = {{"ex", "m"},  {"ey", "m"},  {"e", "m"},
                                     {"exb", "m"}, {"eyb", "m"}, {"fx", "N"},
                                     {"fy", "N"},  {"f", "N"},   {NULL, NULL}};

enum { G_FN, G_FT, G_TILT, G_OFFSET, G_IMPACTS, G_ACTIVE, G_FX, G_FY, G_F, G_M };
static const quantity guide_q[] = {
    {"fn", "N"}, {"ft", "N"}, {"tilt", "rad"}, {"offset", "m"}, {"impacts", "-"}, {"active", "-"},
    {"fx", "N"}, {"fy", "N"}, {"f", "N"},      {"m", "N m"},    {NULL, NULL}};

enum { D_EFFORT, D_VALUE, D_TARGET, D_POWER, D_WORK };
static const quantity drive_angle_q[] = {{"torque", "N m"}, {"angle", "rad"}, {"target", "rad"},
                                         {"power", "W"},    {"work", "J"},    {NULL, NULL}};
static const quantity drive_dist_q[] = {{"force", "N"}, {"distance", "m"}, {"target", "m"},
                                        {"power", "W"}, {"work", "J"},     {NULL, NULL}};

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

enum { C_GAP, C_PEN, C_RATE, C_FN, C_FT, C_VT, C_MU, C_ACTIVE, C_IMPACTS, C_V0, C_Z, C_STICK };
static const quantity contact_q[] = {
    {"gap", "m"},  {"penetration", "m"}, {"rate", "m/s"}, {"fn", "N"},      {"ft", "N"},
    {"vt", "m/s"}, {"mu", "-"},          {"active", "-"}, {"impacts", "-"}, {"v0", "m/s"},
    {"z", "m"},    {"stick", "-"},       {NULL, NULL}};

/* The quantity table of an entity; for joints, how many entries apply. */
static const quantity *table_of(const mech_system *sys, int kind, int id, int *count)
{
    const quantity *t = NULL;
    switch (kind) {
    case MECH_KIND_BODY: t = sys->bodies[id].fe >= 0 ? node_q : body_q; break;
    case MECH_KIND_FE: t = fe_q; break;
    case MECH_KIND_POINT: t = point_q; break;
    case MECH_KIND_FORCE:
        t = sys->forces[id].type == MECH_SPRING       ? spring_q
            : sys->forces[id].type == MECH_ROT_SPRING ? rot_q
                                                      : load_q;
        break;
    case MECH_KIND_JOINT:
        t = sys->joints[id].enforce != MECH_CLEARANCE ? rev_q
            : sys->joints[id].type == MECH_REVOLUTE   ? journal_q
                                                      : guide_q;
        break;
    case MECH_KIND_DRIVER:
        t = sys->drivers[id].type == MECH_DRIVE_JOINT_DISTANCE ? drive_dist_q : drive_angle_q;
        break;
    case MECH_KIND_SYSTEM: t = system_q; break;
    case MECH_KIND_CONTACT: t = contact_q; break;
    default: break;
    }
    int n = 0;
    while (t && t[n].name) n++;
    if (count) *count = n;
    return t;
}

static int joint_offers(const mech_system *sys, int id, int q)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return 1;
    return (joint_types[j->type]->offers & JOINT_OFFERS(q)) != 0;
}

/* Appends ", <prefix><name>" (no comma first) to buf, tracking the length it needs. */
static void list_add(char *buf, size_t size, size_t *len, const char *prefix, const char *name)
{
    int w = snprintf(*len < size ? buf + *len : NULL, *len < size ? size - *len : 0, "%s%s%s",
                     *len ? ", " : "", prefix, name);
    if (w > 0) *len += (size_t)w;
}

size_t mech_channel_list(const mech_system *sys, int kind, int id, char *buf, size_t size)
{
    int n;
    const quantity *t = table_of(sys, kind, id, &n);
    size_t len = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < n; i++)
        if (kind != MECH_KIND_JOINT || joint_offers(sys, id, i))
            list_add(buf, size, &len, "", t[i].name);
    if (t == journal_q)
        for (int i = 0; contact_q[i].name; i++) list_add(buf, size, &len, "", contact_q[i].name);
    if (t == guide_q) {
        const joint *j = &sys->joints[id];
        size_t skip = strlen(j->name) + 1; /* "guide." */
        for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
            char prefix[2 * MECH_NAME_MAX + 2];
            snprintf(prefix, sizeof prefix, "%s.", sys->contacts[k].name + skip);
            list_add(buf, size, &len, prefix, contact_q[C_GAP].name);
            list_add(buf, size, &len, prefix, contact_q[C_FN].name);
        }
    }
    return len;
}

/* Index of quantity `name` among the n of table t that entity (kind, id) offers, or -1. */
static int find_quantity(const mech_system *sys, int kind, int id, const quantity *t, int n,
                         const char *name)
{
    for (int i = 0; i < n; i++)
        if ((kind != MECH_KIND_JOINT || joint_offers(sys, id, i)) && strcmp(t[i].name, name) == 0)
            return i;
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
    if (i < 0 && t == journal_q) { /* a journal's other quantities are its contact's */
        qkind = MECH_KIND_CONTACT;
        qid = sys->joints[id].contact0;
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

static double body_value(const mech_system *sys, int b, int qn)
{
    const body *bd = &sys->bodies[b];
    int d = bd->dof;
    if (d < 0) return 0;
    switch (qn) {
    case B_X:
    case B_Y: return sys->q[d + qn];
    case B_PHI: return bd->nc == 3 ? sys->q[d + 2] : 0;
    case B_VX:
    case B_VY: return sys->v[d + qn - B_VX];
    case B_OMEGA: return bd->nc == 3 ? sys->v[d + 2] : 0;
    case B_AX:
    case B_AY: return sys->qdd[d + qn - B_AX];
    case B_ALPHA: return bd->nc == 3 ? sys->qdd[d + 2] : 0;
    case B_KINETIC: {
        const double *v = sys->v + d;
        double w = bd->nc == 3 ? v[2] : 0;
        return 0.5 * (bd->mass * (v[0] * v[0] + v[1] * v[1]) + bd->inertia * w * w);
    }
    }
    return NAN;
}

/* Sum over the contacts whose touching point is on a body in [b0, b1): normal forces,
** friction forces, or how many are active. */
static double contact_sum(const mech_system *sys, int b0, int b1, int what)
{
    double sum = 0;
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        if (c->a < b0 || c->a >= b1) continue;
        sum += what == 0 ? c->fn : what == 1 ? c->ft : (double)(c->fn > 0);
    }
    return sum;
}

static double node_value(const mech_system *sys, int b, int qn)
{
    const body *bd = &sys->bodies[b];
    int d = bd->dof;
    const double *X = sys->fes[bd->fe].mesh.xy + 2 * bd->node;
    switch (qn) {
    case N_X:
    case N_Y: return sys->q[d + qn - N_X];
    case N_VX:
    case N_VY: return sys->v[d + qn - N_VX];
    case N_AX:
    case N_AY: return sys->qdd[d + qn - N_AX];
    case N_UX:
    case N_UY: return sys->q[d + qn - N_UX] - X[qn - N_UX];
    case N_FN: return contact_sum(sys, b, b + 1, 0);
    case N_FT: return contact_sum(sys, b, b + 1, 1);
    case N_KINETIC: return 0.5 * bd->mass * (sys->v[d] * sys->v[d] + sys->v[d + 1] * sys->v[d + 1]);
    }
    return NAN;
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

static double point_value(const mech_system *sys, int id, int qn)
{
    const point *p = &sys->points[id];
    double pos[2], vel[2];
    body_point(sys, p->body, p->s, sys->q, sys->v, pos, vel);
    switch (qn) {
    case P_X: return pos[0];
    case P_Y: return pos[1];
    case P_VX: return vel[0];
    case P_VY: return vel[1];
    default: {
        int d = sys->bodies[p->body].dof;
        if (d < 0) return 0;
        double sg[2] = {pos[0] - sys->q[d], pos[1] - sys->q[d + 1]};
        int rigid = sys->bodies[p->body].nc == 3;
        double w = rigid ? sys->v[d + 2] : 0, al = rigid ? sys->qdd[d + 2] : 0;
        /* a_P = a + R90 s al - s w^2 */
        if (qn == P_AX) return sys->qdd[d] - sg[1] * al - sg[0] * w * w;
        return sys->qdd[d + 1] + sg[0] * al - sg[1] * w * w;
    }
    }
}

/* The channels of a joint with clearance: eccentricity, or the guide's totals. */
static double clearance_value(const mech_system *sys, const joint *j, int qn)
{
    if ((j->type == MECH_REVOLUTE && qn >= E_FX) || (j->type != MECH_REVOLUTE && qn >= G_FX)) {
        double f[3];
        clearance_force(sys, j, sys->q, sys->v, f);
        int which = qn - (j->type == MECH_REVOLUTE ? E_FX : G_FX); /* fx, fy, f, m */
        return which == 2 ? hypot(f[0], f[1]) : f[which == 3 ? 2 : which];
    }
    if (j->type == MECH_REVOLUTE) {
        double e[2], eb[2];
        clearance_eccentricity(sys, j, sys->q, sys->v, e, eb);
        switch (qn) {
        case E_EX: return e[0];
        case E_EY: return e[1];
        case E_E: return hypot(e[0], e[1]);
        case E_EXB: return eb[0];
        case E_EYB: return eb[1];
        }
        return NAN;
    }
    if (qn == G_TILT || qn == G_OFFSET) {
        double tilt, offset;
        clearance_slider(sys, j, sys->q, sys->v, &tilt, &offset);
        return qn == G_TILT ? tilt : offset;
    }
    double sum = 0;
    for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
        const contact *c = &sys->contacts[k];
        switch (qn) {
        case G_FN: sum += c->fn; break;
        case G_FT: sum += c->ft * (c->nb[1] * j->axis[0] - c->nb[0] * j->axis[1]); break;
        case G_IMPACTS: sum += (double)c->impacts; break;
        case G_ACTIVE: sum += c->active; break;
        }
    }
    return sum;
}

static double joint_value(const mech_system *sys, int id, int qn)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return clearance_value(sys, j, qn);
    const joint_type *jt = joint_types[j->type];
    switch (qn) {
    case J_FX: return j->react[0];
    case J_FY: return j->react[1];
    case J_F: return hypot(j->react[0], j->react[1]);
    case J_M: return j->react[2];
    case J_FN: return j->react[3];
    case J_VIOLATION: return jt->violation(j);
    case J_DX: return j->phi[0]; /* anchor a - anchor b */
    case J_DY: return j->phi[1];
    case J_TWIST: /* the equation on the relative rotation (a revolute joint offers none) */
        return jt->alone >= 0 ? j->phi[jt->alone] : 0;
    }
    return NAN;
}

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

static double system_value(const mech_system *sys, int qn)
{
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

static double contact_value(const mech_system *sys, int id, int qn)
{
    const contact *c = &sys->contacts[id];
    switch (qn) {
    case C_GAP: return c->gap;
    case C_PEN: return c->gap < 0 ? -c->gap : 0;
    case C_RATE: return c->dd;
    case C_FN: return c->fn;
    case C_FT: return c->ft;
    case C_VT: return c->vt;
    case C_MU: return c->fn > 0 ? fabs(c->ft) / c->fn : 0;
    case C_ACTIVE: return c->active;
    case C_IMPACTS: return (double)c->impacts;
    case C_V0: return c->impact_speed;
    case C_Z: return c->bristle >= 0 ? sys->y_eval[c->bristle] : 0;
    case C_STICK: return c->sticking && fabs(c->vt) < c->flaw.v_eps; /* not on the ramp */
    }
    return NAN;
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
    sys->v = sys->y0 + sys->ncoord;
    sys->y_eval = sys->y0;
    mech_status st = mech_system_evaluate(sys, 0.0, sys->y0, err);
    if (st) sys->q = sys->v = sys->y_eval = NULL; /* nothing whole to read */
    return st;
}

double mech_channel_value(const mech_system *sys, const mech_channel *ch)
{
    if (!mech_system_evaluated(sys)) return NAN;
    int id = ch->id, qn = ch->quantity;
    switch (ch->kind) {
    case MECH_KIND_BODY:
        return sys->bodies[id].fe >= 0 ? node_value(sys, id, qn) : body_value(sys, id, qn);
    case MECH_KIND_FE: return fe_value(sys, id, qn);
    case MECH_KIND_POINT: return point_value(sys, id, qn);
    case MECH_KIND_FORCE: return sys->forces[id].out[qn];
    case MECH_KIND_JOINT: return joint_value(sys, id, qn);
    case MECH_KIND_DRIVER: {
        const driver *d = &sys->drivers[id];
        switch (qn) {
        case D_EFFORT: return d->effort;
        case D_VALUE: return d->actual;
        case D_TARGET: return d->motion[0];
        case D_POWER: return d->power;
        case D_WORK: return sys->y_eval[d->work];
        }
        return NAN;
    }
    case MECH_KIND_SYSTEM: return system_value(sys, qn);
    case MECH_KIND_CONTACT: return contact_value(sys, id, qn);
    }
    return NAN;
}

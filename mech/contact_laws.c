/* SPDX-License-Identifier: MIT */
/*
** The contact and friction laws of mech_contact.h: pure functions of the contact state,
** with no allocation and no global state, so that any contact element may call them at
** every stage of every step.
**
** Sources (keys of man/mechlua-references.7; the original papers of each law are in
** man/mechlua-contact.3):
**   Kelvin-Voigt, Coulomb with static/kinetic friction    [Zheng & Wang, Eqs. 1-3, 13]
**   Lankarani-Nikravesh, Stribeck, Dahl, LuGre           [Spatial revolute paper, Eqs. 7-9, 12-16]
**   Hunt-Crossley general form, stiffness, Ambrosio      [Wang et al. 2025, Eqs. 14-22, 26]
**   Hu-Guo ("modified") law, normalised LuGre            [Sci. Rep. 2023] (equation numbers lost)
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "mech_contact.h"

#define PI 3.14159265358979323846

_Static_assert(MECH_NORMAL_HU_GUO + 1 == MECH_NORMAL_COUNT, "MECH_NORMAL_COUNT is stale");
_Static_assert(MECH_FRICTION_ADAMS + 1 == MECH_FRICTION_COUNT, "MECH_FRICTION_COUNT is stale");
_Static_assert(MECH_FRICTION_REG_SQRT + 1 == MECH_FRICTION_REG_COUNT,
               "MECH_FRICTION_REG_COUNT is stale");

/* ---- parameter checks shared by both families --------------------------------------------- */

/* One condition on one parameter; `applies` says whether the law uses it. */
typedef struct rule {
    int applies, good;
    const char *name, *must;
    double got;
} rule;

static int positive(double x)
{
    return isfinite(x) && x > 0;
}

static int nonnegative(double x)
{
    return isfinite(x) && x >= 0;
}

/*
** Reports the first rule that applies and fails, naming the parameter as Lua spells it:
** "K must be > 0 (got -1)", or "K must be finite (got inf)" for an infinite or NaN value.
*/
static mech_status first_failure(const rule *r, size_t n, mech_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (!r[i].applies || r[i].good) continue;
        if (!isfinite(r[i].got))
            return mech_error_set(err, MECH_ERR_ARG, "%s must be finite (got %g)", r[i].name,
                                  r[i].got);
        return mech_error_set(err, MECH_ERR_ARG, "%s must be %s (got %g)", r[i].name, r[i].must,
                              r[i].got);
    }
    return MECH_OK;
}

/* ---- normal laws ------------------------------------------------------------------------ */

static const char *const normal_names[MECH_NORMAL_COUNT] = {
    "kelvin_voigt",        "hertz",  "hunt_crossley", "hunt_crossley",
    "lankarani_nikravesh", "flores", "gonthier",      "hu_guo",
};

/*
** Defaults: K = 0 (it must be given: the check refuses it), n = 1.5 (1 for Kelvin-Voigt),
** no damping (c = 0), the classical Hunt-Crossley exponents p = 1.5, q = 1, e = 1 (elastic)
** and v_min = 1e-4 m/s (a choice of this project: the papers give no floor).
*/
mech_normal_law mech_normal_default(mech_normal_type type)
{
    mech_normal_law law = {
        .type = type,
        .K = 0,
        .n = type == MECH_NORMAL_KELVIN_VOIGT ? 1.0 : 1.5,
        .c = 0,
        .p = 1.5,
        .q = 1,
        .e = 1,
        .v_min = 1e-4,
    };
    return law;
}

const char *mech_normal_name(mech_normal_type type)
{
    return (unsigned)type < MECH_NORMAL_COUNT ? normal_names[type] : "unknown";
}

/*
** The hysteresis factor h of the restitution-based laws F = K d^n (1 + h dd/vi), each
** derived for a single impact of a Hertz contact:
**   Hunt and Crossley 1975         3 (1 - e) / 2           (linearised in 1 - e)
**   Lankarani and Nikravesh 1990   3 (1 - e^2) / 4         (energy balance, e near 1)
**   Flores et al. 2011             8 (1 - e) / (5 e)       (Mech. Mach. Theory 46)
**   Gonthier et al. 2004           (1 - e^2) / e           (Multibody Syst. Dyn. 11)
**   Hu and Guo 2015                3 (1 - e) / (2 e)       (Multibody Syst. Dyn. 35)
** 0 for the laws that do not use the impact velocity.
*/
double mech_normal_hysteresis(const mech_normal_law *law)
{
    double e = law->e;
    switch (law->type) {
    case MECH_NORMAL_HC_RESTITUTION: return 1.5 * (1 - e);
    case MECH_NORMAL_LANKARANI_NIKRAVESH: return 0.75 * (1 - e * e);
    case MECH_NORMAL_FLORES: return 1.6 * (1 - e) / e;
    case MECH_NORMAL_GONTHIER: return (1 - e * e) / e;
    case MECH_NORMAL_HU_GUO: return 1.5 * (1 - e) / e;
    default: return 0;
    }
}

int mech_normal_uses_impact(const mech_normal_law *law)
{
    return law->type >= MECH_NORMAL_HC_RESTITUTION && law->type <= MECH_NORMAL_HU_GUO;
}

mech_status mech_normal_check(const mech_normal_law *law, mech_error *err)
{
    if ((unsigned)law->type >= MECH_NORMAL_COUNT)
        return mech_error_set(err, MECH_ERR_ARG, "unknown normal law type %d", (int)law->type);
    int kv = law->type == MECH_NORMAL_KELVIN_VOIGT, hc = law->type == MECH_NORMAL_HUNT_CROSSLEY;
    int impact = mech_normal_uses_impact(law);
    /* Gonthier, Flores and Hu-Guo divide by e, so e = 0 (plastic) is refused for all. */
    const rule rules[] = {
        {1, positive(law->K), "K", "> 0", law->K},
        {1, positive(law->n), "n", "> 0", law->n},
        {kv, nonnegative(law->c), "c", ">= 0", law->c},
        {hc, nonnegative(law->c), "b", ">= 0", law->c},
        {hc, nonnegative(law->p), "p", ">= 0", law->p},
        {hc, positive(law->q), "q", "> 0", law->q},
        {impact, law->e > 0 && law->e <= 1, "restitution", "in (0, 1]", law->e},
        {impact, positive(law->v_min), "v_min", "> 0", law->v_min},
    };
    return first_failure(rules, sizeof rules / sizeof rules[0], err);
}

/*
** F >= 0 for every law: penetration d <= 0 gives 0 and a damping term that would pull
** (fast separation) is clipped, so the bodies then separate with no force although d > 0.
** The restitution laws take vi = max(vi, v_min): a resting contact, whose onset rate is
** nearly 0, keeps a bounded damping term K d^n h dd / v_min.
*/
double mech_normal_force(const mech_normal_law *law, double d, double dd, double vi,
                         double *elastic)
{
    /* pow(d, 1) is d (exactly), and a linear law (Kelvin-Voigt's) costs no libm call */
    double el = d > 0 ? law->K * (law->n == 1 ? d : pow(d, law->n)) : 0, f = el;
    if (d > 0) {
        switch (law->type) {
        case MECH_NORMAL_KELVIN_VOIGT: f = el + law->c * dd; break;
        case MECH_NORMAL_HERTZ: break;
        case MECH_NORMAL_HUNT_CROSSLEY:
            f = el + law->c * pow(d, law->p) * copysign(pow(fabs(dd), law->q), dd);
            break;
        default: f = el * (1 + mech_normal_hysteresis(law) * dd / fmax(vi, law->v_min)); break;
        }
    }
    if (elastic) *elastic = el;
    return f > 0 ? f : 0;
}

double mech_normal_energy(const mech_normal_law *law, double d)
{
    return d > 0 ? law->K * pow(d, law->n + 1) / (law->n + 1) : 0;
}

/* ---- friction laws ------------------------------------------------------------------------ */

static const char *const friction_names[MECH_FRICTION_COUNT] = {
    "none",      "coulomb",  "coulomb", "coulomb", "stick", "ambrosio",
    "threlfall", "stribeck", "dahl",    "lugre",   "lugre", "adams",
};

static const char *const reg_names[MECH_FRICTION_REG_COUNT] = {"none", "linear", "tanh", "sqrt"};

/* The parameters each law uses, for the check. */
enum {
    USES_MU = 1 << 0,
    USES_MU_S = 1 << 1,
    USES_V_REG = 1 << 2,
    USES_V_EPS = 1 << 3,
    USES_V0 = 1 << 4,
    USES_V1 = 1 << 5,
    USES_STRIBECK = 1 << 6, /* vs and delta */
    USES_SIGMA0 = 1 << 7,
    USES_SIGMA1 = 1 << 8,
    USES_SIGMA2 = 1 << 9,
    USES_REG = 1 << 10,      /* the field reg (and v_reg when reg is not none) */
    USES_BOUNDED = 1 << 11,  /* the bounded form */
    USES_BRISTLES = 1 << 12, /* bristle states (keep_bristles) */
};

static unsigned friction_uses_type(mech_friction_type type)
{
    switch (type) {
    case MECH_FRICTION_NONE: return 0;
    case MECH_FRICTION_COULOMB: return USES_MU | USES_REG;
    case MECH_FRICTION_COULOMB_LINEAR:
    case MECH_FRICTION_COULOMB_TANH: return USES_MU | USES_V_REG;
    case MECH_FRICTION_STICK: return USES_MU | USES_MU_S | USES_V_EPS;
    case MECH_FRICTION_AMBROSIO: return USES_MU | USES_V0 | USES_V1;
    case MECH_FRICTION_ADAMS: return USES_MU | USES_MU_S | USES_V0 | USES_V1;
    case MECH_FRICTION_THRELFALL: return USES_MU | USES_V0;
    case MECH_FRICTION_STRIBECK:
        return USES_MU | USES_MU_S | USES_STRIBECK | USES_SIGMA2 | USES_REG;
    case MECH_FRICTION_DAHL: return USES_MU | USES_SIGMA0 | USES_BOUNDED | USES_BRISTLES;
    case MECH_FRICTION_LUGRE:
        return USES_MU | USES_MU_S | USES_STRIBECK | USES_SIGMA0 | USES_SIGMA1 | USES_SIGMA2 |
               USES_BOUNDED | USES_BRISTLES;
    case MECH_FRICTION_LUGRE_NORMALIZED:
        return USES_MU | USES_MU_S | USES_STRIBECK | USES_SIGMA0 | USES_SIGMA1 | USES_SIGMA2 |
               USES_BRISTLES;
    }
    return 0;
}

/* The parameters the law uses: those of its type, and v_reg when Coulomb or Stribeck friction
** has a regularisation. */
static unsigned friction_uses(const mech_friction_law *law)
{
    unsigned u = friction_uses_type(law->type);
    if ((u & USES_REG) && law->reg != MECH_FRICTION_REG_NONE) u |= USES_V_REG;
    return u;
}

/*
** Defaults: no friction until mu is set (mu = mu_s = 0), v_reg = 1e-4 m/s (our choice),
** v_eps = 1e-5 m/s ([Zheng & Wang]), Ambrosio's ramp from v0 = 1e-4 to v1 = 1e-3 m/s
** (benchmark A; Threlfall's v0 too), vs = 1e-3 m/s and delta = 2 ([Spatial revolute
** paper]), bristles sigma0 = 1e5 with sigma1 = sqrt(1e5) N s/m in the force form (Canudas
** de Wit's set, [Spatial revolute paper]) and sigma1 = 0 in the normalised form (our
** choice for [Sci. Rep. 2023]), sigma2 = 0.
*/
mech_friction_law mech_friction_default(mech_friction_type type)
{
    mech_friction_law law = {
        .type = type,
        .mu = 0,
        .mu_s = 0,
        .v_reg = 1e-4,
        .v_eps = 1e-5,
        .v0 = 1e-4,
        .v1 = 1e-3,
        .vs = 1e-3,
        .delta = 2,
        .sigma0 = 1e5,
        .sigma1 = type == MECH_FRICTION_LUGRE ? sqrt(1e5) : 0,
        .sigma2 = 0,
        .reg = MECH_FRICTION_REG_NONE,
        .bounded = 0,
        .keep_bristles = 0,
    };
    return law;
}

const char *mech_friction_name(mech_friction_type type)
{
    return (unsigned)type < MECH_FRICTION_COUNT ? friction_names[type] : "unknown";
}

const char *mech_friction_reg_name(mech_friction_reg reg)
{
    return (unsigned)reg < MECH_FRICTION_REG_COUNT ? reg_names[reg] : "unknown";
}

mech_friction_reg mech_friction_regularization(const mech_friction_law *law)
{
    switch (law->type) {
    case MECH_FRICTION_COULOMB_LINEAR: return MECH_FRICTION_REG_LINEAR;
    case MECH_FRICTION_COULOMB_TANH: return MECH_FRICTION_REG_TANH;
    case MECH_FRICTION_COULOMB:
    case MECH_FRICTION_STRIBECK: return law->reg;
    default: return MECH_FRICTION_REG_NONE;
    }
}

mech_status mech_friction_check(const mech_friction_law *law, mech_error *err)
{
    if ((unsigned)law->type >= MECH_FRICTION_COUNT)
        return mech_error_set(err, MECH_ERR_ARG, "unknown friction law type %d", (int)law->type);
    unsigned u = friction_uses(law);
    if ((u & USES_REG) && (unsigned)law->reg >= MECH_FRICTION_REG_COUNT)
        return mech_error_set(err, MECH_ERR_ARG, "unknown regularization %d", (int)law->reg);
    if (law->bounded && !(u & USES_BOUNDED) && (u & USES_BRISTLES))
        return mech_error_set(err, MECH_ERR_ARG,
                              "bounded is for dahl and the force form of lugre, not the "
                              "normalized form");
    /* the bounds that are other parameters say their values */
    char mu_s_must[40], v1_must[40];
    snprintf(mu_s_must, sizeof mu_s_must, ">= mu = %g", law->mu);
    snprintf(v1_must, sizeof v1_must, "> v0 = %g", law->v0);
    const rule rules[] = {
        {u & USES_MU, nonnegative(law->mu), "mu", ">= 0", law->mu},
        {u & USES_MU_S, nonnegative(law->mu_s) && law->mu_s >= law->mu, "mu_s", mu_s_must,
         law->mu_s},
        {u & USES_V_REG, positive(law->v_reg), "v_reg", "> 0", law->v_reg},
        {u & USES_V_EPS, positive(law->v_eps), "v_eps", "> 0", law->v_eps},
        {u & USES_V0, positive(law->v0), "v0", "> 0", law->v0},
        {u & USES_V1, positive(law->v1) && law->v1 > law->v0, "v1", v1_must, law->v1},
        {u & USES_STRIBECK, positive(law->vs), "vs", "> 0", law->vs},
        {u & USES_STRIBECK, positive(law->delta), "delta", "> 0", law->delta},
        {u & USES_SIGMA0, positive(law->sigma0), "sigma0", "> 0", law->sigma0},
        {u & USES_SIGMA1, nonnegative(law->sigma1), "sigma1", ">= 0", law->sigma1},
        {u & USES_SIGMA2, nonnegative(law->sigma2), "sigma2", ">= 0", law->sigma2},
    };
    return first_failure(rules, sizeof rules / sizeof rules[0], err);
}

int mech_friction_states(const mech_friction_law *law)
{
    return (friction_uses(law) & USES_SIGMA0) != 0;
}

/* Bo-Pavelescu's Stribeck curve mu + (mu_s - mu) exp(-(s/vs)^delta), mu_s at s = 0. */
static double stribeck(const mech_friction_law *law, double s)
{
    return law->mu + (law->mu_s - law->mu) * exp(-pow(s / law->vs, law->delta));
}

/* The cubic step from h0 at x0 to h1 at x1 (ADAMS's STEP): h0 + (h1 - h0) d^2 (3 - 2 d). */
static double cubic_step(double x, double x0, double h0, double x1, double h1)
{
    if (x <= x0) return h0;
    if (x >= x1) return h1;
    double d = (x - x0) / (x1 - x0);
    return h0 + (h1 - h0) * d * d * (3 - 2 * d);
}

/*
** The friction coefficient in sliding at speed s > 0, without the viscous term (the
** steady value for Dahl and LuGre); at s = 0 it is the limit s -> 0+.  Ambrosio's law is
** [Wang et al. 2025, Eq. 26] with its printed last branch "1" read as mu_d: the
** coefficient stays mu above v1 (the "1" mixes the correction-factor form mu c_d(v),
** whose c_d goes to 1).
*/
static double sliding_coefficient(const mech_friction_law *law, double s)
{
    switch (law->type) {
    case MECH_FRICTION_NONE: return 0;
    case MECH_FRICTION_COULOMB_LINEAR: return law->mu * fmin(s / law->v_reg, 1);
    case MECH_FRICTION_COULOMB_TANH: return law->mu * tanh(s / law->v_reg);
    case MECH_FRICTION_AMBROSIO:
        return s <= law->v0   ? 0
               : s >= law->v1 ? law->mu
                              : law->mu * (s - law->v0) / (law->v1 - law->v0);
    case MECH_FRICTION_THRELFALL: return law->mu * (1 - exp(-3 * s / law->v0));
    case MECH_FRICTION_ADAMS: /* odd through 0 below v0, as ADAMS writes it */
        return s < law->v0 ? cubic_step(s, -law->v0, -law->mu_s, law->v0, law->mu_s)
                           : cubic_step(s, law->v0, law->mu_s, law->v1, law->mu);
    case MECH_FRICTION_STRIBECK:
    case MECH_FRICTION_LUGRE:
    case MECH_FRICTION_LUGRE_NORMALIZED: return stribeck(law, s);
    default: return law->mu; /* Coulomb, the kinetic branch of stick, Dahl */
    }
}

/* 1 when a Coulomb or Stribeck law regularises sgn(v) through the field reg (the types
** MECH_FRICTION_COULOMB_LINEAR and _TANH have theirs in sliding_coefficient, as before). */
static int regularised(const mech_friction_law *law)
{
    return (law->type == MECH_FRICTION_COULOMB || law->type == MECH_FRICTION_STRIBECK) &&
           law->reg != MECH_FRICTION_REG_NONE;
}

/* The factor r(s) of the regularised sign, s = |v| >= 0: 0 at s = 0, 1 well above v_reg. */
static double reg_factor(const mech_friction_law *law, double s)
{
    switch (law->reg) {
    case MECH_FRICTION_REG_LINEAR: return fmin(s / law->v_reg, 1);
    case MECH_FRICTION_REG_TANH: return tanh(s / law->v_reg);
    case MECH_FRICTION_REG_SQRT: return s / hypot(s, law->v_reg); /* s / sqrt(s^2 + v_reg^2) */
    default: return 1;
    }
}

/* Euclidean norm of dim components, scaled so that tiny and huge speeds keep their size. */
static double norm(const double *v, int dim)
{
    double m = 0, s = 0;
    for (int i = 0; i < dim; i++) m = fmax(m, fabs(v[i]));
    if (!(m > 0) || !isfinite(m)) return m;
    for (int i = 0; i < dim; i++) s += (v[i] / m) * (v[i] / m);
    return m * sqrt(s);
}

/*
** The bounded form of a force-form bristle law (see mech_friction_force): g > 0 the
** sliding force, rate = sigma0 |v| / g finite, 1 <= dim <= MECH_FRICTION_MAX_DIM.
*/
static void bounded_force(const mech_friction_law *law, int dim, const double *v, const double *z,
                          double g, double rate, double sigma1, double sigma2, double fn, double *f,
                          double *zdot)
{
    double zc[MECH_FRICTION_MAX_DIM] = {0}, fb[MECH_FRICTION_MAX_DIM] = {0};
    double zmax = g / law->sigma0;
    for (int i = 0; i < dim; i++) zc[i] = z ? z[i] : 0;
    double zn = norm(zc, dim);
    if (zn > zmax)
        for (int i = 0; i < dim; i++) zc[i] *= zmax / zn;
    for (int i = 0; i < dim; i++) {
        double zd = v[i] - rate * zc[i];
        if (zdot) zdot[i] = zd;
        fb[i] = law->sigma0 * zc[i] + sigma1 * zd;
    }
    double fs = (law->type == MECH_FRICTION_DAHL ? law->mu : law->mu_s) * fn;
    double fbn = norm(fb, dim);
    if (fbn > fs)
        for (int i = 0; i < dim; i++) fb[i] *= fs / fbn;
    for (int i = 0; i < dim; i++) f[i] = -(fb[i] + sigma2 * v[i]);
}

/*
** Memoryless laws: f = -(mu(|v|) fn + sigma2 |v|) v/|v|, and 0 at v = 0 (Coulomb's
** sgn(0) = 0).  The vector form is isotropic: the direction is v/|v| in the tangent plane.
** A regularised Coulomb or Stribeck law (reg) multiplies that magnitude by r(|v|).
**
** Bristle laws (Dahl, LuGre), per component of the bristle deflection z:
**     z' = v - sigma0 |v| z / g,     f = -(sigma0 z + sigma1 z' + sigma2 v) [times fn in the
**                                     normalised form]
** with g = mu fn (Dahl), g = (Stribeck curve) fn (LuGre) or the Stribeck curve alone
** (normalised LuGre), and sigma1 = sigma2 = 0 for Dahl.  In steady sliding z = g v/(sigma0
** |v|) and f is the Coulomb or Stribeck force plus sigma2 v; for displacements much
** smaller than g/sigma0 the bristle is a spring, f = -sigma0 x.
**
** The bristle equation is stiff: z relaxes at the rate sigma0 |v| / g [1/s], about
** 1e7 |v| for sigma0 = 1e5 and g = 0.01, and without bound as fn -> 0 at the start of a
** contact.  Explicit integrators need steps below about 2.8 g / (sigma0 |v|); the contact
** element may instead reset z at the onset and clamp |z| <= g/sigma0 after each step.
**
** The bounded form (Dahl and force-form LuGre, law->bounded) applies that clamp inside the
** right-hand side, to the vector z: the deflection used is zc = z held within the ball
** |zc| <= g/sigma0 (the sliding value), so that the rate term sigma0 |v| zc / g is at most
** |v| and |z'| <= 2 |v| however small g; and the bristle force fb = sigma0 zc + sigma1 z' is
** limited to the static force Fs (mu fn for Dahl, mu_s fn for LuGre), so that f never exceeds
** Fs + sigma2 |v|.  The plain law's damping term sigma1 z' ~ sigma1 v does not vanish with
** fn: at the start and end of a contact, with fn of micronewtons, it gives forces of tens of
** newtons.  Inside both bounds the operations are those of the plain law (same bits).
**
** No law acts without normal force: fn <= 0 (no contact) gives f = 0 and freezes the
** bristles (z' = 0), as does g = 0 or a rate that is not finite.
*/
void mech_friction_force(const mech_friction_law *law, int dim, const double *v, double fn,
                         const double *z, double *f, double *zdot)
{
    int bristles = mech_friction_states(law);
    for (int i = 0; i < dim; i++) {
        f[i] = 0;
        if (bristles && zdot) zdot[i] = 0;
    }
    double s = norm(v, dim);
    if (!(fn > 0) || !isfinite(s)) return;
    if (!bristles) {
        if (!(s > 0)) return;
        double viscous = law->type == MECH_FRICTION_STRIBECK ? law->sigma2 * s : 0;
        double mag = sliding_coefficient(law, s) * fn + viscous;
        if (regularised(law)) mag *= reg_factor(law, s);
        for (int i = 0; i < dim; i++) f[i] = -mag * (v[i] / s);
        return;
    }
    int dahl = law->type == MECH_FRICTION_DAHL;
    int normalized = law->type == MECH_FRICTION_LUGRE_NORMALIZED;
    double g = sliding_coefficient(law, s) * (normalized ? 1 : fn);
    double rate = law->sigma0 * s / g;
    if (!(g > 0) || !isfinite(rate)) return;
    double sigma1 = dahl ? 0 : law->sigma1, sigma2 = dahl ? 0 : law->sigma2;
    if (law->bounded && !normalized) {
        if (dim > MECH_FRICTION_MAX_DIM) return; /* outside the documented range: no force */
        bounded_force(law, dim, v, z, g, rate, sigma1, sigma2, fn, f, zdot);
        return;
    }
    double scale = normalized ? fn : 1;
    for (int i = 0; i < dim; i++) {
        double zi = z ? z[i] : 0, zd = v[i] - rate * zi;
        if (zdot) zdot[i] = zd;
        f[i] = -scale * (law->sigma0 * zi + sigma1 * zd + sigma2 * v[i]);
    }
}

/*
** |f| / fn in steady sliding at speed s: the sliding coefficient plus the viscous term,
** taken at fn = 1 N for the force-form laws (Stribeck, LuGre), whose sigma2 is in N s/m.
** At s = 0 the limit s -> 0+; for the stick law mu_s up to v_eps (the largest stick force),
** mu above.
*/
double mech_friction_coefficient(const mech_friction_law *law, double s)
{
    s = fabs(s);
    if (law->type == MECH_FRICTION_STICK && s <= law->v_eps) return law->mu_s;
    double viscous = friction_uses(law) & USES_SIGMA2 ? law->sigma2 * s : 0;
    double c = sliding_coefficient(law, s) + viscous;
    return regularised(law) ? c * reg_factor(law, s) : c;
}

/* ---- contact stiffness -------------------------------------------------------------------- */

/* h = (1 - nu^2)/E of one body; NaN unless E > 0 and -1 < nu < 0.5. */
static double compliance(double E, double nu)
{
    return positive(E) && nu > -1 && nu < 0.5 ? (1 - nu * nu) / E : NAN;
}

/* sigma_i + sigma_j of [Wang et al. 2025, Eq. 16], sigma = (1 - nu^2) / (pi E). */
static double sigma_sum(double E1, double nu1, double E2, double nu2)
{
    return (compliance(E1, nu1) + compliance(E2, nu2)) / PI;
}

double mech_stiffness_sphere(double E1, double nu1, double E2, double nu2, double R1, double R2,
                             int concave)
{
    /* 1/R from the curvatures, so that a plane (R = INFINITY) has curvature 0. */
    double curvature = concave ? 1 / R2 - 1 / R1 : 1 / R1 + 1 / R2;
    if (!(R1 > 0 && R2 > 0 && curvature > 0 && isfinite(curvature))) return NAN;
    return 4 / (3 * PI * sigma_sum(E1, nu1, E2, nu2)) * sqrt(1 / curvature);
}

double mech_stiffness_journal(double E1, double nu1, double E2, double nu2, double Rb, double Rj)
{
    return mech_stiffness_sphere(E1, nu1, E2, nu2, Rb, Rj, 1);
}

double mech_stiffness_punch(double E1, double nu1, double E2, double nu2, double a)
{
    return positive(a) ? a / (0.475 * sigma_sum(E1, nu1, E2, nu2)) : NAN;
}

/*
** Wu et al.'s fits for a contact area S with side or edge ratio r: K = sqrt(S) / (sigma_i +
** sigma_j) / (c1 / (r + c2) + c3).  For a square (r = 1) the rectangle's last factor is
** 1/0.9523, the flat-punch value 1/0.95 (Eq. 19 with S = (2a)^2).
*/
static double area_fit(double sigma, double S, double a, double b, double c1, double c2, double c3)
{
    if (!(positive(S) && positive(a) && positive(b))) return NAN;
    return sqrt(S) / sigma / (c1 / (a / b + c2) + c3);
}

double mech_stiffness_rectangle(double E1, double nu1, double E2, double nu2, double S, double a,
                                double b)
{
    return area_fit(sigma_sum(E1, nu1, E2, nu2), S, a, b, 11.15, 15.72, 0.2854);
}

double mech_stiffness_triangle(double E1, double nu1, double E2, double nu2, double S, double a,
                               double b)
{
    return area_fit(sigma_sum(E1, nu1, E2, nu2), S, a, b, 9.924, 14.70, 0.2731);
}

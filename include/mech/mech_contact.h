/* SPDX-License-Identifier: MIT */
/*
** libmech contact and friction laws: the published force laws as pure functions, and
** contact stiffness from geometry and materials.  Every contact element of libmech
** (point against surface, clearance joints, FE nodes against a guide) takes any normal
** law and any friction law from here.
**
** Conventions.  d >= 0 is the penetration [m]; dd its rate [m/s], positive while the
** bodies approach; vi > 0 the penetration rate when the contact began (the impact speed,
** captured by an event at the onset and kept until the contact ends; the papers write it
** v0 or delta-dot-minus, and in libmech v0 is only ever the threshold speed of the
** Ambrosio and Threlfall friction laws).  Normal
** forces are never negative (no law pulls).  The tangential velocity v is that of the
** body the friction force acts on, relative to the other surface; the friction force
** opposes it.  Units are SI.
*/
#ifndef MECH_CONTACT_H
#define MECH_CONTACT_H

#include "mech_core.h"

/* ---- normal laws ------------------------------------------------------------------------ */

typedef enum mech_normal_type {
    MECH_NORMAL_KELVIN_VOIGT = 0,    ///< max(K d + c dd, 0), spring-damper [Zheng & Wang, Eq. 1]
    MECH_NORMAL_HERTZ,               ///< K d^n, elastic
    MECH_NORMAL_HUNT_CROSSLEY,       ///< K d^n + b d^p sgn(dd)|dd|^q [Wang et al. 2025, Eq. 14]
    MECH_NORMAL_HC_RESTITUTION,      ///< Hunt-Crossley 1975: K d^n (1 + 3(1 - e)/2 dd/vi)
    MECH_NORMAL_LANKARANI_NIKRAVESH, ///< K d^n (1 + 3(1 - e^2)/4 dd/vi)
                                     ///< [Spatial revolute paper, Eqs. 7-9]
    MECH_NORMAL_FLORES,              ///< Flores et al. 2011: K d^n (1 + 8(1 - e)/(5 e) dd/vi)
    MECH_NORMAL_GONTHIER,            ///< Gonthier et al. 2004: K d^n (1 + (1 - e^2)/e dd/vi)
    MECH_NORMAL_HU_GUO,              ///< Hu and Guo 2015: K d^n (1 + 3(1 - e)/(2 e) dd/vi); the
                                     ///< "modified" model of [Sci. Rep. 2023]
} mech_normal_type;

#define MECH_NORMAL_COUNT 8

typedef struct mech_normal_law {
    mech_normal_type type;
    double K;     ///< stiffness [N/m^n]
    double n;     ///< exponent of the elastic part (1 linear, 1.5 Hertz point contact)
    double c;     ///< Kelvin-Voigt damping [N s/m]; Hunt-Crossley general: b
    double p, q;  ///< Hunt-Crossley general: exponents of d and dd in the damping term
    double e;     ///< coefficient of restitution (restitution-based laws), 0 < e <= 1
    double v_min; ///< the impact speed used is max(vi, v_min) [m/s] (default 1e-4)
} mech_normal_law;

/// A law of the given type with the defaults: n = 1.5 (1 for Kelvin-Voigt), v_min = 1e-4.
mech_normal_law mech_normal_default(mech_normal_type type);

/// Name of a type as the Lua API spells it ("lankarani_nikravesh").
const char *mech_normal_name(mech_normal_type type);

/// 1 when the law uses the impact velocity (restitution-based laws).
int mech_normal_uses_impact(const mech_normal_law *law);

/// Checks the parameters; the message names the parameter ("K must be > 0 (got -1)").
mech_status mech_normal_check(const mech_normal_law *law, mech_error *err);

/*
** Normal force for penetration d (>= 0) and rate dd, with impact speed vi (ignored by
** laws that do not use it).  Never negative.  *elastic (if not NULL) receives the
** conservative part K d^n, whose integral mech_normal_energy is the stored energy: the
** difference (force - elastic) * dd >= 0 is the power the law dissipates.
*/
double mech_normal_force(const mech_normal_law *law, double d, double dd, double vi,
                         double *elastic);

/// Energy stored at penetration d: K d^(n+1) / (n + 1).
double mech_normal_energy(const mech_normal_law *law, double d);

/// Restitution-based laws: the factor h in K d^n (1 + h dd/vi); 0 for the others.
double mech_normal_hysteresis(const mech_normal_law *law);

/* ---- friction laws ------------------------------------------------------------------------ */

typedef enum mech_friction_type {
    MECH_FRICTION_NONE = 0,
    MECH_FRICTION_COULOMB,        ///< -mu F_n sgn(v), sgn(0) = 0
    MECH_FRICTION_COULOMB_LINEAR, ///< -mu F_n v/v_reg, saturated at |v| = v_reg
    MECH_FRICTION_COULOMB_TANH,   ///< -mu F_n tanh(v/v_reg)
    MECH_FRICTION_STICK,          ///< static mu_s / kinetic mu: the kinetic force for |v| > v_eps;
                                  ///< below it the contact element sticks by the trial-and-error
                                  ///< algorithm of [Zheng & Wang, Eq. 13] (not pure)
    MECH_FRICTION_AMBROSIO,       ///< 0 below v0, ramp to mu at v1, mu above
                                  ///< [Wang et al. 2025, Eq. 26]
    MECH_FRICTION_THRELFALL,      ///< -mu F_n (1 - exp(-3|v|/v0)) sgn(v) (Threlfall 1978)
    MECH_FRICTION_STRIBECK,       ///< Bo-Pavelescu: [mu + (mu_s - mu) exp(-(|v|/vs)^delta)] F_n
                                  ///< sgn(v) + sigma2 v [Spatial revolute paper, Eqs. 12-13]
    MECH_FRICTION_DAHL,           ///< z' = v - sigma0 |v| z / (mu F_n), F = -sigma0 z
                                  ///< [Spatial revolute paper, Eq. 14]
    MECH_FRICTION_LUGRE,          ///< z' = v - sigma0 |v| z / g(v), F = -(sigma0 z + sigma1 z' +
                                  ///< sigma2 v), g = (mu + (mu_s - mu) exp(-(v/vs)^2)) F_n
                                  ///< [Spatial revolute paper, Eqs. 15-16]
    MECH_FRICTION_LUGRE_NORMALIZED, ///< the same with g = mu + (mu_s - mu) exp(-(v/vs)^2): the
                                    ///< output is the coefficient, F = -(sigma0 z + sigma1 z' +
                                    ///< sigma2 v) F_n [Sci. Rep. 2023]
    MECH_FRICTION_ADAMS,            ///< static and dynamic, smooth (as MSC ADAMS's): a cubic step
                                    ///< from 0 at v = 0 to mu_s at v0 (the stiction speed), one
                                    ///< from mu_s at v0 to mu at v1, mu above
} mech_friction_type;

#define MECH_FRICTION_COUNT 12

/*
** Regularisation of sgn(v) = v/|v| in Coulomb and Stribeck friction: the force's magnitude is
** multiplied by r(|v|), which goes from 0 at v = 0 to 1 at speeds well above v_reg.
** MECH_FRICTION_COULOMB_LINEAR and MECH_FRICTION_COULOMB_TANH are Coulomb friction with the
** first two (kept as types of their own; they do not read mech_friction_law.reg).
*/
typedef enum mech_friction_reg {
    MECH_FRICTION_REG_NONE = 0, ///< r = 1 (sgn(0) = 0)
    MECH_FRICTION_REG_LINEAR,   ///< r = min(|v|/v_reg, 1)
    MECH_FRICTION_REG_TANH,     ///< r = tanh(|v|/v_reg)
    MECH_FRICTION_REG_SQRT,     ///< r = |v| / sqrt(|v|^2 + v_reg^2)
} mech_friction_reg;

#define MECH_FRICTION_REG_COUNT 4

typedef struct mech_friction_law {
    mech_friction_type type;
    double mu;     ///< kinetic (dynamic) coefficient
    double mu_s;   ///< static coefficient (stick, Stribeck, LuGre)
    double v_reg;  ///< regularisation velocity [m/s] (linear, tanh, or with reg)
    double v_eps;  ///< stick: below this speed the contact may stick [m/s] (default 1e-5)
    double v0, v1; ///< Ambrosio: ramp from v0 to v1 [m/s]; Threlfall: v0; ADAMS: the stiction
                   ///< and the transition speeds
    double vs;     ///< Stribeck velocity [m/s]
    double delta;  ///< Stribeck exponent (default 2)
    double sigma0; ///< bristle stiffness [N/m] (Dahl, LuGre) or [1/m] (normalised LuGre)
    double sigma1; ///< bristle damping [N s/m] or [s/m]
    double sigma2; ///< viscous coefficient [N s/m] or [s/m]

    mech_friction_reg reg; ///< Coulomb and Stribeck: regularisation of sgn(v) (default none)
    int bounded;           ///< Dahl and force-form LuGre: 1 for the bounded form (default 0, the
                           ///< plain equations; see mech_friction_force)
    int keep_bristles;     ///< Dahl and LuGre: 1 keeps the bristle state from one contact to the
                           ///< next, 0 (default) resets it to 0 at each contact onset
} mech_friction_law;

/// A law of the given type with the defaults; the regularisation, the bounded form and the
/// keeping of bristles are off (reg = MECH_FRICTION_REG_NONE, bounded = keep_bristles = 0).
mech_friction_law mech_friction_default(mech_friction_type type);
const char *mech_friction_name(mech_friction_type type);
/// Name of a regularisation as the Lua API spells it ("none", "linear", "tanh", "sqrt").
const char *mech_friction_reg_name(mech_friction_reg reg);
/// The regularisation the law applies: law->reg for Coulomb and Stribeck, linear and tanh for
/// MECH_FRICTION_COULOMB_LINEAR and _TANH, none for the other laws.
mech_friction_reg mech_friction_regularization(const mech_friction_law *law);
mech_status mech_friction_check(const mech_friction_law *law, mech_error *err);

/// Bristle states the law needs per tangent direction (1 for Dahl and LuGre, else 0).
int mech_friction_states(const mech_friction_law *law);

/// The largest dim mech_friction_force takes.
#define MECH_FRICTION_MAX_DIM 3

/*
** Friction force on the body whose velocity relative to the other surface is v (dim
** components in the tangent plane: 1 in planar contacts, 2 in spatial ones; at most
** MECH_FRICTION_MAX_DIM), under the normal force fn >= 0.  f receives dim components
** opposing v.  For laws with bristle states, z holds them (dim values) and zdot receives
** their rates; z and zdot may be NULL for the other laws.  Vector forms are the isotropic
** generalisations (sgn(v) = v/|v|).
** For MECH_FRICTION_STICK this is the kinetic branch.  With fn <= 0 (no contact) every law
** gives f = 0 and the bristle states are frozen (zdot = 0).
**
** The bounded form of Dahl and force-form LuGre (law->bounded), with g the sliding force
** (mu fn, or the Stribeck force) and Fs the static force (mu fn for Dahl, mu_s fn for LuGre):
**     zc = z, or z (g/sigma0)/|z| when |z| > g/sigma0
**     z' = v - sigma0 |v| zc / g
**     fb = sigma0 zc + sigma1 z', scaled down to |fb| = Fs when larger;  f = -(fb + sigma2 v)
** It is the plain law while |z| <= g/sigma0 and |fb| <= Fs (steady sliding, pre-sliding),
** and keeps |z'| <= 2|v| and |f| <= Fs + sigma2 |v| when fn is small.
*/
void mech_friction_force(const mech_friction_law *law, int dim, const double *v, double fn,
                         const double *z, double *f, double *zdot);

/// Coefficient |f| / fn in steady sliding at speed s >= 0 (for plots and tests); at s = 0 the
/// limit s -> 0+ (stick: mu_s up to v_eps; 0 with a regularisation).  The viscous term
/// sigma2 s of the force-form laws (Stribeck, LuGre: sigma2 in N s/m) is taken at fn = 1 N; a
/// regularised Stribeck law multiplies the sum by r(s).  The bounded form of Dahl and LuGre
/// has the plain law's steady coefficient.
double mech_friction_coefficient(const mech_friction_law *law, double s);

/* ---- contact stiffness from geometry and materials ------------------------------------------- */

/*
** Materials enter as Young's modulus E [Pa] and Poisson's ratio nu of each body.
** h = (1 - nu^2) / E per body ([Wang et al. 2025] write sigma = h / pi).
*/

/// Hertz spheres [Wang et al. 2025, Eqs. 15-17]: K = 4 / (3 (h1 + h2)) sqrt(R) [N/m^1.5] with
/// R = R1 R2 / (R1 + R2) (convex-convex), R1 R2 / (R1 - R2) (concave: R1 the hollow one),
/// R1 for a plane (R2 = INFINITY).
double mech_stiffness_sphere(double E1, double nu1, double E2, double nu2, double R1, double R2,
                             int concave);

/// Journal of radius Rj in a bearing of radius Rb > Rj, as used with the Hertz-type laws in
/// the revolute-clearance literature: the concave sphere formula with R = Rb Rj/(Rb - Rj)
/// ([Flores & Ambrosio 2004]; gives K ~ 6.6e10 N/m^1.5 for steel, 10 and 9.5 mm) [N/m^1.5].
double mech_stiffness_journal(double E1, double nu1, double E2, double nu2, double Rb, double Rj);

/// Flat square punch of side 2a ([Flores et al. 2008]; [Wang et al. 2025, Eq. 19]):
/// K = a / (0.475 (sigma1 + sigma2)), sigma = h / pi [N/m].
double mech_stiffness_punch(double E1, double nu1, double E2, double nu2, double a);

/// Rectangular contact area S with side ratio a/b ([Wu et al. 2020]; [Wang et al. 2025,
/// Eqs. 20-21]) [N/m].
double mech_stiffness_rectangle(double E1, double nu1, double E2, double nu2, double S, double a,
                                double b);

/// Triangular contact area S with edge ratio a/b ([Wu et al. 2020]; [Wang et al. 2025,
/// Eq. 22]) [N/m].
double mech_stiffness_triangle(double E1, double nu1, double E2, double nu2, double S, double a,
                               double b);

#endif

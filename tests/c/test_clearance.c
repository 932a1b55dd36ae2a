/* SPDX-License-Identifier: MIT */
/*
** Joints with clearance from C alone: benchmark A with a journal in a bearing at the
** piston pin.  The contact's rates are the time derivatives of its geometry, the joint
** adds degrees of freedom and no equation, and nothing is allocated while it steps.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contact.h" /* contact_event, contact_gap: white box */
#include "mech.h"
#include "models.h"
#include "registry.h"
#include "tap.h"

#define SPEED 523.5987755982989 /* 5000 rpm */

static double channel(mech_system *sys, const char *name)
{
    mech_channel ch;
    mech_error err;
    if (mech_channel_lookup(sys, name, &ch, &err) != MECH_OK) {
        diag("%s", err.msg);
        return NAN;
    }
    return mech_channel_value(sys, &ch);
}

/* Allocations made by a dopri5 run of t_end seconds (the model built and finalized first). */
static long allocations_for(double t_end)
{
    mech_error err;
    mech_clearance_def pin = model_benchmark_a_journal();
    mech_system *sys = model_slider_crank_pin(SPEED, &pin, &err);
    static const char *const ch[] = {"slider.x", "pin.fn", "pin.exb", "pin.impacts"};
    long used = -1;
    if (sys && mech_system_finalize(sys, &err) == MECH_OK)
        used = model_run_allocations(sys, MECH_DOPRI5, 0, t_end, ch, 4, &err);
    if (used < 0) diag("%s", err.msg);
    mech_system_destroy(sys);
    return used;
}

/* A bar of 0.2 m hung by one end on a journal (0.5 mm of radial clearance) in a bearing on
** the ground at the origin, driven to turn at 10 rad/s about its centre of mass, at rest as
** given (or with the journal placed `off` below the bearing's centre).  Not finalized. */
static mech_system *driven_bar(mech_start start, double off, mech_error *err)
{
    mech_system *sys;
    if (mech_system_create(&sys, NULL, err)) return NULL;
    mech_body_def b = mech_body_default();
    b.name = "bar", b.mass = 1, b.inertia = 1e-2, b.pos[0] = 0.1, b.pos[1] = -off;
    int bar;
    mech_status st = mech_body_add(sys, &b, &bar, err);
    mech_joint_def j = mech_joint_default();
    j.name = "pivot", j.body_a = MECH_GROUND, j.body_b = bar, j.pb[0] = -0.1;
    j.enforce = MECH_CLEARANCE, j.clearance = model_benchmark_a_journal();
    if (!st) st = mech_joint_add(sys, &j, NULL, err);
    mech_driver_def d = mech_driver_default();
    d.type = MECH_DRIVE_BODY_ANGLE, d.target = bar, d.speed = 10, d.name = "motor";
    if (!st) st = mech_driver_add(sys, &d, NULL, err);
    if (!st) st = mech_system_set_start(sys, start, err);
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/* How joints with clearance start: the default rule, the ideal start and the note. */
static void starts(void)
{
    mech_error err;
    double y[64];
    char note[400];
    mech_system *sys = driven_bar(MECH_START_AUTO, 0, &err);
    ok(sys && mech_system_start(sys) == MECH_START_IDEAL,
       "at rest and centred as given, a model with clearance starts ideal by default");
    if (!ok(sys && mech_system_finalize(sys, &err) == MECH_OK, "and assembles"))
        diag("%s", err.msg);
    mech_system_initial_state(sys, y, &err);
    /* the ideal pin at the origin: the centre of mass turns about it at 10 rad/s */
    is_num(y[4], 10 * 0.1, 1e-12, "the bar's centre moves as about the ideal pin");
    ok(fabs(y[3]) < 1e-12 && y[5] == 10, "its velocity is the ideal mechanism's");
    ok(!mech_system_start_note(sys, note, sizeof note) && note[0] == '\0',
       "no note for a consistent start");
    mech_system_destroy(sys);

    sys = driven_bar(MECH_START_AS_GIVEN, 0, &err);
    mech_system_finalize(sys, &err);
    mech_system_initial_state(sys, y, &err);
    ok(y[3] == 0 && y[4] == 0 && y[5] == 10, "as given, the centre of mass stays at rest");
    ok(mech_system_start_note(sys, note, sizeof note), "and the start is noted");
    is_str(note,
           "revolute 'pivot' starts with its journal moving at 1 m/s across its clearance of "
           "0.0005 m, while the mechanism's fastest point moves at 1 m/s: the first impact comes "
           "from the start (above 0.1 m/s, what the mechanism itself gives it across the "
           "clearance)",
           "naming the joint and the speeds");
    mech_system_destroy(sys);

    sys = driven_bar(MECH_START_AUTO, 0.3e-3, &err);
    ok(sys && mech_system_start(sys) == MECH_START_AS_GIVEN,
       "a journal placed off centre starts as given by default");
    mech_system_destroy(sys);
    sys = driven_bar(MECH_START_IDEAL, 0.3e-3, &err);
    mech_system_finalize(sys, &err);
    mech_system_initial_state(sys, y, &err);
    is_num(y[1], 0, 1e-15, "start ideal centres it");
    mech_system_destroy(sys);

    sys = driven_bar(MECH_START_AUTO, 0, &err);
    ok(mech_system_set_start(sys, (mech_start)7, &err) == MECH_ERR_ARG &&
           strcmp(err.msg, "system: unknown start 7") == 0,
       "an unknown start is refused");
    mech_system_destroy(sys);

    /* benchmark A's model gives its velocities: as given, unchanged */
    mech_clearance_def pin = model_benchmark_a_journal();
    sys = model_slider_crank_pin(SPEED, &pin, &err);
    ok(sys && mech_system_start(sys) == MECH_START_AS_GIVEN,
       "benchmark A (velocities given) starts as given");
    mech_system_destroy(sys);
}

/*
** A contact's end located where the gap is exactly 0 (the integrator locates an end just where
** the gap has its new sign, >= 0): the contact ends there.  It once stayed active, and the next
** onset (its impact velocity, its count, fresh bristles) was lost.  White box: contact_event on
** the journal placed on the bearing's wall to the last bit.
*/
static void end_at_zero_gap(void)
{
    mech_error err;
    double y[64], off = 0.5e-3, gap = 1;
    mech_system *sys = NULL;
    /* the journal below the bearing's centre by off, moved by ulps until the gap is 0 */
    for (int i = 0; i < 64 && gap != 0; i++) {
        mech_system_destroy(sys);
        sys = driven_bar(MECH_START_AS_GIVEN, off, &err);
        if (sys == NULL || mech_system_finalize(sys, &err) != MECH_OK) break;
        mech_system_initial_state(sys, y, &err);
        gap = contact_gap(sys, 0, y);
        off = gap > 0 ? nextafter(off, 1.0) : nextafter(off, 0.0);
    }
    if (!ok(sys && gap == 0, "a state with the journal's gap exactly 0")) {
        mech_system_destroy(sys);
        return;
    }
    contact *c = &sys->contacts[0];
    c->active = 1;
    int changed = contact_event(sys, 0, 0.0, y);
    ok(changed == 1 && c->active == 0, "an end located at gap 0 ends the contact");
    long impacts = c->impacts;
    changed = contact_event(sys, 0, 0.0, y);
    ok(changed == 1 && c->active == 1 && c->impacts == impacts + 1,
       "and an onset located at gap 0 begins one, counted");
    mech_system_destroy(sys);
}

int main(void)
{
    starts();
    end_at_zero_gap();
    mech_error err;
    mech_clearance_def pin = model_benchmark_a_journal();
    mech_system *sys = model_slider_crank_pin(SPEED, &pin, &err);
    if (!ok(sys != NULL && mech_system_finalize(sys, &err) == MECH_OK,
            "benchmark A with a clearance at the piston pin assembles"))
        diag("%s", err.msg);
    ok(mech_system_dof(sys) == 2, "the joint with clearance leaves 2 more degrees of freedom");
    ok(mech_system_count(sys, MECH_KIND_CONTACT) == 1, "it owns one contact");
    int id;
    ok(mech_system_find(sys, "pin.journal", &id) == MECH_KIND_CONTACT, "named pin.journal");

    /* the penetration rate and the eccentricity are the time derivatives of the geometry:
    ** central differences along the motion y + s y' from a state where the journal is off
    ** centre and moving (the rod moved by (0.2, -0.3) mm, a velocity added) */
    int n = mech_system_nstate(sys), nc = mech_system_ncoord(sys);
    double y[64], ydot[64], yp[64], ym[64];
    mech_system_initial_state(sys, y, &err);
    int rod = 3; /* the rod's coordinates: after the crank's */
    y[rod] += 0.2e-3, y[rod + 1] -= 0.3e-3, y[nc + rod] += 1.5, y[nc + rod + 1] -= 0.7;
    y[nc + rod + 2] += 40;
    mech_system_rhs(sys, 0, y, ydot);
    const double h = 1e-7;
    for (int i = 0; i < n; i++) yp[i] = y[i] + h * ydot[i], ym[i] = y[i] - h * ydot[i];
    mech_system_evaluate(sys, 0, yp, &err);
    double gp = channel(sys, "pin.gap"), ep = channel(sys, "pin.e");
    mech_system_evaluate(sys, 0, ym, &err);
    double gm = channel(sys, "pin.gap"), em = channel(sys, "pin.e");
    mech_system_evaluate(sys, 0, y, &err);
    double rate = channel(sys, "pin.rate");
    diag("rate %.9g m/s, |e| %.6g m", rate, channel(sys, "pin.e"));
    /* truncation ~h^2 |e'''| / 6 with accelerations of 1e4 m/s^2 and jerks below 1e9:
    ** ~2e-6 m/s; rounding ~1e-16 m / 1e-7 s = 1e-9 m/s */
    is_num(rate, -(gp - gm) / (2 * h), 1e-5, "pin.rate is -d(gap)/dt");
    is_num(rate, (ep - em) / (2 * h), 1e-5, "and d|e|/dt: the penetration is |e| - c");
    is_num(channel(sys, "pin.e") - 0.5e-3, -channel(sys, "pin.gap"), 1e-18,
           "the gap is the clearance minus |e|");
    double ex = channel(sys, "pin.ex"), ey = channel(sys, "pin.ey");
    is_num(hypot(ex, ey), channel(sys, "pin.e"), 1e-18, "e = |(ex, ey)|");
    /* the bearing is on the slider, which the guide keeps level: its frame is the world's */
    ok(channel(sys, "pin.exb") == ex && channel(sys, "pin.eyb") == ey,
       "exb, eyb equal ex, ey in a bearing that does not turn");

    long a1 = allocations_for(0.003), a2 = allocations_for(0.012);
    if (!ok(a1 >= 0 && a1 == a2, "allocations do not grow with the steps and impacts"))
        diag("%ld vs %ld allocations", a1, a2);

    mech_system_destroy(sys);
    return done_testing();
}

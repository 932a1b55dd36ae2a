/* SPDX-License-Identifier: MIT */
/* A small deterministic generator for the C tests (xorshift64*): the same samples on every
** machine, each test file with its own seed. */
#ifndef MECH_TEST_UNIFORM_H
#define MECH_TEST_UNIFORM_H

/* Uniform in [lo, hi), advancing *state (any non-zero seed). */
static inline double uniform_next(unsigned long long *state, double lo, double hi)
{
    unsigned long long s = *state;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    *state = s;
    double x = (double)((s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
    return lo + (hi - lo) * x;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
** Allocation fault injection, for tests: compiled in only with the build option
** MECH_FAULT_INJECTION (on in the sanitizer build).  Every allocation that may fail,
** libmech's (mech_malloc, mech_calloc, mech_realloc) and the Lua state's (growing a
** block), asks mech_fault_point first; once armed, the k-th such allocation from then on
** fails (and, in mode MECH_FAULT_FAIL, every later one until disarmed), or raises SIGINT
** as Ctrl-C would and goes on (MECH_FAULT_INTERRUPT).  mechlua's Lua module
** `faultinject` drives it.  Not thread-safe: tests run one thread.
*/
#ifndef MECH_FAULT_H
#define MECH_FAULT_H

#ifdef MECH_FAULT_INJECTION

/// What an armed fault point does at its allocation.
typedef enum mech_fault_mode {
    MECH_FAULT_FAIL,     /* that allocation and every later one fail until disarmed */
    MECH_FAULT_ONCE,     /* only that allocation fails */
    MECH_FAULT_INTERRUPT /* raise(SIGINT) there; the allocation succeeds */
} mech_fault_mode;

/// Arms the k-th allocation from now (k >= 1) and restarts the count.
void mech_fault_arm(long k, mech_fault_mode mode);

/// Disarms; returns the number of allocations counted since the last arm.
long mech_fault_disarm(void);

/// Allocations counted since the last arm (or since start).
long mech_fault_count(void);

/// Called once per allocation that may fail: counts it; 1 when it must fail.
int mech_fault_point(void);

#endif

#endif

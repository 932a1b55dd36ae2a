/* SPDX-License-Identifier: MIT */
#include <stdatomic.h>
#include <stdlib.h>

#include "mech_core.h"
#include "mech_fault.h"

static atomic_long allocations;

#ifdef MECH_FAULT_INJECTION
#include <signal.h>

static long fault_count;  /* allocations since the last arm */
static long fault_target; /* the one to act on (0: disarmed) */
static mech_fault_mode fault_mode;

void mech_fault_arm(long k, mech_fault_mode mode)
{
    fault_count = 0;
    fault_target = k > 0 ? k : 1;
    fault_mode = mode;
}

long mech_fault_disarm(void)
{
    fault_target = 0;
    return fault_count;
}

long mech_fault_count(void)
{
    return fault_count;
}

int mech_fault_point(void)
{
    long n = ++fault_count;
    if (fault_target == 0 || n < fault_target) return 0;
    switch (fault_mode) {
    case MECH_FAULT_FAIL: return 1;
    case MECH_FAULT_ONCE: return n == fault_target;
    case MECH_FAULT_INTERRUPT:
        fault_target = 0; /* once */
        raise(SIGINT);
        return 0;
    }
    return 0;
}
#define FAULT() mech_fault_point()
#else
#define FAULT() 0
#endif

void *mech_malloc(size_t size)
{
    if (FAULT()) return NULL;
    void *p = malloc(size ? size : 1);
    if (p) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return p;
}

void *mech_calloc(size_t count, size_t size)
{
    if (FAULT()) return NULL;
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return p;
}

void *mech_realloc(void *ptr, size_t size)
{
    if (FAULT()) return NULL;
    void *p = realloc(ptr, size ? size : 1);
    if (p) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return p;
}

void mech_free(void *ptr)
{
    free(ptr);
}

long mech_alloc_count(void)
{
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

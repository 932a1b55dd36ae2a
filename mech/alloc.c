/* SPDX-License-Identifier: MIT */
#include <stdatomic.h>
#include <stdlib.h>

#include "mech_core.h"

static atomic_long allocations;

void *mech_malloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (p) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return p;
}

void *mech_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return p;
}

void *mech_realloc(void *ptr, size_t size)
{
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

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * How many threads to run when the caller names none: the one place that
 * asks the system for its cores.
 */
#ifndef MM_CORE_CORES_H
#define MM_CORE_CORES_H

#include <unistd.h>

/* One thread per online core: 1 when the system does not say, 64 at
 * most (the most any thread pool here runs). */
static inline int cores_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

#endif

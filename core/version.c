/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "mmtree/mmtree.h"

#include "config.h"

const char *mm_version(void)
{
    return MM_VERSION;
}

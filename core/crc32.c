/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* CRC-32 (core/crc32.h): zlib's, which is this CRC and runs at gigabytes
 * a second; a checkpoint of 8 GiB is checked on every save and resume. */
#include "crc32.h"

#include <limits.h>
#include <zlib.h>

uint32_t crc32_update(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    uLong c = crc;
    while (n) {   /* zlib counts in uInt */
        uInt k = n > UINT_MAX ? UINT_MAX : (uInt)n;
        c = crc32(c, b, k);
        b += k;
        n -= k;
    }
    return (uint32_t)c;
}

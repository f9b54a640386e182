/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* CRC-32 (core/crc32.h), four bits at a time. */
#include "crc32.h"

uint32_t crc32_update(uint32_t crc, const void *p, size_t n)
{
    static const uint32_t tab[16] = {
        0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
        0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
        0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
        0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
    };
    const unsigned char *b = p;
    uint32_t c = crc ^ 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        c = (c >> 4) ^ tab[c & 15];
        c = (c >> 4) ^ tab[c & 15];
    }
    return c ^ 0xFFFFFFFFu;
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * What the tests and fuzz targets that make or check binary files need:
 * a CRC-32 computed bit by bit from its definition (ISO-HDLC, as
 * format/binary.md and compiler/checkpoint.md give it), an oracle apart
 * from the table-driven core/crc32.c it checks, and a little-endian
 * store.
 */
#ifndef MM_TESTS_BYTES_H
#define MM_TESTS_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t crc32_bitwise(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static inline void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

#endif

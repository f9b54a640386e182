/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * What the tests and fuzz targets that make or check binary files need:
 * a CRC-32 computed bit by bit from its definition (ISO-HDLC, as
 * format/binary.md and compiler/checkpoint.md give it), an oracle apart
 * from zlib's, which core/crc32.c calls, and a little-endian
 * store.
 */
#ifndef MM_TESTS_BYTES_H
#define MM_TESTS_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* A fuzz target's step: one(data), then, when it has room for a
 * trailer, one on a copy whose last four bytes are the CRC-32 of the
 * rest, so mutations reach the fields behind the checksum. */
static inline void fuzz_with_crc(void (*one)(const uint8_t *, size_t),
                                 const uint8_t *data, size_t size)
{
    one(data, size);
    if (size < 4)
        return;
    uint8_t *fixed = malloc(size);
    if (!fixed)
        return;
    memcpy(fixed, data, size);
    put_le32(fixed + size - 4, crc32_bitwise(fixed, size - 4));
    one(fixed, size);
    free(fixed);
}

#endif

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Little-endian fields of the binary tree format (format/binary.md) and of
 * checkpoints (compiler/checkpoint.md): the one place that reads and
 * writes them, byte by byte, so neither the host's byte order nor its
 * alignment matters.
 */
#ifndef MM_CORE_LE_H
#define MM_CORE_LE_H

#include <stdint.h>

static inline uint32_t le_read16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t le_read32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t le_read64(const unsigned char *p)
{
    return (uint64_t)le_read32(p) | (uint64_t)le_read32(p + 4) << 32;
}

static inline void le_write16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static inline void le_write32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline void le_write64(unsigned char *p, uint64_t v)
{
    le_write32(p, (uint32_t)v);
    le_write32(p + 4, (uint32_t)(v >> 32));
}

#endif

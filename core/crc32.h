/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * CRC-32 as in ISO-HDLC, zlib and PNG: reflected polynomial 0xEDB88320,
 * initial value 0xFFFFFFFF, the result complemented.  The CRC of the
 * ASCII bytes "123456789" is 0xCBF43926.  The checksum of the binary tree
 * format (format/binary.md) and of checkpoints (compiler/checkpoint.md).
 */
#ifndef MM_CORE_CRC32_H
#define MM_CORE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of the bytes crc covered, followed by p[0..n): start from 0. */
uint32_t crc32_update(uint32_t crc, const void *p, size_t n);

#endif

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the checkpoint reader (compiler/opt_ckpt.c), as a search
 * of MM(3,3) under the rule optimal would read it.  Any input must be
 * loaded or refused whole without a crash, leak or sanitizer report, a
 * refusal with a message; one that loads is exactly as long as the
 * entries its trailer counts (after a header of its version's length),
 * and one of version 3 says its time leaves runs out.  Each input is
 * also tried with its last four bytes replaced by the right checksum, so
 * mutations reach the fields behind it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/opt.h"
#include "tests/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* MM(3,3), rule optimal: its keys and id, made once. */
static const ockpt_id *search_id(void)
{
    static mm_game g;
    static oshared sh;
    static ockpt_id id;
    static mm_code all[27];
    static int ready;
    if (!ready) {
        mm_diag d;
        if (mm_game_init(&g, 3, 3, true, &d) || oshared_init(&sh, &g, 0))
            abort();
        for (mm_code x = 0; x < 27; x++)
            all[x] = x;
        ockpt_id_init(&id, &sh, 0, false, 0, all, 27);
        ready = 1;
    }
    return &id;
}

static void one(const uint8_t *data, size_t size)
{
    ocache c;
    mm_diag d;
    uint64_t loaded;
    ockpt_time t;
    mm_diag_clear(&d);
    if (ocache_init(&c, (size_t)1 << 16))
        abort();
    if (ockpt_read(&c, data, size, search_id(), &loaded, &t, &d) == MM_OK) {
        /* version 3: a header of 40 bytes, without the time; 4: 56 */
        if (size != (data[8] == 3 ? 52 : 68) + 32 * loaded || (data[8] == 3) != t.partial)
            abort();
    } else if (!d.msg[0]) {
        abort();   /* every refusal says why */
    }
    ocache_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_with_crc(one, data, size);
    return 0;
}

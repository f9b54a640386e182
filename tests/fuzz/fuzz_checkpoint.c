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
 *
 * Each input is read as a file too by mm_checkpoint_header (its header
 * alone: the same search as the whole read's when that succeeds) and by
 * mm_checkpoint_read, which checks it against the game its own header
 * gives and writes the facts about sets
 * of 16 codes or more to another file: refused with a message and nothing
 * written, or counted consistently, the file written holding exactly the
 * facts it says.
 */
#define _GNU_SOURCE   /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compiler/opt.h"
#include "mmtree/compile.h"
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
        /* version 3: a header of 40 bytes, without the time, so partial;
         * 4: 56, partial as its flag says */
        bool partial = data[8] == 3 || (data[52] & 1u);
        if (size != (data[8] == 3 ? 52 : 68) + 32 * loaded || partial != t.partial)
            abort();
    } else if (!d.msg[0]) {
        abort();   /* every refusal says why */
    }
    ocache_release(&c);
}

/* Where the input is put to be read as a file (in_fd, a file in
 * memory, named in_path), and the file written. */
static int in_fd = -1;
static char in_path[64], out_path[64];

static void remove_out(void) { unlink(out_path); }

static void files(void)
{
    if (in_fd >= 0)
        return;
    if ((in_fd = memfd_create("checkpoint", 0)) < 0)
        abort();
    snprintf(in_path, sizeof in_path, "/proc/self/fd/%d", in_fd);
    snprintf(out_path, sizeof out_path, "/tmp/fuzz-checkpoint-%ld.ckpt", (long)getpid());
    atexit(remove_out);
}

static void as_file(const uint8_t *data, size_t size)
{
    files();
    if (ftruncate(in_fd, 0) || pwrite(in_fd, data, size, 0) != (ssize_t)size)
        abort();
    unlink(out_path);
    mm_checkpoint_info in, again, head;
    mm_diag d;
    mm_diag_clear(&d);
    mm_status hs = mm_checkpoint_header(in_path, &head, &d);
    if (hs && !d.msg[0])
        abort();
    mm_diag_clear(&d);
    if (mm_checkpoint_read(in_path, out_path, 16, &in, &d) != MM_OK) {
        if (!d.msg[0] || access(out_path, F_OK) == 0)
            abort();   /* every refusal says why, and writes nothing */
        return;
    }
    /* a file read whole has a header that reads alone, the same */
    if (hs || head.pegs != in.pegs || head.colors != in.colors || head.repeat != in.repeat ||
        head.rule != in.rule || head.consistent_only != in.consistent_only ||
        head.max_depth != in.max_depth || head.whole_game != in.whole_game || head.facts)
        abort();
    uint64_t sum = 0, exact = 0;
    for (int k = 0; k < 21; k++) {
        sum += in.facts_by_size[k];
        exact += in.exact_by_size[k];
    }
    if (sum != in.facts || exact != in.exact || in.exact > in.facts || in.written > in.facts)
        abort();
    /* the file written: the same game, exactly the facts of 16 codes up */
    if (mm_checkpoint_read(out_path, NULL, 0, &again, &d) != MM_OK || again.facts != in.written ||
        again.pegs != in.pegs || again.colors != in.colors || again.rule != in.rule)
        abort();
    for (int k = 0; k < 4; k++)
        if (again.facts_by_size[k])
            abort();
    if (again.facts_by_size[4] > in.facts_by_size[4])
        abort();
    for (int k = 5; k < 21; k++)
        if (again.facts_by_size[k] != in.facts_by_size[k])
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_with_crc(one, data, size);
    as_file(data, size);
    return 0;
}

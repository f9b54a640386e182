/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * mmtree-mpi's messages: rank 0 coordinates (compiler/opt_spread.c) and
 * reaches the workers through an olink over MPI; every other rank runs a
 * worker (an ounit) and answers.  Rank 0 runs a worker of its own too,
 * reached in the process.
 */
#ifndef MM_MPI_LINK_H
#define MM_MPI_LINK_H

#include <stdint.h>

#include "compiler/opt_unit.h"

typedef struct mpi_link {
    int size;           /* ranks; worker r is rank r, worker 0 in rank 0 */
    ounit *local;
    ounit_bell *bell;
    uint64_t sent[2];   /* bytes and messages this rank sent */
    uint64_t *buf;      /* what was received last */
    size_t cap;
} mpi_link;

/* Rank 0: the link to the workers of all ranks, its own worker on
 * threads threads among them; MM_OK or out of memory. */
mm_status mpi_link_init(mpi_link *l, const mm_game *g, const mm_compile_opts *o, int threads,
                        olink *link);
/* Tell the other ranks to end and read what they still send up to
 * their answer; the bytes and messages all ranks sent into sent[0] and
 * sent[1]. */
void mpi_link_quit(mpi_link *l, uint64_t sent[2]);
void mpi_link_release(mpi_link *l);

/* Any other rank: a worker until rank 0 says to end.  What it sent
 * goes to rank 0's mpi_link_quit.  g NULL: this rank could not read the
 * command line, and fails every task it is handed. */
void mpi_worker(const mm_game *g, const mm_compile_opts *o, int threads);

#endif

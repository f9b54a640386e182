/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * mmtree-mpi's messages (link.h).  Every message is an array of 64-bit
 * words from one rank to another, so that ranks of any byte order agree:
 *
 *   TASK    rank 0 -> worker  id, kind | consistent << 8 | ties << 9,
 *                             depth, limit, path length, then a word a
 *                             step: guess | reply << 32
 *   SIGNAL  rank 0 -> worker  id, limit (OV_ABORT: cancel)
 *   QUIT    rank 0 -> worker  nothing: end
 *           worker -> rank 0  its answer, last: bytes and messages it sent
 *   RESULT  worker -> rank 0  id, value, guess, limit, sets searched,
 *                             status, facts, message bytes, then 5 words
 *                             a fact (h1, h2, value, guess | n << 32,
 *                             depth | flags << 8), then the message
 *
 * Rank 0 reads every message up to each worker's QUIT (one rank's
 * messages arrive in the order sent): the results of units it no longer
 * waits for are dropped, not left unread when MPI ends (MPICH warns of
 * those).
 *
 * Ranks wait for messages by polling (MPI_Iprobe) between short sleeps,
 * so that a waiting rank costs no core: Open MPI's blocking receives spin.
 */
#include "link.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/grow.h"

enum { TAG_TASK = 1, TAG_SIGNAL, TAG_QUIT, TAG_RESULT };

#define HEAD_TASK 5
#define HEAD_RESULT 8
#define FACT_WORDS 5
/* Seconds between looks for a message.  A worker without a task looks
 * often (its next task is what it waits for), one with a task seldom
 * (only a tighter limit or a cancellation can come); rank 0 in between.
 * Units of a millisecond on MM(4,7) kept the second rank idle half the
 * time with 0.5 ms; looking every 0.1 ms costs rank 0 a few % of a core. */
#define WAIT_RANK0 0.0002
#define WAIT_IDLE 0.0001
#define WAIT_BUSY 0.001

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wait until a task of this rank ends, or a moment. */
static void pause_for(ounit_bell *bell, unsigned seen, double wait)
{
    if (bell) {
        ounit_bell_wait(bell, seen, wait);
    } else {
        struct timespec ts = {0, (long)(wait * 1e9)};
        nanosleep(&ts, NULL);
    }
}

/* sent[0] counts the bytes, sent[1] the messages */
static void send_words(uint64_t *sent, const uint64_t *w, size_t n, int to, int tag)
{
    MPI_Send(w, (int)n, MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
    sent[0] += n * sizeof *w;
    sent[1]++;
}

/* A message waiting from rank from (or any): its words into *buf; the
 * number of words, or -1 when none waits. */
static long receive(uint64_t **buf, size_t *cap, int from, int *src, int *tag)
{
    int flag;
    MPI_Status st;
    MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return -1;
    int count;
    MPI_Get_count(&st, MPI_UINT64_T, &count);
    uint64_t *b = grow_array(*buf, cap, (size_t)count + 1, 256, sizeof *b);
    if (!b)
        abort();   /* a few words short of memory: nothing left to say it with */
    *buf = b;
    MPI_Recv(b, count, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    *src = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    return count;
}

/* ---- tasks ---- */

static void send_task(mpi_link *l, int to, const otask *t)
{
    uint64_t w[HEAD_TASK + OTASK_MAX_PATH];
    w[0] = t->id;
    w[1] = (uint64_t)t->kind | (uint64_t)t->consistent << 8 | (uint64_t)t->ties << 9;
    w[2] = (uint64_t)t->depth;
    w[3] = t->limit;
    w[4] = (uint64_t)t->plen;
    for (int i = 0; i < t->plen; i++)
        w[HEAD_TASK + i] = t->guess[i] | (uint64_t)t->reply[i] << 32;
    send_words(l->sent, w, HEAD_TASK + (size_t)t->plen, to, TAG_TASK);
}

static bool read_task(const uint64_t *w, long n, otask *t)
{
    if (n < HEAD_TASK || w[4] > OTASK_MAX_PATH || n != HEAD_TASK + (long)w[4])
        return false;
    memset(t, 0, sizeof *t);
    t->id = w[0];
    t->kind = (int)(w[1] & 0xff);
    t->consistent = w[1] >> 8 & 1;
    t->ties = w[1] >> 9 & 1;
    t->depth = (int)w[2];
    t->limit = w[3];
    t->plen = (int)w[4];
    for (int i = 0; i < t->plen; i++) {
        t->guess[i] = (mm_code)w[HEAD_TASK + i];
        t->reply[i] = (uint8_t)(w[HEAD_TASK + i] >> 32);
    }
    return true;
}

/* ---- results ---- */

static void send_result(uint64_t *sent, uint64_t **buf, size_t *cap, const oresult *r)
{
    size_t mlen = strlen(r->msg), mwords = (mlen + 7) / 8;
    size_t n = HEAD_RESULT + (size_t)r->nfacts * FACT_WORDS + mwords;
    uint64_t *w = grow_array(*buf, cap, n, 256, sizeof *w);
    if (!w)
        abort();
    *buf = w;
    w[0] = r->id;
    w[1] = r->v;
    w[2] = r->guess;
    w[3] = r->limit;
    w[4] = r->nodes;
    w[5] = (uint64_t)r->status;
    w[6] = r->nfacts;
    w[7] = mlen;
    uint64_t *f = w + HEAD_RESULT;
    for (uint32_t i = 0; i < r->nfacts; i++, f += FACT_WORDS) {
        const ofact *x = &r->facts[i];
        f[0] = x->h1;
        f[1] = x->h2;
        f[2] = x->v;
        f[3] = x->guess | (uint64_t)x->n << 32;
        f[4] = x->depth | (uint64_t)x->flags << 8;
    }
    memset(f, 0, mwords * sizeof *f);
    memcpy(f, r->msg, mlen);
    send_words(sent, w, n, 0, TAG_RESULT);
}

static bool read_result(const uint64_t *w, long n, oresult *r)
{
    memset(r, 0, sizeof *r);
    if (n < HEAD_RESULT || w[6] > (uint64_t)n / FACT_WORDS || w[7] >= sizeof r->msg ||
        (uint64_t)n != HEAD_RESULT + w[6] * FACT_WORDS + (w[7] + 7) / 8)
        return false;
    r->id = w[0];
    r->v = w[1];
    r->guess = (mm_code)w[2];
    r->limit = w[3];
    r->nodes = w[4];
    r->status = (mm_status)w[5];
    r->nfacts = (uint32_t)w[6];
    if (r->nfacts && !(r->facts = malloc(r->nfacts * sizeof *r->facts)))
        return false;
    const uint64_t *f = w + HEAD_RESULT;
    for (uint32_t i = 0; i < r->nfacts; i++, f += FACT_WORDS)
        r->facts[i] = (ofact){f[0], f[1], f[2], (mm_code)f[3], (uint32_t)(f[3] >> 32),
                              (uint8_t)f[4], (uint8_t)(f[4] >> 8)};
    memcpy(r->msg, f, w[7]);
    r->msg[w[7]] = '\0';
    return true;
}

/* ---- rank 0 ---- */

static mm_status link_start(void *arg, int r, const otask *t, mm_diag *d)
{
    mpi_link *l = arg;
    (void)d;
    if (r == 0)
        ounit_start(l->local, t);
    else
        send_task(l, r, t);
    return MM_OK;
}

static mm_status link_signal(void *arg, int r, uint64_t id, oval limit, mm_diag *d)
{
    mpi_link *l = arg;
    (void)d;
    if (r == 0) {
        ounit_signal(l->local, id, limit);
    } else {
        uint64_t w[2] = {id, limit};
        send_words(l->sent, w, 2, r, TAG_SIGNAL);
    }
    return MM_OK;
}

static int link_poll(void *arg, double wait, int *r, oresult *res, mm_diag *d)
{
    mpi_link *l = arg;
    double end = now() + wait;
    for (;;) {
        unsigned seen = ounit_bell_rings(l->bell);
        if (ounit_poll(l->local, res)) {
            *r = 0;
            return 1;
        }
        int src, tag;
        long n = receive(&l->buf, &l->cap, MPI_ANY_SOURCE, &src, &tag);
        if (n >= 0) {
            if (tag != TAG_RESULT || !read_result(l->buf, n, res)) {
                mm_diag_set(d, MM_ERR_INPUT, "rank %d sent a message rank 0 cannot read", src);
                return -1;
            }
            *r = src;
            return 1;
        }
        double left = end - now();
        if (left <= 0)
            return 0;
        pause_for(l->bell, seen, left < WAIT_RANK0 ? left : WAIT_RANK0);
    }
}

mm_status mpi_link_init(mpi_link *l, const mm_game *g, const mm_compile_opts *o, int threads,
                        olink *link)
{
    memset(l, 0, sizeof *l);
    MPI_Comm_size(MPI_COMM_WORLD, &l->size);
    l->bell = ounit_bell_new();
    if (!l->bell || ounit_new(g, o, threads, l->bell, &l->local))
        return MM_ERR_NOMEM;
    *link = (olink){l->size, l, link_start, link_signal, link_poll, "rank"};
    return MM_OK;
}

void mpi_link_quit(mpi_link *l, uint64_t sent[2])
{
    for (int r = 1; r < l->size; r++)
        send_words(l->sent, NULL, 0, r, TAG_QUIT);
    sent[0] = l->sent[0];
    sent[1] = l->sent[1];
    for (int left = l->size - 1; left > 0;) {
        int src, tag;
        long n = receive(&l->buf, &l->cap, MPI_ANY_SOURCE, &src, &tag);
        if (n < 0) {
            pause_for(NULL, 0, WAIT_RANK0);
        } else if (tag == TAG_QUIT) {
            if (n == 2) {
                sent[0] += l->buf[0];
                sent[1] += l->buf[1];
            }
            left--;
        }
    }
}

void mpi_link_release(mpi_link *l)
{
    ounit_free(l->local);
    ounit_bell_free(l->bell);
    free(l->buf);
    memset(l, 0, sizeof *l);
}

/* ---- the other ranks ---- */

/* A worker that could not start fails every task it gets, saying why:
 * rank 0 ends the job with that message. */
static void refuse(uint64_t *sent, uint64_t **buf, size_t *cap, uint64_t id, const char *why)
{
    oresult r;
    memset(&r, 0, sizeof r);
    r.id = id;
    r.v = OV_ABORT;
    r.status = MM_ERR_NOMEM;
    snprintf(r.msg, sizeof r.msg, "%s", why);
    send_result(sent, buf, cap, &r);
}

void mpi_worker(const mm_game *g, const mm_compile_opts *o, int threads)
{
    uint64_t sent[2] = {0, 0}, *buf = NULL, *out = NULL;
    size_t cap = 0, ocap = 0;
    ounit_bell *bell = ounit_bell_new();
    ounit *u = NULL;
    bool busy = false;
    const char *why = g ? "out of memory setting up the search"
                        : "cannot take the command line rank 0 took";
    if (bell && g)
        (void)ounit_new(g, o, threads, bell, &u);
    for (;;) {
        unsigned seen = bell ? ounit_bell_rings(bell) : 0;
        int src, tag;
        long n = receive(&buf, &cap, 0, &src, &tag);
        if (n >= 0 && tag == TAG_QUIT)
            break;
        if (n >= 0 && tag == TAG_TASK) {
            otask t;
            if (!u || !read_task(buf, n, &t))
                refuse(sent, &out, &ocap, n > 0 ? buf[0] : 0, why);
            else
                ounit_start(u, &t), busy = true;
        } else if (n == 2 && tag == TAG_SIGNAL && u) {
            ounit_signal(u, buf[0], buf[1]);
        }
        oresult r;
        if (u && ounit_poll(u, &r)) {
            send_result(sent, &out, &ocap, &r);
            oresult_release(&r);
            busy = false;
        } else if (n < 0) {
            pause_for(bell, seen, busy ? WAIT_BUSY : WAIT_IDLE);
        }
    }
    ounit_free(u);
    ounit_bell_free(bell);
    free(buf);
    free(out);
    MPI_Send(sent, 2, MPI_UINT64_T, 0, TAG_QUIT, MPI_COMM_WORLD);
}

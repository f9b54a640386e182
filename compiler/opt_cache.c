/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The table of solved code sets, shared by the threads (its checkpoint
 * file: opt_ckpt.c).
 *
 * Buckets of four entries; a lookup or store locks the bucket's stripe
 * (a spin lock: the critical sections are a few loads).  A full bucket
 * gives up its entry of fewest codes, the cheapest to find again.
 *
 * The table is reserved at its full size but used from a small prefix,
 * doubled whenever it is half full: a search of MM(4,6) stores some ten
 * thousand sets, one of MM(5,6) tens of millions, and every page first
 * touched costs a fault and a page of zeros (a sixth of the MM(4,6)
 * search when the table was used whole).  The thread whose store fills
 * half of it doubles it with every stripe locked, moving each entry to
 * its bucket under the new size (half of them stay), so that a lookup
 * reads one bucket: when entries stayed where they were stored, one that
 * missed (most do) read a bucket under every size the table had had.
 * A store or lookup that read the size just before the doubling may miss
 * or put an entry where no lookup reads it: the table only forgets, as
 * it does when a bucket is full.  A table filled from a checkpoint is
 * sized for its entries first, and a save keeps the size as it is.
 *
 * The table is asked for huge pages: its lookups land anywhere in
 * gigabytes, and with 4 KiB pages each one also missed the TLB and
 * walked page tables that do not fit in the caches.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define WAYS 4
#define BASE_BYTES ((size_t)1 << 20)

mm_status ocache_init(ocache *c, size_t bytes)
{
    memset(c, 0, sizeof *c);
    uint64_t buckets = 1, base = 1;
    while (buckets * 2 * WAYS * sizeof(oentry) <= bytes)
        buckets *= 2;
    while (base < buckets && base * 2 * WAYS * sizeof(oentry) <= BASE_BYTES)
        base *= 2;
    /* zero pages mapped on demand, as the prefix in use grows */
    c->bytes = buckets * WAYS * sizeof *c->e;
    void *p = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    c->e = p == MAP_FAILED ? NULL : p;
#ifdef MADV_HUGEPAGE
    if (c->e)
        (void)madvise(p, c->bytes, MADV_HUGEPAGE);   /* a hint: refused, 4 KiB pages */
#endif
    c->nlocks = 1u << 12;
    c->locks = malloc(c->nlocks * sizeof *c->locks);
    if (!c->e || !c->locks) {
        ocache_release(c);
        return MM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < c->nlocks; i++)
        atomic_flag_clear(&c->locks[i]);
    c->cap_mask = buckets - 1;
    atomic_init(&c->mask, base - 1);
    atomic_init(&c->used, 0);
    atomic_flag_clear(&c->sizing);
    return MM_OK;
}

void ocache_release(ocache *c)
{
    if (c->e)
        munmap(c->e, c->bytes);
    free(c->locks);
    memset(c, 0, sizeof *c);
}

void ocache_reserve(ocache *c, uint64_t entries)
{
    if (!c->e || atomic_load(&c->used))
        return;
    uint64_t m = atomic_load(&c->mask);
    while (m < c->cap_mask && (m + 1) * WAYS / 2 < entries)
        m = 2 * m + 1;
    atomic_store(&c->mask, m);
}

static inline void lock(ocache *c, uint64_t b)
{
    atomic_flag *l = &c->locks[b & (c->nlocks - 1)];
    while (atomic_flag_test_and_set_explicit(l, memory_order_acquire))
        ;
}

static inline void unlock(ocache *c, uint64_t b)
{
    atomic_flag_clear_explicit(&c->locks[b & (c->nlocks - 1)], memory_order_release);
}

bool ocache_get(ocache *c, uint64_t h1, uint64_t h2, int depth, oentry *out)
{
    if (!c->e)
        return false;
    uint64_t k = ocache_key1(h1, depth);
    uint64_t b = k & atomic_load_explicit(&c->mask, memory_order_acquire);
    const oentry *e = c->e + b * WAYS;
    bool found = false;
    lock(c, b);
    for (int i = 0; i < WAYS; i++)
        if (e[i].h1 == k && e[i].h2 == h2 && e[i].n) {
            *out = e[i];
            found = true;
            break;
        }
    unlock(c, b);
    return found;
}

void ocache_prefetch(ocache *c, uint64_t h1, int depth)
{
    if (!c->e)
        return;
    uint64_t b = ocache_key1(h1, depth) & atomic_load_explicit(&c->mask, memory_order_relaxed);
    const char *e = (const char *)(c->e + b * WAYS);
    _Static_assert(WAYS * sizeof(oentry) == 128, "a bucket is two cache lines");
    __builtin_prefetch(e);
    __builtin_prefetch(e + 64);
}

/* Double the table in use from m + 1 buckets, unless another thread
 * is doing it or a save is under way: every stripe locked, bucket b's
 * entries that belong to bucket b + m + 1 under the new size go there
 * (it has never been used: empty). */
static void grow(ocache *c, uint64_t m)
{
    if (atomic_flag_test_and_set_explicit(&c->sizing, memory_order_acquire))
        return;
    if (atomic_load(&c->mask) != m) {
        atomic_flag_clear_explicit(&c->sizing, memory_order_release);
        return;
    }
    for (uint32_t i = 0; i < c->nlocks; i++)
        lock(c, i);
    const uint64_t wide = 2 * m + 1;
    for (uint64_t b = 0; b <= m; b++) {
        oentry *e = c->e + b * WAYS, *to = c->e + (b + m + 1) * WAYS;
        for (int i = 0; i < WAYS; i++)
            if (e[i].n && (e[i].h1 & wide) != b) {
                *to++ = e[i];
                memset(&e[i], 0, sizeof e[i]);
            }
    }
    atomic_store_explicit(&c->mask, wide, memory_order_release);
    for (uint32_t i = 0; i < c->nlocks; i++)
        unlock(c, i);
    atomic_flag_clear_explicit(&c->sizing, memory_order_release);
}

/* Is the new fact better than the one kept? */
static bool better(uint64_t newmeta, uint64_t oldmeta)
{
    unsigned nf = (unsigned)(newmeta >> 62), of = (unsigned)(oldmeta >> 62);
    if ((of & OC_EXACT) && !(nf & OC_EXACT))
        return false;
    if ((nf & OC_EXACT) && !(of & OC_EXACT))
        return true;
    if (nf & OC_EXACT)
        return (nf & OC_CANON) && !(of & OC_CANON);
    return (newmeta & OV_MASK) > (oldmeta & OV_MASK);
}

/* Store entry e (key as stored, depth mixed in) in its bucket; double
 * the size once half of it is in use. */
static void insert(ocache *c, const oentry *ne)
{
    uint64_t m = atomic_load_explicit(&c->mask, memory_order_relaxed);
    uint64_t b = ne->h1 & m;
    oentry *e = c->e + b * WAYS;
    bool filled = false;
    lock(c, b);
    int victim = -1;
    for (int i = 0; i < WAYS; i++) {
        if (e[i].h1 == ne->h1 && e[i].h2 == ne->h2 && e[i].n) {
            /* the same fact with a guess where there was none (a
             * feasibility fact of an older checkpoint) is better too */
            if (better(ne->meta, e[i].meta) ||
                (ne->meta == e[i].meta && e[i].guess == MM_NO_CODE)) {
                e[i].meta = ne->meta;
                e[i].guess = ne->guess;
            }
            unlock(c, b);
            return;
        }
        if (victim < 0 || e[i].n < e[victim].n)
            victim = i;
    }
    if (e[victim].n <= ne->n || !e[victim].n) {
        filled = !e[victim].n;
        e[victim] = *ne;
    }
    unlock(c, b);
    if (filled && atomic_fetch_add_explicit(&c->used, 1, memory_order_relaxed) + 1 >
                      (m + 1) * WAYS / 2 && m < c->cap_mask)
        grow(c, m);
}

void ocache_put(ocache *c, uint64_t h1, uint64_t h2, int depth, uint32_t n,
                oval v, unsigned flags, mm_code guess)
{
    if (!c->e)
        return;
    oentry e = {ocache_key1(h1, depth), h2,
                (v & OV_MASK) | (uint64_t)depth << 56 | (uint64_t)flags << 62, guess, n};
    insert(c, &e);
}

/* ---- whole-table access, for checkpoints ---- */

void ocache_hold_size(ocache *c)
{
    while (atomic_flag_test_and_set_explicit(&c->sizing, memory_order_acquire))
        ;
}

void ocache_release_size(ocache *c)
{
    atomic_flag_clear_explicit(&c->sizing, memory_order_release);
}

uint64_t ocache_slots(ocache *c)
{
    return c->e ? (atomic_load(&c->mask) + 1) * WAYS : 0;
}

bool ocache_entry(ocache *c, uint64_t i, oentry *out)
{
    uint64_t b = i / WAYS;
    lock(c, b);
    *out = c->e[i];
    unlock(c, b);
    return out->n != 0;
}

void ocache_put_entry(ocache *c, const oentry *e)
{
    if (c->e)
        insert(c, e);
}

/*
 * The table of solved code sets, shared by the threads, and its
 * checkpoint file.
 *
 * Buckets of four entries; a lookup or store locks the bucket's stripe
 * (a spin lock: the critical sections are a few loads).  A full bucket
 * gives up its entry of fewest codes, the cheapest to find again.
 *
 * The table is reserved at its full size but used from a small prefix,
 * doubled whenever it is half full: a search of MM(4,6) stores some ten
 * thousand sets, one of MM(5,6) tens of millions, and every page first
 * touched costs a fault and a page of zeros (a sixth of the MM(4,6)
 * search when the table was used whole).  Entries stay where they were
 * stored; a lookup tries the bucket under the current size, then under
 * each smaller one.
 */
#include "opt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WAYS 4
#define VALUE_MASK (((uint64_t)1 << 54) - 1)
#define BASE_BYTES ((size_t)1 << 20)

mm_status ocache_init(ocache *c, size_t bytes)
{
    memset(c, 0, sizeof *c);
    uint64_t buckets = 1, base = 1;
    while (buckets * 2 * WAYS * sizeof(oentry) <= bytes)
        buckets *= 2;
    while (base < buckets && base * 2 * WAYS * sizeof(oentry) <= BASE_BYTES)
        base *= 2;
    /* calloc of this size maps zero pages on demand */
    c->e = calloc(buckets * WAYS, sizeof *c->e);
    c->nlocks = 1u << 12;
    c->locks = malloc(c->nlocks * sizeof *c->locks);
    if (!c->e || !c->locks) {
        ocache_release(c);
        return MM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < c->nlocks; i++)
        atomic_flag_clear(&c->locks[i]);
    c->cap_mask = buckets - 1;
    c->base_mask = base - 1;
    atomic_init(&c->mask, base - 1);
    atomic_init(&c->used, 0);
    return MM_OK;
}

void ocache_release(ocache *c)
{
    free(c->e);
    free(c->locks);
    memset(c, 0, sizeof *c);
}

/* The depth limit is part of the key. */
static inline uint64_t key1(uint64_t h1, int depth)
{
    return h1 ^ ((uint64_t)(depth + 1) * 0x9e3779b97f4a7c15u);
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
    uint64_t k = key1(h1, depth);
    for (uint64_t m = atomic_load_explicit(&c->mask, memory_order_relaxed);; m >>= 1) {
        uint64_t b = k & m;
        oentry *e = c->e + b * WAYS;
        lock(c, b);
        for (int i = 0; i < WAYS; i++)
            if (e[i].h1 == k && e[i].h2 == h2 && e[i].n) {
                *out = e[i];
                unlock(c, b);
                return true;
            }
        unlock(c, b);
        if (m <= c->base_mask)
            return false;
    }
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
    return (newmeta & VALUE_MASK) > (oldmeta & VALUE_MASK);
}

/* Store entry e (key as stored, depth mixed in) in its bucket under the
 * current size; double the size once half of it is in use. */
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
            if (better(ne->meta, e[i].meta)) {
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
    if (filled && m < c->cap_mask &&
        atomic_fetch_add_explicit(&c->used, 1, memory_order_relaxed) + 1 > (m + 1) * WAYS / 2)
        atomic_compare_exchange_strong(&c->mask, &m, 2 * m + 1);
}

void ocache_put(ocache *c, uint64_t h1, uint64_t h2, int depth, uint32_t n,
                oval v, unsigned flags, mm_code guess)
{
    if (!c->e)
        return;
    oentry e = {key1(h1, depth), h2,
                (v & VALUE_MASK) | (uint64_t)depth << 56 | (uint64_t)flags << 62, guess, n};
    insert(c, &e);
}

/* ---- checkpoint file ----
 * "\x89MMOPT\r\n\x1a\n", a tag line naming game and search, the entry
 * count (8 bytes LE), then entries of 32 bytes: h1 h2 meta (8 bytes LE
 * each), guess n (4 bytes LE each), keys as stored. */
static const char magic[10] = "\x89MMOPT\r\n\x1a\n";

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

mm_status ocache_save(ocache *c, const char *path, const char *tag,
                      uint32_t min_n, mm_diag *d)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory saving a checkpoint");
    snprintf(tmp, plen + 16, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        mm_status st = mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
        free(tmp);
        return st;
    }
    uint64_t count = 0, total = (atomic_load(&c->mask) + 1) * WAYS;
    for (uint64_t i = 0; i < total; i++)
        count += c->e[i].n >= min_n && c->e[i].n;
    unsigned char rec[32];
    bool ok = fwrite(magic, 1, sizeof magic, f) == sizeof magic &&
              fprintf(f, "%s\n", tag) > 0;
    put_le(rec, count, 8);
    ok = ok && fwrite(rec, 1, 8, f) == 8;
    uint64_t written = 0;
    for (uint64_t i = 0; ok && i < total; i++) {
        uint64_t b = i / WAYS;
        lock(c, b);
        oentry e = c->e[i];
        unlock(c, b);
        if (!e.n || e.n < min_n)
            continue;
        if (written == count)
            break;   /* entries arrived while saving: keep the count true */
        put_le(rec, e.h1, 8);
        put_le(rec + 8, e.h2, 8);
        put_le(rec + 16, e.meta, 8);
        put_le(rec + 24, e.guess, 4);
        put_le(rec + 28, e.n, 4);
        ok = fwrite(rec, 1, 32, f) == 32;
        written++;
    }
    /* A slot may have been emptied meanwhile: pad with empty records,
     * which loading skips. */
    memset(rec, 0, sizeof rec);
    while (ok && written < count) {
        ok = fwrite(rec, 1, 32, f) == 32;
        written++;
    }
    ok = fflush(f) == 0 && ok;
    ok = fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        mm_status st = mm_diag_set(d, MM_ERR_IO, "cannot write checkpoint '%s': %s", path,
                                   strerror(errno));
        remove(tmp);
        free(tmp);
        return st;
    }
    free(tmp);
    return MM_OK;
}

mm_status ocache_load(ocache *c, const char *path, const char *tag,
                      uint64_t *loaded, mm_diag *d)
{
    *loaded = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return MM_OK;   /* a first run: nothing to resume */
        return mm_diag_set(d, MM_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    }
    mm_diag_file(d, path);
    mm_status st = MM_OK;
    char head[sizeof magic];
    size_t tlen = strlen(tag);
    char *line = malloc(tlen + 2);
    unsigned char rec[32];
    if (!line) {
        fclose(f);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory reading a checkpoint");
    }
    if (fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, magic, sizeof magic)) {
        st = mm_diag_at_offset(d, MM_ERR_INPUT, 0, "not an mmtree checkpoint");
        goto out;
    }
    if (fread(line, 1, tlen + 1, f) != tlen + 1 || memcmp(line, tag, tlen) || line[tlen] != '\n') {
        st = mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)sizeof magic,
                               "checkpoint is of another game or search (want '%s')", tag);
        goto out;
    }
    int64_t off = (int64_t)(sizeof magic + tlen + 1);
    if (fread(rec, 1, 8, f) != 8) {
        st = mm_diag_at_offset(d, MM_ERR_INPUT, off, "checkpoint is truncated");
        goto out;
    }
    uint64_t count = get_le(rec, 8);
    off += 8;
    for (uint64_t i = 0; i < count; i++, off += 32) {
        if (fread(rec, 1, 32, f) != 32) {
            st = mm_diag_at_offset(d, MM_ERR_INPUT, off, "checkpoint is truncated");
            goto out;
        }
        oentry e = {get_le(rec, 8), get_le(rec + 8, 8), get_le(rec + 16, 8),
                    (mm_code)get_le(rec + 24, 4), (uint32_t)get_le(rec + 28, 4)};
        if (!e.n)
            continue;
        unsigned fl = (unsigned)(e.meta >> 62);
        if ((e.meta >> 54 & 3) || ((fl & OC_CANON) && !(fl & OC_EXACT))) {
            st = mm_diag_at_offset(d, MM_ERR_INPUT, off + 16, "bad entry in checkpoint");
            goto out;
        }
        /* Keys are stored with the depth mixed in: put them back raw. */
        insert(c, &e);
        (*loaded)++;
    }
out:
    free(line);
    fclose(f);
    return st;
}

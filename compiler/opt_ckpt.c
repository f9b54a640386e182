/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Checkpoints: the table of solved sets in a file, as compiler/checkpoint.md
 * defines it.  Written through the one atomic writer (core/file.h), so that
 * an interrupted save leaves the old checkpoint whole and a signal removes
 * the temporary file; read a piece at a time (core/file.h's infile), twice:
 * checked whole first, then put in the table, the second reading giving
 * the same checksum (the file did not change in between).
 */
#include "opt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/crc32.h"
#include "core/file.h"
#include "core/le.h"

#define VERSION 4
#define HEADER 56      /* version 3: 40, without the time */
#define HEADER_V3 40
#define ENTRY 32
#define TRAILER 12
#define MAX_BYTES ((size_t)1 << 40)

static const unsigned char signature[8] = {0x89, 'M', 'M', 'C', '\r', '\n', 0x1a, '\n'};
static const unsigned char signature_v1[10] = {0x89, 'M', 'M', 'O', 'P', 'T',
                                               '\r', '\n', 0x1a, '\n'};

static const char *const rule_names[] = {"optimal", "optimal-consistent", "optimal-worst"};

static void header(unsigned char *h, const ockpt_id *id, const ockpt_time *t)
{
    memcpy(h, signature, sizeof signature);
    h[8] = VERSION;
    h[9] = (unsigned char)id->pegs;
    h[10] = (unsigned char)id->colors;
    h[11] = (unsigned char)((id->repeat ? 1u : 0u) | (id->consistent_only ? 2u : 0u));
    h[12] = (unsigned char)id->rule;
    h[13] = ENTRY;
    h[14] = (unsigned char)id->max_depth;
    h[15] = 0;
    le_write64(h + 16, id->check1);
    le_write64(h + 24, id->check2);
    le_write64(h + 32, id->position);
    le_write64(h + 40, t->ms);
    le_write32(h + 48, t->runs);
    le_write32(h + 52, t->partial ? 1u : 0u);
}

void ockpt_id_init(ockpt_id *id, const oshared *sh, int rule, bool consistent_only,
                   int max_depth, const mm_code *start, uint32_t n)
{
    const mm_code zero = 0;
    uint64_t unused;
    id->pegs = sh->g->pegs;
    id->colors = sh->g->colors;
    id->repeat = sh->g->repeat;
    id->ncodes = sh->g->ncodes;
    id->rule = rule;
    id->consistent_only = consistent_only;
    id->max_depth = max_depth;
    opt_hash_salt(sh, 0, &zero, 1, &id->check1, &id->check2);
    opt_hash_salt(sh, 0, start, n, &id->position, &unused);
}

/* ---- writing ---- */

typedef struct ckwriter {
    outfile f;
    unsigned char buf[1 << 16];
    size_t len;
    uint32_t crc;
    mm_status st;
    mm_diag *d;
} ckwriter;

static void ck_flush(ckwriter *w)
{
    if (!w->st && w->len)
        w->st = outfile_write(&w->f, w->buf, w->len, w->d);
    w->crc = crc32_update(w->crc, w->buf, w->len);
    w->len = 0;
}

static unsigned char *ck_room(ckwriter *w, size_t n)
{
    if (w->len + n > sizeof w->buf)
        ck_flush(w);
    unsigned char *p = w->buf + w->len;
    w->len += n;
    return p;
}

/* A writer of a checkpoint to path (w->st: whether its file opened), or
 * NULL when out of memory. */
static ckwriter *ck_open(const char *path, mm_diag *d)
{
    ckwriter *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    w->len = 0;
    w->crc = 0;
    w->d = d;
    w->st = outfile_open(&w->f, path, d);
    return w;
}

static void ck_entry(ckwriter *w, const oentry *e)
{
    unsigned char *p = ck_room(w, ENTRY);
    le_write64(p, e->h1);
    le_write64(p + 8, e->h2);
    le_write64(p + 16, e->meta);
    le_write32(p + 24, e->guess);
    le_write32(p + 28, e->n);
}

/* End w's file: the count of its count entries, the checksum; commit
 * it (w->st: how it went). */
static mm_status ck_finish(ckwriter *w, uint64_t count)
{
    le_write64(ck_room(w, 8), count);
    ck_flush(w);
    unsigned char crc[4];
    le_write32(crc, w->crc);
    if (!w->st)
        w->st = outfile_write(&w->f, crc, 4, w->d);
    if (!w->st)
        w->st = outfile_commit(&w->f, w->d);
    return w->st;
}

mm_status ockpt_save(ocache *c, const char *path, const ockpt_id *id, const ockpt_time *t,
                     mm_diag *d)
{
    ckwriter *w = ck_open(path, d);
    if (!w)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory saving checkpoint '%s'", path);
    header(ck_room(w, HEADER), id, t);
    ocache_hold_size(c);
    uint64_t count = 0, slots = ocache_slots(c);
    oentry e;
    for (uint64_t i = 0; i < slots && !w->st; i++) {
        if (!ocache_entry(c, i, &e) || e.n < 3)
            continue;
        ck_entry(w, &e);
        count++;
    }
    ocache_release_size(c);
    mm_status st = ck_finish(w, count);
    outfile_abort(&w->f);
    free(w);
    return st;
}

/* ---- reading ---- */

/* Where a checkpoint's bytes come from: memory (the fuzzer), or a file
 * read a piece at a time into buf, so that a resume needs the table and
 * a piece, not the table and the whole file (8.5 GB each for MM(6,5)). */
#define PIECE_ENTRIES 32768u
typedef struct cksrc {
    const unsigned char *mem;
    infile *file;
    uint64_t len;
    unsigned char *buf;   /* PIECE_ENTRIES entries, for a file */
    size_t head;          /* the header's length: HEADER, or HEADER_V3 */
} cksrc;

/* The n bytes at off (n at most a piece), or NULL with *st set. */
static const unsigned char *src_at(cksrc *s, uint64_t off, size_t n, mm_status *st,
                                   mm_diag *d)
{
    if (s->mem)
        return s->mem + off;
    *st = infile_read(s->file, s->buf, n, off, d);
    return *st ? NULL : s->buf;
}

/* The signature and the version, from the first bytes b (hn of them,
 * len in all): is this a checkpoint of this format?  *head: the length of
 * its version's header. */
static mm_status check_start(const unsigned char *b, size_t hn, uint64_t len, size_t *head,
                             mm_diag *d)
{
    if (hn >= sizeof signature_v1 && !memcmp(b, signature_v1, sizeof signature_v1)) {
        /* versions 1 and 2: a text line "mmtree optimal V ..." */
        static const char tag[] = "mmtree optimal ";
        const unsigned char *t = b + sizeof signature_v1;
        bool known = hn > sizeof signature_v1 + sizeof tag &&
                     !memcmp(t, tag, sizeof tag - 1) && t[sizeof tag - 1] >= '1' &&
                     t[sizeof tag - 1] <= '2';
        return mm_diag_at_offset(d, MM_ERR_INPUT, 0,
                                 "checkpoint of an older version (%s) of mmtree; this one "
                                 "reads versions 3 and %d: remove it to start afresh",
                                 known ? (t[sizeof tag - 1] == '1' ? "1" : "2") : "1 or 2",
                                 VERSION);
    }
    if (hn < sizeof signature || memcmp(b, signature, sizeof signature))
        return mm_diag_at_offset(d, MM_ERR_INPUT, 0, "not an mmtree checkpoint");
    if (len < HEADER_V3 + TRAILER)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)len,
                                 "checkpoint is truncated (%llu bytes)", (unsigned long long)len);
    if (b[8] != VERSION && b[8] != 3)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 8,
                                 "checkpoint version %d; this mmtree reads versions 3 and %d",
                                 b[8], VERSION);
    *head = b[8] == 3 ? HEADER_V3 : HEADER;
    if (len < *head + TRAILER)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)len,
                                 "checkpoint is truncated (%llu bytes)", (unsigned long long)len);
    return MM_OK;
}

/* The header b (head bytes) against the file's length, count being the
 * entries the trailer gives: the layout, whatever search reads it. */
static mm_status check_layout(const unsigned char *b, size_t head, uint64_t len,
                              uint64_t count, mm_diag *d)
{
    if ((len - head - TRAILER) % ENTRY || count != (len - head - TRAILER) / ENTRY)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)(len - TRAILER),
                                 "checkpoint says %llu entries, its length %llu bytes",
                                 (unsigned long long)count, (unsigned long long)len);
    if (b[13] != ENTRY || b[15] || (b[11] & ~3u))
        return mm_diag_at_offset(d, MM_ERR_INPUT, b[13] != ENTRY ? 13 : b[15] ? 15 : 11,
                                 "checkpoint of an unknown layout (reserved fields set)");
    if (head == HEADER && (le_read32(b + 52) & ~1u))
        return mm_diag_at_offset(d, MM_ERR_INPUT, 52,
                                 "checkpoint of an unknown layout (reserved fields set)");
    return MM_OK;
}

/* The header b against the search's id: what its values depend on. */
static mm_status check_binding(const unsigned char *b, const ockpt_id *id, mm_diag *d)
{
    bool rep = b[11] & 1u, cons = b[11] & 2u;
    if (b[9] != id->pegs || b[10] != id->colors || rep != id->repeat || b[12] != id->rule ||
        cons != id->consistent_only)
        return mm_diag_at_offset(
            d, MM_ERR_INPUT, 9, "checkpoint of MM(%d,%d%s) %s%s, not of MM(%d,%d%s) %s%s",
            b[9], b[10], rep ? "" : ", no repeat",
            b[12] < 3 ? rule_names[b[12]] : "(an unknown rule)", cons ? " consistent-only" : "",
            id->pegs, id->colors, id->repeat ? "" : ", no repeat", rule_names[id->rule],
            id->consistent_only ? " consistent-only" : "");
    if (b[14] != id->max_depth)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 14,
                                 "checkpoint of a search within %d guesses, not %d (0: no cap)",
                                 b[14], id->max_depth);
    if (le_read64(b + 16) != id->check1 || le_read64(b + 24) != id->check2)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 16,
                                 "checkpoint keys were made another way (key check)");
    if (le_read64(b + 32) != id->position)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 32,
                                 "checkpoint of a search from another position");
    return MM_OK;
}

static oentry decode_entry(const unsigned char *p)
{
    return (oentry){le_read64(p), le_read64(p + 8), le_read64(p + 16),
                    (mm_code)le_read32(p + 24), le_read32(p + 28)};
}

/* An entry (at byte off) against the rules of checkpoint.md. */
static mm_status check_entry(const oentry *e, int64_t off, uint32_t ncodes, mm_diag *d)
{
    unsigned fl = (unsigned)(e->meta >> 62), depth = (unsigned)(e->meta >> 56 & 63);
    if (e->n < 3 || e->n > ncodes)
        return mm_diag_at_offset(d, MM_ERR_INPUT, off + 28,
                                 "checkpoint entry of %u codes (the game has %u)", e->n, ncodes);
    if (e->guess >= ncodes && e->guess != MM_NO_CODE)
        return mm_diag_at_offset(d, MM_ERR_INPUT, off + 24, "checkpoint entry guesses code %u",
                                 e->guess);
    if ((e->meta >> OV_BITS & 3) || ((fl & OC_CANON) && !(fl & OC_EXACT)) || !depth ||
        (e->meta & OV_MASK) > OV_INF)
        return mm_diag_at_offset(d, MM_ERR_INPUT, off + 16, "bad checkpoint entry");
    return MM_OK;
}

/* What the second pass over a checked file does with each entry: put it
 * in a table, count it, write it to another checkpoint when its set has
 * min codes or more, show it to a reader (visit). */
typedef struct ckuse {
    ocache *cache;
    bool nodepth;          /* into cache only facts without a depth limit */
    uint64_t put;          /* those put there */
    mm_checkpoint_info *info;
    ckwriter *out;
    uint32_t min;
    void (*visit)(void *arg, const oentry *e);
    void *arg;
} ckuse;

static void use_entry(ckuse *u, const oentry *e)
{
    if (u->cache && (!u->nodepth || (e->meta >> 56 & 63) == OPT_NODEPTH)) {
        ocache_put_entry(u->cache, e);
        u->put++;
    }
    if (u->info) {
        int k = 31 - __builtin_clz(e->n);   /* 3..2^20 codes: 1..20 */
        bool exact = oentry_flags(e) & OC_EXACT;
        u->info->facts++;
        u->info->exact += exact;
        u->info->facts_by_size[k]++;
        u->info->exact_by_size[k] += exact;
    }
    if (u->out && e->n >= u->min) {
        ck_entry(u->out, e);
        if (u->info)
            u->info->written++;
    }
    if (u->visit)
        u->visit(u->arg, e);
}

/* One pass over the entries (whole ones: ENTRY bytes each after the
 * header), the checksum of everything before the trailer's last four
 * bytes on the way, each entry checked; with use (the second pass), each
 * used too.  *crc: the checksum; *bad: the offset of the first bad entry,
 * or -1 (the first pass finds it, to say after the checksum and the
 * header). */
static mm_status read_entries(cksrc *s, const unsigned char *head, uint32_t ncodes,
                              ckuse *use, uint32_t *crc, int64_t *bad, mm_diag *d)
{
    const uint64_t len = s->len, total = (len - s->head - TRAILER) / ENTRY;
    mm_status st = MM_OK;
    uint32_t sum = crc32_update(0, head, s->head);
    *bad = -1;
    for (uint64_t i = 0; i < total;) {
        const uint32_t m = total - i < PIECE_ENTRIES ? (uint32_t)(total - i) : PIECE_ENTRIES;
        const uint64_t off = s->head + ENTRY * i;
        const unsigned char *p = src_at(s, off, (size_t)m * ENTRY, &st, d);
        if (!p)
            return st;
        sum = crc32_update(sum, p, (size_t)m * ENTRY);
        for (uint32_t j = 0; j < m && *bad < 0; j++) {
            oentry e = decode_entry(p + (size_t)ENTRY * j);
            if (check_entry(&e, 0, ncodes, NULL))
                *bad = (int64_t)(off + (uint64_t)ENTRY * j);
            else if (use)
                use_entry(use, &e);
        }
        if (use && *bad >= 0)
            return MM_ERR_INPUT;   /* the file changed: the first pass found none */
        i += m;
    }
    /* the whole entries end where the trailer starts when the header's
     * count is right; the bytes between are summed too */
    const uint64_t rest = s->head + ENTRY * total;
    const unsigned char *t = src_at(s, rest, (size_t)(len - 4 - rest), &st, d);
    if (!t)
        return st;
    *crc = crc32_update(sum, t, (size_t)(len - 4 - rest));
    return MM_OK;
}

/* The id a file's header head says it has, for a reader that has no
 * search to check it against (mm_checkpoint_read): its game and rule,
 * the key checks as this mmtree makes them, its position as it is
 * (*whole: the position is the whole game). */
static mm_status header_id(const unsigned char *head, ockpt_id *id, bool *whole, mm_diag *d)
{
    if (head[12] > 2)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 12, "checkpoint of an unknown rule (%d)",
                                 head[12]);
    if (head[14] > 63)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 14,
                                 "checkpoint within %d guesses (at most 63)", head[14]);
    mm_game g;
    mm_diag gd;
    mm_diag_clear(&gd);
    if (mm_game_init(&g, head[9], head[10], head[11] & 1u, &gd))
        return mm_diag_at_offset(d, MM_ERR_INPUT, 9, "checkpoint of a game mmtree refuses: %s",
                                 gd.msg);
    *id = (ockpt_id){.pegs = g.pegs, .colors = g.colors, .repeat = g.repeat,
                     .ncodes = g.ncodes, .rule = head[12],
                     .consistent_only = head[11] & 2u, .max_depth = head[14],
                     .position = le_read64(head + 32)};
    mm_game_release(&g);
    uint64_t *r1 = malloc((size_t)id->ncodes * sizeof *r1);
    uint64_t *r2 = malloc((size_t)id->ncodes * sizeof *r2);
    if (!r1 || !r2) {
        free(r1);
        free(r2);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory reading a checkpoint");
    }
    opt_key_words(r1, r2, id->ncodes);
    uint64_t all = (uint64_t)id->ncodes * OPT_KEY_SIZE;
    for (uint32_t x = 0; x < id->ncodes; x++)
        all += r1[x];
    id->check1 = OPT_KEY_SIZE + r1[0];
    id->check2 = r2[0];
    *whole = id->position == all;
    free(r1);
    free(r2);
    return MM_OK;
}

/* What a header says of its search, for mm_checkpoint_info. */
static mm_checkpoint_info info_of(const ockpt_id *id, bool whole)
{
    return (mm_checkpoint_info){
        .pegs = id->pegs, .colors = id->colors, .repeat = id->repeat,
        .rule = (mm_rule)(MM_RULE_OPTIMAL + id->rule), .consistent_only = id->consistent_only,
        .max_depth = id->max_depth, .whole_game = whole};
}

/* Read s whole and check it against id (or, with no id, against what its
 * header says: *info), then read it again and use each entry (use). */
static mm_status read_source(cksrc *s, const ockpt_id *id, ckuse *use,
                             uint64_t *loaded, ockpt_time *t, mm_diag *d)
{
    const uint64_t len = s->len;
    unsigned char head[HEADER], tail[TRAILER];
    mm_status st = MM_OK;
    const size_t hn = len < HEADER ? (size_t)len : HEADER;
    const unsigned char *p = src_at(s, 0, hn, &st, d);
    if (!p)
        return st;
    memcpy(head, p, hn);
    if ((st = check_start(head, hn, len, &s->head, d)))
        return st;
    if (!(p = src_at(s, len - TRAILER, TRAILER, &st, d)))
        return st;
    memcpy(tail, p, TRAILER);
    const uint32_t want = le_read32(tail + 8);
    const uint64_t count = le_read64(tail);
    uint32_t got, again;
    int64_t bad;
    /* Without a search to check it against, the file is checked against
     * what its header says; the entries are checked against the size of
     * that game (of the largest when the header is wrong: that is said
     * first, below). */
    ockpt_id own;
    bool whole = false, own_bad = !id && header_id(head, &own, &whole, NULL);
    const uint32_t ncodes = id ? id->ncodes : own_bad ? MM_MAX_CODES : own.ncodes;
    if ((st = read_entries(s, head, ncodes, NULL, &got, &bad, d)))
        return st;
    if (want != got)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)len - 4,
                                 "checkpoint is damaged: checksum %08x, its bytes give %08x "
                                 "(truncated or corrupt)",
                                 want, got);
    if ((st = check_layout(head, s->head, len, count, d)))
        return st;
    if (!id) {
        if (own_bad)
            return header_id(head, &own, &whole, d);
        *use->info = info_of(&own, whole);
        id = &own;
    }
    if ((st = check_binding(head, id, d)))
        return st;
    if (bad >= 0) {
        if (!(p = src_at(s, (uint64_t)bad, ENTRY, &st, d)))
            return st;
        oentry e = decode_entry(p);
        return check_entry(&e, bad, ncodes, d);
    }
    if (s->head == HEADER)
        *t = (ockpt_time){le_read64(head + 40), le_read32(head + 48), le_read32(head + 52) & 1u};
    else   /* version 3 did not count the time */
        *t = (ockpt_time){0, 0, true};
    if (use->out)
        header(ck_room(use->out, HEADER), id, t);
    /* Checked whole: now used, keys with the depth mixed in as the table
     * holds them.  A file is read again, and must give the same bytes
     * (it did not change in between). */
    if (use->cache)
        ocache_reserve(use->cache, count);
    st = read_entries(s, head, id->ncodes, use, &again, &bad, d);
    if (st && bad < 0)
        return st;   /* could not read it again */
    if (st || again != got)
        return mm_diag_set(d, MM_ERR_INPUT, "checkpoint changed while it was read");
    *loaded = count;
    return MM_OK;
}

mm_status ockpt_read(ocache *c, const unsigned char *buf, size_t len, const ockpt_id *id,
                     uint64_t *loaded, ockpt_time *t, mm_diag *d)
{
    cksrc s = {.mem = buf, .len = len};
    *loaded = 0;
    *t = (ockpt_time){0, 0, false};
    return read_source(&s, id, &(ckuse){.cache = c}, loaded, t, d);
}

/* Read the file at path through use (id: as read_source), its messages
 * naming it. */
static mm_status read_file(const char *path, const ockpt_id *id, ckuse *use,
                           uint64_t *loaded, ockpt_time *t, mm_diag *d)
{
    infile f;
    mm_status st = infile_open(&f, path, MAX_BYTES, d);
    if (st)
        return st;
    cksrc s = {.file = &f, .len = f.size, .buf = malloc((size_t)PIECE_ENTRIES * ENTRY)};
    mm_diag_file(d, path);
    st = s.buf ? read_source(&s, id, use, loaded, t, d)
               : mm_diag_set(d, MM_ERR_NOMEM, "out of memory reading a checkpoint");
    free(s.buf);
    infile_close(&f);
    return st;
}

static mm_status refuse_stdio(const char *path, mm_diag *d)
{
    if (strcmp(path, "-"))
        return MM_OK;
    return mm_diag_set(d, MM_ERR_USAGE, "a checkpoint is a file, not standard input or output");
}

mm_status ockpt_load(ocache *c, const char *path, const ockpt_id *id, uint64_t *loaded,
                     ockpt_time *t, mm_diag *d)
{
    struct stat sb;
    *loaded = 0;
    *t = (ockpt_time){0, 0, false};
    mm_status st = refuse_stdio(path, d);
    if (st)
        return st;
    if (stat(path, &sb) != 0 && errno == ENOENT) {
        /* a first run: make sure the saves will find a place */
        outfile f;
        st = outfile_open(&f, path, d);
        outfile_abort(&f);
        return st;
    }
    st = read_file(path, id, &(ckuse){.cache = c}, loaded, t, d);
    if (!st)
        mm_diag_clear(d);   /* later messages are not about the file */
    return st;
}

mm_status ockpt_load_bounds(ocache *c, const char *path, const ockpt_id *id,
                            uint64_t *loaded, ockpt_time *t, mm_diag *d)
{
    ckuse use = {.cache = c, .nodepth = true};
    *loaded = 0;
    *t = (ockpt_time){0, 0, false};
    mm_status st = refuse_stdio(path, d);
    if (!st)
        st = read_file(path, id, &use, loaded, t, d);
    if (!st) {
        *loaded = use.put;
        mm_diag_clear(d);
    }
    return st;
}

mm_status mm_checkpoint_header(const char *path, mm_checkpoint_info *info, mm_diag *d)
{
    memset(info, 0, sizeof *info);
    mm_status st = refuse_stdio(path, d);
    if (st)
        return st;
    infile f;
    if ((st = infile_open(&f, path, MAX_BYTES, d)))
        return st;
    mm_diag_file(d, path);
    unsigned char head[HEADER];
    const size_t hn = f.size < HEADER ? (size_t)f.size : HEADER;
    size_t hlen;
    ockpt_id id;
    bool whole;
    if (!(st = infile_read(&f, head, hn, 0, d)) &&
        !(st = check_start(head, hn, f.size, &hlen, d)) && !(st = header_id(head, &id, &whole, d)))
        *info = info_of(&id, whole);
    infile_close(&f);
    if (!st)
        mm_diag_clear(d);
    return st;
}

/* mm_checkpoint_read, and ockpt_visit: each entry of a file checked
 * whole to visit too. */
static mm_status read_info(const char *path, const char *out, uint32_t min_codes,
                           mm_checkpoint_info *info, void (*visit)(void *, const oentry *),
                           void *arg, mm_diag *d)
{
    memset(info, 0, sizeof *info);
    mm_status st = refuse_stdio(path, d);
    if (!st && out)
        st = refuse_stdio(out, d);
    if (st)
        return st;
    ckwriter *w = NULL;
    if (out) {
        if (!(w = ck_open(out, d)))
            return mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing checkpoint '%s'", out);
        if ((st = w->st)) {
            outfile_abort(&w->f);
            free(w);
            return st;
        }
    }
    uint64_t loaded;
    ockpt_time t;
    st = read_file(path, NULL,
                   &(ckuse){.info = info, .out = w, .min = min_codes, .visit = visit, .arg = arg},
                   &loaded, &t, d);
    if (!st) {
        info->cpu = (double)t.ms / 1000.0;
        info->runs = t.runs;
        info->cpu_partial = t.partial;
    }
    if (w) {
        if (!st) {
            mm_diag_clear(d);   /* a failed write names its own file */
            st = ck_finish(w, info->written);
        }
        outfile_abort(&w->f);
        free(w);
    }
    return st;
}

mm_status mm_checkpoint_read(const char *path, const char *out, uint32_t min_codes,
                             mm_checkpoint_info *info, mm_diag *d)
{
    return read_info(path, out, min_codes, info, NULL, NULL, d);
}

mm_status ockpt_visit(const char *path, mm_checkpoint_info *info,
                      void (*visit)(void *arg, const oentry *e), void *arg, mm_diag *d)
{
    return read_info(path, NULL, 0, info, visit, arg, d);
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Checkpoints (compiler/checkpoint.md): a stopped search saves one in the
 * documented layout; a run resumes from it, says how many sets it found
 * there, and removes it once proven (unless kept); a damaged, truncated,
 * foreign, older or newer checkpoint, or one that is not a regular file,
 * is refused with a message that says which, and nothing of it is used;
 * a final save that fails still gives the tree, and says why.  A table
 * saved and read back answers every lookup as the saved one did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/opt.h"
#include "mmtree/compile.h"

static char dir[] = "/tmp/mmtree-ckpt-XXXXXX";
static char path[64];

#include "tests/check.h"
#include "tests/draw.h"
#include "tests/bytes.h"

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << 8 * i;
    return v;
}

static unsigned char *slurp(const char *file, size_t *len)
{
    FILE *f = fopen(file, "rb");
    unsigned char *b = malloc(1 << 24);
    *len = f && b ? fread(b, 1, 1 << 24, f) : 0;
    if (f)
        fclose(f);
    return b;
}

static void spill(const char *file, const unsigned char *b, size_t len)
{
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(b, 1, len, f) != len)
        FAIL("cannot write %s", file);
    if (f)
        fclose(f);
}

/* The last four bytes made the right checksum again. */
static void fix_crc(unsigned char *b, size_t len)
{
    uint32_t c = crc32_bitwise(b, len - 4);
    for (int i = 0; i < 4; i++)
        b[len - 4 + (size_t)i] = (unsigned char)(c >> 8 * i);
}

static uint64_t resumed_at_start = UINT64_MAX;
static bool remove_dir_at_start;

static void on_progress(void *arg, const mm_optimal_report *r)
{
    (void)arg;
    if (resumed_at_start == UINT64_MAX)
        resumed_at_start = r->resumed;
    if (remove_dir_at_start) {
        remove(path);
        rmdir(dir);
        remove_dir_at_start = false;
    }
}

static mm_status run(int p, int c, mm_rule rule, bool consistent_only, uint64_t stop_after,
                     bool keep, mm_tree *t, mm_optimal_report *r, mm_diag *d)
{
    mm_game g;
    if (mm_game_init(&g, p, c, true, d))
        return MM_ERR_USAGE;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.consistent_only = consistent_only;
    o.threads = 1;
    o.cache_mb = 16;
    o.checkpoint = path;
    o.stop_after = stop_after;
    o.keep_checkpoint = keep;
    o.report = r;
    o.progress = on_progress;
    resumed_at_start = UINT64_MAX;
    mm_diag_clear(d);
    mm_status st = mm_compile(&g, &o, t, d);
    if (!st && mm_tree_check(t, &g, d)) {
        FAIL("MM(%d,%d) %s: tree check: %s", p, c, mm_rule_name(rule), d->msg);
        st = MM_ERR_CHECK;
    }
    mm_game_release(&g);
    return st;
}

/* The time fields of the checkpoint b (version 4). */
static uint64_t time_ms(const unsigned char *b) { return le(b + 40, 8); }
static uint32_t time_runs(const unsigned char *b) { return (uint32_t)le(b + 48, 4); }
static uint32_t time_flags(const unsigned char *b) { return (uint32_t)le(b + 52, 4); }

/* The processor time a report gives agrees with the ms a save recorded
 * a moment before the report was made (the save is the earlier of the
 * two, by at most 100 ms). */
static bool time_agrees(uint64_t ms, double cpu)
{
    return (double)ms <= cpu * 1000.0 + 1.0 && (double)ms + 100.0 >= cpu * 1000.0;
}

/* The checkpoint of an MM(4,4) optimal search stopped after 100 sets,
 * *len bytes (its report in *r), or NULL. */
static unsigned char *stopped(size_t *len, mm_optimal_report *r)
{
    mm_tree t;
    mm_diag d;
    remove(path);
    if (run(4, 4, MM_RULE_OPTIMAL, false, 100, false, &t, r, &d)) {
        FAIL("stopped run: %s", d.msg);
        return NULL;
    }
    mm_tree_release(&t);
    return slurp(path, len);
}

/* A stopped MM(4,4) optimal search's checkpoint, as checkpoint.md says. */
static void layout(void)
{
    mm_tree t;
    mm_optimal_report r;
    mm_diag d;
    size_t len;
    unsigned char *b = stopped(&len, &r);
    if (!b)
        return;
    static const unsigned char head[] = {0x89, 'M', 'M', 'C', '\r', '\n', 0x1a, '\n', 4, 4, 4,
                                         1,    0,   32,  0,   0};
    uint64_t count = len >= 68 ? le(b + len - 12, 8) : 0;
    if (r.proven || len < 68 || memcmp(b, head, sizeof head) || len != 68 + 32 * count ||
        !count || le(b + len - 4, 4) != crc32_bitwise(b, len - 4))
        FAIL("checkpoint layout: %zu bytes, %llu entries, proven %d", len,
             (unsigned long long)count, r.proven);
    const uint64_t ms = time_ms(b);
    CHECK(len >= 68 && time_runs(b) == 1 && !time_flags(b) && time_agrees(ms, r.cpu) &&
              r.runs_before == 0 && r.cpu_before == 0 && !r.cpu_partial,
          "the time of a first run: %llu ms, %u runs, flags %u (its report: %.3f s, "
          "%u runs before)",
          (unsigned long long)ms, time_runs(b), time_flags(b), r.cpu, r.runs_before);
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *e = b + 56 + 32 * i;
        uint64_t meta = le(e + 16, 8);
        uint32_t n = (uint32_t)le(e + 28, 4), q = (uint32_t)le(e + 24, 4);
        if (n < 3 || n > 256 || (q >= 256 && q != 0xFFFFFFFFu) || (meta >> 54 & 3) ||
            (meta >> 56 & 63) != 63)
            FAIL("checkpoint entry %llu: %u codes, guess %u, meta %016llx",
                 (unsigned long long)i, n, q, (unsigned long long)meta);
    }
    free(b);
    /* resumed, proven, kept when asked: the time adds this run's */
    if (run(4, 4, MM_RULE_OPTIMAL, false, 0, true, &t, &r, &d) || !r.proven ||
        r.resumed != count || resumed_at_start != count || access(path, F_OK)) {
        FAIL("--keep-checkpoint: %s proven %d, resumed %llu (at the start %llu) of %llu, "
             "checkpoint %s",
             d.msg, r.proven, (unsigned long long)r.resumed,
             (unsigned long long)resumed_at_start, (unsigned long long)count,
             access(path, F_OK) ? "removed" : "kept");
        return;
    }
    mm_tree_release(&t);
    b = slurp(path, &len);
    CHECK(len >= 68 && time_runs(b) == 2 && !time_flags(b) && r.runs_before == 1 &&
              r.cpu_before * 1000.0 == (double)ms && time_agrees(time_ms(b) - ms, r.cpu),
          "the time of a second run: %llu ms (the first %llu), %u runs, flags %u (its "
          "report: %.3f s, %u runs before, %.3f s)",
          (unsigned long long)time_ms(b), (unsigned long long)ms, time_runs(b), time_flags(b),
          r.cpu, r.runs_before, r.cpu_before);
    const uint64_t ms2 = time_ms(b);
    free(b);
    /* resumed again, proven: the checkpoint removed */
    if (run(4, 4, MM_RULE_OPTIMAL, false, 0, false, &t, &r, &d) || !r.proven ||
        !r.resumed || r.runs_before != 2 || r.cpu_before * 1000.0 != (double)ms2 ||
        !access(path, F_OK))
        FAIL("resumed: %s proven %d, resumed %llu, %u runs before, checkpoint %s", d.msg,
             r.proven, (unsigned long long)r.resumed, r.runs_before,
             access(path, F_OK) ? "removed" : "left");
    else
        mm_tree_release(&t);
    printf("layout: %llu entries of a stopped search, as documented, %llu ms; resumed, "
           "proven, kept (%llu ms in 2 runs) or removed\n",
           (unsigned long long)count, (unsigned long long)ms, (unsigned long long)ms2);
}

/* A checkpoint of version 3 (as version 4 without the time: a header of
 * 40 bytes) is resumed from; its runs are not counted, and the file saved
 * says so. */
static void version3(void)
{
    mm_tree t;
    mm_optimal_report r;
    mm_diag d;
    size_t len;
    unsigned char *b = stopped(&len, &r);
    if (!b)
        return;
    if (len < 68) {
        FAIL("version 3: %zu bytes", len);
        free(b);
        return;
    }
    const uint64_t count = le(b + len - 12, 8);
    memmove(b + 40, b + 56, len - 56);
    len -= 16;
    b[8] = 3;
    fix_crc(b, len);
    spill(path, b, len);
    free(b);
    if (run(4, 4, MM_RULE_OPTIMAL, false, 0, true, &t, &r, &d) || !r.proven ||
        r.resumed != count || !r.cpu_partial || r.runs_before || r.cpu_before != 0) {
        FAIL("version 3: %s proven %d, resumed %llu of %llu, partial %d, %u runs before",
             d.msg, r.proven, (unsigned long long)r.resumed, (unsigned long long)count,
             r.cpu_partial, r.runs_before);
        return;
    }
    mm_tree_release(&t);
    b = slurp(path, &len);
    CHECK(len >= 68 && b[8] == 4 && time_runs(b) == 1 && time_flags(b) == 1 &&
              time_agrees(time_ms(b), r.cpu),
          "saved after a version 3 file: version %d, %u runs, flags %u, %llu ms",
          len ? b[8] : 0, len >= 68 ? time_runs(b) : 0, len >= 68 ? time_flags(b) : 0,
          len >= 68 ? (unsigned long long)time_ms(b) : 0ull);
    printf("version 3: %llu entries resumed; saved as version 4, 1 run counted, "
           "flagged partial\n", (unsigned long long)count);
    free(b);
}

/* The checkpoint at path, of more entries than a file is read at once
 * (32768), read from memory as from the file; then an entry of the
 * second piece spoilt, the checksum mended: refused at that entry's byte,
 * and the table left empty (nothing is put in before all is checked). */
static void pieces(const ockpt_id *id, uint64_t want)
{
    size_t len;
    unsigned char *b = slurp(path, &len);
    ocache c;
    mm_diag d;
    uint64_t loaded = 0;
    const size_t at = 56 + 32 * 40000;   /* entry 40000 */
    if (!b || len < at + 64 || ocache_init(&c, (size_t)4 << 20)) {
        FAIL("pieces: no checkpoint of 40000 entries (%zu bytes)", len);
        free(b);
        return;
    }
    ockpt_time tm;
    mm_status st = ockpt_read(&c, b, len, id, &loaded, &tm, &d);
    CHECK(!st && loaded == want, "read from memory: %s, %llu entries, want %llu",
          st ? d.msg : "ok", (unsigned long long)loaded, (unsigned long long)want);
    ocache_release(&c);
    b[at + 28] = 2;   /* its codes: 2 */
    b[at + 29] = b[at + 30] = b[at + 31] = 0;
    fix_crc(b, len);
    spill(path, b, len);
    if (ocache_init(&c, (size_t)4 << 20)) {
        FAIL("pieces: no table");
        free(b);
        return;
    }
    st = ockpt_load(&c, path, id, &loaded, &tm, &d);
    CHECK(st == MM_ERR_INPUT && strstr(d.msg, "checkpoint entry of 2 codes") &&
              d.offset == (int64_t)at + 28 && atomic_load(&c.used) == 0 && !loaded,
          "a bad entry in the second piece: '%s' at byte %lld, %llu in the table",
          st ? d.msg : "accepted", (long long)d.offset,
          (unsigned long long)atomic_load(&c.used));
    printf("pieces: read from the file as from memory; a bad entry past the first piece "
           "refused at its byte, nothing kept\n");
    ocache_release(&c);
    free(b);
}

/* A table that grew through three sizes, some entries given up, saved
 * and read into an empty table (sized for them at once): each key
 * sought, put or not, is missed or found as in the table saved, with the
 * same value and guess.  Entries move when a table doubles, so the two
 * hold each entry in the same bucket and none is given up on the way. */
static void table_round_trip(void)
{
    enum { PUT = 50000, ASKED = PUT + 5000 };
    mm_game g;
    oshared sh;
    ockpt_id id;
    ocache a, b;
    mm_diag d;
    mm_code all[27];
    for (mm_code x = 0; x < 27; x++)
        all[x] = x;
    if (mm_game_init(&g, 3, 3, true, &d) || oshared_init(&sh, &g, 0) ||
        ocache_init(&a, (size_t)4 << 20) || ocache_init(&b, (size_t)4 << 20)) {
        FAIL("table round trip: cannot set up");
        return;
    }
    ockpt_id_init(&id, &sh, 0, false, 0, all, 27);
    static uint64_t h1[ASKED], h2[ASKED];
    for (int i = 0; i < ASKED; i++) {
        h1[i] = (uint64_t)draw(UINT32_MAX) << 32 | draw(UINT32_MAX);
        h2[i] = (uint64_t)draw(UINT32_MAX) << 32 | draw(UINT32_MAX);
    }
    uint64_t start = atomic_load(&a.mask);
    for (int i = 0; i < PUT; i++)
        ocache_put(&a, h1[i], h2[i], 1 + i % 9, 3 + (uint32_t)i % 25, OV(100 + i, 5, 1),
                   i % 2 ? OC_EXACT : 0, (mm_code)(i % 27));
    CHECK(atomic_load(&a.mask) == 4 * start + 3, "the table grew from %llu to %llu buckets",
          (unsigned long long)start + 1, (unsigned long long)atomic_load(&a.mask) + 1);
    remove(path);
    uint64_t loaded = 0;
    const ockpt_time tw = {(uint64_t)1 << 40 | 12345, 7, true};
    ockpt_time tr = {0, 0, false};
    mm_status st = ockpt_save(&a, path, &id, &tw, &d);
    if (!st)
        st = ockpt_load(&b, path, &id, &loaded, &tr, &d);
    CHECK(!st && loaded > PUT / 2 && loaded <= PUT && tr.ms == tw.ms && tr.runs == tw.runs &&
              tr.partial,
          "saved and read back: %s, %llu entries, time %llu ms, %u runs, partial %d",
          st ? d.msg : "ok", (unsigned long long)loaded, (unsigned long long)tr.ms, tr.runs,
          tr.partial);
    int found = 0, differ = 0, lost = 0;
    for (int i = 0; i < ASKED; i++) {
        int depth = 1 + i % 9;
        oentry ea, eb;
        bool fa = ocache_get(&a, h1[i], h2[i], depth, &ea);
        bool fb = ocache_get(&b, h1[i], h2[i], depth, &eb);
        found += fa;
        lost += fa && !fb;
        if ((fb && !fa) || (fb && (ea.meta != eb.meta || ea.guess != eb.guess || ea.n != eb.n)))
            differ++;
    }
    CHECK(!differ && (uint64_t)found == loaded && !lost &&
              atomic_load(&a.mask) == atomic_load(&b.mask),
          "after the round trip %d of %d lookups differ, %d of %d entries lost (%llu loaded)",
          differ, ASKED, lost, found, (unsigned long long)loaded);
    printf("table: %llu entries saved and read back, every lookup the same\n",
           (unsigned long long)loaded);
    pieces(&id, loaded);
    remove(path);
    ocache_release(&a);
    ocache_release(&b);
    oshared_release(&sh);
    mm_game_release(&g);
}

/* The checkpoint file holds b; the MM(4,4) optimal run refuses it with a
 * message containing want, and leaves it as it was. */
static void refused(const unsigned char *b, size_t len, const char *want, const char *what)
{
    spill(path, b, len);
    mm_tree t;
    mm_optimal_report r;
    mm_diag d;
    mm_status st = run(4, 4, MM_RULE_OPTIMAL, false, 0, false, &t, &r, &d);
    size_t after;
    unsigned char *a = slurp(path, &after);
    if (!st) {
        FAIL("%s: accepted (%llu sets resumed)", what, (unsigned long long)r.resumed);
        mm_tree_release(&t);
    } else if (!strstr(d.msg, want) || strcmp(d.file, path)) {
        FAIL("%s: '%s: %s', want '%s'", what, d.file, d.msg, want);
    } else if (after != len || memcmp(a, b, len)) {
        FAIL("%s: the refused file changed", what);
    } else {
        printf("%-34s refused: %s\n", what, d.msg);
    }
    free(a);
}

/* A checkpoint of another search. */
static unsigned char *other(int p, int c, mm_rule rule, bool cons, size_t *len)
{
    mm_tree t;
    mm_optimal_report r;
    mm_diag d;
    remove(path);
    if (run(p, c, rule, cons, 0, true, &t, &r, &d))
        FAIL("MM(%d,%d) %s: %s", p, c, mm_rule_name(rule), d.msg);
    else
        mm_tree_release(&t);
    return slurp(path, len);
}

static void refusals(void)
{
    size_t len, n;
    unsigned char *good = other(4, 4, MM_RULE_OPTIMAL, false, &len);
    unsigned char *b = malloc(len + 64);
    memcpy(b, good, len);
    b[100] ^= 1;
    refused(b, len, "damaged", "a flipped bit");
    static const size_t cuts[] = {0, 5, 8, 20, 51, 67};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++)
        refused(good, cuts[i], cuts[i] < 8 ? "not an mmtree checkpoint" : "truncated",
                "truncated before the entries");
    refused(good, len - 1, "damaged", "truncated by a byte");
    refused(good, len - 32, "damaged", "truncated by an entry");
    memcpy(b, good, len);
    b[8] = 5;
    refused(b, len, "version 5", "a newer version");
    memcpy(b, good, len);
    b[len - 12] ^= 1;   /* the count, checksum fixed */
    fix_crc(b, len);
    refused(b, len, "entries, its length", "a wrong count");
    memcpy(b, good, len);
    b[56 + 28] = 2;   /* an entry of 2 codes */
    b[56 + 29] = b[56 + 30] = b[56 + 31] = 0;
    fix_crc(b, len);
    refused(b, len, "entry of 2 codes", "an entry of 2 codes");
    memcpy(b, good, len);
    b[56 + 23] = (unsigned char)((b[56 + 23] & 0x3f) | 0x80);   /* CANON, not EXACT */
    fix_crc(b, len);
    refused(b, len, "bad checkpoint entry", "a canonical guess of no value");
    memcpy(b, good, len);
    b[15] = 1;
    fix_crc(b, len);
    refused(b, len, "unknown layout", "a reserved field set");
    memcpy(b, good, len);
    b[52] = 2;
    fix_crc(b, len);
    refused(b, len, "unknown layout", "a reserved time flag set");
    memcpy(b, good, len);
    b[14] = 5;
    fix_crc(b, len);
    refused(b, len, "within 5 guesses, not 0", "another depth cap");
    memcpy(b, good, len);
    b[33] ^= 1;
    fix_crc(b, len);
    refused(b, len, "another position", "another position");
    static const char v2[] = "\x89MMOPT\r\n\x1a\nmmtree optimal 2 pegs 4 colors 4\n";
    refused((const unsigned char *)v2, sizeof v2 - 1, "older version (2)", "the old format");
    free(good);
    good = other(3, 4, MM_RULE_OPTIMAL, false, &n);
    refused(good, n, "of MM(3,4) optimal, not of MM(4,4) optimal", "another game");
    free(good);
    good = other(4, 4, MM_RULE_OPTIMAL_WORST, false, &n);
    refused(good, n, "of MM(4,4) optimal-worst, not", "another rule");
    free(good);
    good = other(4, 4, MM_RULE_OPTIMAL, true, &n);
    refused(good, n, "optimal consistent-only, not", "--consistent-only");
    free(good);
    free(b);
}

/* Not a regular file: refused, whatever it holds. */
static void not_files(void)
{
    mm_tree t;
    mm_optimal_report r;
    mm_diag d;
    remove(path);
    mkdir(path, 0700);
    if (!run(4, 4, MM_RULE_OPTIMAL, false, 0, false, &t, &r, &d))
        FAIL("a directory as the checkpoint: accepted");
    else
        printf("%-34s refused: %s\n", "a directory", d.msg);
    rmdir(path);
    if (mkfifo(path, 0600) == 0) {
        if (!run(4, 4, MM_RULE_OPTIMAL, false, 0, false, &t, &r, &d) ||
            !strstr(d.msg, "not a regular file"))
            FAIL("a FIFO as the checkpoint: %s", d.msg);
        else
            printf("%-34s refused: %s\n", "a FIFO", d.msg);
        remove(path);
    }
}

/* The final save fails (its directory went away): the tree all the same. */
static void save_fails(void)
{
    mm_tree t;
    mm_optimal_report r;
    mm_diag d;
    remove(path);
    remove_dir_at_start = true;
    mm_status st = run(4, 4, MM_RULE_OPTIMAL, false, 50, false, &t, &r, &d);
    if (st || r.proven || !r.checkpoint_failed || !strstr(d.msg, "cannot"))
        FAIL("the final save fails: status %d, proven %d, failed %d, '%s'", (int)st, r.proven,
             r.checkpoint_failed, d.msg);
    else
        printf("%-34s the tree, and: %s\n", "the final save fails", d.msg);
    if (!st)
        mm_tree_release(&t);
    /* and with no directory at all, the run is refused before it starts */
    st = run(4, 4, MM_RULE_OPTIMAL, false, 0, false, &t, &r, &d);
    if (!st) {
        FAIL("a checkpoint in no directory: accepted");
        mm_tree_release(&t);
    } else {
        printf("%-34s refused: %s\n", "a checkpoint in no directory", d.msg);
    }
    mkdir(dir, 0700);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path, sizeof path, "%s/c.ckpt", dir);
    layout();
    version3();
    table_round_trip();
    refusals();
    not_files();
    save_fails();
    remove(path);
    rmdir(dir);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}

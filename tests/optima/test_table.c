/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The table of exact optima against its trees: every line of
 * trees/optima/results.tsv names a tree in trees/optima/ that must read,
 * verify against its game, carry the line's rule, and have exactly the
 * line's total, worst case, histogram (so the codes at the worst depth)
 * and first guess; a proven line's bound is its value, a stopped line's
 * bound is below its tree.  Every tree in the folder has a line.
 *
 *   test_table SOURCE-ROOT
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/format.h"
#include "mmtree/verify.h"

#include "tests/check.h"

enum { F_PEGS, F_COLORS, F_REPEAT, F_RULE, F_STATUS, F_TOTAL, F_WORST, F_HIST, F_FIRST,
       F_LOWER, F_SECONDS, F_THREADS, NFIELDS };

typedef struct line {
    char *f[NFIELDS];
    char name[64];
} line;

/* Split s at tabs into exactly NFIELDS fields. */
static bool split_line(char *s, line *l)
{
    int n = 0;
    for (char *p = s;; p++) {
        if (n == NFIELDS)
            return false;
        l->f[n++] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p = '\0';
    }
    return n == NFIELDS;
}

static const char *objective(const char *rule)
{
    if (!strcmp(rule, "optimal"))
        return "optimal";
    if (!strcmp(rule, "optimal-consistent"))
        return "consistent";
    if (!strcmp(rule, "optimal-worst"))
        return "worst";
    return NULL;
}

static void hist_format(const mm_stats *s, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->worst && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%llu", i ? "," : "",
                               (unsigned long long)s->hist[i]);
}

static void check_line(const char *dir, line *l, int lineno)
{
    const char **f = (const char **)l->f;
    int p = atoi(f[F_PEGS]), c = atoi(f[F_COLORS]);
    bool repeat = !strcmp(f[F_REPEAT], "r");
    const char *obj = objective(f[F_RULE]);
    bool proven = !strcmp(f[F_STATUS], "proven");
    if (!obj || (!repeat && strcmp(f[F_REPEAT], "n")) ||
        (!proven && strcmp(f[F_STATUS], "stopped"))) {
        FAIL("results.tsv:%d: bad rule, repeat or status", lineno);
        return;
    }
    snprintf(l->name, sizeof l->name, "mm%d-%d%s-%s.mmt", p, c, repeat ? "" : "n", obj);
    char path[4096 + 64], what[128];
    snprintf(path, sizeof path, "%s/%s", dir, l->name);
    snprintf(what, sizeof what, "results.tsv:%d (%s)", lineno, l->name);

    mm_tree t;
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_tree_read_file(path, MM_FMT_AUTO, 0, &t, &d)) {
        FAIL("%s: %s", what, d.msg);
        return;
    }
    if (t.pegs != p || t.colors != c || t.repeat != repeat) {
        FAIL("%s: the tree is of MM(%d,%d%s)", what, t.pegs, t.colors, t.repeat ? "" : "n");
        mm_tree_release(&t);
        return;
    }
    if (!t.prov.rule || strcmp(t.prov.rule, f[F_RULE]) || t.prov.consistent_only ||
        t.prov.first != MM_NO_CODE)
        FAIL("%s: the tree was not built by --rule %s alone", what, f[F_RULE]);
    if (t.prov.proof != MM_PROOF_NONE && (t.prov.proof == MM_PROOF_PROVEN) != proven)
        FAIL("%s: the tree says %s, the table %s", what,
             t.prov.proof == MM_PROOF_PROVEN ? "proven" : "not proven", f[F_STATUS]);
    if (mm_game_init(&g, p, c, repeat, &d)) {
        FAIL("%s: %s", what, d.msg);
        mm_tree_release(&t);
        return;
    }
    mm_verify_opts vo;
    mm_verify_opts_init(&vo);
    mm_verify_report r;
    if (mm_tree_verify(&t, &g, &vo, &r, &d)) {
        FAIL("%s: verify: %s", what, d.msg);
    } else {
        char hist[1024], first[MM_MAX_PEGS + 1];
        const mm_stats *s = &r.stats;
        hist_format(s, hist, sizeof hist);
        mm_code_format(&g, t.nodes[0].guess, first);
        uint64_t total = strtoull(f[F_TOTAL], NULL, 10), lower = strtoull(f[F_LOWER], NULL, 10);
        uint64_t value = !strcmp(obj, "worst") ? (uint64_t)s->worst : s->total;
        if (!r.valid)
            FAIL("%s: the tree does not verify (%llu problems)", what,
                 (unsigned long long)r.nproblems);
        if (s->total != total)
            FAIL("%s: total %llu, the table %s", what, (unsigned long long)s->total, f[F_TOTAL]);
        if (s->worst != atoi(f[F_WORST]))
            FAIL("%s: worst case %d, the table %s", what, s->worst, f[F_WORST]);
        if (strcmp(hist, f[F_HIST]))
            FAIL("%s: histogram %s (%llu at the worst depth), the table %s", what, hist,
                 (unsigned long long)s->hist[s->worst - 1], f[F_HIST]);
        if (strcmp(first, f[F_FIRST]))
            FAIL("%s: first guess %s, the table %s", what, first, f[F_FIRST]);
        if (proven ? lower != value : lower > value)
            FAIL("%s: lower bound %s with a %s tree of %llu", what, f[F_LOWER], f[F_STATUS],
                 (unsigned long long)value);
        mm_verify_report_release(&r);
    }
    mm_game_release(&g);
    mm_tree_release(&t);
}

/* Every .mmt file in dir is the tree of some line. */
static void check_folder(const char *dir, const line *lines, size_t n)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        FAIL("cannot open '%s'", dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".mmt"))
            continue;
        size_t i = 0;
        while (i < n && strcmp(lines[i].name, e->d_name))
            i++;
        if (i == n)
            FAIL("trees/optima/%s has no line in results.tsv", e->d_name);
    }
    closedir(dp);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_table SOURCE-ROOT\n");
        return 2;
    }
    char dir[4000], path[4096];
    snprintf(dir, sizeof dir, "%s/trees/optima", argv[1]);
    snprintf(path, sizeof path, "%s/results.tsv", dir);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "cannot open '%s'\n", path);
        return 1;
    }
    static char buf[1 << 12];
    line *lines = NULL;
    size_t n = 0, cap = 0;
    int lineno = 0;
    while (fgets(buf, sizeof buf, fp)) {
        lineno++;
        buf[strcspn(buf, "\n")] = '\0';
        if (buf[0] == '#' || !buf[0])
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            line *a = realloc(lines, cap * sizeof *a);
            if (!a)
                return 2;
            lines = a;
        }
        line *l = &lines[n];
        memset(l, 0, sizeof *l);
        char *s = strdup(buf);
        if (!s)
            return 2;
        if (!split_line(s, l)) {
            FAIL("results.tsv:%d: not %d tab-separated fields", lineno, NFIELDS);
            free(s);
            continue;
        }
        check_line(dir, l, lineno);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(lines[i].name, l->name))
                FAIL("results.tsv:%d: a second line for %s", lineno, l->name);
        n++;
    }
    fclose(fp);
    check_folder(dir, lines, n);
    printf("%zu trees checked against trees/optima/results.tsv\n", n);
    for (size_t i = 0; i < n; i++)
        free(lines[i].f[0]);
    free(lines);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}

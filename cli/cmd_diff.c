/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/format.h"
#include "mmtree/verify.h"
#include "mmtree/mmtree.h"

static const char diff_help[] =
    "usage: mmtree diff [--brief] [--per-code] [--json] A B\n"
    "\n"
    "Compare two trees of the same game, each in any format (detected; '-'\n"
    "reads one of them from stdin).  Both are walked in step, reply by reply;\n"
    "at the first node on a path where they differ (another guess, or the\n"
    "same guess with other counts) one line is printed:\n"
    "\n"
    "  path 1122:BWW,1213:BB: A 4(1145: ...) B 4(4222: ...); guesses below:\n"
    "  A 9, B 8 (-1); worst below: A 2, B 2\n"
    "\n"
    "(the node as count(guess: reply count, ...), '*' after a guess that\n"
    "cannot be the code; replies in Knuth's letters, B per black hit, W per\n"
    "white hit, '-' for none).  A summary follows: each tree's total and\n"
    "expected number of guesses and worst case, and the change from A to B.\n"
    "\n"
    "  --per-code compare code by code instead: each tree is played against\n"
    "             every code, and each code whose number of guesses differs\n"
    "             gets a line 'CODE: A 5, B 4 (-1)'; then both histograms\n"
    "             (codes found with 1, 2, ... guesses) and their change\n"
    "  --brief    print only the summary\n"
    "  --json     one JSON object: pegs, colors, repeat, a and b (file and\n"
    "             the stats keys of 'stats --json'), then differences [{path,\n"
    "             kind, a, b}] (a and b: guess, count, consistent, total,\n"
    "             worst below) or with --per-code changes [{code, a, b}], and\n"
    "             change {total, expected, worst, and with --per-code\n"
    "             histogram}\n"
    "  -h, --help this text\n"
    "\n"
    "Exit status: 0 identical (with --per-code: every code needs as many\n"
    "guesses in both), 1 different, 2 unreadable input, different games or\n"
    "bad usage.\n";

static int read_tree(const char *path, mm_tree *t)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree_init(t, 0, 0, true);
    mm_status st = mm_tree_read_file(path, MM_FMT_AUTO, 0, t, &d);
    return st ? cli_report(&d, st) : EXIT_OK;
}

static void print_items(const mm_diff_report *r, const mm_tree *a, const mm_tree *b,
                        const mm_game *g)
{
    char route[512], na[512], nb[512];
    for (uint64_t i = 0; i < r->nitems; i++) {
        const mm_diff_item *it = &r->items[i];
        printf("%s%s: A %s B %s; guesses below: A %llu, B %llu (%+lld); worst below: A %d, B %d\n",
               it->a ? "path " : "", mm_paths_format(&r->paths, g, it->a, route, sizeof route),
               mm_node_format(a, g, it->a, na, sizeof na),
               mm_node_format(b, g, it->b, nb, sizeof nb),
               (unsigned long long)it->total_a, (unsigned long long)it->total_b,
               (long long)(it->total_b - it->total_a), it->worst_a, it->worst_b);
    }
}

static void print_summary(const char *pa, const char *pb, const mm_diff_report *r)
{
    const mm_stats *a = &r->a, *b = &r->b;
    double ea = a->codes ? (double)a->total / (double)a->codes : 0.0;
    double eb = b->codes ? (double)b->total / (double)b->codes : 0.0;
    printf("A %s: total %llu, expected %.4f, worst %d\n", pa, (unsigned long long)a->total, ea,
           a->worst);
    printf("B %s: total %llu, expected %.4f, worst %d\n", pb, (unsigned long long)b->total, eb,
           b->worst);
    printf("change: total %+lld, expected %+.4f, worst %+d; %llu differing node%s\n",
           (long long)(b->total - a->total), eb - ea, b->worst - a->worst,
           (unsigned long long)r->nitems, r->nitems == 1 ? "" : "s");
}

/* Both trees' stats under "a" and "b". */
static void json_sides(json_writer *j, const char *pa, const char *pb, const mm_stats *a,
                       const mm_stats *b, const mm_tree *ta, const mm_tree *tb,
                       const mm_game *g)
{
    const char *paths[2] = {pa, pb};
    const mm_stats *st[2] = {a, b};
    const mm_tree *t[2] = {ta, tb};
    cli_json_game(j, g->pegs, g->colors, g->repeat);
    for (int i = 0; i < 2; i++) {
        json_key(j, i ? "b" : "a");
        json_object_begin(j);
        json_key(j, "file");
        json_str(j, strcmp(paths[i], "-") ? paths[i] : "<stdin>");
        cli_json_stats(j, st[i], g, t[i]->nodes[0].guess);
        json_object_end(j);
    }
}

static void json_change(json_writer *j, const mm_stats *a, const mm_stats *b, bool hist)
{
    double ea = a->codes ? (double)a->total / (double)a->codes : 0.0;
    double eb = b->codes ? (double)b->total / (double)b->codes : 0.0;
    json_key(j, "change");
    json_object_begin(j);
    json_key(j, "total");
    json_int(j, (int64_t)(b->total - a->total));
    json_key(j, "expected");
    json_double(j, eb - ea, 10);
    json_key(j, "worst");
    json_int(j, b->worst - a->worst);
    if (hist) {
        int n = a->worst > b->worst ? a->worst : b->worst;
        json_key(j, "histogram");
        json_array_begin(j);
        for (int i = 0; i < n && i < 64; i++)
            json_int(j, (int64_t)(b->hist[i] - a->hist[i]));
        json_array_end(j);
    }
    json_object_end(j);
}

static void json_side(json_writer *j, const mm_tree *t, const mm_game *g, uint32_t node,
                      uint64_t total, int worst)
{
    char code[MM_MAX_PEGS + 1] = "?";
    const mm_node *nd = &t->nodes[node];
    if (nd->guess < g->ncodes)
        mm_code_format(g, nd->guess, code);
    json_object_begin(j);
    json_key(j, "guess");
    json_str(j, code);
    json_key(j, "count");
    json_uint(j, nd->count);
    json_key(j, "consistent");
    json_bool(j, nd->flags & MM_NODE_CONSISTENT);
    json_key(j, "total");
    json_uint(j, total);
    json_key(j, "worst");
    json_int(j, worst);
    json_object_end(j);
}

static int print_json(const char *pa, const char *pb, const mm_diff_report *r,
                      const mm_tree *a, const mm_tree *b, const mm_game *g, bool brief)
{
    strbuf buf = {0};
    json_writer j;
    json_init(&j, &buf);
    json_object_begin(&j);
    json_sides(&j, pa, pb, &r->a, &r->b, a, b, g);
    json_key(&j, "nodes_differing");
    json_uint(&j, r->nitems);
    if (!brief) {
        json_key(&j, "differences");
        json_array_begin(&j);
        for (uint64_t i = 0; i < r->nitems; i++) {
            const mm_diff_item *it = &r->items[i];
            uint32_t n = mm_paths_get(&r->paths, it->a, NULL, 0);
            mm_step *steps = malloc(((size_t)n + 1) * sizeof *steps);
            size_t size = (size_t)n * MM_STEP_MAX + 1;
            char *text = malloc(size);
            if (!steps || !text) {
                free(steps);
                free(text);
                buf.failed = true;
                break;
            }
            mm_paths_get(&r->paths, it->a, steps, n);
            json_object_begin(&j);
            json_key(&j, "path");
            json_str(&j, mm_path_format(g, steps, n, text, size));
            json_key(&j, "kind");
            json_str(&j, it->kind == MM_DIFF_GUESS ? "guess" : "shape");
            json_key(&j, "a");
            json_side(&j, a, g, it->a, it->total_a, it->worst_a);
            json_key(&j, "b");
            json_side(&j, b, g, it->b, it->total_b, it->worst_b);
            json_object_end(&j);
            free(steps);
            free(text);
        }
        json_array_end(&j);
    }
    json_change(&j, &r->a, &r->b, false);
    json_object_end(&j);
    return cli_json_print(&buf);
}

/* ---- --per-code ---- */

static void print_codes_text(const char *pa, const char *pb, const mm_code_diff *r,
                             const mm_game *g, bool brief)
{
    char code[MM_MAX_PEGS + 1];
    const mm_stats *a = &r->a, *b = &r->b;
    for (uint64_t i = 0; i < r->nchanges && !brief; i++) {
        const mm_code_change *c = &r->changes[i];
        printf("%s: A %u, B %u (%+lld)\n", mm_code_format(g, c->code, code), c->guesses_a,
               c->guesses_b, (long long)c->guesses_b - (long long)c->guesses_a);
    }
    int n = a->worst > b->worst ? a->worst : b->worst;
    if (n > 64)
        n = 64;
    printf("guesses ");
    for (int i = 0; i < n; i++)
        printf(" %7d", i + 1);
    printf("\nA       ");
    for (int i = 0; i < n; i++)
        printf(" %7llu", (unsigned long long)a->hist[i]);
    printf("\nB       ");
    for (int i = 0; i < n; i++)
        printf(" %7llu", (unsigned long long)b->hist[i]);
    printf("\nchange  ");
    for (int i = 0; i < n; i++)
        printf(" %+7lld", (long long)(b->hist[i] - a->hist[i]));
    putchar('\n');
    double ea = a->codes ? (double)a->total / (double)a->codes : 0.0;
    double eb = b->codes ? (double)b->total / (double)b->codes : 0.0;
    printf("A %s: total %llu, expected %.4f, worst %d\n", pa, (unsigned long long)a->total, ea,
           a->worst);
    printf("B %s: total %llu, expected %.4f, worst %d\n", pb, (unsigned long long)b->total, eb,
           b->worst);
    printf("change: total %+lld, expected %+.4f, worst %+d; %llu code%s differ%s\n",
           (long long)(b->total - a->total), eb - ea, b->worst - a->worst,
           (unsigned long long)r->nchanges, r->nchanges == 1 ? "" : "s",
           r->nchanges == 1 ? "s" : "");
}

static int print_codes_json(const char *pa, const char *pb, const mm_code_diff *r,
                            const mm_tree *a, const mm_tree *b, const mm_game *g, bool brief)
{
    char code[MM_MAX_PEGS + 1];
    strbuf buf = {0};
    json_writer j;
    json_init(&j, &buf);
    json_object_begin(&j);
    json_sides(&j, pa, pb, &r->a, &r->b, a, b, g);
    json_key(&j, "codes_differing");
    json_uint(&j, r->nchanges);
    if (!brief) {
        json_key(&j, "changes");
        json_array_begin(&j);
        for (uint64_t i = 0; i < r->nchanges; i++) {
            json_object_begin(&j);
            json_key(&j, "code");
            json_str(&j, mm_code_format(g, r->changes[i].code, code));
            json_key(&j, "a");
            json_uint(&j, r->changes[i].guesses_a);
            json_key(&j, "b");
            json_uint(&j, r->changes[i].guesses_b);
            json_object_end(&j);
        }
        json_array_end(&j);
    }
    json_change(&j, &r->a, &r->b, true);
    json_object_end(&j);
    return cli_json_print(&buf);
}

static int per_code(const char *pa, const char *pb, const mm_tree *a, const mm_tree *b,
                    const mm_game *g, bool brief, bool json)
{
    mm_code_diff r;
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_tree_diff_codes(a, b, g, &r, &d);
    if (st)
        return st == MM_ERR_USAGE ? cli_usage_error("diff", "%s", d.msg) : cli_report(&d, st);
    int rc = EXIT_OK;
    if (json)
        rc = print_codes_json(pa, pb, &r, a, b, g, brief);
    else
        print_codes_text(pa, pb, &r, g, brief);
    if (!rc)
        rc = r.nchanges ? EXIT_CHECK : EXIT_OK;
    mm_code_diff_release(&r);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    enum { OPT_PER_CODE = 256, OPT_JSON };
    static const struct option longopts[] = {
        {"brief", no_argument, NULL, 'b'},
        {"per-code", no_argument, NULL, OPT_PER_CODE},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool brief = false, codes = false, json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': brief = true; break;
        case OPT_PER_CODE: codes = true; break;
        case OPT_JSON: json = true; break;
        case 'h': fputs(diff_help, stdout); return EXIT_OK;
        default: return cli_usage_error("diff", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("diff", "expects two files; see --help");
    const char *pa = argv[optind], *pb = argv[optind + 1];
    if (!strcmp(pa, "-") && !strcmp(pb, "-"))
        return cli_usage_error("diff", "only one of the files can be '-'");

    mm_tree a, b;
    mm_game g;
    mm_diff_report r;
    mm_diag d;
    mm_diag_clear(&d);
    int rc = read_tree(pa, &a);
    if (rc)
        goto out_a;
    if ((rc = read_tree(pb, &b)))
        goto out_b;
    mm_status st = mm_game_init(&g, a.pegs, a.colors, a.repeat, &d);
    if (st) {
        rc = cli_report(&d, st);
        goto out_b;
    }
    if (codes) {
        rc = per_code(pa, pb, &a, &b, &g, brief, json);
        goto out_game;
    }
    if ((st = mm_tree_diff(&a, &b, &g, &r, &d))) {
        rc = cli_usage_error("diff", "%s", d.msg);
        goto out_game;
    }
    if (json) {
        rc = print_json(pa, pb, &r, &a, &b, &g, brief);
    } else {
        if (!brief)
            print_items(&r, &a, &b, &g);
        print_summary(pa, pb, &r);
    }
    if (!rc)
        rc = r.nitems ? EXIT_CHECK : EXIT_OK;
    mm_diff_report_release(&r);
out_game:
    mm_game_release(&g);
out_b:
    mm_tree_release(&b);
out_a:
    mm_tree_release(&a);
    return rc;
}

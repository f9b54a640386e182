/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/mmtree.h"

static const char partition_help[] =
    "usage: mmtree partition [GUESS...] [options]\n"
    "\n"
    "The partition each GUESS makes of the codes of MM(p,c), or of those still\n"
    "possible after --after PATH: how many codes give each reply (in Knuth's\n"
    "order, BBBB last), and how each one-step rule scores that partition:\n"
    "\n"
    "  consistent  the guess can be the code (ties prefer it)\n"
    "  parts       the number of parts, the winning one included: kooi (most)\n"
    "  largest     the largest part: knuth (least)\n"
    "  expected    the sum of squared sizes over the codes, the expected size\n"
    "              of the part a reply leaves: irving (least)\n"
    "  entropy     of the partition, in bits: entropy (most)\n"
    "  e3          the perfect-tree totals of the parts but the winning one:\n"
    "              e3 (least)\n"
    "  branch2     log_parts(codes - profile + 1), profile being the codes of\n"
    "              the set whose parts have these sizes: branch2 (least)\n"
    "\n"
    "  -p, --pegs P          pegs, 1..8 (default 4)\n"
    "  -c, --colors C        colours, 1..16 (default 6)\n"
    "  -n, --no-repeat       codes have distinct colours\n"
    "      --after PATH      the codes left after PATH, '1122:B,1344:W' (B per\n"
    "                        black hit, W per white hit, '-' for none)\n"
    "      --best            add the guess each one-step rule makes there, as\n"
    "                        'mmtree build' would (with --consistent-only and\n"
    "                        --tie-break as given)\n"
    "      --consistent-only for --best: guesses that can be the code only\n"
    "      --tie-break T     for --best: first | last | inconsistent-first\n"
    "      --shapes          count the different partitions, as multisets of\n"
    "                        part sizes, that all the guesses of the game make\n"
    "      --bounds          lower bounds on any strategy for these codes, in\n"
    "                        guesses from here, the last included: a perfect\n"
    "                        tree (each guess leaves at most b parts besides the\n"
    "                        winning reply, all full), with b = n(A) - 1\n"
    "                        (Neuwirth's bound) and with b = the most parts a\n"
    "                        guess makes here (the exact search's); then the\n"
    "                        best first guess with a perfect tree for each part\n"
    "      --json            one JSON object: pegs, colors, repeat, path, codes,\n"
    "                        partitions (guess, consistent, sizes [{reply, count}],\n"
    "                        parts, largest, squares, expected, entropy, e3,\n"
    "                        profile, branch2), best, shapes, bounds\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage.\n";

enum { OPT_AFTER = 256, OPT_BEST, OPT_CONSISTENT, OPT_TIE, OPT_SHAPES, OPT_BOUNDS,
       OPT_JSON };

enum { MAX_STEPS = 64, MAX_GUESSES = 64 };

/* What the command computes, for printing. */
typedef struct part_run {
    mm_game g;
    mm_step steps[MAX_STEPS];
    uint32_t nsteps;
    uint16_t played;        /* colours of the path's guesses */
    const char *path;
    mm_code *codes;
    uint32_t n;
    mm_partition parts[MAX_GUESSES];
    int nparts;
    mm_code best[MM_RULE_COUNT_ONE_STEP];
    bool want_best, want_shapes, want_bounds;
    uint32_t shapes;
    mm_bounds bounds;
} part_run;

static void print_text(const part_run *r)
{
    const mm_game *g = &r->g;
    uint64_t replies = mm_game_reply_set(g);
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    printf("MM(%d,%d%s)%s%s: %u codes\n", g->pegs, g->colors, g->repeat ? "" : ", no repeat",
           r->nsteps ? " after " : "", r->nsteps ? r->path : "", r->n);
    if (r->want_best) {
        printf("best:");
        for (int k = 0; k < MM_RULE_COUNT_ONE_STEP; k++)
            printf("%s %s %s", k ? "," : "", mm_rule_name((mm_rule)k),
                   mm_code_format(g, r->best[k], code));
        printf("\n");
    }
    if (r->nparts) {
        printf("%-11s", "reply");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*s", g->pegs > 6 ? g->pegs + 1 : 7, mm_code_format(g, r->parts[i].guess, code));
        printf("\n");
        int w = g->pegs > 6 ? g->pegs + 1 : 7;
        for (int s = 0; s < g->nreplies; s++) {
            if (!(replies >> s & 1))
                continue;
            printf("%-11s", mm_reply_format(g, s, reply));
            for (int i = 0; i < r->nparts; i++)
                printf(" %*u", w, r->parts[i].size[s]);
            printf("\n");
        }
        printf("%-11s", "consistent");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*s", w, r->parts[i].consistent ? "yes" : "no");
        printf("\n%-11s", "parts");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*d", w, r->parts[i].parts);
        printf("\n%-11s", "largest");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*u", w, r->parts[i].largest);
        printf("\n%-11s", "expected");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*.2f", w, (double)r->parts[i].squares / r->n);
        printf("\n%-11s", "entropy");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*.4f", w, r->parts[i].entropy);
        printf("\n%-11s", "e3");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*llu", w, (unsigned long long)r->parts[i].e3);
        printf("\n%-11s", "branch2");
        for (int i = 0; i < r->nparts; i++)
            printf(" %*.4f", w, r->parts[i].branch2);
        printf("\n");
    }
    if (r->want_shapes)
        printf("different partitions (multisets of part sizes) made by the %u guesses: %u\n",
               g->ncodes, r->shapes);
    if (r->want_bounds) {
        const mm_bounds *b = &r->bounds;
        char c1[MM_MAX_PEGS + 1], c2[MM_MAX_PEGS + 1];
        printf("lower bounds (replies the game can give, n(A): %d; most parts a guess "
               "makes here, besides the winning one: %d)\n", b->answers, b->branching);
        printf("  perfect tree, b = %-3d total %llu (%.4f a code), worst case %d\n",
               b->answers - 1, (unsigned long long)b->total, (double)b->total / r->n, b->worst);
        printf("  perfect tree, b = %-3d total %llu (%.4f a code), worst case %d\n",
               b->branching, (unsigned long long)b->total_dynamic,
               (double)b->total_dynamic / r->n, b->worst_dynamic);
        printf("  one guess, then b = %-3d total %llu (%.4f a code; %s), worst case %d (%s)\n",
               b->answers - 1, (unsigned long long)b->step_total,
               (double)b->step_total / r->n, mm_code_format(g, b->step_total_guess, c1),
               b->step_worst, mm_code_format(g, b->step_worst_guess, c2));
        printf("  one guess, then b = %-3d total %llu (%.4f a code), worst case %d\n",
               b->branching, (unsigned long long)b->step_total_dynamic,
               (double)b->step_total_dynamic / r->n, b->step_worst_dynamic);
    }
}

static int print_json(const part_run *r)
{
    const mm_game *g = &r->g;
    uint64_t replies = mm_game_reply_set(g);
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    strbuf b = {0};
    json_writer j;
    json_init(&j, &b);
    json_object_begin(&j);
    cli_json_game(&j, g->pegs, g->colors, g->repeat);
    json_key(&j, "path");
    json_str(&j, r->nsteps ? r->path : "");
    json_key(&j, "codes");
    json_uint(&j, r->n);
    json_key(&j, "partitions");
    json_array_begin(&j);
    for (int i = 0; i < r->nparts; i++) {
        const mm_partition *p = &r->parts[i];
        json_object_begin(&j);
        json_key(&j, "guess");
        json_str(&j, mm_code_format(g, p->guess, code));
        json_key(&j, "consistent");
        json_bool(&j, p->consistent);
        json_key(&j, "sizes");
        json_array_begin(&j);
        for (int s = 0; s < g->nreplies; s++) {
            if (!(replies >> s & 1))
                continue;
            json_object_begin(&j);
            json_key(&j, "reply");
            json_str(&j, mm_reply_format(g, s, reply));
            json_key(&j, "count");
            json_uint(&j, p->size[s]);
            json_object_end(&j);
        }
        json_array_end(&j);
        json_key(&j, "parts");
        json_int(&j, p->parts);
        json_key(&j, "largest");
        json_uint(&j, p->largest);
        json_key(&j, "squares");
        json_uint(&j, p->squares);
        json_key(&j, "expected");
        json_double(&j, (double)p->squares / r->n, 10);
        json_key(&j, "entropy");
        json_double(&j, p->entropy, 10);
        json_key(&j, "e3");
        json_uint(&j, p->e3);
        json_key(&j, "profile");
        json_uint(&j, p->profile);
        json_key(&j, "branch2");
        json_double(&j, p->branch2, 10);
        json_object_end(&j);
    }
    json_array_end(&j);
    if (r->want_best) {
        json_key(&j, "best");
        json_object_begin(&j);
        for (int k = 0; k < MM_RULE_COUNT_ONE_STEP; k++) {
            json_key(&j, mm_rule_name((mm_rule)k));
            json_str(&j, mm_code_format(g, r->best[k], code));
        }
        json_object_end(&j);
    }
    if (r->want_shapes) {
        json_key(&j, "shapes");
        json_uint(&j, r->shapes);
    }
    if (r->want_bounds) {
        const mm_bounds *bd = &r->bounds;
        json_key(&j, "bounds");
        json_object_begin(&j);
        json_key(&j, "answers");
        json_int(&j, bd->answers);
        json_key(&j, "branching");
        json_int(&j, bd->branching);
        json_key(&j, "total");
        json_uint(&j, bd->total);
        json_key(&j, "worst");
        json_int(&j, bd->worst);
        json_key(&j, "total_dynamic");
        json_uint(&j, bd->total_dynamic);
        json_key(&j, "worst_dynamic");
        json_int(&j, bd->worst_dynamic);
        json_key(&j, "step_total");
        json_uint(&j, bd->step_total);
        json_key(&j, "step_total_guess");
        json_str(&j, mm_code_format(g, bd->step_total_guess, code));
        json_key(&j, "step_worst");
        json_int(&j, bd->step_worst);
        json_key(&j, "step_worst_guess");
        json_str(&j, mm_code_format(g, bd->step_worst_guess, code));
        json_key(&j, "step_total_dynamic");
        json_uint(&j, bd->step_total_dynamic);
        json_key(&j, "step_worst_dynamic");
        json_int(&j, bd->step_worst_dynamic);
        json_object_end(&j);
    }
    json_object_end(&j);
    return cli_json_print(&b);
}

static mm_status add_partition(part_run *r, mm_code x, mm_diag *d)
{
    mm_partition *p = &r->parts[r->nparts];
    mm_status st = mm_partition_make(&r->g, r->codes, r->n, x, p, d);
    if (st)
        return st;
    mm_partition_branch2(&r->g, r->codes, r->n, p);
    r->nparts++;
    return MM_OK;
}

/* The codes left after the path, and the colours it played. */
static mm_status after(part_run *r, mm_diag *d)
{
    char path[MM_STEP_MAX * MAX_STEPS];
    uint32_t empty_at;
    for (uint32_t i = 0; i < r->nsteps; i++) {
        r->played |= r->g.colorset[r->steps[i].guess];
        if (r->steps[i].slot == r->g.win) {
            mm_path_format(&r->g, r->steps, i + 1, path, sizeof path);
            return mm_diag_set(d, MM_ERR_USAGE, "the game is over after %s", path);
        }
    }
    mm_status st = mm_codes_after(&r->g, r->steps, r->nsteps, &r->codes, &r->n, &empty_at, d);
    if (st || r->n)
        return st;
    mm_path_format(&r->g, r->steps, empty_at, path, sizeof path);
    return mm_diag_set(d, MM_ERR_USAGE, "no code of MM(%d,%d%s) gives the replies %s",
                       r->g.pegs, r->g.colors, r->g.repeat ? "" : ", no repeat", path);
}

/* Everything the options ask for, into r (codes and game set up). */
static mm_status compute(part_run *r, const mm_compile_opts *o, char **guesses, int ng,
                         mm_diag *d)
{
    mm_status st;
    for (int i = 0; i < ng; i++) {
        mm_code x;
        if ((st = mm_code_parse(&r->g, guesses[i], strlen(guesses[i]), &x, d)) ||
            (st = add_partition(r, x, d)))
            return st;
    }
    if (r->want_best) {
        for (int k = 0; k < MM_RULE_COUNT_ONE_STEP; k++) {
            mm_compile_opts ok = *o;
            ok.rule = (mm_rule)k;
            if (k == MM_RULE_NAIVE)
                ok.tie_break = MM_TIE_FIRST;   /* no ties: the first code */
            if ((st = mm_compile_guess(&r->g, &ok, r->codes, r->n, r->played, &r->best[k], d)))
                return st;
            /* show the partition of each guess chosen, once */
            bool have = false;
            for (int i = 0; i < r->nparts; i++)
                have |= r->parts[i].guess == r->best[k];
            if (!have && (st = add_partition(r, r->best[k], d)))
                return st;
        }
    }
    if (r->want_shapes && (st = mm_partition_shapes(&r->g, r->codes, r->n, &r->shapes, d)))
        return st;
    if (r->want_bounds &&
        (st = mm_bounds_make(&r->g, r->played, r->codes, r->n, &r->bounds, d)))
        return st;
    return MM_OK;
}

int cmd_partition(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_GAME_LONGOPTS,
        {"after", required_argument, NULL, OPT_AFTER},
        {"best", no_argument, NULL, OPT_BEST},
        {"consistent-only", no_argument, NULL, OPT_CONSISTENT},
        {"tie-break", required_argument, NULL, OPT_TIE},
        {"shapes", no_argument, NULL, OPT_SHAPES},
        {"bounds", no_argument, NULL, OPT_BOUNDS},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static part_run run;   /* large: not on the stack */
    part_run *r = &run;
    long pegs = 4, colors = 6;
    bool repeat = true, json = false;
    const char *tie = NULL;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    memset(r, 0, sizeof *r);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":" CLI_GAME_SHORTOPTS "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'p': case 'c': case 'n':
            if (cli_game_option("partition", c, &pegs, &colors, &repeat) >= 0)
                return EXIT_BAD;
            break;
        case OPT_AFTER: r->path = optarg; break;
        case OPT_BEST: r->want_best = true; break;
        case OPT_CONSISTENT: o.consistent_only = true; break;
        case OPT_TIE: tie = optarg; break;
        case OPT_SHAPES: r->want_shapes = true; break;
        case OPT_BOUNDS: r->want_bounds = true; break;
        case OPT_JSON: json = true; break;
        case 'h': fputs(partition_help, stdout); return EXIT_OK;
        case ':': return cli_usage_error("partition", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("partition", "unknown option '%s'", argv[optind - 1]);
        }
    }
    int ng = argc - optind;
    if (ng == 0 && !r->want_best && !r->want_shapes && !r->want_bounds)
        return cli_usage_error("partition", "give a guess, --best, --shapes or --bounds; "
                                            "see --help");
    if (ng > MAX_GUESSES - MM_RULE_COUNT_ONE_STEP)
        return cli_usage_error("partition", "at most %d guesses at a time",
                               MAX_GUESSES - MM_RULE_COUNT_ONE_STEP);
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st;
    if (tie && (st = mm_tie_break_parse(tie, &o.tie_break, &d)))
        return cli_usage_error("partition", "--tie-break: %s", d.msg);
    if ((st = mm_game_init(&r->g, (int)pegs, (int)colors, repeat, &d)))
        return cli_usage_error("partition", "%s", d.msg);
    int rc = EXIT_OK;
    if (r->path && (st = mm_path_parse(&r->g, r->path, r->steps, MAX_STEPS, &r->nsteps, &d))) {
        rc = cli_usage_error("partition", "--after: %s", d.msg);
        goto out;
    }
    if ((st = after(r, &d))) {
        rc = st == MM_ERR_NOMEM ? cli_report(&d, st) : cli_usage_error("partition", "--after: %s", d.msg);
        goto out;
    }
    if ((st = compute(r, &o, argv + optind, ng, &d))) {
        rc = st == MM_ERR_NOMEM ? cli_report(&d, st) : cli_usage_error("partition", "%s", d.msg);
        goto out;
    }
    if (json)
        rc = print_json(r);
    else
        print_text(r);
out:
    free(r->codes);
    mm_game_release(&r->g);
    return rc;
}

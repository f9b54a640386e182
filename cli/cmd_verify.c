#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/format.h"
#include "mmtree/verify.h"
#include "mmtree/mmtree.h"

static const char verify_help[] =
    "usage: mmtree verify [--json] [--suggest] [--max-problems N] FILE|-\n"
    "\n"
    "Check a tree in any format (detected) against its game: every code is\n"
    "found exactly once; at every node the stated count is the number of\n"
    "codes still possible, the children's counts are the parts the guess\n"
    "makes, the guess is a code, and every marker states the truth (the\n"
    "last slot 1 or 0, '*', n(y), n(yx), a count written alone).  Every\n"
    "problem is reported, up to a limit, on stdout, one a line:\n"
    "\n"
    "  FILE:LINE:COL: error: path 1122:B,1344:W: stated 44 codes, 43 possible\n"
    "\n"
    "The path gives the guess and the reply at each step from the root;\n"
    "replies are written with Knuth's letters, one B per black hit and one W\n"
    "per white hit, '-' for none.  A summary follows: the total and expected\n"
    "number of guesses, the worst case and the histogram (over the codes the\n"
    "tree truly finds).\n"
    "\n"
    "  --json             one JSON object instead: file, valid, problems[]\n"
    "                     (kind, line, col, offset, path, guess or code,\n"
    "                     stated, true, ...), problems_total, stats\n"
    "  --suggest          where the stated parts (or a condensed form) do not\n"
    "                     match, list the guesses that would make them true,\n"
    "                     fewest pegs changed first, with Irving's '*' after\n"
    "                     a guess that cannot be the code: how a misprinted\n"
    "                     guess is recovered\n"
    "  --max-problems N   report at most N problems (default 100; all are\n"
    "                     counted)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 valid, 1 invalid, 2 unreadable input or bad usage.\n";

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_path(const mm_verify_report *r, uint32_t node)
{
    const mm_game *g = r->g;
    uint32_t n = mm_paths_get(&r->paths, node, NULL, 0);
    mm_step *steps = n ? malloc(n * sizeof *steps) : NULL;
    putchar('[');
    if (steps) {
        mm_paths_get(&r->paths, node, steps, n);
        for (uint32_t i = 0; i < n; i++) {
            char code[MM_MAX_PEGS + 1] = "?", reply[MM_MAX_PEGS + 1];
            if (steps[i].guess < g->ncodes)
                mm_code_format(g, steps[i].guess, code);
            printf("%s{\"guess\": \"%s\", \"reply\": \"%s\", \"black\": %d, \"white\": %d}",
                   i ? ", " : "", code, mm_reply_format(g, steps[i].slot, reply),
                   g->black[steps[i].slot], g->white[steps[i].slot]);
        }
    }
    putchar(']');
    free(steps);
}

static void json_parts(const mm_game *g, const uint32_t *parts)
{
    putchar('[');
    for (int s = 0; s < g->nreplies; s++)
        printf("%s%u", s ? ", " : "", parts[s]);
    putchar(']');
}

static void json_problem(const mm_verify_report *r, const mm_problem *p)
{
    const mm_game *g = r->g;
    char code[MM_MAX_PEGS + 1] = "?", msg[1024];
    if (p->code < g->ncodes)
        mm_code_format(g, p->code, code);
    printf("{\"kind\": \"%s\"", mm_problem_kind_name(p->kind));
    if (p->kind == MM_PROBLEM_MARKER)
        printf(", \"marker\": \"%s\"", mm_marker_name(p->marker));
    if (p->where.line)
        printf(", \"line\": %u, \"col\": %u", p->where.line, p->where.col);
    else if (p->where.offset >= 0)
        printf(", \"offset\": %lld", (long long)p->where.offset);
    printf(", \"path\": ");
    json_path(r, p->node);
    bool coverage = p->kind == MM_PROBLEM_FOUND_TWICE || p->kind == MM_PROBLEM_NOT_FOUND;
    printf(", \"%s\": \"%s\"", coverage ? "code" : "guess", code);
    printf(", \"stated\": %llu, \"true\": %llu", (unsigned long long)p->stated,
           (unsigned long long)p->actual);
    if (p->kind == MM_PROBLEM_PARTITION) {
        printf(", \"stated_parts\": ");
        json_parts(g, p->stated_parts);
        printf(", \"true_parts\": ");
        json_parts(g, p->actual_parts);
    }
    if (p->searched) {
        printf(", \"suggest\": [");
        for (uint32_t i = 0; i < p->nsuggest_kept; i++)
            printf("%s\"%s%s\"", i ? ", " : "", mm_code_format(g, p->suggest[i], code),
                   p->suggest_star >> i & 1u ? "*" : "");
        printf("], \"suggest_total\": %u", p->nsuggest);
    }
    printf(", \"message\": ");
    json_string(mm_problem_format(r, p, msg, sizeof msg));
    putchar('}');
}

static void print_json(const char *path, const mm_tree *t, const mm_verify_report *r)
{
    const mm_stats *s = &r->stats;
    printf("{\"file\": ");
    json_string(strcmp(path, "-") ? path : "<stdin>");
    printf(", \"valid\": %s, \"problems\": [", r->valid ? "true" : "false");
    for (uint64_t i = 0; i < r->nkept; i++) {
        printf("%s\n  ", i ? "," : "");
        json_problem(r, &r->problems[i]);
    }
    printf("%s], \"problems_total\": %llu,\n \"stats\": {", r->nkept ? "\n " : "",
           (unsigned long long)r->nproblems);
    printf("\"pegs\": %d, \"colors\": %d, \"repeat\": %s, \"codes\": %u, \"found\": %llu, "
           "\"total\": %llu, \"expected\": %.10f, \"worst\": %d, \"histogram\": [",
           t->pegs, t->colors, t->repeat ? "true" : "false", r->g->ncodes,
           (unsigned long long)r->found, (unsigned long long)s->total,
           r->found ? (double)s->total / (double)r->found : 0.0, s->worst);
    for (int i = 0; i < s->worst && i < 64; i++)
        printf("%s%llu", i ? ", " : "", (unsigned long long)s->hist[i]);
    printf("], \"nodes\": %llu, \"inconsistent\": %llu}}\n", (unsigned long long)s->nodes,
           (unsigned long long)s->inconsistent);
}

static void print_text(const char *path, const mm_verify_report *r)
{
    const mm_game *g = r->g;
    const mm_stats *s = &r->stats;
    char msg[1024], where[MM_DIAG_FILE_MAX + 64], route[512];
    for (uint64_t i = 0; i < r->nkept; i++) {
        const mm_problem *p = &r->problems[i];
        mm_diag d;
        mm_diag_clear(&d);
        mm_diag_file(&d, path);
        d.line = p->where.line;
        d.col = p->where.col;
        d.offset = p->where.offset;
        mm_diag_where(&d, where, sizeof where);
        bool root = p->node == 0 || r->paths.parent[p->node] == MM_NO_NODE;
        printf("%serror: %s%s: %s\n", where, root ? "" : "path ",
               mm_paths_format(&r->paths, g, p->node, route, sizeof route),
               mm_problem_format(r, p, msg, sizeof msg));
    }
    if (r->nproblems > r->nkept)
        printf("... and %llu more problems (see --max-problems)\n",
               (unsigned long long)(r->nproblems - r->nkept));
    printf("%s: %s", strcmp(path, "-") ? path : "<stdin>", r->valid ? "valid" : "invalid");
    if (!r->valid)
        printf(", %llu problem%s", (unsigned long long)r->nproblems, r->nproblems == 1 ? "" : "s");
    printf("\ncodes found:  %llu of %u\n", (unsigned long long)r->found, g->ncodes);
    printf("total:        %llu\n", (unsigned long long)s->total);
    printf("expected:     %.4f\n", r->found ? (double)s->total / (double)r->found : 0.0);
    printf("worst:        %d\n", s->worst);
    printf("histogram:   ");
    for (int i = 0; i < s->worst && i < 64; i++)
        printf(" %llu", (unsigned long long)s->hist[i]);
    printf("\n");
}

int cmd_verify(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_SUGGEST, OPT_MAX };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"suggest", no_argument, NULL, OPT_SUGGEST},
        {"max-problems", required_argument, NULL, OPT_MAX},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    mm_verify_opts o;
    mm_verify_opts_init(&o);
    long max = (long)o.max_problems;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_SUGGEST: o.suggest = true; break;
        case OPT_MAX:
            if (!cli_int("verify", "--max-problems", optarg, 0, 1000000, &max))
                return EXIT_BAD;
            break;
        case 'h': fputs(verify_help, stdout); return EXIT_OK;
        case ':': return cli_usage_error("verify", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("verify", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("verify", "expects one file (or '-'); see --help");
    o.max_problems = (uint64_t)max;
    const char *path = argv[optind];

    int rc;
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree t;
    mm_game g;
    mm_verify_report r;
    mm_tree_init(&t, 0, 0, true);
    mm_status st = mm_tree_read_file(path, MM_FMT_AUTO, MM_READ_LENIENT, &t, &d);
    if (st) {
        rc = cli_report(&d, st);
        goto out_tree;
    }
    if ((st = mm_game_init(&g, t.pegs, t.colors, t.repeat, &d))) {
        rc = cli_report(&d, st);
        goto out_tree;
    }
    if ((st = mm_tree_verify(&t, &g, &o, &r, &d))) {
        rc = cli_report(&d, st == MM_ERR_CHECK ? MM_ERR_INPUT : st);
        goto out_game;
    }
    if (json)
        print_json(path, &t, &r);
    else
        print_text(path, &r);
    rc = r.valid ? EXIT_OK : EXIT_CHECK;
    mm_verify_report_release(&r);
out_game:
    mm_game_release(&g);
out_tree:
    mm_tree_release(&t);
    return rc;
}

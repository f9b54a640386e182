/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/mmtree.h"

static const char checkpoint_help[] =
    "usage: mmtree checkpoint [options] FILE\n"
    "\n"
    "Check a checkpoint of an optimal search (mmtree build --checkpoint) whole,\n"
    "as a search that resumes it would, and print what it holds: the game and\n"
    "rule, the processor time of the runs that saved it, and its facts (the\n"
    "values and lower bounds the search proved) by the size of their sets.\n"
    "\n"
    "  -o, --output OUT     also write the checkpoint to OUT (atomically; it\n"
    "                       may be FILE), with --min-codes only the facts about\n"
    "                       sets of at least N codes\n"
    "  -m, --min-codes N    with -o: a search of hours keeps most of what it has\n"
    "                       proven in its largest sets, which are few: OUT is\n"
    "                       small enough to carry to another machine, and a\n"
    "                       search resumes from it as from FILE, the work below\n"
    "                       those sets to do again\n"
    "      --after PATH     what it has proven about the position PATH reaches\n"
    "                       ('1234:BW,1356:-'; '' the root) and about the parts\n"
    "                       of each guess there: how far a stopped search has\n"
    "                       got, guess by guess.  The guesses with a fact about\n"
    "                       a part of 3 codes or more, least total first, each\n"
    "                       part as codes=value, codes>=bound or codes (nothing\n"
    "                       known), @D for a fact about trees within D guesses;\n"
    "                       a guess's total is the codes plus its parts' values\n"
    "                       or lower bounds (the perfect tree's where that is\n"
    "                       higher; only facts about trees of any depth count);\n"
    "                       guesses with the same parts and facts (as a rule\n"
    "                       each other's images) on one row: (and N alike)\n"
    "      --json           one JSON object: file, pegs, colors, repeat, rule,\n"
    "                       consistent_only, max_depth (0: none), whole_game,\n"
    "                       cpu_seconds, runs, cpu_partial, facts, exact, sizes\n"
    "                       (one object a size class: min, max, facts, exact),\n"
    "                       output and written with -o, and with --after\n"
    "                       position: path, codes, fact, guesses (guess, total,\n"
    "                       exact, parts: reply, codes, fact), a fact being\n"
    "                       null or exact, none, total, worst, at_worst, guess,\n"
    "                       within (0: none)\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 a valid checkpoint (written with -o), 2 an invalid or\n"
    "unreadable one, or a failed write.\n";

/* The size class k's codes: 2^k to 2^(k+1) - 1, a set having 3 at least. */
static unsigned long class_min(int k) { return k == 1 ? 3ul : 1ul << k; }
static unsigned long class_max(int k) { return (2ul << k) - 1; }

static void print_text(const char *path, const char *out, uint32_t min,
                       const mm_checkpoint_info *in)
{
    printf("checkpoint:   %s\n", path);
    printf("game:         MM(%d,%d)%s\n", in->pegs, in->colors,
           in->repeat ? "" : " without repeated colours");
    printf("search:       %s%s, from %s", mm_rule_name(in->rule),
           in->consistent_only ? " --consistent-only" : "",
           in->whole_game ? "the whole game" : "a position (--after or --extra-colors)");
    if (in->max_depth)
        printf(", within %d guesses", in->max_depth);
    printf("\ntime:         %.1f s of processor time in %u run%s%s\n", in->cpu, in->runs,
           in->runs == 1 ? "" : "s", in->cpu_partial ? " (and work it does not count)" : "");
    printf("facts:        %llu (%llu values, %llu lower bounds)\n",
           (unsigned long long)in->facts, (unsigned long long)in->exact,
           (unsigned long long)(in->facts - in->exact));
    if (in->facts)
        printf("  %-16s %11s %11s\n", "codes", "facts", "values");
    for (int k = 1; k < 21; k++) {
        if (!in->facts_by_size[k])
            continue;
        char range[32];
        snprintf(range, sizeof range, "%lu..%lu", class_min(k), class_max(k));
        printf("  %-16s %11llu %11llu\n", range, (unsigned long long)in->facts_by_size[k],
               (unsigned long long)in->exact_by_size[k]);
    }
    if (out)
        printf("written:      %llu facts about sets of %u codes or more, to %s\n",
               (unsigned long long)in->written, min, out);
}

/* --after: the position and the game it is read in. */
typedef struct look_run {
    const char *path;       /* the path's text, as given */
    mm_game g;
    mm_checkpoint_position pos;
} look_run;

enum { MAX_STEPS = 64 };

static void fact_text(const mm_game *g, const mm_checkpoint_fact *f)
{
    char code[MM_MAX_PEGS + 1];
    if (!f->known)
        printf("nothing known");
    else if (f->none)
        printf("no tree within %d guesses", f->within);
    else if (f->exact && f->guess != MM_NO_CODE)
        printf("total %llu, worst case %d (%u codes), guess %s", (unsigned long long)f->total,
               f->worst, f->at_worst, mm_code_format(g, f->guess, code));
    else
        printf("total %s %llu", f->exact ? "=" : ">=", (unsigned long long)f->total);
    if (f->known && f->within && !f->none)
        printf(", within %d guesses", f->within);
}

static void part_text(uint32_t codes, const mm_checkpoint_fact *f)
{
    printf(" %u", codes);
    if (!f->known)
        return;
    if (f->none)
        printf(":none");
    else
        printf("%s%llu", f->exact ? "=" : ">=", (unsigned long long)f->total);
    if (f->within)
        printf("@%d", f->within);
}

/* Two guesses with the same parts and the same facts about them: as a
 * rule the images of one another under a symmetry of the position, of
 * which a search tries one. */
static bool alike(const mm_checkpoint_guess *a, const mm_checkpoint_guess *b)
{
    if (a->bound != b->bound || a->exact != b->exact || a->nparts != b->nparts)
        return false;
    for (uint32_t k = 0; k < a->nparts; k++) {
        const mm_checkpoint_fact *x = &a->part[k], *y = &b->part[k];
        if (a->codes[k] != b->codes[k] || x->known != y->known || x->exact != y->exact ||
            x->none != y->none || x->total != y->total || x->within != y->within)
            return false;
    }
    return true;
}

enum { ALIKE_LOOKBACK = 64 };   /* rows of the same total compared */

static void print_position(const look_run *l)
{
    const mm_checkpoint_position *p = &l->pos;
    char code[MM_MAX_PEGS + 1];
    printf("position:     %s (%u code%s): ", *l->path ? l->path : "the root", p->codes,
           p->codes == 1 ? "" : "s");
    fact_text(&l->g, &p->fact);
    printf("\nguesses:      %zu with a fact about a part of 3 codes or more%s\n", p->nguesses,
           p->nguesses ? ", least total first\n              (guesses alike, with the same "
                         "parts and facts, on one row)"
                       : "");
    /* each row's first guess alike, and how many more there are */
    size_t *first = malloc((p->nguesses ? p->nguesses : 1) * sizeof *first);
    size_t *more = calloc(p->nguesses ? p->nguesses : 1, sizeof *more);
    for (size_t i = 0; first && more && i < p->nguesses; i++) {
        first[i] = i;
        for (size_t j = i, seen = 0; j-- > 0 && seen < ALIKE_LOOKBACK &&
                                     p->guesses[j].bound == p->guesses[i].bound;) {
            if (first[j] != j)
                continue;
            seen++;
            if (alike(&p->guesses[j], &p->guesses[i])) {
                first[i] = j;
                more[j]++;
                break;
            }
        }
    }
    const int w = l->g.pegs > 5 ? l->g.pegs : 5;
    if (p->nguesses)
        printf("  %-*s %11s  parts, in reply order\n", w, "guess", "total");
    for (size_t i = 0; i < p->nguesses; i++) {
        const mm_checkpoint_guess *q = &p->guesses[i];
        if (first && more && first[i] != i)
            continue;
        printf("  %-*s %2s %8llu ", w, mm_code_format(&l->g, q->guess, code),
               q->exact ? "" : ">=", (unsigned long long)q->bound);
        for (uint32_t k = 0; k < q->nparts; k++)
            part_text(q->codes[k], &q->part[k]);
        if (more && more[i])
            printf("  (and %zu alike)", more[i]);
        putchar('\n');
    }
    free(first);
    free(more);
}

static void fact_json(json_writer *j, const mm_game *g, const mm_checkpoint_fact *f)
{
    char code[MM_MAX_PEGS + 1];
    if (!f->known) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_key(j, "exact");
    json_bool(j, f->exact);
    json_key(j, "none");
    json_bool(j, f->none);
    json_key(j, "total");
    json_uint(j, f->total);
    json_key(j, "worst");
    json_int(j, f->worst);
    json_key(j, "at_worst");
    json_uint(j, f->at_worst);
    json_key(j, "guess");
    if (f->guess == MM_NO_CODE)
        json_null(j);
    else
        json_str(j, mm_code_format(g, f->guess, code));
    json_key(j, "within");
    json_int(j, f->within);
    json_object_end(j);
}

static void position_json(json_writer *j, const look_run *l)
{
    const mm_checkpoint_position *p = &l->pos;
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    json_object_begin(j);
    json_key(j, "path");
    json_str(j, l->path);
    json_key(j, "codes");
    json_uint(j, p->codes);
    json_key(j, "fact");
    fact_json(j, &l->g, &p->fact);
    json_key(j, "guesses");
    json_array_begin(j);
    for (size_t i = 0; i < p->nguesses; i++) {
        const mm_checkpoint_guess *q = &p->guesses[i];
        json_object_begin(j);
        json_key(j, "guess");
        json_str(j, mm_code_format(&l->g, q->guess, code));
        json_key(j, "total");
        json_uint(j, q->bound);
        json_key(j, "exact");
        json_bool(j, q->exact);
        json_key(j, "parts");
        json_array_begin(j);
        for (uint32_t k = 0; k < q->nparts; k++) {
            json_object_begin(j);
            json_key(j, "reply");
            json_str(j, mm_reply_format(&l->g, q->slot[k], reply));
            json_key(j, "codes");
            json_uint(j, q->codes[k]);
            json_key(j, "fact");
            fact_json(j, &l->g, &q->part[k]);
            json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

static int print_json(const char *path, const char *out, const mm_checkpoint_info *in,
                      const look_run *l)
{
    strbuf b = {0};
    json_writer j;
    json_init(&j, &b);
    json_object_begin(&j);
    json_key(&j, "file");
    json_str(&j, path);
    cli_json_game(&j, in->pegs, in->colors, in->repeat);
    json_key(&j, "rule");
    json_str(&j, mm_rule_name(in->rule));
    json_key(&j, "consistent_only");
    json_bool(&j, in->consistent_only);
    json_key(&j, "max_depth");
    json_int(&j, in->max_depth);
    json_key(&j, "whole_game");
    json_bool(&j, in->whole_game);
    json_key(&j, "cpu_seconds");
    json_double(&j, in->cpu, 3);
    json_key(&j, "runs");
    json_uint(&j, in->runs);
    json_key(&j, "cpu_partial");
    json_bool(&j, in->cpu_partial);
    json_key(&j, "facts");
    json_uint(&j, in->facts);
    json_key(&j, "exact");
    json_uint(&j, in->exact);
    json_key(&j, "sizes");
    json_array_begin(&j);
    for (int k = 1; k < 21; k++) {
        if (!in->facts_by_size[k])
            continue;
        json_object_begin(&j);
        json_key(&j, "min");
        json_uint(&j, class_min(k));
        json_key(&j, "max");
        json_uint(&j, class_max(k));
        json_key(&j, "facts");
        json_uint(&j, in->facts_by_size[k]);
        json_key(&j, "exact");
        json_uint(&j, in->exact_by_size[k]);
        json_object_end(&j);
    }
    json_array_end(&j);
    if (out) {
        json_key(&j, "output");
        json_str(&j, out);
        json_key(&j, "written");
        json_uint(&j, in->written);
    }
    if (l) {
        json_key(&j, "position");
        position_json(&j, l);
    }
    json_object_end(&j);
    return cli_json_print(&b);
}

/* --after: the game of the checkpoint read, the path in it, and what the
 * checkpoint says there. */
static int look(const char *file, const mm_checkpoint_info *in, look_run *l)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_step steps[MAX_STEPS];
    uint32_t n;
    mm_status st = mm_game_init(&l->g, in->pegs, in->colors, in->repeat, &d);
    if (st)
        return cli_report(&d, st);
    if ((st = mm_path_parse(&l->g, l->path, steps, MAX_STEPS, &n, &d)))
        return cli_usage_error("checkpoint", "--after: %s", d.msg);
    st = mm_checkpoint_position_read(file, &l->g, steps, n, &l->pos, &d);
    if (st == MM_ERR_USAGE)
        return cli_usage_error("checkpoint", "--after: %s", d.msg);
    return st ? cli_report(&d, st) : EXIT_OK;
}

int cmd_checkpoint(int argc, char **argv)
{
    enum { OPT_AFTER = 256, OPT_JSON };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"min-codes", required_argument, NULL, 'm'},
        {"after", required_argument, NULL, OPT_AFTER},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    look_run l = {0};
    long min = 0;
    bool json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:m:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'm':
            if (!cli_int("checkpoint", "--min-codes", optarg, 1, (long)MM_MAX_CODES, &min))
                return EXIT_BAD;
            break;
        case OPT_AFTER: l.path = optarg; break;
        case OPT_JSON: json = true; break;
        case 'h': fputs(checkpoint_help, stdout); return EXIT_OK;
        case ':':
            return cli_usage_error("checkpoint", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("checkpoint", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("checkpoint", "expects one file; see --help");
    if (min && !out)
        return cli_usage_error("checkpoint", "--min-codes says what -o writes: give -o");
    const char *path = argv[optind];
    mm_diag d;
    mm_diag_clear(&d);
    mm_checkpoint_info in;
    /* --after alone reads the file whole once, in the look: the header
     * gives the game its path is parsed in */
    mm_status st = l.path && !out ? mm_checkpoint_header(path, &in, &d)
                                  : mm_checkpoint_read(path, out, (uint32_t)min, &in, &d);
    if (st)
        return cli_report(&d, st);
    int rc = EXIT_OK;
    if (l.path && (rc = look(path, &in, &l)) == EXIT_OK) {
        const uint64_t written = in.written;
        in = l.pos.info;   /* read again: a search may have saved it anew since */
        in.written = written;
    }
    if (rc == EXIT_OK && json)
        rc = print_json(path, out, &in, l.path ? &l : NULL);
    else if (rc == EXIT_OK) {
        print_text(path, out, (uint32_t)(min ? min : 3), &in);
        if (l.path)
            print_position(&l);
    }
    mm_checkpoint_position_release(&l.pos);
    if (l.path)
        mm_game_release(&l.g);
    return rc;
}

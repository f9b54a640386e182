/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
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
    "      --json           one JSON object: file, pegs, colors, repeat, rule,\n"
    "                       consistent_only, max_depth (0: none), whole_game,\n"
    "                       cpu_seconds, runs, cpu_partial, facts, exact, sizes\n"
    "                       (one object a size class: min, max, facts, exact),\n"
    "                       and output and written with -o\n"
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

static int print_json(const char *path, const char *out, const mm_checkpoint_info *in)
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
    json_object_end(&j);
    return cli_json_print(&b);
}

int cmd_checkpoint(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"min-codes", required_argument, NULL, 'm'},
        {"json", no_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
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
        case 'J': json = true; break;
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
    mm_status st = mm_checkpoint_read(path, out, (uint32_t)min, &in, &d);
    if (st)
        return cli_report(&d, st);
    if (json)
        return print_json(path, out, &in);
    print_text(path, out, (uint32_t)(min ? min : 3), &in);
    return EXIT_OK;
}

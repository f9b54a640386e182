/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/cores.h"
#include "mmtree/compile.h"
#include "mmtree/format.h"
#include "mmtree/mmtree.h"

static const char build_help[] =
    "usage: mmtree build [options]\n"
    "\n"
    "Compile the complete strategy tree of MM(p,c) from a rule and write it.\n"
    "Defaults: Knuth's rule for 4 pegs and 6 colours, the tree on stdout in\n"
    "Knuth's notation, a one-line summary on stderr.\n"
    "\n"
    "  -p, --pegs P          pegs, 1..8 (default 4)\n"
    "  -c, --colors C        colours, 1..16 (default 6); colours print as 1-9,\n"
    "                        or as 0-9 then a-f when C >= 10\n"
    "  -n, --no-repeat       codes and guesses have distinct colours\n"
    "                        (Neuwirth's N games; Bulls and Cows: -p 4 -c 10 -n)\n"
    "  -r, --rule R          naive | knuth | irving | entropy | kooi | branch2 | e3\n"
    "                        | optimal | optimal-consistent | optimal-worst\n"
    "      --consistent-only guess only codes that can still be the code\n"
    "      --first CODE      fix the first guess (with --after: the position's)\n"
    "      --after PATH      the tree of the codes left after PATH ('1122:B,1344:W'),\n"
    "                        its root the node PATH reaches: not a tree of the\n"
    "                        whole game, which every format holds, so its numbers\n"
    "                        are printed instead (guesses counted from there)\n"
    "      --extra-colors K  Ville's MMe: guesses may use K colours no code has\n"
    "                        (colours C+1..C+K); the position of MM(P,C+K) after\n"
    "                        a guess of those colours got no hit, printed as for\n"
    "                        --after (K >= P without repeated colours)\n"
    "      --tie-break T     among guesses of equal score (one-step rules):\n"
    "                        first: one that can be the code, then the first in\n"
    "                        lexical order (default); last: the same, but the last\n"
    "                        when none of them can be the code (Kooi 2005, s5);\n"
    "                        inconsistent-first: one that cannot be the code,\n"
    "                        then the first\n"
    "  -o, --output FILE     write the tree to FILE ('-' = stdout), atomically\n"
    "  -f, --format F        knuth | irving | xml | bin (default: from the\n"
    "                        extension of -o in any case: .txt .xml .mmt;\n"
    "                        knuth for '-' or no extension; another is an error)\n"
    "      --name-subtrees N name the largest sub-trees (at least N codes, not\n"
    "                        inside a named one) A, B, ... as the papers do\n"
    "  -j, --threads N       threads (default: one per core)\n"
    "  -q, --quiet           no summary on stderr\n"
    "      --progress S      off a terminal (a log) a progress line every S\n"
    "                        seconds, and one at the end; on a terminal the\n"
    "                        line is redrawn in place every second anyway\n"
    "      --no-symmetry     baseline: score every code at every node\n"
    "      --no-prune        baseline: score every guess in full\n"
    "\n";

static const char build_help_optimal[] =
    "Optimal rules only (refused with the others):\n"
    "      --time-limit S    stop after S seconds and write the best tree\n"
    "                        found, marked not proven optimal (exit status 3)\n"
    "      --checkpoint FILE save the search to FILE every 10 minutes and when\n"
    "                        it stops, and resume from it when it exists (not\n"
    "                        the file of -o; a file that is not a checkpoint of\n"
    "                        this game and rule is refused; it counts the\n"
    "                        processor time of the runs that saved it)\n"
    "      --keep-checkpoint keep the checkpoint once the optimum is proven\n"
    "                        (else it is removed)\n"
    "      --bounds-from FILE optimal-worst or --max-depth: take the facts of\n"
    "                        FILE, a checkpoint of the optimal search of this\n"
    "                        game (no --max-depth, not --consistent-only), as\n"
    "                        bounds: no tree within a depth is below the least\n"
    "                        of all, which is the least within it where it fits\n"
    "      --max-depth N     the best tree among those that never need more\n"
    "                        than N guesses (for optimal-worst: a check)\n"
    "      --table-size MB   the table of solved sets, at most MB MiB (default\n"
    "                        1024, or 64 KiB a code when less; 16 at least);\n"
    "                        a checkpoint can grow as big\n"
    "      --value-only      search values only, then build the tree in a\n"
    "                        second pass (same tree)\n"
    "      --start FILE      start from the tree in FILE (any format; of this\n"
    "                        game, through --after's path; consistent for\n"
    "                        optimal-consistent, within --max-depth) when it is\n"
    "                        better than the one-step rules' trees: a stopped\n"
    "                        search writes it if it found nothing better; a\n"
    "                        finished one writes the same tree as without it\n"
    "      --polish N        a stopped search solves again each sub-tree of\n"
    "                        its tree of at most N codes (the largest below\n"
    "                        the root) and writes anew those it betters,\n"
    "                        within the depth the rule allows, having first\n"
    "                        taken those of any size it had solved; this\n"
    "                        takes time after the stop, more as N grows (a\n"
    "                        signal then ends it).  A --start tree deeper\n"
    "                        than that is polished into it too\n"
    "  -h, --help            this text\n"
    "\n";

/* Apart: ISO C compilers need take no string longer than 4095 bytes. */
static const char build_help_rules[] =
    "Rules (ties: see --tie-break):\n"
    "  naive    Shapiro 1983: the first code still possible\n"
    "  knuth    Knuth 1976: minimise the largest part\n"
    "  irving   Irving 1979: minimise the sum of squared part sizes\n"
    "  entropy  Neuwirth 1982 e1: maximise the entropy of the partition\n"
    "  kooi     Kooi 2005: maximise the number of parts\n"
    "  branch2  Witteveen and van Eijck 2014: branch2Play\n"
    "  e3       Neuwirth 1982 e3: minimise the sum of perfect-tree lower bounds\n"
    "  optimal  least total number of guesses, then least worst case\n"
    "  optimal-consistent  the same, guessing only codes that can be the code\n"
    "  optimal-worst       least worst case, then least total\n"
    "  Ctrl-C (or SIGTERM, SIGHUP) stops an optimal search like --time-limit;\n"
    "  a second one ends mmtree at once, writing nothing.\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage, 3 an optimal search stopped before its\n"
    "proof (the best tree found is written), or its checkpoint could not be\n"
    "saved.\n";

/* The command in messages and its help: build's, or mmtree-mpi's. */
static const char *build_cmd = "build";
static const char *build_text;   /* NULL: build's own, in three parts */

enum { OPT_CONSISTENT = 256, OPT_FIRST, OPT_NOSYM, OPT_NOPRUNE, OPT_NAMES,
       OPT_TIME, OPT_CKPT, OPT_KEEP, OPT_VALUE, OPT_TIE, OPT_AFTER, OPT_DEPTH, OPT_EXTRA,
       OPT_PROGRESS, OPT_START, OPT_TABLE, OPT_POLISH, OPT_BOUNDS };

static const struct option longopts[] = {
    CLI_GAME_LONGOPTS,
    {"rule", required_argument, NULL, 'r'},
    {"consistent-only", no_argument, NULL, OPT_CONSISTENT},
    {"first", required_argument, NULL, OPT_FIRST},
    {"tie-break", required_argument, NULL, OPT_TIE},
    {"after", required_argument, NULL, OPT_AFTER},
    {"max-depth", required_argument, NULL, OPT_DEPTH},
    {"extra-colors", required_argument, NULL, OPT_EXTRA},
    {"extra-colours", required_argument, NULL, OPT_EXTRA},
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'f'},
    {"name-subtrees", required_argument, NULL, OPT_NAMES},
    {"threads", required_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {"no-symmetry", no_argument, NULL, OPT_NOSYM},
    {"no-prune", no_argument, NULL, OPT_NOPRUNE},
    {"time-limit", required_argument, NULL, OPT_TIME},
    {"checkpoint", required_argument, NULL, OPT_CKPT},
    {"keep-checkpoint", no_argument, NULL, OPT_KEEP},
    {"bounds-from", required_argument, NULL, OPT_BOUNDS},
    {"table-size", required_argument, NULL, OPT_TABLE},
    {"value-only", no_argument, NULL, OPT_VALUE},
    {"start", required_argument, NULL, OPT_START},
    {"polish", required_argument, NULL, OPT_POLISH},
    {"progress", required_argument, NULL, OPT_PROGRESS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* An option of the optimal rules: remember the first one given. */
static void optimal_option(build_args *a, const char *name)
{
    if (!a->optimal_only)
        a->optimal_only = name;
}

/* One option; -1 to go on, else the exit status. */
static int parse_option(build_args *a, int c, char **argv)
{
    mm_compile_opts *o = &a->o;
    switch (c) {
    case 'p': case 'c': case 'n':
        return cli_game_option(build_cmd, c, &a->pegs, &a->colors, &a->repeat);
    case 'r': a->rule = optarg; return -1;
    case OPT_CONSISTENT: o->consistent_only = true; return -1;
    case OPT_FIRST: a->first = optarg; return -1;
    case OPT_TIE: a->tie = optarg; return -1;
    case OPT_AFTER: a->after = optarg; return -1;
    case OPT_EXTRA:
        return cli_int(build_cmd, "--extra-colors", optarg, 1, MM_MAX_COLORS - 1, &a->extra) ? -1
                                                                                   : EXIT_BAD;
    case OPT_DEPTH: {
        long v;
        if (!cli_int(build_cmd, "--max-depth", optarg, 1, 63, &v))
            return EXIT_BAD;
        optimal_option(a, "--max-depth");
        o->max_depth = (int)v;
        return -1;
    }
    case 'o': a->out = optarg; return -1;
    case 'f': a->fmtname = optarg; return -1;
    case OPT_NAMES:
        return cli_int(build_cmd, "--name-subtrees", optarg, 0, MM_MAX_CODES, &a->names) ? -1
                                                                                   : EXIT_BAD;
    case 'j': return cli_int(build_cmd, "--threads", optarg, 1, 64, &a->threads) ? -1 : EXIT_BAD;
    case 'q': a->quiet = true; return -1;
    case OPT_NOSYM: o->no_symmetry = true; return -1;
    case OPT_NOPRUNE: o->no_prune = true; return -1;
    case OPT_TIME: {
        char *end;
        optimal_option(a, "--time-limit");
        o->time_limit = strtod(optarg, &end);
        if (end == optarg || *end || !(o->time_limit > 0) || o->time_limit > 1e9)
            return cli_usage_error(build_cmd, "--time-limit: '%s' is not a number of seconds",
                                   optarg);
        return -1;
    }
    case OPT_PROGRESS: {
        char *end;
        o->progress_every = strtod(optarg, &end);
        if (end == optarg || *end || !(o->progress_every >= 0.01) || o->progress_every > 1e9)
            return cli_usage_error(build_cmd, "--progress: '%s' is not a number of seconds "
                                   "(0.01 or more)", optarg);
        return -1;
    }
    case OPT_CKPT: optimal_option(a, "--checkpoint"); o->checkpoint = optarg; return -1;
    case OPT_KEEP: optimal_option(a, "--keep-checkpoint"); o->keep_checkpoint = true; return -1;
    case OPT_BOUNDS: optimal_option(a, "--bounds-from"); o->bounds_from = optarg; return -1;
    case OPT_TABLE: {
        long v;
        if (!cli_int(build_cmd, "--table-size", optarg, 16, 1L << 20, &v))
            return EXIT_BAD;
        optimal_option(a, "--table-size");
        o->cache_mb = (size_t)v;
        return -1;
    }
    case OPT_VALUE: optimal_option(a, "--value-only"); o->value_only = true; return -1;
    case OPT_START: optimal_option(a, "--start"); a->start = optarg; return -1;
    case OPT_POLISH: {
        long v;
        if (!cli_int(build_cmd, "--polish", optarg, 3, MM_MAX_CODES, &v))
            return EXIT_BAD;
        optimal_option(a, "--polish");
        o->polish = (uint32_t)v;
        return -1;
    }
    case 'h':
        if (build_text) {
            fputs(build_text, stdout);
        } else {
            fputs(build_help, stdout);
            fputs(build_help_optimal, stdout);
            fputs(build_help_rules, stdout);
        }
        return EXIT_OK;
    case ':': return cli_usage_error(build_cmd, "option '%s' needs a value", argv[optind - 1]);
    default: return cli_usage_error(build_cmd, "unknown option '%s'", argv[optind - 1]);
    }
}

static int parse_args(int argc, char **argv, build_args *a)
{
    memset(a, 0, sizeof *a);
    a->pegs = 4;
    a->colors = 6;
    a->repeat = true;
    a->rule = "knuth";
    a->out = "-";
    mm_compile_opts_init(&a->o);
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":" CLI_GAME_SHORTOPTS "r:o:f:j:qh", longopts, NULL)) != -1)
        if ((rc = parse_option(a, c, argv)) >= 0)
            return rc;
    if (optind < argc)
        return cli_usage_error(build_cmd, "unexpected argument '%s'", argv[optind]);
    return -1;
}

/* ---- the checkpoint must not be the output ---- */

/* The file path names, for comparing: its target when it is a symlink
 * to nothing yet (one level), else path itself.  Into buf. */
static const char *link_target(const char *path, char *buf, size_t size)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) || stat(path, &st) == 0)
        return path;
    ssize_t n = readlink(path, buf, size - 1);
    if (n <= 0)
        return path;
    buf[n] = '\0';
    if (buf[0] == '/' || !strchr(path, '/'))
        return buf;
    /* relative to the link's directory */
    char dir[PATH_MAX], tail[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    snprintf(tail, sizeof tail, "%s", buf);
    int w = snprintf(buf, size, "%s/%s", dirname(dir), tail);
    return w < 0 || (size_t)w >= size ? path : buf;
}

/* Do a and b name one file: the same inode where both exist (symlinks
 * and hard links included), the same name in the same directory where
 * neither does? */
static bool same_file(const char *a, const char *b)
{
    char la[PATH_MAX], lb[PATH_MAX], da[PATH_MAX], db[PATH_MAX], ba[PATH_MAX], bb[PATH_MAX];
    struct stat sa, sb;
    a = link_target(a, la, sizeof la);
    b = link_target(b, lb, sizeof lb);
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb)
        return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    snprintf(da, sizeof da, "%s", a);
    snprintf(db, sizeof db, "%s", b);
    snprintf(ba, sizeof ba, "%s", a);
    snprintf(bb, sizeof bb, "%s", b);
    return !strcmp(basename(ba), basename(bb)) && stat(dirname(da), &sa) == 0 &&
           stat(dirname(db), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Options that the rule does not take are refused, not ignored. */
static int check_args(const build_args *a)
{
    bool optimal = a->o.rule >= MM_RULE_COUNT_ONE_STEP;
    if (!optimal && a->optimal_only)
        return cli_usage_error(build_cmd, "%s applies to the optimal rules only, not to '%s'",
                               a->optimal_only, mm_rule_name(a->o.rule));
    if (a->after && a->extra)
        return cli_usage_error(build_cmd, "--after and --extra-colors do not go together");
    if ((a->after || a->extra) && (strcmp(a->out, "-") || a->fmtname || a->names))
        return cli_usage_error(build_cmd, "%s prints the position's numbers: it writes "
                               "no tree (no -o, --format or --name-subtrees)",
                               a->after ? "--after" : "--extra-colors");
    if (a->extra && a->colors + a->extra > MM_MAX_COLORS)
        return cli_usage_error(build_cmd, "--extra-colors: %ld and %ld colours make more than %d",
                               a->colors, a->extra, MM_MAX_COLORS);
    if (a->extra && !a->repeat && a->extra < a->pegs)
        return cli_usage_error(build_cmd, "--extra-colors: without repeated colours a guess of "
                               "extra colours alone needs %ld of them", a->pegs);
    if (a->o.checkpoint && strcmp(a->out, "-") && same_file(a->o.checkpoint, a->out))
        return cli_usage_error(build_cmd, "--checkpoint '%s' is the output file '%s'",
                               a->o.checkpoint, a->out);
    return -1;
}

/* ---- stopping and progress ---- */
static volatile sig_atomic_t build_stop;

/* A one-step build takes about REF_SECS on REF_CODES codes (MM(5,8)
 * entropy, one thread; knuth is a little faster), and its time grows as
 * n^2 log n: the sets deep in the tree score about every code, and there
 * are more levels.  Above WARN_SECS a warning says so before it starts. */
#define REF_CODES 32768.0
#define REF_SECS 3.4
#define WARN_SECS 60.0

static void warn_long(const mm_game *g, const build_args *a)
{
    double n = g->ncodes, threads = a->threads > 0 ? a->threads : cores_online();
    double secs = REF_SECS * (n / REF_CODES) * (n / REF_CODES) * log2(n) / log2(REF_CODES) /
                  threads;
    if (a->o.rule >= MM_RULE_COUNT_ONE_STEP || a->o.rule == MM_RULE_NAIVE || a->after ||
        a->extra || a->o.consistent_only || secs < WARN_SECS)
        return;
    cli_warning("MM(%d,%d) has %u codes: building its %s tree takes some %.0f minutes "
                "(progress: --progress S in a log)", g->pegs, g->colors, g->ncodes,
                mm_rule_name(a->o.rule), secs / 60);
}

/* Compile the tree; for an optimal rule with stops and its report; the
 * progress on a terminal, or with --progress. */
static mm_status compile(const mm_game *g, build_args *a, const build_hooks *h,
                         mm_optimal_report *rep, mm_tree *t, double *secs, mm_diag *d)
{
    bool optimal = a->o.rule >= MM_RULE_COUNT_ONE_STEP;
    struct timespec t0, t1;
    cli_progress pr;
    cli_progress_init(&pr, g, a->o.checkpoint, a->quiet, a->o.progress_every > 0);
    pr.bounds = a->o.bounds_from;
    memset(rep, 0, sizeof *rep);
    pr.one_step = !optimal;
    if (optimal) {
        a->o.report = rep;
        a->o.stop = &build_stop;
        cli_signals_stop(&build_stop, a->o.polish ? 2 : 1);
    }
    if (optimal || pr.tty || pr.plain) {
        a->o.progress = cli_progress_show;
        a->o.progress_arg = &pr;
    }
    warn_long(g, a);   /* a warning, not part of the summary -q drops */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mm_status st = h && h->compile ? h->compile(h->arg, g, &a->o, t, d)
                                   : mm_compile(g, &a->o, t, d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (optimal)
        cli_signals_stop(NULL, 0);
    cli_progress_end(&pr);
    *secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    return st;
}

static int write_tree(const build_args *a, const mm_tree *t, mm_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    mm_diag d;
    mm_diag_clear(&d);
    mm_write_opts wo = {.name_subtrees = (int)a->names, .with_stats = true};
    mm_status st = mm_tree_write_mem(t, fmt, &wo, &buf, &len, &d);
    if (!st)
        st = mm_file_write_atomic(a->out, buf, len, &d);
    free(buf);
    return st ? cli_report(&d, st) : EXIT_OK;
}

/* --after: the numbers of the position's tree, on standard output. */
static int print_position(const build_args *a, const mm_game *g, const mm_tree *t)
{
    mm_stats s;
    char code[MM_MAX_PEGS + 1];
    mm_tree_stats(t, &s);
    printf("position:     %s\n", a->after);
    printf("rule:         %s%s\n", mm_rule_name(a->o.rule),
           a->o.consistent_only ? " (consistent only)" : "");
    printf("codes:        %llu\n", (unsigned long long)s.codes);
    printf("first guess:  %s\n", mm_code_format(g, t->nodes[0].guess, code));
    printf("total:        %llu\n", (unsigned long long)s.total);
    printf("expected:     %.4f\n", (double)s.total / (double)s.codes);
    printf("worst:        %d\n", s.worst);
    printf("histogram:   ");
    for (int i = 0; i < s.worst && i < 64; i++)
        printf(" %llu", (unsigned long long)s.hist[i]);
    printf("\n");
    return EXIT_OK;
}

/* The processor time of a search with a checkpoint: this run's, and
 * the whole search's, which the checkpoint counts over its runs, with
 * that of the search whose facts were its bounds. */
static void checkpoint_time(const mm_optimal_report *rep)
{
    fprintf(stderr, "mmtree: processor time %.1f s", rep->cpu);
    if (rep->runs_before)
        fprintf(stderr, ", %.1f s with the %u earlier run%s of the checkpoint",
                rep->cpu + rep->cpu_before, (unsigned)rep->runs_before,
                rep->runs_before == 1 ? "" : "s");
    if (rep->runs_bounds)
        fprintf(stderr, ", %.1f s with the %u run%s of the bounds' checkpoint",
                rep->cpu + rep->cpu_before + rep->cpu_bounds, (unsigned)rep->runs_bounds,
                rep->runs_bounds == 1 ? "" : "s");
    if (rep->cpu_partial)
        fputs(CLI_TIME_PARTIAL, stderr);
    fputc('\n', stderr);
}

static void summary(const build_args *a, const mm_game *g, const mm_tree *t,
                    const mm_optimal_report *rep, double secs)
{
    bool optimal = a->o.rule >= MM_RULE_COUNT_ONE_STEP;
    if (!a->quiet) {
        mm_stats s;
        char code[MM_MAX_PEGS + 1];
        mm_tree_stats(t, &s);
        fprintf(stderr,
                "mmtree: MM(%d,%d%s) %s%s: %llu codes, first guess %s, total %llu, "
                "expected %.4f, worst %d, %.3f s\n",
                g->pegs, g->colors, g->repeat ? "" : ", no repeat", mm_rule_name(a->o.rule),
                a->o.consistent_only ? " consistent-only" : "", (unsigned long long)s.codes,
                mm_code_format(g, t->nodes[0].guess, code), (unsigned long long)s.total,
                (double)s.total / (double)s.codes, s.worst, secs);
    }
    if (optimal && !a->quiet)
        fprintf(stderr, "mmtree: %s: %llu sets searched, %.1f%% of guesses removed by symmetry\n",
                rep->proven ? "proven optimal" : "stopped", (unsigned long long)rep->nodes,
                rep->guesses_all
                    ? 100.0 * (1.0 - (double)rep->guesses / (double)rep->guesses_all)
                    : 0.0);
    if (optimal && a->o.polish && !rep->proven && !a->quiet)
        fprintf(stderr, "mmtree: polished: %llu sub-trees of at most %u codes (or known to "
                "the search) solved again, "
                "%llu bettered, %lld guess%s %s, %.1f s%s\n",
                (unsigned long long)rep->polish_solved, (unsigned)a->o.polish,
                (unsigned long long)rep->polish_bettered, llabs(rep->polish_saved),
                llabs(rep->polish_saved) == 1 ? "" : "es",
                rep->polish_saved < 0 ? "more, to fit the depth" : "fewer", rep->polish_time,
                rep->polish_stopped ? "; stopped, the rest as it was" : "");
    if (optimal && (a->o.checkpoint || a->o.bounds_from) && !a->quiet)
        checkpoint_time(rep);
    if (optimal && !rep->proven)
        cli_warn_unproven(rep);
    if (optimal && !rep->proven && a->o.max_depth && rep->worst > a->o.max_depth)
        cli_warning("the tree needs %d guesses, more than --max-depth %d: the %s stopped "
                    "before it had one within", rep->worst, a->o.max_depth,
                    rep->polish_stopped ? "polish" : "search");
}

/* MMe(p,c): MM(p,c+K) once guesses of the K extra colours got no hit
 * (Ville 2013, s5.1): the codes are those of c colours, any guess may
 * use the others.  The path of those guesses goes into steps and, as
 * text, into buf (a->after). */
static void extra_colors_path(const mm_game *g, build_args *a, mm_step *steps, char *buf,
                              size_t size)
{
    int pegs[MM_MAX_PEGS], k = (int)a->extra, c = g->colors - k;
    uint32_t n = (uint32_t)((k + g->pegs - 1) / g->pegs);
    for (uint32_t j = 0; j < n; j++) {
        for (int i = 0; i < g->pegs; i++)
            pegs[i] = c + ((int)j * g->pegs + i) % k;
        steps[j].guess = mm_game_index(g, pegs);
        steps[j].slot = mm_reply_slot(g, 0, 0);
    }
    a->o.after = steps;
    a->o.nafter = n;
    a->after = mm_path_format(g, steps, n, buf, size);
}

/* --start: the tree of a->start into t, checked against the search it
 * is to start, and into a->o.start; else a message naming the file.
 * The options are checked first (a->o.start is NULL still), so that
 * their own errors do not carry the file's name. */
static int read_start(build_args *a, const mm_game *g, mm_tree *t)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_compile_start_check(g, &a->o, &d);
    if (st)
        return cli_report(&d, st);
    st = mm_tree_read_file(a->start, MM_FMT_AUTO, 0, t, &d);
    if (!st) {
        a->o.start = t;
        mm_diag_clear(&d);
        mm_diag_file(&d, a->start);
        st = mm_compile_start_check(g, &a->o, &d);
    }
    if (st) {
        a->o.start = NULL;
        mm_tree_release(t);
        return cli_report(&d, st);
    }
    return EXIT_OK;
}

int build_run(build_args *a, const mm_game *g, mm_format fmt, const build_hooks *h)
{
    mm_diag d;
    mm_diag_clear(&d);
    if (a->first && mm_code_parse(g, a->first, strlen(a->first), &a->o.first, &d))
        return cli_usage_error(build_cmd, "--first: %s", d.msg);
    mm_step steps[64];
    char extra_path[MM_STEP_MAX * MM_MAX_COLORS];
    if (a->after) {
        if (mm_path_parse(g, a->after, steps, sizeof steps / sizeof *steps, &a->o.nafter, &d))
            return cli_usage_error(build_cmd, "--after: %s", d.msg);
        a->o.after = steps;
    } else if (a->extra) {
        extra_colors_path(g, a, steps, extra_path, sizeof extra_path);
    }
    mm_tree t, start;
    mm_tree_init(&start, g->pegs, g->colors, g->repeat);
    if (a->start && read_start(a, g, &start) != EXIT_OK)
        return EXIT_BAD;
    mm_tree_init(&t, g->pegs, g->colors, g->repeat);
    mm_optimal_report rep;
    double secs;
    mm_status st = compile(g, a, h, &rep, &t, &secs, &d);
    a->o.start = NULL;
    mm_tree_release(&start);
    int rc = st ? cli_report(&d, st) : a->after ? print_position(a, g, &t) : write_tree(a, &t, fmt);
    if (rc == EXIT_OK) {
        if (h && h->summary)
            h->summary(h->arg, a, g, &t, &rep, secs);
        else
            summary(a, g, &t, &rep, secs);
        if (a->o.rule >= MM_RULE_COUNT_ONE_STEP && !rep.proven)
            rc = EXIT_PARTIAL;
        if (rep.checkpoint_failed) {   /* the tree is written all the same */
            cli_report(&d, MM_ERR_IO);
            rc = EXIT_PARTIAL;
        }
    }
    mm_tree_release(&t);
    return rc;
}

int build_setup(int argc, char **argv, const build_hooks *h, build_args *a, mm_game *g,
                mm_format *fmt)
{
    if (h) {
        build_cmd = h->cmd;
        build_text = h->help;
    }
    int rc = parse_args(argc, argv, a);
    if (rc >= 0)
        return rc;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_format_for_output(a->out, a->fmtname, fmt, &d))
        return cli_usage_error(build_cmd, "%s", d.msg);
    if (mm_rule_parse(a->rule, &a->o.rule, &d))
        return cli_usage_error(build_cmd, "%s", d.msg);
    if (a->tie && mm_tie_break_parse(a->tie, &a->o.tie_break, &d))
        return cli_usage_error(build_cmd, "--tie-break: %s", d.msg);
    if ((rc = check_args(a)) >= 0)
        return rc;
    a->o.threads = (int)a->threads;
    if (mm_game_init(g, (int)a->pegs, (int)(a->colors + a->extra), a->repeat, &d))
        return cli_usage_error(build_cmd, "%s", d.msg);
    return -1;
}

int cmd_build(int argc, char **argv)
{
    build_args a;
    mm_game g;
    mm_format fmt;
    int rc = build_setup(argc, argv, NULL, &a, &g, &fmt);
    if (rc >= 0)
        return rc;
    rc = build_run(&a, &g, fmt, NULL);
    mm_game_release(&g);
    return rc;
}

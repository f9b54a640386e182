#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
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
    "      --first CODE      fix the first guess\n"
    "  -o, --output FILE     write the tree to FILE ('-' = stdout), atomically\n"
    "  -f, --format F        knuth | irving | xml | bin (default: from the\n"
    "                        extension of -o in any case: .txt .xml .mmt;\n"
    "                        knuth for '-' or no extension; another is an error)\n"
    "      --name-subtrees N name the largest sub-trees (at least N codes, not\n"
    "                        inside a named one) A, B, ... as the papers do\n"
    "  -j, --threads N       threads (default: one per core)\n"
    "  -q, --quiet           no summary on stderr\n"
    "      --no-symmetry     baseline: score every code at every node\n"
    "      --no-prune        baseline: score every guess in full\n"
    "      --time-limit S    optimal rules: stop after S seconds and write the\n"
    "                        best tree found, marked not proven optimal\n"
    "      --checkpoint FILE optimal rules: save the search to FILE now and\n"
    "                        then, and resume from it when it exists\n"
    "      --value-only      optimal rules: search values only, then build the\n"
    "                        tree in a second pass (same tree)\n"
    "  -h, --help            this text\n"
    "\n"
    "Rules (ties: a guess that can be the code, then lexical order):\n"
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
    "  Ctrl-C stops an optimal search like --time-limit.\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage.\n";

enum { OPT_CONSISTENT = 256, OPT_FIRST, OPT_NOSYM, OPT_NOPRUNE, OPT_NAMES,
       OPT_TIME, OPT_CKPT, OPT_VALUE };

/* ---- optimal searches: stopping and progress ---- */
static volatile sig_atomic_t build_stop;

static void show_progress(void *arg, const mm_optimal_report *r)
{
    (void)arg;
    fprintf(stderr, "\r%.0f s: %llu sets, bound %llu..%llu, %.0f%% of the first level   ",
            r->elapsed, (unsigned long long)r->nodes, (unsigned long long)r->lower,
            (unsigned long long)r->total, 100.0 * r->done);
}

int cmd_build(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"pegs", required_argument, NULL, 'p'},
        {"colors", required_argument, NULL, 'c'},
        {"colours", required_argument, NULL, 'c'},
        {"no-repeat", no_argument, NULL, 'n'},
        {"rule", required_argument, NULL, 'r'},
        {"consistent-only", no_argument, NULL, OPT_CONSISTENT},
        {"first", required_argument, NULL, OPT_FIRST},
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"name-subtrees", required_argument, NULL, OPT_NAMES},
        {"threads", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"no-symmetry", no_argument, NULL, OPT_NOSYM},
        {"no-prune", no_argument, NULL, OPT_NOPRUNE},
        {"time-limit", required_argument, NULL, OPT_TIME},
        {"checkpoint", required_argument, NULL, OPT_CKPT},
        {"value-only", no_argument, NULL, OPT_VALUE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long pegs = 4, colors = 6, threads = 0, names = 0;
    bool repeat = true, quiet = false;
    const char *rule = "knuth", *first = NULL, *out = "-", *fmtname = NULL;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:c:nr:o:f:j:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (!cli_int("build", "--pegs", optarg, 1, MM_MAX_PEGS, &pegs))
                return EXIT_BAD;
            break;
        case 'c':
            if (!cli_int("build", "--colors", optarg, 1, MM_MAX_COLORS, &colors))
                return EXIT_BAD;
            break;
        case 'n': repeat = false; break;
        case 'r': rule = optarg; break;
        case OPT_CONSISTENT: o.consistent_only = true; break;
        case OPT_FIRST: first = optarg; break;
        case 'o': out = optarg; break;
        case 'f': fmtname = optarg; break;
        case OPT_NAMES:
            if (!cli_int("build", "--name-subtrees", optarg, 0, MM_MAX_CODES, &names))
                return EXIT_BAD;
            break;
        case 'j':
            if (!cli_int("build", "--threads", optarg, 1, 64, &threads))
                return EXIT_BAD;
            break;
        case 'q': quiet = true; break;
        case OPT_NOSYM: o.no_symmetry = true; break;
        case OPT_NOPRUNE: o.no_prune = true; break;
        case OPT_TIME: {
            char *end;
            o.time_limit = strtod(optarg, &end);
            if (end == optarg || *end || !(o.time_limit > 0) || o.time_limit > 1e9)
                return cli_usage_error("build", "--time-limit: '%s' is not a number of seconds",
                                       optarg);
            break;
        }
        case OPT_CKPT: o.checkpoint = optarg; break;
        case OPT_VALUE: o.value_only = true; break;
        case 'h': fputs(build_help, stdout); return EXIT_OK;
        case ':': return cli_usage_error("build", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("build", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error("build", "unexpected argument '%s'", argv[optind]);

    mm_format fmt;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_format_for_output(out, fmtname, &fmt, &d))
        return cli_usage_error("build", "%s", d.msg);

    mm_status st = mm_rule_parse(rule, &o.rule, &d);
    if (st)
        return cli_usage_error("build", "%s", d.msg);
    o.threads = (int)threads;

    mm_game g;
    if ((st = mm_game_init(&g, (int)pegs, (int)colors, repeat, &d)))
        return cli_usage_error("build", "%s", d.msg);
    int rc = EXIT_OK;
    mm_tree t;
    mm_tree_init(&t, g.pegs, g.colors, g.repeat);
    if (first) {
        if ((st = mm_code_parse(&g, first, strlen(first), &o.first, &d))) {
            rc = cli_usage_error("build", "--first: %s", d.msg);
            goto out;
        }
    }
    mm_optimal_report rep;
    memset(&rep, 0, sizeof rep);
    bool optimal = o.rule >= MM_RULE_COUNT_ONE_STEP;
    if (optimal) {
        o.report = &rep;
        o.stop = &build_stop;
        cli_signals_stop(&build_stop);
        if (!quiet && isatty(STDERR_FILENO))
            o.progress = show_progress;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = mm_compile(&g, &o, &t, &d);
    if (optimal) {
        cli_signals_stop(NULL);
        if (o.progress)
            fputs("\r\033[K", stderr);
    }
    if (st) {
        rc = cli_report(&d, st);
        goto out;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);

    char *buf = NULL;
    size_t len = 0;
    mm_write_opts wo = {.name_subtrees = (int)names, .with_stats = true};
    mm_diag_clear(&d);
    if ((st = mm_tree_write_mem(&t, fmt, &wo, &buf, &len, &d)) ||
        (st = mm_file_write_atomic(out, buf, len, &d))) {
        free(buf);
        rc = cli_report(&d, st);
        goto out;
    }
    free(buf);
    if (!quiet) {
        mm_stats s;
        char code[MM_MAX_PEGS + 1];
        mm_tree_stats(&t, &s);
        fprintf(stderr,
                "mmtree: MM(%d,%d%s) %s%s: %llu codes, first guess %s, total %llu, "
                "expected %.4f, worst %d, %.3f s\n",
                g.pegs, g.colors, g.repeat ? "" : ", no repeat", mm_rule_name(o.rule),
                o.consistent_only ? " consistent-only" : "",
                (unsigned long long)s.codes, mm_code_format(&g, t.nodes[0].guess, code),
                (unsigned long long)s.total, (double)s.total / (double)s.codes, s.worst,
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    }
    if (optimal && !quiet)
        fprintf(stderr, "mmtree: %s: %llu sets searched, %.1f%% of guesses removed by symmetry\n",
                rep.proven ? "proven optimal" : "stopped", (unsigned long long)rep.nodes,
                rep.guesses_all ? 100.0 * (1.0 - (double)rep.guesses / (double)rep.guesses_all) : 0.0);
    if (optimal && !rep.proven)
        fprintf(stderr, "mmtree: warning: not proven optimal: total %llu, proven lower bound %llu\n",
                (unsigned long long)rep.total, (unsigned long long)rep.lower);
out:
    mm_tree_release(&t);
    mm_game_release(&g);
    return rc;
}

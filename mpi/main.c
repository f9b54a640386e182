/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * mmtree-mpi: mmtree build for the optimal rules, the search spread over
 * the ranks of an MPI job.  Rank 0 reads the command line, coordinates
 * the search (compiler/opt_spread.c), keeps the checkpoint and writes the
 * tree; every rank, rank 0 included, solves the sets it is handed with
 * the threads of its share of the node.  The tree is the one mmtree
 * build writes, byte for byte.
 */
#define _GNU_SOURCE   /* sched_getaffinity: the cores mpirun binds a rank to */
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "compiler/opt_unit.h"
#include "core/file.h"
#include "link.h"
#include "mmtree/mmtree.h"

static const char mpi_help[] =
    "usage: mpirun [-np N] mmtree-mpi [options]\n"
    "\n"
    "mmtree build for the optimal rules, the search spread over the ranks of\n"
    "an MPI job: rank 0 hands out the sets after the first guesses (and\n"
    "deeper where they are big), keeps the bounds and writes the tree; every\n"
    "rank solves the sets it is handed.  The tree is the one of mmtree build.\n"
    "\n"
    "Options: those of mmtree build (see 'mmtree build --help'), with the\n"
    "optimal rules only; the rule is optimal unless -r says otherwise.\n"
    "  -j, --threads N       threads a rank (default: the node's cores shared\n"
    "                        among its ranks, within the cores mpirun binds\n"
    "                        it to: with -j, mpirun --bind-to none)\n"
    "      --time-limit S    stop the whole job after S seconds, write the best\n"
    "                        tree found and the proven lower bound (exit 3)\n"
    "      --checkpoint FILE rank 0 saves the search to FILE and resumes from\n"
    "                        it, with any number of ranks\n"
    "      --start FILE      rank 0 starts from the tree in FILE, as build does\n"
    "      --table-size MB   each rank's table of solved sets, as build's\n"
    "and these of its own:\n"
    "      --checkpoint-every S  seconds between checkpoints (default 600)\n"
    "      --split N         rank 0 expands sets of more than N codes into\n"
    "                        their guesses rather than hand them out (default:\n"
    "                        twice the game's codes / ranks, at least 128)\n"
    "      --progress S      seconds between rank 0's progress lines (default\n"
    "                        60; 0: none)\n"
    "  -h, --help            this text\n"
    "\n"
    "Progress lines and a one-line summary come from rank 0 (not with -q);\n"
    "an error in any rank ends the job with its message.  Exit status: 0\n"
    "proven, 2 an error, 3 stopped before its proof (the best tree found is\n"
    "written, with the proven lower bound).\n";

/* What mmtree-mpi adds to build's options. */
typedef struct mpi_opts {
    uint32_t split;
    double ckpt_every;
    double progress;    /* seconds between progress lines; 0: none */
} mpi_opts;

typedef struct job {
    int ranks, threads;
    int node_threads;   /* the default: the node's cores among its ranks */
    mpi_opts mo;
    mpi_link link;
    bool linked, quit;
    ospread_stats stats;
    uint64_t sent[2];   /* bytes and messages between ranks */
} job;

/* Is s the long option name, alone or as name=value (*v the value)? */
static bool opt_is(const char *s, const char *name, const char **v)
{
    size_t k = strlen(name);
    if (strncmp(s, name, k))
        return false;
    if (s[k] == '=')
        *v = s + k + 1;
    return s[k] == '\0' || s[k] == '=';
}

/* Its own options out of argv into mo, and "--rule optimal" first, so
 * that a later -r wins: the arguments for build's parser into args.
 * -1 to go on, else the exit status after a message. */
static int own_options(int argc, char **argv, mpi_opts *mo, char **args, int *nargs)
{
    int n = 0;
    args[n++] = argv[0];
    args[n++] = (char *)"--rule";
    args[n++] = (char *)"optimal";
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = NULL;
        bool split = opt_is(s, "--split", &v), every = opt_is(s, "--checkpoint-every", &v),
             progress = opt_is(s, "--progress", &v);
        if (!split && !every && !progress) {
            args[n++] = argv[i];
            continue;
        }
        if (!v && i + 1 >= argc)
            return cli_usage_error("mpi", "option '%s' needs a value", s);
        if (!v)
            v = argv[++i];
        char *end;
        if (split) {
            long k;
            if (!cli_int("mpi", "--split", v, 1, MM_MAX_CODES, &k))
                return EXIT_BAD;
            mo->split = (uint32_t)k;
            continue;
        }
        double x = strtod(v, &end);
        if (end == v || *end || !(x >= 0) || x > 1e9 || (every && x == 0))
            return cli_usage_error("mpi", "%s: '%s' is not a number of seconds",
                                   every ? "--checkpoint-every" : "--progress", v);
        if (every)
            mo->ckpt_every = x;
        else
            mo->progress = x;
    }
    *nargs = n;
    args[n] = NULL;
    return -1;
}

/* The cores this rank may run on: mpirun binds a rank to one core
 * unless told otherwise (--bind-to none, --map-by slot:PE=N). */
static int cores_bound(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set))
        return 0;
    return CPU_COUNT(&set);
}

/* The node's cores shared among the ranks on it, within the cores the
 * rank is bound to. */
static int threads_a_rank(void)
{
    MPI_Comm node;
    int local = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long t = cores > local ? cores / local : 1;
    int bound = cores_bound();
    if (bound > 0 && t > bound)
        t = bound;
    return t > 64 ? 64 : (int)t;
}

static void quit(job *jb)
{
    if (jb->quit)
        return;
    jb->quit = true;
    if (jb->linked) {
        mpi_link_quit(&jb->link, jb->sent);
        mpi_link_release(&jb->link);
    } else {
        mpi_link l = {.size = jb->ranks};
        mpi_link_quit(&l, jb->sent);
        mpi_link_release(&l);
    }
}

static mm_status spread_compile(void *arg, const mm_game *g, const mm_compile_opts *o,
                                mm_tree *t, mm_diag *d)
{
    job *jb = arg;
    olink link;
    mm_compile_opts co = *o;
    ospread_opts so = {.split = jb->mo.split};
    if (jb->mo.ckpt_every > 0)
        co.checkpoint_every = jb->mo.ckpt_every;
    if (mpi_link_init(&jb->link, g, &co, jb->threads, &link)) {
        mpi_link_release(&jb->link);
        mm_tree_init(t, g->pegs, g->colors, g->repeat);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory setting up the search");
    }
    jb->linked = true;
    mm_status st = opt_compile_spread(g, &co, &link, &so, &jb->stats, t, d);
    quit(jb);
    return st;
}

static void spread_summary(void *arg, const build_args *a, const mm_game *g, const mm_tree *t,
                           const mm_optimal_report *rep, double secs)
{
    job *jb = arg;
    mm_stats s;
    char code[MM_MAX_PEGS + 1], proof[96];
    if (a->quiet) {
        if (!rep->proven)
            cli_warn_unproven(rep);
        return;
    }
    mm_tree_stats(t, &s);
    if (rep->proven)
        snprintf(proof, sizeof proof, "proven optimal");
    else
        snprintf(proof, sizeof proof, "not proven optimal, lower bound %llu",
                 (unsigned long long)rep->lower);
    fprintf(stderr,
            "mmtree-mpi: MM(%d,%d%s) %s%s: %llu codes, first guess %s, total %llu, expected "
            "%.4f, worst %d, %s; %d rank%s x %d thread%s, %llu sets searched, %llu units, "
            "%.1f KiB in %llu messages, %.3f s\n",
            g->pegs, g->colors, g->repeat ? "" : ", no repeat", mm_rule_name(a->o.rule),
            a->o.consistent_only ? " consistent-only" : "", (unsigned long long)s.codes,
            mm_code_format(g, t->nodes[0].guess, code), (unsigned long long)s.total,
            (double)s.total / (double)s.codes, s.worst, proof, jb->ranks,
            jb->ranks == 1 ? "" : "s", jb->threads,
            jb->threads == 1 ? "" : "s", (unsigned long long)rep->nodes, (unsigned long long)jb->stats.units,
            (double)jb->sent[0] / 1024.0, (unsigned long long)jb->sent[1], secs);
}

/* A search of days must not end in "cannot write": rank 0 opens the
 * output file's temporary file before the search and removes it.  Not
 * a device, a FIFO or standard output (written in place: opening one is
 * not free of effects).  -1 to go on, else the exit status. */
static int output_writable(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-") || !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6) ||
        (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)))
        return -1;
    outfile f;
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = outfile_open(&f, path, &d);
    outfile_abort(&f);
    return st ? cli_report(&d, st) : -1;
}

/* Rank 0: the command line, the search, the tree. */
static int coordinate(job *jb, int argc, char **argv)
{
    char **args = calloc((size_t)argc + 3, sizeof *args);
    build_hooks h = {"mpi", mpi_help, spread_compile, spread_summary, jb};
    jb->mo.progress = 60;
    build_args a;
    mm_game g;
    mm_format fmt;
    int nargs, rc = args ? own_options(argc, argv, &jb->mo, args, &nargs) : EXIT_BAD;
    bool game = false;
    if (rc < 0 && (rc = build_setup(nargs, args, &h, &a, &g, &fmt)) < 0) {
        game = true;
        if (a.o.rule < MM_RULE_COUNT_ONE_STEP)
            rc = cli_usage_error("mpi", "rule '%s' is not an optimal rule (mmtree build runs "
                                 "it in seconds)", mm_rule_name(a.o.rule));
        else
            rc = output_writable(a.out);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc < 0) {
        /* build's progress lines, plain ones: mpirun gives rank 0 no
         * terminal */
        a.o.progress_every = a.quiet ? 0 : jb->mo.progress;
        jb->threads = a.threads > 0 ? (int)a.threads : jb->node_threads;
        int bound = cores_bound();
        if (bound > 0 && jb->threads > bound)
            cli_warning("%d threads a rank, but rank 0 may run on %d core%s only: "
                        "mpirun --bind-to none, or --map-by slot:PE=%d", jb->threads, bound,
                        bound == 1 ? "" : "s", jb->threads);
        cli_signals_init();
        rc = build_run(&a, &g, fmt, &h);
        quit(jb);   /* when build_run ended before the search */
    }
    if (game)
        mm_game_release(&g);
    free(args);
    return rc;
}

/* Any other rank: the same command line, read in silence (rank 0 has
 * checked it), then a worker until rank 0 says to end. */
static void work(job *jb, int argc, char **argv)
{
    int rc;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char **args = calloc((size_t)argc + 3, sizeof *args);
    build_hooks h = {"mpi", mpi_help, NULL, NULL, NULL};
    build_args a;
    mm_game g;
    mm_format fmt;
    int nargs;
    if (rc >= 0) {   /* rank 0 ended the job before the search */
        free(args);
        return;
    }
    /* rank 0 ends the job; a signal the job gets is its to act on */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    if (!args || own_options(argc, argv, &jb->mo, args, &nargs) >= 0 ||
        build_setup(nargs, args, &h, &a, &g, &fmt) >= 0) {
        /* what rank 0 read, this rank could not (memory): it must still
         * answer, or rank 0 would wait for it */
        mpi_worker(NULL, NULL, 0);
        free(args);
        return;
    }
    jb->threads = a.threads > 0 ? (int)a.threads : jb->node_threads;
    mpi_worker(&g, &a.o, jb->threads);
    mm_game_release(&g);
    free(args);
}

int main(int argc, char **argv)
{
    int provided, rank;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fputs("mmtree-mpi: error: MPI would not start\n", stderr);
        return EXIT_BAD;
    }
    job jb;
    memset(&jb, 0, sizeof jb);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &jb.ranks);
    jb.node_threads = threads_a_rank();
    int rc = EXIT_OK;
    if (rank == 0)
        rc = coordinate(&jb, argc, argv);
    else
        work(&jb, argc, argv);
    MPI_Finalize();
    return rank == 0 ? cli_close_stdout(rc) : EXIT_OK;
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* The mmtree command: a table of subcommands over libmmtree, and what
 * they share: messages, exit statuses, signals, standard output, JSON. */
#ifndef MM_CLI_H
#define MM_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/json.h"
#include "mmtree/compile.h"
#include "mmtree/diag.h"
#include "mmtree/format.h"
#include "mmtree/game.h"
#include "mmtree/tree.h"

/* Exit statuses (README: "Exit status"). */
enum {
    EXIT_OK = 0,      /* done, and complete */
    EXIT_CHECK = 1,   /* a check found problems (verify, diff), or a game
                         was given up */
    EXIT_BAD = 2,     /* bad usage, unreadable input, a failed write */
    EXIT_PARTIAL = 3, /* written but not complete: a search stopped before
                         its proof, or its checkpoint could not be saved */
};

/* Print "file:line:col: error: msg" (or "mmtree: error: msg") to stderr
 * and return the exit status the status implies.  Every message the
 * command prints goes through cli_put, so arguments and file text that
 * it quotes come out escaped and a message is always one line. */
int cli_report(const mm_diag *d, mm_status st);
/* Print "mmtree CMD: error: ..." and return EXIT_BAD. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print "mmtree: warning: ...". */
void cli_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The warning of a search that stopped before its proof: the tree's total
 * and the proven lower bound, and for optimal-worst the proven least worst
 * case too, as stats gives them. */
void cli_warn_unproven(const mm_optimal_report *rep);
/* Write s with control characters and bytes that are not UTF-8 escaped
 * (\n, \t, \x..). */
void cli_put(FILE *f, const char *s);

/* Parse a non-negative integer option value in [lo, hi]. */
bool cli_int(const char *cmd, const char *opt, const char *val, long lo,
             long hi, long *out);

/* The game's options, -p, -c and -n, in a command's getopt_long (getopt.h):
 * their letters and their rows of the long options. */
#define CLI_GAME_SHORTOPTS "p:c:n"
#define CLI_GAME_LONGOPTS                      \
    {"pegs", required_argument, NULL, 'p'},    \
    {"colors", required_argument, NULL, 'c'},  \
    {"colours", required_argument, NULL, 'c'}, \
    {"no-repeat", no_argument, NULL, 'n'}

/* c, one of the game's options, into *pegs, *colors or *repeat (-n:
 * false): -1 to go on, else EXIT_BAD after a message. */
int cli_game_option(const char *cmd, int c, long *pegs, long *colors, bool *repeat);

/* SIGINT, SIGTERM and SIGHUP: remove the temporary files of writes under
 * way and end with the signal.  With cli_signals_stop, each of the first
 * `stops` signals only adds one to *stop (a search stops and writes what
 * it has; a polish after it stops when *stop rises again); the next one
 * ends at once, leaving no partial file. */
void cli_signals_init(void);
void cli_signals_stop(volatile sig_atomic_t *stop, int stops);

/* Flush and close standard output; report a failed write (EXIT_BAD). */
int cli_close_stdout(int rc);

/* Write a finished JSON document (and a newline) to stdout; EXIT_BAD
 * when it could not be built. */
int cli_json_print(strbuf *b);
/* The keys every command uses for a tree: core/json.h writes them, for
 * the HTML view as well. */
static inline void cli_json_game(json_writer *j, int pegs, int colors, bool repeat)
{
    json_tree_game(j, pegs, colors, repeat);
}
static inline void cli_json_provenance(json_writer *j, const mm_tree *t, const mm_game *g)
{
    json_tree_provenance(j, t, g);
}
static inline void cli_json_stats(json_writer *j, const mm_stats *s, const mm_game *g,
                                  mm_code first)
{
    json_tree_stats(j, s, g, first);
}
/* The same provenance as text lines ("rule:", "proof:", "citation:"),
 * aligned like the figures of stats and verify; an unproven tree says
 * "not proven optimal, lower bound N". */
void cli_print_provenance(const mm_tree *t, const mm_game *g);

/* Read a tree in any format (path "-": stdin) and set up its game:
 * EXIT_OK, or the exit status after a message (t and g then released). */
int cli_read_tree(const char *path, mm_tree *t, mm_game *g);

int cmd_build(int argc, char **argv);

/* ---- mmtree build's command line, which mmtree-mpi takes too ---- */

/* What the command line asks for. */
typedef struct build_args {
    long pegs, colors, threads, names, extra;
    bool repeat, quiet;
    const char *rule, *first, *out, *fmtname, *tie, *after;
    const char *start;          /* --start: the tree file */
    const char *optimal_only;   /* the first option only optimal rules take */
    mm_compile_opts o;
} build_args;

/* What another program does differently: its name in messages and its
 * help; how it compiles (mm_compile when NULL) and what it says after
 * (build's summary when NULL). */
typedef struct build_hooks {
    const char *cmd;
    const char *help;
    mm_status (*compile)(void *arg, const mm_game *g, const mm_compile_opts *o, mm_tree *t,
                         mm_diag *d);
    void (*summary)(void *arg, const build_args *a, const mm_game *g, const mm_tree *t,
                    const mm_optimal_report *rep, double secs);
    void *arg;
} build_hooks;

/* The command line into a, its game into g (initialised) and the output
 * format into fmt: -1 to go on, else the exit status, after the help or
 * a message. */
int build_setup(int argc, char **argv, const build_hooks *h, build_args *a, mm_game *g,
                mm_format *fmt);
/* The time left, from the pace of the run's own progress over the later
 * half of it: a resumed search's share done jumps at first, as its table
 * answers what earlier runs solved, and then moves at the pace of the
 * work left, or not at all for hours while a big set is searched.  The
 * share done at some reports (about 16 over the run) is kept. */
#define CLI_ETA_SAMPLES 24
typedef struct cli_eta {
    double t[CLI_ETA_SAMPLES], done[CLI_ETA_SAMPLES];
    int n;
} cli_eta;

/* A report of a run elapsed seconds old, done of its work done (0..1):
 * the seconds left at the pace of the later half of the run, or -1 when
 * there is no estimate (too early, or no progress in that half). */
double cli_eta_left(cli_eta *e, double elapsed, double done);

/* The progress of a build on stderr (cli/progress.c): the
 * line redrawn on a terminal unless quiet; plain lines elsewhere when
 * plain (--progress); the messages that the search resumes from the
 * checkpoint and has loaded its bounds (--bounds-from).
 * cli_progress_show is mm_compile_opts.progress, with a cli_progress as
 * its argument; cli_progress_end clears the line. */
typedef struct cli_progress {
    const mm_game *g;
    const char *checkpoint;
    const char *bounds;   /* --bounds-from's file, or NULL */
    bool quiet, started;
    bool tty;     /* the line redrawn in place */
    bool plain;   /* a line for each report */
    bool one_step;/* a one-step rule: no bounds, no first guesses */
    cli_eta eta;
} cli_progress;

void cli_progress_init(cli_progress *p, const mm_game *g, const char *checkpoint, bool quiet,
                       bool plain);
/* What a checkpoint's time leaves out, when r->cpu_partial says so. */
#define CLI_TIME_PARTIAL \
    " (not all of the processor time counted: a version 3 checkpoint, other MPI ranks, " \
    "or a search with --bounds-from)"
void cli_progress_show(void *arg, const mm_optimal_report *r);
void cli_progress_end(const cli_progress *p);

/* Compile, write the tree, say what was done: the exit status. */
int build_run(build_args *a, const mm_game *g, mm_format fmt, const build_hooks *h);
int cmd_stats(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_partition(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_next(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_assist(int argc, char **argv);
int cmd_checkpoint(int argc, char **argv);

#endif

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The progress of a build on stderr: on a terminal one line
 * redrawn in place; elsewhere (a batch log) a plain line every --progress
 * seconds, and a last one when the search is over.  The library only
 * reports (mm_optimal_report); the words are here.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The time left is shown from this share of the work and this many
 * seconds on. */
#define MIN_DONE 0.05
#define MIN_SECONDS 2.0

/* Seconds as a person reads them: "42 s", "17 min", "3.5 h". */
static void put_duration(FILE *f, double s)
{
    if (s < 99.5)
        fprintf(f, "%.0f s", s);
    else if (s < 99.5 * 60)
        fprintf(f, "%.0f min", s / 60);
    else
        fprintf(f, "%.1f h", s / 3600);
}

/* The k oldest samples dropped. */
static void eta_drop(cli_eta *e, int k)
{
    memmove(e->t, e->t + k, (size_t)(e->n - k) * sizeof *e->t);
    memmove(e->done, e->done + k, (size_t)(e->n - k) * sizeof *e->done);
    e->n -= k;
}

double cli_eta_left(cli_eta *e, double elapsed, double done)
{
    /* a sample when the last is a sixteenth of the run old */
    double gap = elapsed / 16 > 1 ? elapsed / 16 : 1;
    if (!e->n || elapsed - e->t[e->n - 1] >= gap) {
        if (e->n == CLI_ETA_SAMPLES)
            eta_drop(e, 1);
        e->t[e->n] = elapsed;
        e->done[e->n++] = done;
    }
    /* the window starts at the last sample at least half the run old */
    int k = 0;
    while (k + 1 < e->n && e->t[k + 1] <= elapsed / 2)
        k++;
    eta_drop(e, k);
    double dt = elapsed - e->t[0], dd = done - e->done[0];
    /* worth showing once some of the work is done and the clock has run
     * a while: before, one first guess's luck decides it */
    if (done < MIN_DONE || done >= 1 || elapsed < MIN_SECONDS || dt <= 0 || dd <= 0)
        return -1;
    return (1 - done) * dt / dd;
}

/* "lo..hi" ("lo" when they are the same and one is enough), "at least
 * lo" when hi is not known (0). */
static void put_range(const char *what, unsigned long long lo, unsigned long long hi, bool one)
{
    if (!hi)
        fprintf(stderr, "%s at least %llu", what, lo);
    else if (lo == hi && one)
        fprintf(stderr, "%s %llu", what, lo);
    else
        fprintf(stderr, "%s %llu..%llu", what, lo, hi);
}

/* The bounds: for optimal-worst the worst case's first; while the search
 * asks whether a depth is enough, that depth (there is no total yet). */
static void put_bounds(const mm_optimal_report *r)
{
    if (r->worst_first) {
        put_range(": worst case", (unsigned long long)r->worst_lower,
                  (unsigned long long)(r->ended ? r->worst : r->worst_upper), true);
        fputs(",", stderr);
    } else if (r->trying) {
        fputs(":", stderr);
    }
    if (r->trying) {
        fprintf(stderr, " trying %d", r->trying);
        return;
    }
    put_range(r->worst_first ? " total" : ": total", (unsigned long long)r->lower,
              (unsigned long long)r->total, false);
    fprintf(stderr, ", %.1f%% done", 100.0 * r->done);
}

/* The line, without its end: time, bounds, work done, the time left (when
 * left is not negative), the first guess, sets searched; for a one-step
 * rule the work done, the time left and the nodes built. */
static void put_line(const cli_progress *p, const mm_optimal_report *r, double left)
{
    char code[MM_MAX_PEGS + 1];
    fputs("mmtree: ", stderr);
    put_duration(stderr, r->elapsed);
    if (p->one_step)
        fprintf(stderr, ": %.1f%% done", 100.0 * r->done);
    else if (r->polishing)
        fprintf(stderr, ": polishing, %llu sub-trees solved again, %llu bettered",
                (unsigned long long)r->polish_solved, (unsigned long long)r->polish_bettered);
    else
        put_bounds(r);
    if (left >= 0) {
        fputs(", about ", stderr);
        put_duration(stderr, left);
        fputs(" left", stderr);
    }
    if (r->current != MM_NO_CODE)
        fprintf(stderr, ", first guess %s", mm_code_format(p->g, r->current, code));
    if (r->trying && r->current != MM_NO_CODE)
        fprintf(stderr, " (%lu of %lu)", (unsigned long)r->tried + 1,
                (unsigned long)r->candidates);
    fprintf(stderr, ", %llu %s", (unsigned long long)r->nodes, p->one_step ? "nodes" : "sets");
}

void cli_progress_init(cli_progress *p, const mm_game *g, const char *checkpoint, bool quiet,
                       bool plain)
{
    p->g = g;
    p->checkpoint = checkpoint;
    p->bounds = NULL;
    p->quiet = quiet;
    p->started = false;
    p->tty = !quiet && isatty(STDERR_FILENO);
    p->plain = plain && !p->tty;
    p->one_step = false;
    p->eta.n = 0;
}

void cli_progress_show(void *arg, const mm_optimal_report *r)
{
    cli_progress *p = arg;
    if (!p->started) {
        p->started = true;
        if (r->resumed && !p->quiet) {
            fputs("mmtree: resuming from '", stderr);
            cli_put(stderr, p->checkpoint);
            fprintf(stderr, "': %llu sets", (unsigned long long)r->resumed);
            if (r->runs_before)
                fprintf(stderr, ", %u run%s, %.1f s of processor time",
                        (unsigned)r->runs_before, r->runs_before == 1 ? "" : "s",
                        r->cpu_before);
            if (r->cpu_partial)
                fputs(CLI_TIME_PARTIAL, stderr);
            fputc('\n', stderr);
        }
        if (p->bounds && !p->quiet) {
            fputs("mmtree: bounds from '", stderr);
            cli_put(stderr, p->bounds);
            fprintf(stderr, "': %llu facts without a depth limit, %u run%s, %.1f s of "
                    "processor time\n", (unsigned long long)r->bounds_loaded,
                    (unsigned)r->runs_bounds, r->runs_bounds == 1 ? "" : "s", r->cpu_bounds);
        }
        return;
    }
    double left = r->ended || r->trying || r->polishing ? -1
                                                      : cli_eta_left(&p->eta, r->elapsed, r->done);
    if (p->tty && !r->ended) {
        fputc('\r', stderr);
        put_line(p, r, left);
        fputs("\033[K", stderr);
    } else if (p->plain) {
        put_line(p, r, left);
        fputc('\n', stderr);
    }
}

void cli_progress_end(const cli_progress *p)
{
    if (p->tty && p->started)
        fputs("\r\033[K", stderr);
}

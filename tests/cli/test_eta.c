/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The time left a progress line gives (cli_eta_left, cli/progress.c):
 * at the pace of the later half of the run, so that a resumed search,
 * whose share done jumps while its table answers what earlier runs
 * solved and then stands still for hours, is not said to end in two
 * minutes; a steady search gets the time its pace gives; none before 5%
 * is done or while the share does not move.
 */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "tests/check.h"

/* The reports of a run every step seconds up to end, its share done
 * given by f; the estimate of the last one. */
static double run(double step, double end, double (*f)(double))
{
    cli_eta e = {.n = 0};
    double left = -1;
    for (double t = step; t <= end + 1e-9; t += step)
        left = cli_eta_left(&e, t, f(t));
    return left;
}

static double steady(double t) { return t / 100; }
/* resumed: 63.2% answered by the table in the first two minutes, then
 * nothing for hours (MM(6,7) without repeats, its last part searched) */
static double resumed(double t) { return t < 120 ? 0.632 * t / 120 : 0.632; }
/* resumed, then moving at 0.1% a 120 s */
static double resumed_moving(double t)
{
    return t < 120 ? 0.6 * t / 120 : 0.6 + (t - 120) / 120000;
}
/* fast for 100 s, then at a tenth of a percent a second */
static double slowed(double t) { return t < 100 ? t / 200 : 0.5 + (t - 100) / 1000; }
static double early(double t) { return t / 10000; }

static void near(const char *what, double got, double want, double tol)
{
    CHECK(fabs(got - want) <= tol * want, "%s: %.1f s left, want %.1f", what, got, want);
    if (fabs(got - want) <= tol * want)
        printf("%-28s %.1f s left (want %.1f)\n", what, got, want);
}

int main(void)
{
    near("steady, every second", run(1, 50, steady), 50, 0.02);
    near("steady, every 7 s", run(7, 49, steady), 51, 0.02);
    double r = run(120, 4 * 3600, resumed);
    CHECK(r < 0, "resumed and standing still for 4 hours: %.1f s left", r);
    r = run(120, 240, resumed);
    CHECK(r < 0, "resumed, 4 minutes in: %.1f s left", r);
    printf("%-28s no estimate\n", "resumed, standing still");
    /* at 1200 s: 0.609 done, 0.001 per 120 s; 0.391 left: 46920 s */
    near("resumed, moving slowly", run(120, 1200, resumed_moving), 0.391 * 120000, 0.02);
    /* at 300 s: 0.7 done, 0.001 a second: 300 s (the whole run's pace
     * would say 129 s) */
    near("slowed down", run(1, 300, slowed), 300, 0.05);
    r = run(1, 400, early);
    CHECK(r < 0, "4%% done: %.1f s left", r);
    r = cli_eta_left(&(cli_eta){.n = 0}, 1000, 1);
    CHECK(r < 0, "all done: %.1f s left", r);
    return failures ? 1 : 0;
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "mmtree/mmtree.h"

/* Drawing lives in its own program, mmtree-render, so that the other
 * commands do not load Graphviz's libraries at every start: they cost
 * about a millisecond, a tenth of building MM(4,6).  It is looked for
 * beside the mmtree that runs when that was named by a path (the build
 * tree, or an installation that keeps them together), then in the
 * libexecdir mmtree was installed for. */
static const char *argv0;

static int cmd_render_exec(int argc, char **argv)
{
    char path[4096];
    const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
    path[0] = '\0';
    if (slash && (size_t)(slash - argv0) + sizeof "/mmtree-render" <= sizeof path) {
        snprintf(path, sizeof path, "%.*s/mmtree-render", (int)(slash - argv0), argv0);
        if (access(path, X_OK) != 0)
            path[0] = '\0';
    }
    if (!path[0])
        snprintf(path, sizeof path, "%s/mmtree-render", MM_LIBEXECDIR);
    (void)argc;
    argv[0] = path;
    execv(path, argv);
    return cli_usage_error("render", "cannot run '%s': %s", path, strerror(errno));
}

struct cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct cmd commands[] = {
    {"build", cmd_build, "compile the strategy tree of a game from a rule"},
    {"stats", cmd_stats, "guesses, depth and size of a tree file"},
    {"convert", cmd_convert, "convert a tree between knuth, irving, xml and bin"},
    {"verify", cmd_verify, "check a tree against its game"},
    {"diff", cmd_diff, "compare two trees of the same game"},
    {"partition", cmd_partition, "how guesses split the codes; rule scores, lower bounds"},
    {"render", cmd_render_exec, "draw a tree with Graphviz"},
    {"next", cmd_next, "the guess to play after some guesses and replies"},
    {"trace", cmd_trace, "the game a tree plays against a code, or every code"},
    {"play", cmd_play, "find the computer's code"},
    {"assist", cmd_assist, "the computer finds your code"},
    {"checkpoint", cmd_checkpoint, "check a search's checkpoint; keep its largest sets"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: mmtree <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'mmtree <command> --help' describes each command.\n");
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("mmtree %s\n", mm_version());
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "mmtree: error: unknown command '%s' (see 'mmtree --help')\n", argv[1]);
    return EXIT_BAD;
}

int main(int argc, char **argv)
{
    argv0 = argv[0];
    cli_signals_init();
    return cli_close_stdout(run(argc, argv));
}

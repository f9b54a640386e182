#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mmtree.h"

/* Drawing lives in its own program, mmtree-render beside this one, so that
 * the other commands do not load Graphviz's libraries at every start:
 * they cost about a millisecond, a tenth of building MM(4,6). */
static int cmd_render_exec(int argc, char **argv)
{
    char self[4096], path[4096 + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return cli_usage_error("render", "cannot find the mmtree program's folder");
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, sizeof path, "%s/mmtree-render", self);
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
    {"render", cmd_render_exec, "draw a tree with Graphviz"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: mmtree <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'mmtree <command> --help' describes each command.\n");
}

int main(int argc, char **argv)
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

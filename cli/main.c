#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree.h"

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
    {"render", cmd_render, "draw a tree with Graphviz"},
};

int cli_report(const mm_diag *d, mm_status st)
{
    char where[MM_DIAG_FILE_MAX + 64];
    mm_diag_where(d, where, sizeof where);
    fprintf(stderr, "%s%serror: %s\n", where[0] ? where : "mmtree: ",
            "", d->msg[0] ? d->msg : mm_status_str(st));
    return st == MM_ERR_CHECK ? EXIT_CHECK : EXIT_BAD;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mmtree %s: error: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return EXIT_BAD;
}

bool cli_int(const char *cmd, const char *opt, const char *val, long lo,
             long hi, long *out)
{
    char *end;
    if (!val) {
        cli_usage_error(cmd, "%s needs a value", opt);
        return false;
    }
    long v = strtol(val, &end, 10);
    if (!*val || *end || v < lo || v > hi) {
        cli_usage_error(cmd, "%s must be %ld..%ld, not '%s'", opt, lo, hi, val);
        return false;
    }
    *out = v;
    return true;
}

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

#include <stdio.h>

#include "cli.h"

/* Placeholder until the issue that owns 'mmtree diff' lands. */
int cmd_diff(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("diff", "not implemented yet");
}

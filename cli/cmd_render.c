#include <stdio.h>

#include "cli.h"

/* Placeholder until the issue that owns 'mmtree render' lands. */
int cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("render", "not implemented yet");
}

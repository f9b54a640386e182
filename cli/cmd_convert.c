#include <stdio.h>

#include "cli.h"

/* Placeholder until the issue that owns 'mmtree convert' lands. */
int cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("convert", "not implemented yet");
}

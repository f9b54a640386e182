#include <stdio.h>

#include "cli.h"

/* Placeholder until the issue that owns 'mmtree verify' lands. */
int cmd_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("verify", "not implemented yet");
}

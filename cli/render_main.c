/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* mmtree-render: 'mmtree render' runs this program (see main.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    cli_signals_init();
    return cli_close_stdout(cmd_render(argc, argv));
}

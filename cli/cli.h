/* The mmtree command: a table of subcommands over libmmtree. */
#ifndef MM_CLI_H
#define MM_CLI_H

#include <stdbool.h>

#include "mmtree/diag.h"

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_CHECK = 1, EXIT_BAD = 2 };

/* Print "file:line:col: error: msg" (or "mmtree: error: msg") to stderr
 * and return the exit status the status implies. */
int cli_report(const mm_diag *d, mm_status st);
/* Print "mmtree CMD: error: ..." and return EXIT_BAD. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse a non-negative integer option value in [lo, hi]. */
bool cli_int(const char *cmd, const char *opt, const char *val, long lo,
             long hi, long *out);

int cmd_build(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_render(int argc, char **argv);

#endif

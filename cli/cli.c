#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

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


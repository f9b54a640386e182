/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "mmtree/format.h"

void cli_put(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        unsigned c = p[i];
        size_t n = c >= 0x20 && c != 0x7f ? utf8_seq(p + i, len - i) : 0;
        if (n) {
            fwrite(p + i, 1, n, f);
            i += n;
            continue;
        }
        if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c == '\r')
            fputs("\\r", f);
        else
            fprintf(f, "\\x%02x", c);
        i++;
    }
}

int cli_report(const mm_diag *d, mm_status st)
{
    char where[MM_DIAG_FILE_MAX + 64];
    mm_diag_where(d, where, sizeof where);
    cli_put(stderr, where[0] ? where : "mmtree: ");
    fputs("error: ", stderr);
    cli_put(stderr, d->msg[0] ? d->msg : mm_status_str(st));
    fputc('\n', stderr);
    return st == MM_ERR_CHECK ? EXIT_CHECK : EXIT_BAD;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mmtree %s: error: ", cmd);
    cli_put(stderr, msg);
    fputc('\n', stderr);
    return EXIT_BAD;
}

void cli_warning(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("mmtree: warning: ", stderr);
    cli_put(stderr, msg);
    fputc('\n', stderr);
}

void cli_warn_unproven(const mm_optimal_report *rep)
{
    if (rep->worst_lower > 0)
        cli_warning("not proven optimal: total %llu, proven lower bound %llu; worst case %d, "
                    "at least %d",
                    (unsigned long long)rep->total, (unsigned long long)rep->lower, rep->worst,
                    rep->worst_lower);
    else
        cli_warning("not proven optimal: total %llu, proven lower bound %llu",
                    (unsigned long long)rep->total, (unsigned long long)rep->lower);
}

bool cli_int(const char *cmd, const char *opt, const char *val, long lo,
             long hi, long *out)
{
    char *end;
    if (!val) {
        cli_usage_error(cmd, "%s needs a value", opt);
        return false;
    }
    errno = 0;
    long v = strtol(val, &end, 10);
    if (!*val || *end || errno || v < lo || v > hi) {
        cli_usage_error(cmd, "%s must be %ld..%ld, not '%s'", opt, lo, hi, val);
        return false;
    }
    *out = v;
    return true;
}

int cli_game_option(const char *cmd, int c, long *pegs, long *colors, bool *repeat)
{
    switch (c) {
    case 'p': return cli_int(cmd, "--pegs", optarg, 1, MM_MAX_PEGS, pegs) ? -1 : EXIT_BAD;
    case 'c': return cli_int(cmd, "--colors", optarg, 1, MM_MAX_COLORS, colors) ? -1 : EXIT_BAD;
    default: *repeat = false; return -1;
    }
}

int cli_read_tree(const char *path, mm_tree *t, mm_game *g)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree_init(t, 0, 0, true);
    mm_status st = mm_tree_read_file(path, MM_FMT_AUTO, 0, t, &d);
    if (!st)
        st = mm_game_init(g, t->pegs, t->colors, t->repeat, &d);
    if (st) {
        mm_tree_release(t);
        return cli_report(&d, st);
    }
    return EXIT_OK;
}

/* ---- signals ---- */

static volatile sig_atomic_t *stop_flag;
static sig_atomic_t stop_most;

static void on_signal(int sig)
{
    if (stop_flag && *stop_flag < stop_most) {
        ++*stop_flag;
        return;
    }
    outfile_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_signals_init(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        /* A signal ignored when we started (nohup) stays ignored. */
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

void cli_signals_stop(volatile sig_atomic_t *stop, int stops)
{
    stop_most = (sig_atomic_t)stops;
    stop_flag = stop;
}

/* ---- standard output ---- */

int cli_close_stdout(int rc)
{
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = true;
        e = errno;
    }
    if (!failed)
        return rc;
    fprintf(stderr, "mmtree: error: cannot write to standard output: %s\n",
            e ? strerror(e) : "write error");
    return EXIT_BAD;
}

/* ---- JSON ---- */

int cli_json_print(strbuf *b)
{
    if (b->failed) {
        strbuf_release(b);
        fputs("mmtree: error: out of memory\n", stderr);
        return EXIT_BAD;
    }
    fwrite(b->data, 1, b->len, stdout);
    fputc('\n', stdout);
    strbuf_release(b);
    return EXIT_OK;
}

void cli_print_provenance(const mm_tree *t, const mm_game *g)
{
    const mm_provenance *p = &t->prov;
    char code[MM_MAX_PEGS + 1];
    if (p->rule) {
        fputs("rule:         ", stdout);
        cli_put(stdout, p->rule);
        if (p->consistent_only)
            fputs(", consistent only", stdout);
        if (p->first != MM_NO_CODE && p->first < g->ncodes)
            printf(", first guess %s", mm_code_format(g, p->first, code));
        if (p->tie_break) {
            fputs(", tie-break ", stdout);
            cli_put(stdout, p->tie_break);
        }
        if (p->max_depth)
            printf(", max depth %d", p->max_depth);
        if (p->extra_colors)
            printf(", %d extra colour%s", p->extra_colors, p->extra_colors == 1 ? "" : "s");
        putchar('\n');
    }
    if (p->proof == MM_PROOF_PROVEN)
        puts("proof:        proven optimal");
    if (p->proof == MM_PROOF_UNPROVEN) {
        printf("proof:        not proven optimal, lower bound %llu",
               (unsigned long long)p->lower_total);
        if (p->lower_worst)
            printf(" (worst case at least %d)", p->lower_worst);
        putchar('\n');
    }
    if (p->citation) {
        fputs("citation:     ", stdout);
        cli_put(stdout, p->citation);
        putchar('\n');
    }
}

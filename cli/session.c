/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* What mmtree play and mmtree assist share (session.h). */
#include "session.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "core/grow.h"
#include "mmtree/query.h"

int session_option(const char *cmd, int c, char **argv, session_opts *o)
{
    switch (c) {
    case 'p': case 'c': case 'n': return cli_game_option(cmd, c, &o->pegs, &o->colors, &o->repeat);
    case SESSION_OPT_TREE: o->tree = optarg; return -1;
    case 'r': o->rule = optarg; return -1;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    default: return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    }
}

/* The game of the options, or of the tree, which the options must not
 * contradict. */
static int open_tree(session *s, const session_opts *o)
{
    int rc = cli_read_tree(o->tree, &s->t, &s->g);
    if (rc)
        return rc;
    if ((o->pegs && o->pegs != s->g.pegs) || (o->colors && o->colors != s->g.colors) ||
        (!o->repeat && s->g.repeat)) {
        rc = cli_usage_error(s->cmd, "'%s' is a tree of MM(%d,%d%s): -p, -c and -n must "
                             "agree or be left out", o->tree, s->g.pegs, s->g.colors,
                             s->g.repeat ? "" : ", no repeat");
        mm_game_release(&s->g);
        mm_tree_release(&s->t);
        return rc;
    }
    snprintf(s->name, sizeof s->name, "the tree");
    return EXIT_OK;
}

static int open_rule(session *s, const session_opts *o)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_game_init(&s->g, o->pegs ? (int)o->pegs : 4,
                                o->colors ? (int)o->colors : 6, o->repeat, &d);
    if (st)
        return cli_usage_error(s->cmd, "%s", d.msg);
    if ((st = mm_rule_parse(o->rule ? o->rule : "knuth", &s->rule.rule, &d))) {
        mm_game_release(&s->g);
        return cli_usage_error(s->cmd, "%s", d.msg);
    }
    s->rule.threads = 1;
    snprintf(s->name, sizeof s->name, "%s", mm_rule_name(s->rule.rule));
    if (s->rule.rule < MM_RULE_COUNT_ONE_STEP)
        return EXIT_OK;
    /* A rule that plans the whole tree: plan it, then play the tree. */
    if (s->g.ncodes > SESSION_OPTIMAL_MAX) {
        int rc = cli_usage_error(s->cmd, "rule '%s' plans a whole tree: mmtree plays it on "
                                 "games of at most %d codes, and MM(%d,%d) has %u",
                                 s->name, SESSION_OPTIMAL_MAX, s->g.pegs, s->g.colors,
                                 s->g.ncodes);
        mm_game_release(&s->g);
        return rc;
    }
    s->rule.threads = 0;
    if ((st = mm_compile(&s->g, &s->rule, &s->t, &d))) {
        mm_game_release(&s->g);
        return cli_report(&d, st);
    }
    return EXIT_OK;
}

int session_open(session *s, const char *cmd, const session_opts *o)
{
    memset(s, 0, sizeof *s);
    s->cmd = cmd;
    s->tty = isatty(STDIN_FILENO);
    mm_compile_opts_init(&s->rule);
    mm_tree_init(&s->t, 0, 0, true);
    if (o->tree && o->rule)
        return cli_usage_error(cmd, "--tree and --rule exclude each other");
    int rc = o->tree ? open_tree(s, o) : open_rule(s, o);
    if (!rc && (rc = session_codes(s, 0, &s->codes, &s->m))) {
        mm_tree_release(&s->t);
        mm_game_release(&s->g);
    }
    return rc;
}

void session_close(session *s)
{
    free(s->buf);
    free(s->steps);
    free(s->codes);
    mm_tree_release(&s->t);
    mm_game_release(&s->g);
}

const char *session_read(session *s, const char *prompt)
{
    for (;;) {
        if (s->tty && prompt)
            fputs(prompt, stdout);
        fflush(stdout);
        ssize_t len = getline(&s->buf, &s->bufcap, stdin);
        if (len < 0) {
            if (s->tty)
                putchar('\n');   /* the shell's prompt on a line of its own */
            return NULL;
        }
        s->line++;
        char *p = s->buf, *end = s->buf + len;
        while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' ||
                           end[-1] == '\t'))
            *--end = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p)
            return p;
    }
}

void session_error(session *s, const char *fmt, ...)
{
    mm_diag d;
    va_list ap;
    mm_diag_clear(&d);
    va_start(ap, fmt);
    mm_diag_vset(&d, MM_ERR_USAGE, fmt, ap);
    va_end(ap);
    if (!s->tty) {
        mm_diag_file(&d, "-");
        d.line = s->line;
    }
    fflush(stdout);
    cli_report(&d, MM_ERR_USAGE);
}

void session_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

bool session_push(session *s, mm_code guess, int slot)
{
    mm_step *ns = grow_array(s->steps, &s->cap, (size_t)s->n + 1, 16, sizeof *ns);
    if (!ns)
        return false;
    s->steps = ns;
    s->steps[s->n++] = (mm_step){guess, slot};
    s->m = session_narrow(s, s->n - 1, s->codes, s->m);
    return true;
}

/* The codes a step ruled out are not kept: undo counts the codes left
 * again from the first step (it is rare; a push is one pass over the
 * codes left). */
int session_undo(session *s)
{
    s->n--;
    free(s->codes);
    s->codes = NULL;
    s->m = 0;
    return session_codes(s, s->n, &s->codes, &s->m);
}

uint32_t session_left(const session *s, const mm_code *S, uint32_t m, mm_code guess, int slot)
{
    uint32_t k = 0;
    for (uint32_t j = 0; j < m; j++)
        k += mm_game_score(&s->g, guess, S[j]) == slot;
    return k;
}

uint16_t session_played(const session *s, uint32_t n)
{
    uint16_t played = 0;
    for (uint32_t i = 0; i < n; i++)
        played |= s->g.colorset[s->steps[i].guess];
    return played;
}

int session_codes(session *s, uint32_t n, mm_code **codes, uint32_t *count)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_codes_after(&s->g, s->steps, n, codes, count, NULL, &d);
    return st ? cli_report(&d, st) : EXIT_OK;
}

uint32_t session_narrow(const session *s, uint32_t i, mm_code *S, uint32_t m)
{
    const mm_step *st = &s->steps[i];
    uint32_t k = 0;
    for (uint32_t j = 0; j < m; j++)
        if (mm_game_score(&s->g, st->guess, S[j]) == st->slot)
            S[k++] = S[j];
    return k;
}

int session_guess(session *s, uint32_t n, const mm_code *S, uint32_t m,
                  mm_code *guess, uint32_t *node, bool *have)
{
    mm_diag d;
    mm_diag_clear(&d);
    *have = false;
    *node = MM_NO_NODE;
    if (s->t.nnodes) {
        if (mm_tree_follow(&s->t, &s->g, s->steps, n, node, NULL) != MM_OK)
            return EXIT_OK;   /* the game left the tree */
        *guess = s->t.nodes[*node].guess;
        *have = true;
        return EXIT_OK;
    }
    mm_status st = mm_compile_guess(&s->g, &s->rule, S, m, session_played(s, n), guess, &d);
    if (st)
        return cli_report(&d, st);
    *have = true;
    return EXIT_OK;
}

bool session_contains(const mm_code *S, uint32_t m, mm_code x)
{
    uint32_t i = mm_codes_lower_bound(S, m, x);
    return i < m && S[i] == x;
}

void session_list(const session *s, bool all)
{
    const mm_code *S = s->codes;
    uint32_t m = s->m;
    enum { SHOWN = 100, WIDTH = 78 };
    uint32_t k = all || m <= SHOWN ? m : SHOWN;
    char code[MM_MAX_PEGS + 1];
    int col = printf("%u code%s possible:", m, m == 1 ? "" : "s");
    for (uint32_t i = 0; i < k; i++) {
        if (s->tty && col + 1 + s->g.pegs > WIDTH) {
            fputs("\n ", stdout);
            col = 1;
        }
        col += printf(" %s", mm_code_format(&s->g, S[i], code));
    }
    if (k < m)
        printf(" ... and %u more ('list all')", m - k);
    putchar('\n');
    fflush(stdout);
}

bool session_is(const char *line, const char *word)
{
    return strcasecmp(line, word) == 0;
}

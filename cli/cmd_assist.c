/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "session.h"

static const char assist_help[] =
    "usage: mmtree assist [-p P] [-c C] [-n] [--tree TREE | --rule R]\n"
    "\n"
    "You make up a code and the computer finds it: it says what to guess,\n"
    "and you type the reply, in letters or in numbers:\n"
    "\n"
    "  BW, B W, 1 1   one black hit (right colour, right place) and one white\n"
    "                 hit (right colour, wrong place)\n"
    "  -, 0 0         no hit\n"
    "  BBBB, 4 0      all black: the code is found\n"
    "\n"
    "Commands: 'list' shows the codes still possible (the first 100; 'list\n"
    "all' every one), 'undo' takes back the last reply, 'quit' stops, 'help'\n"
    "lists them.  A reply that no code still possible gives means that a\n"
    "reply was wrong: it is refused, with a word on 'undo'.\n"
    "\n"
    "On a terminal there is a prompt; otherwise one reply is read a line and\n"
    "one line is written a guess, so a script can drive it:\n"
    "\n"
    "  guess 3: 3526 (44 codes possible)\n"
    "  ...\n"
    "  found 3632 in 5 guesses\n"
    "\n"
    "Bad input gets one line on stderr ('<stdin>:LINE:1: error: ...' when\n"
    "not on a terminal) and is read again.\n"
    "\n"
    "  -p, --pegs P      pegs (default 4; with --tree, the tree's)\n"
    "  -c, --colors C    colours (default 6; with --tree, the tree's)\n"
    "  -n, --no-repeat   codes have distinct colours\n"
    "      --tree TREE   play this tree (any format; its game is the game)\n"
    "  -r, --rule R      or choose each guess by rule R (default knuth) on the\n"
    "                    codes still possible: no tree is stored, so it plays\n"
    "                    games too big for one (-p 5 -c 8, -p 6 -c 9); the\n"
    "                    optimal rules plan their whole tree first, on games\n"
    "                    of at most 2401 codes\n"
    "  -h, --help        this text\n"
    "\n"
    "Exit status: 0 code found, 1 quit or the input ended first, 2 bad usage.\n";

static const char assist_commands[] =
    "type the reply to the guess (BW, B W, 1 1; '-' or 0 0 for none), or: list, "
    "list all, undo, quit";

/* "1 1", "1,1", "1/1": black and white as numbers; else Knuth's letters
 * in any case, spaces ignored. */
static bool parse_reply(const mm_game *g, const char *line, int *slot, mm_diag *d)
{
    char letters[64];
    size_t n = 0;
    if (isdigit((unsigned char)line[0])) {
        char *end;
        long b = strtol(line, &end, 10), w = -1;
        const char *p = end;
        while (*p == ' ' || *p == ',' || *p == '/')
            p++;
        if (p != end && isdigit((unsigned char)*p))
            w = strtol(p, &end, 10);
        *slot = w < 0 || *end || b > g->pegs || w > g->pegs
                    ? -1 : mm_reply_slot(g, (int)b, (int)w);
        if (*slot >= 0 && b == g->pegs - 1 && w == 1) {
            mm_diag_set(d, MM_ERR_USAGE, "'%s' is not a reply: %ld black and 1 white cannot "
                        "happen", line, b);
            return false;
        }
        if (*slot < 0)
            mm_diag_set(d, MM_ERR_USAGE, "'%s' is not a reply: give black and white as two "
                        "numbers adding up to at most %d ('1 0'), or as letters ('B')",
                        line, g->pegs);
        return *slot >= 0;
    }
    /* b and w are read as B and W; anything else stays as typed, so that
     * the error quotes it. */
    for (const char *p = line; *p && n < sizeof letters; p++)
        if (*p != ' ')
            letters[n++] = *p == 'b' ? 'B' : *p == 'w' ? 'W' : *p;
    return mm_reply_parse(g, letters, n, slot, d) == MM_OK;
}

typedef enum { NEXT, FOUND, STOP, FAILED } outcome;

/* Read replies to guess x until one that
 * some code gives, a command that changes the position, or the end. */
static outcome ask(session *s, mm_code x, bool can_win)
{
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    mm_code_format(&s->g, x, code);
    for (;;) {
        const char *line = session_read(s, "reply> ");
        if (!line || session_is(line, "quit") || session_is(line, "q"))
            return STOP;
        if (session_is(line, "help") || session_is(line, "?")) {
            session_say("%s", assist_commands);
            continue;
        }
        if (session_is(line, "undo")) {
            if (!s->n) {
                session_error(s, "nothing to undo: this is the first guess");
                continue;
            }
            return session_undo(s) ? FAILED : NEXT;
        }
        if (session_is(line, "list") || session_is(line, "list all")) {
            session_list(s, session_is(line, "list all"));
            continue;
        }
        mm_diag d;
        int slot;
        mm_diag_clear(&d);
        if (!parse_reply(&s->g, line, &slot, &d)) {
            session_error(s, "%s", d.msg);
            continue;
        }
        mm_reply_format(&s->g, slot, reply);
        if (slot == s->g.win) {
            if (can_win)
                return FOUND;
            session_error(s, "%s cannot be the code: the replies so far rule it out ('undo' "
                          "takes back the last one)", code);
            continue;
        }
        if (session_left(s, s->codes, s->m, x, slot))
            return session_push(s, x, slot) ? NEXT : FAILED;
        session_error(s, "no code still possible gives %s to %s: this reply or one before is "
                      "wrong ('undo' takes back the last one)", reply, code);
    }
}

static int play(session *s)
{
    char code[MM_MAX_PEGS + 1];
    for (;;) {
        mm_code x;
        uint32_t m = s->m, node;
        bool have;
        if (session_guess(s, s->n, s->codes, m, &x, &node, &have))
            return EXIT_BAD;
        /* the replies refused above keep the game on the tree */
        bool consistent = have && session_contains(s->codes, m, x);
        if (!have)
            return cli_usage_error(s->cmd, "the tree has no guess after the replies given");
        mm_code_format(&s->g, x, code);
        if (consistent && m == 1)
            session_say("guess %u: %s (the only code possible)", s->n + 1, code);
        else
            session_say("guess %u: %s (%u codes possible%s)", s->n + 1, code, m,
                        consistent ? "" : "; it cannot be the code");
        switch (ask(s, x, consistent)) {
        case NEXT:
            continue;
        case FOUND:
            session_say("found %s in %u guess%s", code, s->n + 1, s->n ? "es" : "");
            return EXIT_OK;
        case STOP:
            session_say("stopped after %u guess%s", s->n, s->n == 1 ? "" : "es");
            return EXIT_CHECK;
        case FAILED:
            return cli_usage_error(s->cmd, "out of memory");
        }
    }
}

int cmd_assist(int argc, char **argv)
{
    static const struct option longopts[] = {
        SESSION_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    session_opts o = {.repeat = true};
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, SESSION_SHORTOPTS "h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(assist_help, stdout);
            return EXIT_OK;
        }
        if ((rc = session_option("assist", c, argv, &o)) >= 0)
            return rc;
    }
    if (optind < argc)
        return cli_usage_error("assist", "unexpected argument '%s'", argv[optind]);
    session s;
    if ((rc = session_open(&s, "assist", &o)))
        return rc;
    rc = play(&s);
    session_close(&s);
    return rc;
}

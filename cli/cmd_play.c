/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mmtree/query.h"
#include "session.h"

static const char play_help[] =
    "usage: mmtree play [-p P] [-c C] [-n] [--secret CODE | --seed N]\n"
    "                   [--tree TREE | --rule R]\n"
    "\n"
    "The computer makes up a code and you find it.  Type a guess (1122); the\n"
    "reply comes in Knuth's letters: one B per black hit (right colour, right\n"
    "place), one W per white hit (right colour, wrong place), '-' for none.\n"
    "Commands:\n"
    "\n"
    "  hint       the guess of the tree (or the rule) here\n"
    "  list       the codes still possible (the first 100; 'list all')\n"
    "  undo       take back the last guess\n"
    "  quit       give up (also 'give up'): the code is shown\n"
    "  help       this list\n"
    "\n"
    "On a terminal there is a prompt; otherwise one guess is read a line and\n"
    "one line is written a guess, so a script can drive it:\n"
    "\n"
    "  guess 1: 1122 got B; 256 codes possible\n"
    "\n"
    "Bad input gets one line on stderr ('<stdin>:LINE:1: error: ...' when\n"
    "not on a terminal) and is read again.  At the end, a line a guess: your\n"
    "guess, its reply, the codes it left, the guess of the tree (or the rule)\n"
    "in the same position and the codes that would have left for the same\n"
    "secret; with a tree, also the number of guesses the tree expected in\n"
    "all from there (the guesses made, plus its expected number from that\n"
    "node, its own guess included), and with a tree compiled by mmtree, what\n"
    "your guess cost in expected guesses: its expected number from there,\n"
    "the tree's rule making the guesses after it, less the tree's (or, off\n"
    "the tree, the rule's); '?' where more than 2401 codes were possible.\n"
    "A last line says how many guesses the tree needs for the code, and what\n"
    "leaving the tree cost against what it expected where you left it, and\n"
    "the costs' sum.  Once you leave the tree, it has no guess.\n"
    "\n"
    "  -p, --pegs P        pegs (default 4; with --tree, the tree's)\n"
    "  -c, --colors C      colours (default 6; with --tree, the tree's)\n"
    "  -n, --no-repeat     codes have distinct colours\n"
    "      --secret CODE   the code to find (default: drawn at random)\n"
    "      --seed N        draw the code from seed N (the same code each time)\n"
    "      --tree TREE     the strategy for hints and the comparison: a tree of\n"
    "                      any format (its game is the game)\n"
    "  -r, --rule R        or a rule (default knuth); the optimal rules plan\n"
    "                      their whole tree first, on games of at most 2401\n"
    "                      codes\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 code found, 1 given up or the input ended first, 2 bad\n"
    "usage.\n";

static const char play_commands[] =
    "type a guess, or: hint, list, list all, undo, quit (give up)";

/* The strategy's guess at each position (after the first i guesses),
 * computed once: a rule may take a while on a big game. */
typedef struct advice {
    bool known, have;
    mm_code guess;
    uint32_t node;
} advice;

typedef struct game {
    session s;
    mm_code secret;
    advice *adv;
    size_t nadv;
} game;

/* The advice after the first i guesses.  S[0..m) are the codes still
 * possible there: a rule needs them, a tree does not (NULL). */
static int advise(game *gm, uint32_t i, const mm_code *S, uint32_t m, const advice **out)
{
    if (i >= gm->nadv) {
        advice *na = realloc(gm->adv, ((size_t)i + 1) * sizeof *na);
        if (!na)
            return cli_usage_error("play", "out of memory");
        memset(na + gm->nadv, 0, ((size_t)i + 1 - gm->nadv) * sizeof *na);
        gm->adv = na;
        gm->nadv = (size_t)i + 1;
    }
    advice *a = &gm->adv[i];
    if (!a->known) {
        int rc = session_guess(&gm->s, i, S, m, &a->guess, &a->node, &a->have);
        if (rc)
            return rc;
        a->known = true;
    }
    *out = a;
    return EXIT_OK;
}

/* How many of the m codes of S guess y leaves against the secret; 0 when
 * y is the secret. */
static uint32_t left_after(const game *gm, const mm_code *S, uint32_t m, mm_code y)
{
    int slot = mm_game_score(&gm->s.g, y, gm->secret);
    return slot == gm->s.g.win ? 0 : session_left(&gm->s, S, m, y, slot);
}

static void count_text(uint32_t n, char *buf, size_t size)
{
    if (n)
        snprintf(buf, size, "%u", n);
    else
        snprintf(buf, size, "found");
}

/* What the tree says of the secret: its number of guesses, and what
 * leaving it cost. */
static int tree_verdict(game *gm, bool found, int32_t off, double expected_there)
{
    session *s = &gm->s;
    char code[MM_MAX_PEGS + 1];
    uint32_t k;
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_tree_trace(&s->t, &s->g, gm->secret, NULL, 0, &k, NULL, &d);
    if (st)
        return cli_report(&d, st);
    printf("the tree finds %s in %u guesses", mm_code_format(&s->g, gm->secret, code), k);
    if (!s->n)
        printf("\n");
    else if (off < 0)
        printf("; you played its guesses throughout\n");
    else if (found)
        printf("; you left it at guess %d, where it expected %.4f guesses in all: you needed "
               "%u (%+.4f)\n", off + 1, expected_there, s->n, (double)s->n - expected_there);
    else
        printf("; you left it at guess %d, where it expected %.4f guesses in all\n", off + 1,
               expected_there);
    return EXIT_OK;
}

/* The rule a tree was compiled with (its provenance), to judge guesses
 * off the tree; false for a published tree, whose rule is unknown. */
static bool tree_rule(const session *s, mm_compile_opts *o)
{
    const mm_provenance *pv = &s->t.prov;
    mm_diag d;
    mm_diag_clear(&d);
    mm_compile_opts_init(o);
    if (!pv->rule || mm_rule_parse(pv->rule, &o->rule, &d))
        return false;
    o->consistent_only = pv->consistent_only;
    return !pv->tie_break || !mm_tie_break_parse(pv->tie_break, &o->tie_break, &d);
}

/* What guess y at the position after the first i steps cost in expected
 * guesses: its expected number from there, the tree's rule making every
 * later guess, less the tree's own expected number there (a->have) or
 * else the rule's; m codes are possible there.  *known is false when m is
 * more than SESSION_OPTIMAL_MAX, whose trees take too long to build here. */
static int move_cost(game *gm, const mm_compile_opts *o, uint32_t i, uint32_t m,
                     const advice *a, mm_code y, double *cost, bool *known)
{
    session *s = &gm->s;
    mm_stats mine, best;
    mm_diag d;
    *cost = 0;
    *known = true;
    if (a->have && a->guess == y)
        return EXIT_OK;
    if (m > SESSION_OPTIMAL_MAX) {
        *known = false;
        return EXIT_OK;
    }
    mm_diag_clear(&d);
    mm_status st = mm_position_stats(&s->g, o, s->steps, i, y, &mine, &d);
    if (!st && a->have)
        mm_node_stats(&s->t, a->node, &best);
    else if (!st)
        st = mm_position_stats(&s->g, o, s->steps, i, MM_NO_CODE, &best, &d);
    if (st)
        return cli_report(&d, st);
    *cost = ((double)mine.total - (double)best.total) / (double)m;
    return EXIT_OK;
}

static int summary(game *gm, bool found)
{
    session *s = &gm->s;
    const mm_game *g = &s->g;
    bool tree = s->t.nnodes != 0;
    int p = g->pegs, rc = EXIT_OK;
    int32_t off = -1;
    double expected_off = 0;
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX], yc[MM_MAX_PEGS + 1];
    char left[16], would[16], expected[32];
    const char *who = tree ? "tree" : s->name;
    int cw = p > 5 ? p : 5, w = p > (int)strlen(who) ? p : (int)strlen(who);
    mm_compile_opts rule;
    bool costs = tree && tree_rule(s, &rule);
    double cost_sum = 0;
    uint32_t unjudged = 0, m;
    mm_code *S;   /* the codes possible before guess i, m of them */
    if ((rc = session_codes(s, 0, &S, &m)))
        return rc;
    if (s->n)   /* no table for a game given up before its first guess */
        printf("%5s  %-*s  %-*s  %6s | %-*s  %6s%s%s\n", "guess", cw, "code", cw, "reply",
               "left", w, who, "leaves", tree ? "  expected" : "", costs ? "     cost" : "");
    for (uint32_t i = 0; i < s->n && !rc; i++) {
        const mm_step *st = &s->steps[i];
        const advice *a;
        if ((rc = advise(gm, i, S, m, &a)))
            break;
        count_text(left_after(gm, S, m, st->guess), left, sizeof left);
        expected[0] = '\0';
        if (a->have) {
            count_text(left_after(gm, S, m, a->guess), would, sizeof would);
            mm_code_format(g, a->guess, yc);
        }
        if (tree && a->have) {
            mm_stats ns;
            mm_node_stats(&s->t, a->node, &ns);
            double e = (double)i + (double)ns.total / (double)ns.codes;
            snprintf(expected, sizeof expected, "  %8.4f", e);
            if (off < 0 && a->guess != st->guess) {
                off = (int32_t)i;
                expected_off = e;
            }
        }
        char cost[32] = "";
        if (costs) {
            double c;
            bool known;
            if ((rc = move_cost(gm, &rule, i, m, a, st->guess, &c, &known)))
                break;
            cost_sum += c;
            if (known)
                snprintf(cost, sizeof cost, "  %+7.4f", c);
            else
                snprintf(cost, sizeof cost, "  %7s", "?");
            unjudged += !known;
        }
        printf("%5u  %-*s  %-*s  %6s | ", i + 1, cw, mm_code_format(g, st->guess, code), cw,
               mm_reply_format(g, st->slot, reply), left);
        if (a->have)
            printf("%-*s  %6s%s%s\n", w, yc, would, expected, cost);
        else if (costs)
            printf("%-*s  %6s  %8s%s\n", w, "-", "", "", cost);
        else
            printf("-\n");
        m = session_narrow(s, i, S, m);
    }
    free(S);
    if (!rc && tree)
        rc = tree_verdict(gm, found, off, expected_off);
    if (!rc && costs && off >= 0) {
        printf("your guesses cost %.4f expected guesses in all against the tree's (the %s "
               "rule making the guesses after each)", cost_sum, s->t.prov.rule);
        if (unjudged)
            printf(", not counting %u made where more than %d codes were possible",
                   unjudged, SESSION_OPTIMAL_MAX);
        printf("\n");
    }
    fflush(stdout);
    return rc;
}

static int hint(game *gm)
{
    session *s = &gm->s;
    const advice *a;
    char code[MM_MAX_PEGS + 1];
    int rc = advise(gm, s->n, s->codes, s->m, &a);
    if (rc)
        return rc;
    if (a->have) {
        session_say("hint: %s%s guesses %s here", s->t.nnodes ? "" : "rule ", s->name,
                    mm_code_format(&s->g, a->guess, code));
        return EXIT_OK;
    }
    /* off the tree (a rule always has a guess): say where the game left it */
    for (uint32_t i = 0; i < s->n; i++) {
        if ((rc = advise(gm, i, NULL, 0, &a)))
            return rc;
        if (a->have && a->guess != s->steps[i].guess) {
            session_say("hint: none, the tree has no guess here: you left it at guess %u, "
                        "where it guesses %s", i + 1, mm_code_format(&s->g, a->guess, code));
            break;
        }
    }
    return EXIT_OK;
}

typedef enum { FOUND, GAVE_UP, ENDED, FAILED } ending;

static ending guesses(game *gm)
{
    session *s = &gm->s;
    char prompt[32], code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    for (;;) {
        snprintf(prompt, sizeof prompt, "guess %u> ", s->n + 1);
        const char *line = session_read(s, prompt);
        if (!line)
            return ENDED;
        if (session_is(line, "quit") || session_is(line, "q") || session_is(line, "give up"))
            return GAVE_UP;
        if (session_is(line, "help") || session_is(line, "?")) {
            session_say("%s", play_commands);
        } else if (session_is(line, "hint")) {
            if (hint(gm))
                return FAILED;
        } else if (session_is(line, "undo")) {
            if (!s->n) {
                session_error(s, "nothing to undo: no guess yet");
                continue;
            }
            if (session_undo(s))
                return FAILED;
            session_say("took back guess %u, %s", s->n + 1,
                        mm_code_format(&s->g, s->steps[s->n].guess, code));
        } else if (session_is(line, "list") || session_is(line, "list all")) {
            session_list(s, session_is(line, "list all"));
        } else {
            mm_diag d;
            mm_code x;
            mm_diag_clear(&d);
            if (mm_code_parse(&s->g, line, strlen(line), &x, &d)) {
                session_error(s, "%s ('help' lists the commands)", d.msg);
                continue;
            }
            int slot = mm_game_score(&s->g, x, gm->secret);
            if (!session_push(s, x, slot))
                return FAILED;
            if (s->n < gm->nadv)
                gm->adv[s->n].known = false;   /* a new position */
            mm_reply_format(&s->g, slot, reply);
            if (slot == s->g.win) {
                session_say("guess %u: %s got %s: found in %u guess%s", s->n,
                            mm_code_format(&s->g, x, code), reply, s->n, s->n == 1 ? "" : "es");
                return FOUND;
            }
            session_say("guess %u: %s got %s; %u code%s possible", s->n,
                        mm_code_format(&s->g, x, code), reply, s->m, s->m == 1 ? "" : "s");
        }
    }
}

/* splitmix64: the secret from a seed, the same on every machine. */
static uint64_t mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static uint64_t fresh_seed(void)
{
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        uint64_t r;
        if (read(fd, &r, sizeof r) == (ssize_t)sizeof r)
            seed ^= r;
        close(fd);
    }
    return seed;
}

static int run(game *gm)
{
    session *s = &gm->s;
    char code[MM_MAX_PEGS + 1];
    if (s->tty)
        session_say("MM(%d,%d%s): find the code of %d pegs in colours %c-%c ('help' lists "
                    "the commands)", s->g.pegs, s->g.colors, s->g.repeat ? "" : ", no repeat",
                    s->g.pegs, mm_color_char(&s->g, 0), mm_color_char(&s->g, s->g.colors - 1));
    ending e = guesses(gm);
    if (e == FAILED)
        return EXIT_BAD;
    mm_code_format(&s->g, gm->secret, code);
    if (e == GAVE_UP)
        session_say("you gave up after %u guess%s: the code was %s", s->n,
                    s->n == 1 ? "" : "es", code);
    else if (e == ENDED)
        session_say("the input ended after %u guess%s: the code was %s", s->n,
                    s->n == 1 ? "" : "es", code);
    int rc = summary(gm, e == FOUND);
    return rc ? rc : e == FOUND ? EXIT_OK : EXIT_CHECK;
}

int cmd_play(int argc, char **argv)
{
    enum { OPT_SECRET = SESSION_OPT_TREE + 1, OPT_SEED };
    static const struct option longopts[] = {
        SESSION_LONGOPTS,
        {"secret", required_argument, NULL, OPT_SECRET},
        {"seed", required_argument, NULL, OPT_SEED},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    session_opts o = {.repeat = true};
    const char *secret = NULL;
    long seed = -1;
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, SESSION_SHORTOPTS "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SECRET: secret = optarg; break;
        case OPT_SEED:
            if (!cli_int("play", "--seed", optarg, 0, 0x7fffffffL, &seed))
                return EXIT_BAD;
            break;
        case 'h': fputs(play_help, stdout); return EXIT_OK;
        default:
            if ((rc = session_option("play", c, argv, &o)) >= 0)
                return rc;
        }
    }
    if (optind < argc)
        return cli_usage_error("play", "unexpected argument '%s'", argv[optind]);
    if (secret && seed >= 0)
        return cli_usage_error("play", "--secret and --seed exclude each other");
    game gm;
    memset(&gm, 0, sizeof gm);
    if ((rc = session_open(&gm.s, "play", &o)))
        return rc;
    if (secret) {
        mm_diag d;
        mm_diag_clear(&d);
        if (mm_code_parse(&gm.s.g, secret, strlen(secret), &gm.secret, &d))
            rc = cli_usage_error("play", "--secret: %s", d.msg);
    } else {
        gm.secret = (mm_code)(mix(seed >= 0 ? (uint64_t)seed : fresh_seed()) %
                              gm.s.g.ncodes);
    }
    if (!rc)
        rc = run(&gm);
    free(gm.adv);
    session_close(&gm.s);
    return rc;
}

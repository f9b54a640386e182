/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * What mmtree play and mmtree assist share: the game, the strategy (a
 * tree or a one-step rule), the guesses and replies so far, and the
 * dialogue.  On a terminal they prompt; otherwise they read one guess or
 * reply a line and write one line a step, so that scripts can drive
 * them.  Bad input gets one line of explanation (on stderr, with the
 * input line number when not on a terminal) and is read again.
 */
#ifndef MM_CLI_SESSION_H
#define MM_CLI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "mmtree/compile.h"
#include "mmtree/path.h"
#include "mmtree/tree.h"

/* A rule that plans a whole tree is compiled when the game has at most
 * this many codes (MM(4,7): 3 s for optimal). */
#define SESSION_OPTIMAL_MAX 2401

typedef struct session_opts {
    long pegs, colors;   /* 0: not given */
    bool repeat;         /* false: -n */
    const char *tree;    /* --tree, or NULL */
    const char *rule;    /* --rule, or NULL */
} session_opts;

/* The options of session_opts, for play's and assist's getopt_long
 * (getopt.h): their rows of the long options, their letters, and the
 * value of --tree; a command's own options take values above it. */
enum { SESSION_OPT_TREE = 256 };
#define SESSION_SHORTOPTS ":" CLI_GAME_SHORTOPTS "r:"
#define SESSION_LONGOPTS                                   \
    CLI_GAME_LONGOPTS,                                     \
    {"tree", required_argument, NULL, SESSION_OPT_TREE},   \
    {"rule", required_argument, NULL, 'r'}

typedef struct session {
    const char *cmd;
    mm_game g;
    mm_tree t;           /* nnodes == 0: no tree, the rule plays */
    mm_compile_opts rule;
    char name[64];       /* "the tree" or "knuth's rule" */
    bool tty;
    unsigned long line;  /* input lines read */
    char *buf;           /* the last line read */
    size_t bufcap;
    mm_step *steps;      /* the guesses and replies so far */
    uint32_t n;
    size_t cap;
    mm_code *codes;      /* the codes still possible after them, in order */
    uint32_t m;
} session;

/* Option c of getopt_long into o; any other, the ':' of a missing
 * value included, is refused.  -1 to go on, else the exit status after
 * a message. */
int session_option(const char *cmd, int c, char **argv, session_opts *o);

/* Set up the game and the strategy (default: Knuth's rule on MM(4,6)).
 * EXIT_OK, or the exit status after a message (nothing to close then). */
int session_open(session *s, const char *cmd, const session_opts *o);
void session_close(session *s);

/* The next line of input, trimmed, after a prompt on a terminal; NULL at
 * the end of the input. */
const char *session_read(session *s, const char *prompt);
/* One line of explanation for the line just read. */
void session_error(session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print a line to stdout and flush it, so that a script driving the
 * command sees each step at once. */
void session_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Add a step, and keep the codes that give its guess its reply: false
 * when out of memory. */
bool session_push(session *s, mm_code guess, int slot);
/* Take back the last step: EXIT_OK, or EXIT_BAD after a message. */
int session_undo(session *s);
/* How many of the m codes of S give guess the reply slot (S: s->codes,
 * the codes still possible, or the caller's). */
uint32_t session_left(const session *s, const mm_code *S, uint32_t m, mm_code guess, int slot);
/* The colours of the guesses so far, for mm_compile_guess. */
uint16_t session_played(const session *s, uint32_t n);
/* The codes still possible after the first n steps (mm_codes_after):
 * EXIT_OK or EXIT_BAD after a message. */
int session_codes(session *s, uint32_t n, mm_code **codes, uint32_t *count);
/* Keep those of the m codes of S that give step i's guess its reply, in
 * their order (S after the first i steps becomes S after i + 1): how
 * many. */
uint32_t session_narrow(const session *s, uint32_t i, mm_code *S, uint32_t m);
/* The strategy's guess after the first n steps, whose codes are S[0..m).
 * With a tree: its guess at the node the steps reach, and the node
 * (*node); false when the steps left the tree (*node = MM_NO_NODE).  With
 * a rule: the rule's guess.  EXIT_BAD after a message when the rule
 * fails. */
int session_guess(session *s, uint32_t n, const mm_code *S, uint32_t m,
                  mm_code *guess, uint32_t *node, bool *have);
/* Is x one of the m codes of S (in lexical order)? */
bool session_contains(const mm_code *S, uint32_t m, mm_code x);
/* "list" and "list all": the codes still possible. */
void session_list(const session *s, bool all);
/* Is the line this command word (case-insensitive)? */
bool session_is(const char *line, const char *word);

#endif

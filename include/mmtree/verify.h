/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Verifying a tree against its game, and comparing two trees.
 *
 * mm_tree_verify() takes a tree as a reader left it (best read with
 * MM_READ_LENIENT, so that stated counts and markers are kept as written)
 * and follows the true codes down it: at each node the codes still
 * possible are partitioned by the node's guess, and whatever the tree
 * states (its count, its children's counts, whether the guess can be the
 * code, the condensed form it was written in) is compared with that truth.
 * Unlike mm_tree_check() it does not stop at the first problem: it keeps
 * going and collects every problem, in tree order, up to a limit.
 *
 * One mistake should give one report, not a cascade.  A full form whose
 * count is wrong but whose parts add up to the truth has a misprinted
 * count, and is checked further.  When the parts do not add up either, or
 * a condensed form (which states no parts) has a wrong count, the node got
 * other codes than its author meant because of a problem above it, and
 * nothing below it is judged.  A guess that does not make the stated
 * parts is one PARTITION problem (the win included); a CONSISTENT problem
 * is reported only when the win alone is wrong.
 *
 * Coverage is judged from what the tree claims: a node claims a code when
 * it says its guess can be the code (the consistent flag, the last slot
 * of a full form, no '*' in Irving's notation).  Every code must be claimed
 * exactly once; of two claimants, the one the truth contradicts is
 * reported.  A code nobody claims is reported at the node where its true
 * path ends, unless that is a condensed form the reader could not expand
 * (its MARKER problem covers them).
 *
 * Suggestions (opts.suggest) search the codes of the game as the guess
 * of a node with a PARTITION, CONSISTENT or MARKER problem for those that
 * would make what the node states true, and list first the ones that
 * agree with what the node says of its own guess (it can or cannot be the
 * code), then those with the fewest pegs changed from the printed guess:
 * a misprinted guess is usually near the top.  The search tries guesses
 * nearest the printed one first (1 peg changed, then 2, ...), only codes
 * of the node when the guess must be one, and within a budget of codes
 * scored (MM_VERIFY_SUGGEST_WORK a problem, MM_VERIFY_SUGGEST_BUDGET in
 * all): where it runs out, the problem says how many guesses it tried.
 *
 * Places and paths.  Each problem names its node; the place in the file
 * is t->where of that node (or of its nearest ancestor that has one, for
 * nodes the reader made while expanding a condensed form).  The path from
 * the root is the guess and reply at each step; replies are written with
 * Knuth's letters, one B per black hit and one W per white hit, and "-"
 * for no hit (1122 B / 1344 W / 3526 BWW).
 *
 * mm_tree_diff() walks two trees of the same game in step and lists the
 * first node on each path where they part (a different guess, or the same
 * guess with different counts), with what the codes below need on each
 * side.
 */
#ifndef MMTREE_VERIFY_H
#define MMTREE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/path.h>
#include <mmtree/tree.h>

typedef enum mm_problem_kind {
    MM_PROBLEM_STRUCTURE,   /* children out of range, a node reached twice,
                               a child for the winning reply */
    MM_PROBLEM_NOT_CODE,    /* the guess is not a code of the game */
    MM_PROBLEM_COUNT,       /* stated count != codes possible at the node */
    MM_PROBLEM_PARTITION,   /* children's counts != the parts of the guess */
    MM_PROBLEM_CONSISTENT,  /* says the guess can (cannot) be the code, and
                               the truth is the other way */
    MM_PROBLEM_MARKER,      /* a condensed form states something false */
    MM_PROBLEM_FOUND_TWICE, /* coverage: a second node claims the code */
    MM_PROBLEM_NOT_FOUND,   /* coverage: no node claims the code */
    MM_PROBLEM_KIND_COUNT,
} mm_problem_kind;

/* Which statement a MARKER problem is about. */
typedef enum mm_marker {
    MM_MARKER_BARE,         /* n alone: "n <= 2" */
    MM_MARKER_UNIQUE,       /* n(y): every reply to y leaves at most 1 code */
    MM_MARKER_X,            /* n(yx): at most 2 codes after every reply, and
                               2 after some (Knuth: "not always unique") */
    MM_MARKER_UNRESOLVED,   /* the reader could not expand the form at all */
} mm_marker;

/* Suggestions kept per problem; all are counted. */
#define MM_VERIFY_SUGGEST_MAX 16
/* Codes scored against candidate guesses, at most, for one problem and
 * for a whole verification: a full search of any MM(4,6) node fits in the
 * first (1296 x 1296), one of MM(5,8)'s root (32768 x 32768) does not,
 * and the second keeps the searches of any file near a quarter of a
 * second (about 12 ns a code scored, measured on MM(5,8)).  A search
 * checks them before each guess it tries, so it may pass them by the
 * node's codes once. */
#define MM_VERIFY_SUGGEST_WORK (UINT64_C(1) << 22)
#define MM_VERIFY_SUGGEST_BUDGET (UINT64_C(1) << 24)

typedef struct mm_problem {
    mm_problem_kind kind;
    mm_marker marker;        /* MARKER only */
    uint32_t node;           /* the node the problem is about */
    mm_srcpos where;         /* its place (line 0, offset -1: none known) */
    mm_code code;            /* the guess; for coverage, the code */
    int slot;                /* NOT_FOUND: the reply that leads nowhere, or
                                -1; MARKER: the largest part's reply */
    uint32_t other;          /* FOUND_TWICE: the node that claimed it
                                first; STRUCTURE: the child concerned */
    const char *note;        /* STRUCTURE: what is wrong (static text) */
    /* COUNT: codes; CONSISTENT: 1 = can be the code; MARKER: the most
     * codes the form allows after a reply (BARE: codes at the node) and
     * the most there are; FOUND_TWICE / NOT_FOUND: claims. */
    uint64_t stated, actual;
    uint64_t parts_sum;      /* COUNT: the children's stated counts plus
                                the stated win (1 or 0) */
    /* PARTITION: stated and true codes by reply slot (ORDER REPLY); the
     * win slot holds the stated flag and the truth. */
    uint32_t stated_parts[MM_MAX_REPLIES], actual_parts[MM_MAX_REPLIES];
    /* With opts.suggest, PARTITION and MARKER problems: guesses that
     * would make the statement true, nearest the written guess first
     * (fewest pegs changed, then lexical order). */
    bool searched;           /* the search ran */
    bool partial;            /* it ran out of budget before trying every
                                guess that could qualify */
    uint32_t ntried;         /* guesses it tried */
    uint32_t ncandidates;    /* guesses that could qualify: the game's
                                codes, or the node's */
    uint32_t nsuggest;       /* how many of those tried qualify */
    uint32_t nsuggest_kept;
    mm_code suggest[MM_VERIFY_SUGGEST_MAX];
    uint32_t suggest_star;   /* bit i: suggest[i] cannot be the code (it
                                is written with Irving's '*') */
} mm_problem;

typedef struct mm_verify_opts {
    uint64_t max_problems;   /* keep at most this many (all are counted) */
    bool suggest;            /* search the guesses for PARTITION and MARKER
                                problems, within MM_VERIFY_SUGGEST_BUDGET */
} mm_verify_opts;

/* Parent links of the nodes a walk reached, to name paths. */
typedef struct mm_paths {
    const mm_tree *t;
    uint32_t *parent;        /* MM_NO_NODE for the root and unreached nodes */
    uint8_t *slot;           /* reply from the parent */
} mm_paths;

typedef struct mm_verify_report {
    bool valid;              /* no problem at all */
    uint64_t nproblems;      /* problems found, kept or not */
    uint64_t nkept;
    mm_problem *problems;    /* tree order, then found-twice, then not-found */
    /* Over the codes the tree truly finds (for a valid tree: every code,
     * and the same numbers as mm_tree_stats). */
    mm_stats stats;
    uint64_t found;          /* codes truly found */
    uint64_t suggest_work;   /* codes scored by the suggestion searches,
                                and guesses they passed over */
    mm_paths paths;
    const mm_game *g;
} mm_verify_report;

MM_EXPORT void mm_verify_opts_init(mm_verify_opts *o);

/* Verify t against g (same pegs, colours and repetition, or MM_ERR_USAGE).
 * Returns MM_OK when the check ran (r->valid says how it went), or
 * MM_ERR_NOMEM.  t and g must outlive r. */
MM_EXPORT mm_status mm_tree_verify(const mm_tree *t, const mm_game *g,
                         const mm_verify_opts *o, mm_verify_report *r,
                         mm_diag *d);
MM_EXPORT void mm_verify_report_release(mm_verify_report *r);

/* "count", "partition", ...: the kind's name in JSON output. */
MM_EXPORT const char *mm_problem_kind_name(mm_problem_kind k);
MM_EXPORT const char *mm_marker_name(mm_marker m);

/* One line (without place or path) saying what is wrong, with the stated
 * and the true values and any suggestions; returns buf. */
MM_EXPORT char *mm_problem_format(const mm_verify_report *r, const mm_problem *p,
                        char *buf, size_t size);

/* The path to node: writes up to max steps (root first) and returns how
 * many there are. */
MM_EXPORT uint32_t mm_paths_get(const mm_paths *p, uint32_t node, mm_step *steps,
                      uint32_t max);
/* The path to node in the syntax of mmtree/path.h ("1122:B,1344:W"), or
 * "root" for the root; returns buf (ending in "..." when it does not
 * fit). */
MM_EXPORT char *mm_paths_format(const mm_paths *p, const mm_game *g, uint32_t node,
                      char *buf, size_t size);

/* ---- diff ---- */

typedef enum mm_diff_kind {
    MM_DIFF_GUESS,           /* the trees guess differently here */
    MM_DIFF_SHAPE,           /* same guess, but different counts,
                                consistency or replies */
} mm_diff_kind;

typedef struct mm_diff_item {
    mm_diff_kind kind;
    uint32_t a, b;           /* the node in each tree */
    /* Each side from this node down: guesses its codes need (counting the
     * node's own as 1) and the most any needs. */
    uint64_t total_a, total_b;
    int worst_a, worst_b;
} mm_diff_item;

typedef struct mm_diff_report {
    uint64_t nitems;
    mm_diff_item *items;     /* in A's tree order */
    mm_stats a, b;           /* both whole trees (mm_tree_stats) */
    mm_paths paths;          /* paths in A (the same as in B up to a
                                difference) */
} mm_diff_report;

/* Compare a and b, both trees of g (MM_ERR_USAGE when they are of other
 * games).  MM_OK when the comparison ran: r->nitems == 0 means equal. */
MM_EXPORT mm_status mm_tree_diff(const mm_tree *a, const mm_tree *b, const mm_game *g,
                       mm_diff_report *r, mm_diag *d);
MM_EXPORT void mm_diff_report_release(mm_diff_report *r);

/* Per code: the codes whose number of guesses differs between two trees
 * of one game, each tree played against every code (mm_tree_depths). */
typedef struct mm_code_change {
    mm_code code;
    uint32_t guesses_a, guesses_b;
} mm_code_change;

typedef struct mm_code_diff {
    uint64_t nchanges;
    mm_code_change *changes; /* in lexical order of the codes */
    mm_stats a, b;           /* both trees over every code (histograms) */
} mm_code_diff;

/* Compare a and b, both trees of g, code by code (the errors of
 * mm_tree_depths).  MM_OK when the comparison ran: r->nchanges == 0
 * means that every code needs as many guesses in both. */
MM_EXPORT mm_status mm_tree_diff_codes(const mm_tree *a, const mm_tree *b,
                                       const mm_game *g, mm_code_diff *r,
                                       mm_diag *d);
MM_EXPORT void mm_code_diff_release(mm_code_diff *r);

/* A node in a line: its count, guess and parts, "4(1145: BB 1, B 1, W 1,
 * - 1)", with "*" when the guess cannot be the code; returns buf. */
MM_EXPORT char *mm_node_format(const mm_tree *t, const mm_game *g, uint32_t node,
                     char *buf, size_t size);

#endif

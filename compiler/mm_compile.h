/*
 * The tree compiler: builds the complete strategy tree of a game from a
 * rule.  One-step rules score each candidate guess by the partition it
 * makes of the remaining codes; ties go to a guess that can still be the
 * code, then to the first in lexical order.
 */
#ifndef MM_COMPILE_H
#define MM_COMPILE_H

#include <stdbool.h>

#include "mm_diag.h"
#include "mm_game.h"
#include "mm_tree.h"

typedef enum mm_rule {
    MM_RULE_NAIVE,    /* Shapiro: first consistent code */
    MM_RULE_KNUTH,    /* minimise the largest part */
    MM_RULE_IRVING,   /* minimise the sum of squared part sizes */
    MM_RULE_ENTROPY,  /* maximise partition entropy (Neuwirth's e1) */
    MM_RULE_KOOI,     /* maximise the number of parts */
    MM_RULE_BRANCH2,  /* Witteveen-van Eijck's branch2Play */
    MM_RULE_E3,       /* Neuwirth's e3: sum of perfect-tree lower bounds */
    MM_RULE_OPTIMAL,            /* least total, then least worst case */
    MM_RULE_OPTIMAL_CONSISTENT, /* the same over consistent guesses only */
    MM_RULE_OPTIMAL_WORST,      /* least worst case, then least total */
    MM_RULE_COUNT,
} mm_rule;

/* Rules below this one are one-step rules. */
#define MM_RULE_COUNT_ONE_STEP MM_RULE_OPTIMAL

typedef struct mm_compile_opts {
    mm_rule rule;
    bool consistent_only;  /* guess only codes that can still be the code */
    mm_code first;         /* fixed first guess, or MM_NO_CODE */
    int threads;           /* 0 = one per core */
    bool no_symmetry;      /* baseline: score every code, no class reduction */
    bool no_prune;         /* baseline: score every guess in full */
} mm_compile_opts;

void mm_compile_opts_init(mm_compile_opts *o);

/* Rule by name ("naive", "knuth", ...): MM_OK, or MM_ERR_USAGE with a
 * message listing the known rules. */
mm_status mm_rule_parse(const char *name, mm_rule *rule, mm_diag *d);
const char *mm_rule_name(mm_rule rule);

/* Build the complete tree of g under o into t (initialised here). */
mm_status mm_compile(const mm_game *g, const mm_compile_opts *o, mm_tree *t,
                     mm_diag *d);

#endif

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The strategy tree: the complete tree of a game, one node per position at
 * which a guess is made.
 *
 * A node knows how many codes are still possible there (count), its guess,
 * whether that guess is one of them (MM_NODE_CONSISTENT) and its children by
 * reply.  The reply (p,0) to a consistent guess ends the game and has no
 * child, so a leaf is a node of count 1 whose guess is its code.  Children
 * are stored contiguously, in slot order (ORDER REPLY), starting at
 * nodes[child]; bit s of `replies` says that slot s has a child.
 *
 * Every code of the game reaches exactly one consistent guess equal to it:
 * that is what mm_tree_check() and the verifier test.
 */
#ifndef MMTREE_TREE_H
#define MMTREE_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>

#define MM_NODE_CONSISTENT 0x01u  /* the guess can be the code */
/* How a bracket file wrote the node, so verify can check that the marker
 * states the truth.  Compiled nodes are FULL. */
#define MM_NODE_FORM_MASK 0x0eu
#define MM_NODE_FORM_FULL 0x00u    /* n(y: ...) */
#define MM_NODE_FORM_BARE 0x02u    /* n alone (n <= 2): guess not written */
#define MM_NODE_FORM_UNIQUE 0x04u  /* n(y): the reply to y identifies the code */
#define MM_NODE_FORM_X 0x06u       /* n(yx): no part after y exceeds 2 codes */
#define MM_NODE_FORM_IMPLIED 0x08u /* made while expanding a condensed form */
#define MM_NODE_STAR 0x10u         /* irving: '*' written after the guess */
#define MM_NODE_UNRESOLVED 0x20u   /* lenient read: a condensed form that the
                                      true codes at the node do not allow;
                                      no children; the written guess, or
                                      MM_NO_CODE for a bare count */
#define MM_NO_NODE UINT32_MAX

/* Where a node was read from: line:col (1-based) for text, or a byte
 * offset (line 0) for binary input. */
typedef struct mm_srcpos {
    uint32_t line, col;
    int64_t offset;
} mm_srcpos;

typedef struct mm_node {
    mm_code guess;
    uint32_t count;    /* codes compatible with the path to this node */
    uint32_t child;    /* first child; MM_NO_NODE when there is none */
    uint32_t flags;    /* MM_NODE_* */
    uint64_t replies;  /* ORDER REPLY: bit s set when slot s has a child */
} mm_node;

/* Whether a tree of an optimal rule is proven optimal. */
typedef enum mm_proof {
    MM_PROOF_NONE = 0,     /* not an optimal rule: nothing to prove */
    MM_PROOF_PROVEN,       /* the search finished: the tree is optimal */
    MM_PROOF_UNPROVEN,     /* the search stopped early: the best tree found,
                              with the proven lower bounds below */
} mm_proof;

/* Where a tree comes from: the rule and options that compiled it, or the
 * citation of a published tree.  Every format carries all of it, so that
 * a tree never claims more than was proven.  Strings are owned by the
 * tree; zero and NULL mean "not used". */
typedef struct mm_provenance {
    char *rule;            /* "knuth", ...; NULL for a published tree */
    bool consistent_only;
    mm_code first;         /* --first, or MM_NO_CODE */
    char *tie_break;       /* NULL: the default ("first") */
    int max_depth;         /* a depth cap on the optimal search; 0: none */
    int extra_colors;      /* guesses may use this many colours no code
                              has (Ville's MMe); 0: none */
    mm_proof proof;
    uint64_t lower_total;  /* UNPROVEN: no tree of the rule's game needs
                              fewer guesses in total */
    int lower_worst;       /* UNPROVEN optimal-worst: nor a smaller worst
                              case; 0 when not known */
    char *citation;        /* NULL for a compiled tree */
} mm_provenance;

typedef struct mm_tree {
    int pegs, colors;
    bool repeat;
    mm_node *nodes;        /* nodes[0] is the root */
    uint32_t nnodes, cap;
    mm_srcpos *where;      /* NULL, or parallel to nodes (readers set it up
                              with mm_tree_track_where) */
    mm_provenance prov;
} mm_tree;

typedef struct mm_stats {
    uint64_t codes;        /* codes found: the root's count */
    uint64_t total;        /* sum over codes of the guesses needed */
    uint64_t nodes;        /* guesses in the tree: every node */
    uint64_t inconsistent; /* nodes whose guess cannot be the code */
    int worst;             /* most guesses needed */
    uint64_t hist[64];     /* hist[i]: codes found with i+1 guesses */
} mm_stats;

MM_EXPORT void mm_tree_init(mm_tree *t, int pegs, int colors, bool repeat);
MM_EXPORT void mm_tree_release(mm_tree *t);

/* Append n zeroed nodes (child = MM_NO_NODE); *first receives the index of
 * the first.  Pointers into t->nodes are invalidated. */
MM_EXPORT mm_status mm_tree_alloc(mm_tree *t, uint32_t n, uint32_t *first, mm_diag *d);

/* Keep a source position for every node from now on. */
MM_EXPORT mm_status mm_tree_track_where(mm_tree *t, mm_diag *d);

/* Index of the child of node i for reply slot s, or MM_NO_NODE. */
static inline uint32_t mm_tree_child(const mm_tree *t, uint32_t i, int s)
{
    const mm_node *n = &t->nodes[i];
    if (!(n->replies >> s & 1u))
        return MM_NO_NODE;
    return n->child + (uint32_t)__builtin_popcountll(
                          n->replies & ((UINT64_C(1) << s) - 1));
}

static inline int mm_tree_nchildren(const mm_tree *t, uint32_t i)
{
    return __builtin_popcountll(t->nodes[i].replies);
}

/* Set provenance strings (copied); the other fields are set directly. */
MM_EXPORT mm_status mm_tree_set_rule(mm_tree *t, const char *rule, bool consistent_only,
                           mm_code first);
MM_EXPORT mm_status mm_tree_set_tie_break(mm_tree *t, const char *tie_break);
MM_EXPORT mm_status mm_tree_set_citation(mm_tree *t, const char *citation);

/* Depth statistics (total, worst, histogram) from the structure alone,
 * trusting its counts and flags. */
MM_EXPORT void mm_tree_stats(const mm_tree *t, mm_stats *st);

/* Structural check of a tree against its game: node indices in range,
 * children in order, no node reached twice, depth bounded, every code
 * found exactly once, counts and flags true.  Fails with MM_ERR_INPUT and
 * a message naming the first problem, placed at the node's source
 * position when t->where has one. */
MM_EXPORT mm_status mm_tree_check(const mm_tree *t, const mm_game *g, mm_diag *d);

/* Node-by-node equality (game, guesses, counts, consistency, shape);
 * how a file wrote a node (FORM bits, STAR) is ignored. */
MM_EXPORT bool mm_tree_equal(const mm_tree *a, const mm_tree *b);

#endif

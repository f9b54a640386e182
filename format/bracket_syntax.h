/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: the bracket reader's syntax tree (format/bracket.md), shared by
 * its three passes: bracket_parse.c scans the text into it, bracket_check.c
 * checks it against the game, bracket_read.c expands it into the tree. */
#ifndef MM_BRACKET_SYNTAX_H
#define MM_BRACKET_SYNTAX_H

#include <stdbool.h>
#include <stdint.h>

#include "bracket.h"

enum { BF_BARE, BF_UNIQUE, BF_X, BF_FULL, BF_REF };

#define NO_COUNT UINT32_MAX /* a definition's body: the use states the count */
#define KID_ZERO UINT32_MAX /* a 0 slot: no codes, so no node */

typedef struct bnode {
    uint32_t off;    /* first byte: the count, or the '(' of a body */
    uint32_t count;  /* as written, or NO_COUNT */
    uint32_t code;   /* offset of the text of y, or of a REF's name */
    uint32_t kids;   /* FULL: first entry of its slots in bparser.kids;
                        REF: index of its definition */
    uint64_t semis;  /* FULL: bit i set when a ';' follows slot i */
    uint8_t form;    /* BF_* */
    uint8_t star;
    uint8_t nkids;
    uint8_t len;     /* characters of y, or of the name */
} bnode;

typedef struct bdef {
    uint64_t key;    /* the name packed into 8 bytes */
    uint32_t off;    /* the name */
    uint32_t len;    /* letters in the name */
    uint32_t body;   /* node index */
    uint32_t first, end; /* its nodes: [first, end) */
    uint32_t use;    /* offset of its one use */
    uint8_t used;
    uint8_t reached; /* from the root, through other names */
} bdef;

typedef struct bvec {
    void *v;
    size_t n, cap;
} bvec;

typedef struct bparser {
    const char *s;
    size_t len, i;
    mm_diag *d;
    uint32_t *lines;   /* offsets of line starts */
    size_t nlines;
    bvec nodes;         /* bnode */
    bvec kids;          /* uint32_t: node index or KID_ZERO */
    bvec pending;       /* uint32_t: slots of the open full forms */
    bvec stack;         /* frame */
    bvec defs;          /* bdef */
    mm_code *guess;    /* per node: its y, once the game is known */
    uint32_t head;     /* where the last node head started */
    uint32_t root, root_end;
    bool where;        /* "where" was written */
    /* header */
    bool have_game;    /* a '# mmtree' line */
    bool inferred;     /* no such line: pegs, colors, repeat inferred */
    uint32_t game_off;
    int pegs, colors;
    bool repeat;
    mm_format notation;
    bool have_rule, consistent_only;
    uint32_t rule_off, first_off;
    size_t rule_len, first_len; /* first_len 0: no first= */
    uint32_t tie_off;
    size_t tie_len;    /* 0: no tie-break= */
    int max_depth, extra_colors;
    mm_proof proof;    /* '# proof:', at proof_off */
    uint32_t proof_off;
    uint64_t lower_total;
    int lower_worst;
    bool have_citation;
    uint32_t cite_off;
    size_t cite_len;
} bparser;

#define NODES(p) ((bnode *)(p)->nodes.v)
#define KIDS(p) ((uint32_t *)(p)->kids.v)
#define DEFS(p) ((bdef *)(p)->defs.v)

/* bracket_parse.c */
/* Append a zeroed element of size bytes; NULL when out of memory. */
void *bracket_vec_push(bvec *a, size_t size);
/* Index the lines, then scan the header and the whole text. */
mm_status bracket_parse(bparser *p);
/* Line and column of byte offset off. */
mm_srcpos bracket_pos(const bparser *p, size_t off);
/* Record a message placed at byte offset off; returns st. */
mm_status bracket_fail(bparser *p, mm_status st, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A short picture of a node for messages: 16(1213: ...), 96A, 4(1145x). */
const char *bracket_describe(const bparser *p, const bnode *a, char *buf, size_t size);
uint64_t bracket_name_key(const char *s, size_t n);
/* Offset of the '*' after a guess. */
size_t bracket_star_off(const bparser *p, const bnode *a);
/* The body a node stands for: its own, or its definition's. */
const bnode *bracket_body_of(const bparser *p, const bnode *a);

/* bracket_check.c: each fails with a message placed in the text. */
/* The game from the header, or inferred (bracket.md, section 2), into
 * pegs, colors and repeat; nothing is allocated. */
mm_status bracket_choose_game(bparser *p);
/* The chosen game's tables (MM_ERR_LIMIT beyond MM_MAX_CODES codes). */
mm_status bracket_setup_game(bparser *p, mm_game *g);
/* Strict: the root count against the header's game, before its tables
 * are built. */
mm_status bracket_check_root_count(bparser *p);
/* Every written code (and first=) as a code of g, into p->guess. */
mm_status bracket_parse_codes(bparser *p, const mm_game *g, mm_code *first);
/* The dialect (want, the header, or the slot counts) and every full
 * form's layout. */
mm_status bracket_check_slots(bparser *p, const mm_game *g, mm_format want,
                              bracket_layout *lay);
/* Names: each defined once and used once, no cycle. */
mm_status bracket_resolve_names(bparser *p);
/* Strict: the slots of every full form add up to its count. */
mm_status bracket_check_sums(bparser *p);
/* Strict: no n(y) or n(yx) states more codes than the form can hold. */
mm_status bracket_check_forms(bparser *p);

#endif

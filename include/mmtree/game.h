/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The game model: MM(p,c), p pegs and c colours, with or without repeated
 * colours (Neuwirth's R and N games; Bulls and Cows is MM(4,10) without).
 *
 * Codes are numbered by their rank in lexical order (mm_code); the rank is
 * what every tree stores.  Colours are 0..c-1 inside and print as the
 * digits 1..9 when c <= 9, as in the papers, and as 0-9 then a-f when
 * c >= 10, the way Bulls and Cows players write their digits.
 *
 * The score is Knuth's: black = equal positions, black + white =
 * sum over colours of min(n_i, n'_i).  A reply is a slot number in the
 * order of Knuth's Figure 1: black ascending, white descending within a
 * black count.  The slot of (p-1, 1) exists but never occurs.
 */
#ifndef MMTREE_GAME_H
#define MMTREE_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmtree/diag.h>

#define MM_MAX_PEGS 8
#define MM_MAX_COLORS 16
/* The largest game mmtree sets up: 2^20 codes (MM(5,16), MM(6,10) and
 * MM(7,7) are among the largest allowed; MM(6,11), MM(8,6) and MM(8,8)
 * are refused).  A tree of n codes has up to 2n nodes, and reading,
 * checking or building one takes about 150 bytes a code: some 150 MB at
 * the limit, 2.4 GB for MM(8,8), whose tree no one-step rule could build
 * in days.  Counts in files are bounded by it too. */
#define MM_MAX_CODES (UINT32_C(1) << 20)
/* Bytes a code that a tree's reading or building takes, about: the
 * figure MM_ERR_LIMIT messages quote. */
#define MM_BYTES_PER_CODE 150
#define MM_MAX_REPLIES 45 /* (8+1)(8+2)/2 slots for 8 pegs */
#define MM_NO_CODE UINT32_MAX

typedef uint32_t mm_code;

typedef struct mm_game {
    int pegs;
    int colors;
    bool repeat;
    uint32_t ncodes;
    int nreplies;                    /* slots, (p+1)(p+2)/2 */
    int win;                         /* slot of (p, 0): the last one */
    int wide;                        /* 1 when p*c > 64: masks take 2 words */
    uint8_t black[MM_MAX_REPLIES];   /* ORDER REPLY: black count of a slot */
    uint8_t white[MM_MAX_REPLIES];   /* ORDER REPLY: white count of a slot */
    uint8_t slot[MM_MAX_PEGS + 1][MM_MAX_PEGS + 1]; /* [black][hits] */
    /* Per code, indexed by mm_code (arrays of ncodes): */
    uint32_t *digits;  /* 4 bits a peg, peg 0 in the highest used nibble */
    uint16_t *colorset;/* bit k: colour k occurs */
    uint64_t *pos;     /* bit peg*c+colour; 2 words a code when wide */
    uint64_t *occ;     /* bit colour*p+k: colour occurs more than k times */
} mm_game;

/* Set up MM(pegs, colors) with or without repetition.  Fails with
 * MM_ERR_USAGE when p or c is out of range or the game has no code, and
 * with MM_ERR_LIMIT, before allocating anything, when it has more than
 * MM_MAX_CODES codes (the message says how many, and the memory its tree
 * would need). */
MM_EXPORT mm_status mm_game_init(mm_game *g, int pegs, int colors, bool repeat,
                       mm_diag *d);
MM_EXPORT void mm_game_release(mm_game *g);

/* Number of codes MM(pegs, colors) would have, or 0 when the parameters
 * are out of range; saturates at UINT64_MAX. */
MM_EXPORT uint64_t mm_game_count(int pegs, int colors, bool repeat);

/* The reply slot of guess a against secret b (symmetric). */
static inline int mm_game_score(const mm_game *g, mm_code a, mm_code b)
{
    int black, hits;
    if (g->wide) {
        const uint64_t *pa = g->pos + 2 * (size_t)a, *pb = g->pos + 2 * (size_t)b;
        const uint64_t *oa = g->occ + 2 * (size_t)a, *ob = g->occ + 2 * (size_t)b;
        black = __builtin_popcountll(pa[0] & pb[0]) + __builtin_popcountll(pa[1] & pb[1]);
        hits = __builtin_popcountll(oa[0] & ob[0]) + __builtin_popcountll(oa[1] & ob[1]);
    } else {
        black = __builtin_popcountll(g->pos[a] & g->pos[b]);
        hits = __builtin_popcountll(g->occ[a] & g->occ[b]);
    }
    return g->slot[black][hits];
}

/* Group the codes in[0..n) by their reply to guess into out[0..n), in slot
 * order and keeping their order within a part (lexical order in, lexical
 * order out); cnt[s] and start[s] receive the size and offset of each
 * part.  slot is scratch of n bytes; in and out must not overlap. */
MM_EXPORT void mm_game_split(const mm_game *g, mm_code guess, const mm_code *in,
                   uint32_t n, mm_code *out, uint8_t *slot,
                   uint32_t cnt[MM_MAX_REPLIES], uint32_t start[MM_MAX_REPLIES]);

/* Colour of peg i (0-based) of code x. */
static inline int mm_code_peg(const mm_game *g, mm_code x, int i)
{
    return (int)(g->digits[x] >> (4 * (g->pegs - 1 - i))) & 15;
}

/* Index of the first of the n ascending codes that is x or above it (n
 * when none is): where x is, or would go.  Sets of codes are ascending
 * throughout the library. */
MM_EXPORT uint32_t mm_codes_lower_bound(const mm_code *codes, uint32_t n, mm_code x);

/* Rank of the code with the given pegs; MM_NO_CODE when it is not a code
 * of the game (colour out of range, or a repeat in a no-repeat game). */
MM_EXPORT mm_code mm_game_index(const mm_game *g, const int *pegs);

/* Parse exactly len characters as a code of g. */
MM_EXPORT mm_status mm_code_parse(const mm_game *g, const char *s, size_t len,
                        mm_code *out, mm_diag *d);

/* Write the code as p characters and a NUL into buf (>= MM_MAX_PEGS+1). */
MM_EXPORT char *mm_code_format(const mm_game *g, mm_code x, char *buf);

/* Character for colour k, and the colour of a character (-1 if none). */
MM_EXPORT char mm_color_char(const mm_game *g, int k);
MM_EXPORT int mm_color_value(int colors, char ch);

/* Slot of reply (black, white); -1 when the pair is out of range. */
MM_EXPORT int mm_reply_slot(const mm_game *g, int black, int white);

/* Bit mask of the slots that some pair of codes of g actually produces
 * (Neuwirth's set A of possible answers). */
MM_EXPORT uint64_t mm_game_reply_set(const mm_game *g);

#endif

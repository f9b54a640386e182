/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Internal to the exact solvers: the value of a strategy, packed.
 *
 * A value is the triple (total, worst, at_worst) of a strategy for a set
 * of codes: the guesses it needs for all of them (the last one of each
 * included), the most any code needs, and how many codes need that many.
 * It is packed into one integer so that integer order is the order the
 * rules want: total first, then worst case, then codes at the worst
 * depth.  Everything that knows the layout is here: the search, the
 * table of solved sets and the checkpoints use these names only.
 *
 * The order composes: the best strategy for a set has the best strategy
 * for each part below its guess.  Totals add up; the worst case is one
 * more than the deepest part's, and the codes at it are those of the
 * parts that reach it, so a part that is least in the order (least total,
 * then least worst case, then fewest at it) is never a worse choice than
 * another of the same total.  Under a depth limit (optimal-worst) the
 * same holds of the strategies within the limit.  A lower bound is a
 * value no strategy is below; bounds add up part by part like values.
 */
#ifndef MM_OPT_VALUE_H
#define MM_OPT_VALUE_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t oval;

#define OV_NBITS 21                         /* codes at the worst depth: bits 0..20 */
#define OV_WBITS 6                          /* worst case: bits 21..26 */
#define OV_TSHIFT (OV_NBITS + OV_WBITS)     /* total: bits 27..52 */
#define OV_NMASK (((oval)1 << OV_NBITS) - 1)
#define OV_LOWMASK (((oval)1 << OV_TSHIFT) - 1)
#define OV_BITS 54                          /* every value fits 54 bits */
#define OV_MASK (((oval)1 << OV_BITS) - 1)
#define OV(t, w, n) ((oval)(t) << OV_TSHIFT | (oval)(w) << OV_NBITS | (oval)(n))
#define OV_T(v) ((v) >> OV_TSHIFT)
#define OV_W(v) ((int)((v) >> OV_NBITS & 63))
#define OV_N(v) ((uint32_t)((v) & OV_NMASK))
#define OV_INF ((oval)1 << 53)              /* no tree fits the depth limit */
#define OV_ABORT UINT64_MAX                 /* stopped: nothing is known */
#define OPT_NODEPTH 63                      /* "no depth limit" */

/* Games have at most 2^20 codes (mm_game_init): codes at the worst depth
 * fit their 21 bits, and totals (at most 63 guesses a code) their 26. */
_Static_assert(OV_NBITS > 20 && ((oval)63 << 20) < ((oval)1 << (53 - OV_TSHIFT)),
               "values must hold every game's totals and counts");

/* Sets of one or two codes, and depth limits that no tree meets: true
 * with *v the value. */
static inline bool opt_trivial(uint32_t n, int depth, oval *v)
{
    if (n == 1)
        *v = depth >= 1 ? OV(1, 1, 1) : OV_INF;
    else if (n == 2)
        *v = depth >= 2 ? OV(3, 2, 1) : OV_INF;
    else if (depth < 2)
        *v = OV_INF;
    else
        return false;
    return true;
}

/* A part's bound as it adds into a sum of parts: its total alone. */
static inline oval ov_total_bits(oval v)
{
    return v & ~OV_LOWMASK;
}

/* The value of a guess, summed over its parts. */
typedef struct ovsum {
    uint64_t total;
    int worst;
    uint64_t at_worst;
} ovsum;

/* A guess at a set of n codes: n guesses now, the parts' after.  Its own
 * code, when it can be the one, is found at depth 1, which is the worst
 * only when there are no parts: a set of one code. */
static inline ovsum ovsum_start(uint32_t n)
{
    return (ovsum){n, 1, n == 1};
}

/* Add a part (an exact value, a bound, or OV_INF): its total, and worst
 * case one more than the part's, with the codes at it. */
static inline void ovsum_add(ovsum *s, oval part)
{
    s->total += OV_T(part);
    if (1 + OV_W(part) > s->worst) {
        s->worst = 1 + OV_W(part);
        s->at_worst = OV_N(part);
    } else if (1 + OV_W(part) == s->worst) {
        s->at_worst += OV_N(part);
    }
}

/* The sum as a value; OV_INF when a part had none. */
static inline oval ovsum_value(ovsum s)
{
    if (s.total >= OV_T(OV_INF) || s.worst > 63 || s.at_worst > OV_NMASK)
        return OV_INF;
    return OV(s.total, s.worst, s.at_worst);
}

/* The largest value one part may take so that the guess stays within
 * bound, the other parts adding up to rest: 0 when none fits.  A total
 * below the room left; or equal to it, with a worst case below the
 * bound's less one; or the bound's less one, with no more codes at it
 * than the bound leaves beside the others' (those at the bound's worst
 * case already). */
static inline oval ov_room(ovsum rest, oval bound)
{
    uint64_t bt = OV_T(bound);
    int bw = OV_W(bound);
    uint64_t bn = OV_N(bound);
    if (bt <= rest.total)
        return 0;
    uint64_t room = bt - rest.total;
    if (rest.worst < bw)
        return OV(room, bw - 1, bn);
    if (rest.worst == bw && rest.at_worst <= bn)
        return OV(room, bw - 1, bn - rest.at_worst);
    return OV(room, 0, 0) - 1;
}

#endif

/*
 * Internal to the exact solvers: the value of a strategy, packed.
 *
 * A value is the pair (total, worst) of a strategy for a set of codes,
 * packed into one integer so that integer order is the order the rules
 * want: total first, then worst case.  Totals count every guess, the last
 * one included.  Everything that knows the layout is here: the search,
 * the table of solved sets and the checkpoints use these names only, so
 * that a further key (below the worst case) changes this file alone.
 */
#ifndef MM_OPT_VALUE_H
#define MM_OPT_VALUE_H

#include <stdint.h>

typedef uint64_t oval;

#define OV_WBITS 6                          /* worst case: bits 0..5 */
#define OV_WMASK (((oval)1 << OV_WBITS) - 1)
#define OV_BITS 54                          /* every value fits 54 bits */
#define OV_MASK (((oval)1 << OV_BITS) - 1)
#define OV(t, w) ((oval)(t) << OV_WBITS | (oval)(w))
#define OV_T(v) ((v) >> OV_WBITS)
#define OV_W(v) ((int)((v) & OV_WMASK))
#define OV_INF ((oval)1 << 53)              /* no tree fits the depth limit */
#define OV_ABORT UINT64_MAX                 /* stopped: nothing is known */
#define OPT_NODEPTH 63                      /* "no depth limit" */

/* A part's bound as it adds into a sum of parts: its total alone. */
static inline oval ov_total_bits(oval v)
{
    return v & ~OV_WMASK;
}

/* The value of a guess, summed over its parts. */
typedef struct ovsum {
    uint64_t total;
    int worst;
} ovsum;

/* A guess at a set of n codes: n guesses now, the parts' after. */
static inline ovsum ovsum_start(uint32_t n)
{
    return (ovsum){n, 1};
}

/* Add a part (an exact value, a bound, or OV_INF): its total, and worst
 * case one more than the part's. */
static inline void ovsum_add(ovsum *s, oval part)
{
    s->total += OV_T(part);
    if (1 + OV_W(part) > s->worst)
        s->worst = 1 + OV_W(part);
}

/* The sum as a value; OV_INF when a part had none. */
static inline oval ovsum_value(ovsum s)
{
    if (s.total >= OV_T(OV_INF) || s.worst > 63)
        return OV_INF;
    return OV(s.total, s.worst);
}

/* The largest value one part may take so that the guess stays within
 * bound, the other parts adding up to rest: 0 when none fits.  A total
 * below the room left, or equal to it with a worst case that keeps the
 * guess's worst case within the bound's. */
static inline oval ov_room(ovsum rest, oval bound)
{
    uint64_t bt = OV_T(bound);
    int bw = OV_W(bound);
    if (bt <= rest.total)
        return 0;
    uint64_t room = bt - rest.total;
    if (rest.worst <= bw)
        return OV(room, bw - 1);
    return OV(room, 0) - 1;
}

#endif

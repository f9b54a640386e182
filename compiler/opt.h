/*
 * Internal to the exact solvers (optimal.c, opt_search.c, opt_cache.c).
 *
 * A value is the pair (total, worst) of a strategy for a set of codes,
 * packed so that integer order is the order the rules want: total first,
 * then worst case.  Totals count every guess, the last one included.
 */
#ifndef MM_OPT_H
#define MM_OPT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "mmtree/compile.h"

typedef uint64_t oval;
#define OV(t, w) ((uint64_t)(t) << 6 | (uint64_t)(w))
#define OV_T(v) ((v) >> 6)
#define OV_W(v) ((int)((v) & 63))
#define OV_INF ((uint64_t)1 << 53)  /* no tree fits the depth limit */
#define OV_ABORT UINT64_MAX         /* stopped: nothing is known */
#define OPT_NODEPTH 63              /* "no depth limit" */

/* ---- the table of solved code sets (opt_cache.c) ----
 * Keyed by two 64-bit sums of per-code random words (an order-free hash
 * of the set), the depth limit and the search mode.  An entry holds the
 * exact value and a best guess, or a lower bound.  Every entry is a proven
 * fact about its set, so any subset of them may be saved and reloaded. */
#define OC_EXACT 1u
#define OC_CANON 2u  /* the guess is the first optimal one in tie order */

typedef struct oentry {
    uint64_t h1, h2;
    uint64_t meta;   /* value in bits 0..53, depth 56..61, flags 62..63 */
    mm_code guess;
    uint32_t n;
} oentry;

typedef struct ocache {
    oentry *e;            /* cap_mask + 1 buckets of 4 entries, reserved */
    uint64_t cap_mask, base_mask;
    _Atomic uint64_t mask;  /* buckets in use - 1: grows from base_mask */
    atomic_uint_fast64_t used;  /* entries stored */
    atomic_flag *locks;
    uint32_t nlocks;
} ocache;

mm_status ocache_init(ocache *c, size_t bytes);
void ocache_release(ocache *c);
/* Entry for the key, or false. */
bool ocache_get(ocache *c, uint64_t h1, uint64_t h2, int depth, oentry *out);
void ocache_put(ocache *c, uint64_t h1, uint64_t h2, int depth, uint32_t n,
                oval v, unsigned flags, mm_code guess);
static inline oval oentry_value(const oentry *e) { return e->meta & (((uint64_t)1 << 54) - 1); }
static inline unsigned oentry_flags(const oentry *e) { return (unsigned)(e->meta >> 62); }

/* Checkpoints: the entries of at least min_n codes, with a header naming
 * the game and the search, written atomically; loading checks the header. */
mm_status ocache_save(ocache *c, const char *path, const char *tag,
                      uint32_t min_n, mm_diag *d);
mm_status ocache_load(ocache *c, const char *path, const char *tag,
                      uint64_t *loaded, mm_diag *d);

/* ---- the search (opt_search.c) ---- */

/* The symmetries kept along a path (Ville 5.4, and positions): position
 * permutations sigma that, with the colour map pi they force on the colours
 * played so far, map every guess of the path onto itself. */
typedef struct ogroup {
    uint64_t serial;             /* tells groups apart (candidate lists) */
    uint16_t played;
    int ne;                      /* elements besides the identity */
    size_t cap;
    uint8_t (*perm)[MM_MAX_PEGS];
    uint8_t (*cmap)[MM_MAX_COLORS];  /* on played colours */
} ogroup;

typedef struct oshared {
    const mm_game *g;
    bool consistent_only;
    bool depth_mode;             /* values are under a depth limit */
    bool no_symmetry, use_cache;
    bool no_simd;                /* score with the portable code only */
    int answers;                 /* replies the game can give */
    uint64_t salt;               /* mixes the mode into cache keys */
    uint64_t *r1, *r2;           /* per code random words for set hashes */
    struct slice_guess *gbits; /* per code, for bit-sliced scoring */
    oval *lbtab;                 /* [K][m]: perfect-tree bound, K parts */
    uint32_t lbmax;              /* largest m in lbtab */
    ocache cache;
    mm_code first;               /* the guess at level 0, or MM_NO_CODE */
    /* level 0, for progress and for a search that stops early */
    atomic_uint root_i, root_nc;
    _Atomic oval root_best;      /* best found (exact); the clock reads it */
    oval root_lower;             /* proven bound */
    mm_code root_guess;
    /* progress and periodic checkpoints, from whichever thread looks at
     * the clock first */
    void (*progress)(void *arg, const mm_optimal_report *r);
    void *progress_arg;
    const char *ckpt_path, *ckpt_tag;
    double t0, ckpt_every, next_progress, next_ckpt;
    uint64_t upper;              /* total of the incumbent */
    atomic_flag clock_busy;
    /* stopping */
    atomic_int abort;
    /* both cores: the guesses of one set are shared out to a pool */
    pthread_mutex_t mx;
    pthread_cond_t cv_job, cv_done;
    struct orootjob *rjob;       /* the guesses of a set, or ... */
    struct opartjob *pjob;       /* ... the parts after one guess */
    unsigned job_gen;
    int nhelpers;
    int par_level;               /* the level whose guesses are shared */
    bool share_parts;            /* share the parts of the first guesses,
                                    not the first guesses themselves */
    bool pool_quit;
    double deadline;             /* CLOCK_MONOTONIC seconds, 0 = none */
    const volatile sig_atomic_t *stop;
    /* counters (summed over threads at the end) */
    atomic_uint_fast64_t nodes, hits, guesses, guesses_all;
} oshared;

struct olevel;

typedef struct oworker {
    oshared *sh;
    struct olevel *lv;           /* one scratch level per depth */
    int nlv;
    uint8_t *in_s;
    uint64_t nodes, hits, guesses, guesses_all;
    unsigned tick;
    int id;                      /* 0: the main search; others help */
    unsigned job_seen;
    mm_status status;            /* MM_ERR_NOMEM while unwinding */
} oworker;

mm_status oshared_init(oshared *sh, const mm_game *g, size_t cache_bytes);
void oshared_release(oshared *sh);
mm_status oworker_init(oworker *w, oshared *sh);
void oworker_release(oworker *w);
void oworker_flush(oworker *w);  /* add its counters to the shared ones */

/* Set hash of a sorted set. */
void opt_hash(const oshared *sh, const mm_code *S, uint32_t n, uint64_t *h1,
              uint64_t *h2);

/* The group of the empty path. */
mm_status ogroup_root(ogroup *G, const mm_game *g, bool no_symmetry);
void ogroup_release(ogroup *G);

/* Value of set S (sorted; path group G) when it is at most limit; else a
 * lower bound above limit; OV_ABORT when stopped.  ties: find the first
 * optimal guess in tie order (a guess that can be the code, then lexical
 * order).  force: search even when the table knows the answer.  *guess
 * gets the best guess when the value is exact. */
oval opt_solve(oworker *w, int lv, const ogroup *G, const mm_code *S,
               uint32_t n, oval limit, int depth, bool ties, bool force,
               mm_code *guess);

/* Is there a tree of depth at most depth for S?  1 yes, 0 no, -1 stopped. */
int opt_feasible(oworker *w, int lv, const ogroup *G, const mm_code *S,
                 uint32_t n, int depth);

/* The group after guess q, from G. */
mm_status ogroup_after(const ogroup *G, const mm_game *g, mm_code q,
                       ogroup *out);

/* Perfect-tree lower bound (total, depth) of m codes when no guess makes
 * more than k parts besides the winning one. */
oval opt_lower(const oshared *sh, uint32_t m, int k);

double opt_now(void);

/* The pool's threads: serve shared guesses until pool_quit. */
void *opt_helper(void *worker);

#endif

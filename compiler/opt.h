/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Internal to the exact solvers.  The files, each with its own part:
 *
 *   optimal.c     the driver: bounds, the searches in turn, the tree
 *   opt_value.h   values (total, worst) packed into one integer
 *   opt_bound.c   lower bounds: the perfect tree's, and in games of
 *                 permutations the pegs a set's codes can have in place
 *   opt_state.c   what the threads share, each thread's scratch, the clock
 *   opt_sym.c     symmetry: groups along a path, class representatives
 *   opt_score.c   scoring kernels: reply counts and histograms, AVX-512,
 *                 AVX2 and portable; the table of replies; splitting a set
 *   opt_search.c  the branch and bound (its opening comment is the essay)
 *   opt_pool.c    the pool of threads that share a set's guesses or parts
 *   opt_cache.c   the table of solved sets
 *   opt_ckpt.c    its checkpoint file (compiler/checkpoint.md)
 *   opt_look.c    what a checkpoint has proven about a position
 *   opt_progress.c  the root's candidates followed: bounds, work done
 */
#ifndef MM_OPT_H
#define MM_OPT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "mmtree/compile.h"
#include "opt_value.h"
#include "slice.h"

/* ---- the table of solved code sets (opt_cache.c) ----
 * Keyed by two 64-bit sums of per-code random words (an order-free hash
 * of the set), the depth limit and the search mode.  An entry holds the
 * exact value and a best guess, or a lower bound.  Every entry is a proven
 * fact about its set, so any subset of them may be saved and reloaded. */
#define OC_EXACT 1u
#define OC_CANON 2u  /* the guess is the first optimal one in tie order */

typedef struct oentry {
    uint64_t h1, h2;
    uint64_t meta;   /* value in bits 0..OV_BITS-1, depth 56..61, flags 62..63 */
    mm_code guess;
    uint32_t n;
} oentry;

typedef struct ocache {
    oentry *e;            /* cap_mask + 1 buckets of 4 entries, reserved */
    size_t bytes;         /* of e */
    uint64_t cap_mask;
    _Atomic uint64_t mask;  /* buckets in use - 1: doubles up to cap_mask */
    atomic_flag sizing;   /* held to double it, or to keep its size */
    atomic_uint_fast64_t used;  /* entries stored */
    atomic_flag *locks;
    uint32_t nlocks;
} ocache;

mm_status ocache_init(ocache *c, size_t bytes);
void ocache_release(ocache *c);
/* Size an empty table for about this many entries, before they are put
 * in (one thread), so that it need not double as they come. */
void ocache_reserve(ocache *c, uint64_t entries);
/* Entry for the key, or false. */
bool ocache_get(ocache *c, uint64_t h1, uint64_t h2, int depth, oentry *out);
/* Start reading the key's bucket, for an ocache_get soon after. */
void ocache_prefetch(ocache *c, uint64_t h1, int depth);
void ocache_put(ocache *c, uint64_t h1, uint64_t h2, int depth, uint32_t n,
                oval v, unsigned flags, mm_code guess);
/* An entry's h1: the set's key 1 with the depth limit mixed in (the
 * depth is part of the key). */
static inline uint64_t ocache_key1(uint64_t h1, int depth)
{
    return h1 ^ ((uint64_t)(depth + 1) * 0x9e3779b97f4a7c15u);
}
static inline oval oentry_value(const oentry *e) { return e->meta & OV_MASK; }
static inline unsigned oentry_flags(const oentry *e) { return (unsigned)(e->meta >> 62); }

/* The whole table, for checkpoints: entries 0..ocache_slots() - 1 (an
 * empty one: false), read between ocache_hold_size and
 * ocache_release_size (entries move when the table doubles), and entries
 * put back as they were read. */
void ocache_hold_size(ocache *c);
void ocache_release_size(ocache *c);
uint64_t ocache_slots(ocache *c);
bool ocache_entry(ocache *c, uint64_t i, oentry *out);
void ocache_put_entry(ocache *c, const oentry *e);

/* ---- checkpoints (opt_ckpt.c, compiler/checkpoint.md) ---- */

struct oshared;

/* What a checkpoint is bound to: the game, the rule, the options that
 * change values, and how keys are made. */
typedef struct ockpt_id {
    int pegs, colors;
    bool repeat;
    uint32_t ncodes;
    int rule;               /* 0 optimal, 1 optimal-consistent, 2 optimal-worst */
    bool consistent_only;
    int max_depth;          /* the depth cap, 0: none */
    uint64_t check1, check2;  /* the keys of the set {0}, salt 0 */
    uint64_t position;      /* key 1 of the codes the search starts from */
} ockpt_id;

/* The work a checkpoint records: the processor time of the runs that
 * saved it (checkpoint.md, "Time"). */
typedef struct ockpt_time {
    uint64_t ms;            /* milliseconds, user + system */
    uint32_t runs;          /* the runs counted */
    bool partial;           /* some of the work is not counted */
} ockpt_time;

/* The id of a search of sh's game under rule (0..2, as above) from the
 * n codes start. */
void ockpt_id_init(ockpt_id *id, const struct oshared *sh, int rule, bool consistent_only,
                   int max_depth, const mm_code *start, uint32_t n);
/* Save the entries of at least 3 codes to path, atomically, with the
 * time t. */
mm_status ockpt_save(ocache *c, const char *path, const ockpt_id *id, const ockpt_time *t,
                     mm_diag *d);
/* Load path into c when it exists (*loaded: entries; *t: its time, zero
 * when there is no file); a file that is not a valid checkpoint of id is
 * refused whole.  It is read a piece at a time: a resume needs the table,
 * not the table and the file.  When it does not exist, check that it can
 * be created. */
mm_status ockpt_load(ocache *c, const char *path, const ockpt_id *id, uint64_t *loaded,
                     ockpt_time *t, mm_diag *d);
/* The same from memory (d names no file). */
mm_status ockpt_read(ocache *c, const unsigned char *buf, size_t len, const ockpt_id *id,
                     uint64_t *loaded, ockpt_time *t, mm_diag *d);
/* Load the facts without a depth limit of the checkpoint at path, a
 * search bound to id (which must exist), into c as they are: the bounds
 * of opt_fact.  *loaded and *t as ockpt_load's. */
mm_status ockpt_load_bounds(ocache *c, const char *path, const ockpt_id *id,
                            uint64_t *loaded, ockpt_time *t, mm_diag *d);
/* mm_checkpoint_read without a copy, each entry of the file, checked
 * whole first, given to visit (its h1 is ocache_key1's). */
mm_status ockpt_visit(const char *path, mm_checkpoint_info *info,
                      void (*visit)(void *arg, const oentry *e), void *arg, mm_diag *d);

/* ---- symmetry (opt_sym.c) ---- */

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
    bool *inv;                   /* the element takes the code's inverse
                                    first (opt_sym.c: games of p pegs,
                                    p colours, no repeat) */
} ogroup;

/* The group of the empty path. */
mm_status ogroup_root(ogroup *G, const mm_game *g, bool no_symmetry);
/* The group after guess q, from G. */
mm_status ogroup_after(const ogroup *G, const mm_game *g, mm_code q,
                       ogroup *out);
void ogroup_release(ogroup *G);

/* ---- the state of a search (opt_state.c) ---- */

struct opolish;

/* The best guess a stopped search had found at a set it had not finished
 * (h1, h2: its key; depth: its limit): its value v is exact, that of
 * the guess, whose parts the search had solved; the set's own value may
 * be lower.  A polish builds from it what the table alone cannot. */
typedef struct oincumbent {
    uint64_t h1, h2;
    int depth;
    mm_code guess;
    oval v;
} oincumbent;

typedef struct oshared {
    const mm_game *g;
    const struct opolish *polishing; /* while a stopped search's tree is
                                        polished (on its own thread): its
                                        counts, for progress */
    bool consistent_only;
    bool depth_mode;             /* values are under a depth limit */
    bool nodepth_facts;          /* the table holds facts of a search
                                    without one (opt_fact) */
    bool no_symmetry, use_cache;
    bool no_simd;                /* score with the portable code only */
    bool no_avx512;              /* nor with AVX-512 (tests: AVX2 then) */
    bool no_replies;             /* baseline: no table of replies */
    int answers;                 /* replies the game can give */
    uint8_t live[MM_MAX_REPLIES]; /* their slots, in order */
    uint8_t rank[MM_MAX_REPLIES]; /* a slot's place in live (the table
                                     of replies holds these) */
    uint32_t small_max;          /* sets up to this size are scored by
                                    their replies alone (opt_search.c) */
    uint64_t salt;               /* mixes the mode into cache keys */
    uint64_t *r1, *r2;           /* per code random words for set hashes */
    struct slice_guess *gbits; /* per code, for bit-sliced scoring */
    oval *lbtab;                 /* [K][m]: perfect-tree bound, K parts */
    uint32_t lbmax;              /* largest m in lbtab */
    bool agree;                  /* parts get the agreement bound too */
    _Atomic(_Atomic uint16_t *) agree_memo[MM_MAX_PEGS]; /* [K]: its values
                                    for small sets, once computed */
    ocache cache;
    mm_code first;               /* the guess at level 0, or MM_NO_CODE */
    /* level 0, for progress and for a search that stops early */
    bool track_root;             /* follow the root's candidates (oprog) */
    _Atomic(struct oprog *) prog;
    atomic_uint root_i, root_nc; /* progress when nothing follows them */
    _Atomic oval root_best;      /* best found (exact); the clock reads it */
    oval root_lower;             /* proven bound */
    mm_code root_guess;
    /* the search for a tree within a depth (opt_feasible), at the root:
     * the depth asked about (0: none), the first guess tried and those
     * before it, of feas_n; the least worst case, proven and found (set
     * by the driver; 0: none) */
    atomic_int feas_depth;
    _Atomic mm_code feas_guess;
    atomic_uint feas_i, feas_n;
    bool worst_first;
    int worst_lower, worst_upper;
    /* progress and periodic checkpoints, from whichever thread looks at
     * the clock first */
    void (*progress)(void *arg, const mm_optimal_report *r);
    void *progress_arg;
    const char *ckpt_path;
    const struct ockpt_id *ckpt_id;
    ockpt_time ckpt_base;        /* the time of the runs before this one
                                    (the checkpoint's), partial too when
                                    this run's is not all counted */
    double cpu0;                 /* opt_cpu_now() when the search started */
    double t0, ckpt_every, next_progress, next_ckpt, progress_every;
    uint64_t upper;              /* total of the incumbent */
    atomic_flag clock_busy;
    /* stopping */
    atomic_int abort;
    pthread_mutex_t inc_mx;      /* guards the incumbents: */
    oincumbent *inc;             /* those of the sets a stop left */
    uint32_t ninc;               /* unfinished (opt_incumbent_keep) */
    size_t inc_cap;
    /* both cores: the guesses of one set are shared out to a pool */
    pthread_mutex_t mx;
    pthread_cond_t cv_job, cv_done;
    struct ojob *jobs;           /* the jobs posted, newest first (opt_pool.c) */
    atomic_int idle;             /* threads waiting for work */
    int nhelpers;
    mm_share share;              /* what to share: the option */
    int par_level;               /* the level whose guesses are shared */
    bool share_parts;            /* share the parts of the first guesses,
                                    not the first guesses themselves */
    bool pool_quit;
    double deadline;             /* CLOCK_MONOTONIC seconds, 0 = none */
    const volatile sig_atomic_t *stop;
    sig_atomic_t stop_level;     /* stop once *stop is above it */
    uint64_t stop_after;         /* stop once stop_count reaches it */
    atomic_uint_fast64_t stop_count;
    /* counters (summed over threads at the end) */
    atomic_uint_fast64_t nodes, hits, guesses, guesses_all;
} oshared;

/* A candidate guess at a set, in the order it is tried. */
typedef struct ocand {
    oval lb;
    uint32_t idx;   /* position in the tie order */
    uint16_t k;     /* parts besides the winning one */
} ocand;

/* A part of a set after a guess: l->parts[start..start+n). */
typedef struct opart {
    uint32_t start, n;
    oval v;         /* exact value or lower bound */
    bool exact;
} opart;

/* Value of a guess at n codes from its parts' current values. */
static inline oval opt_sum_parts(uint32_t n, const opart *pt, int np)
{
    ovsum s = ovsum_start(n);
    for (int i = 0; i < np; i++)
        ovsum_add(&s, pt[i].v);
    return ovsum_value(s);
}

/* The largest value part i may take for the guess to stay within bound,
 * the other parts at their current values; 0 when none fits. */
static inline oval opt_part_limit(uint32_t n, const opart *pt, int np, int i,
                                  oval bound)
{
    ovsum rest = ovsum_start(n);
    for (int j = 0; j < np; j++)
        if (j != i)
            ovsum_add(&rest, pt[j].v);
    return ov_room(rest, bound);
}

/* Sets of at most this many codes are kept as masks, larger ones
 * bit-sliced (opt_score.c); sets up to sh->small_max, at least this, are
 * scored by their replies only. */
#define SMALL_SET 32

/* A thread's scratch for one level of the search. */
typedef struct olevel {
    uint64_t *sp, *so;      /* S as masks, when at most SMALL_SET codes */
    size_t scap;
    slice_set sl;            /* S bit-sliced, when larger */
    mm_code *cand;
    uint8_t *nk;            /* replies each candidate gets (small sets) */
    uint32_t *hist;
    ocand *ci;
    size_t ccap;
    mm_code *parts;
    size_t pcap;
    ogroup grp;             /* the group after the guess being explored */
} olevel;

/* A list of class representatives, consistent or not, in lexical order,
 * and what it depends on: the zero and played colours and the group, by
 * its elements when it has at most OREPS_BY_CONTENT of them (the search
 * comes back to few such groups), else by its serial. */
#define OREPS_BY_CONTENT 32
#define OREPS_SLOTS 512
#define OREPS_KEY_MAX (5 + OREPS_BY_CONTENT * (MM_MAX_PEGS + 1 + MM_MAX_COLORS))
typedef struct oreps {
    uint64_t hash;
    uint64_t used;               /* when last used, for the replacement */
    uint32_t klen;               /* 0: empty */
    uint8_t key[OREPS_KEY_MAX];
    mm_code *reps;
    uint32_t nreps;
    size_t cap;
} oreps;

#define OPT_MAX_LEVELS 64

/* The replies of every code of the game to every code of one set P (the
 * first set on the current path small enough to hold them): a byte, the
 * reply's slot, for each pair, rows by code of P, columns by code of the
 * game.  A set below P is scored by OR-ing a bit 1 << slot for each of
 * its codes' rows: the bits set in a column are the replies that guess
 * gets, with no reply computed (opt_score.c). */
typedef struct oreplies {
    uint8_t *rows;               /* rows x stride slots */
    size_t cap;                  /* bytes reserved */
    uint32_t *rowof;             /* per code: its row, or UINT32_MAX */
    uint32_t stride;             /* columns: codes, rounded up */
    int lv;                      /* the level of P; -1: no table */
    void *acc;                   /* a set's OR, a block of columns at a
                                    time: 64 bits a column, laid out as
                                    opt_score.c says */
    uint8_t *k;                  /* per code: replies, from acc */
} oreplies;

typedef struct oworker {
    oshared *sh;
    oreplies rt;                 /* replies to a set on the path */
    struct olevel *lv;           /* one scratch level per depth */
    int nlv;
    uint8_t *in_s;
    oreps *reps;                 /* OREPS_SLOTS lists, two ways a hash */
    uint64_t reps_tick;
    uint64_t nodes, hits, guesses, guesses_all;
    unsigned tick;
    int id;                      /* 0: the main search; others help */
    struct ojob *cur;            /* the shared job it works in, or NULL */
    mm_status status;            /* MM_ERR_NOMEM while unwinding */
} oworker;

mm_status oshared_init(oshared *sh, const mm_game *g, size_t cache_bytes);
void oshared_release(oshared *sh);
mm_status oworker_init(oworker *w, oshared *sh);
void oworker_release(oworker *w);
void oworker_flush(oworker *w);  /* add its counters to the shared ones */

/* Room for need candidates at a level: their codes, reply counts,
 * histograms (R counters each) and order entries, all with one
 * capacity.  False when out of memory. */
bool olevel_reserve_cand(olevel *l, uint32_t need, int R);

/* The random words of the codes 0..n-1 that keys sum (r1[x], r2[x]),
 * the same in every run (compiler/checkpoint.md, "Keys"). */
void opt_key_words(uint64_t *r1, uint64_t *r2, uint32_t n);
#define OPT_KEY_SIZE 0xd6e8feb86659fd93u   /* key 1 counts a set's size so */
#define OPT_SALT_CONSISTENT 0x2545f4914f6cdd1du  /* key 2's start, consistent-only */

/* Set hash of a set: sums of per-code random words, so order-free
 * (compiler/checkpoint.md, "Keys"); salt tells the search modes apart. */
static inline void opt_hash_salt(const oshared *sh, uint64_t salt, const mm_code *S,
                                 uint32_t n, uint64_t *h1, uint64_t *h2)
{
    uint64_t a = (uint64_t)n * OPT_KEY_SIZE, b = salt;
    for (uint32_t i = 0; i < n; i++) {
        a += sh->r1[S[i]];
        b += sh->r2[S[i]];
    }
    *h1 = a;
    *h2 = b;
}

static inline void opt_hash(const oshared *sh, const mm_code *S, uint32_t n,
                            uint64_t *h1, uint64_t *h2)
{
    opt_hash_salt(sh, sh->salt, S, n, h1, h2);
}

/* What the table knows of the set (h1, h2) within depth guesses: its
 * fact there, or with nodepth_facts (an optimal search's checkpoint
 * loaded, mm_compile_opts.bounds_from) the fact about the set without a
 * limit where it says more.  That is a lower bound under any limit, a
 * tree within a depth being a tree, and the value within depth when it
 * is a value whose worst case fits: the least of all trees is then one
 * of those within.  False when nothing is known.  Not for the facts of
 * opt_feasible, which are of another kind. */
bool opt_fact_bounded(oshared *sh, uint64_t h1, uint64_t h2, int depth, oentry *out);
static inline bool opt_fact(oshared *sh, uint64_t h1, uint64_t h2, int depth, oentry *out)
{
    if (sh->nodepth_facts)
        return opt_fact_bounded(sh, h1, h2, depth, out);
    return sh->use_cache && ocache_get(&sh->cache, h1, h2, depth, out);
}

/* A stopped search leaves set (h1, h2) within depth with its guess q of
 * exact value v the best it had found there: kept for
 * opt_incumbent_find (the least of those of one set; the first
 * OPT_MAX_INCUMBENTS sets, or as many as memory allows). */
#define OPT_MAX_INCUMBENTS 4096
void opt_incumbent_keep(oshared *sh, uint64_t h1, uint64_t h2, int depth, mm_code q, oval v);
/* The incumbent kept of set (h1, h2) within depth, or false. */
bool opt_incumbent_find(oshared *sh, uint64_t h1, uint64_t h2, int depth, oincumbent *out);

double opt_now(void);
/* The process's processor time (user + system), in seconds. */
double opt_cpu_now(void);
/* What a save of the checkpoint now records: the earlier runs' time and
 * this one's so far. */
ockpt_time opt_ckpt_time(const struct oshared *sh);

/* Stop now?  A signal's flag, the flag another thread raised, the test
 * hook's count, and every 256 calls the clock (the deadline, progress,
 * checkpoints). */
bool opt_stopping(oworker *w);

/* Progress and periodic checkpoints, from whichever thread looks at the
 * clock first. */
void opt_clock(oworker *w, double now);

/* ---- perfect-tree bounds (opt_bound.c) ---- */

/* Perfect-tree lower bound (total, depth) of m codes when no guess makes
 * more than k parts besides the winning one (Ville 2013, 5.1). */
oval opt_lower_calc(uint64_t m, int k);
/* The table opt_lower reads: a row for each k = 0..nreplies, of
 * m = 0..lbmax; false when out of memory. */
bool opt_lower_init(oshared *sh);

static inline oval opt_lower(const oshared *sh, uint32_t m, int k)
{
    if (m <= sh->lbmax && k <= sh->g->nreplies)
        return sh->lbtab[(size_t)k * (sh->lbmax + 1) + m];
    return opt_lower_calc(m, k);
}

/* Games whose codes are the permutations of their colours, where the
 * agreement bound holds. */
bool opt_agree_game(const mm_game *g);
/* An upper bound on the pegs that any one code of such a game puts in
 * place over the n codes S, all told. */
uint32_t opt_agree_pegs(const mm_game *g, const mm_code *S, uint32_t n);
/* The agreement bound on the total of a set of n codes of a game of p
 * pegs whose codes are permutations, over which no guess has more than
 * pegs in place all told, and no guess makes more than k parts besides
 * the winning one (0 when it says nothing). */
uint64_t opt_agree_calc(uint32_t n, uint32_t pegs, int k, int p);
/* The agreement bound of the n codes S, those of up to 256 codes kept in
 * sh->agree_memo once computed. */
uint64_t opt_agree(oshared *sh, const mm_code *S, uint32_t n, int k);

/* ---- classes of codes (opt_sym.c) ---- */

/* Zero and free colours at a node. */
typedef struct ozf {
    uint16_t zero, free;
    int nzero, nfree;
    int zl[MM_MAX_COLORS], fl[MM_MAX_COLORS];
} ozf;

void opt_zf_init(ozf *z, const oshared *sh, const ogroup *G, const mm_code *S,
                 uint32_t n);
/* Consistent class representatives, in lexical order, into l->cand. */
mm_status opt_cand_consistent(oworker *w, olevel *l, const ogroup *G,
                              const ozf *z, const mm_code *S, uint32_t n,
                              uint32_t *ncons);
/* Inconsistent class representatives, in lexical order, after the ncons
 * consistent ones; *ncand gets the count of both. */
mm_status opt_cand_inconsistent(oworker *w, olevel *l, const ogroup *G,
                                const ozf *z, const mm_code *S, uint32_t n,
                                uint32_t ncons, uint32_t *ncand);

/* The inconsistent class representatives that get at least least
 * replies, k[x] being code x's (the codes of the set, of n, having 0), in
 * lexical order after the ncons consistent candidates, and their counts
 * in l->nk at the same places; *ncand gets the
 * count of both, *most the most replies of any representative, *below
 * the most of those that get fewer than least (0: none).  The counters
 * count every representative, as opt_cand_inconsistent does. */
mm_status opt_cand_replies(oworker *w, olevel *l, const ogroup *G, const ozf *z,
                           uint32_t n, uint32_t ncons, const uint8_t *k, uint32_t least,
                           uint32_t *ncand, uint32_t *most, uint32_t *below);
/* Of the counts nk[from..to) (every one at most most): each equal to
 * most appended to ci from nc on, as the candidate of its place with
 * bound lb, and set to 0; *next the greatest of the others (0: none),
 * *first the first place that has it.  The new nc. */
uint32_t opt_list_most(const oshared *sh, uint8_t *nk, uint32_t from, uint32_t to,
                       uint8_t most, oval lb, ocand *ci, uint32_t nc, uint8_t *next,
                       uint32_t *first);

/* ---- scoring (opt_score.c) ---- */

/* Pick the kernels this CPU runs (once, whichever thread first). */
void opt_score_init(void);
/* The vector kernels this CPU runs: 0 none, 1 AVX2, 2 AVX-512 too. */
int opt_score_simd(void);
/* Whether a search scores with AVX-512: the CPU has it (F, BW, VBMI,
 * BITALG and VPOPCNTDQ) and the options allow it.  After oshared_init. */
bool opt_avx512(const oshared *sh);
/* S into l: masks up to SMALL_SET codes, bit-sliced above.  False when
 * out of memory. */
bool opt_load_set(olevel *l, const mm_game *g, const mm_code *S, uint32_t n);
/* Histogram of the replies x gets from the n codes loaded in l. */
void opt_histogram(const oshared *sh, const olevel *l, uint32_t n, mm_code x,
                   uint32_t *h);
/* Replies (the winning one counted) of candidates from..to-1 into
 * l->nk, and their histograms unless the set is small. */
void opt_score_range(const oshared *sh, olevel *l, uint32_t n, uint32_t from,
                     uint32_t to, bool small);
/* The table of replies for set P at level lv, when the worker has none
 * and it is worth having (P large, the table not too big): true when it
 * was built (the caller drops it when done with P). */
bool opt_replies_build(oworker *w, int lv, const mm_code *P, uint32_t n);
static inline void opt_replies_drop(oworker *w) { w->rt.lv = -1; }
/* The replies (the winning one counted) every code but those of S gets
 * from S, a set below the table's: when a code gets n, the first such
 * code in *sep, and n; else *sep = MM_NO_CODE, every code's count in
 * w->rt.k (0 for the codes of S), and the most.  -1 when there is no
 * table. */
int opt_replies_of_set(oworker *w, const mm_code *S, uint32_t n, mm_code *sep);
/* Split S by q (histogram h) into l->parts, grouped by slot in slot
 * order, each part in the order of S; pt gets the parts besides the
 * winning one, *win the winning part's size.  False when out of memory. */
bool opt_split(olevel *l, const mm_game *g, const mm_code *S, uint32_t n,
               mm_code q, const uint32_t *h, opart *pt, int *npart,
               uint32_t *win);

/* ---- the tree of a known value (opt_tree.c) ---- */

/* The tree of the whole game (its codes all, path group root) of value
 * v into t, from its root; canonical: the first optimal guess in tie
 * order at every node. */
mm_status opt_build_tree(oworker *w, const ogroup *root, const mm_code *all, oval v,
                         int depth, bool canonical, mm_tree *t, mm_diag *d);

/* The same from set S (level lv, path group G) of value v: its tree,
 * rooted at S, into t (whose root count is then n, not the game's). */
mm_status opt_build_set(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                        oval v, int depth, bool canonical, mm_tree *t, mm_diag *d);
/* A tree of set S that needs at most depth guesses, when opt_feasible
 * has found that one exists: the guesses its facts in the table hold (a
 * search finds again those it lost), into t. */
mm_status opt_build_within(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                           int depth, mm_tree *t, mm_diag *d);

/* Node i of s and the nodes below it, as they are, into node of out
 * (allocated; its children are added). */
mm_status opt_copy_subtree(const mm_tree *s, uint32_t i, mm_tree *out, uint32_t node,
                           mm_diag *d);

/* What a polish did: sub-trees solved again, those bettered, and the
 * guesses that saved (fewer than none when a sub-tree over the depth
 * cap had to grow to fit); stopped: a stop came before it ended, and
 * the sub-trees it had not solved again are as they were. */
typedef struct opolish {
    uint64_t solved, bettered;
    int64_t saved;
    bool stopped;
} opolish;

/* Tree in of set S (path group G; its root S's node) into out: first each
 * sub-tree below the root whose set the table holds exactly, at any size,
 * built anew when that is better; then each of at most most codes solved
 * again and, when the search finds better, built anew; cap: the guesses a
 * tree may need from the root (OPT_NODEPTH: any).  Counts added into
 * *rep (a sub-tree the table knew counts as solved).  A stop (w->sh's)
 * ends it early, with the sub-trees bettered by then. */
mm_status opt_polish(oworker *w, const ogroup *G, const mm_code *S, uint32_t n,
                     const mm_tree *in, uint32_t most, int cap, mm_tree *out,
                     opolish *rep, mm_diag *d);

/* ---- the search (opt_search.c) ---- */

/* Value of set S (sorted; path group G) when it is at most limit; else a
 * lower bound above limit; OV_ABORT when stopped.  ties: find the first
 * optimal guess in tie order (a guess that can be the code, then lexical
 * order).  force: search even when the table knows the answer.  *guess
 * gets the best guess when the value is exact. */
oval opt_solve(oworker *w, int lv, const ogroup *G, const mm_code *S,
               uint32_t n, oval limit, int depth, bool ties, bool force,
               mm_code *guess);

/* The candidates of a set as opt_solve finds them, for a driver that
 * tries them itself (mmtree-mpi): in ci[0..nc), unsorted (tried in order
 * of (lb, idx)), the code of ci[i] being cand[ci[i].idx]; both point into
 * the worker's scratch level and last until it is used again. */
typedef struct oexpand {
    const ocand *ci;
    const mm_code *cand;
    uint32_t nc;
    int K;          /* the most parts a candidate makes */
    oval minfail;   /* least bound of the candidates dropped */
} oexpand;

/* The steps of opt_solve before it tries candidates: true when they
 * answer the set (the table, a shortcut, a limit below every guess; *v
 * as opt_solve would return it, *guess its guess), else false with the
 * candidates within limit in *x. */
bool opt_expand(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                oval limit, int depth, bool ties, oval *v, mm_code *guess, oexpand *x);

/* Is there a tree of depth at most depth for S?  1 yes, 0 no, -1 stopped.
 * guess (or NULL): when yes, the first guess of such a tree (the table
 * keeps it too); force: search even when the table knows the answer but
 * not such a guess (a checkpoint of an older version). */
int opt_feasible(oworker *w, int lv, const ogroup *G, const mm_code *S,
                 uint32_t n, int depth, bool force, mm_code *guess);

/* ---- both cores (opt_pool.c) ---- */

/* The guesses of a set shared out: each thread takes the next, with the
 * budget the best value found so far leaves.  Fields up to minfail are
 * the job; best..minfail also its result. */
typedef struct orootjob {
    int lv;
    const ogroup *G;
    const mm_code *S;
    uint32_t n;
    const olevel *l;        /* the main search's: candidates, histograms */
    uint32_t nc;
    int K, depth;
    bool ties;
    uint32_t next;
    int active;
    oval best;              /* found so far; limit + 1 before */
    uint32_t best_idx;
    mm_code best_q;
    bool have;
    oval minfail;
} orootjob;

/* The first steps of opt_eval_cand: S split by q into w->lv[lv].parts
 * (pt[0..*np), smallest first), each part at its bound or its exact
 * value (small sets, the table), then, while the sum stays within bound,
 * raised to its one-guess-ahead bound; the group after q in
 * w->lv[lv].grp.  The sum (also in *reached), or OV_ABORT when stopped. */
oval opt_open_cand(oworker *w, int lv, const ogroup *G, const mm_code *S,
                   uint32_t n, mm_code q, const uint32_t *h, int K, oval bound,
                   int depth, bool ties, opart *pt, int *np, oval *reached);

/* Value of guess q at set S (histogram h) when it is at most bound, else
 * a lower bound above bound; OV_ABORT when stopped, *reached then being
 * the bound proven so far.  rj: the shared job it belongs to, if any;
 * help: its parts may go to a thread that comes free (the first guess
 * of a set, which sets the budget of the others). */
oval opt_eval_cand(oworker *w, int lv, const ogroup *G, const mm_code *S,
                   uint32_t n, mm_code q, const uint32_t *h, int K, oval bound,
                   int depth, bool ties, orootjob *rj, uint32_t idx, bool help,
                   oval *reached);

/* Solve the guesses of rj on every thread of the pool; returns once all
 * have left it. */
void opt_share_guesses(oworker *w, orootjob *rj);
/* Solve the parts of pt not yet exact on every thread of the pool: their
 * sum, or OV_ABORT when stopped. */
oval opt_share_parts(oworker *w, int lv, const ogroup *G, const mm_code *codes,
                     uint32_t n, opart *pt, int np, oval bound, int depth,
                     bool ties, uint32_t idx);
/* The guesses of the sets at level lv are shared out (the root's; a
 * polish's, the set it solves again), as the option sh->share says. */
void opt_share_level(oshared *sh, int lv);
/* Does a thread wait for work while this one, at a set of n codes, has
 * nopen parts or guesses left?  Then they are worth sharing out, at any
 * level (opt_share_parts, opt_share_guesses). */
bool opt_help_wanted(const oshared *sh, uint32_t n, uint32_t nopen);
/* The budget of a shared guess (idx in tie order), read under the lock. */
oval opt_rjob_bound(oshared *sh, orootjob *rj, uint32_t idx);

/* The pool: threads - 1 helpers (as many as can be started), which
 * serve shared jobs until stopped; stopping joins them and hands their
 * counters to the shared ones and their failure, if any, to main. */
typedef struct opool {
    oworker *hw;
    pthread_t tid[64];
    int started;
} opool;

void opt_pool_start(opool *p, oshared *sh, int threads);
void opt_pool_stop(opool *p, oworker *main);

/* ---- progress (opt_progress.c) ---- */

/* Follow the candidates of the root (l->ci[0..nkept), of ncand in tie
 * order; minfail: the least bound of those not kept), replacing what
 * was followed before; oprog_end stops following.  The others tell what
 * happened to candidate idx: its bound rose to v; its parts hold size
 * codes, settled of them solved; codes more solved; it is being tried
 * (q); it is done, at value v. */
void oprog_begin(oshared *sh, const olevel *l, uint32_t ncand, uint32_t nkept, oval minfail);
void oprog_end(oshared *sh);
void oprog_bound(oshared *sh, uint32_t idx, oval v);
void oprog_parts(oshared *sh, uint32_t idx, uint32_t settled, uint32_t size);
void oprog_settle(oshared *sh, uint32_t idx, uint32_t codes);
void oprog_start(oshared *sh, mm_code q);
void oprog_finish(oshared *sh, uint32_t idx, oval v);
/* The root's value is at least this. */
oval opt_root_lower(const oshared *sh);
/* The share of the work done, 0..1. */
double opt_progress_done(const oshared *sh);
/* The report's live fields: bounds, work done, the first guess tried. */
void opt_progress_fill(const oshared *sh, mm_optimal_report *r);

/* ---- the driver (optimal.c) ---- */

/* The search the options ask for (the rule's mode, symmetry, the fixed
 * first guess, the table's size) into sh, initialised here. */
mm_status opt_shared_setup(oshared *sh, const mm_game *g, const mm_compile_opts *o);
/* Guesses that can be the code only, or all; the table keeps the two
 * apart. */
void opt_set_mode(oshared *sh, bool consistent);

/* Another solver of the root set, for a driver that spreads the search
 * (mmtree-mpi).  solve: what opt_solve at the root returns (the driver's
 * worker w, path group root, codes all), keeping sh->root_best,
 * root_guess and root_lower as the search does; OV_ABORT when stopped.
 * facts: before a tree is built from the table, put there what the tree
 * of the last solve (or, stopped, of its best first guess) needs.  Both
 * return MM_OK, or a failure described in d. */
typedef struct oroot {
    mm_status (*solve)(void *arg, oworker *w, const ogroup *root, const mm_code *all,
                       oval limit, int depth, bool ties, oval *v, mm_diag *d);
    mm_status (*facts)(void *arg, oworker *w, bool canonical, mm_diag *d);
    void *arg;
} oroot;

/* opt_compile with the root solved by rs. */
mm_status opt_compile_root(const mm_game *g, const mm_compile_opts *o, const oroot *rs,
                           mm_tree *t, mm_diag *d);

#endif

/*
 * Depth-first branch and bound over code sets (Ville 2013, section 5).
 *
 * A node is a set S of codes still possible.  Every candidate guess is
 * scored by the partition it makes of S; its lower bound is |S| plus, for
 * each part, the total of a perfect tree whose guesses make at most k
 * parts, k being the most parts any guess makes of S (no guess makes more
 * of a subset: Ville's dynamic branching factor).  Candidates are tried in
 * order of that bound; the parts of a candidate are solved one by one,
 * each with the budget the others' bounds leave, and each exact value
 * replaces its bound as soon as it is known, so a candidate is dropped the
 * moment its bound passes the best value found.  The parts go smallest
 * first (they are cheap and leave the exact budget to the big ones), and
 * before any is solved each is raised to its one-guess-ahead bound, which
 * drops most losing guesses without solving anything.  Sets of at most
 * SMALL_SET codes score a guess by its number of replies alone (2m - 1
 * bounds a part of m codes as well as the perfect tree does there).
 *
 * Shortcuts: sets of 1 and 2 codes are solved outright; a guess that
 * separates every code is optimal (2n-1 when it can be the code, 2n and
 * worst case 2 when it cannot and none that can does), and the scoring
 * stops at the first.  A set of 3 codes thus costs a few scores: 5, or 6
 * with worst case 2, or else 6 with worst case 3 by guessing its first
 * code (the other codes of the set tie; any other guess needs 7).
 *
 * Both cores: the first guesses are shared out, or, below 2000 codes, the
 * parts of the first guess (see orootjob and opartjob).
 *
 * Symmetry: a code is scored only when it is the lexically first of its
 * class, the classes being those of the colour and position permutations
 * that keep every guess of the path in place, with colours never played
 * ("free") interchangeable and colours no code of S contains ("zero")
 * interchangeable peg by peg.  All codes of a class make partitions that
 * the permutation maps onto each other, so they have the same value; the
 * first of a class is the one the tie order would take.
 *
 * Values are (total, worst case) pairs, compared in that order; with ties
 * the search also finds the first optimal guess in tie order, by letting a
 * guess earlier in that order through at an equal value.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules.h"
#include "core/grow.h"
#include "slice.h"

typedef struct ocand {
    oval lb;
    uint32_t idx;   /* position in the tie order */
    uint16_t k;     /* parts besides the winning one */
    uint8_t cons;
} ocand;

typedef struct opart {
    uint32_t start, n;
    oval v;         /* exact value or lower bound */
    bool exact;
} opart;

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
    /* Class representatives under group reps_serial and zero colours
     * reps_zero, consistent or not: the sets after one guess share them. */
    mm_code *reps;
    uint32_t nreps;
    size_t rcap;
    uint64_t reps_serial;
    uint16_t reps_zero;
    bool reps_valid;
} olevel;

static atomic_uint_fast64_t group_serial = 1;   /* 0: the root's group */

#define MAX_LEVELS 64
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define OPT_AVX2 1
#endif
static bool use_avx2;   /* set once, by detect_cpu */

static void detect_cpu(void)
{
#ifdef OPT_AVX2
    __builtin_cpu_init();
    use_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#endif
}
#define SMALL_SET 32   /* sets scored by their replies only */
#define SCORE_CHUNK 64 /* guesses scored before looking for a separator */

double opt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- set-up ---- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Smallest depth d with 1 + k + ... + k^(d-1) >= m. */
static int perfect_depth(uint64_t m, int k)
{
    uint64_t t = 0, level = 1;
    int d = 0;
    if (m == 0)
        return 0;
    if (k <= 1)   /* one code a level */
        return m > 63 ? 63 : (int)m;
    while (t < m) {
        t += level;
        d++;
        level = level > UINT64_MAX / (uint64_t)k ? UINT64_MAX / 2 : level * (uint64_t)k;
    }
    return d;
}

static oval lower_calc(uint64_t m, int k)
{
    if (k < 1)
        k = 1;
    int d = perfect_depth(m, k);
    return OV(rules_perfect_total(m, (uint64_t)k + 1), d > 63 ? 63 : d);
}

oval opt_lower(const oshared *sh, uint32_t m, int k)
{
    if (m <= sh->lbmax && k <= sh->g->nreplies)
        return sh->lbtab[(size_t)k * (sh->lbmax + 1) + m];
    return lower_calc(m, k);
}

mm_status oshared_init(oshared *sh, const mm_game *g, size_t cache_bytes)
{
    memset(sh, 0, sizeof *sh);
    pthread_mutex_init(&sh->mx, NULL);
    pthread_cond_init(&sh->cv_job, NULL);
    pthread_cond_init(&sh->cv_done, NULL);
    sh->g = g;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, detect_cpu);
    sh->answers = __builtin_popcountll(mm_game_reply_set(g));
    sh->r1 = malloc((size_t)g->ncodes * sizeof *sh->r1);
    sh->r2 = malloc((size_t)g->ncodes * sizeof *sh->r2);
    sh->lbmax = g->ncodes < 65536 ? g->ncodes : 65536;
    size_t R = (size_t)g->nreplies + 1;
    sh->lbtab = malloc(R * (sh->lbmax + 1) * sizeof *sh->lbtab);
    sh->gbits = malloc((size_t)g->ncodes * sizeof *sh->gbits);
    if (!sh->r1 || !sh->r2 || !sh->lbtab || !sh->gbits)
        goto nomem;
    for (mm_code x = 0; x < g->ncodes; x++)
        slice_guess_bits(g, x, &sh->gbits[x]);
    uint64_t seed = 0x6d6d74726565u;   /* fixed: checkpoints stay valid */
    for (mm_code x = 0; x < g->ncodes; x++) {
        sh->r1[x] = splitmix(&seed);
        sh->r2[x] = splitmix(&seed);
    }
    for (size_t k = 0; k < R; k++)
        for (uint32_t m = 0; m <= sh->lbmax; m++)
            sh->lbtab[k * (sh->lbmax + 1) + m] = lower_calc(m, (int)k);
    if (cache_bytes && ocache_init(&sh->cache, cache_bytes))
        goto nomem;
    sh->use_cache = cache_bytes != 0;
    atomic_init(&sh->abort, 0);
    atomic_flag_clear(&sh->clock_busy);
    sh->next_progress = sh->next_ckpt = 1e300;
    return MM_OK;
nomem:
    oshared_release(sh);
    return MM_ERR_NOMEM;
}

void oshared_release(oshared *sh)
{
    free(sh->r1);
    free(sh->r2);
    free(sh->lbtab);
    free(sh->gbits);
    ocache_release(&sh->cache);
    pthread_mutex_destroy(&sh->mx);
    pthread_cond_destroy(&sh->cv_job);
    pthread_cond_destroy(&sh->cv_done);
    memset(sh, 0, sizeof *sh);
}

mm_status oworker_init(oworker *w, oshared *sh)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->nlv = MAX_LEVELS;
    w->lv = calloc(MAX_LEVELS, sizeof *w->lv);
    w->in_s = calloc(sh->g->ncodes, 1);
    if (!w->lv || !w->in_s) {
        oworker_release(w);
        return MM_ERR_NOMEM;
    }
    return MM_OK;
}

void oworker_release(oworker *w)
{
    if (w->lv)
        for (int i = 0; i < w->nlv; i++) {
            olevel *l = &w->lv[i];
            free(l->sp);
            free(l->so);
            slice_release(&l->sl);
            free(l->cand);
            free(l->nk);
            free(l->hist);
            free(l->ci);
            free(l->parts);
            free(l->reps);
            ogroup_release(&l->grp);
        }
    free(w->lv);
    free(w->in_s);
    memset(w, 0, sizeof *w);
}

void oworker_flush(oworker *w)
{
    oshared *sh = w->sh;
    atomic_fetch_add(&sh->nodes, w->nodes);
    atomic_fetch_add(&sh->hits, w->hits);
    atomic_fetch_add(&sh->guesses, w->guesses);
    atomic_fetch_add(&sh->guesses_all, w->guesses_all);
    w->nodes = w->hits = w->guesses = w->guesses_all = 0;
}

void opt_hash(const oshared *sh, const mm_code *S, uint32_t n, uint64_t *h1,
              uint64_t *h2)
{
    uint64_t a = (uint64_t)n * 0xd6e8feb86659fd93u, b = sh->salt;
    for (uint32_t i = 0; i < n; i++) {
        a += sh->r1[S[i]];
        b += sh->r2[S[i]];
    }
    *h1 = a;
    *h2 = b;
}

/* ---- symmetry ---- */

static mm_status group_reserve(ogroup *G, int n)
{
    if ((size_t)n <= G->cap)
        return MM_OK;
    size_t cap = grow_cap(G->cap, (size_t)n, 8, sizeof *G->cmap);
    void *p = cap ? realloc(G->perm, cap * sizeof *G->perm) : NULL;
    if (!p)
        return MM_ERR_NOMEM;
    G->perm = p;
    p = realloc(G->cmap, cap * sizeof *G->cmap);
    if (!p)
        return MM_ERR_NOMEM;
    G->cmap = p;
    G->cap = cap;
    return MM_OK;
}

void ogroup_release(ogroup *G)
{
    free(G->perm);
    free(G->cmap);
    memset(G, 0, sizeof *G);
}

/* Every position permutation but the identity; beyond 7 pegs (5040
 * permutations) positions are left alone: no such game is solvable. */
mm_status ogroup_root(ogroup *G, const mm_game *g, bool no_symmetry)
{
    memset(G, 0, sizeof *G);
    int p = g->pegs;
    if (no_symmetry || p > 7 || p < 2)
        return MM_OK;
    int a[MM_MAX_PEGS];
    for (int i = 0; i < p; i++)
        a[i] = i;
    /* Lexical successor walk over permutations. */
    for (;;) {
        int i = p - 2;
        while (i >= 0 && a[i] > a[i + 1])
            i--;
        if (i < 0)
            break;
        int j = p - 1;
        while (a[j] < a[i])
            j--;
        int t = a[i]; a[i] = a[j]; a[j] = t;
        for (int l = i + 1, r = p - 1; l < r; l++, r--) {
            t = a[l]; a[l] = a[r]; a[r] = t;
        }
        if (group_reserve(G, G->ne + 1)) {
            ogroup_release(G);
            return MM_ERR_NOMEM;
        }
        for (int k = 0; k < p; k++)
            G->perm[G->ne][k] = (uint8_t)a[k];
        memset(G->cmap[G->ne], 0xff, sizeof G->cmap[G->ne]);
        G->ne++;
    }
    return MM_OK;
}

/* Keep the elements that, extended by the colour map guess q forces,
 * still map every guess of the path onto itself. */
mm_status ogroup_after(const ogroup *G, const mm_game *g, mm_code q,
                       ogroup *out)
{
    int p = g->pegs, x[MM_MAX_PEGS];
    for (int j = 0; j < p; j++)
        x[j] = mm_code_peg(g, q, j);
    out->played = (uint16_t)(G->played | g->colorset[q]);
    out->serial = atomic_fetch_add(&group_serial, 1);
    out->ne = 0;
    if (group_reserve(out, G->ne))
        return MM_ERR_NOMEM;
    for (int e = 0; e < G->ne; e++) {
        uint8_t cm[MM_MAX_COLORS];
        memcpy(cm, G->cmap[e], sizeof cm);
        bool ok = true;
        for (int j = 0; j < p && ok; j++) {
            int from = x[j], to = x[G->perm[e][j]];
            if (cm[from] != 0xff) {
                ok = cm[from] == to;
                continue;
            }
            /* to must not be the image of another colour already */
            for (int k = 0; k < g->colors && ok; k++)
                ok = cm[k] != to;
            cm[from] = (uint8_t)to;
        }
        if (!ok)
            continue;
        memcpy(out->perm[out->ne], G->perm[e], sizeof out->perm[0]);
        memcpy(out->cmap[out->ne], cm, sizeof cm);
        out->ne++;
    }
    return MM_OK;
}

/* Zero and free colours at a node. */
typedef struct ozf {
    uint16_t zero, free;
    int nzero, nfree;
    int zl[MM_MAX_COLORS], fl[MM_MAX_COLORS];
} ozf;

static void zf_init(ozf *z, const oshared *sh, const ogroup *G, const mm_code *S,
                    uint32_t n)
{
    const mm_game *g = sh->g;
    uint16_t all = (uint16_t)((1u << g->colors) - 1), present = 0;
    memset(z, 0, sizeof *z);
    if (sh->no_symmetry)
        return;
    for (uint32_t i = 0; i < n && present != all; i++)
        present |= g->colorset[S[i]];
    z->zero = (uint16_t)(all & ~present);
    z->free = (uint16_t)(all & ~G->played & ~z->zero);
    for (int k = 0; k < g->colors; k++) {
        if (z->zero >> k & 1)
            z->zl[z->nzero++] = k;
        if (z->free >> k & 1)
            z->fl[z->nfree++] = k;
    }
}

/* Is x the first code of its class under zero and free colour changes
 * (normalize(x) == x)?  One pass, out at the first difference. */
static bool is_normal(const ozf *z, bool repeat, int p, const int *x)
{
    int nf = 0, nz = 0;
    unsigned fset = 0;
    for (int j = 0; j < p; j++) {
        int k = x[j];
        if (z->zero >> k & 1) {
            if (k != (repeat ? z->zl[0] : z->zl[nz++]))
                return false;
        } else if ((z->free >> k & 1) && !(fset >> k & 1)) {
            if (k != z->fl[nf++])
                return false;
            fset |= 1u << k;
        }
    }
    return true;
}

/* Compare the first code of img's class under zero and free colour
 * changes with x, position by position, out at the first difference:
 * each zero colour of img becomes the first zero one (without
 * repetition: the next), each free colour the next free one not used
 * yet.  Maps are read only where their bit says they were written. */
static int normal_cmp(const ozf *z, bool repeat, int p, const int *img, const int *x)
{
    int fmap[MM_MAX_COLORS], nf = 0, nz = 0;
    unsigned fset = 0;
    for (int j = 0; j < p; j++) {
        int k = img[j], y;
        if (z->zero >> k & 1) {
            y = repeat ? z->zl[0] : z->zl[nz++];
        } else if (z->free >> k & 1) {
            if (!(fset >> k & 1)) {
                fset |= 1u << k;
                fmap[k] = z->fl[nf++];
            }
            y = fmap[k];
        } else {
            y = k;
        }
        if (y != x[j])
            return y < x[j] ? -1 : 1;
    }
    return 0;
}

/* Is x (already normal under zero and free colours) the first of its
 * class under the group? */
static bool group_first(const ogroup *G, const ozf *z, bool repeat, int p,
                        const int *x)
{
    int img[MM_MAX_PEGS];
    for (int e = 0; e < G->ne; e++) {
        const uint8_t *s = G->perm[e], *cm = G->cmap[e];
        for (int j = 0; j < p; j++) {
            int k = x[j];
            img[s[j]] = (G->played >> k & 1) ? cm[k] : k;
        }
        if (normal_cmp(z, repeat, p, img, x) < 0)
            return false;
    }
    return true;
}

/* Room for need candidates: their codes, reply counts, histograms (R
 * counters each) and order entries, all with one capacity. */
static bool level_reserve_cand(olevel *l, uint32_t need, int R)
{
    if (need <= l->ccap)
        return true;
    size_t c = grow_cap(l->ccap, need, 64, (size_t)R * sizeof *l->hist);
    mm_code *a = c ? realloc(l->cand, c * sizeof *a) : NULL;
    if (!a)
        return false;
    l->cand = a;
    uint8_t *k = realloc(l->nk, c);
    if (!k)
        return false;
    l->nk = k;
    uint32_t *h = realloc(l->hist, c * (size_t)R * sizeof *h);
    if (!h)
        return false;
    l->hist = h;
    ocand *ci = realloc(l->ci, c * sizeof *ci);
    if (!ci)
        return false;
    l->ci = ci;
    l->ccap = c;
    return true;
}

typedef struct gen {
    const mm_game *g;
    olevel *l;
    const ogroup *G;
    const ozf *z;
    bool fail;
} gen;

/* Class representatives, in lexical order, into l->reps: a walk over the
 * pegs offering only the first zero colour (the next unused one without
 * repetition) and the next free colour not used yet, the code's rank
 * kept on the way. */
static void gen_rec(gen *st, int i, int *peg, unsigned used, int nz, int nf,
                    uint64_t rank)
{
    const mm_game *g = st->g;
    const ozf *z = st->z;
    if (st->fail)
        return;
    if (i == g->pegs) {
        if (!group_first(st->G, z, g->repeat, g->pegs, peg))
            return;
        olevel *l = st->l;
        mm_code *r = grow_array(l->reps, &l->rcap, l->nreps + 1, 64, sizeof *r);
        if (!r) {
            st->fail = true;
            return;
        }
        l->reps = r;
        l->reps[l->nreps++] = (mm_code)rank;
        return;
    }
    for (int k = 0; k < g->colors; k++) {
        if (!g->repeat && (used >> k & 1u))
            continue;
        int nz2 = nz, nf2 = nf;
        if (z->zero >> k & 1) {
            if (k != (g->repeat ? z->zl[0] : z->zl[nz]))
                continue;
            nz2++;
        } else if (z->free >> k & 1) {
            if (!(used >> k & 1u)) {
                if (k != z->fl[nf])
                    continue;
                nf2++;
            }
        }
        peg[i] = k;
        uint64_t r = g->repeat ? rank * (uint64_t)g->colors + (uint64_t)k
                               : rank * (uint64_t)(g->colors - i) +
                                     (uint64_t)__builtin_popcount(~used & ((1u << k) - 1));
        gen_rec(st, i + 1, peg, used | 1u << k, nz2, nf2, r);
    }
}

/* Consistent class representatives, in lexical order, from l->cand[0]. */
static mm_status cand_consistent(oworker *w, olevel *l, const ogroup *G,
                                 const ozf *z, const mm_code *S, uint32_t n,
                                 uint32_t *ncons)
{
    const mm_game *g = w->sh->g;
    if (!level_reserve_cand(l, n, g->nreplies))
        return MM_ERR_NOMEM;
    uint32_t k = 0;
    int x[MM_MAX_PEGS];
    for (uint32_t i = 0; i < n; i++) {
        for (int j = 0; j < g->pegs; j++)
            x[j] = mm_code_peg(g, S[i], j);
        if (!is_normal(z, g->repeat, g->pegs, x) || !group_first(G, z, g->repeat, g->pegs, x))
            continue;
        l->cand[k++] = S[i];
    }
    *ncons = k;
    w->guesses += k;
    w->guesses_all += n;
    return MM_OK;
}

/* Inconsistent class representatives, in lexical order, after the ncons
 * consistent ones; *ncand gets the count of both. */
static mm_status cand_inconsistent(oworker *w, olevel *l, const ogroup *G,
                                   const ozf *z, const mm_code *S, uint32_t n,
                                   uint32_t ncons, uint32_t *ncand)
{
    const mm_game *g = w->sh->g;
    for (uint32_t i = 0; i < n; i++)
        w->in_s[S[i]] = 1;
    uint32_t count = ncons;
    bool fail = false;
    if (G->ne == 0 && z->nfree <= 1 && (g->repeat || z->nzero <= 1)) {
        /* Common deep in the tree: a class is one code, up to a single
         * zero colour and a single free colour; a scan is faster. */
        uint16_t other = (uint16_t)((z->zero & ~(z->nzero ? 1u << z->zl[0] : 0u)) |
                                    (z->free & ~(z->nfree ? 1u << z->fl[0] : 0u)));
        fail = !level_reserve_cand(l, ncons + g->ncodes - n, g->nreplies);
        for (mm_code x = 0; x < g->ncodes && !fail; x++)
            if (!w->in_s[x] && !(g->colorset[x] & other))
                l->cand[count++] = x;
    } else {
        if (!l->reps_valid || l->reps_serial != G->serial || l->reps_zero != z->zero) {
            gen st = {g, l, G, z, false};
            int peg[MM_MAX_PEGS];
            l->nreps = 0;
            gen_rec(&st, 0, peg, 0, 0, 0, 0);
            l->reps_valid = !st.fail;
            l->reps_serial = G->serial;
            l->reps_zero = z->zero;
            fail = st.fail;
        }
        fail = fail || !level_reserve_cand(l, ncons + l->nreps, g->nreplies);
        for (uint32_t i = 0; i < l->nreps && !fail; i++)
            if (!w->in_s[l->reps[i]])
                l->cand[count++] = l->reps[i];
    }
    for (uint32_t i = 0; i < n; i++)
        w->in_s[S[i]] = 0;
    if (fail)
        return MM_ERR_NOMEM;
    *ncand = count;
    w->guesses += count - ncons;
    w->guesses_all += g->ncodes - n;
    return MM_OK;
}

/* ---- scoring ---- */

static bool load_masks(olevel *l, const mm_game *g, const mm_code *S, uint32_t n)
{
    size_t words = g->wide ? 2 : 1;
    if (n * words > l->scap) {
        size_t cap = grow_cap(l->scap, n * words, 64, sizeof *l->sp);
        uint64_t *a = cap ? realloc(l->sp, cap * sizeof *a) : NULL;
        if (!a)
            return false;
        l->sp = a;
        a = realloc(l->so, cap * sizeof *a);
        if (!a)
            return false;
        l->so = a;
        l->scap = cap;
    }
    for (uint32_t i = 0; i < n; i++) {
        memcpy(l->sp + words * i, g->pos + words * S[i], words * sizeof *l->sp);
        memcpy(l->so + words * i, g->occ + words * S[i], words * sizeof *l->so);
    }
    return true;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static void histogram(const oshared *sh, const olevel *l, uint32_t n, mm_code x,
                      uint32_t *h)
{
    const mm_game *g = sh->g;
    const uint8_t *slot = &g->slot[0][0];
    if (n > SMALL_SET) {
        slice_histogram(&l->sl, g, &sh->gbits[x], h);
        return;
    }
    memset(h, 0, (size_t)g->nreplies * sizeof *h);
    if (g->wide) {
        uint64_t p0 = g->pos[2 * (size_t)x], p1 = g->pos[2 * (size_t)x + 1];
        uint64_t o0 = g->occ[2 * (size_t)x], o1 = g->occ[2 * (size_t)x + 1];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(p0 & l->sp[2 * i]) + __builtin_popcountll(p1 & l->sp[2 * i + 1]);
            int t = __builtin_popcountll(o0 & l->so[2 * i]) + __builtin_popcountll(o1 & l->so[2 * i + 1]);
            h[slot[b * (MM_MAX_PEGS + 1) + t]]++;
        }
        return;
    }
    uint64_t gp = g->pos[x], go = g->occ[x];
    for (uint32_t i = 0; i < n; i++) {
        int b = __builtin_popcountll(gp & l->sp[i]);
        int t = __builtin_popcountll(go & l->so[i]);
        h[slot[b * (MM_MAX_PEGS + 1) + t]]++;
    }
}

/* How many different replies guess x gets from the codes of S (the
 * winning one included): bit b*(p+1)+hits stands for a reply, which fits
 * 64 bits up to 7 pegs. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static int reply_count(const mm_game *g, const olevel *l, uint32_t n, mm_code x)
{
    uint64_t m = 0;
    if (g->wide) {
        const uint8_t *slot = &g->slot[0][0];
        uint64_t p0 = g->pos[2 * (size_t)x], p1 = g->pos[2 * (size_t)x + 1];
        uint64_t o0 = g->occ[2 * (size_t)x], o1 = g->occ[2 * (size_t)x + 1];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(p0 & l->sp[2 * i]) + __builtin_popcountll(p1 & l->sp[2 * i + 1]);
            int t = __builtin_popcountll(o0 & l->so[2 * i]) + __builtin_popcountll(o1 & l->so[2 * i + 1]);
            m |= UINT64_C(1) << slot[b * (MM_MAX_PEGS + 1) + t];
        }
        return __builtin_popcountll(m);
    }
    /* narrow: p*c <= 64, so p <= 7 unless c == 8... p = 8 needs c <= 8 */
    uint64_t gp = g->pos[x], go = g->occ[x];
    int w = g->pegs + 1;
    if (w * w <= 64) {
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(gp & l->sp[i]);
            int t = __builtin_popcountll(go & l->so[i]);
            m |= UINT64_C(1) << (b * w + t);
        }
    } else {
        const uint8_t *slot = &g->slot[0][0];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(gp & l->sp[i]);
            int t = __builtin_popcountll(go & l->so[i]);
            m |= UINT64_C(1) << slot[b * (MM_MAX_PEGS + 1) + t];
        }
    }
    return __builtin_popcountll(m);
}

#ifdef OPT_AVX2
/* Per byte, black * w + hits for the bits of that byte: the popcount of
 * each nibble from a table, scaled by w for the position bits (bytes stay
 * below 256: 8 * 9 + 8).  Summing a lane's bytes gives the reply cell. */
typedef struct nibbles {
    __m256i lut, lutw, low;
} nibbles;

__attribute__((target("avx2")))
static inline nibbles nibbles_init(int w)
{
    nibbles k;
    k.lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                             0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    k.lutw = _mm256_mullo_epi16(k.lut, _mm256_set1_epi16((short)w));
    k.low = _mm256_set1_epi8(0x0f);
    return k;
}

/* a: position bits in common, b: occurrence bits in common. */
__attribute__((target("avx2")))
static inline __m256i byte_cells(const nibbles *k, __m256i a, __m256i b)
{
    return _mm256_add_epi8(
        _mm256_add_epi8(_mm256_shuffle_epi8(k->lutw, _mm256_and_si256(a, k->low)),
                        _mm256_shuffle_epi8(k->lutw, _mm256_and_si256(_mm256_srli_epi16(a, 4), k->low))),
        _mm256_add_epi8(_mm256_shuffle_epi8(k->lut, _mm256_and_si256(b, k->low)),
                        _mm256_shuffle_epi8(k->lut, _mm256_and_si256(_mm256_srli_epi16(b, 4), k->low))));
}

/* reply_count of four guesses at a time: the guesses in the lanes, the
 * codes of S broadcast one by one.  No work per guess beyond its lane,
 * which pays on small sets, where a guess's own loop is mostly set-up. */
__attribute__((target("avx2,popcnt")))
static void reply_counts_avx2(const uint64_t *sp, const uint64_t *so, uint32_t n,
                              const mm_game *g, const mm_code *cand, uint32_t nc,
                              uint8_t *out)
{
    const int w = g->pegs + 1;
    const nibbles k = nibbles_init(w);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1);
    uint32_t c = 0;
    for (; c + 4 <= nc; c += 4) {
        const __m256i gp = _mm256_setr_epi64x((long long)g->pos[cand[c]], (long long)g->pos[cand[c + 1]],
                                              (long long)g->pos[cand[c + 2]], (long long)g->pos[cand[c + 3]]);
        const __m256i go = _mm256_setr_epi64x((long long)g->occ[cand[c]], (long long)g->occ[cand[c + 1]],
                                              (long long)g->occ[cand[c + 2]], (long long)g->occ[cand[c + 3]]);
        __m256i acc = zero;
        for (uint32_t i = 0; i < n; i++) {
            __m256i a = _mm256_and_si256(_mm256_set1_epi64x((long long)sp[i]), gp);
            __m256i b = _mm256_and_si256(_mm256_set1_epi64x((long long)so[i]), go);
            __m256i cell = _mm256_sad_epu8(byte_cells(&k, a, b), zero);
            acc = _mm256_or_si256(acc, _mm256_sllv_epi64(one, cell));
        }
        uint64_t m[4];
        _mm256_storeu_si256((__m256i *)m, acc);
        for (int j = 0; j < 4; j++)
            out[c + j] = (uint8_t)__builtin_popcountll(m[j]);
    }
    for (; c < nc; c++) {
        uint64_t m = 0, gp = g->pos[cand[c]], go = g->occ[cand[c]];
        for (uint32_t i = 0; i < n; i++)
            m |= UINT64_C(1) << (__builtin_popcountll(gp & sp[i]) * w +
                                 __builtin_popcountll(go & so[i]));
        out[c] = (uint8_t)__builtin_popcountll(m);
    }
}

/* The same with eight guesses in 32-bit lanes, when a code's masks fit
 * 32 bits (p * c <= 32) and so do its replies ((p + 1)^2 <= 32, p <= 4):
 * MM(4,6) to MM(4,8).  The byte sums of a lane are added by two
 * multiply-adds with ones. */
__attribute__((target("avx2,popcnt")))
static void reply_counts_avx2_32(const uint64_t *sp, const uint64_t *so, uint32_t n,
                                 const mm_game *g, const mm_code *cand, uint32_t nc,
                                 uint8_t *out)
{
    const nibbles k = nibbles_init(g->pegs + 1);
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
    const __m256i one = _mm256_set1_epi32(1);
    uint32_t c = 0;
    for (; c + 8 <= nc; c += 8) {
        uint32_t p8[8], o8[8];
        for (int j = 0; j < 8; j++) {
            p8[j] = (uint32_t)g->pos[cand[c + j]];
            o8[j] = (uint32_t)g->occ[cand[c + j]];
        }
        const __m256i gp = _mm256_loadu_si256((const __m256i *)p8);
        const __m256i go = _mm256_loadu_si256((const __m256i *)o8);
        __m256i acc = _mm256_setzero_si256();
        for (uint32_t i = 0; i < n; i++) {
            __m256i a = _mm256_and_si256(_mm256_set1_epi32((int)(uint32_t)sp[i]), gp);
            __m256i b = _mm256_and_si256(_mm256_set1_epi32((int)(uint32_t)so[i]), go);
            __m256i cell = _mm256_madd_epi16(_mm256_maddubs_epi16(byte_cells(&k, a, b), ones8),
                                             ones16);
            acc = _mm256_or_si256(acc, _mm256_sllv_epi32(one, cell));
        }
        uint32_t m[8];
        _mm256_storeu_si256((__m256i *)m, acc);
        for (int j = 0; j < 8; j++)
            out[c + j] = (uint8_t)__builtin_popcount(m[j]);
    }
    if (c < nc)
        reply_counts_avx2(sp, so, n, g, cand + c, nc - c, out + c);
}
#endif

/* Replies x gets (the winning one counted); its histogram too unless
 * the set is small. */
static inline int score(const oshared *sh, const olevel *l, uint32_t n, mm_code x,
                        bool small, uint32_t *h)
{
    const mm_game *g = sh->g;
    if (small)
        return reply_count(g, l, n, x);
    histogram(sh, l, n, x, h);
    int c = 0;
    for (int s = 0; s < g->nreplies; s++)
        c += h[s] != 0;
    return c;
}

/* Replies (the winning one counted) of candidates from..to-1 into
 * l->nk, and their histograms unless the set is small. */
static void score_range(const oshared *sh, olevel *l, uint32_t n, uint32_t from,
                        uint32_t to, bool small)
{
    const mm_game *g = sh->g;
#ifdef OPT_AVX2
    bool avx2 = use_avx2 && !sh->no_simd;
    if (small && avx2 && g->pegs <= 4 && g->pegs * g->colors <= 32) {
        reply_counts_avx2_32(l->sp, l->so, n, g, l->cand + from, to - from, l->nk + from);
        return;
    }
    if (small && avx2 && !g->wide && (g->pegs + 1) * (g->pegs + 1) <= 64) {
        reply_counts_avx2(l->sp, l->so, n, g, l->cand + from, to - from, l->nk + from);
        return;
    }
#endif
    for (uint32_t c = from; c < to; c++)
        l->nk[c] = (uint8_t)score(sh, l, n, l->cand[c], small,
                                  l->hist + (size_t)c * g->nreplies);
}

/* Split S by q into l->parts, grouped by slot in slot order; each part
 * keeps the order of S. */
static bool split(olevel *l, const mm_game *g, const mm_code *S, uint32_t n,
                  mm_code q, const uint32_t *h, opart *pt, int *npart,
                  uint32_t *win)
{
    uint32_t pos[MM_MAX_REPLIES];
    mm_code *parts = grow_array(l->parts, &l->pcap, n, 64, sizeof *parts);
    if (!parts)
        return false;
    l->parts = parts;
    uint32_t acc = 0;
    int np = 0;
    *win = 0;
    for (int s = 0; s < g->nreplies; s++) {
        pos[s] = acc;
        if (h[s] && s != g->win)
            pt[np++] = (opart){acc, h[s], 0, false};
        if (s == g->win)
            *win = h[s];
        acc += h[s];
    }
    for (uint32_t i = 0; i < n; i++)
        l->parts[pos[mm_game_score(g, q, S[i])]++] = S[i];
    *npart = np;
    return true;
}

/* ---- the search ---- */

/* Progress report and periodic checkpoint. */
static void on_clock(oworker *w, double now)
{
    oshared *sh = w->sh;
    if (atomic_flag_test_and_set(&sh->clock_busy))
        return;
    if (sh->progress && now >= sh->next_progress) {
        sh->next_progress = now + 1;
        mm_optimal_report r;
        memset(&r, 0, sizeof r);
        r.elapsed = now - sh->t0;
        r.nodes = atomic_load(&sh->nodes) + w->nodes;
        oval best = atomic_load(&sh->root_best);   /* the incumbent, if any yet */
        r.total = best < OV_INF && OV_T(best) < sh->upper ? OV_T(best) : sh->upper;
        r.lower = OV_T(sh->root_lower);
        unsigned nc = atomic_load(&sh->root_nc);
        r.done = nc ? (double)atomic_load(&sh->root_i) / nc : 0;
        sh->progress(sh->progress_arg, &r);
    }
    if (sh->ckpt_path && sh->use_cache && now >= sh->next_ckpt) {
        sh->next_ckpt = now + sh->ckpt_every;
        /* a failed periodic save is tried again at the end, which reports */
        (void)ocache_save(&sh->cache, sh->ckpt_path, sh->ckpt_tag, 3, NULL);
    }
    atomic_flag_clear(&sh->clock_busy);
}

static bool stopping(oworker *w)
{
    oshared *sh = w->sh;
    if (atomic_load_explicit(&sh->abort, memory_order_relaxed))
        return true;
    if (sh->stop && *sh->stop) {
        atomic_store(&sh->abort, 1);
        return true;
    }
    if (++w->tick >= 256) {
        w->tick = 0;
        double now = opt_now();
        if (sh->deadline > 0 && now >= sh->deadline) {
            atomic_store(&sh->abort, 1);
            return true;
        }
        on_clock(w, now);
    }
    return false;
}

static int cmp_cand(const void *a, const void *b)
{
    const ocand *x = a, *y = b;
    if (x->lb != y->lb)
        return x->lb < y->lb ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Bring the least candidate of ci[i..nc) to i.  Most nodes look at a
 * few candidates only, so they are picked one by one; a node that goes on
 * sorts the rest once. */
#define PICKS 8
static void next_cand(ocand *ci, uint32_t i, uint32_t nc)
{
    if (i > PICKS)
        return;
    if (i == PICKS) {
        qsort(ci + i, nc - i, sizeof *ci, cmp_cand);
        return;
    }
    uint32_t m = i;
    for (uint32_t j = i + 1; j < nc; j++)
        if (ci[j].lb < ci[m].lb || (ci[j].lb == ci[m].lb && ci[j].idx < ci[m].idx))
            m = j;
    ocand t = ci[i];
    ci[i] = ci[m];
    ci[m] = t;
}

/* Value of the candidate from its parts: |S| guesses now, the parts'
 * totals after, worst case one more than the deepest part. */
static oval sum_parts(uint32_t n, const opart *pt, int np)
{
    uint64_t t = n;
    int wmax = 1;
    for (int i = 0; i < np; i++) {
        t += OV_T(pt[i].v);
        if (1 + OV_W(pt[i].v) > wmax)
            wmax = 1 + OV_W(pt[i].v);
    }
    if (t >= OV_T(OV_INF) || wmax > 63)
        return OV_INF;
    return OV(t, wmax);
}

/* The largest value part i may take for the candidate to stay within
 * bound, the other parts at their current values; 0 when none fits. */
static oval part_limit(uint32_t n, const opart *pt, int np, int i, oval bound)
{
    uint64_t r = n;
    int wo = 1;
    for (int j = 0; j < np; j++) {
        if (j == i)
            continue;
        r += OV_T(pt[j].v);
        if (1 + OV_W(pt[j].v) > wo)
            wo = 1 + OV_W(pt[j].v);
    }
    uint64_t bt = OV_T(bound);
    int bw = OV_W(bound);
    if (bt <= r)
        return 0;
    uint64_t room = bt - r;
    /* total below room, or equal with a worst case that keeps the
     * candidate's worst within bw */
    if (wo <= bw)
        return OV(room, bw - 1);
    return OV(room, 0) - 1;
}

static oval part_value(oworker *w, uint32_t m, const mm_code *P, int k,
                       int depth, bool *exact)
{
    oshared *sh = w->sh;
    *exact = true;
    if (m == 1)
        return OV(1, 1);
    if (m == 2)
        return OV(3, 2);
    *exact = false;
    oval lb = opt_lower(sh, m, k);
    if (sh->use_cache) {
        uint64_t h1, h2;
        oentry e;
        opt_hash(sh, P, m, &h1, &h2);
        if (ocache_get(&sh->cache, h1, h2, depth, &e)) {
            oval v = oentry_value(&e);
            if (oentry_flags(&e) & OC_EXACT) {
                *exact = true;
                return v;
            }
            if (v > lb)
                lb = v;
        }
    }
    (void)depth;
    return lb;
}

/* Smallest parts first: they are solved quickly and leave the exact
 * budget to the big ones, which is where the pruning pays. */
static int cmp_part_size(const void *a, const void *b)
{
    const opart *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

/* The search stopped at level 0 while candidate i was being solved: what
 * is proven is the least bound of all candidates. */
static void root_stopped(oshared *sh, const olevel *l, uint32_t i, uint32_t nc,
                         oval current, oval minfail, bool have, oval best)
{
    oval lower = minfail;
    if (current < lower)
        lower = current;
    for (uint32_t j = i + 1; j < nc; j++)   /* not all in order yet */
        if (l->ci[j].lb < lower)
            lower = l->ci[j].lb;
    if (have && best < lower)
        lower = best;
    sh->root_lower = lower;
}

/* ---- both cores ----
 * The guesses of a set are handed out to the threads of the pool and to
 * the main search; each is solved with the budget that the best value
 * found so far leaves, read again before each of its parts. */
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

/* The parts after one guess, shared out: each thread takes the next
 * part with the budget that the other parts' values leave at that
 * moment.  Values only rise, so a budget taken early is looser than
 * needed, never tighter: when the guess stays within its bound, every
 * part came back exact.  Smallest first, as on one thread: by the time
 * the big parts start, most small ones are exact, and the big parts get
 * budgets nearly as tight as one thread would give them (largest first
 * searched twice the sets on MM(4,6)). */
typedef struct opartjob {
    int lv;                 /* the parts' level */
    const ogroup *G;        /* the group after the guess */
    const mm_code *codes;   /* the parts, as split by the main search */
    opart *pt;
    int np;
    uint32_t n;
    oval bound;
    int depth;
    bool ties;
    int order[MM_MAX_REPLIES];
    int norder, next;
    int active;
    bool over;              /* the sum passed the bound: take no more */
} opartjob;

static void rjob_work(oworker *w, orootjob *rj);
static void pjob_work(oworker *w, opartjob *pj);

void *opt_helper(void *arg)
{
    oworker *w = arg;
    oshared *sh = w->sh;
    pthread_mutex_lock(&sh->mx);
    for (;;) {
        while (!sh->pool_quit &&
               ((!sh->rjob && !sh->pjob) || sh->job_gen == w->job_seen))
            pthread_cond_wait(&sh->cv_job, &sh->mx);
        if (sh->pool_quit)
            break;
        w->job_seen = sh->job_gen;
        if (sh->pjob)
            pjob_work(w, sh->pjob);
        else
            rjob_work(w, sh->rjob);
    }
    pthread_mutex_unlock(&sh->mx);
    return NULL;
}

/* Called and returns with sh->mx held. */
static void pjob_work(oworker *w, opartjob *pj)
{
    oshared *sh = w->sh;
    pj->active++;
    while (pj->next < pj->norder && !pj->over && !atomic_load(&sh->abort)) {
        int j = pj->order[pj->next++];
        oval lim = part_limit(pj->n, pj->pt, pj->np, j, pj->bound);
        if (lim < pj->pt[j].v) {   /* its bound alone passes the budget */
            pj->over = true;
            break;
        }
        const mm_code *P = pj->codes + pj->pt[j].start;
        uint32_t m = pj->pt[j].n;
        pthread_mutex_unlock(&sh->mx);
        mm_code sub;
        oval v = opt_solve(w, pj->lv, pj->G, P, m, lim, pj->depth, pj->ties, false, &sub);
        pthread_mutex_lock(&sh->mx);
        if (v == OV_ABORT) {
            atomic_store(&sh->abort, 1);   /* stopped, or out of memory */
            continue;
        }
        pj->pt[j].exact = v <= lim;
        if (v > pj->pt[j].v || pj->pt[j].exact)
            pj->pt[j].v = v;
        if (sum_parts(pj->n, pj->pt, pj->np) > pj->bound)
            pj->over = true;
    }
    if (--pj->active == 0)
        pthread_cond_broadcast(&sh->cv_done);
}

/* Post a job (the guesses of a set, or the parts after one guess) to the
 * pool, work on it too, and return once every thread has left it. */
static void share_job(oworker *w, orootjob *rj, opartjob *pj)
{
    oshared *sh = w->sh;
    const int *active = pj ? &pj->active : &rj->active;
    pthread_mutex_lock(&sh->mx);
    sh->rjob = rj;
    sh->pjob = pj;
    sh->job_gen++;
    pthread_cond_broadcast(&sh->cv_job);
    if (pj)
        pjob_work(w, pj);
    else
        rjob_work(w, rj);
    while (*active > 0)
        pthread_cond_wait(&sh->cv_done, &sh->mx);
    sh->rjob = NULL;
    sh->pjob = NULL;
    pthread_mutex_unlock(&sh->mx);
}

/* Solve the parts of pt not yet exact on all the pool's threads. */
static oval share_parts(oworker *w, int lv, const ogroup *G, const mm_code *codes,
                        uint32_t n, opart *pt, int np, oval bound, int depth,
                        bool ties)
{
    oshared *sh = w->sh;
    opartjob pj = {lv, G, codes, pt, np, n, bound, depth, ties, {0}, 0, 0, 0, false};
    for (int j = 0; j < np; j++)
        if (!pt[j].exact)
            pj.order[pj.norder++] = j;
    /* smallest first (see opartjob) */
    for (int a = 1; a < pj.norder; a++)
        for (int b = a; b > 0 && pt[pj.order[b]].n < pt[pj.order[b - 1]].n; b--) {
            int t = pj.order[b];
            pj.order[b] = pj.order[b - 1];
            pj.order[b - 1] = t;
        }
    share_job(w, NULL, &pj);
    if (atomic_load(&sh->abort))
        return OV_ABORT;
    return sum_parts(n, pt, np);
}

/* Value of guess q at set S (histogram h) when it is at most bound, else
 * a lower bound above bound; OV_ABORT when stopped, *reached then being
 * the bound proven so far. */
static oval rjob_bound(oshared *sh, orootjob *rj, uint32_t idx);

static oval eval_cand(oworker *w, int lv, const ogroup *G, const mm_code *S,
                      uint32_t n, mm_code q, const uint32_t *h, int K, oval bound,
                      int depth, bool ties, orootjob *rj, uint32_t idx,
                      oval *reached)
{
    oshared *sh = w->sh;
    const mm_game *g = sh->g;
    olevel *l = &w->lv[lv];
    int cd = sh->depth_mode ? depth - 1 : depth;
    opart pt[MM_MAX_REPLIES];
    int np;
    uint32_t win;
    if (!split(l, g, S, n, q, h, pt, &np, &win))
        goto nomem;
    for (int j = 0; j < np; j++)
        pt[j].v = part_value(w, pt[j].n, l->parts + pt[j].start, K, cd, &pt[j].exact);
    qsort(pt, (size_t)np, sizeof *pt, cmp_part_size);
    oval sum = *reached = sum_parts(n, pt, np);
    if (sum > bound)
        return sum;
    if (ogroup_after(G, g, q, &l->grp))
        goto nomem;
    /* A part's subtree is dear: first raise every part to its
     * one-guess-ahead bound (a search with a limit below its bound scores
     * its guesses and stops), so that a guess that cannot win is dropped
     * before any of it is solved. */
    for (int j = np - 1; j >= 0 && sum <= bound; j--) {
        if (pt[j].exact || pt[j].n < 3)
            continue;
        mm_code sub;
        oval v = opt_solve(w, lv + 1, &l->grp, l->parts + pt[j].start, pt[j].n, pt[j].v - 1,
                           cd, ties, false, &sub);
        if (v == OV_ABORT)
            return OV_ABORT;
        if (v > pt[j].v)
            pt[j].v = v;
        sum = *reached = sum_parts(n, pt, np);
    }
    if (sum <= bound && lv == sh->par_level && sh->share_parts && sh->nhelpers > 0 &&
        !w->id && !rj) {
        oval v = share_parts(w, lv + 1, &l->grp, l->parts, n, pt, np, bound, cd, ties);
        if (v != OV_ABORT)
            *reached = v;
        return v;
    }
    for (int j = 0; j < np && sum <= bound; j++) {
        if (pt[j].exact)
            continue;
        if (rj) {
            /* another thread may have found better meanwhile */
            oval b = rjob_bound(sh, rj, idx);
            if (b < bound)
                bound = b;
            if (sum > bound)
                break;
        }
        oval lim = part_limit(n, pt, np, j, bound);
        mm_code sub;
        oval v = opt_solve(w, lv + 1, &l->grp, l->parts + pt[j].start, pt[j].n, lim, cd, ties,
                           false, &sub);
        if (v == OV_ABORT)
            return OV_ABORT;
        pt[j].exact = v <= lim;
        if (v > pt[j].v || pt[j].exact)
            pt[j].v = v;
        sum = *reached = sum_parts(n, pt, np);
    }
    return sum;
nomem:
    w->status = MM_ERR_NOMEM;
    if (!w->id)
        atomic_store(&sh->abort, 1);
    return OV_ABORT;
}

/* The budget of first guess idx: the best so far to beat, or to equal
 * for a guess earlier in tie order. */
static oval rjob_bound_locked(const orootjob *rj, uint32_t idx)
{
    return (rj->have && rj->ties && idx < rj->best_idx) ? rj->best : rj->best - 1;
}

static oval rjob_bound(oshared *sh, orootjob *rj, uint32_t idx)
{
    pthread_mutex_lock(&sh->mx);
    oval b = rjob_bound_locked(rj, idx);
    pthread_mutex_unlock(&sh->mx);
    return b;
}

/* The first guesses shared out (see opt_solve): each thread takes the
 * next, with the budget the best value so far leaves.  Called and returns
 * with sh->mx held. */
static void rjob_work(oworker *w, orootjob *rj)
{
    oshared *sh = w->sh;
    const mm_game *g = sh->g;
    rj->active++;
    while (rj->next < rj->nc && !atomic_load(&sh->abort)) {
        const ocand ci = rj->l->ci[rj->next++];
        oval bound = rjob_bound_locked(rj, ci.idx);
        if (ci.lb > bound) {
            if (ci.lb < rj->minfail)
                rj->minfail = ci.lb;
            continue;
        }
        mm_code q = rj->l->cand[ci.idx];
        const uint32_t *h = rj->l->hist + (size_t)ci.idx * g->nreplies;
        if (rj->lv == 0)   /* for the progress line */
            atomic_store(&sh->root_i, rj->next - 1);
        pthread_mutex_unlock(&sh->mx);
        oval reached;
        oval sum = eval_cand(w, rj->lv, rj->G, rj->S, rj->n, q, h, rj->K, bound, rj->depth,
                             rj->ties, rj, ci.idx, &reached);
        pthread_mutex_lock(&sh->mx);
        bound = rjob_bound_locked(rj, ci.idx);
        if (sum == OV_ABORT) {
            atomic_store(&sh->abort, 1);   /* stopped, or out of memory */
            continue;
        }
        if (sum > bound) {
            if (sum < rj->minfail)
                rj->minfail = sum;
            continue;
        }
        if (!rj->have || sum < rj->best ||
            (rj->ties && sum == rj->best && ci.idx < rj->best_idx)) {
            rj->best = sum;
            rj->best_idx = ci.idx;
            rj->best_q = q;
            rj->have = true;
            if (rj->lv == 0) {
                sh->root_best = sum;
                sh->root_guess = q;
            }
        }
    }
    if (--rj->active == 0)
        pthread_cond_broadcast(&sh->cv_done);
}

/* A set's level: its masks, its colour classes and its consistent
 * candidates, or the fixed first guess at the root.  False when out of
 * memory. */
static bool level_begin(oworker *w, int lv, const ogroup *G, const mm_code *S,
                        uint32_t n, ozf *z, uint32_t *ncons, bool *fixed)
{
    const oshared *sh = w->sh;
    olevel *l = &w->lv[lv];
    /* sets up to SMALL_SET as plain masks, larger ones bit-sliced */
    if (n > SMALL_SET ? slice_load(&l->sl, sh->g, S, n) != MM_OK
                      : !load_masks(l, sh->g, S, n))
        return false;
    zf_init(z, sh, G, S, n);
    *fixed = lv == 0 && sh->first != MM_NO_CODE;
    if (*fixed) {
        if (!level_reserve_cand(l, 1, sh->g->nreplies))
            return false;
        l->cand[0] = sh->first;
        *ncons = 1;
        return true;
    }
    return cand_consistent(w, l, G, z, S, n, ncons) == MM_OK;
}

oval opt_solve(oworker *w, int lv, const ogroup *G, const mm_code *S,
               uint32_t n, oval limit, int depth, bool ties, bool force,
               mm_code *guess)
{
    oshared *sh = w->sh;
    const mm_game *g = sh->g;
    int R = g->nreplies;
    /* With a fixed first guess the first set's value is that guess's, not
     * a fact about the set: it stays out of the table. */
    bool cache = sh->use_cache && !(lv == 0 && sh->first != MM_NO_CODE);
    *guess = S[0];
    if (n == 1)
        return depth >= 1 ? OV(1, 1) : OV_INF;
    if (n == 2)
        return depth >= 2 ? OV(3, 2) : OV_INF;
    if (depth < 2)
        return OV_INF;
    if (lv + 1 >= w->nlv) {
        w->status = MM_ERR_LIMIT;
        atomic_store(&sh->abort, 1);
        return OV_ABORT;
    }
    if (stopping(w))
        return OV_ABORT;
    uint64_t h1 = 0, h2 = 0;
    if (cache) {
        opt_hash(sh, S, n, &h1, &h2);
        oentry e;
        if (!force && ocache_get(&sh->cache, h1, h2, depth, &e)) {
            oval v = oentry_value(&e);
            if ((oentry_flags(&e) & OC_EXACT) || v > limit) {
                w->hits++;
                if (e.guess < g->ncodes)
                    *guess = e.guess;
                return v;
            }
        }
    }
    w->nodes++;
    olevel *l = &w->lv[lv];
    uint32_t ncand, ncons;
    ozf z;
    bool fixed;
    if (!level_begin(w, lv, G, S, n, &z, &ncons, &fixed))
        goto nomem;

    /* Score the consistent candidates: one that separates every code ends
     * the search at once.  Small sets are scored by the set of replies
     * alone: their parts are small enough that the bound 2m - 1 of a part
     * of m codes is as good as the perfect-tree one. */
    bool small = n <= SMALL_SET;
    int K = 0;
    uint32_t nc = 0;
    score_range(sh, l, n, 0, ncons, small);
    for (uint32_t c = 0; c < ncons; c++) {
        int k = l->nk[c] - 1;   /* the winning reply is no part */
        if ((uint32_t)k == n - 1) {
            *guess = l->cand[c];
            oval v = OV(2 * (uint64_t)n - 1, 2);
            if (cache)
                ocache_put(&sh->cache, h1, h2, depth, n, v, OC_EXACT | OC_CANON, *guess);
            return v;
        }
        if (k > K)
            K = k;
        l->ci[nc++] = (ocand){small ? OV(3 * (uint64_t)n - 2 - (uint64_t)k, 3) : 0, c,
                              (uint16_t)k, 1};
    }
    /* Now every consistent guess leaves two codes together (total at least
     * 2n, worst case 3) and every other guess costs all n codes a guess
     * (2n, worst case 2 at best). */
    ncand = ncons;
    if (!sh->consistent_only && !fixed) {
        if (limit < OV(2 * (uint64_t)n, 2)) {
            if (cache)
                ocache_put(&sh->cache, h1, h2, depth, n, OV(2 * (uint64_t)n, 2), 0, MM_NO_CODE);
            return OV(2 * (uint64_t)n, 2);
        }
        if (cand_inconsistent(w, l, G, &z, S, n, ncons, &ncand))
            goto nomem;
    } else if (limit < OV(2 * (uint64_t)n, 3)) {
        if (cache)
            ocache_put(&sh->cache, h1, h2, depth, n, OV(2 * (uint64_t)n, 3), 0, MM_NO_CODE);
        return OV(2 * (uint64_t)n, 3);
    }
    /* In chunks: on small sets a separator often comes early, and ends
     * the scoring. */
    for (uint32_t c0 = ncons; c0 < ncand; c0 += SCORE_CHUNK) {
        uint32_t c1 = ncand - c0 > SCORE_CHUNK ? c0 + SCORE_CHUNK : ncand;
        score_range(sh, l, n, c0, c1, small);
        for (uint32_t c = c0; c < c1; c++) {
            int k = l->nk[c];
            bool pairs = (uint32_t)k < n;
            if ((uint32_t)k == n) {
                /* the first separator in tie order */
                *guess = l->cand[c];
                oval v = OV(2 * (uint64_t)n, 2);
                if (cache)
                    ocache_put(&sh->cache, h1, h2, depth, n, v, OC_EXACT | OC_CANON, *guess);
                return v;
            }
            if (k == 1)
                continue;   /* learns nothing */
            if (k > K)
                K = k;
            l->ci[nc++] = (ocand){small ? OV(3 * (uint64_t)n - (uint64_t)k, pairs ? 3 : 2) : 0,
                                  c, (uint16_t)k, 0};
        }
    }

    /* Lower bounds with the dynamic branching factor K; candidates that
     * cannot come within the limit are only remembered for the bound. */
    uint32_t keep = 0;
    oval minfail = OV_INF;
    if (fixed)
        K = sh->answers - 1;   /* the other guesses were not scored */
    const oval *row = n <= sh->lbmax ? sh->lbtab + (size_t)K * (sh->lbmax + 1) : NULL;
    for (uint32_t i = 0; i < nc; i++) {
        ocand *ci = &l->ci[i];
        const uint32_t *h = l->hist + (size_t)ci->idx * R;
        uint64_t t = n;
        int wmax = 1;
        if (small) {
            t = OV_T(ci->lb);
            wmax = OV_W(ci->lb);
        } else if (row) {
            /* Branch-free: an empty slot adds (0, 0); the winning slot's
             * one code is taken off again (its depth is harmless, some
             * other part is at least as deep). */
            oval sum = 0, wm = 0;
            for (int s = 0; s < R; s++) {
                oval b = row[h[s]];
                sum += b & ~(oval)63;
                wm = (b & 63) > wm ? (b & 63) : wm;
            }
            t += OV_T(sum) - h[g->win];
            wmax = 1 + (int)wm;
        } else {
            for (int s = 0; s < R; s++) {
                if (!h[s] || s == g->win)
                    continue;
                oval b = opt_lower(sh, h[s], K);
                t += OV_T(b);
                if (1 + OV_W(b) > wmax)
                    wmax = 1 + OV_W(b);
            }
        }
        if (wmax > depth)
            continue;
        ci->lb = OV(t, wmax);
        if (ci->lb > limit) {
            if (ci->lb < minfail)
                minfail = ci->lb;
            continue;
        }
        l->ci[keep++] = *ci;
    }
    nc = keep;

    oval best = limit + 1;
    bool have = false;
    uint32_t best_idx = UINT32_MAX;
    mm_code best_q = S[0];
    /* Both cores: the guesses of the first set that has several are
     * shared out, each thread taking the next one (a single first guess,
     * as in Bulls and Cows, passes this on to its parts). */
    if (lv == 0)
        sh->par_level = nc >= 2 || sh->share_parts ? 0 : 1;
    if (lv == sh->par_level && !w->id && sh->nhelpers > 0 && !small && nc >= 2) {
        qsort(l->ci, nc, sizeof *l->ci, cmp_cand);
        orootjob rj = {lv, G, S, n, l, nc, K, depth, ties, 0, 0, limit + 1, UINT32_MAX, S[0],
                       false, minfail};
        if (lv == 0) {   /* for the progress line */
            atomic_store(&sh->root_i, 0);
            atomic_store(&sh->root_nc, nc);
        }
        if (sh->share_parts) {
            /* The first guess in order is mostly the best: its parts are
             * shared out (eval_cand); the others are then shared with its
             * value to beat, a tight budget each on one thread. */
            const ocand c0 = l->ci[0];   /* its bound is within limit */
            mm_code q = l->cand[c0.idx];
            oval reached;
            oval sum = eval_cand(w, lv, G, S, n, q, l->hist + (size_t)c0.idx * R, K, limit,
                                 depth, ties, NULL, 0, &reached);
            if (sum == OV_ABORT) {
                if (lv == 0)
                    root_stopped(sh, l, 0, nc, reached, minfail, false, best);
                return OV_ABORT;
            }
            if (sum <= limit) {
                rj.best = sum;
                rj.best_idx = c0.idx;
                rj.best_q = q;
                rj.have = true;
                if (lv == 0) {
                    sh->root_best = sum;
                    sh->root_guess = q;
                }
            } else if (sum < rj.minfail) {
                rj.minfail = sum;
            }
            rj.next = 1;
        }
        share_job(w, &rj, NULL);
        if (atomic_load(&sh->abort)) {
            oval lower = rj.have ? rj.best : rj.minfail;
            for (uint32_t i = 0; i < nc; i++)
                if (l->ci[i].lb < lower)
                    lower = l->ci[i].lb;
            if (lv == 0)
                sh->root_lower = lower;
            return OV_ABORT;
        }
        best = rj.best;
        have = rj.have;
        best_q = rj.best_q;
        minfail = rj.minfail;
    } else {
        for (uint32_t i = 0; i < nc; i++) {
            next_cand(l->ci, i, nc);
            const ocand ci = l->ci[i];
            oval bound = (have && ties && ci.idx < best_idx) ? best : best - 1;
            if (ci.lb > bound) {
                if (ci.lb < minfail)
                    minfail = ci.lb;
                if (ci.lb > best || !have || !ties)
                    break;
                continue;
            }
            mm_code q = l->cand[ci.idx];
            uint32_t *h = l->hist + (size_t)ci.idx * R;
            if (small)
                histogram(sh, l, n, q, h);
            if (lv == 0 && !w->id) {
                atomic_store(&sh->root_i, i);
                atomic_store(&sh->root_nc, nc);
            }
            oval reached;
            oval sum = eval_cand(w, lv, G, S, n, q, h, K, bound, depth, ties, NULL, 0,
                                 &reached);
            if (sum == OV_ABORT) {
                if (lv == 0 && !w->id)
                    root_stopped(sh, l, i, nc, reached, minfail, have, best);
                return OV_ABORT;
            }
            if (sum <= bound) {
                best = sum;
                best_idx = ci.idx;
                best_q = q;
                have = true;
                if (lv == 0 && !w->id) {
                    sh->root_best = best;
                    sh->root_guess = q;
                }
            } else if (sum < minfail) {
                minfail = sum;
            }
        }
    }
    if (have) {
        *guess = best_q;
        if (cache)
            ocache_put(&sh->cache, h1, h2, depth, n, best, OC_EXACT | (ties ? OC_CANON : 0), best_q);
        return best;
    }
    if (cache)
        ocache_put(&sh->cache, h1, h2, depth, n, minfail, 0, MM_NO_CODE);
    return minfail;
nomem:
    w->status = MM_ERR_NOMEM;
    if (!w->id)
        atomic_store(&sh->abort, 1);
    return OV_ABORT;
}

/* ---- worst case only ---- */

int opt_feasible(oworker *w, int lv, const ogroup *G, const mm_code *S,
                 uint32_t n, int depth)
{
    oshared *sh = w->sh;
    const mm_game *g = sh->g;
    int R = g->nreplies;
    bool cache = sh->use_cache && !(lv == 0 && sh->first != MM_NO_CODE);
    if (n <= 1)
        return depth >= (int)n;
    if (depth < 2)
        return 0;
    if (n == 2)
        return 1;
    if (lv + 1 >= w->nlv) {
        w->status = MM_ERR_LIMIT;
        atomic_store(&sh->abort, 1);
        return -1;
    }
    if (stopping(w))
        return -1;
    uint64_t h1 = 0, h2 = 0;
    oentry e;
    if (cache) {
        opt_hash(sh, S, n, &h1, &h2);
        h2 ^= 0x5bd1e9955bd1e995u;   /* feasibility facts apart */
        if (ocache_get(&sh->cache, h1, h2, depth, &e)) {
            w->hits++;
            return (oentry_flags(&e) & OC_EXACT) != 0;
        }
    }
    w->nodes++;
    olevel *l = &w->lv[lv];
    uint32_t ncand, ncons;
    ozf z;
    bool fixed;
    if (!level_begin(w, lv, G, S, n, &z, &ncons, &fixed))
        goto nomem;
    ncand = ncons;
    if (!sh->consistent_only && !fixed &&
        cand_inconsistent(w, l, G, &z, S, n, ncons, &ncand))
        goto nomem;
    int K = 0;
    uint32_t nc = 0;
    for (uint32_t c = 0; c < ncand; c++) {
        uint32_t *h = l->hist + (size_t)c * R;
        histogram(sh, l, n, l->cand[c], h);
        int k = 0;
        uint32_t big = 0;
        for (int s = 0; s < R; s++)
            if (h[s] && s != g->win) {
                k++;
                if (h[s] > big)
                    big = h[s];
            }
        if (!h[g->win] && k == 1)
            continue;
        if (k > K)
            K = k;
        /* order: fewest codes in the largest part, then tie order */
        l->ci[nc++] = (ocand){(oval)big << 32 | c, c, (uint16_t)k, h[g->win] != 0};
    }
    if (fixed)
        K = sh->answers - 1;   /* the other guesses were not scored */
    uint64_t cap1 = 0, level = 1;   /* codes a tree of depth-1 can find */
    for (int d = 0; d < depth - 1 && cap1 < n; d++) {
        cap1 += level;
        level *= (uint64_t)(K > 0 ? K : 1);
    }
    uint32_t keep = 0;
    for (uint32_t i = 0; i < nc; i++)
        if ((l->ci[i].lb >> 32) <= cap1)
            l->ci[keep++] = l->ci[i];
    nc = keep;
    qsort(l->ci, nc, sizeof *l->ci, cmp_cand);
    int res = 0;
    opart pt[MM_MAX_REPLIES];
    for (uint32_t i = 0; i < nc && !res; i++) {
        mm_code q = l->cand[l->ci[i].idx];
        int np;
        uint32_t win;
        if (!split(l, g, S, n, q, l->hist + (size_t)l->ci[i].idx * R, pt, &np, &win))
            goto nomem;
        qsort(pt, (size_t)np, sizeof *pt, cmp_part_size);
        if (ogroup_after(G, g, q, &l->grp))
            goto nomem;
        res = 1;
        for (int j = 0; j < np && res == 1; j++)
            res = opt_feasible(w, lv + 1, &l->grp, l->parts + pt[j].start, pt[j].n, depth - 1);
        if (res < 0)
            return -1;
    }
    if (cache)
        ocache_put(&sh->cache, h1, h2, depth, n, res ? 0 : OV_INF, res ? OC_EXACT : 0, MM_NO_CODE);
    return res;
nomem:
    w->status = MM_ERR_NOMEM;
    if (!w->id)
        atomic_store(&sh->abort, 1);
    return -1;
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Counting replies (compiler/opt_score.c).  For a set S under the table
 * of replies, every code's count of distinct replies from S, the most of
 * them, and the first code that separates S, and the candidates listed
 * from those counts; for a small set, each candidate's count from the
 * set's masks.  Each kernel the CPU runs (AVX-512, AVX2, portable) must
 * give what scoring each pair with mm_game_score gives, on games whose
 * columns fill several blocks of the scan and end inside one, of at most
 * 32 replies and of more; for larger, bit-sliced sets, each candidate's
 * histogram of replies; and the listing of the guesses that get the most
 * replies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/opt.h"
#include "tests/check.h"
#include "tests/draw.h"

static const char *const kernel[] = {"portable", "AVX2", "AVX-512"};

/* n distinct codes of P (m codes), in random order, into S. */
static void sample(const mm_code *P, uint32_t m, mm_code *S, uint32_t n, uint8_t *taken)
{
    memset(taken, 0, m);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j;
        do
            j = draw(m);
        while (taken[j]);
        taken[j] = 1;
        S[i] = P[j];
    }
}

/* The counts as mm_game_score gives them: k[x] for every code, 0 for the
 * codes of S; the most, and the first code that gets n replies. */
static uint32_t reference(const mm_game *g, const mm_code *S, uint32_t n, uint8_t *k,
                          mm_code *sep)
{
    uint32_t most = 0;
    *sep = MM_NO_CODE;
    for (mm_code x = 0; x < g->ncodes; x++) {
        uint64_t seen = 0;
        bool in_s = false;
        for (uint32_t i = 0; i < n; i++) {
            seen |= UINT64_C(1) << mm_game_score(g, x, S[i]);
            in_s |= S[i] == x;
        }
        k[x] = in_s ? 0 : (uint8_t)__builtin_popcountll(seen);
        if (k[x] == n && *sep == MM_NO_CODE)
            *sep = x;
        if (k[x] > most)
            most = k[x];
    }
    return *sep != MM_NO_CODE ? n : most;
}

/* A small set's candidates scored by their replies alone (the winning
 * one counted), every code a candidate, against mm_game_score. */
static void check_small(const mm_game *g, oshared *sh, oworker *w, const mm_code *S,
                        uint32_t n, uint8_t *want)
{
    olevel *l = &w->lv[1];
    if (!opt_load_set(l, g, S, n) || !olevel_reserve_cand(l, g->ncodes, g->nreplies)) {
        FAIL("MM(%d,%d): out of memory", g->pegs, g->colors);
        return;
    }
    for (mm_code x = 0; x < g->ncodes; x++) {
        uint64_t seen = 0;
        for (uint32_t i = 0; i < n; i++)
            seen |= UINT64_C(1) << mm_game_score(g, x, S[i]);
        want[x] = (uint8_t)__builtin_popcountll(seen);
        l->cand[x] = x;
    }
    for (int simd = opt_score_simd(); simd >= 0; simd--) {
        sh->no_simd = simd == 0;
        sh->no_avx512 = simd < 2;
        memset(l->nk, 0xee, g->ncodes);
        opt_score_range(sh, l, n, 0, g->ncodes, true);
        if (memcmp(l->nk, want, g->ncodes))
            FAIL("MM(%d,%d) %s, a small set of %u codes: the reply counts differ", g->pegs,
                 g->colors, kernel[simd], n);
    }
}

/* A set above the small ones, bit-sliced: each candidate's histogram of
 * replies and its count of them, every code but the last three a
 * candidate (eight at a time with AVX-512, the rest one by one), against
 * mm_game_score. */
static void check_sliced(const mm_game *g, oshared *sh, oworker *w, const mm_code *S,
                         uint32_t n)
{
    olevel *l = &w->lv[1];
    const uint32_t R = (uint32_t)g->nreplies, nc = g->ncodes - 3;
    uint32_t *want = calloc((size_t)nc * R, sizeof *want);
    if (!want || !opt_load_set(l, g, S, n) || !olevel_reserve_cand(l, nc, g->nreplies)) {
        FAIL("MM(%d,%d): out of memory", g->pegs, g->colors);
        free(want);
        return;
    }
    for (mm_code x = 0; x < nc; x++) {
        for (uint32_t i = 0; i < n; i++)
            want[(size_t)x * R + mm_game_score(g, x, S[i])]++;
        l->cand[x] = x;
    }
    for (int simd = opt_score_simd(); simd >= 0; simd--) {
        sh->no_simd = simd == 0;
        sh->no_avx512 = simd < 2;
        memset(l->nk, 0xee, nc);
        memset(l->hist, 0xee, (size_t)nc * R * sizeof *l->hist);
        opt_score_range(sh, l, n, 0, nc, false);
        uint32_t bad = 0;
        for (mm_code x = 0; x < nc; x++) {
            uint32_t k = 0;
            for (uint32_t r = 0; r < R; r++)
                k += want[(size_t)x * R + r] != 0;
            bad += l->nk[x] != k ||
                   memcmp(l->hist + (size_t)x * R, want + (size_t)x * R, R * sizeof *want);
        }
        CHECK(!bad, "MM(%d,%d) %s, a sliced set of %u codes: %u of %u histograms differ",
              g->pegs, g->colors, kernel[simd], n, bad, nc);
    }
    free(want);
}

/* The candidates opt_cand_replies lists with each kernel from the counts
 * k, under G and z, against want (nwant codes in order, the most of all
 * and the most below least, found here): the codes, their counts, the
 * two figures.  what says which case failed. */
static void compare_cand(const mm_game *g, oshared *sh, oworker *w, const ogroup *G,
                         const ozf *z, const uint8_t *k, uint32_t n, uint32_t least,
                         const mm_code *want, uint32_t nwant, uint32_t wmost, uint32_t wbelow,
                         const char *what)
{
    olevel *l = &w->lv[2];
    for (int simd = opt_score_simd(); simd >= 0; simd--) {
        sh->no_simd = simd == 0;
        sh->no_avx512 = simd < 2;
        uint32_t ncand, most, below;
        if (opt_cand_replies(w, l, G, z, n, 0, k, least, &ncand, &most, &below) != MM_OK) {
            FAIL("MM(%d,%d): out of memory", g->pegs, g->colors);
            break;
        }
        bool counts = ncand == nwant;
        for (uint32_t i = 0; counts && i < ncand; i++)
            counts = l->nk[i] == k[want[i]];
        if (ncand != nwant || most != wmost || below != wbelow ||
            memcmp(l->cand, want, nwant * sizeof *want) || !counts)
            FAIL("MM(%d,%d) %s, %s, %u codes, at least %u replies: %u candidates (most %u, "
                 "below %u%s), want %u (%u, %u)", g->pegs, g->colors, kernel[simd], what, n,
                 least, ncand, most, below, counts ? "" : ", counts differ", nwant, wmost,
                 wbelow);
    }
}

/* The candidates of a set under the table, listed from its counts k:
 * with no symmetry a class is one code, and the colours of "other" are
 * left out (colour 2, a second zero colour, or none): the codes that get
 * at least least replies, in lexical order, against a scan done here. */
static void check_cand(const mm_game *g, oshared *sh, oworker *w, const ogroup *G,
                       const uint8_t *k, uint32_t n, uint32_t least)
{
    static const ozf zs[] = {
        {.zero = 3u << 1, .nzero = 2, .zl = {1, 2}},   /* colours 1 and 2: other = 2 */
        {.zero = 1u << 1, .nzero = 1, .zl = {1}},      /* colour 1: none other */
    };
    mm_code *want = malloc(g->ncodes * sizeof *want);
    for (size_t t = 0; t < sizeof zs / sizeof *zs; t++) {
        const uint16_t other = zs[t].nzero > 1 ? 1u << zs[t].zl[1] : 0;
        uint32_t nwant = 0, wmost = 0, wbelow = 0;
        for (mm_code x = 0; x < g->ncodes; x++) {
            if (g->colorset[x] & other)
                continue;
            wmost = k[x] > wmost ? k[x] : wmost;
            if (k[x] >= least)
                want[nwant++] = x;
            else if (k[x] > wbelow)
                wbelow = k[x];
        }
        compare_cand(g, sh, w, G, &zs[t], k, n, least, want, nwant, wmost, wbelow,
                     other ? "a colour left out" : "no colour left out");
    }
    free(want);
}

/* The same under a group (the path's first guess all of colour 0: every
 * permutation of the positions), where the candidates are the classes'
 * first codes: those opt_cand_inconsistent lists for the set, filtered
 * here. */
static void check_cand_group(const mm_game *g, oshared *sh, oworker *w, const ogroup *G,
                             const mm_code *S, uint32_t n, const uint8_t *k, uint32_t least)
{
    ozf z;
    opt_zf_init(&z, sh, G, S, n);
    uint32_t nreps;
    if (opt_cand_inconsistent(w, &w->lv[2], G, &z, S, n, 0, &nreps) != MM_OK) {
        FAIL("MM(%d,%d): out of memory", g->pegs, g->colors);
        return;
    }
    mm_code *want = malloc(nreps * sizeof *want);
    uint32_t nwant = 0, wmost = 0, wbelow = 0;
    for (uint32_t i = 0; i < nreps; i++) {
        mm_code x = w->lv[2].cand[i];
        wmost = k[x] > wmost ? k[x] : wmost;
        if (k[x] >= least)
            want[nwant++] = x;
        else if (k[x] > wbelow)
            wbelow = k[x];
    }
    char what[64];
    snprintf(what, sizeof what, "under a group of %d, %u classes", G->ne, nreps);
    compare_cand(g, sh, w, G, &z, k, n, least, want, nwant, wmost, wbelow, what);
    free(want);
}

static void check_game(int p, int c, bool repeat)
{
    mm_game g;
    if (mm_game_init(&g, p, c, repeat, NULL) != MM_OK) {
        FAIL("MM(%d,%d): no game", p, c);
        return;
    }
    oshared sh;
    oworker w;
    ogroup G = {0};
    if (oshared_init(&sh, &g, 0) != MM_OK || oworker_init(&w, &sh) != MM_OK ||
        ogroup_root(&G, &g, true) != MM_OK || G.ne != 0) {
        FAIL("MM(%d,%d): out of memory", p, c);
        mm_game_release(&g);
        return;
    }
    /* the group after a first guess of colour 0 alone: every
     * permutation of the positions */
    ogroup root, G0 = {0};
    if (ogroup_root(&root, &g, false) != MM_OK || ogroup_after(&root, &g, 0, &G0) != MM_OK ||
        G0.ne == 0)
        FAIL("MM(%d,%d): no group", p, c);
    ogroup_release(&root);
    /* a set P just above the small sets, as on the search's path */
    uint32_t m = sh.small_max + 40;
    mm_code *all = malloc(g.ncodes * sizeof *all), *P = malloc(m * sizeof *P);
    mm_code *S = malloc(m * sizeof *S), *S2 = malloc(g.ncodes * sizeof *S2);
    uint8_t *taken = malloc(g.ncodes), *want = malloc(g.ncodes), *got = malloc(g.ncodes);
    for (mm_code x = 0; x < g.ncodes; x++)
        all[x] = x;
    sample(all, g.ncodes, P, m, taken);
    if (!opt_replies_build(&w, 0, P, m)) {
        FAIL("MM(%d,%d): no table of replies for %u codes", p, c, m);
        goto out;
    }
    int sets = 0, separated = 0;
    for (uint32_t n = 1; n <= sh.small_max; n += n < 8 ? 1 : 7) {
        for (int t = 0; t < 6; t++, sets++) {
            sample(P, m, S, n, taken);
            mm_code wsep, sep;
            uint32_t want_most = reference(&g, S, n, want, &wsep);
            separated += wsep != MM_NO_CODE;
            for (int simd = opt_score_simd(); simd >= 0; simd--) {
                sh.no_simd = simd == 0;
                sh.no_avx512 = simd < 2;
                memset(w.rt.k, 0xee, w.rt.stride);
                int most = opt_replies_of_set(&w, S, n, &sep);
                /* up to the separator's block when there is one */
                uint32_t upto = sep == MM_NO_CODE ? g.ncodes : sep + 1;
                memcpy(got, w.rt.k, upto);
                if (most != (int)want_most || sep != wsep)
                    FAIL("MM(%d,%d) %s, %u codes: most %d, separator %d; want %u, %d", p, c,
                         kernel[simd], n, most, (int)sep, want_most, (int)wsep);
                else if (memcmp(got, want, upto))
                    FAIL("MM(%d,%d) %s, %u codes: the counts differ", p, c,
                         kernel[simd], n);
            }
            if (n <= SMALL_SET)
                check_small(&g, &sh, &w, S, n, want);
            if (repeat && sep == MM_NO_CODE) {   /* the counts are whole */
                opt_replies_of_set(&w, S, n, &sep);
                memcpy(got, w.rt.k, g.ncodes);
                for (uint32_t least = 2; least <= want_most + 1; least += 1 + least / 4) {
                    check_cand(&g, &sh, &w, &G, got, n, least);
                    check_cand_group(&g, &sh, &w, &G0, S, n, got, least);
                }
            }
        }
    }
    /* sliced sets: one block and a code, whole blocks, a last block cut */
    static const uint32_t sliced[] = {SMALL_SET + 1, 64, 128, 200, 577};
    for (size_t i = 0; i < sizeof sliced / sizeof *sliced && sliced[i] <= g.ncodes; i++) {
        sample(all, g.ncodes, S2, sliced[i], taken);
        check_sliced(&g, &sh, &w, S2, sliced[i]);
    }
    printf("MM(%d,%d)%s: %u codes, %d replies, %d sets of 1 to %u codes (%d separated) "
           "and some larger: the counts agree\n", p, c, repeat ? "" : " without repetition",
           g.ncodes, sh.answers, sets, sh.small_max, separated);
out:
    free(all), free(P), free(S), free(S2), free(taken), free(want), free(got);
    ogroup_release(&G0);
    ogroup_release(&G);
    oworker_release(&w);
    oshared_release(&sh);
    mm_game_release(&g);
}

/* opt_list_most with each kernel on counts drawn at random, of lengths
 * around the 64 a vector holds, against a scan done here: the places of
 * the most, in order, set to 0, and the greatest of the others and its
 * first place. */
static void check_list_most(void)
{
    mm_game g;
    oshared sh;
    if (mm_game_init(&g, 4, 6, true, NULL) || oshared_init(&sh, &g, 0)) {
        FAIL("list_most: no game");
        return;
    }
    int bad = 0, lists = 0;
    for (uint32_t len = 1; len <= 200; len += 1 + len / 8) {
        for (int t = 0; t < 4; t++) {
            uint8_t base[216], nk[216];
            ocand ci[216];
            const uint8_t most = (uint8_t)(2 + draw(20));
            for (uint32_t c = 0; c < sizeof base; c++)
                base[c] = (uint8_t)(2 + draw(most - 1));   /* 2..most */
            const uint32_t from = draw(8), to = from + len;
            uint32_t want_n = 0, want_first = UINT32_MAX;
            uint8_t want_next = 0;
            for (uint32_t c = from; c < to; c++)
                if (base[c] == most)
                    want_n++;
                else if (base[c] > want_next)
                    want_next = base[c], want_first = c;
            for (int simd = opt_score_simd() >= 2 ? 1 : 0; simd >= 0; simd--) {
                sh.no_avx512 = !simd;
                memcpy(nk, base, sizeof nk);
                uint8_t next;
                uint32_t first;
                uint32_t n = opt_list_most(&sh, nk, from, to, most, 42, ci, 3, &next, &first);
                bool ok = n == 3 + want_n && next == want_next && first == want_first &&
                          !memcmp(nk, base, from) && !memcmp(nk + to, base + to, sizeof nk - to);
                uint32_t i = 3;
                for (uint32_t c = from; ok && c < to; c++) {
                    if (base[c] != most) {
                        ok = nk[c] == base[c];
                        continue;
                    }
                    ok = nk[c] == 0 && ci[i].idx == c && ci[i].lb == 42 && ci[i].k == most;
                    i++;
                }
                bad += !ok;
                lists++;
            }
        }
    }
    CHECK(!bad, "list_most: %d of %d lists wrong", bad, lists);
    printf("list_most: %d lists of counts, each kernel: the places of the most\n", lists);
    oshared_release(&sh);
    mm_game_release(&g);
}

int main(void)
{
    int simd = opt_score_simd();
    printf("kernels:%s%s portable\n", simd >= 2 ? " AVX-512" : "", simd >= 1 ? " AVX2" : "");
    check_game(6, 4, true);    /* 4096 codes: four whole blocks, 27 replies */
    check_game(5, 5, true);    /* 3125: the last block ends inside */
    check_game(4, 6, false);   /* 360: one block, less than a block */
    check_game(6, 7, false);   /* 5040: every pair shares 5 colours or 6 */
    check_game(7, 7, false);   /* 5040: all 7, 7 replies of 36 slots */
    check_game(7, 3, true);    /* 2187, 35 replies: the wide kernels */
    check_game(8, 2, true);    /* 256: 44 reply slots, 25 of them met */
    check_list_most();
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The game model against a naive one, on every game of at most 1,000
 * codes: code numbering and lexical order, parsing and printing, the
 * score (Knuth's definition computed the slow way), the reply order of
 * Knuth's Figure 1, the set of replies that occur, mm_game_split and
 * mm_codes_lower_bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/game.h"
#include "mmtree/path.h"

#define CHECK_MAX_FAILURES 21
#include "tests/check.h"

/* Knuth: black = equal positions; black + white = sum over colours of
 * min(n_i, n'_i). */
static void naive_score(const int *a, const int *b, int p, int *black, int *white)
{
    int na[MM_MAX_COLORS] = {0}, nb[MM_MAX_COLORS] = {0}, bl = 0, hits = 0;
    for (int i = 0; i < p; i++) {
        bl += a[i] == b[i];
        na[a[i]]++;
        nb[b[i]]++;
    }
    for (int k = 0; k < MM_MAX_COLORS; k++)
        hits += na[k] < nb[k] ? na[k] : nb[k];
    *black = bl;
    *white = hits - bl;
}

/* Codes of the game in lexical order, the slow way: every tuple in
 * increasing base-c order, kept when it is a code. */
static int *all_codes(int p, int c, int repeat, uint32_t *n)
{
    uint64_t total = 1;
    for (int i = 0; i < p; i++)
        total *= (uint64_t)c;
    int *out = malloc(total * (size_t)p * sizeof *out);
    uint32_t k = 0;
    for (uint64_t x = 0; x < total; x++) {
        int peg[MM_MAX_PEGS];
        uint64_t y = x;
        for (int i = p - 1; i >= 0; i--) {
            peg[i] = (int)(y % (uint64_t)c);
            y /= (uint64_t)c;
        }
        unsigned used = 0;
        int ok = 1;
        for (int i = 0; i < p && !repeat; i++) {
            ok &= !(used >> peg[i] & 1u);
            used |= 1u << peg[i];
        }
        if (ok)
            memcpy(out + (size_t)k++ * (size_t)p, peg, (size_t)p * sizeof *peg);
    }
    *n = k;
    return out;
}

static void check_game(int p, int c, int repeat)
{
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_game_init(&g, p, c, repeat, &d)) {
        CHECK(0, "MM(%d,%d%s): %s", p, c, repeat ? "" : "n", d.msg);
        return;
    }
    uint32_t n;
    int *codes = all_codes(p, c, repeat, &n);
    CHECK(g.ncodes == n, "MM(%d,%d%s): %u codes, want %u", p, c, repeat ? "" : "n",
          g.ncodes, n);
    CHECK(mm_game_count(p, c, repeat) == n, "mm_game_count");
    CHECK(g.nreplies == (p + 1) * (p + 2) / 2, "replies");

    /* The reply order: black ascending, white descending within. */
    int s = 0;
    for (int b = 0; b <= p; b++)
        for (int w = p - b; w >= 0; w--, s++)
            CHECK(mm_reply_slot(&g, b, w) == s && g.black[s] == b && g.white[s] == w,
                  "slot of (%d,%d)", b, w);
    CHECK(g.win == mm_reply_slot(&g, p, 0), "win slot");

    char text[MM_MAX_PEGS + 1], prev[MM_MAX_PEGS + 1] = "";
    for (uint32_t x = 0; x < n && x < g.ncodes; x++) {
        const int *peg = codes + (size_t)x * (size_t)p;
        for (int i = 0; i < p; i++)
            CHECK(mm_code_peg(&g, x, i) == peg[i], "peg %d of code %u", i, x);
        CHECK(mm_game_index(&g, peg) == x, "index of code %u", x);
        mm_code_format(&g, x, text);
        /* Colour characters sort in colour order, so ranks sort as text. */
        CHECK(strcmp(prev, text) < 0, "lexical order at %u: %s after %s", x, text, prev);
        strcpy(prev, text);
        mm_code back;
        CHECK(mm_code_parse(&g, text, strlen(text), &back, &d) == MM_OK && back == x,
              "parse %s", text);
    }

    uint64_t seen = 0;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            int bl, wh;
            naive_score(codes + (size_t)a * (size_t)p, codes + (size_t)b * (size_t)p, p,
                        &bl, &wh);
            int slot = mm_game_score(&g, a, b);
            if (slot != mm_reply_slot(&g, bl, wh)) {
                CHECK(0, "MM(%d,%d%s): score(%u,%u) slot %d, want (%d,%d)", p, c,
                      repeat ? "" : "n", a, b, slot, bl, wh);
                goto out;
            }
            seen |= UINT64_C(1) << slot;
        }
    CHECK(!(p >= 1 && seen >> mm_reply_slot(&g, p - 1, 1) & 1u), "(p-1,1) occurs");
    CHECK(seen == mm_game_reply_set(&g), "MM(%d,%d%s): reply set %llx, want %llx", p, c,
          repeat ? "" : "n", (unsigned long long)mm_game_reply_set(&g),
          (unsigned long long)seen);

    /* mm_game_split: parts in slot order, lexical order within, sizes
     * that add up to the set; for a few guesses and every other code. */
    {
        mm_code *in = malloc(n * sizeof *in), *out_ = malloc(n * sizeof *out_);
        uint8_t *scratch = malloc(n);
        uint32_t m = 0;
        for (uint32_t x = 0; x < n; x += 2)
            in[m++] = x;
        for (uint32_t guess = 0; guess < n; guess += 1 + n / 7) {
            uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES], sum = 0;
            mm_game_split(&g, guess, in, m, out_, scratch, cnt, start);
            for (int sl = 0; sl < g.nreplies; sl++) {
                CHECK(start[sl] == sum, "split start");
                for (uint32_t i = start[sl]; i < start[sl] + cnt[sl]; i++) {
                    CHECK(mm_game_score(&g, guess, out_[i]) == sl, "split part");
                    CHECK(i == start[sl] || out_[i - 1] < out_[i], "split order");
                }
                sum += cnt[sl];
            }
            CHECK(sum == m, "split sizes add up to %u, not %u", m, sum);
        }
        /* mm_codes_lower_bound on the even codes: x's place among them */
        for (uint32_t x = 0; x < n; x++) {
            CHECK(mm_codes_lower_bound(in, m, x) == (x + 1) / 2,
                  "lower bound of %u among the even codes: %u", x,
                  mm_codes_lower_bound(in, m, x));
            CHECK(mm_codes_lower_bound(in, 0, x) == 0, "lower bound in no codes");
        }
        free(in);
        free(out_);
        free(scratch);
    }
out:
    free(codes);
    mm_game_release(&g);
}

int main(void)
{
    int games = 0;
    for (int p = 1; p <= MM_MAX_PEGS; p++)
        for (int c = 1; c <= MM_MAX_COLORS; c++)
            for (int repeat = 1; repeat >= 0; repeat--) {
                uint64_t n = mm_game_count(p, c, repeat);
                if (n == 0 || n > 1000)
                    continue;
                check_game(p, c, repeat);
                games++;
            }
    printf("%d games checked\n", games);
    return failures ? 1 : 0;
}

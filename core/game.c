/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "mmtree/game.h"

#include <stdlib.h>
#include <string.h>

#include "split.h"

static const char color_chars_wide[] = "0123456789abcdef";

uint64_t mm_game_count(int pegs, int colors, bool repeat)
{
    uint64_t n = 1;
    if (pegs < 1 || pegs > MM_MAX_PEGS || colors < 1 || colors > MM_MAX_COLORS)
        return 0;
    if (!repeat && pegs > colors)
        return 0;
    for (int i = 0; i < pegs; i++)
        n *= (uint64_t)(repeat ? colors : colors - i);
    return n;
}

char mm_color_char(const mm_game *g, int k)
{
    if (g->colors <= 9)
        return (char)('1' + k);
    return color_chars_wide[k];
}

int mm_color_value(int colors, char ch)
{
    int k = -1;
    if (colors <= 9) {
        if (ch >= '1' && ch <= '9')
            k = ch - '1';
    } else if (ch >= '0' && ch <= '9') {
        k = ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
        k = ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
        k = ch - 'A' + 10;
    }
    return k >= 0 && k < colors ? k : -1;
}

int mm_reply_slot(const mm_game *g, int black, int white)
{
    int p = g->pegs, s = 0;
    if (black < 0 || white < 0 || black + white > p)
        return -1;
    for (int b = 0; b < black; b++)
        s += p + 1 - b;
    return s + (p - black - white);
}

uint32_t mm_codes_lower_bound(const mm_code *codes, uint32_t n, mm_code x)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (codes[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Lexical rank: for repeat games the base-c number; without repetition
 * the rank among k-permutations (Lehmer code), both ORDER LEX. */
mm_code mm_game_index(const mm_game *g, const int *pegs)
{
    uint64_t r = 0;
    unsigned used = 0;
    for (int i = 0; i < g->pegs; i++) {
        int k = pegs[i];
        if (k < 0 || k >= g->colors)
            return MM_NO_CODE;
        if (g->repeat) {
            r = r * (uint64_t)g->colors + (uint64_t)k;
        } else {
            if (used >> k & 1u)
                return MM_NO_CODE;
            int smaller = __builtin_popcount(~used & ((1u << k) - 1));
            r = r * (uint64_t)(g->colors - i) + (uint64_t)smaller;
            used |= 1u << k;
        }
    }
    return (mm_code)r;
}

static void fill_code(mm_game *g, mm_code x, const int *pegs)
{
    int p = g->pegs, c = g->colors;
    uint32_t digits = 0;
    uint16_t set = 0;
    uint64_t pos[2] = {0, 0}, occ[2] = {0, 0};
    int seen[MM_MAX_COLORS] = {0};
    for (int i = 0; i < p; i++) {
        int k = pegs[i];
        digits = digits << 4 | (uint32_t)k;
        set |= (uint16_t)(1u << k);
        int bp = i * c + k, bo = k * p + seen[k]++;
        pos[bp >> 6] |= UINT64_C(1) << (bp & 63);
        occ[bo >> 6] |= UINT64_C(1) << (bo & 63);
    }
    g->digits[x] = digits;
    g->colorset[x] = set;
    if (g->wide) {
        memcpy(g->pos + 2 * (size_t)x, pos, sizeof pos);
        memcpy(g->occ + 2 * (size_t)x, occ, sizeof occ);
    } else {
        g->pos[x] = pos[0];
        g->occ[x] = occ[0];
    }
}

/* The code after peg[] in lexical order; false after the last.  Without
 * repetition the next colour free at the rightmost peg that has one, then
 * the smallest free colours after it: work in proportion to the codes,
 * not to colors^pegs (MM(8,9) without repetition has 362880 codes and
 * 43 million tuples). */
static bool next_code(int *peg, int pegs, int colors, bool repeat)
{
    if (repeat) {
        int i = pegs - 1;
        while (i >= 0 && ++peg[i] == colors)
            peg[i--] = 0;
        return i >= 0;
    }
    unsigned used = 0;
    for (int i = 0; i < pegs; i++)
        used |= 1u << peg[i];
    for (int i = pegs - 1; i >= 0; i--) {
        used &= ~(1u << peg[i]);
        int k = peg[i] + 1;
        while (k < colors && (used >> k & 1u))
            k++;
        if (k == colors)
            continue;
        peg[i] = k;
        used |= 1u << k;
        for (int j = i + 1, c = 0; j < pegs; j++) {
            while (used >> c & 1u)
                c++;
            peg[j] = c;
            used |= 1u << c;
        }
        return true;
    }
    return false;
}

mm_status mm_game_init(mm_game *g, int pegs, int colors, bool repeat,
                       mm_diag *d)
{
    memset(g, 0, sizeof *g);
    if (pegs < 1 || pegs > MM_MAX_PEGS)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "pegs must be 1..%d, not %d", MM_MAX_PEGS, pegs);
    if (colors < 1 || colors > MM_MAX_COLORS)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "colors must be 1..%d, not %d", MM_MAX_COLORS, colors);
    if (!repeat && pegs > colors)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "no code of %d pegs has distinct colours out of %d",
                           pegs, colors);
    uint64_t n = mm_game_count(pegs, colors, repeat);
    if (n > MM_MAX_CODES)
        return mm_diag_set(d, MM_ERR_LIMIT,
                           "MM(%d,%d)%s has %llu codes, more than the %lu mmtree supports "
                           "(its tree would need about %llu MB)",
                           pegs, colors, repeat ? "" : " without repetition",
                           (unsigned long long)n, (unsigned long)MM_MAX_CODES,
                           (unsigned long long)(n * MM_BYTES_PER_CODE >> 20));
    g->pegs = pegs;
    g->colors = colors;
    g->repeat = repeat;
    g->ncodes = (uint32_t)n;
    g->wide = pegs * colors > 64;
    int s = 0;
    memset(g->slot, 0xff, sizeof g->slot);
    for (int b = 0; b <= pegs; b++)
        for (int w = pegs - b; w >= 0; w--, s++) {
            g->black[s] = (uint8_t)b;
            g->white[s] = (uint8_t)w;
            g->slot[b][b + w] = (uint8_t)s;
        }
    g->nreplies = s;
    g->win = s - 1;

    size_t words = g->wide ? 2 : 1;
    g->digits = malloc(n * sizeof *g->digits);
    g->colorset = malloc(n * sizeof *g->colorset);
    g->pos = malloc(n * words * sizeof *g->pos);
    g->occ = malloc(n * words * sizeof *g->occ);
    if (!g->digits || !g->colorset || !g->pos || !g->occ) {
        mm_game_release(g);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %llu codes",
                           (unsigned long long)n);
    }
    /* Enumerate in lexical order, the first code 11..1 or 12..p. */
    int peg[MM_MAX_PEGS] = {0};
    for (int i = 0; i < pegs && !repeat; i++)
        peg[i] = i;
    mm_code x = 0;
    do
        fill_code(g, x++, peg);
    while (next_code(peg, pegs, colors, repeat));
    return MM_OK;
}

void mm_game_release(mm_game *g)
{
    free(g->digits);
    free(g->colorset);
    free(g->pos);
    free(g->occ);
    memset(g, 0, sizeof *g);
}

uint64_t game_split(const mm_game *g, mm_code guess, const mm_code *in, uint32_t n,
                    mm_code *out, uint8_t *slot, uint32_t cnt[MM_MAX_REPLIES],
                    uint32_t start[MM_MAX_REPLIES], uint32_t base)
{
    uint32_t pos[MM_MAX_REPLIES], acc = 0;
    uint64_t parts = 0;
    memset(cnt, 0, MM_MAX_REPLIES * sizeof *cnt);
    for (uint32_t i = 0; i < n; i++) {
        int s = mm_game_score(g, guess, in[i]);
        cnt[s]++;
        slot[i] = (uint8_t)s;
        parts |= UINT64_C(1) << s;
    }
    for (int s = 0; s < g->nreplies; s++) {
        pos[s] = acc;
        start[s] = base + acc;
        acc += cnt[s];
    }
    for (uint32_t i = 0; i < n; i++)
        out[pos[slot[i]]++] = in[i];
    return parts;
}

void mm_game_split(const mm_game *g, mm_code guess, const mm_code *in,
                   uint32_t n, mm_code *out, uint8_t *slot,
                   uint32_t cnt[MM_MAX_REPLIES], uint32_t start[MM_MAX_REPLIES])
{
    game_split(g, guess, in, n, out, slot, cnt, start, 0);
}

mm_status mm_code_parse(const mm_game *g, const char *s, size_t len,
                        mm_code *out, mm_diag *d)
{
    int pegs[MM_MAX_PEGS];
    if (len != (size_t)g->pegs)
        return mm_diag_set(d, MM_ERR_INPUT,
                           "'%.*s' is not a code: it has %zu %s, the game %d",
                           (int)(len > 64 ? 64 : len), s, len, len == 1 ? "peg" : "pegs",
                           g->pegs);
    for (size_t i = 0; i < len; i++) {
        pegs[i] = mm_color_value(g->colors, s[i]);
        if (pegs[i] < 0)
            return mm_diag_set(d, MM_ERR_INPUT,
                               "'%.*s' is not a code: '%c' is not one of the %d colours",
                               (int)len, s, s[i], g->colors);
    }
    mm_code x = mm_game_index(g, pegs);
    if (x == MM_NO_CODE)
        return mm_diag_set(d, MM_ERR_INPUT,
                           "'%.*s' is not a code: the game has no repeated colours",
                           (int)len, s);
    *out = x;
    return MM_OK;
}

char *mm_code_format(const mm_game *g, mm_code x, char *buf)
{
    for (int i = 0; i < g->pegs; i++)
        buf[i] = mm_color_char(g, mm_code_peg(g, x, i));
    buf[g->pegs] = '\0';
    return buf;
}

/* Every pair of codes is a colour permutation away from a pair whose guess
 * uses colours 0,1,.. in order of first appearance with non-increasing
 * multiplicities; scanning those few guesses against all codes finds every
 * reply that can occur. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static uint64_t reply_set(const mm_game *g)
{
    uint64_t set = 0;
    for (mm_code a = 0; a < g->ncodes; a++) {
        int cnt[MM_MAX_COLORS] = {0}, next = 0;
        bool canon = true;
        for (int i = 0; i < g->pegs && canon; i++) {
            int k = mm_code_peg(g, a, i);
            if (cnt[k] == 0 && k != next++)
                canon = false;
            cnt[k]++;
        }
        for (int k = 1; canon && k < g->colors; k++)
            canon = cnt[k] <= cnt[k - 1];
        if (!canon)
            continue;
        for (mm_code b = 0; b < g->ncodes; b++)
            set |= UINT64_C(1) << mm_game_score(g, a, b);
    }
    return set;
}

/* The clones live in a static function: a public one would export its
 * resolver ("mm_game_reply_set.resolver") beside the public name. */
uint64_t mm_game_reply_set(const mm_game *g)
{
    return reply_set(g);
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "fmt_common.h"

#include <stdio.h>
#include <string.h>

bool fmt_rule_ok(const char *s, size_t len)
{
    if (len < 1 || len > FMT_RULE_MAX)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

bool fmt_text_ok(const char *s, size_t len, size_t *bad)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t chars = 0, i = 0;
    *bad = len;
    if (len == 0)
        return false;
    while (i < len) {
        unsigned c = u[i];
        uint32_t cp;
        size_t n;
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n')
                goto fail;
            n = 1;
            cp = c;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            cp = c & 0x07;
        } else {
            goto fail;
        }
        if (n > len - i)
            goto fail;
        for (size_t k = 1; k < n; k++) {
            if ((u[i + k] & 0xC0) != 0x80)
                goto fail;
            cp = cp << 6 | (u[i + k] & 0x3F);
        }
        /* Overlong forms, surrogates, beyond U+10FFFF, non-characters
         * that XML does not allow. */
        if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
            goto fail;
        if (++chars > FMT_TEXT_MAX_CHARS)
            goto fail;
        i += n;
    }
    return true;
fail:
    *bad = i;
    return false;
}


bool fmt_bounds_ok(const mm_tree *t, char *buf, size_t size)
{
    const mm_provenance *pv = &t->prov;
    if (pv->proof != MM_PROOF_UNPROVEN)
        return true;
    mm_stats s;
    mm_tree_stats(t, &s);
    if (pv->lower_total > s.total) {
        snprintf(buf, size, "lower bound %llu is above the tree's own total, %llu",
                 (unsigned long long)pv->lower_total, (unsigned long long)s.total);
        return false;
    }
    if (pv->lower_worst > s.worst) {
        snprintf(buf, size, "worst-case lower bound %d is above the tree's own worst case, %d",
                 pv->lower_worst, s.worst);
        return false;
    }
    return true;
}

bool fmt_provenance_ok(const mm_provenance *pv, bool names, char *buf, size_t size)
{
    if (names && pv->rule && !fmt_rule_ok(pv->rule, strlen(pv->rule)))
        snprintf(buf, size, "rule name '%.64s' is not 1-%d letters, digits, '.', '_' or '-'",
                 pv->rule, FMT_RULE_MAX);
    else if (names && pv->tie_break && !fmt_rule_ok(pv->tie_break, strlen(pv->tie_break)))
        snprintf(buf, size, "tie-break '%.64s' is not 1-%d letters, digits, '.', '_' or '-'",
                 pv->tie_break, FMT_RULE_MAX);
    else if (pv->max_depth < 0 || pv->max_depth > FMT_MAX_DEPTH)
        snprintf(buf, size, "max depth %d is not 0..%d", pv->max_depth, FMT_MAX_DEPTH);
    else if (pv->extra_colors < 0 || pv->extra_colors > FMT_MAX_EXTRA_COLORS)
        snprintf(buf, size, "%d extra colours: not 0..%d", pv->extra_colors,
                 FMT_MAX_EXTRA_COLORS);
    else if (pv->proof != MM_PROOF_NONE && pv->proof != MM_PROOF_PROVEN &&
             pv->proof != MM_PROOF_UNPROVEN)
        snprintf(buf, size, "unknown proof state %d", (int)pv->proof);
    else if (pv->proof == MM_PROOF_UNPROVEN && pv->lower_total < 1)
        snprintf(buf, size, "an unproven tree needs a lower bound of at least 1");
    else if (pv->proof == MM_PROOF_UNPROVEN &&
             (pv->lower_worst < 0 || pv->lower_worst > FMT_MAX_DEPTH))
        snprintf(buf, size, "worst-case lower bound %d is not 0..%d", pv->lower_worst,
                 FMT_MAX_DEPTH);
    else
        return true;
    return false;
}

uint32_t fmt_find_useless(const mm_tree *t)
{
    for (uint32_t i = 0; i < t->nnodes; i++)
        if (!(t->nodes[i].flags & MM_NODE_CONSISTENT) && mm_tree_nchildren(t, i) == 1)
            return i;
    return MM_NO_NODE;
}

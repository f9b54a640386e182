/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* The keys every command and the HTML view use for a tree (core/json.h). */
#include "json.h"

void json_tree_game(json_writer *j, int pegs, int colors, bool repeat)
{
    json_key(j, "pegs");
    json_int(j, pegs);
    json_key(j, "colors");
    json_int(j, colors);
    json_key(j, "repeat");
    json_bool(j, repeat);
}

void json_tree_provenance(json_writer *j, const mm_tree *t, const mm_game *g)
{
    const mm_provenance *p = &t->prov;
    char code[MM_MAX_PEGS + 1];
    if (p->rule) {
        json_key(j, "rule");
        json_str(j, p->rule);
        json_key(j, "consistent_only");
        json_bool(j, p->consistent_only);
        if (p->first != MM_NO_CODE && p->first < g->ncodes) {
            json_key(j, "fixed_first");
            json_str(j, mm_code_format(g, p->first, code));
        }
        if (p->tie_break) {
            json_key(j, "tie_break");
            json_str(j, p->tie_break);
        }
        if (p->max_depth) {
            json_key(j, "max_depth");
            json_int(j, p->max_depth);
        }
        if (p->extra_colors) {
            json_key(j, "extra_colors");
            json_int(j, p->extra_colors);
        }
    }
    if (p->proof != MM_PROOF_NONE) {
        json_key(j, "proven");
        json_bool(j, p->proof == MM_PROOF_PROVEN);
        if (p->proof == MM_PROOF_UNPROVEN) {
            json_key(j, "lower_bound");
            json_uint(j, p->lower_total);
            if (p->lower_worst) {
                json_key(j, "worst_lower_bound");
                json_int(j, p->lower_worst);
            }
        }
    }
    if (p->citation) {
        json_key(j, "citation");
        json_str(j, p->citation);
    }
}

void json_tree_stats(json_writer *j, const mm_stats *s, const mm_game *g, mm_code first)
{
    char code[MM_MAX_PEGS + 1];
    json_key(j, "codes");
    json_uint(j, s->codes);
    json_key(j, "total");
    json_uint(j, s->total);
    json_key(j, "expected");
    json_double(j, s->codes ? (double)s->total / (double)s->codes : 0.0, 10);
    json_key(j, "worst");
    json_int(j, s->worst);
    json_key(j, "histogram");
    json_array_begin(j);
    for (int i = 0; i < s->worst && i < 64; i++)
        json_uint(j, s->hist[i]);
    json_array_end(j);
    json_key(j, "nodes");
    json_uint(j, s->nodes);
    json_key(j, "inconsistent");
    json_uint(j, s->inconsistent);
    if (first != MM_NO_CODE && first < g->ncodes) {
        json_key(j, "first");
        json_str(j, mm_code_format(g, first, code));
    }
}

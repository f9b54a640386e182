/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Prints a tree file in a Knuth-like bracket notation, a stand-in for the
 * knuth writer in bin_size.sh until that writer exists: "n" for n <= 2,
 * "n(y)" when every reply to y identifies the code, "n(yx)" when no part
 * exceeds two codes, else "n(y: part, ...)" over every slot but the win
 * ("0" for an empty one).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mmtree/format.h"

static mm_game g;
static const mm_tree *t;

static void dump(uint32_t i)
{
    const mm_node *n = &t->nodes[i];
    char code[MM_MAX_PEGS + 1];
    printf("%u", n->count);
    if (n->count <= 2)
        return;
    uint32_t big = 0;
    for (int s = 0; s < g.nreplies; s++) {
        uint32_t c = mm_tree_child(t, i, s);
        if (c != MM_NO_NODE && t->nodes[c].count > big)
            big = t->nodes[c].count;
    }
    mm_code_format(&g, n->guess, code);
    if (big <= 2) {
        printf("(%s%s)", code, big == 2 ? "x" : "");
        return;
    }
    printf("(%s:", code);
    for (int s = 0; s < g.nreplies; s++) {
        if (s == g.win)
            continue;
        uint32_t c = mm_tree_child(t, i, s);
        printf(s ? ", " : " ");
        if (c == MM_NO_NODE)
            printf("0");
        else
            dump(c);
    }
    printf(")");
}

int main(int argc, char **argv)
{
    mm_tree tree;
    mm_diag d;
    mm_diag_clear(&d);
    if (argc != 2 || mm_tree_read_file(argv[1], MM_FMT_AUTO, 0, &tree, &d) ||
        mm_game_init(&g, tree.pegs, tree.colors, tree.repeat, &d)) {
        fprintf(stderr, "bin_textdump: %s\n", d.msg);
        return 1;
    }
    t = &tree;
    dump(0);
    printf("\n");
    mm_tree_release(&tree);
    mm_game_release(&g);
    return 0;
}

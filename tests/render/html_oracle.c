/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Test helper: what the HTML view must show, computed by the C library,
 * for tests/render/html_browser.py to compare with the page's DOM.
 *
 *   html_oracle score              JSON: for several games, pairs of codes
 *                                  and their reply slot, codes and their
 *                                  letters, replies' letters and the slot
 *                                  they parse as (-1: refused)
 *   html_oracle find TREE CODE...  per code: CODE GUESSES PATH, PATH the
 *                                  steps before the guess that finds it;
 *                                  no CODE: the first code that needs
 *                                  the most guesses; "error MESSAGE" for
 *                                  a text that is not a code
 *   html_oracle node TREE PATH     GUESS COUNT EXPECTED WORST CONSISTENT,
 *                                  or "error MESSAGE"
 *   html_oracle play TREE SECRET GUESS...
 *                                  per guess: GUESS REPLY CODES-LEFT
 *   html_oracle unproven OUT.html  the page of MM(3,4) marked as an
 *                                  optimal tree not proven, lower bound 201
 *
 * Exit status: 0 ok, 2 error (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/format.h"
#include "mmtree/path.h"
#include "mmtree/render.h"

#include "tests/draw.h"

static mm_diag diag;

static int die(const char *what)
{
    fprintf(stderr, "html_oracle: %s: %s\n", what, diag.msg);
    return 2;
}

static int score_cases(void)
{
    static const struct {
        int p, c;
        bool repeat;
    } games[] = {{1, 1, true}, {2, 3, true},  {4, 6, true},  {4, 10, false},
                 {5, 8, true}, {3, 12, true}, {4, 16, true}, {7, 7, false},
                 {8, 4, true}, {6, 9, true},  {8, 9, false}};
    printf("[");
    for (size_t k = 0; k < sizeof games / sizeof *games; k++) {
        mm_game g;
        if (mm_game_init(&g, games[k].p, games[k].c, games[k].repeat, &diag))
            return die("game");
        char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
        printf("%s\n{\"pegs\": %d, \"colors\": %d, \"repeat\": %s, \"ncodes\": %lu,\n \"pairs\": [",
               k ? "," : "", g.pegs, g.colors, g.repeat ? "true" : "false",
               (unsigned long)g.ncodes);
        /* Every pair of a small game, else 3000 at random. */
        bool all = (uint64_t)g.ncodes * g.ncodes <= 3000;
        uint32_t n = all ? g.ncodes * g.ncodes : 3000;
        for (uint32_t i = 0; i < n; i++) {
            mm_code a = all ? i / g.ncodes : draw(g.ncodes), b = all ? i % g.ncodes : draw(g.ncodes);
            if (i == 1 && !all)
                b = a; /* a win */
            printf("%s[%lu, %lu, %d]", i ? ", " : "", (unsigned long)a, (unsigned long)b,
                   mm_game_score(&g, a, b));
        }
        printf("],\n \"codes\": [");
        for (uint32_t i = 0; i < 200; i++) {
            mm_code x = i == 0 ? 0 : i == 1 ? g.ncodes - 1 : draw(g.ncodes);
            printf("%s[%lu, \"%s\"]", i ? ", " : "", (unsigned long)x, mm_code_format(&g, x, code));
        }
        /* Each slot's letters, and the slot they parse as (-1: refused,
         * a reply that cannot happen). */
        printf("],\n \"replies\": [");
        for (int s = 0; s < g.nreplies; s++) {
            int back = -1;
            mm_reply_format(&g, s, reply);
            if (mm_reply_parse(&g, reply, strlen(reply), &back, &diag))
                back = -1;
            printf("%s[\"%s\", %d]", s ? ", " : "", reply, back);
        }
        printf("]}");
        mm_game_release(&g);
    }
    printf("]\n");
    return 0;
}

typedef struct loaded {
    mm_tree t;
    mm_game g;
} loaded;

static int load(loaded *l, const char *file)
{
    mm_tree_init(&l->t, 0, 0, true);
    if (mm_tree_read_file(file, MM_FMT_AUTO, 0, &l->t, &diag))
        return die(file);
    if (mm_game_init(&l->g, l->t.pegs, l->t.colors, l->t.repeat, &diag))
        return die("game");
    return 0;
}

static void unload(loaded *l)
{
    mm_game_release(&l->g);
    mm_tree_release(&l->t);
}

/* The nodes the tree visits for secret x: up to MM's 64 levels. */
static int play_tree(const loaded *l, mm_code x, uint32_t *nodes)
{
    int n = 0;
    for (uint32_t v = 0; v != MM_NO_NODE && n < 64;) {
        nodes[n++] = v;
        if (l->t.nodes[v].guess == x)
            return n;
        v = mm_tree_child(&l->t, v, mm_game_score(&l->g, l->t.nodes[v].guess, x));
    }
    return -1;
}

/* The first code in lexical order that needs the most guesses. */
static mm_code worst_code(const loaded *l)
{
    uint32_t nodes[64];
    mm_code worst = 0;
    int most = 0;
    for (mm_code x = 0; x < l->g.ncodes; x++) {
        int n = play_tree(l, x, nodes);
        if (n > most)
            most = n, worst = x;
    }
    return worst;
}

static int find(const char *file, int argc, char **argv)
{
    loaded l;
    if (load(&l, file))
        return 2;
    for (int i = 0; i < (argc ? argc : 1); i++) {
        mm_code x;
        uint32_t nodes[64];
        char code[MM_MAX_PEGS + 1];
        if (!argc) {
            x = worst_code(&l);
            mm_code_format(&l.g, x, code);
        } else if (mm_code_parse(&l.g, argv[i], strlen(argv[i]), &x, &diag)) {
            printf("error %s\n", diag.msg);
            continue;
        } else {
            snprintf(code, sizeof code, "%s", argv[i]);
        }
        int n = play_tree(&l, x, nodes);
        if (n < 0)
            return die("a code the tree does not find");
        mm_step steps[64];
        for (int k = 0; k + 1 < n; k++)
            steps[k] = (mm_step){l.t.nodes[nodes[k]].guess,
                                 mm_game_score(&l.g, l.t.nodes[nodes[k]].guess, x)};
        char path[64 * MM_STEP_MAX];
        mm_path_format(&l.g, steps, (uint32_t)n - 1, path, sizeof path);
        printf("%s %d %s\n", code, n, path);
    }
    unload(&l);
    return 0;
}

/* Sum of guesses and the worst, over the codes found under node v, counted
 * from v (its guess is guess 1). */
static void subtree(const mm_tree *t, uint32_t v, int depth, uint64_t *total, int *worst)
{
    if (t->nodes[v].flags & MM_NODE_CONSISTENT) {
        *total += (uint64_t)depth;
        if (depth > *worst)
            *worst = depth;
    }
    for (int j = 0; j < mm_tree_nchildren(t, v); j++)
        subtree(t, t->nodes[v].child + (uint32_t)j, depth + 1, total, worst);
}

static int node(const char *file, const char *path)
{
    loaded l;
    uint32_t v;
    if (load(&l, file))
        return 2;
    if (mm_tree_find(&l.t, &l.g, path, &v, &diag)) {
        printf("error %s\n", diag.msg);
        unload(&l);
        return 0;
    }
    uint64_t total = 0;
    int worst = 0;
    subtree(&l.t, v, 1, &total, &worst);
    const mm_node *n = &l.t.nodes[v];
    char code[MM_MAX_PEGS + 1];
    printf("%s %lu %.2f %d %d\n", mm_code_format(&l.g, n->guess, code), (unsigned long)n->count,
           (double)total / n->count, worst, (n->flags & MM_NODE_CONSISTENT) != 0);
    unload(&l);
    return 0;
}

static int play(const char *file, const char *secret, int argc, char **argv)
{
    loaded l;
    mm_code x, guess[64];
    int slot[64];
    if (load(&l, file))
        return 2;
    if (mm_code_parse(&l.g, secret, strlen(secret), &x, &diag))
        return die(secret);
    for (int i = 0; i < argc && i < 64; i++) {
        if (mm_code_parse(&l.g, argv[i], strlen(argv[i]), &guess[i], &diag))
            return die(argv[i]);
        slot[i] = mm_game_score(&l.g, guess[i], x);
        uint32_t left = 0;
        for (mm_code y = 0; y < l.g.ncodes; y++) {
            int k = 0;
            while (k <= i && mm_game_score(&l.g, guess[k], y) == slot[k])
                k++;
            left += k > i;
        }
        char reply[MM_REPLY_MAX];
        printf("%s %s %lu\n", argv[i], mm_reply_format(&l.g, slot[i], reply), (unsigned long)left);
    }
    unload(&l);
    return 0;
}

static int unproven(const char *out)
{
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 3, 4, true, &diag) || mm_compile(&g, &o, &t, &diag))
        return die("compile");
    if (mm_tree_set_rule(&t, "optimal", false, MM_NO_CODE))
        return die("rule");
    t.prov.proof = MM_PROOF_UNPROVEN;
    t.prov.lower_total = 201;
    if (mm_render_file(&t, &g, NULL, out, NULL, &diag))
        return die(out);
    mm_tree_release(&t);
    mm_game_release(&g);
    return 0;
}

int main(int argc, char **argv)
{
    mm_diag_clear(&diag);
    if (argc == 2 && !strcmp(argv[1], "score"))
        return score_cases();
    if (argc >= 3 && !strcmp(argv[1], "find"))
        return find(argv[2], argc - 3, argv + 3);
    if (argc == 4 && !strcmp(argv[1], "node"))
        return node(argv[2], argv[3]);
    if (argc >= 4 && !strcmp(argv[1], "play"))
        return play(argv[2], argv[3], argc - 4, argv + 4);
    if (argc == 3 && !strcmp(argv[1], "unproven"))
        return unproven(argv[2]);
    fprintf(stderr, "usage: html_oracle score | find TREE CODE... | node TREE PATH | "
                    "play TREE SECRET GUESS... | unproven OUT.html\n");
    return 2;
}

/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * libmmtree: strategy trees for Mastermind and its relatives.
 *
 * A codebreaking game MM(p,c) has p pegs and c colours, with or without
 * repeated colours (Bulls and Cows is MM(4,10) without).  A strategy tree
 * says which guess to make at every position, and so how many guesses
 * every secret code takes.  libmmtree builds such trees from the rules of
 * the literature or as exact optima, reads and writes them in four
 * formats, checks, compares, queries and draws them:
 *
 *   mmtree/game.h     the game: codes, Knuth's score, the order of replies
 *   mmtree/tree.h     the tree, its statistics and provenance
 *   mmtree/path.h     replies and paths, "1122:B,1344:W"
 *   mmtree/query.h    questions of a game: the codes still possible, the
 *                     game a tree plays against a code, its depths
 *   mmtree/compile.h  building a tree from a rule (mm_compile); a search's
 *                     checkpoint (mm_checkpoint_read), and what it has
 *                     proven at a position (mm_checkpoint_position_read)
 *   mmtree/partition.h  what a guess does to a set of codes; lower bounds
 *   mmtree/format.h   reading and writing trees; files
 *   mmtree/verify.h   checking a tree against its game; comparing two
 *   mmtree/render.h   drawing a tree (Graphviz), or an HTML view
 *
 * A short program (examples/knuth.c does this):
 *
 *     mm_game g;  mm_tree t;  mm_compile_opts o;  mm_diag d;
 *     mm_diag_clear(&d);
 *     mm_game_init(&g, 4, 6, true, &d);        // MM(4,6)
 *     mm_compile_opts_init(&o);                // Knuth's rule
 *     mm_compile(&g, &o, &t, &d);              // the tree
 *     mm_stats s;  mm_tree_stats(&t, &s);      // s.total == 5801
 *     mm_tree_release(&t);  mm_game_release(&g);
 *
 * Conventions.  The library never prints, never exits and never reads
 * argv: a function that can fail returns an mm_status (MM_OK is 0) and,
 * when given an mm_diag, fills it with a one-line message and the place
 * of the problem (file, line:col or byte offset).  An object is set up by
 * its _init function and released by its _release; every allocation has
 * one owner, named where the function is declared.  Functions are safe to
 * call from several threads on different objects, except drawing with
 * Graphviz (see render.h).  Names: public ones start with mm_ (types,
 * functions) or MM_ (constants); everything else in the library is
 * hidden.  The shared library exports these names under version MMTREE_0.
 */
#ifndef MMTREE_H
#define MMTREE_H

#define MMTREE_VERSION_MAJOR 0
#define MMTREE_VERSION_MINOR 2
#define MMTREE_VERSION_PATCH 0
#define MMTREE_VERSION_STRING "0.2.0"

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/tree.h>
#include <mmtree/path.h>
#include <mmtree/query.h>
#include <mmtree/compile.h>
#include <mmtree/partition.h>
#include <mmtree/format.h>
#include <mmtree/verify.h>
#include <mmtree/render.h>

/* The version of the library that runs, as "major.minor.patch" (it may
 * differ from MMTREE_VERSION_STRING, the one compiled against). */
MM_EXPORT const char *mm_version(void);

#endif

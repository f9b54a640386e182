/*
 * libmmtree: strategy trees for Mastermind-like codebreaking games.
 *
 * core/     the game model (mm_game), the tree (mm_tree), diagnostics
 * compiler/ one-step rules and exact optima that build trees (mm_compile)
 * format/   the Knuth and Irving bracket notations, XML, binary (mm_format)
 * verify/   checking and comparing trees
 * render/   drawing trees with Graphviz
 *
 * The library never prints or exits; functions return an mm_status and
 * describe problems in an mm_diag.
 */
#ifndef MMTREE_H
#define MMTREE_H

#define MMTREE_VERSION_MAJOR 0
#define MMTREE_VERSION_MINOR 1
#define MMTREE_VERSION_PATCH 0

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/tree.h>

/* The library's version as "major.minor.patch". */
MM_EXPORT const char *mm_version(void);

#endif

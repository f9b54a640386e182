/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The tree compiler: builds the complete strategy tree of a game from a
 * rule.  One-step rules score each candidate guess by the partition it
 * makes of the remaining codes; ties go to a guess that can still be the
 * code, then to the first in lexical order (mm_tie_break for the other
 * orders the papers used).
 */
#ifndef MMTREE_COMPILE_H
#define MMTREE_COMPILE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/path.h>
#include <mmtree/tree.h>

typedef enum mm_rule {
    MM_RULE_NAIVE,    /* Shapiro: first consistent code */
    MM_RULE_KNUTH,    /* minimise the largest part */
    MM_RULE_IRVING,   /* minimise the sum of squared part sizes */
    MM_RULE_ENTROPY,  /* maximise partition entropy (Neuwirth's e1) */
    MM_RULE_KOOI,     /* maximise the number of parts */
    MM_RULE_BRANCH2,  /* Witteveen-van Eijck's branch2Play */
    MM_RULE_E3,       /* Neuwirth's e3: sum of perfect-tree lower bounds */
    MM_RULE_OPTIMAL,            /* least total, then least worst case,
                                   then fewest codes at the worst depth */
    MM_RULE_OPTIMAL_CONSISTENT, /* the same over consistent guesses only */
    MM_RULE_OPTIMAL_WORST,      /* least worst case, then least total,
                                   then fewest codes at the worst depth */
    MM_RULE_COUNT,
} mm_rule;

/* Rules below this one are one-step rules. */
#define MM_RULE_COUNT_ONE_STEP MM_RULE_OPTIMAL

struct mm_optimal_report;

/* How a one-step rule chooses among guesses of equal score.  Sets of one
 * or two codes are always guessed in lexical order (the notations leave
 * that guess implicit), and the naive rule has no scores to tie. */
typedef enum mm_tie_break {
    MM_TIE_FIRST = 0,          /* a guess that can be the code, then the
                                  first in lexical order (Knuth 1976) */
    MM_TIE_LAST,               /* a guess that can be the code, the first
                                  in lexical order; when none of the best
                                  can be, the last (Kooi 2005, s5) */
    MM_TIE_INCONSISTENT_FIRST, /* a guess that cannot be the code, then
                                  the first in lexical order */
    MM_TIE_COUNT,
} mm_tie_break;

/* How the threads of an optimal search share the work: the guesses of
 * the root, or of each part after a single first guess. */
typedef enum mm_share {
    MM_SHARE_AUTO = 0,   /* the default: as MM_SHARE_PARTS */
    MM_SHARE_GUESSES,    /* the guesses, each on one thread */
    MM_SHARE_PARTS,      /* the parts of the first guess, then the
                            other guesses */
} mm_share;

typedef struct mm_compile_opts {
    mm_rule rule;
    bool consistent_only;  /* guess only codes that can still be the code */
    mm_code first;         /* fixed first guess, or MM_NO_CODE */
    int threads;           /* 0 = one per core */
    bool no_symmetry;      /* baseline: score every code, no class reduction */
    bool no_prune;         /* baseline: score every guess in full */
    bool no_simd;          /* baseline: no vector instructions (optimal
                              rules), as on a CPU without AVX2 */
    bool no_replies;       /* baseline: no table of replies (optimal
                              rules; compiler/opt_score.c) */
    bool no_agree;         /* baseline: no agreement bound in games of
                              permutations (optimal rules;
                              compiler/opt_bound.c) */
    /* The exact optima (rules optimal...; see compiler/optimal.c). */
    double time_limit;     /* seconds; 0 = none.  When it runs out the best
                              tree found so far is returned, not proven */
    const char *checkpoint;/* file the search saves to and resumes from
                              (compiler/checkpoint.md); a file that is not
                              a checkpoint of this game and rule is refused */
    const char *bounds_from; /* optimal-worst, or max_depth: a checkpoint
                              of the optimal search of the same game (and
                              position, after), without a depth cap and not
                              consistent-only, whose facts the search takes
                              as bounds.  A tree within a depth is a tree,
                              so no tree within it is below the least value
                              of all; where that value's tree fits the
                              depth, it is the value within it too.  The
                              result is proven as far as that checkpoint's
                              facts are, as a resumed search's is */
    double checkpoint_every; /* seconds between saves (default 600) */
    bool keep_checkpoint;  /* keep it once the value is proven (else it is
                              removed) */
    bool value_only;       /* search values only, then build the tree */
    bool consistent_bound; /* start from the consistent-only optimum as
                              Ville 5.2 advises; off by default: here it
                              saves about what it costs (bench_optimal.sh) */
    bool no_cache;         /* baseline: no table of solved code sets */
    mm_share share;        /* what the threads share (default: by size) */
    size_t cache_mb;       /* its size at most, in MiB (16 to 1048576;
                              0: 1024, or 64 KiB a code when less) */
    const volatile sig_atomic_t *stop; /* when *stop becomes non-zero (a signal),
                                 stop as if the time limit ran out; a
                                 polish that follows stops (keeping what
                                 it bettered) when *stop rises above the
                                 value it had as the polish began */
    uint64_t stop_after;   /* for tests: stop as on a signal once the search
                              has visited this many sets (0 = never) */
    void (*progress)(void *arg, const struct mm_optimal_report *r);
    void *progress_arg;    /* called once the search has started (r->resumed:
                              what the checkpoint held), then every
                              progress_every seconds or so, and once
                              when it has ended (r->ended) */
    double progress_every; /* seconds between reports (default 1) */
    struct mm_optimal_report *report; /* filled in when not NULL */
    mm_tie_break tie_break; /* one-step rules but naive; default first */
    /* A position: with nafter > 0 the tree is that of the codes left after
     * these steps, its root the node the path reaches (a tree of the
     * position, not of the whole game: mm_tree_check does not apply, its
     * statistics count guesses from the position on).  first is then the
     * position's guess.  Papers print such trees and their totals. */
    const mm_step *after;
    uint32_t nafter;
    int max_depth;         /* optimal rules: the least total (worst case)
                              among trees that never need more than this
                              many guesses (Koyama and Lai: 5626 for
                              MM(4,6) within 5); 0: no cap, at most 63 */
    uint32_t polish;       /* optimal rules: a search that stops solves
                              again each sub-tree of its tree of at most
                              this many codes (the largest such below
                              the root) and builds anew those it betters,
                              within the depth the rule allows there (a
                              stop ends it early: see stop), having first
                              taken from its table the sub-trees of any
                              size it had solved, and built those it had
                              left unfinished with a guess whose every part
                              it had solved from that guess; 0: none */
    const mm_tree *start;  /* optimal rules: a tree of the game (with
                              after, its node the path reaches) that starts
                              the search when it is better than the
                              one-step rules' trees, so that a stopped
                              search never returns worse; the tree of a
                              finished one is the same without it.  One
                              deeper than the rule allows (--max-depth,
                              optimal-worst's least worst case) cannot
                              start it, but with polish a stopped search
                              polishes it into the depth too, and writes
                              it when it is better.  It must pass
                              mm_compile_start_check; NULL: none */
} mm_compile_opts;

/* What an optimal search found and how much work it took. */
typedef struct mm_optimal_report {
    bool proven;           /* the tree is optimal (else: stopped early) */
    uint64_t total, lower; /* total of the tree (during the search the
                              best found, 0 while none is); proven lower
                              bound */
    int worst, worst_lower;/* its worst case; the bound (optimal-worst) */
    uint64_t upper_first;  /* the first upper bound (one-step rules
                              or the --start tree) */
    uint64_t nodes;        /* code sets searched */
    uint64_t cache_hits;   /* sets answered by the table */
    uint64_t guesses;      /* candidate guesses scored */
    uint64_t guesses_all;  /* guesses there would be without symmetry */
    double elapsed;        /* seconds so far */
    double done;           /* share of the work done, 0..1: the mean over
                              the first guesses of the share of their
                              parts' codes solved (during the search) */
    mm_code current;       /* the first guess being tried, or MM_NO_CODE;
                              in the last report the tree's */
    bool ended;            /* the last report: the search is over */
    uint64_t resumed;      /* sets loaded from the checkpoint */
    double cpu;            /* processor seconds (user + system) of the
                              process during the search */
    double cpu_before;     /* those of the earlier runs the checkpoint
                              counts, runs_before of them; each save adds
                              the run's own */
    uint32_t runs_before;
    uint64_t bounds_loaded;/* facts loaded from bounds_from, and the */
    double cpu_bounds;     /* processor seconds of the runs_bounds runs */
    uint32_t runs_bounds;  /* that search counts (its checkpoint's time) */
    bool cpu_partial;      /* the checkpoint's count leaves work out: a
                              run that saved a version 3 checkpoint (which
                              had no time), the other processes of a
                              search spread over several, or a search with
                              bounds_from (the bounds' search, whose facts
                              its checkpoint keeps) */
    /* A stopped search's tree polished (polish): sub-trees solved again,
     * those bettered, the guesses that saved (negative when sub-trees
     * over the depth cap had to grow to fit) and the seconds it took;
     * polishing: the report comes while it is polished (the counts so
     * far; a start tree's after the search's own, counted afresh);
     * polish_stopped: *stop rose during the polish, which ended there
     * (the sub-trees it had not solved again are as they were). */
    bool polishing, polish_stopped;
    uint64_t polish_solved, polish_bettered;
    int64_t polish_saved;
    double polish_time;
    bool checkpoint_failed;/* the final save of the checkpoint (or the
                              removal of a proven run's) failed: mm_compile
                              returns the tree all the same, and its diag
                              says why */
    /* optimal-worst looks for the least worst case first, by a search that
     * asks whether a depth is enough (so does optimal with max_depth, for
     * that depth): worst_lower is proven then, worst_upper the least worst
     * case of a tree found so far (0: none); then for the least total at
     * that depth.  The total bounds and done are those of the second part;
     * during the first, done is 0 and trying is the depth being asked
     * about (0 otherwise), current the first guess being tried at it, of
     * those it has to try (candidates) the one after the tried ruled out
     * already. */
    bool worst_first;      /* the rule wants the least worst case first */
    int worst_upper;
    int trying;
    uint32_t tried, candidates;
} mm_optimal_report;

MM_EXPORT void mm_compile_opts_init(mm_compile_opts *o);

/* Rule by name ("naive", "knuth", ...): MM_OK, or MM_ERR_USAGE with a
 * message listing the known rules. */
MM_EXPORT mm_status mm_rule_parse(const char *name, mm_rule *rule, mm_diag *d);
MM_EXPORT const char *mm_rule_name(mm_rule rule);

/* Tie-break by name ("first", "last", "inconsistent-first"): MM_OK, or
 * MM_ERR_USAGE with a message listing them. */
MM_EXPORT mm_status mm_tie_break_parse(const char *name, mm_tie_break *tie,
                                       mm_diag *d);
MM_EXPORT const char *mm_tie_break_name(mm_tie_break tie);

/* Build the complete tree of g under o into t (initialised here). */
MM_EXPORT mm_status mm_compile(const mm_game *g, const mm_compile_opts *o, mm_tree *t,
                     mm_diag *d);

/* Can o->start start o's search?  It must be a checked tree of g that
 * follows o->after, whose guess there is o->first when that is set, with
 * guesses that can be the code only for optimal-consistent (or
 * consistent_only), and no deeper than o->max_depth when that is set
 * (with o->polish it may be: a stopped search polishes it into the
 * depth, as it does one deeper than optimal-worst's least worst case).
 * MM_OK, or MM_ERR_USAGE (MM_ERR_INPUT: the tree check) saying why not,
 * as mm_compile would. */
MM_EXPORT mm_status mm_compile_start_check(const mm_game *g, const mm_compile_opts *o,
                                           mm_diag *d);

/* The guess o->rule makes on the codes S[0..n) (distinct, in lexical
 * order): what mm_compile would guess at a node with those codes, for
 * games too big to store a tree.  played has bit k set when colour k
 * was in a guess before; S must then be the codes that agree with those
 * guesses' replies (mm_codes_after), which lets the colours never
 * played be scored as one.  For a set of other origin, pass every
 * colour: the same guess, found with more work.  With played == 0 and
 * every code in S, o->first is the guess when set; o->consistent_only
 * and o->tie_break count as in mm_compile.  One thread; for a set of 2
 * codes or fewer, and for the naive rule, S[0] at once.  The optimal rules choose
 * from a whole tree (mm_compile it) and are MM_ERR_USAGE here, as are
 * an empty or unsorted set; MM_ERR_NOMEM. */
MM_EXPORT mm_status mm_compile_guess(const mm_game *g, const mm_compile_opts *o,
                                     const mm_code *S, uint32_t n, uint16_t played,
                                     mm_code *guess, mm_diag *d);

/* What guess is worth at a position under o->rule (and its
 * consistent_only and tie_break): the statistics of the tree mm_compile
 * builds of the codes left after steps[0..n) (the whole game when n is
 * 0) with guess there and the rule everywhere below, counted from the
 * position, guess included; MM_NO_CODE for the rule's own guess.
 * st->total / st->codes is the expected number of guesses from there, so
 * the difference between a guess's and the rule's is what the guess
 * costs in expected guesses.  o->after, o->nafter and o->first are
 * ignored; o is not changed.  Errors as mm_compile's, and MM_ERR_USAGE
 * when a step ends the game or leaves no code. */
MM_EXPORT mm_status mm_position_stats(const mm_game *g, const mm_compile_opts *o,
                                      const mm_step *steps, uint32_t n, mm_code guess,
                                      mm_stats *st, mm_diag *d);

/* What a checkpoint of an optimal search holds (mm_checkpoint_read). */
typedef struct mm_checkpoint_info {
    int pegs, colors;
    bool repeat;
    mm_rule rule;          /* MM_RULE_OPTIMAL, _CONSISTENT or _WORST */
    bool consistent_only;
    int max_depth;         /* the depth cap; 0: none */
    bool whole_game;       /* the search starts from all the codes (else
                              from a position: --after, --extra-colors) */
    double cpu;            /* processor seconds of the runs that saved it, */
    uint32_t runs;         /* how many, */
    bool cpu_partial;      /* and whether the count leaves work out */
    uint64_t facts;        /* facts about sets, */
    uint64_t exact;        /* those that are values (the rest are bounds) */
    /* the same by the size of the set: [k] counts sets of 2^k to
     * 2^(k+1) - 1 codes (k >= 1: a set of 3 codes at least) */
    uint64_t facts_by_size[21], exact_by_size[21];
    uint64_t written;      /* facts written to out */
} mm_checkpoint_info;

/* Read the checkpoint at path (compiler/checkpoint.md), check it whole as
 * a search that resumes it would, against the game and rule its header
 * gives, and say what it holds in *info.  With out (a file, atomically;
 * it may be path), write there a checkpoint of the same search that
 * holds only the facts about sets of at least min_codes codes, and the
 * time of path's runs: a smaller file that a search resumes from as it
 * would from path, the work below those sets to do again (a long search
 * keeps most of what it has proven in its largest sets).  MM_ERR_INPUT
 * naming path and the offset when it is not a valid checkpoint;
 * MM_ERR_IO, MM_ERR_NOMEM, MM_ERR_USAGE ('-' for either file). */
MM_EXPORT mm_status mm_checkpoint_read(const char *path, const char *out, uint32_t min_codes,
                                       mm_checkpoint_info *info, mm_diag *d);

/* Read only the header of the checkpoint at path: the game, rule and
 * options of its search into *info, nothing else (its facts, time and
 * counts 0).  The file is not checked past its header, as
 * mm_checkpoint_read and mm_checkpoint_position_read check it whole; a
 * reader of gigabytes that needs the game first saves a pass.  Errors
 * as theirs. */
MM_EXPORT mm_status mm_checkpoint_header(const char *path, mm_checkpoint_info *info,
                                         mm_diag *d);

/* What a checkpoint has proven about one set of codes: a value (the
 * least total, its worst case and codes at that depth) or a lower bound
 * on the total, about trees within some number of guesses (optimal-worst
 * and --max-depth searches keep facts of each depth they tried). */
typedef struct mm_checkpoint_fact {
    bool known;            /* the checkpoint holds a fact about the set */
    bool exact;            /* the value; else total is a lower bound */
    bool none;             /* with exact: no tree within `within` guesses */
    uint64_t total;        /* guesses to find each code, summed */
    int worst;             /* of a value: its worst case, */
    uint32_t at_worst;     /* the codes at that depth, */
    mm_code guess;         /* and its guess (MM_NO_CODE: none kept) */
    int within;            /* the depth limit of the fact; 0: none */
} mm_checkpoint_fact;

/* A guess at the position and what the checkpoint knows of its parts. */
typedef struct mm_checkpoint_guess {
    mm_code guess;
    uint32_t nparts;       /* parts, in reply order; the winning one not */
    int slot[MM_MAX_REPLIES];
    uint32_t codes[MM_MAX_REPLIES];
    mm_checkpoint_fact part[MM_MAX_REPLIES];  /* a part of 1 or 2 codes:
                              its value, which no checkpoint holds */
    uint64_t bound;        /* the position's codes plus each part's value,
                              or its lower bound: the known one or the
                              perfect tree's, whichever is higher (facts
                              about trees of any depth only) */
    bool exact;            /* every part's value known: bound is the
                              guess's total */
} mm_checkpoint_guess;

/* What a checkpoint has proven about a position and each guess there. */
typedef struct mm_checkpoint_position {
    mm_checkpoint_info info;  /* as mm_checkpoint_read gives it */
    uint32_t codes;           /* the codes left at the position */
    mm_checkpoint_fact fact;  /* about that set */
    size_t nguesses;          /* the guesses that split the codes and
                                 have a fact about a part of 3 codes or
                                 more, */
    mm_checkpoint_guess *guesses;  /* least bound first, then exact ones,
                                 then in code order (malloc'd) */
} mm_checkpoint_position;

/* Read the checkpoint at path, checked whole as mm_checkpoint_read does,
 * and say what it has proven about the position the n steps reach in g
 * (which must be the checkpoint's game; MM_ERR_INPUT otherwise), and
 * about each part of each guess there: the work a stopped search has
 * done and has left, guess by guess.  Facts are those of the
 * checkpoint's mode (consistent-only or not); of several about a set,
 * the one about the most guesses, a value before a bound.  Each guess
 * of g is tried (the 5040 of MM(7,7) without repeats at 1855 codes: a
 * tenth of a second besides the reading).
 * MM_ERR_USAGE when the steps leave no code (naming the step) or end the
 * game; MM_ERR_LIMIT when the codes left times the game's pass 2^32, or
 * the parts to look up 2^24 (a longer path is asked for); errors as
 * mm_checkpoint_read's.  Release *out with mm_checkpoint_position_release
 * (also after an error). */
MM_EXPORT mm_status mm_checkpoint_position_read(const char *path, const mm_game *g,
                                                const mm_step *steps, uint32_t n,
                                                mm_checkpoint_position *out, mm_diag *d);
MM_EXPORT void mm_checkpoint_position_release(mm_checkpoint_position *p);

#endif

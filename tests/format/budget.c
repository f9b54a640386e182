/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Hostile input within bounds: every reader keeps to the budget of its
 * spec (format/bracket.md, format/binary.md, schemas/mmtree.xsd: "Budget"),
 * and so do verify --suggest and build.  Each case generates its input
 * here (nothing big is checked in), runs in a child process that reports
 * the status, the message and what the read cost (mm_read_cost, the
 * verifier's suggest_work), and is judged on those and on the child's
 * peak memory (wait4's ru_maxrss) -- never on time; an alarm far above
 * what any case needs catches a hang.
 *
 *   budget MMTREE [--no-memory]   (sanitizer builds skip the memory test:
 *                                  their shadow memory is not the reader's)
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "mmtree/compile.h"
#include "mmtree/format.h"
#include "mmtree/verify.h"

static bool check_memory = true;
static const char *mmtree;

#include "tests/check.h"
#include "tests/bytes.h"

/* ---- inputs ---- */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap ? 2 * t->cap : 4096;
        if (n >= 0 && t->cap < t->len + (size_t)n + 1)
            t->cap = t->len + (size_t)n + 1;
        if (!(t->p = realloc(t->p, t->cap))) {
            perror("realloc");
            exit(1);
        }
    }
}

/* A version 1 file of MM(pegs, colors) with repetition around a payload
 * of plen bytes (payload NULL: zeros). */
static unsigned char *bin_file(int pegs, int colors, uint32_t nodes, const unsigned char *payload,
                               size_t plen, size_t *len)
{
    unsigned char *f = calloc(plen + 24, 1);
    if (!f) {
        perror("calloc");
        exit(1);
    }
    memcpy(f, "\x89MMT\r\n\x1a\n", 8);
    f[8] = 1;
    f[9] = (unsigned char)pegs;
    f[10] = (unsigned char)colors;
    f[11] = 0x01;
    put_le32(f + 12, nodes);
    put_le32(f + 16, (uint32_t)plen);
    if (payload)
        memcpy(f + 20, payload, plen);
    put_le32(f + 20 + plen, crc32_bitwise(f, 20 + plen));
    *len = plen + 24;
    return f;
}

/* MM(5,16), 2^20 codes: the largest game mmtree sets up.  Guess 11111
 * (colour 1 on every peg) leaves the 15^5 codes without colour 1 after
 * reply (0,0), the sixth slot of a 5-peg full form; guessed again there
 * it leaves them all in that part: a useless guess. */
#define BIG_CODES 1048576u
#define BIG_ZERO 759375u
static const char big_header[] = "# mmtree pegs=5 colors=16 repeat=yes\n";

/* levels useless guesses nested in the (0,0) slot of the root, as
 * written by hand: counts that do not add up, as a lenient read allows. */
static void nested_useless(text *t, int levels)
{
    add(t, "%s%u(11111: 0,0,0,0,0,", big_header, BIG_CODES);
    for (int k = 0; k < levels; k++)
        add(t, "%u(11111: 0,0,0,0,0,", BIG_ZERO);
    add(t, "1(22222)");
    for (int k = 0; k <= levels; k++)
        add(t, ";0,0,0,0,0;0,0,0,0;0,0,0;0,0;0)");
    add(t, "\n");
}

/* The binary form of the same: the root (11111, index 0 of all codes:
 * bits 1 1), then guesses outside the (0,0) part, index 0 of the 289201
 * codes outside it (11111 again: bit 0 and 19 zero bits), as many as fit
 * in plen bytes.  The header declares 2^20 nodes. */
static unsigned char *binary_useless(size_t plen, size_t *len)
{
    unsigned char *payload = calloc(plen, 1);
    if (!payload) {
        perror("calloc");
        exit(1);
    }
    payload[0] = 0xC0;
    unsigned char *f = bin_file(5, 16, BIG_CODES, payload, plen, len);
    free(payload);
    return f;
}

/* Each name used twice by the one before: 2^59 nodes if expanded. */
static void doubling_names(text *t)
{
    add(t, "# mmtree pegs=4 colors=6 repeat=yes\n1296AAA\nwhere\n");
    for (int k = 0; k < 60; k++) {
        char a[4] = {'A', (char)('A' + k / 26), (char)('A' + k % 26), 0};
        char b[4] = {'A', (char)('A' + (k + 1) / 26), (char)('A' + (k + 1) % 26), 0};
        if (k == 59)
            add(t, "%s = (1122x)\n", a);
        else
            add(t, "%s = (1122: 2%s,2%s,0,0,0;0,0,0,0;0,0,0;0,0;0)\n", a, b, b);
    }
}

/* Knuth's MM(4,6) tree with its (0,0) part, 256 codes, behind `levels`
 * useless guesses 1111 (no code there has a 1): counts all true, so that
 * the strict read reaches the first of them. */
static void strict_useless(text *t, int levels)
{
    mm_game g;
    mm_tree tree;
    mm_compile_opts o;
    mm_diag d;
    mm_write_opts wo = {.name_subtrees = 20, .line_width = 400};
    char *buf;
    size_t len;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 4, 6, true, &d) || mm_compile(&g, &o, &tree, &d) ||
        mm_tree_write_mem(&tree, MM_FMT_KNUTH, &wo, &buf, &len, &d)) {
        printf("FAIL: MM(4,6): %s\n", d.msg);
        exit(1);
    }
    char *at = strstr(buf, ",256C;");
    if (!at) {
        printf("FAIL: Knuth's MM(4,6) tree has no 256C\n");
        exit(1);
    }
    add(t, "%.*s,", (int)(at - buf), buf);
    for (int k = 0; k < levels; k++)
        add(t, "256(1111: 0,0,0,0,");
    add(t, "256C");
    for (int k = 0; k < levels; k++)
        add(t, ";0,0,0,0;0,0,0;0,0;0)");
    add(t, "%s", at + 5);
    free(buf);
    mm_tree_release(&tree);
    mm_game_release(&g);
}

/* A tree of MM(5,8) (32768 codes): the root's guess 12345 and its parts
 * are true; under it, every part of more than 2 codes states the parts
 * that guess 23456 makes of it, but its guess is misprinted 13456 (one
 * peg off).  Each is a PARTITION problem whose full search would score
 * up to 32768 x 7070 codes; the nearest guesses come first, so 23456 is
 * found early (among guesses that work as well), and the budget ends
 * the searches. */
static void suggest_all(text *t)
{
    mm_game g;
    mm_diag d;
    if (mm_game_init(&g, 5, 8, true, &d)) {
        printf("FAIL: MM(5,8): %s\n", d.msg);
        exit(1);
    }
    mm_code *all = malloc(g.ncodes * sizeof *all), *out = malloc(g.ncodes * sizeof *out);
    mm_code *sub = malloc(g.ncodes * sizeof *sub);
    uint8_t *slot = malloc(g.ncodes);
    uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES], c2[MM_MAX_REPLIES], s2[MM_MAX_REPLIES];
    mm_code root, meant;
    if (!all || !out || !sub || !slot || mm_code_parse(&g, "12345", 5, &root, &d) ||
        mm_code_parse(&g, "23456", 5, &meant, &d)) {
        printf("FAIL: MM(5,8) setup\n");
        exit(1);
    }
    for (uint32_t i = 0; i < g.ncodes; i++)
        all[i] = i;
    mm_game_split(&g, root, all, g.ncodes, out, slot, cnt, start);
    add(t, "# mmtree pegs=5 colors=8 repeat=yes\n32768(12345: ");
    for (int s = 0; s < g.nreplies; s++) {
        const char *sep = s + 1 == g.nreplies ? ")\n" : g.black[s + 1] != g.black[s] ? ";" : ",";
        if (s == g.win || cnt[s] <= 2) {
            add(t, "%u%s", cnt[s], sep);
            continue;
        }
        mm_game_split(&g, meant, out + start[s], cnt[s], sub, slot, c2, s2);
        add(t, "%u(13456: ", cnt[s]);
        for (int k = 0; k < g.nreplies; k++) {
            const char *sep2 = k + 1 == g.nreplies ? ")" : g.black[k + 1] != g.black[k] ? ";" : ",";
            if (k == g.win || c2[k] <= 2)
                add(t, "%u%s", c2[k], sep2);
            else
                add(t, "%u(11111)%s", c2[k], sep2);
        }
        add(t, "%s", sep);
    }
    free(all);
    free(out);
    free(sub);
    free(slot);
    mm_game_release(&g);
}

static void attributes(text *t, int n)
{
    add(t, "<?xml version=\"1.0\"?>\n<mmtree xmlns=\"urn:mmtree:tree:1\">"
           "<game pegs=\"2\" colors=\"2\" repeat=\"true\"");
    for (int i = 0; i < n; i++)
        add(t, " a%d=\"1\"", i);
    add(t, "/></mmtree>\n");
}

/* ---- running a case ---- */

typedef struct result {
    mm_status st;
    unsigned long line, col;
    long long offset;
    char msg[MM_DIAG_MSG_MAX];
    mm_read_cost cost;
    bool verified;
    uint64_t problems, suggest_work, partial, tried, recovered;
} result;

typedef struct job {
    const char *name;
    const unsigned char *buf;
    size_t len;
    unsigned flags;
    bool verify, suggest;
} job;

/* In the child: read (and verify), write the result to fd. */
static void child(const job *j, int fd)
{
    result r;
    mm_tree t;
    mm_diag d;
    memset(&r, 0, sizeof r);
    mm_diag_clear(&d);
    alarm(120); /* a hang, not a slow case: every case takes well under a second */
    r.st = mm_tree_read_mem_cost(j->name, j->buf, j->len, MM_FMT_AUTO, j->flags, &t, &r.cost, &d);
    if (!r.st && j->verify) {
        mm_game g;
        mm_verify_opts o;
        mm_verify_report rep;
        mm_verify_opts_init(&o);
        o.suggest = j->suggest;
        if (!mm_game_init(&g, t.pegs, t.colors, t.repeat, &d) &&
            !mm_tree_verify(&t, &g, &o, &rep, &d)) {
            r.verified = true;
            r.problems = rep.nproblems;
            r.suggest_work = rep.suggest_work;
            mm_code meant;
            if (mm_code_parse(&g, "23456", 5, &meant, &d))
                meant = MM_NO_CODE;
            for (uint64_t i = 0; i < rep.nkept; i++) {
                const mm_problem *q = &rep.problems[i];
                r.partial += q->partial;
                r.tried += q->ntried;
                for (uint32_t k = 0; k < q->nsuggest_kept; k++)
                    r.recovered += q->suggest[k] == meant;
            }
            mm_verify_report_release(&rep);
            mm_game_release(&g);
        }
    }
    if (!r.st)
        mm_tree_release(&t);
    r.line = d.line;
    r.col = d.col;
    r.offset = (long long)d.offset;
    snprintf(r.msg, sizeof r.msg, "%s", d.msg);
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

/* Fork with a pipe from the child to the parent.  The child gets 0 and
 * *fd the pipe's write end; the parent the child's pid and *fd its read
 * end.  Exits when the pipe or the fork cannot be made. */
static pid_t fork_piped(int *fd)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(1);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    close(fds[pid == 0 ? 0 : 1]);
    *fd = fds[pid == 0 ? 1 : 0];
    return pid;
}

/* Run j in a child; *kb receives its peak memory.  false when the child
 * did not report. */
static bool run(const job *j, result *r, long *kb)
{
    int fd;
    pid_t pid = fork_piped(&fd);
    if (pid == 0)
        child(j, fd);
    ssize_t got = read(fd, r, sizeof *r);
    close(fd);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("wait4");
        exit(1);
    }
    *kb = ru.ru_maxrss;
    if (got != (ssize_t)sizeof *r || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        FAIL("%s: the child did not finish (status 0x%x)%s", j->name, status,
             WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? ": it hung" : "");
        return false;
    }
    return true;
}

/* What a case must give: the status, a message part and its place
 * (line 0: the byte offset; -1: anything), the most nodes and codes
 * scored, and the most memory in MB. */
typedef struct want {
    mm_status st;
    const char *msg;
    long line, col;
    uint64_t nodes, scored, codes;
    long mb;
} want;

static void judge(const job *j, const want *w, const result *r, long kb)
{
    int before = failures;
    bool placed = w->line < 0 || (w->line > 0 && r->line == (unsigned long)w->line &&
                                  r->col == (unsigned long)w->col) ||
                  (w->line == 0 && r->offset == w->col);
    if (r->st != w->st || (w->msg && !strstr(r->msg, w->msg)) || !placed)
        FAIL("%s: status %d at %lu:%lu byte %lld '%s'; want %d at %ld:%ld '%s'", j->name, r->st,
             r->line, r->col, r->offset, r->msg, w->st, w->line, w->col, w->msg ? w->msg : "");
    if (r->cost.nodes > w->nodes || r->cost.scored > w->scored || r->cost.codes > w->codes)
        FAIL("%s: made %llu nodes (at most %llu), scored %llu codes (at most %llu), set up "
             "%llu codes (at most %llu)", j->name, (unsigned long long)r->cost.nodes,
             (unsigned long long)w->nodes, (unsigned long long)r->cost.scored,
             (unsigned long long)w->scored, (unsigned long long)r->cost.codes,
             (unsigned long long)w->codes);
    if (check_memory && kb > w->mb * 1024)
        FAIL("%s: peak memory %ld KB, budget %ld MB", j->name, kb, w->mb);
    printf("%-4s %-44s %6ld KB  %8llu nodes  %9llu scored  %s\n",
           failures > before ? "" : "ok", j->name, kb, (unsigned long long)r->cost.nodes,
           (unsigned long long)r->cost.scored, r->msg[0] ? r->msg : "(read)");
}

static void one(const char *name, const void *buf, size_t len, unsigned flags, const want *w)
{
    job j = {name, buf, len, flags, false, false};
    result r;
    long kb;
    if (run(&j, &r, &kb))
        judge(&j, w, &r, kb);
}

/* ---- the cases ---- */

/* Memory budgets, in MB: what the process needs to run at all (the
 * driver, the input) plus the reader's: the game's tables (38 bytes a
 * code when p x c > 64) and the walk over its codes (8), 40 bytes a node
 * made, and for verify 26 bytes a code more. */
static long budget_mb(size_t input, uint64_t codes, uint64_t nodes, bool verify)
{
    uint64_t bytes = (8u << 20) + 2 * (uint64_t)input + 46 * codes + 40 * nodes +
                     (verify ? 26 * codes : 0);
    return (long)(bytes >> 20) + 1;
}

static void bracket_cases(void)
{
    text t = {0};
    /* The strict reader refuses the first useless guess at once, where
     * the old one expanded them all and accepted the tree. */
    strict_useless(&t, 40);
    one("bracket, strict: useless guesses", t.p, t.len, 0,
        &(want){MM_ERR_INPUT, "256(1111: ...): guess 1111 cannot be the code and leaves all "
                "256 codes in one part: a useless guess", -1, -1,
                4 * t.len, 4 * 1296, 1296, budget_mb(t.len, 1296, 4 * t.len, false)});
    t.len = 0;
    /* 60 nested in MM(5,16), read leniently and verified: the first is
     * cut short (kept, unresolved), so each code is scored twice. */
    nested_useless(&t, 60);
    job j = {"bracket, lenient + verify: useless guesses", (unsigned char *)t.p, t.len,
             MM_READ_LENIENT, true, false};
    result r;
    long kb;
    if (run(&j, &r, &kb)) {
        judge(&j, &(want){MM_OK, NULL, -1, -1, 200, BIG_CODES + BIG_ZERO, BIG_CODES,
                          budget_mb(t.len, BIG_CODES, 200, true)}, &r, kb);
        if (!r.verified || !r.problems)
            FAIL("%s: verify found no problem", j.name);
    }
    t.len = 0;
    /* The same, 300 deep (the 7 KB file of the campaign): refused while
     * parsing, at the 65th level. */
    nested_useless(&t, 300);
    one("bracket, lenient: 300 nested guesses", t.p, t.len, MM_READ_LENIENT,
        &(want){MM_ERR_LIMIT, "sub-trees nested deeper than 64 levels", 2, 1538, 80, 0, 0,
                budget_mb(t.len, 0, 80, false)});
    t.len = 0;
    /* 54 bytes declaring 16.7 million codes; 38 declaring 2^20 in one
     * n(y), which holds 21 at most: neither sets a game up. */
    add(&t, "# mmtree pegs=6 colors=16 repeat=yes\n16777216(111111)\n");
    one("bracket: 54 bytes, 16777216 codes", t.p, t.len, 0,
        &(want){MM_ERR_LIMIT, "count 16777216 is larger than the number of codes of any game "
                "mmtree supports (1048576)", 2, 1, 0, 0, 0, budget_mb(t.len, 0, 0, false)});
    t.len = 0;
    add(&t, "%s%u(11111)\n", big_header, BIG_CODES);
    one("bracket, strict: 2^20 codes in one n(y)", t.p, t.len, 0,
        &(want){MM_ERR_INPUT, "1048576(11111) states 1048576 codes; with 5 pegs this form "
                "holds at most 21", 2, 1, 1, 0, 0, budget_mb(t.len, 0, 1, false)});
    t.len = 0;
    /* MM(8,9) without repetition: 362880 codes among 43 million tuples,
     * set up in proportion to the codes (the fuzzer found the tuples:
     * 10 s under the sanitizers). */
    add(&t, "# mmtree pegs=8 colors=9 repeat=no\n90(12345678: 1,2,0)\n");
    one("bracket, lenient: MM(8,9) without repetition", t.p, t.len, MM_READ_LENIENT,
        &(want){MM_ERR_INPUT, "90(12345678: ...) writes 3 slots; for 8 pegs knuth notation "
                "writes 45, irving 44", 2, 1, 10, 0, 362880,
                budget_mb(t.len, 362880, 10, false)});
    t.len = 0;
    /* Names that double: refused at the second use, expanded never. */
    doubling_names(&t);
    one("bracket, lenient: doubling names", t.p, t.len, MM_READ_LENIENT,
        &(want){MM_ERR_INPUT, "sub-tree 'AAB' is used twice (first at 4:14)", 4, 19, 300, 0, 0,
                budget_mb(t.len, 0, 300, false)});
    free(t.p);
}

static void binary_cases(void)
{
    size_t len;
    /* 2 MB of useless guesses: the second guess is refused. */
    unsigned char *f = binary_useless(2u << 20, &len);
    one("binary: 2 MB of useless guesses", f, len, 0,
        &(want){MM_ERR_INPUT, "guess 00000 cannot be the code and leaves all 759375 codes in "
                "one part: a useless guess", 0, 20, 2, BIG_CODES + BIG_ZERO, BIG_CODES,
                budget_mb(len, BIG_CODES, 2, false)});
    free(f);
    /* 10 MB declaring 84 million nodes: more than its bits can hold; and
     * 50 million, which they could, but no tree of 2^20 codes has. */
    f = bin_file(5, 16, 84000000, NULL, 10u << 20, &len);
    one("binary: 10 MB declaring 84M nodes", f, len, 0,
        &(want){MM_ERR_INPUT, "84000000 nodes cannot fit in a payload of 10485760 bytes", 0, 12,
                0, 0, 0, budget_mb(len, 0, 0, false)});
    put_le32(f + 12, 50000000);
    put_le32(f + len - 4, crc32_bitwise(f, len - 4));
    one("binary: 10 MB declaring 50M nodes", f, len, 0,
        &(want){MM_ERR_INPUT, "50000000 nodes: a tree of the 1048576 codes of the game has at "
                "most 2097151", 0, 12, 0, 0, 0, budget_mb(len, 0, 0, false)});
    free(f);
}

static void xml_cases(void)
{
    if (!MM_HAVE_XML)
        return;
    text t = {0};
    /* Attributes by the ten thousand: refused before libxml2 parses the
     * element (its duplicate check is quadratic), so no game is set up. */
    for (int n = 60000; n <= 200000; n += 140000) {
        t.len = 0;
        attributes(&t, n);
        char name[64];
        snprintf(name, sizeof name, "xml: %d attributes", n);
        one(name, t.p, t.len, 0, &(want){MM_ERR_LIMIT, "<game> has more than 32 attributes",
                                         2, 35, 0, 0, 0, budget_mb(t.len, 0, 0, false)});
    }
    free(t.p);
}

static void suggest_cases(void)
{
    text t = {0};
    suggest_all(&t);
    job j = {"verify --suggest: misprints in MM(5,8)", (unsigned char *)t.p, t.len,
             MM_READ_LENIENT, true, true};
    result r;
    long kb;
    if (run(&j, &r, &kb)) {
        judge(&j, &(want){MM_OK, NULL, -1, -1, 2 * 32768, 8 * 32768, 32768,
                          budget_mb(t.len, 32768, 2 * 32768, true)}, &r, kb);
        if (!r.verified || r.problems < 16 || r.suggest_work > MM_VERIFY_SUGGEST_BUDGET + 32768 ||
            r.suggest_work < MM_VERIFY_SUGGEST_BUDGET / 2 || r.partial < 4 || r.recovered < 4)
            FAIL("%s: %llu problems, %llu codes scored for suggestions (budget %llu), %llu "
                 "searches stopped early, %llu found 23456", j.name,
                 (unsigned long long)r.problems, (unsigned long long)r.suggest_work,
                 (unsigned long long)MM_VERIFY_SUGGEST_BUDGET, (unsigned long long)r.partial,
                 (unsigned long long)r.recovered);
        else
            printf("     suggestions: %llu codes scored in all, %llu searches stopped early, "
                   "%llu found the guess meant\n", (unsigned long long)r.suggest_work,
                   (unsigned long long)r.partial, (unsigned long long)r.recovered);
    }
    free(t.p);
}

/* build -p 8 -c 8: refused at once with the game's size. */
static void build_case(void)
{
    int fd;
    pid_t pid = fork_piped(&fd);
    if (pid == 0) {
        dup2(fd, 2);
        close(fd);
        alarm(120);
        execl(mmtree, mmtree, "build", "-p", "8", "-c", "8", "-q", "-o", "/dev/null",
              (char *)NULL);
        _exit(127);
    }
    char err[1024] = "";
    size_t n = 0;
    ssize_t got;
    while (n + 1 < sizeof err && (got = read(fd, err + n, sizeof err - 1 - n)) > 0)
        n += (size_t)got;
    err[n] = '\0';
    close(fd);
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    const char *msg = "mmtree build: error: MM(8,8) has 16777216 codes, more than the "
                      "1048576 mmtree supports (its tree would need about 2400 MB)\n";
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 || strcmp(err, msg))
        FAIL("build -p 8 -c 8: status 0x%x, stderr '%s'", status, err);
    else if (check_memory && ru.ru_maxrss > 16 * 1024)
        FAIL("build -p 8 -c 8: peak memory %ld KB, budget 16 MB", ru.ru_maxrss);
    else
        printf("ok   %-44s %6ld KB\n", "build -p 8 -c 8", ru.ru_maxrss);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: budget MMTREE [--no-memory]\n");
        return 2;
    }
    mmtree = argv[1];
    check_memory = !(argc > 2 && !strcmp(argv[2], "--no-memory"));
    bracket_cases();
    binary_cases();
    xml_cases();
    suggest_cases();
    build_case();
    if (!check_memory)
        printf("(peak memory not checked: sanitizer build)\n");
    return failures ? 1 : 0;
}

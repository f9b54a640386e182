/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Writes a corpus of damaged .mmt files into OUTDIR, with OUTDIR/expect.txt
 * listing each as "file|byte N|text" (or "byte *" for any offset) for
 * xml_bin_bad.sh to run through mmtree.  Where a case is about a field
 * other than the checksum, the checksum is recomputed so that the field
 * itself is what the reader meets.
 *
 * It also checks the example of format/binary.md byte for byte and the
 * CRC-32 check value, with a CRC written here independently of bin.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/format.h"
#include "tests/bytes.h"

static const char *outdir;
static FILE *expect;
static int failures;

static void fix_crc(unsigned char *p, size_t n)
{
    put_le32(p + n - 4, crc32_bitwise(p, n - 4));
}

static bool write_file(const char *name, const unsigned char *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        printf("FAIL: cannot write %s\n", path);
        failures++;
        return false;
    }
    return true;
}

/* Write a case; pos < 0 means any offset. */
static void emit(const char *name, const unsigned char *p, size_t n, long pos,
                 const char *text)
{
    if (!write_file(name, p, n))
        return;
    if (pos < 0)
        fprintf(expect, "%s|byte *|%s\n", name, text);
    else
        fprintf(expect, "%s|byte %ld|%s\n", name, pos, text);
}

/* A copy of base with fix applied by the caller. */
static unsigned char *dup(const unsigned char *p, size_t n, size_t extra)
{
    unsigned char *q = malloc(n + extra);
    if (!q) {
        perror("malloc");
        exit(1);
    }
    memcpy(q, p, n);
    return q;
}

/* A whole MM(1,c) file around a hand-made payload. */
static size_t mm1(unsigned char *out, int colors, uint32_t nodes, unsigned flags,
                  const unsigned char *payload, size_t plen)
{
    static const unsigned char sig[8] = {0x89, 'M', 'M', 'T', '\r', '\n', 0x1A, '\n'};
    size_t n = 0;
    memcpy(out, sig, 8);
    n = 8;
    out[n++] = 1;
    out[n++] = 1;
    out[n++] = (unsigned char)colors;
    out[n++] = (unsigned char)flags;
    put_le32(out + n, nodes);
    n += 4;
    put_le32(out + n, (uint32_t)plen);
    n += 4;
    memcpy(out + n, payload, plen);
    n += plen;
    n += 4;
    fix_crc(out, n);
    return n;
}

static void check_example(void)
{
    /* format/binary.md, "Example": MM(1,2), Knuth's rule, no provenance. */
    static const unsigned char want[21] = {
        0x89, 0x4D, 0x4D, 0x54, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x01, 0x02,
        0x01, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xE0,
    };
    static const char check[] = "123456789";
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    char *buf;
    size_t len;
    if (crc32_bitwise((const unsigned char *)check, 9) != 0xCBF43926u) {
        printf("FAIL: CRC-32 check value\n");
        failures++;
    }
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 1, 2, true, &d) || mm_compile(&g, &o, &t, &d)) {
        printf("FAIL: MM(1,2): %s\n", d.msg);
        failures++;
        return;
    }
    mm_tree_set_rule(&t, NULL, false, MM_NO_CODE);
    if (mm_tree_write_mem(&t, MM_FMT_BIN, NULL, &buf, &len, &d)) {
        printf("FAIL: MM(1,2): %s\n", d.msg);
        failures++;
    } else {
        uint32_t crc = crc32_bitwise(want, sizeof want);
        if (len != 25 || memcmp(buf, want, sizeof want) ||
            (uint32_t)((unsigned char)buf[21] | (unsigned char)buf[22] << 8 |
                       (unsigned char)buf[23] << 16 | (uint32_t)(unsigned char)buf[24] << 24) != crc) {
            printf("FAIL: MM(1,2) file differs from the example of format/binary.md\n");
            failures++;
        }
        printf("example checksum: %02X %02X %02X %02X\n", crc & 0xFF, crc >> 8 & 0xFF,
               crc >> 16 & 0xFF, crc >> 24);
        free(buf);
    }
    mm_tree_release(&t);
    mm_game_release(&g);
}

/* Node counts between n and 2n - 1 that are not the tree's: MM(2,5) by
 * Knuth's rule has 25 codes and 27 nodes, 2 of them inconsistent. */
static void bad_node_counts(void)
{
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    char *cbuf, name[64];
    size_t n;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 2, 5, true, &d) || mm_compile(&g, &o, &t, &d) ||
        mm_tree_set_rule(&t, NULL, false, MM_NO_CODE) ||
        mm_tree_write_mem(&t, MM_FMT_BIN, NULL, &cbuf, &n, &d) || t.nnodes != 27) {
        printf("FAIL: MM(2,5): %s\n", d.msg);
        failures++;
        return;
    }
    unsigned char *p = dup((const unsigned char *)cbuf, n, 0);
    put_le32(p + 12, 26);
    fix_crc(p, n);
    emit("nodes_more.mmt", p, n, -1, "more nodes than the 26 the header declares");
    put_le32(p + 12, 50);
    fix_crc(p, n);
    snprintf(name, sizeof name, "50 nodes: a tree of the 25 codes of the game has at most 49");
    emit("nodes_above_2n.mmt", p, n, 12, name);
    free(p);
    free(cbuf);
    mm_tree_release(&t);
    mm_game_release(&g);
}

/* Version 2: the fields of an unproven optimal tree's provenance (rule
 * options, proof record), each damaged in turn. */
static void bad_version2(mm_tree *t)
{
    char *cbuf;
    size_t n;
    mm_diag d;
    mm_tree_set_rule(t, "optimal", false, t->nodes[0].guess);
    mm_tree_set_tie_break(t, "last");
    t->prov.max_depth = 6;
    t->prov.extra_colors = 1;
    t->prov.proof = MM_PROOF_UNPROVEN;
    t->prov.lower_total = 20;
    t->prov.lower_worst = 3;
    if (mm_tree_write_mem(t, MM_FMT_BIN, NULL, &cbuf, &n, &d)) {
        printf("FAIL: version 2 base file: %s\n", d.msg);
        failures++;
        return;
    }
    const unsigned char *base = (const unsigned char *)cbuf;
    /* Layout: 16 fixed, rule 1+7, first 4, options 3+4, proof 1+8+1,
     * citation 2+4, payload length 4, payload, checksum 4. */
    const size_t opt_at = 28, proof_at = 35;
    if (base[8] != 2 || base[11] != (0x01 | 0x02 | 0x08 | 0x10 | 0x20 | 0x40) ||
        memcmp(base + opt_at, "\x06\x01\x04last\x02\x14\0\0\0\0\0\0\0\x03", 17)) {
        printf("FAIL: unexpected version 2 layout\n");
        failures++;
        free(cbuf);
        return;
    }
    write_file("good2.mmt", base, n);
    struct {
        const char *name;
        size_t at;      /* the byte changed */
        unsigned char v;
        long pos;       /* where the reader reports it */
        const char *text;
    } cases[] = {
        {"v2_reserved_bit7.mmt", 11, 0xFB, 11, "reserved flag bits 0x80 are set (version 2)"},
        {"v1_with_v2_flags.mmt", 8, 1, 11, "reserved flag bits 0x60 are set (version 1)"},
        {"v2_options_without_rule.mmt", 11, 0x79, 11, "rule options are flagged without a rule"},
        {"v2_max_depth.mmt", opt_at, 65, (long)opt_at, "max depth 65: must be 0..64"},
        {"v2_extra_colors.mmt", opt_at + 1, 17, (long)opt_at + 1, "17 extra colours"},
        {"v2_tie_break_char.mmt", opt_at + 3, ' ', (long)opt_at + 2, "tie-break is not 1-64"},
        {"v2_tie_break_length.mmt", opt_at + 2, 200, (long)opt_at + 2, "truncated"},
        {"v2_proof_status.mmt", proof_at, 3, (long)proof_at, "proof status 3: must be 1"},
        {"v2_lower_bound_zero.mmt", proof_at + 1, 0, (long)proof_at + 1, "lower bound 0"},
        {"v2_lower_bound_above.mmt", proof_at + 1, 25, (long)proof_at,
         "lower bound 25 is above the tree's own total, 24"},
        {"v2_worst_bound_above.mmt", proof_at + 9, 5, (long)proof_at,
         "worst-case lower bound 5 is above the tree's own worst case, 4"},
        {"v2_worst_bound_range.mmt", proof_at + 9, 65, (long)proof_at + 9,
         "worst-case lower bound 65: must be 0..64"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned char *p = dup(base, n, 0);
        p[cases[i].at] = cases[i].v;
        fix_crc(p, n);
        emit(cases[i].name, p, n, cases[i].pos, cases[i].text);
        free(p);
    }
    /* All options at their defaults, yet flagged. */
    unsigned char *p = dup(base, n, 0);
    memcpy(p + opt_at, "\0\0\0", 3);
    memmove(p + opt_at + 3, p + opt_at + 7, n - opt_at - 7);
    fix_crc(p, n - 4);
    emit("v2_options_default.mmt", p, n - 4, (long)opt_at, "the rule options are all defaults");
    free(p);
    for (size_t k = proof_at; k < proof_at + 10; k++) {
        char name[64];
        snprintf(name, sizeof name, "v2_trunc_%03zu.mmt", k);
        emit(name, base, k, -1, "truncated");
    }
    free(cbuf);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bin_badgen OUTDIR\n");
        return 2;
    }
    outdir = argv[1];
    char path[4096];
    snprintf(path, sizeof path, "%s/expect.txt", outdir);
    if (!(expect = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    check_example();

    /* The base: MM(2,3) by Knuth's rule, with every optional field. */
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    char *cbuf;
    size_t n;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 2, 3, true, &d) || mm_compile(&g, &o, &t, &d) ||
        mm_tree_set_rule(&t, "knuth", false, t.nodes[0].guess) ||
        mm_tree_set_citation(&t, "test") ||
        mm_tree_write_mem(&t, MM_FMT_BIN, NULL, &cbuf, &n, &d)) {
        printf("FAIL: base file: %s\n", d.msg);
        return 1;
    }
    const unsigned char *base = (const unsigned char *)cbuf;
    /* Layout: 16 fixed, rule 1+5, first 4, citation 2+4, payload length
     * 4, payload, checksum 4. */
    const size_t rule_at = 16, first_at = 22, cit_at = 26, plen_at = 32, pay_at = 36;
    const size_t crc_at = n - 4;
    if (n < pay_at + 5 || memcmp(base + rule_at, "\x05knuth", 6) ||
        memcmp(base + cit_at, "\x04\x00test", 6)) {
        printf("FAIL: unexpected base layout\n");
        return 1;
    }
    uint32_t nodes = t.nnodes;
    write_file("good.mmt", base, n); /* the script checks that this one reads */
    unsigned char *p;
    char name[64];

    /* Truncation at every byte. */
    for (size_t k = 1; k < n; k++) {
        snprintf(name, sizeof name, "trunc_%03zu.mmt", k);
        emit(name, base, k, -1, "truncated");
    }
    /* Signature, version, game, flags. */
    p = dup(base, n, 0);
    p[2] = 'X';
    emit("bad_signature.mmt", p, n, 2, "not an mmtree binary file (bad signature)");
    free(p);
    p = dup(base, n, 0);
    memmove(p + 4, p + 5, n - 5); /* "\r\n" -> "\n", as a text-mode copy does */
    emit("newline_mangled.mmt", p, n - 1, 4, "bad signature: mangled line endings?");
    free(p);
    p = dup(base, n, 0);
    p[8] = 3;
    fix_crc(p, n);
    emit("version.mmt", p, n, 8, "format version 3 is not supported (only 1 to 2)");
    free(p);
    p = dup(base, n, 0);
    p[8] = 2;
    fix_crc(p, n);
    emit("version2_needless.mmt", p, n, 8, "a version 2 file without rule options or a "
         "proof record: version 1 holds this tree");
    free(p);
    p = dup(base, n, 0);
    p[9] = 0;
    fix_crc(p, n);
    emit("pegs_zero.mmt", p, n, 9, "0 pegs: must be 1..8");
    free(p);
    p = dup(base, n, 0);
    p[10] = 17;
    fix_crc(p, n);
    emit("colors_17.mmt", p, n, 10, "17 colours: must be 1..16");
    free(p);
    p = dup(base, n, 0);
    p[9] = 4;
    p[11] &= (unsigned char)~0x01u;
    fix_crc(p, n);
    emit("norepeat_too_few_colors.mmt", p, n, 10, "3 colours cannot fill 4 pegs without repeating");
    free(p);
    for (int bit = 5; bit < 8; bit++) {
        p = dup(base, n, 0);
        p[11] |= (unsigned char)(1u << bit);
        fix_crc(p, n);
        snprintf(name, sizeof name, "reserved_flag_bit%d.mmt", bit);
        char text[64];
        snprintf(text, sizeof text, "reserved flag bits 0x%02x are set", 1u << bit);
        emit(name, p, n, 11, text);
        free(p);
    }
    /* Counts. */
    p = dup(base, n, 0);
    put_le32(p + 12, nodes + 1);
    fix_crc(p, n);
    snprintf(name, sizeof name, "the header declares %u nodes, the tree has %u", nodes + 1, nodes);
    emit("nodes_plus_one.mmt", p, n, -1, name);
    free(p);
    p = dup(base, n, 0);
    put_le32(p + 12, nodes - 1);
    fix_crc(p, n);
    snprintf(name, sizeof name, "%u nodes cannot hold the 9 codes of the game", nodes - 1);
    emit("nodes_minus_one.mmt", p, n, 12, name);
    free(p);
    p = dup(base, n, 0);
    put_le32(p + 12, 0xFFFFFFFFu);
    fix_crc(p, n);
    emit("nodes_huge.mmt", p, n, 12, "4294967295 nodes cannot fit in a payload");
    free(p);
    p = dup(base, n, 0);
    p[9] = 8;
    p[10] = 8;
    put_le32(p + 12, (uint32_t)(n - pay_at - 4) * 8);
    fix_crc(p, n);
    emit("game_too_big.mmt", p, n, 12, "cannot hold the 16777216 codes of the game");
    free(p);
    p = dup(base, n, 0);
    p[rule_at] = 255;
    fix_crc(p, n);
    emit("rule_length.mmt", p, n, (long)rule_at, "truncated");
    free(p);
    p = dup(base, n, 0);
    p[rule_at + 1] = ' ';
    fix_crc(p, n);
    emit("rule_name.mmt", p, n, (long)rule_at, "rule name is not 1-64 letters");
    free(p);
    p = dup(base, n, 0);
    p[cit_at] = 0xFF;
    p[cit_at + 1] = 0xFF;
    fix_crc(p, n);
    emit("citation_length.mmt", p, n, (long)cit_at, "truncated");
    free(p);
    p = dup(base, n, 0);
    p[cit_at + 3] = 0xFF;
    fix_crc(p, n);
    emit("citation_utf8.mmt", p, n, (long)cit_at + 3, "the citation is not 1-4096 characters");
    free(p);
    p = dup(base, n, 0);
    put_le32(p + plen_at, (uint32_t)(n - pay_at - 4) + 1);
    fix_crc(p, n);
    emit("payload_length.mmt", p, n, (long)n, "truncated");
    free(p);
    p = dup(base, n, 0);
    put_le32(p + plen_at, 0);
    emit("payload_empty.mmt", p, n, (long)plen_at, "the payload is empty");
    free(p);
    /* A byte more in the payload than the nodes take. */
    p = dup(base, n, 1);
    memmove(p + crc_at + 1, p + crc_at, 4);
    p[crc_at] = 0;
    put_le32(p + plen_at, (uint32_t)(n - pay_at - 4) + 1);
    fix_crc(p, n + 1);
    emit("payload_extra_byte.mmt", p, n + 1, (long)crc_at, "1 payload bytes after the last node");
    free(p);
    /* Bad codes. */
    p = dup(base, n, 0);
    put_le32(p + first_at, 9);
    fix_crc(p, n);
    emit("first_not_a_code.mmt", p, n, (long)first_at, "first guess 9 is not a code of the game");
    free(p);
    unsigned char buf[64];
    size_t m;
    m = mm1(buf, 2, 2, 0x01, (const unsigned char *)"\xB0", 1); /* 1 011: index 2 of 2 */
    emit("guess_index.mmt", buf, m, 20, "guess index 2, but only 2 codes are possible there");
    m = mm1(buf, 5, 5, 0x01, (const unsigned char *)"\xFD\x80", 2); /* j = 3 of 3 */
    emit("guess_outside.mmt", buf, m, 20, "guess index 3, but only 3 codes are impossible there");
    /* MM(1,3): guess 1, then 1 again, which cannot be the code and
     * leaves both others in one part: refused at once. */
    m = mm1(buf, 3, 3, 0x01, (const unsigned char *)"\xDC", 1);
    emit("useless_guess.mmt", buf, m, 20,
         "guess 1 cannot be the code and leaves all 2 codes in one part: a useless guess");
    m = mm1(buf, 2, 2, 0x01, (const unsigned char *)"\x80\x00\x00\x00", 4);
    emit("guess_zeros.mmt", buf, m, 20, "more than 24 leading zero bits");
    m = mm1(buf, 2, 2, 0x01, (const unsigned char *)"\x00", 1);
    emit("root_outside.mmt", buf, m, 20, "but every code is possible");
    m = mm1(buf, 2, 2, 0x01, (const unsigned char *)"\xE1", 1);
    emit("padding.mmt", buf, m, 20, "padding bits after the last node are not zero");
    m = mm1(buf, 3, 3, 0x01, (const unsigned char *)"\xE0", 1); /* child's index cut */
    emit("payload_short.mmt", buf, m, 21, "the payload ends in the middle of a node");
    m = mm1(buf, 2, 2, 0x01 | 0x08, (const unsigned char *)"\xE0", 1);
    emit("options_without_rule.mmt", buf, m, 11, "rule options are flagged without a rule");
    /* Checksum. */
    p = dup(base, n, 0);
    p[pay_at] ^= 0x10;
    emit("corrupt_payload.mmt", p, n, (long)crc_at, "does not match the contents");
    free(p);
    p = dup(base, n, 0);
    p[crc_at + 2] ^= 0x01;
    emit("corrupt_checksum.mmt", p, n, (long)crc_at, "does not match the contents");
    free(p);
    p = dup(base, n, 3);
    memcpy(p + n, "abc", 3);
    emit("trailing_garbage.mmt", p, n + 3, (long)n, "3 bytes of garbage after the checksum");
    free(p);

    free(cbuf);
    bad_node_counts();
    bad_version2(&t);
    mm_tree_release(&t);
    mm_game_release(&g);
    if (fclose(expect) != 0)
        failures++;
    return failures ? 1 : 0;
}

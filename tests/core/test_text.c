/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The shared text mechanisms: strbuf, the JSON writer's escaping and
 * commas, the path syntax (parse, print, errors that name the step), and
 * the little-endian fields and CRC-32 of the binary formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crc32.h"
#include "core/json.h"
#include "core/le.h"
#include "core/strbuf.h"
#include "mmtree/mmtree.h"

#include "tests/bytes.h"
#include "tests/check.h"
#include "tests/draw.h"

static void test_strbuf(void)
{
    strbuf b = {0};
    strbuf_adds(&b, "ab");
    strbuf_addc(&b, 'c');
    strbuf_addf(&b, "%d-%s", 42, "x");
    char big[1000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    strbuf_addf(&b, "%s", big); /* longer than the small buffer of addf */
    CHECK(b.len == 7 + 999 && !strncmp(b.data, "abc42-xy", 8) && b.data[b.len] == '\0',
          "strbuf holds '%.10s' (%zu)", b.data, b.len);
    strbuf_truncate(&b, 3);
    size_t len;
    char *s = strbuf_detach(&b, &len);
    CHECK(s && len == 3 && !strcmp(s, "abc") && !b.data && !b.len, "detach");
    free(s);
}

static void test_json(void)
{
    strbuf b = {0};
    json_writer j;
    json_init(&j, &b);
    json_object_begin(&j);
    json_key(&j, "s");
    json_str(&j, "q\"b\\n\nt\tc\x01 \xc3\xa9 bad\xff\xc3 end");
    json_key(&j, "a");
    json_array_begin(&j);
    json_uint(&j, 1);
    json_int(&j, -2);
    json_double(&j, 0.5, 2);
    json_bool(&j, true);
    json_null(&j);
    json_array_begin(&j);
    json_array_end(&j);
    json_object_begin(&j);
    json_key(&j, "k");
    json_str(&j, "");
    json_object_end(&j);
    json_array_end(&j);
    json_key(&j, "k\"ey");
    json_strn(&j, "a\0b", 3);
    json_object_end(&j);
    const char *want = "{\"s\": \"q\\\"b\\\\n\\nt\\tc\\u0001 \xc3\xa9 bad\\ufffd\\ufffd end\", "
                       "\"a\": [1, -2, 0.50, true, null, [], {\"k\": \"\"}], "
                       "\"k\\\"ey\": \"a\\u0000b\"}";
    CHECK(!b.failed && !strcmp(b.data, want), "json\n  got  %s\n  want %s", b.data, want);
    strbuf_release(&b);

    /* Overlong forms, surrogates and code points past U+10FFFF are not
     * UTF-8. */
    static const char *const bad[] = {"\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                      "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(utf8_seq((const unsigned char *)bad[i], strlen(bad[i])) == 0,
              "'%s' taken as UTF-8", bad[i]);
    CHECK(utf8_seq((const unsigned char *)"\xf0\x9f\x99\x82", 4) == 4, "U+1F642");
}

static void test_path(void)
{
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_game_init(&g, 4, 6, true, &d)) {
        CHECK(0, "game: %s", d.msg);
        return;
    }
    mm_step steps[8];
    uint32_t n;
    char text[128];
    CHECK(mm_path_parse(&g, "1122:B,1344:W,3526:WBW", steps, 8, &n, &d) == MM_OK && n == 3,
          "parse: %s", d.msg);
    CHECK(!strcmp(mm_path_format(&g, steps, n, text, sizeof text),
                  "1122:B,1344:W,3526:BWW"),
          "format: %s", text);
    CHECK(mm_path_parse(&g, "", steps, 8, &n, &d) == MM_OK && n == 0, "the root");
    CHECK(!strcmp(mm_path_format(&g, steps, 0, text, sizeof text), ""), "root text");
    CHECK(mm_path_parse(&g, "1122:-", steps, 8, &n, &d) == MM_OK && n == 1 &&
              steps[0].slot == mm_reply_slot(&g, 0, 0),
          "no hit");

    struct {
        const char *path, *msg;
    } errors[] = {
        {"1122:B,1344", "path step 2 '1344': expected GUESS:REPLY"},
        {"1122:B,1374:W", "path step 2: '1374' is not a code"},
        {"1122:BBBBB", "path step 1: 'BBBBB' is not a reply"},
        {"1122:BX", "path step 1: 'BX' is not a reply"},
        {"1122:BBBW", "path step 1: 'BBBW' is not a reply"},
        {"1122:B,", "path step 2 '': expected GUESS:REPLY"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++) {
        mm_diag_clear(&d);
        mm_status st = mm_path_parse(&g, errors[i].path, steps, 8, &n, &d);
        CHECK(st == MM_ERR_USAGE && !strncmp(d.msg, errors[i].msg, strlen(errors[i].msg)),
              "'%s': %d '%s'", errors[i].path, st, d.msg);
    }
    CHECK(mm_path_parse(&g, "1:-,1:-,1:-", steps, 2, &n, &d) != MM_OK, "too many steps");

    /* A path that does not fit ends in "...". */
    CHECK(mm_path_parse(&g, "1122:B,1344:W,3526:BWW", steps, 8, &n, &d) == MM_OK, "again");
    mm_path_format(&g, steps, n, text, 12);
    CHECK(strlen(text) == 11 && !strcmp(text + 8, "..."), "cut: '%s'", text);
    mm_game_release(&g);
}

/* The version in mmtree.h, the library's and meson's agree. */
static void test_version(const char *project)
{
    char macros[32];
    snprintf(macros, sizeof macros, "%d.%d.%d", MMTREE_VERSION_MAJOR, MMTREE_VERSION_MINOR,
             MMTREE_VERSION_PATCH);
    CHECK(!strcmp(macros, MMTREE_VERSION_STRING) && !strcmp(mm_version(), project) &&
              !strcmp(macros, project),
          "versions: header %s (%s), library %s, meson %s", macros, MMTREE_VERSION_STRING,
          mm_version(), project);
}

/* Byte order by hand: the lowest byte first, whatever the host's. */
static void test_le(void)
{
    static const unsigned char want[8] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
    unsigned char b[9] = {0};
    le_write64(b + 1, UINT64_C(0x0102030405060708)); /* unaligned on purpose */
    CHECK(!memcmp(b + 1, want, 8) && b[0] == 0, "le_write64");
    CHECK(le_read64(b + 1) == UINT64_C(0x0102030405060708), "le_read64");
    CHECK(le_read32(b + 1) == 0x05060708u && le_read32(b + 5) == 0x01020304u, "le_read32");
    CHECK(le_read16(b + 1) == 0x0708u, "le_read16");
    le_write32(b, 0xA1B2C3D4u);
    le_write16(b + 4, 0xE5F6u);
    CHECK(b[0] == 0xD4 && b[1] == 0xC3 && b[2] == 0xB2 && b[3] == 0xA1 && b[4] == 0xF6 &&
              b[5] == 0xE5 && b[6] == 0x03,
          "le_write32/16: %02x %02x %02x %02x %02x %02x", b[0], b[1], b[2], b[3], b[4], b[5]);
}

/* The check value of the CRC's definition, and a CRC taken in pieces
 * against the bitwise oracle over the whole, pieces of every length. */
static void test_crc32(void)
{
    CHECK(crc32_update(0, "123456789", 9) == 0xCBF43926u, "crc32 of '123456789'");
    CHECK(crc32_update(0, "", 0) == 0 && crc32_update(0x12345678u, "", 0) == 0x12345678u,
          "crc32 of nothing");
    unsigned char b[1000];
    for (size_t i = 0; i < sizeof b; i++)
        b[i] = (unsigned char)draw(256);
    const uint32_t want = crc32_bitwise(b, sizeof b);
    for (size_t piece = 1; piece <= 67; piece += 3) {
        uint32_t c = 0;
        for (size_t at = 0; at < sizeof b; at += piece)
            c = crc32_update(c, b + at, at + piece < sizeof b ? piece : sizeof b - at);
        CHECK(c == want, "crc32 in pieces of %zu: %08x, want %08x", piece, c, want);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2)
        test_version(argv[1]);
    test_strbuf();
    test_json();
    test_path();
    test_le();
    test_crc32();
    return failures ? 1 : 0;
}

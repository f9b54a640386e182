/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Build-time helper: turn a file into a C array, so that what the library
 * needs (the schema the XML reader enforces, the HTML view's page, style
 * and script) is part of the binary and never read from disk.
 *     embed INPUT OUTPUT NAME
 * writes `const unsigned char NAME[]` (with a final NUL, not counted) and
 * `const size_t NAME_len`.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: embed INPUT OUTPUT NAME\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        fclose(in);
        return 1;
    }
    fprintf(out, "/* Generated from %s by format/embed.c: do not edit. */\n"
                 "#include <stddef.h>\n\n"
                 "extern const unsigned char %s[];\n"
                 "extern const size_t %s_len;\n"
                 "const unsigned char %s[] = {",
            argv[1], argv[3], argv[3], argv[3]);
    unsigned long n = 0;
    int c;
    while ((c = getc(in)) != EOF)
        fprintf(out, "%s0x%02x,", n++ % 12 ? " " : "\n    ", (unsigned)c);
    fprintf(out, "\n    0x00\n};\nconst size_t %s_len = %lu;\n", argv[3], n);
    int bad = ferror(in) || ferror(out);
    fclose(in);
    if (fclose(out) != 0)
        bad = 1;
    return bad;
}

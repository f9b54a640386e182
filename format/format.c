/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "mmtree/format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats.h"

static const char *const format_names[] = {
    [MM_FMT_AUTO] = "auto", [MM_FMT_KNUTH] = "knuth", [MM_FMT_IRVING] = "irving",
    [MM_FMT_XML] = "xml",   [MM_FMT_BIN] = "bin",
};

mm_format mm_format_parse(const char *name)
{
    for (int f = MM_FMT_KNUTH; f <= MM_FMT_BIN; f++)
        if (strcmp(name, format_names[f]) == 0)
            return (mm_format)f;
    return MM_FMT_AUTO;
}

const char *mm_format_name(mm_format f)
{
    return (unsigned)f <= MM_FMT_BIN ? format_names[f] : "?";
}

/* The extension of path's last component ("" when there is none: no dot,
 * or only a leading one, as in ".profile"). */
static const char *extension(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot : "";
}

mm_format mm_format_from_path(const char *path)
{
    const char *ext = path ? extension(path) : "";
    if (strcasecmp(ext, ".txt") == 0)
        return MM_FMT_KNUTH;
    if (strcasecmp(ext, ".xml") == 0)
        return MM_FMT_XML;
    if (strcasecmp(ext, ".mmt") == 0)
        return MM_FMT_BIN;
    return MM_FMT_AUTO;
}

mm_status mm_format_for_output(const char *path, const char *name, mm_format *fmt,
                               mm_diag *d)
{
    if (name) {
        *fmt = mm_format_parse(name);
        if (*fmt == MM_FMT_AUTO)
            return mm_diag_set(d, MM_ERR_USAGE, "unknown format '%s' (knuth, irving, xml, bin)",
                               name);
        return MM_OK;
    }
    *fmt = mm_format_from_path(path);
    if (*fmt != MM_FMT_AUTO)
        return MM_OK;
    const char *ext = extension(path);
    if (*ext && strcmp(path, "-") != 0)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "cannot tell the format of '%s' from its extension '%s' "
                           "(.txt, .xml, .mmt): give --format", path, ext);
    *fmt = MM_FMT_KNUTH;
    return MM_OK;
}

mm_format mm_format_detect(const unsigned char *buf, size_t len)
{
    /* 0x89 starts no UTF-8 text: whatever follows, it is meant as binary,
     * and the binary reader says what is wrong with a damaged signature. */
    if (len >= 1 && buf[0] == 0x89)
        return MM_FMT_BIN;
    /* UTF-16, with a byte order mark or starting with '<': XML, the one
     * format that may be in it (the XML reader decodes it). */
    if (len >= 2 && ((buf[0] == 0xFF && buf[1] == 0xFE) || (buf[0] == 0xFE && buf[1] == 0xFF) ||
                     (buf[0] == '<' && buf[1] == 0) || (buf[0] == 0 && buf[1] == '<')))
        return MM_FMT_XML;
    size_t i = 0;
    if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    if (i < len && buf[i] == '<')
        return MM_FMT_XML;
    return MM_FMT_AUTO; /* the bracket reader tells the dialects apart */
}

mm_status mm_tree_read_mem_cost(const char *name, const unsigned char *buf,
                                size_t len, mm_format fmt, unsigned flags,
                                mm_tree *t, mm_read_cost *cost, mm_diag *d)
{
    mm_read_cost own;
    if (!cost)
        cost = &own;
    memset(cost, 0, sizeof *cost);
    mm_diag_file(d, name);
    if (fmt == MM_FMT_AUTO)
        fmt = mm_format_detect(buf, len);
    switch (fmt) {
    case MM_FMT_XML:
        return xml_tree_read(name, buf, len, flags, t, cost, d);
    case MM_FMT_BIN:
        return bin_read(name, buf, len, flags, t, cost, d);
    default:
        return bracket_read(name, (const char *)buf, len, fmt, flags, t, cost, d);
    }
}

mm_status mm_tree_read_mem(const char *name, const unsigned char *buf,
                           size_t len, mm_format fmt, unsigned flags,
                           mm_tree *t, mm_diag *d)
{
    return mm_tree_read_mem_cost(name, buf, len, fmt, flags, t, NULL, d);
}

/* Trees of up to 2^24 codes fit well inside this in every format. */
#define FMT_FILE_MAX ((size_t)1 << 31)

mm_status mm_tree_read_file(const char *path, mm_format fmt, unsigned flags,
                            mm_tree *t, mm_diag *d)
{
    unsigned char *buf;
    size_t len;
    mm_diag_file(d, path);
    mm_status st = mm_file_read(path, FMT_FILE_MAX, &buf, &len, d);
    if (st)
        return st;
    st = mm_tree_read_mem(path, buf, len, fmt, flags, t, d);
    free(buf);
    return st;
}

mm_status mm_tree_write_mem(const mm_tree *t, mm_format fmt,
                            const mm_write_opts *o, char **buf, size_t *len,
                            mm_diag *d)
{
    mm_write_opts def = {0};
    if (!o)
        o = &def;
    switch (fmt) {
    case MM_FMT_XML:
        return xml_tree_write(t, o, buf, len, d);
    case MM_FMT_BIN:
        return bin_write(t, buf, len, d);
    case MM_FMT_IRVING:
        return bracket_write(t, MM_FMT_IRVING, o, buf, len, d);
    default:
        return bracket_write(t, MM_FMT_KNUTH, o, buf, len, d);
    }
}

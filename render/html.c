/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The HTML view: web/page.html with its markers replaced by web/style.css,
 * web/game.js and web/view.js (compiled in by format/embed.c) and by the
 * tree as JSON (include/mmtree/render.h describes the keys).
 *
 * The JSON goes inside a <script> element, where "</script" would end
 * it early: every '<' is written as the JSON escape \u003c, which the page
 * reads back as '<' (outside strings JSON has no '<').
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core/json.h"
#include "mmtree/format.h"
#include "mmtree/mmtree.h"

extern const unsigned char web_page_html[], web_style_css[], web_game_js[], web_view_js[];
extern const size_t web_page_html_len, web_style_css_len, web_game_js_len, web_view_js_len;

static void base64(strbuf *b, const unsigned char *p, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!strbuf_reserve(b, (n + 2) / 3 * 4))
        return;
    for (size_t i = 0; i < n; i += 3) {
        unsigned long v = (unsigned long)p[i] << 16;
        if (i + 1 < n)
            v |= (unsigned long)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        char q[4] = {digits[v >> 18 & 63], digits[v >> 12 & 63],
                     i + 1 < n ? digits[v >> 6 & 63] : '=', i + 2 < n ? digits[v & 63] : '='};
        strbuf_add(b, q, 4);
    }
}

/* The data object, without the escaping of '<'. */
static mm_status tree_json(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                           strbuf *out, mm_diag *d)
{
    char *mmt = NULL;
    size_t mlen = 0;
    mm_status st = mm_tree_write_mem(t, MM_FMT_BIN, NULL, &mmt, &mlen, d);
    if (st)
        return st;
    strbuf b64 = {0};
    base64(&b64, (const unsigned char *)mmt, mlen);
    free(mmt);

    mm_stats s;
    mm_tree_stats(t, &s);
    json_writer j;
    json_init(&j, out);
    json_object_begin(&j);
    json_tree_game(&j, t->pegs, t->colors, t->repeat);
    json_tree_stats(&j, &s, g, t->nodes[0].guess);
    json_tree_provenance(&j, t, g);
    json_key(&j, "path");
    json_str(&j, o->path ? o->path : "");
    json_key(&j, "depth");
    json_int(&j, o->depth);
    json_key(&j, "highlight");
    json_str(&j, o->highlight ? o->highlight : "");
    json_key(&j, "version");
    json_str(&j, mm_version());
    json_key(&j, "mmt");
    json_strn(&j, b64.data ? b64.data : "", b64.len);
    json_object_end(&j);
    bool failed = b64.failed;
    strbuf_release(&b64);
    if (failed || out->failed)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the page's data");
    return MM_OK;
}

static void add_escaped(strbuf *out, const char *s, size_t n)
{
    for (const char *lt; n && (lt = memchr(s, '<', n)); n -= (size_t)(lt + 1 - s), s = lt + 1) {
        strbuf_add(out, s, (size_t)(lt - s));
        strbuf_adds(out, "\\u003c");
    }
    strbuf_add(out, s, n);
}

mm_status html_render(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                      strbuf *out, mm_render_info *info, mm_diag *d)
{
    uint32_t start;
    mm_code x;
    mm_status st = mm_tree_find(t, g, o->path, &start, d);
    if (st)
        return st;
    mm_diag sub;
    mm_diag_clear(&sub);
    if (o->highlight && *o->highlight &&
        mm_code_parse(g, o->highlight, strlen(o->highlight), &x, &sub))
        return mm_diag_set(d, MM_ERR_USAGE, "highlight: %s", sub.msg);
    strbuf data = {0};
    if ((st = tree_json(t, g, o, &data, d))) {
        strbuf_release(&data);
        return st;
    }
    /* Copy the page, each marker "@mmtree-NAME@" replaced. */
    const char *p = (const char *)web_page_html, *end = p + web_page_html_len;
    for (const char *m; (m = strstr(p, "@mmtree-")); p = strchr(m + 1, '@') + 1) {
        strbuf_add(out, p, (size_t)(m - p));
        const char *name = m + 8;
        if (!strncmp(name, "css@", 4)) {
            strbuf_add(out, web_style_css, web_style_css_len);
        } else if (!strncmp(name, "js@", 3)) {
            strbuf_add(out, web_game_js, web_game_js_len);
            strbuf_add(out, web_view_js, web_view_js_len);
        } else if (!strncmp(name, "data@", 5)) {
            add_escaped(out, data.data, data.len);
        } else {
            strbuf_release(&data);
            return mm_diag_set(d, MM_ERR_INPUT, "web/page.html: unknown marker '%.20s'", m);
        }
    }
    strbuf_add(out, p, (size_t)(end - p));
    strbuf_release(&data);
    if (out->failed)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the page");
    if (info)
        *info = (mm_render_info){.start = start, .nodes = t->nnodes,
                                 .subtree_nodes = t->nnodes};
    return MM_OK;
}

/*
 * Replies in Knuth's letters and paths of guesses and replies.
 *
 * Knuth's article writes a reply as one B per black hit and one W per
 * white hit ("1122 B", "3526 BWW"); we write "-" for no hit, which his
 * table leaves blank.  A path is "GUESS:REPLY" steps joined by commas,
 * "1122:B,1344:W", read from the root.
 */
#include "mmtree/render.h"

#include <string.h>

char *mm_render_reply_format(const mm_game *g, int slot, char *buf)
{
    int n = 0;
    if (slot < 0 || slot >= g->nreplies) {
        buf[n++] = '?';
    } else {
        for (int i = 0; i < g->black[slot]; i++)
            buf[n++] = 'B';
        for (int i = 0; i < g->white[slot]; i++)
            buf[n++] = 'W';
        if (n == 0)
            buf[n++] = '-';
    }
    buf[n] = '\0';
    return buf;
}

mm_status mm_render_reply_parse(const mm_game *g, const char *s, size_t len,
                                int *slot, mm_diag *d)
{
    int black = 0, white = 0;
    if (len == 1 && s[0] == '-')
        goto found;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == 'B')
            black++;
        else if (s[i] == 'W')
            white++;
        else
            goto bad;
    }
    if (len == 0 || black + white > g->pegs)
        goto bad;
found:
    *slot = mm_reply_slot(g, black, white);
    if (*slot >= 0)
        return MM_OK;
bad:
    return mm_diag_set(d, MM_ERR_USAGE,
                       "'%.*s' is not a reply: write B per black hit and W per "
                       "white hit (at most %d), or '-' for none",
                       (int)(len > 32 ? 32 : len), s, g->pegs);
}

/* One step "G:R" of length len at node *node: move to the child. */
static mm_status path_step(const mm_tree *t, const mm_game *g, const char *s,
                           size_t len, int step, uint32_t *node, mm_diag *d)
{
    const char *colon = memchr(s, ':', len);
    mm_code guess;
    int slot;
    char have[MM_MAX_PEGS + 1], reply[MM_RENDER_REPLY_MAX];
    if (!colon)
        return mm_diag_set(d, MM_ERR_USAGE, "path step %d '%.*s': expected GUESS:REPLY",
                           step, (int)(len > 32 ? 32 : len), s);
    size_t glen = (size_t)(colon - s);
    mm_diag sub;
    mm_diag_clear(&sub);
    if (mm_code_parse(g, s, glen, &guess, &sub) ||
        mm_render_reply_parse(g, colon + 1, len - glen - 1, &slot, &sub))
        return mm_diag_set(d, MM_ERR_USAGE, "path step %d: %s", step, sub.msg);
    const mm_node *n = &t->nodes[*node];
    if (n->guess != guess) {
        if (n->guess == MM_NO_CODE)
            return mm_diag_set(d, MM_ERR_USAGE,
                               "path step %d: the tree has no guess there", step);
        return mm_diag_set(d, MM_ERR_USAGE,
                           "path step %d: the tree guesses %s there, not %.*s", step,
                           mm_code_format(g, n->guess, have), (int)glen, s);
    }
    mm_render_reply_format(g, slot, reply);
    if (slot == g->win)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "path step %d: reply %s to %s ends the game", step, reply,
                           mm_code_format(g, guess, have));
    uint32_t c = mm_tree_child(t, *node, slot);
    if (c == MM_NO_NODE || c >= t->nnodes)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "path step %d: no code still possible gives reply %s to %s",
                           step, reply, mm_code_format(g, guess, have));
    *node = c;
    return MM_OK;
}

mm_status mm_render_path_find(const mm_tree *t, const mm_game *g,
                              const char *path, uint32_t *node, mm_diag *d)
{
    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "the tree is empty");
    *node = 0;
    if (!path || !*path)
        return MM_OK;
    int step = 1;
    for (const char *s = path;; step++) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        mm_status st = path_step(t, g, s, len, step, node, d);
        if (st)
            return st;
        if (!comma)
            return MM_OK;
        s = comma + 1;
    }
}

void mm_render_opts_init(mm_render_opts *o)
{
    *o = (mm_render_opts){
        .layout = MM_RENDER_TREE,
        .format = MM_RENDER_AUTO,
        .max_nodes = MM_RENDER_MAX_NODES,
        .label_nodes = MM_RENDER_LABEL_NODES,
    };
}

mm_render_format mm_render_format_from_path(const char *path)
{
    static const struct {
        const char *ext;
        mm_render_format f;
    } exts[] = {
        {".svg", MM_RENDER_SVG}, {".png", MM_RENDER_PNG}, {".pdf", MM_RENDER_PDF},
        {".dot", MM_RENDER_DOT}, {".gv", MM_RENDER_DOT},
    };
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return MM_RENDER_AUTO;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i].ext) == 0)
            return exts[i].f;
    return MM_RENDER_AUTO;
}

const char *mm_render_format_name(mm_render_format f)
{
    static const char *const names[] = {
        [MM_RENDER_AUTO] = "auto", [MM_RENDER_SVG] = "svg", [MM_RENDER_PNG] = "png",
        [MM_RENDER_PDF] = "pdf",   [MM_RENDER_DOT] = "dot",
    };
    return (unsigned)f <= MM_RENDER_DOT ? names[f] : "?";
}

/* Placeholders until the readers and writers land (issue 3). */
#include "formats.h"

mm_status mm_bracket_read(const char *name, const char *text, size_t len,
                          mm_format dialect, unsigned flags, mm_tree *t,
                          mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "bracket notation is not supported yet");
}

mm_status mm_bracket_write(const mm_tree *t, mm_format dialect,
                           const mm_write_opts *o, char **buf, size_t *len,
                           mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "bracket notation is not supported yet");
}

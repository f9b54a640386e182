/* Placeholders until the readers and writers land (issue 3). */
#include "formats.h"

mm_status mm_xml_read(const char *name, const unsigned char *buf, size_t len,
                      unsigned flags, mm_tree *t, mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "xml is not supported yet");
}

mm_status mm_xml_write(const mm_tree *t, const mm_write_opts *o, char **buf,
                       size_t *len, mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "xml is not supported yet");
}

mm_status mm_bin_read(const char *name, const unsigned char *buf, size_t len,
                      unsigned flags, mm_tree *t, mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "binary is not supported yet");
}

mm_status mm_bin_write(const mm_tree *t, char **buf, size_t *len, mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "binary is not supported yet");
}

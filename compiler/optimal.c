/* Placeholder until the exact optima land (issue 6). */
#include "optimal.h"

mm_status mm_optimal_compile(const mm_game *g, const mm_compile_opts *o,
                             mm_tree *t, mm_diag *d)
{
    (void)g;
    (void)o;
    (void)t;
    return mm_diag_set(d, MM_ERR_USAGE, "rule '%s' is not implemented yet",
                       mm_rule_name(o->rule));
}

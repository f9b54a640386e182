#include "mmtree/mmtree.h"

#include "config.h"

const char *mm_version(void)
{
    return MM_VERSION;
}

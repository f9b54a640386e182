/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Opening libxml2 at run time: see xml_lib.h for why. */
#define MM_XML_LIB_IMPL
#include "xml_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The library's file name (its SONAME), found by meson at build time. */
#ifndef MM_LIBXML2_SONAME
#define MM_LIBXML2_SONAME "libxml2.so.2"
#endif

xml_lib_table xml_lib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[MM_DIAG_MSG_MAX / 2];
static bool loaded; /* written in load() only; pthread_once orders it */

static void load(void)
{
    const char *e;
    /* RTLD_LOCAL: our names never stand in for libxml2's own; a libxml2
     * already in the process (linked by a caller) is the one reused. */
    void *h = dlopen(MM_LIBXML2_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        e = dlerror();
        snprintf(load_error, sizeof load_error, "%s", e ? e : MM_LIBXML2_SONAME);
        return;
    }
    /* memcpy, not a cast: ISO C has no conversion from void * to a
     * function pointer; POSIX guarantees the representations agree. */
#define MM_XML_LOAD(f)                                                    \
    {                                                                     \
        void *sym = dlsym(h, #f);                                         \
        if (!sym) {                                                       \
            snprintf(load_error, sizeof load_error, "%s has no %s",       \
                     MM_LIBXML2_SONAME, #f);                              \
            return;                                                       \
        }                                                                 \
        memcpy(&xml_lib.f, &sym, sizeof sym);                               \
    }
    MM_XML_FUNCS(MM_XML_LOAD)
#undef MM_XML_LOAD
    xml_lib.xmlInitParser();
    loaded = true;
}

mm_status xml_lib_load(mm_diag *d)
{
    pthread_once(&load_once, load);
    if (!loaded)
        return mm_diag_set(d, MM_ERR_IO, "cannot load libxml2 for XML: %s", load_error);
    return MM_OK;
}

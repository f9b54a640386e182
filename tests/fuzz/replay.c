/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Runs saved inputs through a fuzz target's LLVMFuzzerTestOneInput, so
 * that every target's corpus is an ordinary test.  Arguments are files or
 * directories (their regular files, in name order).  Exit 0 when every
 * input ran; a target signals a failed property by aborting.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f) {
        fprintf(stderr, "replay: cannot open '%s'\n", path);
        return 1;
    }
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                fclose(f);
                free(buf);
                fprintf(stderr, "replay: out of memory for '%s'\n", path);
                return 1;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (!got)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (!err)
        LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    if (err)
        fprintf(stderr, "replay: cannot read '%s'\n", path);
    return err ? 1 : 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of a directory, in name order; returns how many ran,
 * or -1 on an error. */
static int run_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    int ran = 0;
    struct dirent *e;
    if (!dp) {
        fprintf(stderr, "replay: cannot open directory '%s'\n", dir);
        return -1;
    }
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len)))
            break;
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(dp);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t k = 0; k < n; k++) {
        struct stat st;
        if (ran >= 0 && stat(names[k], &st) == 0 && S_ISREG(st.st_mode))
            ran = run_file(names[k]) ? -1 : ran + 1;
        free(names[k]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int ran;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: cannot find '%s'\n", argv[i]);
            return 1;
        }
        ran = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) ? -1 : 1;
        if (ran < 0)
            return 1;
        total += ran;
    }
    printf("replay: %d inputs\n", total);
    /* No input at all means a wrong path, not a pass. */
    return total ? 0 : 1;
}

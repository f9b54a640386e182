/*
 * Replay driver: runs a fuzz target's LLVMFuzzerTestOneInput over saved
 * inputs, so every target also runs as an ordinary test, without
 * libFuzzer.  Arguments are files or directories (every regular file in
 * it); an argument that yields no input is an error, so a misplaced corpus
 * does not pass silently.
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
    if (!f) {
        perror(path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                fclose(f);
                free(buf);
                return -1;
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
    return err ? -1 : 1;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *dir = opendir(path);
    if (!dir) {
        perror(path);
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        char file[4096];
        struct stat fs;
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || stat(file, &fs) != 0 || !S_ISREG(fs.st_mode))
            continue;
        if (run_file(file) < 0) {
            n = -1;
            break;
        }
        n++;
    }
    closedir(dir);
    return n;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int n = run_path(argv[i]);
        if (n <= 0) {
            fprintf(stderr, "%s: no input replayed\n", argv[i]);
            return 1;
        }
        total += n;
    }
    printf("%d inputs replayed\n", total);
    return total ? 0 : 1;
}

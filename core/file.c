/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Files: reading and atomic writing (core/file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mmtree/format.h"

/* ---- reading ---- */

static mm_status read_fd(int fd, const char *path, size_t max, size_t hint,
                         unsigned char **out, size_t *outlen, mm_diag *d)
{
    size_t cap = hint < max ? hint + 1 : max, len = 0;
    if (cap < 4096)
        cap = 4096 < max ? 4096 : max;
    unsigned char *buf = malloc(cap + 1);
    if (!buf)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory reading '%s'", path);
    for (;;) {
        if (len == cap) {
            if (cap >= max) {
                free(buf);
                return mm_diag_set(d, MM_ERR_LIMIT, "'%s' is larger than %zu bytes", path,
                                   max);
            }
            size_t ncap = cap > max / 2 ? max : 2 * cap;
            unsigned char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                return mm_diag_set(d, MM_ERR_NOMEM, "out of memory reading '%s'", path);
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got > 0) {
            len += (size_t)got;
            continue;
        }
        if (got == 0)
            break;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            /* A FIFO with a writer that has not written yet. */
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, -1) >= 0 || errno == EINTR)
                continue;
        }
        int e = errno;
        free(buf);
        return mm_diag_set(d, MM_ERR_IO, "cannot read '%s': %s", path, strerror(e));
    }
    buf[len] = '\0'; /* convenience for text readers; not counted */
    *out = buf;
    *outlen = len;
    return MM_OK;
}

/* Open path to read ("-": standard input) and check what it is: a
 * directory, a regular file above max bytes, a device, or anything but a
 * regular file under FILE_REGULAR_ONLY is refused. */
static mm_status open_input(const char *path, size_t max, unsigned flags, int *fdp,
                            struct stat *sb, mm_diag *d)
{
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *fdp = -1;
    if (fd < 0)
        return mm_diag_set(d, MM_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    mm_status st = MM_OK;
    if (fstat(fd, sb) != 0) {
        st = mm_diag_set(d, MM_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    } else if (S_ISDIR(sb->st_mode)) {
        st = mm_diag_set(d, MM_ERR_IO, "'%s' is a directory", path);
    } else if (S_ISREG(sb->st_mode)) {
        if ((uint64_t)sb->st_size > max)
            st = mm_diag_set(d, MM_ERR_LIMIT, "'%s' is larger than %zu bytes", path, max);
    } else if (flags & FILE_REGULAR_ONLY) {
        st = mm_diag_set(d, MM_ERR_IO, "'%s' is not a regular file", path);
    } else if (!S_ISFIFO(sb->st_mode) && !S_ISSOCK(sb->st_mode) &&
               !(is_stdin && isatty(fd))) {
        st = mm_diag_set(d, MM_ERR_IO, "'%s' is a device, not a file", path);
    }
    if (st && !is_stdin)
        close(fd);
    else if (!st)
        *fdp = fd;
    return st;
}

mm_status file_read(const char *path, size_t max, unsigned flags,
                    unsigned char **buf, size_t *len, mm_diag *d)
{
    bool is_stdin = strcmp(path, "-") == 0;
    int fd;
    struct stat sb;
    mm_status st = open_input(path, max, flags, &fd, &sb, d);
    if (st)
        return st;
    st = read_fd(fd, is_stdin ? "<stdin>" : path, max,
                 S_ISREG(sb.st_mode) ? (size_t)sb.st_size : 0, buf, len, d);
    if (!is_stdin)
        close(fd);
    return st;
}

mm_status infile_open(infile *f, const char *path, size_t max, mm_diag *d)
{
    struct stat sb;
    f->fd = -1;
    f->name = path;
    f->size = 0;
    if (!strcmp(path, "-"))
        return mm_diag_set(d, MM_ERR_USAGE, "'-' is not a regular file");
    mm_status st = open_input(path, max, FILE_REGULAR_ONLY, &f->fd, &sb, d);
    if (!st)
        f->size = (uint64_t)sb.st_size;
    return st;
}

mm_status infile_read(infile *f, void *buf, size_t n, uint64_t off, mm_diag *d)
{
    unsigned char *p = buf;
    while (n) {
        ssize_t got = pread(f->fd, p, n, (off_t)off);
        if (got > 0) {
            p += got;
            n -= (size_t)got;
            off += (uint64_t)got;
        } else if (got == 0) {
            return mm_diag_set(d, MM_ERR_IO, "'%s' got shorter while it was read", f->name);
        } else if (errno != EINTR) {
            return mm_diag_set(d, MM_ERR_IO, "cannot read '%s': %s", f->name, strerror(errno));
        }
    }
    return MM_OK;
}

void infile_close(infile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
}

mm_status mm_file_read(const char *path, size_t max, unsigned char **buf,
                       size_t *len, mm_diag *d)
{
    return file_read(path, max, 0, buf, len, d);
}

/* ---- the temporary files a signal handler removes ---- */

enum { SLOTS = 16 };
static struct {
    atomic_int state; /* 0 free, 1 being filled, 2 holds a file */
    char path[PATH_MAX];
} slots[SLOTS];

static int slot_take(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    for (int i = 0; i < SLOTS; i++) {
        int free_ = 0;
        if (atomic_compare_exchange_strong(&slots[i].state, &free_, 1)) {
            strcpy(slots[i].path, path);
            atomic_store(&slots[i].state, 2);
            return i;
        }
    }
    return -1;
}

static void slot_give(int i)
{
    if (i >= 0)
        atomic_store(&slots[i].state, 0);
}

void outfile_remove_all(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&slots[i].state) == 2)
            unlink(slots[i].path);
}

/* ---- writing ---- */

static mm_status write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return MM_ERR_IO;
        }
        c += w;
        n -= (size_t)w;
    }
    return MM_OK;
}

/* The file a path names once symlinks are followed (the last one may
 * dangle: the file is then created where it points). */
static char *resolve(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p && hops < 40; hops++) {
        struct stat sb;
        if (lstat(p, &sb) != 0 || !S_ISLNK(sb.st_mode))
            return p;
        char link[PATH_MAX];
        ssize_t n = readlink(p, link, sizeof link - 1);
        if (n < 0) {
            free(p);
            return NULL;
        }
        link[n] = '\0';
        char *next;
        char *slash = strrchr(p, '/');
        if (link[0] == '/' || !slash) {
            next = strdup(link);
        } else {
            size_t dl = (size_t)(slash - p) + 1;
            next = malloc(dl + (size_t)n + 1);
            if (next) {
                memcpy(next, p, dl);
                memcpy(next + dl, link, (size_t)n + 1);
            }
        }
        free(p);
        p = next;
    }
    if (p)
        errno = ELOOP;
    free(p);
    return NULL;
}

/* Open tmp exclusively and list it for outfile_remove_all with signals
 * held off, so that no signal finds the file there and not listed. */
static int open_listed(const char *tmp, mode_t mode, int *slot)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    int e = errno;
    *slot = fd >= 0 ? slot_take(tmp) : -1;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

/* Create "DIR/.mmtree-XXXXXX" beside target, exclusively. */
static int make_tmp(const char *target, mode_t mode, char **tmp, int *slot)
{
    const char *slash = strrchr(target, '/');
    size_t dl = slash ? (size_t)(slash - target) + 1 : 0;
    char *t = malloc(dl + sizeof ".mmtree-XXXXXX");
    if (!t) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(t, target, dl);
    static atomic_uint serial;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid() << 20 ^
                 atomic_fetch_add(&serial, 1);
    for (int tries = 0; tries < 100; tries++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        snprintf(t + dl, sizeof ".mmtree-XXXXXX", ".mmtree-%06llx",
                 (unsigned long long)(x >> 40) & 0xffffff);
        int fd = open_listed(t, mode, slot);
        if (fd >= 0) {
            *tmp = t;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(t);
    errno = e;
    return -1;
}

static bool written_in_place(const char *path, const struct stat *sb, bool exists)
{
    if (exists && !S_ISREG(sb->st_mode))
        return true;
    return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
           !strncmp(path, "/dev/fd/", 8) || !strncmp(path, "/proc/self/fd/", 14);
}

mm_status outfile_open(outfile *f, const char *path, mm_diag *d)
{
    *f = (outfile){.name = path, .fd = -1, .slot = -1};
    if (!strcmp(path, "-")) {
        f->fd = STDOUT_FILENO;
        return MM_OK;
    }
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    if (written_in_place(path, &sb, exists)) {
        if (exists && S_ISDIR(sb.st_mode))
            return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': it is a directory", path);
        /* O_NONBLOCK: a FIFO nobody reads is ENXIO, not a wait. */
        f->fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (f->fd < 0)
            return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s", path,
                               errno == ENXIO ? "nothing reads from it" : strerror(errno));
        int fl = fcntl(f->fd, F_GETFL);
        if (fl >= 0)
            fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK);
        return MM_OK;
    }
    f->target = resolve(path);
    if (!f->target)
        return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    mode_t mode = exists ? sb.st_mode & 07777 : 0666;
    f->fd = make_tmp(f->target, mode, &f->tmp, &f->slot);
    if (f->fd < 0) {
        int e = errno;
        free(f->target);
        f->target = NULL;
        return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s", path, strerror(e));
    }
    if (exists) {
        /* The umask may have taken bits the file had back; the owner as
         * well where we may (root), else the file becomes ours. */
        if (fchmod(f->fd, mode) != 0 || fchown(f->fd, sb.st_uid, sb.st_gid) != 0)
            errno = 0;
        f->hardlinked = sb.st_nlink > 1;
    }
    return MM_OK;
}

mm_status outfile_write(outfile *f, const void *p, size_t n, mm_diag *d)
{
    if (f->failed)
        return MM_ERR_IO;
    if (write_all(f->fd, p, n)) {
        f->failed = true;
        f->err = errno;
        return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s",
                           strcmp(f->name, "-") ? f->name : "standard output",
                           strerror(f->err));
    }
    return MM_OK;
}

/* Copy the finished temporary file into the hard-linked target. */
static int copy_in_place(outfile *f)
{
    int out = open(f->target, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (out < 0)
        return -1;
    int in = open(f->tmp, O_RDONLY | O_CLOEXEC);
    int rc = in < 0 ? -1 : 0;
    char chunk[65536];
    off_t total = 0;
    while (!rc) {
        ssize_t n = read(in, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -1 : 0;
            break;
        }
        if (write_all(out, chunk, (size_t)n))
            rc = -1;
        total += n;
    }
    if (!rc && (ftruncate(out, total) != 0 || fsync(out) != 0))
        rc = -1;
    int e = errno;
    if (in >= 0)
        close(in);
    if (close(out) != 0 && !rc)
        return -1;
    errno = e;
    return rc;
}

mm_status outfile_commit(outfile *f, mm_diag *d)
{
    const char *name = strcmp(f->name, "-") ? f->name : "standard output";
    int e = f->err;
    bool ok = !f->failed;
    if (!f->tmp) {
        /* In place; standard output stays open for the command to close. */
        if (f->fd != STDOUT_FILENO && f->fd >= 0 && close(f->fd) != 0 && ok)
            ok = false, e = errno;
        f->fd = -1;
        if (!ok)
            return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s", name, strerror(e));
        return MM_OK;
    }
    if (ok && fsync(f->fd) != 0)
        ok = false, e = errno;
    if (close(f->fd) != 0 && ok)
        ok = false, e = errno;
    f->fd = -1;
    if (ok) {
        int rc = f->hardlinked ? copy_in_place(f) : rename(f->tmp, f->target);
        if (rc != 0)
            ok = false, e = errno;
    }
    if (ok && !f->hardlinked) {
        /* The rename itself on disk: sync the folder (best effort). */
        char *slash = strrchr(f->target, '/');
        char *dir = slash ? strndup(f->target, (size_t)(slash - f->target) + 1) : strdup(".");
        int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        if (dfd >= 0) {
            if (fsync(dfd) != 0)
                errno = 0; /* the data is in place; only its durability is unsure */
            close(dfd);
        }
        free(dir);
        free(f->tmp);
        f->tmp = NULL;
    }
    outfile_abort(f);
    if (!ok)
        return mm_diag_set(d, MM_ERR_IO, "cannot write '%s': %s", name, strerror(e));
    return MM_OK;
}

void outfile_abort(outfile *f)
{
    if (f->fd >= 0 && f->fd != STDOUT_FILENO)
        close(f->fd);
    f->fd = -1;
    if (f->tmp)
        unlink(f->tmp);
    slot_give(f->slot);
    f->slot = -1;
    free(f->tmp);
    free(f->target);
    f->tmp = f->target = NULL;
}

mm_status mm_file_write_atomic(const char *path, const void *buf, size_t len,
                               mm_diag *d)
{
    outfile f;
    mm_status st = outfile_open(&f, path, d);
    if (!st)
        st = outfile_write(&f, buf, len, d);
    if (!st)
        st = outfile_commit(&f, d);
    outfile_abort(&f);
    return st;
}

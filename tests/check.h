/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The one check of the C tests.  CHECK(cond, fmt, ...) counts the check
 * and, when cond is false, the failure, and says where and what:
 *
 *     test_x.c:42: check failed: n == 5: MM(4,6) gave 4
 *
 * FAIL(fmt, ...) is a failure found otherwise ("FAIL: " and the message,
 * an expression).  A test returns failures != 0 from main.  A test that may fail a
 * thousand times over (an exhaustive loop) defines CHECK_MAX_FAILURES
 * before including this and stops after that many.
 */
#ifndef MM_TESTS_CHECK_H
#define MM_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int checks __attribute__((unused)), failures;

#ifndef CHECK_MAX_FAILURES
#define CHECK_MAX_FAILURES 0   /* 0: never stop */
#endif

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        checks++;                                                                \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
            if (++failures == CHECK_MAX_FAILURES)                                \
                exit(1);                                                         \
        }                                                                        \
    } while (0)

#define FAIL(...) (fprintf(stderr, "FAIL: " __VA_ARGS__), fputc('\n', stderr), failures++)

#endif

#include "fmt_common.h"

#include <stdio.h>
#include <string.h>

bool fmt_rule_ok(const char *s, size_t len)
{
    if (len < 1 || len > FMT_RULE_MAX)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

bool fmt_text_ok(const char *s, size_t len, size_t *bad)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t chars = 0, i = 0;
    *bad = len;
    if (len == 0)
        return false;
    while (i < len) {
        unsigned c = u[i];
        uint32_t cp;
        size_t n;
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n')
                goto fail;
            n = 1;
            cp = c;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            cp = c & 0x07;
        } else {
            goto fail;
        }
        if (n > len - i)
            goto fail;
        for (size_t k = 1; k < n; k++) {
            if ((u[i + k] & 0xC0) != 0x80)
                goto fail;
            cp = cp << 6 | (u[i + k] & 0x3F);
        }
        /* Overlong forms, surrogates, beyond U+10FFFF, non-characters
         * that XML does not allow. */
        if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
            goto fail;
        if (++chars > FMT_TEXT_MAX_CHARS)
            goto fail;
        i += n;
    }
    return true;
fail:
    *bad = i;
    return false;
}


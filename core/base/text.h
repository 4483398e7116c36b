/*
 * text.h - reading outside text, one set of rules (text.c): lines, key=value
 * records, tokens and numbers.  Every parser of kernel files, Slurm
 * variables, plugstack arguments and the project's own formats builds on
 * these, so their strictness is chosen with a flag, never rewritten; and
 * the one writer of text every encoder appends to (gov_text_buf).
 * Only a growable gov_text_buf allocates; every function is thread-safe.
 */
#ifndef GOV_TEXT_H
#define GOV_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- lines -------------------------------------------------------------- */

/* An iterator over the lines of a text. */
typedef struct gov_lines {
    const char *p, *end;
    bool complete;   /* only lines that end with '\n' (a cut-off read's last
                        line is dropped) */
} gov_lines;

/* Iterate over text[0..len); complete: see gov_lines. */
gov_lines gov__lines_of(const char *text, size_t len, bool complete);

/* The next line, without its '\n', into *line / *len.  False at the end. */
bool gov__line_next(gov_lines *it, const char **line, size_t *len);

/* The next "key=value\n" record of a strict format (the descriptor, the
 * topology table): 1 with key and value, 0 at the end, GOV_EPARSE for a
 * line without '=', with an empty key or value, or without its newline. */
int gov__record_next(gov_lines *it, const char **key, size_t *klen, const char **val,
                     size_t *vlen);

/* ---- tokens ------------------------------------------------------------- */

bool gov__is_space(char c);   /* ' ', '\t', '\n', '\r' */

/* Drop white space at both ends of s[0..*len). */
void gov__trim(const char **s, size_t *len);

/* s[0..len) is exactly word. */
bool gov__token_eq(const char *s, size_t len, const char *word);

/* A white-space separated list s[0..len) (cgroup.controllers) holds word. */
bool gov__words_have(const char *s, size_t len, const char *word);

/* s[0..len) starts with prefix; *rest and *rest_len (either may be NULL)
 * get what follows it. */
bool gov__prefix(const char *s, size_t len, const char *prefix, const char **rest,
                 size_t *rest_len);

/* ---- numbers ------------------------------------------------------------ */

/* Strictness of gov__parse_dec() / gov__parse_hex(). */
#define GOV_NUM_SPACE     0x1u  /* white space around the number (a kernel
                                   file's newline) is allowed */
#define GOV_NUM_CANONICAL 0x2u  /* no leading zero but "0" itself: one text
                                   per value, for sealed formats */
#define GOV_HEX_PREFIX    0x4u  /* "0x" is required (sysfs attributes) */
#define GOV_HEX_LOWER     0x8u  /* only lowercase digits */

/* text[0..len) as an unsigned decimal of at most max: digits only, no
 * sign.  Returns 0, GOV_EPARSE (not a number under flags) or GOV_ERANGE
 * (above max, or overflow). */
int gov__parse_dec(const char *text, size_t len, unsigned flags, uint64_t max,
                   uint64_t *out);

/* The decimal digits at *p (at least one, at most max), advancing *p past
 * them: numbers inside a larger grammar.  0, GOV_EPARSE, GOV_ERANGE. */
int gov__scan_dec(const char **p, const char *end, uint64_t max, uint64_t *out);

/* text[0..len) as a hexadecimal number under flags.  0, GOV_EPARSE,
 * GOV_ERANGE. */
int gov__parse_hex(const char *text, size_t len, unsigned flags, uint64_t *out);

/* A directory entry named PREFIX then decimal digits only ("nvidia0",
 * "renderD128", "card1"); *num gets the digits. */
bool gov__name_number(const char *name, const char *prefix, uint64_t *num);

/* The most common case: a kernel file's number, white space allowed. */
static inline int gov__parse_u64(const char *text, size_t len, uint64_t *out)
{
    return gov__parse_dec(text, len, GOV_NUM_SPACE, UINT64_MAX, out);
}

/* ---- writing ------------------------------------------------------------ */

/* Replace every control character (below 0x20, and 0x7f) in s with '?':
 * outside text (MUNGE's error, a user's value) on its way to a log line,
 * where a newline would forge a line of its own. */
void gov__text_printable(char *s);

/* Text built piece by piece, in one of two modes:
 *  - fixed (gov__text_fixed): the caller's buf[0..cap), which stays the
 *    caller's; a piece that does not fit sets err to GOV_ENOSPC;
 *  - growable (gov__text_growable): a malloc'd buffer the writer owns and
 *    grows; when it cannot, err is GOV_ENOMEM.  gov__text_take() hands the
 *    text over or frees it.
 * Errors are sticky: once err is set every append is a no-op, and the text
 * holds only the pieces before the one that failed (still terminated), to
 * be thrown away.  Otherwise buf[used] is always '\0' once anything (even
 * "") was appended. */
typedef struct gov_text_buf {
    char *buf;
    size_t cap, used;
    bool growable;
    int err;   /* 0, GOV_ENOSPC, GOV_ENOMEM, or GOV_ERANGE for a piece
                  printf cannot write (longer than INT_MAX) */
} gov_text_buf;

/* A writer over buf[0..cap); cap 0 fails at the first piece. */
static inline gov_text_buf gov__text_fixed(char *buf, size_t cap)
{
    return (gov_text_buf){ .buf = buf, .cap = cap };
}

/* A writer with no buffer yet: the first piece allocates it. */
static inline gov_text_buf gov__text_growable(void)
{
    return (gov_text_buf){ .growable = true };
}

/* Append printf-style. */
void gov__text_put(gov_text_buf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append s[0..n) as it is (NULs too). */
void gov__text_append(gov_text_buf *o, const char *s, size_t n);

/* A growable writer's text: *out gets it, malloc'd and terminated ("" when
 * nothing was appended), *len (may be NULL) its length; the caller frees
 * it.  On error the buffer is freed instead and err returned.  Either way
 * o is left empty, ready for new text.  GOV_EINVAL, and nothing done, for
 * a fixed writer. */
int gov__text_take(gov_text_buf *o, char **out, size_t *len);

#endif /* GOV_TEXT_H */

/*
 * base.h - what every room of core/ uses: text read and written, CPU sets,
 * enum names, environment values, JSON read and written.
 * One header for the room (core/base/); each section names its file.
 */
#ifndef GOV_BASE_H
#define GOV_BASE_H

#include "governor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ==== text.c ============================================================
 * reading outside text, one set of rules (text.c): lines, key=value
 * records, tokens and numbers.  Every parser of kernel files, Slurm
 * variables, plugstack arguments and the project's own formats builds on
 * these, so their strictness is chosen with a flag, never rewritten; and
 * the one writer of text every encoder appends to (gov_text_buf).
 * Only a growable gov_text_buf allocates; every function is thread-safe.
 */
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
int gov__parse_u64(const char *text, size_t len, uint64_t *out);

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

/* ==== cpuset.c ==========================================================
 * one CPU of a gov_cpuset, and whole sets combined: the only
 * place that knows how its bits are laid out, for every file that walks,
 * builds or compares sets (the public header has parse, format and
 * count); and the set written as a CPU list onto a text writer, for
 * encoders that write more than a list.
 */
/* Whether cpu is in s; false past GOV_CPUSET_BITS. */
static inline bool gov__cpu_in(const gov_cpuset *s, unsigned cpu)
{
    return cpu < GOV_CPUSET_BITS && ((s->bits[cpu / 64] >> (cpu % 64)) & 1u);
}

/* Put cpu in s; nothing past GOV_CPUSET_BITS. */
static inline void gov__cpu_add(gov_cpuset *s, unsigned cpu)
{
    if (cpu < GOV_CPUSET_BITS)
        s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

/* Take cpu out of s. */
static inline void gov__cpu_del(gov_cpuset *s, unsigned cpu)
{
    if (cpu < GOV_CPUSET_BITS)
        s->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

/* dst = a & b (dst may be either). */
static inline void gov__cpuset_and(gov_cpuset *dst, const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        dst->bits[i] = a->bits[i] & b->bits[i];
}

/* dst |= src. */
static inline void gov__cpuset_or(gov_cpuset *dst, const gov_cpuset *src)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        dst->bits[i] |= src->bits[i];
}

/* Whether a and b share a CPU. */
static inline bool gov__cpuset_intersects(const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        if (a->bits[i] & b->bits[i])
            return true;
    return false;
}

/* Whether every CPU of a is in b. */
static inline bool gov__cpuset_within(const gov_cpuset *a, const gov_cpuset *b)
{
    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        if (a->bits[i] & ~b->bits[i])
            return false;
    return true;
}

/* How many CPUs of a are not in b. */
static inline uint64_t gov__cpuset_count_outside(const gov_cpuset *a, const gov_cpuset *b)
{
    uint64_t n = 0;

    for (size_t i = 0; i < GOV_CPUSET_BITS / 64; i++)
        n += (uint64_t)__builtin_popcountll(a->bits[i] & ~b->bits[i]);
    return n;
}

/* The first CPU of s at or after cpu; GOV_CPUSET_BITS when there is none.
 * Sparse sets (a core's PUs) skip their empty words whole. */
static inline unsigned gov__cpu_next(const gov_cpuset *s, unsigned cpu)
{
    while (cpu < GOV_CPUSET_BITS) {
        uint64_t rest = s->bits[cpu / 64] >> (cpu % 64);
        if (rest)
            return cpu + (unsigned)__builtin_ctzll(rest);
        cpu = (cpu / 64 + 1) * 64;
    }
    return GOV_CPUSET_BITS;
}

/* for (cpu in s), in increasing order. */
#define GOV_CPU_FOREACH(cpu, s)                                                        \
    for (unsigned cpu = gov__cpu_next((s), 0); cpu < GOV_CPUSET_BITS;                   \
         cpu = gov__cpu_next((s), cpu + 1))

/* Append s as a canonical Linux CPU list ("0-3,8"; nothing when empty):
 * gov_cpuset_format() without a buffer of its own. */
void gov__cpuset_put(gov_text_buf *o, const gov_cpuset *s);

/* ==== names.c ===========================================================
 * the one idiom for enum names (names.c): a table indexed by the
 * enum's value, read both ways.  One rule everywhere: a value outside its
 * enum has no name (NULL), and so do the "none" members that the JSON
 * contract prints as null; every other member has its name.  Parsers of
 * outside text (the --governor MODE, plugstack.conf, the descriptor) look
 * names up here instead of spelling them.
 */
/* The name of value v in table (n entries), NULL when it has none. */
const char *gov__name_of(const char *const *table, size_t n, unsigned v);

/* The value whose name is text[0..len) in table, or -1. */
int gov__name_lookup(const char *const *table, size_t n, const char *text, size_t len);

#define GOV_NAMES(table) (table), (sizeof(table) / sizeof(table)[0])

/* Every public enum's names, for the tests that hold them all to one rule
 * and to the docs: "gov_reason", its table, its count. */
typedef struct gov_enum_table {
    const char *type;
    const char *const *names;
    size_t count;
} gov_enum_table;

extern const gov_enum_table gov__enum_tables[];
extern const size_t gov__enum_tables_count;

/* Reverse lookups of the enums that outside text names: 0 and *out set,
 * or GOV_EPARSE. */
int gov__profile_from_name(const char *text, size_t len, gov_profile *out);
int gov__step_kind_from_name(const char *text, size_t len, gov_step_kind *out);

/* Comma list of the layers in BITS (1u << gov_layer: "affinity,cpuset"),
 * "none" for 0. */
void gov__layers_format(unsigned bits, char *buf, size_t cap);

/* Comma list of the names of an enum's members in BITS (1u << member), in
 * value order ("user,pid"), "none" for 0; returns buf. */
const char *gov__bits_format(uint32_t bits, const char *(*name)(unsigned), unsigned count,
                             char *buf, size_t cap);
/* The same for the public enums the snapshot keeps as bits. */
const char *gov__namespace_bits_name(unsigned v);
const char *gov__binding_bits_name(unsigned v);

/* ==== envval.c ==========================================================
 * a variable of an environment ("NAME=value" array), and the
 * parsers of the values people give runtimes through it (thread counts,
 * GOMEMLIMIT, NODE_OPTIONS, JAVA_TOOL_OPTIONS), so that `governor run` and
 * the plugin can tell what a kept setting amounts to.  Outside text: each
 * parser takes (text, len) and has a fuzz target (tests/fuzz/).
 */
/* NAME's value in envp (NULL-terminated), or NULL. */
const char *gov__env_get(const char *const *envp, const char *name);

/* The leading count of a thread variable: "4", or the first of a comma
 * list ("4,2": OpenMP's nesting levels, Julia's default and interactive
 * pools).  Returns 0, GOV_EPARSE (not a count: "auto", "default", "0"),
 * GOV_ERANGE. */
int gov__envval_count(const char *text, size_t len, uint64_t *out);

/* GOMEMLIMIT as Go reads it: a byte count with an optional B, KiB, MiB,
 * GiB or TiB suffix, or "off" (Go's no limit, INT64_MAX).  Returns 0,
 * GOV_EPARSE, GOV_ERANGE. */
int gov__envval_go_bytes(const char *text, size_t len, uint64_t *out);

/* A HotSpot size (-Xmx, -XX:MaxRAM): digits with an optional k, m, g or t
 * suffix in either case.  Returns 0, GOV_EPARSE, GOV_ERANGE. */
int gov__envval_java_size(const char *text, size_t len, uint64_t *out);

/* A fraction as JAX reads XLA_PYTHON_CLIENT_MEM_FRACTION ("0.25", ".25",
 * "1"), in thousandths (digits past the third are cut).  Returns 0,
 * GOV_EPARSE, GOV_ERANGE. */
int gov__envval_fraction(const char *text, size_t len, uint64_t *out);

/* A percentage as CuPy reads CUPY_GPU_MEMORY_LIMIT ("25%", "18.75%"), in
 * thousandths of the whole.  Returns 0, GOV_EPARSE, GOV_ERANGE. */
int gov__envval_percent(const char *text, size_t len, uint64_t *out);

/* A byte count with an optional K, M, G or T (binary) and an optional B
 * after it, in either case ("512M", "4GB", "1024"), as CUDA MPS and
 * Julia's JULIA_HEAP_SIZE_HINT read it (a decimal fraction is not read).
 * Returns 0, GOV_EPARSE, GOV_ERANGE. */
int gov__envval_size(const char *text, size_t len, uint64_t *out);

/* CUDA MPS's CUDA_MPS_PINNED_DEVICE_MEM_LIMIT ("0=4G,1=512MB": a device
 * and a size with an optional K, M, G or T and an optional B), the bytes
 * of device 0: the first device a client sees.  Returns 0, GOV_ENOENT (no
 * device 0), GOV_EPARSE, GOV_ERANGE. */
int gov__envval_mps_limit(const char *text, size_t len, uint64_t *out);

/* One option found in an option string. */
typedef struct gov_envval_option {
    size_t start, len;        /* the option's words in the text (name and value) */
    size_t value, value_len;  /* its value in the text */
    size_t which;             /* index of the name that matched */
} gov_envval_option;

/* Find the last option of an option string (NODE_OPTIONS,
 * JAVA_TOOL_OPTIONS: words separated by blanks, double quotes grouping)
 * whose word begins with one of names[0..n-1].  A name ending in '=' or a
 * JVM -X option takes its value in the same word; any other name takes
 * "NAME=VALUE" or "NAME VALUE" (the next word).  The last one wins, as in
 * Node and the JVM.  Returns 0, GOV_ENOENT. */
int gov__envval_find_option(const char *text, size_t len, const char *const *names, size_t n,
                            gov_envval_option *out);

/* ==== json_read.c =======================================================
 * a strict reader of one JSON text (RFC 8259) into its
 * leaves, for the step report's records.  No allocation: the leaves point
 * into the text.
 */
typedef enum gov_json_type {
    GOV_JSON_NULL,
    GOV_JSON_BOOL,
    GOV_JSON_NUMBER,
    GOV_JSON_STRING,
} gov_json_type;

/* A scalar and where it sits: members joined by '.', array elements as
 * "[]" ("used.cpu_s", "findings[]").  A string's text is what lies between
 * its quotes, escapes as written (plain says there are none). */
typedef struct gov_json_leaf {
    char path[64];
    gov_json_type type;
    const char *text;
    size_t len;
    bool plain;
} gov_json_leaf;

/* Nesting deeper than this is refused. */
#define GOV_JSON_DEPTH_MAX 8

/* Read text[0..len) as one JSON value (white space around it allowed).
 * Returns the number of leaves (at most cap are stored), or GOV_EPARSE (not
 * JSON, nested too deep, a path past 63 bytes, more leaves than cap). */
int gov__json_leaves(const char *text, size_t len, gov_json_leaf *out, size_t cap);

/* ==== json_write.c ======================================================
 * the one JSON writer (json_write.c), small and
 * append-only, over core's text writer (text.h): under every renderer of
 * the library (runtime/json/render.h) and the step report's record
 * (core/report/step_report.c), which the plugin writes.  Errors are
 * sticky: after a failure every call is a no-op and gov__jw_finish() (or
 * gov__jw_length()) reports it.
 */
#define GOV_JW_MAX_DEPTH 16

typedef struct gov_jw {
    gov_text_buf out;
    int err;    /* GOV_ERANGE: nested deeper than GOV_JW_MAX_DEPTH */
    int depth;
    bool first[GOV_JW_MAX_DEPTH]; /* no member written yet at this depth */
} gov_jw;

/* A writer whose text grows as needed (malloc'd). */
void gov__jw_init(gov_jw *w);
/* Hand the text to the caller (malloc'd) or free it on error. */
int gov__jw_finish(gov_jw *w, char **out, size_t *len);
/* A writer into the caller's buf[0..cap): nothing is allocated. */
void gov__jw_init_fixed(gov_jw *w, char *buf, size_t cap);
/* The bytes written so far, or the sticky error (GOV_ENOSPC: past cap). */
int gov__jw_length(const gov_jw *w);
/* A long document a piece at a time: write what a growable writer holds so
 * far to f and drop it from the writer, which goes on where it stood.
 * Returns 0, the sticky error, or GOV_EIO when f refused the bytes. */
int gov__jw_flush(gov_jw *w, FILE *f);

void gov__jw_object_begin(gov_jw *w, const char *key); /* key NULL at top */
void gov__jw_object_end(gov_jw *w);
/* Members of an array take key NULL. */
void gov__jw_array_begin(gov_jw *w, const char *key);
void gov__jw_array_end(gov_jw *w);
void gov__jw_string(gov_jw *w, const char *key, const char *value); /* NULL -> null */
void gov__jw_null(gov_jw *w, const char *key);
void gov__jw_bool(gov_jw *w, const char *key, bool value);
void gov__jw_int(gov_jw *w, const char *key, int64_t value);
/* GOV_UNKNOWN -> null */
void gov__jw_u64(gov_jw *w, const char *key, uint64_t value);
/* NaN or infinity -> null */
void gov__jw_double(gov_jw *w, const char *key, double value);
/* With exactly places decimals ("%.*f"); NaN or infinity -> null. */
void gov__jw_fixed(gov_jw *w, const char *key, double value, int places);
/* A value encoded elsewhere (json[0..len), one valid JSON value),
 * written as it is: a step record inside `governor report --json`. */
void gov__jw_raw(gov_jw *w, const char *key, const char *json, size_t len);
/* A CPU set as a Linux CPU list string (null when it cannot be formatted). */
void gov__jw_cpuset(gov_jw *w, const char *key, const gov_cpuset *set);

/* ==== field_table.c =====================================================
 * a table of a struct's fields, one row each: where the member sits, its
 * JSON path and kind, so its unknown value; and how people read it (a
 * label, a unit, whether it applies).  One walker writes any such table as
 * JSON and reads it back: the snapshot's (core/snapshot/snapshot_fields.c,
 * which `governor snapshot` also prints as text) and the step report's
 * record (core/report/step_report.c).
 */
typedef enum gov_field_kind {
    GOV_FIELD_COUNT,     /* uint64_t; unknown GOV_UNKNOWN, written null */
    GOV_FIELD_FRACTION,  /* double; unknown NaN, written null; `decimals`
                            places, or the shortest form when 0 */
    GOV_FIELD_FLAG,      /* int 0/1, a JSON boolean, never unknown */
    GOV_FIELD_BOOL,      /* bool, a JSON boolean, never unknown */
    GOV_FIELD_TRISTATE,  /* int 1/0, unknown -1, written null */
    GOV_FIELD_INDEX,     /* int >= 0, unknown -1, written null */
    GOV_FIELD_PERCENT,   /* uint32_t, 0 when none: a JSON number */
    GOV_FIELD_VERSION,   /* int cgroup version 1 or 2; unknown 0, written null */
    GOV_FIELD_NAME,      /* an enum, written by `name`; unknown 0 (every
                            enum's "none" member, written null) */
    GOV_FIELD_TEXT,      /* char[aux]: a plain string, never unknown */
    GOV_FIELD_CPUSET,    /* gov_cpuset, written as a CPU list; null when the
                            count at `aux` is GOV_UNKNOWN */
    GOV_FIELD_DERIVED,   /* a string `derive` makes from other members */
    GOV_FIELD_CUSTOM,    /* written by `put`, read back by `get` */
    GOV_FIELD_SECTION,   /* no member: where the text view starts a section
                            titled `label` */
} gov_field_kind;

/* How people read a figure. */
typedef enum gov_field_unit {
    GOV_UNIT_NONE,
    GOV_UNIT_BYTES,      /* COUNT: 1.5 GiB */
    GOV_UNIT_CORES,      /* FRACTION: 1.50 cores */
    GOV_UNIT_PERCENT,    /* FRACTION: 2.87% */
    GOV_UNIT_SECONDS,    /* COUNT, FRACTION: 12 s */
} gov_field_unit;

/* A label's length at most: the text view's column. */
#define GOV_FIELD_LABEL_MAX 34

typedef struct gov_field {
    /* The JSON path below the top ("memory.cgroup.limit_bytes"); a path
     * with a '.' opens its objects on its first row (the table keeps one
     * object's rows together).  For a hidden row, the member's name. */
    const char *path;
    gov_field_kind kind;
    /* Not written itself (a derived row shows it), still a member with an
     * unknown value. */
    bool hidden;
    size_t offset;       /* of the member in its struct */
    size_t aux;          /* CPUSET: offset of its count; TEXT: its size */
    unsigned decimals;   /* FRACTION: fixed places, 0: shortest */
    const char *(*name)(unsigned value);                          /* NAME */
    /* DERIVED: the string to write, NULL for null; buf is scratch. */
    const char *(*derive)(const void *obj, char *buf, size_t cap);
    /* CUSTOM: write the member at key; read back one leaf at or below the
     * row's path (0 or GOV_EPARSE); print its lines for people. */
    void (*put)(gov_jw *w, const char *key, const void *obj);
    int (*get)(const gov_json_leaf *l, void *obj);
    void (*text)(const void *obj, FILE *out);
    /* For people: what the row is called, its unit, and whether it applies
     * to obj (NULL: always); one that does not reads "n/a", one that is
     * unknown "unknown".  note: what to say after the value, NULL for
     * nothing (where it comes from, why it is what it is). */
    const char *label;
    gov_field_unit unit;
    bool (*applies)(const void *obj);
    const char *(*note)(const void *obj, char *buf, size_t cap);
} gov_field;

/* Write every row of f[0..n) that is not hidden as members of the object
 * open in w, opening and closing the objects of their paths. */
void gov__fields_json(gov_jw *w, const gov_field *f, size_t n, const void *obj);

/* The row of f[0..n) a leaf belongs to (a CUSTOM row's, for a leaf below
 * it), trying *next first, as a writer's order makes it; n when none. */
size_t gov__fields_find(const gov_field *f, size_t n, const char *path, size_t next);

/* Read leaf l into row f's member of obj: 0, or GOV_EPARSE (a type or a
 * value the row's kind does not take). */
int gov__field_get(const gov_field *f, const gov_json_leaf *l, void *obj);

/* Zero the part of obj at offset (size bytes; it may live outside such an
 * obj, which offset names) and give each row's member in it its unknown
 * value. */
void gov__fields_set_unknown(const gov_field *f, size_t n, void *part, size_t offset,
                             size_t size);

#endif /* GOV_BASE_H */

/*
 * names.h - the one idiom for enum names (names.c): a table indexed by the
 * enum's value, read both ways.  One rule everywhere: a value outside its
 * enum has no name (NULL), and so do the "none" members that the JSON
 * contract prints as null; every other member has its name.  Parsers of
 * outside text (the --governor MODE, plugstack.conf, the descriptor) look
 * names up here instead of spelling them.
 */
#ifndef GOV_NAMES_H
#define GOV_NAMES_H

#include "governor.h"

#include <stddef.h>

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

#endif /* GOV_NAMES_H */

/* admission_reservations.c - the table of active reservations by id: open
 * addressing, so decide+reserve+release stays a few hundred nanoseconds. */
#include "admission/admission.h"

#include <stdlib.h>

#define GOV_HELD_MIN_CAP 64

int gov__held_init(gov_held_table *t)
{
    t->slots = calloc(GOV_HELD_MIN_CAP, sizeof *t->slots);
    t->cap = GOV_HELD_MIN_CAP;
    t->count = 0;
    return t->slots ? 0 : GOV_ENOMEM;
}

void gov__held_free(gov_held_table *t)
{
    free(t->slots);
    t->slots = NULL;
}

static size_t home(const gov_held_table *t, uint64_t id)
{
    /* Fibonacci hashing spreads consecutive ids. */
    return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 32) & (t->cap - 1);
}

static void place(gov_held_table *t, const gov_held *h)
{
    size_t i = home(t, h->id);

    while (t->slots[i].id)
        i = (i + 1) & (t->cap - 1);
    t->slots[i] = *h;
}

int gov__held_reserve_room(gov_held_table *t)
{
    gov_held *old = t->slots;
    size_t old_cap = t->cap;

    /* Keep the load at most one half so probes stay short. */
    if ((t->count + 1) * 2 <= t->cap)
        return 0;
    if (t->cap > SIZE_MAX / 2 / sizeof *t->slots)
        return GOV_ENOMEM;
    t->slots = calloc(old_cap * 2, sizeof *t->slots);
    if (!t->slots) {
        t->slots = old;
        return GOV_ENOMEM;
    }
    t->cap = old_cap * 2;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].id)
            place(t, &old[i]);
    free(old);
    return 0;
}

void gov__held_insert(gov_held_table *t, const gov_held *h)
{
    place(t, h);
    t->count++;
}

static size_t find(const gov_held_table *t, uint64_t id)
{
    size_t i = home(t, id);

    while (t->slots[i].id) {
        if (t->slots[i].id == id)
            return i;
        i = (i + 1) & (t->cap - 1);
    }
    return SIZE_MAX;
}

bool gov__held_contains(const gov_held_table *t, uint64_t id)
{
    return id != 0 && find(t, id) != SIZE_MAX;
}

bool gov__held_remove(gov_held_table *t, uint64_t id, gov_held *out)
{
    size_t i = id ? find(t, id) : SIZE_MAX, j, k;

    if (i == SIZE_MAX)
        return false;
    *out = t->slots[i];
    t->slots[i].id = 0;
    t->count--;
    /* Backward-shift deletion: move later members of the probe run into
     * the hole when their home position allows it, so no tombstones. */
    j = i;
    for (;;) {
        j = (j + 1) & (t->cap - 1);
        if (!t->slots[j].id)
            break;
        k = home(t, t->slots[j].id);
        if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
            t->slots[i] = t->slots[j];
            t->slots[j].id = 0;
            i = j;
        }
    }
    return true;
}

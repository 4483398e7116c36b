/* admission_history.c - bounded batch history per task class and the
 * conservative bytes-per-item it implies (docs/governor.md, "History"). */
#include "admission/admission.h"

#include <stdlib.h>

int gov__history_init(gov_history_table *t, uint32_t cap)
{
    t->classes = calloc(cap, sizeof *t->classes);
    t->used = 0;
    t->cap = cap;
    return t->classes ? 0 : GOV_ENOMEM;
}

void gov__history_free(gov_history_table *t)
{
    free(t->classes);
    t->classes = NULL;
}

static gov_history *find(const gov_history_table *t, uint32_t task_class)
{
    for (uint32_t i = 0; i < t->used; i++)
        if (t->classes[i].task_class == task_class)
            return &t->classes[i];
    return NULL;
}

int gov__history_record(gov_history_table *t, uint32_t task_class,
                        const gov_batch_record *rec)
{
    gov_history *h = find(t, task_class);

    if (!h) {
        if (t->used == t->cap)
            return GOV_ENOSPC;
        h = &t->classes[t->used++];
        h->task_class = task_class;
    }
    h->ring[h->next] = *rec;
    h->next = (h->next + 1) % GOV_HISTORY_LEN;
    if (h->count < GOV_HISTORY_LEN)
        h->count++;
    return 0;
}

uint64_t gov__history_per_item(const gov_history_table *t, const gov_estimate *est)
{
    const gov_history *h = find(t, est->task_class);
    uint64_t per_item = est->bytes_per_item;

    if (!h)
        return per_item;
    for (uint32_t i = 0; i < h->count; i++) {
        const gov_batch_record *r = &h->ring[i];
        uint64_t over, cost;

        /* Unknown peaks (0) and empty batches say nothing about memory. */
        if (r->peak_memory_bytes == 0 || r->items == 0)
            continue;
        over = r->peak_memory_bytes > est->fixed_bytes
            ? r->peak_memory_bytes - est->fixed_bytes : 0;
        /* Round up: a batch sized from it must not overshoot. */
        cost = over / r->items + (over % r->items != 0);
        if (cost > per_item)
            per_item = cost;
    }
    return per_item;
}

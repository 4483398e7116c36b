/* gres_conf.c - what Slurm's gres.conf says of this node's GPUs and their
 * shares (parse.h): each GPU's index, type and whether it is a MIG
 * instance, and the gres/shard and gres/mps counts on each, which are
 * the denominators of a share (Slurm puts only the task's numerator in its
 * environment).
 *
 * The format (gres.conf(5)): lines of Key=Value words, keys in any case,
 * '#' to the end of the line a comment.  A line applies to this node where
 * it has no NodeName= or its hostlist names the node.  File= and
 * MultipleFiles= may hold one bracket range ("/dev/nvidia[0-3]"); a
 * shard or mps Count with File is that GPU's (split evenly over a range),
 * without File it is the node's, split evenly over its GPUs, as Slurm
 * does.  A GPU's index is the number its device file ends in, which is
 * how SLURM_STEP_GPUS names it.  Anything else is not this reader's:
 * other keys, other gres, AutoDetect, Include (whose files are not read:
 * their GPUs' shares are unknown). */
#include "base.h"
#include "parse.h"

#include <string.h>
#include <strings.h>

#define WORD_MAX 512
#define EXPAND_MAX GOV_GRES_GPUS_MAX

/* A hostlist or a file list ("node[1-3,5]", "/dev/nvidia[0-3]"): at most
 * one bracket group of ranges.  Calls back each name in order; false when
 * the text is not such a list or expands past EXPAND_MAX names. */
typedef struct names {
    char name[EXPAND_MAX][128];
    size_t n;
} names;

static bool add_name(names *out, const char *pre, size_t plen, const char *num, size_t nlen,
                     const char *post, size_t polen)
{
    if (out->n == EXPAND_MAX || plen + nlen + polen >= sizeof out->name[0])
        return false;
    memcpy(out->name[out->n], pre, plen);
    memcpy(out->name[out->n] + plen, num, nlen);
    memcpy(out->name[out->n] + plen + nlen, post, polen);
    out->name[out->n][plen + nlen + polen] = '\0';
    out->n++;
    return true;
}

/* One item of a comma list, with its bracket group expanded. */
static bool expand_item(const char *s, size_t len, names *out)
{
    const char *open = memchr(s, '[', len), *close, *p, *end;

    if (!open)
        return len > 0 && add_name(out, s, len, "", 0, "", 0);
    close = memchr(open, ']', (size_t)(s + len - open));
    if (!close || memchr(close + 1, '[', (size_t)(s + len - close - 1)))
        return false;
    for (p = open + 1, end = close; p < end;) {
        const char *a = p, *dash;
        size_t alen, width;
        uint64_t lo, hi;
        char num[24];

        while (p < end && *p != ',')
            p++;
        alen = (size_t)(p - a);
        dash = memchr(a, '-', alen);
        if (gov__parse_dec(a, dash ? (size_t)(dash - a) : alen, 0, 1000000, &lo))
            return false;
        hi = lo;
        if (dash && gov__parse_dec(dash + 1, (size_t)(a + alen - dash - 1), 0, 1000000, &hi))
            return false;
        if (hi < lo || hi - lo >= EXPAND_MAX)
            return false;
        /* Zero padding is the range's first number's width ("07-10"). */
        width = dash ? (size_t)(dash - a) : alen;
        for (uint64_t v = lo; v <= hi; v++) {
            int w = snprintf(num, sizeof num, "%0*llu", (int)width, (unsigned long long)v);
            if (!add_name(out, s, (size_t)(open - s), num, (size_t)w, close + 1,
                          (size_t)(s + len - close - 1)))
                return false;
        }
        if (p < end)
            p++;
    }
    return true;
}

/* A comma list whose items may hold a bracket group (commas inside one
 * separate ranges, not items). */
static bool expand(const char *s, size_t len, names *out)
{
    size_t depth = 0, start = 0;

    out->n = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] == '[')
            depth++;
        else if (i < len && s[i] == ']')
            depth = depth ? depth - 1 : 0;
        if (i == len || (s[i] == ',' && !depth)) {
            if (!expand_item(s + start, i - start, out))
                return false;
            start = i + 1;
        }
    }
    return true;
}

bool gov__hostlist_has(const char *list, size_t len, const char *name)
{
    names all;

    if (!expand(list, len, &all))
        return false;
    for (size_t i = 0; i < all.n; i++)
        if (!strcmp(all.name[i], name))
            return true;
    return false;
}

/* The number a device file's name ends in ("/dev/nvidia3": 3), -1 none. */
static int file_index(const char *path)
{
    size_t n = strlen(path), k = n;
    uint64_t v;

    while (k > 0 && path[k - 1] >= '0' && path[k - 1] <= '9')
        k--;
    if (k == n || gov__parse_dec(path + k, n - k, 0, 1u << 20, &v))
        return -1;
    return (int)v;
}

/* The words of one line we read: values point into the line. */
typedef struct line_words {
    const char *node, *name, *type, *file, *files, *count;
    size_t node_len, name_len, type_len, file_len, files_len, count_len;
} line_words;

static void take(const char *key, size_t klen, const char *val, size_t vlen, line_words *w)
{
    static const struct {
        const char *key;
        size_t off, len_off;
    } keys[] = {
        { "NodeName", offsetof(line_words, node), offsetof(line_words, node_len) },
        { "Name", offsetof(line_words, name), offsetof(line_words, name_len) },
        { "Type", offsetof(line_words, type), offsetof(line_words, type_len) },
        { "File", offsetof(line_words, file), offsetof(line_words, file_len) },
        { "MultipleFiles", offsetof(line_words, files), offsetof(line_words, files_len) },
        { "Count", offsetof(line_words, count), offsetof(line_words, count_len) },
    };

    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].key) == klen && !strncasecmp(key, keys[i].key, klen)) {
            memcpy((char *)w + keys[i].off, &val, sizeof val);
            memcpy((char *)w + keys[i].len_off, &vlen, sizeof vlen);
        }
}

static void split(const char *line, size_t len, line_words *w)
{
    const char *p = line, *end = line + len;

    memset(w, 0, sizeof *w);
    while (p < end) {
        const char *word, *eq;
        size_t wlen;

        while (p < end && gov__is_space(*p))
            p++;
        word = p;
        while (p < end && !gov__is_space(*p))
            p++;
        wlen = (size_t)(p - word);
        eq = memchr(word, '=', wlen);
        if (eq && eq > word)
            take(word, (size_t)(eq - word), eq + 1, (size_t)(word + wlen - eq - 1), w);
    }
}

/* Which of the node's GPUs is index; ngpus where none. */
static size_t gpu_of(const gov_gres_node *g, int index)
{
    size_t i;

    for (i = 0; i < g->ngpus && g->gpu[i].index != index; i++)
        ;
    return i;
}

/* A gpu line: each of its files (or its MultipleFiles' first, a MIG
 * instance's GPU) is one GPU of the node. */
static void gpu_line(const line_words *w, gov_gres_node *out)
{
    names files;
    bool multiple = w->files != NULL;

    if (!expand(multiple ? w->files : w->file, multiple ? w->files_len : w->file_len, &files))
        return;
    for (size_t i = 0; i < (multiple ? 1 : files.n) && files.n; i++) {
        gov_gres_gpu *g;
        int index = file_index(files.name[i]);

        /* A file twice is one GPU; a MIG instance's file is its GPU's, which
         * other instances share. */
        if (index < 0 || out->ngpus == GOV_GRES_GPUS_MAX ||
            (!multiple && gpu_of(out, index) < out->ngpus))
            continue;
        g = &out->gpu[out->ngpus++];
        memset(g, 0, sizeof *g);
        g->index = index;
        if (w->type && w->type_len < sizeof g->type) {
            memcpy(g->type, w->type, w->type_len);
            g->type[w->type_len] = '\0';
        }
        /* A MIG instance is its GPU's file and its nvidia-caps nodes. */
        for (size_t f = 1; multiple && f < files.n; f++)
            if (strstr(files.name[f], "nvidia-cap"))
                g->mig = true;
    }
}

/* A shard or mps line: its Count on each GPU its File names, or the
 * node's, for the end (*whole). */
static void share_line(const line_words *w, bool shard, gov_gres_node *out, uint64_t *whole)
{
    names files;
    uint64_t count;

    if (!w->count || gov__parse_dec(w->count, w->count_len, 0, 1u << 30, &count))
        return;
    if (shard)
        out->shard = true;
    else
        out->mps = true;
    if (!w->file) {
        *whole += count;
        return;
    }
    if (!expand(w->file, w->file_len, &files) || !files.n)
        return;
    for (size_t i = 0; i < files.n; i++) {
        size_t k = gpu_of(out, file_index(files.name[i]));
        if (k == out->ngpus)
            continue;
        if (shard)
            out->gpu[k].shards = count / files.n;
        else
            out->gpu[k].mps = count / files.n;
    }
}

int gov__gres_conf_parse(const char *text, size_t len, const char *node, gov_gres_node *out)
{
    gov_lines it;
    uint64_t shards_whole = 0, mps_whole = 0;
    const char *line;
    size_t n;

    memset(out, 0, sizeof *out);
    if (!text || !node)
        return GOV_EINVAL;
    /* The GPUs first: a share's File names one of them wherever it is. */
    for (int pass = 0; pass < 2; pass++) {
        it = gov__lines_of(text, len, false);
        while (gov__line_next(&it, &line, &n)) {
            const char *hash = memchr(line, '#', n);
            line_words w;

            if (hash)
                n = (size_t)(hash - line);
            if (n > WORD_MAX * 8)
                continue;
            split(line, n, &w);
            if (!w.name || (w.node && !gov__hostlist_has(w.node, w.node_len, node)))
                continue;
            if (pass == 0 && gov__token_eq(w.name, w.name_len, "gpu"))
                gpu_line(&w, out);
            else if (pass == 1 && gov__token_eq(w.name, w.name_len, "shard"))
                share_line(&w, true, out, &shards_whole);
            else if (pass == 1 && gov__token_eq(w.name, w.name_len, "mps"))
                share_line(&w, false, out, &mps_whole);
        }
    }
    for (size_t i = 0; i < out->ngpus; i++) {
        if (shards_whole && !out->gpu[i].shards)
            out->gpu[i].shards = shards_whole / out->ngpus;
        if (mps_whole && !out->gpu[i].mps)
            out->gpu[i].mps = mps_whole / out->ngpus;
    }
    return 0;
}

/* A MIG profile's memory as NVIDIA names it, "1g.5gb": 5 GB.  Decimal
 * gigabytes plan a little below the instance (1g.5gb has 4.75 GiB). */
static uint64_t profile_bytes(const char *type)
{
    const char *g = strstr(type, "g."), *end;
    uint64_t gb;

    if (!g)
        return GOV_UNKNOWN;
    g += 2;
    end = strstr(g, "gb");
    if (!end || gov__parse_dec(g, (size_t)(end - g), 0, 1u << 20, &gb))
        return GOV_UNKNOWN;
    return gb * 1000000000ULL;
}

/* A small count of one of slurmstepd's variables; GOV_UNKNOWN otherwise. */
static uint64_t count_of(const char *v)
{
    uint64_t x;

    return v && !gov__parse_dec(v, strlen(v), 0, 1u << 30, &x) ? x : GOV_UNKNOWN;
}

/* The node's first GPU where every GPU has the same shard count; NULL
 * otherwise. */
static const gov_gres_gpu *shards_alike(const gov_gres_node *g)
{
    for (size_t i = 1; i < g->ngpus; i++)
        if (g->gpu[i].shards != g->gpu[0].shards)
            return NULL;
    return g->ngpus ? &g->gpu[0] : NULL;
}

void gov__gres_grant(const gov_gres_node *g, const char *step_gpus, const char *shards,
                     const char *mps_percent, uint64_t gpus_on_node, gov_gres_grant *out)
{
    const gov_gres_gpu *gpu = NULL;
    uint64_t first, n;

    out->kind = GOV_GPU_SHARE_NONE;
    out->share = out->share_of = out->mem_bytes = GOV_UNKNOWN;
    /* The grant's (first) GPU: SLURM_STEP_GPUS numbers the node's gres/gpu
     * devices in gres.conf's order, a MIG instance one of them (seen on
     * 22.05: 2 for the third line, the first on /dev/nvidia1), not by
     * their device files. */
    if (step_gpus && !gov__parse_dec(step_gpus, strcspn(step_gpus, ","), 0, 1u << 20, &first) &&
        first < g->ngpus)
        gpu = &g->gpu[first];
    /* gres/shard and gres/mps overwrite or remove their variable in every
     * step of a node that has them: there, no user's export survives. */
    if (g->shard && (n = count_of(shards)) != GOV_UNKNOWN) {
        out->kind = GOV_GPU_SHARE_SHARD;
        out->share = n;
        /* Where gres/mps is configured too, Slurm names no GPU in a shard
         * step (22.05 to 26.05): a count every GPU of the node shares is
         * the denominator all the same. */
        if (!gpu)
            gpu = shards_alike(g);
        if (gpu && gpu->shards)
            out->share_of = gpu->shards;
        return;
    }
    if (g->mps && (n = count_of(mps_percent)) != GOV_UNKNOWN) {
        out->kind = GOV_GPU_SHARE_MPS;
        /* Slurm 22.05 to 26.05 compute the percentage against the GPU's
         * gres/shard count where both are configured (625 for mps:25
         * with 4 shards a GPU): then it says nothing. */
        if (!g->shard && n >= 1 && n <= 100) {
            out->share = n;
            out->share_of = 100;
        }
        return;
    }
    if (gpus_on_node == GOV_UNKNOWN || gpus_on_node == 0)
        return;
    out->share = out->share_of = 1;
    if (gpu && gpu->mig) {
        out->kind = GOV_GPU_SHARE_MIG;
        out->mem_bytes = profile_bytes(gpu->type);
    } else {
        out->kind = GOV_GPU_SHARE_GPU;
    }
}

/* cmd_verify.c - `governor verify`: does this process hold a valid sealed
 * descriptor?  Prints status, age and reason, never an id. */
#include "cmd.h"
#include "cmd_common.h"
#include "collect/collect.h"
#include "json/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: governor verify [--json] [--munge-socket PATH] [--trusted-uid UID]\n"
            "\n"
            "Check the sealed descriptor in GOVERNOR_DESCRIPTOR against this process.\n"
            "Exit status: 0 verified, 1 invalid, 2 usage error, 3 no output, 4 absent.\n");
}

/* --munge-socket PATH, --trusted-uid UID, into the library's options. */
static int verify_arg(int argc, char **argv, int *i, void *ctx)
{
    gov_options *opts = ctx;
    const char *text;
    uint64_t uid;
    int r = gov__cmd_value_arg(argc, argv, i, "--munge-socket", "a path", &opts->munge_socket);

    if (r)
        return r;
    r = gov__cmd_value_arg(argc, argv, i, "--trusted-uid", "a numeric uid", &text);
    if (r <= 0)
        return r;
    if (gov__parse_u64(text, strlen(text), &uid) || uid >= GOV_UID_NONE) {
        fprintf(stderr, "governor: --trusted-uid needs a numeric uid\n");
        return -1;
    }
    opts->trusted_uid = (uint32_t)uid;
    return 1;
}

/* The verification's text: status, why not, age, the namespaces. */
static void print_text(const gov_snapshot_descriptor *d)
{
    printf("descriptor: %s\n", gov_descriptor_status_name(d->status));
    if (d->status == GOV_DESCRIPTOR_INVALID)
        printf("reason: %s (%s)\n", gov_strerror(d->reason), gov_err_name(d->reason));
    /* Every task of a step reads its node's one seal, so MUNGE's
     * "decoded before" is the rule, not news: left to --json. */
    if (d->age_s != GOV_UNKNOWN)
        printf("age: %llu s%s\n", (unsigned long long)d->age_s,
               d->expired ? ", past its MUNGE TTL" : "");
    gov__cmd_print_container(d);
}

int gov__cmd_verify(int argc, char **argv)
{
    gov_cmd_opts o = { 0 };
    gov_options opts = { .trusted_uid = GOV_UID_NONE };
    gov_evidence *e;
    gov_descriptor_status status;
    int rc;

    rc = gov__cmd_parse(argc, argv, "verify", usage, &o, verify_arg, &opts);
    if (rc >= 0)
        return rc;
    /* Only the live process's own descriptor can verify. */
    if (o.sysroot || o.require_descriptor) {
        fprintf(stderr, "governor: verify: --sysroot and --require-descriptor do not apply "
                        "(it checks this process's own descriptor)\n");
        return GOV_EXIT_USAGE;
    }
    if (!(e = malloc(sizeof *e))) {
        fprintf(stderr, "governor: verify: %s\n", gov_strerror(GOV_ENOMEM));
        return GOV_EXIT_FAILED;
    }
    gov__evidence_init(e);
    gov__descriptor_collect(&opts, NULL, NULL, e);
    status = e->verification.status;
    rc = 0;
    if (o.json) {
        char *text = NULL;
        rc = gov__cmd_put_json(gov__verify_json(&e->verification, &text, NULL), &text);
    } else {
        print_text(&e->verification);
    }
    free(e);
    if (rc)
        return rc;
    switch (status) {
    case GOV_DESCRIPTOR_VERIFIED:
        return GOV_EXIT_OK;
    case GOV_DESCRIPTOR_INVALID:
        return GOV_EXIT_NO;
    default:
        return GOV_EXIT_ABSENT;
    }
}

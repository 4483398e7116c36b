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

int gov_cmd_verify(int argc, char **argv)
{
    gov_options opts = { .trusted_uid = GOV_UID_NONE };
    gov_sched_evidence sched;
    gov_snapshot snap;
    int json = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return GOV_EXIT_OK;
        } else if (!strcmp(argv[i], "--munge-socket") && i + 1 < argc) {
            opts.munge_socket = argv[++i];
        } else if (!strcmp(argv[i], "--trusted-uid") && i + 1 < argc) {
            uint64_t uid;
            i++;
            if (gov_parse_u64(argv[i], strlen(argv[i]), &uid) || uid >= GOV_UID_NONE) {
                fprintf(stderr, "governor: --trusted-uid needs a numeric uid\n");
                return GOV_EXIT_USAGE;
            }
            opts.trusted_uid = (uint32_t)uid;
        } else {
            fprintf(stderr, "governor: verify: unknown argument; see 'governor verify --help'\n");
            return GOV_EXIT_USAGE;
        }
    }
    memset(&sched, 0, sizeof sched);
    gov_snapshot_init(&snap);
    gov_descriptor_collect(&opts, NULL, NULL, &sched, &snap.descriptor, &snap.policy);

    if (json) {
        char *text = NULL;
        int rc = gov_cmd_put_json(gov_verify_json(&snap.descriptor, &text, NULL), &text);
        if (rc)
            return rc;
    } else {
        printf("descriptor: %s\n", gov_descriptor_status_name(snap.descriptor.status));
        if (snap.descriptor.status == GOV_DESCRIPTOR_INVALID)
            printf("reason: %s (%s)\n", gov_strerror(snap.descriptor.reason),
                   gov_err_name(snap.descriptor.reason));
        if (snap.descriptor.age_s != GOV_UNKNOWN)
            printf("age: %llu s%s%s\n", (unsigned long long)snap.descriptor.age_s,
                   snap.descriptor.expired ? ", past its MUNGE TTL" : "",
                   snap.descriptor.replayed ? ", decoded before" : "");
    }
    switch (snap.descriptor.status) {
    case GOV_DESCRIPTOR_VERIFIED:
        return GOV_EXIT_OK;
    case GOV_DESCRIPTOR_INVALID:
        return GOV_EXIT_NO;
    default:
        return GOV_EXIT_ABSENT;
    }
}

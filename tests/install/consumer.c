/* consumer.c - a program outside the project built against the installed
 * libgovernor through pkg-config (tests/install/test_install.sh): capture a
 * snapshot and print its JSON, proving header, library and governor.pc fit
 * together. */
#include <governor.h>

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    gov_options opts = { .trusted_uid = GOV_UID_NONE };
    gov_context *ctx = NULL;
    gov_snapshot snap;
    char *json = NULL;
    int rc;

    rc = gov_context_create(&opts, &ctx);
    if (rc == 0)
        rc = gov_snapshot_capture(ctx, &snap);
    if (rc == 0)
        rc = gov_snapshot_json(&snap, &json, NULL);
    gov_context_destroy(ctx);
    if (rc != 0) {
        fprintf(stderr, "consumer: %s\n", gov_strerror(rc));
        return 1;
    }
    printf("%s\n", json);
    free(json);
    return 0;
}

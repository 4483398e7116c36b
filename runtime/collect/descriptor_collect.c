/* descriptor_collect.c - the descriptor in this process's environment,
 * verified against the live process and turned into the snapshot's
 * scheduler part and the site policy (docs/descriptor.md, "Verification"). */
#include "descriptor.h"
#include "envval.h"
#include "collect.h"

#include <string.h>
#include <time.h>

extern char **environ;

void gov__descriptor_collect(const gov_options *opts, const gov_root *root,
                             const char *const *envp, gov_snapshot *snap)
{
    gov_snapshot_descriptor *out = &snap->descriptor;
    const char *cred = NULL;
    gov_desc_claim claim;
    gov_descriptor d;
    gov_seal_info info = { 0 };
    time_t now;
    int rc;

    GOV_SET_UNKNOWN(out, descriptor);
    if (opts && (opts->flags & GOV_OPT_NO_DESCRIPTOR))
        return;
    /* The seal binds to the live process; a sysroot is someone else's. */
    if (!gov__root_is_live(root))
        return;
    /* envp NULL means the process environment, as gov_options documents. */
    if (!envp)
        envp = (const char *const *)environ;
    cred = gov__env_get(envp, GOV_DESCRIPTOR_ENV);
    if (!cred || !*cred)
        return;
    gov__claim_collect(envp, &claim);
    rc = gov__descriptor_verify(cred, opts ? opts->munge_socket : NULL,
                                opts ? opts->trusted_uid : GOV_UID_NONE, &claim, &d, &info);
    if (rc) {
        out->status = GOV_DESCRIPTOR_INVALID;
        out->reason = rc;
        return;
    }
    out->status = GOV_DESCRIPTOR_VERIFIED;
    out->replayed = info.replayed;
    out->expired = info.expired;
    now = time(NULL);
    out->age_s = now >= 0 && (uint64_t)now >= d.created ? (uint64_t)now - d.created : 0;
    gov__descriptor_apply(&d, snap);
}

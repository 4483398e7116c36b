/* descriptor_collect.c - the descriptor handed to this process, verified
 * against the live process and turned into the snapshot's scheduler part
 * and the site policy (docs/descriptor.md, "Verification"), and the
 * namespaces the process has of its own (a container's).
 *
 * Two hand-offs: GOVERNOR_DESCRIPTOR, a MUNGE credential, and
 * GOVERNOR_DESCRIPTOR_FILE, a file root wrote for the step.  The credential
 * is tried first; when munged cannot be reached (no daemon on the site, a
 * container without its socket) the file is the budget, and so it is where
 * it is vouched for and munged's answer is not (a user namespace). */
#include "descriptor.h"
#include "base.h"
#include "evidence.h"
#include "collect/collect.h"

#include <string.h>
#include <time.h>

extern char **environ;

void gov__descriptor_collect(const gov_options *opts, const gov_root *root,
                             const char *const *envp, gov_evidence *e)
{
    gov_snapshot_descriptor *out = &e->verification;
    const char *cred, *file;
    gov_desc_claim claim;
    gov_descriptor d;
    gov_seal_info info = { 0 };
    gov_desc_check chk = { 0 };
    uint32_t trusted = opts ? opts->trusted_uid : GOV_UID_NONE;
    gov_descriptor_via via = GOV_DESCRIPTOR_VIA_NONE;
    time_t now;
    int rc = GOV_ENOENT;

    /* The seal binds to the live process; a sysroot is someone else's. */
    if (!gov__root_is_live(root))
        return;
    /* envp NULL means the process environment, as gov_options documents. */
    if (!envp)
        envp = (const char *const *)environ;
    gov__claim_collect(envp, &claim);
    out->namespaces = gov__own_namespaces(NULL, &claim);
    out->namespaces_unknown = gov__unknown_namespaces(&claim);
    out->namespaces_seen = 1;
    if (opts && (opts->flags & GOV_OPT_NO_DESCRIPTOR))
        return;
    cred = gov__env_get(envp, GOV_DESCRIPTOR_ENV);
    file = gov__env_get(envp, GOV_DESCRIPTOR_FILE_ENV);
    if (cred && *cred) {
        rc = gov__descriptor_verify(cred, opts ? opts->munge_socket : NULL, trusted, &claim,
                                    &d, &info, &chk);
        via = GOV_DESCRIPTOR_VIA_MUNGE;
    }
    /* A credential munged cannot decode here, or a socket not to be
     * trusted, says nothing against the file; one that fails its checks
     * does (the file holds the same text). */
    if ((!cred || !*cred || rc == GOV_EMUNGE || rc == GOV_ESOCKET) && file && *file) {
        rc = gov__descriptor_verify_file(file, trusted, &claim, &d, &chk);
        via = GOV_DESCRIPTOR_VIA_FILE;
        memset(&info, 0, sizeof info);
        /* Both hand-offs out of reach: a container that binds neither in
         * (the admin guide has the lines), not a broken seal. */
        if (rc == GOV_ENOENT)
            rc = GOV_EUNREACHABLE;
    } else if (!rc && (chk.unchecked & (1u << GOV_BINDING_MUNGED)) && file && *file) {
        /* In a user namespace of its own munged's word is unchecked; the
         * file, where it carries root's mark, is not: the same text,
         * vouched for. */
        gov_descriptor fd;
        gov_desc_check fchk = { 0 };
        if (!gov__descriptor_verify_file(file, trusted, &claim, &fd, &fchk) &&
            !(fchk.unchecked & (1u << GOV_BINDING_OWNER))) {
            d = fd;
            chk = fchk;
            via = GOV_DESCRIPTOR_VIA_FILE;
            memset(&info, 0, sizeof info);
        }
    }
    if (via == GOV_DESCRIPTOR_VIA_NONE)
        return;
    /* Strict mode takes only what root or munged is vouched to have made. */
    if (!rc && opts && (opts->flags & GOV_OPT_REQUIRE_DESCRIPTOR) &&
        (chk.unchecked & GOV_BINDING_MAKER_BITS))
        rc = GOV_EUNVOUCHED;
    if (rc) {
        out->status = GOV_DESCRIPTOR_INVALID;
        out->reason = rc;
        return;
    }
    out->status = GOV_DESCRIPTOR_VERIFIED;
    out->via = via;
    out->namespaces = chk.namespaces;
    out->unchecked = chk.unchecked;
    out->replayed = info.replayed;
    out->expired = info.expired;
    now = time(NULL);
    out->age_s = now >= 0 && (uint64_t)now >= d.created ? (uint64_t)now - d.created : 0;
    e->have_descriptor = true;
    e->descriptor = d;
    gov__gpu_devices_count(NULL, &e->nvidia, &e->render);
    e->have_gpu_nodes = true;
}

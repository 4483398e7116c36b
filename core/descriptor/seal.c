/* seal.c - MUNGE encode/decode wrappers with the project's error codes. */
#include "descriptor.h"

#include <munge.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say_why(char *why, munge_ctx_t ctx, munge_err_t e)
{
    const char *text = ctx ? munge_ctx_strerror(ctx) : NULL;

    if (why)
        snprintf(why, GOV_SEAL_WHY_MAX, "%s", text ? text : munge_strerror(e));
}

static munge_ctx_t ctx_open(const char *socket, uint32_t ttl_s, uint32_t uid)
{
    munge_ctx_t ctx = munge_ctx_create();

    if (!ctx)
        return NULL;
    if ((socket && munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket) != EMUNGE_SUCCESS) ||
        (ttl_s && munge_ctx_set(ctx, MUNGE_OPT_TTL, (int)ttl_s) != EMUNGE_SUCCESS) ||
        (uid != GOV_UID_NONE &&
         munge_ctx_set(ctx, MUNGE_OPT_UID_RESTRICTION, (uid_t)uid) != EMUNGE_SUCCESS)) {
        munge_ctx_destroy(ctx);
        return NULL;
    }
    return ctx;
}

int gov__seal_encode(const char *socket, uint32_t ttl_s, uint32_t uid,
                     const void *payload, size_t len, char **cred, char *why)
{
    munge_ctx_t ctx;
    munge_err_t e;

    if (!payload || !cred || len == 0 || len > GOV_DESC_MAX_BYTES || ttl_s > 3600)
        return GOV_EINVAL;
    *cred = NULL;
    ctx = ctx_open(socket, ttl_s, uid);
    if (!ctx) {
        say_why(why, NULL, EMUNGE_NO_MEMORY);
        return GOV_EMUNGE;
    }
    e = munge_encode(cred, ctx, payload, (int)len);
    if (e != EMUNGE_SUCCESS)
        say_why(why, ctx, e);
    munge_ctx_destroy(ctx);
    if (e != EMUNGE_SUCCESS) {
        free(*cred);
        *cred = NULL;
        return GOV_EMUNGE;
    }
    return 0;
}

/* Errors that say the credential is wrong, as opposed to MUNGE failing. */
static bool bad_credential(munge_err_t e)
{
    switch (e) {
    case EMUNGE_BAD_CRED:
    case EMUNGE_BAD_VERSION:
    case EMUNGE_BAD_CIPHER:
    case EMUNGE_BAD_MAC:
    case EMUNGE_BAD_ZIP:
    case EMUNGE_BAD_REALM:
    case EMUNGE_CRED_INVALID:
    case EMUNGE_CRED_REWOUND:
    case EMUNGE_CRED_UNAUTHORIZED:
    case EMUNGE_BAD_LENGTH:
        return true;
    default:
        return false;
    }
}

int gov__seal_decode(const char *socket, const char *cred, char **payload,
                     size_t *len, gov_seal_info *info)
{
    munge_ctx_t ctx;
    munge_err_t e;
    void *buf = NULL;
    int n = 0;
    uid_t uid = (uid_t)-1, restricted = MUNGE_UID_ANY;
    gid_t gid = (gid_t)-1;
    char *copy;

    if (!cred || !payload || !len || !info)
        return GOV_EINVAL;
    *payload = NULL;
    *len = 0;
    memset(info, 0, sizeof *info);
    info->uid_restriction = GOV_UID_NONE;
    ctx = ctx_open(socket, 0, GOV_UID_NONE);
    if (!ctx)
        return GOV_EMUNGE;
    e = munge_decode(cred, ctx, &buf, &n, &uid, &gid);
    /* The credential's own options, read back into the context. */
    info->uid_restriction = GOV_UID_NONE;
    if (munge_ctx_get(ctx, MUNGE_OPT_UID_RESTRICTION, &restricted) == EMUNGE_SUCCESS &&
        restricted != (uid_t)MUNGE_UID_ANY)
        info->uid_restriction = (uint32_t)restricted;
    munge_ctx_destroy(ctx);
    /* MUNGE still authenticates expired and replayed credentials: the
     * payload and the encoder's identity are as trustworthy as on success. */
    if (e != EMUNGE_SUCCESS && e != EMUNGE_CRED_EXPIRED && e != EMUNGE_CRED_REPLAYED) {
        free(buf);
        return bad_credential(e) ? GOV_ESEAL : GOV_EMUNGE;
    }
    if (n < 0 || (n > 0 && !buf)) {
        free(buf);
        return GOV_ESEAL;
    }
    copy = malloc((size_t)n + 1);
    if (!copy) {
        free(buf);
        return GOV_ENOMEM;
    }
    if (n)
        memcpy(copy, buf, (size_t)n);
    copy[n] = '\0';
    free(buf);
    *payload = copy;
    *len = (size_t)n;
    info->uid = (uint32_t)uid;
    info->expired = e == EMUNGE_CRED_EXPIRED;
    info->replayed = e == EMUNGE_CRED_REPLAYED;
    return 0;
}

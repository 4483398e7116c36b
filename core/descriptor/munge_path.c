/* munge_path.c - the MUNGE socket's path, checked before root hands it a
 * descriptor and before a task trusts its answer (descriptor.h).  The walk
 * opens each component with O_NOFOLLOW and
 * checks it on its descriptor, as run_dir.c does, but follows a link found
 * in a trusted directory: /var/run names /run, and a site may name its
 * socket through a link of its own. */
#define _GNU_SOURCE /* O_PATH */
#include "descriptor.h"

#include "governor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <munge.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LINKS_MAX 8

static bool trusted_owner(uid_t uid, uid_t owner)
{
    return uid == 0 || (owner != (uid_t)-1 && uid == owner);
}

static bool dir_trusted(int fd, uid_t owner)
{
    struct stat st;

    return !fstat(fd, &st) && S_ISDIR(st.st_mode) && trusted_owner(st.st_uid, owner) &&
           !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* libmunge's own default, as a context reports it. */
static int default_socket(char *buf, size_t cap)
{
    munge_ctx_t ctx = munge_ctx_create();
    char *s = NULL;
    int rc = GOV_ENOENT;

    if (ctx && munge_ctx_get(ctx, MUNGE_OPT_SOCKET, &s) == EMUNGE_SUCCESS && s &&
        (size_t)snprintf(buf, cap, "%s", s) < cap)
        rc = 0;
    if (ctx)
        munge_ctx_destroy(ctx);
    return rc;
}

/* Walk path[] (rewritten in place when a link is followed) from "/". */
static int walk(char *path, size_t cap, uid_t owner, const char **why)
{
    int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), links = 0;
    char *p = path;

    if (fd < 0)
        return -errno;
    for (;;) {
        char comp[NAME_MAX + 1], target[PATH_MAX];
        struct stat st;
        size_t n;
        ssize_t tl;
        int next;

        while (*p == '/')
            p++;
        n = strcspn(p, "/");
        *why = "a directory on the MUNGE socket's path is not root's or munge's, or others "
               "may write to it (a sticky one such as /tmp included)";
        if (!dir_trusted(fd, owner)) {
            close(fd);
            return GOV_EACCES;
        }
        *why = "the MUNGE socket's path has '.', '..' or too long a name";
        if (n == 0 || n > NAME_MAX || (n == 1 && p[0] == '.') || (n == 2 && !memcmp(p, "..", 2))) {
            close(fd);
            return GOV_EINVAL;
        }
        memcpy(comp, p, n);
        comp[n] = '\0';
        p += n;
        next = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 || fstat(next, &st)) {
            int err = -errno;
            close(fd);
            if (next >= 0)
                close(next);
            /* Only root or munge could create what is missing here (munged
             * restarting): libmunge will say it is not there. */
            if (err == GOV_ENOENT)
                return 0;
            *why = "a part of the MUNGE socket's path cannot be opened";
            return err;
        }
        if (S_ISLNK(st.st_mode)) {
            /* The link's directory is trusted: follow it, rest appended. */
            tl = readlinkat(next, "", target, sizeof target - 1);
            close(next);
            *why = "the MUNGE socket's path has too many links, or one too long";
            if (tl <= 0 || ++links > LINKS_MAX || (size_t)tl + strlen(p) + 2 > cap) {
                close(fd);
                return GOV_EINVAL;
            }
            target[tl] = '\0';
            strcat(target, p);
            snprintf(path, cap, "%s", target);
            p = path;
            if (path[0] == '/') {
                close(fd);
                if ((fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
                    return -errno;
            }
            continue;
        }
        close(fd);
        if (p[strspn(p, "/")] == '\0') {
            close(next);
            *why = "the MUNGE socket is not a socket of root's or munge's";
            return S_ISSOCK(st.st_mode) && trusted_owner(st.st_uid, owner) ? 0 : GOV_EACCES;
        }
        fd = next;
    }
}

uid_t gov__munge_user(void)
{
    struct passwd pw, *found = NULL;
    char buf[1024];

    return getpwnam_r("munge", &pw, buf, sizeof buf, &found) == 0 && found ? found->pw_uid
                                                                           : (uid_t)-1;
}

int gov__munge_path_check(const char *path, uid_t owner, const char **why)
{
    char buf[PATH_MAX];

    *why = "libmunge names no default socket";
    if (!path) {
        if (default_socket(buf, sizeof buf))
            return GOV_ENOENT;
    } else if ((size_t)snprintf(buf, sizeof buf, "%s", path) >= sizeof buf) {
        *why = "the MUNGE socket's path is too long";
        return GOV_EINVAL;
    }
    *why = "the MUNGE socket's path is not absolute";
    if (buf[0] != '/')
        return GOV_EINVAL;
    return walk(buf, sizeof buf, owner, why);
}

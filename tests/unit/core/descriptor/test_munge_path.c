/* The MUNGE socket's path (core/descriptor/munge_path.c): trusted only when root's or
 * munge's all the way down (issue 26, item 2), links followed only from
 * trusted directories. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "governor.h"
#include "descriptor.h"
#include "skip_because.h"
#include "unix_socket.h"

#define NEED_ROOT()                                                                    \
    do {                                                                               \
        if (geteuid() != 0)                                                            \
            SKIP_BECAUSE(GOV_FACT_NOT_ROOT, "the paths are root's, under /run");        \
    } while (0)

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/run/gov-munge-path-%ld", (long)getpid());
    return geteuid() == 0 ? mkdir(dir, 0755) : 0;
}

static int remove_dir(void **state)
{
    char cmd[96];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* DIR/rel, in one of two buffers (a link and its target in one call). */
static const char *at(const char *rel)
{
    static char path[2][256];
    static int k;

    k = !k;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, rel);
    return path[k];
}

/* A socket at DIR/name, owned by uid. */
static void listen_at(const char *name, uid_t uid)
{
    close(socket_at(at(name), true));
    assert_int_equal(lchown(at(name), uid, uid), 0);
}

static int check(const char *rel, uid_t owner, const char **why)
{
    return gov__munge_path_check(at(rel), owner, why);
}

static void test_trusted(void **state)
{
    const char *why = NULL;

    (void)state;
    NEED_ROOT();
    listen_at("root.socket", 0);
    assert_int_equal(check("root.socket", (uid_t)-1, &why), 0);
    /* munge's directory, munge's socket: trusted only as munge's. */
    assert_int_equal(mkdir(at("munge"), 0755), 0);
    assert_int_equal(chown(at("munge"), 4242, 4242), 0);
    listen_at("munge/munge.socket.2", 4242);
    assert_int_equal(check("munge/munge.socket.2", 4242, &why), 0);
    assert_int_equal(check("munge/munge.socket.2", (uid_t)-1, &why), GOV_EACCES);
    /* A link in a trusted directory, relative and absolute. */
    assert_int_equal(symlink("munge/munge.socket.2", at("rel")), 0);
    assert_int_equal(check("rel", 4242, &why), 0);
    assert_int_equal(symlink(at("root.socket"), at("abs")), 0);
    assert_int_equal(check("abs", 4242, &why), 0);
    /* Missing in a trusted directory: only root or munge could make it. */
    assert_int_equal(check("munge/not-yet", 4242, &why), 0);
    /* libmunge's own default, wherever this build has it. */
    assert_true(gov__munge_path_check(NULL, 4242, &why) <= 0);
}

static void test_untrusted(void **state)
{
    const char *why = NULL;

    (void)state;
    NEED_ROOT();
    /* A user's directory: she could listen there herself. */
    assert_int_equal(mkdir(at("user"), 0755), 0);
    assert_int_equal(chown(at("user"), 4243, 4243), 0);
    listen_at("user/munge.socket", 0);
    assert_int_equal(check("user/munge.socket", 4242, &why), GOV_EACCES);
    assert_non_null(strstr(why, "not root's or munge's"));
    /* Writable by others, or sticky. */
    listen_at("open.socket", 0);
    assert_int_equal(chmod(dir, 01777), 0);
    assert_int_equal(check("open.socket", 4242, &why), GOV_EACCES);
    assert_int_equal(chmod(dir, 0775), 0);
    assert_int_equal(check("open.socket", 4242, &why), GOV_EACCES);
    assert_int_equal(chmod(dir, 0755), 0);
    /* A link from the user's directory, though it points somewhere safe. */
    assert_int_equal(symlink("../open.socket", at("user/link")), 0);
    assert_int_equal(check("user/link", 4242, &why), GOV_EACCES);
    /* Not a socket, or a user's socket in a root directory. */
    assert_int_equal(close(creat(at("file"), 0600)), 0);
    assert_int_equal(check("file", 4242, &why), GOV_EACCES);
    listen_at("users.socket", 4243);
    assert_int_equal(check("users.socket", 4242, &why), GOV_EACCES);
    /* Names that are not plain, and a loop of links. */
    assert_int_equal(check("../x", 4242, &why), GOV_EINVAL);
    assert_int_equal(gov__munge_path_check("run/munge/munge.socket.2", 4242, &why), GOV_EINVAL);
    assert_int_equal(symlink("loop", at("loop")), 0);
    assert_int_equal(check("loop", 4242, &why), GOV_EINVAL);
    /* Under /tmp, sticky and open to all. */
    assert_int_equal(gov__munge_path_check("/tmp/munge.socket", 4242, &why), GOV_EACCES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trusted, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_untrusted, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

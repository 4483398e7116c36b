/* report_files.c - the files `governor report` reads its records from: a
 * file as named, "-" for standard input, or a report directory, which
 * stands for its steps.jsonl and, with --since, the copies logrotate left
 * beside it (steps.jsonl.1, steps.jsonl.2.gz, with dateext
 * steps.jsonl-20261206.gz) that were last written at or after that time:
 * a file last written before it holds no step that started since.  A
 * compressed copy is read through gzip -dc (gzip is essential on Debian and
 * in every RPM base system; nothing is linked for it).  A named file must
 * be a regular one: a FIFO would hang the report, a device feed it for
 * ever. */
#define _GNU_SOURCE /* pipe2 */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && !strcmp(s + n - m, suffix);
}

/* The decompressed text of path, from a gzip child; *pid set. */
static FILE *gunzip(const char *path, pid_t *pid)
{
    int fd[2];
    FILE *f;

    if (pipe2(fd, O_CLOEXEC))
        return NULL;
    *pid = fork();
    if (*pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (*pid == 0) {
        if (dup2(fd[1], STDOUT_FILENO) < 0)
            _exit(127);
        execlp("gzip", "gzip", "-dc", "--", path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    if (!(f = fdopen(fd[0], "r"))) {
        close(fd[0]);
        waitpid(*pid, NULL, 0);
    }
    return f;
}

/* A regular file, opened without waiting on a FIFO or reading a device
 * for ever; errno says why not. */
static FILE *open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags;
    struct stat st;
    FILE *f;

    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (flags = fcntl(fd, F_GETFL)) < 0 ||
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    if (!(f = fdopen(fd, "r")))
        close(fd);
    return f;
}

static int read_one(const char *path, gov_report_reader fn, void *arg)
{
    bool gz = has_suffix(path, ".gz");
    pid_t pid = -1;
    int status = 0, rc;
    FILE *in = gz ? gunzip(path, &pid) : open_regular(path);

    if (!in) {
        /* The path is the admin's own argument or in their directory:
         * naming it is asked for. */
        fprintf(stderr, "governor: report: cannot read %s: %s\n", path,
                errno == EINVAL ? "not a regular file" : strerror(errno));
        return GOV_EIO;
    }
    rc = fn(in, path, arg);
    fclose(in);
    if (gz && (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))) {
        fprintf(stderr, "governor: report: cannot decompress %s (gzip -dc failed)\n", path);
        return rc ? rc : GOV_EIO;
    }
    return rc;
}

/* A copy logrotate made of steps.jsonl: its name and more ("." or "-"). */
static bool rotated(const char *name)
{
    size_t n = strlen(GOV_REPORT_FILE);

    return !strncmp(name, GOV_REPORT_FILE, n) && (name[n] == '.' || name[n] == '-') && name[n + 1];
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR's rotated copies written at or after since, in name order. */
static int read_rotated(const char *dir, uint64_t since, gov_report_reader fn, void *arg)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;

    if (!d) {
        fprintf(stderr, "governor: report: cannot read %s: %s\n", dir, strerror(errno));
        return GOV_EIO;
    }
    while (!rc && (e = readdir(d))) {
        char path[4096];
        struct stat st;
        if (!rotated(e->d_name) ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_mtime < since)
            continue;
        if (n == cap) {
            char **v = realloc(names, (cap ? cap * 2 : 16) * sizeof *names);
            if (!v) {
                rc = GOV_ENOMEM;
                break;
            }
            names = v;
            cap = cap ? cap * 2 : 16;
        }
        if (!(names[n] = strdup(path)))
            rc = GOV_ENOMEM;
        else
            n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = read_one(names[i], fn, arg);
        free(names[i]);
    }
    free(names);
    if (rc == GOV_ENOMEM)
        fprintf(stderr, "governor: report: %s\n", gov_strerror(rc));
    return rc;
}

int gov__report_read_arg(const char *arg, uint64_t since, gov_report_reader fn, void *farg)
{
    struct stat st;
    char path[4096];
    int rc;

    if (!strcmp(arg, "-"))
        return fn(stdin, "(standard input)", farg);
    if (stat(arg, &st) || !S_ISDIR(st.st_mode))
        return read_one(arg, fn, farg);
    snprintf(path, sizeof path, "%s/%s", arg, GOV_REPORT_FILE);
    rc = read_one(path, fn, farg);
    if (!rc && since)
        rc = read_rotated(arg, since, fn, farg);
    return rc;
}

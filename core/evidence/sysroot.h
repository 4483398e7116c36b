/*
 * sysroot.h - the root every reader of /proc, /sys and /dev reads under:
 * the live system, or a tree of kernel files (tests, `governor --sysroot`).
 */
#ifndef GOV_SYSROOT_H
#define GOV_SYSROOT_H

#include "governor.h"

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

/* The root under which kernel files are read (sysroot.c): a directory
 * handle, opened once.  A NULL gov_root pointer, or one opened from NULL,
 * "" or "/", is the live system: the process's own /proc, the system calls
 * that cannot be redirected (affinity), hwloc and the descriptor's binding
 * apply there only.  Paths given to the functions below are absolute
 * inside the root ("/proc/self/cgroup"). */
typedef struct gov_root {
    int fd;      /* O_PATH directory; -1 for the live root or one that
                    cannot be opened (which reads as an empty tree) */
    bool live;
} gov_root;

void gov__root_open(const char *path, gov_root *out);
void gov__root_close(gov_root *r);
bool gov__root_is_live(const gov_root *r);

/* openat(2) / faccessat(2) / opendir(3) under the root: an fd or -errno,
 * 0 or -errno, a DIR or NULL with errno set. */
int gov__root_openat(const gov_root *r, const char *path, int flags);
int gov__root_access(const gov_root *r, const char *path, int mode);
DIR *gov__root_opendir(const gov_root *r, const char *path);

/* Read a file under the root into buf (NUL-terminated), at most cap-1
 * bytes.  *len gets the byte count.  Returns 0, -errno, or GOV_ENOSPC when
 * the file is larger than the buffer. */
int gov__read_file(const gov_root *r, const char *path, char *buf, size_t cap, size_t *len);

/* The same for the file NAME in the directory DIR ("/sys/fs/cgroup/x",
 * "memory.max"); GOV_ENOSPC too when the joined path is too long. */
int gov__read_file_in(const gov_root *r, const char *dir, const char *name, char *buf,
                      size_t cap, size_t *len);

/* Whether DIR/NAME exists under the root. */
bool gov__exists_in(const gov_root *r, const char *dir, const char *name);

#endif /* GOV_SYSROOT_H */

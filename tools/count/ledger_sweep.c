/* SPDX-License-Identifier: MIT */
/*
 * ledger_sweep.c — removing the temporary files that runs killed while
 * creating a ledger left beside it (see qcc_ledger_sweep in ledger.h).
 */
#define _GNU_SOURCE   /* dirfd */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ledger.h"

void qcc_ledger_sweep(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t blen = strlen(base);
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    DIR *d = dir ? opendir(dir) : NULL;
    free(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        /* BASE.new-PID, nothing else */
        const char *n = e->d_name;
        if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".new-", 5) != 0)
            continue;
        const char *pid = n + blen + 5;
        if (!*pid || strspn(pid, "0123456789") != strlen(pid))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)
            && now - st.st_mtime >= QCC_LEDGER_STALE_SECONDS)
            unlinkat(dirfd(d), n, 0);
    }
    closedir(d);
}

/* SPDX-License-Identifier: MIT */
/*
 * mpi_load.c — finding and loading the MPI module of mpi_load.h.  The
 * module is looked for relative to the program's own file (/proc/self/exe),
 * as $ORIGIN would: first where the build tree puts it, then where the
 * install (or an unpacked .deb) does; both paths come from
 * tools/CMakeLists.txt.  RTLD_GLOBAL: Open MPI loads components of its own
 * that need libmpi's symbols.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpi_load.h"
#include "mpi_run.h"

typedef int (*mpi_main_fn)(const qc_options *, const char *, int *, char ***);

static int say(const char *what, const char *detail)
{
    if (qct_mpi_launcher_rank() <= 0)   /* every rank fails alike: rank 0 says it */
        fprintf(stderr, "qcount: started by an MPI launcher, but %s%s\n", what, detail);
    return 2;
}

#ifdef QC_MPI_MODULE
/* dir/rel into path; 0, or -1 when it does not fit. */
static int join_path(char *path, size_t size, const char *dir, const char *rel)
{
    int len = snprintf(path, size, "%s/%s", dir, rel);
    return len > 0 && (size_t)len < size ? 0 : -1;
}

int qc_mpi_load_main(const qc_options *opts, const char *refused, int *argc, char ***argv)
{
    char dir[4096];
    ssize_t len = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (len <= 0)
        return say("its own path is unknown (no /proc/self/exe), ", "so its MPI module cannot be found");
    dir[len] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    static const char *const rel[] = {QC_MPI_MODULE_BUILD_REL, QC_MPI_MODULE_INSTALL_REL};
    char path[2][4200] = {"", ""};
    void *module = NULL;
    const char *why = "";
    for (int i = 0; i < 2 && !module; i++) {
        if (join_path(path[i], sizeof path[i], dir, rel[i]) != 0)
            continue;
        if (access(path[i], F_OK) != 0)
            continue;
        module = dlopen(path[i], RTLD_NOW | RTLD_GLOBAL);
        if (!module)
            why = dlerror();
    }
    if (!module && !*why) {
        char detail[9000];
        snprintf(detail, sizeof detail, " (looked for %s and %s)", path[0], path[1]);
        return say("its MPI module " QC_MPI_MODULE " is missing", detail);
    }
    if (!module)
        return say("its MPI module cannot be loaded: ", why);
    mpi_main_fn run = (mpi_main_fn)dlsym(module, "qcount_mpi_main");
    if (!run)
        return say("its MPI module has no qcount_mpi_main: ", dlerror());
    return run(opts, refused, argc, argv);   /* the module stays loaded until exit */
}
#else
int qc_mpi_load_main(const qc_options *opts, const char *refused, int *argc, char ***argv)
{
    (void)opts, (void)refused, (void)argc, (void)argv;
    return say("this qcount was built without MPI ",
               "(install libopenmpi-dev and rebuild, or set QCOUNT_MPI=0)");
}
#endif

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

/* [rank's last words] This rank cannot join the job.  The first rank on
 * each machine says why (the machines may differ: rank 0's may be fine),
 * so a machine says it once; the line names the rank and machine when
 * there are other machines to tell apart.  The launcher ends the job as
 * soon as any rank exits, and a line still in the pipe to its daemon, or
 * not yet written, was lost in most trials across machines: so the line
 * goes out in one write(2), the speaker stays a second for its daemon to
 * forward it, and the silent ranks stay two, so the job ends on a rank
 * that has spoken. */
static int say(const char *what, const char *detail)
{
    int rank = qct_mpi_launcher_rank();
    long local = qct_launcher_number("OMPI_COMM_WORLD_LOCAL_RANK");
    if (local < 0)
        local = qct_launcher_number("SLURM_LOCALID");
    if (local < 0)
        local = qct_launcher_number("MPI_LOCALRANKID");   /* MPICH/Hydra */
    int speaks = rank <= 0 || local == 0;
    if (speaks) {
        char where[320] = "";
        char host[256] = "";
        if (rank > 0 && gethostname(host, sizeof host - 1) == 0)
            snprintf(where, sizeof where, "rank %d (%s): ", rank, host);
        char line[12000];
        int len = snprintf(line, sizeof line, "qcount: %sstarted by an MPI launcher, but %s%s\n",
                           where, what, detail);
        if (len > (int)sizeof line - 1)
            len = (int)sizeof line - 1;
        if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0)
            len = 0;   /* nowhere to say it */
    }
    if (rank >= 0)
        sleep(speaks ? 1 : 2);
    return 2;
}

#ifdef QC_MPI_MODULE
/* dir/rel into path; 0, or -1 when it does not fit. */
static int join_path(char *path, size_t size, const char *dir, const char *rel)
{
    int len = snprintf(path, size, "%s/%s", dir, rel);
    return len > 0 && (size_t)len < size ? 0 : -1;
}

int qcc_mpi_load_main(const qc_options *opts, const char *refused, int *argc, char ***argv)
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
    mpi_main_fn run = (mpi_main_fn)dlsym(module, "qcc_mpi_main");
    if (!run)
        return say("its MPI module has no qcc_mpi_main: ", dlerror());
    return run(opts, refused, argc, argv);   /* the module stays loaded until exit */
}
#else
int qcc_mpi_load_main(const qc_options *opts, const char *refused, int *argc, char ***argv)
{
    (void)opts, (void)refused, (void)argc, (void)argv;
    return say("this qcount was built without MPI ",
               "(install libopenmpi-dev and rebuild, or set QCOUNT_MPI=0)");
}
#endif

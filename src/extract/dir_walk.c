/* dir_walk.c - which files a directory holds, read one by one into the set.
 *
 * Inside a git work tree the files are those git would not ignore
 * (`git ls-files -co --exclude-standard -z`, run without a shell, its
 * errors discarded); outside one, without git, or when the caller asks
 * (no_git), every file under the directory except hidden entries and build
 * directories (see skipped_dir), without following symbolic links. Only C++ and Python
 * files are read, headers first (so that a header's "#define W(NS, M)
 * TORCH_LIBRARY(NS, M)" is known when a source uses W), each group in
 * byte order of its path, so a run is reproducible. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "base/file.h"
#include "extract/extract_internal.h"

#define XR_IO "extract-io"

typedef struct plist {
    char **v;
    size_t n, cap;
    bool oom;
} plist;

static void plist_add(plist *l, const char *dir, const char *rel, size_t rel_len)
{
    if (l->oom) return;
    if (TA_GROW_ONE(l->v, l->n, l->cap, 256) != TA_OK) {
        l->oom = true;
        return;
    }
    size_t dl = strcmp(dir, ".") ? strlen(dir) : 0; /* "./x" is just "x" */
    bool slash = !dl || dir[dl - 1] == '/';
    char *p = ta_malloc(dl + 1 + rel_len + 1);
    if (!p) {
        l->oom = true;
        return;
    }
    memcpy(p, dir, dl);
    if (!slash) p[dl++] = '/';
    memcpy(p + dl, rel, rel_len);
    p[dl + rel_len] = '\0';
    l->v[l->n++] = p;
}

static void plist_free(plist *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
}

static bool is_header(const char *p)
{
    const char *dot = strrchr(p, '.');
    return dot && (!strcmp(dot, ".h") || !strcmp(dot, ".hpp") || !strcmp(dot, ".hh") ||
                   !strcmp(dot, ".hxx") || !strcmp(dot, ".cuh"));
}

static int cmp_paths(const void *a, const void *b)
{
    const char *p = *(const char *const *)a, *q = *(const char *const *)b;
    int hp = is_header(p), hq = is_header(q);
    return hp != hq ? hq - hp : strcmp(p, q);
}

/* ---- git ----------------------------------------------------------------- */

/* The files git lists under dir; false when git cannot say (not a work
 * tree, no git). */
static bool git_files(const char *dir, plist *l)
{
    int fd[2];
    if (pipe(fd)) return false;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"git", "-C", (char *)dir, "ls-files", "-co", "--exclude-standard", "-z", NULL};
    extern char **environ;
    pid_t pid;
    int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc) {
        close(fd[0]);
        return false;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = ta_malloc(cap);
    ssize_t r = 0;
    while (buf) {
        if (n == cap) {
            char *nb = ta_realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        r = read(fd[0], buf + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        n += (size_t)r;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    bool ok = buf && r == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    for (size_t i = 0; ok && i < n;) {
        size_t len = strnlen(buf + i, n - i);
        if (len && ta_extract_lang_of(buf + i) != TA_LANG_NONE) plist_add(l, dir, buf + i, len);
        i += len + 1;
    }
    if (!buf) l->oom = true;
    free(buf);
    return ok;
}

/* ---- walking without git ------------------------------------------------- */

/* Hidden directories and what builds leave behind: build, _build,
 * build-release, cmake-build-debug, dist, node_modules, __pycache__ (not
 * build_tree or builder: source directories are named like that too). */
static bool skipped_dir(const char *name)
{
    return name[0] == '.' || !strcmp(name, "build") || !strcmp(name, "_build") ||
           !strncmp(name, "build-", 6) || !strncmp(name, "cmake-build", 11) ||
           !strcmp(name, "dist") || !strcmp(name, "node_modules") || !strcmp(name, "__pycache__");
}

static void walk_dir(const char *dir, plist *l, int depth)
{
    DIR *d = depth < 64 ? opendir(dir) : NULL;
    if (!d) return;
    struct dirent *e;
    while (!l->oom && (e = readdir(d))) {
        const char *name = e->d_name;
        if (name[0] == '.') continue;
        unsigned char type = e->d_type;
        size_t len = strlen(name);
        if (type == DT_UNKNOWN) {
            char *p = ta_malloc(strlen(dir) + len + 2);
            struct stat st;
            if (!p) {
                l->oom = true;
                break;
            }
            sprintf(p, "%s/%s", dir, name);
            type = lstat(p, &st) ? DT_UNKNOWN : S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
            free(p);
        }
        if (type == DT_DIR && !skipped_dir(name)) {
            plist sub = {0};
            plist_add(&sub, dir, name, len);
            if (sub.n) walk_dir(sub.v[0], l, depth + 1);
            if (sub.oom) l->oom = true;
            plist_free(&sub);
        } else if (type == DT_REG && ta_extract_lang_of(name) != TA_LANG_NONE) {
            plist_add(l, dir, name, len);
        }
    }
    closedir(d);
}

/* ---- reading --------------------------------------------------------------- */

static void io_error(ta_diags *diags, const char *path, int err)
{
    ta_loc loc = {path, 0, 0, 0, NULL, 0};
    ta_diag_error(diags, &loc, XR_IO, "cannot read: %s", strerror(err));
}

static ta_status scan_file(ta_extract *x, const char *path, ta_extract_lang lang, char **buf,
                           size_t *cap, ta_diags *diags, bool listed)
{
    size_t len = 0;
    static const ta_file_rules rules = {.regular_only = true};
    int err = ta_file_read(path, &rules, buf, cap, &len);
    if (err == ENOMEM) return TA_ERR_NOMEM;
    if (err) {
        /* git lists deleted files and submodules; a named file must exist */
        if (listed && (err == ENOENT || err == EISDIR)) return TA_OK;
        io_error(diags, path, err);
        return TA_ERR_IO;
    }
    return ta_extract_scan(x, path, lang, *buf, len, diags);
}

/* Reads a Python file for its helpers (the scan reports what cannot be
 * read). */
static ta_status prepass_file(ta_extract *x, const char *path, char **buf, size_t *cap)
{
    size_t len = 0;
    static const ta_file_rules rules = {.regular_only = true};
    int err = ta_file_read(path, &rules, buf, cap, &len);
    if (err == ENOMEM) return TA_ERR_NOMEM;
    return err ? TA_OK : ta_xpy_prepass(x, path, *buf, len);
}

ta_status ta_extract_path(ta_extract *x, const char *path, ta_diags *diags)
{
    if (!x || !path) return TA_ERR_INVALID;
    struct stat st;
    if (stat(path, &st)) {
        io_error(diags, path, errno);
        return TA_ERR_IO;
    }
    ta_status cs = xf_read_compile_db(x, S_ISDIR(st.st_mode) ? path : NULL, diags);
    if (cs != TA_OK) return cs;
    char *buf = NULL;
    size_t cap = 0;
    if (!S_ISDIR(st.st_mode)) {
        ta_extract_lang lang = ta_extract_lang_of(path);
        ta_status s = scan_file(x, path, lang == TA_LANG_NONE ? TA_LANG_CPP : lang, &buf, &cap, diags, false);
        free(buf);
        return s;
    }
    plist l = {0};
    if (ta_extract_no_git(x) || !git_files(path, &l)) {
        plist_free(&l);
        memset(&l, 0, sizeof l);
        walk_dir(path, &l, 0);
    }
    ta_status s = l.oom ? TA_ERR_NOMEM : TA_OK;
    if (s == TA_OK && l.n) qsort(l.v, l.n, sizeof *l.v, cmp_paths); /* qsort(NULL, 0) is UB */
    const char *outer = xf_root(x);
    xf_set_root(x, path);
    /* the Python helpers first, so that a call is known wherever it is */
    for (size_t i = 0; i < l.n && s == TA_OK; i++)
        if (ta_extract_lang_of(l.v[i]) == TA_LANG_PYTHON) s = prepass_file(x, l.v[i], &buf, &cap);
    for (size_t i = 0; i < l.n && (s == TA_OK || s == TA_ERR_IO); i++) {
        ta_status r = scan_file(x, l.v[i], ta_extract_lang_of(l.v[i]), &buf, &cap, diags, true);
        if (r != TA_OK) s = r;
    }
    xf_set_root(x, outer);
    free(buf);
    plist_free(&l);
    return s;
}

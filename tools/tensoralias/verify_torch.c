/* verify_torch.c - the libtorch bridge for the torch a run uses (see
 * verify_torch.h). The facts about a torch folder (version, ABI, flags, its
 * yaml) and the bridge's build are tools/torch-config.sh's, run as a child;
 * this file finds a built bridge, builds one when there is none, and loads
 * the torch's own libraries. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "verify_torch.h"

static const char *const CMD = "verify";

/* What torch-config.sh says about a torch folder. */
typedef struct torch_facts {
    char kind[16], key[160], version[128], libdir[PATH_MAX], yaml[PATH_MAX];
} torch_facts;

static void copy_value(char *dst, size_t cap, const char *v)
{
    snprintf(dst, cap, "%.*s", (int)strcspn(v, "\n"), v);
}

/* Runs `sh SCRIPT DIR` and reads its name=value lines; false when it
 * failed (it said why on standard error). */
static bool read_facts(const char *script, const char *dir, torch_facts *f)
{
    char cmd[2 * PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "sh '%s' '%s'", script, dir);
    FILE *p = strchr(dir, '\'') ? NULL : popen(cmd, "r");
    if (!p) return false;
    char line[PATH_MAX + 256];
    *f = (torch_facts){0};
    while (fgets(line, sizeof line, p)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq++ = '\0';
        if (!strcmp(line, "kind")) copy_value(f->kind, sizeof f->kind, eq);
        else if (!strcmp(line, "key")) copy_value(f->key, sizeof f->key, eq);
        else if (!strcmp(line, "version")) copy_value(f->version, sizeof f->version, eq);
        else if (!strcmp(line, "libdir")) copy_value(f->libdir, sizeof f->libdir, eq);
        else if (!strcmp(line, "yaml")) copy_value(f->yaml, sizeof f->yaml, eq);
    }
    return pclose(p) == 0 && f->key[0] && f->libdir[0];
}

/* The newest modification time of the files in dir (0 when none). */
static time_t newest_in(const char *dir)
{
    time_t newest = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[PATH_MAX + 256];
    struct stat st;
    while (d && (e = readdir(d))) {
        bool fits = snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path;
        if (fits && e->d_name[0] != '.' && stat(path, &st) == 0 && st.st_mtime > newest) newest = st.st_mtime;
    }
    if (d) closedir(d);
    return newest;
}

/* True when lib exists and is newer than the bridge's sources in kit. */
static bool up_to_date(const char *lib, const char *kit)
{
    struct stat st;
    if (stat(lib, &st) != 0) return false;
    char dir[PATH_MAX + 64];
    const char *parts[] = {"src/torch", "include/tensoralias", "."};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        snprintf(dir, sizeof dir, "%s/%s", kit, parts[i]);
        if (newest_in(dir) > st.st_mtime) return false;
    }
    return true;
}

/* $XDG_CACHE_HOME/tensoralias/torch-bridge, else $HOME/.cache/...; false when neither is set. */
static bool cache_root(char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) snprintf(buf, cap, "%s/tensoralias/torch-bridge", xdg);
    else if (home && *home) snprintf(buf, cap, "%s/.cache/tensoralias/torch-bridge", home);
    else return false;
    return true;
}

/* Builds the bridge for the torch in dir into out/ (torch-config.sh --build). */
static int build_bridge(const char *script, const char *dir, const torch_facts *f, const char *out)
{
    fprintf(stderr, "tensoralias verify: building the libtorch bridge for torch %s into %s "
                    "(once for this torch; a few minutes)\n", f->version, out);
    char cmd[4 * PATH_MAX + 64];
    int n = snprintf(cmd, sizeof cmd, "mkdir -p '%s' && sh '%s' --build '%s' '%s' 1>&2", out, script, dir, out);
    if (n >= (int)sizeof cmd || strchr(out, '\'') || system(cmd) != 0)
        return ta_cli_usage_error(CMD, "could not build the libtorch bridge for torch %s (%s): see above",
                                  f->version, dir);
    return -1;
}

/* The bridge for the torch f describes: prebuilt beside the command
 * (`make TORCH=DIR`), cached, or built now into the cache. */
static int find_bridge(const char *script, const char *dir, const torch_facts *f, ta_torch_setup *out)
{
    char name[PATH_MAX], kit[PATH_MAX];
    snprintf(name, sizeof name, "torch/%s/libtensoralias_torch.so", f->key);
    if (ta_cli_find_lib(name, out->bridge, sizeof out->bridge)) return -1;
    /* Debian's torch: the bridge built with the command serves it. */
    if (!strcmp(f->kind, "debian") && ta_cli_find_lib("libtensoralias_torch.so", out->bridge, sizeof out->bridge))
        return -1;
    char root[PATH_MAX], cached[PATH_MAX + 256];
    if (!cache_root(root, sizeof root))
        return ta_cli_usage_error(CMD, "no bridge is built for torch %s, and neither XDG_CACHE_HOME nor "
                                  "HOME is set to build one into: run `make TORCH=%s`", f->version, dir);
    if (snprintf(cached, sizeof cached, "%s/%s", root, f->key) >= (int)sizeof cached ||
        snprintf(out->bridge, sizeof out->bridge, "%s/libtensoralias_torch.so", cached) >= (int)sizeof out->bridge)
        return ta_cli_usage_error(CMD, "the cache folder's path is too long: %s", root);
    snprintf(kit, sizeof kit, "%.*s", (int)(strrchr(script, '/') - script), script);
    if (up_to_date(out->bridge, kit)) return -1;
    return build_bridge(script, dir, f, cached);
}

/* Loads the torch's libc10 and libtorch_cpu, global, before the bridge:
 * the bridge, built for this torch's version, binds to them by name. */
static int load_libtorch(const torch_facts *f)
{
    static const char *const libs[] = {"libc10.so", "libtorch_cpu.so"};
    char path[PATH_MAX + 64];
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        snprintf(path, sizeof path, "%s/%s", f->libdir, libs[i]);
        if (!dlopen(path, RTLD_NOW | RTLD_GLOBAL))
            return ta_cli_usage_error(CMD, "cannot load torch %s's %s: %s (a torch from PyPI needs the "
                                      "CUDA runtime wheels beside it, nvidia-cuda-runtime and "
                                      "nvidia-cuda-cupti: tools/install-torch.sh fetches them)",
                                      f->version, libs[i], dlerror());
    }
    return -1;
}

int ta_verify_torch_setup(const char *dir, ta_torch_setup *out)
{
    memset(out, 0, sizeof *out);
    if (!dir) {
        if (ta_cli_find_lib("libtensoralias_torch.so", out->bridge, sizeof out->bridge)) return -1;
        return ta_cli_usage_error(CMD, "no libtorch: install Debian's libtorch-dev and rebuild, or pass "
                                  "--torch DIR with a torch package folder (tools/install-torch.sh "
                                  "VERSION fetches one from PyPI and prints it)");
    }
    const char *script = ta_cli_bundled("torch-bridge/torch-config.sh");
    if (!script) return ta_cli_usage_error(CMD, "--torch: the bundled torch-bridge/torch-config.sh is missing");
    char kept[PATH_MAX];
    snprintf(kept, sizeof kept, "%s", script); /* ta_cli_bundled's buffer is reused */
    torch_facts f;
    if (!read_facts(kept, dir, &f)) return ta_cli_usage_error(CMD, "--torch %s: not a torch the bridge can use", dir);
    snprintf(out->version, sizeof out->version, "%s", f.version);
    snprintf(out->yaml, sizeof out->yaml, "%s", f.yaml);
    int rc = find_bridge(kept, dir, &f, out);
    if (rc < 0 && strcmp(f.kind, "debian")) rc = load_libtorch(&f);
    return rc;
}

/* session_torch.c - the libtorch bridge for the torch a run uses. Without
 * torch_dir: the bridge built with tensoralias against Debian's
 * libtorch-dev. With it: the bridge built for that torch (`make TORCH=DIR`
 * puts one in torch/KEY beside the bundled libraries), else the one cached
 * in $XDG_CACHE_HOME/tensoralias/torch-bridge/KEY (KEY: the torch's version
 * and C++ ABI), built there on first use. The facts about a torch folder
 * (version, ABI, flags, its yaml) and the build are torch-config.sh's
 * (bundled as torch-bridge/torch-config.sh), run as a child whose output
 * goes to the log callback; the torch's own libtorch is loaded first, so
 * the bridge and every extension bind to it. */
#include <dirent.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "exec/session/session_internal.h"
#include "tensoralias/bundled.h"

/* What torch-config.sh says about a torch folder. */
typedef struct torch_facts {
    char kind[16], key[160], version[128], libdir[PATH_MAX], yaml[PATH_MAX];
} torch_facts;

static void log_line(const ta_verify_config *c, bool output, const char *line)
{
    if (c->log) c->log(c->log_ud, output, line);
}

/* One line of torch-config.sh's facts ("name=value", kept when the session
 * needs it); false for another line (a message). */
static bool take_fact(torch_facts *f, char *line)
{
    static const struct {
        const char *name;
        size_t off, cap;
    } facts[] = {
        {"kind", offsetof(torch_facts, kind), sizeof ((torch_facts *)0)->kind},
        {"key", offsetof(torch_facts, key), sizeof ((torch_facts *)0)->key},
        {"version", offsetof(torch_facts, version), sizeof ((torch_facts *)0)->version},
        {"libdir", offsetof(torch_facts, libdir), sizeof ((torch_facts *)0)->libdir},
        {"yaml", offsetof(torch_facts, yaml), sizeof ((torch_facts *)0)->yaml},
    };
    size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyz_");
    if (!n || line[n] != '=') return false;
    for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
        if (n == strlen(facts[i].name) && !strncmp(line, facts[i].name, n))
            snprintf((char *)f + facts[i].off, facts[i].cap, "%s", line + n + 1);
    return true;
}

/* Runs a shell command, its standard error with its output; each line is
 * given to fact (when not NULL, which keeps what it knows) or else to the
 * log. True when the command succeeded. */
static bool run_logged(const ta_verify_config *c, const char *cmd, torch_facts *facts)
{
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        if (!facts || !take_fact(facts, line)) log_line(c, true, line);
    }
    return pclose(p) == 0;
}

/* `sh SCRIPT DIR`: the facts; false when it failed (it said why, logged). */
static bool read_facts(const ta_verify_config *c, const char *script, const char *dir, torch_facts *f)
{
    char cmd[2 * PATH_MAX + 64];
    *f = (torch_facts){0};
    if (strchr(dir, '\'') || strchr(script, '\'')) return false;
    snprintf(cmd, sizeof cmd, "sh '%s' '%s' 2>&1", script, dir);
    return run_logged(c, cmd, f) && f->key[0] && f->libdir[0];
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
static ta_status build_bridge(const ta_verify_config *c, const char *script, const torch_facts *f,
                              const char *out, ta_diags *d)
{
    char line[2 * PATH_MAX], cmd[4 * PATH_MAX + 64];
    snprintf(line, sizeof line, "building the libtorch bridge for torch %s into %s (once for this torch; "
                                "a few minutes)", f->version, out);
    log_line(c, false, line);
    int n = snprintf(cmd, sizeof cmd, "mkdir -p '%s' && sh '%s' --build '%s' '%s' 2>&1", out, script,
                     c->torch_dir, out);
    if (n >= (int)sizeof cmd || strchr(out, '\'') || !run_logged(c, cmd, NULL))
        return session_fail(d, TA_ERR_INVALID, "verify-config",
                            "could not build the libtorch bridge for torch %s (%s): see above", f->version,
                            c->torch_dir);
    return TA_OK;
}

/* The bridge for the torch f describes: prebuilt among the bundled
 * libraries (`make TORCH=DIR`), cached, or built now into the cache. */
static ta_status find_bridge(ta_verify_session *s, const char *script, const torch_facts *f, ta_diags *d)
{
    const ta_verify_config *c = &s->c;
    char *bridge = s->torch.bridge, name[PATH_MAX], kit[PATH_MAX];
    size_t cap = sizeof s->torch.bridge;
    snprintf(name, sizeof name, "torch/%s/libtensoralias_torch.so", f->key);
    snprintf(kit, sizeof kit, "%.*s", (int)(strrchr(script, '/') - script), script);
    /* a prebuilt bridge older than the bridge's sources beside it (make
     * after a change, without TORCH=DIR again) is stale: the cache's serves */
    if (ta_bundled_library(c->data_dir, name, bridge, cap) == TA_OK && up_to_date(bridge, kit)) return TA_OK;
    /* Debian's torch: the bridge built with tensoralias serves it. */
    if (!strcmp(f->kind, "debian") && ta_bundled_library(c->data_dir, "libtensoralias_torch.so", bridge, cap) == TA_OK)
        return TA_OK;
    char root[PATH_MAX], cached[PATH_MAX + 256];
    if (!cache_root(root, sizeof root))
        return session_fail(d, TA_ERR_INVALID, "verify-config",
                            "no bridge is built for torch %s, and neither XDG_CACHE_HOME nor HOME is set "
                            "to build one into: run `make TORCH=%s`", f->version, c->torch_dir);
    if (snprintf(cached, sizeof cached, "%s/%s", root, f->key) >= (int)sizeof cached ||
        snprintf(bridge, cap, "%s/libtensoralias_torch.so", cached) >= (int)cap)
        return session_fail(d, TA_ERR_INVALID, "verify-config", "the cache folder's path is too long: %s", root);
    if (up_to_date(bridge, kit)) return TA_OK;
    return build_bridge(c, script, f, cached, d);
}

/* Loads the torch's libc10 and libtorch_cpu, global, before the bridge:
 * the bridge, built for this torch's version, binds to them by name. */
static ta_status load_libtorch(const torch_facts *f, ta_diags *d)
{
    static const char *const libs[] = {"libc10.so", "libtorch_cpu.so"};
    char path[PATH_MAX + 64];
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        snprintf(path, sizeof path, "%s/%s", f->libdir, libs[i]);
        if (!dlopen(path, RTLD_NOW | RTLD_GLOBAL))
            return session_fail(d, TA_ERR_INVALID, "verify-config",
                                "cannot load torch %s's %s: %s (a torch from PyPI needs the CUDA runtime "
                                "wheels beside it, nvidia-cuda-runtime and nvidia-cuda-cupti: "
                                "tools/install-torch.sh fetches them)", f->version, libs[i], dlerror());
    }
    return TA_OK;
}

ta_status session_torch_setup(ta_verify_session *s, ta_diags *d)
{
    const ta_verify_config *c = &s->c;
    session_torch *t = &s->torch;
    if (!c->torch_dir) {
        if (ta_bundled_library(c->data_dir, "libtensoralias_torch.so", t->bridge, sizeof t->bridge) == TA_OK)
            return TA_OK;
        return session_fail(d, TA_ERR_INVALID, "verify-config",
                            "no libtorch: install Debian's libtorch-dev and rebuild, or pass --torch DIR "
                            "with a torch package folder (tools/install-torch.sh VERSION fetches one from "
                            "PyPI and prints it)");
    }
    char script[PATH_MAX];
    if (ta_bundled_file(c->data_dir, "torch-bridge/torch-config.sh", script, sizeof script) != TA_OK)
        return session_fail(d, TA_ERR_INVALID, "verify-config",
                            "--torch: the bundled torch-bridge/torch-config.sh is missing");
    torch_facts f;
    if (!read_facts(c, script, c->torch_dir, &f))
        return session_fail(d, TA_ERR_INVALID, "verify-config", "--torch %s: not a torch the bridge can use",
                            c->torch_dir);
    snprintf(t->version, sizeof t->version, "%s", f.version);
    snprintf(t->yaml, sizeof t->yaml, "%s", f.yaml);
    ta_status st = find_bridge(s, script, &f, d);
    if (st == TA_OK && strcmp(f.kind, "debian")) st = load_libtorch(&f, d);
    return st;
}

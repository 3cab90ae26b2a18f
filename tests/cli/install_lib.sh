#!/bin/sh
# The installed library links like one: libtensoralias.so.X.Y.Z with SONAME
# libtensoralias.so.X and both links; a program built with
# `pkg-config --cflags --libs tensoralias` against a prefix outside the
# loader's path (/opt/ta) runs with LD_LIBRARY_PATH or an rpath and reports
# the headers' version through ta_version; `pkg-config --static` links a
# fully static program.
. "$(dirname "$0")/lib.sh"

make -s BUILD="$BUILD" CC="${CC:-cc}" SAN="${SAN:-}" ${CUDA:+CUDA="$CUDA"} PREFIX=/opt/ta \
    DESTDIR="$tmp/stage" install >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log"; fail "make install"; }
root=$tmp/stage/opt/ta
version=$(sed -n 's/^#define TA_VERSION_STRING "\(.*\)"/\1/p' include/tensoralias/version.h)
major=${version%%.*}
[ -f "$root/lib/libtensoralias.so.$version" ] || fail "not installed: lib/libtensoralias.so.$version"
for l in "libtensoralias.so.$major" libtensoralias.so; do
    [ "$(readlink "$root/lib/$l")" = "libtensoralias.so.$version" ] || fail "lib/$l is not a link to the library"
done
readelf -d "$root/lib/libtensoralias.so.$version" | grep -q "SONAME.*\[libtensoralias.so.$major\]" ||
    fail "SONAME is not libtensoralias.so.$major"
[ -f include/tensoralias/version.h ] && [ -f "$root/include/tensoralias/version.h" ] || fail "version.h not installed"

cat > "$tmp/app.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <tensoralias/alias.h>
#include <tensoralias/version.h>
int main(void)
{
    const char *t = "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)";
    ta_arena *a = NULL;
    ta_schema *s = NULL;
    ta_alias_graph *g = NULL;
    if (ta_arena_create(&a) != TA_OK) return 1;
    if (ta_schema_parse(a, t, strlen(t), NULL, &s, NULL) != TA_OK) return 1;
    if (ta_alias_graph_create(s, &g, NULL) != TA_OK) return 1; /* igraph, linked in */
    ta_alias_graph_destroy(g);
    ta_arena_destroy(a);
    if (strcmp(ta_version(), TA_VERSION_STRING) || ta_version_number() != TA_VERSION_NUMBER) return 1;
    printf("%s\n", ta_version());
    return 0;
}
C
pc() { PKG_CONFIG_PATH=$root/lib/pkgconfig pkg-config --define-prefix "$@" tensoralias; }
flags=$(pc --cflags --libs) || fail "pkg-config --cflags --libs tensoralias"
case $flags in *"-L$root/lib"*"-ltensoralias"*) ;; *) fail "pkg-config flags do not point at the prefix: $flags" ;; esac
${CC:-cc} ${SAN:-} -o "$tmp/app" "$tmp/app.c" $flags 2>"$tmp/cc.log" || { cat "$tmp/cc.log"; fail "shared link"; }
readelf -d "$tmp/app" | grep -q "NEEDED.*\[libtensoralias.so.$major\]" || fail "the program does not need the SONAME"
"$tmp/app" >/dev/null 2>&1 && fail "ran without the prefix's lib on the loader path (test is not isolated)"
[ "$(LD_LIBRARY_PATH=$root/lib "$tmp/app")" = "$version" ] || fail "with LD_LIBRARY_PATH: no version $version"
${CC:-cc} ${SAN:-} -o "$tmp/app_rpath" "$tmp/app.c" $flags -Wl,-rpath,"$root/lib" || fail "rpath link"
[ "$("$tmp/app_rpath")" = "$version" ] || fail "with an rpath: no version $version"

if [ -n "${SAN:-}" ]; then
    echo "static link not tried: sanitizer runtimes do not link statically"
else
    sflags=$(pc --static --cflags --libs) || fail "pkg-config --static"
    ${CC:-cc} -static -o "$tmp/app_static" "$tmp/app.c" $sflags 2>"$tmp/cc.log" ||
        { grep -v 'warning:\|in function' "$tmp/cc.log" | head; fail "pkg-config --static does not link statically"; }
    [ "$("$tmp/app_static")" = "$version" ] || fail "static program: no version $version"
fi
echo "installed library: SONAME libtensoralias.so.$major, shared, rpath and static links run"

#!/bin/sh
# make install into a staging directory gives a working tool: the installed
# command finds its bundled yaml and reference kernels, tensoralias.pc points
# at the installed headers, and the plugin example at the top of
# include/tensoralias/kernel.h, compiled against them, verifies clean.
. "$(dirname "$0")/lib.sh"

# The install builds with the suite's own compiler, sanitizer and CUDA
# setting, so it reuses the objects under test instead of rebuilding them.
make -s BUILD="$BUILD" CC="${CC:-cc}" SAN="${SAN:-}" ${CUDA:+CUDA="$CUDA"} PREFIX=/opt/ta \
    DESTDIR="$tmp/stage" install >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log"; fail "make install"; }
root=$tmp/stage/opt/ta
for f in bin/tensoralias lib/libtensoralias.a lib/libtensoralias.so lib/pkgconfig/tensoralias.pc \
         include/tensoralias/kernel.h include/tensoralias/schema.h share/tensoralias/native_functions.yaml; do
    [ -f "$root/$f" ] || fail "not installed: $f"
done

"$root/bin/tensoralias" check >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "installed check"; }
grep -q '^0 errors' "$tmp/out" || fail "installed check did not report: $(tail -n 1 "$tmp/out")"

# The example from kernel.h's header comment, exactly as written there.
sed -n '/^ \*     #include <tensoralias\/kernel.h>/,/^ \* Build it with/p' include/tensoralias/kernel.h |
    sed '$d' | sed 's/^ \*     //; s/^ \*$//' >"$tmp/mine.c"
grep -q tensoralias_register "$tmp/mine.c" || fail "could not extract the example from kernel.h"
cflags=$(PKG_CONFIG_PATH=$root/lib/pkgconfig pkg-config --define-prefix --cflags tensoralias 2>/dev/null ||
         echo "-I$root/include")
case "$cflags" in *"$root"*) ;; *) cflags="-I$root/include" ;; esac
cc -shared -fPIC $cflags -o "$tmp/libmine.so" "$tmp/mine.c" 2>"$tmp/cc.log" ||
    { cat "$tmp/cc.log"; fail "the kernel.h example does not compile"; }
"$root/bin/tensoralias" verify --no-default-kernels --kernels "$tmp/libmine.so" --ops 'mylib::*' \
    --format json >"$tmp/v.json" 2>"$tmp/err" || { cat "$tmp/err" "$tmp/v.json"; fail "verify of the example"; }
grep -q '"op":"mylib::twice","verdict":"ok"' "$tmp/v.json" || { cat "$tmp/v.json"; fail "example not ok"; }
echo "installed tree works; kernel.h example verifies ok"

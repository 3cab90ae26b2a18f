#!/bin/sh
# verify --kernels torch: ATen's own CPU kernels through the libtorch bridge,
# against PyTorch 1.13.1's yaml (views, in-place, out=, resize, lists): all
# clean and all exercised, with and without write traps; and a yaml that
# misdeclares them gets each misdeclaration reported. On another torch
# (TA_TORCH: 2.x), the same against that torch's own yaml, named tensors
# (gone in 2.13) left out.
. "$(dirname "$0")/lib.sh"
need_bridge
YAML=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
[ -z "${TA_TORCH:-}" ] || YAML="" # --torch: that torch's own
OPS=""
for o in abs abs_ abs.out add.Tensor add_.Tensor add.out mul.out transpose.int transpose_ t t_ \
         view reshape select.int narrow slice.Tensor unsqueeze unsqueeze_ squeeze_ as_strided \
         as_strided_ expand permute diagonal split.Tensor chunk unbind.int resize_ resize_as_ mm \
         mm.out bmm.out cat cat.out clone contiguous copy_ fill_.Scalar zero_ sum.dim_IntList \
         sum.IntList_out max.dim max.dim_max sort.values topk index_select.out masked_fill_.Scalar \
         where.self clamp_ detach alias view_as expand_as flatten.using_ints; do
    OPS="$OPS --ops aten::$o"
done
for trap in "" --trap-writes; do
    # shellcheck disable=SC2086
    "$TA" verify $YAML $TORCH_ARGS --kernels torch $OPS $trap --cases 20 --jobs 2 --format json \
        >"$tmp/r.json" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || { grep -v '"verdict":"ok"' "$tmp/r.json"; cat "$tmp/err"; fail "exit $rc ($trap)"; }
    [ "$(grep -c '"verdict":"ok"' "$tmp/r.json")" -eq 54 ] || fail "54 operators ok ($trap)"
    grep -q '"exercised":0,' "$tmp/r.json" && { grep '"exercised":0,' "$tmp/r.json"; fail "not exercised"; }
done

# Scalar[] (foreach's scalar lists, gradient's spacing) and Dimname
# arguments (the tensors' dimensions named): clean and exercised by the
# cases as synthesized (the conversions are the subject here: discovery
# reaches further, e.g. a gradient.scalarrayint case that crashes ATen).
if [ -z "${TA_TORCH:-}" ]; then
OPS=""
for o in _foreach_add_.ScalarList _foreach_mul.ScalarList _foreach_addcmul_.ScalarList \
         _foreach_div.ScalarList_out gradient.scalarrayint sum.dim_DimnameList cumsum.dimname \
         transpose.Dimname select.Dimname rename_ refine_names align_to cat.names zeros.names \
         logsumexp.names_out unbind.Dimname; do
    OPS="$OPS --ops aten::$o"
done
# shellcheck disable=SC2086
"$TA" verify $YAML $TORCH_ARGS --kernels torch $OPS --cases 20 --jobs 2 --no-discovery --format json >"$tmp/n.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { grep -v '"verdict":"ok"' "$tmp/n.json"; cat "$tmp/err"; fail "Scalar[], Dimname: exit $rc"; }
[ "$(grep -c '"verdict":"ok"' "$tmp/n.json")" -eq 16 ] || fail "Scalar[], Dimname: 16 operators ok"
grep -q '"exercised":0,' "$tmp/n.json" && { grep '"exercised":0,' "$tmp/n.json"; fail "not exercised"; }
fi

# The same kernels against schemas that misdeclare them.
cat >"$tmp/wrong.yaml" <<'YAML'
- func: abs_(Tensor self) -> Tensor
  variants: function
- func: transpose.int(Tensor self, int dim0, int dim1) -> Tensor
  variants: function
- func: abs.out(Tensor self, *, Tensor out) -> Tensor
  variants: function
- func: unsqueeze_(Tensor self, int dim) -> Tensor
  variants: function
- func: _foreach_add_.ScalarList(Tensor[] self, Scalar[] scalars) -> ()
  variants: function
YAML
[ -n "${TA_TORCH:-}" ] || cat >>"$tmp/wrong.yaml" <<'YAML'
- func: transpose.Dimname(Tensor self, Dimname dim0, Dimname dim1) -> Tensor
  variants: function
YAML
"$TA" verify "$tmp/wrong.yaml" $TORCH_ARGS --kernels torch --no-default-samples --cases 20 --format json \
    >"$tmp/w.json" 2>"$tmp/err"
[ $? -eq 1 ] || { cat "$tmp/w.json" "$tmp/err"; fail "misdeclared: exit 1"; }
has() { # op finding-kind: the kernel did what the yaml does not declare, and
         # libtorch's own schema (which declares it) differs from the yaml's
    grep "^{\"op\":\"$1\"," "$tmp/w.json" | grep -q "\"kind\":\"$2\"" &&
        grep "^{\"op\":\"$1\"," "$tmp/w.json" | grep -q '"kind":"schema-mismatch"' ||
        { grep "\"$1\"" "$tmp/w.json"; fail "$1: expected $2 and schema-mismatch"; }
}
has 'aten::abs_' undeclared-mutation
has 'aten::transpose.int' undeclared-alias
has 'aten::abs.out' undeclared-mutation
has 'aten::unsqueeze_' undeclared-metadata-mutation
has 'aten::_foreach_add_.ScalarList' undeclared-mutation
[ -n "${TA_TORCH:-}" ] || has 'aten::transpose.Dimname' undeclared-alias
grep '"aten::_foreach_add_.ScalarList"' "$tmp/w.json" | grep -q 'scalars=\[' || fail "the case shows the scalars"
[ -n "${TA_TORCH:-}" ] || grep '"aten::transpose.Dimname"' "$tmp/w.json" | grep -q "dim0='[a-h]', dim1='[a-h]'" ||
    fail "the case shows the names"
grep '"aten::transpose.int"' "$tmp/w.json" | grep -q "libtorch's schema annotates argument 'self' otherwise" ||
    fail "schema-mismatch names the argument"

# A yaml whose schema takes other arguments than libtorch's: refused, with libtorch's schema.
printf -- '- func: abs(Tensor self, int extra) -> Tensor\n' >"$tmp/other.yaml"
"$TA" verify "$tmp/other.yaml" $TORCH_ARGS --kernels torch --no-default-samples --cases 3 >"$tmp/o.txt" 2>&1
grep -q "libtorch's schema takes other arguments: aten::abs(Tensor self) -> Tensor" "$tmp/o.txt" ||
    { cat "$tmp/o.txt"; fail "another schema: the reason"; }

# batch_norm writes running_mean and running_var in training, which torch's
# SchemaInfo special-cases but the schema does not declare: a warning of its
# own kind, an error with --strict.
"$TA" verify $YAML $TORCH_ARGS --kernels torch --ops aten::batch_norm --cases 20 --format json >"$tmp/b.json" 2>&1
[ $? -eq 0 ] || { cat "$tmp/b.json"; fail "special-case-write: a warning"; }
grep -q '"verdict":"special-case-write","severity":"warning"' "$tmp/b.json" || { cat "$tmp/b.json"; fail "special-case-write"; }
grep -q '"argument":"running_var"' "$tmp/b.json" || fail "special-case-write: running_var"
"$TA" verify $YAML $TORCH_ARGS --kernels torch --ops aten::batch_norm --cases 20 --strict >"$tmp/b.txt" 2>&1
[ $? -eq 1 ] || { cat "$tmp/b.txt"; fail "--strict: exit 1"; }
grep -q 'error: special-case-write (running_mean)' "$tmp/b.txt" || { cat "$tmp/b.txt"; fail "--strict: an error"; }
exit 0

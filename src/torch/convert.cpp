/* convert.cpp - ta_stack values to IValues and back, zero copy.
 *
 * An engine tensor becomes an at::Tensor over a c10::Storage that wraps its
 * whole engine storage (base and size, resizable through the engine's
 * allocator), with the same sizes, strides and storage offset: ATen reads
 * and writes the engine's bytes, and tensors over one engine storage share
 * one c10::Storage, as views do in PyTorch. A result goes back as the input
 * tensor it is (same TensorImpl: in-place and out= returns), or as a new
 * engine tensor over the engine storage its bytes live in (ATen allocated
 * it through the engine, or it is a view of an input).
 * A storage ATen made with no bytes has a null pointer, as in torch
 * (allocator.cpp): it gets an empty engine storage of its own, found again
 * by the c10::Storage itself, as there is no address to find it by. The
 * engine's own empty storages keep their address at a guard page, so that
 * a kernel reading an empty argument is named (out-of-bounds) rather than
 * dying on a null pointer.
 * A call with a Dimname argument (a string in libtorch's schema) names its
 * input tensors' dimensions as kernel.h's TA_DIM_NAMES says; out= arguments
 * stay unnamed, as a fresh out= tensor in PyTorch is. Names are metadata
 * outside the bytes and geometry the engine observes: results keep the
 * names ATen gives them, and the engine never sees them. Torch 2.13 removed
 * named tensors: there a Dimname argument is refused (no operator of that
 * torch takes one). */
#include <cstring>
#include <sstream>

#include <ATen/core/Tensor.h>
#include <c10/core/TensorImpl.h>

#include "torch/bridge.h"
#if TA_TORCH_NAMED_TENSORS
#include <ATen/core/NamedTensor.h>
#endif

namespace ta_torch {
namespace {

void no_delete(void *) {}

at::ScalarType scalar_type_of(DLDataType dt)
{
    switch (dt.code) {
    case kDLFloat:
        if (dt.bits == 16) return at::kHalf;
        if (dt.bits == 32) return at::kFloat;
        if (dt.bits == 64) return at::kDouble;
        break;
    case kDLBfloat:
        if (dt.bits == 16) return at::kBFloat16;
        break;
    case kDLInt:
        if (dt.bits == 8) return at::kChar;
        if (dt.bits == 16) return at::kShort;
        if (dt.bits == 32) return at::kInt;
        if (dt.bits == 64) return at::kLong;
        break;
    case kDLUInt:
        if (dt.bits == 8) return at::kByte;
        break;
    case TA_DL_BOOL:
        if (dt.bits == 8) return at::kBool;
        break;
    case kDLComplex:
        if (dt.bits == 64) return at::kComplexFloat;
        if (dt.bits == 128) return at::kComplexDouble;
        break;
    default:
        break;
    }
    throw Unsupported("tensoralias: a tensor of a dtype the libtorch bridge does not map");
}

DLDataType dl_type_of(at::ScalarType st)
{
    switch (st) {
    case at::kHalf: return {kDLFloat, 16, 1};
    case at::kFloat: return {kDLFloat, 32, 1};
    case at::kDouble: return {kDLFloat, 64, 1};
    case at::kBFloat16: return {kDLBfloat, 16, 1};
    case at::kChar: return {kDLInt, 8, 1};
    case at::kShort: return {kDLInt, 16, 1};
    case at::kInt: return {kDLInt, 32, 1};
    case at::kLong: return {kDLInt, 64, 1};
    case at::kByte: return {kDLUInt, 8, 1};
    case at::kBool: return {TA_DL_BOOL, 8, 1};
    case at::kComplexFloat: return {kDLComplex, 64, 1};
    case at::kComplexDouble: return {kDLComplex, 128, 1};
    default: break;
    }
    throw Unsupported(std::string("tensoralias: ATen returned a tensor of dtype ") +
                      c10::toString(st) + ", which the engine does not hold");
}

/* The type an argument of type t takes, optional or not. */
const c10::TypePtr &unwrap(const c10::TypePtr &t)
{
    if (t->kind() == c10::TypeKind::OptionalType) return t->containedTypes()[0];
    return t;
}

int64_t int_of(const ta_value &v)
{
    switch (v.tag) {
    case TA_VAL_INT: return v.u.i;
    case TA_VAL_BOOL: return v.u.b;
    case TA_VAL_SCALAR:
        if (v.scalar_kind == TA_SCALAR_INT) return v.u.i;
        if (v.scalar_kind == TA_SCALAR_BOOL) return v.u.b;
        break;
    default: break;
    }
    throw Unsupported("tensoralias: expected an integer");
}

double float_of(const ta_value &v)
{
    if (v.tag == TA_VAL_FLOAT) return v.u.f;
    if (v.tag == TA_VAL_SCALAR && v.scalar_kind == TA_SCALAR_FLOAT) return v.u.f;
    return (double)int_of(v);
}

c10::IValue scalar_of(const ta_value &v)
{
    if (v.tag == TA_VAL_SCALAR) {
        if (v.scalar_kind == TA_SCALAR_FLOAT) return c10::IValue(v.u.f);
        if (v.scalar_kind == TA_SCALAR_BOOL) return c10::IValue(v.u.b);
        return c10::IValue(v.u.i);
    }
    if (v.tag == TA_VAL_FLOAT) return c10::IValue(v.u.f);
    if (v.tag == TA_VAL_BOOL) return c10::IValue(v.u.b);
    return c10::IValue(int_of(v));
}

bool is_int_like(c10::TypeKind k)
{
    return k == c10::TypeKind::IntType || k == c10::TypeKind::SymIntType ||
           k == c10::TypeKind::ScalarTypeType || k == c10::TypeKind::LayoutType ||
           k == c10::TypeKind::MemoryFormatType;
}

/* A Dimname value: the name as at::Dimname spells it in an IValue. */
std::string dimname_of(const char *name)
{
#if TA_TORCH_NAMED_TENSORS
    return at::Dimname::fromSymbol(c10::Symbol::dimname(name ? name : "")).symbol().toQualString();
#else
    (void)name;
    throw Unsupported("tensoralias: a Dimname argument, which torch " TORCH_VERSION " does not have");
#endif
}

} // namespace

bool CallState::names_dims(const ta_stack *st)
{
    if (!TA_TORCH_NAMED_TENSORS) return false;
    for (size_t i = 0; i < ta_stack_size(st); i++) {
        const ta_value *v = ta_stack_at(const_cast<ta_stack *>(st), i);
        if (v->tag == TA_VAL_DIMNAME || v->tag == TA_VAL_DIMNAME_LIST) return true;
    }
    return false;
}

/* Names t's dimensions as kernel.h's TA_DIM_NAMES scheme does. */
void CallState::name_dims(at::Tensor &t)
{
#if TA_TORCH_NAMED_TENSORS
    static const char letters[] = TA_DIM_NAMES;
    const int64_t most = (int64_t)sizeof letters - 1;
    if (t.dim() > most) return;
    std::vector<at::Dimname> names;
    for (int64_t i = 0; i < t.dim(); i++)
        names.push_back(at::Dimname::fromSymbol(c10::Symbol::dimname(std::string(1, letters[most - t.dim() + i]))));
    at::internal_set_names_inplace(t, names);
#else
    (void)t;
#endif
}

c10::Storage CallState::storage_for(const ta_kernel_storage &s)
{
    auto it = storages_.find(s.id);
    if (it != storages_.end()) return it->second;
    c10::Storage st(c10::Storage::use_byte_size_t(), s.bytes,
                    c10::DataPtr(s.base, s.base, &no_delete, c10::Device(c10::DeviceType::CPU)),
                    engine_allocator(), /*resizable=*/true);
    storages_.emplace(s.id, st);
    return st;
}

/* The engine storage behind st: the one its bytes are in, or for a
 * storage ATen made without bytes (a null pointer) the empty engine storage
 * it stands for (a new one, the same each time it is seen). False when its
 * bytes are not the engine's. */
bool CallState::engine_storage(const c10::Storage &st, ta_kernel_storage &out)
{
    if (st.data()) return ta_kernel_storage_at(ctx_, st.data(), &out);
    for (const auto &e : empties_)
        if (e.first.unsafeGetStorageImpl() == st.unsafeGetStorageImpl()) {
            out = e.second;
            return true;
        }
    if (ta_kernel_storage_new(ctx_, 0, &out) != TA_OK) throw Unsupported("tensoralias: out of memory");
    empties_.emplace_back(st, out); /* held, so that its address is not another's during the call */
    return true;
}

/* Where t starts in the engine storage s its storage stands for. */
static uint64_t byte_offset_in(const at::Tensor &t, const ta_kernel_storage &s)
{
    const char *data = static_cast<const char *>(t.storage().data());
    return (uint64_t)(data ? data - static_cast<const char *>(s.base) : 0) +
           (uint64_t)t.storage_offset() * (uint64_t)t.element_size();
}

/* A meta tensor of t's geometry over a meta storage of the engine
 * storage's size (views of one storage share it). */
at::Tensor CallState::meta_tensor_in(DLTensor *t, const ta_kernel_storage &s)
{
    at::ScalarType type = scalar_type_of(t->dtype);
    size_t es = c10::elementSize(type);
    auto it = storages_.find(s.id);
    if (it == storages_.end())
        it = storages_
                 .emplace(s.id, c10::Storage(c10::Storage::use_byte_size_t(), s.bytes,
                                             c10::DataPtr(nullptr, c10::Device(c10::DeviceType::Meta)),
                                             c10::GetAllocator(c10::DeviceType::Meta), /*resizable=*/true))
                 .first;
    auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(it->second), c10::DispatchKeySet(c10::DispatchKey::Meta),
                                                     caffe2::TypeMeta::fromScalarType(type));
    std::vector<int64_t> strides(t->ndim);
    ta_strides_of(t, strides.data());
    impl->set_sizes_and_strides(c10::IntArrayRef(t->shape, t->ndim), strides, (int64_t)(t->byte_offset / es));
    return at::Tensor(std::move(impl));
}

at::Tensor CallState::tensor_in(DLTensor *t)
{
    ta_kernel_storage s;
    if (!ta_kernel_storage_of(ctx_, t, &s))
        throw Unsupported("tensoralias: an argument tensor the engine did not make");
    if (meta_) return meta_tensor_in(t, s);
    at::ScalarType type = scalar_type_of(t->dtype);
    size_t es = c10::elementSize(type);
    if (t->byte_offset % es)
        throw Unsupported("tensoralias: a tensor offset that is not a whole number of elements");
    auto impl = c10::make_intrusive<c10::TensorImpl>(storage_for(s), c10::DispatchKeySet(c10::DispatchKey::CPU),
                                                     caffe2::TypeMeta::fromScalarType(type));
    std::vector<int64_t> strides(t->ndim);
    ta_strides_of(t, strides.data());
    impl->set_sizes_and_strides(c10::IntArrayRef(t->shape, t->ndim), strides,
                                (int64_t)(t->byte_offset / es));
    at::Tensor out(std::move(impl));
    if (naming_) name_dims(out);
    inputs_.emplace_back(out, t);
    return out;
}

c10::IValue CallState::list_in(const ta_value &v, const c10::TypePtr &elem)
{
    const c10::TypePtr &e = unwrap(elem);
    if (v.tag == TA_VAL_TENSOR_LIST && elem->kind() == c10::TypeKind::OptionalType) {
        c10::List<c10::optional<at::Tensor>> l;
        for (size_t i = 0; i < v.u.tensors.n; i++)
            l.push_back(v.u.tensors.items[i] ? c10::optional<at::Tensor>(tensor_in(v.u.tensors.items[i]))
                                             : c10::nullopt);
        return l;
    }
    if (v.tag == TA_VAL_TENSOR_LIST && e->kind() == c10::TypeKind::TensorType) {
        c10::List<at::Tensor> l;
        for (size_t i = 0; i < v.u.tensors.n; i++) {
            if (!v.u.tensors.items[i]) throw Unsupported("tensoralias: None in a Tensor[]");
            l.push_back(tensor_in(v.u.tensors.items[i]));
        }
        return l;
    }
    if (is_int_like(e->kind())) {
        if (v.tag == TA_VAL_INT) return c10::List<int64_t>({v.u.i}); /* int[1] given as one int */
        if (v.tag != TA_VAL_INT_LIST) throw Unsupported("tensoralias: expected an int list");
        return c10::List<int64_t>(std::vector<int64_t>(v.u.ints.items, v.u.ints.items + v.u.ints.n));
    }
    if (e->kind() == c10::TypeKind::NumberType && v.tag == TA_VAL_SCALAR_LIST) {
        c10::List<at::Scalar> l;
        for (size_t i = 0; i < v.u.scalars.n; i++) {
            const ta_scalar &sc = v.u.scalars.items[i];
            l.push_back(sc.kind == TA_SCALAR_FLOAT ? at::Scalar(sc.u.f)
                        : sc.kind == TA_SCALAR_BOOL ? at::Scalar(sc.u.b) : at::Scalar(sc.u.i));
        }
        return l;
    }
    if (e->kind() == c10::TypeKind::StringType && v.tag == TA_VAL_DIMNAME_LIST) {
        c10::List<std::string> l;
        for (size_t i = 0; i < v.u.names.n; i++) l.push_back(dimname_of(v.u.names.items[i]));
        return l;
    }
    if (e->kind() == c10::TypeKind::FloatType && v.tag == TA_VAL_FLOAT_LIST)
        return c10::List<double>(std::vector<double>(v.u.floats.items, v.u.floats.items + v.u.floats.n));
    if (e->kind() == c10::TypeKind::BoolType && v.tag == TA_VAL_BOOL_LIST) {
        c10::List<bool> l;
        for (size_t i = 0; i < v.u.bools.n; i++) l.push_back(v.u.bools.items[i]);
        return l;
    }
    throw Unsupported("tensoralias: the libtorch bridge cannot build a " + e->annotation_str() + "[] argument");
}

c10::IValue CallState::value_in(const ta_value &v, const c10::Argument &arg)
{
    const c10::TypePtr &type = arg.type();
    if (v.tag == TA_VAL_NONE) return c10::IValue();
    const c10::TypePtr &t = unwrap(type);
    c10::TypeKind k = t->kind();
    naming_ = named_ && !arg.is_out();
    if (k == c10::TypeKind::TensorType) {
        if (v.tag != TA_VAL_TENSOR || !v.u.tensor) throw Unsupported("tensoralias: expected a tensor");
        return tensor_in(v.u.tensor);
    }
    if (k == c10::TypeKind::ListType) return list_in(v, t->containedTypes()[0]);
    if (is_int_like(k)) return c10::IValue(int_of(v));
    if (k == c10::TypeKind::FloatType) return c10::IValue(float_of(v));
    if (k == c10::TypeKind::BoolType) return c10::IValue(int_of(v) != 0);
    if (k == c10::TypeKind::NumberType) return scalar_of(v);
    if (k == c10::TypeKind::StringType && v.tag == TA_VAL_STRING) return c10::IValue(std::string(v.u.s));
    if (k == c10::TypeKind::StringType && v.tag == TA_VAL_DIMNAME) return c10::IValue(dimname_of(v.u.s));
    if (k == c10::TypeKind::DeviceObjType && v.tag == TA_VAL_STRING) return c10::IValue(c10::Device(v.u.s));
    throw Unsupported("tensoralias: the libtorch bridge cannot build argument '" + arg.name() + "' of type " +
                      type->annotation_str());
}

DLTensor *CallState::tensor_out(const at::Tensor &t)
{
    for (auto &in : inputs_)
        if (in.first.unsafeGetTensorImpl() == t.unsafeGetTensorImpl()) return in.second;
    if (!t.defined()) {
        /* An undefined tensor (a gradient ATen was asked not to compute): a
         * fresh empty tensor, which shares nothing. */
        ta_kernel_storage s;
        int64_t zero = 0;
        DLTensor *out;
        if (ta_kernel_storage_new(ctx_, 0, &s) != TA_OK ||
            ta_kernel_tensor_on(ctx_, s.id, DLDataType{kDLFloat, 32, 1}, 1, &zero, nullptr, 0, &out) != TA_OK)
            throw Unsupported("tensoralias: out of memory");
        return out;
    }
    if (t.layout() != at::kStrided || t.device().type() != c10::DeviceType::CPU)
        throw Unsupported("tensoralias: ATen returned a tensor that is not a strided CPU tensor");
    DLDataType dt = dl_type_of(t.scalar_type());
    ta_kernel_storage s;
    if (!engine_storage(t.storage(), s))
        throw Unsupported("tensoralias: ATen returned a tensor over memory the engine did not allocate");
    DLTensor *out;
    if (ta_kernel_tensor_on(ctx_, s.id, dt, (int)t.dim(), t.sizes().data(), t.strides().data(),
                            byte_offset_in(t, s), &out) != TA_OK)
        throw Unsupported("tensoralias: ATen returned a tensor that does not fit its storage");
    return out;
}

void CallState::value_out(const c10::IValue &v, ta_stack *st)
{
    ta_value out{};
    ta_status s;
    if (v.isTensor()) {
        s = ta_stack_push_tensor(st, tensor_out(v.toTensor()));
    } else if (v.isTensorList() || (v.isList() && v.toListRef().size() == 0)) {
        auto l = v.isTensorList() ? v.toTensorVector() : std::vector<at::Tensor>();
        DLTensor **items;
        if (ta_kernel_tensor_array(ctx_, l.size(), &items) != TA_OK)
            throw Unsupported("tensoralias: out of memory");
        for (size_t i = 0; i < l.size(); i++) items[i] = tensor_out(l[i]);
        out.tag = TA_VAL_TENSOR_LIST;
        out.u.tensors.items = items;
        out.u.tensors.n = l.size();
        s = ta_stack_push(st, out);
    } else if (v.isNone()) {
        s = ta_stack_push(st, out);
    } else if (v.isInt() || v.isBool() || v.isDouble()) {
        out.tag = v.isInt() ? TA_VAL_INT : v.isBool() ? TA_VAL_BOOL : TA_VAL_FLOAT;
        if (v.isInt()) out.u.i = v.toInt();
        else if (v.isBool()) out.u.b = v.toBool();
        else out.u.f = v.toDouble();
        s = ta_stack_push(st, out);
    } else if (v.isIntList()) {
        std::vector<int64_t> l = v.toIntVector();
        out.tag = TA_VAL_INT_LIST;
        out.u.ints.items = l.data();
        out.u.ints.n = l.size();
        s = ta_stack_push(st, out); /* the stack copies the list */
    } else if (v.isString()) {
        out.tag = TA_VAL_STRING;
        out.u.s = v.toStringRef().c_str();
        s = ta_stack_push(st, out);
    } else {
        throw Unsupported("tensoralias: the libtorch bridge cannot hand back a result of type " +
                          v.type()->annotation_str());
    }
    if (s != TA_OK) throw Unsupported("tensoralias: out of memory");
}

void CallState::sync_inputs()
{
    for (auto &in : inputs_) {
        const at::Tensor &t = in.first;
        DLTensor *d = in.second;
        const void *data = t.storage().data();
        ta_kernel_storage now, was;
        if (!ta_kernel_storage_of(ctx_, d, &was)) continue;
        uint64_t off = (uint64_t)t.storage_offset() * (uint64_t)t.element_size();
        std::vector<int64_t> strides(d->ndim);
        ta_strides_of(d, strides.data());
        bool kept = data == was.base; /* still on its storage */
        bool same = kept && d->byte_offset == off && t.dim() == d->ndim &&
                    std::equal(t.sizes().begin(), t.sizes().end(), d->shape) &&
                    std::equal(t.strides().begin(), t.strides().end(), strides.begin());
        if (same) continue;
        ta_status s;
        if (kept) {
            s = ta_kernel_restride(ctx_, d, (int)t.dim(), t.sizes().data(), t.strides().data(), off);
        } else {
            if (!engine_storage(t.storage(), now))
                throw Unsupported("tensoralias: ATen moved an argument onto memory the engine did not allocate");
            s = ta_kernel_rebind(ctx_, d, now.id, (int)t.dim(), t.sizes().data(), t.strides().data(),
                                 byte_offset_in(t, now));
        }
        if (s != TA_OK) throw_bad_geometry(t, d);
    }
}

/* t (the argument d) reaches past its storage's end, or could not be
 * rebound for want of memory. */
void CallState::throw_bad_geometry(const at::Tensor &t, const DLTensor *d)
{
    uint64_t item = (uint64_t)t.element_size(), lo = (uint64_t)t.storage_offset() * item, hi = lo;
    bool empty = false;
    for (int64_t i = 0; i < t.dim(); i++) {
        if (t.size(i) == 0) empty = true;
        if (t.stride(i) > 0) hi += (uint64_t)(t.size(i) - 1) * (uint64_t)t.stride(i) * item;
    }
    size_t have = t.storage().nbytes();
    if (empty || hi + item <= have)
        throw Unsupported("tensoralias: ATen left an argument the engine could not take back (out of memory)");
    std::ostringstream m;
    m << "the kernel left the argument viewing bytes [" << lo << ", " << hi + item << ") of a storage of "
      << have << " bytes: sizes " << t.sizes() << " strides " << t.strides() << " storage offset "
      << t.storage_offset();
    throw BadGeometry(d, m.str());
}

} // namespace ta_torch

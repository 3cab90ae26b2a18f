/* dump.cpp - the arguments of every call, as torch receives them, for a
 * replay in torch itself (tools/torch/replay_case.py).
 *
 * With TA_TORCH_DUMP=FILE in the environment, each call appends one JSON
 * line to FILE before ATen runs: {"op": NAME, "args": [...], "storages":
 * {ID: HEX}}. A tensor is {"dtype", "shape", "strides", "offset" (in
 * elements), "storage" (an ID; tensors of one storage share it), and
 * "names" when its dimensions are named}, a storage its whole bytes in hex;
 * a Dimname the string an IValue holds ("dimname::h"); None is null; a non-finite float a string ("nan",
 * "inf", "-inf"); a Device {"device": "cpu"}. Without the variable nothing
 * is written. The judgement of a finding is then a replay away from what
 * torch does with the same bytes, outside the engine. */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include <ATen/core/Tensor.h>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

class Dump {
  public:
    std::string op_line(const std::string &op, const torch::jit::Stack &stack)
    {
        std::ostringstream args;
        for (size_t i = 0; i < stack.size(); i++) {
            if (i) args << ", ";
            value(args, stack[i]);
        }
        std::ostringstream o;
        o << "{\"op\": \"" << op << "\", \"args\": [" << args.str() << "], \"storages\": {";
        bool first = true;
        for (const auto &s : hex_) {
            o << (first ? "" : ", ") << "\"" << s.first << "\": \"" << s.second << "\"";
            first = false;
        }
        o << "}}\n";
        return o.str();
    }

  private:
    void number(std::ostream &o, double v)
    {
        if (std::isnan(v)) o << "\"nan\"";
        else if (std::isinf(v)) o << (v > 0 ? "\"inf\"" : "\"-inf\"");
        else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", v); /* exact: the replay gets the same double */
            o << buf;
        }
    }

    void string(std::ostream &o, const std::string &v)
    {
        o << '"';
        for (char c : v) {
            if (c == '"' || c == '\\') o << '\\';
            o << c;
        }
        o << '"';
    }

    void tensor(std::ostream &o, const at::Tensor &t)
    {
        if (!t.defined()) {
            o << "null";
            return;
        }
        const c10::StorageImpl *impl = t.storage().unsafeGetStorageImpl();
        auto it = ids_.find(impl);
        int id = it != ids_.end() ? it->second : (int)ids_.size();
        if (it == ids_.end()) {
            ids_.emplace(impl, id);
            std::string hex;
            const unsigned char *b = static_cast<const unsigned char *>(t.storage().data());
            static const char digits[] = "0123456789abcdef";
            for (size_t k = 0; k < t.storage().nbytes(); k++) {
                hex += digits[b[k] >> 4];
                hex += digits[b[k] & 15];
            }
            hex_.emplace(id, hex);
        }
        o << "{\"dtype\": \"" << c10::toString(t.scalar_type()) << "\", \"shape\": " << t.sizes()
          << ", \"strides\": " << t.strides() << ", \"offset\": " << t.storage_offset() << ", \"storage\": " << id;
#if TA_TORCH_NAMED_TENSORS
        if (t.has_names()) {
            o << ", \"names\": [";
            for (size_t i = 0; i < t.names().size(); i++) {
                o << (i ? ", " : "");
                string(o, t.names()[i].symbol().toUnqualString());
            }
            o << "]";
        }
#endif
        o << "}";
    }

    void value(std::ostream &o, const c10::IValue &v)
    {
        if (v.isNone()) o << "null";
        else if (v.isTensor()) tensor(o, v.toTensor());
        else if (v.isBool()) o << (v.toBool() ? "true" : "false");
        else if (v.isInt()) o << v.toInt();
        else if (v.isDouble()) number(o, v.toDouble());
        else if (v.isString()) string(o, v.toStringRef());
        else if (v.isDevice()) o << "{\"device\": \"" << v.toDevice().str() << "\"}";
        else if (v.isList()) {
            o << "[";
            bool first = true;
            for (const c10::IValue &e : v.toListRef()) {
                o << (first ? "" : ", ");
                value(o, e);
                first = false;
            }
            o << "]";
        } else {
            o << "\"?" << v.tagKind() << "\"";
        }
    }

    std::map<const c10::StorageImpl *, int> ids_;
    std::map<int, std::string> hex_;
};

} // namespace

void dump_call(const std::string &op, const torch::jit::Stack &stack)
{
    static const char *path = std::getenv("TA_TORCH_DUMP");
    if (!path || !*path) return;
    std::string line = Dump().op_line(op, stack);
    if (FILE *f = std::fopen(path, "a")) {
        std::fwrite(line.data(), 1, line.size(), f);
        std::fclose(f);
    }
}

} // namespace ta_torch

/* python.cpp - the message of an exception a Python kernel raised.
 *
 * A kernel registered from Python (torch.library) that raises leaves
 * Python's error indicator set and throws torch's python_error, whose
 * what() is empty until torch's Python side asks for it. In a Python
 * process (the Python package loads the bridge into one) the exception is
 * taken here through Python's C API, found in the process by name, which
 * also clears the indicator: left set, it would fail every later Python
 * call of the child. Elsewhere (the command) there is no Python and no
 * such exception. */
#include <dlfcn.h>

#include <string>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

template <class F> F python_api(const char *name)
{
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

struct PythonApi {
    int (*ensure)() = python_api<int (*)()>("PyGILState_Ensure");
    void (*release)(int) = python_api<void (*)(int)>("PyGILState_Release");
    void (*fetch)(void **, void **, void **) = python_api<void (*)(void **, void **, void **)>("PyErr_Fetch");
    void (*normalize)(void **, void **, void **) =
        python_api<void (*)(void **, void **, void **)>("PyErr_NormalizeException");
    void (*clear)() = python_api<void (*)()>("PyErr_Clear");
    void *(*str)(void *) = python_api<void *(*)(void *)>("PyObject_Str");
    void *(*attr)(void *, const char *) = python_api<void *(*)(void *, const char *)>("PyObject_GetAttrString");
    const char *(*utf8)(void *) = python_api<const char *(*)(void *)>("PyUnicode_AsUTF8");
    void (*decref)(void *) = python_api<void (*)(void *)>("Py_DecRef");

    bool found() const
    {
        return ensure && release && fetch && normalize && clear && str && attr && utf8 && decref;
    }
    /* str(o), or "" */
    std::string text(void *o) const
    {
        void *s = o ? str(o) : nullptr;
        const char *u = s ? utf8(s) : nullptr;
        std::string out = u ? u : "";
        if (s) decref(s);
        return out;
    }
};

} // namespace

std::string python_error_message()
{
    static const PythonApi py;
    if (!py.found()) return "";
    int gil = py.ensure();
    void *type = nullptr, *value = nullptr, *tb = nullptr;
    py.fetch(&type, &value, &tb);
    std::string msg;
    if (type) {
        py.normalize(&type, &value, &tb);
        void *name = py.attr(type, "__name__");
        msg = py.text(name);
        std::string what = py.text(value);
        if (!what.empty()) msg += (msg.empty() ? "" : ": ") + what;
        if (name) py.decref(name);
        for (void *o : {type, value, tb})
            if (o) py.decref(o);
    }
    py.clear(); /* what the calls above may have raised */
    py.release(gil);
    return msg.empty() ? msg : "Python: " + msg;
}

} // namespace ta_torch

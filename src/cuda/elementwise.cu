/* elementwise.cu - the one device kernel behind every pointwise CUDA reference kernel.
 *
 * A thread takes a logical element index, turns it into each operand's
 * offset through the sizes and strides of the ta_cu_iter (passed by value,
 * so there is no device-side metadata to allocate), loads the inputs in
 * double or int64 as the host decided, applies the op, and stores in the
 * output's dtype. Speed is not the point of a reference kernel; honouring
 * every stride (negative, zero, overlapping reads) is.
 *
 * The per-element code is __host__ __device__: with TA_CUDA_EMULATE=1 in the
 * environment (see ta_cu_emulated) a launch runs the same code in a host
 * loop instead, which is how the tests check the kernels on a machine
 * without a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda/cuda_iface.h"


__host__ __device__ static double load_f(const char *p, int dt)
{
    switch (dt) {
    case TA_CU_U8: return (double)*(const unsigned char *)p;
    case TA_CU_I8: return (double)*(const signed char *)p;
    case TA_CU_I16: return (double)*(const short *)p;
    case TA_CU_I32: return (double)*(const int *)p;
    case TA_CU_I64: return (double)*(const long long *)p;
    case TA_CU_F32: return (double)*(const float *)p;
    case TA_CU_BOOL: return *(const unsigned char *)p ? 1.0 : 0.0;
    default: return *(const double *)p;
    }
}

__host__ __device__ static long long load_i(const char *p, int dt)
{
    switch (dt) {
    case TA_CU_U8: return *(const unsigned char *)p;
    case TA_CU_I8: return *(const signed char *)p;
    case TA_CU_I16: return *(const short *)p;
    case TA_CU_I32: return *(const int *)p;
    case TA_CU_I64: return *(const long long *)p;
    case TA_CU_F32: return (long long)*(const float *)p;
    case TA_CU_BOOL: return *(const unsigned char *)p ? 1 : 0;
    default: return (long long)*(const double *)p;
    }
}

/* Integers narrower than int64 keep the low bits, as a wrapping C cast would. */
__host__ __device__ static void store_i(char *p, int dt, long long v)
{
    switch (dt) {
    case TA_CU_U8: *(unsigned char *)p = (unsigned char)(unsigned long long)v; break;
    case TA_CU_I8: *(signed char *)p = (signed char)(unsigned char)(unsigned long long)v; break;
    case TA_CU_I16: *(short *)p = (short)(unsigned short)(unsigned long long)v; break;
    case TA_CU_I32: *(int *)p = (int)(unsigned int)(unsigned long long)v; break;
    case TA_CU_I64: *(long long *)p = v; break;
    case TA_CU_F32: *(float *)p = (float)v; break;
    case TA_CU_BOOL: *(unsigned char *)p = v != 0; break;
    default: *(double *)p = (double)v; break;
    }
}

__host__ __device__ static void store_f(char *p, int dt, double v)
{
    switch (dt) {
    case TA_CU_F32: *(float *)p = (float)v; break;
    case TA_CU_F64: *(double *)p = v; break;
    case TA_CU_BOOL: *(unsigned char *)p = v != 0.0; break;
    default:
        /* Float to integer truncates toward zero; the host refuses such
         * casts except for copy_, where PyTorch does the same. */
        store_i(p, dt, (long long)v);
        break;
    }
}

__host__ __device__ static double op_f(int op, double a, double b, const ta_cu_scalars &s)
{
    switch (op) {
    case TA_CU_ABS: return fabs(a);
    case TA_CU_NEG: return -a;
    case TA_CU_EXP: return exp(a);
    case TA_CU_LOG: return log(a);
    case TA_CU_SQRT: return sqrt(a);
    case TA_CU_SIN: return sin(a);
    case TA_CU_COS: return cos(a);
    case TA_CU_TANH: return tanh(a);
    case TA_CU_SIGMOID: return 1.0 / (1.0 + exp(-a));
    case TA_CU_RELU: return a > 0.0 || a != a ? a : 0.0; /* NaN passes through */
    case TA_CU_CEIL: return ceil(a);
    case TA_CU_FLOOR: return floor(a);
    case TA_CU_RECIPROCAL: return 1.0 / a;
    case TA_CU_ADD: return a + s.alpha_f * b;
    case TA_CU_SUB: return a - s.alpha_f * b;
    case TA_CU_MUL: return a * b;
    case TA_CU_DIV: return a / b;
    case TA_CU_MAXIMUM: return a != a || b != b ? a + b : (a > b ? a : b);
    case TA_CU_MINIMUM: return a != a || b != b ? a + b : (a < b ? a : b);
    case TA_CU_FILL: return s.other_f;
    default: return a; /* copy */
    }
}

/* Signed overflow wraps, as it does in PyTorch's integer kernels: do it unsigned. */
__host__ __device__ static long long op_i(int op, long long a, long long b, const ta_cu_scalars &s)
{
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    switch (op) {
    case TA_CU_ABS: return a < 0 ? (long long)(0ull - ua) : a;
    case TA_CU_NEG: return (long long)(0ull - ua);
    case TA_CU_RELU: return a > 0 ? a : 0;
    case TA_CU_ADD: return (long long)(ua + (unsigned long long)s.alpha_i * ub);
    case TA_CU_SUB: return (long long)(ua - (unsigned long long)s.alpha_i * ub);
    case TA_CU_MUL: return (long long)(ua * ub);
    case TA_CU_MAXIMUM: return a > b ? a : b;
    case TA_CU_MINIMUM: return a < b ? a : b;
    case TA_CU_FILL: return s.other_i;
    default: return a; /* copy, ceil, floor */
    }
}

__host__ __device__ static void element(const ta_cu_iter &it, int op, const ta_cu_scalars &s, long long lin)
{
    long long off[3] = {0, 0, 0};
    long long rest = lin;
    for (int d = it.ndim - 1; d >= 0; d--) {
        long long idx = rest % it.shape[d];
        rest /= it.shape[d];
        for (int k = 0; k < it.nops; k++) off[k] += idx * it.op[k].stride[d];
    }
    char *out = it.op[0].data + off[0] * it.op[0].elsize;
    const char *pa = it.nops > 1 ? it.op[1].data + off[1] * it.op[1].elsize : NULL;
    const char *pb = it.nops > 2 ? it.op[2].data + off[2] * it.op[2].elsize : NULL;
    if (s.use_float) {
        double a = pa ? load_f(pa, it.op[1].dtype) : 0.0;
        double b = pb ? load_f(pb, it.op[2].dtype) : s.other_f;
        store_f(out, it.op[0].dtype, op_f(op, a, b, s));
    } else {
        long long a = pa ? load_i(pa, it.op[1].dtype) : 0;
        long long b = pb ? load_i(pb, it.op[2].dtype) : s.other_i;
        store_i(out, it.op[0].dtype, op_i(op, a, b, s));
    }
}

__global__ static void elementwise_kernel(ta_cu_iter it, int op, ta_cu_scalars s)
{
    unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long lin = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         lin < (unsigned long long)it.numel; lin += step)
        element(it, op, s, (long long)lin);
}

extern "C" int ta_cu_emulated(void)
{
    const char *e = getenv("TA_CUDA_EMULATE");
    return e && *e && strcmp(e, "0") != 0;
}

static cudaError_t launch(const ta_cu_iter *it, int op, const ta_cu_scalars *s, bool host)
{
    if (it->numel <= 0) return cudaSuccess;
    if (host) {
        for (long long lin = 0; lin < it->numel; lin++) element(*it, op, *s, lin);
        return cudaSuccess;
    }
    long long blocks = (it->numel + 255) / 256;
    if (blocks > 65535) blocks = 65535; /* grid-stride beyond that */
    elementwise_kernel<<<(unsigned)blocks, 256>>>(*it, op, *s);
    return cudaGetLastError();
}

extern "C" int ta_cu_launch(const ta_cu_iter *it, ta_cu_opcode op, const ta_cu_scalars *s, int via_scratch,
                            char *err, size_t errcap)
{
    if (it->ndim < 0 || it->ndim > TA_CU_MAXDIM || it->nops < 1 || it->nops > 3)
        return ta_cu_fail(err, errcap, "internal: bad elementwise launch");
    bool host = ta_cu_emulated() != 0;
    if (!via_scratch) {
        cudaError_t e = launch(it, op, s, host);
        return e == cudaSuccess ? 0 : ta_cu_fail(err, errcap, "kernel launch failed: %s", cudaGetErrorString(e));
    }
    /* Compute into a private contiguous buffer of the output's dtype, then
     * copy it over the output: no element is read after it was written. */
    ta_cu_iter tmp = *it;
    size_t bytes = (size_t)it->numel * (size_t)it->op[0].elsize;
    char *scratch = NULL;
    cudaError_t e = cudaSuccess;
    if (host) scratch = (char *)malloc(bytes ? bytes : 1);
    else e = cudaMalloc(&scratch, bytes ? bytes : 1);
    if (e != cudaSuccess || !scratch)
        return ta_cu_fail(err, errcap, "allocating %zu scratch bytes failed: %s", bytes,
                    host ? "out of memory" : cudaGetErrorString(e));
    tmp.op[0].data = scratch;
    int64_t st = 1;
    for (int d = it->ndim - 1; d >= 0; d--) {
        tmp.op[0].stride[d] = st;
        st *= it->shape[d];
    }
    e = launch(&tmp, op, s, host);
    if (e == cudaSuccess) {
        ta_cu_iter back = *it;
        back.nops = 2;
        back.op[1] = tmp.op[0];
        ta_cu_scalars cs = *s;
        /* A same-dtype copy: integers move exactly, floats through double. */
        cs.use_float = it->op[0].dtype == TA_CU_F32 || it->op[0].dtype == TA_CU_F64;
        e = launch(&back, TA_CU_COPY, &cs, host);
    }
    if (host) {
        free(scratch);
    } else {
        cudaError_t f = cudaFree(scratch); /* waits for both kernels */
        if (e == cudaSuccess) e = f;
    }
    return e == cudaSuccess ? 0 : ta_cu_fail(err, errcap, "kernel launch failed: %s", cudaGetErrorString(e));
}

// HGEMM C = A·Bᵀ (fp16 in, fp16 out; A M×K and B N×K K-major, C M×N column-major: CuTe's gemm_tn)
// on one GPU, in one process: the generated kernels (gpu/gemm/launch.cuh: the mma.sync HGEMM,
// fp16 and fp32 accumulate; gpu/hopper/launch.cuh: the TMA + wgmma GEMM, fp16 and fp32
// accumulate), CuTe's tutorial kernels (gpu/cute_gemm.cu: sgemm_sm80; gpu/cute_wgmma.cu:
// hopper/wgmma_sm90; gpu/cute_wgmma_tma.cu: hopper/wgmma_tma_sm90, all three fp16 accumulate)
// and cuBLAS (cublasGemmEx, compute 32F and 16F). Built for sm_90a (gpu/gemm.sh).
//
// Every check: fresh random A and B (fp16 j/2048, j uniform in [-2048, 2048), a new seed each
// time), C poisoned with NaN (0xFFFF), one launch, then every element compared with a reference
// GEMM of its own (fp32 accumulate, 64-bit indices, shares no code with the kernels under test).
// Tolerance, one rule for every kernel and size:
//     |C - ref| ≤ TOL_C · sqrt(K) · eps16 · max|ref|,   eps16 = 2⁻¹⁰, TOL_C = 0.25 (env GEMM_TOL_C)
// For random inputs max|ref| grows like sqrt(K), and an fp16 accumulator (mma.sync and wgmma round
// it once per 16-deep k-step) adds K/16 roundings of partial sums of size ~sqrt(k): an error growing like
// eps16 · K, i.e. like sqrt(K) · eps16 · max|ref|. Emulating that (round-to-nearest after each
// 16-deep step) gives max error ≈ 0.04 · sqrt(K) · eps16 · max|ref| over 4096² elements at K = 4096
// and 8192, so TOL_C = 0.25 leaves CuTe's fp16-accumulate kernel a margin of about 6 at 8192³,
// while a dropped 16-deep k-step (error ~ max|ref| / sqrt(K)) still fails at every size here. fp32
// accumulators stay far below it (the "c" column prints the measured max|C - ref| /
// (sqrt(K) · eps16 · max|ref|), so the margin of each kernel is visible). A NaN or Inf never
// passes. Timing: CUDA events around each launch (queued behind a short spin kernel, so the host's
// launch overhead is not timed), WARM warm-ups, the median of REPS launches;
// where one set of A, B, C fits in L2 the launches rotate over enough sets to exceed twice the L2.
// CuTe's tutorials have no residue handling: their rows are skipped ("no residue") where the
// problem is not whole tiles; ours and cuBLAS run at every size, and a refusal of ours is a failure.
//
// Usage: gemm_bench [MxNxK ...]      (default: 4096³, 8192³, 4000×4000×4104, 300×260×200)
//        gemm_bench --ncu            (one checked launch of every kernel at the first size, for ncu)
// Exit status: 0 only when every check of every kernel passed and no CUDA/cuBLAS error occurred.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "gemm/launch.cuh"
#ifndef NO_HOPPER
// gpu/hopper/launch.cuh's entry points, forwarded by gpu/gemm_bench_hopper.cu (its own unit).
bool bench_hg_gemm_supported(int M, int N, int K, int lda, int ldb, int ldc, const void* A, const void* B,
                             const void* C);
cudaError_t bench_hg_gemm_tn_f16acc(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                                    __half* C, int ldc, cudaStream_t s);
cudaError_t bench_hg_gemm_tn_f32acc(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                                    __half* C, int ldc, cudaStream_t s);
#endif
#ifndef NO_CUTE
#include "cute_gemm.h"
#endif
#ifndef NO_CUTE_HOPPER
#include "cute_hopper.h"
#endif

static const int WARM = 5, REPS = 31, CHECKS = 2;  // checks: one before timing, one after
static const double EPS16 = 1.0 / 1024.0;

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// A kernel of ours refusing a problem of the table (its launcher's `supported` check).
struct Refused : Error {
    using Error::Error;
};
#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess)                                                                 \
            throw Error(std::string(#x) + ": " + cudaGetErrorString(e_) + " (line " +          \
                        std::to_string(__LINE__) + ")");                                       \
    } while (0)
#define CB(x)                                                                                  \
    do {                                                                                       \
        cublasStatus_t s_ = (x);                                                               \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                       \
            throw Error(std::string(#x) + ": " + cublasGetStatusString(s_) + " (line " +       \
                        std::to_string(__LINE__) + ")");                                       \
    } while (0)

// ---------------------------------------------------------------------------------------------
// Data, reference, comparison (64-bit index arithmetic throughout)

__device__ __forceinline__ uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
    return x;
}
// p[i] = j / 2048 with j uniform in [-2048, 2048): exact in fp16, uniform in [-1, 1).
__global__ void fill_uniform(__half* p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        int j = (int)(mix(i * 0x9e3779b97f4a7c15ull ^ seed) >> 52) - 2048;  // 12 bits
        p[i] = __float2half((float)j * (1.0f / 2048.0f));
    }
}
// ref(m, n) = Σ_k A(m, k)·B(n, k) in fp32 (products of fp16 are exact in fp32). One 32×32 tile of
// ref per block of 32×8 threads; thread (x, y) owns ref(m0 + x, n0 + y + 8j), j < 4.
__global__ void __launch_bounds__(256) reference_gemm(int64_t M, int64_t N, int64_t K, const __half* A, int64_t lda,
                                                      const __half* B, int64_t ldb, float* ref) {
    __shared__ float sa[32][33], sb[32][33];  // [row][k]
    int64_t x = threadIdx.x % 32, y = threadIdx.x / 32;
    int64_t m0 = (int64_t)blockIdx.x * 32, n0 = (int64_t)blockIdx.y * 32;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t k0 = 0; k0 < K; k0 += 32) {
        for (int64_t r = y; r < 32; r += 8) {
            int64_t k = k0 + x;
            sa[r][x] = (m0 + r < M && k < K) ? __half2float(A[(m0 + r) * lda + k]) : 0.0f;
            sb[r][x] = (n0 + r < N && k < K) ? __half2float(B[(n0 + r) * ldb + k]) : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk) {
            float a = sa[x][kk];
            for (int j = 0; j < 4; ++j) acc[j] = fmaf(a, sb[y + 8 * j][kk], acc[j]);
        }
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j) {
        int64_t m = m0 + x, n = n0 + y + 8 * j;
        if (m < M && n < N) ref[m + n * M] = acc[j];
    }
}
// Non-negative floats order like their bit patterns.
__global__ void max_abs(const float* ref, size_t n, unsigned* out) {
    unsigned best = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        best = max(best, __float_as_uint(fabsf(ref[i])));
    atomicMax(out, best);
}
struct Tally {
    unsigned long long bad, nonfinite;
    unsigned max_err;  // bits of the largest finite |C - ref|
};
__global__ void compare(const __half* C, int64_t ldc, const float* ref, int64_t M, int64_t N, float tol, Tally* t) {
    unsigned long long bad = 0, nonfinite = 0;
    unsigned worst = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < M * N; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t m = i % M, n = i / M;
        float c = __half2float(C[m + n * ldc]);
        float e = fabsf(c - ref[i]);
        if (!isfinite(c)) ++nonfinite;
        else worst = max(worst, __float_as_uint(e));
        if (!(e <= tol)) ++bad;  // NaN fails
    }
    if (bad) atomicAdd(&t->bad, bad);
    if (nonfinite) atomicAdd(&t->nonfinite, nonfinite);
    atomicMax(&t->max_err, worst);
}

// ---------------------------------------------------------------------------------------------
// The kernels under test

struct Problem {
    int M, N, K, lda, ldb, ldc;
};
struct Operands {
    __half *A, *B, *C;
};
static cublasHandle_t blas;

struct Gemm {
    const char* name;
    // Whether the kernel computes this problem; false: the row is skipped ("no residue"). Ours and
    // cuBLAS say `always`: a refusal of theirs is an error of the row, not a skip.
    bool (*supported)(const Problem&, const Operands&);
    void (*run)(const Problem&, const Operands&);
};
static bool always(const Problem&, const Operands&) { return true; }
static void run_gen_f16(const Problem& p, const Operands& o) {
    CK(gen_gemm_tn_f16acc(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
static void run_gen_f32(const Problem& p, const Operands& o) {
    CK(gen_gemm_tn_f32acc(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
static void run_gen_f16_linear(const Problem& p, const Operands& o) {
    CK(gen_gemm_tn_f16acc_linear(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
static void run_gen_f32_linear(const Problem& p, const Operands& o) {
    CK(gen_gemm_tn_f32acc_linear(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
#ifndef NO_HOPPER
static void hg_check_supported(const Problem& p, const Operands& o) {
    if (!bench_hg_gemm_supported(p.M, p.N, p.K, p.lda, p.ldb, p.ldc, o.A, o.B, o.C))
        throw Refused("hg_gemm_supported refuses " + std::to_string(p.M) + "x" + std::to_string(p.N) + "x" +
                    std::to_string(p.K) + " (lda " + std::to_string(p.lda) + ", ldb " + std::to_string(p.ldb) +
                    ", ldc " + std::to_string(p.ldc) + ")");
}
static void run_hg_f16(const Problem& p, const Operands& o) {
    hg_check_supported(p, o);
    CK(bench_hg_gemm_tn_f16acc(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
static void run_hg_f32(const Problem& p, const Operands& o) {
    hg_check_supported(p, o);
    CK(bench_hg_gemm_tn_f32acc(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
#endif
#ifndef NO_CUTE
static bool cute_ok(const Problem& p, const Operands&) {
    return cute_gemm_tn_supported(p.M, p.N, p.K, p.lda, p.ldb, p.ldc);
}
static void run_cute(const Problem& p, const Operands& o) {
    CK(cute_gemm_tn(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
#endif
#ifndef NO_CUTE_HOPPER
static bool cute_wgmma_ok(const Problem& p, const Operands& o) {
    return cute_wgmma_tn_supported(p.M, p.N, p.K, p.lda, p.ldb, p.ldc, o.A, o.B);
}
static void run_cute_wgmma(const Problem& p, const Operands& o) {
    CK(cute_wgmma_tn(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
static bool cute_wgmma_tma_ok(const Problem& p, const Operands& o) {
    return cute_wgmma_tma_tn_supported(p.M, p.N, p.K, p.lda, p.ldb, p.ldc, o.A, o.B);
}
static void run_cute_wgmma_tma(const Problem& p, const Operands& o) {
    CK(cute_wgmma_tma_tn(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, o.C, p.ldc, 0));
}
#endif
// Column-major cuBLAS: A's buffer is a K×M column-major matrix (ld lda), so op(A) = T gives the
// M×K operand; B's buffer is K×N column-major (ld ldb), op(B) = N: C(m, n) = Σ_k A[m·lda + k]·B[n·ldb + k].
static void run_cublas_32f(const Problem& p, const Operands& o) {
    float alpha = 1.0f, beta = 0.0f;
    CB(cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, p.M, p.N, p.K, &alpha, o.A, CUDA_R_16F, p.lda, o.B,
                    CUDA_R_16F, p.ldb, &beta, o.C, CUDA_R_16F, p.ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}
static void run_cublas_16f(const Problem& p, const Operands& o) {
    __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
    CB(cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, p.M, p.N, p.K, &alpha, o.A, CUDA_R_16F, p.lda, o.B,
                    CUDA_R_16F, p.ldb, &beta, o.C, CUDA_R_16F, p.ldc, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT));
}
static const Gemm GEMMS[] = {
    {"gen_gemm_tn_f16acc_linear", always, run_gen_f16_linear},
    {"gen_gemm_tn_f32acc_linear", always, run_gen_f32_linear},
    {"gen_gemm_tn_f16acc", always, run_gen_f16},
    {"gen_gemm_tn_f32acc", always, run_gen_f32},
#ifndef NO_HOPPER
    {"hg_gemm_tn_f16acc", always, run_hg_f16},
    {"hg_gemm_tn_f32acc", always, run_hg_f32},
#endif
#ifndef NO_CUTE
    {"cute_sgemm_sm80_tn", cute_ok, run_cute},
#endif
#ifndef NO_CUTE_HOPPER
    {"cute_wgmma_sm90_tn", cute_wgmma_ok, run_cute_wgmma},
    {"cute_wgmma_tma_sm90_tn", cute_wgmma_tma_ok, run_cute_wgmma_tma},
#endif
    {"cublas_compute_32f", always, run_cublas_32f},
    {"cublas_compute_16f", always, run_cublas_16f},
};
static const int NG = sizeof GEMMS / sizeof GEMMS[0];

// ---------------------------------------------------------------------------------------------
// Checking and timing

static float* d_ref;
static Tally* d_tally;
static unsigned* d_max;
static uint64_t seed_counter = 1;
static double tol_c = 0.25;

struct Check {
    unsigned long long bad = 0, nonfinite = 0;
    double max_err = 0, max_ref = 0, tol = 0;
};
static Check check(const Gemm& g, const Problem& p, const Operands& o) {
    const size_t na = (size_t)p.M * p.lda, nb = (size_t)p.N * p.ldb, nc = (size_t)p.N * p.ldc;
    fill_uniform<<<2048, 256>>>(o.A, na, 0x51ed270b27f3e1a1ull * seed_counter++);
    fill_uniform<<<2048, 256>>>(o.B, nb, 0x51ed270b27f3e1a1ull * seed_counter++);
    CK(cudaGetLastError());
    CK(cudaMemset(o.C, 0xFF, nc * sizeof(__half)));  // 0xFFFF: NaN
    CK(cudaDeviceSynchronize());
    g.run(p, o);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    reference_gemm<<<dim3((p.M + 31) / 32, (p.N + 31) / 32), 256>>>(p.M, p.N, p.K, o.A, p.lda, o.B, p.ldb, d_ref);
    CK(cudaMemset(d_max, 0, sizeof(unsigned)));
    max_abs<<<2048, 256>>>(d_ref, (size_t)p.M * p.N, d_max);
    CK(cudaGetLastError());
    unsigned mbits;
    CK(cudaMemcpy(&mbits, d_max, sizeof mbits, cudaMemcpyDeviceToHost));
    Check c;
    float max_ref;
    memcpy(&max_ref, &mbits, sizeof max_ref);
    c.max_ref = max_ref;
    c.tol = tol_c * std::sqrt((double)p.K) * EPS16 * c.max_ref;
    CK(cudaMemset(d_tally, 0, sizeof(Tally)));
    compare<<<2048, 256>>>(o.C, p.ldc, d_ref, p.M, p.N, (float)c.tol, d_tally);
    CK(cudaGetLastError());
    Tally t;
    CK(cudaMemcpy(&t, d_tally, sizeof t, cudaMemcpyDeviceToHost));
    float e;
    memcpy(&e, &t.max_err, sizeof e);
    c.bad = t.bad;
    c.nonfinite = t.nonfinite;
    c.max_err = t.nonfinite ? INFINITY : e;
    return c;
}

// Keeps the GPU busy while the host enqueues the start event and the launch, so that the timed
// interval holds the kernel alone and not the host's launch overhead (cuBLAS's heuristics, CuTe's
// cudaFuncSetAttribute calls, the Hopper launchers' tensor-map encoding and cluster launch, ...).
// About 200 µs: several times any of these.
__global__ void spin(long long cycles) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

static float median_ms(const Gemm& g, const Problem& p, const std::vector<Operands>& sets) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    size_t next = 0;
    for (int i = 0; i < WARM; ++i) g.run(p, sets[next++ % sets.size()]);
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < REPS; ++i) {
        const Operands& o = sets[next++ % sets.size()];
        spin<<<1, 1>>>(400000);  // about 200 µs at 1.98 GHz
        CK(cudaEventRecord(a));
        g.run(p, o);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return t[REPS / 2];
}

struct Row {
    std::string kernel, size, result = "not run";
    double tflops = 0, max_err = -1, c_needed = -1;
    bool ok = false, ran = false;
};

static bool parse_size(const char* s, Problem& p) {
    if (sscanf(s, "%dx%dx%d", &p.M, &p.N, &p.K) != 3 || p.M < 1 || p.N < 1 || p.K < 1) return false;
    p.lda = p.K, p.ldb = p.K, p.ldc = p.M;
    return true;
}

// The anchors of the ratio columns: CuTe's Hopper tutorial with TMA, cuBLAS compute 32F and 16F.
static const char* const ANCHORS[] = {"cute_wgmma_tma_sm90_tn", "cublas_compute_32f", "cublas_compute_16f"};
static const int NA = sizeof ANCHORS / sizeof ANCHORS[0];

static void print_table(const std::vector<Row>& rows, const std::vector<Problem>& probs) {
    printf("\n%-26s %-16s %9s %9s %9s %9s %-28s %10s %7s\n", "kernel", "MxNxK", "TFLOP/s", "/CuTeTMA",
           "/cuBLAS32", "/cuBLAS16", "check (every element)", "max err", "c");
    for (size_t pi = 0; pi < probs.size(); ++pi) {
        double anchor[NA] = {};
        for (int g = 0; g < NG; ++g) {
            const Row& r = rows[pi * NG + g];
            for (int a = 0; a < NA; ++a)
                if (r.kernel == ANCHORS[a] && r.ok && r.ran) anchor[a] = r.tflops;
        }
        for (int g = 0; g < NG; ++g) {
            const Row& r = rows[pi * NG + g];
            char tf[32] = "-", ra[NA][32] = {"-", "-", "-"}, me[32] = "-", cn[32] = "-";
            if (r.ran && r.tflops > 0) snprintf(tf, sizeof tf, "%.1f", r.tflops);
            for (int a = 0; a < NA; ++a)
                if (r.ran && r.tflops > 0 && anchor[a] > 0) snprintf(ra[a], sizeof ra[a], "%.3f", r.tflops / anchor[a]);
            if (r.max_err >= 0) snprintf(me, sizeof me, "%.3g", r.max_err);
            if (r.c_needed >= 0) snprintf(cn, sizeof cn, "%.3f", r.c_needed);
            printf("%-26s %-16s %9s %9s %9s %9s %-28s %10s %7s\n", r.kernel.c_str(), r.size.c_str(), tf, ra[0],
                   ra[1], ra[2], r.result.c_str(), me, cn);
        }
    }
    printf("(TFLOP/s: 2MNK over the median of %d launches after %d warm-ups, CUDA events; /CuTeTMA,\n"
           " /cuBLAS32, /cuBLAS16: ratio to CuTe's tutorial hopper/wgmma_tma_sm90 (fp16 accumulate) and to\n"
           " cuBLAS compute 32F and 16F at the same size (\"-\" where that row did not pass); check: %d checks\n"
           " of every element on fresh data, tolerance %.3g·sqrt(K)·eps16·max|ref|; max err: the largest\n"
           " |C - ref| over the checks; c: max err / (sqrt(K)·eps16·max|ref|), the TOL_C it needs)\n",
           REPS, WARM, CHECKS, tol_c);
}

int main(int argc, char** argv) {
    bool ncu = argc > 1 && strcmp(argv[1], "--ncu") == 0;
    if (const char* s = getenv("GEMM_TOL_C")) tol_c = atof(s);
    std::vector<Problem> probs;
    for (int i = 1; i < argc && !ncu; ++i) {
        Problem p;
        if (!parse_size(argv[i], p)) { fprintf(stderr, "bad size %s (want MxNxK)\n", argv[i]); return 2; }
        probs.push_back(p);
    }
    if (probs.empty()) {
        const char* def[] = {"4096x4096x4096", "8192x8192x8192", "4000x4000x4104", "300x260x200"};
        for (const char* s : def) {
            Problem p;
            parse_size(s, p);
            probs.push_back(p);
            if (ncu) break;
        }
    }
    std::vector<Row> rows;
    for (const Problem& p : probs)
        for (const Gemm& g : GEMMS) {
            Row r;
            r.kernel = g.name;
            r.size = std::to_string(p.M) + "x" + std::to_string(p.N) + "x" + std::to_string(p.K);
            rows.push_back(r);
        }
    bool failed = false, lost = false;
    try {
        cudaDeviceProp dp;
        CK(cudaGetDeviceProperties(&dp, 0));
        int drv = 0, rt = 0, cbv = 0;
        CK(cudaDriverGetVersion(&drv));
        CK(cudaRuntimeGetVersion(&rt));
        CB(cublasCreate(&blas));
        CB(cublasGetVersion(blas, &cbv));
        CB(cublasSetStream(blas, 0));
        printf("device: %s, %d SMs, %.1f MB L2, driver %d, runtime %d, cuBLAS %d\n", dp.name,
               dp.multiProcessorCount, dp.l2CacheSize / 1e6, drv, rt, cbv);
        size_t max_ref = 0;
        for (const Problem& p : probs) max_ref = std::max(max_ref, (size_t)p.M * p.N);
        CK(cudaMalloc(&d_ref, max_ref * sizeof(float)));
        CK(cudaMalloc(&d_tally, sizeof(Tally)));
        CK(cudaMalloc(&d_max, sizeof(unsigned)));
        if (ncu) {  // one checked launch of each kernel of ours and CuTe's (ncu filters by name)
            const Problem& p = probs[0];
            Operands o;
            CK(cudaMalloc(&o.A, (size_t)p.M * p.lda * 2));
            CK(cudaMalloc(&o.B, (size_t)p.N * p.ldb * 2));
            CK(cudaMalloc(&o.C, (size_t)p.N * p.ldc * 2));
            for (const Gemm& g : GEMMS) {
                if (!g.supported(p, o)) continue;
                Check c = check(g, p, o);
                printf("%s %s: %llu bad, max err %.3g\n", g.name, rows[0].size.c_str(), c.bad, c.max_err);
                failed |= c.bad != 0;
            }
            return failed ? 1 : 0;
        }
        for (size_t pi = 0; pi < probs.size() && !lost; ++pi) {
            const Problem& p = probs[pi];
            const size_t na = (size_t)p.M * p.lda, nb = (size_t)p.N * p.ldb, nc = (size_t)p.N * p.ldc;
            const size_t set_bytes = (na + nb + nc) * sizeof(__half);
            size_t nsets = 1;
            if (set_bytes < (size_t)dp.l2CacheSize)
                nsets = std::min<size_t>(256, (2 * (size_t)dp.l2CacheSize + set_bytes - 1) / set_bytes);
            printf("\n%dx%dx%d: lda %d, ldb %d, ldc %d; one set of A, B, C = %.1f MB %s L2 (%.1f MB): "
                   "timing rotates over %zu set%s\n",
                   p.M, p.N, p.K, p.lda, p.ldb, p.ldc, set_bytes / 1e6, nsets > 1 ? "fits in" : "exceeds",
                   dp.l2CacheSize / 1e6, nsets, nsets > 1 ? "s" : "");
            std::vector<Operands> sets(nsets);
            for (Operands& o : sets) {
                CK(cudaMalloc(&o.A, na * sizeof(__half)));
                CK(cudaMalloc(&o.B, nb * sizeof(__half)));
                CK(cudaMalloc(&o.C, nc * sizeof(__half)));
                fill_uniform<<<2048, 256>>>(o.A, na, 0x9e3779b97f4a7c15ull * seed_counter++);
                fill_uniform<<<2048, 256>>>(o.B, nb, 0x9e3779b97f4a7c15ull * seed_counter++);
            }
            CK(cudaDeviceSynchronize());
            for (int gi = 0; gi < NG && !lost; ++gi) {
                const Gemm& g = GEMMS[gi];
                Row& r = rows[pi * NG + gi];
                if (!g.supported(p, sets[0])) {
                    r.result = "skipped: no residue";
                    r.ok = true;
                    continue;
                }
                try {
                    r.ran = true;
                    Check c1 = check(g, p, sets[0]);
                    double flops = 2.0 * p.M * p.N * p.K;
                    float ms = median_ms(g, p, sets);
                    r.tflops = flops / (ms * 1e-3) / 1e12;
                    Check c2 = check(g, p, sets[0]);
                    unsigned long long bad = c1.bad + c2.bad, nonfinite = c1.nonfinite + c2.nonfinite;
                    r.max_err = std::max(c1.max_err, c2.max_err);
                    double scale = std::sqrt((double)p.K) * EPS16;
                    r.c_needed = std::max(c1.max_err / (scale * c1.max_ref), c2.max_err / (scale * c2.max_ref));
                    r.ok = bad == 0;
                    if (r.ok) r.result = "ok";
                    else {
                        r.result = "FAIL " + std::to_string(bad) + " bad";
                        if (nonfinite) r.result += ", " + std::to_string(nonfinite) + " NaN/Inf";
                    }
                    printf("  %-26s %8.3f ms %8.1f TFLOP/s  %s, max err %.3g (tol %.3g, max|ref| %.4g)\n", g.name,
                           ms, r.tflops, r.result.c_str(), r.max_err, c1.tol, c1.max_ref);
                } catch (const Error& e) {
                    r.ok = false;
                    r.tflops = 0;
                    r.result = dynamic_cast<const Refused*>(&e) ? "FAIL: refused" : "CUDA/cuBLAS ERROR";
                    fprintf(stderr, "%s %s: %s\n", g.name, r.size.c_str(), e.what());
                    printf("  %-26s ERROR: %s\n", g.name, e.what());
                    // A sticky error (illegal address, ...) loses the context: nothing runs after it.
                    cudaGetLastError();
                    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) lost = true;
                }
                fflush(stdout);
            }
            if (!lost)
                for (Operands& o : sets) {
                    CK(cudaFree(o.A));
                    CK(cudaFree(o.B));
                    CK(cudaFree(o.C));
                }
        }
    } catch (const Error& e) {
        fprintf(stderr, "fatal: %s\n", e.what());
        printf("fatal: %s\n", e.what());
        lost = true;
    }
    if (lost) printf("the CUDA context is lost: the rows after the error were not run\n");
    for (const Row& r : rows) failed |= !r.ok;
    print_table(rows, probs);
    return failed || lost ? 1 : 0;
}

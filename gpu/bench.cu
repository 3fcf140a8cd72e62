// The generated kernels (gen/kernels.cu) against CuTe and hand-written baselines on one
// GPU. For every kernel: fresh random input, poisoned output, every element checked (at the dense
// leading dimension and at a padded one), then the median of REPS timed launches after warm-up
// (CUDA events), in GB/s of bytes read + written, against a device-to-device cudaMemcpy.
// Usage: bench SASS_COUNTS_FILE   (lines "kernel slots instructions", from gpu/run.sh)
//        bench --once              (one checked launch of each kernel, for ncu)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "gen/kernels.cu"
#include "hand_kernels.cuh"
#ifndef NO_CUTE
#include "cute_kernels.cuh"
#endif

#define CK(x)                                                                          \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(2);                                                                   \
        }                                                                              \
    } while (0)

static const int WARM = 5, REPS = 31;
static const int64_t TN = 16384;                  // (a) TN × TN fp32
static const int64_t SM = 16384, SN = 32768;      // (b) SM × SN fp16
static const int64_t PAD_T = 32, PAD_S = 64;      // padded leading dimensions for the 2nd check

__device__ __forceinline__ uint32_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
    return (uint32_t)x;
}
// Random floats in [-1, 1) (fp32) or random 16-bit patterns, per seed.
__global__ void fill_f32(float* p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (float)(mix(i * 0x9e3779b97f4a7c15ull + seed) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}
__global__ void fill_u16(uint16_t* p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (uint16_t)(mix(i * 0x9e3779b97f4a7c15ull + seed) >> 7);
}
// Reference checks in 64-bit index arithmetic, independent of every kernel under test.
__global__ void check_transpose(const uint32_t* in, const uint32_t* out, int64_t m, int64_t n,
                                int64_t ld_in, int64_t ld_out, unsigned long long* bad) {
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < (size_t)(m * n); k += (size_t)gridDim.x * blockDim.x) {
        int64_t i = k / n, j = k % n;
        if (out[j * ld_out + i] != in[i * ld_in + j]) atomicAdd(bad, 1ull);
    }
}
__global__ void check_copy(const uint16_t* in, const uint16_t* out, int64_t m, int64_t n,
                           int64_t ld_in, int64_t ld_out, unsigned long long* bad) {
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < (size_t)(m * n); k += (size_t)gridDim.x * blockDim.x) {
        int64_t i = k / n, j = k % n;
        if (out[i * ld_out + j] != in[i * ld_in + j]) atomicAdd(bad, 1ull);
    }
}

struct Kernel {
    const char* name;  // the SASS function name
    bool transpose;    // (a) or (b)
    void (*launch)(const void* in, void* out, int ld_in, int ld_out);
};

static void l_gen_t(const void* i, void* o, int a, int b) {
    gen_transpose<<<dim3(TN / 32, TN / 32), 256>>>((const float*)i, (float*)o, a, b);
}
static void l_gen_tr(const void* i, void* o, int a, int b) {
    gen_transpose_r<<<dim3(TN / 32, TN / 32), 256>>>((const float*)i, (float*)o, a, b);
}
static void l_gen_t4(const void* i, void* o, int a, int b) {
    gen_transpose_v4<<<dim3(TN / 32, TN / 32), 256>>>((const float*)i, (float*)o, a, b);
}
#ifndef NO_CUTE
static void l_cute_t(const void* i, void* o, int a, int b) {
    cute_transpose<<<dim3(TN / 32, TN / 32), 256>>>((const float*)i, (float*)o, TN, TN, a, b);
}
static void l_cute_tr(const void* i, void* o, int a, int b) {
    cute_transpose_r<<<dim3(TN / 32, TN / 32), 256>>>((const float*)i, (float*)o, TN, TN, a, b);
}
#endif
static void l_hand_t(const void* i, void* o, int a, int b) {
    hand_transpose<<<dim3(TN / 32, TN / 32), 256>>>((const float*)i, (float*)o, a, b);
}
static void l_gen_s(const void* i, void* o, int a, int b) {
    gen_stage<<<dim3(SN / 64, SM / 128), 128>>>((const uint16_t*)i, (uint16_t*)o, a, b);
}
#ifndef NO_CUTE
static void l_cute_s(const void* i, void* o, int a, int b) {
    cute_stage<<<dim3(SN / 64, SM / 128), 128>>>((const cute::half_t*)i, (cute::half_t*)o, SM, SN, a, b);
}
#endif
static void l_hand_s(const void* i, void* o, int a, int b) {
    hand_stage<<<dim3(SN / 64, SM / 128), 128>>>((const uint16_t*)i, (uint16_t*)o, a, b);
}

static void* d_in;
static void* d_out;
static unsigned long long* d_bad;
static size_t cap;
static uint64_t seed_counter = 1;

// Fresh random input, poisoned output, one launch, every element compared.
static unsigned long long check(const Kernel& k, int64_t ld) {
    int64_t m = k.transpose ? TN : SM, n = k.transpose ? TN : SN;
    size_t esz = k.transpose ? 4 : 2, bytes = (size_t)m * ld * esz;
    if (bytes > cap) { fprintf(stderr, "buffer too small\n"); exit(2); }
    if (!gen_fits_i32(m, n, ld) || !gen_vector_ok(ld, k.transpose ? 4 : 8)) { fprintf(stderr, "ld %lld does not fit int32_t\n", (long long)ld); exit(2); }
    uint64_t seed = 0x1234567ull * (seed_counter++);
    if (k.transpose) fill_f32<<<4096, 256>>>((float*)d_in, bytes / 4, seed);
    else fill_u16<<<4096, 256>>>((uint16_t*)d_in, bytes / 2, seed);
    CK(cudaGetLastError());
    CK(cudaMemset(d_out, 0xFF, bytes));
    CK(cudaMemset(d_bad, 0, sizeof(unsigned long long)));
    k.launch(d_in, d_out, (int)ld, (int)ld);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (k.transpose) check_transpose<<<4096, 256>>>((const uint32_t*)d_in, (const uint32_t*)d_out, m, n, ld, ld, d_bad);
    else check_copy<<<4096, 256>>>((const uint16_t*)d_in, (const uint16_t*)d_out, m, n, ld, ld, d_bad);
    CK(cudaGetLastError());
    unsigned long long bad = 0;
    CK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    return bad;
}

template <class F>
static float median_ms(F f) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < WARM; ++i) f();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < REPS; ++i) {
        CK(cudaEventRecord(a));
        f();
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

int main(int argc, char** argv) {
    std::map<std::string, std::string> sass;
    bool once = argc > 1 && strcmp(argv[1], "--once") == 0;
    if (argc > 1 && !once) {
        FILE* f = fopen(argv[1], "r");
        char name[256];
        int slots, instr;
        while (f && fscanf(f, "%255s %d %d", name, &slots, &instr) == 3)
            sass[name] = std::to_string(slots) + "/" + std::to_string(instr);
        if (f) fclose(f);
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int drv = 0, rt = 0;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    printf("device: %s, %d SMs, %.0f MB L2, driver %d, runtime %d\n", p.name, p.multiProcessorCount,
           p.l2CacheSize / 1e6, drv, rt);
    cap = std::max((size_t)TN * (TN + PAD_T) * 4, (size_t)SM * (SN + PAD_S) * 2);
    CK(cudaMalloc(&d_in, cap));
    CK(cudaMalloc(&d_out, cap));
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));
    const size_t bytes = (size_t)TN * TN * 4;  // = SM * SN * 2 = 1 GiB each way
    const Kernel ks[] = {
        {"gen_transpose", true, l_gen_t},   {"gen_transpose_v4", true, l_gen_t4},
        {"gen_transpose_r", true, l_gen_tr},
#ifndef NO_CUTE
        {"cute_transpose", true, l_cute_t}, {"cute_transpose_r", true, l_cute_tr},
#endif
        {"hand_transpose", true, l_hand_t}, {"gen_stage", false, l_gen_s},
#ifndef NO_CUTE
        {"cute_stage", false, l_cute_s},
#endif
        {"hand_stage", false, l_hand_s},
    };
    const int NK = sizeof ks / sizeof ks[0];
    if (once) {  // one checked launch of each kernel on random data (for ncu)
        for (const Kernel& k : ks) printf("%s: %llu bad\n", k.name, check(k, k.transpose ? TN : SN));
        return 0;
    }
    // Correctness first: every kernel at the dense and at a padded leading dimension.
    std::vector<unsigned long long> bad(NK, 0);
    for (int i = 0; i < NK; ++i) {
        int64_t n = ks[i].transpose ? TN : SN, pad = ks[i].transpose ? PAD_T : PAD_S;
        bad[i] = check(ks[i], n) + check(ks[i], n + pad);
    }
    // Two timing rounds (the spread between them is the noise), each with its own copy figure.
    const int ROUNDS = 2;
    std::vector<double> copy_gbs(ROUNDS);
    std::vector<std::vector<double>> gbs(NK, std::vector<double>(ROUNDS));
    for (int r = 0; r < ROUNDS; ++r) {
        CK(cudaMemset(d_in, 0x3C, cap));
        float ms = median_ms([&] { CK(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice)); });
        copy_gbs[r] = 2.0 * bytes / (ms * 1e-3) / 1e9;
        for (int i = 0; i < NK; ++i) {
            const Kernel& k = ks[i];
            int64_t m = k.transpose ? TN : SM, n = k.transpose ? TN : SN;
            bad[i] += check(k, n);  // fresh data, then time, then check the last timed result
            float t = median_ms([&] { k.launch(d_in, d_out, (int)n, (int)n); });
            gbs[i][r] = 2.0 * bytes / (t * 1e-3) / 1e9;
            CK(cudaMemset(d_bad, 0, sizeof(unsigned long long)));
            if (k.transpose) check_transpose<<<4096, 256>>>((const uint32_t*)d_in, (const uint32_t*)d_out, m, n, n, n, d_bad);
            else check_copy<<<4096, 256>>>((const uint16_t*)d_in, (const uint16_t*)d_out, m, n, n, n, d_bad);
            CK(cudaGetLastError());
            unsigned long long b2 = 0;
            CK(cudaMemcpy(&b2, d_bad, sizeof b2, cudaMemcpyDeviceToHost));
            bad[i] += b2;
        }
    }
    bool all_ok = true;
    printf("\n%-18s %13s %13s %7s  %s\n", "kernel", "GB/s r1 / r2", "of copy", "SASS",
           "every element (2 ld + 2x2 timed runs)");
    printf("%-18s %6.0f %6.0f %6.3f %6.3f %7s  %s\n", "d2d cudaMemcpy", copy_gbs[0], copy_gbs[1], 1.0, 1.0, "-", "-");
    for (int i = 0; i < NK; ++i) {
        auto it = sass.find(ks[i].name);
        std::string sc = it == sass.end() ? "?" : it->second;
        all_ok = all_ok && bad[i] == 0;
        printf("%-18s %6.0f %6.0f %6.3f %6.3f %7s  %s\n", ks[i].name, gbs[i][0], gbs[i][1],
               gbs[i][0] / copy_gbs[0], gbs[i][1] / copy_gbs[1], sc.c_str(),
               bad[i] == 0 ? "ok" : ("FAIL " + std::to_string(bad[i])).c_str());
    }
    printf("(GB/s: 2 GiB read + written over the median of %d launches after %d warm-ups; r1, r2: two\n"
           " rounds; SASS: the function's instruction slots, NOP padding to 128 bytes included / without)\n",
           REPS, WARM);
    return all_ok ? 0 : 1;
}

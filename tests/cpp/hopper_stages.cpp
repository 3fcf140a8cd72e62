// The Hopper GEMM's kernel template on CPU threads with the ring's stage count HG_STAGES as the
// including test sets it (tests/tests/hopper_attack.rs compiles it over a copy of the generated
// header whose HG_STAGES it replaced): K of 3 k tiles, one CTA. One line: "stages S ok WRONG"
// or "stages S error: MESSAGE".
#include <chrono>
#include <cstdio>
#include <vector>

#include "gpu/hopper/kernel.cuh"
#include "gpu/hopper/supported.hpp"

int main() {
    const int M = 128, N = 256, K = 192, lda = K, ldb = K, ldc = M;
    std::vector<hg_half_t> A((size_t)M * lda), B((size_t)N * ldb), C((size_t)ldc * N);
    for (size_t i = 0; i < A.size(); ++i) A[i] = (hg_half_t)(float)((int)(i % 3) - 1);
    for (size_t i = 0; i < B.size(); ++i) B[i] = (hg_half_t)(float)((int)(i % 5) - 2);
    HgTensorMap ta, tb;
    if (hg_make_tensor_map(&ta, A.data(), hg_map_a(M, K, lda)) != 0 ||
        hg_make_tensor_map(&tb, B.data(), hg_map_b(N, K, ldb)) != 0) {
        printf("stages %d error: tensor map\n", HG_STAGES);
        return 0;
    }
    hopper_emu::patience = std::chrono::milliseconds(3000);
    try {
        hg_run_grid(hg_grid_x(M, N), HG_THREADS, HG_SMEM_BYTES + 1024,
                    [&](Lane& ln, uint8_t* raw, uint32_t bx, uint32_t tid) {
                        uint8_t* smem = raw + ((1024u - (hg_smem_u32(raw) & 1023u)) & 1023u);
                        hg_gemm_body<HgAccF32>(ln, tid, bx, smem, &ta, &tb, C.data(), M, N, K, ldc);
                    });
    } catch (const std::exception& e) {
        printf("stages %d error: %s\n", HG_STAGES, e.what());
        return 0;
    }
    long wrong = 0;
    for (int n = 0; n < N; ++n)
        for (int m = 0; m < M; ++m) {
            long s = 0;
            for (int k = 0; k < K; ++k)
                s += (long)(float)A[(size_t)m * lda + k] * (long)(float)B[(size_t)n * ldb + k];
            wrong += (float)C[(size_t)n * ldc + m] != (float)s;
        }
    printf("stages %d ok %ld\n", HG_STAGES, wrong);
    return 0;
}

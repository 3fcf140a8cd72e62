// The Hopper GEMM (gpu/hopper/kernel.cuh over gpu/gen/hopper_gemm.cuh) run on CPU threads through
// the host emulation of its instructions (gpu/hopper/host_emulation.hpp), against a naive GEMM.
//
// Each problem goes the launcher's way (gpu/hopper/launch.cuh): the admission check
// (hg_gemm_supported), A's and B's tensor maps from hg_map_a / hg_map_b (hg_make_tensor_map in
// place of cuTensorMapEncodeTiled), the 1-D grid hg_grid_x, HG_THREADS threads and
// HG_SMEM_BYTES + 1024 bytes of dynamic shared memory aligned to 1024 by the kernel's own
// expression; the dynamic shared memory starts off the 1024-byte boundary, so the alignment is
// exercised. Inputs are small integers (-2..2): every partial sum is an integer below 2048, so
// both accumulator types are exact and C must equal the naive product bit for bit. The padding
// columns of A and B hold 1000 (never to be read: the tensor maps end at K), C starts as a
// sentinel and its padding rows (m in [M, ldc)) must keep it. One line per run:
// "NAME ACC M N K bad untouched".
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gpu/hopper/kernel.cuh"
#include "gpu/hopper/supported.hpp"

struct Problem {
    const char* name;
    int M, N, K, lda, ldb, ldc;
};

template <class Acc>
static void run(const Problem& p, const char* acc) {
    std::vector<hg_half_t> A((size_t)p.M * p.lda + 8), B((size_t)p.N * p.ldb + 8),
        C((size_t)p.ldc * p.N);
    unsigned x = 12345u + (unsigned)(p.M * 7 + p.N * 13 + p.K);
    auto next = [&] {
        x = x * 1103515245u + 12345u;
        return (int)((x >> 16) % 5) - 2;
    };
    // 16-byte aligned starts (the vectors' storage is).
    for (int m = 0; m < p.M; ++m)
        for (int k = 0; k < p.lda; ++k)
            A[(size_t)m * p.lda + k] = (hg_half_t)(k < p.K ? next() : 1000);
    for (int n = 0; n < p.N; ++n)
        for (int k = 0; k < p.ldb; ++k)
            B[(size_t)n * p.ldb + k] = (hg_half_t)(k < p.K ? next() : 1000);
    const hg_half_t sentinel = (hg_half_t)-7777.0f;
    for (auto& c : C) c = sentinel;
    if (!hg_gemm_supported(p.M, p.N, p.K, p.lda, p.ldb, p.ldc, A.data(), B.data(), C.data())) {
        printf("%s %s refused\n", p.name, acc);
        return;
    }
    HgTensorMap ta, tb;
    if (hg_make_tensor_map(&ta, A.data(), hg_map_a(p.M, p.K, p.lda)) != 0 ||
        hg_make_tensor_map(&tb, B.data(), hg_map_b(p.N, p.K, p.ldb)) != 0) {
        printf("%s %s tensor map refused\n", p.name, acc);
        return;
    }
    hopper_emu::dynamic_smem_window = 1024 + 16 * 37;
    hg_run_grid(hg_grid_x(p.M, p.N), HG_THREADS, HG_SMEM_BYTES + 1024,
                [&](Lane& ln, uint8_t* raw, uint32_t bx, uint32_t tid) {
                    uint8_t* smem = raw + ((1024u - (hg_smem_u32(raw) & 1023u)) & 1023u);
                    hg_gemm_body<Acc>(ln, tid, bx, smem, &ta, &tb, C.data(), p.M, p.N, p.K,
                                      p.ldc);
                });
    long bad = 0, untouched = 0;
    for (int n = 0; n < p.N; ++n)
        for (int m = 0; m < p.ldc; ++m) {
            const hg_half_t c = C[(size_t)n * p.ldc + m];
            if (m >= p.M) {
                untouched += c == sentinel;
                continue;
            }
            long s = 0;
            for (int k = 0; k < p.K; ++k)
                s += (long)(float)A[(size_t)m * p.lda + k] * (long)(float)B[(size_t)n * p.ldb + k];
            bad += (float)c != (float)s;
        }
    printf("%s %s %d %d %d %ld %ld\n", p.name, acc, p.M, p.N, p.K, bad, untouched);
}

int main() {
    try {
        // Residue tiles in M, N and K (3 k tiles, the last one of 8), padded leading dimensions.
        const Problem odd = {"residue", 200, 300, 136, 144, 152, 208};
        run<HgAccF32>(odd, "f32");
        run<HgAccF16>(odd, "f16");
        // Whole tiles, six k tiles: the ring of four stages wraps.
        const Problem whole = {"whole", 128, 256, 384, 384, 392, 136};
        run<HgAccF32>(whole, "f32");
        run<HgAccF16>(whole, "f16");
        // Extents of one and a K of one vector: one CTA, one k tile, nearly all zero fill.
        const Problem one = {"one", 1, 1, 8, 8, 8, 1};
        run<HgAccF32>(one, "f32");
        // Nine M tiles: past the grouped order's group of eight; one k tile of 24.
        const Problem tall = {"tall", 1100, 40, 24, 24, 32, 1100};
        run<HgAccF16>(tall, "f16");
    } catch (const std::exception& e) {
        printf("error: %s\n", e.what());
        return 1;
    }
    return 0;
}

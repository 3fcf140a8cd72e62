// The Hopper GEMM attacked as a user would call it, without a GPU (tests/tests/hopper_attack.rs).
//
// 1. Shapes: the kernel template (gpu/hopper/kernel.cuh) over the generated functions on CPU
//    threads (gpu/hopper/host_emulation.hpp), built with AddressSanitizer and UBSan, over the
//    shapes around every boundary the kernel distinguishes: extents of 1, one below, at and
//    one past a tile; K of one element, one k tile, 4 k tiles (the ring exactly full), 5, 8 and
//    9 (the ring wraps once and twice); more than one group of the grouped CTA order in M with
//    two N tiles; minimal and padded leading dimensions. A, B and C are allocated to exactly
//    their last element, so a read or write past them is caught. Inputs are -1, 0 or 1 (every
//    partial sum an integer of magnitude at most K ≤ 2048: exact in fp16 and fp32), so C must
//    equal the naive product here bit for bit. One line per run:
//    "shape NAME ACC M N K lda ldb ldc wrong clobbered" (clobbered: padding elements of C that
//    lost their sentinel).
// 2. Admission: hg_gemm_supported (gpu/hopper/supported.hpp) on problems and pointers around
//    every limit; the test models what the kernel can do with each. One line per call:
//    "admit M N K lda ldb ldc A B C VERDICT" (pointers as integers; they are never dereferenced).
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
static void run(const Problem& p, const char* acc, uint32_t window) {
    // Exactly up to each matrix's last element.
    const size_t na = (size_t)(p.M - 1) * p.lda + p.K, nb = (size_t)(p.N - 1) * p.ldb + p.K,
                 nc = (size_t)(p.N - 1) * p.ldc + p.M;
    std::vector<hg_half_t> A(na), B(nb), C(nc);
    unsigned x = 977u + (unsigned)(p.M * 31 + p.N * 7 + p.K * 3);
    auto next = [&] {
        x = x * 1664525u + 1013904223u;
        return (int)((x >> 13) % 3) - 1;
    };
    for (size_t i = 0; i < na; ++i) A[i] = (hg_half_t)(i % p.lda < (size_t)p.K ? next() : 500);
    for (size_t i = 0; i < nb; ++i) B[i] = (hg_half_t)(i % p.ldb < (size_t)p.K ? next() : 500);
    const hg_half_t sentinel = (hg_half_t)-3333.0f;
    for (auto& c : C) c = sentinel;
    if (!hg_gemm_supported(p.M, p.N, p.K, p.lda, p.ldb, p.ldc, A.data(), B.data(), C.data())) {
        printf("shape %s %s refused\n", p.name, acc);
        return;
    }
    HgTensorMap ta, tb;
    if (hg_make_tensor_map(&ta, A.data(), hg_map_a(p.M, p.K, p.lda)) != 0 ||
        hg_make_tensor_map(&tb, B.data(), hg_map_b(p.N, p.K, p.ldb)) != 0) {
        printf("shape %s %s tensor map refused\n", p.name, acc);
        return;
    }
    hopper_emu::dynamic_smem_window = window;
    hg_run_grid(hg_grid_x(p.M, p.N), HG_THREADS, HG_SMEM_BYTES + 1024,
                [&](Lane& ln, uint8_t* raw, uint32_t bx, uint32_t tid) {
                    uint8_t* smem = raw + ((1024u - (hg_smem_u32(raw) & 1023u)) & 1023u);
                    hg_gemm_body<Acc>(ln, tid, bx, smem, &ta, &tb, C.data(), p.M, p.N, p.K,
                                      p.ldc);
                });
    long wrong = 0, clobbered = 0;
    for (size_t i = 0; i < nc; ++i) {
        const size_t m = i % p.ldc, n = i / p.ldc;
        const float c = (float)C[i];
        if (m >= (size_t)p.M) {
            clobbered += c != (float)sentinel;
            continue;
        }
        long s = 0;
        for (int k = 0; k < p.K; ++k)
            s += (long)(float)A[m * p.lda + k] * (long)(float)B[n * p.ldb + k];
        wrong += c != (float)s;
    }
    printf("shape %s %s %d %d %d %d %d %d %ld %ld\n", p.name, acc, p.M, p.N, p.K, p.lda, p.ldb,
           p.ldc, wrong, clobbered);
}

static void admit(long long M, long long N, long long K, long long lda, long long ldb,
                  long long ldc, uintptr_t a, uintptr_t b, uintptr_t c) {
    const bool v = hg_gemm_supported(M, N, K, lda, ldb, ldc, reinterpret_cast<const void*>(a),
                                     reinterpret_cast<const void*>(b),
                                     reinterpret_cast<const void*>(c));
    printf("admit %lld %lld %lld %lld %lld %lld %llu %llu %llu %d\n", M, N, K, lda, ldb, ldc,
           (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, v ? 1 : 0);
}

int main(int argc, char** argv) {
    const bool shapes = argc < 2 || argv[1][0] == 's';
    const bool admission = argc < 2 || argv[1][0] == 'a';
    if (shapes) try {
            const Problem f32[] = {
                {"k1", 1, 1, 1, 8, 8, 1},
                {"below", 63, 255, 65, 72, 80, 63},
                {"at", 64, 256, 64, 64, 64, 64},
                {"past", 65, 257, 63, 64, 72, 68},
                {"n1", 127, 1, 127, 128, 136, 127},
                {"both", 129, 129, 129, 136, 136, 131},
                {"ring_full", 255, 256, 256, 256, 264, 255},
                {"wrap_once", 256, 1, 257, 264, 264, 256},
                {"wrap_twice", 129, 63, 512, 512, 520, 130},
                {"nine_tiles", 128, 200, 513, 520, 528, 128},
                {"groups", 1153, 257, 8, 8, 8, 1153},
            };
            const Problem f16[] = {
                {"k1", 1, 1, 1, 8, 8, 1},
                {"past", 65, 257, 63, 64, 72, 68},
                {"wrap_once", 256, 1, 257, 264, 264, 256},
                {"groups", 1153, 257, 8, 8, 8, 1153},
            };
            uint32_t window = 1024;
            for (const Problem& p : f32) {
                run<HgAccF32>(p, "f32", window);
                window = 1024 + (window + 272) % 1024;
            }
            for (const Problem& p : f16) {
                run<HgAccF16>(p, "f16", window);
                window = 1024 + (window + 272) % 1024;
            }
        } catch (const std::exception& e) {
            printf("error: %s\n", e.what());
            return 1;
        }
    if (admission) {
        const long long big = (1LL << 31) - 1;
        const long long ext[] = {-1, 0, 1, 8, 65535, 65536, 65537, 1LL << 20, big};
        const uintptr_t A = 1u << 20, B = 1u << 24, C = 1u << 28;
        // Extents, leading dimensions the smallest multiple of 8 (A, B) or M (C) admits.
        for (long long M : ext)
            for (long long N : ext)
                for (long long K : ext) {
                    const long long ld = K < 1 ? 8 : (K + 7) / 8 * 8;
                    admit(M, N, K, ld, ld, M < 1 ? 1 : M, A, B, C);
                }
        // Leading dimensions around K, 8, 2^31 and 2^32.
        const long long lds[] = {0,  1,          7,        8,          9,        15,
                                 16, 64,         65,       72,         (1LL << 31) - 8,
                                 (1LL << 31),    (1LL << 31) + 8, (1LL << 32), (1LL << 37)};
        for (long long K : {1LL, 8LL, 64LL, 65LL})
            for (long long ld : lds) {
                admit(100, 100, K, ld, 72, 100, A, B, C);
                admit(100, 100, K, 72, ld, 100, A, B, C);
            }
        for (long long M : {1LL, 100LL, 65536LL})
            for (long long ldc : {M - 1, M, M + 1, 65536LL, (1LL << 31) - 1, 1LL << 31,
                                  (1LL << 31) + 1, 1LL << 32})
                admit(M, 100, 64, 64, 64, ldc, A, B, C);
        // Pointers: null, every alignment below 16, and 16.
        for (uintptr_t off : {0u, 1u, 2u, 4u, 8u, 16u}) {
            admit(64, 64, 64, 64, 64, 64, A + off, B, C);
            admit(64, 64, 64, 64, 64, 64, A, B + off, C);
            admit(64, 64, 64, 64, 64, 64, A, B, C + off);
        }
        admit(64, 64, 64, 64, 64, 64, 0, B, C);
        admit(64, 64, 64, 64, 64, 64, A, 0, C);
        admit(64, 64, 64, 64, 64, 64, A, B, 0);
        // C overlapping A or B, or touching them: A spans (M-1)·lda + K elements, B (N-1)·ldb
        // + K, C (N-1)·ldc + M.
        for (long long M : {1LL, 64LL, 100LL})
            for (long long N : {1LL, 64LL, 100LL}) {
                const long long K = 40, lda = 48, ldb = 56, ldc = M + 2;
                const uintptr_t ea = 2 * ((M - 1) * lda + K), eb = 2 * ((N - 1) * ldb + K),
                                ec = 2 * ((N - 1) * ldc + M);
                for (uintptr_t c : {A - ec - 2, A - ec, A - ec + 2, A, A + 16, A + ea - 2, A + ea,
                                    B - ec, B - ec + 2, B, B + eb - 2, B + eb})
                    admit(M, N, K, lda, ldb, ldc, A, B, c);
            }
    }
    return 0;
}

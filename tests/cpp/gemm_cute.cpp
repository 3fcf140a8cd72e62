// The generated GEMM functions (gpu/gen/gemm.cuh, prepended by the test) combined as the kernel
// template (gpu/gemm/kernel.cuh) combines them, against CuTe's own partitions of its tutorial
// kernel `sgemm_sm80.cu` `gemm_tn` (fp16: 128x128x64, 3 stages, SM80_16x8x16_F16F16F16F16_TN on
// 2x2 warps with the 32x32x16 tile, 128-bit cp.async, LDSM x4, Swizzle<3,3,3>), built here
// with the CUTLASS 4.2 headers as gemm_tn builds them. For every thread, in the first and last
// (residue) tile of each mode, every stage and k-block:
//   ga/gb/gc   the global offset and predicate of every value (CuTe: the partition of
//              local_tile, the identity tensor partitioned alike and elem_less),
//   sa/sb      every cp.async destination element (CuTe: partition_D of the smem ring),
//   la/lb      every element of the row each thread gives ldmatrix (CuTe: the LDSM copy's
//              partition_S),
//   ra/rb      the 32-bit register each ldmatrix register fills (CuTe: retile_D of the
//              fragment) and each MMA operand register reads (CuTe: partition_fragment_A/B),
//   rc         the accumulator of each MMA value and each epilogue value (CuTe:
//              partition_fragment_C, paired with partition_C by index), fp32 and packed fp16.
// Prints, per problem and kind, "KIND checked mismatched", then up to 8 mismatches.
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>

// The generated header (the test puts it here; `__host__` and friends come from the CUDA
// headers CuTe includes):
// @GENERATED@

#include <cstdio>
#include <map>
#include <string>

using namespace cute;

alignas(1024) static half_t gbuf[1 << 26];
alignas(1024) static half_t sbuf[1 << 16];

template <class T>
static long off(T const& x, half_t const* base) { return long(&x - base); }

struct Tally {
    std::map<std::string, std::pair<long, long>> kinds;
    int shown = 0;
    void check(const char* kind, long got, long want, const char* what, int t, int a, int b, int c) {
        auto& k = kinds[kind];
        ++k.first;
        if (got != want) {
            ++k.second;
            if (shown++ < 8)
                printf("mismatch %s %s t=%d (%d,%d,%d): generated %ld, CuTe %ld\n", kind, what, t, a, b, c,
                       got, want);
        }
    }
};

static void problem(int M, int N, int K, int ldA, int ldB, int ldC) {
    Tally tally;
    auto prob_shape = make_shape(M, N, K);
    auto dA = make_stride(ldA, Int<1>{});
    auto dB = make_stride(ldB, Int<1>{});
    auto dC = make_stride(Int<1>{}, ldC);
    auto bM = Int<128>{};
    auto bN = Int<128>{};
    auto bK = Int<64>{};
    auto cta_tiler = make_shape(bM, bN, bK);
    auto bP = Int<3>{};
    auto swizzle_atom = composition(Swizzle<3, 3, 3>{},
                                    Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
    auto sA_layout = tile_to_shape(swizzle_atom, make_shape(bM, bK, bP));
    auto sB_layout = tile_to_shape(swizzle_atom, make_shape(bN, bK, bP));
    TiledCopy copy_a = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                       Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
    TiledCopy copy_b = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                       Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
    TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{},
                                  Tile<_32, _32, _16>{});
    Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_a;
    Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_b;
    TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mma);
    TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom_b, mma);

    // Every matrix from one base: offsets are from it.
    Tensor mA = make_tensor(make_gmem_ptr(gbuf), select<0, 2>(prob_shape), dA);  // (M,K)
    Tensor mB = make_tensor(make_gmem_ptr(gbuf), select<1, 2>(prob_shape), dB);  // (N,K)
    Tensor mC = make_tensor(make_gmem_ptr(gbuf), select<0, 1>(prob_shape), dC);  // (M,N)
    Tensor cA = make_identity_tensor(shape(mA));
    Tensor cB = make_identity_tensor(shape(mB));
    Tensor cC = make_identity_tensor(shape(mC));
    Tensor sA = make_tensor(make_smem_ptr(sbuf), sA_layout);  // (BLK_M,BLK_K,PIPE)
    Tensor sB = make_tensor(make_smem_ptr(sbuf), sB_layout);  // (BLK_N,BLK_K,PIPE)
    const int tiles_m[] = {0, int(ceil_div(M, 128)) - 1};
    const int tiles_n[] = {0, int(ceil_div(N, 128)) - 1};
    const int tiles_k[] = {0, int(ceil_div(K, 64)) - 1};

    for (int t = 0; t < int(size(mma)); ++t) {
        const uint32_t ut = uint32_t(t);
        ThrCopy thr_copy_a = copy_a.get_slice(t);
        ThrCopy thr_copy_b = copy_b.get_slice(t);
        ThrMMA thr_mma = mma.get_slice(t);
        ThrCopy s2r_thr_a = s2r_copy_a.get_slice(t);
        ThrCopy s2r_thr_b = s2r_copy_b.get_slice(t);

        // cp.async destinations: vector i's element e is CuTe's value 8i + e.
        Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
        Tensor tBsB = thr_copy_b.partition_D(sB);
        for (int p = 0; p < int(bP); ++p) {
            Tensor xa = tAsA(_, _, _, p);
            Tensor xb = tBsB(_, _, _, p);
            for (int v = 0; v < int(size(xa)); ++v) {
                const uint32_t i = uint32_t(v) / GEMM_VEC, e = uint32_t(v) % GEMM_VEC;
                const long ours = gemm_s_stage(p) + gemm_s_copy_t(ut) + gemm_s_copy_y(i) + e;
                tally.check("sa", ours, off(xa(v), sbuf), "p,v", t, p, v, 0);
                tally.check("sb", ours, off(xb(v), sbuf), "p,v", t, p, v, 0);
            }
        }
        // ldmatrix rows: the row address and the 8 elements after it.
        Tensor tXsA = s2r_thr_a.partition_S(sA);  // (CPY,MMA_M,MMA_K,PIPE)
        Tensor tXsB = s2r_thr_b.partition_S(sB);  // (CPY,MMA_N,MMA_K,PIPE)
        for (int p = 0; p < int(bP); ++p)
            for (int kb = 0; kb < int(size<2>(tXsA)); ++kb) {
                for (int i = 0; i < int(size<1>(tXsA)); ++i)
                    for (int e = 0; e < int(size<0>(tXsA)); ++e) {
                        const long ours = gemm_s_stage(p) + (gemm_ldsm_a_t(ut) ^ gemm_ldsm_a_x(kb)) +
                                          gemm_ldsm_a_y(i) + e;
                        tally.check("la", ours, off(tXsA(e, i, kb, p), sbuf), "p,kb,i", t, p, kb, i);
                    }
                for (int i = 0; i < int(size<1>(tXsB)); ++i)
                    for (int e = 0; e < int(size<0>(tXsB)); ++e) {
                        const long ours = gemm_s_stage(p) + (gemm_ldsm_b_t(ut) ^ gemm_ldsm_b_x(kb)) +
                                          gemm_ldsm_b_y(i) + e;
                        tally.check("lb", ours, off(tXsB(e, i, kb, p), sbuf), "p,kb,i", t, p, kb, i);
                    }
            }
        tally.check("counts", GEMM_KBLOCKS, size<2>(tXsA), "kblocks", t, 0, 0, 0);
        tally.check("counts", GEMM_LDSM_A, size<1>(tXsA), "ldsm a", t, 0, 0, 0);
        tally.check("counts", GEMM_LDSM_B, size<1>(tXsB), "ldsm b", t, 0, 0, 0);
        // Registers (halves in CuTe's fragments; the generated functions count 32-bit words).
        Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
        Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA,MMA_N,MMA_K)
        Tensor tCrC = thr_mma.partition_fragment_C(local_tile(mC, cta_tiler, make_coord(0, 0, _),
                                                              Step<_1, _1, X>{}));  // (MMA,MMA_M,MMA_N)
        Tensor tXrA = s2r_thr_a.retile_D(tCrA);  // (CPY,MMA_M,MMA_K)
        Tensor tXrB = s2r_thr_b.retile_D(tCrB);
        auto la = tCrA.layout();
        auto lb = tCrB.layout();
        auto lc = tCrC.layout();
        auto xa = tXrA.layout();
        auto xb = tXrB.layout();
        tally.check("counts", GEMM_FRAG_A, size(la), "frag a", t, 0, 0, 0);
        tally.check("counts", GEMM_FRAG_B, size(lb), "frag b", t, 0, 0, 0);
        tally.check("counts", GEMM_ACC, size(lc), "acc", t, 0, 0, 0);
        for (int kb = 0; kb < GEMM_KBLOCKS; ++kb) {
            for (int i = 0; i < GEMM_LDSM_A; ++i)
                for (int j = 0; j < 4; ++j)
                    for (int h = 0; h < 2; ++h)
                        tally.check("ra", 2 * gemm_ldsm_a_reg(kb, i, j) + h, xa(2 * j + h, i, kb), "ldsm kb,i,j", t,
                                    kb, i, j);
            for (int i = 0; i < GEMM_LDSM_B; ++i)
                for (int j = 0; j < 4; ++j)
                    for (int h = 0; h < 2; ++h)
                        tally.check("rb", 2 * gemm_ldsm_b_reg(kb, i, j) + h, xb(2 * j + h, i, kb), "ldsm kb,i,j", t,
                                    kb, i, j);
            for (int mi = 0; mi < GEMM_MMA_M; ++mi)
                for (int j = 0; j < 4; ++j)
                    for (int h = 0; h < 2; ++h)
                        tally.check("ra", 2 * gemm_mma_a_reg(kb, mi, j) + h, la(2 * j + h, mi, kb), "mma kb,mi,j", t,
                                    kb, mi, j);
            for (int ni = 0; ni < GEMM_MMA_N; ++ni)
                for (int j = 0; j < 2; ++j)
                    for (int h = 0; h < 2; ++h)
                        tally.check("rb", 2 * gemm_mma_b_reg(kb, ni, j) + h, lb(2 * j + h, ni, kb), "mma kb,ni,j", t,
                                    kb, ni, j);
        }
        for (int mi = 0; mi < GEMM_MMA_M; ++mi)
            for (int ni = 0; ni < GEMM_MMA_N; ++ni)
                for (int j = 0; j < GEMM_MMA_ACC; ++j) {
                    tally.check("rc", gemm_acc(ni, mi, j), lc(j, mi, ni), "mma mi,ni,j", t, mi, ni, j);
                    tally.check("rc", 2 * gemm_acc_word(ni, mi, j / 2) + j % 2, lc(j, mi, ni), "f16 mi,ni,j", t,
                                mi, ni, j);
                }
        for (int v = 0; v < GEMM_ACC; ++v) {
            tally.check("rc", gemm_acc_of(v), lc(v), "epilogue v", t, v, 0, 0);
            tally.check("rc", 2 * gemm_acc_word_of(v) + gemm_acc_half_of(v), lc(v), "f16 epilogue v", t, v, 0, 0);
        }

        // Global memory, every value of the first and last tile of each mode.
        for (int bm : tiles_m)
            for (int bn : tiles_n) {
                auto cta_coord = make_coord(bm, bn, _);
                Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});
                Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});
                Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});
                Tensor tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
                Tensor tBgB = thr_copy_b.partition_S(gB);
                Tensor tAcA = thr_copy_a.partition_S(local_tile(cA, cta_tiler, cta_coord, Step<_1, X, _1>{}));
                Tensor tBcB = thr_copy_b.partition_S(local_tile(cB, cta_tiler, cta_coord, Step<X, _1, _1>{}));
                Tensor tCgC = thr_mma.partition_C(gC);  // (MMA,MMA_M,MMA_N)
                Tensor tCcC = thr_mma.partition_C(local_tile(cC, cta_tiler, cta_coord, Step<_1, _1, X>{}));
                for (int k : tiles_k) {
                    Tensor ga = tAgA(_, _, _, k);
                    Tensor ca = tAcA(_, _, _, k);
                    Tensor gb = tBgB(_, _, _, k);
                    Tensor cb = tBcB(_, _, _, k);
                    for (int v = 0; v < int(size(ga)); ++v) {
                        const uint32_t uv = uint32_t(v);
                        tally.check("ga", gemm_a_offset(gemm_a_coord1(ut, uv, bm), gemm_a_coord0(ut, uv, k), ldA),
                                    off(ga(v), gbuf), "bm,k,v", t, bm, k, v);
                        tally.check("ga", gemm_a(ut, uv, k, bm, K, M), elem_less(ca(v), shape(mA)), "pred bm,k,v", t,
                                    bm, k, v);
                    }
                    for (int v = 0; v < int(size(gb)); ++v) {
                        const uint32_t uv = uint32_t(v);
                        tally.check("gb", gemm_b_offset(gemm_b_coord1(ut, uv, bn), gemm_b_coord0(ut, uv, k), ldB),
                                    off(gb(v), gbuf), "bn,k,v", t, bn, k, v);
                        tally.check("gb", gemm_b(ut, uv, k, bn, K, N), elem_less(cb(v), shape(mB)), "pred bn,k,v", t,
                                    bn, k, v);
                    }
                }
                for (int v = 0; v < int(size(tCgC)); ++v) {
                    const uint32_t uv = uint32_t(v);
                    tally.check("gc", gemm_c_offset(gemm_c_coord1(ut, uv, bm), gemm_c_coord0(ut, uv, bn), ldC),
                                off(tCgC(v), gbuf), "bm,bn,v", t, bm, bn, v);
                    tally.check("gc", gemm_c(ut, uv, bn, bm, N, M), elem_less(tCcC(v), shape(mC)), "pred bm,bn,v", t,
                                bm, bn, v);
                }
            }
    }
    printf("problem %d %d %d %d %d %d\n", M, N, K, ldA, ldB, ldC);
    for (auto& [kind, n] : tally.kinds) printf("%s %ld %ld\n", kind.c_str(), n.first, n.second);
}

int main() {
    // Residues in every mode, padded leading dimensions; whole tiles; the odd size.
    problem(300, 260, 200, 208, 216, 304);
    problem(256, 128, 128, 128, 136, 256);
    problem(4000, 4000, 4104, 4104, 4112, 4000);
    return 0;
}

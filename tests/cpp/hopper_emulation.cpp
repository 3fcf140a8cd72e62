// The host emulation of the Hopper GEMM's instructions (gpu/hopper/host_emulation.hpp) against
// computations written here from the PTX ISA and the CUDA driver documentation: TMA boxes placed
// by the swizzle written per 16-byte chunk and row phase, wgmma operands placed by the canonical
// K-major layouts written per mode and row, descriptors encoded here field by field, the D
// fragment written from the PTX ISA's figure, products computed naively; mbarrier phases
// observed step by step; faulty kernels that must be reported.
//
// Output, one line per check:
//   check NAME BAD COMPARED     (BAD of COMPARED values differ from the expectation)
//   report NAME MESSAGE         (the error the emulation reported for a kernel, or "none")
#define HG_FN inline
#include "gpu/hopper/host_emulation.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

// Counts of a check; emulated threads update it concurrently.
struct Tally {
    std::atomic<long> bad{0}, compared{0};
    void expect(bool ok) {
        ++compared;
        if (!ok) ++bad;
    }
};

void print(const char* name, const Tally& t) {
    std::printf("check %s %ld %ld\n", name, t.bad.load(), t.compared.load());
}

void report(const char* name, const std::string& message) {
    std::string m = message.empty() ? "none" : message;
    for (char& c : m)
        if (c == '\n') c = ' ';
    std::printf("report %s %s\n", name, m.c_str());
}

// Runs a kernel and returns the emulation's error message, or "" when it ran through.
template <class Body>
std::string outcome(uint32_t grid, int threads, size_t smem, Body body) {
    try {
        hg_run_grid(grid, threads, smem, body);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

struct Rng {
    uint64_t s;
    int below(int n) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((s >> 33) % static_cast<uint64_t>(n));
    }
};

uint16_t bits_of(hg_half_t h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}

// ---------------------------------------------------------------------------------------------
// TMA: a global 2-D tensor of distinct non-zero 16-bit patterns; boxes with every swizzle at
// coordinates inside, across the far edges and before the near ones, at destinations on and off
// the swizzle's repeat boundary, and with the dynamic shared memory itself off the boundary.

constexpr uint64_t kDim0 = 100, kDim1 = 70, kStride = 224;  // bytes between rows (112 halves)

uint16_t pattern(uint64_t g0, uint64_t g1) {
    return static_cast<uint16_t>((g1 * 977u + g0 * 13u) % 65535u + 1u);
}

struct Box {
    int swizzle;     // CUtensorMapSwizzle
    uint32_t box0, box1;
};

// The box byte that the swizzle puts at shared address `a`, for a box written from `dst`:
// the 16-byte chunk index (bits 4..) of `a` within its span XORed with the row phase (bits 7..)
// names the chunk of the box's linear image that lands there.
long long source_offset(uint32_t a, uint32_t dst, int swizzle) {
    uint32_t chunks = swizzle == 0 ? 1 : (2u << (swizzle - 1));  // 16-byte chunks per span
    uint32_t chunk = (a / 16) % chunks;
    uint32_t phase = (a / 128) % chunks;
    uint32_t src = a - chunk * 16 + (chunk ^ phase) * 16;
    return static_cast<long long>(src) - static_cast<long long>(dst);
}

void check_tma() {
    std::vector<uint16_t> g(kStride / 2 * kDim1, 0xDEAD);
    for (uint64_t r = 0; r < kDim1; ++r)
        for (uint64_t c = 0; c < kDim0; ++c) g[r * kStride / 2 + c] = pattern(c, r);
    const Box boxes[] = {{3, 64, 16}, {2, 32, 12}, {1, 16, 9}, {0, 24, 5}};
    const int coords[][2] = {{0, 0}, {50, 60}, {-8, -3}, {96, 69}, {40, 7}};
    const uint32_t dsts[] = {0, 128, 384, 2048 + 640};
    const uint32_t windows[] = {1024, 1024 + 128, 4096 + 512};
    const char* names[] = {"tma_none", "tma_swizzle_32b", "tma_swizzle_64b", "tma_swizzle_128b"};
    Tally tallies[4], late, fresh;
    for (uint32_t window : windows) {
        hopper_emu::dynamic_smem_window = window;
        for (const Box& b : boxes) {
            HgTensorMap map;
            if (hg_make_tensor_map(&map, g.data(), kDim0, kDim1, kStride, b.box0, b.box1,
                                   b.swizzle) != 0) {
                std::printf("error: map refused\n");
                continue;
            }
            const uint32_t row = b.box0 * 2, bytes = row * b.box1;
            for (const auto& c : coords)
                for (uint32_t dst : dsts) {
                    std::vector<unsigned char> got(bytes), before(bytes);
                    bool fresh_ok = false, still_poison = false;
                    std::string err = outcome(1, 1, 16384, [&](Lane& ln, uint8_t* smem, uint32_t,
                                                               uint32_t) {
                        uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 12288);
                        mbar_init(ln, bar, 1);
                        fence_mbar_init(ln);
                        mbar_arrive_expect_tx(ln, bar, bytes);
                        tma_load_2d(ln, smem + dst, &map, c[0], c[1], bar);
                        std::memcpy(before.data(), smem + dst, bytes);
                        // A fresh barrier's parity-1 phase counts as completed: no wait, and
                        // the load does not land.
                        mbar_wait(ln, bar, 1);
                        fresh_ok = true;
                        still_poison = true;
                        for (uint32_t i = 0; i < bytes; i += 2)
                            still_poison = still_poison && smem[dst + i] == 0xFF &&
                                           smem[dst + i + 1] == 0x7F;
                        mbar_wait(ln, bar, 0);
                        std::memcpy(got.data(), smem + dst, bytes);
                    });
                    if (!err.empty()) std::printf("error: %s\n", err.c_str());
                    fresh.expect(fresh_ok && still_poison);
                    for (uint32_t i = 0; i < bytes; i += 2)
                        late.expect(before[i] == 0xFF && before[i + 1] == 0x7F);
                    Tally& t = tallies[b.swizzle];
                    for (uint32_t i = 0; i < bytes; i += 2) {
                        uint32_t a = window + dst + i;  // this byte's shared address
                        long long o = source_offset(a, window + dst, b.swizzle);
                        long long i1 = o / row, i0 = (o % row) / 2;
                        long long g0 = c[0] + i0, g1 = c[1] + i1;
                        bool in = g0 >= 0 && g1 >= 0 && g0 < static_cast<long long>(kDim0) &&
                                  g1 < static_cast<long long>(kDim1);
                        uint16_t want = in ? pattern(static_cast<uint64_t>(g0),
                                                     static_cast<uint64_t>(g1))
                                           : 0;
                        uint16_t have;
                        std::memcpy(&have, got.data() + i, 2);
                        t.expect(o >= 0 && o < bytes && have == want);
                    }
                }
        }
    }
    hopper_emu::dynamic_smem_window = 1024;
    for (int s = 0; s < 4; ++s) print(names[s], tallies[s]);
    print("tma_poisoned_until_wait", late);
    print("tma_fresh_barrier_parity_1", fresh);
}

// The driver's documented constraints on a tiled rank-2 map, one violation each.
void check_make_tensor_map() {
    alignas(16) static uint16_t g[4096];
    HgTensorMap m;
    Tally t;
    auto ok = [&](const void* p, uint64_t d0, uint64_t d1, uint64_t s, uint32_t b0, uint32_t b1,
                  int sw) { return hg_make_tensor_map(&m, p, d0, d1, s, b0, b1, sw) == 0; };
    t.expect(ok(g, 64, 8, 128, 64, 8, 3));
    t.expect(ok(g, 100, 8, 208, 24, 8, 0));
    t.expect(ok(g, 64, 8, 128, 32, 8, 3));  // narrower than the span: admitted
    t.expect(!ok(nullptr, 64, 8, 128, 64, 8, 3));
    t.expect(!ok(reinterpret_cast<unsigned char*>(g) + 8, 64, 8, 128, 64, 8, 3));
    t.expect(!ok(g, 0, 8, 128, 64, 8, 3));
    t.expect(!ok(g, 64, 0, 128, 64, 8, 3));
    t.expect(!ok(g, (uint64_t{1} << 32) + 1, 8, uint64_t{1} << 34, 64, 8, 3));
    t.expect(!ok(g, 64, 8, 136, 64, 8, 3));  // stride not a multiple of 16
    t.expect(!ok(g, 64, 8, 112, 56, 8, 0));  // stride below a row
    t.expect(!ok(g, 64, 8, uint64_t{1} << 40, 64, 8, 3));
    t.expect(!ok(g, 64, 8, 128, 0, 8, 3));
    t.expect(!ok(g, 64, 8, 128, 64, 0, 3));
    t.expect(!ok(g, 512, 8, 1024, 264, 8, 0));  // box past 256
    t.expect(!ok(g, 64, 300, 128, 64, 257, 0));
    t.expect(!ok(g, 64, 8, 128, 12, 8, 0));  // 24-byte box rows
    t.expect(!ok(g, 64, 8, 128, 64, 8, 4));  // other swizzle modes
    t.expect(!ok(g, 64, 8, 128, 64, 8, 2));  // 128-byte rows under the 64-byte swizzle
    t.expect(!ok(g, 64, 8, 128, 32, 8, 1));  // 64-byte rows under the 32-byte swizzle
    print("make_tensor_map", t);
}

// ---------------------------------------------------------------------------------------------
// mbarrier phases, step by step in one thread (through the non-blocking test_wait), and a
// blocking wait across threads.

void check_mbarrier() {
    Tally t;
    alignas(16) static uint16_t g[64 * 4];
    for (int i = 0; i < 256; ++i) g[i] = static_cast<uint16_t>(i + 1);
    HgTensorMap map;
    hg_make_tensor_map(&map, g, 64, 4, 128, 64, 2, 0);  // one box: 2 rows of 128 bytes
    std::string err = outcome(1, 1, 4096, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
        uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 2048);
        mbar_init(ln, bar, 2);
        fence_mbar_init(ln);
        // Phase 0 in progress: parity 0 not completed, parity 1 (the phase "before") completed.
        t.expect(!mbar_test_wait(ln, bar, 0));
        t.expect(mbar_test_wait(ln, bar, 1));
        mbar_arrive(ln, bar);
        t.expect(!mbar_test_wait(ln, bar, 0));
        mbar_arrive(ln, bar);  // second of two: phase 0 completes, phase 1 starts
        t.expect(mbar_test_wait(ln, bar, 0));
        t.expect(!mbar_test_wait(ln, bar, 1));
        // Phase 1: both arrivals in, but 256 transaction bytes expected.
        mbar_arrive_expect_tx(ln, bar, 256);
        mbar_arrive(ln, bar);
        t.expect(!mbar_test_wait(ln, bar, 1));
        tma_load_2d(ln, smem, &map, 0, 0, bar);
        t.expect(!mbar_test_wait(ln, bar, 1));  // the load has not landed
        mbar_wait(ln, bar, 1);                  // lands it: phase 1 completes
        t.expect(mbar_test_wait(ln, bar, 1));
        t.expect(!mbar_test_wait(ln, bar, 0));
        uint16_t v;
        std::memcpy(&v, smem + 2 * 77, 2);
        t.expect(v == 78);
        // Phase 2: bytes before arrivals, an expect_tx that is not the last arrival.
        mbar_arrive_expect_tx(ln, bar, 128);
        t.expect(!mbar_test_wait(ln, bar, 0));
        mbar_arrive_expect_tx(ln, bar, 128);
        tma_load_2d(ln, smem + 1024, &map, 0, 2, bar);
        mbar_wait(ln, bar, 0);
        t.expect(mbar_test_wait(ln, bar, 0));
        t.expect(!mbar_test_wait(ln, bar, 1));
        std::memcpy(&v, smem + 1024 + 2 * 64 + 2 * 5, 2);
        t.expect(v == 3 * 64 + 5 + 1);
    });
    t.expect(err.empty());
    if (!err.empty()) std::printf("error: %s\n", err.c_str());
    // Across threads: thread 1 waits for phase 0 of a barrier of count 2; thread 0 arrives once,
    // then, later, notes the time and arrives again. The waiter must pass after the note.
    for (int trial = 0; trial < 3; ++trial) {
        std::atomic<int> clock{0};
        int noted = -1, passed = -1, early = -1;
        err = outcome(1, 2, 1024, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t tid) {
            uint64_t* bar = reinterpret_cast<uint64_t*>(smem);
            if (tid == 0) {
                mbar_init(ln, bar, 2);
                fence_mbar_init(ln);
            }
            sync_threads(ln);
            if (tid == 0) {
                mbar_arrive(ln, bar);
                std::this_thread::sleep_for(std::chrono::milliseconds(30));
                noted = clock++;
                mbar_arrive(ln, bar);
            } else {
                mbar_wait(ln, bar, 1);  // fresh: passes at once
                early = clock++;
                mbar_wait(ln, bar, 0);
                passed = clock++;
            }
        });
        t.expect(err.empty() && early == 0 && noted == 1 && passed == 2);
    }
    print("mbarrier_phases", t);
}

// ---------------------------------------------------------------------------------------------
// wgmma m64n256k16: operands placed by the canonical K-major layouts written per mode, the
// descriptors encoded here, D against the naive product through the D fragment of the figure.

// The PTX ISA's m64nNk16 D figure: warp w of the warpgroup owns rows 16w..16w+15; lane l, with
// g = l / 4 and q = l % 4, holds in value j = 4i + e the element (row g + 8·(e >= 2), column
// 8i + 2q + e % 2).
int frag_row(int t, int j) {
    int w = t / 32, l = t % 32, e = j % 4;
    return 16 * w + l / 4 + (e >= 2 ? 8 : 0);
}
int frag_col(int t, int j) {
    int l = t % 32, i = j / 4, e = j % 4;
    return 8 * i + 2 * (l % 4) + e % 2;
}

uint64_t encode(uint32_t start, uint32_t lbo, uint32_t sbo, uint64_t layout) {
    return uint64_t{(start >> 4) & 0x3FFFu} | (uint64_t{(lbo >> 4) & 0x3FFFu} << 16) |
           (uint64_t{(sbo >> 4) & 0x3FFFu} << 32) | (layout << 62);
}

// One operand's placement: `rows` rows of `kw` halves (kw = 16·kblocks), K-major.
struct Placement {
    int layout;    // descriptor layout type: 0 interleave, 1 128B, 2 64B, 3 32B
    uint32_t lbo, sbo;
};

// Byte offset (from a base aligned to 1024) of element (r, k) of an operand placed per the
// canonical layout: swizzled modes keep rows of `span` bytes, 8 rows an atom at SBO apart, the
// 16-byte chunks of a row permuted by the row's index within its repeat; interleave keeps 8×16-
// byte core matrices, K chunks LBO apart, 8-row groups SBO apart.
uint32_t place(const Placement& p, int r, int k) {
    if (p.layout == 0)
        return static_cast<uint32_t>((r / 8) * p.sbo + (k / 8) * p.lbo + (r % 8) * 16 +
                                     (k % 8) * 2);
    uint32_t span = p.layout == 1 ? 128 : p.layout == 2 ? 64 : 32;
    uint32_t chunks = span / 16;
    uint32_t row = static_cast<uint32_t>(r % 8);
    // The row's phase within the pattern's repeat (1024, 512 or 256 bytes = 8 rows).
    uint32_t phase = (row * span / 128) % chunks;
    uint32_t chunk = static_cast<uint32_t>(k / 8) % chunks;
    uint32_t atom = static_cast<uint32_t>(r / 8) * p.sbo;
    uint32_t kspan = static_cast<uint32_t>(k / 8) / chunks;  // further spans of K
    return atom + kspan * 8 * span + row * span + (chunk ^ phase) * 16 + (k % 8) * 2;
}

struct WgmmaCase {
    const char* name;
    Placement pa, pb;
    int kblocks;  // K = 16·kblocks; wgmma kb starts 32·kb bytes into the row (swizzled)
};

// A (64 × K) at smem offset 0, B (256 × K) at 64 KiB: small integers; C random; D = C + A·Bᵀ
// with f32 and f16 accumulators (two accumulator arrays, one group each), then the same without
// accumulate over a poisoned-garbage D.
void check_wgmma() {
    const WgmmaCase cases[] = {
        {"wgmma_128b", {1, 16, 1024}, {1, 16, 1024}, 4},
        {"wgmma_128b_padded_sbo", {1, 16, 2048}, {1, 16, 3072}, 4},
        {"wgmma_64b", {2, 16, 512}, {2, 16, 1024}, 2},
        {"wgmma_32b", {3, 16, 256}, {3, 16, 512}, 1},
        {"wgmma_interleave", {0, 1024, 128}, {0, 4096, 128}, 1},
        {"wgmma_interleave_k_outer", {0, 128, 256}, {0, 128, 256}, 1},
    };
    for (const WgmmaCase& c : cases) {
        const int K = 16 * c.kblocks;
        Rng rng{static_cast<uint64_t>(K) * 31 + c.pa.sbo};
        std::vector<float> A(64 * K), B(256 * K), C(64 * 256);
        for (float& x : A) x = static_cast<float>(rng.below(7) - 3);
        for (float& x : B) x = static_cast<float>(rng.below(7) - 3);
        for (float& x : C) x = static_cast<float>(rng.below(201) - 100);
        std::vector<float> d32(64 * 256 * c.kblocks), d16(64 * 256 * c.kblocks),
            z32(64 * 256 * c.kblocks);
        const uint32_t b_at = 65536;
        std::string err = outcome(1, 128, 65536 + 131072, [&](Lane& ln, uint8_t* smem, uint32_t,
                                                               uint32_t tid) {
            if (tid == 0) {
                for (int r = 0; r < 64; ++r)
                    for (int k = 0; k < K; ++k) {
                        hg_half_t h = static_cast<hg_half_t>(A[r * K + k]);
                        std::memcpy(smem + place(c.pa, r, k), &h, 2);
                    }
                for (int r = 0; r < 256; ++r)
                    for (int k = 0; k < K; ++k) {
                        hg_half_t h = static_cast<hg_half_t>(B[r * K + k]);
                        std::memcpy(smem + b_at + place(c.pb, r, k), &h, 2);
                    }
            }
            sync_threads(ln);
            const uint32_t base = hg_smem_u32(smem);
            const int t = static_cast<int>(tid);
            for (int kb = 0; kb < c.kblocks; ++kb) {
                // k-block kb: 32 bytes further along the row (swizzled) or one K-chunk pair
                // further (interleave: 2 chunks of LBO).
                uint32_t step_a = c.pa.layout == 0 ? 2u * kb * c.pa.lbo : 32u * kb;
                uint32_t step_b = c.pb.layout == 0 ? 2u * kb * c.pb.lbo : 32u * kb;
                uint64_t da = encode(base + step_a, c.pa.lbo, c.pa.sbo, c.pa.layout);
                uint64_t db = encode(base + b_at + step_b, c.pb.lbo, c.pb.sbo, c.pb.layout);
                float acc[128];
                uint32_t acc16[64];
                float zero[128];
                for (int j = 0; j < 128; ++j) {
                    acc[j] = C[frag_row(t, j) * 256 + frag_col(t, j)];
                    zero[j] = 12345.0f;  // ignored: accumulate is false
                }
                for (int i = 0; i < 64; ++i) {
                    hg_half_t lo = static_cast<hg_half_t>(acc[2 * i]),
                              hi = static_cast<hg_half_t>(acc[2 * i + 1]);
                    acc16[i] = static_cast<uint32_t>(bits_of(lo)) |
                               (static_cast<uint32_t>(bits_of(hi)) << 16);
                }
                wgmma_fence(ln);
                wgmma_m64n256k16_f32(ln, acc, da, db, true);
                wgmma_commit(ln);
                wgmma_m64n256k16_f16(ln, acc16, da, db, true);
                wgmma_m64n256k16_f32(ln, zero, da, db, false);
                wgmma_commit(ln);
                wgmma_wait<0>(ln);
                for (int j = 0; j < 128; ++j) {
                    size_t at = static_cast<size_t>(kb) * 64 * 256 +
                                static_cast<size_t>(frag_row(t, j)) * 256 +
                                static_cast<size_t>(frag_col(t, j));
                    d32[at] = acc[j];
                    z32[at] = zero[j];
                    d16[at] = static_cast<float>(hg_half_of(acc16[j / 2], j % 2));
                }
            }
        });
        if (!err.empty()) std::printf("error: %s: %s\n", c.name, err.c_str());
        Tally t;
        for (int kb = 0; kb < c.kblocks; ++kb)
            for (int m = 0; m < 64; ++m)
                for (int n = 0; n < 256; ++n) {
                    float p = 0;
                    for (int k = 16 * kb; k < 16 * kb + 16; ++k) p += A[m * K + k] * B[n * K + k];
                    size_t at = static_cast<size_t>(kb) * 64 * 256 + m * 256 + n;
                    t.expect(err.empty() && d32[at] == C[m * 256 + n] + p &&
                             d16[at] == C[m * 256 + n] + p && z32[at] == p);
                }
        print(c.name, t);
    }
}

// Asynchrony: registers poisoned between issue and wait; two wgmmas chained on one accumulator
// in flight; wait<1> retires only the older group; f16 accumulators rounded once per wgmma.
void check_wgmma_async() {
    Tally poison, chain, partial, rounding;
    std::string err = outcome(1, 128, 65536 + 131072, [&](Lane& ln, uint8_t* smem, uint32_t,
                                                           uint32_t tid) {
        Placement pa{1, 16, 1024}, pb{1, 16, 1024};
        const uint32_t b_at = 65536;
        if (tid == 0) {
            // A(m, k) = 1 for k < 3 (k-block 0) and k-block 1's k = 16; B(n, k) = 1 where A is.
            for (int r = 0; r < 64; ++r)
                for (int k = 0; k < 64; ++k) {
                    hg_half_t h = static_cast<hg_half_t>(k < 3 || k == 16 ? 1.0f : 0.0f);
                    std::memcpy(smem + place(pa, r, k), &h, 2);
                }
            for (int r = 0; r < 256; ++r)
                for (int k = 0; k < 64; ++k) {
                    hg_half_t h = static_cast<hg_half_t>(k < 3 || k == 16 ? 1.0f : 0.0f);
                    std::memcpy(smem + b_at + place(pb, r, k), &h, 2);
                }
        }
        sync_threads(ln);
        const uint32_t base = hg_smem_u32(smem);
        uint64_t da0 = encode(base, 16, 1024, 1), db0 = encode(base + b_at, 16, 1024, 1);
        uint64_t da1 = encode(base + 32, 16, 1024, 1), db1 = encode(base + b_at + 32, 16, 1024, 1);
        float x[128], y[128];
        uint32_t h[64];
        for (int j = 0; j < 128; ++j) x[j] = y[j] = 10.0f;
        // 2048 + 3 = 2051: a tie rounded to 2052 once per wgmma (2048 stepwise).
        hg_half_t big = static_cast<hg_half_t>(2048.0f);
        for (int i = 0; i < 64; ++i)
            h[i] = static_cast<uint32_t>(bits_of(big)) | (static_cast<uint32_t>(bits_of(big)) << 16);
        wgmma_fence(ln);
        wgmma_m64n256k16_f32(ln, x, da0, db0, true);  // x = 10 + 3
        wgmma_m64n256k16_f32(ln, x, da1, db1, true);  // chained: x = 13 + 1
        wgmma_commit(ln);
        wgmma_m64n256k16_f32(ln, y, da0, db0, true);  // y = 13, a later group
        wgmma_m64n256k16_f16(ln, h, da0, db0, true);
        wgmma_commit(ln);
        uint32_t v;
        for (int j = 0; j < 128; ++j) {
            std::memcpy(&v, &x[j], 4);
            poison.expect(v == 0x7FFF7FFFu);
        }
        wgmma_wait<1>(ln);
        for (int j = 0; j < 128; ++j) {
            chain.expect(x[j] == 14.0f);
            std::memcpy(&v, &y[j], 4);
            partial.expect(v == 0x7FFF7FFFu);
        }
        wgmma_wait<0>(ln);
        for (int j = 0; j < 128; ++j) partial.expect(y[j] == 13.0f);
        for (int j = 0; j < 128; ++j)
            rounding.expect(static_cast<float>(hg_half_of(h[j / 2], j % 2)) == 2052.0f);
    });
    if (!err.empty()) std::printf("error: %s\n", err.c_str());
    poison.expect(err.empty());
    print("wgmma_registers_poisoned_until_wait", poison);
    print("wgmma_chained", chain);
    print("wgmma_wait_1", partial);
    print("wgmma_f16_rounding", rounding);
}

// ---------------------------------------------------------------------------------------------
// A tiny TMA + wgmma kernel: one warpgroup, A 64×64 and B 256×64 (K-major, 128B swizzle) loaded
// by TMA on one barrier, four wgmma k-blocks. Correct, it equals the naive product; each fault
// must be reported.

enum class Fault {
    None,
    NoWait,          // the consumers never wait on the barrier
    WrongParity,     // they wait on parity 1 of the fresh barrier (passes at once)
    LateWait,        // they wait only after issuing the wgmmas
    ShortExpect,     // expect_tx covers only A's box
    Refill,          // a load into A's stage before the wgmmas that read it are waited for
    NoFence,         // no wgmma_fence
    Divergent,       // one thread passes another descriptor
    EarlyReturn,     // return with wgmmas in flight
    UnfencedInit,    // no fence_mbar_init
};

struct Tiny {
    std::vector<uint16_t> a, b;  // halves' bits, rows of 64 (lda = ldb = 64)
    std::vector<float> want;     // 64 × 256
};

Tiny tiny_data() {
    Tiny d;
    Rng rng{99};
    d.a.resize(64 * 64);
    d.b.resize(256 * 64);
    std::vector<float> fa(64 * 64), fb(256 * 64);
    for (size_t i = 0; i < fa.size(); ++i) {
        fa[i] = static_cast<float>(rng.below(5) - 2);
        d.a[i] = bits_of(static_cast<hg_half_t>(fa[i]));
    }
    for (size_t i = 0; i < fb.size(); ++i) {
        fb[i] = static_cast<float>(rng.below(5) - 2);
        d.b[i] = bits_of(static_cast<hg_half_t>(fb[i]));
    }
    d.want.assign(64 * 256, 0.0f);
    for (int m = 0; m < 64; ++m)
        for (int n = 0; n < 256; ++n)
            for (int k = 0; k < 64; ++k) d.want[m * 256 + n] += fa[m * 64 + k] * fb[n * 64 + k];
    return d;
}

// Returns the emulation's error ("" if none); `bad` counts elements of D unlike the product.
std::string tiny_gemm(const Tiny& d, Fault f, long& bad) {
    alignas(16) static uint16_t ga[64 * 64], gb[256 * 64];
    std::memcpy(ga, d.a.data(), sizeof ga);
    std::memcpy(gb, d.b.data(), sizeof gb);
    HgTensorMap ma, mb, mr;
    hg_make_tensor_map(&ma, ga, 64, 64, 128, 64, 64, 3);
    hg_make_tensor_map(&mb, gb, 64, 256, 128, 64, 256, 3);
    hg_make_tensor_map(&mr, gb, 64, 256, 128, 64, 64, 3);  // B's first rows, A's box
    std::vector<float> out(64 * 256, -1.0f);
    hopper_emu::patience = std::chrono::milliseconds(400);
    std::string err = outcome(1, 128, 8192 + 32768 + 64, [&](Lane& ln, uint8_t* smem, uint32_t,
                                                             uint32_t tid) {
        uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 8192 + 32768);
        if (tid == 0) {
            mbar_init(ln, bar, 1);
            if (f != Fault::UnfencedInit) fence_mbar_init(ln);
            mbar_arrive_expect_tx(ln, bar, f == Fault::ShortExpect ? 8192 : 8192 + 32768);
            tma_load_2d(ln, smem, &ma, 0, 0, bar);
            tma_load_2d(ln, smem + 8192, &mb, 0, 0, bar);
        }
        sync_threads(ln);
        if (f == Fault::WrongParity) mbar_wait(ln, bar, 1);
        if (f != Fault::NoWait && f != Fault::WrongParity && f != Fault::LateWait)
            mbar_wait(ln, bar, 0);
        const uint32_t base = hg_smem_u32(smem);
        float acc[128];
        for (float& x : acc) x = 0.0f;
        if (f != Fault::NoFence) wgmma_fence(ln);
        for (uint32_t kb = 0; kb < 4; ++kb) {
            uint64_t da = encode(base + 32 * kb, 16, 1024, 1);
            uint64_t db = encode(base + 8192 + 32 * kb, 16, 1024, 1);
            if (f == Fault::Divergent && tid == 77 && kb == 2) db += 2;
            wgmma_m64n256k16_f32(ln, acc, da, db, true);
        }
        wgmma_commit(ln);
        if (f == Fault::EarlyReturn) return;
        if (f == Fault::LateWait) mbar_wait(ln, bar, 0);
        if (f == Fault::Refill) {
            // Before any thread's wgmma_wait: the refill lands while the wgmmas read the stage.
            if (tid == 0) {
                mbar_arrive_expect_tx(ln, bar, 8192);
                tma_load_2d(ln, smem, &mr, 0, 0, bar);
                mbar_wait(ln, bar, 1);
            }
            sync_threads(ln);
        }
        wgmma_wait<0>(ln);
        for (int j = 0; j < 128; ++j) {
            int t = static_cast<int>(tid);
            out[static_cast<size_t>(frag_row(t, j) * 256 + frag_col(t, j))] = acc[j];
        }
    });
    hopper_emu::patience = std::chrono::milliseconds(60000);
    bad = 0;
    for (size_t i = 0; i < out.size(); ++i) bad += out[i] != d.want[i];
    return err;
}

void check_faults() {
    Tiny d = tiny_data();
    long bad = 0;
    std::string err = tiny_gemm(d, Fault::None, bad);
    Tally t;
    t.expect(err.empty());
    for (long i = 0; i < 64 * 256; ++i) t.expect(i >= bad);
    print("tiny_gemm", t);
    report("tiny_gemm", err);
    const std::pair<const char*, Fault> faults[] = {
        {"no_wait", Fault::NoWait},
        {"wrong_parity", Fault::WrongParity},
        {"late_wait", Fault::LateWait},
        {"short_expect", Fault::ShortExpect},
        {"refill", Fault::Refill},
        {"no_fence", Fault::NoFence},
        {"divergent", Fault::Divergent},
        {"early_return", Fault::EarlyReturn},
        {"unfenced_init", Fault::UnfencedInit},
    };
    for (const auto& [name, f] : faults) {
        err = tiny_gemm(d, f, bad);
        report(name, err + " [elements wrong: " + std::to_string(bad) + "]");
    }
}

// Single faults of the other instructions.
void check_errors() {
    alignas(16) static uint16_t g[64 * 8];
    HgTensorMap map;
    hg_make_tensor_map(&map, g, 64, 8, 128, 64, 8, 3);
    report("misaligned_tma", outcome(1, 1, 4096, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 3072);
               mbar_init(ln, bar, 1);
               fence_mbar_init(ln);
               tma_load_2d(ln, smem + 64, &map, 0, 0, bar);
           }));
    report("tma_over_barrier", outcome(1, 1, 4096, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 512);
               mbar_init(ln, bar, 1);
               fence_mbar_init(ln);
               tma_load_2d(ln, smem, &map, 0, 0, bar);
           }));
    report("tma_outside_smem", outcome(1, 1, 2048, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               uint64_t* bar = reinterpret_cast<uint64_t*>(smem);
               mbar_init(ln, bar, 1);
               fence_mbar_init(ln);
               tma_load_2d(ln, smem + 1152, &map, 0, 0, bar);
           }));
    report("too_many_arrivals", outcome(1, 1, 1024, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               uint64_t* bar = reinterpret_cast<uint64_t*>(smem);
               mbar_init(ln, bar, 1);
               mbar_arrive_expect_tx(ln, bar, 16);
               mbar_arrive(ln, bar);
           }));
    report("uninitialised_barrier", outcome(1, 1, 1024, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               mbar_arrive(ln, reinterpret_cast<uint64_t*>(smem + 8));
           }));
    report("double_init", outcome(1, 1, 1024, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               mbar_init(ln, reinterpret_cast<uint64_t*>(smem), 1);
               mbar_init(ln, reinterpret_cast<uint64_t*>(smem), 2);
           }));
    hopper_emu::patience = std::chrono::milliseconds(300);
    report("deadlock", outcome(1, 2, 1024, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t tid) {
               uint64_t* bar = reinterpret_cast<uint64_t*>(smem);
               if (tid == 0) mbar_init(ln, bar, 2);
               sync_threads(ln);
               if (tid == 0) mbar_arrive(ln, bar);  // one arrival of two
               if (tid == 1) mbar_wait(ln, bar, 0);  // phase 0 never completes
           }));
    hopper_emu::patience = std::chrono::milliseconds(60000);
    report("setmaxnreg_divergent", outcome(1, 128, 0, [&](Lane& ln, uint8_t*, uint32_t, uint32_t tid) {
               if (tid / 32 == 2)
                   setmaxnreg_dec<40>(ln);
               else
                   setmaxnreg_inc<232>(ln);
           }));
    report("setmaxnreg_uniform", outcome(1, 256, 0, [&](Lane& ln, uint8_t*, uint32_t, uint32_t tid) {
               if (tid / 128 == 0)
                   setmaxnreg_dec<40>(ln);
               else
                   setmaxnreg_inc<232>(ln);
           }));
    report("wgmma_partial_warpgroup", outcome(1, 96, 0, [&](Lane& ln, uint8_t*, uint32_t, uint32_t) {
               float d[128] = {};
               wgmma_fence(ln);
               wgmma_m64n256k16_f32(ln, d, 0, 0, false);
           }));
    report("wgmma_base_offset", outcome(1, 128, 65536, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               float d[128] = {};
               uint64_t desc = encode(hg_smem_u32(smem), 16, 1024, 1) | (uint64_t{1} << 49);
               wgmma_fence(ln);
               wgmma_m64n256k16_f32(ln, d, desc, desc, false);
               wgmma_commit(ln);
               wgmma_wait<0>(ln);
           }));
    report("wgmma_start_row", outcome(1, 128, 65536, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               float d[128] = {};
               uint64_t desc = encode(hg_smem_u32(smem) + 128, 16, 1024, 1);
               wgmma_fence(ln);
               wgmma_m64n256k16_f32(ln, d, desc, desc, false);
               wgmma_commit(ln);
               wgmma_wait<0>(ln);
           }));
    report("wgmma_outside_smem", outcome(1, 128, 8192, [&](Lane& ln, uint8_t* smem, uint32_t, uint32_t) {
               float d[128] = {};
               uint64_t desc = encode(hg_smem_u32(smem), 16, 1024, 1);
               wgmma_fence(ln);
               wgmma_m64n256k16_f32(ln, d, desc, desc, false);  // B's 256 rows need 32 KiB
               wgmma_commit(ln);
               wgmma_wait<0>(ln);
           }));
}

}  // namespace

int main() {
    check_tma();
    check_make_tensor_map();
    check_mbarrier();
    check_wgmma();
    check_wgmma_async();
    check_faults();
    check_errors();
    return 0;
}

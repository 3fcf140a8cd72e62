// The host emulation of the GEMM's instructions (gpu/gemm/host_emulation.hpp, reached through
// gpu/gemm/instructions.cuh) against computations written here: the fragment ownership of
// mma.m16n8k16 is written a second time from the PTX ISA's tables (per register and half, not
// per element index), products are computed naively, ldmatrix rows are followed address by
// address, and cp.async completion is observed through the poison pattern.
//
// Output, one line per check:
//   check NAME BAD COMPARED     (BAD elements of COMPARED differ from the expectation)
//   report NAME MESSAGE         (the error the emulation reported for a faulty kernel, or
//                                "none" when it reported nothing)
//   time NAME MILLISECONDS
#include "gpu/gemm/instructions.cuh"

#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace {

struct Tally {
    long bad = 0, compared = 0;
    void expect(bool ok) {
        ++compared;
        bad += !ok;
    }
};

void print(const char* name, const Tally& t) {
    std::printf("check %s %ld %ld\n", name, t.bad, t.compared);
}

uint16_t bits(gemm_half_t h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}

gemm_half_t from_bits(uint16_t b) {
    gemm_half_t h;
    std::memcpy(&h, &b, 2);
    return h;
}

// Register word holding `lo` in its low 16 bits.
uint32_t word(gemm_half_t lo, gemm_half_t hi) {
    return static_cast<uint32_t>(bits(lo)) | (static_cast<uint32_t>(bits(hi)) << 16);
}

gemm_half_t low(uint32_t w) { return from_bits(static_cast<uint16_t>(w & 0xFFFF)); }
gemm_half_t high(uint32_t w) { return from_bits(static_cast<uint16_t>(w >> 16)); }

struct Rng {
    uint64_t s;
    int below(int n) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((s >> 33) % static_cast<uint64_t>(n));
    }
};

// The PTX ISA's m16n8k16 .f16 tables, per register r and half h of a lane (g = lane / 4,
// t = lane % 4): A register r holds row g (+ 8 for r = 1, 3), columns 2t + h (+ 8 for r = 2, 3);
// B register r holds rows k = 2t + h (+ 8 for r = 1), column n = g; C/D element c holds row g
// (+ 8 for c = 2, 3), column 2t + (c & 1).
int a_row(int lane, int r) { return lane / 4 + (r == 1 || r == 3 ? 8 : 0); }
int a_col(int lane, int r, int h) { return 2 * (lane % 4) + h + (r >= 2 ? 8 : 0); }
int b_k(int lane, int r, int h) { return 2 * (lane % 4) + h + (r == 1 ? 8 : 0); }
int b_n(int lane) { return lane / 4; }
int cd_row(int lane, int c) { return lane / 4 + (c >= 2 ? 8 : 0); }
int cd_col(int lane, int c) { return 2 * (lane % 4) + (c & 1); }

// One 16×8×16 product per trial: A 16×16 row major, B 8×16 (n rows, k contiguous), C 16×8.
struct Mma {
    float a[16][16], bt[8][16], c[16][8];
    float d16[16][8], d32[16][8];  // what the emulated mma returned
};

void fill_small(Rng& rng, Mma& m) {
    for (auto& row : m.a)
        for (float& x : row) x = static_cast<float>(rng.below(9) - 4);
    for (auto& row : m.bt)
        for (float& x : row) x = static_cast<float>(rng.below(9) - 4);
    for (auto& row : m.c)
        for (float& x : row) x = static_cast<float>(rng.below(65) - 32);
}

// Each lane loads its fragments from the matrices by plain indexing, runs both mma and stores
// its D elements back.
void mma_lane(Lane& lane, int l, Mma& m) {
    uint32_t a[4], b[2], d16[2];
    float d32[4];
    for (int r = 0; r < 4; ++r)
        a[r] = word(static_cast<gemm_half_t>(m.a[a_row(l, r)][a_col(l, r, 0)]),
                    static_cast<gemm_half_t>(m.a[a_row(l, r)][a_col(l, r, 1)]));
    for (int r = 0; r < 2; ++r)
        b[r] = word(static_cast<gemm_half_t>(m.bt[b_n(l)][b_k(l, r, 0)]),
                    static_cast<gemm_half_t>(m.bt[b_n(l)][b_k(l, r, 1)]));
    for (int c = 0; c < 4; ++c) d32[c] = m.c[cd_row(l, c)][cd_col(l, c)];
    d16[0] = word(static_cast<gemm_half_t>(m.c[cd_row(l, 0)][cd_col(l, 0)]),
                  static_cast<gemm_half_t>(m.c[cd_row(l, 1)][cd_col(l, 1)]));
    d16[1] = word(static_cast<gemm_half_t>(m.c[cd_row(l, 2)][cd_col(l, 2)]),
                  static_cast<gemm_half_t>(m.c[cd_row(l, 3)][cd_col(l, 3)]));
    mma_16816_f16(lane, d16, a, b);
    mma_16816_f32(lane, d32, a, b);
    for (int c = 0; c < 4; ++c) {
        m.d32[cd_row(l, c)][cd_col(l, c)] = d32[c];
        gemm_half_t lo, hi;
        unpack_h2(d16[c / 2], lo, hi);
        m.d16[cd_row(l, c)][cd_col(l, c)] = static_cast<float>(c % 2 == 0 ? lo : hi);
    }
}

// (1) Four warps, each a series of random products, against the naive product (exact: small
// integers).
void check_mma() {
    constexpr int trials = 4;
    std::vector<Mma> ms(4 * trials);
    Rng rng{17};
    for (Mma& m : ms) fill_small(rng, m);
    run_grid(1, 1, 128, 0, [&](Lane& lane, gemm_half_t*, int, int, int tid) {
        for (int k = 0; k < trials; ++k) mma_lane(lane, tid % 32, ms[(tid / 32) * trials + k]);
    });
    Tally t16, t32;
    for (const Mma& m : ms)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 8; ++j) {
                float want = m.c[i][j];
                for (int k = 0; k < 16; ++k) want += m.a[i][k] * m.bt[j][k];
                t16.expect(m.d16[i][j] == want);
                t32.expect(m.d32[i][j] == want);
            }
    print("mma_f16", t16);
    print("mma_f32", t32);
}

// (4) The f16 accumulators are rounded once per mma: C = 2048 plus three products of 1 is
// 2051, a tie between 2050 and 2052 that rounds to the even 2052 (adding 1 three times with a
// rounding after each stays at 2048); C = 1024 plus three products of 0.25 is 1024.75, which
// rounds to 1025 (stepwise: 1024). The f32 accumulators keep 2051 and 1024.75.
void check_rounding() {
    Mma m{};
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) m.c[i][j] = (i % 2 == 0) ? 2048.0f : 1024.0f;
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 3; ++k) m.a[i][(k * 5 + i) % 16] = (i % 2 == 0) ? 1.0f : 0.5f;
    for (int j = 0; j < 8; ++j)
        for (int k = 0; k < 16; ++k) m.bt[j][k] = (j % 2 == 0) ? 1.0f : 0.5f;
    // Even rows: 2048 + 3 * (1 or 0.5); odd rows: 1024 + 3 * (0.5 or 0.25).
    run_grid(1, 1, 32, 0, [&](Lane& lane, gemm_half_t*, int, int, int tid) { mma_lane(lane, tid, m); });
    Tally t16, t32;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
            float exact = i % 2 == 0 ? (j % 2 == 0 ? 2051.0f : 2049.5f)
                                     : (j % 2 == 0 ? 1025.5f : 1024.75f);
            // Half precision: spacing 2 in [2048, 4096), 1 in [1024, 2048), ties to even.
            float rounded = i % 2 == 0 ? (j % 2 == 0 ? 2052.0f : 2050.0f)
                                       : (j % 2 == 0 ? 1026.0f : 1025.0f);
            t16.expect(m.d16[i][j] == rounded);
            t32.expect(m.d32[i][j] == exact);
        }
    print("mma_f16_rounding", t16);
    print("mma_f32_exact", t32);
}

// (2) ldmatrix_x4 over rows scattered in shared memory: element i of the 2048-half buffer holds
// the half i; lane l of warp w points at row R(w, l) (8 halves, 16-byte aligned).
int scattered_row(int w, int l) { return (37 * l + 11 + 64 * w) % 256; }

void check_ldmatrix() {
    std::vector<uint32_t> got(128 * 4);
    run_grid(1, 1, 128, 2048 * 2, [&](Lane& lane, gemm_half_t* smem, int, int, int tid) {
        for (int i = tid; i < 2048; i += 128) smem[i] = static_cast<gemm_half_t>(static_cast<float>(i));
        sync_threads(lane);
        uint32_t d[4];
        ldmatrix_x4(lane, d, smem + 8 * scattered_row(tid / 32, tid % 32));
        for (int j = 0; j < 4; ++j) got[4 * tid + j] = d[j];
    });
    Tally t;
    for (int tid = 0; tid < 128; ++tid) {
        int w = tid / 32, l = tid % 32;
        for (int j = 0; j < 4; ++j) {
            // Matrix j's row l / 4 is where lane 8 j + l / 4 pointed; this lane holds its
            // columns 2 (l % 4) and 2 (l % 4) + 1.
            int row = scattered_row(w, 8 * j + l / 4);
            float lo = static_cast<float>(8 * row + 2 * (l % 4));
            t.expect(static_cast<float>(low(got[4 * tid + j])) == lo);
            t.expect(static_cast<float>(high(got[4 * tid + j])) == lo + 1.0f);
        }
    }
    print("ldmatrix_x4", t);
}

bool poisoned(const gemm_half_t* p, int n) {
    for (int i = 0; i < n; ++i)
        if (bits(p[i]) != gemm_emu::kSmemPoison) return false;
    return true;
}

bool equal(const gemm_half_t* p, const gemm_half_t* q, int n) {
    for (int i = 0; i < n; ++i)
        if (bits(p[i]) != bits(q[i])) return false;
    return true;
}

// (3) cp.async completes late: each of 64 threads copies its 16-byte chunk in two groups; the
// destination shows the poison until the wait that retires its group; a copy not committed is
// not retired; a copy over written data poisons it at once; pred = false zero-fills without
// reading its source (a guard page, or null); after the wait and a barrier, the neighbours'
// chunks are visible.
void check_cp_async() {
    constexpr int threads = 64, n = threads * 8;
    std::vector<gemm_half_t> src(3 * n);
    for (int i = 0; i < 3 * n; ++i) src[i] = static_cast<gemm_half_t>(static_cast<float>(i % 1000));
    void* guard = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (guard == MAP_FAILED) {
        std::printf("check cp_async_setup 1 1\n");
        return;
    }
    const gemm_half_t* unreadable = static_cast<const gemm_half_t*>(guard);
    Tally late, fill, uncommitted, overwrite, visible;
    std::vector<Tally> per(threads);
    run_grid(1, 1, threads, 5 * n * 2, [&](Lane& lane, gemm_half_t* smem, int, int, int t) {
        Tally& my = per[t];
        gemm_half_t* first = smem + 8 * t;
        gemm_half_t* second = smem + n + 8 * t;
        gemm_half_t* zeros = smem + 2 * n + 8 * t;
        gemm_half_t* zeros_null = smem + 3 * n + 8 * t;
        gemm_half_t* later = smem + 4 * n + 8 * t;
        const gemm_half_t* s1 = src.data() + 8 * t;
        const gemm_half_t* s2 = src.data() + n + 8 * t;
        cp_async_16(lane, first, s1, true);
        cp_async_commit(lane);
        cp_async_16(lane, second, s2, true);
        cp_async_16(lane, zeros, unreadable, false);
        cp_async_16(lane, zeros_null, nullptr, false);
        cp_async_commit(lane);
        my.expect(poisoned(first, 8) && poisoned(second, 8) && poisoned(zeros, 8));
        cp_async_wait<1>(lane);
        my.expect(equal(first, s1, 8));
        my.expect(poisoned(second, 8) && poisoned(zeros, 8) && poisoned(zeros_null, 8));
        cp_async_wait<0>(lane);
        my.expect(equal(second, s2, 8));
        bool all_zero = true;
        for (int i = 0; i < 8; ++i) all_zero &= bits(zeros[i]) == 0 && bits(zeros_null[i]) == 0;
        my.expect(all_zero);
        // Not committed: a wait leaves it pending.
        cp_async_16(lane, later, s1, true);
        cp_async_wait<0>(lane);
        my.expect(poisoned(later, 8));
        cp_async_commit(lane);
        cp_async_wait<0>(lane);
        my.expect(equal(later, s1, 8));
        // Refilling written data: undefined (poison) until the wait.
        cp_async_16(lane, first, s2, true);
        cp_async_commit(lane);
        my.expect(poisoned(first, 8));
        cp_async_wait<0>(lane);
        my.expect(equal(first, s2, 8));
        sync_threads(lane);
        int u = (t + 1) % threads;
        my.expect(equal(smem + n + 8 * u, src.data() + n + 8 * u, 8));
    });
    munmap(guard, 4096);
    Tally all;
    for (const Tally& t : per) {
        all.bad += t.bad;
        all.compared += t.compared;
    }
    print("cp_async", all);
}

// A fresh CTA's shared memory is the poison everywhere, whatever the CTA before it wrote.
void check_poison() {
    constexpr int halves = 4096;
    std::vector<Tally> per(3 * 32);
    run_grid(3, 1, 32, halves * 2, [&](Lane& lane, gemm_half_t* smem, int bx, int, int t) {
        Tally& my = per[bx * 32 + t];
        for (int i = t; i < halves; i += 32) my.expect(bits(smem[i]) == gemm_emu::kSmemPoison);
        sync_threads(lane);
        for (int i = t; i < halves; i += 32) smem[i] = static_cast<gemm_half_t>(1.0f);
        float f;
        uint32_t two = static_cast<uint32_t>(gemm_emu::kSmemPoison) * 0x10001u;
        std::memcpy(&f, &two, 4);
        my.expect(f != f);  // two poison halves read as a float: a NaN
    });
    Tally all;
    for (const Tally& t : per) {
        all.bad += t.bad;
        all.compared += t.compared;
    }
    print("smem_poison", all);
}

// A small GEMM through every instruction: C (M×N) = A (M×K, row major) · Bᵀ (B N×K, row
// major), CTA tile 64×16 with K tiles of 32 in a two-stage cp.async ring (residue chunks
// zero-filled by the predicate), four warps of 16 rows, ldmatrix_x4 for A and for two n8
// blocks of B, mma with f32 and with f16 accumulators, each against the naive product.
void check_small_gemm() {
    constexpr int M = 100, N = 50, K = 72, TM = 64, TN = 16, TK = 32;
    Rng rng{99};
    std::vector<gemm_half_t> a(M * K), b(N * K);
    for (auto& x : a) x = static_cast<gemm_half_t>(static_cast<float>(rng.below(5) - 2));
    for (auto& x : b) x = static_cast<gemm_half_t>(static_cast<float>(rng.below(5) - 2));
    std::vector<float> c32(M * N, -1e9f), c16(M * N, -1e9f);
    constexpr int stage = (TM + TN) * TK;  // halves
    int gx = (N + TN - 1) / TN, gy = (M + TM - 1) / TM, tiles = (K + TK - 1) / TK;
    auto t0 = std::chrono::steady_clock::now();
    run_grid(gx, gy, 128, 2 * stage * 2, [&](Lane& lane, gemm_half_t* smem, int bx, int by, int t) {
        auto load = [&](int kt) {
            gemm_half_t* sa = smem + (kt % 2) * stage;
            gemm_half_t* sb = sa + TM * TK;
            for (int c = t; c < (TM + TN) * (TK / 8); c += 128) {
                bool is_a = c < TM * (TK / 8);
                int cc = is_a ? c : c - TM * (TK / 8);
                int row = cc / (TK / 8), k = kt * TK + 8 * (cc % (TK / 8));
                int grow = (is_a ? by * TM : bx * TN) + row;
                bool in = grow < (is_a ? M : N) && k < K;
                const gemm_half_t* g = (is_a ? a.data() : b.data()) + (in ? grow * K + k : 0);
                cp_async_16(lane, (is_a ? sa : sb) + row * TK + 8 * (cc % (TK / 8)), g, in);
            }
            cp_async_commit(lane);
        };
        int w = t / 32, l = t % 32;
        float acc32[2][4] = {};
        uint32_t acc16[2][2] = {};
        load(0);
        for (int kt = 0; kt < tiles; ++kt) {
            if (kt + 1 < tiles) {
                load(kt + 1);
                cp_async_wait<1>(lane);
            } else {
                cp_async_wait<0>(lane);
            }
            sync_threads(lane);
            const gemm_half_t* sa = smem + (kt % 2) * stage;
            const gemm_half_t* sb = sa + TM * TK;
            for (int kb = 0; kb < TK; kb += 16) {
                uint32_t fa[4], fb[4];
                ldmatrix_x4(lane, fa, sa + (16 * w + l % 8 + 8 * ((l / 8) % 2)) * TK + kb + 8 * (l / 16));
                ldmatrix_x4(lane, fb, sb + (l % 8 + 8 * (l / 16)) * TK + kb + 8 * ((l / 8) % 2));
                for (int nb = 0; nb < 2; ++nb) {
                    uint32_t fbn[2] = {fb[2 * nb], fb[2 * nb + 1]};
                    mma_16816_f32(lane, acc32[nb], fa, fbn);
                    mma_16816_f16(lane, acc16[nb], fa, fbn);
                }
            }
            sync_threads(lane);  // the stage is refilled next
        }
        for (int nb = 0; nb < 2; ++nb)
            for (int c = 0; c < 4; ++c) {
                int row = by * TM + 16 * w + cd_row(l, c), col = bx * TN + 8 * nb + cd_col(l, c);
                if (row < M && col < N) {
                    c32[row * N + col] = acc32[nb][c];
                    gemm_half_t lo, hi;
                    unpack_h2(acc16[nb][c / 2], lo, hi);
                    c16[row * N + col] = static_cast<float>(c % 2 == 0 ? lo : hi);
                }
            }
    });
    auto t1 = std::chrono::steady_clock::now();
    Tally t32, t16;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float want = 0;
            for (int k = 0; k < K; ++k)
                want += static_cast<float>(a[i * K + k]) * static_cast<float>(b[j * K + k]);
            t32.expect(c32[i * N + j] == want);
            t16.expect(c16[i * N + j] == want);
        }
    print("small_gemm_f32", t32);
    print("small_gemm_f16", t16);
    std::printf("time small_gemm %.0f\n",
                std::chrono::duration<double, std::milli>(t1 - t0).count());
}

// A faulty kernel: the error run_grid reports.
template <class Body>
void report(const char* name, int gx, int threads, size_t smem, Body body) {
    std::string message = "none";
    try {
        run_grid(gx, 1, threads, smem, body);
    } catch (const gemm_emu::Error& e) {
        message = e.what();
    }
    std::printf("report %s %s\n", name, message.c_str());
}

void check_reports() {
    // Lane 5 of CTA (1, 0) gives a row 8 bytes off.
    report("misaligned_ldmatrix", 2, 32, 1024, [](Lane& lane, gemm_half_t* smem, int bx, int, int t) {
        uint32_t d[4];
        ldmatrix_x4(lane, d, smem + 8 * t + (bx == 1 && t == 5 ? 4 : 0));
    });
    report("outside_smem", 1, 32, 256, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        uint32_t d[4];
        ldmatrix_x4(lane, d, smem + 8 * t);  // 32 rows of 16 bytes: lanes 16.. are outside
    });
    report("cp_async_outside_smem", 1, 32, 1024, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        alignas(16) static gemm_half_t global[8];
        cp_async_16(lane, t == 3 ? global : smem + 8 * t, global, true);
        cp_async_commit(lane);
        cp_async_wait<0>(lane);
    });
    report("cp_async_misaligned_source", 1, 32, 1024,
           [](Lane& lane, gemm_half_t* smem, int, int, int t) {
               alignas(16) static gemm_half_t global[16];
               cp_async_16(lane, smem + 8 * t, global + (t == 9 ? 1 : 0), true);
               cp_async_commit(lane);
               cp_async_wait<0>(lane);
           });
    report("cp_async_pending", 1, 32, 1024, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        alignas(16) static gemm_half_t global[8];
        cp_async_16(lane, smem + 8 * t, global, true);
        cp_async_commit(lane);
        if (t != 12) cp_async_wait<0>(lane);
    });
    report("diverged", 1, 32, 1024, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        uint32_t d[4], a[4] = {}, b[2] = {};
        float acc[4] = {};
        if (t == 7)
            mma_16816_f32(lane, acc, a, b);
        else
            ldmatrix_x4(lane, d, smem + 8 * t);
    });
    report("lane_returned", 1, 32, 1024, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        uint32_t d[4];
        if (t != 30) ldmatrix_x4(lane, d, smem + 8 * t);
    });
    report("partial_warp", 1, 48, 2048, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        uint32_t d[4];
        if (t >= 32) ldmatrix_x4(lane, d, smem + 8 * t);
    });
    report("body_throws", 1, 64, 0, [](Lane& lane, gemm_half_t*, int, int, int t) {
        sync_threads(lane);
        if (t == 40) throw std::runtime_error("kernel failure");
        sync_threads(lane);
    });
    // Half of a warp at the CTA barrier, the other half at a collective: nobody can go on.
    auto saved = gemm_emu::patience;
    gemm_emu::patience = std::chrono::milliseconds(1000);
    report("deadlock", 1, 64, 2048, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        uint32_t d[4];
        if (t < 16)
            sync_threads(lane);
        else
            ldmatrix_x4(lane, d, smem + 8 * (t % 32));
    });
    gemm_emu::patience = saved;
    // Launches the hardware refuses.
    for (auto [name, threads, smem] : {std::tuple{"too_many_threads", 1056, size_t{0}},
                                       std::tuple{"too_much_smem", 128, size_t{227 * 1024 + 16}}}) {
        std::string message = "none";
        try {
            run_grid(1, 1, threads, smem, [](Lane&, gemm_half_t*, int, int, int) {});
        } catch (const std::invalid_argument& e) {
            message = e.what();
        }
        std::printf("report %s %s\n", name, message.c_str());
    }
    // A correct kernel reports nothing, and threads that have returned no longer hold the
    // CTA barrier up.
    report("correct", 1, 64, 2048, [](Lane& lane, gemm_half_t* smem, int, int, int t) {
        if (t >= 32) return;
        uint32_t d[4];
        sync_threads(lane);
        ldmatrix_x4(lane, d, smem + 8 * t);
        sync_threads(lane);
    });
}

}  // namespace

int main() {
    check_mma();
    check_rounding();
    check_ldmatrix();
    check_cp_async();
    check_poison();
    check_small_gemm();
    check_reports();
    return 0;
}

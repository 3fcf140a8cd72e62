// Host emulation of the GEMM's instruction layer (gpu/gemm/instructions.cuh compiled without
// __CUDACC__): CPU threads play CUDA threads, so the kernel template and the generated address
// functions run unchanged on a machine without a GPU. Standard C++20 only (g++ -std=c++20
// -pthread on x86-64; `_Float16` is the half type).
//
// What is emulated, per thread (`Lane`) of one CTA:
// - `cp_async_16` with LATE completion: the 16 source bytes are read when the copy is issued,
//   the destination becomes the poison pattern at once (the hardware leaves it undefined until
//   the wait) and receives the data only at a `cp_async_wait<N>` that retires the copy's group
//   (oldest groups first, until at most N committed groups are pending; copies not yet
//   committed stay pending, as on the hardware). A kernel that reads a stage before waiting, or
//   that refills a stage another warp still reads, reads the poison. `pred == false` writes 16
//   zero bytes at completion and never reads `src`. Copies still pending when a thread ends are
//   an error.
// - `sync_threads`: a barrier of the CTA's threads; a thread that has returned no longer takes
//   part (as an exited CUDA thread).
// - `ldmatrix_x4`, `mma_16816_f16`, `mma_16816_f32`: warp-collective. Each lane publishes its
//   operand in the warp's slots (for ldmatrix the 16 bytes its row address holds, read before
//   the barrier, so that every read of the warp precedes every lane's next instruction, as on
//   the hardware; for mma its A and B fragments), one warp barrier, then each lane computes its
//   own result from the whole warp's slots by the PTX ISA's fragment ownership. The slots are
//   double-buffered: a lane rewrites a slot only once every lane has reached the following
//   collective, so has read it. Every lane of the warp must execute the same collective: a lane
//   that executes another one, or that has returned, is an error.
// - mma arithmetic: the products of halves are exact in float; they are summed in float onto
//   the accumulator and, for the f16 accumulators, rounded to half once per mma
//   (round-to-nearest-even).
// - shared memory: each CTA gets a fresh buffer filled with the poison pattern `kSmemPoison`
//   (a NaN both as a half and, pairwise, as a float), so a read of an unwritten element shows.
// - checks: ldmatrix row addresses and cp.async destinations lie in the CTA's shared memory
//   and are 16-byte aligned, cp.async sources (when read) are 16-byte aligned and not null.
//
// What is not emulated: timing and the overlap of copies with compute, bank conflicts, the
// hardware's internal mma accumulation order, memory ordering beyond what the barriers give
// (plain loads and stores of different threads between two barriers are a data race here as
// they are on the GPU), copies completing EARLY (only late completion is modelled), more than
// one CTA at a time (CTAs run one after another), and warps of fewer than 32 threads for the
// collectives.
//
// Cost: a lane sleeps and wakes at every barrier (about 2 µs of kernel time each, measured
// on a 2-core x86-64 virtual machine); a CTA of 128 threads whose warps execute 320 collectives
// each takes about 0.1 to 0.15 s.
//
// Errors (a violated check, diverging lanes, pending copies at exit, no progress at a barrier
// for `gemm_emu::patience`) stop every thread of the CTA; `run_grid` then throws
// `gemm_emu::Error` whose message names the CTA, the thread, its warp and lane.
#pragma once

#include "../host_barrier.hpp"

#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#define GEMM_FN inline
using gemm_half_t = _Float16;

static_assert(sizeof(gemm_half_t) == 2, "gemm_half_t is 16 bits");
static_assert(std::endian::native == std::endian::little,
              "a packed f16x2 register keeps its first element in the low half");

namespace gemm_emu {

// The 16-bit pattern unwritten shared memory holds: a NaN as a half, and two of them a NaN as
// a float.
inline constexpr uint16_t kSmemPoison = 0x7FFF;
// The most shared memory a CTA of sm_90 can have (227 KiB, with the opt-in attribute).
inline constexpr size_t kMaxSmemBytes = 227 * 1024;
// The threads of a warp.
inline constexpr int kWarp = 32;
// How long a CTA may go without completing a barrier or ending a thread before the emulation
// reports a deadlock (and, if its threads still do not stop after as long again, aborts).
inline std::chrono::milliseconds patience{60000};

// What `run_grid` throws: the first error of the CTA, naming the CTA and the thread.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Unwinds the other threads of a CTA once one has failed (never escapes `run_grid`).
struct Cancelled {};

// The PTX ISA's fragment ownership of mma.m16n8k16 with .f16 A and B, for a lane of the warp
// (groupID = lane / 4, threadID_in_group = lane % 4) and an element index of its fragment.
struct RowCol {
    int row, col;
};
// A (16×16, row major): halves a0..a7 of the four .f16x2 registers, low half first.
constexpr RowCol a_element(int lane, int i) {
    int group = lane / 4, tig = lane % 4;
    int row = group + ((i / 2) % 2) * 8;        // a2, a3, a6, a7: rows 8 to 15
    int col = tig * 2 + (i % 2) + (i / 4) * 8;  // a4 to a7: columns 8 to 15
    return {row, col};
}
// B (16×8, K×N): halves b0..b3 of the two .f16x2 registers; `row` is k, `col` is n.
constexpr RowCol b_element(int lane, int i) {
    int group = lane / 4, tig = lane % 4;
    return {tig * 2 + (i % 2) + (i / 2) * 8, group};
}
// C and D (16×8): c0..c3 (the halves of two .f16x2 registers, or four floats).
constexpr RowCol cd_element(int lane, int i) {
    int group = lane / 4, tig = lane % 4;
    return {group + (i / 2) * 8, tig * 2 + (i % 2)};
}

// Each ownership covers its matrix once.
template <class F>
constexpr bool covers_once(F f, int per_lane, int rows, int cols) {
    int seen[16][16] = {};
    for (int lane = 0; lane < kWarp; ++lane)
        for (int i = 0; i < per_lane; ++i) {
            RowCol rc = f(lane, i);
            if (rc.row < 0 || rc.row >= rows || rc.col < 0 || rc.col >= cols) return false;
            ++seen[rc.row][rc.col];
        }
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (seen[r][c] != 1) return false;
    return true;
}
static_assert(covers_once(a_element, 8, 16, 16));
static_assert(covers_once(b_element, 4, 16, 8));
static_assert(covers_once(cd_element, 4, 16, 8));

// The barrier of a CTA's, a warp's threads (shared with the Hopper emulation).
using Barrier = host_threads::Barrier;

enum class Collective : uint32_t { None, Ldmatrix, MmaF16, MmaF32 };

inline const char* name(Collective c) {
    switch (c) {
        case Collective::Ldmatrix: return "ldmatrix_x4";
        case Collective::MmaF16: return "mma_16816_f16";
        case Collective::MmaF32: return "mma_16816_f32";
        default: return "nothing";
    }
}

// What the lanes of a warp publish for one collective: the instruction, its number in the
// lane's sequence of collectives, and up to six 32-bit words (an ldmatrix row: 4; mma: a[4],
// b[2]).
struct Slots {
    Collective what[kWarp];
    uint64_t seq[kWarp];
    uint32_t words[kWarp][6];
    Slots() {
        for (int l = 0; l < kWarp; ++l) {
            what[l] = Collective::None;
            seq[l] = ~uint64_t{0};
        }
    }
};

struct Warp {
    int lanes = 0;
    Barrier barrier;
    Slots slots[2];
};

// The state a CTA's threads share.
struct Cta {
    int bx, by, threads;
    size_t smem_bytes;
    std::unique_ptr<unsigned char, void (*)(unsigned char*)> smem;
    Barrier barrier;
    std::vector<std::unique_ptr<Warp>> warps;
    std::mutex error_mutex;
    std::string error;  // the first failure

    static void release(unsigned char* p) { ::operator delete(p, std::align_val_t{1024}); }

    Cta(int bx_, int by_, int threads_, size_t smem_bytes_)
        : bx(bx_),
          by(by_),
          threads(threads_),
          smem_bytes(smem_bytes_),
          smem(static_cast<unsigned char*>(::operator new(smem_bytes_ < 16 ? 16 : smem_bytes_,
                                                           std::align_val_t{1024})),
               &Cta::release) {
        for (size_t i = 0; i < (smem_bytes < 16 ? 16 : smem_bytes); ++i)
            smem.get()[i] = (i % 2 == 0) ? static_cast<unsigned char>(kSmemPoison & 0xFF)
                                         : static_cast<unsigned char>(kSmemPoison >> 8);
        barrier.init(threads);
        for (int w = 0; w * kWarp < threads; ++w) {
            warps.push_back(std::make_unique<Warp>());
            warps.back()->lanes = (threads - w * kWarp < kWarp) ? threads - w * kWarp : kWarp;
            warps.back()->barrier.init(warps.back()->lanes);
        }
    }

    // Records the first failure and wakes every waiting thread.
    void fail(const std::string& message) {
        {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (error.empty()) error = message;
        }
        barrier.poison();
        for (auto& w : warps) w->barrier.poison();
    }

    bool failed() {
        std::lock_guard<std::mutex> lock(error_mutex);
        return !error.empty();
    }

    // Progress: barrier phases completed and threads ended.
    std::atomic<int> ended{0};
    uint64_t progress() const {
        uint64_t p = barrier.phase() + static_cast<uint64_t>(ended.load());
        for (const auto& w : warps) p += w->barrier.phase();
        return p;
    }

    // Where the threads wait, for a deadlock report.
    std::string waiting() const {
        std::string s = std::to_string(barrier.arrived()) + " of " +
                        std::to_string(barrier.expected()) + " threads wait at sync_threads";
        for (size_t w = 0; w < warps.size(); ++w)
            if (int a = warps[w]->barrier.arrived(); a != 0)
                s += ", " + std::to_string(a) + " of " +
                     std::to_string(warps[w]->barrier.expected()) + " lanes of warp " +
                     std::to_string(w) + " wait at a warp-collective";
        return s;
    }

    // Ends the CTA with an error when it makes no progress for `patience`; aborts the process
    // when its threads do not stop within `patience` after that. Returns when `done`.
    void watch(std::mutex& m, std::condition_variable& cv, const bool& done) {
        std::unique_lock<std::mutex> lock(m);
        uint64_t last = progress();
        auto since = std::chrono::steady_clock::now();
        bool reported = false;
        while (!done) {
            cv.wait_for(lock, std::chrono::milliseconds(50));
            if (done) return;
            auto now = std::chrono::steady_clock::now();
            if (uint64_t p = progress(); p != last) {
                last = p;
                since = now;
            } else if (now - since >= patience) {
                if (reported) {
                    std::lock_guard<std::mutex> error_lock(error_mutex);
                    std::fprintf(stderr, "gemm_emu: CTA (%d, %d) does not stop after: %s\n", bx,
                                 by, error.c_str());
                    std::abort();
                }
                fail("CTA (" + std::to_string(bx) + ", " + std::to_string(by) +
                     "): no progress for " + std::to_string(patience.count()) + " ms (" +
                     waiting() + "): a deadlock, or a thread that never reaches its barrier");
                reported = true;
                since = now;
            }
        }
    }
};

// One cp.async in flight: its destination and the 16 bytes it will write.
struct Copy {
    unsigned char* dst;
    unsigned char bytes[16];
};

}  // namespace gemm_emu

// The state of one emulated CUDA thread.
struct Lane {
    int tid;
    gemm_emu::Cta* cta;
    uint64_t collectives = 0;                           // warp-collectives executed
    std::vector<gemm_emu::Copy> open;                   // cp.async not yet committed
    std::deque<std::vector<gemm_emu::Copy>> committed;  // oldest group first

    Lane(int tid_, gemm_emu::Cta* cta_) : tid(tid_), cta(cta_) {}
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;

    int warp() const { return tid / gemm_emu::kWarp; }
    int lane() const { return tid % gemm_emu::kWarp; }

    std::string where() const {
        return "CTA (" + std::to_string(cta->bx) + ", " + std::to_string(cta->by) + ") thread " +
               std::to_string(tid) + " (warp " + std::to_string(warp()) + ", lane " +
               std::to_string(lane()) + ")";
    }

    // Stops the CTA with a message about this thread.
    [[noreturn]] void fail(const std::string& what) {
        cta->fail(where() + ": " + what);
        throw gemm_emu::Cancelled{};
    }

    size_t pending() const {
        size_t n = open.size();
        for (const auto& g : committed) n += g.size();
        return n;
    }

    // `bytes` bytes at `p` lie in the CTA's shared memory, and `p` is 16-byte aligned.
    void check_smem(const void* p, size_t bytes, const char* what) {
        auto a = reinterpret_cast<uintptr_t>(p);
        auto base = reinterpret_cast<uintptr_t>(cta->smem.get());
        if (a < base || a - base > cta->smem_bytes || cta->smem_bytes - (a - base) < bytes)
            fail(std::string(what) + " is not in the CTA's shared memory (byte offset " +
                 std::to_string(static_cast<long long>(a) - static_cast<long long>(base)) +
                 " of a buffer of " + std::to_string(cta->smem_bytes) + " bytes)");
        if (a % 16 != 0)
            fail(std::string(what) + " is not 16-byte aligned (shared-memory byte offset " +
                 std::to_string(a - base) + ")");
    }

    void wait_at(gemm_emu::Barrier& b) {
        if (!b.arrive_and_wait()) throw gemm_emu::Cancelled{};
    }

    // Publishes this lane's words for a warp-collective, waits for the warp, and returns the
    // warp's slots once every lane is known to have published the same collective.
    const gemm_emu::Slots& exchange(gemm_emu::Collective what, const uint32_t* words, int n) {
        gemm_emu::Warp& w = *cta->warps[static_cast<size_t>(warp())];
        if (w.lanes != gemm_emu::kWarp)
            fail(std::string(gemm_emu::name(what)) + " in a warp of " + std::to_string(w.lanes) +
                 " threads (warp-collectives need 32)");
        uint64_t seq = collectives++;
        gemm_emu::Slots& s = w.slots[seq % 2];
        s.what[lane()] = what;
        s.seq[lane()] = seq;
        for (int i = 0; i < n; ++i) s.words[lane()][i] = words[i];
        wait_at(w.barrier);
        // Every lane compares the warp against the same reference, the first lane that executed
        // a collective, so that whichever lane reports a divergence reports the same one.
        int r = 0;
        while (s.seq[r] == ~uint64_t{0}) ++r;
        for (int l = 0; l < gemm_emu::kWarp; ++l)
            if (s.what[l] != s.what[r] || s.seq[l] != s.seq[r])
                fail("lane " + std::to_string(l) + " of the warp did not execute " +
                     gemm_emu::name(s.what[r]) + " as warp-collective #" + std::to_string(s.seq[r]) +
                     (s.seq[l] == ~uint64_t{0}
                          ? std::string(" (it executed none)")
                          : " (found: " + std::string(gemm_emu::name(s.what[l])) + " #" +
                                std::to_string(s.seq[l]) + ")") +
                     "; every lane must execute the same collectives");
        return s;
    }

    // Called when the thread's body has returned normally.
    void finish() {
        if (size_t n = pending(); n != 0)
            fail("returned with pending cp.async copies (" + std::to_string(n) +
                 " copies; committed groups not waited for: " +
                 std::to_string(committed.size()) +
                 "; copies not committed: " + std::to_string(open.size()) + ")");
    }

    // The thread takes no further part in barriers.
    void leave() {
        cta->barrier.leave();
        cta->warps[static_cast<size_t>(warp())]->barrier.leave();
    }
};

GEMM_FN void cp_async_16(Lane& l, gemm_half_t* dst, const gemm_half_t* src, bool pred) {
    l.check_smem(dst, 16, "cp_async_16 destination");
    gemm_emu::Copy c;
    c.dst = reinterpret_cast<unsigned char*>(dst);
    if (pred) {
        if (src == nullptr) l.fail("cp_async_16 with a null source");
        if (reinterpret_cast<uintptr_t>(src) % 16 != 0)
            l.fail("cp_async_16 source is not 16-byte aligned");
        std::memcpy(c.bytes, src, 16);
    } else {
        std::memset(c.bytes, 0, 16);
    }
    // Undefined until the wait: the poison pattern.
    for (int i = 0; i < 16; i += 2) {
        c.dst[i] = static_cast<unsigned char>(gemm_emu::kSmemPoison & 0xFF);
        c.dst[i + 1] = static_cast<unsigned char>(gemm_emu::kSmemPoison >> 8);
    }
    l.open.push_back(c);
}

GEMM_FN void cp_async_commit(Lane& l) {
    l.committed.push_back(std::move(l.open));
    l.open.clear();
}

// Retires the oldest committed groups until at most N are pending.
template <int N>
GEMM_FN void cp_async_wait(Lane& l) {
    static_assert(N >= 0, "cp.async.wait_group takes a non-negative count");
    while (l.committed.size() > static_cast<size_t>(N)) {
        for (const gemm_emu::Copy& c : l.committed.front()) std::memcpy(c.dst, c.bytes, 16);
        l.committed.pop_front();
    }
}

GEMM_FN void sync_threads(Lane& l) {
    l.wait_at(l.cta->barrier);
}

// Lane l gives row l % 8 of matrix l / 8; d[j] = elements (l / 4, 2 (l % 4)) and
// (l / 4, 2 (l % 4) + 1) of matrix j, low half first.
GEMM_FN void ldmatrix_x4(Lane& l, uint32_t (&d)[4], const gemm_half_t* row) {
    l.check_smem(row, 16, "ldmatrix_x4 row address");
    uint32_t mine[4];
    std::memcpy(mine, row, 16);  // word t = the halves 2t (low) and 2t + 1 (high)
    const gemm_emu::Slots& s = l.exchange(gemm_emu::Collective::Ldmatrix, mine, 4);
    int r = l.lane() / 4, t = l.lane() % 4;
    for (int j = 0; j < 4; ++j) d[j] = s.words[8 * j + r][t];
}

namespace gemm_emu {

inline float half_of(uint32_t word, int i) {
    uint16_t bits = static_cast<uint16_t>(i == 0 ? word & 0xFFFF : word >> 16);
    gemm_half_t h;
    std::memcpy(&h, &bits, 2);
    return static_cast<float>(h);
}

inline uint32_t pack(gemm_half_t lo, gemm_half_t hi) {
    uint16_t a, b;
    std::memcpy(&a, &lo, 2);
    std::memcpy(&b, &hi, 2);
    return static_cast<uint32_t>(a) | (static_cast<uint32_t>(b) << 16);
}

// Where each element of A and B lives in the warp's slots: the inverse of the ownership above
// (the lane, the word of its published fragments, the half of that word).
struct Owner {
    uint8_t lane, word, half;
};
struct Owners {
    Owner a[16][16];  // [row][k]
    Owner b[16][8];   // [k][n]
};
constexpr Owners owners() {
    Owners o{};
    for (int lane = 0; lane < kWarp; ++lane) {
        for (int i = 0; i < 8; ++i) {
            RowCol rc = a_element(lane, i);
            o.a[rc.row][rc.col] = {static_cast<uint8_t>(lane), static_cast<uint8_t>(i / 2),
                                   static_cast<uint8_t>(i % 2)};
        }
        for (int i = 0; i < 4; ++i) {
            RowCol rc = b_element(lane, i);
            o.b[rc.row][rc.col] = {static_cast<uint8_t>(lane), static_cast<uint8_t>(4 + i / 2),
                                   static_cast<uint8_t>(i % 2)};
        }
    }
    return o;
}
inline constexpr Owners kOwners = owners();

inline float element(const Slots& s, Owner o) { return half_of(s.words[o.lane][o.word], o.half); }

// This lane's products from the whole warp's fragments: acc[i] += Σ_k A(row_i, k) B(k, col_i)
// for its C/D elements i = 0..3, k in order.
inline void mma_products(const Slots& s, int lane, float (&acc)[4]) {
    for (int i = 0; i < 4; ++i) {
        RowCol rc = cd_element(lane, i);
        for (int k = 0; k < 16; ++k)
            acc[i] += element(s, kOwners.a[rc.row][k]) * element(s, kOwners.b[k][rc.col]);
    }
}

}  // namespace gemm_emu

GEMM_FN void mma_16816_f16(Lane& l, uint32_t (&d)[2], const uint32_t (&a)[4],
                           const uint32_t (&b)[2]) {
    uint32_t mine[6] = {a[0], a[1], a[2], a[3], b[0], b[1]};
    const gemm_emu::Slots& s = l.exchange(gemm_emu::Collective::MmaF16, mine, 6);
    float acc[4];
    for (int i = 0; i < 4; ++i) acc[i] = gemm_emu::half_of(d[i / 2], i % 2);
    gemm_emu::mma_products(s, l.lane(), acc);
    d[0] = gemm_emu::pack(static_cast<gemm_half_t>(acc[0]), static_cast<gemm_half_t>(acc[1]));
    d[1] = gemm_emu::pack(static_cast<gemm_half_t>(acc[2]), static_cast<gemm_half_t>(acc[3]));
}

GEMM_FN void mma_16816_f32(Lane& l, float (&d)[4], const uint32_t (&a)[4],
                           const uint32_t (&b)[2]) {
    uint32_t mine[6] = {a[0], a[1], a[2], a[3], b[0], b[1]};
    const gemm_emu::Slots& s = l.exchange(gemm_emu::Collective::MmaF32, mine, 6);
    gemm_emu::mma_products(s, l.lane(), d);
}

GEMM_FN void unpack_h2(uint32_t r, gemm_half_t& lo, gemm_half_t& hi) {
    uint16_t a = static_cast<uint16_t>(r & 0xFFFF), b = static_cast<uint16_t>(r >> 16);
    std::memcpy(&lo, &a, 2);
    std::memcpy(&hi, &b, 2);
}

GEMM_FN gemm_half_t to_half(float x) { return static_cast<gemm_half_t>(x); }

// Runs `body(Lane&, gemm_half_t* smem, bx, by, tid)` on `threads` CPU threads per CTA for every CTA
// of the grid (one CTA after another, by then bx), each CTA with a fresh poisoned shared memory
// of `smem_bytes` bytes (1024-byte aligned). Throws `gemm_emu::Error` with the first failure of
// a CTA (its threads are stopped) and `std::invalid_argument` for an empty grid or CTA, more
// than 1024 threads, or more shared memory than `gemm_emu::kMaxSmemBytes`.
template <class Body>
void run_grid(int grid_x, int grid_y, int threads, size_t smem_bytes, Body body) {
    if (grid_x < 1 || grid_y < 1 || threads < 1 || threads > 1024)
        throw std::invalid_argument("run_grid: a grid of " + std::to_string(grid_x) + " x " +
                                    std::to_string(grid_y) + " CTAs of " +
                                    std::to_string(threads) +
                                    " threads (1 to 1024 threads, at least one CTA)");
    if (smem_bytes > gemm_emu::kMaxSmemBytes)
        throw std::invalid_argument("run_grid: " + std::to_string(smem_bytes) +
                                    " bytes of shared memory per CTA, more than the " +
                                    std::to_string(gemm_emu::kMaxSmemBytes) +
                                    " an sm_90 CTA can have");
    for (int by = 0; by < grid_y; ++by)
        for (int bx = 0; bx < grid_x; ++bx) {
            gemm_emu::Cta cta(bx, by, threads, smem_bytes);
            gemm_half_t* smem = reinterpret_cast<gemm_half_t*>(cta.smem.get());
            std::vector<std::thread> pool;
            pool.reserve(static_cast<size_t>(threads));
            try {
                for (int t = 0; t < threads; ++t)
                    pool.emplace_back([&cta, &body, smem, bx, by, t] {
                        Lane lane(t, &cta);
                        try {
                            body(lane, smem, bx, by, t);
                            lane.finish();
                        } catch (const gemm_emu::Cancelled&) {
                        } catch (const std::exception& e) {
                            cta.fail(lane.where() + ": " + e.what());
                        } catch (...) {
                            cta.fail(lane.where() + ": an exception");
                        }
                        lane.leave();
                        ++cta.ended;
                    });
            } catch (const std::exception& e) {
                cta.fail("CTA (" + std::to_string(bx) + ", " + std::to_string(by) +
                         "): could not start thread " + std::to_string(pool.size()) + ": " +
                         e.what());
            }
            std::mutex m;
            std::condition_variable cv;
            bool done = false;
            std::thread watchdog([&] { cta.watch(m, cv, done); });
            for (auto& th : pool) th.join();
            {
                std::lock_guard<std::mutex> lock(m);
                done = true;
            }
            cv.notify_all();
            watchdog.join();
            if (cta.failed()) throw gemm_emu::Error(cta.error);
        }
}

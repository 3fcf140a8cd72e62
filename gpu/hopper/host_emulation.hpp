// Host emulation of the Hopper GEMM's instruction layer (gpu/hopper/instructions.cuh compiled
// without __CUDACC__): CPU threads play CUDA threads, so the kernel template and the generated
// functions run unchanged on a machine without a GPU. Standard C++20 only (g++ -std=c++20
// -pthread on x86-64; `_Float16` is the half type). The semantics are the PTX ISA's and the CUDA
// driver's as written there, not the kernel's; what the documents leave open is listed below.
//
// Per CTA (`hg_run_grid`, CTAs one after another), shared by its threads:
// - Shared memory: a fresh buffer filled with the poison pattern `kSmemPoison` (a NaN as a half
//   and, pairwise, as a float). Its shared-window addresses (`hg_smem_u32`, the value of
//   `__cvta_generic_to_shared`) start at `hopper_emu::dynamic_smem_window` (1024 unless a test
//   sets another multiple of 16), so the kernel must align the base itself as on the GPU.
// - mbarrier objects (8 bytes of shared memory each; their state is kept beside the buffer):
//   `mbar_init(count)` starts phase 0 with `count` pending arrivals and a transaction count of
//   0; `mbar_arrive_expect_tx(bytes)` adds `bytes` to the transaction count, then arrives;
//   `mbar_arrive` takes one pending arrival; a TMA load completes its bytes on its barrier
//   (subtracting them from the transaction count, which may go negative). A phase completes
//   when its pending arrivals and its transaction count are both zero: the phase number grows
//   by one and the arrivals are re-armed. `mbar_wait(parity)` returns once the phase of that
//   parity has completed, i.e. as soon as the current phase's parity differs from `parity`
//   (so a fresh barrier, in phase 0, lets a wait on parity 1 through at once; a wait two
//   phases ahead passes as on the hardware). More arrivals than the count in one phase, a
//   transaction count outside ±(2^20 - 1), using a barrier before `mbar_init`, initialising
//   one twice, and a TMA on a barrier whose initialisation no `fence_mbar_init` of its
//   initialising thread has followed are errors.
// - TMA loads (`tma_load_2d`) complete LATE: the box is read from global memory when the load
//   is issued, its destination becomes the poison pattern at once, and the data lands (and the
//   bytes complete on the barrier) only when some thread waits on that barrier for a phase that
//   has not completed: the waiter completes the barrier's loads one at a time, oldest first,
//   until its phase completes. A kernel that reads a stage without waiting on the stage's
//   barrier, or waits on the wrong barrier or parity, reads the poison; one that expects fewer
//   bytes than its loads bring reads the poison of the loads that land after the phase
//   completed (or, with one load, never completes the phase: a deadlock); one that refills a
//   stage that wgmmas still read is reported when the wgmmas complete (below). Loads still in
//   flight when the CTA ends are an error. `mbar_test_wait` (mbarrier.test_wait.parity) answers without blocking and completes
//   no load.
//   The box at coordinates (c0, c1) (elements, dimension 0 innermost) is written row-major,
//   dimension 0 fastest, from `dst`; elements with a coordinate < 0 or ≥ its dimension are
//   written as zero. The swizzle is a function of the shared-memory ADDRESS (CUDA's swizzle
//   modes XOR the 16-byte chunk index, address bits [4, 4+B), with bits [7, 7+B), B = 3, 2, 1
//   for 128B, 64B, 32B; the pattern repeats every 1024, 512, 256 bytes, which is why swizzled
//   buffers are placed on those boundaries, and why the PTX ISA's matrix descriptor needs a
//   "base offset" when a pattern does not start on one): the byte at offset o of the box goes
//   to address swizzle(window(dst) + o). `hg_make_tensor_map` stands in for
//   cuTensorMapEncodeTiled, with its documented checks. `dst` must be 128-byte aligned (cp.async.bulk.tensor), the box in
//   shared memory, clear of every mbarrier. Not emulated (an error): a swizzled box whose inner
//   dimension is narrower than the swizzle span (the driver admits it; where the hardware puts
//   the narrower rows is not written down).
// - wgmma.mma_async m64n256k16 (`wgmma_m64n256k16_f32/_f16`), A and B K-major from matrix
//   descriptors decoded by the PTX ISA: start address bits 0-13 (×16 bytes), leading byte offset
//   16-29 (×16), stride byte offset 32-45 (×16), base offset 49-51, layout type 62-63 (0:
//   interleave, 1: 128B, 2: 64B, 3: 32B swizzle); reserved bits must be zero, a non-zero base
//   offset is not emulated (an error). K-major canonical layouts (16-byte core-matrix rows): with
//   a swizzle of span W bytes, row r of the operand (M or N) and k (0..15, 2-byte elements) are
//   at start + (r / 8)·SBO + (r % 8)·W + 2k, swizzled on the address bits as the TMA; without,
//   at start + (r / 8)·SBO + (r % 8)·16 + (k / 8)·LBO + 2(k % 8). D = A·Bᵀ + (accumulate ? D :
//   0) with D(m, n) = Σ_k A(m, k)·B(n, k) in the m64nNk16 D fragment (thread t of the
//   warpgroup, value j: row 16(t/32) + (t%32)/4 + 8((j/2)%2), column 8(j/4) + 2(t%4) + j%2;
//   f16 accumulators: value j in register j/2, half j%2, low half first).
//   Arithmetic: products of halves are exact in float; they are summed in float onto the
//   accumulator, k in order; f16 accumulators are rounded to half once per wgmma
//   (round-to-nearest-even). The PTX ISA leaves the internal precision and order of the
//   hardware's sum open, so only sums exact in every order (small integers) compare bit for
//   bit with the GPU.
//   ASYNC: at issue the accumulator registers take the poison pattern (reading them before the
//   `wgmma_wait` that retires the wgmma shows), the operands are read from shared memory (each
//   thread's before the warpgroup's barrier, and the whole tiles once), and the result lands in
//   the registers when `wgmma_wait<N>` retires the wgmma's group (oldest groups first until at
//   most N committed groups are pending; wgmmas not yet committed stay pending). A wgmma is one
//   operation of the warpgroup: it completes when the first thread of the warpgroup retires it
//   (so a warp may release a stage right after its own wait), and at that moment its tiles are
//   read again: shared memory that changed since the issue is an error (a stage released before
//   the wait and refilled; a race: caught when the refill is issued before the completion).
//   Several wgmmas in flight on the same accumulators chain, as the PTX ISA allows for the same
//   shape; writing the registers while a wgmma on them is in flight, a wgmma with no
//   `wgmma_fence` since its registers were last handed back (or since the thread started), and
//   returning with wgmmas in flight are errors. wgmma is warpgroup-collective: the 128 threads
//   of the warpgroup must execute it with the same descriptors and `accumulate`.
// - `setmaxnreg_inc/dec<R>`: no effect on the host; R must be a multiple of 8 in [24, 256] and
//   the whole warpgroup must execute the same one (checked).
// - `sync_threads`: a barrier of the CTA's threads; a thread that has returned no longer takes
//   part.
//
// Not emulated: timing, copies completing early, memory ordering beyond the barriers (plain
// loads and stores of different threads between two synchronisations race here as on the GPU),
// clusters and multicast, more than one CTA at a time.
//
// Errors (a violated rule, diverging warpgroups, work in flight at exit, no progress for
// `hopper_emu::patience`) stop every thread of the CTA; `hg_run_grid` then throws
// `hopper_emu::Error` whose message names the CTA and the thread.
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

#ifndef HG_FN
#define HG_FN inline
#endif
#ifndef HG_DEV
#define HG_DEV inline
#endif
#ifndef HG_UNROLL
#define HG_UNROLL
#endif

using hg_half_t = _Float16;

static_assert(sizeof(hg_half_t) == 2, "hg_half_t is 16 bits");
static_assert(std::endian::native == std::endian::little,
              "a packed f16x2 register keeps its first element in the low half");

// A tiled 2-D tensor map (the fields of CUDA's CUtensorMap that a tiled load reads), filled by
// `hg_make_tensor_map`.
struct HgTensorMap {
    uint32_t magic = 0;         // kMapMagic once filled
    const unsigned char* global = nullptr;
    uint32_t elem_bytes = 0;    // bytes per element
    uint64_t dims[2] = {0, 0};  // elements, dimension 0 innermost
    uint64_t stride = 0;        // bytes between consecutive indices of dimension 1
    uint32_t box[2] = {0, 0};   // elements
    int swizzle = 0;            // CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B
};

namespace hopper_emu {

inline constexpr uint32_t kMapMagic = 0x7E45A0u;
inline constexpr uint16_t kSmemPoison = 0x7FFF;
inline constexpr uint32_t kRegPoison = 0x7FFF7FFFu;  // a NaN as a float and as two halves
inline constexpr size_t kMaxSmemBytes = 227 * 1024;
inline constexpr int kWarpgroup = 128;
inline constexpr int64_t kTxLimit = (int64_t{1} << 20) - 1;
// The shared-window address of the first byte of the dynamic shared memory (a multiple of 16).
inline uint32_t dynamic_smem_window = 1024;
// How long a CTA may go without progress before the emulation reports a deadlock.
inline std::chrono::milliseconds patience{60000};

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct Cancelled {};

// The barrier of a CTA's, a warpgroup's threads (shared with the HGEMM's emulation).
using Barrier = host_threads::Barrier;

enum class Collective : uint32_t { None, WgmmaF32, WgmmaF16, SetmaxnregInc, SetmaxnregDec };

inline const char* name(Collective c) {
    switch (c) {
        case Collective::WgmmaF32: return "wgmma_m64n256k16_f32";
        case Collective::WgmmaF16: return "wgmma_m64n256k16_f16";
        case Collective::SetmaxnregInc: return "setmaxnreg_inc";
        case Collective::SetmaxnregDec: return "setmaxnreg_dec";
        default: return "nothing";
    }
}

// What the threads of a warpgroup publish for one collective: the instruction, its number in the
// thread's sequence of collectives and its operands (descriptors, flag, register count).
struct Slots {
    Collective what[kWarpgroup];
    uint64_t seq[kWarpgroup];
    uint64_t words[kWarpgroup][3];
    Slots() {
        for (int l = 0; l < kWarpgroup; ++l) {
            what[l] = Collective::None;
            seq[l] = ~uint64_t{0};
        }
    }
};

// One wgmma of a warpgroup, from issue until every thread has retired it: the operand tiles as
// they were when the warpgroup issued it (A 64×16, then B 256×16, halves' bits), and whether it
// has completed (some thread's wgmma_wait retired it: the tiles are read for the last time).
struct Op {
    uint64_t seq;
    std::vector<uint16_t> tiles;
    bool completed = false;
    int retired = 0;
};

struct Warpgroup {
    int threads = 0;
    Barrier barrier;
    Slots slots[2];
    std::mutex ledger_mutex;
    std::deque<Op> ops;
};

struct Mbar {
    uint32_t count = 0;     // arrivals per phase
    uint32_t pending = 0;   // arrivals still missing in the current phase
    int64_t tx = 0;         // transaction bytes still expected in the current phase
    uint64_t phase = 0;     // phases completed
    int init_tid = -1;      // the thread that initialised it
    bool fenced = false;    // a fence_mbar_init of that thread followed the init
};

// One TMA load in flight: its barrier, destination (buffer offsets) and the bytes it writes.
struct Load {
    uint32_t bar;                        // window address of the barrier
    std::vector<uint32_t> where;         // buffer offset of each byte
    std::vector<unsigned char> bytes;    // the byte written there
    int tid;
};

struct Cta {
    uint32_t x;
    int threads;
    size_t smem_bytes;
    uint32_t window0;  // window address of buffer byte 0 (1024-aligned)
    size_t lead;       // buffer offset of the dynamic shared memory
    std::unique_ptr<unsigned char, void (*)(unsigned char*)> buffer;
    Barrier barrier;
    std::vector<std::unique_ptr<Warpgroup>> warpgroups;
    // mbarriers and TMA loads, under `mutex`; waiters sleep on `cv`.
    std::mutex mutex;
    std::condition_variable cv;
    std::vector<std::pair<uint32_t, Mbar>> mbars;  // by window address
    std::deque<Load> loads;
    std::atomic<uint64_t> events{0};  // mbarrier phases and loads completed
    std::mutex error_mutex;
    std::string error;
    std::atomic<bool> failed_flag{false};
    std::atomic<int> ended{0};

    static void release(unsigned char* p) { ::operator delete(p, std::align_val_t{1024}); }

    Cta(uint32_t x_, int threads_, size_t smem_bytes_)
        : x(x_),
          threads(threads_),
          smem_bytes(smem_bytes_),
          window0(dynamic_smem_window & ~1023u),
          lead(dynamic_smem_window & 1023u),
          buffer(static_cast<unsigned char*>(
                     ::operator new(lead + smem_bytes_ + 16, std::align_val_t{1024})),
                 &Cta::release) {
        for (size_t i = 0; i < lead + smem_bytes + 16; ++i)
            buffer.get()[i] = (i % 2 == 0) ? static_cast<unsigned char>(kSmemPoison & 0xFF)
                                           : static_cast<unsigned char>(kSmemPoison >> 8);
        barrier.init(threads);
        for (int w = 0; w * kWarpgroup < threads; ++w) {
            warpgroups.push_back(std::make_unique<Warpgroup>());
            int n = threads - w * kWarpgroup;
            warpgroups.back()->threads = n < kWarpgroup ? n : kWarpgroup;
            warpgroups.back()->barrier.init(warpgroups.back()->threads);
        }
    }

    unsigned char* smem() { return buffer.get() + lead; }

    void fail(const std::string& message) {
        {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (error.empty()) error = message;
        }
        failed_flag.store(true);
        barrier.poison();
        for (auto& w : warpgroups) w->barrier.poison();
        // Waiters on mbarriers poll `failed()` at least every 20 ms (the caller may hold `mutex`).
        cv.notify_all();
    }
    bool failed() const { return failed_flag.load(); }

    Mbar* find(uint32_t addr) {
        for (auto& [a, m] : mbars)
            if (a == addr) return &m;
        return nullptr;
    }

    uint64_t progress() const {
        uint64_t p = barrier.phase() + static_cast<uint64_t>(ended.load()) + events.load();
        for (const auto& w : warpgroups) p += w->barrier.phase();
        return p;
    }

    std::string waiting() {
        std::string s = std::to_string(barrier.arrived()) + " of " +
                        std::to_string(barrier.expected()) + " threads wait at sync_threads";
        for (size_t w = 0; w < warpgroups.size(); ++w)
            if (int a = warpgroups[w]->barrier.arrived(); a != 0)
                s += ", " + std::to_string(a) + " of " +
                     std::to_string(warpgroups[w]->barrier.expected()) +
                     " threads of warpgroup " + std::to_string(w) + " wait at a collective";
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& [a, m] : mbars)
            s += "; mbarrier at " + std::to_string(a) + ": phase " + std::to_string(m.phase) +
                 ", " + std::to_string(m.pending) + " arrivals and " + std::to_string(m.tx) +
                 " transaction bytes missing";
        s += "; TMA loads in flight: " + std::to_string(loads.size());
        return s;
    }

    void watch(std::mutex& m, std::condition_variable& c, const bool& done) {
        std::unique_lock<std::mutex> lock(m);
        uint64_t last = progress();
        auto since = std::chrono::steady_clock::now();
        bool reported = false;
        while (!done) {
            c.wait_for(lock, std::chrono::milliseconds(50));
            if (done) return;
            auto now = std::chrono::steady_clock::now();
            if (uint64_t p = progress(); p != last) {
                last = p;
                since = now;
            } else if (now - since >= patience) {
                if (reported) {
                    std::fprintf(stderr, "hopper_emu: CTA %u does not stop after: %s\n", x,
                                 error.c_str());
                    std::abort();
                }
                fail("CTA " + std::to_string(x) + ": no progress for " +
                     std::to_string(patience.count()) + " ms (" + waiting() +
                     "): a deadlock, or a thread that never reaches its barrier");
                reported = true;
                since = now;
            }
        }
    }
};

inline float half_of(uint32_t word, int i) {
    uint16_t bits = static_cast<uint16_t>(i == 0 ? word & 0xFFFF : word >> 16);
    hg_half_t h;
    std::memcpy(&h, &bits, 2);
    return static_cast<float>(h);
}

inline uint32_t pack(hg_half_t lo, hg_half_t hi) {
    uint16_t a, b;
    std::memcpy(&a, &lo, 2);
    std::memcpy(&b, &hi, 2);
    return static_cast<uint32_t>(a) | (static_cast<uint32_t>(b) << 16);
}

// The swizzle of CUDA's modes on a shared-memory address: bits [7, 7+B) XORed into [4, 4+B).
inline uint32_t swizzle_address(uint32_t addr, int bits) {
    if (bits == 0) return addr;
    uint32_t mask = (1u << bits) - 1u;
    return addr ^ (((addr >> 7) & mask) << 4);
}

// The swizzle bits of a CUtensorMapSwizzle value (0 none, 1 32B, 2 64B, 3 128B).
inline int tma_swizzle_bits(int mode) { return mode; }

// The m64nNk16 D fragment.
inline uint32_t d_row(uint32_t t, uint32_t j) {
    return 16u * (t / 32u) + (t % 32u) / 4u + 8u * ((j / 2u) % 2u);
}
inline uint32_t d_col(uint32_t t, uint32_t j) { return 8u * (j / 4u) + 2u * (t % 4u) + j % 2u; }

// A decoded wgmma descriptor.
struct Desc {
    uint32_t start, lbo, sbo, base_offset, layout;
};

inline Desc decode(uint64_t d) {
    return {static_cast<uint32_t>(d & 0x3FFF) << 4, static_cast<uint32_t>((d >> 16) & 0x3FFF) << 4,
            static_cast<uint32_t>((d >> 32) & 0x3FFF) << 4,
            static_cast<uint32_t>((d >> 49) & 0x7), static_cast<uint32_t>(d >> 62)};
}

// The reserved bits of a wgmma descriptor: 14-15, 30-31, 46-48, 52-61.
inline constexpr uint64_t kDescReserved =
    (uint64_t{3} << 14) | (uint64_t{3} << 30) | (uint64_t{7} << 46) | (uint64_t{0x3FF} << 52);

// The shared-window byte address of element (r, k) of a K-major operand (2-byte elements).
inline uint32_t operand_address(const Desc& d, uint32_t r, uint32_t k) {
    if (d.layout == 0)
        return d.start + (r / 8u) * d.sbo + (r % 8u) * 16u + (k / 8u) * d.lbo + 2u * (k % 8u);
    int bits = d.layout == 1 ? 3 : d.layout == 2 ? 2 : 1;
    uint32_t span = 16u << bits;
    return swizzle_address(d.start + (r / 8u) * d.sbo + (r % 8u) * span + 2u * k, bits);
}

// An accumulator array of a thread and what the wgmmas in flight on it have done.
struct Acc {
    void* regs;
    int words;            // 128 (f32) or 64 (f16x2)
    Collective kind;
    uint32_t value[128];  // the registers' contents as the retired wgmmas leave them
    int in_flight = 0;
    bool owed = false;            // retired results not yet in the registers
    uint64_t handed_back_at = 0;  // the thread's fence count when it last got the registers
};

// One wgmma in flight.
struct Wgmma {
    uint64_t seq;  // the warpgroup-collective's number
    size_t acc;    // index into the thread's accumulators
    bool accumulate;
    uint64_t desc_a, desc_b;
    std::vector<uint16_t> operands;  // A rows (2 × 16), then B rows (64 × 16), as read at issue
};

}  // namespace hopper_emu

// The state of one emulated CUDA thread.
struct Lane {
    int tid;
    hopper_emu::Cta* cta;
    uint64_t collectives = 0;
    uint64_t fences = 0;
    std::vector<hopper_emu::Acc> accs;
    std::vector<hopper_emu::Wgmma> open;                   // not yet committed
    std::deque<std::vector<hopper_emu::Wgmma>> committed;  // oldest group first
    int regs = -1;                                         // setmaxnreg's last value

    Lane(int tid_, hopper_emu::Cta* cta_) : tid(tid_), cta(cta_) {}
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;

    int warpgroup() const { return tid / hopper_emu::kWarpgroup; }
    int rank() const { return tid % hopper_emu::kWarpgroup; }

    std::string where() const {
        return "CTA " + std::to_string(cta->x) + " thread " + std::to_string(tid) +
               " (warpgroup " + std::to_string(warpgroup()) + ", warp " +
               std::to_string(tid / 32) + ", lane " + std::to_string(tid % 32) + ")";
    }

    [[noreturn]] void fail(const std::string& what) {
        cta->fail(where() + ": " + what);
        throw hopper_emu::Cancelled{};
    }

    // The buffer offset of the shared-window address range [addr, addr + bytes), which must lie
    // in the CTA's dynamic shared memory.
    size_t offset_of(uint64_t addr, uint64_t bytes, const char* what) {
        uint64_t lo = cta->window0 + cta->lead, hi = lo + cta->smem_bytes;
        if (addr < lo || addr > hi || hi - addr < bytes)
            fail(std::string(what) + " is not in the CTA's shared memory (shared address " +
                 std::to_string(addr) + ", " + std::to_string(bytes) +
                 " bytes; the dynamic shared memory spans [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "))");
        return static_cast<size_t>(addr - cta->window0);
    }

    // The shared-window address of a generic pointer into the CTA's shared memory.
    uint32_t window(const void* p, uint64_t bytes, const char* what) {
        auto a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(cta->smem());
        if (a < b || a - b > cta->smem_bytes || cta->smem_bytes - (a - b) < bytes)
            fail(std::string(what) + " is not in the CTA's shared memory (byte offset " +
                 std::to_string(static_cast<long long>(a) - static_cast<long long>(b)) +
                 " of a dynamic shared memory of " + std::to_string(cta->smem_bytes) +
                 " bytes)");
        return static_cast<uint32_t>(cta->window0 + cta->lead + (a - b));
    }

    void wait_at(hopper_emu::Barrier& b) {
        if (!b.arrive_and_wait()) throw hopper_emu::Cancelled{};
    }

    // Publishes this thread's words for a warpgroup-collective, waits for the warpgroup and
    // checks every thread published the same collective with the same words.
    void exchange(hopper_emu::Collective what, const uint64_t (&words)[3]) {
        hopper_emu::Warpgroup& w = *cta->warpgroups[static_cast<size_t>(warpgroup())];
        if (w.threads != hopper_emu::kWarpgroup)
            fail(std::string(hopper_emu::name(what)) + " in a warpgroup of " +
                 std::to_string(w.threads) + " threads (warpgroup-collectives need 128)");
        uint64_t seq = collectives++;
        hopper_emu::Slots& s = w.slots[seq % 2];
        s.what[rank()] = what;
        s.seq[rank()] = seq;
        for (int i = 0; i < 3; ++i) s.words[rank()][i] = words[i];
        wait_at(w.barrier);
        // Every thread compares the warpgroup against the same reference, the first thread that
        // executed a collective, so that whichever thread reports a divergence reports the same one.
        int r = 0;
        while (s.seq[r] == ~uint64_t{0}) ++r;
        for (int l = 0; l < hopper_emu::kWarpgroup; ++l) {
            if (s.what[l] != s.what[r] || s.seq[l] != s.seq[r])
                fail("thread " + std::to_string(l) + " of the warpgroup did not execute " +
                     hopper_emu::name(s.what[r]) + " as warpgroup-collective #" + std::to_string(s.seq[r]) +
                     (s.seq[l] == ~uint64_t{0}
                          ? std::string(" (it executed none)")
                          : " (found: " + std::string(hopper_emu::name(s.what[l])) + " #" +
                                std::to_string(s.seq[l]) + ")") +
                     "; every thread of a warpgroup must execute the same collectives");
            for (int i = 0; i < 3; ++i)
                if (s.words[l][i] != s.words[r][i])
                    fail("thread " + std::to_string(l) + " of the warpgroup executed " +
                         hopper_emu::name(what) + " #" + std::to_string(seq) +
                         " with other operands (operand " + std::to_string(i) + ": " +
                         std::to_string(s.words[l][i]) + ", thread " + std::to_string(r) + "'s " +
                         std::to_string(s.words[r][i]) +
                         "); they must be uniform across the warpgroup");
        }
    }

    size_t wgmma_in_flight() const {
        size_t n = open.size();
        for (const auto& g : committed) n += g.size();
        return n;
    }

    void finish() {
        if (size_t n = wgmma_in_flight(); n != 0)
            fail("returned with wgmma in flight (" + std::to_string(n) +
                 " wgmma; committed groups not waited for: " + std::to_string(committed.size()) +
                 "; not committed: " + std::to_string(open.size()) + ")");
    }

    void leave() {
        cta->barrier.leave();
        cta->warpgroups[static_cast<size_t>(warpgroup())]->barrier.leave();
    }

    // The mbarrier at `bar` (locked by the caller).
    hopper_emu::Mbar& mbar(uint64_t* bar, const char* what) {
        uint32_t a = window(bar, 8, what);
        if (a % 8 != 0) fail(std::string(what) + ": the mbarrier is not 8-byte aligned");
        hopper_emu::Mbar* m = cta->find(a);
        if (m == nullptr)
            fail(std::string(what) + " on an mbarrier that was never initialised (shared address " +
                 std::to_string(a) + ")");
        return *m;
    }
};

namespace hopper_emu {

// The current thread's lane (for `hg_smem_u32`, which takes no lane, as on the GPU).
inline thread_local Lane* current = nullptr;

// Completes a phase of `m` if its arrivals and bytes are in (locked).
inline void try_complete(Cta& cta, Mbar& m) {
    if (m.pending == 0 && m.tx == 0) {
        ++m.phase;
        m.pending = m.count;
        cta.events.fetch_add(1);
        cta.cv.notify_all();
    }
}

inline void add_tx(Lane& l, Mbar& m, int64_t delta, const char* what) {
    m.tx += delta;
    if (m.tx > kTxLimit || m.tx < -kTxLimit)
        l.fail(std::string(what) + ": the mbarrier's transaction count " + std::to_string(m.tx) +
               " leaves ±(2^20 - 1)");
}

// Lands the oldest load of the barrier at `addr` (locked): its bytes, then complete_tx.
inline bool land_one(Lane& l, uint32_t addr) {
    Cta& cta = *l.cta;
    for (auto it = cta.loads.begin(); it != cta.loads.end(); ++it) {
        if (it->bar != addr) continue;
        unsigned char* buf = cta.buffer.get();
        for (size_t i = 0; i < it->bytes.size(); ++i) buf[it->where[i]] = it->bytes[i];
        Mbar* m = cta.find(addr);
        int64_t bytes = static_cast<int64_t>(it->bytes.size());
        cta.loads.erase(it);
        cta.events.fetch_add(1);
        add_tx(l, *m, -bytes, "a TMA load's complete_tx");
        try_complete(cta, *m);
        return true;
    }
    return false;
}

// Appends the halves' bits of row `r` (k 0..15) of the K-major operand of descriptor `d`.
inline void read_row(Lane& l, const Desc& d, uint32_t r, const char* which,
                     std::vector<uint16_t>& out) {
    for (uint32_t k = 0; k < 16; ++k) {
        size_t off = l.offset_of(operand_address(d, r, k), 2, which);
        uint16_t v;
        std::memcpy(&v, l.cta->buffer.get() + off, 2);
        out.push_back(v);
    }
}

// The rows of A and B one thread's D fragment needs: A rows d_row(t, 0) and d_row(t, 2), then
// B rows 8i + 2(t%4) + h for i in 0..31, h in 0..1 (locked by the caller).
inline void read_operands(Lane& l, uint64_t desc_a, uint64_t desc_b, std::vector<uint16_t>& out) {
    Desc da = decode(desc_a), db = decode(desc_b);
    uint32_t t = static_cast<uint32_t>(l.rank());
    out.clear();
    out.reserve(32 + 1024);
    for (uint32_t r : {d_row(t, 0), d_row(t, 2)}) read_row(l, da, r, "a wgmma's A operand", out);
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t h = 0; h < 2; ++h)
            read_row(l, db, 8u * i + 2u * (t % 4u) + h, "a wgmma's B operand", out);
}

// The whole operand tiles: A's 64 rows, then B's 256 (locked by the caller).
inline void read_tiles(Lane& l, uint64_t desc_a, uint64_t desc_b, std::vector<uint16_t>& out) {
    Desc da = decode(desc_a), db = decode(desc_b);
    out.clear();
    out.reserve(16 * (64 + 256));
    for (uint32_t r = 0; r < 64; ++r) read_row(l, da, r, "a wgmma's A operand", out);
    for (uint32_t r = 0; r < 256; ++r) read_row(l, db, r, "a wgmma's B operand", out);
}

// Whether a thread's operands equal its part of the tiles.
inline bool part_of(Lane& l, const std::vector<uint16_t>& part, const std::vector<uint16_t>& tiles) {
    uint32_t t = static_cast<uint32_t>(l.rank());
    size_t at = 0;
    for (uint32_t r : {d_row(t, 0), d_row(t, 2)})
        for (uint32_t k = 0; k < 16; ++k)
            if (part[at++] != tiles[16 * r + k]) return false;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t h = 0; h < 2; ++h)
            for (uint32_t k = 0; k < 16; ++k)
                if (part[at++] != tiles[16 * (64 + 8 * i + 2 * (t % 4) + h) + k]) return false;
    return true;
}

inline Op* find_op(Warpgroup& g, uint64_t seq) {
    for (Op& o : g.ops)
        if (o.seq == seq) return &o;
    return nullptr;
}

inline void check_desc(Lane& l, uint64_t d, const char* which) {
    if (d & kDescReserved)
        l.fail(std::string(which) + " descriptor has reserved bits set (" + std::to_string(d) +
               ")");
    Desc x = decode(d);
    if (x.base_offset != 0)
        l.fail(std::string(which) +
               " descriptor has a non-zero base offset (not emulated: the swizzle pattern "
               "must start on its repeat boundary)");
    // A swizzled operand that starts on another row of its pattern (address bits [7, 7 + b)
    // not zero) is what the base offset exists for; with base offset 0 the hardware's reading
    // is not documented, so it is refused rather than emulated by address. A start inside a
    // row (the k-block steps of 32 bytes) stays on row 0 and is emulated.
    if (x.layout != 0) {
        const uint32_t bits = x.layout == 1 ? 3u : x.layout == 2 ? 2u : 1u;
        const uint32_t rows = (x.start >> 7) & ((1u << bits) - 1u);
        if (rows != 0)
            l.fail(std::string(which) + " descriptor starts on row " + std::to_string(rows) +
                   " of its " + std::to_string(16u << bits) +
                   "-byte swizzle pattern (shared address " + std::to_string(x.start) +
                   ") with base offset 0 (not emulated: the pattern must start on its "
                   "repeat boundary)");
    }
}

inline float to_float(uint16_t bits) {
    hg_half_t h;
    std::memcpy(&h, &bits, 2);
    return static_cast<float>(h);
}

// Retires one wgmma: operands read again and compared, then the product onto the accumulators.
inline void retire(Lane& l, Wgmma& w) {
    Warpgroup& g = *l.cta->warpgroups[static_cast<size_t>(l.warpgroup())];
    {
        std::lock_guard<std::mutex> ledger(g.ledger_mutex);
        Op* op = find_op(g, w.seq);
        if (op == nullptr) l.fail("a wgmma the warpgroup has no record of");
        if (!op->completed) {
            // The first retirement in the warpgroup completes the wgmma: its last read.
            std::vector<uint16_t> now;
            {
                std::lock_guard<std::mutex> lock(l.cta->mutex);
                read_tiles(l, w.desc_a, w.desc_b, now);
            }
            if (now != op->tiles)
                l.fail("shared memory read by a wgmma changed between its issue and the "
                       "wgmma_wait that retired it (a stage refilled or written while a wgmma "
                       "still reads it)");
            op->completed = true;
        }
        if (++op->retired == g.threads) {
            for (auto it = g.ops.begin(); it != g.ops.end(); ++it)
                if (it->seq == w.seq) {
                    g.ops.erase(it);
                    break;
                }
        }
    }
    Acc& acc = l.accs[w.acc];
    float sum[128];
    for (uint32_t j = 0; j < 128; ++j) {
        float c = 0.0f;
        if (w.accumulate) {
            if (acc.kind == Collective::WgmmaF32)
                std::memcpy(&c, &acc.value[j], 4);
            else
                c = half_of(acc.value[j / 2], static_cast<int>(j % 2));
        }
        // A row: index 0 for rows d_row(t, 0), 1 for d_row(t, 2); B row: column n = 8i + 2(t%4)
        // + h is entry 2i + h.
        uint32_t ai = (j / 2u) % 2u, bi = 2u * (j / 4u) + j % 2u;
        for (uint32_t k = 0; k < 16; ++k)
            c += to_float(w.operands[16 * ai + k]) * to_float(w.operands[32 + 16 * bi + k]);
        sum[j] = c;
    }
    if (acc.kind == Collective::WgmmaF32) {
        for (uint32_t j = 0; j < 128; ++j) std::memcpy(&acc.value[j], &sum[j], 4);
    } else {
        for (uint32_t i = 0; i < 64; ++i)
            acc.value[i] = pack(static_cast<hg_half_t>(sum[2 * i]),
                                static_cast<hg_half_t>(sum[2 * i + 1]));
    }
    --acc.in_flight;
}

template <class Reg, int R>
void wgmma_issue(Lane& l, Reg (&d)[R], uint64_t desc_a, uint64_t desc_b, bool accumulate,
                 Collective kind) {
    static_assert(sizeof(Reg) == 4, "32-bit registers");
    // Each thread reads its operands before the warpgroup's barrier, thread 0 the whole tiles:
    // every read of the issue precedes every thread's next step, as on the hardware.
    Warpgroup& g = *l.cta->warpgroups[static_cast<size_t>(l.warpgroup())];
    if (g.threads != kWarpgroup)
        l.fail(std::string(name(kind)) + " in a warpgroup of " + std::to_string(g.threads) +
               " threads (warpgroup-collectives need 128)");
    check_desc(l, desc_a, "the A");
    check_desc(l, desc_b, "the B");
    Wgmma w;
    w.seq = l.collectives;
    w.accumulate = accumulate;
    w.desc_a = desc_a;
    w.desc_b = desc_b;
    {
        std::lock_guard<std::mutex> lock(l.cta->mutex);
        read_operands(l, desc_a, desc_b, w.operands);
    }
    if (l.rank() == 0) {
        Op op;
        op.seq = w.seq;
        {
            std::lock_guard<std::mutex> lock(l.cta->mutex);
            read_tiles(l, desc_a, desc_b, op.tiles);
        }
        std::lock_guard<std::mutex> ledger(g.ledger_mutex);
        g.ops.push_back(std::move(op));
    }
    uint64_t words[3] = {desc_a, desc_b, accumulate ? 1u : 0u};
    l.exchange(kind, words);
    {
        std::lock_guard<std::mutex> ledger(g.ledger_mutex);
        Op* op = find_op(g, w.seq);
        if (op == nullptr) l.fail("a wgmma the warpgroup has no record of");
        if (!part_of(l, w.operands, op->tiles))
            l.fail("shared memory read by a wgmma changed while the warpgroup issued it");
    }
    size_t index = l.accs.size();
    for (size_t i = 0; i < l.accs.size(); ++i)
        if (l.accs[i].regs == static_cast<void*>(d)) index = i;
    if (index == l.accs.size()) {
        Acc a{};
        a.regs = d;
        a.words = R;
        a.kind = kind;
        a.handed_back_at = 0;
        l.accs.push_back(a);
    }
    Acc& acc = l.accs[index];
    if (acc.in_flight != 0 && acc.kind != kind)
        l.fail(std::string(name(kind)) + " on accumulators that a " + name(acc.kind) +
               " in flight still writes");
    acc.kind = kind;
    if (acc.in_flight == 0) {
        if (l.fences <= acc.handed_back_at)
            l.fail(std::string(name(kind)) +
                   " with no wgmma_fence since its accumulator registers were last accessed "
                   "by the thread (or since the thread started)");
        std::memcpy(acc.value, d, sizeof(Reg) * R);
    } else {
        for (int i = 0; i < R; ++i) {
            uint32_t v;
            std::memcpy(&v, &d[i], 4);
            if (v != kRegPoison)
                l.fail("accumulator register " + std::to_string(i) +
                       " was written while a wgmma on it is in flight");
        }
    }
    for (int i = 0; i < R; ++i) std::memcpy(&d[i], &kRegPoison, 4);
    ++acc.in_flight;
    acc.owed = true;
    w.acc = index;
    l.open.push_back(std::move(w));
}

template <int R>
void setmaxnreg(Lane& l, Collective kind) {
    static_assert(R >= 24 && R <= 256 && R % 8 == 0,
                  "setmaxnreg takes a multiple of 8 in [24, 256]");
    uint64_t words[3] = {static_cast<uint64_t>(R), 0, 0};
    l.exchange(kind, words);
    if (l.regs >= 0 && ((kind == Collective::SetmaxnregInc && R < l.regs) ||
                        (kind == Collective::SetmaxnregDec && R > l.regs)))
        l.fail(std::string(name(kind)) + "<" + std::to_string(R) + "> after a budget of " +
               std::to_string(l.regs) + " registers");
    l.regs = R;
}

}  // namespace hopper_emu

// The shared-window address of a generic pointer into the CTA's shared memory
// (`__cvta_generic_to_shared`).
HG_FN uint32_t hg_smem_u32(const void* p) {
    Lane* l = hopper_emu::current;
    if (l == nullptr) throw std::logic_error("hg_smem_u32 outside an emulated thread");
    return l->window(p, 0, "hg_smem_u32's pointer");
}

// Fills `map` as cuTensorMapEncodeTiled would for a rank-2 tensor of `elem_bytes`-byte elements
// (interleave none, element strides 1, out-of-range elements zero): `global` the address of
// element (0, 0), `dim0` × `dim1` elements (dimension 0 innermost), `stride` bytes between
// consecutive indices of dimension 1, a box of `box0` × `box1` elements, `swizzle` a
// CUtensorMapSwizzle value (0 none, 1 32B, 2 64B, 3 128B). Returns 0 (CUDA_SUCCESS) or 1
// (CUDA_ERROR_INVALID_VALUE) for what the driver documents as invalid: `global` null or not
// 16-byte aligned; a dimension outside [1, 2^32]; `stride` not a multiple of 16, ≥ 2^40 or
// below dim0·elem_bytes; a box extent outside [1, 256]; box0·elem_bytes not a multiple of 16;
// `swizzle` outside 0..3, or a swizzled box whose inner extent (bytes) exceeds the swizzle span.
HG_FN int hg_make_tensor_map(HgTensorMap* map, const void* global, uint64_t dim0, uint64_t dim1,
                             uint64_t stride, uint32_t box0, uint32_t box1, int swizzle,
                             uint32_t elem_bytes = 2) {
    if (map == nullptr || global == nullptr || reinterpret_cast<uintptr_t>(global) % 16 != 0)
        return 1;
    if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8) return 1;
    const uint64_t dim_limit = uint64_t{1} << 32;
    if (dim0 < 1 || dim1 < 1 || dim0 > dim_limit || dim1 > dim_limit) return 1;
    if (stride % 16 != 0 || stride >= (uint64_t{1} << 40) || stride < dim0 * elem_bytes) return 1;
    if (box0 < 1 || box1 < 1 || box0 > 256 || box1 > 256) return 1;
    if ((uint64_t{box0} * elem_bytes) % 16 != 0) return 1;
    if (swizzle < 0 || swizzle > 3) return 1;
    if (swizzle != 0 && uint64_t{box0} * elem_bytes > (16u << swizzle)) return 1;
    map->magic = hopper_emu::kMapMagic;
    map->global = static_cast<const unsigned char*>(global);
    map->elem_bytes = elem_bytes;
    map->dims[0] = dim0;
    map->dims[1] = dim1;
    map->stride = stride;
    map->box[0] = box0;
    map->box[1] = box1;
    map->swizzle = swizzle;
    return 0;
}

// The same from a struct of the map's fields: `dims[2]`, `stride_bytes`, `box[2]`, `swizzle`
// (as the launcher's HgMapFields), for fp16 elements.
template <class Fields>
HG_FN int hg_make_tensor_map(HgTensorMap* map, const void* global, const Fields& f) {
    return hg_make_tensor_map(map, global, f.dims[0], f.dims[1], f.stride_bytes, f.box[0],
                              f.box[1], f.swizzle, 2);
}

HG_FN void mbar_init(Lane& l, uint64_t* bar, uint32_t count) {
    uint32_t a = l.window(bar, 8, "mbar_init");
    if (a % 8 != 0) l.fail("mbar_init: the mbarrier is not 8-byte aligned");
    if (count < 1 || count > static_cast<uint32_t>(hopper_emu::kTxLimit))
        l.fail("mbar_init with a count of " + std::to_string(count) + " (1 to 2^20 - 1)");
    std::lock_guard<std::mutex> lock(l.cta->mutex);
    if (l.cta->find(a) != nullptr) l.fail("mbar_init on an mbarrier already initialised");
    for (const auto& ld : l.cta->loads)
        for (uint32_t w : ld.where)
            if (w >= a - l.cta->window0 && w < a - l.cta->window0 + 8)
                l.fail("mbar_init on memory a TMA load in flight writes");
    hopper_emu::Mbar m;
    m.count = count;
    m.pending = count;
    m.init_tid = l.tid;
    l.cta->mbars.emplace_back(a, m);
    std::memset(l.cta->buffer.get() + (a - l.cta->window0), 0, 8);
}

HG_FN void fence_mbar_init(Lane& l) {
    std::lock_guard<std::mutex> lock(l.cta->mutex);
    for (auto& [a, m] : l.cta->mbars)
        if (m.init_tid == l.tid) m.fenced = true;
}

HG_FN void mbar_arrive(Lane& l, uint64_t* bar) {
    std::lock_guard<std::mutex> lock(l.cta->mutex);
    hopper_emu::Mbar& m = l.mbar(bar, "mbar_arrive");
    if (m.pending == 0)
        l.fail("mbar_arrive: more arrivals than the count (" + std::to_string(m.count) +
               ") in phase " + std::to_string(m.phase));
    --m.pending;
    hopper_emu::try_complete(*l.cta, m);
}

HG_FN void mbar_arrive_expect_tx(Lane& l, uint64_t* bar, uint32_t bytes) {
    std::lock_guard<std::mutex> lock(l.cta->mutex);
    hopper_emu::Mbar& m = l.mbar(bar, "mbar_arrive_expect_tx");
    hopper_emu::add_tx(l, m, bytes, "mbar_arrive_expect_tx");
    if (m.pending == 0)
        l.fail("mbar_arrive_expect_tx: more arrivals than the count (" + std::to_string(m.count) +
               ") in phase " + std::to_string(m.phase));
    --m.pending;
    hopper_emu::try_complete(*l.cta, m);
}

HG_FN void mbar_wait(Lane& l, uint64_t* bar, uint32_t parity) {
    if (parity > 1) l.fail("mbar_wait with a parity of " + std::to_string(parity));
    uint32_t a = l.window(bar, 8, "mbar_wait");
    std::unique_lock<std::mutex> lock(l.cta->mutex);
    for (;;) {
        if (l.cta->failed()) throw hopper_emu::Cancelled{};
        hopper_emu::Mbar& m = l.mbar(bar, "mbar_wait");
        if ((m.phase & 1u) != parity) return;
        if (hopper_emu::land_one(l, a)) continue;
        l.cta->cv.wait_for(lock, std::chrono::milliseconds(20));
    }
}

// mbarrier.test_wait.parity: whether the phase of parity `parity` has completed, without
// blocking (and without completing any load in flight).
HG_FN bool mbar_test_wait(Lane& l, uint64_t* bar, uint32_t parity) {
    if (parity > 1) l.fail("mbar_test_wait with a parity of " + std::to_string(parity));
    std::lock_guard<std::mutex> lock(l.cta->mutex);
    return (l.mbar(bar, "mbar_test_wait").phase & 1u) != parity;
}

HG_FN void tma_load_2d(Lane& l, void* dst, const HgTensorMap* map, int32_t c0, int32_t c1,
                       uint64_t* bar) {
    if (map == nullptr || map->magic != hopper_emu::kMapMagic)
        l.fail("tma_load_2d with a tensor map hg_make_tensor_map did not fill");
    const uint64_t e = map->elem_bytes, row = uint64_t{map->box[0]} * e,
                   bytes = row * map->box[1];
    uint32_t d = l.window(dst, bytes, "tma_load_2d destination");
    if (d % 128 != 0)
        l.fail("tma_load_2d destination is not 128-byte aligned (shared address " +
               std::to_string(d) + ")");
    int bits = hopper_emu::tma_swizzle_bits(map->swizzle);
    if (bits != 0 && row != (16u << bits))
        l.fail("tma_load_2d: a box of " + std::to_string(row) + "-byte rows under the " +
               std::to_string(16u << bits) +
               "-byte swizzle (rows narrower than the swizzle span are not emulated)");
    uint32_t b = l.window(bar, 8, "tma_load_2d mbarrier");
    hopper_emu::Load ld;
    ld.bar = b;
    ld.tid = l.tid;
    ld.where.resize(bytes);
    ld.bytes.resize(bytes);
    for (uint64_t i1 = 0; i1 < map->box[1]; ++i1)
        for (uint64_t i0 = 0; i0 < map->box[0]; ++i0) {
            int64_t g0 = int64_t{c0} + static_cast<int64_t>(i0),
                    g1 = int64_t{c1} + static_cast<int64_t>(i1);
            bool in = g0 >= 0 && g1 >= 0 && static_cast<uint64_t>(g0) < map->dims[0] &&
                      static_cast<uint64_t>(g1) < map->dims[1];
            uint64_t o = i1 * row + i0 * e;
            for (uint64_t x = 0; x < e; ++x) {
                uint32_t addr = hopper_emu::swizzle_address(d + static_cast<uint32_t>(o + x), bits);
                ld.where[o + x] = addr - l.cta->window0;
                ld.bytes[o + x] =
                    in ? map->global[static_cast<uint64_t>(g1) * map->stride +
                                     static_cast<uint64_t>(g0) * e + x]
                       : 0;
            }
        }
    std::lock_guard<std::mutex> lock(l.cta->mutex);
    hopper_emu::Mbar& m = l.mbar(bar, "tma_load_2d");
    if (!m.fenced)
        l.fail("tma_load_2d on an mbarrier whose initialisation no fence_mbar_init followed");
    for (const auto& [a, mb] : l.cta->mbars)
        if (a + 8 > d && a < d + bytes)
            l.fail("tma_load_2d destination overlaps the mbarrier at shared address " +
                   std::to_string(a));
    for (uint32_t w : ld.where) {
        l.cta->buffer.get()[w] = (w % 2 == 0) ? static_cast<unsigned char>(hopper_emu::kSmemPoison & 0xFF)
                                              : static_cast<unsigned char>(hopper_emu::kSmemPoison >> 8);
    }
    (void)b;
    l.cta->loads.push_back(std::move(ld));
    l.cta->cv.notify_all();
}

HG_FN void wgmma_fence(Lane& l) { ++l.fences; }

HG_FN void wgmma_commit(Lane& l) {
    l.committed.push_back(std::move(l.open));
    l.open.clear();
}

// Retires the oldest committed groups until at most N are pending; accumulators with no wgmma
// left in flight get their values.
template <int N>
HG_FN void wgmma_wait(Lane& l) {
    static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0 to 7");
    while (l.committed.size() > static_cast<size_t>(N)) {
        for (hopper_emu::Wgmma& w : l.committed.front()) hopper_emu::retire(l, w);
        l.committed.pop_front();
    }
    for (hopper_emu::Acc& a : l.accs)
        if (a.in_flight == 0 && a.owed) {
            for (int i = 0; i < a.words; ++i) {
                uint32_t v;
                std::memcpy(&v, static_cast<uint32_t*>(a.regs) + i, 4);
                if (v != hopper_emu::kRegPoison)
                    l.fail("accumulator register " + std::to_string(i) +
                           " was written while a wgmma on it was in flight");
            }
            std::memcpy(a.regs, a.value, 4 * static_cast<size_t>(a.words));
            a.owed = false;
            a.handed_back_at = l.fences;
        }
}

// Compiler-only on the GPU; nothing to do here.
template <int R>
HG_FN void wgmma_fence_operands(Lane&, float (&)[R]) {}
template <int R>
HG_FN void wgmma_fence_operands(Lane&, uint32_t (&)[R]) {}

HG_FN void wgmma_m64n256k16_f32(Lane& l, float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                bool accumulate) {
    hopper_emu::wgmma_issue(l, d, desc_a, desc_b, accumulate, hopper_emu::Collective::WgmmaF32);
}

HG_FN void wgmma_m64n256k16_f16(Lane& l, uint32_t (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                bool accumulate) {
    hopper_emu::wgmma_issue(l, d, desc_a, desc_b, accumulate, hopper_emu::Collective::WgmmaF16);
}

template <int R>
HG_FN void setmaxnreg_inc(Lane& l) {
    hopper_emu::setmaxnreg<R>(l, hopper_emu::Collective::SetmaxnregInc);
}
template <int R>
HG_FN void setmaxnreg_dec(Lane& l) {
    hopper_emu::setmaxnreg<R>(l, hopper_emu::Collective::SetmaxnregDec);
}

HG_FN void sync_threads(Lane& l) { l.wait_at(l.cta->barrier); }

HG_FN hg_half_t hg_to_half(float x) { return static_cast<hg_half_t>(x); }

// Half `which` (0: low, 1: high) of a packed f16x2 register.
HG_FN hg_half_t hg_half_of(uint32_t r, uint32_t which) {
    uint16_t bits = static_cast<uint16_t>(which ? r >> 16 : r & 0xFFFF);
    hg_half_t h;
    std::memcpy(&h, &bits, 2);
    return h;
}

// Runs `body(Lane&, uint8_t* smem, uint32_t x, uint32_t tid)` on `threads` CPU threads per CTA
// for every CTA x of a 1-D grid of `grid_x` (one CTA after another), each with a fresh poisoned
// dynamic shared memory of `smem_bytes` bytes starting at shared-window address
// `hopper_emu::dynamic_smem_window`. Throws `hopper_emu::Error` with the first failure of a CTA
// (its threads are stopped), including TMA loads still in flight when it ends, and
// `std::invalid_argument` for an empty grid or CTA, more than 1024 threads, or more shared memory
// than `hopper_emu::kMaxSmemBytes`.
template <class Body>
void hg_run_grid(uint32_t grid_x, int threads, size_t smem_bytes, Body body) {
    if (grid_x < 1 || threads < 1 || threads > 1024)
        throw std::invalid_argument("hg_run_grid: a grid of " + std::to_string(grid_x) +
                                    " CTAs of " + std::to_string(threads) +
                                    " threads (1 to 1024 threads, at least one CTA)");
    if (smem_bytes > hopper_emu::kMaxSmemBytes)
        throw std::invalid_argument("hg_run_grid: " + std::to_string(smem_bytes) +
                                    " bytes of shared memory per CTA, more than the " +
                                    std::to_string(hopper_emu::kMaxSmemBytes) +
                                    " an sm_90 CTA can have");
    if (hopper_emu::dynamic_smem_window % 16 != 0)
        throw std::invalid_argument("hg_run_grid: hopper_emu::dynamic_smem_window is not a "
                                    "multiple of 16");
    for (uint32_t x = 0; x < grid_x; ++x) {
        hopper_emu::Cta cta(x, threads, smem_bytes);
        std::vector<std::thread> pool;
        pool.reserve(static_cast<size_t>(threads));
        try {
            for (int t = 0; t < threads; ++t)
                pool.emplace_back([&cta, &body, x, t] {
                    Lane lane(t, &cta);
                    hopper_emu::current = &lane;
                    try {
                        body(lane, reinterpret_cast<uint8_t*>(cta.smem()), x,
                             static_cast<uint32_t>(t));
                        lane.finish();
                    } catch (const hopper_emu::Cancelled&) {
                    } catch (const std::exception& e) {
                        cta.fail(lane.where() + ": " + e.what());
                    } catch (...) {
                        cta.fail(lane.where() + ": an exception");
                    }
                    hopper_emu::current = nullptr;
                    lane.leave();
                    ++cta.ended;
                });
        } catch (const std::exception& e) {
            cta.fail("CTA " + std::to_string(x) + ": could not start thread " +
                     std::to_string(pool.size()) + ": " + e.what());
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
        if (!cta.failed() && !cta.loads.empty())
            cta.fail("CTA " + std::to_string(x) + ": " + std::to_string(cta.loads.size()) +
                     " TMA loads still in flight when the CTA ended (issued by thread " +
                     std::to_string(cta.loads.front().tid) +
                     "; no thread waited on their mbarrier)");
        if (cta.failed()) throw hopper_emu::Error(cta.error);
    }
}

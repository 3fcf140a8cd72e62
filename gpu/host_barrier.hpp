// A barrier of CPU threads for the host emulations of the GEMM kernels (gpu/gemm/ and
// gpu/hopper/host_emulation.hpp): the threads of a CTA, a warp or a warpgroup. Plain C++20.
#pragma once
#include <atomic>
#include <cstdint>

namespace host_threads {

// A barrier of a fixed set of threads that can shrink (a thread that returns leaves it) and be
// poisoned (every waiter wakes and unwinds). Waiters sleep on the phase word (a futex).
class Barrier {
   public:
    void init(int threads) { state_.store(pack(0, threads)); }

    // Waits until every remaining thread has arrived; false when the barrier was poisoned.
    bool arrive_and_wait() {
        uint32_t phase = phase_.load(std::memory_order_acquire);
        if (poisoned_.load(std::memory_order_acquire)) return false;
        uint64_t s = state_.load(std::memory_order_relaxed);
        for (;;) {
            uint32_t arrived = low(s) + 1, expected = high(s);
            bool last = arrived == expected;
            if (state_.compare_exchange_weak(s, pack(last ? 0 : arrived, expected),
                                             std::memory_order_acq_rel)) {
                if (last) {
                    complete();
                    return true;
                }
                break;
            }
        }
        while (phase_.load(std::memory_order_acquire) == phase) phase_.wait(phase);
        return !poisoned_.load(std::memory_order_acquire);
    }

    // The calling thread takes no further part.
    void leave() {
        uint64_t s = state_.load(std::memory_order_relaxed);
        for (;;) {
            uint32_t arrived = low(s), expected = high(s) - 1;
            bool last = arrived != 0 && arrived == expected;
            if (state_.compare_exchange_weak(s, pack(last ? 0 : arrived, expected),
                                             std::memory_order_acq_rel)) {
                if (last) complete();
                return;
            }
        }
    }

    // Wakes every waiter, now and later, with `false`.
    void poison() {
        poisoned_.store(true, std::memory_order_release);
        complete();
    }

    // Phases completed: the watchdog's measure of progress.
    uint32_t phase() const { return phase_.load(std::memory_order_acquire); }
    int arrived() const { return static_cast<int>(low(state_.load())); }
    int expected() const { return static_cast<int>(high(state_.load())); }

   private:
    static uint64_t pack(uint32_t arrived, uint32_t expected) {
        return arrived | (static_cast<uint64_t>(expected) << 32);
    }
    static uint32_t low(uint64_t s) { return static_cast<uint32_t>(s); }
    static uint32_t high(uint64_t s) { return static_cast<uint32_t>(s >> 32); }
    void complete() {
        phase_.fetch_add(1, std::memory_order_acq_rel);
        phase_.notify_all();
    }

    std::atomic<uint64_t> state_{0};  // arrived (low 32 bits), expected (high 32 bits)
    std::atomic<uint32_t> phase_{0};
    std::atomic<bool> poisoned_{false};
};

}  // namespace host_threads

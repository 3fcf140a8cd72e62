// PROVISIONAL, written by hand: replaced by the generator's output.
#pragma once
#include <cstdint>
#define HG_BM 128
#define HG_BN 256
#define HG_BK 64
#define HG_STAGES 4
#define HG_CONSUMERS 2
#define HG_THREADS 384
#define HG_KBLOCKS 4
#define HG_ACC 128
#define HG_GROUP 8
#define HG_SMEM_A 0
#define HG_SMEM_B 65536
#define HG_SMEM_BAR 196608
#define HG_SMEM_BYTES 196672
#define HG_STAGE_TX 49152
#define HG_TMA_A_BOX0 64
#define HG_TMA_A_BOX1 128
#define HG_TMA_B_BOX0 64
#define HG_TMA_B_BOX1 256
#define HG_TMA_SWIZZLE 3
HG_FN uint32_t hg_s_a(uint32_t stage) { return 16384u * stage; }
HG_FN uint32_t hg_s_b(uint32_t stage) { return 65536u + 32768u * stage; }
HG_FN uint64_t hg_desc_a(uint32_t base, uint32_t stage, uint32_t wg, uint32_t kb) {
    return (uint64_t{1} << 62) | (uint64_t{64} << 32) | (uint64_t{1} << 16) |
           uint64_t(((base + 16384u * stage + 8192u * wg + 32u * kb) >> 4) & 0x3FFFu);
}
HG_FN uint64_t hg_desc_b(uint32_t base, uint32_t stage, uint32_t kb) {
    return (uint64_t{1} << 62) | (uint64_t{64} << 32) | (uint64_t{1} << 16) |
           uint64_t(((base + 65536u + 32768u * stage + 32u * kb) >> 4) & 0x3FFFu);
}
HG_FN uint32_t hg_acc_m(uint32_t t, uint32_t j) { return 16u * (t / 32u) + (t % 32u) / 4u + 8u * ((j / 2u) % 2u); }
HG_FN uint32_t hg_acc_n(uint32_t t, uint32_t j) { return 8u * (j / 4u) + 2u * (t % 4u) + j % 2u; }
HG_FN uint32_t hg_tiles_m_(uint32_t M) { return (M + HG_BM - 1) / HG_BM; }
HG_FN uint32_t hg_tiles_n_(uint32_t N) { return (N + HG_BN - 1) / HG_BN; }
HG_FN uint32_t hg_grid_x(uint32_t M, uint32_t N) { return hg_tiles_m_(M) * hg_tiles_n_(N); }
HG_FN uint32_t hg_cta_m(uint32_t x, uint32_t M, uint32_t N) {
    const uint32_t tn = hg_tiles_n_(N), tm = hg_tiles_m_(M);
    const uint32_t g = x / (HG_GROUP * tn), first = g * HG_GROUP;
    const uint32_t gm = tm - first < HG_GROUP ? tm - first : HG_GROUP;
    return first + (x - g * HG_GROUP * tn) % gm;
}
HG_FN uint32_t hg_cta_n(uint32_t x, uint32_t M, uint32_t N) {
    const uint32_t tn = hg_tiles_n_(N), tm = hg_tiles_m_(M);
    const uint32_t g = x / (HG_GROUP * tn), first = g * HG_GROUP;
    const uint32_t gm = tm - first < HG_GROUP ? tm - first : HG_GROUP;
    return (x - g * HG_GROUP * tn) / gm;
}
HG_FN uint32_t hg_k_tiles(uint32_t K) { return (K + HG_BK - 1) / HG_BK; }

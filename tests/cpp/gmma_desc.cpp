// CuTe's wgmma shared-memory descriptors (`make_gmma_desc`), printed from the CUTLASS 4.2
// headers for `tests/tests/gmma_desc.rs`: every GMMA atom tiled by `tile_to_shape` to a 2-stage
// buffer of (2·MNW) × KT, cut by `local_tile` into the MNW × KW operand tiles of a 64×N×16
// wgmma (KW = 32 bytes of K). On the host CuTe cannot convert a pointer to a shared-memory
// address (its start field is 0 and it prints an `ERROR` line), so the start is printed as the
// tile's first element in bytes from the buffer, as CuTe's `raw_pointer_cast` gives it.
//
// Line format: `ATOM MNW STAGE KBLOCK MNBLOCK START LBO SBO LAYOUT_TYPE BASE_OFFSET`, LBO and
// SBO as the descriptor holds them (16-byte units).
#include <cstdio>
#include <cstdint>

#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

using namespace cute;

alignas(4096) static uint8_t buf[1 << 20];

template <class T, GMMA::Major M, class Atom, int MNW, int KW, int MNT, int KT>
void tiles(char const* name) {
  auto smem = tile_to_shape(Atom{}, make_shape(Int<MNT>{}, Int<KT>{}, Int<2>{}));
  T* base = reinterpret_cast<T*>(buf);
  auto t = make_tensor(make_smem_ptr(base), smem);
  for (int s = 0; s < 2; ++s) {
    for (int bk = 0; bk < KT / KW; ++bk) {
      for (int bmn = 0; bmn < MNT / MNW; ++bmn) {
        auto tile = local_tile(t(_, _, s), make_shape(Int<MNW>{}, Int<KW>{}), make_coord(bmn, bk));
        GmmaDescriptor d = GMMA::make_gmma_desc<M>(tile);
        long start = long(reinterpret_cast<uint8_t const*>(raw_pointer_cast(tile.data())) - buf);
        printf("%s %d %d %d %d %ld %d %d %d %d\n", name, MNW, s, bk, bmn, start,
               int(d.bitfield.leading_byte_offset_), int(d.bitfield.stride_byte_offset_),
               int(d.bitfield.layout_type_), int(d.bitfield.base_offset_));
      }
    }
  }
}

template <class T, GMMA::Major M, class Atom, int MNW>
void width(char const* name) {
  constexpr int MNA = decltype(size<0>(Atom{}))::value;
  constexpr int KA = decltype(size<1>(Atom{}))::value;
  constexpr int KW = 32 / int(sizeof(T));
  constexpr int KT = KA > KW ? KA : KW;
  if constexpr (MNW % MNA == 0) {
    tiles<T, M, Atom, MNW, KW, 2 * MNW, KT>(name);
  }
}

template <class T, GMMA::Major M, class Atom>
void atom(char const* name) {
  width<T, M, Atom, 8>(name);
  width<T, M, Atom, 16>(name);
  width<T, M, Atom, 64>(name);
  width<T, M, Atom, 128>(name);
  width<T, M, Atom, 256>(name);
}

#define ATOMS(T, SUFFIX)                                                                        \
  atom<T, GMMA::Major::K, GMMA::Layout_K_INTER_Atom<T>>("gmma_layout_k_inter_atom_" SUFFIX);   \
  atom<T, GMMA::Major::K, GMMA::Layout_K_SW32_Atom<T>>("gmma_layout_k_sw32_atom_" SUFFIX);     \
  atom<T, GMMA::Major::K, GMMA::Layout_K_SW64_Atom<T>>("gmma_layout_k_sw64_atom_" SUFFIX);     \
  atom<T, GMMA::Major::K, GMMA::Layout_K_SW128_Atom<T>>("gmma_layout_k_sw128_atom_" SUFFIX);   \
  atom<T, GMMA::Major::MN, GMMA::Layout_MN_INTER_Atom<T>>("gmma_layout_mn_inter_atom_" SUFFIX); \
  atom<T, GMMA::Major::MN, GMMA::Layout_MN_SW32_Atom<T>>("gmma_layout_mn_sw32_atom_" SUFFIX);   \
  atom<T, GMMA::Major::MN, GMMA::Layout_MN_SW64_Atom<T>>("gmma_layout_mn_sw64_atom_" SUFFIX);   \
  atom<T, GMMA::Major::MN, GMMA::Layout_MN_SW128_Atom<T>>("gmma_layout_mn_sw128_atom_" SUFFIX);

int main() {
  ATOMS(uint8_t, "uint8_t")
  ATOMS(half_t, "half_t")
  ATOMS(float, "float")
  return 0;
}

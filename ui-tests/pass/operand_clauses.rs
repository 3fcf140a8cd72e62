// Every GMMA shared-memory atom of 16-bit elements, K- and MN-major, tiled (column-major, as
// CuTe's `tile_to_shape`) to the 64×16 operand tile of one `wgmma`, passes its clause; so do
// a 128×16 B tile and the 128×64 box a tensor map loads for a 128-byte-swizzled CTA tile.
// A layout with run-time leaves is checked when its value is built.
use layout_typed::core_algebra::Error;
use layout_typed::prelude::*;

layout! {
    // K-major: CuTe's Layout_K_{INTER,SW32,SW64,SW128}_Atom<half_t> tiled to (64, 16).
    const K_INTER = cute ((8,8),(8,2)):((8,64),(1,512)), logical -> physical, wgmma K-major of 16-bit elements;
    const K_SW32 = cute (64,16):(16,1), logical -> physical, Swizzle<1,4,3> over bytes of 16-bit elements, wgmma K-major;
    const K_SW64 = cute (64,16):(32,1), logical -> physical, Swizzle<2,4,3> over bytes of 16-bit elements, wgmma K-major;
    const K_SW128 = cute (64,16):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
    // MN-major: CuTe's Layout_MN_{INTER,SW32,SW64,SW128}_Atom<half_t> tiled to (64, 16).
    const MN_INTER = cute ((8,8),(8,2)):((1,64),(8,512)), logical -> physical, wgmma MN-major of 16-bit elements;
    const MN_SW32 = cute ((16,4),(8,2)):((1,128),(16,512)), logical -> physical, Swizzle<1,4,3> over bytes of 16-bit elements, wgmma MN-major;
    const MN_SW64 = cute ((32,2),(8,2)):((1,256),(32,512)), logical -> physical, Swizzle<2,4,3> over bytes of 16-bit elements, wgmma MN-major;
    const MN_SW128 = cute (64,16):(1,64), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma MN-major;
    // B of m64n128k16, K-major under the 128-byte swizzle.
    const B_128 = cute (128,16):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
    // A stage of A (128×64, K innermost) as one TMA box.
    const STAGE = cute (128,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, tma box;
    // Both clauses: a 32-byte-swizzled 64×16 tile is one box and one wgmma operand.
    const BOTH = cute (64,16):(16,1), logical -> physical, Swizzle<1,4,3> over bytes of 16-bit elements, tma box, wgmma K-major;
    // An unswizzled box, MN innermost.
    const PLAIN = cute (64,16):(1,64), logical -> physical, tma box of 16-bit elements;
}

fn main() {
    // The clauses add nothing at run time: the values are the same layouts.
    assert_eq!(K_SW128.offset((0usize, 1usize)), 64 ^ 8);
    assert_eq!(MN_INTER.size(), 64 * 16);
    assert_eq!(STAGE.size(), 128 * 64);
    assert_eq!(BOTH.size(), PLAIN.size());
    let _ = (K_INTER, K_SW32, K_SW64, MN_SW32, MN_SW64, MN_SW128, B_128);
    // Run-time leaves: the clause is checked on the real values.
    // The two 16-byte chunks of K of an interleaved K-major tile `lbo` elements apart.
    let tile = |lbo: i64| {
        layout!(((2,8),(8,8)):(({lbo},1),(64,8)), logical -> physical, wgmma K-major of 16-bit elements)
    };
    let _ = tile(512).expect("K chunks 1024 bytes apart: a descriptor's LBO");
    assert_eq!(
        tile(516).err(),
        Some(Error::GmmaByteOffsetAlignment {
            field: layout_typed::core_algebra::gmma::ByteOffset::Leading,
            bytes: 1032,
        })
    );
    // The same in an algebra expression: the operand's clause is checked when the value is
    // built, on the real values.
    let grouped = |lbo: i64| {
        layout!(group([((2,8),(8,8)):(({lbo},1),(64,8)), logical -> physical, wgmma K-major of 16-bit elements], 0, 2))
    };
    assert!(grouped(512).is_ok());
    assert_eq!(
        grouped(516).err(),
        Some(Error::GmmaByteOffsetAlignment {
            field: layout_typed::core_algebra::gmma::ByteOffset::Leading,
            bytes: 1032,
        })
    );
    let boxed = |ld: i64| layout!((64, 8):({ld}, 1), logical -> physical, tma box of 16-bit elements);
    assert!(boxed(8).is_ok());
    assert!(matches!(boxed(16), Err(Error::TmaNotBox { .. })));
}

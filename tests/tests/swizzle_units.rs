//! CuTe swizzles pasted with their unit: a swizzle of byte addresses, converted to element
//! offsets, gives every byte of every element of a tile the address CuTe's byte swizzle gives
//! it; where no element swizzle can (the swizzle moves bytes inside an element, or the element
//! width is not a power of two), the conversion is an error, and the enumeration here shows that
//! some element's bytes are indeed split or reordered.
//!
//! The byte swizzle is written out here (`x ^ ((x >> (M + S)) & (2^B − 1)) << M`, CuTe's
//! `Swizzle<B,M,S>` for `S ≥ 0`, `x ^ ((x >> M) & (2^B − 1)) << (M − S)` for `S < 0`), not taken
//! from `layout-core`. The same holds through `layout!`.

use layout_core::{Swizzle, SwizzleUnit};
use layout_typed::{Layout, layout};

/// CuTe's `Swizzle<B,M,S>` on an address, written out.
fn cute_swizzle(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let mask = (1i64 << b) - 1;
    if s >= 0 {
        x ^ (((x >> (m + s)) & mask) << m)
    } else {
        x ^ (((x >> m) & mask) << (m - s))
    }
}

/// Element widths in bits, powers of two and not.
const WIDTHS: [u32; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 3, 12, 24];

/// The byte addresses of a tile: every field of the swizzles below (bits < 14) is exercised.
const BYTES: i64 = 1 << 14;

/// Checks the element swizzle `sw` against the byte swizzle over every byte of the tile, or,
/// when `sw` is `None`, that the byte swizzle splits or reorders some element. Byte `j` of
/// element `e` (`w`-byte elements) must land at byte `j` of element `sw(e)`; a sub-byte element
/// in slot `j` of byte `x` (`k` slots a byte) stays in slot `j` of byte `σ(x)`, element
/// `σ(x)·k + j`.
fn agrees(b: i64, m: i64, s: i64, bits: u32, sw: Option<Swizzle>) -> bool {
    let bits = i64::from(bits);
    if bits < 8 {
        let k = 8 / bits;
        return (0..BYTES).all(|x| {
            let e = x * k + x % k;
            sw.is_some_and(|sw| sw.apply(e) == cute_swizzle(b, m, s, x) * k + x % k)
        });
    }
    let w = bits / 8;
    (0..BYTES).all(|x| {
        let (e, j) = (x / w, x % w);
        let moved = cute_swizzle(b, m, s, x);
        moved % w == j && sw.is_some_and(|sw| sw.apply(e) == moved / w)
    })
}

/// Whether the byte swizzle keeps every element of the tile whole and in order.
fn whole(b: i64, m: i64, s: i64, bits: u32) -> bool {
    let bits = i64::from(bits);
    if bits < 8 {
        return true; // bytes move whole, and the slots inside them with them
    }
    let w = bits / 8;
    (0..BYTES).all(|x| {
        let moved = cute_swizzle(b, m, s, x);
        moved % w == x % w && moved / w == cute_swizzle(b, m, s, x - x % w) / w
    })
}

#[test]
fn byte_swizzles_convert_exactly_or_are_refused() {
    let (mut converted, mut refused) = (0usize, 0usize);
    for b in 0..=3i64 {
        for m in 0..=6i64 {
            for s in -5..=5i64 {
                if s.abs() < b {
                    continue; // overlapping fields: not a swizzle in either unit
                }
                for bits in WIDTHS {
                    let ours = Swizzle::from_cute(b, m, s, SwizzleUnit::Bytes { elem_bits: bits });
                    let keeps = bits.is_power_of_two() && whole(b, m, s, bits);
                    match ours {
                        Ok(sw) => {
                            assert!(
                                keeps && agrees(b, m, s, bits, Some(sw)),
                                "Swizzle<{b},{m},{s}> over {bits}-bit elements: {sw} disagrees"
                            );
                            converted += 1;
                        }
                        Err(e) => {
                            assert_eq!(e.rule(), "swizzle-unit", "{b},{m},{s} / {bits}: {e}");
                            // Refused only where no element swizzle exists (or the width is
                            // not a power of two, which no bit-field swizzle can serve).
                            assert!(!keeps, "Swizzle<{b},{m},{s}> over {bits}-bit elements: {e}");
                            refused += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(converted > 500 && refused > 50, "{converted} / {refused}");
    // SW128 on fp16 is Swizzle<3,3,3> on elements, not Swizzle<3,4,3>.
    let fp16 = Swizzle::from_cute(3, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 }).expect("exact");
    assert_eq!(fp16.to_cute(), (3, 3, 3));
    let as_elements = Swizzle::from_cute(3, 4, 3, SwizzleUnit::Elements).expect("valid");
    assert!((0..BYTES).any(|e| as_elements.apply(e) != fp16.apply(e)));
}

layout! {
    /// CuTe's SW128 atom over fp16: 8 rows of 64 elements (128 bytes), CuTe order.
    const SW128_FP16 = cute (8,64):(64,1), logical -> physical,
        Swizzle<3,4,3> over bytes of 16-bit elements;
    /// The same rows of 32-bit elements: 8 rows of 32.
    const SW128_FP32 = cute (8,32):(32,1), logical -> physical,
        Swizzle<3,4,3> over bytes of 32-bit elements;
    /// 4-bit elements: 8 rows of 256.
    const SW128_INT4 = cute (8,256):(256,1), logical -> physical,
        Swizzle<3,4,3> over bytes of 4-bit elements;
    /// On elements, as written.
    const SW_ELEMENTS = cute (8,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements;
}

/// `layout!` over bytes: element `i`'s offset, in elements, is where the byte swizzle sends its
/// first byte (or, for 4-bit elements, its byte, with the nibble kept).
#[test]
fn layout_macro_converts_byte_swizzles() {
    // CuTe order: index i is row i % 8, column i / 8.
    let row = |i: i64, per_row: i64| (i % 8) * per_row + i / 8;
    for i in 0..512usize {
        let e = row(i as i64, 64);
        assert_eq!(
            SW128_FP16.offset_index(i),
            cute_swizzle(3, 4, 3, 2 * e) / 2,
            "fp16 {i}"
        );
        assert_eq!(SW_ELEMENTS.offset_index(i), SW128_FP16.offset_index(i));
    }
    for i in 0..256usize {
        let e = row(i as i64, 32);
        assert_eq!(
            SW128_FP32.offset_index(i),
            cute_swizzle(3, 4, 3, 4 * e) / 4,
            "fp32 {i}"
        );
    }
    for i in 0..2048usize {
        let e = row(i as i64, 256);
        let want = cute_swizzle(3, 4, 3, e / 2) * 2 + e % 2;
        assert_eq!(SW128_INT4.offset_index(i), want, "int4 {i}");
    }
}

/// The `swizzle(L, ..)` operation takes CuTe's spelling with its unit too, and converts it the
/// same way: an operation over a plain row-major tile equals the byte swizzle at every element.
#[test]
fn swizzle_operation_takes_cute_spelling() {
    let fp16 = layout!(swizzle(
        [(8,64):(64,1), logical -> physical],
        Swizzle<3,4,3> over bytes of 16-bit elements
    ));
    let elements = layout!(swizzle(
        [(8,64):(64,1), logical -> physical],
        Swizzle<3,3,3> over elements
    ));
    for i in 0..512usize {
        let e = i as i64;
        assert_eq!(
            fp16.offset_index(i),
            cute_swizzle(3, 4, 3, 2 * e) / 2,
            "fp16 {i}"
        );
        assert_eq!(
            elements.offset_index(i),
            fp16.offset_index(i),
            "elements {i}"
        );
    }
}

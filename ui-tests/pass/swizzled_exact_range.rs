// Swizzled layouts build under `cargo build` with their exact offset range in the type: no
// enumeration in const evaluation, at any size.
use layout_typed::prelude::*;

layout! {
    const SMEM = (256,256):(256,1), logical -> physical, swizzle(b = 3, src = 4, dst = 0);
    const WIDE = (256,512):(1024,1), logical -> physical, swizzle(b = 1, src = 9, dst = 7);
    const HIGH = (512,256):(256,1), logical -> physical, swizzle(b = 1, src = 40, dst = 0);
}

fn main() {
    // Bits 4..7 into bits 0..3 permute each 256-offset row: every offset in [0, 2^16).
    assert_eq!(SMEM.cosize(), 1 << 16);
    // Rows start at multiples of 1024 and columns stay below 512, so bit 9 is never set: the
    // last offset is 255·1024 + 511 (a bound from the span alone would say 2^18 − 1).
    assert_eq!(WIDE.cosize(), 255 * 1024 + 511 + 1);
    // Bit 40 is never set: the identity.
    assert_eq!(HIGH.cosize(), 131_072);
    let buf = vec![0u8; WIDE.cosize()];
    assert!(View::try_new(&buf[..], WIDE).is_ok());
}

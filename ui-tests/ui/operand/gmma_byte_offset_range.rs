use layout_typed::layout;

layout! {
    // Groups of 8 rows 280000 bytes apart: past the 14-bit field.
    const TILE = cute ((8,8),16):((64,140000),1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

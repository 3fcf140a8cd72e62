//! A `#![no_std]` consumer of `layout-typed` without `std`: declared items, a typed
//! composition, algebra results (a decided layout and a generated type), a swizzle, a
//! run-time restriction and run-time leaves. It only has to build.
#![no_std]
#![forbid(unsafe_code)]

use layout_typed::core_algebra::Error;
use layout_typed::prelude::*;

layout! {
    /// 16 rows of 32, row-major.
    pub const SMEM = (16,32):(32,1), logical -> physical;
    /// 128 threads × 4 values.
    pub const TV = (128,4):(4,1), thread-value -> logical;
    /// A storage layout whose composite with `TV3` is not a layout (a generated type).
    pub const A3 = (3,2):(1,3), logical -> physical;
    /// 2 × 3 thread-value positions.
    pub const TV3 = (2,3):(3,1), thread-value -> logical;
    /// `A3` with its logical tile shape (generated code then rebuilds tiles at run time).
    pub const A3T = (3,2):(1,3), logical(3,2) -> physical;
    /// `TV3` onto that tile.
    pub const TV3T = (2,3):(3,1), thread-value -> logical(3,2);
    /// A swizzled 64 × 64 tile.
    pub const SW64 = cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements;
    /// 256 threads × 16 values over SW64's index.
    pub const TV64 = (value: (2,8), thread: (8,32)):((32,64),(512,1)), thread-value -> logical;
}

/// Thread `t`, value `v` of the typed composition.
pub fn composed(t: usize, v: usize) -> Option<i64> {
    compose(SMEM, TV).try_offset((t, v))
}

/// An algebra result that is a layout.
pub fn divided(i: usize) -> i64 {
    layout!(divide(SMEM, (4, 8))).offset(i)
}

/// An algebra result evaluated by generated code, and its run-time rebuild.
pub fn generated(i: usize) -> Option<i64> {
    let g = layout!(compose(A3, TV3));
    let _ = g.to_map();
    g.try_offset(i)
}

/// A generated type that carries tile shapes.
pub fn generated_tiles(i: usize) -> Option<i64> {
    let g = layout!(compose(A3T, TV3T));
    let _ = g.to_map();
    g.try_offset(i)
}

/// A swizzled read.
pub fn swizzled(k: usize, m: usize) -> i64 {
    SW64.offset((k, m))
}

/// Thread `t`'s slice of a swizzled partition (a run-time restriction).
pub fn slice(t: usize, v: usize) -> i64 {
    layout!(restrict(compose(SW64, TV64), thread = t)).offset(v)
}

/// Run-time leaves.
///
/// # Errors
/// The layout's checks.
pub fn runtime(m: u32, ld: u64) -> Result<Option<i64>, Error> {
    let g = layout!(({m}, 8):({ld}, 1), logical -> physical)?;
    Ok(g.try_offset((1usize, 2usize)))
}

/// Stores through a view.
pub fn store(buf: &mut [f32; 512]) {
    let mut v = View::new(buf, SMEM);
    v.set((1usize, 2usize), 1.0);
}

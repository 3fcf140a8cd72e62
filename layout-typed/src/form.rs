//! Type-level shape:stride trees and their evaluation at coordinates.
//!
//! `layout!` turns `(16,32):(32,1)` into the type `(Dim<16, 32>, Dim<32, 1>)`: every leaf is a
//! [`Dim`] (size, stride) or a [`Bcast`] (size, broadcast stride `_`), tuples are Rust tuples in
//! seed order (the last entry varies fastest). Evaluation is resolved by traits on these types,
//! so after inlining an offset is exactly `Σ cᵢ·dᵢ` with constant strides, and unflattening an
//! integer uses constant divisors (shifts and masks for powers of two).

use core::fmt;

/// A leaf mode: size `N` (≥ 1), integer stride `D` (elements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim<const N: usize, const D: isize>;

/// A leaf mode of size `N` with the broadcast stride `_`: contributes 0, read-only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bcast<const N: usize>;

/// The most leaves a form may have (the macro rejects more).
pub const MAX_LEAVES: usize = 32;

/// A flat layout as constants: the leaves' sizes and strides in order (the last varies fastest;
/// a broadcast has stride 0). The typed API evaluates composites through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaves {
    /// Number of leaves.
    pub len: usize,
    /// Their sizes.
    pub sizes: [usize; MAX_LEAVES],
    /// Their strides (elements; 0 for a broadcast).
    pub strides: [isize; MAX_LEAVES],
}

/// The most coordinates [`Leaves::compose`] enumerates when its symbolic test does not apply
/// (operands whose mode boundaries do not form one divisibility chain); past it the composite
/// is evaluated as written. Kept small: the enumeration runs in const evaluation.
pub const COMPOSE_ENUMERATION_LIMIT: usize = 1 << 10;

impl Leaves {
    /// One leaf.
    #[must_use]
    pub const fn one(size: usize, stride: isize) -> Leaves {
        let mut l = Leaves {
            len: 1,
            sizes: [1; MAX_LEAVES],
            strides: [0; MAX_LEAVES],
        };
        l.sizes[0] = size;
        l.strides[0] = stride;
        l
    }

    /// The leaves of `a` then those of `b` (truncated at [`MAX_LEAVES`]; `layout!` rejects
    /// forms with more).
    #[must_use]
    pub const fn concat(a: Leaves, b: Leaves) -> Leaves {
        let mut out = a;
        let mut j = 0;
        while j < b.len && out.len < MAX_LEAVES {
            out.sizes[out.len] = b.sizes[j];
            out.strides[out.len] = b.strides[j];
            // Both below MAX_LEAVES (loop condition).
            out.len = out.len.saturating_add(1);
            j = j.saturating_add(1);
        }
        out
    }

    /// Product of the sizes; `None` when it overflows `usize` or `len` exceeds [`MAX_LEAVES`].
    #[must_use]
    pub const fn size(&self) -> Option<usize> {
        if self.len > MAX_LEAVES {
            return None;
        }
        let mut n = 1usize;
        let mut j = 0;
        while j < self.len {
            n = match n.checked_mul(self.sizes[j]) {
                Some(v) => v,
                None => return None,
            };
            j = j.saturating_add(1);
        }
        Some(n)
    }

    /// The value at flat index `i` (last leaf fastest), or `None` when `i` is outside
    /// `[0, size)`, a size is 0, or the value overflows `isize`.
    #[must_use]
    pub const fn eval(&self, i: usize) -> Option<isize> {
        match self.size() {
            Some(n) if i < n => {}
            _ => return None,
        }
        let mut rest = i;
        let mut acc = 0isize;
        let mut j = self.len;
        while j > 0 {
            j = j.saturating_sub(1);
            let size = self.sizes[j];
            let (Some(c), Some(q)) = (rest.checked_rem(size), rest.checked_div(size)) else {
                return None;
            };
            rest = q;
            let Some(c) = isize_of(c) else { return None };
            acc = match c.checked_mul(self.strides[j]) {
                Some(t) => match acc.checked_add(t) {
                    Some(v) => v,
                    None => return None,
                },
                None => return None,
            };
        }
        Some(acc)
    }

    /// Whether `Σ cⱼ·sⱼ` over the domain computes in an integer type of range `[lo, hi]`
    /// without leaving it: every coordinate of a leaf with a non-zero stride, every term
    /// `cⱼ·sⱼ` and every partial sum of terms (whatever the order: each lies between the sum of
    /// the terms' minima and the sum of their maxima) lies in `[lo, hi]`. Exact in `i128`.
    #[must_use]
    pub const fn fits(&self, lo: i64, hi: i64) -> bool {
        if self.len > MAX_LEAVES {
            return false;
        }
        let (lo, hi) = (lo as i128, hi as i128);
        let (mut min, mut max) = (0i128, 0i128);
        let mut j = 0;
        while j < self.len {
            let d = self.strides[j] as i128;
            if d != 0 {
                // A size of a leaf is at least 1 and at most `usize::MAX`: exact in i128.
                let last = (self.sizes[j] as i128).saturating_sub(1);
                if last > hi {
                    return false;
                }
                let span = last.saturating_mul(d);
                let (a, b) = if d < 0 { (span, 0) } else { (0, span) };
                if a < lo || b > hi {
                    return false;
                }
                min = min.saturating_add(a);
                max = max.saturating_add(b);
            }
            j = j.saturating_add(1);
        }
        min >= lo && max <= hi
    }

    /// The largest `σ(L(i))` over the domain for the swizzle `(b, src, dst)`, by enumeration
    /// (up to 2^16 coordinates, one addition each); `None` past it or for fields outside
    /// `0..64`.
    #[must_use]
    pub const fn swizzled_max(&self, b: u32, src: u32, dst: u32) -> Option<i64> {
        let Some(n) = self.size() else { return None };
        if n > 1 << 16 || b >= 63 || src >= 64 || dst >= 64 || self.len == 0 {
            return None;
        }
        // `b < 63`, so the mask is in range.
        let mask = (1i64 << b).saturating_sub(1);
        let mut max = i64::MIN;
        // Odometer over the coordinates, last leaf fastest. Wrapping: a step past a leaf's end
        // may leave i64, but the offset at every coordinate is exact modulo 2^64 and, for a
        // form `layout!` accepted, fits.
        let mut c = [0usize; MAX_LEAVES];
        let mut x = 0i64;
        let mut count = 0usize;
        while count < n {
            let Some(shifted) = ((x >> src) & mask).checked_shl(dst) else {
                return None;
            };
            let y = x ^ shifted;
            if y > max {
                max = y;
            }
            count = count.saturating_add(1);
            let mut k = self.len;
            while k > 0 {
                k = k.saturating_sub(1);
                // isize is 64 bits wide on the targets this crate supports.
                let stride = self.strides[k] as i64;
                c[k] = c[k].saturating_add(1);
                x = x.wrapping_add(stride);
                if c[k] < self.sizes[k] {
                    break;
                }
                #[allow(clippy::cast_possible_wrap)] // sizes of a form with ≤ 2^16 positions
                let back = stride.wrapping_mul(self.sizes[k] as i64);
                x = x.wrapping_sub(back);
                c[k] = 0;
            }
        }
        Some(max)
    }

    /// `a ∘ b` as a layout over `b`'s leaves when it is one with one stride per leaf
    /// (`a(b(c)) = Σ cⱼ·a(dⱼ)` at every coordinate); `None` otherwise, and the composite is
    /// then evaluated as written. `b` must be a dense bijection onto `[0, size(a))` (else
    /// `None`).
    ///
    /// The procedure of the run-time decision (`core_algebra::decide`; spec: Theorem 1)
    /// asked this one question, in const evaluation. Decided symbolically in O(leaves²) when
    /// the mode boundaries of `a` (adjacent modes that continue each other merged) and of `b`
    /// form one divisibility chain, the case `decide` takes without enumerating too: then
    /// every coordinate splits into independent digits and the composite is a layout over
    /// `b`'s leaves exactly when its coefficients agree digit by digit (`decide`'s scan then
    /// finds one piece per leaf). Otherwise the coordinates are enumerated, as `decide` does,
    /// but only up to [`COMPOSE_ENUMERATION_LIMIT`] of them (`decide` goes to 2²⁴); past it
    /// the answer is `None`. Everywhere else the answer is `decide`'s, strides included (the
    /// test `typed_decisions_equal_the_core_decision` compares the two over random
    /// composites). Every step is checked arithmetic: an overflow gives `None`, never a
    /// compile error.
    #[must_use]
    pub const fn compose(a: Option<Leaves>, b: Option<Leaves>) -> Option<Leaves> {
        let (Some(a), Some(b)) = (a, b) else {
            return None;
        };
        let (Some(n), Some(na)) = (b.size(), a.size()) else {
            return None;
        };
        if n != na {
            return None;
        }
        // b's leaves of size > 1 sorted by stride: the running products of their sizes.
        let mut order = [0usize; MAX_LEAVES];
        let mut m = 0usize;
        let mut j = 0;
        while j < b.len {
            if b.sizes[j] > 1 {
                if b.strides[j] <= 0 {
                    return None;
                }
                order[m] = j;
                m = m.saturating_add(1);
            }
            j = j.saturating_add(1);
        }
        let mut k = 1;
        while k < m {
            let mut q = k;
            while q > 0 && b.strides[order[q.saturating_sub(1)]] > b.strides[order[q]] {
                let t = order[q];
                order[q] = order[q.saturating_sub(1)];
                order[q.saturating_sub(1)] = t;
                q = q.saturating_sub(1);
            }
            k = k.saturating_add(1);
        }
        let mut bw = [0usize; MAX_LEAVES];
        let mut run = 1usize;
        let mut k = 0;
        while k < m {
            // Positive (checked above).
            bw[k] = b.strides[order[k]].unsigned_abs();
            if bw[k] != run {
                return None;
            }
            run = match run.checked_mul(b.sizes[order[k]]) {
                Some(v) => v,
                None => return None,
            };
            k = k.saturating_add(1);
        }
        if run != n {
            return None;
        }
        // a's leaves of size > 1, fastest first, adjacent ones coalesced: sizes, strides and
        // weights (the flat index of one step).
        let mut an = [0usize; MAX_LEAVES];
        let mut ae = [0isize; MAX_LEAVES];
        let mut aw = [0usize; MAX_LEAVES];
        let mut ca = 0usize;
        let mut w = 1usize;
        let mut i = a.len;
        while i > 0 {
            i = i.saturating_sub(1);
            let (sz, st) = (a.sizes[i], a.strides[i]);
            if sz > 1 {
                let last = ca.saturating_sub(1);
                let merge = ca > 0
                    && match isize_of(an[last]) {
                        Some(s) => match ae[last].checked_mul(s) {
                            Some(v) => v == st,
                            None => false,
                        },
                        None => false,
                    };
                if merge {
                    an[last] = match an[last].checked_mul(sz) {
                        Some(v) => v,
                        None => return None,
                    };
                } else {
                    an[ca] = sz;
                    ae[ca] = st;
                    aw[ca] = w;
                    ca = ca.saturating_add(1);
                }
                w = match w.checked_mul(sz) {
                    Some(v) => v,
                    None => return None,
                };
            }
        }
        // The merged boundaries of both chains.
        let mut p = [0usize; 2 * MAX_LEAVES + 1];
        let mut np = 0usize;
        let (mut ia, mut ib) = (0usize, 0usize);
        while ia < ca || ib < m {
            let next = if ib >= m || (ia < ca && aw[ia] <= bw[ib]) {
                let v = aw[ia];
                ia = ia.saturating_add(1);
                v
            } else {
                let v = bw[ib];
                ib = ib.saturating_add(1);
                v
            };
            if np == 0 || p[np.saturating_sub(1)] != next {
                p[np] = next;
                np = np.saturating_add(1);
            }
        }
        p[np] = n;
        let mut divisible = true;
        let mut k = 0;
        while k < np {
            match p[k.saturating_add(1)].checked_rem(p[k]) {
                Some(0) => {}
                _ => divisible = false,
            }
            k = k.saturating_add(1);
        }
        let mut out = b;
        let mut j = 0;
        while j < b.len {
            out.strides[j] = 0;
            j = j.saturating_add(1);
        }
        if divisible {
            // Digit k spans [p_k, p_{k+1}); it lies in one (coalesced) leaf of a and one of b.
            let mut s = [0isize; MAX_LEAVES];
            let (mut ia, mut ib) = (0usize, 0usize);
            let mut k = 0;
            while k < np {
                while ia.saturating_add(1) < ca && aw[ia.saturating_add(1)] <= p[k] {
                    ia = ia.saturating_add(1);
                }
                while ib.saturating_add(1) < m && bw[ib.saturating_add(1)] <= p[k] {
                    ib = ib.saturating_add(1);
                }
                // The coefficient of the digit in `a`: (p_k / w_a) · e_a.
                let alpha = match (p[k].checked_div(aw[ia]), ca > 0) {
                    (Some(q), true) => match isize_of(q) {
                        Some(q) => q.checked_mul(ae[ia]),
                        None => None,
                    },
                    _ => None,
                };
                let Some(alpha) = alpha else { return None };
                if p[k] == bw[ib] {
                    s[ib] = alpha;
                } else {
                    let scaled = match p[k].checked_div(bw[ib]) {
                        Some(q) => match isize_of(q) {
                            Some(q) => q.checked_mul(s[ib]),
                            None => None,
                        },
                        None => None,
                    };
                    match scaled {
                        Some(v) if v == alpha => {}
                        _ => return None,
                    }
                }
                k = k.saturating_add(1);
            }
            let mut k = 0;
            while k < m {
                out.strides[order[k]] = s[k];
                k = k.saturating_add(1);
            }
            return Some(out);
        }
        if n > COMPOSE_ENUMERATION_LIMIT {
            return None;
        }
        let mut j = 0;
        while j < b.len {
            if b.sizes[j] > 1 {
                // Positive (checked above).
                out.strides[j] = match a.eval(b.strides[j].unsigned_abs()) {
                    Some(v) => v,
                    None => return None,
                };
            }
            j = j.saturating_add(1);
        }
        let mut i = 0;
        while i < n {
            match (b.eval(i), out.eval(i)) {
                (Some(x), Some(y)) if x >= 0 => match a.eval(x.unsigned_abs()) {
                    Some(v) if v == y => {}
                    _ => return None,
                },
                _ => return None,
            }
            i = i.saturating_add(1);
        }
        Some(out)
    }
}

/// `v` as an `isize`, when it fits.
const fn isize_of(v: usize) -> Option<isize> {
    if v > isize::MAX.unsigned_abs() {
        None
    } else {
        // In range (checked above).
        #[allow(clippy::cast_possible_wrap)]
        Some(v as isize)
    }
}

/// The integer type in which `offset` computes: `isize` (the wide computation) or, for the
/// index types `i32` and `u32`, the index type itself ([`IndexType::Compute`](crate::IndexType::Compute)).
///
/// The 32-bit computation is used only where the range check proves that every intermediate
/// fits (see [`Layout::NARROW`](crate::Layout::NARROW)): then no operation wraps and the value
/// equals the wide one. Sealed: implemented for `isize`, `i32` and `u32` only.
pub trait Compute: Copy + 'static + compute_seal::Sealed {
    /// The smallest and largest value, as `i64`.
    const RANGE: (i64, i64);
    /// Whether this is a 32-bit type (the narrow computation).
    const NARROW: bool;
    /// A coordinate as this type (`as`: exact for the coordinates the range check covers).
    #[doc(hidden)]
    fn coord(c: usize) -> Self;
    /// A stride as this type (`as`: exact for the strides the range check covers).
    #[doc(hidden)]
    fn stride(d: isize) -> Self;
    /// `self + o` (the range check proved that it fits).
    #[doc(hidden)]
    #[must_use]
    fn add(self, o: Self) -> Self;
    /// `self · o` (the range check proved that it fits).
    #[doc(hidden)]
    #[must_use]
    fn mul(self, o: Self) -> Self;
    /// The XOR swizzle `x ^ (((x >> src) & (2^b − 1)) << dst)` (the fields were checked to fit
    /// this type).
    #[doc(hidden)]
    #[must_use]
    fn swizzle(self, b: u32, src: u32, dst: u32) -> Self;
}

mod compute_seal {
    pub trait Sealed {}
    impl Sealed for isize {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
}

macro_rules! compute {
    ($($t:ty, $narrow:expr);*) => {$(
        // Reviewed: the casts convert coordinates and strides that the range check proved to
        // fit (`Leaves::fits`); outside the domain the value is unspecified (the contract of
        // `Layout::offset`), and debug builds may panic on an overflowing operation. The mask
        // is formed in `u64` (`b < 63`, checked by `layout!`).
        #[allow(
            clippy::arithmetic_side_effects,
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            clippy::cast_sign_loss,
            clippy::cast_lossless
        )]
        impl Compute for $t {
            const RANGE: (i64, i64) = (
                if (<$t>::MIN as i128) < i64::MIN as i128 { i64::MIN } else { <$t>::MIN as i64 },
                if (<$t>::MAX as i128) > i64::MAX as i128 { i64::MAX } else { <$t>::MAX as i64 },
            );
            const NARROW: bool = $narrow;
            #[inline(always)]
            fn coord(c: usize) -> Self {
                c as $t
            }
            #[inline(always)]
            fn stride(d: isize) -> Self {
                d as $t
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            #[inline(always)]
            fn swizzle(self, b: u32, src: u32, dst: u32) -> Self {
                let mask = ((1u64 << b) - 1) as $t;
                self ^ (((self >> src) & mask) << dst)
            }
        }
    )*};
}
compute!(isize, false; i32, true; u32, true);

/// A type-level shape:stride tree.
///
/// Implemented for [`Dim`], [`Bcast`] and tuples of forms (rank 2 to 8). The constants are
/// evaluated by the compiler; `layout!` has already checked that none overflows.
pub trait Form: Copy + 'static + sealed::Sealed {
    /// Number of coordinates (product of the sizes).
    const SIZE: usize;
    /// Smallest offset over the domain (elements).
    const MIN: i64;
    /// Largest offset over the domain (elements).
    const MAX: i64;
    /// The leaves as constants.
    const LEAVES: Leaves;
    /// Writes the shape, in seed order (`reverse` = CuTe order).
    #[doc(hidden)]
    fn write_shape(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result;
    /// Writes the stride (`_` for a broadcast in seed order, `0` in CuTe order).
    #[doc(hidden)]
    fn write_stride(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result;
    /// The value at flat index `i` with the leaves' strides replaced by
    /// `strides[first..first + LEAVES.len]`.
    #[doc(hidden)]
    fn eval_index_with(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> isize;
    /// [`Form::eval_index_with`] computed in `T` (the flat index unflattened in `u32` when `T`
    /// is narrow and the size fits): exact when `Leaves::fits` holds for the strides and `T`.
    #[doc(hidden)]
    fn eval_index_in<T: Compute>(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> T;
    /// Writes the leaf coordinates of flat index `i` into `out[first..]`.
    #[doc(hidden)]
    fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize);
    /// The shape and stride trees of this form with the leaves' values taken in order from
    /// `sizes` and `strides` (`None` = broadcast), starting at `*next` (for run-time leaves).
    #[doc(hidden)]
    fn tree_dyn(
        sizes: &[i64],
        strides: &[Option<i64>],
        next: &mut usize,
    ) -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    );
    /// The shape and stride trees of this form, as `layout-core` writes them: a [`Dim`] leaf
    /// has an integer stride, a [`Bcast`] leaf the broadcast `_`, and tuples stay tuples (for
    /// `Layout::to_map`).
    #[doc(hidden)]
    fn tree() -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    );
    /// [`Form::leaves_of_index`] with the leaves' sizes given at run time (`sizes[first..]`).
    #[doc(hidden)]
    fn leaves_of_index_dyn(
        i: usize,
        sizes: &[usize; MAX_LEAVES],
        out: &mut [usize; MAX_LEAVES],
        first: usize,
    );
}

/// A coordinate of a form `F`: one integer (unflattened, last leaf fastest), or a tuple of
/// coordinates of `F`'s entries (natural or coarser).
///
/// `usize` is a coordinate of every form; `(usize, usize)` of every rank-2 form; and so on,
/// recursively, e.g. `(lane, (v0, v1))`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a coordinate of the layout's shape `{F}`",
    label = "give one integer, or a tuple with one entry per mode",
    note = "a coordinate is an integer (unflattened, last mode fastest) or a tuple matching the shape, in seed order"
)]
pub trait Coord<F>: Copy + sealed::Sealed {
    /// Whether every entry lies in its mode: a flat index below the size it indexes, each
    /// tuple entry recursively.
    fn in_domain(&self) -> bool;
    /// [`Coord::in_domain`] with the leaves' sizes given at run time (`sizes[first..]`).
    #[doc(hidden)]
    fn in_domain_dyn(&self, sizes: &[usize; MAX_LEAVES], first: usize) -> bool;
    /// The offset of this coordinate, in elements. Only meaningful in the domain
    /// ([`Coord::in_domain`]); outside it the value is unspecified.
    fn eval(self) -> isize;
    /// The offset with the leaves' strides replaced by `strides[first..]`.
    #[doc(hidden)]
    fn eval_with(self, strides: &[isize; MAX_LEAVES], first: usize) -> isize;
    /// [`Coord::eval_with`] computed in `T`: exact when `Leaves::fits` holds for the strides
    /// and `T`.
    #[doc(hidden)]
    fn eval_in<T: Compute>(self, strides: &[isize; MAX_LEAVES], first: usize) -> T;
    /// Writes the leaf coordinates into `out[first..]` (for offsets emitted as programs).
    #[doc(hidden)]
    fn leaves(self, out: &mut [usize; MAX_LEAVES], first: usize);
    /// [`Coord::leaves`] with the leaves' sizes given at run time (for run-time leaves).
    #[doc(hidden)]
    fn leaves_dyn(self, sizes: &[usize; MAX_LEAVES], out: &mut [usize; MAX_LEAVES], first: usize);
}

impl<const N: usize, const D: isize> Form for Dim<N, D> {
    const SIZE: usize = N;
    const MIN: i64 = if D < 0 { leaf_span(N, D) } else { 0 };
    const MAX: i64 = if D > 0 { leaf_span(N, D) } else { 0 };
    const LEAVES: Leaves = Leaves::one(N, D);
    fn write_shape(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{N}")
    }
    fn write_stride(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{D}")
    }
    #[inline(always)]
    // Reviewed: in the domain `i < N` and `i·stride` is an offset that `layout!` proved to fit
    // `i64`; outside it the value is unspecified (the contract of `Layout::offset`).
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
    fn eval_index_with(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
        debug_assert!(i < N, "coordinate {i} outside its mode of size {N}");
        i as isize * strides[first]
    }
    #[inline(always)]
    fn eval_index_in<T: Compute>(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> T {
        debug_assert!(i < N, "coordinate {i} outside its mode of size {N}");
        T::coord(i).mul(T::stride(strides[first]))
    }
    #[inline(always)]
    fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize) {
        out[first] = i;
    }
    // Sizes and strides of a checked form fit `i64` (64-bit targets).
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    fn tree() -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    ) {
        (
            layout_core::Tree::Leaf(N as i64),
            layout_core::Tree::Leaf(layout_core::Stride::Int(D as i64)),
        )
    }
    fn tree_dyn(
        sizes: &[i64],
        strides: &[Option<i64>],
        next: &mut usize,
    ) -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    ) {
        let i = *next;
        *next = next.saturating_add(1); // at most MAX_LEAVES
        let n = sizes.get(i).copied().unwrap_or(1);
        let d = match strides.get(i).copied().flatten() {
            Some(d) => layout_core::Stride::Int(d),
            None => layout_core::Stride::Broadcast,
        };
        (layout_core::Tree::Leaf(n), layout_core::Tree::Leaf(d))
    }
    #[inline(always)]
    fn leaves_of_index_dyn(
        i: usize,
        _sizes: &[usize; MAX_LEAVES],
        out: &mut [usize; MAX_LEAVES],
        first: usize,
    ) {
        out[first] = i;
    }
}

impl<const N: usize> Form for Bcast<N> {
    const SIZE: usize = N;
    const MIN: i64 = 0;
    const MAX: i64 = 0;
    const LEAVES: Leaves = Leaves::one(N, 0);
    fn write_shape(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{N}")
    }
    fn write_stride(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result {
        f.write_str(if reverse { "0" } else { "_" })
    }
    #[inline(always)]
    // Reviewed: in the domain `i < N` and `i·stride` is an offset that `layout!` proved to fit
    // `i64`; outside it the value is unspecified (the contract of `Layout::offset`).
    #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
    fn eval_index_with(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
        debug_assert!(i < N, "coordinate {i} outside its mode of size {N}");
        i as isize * strides[first]
    }
    #[inline(always)]
    fn eval_index_in<T: Compute>(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> T {
        debug_assert!(i < N, "coordinate {i} outside its mode of size {N}");
        T::coord(i).mul(T::stride(strides[first]))
    }
    #[inline(always)]
    fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize) {
        out[first] = i;
    }
    // The size of a checked form fits `i64` (64-bit targets).
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    fn tree() -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    ) {
        (
            layout_core::Tree::Leaf(N as i64),
            layout_core::Tree::Leaf(layout_core::Stride::Broadcast),
        )
    }
    fn tree_dyn(
        sizes: &[i64],
        strides: &[Option<i64>],
        next: &mut usize,
    ) -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    ) {
        let i = *next;
        *next = next.saturating_add(1); // at most MAX_LEAVES
        let n = sizes.get(i).copied().unwrap_or(1);
        let d = match strides.get(i).copied().flatten() {
            Some(d) => layout_core::Stride::Int(d),
            None => layout_core::Stride::Broadcast,
        };
        (layout_core::Tree::Leaf(n), layout_core::Tree::Leaf(d))
    }
    #[inline(always)]
    fn leaves_of_index_dyn(
        i: usize,
        _sizes: &[usize; MAX_LEAVES],
        out: &mut [usize; MAX_LEAVES],
        first: usize,
    ) {
        out[first] = i;
    }
}

/// An integer is a coordinate of every form: the flat index, unflattened with the last leaf
/// fastest (constant divisors, so shifts and masks for powers of two).
impl<F: Form> Coord<F> for usize {
    #[inline(always)]
    fn in_domain(&self) -> bool {
        *self < F::SIZE
    }
    #[inline(always)]
    fn in_domain_dyn(&self, sizes: &[usize; MAX_LEAVES], first: usize) -> bool {
        // The product of the leaves' run-time sizes, saturating: a product past `usize::MAX`
        // admits every `usize`.
        let mut n = 1usize;
        for s in sizes.iter().skip(first).take(F::LEAVES.len) {
            n = n.saturating_mul(*s);
        }
        *self < n
    }
    #[inline(always)]
    fn eval(self) -> isize {
        F::eval_index_with(self, &F::LEAVES.strides, 0)
    }
    #[inline(always)]
    fn eval_with(self, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
        F::eval_index_with(self, strides, first)
    }
    #[inline(always)]
    fn eval_in<T: Compute>(self, strides: &[isize; MAX_LEAVES], first: usize) -> T {
        F::eval_index_in(self, strides, first)
    }
    #[inline(always)]
    fn leaves(self, out: &mut [usize; MAX_LEAVES], first: usize) {
        F::leaves_of_index(self, out, first);
    }
    #[inline(always)]
    fn leaves_dyn(self, sizes: &[usize; MAX_LEAVES], out: &mut [usize; MAX_LEAVES], first: usize) {
        F::leaves_of_index_dyn(self, sizes, out, first);
    }
}

/// Where each of `K` entries' leaves start in a flat leaf array: `first`, then `first` plus the
/// leaf counts of the entries before.
#[inline(always)]
// Reviewed: the counts are those of a form's entries, whose sum is at most `MAX_LEAVES`.
#[allow(clippy::arithmetic_side_effects)]
fn starts<const K: usize>(first: usize, counts: &[usize; K]) -> [usize; K] {
    let mut at = [first; K];
    let mut k = 1;
    while k < K {
        at[k] = at[k - 1] + counts[k - 1];
        k += 1;
    }
    at
}

/// The flat index `i` unflattened into `K` entries of the given sizes, the last fastest; the
/// slowest entry takes no modulus (so an index past the size lands in it, as before).
#[inline(always)]
// Reviewed: the sizes are a form's entry sizes, each at least 1.
#[allow(clippy::arithmetic_side_effects)]
fn unflatten<const K: usize>(i: usize, sizes: &[usize; K]) -> [usize; K] {
    let mut c = [0usize; K];
    let mut rest = i;
    let mut k = K - 1;
    while k > 0 {
        c[k] = rest % sizes[k];
        rest /= sizes[k];
        k -= 1;
    }
    c[0] = rest;
    c
}

/// [`unflatten`] in `u32` (divisions by constants in 32 bits), for a form whose size fits `u32`:
/// then `i` and every entry's size convert exactly.
#[inline(always)]
// Reviewed: as for `unflatten`; the caller checked that the size fits `u32`.
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
fn unflatten_u32<const K: usize>(i: u32, sizes: &[usize; K]) -> [usize; K] {
    let mut c = [0usize; K];
    let mut rest = i;
    let mut k = K - 1;
    while k > 0 {
        c[k] = (rest % sizes[k] as u32) as usize;
        rest /= sizes[k] as u32;
        k -= 1;
    }
    c[0] = rest as usize;
    c
}

macro_rules! tuple_form {
    ($($F:ident $C:ident $i:tt),+ ; $last:ident $lastc:ident $li:tt) => {
        impl<$($C: sealed::Sealed,)+ $lastc: sealed::Sealed> sealed::Sealed for ($($C,)+ $lastc) {}
        // Reviewed: leaf positions add leaf counts (at most MAX_LEAVES); `%` and `/` divide by
        // sizes of checked forms (at least 1, and sealed); offsets are sums of a coordinate's
        // terms, which `layout!` proved to fit `i64` in the domain, and are unspecified outside
        // it (the contract of `Layout::offset`).
        #[allow(clippy::arithmetic_side_effects)]
        impl<$($F: Form,)+ $last: Form> Form for ($($F,)+ $last) {
            const SIZE: usize = size_product(&[$($F::SIZE,)+ $last::SIZE]);
            const MIN: i64 = offset_sum(&[$($F::MIN,)+ $last::MIN]);
            const MAX: i64 = offset_sum(&[$($F::MAX,)+ $last::MAX]);
            const LEAVES: Leaves = {
                let parts = [$($F::LEAVES,)+ $last::LEAVES];
                let mut out = parts[0];
                let mut k = 1;
                while k < parts.len() {
                    out = Leaves::concat(out, parts[k]);
                    k += 1;
                }
                out
            };
            fn write_shape(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result {
                let mut parts: [fn(&mut fmt::Formatter<'_>, bool) -> fmt::Result; $li + 1] =
                    [$($F::write_shape,)+ $last::write_shape];
                if reverse { parts.reverse(); }
                write_tuple(f, &parts, reverse)
            }
            fn write_stride(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result {
                let mut parts: [fn(&mut fmt::Formatter<'_>, bool) -> fmt::Result; $li + 1] =
                    [$($F::write_stride,)+ $last::write_stride];
                if reverse { parts.reverse(); }
                write_tuple(f, &parts, reverse)
            }
            #[inline(always)]
            fn eval_index_with(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
                // Unflatten, last entry fastest; the slowest entry takes no modulus.
                let sizes = [$($F::SIZE,)+ $last::SIZE];
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let c = unflatten(i, &sizes);
                let at = starts(first, &counts);
                $($F::eval_index_with(c[$i], strides, at[$i]) +)+
                    $last::eval_index_with(c[$li], strides, at[$li])
            }
            #[inline(always)]
            // Reviewed: as above; the narrow unflattening runs only when the size fits `u32`,
            // so `i` (below the size in the domain) and every entry's size convert exactly.
            #[allow(clippy::cast_possible_truncation)]
            fn eval_index_in<T: Compute>(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> T {
                let sizes = [$($F::SIZE,)+ $last::SIZE];
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let c = if T::NARROW && Self::SIZE <= u32::MAX as usize {
                    // Unsigned 32-bit division by constants: shifts, masks or a multiply.
                    unflatten_u32(i as u32, &sizes)
                } else {
                    unflatten(i, &sizes)
                };
                let at = starts(first, &counts);
                T::coord(0)
                    $(.add($F::eval_index_in::<T>(c[$i], strides, at[$i])))+
                    .add($last::eval_index_in::<T>(c[$li], strides, at[$li]))
            }
            #[inline(always)]
            fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize) {
                let sizes = [$($F::SIZE,)+ $last::SIZE];
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let at = starts(first, &counts);
                let c = unflatten(i, &sizes);
                $($F::leaves_of_index(c[$i], out, at[$i]);)+
                $last::leaves_of_index(c[$li], out, at[$li]);
            }
            fn tree() -> (layout_core::Tree<i64>, layout_core::Tree<layout_core::Stride>) {
                let parts = [$($F::tree(),)+ $last::tree()];
                let (s, d): (alloc::vec::Vec<_>, alloc::vec::Vec<_>) = parts.into_iter().unzip();
                (layout_core::Tree::Tuple(s), layout_core::Tree::Tuple(d))
            }
            fn tree_dyn(
                sizes: &[i64],
                strides: &[Option<i64>],
                next: &mut usize,
            ) -> (layout_core::Tree<i64>, layout_core::Tree<layout_core::Stride>) {
                let parts = [$($F::tree_dyn(sizes, strides, next),)+ $last::tree_dyn(sizes, strides, next)];
                let (s, d): (alloc::vec::Vec<_>, alloc::vec::Vec<_>) = parts.into_iter().unzip();
                (layout_core::Tree::Tuple(s), layout_core::Tree::Tuple(d))
            }
            #[inline(always)]
            fn leaves_of_index_dyn(
                i: usize,
                sizes: &[usize; MAX_LEAVES],
                out: &mut [usize; MAX_LEAVES],
                first: usize,
            ) {
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let at = starts(first, &counts);
                // Each entry's size is the product of its leaves' run-time sizes.
                let mut entry = [1usize; $li + 1];
                let mut k = 0;
                while k <= $li {
                    let mut m = at[k];
                    while m < at[k] + counts[k] {
                        entry[k] *= sizes[m];
                        m += 1;
                    }
                    k += 1;
                }
                let c = unflatten(i, &entry);
                $($F::leaves_of_index_dyn(c[$i], sizes, out, at[$i]);)+
                $last::leaves_of_index_dyn(c[$li], sizes, out, at[$li]);
            }
        }

        // Reviewed: as for the form above.
        #[allow(clippy::arithmetic_side_effects)]
        impl<$($F: Form,)+ $last: Form, $($C: Coord<$F>,)+ $lastc: Coord<$last>>
            Coord<($($F,)+ $last)> for ($($C,)+ $lastc)
        {
            #[inline(always)]
            fn in_domain(&self) -> bool {
                $(self.$i.in_domain() &&)+ self.$li.in_domain()
            }
            #[inline(always)]
            fn in_domain_dyn(&self, sizes: &[usize; MAX_LEAVES], first: usize) -> bool {
                let at = starts(first, &[$($F::LEAVES.len,)+ $last::LEAVES.len]);
                $(self.$i.in_domain_dyn(sizes, at[$i]) &&)+ self.$li.in_domain_dyn(sizes, at[$li])
            }
            #[inline(always)]
            fn eval(self) -> isize {
                $(self.$i.eval() +)+ self.$li.eval()
            }
            #[inline(always)]
            fn eval_with(self, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
                let at = starts(first, &[$($F::LEAVES.len,)+ $last::LEAVES.len]);
                $(self.$i.eval_with(strides, at[$i]) +)+ self.$li.eval_with(strides, at[$li])
            }
            #[inline(always)]
            fn eval_in<T: Compute>(self, strides: &[isize; MAX_LEAVES], first: usize) -> T {
                let at = starts(first, &[$($F::LEAVES.len,)+ $last::LEAVES.len]);
                T::coord(0)
                    $(.add(self.$i.eval_in::<T>(strides, at[$i])))+
                    .add(self.$li.eval_in::<T>(strides, at[$li]))
            }
            #[inline(always)]
            fn leaves(self, out: &mut [usize; MAX_LEAVES], first: usize) {
                let at = starts(first, &[$($F::LEAVES.len,)+ $last::LEAVES.len]);
                $(self.$i.leaves(out, at[$i]);)+
                self.$li.leaves(out, at[$li]);
            }
            #[inline(always)]
            fn leaves_dyn(self, sizes: &[usize; MAX_LEAVES], out: &mut [usize; MAX_LEAVES], first: usize) {
                let at = starts(first, &[$($F::LEAVES.len,)+ $last::LEAVES.len]);
                $(self.$i.leaves_dyn(sizes, out, at[$i]);)+
                self.$li.leaves_dyn(sizes, out, at[$li]);
            }
        }
    };
}

/// Implemented only here: forms and coordinates are the crate's own types.
mod sealed {
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is not a form or coordinate of this crate: `Form` and `Coord` are sealed",
        label = "not one of the crate's forms or coordinates",
        note = "forms are `Dim`, `Bcast` and tuples of forms (written by `layout!`); coordinates are `usize` and tuples of coordinates"
    )]
    pub trait Sealed {}
    impl<const N: usize, const D: isize> Sealed for super::Dim<N, D> {}
    impl<const N: usize> Sealed for super::Bcast<N> {}
    impl Sealed for usize {}
    // The rank-0 form and its coordinate (CuTe's scalar layout `():()`).
    impl Sealed for () {}
}

/// `(n − 1)·d` for a leaf; a form whose offsets overflow `i64` is rejected by `layout!`, so
/// this fails (at compile time) only for a form named by hand.
const fn leaf_span(n: usize, d: isize) -> i64 {
    let span = match isize_of(n.saturating_sub(1)) {
        Some(m) => m.checked_mul(d),
        None => None,
    };
    match span {
        // isize is 64 bits wide on the targets this crate supports.
        Some(v) => v as i64,
        None => panic!("the offsets of this form overflow i64 (`layout!` rejects it)"),
    }
}

/// The product of the entries' sizes (see [`leaf_span`] for the failure).
const fn size_product(sizes: &[usize]) -> usize {
    let mut n = 1usize;
    let mut k = 0;
    while k < sizes.len() {
        n = match n.checked_mul(sizes[k]) {
            Some(v) => v,
            None => panic!("the size of this form overflows usize (`layout!` rejects it)"),
        };
        k = k.saturating_add(1);
    }
    n
}

/// The sum of the entries' extreme offsets (see [`leaf_span`] for the failure).
const fn offset_sum(parts: &[i64]) -> i64 {
    let mut n = 0i64;
    let mut k = 0;
    while k < parts.len() {
        n = match n.checked_add(parts[k]) {
            Some(v) => v,
            None => panic!("the offsets of this form overflow i64 (`layout!` rejects it)"),
        };
        k = k.saturating_add(1);
    }
    n
}

fn write_tuple(
    f: &mut fmt::Formatter<'_>,
    parts: &[fn(&mut fmt::Formatter<'_>, bool) -> fmt::Result],
    reverse: bool,
) -> fmt::Result {
    f.write_str("(")?;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        p(f, reverse)?;
    }
    f.write_str(")")
}

tuple_form!(A Ca 0; B Cb 1);
tuple_form!(A Ca 0, B Cb 1; C Cc 2);
tuple_form!(A Ca 0, B Cb 1, C Cc 2; D Cd 3);
tuple_form!(A Ca 0, B Cb 1, C Cc 2, D Cd 3; E Ce 4);
tuple_form!(A Ca 0, B Cb 1, C Cc 2, D Cd 3, E Ce 4; G Cg 5);
tuple_form!(A Ca 0, B Cb 1, C Cc 2, D Cd 3, E Ce 4, G Cg 5; H Ch 6);
tuple_form!(A Ca 0, B Cb 1, C Cc 2, D Cd 3, E Ce 4, G Cg 5, H Ch 6; I Ci 7);

/// The rank-0 form `()` (CuTe's scalar layout `():()`): one coordinate, offset 0, no leaves.
impl Form for () {
    const SIZE: usize = 1;
    const MIN: i64 = 0;
    const MAX: i64 = 0;
    const LEAVES: Leaves = Leaves {
        len: 0,
        sizes: [1; MAX_LEAVES],
        strides: [0; MAX_LEAVES],
    };
    fn write_shape(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        f.write_str("()")
    }
    fn write_stride(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        f.write_str("()")
    }
    #[inline(always)]
    fn eval_index_with(i: usize, _: &[isize; MAX_LEAVES], _: usize) -> isize {
        debug_assert!(i < 1, "coordinate {i} outside the rank-0 layout of size 1");
        0
    }
    #[inline(always)]
    fn eval_index_in<T: Compute>(i: usize, _: &[isize; MAX_LEAVES], _: usize) -> T {
        debug_assert!(i < 1, "coordinate {i} outside the rank-0 layout of size 1");
        T::coord(0)
    }
    #[inline(always)]
    fn leaves_of_index(_: usize, _: &mut [usize; MAX_LEAVES], _: usize) {}
    fn tree() -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    ) {
        (
            layout_core::Tree::Tuple(alloc::vec::Vec::new()),
            layout_core::Tree::Tuple(alloc::vec::Vec::new()),
        )
    }
    fn tree_dyn(
        _: &[i64],
        _: &[Option<i64>],
        _: &mut usize,
    ) -> (
        layout_core::Tree<i64>,
        layout_core::Tree<layout_core::Stride>,
    ) {
        (
            layout_core::Tree::Tuple(alloc::vec::Vec::new()),
            layout_core::Tree::Tuple(alloc::vec::Vec::new()),
        )
    }
    #[inline(always)]
    fn leaves_of_index_dyn(
        _: usize,
        _: &[usize; MAX_LEAVES],
        _: &mut [usize; MAX_LEAVES],
        _: usize,
    ) {
    }
}

/// `()` is the coordinate of the rank-0 form.
impl Coord<()> for () {
    #[inline(always)]
    fn in_domain(&self) -> bool {
        true
    }
    #[inline(always)]
    fn in_domain_dyn(&self, _: &[usize; MAX_LEAVES], _: usize) -> bool {
        true
    }
    #[inline(always)]
    fn eval(self) -> isize {
        0
    }
    #[inline(always)]
    fn eval_with(self, _: &[isize; MAX_LEAVES], _: usize) -> isize {
        0
    }
    #[inline(always)]
    fn eval_in<T: Compute>(self, _: &[isize; MAX_LEAVES], _: usize) -> T {
        T::coord(0)
    }
    #[inline(always)]
    fn leaves(self, _: &mut [usize; MAX_LEAVES], _: usize) {}
    #[inline(always)]
    fn leaves_dyn(self, _: &[usize; MAX_LEAVES], _: &mut [usize; MAX_LEAVES], _: usize) {}
}

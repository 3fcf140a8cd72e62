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

/// The most coordinates [`Leaves::compose`] enumerates to prove a composite is a layout.
pub const COMPOSE_ENUMERATION_LIMIT: usize = 1 << 16;

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
            out.len += 1;
            j += 1;
        }
        out
    }

    /// Product of the sizes.
    #[must_use]
    pub const fn size(&self) -> usize {
        let mut n = 1usize;
        let mut j = 0;
        while j < self.len {
            n = n.saturating_mul(self.sizes[j]);
            j += 1;
        }
        n
    }

    /// The value at flat index `i` (last leaf fastest).
    #[must_use]
    pub const fn eval(&self, mut i: usize) -> isize {
        let mut acc = 0isize;
        let mut j = self.len;
        while j > 0 {
            j -= 1;
            acc += (i % self.sizes[j]) as isize * self.strides[j];
            i /= self.sizes[j];
        }
        acc
    }

    /// The largest `σ(L(i))` over the domain for the swizzle `(b, src, dst)`, by enumeration
    /// (up to [`COMPOSE_ENUMERATION_LIMIT`] coordinates); `None` past it.
    #[must_use]
    pub const fn swizzled_max(&self, b: u32, src: u32, dst: u32) -> Option<i64> {
        let n = self.size();
        if n > COMPOSE_ENUMERATION_LIMIT {
            return None;
        }
        let mut max = i64::MIN;
        let mut i = 0;
        while i < n {
            let x = self.eval(i) as i64;
            let y = x ^ (((x >> src) & ((1 << b) - 1)) << dst);
            if y > max {
                max = y;
            }
            i += 1;
        }
        Some(max)
    }

    /// `a ∘ b` as a layout over `b`'s leaves when it is one with one stride per leaf
    /// (`a(b(c)) = Σ cⱼ·a(dⱼ)` at every coordinate, checked by enumeration up to
    /// [`COMPOSE_ENUMERATION_LIMIT`] coordinates); `None` otherwise, and the composite is then
    /// evaluated as written. `b` must be a dense bijection onto `[0, size(a))`.
    #[must_use]
    pub const fn compose(a: Option<Leaves>, b: Option<Leaves>) -> Option<Leaves> {
        let (Some(a), Some(b)) = (a, b) else {
            return None;
        };
        let n = b.size();
        if n > COMPOSE_ENUMERATION_LIMIT || n != a.size() {
            return None;
        }
        let mut out = b;
        let mut j = 0;
        while j < b.len {
            if b.strides[j] < 0 || (b.sizes[j] > 1 && b.strides[j] as usize >= n) {
                return None;
            }
            out.strides[j] = if b.sizes[j] > 1 {
                a.eval(b.strides[j] as usize)
            } else {
                0
            };
            j += 1;
        }
        // Odometer over b's coordinates: x = b(c), y = Σ cⱼ·sⱼ.
        let mut c = [0usize; MAX_LEAVES];
        let (mut x, mut y) = (0isize, 0isize);
        let mut count = 0;
        while count < n {
            if x < 0 || x as usize >= n || a.eval(x as usize) != y {
                return None;
            }
            count += 1;
            let mut k = b.len;
            while k > 0 {
                k -= 1;
                c[k] += 1;
                x += b.strides[k];
                y += out.strides[k];
                if c[k] < b.sizes[k] {
                    break;
                }
                x -= b.strides[k] * b.sizes[k] as isize;
                y -= out.strides[k] * b.sizes[k] as isize;
                c[k] = 0;
            }
        }
        Some(out)
    }
}

/// A type-level shape:stride tree.
///
/// Implemented for [`Dim`], [`Bcast`] and tuples of forms (rank 2 to 8). The constants are
/// evaluated by the compiler; `layout!` has already checked that none overflows.
pub trait Form: Copy + 'static {
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
pub trait Coord<F> {
    /// The offset of this coordinate, in elements.
    fn eval(self) -> isize;
    /// The offset with the leaves' strides replaced by `strides[first..]`.
    #[doc(hidden)]
    fn eval_with(self, strides: &[isize; MAX_LEAVES], first: usize) -> isize;
    /// Writes the leaf coordinates into `out[first..]` (for offsets emitted as programs).
    #[doc(hidden)]
    fn leaves(self, out: &mut [usize; MAX_LEAVES], first: usize);
    /// [`Coord::leaves`] with the leaves' sizes given at run time (for run-time leaves).
    #[doc(hidden)]
    fn leaves_dyn(self, sizes: &[usize; MAX_LEAVES], out: &mut [usize; MAX_LEAVES], first: usize);
}

impl<const N: usize, const D: isize> Form for Dim<N, D> {
    const SIZE: usize = N;
    const MIN: i64 = if D < 0 { (N as i64 - 1) * D as i64 } else { 0 };
    const MAX: i64 = if D > 0 { (N as i64 - 1) * D as i64 } else { 0 };
    const LEAVES: Leaves = Leaves::one(N, D);
    fn write_shape(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{N}")
    }
    fn write_stride(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{D}")
    }
    #[inline(always)]
    fn eval_index_with(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
        debug_assert!(i < N, "coordinate {i} outside its mode of size {N}");
        i as isize * strides[first]
    }
    #[inline(always)]
    fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize) {
        out[first] = i;
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
        *next += 1;
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
    fn eval_index_with(i: usize, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
        debug_assert!(i < N, "coordinate {i} outside its mode of size {N}");
        i as isize * strides[first]
    }
    #[inline(always)]
    fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize) {
        out[first] = i;
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
        *next += 1;
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
    fn eval(self) -> isize {
        F::eval_index_with(self, &F::LEAVES.strides, 0)
    }
    #[inline(always)]
    fn eval_with(self, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
        F::eval_index_with(self, strides, first)
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

macro_rules! tuple_form {
    ($($F:ident $C:ident $i:tt),+ ; $last:ident $lastc:ident $li:tt) => {
        impl<$($F: Form,)+ $last: Form> Form for ($($F,)+ $last) {
            const SIZE: usize = $($F::SIZE *)+ $last::SIZE;
            const MIN: i64 = $($F::MIN +)+ $last::MIN;
            const MAX: i64 = $($F::MAX +)+ $last::MAX;
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
                let mut c = [0usize; $li + 1];
                let mut rest = i;
                let mut k = $li;
                while k > 0 {
                    c[k] = rest % sizes[k];
                    rest /= sizes[k];
                    k -= 1;
                }
                c[0] = rest;
                let mut at = [first; $li + 1];
                let mut k = 1;
                while k <= $li {
                    at[k] = at[k - 1] + counts[k - 1];
                    k += 1;
                }
                $($F::eval_index_with(c[$i], strides, at[$i]) +)+
                    $last::eval_index_with(c[$li], strides, at[$li])
            }
            #[inline(always)]
            fn leaves_of_index(i: usize, out: &mut [usize; MAX_LEAVES], first: usize) {
                let sizes = [$($F::SIZE,)+ $last::SIZE];
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let mut rest = i;
                let mut k = $li;
                let mut at = [first; $li + 1];
                let mut j = 1;
                while j <= $li {
                    at[j] = at[j - 1] + counts[j - 1];
                    j += 1;
                }
                let mut c = [0usize; $li + 1];
                while k > 0 {
                    c[k] = rest % sizes[k];
                    rest /= sizes[k];
                    k -= 1;
                }
                c[0] = rest;
                $($F::leaves_of_index(c[$i], out, at[$i]);)+
                $last::leaves_of_index(c[$li], out, at[$li]);
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
                let mut at = [first; $li + 1];
                let mut j = 1;
                while j <= $li {
                    at[j] = at[j - 1] + counts[j - 1];
                    j += 1;
                }
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
                let mut c = [0usize; $li + 1];
                let mut rest = i;
                let mut k = $li;
                while k > 0 {
                    c[k] = rest % entry[k];
                    rest /= entry[k];
                    k -= 1;
                }
                c[0] = rest;
                $($F::leaves_of_index_dyn(c[$i], sizes, out, at[$i]);)+
                $last::leaves_of_index_dyn(c[$li], sizes, out, at[$li]);
            }
        }

        impl<$($F: Form,)+ $last: Form, $($C: Coord<$F>,)+ $lastc: Coord<$last>>
            Coord<($($F,)+ $last)> for ($($C,)+ $lastc)
        {
            #[inline(always)]
            fn eval(self) -> isize {
                $(self.$i.eval() +)+ self.$li.eval()
            }
            #[inline(always)]
            fn eval_with(self, strides: &[isize; MAX_LEAVES], first: usize) -> isize {
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let mut at = [first; $li + 1];
                let mut k = 1;
                while k <= $li {
                    at[k] = at[k - 1] + counts[k - 1];
                    k += 1;
                }
                $(self.$i.eval_with(strides, at[$i]) +)+ self.$li.eval_with(strides, at[$li])
            }
            #[inline(always)]
            fn leaves(self, out: &mut [usize; MAX_LEAVES], first: usize) {
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let mut at = [first; $li + 1];
                let mut k = 1;
                while k <= $li {
                    at[k] = at[k - 1] + counts[k - 1];
                    k += 1;
                }
                $(self.$i.leaves(out, at[$i]);)+
                self.$li.leaves(out, at[$li]);
            }
            #[inline(always)]
            fn leaves_dyn(self, sizes: &[usize; MAX_LEAVES], out: &mut [usize; MAX_LEAVES], first: usize) {
                let counts = [$($F::LEAVES.len,)+ $last::LEAVES.len];
                let mut at = [first; $li + 1];
                let mut k = 1;
                while k <= $li {
                    at[k] = at[k - 1] + counts[k - 1];
                    k += 1;
                }
                $(self.$i.leaves_dyn(sizes, out, at[$i]);)+
                self.$li.leaves_dyn(sizes, out, at[$li]);
            }
        }
    };
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
    fn leaves_of_index(_: usize, _: &mut [usize; MAX_LEAVES], _: usize) {}
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
    fn eval(self) -> isize {
        0
    }
    #[inline(always)]
    fn eval_with(self, _: &[isize; MAX_LEAVES], _: usize) -> isize {
        0
    }
    #[inline(always)]
    fn leaves(self, _: &mut [usize; MAX_LEAVES], _: usize) {}
    #[inline(always)]
    fn leaves_dyn(self, _: &[usize; MAX_LEAVES], _: &mut [usize; MAX_LEAVES], _: usize) {}
}

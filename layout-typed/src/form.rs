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
    /// Writes the shape, in seed order (`reverse` = CuTe order).
    #[doc(hidden)]
    fn write_shape(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result;
    /// Writes the stride (`_` for a broadcast in seed order, `0` in CuTe order).
    #[doc(hidden)]
    fn write_stride(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result;
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
}

impl<const N: usize, const D: isize> Form for Dim<N, D> {
    const SIZE: usize = N;
    const MIN: i64 = if D < 0 { (N as i64 - 1) * D as i64 } else { 0 };
    const MAX: i64 = if D > 0 { (N as i64 - 1) * D as i64 } else { 0 };
    fn write_shape(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{N}")
    }
    fn write_stride(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{D}")
    }
}

impl<const N: usize> Form for Bcast<N> {
    const SIZE: usize = N;
    const MIN: i64 = 0;
    const MAX: i64 = 0;
    fn write_shape(f: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        write!(f, "{N}")
    }
    fn write_stride(f: &mut fmt::Formatter<'_>, reverse: bool) -> fmt::Result {
        f.write_str(if reverse { "0" } else { "_" })
    }
}

impl<const N: usize, const D: isize> Coord<Dim<N, D>> for usize {
    #[inline(always)]
    fn eval(self) -> isize {
        debug_assert!(self < N, "coordinate outside its mode");
        self as isize * D
    }
}

impl<const N: usize> Coord<Bcast<N>> for usize {
    #[inline(always)]
    fn eval(self) -> isize {
        debug_assert!(self < N, "coordinate outside its mode");
        0
    }
}

macro_rules! tuple_form {
    ($($F:ident $C:ident $i:tt),+ ; $last:ident $lastc:ident $li:tt) => {
        impl<$($F: Form,)+ $last: Form> Form for ($($F,)+ $last) {
            const SIZE: usize = $($F::SIZE *)+ $last::SIZE;
            const MIN: i64 = $($F::MIN +)+ $last::MIN;
            const MAX: i64 = $($F::MAX +)+ $last::MAX;
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
        }

        impl<$($F: Form,)+ $last: Form, $($C: Coord<$F>,)+ $lastc: Coord<$last>>
            Coord<($($F,)+ $last)> for ($($C,)+ $lastc)
        {
            #[inline(always)]
            fn eval(self) -> isize {
                $(self.$i.eval() +)+ self.$li.eval()
            }
        }

        impl<$($F: Form,)+ $last: Form> Coord<($($F,)+ $last)> for usize
        where
            $(usize: Coord<$F>,)+
            usize: Coord<$last>,
        {
            #[inline(always)]
            fn eval(self) -> isize {
                // Unflatten, last entry fastest; the slowest entry takes no modulus.
                let sizes = [$($F::SIZE,)+ $last::SIZE];
                let mut c = [0usize; $li + 1];
                let mut rest = self;
                let mut k = $li;
                while k > 0 {
                    c[k] = rest % sizes[k];
                    rest /= sizes[k];
                    k -= 1;
                }
                c[0] = rest;
                $(<usize as Coord<$F>>::eval(c[$i]) +)+ <usize as Coord<$last>>::eval(c[$li])
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

//! The XOR swizzle (spec: Swizzles) and CuTe's `Swizzle<B,M,S>`.

use core::fmt;

use crate::error::Error;

/// `σ(x) = x XOR (((x >> src) & (2^b − 1)) << dst)`: a bijection of physical offsets, always the
/// last step of a chain. The fields `[src, src+b)` and `[dst, dst+b)` are disjoint.
///
/// CuTe's `Swizzle<B,M,S>` is `b = B, dst = M, src = M + S` (for `S < 0`: `src = M, dst = M − S`)
/// on the offsets it is written for: [`Swizzle::from_cute`] takes that unit ([`SwizzleUnit`]).
///
/// ```
/// use layout_core::{Swizzle, SwizzleUnit};
/// let s = Swizzle::from_cute(1, 2, 3, SwizzleUnit::Elements)?;
/// assert_eq!(s.apply(32), 36);
/// assert_eq!(s.to_cute(), (1, 2, 3));
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Swizzle {
    b: u32,
    src: u32,
    dst: u32,
}

impl Swizzle {
    /// The swizzle with `b` bits read from `src` and XORed into `dst` (bit positions of the
    /// element offset).
    ///
    /// # Errors
    /// [`Error::SwizzleOverlap`] when the fields share a bit (`|src − dst| < b`),
    /// [`Error::SwizzleTooWide`] when a field reaches past bit 62.
    pub const fn new(b: u32, src: u32, dst: u32) -> Result<Swizzle, Error> {
        if b > 62 || src > 62u32.saturating_sub(b) || dst > 62u32.saturating_sub(b) {
            return Err(Error::SwizzleTooWide { b, src, dst });
        }
        if src.abs_diff(dst) < b {
            return Err(Error::SwizzleOverlap { b, src, dst });
        }
        Ok(Swizzle { b, src, dst })
    }

    /// [`Swizzle::new`] from fields as written (e.g. parsed integers, possibly negative).
    ///
    /// # Errors
    /// [`Error::SwizzleNegativeField`] for a negative field, [`Error::SwizzleTooWide`] for one
    /// past bit 62, otherwise as [`Swizzle::new`].
    pub const fn from_fields(b: i64, src: i64, dst: i64) -> Result<Swizzle, Error> {
        if b < 0 || src < 0 || dst < 0 {
            return Err(Error::SwizzleNegativeField { b, src, dst });
        }
        if b > 62 || src > 62 || dst > 62 {
            const fn clamp(v: i64) -> u32 {
                field(if v > 62 { 62 } else { v })
            }
            return Err(Error::SwizzleTooWide {
                b: clamp(b),
                src: clamp(src),
                dst: clamp(dst),
            });
        }
        Swizzle::new(field(b), field(src), field(dst))
    }

    /// CuTe's `Swizzle<B,M,S>` over `unit`, as a swizzle of element offsets: over
    /// [`SwizzleUnit::Elements`] as written; over [`SwizzleUnit::Bytes`] (CuTe's GMMA and TMA
    /// swizzles act on byte addresses) converted exactly, so that the element swizzle of an
    /// element offset is the byte swizzle of its byte address: for `N`-bit elements
    /// (`N = 2^t`), `M` becomes `M − (t − 3)` (`Swizzle<3,4,3>` over the bytes of 16-bit
    /// elements is `Swizzle<3,3,3>` over elements; over 4-bit elements `M` grows by 1).
    ///
    /// ```
    /// use layout_core::{Swizzle, SwizzleUnit};
    /// let fp16 = Swizzle::from_cute(3, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 })?;
    /// assert_eq!(fp16, Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements)?);
    /// // Element 9 of row 1 (element offset 64 + 9) lies at byte 146; the byte swizzle moves
    /// // it to byte 146 ^ (1 << 4) = 130, element 65.
    /// assert_eq!(fp16.apply(73), 65);
    /// // The 32-byte swizzle Swizzle<1,4,3> of 64-bit elements would move bytes inside one.
    /// let e = Swizzle::from_cute(1, 2, 3, SwizzleUnit::Bytes { elem_bits: 64 }).unwrap_err();
    /// assert_eq!(e.rule(), "swizzle-unit");
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::SwizzleCuteShift`] for a negative `B` or `M`, or `B`, `M` or `|S|` above 62
    /// (a negative `S` is legal: `src = M, dst = M − S`); [`Error::SwizzleUnit`] for a byte
    /// swizzle with no exact element form (an element width that is not a power of two, or
    /// `M < log2(element bytes)` with `B > 0`: the swizzle would move bytes inside an element);
    /// otherwise
    /// as [`Swizzle::new`].
    pub const fn from_cute(b: i64, m: i64, s: i64, unit: SwizzleUnit) -> Result<Swizzle, Error> {
        if b < 0 || m < 0 || b > 62 || m > 62 || s > 62 || s < -62 {
            return Err(Error::SwizzleCuteShift { b, m, s });
        }
        let m = match unit {
            SwizzleUnit::Elements => m,
            SwizzleUnit::Bytes { elem_bits } => {
                if elem_bits == 0 || !elem_bits.is_power_of_two() {
                    return Err(Error::SwizzleUnit { b, m, s, elem_bits });
                }
                // log2 of the element width in bits, at most 31; the element offset is the
                // byte address times 2^(3 − t) (t ≤ 3) or divided by 2^(t − 3) (t ≥ 3).
                let t = elem_bits.trailing_zeros() as i64;
                let shifted = match m.checked_add(3) {
                    Some(v) => v.checked_sub(t),
                    None => None,
                };
                match shifted {
                    Some(v) if v >= 0 && v <= 62 => v,
                    // B = 0 moves nothing: the identity in every unit.
                    Some(v) if v < 0 && b == 0 => 0,
                    Some(v) if v > 62 => return Err(Error::SwizzleCuteShift { b, m: v, s }),
                    _ => return Err(Error::SwizzleUnit { b, m, s, elem_bits }),
                }
            }
        };
        let (src, dst) = if s >= 0 {
            (m.checked_add(s), Some(m))
        } else {
            (Some(m), m.checked_sub(s))
        };
        let (Some(src), Some(dst)) = (src, dst) else {
            return Err(Error::SwizzleCuteShift { b, m, s });
        };
        if src > 62 || dst > 62 {
            return Err(Error::SwizzleTooWide {
                b: field(b),
                src: field(if src > 62 { 62 } else { src }),
                dst: field(if dst > 62 { 62 } else { dst }),
            });
        }
        Swizzle::new(field(b), field(src), field(dst))
    }

    /// Number of bits moved.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.b
    }

    /// Lowest source bit.
    #[must_use]
    pub const fn src(self) -> u32 {
        self.src
    }

    /// Lowest destination bit.
    #[must_use]
    pub const fn dst(self) -> u32 {
        self.dst
    }

    /// CuTe's `(B, M, S)` for this swizzle.
    #[must_use]
    pub const fn to_cute(self) -> (i64, i64, i64) {
        let m = if self.src < self.dst {
            self.src
        } else {
            self.dst
        };
        let (src, dst) = (self.src as i64, self.dst as i64);
        (self.b as i64, m as i64, src.saturating_sub(dst))
    }

    /// An upper bound of `σ(x)` over `0 ≤ x ≤ max`: σ changes only the bits below
    /// `max(src, dst) + b`, so `σ(x)` stays below the next multiple of that power of two
    /// above `max` (for `max ≥ 0`; saturates at `i64::MAX`).
    #[must_use]
    pub const fn max_offset(self, max: i64) -> i64 {
        let top = (if self.src > self.dst {
            self.src
        } else {
            self.dst
        })
        .saturating_add(self.b);
        if top >= 63 {
            return i64::MAX;
        }
        let block = 1i64 << top;
        // block ≥ 1; max / block + 1 ≤ 2^62 + 1; a product that fits is ≥ 1.
        let Some(blocks) = max.checked_div(block) else {
            return i64::MAX;
        };
        match blocks.saturating_add(1).checked_mul(block) {
            Some(v) => v.saturating_sub(1),
            None => i64::MAX,
        }
    }

    /// `σ(x)`, on the two's-complement bits of `x`.
    #[must_use]
    #[inline]
    pub const fn apply(self, x: i64) -> i64 {
        // b, src, dst ≤ 62 (checked when built): the shifts are in range and 2^b − 1 ≥ 0.
        let mask = (1i64 << self.b).wrapping_sub(1);
        x ^ (((x >> self.src) & mask) << self.dst)
    }
}

/// A field value known to lie in `0..=124` (or clamped to 62 when above), as `u32`.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
const fn field(v: i64) -> u32 {
    // Callers checked v ≥ 0; the clamp keeps the cast exact.
    if v > 124 {
        124
    } else if v < 0 {
        0
    } else {
        v as u32
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "swizzle(b = {}, src = {}, dst = {})",
            self.b, self.src, self.dst
        )
    }
}

/// The unit of the addresses a CuTe `Swizzle<B,M,S>` is written for ([`Swizzle::from_cute`]).
/// The swizzles of this crate act on element offsets; CuTe's GMMA and TMA swizzles
/// (`Swizzle<3,4,3>` is the 128-byte swizzle) act on byte addresses, and the same `B,M,S` on
/// element offsets of wider elements gives other addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleUnit {
    /// Element offsets: the swizzle is used as written (CuTe's `Swizzle<3,3,3>` composed with a
    /// layout of `half_t` elements).
    Elements,
    /// Byte addresses of elements `elem_bits` bits wide (a power of two, e.g. 16 for fp16,
    /// 4 for int4): converted to element offsets exactly.
    Bytes {
        /// The element width in bits.
        elem_bits: u32,
    },
}

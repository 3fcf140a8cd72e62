//! The XOR swizzle of SPEC §3 (seed 000 §2, Definition 4) and CuTe's `Swizzle<B,M,S>`.

use core::fmt;

use crate::error::Error;

/// `σ(x) = x XOR (((x >> src) & (2^b − 1)) << dst)`: a bijection of physical offsets, always the
/// last step of a chain. The fields `[src, src+b)` and `[dst, dst+b)` are disjoint.
///
/// CuTe's `Swizzle<B,M,S>` is `b = B, dst = M, src = M + S` (for `S < 0`: `src = M, dst = M − S`).
///
/// ```
/// use layout_core::Swizzle;
/// let s = Swizzle::from_cute(1, 2, 3)?;
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

    /// CuTe's `Swizzle<B,M,S>`.
    ///
    /// # Errors
    /// [`Error::SwizzleCuteShift`] for a negative `B` or `M`, or `B`, `M` or `|S|` above 62
    /// (a negative `S` is legal: `src = M, dst = M − S`), otherwise as
    /// [`Swizzle::new`].
    pub const fn from_cute(b: i64, m: i64, s: i64) -> Result<Swizzle, Error> {
        if b < 0 || m < 0 || b > 62 || m > 62 || s > 62 || s < -62 {
            return Err(Error::SwizzleCuteShift { b, m, s });
        }
        // m, |s| ≤ 62: the sums stay below 125.
        let (src, dst) = if s >= 0 {
            (m.saturating_add(s), m)
        } else {
            (m, m.saturating_sub(s))
        };
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
        swizzled_max(max, self.b, self.src, self.dst)
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

/// [`Swizzle::max_offset`] on raw fields (used by the typed API's constants).
#[must_use]
pub const fn swizzled_max(max: i64, b: u32, src: u32, dst: u32) -> i64 {
    let top = (if src > dst { src } else { dst }).saturating_add(b);
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

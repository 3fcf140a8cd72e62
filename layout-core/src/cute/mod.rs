//! # CuTe's operations, with CuTe's semantics, never silently wrong (spec: Postconditions)
//!
//! Layouts here are in **CuTe order** (first mode fastest, stride `0` a broadcast), printed as
//! CuTe prints them. The operations follow NVIDIA's pycute (the reference implementation in the
//! `nvidia-cutlass` wheel) and C++ CuTe where pycute has none (`flat_divide`, `flat_product`,
//! `blocked_product`, `raked_product`):
//!
//! | CuTe | here |
//! |---|---|
//! | `coalesce(L)`, `coalesce(L, profile)` | [`Cute::coalesce`], [`Cute::coalesce_by`] |
//! | `composition(A, B)` (B a layout or a tiler) | [`Cute::composition`] |
//! | `complement(L, cotarget)` | [`Cute::complement`] |
//! | `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide` | [`Cute::logical_divide`], … |
//! | `logical_product`, `zipped_product`, `tiled_product`, `flat_product` | [`Cute::logical_product`], … |
//! | `blocked_product`, `raked_product` | [`Cute::blocked_product`], [`Cute::raked_product`] |
//! | `right_inverse`, `left_inverse` | [`Cute::right_inverse`], [`Cute::left_inverse`] |
//! | `composition(Swizzle<B,M,S>{}, L)` | [`Composed::swizzled`], [`Composed::compose`] |
//!
//! Each result is the result of CuTe's own formula, returned **only if it satisfies CuTe's own
//! unit-test postconditions** for that operation, checked by evaluation at every coordinate
//! (complement: checks (1)–(4) of `test_complement`; composition: `compatible(B, R)` and
//! `R(i) == A(B(i))`; inverses: `L(R(i)) == i`, `L(R(L(i))) == L(i)`; coalesce: the same value
//! everywhere; divides and products: the complement and composition they are defined by, and
//! their regroupings). The complement inside a divide or product is not refused on its own
//! checks: where one fails, the divide must still partition `A` (every coordinate in exactly
//! one tile) and the product's copies must still be disjoint, and then the result is returned
//! with the failed check as a note ([`Cute::apply_noted`]). Otherwise the answer is a [`Diagnostic`]: an [`Error`] naming the
//! violated condition (its [`Error::rule`], e.g. `complement-coverage`), the mode and the numbers.
//! Where CuTe refuses (pycute raises, C++ `static_assert`s) or goes wrong on a composition whose
//! map is still a layout, the diagnostic offers that layout ([`Diagnostic::suggestion`], found by
//! the decision procedure (spec: Theorem 1)).
//!
//! [`Cute::strict`] additionally requires the admissibility conditions (spec: Strict mode) up front
//! (see [`Admissibility`]) and reports the first that fails.
//!
//! ```
//! use layout_core::cute::{self, Cute, CuteLayout};
//! // CuTe's documented composition.
//! let a: CuteLayout = "(6,2):(8,2)".parse()?;
//! let b: CuteLayout = "(4,3):(3,1)".parse()?;
//! assert_eq!(cute::composition(&a, &b)?.to_string(), "((2,2),3):((24,2),8)");
//! // (spec: Postconditions): CuTe returns 4:6, covering 16 of 24 offsets; here it is a diagnostic.
//! let l: CuteLayout = "(2,2):(1,3)".parse()?;
//! let d = cute::complement(&l, 24).unwrap_err();
//! assert_eq!(d.rule(), "complement-coverage");
//! // A legitimate use whose divisibility conditions (spec: Strict mode) fail still works ...
//! assert_eq!(cute::complement(&"4:2".parse()?, 7)?.to_string(), "2:1");
//! // ... unless strict mode asks for the seed's conditions.
//! assert_eq!(Cute::strict().complement(&"4:2".parse()?, 7).unwrap_err().rule(),
//!            "complement-cotarget-divides");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Mode paths in these errors count in CuTe order (first mode first): through a by-mode tiler's
//! entries, then through the right operand's modes.

mod condition;
mod diag;
mod divide;
mod inverse;
mod layout;
mod ops;
mod parse;
mod post;
mod print;
mod product;
mod strict;
mod swizzle;
mod text;
mod tiler;

pub use condition::{Admissibility, CuteOp, Postcondition, Refusal};
pub use diag::{Diagnostic, Note};
pub use layout::{CHECK_LIMIT, CuteLayout};
pub use parse::{parse_cotarget, parse_profile, parse_swizzle};
pub use swizzle::{Composed, Stage};
pub use text::{Arg, Value, arity, read_args, usage};
pub use tiler::Tiler;

use diag::Ctx;

use crate::error::Error;
use crate::tree::Tree;

/// How CuTe operations are checked: always by CuTe's postconditions, and in strict mode also by
/// The admissibility conditions first (spec: Strict mode). `Cute::default()` is [`Cute::new`].
///
/// ```
/// use layout_core::cute::{Cute, CuteLayout};
/// let a: CuteLayout = "(8,8):(8,1)".parse()?;
/// // CuTe (C++) returns 2:24 here; pycute refuses; both agree with the seed's decision.
/// let d = Cute::new().composition(&a, &"2:3".parse::<CuteLayout>()?.into()).unwrap_err();
/// assert_eq!(d.suggestion().map(ToString::to_string).as_deref(), Some("2:24"));
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cute {
    strict: bool,
}

impl Cute {
    /// CuTe's semantics; results checked by CuTe's postconditions.
    #[must_use]
    pub const fn new() -> Cute {
        Cute { strict: false }
    }

    /// CuTe's semantics, with the admissibility conditions required (spec: Strict mode) up front.
    #[must_use]
    pub const fn strict() -> Cute {
        Cute { strict: true }
    }

    /// Whether strict mode is on.
    #[must_use]
    pub const fn is_strict(self) -> bool {
        self.strict
    }

    pub(crate) fn ctx(self, op: CuteOp) -> Ctx {
        Ctx::new(op, self.strict)
    }

    /// CuTe `coalesce(L)`: the same function with adjacent modes merged where
    /// `size·stride` of one is the stride of the next and size-1 modes dropped; depth ≤ 1;
    /// `1:0` when every mode has size 1. Checked: same size, same value at every coordinate.
    ///
    /// ```
    /// use layout_core::cute::{coalesce, CuteLayout};
    /// let l: CuteLayout = "((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)".parse()?;
    /// assert_eq!(coalesce(&l)?.to_string(), "(24,6):(4,2)");
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::CutePostcondition`] (`coalesce-*`, never expected), [`Error::CuteCheckLimit`].
    pub fn coalesce(self, l: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
        Ok(ops::coalesce(self.ctx(CuteOp::Coalesce), l, None)?)
    }

    /// CuTe `coalesce(L, profile)`: mode `i` coalesced by `profile[i]` (an integer coalesces
    /// the whole mode, a tuple recurses), modes past the profile kept; the rank is kept.
    ///
    /// # Errors
    /// [`Refusal::TilerRank`] when the profile has more entries than `L` has modes; as
    /// [`Cute::coalesce`].
    pub fn coalesce_by(
        self,
        l: &CuteLayout,
        profile: &Tree<i64>,
    ) -> Result<CuteLayout, Diagnostic> {
        Ok(ops::coalesce(self.ctx(CuteOp::Coalesce), l, Some(profile))?)
    }

    /// CuTe `composition(A, B)`, `A ∘ B` (apply `B`, then `A`): for a layout `B`, a layout
    /// compatible with `B`; for a by-mode tiler `<B0,B1,…>`, `(A0∘B0, A1∘B1, …, rest of A)`;
    /// for `_`, `A`. `A` is read on CuTe's extended domain past its size ("the last mode gets
    /// extended"). Checked: `compatible(B, R)` and `R(i) == A(B(i))` for every `i`.
    ///
    /// # Errors
    /// [`Refusal::StrideDivisibility`] where CuTe refuses, [`Postcondition::CompositionValue`]
    /// or [`Postcondition::CompositionCompatible`] where CuTe's result is wrong — both with the
    /// layout the composite is, when it is one; [`Refusal::TilerRank`]; in strict mode the
    /// [`Admissibility`] conditions of composition.
    pub fn composition(self, a: &CuteLayout, b: &Tiler) -> Result<CuteLayout, Diagnostic> {
        ops::composition(self.ctx(CuteOp::Composition), a, b)
    }

    /// CuTe `complement(L, cotarget)`: the layout of the offsets in `[0, cotarget)` that `L`
    /// does not reach, ordered, so that `(L, R)` covers at least `[0, cotarget)`. `cotarget`
    /// counts positions (CuTe's `size(cotarget)` for a shape). Checked: (1) `cosize((L, R)) ≥
    /// cotarget`, (2) `cosize(R) ≤ round_up(cotarget, cosize(L))`, (3) `R` increasing, (4) `R`
    /// disjoint from `L` (beyond offset 0).
    ///
    /// # Errors
    /// The [`Postcondition`] `complement-*` violated by CuTe's result (spec: Postconditions;
    /// `complement((2,2):(1,3), 24)` is `4:6` in CuTe, covering 16 of 24);
    /// [`Refusal::ComplementOverlap`], [`Refusal::ComplementNegativeStride`],
    /// [`Refusal::Cotarget`]; in strict mode [`Admissibility::ComplementStrideDivides`] and
    /// [`Admissibility::ComplementCotargetDivides`].
    pub fn complement(self, l: &CuteLayout, cotarget: i64) -> Result<CuteLayout, Diagnostic> {
        Ok(ops::complement(self.ctx(CuteOp::Complement), l, cotarget)?)
    }

    /// CuTe `logical_divide(A, B) = composition(A, make_layout(B, complement(B, size(A))))`:
    /// `(tile, rest)` for a layout tile; by mode for `<…>`; `A` for `_`.
    ///
    /// ```
    /// use layout_core::cute::{logical_divide, CuteLayout};
    /// let a: CuteLayout = "16:1".parse()?;
    /// assert_eq!(logical_divide(&a, &"4:2".parse()?)?.to_string(), "(4,(2,2)):(2,(1,8))");
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Those of the complement and the composition it is made of; in strict mode first
    /// [`Admissibility::DivideTileDivides`] (`k | n`).
    pub fn logical_divide(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        divide::logical_divide(self.ctx(CuteOp::LogicalDivide), a, t)
    }

    /// CuTe `zipped_divide(A, tiler)`: the logical divide regrouped as `((tiles…), (rests…))`.
    ///
    /// # Errors
    /// As [`Cute::logical_divide`]; [`Postcondition::Regroup`] (never expected).
    pub fn zipped_divide(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        divide::zipped_divide(self.ctx(CuteOp::ZippedDivide), a, t)
    }

    /// CuTe `tiled_divide(A, tiler)`: `((tiles…), rests…)`.
    ///
    /// # Errors
    /// As [`Cute::zipped_divide`].
    pub fn tiled_divide(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        divide::tiled_divide(self.ctx(CuteOp::TiledDivide), a, t)
    }

    /// CuTe `flat_divide(A, tiler)`: `(tiles…, rests…)`.
    ///
    /// # Errors
    /// As [`Cute::zipped_divide`].
    pub fn flat_divide(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        divide::flat_divide(self.ctx(CuteOp::FlatDivide), a, t)
    }

    /// CuTe `logical_product(A, B) = make_layout(A, composition(complement(A, size(A)·cosize(B)),
    /// B))`: `B`'s arrangement of copies of `A`; by mode for `<…>`; `A` for `_`.
    ///
    /// # Errors
    /// Those of the complement and the composition it is made of.
    pub fn logical_product(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        product::logical_product(self.ctx(CuteOp::LogicalProduct), a, t)
    }

    /// CuTe `zipped_product(A, tiler)`: the logical product regrouped as `((A…), (copies…))`.
    ///
    /// # Errors
    /// As [`Cute::logical_product`]; [`Postcondition::Regroup`] (never expected).
    pub fn zipped_product(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        product::zipped_product(self.ctx(CuteOp::ZippedProduct), a, t)
    }

    /// CuTe `tiled_product(A, tiler)`: `((A…), copies…)`.
    ///
    /// # Errors
    /// As [`Cute::zipped_product`].
    pub fn tiled_product(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        product::tiled_product(self.ctx(CuteOp::TiledProduct), a, t)
    }

    /// CuTe `flat_product(A, tiler)`: `(A…, copies…)`.
    ///
    /// # Errors
    /// As [`Cute::zipped_product`].
    pub fn flat_product(self, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
        product::flat_product(self.ctx(CuteOp::FlatProduct), a, t)
    }

    /// CuTe `blocked_product(A, B)`: both padded to the larger rank, the logical product zipped
    /// mode by mode as `(A_i, B'_i)` — `B`'s arrangement of whole blocks `A`.
    ///
    /// ```
    /// use layout_core::cute::{Cute, CuteLayout};
    /// let (a, b): (CuteLayout, CuteLayout) = ("(2,5):(5,1)".parse()?, "(3,4):(1,3)".parse()?);
    /// assert_eq!(Cute::new().blocked_product(&a, &b)?.to_string(),
    ///            "((2,3),(5,4)):((5,10),(1,30))");
    /// // Rank 1: C++ zips an integer-shaped block with the whole copies mode.
    /// let (a, b): (CuteLayout, CuteLayout) = ("6:2".parse()?, "6:1".parse()?);
    /// assert_eq!(Cute::new().blocked_product(&a, &b)?.to_string(), "((6,(2,3))):((2,(1,12)))");
    /// // A rank-1 tuple block cannot be zipped with a rank-2 copies mode (C++ static_asserts).
    /// let (a, b): (CuteLayout, CuteLayout) = ("(6):(2)".parse()?, "6:1".parse()?);
    /// assert_eq!(Cute::new().blocked_product(&a, &b).unwrap_err().rule(), "product-zip-rank");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Cute::logical_product`]; [`Refusal::ZipRank`] for rank-1 operands whose halves C++
    /// cannot zip.
    pub fn blocked_product(self, a: &CuteLayout, b: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
        product::blocked_product(self.ctx(CuteOp::BlockedProduct), a, b)
    }

    /// CuTe `raked_product(A, B)`: as [`Cute::blocked_product`] with `(B'_i, A_i)` per mode —
    /// the copies interleaved element by element.
    ///
    /// # Errors
    /// As [`Cute::blocked_product`].
    pub fn raked_product(self, a: &CuteLayout, b: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
        product::raked_product(self.ctx(CuteOp::RakedProduct), a, b)
    }

    /// CuTe `right_inverse(L)`: `R` with `L(R(i)) == i` for every `i < size(R)`, following the
    /// strides up from 1 (pycute stops at the first stride-0 mode, where C++ CuTe filters it
    /// out first; both satisfy the postcondition). Checked.
    ///
    /// # Errors
    /// [`Postcondition::RightInverseDomain`], [`Postcondition::RightInverseValue`].
    pub fn right_inverse(self, l: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
        Ok(inverse::right_inverse(self.ctx(CuteOp::RightInverse), l)?)
    }

    /// CuTe `left_inverse(L) = right_inverse(make_layout(L, complement(L)))` (pycute's default
    /// cotarget 1): `R` with `L(R(L(i))) == L(i)`, and `R(L(i))` a coordinate of `L`. Checked.
    ///
    /// # Errors
    /// [`Postcondition::LeftInverseDomain`], [`Postcondition::LeftInverseValue`]; the
    /// complement's refusals.
    pub fn left_inverse(self, l: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
        Ok(inverse::left_inverse(self.ctx(CuteOp::LeftInverse), l)?)
    }
}

/// [`Cute::coalesce`] with CuTe's semantics (not strict).
///
/// # Errors
/// As [`Cute::coalesce`].
pub fn coalesce(l: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
    Cute::new().coalesce(l)
}

/// [`Cute::composition`] of two layouts, not strict.
///
/// # Errors
/// As [`Cute::composition`].
pub fn composition(a: &CuteLayout, b: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
    Cute::new().composition(a, &Tiler::Layout(b.clone()))
}

/// [`Cute::complement`], not strict.
///
/// # Errors
/// As [`Cute::complement`].
pub fn complement(l: &CuteLayout, cotarget: i64) -> Result<CuteLayout, Diagnostic> {
    Cute::new().complement(l, cotarget)
}

/// [`Cute::logical_divide`], not strict.
///
/// # Errors
/// As [`Cute::logical_divide`].
pub fn logical_divide(a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    Cute::new().logical_divide(a, t)
}

/// [`Cute::zipped_divide`], not strict.
///
/// # Errors
/// As [`Cute::zipped_divide`].
pub fn zipped_divide(a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    Cute::new().zipped_divide(a, t)
}

/// [`Cute::logical_product`], not strict.
///
/// # Errors
/// As [`Cute::logical_product`].
pub fn logical_product(a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    Cute::new().logical_product(a, t)
}

/// [`Cute::right_inverse`].
///
/// # Errors
/// As [`Cute::right_inverse`].
pub fn right_inverse(l: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
    Cute::new().right_inverse(l)
}

/// [`Cute::left_inverse`].
///
/// # Errors
/// As [`Cute::left_inverse`].
pub fn left_inverse(l: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
    Cute::new().left_inverse(l)
}

impl From<Diagnostic> for Error {
    /// The error of a diagnostic (its suggestion dropped).
    fn from(d: Diagnostic) -> Error {
        d.error()
    }
}

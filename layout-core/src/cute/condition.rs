//! The conditions a CuTe operation can violate: CuTe's own postconditions, CuTe's refusals, and
//! the admissibility conditions (spec: Strict mode) that strict mode adds. Each carries its numbers;
//! [`crate::Error`] wraps them with the operation and the mode.

use core::fmt;
use core::str::FromStr;

use crate::error::{Error, Expected, ModePath};

/// A CuTe operation, by its CuTe name (`"composition"`, `"logical_divide"`, …).
///
/// It names the operation in diagnostics and selects one in the text interface
/// ([`crate::cute::Cute::apply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CuteOp {
    /// CuTe `coalesce(layout)` and `coalesce(layout, profile)`.
    Coalesce,
    /// CuTe `composition(A, B)`.
    Composition,
    /// CuTe `complement(layout, cotarget)`.
    Complement,
    /// CuTe `logical_divide(A, tiler)`.
    LogicalDivide,
    /// CuTe `zipped_divide(A, tiler)`.
    ZippedDivide,
    /// CuTe `tiled_divide(A, tiler)`.
    TiledDivide,
    /// CuTe `flat_divide(A, tiler)`.
    FlatDivide,
    /// CuTe `logical_product(A, tiler)`.
    LogicalProduct,
    /// CuTe `zipped_product(A, tiler)`.
    ZippedProduct,
    /// CuTe `tiled_product(A, tiler)`.
    TiledProduct,
    /// CuTe `flat_product(A, tiler)`.
    FlatProduct,
    /// CuTe `blocked_product(A, B)`.
    BlockedProduct,
    /// CuTe `raked_product(A, B)`.
    RakedProduct,
    /// CuTe `right_inverse(layout)`.
    RightInverse,
    /// CuTe `left_inverse(layout)`.
    LeftInverse,
    /// CuTe `composition(Swizzle<B,M,S>{}, layout)`: a swizzle after a layout.
    Swizzle,
    /// Evaluating a layout at every integral coordinate.
    LayoutEval,
}

impl CuteOp {
    /// Every operation, in CuTe's order of presentation.
    pub const ALL: [CuteOp; 17] = [
        CuteOp::LayoutEval,
        CuteOp::Coalesce,
        CuteOp::Composition,
        CuteOp::Complement,
        CuteOp::LogicalDivide,
        CuteOp::ZippedDivide,
        CuteOp::TiledDivide,
        CuteOp::FlatDivide,
        CuteOp::LogicalProduct,
        CuteOp::ZippedProduct,
        CuteOp::TiledProduct,
        CuteOp::FlatProduct,
        CuteOp::BlockedProduct,
        CuteOp::RakedProduct,
        CuteOp::RightInverse,
        CuteOp::LeftInverse,
        CuteOp::Swizzle,
    ];

    /// The CuTe name, e.g. `"zipped_divide"` (also the corpus's `op` field).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CuteOp::Coalesce => "coalesce",
            CuteOp::Composition => "composition",
            CuteOp::Complement => "complement",
            CuteOp::LogicalDivide => "logical_divide",
            CuteOp::ZippedDivide => "zipped_divide",
            CuteOp::TiledDivide => "tiled_divide",
            CuteOp::FlatDivide => "flat_divide",
            CuteOp::LogicalProduct => "logical_product",
            CuteOp::ZippedProduct => "zipped_product",
            CuteOp::TiledProduct => "tiled_product",
            CuteOp::FlatProduct => "flat_product",
            CuteOp::BlockedProduct => "blocked_product",
            CuteOp::RakedProduct => "raked_product",
            CuteOp::RightInverse => "right_inverse",
            CuteOp::LeftInverse => "left_inverse",
            CuteOp::Swizzle => "swizzle",
            CuteOp::LayoutEval => "layout_eval",
        }
    }
}

impl fmt::Display for CuteOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CuteOp {
    type Err = Error;

    /// Reads a CuTe operation name (`"composition"`, `"logical_divide"`, …).
    ///
    /// # Errors
    /// [`Error::Parse`] at column 0 for an unknown name.
    fn from_str(s: &str) -> Result<CuteOp, Error> {
        CuteOp::ALL
            .into_iter()
            .find(|op| op.name() == s.trim())
            .ok_or(Error::Parse {
                column: 0,
                expected: Expected::CuteOp,
            })
    }
}

/// A postcondition of CuTe's own unit tests that a result of CuTe's formula violates, with the
/// numbers of the first violation found (evaluation at every coordinate, in CuTe's
/// colexicographic order). Integral coordinates are `index`es; offsets are the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Postcondition {
    /// `coalesce`: `R(index) == L(index)` fails (CuTe `test_coalesce`).
    CoalesceValue {
        /// The integral coordinate.
        index: i64,
        /// `L(index)`.
        expected: i64,
        /// `R(index)`.
        found: i64,
    },
    /// `coalesce`: `size(R) == size(L)` fails.
    CoalesceSize {
        /// `size(L)`.
        expected: i64,
        /// `size(R)`.
        found: i64,
    },
    /// `coalesce`: `depth(R) <= 1` fails.
    CoalesceDepth {
        /// `depth(R)`.
        depth: usize,
    },
    /// `composition`: `compatible(B, R)` fails: where `B` has a size-`expected` leaf, `R` has a
    /// subtree of size `found` (or a different profile, then `found` is its rank).
    CompositionCompatible {
        /// The size (or rank) of `B` at the mode.
        expected: i64,
        /// The size (or rank) of `R` there.
        found: i64,
    },
    /// `composition`: `R(index) == A(B(index))` fails (`A` read on CuTe's extended domain, whose
    /// last mode has no bound).
    CompositionValue {
        /// The integral coordinate of `B`.
        index: i64,
        /// `A(B(index))`.
        expected: i64,
        /// `R(index)`.
        found: i64,
    },
    /// `complement` check (1): `cosize(make_layout(layout, R)) >= size(cotarget)` fails: the
    /// layout and its complement reach only `[0, cosize)`.
    ComplementCoverage {
        /// `cosize(make_layout(layout, R))`.
        cosize: i64,
        /// `size(cotarget)`.
        cotarget: i64,
    },
    /// `complement` check (2): `cosize(R) <= round_up(size(cotarget), cosize(layout))` fails.
    ComplementBound {
        /// `cosize(R)`.
        cosize: i64,
        /// `round_up(size(cotarget), cosize(layout))`.
        bound: i64,
    },
    /// `complement` check (3): `R(index - 1) < R(index)` fails (the complement is ordered).
    ComplementOrdered {
        /// The integral coordinate.
        index: i64,
        /// `R(index - 1)`.
        previous: i64,
        /// `R(index)`.
        value: i64,
    },
    /// `complement` check (4): `R(index) != layout(layout_index)` fails (the complement is
    /// disjoint from the layout).
    ComplementDisjoint {
        /// The integral coordinate of `R` (≥ 1).
        index: i64,
        /// The shared offset.
        value: i64,
        /// An integral coordinate of the layout with the same offset.
        layout_index: i64,
    },
    /// `right_inverse`: `R(index)` is not a coordinate of `L` (outside `[0, size)`).
    RightInverseDomain {
        /// The integral coordinate of `R`.
        index: i64,
        /// `R(index)`.
        value: i64,
        /// `size(L)`.
        size: i64,
    },
    /// `right_inverse`: `L(R(index)) == index` fails.
    RightInverseValue {
        /// The integral coordinate of `R`.
        index: i64,
        /// `R(index)`.
        value: i64,
        /// `L(R(index))`.
        found: i64,
    },
    /// `left_inverse`: `R(L(index))` is not a coordinate of `L` (outside `[0, size)`).
    LeftInverseDomain {
        /// The integral coordinate of `L`.
        index: i64,
        /// `R(L(index))`.
        value: i64,
        /// `size(L)`.
        size: i64,
    },
    /// `left_inverse`: `L(R(L(index))) == L(index)` fails.
    LeftInverseValue {
        /// The integral coordinate of `L`.
        index: i64,
        /// `L(index)`.
        expected: i64,
        /// `L(R(L(index)))`.
        found: i64,
    },
    /// A regrouping (zipped/tiled/flat forms, blocked/raked products) differs from the layout it
    /// regroups at a coordinate.
    Regroup {
        /// The integral coordinate of the regrouped layout.
        index: i64,
        /// The value of the layout it regroups there.
        expected: i64,
        /// Its own value.
        found: i64,
    },
}

/// Why there is no CuTe result for the operands: CuTe refuses them (pycute raises, or C++ CuTe
/// fails a `static_assert`), or its formula would build a mode of size < 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// `composition`: neither of the coalesced `A`'s mode size `shape` and the remaining stride
    /// `stride` of `B` divides the other (pycute's assertion; C++ "Stride Divisibility
    /// Condition"). A stride of 0 here is pycute's division by zero.
    StrideDivisibility {
        /// The mode of the coalesced `A` (0-based, first mode fastest).
        a_mode: usize,
        /// Its size.
        shape: i64,
        /// What remains of `B`'s stride when it is reached.
        stride: i64,
    },
    /// `complement`: sorted by stride, this mode's `stride` lies below `reach`, the size times
    /// the stride of the previous mode, so CuTe's quotient `stride / reach` is 0 (C++:
    /// "Non-injective Layout detected in complement"; pycute asserts or returns an empty mode).
    ComplementOverlap {
        /// The stride of the mode.
        stride: i64,
        /// Size times stride of the previous mode, sorted by stride.
        reach: i64,
    },
    /// `complement` of a layout with a negative stride (pycute asserts; C++ returns a layout of
    /// negative size).
    ComplementNegativeStride {
        /// The stride.
        stride: i64,
    },
    /// `complement` with a cotarget below 1 (e.g. a product with `cosize(B) <= 0`).
    Cotarget {
        /// The cotarget.
        cotarget: i64,
    },
    /// A by-mode tiler or a coalesce profile with more modes than the layout (pycute's
    /// `len(layoutA) >= len(layoutB)`).
    TilerRank {
        /// Number of top-level modes of the layout.
        rank: usize,
        /// Number of entries of the tiler or profile.
        tiler: usize,
    },
    /// `blocked_product` / `raked_product` of rank-1 operands: C++ `zip` of the logical
    /// product's two halves needs the first to be an integer shape, or both to be tuples of the
    /// same rank (C++ does not compile it: `static_assert` "Mismatched Ranks", or no
    /// `tuple_size` for an integer; pycute has no such product).
    ZipRank {
        /// Rank of the first half's shape (blocked: the block; raked: the copies), 0 for an
        /// integer shape.
        first: usize,
        /// Rank of the second half's shape, 0 for an integer shape.
        second: usize,
    },
}

/// An admissibility condition (spec: Strict mode), required up front in strict mode only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Admissibility {
    /// `complement`: sorted by stride, `N_{i-1}·d_{i-1} | d_i` fails.
    ComplementStrideDivides {
        /// `N_{i-1}·d_{i-1}` of the previous mode.
        product: i64,
        /// `d_i`.
        stride: i64,
    },
    /// `complement`: `N_α·d_α | M` fails for the mode of largest stride.
    ComplementCotargetDivides {
        /// `N_α·d_α`.
        product: i64,
        /// `M`, the cotarget.
        cotarget: i64,
    },
    /// `composition`: `B`'s mode has stride `r = M_0⋯M_{i-1}·c` only if the prefix product of
    /// the coalesced `A`'s modes divides `r`; here the mode `a_mode` of size `shape` does not
    /// divide `stride`, what is left of `r` when it is reached, although `stride ≥ shape`.
    CompositionPrefixDivides {
        /// The mode of the coalesced `A` (0-based, first fastest).
        a_mode: usize,
        /// Its size.
        shape: i64,
        /// What remains of `|r|` when it is reached.
        stride: i64,
    },
    /// `composition`: the leftover `c` of the stride does not divide the mode `M_i` it falls in.
    CompositionLeftoverDivides {
        /// The mode `i` of the coalesced `A`.
        a_mode: usize,
        /// The leftover `c` (`1 < c < M_i`).
        leftover: i64,
        /// `M_i`.
        shape: i64,
    },
    /// `composition`: what remains of `A` after the stride is not weakly left divisible by `B`'s
    /// size `N`: at the mode `a_mode` of size `shape`, `remaining` (> `shape`) positions of `N`
    /// are left and `shape` does not divide them.
    CompositionWeaklyDivisible {
        /// The mode of the coalesced `A`.
        a_mode: usize,
        /// What is left of `N` when the mode is reached.
        remaining: i64,
        /// The mode's size.
        shape: i64,
    },
    /// `composition`: `B`'s mode reaches past the end of `A`: its largest index
    /// `stride·(size − 1)` is at least `size(A)`.
    CompositionInBounds {
        /// `|r|·(N − 1)`, the largest index of `A` the mode reads.
        reach: i64,
        /// `size(A)`.
        size: i64,
    },
    /// `composition`: two modes of `B` act on overlapping intervals of `A`'s index:
    /// `[|r|, |r|·N)` of the mode `other` meets this mode's.
    CompositionDisjoint {
        /// The other mode of `B` (CuTe order).
        other: ModePath,
        /// The end `|r|·N` of the other mode's interval.
        other_end: i64,
        /// The start `|r|` of this mode's interval.
        start: i64,
    },
    /// A divide: the tile's size `k` does not divide the size `n` of the mode it tiles.
    DivideTileDivides {
        /// `k = size(tile)`.
        tile: i64,
        /// `n = size(mode)`.
        size: i64,
    },
}

impl Postcondition {
    /// The stable rule name, e.g. `"complement-coverage"`.
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            Postcondition::CoalesceValue { .. } => "coalesce-value",
            Postcondition::CoalesceSize { .. } => "coalesce-size",
            Postcondition::CoalesceDepth { .. } => "coalesce-depth",
            Postcondition::CompositionCompatible { .. } => "composition-compatible",
            Postcondition::CompositionValue { .. } => "composition-value",
            Postcondition::ComplementCoverage { .. } => "complement-coverage",
            Postcondition::ComplementBound { .. } => "complement-bound",
            Postcondition::ComplementOrdered { .. } => "complement-ordered",
            Postcondition::ComplementDisjoint { .. } => "complement-disjoint",
            Postcondition::RightInverseDomain { .. } => "right-inverse-domain",
            Postcondition::RightInverseValue { .. } => "right-inverse-value",
            Postcondition::LeftInverseDomain { .. } => "left-inverse-domain",
            Postcondition::LeftInverseValue { .. } => "left-inverse-value",
            Postcondition::Regroup { .. } => "regroup-value",
        }
    }
}

impl Refusal {
    /// The stable rule name, e.g. `"composition-stride-divisibility"`.
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            Refusal::StrideDivisibility { .. } => "composition-stride-divisibility",
            Refusal::ComplementOverlap { .. } => "complement-overlap",
            Refusal::ComplementNegativeStride { .. } => "complement-negative-stride",
            Refusal::Cotarget { .. } => "complement-cotarget",
            Refusal::TilerRank { .. } => "tiler-rank",
            Refusal::ZipRank { .. } => "product-zip-rank",
        }
    }
}

impl Admissibility {
    /// The stable rule name, e.g. `"composition-leftover-divides"`.
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            Admissibility::ComplementStrideDivides { .. } => "complement-stride-divides",
            Admissibility::ComplementCotargetDivides { .. } => "complement-cotarget-divides",
            Admissibility::CompositionPrefixDivides { .. } => "composition-prefix-divides",
            Admissibility::CompositionLeftoverDivides { .. } => "composition-leftover-divides",
            Admissibility::CompositionWeaklyDivisible { .. } => "composition-weakly-divisible",
            Admissibility::CompositionInBounds { .. } => "composition-in-bounds",
            Admissibility::CompositionDisjoint { .. } => "composition-disjoint",
            Admissibility::DivideTileDivides { .. } => "divide-tile-divides",
        }
    }
}

impl fmt::Display for Postcondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Postcondition::CoalesceValue {
                index,
                expected,
                found,
            } => write!(
                f,
                "R({index}) == L({index}) fails: the coalesced layout gives {found}, the layout {expected}"
            ),
            Postcondition::CoalesceSize { expected, found } => {
                write!(f, "size(R) == size(L) fails: {found} vs {expected}")
            }
            Postcondition::CoalesceDepth { depth } => {
                write!(f, "depth(R) <= 1 fails: the result has depth {depth}")
            }
            Postcondition::CompositionCompatible { expected, found } => write!(
                f,
                "compatible(B, R) fails: B has size {expected} there, R {found}"
            ),
            Postcondition::CompositionValue {
                index,
                expected,
                found,
            } => write!(
                f,
                "R(i) == A(B(i)) fails at i = {index}: A(B({index})) = {expected} but CuTe's result gives {found}"
            ),
            Postcondition::ComplementCoverage { cosize, cotarget } => write!(
                f,
                "check (1) cosize(layout ++ R) >= size(cotarget) fails: together they reach only [0, {cosize}) of [0, {cotarget})"
            ),
            Postcondition::ComplementBound { cosize, bound } => write!(
                f,
                "check (2) cosize(R) <= round_up(size(cotarget), cosize(layout)) fails: {cosize} > {bound}"
            ),
            Postcondition::ComplementOrdered {
                index,
                previous,
                value,
            } => write!(
                f,
                "check (3) R(i-1) < R(i) fails at i = {index}: {previous} then {value}"
            ),
            Postcondition::ComplementDisjoint {
                index,
                value,
                layout_index,
            } => write!(
                f,
                "check (4) R(i) != layout(j) fails: R({index}) = layout({layout_index}) = {value}"
            ),
            Postcondition::RightInverseDomain { index, value, size } => write!(
                f,
                "R({index}) = {value} is not a coordinate of the layout (size {size})"
            ),
            Postcondition::RightInverseValue {
                index,
                value,
                found,
            } => write!(
                f,
                "L(R(i)) == i fails at i = {index}: R({index}) = {value} and L({value}) = {found}"
            ),
            Postcondition::LeftInverseDomain { index, value, size } => write!(
                f,
                "R(L({index})) = {value} is not a coordinate of the layout (size {size})"
            ),
            Postcondition::LeftInverseValue {
                index,
                expected,
                found,
            } => write!(
                f,
                "L(R(L(i))) == L(i) fails at i = {index}: L({index}) = {expected} but L(R(L({index}))) = {found}"
            ),
            Postcondition::Regroup {
                index,
                expected,
                found,
            } => write!(
                f,
                "the regrouped layout gives {found} at {index} where the layout it regroups gives {expected}"
            ),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::StrideDivisibility {
                a_mode,
                shape,
                stride,
            } => write!(
                f,
                "stride divisibility: neither of the size {shape} of A's mode {a_mode} (coalesced) and the remaining stride {stride} of B divides the other"
            ),
            Refusal::ComplementOverlap { stride, reach } => write!(
                f,
                "sorted by stride, stride {stride} lies inside the previous mode's reach {reach}: CuTe's quotient {stride}/{reach} is 0, an empty mode"
            ),
            Refusal::ComplementNegativeStride { stride } => {
                write!(
                    f,
                    "negative stride {stride}: CuTe's complement needs strides >= 0"
                )
            }
            Refusal::Cotarget { cotarget } => write!(f, "cotarget {cotarget} is below 1"),
            Refusal::TilerRank { rank, tiler } => {
                write!(f, "the tiler has {tiler} modes but the layout only {rank}")
            }
            Refusal::ZipRank { first, second } => {
                let kind = |f: &mut fmt::Formatter<'_>, r: usize| match r {
                    0 => f.write_str("an integer shape"),
                    r => write!(f, "a tuple of rank {r}"),
                };
                f.write_str("zipping the product's halves mode by mode needs two tuples of the same rank, but they are ")?;
                kind(f, first)?;
                f.write_str(" and ")?;
                kind(f, second)?;
                f.write_str(" (C++ CuTe does not compile it: `zip` static_asserts \"Mismatched Ranks\" or finds no rank)")
            }
        }
    }
}

impl fmt::Display for Admissibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Admissibility::ComplementStrideDivides { product, stride } => write!(
                f,
                "N_(i-1)·d_(i-1) | d_i fails: {product} does not divide {stride}"
            ),
            Admissibility::ComplementCotargetDivides { product, cotarget } => write!(
                f,
                "N_α·d_α | M fails: {product} does not divide the cotarget {cotarget}"
            ),
            Admissibility::CompositionPrefixDivides {
                a_mode,
                shape,
                stride,
            } => write!(
                f,
                "the prefix must divide the stride: A's mode {a_mode} (size {shape}) does not divide the remaining stride {stride}"
            ),
            Admissibility::CompositionLeftoverDivides {
                a_mode,
                leftover,
                shape,
            } => write!(
                f,
                "the leftover must divide the mode: {leftover} does not divide the size {shape} of A's mode {a_mode}"
            ),
            Admissibility::CompositionWeaklyDivisible {
                a_mode,
                remaining,
                shape,
            } => write!(
                f,
                "weak left divisibility fails: {remaining} positions remain at A's mode {a_mode} of size {shape}, which does not divide them"
            ),
            Admissibility::CompositionInBounds { reach, size } => {
                write!(f, "the mode reads A at index {reach}, past its size {size}")
            }
            Admissibility::CompositionDisjoint {
                other,
                other_end,
                start,
            } => write!(
                f,
                "intervals of B's modes overlap: {other} ends at {other_end}, past this mode's start {start}"
            ),
            Admissibility::DivideTileDivides { tile, size } => {
                write!(
                    f,
                    "k | n fails: the tile size {tile} does not divide {size}"
                )
            }
        }
    }
}

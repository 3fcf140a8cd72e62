//! The one error type of the crate, with the mode path and the numbers of every failure.

use core::fmt;

use crate::cute::{Admissibility, CuteOp, Postcondition, Refusal};
use crate::space::Space;

/// The most nesting levels a mode path records (and the deepest nesting a layout may have).
pub const MAX_DEPTH: usize = 8;

/// Where a mode sits in a shape tree: the index at each nesting level, outermost first,
/// counting from 0 in the layout's own (seed) order.
///
/// `[]` is the whole layout, `[1]` its second top-level mode, `[1, 0]` the first leaf inside it.
/// Displayed as `mode 1` or `mode (1,0)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ModePath {
    len: u8,
    idx: [u8; MAX_DEPTH],
}

impl ModePath {
    /// The path of the whole layout.
    pub const ROOT: ModePath = ModePath {
        len: 0,
        idx: [0; MAX_DEPTH],
    };

    /// Builds a path from indices, outermost first.
    ///
    /// # Errors
    /// [`Error::TooDeep`] for more than [`MAX_DEPTH`] levels, [`Error::TooWide`] for an index
    /// above 255.
    pub fn from_indices(indices: &[usize]) -> Result<ModePath, Error> {
        let mut p = ModePath::ROOT;
        for &i in indices {
            p = p.child(i)?;
        }
        Ok(p)
    }

    /// This path extended by one level.
    ///
    /// # Errors
    /// [`Error::TooDeep`] past [`MAX_DEPTH`] levels, [`Error::TooWide`] for an index above 255.
    pub fn child(self, i: usize) -> Result<ModePath, Error> {
        if self.len as usize >= MAX_DEPTH {
            return Err(Error::TooDeep { mode: self });
        }
        let Ok(i) = u8::try_from(i) else {
            return Err(Error::TooWide {
                mode: self,
                rank: i,
            });
        };
        let mut p = self;
        if let Some(slot) = p.idx.get_mut(usize::from(p.len)) {
            *slot = i;
        }
        // len < MAX_DEPTH was checked above.
        p.len = p.len.saturating_add(1);
        Ok(p)
    }

    /// The indices, outermost first.
    #[must_use]
    pub fn indices(&self) -> &[u8] {
        &self.idx[..self.len as usize]
    }

    /// Whether this is the path of the whole layout.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for ModePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.indices())
    }
}

impl fmt::Display for ModePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.indices() {
            [] => f.write_str("the layout"),
            [i] => write!(f, "mode {i}"),
            more => {
                f.write_str("mode (")?;
                for (k, i) in more.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{i}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// What the text parser expected where it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// An integer, `_` or `(`.
    Tree,
    /// `,` or `)`.
    CommaOrClose,
    /// The `:` between shape and stride.
    Colon,
    /// Nothing more: text after a complete layout.
    End,
    /// A size: a positive integer (a `_` broadcast is a stride, never a size).
    PositiveSize,
    /// A CuTe operation name (`composition`, `logical_divide`, …).
    CuteOp,
    /// A CuTe tiler: `_`, `<t0,t1,…>`, an integer or a layout.
    Tiler,
    /// `,` or `>` inside a by-mode tiler `<…>`.
    CommaOrAngle,
    /// A CuTe swizzle `Swizzle<B,M,S>` (or `Sw<B,M,S>`, `SW_B_M_S`, `B,M,S`).
    Swizzle,
    /// The `,` and the spaces after a declaration's layout.
    SpacesComma,
    /// `->` between the domain and the codomain.
    Arrow,
    /// A space: `logical`, `thread-value` (`tv`) or `physical`.
    Space,
    /// A declaration's option: `swizzle(..)`, `Swizzle<B,M,S>`, `index = T`, `wgmma ..` or
    /// `tma box`.
    DeclOption,
    /// `K-major` or `MN-major` after `wgmma`.
    Major,
    /// `box` after `tma`.
    TmaBox,
    /// An index type: `i32`, `i64`, `u32` or `usize`.
    IndexType,
    /// `=`.
    Equals,
    /// A swizzle field `b`, `src` or `dst`.
    SwizzleField,
    /// All three swizzle fields.
    SwizzleFields,
    /// An integer.
    Integer,
    /// An expression: a name, `[decl]` or an operation.
    Expression,
    /// The `,` before the next argument of an operation.
    Argument(crate::expr::Op),
    /// The `)` closing an operation.
    CloseCall(crate::expr::Op),
    /// `(`.
    OpenParen,
    /// `)`.
    CloseParen,
    /// `[`.
    OpenBracket,
    /// `]` after a declaration.
    CloseBracket,
    /// `}` closing a run-time leaf.
    CloseBrace,
    /// A `restrict` entry: a position or a mode name.
    Entry,
    /// A `restrict` value.
    Value,
    /// A tile entry.
    TileEntry,
    /// A shape: a size (an integer) or a tuple of sizes. (Not named `Size`: the typed
    /// layer's `Size<N>` must stay the one item of that name, so compiler messages print it
    /// short.)
    Shape,
    /// An element width in bits.
    ElementBits,
    /// An outer attribute `#[..]` of a `layout!` item.
    Attribute,
    /// A `layout!` item: `const NAME = LAYOUT, DOMAIN -> CODOMAIN;`.
    Item,
    /// The name of a `layout!` item.
    ItemName,
    /// The `;` that ends a `layout!` item.
    ItemEnd,
}

/// A command-line option whose value is read as text ([`Error::OptionValue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CliOption {
    /// `--name`: the emitted function's name, an identifier.
    Name,
    /// `--tile`: the rows and columns of a drawn tile.
    Tile,
    /// `--space`: `DOMAIN->CODOMAIN`.
    Space,
}

/// Why an operand of a layout operation is not a layout ([`Error::NotALayout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotLayoutReason {
    /// A restriction: a constant plus a map.
    Restricted,
    /// A swizzled map.
    Swizzled,
    /// A composite that Theorem 1 finds not separable.
    NotSeparable,
    /// A composite whose coordinate's scan rejects (Theorem 1).
    Scan {
        /// The coordinate (0-based).
        coordinate: usize,
        /// Where the scan rejected.
        t: i64,
    },
    /// A composite too large to decide.
    Undecided,
    /// A composite whose coarsest layout (Theorem 1) cuts a mode of its domain into several
    /// leaves, so that the layout's modes are not the map's.
    Refined,
}

/// Every failure of the crate: which rule, which mode, which numbers.
///
/// `Copy`, allocation-free, and displayed in lowercase as one sentence; [`Error::help`] gives the
/// suggested fix where one exists. The macro, the CLI and the tests all print errors through
/// these two, so the wording lives in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The text is not a layout: at byte `column` (0-based) the parser expected `expected`.
    Parse {
        /// Byte offset into the input.
        column: usize,
        /// What would have been accepted there.
        expected: Expected,
    },
    /// An integer in the text does not fit in `i64`.
    IntegerTooLarge {
        /// Byte offset of the integer.
        column: usize,
    },
    /// A `{expr}` run-time leaf in text given to the run-time parser (only the macro reads them).
    RuntimeLeaf {
        /// Byte offset of the `{`.
        column: usize,
    },
    /// A mode name below the top level (names label top-level modes only).
    NestedName {
        /// Byte offset of the name.
        column: usize,
    },
    /// Shape and stride do not have the same tree profile at `mode`.
    ProfileMismatch {
        /// The mode where they differ.
        mode: ModePath,
        /// Number of entries the shape has there (1 for an integer).
        shape_rank: usize,
        /// Number of entries the stride has there (1 for an integer).
        stride_rank: usize,
    },
    /// A size that is not a positive integer.
    NonPositiveSize {
        /// The offending mode.
        mode: ModePath,
        /// The size written.
        size: i64,
    },
    /// A literal stride 0 on a mode of size > 1 (spec: Broadcast stride; write `_` for a broadcast).
    ZeroStride {
        /// The offending mode.
        mode: ModePath,
        /// Its size.
        size: i64,
    },
    /// Checked arithmetic overflowed `i64` while computing `what` at `mode`.
    Overflow {
        /// The mode whose size or stride made the result overflow.
        mode: ModePath,
        /// Which quantity overflowed.
        what: Quantity,
    },
    /// Nesting deeper than [`MAX_DEPTH`] levels.
    TooDeep {
        /// The path at which the limit was hit.
        mode: ModePath,
    },
    /// More than 255 entries in one tuple.
    TooWide {
        /// The tuple.
        mode: ModePath,
        /// Its number of entries.
        rank: usize,
    },
    /// Not a dense bijection (Lemma 1; spec: Dense bijections): after sorting the modes of size > 1 by stride,
    /// `mode` should have stride `expected` (1 for the smallest, else the previous stride times
    /// the previous size) but has `found`.
    NotDense {
        /// The first mode, in sorted order, that breaks the running product.
        mode: ModePath,
        /// The stride that would continue the running product.
        expected: i64,
        /// The stride written.
        found: i64,
    },
    /// Not a dense bijection: `mode` is a broadcast `_` of size > 1, so several coordinates share
    /// one index.
    BroadcastNotDense {
        /// The broadcast mode.
        mode: ModePath,
        /// Its size.
        size: i64,
    },
    /// Not alias-free: flat indices `first` and `second` (not `~`-equivalent) share `offset`.
    /// `modes` names the two modes whose strides collide when the fast pair test found it.
    Aliasing {
        /// A flat index (last mode fastest).
        first: i64,
        /// Another flat index with the same offset.
        second: i64,
        /// The shared offset.
        offset: i64,
        /// The two colliding modes, when one pair of modes explains the collision.
        modes: Option<(ModePath, ModePath)>,
    },
    /// The exact alias-free test would need to enumerate more than its limit.
    AliasUndecided {
        /// Number of coordinates.
        size: i64,
        /// Width of the offset range.
        range: i64,
    },
    /// `cosize` is undefined: the smallest offset is negative because of `mode`'s stride.
    NegativeOffset {
        /// A mode with a negative stride.
        mode: ModePath,
        /// Its stride.
        stride: i64,
        /// The smallest offset.
        min: i64,
    },
    /// A flat index outside `[0, size)`.
    IndexOutOfRange {
        /// The index given.
        index: i64,
        /// The layout's size.
        size: i64,
    },
    /// A coordinate entry outside its mode's range.
    CoordOutOfRange {
        /// The mode.
        mode: ModePath,
        /// The value given.
        value: i64,
        /// The mode's size.
        size: i64,
    },
    /// A run-time leaf `{expr}` of `layout!` whose integer value does not fit `i64`.
    LeafOutOfRange {
        /// The leaf's position among the layout's leaves (0-based, seed order).
        leaf: usize,
        /// Whether it is the leaf's stride (else its size).
        stride: bool,
        /// Whether the value is negative.
        negative: bool,
        /// The value's magnitude.
        magnitude: u128,
    },
    /// A coordinate with more entries than the shape has at `mode`.
    CoordProfile {
        /// The mode.
        mode: ModePath,
        /// Entries the shape has there (1 for an integer).
        shape_rank: usize,
        /// Entries the coordinate has there.
        coord_rank: usize,
    },
    /// The annotation `domain -> codomain` is not one of the five constructible pairs (spec: Constructible annotations).
    ForbiddenSpaces {
        /// The domain written.
        domain: Space,
        /// The codomain written.
        codomain: Space,
    },
    /// The swizzle bit fields `[src, src+b)` and `[dst, dst+b)` overlap (spec: Swizzles).
    SwizzleOverlap {
        /// Number of bits.
        b: u32,
        /// Lowest source bit.
        src: u32,
        /// Lowest destination bit.
        dst: u32,
    },
    /// A swizzle bit field reaches past bit 62.
    SwizzleTooWide {
        /// Number of bits.
        b: u32,
        /// Lowest source bit.
        src: u32,
        /// Lowest destination bit.
        dst: u32,
    },
    /// CuTe `Swizzle<B,M,S>` with a negative `B` or `M`, or `B`, `M` or `|S|` above 62.
    SwizzleCuteShift {
        /// CuTe's `B`.
        b: i64,
        /// CuTe's `M`.
        m: i64,
        /// CuTe's `S`.
        s: i64,
    },
    /// CuTe `Swizzle<B,M,S>` over the byte addresses of `elem_bits`-bit elements with no exact
    /// form on element offsets: the width is not a power of two, or `M < log2(element bytes)`
    /// (the swizzle moves bytes inside an element).
    SwizzleUnit {
        /// CuTe's `B`.
        b: i64,
        /// CuTe's `M` (over bytes).
        m: i64,
        /// CuTe's `S`.
        s: i64,
        /// The element width in bits.
        elem_bits: u32,
    },
    /// `gmma::descriptor`: an element width other than 1, 2 or 4 bytes (`wgmma` reads 8-,
    /// 16- and 32-bit operands from shared memory).
    GmmaElementBytes {
        /// The width given, in bytes.
        bytes: i64,
    },
    /// `gmma::descriptor`: a map that is not logical -> physical.
    GmmaSpaces {
        /// The map's domain.
        domain: Space,
        /// The map's codomain.
        codomain: Space,
    },
    /// `gmma::descriptor`: a domain without the two entries `(K, MN)`.
    GmmaEntries {
        /// The number of top-level entries of the domain.
        entries: usize,
    },
    /// `gmma::descriptor`: the map has two swizzles on its path to the offsets.
    GmmaTwoSwizzles,
    /// `gmma::descriptor`: a swizzle that is not CuTe's `Swizzle<B,4,3>` over the bytes of
    /// the element width (`B` = 1, 2, 3), so no layout type expresses it. Fields of the element
    /// swizzle.
    GmmaSwizzle {
        /// Bits moved.
        b: u32,
        /// Lowest source bit (element offset).
        src: u32,
        /// Lowest destination bit (element offset).
        dst: u32,
        /// The element width in bits.
        elem_bits: u32,
    },
    /// `gmma::descriptor`: the buffer's address is not a multiple of the swizzle's repeat, so
    /// the swizzle of shared-memory addresses would not be the map's (a base offset would be
    /// needed).
    GmmaBaseOffset {
        /// The buffer's shared-memory address (bytes).
        start: u32,
        /// The swizzle's repeat (bytes).
        repeat: u32,
    },
    /// `gmma::descriptor`: the tile's K does not span 32 bytes, the K of one dense `wgmma`.
    GmmaKExtent {
        /// K in elements.
        elements: i64,
        /// K in bytes.
        bytes: i64,
    },
    /// `gmma::descriptor`: MN is not a multiple of the rows of one core matrix (K-major: 8)
    /// or of one swizzled row's elements (MN-major).
    GmmaMnExtent {
        /// The contiguous mode.
        major: crate::gmma::Major,
        /// The swizzle.
        swizzle: crate::gmma::SwizzleMode,
        /// MN in elements.
        extent: i64,
        /// The multiple it must be.
        multiple: i64,
    },
    /// `gmma::descriptor`: the unswizzled offsets are not a layout of `(K, MN)`.
    GmmaNotLayout,
    /// `gmma::descriptor`: the 16 bytes of one core-matrix row are not contiguous along the
    /// major mode.
    GmmaCoreMatrix {
        /// The contiguous mode asked for.
        major: crate::gmma::Major,
    },
    /// `gmma::descriptor`: under a swizzle, the 16-byte chunks of one swizzled row are not
    /// adjacent (K-major: the two chunks of K; MN-major: the row's chunks along MN).
    GmmaSwizzleRow {
        /// The contiguous mode.
        major: crate::gmma::Major,
        /// The swizzle.
        swizzle: crate::gmma::SwizzleMode,
        /// The stride between the chunks in bytes, when they have one.
        found: Option<i64>,
    },
    /// `gmma::descriptor`: the 8 rows of a core matrix are not one swizzled row (16 bytes
    /// unswizzled, 32, 64, 128 bytes swizzled) apart: the layout and the swizzle disagree on
    /// the row width.
    GmmaRowPitch {
        /// The contiguous mode.
        major: crate::gmma::Major,
        /// The swizzle.
        swizzle: crate::gmma::SwizzleMode,
        /// The pitch the swizzle needs, in bytes.
        expected: i64,
        /// The pitch found, when the 8 rows are equally spaced.
        found: Option<i64>,
    },
    /// `gmma::descriptor`: the groups of core matrices along one direction have no single
    /// stride, so no byte offset describes them.
    GmmaStride {
        /// The field that would hold the stride.
        field: crate::gmma::ByteOffset,
    },
    /// A descriptor's leading or stride byte offset is not a multiple of 16 bytes.
    GmmaByteOffsetAlignment {
        /// The field.
        field: crate::gmma::ByteOffset,
        /// The offset in bytes.
        bytes: i64,
    },
    /// A descriptor's leading or stride byte offset is negative or past its 14-bit field of
    /// 16-byte units (at most 262128 bytes).
    GmmaByteOffsetRange {
        /// The field.
        field: crate::gmma::ByteOffset,
        /// The offset in bytes.
        bytes: i64,
    },
    /// A descriptor's start address is not a multiple of 16 bytes.
    GmmaStartAlignment {
        /// The address in bytes.
        address: i64,
    },
    /// A descriptor's start address is negative or past its 14-bit field of 16-byte units.
    GmmaStartRange {
        /// The address in bytes.
        address: i64,
    },
    /// A descriptor's base offset past its 3-bit field.
    GmmaBaseOffsetRange {
        /// The base offset.
        base_offset: u8,
    },
    /// A swizzle on a map whose codomain is not physical (a swizzle runs physical -> physical).
    SwizzleNotPhysical {
        /// The codomain of the map.
        codomain: Space,
    },
    /// The right operand of a composition maps into `codomain`, not logical (spec: Composition).
    RightNotLogical {
        /// Its codomain.
        codomain: Space,
    },
    /// The right operand of a composition is swizzled (a swizzle is always the last step).
    RightSwizzled,
    /// The left operand of a composition has domain `domain`, not logical (spec: Composition).
    LeftDomainNotLogical {
        /// Its domain.
        domain: Space,
    },
    /// The operands of a composition have different sizes (spec: Composition).
    SizeMismatch {
        /// Size of the left operand's domain.
        left: i64,
        /// Size of the right operand.
        right: i64,
    },
    /// The operands of a composition carry different logical tile shapes (spec: Logical tile shapes).
    TileMismatch {
        /// Rank of the left operand's tile.
        left_rank: usize,
        /// Rank of the right operand's tile.
        right_rank: usize,
        /// First differing position (in the shorter rank when the ranks differ).
        position: usize,
        /// Extent of the left tile there (0 past its end).
        left: i64,
        /// Extent of the right tile there (0 past its end).
        right: i64,
    },
    /// A logical tile shape whose product is not the size of the logical side.
    TileSize {
        /// Product of the tile shape.
        tile: i64,
        /// Size of the logical side.
        size: i64,
    },
    /// A tile shape on a side that is not logical.
    TileNotLogical {
        /// The space that carries it.
        space: Space,
    },
    /// An offset range that does not fit the chosen index type.
    IndexTypeRange {
        /// Smallest offset.
        min: i64,
        /// Largest offset.
        max: i64,
        /// Smallest value of the index type.
        type_min: i64,
        /// Largest value of the index type.
        type_max: i64,
    },
    /// `restrict` on a map whose codomain is not physical (spec: Restriction; a slice is not dense).
    RestrictNotPhysical {
        /// The map's codomain.
        codomain: Space,
    },
    /// `restrict` names a top-level entry the domain does not have.
    RestrictEntry {
        /// The entry (0-based, among the entries still free).
        entry: usize,
        /// Number of free entries.
        rank: usize,
    },
    /// `restrict` by a mode name that no top-level entry of the domain carries.
    UnknownModeName,
    /// A tile extent that is not a positive integer.
    TileExtent {
        /// Its position in the tile shape (0-based, seed order).
        position: usize,
        /// The extent written.
        extent: i64,
    },
    /// A swizzle field that is negative (bit counts and positions are at least 0).
    SwizzleNegativeField {
        /// Number of bits written.
        b: i64,
        /// Source bit written.
        src: i64,
        /// Destination bit written.
        dst: i64,
    },
    /// A swizzle after a map whose offsets go below 0 (a swizzle acts on the bits of
    /// non-negative offsets).
    SwizzleNegativeOffset {
        /// The smallest offset of the map.
        min: i64,
    },
    /// A program ([`crate::Program`]) evaluated at a number of coordinates other than its own.
    ProgramArity {
        /// The program's number of coordinates.
        expected: usize,
        /// The number given.
        found: usize,
    },
    /// A program that reads a variable not defined where it is read: a coordinate past its
    /// coordinates, or a temporary not defined before (`t_i` reads `t_j` only for `j < i`; the
    /// result reads every temporary).
    ProgramUndefined {
        /// The variable read.
        variable: crate::emit::Var,
        /// How many variables of its kind are defined there.
        defined: usize,
    },
    /// A program term that divides by, or takes the modulus of, a number below 1, or shifts
    /// past bit 62.
    ProgramTerm {
        /// The divisor, modulus or shift.
        value: i64,
    },
    /// The decision procedure would tabulate more coordinates than its limit.
    DecideTooLarge {
        /// Number of coordinates of the domain.
        size: i64,
        /// The limit.
        limit: i64,
    },
    /// The exact offset range of a swizzled or restricted map needs a search past its limit
    /// ([`crate::RANGE_SEARCH_LIMIT`] steps of the branch-and-bound over a swizzle, or
    /// [`crate::DECIDE_LIMIT`] values of a restricted composite that is not a layout).
    RangeUndecided {
        /// Number of coordinates of the map's domain.
        size: i64,
        /// The limit that was reached.
        limit: i64,
    },
    /// `scale_mode` needs a layout of one mode `n:d`, but this one has `leaves` leaves.
    NotOneMode {
        /// Number of leaves of the layout given.
        leaves: usize,
    },
    /// `scale_mode`: the shape's size is not the size of the mode it refines.
    ScaleSize {
        /// Size `n` of the mode.
        size: i64,
        /// Size of the shape given.
        shape_size: i64,
    },
    /// `divide`: the tile does not have one entry per top-level mode.
    TileRank {
        /// Number of top-level modes of the layout.
        rank: usize,
        /// Number of tile entries.
        tile: usize,
    },
    /// `divide`: the tile entry is not a positive divisor of its mode's size (`k | n`).
    NotDivisible {
        /// The top-level mode.
        mode: ModePath,
        /// Its size `n`.
        size: i64,
        /// The tile entry `k`.
        tile: i64,
    },
    /// `divide`: a tile entry cannot cut a nested mode along its leaves: walking from the fastest
    /// leaf, `needed` positions remain when the leaf at `mode` (of size `size`) is reached, and
    /// neither of the two divides the other.
    TileSplit {
        /// The leaf that would be cut unevenly.
        mode: ModePath,
        /// The tile entry `k` of its top-level mode.
        tile: i64,
        /// What remains of `k` after the faster leaves.
        needed: i64,
        /// The leaf's size.
        size: i64,
    },
    /// `repeat_modewise` or `repeat_modewise_raked`: the arrangement does not have one top-level
    /// mode per mode of the layout.
    ArrangementRank {
        /// The operation.
        op: crate::expr::Op,
        /// Number of top-level modes of the layout.
        rank: usize,
        /// Number of top-level modes of the arrangement.
        arrangement: usize,
    },
    /// A top-level mode index past the layout's rank (`select`, `permute`).
    ModeIndex {
        /// The index given (0-based).
        index: usize,
        /// Number of top-level modes.
        rank: usize,
    },
    /// Two top-level modes of one layout carry the same name (a name must pick one mode).
    DuplicateName {
        /// The first mode with the name.
        first: usize,
        /// The later mode with the same name.
        second: usize,
    },
    /// A top-level mode listed twice (`select`, `permute`).
    RepeatedMode {
        /// The index listed twice.
        index: usize,
    },
    /// `permute`: the permutation does not have one entry per top-level mode.
    PermutationRank {
        /// Number of top-level modes.
        rank: usize,
        /// Number of entries of the permutation.
        len: usize,
    },
    /// `group`: `[start, end)` is not a non-empty range of top-level modes.
    GroupRange {
        /// First mode of the group.
        start: usize,
        /// One past the last mode of the group.
        end: usize,
        /// Number of top-level modes.
        rank: usize,
    },
    /// `select` of no mode.
    EmptySelection,
    /// A result of CuTe's own formula for `op` violates one of CuTe's unit-test postconditions
    /// (spec: Strict mode; spec: Postconditions): CuTe would return it silently; we return this instead. `mode` is
    /// the tiler mode (CuTe order) where it happened, `within` the operation that was called.
    CutePostcondition {
        /// The CuTe operation whose result failed (e.g. the complement inside a divide).
        op: CuteOp,
        /// The operation called.
        within: CuteOp,
        /// The mode of the by-mode tiler, CuTe order (`[]` for a whole-layout tiler).
        mode: ModePath,
        /// Which postcondition, with its numbers.
        failed: Postcondition,
    },
    /// CuTe refuses these operands (pycute raises or C++ CuTe `static_assert`s).
    CuteRefused {
        /// The CuTe operation that refuses.
        op: CuteOp,
        /// The operation called.
        within: CuteOp,
        /// The mode (CuTe order) of the tiler or of the layout it concerns.
        mode: ModePath,
        /// Why, with the numbers.
        reason: Refusal,
    },
    /// Strict mode: an admissibility condition (spec: Strict mode) fails (checked before computing).
    CuteStrict {
        /// The CuTe operation whose condition fails.
        op: CuteOp,
        /// The operation called.
        within: CuteOp,
        /// The mode (CuTe order) the condition is about.
        mode: ModePath,
        /// Which condition, with its numbers.
        failed: Admissibility,
    },
    /// Checking a CuTe result would evaluate more coordinates than the limit, so no result is
    /// returned unchecked.
    CuteCheckLimit {
        /// The operation.
        op: CuteOp,
        /// Coordinates the check needs.
        size: i64,
        /// The limit.
        limit: i64,
    },
    /// The text interface got the wrong number of arguments for `op`.
    CuteArguments {
        /// The operation.
        op: CuteOp,
        /// The fewest arguments it takes.
        expected: usize,
        /// The most arguments it takes.
        most: usize,
        /// The number given.
        found: usize,
    },
    /// The text interface got an operation name that is not a CuTe operation.
    UnknownCuteOperation {
        /// The operation whose name is closest to the one given, when one is close.
        closest: Option<CuteOp>,
    },
    /// A command-line option's value that cannot be read.
    OptionValue {
        /// The option.
        option: CliOption,
    },
    /// `layout_macros::layout_impl` called without the crate path that `layout_typed::layout!`
    /// passes before its input.
    MacroPath,
    /// `layout!` with nothing inside.
    EmptyMacro,
    /// The command could not write a file it was asked to write (`--output`); the operating
    /// system's reason is the command's to print.
    OutputWrite,
    /// The text of an expression or declaration is not in the grammar: `expected` was
    /// expected at the error's location (a [`crate::expr::Located`] span).
    Syntax {
        /// What would have been accepted there.
        expected: Expected,
    },
    /// An integer with a type suffix (`5i32`).
    IntegerSuffix,
    /// C++ CuTe's static integer `_N` in a layout not written in CuTe order.
    StaticInteger {
        /// The integer `N`.
        value: i64,
    },
    /// A declaration with two swizzles, or a swizzle of a swizzled map.
    SecondSwizzle,
    /// A declaration with two `index = ..` options.
    SecondIndexType,
    /// A declaration with the same operand clause (`wgmma ..`, `tma box`) twice.
    SecondOperandClause {
        /// The clause given twice.
        operand: crate::expr::Operand,
    },
    /// A `tma box` clause on a map that is not a shared-memory tile (`logical -> physical`).
    TmaSpaces {
        /// The map's domain.
        domain: Space,
        /// The map's codomain.
        codomain: Space,
    },
    /// An operand clause whose element width is neither written (`of N-bit elements`) nor
    /// given by the declaration's swizzle (`over bytes of N-bit elements`).
    OperandElementMissing {
        /// The clause.
        operand: crate::expr::Operand,
    },
    /// An operand clause's element width that is not a whole number of bytes.
    OperandElementBits {
        /// The clause.
        operand: crate::expr::Operand,
        /// The width, in bits.
        bits: u32,
    },
    /// An operand clause's element width that differs from the swizzle's.
    OperandElementConflict {
        /// The clause.
        operand: crate::expr::Operand,
        /// The width written after `of`, in bits.
        written: u32,
        /// The width of the swizzle's `over bytes of N-bit elements`, in bits.
        swizzle: u32,
    },
    /// A swizzle field given twice.
    SwizzleFieldTwice,
    /// CuTe's `Swizzle<B,M,S>` without its unit (`over elements`, `over bytes of N-bit
    /// elements`).
    SwizzleUnitMissing {
        /// CuTe's `B`.
        b: i64,
        /// CuTe's `M`.
        m: i64,
        /// CuTe's `S`.
        s: i64,
    },
    /// A name followed by `(` that is not an operation.
    UnknownOperation,
    /// A named operand the environment does not define.
    UnknownOperand,
    /// Operations nested deeper than [`crate::expr::MAX_EXPR_DEPTH`] levels.
    ExprTooDeep,
    /// A layout of an expression with run-time leaves `{ .. }` where only static ones are read
    /// (an arrangement of `repeat`/`interleave`; any operand outside `layout!`).
    RuntimeOperand,
    /// A run-time value where only integers are read (run-time values exist only in
    /// `layout!`).
    RuntimeValue,
    /// An operation after a `restrict` by a run-time value (that restriction is the last step;
    /// only a swizzle may follow it).
    RuntimeNotLast {
        /// The operation.
        op: crate::expr::Op,
    },
    /// Two entries of one map fixed by run-time values.
    RuntimeRestrictTwice,
    /// A swizzle on a layout with run-time leaves.
    RuntimeSwizzle,
    /// A tile shape on a layout with run-time leaves.
    RuntimeTile,
    /// An operand of a layout operation that is not a layout.
    NotALayout {
        /// The operation.
        op: crate::expr::Op,
        /// What the operand is instead.
        why: NotLayoutReason,
    },
    /// `broadcast` of a map whose codomain is not physical (copies at the same addresses are a
    /// read-only map into physical).
    BroadcastNotPhysical {
        /// The map's codomain.
        codomain: Space,
    },
    /// `inverse` of a map into physical space (only a dense bijection into logical or
    /// thread-value space has an inverse).
    InverseOfPhysical {
        /// The map's domain.
        domain: Space,
    },
    /// `divide` of a layout whose domain tile is not its top-level sizes: the result's tile
    /// shape is unknown.
    DivideTileUnknown,
    /// `select` or `permute` of a map whose domain tile shape is not its top-level sizes: the
    /// result's tile shape is unknown.
    RegroupTileUnknown {
        /// The operation.
        op: crate::expr::Op,
    },
    /// A tile shape with no extent or more than [`crate::expr::MAX_TILE_EXTENTS`].
    TileExtents {
        /// Its number of extents.
        count: usize,
    },
    /// A picture of more cells than the `layout draw` command draws.
    PictureTooLarge {
        /// The cells the picture would have.
        cells: i64,
        /// The most it draws.
        limit: i64,
    },
    /// `layout eval` of more positions than it lists.
    ListTooLarge {
        /// The layout's size.
        size: i64,
        /// The most it lists.
        limit: i64,
    },
    /// `layout draw` of a thread-value layout without a 2-D logical tile.
    DrawNoTile,
    /// `layout draw` over a tile that is neither 1-D nor 2-D.
    DrawTileExtents {
        /// Its number of extents.
        extents: usize,
    },
    /// `layout draw` over a `rows × cols` tile that is not the layout's size.
    DrawTileSize {
        /// Rows.
        rows: i64,
        /// Columns.
        cols: i64,
        /// The layout's size.
        size: i64,
    },
    /// `layout draw` of a thread-value map over its tile that is not a layout.
    DrawNotLayout,
    /// `layout draw` of a domain with more than two top-level modes.
    DrawRank {
        /// Its number of top-level modes.
        rank: usize,
    },
    /// An operation whose result's tile shape would have more than
    /// [`crate::expr::MAX_TILE_EXTENTS`] extents.
    ResultTileExtents {
        /// The operation.
        op: crate::expr::Op,
        /// The result's number of extents.
        count: usize,
    },
    /// A layout or map with more leaf modes than the typed API takes
    /// ([`crate::expr::MAX_TYPED_LEAVES`]: it evaluates through fixed coordinate arrays).
    TypedLeaves {
        /// Its number of leaf modes.
        leaves: usize,
    },
    /// A tuple with more entries than the typed API takes ([`crate::expr::MAX_TYPED_RANK`]:
    /// it implements forms for tuples of 2 to that many entries).
    TypedRank {
        /// The tuple's number of entries.
        rank: usize,
    },
    /// A `layout!` item (a constant) with run-time leaves `{ .. }`, or defined by an expression
    /// with a `restrict` by a run-time value: only a value can hold them.
    RuntimeConstant,
    /// The value of an algebra expression with run-time leaves, built at run time, has another
    /// domain nesting than `layout!` derived while compiling (its type's coordinates): the
    /// nesting depends on the run-time values (an `inverse` of run-time strides, a `divide`
    /// whose tile ends inside a run-time leaf).
    RuntimeProfile {
        /// The number of domain leaves of the type.
        expected: usize,
        /// The number of domain leaves of the value.
        found: usize,
    },
    /// `coalesce` of a map with run-time leaves: which leaves merge depends on their run-time
    /// sizes and strides, so the result's nesting (its type's coordinates) is not known while
    /// compiling.
    RuntimeCoalesce,
    /// `compose` whose operand's size depends on run-time leaves while the other's is static
    /// (the right operand enumerates the left operand's positions: their sizes are equal).
    RuntimeComposeSize {
        /// Whether it is the left operand's size (else the right operand's).
        left: bool,
    },
    /// The run-time value of a `restrict` by a value (`restrict(L, thread = t)`) outside its
    /// entry `[0, size)`: the panic of the value `layout!` builds, like a slice index's.
    RuntimeValueOutOfRange {
        /// Whether the value is negative.
        negative: bool,
        /// The value's magnitude.
        magnitude: u128,
        /// The size of the entry.
        size: i64,
    },
    /// The arrangement of `repeat`/`interleave` is not a dense bijection (Lemma 1): it numbers
    /// the copies, so its strides, sorted, are the running products of its sizes. As
    /// [`Error::NotDense`].
    ArrangementNotDense {
        /// The operation.
        op: crate::expr::Op,
        /// The first mode, in sorted order, that breaks the running product.
        mode: ModePath,
        /// The stride that would continue the running product.
        expected: i64,
        /// The stride written.
        found: i64,
    },
    /// The arrangement of `repeat`/`interleave` broadcasts (a mode `_` of size > 1). As
    /// [`Error::BroadcastNotDense`].
    ArrangementBroadcast {
        /// The operation.
        op: crate::expr::Op,
        /// The broadcast mode.
        mode: ModePath,
        /// Its size.
        size: i64,
    },
    /// Bank conflicts ([`crate::banks::conflicts`]) of a storage map that does not map logical
    /// positions to physical offsets.
    BankStorage {
        /// Its domain.
        domain: Space,
        /// Its codomain.
        codomain: Space,
    },
    /// Bank conflicts of elements of a width other than 8, 16, 32, 64 or 128 bits.
    ElementBits {
        /// The width given, in bits.
        bits: u32,
    },
    /// Bank conflicts of a vector of `vector` elements of `bits` bits, which is not a
    /// shared-memory access (1, 2, 4, 8 or 16 bytes per lane) or does not divide the value mode.
    AccessVector {
        /// Elements per access.
        vector: i64,
        /// Element width in bits.
        bits: u32,
        /// Number of values per thread.
        values: i64,
    },
    /// Bank conflicts of a thread-value layout that has no top-level mode `thread_mode`, or more
    /// than two top-level modes.
    ThreadMode {
        /// The mode asked for (seed order, from 0).
        thread_mode: usize,
        /// The layout's number of top-level modes.
        rank: usize,
    },
    /// Bank conflicts of a warp whose first thread, `32·warp`, is not in the thread mode.
    NoSuchWarp {
        /// The warp asked for.
        warp: i64,
        /// Threads in the thread mode.
        threads: i64,
    },
    /// Bank conflicts of a lane that reads a logical position outside the storage map's domain.
    LaneOutOfTile {
        /// The thread.
        thread: i64,
        /// The value.
        value: i64,
        /// The logical index it reads.
        index: i64,
        /// The size of the storage map's domain.
        size: i64,
    },
    /// Bank conflicts of more than [`crate::banks::MAX_INSTRUCTIONS`] instructions per warp:
    /// the value mode is too long to walk.
    TooManyInstructions {
        /// Values per thread divided by the vector.
        instructions: i64,
    },
    /// `residue::ceil_divide`: a tile entry that does not divide its mode's size cuts a leaf
    /// that is not the mode's slowest (walking from the fastest leaf, `needed` positions remain
    /// at the leaf of size `size`, and neither divides the other): the padded tile would not be
    /// a strided map of the mode.
    ResidueSplit {
        /// The leaf that would be cut.
        mode: ModePath,
        /// The tile entry `k` of its top-level mode.
        tile: i64,
        /// What remains of `k` after the faster leaves.
        needed: i64,
        /// The leaf's size.
        size: i64,
    },
    /// `residue::check_padded`: a padded tiled layout reaches, at a position where the
    /// predicate holds, another offset than the tensor at that global coordinate.
    ResidueOffset {
        /// The leaf of the padded layout (seed order: `(tile, rest)` groups, then the mode)
        /// whose stride differs.
        mode: ModePath,
        /// The top-level mode of the tensor.
        tensor_mode: usize,
        /// The global coordinate along that mode of the access (the others 0).
        coord: i64,
        /// The padded layout's offset there.
        offset: i64,
        /// The tensor's offset there.
        expected: i64,
    },
    /// `residue::check_padded`: the padded layout does not have the shape of the ceil-divide's
    /// `(tile, rest)` layout at `mode`.
    ResidueShape {
        /// The first mode whose shape differs.
        mode: ModePath,
    },
    /// `residue::Partition`: the thread-value layout's domain is not `(value, thread)`.
    PartitionRank {
        /// Its number of top-level modes.
        rank: usize,
    },
    /// `residue::Partition`: the thread-value layout's logical image is not the tile's
    /// positions `[0, tile)`.
    PartitionTile {
        /// The largest logical index it reaches, plus one.
        reach: i64,
        /// The number of positions of the tile.
        tile: i64,
    },
    /// Bank conflicts of a lane whose vector is not contiguous and aligned in memory, so it is
    /// not one access.
    NotVector {
        /// The thread.
        thread: i64,
        /// The first value of the vector.
        value: i64,
        /// The offset (elements) of that value.
        offset: i64,
    },
    /// An MMA atom's operand layout that is not a `(value, thread)` thread-value layout of the
    /// atom's tile: not two top-level entries, a size other than the tile's, or a thread entry
    /// of another size than the atom's other operands' ([`crate::mma::MmaAtom::new`]).
    MmaAtomOperand {
        /// The operand.
        operand: crate::mma::Operand,
        /// Top-level entries of its domain (2 expected).
        rank: usize,
        /// Its size.
        size: i64,
        /// The size its tile has (`M·K`, `N·K` or `M·N`).
        tile: i64,
        /// Its thread entry's size.
        threads: i64,
        /// The threads of operand C (the atom's thread count).
        expected_threads: i64,
    },
    /// A tiled MMA's extent along one of M, N, K that is not a positive multiple of what one
    /// step covers there (the atom's extent times the warps, or the permutation tile).
    MmaTile {
        /// The mode: 0 for M, 1 for N, 2 for K.
        dim: u8,
        /// The extent asked for.
        extent: i64,
        /// The step it must be a multiple of.
        step: i64,
    },
    /// A tiled MMA with more than one warp along K (a split-K arrangement reduces across
    /// warps, which is not a partition of C).
    MmaWarpsK {
        /// Warps along K.
        warps: i64,
    },
    /// A leaf of a thread-value layout whose positions in a tile do not form one stride after
    /// the tile is placed in a larger one: its stride is not a multiple of the column it starts
    /// in, or its steps wrap that column unevenly.
    EmbedStride {
        /// The leaf's stride in the smaller tile's index.
        stride: i64,
        /// The leaf's size.
        size: i64,
        /// The extent of the tile's mode the leaf steps along (0 past the tile).
        extent: i64,
    },
    /// A tiled copy whose thread-value map, a composite of the atom's and the tiled MMA's
    /// layouts, is not a layout (Theorem 1), or whose destination does not keep each value in
    /// the thread that the MMA gives it.
    TiledCopyNotLayout,
    /// A copy into an MMA operand that the atom reads whole, from shared memory, for every
    /// thread (GMMA `_SS`: [`crate::mma::MmaAtom::is_broadcast`]): no thread holds a part of it,
    /// so there is no per-thread copy to tile ([`crate::mma::TiledMma::copy_a`]).
    MmaOperandBroadcast {
        /// The operand.
        operand: crate::mma::Operand,
    },
    /// A storage map that a broadcast cannot repeat: a restriction of a composite, or a
    /// composite holding a restriction (a layout, a swizzled map, a composite and a restriction
    /// of a layout or of a swizzled layout can be repeated).
    BroadcastRestriction,
    /// A thread's partition whose fastest leaves do not make CuTe's first fragment mode
    /// (`crate::mma::fragment_like`): a leaf would be split unevenly, or there are too few values.
    FragmentSplit {
        /// The first mode's size (the atom's values per thread).
        values: i64,
        /// The partition's size.
        size: i64,
    },
    /// A leaf of a swizzled storage's partition (size > 1) whose size or stride is not a
    /// positive power of two: its bits under the swizzle's fields are not defined
    /// (`crate::mma::fragment_like`).
    FragmentSwizzleLeaf {
        /// The leaf's size.
        size: i64,
        /// The leaf's stride.
        stride: i64,
    },
    /// Two leaves of size > 1 of a thread's partition with the same stride: CuTe's ordered
    /// fragment gives them the same registers (`crate::mma::fragment_like`).
    FragmentStrideTie {
        /// The shared stride.
        stride: i64,
    },
    /// A copy atom whose source and destination are not `(value, thread)` layouts of the same
    /// threads (0: not two top-level entries).
    CopyAtomThreads {
        /// Threads of the source.
        src: i64,
        /// Threads of the destination.
        dst: i64,
    },
    /// A copy atom that does not fit the operand it feeds: its value count does not divide the
    /// operand's values per thread, or its thread count the tiled MMA's.
    CopyAtomFit {
        /// The copy atom's values per thread (elements).
        atom_values: i64,
        /// The operand's values per thread in one permutation tile.
        values: i64,
        /// The copy atom's threads.
        atom_threads: i64,
        /// The tiled MMA's threads.
        threads: i64,
    },
    /// A tiled copy's vector width that is not a positive divisor of what it divides: the
    /// values per thread (the atom's width, [`crate::copy::TiledCopy::new`]) or the atom's
    /// width (a width checked by [`crate::copy::TiledCopy::check_vector_width`]).
    CopyVector {
        /// The width, in elements.
        vector: i64,
        /// What it must divide.
        values: i64,
    },
    /// A tiled copy's vector whose first offset, plus the storage's base, is not a multiple of
    /// the vector width: the access is misaligned.
    CopyVectorAligned {
        /// The storage.
        side: crate::copy::CopySide,
        /// The thread.
        thread: i64,
        /// The vector's first value (flat index of the thread's partition).
        value: i64,
        /// Its offset in the storage, in elements (without the base).
        offset: i64,
        /// The storage's base offset.
        base: i64,
        /// The vector width, in elements.
        width: i64,
    },
    /// A tiled copy's vector whose values are not at consecutive offsets.
    CopyVectorContiguous {
        /// The storage.
        side: crate::copy::CopySide,
        /// The thread.
        thread: i64,
        /// The value that breaks the run (flat index of the thread's partition).
        value: i64,
        /// Its offset, in elements.
        offset: i64,
        /// The offset that would continue the vector.
        expected: i64,
    },
    /// [`crate::copy::max_common_vector`] of two maps over different numbers of logical
    /// positions.
    CommonVectorSize {
        /// Size of the first map's domain.
        a: i64,
        /// Size of the second.
        b: i64,
    },
    /// [`crate::copy::max_common_vector`] of a second map that is neither a layout nor a
    /// swizzled layout, with more positions than it enumerates.
    CommonVectorTooLarge {
        /// Number of positions.
        size: i64,
        /// The limit, [`crate::copy::COMMON_VECTOR_LIMIT`].
        limit: i64,
    },
    /// A name given to [`crate::cuda`] that is not a C identifier (letters, digits and `_`, not
    /// starting with a digit), that is one of the temporaries `t0`, `t1`, … of the emitted
    /// code, or a coordinate name given twice or equal to the function's name.
    CudaName {
        /// Which: `None` the function's name, `Some(i)` coordinate `i`'s.
        position: Option<usize>,
    },
    /// [`crate::cuda`] given another number of coordinate names than the function has
    /// coordinates (top-level entries of its map).
    CudaNames {
        /// The function's coordinates.
        expected: usize,
        /// The names given.
        found: usize,
    },
    /// [`crate::cuda::per_thread`] of a map whose domain has fewer than two top-level entries:
    /// the thread (entry 0) and what each thread holds.
    PerThreadEntries {
        /// The domain's top-level entries.
        entries: usize,
    },
    /// A proof of [`crate::cuda`] that enumerates positions (or threads) past
    /// [`crate::cuda::ENUMERATION_LIMIT`].
    CudaTooLarge {
        /// Positions (or threads) it would enumerate.
        size: i64,
        /// The limit.
        limit: i64,
    },
    /// [`crate::cuda::check_vector`] with a width that is not a positive divisor of the size
    /// of the map's last top-level entry.
    VectorWidth {
        /// The width, in elements.
        width: i64,
        /// The size of the last entry.
        size: i64,
    },
    /// [`crate::cuda::check_vector`]: a vector whose first offset is not a multiple of its
    /// width, so one access would be misaligned.
    VectorAligned {
        /// The flat index of the vector's first position.
        index: i64,
        /// Its offset, in elements.
        offset: i64,
        /// The width, in elements.
        width: i64,
    },
    /// [`crate::cuda::split`]: at a position of the map, the parts do not combine to its
    /// offset (`(thread ^ xor) + add`): the swizzle mixes an entry given as additive, or the
    /// thread's bits with an entry's in a way XOR does not undo.
    SplitMismatch {
        /// The flat index of the position.
        index: i64,
        /// The map's offset there.
        offset: i64,
        /// What the parts give.
        parts: i64,
    },
    /// [`crate::tma::tensor_map`] for an element size other than 1, 2, 4 or 8 bytes.
    TmaElement {
        /// The element's size, in bytes.
        bytes: i64,
    },
    /// [`crate::tma::tensor_map`]: a rank outside 1..=5, a global mode that is not one leaf, or
    /// a shared-memory tile whose top-level entries are not the global tensor's modes.
    TmaRank {
        /// The rank found.
        rank: usize,
    },
    /// [`crate::tma::tensor_map`] of a global tensor with no mode of stride 1 (a tensor map's
    /// innermost dimension is contiguous).
    TmaInnerStride,
    /// [`crate::tma::tensor_map`]: a global stride whose bytes are not a positive multiple of
    /// 16 below 2^40.
    TmaStride {
        /// The seed-order mode.
        mode: usize,
        /// Its stride, in elements.
        stride: i64,
    },
    /// [`crate::tma::tensor_map`]: a box extent outside 1..=256, or an innermost box extent
    /// whose bytes are not a multiple of 16.
    TmaBox {
        /// The dimension (innermost first).
        dim: usize,
        /// The box's extent there.
        size: i64,
    },
    /// [`crate::tma::tensor_map`]: no tensor-map swizzle writes the box as the shared-memory
    /// layout lays it out.
    TmaNotBox {
        /// The first flat index of the tile where the unswizzled image differs.
        index: i64,
        /// The layout's offset there, in elements.
        offset: i64,
        /// The image's offset there.
        expected: i64,
    },
    /// [`crate::tma::tensor_map`]: the box's innermost dimension spans more bytes than its
    /// swizzle's span.
    TmaSwizzleSpan {
        /// The innermost dimension's bytes.
        bytes: i64,
        /// The swizzle's span, in bytes.
        span: i64,
    },
    /// [`crate::cuda::check_vector`]: a position of a vector whose offset breaks the rule
    /// `along` (not the first offset plus its place in the vector, or not the first offset).
    VectorAlong {
        /// The rule.
        along: crate::cuda::Along,
        /// The flat index of the position.
        index: i64,
        /// Its offset, in elements.
        offset: i64,
        /// The offset the rule asks for.
        expected: i64,
    },
}

/// Which quantity overflowed in [`Error::Overflow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// The product of the sizes (the number of positions).
    Positions,
    /// The largest or smallest offset.
    Offset,
    /// A stride of the running product of Lemma 1.
    Stride,
    /// A coordinate's flat index.
    Index,
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Quantity::Positions => "the size (product of the sizes)",
            Quantity::Offset => "the offset range",
            Quantity::Stride => "the running product of sizes",
            Quantity::Index => "the flat index",
        })
    }
}

/// What an operation takes after its first argument.
fn op_arguments(op: crate::expr::Op) -> &'static str {
    use crate::expr::Op;
    match op {
        Op::Compose => "two maps",
        Op::Divide | Op::DivideModes => "a layout and a tile",
        Op::Restrict => "a map and the entries to fix",
        Op::Repeat | Op::Interleave | Op::RepeatModewise | Op::RepeatModewiseRaked => {
            "a layout and an arrangement"
        }
        Op::Broadcast => "a layout and a shape",
        Op::Inverse => "one layout",
        Op::Swizzle => "a map and the swizzle",
        Op::Group => "a map and two mode indices",
        Op::Flatten | Op::Coalesce => "one map",
        Op::Select | Op::Permute => "a map and mode indices",
    }
}

/// How an operation is written, for the help of its syntax errors.
fn op_usage(op: crate::expr::Op) -> &'static str {
    use crate::expr::Op;
    match op {
        Op::Compose => {
            "write `compose(left, right)`: `right` is applied first, e.g. `compose(SMEM, TV)`"
        }
        Op::Divide => "write `divide(L, (64, 32))`, one tile entry per top-level mode",
        Op::DivideModes => "write `divide_modes(L, (64, 32))`, one tile entry per top-level mode",
        Op::Restrict => "write `restrict(ADDR, thread = t)` or `restrict(ADDR, 0 = 2)`",
        Op::Repeat => "write `repeat(L, (3):(1))`; the arrangement is a dense layout",
        Op::Interleave => "write `interleave(L, (3):(1))`; the arrangement is a dense layout",
        Op::RepeatModewise => {
            "write `repeat_modewise(L, (2,4):(4,1))`; the arrangement is a dense layout with one top-level mode per mode of `L`"
        }
        Op::RepeatModewiseRaked => {
            "write `repeat_modewise_raked(L, (2,4):(4,1))`; the arrangement is a dense layout with one top-level mode per mode of `L`"
        }
        Op::Broadcast => "write `broadcast(L, (4))`: 4 copies of `L` at the same addresses",
        Op::Inverse => "write `inverse(L)`",
        Op::Swizzle => {
            "write `swizzle(L, b = 3, src = 7, dst = 4)` or `swizzle(L, Swizzle<3,4,3> over elements)`"
        }
        Op::Group => "write `group(L, 1, 3)`: the top-level modes 1 and 2 (from 0) become one mode",
        Op::Flatten => "write `flatten(L)`",
        Op::Select => {
            "write `select(L, (2, 0))`: the top-level modes 2 and 0 (from 0), in that order"
        }
        Op::Permute => {
            "write `permute(L, (1, 0))`: every top-level mode (from 0), in the new order"
        }
        Op::Coalesce => "write `coalesce(L)`",
    }
}

/// The list of operations, for the help of an unknown one.
fn op_list(f: &mut dyn fmt::Write) -> fmt::Result {
    f.write_str("the operations are ")?;
    for (i, op) in crate::expr::Op::ALL.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "`{op}`")?;
    }
    Ok(())
}

/// The help of a CuTe swizzle pasted without its unit, showing both ways to write it.
/// The first word of an operand clause.
fn clause_word(operand: crate::expr::Operand) -> &'static str {
    match operand {
        crate::expr::Operand::Wgmma(_) => "wgmma",
        crate::expr::Operand::TmaBox => "tma box",
    }
}

fn swizzle_unit_help(f: &mut dyn fmt::Write, b: i64, m: i64, s: i64) -> fmt::Result {
    write!(
        f,
        "CuTe's GMMA and TMA swizzles act on byte addresses: write `Swizzle<{b},{m},{s}> over bytes of 16-bit elements` with the element width in bits"
    )?;
    if let Ok(e) = crate::swizzle::Swizzle::from_cute(
        b,
        m,
        s,
        crate::swizzle::SwizzleUnit::Bytes { elem_bits: 16 },
    ) {
        let (b2, m2, s2) = e.to_cute();
        write!(
            f,
            " (for fp16 the same as `Swizzle<{b2},{m2},{s2}> over elements`)"
        )?;
    }
    write!(
        f,
        ", or `Swizzle<{b},{m},{s}> over elements` if it acts on element offsets"
    )
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Tree => "an integer, `_` or `(`",
            Expected::CommaOrClose => "`,` or `)`",
            Expected::Colon => "`:` between shape and stride",
            Expected::End => "the end of the layout",
            Expected::PositiveSize => "a positive size",
            Expected::CuteOp => "a CuTe operation name",
            Expected::Tiler => "a tiler: `_`, `<`, an integer or a layout",
            Expected::CommaOrAngle => "`,` or `>`",
            Expected::Swizzle => "a swizzle `Swizzle<B,M,S>`",
            Expected::SpacesComma => "`,` and the spaces after the layout",
            Expected::Arrow => "`->` between the domain and the codomain space",
            Expected::Space => "a space: `logical`, `thread-value` (or `tv`) or `physical`",
            Expected::DeclOption => "an option: `swizzle(b = .., src = .., dst = ..)`, `Swizzle<B,M,S>`, `index = i64`, `wgmma K-major` or `tma box`",
            Expected::Major => "`K-major` or `MN-major` after `wgmma`",
            Expected::TmaBox => "`box` after `tma`",
            Expected::IndexType => "an index type: `i32`, `i64`, `u32` or `usize`",
            Expected::Equals => "`=`",
            Expected::SwizzleField => "a swizzle field `b`, `src` or `dst`",
            Expected::SwizzleFields => "all three swizzle fields `b`, `src` and `dst`",
            Expected::Integer => "an integer",
            Expected::Expression => "a layout: a name made by `layout! { const NAME = ..; }`, `[LAYOUT, DOMAIN -> CODOMAIN]`, or an operation such as `compose(A, B)`",
            Expected::Argument(op) => return write!(f, "`,`: `{op}` takes {}", op_arguments(*op)),
            Expected::CloseCall(op) => return write!(f, "`)` closing `{op}(`"),
            Expected::OpenParen => "`(`",
            Expected::CloseParen => "`)`",
            Expected::OpenBracket => "`[`",
            Expected::CloseBracket => "`]` after the operand's spaces and options",
            Expected::CloseBrace => "`}` closing the run-time leaf",
            Expected::Entry => "an entry: a position or a mode name",
            Expected::Value => "a value after `=`",
            Expected::TileEntry => "a tile entry (an integer or a tuple of integers)",
            Expected::Shape => "a size (an integer or a tuple of sizes)",
            Expected::ElementBits => "an element width in bits, e.g. `16-bit`",
            Expected::Attribute => "`#[..]`",
            Expected::Item => "`const NAME = LAYOUT, DOMAIN -> CODOMAIN;`",
            Expected::ItemName => "the item's name",
            Expected::ItemEnd => "`;` after the item",
        })
    }
}

impl Error {
    /// A short stable name of the rule that failed, e.g. `"not-dense"` (the `rule` field of the
    /// CLI's `--json` output; spec: Machine-readable output).
    #[must_use]
    pub fn rule(&self) -> &'static str {
        self.entry(Part::Rule, &mut Sink)
            .map_or("", |(rule, _)| rule)
    }

    /// The mode the error is about, when it is about one.
    #[must_use]
    pub fn mode(&self) -> Option<ModePath> {
        let mut e = *self;
        e.mode_slot().map(|m| *m)
    }

    /// The same error about another mode (e.g. the path in CuTe order for a layout written in
    /// CuTe notation); errors without a mode are returned unchanged.
    #[must_use]
    pub fn with_mode(self, new: ModePath) -> Error {
        let mut e = self;
        if let Some(m) = e.mode_slot() {
            *m = new;
        }
        e
    }

    /// The one list of the variants that are about a mode: where their mode path is (an
    /// aliasing pair: its first mode).
    fn mode_slot(&mut self) -> Option<&mut ModePath> {
        match self {
            Error::ProfileMismatch { mode, .. }
            | Error::NonPositiveSize { mode, .. }
            | Error::ZeroStride { mode, .. }
            | Error::Overflow { mode, .. }
            | Error::TooDeep { mode }
            | Error::TooWide { mode, .. }
            | Error::NotDense { mode, .. }
            | Error::BroadcastNotDense { mode, .. }
            | Error::ArrangementNotDense { mode, .. }
            | Error::ArrangementBroadcast { mode, .. }
            | Error::NegativeOffset { mode, .. }
            | Error::CoordOutOfRange { mode, .. }
            | Error::CoordProfile { mode, .. }
            | Error::NotDivisible { mode, .. }
            | Error::TileSplit { mode, .. }
            | Error::ResidueSplit { mode, .. }
            | Error::ResidueOffset { mode, .. }
            | Error::ResidueShape { mode }
            | Error::CutePostcondition { mode, .. }
            | Error::CuteRefused { mode, .. }
            | Error::CuteStrict { mode, .. } => Some(mode),
            Error::Aliasing {
                modes: Some((a, _)),
                ..
            } => Some(a),
            _ => None,
        }
    }

    /// The suggested fix, where one exists (the `help:` line of a diagnostic).
    #[must_use]
    pub fn help(&self) -> Option<HelpText> {
        Some(HelpText(*self)).filter(|h| h.has_text())
    }
}

/// The fix suggested for an [`Error`]; `Display` writes it as one lowercase sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelpText(Error);

impl HelpText {
    fn has_text(&self) -> bool {
        self.0
            .entry(Part::Rule, &mut Sink)
            .is_ok_and(|(_, help)| help)
    }
}

impl fmt::Display for HelpText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.entry(Part::Help, f).map(drop)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.entry(Part::Message, f).map(drop)
    }
}

/// Which text of a rule [`Error::entry`] writes.
#[derive(Clone, Copy)]
enum Part {
    /// None: only the rule's name (and whether it has a help) is asked for.
    Rule,
    /// The message (`Display`).
    Message,
    /// The help ([`HelpText`]).
    Help,
}

/// A text of a rule, written on demand.
type Text<'a> = &'a dyn Fn(&mut dyn fmt::Write) -> fmt::Result;

/// A writer that keeps nothing (for the rule's name alone).
struct Sink;

impl fmt::Write for Sink {
    fn write_str(&mut self, _: &str) -> fmt::Result {
        Ok(())
    }
}

/// One row of the table: writes the asked part, and gives the rule's name and whether it has a
/// help.
fn row(
    part: Part,
    w: &mut dyn fmt::Write,
    rule: &'static str,
    message: Text<'_>,
    help: Option<Text<'_>>,
) -> Result<(&'static str, bool), fmt::Error> {
    match (part, help) {
        (Part::Message, _) => message(w)?,
        (Part::Help, Some(h)) => h(w)?,
        (Part::Help, None) | (Part::Rule, _) => {}
    }
    Ok((rule, help.is_some()))
}

impl Error {
    /// The one table of the rules: for every variant, in one arm, its stable name
    /// ([`Error::rule`]), its message (`Display`) and its help ([`Error::help`]).
    #[allow(unused_variables)] // each arm binds every field; a text uses the ones it needs
    fn entry(
        &self,
        part: Part,
        w: &mut dyn fmt::Write,
    ) -> Result<(&'static str, bool), fmt::Error> {
        match *self {
            Error::PictureTooLarge { cells, limit } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "the picture would have {cells} cells; `draw` draws at most {limit}"
                    )
                },
                Some(&|f| f.write_str("draw one tile: `restrict(divide(L, (16,16)), rest = 0)`")),
            ),
            Error::ListTooLarge { size, limit } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "the layout has {size} positions; `eval` lists at most {limit}"
                    )
                },
                Some(&|f| {
                    f.write_str("evaluate a smaller layout, or `divide` it into tiles first")
                }),
            ),
            Error::DrawNoTile => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    f.write_str("a thread-value layout is drawn over its 2-D logical tile, and this one has none")
                },
                Some(&|f| {
                    f.write_str("write the tile on the logical side, `[L, thread-value -> logical(16,8)]`, or pass `--tile 16,8` (rows, columns; CuTe's (M, N) under --cute)")
                }),
            ),
            Error::DrawTileExtents { extents } => row(
                part,
                w,
                "tile-shape",
                &|f| write!(f, "a tile of {extents} extents cannot be drawn in 2-D"),
                Some(&|f| f.write_str("give two extents, rows and columns")),
            ),
            Error::DrawTileSize { rows, cols, size } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    write!(
                        f,
                        "the tile {rows}×{cols} does not have the layout's {size} positions"
                    )
                },
                Some(&|f| f.write_str("give extents whose product is the layout's size")),
            ),
            Error::DrawNotLayout => row(
                part,
                w,
                "not-a-layout",
                &|f| f.write_str("only a thread-value layout can be drawn over its tile"),
                None,
            ),
            Error::DrawRank { rank } => row(
                part,
                w,
                "rank",
                &|f| {
                    write!(
                        f,
                        "`draw` draws a domain of one or two top-level modes, and this one has {rank}"
                    )
                },
                Some(&|f| {
                    f.write_str("group the modes into two, e.g. `((2,4),8):((8,16),1)` instead of `(2,4,8):(8,16,1)`")
                }),
            ),
            Error::Parse { column, expected } => row(
                part,
                w,
                "syntax",
                &|f| write!(f, "syntax error at column {column}: expected {expected}"),
                Some(&|f| {
                    write!(
                        f,
                        "write {expected} here; a layout reads `shape:stride`, e.g. `(16,32):(32,1)`"
                    )
                }),
            ),
            Error::IntegerTooLarge { column } => row(
                part,
                w,
                "syntax",
                &|f| write!(f, "integer at column {column} does not fit in i64"),
                None,
            ),
            Error::RuntimeLeaf { column } => row(
                part,
                w,
                "syntax",
                &|f| {
                    write!(
                        f,
                        "run-time leaf `{{..}}` at column {column} is not allowed here"
                    )
                },
                Some(&|f| {
                    f.write_str("run-time `{expr}` leaves are read only by the `layout!` macro; give an integer")
                }),
            ),
            Error::NestedName { column } => row(
                part,
                w,
                "syntax",
                &|f| write!(f, "mode name at column {column} is below the top level"),
                Some(&|f| {
                    f.write_str("name the top-level mode instead: `(rows: (2,4), cols: 8):(..)`")
                }),
            ),
            Error::ProfileMismatch {
                mode,
                shape_rank,
                stride_rank,
            } => row(
                part,
                w,
                "profile-mismatch",
                &|f| {
                    write!(
                        f,
                        "shape and stride differ in profile at {mode}: the shape has {shape_rank} entr{} there, the stride {stride_rank}",
                        if shape_rank == 1 { "y" } else { "ies" }
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "give the stride the same nesting as the shape: {shape_rank} entr{} here, not {stride_rank}",
                        if shape_rank == 1 { "y" } else { "ies" }
                    )
                }),
            ),
            Error::NonPositiveSize { mode, size } => row(
                part,
                w,
                "non-positive-size",
                &|f| write!(f, "size {size} in {mode} is not positive"),
                Some(&|f| f.write_str("sizes count positions and are at least 1")),
            ),
            Error::ZeroStride { mode, size } => row(
                part,
                w,
                "zero-stride",
                &|f| write!(f, "zero stride in {mode} of size {size}"),
                Some(&|f| {
                    f.write_str("write `_` for a broadcast mode (it makes the layout read-only), or give a non-zero stride")
                }),
            ),
            Error::Overflow { mode, what } => row(
                part,
                w,
                "overflow",
                &|f| write!(f, "overflow: {what} exceeds i64 at {mode}"),
                Some(&|f| {
                    f.write_str("use smaller sizes or strides: every offset must fit in i64")
                }),
            ),
            Error::TooDeep { mode } => row(
                part,
                w,
                "too-large",
                &|f| write!(f, "nesting deeper than {MAX_DEPTH} levels at {mode}"),
                None,
            ),
            Error::TooWide { mode, rank } => row(
                part,
                w,
                "too-large",
                &|f| write!(f, "{rank} entries in one tuple at {mode} (at most 255)"),
                None,
            ),
            Error::NotDense {
                mode,
                expected,
                found,
            } => row(
                part,
                w,
                "not-dense",
                &|f| {
                    write!(
                        f,
                        "not a dense bijection (Lemma 1): sorted by stride, {mode} should have stride {expected} but has {found}"
                    )
                },
                Some(&|f| {
                    if found < 0 {
                        f.write_str("strides into logical or thread-value space are positive: sorted, they are 1, n1, n1·n2, …; annotate the codomain `physical` for a negative stride")
                    } else {
                        write!(
                            f,
                            "stride {expected} here would make the strides the running products of the sizes; or annotate the codomain `physical` if gaps are intended"
                        )
                    }
                }),
            ),
            Error::BroadcastNotDense { mode, size } => row(
                part,
                w,
                "not-dense",
                &|f| {
                    write!(
                        f,
                        "not a dense bijection (Lemma 1): {mode} of size {size} is a broadcast `_`"
                    )
                },
                Some(&|f| {
                    f.write_str("a map into logical or thread-value space cannot broadcast; annotate the codomain `physical` for a read-only broadcast, or build it with `broadcast(L, shape)`")
                }),
            ),
            Error::Aliasing {
                first,
                second,
                offset,
                modes,
            } => row(
                part,
                w,
                "aliasing",
                &|f| {
                    write!(
                        f,
                        "not alias-free: flat indices {first} and {second} both reach offset {offset}"
                    )?;
                    if let Some((a, b)) = modes {
                        write!(f, " ({a} and {b} collide)")?;
                    }
                    Ok(())
                },
                Some(&|f| {
                    f.write_str("make each stride exceed the span of the smaller modes, or write `_` for modes that are meant to share addresses (read-only)")
                }),
            ),
            Error::AliasUndecided { size, range } => row(
                part,
                w,
                "alias-undecided",
                &|f| {
                    write!(
                        f,
                        "alias-freedom undecided: {size} coordinates over an offset range of {range} exceed the enumeration limit"
                    )
                },
                Some(&|f| {
                    f.write_str("the exact test enumerates at most 2^19 coordinates (2^15 over a range past 2^26); give strides that pass the fast test (each stride above the span of the smaller modes)")
                }),
            ),
            Error::NegativeOffset { mode, stride, min } => row(
                part,
                w,
                "negative-offset",
                &|f| {
                    write!(
                        f,
                        "cosize undefined: the smallest offset is {min} (stride {stride} in {mode})"
                    )
                },
                Some(&|f| {
                    f.write_str("cosize needs offsets from 0; use non-negative strides or offset the base pointer")
                }),
            ),
            Error::IndexOutOfRange { index, size } => row(
                part,
                w,
                "coordinate",
                &|f| write!(f, "index {index} outside [0, {size})"),
                None,
            ),
            Error::CoordOutOfRange { mode, value, size } => row(
                part,
                w,
                "coordinate",
                &|f| write!(f, "coordinate {value} outside [0, {size}) at {mode}"),
                None,
            ),
            Error::LeafOutOfRange {
                leaf,
                stride,
                negative,
                magnitude,
            } => row(
                part,
                w,
                "overflow",
                &|f| {
                    write!(
                        f,
                        "run-time {} of leaf {leaf} is {}{magnitude}, outside i64",
                        if stride { "stride" } else { "size" },
                        if negative { "-" } else { "" }
                    )
                },
                Some(&|f| {
                    f.write_str("sizes and strides are `i64` values: check the run-time value, or convert it explicitly where it is computed")
                }),
            ),
            Error::CoordProfile {
                mode,
                shape_rank,
                coord_rank,
            } => row(
                part,
                w,
                "coordinate",
                &|f| {
                    write!(
                        f,
                        "coordinate has {coord_rank} entries at {mode} where the shape has {shape_rank}"
                    )
                },
                None,
            ),
            Error::ForbiddenSpaces { domain, codomain } => row(
                part,
                w,
                "forbidden-spaces",
                &|f| write!(f, "forbidden annotation `{domain} -> {codomain}`"),
                Some(&|f| {
                    match (domain, codomain) {
                (Space::ThreadValue, Space::Physical) => f.write_str("write `thread-value -> logical` and compose it with a `logical -> physical` layout: `compose(storage, tv)`"),
                (Space::Physical, _) => f.write_str("nothing maps out of physical space; annotate the domain `logical` or `thread-value`"),
                _ => f.write_str("the constructible pairs are logical/thread-value -> logical/thread-value and logical -> physical"),
            }
                }),
            ),
            Error::SwizzleOverlap { b, src, dst } => row(
                part,
                w,
                "swizzle-fields",
                &|f| {
                    write!(
                        f,
                        "swizzle fields overlap: source bits [{src}, {}) and destination bits [{dst}, {}) share a bit",
                        u64::from(src).saturating_add(u64::from(b)),
                        u64::from(dst).saturating_add(u64::from(b))
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the source and destination fields must be at least b = {b} bits apart: |src - dst| >= {b}"
                    )
                }),
            ),
            Error::GmmaElementBytes { bytes } => row(
                part,
                w,
                "gmma-element",
                &|f| {
                    write!(
                        f,
                        "a wgmma operand of {bytes}-byte elements has no shared-memory descriptor"
                    )
                },
                Some(&|f| f.write_str("wgmma reads 1-, 2- and 4-byte elements from shared memory")),
            ),
            Error::GmmaSpaces { domain, codomain } => {
                row(
                    part,
                    w,
                    "gmma-spaces",
                    &|f| {
                        write!(
                            f,
                            "a wgmma descriptor describes a logical -> physical map, not {domain} -> {codomain}"
                        )
                    },
                    Some(&|f| {
                        f.write_str("pass the shared-memory layout of the operand tile (logical -> physical)")
                    }),
                )
            }
            Error::GmmaEntries { entries } => row(
                part,
                w,
                "gmma-entries",
                &|f| {
                    write!(
                        f,
                        "a wgmma operand tile has the two entries (K, MN), not {entries}"
                    )
                },
                Some(&|f| {
                    f.write_str("slice the buffer to one tile whose domain is (K, MN) in seed order, as the GMMA atoms write it")
                }),
            ),
            Error::GmmaTwoSwizzles => {
                row(
                    part,
                    w,
                    "gmma-two-swizzles",
                    &|f| {
                        f.write_str("the operand tile is swizzled twice; a wgmma descriptor has one swizzle")
                    },
                    Some(&|f| f.write_str("apply the GMMA atom's swizzle once, last")),
                )
            }
            Error::GmmaSwizzle {
                b,
                src,
                dst,
                elem_bits,
            } => row(
                part,
                w,
                "gmma-swizzle",
                &|f| {
                    write!(
                        f,
                        "the swizzle (b = {b}, src = {src}, dst = {dst}) over {elem_bits}-bit elements is not a GMMA swizzle"
                    )
                },
                Some(&|f| {
                    f.write_str("use `Swizzle<B,4,3> over bytes` of the element width, B = 1, 2 or 3 (the GMMA atoms' swizzles), or none")
                }),
            ),
            Error::GmmaBaseOffset { start, repeat } => row(
                part,
                w,
                "gmma-base-offset",
                &|f| {
                    write!(
                        f,
                        "the buffer at shared-memory address {start} is not aligned to the swizzle's repeat of {repeat} bytes; its descriptor would need a base offset"
                    )
                },
                Some(&|f| write!(f, "align the swizzled buffer to {repeat} bytes")),
            ),
            Error::GmmaKExtent { elements, bytes } => row(
                part,
                w,
                "gmma-k-extent",
                &|f| {
                    write!(
                        f,
                        "the operand tile's K spans {elements} elements ({bytes} bytes); one dense wgmma reads 32 bytes of K"
                    )
                },
                Some(&|f| {
                    f.write_str("slice K to 32 bytes: 16 16-bit, 8 32-bit or 32 8-bit elements")
                }),
            ),
            Error::GmmaMnExtent {
                major,
                swizzle,
                extent,
                multiple,
            } => row(
                part,
                w,
                "gmma-mn-extent",
                &|f| {
                    write!(
                        f,
                        "a {major} operand tile with {swizzle} spans {extent} positions along MN, not a multiple of {multiple}"
                    )
                },
                Some(&|f| f.write_str("tile whole GMMA atoms along MN, or use a narrower swizzle")),
            ),
            Error::GmmaNotLayout => row(
                part,
                w,
                "gmma-not-layout",
                &|f| {
                    f.write_str("the operand tile's unswizzled offsets are not a layout of (K, MN), so no wgmma descriptor describes them")
                },
                Some(&|f| {
                    f.write_str("build the tile from a GMMA atom by the algebra's repeat and slices, with the atom's swizzle last")
                }),
            ),
            Error::GmmaCoreMatrix { major } => row(
                part,
                w,
                "gmma-core-matrix",
                &|f| {
                    write!(
                        f,
                        "the 16 bytes of a core-matrix row are not contiguous along the {major} tile's contiguous mode"
                    )
                },
                Some(&|f| {
                    f.write_str("make the major mode's fastest 16 bytes contiguous (stride 1), or ask for the other major-ness")
                }),
            ),
            Error::GmmaSwizzleRow {
                major,
                swizzle,
                found,
            } => row(
                part,
                w,
                "gmma-swizzle-row",
                &|f| {
                    write!(
                        f,
                        "under {swizzle} the 16-byte chunks of a swizzled row of the {major} tile must be 16 bytes apart"
                    )?;
                    match found {
                        Some(s) => write!(f, ", not {s}"),
                        None => f.write_str(", and they are not equally spaced"),
                    }
                },
                Some(&|f| {
                    f.write_str("keep one swizzled row contiguous along the major mode, as the GMMA atoms do")
                }),
            ),
            Error::GmmaRowPitch {
                major,
                swizzle,
                expected,
                found,
            } => row(
                part,
                w,
                "gmma-row-pitch",
                &|f| {
                    write!(
                        f,
                        "under {swizzle} the 8 rows of a core matrix of the {major} tile must be {expected} bytes apart"
                    )?;
                    match found {
                        Some(s) => write!(f, ", not {s}"),
                        None => f.write_str(", and they are not equally spaced"),
                    }
                },
                Some(&|f| {
                    f.write_str("use the swizzle whose row width is the layout's row pitch (the GMMA atom of that width)")
                }),
            ),
            Error::GmmaStride { field } => row(
                part,
                w,
                "gmma-stride",
                &|f| {
                    write!(
                        f,
                        "the groups of core matrices that the {field} steps over have no single stride"
                    )
                },
                Some(&|f| f.write_str("tile whole GMMA atoms with one stride per direction")),
            ),
            Error::GmmaByteOffsetAlignment { field, bytes } => row(
                part,
                w,
                "gmma-byte-offset-alignment",
                &|f| {
                    write!(
                        f,
                        "the {field} of {bytes} bytes is not a multiple of 16 bytes"
                    )
                },
                Some(&|f| {
                    f.write_str(
                        "pad the buffer so that core-matrix groups start on 16-byte boundaries",
                    )
                }),
            ),
            Error::GmmaByteOffsetRange { field, bytes } => row(
                part,
                w,
                "gmma-byte-offset-range",
                &|f| {
                    write!(
                        f,
                        "the {field} of {bytes} bytes is outside its field: 0 to 262128 bytes (14 bits of 16 bytes)"
                    )
                },
                Some(&|f| {
                    f.write_str(
                        "keep each stride of core-matrix groups non-negative and below 256 KiB",
                    )
                }),
            ),
            Error::GmmaStartAlignment { address } => row(
                part,
                w,
                "gmma-start-alignment",
                &|f| {
                    write!(
                        f,
                        "the operand tile starts at shared-memory address {address}, not a multiple of 16 bytes"
                    )
                },
                Some(&|f| f.write_str("align the buffer and the tile's first element to 16 bytes")),
            ),
            Error::GmmaStartRange { address } => row(
                part,
                w,
                "gmma-start-range",
                &|f| {
                    write!(
                        f,
                        "the operand tile's start address {address} is outside the descriptor's field: 0 to 262128 bytes"
                    )
                },
                None,
            ),
            Error::GmmaBaseOffsetRange { base_offset } => row(
                part,
                w,
                "gmma-base-offset-range",
                &|f| write!(f, "the base offset {base_offset} is past its 3-bit field"),
                Some(&|f| f.write_str("give a base offset from 0 to 7")),
            ),
            Error::SwizzleTooWide { b, src, dst } => row(
                part,
                w,
                "swizzle-fields",
                &|f| {
                    write!(
                        f,
                        "swizzle field reaches past bit 62 (b = {b}, src = {src}, dst = {dst})"
                    )
                },
                Some(&|f| {
                    f.write_str("swizzle fields are bit positions of the element offset and must end below bit 62")
                }),
            ),
            Error::SwizzleCuteShift { b, m, s } => row(
                part,
                w,
                "swizzle-fields",
                &|f| {
                    write!(
                        f,
                        "CuTe Swizzle<{b},{m},{s}> is out of range: B and M must be in [0, 62], S in [-62, 62]"
                    )
                },
                Some(&|f| {
                    f.write_str("CuTe's `Swizzle<B,M,S>` needs 0 <= B <= 62, 0 <= M <= 62 and -62 <= S <= 62")
                }),
            ),
            Error::SwizzleUnit { b, m, s, elem_bits } => row(
                part,
                w,
                "swizzle-unit",
                &|f| {
                    if elem_bits == 0 || !elem_bits.is_power_of_two() {
                        write!(
                            f,
                            "CuTe Swizzle<{b},{m},{s}> over bytes of {elem_bits}-bit elements has no form on element offsets: the element width is not a power of two"
                        )
                    } else {
                        write!(
                            f,
                            "CuTe Swizzle<{b},{m},{s}> over bytes of {elem_bits}-bit elements moves bytes inside an element: M = {m} < log2({} bytes) = {}",
                            elem_bits / 8,
                            elem_bits.trailing_zeros().saturating_sub(3)
                        )
                    }
                },
                Some(&|f| {
                    f.write_str("check the element width; a byte swizzle that moves bytes inside an element has no element form: swizzle a layout of bytes instead")
                }),
            ),
            Error::SwizzleNotPhysical { codomain } => row(
                part,
                w,
                "swizzle-not-physical",
                &|f| {
                    write!(
                        f,
                        "a swizzle runs from physical to physical, but this map's codomain is {codomain}"
                    )
                },
                Some(&|f| {
                    f.write_str("annotate the layout `logical -> physical`; a swizzle permutes memory addresses only")
                }),
            ),
            Error::RightNotLogical { codomain } => row(
                part,
                w,
                "right-not-logical",
                &|f| write!(f, "the right operand maps into {codomain}, not logical"),
                Some(&|f| {
                    f.write_str("swap the operands: `compose(storage, tv)` applies `tv` first, then `storage`")
                }),
            ),
            Error::RightSwizzled => row(
                part,
                w,
                "right-not-logical",
                &|f| {
                    f.write_str(
                        "the right operand is swizzled; nothing is composed after a swizzle",
                    )
                },
                Some(&|f| {
                    f.write_str("a swizzle is the last step of a chain: swizzle the left (storage) operand instead")
                }),
            ),
            Error::LeftDomainNotLogical { domain } => row(
                part,
                w,
                "left-domain-not-logical",
                &|f| write!(f, "the left operand's domain is {domain}, not logical"),
                Some(&|f| {
                    f.write_str("the left operand must read logical positions: annotate it `logical -> ..`, or swap the operands")
                }),
            ),
            Error::SizeMismatch { left, right } => row(
                part,
                w,
                "size-mismatch",
                &|f| write!(f, "size mismatch: right {right} vs left {left}"),
                Some(&|f| {
                    write!(
                        f,
                        "the right operand must enumerate all {left} positions of the left operand's domain; `divide` or `repeat` one operand so that the sizes agree"
                    )
                }),
            ),
            Error::TileMismatch {
                left_rank,
                right_rank,
                position,
                left,
                right,
            } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    if left_rank == right_rank {
                        write!(
                            f,
                            "logical tile shapes differ at extent {position}: {right} on the right operand vs {left} on the left"
                        )
                    } else {
                        write!(
                            f,
                            "logical tile shapes differ in rank: {right_rank} on the right operand vs {left_rank} on the left"
                        )
                    }
                },
                Some(&|f| {
                    f.write_str("write both sides over the same logical index (spec: Logical tile shapes): a row-major M×K matrix composed after a CuTe TV layout is `(K,M):(1,K)` in seed order")
                }),
            ),
            Error::TileSize { tile, size } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    write!(
                        f,
                        "logical tile shape of {tile} positions on a side of size {size}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the tile's extents must multiply to the size of the logical side, {size}"
                    )
                }),
            ),
            Error::TileNotLogical { space } => row(
                part,
                w,
                "tile-shape",
                &|f| write!(f, "a tile shape on a {space} side"),
                Some(&|f| {
                    f.write_str("only a `logical` side carries a tile shape: `logical(K, M)`")
                }),
            ),
            Error::IndexTypeRange {
                min,
                max,
                type_min,
                type_max,
            } => row(
                part,
                w,
                "index-type-range",
                &|f| {
                    write!(
                        f,
                        "offsets [{min}, {max}] do not fit the index type's range [{type_min}, {type_max}]"
                    )
                },
                Some(&|f| f.write_str("pick a wider index type, e.g. `index = i64`")),
            ),
            Error::RestrictNotPhysical { codomain } => row(
                part,
                w,
                "restrict",
                &|f| {
                    write!(
                        f,
                        "restriction is allowed only for maps into physical, but this map's codomain is {codomain}"
                    )
                },
                Some(&|f| {
                    f.write_str("compose with a `logical -> physical` layout first, then restrict the composite")
                }),
            ),
            Error::RestrictEntry { entry, rank } => row(
                part,
                w,
                "restrict",
                &|f| {
                    write!(
                        f,
                        "restriction of entry {entry}, but the domain has {rank} free entries"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the domain has {rank} free top-level entries, numbered from 0"
                    )
                }),
            ),
            Error::UnknownModeName => row(
                part,
                w,
                "restrict",
                &|f| {
                    f.write_str(
                        "restriction by a name that no top-level mode of the domain carries",
                    )
                },
                Some(&|f| {
                    f.write_str("name a top-level mode of the domain, e.g. `thread` in `(thread: 32, value: 4):(4, 1)`, or give its position")
                }),
            ),
            Error::TileExtent { position, extent } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    write!(
                        f,
                        "tile extent {extent} at position {position} is not positive"
                    )
                },
                Some(&|f| f.write_str("tile extents count positions and are at least 1")),
            ),
            Error::SwizzleNegativeField { b, src, dst } => row(
                part,
                w,
                "swizzle-fields",
                &|f| {
                    write!(
                        f,
                        "negative swizzle field (b = {b}, src = {src}, dst = {dst})"
                    )
                },
                Some(&|f| {
                    f.write_str("give the number of bits and the lowest source and destination bits, each at least 0")
                }),
            ),
            Error::SwizzleNegativeOffset { min } => row(
                part,
                w,
                "swizzle-fields",
                &|f| {
                    write!(
                        f,
                        "a swizzle acts on non-negative offsets, but this map reaches offset {min}"
                    )
                },
                Some(&|f| {
                    f.write_str("swizzle a layout whose offsets start at 0 (non-negative strides), or offset the base pointer first")
                }),
            ),
            Error::ProgramArity { expected, found } => row(
                part,
                w,
                "program",
                &|f| {
                    write!(
                        f,
                        "the program has {expected} coordinates, but {found} were given"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "give one value per coordinate of the program, {expected} in all"
                    )
                }),
            ),
            Error::ProgramUndefined { variable, defined } => row(
                part,
                w,
                "program",
                &|f| match variable {
                    crate::emit::Var::Coord(i) => write!(
                        f,
                        "the program reads coordinate c{i}, but has {defined} coordinates"
                    ),
                    crate::emit::Var::Temp(i) => write!(
                        f,
                        "the program reads temporary t{i} where {defined} are defined"
                    ),
                },
                Some(&|f| {
                    f.write_str("evaluate programs built by `emit`, `written` or `layout_form`, or define each variable before it is read and divide by positive integers only")
                }),
            ),
            Error::ProgramTerm { value } => row(
                part,
                w,
                "program",
                &|f| {
                    write!(
                        f,
                        "the program divides by, takes the modulus of, or shifts by {value}"
                    )
                },
                Some(&|f| {
                    f.write_str("evaluate programs built by `emit`, `written` or `layout_form`, or define each variable before it is read and divide by positive integers only")
                }),
            ),
            Error::DecideTooLarge { size, limit } => row(
                part,
                w,
                "decide-too-large",
                &|f| {
                    write!(
                        f,
                        "deciding {size} coordinates exceeds the limit of {limit}"
                    )
                },
                Some(&|f| f.write_str("emit the composite as written, or decide a smaller tile")),
            ),
            Error::RangeUndecided { size, limit } => row(
                part,
                w,
                "range-undecided",
                &|f| {
                    write!(
                        f,
                        "the exact offset range of this map of {size} coordinates needs more than the limit of {limit} steps"
                    )
                },
                Some(&|f| {
                    f.write_str("swizzle a layout (or a composite decided to be one) whose strides are powers of two, or restrict a smaller tile")
                }),
            ),
            Error::NotOneMode { leaves } => row(
                part,
                w,
                "rank-mismatch",
                &|f| {
                    write!(
                        f,
                        "scale_mode needs a layout of one mode `n:d`, but this one has {leaves} leaves"
                    )
                },
                Some(&|f| {
                    f.write_str("scale one mode at a time: `select` or `flatten` the layout and pass a single mode")
                }),
            ),
            Error::ScaleSize { size, shape_size } => row(
                part,
                w,
                "size-mismatch",
                &|f| {
                    write!(
                        f,
                        "scale_mode size mismatch: the shape has size {shape_size}, the mode {size}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the shape refines the mode, so its sizes must multiply to {size}"
                    )
                }),
            ),
            Error::TileRank { rank, tile } => row(
                part,
                w,
                "rank-mismatch",
                &|f| {
                    write!(
                        f,
                        "divide: the tile has {tile} entries but the layout has {rank} top-level modes"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "give one tile entry per top-level mode, {rank} in all (an entry of 1 leaves the whole mode in `rest`)"
                    )
                }),
            ),
            Error::NotDivisible { mode, size, tile } => row(
                part,
                w,
                "not-divisible",
                &|f| {
                    write!(
                        f,
                        "divide: tile entry {tile} does not divide the size {size} of {mode}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "each tile entry must be a positive divisor of its mode's size (k | n), here of {size}"
                    )
                }),
            ),
            Error::TileSplit {
                mode,
                tile,
                needed,
                size,
            } => row(
                part,
                w,
                "not-divisible",
                &|f| {
                    write!(
                        f,
                        "divide: tile entry {tile} cuts {mode} of size {size} unevenly: {needed} positions remain for it after the faster leaves, and neither of {needed} and {size} divides the other"
                    )
                },
                Some(&|f| {
                    f.write_str("in a nested mode a tile entry must be the product of the fastest leaves times a divisor of the next leaf (last leaf fastest); `flatten` the layout and tile its leaves instead")
                }),
            ),
            Error::ArrangementRank {
                op,
                rank,
                arrangement,
            } => row(
                part,
                w,
                "rank-mismatch",
                &|f| {
                    write!(
                        f,
                        "{op}: the arrangement has {arrangement} top-level modes but the layout has {rank}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "give the arrangement {rank} top-level modes, one per mode of the layout (size 1 where a mode is not repeated)"
                    )
                }),
            ),
            Error::ModeIndex { index, rank } => row(
                part,
                w,
                "mode-index",
                &|f| {
                    write!(
                        f,
                        "mode index {index} is out of range: the layout has {rank} top-level modes"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "top-level modes are numbered from 0 to {}, slowest first",
                        rank.saturating_sub(1)
                    )
                }),
            ),
            Error::DuplicateName { first, second } => row(
                part,
                w,
                "mode-names",
                &|f| write!(f, "modes {first} and {second} have the same name"),
                Some(&|f| f.write_str("give each top-level mode of a layout its own name")),
            ),
            Error::RepeatedMode { index } => row(
                part,
                w,
                "mode-index",
                &|f| write!(f, "mode {index} is listed twice"),
                Some(&|f| f.write_str("list each top-level mode at most once")),
            ),
            Error::PermutationRank { rank, len } => row(
                part,
                w,
                "mode-index",
                &|f| {
                    write!(
                        f,
                        "permute: the permutation has {len} entries but the layout has {rank} top-level modes"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "a permutation lists each of the {rank} top-level modes exactly once; use `select` to drop modes"
                    )
                }),
            ),
            Error::GroupRange { start, end, rank } => row(
                part,
                w,
                "mode-index",
                &|f| {
                    write!(
                        f,
                        "group: [{start}, {end}) is not a non-empty range of the layout's {rank} top-level modes"
                    )
                },
                Some(&|f| write!(f, "group needs start < end <= {rank}")),
            ),
            Error::EmptySelection => row(
                part,
                w,
                "mode-index",
                &|f| f.write_str("select of no mode: the selection is empty"),
                Some(&|f| f.write_str("select at least one top-level mode")),
            ),
            Error::CutePostcondition {
                op,
                within,
                mode,
                failed,
            } => row(
                part,
                w,
                failed.rule(),
                &|f| {
                    cute_prefix(
                        f,
                        op,
                        within,
                        "CuTe's result violates CuTe's own postcondition",
                    )?;
                    if !mode.is_root() {
                        write!(f, " at tiler {mode}")?;
                    }
                    write!(f, ": {failed}")
                },
                Some(&|f| {
                    f.write_str(match failed {
                Postcondition::ComplementCoverage { .. }
                | Postcondition::ComplementBound { .. }
                | Postcondition::ComplementOrdered { .. }
                | Postcondition::ComplementDisjoint { .. } => "CuTe's complement is exact only under the divisibility conditions (spec: Strict mode) (sorted by stride, N_(i-1)·d_(i-1) | d_i and N_α·d_α | M): pick such a cotarget, or take the rest of a `divide` of a canonical layout in this algebra",
                Postcondition::CompositionCompatible { .. } | Postcondition::CompositionValue { .. } => "the composite is still a function: `compose` it in this algebra, where Theorem 1 decides whether it is a layout (see the suggestion, if any)",
                Postcondition::RightInverseDomain { .. }
                | Postcondition::RightInverseValue { .. }
                | Postcondition::LeftInverseDomain { .. }
                | Postcondition::LeftInverseValue { .. } => "CuTe's inverse is only reliable for layouts without stride-0 modes whose strides follow each other (a dense bijection up to gaps); `inverse` a dense bijection in this algebra",
                Postcondition::CoalesceValue { .. }
                | Postcondition::CoalesceSize { .. }
                | Postcondition::CoalesceDepth { .. }
                | Postcondition::Regroup { .. } => "this is a bug in the CuTe module: please report the operands",
            })
                }),
            ),
            Error::CuteRefused {
                op,
                within,
                mode,
                reason,
            } => row(
                part,
                w,
                reason.rule(),
                &|f| {
                    cute_prefix(f, op, within, "no CuTe result for these operands")?;
                    if !mode.is_root() {
                        write!(f, " at {mode}")?;
                    }
                    write!(f, ": {reason}")
                },
                Some(&|f| {
                    f.write_str(match reason {
                Refusal::StrideDivisibility { .. } => "each stride of B must divide, or be a multiple of, the sizes of A's coalesced modes it crosses; the suggestion, if any, is the layout the composite really is",
                Refusal::ComplementOverlap { .. } => "the layout's modes overlap when sorted by stride, so no complement exists; give strides with N_(i-1)·d_(i-1) <= d_i",
                Refusal::ComplementNegativeStride { .. } => "complement a layout with non-negative strides (reverse the negative mode first)",
                Refusal::Cotarget { .. } => "give a cotarget of at least 1 (for a product: a tiler with cosize >= 1)",
                Refusal::TilerRank { rank, .. } => return write!(f, "give at most {rank} tiler entries, one per top-level mode of the layout (`_` keeps a mode)"),
                Refusal::ZipRank { .. } => "C++ `zip` needs the first half (blocked: the block, raked: the copies) to have an integer shape, or both halves to be tuples of one rank; use `logical_product` for rank-1 operands, or give both operands rank 2",
            })
                }),
            ),
            Error::CuteStrict {
                op,
                within,
                mode,
                failed,
            } => row(
                part,
                w,
                failed.rule(),
                &|f| {
                    cute_prefix(
                        f,
                        op,
                        within,
                        "strict mode: an admissibility condition (spec: Strict mode) fails",
                    )?;
                    if !mode.is_root() {
                        write!(f, " at {mode}")?;
                    }
                    write!(f, ": {failed}")
                },
                Some(&|f| {
                    f.write_str("strict mode requires the admissibility conditions (spec: Strict mode) before computing; without strict mode CuTe's result is returned when it passes CuTe's own postconditions")
                }),
            ),
            Error::CuteCheckLimit { op, size, limit } => row(
                part,
                w,
                "cute-check-limit",
                &|f| {
                    write!(
                        f,
                        "{op}: checking the result needs {size} evaluations, more than the limit of {limit}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "results are returned only when checked at every coordinate, at most {limit} of them: use smaller layouts"
                    )
                }),
            ),
            Error::CuteArguments {
                op,
                expected,
                most,
                found,
            } => row(
                part,
                w,
                "cute-arguments",
                &|f| {
                    write!(f, "{op} takes {expected}")?;
                    if most > expected {
                        write!(f, " or {most}")?;
                    }
                    write!(
                        f,
                        " argument{}, but {found} {} given",
                        if expected == 1 && most == 1 { "" } else { "s" },
                        if found == 1 { "was" } else { "were" }
                    )
                },
                Some(&|f| {
                    f.write_str("write ")?;
                    // The usage names the operation `OP` where it is one of a family.
                    let mut parts = crate::cute::usage(op).split("OP");
                    if let Some(first) = parts.next() {
                        f.write_str(first)?;
                    }
                    for p in parts {
                        write!(f, "{op}{p}")?;
                    }
                    Ok(())
                }),
            ),
            Error::UnknownCuteOperation { closest } => row(
                part,
                w,
                "unknown-operation",
                &|f| f.write_str("unknown CuTe operation"),
                Some(&|f| {
                    if let Some(c) = closest {
                        write!(f, "did you mean `{c}`? ")?;
                    }
                    f.write_str("the operations are ")?;
                    for (i, op) in CuteOp::ALL.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{op}")?;
                    }
                    Ok(())
                }),
            ),
            Error::OptionValue { option } => row(
                part,
                w,
                "syntax",
                &|f| {
                    f.write_str(match option {
                        CliOption::Name => "not a function name",
                        CliOption::Tile => "cannot read the tile",
                        CliOption::Space => "cannot read the spaces",
                    })
                },
                Some(&|f| {
                    f.write_str(match option {
                        CliOption::Name => "give --name an identifier: a letter or `_`, then letters, digits or `_`",
                        CliOption::Tile => "write --tile ROWS,COLS with positive integers, e.g. `--tile 16,8`",
                        CliOption::Space => "write `--space DOMAIN->CODOMAIN` with `logical`, `thread-value` (`tv`) or `physical`, e.g. `logical->physical`",
                    })
                }),
            ),
            Error::OutputWrite => row(
                part,
                w,
                "io",
                &|f| f.write_str("cannot write the output file"),
                Some(&|f| f.write_str("check that the file's folder exists and is writable")),
            ),
            Error::MacroPath => row(
                part,
                w,
                "syntax",
                &|f| f.write_str("use `layout!` through `layout_typed::layout!`"),
                Some(&|f| {
                    f.write_str("import the macro from `layout_typed` (`use layout_typed::prelude::*;`); `layout_macros` is its implementation")
                }),
            ),
            Error::EmptyMacro => row(
                part,
                w,
                "syntax",
                &|f| f.write_str("empty `layout!`"),
                Some(&|f| {
                    f.write_str("write `layout!(SHAPE:STRIDE, DOMAIN -> CODOMAIN)`, e.g. `layout!((16,32):(32,1), logical -> physical)`")
                }),
            ),
            Error::Syntax { expected } => row(
                part,
                w,
                "syntax",
                &|f| write!(f, "expected {expected}"),
                Some(&|f| {
                    match expected {
                Expected::Tree | Expected::CommaOrClose | Expected::Colon | Expected::End | Expected::PositiveSize => write!(f, "write {expected} here; a layout reads `shape:stride`, e.g. `(16,32):(32,1)`"),
                Expected::SpacesComma | Expected::Arrow => f.write_str("a declaration reads `LAYOUT, DOMAIN -> CODOMAIN`, e.g. `(16,32):(32,1), logical -> physical`"),
                Expected::Space => f.write_str("the spaces are `logical`, `thread-value` (or `tv`) and `physical`"),
                Expected::DeclOption => f.write_str("the options are `swizzle(b = .., src = .., dst = ..)`, `Swizzle<B,M,S> over ..`, `index = TYPE`, `wgmma K-major` (or `MN-major`) and `tma box`"),
                Expected::Major | Expected::TmaBox => f.write_str("write `wgmma K-major`, `wgmma MN-major` or `tma box`, then `of N-bit elements` unless the swizzle gives the width"),
                Expected::IndexType => f.write_str("write `index = i32`, `i64`, `u32` or `usize`"),
                Expected::SwizzleField | Expected::SwizzleFields => f.write_str("write `swizzle(b = 3, src = 7, dst = 4)` (bits, lowest source bit, lowest destination bit) or CuTe's `Swizzle<3,4,3> over elements`"),
                Expected::Swizzle => f.write_str("write CuTe's swizzle as `Swizzle<B,M,S>` and its unit, e.g. `Swizzle<3,4,3> over bytes of 16-bit elements`"),
                Expected::Argument(op) | Expected::CloseCall(op) => f.write_str(op_usage(op)),
                Expected::Expression => f.write_str("an operand is a name, a bracketed declaration `[(16,32):(32,1), logical -> physical]`, or an operation"),
                Expected::Entry | Expected::Value => f.write_str("write `restrict(ADDR, thread = t)` or `restrict(ADDR, 0 = 2)`"),
                Expected::TileEntry => f.write_str("a tile is an integer or a tuple of integers, `(64, 32)`"),
                Expected::ElementBits => f.write_str("the element width in bits, e.g. `16-bit`"),
                Expected::Attribute | Expected::Item | Expected::ItemName | Expected::ItemEnd => f.write_str("an item reads `#[attributes] pub const NAME = LAYOUT, DOMAIN -> CODOMAIN;`, e.g. `const SMEM = (16,32):(32,1), logical -> physical;`"),
                _ => write!(f, "write {expected} here"),
            }
                }),
            ),
            Error::IntegerSuffix => row(
                part,
                w,
                "syntax",
                &|f| f.write_str("an integer with a type suffix"),
                Some(&|f| f.write_str("write the integer without a type suffix")),
            ),
            Error::StaticInteger { value } => row(
                part,
                w,
                "syntax",
                &|f| write!(f, "`_{value}` is CuTe's static integer {value}"),
                Some(&|f| {
                    write!(
                        f,
                        "write `{value}`, or put `cute` before a layout pasted in CuTe order"
                    )
                }),
            ),
            Error::SecondSwizzle => row(
                part,
                w,
                "swizzle-fields",
                &|f| f.write_str("a second swizzle"),
                Some(&|f| f.write_str("a map has at most one swizzle, its last step")),
            ),
            Error::SecondIndexType => row(
                part,
                w,
                "syntax",
                &|f| f.write_str("a second index type"),
                Some(&|f| f.write_str("give `index = ..` once")),
            ),
            Error::SecondOperandClause { operand } => row(
                part,
                w,
                "syntax",
                &|f| write!(f, "a second `{}` clause", clause_word(operand)),
                Some(&|f| f.write_str("give each operand clause once")),
            ),
            Error::TmaSpaces { domain, codomain } => row(
                part,
                w,
                "tma-spaces",
                &|f| {
                    write!(
                        f,
                        "a tensor map's box is written into shared memory: a logical -> physical map, not {domain} -> {codomain}"
                    )
                },
                Some(&|f| {
                    f.write_str("give `tma box` to the shared-memory layout of the tile (logical -> physical)")
                }),
            ),
            Error::OperandElementMissing { operand } => row(
                part,
                w,
                "operand-element",
                &|f| {
                    write!(
                        f,
                        "the `{operand}` clause needs the element width, and the declaration does not give it"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "write `{operand} of 16-bit elements` with the element width in bits, or a swizzle `over bytes of N-bit elements`"
                    )
                }),
            ),
            Error::OperandElementBits { operand, bits } => row(
                part,
                w,
                "operand-element",
                &|f| {
                    write!(
                        f,
                        "the `{operand}` clause reads whole bytes per element, not {bits} bits"
                    )
                },
                Some(&|f| f.write_str("give an element width of 8, 16, 32 or 64 bits")),
            ),
            Error::OperandElementConflict {
                operand,
                written,
                swizzle,
            } => row(
                part,
                w,
                "operand-element",
                &|f| {
                    write!(
                        f,
                        "the `{operand}` clause's elements are {written}-bit, the swizzle's {swizzle}-bit"
                    )
                },
                Some(&|f| {
                    f.write_str("give one element width: drop `of N-bit elements` from the clause, the swizzle already says it")
                }),
            ),
            Error::SwizzleFieldTwice => row(
                part,
                w,
                "syntax",
                &|f| f.write_str("a swizzle field given twice"),
                Some(&|f| f.write_str("give each of `b`, `src` and `dst` once")),
            ),
            Error::SwizzleUnitMissing { b, m, s } => row(
                part,
                w,
                "syntax",
                &|f| {
                    f.write_str("a CuTe swizzle needs its unit: `over elements` or `over bytes of N-bit elements`")
                },
                Some(&|f| swizzle_unit_help(f, b, m, s)),
            ),
            Error::UnknownOperation => row(
                part,
                w,
                "unknown-operation",
                &|f| f.write_str("unknown operation"),
                Some(&|f| op_list(f)),
            ),
            Error::UnknownOperand => row(
                part,
                w,
                "unknown-operand",
                &|f| f.write_str("unknown layout: no definition of this name"),
                Some(&|f| {
                    f.write_str("define it: `layout! { const NAME = LAYOUT, DOMAIN -> CODOMAIN; }` (in the CLI: `--def 'NAME = LAYOUT, DOMAIN -> CODOMAIN'`)")
                }),
            ),
            Error::ExprTooDeep => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "operations nest deeper than {} levels",
                        crate::expr::MAX_EXPR_DEPTH
                    )
                },
                Some(&|f| {
                    f.write_str("nest fewer operations: write an intermediate result that is a layout out as a declaration (`layout! { const NAME = ..; }` items, `--def` in the CLI) and name it")
                }),
            ),
            Error::RuntimeOperand => row(
                part,
                w,
                "runtime-leaves",
                &|f| f.write_str("this layout of an algebra expression has static leaves only"),
                Some(&|f| {
                    f.write_str("give every size and stride here as an integer; run-time leaves `{..}` are read in `layout!`, in a bracketed operand `[LAYOUT, DOMAIN -> CODOMAIN]` or a value")
                }),
            ),
            Error::RuntimeValue => row(
                part,
                w,
                "runtime-value",
                &|f| f.write_str("a run-time value is not allowed here"),
                Some(&|f| {
                    f.write_str("run-time values exist only in `layout!`; give an integer or a coordinate `(1, 3)`")
                }),
            ),
            Error::RuntimeNotLast { op } => row(
                part,
                w,
                "runtime-leaves",
                &|f| {
                    write!(
                        f,
                        "`{op}` after a `restrict` by a run-time value: the run-time restriction is the last step of an expression (only a swizzle may follow it)"
                    )
                },
                Some(&|f| write!(f, "apply `{op}` first and restrict its result")),
            ),
            Error::RuntimeRestrictTwice => row(
                part,
                w,
                "runtime-leaves",
                &|f| {
                    f.write_str("one run-time value per map: the other entries of a run-time `restrict` must be literals")
                },
                Some(&|f| {
                    f.write_str(
                        "fix the other entries with literal values, or restrict a smaller map",
                    )
                }),
            ),
            Error::RuntimeSwizzle => row(
                part,
                w,
                "runtime-leaves",
                &|f| f.write_str("a swizzle needs a layout without run-time leaves"),
                Some(&|f| {
                    f.write_str("give every size and stride as an integer; sizes are checked when the value is built")
                }),
            ),
            Error::RuntimeTile => row(
                part,
                w,
                "runtime-leaves",
                &|f| f.write_str("a tile shape needs a layout without run-time leaves"),
                Some(&|f| {
                    f.write_str("give every size and stride as an integer; sizes are checked when the value is built")
                }),
            ),
            Error::NotALayout { op, why } => row(
                part,
                w,
                "not-a-layout",
                &|f| {
                    write!(f, "`{op}` needs a layout, and this map is ")?;
                    match why {
                        NotLayoutReason::Restricted => {
                            f.write_str("a restriction (constant + map)")
                        }
                        NotLayoutReason::Swizzled => f.write_str("swizzled"),
                        NotLayoutReason::NotSeparable => f.write_str(
                            "a composite that is not a layout (Theorem 1: not separable)",
                        ),
                        NotLayoutReason::Scan { coordinate, t } => write!(
                            f,
                            "a composite that is not a layout (Theorem 1: the scan of coordinate {coordinate} rejects at t = {t})"
                        ),
                        NotLayoutReason::Undecided => {
                            f.write_str("a composite too large to decide")
                        }
                        NotLayoutReason::Refined => f.write_str(
                            "a composite whose coarsest layout (Theorem 1) cuts a mode of its domain into several leaves",
                        ),
                    }
                },
                Some(&|f| match why {
                    NotLayoutReason::Restricted => {
                        write!(f, "apply `{op}` first and restrict its result")
                    }
                    NotLayoutReason::Swizzled => {
                        write!(f, "apply `{op}` to the layout and swizzle the result")
                    }
                    NotLayoutReason::Refined => write!(
                        f,
                        "keep the modes in their order (the others are then fixed at 0, the map restricted), or apply `{op}` to the right operand before composing"
                    ),
                    _ => write!(f, "apply `{op}` to the operands before composing them"),
                }),
            ),
            Error::BroadcastNotPhysical { codomain } => row(
                part,
                w,
                "broadcast-not-physical",
                &|f| {
                    write!(
                        f,
                        "`broadcast` makes copies at the same addresses, a read-only map into physical, and this map's codomain is {codomain}"
                    )
                },
                Some(&|f| {
                    f.write_str("broadcast a map into physical, e.g. `broadcast(SMEM, (4))` or `broadcast(compose(SMEM, TV), (4))`")
                }),
            ),
            Error::InverseOfPhysical { domain } => row(
                part,
                w,
                "not-dense",
                &|f| {
                    write!(
                        f,
                        "`inverse` needs a dense bijection into logical or thread-value space, but this map is {domain} -> physical"
                    )
                },
                Some(&|f| {
                    f.write_str("invert the thread-value or logical layout before composing it with storage")
                }),
            ),
            Error::RegroupTileUnknown { op } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    write!(
                        f,
                        "`{op}` reorders a domain whose tile shape is not its top-level sizes, so the result's tile shape is unknown"
                    )
                },
                Some(&|f| {
                    f.write_str("declare the layout with one top-level mode per tile extent, or regroup it with `group` or `flatten`, which keep the order")
                }),
            ),
            Error::DivideTileUnknown => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    f.write_str("`divide` reorders a domain whose tile shape is not its top-level sizes, so the result's tile shape is unknown")
                },
                Some(&|f| {
                    f.write_str("declare the layout with one top-level mode per tile extent, or use `divide_modes`, which keeps the order")
                }),
            ),
            Error::TileExtents { count } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    write!(
                        f,
                        "a tile shape of {count} extents; a tile shape has 1 to {}",
                        crate::expr::MAX_TILE_EXTENTS
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "a tile shape has 1 to {} extents",
                        crate::expr::MAX_TILE_EXTENTS
                    )
                }),
            ),
            Error::ResultTileExtents { op, count } => row(
                part,
                w,
                "tile-shape",
                &|f| {
                    write!(
                        f,
                        "the result of `{op}` has a tile shape of {count} extents; a tile shape has at most {}",
                        crate::expr::MAX_TILE_EXTENTS
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "apply `{op}` to a layout without a tile shape on that side, or with fewer extents"
                    )
                }),
            ),
            Error::TypedLeaves { leaves } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "{leaves} leaf modes; the typed API takes at most {}",
                        crate::expr::MAX_TYPED_LEAVES
                    )
                },
                Some(&|f| f.write_str("merge contiguous modes")),
            ),
            Error::TypedRank { rank } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "{rank} modes in one tuple; the typed API takes at most {}",
                        crate::expr::MAX_TYPED_RANK
                    )
                },
                Some(&|f| f.write_str("group modes into nested tuples")),
            ),
            Error::RuntimeValueOutOfRange {
                negative,
                magnitude,
                size,
            } => row(
                part,
                w,
                "coordinate",
                &|f| {
                    write!(
                        f,
                        "restrict: the run-time value {}{magnitude} is outside its entry [0, {size})",
                        if negative { "-" } else { "" }
                    )
                },
                None,
            ),
            Error::RuntimeProfile { expected, found } => row(
                part,
                w,
                "runtime-profile",
                &|f| {
                    if expected == found {
                        write!(
                            f,
                            "the run-time values nest the result's {found} domain leaves otherwise than its type, derived while compiling"
                        )
                    } else {
                        write!(
                            f,
                            "the run-time values give the result {found} domain leaves, but its type, derived while compiling, has {expected}"
                        )
                    }
                },
                Some(&|f| {
                    f.write_str("make the sizes and strides that decide the result's nesting static (a tile that ends inside a run-time leaf, the strides of an `inverse`)")
                }),
            ),
            Error::RuntimeCoalesce => row(
                part,
                w,
                "runtime-leaves",
                &|f| {
                    f.write_str("coalesce: which leaves merge depends on run-time sizes and strides, so the result's modes are not known while compiling")
                },
                Some(&|f| {
                    f.write_str("coalesce a static layout, or keep every leaf a mode with `flatten`, whose result does not depend on the strides")
                }),
            ),
            Error::RuntimeComposeSize { left } => row(
                part,
                w,
                "runtime-leaves",
                &|f| {
                    let (this, other) = if left {
                        ("left", "right")
                    } else {
                        ("right", "left")
                    };
                    write!(
                        f,
                        "compose: the {this} operand's size depends on run-time leaves, but the {other} operand's is static"
                    )
                },
                Some(&|f| {
                    if left {
                        f.write_str("restrict or divide the left operand to a static tile first (`restrict(divide(G, (128, 64)), rest = (i, j))`)")
                    } else {
                        f.write_str("give the right operand static sizes: it enumerates the left operand's positions")
                    }
                }),
            ),
            Error::RuntimeConstant => row(
                part,
                w,
                "runtime-leaves",
                &|f| {
                    f.write_str(
                        "a layout with run-time values (`{expr}` leaves, a `restrict` by a \
                         run-time value) is a value, not a constant",
                    )
                },
                Some(&|f| {
                    f.write_str(
                        "use the expression form, `let g = layout!(..);` (`layout!(..)?` with \
                         run-time leaves)",
                    )
                }),
            ),
            Error::ArrangementNotDense {
                op,
                mode,
                expected,
                found,
            } => row(
                part,
                w,
                "not-dense",
                &|f| {
                    write!(
                        f,
                        "`{op}` needs a dense bijection, and the arrangement is not one (Lemma 1): sorted by stride, {mode} should have stride {expected} but has {found}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the arrangement numbers the copies, so its strides, sorted, are the running products of its sizes: stride {expected} for {mode}"
                    )
                }),
            ),
            Error::ArrangementBroadcast { op, mode, size } => row(
                part,
                w,
                "not-dense",
                &|f| {
                    write!(
                        f,
                        "`{op}` needs a dense bijection, and the arrangement is not one (Lemma 1): {mode} of size {size} is a broadcast `_`"
                    )
                },
                Some(&|f| {
                    f.write_str("an arrangement cannot broadcast; `broadcast(L, shape)` makes read-only copies at the same addresses")
                }),
            ),
            Error::BankStorage { domain, codomain } => row(
                part,
                w,
                "forbidden-spaces",
                &|f| {
                    write!(
                        f,
                        "bank conflicts need a `logical -> physical` storage map, not `{domain} -> {codomain}`"
                    )
                },
                Some(&|f| {
                    f.write_str("give the shared-memory layout as `logical -> physical` (a swizzle may follow)")
                }),
            ),
            Error::ElementBits { bits } => row(
                part,
                w,
                "access-width",
                &|f| write!(f, "element width {bits} bits is not 8, 16, 32, 64 or 128"),
                Some(&|f| {
                    f.write_str("give the element width in bits: 8, 16, 32, 64 or 128 (a copy atom that counts bits is converted to elements first)")
                }),
            ),
            Error::AccessVector {
                vector,
                bits,
                values,
            } => row(
                part,
                w,
                "access-width",
                &|f| {
                    write!(
                        f,
                        "a vector of {vector} elements of {bits} bits is not an access of 1, 2, 4, 8 or 16 bytes dividing {values} values"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "a lane moves 1, 2, 4, 8 or 16 bytes per instruction, and the vector must divide the {values} values per thread"
                    )
                }),
            ),
            Error::ThreadMode { thread_mode, rank } => row(
                part,
                w,
                "thread-mode",
                &|f| {
                    write!(
                        f,
                        "thread mode {thread_mode} of a thread-value layout with {rank} top-level modes (expected `(thread, value)`)"
                    )
                },
                Some(&|f| {
                    f.write_str("the thread-value layout has a thread mode and at most one value mode: `(thread, value)`")
                }),
            ),
            Error::NoSuchWarp { warp, threads } => row(
                part,
                w,
                "thread-mode",
                &|f| {
                    write!(
                        f,
                        "warp {warp} does not exist: the thread mode has {threads} threads"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the thread mode has {threads} threads: warps 0 to {}",
                        threads.saturating_sub(1).max(0) / crate::banks::WARP_SIZE
                    )
                }),
            ),
            Error::LaneOutOfTile {
                thread,
                value,
                index,
                size,
            } => row(
                part,
                w,
                "coordinate",
                &|f| {
                    write!(
                        f,
                        "thread {thread}, value {value} reads logical position {index}, outside [0, {size})"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the thread-value layout must map into the storage map's {size} logical positions"
                    )
                }),
            ),
            Error::TooManyInstructions { instructions } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "{instructions} instructions per warp exceed the limit of {}",
                        crate::banks::MAX_INSTRUCTIONS
                    )
                },
                Some(&|f| {
                    f.write_str("count the conflicts of one tile or one k-block: `restrict` or `divide` the layouts first")
                }),
            ),
            Error::ResidueSplit {
                mode,
                tile,
                needed,
                size,
            } => row(
                part,
                w,
                "residue-split",
                &|f| {
                    write!(
                        f,
                        "ceil-divide: tile entry {tile} leaves a residue and cuts {mode} of size {size} unevenly: {needed} positions remain for it after the faster leaves, neither of {needed} and {size} divides the other, and slower leaves follow it"
                    )
                },
                Some(&|f| {
                    f.write_str("a tile entry that does not divide its mode's size must cut the mode's slowest leaf: coalesce the mode, or choose an entry that divides its faster leaves")
                }),
            ),
            Error::ResidueOffset {
                mode,
                tensor_mode,
                coord,
                offset,
                expected,
            } => row(
                part,
                w,
                "residue-offset",
                &|f| {
                    write!(
                        f,
                        "a predicated access leaves the tensor: at global coordinate {coord} of mode {tensor_mode} the padded layout ({mode}) reaches offset {offset}, the tensor {expected}"
                    )
                },
                Some(&|f| {
                    f.write_str("build the padded layout with `residue::ceil_divide`: the rest strides are the tile entry times the tensor's strides, not the padded extents'")
                }),
            ),
            Error::ResidueShape { mode } => row(
                part,
                w,
                "residue-shape",
                &|f| {
                    write!(
                        f,
                        "the padded layout's {mode} does not have the shape of the ceil-divide's `(tile, rest)` layout"
                    )
                },
                Some(&|f| {
                    f.write_str("compare with `residue::ceil_divide(tensor, tile)?.padded()`: one tile and one rest piece per top-level mode")
                }),
            ),
            Error::PartitionRank { rank } => row(
                part,
                w,
                "partition-rank",
                &|f| {
                    write!(
                        f,
                        "a thread-value layout over a tile has the domain `(value, thread)`, but this one has {rank} top-level modes"
                    )
                },
                Some(&|f| {
                    f.write_str("group the domain into two top-level modes, values then threads (seed order; CuTe's `(thread, value)`)")
                }),
            ),
            Error::PartitionTile { reach, tile } => row(
                part,
                w,
                "partition-tile",
                &|f| {
                    write!(
                        f,
                        "the thread-value layout reaches logical positions [0, {reach}), but the tile has {tile}"
                    )
                },
                Some(&|f| {
                    f.write_str("partition the tile that was divided: its logical image must be every one of the tile's positions")
                }),
            ),
            Error::NotVector {
                thread,
                value,
                offset,
            } => row(
                part,
                w,
                "not-vector",
                &|f| {
                    write!(
                        f,
                        "thread {thread}: the vector from value {value} (offset {offset}) is not contiguous and aligned in memory"
                    )
                },
                Some(&|f| {
                    f.write_str("use a smaller vector, or a layout (and swizzle) that keeps each lane's values contiguous and aligned")
                }),
            ),
            Error::MmaAtomOperand {
                operand,
                rank,
                size,
                tile,
                threads,
                expected_threads,
            } => row(
                part,
                w,
                "mma-atom",
                &|f| {
                    if rank != 2 {
                        write!(
                            f,
                            "MMA atom operand {operand} has {rank} top-level modes, not (value, thread)"
                        )
                    } else if size != tile {
                        write!(
                            f,
                            "MMA atom operand {operand} has {size} positions but its tile has {tile}"
                        )
                    } else {
                        write!(
                            f,
                            "MMA atom operand {operand} has {threads} threads but the atom has {expected_threads}"
                        )
                    }
                },
                Some(&|f| {
                    f.write_str("give each operand as the atom's thread-value layout in seed order, `(value, thread)`, onto its tile: A `m + M·k`, B `n + N·k`, C `m + M·n` (`Layout::from_cute` reads CuTe's `ALayout`, `BLayout`, `CLayout`)")
                }),
            ),
            Error::MmaTile { dim, extent, step } => row(
                part,
                w,
                "mma-tile",
                &|f| {
                    let d = ["M", "N", "K"]
                        .get(usize::from(dim))
                        .copied()
                        .unwrap_or("?");
                    write!(
                        f,
                        "tiled MMA extent {extent} along {d} is not a positive multiple of {step}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "make the extent a multiple of {step} (the atom's extent times the warps, or the permutation tile); pad the tile or use fewer warps"
                    )
                }),
            ),
            Error::MmaWarpsK { warps } => row(
                part,
                w,
                "mma-warps-k",
                &|f| {
                    write!(
                        f,
                        "{warps} warps along K: a tiled MMA here has one warp along K"
                    )
                },
                Some(&|f| {
                    f.write_str("arrange the warps over M and N (`[m, n, 1]`), and split K in the main loop")
                }),
            ),
            Error::EmbedStride {
                stride,
                size,
                extent,
            } => row(
                part,
                w,
                "embed-stride",
                &|f| {
                    write!(
                        f,
                        "a leaf of size {size} and stride {stride} does not step along one mode of its tile (extent {extent}) without wrapping unevenly"
                    )
                },
                Some(&|f| {
                    f.write_str("each leaf of an atom's layout must step along one mode of the atom's tile, or wrap it at a multiple of its stride")
                }),
            ),
            Error::TiledCopyNotLayout => row(
                part,
                w,
                "tiled-copy",
                &|f| {
                    f.write_str("the tiled copy is not a layout of the MMA's operand: the copy atom's values do not land in the threads and values the MMA gives them")
                },
                Some(&|f| {
                    f.write_str("take a copy atom whose destination is a reference layout of the MMA's operand (e.g. `ldmatrix` for the SM80 16-bit MMA atoms), or widen the permutation tile")
                }),
            ),
            Error::FragmentSplit { values, size } => row(
                part,
                w,
                "fragment-split",
                &|f| {
                    write!(
                        f,
                        "the fastest leaves of a partition of {size} values do not make a first fragment mode of {values} values"
                    )
                },
                Some(&|f| {
                    f.write_str("give the thread's partition with the atom's values as its fastest leaves (the value entry of `TiledMma::partition_a/b` restricted to a thread)")
                }),
            ),
            Error::FragmentSwizzleLeaf { size, stride } => row(
                part,
                w,
                "fragment-swizzle-leaf",
                &|f| {
                    write!(
                        f,
                        "the leaf {size}:{stride} of a swizzled storage's partition does not cover whole bits of the offset"
                    )
                },
                Some(&|f| {
                    f.write_str("a swizzled storage's partition needs leaves whose sizes and strides are powers of two")
                }),
            ),
            Error::FragmentStrideTie { stride } => row(
                part,
                w,
                "fragment-stride-tie",
                &|f| {
                    write!(
                        f,
                        "two leaves of a thread's partition have the stride {stride}: ordered by stride they would share registers"
                    )
                },
                Some(&|f| {
                    f.write_str("a fragment ordered like its storage needs distinct strides (a broadcast has no such order)")
                }),
            ),
            Error::MmaOperandBroadcast { operand } => row(
                part,
                w,
                "mma-operand-broadcast",
                &|f| {
                    write!(
                        f,
                        "MMA operand {operand} is read whole by every thread of the atom: it has no per-thread copy"
                    )
                },
                Some(&|f| {
                    f.write_str("the instruction reads this operand from shared memory itself: fill the shared memory with a tiled copy (TMA or cp.async), or take the atom that reads A from registers (GMMA `_RS`) to copy A into them")
                }),
            ),
            Error::BroadcastRestriction => row(
                part,
                w,
                "broadcast-restriction",
                &|f| f.write_str("a restriction of a composite cannot be repeated by a broadcast"),
                Some(&|f| {
                    f.write_str("partition the whole storage map, then restrict the result; or restrict a layout or a swizzled layout (one stage of a buffer) and partition that")
                }),
            ),
            Error::CopyAtomThreads { src, dst } => row(
                part,
                w,
                "copy-atom-threads",
                &|f| {
                    if src == 0 || dst == 0 {
                        f.write_str("a copy atom's source and destination must each have two top-level modes, (value, thread)")
                    } else {
                        write!(
                            f,
                            "a copy atom's source has {src} threads but its destination {dst}"
                        )
                    }
                },
                Some(&|f| {
                    f.write_str("give the atom's `SrcLayout` and `DstLayout` in elements and seed order, `(value, thread)`, over the same threads")
                }),
            ),
            Error::CopyAtomFit {
                atom_values,
                values,
                atom_threads,
                threads,
            } => row(
                part,
                w,
                "copy-atom-fit",
                &|f| {
                    write!(
                        f,
                        "a copy atom of {atom_threads} threads × {atom_values} values does not fit an operand of {threads} threads × {values} values per tile"
                    )
                },
                Some(&|f| {
                    f.write_str("the atom's values must divide each thread's values in the MMA's permutation tile, and its threads the tiled MMA's: widen the permutation tile, or take a narrower copy atom")
                }),
            ),
            Error::CopyVector { vector, values } => row(
                part,
                w,
                "copy-vector",
                &|f| {
                    write!(
                        f,
                        "tiled copy: a vector of {vector} elements does not divide {values}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "the atom's vector divides the values per thread, and a checked width divides the atom's vector: a positive divisor of {values}"
                    )
                }),
            ),
            Error::CopyVectorAligned {
                side,
                thread,
                value,
                offset,
                base,
                width,
            } => row(
                part,
                w,
                "copy-vector-aligned",
                &|f| {
                    write!(
                        f,
                        "tiled copy: thread {thread}'s vector from value {value} starts at {side} offset {offset}, base {base}: not a multiple of the width {width}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "a vector of {width} elements starts at a multiple of {width}: pad the leading dimension or the base to a multiple of {width}, or copy with a narrower vector (`max_vector`)"
                    )
                }),
            ),
            Error::CopyVectorContiguous {
                side,
                thread,
                value,
                offset,
                expected,
            } => row(
                part,
                w,
                "copy-vector-contiguous",
                &|f| {
                    write!(
                        f,
                        "tiled copy: thread {thread}'s value {value} is at {side} offset {offset}, not {expected}: its vector is not contiguous"
                    )
                },
                Some(&|f| {
                    f.write_str("copy with a narrower vector (`max_vector`), or lay the storage out so that each thread's consecutive values are consecutive in memory")
                }),
            ),
            Error::CommonVectorSize { a, b } => row(
                part,
                w,
                "size-mismatch",
                &|f| {
                    write!(
                        f,
                        "max_common_vector: the maps have {a} and {b} logical positions"
                    )
                },
                Some(&|f| f.write_str("compare two maps of the same logical positions")),
            ),
            Error::CommonVectorTooLarge { size, limit } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "max_common_vector: inverting a map of {size} positions that is not a layout exceeds the limit of {limit}"
                    )
                },
                Some(&|f| {
                    f.write_str("give a layout or a swizzled layout as the second map, or restrict both maps to one thread's partition")
                }),
            ),
            Error::CudaName { position } => row(
                part,
                w,
                "cuda-name",
                &|f| match position {
                    None => f.write_str("the function's name is not a C identifier"),
                    Some(i) => write!(
                        f,
                        "the name of coordinate {i} is not a C identifier distinct from the function's and the other coordinates' names"
                    ),
                },
                Some(&|f| {
                    f.write_str("give letters, digits and `_`, not starting with a digit, each coordinate its own name, and no name `t0`, `t1`, …: those are the emitted code's temporaries")
                }),
            ),
            Error::CudaNames { expected, found } => row(
                part,
                w,
                "cuda-names",
                &|f| {
                    write!(
                        f,
                        "the function has {expected} coordinates, but {found} names were given"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "give one name per top-level entry of the map's domain, {expected} in all"
                    )
                }),
            ),
            Error::PerThreadEntries { entries } => row(
                part,
                w,
                "per-thread-entries",
                &|f| {
                    write!(
                        f,
                        "a map restricted to one thread needs the thread and at least one other top-level entry, but its domain has {entries}"
                    )
                },
                Some(&|f| {
                    f.write_str("give the map's domain as `(thread, value, ..)`, the thread first; a thread-only map is one function of the thread (`func`)")
                }),
            ),
            Error::CudaTooLarge { size, limit } => row(
                part,
                w,
                "too-large",
                &|f| {
                    write!(
                        f,
                        "the proof enumerates {size} positions, past the limit of {limit}"
                    )
                },
                Some(&|f| {
                    f.write_str("prove it on one tile of the map (a thread block's), whose offsets the others repeat")
                }),
            ),
            Error::VectorWidth { width, size } => row(
                part,
                w,
                "vector-width",
                &|f| {
                    write!(
                        f,
                        "a vector of {width} elements does not divide the map's last entry of size {size}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "make the vector the last top-level entry of the domain, its width a positive divisor of {size}"
                    )
                }),
            ),
            Error::VectorAligned {
                index,
                offset,
                width,
            } => row(
                part,
                w,
                "vector-aligned",
                &|f| {
                    write!(
                        f,
                        "the vector from flat index {index} starts at offset {offset}, not a multiple of its width {width}"
                    )
                },
                Some(&|f| {
                    write!(
                        f,
                        "a vector of {width} elements starts at a multiple of {width}: pad the strides, or move a narrower vector"
                    )
                }),
            ),
            Error::SplitMismatch {
                index,
                offset,
                parts,
            } => row(
                part,
                w,
                "split-mismatch",
                &|f| {
                    write!(
                        f,
                        "at flat index {index} the map's offset is {offset}, but the split's parts give {parts}"
                    )
                },
                Some(&|f| {
                    f.write_str("give the entries the swizzle mixes with the thread as XOR parts, and only bit-disjoint ones as additive parts")
                }),
            ),
            Error::TmaElement { bytes } => row(
                part,
                w,
                "tma-element",
                &|f| {
                    write!(
                        f,
                        "a tensor map's elements are 1, 2, 4 or 8 bytes, not {bytes}"
                    )
                },
                Some(&|f| f.write_str("give the element's size in bytes")),
            ),
            Error::TmaRank { rank } => row(
                part,
                w,
                "tma-rank",
                &|f| {
                    write!(
                        f,
                        "a tensor map has 1 to 5 dimensions, each one leaf of the global tensor and one top-level entry of the tile; found rank {rank}"
                    )
                },
                Some(&|f| {
                    f.write_str("flatten the global tensor to one leaf per mode, and give the tile the same modes in the same order")
                }),
            ),
            Error::TmaInnerStride => row(
                part,
                w,
                "tma-inner-stride",
                &|f| {
                    f.write_str("no mode of the global tensor has stride 1: a tensor map's innermost dimension is contiguous")
                },
                Some(&|f| {
                    f.write_str("load a tensor with a contiguous mode, or transpose the tile")
                }),
            ),
            Error::TmaStride { mode, stride } => row(
                part,
                w,
                "tma-stride",
                &|f| {
                    write!(
                        f,
                        "mode {mode}'s stride {stride} is not a positive multiple of 16 bytes below 2^40"
                    )
                },
                Some(&|f| f.write_str("pad the leading dimension to a multiple of 16 bytes")),
            ),
            Error::TmaBox { dim, size } => row(
                part,
                w,
                "tma-box",
                &|f| {
                    write!(
                        f,
                        "box dimension {dim} has {size} elements: each is 1 to 256, the innermost a multiple of 16 bytes"
                    )
                },
                Some(&|f| {
                    f.write_str("load the tile as several boxes, or widen the innermost dimension")
                }),
            ),
            Error::TmaNotBox {
                index,
                offset,
                expected,
            } => row(
                part,
                w,
                "tma-not-box",
                &|f| {
                    write!(
                        f,
                        "no tensor-map swizzle writes this layout: at flat index {index} it puts offset {offset}, the unswizzled box {expected}"
                    )
                },
                Some(&|f| {
                    f.write_str("lay the tile out row-major by the global strides, innermost contiguous, with a 32-, 64- or 128-byte swizzle or none")
                }),
            ),
            Error::TmaSwizzleSpan { bytes, span } => row(
                part,
                w,
                "tma-swizzle-span",
                &|f| {
                    write!(
                        f,
                        "the box's innermost dimension spans {bytes} bytes, more than its swizzle's {span}"
                    )
                },
                Some(&|f| {
                    f.write_str("narrow the innermost box dimension to the swizzle's span, and load the tile as several boxes")
                }),
            ),
            Error::VectorAlong {
                along,
                index,
                offset,
                expected,
            } => row(
                part,
                w,
                match along {
                    crate::cuda::Along::Contiguous => "vector-contiguous",
                    crate::cuda::Along::Constant => "vector-constant",
                },
                &|f| {
                    write!(
                        f,
                        "flat index {index} of a vector is at offset {offset}, not {expected}: the map is not {along} along the vector"
                    )
                },
                Some(&|f| {
                    f.write_str("move a narrower vector, or lay the values out so that each vector's elements are consecutive (and its row index constant)")
                }),
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// `within: [the op inside it: ]what`, the start of every CuTe-semantics diagnostic.
fn cute_prefix<O: fmt::Display + PartialEq>(
    f: &mut dyn fmt::Write,
    op: O,
    within: O,
    what: &str,
) -> fmt::Result {
    write!(f, "{within}: ")?;
    if op != within {
        write!(f, "the {op} inside it: ")?;
    }
    f.write_str(what)
}

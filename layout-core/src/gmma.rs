//! Shared-memory matrix descriptors of warpgroup MMA (`wgmma`, sm_90a), derived from a checked
//! layout of one operand tile.
//!
//! A `wgmma` reads A (64×16 for 16-bit elements) and B (N×16) from shared memory through a
//! 64-bit descriptor: the start address, a leading and a stride byte offset, a base offset and
//! the swizzle mode. The descriptor can only express the canonical layouts: core matrices of 8
//! rows × 16 bytes, rows `W·16` bytes apart (`W` = 1 without a swizzle, 2, 4, 8 for the 32-, 64-
//! and 128-byte swizzles), the 16-byte chunks of a swizzled row adjacent, the groups of core
//! matrices at uniform strides. [`descriptor`] reads these strides off the map's structure
//! (Theorem 1 on the unswizzled map, then CuTe's `make_gmma_desc` divisions), so that a layout
//! the hardware would read differently is an [`Error`] naming the reason.
//!
//! The operand tile's domain is `(K, MN)` in seed order (CuTe's `(MN, K)`), as the GMMA atoms of
//! `layout_typed::atoms` write it; offsets count elements. Byte offsets, addresses and strides
//! in a [`Descriptor`] count bytes.
//!
//! ```
//! use layout_core::gmma::{descriptor, Descriptor, Major, SwizzleMode};
//! use layout_core::{Annotated, Map, Space, Swizzle, SwizzleUnit};
//! // CuTe's Layout_K_SW128_Atom<half_t> repeated 8 times along M: a 64×16 slice of A is
//! // the first 16 columns of (64,64):(64,1) in seed order (K, M) -> (16,64):(1,64).
//! let tile: Map = Annotated::new("(16,64):(1,64)".parse()?, Space::Logical, Space::Physical)?.into();
//! let sw = Swizzle::from_cute(3, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 })?;
//! let d = descriptor(&tile.swizzle(sw)?, 2, Major::K, 0x400)?;
//! assert_eq!(d, Descriptor {
//!     start: 0x400, leading_byte_offset: 16, stride_byte_offset: 1024,
//!     base_offset: 0, swizzle: SwizzleMode::B128,
//! });
//! assert_eq!(d.encode()?, 0x4000_0040_0001_0040);
//! assert_eq!(Descriptor::from_u64(0x4000_0040_0001_0040), d);
//! # Ok::<(), layout_core::Error>(())
//! ```

use core::fmt;

use alloc::vec::Vec;

use crate::decide::decide_values;
use crate::error::Error;
use crate::map::Map;
use crate::space::Space;
use crate::swizzle::{Swizzle, SwizzleUnit};
use crate::tree::Tree;

/// Which mode of the operand tile is contiguous in shared memory: `K` (a row of the tile is
/// contiguous, CuTe's `GMMA::Major::K`, PTX "K-major", not transposed) or `MN` (a column,
/// `GMMA::Major::MN`, transposed).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Major {
    /// Contiguous along K.
    K,
    /// Contiguous along M (A) or N (B).
    MN,
}

impl fmt::Display for Major {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Major::K => "K-major",
            Major::MN => "MN-major",
        })
    }
}

/// The descriptor's layout type: the swizzle of byte addresses, CuTe's `Swizzle<B,4,3>`
/// (`B` = 0, 1, 2, 3), repeating every 128, 256, 512 or 1024 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SwizzleMode {
    /// No swizzle (CuTe `INTERLEAVE`): core matrices of 128 contiguous bytes.
    Interleave,
    /// 32-byte swizzle, `Swizzle<1,4,3>` over bytes.
    B32,
    /// 64-byte swizzle, `Swizzle<2,4,3>` over bytes.
    B64,
    /// 128-byte swizzle, `Swizzle<3,4,3>` over bytes.
    B128,
}

impl SwizzleMode {
    /// CuTe's `B` of `Swizzle<B,4,3>` (0 for [`SwizzleMode::Interleave`]).
    #[must_use]
    pub const fn bits(self) -> u32 {
        match self {
            SwizzleMode::Interleave => 0,
            SwizzleMode::B32 => 1,
            SwizzleMode::B64 => 2,
            SwizzleMode::B128 => 3,
        }
    }

    /// The bytes of one swizzled row (`16 · 2^B`): 16, 32, 64 or 128.
    #[must_use]
    pub const fn row_bytes(self) -> u32 {
        16 << self.bits()
    }

    /// The bytes after which the swizzle pattern repeats (`128 · 2^B`): 128, 256, 512 or 1024.
    #[must_use]
    pub const fn repeat_bytes(self) -> u32 {
        128 << self.bits()
    }

    /// The 2-bit layout-type field of the descriptor (bits 62–63): 0, 3, 2, 1.
    #[must_use]
    pub const fn field(self) -> u64 {
        match self {
            SwizzleMode::Interleave => 0,
            SwizzleMode::B128 => 1,
            SwizzleMode::B64 => 2,
            SwizzleMode::B32 => 3,
        }
    }
}

impl fmt::Display for SwizzleMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SwizzleMode::Interleave => "no swizzle",
            SwizzleMode::B32 => "the 32-byte swizzle",
            SwizzleMode::B64 => "the 64-byte swizzle",
            SwizzleMode::B128 => "the 128-byte swizzle",
        })
    }
}

/// One of the two byte-offset fields of a [`Descriptor`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ByteOffset {
    /// The leading-dimension byte offset (LBO).
    Leading,
    /// The stride-dimension byte offset (SBO).
    Stride,
}

impl fmt::Display for ByteOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ByteOffset::Leading => "leading byte offset",
            ByteOffset::Stride => "stride byte offset",
        })
    }
}

/// A `wgmma` shared-memory matrix descriptor, its fields in bytes (the encoding drops the 4
/// low bits of each). `start` is the shared-memory address of the tile's element (0, 0);
/// `base_offset` is 0 for every descriptor [`descriptor`] returns (it requires the swizzle
/// pattern to start at the buffer's address).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Descriptor {
    /// Shared-memory address of the tile's first element, in bytes (a multiple of 16 below
    /// 2^18).
    pub start: u32,
    /// Leading-dimension byte offset (a multiple of 16 below 2^18).
    pub leading_byte_offset: u32,
    /// Stride-dimension byte offset (a multiple of 16 below 2^18).
    pub stride_byte_offset: u32,
    /// The 3-bit base offset (bits 49–51).
    pub base_offset: u8,
    /// The layout type.
    pub swizzle: SwizzleMode,
}

/// The largest byte value a 14-bit field of 16-byte units holds.
const FIELD_MAX: i64 = ((1 << 14) - 1) * 16;

impl Descriptor {
    /// The 64-bit descriptor of the PTX ISA: start address, LBO and SBO in 16-byte units in
    /// bits 0–13, 16–29 and 32–45, the base offset in bits 49–51, the layout type in 62–63.
    ///
    /// # Errors
    /// [`Error::GmmaStartAlignment`] / [`Error::GmmaStartRange`] for a start that is not a
    /// multiple of 16 or past 14 bits of 16-byte units, [`Error::GmmaByteOffsetAlignment`] /
    /// [`Error::GmmaByteOffsetRange`] likewise for LBO and SBO, [`Error::GmmaBaseOffsetRange`]
    /// for a base offset past 3 bits. Never for a descriptor from [`descriptor`].
    pub fn encode(&self) -> Result<u64, Error> {
        let start = check_start(i64::from(self.start))?;
        let lbo = check_offset(ByteOffset::Leading, i64::from(self.leading_byte_offset))?;
        let sbo = check_offset(ByteOffset::Stride, i64::from(self.stride_byte_offset))?;
        if self.base_offset > 7 {
            return Err(Error::GmmaBaseOffsetRange {
                base_offset: self.base_offset,
            });
        }
        Ok(u64::from(start >> 4)
            | (u64::from(lbo >> 4) << 16)
            | (u64::from(sbo >> 4) << 32)
            | (u64::from(self.base_offset) << 49)
            | (self.swizzle.field() << 62))
    }

    /// The fields of a 64-bit descriptor (the bits outside the fields are ignored).
    #[must_use]
    pub const fn from_u64(bits: u64) -> Descriptor {
        Descriptor {
            start: field(bits, 0),
            leading_byte_offset: field(bits, 16),
            stride_byte_offset: field(bits, 32),
            base_offset: ((bits >> 49) & 7) as u8,
            swizzle: match bits >> 62 {
                0 => SwizzleMode::Interleave,
                1 => SwizzleMode::B128,
                2 => SwizzleMode::B64,
                _ => SwizzleMode::B32,
            },
        }
    }
}

/// The 14-bit field at `shift`, in bytes (16-byte units, so below 2^18).
const fn field(bits: u64, shift: u32) -> u32 {
    (((bits >> shift) & 0x3fff) as u32) << 4
}

/// A start address as the field needs it.
fn check_start(address: i64) -> Result<u32, Error> {
    if address.checked_rem_euclid(16) != Some(0) {
        return Err(Error::GmmaStartAlignment { address });
    }
    match u32::try_from(address) {
        Ok(a) if i64::from(a) <= FIELD_MAX => Ok(a),
        _ => Err(Error::GmmaStartRange { address }),
    }
}

/// A byte offset as its field needs it.
fn check_offset(field: ByteOffset, bytes: i64) -> Result<u32, Error> {
    if bytes.checked_rem_euclid(16) != Some(0) {
        return Err(Error::GmmaByteOffsetAlignment { field, bytes });
    }
    match u32::try_from(bytes) {
        Ok(b) if i64::from(b) <= FIELD_MAX => Ok(b),
        _ => Err(Error::GmmaByteOffsetRange { field, bytes }),
    }
}

/// The one swizzle on the map's path to its offsets, if any.
fn find_swizzle(map: &Map) -> Result<Option<Swizzle>, Error> {
    match map {
        Map::Layout(_) => Ok(None),
        Map::Swizzled { swizzle, inner } => match find_swizzle(inner)? {
            None => Ok(Some(*swizzle)),
            Some(_) => Err(Error::GmmaTwoSwizzles),
        },
        Map::Composite(c) => find_swizzle(&c.left()),
        Map::Restricted { inner, .. } => find_swizzle(inner),
    }
}

/// The descriptor's layout type for the map's swizzle (element units) and element width.
fn swizzle_mode(swizzle: Option<Swizzle>, element_bytes: i64) -> Result<SwizzleMode, Error> {
    let Some(s) = swizzle else {
        return Ok(SwizzleMode::Interleave);
    };
    if s.bits() == 0 {
        return Ok(SwizzleMode::Interleave);
    }
    let elem_bits = u32::try_from(element_bytes.saturating_mul(8)).unwrap_or(u32::MAX);
    for mode in [SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128] {
        let b = i64::from(mode.bits());
        if Swizzle::from_cute(b, 4, 3, SwizzleUnit::Bytes { elem_bits }) == Ok(s) {
            return Ok(mode);
        }
    }
    Err(Error::GmmaSwizzle {
        b: s.bits(),
        src: s.src(),
        dst: s.dst(),
        elem_bits,
    })
}

/// The `(K, MN)` sizes of the domain: its two top-level entries, or the two entries of its one
/// entry (a restriction that keeps one tile of a divide).
fn entry_sizes(map: &Map) -> Result<(i64, i64), Error> {
    let shape = map.domain_shape();
    let size = |t: &Tree<i64>| t.leaves().into_iter().product::<i64>();
    let pair = |v: &[Tree<i64>]| match v {
        [k, mn] => Some((size(k), size(mn))),
        _ => None,
    };
    match &shape {
        Tree::Tuple(v) => match v.as_slice() {
            [Tree::Tuple(inner)] => pair(inner),
            v => pair(v),
        },
        Tree::Leaf(_) => None,
    }
    .ok_or(Error::GmmaEntries {
        entries: match &shape {
            Tree::Tuple(v) => v.len(),
            Tree::Leaf(_) => 1,
        },
    })
}

/// An entry's function as pieces `(size, stride in bytes)`, fastest first.
type Pieces = Vec<(i64, i64)>;

/// The first `d` positions of `pieces` as one stride, and the rest: `None` when the first `d`
/// positions are not equally spaced (the coarsest refinement has no piece that starts with
/// them).
fn split(pieces: &[(i64, i64)], d: i64) -> Result<Option<(i64, Pieces)>, Error> {
    let overflow = Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Offset,
    };
    let Some(&(n, s)) = pieces.first() else {
        return Ok(None);
    };
    if n.checked_rem(d) != Some(0) {
        return Ok(None);
    }
    let mut rest = Vec::with_capacity(pieces.len());
    let q = n.checked_div(d).ok_or(overflow)?;
    if q > 1 {
        rest.push((q, s.checked_mul(d).ok_or(overflow)?));
    }
    rest.extend_from_slice(&pieces[1..]);
    Ok(Some((s, rest)))
}

/// The rest of an entry as one stride: `Some(0)` when it is empty (one group, whose stride the
/// hardware does not read), `None` when it has two or more pieces.
fn uniform(rest: &[(i64, i64)]) -> Option<i64> {
    match rest {
        [] => Some(0),
        [(_, s)] => Some(*s),
        _ => None,
    }
}

/// The descriptor of one `wgmma` operand tile in shared memory.
///
/// `smem` maps the tile's positions, domain `(K, MN)` in seed order (CuTe's `(MN, K)`; two
/// top-level entries, or one entry holding the two), to element offsets from the buffer at
/// shared-memory address `start` (bytes), possibly under a GMMA swizzle (CuTe's
/// `Swizzle<B,4,3>` over bytes of `element_bytes`-byte elements). The tile is the one a
/// dense `wgmma` reads: K spans 32 bytes (16 16-bit, 8 32-bit or 32 8-bit elements), MN a
/// multiple of 8 rows. The returned descriptor's start is `start + element_bytes · offset(0,
/// 0)`; with it, the hardware's address of every position equals `start + element_bytes ·
/// smem(position)`.
///
/// The map is read as CuTe's `make_gmma_desc` reads a tensor: its unswizzled offsets are
/// decided to be a layout (Theorem 1), each entry's coarsest refinement is divided into core
/// matrices, and their strides are checked and become LBO and SBO, in bytes. K-major: rows of
/// a core matrix `W·16` bytes apart, the K chunks 16 bytes apart under a swizzle (LBO 16, not
/// read) or LBO apart without one, the groups of 8 rows SBO apart. MN-major: `W` chunks of 16
/// bytes contiguous along MN, their groups LBO apart under a swizzle (SBO without one), the K
/// rows `W·16` bytes apart in groups of 8, those SBO apart (LBO without a swizzle). A stride
/// the hardware never reads (one group) is 0.
///
/// # Errors
/// In this order: [`Error::GmmaElementBytes`] unless `element_bytes` is 1, 2 or 4;
/// [`Error::GmmaSpaces`] unless `smem` is logical -> physical; [`Error::GmmaEntries`] unless
/// the domain has the two entries; [`Error::GmmaTwoSwizzles`]; [`Error::GmmaSwizzle`] for a
/// swizzle that is not a GMMA swizzle of this element width; [`Error::GmmaBaseOffset`] when
/// `start` is not a multiple of the swizzle's repeat (the pattern would need a base offset);
/// [`Error::GmmaKExtent`] unless K spans 32 bytes; [`Error::GmmaMnExtent`] unless MN is a
/// multiple of the core matrices' (and swizzle row's) width; [`Error::GmmaNotLayout`] when the
/// unswizzled offsets are not a layout of `(K, MN)`; [`Error::GmmaCoreMatrix`] when a core
/// matrix's 16-byte row is not contiguous; [`Error::GmmaSwizzleRow`] when a swizzled row's
/// 16-byte chunks are not adjacent; [`Error::GmmaRowPitch`] when the 8 rows of a core matrix
/// are not `W·16` bytes apart (a swizzle that does not match the layout's row width);
/// [`Error::GmmaStride`] when the groups of core matrices have no single stride;
/// [`Error::GmmaByteOffsetAlignment`] / [`Error::GmmaByteOffsetRange`] for an LBO or SBO that
/// is not a multiple of 16 bytes or past the 14-bit field; [`Error::GmmaStartAlignment`] /
/// [`Error::GmmaStartRange`] for the tile's start address; [`Error::DecideTooLarge`] past
/// [`crate::DECIDE_LIMIT`] positions; [`Error::Overflow`].
pub fn descriptor(
    smem: &Map,
    element_bytes: i64,
    major: Major,
    start: u32,
) -> Result<Descriptor, Error> {
    let overflow = Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Offset,
    };
    if !matches!(element_bytes, 1 | 2 | 4) {
        return Err(Error::GmmaElementBytes {
            bytes: element_bytes,
        });
    }
    if (smem.domain(), smem.codomain()) != (Space::Logical, Space::Physical) {
        return Err(Error::GmmaSpaces {
            domain: smem.domain(),
            codomain: smem.codomain(),
        });
    }
    let (k, mn) = entry_sizes(smem)?;
    let swizzle = find_swizzle(smem)?;
    let mode = swizzle_mode(swizzle, element_bytes)?;
    if start.checked_rem(mode.repeat_bytes()) != Some(0) && mode != SwizzleMode::Interleave {
        return Err(Error::GmmaBaseOffset {
            start,
            repeat: mode.repeat_bytes(),
        });
    }
    let k_bytes = k.checked_mul(element_bytes).ok_or(overflow)?;
    if k_bytes != 32 {
        return Err(Error::GmmaKExtent {
            elements: k,
            bytes: k_bytes,
        });
    }
    // Elements per 16-byte chunk, and the width W of a swizzled row in chunks.
    let t = 16i64.checked_div(element_bytes).ok_or(overflow)?;
    let w = i64::from(1u32 << mode.bits());
    let rows = match major {
        Major::K => 8,
        Major::MN => t.checked_mul(w).ok_or(overflow)?,
    };
    if mn.checked_rem(rows) != Some(0) {
        return Err(Error::GmmaMnExtent {
            major,
            swizzle: mode,
            extent: mn,
            multiple: rows,
        });
    }
    // The unswizzled offsets at every position (the swizzle is an involution), less the
    // tile's first; then Theorem 1 per entry.
    let size = k.checked_mul(mn).ok_or(overflow)?;
    if size > crate::DECIDE_LIMIT {
        return Err(Error::DecideTooLarge {
            size,
            limit: crate::DECIDE_LIMIT,
        });
    }
    let unswizzle = |v: i64| swizzle.map_or(v, |s| s.apply(v));
    let first = unswizzle(smem.eval_index(0)?);
    let values = (0..size)
        .map(|i| {
            unswizzle(smem.eval_index(i)?)
                .checked_sub(first)
                .ok_or(overflow)
        })
        .collect::<Result<Vec<i64>, Error>>()?;
    let chains = decide_values(&[k, mn], &values).map_err(|_| Error::GmmaNotLayout)?;
    let pieces = |e: usize| -> Result<Pieces, Error> {
        let c = &chains[e];
        c.shape
            .iter()
            .zip(&c.strides)
            .rev()
            .map(|(&n, &s)| Ok((n, s.checked_mul(element_bytes).ok_or(overflow)?)))
            .collect()
    };
    let (kp, mnp) = (pieces(0)?, pieces(1)?);
    let row = i64::from(mode.row_bytes());
    // The contiguous mode: its first 16 bytes one core-matrix row.
    let contiguous = match major {
        Major::K => &kp,
        Major::MN => &mnp,
    };
    let rest_c = match split(contiguous, t)? {
        Some((s, r)) if s == element_bytes => r,
        _ => return Err(Error::GmmaCoreMatrix { major }),
    };
    // The other mode: rows of core matrices, 8 of them `row` bytes apart.
    let strided = match major {
        Major::K => &mnp,
        Major::MN => &kp,
    };
    let rest_s = match split(strided, 8)? {
        Some((p, r)) if p == row => r,
        found => {
            return Err(Error::GmmaRowPitch {
                major,
                swizzle: mode,
                expected: row,
                found: found.map(|(p, _)| p),
            });
        }
    };
    let (lbo, sbo) = match (major, mode) {
        (Major::K, SwizzleMode::Interleave) => {
            // Two chunks of K, LBO apart; groups of 8 rows SBO apart.
            let lbo = uniform(&rest_c).ok_or(Error::GmmaStride {
                field: ByteOffset::Leading,
            })?;
            let sbo = uniform(&rest_s).ok_or(Error::GmmaStride {
                field: ByteOffset::Stride,
            })?;
            (lbo, sbo)
        }
        (Major::K, _) => {
            // The two chunks of K adjacent in the swizzled row; LBO is not read (CuTe: 1).
            match uniform(&rest_c) {
                Some(16) => {}
                found => {
                    return Err(Error::GmmaSwizzleRow {
                        major,
                        swizzle: mode,
                        found,
                    });
                }
            }
            let sbo = uniform(&rest_s).ok_or(Error::GmmaStride {
                field: ByteOffset::Stride,
            })?;
            (16, sbo)
        }
        (Major::MN, SwizzleMode::Interleave) => {
            // Chunks along MN SBO apart; groups of 8 K rows LBO apart.
            let sbo = uniform(&rest_c).ok_or(Error::GmmaStride {
                field: ByteOffset::Stride,
            })?;
            let lbo = uniform(&rest_s).ok_or(Error::GmmaStride {
                field: ByteOffset::Leading,
            })?;
            (lbo, sbo)
        }
        (Major::MN, _) => {
            // W chunks adjacent along MN (the swizzled row), their groups LBO apart; groups of
            // 8 K rows SBO apart.
            let (lbo, sbo) = match split(&rest_c, w)? {
                Some((16, r)) => (
                    uniform(&r).ok_or(Error::GmmaStride {
                        field: ByteOffset::Leading,
                    })?,
                    uniform(&rest_s).ok_or(Error::GmmaStride {
                        field: ByteOffset::Stride,
                    })?,
                ),
                found => {
                    return Err(Error::GmmaSwizzleRow {
                        major,
                        swizzle: mode,
                        found: found.map(|(s, _)| s),
                    });
                }
            };
            (lbo, sbo)
        }
    };
    let leading_byte_offset = check_offset(ByteOffset::Leading, lbo)?;
    let stride_byte_offset = check_offset(ByteOffset::Stride, sbo)?;
    let first_bytes = first.checked_mul(element_bytes).ok_or(overflow)?;
    let address = i64::from(start).checked_add(first_bytes).ok_or(overflow)?;
    Ok(Descriptor {
        start: check_start(address)?,
        leading_byte_offset,
        stride_byte_offset,
        base_offset: 0,
        swizzle: mode,
    })
}

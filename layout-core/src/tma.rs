//! Tensor-memory-accelerator (TMA) tensor maps derived from checked layouts: the fields of a
//! tiled tensor map (CUDA's `cuTensorMapEncodeTiled`) that loads a tile of a global tensor into
//! shared memory exactly as a given shared-memory layout lays it out.
//!
//! A tiled tensor map copies a *box* of the global tensor (`box[d]` elements along dimension
//! `d`, dimension 0 the innermost: stride 1 in global memory) into shared memory in row-major
//! order of the box, dimension 0 fastest, and then XORs the byte address with its swizzle: for
//! `SWIZZLE_128B` the 16-byte chunk bits `[4, 7)` with bits `[7, 10)` (`SWIZZLE_64B`: two bits,
//! `SWIZZLE_32B`: one). [`tensor_map`] decides whether a shared-memory map is that image for
//! some swizzle, checking every position, and returns the fields; what no tensor map can write
//! is an error naming the reason.
//!
//! Dimensions here are in CUDA's order (innermost first); the layouts are in seed order (the
//! last mode fastest), so a K-major M×K matrix, CuTe `(M,K):(ld,1)`, is the seed layout
//! `(K,M):(1,ld)` and its tensor map has `global_dims = [K, M]`.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::Error;
use crate::layout::Layout;
use crate::map::Map;
use crate::tree::Stride;

/// The most positions [`tensor_map`] checks one by one.
pub const TMA_CHECK_LIMIT: i64 = 1 << 22;

/// A tensor map's shared-memory swizzle (`CU_TENSOR_MAP_SWIZZLE_*`): the byte-address bits
/// `[4, 4 + b)` XOR'd with `[7, 7 + b)`, `b` = 0, 1, 2, 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmaSwizzle {
    /// No swizzle.
    None,
    /// 32-byte swizzle span: one bit.
    B32,
    /// 64-byte swizzle span: two bits.
    B64,
    /// 128-byte swizzle span: three bits.
    B128,
}

impl TmaSwizzle {
    /// Every mode, the plain one first.
    pub const ALL: [TmaSwizzle; 4] = [
        TmaSwizzle::None,
        TmaSwizzle::B32,
        TmaSwizzle::B64,
        TmaSwizzle::B128,
    ];

    /// The number of XOR'd bits.
    #[must_use]
    pub const fn bits(self) -> u32 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 2,
            TmaSwizzle::B128 => 3,
        }
    }

    /// The most bytes the box's innermost dimension may span (`None`: no limit here beyond the
    /// box's own, 0 is returned).
    #[must_use]
    pub const fn span(self) -> i64 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 32,
            TmaSwizzle::B64 => 64,
            TmaSwizzle::B128 => 128,
        }
    }

    /// The shared-memory byte address `addr` after the swizzle.
    #[must_use]
    pub const fn apply(self, addr: i64) -> i64 {
        let mask: i64 = match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 3,
            TmaSwizzle::B128 => 7,
        };
        addr ^ (((addr >> 7) & mask) << 4)
    }
}

/// The fields of a tiled tensor map (`cuTensorMapEncodeTiled`), dimensions innermost first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The element's size in bytes.
    pub element_bytes: i64,
    /// The global tensor's extent per dimension (`globalDim`).
    pub global_dims: Vec<i64>,
    /// The byte stride of each dimension but the innermost (`globalStrides`, rank − 1 entries).
    pub global_strides: Vec<i64>,
    /// The box: elements per dimension (`boxDim`).
    pub box_dims: Vec<i64>,
    /// The step per dimension (`elementStrides`): 1 each, a dense box.
    pub element_strides: Vec<i64>,
    /// The shared-memory swizzle.
    pub swizzle: TmaSwizzle,
    /// The seed-order mode of the global layout (and of the shared-memory tile) that each
    /// dimension is.
    pub modes: Vec<usize>,
}

impl TensorMap {
    /// The shared-memory element offset, from the box's start, of box element `x` (one index
    /// per dimension, innermost first): the row-major byte offset swizzled, in elements.
    ///
    /// # Errors
    /// [`Error::Overflow`] on overflow (not for boxes [`tensor_map`] returns).
    pub fn smem_offset(&self, x: &[i64]) -> Result<i64, Error> {
        let overflow = Error::Overflow {
            mode: crate::ModePath::ROOT,
            what: crate::Quantity::Offset,
        };
        let mut linear = 0i64;
        for (d, &xi) in x.iter().enumerate().rev() {
            linear = linear
                .checked_mul(self.box_dims[d])
                .and_then(|l| l.checked_add(xi))
                .ok_or(overflow)?;
        }
        let bytes = linear.checked_mul(self.element_bytes).ok_or(overflow)?;
        self.swizzle
            .apply(bytes)
            .checked_div(self.element_bytes)
            .ok_or(overflow)
    }
}

/// The tensor map that loads a tile of `global` into shared memory as `smem` lays it out.
///
/// - `global`: the global tensor, seed order, one leaf per top-level mode (its extents and
///   strides known at run time), strides in elements; one mode must have stride 1 (the
///   innermost dimension).
/// - `smem`: a checked `logical -> physical` map of one tile (one stage), its top-level domain
///   entries the same modes in the same order, offsets in elements from the tile's start.
/// - `element_bytes`: 1, 2, 4 or 8.
///
/// The box is the tile; its dimensions are the global modes ordered by stride (the stride-1
/// mode first). The swizzle is the mode (of the four) under which the tensor map's image of the
/// box equals `smem` at every position; the check enumerates the tile (at most
/// [`TMA_CHECK_LIMIT`] positions). The shared-memory start of each box must be aligned to
/// 128 bytes, and to 1024 bytes for a swizzle (the swizzle reads address bits 7–9): the caller
/// places stages so.
///
/// ```
/// use layout_core::tma::{tensor_map, TmaSwizzle};
/// use layout_core::{Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
/// // A 300×200 K-major fp16 matrix (CuTe (300,200):(208,1)), a 128×64 tile of it in shared
/// // memory as CuTe's SW128 K-major atom tiled to (128, 64).
/// let global = Layout::from_cute("(300,200):(208,1)")?;
/// let tile: Map = Annotated::new(Layout::from_cute("(128,64):(64,1)")?, Space::Logical, Space::Physical)?.into();
/// let smem = tile.swizzle(Swizzle::from_cute(3, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 })?)?;
/// let t = tensor_map(&global, &smem, 2)?;
/// assert_eq!(t.global_dims, vec![200, 300]);
/// assert_eq!(t.global_strides, vec![416]);
/// assert_eq!(t.box_dims, vec![64, 128]);
/// assert_eq!(t.swizzle, TmaSwizzle::B128);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::TmaRank`] for a rank outside 1..=5, a mode of `global` that is not one leaf, or a
/// tile whose entries are not `global`'s modes; [`Error::TmaElement`] for an element size other
/// than 1, 2, 4, 8; [`Error::TmaInnerStride`] when no mode has stride 1;
/// [`Error::TmaStride`] for another stride whose bytes are not a positive multiple of 16 below
/// 2^40; [`Error::TmaBox`] for a box extent outside 1..=256, or an innermost box extent whose
/// bytes are not a multiple of 16; [`Error::TmaNotBox`] when no swizzle's image of the box is
/// `smem` (the first position where the unswizzled image differs); [`Error::TmaSwizzleSpan`]
/// when the innermost box extent spans more bytes than every matching swizzle allows;
/// [`Error::CudaTooLarge`] past [`TMA_CHECK_LIMIT`]; evaluation errors.
pub fn tensor_map(global: &Layout, smem: &Map, element_bytes: i64) -> Result<TensorMap, Error> {
    if ![1, 2, 4, 8].contains(&element_bytes) {
        return Err(Error::TmaElement {
            bytes: element_bytes,
        });
    }
    let modes = global.modes();
    let rank = global.rank();
    if !(1..=5).contains(&rank) || modes.len() != rank {
        return Err(Error::TmaRank { rank });
    }
    let tile = smem.domain_entry_sizes();
    if tile.len() != rank {
        return Err(Error::TmaRank { rank: tile.len() });
    }
    // CUDA's dimension order: the stride-1 mode first, then by stride.
    let stride = |m: usize| -> i64 {
        match modes[m].stride {
            Stride::Int(s) => s,
            Stride::Broadcast => 0,
        }
    };
    let Some(inner) = (0..rank).find(|&m| stride(m) == 1) else {
        return Err(Error::TmaInnerStride);
    };
    let mut order: Vec<usize> = (0..rank).filter(|&m| m != inner).collect();
    order.sort_by_key(|&m| stride(m));
    order.insert(0, inner);
    let mut global_strides = Vec::new();
    for &m in order.iter().skip(1) {
        let bytes = stride(m)
            .checked_mul(element_bytes)
            .filter(|&b| b > 0 && b.checked_rem(16) == Some(0) && b < (1i64 << 40))
            .ok_or(Error::TmaStride {
                mode: m,
                stride: stride(m),
            })?;
        global_strides.push(bytes);
    }
    let box_dims: Vec<i64> = order.iter().map(|&m| tile[m]).collect();
    for (d, &b) in box_dims.iter().enumerate() {
        let inner_ok = d != 0
            || b.checked_mul(element_bytes)
                .is_some_and(|x| x.checked_rem(16) == Some(0));
        if !(1..=256).contains(&b) || !inner_ok {
            return Err(Error::TmaBox { dim: d, size: b });
        }
    }
    let size = smem.size();
    if size > TMA_CHECK_LIMIT {
        return Err(Error::CudaTooLarge {
            size,
            limit: TMA_CHECK_LIMIT,
        });
    }
    let mut map = TensorMap {
        element_bytes,
        global_dims: order.iter().map(|&m| modes[m].size).collect(),
        global_strides,
        box_dims,
        element_strides: vec![1; rank],
        swizzle: TmaSwizzle::None,
        modes: order.clone(),
    };
    // The first mismatch of the plain image, reported if no swizzle matches.
    let mut first_plain: Option<(i64, i64, i64)> = None;
    // The first swizzle whose image matched but whose span is too narrow.
    let mut span_refusal: Option<Error> = None;
    'modes: for sw in TmaSwizzle::ALL {
        map.swizzle = sw;
        let mut x = vec![0i64; rank];
        for index in 0..size {
            // The tile coordinate of `index` (seed order, last entry fastest), as box indices.
            let mut r = index;
            for m in (0..rank).rev() {
                let c = r.checked_rem(tile[m]).unwrap_or(0);
                r = r.checked_div(tile[m]).unwrap_or(0);
                if let Some(d) = order.iter().position(|&o| o == m) {
                    x[d] = c;
                }
            }
            let want = smem.eval_index(index)?;
            let got = map.smem_offset(&x)?;
            if want != got {
                if sw == TmaSwizzle::None {
                    first_plain = Some((index, want, got));
                }
                continue 'modes;
            }
        }
        let inner_bytes = map.box_dims[0]
            .checked_mul(element_bytes)
            .unwrap_or(i64::MAX);
        if sw != TmaSwizzle::None && inner_bytes > sw.span() {
            // A wider swizzle may write the same image (on a tile too small to reach its
            // higher address bits): refuse only if none does.
            span_refusal.get_or_insert(Error::TmaSwizzleSpan {
                bytes: inner_bytes,
                span: sw.span(),
            });
            continue 'modes;
        }
        return Ok(map);
    }
    if let Some(e) = span_refusal {
        return Err(e);
    }
    let (index, offset, expected) = first_plain.unwrap_or((0, 0, 0));
    Err(Error::TmaNotBox {
        index,
        offset,
        expected,
    })
}

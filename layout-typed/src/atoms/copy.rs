//! Copy atoms: `ldmatrix` (`include/cute/atom/copy_traits_sm75.hpp`) and `stmatrix`
//! (`include/cute/atom/copy_traits_sm90.hpp`), in bits as CuTe writes them and in 16-bit
//! elements, and [`bits_to_elements`] for other element widths.
//!
//! Written from the corpus (`tests/data/cute_corpus.json`, op `copy_atom`): the `_BITS`
//! layouts are the case's CuTe text; the `_B16` layouts are `bits_to_elements(_, 16)` of it; a
//! broadcast's `_B16_DENSE` part is the `_B16` text with its stride-0 leaves removed. No
//! generator keeps them in step with it: `tests/tests/atoms.rs` compares every constant with
//! the case's bits, converted to 16-bit elements independently, at every coordinate, and
//! `tests/tests/atoms_cpp.rs` with CuTe C++ over the CUTLASS 4.2 headers (the `_B16` layouts
//! with `Copy_Atom<OP, half_t>`'s element layouts; they agree everywhere).

use alloc::vec::Vec;
use core::fmt;

use layout_core::{Layout, Stride, Tree};

/// Why a bit-level thread-value layout has no form in elements of a given width
/// ([`bits_to_elements`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElementsError {
    /// The element width is not positive.
    Width(i64),
    /// The layout is not a (thread, value) pair: its top level has `rank` modes, not 2.
    NotThreadValue {
        /// The number of top-level modes.
        rank: usize,
    },
    /// The fastest values of a thread are not the consecutive bits of whole elements: the next
    /// leaf of the value mode (fastest first) has size `size` and stride `stride`, where stride
    /// `expected` (the bits gathered so far) and a size dividing or divisible by `remaining`
    /// (the bits still missing from the first element) would continue the element.
    NotContiguous {
        /// Size of the leaf.
        size: i64,
        /// Its stride, in bits.
        stride: Stride,
        /// The stride that would continue the element's bits.
        expected: i64,
        /// Bits of the first element still missing before this leaf.
        remaining: i64,
    },
    /// The value mode has only `bits` consecutive bits per thread, fewer than one element.
    TooFewBits {
        /// The consecutive bits found.
        bits: i64,
        /// The element width.
        width: i64,
    },
    /// A stride (in bits) is not a multiple of the width, so an element would start inside
    /// another one.
    Misaligned {
        /// Size of the leaf.
        size: i64,
        /// Its stride, in bits.
        stride: i64,
        /// The element width.
        width: i64,
    },
    /// `layout-core` rejected the converted layout (it cannot once the checks above pass).
    Layout(layout_core::Error),
}

impl fmt::Display for ElementsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementsError::Width(w) => write!(f, "element width {w} is not positive"),
            ElementsError::NotThreadValue { rank } => write!(
                f,
                "not a (thread, value) layout: the top level has {rank} modes, not 2"
            ),
            ElementsError::NotContiguous {
                size,
                stride,
                expected,
                remaining,
            } => write!(
                f,
                "the bits of one element are not consecutive values of a thread: a value leaf of size {size} has stride {stride}, but stride {expected} with a size dividing or divisible by {remaining} would continue the element"
            ),
            ElementsError::TooFewBits { bits, width } => write!(
                f,
                "each thread holds runs of only {bits} consecutive bits, fewer than one {width}-bit element"
            ),
            ElementsError::Misaligned {
                size,
                stride,
                width,
            } => write!(
                f,
                "a leaf of size {size} has stride {stride} bits, not a multiple of the {width}-bit element: an element would start inside another"
            ),
            ElementsError::Layout(e) => write!(f, "{e}"),
        }
    }
}

impl From<layout_core::Error> for ElementsError {
    fn from(e: layout_core::Error) -> Self {
        ElementsError::Layout(e)
    }
}

/// A shape and stride tree pair.
type Part = (Tree<i64>, Tree<Stride>);

/// The bits still to gather into the first element, and the stride that continues it.
struct Gather {
    remaining: i64,
    next: i64,
}

/// Removes the fastest leaves of a value mode (seed order: the last leaf is the fastest) that
/// make up the first element's bits; `None` when nothing is left.
fn gather(
    shape: &Tree<i64>,
    stride: &Tree<Stride>,
    g: &mut Gather,
) -> Result<Option<Part>, ElementsError> {
    match (shape, stride) {
        (Tree::Tuple(s), Tree::Tuple(d)) => {
            let mut kept = Vec::new();
            for (a, b) in s.iter().zip(d).rev() {
                if let Some(p) = gather(a, b, g)? {
                    kept.push(p);
                }
            }
            kept.reverse();
            Ok(match kept.len() {
                0 => None,
                1 => kept.pop(),
                _ => {
                    let (s, d) = kept.into_iter().unzip();
                    Some((Tree::Tuple(s), Tree::Tuple(d)))
                }
            })
        }
        (Tree::Leaf(n), Tree::Leaf(d)) => {
            let (n, d) = (*n, *d);
            if g.remaining == 1 || n == 1 {
                return Ok(Some((Tree::Leaf(n), Tree::Leaf(d))));
            }
            let fail = ElementsError::NotContiguous {
                size: n,
                stride: d,
                expected: g.next,
                remaining: g.remaining,
            };
            if d != Stride::Int(g.next) {
                return Err(fail);
            }
            // Sizes are at least 1 and `remaining` divides the width (at least 1); a stride that
            // would continue the element past i64 does not exist, so the leaf cannot.
            if g.remaining.checked_rem(n) == Some(0) {
                g.remaining = g.remaining.checked_div(n).ok_or_else(|| fail.clone())?;
                g.next = g.next.checked_mul(n).ok_or_else(|| fail.clone())?;
                Ok(None)
            } else if n.checked_rem(g.remaining) == Some(0) {
                let continued = g
                    .next
                    .checked_mul(g.remaining)
                    .ok_or_else(|| fail.clone())?;
                let piece = (
                    n.checked_div(g.remaining).ok_or_else(|| fail.clone())?,
                    Stride::Int(continued),
                );
                g.next = continued;
                g.remaining = 1;
                Ok(Some((Tree::Leaf(piece.0), Tree::Leaf(piece.1))))
            } else {
                Err(fail)
            }
        }
        // `Layout` keeps shape and stride of the same profile.
        _ => Err(ElementsError::NotThreadValue { rank: 0 }),
    }
}

/// Divides every stride of a part by the width (broadcasts stay; a size-1 leaf, whose stride is
/// never used, gets 0 where its stride is not a multiple).
fn divide(
    shape: &Tree<i64>,
    stride: &Tree<Stride>,
    width: i64,
) -> Result<Tree<Stride>, ElementsError> {
    match (shape, stride) {
        (Tree::Tuple(s), Tree::Tuple(d)) => Ok(Tree::Tuple(
            s.iter()
                .zip(d)
                .map(|(a, b)| divide(a, b, width))
                .collect::<Result<Vec<_>, _>>()?,
        )),
        (Tree::Leaf(n), Tree::Leaf(Stride::Int(d))) => {
            // `width` is positive (checked by the caller).
            if let (Some(0), Some(q)) = (d.checked_rem(width), d.checked_div(width)) {
                Ok(Tree::Leaf(Stride::Int(q)))
            } else if *n == 1 {
                Ok(Tree::Leaf(Stride::Int(0)))
            } else {
                Err(ElementsError::Misaligned {
                    size: *n,
                    stride: *d,
                    width,
                })
            }
        }
        (Tree::Leaf(_), Tree::Leaf(Stride::Broadcast)) => Ok(Tree::Leaf(Stride::Broadcast)),
        _ => Err(ElementsError::NotThreadValue { rank: 0 }),
    }
}

/// A copy atom's thread-value layout in bits, as the corpus and CuTe's `Copy_Traits` write it,
/// converted to elements of `width` bits (CuTe: `upcast<width>` of the layout, what
/// `Copy_Atom<.., T>` does for `sizeof_bits<T> = width`).
///
/// `bits` is a (thread, value) layout in seed order, `(value, thread)`, mapping to a bit index.
/// The result maps (thread, element) to the element index: `E(t, e) = L(t, e·w) / w`. That is
/// a function of the elements only where the `w` fastest values of each thread are the `w`
/// consecutive bits of one element, `L(t, e·w + j) = L(t, e·w) + j` for `j < w`, starting at a
/// multiple of `w`. On the layout: the fastest leaves of the value mode that hold those bits
/// (strides `1, n₁, n₁·n₂, …`) are removed — a leaf larger than the bits still missing, `r`,
/// keeps `n / r` positions at stride `r·d` — and every remaining stride is divided by `w`; a
/// broadcast `_` stays a broadcast, so a broadcast source or destination stays read-only. A
/// value mode that is used up becomes `1:0`, as CuTe writes it. Top-level names are kept.
///
/// The `_B16` constants of the copy atoms are this function's results for `w = 16`, written
/// out so that they are typed; `tests/tests/atoms.rs` checks both against the corpus offsets
/// converted independently (`bits[t + T·(e·w)] / w`, with the contiguity above checked at every
/// bit).
///
/// ```
/// use layout_typed::atoms::bits_to_elements;
/// use layout_typed::core_algebra::Layout;
///
/// // SM75_U32x2_LDSM_N's DstLayout: thread t holds bits 32t..32t+31 and 1024+32t..+31.
/// let bits = Layout::from_cute("(32,(32,2)):(32,(1,1024))")?;
/// let b16 = bits_to_elements(&bits, 16).unwrap();
/// assert_eq!(b16.to_cute().to_string(), "(32,(2,2)):(2,(1,64))");
/// let b8 = bits_to_elements(&bits, 8).unwrap();
/// assert_eq!(b8.to_cute().to_string(), "(32,(4,2)):(4,(1,128))");
/// // A 64-bit element would span the two 32-bit runs of a thread.
/// assert!(bits_to_elements(&bits, 64).is_err());
/// # Ok::<(), layout_typed::core_algebra::Error>(())
/// ```
///
/// # Errors
/// [`ElementsError::Width`] for `width < 1`; [`ElementsError::NotThreadValue`] unless the top
/// level has two modes; [`ElementsError::NotContiguous`] or [`ElementsError::TooFewBits`] when
/// a thread's fastest values are not whole elements; [`ElementsError::Misaligned`] when a
/// stride is not a multiple of `width`.
pub fn bits_to_elements(bits: &Layout, width: i64) -> Result<Layout, ElementsError> {
    if width < 1 {
        return Err(ElementsError::Width(width));
    }
    let (Tree::Tuple(shape), Tree::Tuple(stride)) = (bits.shape(), bits.stride()) else {
        return Err(ElementsError::NotThreadValue { rank: 1 });
    };
    if shape.len() != 2 {
        return Err(ElementsError::NotThreadValue { rank: shape.len() });
    }
    let mut g = Gather {
        remaining: width,
        next: 1,
    };
    let value = gather(&shape[0], &stride[0], &mut g)?;
    if g.remaining > 1 {
        return Err(ElementsError::TooFewBits {
            bits: g.next,
            width,
        });
    }
    let (vs, vd) = value.unwrap_or((Tree::Leaf(1), Tree::Leaf(Stride::Int(0))));
    let vd = divide(&vs, &vd, width)?;
    let td = divide(&shape[1], &stride[1], width)?;
    let l = Layout::new(
        Tree::Tuple(alloc::vec![vs, shape[1].clone()]),
        Tree::Tuple(alloc::vec![vd, td]),
    )?;
    if bits.names().iter().any(Option::is_some) {
        return Ok(l.with_names(bits.names().to_vec())?);
    }
    Ok(l)
}

/// `SM75_U32x2_LDSM_N`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm75.hpp:59`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `ldmatrix.sync.aligned.m8n8.x2.shared.b16`: two 8×8 matrices of 16-bit elements from shared
/// memory to registers.
///
/// 32 threads copy a block of 16 shared-memory rows × 128 bits (16×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)). `SRC_BITS` and
/// `SRC_B16` are read-only broadcasts: only the first 16 threads supply row addresses, and the
/// thread mode repeats them 2 times; the dense part is `SRC_B16_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `copy_SM75_U32x2_LDSM_N` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm75_u32x2_ldsm_n {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm75.hpp:59`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A
        /// read-only broadcast (a thread leaf of size 2 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value). CuTe
        /// `((16,2),128):((128,0),1)`, `include/cute/atom/copy_traits_sm75.hpp:59`.
        pub const SRC_BITS = cute ((16,2),128):((128,0),1), logical -> physical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A read-only broadcast like `SRC_BITS`; `SRC_B16_DENSE` broadcast over 2
        /// copies of the thread leaf. CuTe `((16,2),8):((8,0),1)`.
        pub const SRC_B16 = cute ((16,2),8):((8,0),1), logical -> physical;
        /// The dense part of `SRC_B16`: its broadcast thread leaf removed, 16 threads × 8 elements
        /// -> element `8·row + column` of the block. A dense bijection. CuTe `(16,8):(8,1)`.
        pub const SRC_B16_DENSE = cute (16,8):(8,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,(32,2)):(32,(1,1024))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:59`.
        pub const DST_BITS = cute (32,(32,2)):(32,(1,1024)), thread-value -> logical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,(2,2)):(2,(1,64))`.
        pub const DST_B16 = cute (32,(2,2)):(2,(1,64)), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,(32,2)):(32,(1,1024))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:59`.
        pub const REF_BITS = cute (32,(32,2)):(32,(1,1024)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,(2,2)):(2,(1,64))`.
        pub const REF_B16 = cute (32,(2,2)):(2,(1,64)), thread-value -> logical;
    }
}

/// `SM75_U16x2_LDSM_T`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm75.hpp:93`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16`: one 8×8 matrix of 16-bit elements,
/// transposed, from shared memory to registers.
///
/// 32 threads copy a block of 8 shared-memory rows × 128 bits (8×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)). `SRC_BITS` and
/// `SRC_B16` are read-only broadcasts: only the first 8 threads supply row addresses, and the
/// thread mode repeats them 4 times; the dense part is `SRC_B16_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `copy_SM75_U16x2_LDSM_T` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm75_u16x2_ldsm_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm75.hpp:93`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A
        /// read-only broadcast (a thread leaf of size 4 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value). CuTe
        /// `((8,4),128):((128,0),1)`, `include/cute/atom/copy_traits_sm75.hpp:93`.
        pub const SRC_BITS = cute ((8,4),128):((128,0),1), logical -> physical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A read-only broadcast like `SRC_BITS`; `SRC_B16_DENSE` broadcast over 4
        /// copies of the thread leaf. CuTe `((8,4),8):((8,0),1)`.
        pub const SRC_B16 = cute ((8,4),8):((8,0),1), logical -> physical;
        /// The dense part of `SRC_B16`: its broadcast thread leaf removed, 8 threads × 8 elements
        /// -> element `8·row + column` of the block. A dense bijection. CuTe `(8,8):(8,1)`.
        pub const SRC_B16_DENSE = cute (8,8):(8,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 32 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2)):((256,16),(1,128))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:93`.
        pub const DST_BITS = cute ((4,8),(16,2)):((256,16),(1,128)), thread-value -> logical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 2 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),2):((16,1),8)`.
        pub const DST_B16 = cute ((4,8),2):((16,1),8), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 32 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2)):((256,16),(1,128))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:93`.
        pub const REF_BITS = cute ((4,8),(16,2)):((256,16),(1,128)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 2 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),2):((16,1),8)`.
        pub const REF_B16 = cute ((4,8),2):((16,1),8), thread-value -> logical;
    }
}

/// `SM75_U16x4_LDSM_T`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm75.hpp:110`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: two 8×8 matrices of 16-bit elements,
/// transposed, from shared memory to registers.
///
/// 32 threads copy a block of 16 shared-memory rows × 128 bits (16×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)). `SRC_BITS` and
/// `SRC_B16` are read-only broadcasts: only the first 16 threads supply row addresses, and the
/// thread mode repeats them 2 times; the dense part is `SRC_B16_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `copy_SM75_U16x4_LDSM_T` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm75_u16x4_ldsm_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm75.hpp:110`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A
        /// read-only broadcast (a thread leaf of size 2 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value). CuTe
        /// `((16,2),128):((128,0),1)`, `include/cute/atom/copy_traits_sm75.hpp:110`.
        pub const SRC_BITS = cute ((16,2),128):((128,0),1), logical -> physical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A read-only broadcast like `SRC_BITS`; `SRC_B16_DENSE` broadcast over 2
        /// copies of the thread leaf. CuTe `((16,2),8):((8,0),1)`.
        pub const SRC_B16 = cute ((16,2),8):((8,0),1), logical -> physical;
        /// The dense part of `SRC_B16`: its broadcast thread leaf removed, 16 threads × 8 elements
        /// -> element `8·row + column` of the block. A dense bijection. CuTe `(16,8):(8,1)`.
        pub const SRC_B16_DENSE = cute (16,8):(8,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,2)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:110`.
        pub const DST_BITS = cute ((4,8),(16,2,2)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`.
        pub const DST_B16 = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,2)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:110`.
        pub const REF_BITS = cute ((4,8),(16,2,2)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`.
        pub const REF_B16 = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical;
    }
}

/// `SM75_U16x8_LDSM_T`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm75.hpp:127`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: four 8×8 matrices of 16-bit elements,
/// transposed, from shared memory to registers.
///
/// 32 threads copy a block of 32 shared-memory rows × 128 bits (32×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)).
///
/// Tested against the corpus case `copy_SM75_U16x8_LDSM_T` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm75_u16x8_ldsm_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm75.hpp:127`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,128):(128,1)`, `include/cute/atom/copy_traits_sm75.hpp:127`.
        pub const SRC_BITS = cute (32,128):(128,1), thread-value -> logical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,8):(8,1)`.
        pub const SRC_B16 = cute (32,8):(8,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,4)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:127`.
        pub const DST_BITS = cute ((4,8),(16,2,4)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,4)):((16,1),(8,64))`.
        pub const DST_B16 = cute ((4,8),(2,4)):((16,1),(8,64)), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,4)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm75.hpp:127`.
        pub const REF_BITS = cute ((4,8),(16,2,4)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,4)):((16,1),(8,64))`.
        pub const REF_B16 = cute ((4,8),(2,4)):((16,1),(8,64)), thread-value -> logical;
    }
}

/// `SM90_U32x1_STSM_N`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm90.hpp:43`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `stmatrix.sync.aligned.x1.m8n8.shared.b16`: one 8×8 matrix of 16-bit elements from registers
/// to shared memory.
///
/// 32 threads copy a block of 8 shared-memory rows × 128 bits (8×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)). `DST_BITS` and
/// `DST_B16` are read-only broadcasts: only the first 8 threads supply row addresses, and the
/// thread mode repeats them 4 times; the dense part is `DST_B16_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `copy_SM90_U32x1_STSM_N` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_u32x1_stsm_n {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm90.hpp:43`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 32 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,32):(32,1)`, `include/cute/atom/copy_traits_sm90.hpp:43`.
        pub const SRC_BITS = cute (32,32):(32,1), thread-value -> logical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 2 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,2):(2,1)`.
        pub const SRC_B16 = cute (32,2):(2,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A
        /// read-only broadcast (a thread leaf of size 4 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value). CuTe
        /// `((8,4),128):((128,0),1)`, `include/cute/atom/copy_traits_sm90.hpp:43`.
        pub const DST_BITS = cute ((8,4),128):((128,0),1), logical -> physical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A read-only broadcast like `DST_BITS`; `DST_B16_DENSE` broadcast over 4
        /// copies of the thread leaf. CuTe `((8,4),8):((8,0),1)`.
        pub const DST_B16 = cute ((8,4),8):((8,0),1), logical -> physical;
        /// The dense part of `DST_B16`: its broadcast thread leaf removed, 8 threads × 8 elements
        /// -> element `8·row + column` of the block. A dense bijection. CuTe `(8,8):(8,1)`.
        pub const DST_B16_DENSE = cute (8,8):(8,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 32 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,32):(32,1)`, `include/cute/atom/copy_traits_sm90.hpp:43`.
        pub const REF_BITS = cute (32,32):(32,1), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 2 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,2):(2,1)`.
        pub const REF_B16 = cute (32,2):(2,1), thread-value -> logical;
    }
}

/// `SM90_U32x2_STSM_N`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm90.hpp:58`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `stmatrix.sync.aligned.x2.m8n8.shared.b16`: two 8×8 matrices of 16-bit elements from
/// registers to shared memory.
///
/// 32 threads copy a block of 16 shared-memory rows × 128 bits (16×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)). `DST_BITS` and
/// `DST_B16` are read-only broadcasts: only the first 16 threads supply row addresses, and the
/// thread mode repeats them 2 times; the dense part is `DST_B16_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `copy_SM90_U32x2_STSM_N` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_u32x2_stsm_n {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm90.hpp:58`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,(32,2)):(32,(1,1024))`,
        /// `include/cute/atom/copy_traits_sm90.hpp:58`.
        pub const SRC_BITS = cute (32,(32,2)):(32,(1,1024)), thread-value -> logical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,(2,2)):(2,(1,64))`.
        pub const SRC_B16 = cute (32,(2,2)):(2,(1,64)), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A
        /// read-only broadcast (a thread leaf of size 2 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value). CuTe
        /// `((16,2),128):((128,0),1)`, `include/cute/atom/copy_traits_sm90.hpp:58`.
        pub const DST_BITS = cute ((16,2),128):((128,0),1), logical -> physical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A read-only broadcast like `DST_BITS`; `DST_B16_DENSE` broadcast over 2
        /// copies of the thread leaf. CuTe `((16,2),8):((8,0),1)`.
        pub const DST_B16 = cute ((16,2),8):((8,0),1), logical -> physical;
        /// The dense part of `DST_B16`: its broadcast thread leaf removed, 16 threads × 8 elements
        /// -> element `8·row + column` of the block. A dense bijection. CuTe `(16,8):(8,1)`.
        pub const DST_B16_DENSE = cute (16,8):(8,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,(32,2)):(32,(1,1024))`,
        /// `include/cute/atom/copy_traits_sm90.hpp:58`.
        pub const REF_BITS = cute (32,(32,2)):(32,(1,1024)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,(2,2)):(2,(1,64))`.
        pub const REF_B16 = cute (32,(2,2)):(2,(1,64)), thread-value -> logical;
    }
}

/// `SM90_U16x4_STSM_T`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm90.hpp:103`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `stmatrix.sync.aligned.x2.trans.m8n8.shared.b16`: two 8×8 matrices of 16-bit elements,
/// transposed, from registers to shared memory.
///
/// 32 threads copy a block of 16 shared-memory rows × 128 bits (16×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)). `DST_BITS` and
/// `DST_B16` are read-only broadcasts: only the first 16 threads supply row addresses, and the
/// thread mode repeats them 2 times; the dense part is `DST_B16_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `copy_SM90_U16x4_STSM_T` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_u16x4_stsm_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm90.hpp:103`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,2)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm90.hpp:103`.
        pub const SRC_BITS = cute ((4,8),(16,2,2)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`.
        pub const SRC_B16 = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A
        /// read-only broadcast (a thread leaf of size 2 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value). CuTe
        /// `((16,2),128):((128,0),1)`, `include/cute/atom/copy_traits_sm90.hpp:103`.
        pub const DST_BITS = cute ((16,2),128):((128,0),1), logical -> physical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A read-only broadcast like `DST_BITS`; `DST_B16_DENSE` broadcast over 2
        /// copies of the thread leaf. CuTe `((16,2),8):((8,0),1)`.
        pub const DST_B16 = cute ((16,2),8):((8,0),1), logical -> physical;
        /// The dense part of `DST_B16`: its broadcast thread leaf removed, 16 threads × 8 elements
        /// -> element `8·row + column` of the block. A dense bijection. CuTe `(16,8):(8,1)`.
        pub const DST_B16_DENSE = cute (16,8):(8,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 64 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,2)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm90.hpp:103`.
        pub const REF_BITS = cute ((4,8),(16,2,2)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 4 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`.
        pub const REF_B16 = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical;
    }
}

/// `SM90_U16x8_STSM_T`: the `Copy_Traits` at `include/cute/atom/copy_traits_sm90.hpp:118`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `stmatrix.sync.aligned.x4.trans.m8n8.shared.b16`: four 8×8 matrices of 16-bit elements,
/// transposed, from registers to shared memory.
///
/// 32 threads copy a block of 32 shared-memory rows × 128 bits (32×8 16-bit elements). Each layout
/// maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index `t + 32·v`) to a
/// position in the block, row-major: the `_BITS` layouts to the bit `128·row + bit` (the corpus's
/// unit), the `_B16` layouts to the 16-bit element `8·row + column` (half, bf16, u16;
/// `bits_to_elements(_, 16)`, see [the module docs](crate::atoms#bits-to-elements)).
///
/// Tested against the corpus case `copy_SM90_U16x8_STSM_T` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_u16x8_stsm_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/copy_traits_sm90.hpp:118`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,4)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm90.hpp:118`.
        pub const SRC_BITS = cute ((4,8),(16,2,4)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `SRC_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,4)):((16,1),(8,64))`.
        pub const SRC_B16 = cute ((4,8),(2,4)):((16,1),(8,64)), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `(32,128):(128,1)`, `include/cute/atom/copy_traits_sm90.hpp:118`.
        pub const DST_BITS = cute (32,128):(128,1), thread-value -> logical;
        /// `DST_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `(32,8):(8,1)`.
        pub const DST_B16 = cute (32,8):(8,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 128 bits -> bit `128·row + bit` of the block. A dense
        /// bijection. CuTe `((4,8),(16,2,4)):((256,16),(1,128,1024))`,
        /// `include/cute/atom/copy_traits_sm90.hpp:118`.
        pub const REF_BITS = cute ((4,8),(16,2,4)):((256,16),(1,128,1024)), thread-value -> logical;
        /// `REF_BITS` in 16-bit elements: 32 threads × 8 elements -> element `8·row + column` of
        /// the block. A dense bijection. CuTe `((4,8),(2,4)):((16,1),(8,64))`.
        pub const REF_B16 = cute ((4,8),(2,4)):((16,1),(8,64)), thread-value -> logical;
    }
}

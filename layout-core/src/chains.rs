//! The chains of a [`Decision`](crate::Decision), kept flat: the pieces of every chain in two
//! parallel lists, and where each chain ends.

use alloc::vec::Vec;

use crate::decide::{Chain, InlineVec};

/// How many pieces — modes of the coarsest refinements, all chains together — a [`Chains`]
/// holds without a heap allocation.
pub const PIECES_INLINE: usize = 10;

/// How many chains a [`Chains`] holds without a heap allocation: as many as its pieces
/// ([`PIECES_INLINE`]), every chain that [`decide`](crate::decide) returns having at least one.
pub const CHAINS_INLINE: usize = PIECES_INLINE;

/// How many chain ends the inline store has room for: [`CHAINS_INLINE`] and more (chains of
/// no piece, which only a list built by hand has), filling the bytes beside its counts and tag
/// so that the store has no padding.
const ENDS_INLINE: usize = 13;

/// One chain of a [`Chains`], borrowed: the coarsest shape and its strides of one decided
/// coordinate, slowest first, with the read API of [`Chain`] (the same fields as slices,
/// [`ChainRef::chain`], [`ChainRef::recorded`]). [`ChainRef::to_chain`] copies it.
///
/// ```
/// use layout_core::{compose, decide, Annotated, Space};
/// let a = Annotated::new("(2,6):(2,8)".parse()?, Space::Logical, Space::Physical)?;
/// let b = Annotated::new("(3,4):(1,3)".parse()?, Space::ThreadValue, Space::Logical)?;
/// let d = decide(&compose(&a.into(), &b.into())?, false)?;
/// let c = d.result.as_ref().unwrap().get(1).unwrap();
/// assert_eq!((c.shape, c.strides), (&[2, 2][..], &[2, 24][..]));
/// assert_eq!(c.chain(), vec![1, 2]);
/// assert_eq!(c.recorded(), vec![(1, 24), (2, -46)]);
/// assert_eq!(c.to_chain().shape, vec![2, 2]);
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChainRef<'a> {
    /// The coarsest shape `T`, slowest first (see [`Chain::shape`]).
    pub shape: &'a [i64],
    /// Its strides, slowest first (see [`Chain::strides`]).
    pub strides: &'a [i64],
}

impl ChainRef<'_> {
    /// `{1} ∪ R`, increasing: the weights of the modes of [`ChainRef::shape`], fastest first
    /// (see [`Chain::chain`], exact under the same condition).
    #[must_use]
    pub fn chain(&self) -> InlineVec<i64> {
        let mut w = 1i64;
        self.shape
            .iter()
            .rev()
            .map(|&m| {
                let here = w;
                // The weights divide the coordinate's size (a chain the scan returns): no
                // overflow; past `i64::MAX` (a chain built by hand) they clamp, as documented.
                w = w.saturating_mul(m);
                here
            })
            .collect()
    }

    /// What the scan records, `(t, a_t)` for `t` in `R`, increasing in `t` (see
    /// [`Chain::recorded`], exact in `i128` under the same condition).
    #[must_use]
    pub fn recorded(&self) -> InlineVec<(i64, i128)> {
        let mut out = InlineVec::new();
        let mut w = 1i64;
        let mut before: Option<(i64, i64)> = None;
        for (&m, &s) in self.shape.iter().zip(self.strides).rev() {
            // A product of two i64 values and a difference with a third stay in i128.
            let a = match before {
                None => i128::from(s),
                Some((m0, s0)) => {
                    i128::from(s).saturating_sub(i128::from(m0).saturating_mul(i128::from(s0)))
                }
            };
            if a != 0 {
                out.push((w, a));
            }
            before = Some((m, s));
            w = w.saturating_mul(m);
        }
        out
    }

    /// An owned copy.
    #[must_use]
    pub fn to_chain(&self) -> Chain {
        Chain {
            shape: self.shape.iter().copied().collect(),
            strides: self.strides.iter().copied().collect(),
        }
    }
}

impl core::fmt::Debug for ChainRef<'_> {
    /// As [`Chain`]'s: `Chain { chain: [1], shape: [4], strides: [2], recorded: [(1, 2)] }`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Chain")
            .field("chain", &self.chain())
            .field("shape", &self.shape)
            .field("strides", &self.strides)
            .field("recorded", &self.recorded())
            .finish()
    }
}

impl PartialEq<Chain> for ChainRef<'_> {
    fn eq(&self, other: &Chain) -> bool {
        *self == other.view()
    }
}

impl PartialEq<ChainRef<'_>> for Chain {
    fn eq(&self, other: &ChainRef<'_>) -> bool {
        self.view() == *other
    }
}

/// Where the pieces are: inline up to [`PIECES_INLINE`] pieces and [`ENDS_INLINE`] chains,
/// else on the heap. Only the first `pieces` entries of the inline lists and the first
/// `chains` ends are set; the ends do not decrease (two are equal around a chain of no piece).
#[derive(Clone)]
enum Store {
    /// Inline: dropping it does nothing.
    Inline {
        /// How many pieces are set.
        pieces: u8,
        /// How many chains are set.
        chains: u8,
        /// `ends[i]`: the end of chain `i`'s pieces (chain `i` starts where chain `i − 1` ends).
        ends: [u8; ENDS_INLINE],
        /// The pieces' sizes.
        shape: [i64; PIECES_INLINE],
        /// The pieces' strides.
        strides: [i64; PIECES_INLINE],
    },
    /// On the heap, past the inline room; `shape` and `strides` have the same length.
    Heap {
        /// The pieces' sizes.
        shape: Vec<i64>,
        /// The pieces' strides.
        strides: Vec<i64>,
        /// The end of each chain's pieces.
        ends: Vec<usize>,
    },
}

/// The chains of a [`Decision`](crate::Decision), one per decided coordinate, kept flat: the
/// pieces of all chains in order (each chain's slowest first) in two parallel lists of sizes
/// and strides, and where each chain ends. Up to [`PIECES_INLINE`] pieces are held without a
/// heap allocation, and dropping such a list does nothing.
///
/// It reads as a list of [`ChainRef`]: [`Chains::len`], [`Chains::get`], [`Chains::iter`] (and
/// `for c in &chains`); [`Chains::to_vec`] copies it into owned [`Chain`]s. It compares equal to
/// a `Vec` or a slice of `Chain` with the same chains, and is built from one
/// (`Chains::from(vec)`, `collect`) or by [`Chains::push`]. `Debug` prints it as a list of
/// chains.
///
/// ```
/// use layout_core::{scan, Chains};
/// let a = scan(&[0, 2, 24, 26]).unwrap(); // (2,2):(24,2)
/// let b = scan(&[0, 3, 6]).unwrap(); // 3:3
/// let chains = Chains::from(vec![a.clone(), b.clone()]);
/// assert_eq!((chains.len(), chains.get(0).unwrap().shape), (2, &[2, 2][..]));
/// assert_eq!(chains.get(1).unwrap().strides, [3]);
/// assert_eq!(chains, vec![a.clone(), b.clone()]);
/// assert_eq!(chains.to_vec(), vec![a, b]);
/// assert_eq!(chains.iter().map(|c| c.shape.len()).sum::<usize>(), 3);
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Chains(Store);

impl Chains {
    /// No chains.
    #[inline(always)]
    #[must_use]
    pub fn new() -> Chains {
        Chains(Store::Inline {
            pieces: 0,
            chains: 0,
            ends: [0; ENDS_INLINE],
            shape: [0; PIECES_INLINE],
            strides: [0; PIECES_INLINE],
        })
    }

    /// How many chains there are.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.0 {
            Store::Inline { chains, .. } => usize::from(*chains),
            Store::Heap { ends, .. } => ends.len(),
        }
    }

    /// Whether there is no chain.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Chain `i` (0-based), borrowed; `None` past the last.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<ChainRef<'_>> {
        let (shape, strides, start, end) = match &self.0 {
            Store::Inline {
                chains,
                ends,
                shape,
                strides,
                ..
            } => {
                let set = ends.get(..usize::from(*chains))?;
                let end = usize::from(*set.get(i)?);
                let start = i
                    .checked_sub(1)
                    .and_then(|j| set.get(j))
                    .map_or(0, |&e| usize::from(e));
                (&shape[..], &strides[..], start, end)
            }
            Store::Heap {
                shape,
                strides,
                ends,
            } => {
                let end = *ends.get(i)?;
                let start = i.checked_sub(1).and_then(|j| ends.get(j)).map_or(0, |&e| e);
                (&shape[..], &strides[..], start, end)
            }
        };
        Some(ChainRef {
            shape: shape.get(start..end)?,
            strides: strides.get(start..end)?,
        })
    }

    /// The chains, first to last, borrowed.
    #[inline]
    #[must_use]
    pub fn iter(&self) -> ChainsIter<'_> {
        ChainsIter {
            chains: self,
            front: 0,
            back: self.len(),
        }
    }

    /// The chains copied into owned [`Chain`]s.
    #[must_use]
    pub fn to_vec(&self) -> Vec<Chain> {
        self.iter().map(|c| c.to_chain()).collect()
    }

    /// Appends a chain: its pieces are the pairs of `chain.shape` and `chain.strides` in order
    /// (a chain whose two lists differ in length, which only one built by hand can, keeps as
    /// many pieces as the shorter has).
    pub fn push(&mut self, chain: ChainRef<'_>) {
        for (&m, &s) in chain.shape.iter().zip(chain.strides) {
            self.push_piece(m, s);
        }
        self.close();
    }

    /// Appends the piece `m : s` to the chain being written (the one after the last closed by
    /// [`Chains::close`]); it is not read until it is closed.
    #[inline(always)]
    pub(crate) fn push_piece(&mut self, m: i64, s: i64) {
        if let Store::Inline {
            pieces,
            shape,
            strides,
            ..
        } = &mut self.0
        {
            let p = usize::from(*pieces);
            if let (Some(a), Some(b)) = (shape.get_mut(p), strides.get_mut(p)) {
                *a = m;
                *b = s;
                // p < PIECES_INLINE < 255: no saturation.
                *pieces = pieces.saturating_add(1);
                return;
            }
            self.spill();
        }
        if let Store::Heap { shape, strides, .. } = &mut self.0 {
            shape.push(m);
            strides.push(s);
        }
    }

    /// Ends the chain being written: the pieces pushed since the last chain closed.
    #[inline(always)]
    pub(crate) fn close(&mut self) {
        if let Store::Inline {
            pieces,
            chains,
            ends,
            ..
        } = &mut self.0
        {
            if let Some(e) = ends.get_mut(usize::from(*chains)) {
                *e = *pieces;
                // chains < ENDS_INLINE < 255: no saturation.
                *chains = chains.saturating_add(1);
                return;
            }
            self.spill();
        }
        if let Store::Heap { shape, ends, .. } = &mut self.0 {
            ends.push(shape.len());
        }
    }

    /// A writer into the inline room, where the list is empty and inline.
    #[inline(always)]
    pub(crate) fn inline_writer(&mut self) -> Option<InlineWriter<'_>> {
        match &mut self.0 {
            Store::Inline {
                pieces,
                chains,
                ends,
                shape,
                strides,
            } if *pieces == 0 && *chains == 0 => Some(InlineWriter {
                shape,
                strides,
                ends,
                pieces_out: pieces,
                chains_out: chains,
                pieces: 0,
                chains: 0,
                full: false,
            }),
            _ => None,
        }
    }

    /// Moves the list onto the heap, with room for `pieces` pieces.
    pub(crate) fn move_to_heap(&mut self, pieces: usize) {
        self.spill();
        if let Store::Heap {
            shape,
            strides,
            ends,
        } = &mut self.0
        {
            shape.reserve(pieces);
            strides.reserve(pieces);
            ends.reserve(pieces);
        }
    }

    /// Room on the heap for `chains` chains of one piece each where that is past the inline
    /// room (what [`Chains::push_piece`] would otherwise grow to).
    #[inline(always)]
    pub(crate) fn reserve_chains(&mut self, chains: usize) {
        if chains > CHAINS_INLINE {
            self.move_to_heap(chains);
        }
    }

    /// Moves the pieces onto the heap (nothing if they are there).
    #[cold]
    #[inline(never)]
    fn spill(&mut self) {
        if let Store::Inline {
            pieces,
            chains,
            ends,
            shape,
            strides,
        } = &self.0
        {
            let (p, c) = (usize::from(*pieces), usize::from(*chains));
            let room = |n: usize| n.saturating_mul(2).max(PIECES_INLINE.saturating_mul(2));
            let mut heap_shape = Vec::with_capacity(room(p));
            let mut heap_strides = Vec::with_capacity(room(p));
            let mut heap_ends = Vec::with_capacity(room(c));
            heap_shape.extend_from_slice(shape.get(..p).unwrap_or_default());
            heap_strides.extend_from_slice(strides.get(..p).unwrap_or_default());
            heap_ends.extend(
                ends.get(..c)
                    .unwrap_or_default()
                    .iter()
                    .map(|&e| usize::from(e)),
            );
            self.0 = Store::Heap {
                shape: heap_shape,
                strides: heap_strides,
                ends: heap_ends,
            };
        }
    }
}

/// Where pieces and chain ends are written: a [`Chains`], or its inline room through an
/// [`InlineWriter`].
pub(crate) trait Sink {
    /// Appends the piece `m : s` to the chain being written; `None` where there is no room.
    fn piece(&mut self, m: i64, s: i64) -> Option<()>;
    /// Ends the chain being written; `None` where there is no room.
    fn close(&mut self) -> Option<()>;
}

impl Sink for Chains {
    #[inline(always)]
    fn piece(&mut self, m: i64, s: i64) -> Option<()> {
        self.push_piece(m, s);
        Some(())
    }
    #[inline(always)]
    fn close(&mut self) -> Option<()> {
        Chains::close(self);
        Some(())
    }
}

/// Writes into the inline room of an empty [`Chains`] with the counts kept apart (in
/// registers); [`InlineWriter::finish`] stores them. A push past the room sets `full` and
/// writes nothing.
pub(crate) struct InlineWriter<'a> {
    /// The pieces' sizes.
    shape: &'a mut [i64; PIECES_INLINE],
    /// The pieces' strides.
    strides: &'a mut [i64; PIECES_INLINE],
    /// The chain ends.
    ends: &'a mut [u8; ENDS_INLINE],
    /// Where the piece count is stored.
    pieces_out: &'a mut u8,
    /// Where the chain count is stored.
    chains_out: &'a mut u8,
    /// Pieces written.
    pieces: u8,
    /// Chains written.
    chains: u8,
    /// Whether a push found no room.
    pub(crate) full: bool,
}

impl InlineWriter<'_> {
    /// Stores the counts: the list holds what was written.
    #[inline(always)]
    pub(crate) fn finish(self) {
        *self.pieces_out = self.pieces;
        *self.chains_out = self.chains;
    }
}

impl Sink for InlineWriter<'_> {
    #[inline(always)]
    fn piece(&mut self, m: i64, s: i64) -> Option<()> {
        let p = usize::from(self.pieces);
        if let (Some(a), Some(b)) = (self.shape.get_mut(p), self.strides.get_mut(p)) {
            *a = m;
            *b = s;
            // p < PIECES_INLINE < 255: no saturation.
            self.pieces = self.pieces.saturating_add(1);
            Some(())
        } else {
            self.full = true;
            None
        }
    }
    #[inline(always)]
    fn close(&mut self) -> Option<()> {
        if let Some(e) = self.ends.get_mut(usize::from(self.chains)) {
            *e = self.pieces;
            // chains < ENDS_INLINE < 255: no saturation.
            self.chains = self.chains.saturating_add(1);
            Some(())
        } else {
            self.full = true;
            None
        }
    }
}

impl Default for Chains {
    fn default() -> Chains {
        Chains::new()
    }
}

impl PartialEq for Chains {
    /// The same chains (what is inline or on the heap does not matter).
    fn eq(&self, other: &Chains) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Chains {}

impl PartialEq<[Chain]> for Chains {
    fn eq(&self, other: &[Chain]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

impl PartialEq<Vec<Chain>> for Chains {
    fn eq(&self, other: &Vec<Chain>) -> bool {
        *self == other[..]
    }
}

impl PartialEq<Chains> for Vec<Chain> {
    fn eq(&self, other: &Chains) -> bool {
        *other == self[..]
    }
}

impl PartialEq<Chains> for [Chain] {
    fn eq(&self, other: &Chains) -> bool {
        *other == *self
    }
}

impl core::fmt::Debug for Chains {
    /// As a list of chains (each as [`Chain`]'s `Debug`).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Chain>> for Chains {
    fn from(v: Vec<Chain>) -> Chains {
        v.iter().collect()
    }
}

impl From<&[Chain]> for Chains {
    fn from(v: &[Chain]) -> Chains {
        v.iter().collect()
    }
}

impl From<Chains> for Vec<Chain> {
    fn from(c: Chains) -> Vec<Chain> {
        c.to_vec()
    }
}

impl FromIterator<Chain> for Chains {
    fn from_iter<I: IntoIterator<Item = Chain>>(iter: I) -> Chains {
        let mut out = Chains::new();
        out.extend(iter);
        out
    }
}

impl<'a> FromIterator<&'a Chain> for Chains {
    fn from_iter<I: IntoIterator<Item = &'a Chain>>(iter: I) -> Chains {
        let mut out = Chains::new();
        for c in iter {
            out.push(c.view());
        }
        out
    }
}

impl<'a> FromIterator<ChainRef<'a>> for Chains {
    fn from_iter<I: IntoIterator<Item = ChainRef<'a>>>(iter: I) -> Chains {
        let mut out = Chains::new();
        for c in iter {
            out.push(c);
        }
        out
    }
}

impl Extend<Chain> for Chains {
    fn extend<I: IntoIterator<Item = Chain>>(&mut self, iter: I) {
        for c in iter {
            self.push(c.view());
        }
    }
}

impl<'a> IntoIterator for &'a Chains {
    type Item = ChainRef<'a>;
    type IntoIter = ChainsIter<'a>;
    fn into_iter(self) -> ChainsIter<'a> {
        self.iter()
    }
}

/// The chains of a [`Chains`], borrowed, first to last ([`Chains::iter`]).
#[derive(Clone, Debug)]
pub struct ChainsIter<'a> {
    /// The list.
    chains: &'a Chains,
    /// The next chain from the front.
    front: usize,
    /// One past the next chain from the back.
    back: usize,
}

impl<'a> Iterator for ChainsIter<'a> {
    type Item = ChainRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<ChainRef<'a>> {
        if self.front >= self.back {
            return None;
        }
        let c = self.chains.get(self.front);
        self.front = self.front.saturating_add(1);
        c
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back.saturating_sub(self.front);
        (n, Some(n))
    }
}

impl DoubleEndedIterator for ChainsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        self.back = self.back.saturating_sub(1);
        self.chains.get(self.back)
    }
}

impl ExactSizeIterator for ChainsIter<'_> {}

impl core::iter::FusedIterator for ChainsIter<'_> {}

#[cfg(test)]
mod tests {
    #![allow(clippy::arithmetic_side_effects)] // test data, small
    use super::*;
    use alloc::format;
    use alloc::vec;

    fn chain(shape: &[i64], strides: &[i64]) -> Chain {
        Chain {
            shape: shape.iter().copied().collect(),
            strides: strides.iter().copied().collect(),
        }
    }

    /// Inline and on the heap, a list reads back the chains it was built from, in order, by
    /// `get`, `iter` (both ends) and `to_vec`; equality ignores where the pieces are.
    #[test]
    fn reads_back_inline_and_on_the_heap() {
        for count in [0usize, 1, 3, 9, 10, 11, 25] {
            let owned: Vec<Chain> = (0..i64::try_from(count).expect("small"))
                .map(|i| {
                    let k = i % 4;
                    let shape: Vec<i64> = (0..=k).map(|j| i * 10 + j + 2).collect();
                    let strides: Vec<i64> = (0..=k).map(|j| -(i * 7 + j)).collect();
                    chain(&shape, &strides)
                })
                .collect();
            let chains = Chains::from(owned.clone());
            assert_eq!(chains.len(), count);
            assert_eq!(chains.is_empty(), count == 0);
            for (i, c) in owned.iter().enumerate() {
                let got = chains.get(i).expect("in range");
                assert_eq!((got.shape, got.strides), (&c.shape[..], &c.strides[..]));
            }
            assert_eq!(chains.get(count), None);
            assert_eq!(chains.to_vec(), owned);
            let back: Vec<Chain> = chains.iter().rev().map(|c| c.to_chain()).collect();
            let mut want = owned.clone();
            want.reverse();
            assert_eq!(back, want);
            assert_eq!(chains.iter().len(), count);
            assert_eq!(chains, owned);
            assert_eq!(owned, chains);
            // The same chains pushed one piece at a time, with the heap reserved first.
            let mut pushed = Chains::new();
            pushed.reserve_chains(count);
            for c in &owned {
                for (&m, &s) in c.shape.iter().zip(c.strides.iter()) {
                    pushed.push_piece(m, s);
                }
                pushed.close();
            }
            assert_eq!(pushed, chains);
            assert_eq!(format!("{pushed:?}"), format!("{owned:?}"));
            let pieces: usize = owned.iter().map(|c| c.shape.len()).sum();
            assert_eq!(
                matches!(chains.0, Store::Inline { .. }),
                pieces <= PIECES_INLINE,
                "{count} chains of {pieces} pieces"
            );
        }
    }

    /// A chain of no piece (built by hand) is a chain, inline and past the inline room; lists
    /// that differ in one piece, or in where a chain ends, differ.
    #[test]
    fn empty_chains_and_inequality() {
        let empty = chain(&[], &[]);
        let many: Vec<Chain> = vec![empty.clone(); ENDS_INLINE + 3];
        let chains: Chains = many.iter().collect();
        assert_eq!(chains.len(), ENDS_INLINE + 3);
        assert!(
            chains
                .iter()
                .all(|c| c.shape.is_empty() && c.strides.is_empty())
        );
        let a = Chains::from(vec![chain(&[2, 3], &[3, 1]), chain(&[4], &[6])]);
        let b = Chains::from(vec![chain(&[2], &[3]), chain(&[3, 4], &[1, 6])]);
        let c = Chains::from(vec![chain(&[2, 3], &[3, 1]), chain(&[4], &[7])]);
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, a.clone());
        // Mismatched lengths keep the pairs.
        let d = Chains::from(vec![chain(&[2, 3], &[3])]);
        assert_eq!(d.to_vec(), vec![chain(&[2], &[3])]);
    }

    /// The `Decision` that holds these stays within 256 bytes, and the list drops nothing inline.
    #[test]
    fn sizes() {
        assert_eq!(core::mem::size_of::<Chains>(), 176);
        assert_eq!(
            core::mem::size_of::<Result<Chains, crate::NotLayout>>(),
            176
        );
        assert!(core::mem::size_of::<crate::Decision>() <= 256);
    }
}

//! Reading structured values from the fuzzer's bytes: small sizes and strides most of the
//! time, the edge values of `i64` sometimes (0, negatives, 2^31, 2^62, `i64::MAX`, `i64::MIN`).

use layout_core::{Stride, Tree};

/// The fuzzer's bytes, read front to back; past the end every byte reads 0.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// Reads `data` from its start.
    #[must_use]
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, pos: 0 }
    }

    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos = self.pos.saturating_add(1);
        b
    }

    /// A value in `0..n` (`n ≥ 1`).
    pub fn below(&mut self, n: u8) -> u8 {
        self.byte() % n.max(1)
    }

    /// A value in `0..n` read from two bytes.
    pub fn below16(&mut self, n: u16) -> u16 {
        let v = u16::from_le_bytes([self.byte(), self.byte()]);
        v % n.max(1)
    }

    /// Whether a coin comes up heads with probability about `k/256`.
    pub fn chance(&mut self, k: u8) -> bool {
        self.byte() < k
    }

    /// An edge value of `i64`.
    pub fn edge(&mut self) -> i64 {
        const EDGES: [i64; 12] = [
            0,
            -1,
            1 << 31,
            (1 << 31) - 1,
            1 << 32,
            1 << 62,
            (1 << 62) + 1,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
            -(1 << 62),
            1 << 24,
        ];
        EDGES[usize::from(self.below(EDGES.len() as u8))]
    }

    /// A size: 1..=8 mostly, up to 64 sometimes, an edge value rarely.
    pub fn size(&mut self) -> i64 {
        match self.byte() {
            0..=199 => 1 + i64::from(self.below(8)),
            200..=239 => 1 + i64::from(self.below(64)),
            240..=247 => [12, 16, 32, 3, 5, 7, 9, 24][usize::from(self.below(8))],
            _ => self.edge(),
        }
    }

    /// A stride: a small non-zero integer mostly, a broadcast sometimes, an edge value rarely
    /// (zero among them).
    pub fn stride(&mut self) -> Stride {
        match self.byte() {
            0..=207 => {
                let v = i64::from(self.below(33)) - 16;
                Stride::Int(if v == 0 { 1 } else { v })
            }
            208..=223 => Stride::Broadcast,
            224..=239 => Stride::Int(i64::from(self.below(128)) + 1),
            _ => Stride::Int(self.edge()),
        }
    }

    /// A shape tree: a tuple of 1..=3 entries at the top (sometimes a bare leaf), nested at most
    /// `depth` levels below.
    pub fn shape(&mut self, depth: u8) -> Tree<i64> {
        if self.chance(24) {
            return Tree::Leaf(self.size());
        }
        let n = 1 + usize::from(self.below(3));
        Tree::Tuple((0..n).map(|_| self.subshape(depth)).collect())
    }

    fn subshape(&mut self, depth: u8) -> Tree<i64> {
        if depth > 0 && self.chance(40) {
            let n = 1 + usize::from(self.below(3));
            Tree::Tuple((0..n).map(|_| self.subshape(depth - 1)).collect())
        } else {
            Tree::Leaf(self.size())
        }
    }

    /// A stride tree with the profile of `shape` (sometimes a different one).
    pub fn strides_for(&mut self, shape: &Tree<i64>) -> Tree<Stride> {
        if self.chance(3) {
            return Tree::Leaf(self.stride());
        }
        match shape {
            Tree::Leaf(_) => Tree::Leaf(self.stride()),
            Tree::Tuple(v) => Tree::Tuple(v.iter().map(|t| self.strides_for(t)).collect()),
        }
    }

    /// Strides making `shape` a dense bijection: the leaves get the running products of their
    /// sizes in an order read from the bytes.
    pub fn dense_strides(&mut self, shape: &Tree<i64>) -> Tree<Stride> {
        let sizes = leaves(shape);
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        for i in (1..order.len()).rev() {
            let j = usize::from(self.byte()) % (i + 1);
            order.swap(i, j);
        }
        let mut strides = vec![0i64; sizes.len()];
        let mut w = 1i64;
        for &i in &order {
            strides[i] = w;
            w = w.saturating_mul(sizes[i]);
        }
        let mut it = strides.into_iter();
        shape.map(&mut |_| Stride::Int(it.next().unwrap_or(1)))
    }
}

/// The leaves of a tree, in order.
#[must_use]
pub fn leaves<T: Copy>(t: &Tree<T>) -> Vec<T> {
    match t {
        Tree::Leaf(x) => vec![*x],
        Tree::Tuple(v) => v.iter().flat_map(leaves).collect(),
    }
}

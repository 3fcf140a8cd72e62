//! Independent evaluators: a seed-order layout (last leaf fastest), the maps built from
//! layouts (composition, swizzle, restriction), and a CuTe-order layout (first leaf fastest,
//! the last leaf extended past the size). They read only the data of `layout-core`'s values
//! (the shape and stride trees) and compute in `i128`, so an overflow of `i64` shows.

use layout_core::{Layout, Stride, Tree};

/// A seed-order layout as data: its leaves `(size, stride)` (`None` = broadcast) and the sizes
/// of its top-level entries.
#[derive(Clone, Debug)]
pub struct Lay {
    /// The leaves, slowest first.
    pub leaves: Vec<(i64, Option<i64>)>,
    /// The size of each top-level entry (one entry for a bare leaf).
    pub entries: Vec<i64>,
}

fn zip_leaves(shape: &Tree<i64>, stride: &Tree<Stride>, out: &mut Vec<(i64, Option<i64>)>) {
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(d)) => out.push((
            *n,
            match d {
                Stride::Int(d) => Some(*d),
                Stride::Broadcast => None,
            },
        )),
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
            for (x, y) in a.iter().zip(b) {
                zip_leaves(x, y, out);
            }
        }
        _ => panic!("a layout of layout-core with mismatched profiles: {shape:?} vs {stride:?}"),
    }
}

/// The product of a tree's leaves, in `i128`.
#[must_use]
pub fn tree_size(t: &Tree<i64>) -> i128 {
    super::bytes::leaves(t)
        .iter()
        .map(|&n| i128::from(n))
        .product()
}

impl Lay {
    /// The data of a layout of `layout-core`.
    #[must_use]
    pub fn of(l: &Layout) -> Lay {
        Lay::from_trees(l.shape(), l.stride())
    }

    /// The data of a shape and a stride tree of one profile.
    #[must_use]
    pub fn from_trees(shape: &Tree<i64>, stride: &Tree<Stride>) -> Lay {
        let mut leaves = Vec::new();
        zip_leaves(shape, stride, &mut leaves);
        let entries = match shape {
            Tree::Leaf(n) => vec![*n],
            Tree::Tuple(v) => v
                .iter()
                .map(|t| i64::try_from(tree_size(t)).unwrap_or(i64::MAX))
                .collect(),
        };
        Lay { leaves, entries }
    }

    /// Number of positions.
    #[must_use]
    pub fn size(&self) -> i128 {
        self.leaves.iter().map(|&(n, _)| i128::from(n)).product()
    }

    /// The offset at flat index `i` (last leaf fastest); `None` outside `[0, size)`.
    #[must_use]
    pub fn eval(&self, i: i128) -> Option<i128> {
        if i < 0 || i >= self.size() {
            return None;
        }
        let mut rest = i;
        let mut acc = 0i128;
        for &(n, d) in self.leaves.iter().rev() {
            let n = i128::from(n);
            let c = rest % n;
            rest /= n;
            acc += c * i128::from(d.unwrap_or(0));
        }
        Some(acc)
    }

    /// The leaf digits of flat index `i` (slowest first).
    #[must_use]
    pub fn digits(&self, i: i128) -> Vec<i128> {
        let mut rest = i;
        let mut out = vec![0; self.leaves.len()];
        for (k, &(n, _)) in self.leaves.iter().enumerate().rev() {
            out[k] = rest % i128::from(n);
            rest /= i128::from(n);
        }
        out
    }

    /// Every offset, in flat-index order.
    #[must_use]
    pub fn offsets(&self) -> Vec<i128> {
        (0..self.size()).filter_map(|i| self.eval(i)).collect()
    }

    /// Whether the offsets are exactly `0..size` (each once).
    #[must_use]
    pub fn is_dense_bijection(&self) -> bool {
        let mut o = self.offsets();
        o.sort_unstable();
        o.iter().enumerate().all(|(i, &v)| v == i as i128)
    }

    /// Whether two coordinates that differ at a non-broadcast leaf never share an offset.
    #[must_use]
    pub fn is_alias_free(&self) -> bool {
        let kept = Lay {
            leaves: self
                .leaves
                .iter()
                .copied()
                .filter(|l| l.1.is_some())
                .collect(),
            entries: Vec::new(),
        };
        let mut o = kept.offsets();
        o.sort_unstable();
        o.windows(2).all(|w| w[0] != w[1])
    }

    /// `(min, max)` of the offsets (by the leaves' signs, not by enumeration).
    #[must_use]
    pub fn span(&self) -> (i128, i128) {
        let (mut lo, mut hi) = (0i128, 0i128);
        for &(n, d) in &self.leaves {
            let t = i128::from(n - 1) * i128::from(d.unwrap_or(0));
            if t < 0 {
                lo += t;
            } else {
                hi += t;
            }
        }
        (lo, hi)
    }
}

/// A map as data: what `layout_core::Map` should compute.
#[derive(Clone, Debug)]
pub enum Model {
    /// A layout.
    Layout(Lay),
    /// `x ^ (((x >> src) & (2^b - 1)) << dst)` after `inner`.
    Swizzle {
        /// Bits moved.
        b: u32,
        /// Lowest source bit.
        src: u32,
        /// Lowest destination bit.
        dst: u32,
        /// The map before.
        inner: Box<Model>,
    },
    /// `left ∘ right`.
    Compose(Box<Model>, Box<Model>),
    /// `inner` with top-level entries fixed: `(entry of inner, value)`.
    Restrict {
        /// Fixed entries (entry numbers of `inner`'s domain) and their flat values.
        fixed: Vec<(usize, i64)>,
        /// The map restricted.
        inner: Box<Model>,
    },
}

impl Model {
    /// The sizes of the domain's top-level entries.
    #[must_use]
    pub fn entries(&self) -> Vec<i64> {
        match self {
            Model::Layout(l) => l.entries.clone(),
            Model::Swizzle { inner, .. } => inner.entries(),
            Model::Compose(_, r) => r.entries(),
            Model::Restrict { fixed, inner } => inner
                .entries()
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !fixed.iter().any(|(e, _)| e == i))
                .map(|(_, n)| n)
                .collect(),
        }
    }

    /// Number of positions of the domain.
    #[must_use]
    pub fn size(&self) -> i128 {
        match self {
            Model::Layout(l) => l.size(),
            Model::Swizzle { inner, .. } => inner.size(),
            Model::Compose(_, r) => r.size(),
            Model::Restrict { .. } => self.entries().iter().map(|&n| i128::from(n)).product(),
        }
    }

    /// The value at flat index `i`; `None` outside the domain or where an inner value falls
    /// outside the next map's domain.
    #[must_use]
    pub fn eval(&self, i: i128) -> Option<i128> {
        match self {
            Model::Layout(l) => l.eval(i),
            Model::Swizzle { b, src, dst, inner } => {
                let x = inner.eval(i)?;
                let mask = (1i128 << b) - 1;
                Some(x ^ (((x >> src) & mask) << dst))
            }
            Model::Compose(l, r) => l.eval(r.eval(i)?),
            Model::Restrict { fixed, inner } => {
                if i < 0 || i >= self.size() {
                    return None;
                }
                let sizes = inner.entries();
                let mut rest = i;
                let mut flat = 0i128;
                let mut weight = 1i128;
                for (e, &n) in sizes.iter().enumerate().rev() {
                    let digit = match fixed.iter().find(|(f, _)| *f == e) {
                        Some(&(_, v)) => i128::from(v),
                        None => {
                            let d = rest % i128::from(n);
                            rest /= i128::from(n);
                            d
                        }
                    };
                    flat += digit * weight;
                    weight *= i128::from(n);
                }
                inner.eval(flat)
            }
        }
    }
}

/// A CuTe-order layout as data: leaves `(size, stride)`, first fastest.
#[derive(Clone, Debug)]
pub struct CuteLay {
    /// The leaves, fastest first.
    pub leaves: Vec<(i64, i64)>,
}

impl CuteLay {
    /// The data of CuTe shape and stride trees of one profile.
    #[must_use]
    pub fn from_trees(shape: &Tree<i64>, stride: &Tree<i64>) -> CuteLay {
        fn walk(s: &Tree<i64>, d: &Tree<i64>, out: &mut Vec<(i64, i64)>) {
            match (s, d) {
                (Tree::Leaf(n), Tree::Leaf(d)) => out.push((*n, *d)),
                (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
                    for (x, y) in a.iter().zip(b) {
                        walk(x, y, out);
                    }
                }
                _ => panic!("a CuTe layout with mismatched profiles: {s:?} vs {d:?}"),
            }
        }
        let mut leaves = Vec::new();
        walk(shape, stride, &mut leaves);
        CuteLay { leaves }
    }

    /// The data of a CuTe layout of `layout-core`.
    #[must_use]
    pub fn of(l: &layout_core::cute::CuteLayout) -> CuteLay {
        CuteLay::from_trees(l.shape(), l.stride())
    }

    /// Number of positions.
    #[must_use]
    pub fn size(&self) -> i128 {
        self.leaves.iter().map(|&(n, _)| i128::from(n)).product()
    }

    /// The offset at `i ∈ [0, size)`, first leaf fastest.
    #[must_use]
    pub fn eval(&self, i: i128) -> Option<i128> {
        if i < 0 || i >= self.size() {
            return None;
        }
        self.eval_extended(i)
    }

    /// The offset at any `i ≥ 0`, the last leaf taking what is left (CuTe's extended domain).
    #[must_use]
    pub fn eval_extended(&self, i: i128) -> Option<i128> {
        if i < 0 {
            return None;
        }
        let mut rest = i;
        let mut acc = 0i128;
        let last = self.leaves.len().checked_sub(1);
        for (k, &(n, d)) in self.leaves.iter().enumerate() {
            let c = if Some(k) == last {
                rest
            } else {
                let c = rest % i128::from(n);
                rest /= i128::from(n);
                c
            };
            acc = acc.checked_add(c.checked_mul(i128::from(d))?)?;
        }
        // The rank-0 layout `()` is CuTe's scalar layout: 0 everywhere.
        Some(acc)
    }

    /// Every offset, first leaf fastest.
    #[must_use]
    pub fn offsets(&self) -> Vec<i128> {
        (0..self.size()).filter_map(|i| self.eval(i)).collect()
    }
}

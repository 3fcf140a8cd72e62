//! Nested tuples: the trees that shapes, strides and coordinates are made of.

use alloc::vec::Vec;
use core::fmt;

/// A nested tuple: an integer-like leaf or a tuple of trees (spec: Layouts and evaluation).
///
/// Shapes are `Tree<i64>` (sizes, each ≥ 1), strides `Tree<Stride>`, coordinates `Tree<i64>`.
/// Entries are listed in the layout's own order: the **last** entry varies fastest.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tree<T> {
    /// One integer (or one stride).
    Leaf(T),
    /// A tuple of trees; a tuple of one leaf is normalised to the leaf by the parser.
    Tuple(Vec<Tree<T>>),
}

/// One stride: an integer (elements, not bytes) or the broadcast `_` (the seed's ⊥).
///
/// A broadcast contributes 0 to the offset and makes coordinates that differ only there
/// equivalent (`~`; spec: Broadcast stride). CuTe writes it as stride `0`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stride {
    /// An integer stride, in elements.
    Int(i64),
    /// The broadcast stride `_`: contributes 0, read-only.
    Broadcast,
}

impl Stride {
    /// The contribution per step: the integer, or 0 for a broadcast.
    #[must_use]
    pub const fn value(self) -> i64 {
        match self {
            Stride::Int(d) => d,
            Stride::Broadcast => 0,
        }
    }
}

impl fmt::Display for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stride::Int(d) => write!(f, "{d}"),
            Stride::Broadcast => f.write_str("_"),
        }
    }
}

impl<T> Tree<T> {
    /// Number of entries at the top: 1 for a leaf.
    #[must_use]
    pub fn rank(&self) -> usize {
        match self {
            Tree::Leaf(_) => 1,
            Tree::Tuple(v) => v.len(),
        }
    }

    /// The leaves, outermost-first and in order (the last leaf varies fastest).
    #[must_use]
    pub fn leaves(&self) -> Vec<&T> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }

    fn collect_leaves<'a>(&'a self, out: &mut Vec<&'a T>) {
        match self {
            Tree::Leaf(x) => out.push(x),
            Tree::Tuple(v) => v.iter().for_each(|t| t.collect_leaves(out)),
        }
    }

    /// The same tree with every leaf mapped.
    #[must_use]
    pub fn map<U>(&self, f: &mut impl FnMut(&T) -> U) -> Tree<U> {
        match self {
            Tree::Leaf(x) => Tree::Leaf(f(x)),
            Tree::Tuple(v) => Tree::Tuple(v.iter().map(|t| t.map(f)).collect()),
        }
    }

    /// The tree with the entries of every tuple in reverse order, recursively: the conversion
    /// between seed order and CuTe order (spec: CuTe notation).
    #[must_use]
    pub fn reversed(&self) -> Tree<T>
    where
        T: Clone,
    {
        match self {
            Tree::Leaf(x) => Tree::Leaf(x.clone()),
            Tree::Tuple(v) => Tree::Tuple(v.iter().rev().map(Tree::reversed).collect()),
        }
    }

    /// The same nesting (profile) as `other`.
    #[must_use]
    pub fn same_profile<U>(&self, other: &Tree<U>) -> bool {
        match (self, other) {
            (Tree::Leaf(_), Tree::Leaf(_)) => true,
            (Tree::Tuple(a), Tree::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_profile(y))
            }
            _ => false,
        }
    }
}

impl<T: fmt::Display> fmt::Display for Tree<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tree::Leaf(x) => write!(f, "{x}"),
            Tree::Tuple(v) => {
                f.write_str("(")?;
                for (i, t) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

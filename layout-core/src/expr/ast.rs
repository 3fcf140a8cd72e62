//! The expression language as written: every node keeps its span `S` (byte ranges from the
//! parser; a front end may map them to its own positions with `map_spans`).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::emit::IntType;
use crate::error::ModePath;
use crate::space::Space;
use crate::swizzle::SwizzleUnit;
use crate::tree::{Stride, Tree};

/// One leaf of a shape or stride as written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Leaf<S> {
    /// An integer (CuTe's static `_8` is the integer 8).
    Int(i64),
    /// The broadcast stride `_`.
    Under,
    /// A run-time leaf `{ .. }`: the span of what is between the braces, kept opaque.
    Runtime(S),
}

/// A shape or stride tree as written, in the written order, each node with its span (a
/// tuple's span covers its parentheses). A tuple of one leaf is that leaf (spec: Layouts and evaluation), so mode
/// paths match [`crate::Layout`]'s.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Node<S> {
    /// A leaf and its token (a run-time leaf: its braces).
    Leaf(Leaf<S>, S),
    /// A tuple and its parentheses.
    Tuple(Vec<Node<S>>, S),
}

impl<S: Clone> Node<S> {
    /// The node's span.
    #[must_use]
    pub fn span(&self) -> &S {
        match self {
            Node::Leaf(_, s) | Node::Tuple(_, s) => s,
        }
    }

    /// The node at a path of written-order indices.
    #[must_use]
    pub fn at(&self, path: &[usize]) -> Option<&Node<S>> {
        match (path.split_first(), self) {
            (None, n) => Some(n),
            (Some((i, rest)), Node::Tuple(v, _)) => v.get(*i)?.at(rest),
            (Some(_), Node::Leaf(..)) => None,
        }
    }

    /// The leaves, in written order.
    #[must_use]
    pub fn leaves(&self) -> Vec<(&Leaf<S>, &S)> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<(&'a Leaf<S>, &'a S)>) {
        match self {
            Node::Leaf(l, s) => out.push((l, s)),
            Node::Tuple(v, _) => v.iter().for_each(|n| n.collect(out)),
        }
    }

    /// The tree of leaf values, in written order.
    #[must_use]
    pub fn to_tree<T>(&self, f: &mut impl FnMut(&Leaf<S>) -> T) -> Tree<T> {
        match self {
            Node::Leaf(l, _) => Tree::Leaf(f(l)),
            Node::Tuple(v, _) => Tree::Tuple(v.iter().map(|n| n.to_tree(f)).collect()),
        }
    }

    /// The same tree with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Node<T> {
        match self {
            Node::Leaf(l, s) => {
                let l = match l {
                    Leaf::Int(v) => Leaf::Int(*v),
                    Leaf::Under => Leaf::Under,
                    Leaf::Runtime(r) => Leaf::Runtime(f(r)),
                };
                Node::Leaf(l, f(s))
            }
            Node::Tuple(v, s) => Node::Tuple(v.iter().map(|n| n.map_spans(f)).collect(), f(s)),
        }
    }
}

/// A layout `['cute'] shape ':' stride` as written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LayoutExpr<S> {
    /// Written in CuTe order (the `cute` keyword, or the CuTe order option).
    pub cute: bool,
    /// The names of the top-level shape modes as written (written order), empty when none is
    /// named.
    pub names: Vec<Option<(String, S)>>,
    /// The shape as written.
    pub shape: Node<S>,
    /// The stride as written.
    pub stride: Node<S>,
    /// The whole layout (after the `cute` keyword).
    pub span: S,
}

/// A layout's trees in seed order: CuTe input reversed recursively, its stride `0` on a mode of
/// size > 1 read as the broadcast `_` (CuTe's convention), run-time leaves as placeholders
/// (size 1, stride `_`) with their spans listed per leaf.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeedTrees<S> {
    /// Sizes, seed order.
    pub shape: Tree<i64>,
    /// Strides, seed order.
    pub stride: Tree<Stride>,
    /// Top-level names, seed order (empty when none).
    pub names: Vec<Option<String>>,
    /// Per leaf (seed order) the run-time size and stride, if any; empty for a static layout.
    pub runtime: Vec<(Option<S>, Option<S>)>,
}

/// CuTe reads stride 0 on a mode of size > 1 as a broadcast: the one place this conversion
/// lives (trees in seed or CuTe order alike, with the same profile).
#[must_use]
pub fn cute_strides(shape: &Tree<i64>, stride: &Tree<Stride>) -> Tree<Stride> {
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(Stride::Int(0))) if *n > 1 => Tree::Leaf(Stride::Broadcast),
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
            Tree::Tuple(a.iter().zip(b).map(|(s, d)| cute_strides(s, d)).collect())
        }
        _ => stride.clone(),
    }
}

impl<S: Clone> LayoutExpr<S> {
    /// The trees in seed order (see [`SeedTrees`]).
    #[must_use]
    pub fn seed(&self) -> SeedTrees<S> {
        let shape = self.shape.to_tree(&mut |l| match l {
            Leaf::Int(v) => *v,
            Leaf::Under | Leaf::Runtime(_) => 1,
        });
        let stride = self.stride.to_tree(&mut |l| match l {
            Leaf::Int(v) => Stride::Int(*v),
            Leaf::Under | Leaf::Runtime(_) => Stride::Broadcast,
        });
        let rt = |n: &Node<S>| -> Vec<Option<S>> {
            n.leaves()
                .into_iter()
                .map(|(l, _)| match l {
                    Leaf::Runtime(s) => Some(s.clone()),
                    _ => None,
                })
                .collect()
        };
        let (mut rs, mut rd) = (rt(&self.shape), rt(&self.stride));
        let mut names: Vec<Option<String>> = self
            .names
            .iter()
            .map(|n| n.as_ref().map(|(s, _)| s.clone()))
            .collect();
        let (shape, stride) = if self.cute {
            rs.reverse();
            rd.reverse();
            names.reverse();
            let shape = shape.reversed();
            let stride = cute_strides(&shape, &stride.reversed());
            (shape, stride)
        } else {
            (shape, stride)
        };
        let runtime = if rs.iter().chain(&rd).any(Option::is_some) {
            // Profiles may differ (an error reported elsewhere): pair what exists.
            let n = rs.len().max(rd.len());
            rs.resize(n, None);
            rd.resize(n, None);
            rs.into_iter().zip(rd).collect()
        } else {
            Vec::new()
        };
        SeedTrees {
            shape,
            stride,
            names,
            runtime,
        }
    }

    /// Whether a leaf is a run-time `{ .. }`.
    #[must_use]
    pub fn has_runtime(&self) -> bool {
        self.shape
            .leaves()
            .iter()
            .chain(self.stride.leaves().iter())
            .any(|(l, _)| matches!(l, Leaf::Runtime(_)))
    }

    /// A seed-order mode path as written: the written-order indices, and the shape and stride
    /// nodes there (`None` past the written tree).
    #[must_use]
    pub fn locate(&self, seed: &ModePath) -> (ModePath, Option<&Node<S>>, Option<&Node<S>>) {
        let mut written = Vec::new();
        let mut shape = Some(&self.shape);
        let mut stride = Some(&self.stride);
        for &i in seed.indices() {
            let Some(Node::Tuple(items, _)) = shape else {
                shape = None;
                stride = None;
                break;
            };
            let i = usize::from(i);
            let w = if self.cute {
                items.len().saturating_sub(i.saturating_add(1))
            } else {
                i
            };
            written.push(w);
            shape = items.get(w);
            stride = match stride {
                Some(Node::Tuple(s, _)) => s.get(w),
                _ => None,
            };
        }
        let path = ModePath::from_indices(&written).unwrap_or(*seed);
        (path, shape, stride)
    }

    /// The same layout with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> LayoutExpr<T> {
        LayoutExpr {
            cute: self.cute,
            names: self
                .names
                .iter()
                .map(|n| n.as_ref().map(|(s, sp)| (s.clone(), f(sp))))
                .collect(),
            shape: self.shape.map_spans(f),
            stride: self.stride.map_spans(f),
            span: f(&self.span),
        }
    }
}

/// A tile shape as written: its extents (the leaves, in written order) and the whole tile.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tile<S> {
    /// The extents and their tokens, written order.
    pub extents: Vec<(i64, S)>,
    /// The whole tile (its parentheses, or the one integer).
    pub span: S,
}

impl<S: Clone> Tile<S> {
    /// The same tile with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Tile<T> {
        Tile {
            extents: self.extents.iter().map(|(k, s)| (*k, f(s))).collect(),
            span: f(&self.span),
        }
    }
}

/// One side of an annotation: a space, where it is written, and a tile on a logical side.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Side<S> {
    /// The space.
    pub space: Space,
    /// Its name (`thread-value`: all three tokens).
    pub span: S,
    /// `logical(16, 8)`: the tile, in the order written (CuTe order for a `cute` layout).
    pub tile: Option<Tile<S>>,
}

/// A swizzle as written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SwizzleSpec {
    /// `swizzle(b = .., src = .., dst = ..)`: bits of element offsets.
    Fields {
        /// Number of bits.
        b: i64,
        /// Lowest source bit.
        src: i64,
        /// Lowest destination bit.
        dst: i64,
    },
    /// CuTe's `Swizzle<B,M,S> over UNIT`.
    Cute {
        /// CuTe's `B`.
        b: i64,
        /// CuTe's `M`.
        m: i64,
        /// CuTe's `S`.
        s: i64,
        /// Element offsets, or byte addresses of elements of a width.
        unit: SwizzleUnit,
    },
}

impl SwizzleSpec {
    /// The swizzle on element offsets.
    ///
    /// # Errors
    /// As [`crate::Swizzle::from_fields`] and [`crate::Swizzle::from_cute`].
    pub fn build(self) -> Result<crate::Swizzle, crate::Error> {
        match self {
            SwizzleSpec::Fields { b, src, dst } => crate::Swizzle::from_fields(b, src, dst),
            SwizzleSpec::Cute { b, m, s, unit } => crate::Swizzle::from_cute(b, m, s, unit),
        }
    }
}

/// The hardware operand a clause requires a declared shared-memory tile to be.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    /// `wgmma K-major` / `wgmma MN-major`: an operand tile a `wgmma` shared-memory descriptor
    /// describes ([`crate::gmma::descriptor`]).
    Wgmma(crate::gmma::Major),
    /// `tma box`: the image of a tiled tensor map's box ([`crate::tma::tensor_map`]).
    TmaBox,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Wgmma(major) => write!(f, "wgmma {major}"),
            Operand::TmaBox => f.write_str("tma box"),
        }
    }
}

/// An operand clause as written: `wgmma K-major`, `wgmma MN-major` or `tma box`, optionally
/// followed by `of N-bit elements`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OperandClause<S> {
    /// The operand.
    pub operand: Operand,
    /// The element width written after `of` (bits), and its tokens `of N-bit elements`.
    pub elem_bits: Option<(u32, S)>,
    /// The clause's tokens.
    pub span: S,
}

/// A declaration `layout ',' side '->' side (',' option)*`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Decl<S> {
    /// The layout.
    pub layout: LayoutExpr<S>,
    /// The domain.
    pub domain: Side<S>,
    /// The codomain.
    pub codomain: Side<S>,
    /// A swizzle option and its name's token.
    pub swizzle: Option<(SwizzleSpec, S)>,
    /// `index = T` and the type's token.
    pub index: Option<(IntType, S)>,
    /// The operand clauses (`wgmma K-major`, `tma box`), in the order written.
    pub operands: Vec<OperandClause<S>>,
}

impl<S: Clone> Decl<S> {
    /// The same declaration with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Decl<T> {
        let side = |s: &Side<S>, f: &mut dyn FnMut(&S) -> T| Side {
            space: s.space,
            span: f(&s.span),
            tile: s.tile.as_ref().map(|t| t.map_spans(f)),
        };
        Decl {
            layout: self.layout.map_spans(f),
            domain: side(&self.domain, &mut *f),
            codomain: side(&self.codomain, &mut *f),
            swizzle: self.swizzle.as_ref().map(|(w, s)| (*w, f(s))),
            index: self.index.as_ref().map(|(t, s)| (*t, f(s))),
            operands: self
                .operands
                .iter()
                .map(|c| OperandClause {
                    operand: c.operand,
                    elem_bits: c.elem_bits.as_ref().map(|(b, s)| (*b, f(s))),
                    span: f(&c.span),
                })
                .collect(),
        }
    }
}

/// The operations of an expression.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// `compose(left, right)`: `right` first, then `left`.
    Compose,
    /// `divide(L, tile)`.
    Divide,
    /// `divide_modes(L, tile)`.
    DivideModes,
    /// `restrict(M, entry = value, ..)`.
    Restrict,
    /// `repeat(L, arrangement)`.
    Repeat,
    /// `interleave(L, arrangement)`.
    Interleave,
    /// `repeat_modewise(L, arrangement)`: [`repeat`](crate::repeat_modewise) per mode.
    RepeatModewise,
    /// `repeat_modewise_raked(L, arrangement)`: the per-mode copies innermost.
    RepeatModewiseRaked,
    /// `broadcast(L, shape)`.
    Broadcast,
    /// `inverse(L)`.
    Inverse,
    /// `swizzle(M, fields)`.
    Swizzle,
    /// `group(M, start, end)`.
    Group,
    /// `flatten(M)`.
    Flatten,
    /// `select(M, (i, ..))`.
    Select,
    /// `permute(M, (i, ..))`.
    Permute,
    /// `coalesce(M)`.
    Coalesce,
}

impl Op {
    /// Every operation, in the order the help lists them.
    pub const ALL: [Op; 16] = [
        Op::Compose,
        Op::Divide,
        Op::DivideModes,
        Op::Restrict,
        Op::Repeat,
        Op::Interleave,
        Op::RepeatModewise,
        Op::RepeatModewiseRaked,
        Op::Broadcast,
        Op::Inverse,
        Op::Swizzle,
        Op::Group,
        Op::Flatten,
        Op::Select,
        Op::Permute,
        Op::Coalesce,
    ];

    /// The name as written.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Op::Compose => "compose",
            Op::Divide => "divide",
            Op::DivideModes => "divide_modes",
            Op::Restrict => "restrict",
            Op::Repeat => "repeat",
            Op::Interleave => "interleave",
            Op::RepeatModewise => "repeat_modewise",
            Op::RepeatModewiseRaked => "repeat_modewise_raked",
            Op::Broadcast => "broadcast",
            Op::Inverse => "inverse",
            Op::Swizzle => "swizzle",
            Op::Group => "group",
            Op::Flatten => "flatten",
            Op::Select => "select",
            Op::Permute => "permute",
            Op::Coalesce => "coalesce",
        }
    }

    /// The operation of a name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.as_str() == name)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `divide` or `divide_modes`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DivideKind {
    /// `divide`: the domain becomes `(tile, rest)`.
    Whole,
    /// `divide_modes`: each top-level mode becomes `(tile, rest)`; the same function.
    Modes,
}

/// `repeat`, `interleave` or one of the per-mode forms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RepeatKind {
    /// `repeat`: the copies are the slowest.
    Repeat,
    /// `interleave`: the copies are the fastest.
    Interleave,
    /// `repeat_modewise` (the blocked product): in each top-level mode, the copies are the
    /// slower piece.
    Modewise,
    /// `repeat_modewise_raked` (the raked product): in each top-level mode, the copies are the
    /// faster piece.
    ModewiseRaked,
}

impl DivideKind {
    /// The operation this kind is written as.
    pub const fn op(self) -> Op {
        match self {
            DivideKind::Whole => Op::Divide,
            DivideKind::Modes => Op::DivideModes,
        }
    }
}

impl RepeatKind {
    /// The operation this kind is written as.
    pub const fn op(self) -> Op {
        match self {
            RepeatKind::Repeat => Op::Repeat,
            RepeatKind::Interleave => Op::Interleave,
            RepeatKind::Modewise => Op::RepeatModewise,
            RepeatKind::ModewiseRaked => Op::RepeatModewiseRaked,
        }
    }

    /// The kind written as `op`, if `op` is one of the four.
    #[must_use]
    pub const fn of(op: Op) -> Option<RepeatKind> {
        match op {
            Op::Repeat => Some(RepeatKind::Repeat),
            Op::Interleave => Some(RepeatKind::Interleave),
            Op::RepeatModewise => Some(RepeatKind::Modewise),
            Op::RepeatModewiseRaked => Some(RepeatKind::ModewiseRaked),
            _ => None,
        }
    }
}

/// A list of top-level mode indices as written (`select`, `permute`): each index and its
/// token, and the whole list.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Indices<S> {
    /// The indices as written (0-based; slowest first, or fastest first in CuTe order) and
    /// their tokens.
    pub indices: Vec<(usize, S)>,
    /// The whole list (its parentheses, or the one integer).
    pub span: S,
}

impl<S: Clone> Indices<S> {
    /// The same list with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Indices<T> {
        Indices {
            indices: self.indices.iter().map(|(i, s)| (*i, f(s))).collect(),
            span: f(&self.span),
        }
    }
}

/// A regrouping of a map's domain (the operations of `layout_core::{group, flatten, select,
/// permute, coalesce}` on the domain of a map).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Regroup<S> {
    /// `group(M, start, end)`: the top-level modes `start..end` become one mode.
    Group {
        /// The first mode and its token.
        start: (usize, S),
        /// One past the last mode and its token.
        end: (usize, S),
    },
    /// `flatten(M)`: every leaf a top-level mode.
    Flatten,
    /// `select(M, (i, ..))`: the listed top-level modes, in that order.
    Select(Indices<S>),
    /// `permute(M, (i, ..))`: every top-level mode, in the listed order.
    Permute(Indices<S>),
    /// `coalesce(M)`: the fewest leaves with the same function on flat indices.
    Coalesce,
}

impl<S: Clone> Regroup<S> {
    /// The operation this regrouping is written as.
    #[must_use]
    pub fn op(&self) -> Op {
        match self {
            Regroup::Group { .. } => Op::Group,
            Regroup::Flatten => Op::Flatten,
            Regroup::Select(_) => Op::Select,
            Regroup::Permute(_) => Op::Permute,
            Regroup::Coalesce => Op::Coalesce,
        }
    }

    /// The same regrouping with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Regroup<T> {
        match self {
            Regroup::Group { start, end } => Regroup::Group {
                start: (start.0, f(&start.1)),
                end: (end.0, f(&end.1)),
            },
            Regroup::Flatten => Regroup::Flatten,
            Regroup::Select(i) => Regroup::Select(i.map_spans(f)),
            Regroup::Permute(i) => Regroup::Permute(i.map_spans(f)),
            Regroup::Coalesce => Regroup::Coalesce,
        }
    }
}

/// Which entry `restrict` fixes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Entry<S> {
    /// A position among the free top-level entries (in the order option's order).
    Position(usize, S),
    /// A top-level mode name.
    Name(String, S),
    /// The whole domain, CuTe's `tensor(_, _, k)`: the value has one element per free
    /// top-level entry (in the order option's order), or is the one entry's value. Only as
    /// the one argument after the map; the span is the value's.
    All(S),
}

impl<S> Entry<S> {
    /// Where it is written.
    pub fn span(&self) -> &S {
        match self {
            Entry::Position(_, s) | Entry::Name(_, s) | Entry::All(s) => s,
        }
    }
}

/// The value `restrict` fixes an entry to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value<S> {
    /// An integer: the entry's flat index.
    Int(i64, S),
    /// A coordinate of the entry's shape, `(1, 3)` (in the order option's order).
    Coord(Tree<i64>, S),
    /// A run-time value: every token up to the next top-level `,`, kept opaque.
    Runtime(S),
    /// `_`: the part stays free (CuTe's underscore).
    Free(S),
    /// A tuple that mirrors the entry's shape with a free `_` or a run-time value among its
    /// elements, at any depth (in the order option's order); an all-integer tuple is a
    /// [`Value::Coord`].
    Parts(Vec<Value<S>>, S),
}

impl<S> Value<S> {
    /// Where it is written.
    pub fn span(&self) -> &S {
        match self {
            Value::Int(_, s)
            | Value::Coord(_, s)
            | Value::Runtime(s)
            | Value::Free(s)
            | Value::Parts(_, s) => s,
        }
    }

    /// Whether a run-time value is in it, at any depth.
    #[must_use]
    pub fn has_runtime(&self) -> bool {
        match self {
            Value::Runtime(_) => true,
            Value::Parts(v, _) => v.iter().any(Value::has_runtime),
            Value::Int(..) | Value::Coord(..) | Value::Free(_) => false,
        }
    }

    /// The same value with every span mapped.
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Value<T> {
        match self {
            Value::Int(x, s) => Value::Int(*x, f(s)),
            Value::Coord(c, s) => Value::Coord(c.clone(), f(s)),
            Value::Runtime(s) => Value::Runtime(f(s)),
            Value::Free(s) => Value::Free(f(s)),
            Value::Parts(v, s) => {
                let parts = v.iter().map(|x| x.map_spans(f)).collect();
                Value::Parts(parts, f(s))
            }
        }
    }
}

/// A path naming an operand: `A`, `a::B`, `crate::m::C`, `::c::D`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Path<S> {
    /// Whether it starts with `::`.
    pub leading: bool,
    /// The segments and their tokens.
    pub segments: Vec<(String, S)>,
    /// The last segment's token, where errors about the operand point.
    pub span: S,
}

impl<S> Path<S> {
    /// The key an environment looks the operand up by: the whole path as written, segments
    /// joined by `::` (`crate::m::C`, `::c::D`).
    #[must_use]
    pub fn key(&self) -> String {
        let mut k = String::new();
        if self.leading {
            k.push_str("::");
        }
        for (i, (s, _)) in self.segments.iter().enumerate() {
            if i > 0 {
                k.push_str("::");
            }
            k.push_str(s);
        }
        k
    }
}

/// The arrangement of `repeat`, `interleave`, `repeat_modewise` and `repeat_modewise_raked`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Arrangement<S> {
    /// A literal layout without spaces, `(3):(1)`.
    Layout(LayoutExpr<S>),
    /// An expression whose value is a layout.
    Expr(Expr<S>),
}

/// An expression. Operations keep their name's token as their span.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Expr<S> {
    /// A named operand, resolved through the [`super::Env`].
    Operand(Path<S>),
    /// `[decl]` and the brackets.
    Literal(Box<Decl<S>>, S),
    /// A bare layout (only with [`super::Options::bare`]), with the spaces of its position.
    Bare(Box<LayoutExpr<S>>, (Space, Space)),
    /// `compose(left, right)`.
    Compose {
        /// Applied second.
        left: Box<Expr<S>>,
        /// Applied first.
        right: Box<Expr<S>>,
        /// The name.
        span: S,
    },
    /// `divide(L, tile)` / `divide_modes(L, tile)`.
    Divide {
        /// The layout.
        operand: Box<Expr<S>>,
        /// The tile (extents in the order option's order).
        tile: Tile<S>,
        /// Which divide.
        kind: DivideKind,
        /// The name.
        span: S,
    },
    /// `restrict(M, entry = value, ..)`.
    Restrict {
        /// The map.
        operand: Box<Expr<S>>,
        /// The entries and their values, as written.
        fixed: Vec<(Entry<S>, Value<S>)>,
        /// The name.
        span: S,
    },
    /// `repeat(L, A)`, `interleave(L, A)`, `repeat_modewise(L, A)`, `repeat_modewise_raked(L, A)`.
    Repeat {
        /// The layout.
        operand: Box<Expr<S>>,
        /// The arrangement.
        arrangement: Box<Arrangement<S>>,
        /// Which one.
        kind: RepeatKind,
        /// The name.
        span: S,
    },
    /// `broadcast(L, shape)`.
    Broadcast {
        /// The map.
        operand: Box<Expr<S>>,
        /// The copies' shape, seed order.
        shape: Tree<i64>,
        /// Where the shape is written.
        shape_span: S,
        /// The name.
        span: S,
    },
    /// `inverse(L)`.
    Inverse {
        /// The layout.
        operand: Box<Expr<S>>,
        /// The name.
        span: S,
    },
    /// `swizzle(M, ..)`.
    Swizzle {
        /// The map.
        operand: Box<Expr<S>>,
        /// The swizzle.
        swizzle: SwizzleSpec,
        /// The name.
        span: S,
    },
    /// `group`, `flatten`, `select`, `permute`, `coalesce`: a regrouping of the domain.
    Regroup {
        /// The map.
        operand: Box<Expr<S>>,
        /// Which regrouping, with its arguments.
        regroup: Regroup<S>,
        /// The name.
        span: S,
    },
}

impl<S: Clone> Expr<S> {
    /// Where errors about the expression's value point: an operation's name, a literal's
    /// brackets, a bare layout, a path's last segment.
    #[must_use]
    pub fn span(&self) -> S {
        match self {
            Expr::Operand(p) => p.span.clone(),
            Expr::Literal(_, s) => s.clone(),
            Expr::Bare(l, _) => l.span.clone(),
            Expr::Compose { span, .. }
            | Expr::Divide { span, .. }
            | Expr::Restrict { span, .. }
            | Expr::Repeat { span, .. }
            | Expr::Broadcast { span, .. }
            | Expr::Inverse { span, .. }
            | Expr::Swizzle { span, .. }
            | Expr::Regroup { span, .. } => span.clone(),
        }
    }

    /// The named operands, each key once, in order of first use.
    #[must_use]
    pub fn operands(&self) -> Vec<&Path<S>> {
        let mut out: Vec<&Path<S>> = Vec::new();
        self.walk(&mut |p| {
            if !out.iter().any(|q| q.key() == p.key()) {
                out.push(p);
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Path<S>)) {
        match self {
            Expr::Operand(p) => f(p),
            Expr::Literal(..) | Expr::Bare(..) => {}
            Expr::Compose { left, right, .. } => {
                left.walk(f);
                right.walk(f);
            }
            Expr::Repeat {
                operand,
                arrangement,
                ..
            } => {
                operand.walk(f);
                if let Arrangement::Expr(e) = arrangement.as_ref() {
                    e.walk(f);
                }
            }
            Expr::Divide { operand, .. }
            | Expr::Restrict { operand, .. }
            | Expr::Broadcast { operand, .. }
            | Expr::Inverse { operand, .. }
            | Expr::Swizzle { operand, .. }
            | Expr::Regroup { operand, .. } => operand.walk(f),
        }
    }

    /// The same expression with every span mapped.
    #[must_use]
    pub fn map_spans<T>(&self, f: &mut dyn FnMut(&S) -> T) -> Expr<T> {
        let b = |e: &Expr<S>, f: &mut dyn FnMut(&S) -> T| Box::new(e.map_spans(f));
        match self {
            Expr::Operand(p) => Expr::Operand(Path {
                leading: p.leading,
                segments: p
                    .segments
                    .iter()
                    .map(|(s, sp)| (s.clone(), f(sp)))
                    .collect(),
                span: f(&p.span),
            }),
            Expr::Literal(d, s) => Expr::Literal(Box::new(d.map_spans(f)), f(s)),
            Expr::Bare(l, sp) => Expr::Bare(Box::new(l.map_spans(f)), *sp),
            Expr::Compose { left, right, span } => Expr::Compose {
                left: b(left, f),
                right: b(right, f),
                span: f(span),
            },
            Expr::Divide {
                operand,
                tile,
                kind,
                span,
            } => Expr::Divide {
                operand: b(operand, f),
                tile: tile.map_spans(f),
                kind: *kind,
                span: f(span),
            },
            Expr::Restrict {
                operand,
                fixed,
                span,
            } => Expr::Restrict {
                operand: b(operand, f),
                fixed: fixed
                    .iter()
                    .map(|(e, v)| {
                        let e = match e {
                            Entry::Position(p, s) => Entry::Position(*p, f(s)),
                            Entry::Name(n, s) => Entry::Name(n.clone(), f(s)),
                            Entry::All(s) => Entry::All(f(s)),
                        };
                        (e, v.map_spans(f))
                    })
                    .collect(),
                span: f(span),
            },
            Expr::Repeat {
                operand,
                arrangement,
                kind,
                span,
            } => Expr::Repeat {
                operand: b(operand, f),
                arrangement: Box::new(match arrangement.as_ref() {
                    Arrangement::Layout(l) => Arrangement::Layout(l.map_spans(f)),
                    Arrangement::Expr(e) => Arrangement::Expr(e.map_spans(f)),
                }),
                kind: *kind,
                span: f(span),
            },
            Expr::Broadcast {
                operand,
                shape,
                shape_span,
                span,
            } => Expr::Broadcast {
                operand: b(operand, f),
                shape: shape.clone(),
                shape_span: f(shape_span),
                span: f(span),
            },
            Expr::Inverse { operand, span } => Expr::Inverse {
                operand: b(operand, f),
                span: f(span),
            },
            Expr::Swizzle {
                operand,
                swizzle,
                span,
            } => Expr::Swizzle {
                operand: b(operand, f),
                swizzle: *swizzle,
                span: f(span),
            },
            Expr::Regroup {
                operand,
                regroup,
                span,
            } => Expr::Regroup {
                operand: b(operand, f),
                regroup: regroup.map_spans(f),
                span: f(span),
            },
        }
    }
}

//! What was written, with spans.

use layout_core::{Space, Stride, Tree};
use proc_macro2::{Span, TokenStream};

/// A tree as written: leaves and tuples with their spans.
#[derive(Clone, Debug)]
pub enum Node<T> {
    Leaf(T, Span),
    Tuple(Vec<Node<T>>, Span),
}

impl<T: Clone> Node<T> {
    pub fn span(&self) -> Span {
        match self {
            Node::Leaf(_, s) | Node::Tuple(_, s) => *s,
        }
    }

    pub fn to_tree(&self) -> Tree<T> {
        match self {
            Node::Leaf(v, _) => Tree::Leaf(v.clone()),
            Node::Tuple(v, _) => Tree::Tuple(v.iter().map(Node::to_tree).collect()),
        }
    }

    pub fn reversed(&self) -> Node<T> {
        match self {
            Node::Leaf(..) => self.clone(),
            Node::Tuple(v, s) => Node::Tuple(v.iter().rev().map(Node::reversed).collect(), *s),
        }
    }

    /// A tuple of one entry is that entry (spec: Layouts and evaluation), so that mode paths match `layout-core`.
    pub fn normalised(&self) -> Node<T> {
        match self {
            Node::Leaf(..) => self.clone(),
            Node::Tuple(v, s) => {
                let inner: Vec<Node<T>> = v.iter().map(Node::normalised).collect();
                if matches!(inner.as_slice(), [Node::Leaf(..)]) {
                    inner
                        .into_iter()
                        .next()
                        .unwrap_or(Node::Tuple(Vec::new(), *s))
                } else {
                    Node::Tuple(inner, *s)
                }
            }
        }
    }

    /// The subtree at a mode path, if the path exists.
    pub fn at(&self, path: &[u8]) -> Option<&Node<T>> {
        match (path.split_first(), self) {
            (None, n) => Some(n),
            (Some((i, rest)), Node::Tuple(v, _)) => v.get(*i as usize)?.at(rest),
            (Some(_), Node::Leaf(..)) => None,
        }
    }
}

/// `shape : stride`, already in seed order (a `cute` layout is reversed by the parser).
#[derive(Clone, Debug)]
pub struct LayoutAst {
    /// Names of the top-level modes (seed order), empty when none is named.
    pub names: Vec<Option<String>>,
    /// Per leaf (seed order), the run-time `{expr}` size and stride, if any; empty when the
    /// layout is static. In `shape`/`stride` such leaves are placeholders (size 1, stride `_`).
    pub runtime: Vec<(Option<TokenStream>, Option<TokenStream>)>,
    pub shape: Node<i64>,
    pub stride: Node<Stride>,
    /// The first token of the layout.
    pub span: Span,
    /// The last token (the stride's group): with `span`, the range of the whole layout.
    pub last: Span,
    pub cute: bool,
}

/// One side of the annotation: a space and an optional tile shape (seed order).
#[derive(Clone, Debug)]
pub struct Side {
    pub space: Space,
    pub span: Span,
    pub tile: Option<(Vec<i64>, Span)>,
}

/// A swizzle as written.
#[derive(Clone, Copy, Debug)]
pub enum SwizzleAst {
    Seed {
        b: i64,
        src: i64,
        dst: i64,
    },
    /// CuTe's `Swizzle<B,M,S>`, converted to element units by the parser.
    Cute {
        b: i64,
        m: i64,
        s: i64,
    },
}

/// The index type of offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexTy {
    I32,
    I64,
    U32,
    Usize,
}

impl IndexTy {
    pub fn range(self) -> (i64, i64) {
        match self {
            IndexTy::I32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            IndexTy::I64 | IndexTy::Usize => {
                (if self == IndexTy::Usize { 0 } else { i64::MIN }, i64::MAX)
            }
            IndexTy::U32 => (0, i64::from(u32::MAX)),
        }
    }
}

/// A whole declaration: layout, annotation, options.
#[derive(Clone, Debug)]
pub struct Decl {
    pub layout: LayoutAst,
    pub domain: Side,
    pub codomain: Side,
    pub swizzle: Option<(SwizzleAst, Span)>,
    pub index: Option<(IndexTy, Span)>,
}

/// One `VIS const NAME = DECL;` of the item form.
pub struct Item {
    pub attrs: Vec<proc_macro2::TokenStream>,
    pub vis: syn::Visibility,
    pub name: syn::Ident,
    pub decl: Decl,
    /// The declaration's tokens as written, handed to algebra expressions that name the item.
    pub tokens: TokenStream,
}

/// The macro input after the crate path.
pub enum Input {
    Expr(Box<Decl>),
    Items(Vec<Item>),
    Algebra(Box<crate::algebra::Algebra>),
}

/// Everything the macro reads: the crate path and the input.
pub struct Invocation {
    pub krate: TokenStream,
    /// The tokens after the crate path, as given.
    pub rest: TokenStream,
    pub input: Input,
}

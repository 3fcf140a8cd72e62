//! The expression language of `layout!` and the `layout` command, once: its lexer and parser,
//! its AST (generic over a span type), the checker of declarations and the evaluator of
//! expressions, all reporting [`Located`] errors.
//!
//! ```text
//! layout      := ['cute'] tree ':' tree
//! tree        := leaf | '(' (item (',' item)* ','?)? ')'     a tuple of one entry is that entry
//! item        := (name ':')? tree                           names label top-level shape modes only
//! leaf        := integer | '-' integer | '_' | '_'digits | '{' balanced tokens '}'
//!                ('_' is a stride only; '_8' is CuTe's static 8, in CuTe order only;
//!                 '{ .. }' is an opaque run-time leaf)
//! decl        := layout ',' side '->' side (',' option)* ','?
//! side        := ('logical' | 'thread' '-' 'value' | 'tv' | 'physical') tile?
//! tile        := integer | '(' tile (',' tile)* ')'         the leaves are the extents
//! option      := 'swizzle' '(' field (',' field)* ')'       field := ('b' | 'src' | 'dst') '=' integer
//!              | 'Swizzle' '<' int ',' int ',' int '>' 'over' unit
//!              | 'index' '=' ('i32' | 'i64' | 'u32' | 'usize')
//!              | 'wgmma' ('K' | 'MN') '-' 'major' width?   a wgmma operand tile
//!              | 'tma' 'box' width?                        a tiled tensor map's box
//! width       := 'of' integer '-' 'bit' 'elements'
//! unit        := 'elements' | 'bytes' 'of' integer '-' 'bit' 'elements'
//! expr        := op '(' args ')' | '[' decl ']' | path | layout (only with `Options::bare`)
//! path        := '::'? ident ('::' ident)*
//! op(args)    := compose(expr, expr) | divide(expr, tile) | divide_modes(expr, tile)
//!              | restrict(expr, entry '=' value (',' entry '=' value)*)
//!              | repeat(expr, layout | expr) | interleave(expr, layout | expr)
//!              | repeat_modewise(expr, layout | expr) | repeat_modewise_raked(expr, layout | expr)
//!              | broadcast(expr, shape) | inverse(expr)
//!              | swizzle(expr, field (',' field)*) | swizzle(expr, 'Swizzle' '<' .. '>' 'over' unit)
//!              | group(expr, integer, integer) | flatten(expr) | coalesce(expr)
//!              | select(expr, indices) | permute(expr, indices)
//! indices     := integer | '(' integer (',' integer)* ','? ')'   top-level modes from 0,
//!                slowest first (fastest first in CuTe order, as CuTe counts)
//! entry       := integer | ident                            a position or a mode name
//! value       := integer | shape | run-time tokens up to the next top-level ','
//!                (a ',' inside generic arguments `f::<A, B>(x)` or closure parameters
//!                 `|a, b| ..` is not top-level; integer literals only are never run-time)
//! algebra     := ('[' path '=' decl ']')* expr              the macro's definitions, then its expression
//! ```
//!
//! Tokens are integers, identifiers and single punctuation characters; whitespace only
//! separates them, so `thread - value`, `- >` and `crate :: m :: P` read as written compactly.
//!
//! ```
//! use layout_core::expr::{self, Env, Options};
//! let opts = Options::default();
//! let e = expr::parse_expr(
//!     "compose([(16,32):(32,1), logical -> physical], [(64,8):(8,1), thread-value -> logical])",
//!     &opts,
//! ).map_err(|l| l.error)?;
//! let v = expr::evaluate(&e, &Env::new(), &opts).map_err(|l| l[0].error)?;
//! assert_eq!(v.map.eval_index(9)?, 9);
//!
//! // Every error is located: here the right operand's size, at its brackets.
//! let text = "compose([(16,32):(32,1), logical -> physical], [8:1, thread-value -> logical])";
//! let e = expr::parse_expr(text, &opts).map_err(|l| l.error)?;
//! let errs = expr::evaluate(&e, &Env::new(), &opts).unwrap_err();
//! assert_eq!(errs[0].error.rule(), "size-mismatch");
//! assert_eq!(&text[errs[0].span.clone()], "[8:1, thread-value -> logical]");
//! # Ok::<(), layout_core::Error>(())
//! ```

mod ast;
mod check;
mod eval;
mod lex;
pub(crate) mod parse;

use alloc::vec::Vec;
use core::fmt;

pub use ast::{
    Arrangement, Decl, DivideKind, Entry, Expr, Indices, LayoutExpr, Leaf, Node, Op, Operand,
    OperandClause, Path, Regroup, RepeatKind, SeedTrees, Side, SwizzleSpec, Tile, Value,
    cute_strides,
};
pub use check::{
    Checked, check_decl, check_layout, check_operand, check_typed_limits, locate_layout_error,
    typed_limits,
};
pub use eval::{Env, Evaluated, evaluate};

use crate::error::{Error, ModePath};
use crate::space::Space;
use crate::tree::Tree;

/// The parser's span: a byte range into the text.
pub type Span = core::ops::Range<usize>;

/// How deeply operations (and the tuples of tiles and shapes inside them) may nest.
pub const MAX_EXPR_DEPTH: usize = 64;

/// The most extents a tile shape has (the typed API's `Tile1` to `Tile4`).
pub const MAX_TILE_EXTENTS: usize = 4;

/// The most leaf modes a layout or map of the typed API has (`layout_typed::MAX_LEAVES`: it
/// evaluates through fixed coordinate arrays); `layout!` refuses more with
/// [`Error::TypedLeaves`].
pub const MAX_TYPED_LEAVES: usize = 32;

/// The most entries of one tuple in the typed API (its forms are tuples of 2 to 8 entries);
/// `layout!` refuses more with [`Error::TypedRank`].
pub const MAX_TYPED_RANK: usize = 8;

/// The order positions, tiles, shapes and coordinates of an expression are written in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Order {
    /// Seed order (the last entry varies fastest); a layout is in CuTe order only after
    /// `cute`.
    #[default]
    Seed,
    /// CuTe order everywhere (the CLI's `--cute`): every layout, tile, `broadcast` shape and
    /// `restrict` coordinate and position, and the mode paths of errors.
    Cute,
}

/// The spaces of bare layouts (layouts without `[.., DOMAIN -> CODOMAIN]`), by position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BareSpaces {
    /// At the top, the left operand of `compose`, and the operands of the layout operations.
    pub storage: (Space, Space),
    /// The right operand of `compose` and the operand of `inverse`.
    pub right: (Space, Space),
}

impl Default for BareSpaces {
    /// `logical -> physical`, and `thread-value -> logical` on the right of `compose` and in
    /// `inverse`.
    fn default() -> BareSpaces {
        BareSpaces {
            storage: (Space::Logical, Space::Physical),
            right: (Space::ThreadValue, Space::Logical),
        }
    }
}

/// What a front end allows and how it numbers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Options {
    /// The order of positions, tiles, shapes and mode paths.
    pub order: Order,
    /// Whether bare layouts are operands, and their spaces (`None`: not allowed).
    pub bare: Option<BareSpaces>,
    /// Whether run-time leaves `{ .. }` and run-time `restrict` values are allowed (only
    /// `layout!` has them; else [`Error::RuntimeLeaf`] and [`Error::RuntimeValue`]).
    pub runtime: bool,
}

impl Default for Options {
    /// The macro's options: seed order, no bare layouts, run-time values allowed.
    fn default() -> Options {
        Options {
            order: Order::Seed,
            bare: None,
            runtime: true,
        }
    }
}

/// An error with where it is: the span of the token that caused it, the mode path in the
/// order the layout was written (CuTe order for a `cute` layout; the error's own mode is
/// rewritten to it too), and notes pointing at related tokens.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Located<S> {
    /// The rule, its numbers, message and help.
    pub error: Error,
    /// The offending token or range.
    pub span: S,
    /// The mode path as written, when the error is about a mode.
    pub mode: Option<ModePath>,
    /// Secondary locations.
    pub notes: Vec<Note<S>>,
}

impl<S> Located<S> {
    /// An error at a span, with the error's own mode path and no notes.
    pub fn new(error: Error, span: S) -> Located<S> {
        Located {
            mode: error.mode(),
            error,
            span,
            notes: Vec::new(),
        }
    }

    /// The same error with every span mapped (the macro: byte ranges to token spans).
    pub fn map_spans<T>(&self, f: &mut impl FnMut(&S) -> T) -> Located<T> {
        Located {
            error: self.error,
            span: f(&self.span),
            mode: self.mode,
            notes: self
                .notes
                .iter()
                .map(|n| Note {
                    kind: n.kind.clone(),
                    span: f(&n.span),
                })
                .collect(),
        }
    }
}

impl<S> fmt::Display for Located<S> {
    /// The error's message, then the notes' texts that extend it (the coordinates of an
    /// aliasing pair, the coordinate where a composite is not separable).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        for n in &self.notes {
            match &n.kind {
                NoteKind::Coordinates { first, second } => {
                    write!(f, " (coordinates {first} and {second})")?;
                }
                NoteKind::Witness { coordinate } => {
                    write!(f, "; separability fails at the coordinate {coordinate:?}")?;
                }
                NoteKind::CollidingStride | NoteKind::MatchingShape => {}
            }
        }
        Ok(())
    }
}

/// A secondary location of a [`Located`] error.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Note<S> {
    /// What is there.
    pub kind: NoteKind,
    /// Where.
    pub span: S,
}

/// What a [`Note`] says.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NoteKind {
    /// The stride of the other mode of an aliasing pair.
    CollidingStride,
    /// The shape whose profile the stride does not match.
    MatchingShape,
    /// The coordinates (written order) of the two flat indices of an aliasing error; the note
    /// spans the whole layout and extends the message.
    Coordinates {
        /// The first coordinate.
        first: Tree<i64>,
        /// The second coordinate.
        second: Tree<i64>,
    },
    /// The leaf coordinate (seed order) at which a composite is not separable (Theorem 1), for
    /// [`Error::NotALayout`]; the note spans the operand and extends the message.
    Witness {
        /// The coordinate, one entry per leaf of the domain.
        coordinate: Vec<i64>,
    },
}

impl fmt::Display for NoteKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoteKind::CollidingStride => f.write_str("the colliding mode's stride is here"),
            NoteKind::MatchingShape => f.write_str("the matching shape is here"),
            NoteKind::Coordinates { first, second } => {
                write!(f, "coordinates {first} and {second}")
            }
            NoteKind::Witness { coordinate } => {
                write!(f, "separability fails at the coordinate {coordinate:?}")
            }
        }
    }
}

/// The macro's input: definitions `[PATH = DECL]` and `[PATH = ALGEBRA]` (handed back by the
/// operands' definition macros), then the expression.
///
/// An operand defined by an algebra (an item `layout! { const D = divide(S, (4, 8)); }` hands
/// on its own definitions and expression, `[D = [S = DECL] divide(S, (4, 8))]`) is that
/// expression's value, evaluated with its own definitions only: the paths inside were written
/// where the item is, and name nothing where it is used.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Algebra<S> {
    /// The definitions by a declaration, keyed by their paths as written.
    pub defs: Vec<(Path<S>, Decl<S>)>,
    /// The definitions by an expression, keyed by their paths as written.
    pub derived: Vec<(Path<S>, Algebra<S>)>,
    /// The expression.
    pub expr: Expr<S>,
}

impl<S: Clone> Algebra<S> {
    /// Binds every definition of this algebra in `env`: each declaration checked
    /// ([`check_decl`]), each expression evaluated (with the default [`Options`], in an
    /// environment of its own definitions, recursively). Declarations are checked here without
    /// the typed API's limits; the macro checks its own operands' declarations itself and calls
    /// [`Algebra::define_derived`].
    ///
    /// # Errors
    /// A declaration's errors, or as [`Algebra::define_derived`].
    pub fn define(&self, env: &mut Env<S>) -> Result<(), Vec<Located<S>>> {
        for (path, d) in &self.defs {
            let (checked, errs) = check_decl(d);
            if !errs.is_empty() {
                return Err(errs);
            }
            if let Some(c) = checked {
                env.define(path.key(), c);
            }
        }
        self.define_derived(env)
    }

    /// Binds each definition by an expression (`[PATH = ALGEBRA]`) in `env`, to the value of
    /// that expression and its index type.
    ///
    /// # Errors
    /// The inner algebra's errors ([`Algebra::define`], [`evaluate`]); [`Error::RuntimeOperand`]
    /// at the path when the inner value depends on a run-time value (an item never does).
    pub fn define_derived(&self, env: &mut Env<S>) -> Result<(), Vec<Located<S>>> {
        for (path, inner) in &self.derived {
            let mut own = Env::new();
            inner.define(&mut own)?;
            let v = evaluate(&inner.expr, &own, &Options::default())?;
            if !v.runtime.is_empty() {
                return Err(alloc::vec![Located::new(
                    Error::RuntimeOperand,
                    path.span.clone()
                )]);
            }
            env.define_value(path.key(), v.map, v.index);
        }
        Ok(())
    }
}

/// `[PATH = DECL]` and `[PATH = ALGEBRA]` definitions, then one expression.
fn algebra(p: &mut parse::Parser<'_>, top: (Space, Space)) -> Result<Algebra<Span>, Located<Span>> {
    let mut defs = Vec::new();
    let mut derived = Vec::new();
    while p.at_bracketed_definition() {
        if p.at_derived_definition() {
            derived.push(p.derived_definition(|p| algebra(p, top))?);
        } else {
            defs.push(p.bracketed_definition()?);
        }
    }
    let expr = p.expr(top)?;
    Ok(Algebra {
        defs,
        derived,
        expr,
    })
}

fn whole<T>(
    text: &str,
    opts: &Options,
    f: impl FnOnce(&mut parse::Parser<'_>) -> Result<T, Located<Span>>,
) -> Result<T, Located<Span>> {
    let mut p = parse::Parser::new(text, *opts);
    let v = f(&mut p)?;
    p.end()?;
    Ok(v)
}

/// Parses a whole text as one layout `['cute'] shape:stride`.
///
/// # Errors
/// The first syntax error, located ([`Error::Syntax`], [`Error::IntegerTooLarge`],
/// [`Error::NestedName`], [`Error::RuntimeLeaf`], [`Error::StaticInteger`], ...).
pub fn parse_layout(text: &str, opts: &Options) -> Result<LayoutExpr<Span>, Located<Span>> {
    whole(text, opts, |p| p.layout())
}

/// Parses a whole text as one declaration `LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`.
///
/// # Errors
/// As [`parse_layout`], and the syntax of sides and options.
pub fn parse_decl(text: &str, opts: &Options) -> Result<Decl<Span>, Located<Span>> {
    whole(text, opts, |p| p.decl())
}

/// Parses a whole text as one definition `PATH = DECL` (the CLI's `--def`).
///
/// # Errors
/// As [`parse_decl`].
pub fn parse_definition(
    text: &str,
    opts: &Options,
) -> Result<(Path<Span>, Decl<Span>), Located<Span>> {
    whole(text, opts, |p| p.definition())
}

/// Parses a whole text as one expression.
///
/// # Errors
/// As [`parse_decl`], and [`Error::UnknownOperation`], [`Error::ExprTooDeep`].
pub fn parse_expr(text: &str, opts: &Options) -> Result<Expr<Span>, Located<Span>> {
    let top = opts.bare.unwrap_or_default().storage;
    whole(text, opts, |p| p.expr(top))
}

/// Parses the macro's input: `[PATH = DECL]` definitions, then one expression.
///
/// # Errors
/// As [`parse_expr`].
pub fn parse_algebra(text: &str, opts: &Options) -> Result<Algebra<Span>, Located<Span>> {
    let top = opts.bare.unwrap_or_default().storage;
    whole(text, opts, |p| algebra(p, top))
}

/// Evaluates a whole algebra text (`[PATH = DECL]` and `[PATH = ALGEBRA]` definitions, then
/// one expression, as [`parse_algebra`] reads it) to its map, with the default [`Options`]:
/// each definition bound to its path's key ([`Algebra::define`]), then [`evaluate`]. A pure function of
/// the text: the map `layout!` computed from the same text while compiling (the `to_map` of a
/// generated composite calls it with the text of its expression).
///
/// ```
/// use layout_core::expr::evaluate_text;
/// let m = evaluate_text("[S = (4,8):(8,1), logical -> physical] [T = (8,4):(4,1), tv -> logical] compose(S, T)")?;
/// assert_eq!(m.eval_index(9), Ok(9));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// The first error of the text, without its location: a syntax error, a definition's first
/// error, or the expression's ([`evaluate`]).
pub fn evaluate_text(text: &str) -> Result<crate::map::Map, Error> {
    let opts = Options::default();
    let a = parse_algebra(text, &opts).map_err(|l| l.error)?;
    let mut env = Env::new();
    // A declaration that could not be built has errors; were there none, the operand stays
    // unbound and `evaluate` reports it as unknown.
    a.define(&mut env)
        .map_err(|errs| errs.first().map_or(Error::UnknownOperand, |l| l.error))?;
    evaluate(&a.expr, &env, &opts)
        .map(|v| v.map)
        .map_err(|errs| {
            errs.into_iter()
                .next()
                .map_or(Error::UnknownOperand, |l| l.error)
        })
}

#[cfg(test)]
mod tests;

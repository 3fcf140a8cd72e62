//! The text grammar of the CLI's arguments: layouts (spec: Grammar) and algebra expressions that
//! mirror `layout!` (docs/cli.md). Every node keeps its byte span, so that an error points at
//! the column of the token that caused it.
//!
//! ```text
//! expr     := op '(' args ')' | '[' decl ']' | layout
//! decl     := layout ',' side '->' side (',' option)*
//! layout   := ['cute'] tree ':' tree                      (spec: Grammar)
//! side     := space ['(' int (',' int)* ')']             (a tile on a logical side)
//! space    := 'logical' | 'thread-value' | 'tv' | 'physical'
//! option   := 'swizzle' '(' 'b' '=' int ',' 'src' '=' int ',' 'dst' '=' int ')'
//!           | 'Swizzle' '<' int ',' int ',' int '>'
//! op       := compose(expr, expr) | divide(expr, tile) | divide_modes(expr, tile)
//!           | restrict(expr, entry '=' int (',' entry '=' int)*) | repeat(expr, arrangement)
//!           | interleave(expr, arrangement) | broadcast(expr, shape) | inverse(expr)
//!           | swizzle(expr, b = int, src = int, dst = int) | swizzle(expr, Swizzle<B,M,S>)
//! ```

use layout_core::{Error, Expected, Layout, Space, Stride, Swizzle, SwizzleUnit, Tree};

use crate::diag::{Diag, Source, Span};

/// The operations of the expression grammar.
pub const OPS: &[&str] = &[
    "compose",
    "divide",
    "divide_modes",
    "restrict",
    "repeat",
    "interleave",
    "broadcast",
    "inverse",
    "swizzle",
];

/// A layout as written, with the spans of its leaves.
#[derive(Clone, Debug)]
pub struct LayoutSrc {
    /// The whole layout (after a `cute` keyword).
    pub span: Span,
    /// Written in CuTe order.
    pub cute: bool,
    /// The sizes as written, with their spans.
    pub shape: Tree<(i64, Span)>,
    /// The strides as written (`0` is kept as written), with their spans.
    pub stride: Tree<(Stride, Span)>,
    /// The layout, when its rules hold (seed order).
    pub layout: Result<Layout, Error>,
}

impl LayoutSrc {
    /// The span of the node at a mode path given in seed order (as `layout-core` reports it),
    /// and the path in the written order.
    pub fn locate(&self, seed_path: &[u8]) -> (Option<Span>, Vec<usize>) {
        let mut written = Vec::new();
        let mut shape = &self.shape;
        let mut stride = Some(&self.stride);
        for &i in seed_path {
            let i = usize::from(i);
            let Tree::Tuple(items) = shape else { break };
            let w = if self.cute {
                items.len().saturating_sub(1 + i)
            } else {
                i
            };
            let Some(next) = items.get(w) else { break };
            written.push(w);
            shape = next;
            stride = match stride {
                Some(Tree::Tuple(s)) => s.get(w),
                _ => None,
            };
        }
        // The stride there (a tuple: its first leaf), else the size.
        let span = stride.and_then(first_leaf).or_else(|| first_leaf(shape));
        (span.or(Some(self.span)), written)
    }

    /// The span of the size at a seed-order path (for size errors).
    pub fn size_span(&self, seed_path: &[u8]) -> Option<Span> {
        let mut shape = &self.shape;
        for &i in seed_path {
            let Tree::Tuple(items) = shape else { break };
            let i = usize::from(i);
            let w = if self.cute {
                items.len().saturating_sub(1 + i)
            } else {
                i
            };
            match items.get(w) {
                Some(n) => shape = n,
                None => break,
            }
        }
        match shape {
            Tree::Leaf((_, s)) => Some(*s),
            Tree::Tuple(_) => None,
        }
    }

    /// Every error of the layout, each located: all mode-local errors at once (spec: Notation), else
    /// the one error of the construction.
    pub fn errors(&self, src: &Source<'_>) -> Vec<Diag> {
        let Err(first) = &self.layout else {
            return Vec::new();
        };
        let (shape, stride) = self.seed_trees();
        let mut all = layout_core::mode_errors(&shape, &stride);
        if all.is_empty() {
            all.push(*first);
        }
        all.iter().map(|e| self.diag(e, src)).collect()
    }

    /// One error about this layout, located and with its mode path in the written order.
    pub fn diag(&self, e: &Error, src: &Source<'_>) -> Diag {
        let Some(mode) = e.mode() else {
            return Diag::core(e, src, self.span.start, Some(self.span));
        };
        let (mut span, written) = self.locate(mode.indices());
        if matches!(e, Error::NonPositiveSize { .. }) {
            span = self.size_span(mode.indices()).or(span);
        }
        let shown = if self.cute {
            let idx: Vec<usize> = written.clone();
            match layout_core::ModePath::from_indices(&idx) {
                Ok(p) => cute_aliasing(e.with_mode(p), self),
                Err(_) => *e,
            }
        } else {
            *e
        };
        let mut d = Diag::core(&shown, src, self.span.start, span);
        d.mode = written;
        d
    }

    /// The shape and stride in seed order (CuTe input reversed, its `0` strides read as `_`).
    pub fn seed_trees(&self) -> (Tree<i64>, Tree<Stride>) {
        let shape = self.shape.map(&mut |(n, _)| *n);
        let stride = self.stride.map(&mut |(d, _)| *d);
        if self.cute {
            let shape = shape.reversed();
            let stride = cute_strides(&shape, &stride.reversed());
            (shape, stride)
        } else {
            (shape, stride)
        }
    }
}

fn first_leaf<T>(t: &Tree<(T, Span)>) -> Option<Span> {
    match t {
        Tree::Leaf((_, s)) => Some(*s),
        Tree::Tuple(v) => v.first().and_then(first_leaf),
    }
}

/// The second mode of an aliasing pair, in CuTe order too.
fn cute_aliasing(e: Error, l: &LayoutSrc) -> Error {
    if let Error::Aliasing {
        first,
        second,
        offset,
        modes: Some((a, b)),
    } = e
    {
        let (_, w) = l.locate(b.indices());
        if let Ok(p) = layout_core::ModePath::from_indices(&w) {
            return Error::Aliasing {
                first,
                second,
                offset,
                modes: Some((a, p)),
            };
        }
    }
    e
}

fn cute_strides(shape: &Tree<i64>, stride: &Tree<Stride>) -> Tree<Stride> {
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(Stride::Int(0))) if *n > 1 => Tree::Leaf(Stride::Broadcast),
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
            Tree::Tuple(a.iter().zip(b).map(|(s, d)| cute_strides(s, d)).collect())
        }
        _ => stride.clone(),
    }
}

/// One side of an annotation: a space and an optional tile (seed order).
#[derive(Clone, Debug)]
pub struct Side {
    /// The space.
    pub space: Space,
    /// The tile shape, seed order (reversed from CuTe order when the layout is `cute`).
    pub tile: Option<Vec<i64>>,
    /// Where it is written.
    pub span: Span,
}

/// A swizzle as written.
#[derive(Clone, Copy, Debug)]
pub enum SwizzleSrc {
    /// `swizzle(b = .., src = .., dst = ..)`.
    Seed {
        /// Bits.
        b: i64,
        /// Lowest source bit.
        src: i64,
        /// Lowest destination bit.
        dst: i64,
    },
    /// `Swizzle<B,M,S> over UNIT`.
    Cute {
        /// CuTe's B.
        b: i64,
        /// CuTe's M.
        m: i64,
        /// CuTe's S.
        s: i64,
        /// What it acts on: element offsets, or the byte addresses of elements of a width.
        unit: SwizzleUnit,
    },
}

/// An operand: a layout with its spaces (written, or the default of its position).
#[derive(Clone, Debug)]
pub struct Operand {
    /// The layout.
    pub layout: LayoutSrc,
    /// The domain, when written.
    pub domain: Option<Side>,
    /// The codomain, when written.
    pub codomain: Option<Side>,
    /// A swizzle option.
    pub swizzle: Option<(SwizzleSrc, Span)>,
    /// The whole operand.
    pub span: Span,
}

/// Which entry `restrict` fixes.
#[derive(Clone, Debug)]
pub enum Entry {
    /// A position among the free top-level entries (from 0, in the notation written).
    Position(usize),
    /// A mode name.
    Name(String),
}

/// An expression.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A layout operand; `defaults` are its spaces when none are written.
    Operand(Box<Operand>, (Space, Space)),
    /// `compose(a, b)`.
    Compose(Box<Expr>, Box<Expr>, Span),
    /// `divide(a, tile)` (`true`: `divide_modes`); the tile entries in seed order.
    Divide(Box<Expr>, Vec<(i64, Span)>, Span, bool, Span),
    /// `restrict(a, entry = value, ..)`.
    Restrict(Box<Expr>, Vec<(Entry, i64, Span)>, Span),
    /// `repeat(a, arrangement)` (`true`: `interleave`).
    Repeat(Box<Expr>, Box<Arrangement>, bool, Span),
    /// `broadcast(a, shape)`, the shape in seed order.
    Broadcast(Box<Expr>, Tree<i64>, Span),
    /// `inverse(a)`.
    Inverse(Box<Expr>, Span),
    /// `swizzle(a, ..)`.
    Swizzle(Box<Expr>, SwizzleSrc, Span),
}

/// The arrangement of `repeat`/`interleave`: a layout without spaces, or an expression.
#[derive(Clone, Debug)]
pub enum Arrangement {
    /// `(3):(1)`.
    Layout(LayoutSrc),
    /// Any expression whose value is a layout.
    Expr(Expr),
}

impl Expr {
    /// Where the expression is written (an operation: its name).
    pub fn span(&self) -> Span {
        match self {
            Expr::Operand(o, _) => o.span,
            Expr::Compose(_, _, s)
            | Expr::Divide(_, _, _, _, s)
            | Expr::Restrict(_, _, s)
            | Expr::Repeat(_, _, _, s)
            | Expr::Broadcast(_, _, s)
            | Expr::Inverse(_, s)
            | Expr::Swizzle(_, _, s) => *s,
        }
    }
}

/// The default spaces of a bare layout: `logical -> physical`.
pub const STORAGE: (Space, Space) = (Space::Logical, Space::Physical);
/// The default spaces of the right operand of `compose` and of `inverse`'s operand.
pub const THREAD_VALUE: (Space, Space) = (Space::ThreadValue, Space::Logical);

/// The parser over one argument.
pub struct Parser<'a> {
    src: Source<'a>,
    s: &'a [u8],
    pos: usize,
    /// Every layout, tile, shape and entry position is in CuTe order (`--cute`).
    cute: bool,
    /// Current nesting of operations, tiles and shapes.
    depth: usize,
}

/// The deepest nesting of operations (and of tuples in tiles and shapes) an argument may have.
pub const MAX_NESTING: usize = 64;

type R<T> = Result<T, Diag>;

/// Reads one leaf of a tree at the parser's position (its first byte given).
type LeafFn<'p, 'a, T> = dyn FnMut(&mut Parser<'a>, u8) -> R<(T, Span)> + 'p;

impl<'a> Parser<'a> {
    /// A parser over `src`; `cute` reads every layout in CuTe order.
    pub fn new(src: Source<'a>, cute: bool) -> Parser<'a> {
        let s = src.text.as_bytes();
        Parser {
            src,
            s,
            pos: 0,
            cute,
            depth: 0,
        }
    }

    fn ws(&mut self) {
        while self.s.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos = self.pos.saturating_add(1);
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8, what: &str) -> R<()> {
        if self.peek() == Some(c) {
            self.pos = self.pos.saturating_add(1);
            Ok(())
        } else {
            Err(self.fail(what, None))
        }
    }

    fn fail(&self, expected: &str, help: Option<&str>) -> Diag {
        Diag::syntax(&self.src, self.pos, expected, help)
    }

    fn core_fail(&self, expected: Expected) -> Diag {
        Diag::core(
            &Error::Parse {
                column: self.pos,
                expected,
            },
            &self.src,
            0,
            None,
        )
    }

    /// An identifier `[A-Za-z_][A-Za-z0-9_]*` (with `-` inside, not before `>`), not consumed.
    fn peek_ident(&mut self) -> Option<(String, Span)> {
        self.ws();
        let start = self.pos;
        let first = *self.s.get(start)?;
        if !(first.is_ascii_alphabetic() || first == b'_') {
            return None;
        }
        let mut end = start.saturating_add(1);
        while let Some(&c) = self.s.get(end) {
            let dash = c == b'-'
                && self
                    .s
                    .get(end.saturating_add(1))
                    .is_some_and(|n| n.is_ascii_alphabetic())
                && self.s.get(end.saturating_add(1)) != Some(&b'>');
            if c.is_ascii_alphanumeric() || c == b'_' || dash {
                end = end.saturating_add(1);
            } else {
                break;
            }
        }
        let text = std::str::from_utf8(&self.s[start..end]).ok()?.to_string();
        Some((text, Span::new(start, end)))
    }

    fn int(&mut self, what: &str) -> R<(i64, Span)> {
        self.ws();
        let start = self.pos;
        let mut end = start;
        if self.s.get(end) == Some(&b'-') {
            end = end.saturating_add(1);
        }
        let digits = end;
        while self.s.get(end).is_some_and(u8::is_ascii_digit) {
            end = end.saturating_add(1);
        }
        if end == digits {
            return Err(self.fail(what, None));
        }
        let text = std::str::from_utf8(&self.s[start..end]).unwrap_or("");
        let v = text.parse::<i64>().map_err(|_| {
            Diag::core(
                &Error::IntegerTooLarge { column: start },
                &self.src,
                0,
                None,
            )
        })?;
        self.pos = end;
        Ok((v, Span::new(start, end)))
    }

    /// The whole argument is one expression.
    pub fn expression(&mut self) -> R<Expr> {
        let e = self.expr(STORAGE)?;
        self.end()?;
        Ok(e)
    }

    /// The whole argument is one layout (an optional `cute` keyword allowed).
    pub fn whole_layout(&mut self) -> R<LayoutSrc> {
        let l = self.layout_maybe_cute()?;
        self.end()?;
        Ok(l)
    }

    fn end(&mut self) -> R<()> {
        if self.peek().is_some() {
            return Err(self.core_fail(Expected::End));
        }
        Ok(())
    }

    /// Enters one level of nesting; an error past [`MAX_NESTING`].
    fn enter(&mut self) -> R<()> {
        self.depth = self.depth.saturating_add(1);
        if self.depth > MAX_NESTING {
            let mut d = Diag::rule(
                "too-large",
                &self.src,
                Some(self.pos),
                format!("nesting deeper than {MAX_NESTING} levels"),
                Some("split the expression; no layout needs this depth".into()),
            );
            d.unreadable = true;
            return Err(d);
        }
        Ok(())
    }

    fn expr(&mut self, defaults: (Space, Space)) -> R<Expr> {
        self.enter()?;
        let e = self.expr_inner(defaults);
        self.depth = self.depth.saturating_sub(1);
        e
    }

    fn expr_inner(&mut self, defaults: (Space, Space)) -> R<Expr> {
        match self.peek() {
            Some(b'[') => {
                let start = self.pos;
                self.pos = self.pos.saturating_add(1);
                let mut op = self.decl()?;
                self.expect(b']', "`]` after the operand's spaces and options")?;
                op.span = Span::new(start, self.pos);
                Ok(Expr::Operand(Box::new(op), defaults))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let (name, span) = self.peek_ident().unwrap_or_default();
                if name == "cute" {
                    let l = self.layout_maybe_cute()?;
                    return Ok(bare(l, defaults));
                }
                let after = {
                    let mut p = span.end;
                    while self.s.get(p).is_some_and(u8::is_ascii_whitespace) {
                        p = p.saturating_add(1);
                    }
                    self.s.get(p).copied()
                };
                if after != Some(b'(') || !OPS.contains(&name.as_str()) {
                    let known: Vec<String> = OPS.iter().map(|o| format!("`{o}`")).collect();
                    return Err(Diag::syntax(
                        &self.src,
                        span.start,
                        &format!("a layout or an operation, not `{name}`"),
                        Some(&format!("the operations are {}", known.join(", "))),
                    ));
                }
                self.pos = span.end;
                self.call(&name, span)
            }
            _ => {
                let l = self.layout_maybe_cute()?;
                Ok(bare(l, defaults))
            }
        }
    }

    fn call(&mut self, op: &str, span: Span) -> R<Expr> {
        self.expect(b'(', "`(`")?;
        let first_default = if op == "inverse" {
            THREAD_VALUE
        } else {
            STORAGE
        };
        let a = Box::new(self.expr(first_default)?);
        let comma = |p: &mut Parser<'_>, what: &str, help: &str| -> R<()> {
            if p.peek() == Some(b',') {
                p.pos = p.pos.saturating_add(1);
                Ok(())
            } else {
                Err(p.fail(&format!("`,`: `{op}` takes {what}"), Some(help)))
            }
        };
        let e = match op {
            "compose" => {
                comma(
                    self,
                    "two maps",
                    "write `compose(left, right)`: `right` is applied first",
                )?;
                Expr::Compose(a, Box::new(self.expr(THREAD_VALUE)?), span)
            }
            "divide" | "divide_modes" => {
                comma(
                    self,
                    "a layout and a tile",
                    &format!("write `{op}(L, (64,32))`, one tile entry per top-level mode"),
                )?;
                self.ws();
                let start = self.pos;
                let mut entries = Vec::new();
                self.tile(&mut entries)?;
                if self.cute {
                    entries.reverse();
                }
                Expr::Divide(
                    a,
                    entries,
                    Span::new(start, self.pos),
                    op == "divide_modes",
                    span,
                )
            }
            "restrict" => {
                comma(
                    self,
                    "a map and the entries to fix",
                    "write `restrict(M, 0 = 2)` or `restrict(M, thread = 5)`",
                )?;
                let mut fixed = Vec::new();
                loop {
                    self.ws();
                    let at = self.pos;
                    let entry = match self.peek_ident() {
                        Some((name, s)) => {
                            self.pos = s.end;
                            Entry::Name(name)
                        }
                        None => {
                            let (k, _) = self.int("an entry: a position or a mode name")?;
                            Entry::Position(usize::try_from(k).map_err(|_| {
                                Diag::syntax(&self.src, at, "a position from 0", None)
                            })?)
                        }
                    };
                    let espan = Span::new(at, self.pos);
                    self.expect(b'=', "`=` and the entry's value")?;
                    let (v, _) = self.int("an integer value")?;
                    fixed.push((entry, v, espan));
                    if self.peek() == Some(b',') {
                        self.pos = self.pos.saturating_add(1);
                    } else {
                        break;
                    }
                }
                Expr::Restrict(a, fixed, span)
            }
            "repeat" | "interleave" => {
                comma(
                    self,
                    "a layout and an arrangement",
                    &format!("write `{op}(L, (3):(1))`; the arrangement is a dense layout"),
                )?;
                let arr = match self.peek() {
                    Some(b'[') => Arrangement::Expr(self.expr(STORAGE)?),
                    Some(c) if c.is_ascii_alphabetic() => {
                        match self.peek_ident().map(|i| i.0).as_deref() {
                            Some("cute") => Arrangement::Layout(self.layout_maybe_cute()?),
                            _ => Arrangement::Expr(self.expr(STORAGE)?),
                        }
                    }
                    _ => Arrangement::Layout(self.layout_maybe_cute()?),
                };
                Expr::Repeat(a, Box::new(arr), op == "interleave", span)
            }
            "broadcast" => {
                comma(
                    self,
                    "a map and a shape",
                    "write `broadcast(L, (4))`: 4 copies of `L` at the same addresses",
                )?;
                let shape = self.shape()?;
                let shape = if self.cute { shape.reversed() } else { shape };
                Expr::Broadcast(a, shape, span)
            }
            "inverse" => Expr::Inverse(a, span),
            _ => {
                comma(
                    self,
                    "a map and the swizzle",
                    "write `swizzle(M, b = 3, src = 7, dst = 4)` or `swizzle(M, Swizzle<3,4,3>)`",
                )?;
                let sw = if self.peek_ident().is_some_and(|i| i.0 == "Swizzle") {
                    let (_, s) = self.peek_ident().unwrap_or_default();
                    self.pos = s.end;
                    self.cute_swizzle()?
                } else {
                    self.seed_swizzle()?
                };
                Expr::Swizzle(a, sw, span)
            }
        };
        if self.peek() != Some(b')') {
            return Err(self.fail(&format!("`)` closing `{op}(`"), None));
        }
        self.pos = self.pos.saturating_add(1);
        Ok(e)
    }

    fn tile(&mut self, out: &mut Vec<(i64, Span)>) -> R<()> {
        self.enter()?;
        let r = self.tile_inner(out);
        self.depth = self.depth.saturating_sub(1);
        r
    }

    fn tile_inner(&mut self, out: &mut Vec<(i64, Span)>) -> R<()> {
        if self.peek() == Some(b'(') {
            self.pos = self.pos.saturating_add(1);
            loop {
                self.tile(out)?;
                match self.peek() {
                    Some(b',') => self.pos = self.pos.saturating_add(1),
                    Some(b')') => {
                        self.pos = self.pos.saturating_add(1);
                        return Ok(());
                    }
                    _ => return Err(self.core_fail(Expected::CommaOrClose)),
                }
            }
        }
        out.push(self.int("a tile entry (an integer or a tuple of integers)")?);
        Ok(())
    }

    fn shape(&mut self) -> R<Tree<i64>> {
        self.enter()?;
        let r = self.shape_inner();
        self.depth = self.depth.saturating_sub(1);
        r
    }

    fn shape_inner(&mut self) -> R<Tree<i64>> {
        if self.peek() == Some(b'(') {
            self.pos = self.pos.saturating_add(1);
            let mut items = Vec::new();
            loop {
                items.push(self.shape()?);
                match self.peek() {
                    Some(b',') => self.pos = self.pos.saturating_add(1),
                    Some(b')') => {
                        self.pos = self.pos.saturating_add(1);
                        break;
                    }
                    _ => return Err(self.core_fail(Expected::CommaOrClose)),
                }
            }
            return Ok(if items.len() == 1 {
                items.pop().unwrap_or(Tree::Leaf(1))
            } else {
                Tree::Tuple(items)
            });
        }
        Ok(Tree::Leaf(
            self.int("a size (an integer or a tuple of sizes)")?.0,
        ))
    }

    fn seed_swizzle(&mut self) -> R<SwizzleSrc> {
        let start = self.pos;
        let (mut b, mut src, mut dst) = (None, None, None);
        loop {
            let Some((key, s)) = self.peek_ident() else {
                return Err(self.fail("a swizzle field `b`, `src` or `dst`", None));
            };
            let slot = match key.as_str() {
                "b" => &mut b,
                "src" => &mut src,
                "dst" => &mut dst,
                _ => {
                    return Err(Diag::syntax(
                        &self.src,
                        s.start,
                        "a swizzle field `b`, `src` or `dst`",
                        Some(
                            "write `b = BITS, src = LOWEST_SOURCE_BIT, dst = LOWEST_DESTINATION_BIT`",
                        ),
                    ));
                }
            };
            self.pos = s.end;
            self.expect(b'=', "`=`")?;
            let (v, _) = self.int("an integer")?;
            if slot.replace(v).is_some() {
                return Err(Diag::syntax(
                    &self.src,
                    s.start,
                    "each swizzle field once",
                    None,
                ));
            }
            if self.peek() == Some(b',') && self.peek_after_comma_is_field() {
                self.pos = self.pos.saturating_add(1);
            } else {
                break;
            }
        }
        match (b, src, dst) {
            (Some(b), Some(src), Some(dst)) => Ok(SwizzleSrc::Seed { b, src, dst }),
            _ => Err(Diag::syntax(
                &self.src,
                start,
                "all three swizzle fields `b`, `src` and `dst`",
                Some("write `swizzle(b = 3, src = 7, dst = 4)` or CuTe's `Swizzle<3,4,3>`"),
            )),
        }
    }

    fn peek_after_comma_is_field(&mut self) -> bool {
        let save = self.pos;
        self.pos = self.pos.saturating_add(1);
        let r = self
            .peek_ident()
            .is_some_and(|(k, _)| matches!(k.as_str(), "b" | "src" | "dst"));
        self.pos = save;
        r
    }

    fn cute_swizzle(&mut self) -> R<SwizzleSrc> {
        let help = Some("write CuTe's swizzle as `Swizzle<B,M,S>`, e.g. `Swizzle<3,4,3>`");
        let field = |p: &mut Parser<'_>, sep: u8| -> R<i64> {
            let (v, _) = p.int("an integer").map_err(|mut d| {
                d.help = help.map(str::to_string);
                d
            })?;
            if p.peek() != Some(sep) {
                return Err(p.fail(&format!("`{}`", sep as char), help));
            }
            p.pos = p.pos.saturating_add(1);
            Ok(v)
        };
        if self.peek() != Some(b'<') {
            return Err(self.fail("`<`", help));
        }
        self.pos = self.pos.saturating_add(1);
        let b = field(self, b',')?;
        let m = field(self, b',')?;
        let s = field(self, b'>')?;
        let unit = self.swizzle_unit((b, m, s))?;
        Ok(SwizzleSrc::Cute { b, m, s, unit })
    }

    /// The unit after a pasted `Swizzle<B,M,S>`: `over elements`, or `over bytes of N-bit
    /// elements` (`N` the element width in bits).
    fn swizzle_unit(&mut self, (b, m, s): (i64, i64, i64)) -> R<SwizzleUnit> {
        let fp16 = Swizzle::from_cute(b, m, s, SwizzleUnit::Bytes { elem_bits: 16 })
            .map(|e| {
                let (b, m, s) = e.to_cute();
                format!(" (for fp16 the same as `Swizzle<{b},{m},{s}> over elements`)")
            })
            .unwrap_or_default();
        let help = format!(
            "CuTe's GMMA and TMA swizzles act on byte addresses: write `Swizzle<{b},{m},{s}> over bytes of 16-bit elements` with the element width in bits{fp16}, or `Swizzle<{b},{m},{s}> over elements` if it acts on element offsets"
        );
        let expected = "the swizzle's unit: `over elements` or `over bytes of N-bit elements`";
        let word = |p: &mut Parser<'_>, w: &str| -> R<()> {
            match p.peek_ident() {
                Some((k, span)) if k == w => {
                    p.pos = span.end;
                    Ok(())
                }
                _ => Err(p.fail(expected, Some(&help))),
            }
        };
        word(self, "over")?;
        if self.peek_ident().is_some_and(|(k, _)| k == "elements") {
            word(self, "elements")?;
            return Ok(SwizzleUnit::Elements);
        }
        word(self, "bytes")?;
        word(self, "of")?;
        let (bits, _) = self.int(expected).map_err(|mut d| {
            d.help = Some(help.clone());
            d
        })?;
        if !self.s[self.pos..].starts_with(b"-bit") {
            return Err(self.fail(expected, Some(&help)));
        }
        self.pos = self.pos.saturating_add(4);
        word(self, "elements")?;
        match u32::try_from(bits) {
            Ok(elem_bits) => Ok(SwizzleUnit::Bytes { elem_bits }),
            Err(_) => Err(self.fail("an element width in bits, e.g. `16-bit`", Some(&help))),
        }
    }

    fn decl(&mut self) -> R<Operand> {
        let layout = self.layout_maybe_cute()?;
        if self.peek() != Some(b',') {
            return Err(self.fail(
                "`,` and the spaces after the layout",
                Some("write `[LAYOUT, DOMAIN -> CODOMAIN]`, e.g. `[(16,32):(32,1), logical -> physical]`"),
            ));
        }
        self.pos = self.pos.saturating_add(1);
        let mut domain = self.side()?;
        self.ws();
        if !self.s[self.pos..].starts_with(b"->") {
            return Err(self.fail("`->` between the domain and the codomain space", None));
        }
        self.pos = self.pos.saturating_add(2);
        let mut codomain = self.side()?;
        if layout.cute {
            for side in [&mut domain, &mut codomain] {
                if let Some(t) = &mut side.tile {
                    t.reverse();
                }
            }
        }
        let mut swizzle = None;
        while self.peek() == Some(b',') {
            self.pos = self.pos.saturating_add(1);
            let Some((name, s)) = self.peek_ident() else {
                return Err(self.fail(
                    "an option: `swizzle(b = .., src = .., dst = ..)` or `Swizzle<B,M,S>`",
                    None,
                ));
            };
            self.pos = s.end;
            let sw = match name.as_str() {
                "swizzle" => {
                    self.expect(b'(', "`(`")?;
                    let sw = self.seed_swizzle()?;
                    self.expect(b')', "`)`")?;
                    sw
                }
                "Swizzle" => self.cute_swizzle()?,
                _ => {
                    return Err(Diag::syntax(
                        &self.src,
                        s.start,
                        &format!("an option, not `{name}`"),
                        Some(
                            "the options are `swizzle(b = .., src = .., dst = ..)` and `Swizzle<B,M,S>`",
                        ),
                    ));
                }
            };
            if swizzle.replace((sw, s)).is_some() {
                return Err(Diag::rule(
                    "swizzle-fields",
                    &self.src,
                    Some(s.start),
                    "a second swizzle",
                    Some("a map has at most one swizzle, its last step".into()),
                ));
            }
        }
        Ok(Operand {
            span: layout.span,
            layout,
            domain: Some(domain),
            codomain: Some(codomain),
            swizzle,
        })
    }

    fn side(&mut self) -> R<Side> {
        let Some((name, span)) = self.peek_ident() else {
            return Err(self.fail(
                "a space: `logical`, `thread-value` (`tv`) or `physical`",
                None,
            ));
        };
        let space = match name.as_str() {
            "logical" => Space::Logical,
            "thread-value" | "tv" => Space::ThreadValue,
            "physical" => Space::Physical,
            _ => {
                return Err(Diag::syntax(
                    &self.src,
                    span.start,
                    &format!("a space, not `{name}`"),
                    Some("the spaces are `logical`, `thread-value` (or `tv`) and `physical`"),
                ));
            }
        };
        self.pos = span.end;
        let mut tile = None;
        if self.peek() == Some(b'(') {
            let mut entries = Vec::new();
            self.tile(&mut entries)?;
            tile = Some(entries.into_iter().map(|e| e.0).collect());
        }
        Ok(Side {
            space,
            tile,
            span: Span::new(span.start, self.pos),
        })
    }

    fn layout_maybe_cute(&mut self) -> R<LayoutSrc> {
        let mut cute = self.cute;
        if let Some((name, s)) = self.peek_ident()
            && name == "cute"
        {
            cute = true;
            self.pos = s.end;
        }
        self.layout(cute)
    }

    /// `tree ':' tree` (spec: Grammar), with spans; the layout is built by `layout-core`.
    fn layout(&mut self, cute: bool) -> R<LayoutSrc> {
        self.ws();
        let start = self.pos;
        let mut names = Vec::new();
        let shape = self.tree(0, Some(&mut names), &mut |p, c| match c {
            b'_' => Err(p.core_fail(Expected::PositiveSize)),
            _ => Ok(p.int_leaf()?),
        })?;
        if self.peek() != Some(b':') {
            return Err(self.core_fail(Expected::Colon));
        }
        self.pos = self.pos.saturating_add(1);
        let stride = self.tree(0, None, &mut |p, c| {
            if c == b'_' {
                let s = Span::new(p.pos, p.pos.saturating_add(1));
                p.pos = p.pos.saturating_add(1);
                Ok((Stride::Broadcast, s))
            } else {
                let (v, s) = p.int_leaf()?;
                Ok((Stride::Int(v), s))
            }
        })?;
        let span = Span::new(start, self.pos);
        let text = &self.src.text[start..self.pos];
        let layout = if cute {
            Layout::from_cute(text)
        } else {
            text.parse::<Layout>()
        };
        // Both parsers read the same grammar; a syntax error here would be ours to report.
        if let Err(e @ (Error::Parse { .. } | Error::IntegerTooLarge { .. })) = layout {
            return Err(Diag::core(&e, &self.src, start, None));
        }
        let _ = names;
        Ok(LayoutSrc {
            span,
            cute,
            shape,
            stride,
            layout,
        })
    }

    fn int_leaf(&mut self) -> R<(i64, Span)> {
        let start = self.pos;
        let mut end = start;
        if self.s.get(end) == Some(&b'-') {
            end = end.saturating_add(1);
        }
        let digits = end;
        while self.s.get(end).is_some_and(u8::is_ascii_digit) {
            end = end.saturating_add(1);
        }
        if end == digits {
            return Err(self.core_fail(Expected::Tree));
        }
        let text = std::str::from_utf8(&self.s[start..end]).unwrap_or("");
        let v = text.parse::<i64>().map_err(|_| {
            Diag::core(
                &Error::IntegerTooLarge { column: start },
                &self.src,
                0,
                None,
            )
        })?;
        self.pos = end;
        Ok((v, Span::new(start, end)))
    }

    fn tree<T>(
        &mut self,
        depth: usize,
        mut names: Option<&mut Vec<Option<String>>>,
        leaf: &mut LeafFn<'_, 'a, T>,
    ) -> R<Tree<(T, Span)>> {
        if depth > layout_core::MAX_DEPTH {
            return Err(Diag::core(
                &Error::TooDeep {
                    mode: layout_core::ModePath::ROOT,
                },
                &self.src,
                0,
                Some(Span::new(self.pos, self.pos)),
            ));
        }
        match self.peek() {
            Some(b'(') => {
                self.pos = self.pos.saturating_add(1);
                let mut items = Vec::new();
                if self.peek() == Some(b')') {
                    // `()`: the rank-0 layout `():()` of size 1 (CuTe's scalar layout).
                    self.pos = self.pos.saturating_add(1);
                    return Ok(Tree::Tuple(items));
                }
                loop {
                    self.ws();
                    if let Some((name, s)) = self.peek_ident() {
                        let mut after = s.end;
                        while self.s.get(after).is_some_and(u8::is_ascii_whitespace) {
                            after = after.saturating_add(1);
                        }
                        if self.s.get(after) == Some(&b':') && name != "_" {
                            match names.as_deref_mut() {
                                Some(list) => list.push(Some(name)),
                                None => {
                                    return Err(Diag::core(
                                        &Error::NestedName { column: s.start },
                                        &self.src,
                                        0,
                                        None,
                                    ));
                                }
                            }
                            self.pos = after.saturating_add(1);
                        } else if let Some(list) = names.as_deref_mut() {
                            list.push(None);
                        }
                    } else if let Some(list) = names.as_deref_mut() {
                        list.push(None);
                    }
                    items.push(self.tree(depth.saturating_add(1), None, leaf)?);
                    match self.peek() {
                        Some(b',') => {
                            self.pos = self.pos.saturating_add(1);
                            if self.peek() == Some(b')') {
                                self.pos = self.pos.saturating_add(1);
                                break;
                            }
                        }
                        Some(b')') => {
                            self.pos = self.pos.saturating_add(1);
                            break;
                        }
                        _ => return Err(self.core_fail(Expected::CommaOrClose)),
                    }
                }
                Ok(Tree::Tuple(items))
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'_' => {
                Ok(Tree::Leaf(leaf(self, c)?))
            }
            Some(b'{') => Err(Diag::core(
                &Error::RuntimeLeaf { column: self.pos },
                &self.src,
                0,
                None,
            )),
            _ => Err(self.core_fail(Expected::Tree)),
        }
    }
}

fn bare(l: LayoutSrc, defaults: (Space, Space)) -> Expr {
    let span = l.span;
    Expr::Operand(
        Box::new(Operand {
            layout: l,
            domain: None,
            codomain: None,
            swizzle: None,
            span,
        }),
        defaults,
    )
}

/// Reads `A->B` (`logical -> physical`, `tv->logical`, …).
pub fn parse_spaces(text: &str) -> Result<(Space, Space), Diag> {
    let bad = || {
        Diag::bad_option(
            format!("cannot read the spaces `{text}`"),
            Some(
                "write `--space DOMAIN->CODOMAIN` with `logical`, `thread-value` (`tv`) or `physical`, e.g. `logical->physical`"
                    .into(),
            ),
        )
    };
    let (a, b) = text.split_once("->").ok_or_else(bad)?;
    let a: Space = a.trim().parse().map_err(|_| bad())?;
    let b: Space = b.trim().parse().map_err(|_| bad())?;
    Ok((a, b))
}

//! The one parser of the text grammar: layouts, declarations, expressions (see the module
//! docs of [`super`] for the grammar). It reads tokens, so whitespace never matters, and stops
//! at the first syntax error, located at its token.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::{
    Arrangement, Decl, DivideKind, Entry, Expr, Indices, LayoutExpr, Leaf, Node, Op, Operand,
    OperandClause, Path, Regroup, RepeatKind, Side, SwizzleSpec, Tile, Value,
};
use super::lex::{Kind, Token, lex};
use super::{Located, MAX_EXPR_DEPTH, Options, Order, Span};
use crate::emit::IntType;
use crate::error::{Error, Expected, MAX_DEPTH, ModePath};
use crate::space::Space;
use crate::swizzle::SwizzleUnit;
use crate::tree::Tree;

type R<T> = Result<T, Located<Span>>;

pub(crate) struct Parser<'a> {
    text: &'a str,
    toks: Vec<Token>,
    i: usize,
    opts: Options,
    depth: usize,
    /// Whether `{ .. }` leaves are read (else [`Error::RuntimeLeaf`]).
    pub(crate) runtime_leaves: bool,
    /// Whether top-level mode names are read (CuTe's own notation has none).
    pub(crate) names: bool,
}

fn at(error: Error, span: Span) -> Located<Span> {
    Located::new(error, span)
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str, opts: Options) -> Parser<'a> {
        Parser::with_suffixes(text, opts, true)
    }

    /// A parser of the text interfaces (`FromStr`, the CuTe layer): letters after digits are
    /// not part of the integer, so the error is what was expected there.
    pub(crate) fn plain(text: &'a str, opts: Options) -> Parser<'a> {
        Parser::with_suffixes(text, opts, false)
    }

    fn with_suffixes(text: &'a str, opts: Options, suffixes: bool) -> Parser<'a> {
        Parser {
            text,
            toks: lex(text, suffixes),
            i: 0,
            opts,
            depth: 0,
            runtime_leaves: opts.runtime,
            names: true,
        }
    }

    fn tok(&self) -> Token {
        self.nth(0)
    }

    fn nth(&self, n: usize) -> Token {
        let last = self.toks.len().saturating_sub(1);
        self.toks
            .get(self.i.saturating_add(n).min(last))
            .copied()
            .unwrap_or(Token {
                kind: Kind::End,
                start: self.text.len(),
                end: self.text.len(),
            })
    }

    fn text_of(&self, t: Token) -> &'a str {
        self.text.get(t.start..t.end).unwrap_or("")
    }

    fn bump(&mut self) -> Token {
        let t = self.tok();
        if t.kind != Kind::End {
            self.i = self.i.saturating_add(1);
        }
        t
    }

    fn is_punct(&self, n: usize, c: u8) -> bool {
        self.nth(n).kind == Kind::Punct(c)
    }

    fn is_ident(&self, n: usize, word: &str) -> bool {
        let t = self.nth(n);
        t.kind == Kind::Ident && self.text_of(t) == word
    }

    fn here(&self) -> Span {
        let t = self.tok();
        t.start..t.end
    }

    fn expected(&self, expected: Expected) -> Located<Span> {
        at(Error::Syntax { expected }, self.here())
    }

    fn eat(&mut self, c: u8, expected: Expected) -> R<Span> {
        if self.is_punct(0, c) {
            let t = self.bump();
            Ok(t.start..t.end)
        } else {
            Err(self.expected(expected))
        }
    }

    pub(crate) fn end(&mut self) -> R<()> {
        if self.tok().kind == Kind::End {
            Ok(())
        } else {
            Err(self.expected(Expected::End))
        }
    }

    /// `-`? digits, as `i64`.
    fn int(&mut self, expected: Expected) -> R<(i64, Span)> {
        let start = self.tok().start;
        let neg = self.is_punct(0, b'-');
        let t = self.nth(usize::from(neg));
        let Kind::Int { suffixed } = t.kind else {
            return Err(self.expected(expected));
        };
        if suffixed {
            return Err(at(Error::IntegerSuffix, t.start..t.end));
        }
        if neg {
            self.bump();
        }
        self.bump();
        let digits = self.text_of(t);
        let v = digits
            .parse::<i128>()
            .ok()
            .and_then(|v| if neg { v.checked_neg() } else { Some(v) })
            .and_then(|v| i64::try_from(v).ok())
            .ok_or_else(|| at(Error::IntegerTooLarge { column: start }, start..t.end))?;
        Ok((v, start..t.end))
    }

    fn starts_int(&self) -> bool {
        matches!(self.tok().kind, Kind::Int { .. })
            || (self.is_punct(0, b'-') && matches!(self.nth(1).kind, Kind::Int { .. }))
    }

    /// One identifier.
    fn ident(&mut self, expected: Expected) -> R<(String, Span)> {
        let t = self.tok();
        if t.kind != Kind::Ident {
            return Err(self.expected(expected));
        }
        self.bump();
        Ok((self.text_of(t).to_string(), t.start..t.end))
    }

    /// One more operation level: the top expression is level 1, and operations nest at most
    /// [`MAX_EXPR_DEPTH`] deep around their innermost operand.
    fn enter(&mut self) -> R<()> {
        self.depth = self.depth.saturating_add(1);
        if self.depth > MAX_EXPR_DEPTH.saturating_add(1) {
            return Err(at(Error::ExprTooDeep, self.here()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ---- layouts -------------------------------------------------------------------------

    /// `['cute'] tree ':' tree`.
    pub(crate) fn layout(&mut self) -> R<LayoutExpr<Span>> {
        let mut cute = self.opts.order == Order::Cute;
        if self.is_ident(0, "cute") {
            self.bump();
            cute = true;
        }
        self.layout_in(cute)
    }

    /// `tree ':' tree` in the given order.
    pub(crate) fn layout_in(&mut self, cute: bool) -> R<LayoutExpr<Span>> {
        let start = self.tok().start;
        let mut names = Vec::new();
        let shape = self.tree(0, Some(&mut names), cute, true)?;
        self.eat(b':', Expected::Colon)?;
        let stride = self.tree(0, None, cute, false)?;
        let end = self.toks[..self.i].last().map_or(start, |t| t.end);
        if matches!(shape, Node::Leaf(..)) || names.iter().all(Option::is_none) {
            names.clear();
        }
        Ok(LayoutExpr {
            cute,
            names,
            shape: normalised(shape),
            stride: normalised(stride),
            span: start..end.max(start),
        })
    }

    /// A name `ident ('-' ident)* ':'` (not `::`) at the start of a tuple entry.
    fn mode_name(&mut self) -> Option<(String, Span)> {
        if !self.names
            || self.tok().kind != Kind::Ident
            || self.text_of(self.tok()).starts_with('_')
        {
            return None;
        }
        let mut n = 1usize;
        while self.is_punct(n, b'-') && self.nth(n.saturating_add(1)).kind == Kind::Ident {
            n = n.saturating_add(2);
        }
        if !self.is_punct(n, b':') || self.is_punct(n.saturating_add(1), b':') {
            return None;
        }
        let first = self.tok();
        let last = self.nth(n.saturating_sub(1));
        let mut name = String::new();
        for _ in 0..n {
            let t = self.bump();
            name.push_str(self.text_of(t));
        }
        self.bump(); // `:`
        Some((name, first.start..last.end))
    }

    /// One tree as written (a tuple of one entry kept), in CuTe order: the CuTe layer's
    /// shapes, strides and tilers.
    pub(crate) fn raw_tree(&mut self) -> R<Node<Span>> {
        self.tree(0, None, true, false)
    }

    /// The byte offset after the last token read.
    pub(crate) fn offset(&self) -> usize {
        self.toks[..self.i].last().map_or(0, |t| t.end)
    }

    fn tree(
        &mut self,
        depth: usize,
        names: Option<&mut Vec<Option<(String, Span)>>>,
        cute: bool,
        shape: bool,
    ) -> R<Node<Span>> {
        if depth > MAX_DEPTH {
            return Err(at(
                Error::TooDeep {
                    mode: ModePath::ROOT,
                },
                self.here(),
            ));
        }
        if self.is_punct(0, b'(') {
            let open = self.bump();
            let mut items = Vec::new();
            let mut names = names;
            loop {
                if self.is_punct(0, b')') {
                    break;
                }
                let name = self.mode_name();
                match (name, names.as_deref_mut()) {
                    (Some((_, s)), None) => {
                        return Err(at(Error::NestedName { column: s.start }, s));
                    }
                    (n, Some(list)) => list.push(n),
                    (None, None) => {}
                }
                items.push(self.tree(depth.saturating_add(1), None, cute, shape)?);
                if self.is_punct(0, b',') {
                    self.bump();
                } else if !self.is_punct(0, b')') {
                    return Err(self.expected(Expected::CommaOrClose));
                }
            }
            let close = self.bump();
            if items.len() > 255 {
                return Err(at(
                    Error::TooWide {
                        mode: ModePath::ROOT,
                        rank: items.len(),
                    },
                    open.start..close.end,
                ));
            }
            return Ok(Node::Tuple(items, open.start..close.end));
        }
        let t = self.tok();
        let leaf = match t.kind {
            Kind::Ident if self.text_of(t) == "_" => {
                if shape {
                    return Err(self.expected(Expected::PositiveSize));
                }
                self.bump();
                Leaf::Under
            }
            Kind::Ident if is_static(self.text_of(t)) => {
                let digits = self.text_of(t).get(1..).unwrap_or("");
                let v = digits
                    .parse::<i64>()
                    .map_err(|_| at(Error::IntegerTooLarge { column: t.start }, t.start..t.end))?;
                if !cute {
                    return Err(at(Error::StaticInteger { value: v }, t.start..t.end));
                }
                self.bump();
                Leaf::Int(v)
            }
            Kind::Punct(b'{') => {
                if !self.runtime_leaves {
                    return Err(at(Error::RuntimeLeaf { column: t.start }, t.start..t.end));
                }
                let (inner, whole) = self.braces()?;
                return Ok(Node::Leaf(Leaf::Runtime(inner), whole));
            }
            _ if self.starts_int() => {
                let (v, s) = self.int(Expected::Tree)?;
                return Ok(Node::Leaf(Leaf::Int(v), s));
            }
            _ => return Err(self.expected(Expected::Tree)),
        };
        Ok(Node::Leaf(leaf, t.start..t.end))
    }

    /// A balanced `{ .. }`: the span inside the braces and the whole group.
    fn braces(&mut self) -> R<(Span, Span)> {
        let open = self.bump();
        let mut level = 1usize;
        loop {
            let t = self.tok();
            match t.kind {
                Kind::End => return Err(self.expected(Expected::CloseBrace)),
                Kind::Punct(b'{') => level = level.saturating_add(1),
                Kind::Punct(b'}') => {
                    level = level.saturating_sub(1);
                    if level == 0 {
                        self.bump();
                        return Ok((open.end..t.start, open.start..t.end));
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- declarations --------------------------------------------------------------------

    /// `layout ',' side '->' side (',' option)*`.
    pub(crate) fn decl(&mut self) -> R<Decl<Span>> {
        let layout = self.layout()?;
        self.eat(b',', Expected::SpacesComma)?;
        let domain = self.side()?;
        if !(self.is_punct(0, b'-') && self.is_punct(1, b'>')) {
            return Err(self.expected(Expected::Arrow));
        }
        self.bump();
        self.bump();
        let codomain = self.side()?;
        let mut swizzle: Option<(SwizzleSpec, Span)> = None;
        let mut index: Option<(IntType, Span)> = None;
        let mut operands: Vec<OperandClause<Span>> = Vec::new();
        while self.is_punct(0, b',') {
            self.bump();
            if matches!(self.tok().kind, Kind::End | Kind::Punct(b']' | b';')) {
                break;
            }
            let (name, span) = self.ident(Expected::DeclOption)?;
            match name.as_str() {
                "swizzle" => {
                    if !self.is_punct(0, b'(') {
                        return Err(at(
                            Error::Syntax {
                                expected: Expected::SwizzleFields,
                            },
                            span,
                        ));
                    }
                    self.bump();
                    let sw = self.fields(span.clone())?;
                    self.eat(b')', Expected::CloseParen)?;
                    if swizzle.replace((sw, span.clone())).is_some() {
                        return Err(at(Error::SecondSwizzle, span));
                    }
                }
                "Swizzle" => {
                    let sw = self.cute_swizzle(span.clone())?;
                    if swizzle.replace((sw, span.clone())).is_some() {
                        return Err(at(Error::SecondSwizzle, span));
                    }
                }
                "index" => {
                    self.eat(b'=', Expected::IndexType)?;
                    let (ty, tspan) = self.ident(Expected::IndexType)?;
                    let t = match ty.as_str() {
                        "i32" => IntType::I32,
                        "i64" => IntType::I64,
                        "u32" => IntType::U32,
                        "usize" => IntType::Usize,
                        _ => {
                            return Err(at(
                                Error::Syntax {
                                    expected: Expected::IndexType,
                                },
                                tspan,
                            ));
                        }
                    };
                    if index.replace((t, tspan.clone())).is_some() {
                        return Err(at(Error::SecondIndexType, tspan));
                    }
                }
                "wgmma" | "tma" => {
                    let clause = self.operand_clause(&name, span)?;
                    if operands.iter().any(|c| c.operand == clause.operand) {
                        return Err(at(
                            Error::SecondOperandClause {
                                operand: clause.operand,
                            },
                            clause.span,
                        ));
                    }
                    operands.push(clause);
                }
                _ => {
                    return Err(at(
                        Error::Syntax {
                            expected: Expected::DeclOption,
                        },
                        span,
                    ));
                }
            }
        }
        Ok(Decl {
            layout,
            domain,
            codomain,
            swizzle,
            index,
            operands,
        })
    }

    /// The end of the token before the current one.
    fn last_end(&self) -> usize {
        self.i
            .checked_sub(1)
            .and_then(|j| self.toks.get(j))
            .map_or(0, |t| t.end)
    }

    /// An operand clause after its first word (`wgmma` or `tma`, at `name`): `K-major`,
    /// `MN-major` or `box`, then `of N-bit elements` if written.
    fn operand_clause(&mut self, word: &str, name: Span) -> R<OperandClause<Span>> {
        let operand = if word == "wgmma" {
            let major = if self.is_ident(0, "K") {
                crate::gmma::Major::K
            } else if self.is_ident(0, "MN") {
                crate::gmma::Major::MN
            } else {
                return Err(self.expected(Expected::Major));
            };
            if !(self.is_punct(1, b'-') && self.is_ident(2, "major")) {
                return Err(self.expected(Expected::Major));
            }
            self.bump();
            self.bump();
            self.bump();
            Operand::Wgmma(major)
        } else {
            if !self.is_ident(0, "box") {
                return Err(self.expected(Expected::TmaBox));
            }
            self.bump();
            Operand::TmaBox
        };
        let elem_bits = if self.is_ident(0, "of") {
            let start = self.tok().start;
            self.bump();
            let (bits, bspan) = self.int(Expected::ElementBits)?;
            let Ok(bits) = u32::try_from(bits) else {
                return Err(at(
                    Error::Syntax {
                        expected: Expected::ElementBits,
                    },
                    bspan,
                ));
            };
            if !(self.is_punct(0, b'-') && self.is_ident(1, "bit") && self.is_ident(2, "elements"))
            {
                return Err(self.expected(Expected::ElementBits));
            }
            self.bump();
            self.bump();
            self.bump();
            Some((bits, start..self.last_end()))
        } else {
            None
        };
        Ok(OperandClause {
            operand,
            elem_bits,
            span: name.start..self.last_end(),
        })
    }

    fn side(&mut self) -> R<Side<Span>> {
        let (name, mut span) = self.ident(Expected::Space)?;
        let space = match name.as_str() {
            "logical" => Space::Logical,
            "physical" => Space::Physical,
            "tv" => Space::ThreadValue,
            "thread" if self.is_punct(0, b'-') && self.is_ident(1, "value") => {
                self.bump();
                let v = self.bump();
                span = span.start..v.end;
                Space::ThreadValue
            }
            _ => {
                return Err(at(
                    Error::Syntax {
                        expected: Expected::Space,
                    },
                    span,
                ));
            }
        };
        let tile = if self.is_punct(0, b'(') {
            Some(self.tile()?)
        } else {
            None
        };
        Ok(Side { space, span, tile })
    }

    /// A tile: an integer or a tuple of tiles; its leaves are the extents.
    fn tile(&mut self) -> R<Tile<Span>> {
        let start = self.tok().start;
        let mut extents = Vec::new();
        self.tile_walk(&mut extents, 0)?;
        let end = self.toks[..self.i].last().map_or(start, |t| t.end);
        Ok(Tile {
            extents,
            span: start..end,
        })
    }

    fn tile_walk(&mut self, out: &mut Vec<(i64, Span)>, level: usize) -> R<()> {
        if level > MAX_EXPR_DEPTH {
            return Err(at(Error::ExprTooDeep, self.here()));
        }
        if self.is_punct(0, b'(') {
            self.bump();
            while !self.is_punct(0, b')') {
                self.tile_walk(out, level.saturating_add(1))?;
                if self.is_punct(0, b',') {
                    self.bump();
                } else if !self.is_punct(0, b')') {
                    return Err(self.expected(Expected::CommaOrClose));
                }
            }
            self.bump();
        } else {
            out.push(self.int(Expected::TileEntry)?);
        }
        Ok(())
    }

    /// A shape of integers (`broadcast`'s copies, a coordinate): an integer or a tuple.
    fn shape(&mut self, level: usize) -> R<Tree<i64>> {
        if level > MAX_EXPR_DEPTH {
            return Err(at(Error::ExprTooDeep, self.here()));
        }
        let t = if self.is_punct(0, b'(') {
            self.bump();
            let mut items = Vec::new();
            while !self.is_punct(0, b')') {
                items.push(self.shape(level.saturating_add(1))?);
                if self.is_punct(0, b',') {
                    self.bump();
                } else if !self.is_punct(0, b')') {
                    return Err(self.expected(Expected::CommaOrClose));
                }
            }
            self.bump();
            if items.len() == 1 {
                items.pop().unwrap_or(Tree::Tuple(Vec::new()))
            } else {
                Tree::Tuple(items)
            }
        } else {
            Tree::Leaf(self.int(Expected::Shape)?.0)
        };
        Ok(t)
    }

    /// The fields `b = .., src = .., dst = ..` up to (not including) `)`.
    fn fields(&mut self, name: Span) -> R<SwizzleSpec> {
        let (mut b, mut src, mut dst) = (None, None, None);
        while !self.is_punct(0, b')') && self.tok().kind != Kind::End {
            let (key, kspan) = self.ident(Expected::SwizzleField)?;
            let slot = match key.as_str() {
                "b" => &mut b,
                "src" => &mut src,
                "dst" => &mut dst,
                _ => {
                    return Err(at(
                        Error::Syntax {
                            expected: Expected::SwizzleField,
                        },
                        kspan,
                    ));
                }
            };
            self.eat(b'=', Expected::Equals)?;
            let (v, _) = self.int(Expected::Integer)?;
            if slot.replace(v).is_some() {
                return Err(at(Error::SwizzleFieldTwice, kspan));
            }
            if self.is_punct(0, b',') {
                self.bump();
            } else {
                break;
            }
        }
        match (b, src, dst) {
            (Some(b), Some(src), Some(dst)) => Ok(SwizzleSpec::Fields { b, src, dst }),
            _ => Err(at(
                Error::Syntax {
                    expected: Expected::SwizzleFields,
                },
                name,
            )),
        }
    }

    /// `<B,M,S> over UNIT` after the name `Swizzle` (at `name`: a missing unit points there,
    /// or at the word found instead of `over`).
    fn cute_swizzle(&mut self, name: Span) -> R<SwizzleSpec> {
        self.eat(b'<', Expected::Swizzle)?;
        let (b, _) = self.int(Expected::Swizzle)?;
        self.eat(b',', Expected::Swizzle)?;
        let (m, _) = self.int(Expected::Swizzle)?;
        self.eat(b',', Expected::Swizzle)?;
        let (s, _) = self.int(Expected::Swizzle)?;
        self.eat(b'>', Expected::Swizzle)?;
        let missing = |p: &Parser<'_>| {
            let span = if p.tok().kind == Kind::Ident {
                p.here()
            } else {
                name.clone()
            };
            at(Error::SwizzleUnitMissing { b, m, s }, span)
        };
        if !self.is_ident(0, "over") {
            return Err(missing(self));
        }
        self.bump();
        let unit = if self.is_ident(0, "elements") {
            self.bump();
            SwizzleUnit::Elements
        } else if self.is_ident(0, "bytes") {
            self.bump();
            if !self.is_ident(0, "of") {
                return Err(missing(self));
            }
            self.bump();
            let Kind::Int { suffixed: false } = self.tok().kind else {
                return Err(missing(self));
            };
            let (bits, bspan) = self.int(Expected::ElementBits)?;
            let Ok(elem_bits) = u32::try_from(bits) else {
                return Err(at(
                    Error::Syntax {
                        expected: Expected::ElementBits,
                    },
                    bspan,
                ));
            };
            if !(self.is_punct(0, b'-') && self.is_ident(1, "bit") && self.is_ident(2, "elements"))
            {
                return Err(missing(self));
            }
            self.bump();
            self.bump();
            self.bump();
            SwizzleUnit::Bytes { elem_bits }
        } else {
            return Err(missing(self));
        };
        Ok(SwizzleSpec::Cute { b, m, s, unit })
    }

    // ---- expressions ---------------------------------------------------------------------

    /// Whether the tokens start a path followed by `=` (a definition `PATH = DECL`).
    pub(crate) fn at_definition(&self) -> bool {
        self.definition_at(0).is_some()
    }

    /// When `PATH =` starts at the `start`-th token: the position after its `=`.
    fn definition_at(&self, start: usize) -> Option<usize> {
        let mut n = start;
        if self.is_punct(n, b':') && self.is_punct(n.saturating_add(1), b':') {
            n = n.saturating_add(2);
        }
        loop {
            if self.nth(n).kind != Kind::Ident {
                return None;
            }
            n = n.saturating_add(1);
            if self.is_punct(n, b':') && self.is_punct(n.saturating_add(1), b':') {
                n = n.saturating_add(2);
            } else {
                return self.is_punct(n, b'=').then(|| n.saturating_add(1));
            }
        }
    }

    /// `[PATH = [..` or `[PATH = op(..`: a definition by an expression next (an item defined
    /// by an expression hands on its own definitions and expression), not by a declaration
    /// (which starts with a shape, or with `cute`).
    pub(crate) fn at_derived_definition(&self) -> bool {
        if !self.is_punct(0, b'[') {
            return false;
        }
        let Some(n) = self.definition_at(1) else {
            return false;
        };
        let t = self.nth(n);
        self.is_punct(n, b'[')
            || (t.kind == Kind::Ident
                && Op::from_name(self.text_of(t)).is_some()
                && self.is_punct(n.saturating_add(1), b'('))
    }

    /// `[PATH = ALGEBRA]`, the inside read by `inner`; one more level of nesting.
    pub(crate) fn derived_definition<T>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<(Path<Span>, T)> {
        self.eat(b'[', Expected::OpenBracket)?;
        let path = self.path()?;
        self.eat(b'=', Expected::Equals)?;
        self.enter()?;
        let v = inner(self)?;
        self.leave();
        self.eat(b']', Expected::CloseBracket)?;
        Ok((path, v))
    }

    /// `[PATH = DECL]` next (not a literal `[DECL]`).
    pub(crate) fn at_bracketed_definition(&mut self) -> bool {
        if !self.is_punct(0, b'[') {
            return false;
        }
        self.i = self.i.saturating_add(1);
        let r = self.at_definition();
        self.i = self.i.saturating_sub(1);
        r
    }

    /// `[PATH = DECL]`.
    pub(crate) fn bracketed_definition(&mut self) -> R<(Path<Span>, Decl<Span>)> {
        self.eat(b'[', Expected::OpenBracket)?;
        let d = self.definition()?;
        self.eat(b']', Expected::CloseBracket)?;
        Ok(d)
    }

    /// `PATH = DECL`.
    pub(crate) fn definition(&mut self) -> R<(Path<Span>, Decl<Span>)> {
        let path = self.path()?;
        self.eat(b'=', Expected::Equals)?;
        let d = self.decl()?;
        Ok((path, d))
    }

    fn path(&mut self) -> R<Path<Span>> {
        let mut leading = false;
        if self.is_punct(0, b':') && self.is_punct(1, b':') {
            self.bump();
            self.bump();
            leading = true;
        }
        let mut segments = Vec::new();
        loop {
            segments.push(self.ident(Expected::Expression)?);
            if self.is_punct(0, b':') && self.is_punct(1, b':') {
                self.bump();
                self.bump();
            } else {
                break;
            }
        }
        let span = segments
            .last()
            .map_or_else(|| self.here(), |(_, s)| s.clone());
        Ok(Path {
            leading,
            segments,
            span,
        })
    }

    /// One expression; `defaults` are the spaces of a bare layout in this position.
    pub(crate) fn expr(&mut self, defaults: (Space, Space)) -> R<Expr<Span>> {
        self.enter()?;
        let e = self.expr_inner(defaults);
        self.leave();
        e
    }

    fn bare_layout(&mut self, defaults: (Space, Space)) -> R<Expr<Span>> {
        match self.opts.bare {
            Some(_) => Ok(Expr::Bare(Box::new(self.layout()?), defaults)),
            None => Err(self.expected(Expected::Expression)),
        }
    }

    fn expr_inner(&mut self, defaults: (Space, Space)) -> R<Expr<Span>> {
        if self.is_punct(0, b'[') {
            let open = self.bump();
            let d = self.decl()?;
            let close = self.eat(b']', Expected::CloseBracket)?;
            return Ok(Expr::Literal(Box::new(d), open.start..close.end));
        }
        if self.is_ident(0, "cute") && !(self.is_punct(1, b':') && self.is_punct(2, b':')) {
            return self.bare_layout(defaults);
        }
        if self.tok().kind == Kind::Ident && self.is_punct(1, b'(') {
            let t = self.tok();
            let Some(op) = Op::from_name(self.text_of(t)) else {
                return Err(at(Error::UnknownOperation, t.start..t.end));
            };
            self.bump();
            return self.call(op, t.start..t.end);
        }
        let t = self.tok();
        let path_start =
            (t.kind == Kind::Ident && !is_static(self.text_of(t)) && self.text_of(t) != "_")
                || (self.is_punct(0, b':') && self.is_punct(1, b':'));
        if path_start {
            return Ok(Expr::Operand(self.path()?));
        }
        self.bare_layout(defaults)
    }

    fn call(&mut self, op: Op, span: Span) -> R<Expr<Span>> {
        self.eat(b'(', Expected::OpenParen)?;
        let bare = self.opts.bare.unwrap_or_default();
        let first = if op == Op::Inverse {
            bare.right
        } else {
            bare.storage
        };
        let operand = Box::new(self.expr(first)?);
        let unary = matches!(op, Op::Inverse | Op::Flatten | Op::Coalesce);
        if !unary {
            self.eat(b',', Expected::Argument(op))?;
        }
        let e = match op {
            Op::Compose => Expr::Compose {
                left: operand,
                right: Box::new(self.expr(bare.right)?),
                span,
            },
            Op::Divide | Op::DivideModes => {
                let mut tile = self.tile()?;
                if self.opts.order == Order::Cute {
                    tile.extents.reverse();
                }
                Expr::Divide {
                    operand,
                    tile,
                    kind: if op == Op::Divide {
                        DivideKind::Whole
                    } else {
                        DivideKind::Modes
                    },
                    span,
                }
            }
            Op::Restrict => {
                let mut fixed: Vec<(Entry<Span>, Value<Span>)> = Vec::new();
                while !self.is_punct(0, b')') && self.tok().kind != Kind::End {
                    let here = self.here();
                    let r = self.restriction()?;
                    // The whole-domain value is the one argument after the map.
                    if matches!(r.0, Entry::All(_)) && !fixed.is_empty()
                        || fixed.iter().any(|(e, _)| matches!(e, Entry::All(_)))
                    {
                        return Err(at(
                            Error::Syntax {
                                expected: Expected::CloseCall(Op::Restrict),
                            },
                            here,
                        ));
                    }
                    fixed.push(r);
                    if self.is_punct(0, b',') {
                        self.bump();
                    } else {
                        break;
                    }
                }
                Expr::Restrict {
                    operand,
                    fixed,
                    span,
                }
            }
            Op::Repeat | Op::Interleave | Op::RepeatModewise | Op::RepeatModewiseRaked => {
                let literal = self.is_punct(0, b'(')
                    || self.starts_int()
                    || (self.is_ident(0, "cute") && !self.is_punct(1, b':'));
                let arrangement = if literal {
                    Arrangement::Layout(self.layout()?)
                } else {
                    Arrangement::Expr(self.expr(bare.storage)?)
                };
                Expr::Repeat {
                    operand,
                    arrangement: Box::new(arrangement),
                    kind: RepeatKind::of(op).unwrap_or(RepeatKind::Repeat),
                    span,
                }
            }
            Op::Broadcast => {
                let start = self.tok().start;
                let shape = self.shape(0)?;
                let end = self.toks[..self.i].last().map_or(start, |t| t.end);
                let shape = if self.opts.order == Order::Cute {
                    shape.reversed()
                } else {
                    shape
                };
                Expr::Broadcast {
                    operand,
                    shape,
                    shape_span: start..end,
                    span,
                }
            }
            Op::Inverse => Expr::Inverse { operand, span },
            Op::Group => {
                let start = self.mode_index()?;
                self.eat(b',', Expected::Argument(op))?;
                let end = self.mode_index()?;
                Expr::Regroup {
                    operand,
                    regroup: Regroup::Group { start, end },
                    span,
                }
            }
            Op::Flatten | Op::Coalesce => Expr::Regroup {
                operand,
                regroup: if op == Op::Flatten {
                    Regroup::Flatten
                } else {
                    Regroup::Coalesce
                },
                span,
            },
            Op::Select | Op::Permute => {
                let indices = self.indices()?;
                Expr::Regroup {
                    operand,
                    regroup: if op == Op::Select {
                        Regroup::Select(indices)
                    } else {
                        Regroup::Permute(indices)
                    },
                    span,
                }
            }
            Op::Swizzle => {
                let swizzle = if self.is_ident(0, "Swizzle") && self.is_punct(1, b'<') {
                    let name = self.here();
                    self.bump();
                    self.cute_swizzle(name)?
                } else {
                    self.fields(span.clone())?
                };
                Expr::Swizzle {
                    operand,
                    swizzle,
                    span,
                }
            }
        };
        if self.is_punct(0, b',') && op != Op::Restrict {
            // A trailing comma.
            self.bump();
        }
        self.eat(b')', Expected::CloseCall(op))?;
        Ok(e)
    }

    /// A top-level mode index: an integer from 0 (a sign is not one).
    fn mode_index(&mut self) -> R<(usize, Span)> {
        let t = self.tok();
        if !matches!(t.kind, Kind::Int { .. }) {
            return Err(self.expected(Expected::Integer));
        }
        let (v, s) = self.int(Expected::Integer)?;
        let v = usize::try_from(v)
            .map_err(|_| at(Error::IntegerTooLarge { column: s.start }, s.clone()))?;
        Ok((v, s))
    }

    /// The mode indices of `select`/`permute`: one integer or a flat tuple of integers.
    fn indices(&mut self) -> R<Indices<Span>> {
        let start = self.tok().start;
        let mut indices = Vec::new();
        if self.is_punct(0, b'(') {
            self.bump();
            while !self.is_punct(0, b')') {
                indices.push(self.mode_index()?);
                if self.is_punct(0, b',') {
                    self.bump();
                } else if !self.is_punct(0, b')') {
                    return Err(self.expected(Expected::CommaOrClose));
                }
            }
            self.bump();
        } else {
            indices.push(self.mode_index()?);
        }
        let end = self.toks[..self.i].last().map_or(start, |t| t.end);
        Ok(Indices {
            indices,
            span: start..end,
        })
    }

    /// `entry '=' value`, or one value for the whole domain (`(_, _, k)`, `_`, or a value not
    /// followed by `=`, `restrict(V, 5)`).
    fn restriction(&mut self) -> R<(Entry<Span>, Value<Span>)> {
        let t = self.tok();
        // One value for the whole domain: a tuple, `_`, or anything not followed by `=` (a
        // domain of one entry takes a bare integer or run-time value, `restrict(V, 5)`).
        if self.is_punct(0, b'(') || self.is_ident(0, "_") || !self.assigns() {
            let v = self.value(0)?;
            return Ok((Entry::All(v.span().clone()), v));
        }
        let entry = match t.kind {
            Kind::Int { suffixed: false } => {
                self.bump();
                let p = self
                    .text_of(t)
                    .parse::<usize>()
                    .map_err(|_| at(Error::IntegerTooLarge { column: t.start }, t.start..t.end))?;
                Entry::Position(p, t.start..t.end)
            }
            Kind::Ident => {
                self.bump();
                Entry::Name(self.text_of(t).to_string(), t.start..t.end)
            }
            _ => return Err(self.expected(Expected::Entry)),
        };
        self.eat(b'=', Expected::Equals)?;
        Ok((entry, self.value(0)?))
    }

    /// Whether the argument that starts here has an `=` at its top level (`entry = value`),
    /// before its end (the next top-level `,` or `)`).
    fn assigns(&self) -> bool {
        let mut level = 0usize;
        let mut n = 0usize;
        loop {
            match self.nth(n).kind {
                Kind::End => return false,
                Kind::Punct(b'=') if level == 0 => return true,
                Kind::Punct(b',') if level == 0 => return false,
                Kind::Punct(b')' | b']' | b'}') if level == 0 => return false,
                Kind::Punct(b'(' | b'[' | b'{') => level = level.saturating_add(1),
                Kind::Punct(b')' | b']' | b'}') => level = level.saturating_sub(1),
                _ => {}
            }
            n = n.saturating_add(1);
        }
    }

    /// Whether the next token ends a value: `,` or `)`.
    fn ends_value(&self) -> bool {
        self.is_punct(0, b',') || self.is_punct(0, b')')
    }

    /// A restriction value, followed by `,` or `)`: `_`, an integer, a coordinate `(1, 3)`, a
    /// tuple of values with a `_` or a run-time value among them (`(_, 3)`, `(k, bx)`), else a
    /// run-time value: every token up to the next top-level `,`. A tuple of one value is
    /// that value.
    fn value(&mut self, level: usize) -> R<Value<Span>> {
        if level > MAX_EXPR_DEPTH {
            return Err(at(Error::ExprTooDeep, self.here()));
        }
        let save = self.i;
        let start = self.tok().start;
        let end_here = |p: &Self| p.toks[..p.i].last().map_or(start, |t| t.end);
        if self.is_ident(0, "_") && matches!(self.nth(1).kind, Kind::Punct(b',' | b')')) {
            self.bump();
            return Ok(Value::Free(start..end_here(self)));
        }
        if self.is_punct(0, b'(')
            && let Ok(c) = self.shape(0)
            && self.ends_value()
        {
            let c = if self.opts.order == Order::Cute {
                c.reversed()
            } else {
                c
            };
            return Ok(Value::Coord(c, start..end_here(self)));
        }
        self.i = save;
        if self.starts_int()
            && let Ok((v, s)) = self.int(Expected::Value)
            && self.ends_value()
        {
            return Ok(Value::Int(v, s));
        }
        self.i = save;
        if self.is_punct(0, b'(') {
            self.bump();
            let mut items = Vec::new();
            let mut whole = true;
            while !self.is_punct(0, b')') && self.tok().kind != Kind::End {
                match self.value(level.saturating_add(1)) {
                    Ok(v) => items.push(v),
                    Err(e)
                        if matches!(
                            e.error,
                            Error::IntegerTooLarge { .. } | Error::ExprTooDeep
                        ) =>
                    {
                        return Err(e);
                    }
                    Err(_) => {
                        whole = false;
                        break;
                    }
                }
                if self.is_punct(0, b',') {
                    self.bump();
                } else {
                    break;
                }
            }
            if whole && !items.is_empty() && self.is_punct(0, b')') {
                self.bump();
                if self.ends_value() {
                    if self.opts.order == Order::Cute {
                        items.reverse();
                    }
                    if items.len() == 1 {
                        return Ok(items.pop().unwrap_or(Value::Free(start..start)));
                    }
                    return Ok(Value::Parts(items, start..end_here(self)));
                }
            }
            self.i = save;
        }
        self.runtime_value();
        // A value written with integer literals only is static: an integer past `i64`
        // (`99999999999999999999`, `(1, 99999999999999999999)`) is that literal's error, never a
        // run-time value. A suffixed literal (`3usize`) is Rust's, a run-time value.
        let literal = self.toks.get(save..self.i).is_some_and(|ts| {
            !ts.is_empty()
                && ts.iter().all(|t| {
                    matches!(
                        t.kind,
                        Kind::Int { .. } | Kind::Punct(b'(' | b')' | b',' | b'-')
                    )
                })
        });
        if literal {
            let stop = self.i;
            self.i = save;
            let read = if self.is_punct(0, b'(') {
                self.shape(0).map(|_| ())
            } else {
                self.int(Expected::Value).map(|_| ())
            };
            if let Err(e) = read
                && matches!(e.error, Error::IntegerTooLarge { .. })
            {
                return Err(e);
            }
            self.i = stop;
        }
        if self.i == save {
            return Err(self.expected(Expected::Value));
        }
        Ok(Value::Runtime(start..end_here(self)))
    }
}

impl Parser<'_> {
    /// Skips a run-time value: Rust tokens up to the next `,` (or closing delimiter) at its
    /// top level. Besides `()`, `[]` and `{}`, a comma is inside the value when it is inside
    /// the generic arguments of a path (`f::<A, B>(x)`, `<T as Tr<A, B>>::f()`) or between
    /// the bars of a closure's parameters (`|a, b| a + b`), as Rust reads the expression.
    fn runtime_value(&mut self) {
        let first = self.i;
        let mut level = 0usize;
        // Open `<` of generic arguments, each with the delimiter level it opened at.
        let mut angles: Vec<usize> = Vec::new();
        // Whether a closure's parameters are open (at this delimiter level).
        let mut bars: Option<usize> = None;
        loop {
            let t = self.tok();
            let at_start = self.i == first
                || (self.i.saturating_sub(1) >= first
                    && matches!(
                        self.toks.get(self.i.saturating_sub(1)).map(|t| t.kind),
                        Some(Kind::Punct(b'(' | b'[' | b'{' | b',' | b'=' | b';'))
                    ))
                || self.i.checked_sub(1).is_some_and(|p| {
                    p >= first
                        && self
                            .toks
                            .get(p)
                            .is_some_and(|t| t.kind == Kind::Ident && self.text_of(*t) == "move")
                });
            let inner = !angles.is_empty() || bars.is_some();
            match t.kind {
                Kind::End => break,
                Kind::Punct(b',') if level == 0 && !inner => break,
                Kind::Punct(b')' | b']' | b'}') if level == 0 => break,
                Kind::Punct(b'(' | b'[' | b'{') => level = level.saturating_add(1),
                Kind::Punct(b')' | b']' | b'}') => {
                    level = level.saturating_sub(1);
                    angles.retain(|&l| l <= level);
                    if bars.is_some_and(|l| l > level) {
                        bars = None;
                    }
                }
                Kind::Punct(b'<') => {
                    let turbofish = self.i >= first.saturating_add(2)
                        && self.is_punct_at(self.i.saturating_sub(1), b':')
                        && self.is_punct_at(self.i.saturating_sub(2), b':');
                    if turbofish || at_start || angles.last() == Some(&level) {
                        angles.push(level);
                    }
                }
                // `->` inside generic arguments (`Fn(A) -> B`) closes nothing.
                Kind::Punct(b'>')
                    if angles.last() == Some(&level)
                        && !(self.i > first
                            && self.is_punct_at(self.i.saturating_sub(1), b'-')) =>
                {
                    angles.pop();
                }
                Kind::Punct(b'|') if bars == Some(level) => bars = None,
                Kind::Punct(b'|') if bars.is_none() && angles.is_empty() && at_start => {
                    bars = Some(level);
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn is_punct_at(&self, i: usize, c: u8) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Punct(c))
    }
}

/// `_8`: C++ CuTe's static integer.
fn is_static(word: &str) -> bool {
    word.strip_prefix('_')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// A tuple of one leaf is that leaf (spec: Layouts and evaluation), recursively.
fn normalised(n: Node<Span>) -> Node<Span> {
    match n {
        Node::Leaf(..) => n,
        Node::Tuple(v, s) => {
            let mut inner: Vec<Node<Span>> = v.into_iter().map(normalised).collect();
            if inner.len() == 1 && matches!(inner[0], Node::Leaf(..)) {
                inner.pop().unwrap_or(Node::Tuple(Vec::new(), s))
            } else {
                Node::Tuple(inner, s)
            }
        }
    }
}

//! Reading CuTe notation: layouts, tilers, swizzles and composed layouts.
//!
//! ```text
//! layout   := tree ':' tree
//! tree     := int | '(' tree (',' tree)* ')'
//! int      := '-'? digits | '_' digits          // `_8` is C++ CuTe's static 8
//! tiler    := '_' | '<' tiler (',' tiler)* '>' | layout | int | '(' … ')'   // a shape: by mode
//! swizzle  := ('Swizzle' | 'Sw') '<' int ',' int ',' int '>' | 'SW_' int '_' int '_' int
//!           | int ',' int ',' int | '[' int ',' int ',' int ']'
//! composed := stage ('o' stage)*                 // outermost first; a stage `0` (offset) is skipped
//! ```

use alloc::vec::Vec;
use core::str::FromStr;

use super::layout::CuteLayout;
use super::swizzle::{Composed, Stage};
use super::tiler::Tiler;
use crate::error::{Error, Expected, MAX_DEPTH, ModePath};
use crate::swizzle::{Swizzle, SwizzleUnit};
use crate::tree::Tree;

pub(crate) struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(s: &'a str) -> Cursor<'a> {
        Cursor {
            s: s.as_bytes(),
            pos: 0,
            base: 0,
        }
    }

    fn at(s: &'a str, base: usize) -> Cursor<'a> {
        Cursor {
            s: s.as_bytes(),
            pos: 0,
            base,
        }
    }

    fn peek(&mut self) -> Option<u8> {
        while self.s.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos = self.pos.saturating_add(1);
        }
        self.s.get(self.pos).copied()
    }

    fn err(&self, expected: Expected) -> Error {
        Error::Parse {
            column: self.base.saturating_add(self.pos),
            expected,
        }
    }

    fn eat(&mut self, c: u8, expected: Expected) -> Result<(), Error> {
        if self.peek() == Some(c) {
            self.pos = self.pos.saturating_add(1);
            Ok(())
        } else {
            Err(self.err(expected))
        }
    }

    pub(crate) fn end(&mut self) -> Result<(), Error> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.err(Expected::End)),
        }
    }

    fn int(&mut self) -> Result<i64, Error> {
        self.peek();
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'_') {
            self.pos = self.pos.saturating_add(1);
        }
        let digits = self.pos;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos = self.pos.saturating_add(1);
        }
        while self.s.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos = self.pos.saturating_add(1);
        }
        let text = &self.s[digits..self.pos];
        if text.is_empty() || text == b"-" {
            self.pos = start;
            return Err(self.err(Expected::Tree));
        }
        core::str::from_utf8(text)
            .ok()
            .and_then(|t| t.parse::<i64>().ok())
            .ok_or(Error::IntegerTooLarge {
                column: self.base.saturating_add(start),
            })
    }

    /// A tree of integers (`_8` is 8; a tuple of one entry is kept), read by the one parser of
    /// the layout grammar ([`crate::expr`]).
    pub(crate) fn tree(&mut self, depth: usize) -> Result<Tree<i64>, Error> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                mode: ModePath::ROOT,
            });
        }
        self.peek();
        let start = self.pos;
        let rest = core::str::from_utf8(&self.s[start..]).map_err(|_| self.err(Expected::Tree))?;
        let opts = crate::expr::Options {
            order: crate::expr::Order::Cute,
            bare: None,
            runtime: false,
        };
        let mut p = crate::expr::parse::Parser::plain(rest, opts);
        p.names = false;
        let column = |at: usize| self.base.saturating_add(start).saturating_add(at);
        let node = p.raw_tree().map_err(|l| match l.error {
            Error::Syntax { expected } => Error::Parse {
                column: column(l.span.start),
                expected,
            },
            Error::RuntimeLeaf { column: c } => Error::Parse {
                column: column(c),
                expected: Expected::Tree,
            },
            Error::IntegerTooLarge { column: c } => Error::IntegerTooLarge { column: column(c) },
            e => e,
        })?;
        let mut under = None;
        let tree = node.to_tree(&mut |l| match l {
            crate::expr::Leaf::Int(v) => *v,
            _ => 0,
        });
        for (l, s) in node.leaves() {
            if !matches!(l, crate::expr::Leaf::Int(_)) && under.is_none() {
                under = Some(s.start);
            }
        }
        if let Some(at) = under {
            return Err(Error::Parse {
                column: column(at),
                expected: Expected::Tree,
            });
        }
        self.pos = start.saturating_add(p.offset());
        Ok(tree)
    }

    fn layout(&mut self) -> Result<CuteLayout, Error> {
        let shape = self.tree(0)?;
        self.eat(b':', Expected::Colon)?;
        let stride = self.tree(0)?;
        CuteLayout::new(shape, stride)
    }

    fn tiler(&mut self, depth: usize) -> Result<Tiler, Error> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                mode: ModePath::ROOT,
            });
        }
        match self.peek() {
            Some(b'_')
                if !self
                    .s
                    .get(self.pos.saturating_add(1))
                    .is_some_and(u8::is_ascii_digit) =>
            {
                self.pos = self.pos.saturating_add(1);
                Ok(Tiler::Underscore)
            }
            Some(b'<') => {
                self.pos = self.pos.saturating_add(1);
                let mut items = Vec::new();
                // `<>`: the tiler of no modes, as `()` reads and `Display` prints it.
                if self.peek() == Some(b'>') {
                    self.pos = self.pos.saturating_add(1);
                    return Ok(Tiler::Modes(items));
                }
                loop {
                    items.push(self.tiler(depth.saturating_add(1))?);
                    match self.peek() {
                        Some(b',') => self.pos = self.pos.saturating_add(1),
                        Some(b'>') => {
                            self.pos = self.pos.saturating_add(1);
                            return Ok(Tiler::Modes(items));
                        }
                        _ => return Err(self.err(Expected::CommaOrAngle)),
                    }
                }
            }
            Some(c) if c == b'(' || c == b'-' || c == b'_' || c.is_ascii_digit() => {
                let shape = self.tree(0)?;
                if self.peek() == Some(b':') {
                    self.pos = self.pos.saturating_add(1);
                    let stride = self.tree(0)?;
                    return Ok(Tiler::Layout(CuteLayout::new(shape, stride)?));
                }
                shape_tiler(&shape)
            }
            _ => Err(self.err(Expected::Tiler)),
        }
    }

    fn swizzle(&mut self) -> Result<Swizzle, Error> {
        self.peek();
        let rest = &self.s[self.pos..];
        let three = |c: &mut Cursor<'_>, sep: u8| -> Result<[i64; 3], Error> {
            let b = c.int()?;
            c.eat(sep, Expected::Swizzle)?;
            let m = c.int()?;
            c.eat(sep, Expected::Swizzle)?;
            let s = c.int()?;
            Ok([b, m, s])
        };
        let [b, m, s] = if rest.starts_with(b"SW_") {
            self.pos = self.pos.saturating_add(3);
            three(self, b'_')?
        } else if rest.starts_with(b"Swizzle<") || rest.starts_with(b"Sw<") {
            self.pos = self
                .pos
                .saturating_add(if rest.starts_with(b"Sw<") { 3 } else { 8 });
            let v = three(self, b',')?;
            self.eat(b'>', Expected::Swizzle)?;
            v
        } else if rest.starts_with(b"[") {
            self.pos = self.pos.saturating_add(1);
            let v = three(self, b',')?;
            self.eat(b']', Expected::Swizzle)?;
            v
        } else if rest.first().is_some_and(|c| c.is_ascii_digit()) {
            three(self, b',')?
        } else {
            return Err(self.err(Expected::Swizzle));
        };
        // CuTe's semantics: the swizzle acts on the offsets of the layout it is composed with.
        Swizzle::from_cute(b, m, s, SwizzleUnit::Elements)
    }
}

/// A shape used as a tiler (CuTe's `Shape` tilers): an integer `n` is `n:1`, a tuple is by mode.
fn shape_tiler(shape: &Tree<i64>) -> Result<Tiler, Error> {
    match shape {
        Tree::Leaf(n) => Ok(Tiler::Layout(CuteLayout::leaf(*n, 1)?)),
        Tree::Tuple(v) => Ok(Tiler::Modes(
            v.iter().map(shape_tiler).collect::<Result<_, _>>()?,
        )),
    }
}

impl FromStr for CuteLayout {
    type Err = Error;

    /// Reads CuTe notation, e.g. `((2,2),3):((24,2),8)`, `(4):(2)`, `8:0` or C++'s
    /// `(_8,_8):(_8,_1)`. The tree is kept as written (a rank-1 tuple stays a tuple).
    ///
    /// # Errors
    /// [`Error::Parse`] with the byte column, [`Error::IntegerTooLarge`], and every error of
    /// [`CuteLayout::new`].
    fn from_str(text: &str) -> Result<CuteLayout, Error> {
        let mut c = Cursor::new(text);
        let l = c.layout()?;
        c.end()?;
        Ok(l)
    }
}

impl FromStr for Tiler {
    type Err = Error;

    /// Reads a tiler: `_`, `<t0,t1,…>`, a layout, an integer or a shape tuple.
    ///
    /// # Errors
    /// As [`CuteLayout`]'s parser, and [`Error::Parse`] expecting `,` or `>` inside `<…>`.
    fn from_str(text: &str) -> Result<Tiler, Error> {
        let mut c = Cursor::new(text);
        let t = c.tiler(0)?;
        c.end()?;
        Ok(t)
    }
}

/// Reads a CuTe swizzle: `Swizzle<B,M,S>`, `Sw<B,M,S>`, `SW_B_M_S`, `B,M,S` or `[B,M,S]`.
///
/// # Errors
/// [`Error::Parse`] expecting a swizzle, and [`Swizzle::from_cute`]'s errors.
pub fn parse_swizzle(text: &str) -> Result<Swizzle, Error> {
    let mut c = Cursor::new(text);
    let s = c.swizzle()?;
    c.end()?;
    Ok(s)
}

/// Reads a cotarget: an integer, or a shape whose size is taken (CuTe's `size(cotarget)`).
///
/// # Errors
/// As the layout parser; [`Error::Overflow`] when the size exceeds `i64`.
pub fn parse_cotarget(text: &str) -> Result<i64, Error> {
    let mut c = Cursor::new(text);
    let t = c.tree(0)?;
    c.end()?;
    t.leaves().into_iter().try_fold(1i64, |acc, &x| {
        acc.checked_mul(x).ok_or(Error::Overflow {
            mode: ModePath::ROOT,
            what: crate::error::Quantity::Positions,
        })
    })
}

/// Reads a profile for `coalesce(layout, profile)`: a tree whose integers are ignored.
///
/// # Errors
/// As the layout parser.
pub fn parse_profile(text: &str) -> Result<Tree<i64>, Error> {
    let mut c = Cursor::new(text);
    let t = c.tree(0)?;
    c.end()?;
    Ok(t)
}

impl FromStr for Composed {
    type Err = Error;

    /// Reads stages joined by `o`, outermost first: `Swizzle<3,0,3> o (8,8):(8,1)`, pycute's
    /// `SW_3_0_3 o 0 o (8, 8):(8, 1)` (the offset `0` is skipped), or a plain layout.
    ///
    /// # Errors
    /// As the layout and swizzle parsers; [`Error::Parse`] when the innermost stage is not a
    /// layout.
    fn from_str(text: &str) -> Result<Composed, Error> {
        let mut stages = Vec::new();
        let mut base = 0usize;
        // Neither layouts nor swizzles contain the letter `o`.
        for part in text.split('o') {
            let trimmed = part.trim();
            let mut c = Cursor::at(part, base);
            base = base.saturating_add(part.len()).saturating_add(1);
            if trimmed == "0" {
                continue;
            }
            let stage = if trimmed.contains(':') {
                Stage::Layout(c.layout()?)
            } else {
                Stage::Swizzle(c.swizzle()?)
            };
            c.end()?;
            stages.push(stage);
        }
        Composed::new(stages)
    }
}

//! The text grammar (spec: Grammar), used by `FromStr`, the CLI and (through tokens) the macro.
//!
//! ```text
//! layout := tree ':' tree
//! tree   := leaf | '(' item (',' item)* ','? ')'
//! item   := (name ':')? tree          // names label top-level shape modes only
//! leaf   := integer | '_'
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::str::FromStr;

use crate::error::{Error, Expected, MAX_DEPTH};
use crate::layout::Layout;
use crate::tree::{Stride, Tree};

pub(crate) struct Raw {
    pub shape: Tree<i64>,
    pub stride: Tree<Stride>,
    pub names: Vec<Option<String>>,
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// CuTe notation: `_8` (C++ CuTe's printed static integer) is the integer 8.
    cute: bool,
}

enum Leaf {
    Int(i64),
    Under,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos = self.pos.saturating_add(1);
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn err(&self, expected: Expected) -> Error {
        Error::Parse {
            column: self.pos,
            expected,
        }
    }

    fn ident_then_colon(&mut self) -> Option<(usize, String)> {
        let start = self.pos;
        let mut end = start;
        if !self.s.get(end).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        while self
            .s
            .get(end)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
        {
            end = end.saturating_add(1);
        }
        let mut after = end;
        while self.s.get(after).is_some_and(u8::is_ascii_whitespace) {
            after = after.saturating_add(1);
        }
        if self.s.get(after) != Some(&b':') {
            return None;
        }
        let name = core::str::from_utf8(&self.s[start..end]).ok()?.to_string();
        self.pos = after.saturating_add(1);
        Some((start, name))
    }

    fn leaf(&mut self) -> Result<Leaf, Error> {
        let start = self.pos;
        match self.s.get(self.pos) {
            Some(b'_')
                if self.cute
                    && self
                        .s
                        .get(start.saturating_add(1))
                        .is_some_and(u8::is_ascii_digit) =>
            {
                let mut end = start.saturating_add(1);
                while self.s.get(end).is_some_and(u8::is_ascii_digit) {
                    end = end.saturating_add(1);
                }
                let text = core::str::from_utf8(&self.s[start.saturating_add(1)..end])
                    .map_err(|_| self.err(Expected::Tree))?;
                let v = text
                    .parse::<i64>()
                    .map_err(|_| Error::IntegerTooLarge { column: start })?;
                self.pos = end;
                Ok(Leaf::Int(v))
            }
            Some(b'_') => {
                self.pos = self.pos.saturating_add(1);
                Ok(Leaf::Under)
            }
            Some(b'{') => Err(Error::RuntimeLeaf { column: start }),
            Some(c) if c.is_ascii_digit() || *c == b'-' => {
                let mut end = start.saturating_add(1);
                while self.s.get(end).is_some_and(u8::is_ascii_digit) {
                    end = end.saturating_add(1);
                }
                let text = core::str::from_utf8(&self.s[start..end])
                    .map_err(|_| self.err(Expected::Tree))?;
                if text == "-" {
                    return Err(self.err(Expected::Tree));
                }
                let v = text
                    .parse::<i64>()
                    .map_err(|_| Error::IntegerTooLarge { column: start })?;
                self.pos = end;
                Ok(Leaf::Int(v))
            }
            _ => Err(self.err(Expected::Tree)),
        }
    }

    /// Parses a tree; `names` collects top-level names when given (the shape at depth 0).
    fn tree(
        &mut self,
        depth: usize,
        names: Option<&mut Vec<Option<String>>>,
        leaf: &mut dyn FnMut(Leaf, usize) -> Result<(), Error>,
    ) -> Result<Tree<()>, Error> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                mode: crate::ModePath::ROOT,
            });
        }
        match self.peek() {
            Some(b'(') => {
                self.pos = self.pos.saturating_add(1);
                let mut items = Vec::new();
                if self.peek() == Some(b')') {
                    // `()`: the empty tuple, the rank-0 layout `():()` of size 1 (CuTe's scalar).
                    self.pos = self.pos.saturating_add(1);
                    return Ok(Tree::Tuple(items));
                }
                let mut names = names;
                loop {
                    self.skip_ws();
                    let name = self.ident_then_colon();
                    match (&name, names.as_deref_mut()) {
                        (Some((col, _)), None) => return Err(Error::NestedName { column: *col }),
                        (n, Some(list)) => list.push(n.as_ref().map(|(_, s)| s.clone())),
                        (None, None) => {}
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
                        _ => return Err(self.err(Expected::CommaOrClose)),
                    }
                }
                Ok(Tree::Tuple(items))
            }
            Some(_) => {
                let col = self.pos;
                let l = self.leaf()?;
                leaf(l, col)?;
                Ok(Tree::Leaf(()))
            }
            None => Err(self.err(Expected::Tree)),
        }
    }
}

fn fill<T: Clone>(profile: &Tree<()>, values: &mut impl Iterator<Item = T>) -> Tree<T> {
    match profile {
        // The iterator yields exactly one value per leaf: both were produced by one parse.
        Tree::Leaf(()) => Tree::Leaf(values.next().expect("one value per parsed leaf")),
        Tree::Tuple(v) => Tree::Tuple(v.iter().map(|t| fill(t, values)).collect()),
    }
}

pub(crate) fn parse_raw(text: &str, cute: bool) -> Result<Raw, Error> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        cute,
    };
    let mut names = Vec::new();
    let mut sizes = Vec::new();
    let shape = p.tree(0, Some(&mut names), &mut |l, col| match l {
        Leaf::Int(v) => {
            sizes.push(v);
            Ok(())
        }
        Leaf::Under => Err(Error::Parse {
            column: col,
            expected: Expected::PositiveSize,
        }),
    })?;
    if p.peek() != Some(b':') {
        return Err(p.err(Expected::Colon));
    }
    p.pos = p.pos.saturating_add(1);
    let mut strides = Vec::new();
    let stride = p.tree(0, None, &mut |l, _| {
        strides.push(match l {
            Leaf::Int(v) => Stride::Int(v),
            Leaf::Under => Stride::Broadcast,
        });
        Ok(())
    })?;
    if p.peek().is_some() {
        return Err(p.err(Expected::End));
    }
    if matches!(shape, Tree::Leaf(())) {
        names.clear();
    }
    let shape = fill(&shape, &mut sizes.into_iter());
    let stride = fill(&stride, &mut strides.into_iter());
    Ok(Raw {
        shape,
        stride,
        names,
    })
}

/// CuTe reads stride 0 on a mode of size > 1 as a broadcast.
pub(crate) fn cute_strides(shape: &Tree<i64>, stride: &Tree<Stride>) -> Tree<Stride> {
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(Stride::Int(0))) if *n > 1 => Tree::Leaf(Stride::Broadcast),
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
            Tree::Tuple(a.iter().zip(b).map(|(s, d)| cute_strides(s, d)).collect())
        }
        _ => stride.clone(),
    }
}

impl Raw {
    pub(crate) fn into_layout(self) -> Result<Layout, Error> {
        if self.names.iter().all(Option::is_none) {
            Layout::new(self.shape, self.stride)
        } else {
            Layout::build(self.shape, self.stride, Vec::new())?.with_names(self.names)
        }
    }
}

impl FromStr for Layout {
    type Err = Error;

    /// Reads seed notation (spec: Notation), e.g. `(16,32):(32,1)`, `(thread: 32, value: 4):(4, 1)`,
    /// `(4,2):(_,1)`.
    ///
    /// # Errors
    /// [`Error::Parse`] with the byte column, [`Error::IntegerTooLarge`],
    /// [`Error::RuntimeLeaf`], [`Error::NestedName`], and every error of [`Layout::new`].
    fn from_str(text: &str) -> Result<Layout, Error> {
        let raw = parse_raw(text, false)?;
        raw.into_layout()
    }
}

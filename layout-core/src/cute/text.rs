//! Every CuTe operation from text arguments: the interface of differential tests and the CLI.

use alloc::vec::Vec;
use core::fmt;

use super::condition::CuteOp;
use super::diag::Diagnostic;
use super::layout::CuteLayout;
use super::parse::{parse_cotarget, parse_profile, parse_swizzle};
use super::swizzle::Composed;
use super::tiler::Tiler;
use super::{Cute, divide, product};
use crate::error::Error;
use crate::swizzle::Swizzle;
use crate::tree::Tree;

/// The value of a CuTe operation: a layout, or a composed layout (a chain with a swizzle).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value {
    /// A layout.
    Layout(CuteLayout),
    /// A chain with at least one swizzle or two layouts.
    Composed(Composed),
}

impl Value {
    fn from_composed(c: Composed) -> Value {
        match c.as_layout() {
            Some(l) => Value::Layout(l.clone()),
            None => Value::Composed(c),
        }
    }

    /// The number of coordinates.
    #[must_use]
    pub fn size(&self) -> i64 {
        match self {
            Value::Layout(l) => l.size(),
            Value::Composed(c) => c.size(),
        }
    }

    /// The value at every integral coordinate, CuTe's order (the corpus's `offsets`).
    ///
    /// # Errors
    /// [`Error::CuteCheckLimit`] above 2²⁴ coordinates.
    pub fn offsets(&self) -> Result<Vec<i64>, Error> {
        match self {
            Value::Layout(l) => l.offsets(),
            Value::Composed(c) => c.offsets(),
        }
    }

    /// The layout, when the value is one.
    #[must_use]
    pub fn as_layout(&self) -> Option<&CuteLayout> {
        match self {
            Value::Layout(l) => Some(l),
            Value::Composed(_) => None,
        }
    }
}

impl fmt::Display for Value {
    /// CuTe's printing; `{:#}` pycute's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Layout(l) => fmt::Display::fmt(l, f),
            Value::Composed(c) => fmt::Display::fmt(c, f),
        }
    }
}

/// How to call `op` from text: its arguments, e.g. `"complement LAYOUT COTARGET"`.
#[must_use]
pub const fn usage(op: CuteOp) -> &'static str {
    match op {
        CuteOp::LayoutEval => "`layout_eval LAYOUT`",
        CuteOp::Coalesce => "`coalesce LAYOUT [PROFILE]`",
        CuteOp::Composition => {
            "`composition A B` (B a layout, a tiler or `Swizzle<B,M,S> o LAYOUT`)"
        }
        CuteOp::Complement => "`complement LAYOUT COTARGET` (an integer or a shape)",
        CuteOp::LogicalDivide
        | CuteOp::ZippedDivide
        | CuteOp::TiledDivide
        | CuteOp::FlatDivide
        | CuteOp::LogicalProduct
        | CuteOp::ZippedProduct
        | CuteOp::TiledProduct
        | CuteOp::FlatProduct => "`OP LAYOUT TILER` (a layout, `_` or `<t0,t1,…>`)",
        CuteOp::BlockedProduct | CuteOp::RakedProduct => "`OP BLOCK TILER` (two layouts)",
        CuteOp::RightInverse | CuteOp::LeftInverse => "`OP LAYOUT`",
        CuteOp::Swizzle => "`swizzle Swizzle<B,M,S> LAYOUT`",
    }
}

/// The fewest and most text arguments `op` takes.
#[must_use]
pub const fn arity(op: CuteOp) -> (usize, usize) {
    match op {
        CuteOp::LayoutEval | CuteOp::RightInverse | CuteOp::LeftInverse => (1, 1),
        CuteOp::Coalesce => (1, 2),
        _ => (2, 2),
    }
}

/// One argument of a CuTe operation, read from text once.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Arg {
    /// A layout.
    Layout(CuteLayout),
    /// A profile of `coalesce` (its integers are ignored).
    Profile(Tree<i64>),
    /// A cotarget of `complement` (the size of a shape).
    Cotarget(i64),
    /// A tiler.
    Tiler(Tiler),
    /// A composed layout (a chain, or a plain layout).
    Composed(Composed),
    /// A swizzle.
    Swizzle(Swizzle),
}

/// Whether `composition`'s right operand is written as a chain: it holds the chain operator
/// `o` or starts with a swizzle.
fn is_chain(text: &str) -> bool {
    let t = text.trim();
    t.contains('o') || t.starts_with('S')
}

/// Reads the text arguments of `op` (see [`Cute::apply`]), each once: `composition`'s right
/// operand is a tiler when the left is a layout and the right is not a chain.
///
/// # Errors
/// `(args.len(), Error::CuteArguments)` for a wrong number of arguments, else the index of the
/// first unreadable argument and the parser's error.
pub fn read_args(op: CuteOp, args: &[&str]) -> Result<Vec<Arg>, (usize, Error)> {
    let (lo, hi) = arity(op);
    if !(lo..=hi).contains(&args.len()) {
        return Err((
            args.len(),
            Error::CuteArguments {
                op,
                expected: lo,
                most: hi,
                found: args.len(),
            },
        ));
    }
    let mut out = Vec::new();
    for (i, text) in args.iter().enumerate() {
        let arg = match (op, i) {
            (CuteOp::Coalesce, 1) => parse_profile(text).map(Arg::Profile),
            (CuteOp::Composition, 0) => text.parse().map(Arg::Composed),
            (CuteOp::Composition, _) => {
                let lhs_layout =
                    matches!(out.first(), Some(Arg::Composed(a)) if a.as_layout().is_some());
                if lhs_layout && !is_chain(text) {
                    text.parse().map(Arg::Tiler)
                } else {
                    text.parse().map(Arg::Composed)
                }
            }
            (CuteOp::Complement, 1) => parse_cotarget(text).map(Arg::Cotarget),
            (CuteOp::Swizzle, 0) => parse_swizzle(text).map(Arg::Swizzle),
            (
                CuteOp::LogicalDivide
                | CuteOp::ZippedDivide
                | CuteOp::TiledDivide
                | CuteOp::FlatDivide
                | CuteOp::LogicalProduct
                | CuteOp::ZippedProduct
                | CuteOp::TiledProduct
                | CuteOp::FlatProduct,
                1,
            ) => text.parse().map(Arg::Tiler),
            _ => text.parse().map(Arg::Layout),
        };
        out.push(arg.map_err(|e| (i, e))?);
    }
    Ok(out)
}

impl Cute {
    /// Runs CuTe operation `op` on text arguments (CuTe notation), as a differential test or
    /// the CLI calls it:
    ///
    /// | op | arguments |
    /// |---|---|
    /// | `layout_eval` | a layout |
    /// | `coalesce` | a layout, optionally a profile such as `(1,1)` |
    /// | `composition` | `A` (a layout or a composed layout `Sw<B,M,S> o L`), `B` (a tiler or a composed layout) |
    /// | `complement` | a layout and a cotarget (an integer or a shape) |
    /// | the divides and `logical`/`zipped`/`tiled`/`flat_product` | a layout and a tiler |
    /// | `blocked_product`, `raked_product` | two layouts |
    /// | `right_inverse`, `left_inverse` | a layout |
    /// | `swizzle` | a swizzle (`Swizzle<B,M,S>`, `SW_B_M_S`, `B,M,S`) and a layout |
    ///
    /// ```
    /// use layout_core::cute::{Cute, CuteOp};
    /// let v = Cute::new().apply(CuteOp::Complement, &["4:2", "16"])?;
    /// assert_eq!(v.to_string(), "(2,2):(1,8)");
    /// let op: CuteOp = "zipped_divide".parse()?;
    /// let z = Cute::new().apply(op, &["(128,128):(128,1)", "<64:1,32:1>"])?;
    /// assert_eq!(z.to_string(), "((64,32),(2,4)):((128,1),(8192,32))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::CuteArguments`] for a wrong number of arguments, the parsers' errors, and the
    /// operation's [`Diagnostic`].
    pub fn apply(self, op: CuteOp, args: &[&str]) -> Result<Value, Diagnostic> {
        self.apply_noted(op, args).map(|(v, _)| v)
    }

    /// [`Cute::apply`], with the notes of the result: the checks of an intermediate step that
    /// failed although the operation's own postconditions hold (the complement inside a divide
    /// or product, whose checks (1)–(4) fail while the divide still partitions `A` or the
    /// product's copies are still disjoint, or the complement is too large to check while the
    /// operation is not). Each note is the [`Error::CutePostcondition`] (or
    /// [`Error::CuteCheckLimit`]) of that step, at its tiler mode; the result is CuTe's and
    /// satisfies the operation's own postconditions.
    ///
    /// ```
    /// use layout_core::cute::{Cute, CuteOp};
    /// // complement((2,2):(1,3), 12) is 2:6 and reaches only [0, 11) of [0, 12), yet the three
    /// // copies of (2,2):(1,3) at 0, 6 and 12 are disjoint: the product is right.
    /// let (v, notes) = Cute::new().apply_noted(CuteOp::LogicalProduct, &["(2,2):(1,3)", "3:1"])?;
    /// assert_eq!(v.to_string(), "((2,2),3):((1,3),6)");
    /// assert_eq!(notes.iter().map(|e| e.rule()).collect::<Vec<_>>(), ["complement-coverage"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Cute::apply`].
    pub fn apply_noted(self, op: CuteOp, args: &[&str]) -> Result<(Value, Vec<Error>), Diagnostic> {
        let args = read_args(op, args).map_err(|(_, e)| Diagnostic::from(e))?;
        self.apply_args(op, &args)
    }

    /// [`Cute::apply_noted`] on arguments already read ([`read_args`]).
    ///
    /// # Errors
    /// [`Error::CuteArguments`] when the arguments are not those of `op`, and the operation's
    /// [`Diagnostic`].
    pub fn apply_args(self, op: CuteOp, args: &[Arg]) -> Result<(Value, Vec<Error>), Diagnostic> {
        let value = self.apply_unnoted(op, args)?;
        let mut notes = Vec::new();
        let ctx = self.ctx(op);
        let layout = |i: usize| match args.get(i) {
            Some(Arg::Layout(l)) => Some(l),
            _ => None,
        };
        let tiler = match args.get(1) {
            Some(Arg::Tiler(t)) => Some(t),
            _ => None,
        };
        match (op, layout(0), tiler) {
            (
                CuteOp::LogicalDivide
                | CuteOp::ZippedDivide
                | CuteOp::TiledDivide
                | CuteOp::FlatDivide,
                Some(a),
                Some(t),
            ) => divide::divide_notes(ctx, a, t, &mut notes),
            (
                CuteOp::LogicalProduct
                | CuteOp::ZippedProduct
                | CuteOp::TiledProduct
                | CuteOp::FlatProduct,
                Some(a),
                Some(t),
            ) => product::product_notes(ctx, a, t, &mut notes),
            (CuteOp::BlockedProduct | CuteOp::RakedProduct, Some(a), _) => {
                if let Some(b) = layout(1) {
                    product::rank_sensitive_notes(ctx, a, b, &mut notes);
                }
            }
            _ => {}
        }
        Ok((value, notes))
    }

    fn apply_unnoted(self, op: CuteOp, args: &[Arg]) -> Result<Value, Diagnostic> {
        let wrong = || {
            Diagnostic::from(Error::CuteArguments {
                op,
                expected: arity(op).0,
                most: arity(op).1,
                found: args.len(),
            })
        };
        let layout = |i: usize| match args.get(i) {
            Some(Arg::Layout(l)) => Ok(l),
            _ => Err(wrong()),
        };
        let tiler = |i: usize| match args.get(i) {
            Some(Arg::Tiler(t)) => Ok(t),
            _ => Err(wrong()),
        };
        let lay = |l: CuteLayout| Value::Layout(l);
        Ok(match op {
            CuteOp::LayoutEval => lay(layout(0)?.clone()),
            CuteOp::Coalesce => match args.get(1) {
                None => lay(self.coalesce(layout(0)?)?),
                Some(Arg::Profile(p)) => lay(self.coalesce_by(layout(0)?, p)?),
                Some(_) => return Err(wrong()),
            },
            CuteOp::Composition => match (args.first(), args.get(1)) {
                (Some(Arg::Composed(a)), Some(Arg::Tiler(b))) => match a.as_layout() {
                    Some(a) => lay(self.composition(a, b)?),
                    None => return Err(wrong()),
                },
                (Some(Arg::Composed(a)), Some(Arg::Composed(b))) => {
                    Value::from_composed(a.compose(b, self.is_strict())?)
                }
                _ => return Err(wrong()),
            },
            CuteOp::Complement => match args.get(1) {
                Some(Arg::Cotarget(c)) => lay(self.complement(layout(0)?, *c)?),
                _ => return Err(wrong()),
            },
            CuteOp::LogicalDivide => lay(self.logical_divide(layout(0)?, tiler(1)?)?),
            CuteOp::ZippedDivide => lay(self.zipped_divide(layout(0)?, tiler(1)?)?),
            CuteOp::TiledDivide => lay(self.tiled_divide(layout(0)?, tiler(1)?)?),
            CuteOp::FlatDivide => lay(self.flat_divide(layout(0)?, tiler(1)?)?),
            CuteOp::LogicalProduct => lay(self.logical_product(layout(0)?, tiler(1)?)?),
            CuteOp::ZippedProduct => lay(self.zipped_product(layout(0)?, tiler(1)?)?),
            CuteOp::TiledProduct => lay(self.tiled_product(layout(0)?, tiler(1)?)?),
            CuteOp::FlatProduct => lay(self.flat_product(layout(0)?, tiler(1)?)?),
            CuteOp::BlockedProduct => lay(self.blocked_product(layout(0)?, layout(1)?)?),
            CuteOp::RakedProduct => lay(self.raked_product(layout(0)?, layout(1)?)?),
            CuteOp::RightInverse => lay(self.right_inverse(layout(0)?)?),
            CuteOp::LeftInverse => lay(self.left_inverse(layout(0)?)?),
            CuteOp::Swizzle => match args.first() {
                Some(Arg::Swizzle(sw)) => {
                    Value::from_composed(Composed::swizzled(*sw, layout(1)?.clone()))
                }
                _ => return Err(wrong()),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn arguments_are_read_once_by_kind() {
        let args = read_args(CuteOp::Composition, &["(4,8):(8,1)", "<2,4>"]).unwrap();
        assert!(matches!(args.as_slice(), [Arg::Composed(_), Arg::Tiler(_)]));
        let args = read_args(CuteOp::Composition, &["(4,8):(8,1)", "Sw<1,0,1> o 32:1"]).unwrap();
        assert!(matches!(
            args.as_slice(),
            [Arg::Composed(_), Arg::Composed(_)]
        ));
        let args = read_args(CuteOp::Complement, &["4:2", "(2,8)"]).unwrap();
        assert_eq!(args[1], Arg::Cotarget(16));
        // The first unreadable argument, by index, with the parser's column.
        let (i, e) = read_args(CuteOp::LogicalDivide, &["(12,32):(32,1)", "<4,,8>"]).unwrap_err();
        assert_eq!(i, 1);
        assert_eq!(
            e,
            Error::Parse {
                column: 3,
                expected: crate::Expected::Tiler
            }
        );
        let (i, e) = read_args(CuteOp::Swizzle, &["4:1"]).unwrap_err();
        assert_eq!(i, 1);
        assert_eq!(e.rule(), "cute-arguments");
        // Reading and applying agree with applying the text.
        let args = ["(128,128):(128,1)", "<64:1,32:1>"];
        let read = read_args(CuteOp::ZippedDivide, &args).unwrap();
        let v = Cute::new()
            .apply_args(CuteOp::ZippedDivide, &read)
            .unwrap()
            .0;
        assert_eq!(v.to_string(), "((64,32),(2,4)):((128,1),(8192,32))");
    }
}

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

fn arity(op: CuteOp) -> (usize, usize) {
    match op {
        CuteOp::LayoutEval | CuteOp::RightInverse | CuteOp::LeftInverse => (1, 1),
        CuteOp::Coalesce => (1, 2),
        _ => (2, 2),
    }
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
        let value = self.apply_unnoted(op, args)?;
        let mut notes = Vec::new();
        let ctx = self.ctx(op);
        let parsed = |i: usize| args.get(i).and_then(|t| t.parse::<CuteLayout>().ok());
        let tiler = args.get(1).and_then(|t| t.parse::<Tiler>().ok());
        match (op, parsed(0), tiler) {
            (
                CuteOp::LogicalDivide
                | CuteOp::ZippedDivide
                | CuteOp::TiledDivide
                | CuteOp::FlatDivide,
                Some(a),
                Some(t),
            ) => divide::divide_notes(ctx, &a, &t, &mut notes),
            (
                CuteOp::LogicalProduct
                | CuteOp::ZippedProduct
                | CuteOp::TiledProduct
                | CuteOp::FlatProduct,
                Some(a),
                Some(t),
            ) => product::product_notes(ctx, &a, &t, &mut notes),
            (CuteOp::BlockedProduct | CuteOp::RakedProduct, Some(a), _) => {
                if let Some(b) = parsed(1) {
                    product::rank_sensitive_notes(ctx, &a, &b, &mut notes);
                }
            }
            _ => {}
        }
        Ok((value, notes))
    }

    fn apply_unnoted(self, op: CuteOp, args: &[&str]) -> Result<Value, Diagnostic> {
        let (lo, hi) = arity(op);
        if !(lo..=hi).contains(&args.len()) {
            return Err(Error::CuteArguments {
                op,
                expected: lo,
                found: args.len(),
            }
            .into());
        }
        let layout = |i: usize| args[i].parse::<CuteLayout>();
        let tiler = |i: usize| args[i].parse::<Tiler>();
        let lay = |l: CuteLayout| Value::Layout(l);
        Ok(match op {
            CuteOp::LayoutEval => lay(layout(0)?),
            CuteOp::Coalesce => match args.get(1) {
                None => lay(self.coalesce(&layout(0)?)?),
                Some(p) => lay(self.coalesce_by(&layout(0)?, &parse_profile(p)?)?),
            },
            CuteOp::Composition => {
                let a: Composed = args[0].parse()?;
                let b_text = args[1].trim();
                let b_is_chain = b_text.contains('o') || b_text.starts_with('S');
                match (a.as_layout(), b_is_chain) {
                    (Some(a), false) => lay(self.composition(a, &tiler(1)?)?),
                    _ => Value::from_composed(a.compose(&b_text.parse()?, self.is_strict())?),
                }
            }
            CuteOp::Complement => lay(self.complement(&layout(0)?, parse_cotarget(args[1])?)?),
            CuteOp::LogicalDivide => lay(self.logical_divide(&layout(0)?, &tiler(1)?)?),
            CuteOp::ZippedDivide => lay(self.zipped_divide(&layout(0)?, &tiler(1)?)?),
            CuteOp::TiledDivide => lay(self.tiled_divide(&layout(0)?, &tiler(1)?)?),
            CuteOp::FlatDivide => lay(self.flat_divide(&layout(0)?, &tiler(1)?)?),
            CuteOp::LogicalProduct => lay(self.logical_product(&layout(0)?, &tiler(1)?)?),
            CuteOp::ZippedProduct => lay(self.zipped_product(&layout(0)?, &tiler(1)?)?),
            CuteOp::TiledProduct => lay(self.tiled_product(&layout(0)?, &tiler(1)?)?),
            CuteOp::FlatProduct => lay(self.flat_product(&layout(0)?, &tiler(1)?)?),
            CuteOp::BlockedProduct => lay(self.blocked_product(&layout(0)?, &layout(1)?)?),
            CuteOp::RakedProduct => lay(self.raked_product(&layout(0)?, &layout(1)?)?),
            CuteOp::RightInverse => lay(self.right_inverse(&layout(0)?)?),
            CuteOp::LeftInverse => lay(self.left_inverse(&layout(0)?)?),
            CuteOp::Swizzle => {
                Value::from_composed(Composed::swizzled(parse_swizzle(args[0])?, layout(1)?))
            }
        })
    }
}

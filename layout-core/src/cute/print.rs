//! CuTe's printing: `shape:stride`, first mode first, exactly as CuTe and the corpus print it;
//! the alternate form `{:#}` is pycute's `str()` (Python tuples: `(2, 4):(1, 2)`, `(3,)`).

use core::fmt;

use super::layout::CuteLayout;
use super::swizzle::{Composed, Stage};
use super::tiler::Tiler;
use crate::swizzle::Swizzle;
use crate::tree::Tree;

fn write_tree(f: &mut fmt::Formatter<'_>, t: &Tree<i64>, python: bool) -> fmt::Result {
    match t {
        Tree::Leaf(x) => write!(f, "{x}"),
        Tree::Tuple(v) => {
            f.write_str("(")?;
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(if python { ", " } else { "," })?;
                }
                write_tree(f, x, python)?;
            }
            if python && v.len() == 1 {
                f.write_str(",")?;
            }
            f.write_str(")")
        }
    }
}

impl fmt::Display for CuteLayout {
    /// CuTe notation as CuTe prints it (without the `_` of static integers), e.g.
    /// `((2,2),3):((24,2),8)` or `(4):(2)`; exactly what [`str::parse`] reads back.
    /// `{:#}` prints pycute's `str()`: `((2, 2), 3):((24, 2), 8)`, `(4,):(2,)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let python = f.alternate();
        write_tree(f, self.shape(), python)?;
        f.write_str(":")?;
        write_tree(f, self.stride(), python)
    }
}

impl fmt::Display for Tiler {
    /// `_`, a layout, or `<t0,t1,…>` (the corpus's notation); what [`str::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Underscore => f.write_str("_"),
            Tiler::Layout(l) => fmt::Display::fmt(l, f),
            Tiler::Modes(v) => {
                f.write_str("<")?;
                for (i, t) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    fmt::Display::fmt(t, f)?;
                }
                f.write_str(">")
            }
        }
    }
}

/// CuTe's `Swizzle<B,M,S>` notation for a swizzle; `{:#}` gives pycute's `SW_B_M_S`.
pub(crate) fn write_swizzle(f: &mut fmt::Formatter<'_>, s: Swizzle) -> fmt::Result {
    let (b, m, sh) = s.to_cute();
    if f.alternate() {
        write!(f, "SW_{b}_{m}_{sh}")
    } else {
        write!(f, "Sw<{b},{m},{sh}>")
    }
}

impl fmt::Display for Composed {
    /// The stages, outermost first, joined by ` o `, as CuTe prints a `ComposedLayout`:
    /// `Sw<3,0,3> o (8,8):(8,1)`; `{:#}` prints pycute's `SW_3_0_3 o 0 o (8, 8):(8, 1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stages().iter().enumerate() {
            if i > 0 {
                f.write_str(if f.alternate() { " o 0 o " } else { " o " })?;
            }
            match s {
                Stage::Layout(l) => fmt::Display::fmt(l, f)?,
                Stage::Swizzle(s) => write_swizzle(f, *s)?,
            }
        }
        Ok(())
    }
}

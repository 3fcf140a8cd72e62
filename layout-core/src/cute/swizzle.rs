//! CuTe's `ComposedLayout`: layouts and `Swizzle<B,M,S>` functions applied one after another.

use alloc::vec::Vec;

use super::condition::CuteOp;
use super::diag::{Ctx, Diagnostic};
use super::layout::{CHECK_LIMIT, CuteLayout};
use super::ops::composition_layout;
use crate::error::{Error, Expected};
use crate::swizzle::Swizzle;

/// One function of a [`Composed`] chain.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// A layout, evaluated on CuTe's extended domain when it is not the innermost stage.
    Layout(CuteLayout),
    /// CuTe's `Swizzle<B,M,S>` ([`crate::Swizzle::from_cute`]): XOR of the bits
    /// `[M+max(S,0), M+max(S,0)+B)` into `[M−min(S,0), M−min(S,0)+B)`.
    Swizzle(Swizzle),
}

/// A chain of functions applied right to left, outermost first: CuTe's `ComposedLayout`, e.g.
/// `Swizzle<3,0,3> o (8,8):(8,1)` (what CuTe's `composition(Swizzle, CuteLayout)` builds), or
/// `A o Swizzle o B` (`composition(A, Swizzle o B)`). The innermost stage is a layout: it gives
/// the domain, `[0, size)`.
///
/// No CuTe formula is involved (the chain is evaluated as written), so there is nothing to
/// check; only where a layout meets a layout does [`Composed::compose`] apply CuTe's checked
/// composition.
///
/// ```
/// use layout_core::cute::{Composed, CuteLayout};
/// use layout_core::{Swizzle, SwizzleUnit};
/// let sw = Composed::swizzled(Swizzle::from_cute(1, 2, 3, SwizzleUnit::Elements)?, "64:1".parse()?);
/// assert_eq!(sw.eval_index(32)?, 36);                 // (spec: Swizzles): Swizzle<1,2,3> sends 32 to 36
/// assert_eq!(sw.to_string(), "Sw<1,2,3> o 64:1");
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Composed {
    /// The stages after the innermost layout, outermost first.
    outer: Vec<Stage>,
    inner: CuteLayout,
}

impl Composed {
    /// A chain of stages, outermost first.
    ///
    /// # Errors
    /// [`Error::Parse`] at column 0 (expected a layout) when the chain is empty or its innermost
    /// stage is a swizzle.
    pub fn new(mut stages: Vec<Stage>) -> Result<Composed, Error> {
        match stages.pop() {
            Some(Stage::Layout(inner)) => Ok(Composed {
                outer: stages,
                inner,
            }),
            _ => Err(Error::Parse {
                column: 0,
                expected: Expected::Tree,
            }),
        }
    }

    /// The chain of one layout.
    #[must_use]
    pub fn layout(l: CuteLayout) -> Composed {
        Composed {
            outer: Vec::new(),
            inner: l,
        }
    }

    /// CuTe `composition(Swizzle<B,M,S>{}, layout)`: the swizzle after the layout.
    #[must_use]
    pub fn swizzled(s: Swizzle, l: CuteLayout) -> Composed {
        Composed {
            outer: alloc::vec![Stage::Swizzle(s)],
            inner: l,
        }
    }

    /// The stages, outermost first (the last is the innermost layout).
    #[must_use]
    pub fn stages(&self) -> Vec<Stage> {
        let mut v = self.outer.clone();
        v.push(Stage::Layout(self.inner.clone()));
        v
    }

    /// The single layout, when the chain is one.
    #[must_use]
    pub fn as_layout(&self) -> Option<&CuteLayout> {
        self.outer.is_empty().then_some(&self.inner)
    }

    /// The number of coordinates: the size of the innermost layout.
    #[must_use]
    pub fn size(&self) -> i64 {
        self.inner.size()
    }

    /// The value at integral coordinate `i ∈ [0, size)`: the innermost layout, then each stage
    /// outwards (outer layouts on CuTe's extended domain).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] outside `[0, size)`, [`Error::Overflow`].
    pub fn eval_index(&self, i: i64) -> Result<i64, Error> {
        let mut x = self.inner.eval_index(i)?;
        for s in self.outer.iter().rev() {
            x = match s {
                Stage::Layout(l) => l.eval_extended(x)?,
                Stage::Swizzle(sw) => sw.apply(x),
            };
        }
        Ok(x)
    }

    /// The value at every integral coordinate.
    ///
    /// # Errors
    /// [`Error::CuteCheckLimit`] above [`CHECK_LIMIT`] coordinates, [`Error::Overflow`].
    pub fn offsets(&self) -> Result<Vec<i64>, Error> {
        if self.size() > CHECK_LIMIT {
            return Err(Error::CuteCheckLimit {
                op: CuteOp::Swizzle,
                size: self.size(),
                limit: CHECK_LIMIT,
            });
        }
        (0..self.size()).map(|i| self.eval_index(i)).collect()
    }

    /// CuTe `composition(self, rhs)`: `self` after `rhs`. Where `self`'s innermost stage and
    /// `rhs`'s outermost are both layouts they are composed with CuTe's checked composition
    /// (`(Sw ∘ A) ∘ B = Sw ∘ (A ∘ B)`, as CuTe does); otherwise the chains are joined.
    ///
    /// # Errors
    /// The [`Diagnostic`] of that composition.
    pub fn compose(&self, rhs: &Composed, strict: bool) -> Result<Composed, Diagnostic> {
        let mut outer = self.outer.clone();
        let rhs_stages = rhs.stages();
        let rest = match rhs_stages.first() {
            Some(Stage::Layout(b)) => {
                let ctx = Ctx::new(CuteOp::Composition, strict);
                outer.push(Stage::Layout(composition_layout(ctx, &self.inner, b)?));
                &rhs_stages[1..]
            }
            _ => {
                outer.push(Stage::Layout(self.inner.clone()));
                &rhs_stages[..]
            }
        };
        outer.extend(rest.iter().cloned());
        Ok(Composed::new(outer)?)
    }
}

impl From<CuteLayout> for Composed {
    fn from(l: CuteLayout) -> Composed {
        Composed::layout(l)
    }
}

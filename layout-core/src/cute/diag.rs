//! What a CuTe operation returns instead of a result: the error and, where the composite is
//! still a layout, that layout.

use core::fmt;

use super::condition::{Admissibility, CuteOp, Postcondition, Refusal};
use super::layout::CuteLayout;
use crate::error::{Error, HelpText, ModePath};

/// A CuTe operation's diagnostic: the [`Error`] (which rule, which mode, which numbers) and,
/// where CuTe refuses or goes wrong on a composition whose map is still a layout, the layout
/// that the decision procedure (Theorem 1, [`crate::decide`]; spec: Theorem 1) finds for it.
///
/// ```
/// use layout_core::cute::{composition, CuteLayout};
/// let a: CuteLayout = "(64,2):(1,128)".parse()?;
/// let b: CuteLayout = "2:96".parse()?;
/// let d = composition(&a, &b).unwrap_err();          // pycute asserts, C++ static_asserts
/// assert_eq!(d.rule(), "composition-stride-divisibility");
/// assert_eq!(d.suggestion().unwrap().to_string(), "2:160");
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    error: Error,
    suggestion: Option<CuteLayout>,
}

impl Diagnostic {
    /// A diagnostic without a suggestion.
    #[must_use]
    pub fn new(error: Error) -> Diagnostic {
        Diagnostic {
            error,
            suggestion: None,
        }
    }

    /// The same diagnostic offering `layout`: the map the operation was asked for, which is
    /// this layout although CuTe's formula does not give it.
    #[must_use]
    pub fn with_suggestion(self, layout: Option<CuteLayout>) -> Diagnostic {
        Diagnostic {
            suggestion: layout,
            ..self
        }
    }

    /// The same diagnostic with its suggestion carried through `f` (a regrouping of the result).
    pub(crate) fn map_suggestion(
        self,
        f: impl FnOnce(&CuteLayout) -> Option<CuteLayout>,
    ) -> Diagnostic {
        let suggestion = self.suggestion.as_ref().and_then(f);
        Diagnostic { suggestion, ..self }
    }

    /// The error: rule, mode and numbers.
    #[must_use]
    pub fn error(&self) -> Error {
        self.error
    }

    /// The stable rule name ([`Error::rule`]), e.g. `"complement-coverage"`.
    #[must_use]
    pub fn rule(&self) -> &'static str {
        self.error.rule()
    }

    /// The layout the requested map really is, when CuTe refuses it or returns something else
    /// (found by [`crate::decide`] on the composite, checked at every coordinate).
    #[must_use]
    pub fn suggestion(&self) -> Option<&CuteLayout> {
        self.suggestion.as_ref()
    }

    /// The note offering [`Diagnostic::suggestion`], the layout the composite really is, where
    /// there is one: `CuTe refuses this, but the map asked for is a layout: 2:160 (Theorem 1,
    /// checked at every coordinate)`.
    ///
    /// ```
    /// use layout_core::cute::{composition, CuteLayout};
    /// let a: CuteLayout = "(64,2):(1,128)".parse()?;
    /// let b: CuteLayout = "2:96".parse()?;
    /// let d = composition(&a, &b).unwrap_err();
    /// assert_eq!(
    ///     d.note().unwrap().to_string(),
    ///     "CuTe refuses this, but the map asked for is a layout: 2:160 (Theorem 1, checked at every coordinate)"
    /// );
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    #[must_use]
    pub fn note(&self) -> Option<Note<'_>> {
        self.suggestion.as_ref().map(|layout| Note {
            error: self.error,
            layout,
        })
    }

    /// The suggested fix ([`Error::help`]).
    #[must_use]
    pub fn help(&self) -> Option<HelpText> {
        self.error.help()
    }

    /// Whether this is a violated CuTe postcondition (CuTe would have returned a wrong result
    /// silently).
    #[must_use]
    pub fn is_postcondition(&self) -> bool {
        matches!(self.error, Error::CutePostcondition { .. })
    }
}

/// The note of a [`Diagnostic`] with a suggestion ([`Diagnostic::note`]); `Display` writes it
/// as one sentence.
#[derive(Clone, Copy, Debug)]
pub struct Note<'a> {
    error: Error,
    layout: &'a CuteLayout,
}

impl fmt::Display for Note<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lead = match self.error {
            Error::CuteRefused { .. } => "CuTe refuses this",
            Error::CutePostcondition { .. } => "CuTe's result is wrong here",
            Error::CuteStrict { .. } => "strict mode rejects these operands",
            _ => "there is no CuTe result",
        };
        write!(
            f,
            "{lead}, but the map asked for is a layout: {} (Theorem 1, checked at every coordinate)",
            self.layout
        )
    }
}

impl From<Error> for Diagnostic {
    fn from(error: Error) -> Diagnostic {
        Diagnostic::new(error)
    }
}

impl fmt::Display for Diagnostic {
    /// The error, then the suggestion: `…; the composite is the layout 2:160 (Theorem 1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        if let Some(s) = &self.suggestion {
            write!(f, "; the composite is the layout {s} (Theorem 1)")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Diagnostic {}

/// Where a check runs: the operation called, the tiler mode, strictness.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub(crate) within: CuteOp,
    pub(crate) mode: ModePath,
    pub(crate) strict: bool,
}

impl Ctx {
    pub(crate) fn new(within: CuteOp, strict: bool) -> Ctx {
        Ctx {
            within,
            mode: ModePath::ROOT,
            strict,
        }
    }

    /// The context one mode down (the path saturates at the nesting limit).
    pub(crate) fn child(self, i: usize) -> Ctx {
        Ctx {
            mode: self.mode.child(i).unwrap_or(self.mode),
            ..self
        }
    }

    /// The context at a sub-path (saturating).
    pub(crate) fn at(self, sub: ModePath) -> Ctx {
        let mut c = self;
        for &i in sub.indices() {
            c = c.child(usize::from(i));
        }
        c
    }

    pub(crate) fn post(self, op: CuteOp, failed: Postcondition) -> Error {
        Error::CutePostcondition {
            op,
            within: self.within,
            mode: self.mode,
            failed,
        }
    }

    pub(crate) fn refused(self, op: CuteOp, reason: Refusal) -> Error {
        Error::CuteRefused {
            op,
            within: self.within,
            mode: self.mode,
            reason,
        }
    }

    pub(crate) fn inadmissible(self, op: CuteOp, failed: Admissibility) -> Error {
        Error::CuteStrict {
            op,
            within: self.within,
            mode: self.mode,
            failed,
        }
    }
}

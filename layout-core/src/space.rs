//! The three index spaces and the rules a layout between them obeys (spec: Constructible annotations).

use core::fmt;
use core::str::FromStr;

use crate::alias::check_alias_free;
use crate::dense::check_dense_bijection;
use crate::error::{Error, Expected};
use crate::layout::Layout;

/// What one side of a layout indexes (spec: The three spaces).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Space {
    /// A position in a tile.
    Logical,
    /// Which thread holds an element and which of its values it is.
    ThreadValue,
    /// A memory offset, in elements.
    Physical,
}

impl Space {
    /// The text of the annotation: `logical`, `thread-value`, `physical`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Space::Logical => "logical",
            Space::ThreadValue => "thread-value",
            Space::Physical => "physical",
        }
    }

    /// Whether a map into this space must be a dense bijection (logical, thread-value) rather
    /// than alias-free (physical).
    #[must_use]
    pub const fn requires_dense(self) -> bool {
        !matches!(self, Space::Physical)
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Space {
    type Err = Error;

    /// Reads `logical`, `thread-value` (or `tv`), `physical`.
    ///
    /// # Errors
    /// [`Error::Parse`] at column 0 for anything else.
    fn from_str(s: &str) -> Result<Space, Error> {
        match s.trim() {
            "logical" => Ok(Space::Logical),
            "thread-value" | "tv" => Ok(Space::ThreadValue),
            "physical" => Ok(Space::Physical),
            _ => Err(Error::Parse {
                column: 0,
                expected: Expected::Tree,
            }),
        }
    }
}

/// Whether `domain -> codomain` is one of the five constructible annotations: logical or
/// thread-value into logical or thread-value, and logical into physical (spec: Constructible annotations).
/// Thread-value into physical exists only as a composite; nothing maps out of physical.
///
/// # Errors
/// [`Error::ForbiddenSpaces`] for the other four pairs.
pub const fn check_annotation(domain: Space, codomain: Space) -> Result<(), Error> {
    match (domain, codomain) {
        (Space::Logical | Space::ThreadValue, Space::Logical | Space::ThreadValue)
        | (Space::Logical, Space::Physical) => Ok(()),
        _ => Err(Error::ForbiddenSpaces { domain, codomain }),
    }
}

/// The rule of the codomain alone: a dense bijection into logical or thread-value (Lemma 1),
/// alias-free into physical.
///
/// # Errors
/// As [`check_dense_bijection`] or [`check_alias_free`].
pub fn check_codomain(layout: &Layout, codomain: Space) -> Result<(), Error> {
    if codomain.requires_dense() {
        check_dense_bijection(layout)
    } else {
        check_alias_free(layout)
    }
}

/// Checks a layout annotated `domain -> codomain` (spec: Constructible annotations): the annotation
/// is constructible, and the layout is a dense bijection into logical or thread-value space, or
/// alias-free into physical space. A broadcast (`_`) is legal only into physical (read-only).
///
/// ```
/// use layout_core::{check, Layout, Space, Error};
/// let l: Layout = "(16,32):(32,1)".parse()?;
/// assert!(check(&l, Space::Logical, Space::Physical).is_ok());
/// assert!(matches!(check(&l, Space::Physical, Space::Logical), Err(Error::ForbiddenSpaces { .. })));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::ForbiddenSpaces`], [`Error::NotDense`], [`Error::BroadcastNotDense`],
/// [`Error::Aliasing`], [`Error::AliasUndecided`].
pub fn check(layout: &Layout, domain: Space, codomain: Space) -> Result<(), Error> {
    check_annotation(domain, codomain)?;
    check_codomain(layout, codomain)
}

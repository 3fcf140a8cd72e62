//! `FromStr` for [`Layout`] and [`Layout::from_cute`]: the layout grammar of [`crate::expr`]
//! (the one parser of it), with the errors of the text interface (byte columns).

use core::str::FromStr;

use crate::error::Error;
use crate::expr::{self, Located, Options, Order, Span};
use crate::layout::Layout;

/// The located error of the text parser as the column-carrying error of `FromStr`.
pub(crate) fn column_error(l: &Located<Span>) -> Error {
    match l.error {
        Error::Syntax { expected } => Error::Parse {
            column: l.span.start,
            expected,
        },
        e => e,
    }
}

/// Reads a whole layout in seed or CuTe order (no run-time leaves, no `cute` keyword) and
/// builds it: the first error, mode paths in seed order.
pub(crate) fn parse_layout(text: &str, cute: bool) -> Result<Layout, Error> {
    let opts = Options {
        order: if cute { Order::Cute } else { Order::Seed },
        bare: None,
        runtime: false,
    };
    let mut p = expr::parse::Parser::plain(text, opts);
    let l = p
        .layout_in(cute)
        .and_then(|l| p.end().map(|()| l))
        .map_err(|e| column_error(&e))?;
    let seed = l.seed();
    let built = Layout::new(seed.shape, seed.stride)?;
    if seed.names.iter().all(Option::is_none) {
        Ok(built)
    } else {
        built.with_names(seed.names)
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
        parse_layout(text, false)
    }
}

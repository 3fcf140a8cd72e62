//! A declaration's checks: every rule of `layout_core::expr::check_decl`, then the limits of
//! the typed API the expansion targets (rules of the core's error table too), each error at
//! its tokens.
//!
//! A declaration that passed is remembered by its text, for as long as the compiler keeps
//! this macro loaded: an item's declaration comes back, as the same tokens and so (but for
//! the spacing around a group without delimiters) the same text, in every algebra expression
//! that names the item ([`check_known`]). A text is only ever the key of its own checks.

use std::cell::RefCell;
use std::collections::HashMap;

use layout_core::expr::{Checked, Decl, Span};

use crate::text::Text;

thread_local! {
    /// Declarations that passed every check, by their text as the core read it. Only static
    /// ones: the checked declaration then holds no span (its `runtime` list is empty), so it
    /// is the same wherever the text stands.
    static PASSED: RefCell<HashMap<String, Checked<Span>>> = RefCell::new(HashMap::new());
}

/// Every error of a declaration (the core's, then the typed API's limits), and the checked
/// declaration when there is none of the latter and the layout could be built (so that code
/// after a failed check still type-checks without cascading errors).
pub fn check(d: &Decl<Span>, text: &Text) -> (Option<Checked<Span>>, Vec<syn::Error>) {
    let (checked, located) = layout_core::expr::check_decl(d);
    let mut errs: Vec<syn::Error> = located.iter().flat_map(|l| text.errors(l)).collect();
    let limits = layout_core::expr::check_typed_limits(&d.layout);
    errs.extend(limits.iter().flat_map(|l| text.errors(l)));
    (checked.filter(|_| limits.is_empty()), errs)
}

/// The checked declaration remembered for the text `written`, if a declaration written
/// alike passed before (static, so it holds no span).
pub fn known(written: &str) -> Option<Checked<Span>> {
    PASSED.with(|p| p.borrow().get(written).cloned())
}

/// The checked declaration `d`, parsed from the text `written` (as in [`check_known`]), when
/// it breaks no rule; `None` when it breaks one (nothing is reported: [`check`] reports
/// them at their tokens).
pub fn passes(written: &str, d: &Decl<Span>) -> Option<Checked<Span>> {
    if let Some(c) = known(written) {
        return Some(c);
    }
    let (checked, located) = layout_core::expr::check_decl(d);
    if !located.is_empty() || !layout_core::expr::check_typed_limits(&d.layout).is_empty() {
        return None;
    }
    let c = checked?;
    if c.runtime.is_empty() {
        PASSED.with(|p| p.borrow_mut().insert(written.to_owned(), c.clone()));
    }
    Some(c)
}

/// [`check`] of the declaration `d`, parsed from the text `written` (the whole declaration as
/// the core read it, `text.text` or a slice of it): the remembered result when a declaration
/// written alike passed before. The core's parse and checks are functions of that text
/// alone, so the result is the one [`check`] would give. A declaration that passed, static,
/// is remembered.
pub fn check_known(
    written: &str,
    d: &Decl<Span>,
    text: &Text,
) -> (Option<Checked<Span>>, Vec<syn::Error>) {
    if let Some(c) = known(written) {
        return (Some(c), Vec::new());
    }
    let (checked, errs) = check(d, text);
    if let Some(c) = &checked
        && errs.is_empty()
        && c.runtime.is_empty()
    {
        PASSED.with(|p| p.borrow_mut().insert(written.to_owned(), c.clone()));
    }
    (checked, errs)
}

//! A declaration's checks: every rule of `layout_core::expr::check_decl`, then the limits of
//! the typed API the expansion targets (rules of the core's error table too), each error at
//! its tokens.

use std::cell::RefCell;
use std::collections::HashMap;

use layout_core::expr::{Checked, Decl, Span};

use crate::text::Text;

thread_local! {
    /// Static declarations that passed every check, by the declaration without its spans: an
    /// item's declaration is checked where the item is declared and again in every expression
    /// that names it. The checks are a function of the parsed declaration alone (the `Decl`
    /// without spans holds everything they read: the order it was written in, the trees, both
    /// sides with their tiles, the swizzle, the index type, the operand clauses), and a static
    /// declaration's result holds no span, so the result is reused. A declaration with an error
    /// is always checked afresh (its errors point at its own tokens).
    static PASSED: RefCell<HashMap<Decl<()>, Checked<Span>>> = RefCell::new(HashMap::new());
}

/// Every error of a declaration (the core's, then the typed API's limits), and the checked
/// declaration when there is none of the latter and the layout could be built (so that code
/// after a failed check still type-checks without cascading errors).
pub fn check(d: &Decl<Span>, text: &Text) -> (Option<Checked<Span>>, Vec<syn::Error>) {
    let key = d.map_spans(&mut |_| ());
    if let Some(c) = PASSED.with(|m| m.borrow().get(&key).cloned()) {
        return (Some(c), Vec::new());
    }
    let (checked, located) = layout_core::expr::check_decl(d);
    let mut errs: Vec<syn::Error> = located.iter().flat_map(|l| text.errors(l)).collect();
    let limits = layout_core::expr::check_typed_limits(&d.layout);
    errs.extend(limits.iter().flat_map(|l| text.errors(l)));
    let checked = checked.filter(|_| limits.is_empty());
    if let (Some(c), true) = (&checked, errs.is_empty())
        && c.runtime.is_empty()
    {
        PASSED.with(|m| m.borrow_mut().insert(key, c.clone()));
    }
    (checked, errs)
}

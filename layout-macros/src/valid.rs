//! A declaration's checks: every rule of `layout_core::expr::check_decl`, then the limits of
//! the typed API the expansion targets (rules of the core's error table too), each error at
//! its tokens.

use layout_core::expr::{Checked, Decl, Span};

use crate::text::Text;

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

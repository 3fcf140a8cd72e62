//! A declaration's checks: every rule of `layout_core::expr::check_decl`, then the limits of
//! the typed API the expansion targets (rules of the core's error table too), each error at
//! its tokens.

use layout_core::Error;
use layout_core::expr::{Checked, Decl, Located, MAX_TYPED_LEAVES, MAX_TYPED_RANK, Node, Span};

use crate::text::Text;

/// Every error of a declaration (the core's, then the typed API's limits), and the checked
/// declaration when there is none of the latter and the layout could be built (so that code
/// after a failed check still type-checks without cascading errors).
pub fn check(d: &Decl<Span>, text: &Text) -> (Option<Checked<Span>>, Vec<syn::Error>) {
    let (checked, located) = layout_core::expr::check_decl(d);
    let mut errs: Vec<syn::Error> = located.iter().flat_map(|l| text.errors(l)).collect();
    let limits = typed_limits(d);
    errs.extend(limits.iter().flat_map(|l| text.errors(l)));
    (checked.filter(|_| limits.is_empty()), errs)
}

/// The typed API's limits on a written layout: at most [`MAX_TYPED_RANK`] entries in a tuple
/// (at the tuple) and [`MAX_TYPED_LEAVES`] leaves (over the whole layout).
fn typed_limits(d: &Decl<Span>) -> Vec<Located<Span>> {
    fn walk(n: &Node<Span>, out: &mut Vec<Located<Span>>) {
        if let Node::Tuple(v, span) = n {
            if v.len() > MAX_TYPED_RANK {
                out.push(Located::new(
                    Error::TypedRank { rank: v.len() },
                    span.clone(),
                ));
            }
            v.iter().for_each(|t| walk(t, out));
        }
    }
    let mut out = Vec::new();
    walk(&d.layout.shape, &mut out);
    let leaves = d.layout.shape.leaves().len();
    if leaves > MAX_TYPED_LEAVES {
        out.push(Located::new(
            Error::TypedLeaves { leaves },
            d.layout.span.clone(),
        ));
    }
    out
}

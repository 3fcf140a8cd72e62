//! Algebra expressions in `layout!`: `compose(SMEM, TV)`, `divide(SMEM, (64, 32))`,
//! `restrict(ADDR, thread = t)`, ... The language (grammar, operations, rules) is
//! `layout_core::expr`'s; this module resolves the named operands and expands the value.
//!
//! Named operands are items made by `layout! { const NAME = ..; }` elsewhere. Each such item
//! also defines a hidden `macro_rules!` that hands its declaration back, re-exported under the
//! item's own name in the macro namespace (a `pub` item's is `#[macro_export]`ed under a unique
//! hidden name, so other crates reach it too). This module resolves every operand by invoking
//! that macro through the operand's path exactly as written (`a::P!`, `crate::m::P!`,
//! `other_crate::P!`), so Rust's own name resolution picks the item, imports, re-exports and
//! renames included. One chain of those macros per expression, one link per distinct path,
//! ending in one callback of this macro: the definitions arrive as
//! `[PATH = DECL]` groups before the expression, keyed by the path as written
//! (`layout_core::expr::Path::key`), and an operand is looked up by that key only (never by
//! its last segment). Then the expression is evaluated with `layout-core` during expansion, so
//! every rule is a compile error with the numbers, and the expansion is a typed value whose
//! `offset` is the decided code.

use layout_core::expr::{self, Env, Options};
use proc_macro2::TokenStream;
use quote::quote;

use crate::frame::Krate;
use crate::text::Text;

/// Either the callback that fetches the next definition, or the evaluated expression.
pub fn expand(k: &Krate, rest: TokenStream) -> TokenStream {
    let text = Text::new(&rest);
    let alg = match expr::parse_algebra(&text.text, &Options::default()) {
        Ok(a) => a,
        Err(l) => return diverging(text.errors(&l)),
    };
    let mut keys: Vec<String> = alg.defs.iter().map(|(p, _)| p.key()).collect();
    let mut missing = Vec::new();
    for p in alg.expr.operands() {
        if !keys.contains(&p.key()) {
            keys.push(p.key());
            missing.push(text.path_tokens(p));
        }
    }
    if !missing.is_empty() {
        // Ask the items' hidden macros (re-exported under the items' names in the macro
        // namespace) for their declarations, in one chain: each is called with the next
        // callback, its own key and what to put before its definition (`{cb} {key} {pre}
        // rest`), and calls `cb! { pre [key = DECL] rest }`. The last callback is this macro,
        // which receives every definition, each keyed by its operand's path.
        let mut chain = quote!({ #k::__private::layout_impl });
        let mut pre = quote!(#k;);
        for p in missing.iter().rev() {
            let next = quote!(#chain { #p } { #pre });
            chain = quote!({ #p });
            pre = next;
        }
        let first = missing.first().cloned().unwrap_or_default();
        return quote!(#first! { #pre #rest });
    }
    match evaluate(k, &alg, &text) {
        Ok(t) => t,
        Err(errs) => diverging(errs),
    }
}

/// In expression position: the errors as statements of a block whose value diverges, so that
/// several errors (a rule and its note) read as they are and the unusable value raises no
/// error of its own.
fn diverging(errs: Vec<syn::Error>) -> TokenStream {
    let errs: TokenStream = errs.into_iter().map(|e| e.to_compile_error()).collect();
    quote!({ #errs ::core::unreachable!() })
}

fn evaluate(
    k: &Krate,
    a: &expr::Algebra<expr::Span>,
    text: &Text,
) -> Result<TokenStream, Vec<syn::Error>> {
    let mut env = Env::new();
    // The declaration arrives through the macro namespace (the item's hidden macro), the
    // operand's value through the value namespace: a value of another type under the same path
    // (a `const` shadowing a glob-imported item, say) would make them two different items. The
    // expansion asserts that the operand's value has the declaration's type, which is the
    // layout itself (form, spaces, tiles, swizzle): equal types, equal offsets.
    let mut same_item = TokenStream::new();
    for (path, d) in &a.defs {
        let (c, errs) = crate::valid::check(d, text);
        match c {
            Some(c) if errs.is_empty() => {
                let span = text.at(&path.span).span();
                let ty = crate::expand::typed_type(k, &c);
                let path_tokens = text.path_tokens(path);
                same_item.extend(quote::quote_spanned!(span=> let _: #ty = #path_tokens;));
                env.define(path.key(), c);
            }
            _ => return Err(errs),
        }
    }
    if crate::runtime::has_runtime(&a.expr) {
        let value = crate::runtime::expand(k, &a.expr, &env, text)?;
        return Ok(quote!({ #same_item #value }));
    }
    let v = expr::evaluate(&a.expr, &env, &Options::default())
        .map_err(|errs| errs.iter().flat_map(|l| text.errors(l)).collect::<Vec<_>>())?;
    let runtime: Vec<(usize, TokenStream)> = v
        .runtime
        .iter()
        .map(|(entry, span)| (*entry, text.tokens(span)))
        .collect();
    let value = crate::expand::typed_map(k, &v.map, v.index, &runtime, &text.text)
        .map_err(|e| text.errors(&expr::Located::new(e, a.expr.span())))?;
    Ok(if same_item.is_empty() {
        value
    } else {
        quote!({ #same_item #value })
    })
}

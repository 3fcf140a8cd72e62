//! The front end of `layout!` (tokens → the core's text → parse, checks and evaluation in
//! `layout_core::expr` → generated tokens), compiled from the macro crate's own modules and run
//! on token streams parsed from the input text. It must never panic: every failure is a
//! `compile_error!`, and what it generates is valid tokens.

use proc_macro2::TokenStream;

/// Runs the whole expansion on the input read as UTF-8 tokens, both as given and after the
/// `$crate;` prefix that `layout_typed::layout!` passes.
pub fn check(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if text.len() > 1024 {
        return;
    }
    let Ok(tokens) = text.parse::<TokenStream>() else {
        return;
    };
    for input in [tokens.clone(), {
        let mut t: TokenStream = quote::quote!(::layout_typed;);
        t.extend(tokens);
        t
    }] {
        let out = crate::expand::layout(input);
        let printed = out.to_string();
        assert!(
            printed.parse::<TokenStream>().is_ok(),
            "the expansion of {text:?} does not lex: {printed}"
        );
    }
}

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
//!
//! An item defined by an expression (`layout! { const D = divide(SMEM, (4, 8)); }`) fetches
//! its operands through the same chain, its attributes, visibility and name put before the
//! definitions so that the callback completes the item ([`item`]). Its own definition macro
//! hands on the item's expression with every definition, `[D = [SMEM = DECL] divide(SMEM, (4,
//! 8))]`: an operand defined by an expression, evaluated under its own definitions only
//! (`layout_core::expr::Algebra::define_derived`), whatever its value.

use layout_core::Error;
use layout_core::expr::{self, Env, Options};
use proc_macro2::TokenStream;
use quote::quote;

use crate::frame::{Item, Krate};
use crate::text::Text;

/// Either the callback that fetches the next definition, or the evaluated expression.
pub fn expand(k: &Krate, rest: TokenStream) -> TokenStream {
    let text = Text::new(&rest);
    match resolve(k, &rest, &text, &quote!(#k;), &TokenStream::new()) {
        Resolved::Fetch(t) => t,
        Resolved::Failed(errs) => diverging(errs),
        // An operand with run-time leaves: a value built when the program runs.
        Resolved::Ready(alg) if crate::runtime::has_runtime(&alg.expr) => {
            match operands(k, &alg, &text).and_then(|(same_item, env)| {
                Ok((
                    same_item.tokens(k),
                    crate::runtime::expand(k, &alg.expr, &env, &text)?,
                ))
            }) {
                Ok((same_item, value)) => quote!({ #same_item #value }),
                Err(errs) => diverging(errs),
            }
        }
        Resolved::Ready(alg) => match evaluate(k, &alg, &text) {
            Ok((_, v)) if let Some(value) = library_composite(k, &alg.expr, &v, &text) => value,
            Ok((same_item, v)) => {
                let same_item = same_item.tokens(k);
                // In the order written: the expansion evaluates the values in this order.
                let mut written: Vec<&(usize, expr::Span)> = v.runtime.iter().collect();
                written.sort_by_key(|(_, span)| span.start);
                let runtime: Vec<(usize, TokenStream)> = written
                    .into_iter()
                    .map(|(entry, span)| (*entry, text.tokens(span)))
                    .collect();
                match crate::expand::typed_map(k, &v.map, v.index, &runtime, &text.text) {
                    Ok(value) if same_item.is_empty() => value,
                    Ok(value) => quote!({ #same_item #value }),
                    Err(e) => diverging(text.errors(&expr::Located::new(e, alg.expr.span()))),
                }
            }
            Err(errs) => diverging(errs),
        },
    }
}

/// `compose(P, Q)` of two named operands whose composite is swizzled, with a 64-bit index
/// type and no named mode (a typed layout keeps only a digest of its names), in expression
/// position:
/// the library's typed `compose(P, Q)`, a `Composed` of the operands' own values. Its type
/// follows from theirs, so the expansion spells no type and asserts nothing about the
/// operands: whatever items the paths name, `Composed` evaluates those items, and `compose`'s
/// trait bounds check the rules of composition on their types (the macro's evaluation of the
/// declarations, above, reports the same rules at the written tokens first). A swizzled
/// composite is never decided into a layout type (see [`crate::expand::typed_static`]), so
/// the value is the same map as the generated type it replaces: `B`'s value is a flat index of
/// `A`'s domain, which `A` evaluates; the offsets, their range (`A`'s, since `B` is a bijection
/// onto `A`'s domain), the index type (the left operand's) and the notation are those of the
/// composite. An item (`const C = compose(P, Q);`) keeps its generated type: an item's type is
/// spelled.
fn library_composite(
    k: &Krate,
    e: &expr::Expr<expr::Span>,
    v: &expr::Evaluated<expr::Span>,
    text: &Text,
) -> Option<TokenStream> {
    let expr::Expr::Compose { left, right, .. } = e else {
        return None;
    };
    let (expr::Expr::Operand(p), expr::Expr::Operand(q)) = (left.as_ref(), right.as_ref()) else {
        return None;
    };
    let swizzled_composite = matches!(v.map, layout_core::Map::Composite(_))
        && v.map.is_swizzled()
        && !v.map.is_restricted();
    // A 32-bit index keeps the generated program, which proves where the whole composite
    // computes in 32 bits; `Composed` computes in 32 bits only where both operands do.
    let wide = matches!(
        v.index,
        layout_core::IntType::I64 | layout_core::IntType::Usize
    );
    // A typed layout's type keeps only a digest of its mode names, so `Composed` would print
    // and rebuild (`to_map`) the operands without them: named operands keep the generated type.
    if !swizzled_composite || !wide || !v.runtime.is_empty() || has_mode_names(&v.map) {
        return None;
    }
    let (p, q) = (text.path_tokens(p), text.path_tokens(q));
    Some(quote!(#k::compose(#p, #q)))
}

/// Whether any layout of `m` names one of its modes.
fn has_mode_names(m: &layout_core::Map) -> bool {
    match m {
        layout_core::Map::Layout(a) => a.layout().names().iter().any(Option::is_some),
        layout_core::Map::Swizzled { inner, .. } | layout_core::Map::Restricted { inner, .. } => {
            has_mode_names(inner)
        }
        layout_core::Map::Composite(c) => has_mode_names(&c.left()) || has_mode_names(&c.right()),
    }
}

/// An item `#[attrs] VIS const NAME = ALGEBRA;`: the callback that fetches its operands'
/// next definition, or its evaluated value with the errors of its evaluation, the
/// statements that check its operands' values (`same_item`), and its map.
pub fn item(k: &Krate, it: &Item, text: &Text) -> ItemAlgebra {
    let (attrs, vis, name) = (&it.attrs, &it.vis, &it.name);
    let pre = quote!(#k; #(#attrs)* #vis const #name =);
    let mut semi = proc_macro2::Punct::new(';', proc_macro2::Spacing::Alone);
    semi.set_span(it.end);
    let post: TokenStream = proc_macro2::TokenTree::Punct(semi).into();
    match resolve(k, &it.tokens, text, &pre, &post) {
        Resolved::Fetch(t) => {
            // The item's `cfg`s govern the fetching too: an item compiled out names nothing.
            let cfgs = attrs.iter().filter(|a| crate::expand::is_cfg(a));
            ItemAlgebra::Fetch(quote!(#(#cfgs)* #t))
        }
        Resolved::Failed(errs) => ItemAlgebra::Failed(errs),
        Resolved::Ready(alg) if let Some(span) = runtime_value(&alg.expr) => {
            // A constant holds no run-time value.
            ItemAlgebra::Failed(text.errors(&expr::Located::new(Error::RuntimeConstant, span)))
        }
        Resolved::Ready(alg) => match evaluate(k, &alg, text) {
            Ok((same_item, v)) => {
                if let Some((_, span)) = v.runtime.first() {
                    // A constant holds no run-time value.
                    return ItemAlgebra::Failed(
                        text.errors(&expr::Located::new(Error::RuntimeConstant, span.clone())),
                    );
                }
                ItemAlgebra::Ready {
                    same_item: same_item.tokens(k),
                    map: v.map,
                    index: v.index,
                    span: alg.expr.span().clone(),
                }
            }
            Err(errs) => ItemAlgebra::Failed(errs),
        },
    }
}

/// Where an expression holds its first run-time value, at any depth: a `{expr}` leaf of a
/// literal operand or of an arrangement, or a `restrict` value given at run time.
fn runtime_value(e: &expr::Expr<expr::Span>) -> Option<expr::Span> {
    use expr::{Arrangement, Expr, LayoutExpr, Leaf};
    let leaf = |l: &LayoutExpr<expr::Span>| {
        l.shape
            .leaves()
            .into_iter()
            .chain(l.stride.leaves())
            .find(|(l, _)| matches!(l, Leaf::Runtime(_)))
            .map(|(_, s)| s.clone())
    };
    match e {
        Expr::Operand(_) => None,
        Expr::Literal(d, _) => leaf(&d.layout),
        Expr::Bare(l, _) => leaf(l),
        Expr::Compose { left, right, .. } => runtime_value(left).or_else(|| runtime_value(right)),
        Expr::Restrict { operand, fixed, .. } => fixed
            .iter()
            .find_map(|(_, v)| runtime_part(v))
            .or_else(|| runtime_value(operand)),
        Expr::Repeat {
            operand,
            arrangement,
            ..
        } => runtime_value(operand).or_else(|| match arrangement.as_ref() {
            Arrangement::Layout(l) => leaf(l),
            Arrangement::Expr(e) => runtime_value(e),
        }),
        Expr::Divide { operand, .. }
        | Expr::Broadcast { operand, .. }
        | Expr::Inverse { operand, .. }
        | Expr::Swizzle { operand, .. }
        | Expr::Regroup { operand, .. } => runtime_value(operand),
    }
}

/// Where a `restrict` value holds its first run-time part, at any depth of its tuples.
fn runtime_part(v: &expr::Value<expr::Span>) -> Option<expr::Span> {
    match v {
        expr::Value::Runtime(s) => Some(s.clone()),
        expr::Value::Parts(p, _) => p.iter().find_map(runtime_part),
        _ => None,
    }
}

/// An algebra item's state.
pub enum ItemAlgebra {
    /// The call of its operands' definition macros.
    Fetch(TokenStream),
    /// Its errors.
    Failed(Vec<syn::Error>),
    /// Its value.
    Ready {
        /// Statements asserting that each named operand's value has its definition's type.
        same_item: TokenStream,
        /// The map.
        map: layout_core::Map,
        /// The index type.
        index: layout_core::IntType,
        /// The expression's span in the text.
        span: expr::Span,
    },
}

enum Resolved {
    Fetch(TokenStream),
    Failed(Vec<syn::Error>),
    Ready(expr::Algebra<expr::Span>),
}

/// Parses `rest` (written as `text`); when an operand named by a path is not defined yet, the
/// chain of definition macros that ends in a call of this macro with `pre`, every
/// definition, `rest` and `post`.
fn resolve(
    k: &Krate,
    rest: &TokenStream,
    text: &Text,
    pre: &TokenStream,
    post: &TokenStream,
) -> Resolved {
    let alg = match expr::parse_algebra(&text.text, &Options::default()) {
        Ok(a) => a,
        Err(l) => return Resolved::Failed(text.errors(&l)),
    };
    let mut keys: Vec<String> = alg
        .defs
        .iter()
        .map(|(p, _)| p.key())
        .chain(alg.derived.iter().map(|(p, _)| p.key()))
        .collect();
    let mut missing = Vec::new();
    for p in alg.expr.operands() {
        if !keys.contains(&p.key()) {
            keys.push(p.key());
            missing.push(text.path_tokens(p));
        }
    }
    if !missing.is_empty() {
        // Ask the items' hidden macros (re-exported under the items' names in the macro
        // namespace) for their declarations, in one chain: each is called with the callbacks
        // still to come first (`{cb} rest`), and calls the first of them with the rest and its
        // own definition appended (`cb! { rest [= DECL] }`). The last callback is this macro,
        // which receives every definition in the order of the empty `[PATH =]` written for
        // them before the expression ([`crate::frame::fill_definitions`]).
        let mut callbacks = TokenStream::new();
        for p in missing.iter().skip(1) {
            callbacks.extend(quote!({ #p }));
        }
        callbacks.extend(quote!({ #k::__private::layout_impl }));
        let slots = missing.iter().map(|p| quote!([#p =]));
        let first = missing.first().cloned().unwrap_or_default();
        return Resolved::Fetch(quote!(#first! { #callbacks #pre #(#slots)* #rest #post }));
    }
    Resolved::Ready(alg)
}

/// In expression position: the errors as statements of a block whose value diverges, so that
/// several errors (a rule and its note) read as they are and the unusable value raises no
/// error of its own.
fn diverging(errs: Vec<syn::Error>) -> TokenStream {
    let errs: TokenStream = errs.into_iter().map(|e| e.to_compile_error()).collect();
    quote!({ #errs ::core::unreachable!() })
}

/// The expression's value, and the statements asserting that each named operand's value has
/// its definition's type.
fn evaluate(
    k: &Krate,
    a: &expr::Algebra<expr::Span>,
    text: &Text,
) -> Result<(SameItem, expr::Evaluated<expr::Span>), Vec<syn::Error>> {
    let (same_item, env) = operands(k, a, text)?;
    let v = expr::evaluate(&a.expr, &env, &Options::default())
        .map_err(|errs| errs.iter().flat_map(|l| text.errors(l)).collect::<Vec<_>>())?;
    Ok((same_item, v))
}

/// The operands' definitions, and the statements asserting that each named operand's value has
/// its definition's type.
fn operands(
    k: &Krate,
    a: &expr::Algebra<expr::Span>,
    text: &Text,
) -> Result<(SameItem, Env<expr::Span>), Vec<syn::Error>> {
    let mut env = Env::new();
    // The declaration arrives through the macro namespace (the item's hidden macro), the
    // operand's value through the value namespace: a value of another type under the same path
    // (a `const` shadowing a glob-imported item, say) would make them two different items. The
    // expansion asserts that the operand's value has the declaration's type, which is the
    // layout itself (form, spaces, tiles, swizzle): equal types, equal offsets. A value made of
    // the operands' own values ([`library_composite`]) needs no assertion and gets none.
    let mut same_item = SameItem {
        declared: Vec::new(),
        derived: TokenStream::new(),
    };
    for (path, d) in &a.defs {
        let (c, errs) = match definition_text(&text.text, path) {
            Some(written) => crate::valid::check_known(written, d, text),
            None => crate::valid::check(d, text),
        };
        match c {
            Some(c) if errs.is_empty() => {
                let span = text.at(&path.span).span();
                same_item
                    .declared
                    .push((span, text.path_tokens(path), c.clone()));
                env.define(path.key(), c);
            }
            _ => return Err(errs),
        }
    }
    let located = |errs: Vec<expr::Located<expr::Span>>| {
        errs.iter().flat_map(|l| text.errors(l)).collect::<Vec<_>>()
    };
    // An operand defined by an expression (an item of the algebra) is that expression's value;
    // its value's type is asserted as a declared item's is (a generated value's unit struct
    // is the item's own, hence `_`).
    a.define_derived(&mut env).map_err(located)?;
    for (path, _) in &a.derived {
        if let Some((map, index)) = env.value(&path.key()) {
            let span = text.at(&path.span).span();
            let (ty, generated) = match crate::expand::typed_static(k, map, *index, "", &quote!(_))
            {
                Ok(crate::expand::Emitted::Type { ty, defs }) => (ty, !defs.is_empty()),
                Ok(crate::expand::Emitted::Value(_)) => continue,
                Err(e) => {
                    return Err(text.errors(&expr::Located::new(e, path.span.clone())));
                }
            };
            let path_tokens = text.path_tokens(path);
            // A composite decided to be a layout (a `Static` type, no program): its `NAMES` is
            // the map's fingerprint, which proves the names and domain tree the form does not
            // keep; the rest of its type follows from the map.
            if !generated && matches!(map, layout_core::Map::Composite(_)) {
                let h = proc_macro2::Literal::u128_unsuffixed(crate::expand::decided_fingerprint(
                    map, *index,
                ));
                same_item.derived.extend([quote::quote_spanned!(span=>
                    #k::__private::same_decided::<#h, _, _>(&#path_tokens);
                )]);
                continue;
            }
            same_item
                .derived
                .extend([quote::quote_spanned!(span=> let _: #ty = #path_tokens;)]);
            // A `Generated` value's type holds its program as the item's unit struct, which
            // the type above leaves open (`_`): the program's fingerprint ties it to the
            // definition evaluated here.
            if generated {
                let h = proc_macro2::Literal::u128_unsuffixed(crate::expand::program_fingerprint(
                    map, *index,
                ));
                same_item.derived.extend([quote::quote_spanned!(span=>
                    #k::__private::same_program::<#h, _, _, _>(&#path_tokens);
                )]);
            }
        }
    }
    Ok((same_item, env))
}

/// The text of the declaration in the definition `[PATH = DECL]` whose path is `path`: from
/// after the `=` that follows the path to the `]` that closes the definition, without the
/// spaces around. The text is made of whole tokens (`crate::text`), so counting delimiters
/// finds that `]`. `None` where the text is not shaped so (never, once parsed).
pub(crate) fn definition_text<'t>(text: &'t str, path: &expr::Path<expr::Span>) -> Option<&'t str> {
    let after = text.get(path.span.end..)?;
    let decl = after.trim_start().strip_prefix('=')?;
    let start = text.len().checked_sub(decl.len())?;
    let mut depth = 0usize;
    for (i, b) in decl.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth = depth.checked_add(1)?,
            b']' if depth == 0 => return text.get(start..start.checked_add(i)?).map(str::trim),
            b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            _ => {}
        }
    }
    None
}

/// The statements asserting that each named operand's value has its definition's type, the
/// declared operands' written out only when the expansion uses them ([`SameItem::tokens`]):
/// a value made of the operands' own values ([`library_composite`]) needs none.
struct SameItem {
    /// Per declared operand: where it is written, its path, its checked declaration.
    declared: Vec<(proc_macro2::Span, TokenStream, expr::Checked<expr::Span>)>,
    /// The statements of the operands defined by expressions.
    derived: TokenStream,
}

impl SameItem {
    /// `let _: TYPE = PATH;` per operand, declared ones first.
    fn tokens(self, k: &Krate) -> TokenStream {
        let mut out = TokenStream::new();
        for (span, path, c) in &self.declared {
            let ty = crate::expand::typed_type(k, c);
            out.extend([quote::quote_spanned!(*span=> let _: #ty = #path;)]);
        }
        out.extend([self.derived]);
        out
    }
}

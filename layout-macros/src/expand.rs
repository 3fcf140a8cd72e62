//! Emits the typed value: a `Static<Form, Spec<..>>` (wrapped in `Swizzled` when swizzled).
//! Emits little, since compiling the output dominates the cost of a `layout!`.

use layout_core::expr::{self, Checked, Options, Span, typed_limits};
use layout_core::interned;
use layout_core::{
    Decision, Error, IntType, Layout, Map, Program, Space, Stride, Sum, Term, Tree, Var, decide,
    emit, layout_form, written,
};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};
use quote::{ToTokens, quote};

use crate::frame::{self, Input, Krate};
use crate::text::Text;
use crate::valid;

/// The whole macro: never panics; every failure is a spanned `compile_error!`.
pub fn layout(tokens: TokenStream) -> TokenStream {
    let inv = match frame::invocation(tokens) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let k = &inv.krate;
    match inv.input {
        Input::Expr => {
            let text = Text::new(&inv.rest);
            let (checked, errs) = match expr::parse_decl(&text.text, &Options::default()) {
                Ok(d) => valid::check_known(&text.text, &d, &text),
                Err(l) => (None, text.errors(&l)),
            };
            let expr = checked.map_or_else(
                || quote!(::core::unreachable!()),
                |c| typed_expr(k, &c, &text),
            );
            if errs.is_empty() {
                expr
            } else {
                let errs = errors(errs);
                quote!({ #errs #expr })
            }
        }
        Input::Algebra => crate::algebra::expand(k, inv.rest),
        Input::Items(items, frame_error) => {
            let mut out = TokenStream::new();
            for it in items {
                out.extend([item(k, &it)]);
            }
            if let Some(e) = frame_error {
                out.extend([e.to_compile_error()]);
            }
            out
        }
    }
}

/// One item: its errors, or its type alias, constant and definition macro.
fn item(k: &Krate, it: &frame::Item) -> TokenStream {
    if let Some(out) = Text::printed(&it.tokens).and_then(|t| passed_item(k, it, &t)) {
        return out;
    }
    let text = Text::ending_at(&it.tokens, it.end);
    if frame::is_algebra(&it.tokens) {
        return algebra_item(k, it, &text);
    }
    let d = match expr::parse_decl(&text.text, &Options::default()) {
        Ok(d) => d,
        Err(l) => return errors(text.errors(&l)),
    };
    let (checked, errs) = valid::check_known(&text.text, &d, &text);
    let mut out = errors(errs);
    if d.layout.has_runtime() {
        out.extend([crate::text::At::one(it.name.span())
            .error(crate::text::message(&expr::Located::new(
                Error::RuntimeConstant,
                0..0,
            )))
            .to_compile_error()]);
        return out;
    }
    let Some(c) = checked else {
        return out;
    };
    let ty = typed_type(k, &c);
    out.extend([named(k, it, &ty, &text.text, Definition::Declaration)]);
    out
}

/// An item whose declaration, written as `text` ([`Text::printed`]), passes every check: its
/// type alias, constant and definition macro, as [`item`] makes them from the same text.
/// `None` for anything else (an algebra item, a syntax error, a broken rule, a run-time
/// leaf), which [`item`] reads token by token to put each error at its tokens.
fn passed_item(k: &Krate, it: &frame::Item, text: &str) -> Option<TokenStream> {
    if !plainly_a_declaration(text) && frame::is_algebra(&it.tokens) {
        return None;
    }
    // A declaration written alike passed before: the same text, the same declaration.
    let c = match valid::known(text) {
        Some(c) => c,
        None => {
            let d = expr::parse_decl(text, &Options::default()).ok()?;
            if d.layout.has_runtime() {
                return None;
            }
            valid::passes(text, &d)?
        }
    };
    let ty = typed_type(k, &c);
    Some(named(k, it, &ty, text, Definition::Declaration))
}

/// Whether the text of an item's right-hand side ([`Text::printed`]) starts as only a
/// declaration does: with its parenthesised shape, an integer, or `cute` and one of those. An
/// algebra expression starts with a bracket, an operation's name or a path
/// ([`frame::is_algebra`], which such a text never satisfies: its first token tree is a
/// group or a literal, or `cute` then a group or a literal).
pub(crate) fn plainly_a_declaration(text: &str) -> bool {
    let shape = |t: &str| t.starts_with('(') || t.starts_with(|c: char| c.is_ascii_digit());
    shape(text) || text.strip_prefix("cute ").is_some_and(shape)
}

/// An item defined by an algebra expression: the chain that fetches its operands'
/// definitions, or its errors, or (all defined) its items. A layout or swizzled layout is a
/// `Static` type, anything else a `Generated` one over a unit struct of the item's own,
/// defined beside it under a hidden name; either way the definition macro hands on the
/// expression with its operands' definitions, which later expressions evaluate again.
fn algebra_item(k: &Krate, it: &frame::Item, text: &Text) -> TokenStream {
    let (same_item, map, index, span) = match crate::algebra::item(k, it, text) {
        crate::algebra::ItemAlgebra::Fetch(t) => return t,
        crate::algebra::ItemAlgebra::Failed(errs) => return errors(errs),
        crate::algebra::ItemAlgebra::Ready {
            same_item,
            map,
            index,
            span,
        } => (same_item, map, index, span),
    };
    let unit = quote::format_ident!("__LayoutProgram_{}", it.name);
    let (defs, ty) = match typed_static(k, &map, index, &text.text, &quote!(#unit)) {
        Ok(Emitted::Type { mut defs, ty }) => {
            // A program of the item's own: its fingerprint, which an expression naming the
            // item checks against the definition it evaluates ([`program_fingerprint`]).
            if !defs.is_empty() {
                let h = Literal::u128_unsuffixed(program_fingerprint(&map, index));
                defs.push(quote!(impl #k::__private::ProgramHash<#h> for #unit {}));
            }
            (defs, ty)
        }
        Ok(Emitted::Value(_)) => {
            return errors(text.errors(&expr::Located::new(Error::RuntimeConstant, span)));
        }
        Err(e) => return errors(text.errors(&expr::Located::new(e, span))),
    };
    let vis = &it.vis;
    let cfgs: Vec<&TokenStream> = it.attrs.iter().filter(|a| is_cfg(a)).collect();
    let mut out = TokenStream::new();
    for (i, d) in defs.iter().enumerate() {
        out.extend([if i == 0 {
            quote!(#(#cfgs)* #[doc(hidden)] #[allow(non_camel_case_types)] #vis #d)
        } else {
            quote!(#(#cfgs)* #d)
        }]);
    }
    if !same_item.is_empty() {
        out.extend([quote!(#(#cfgs)* const _: () = { #same_item };)]);
    }
    out.extend([named(k, it, &ty, &text.text, Definition::Tokens)]);
    out
}

/// A fingerprint of an item's map `m` in the index type `i` ([`Fnv128`] over their `Hash`,
/// which feeds every leaf, swizzle, fixed entry, name, space and tile with its length or
/// discriminant, after a byte the names of [`names_fingerprint`] never start with): the `H` of
/// the `ProgramHash<H>` its program implements. Two definitions of different maps have
/// different fingerprints (but for a 128-bit collision), so that an expression whose
/// definition of the item (written by hand, say) is not the item's own fails to compile
/// instead of evaluating it. The proc-macro computes both sides, so the encoding only has to
/// agree with itself.
pub(crate) fn program_fingerprint(m: &Map, i: IntType) -> u128 {
    use std::hash::{Hash, Hasher};
    let mut h = Fnv128::new();
    h.write_u8(0xfd);
    m.hash(&mut h);
    i.hash(&mut h);
    h.0
}

/// The 128-bit FNV-1a hash, as a [`std::hash::Hasher`] (its 128 bits read from the field). 128
/// bits, so that two inputs that hash alike are not found by trying inputs (2⁶⁴ of them for
/// even odds); a fingerprint is a check against definitions that differ, not a seal against a
/// collision built on purpose, as `layout_typed::__private` is not either.
struct Fnv128(u128);

impl Fnv128 {
    fn new() -> Self {
        Fnv128(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }
}

impl std::hash::Hasher for Fnv128 {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self
                .0
                .wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
    }
    /// The low 64 bits (unused: the fingerprints read all 128).
    fn finish(&self) -> u64 {
        let b = self.0.to_le_bytes();
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }
}

/// What an item's definition macro hands on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Definition {
    /// The text the item was read from, a declaration the core parsed and checked: as one
    /// string literal, which [`Text`] reads back as that text ([`declaration_module`]).
    Declaration,
    /// The item's tokens as written (an algebra expression and its definitions).
    Tokens,
}

/// An item's type alias `ty`, its constant, and its definition macro, which hands on the
/// item's tokens as written (`text`: as the core read them).
fn named(
    k: &Krate,
    it: &frame::Item,
    ty: &TokenStream,
    text: &str,
    definition: Definition,
) -> TokenStream {
    let (attrs, vis, name) = (&it.attrs, &it.vis, &it.name);
    let decl = &it.tokens;
    // The definition macro is re-exported under the item's own name, in the macro namespace
    // only, so `use m::SMEM;` brings it along with the type and the constant, with the item's
    // visibility. A `pub` item's is `#[macro_export]`ed (under a name unique in the crate,
    // since exported macros live at its root) so that other crates reach it through the
    // item's path.
    let exported = matches!(vis, syn::Visibility::Public(_));
    // Unique for every item, exported or not: the definition module is an item of the
    // module, and a glob import (`use super::*;`) of another module's would make a name
    // shared with it ambiguous.
    let hash = unique(k, it, text);
    let def = quote::format_ident!("__layout_def_{}_{:016x}", name, hash);
    // The module's name is in snake case whatever the item's (no lint attribute to write).
    let module_name = quote::format_ident!("__layout_{:016x}", hash);
    // The item's `cfg`s also govern its definition macro and the macro's re-export, so that
    // alternative definitions under `#[cfg]` do not collide.
    let cfgs = it.attrs.iter().filter(|a| is_cfg(a));
    let cfgs2 = cfgs.clone();
    // The definition macro lives in a module of its own, re-exported from there: a
    // `macro_rules!` written beside the items would be in the textual scope of everything
    // after it, which every later macro name in the module searches.
    let module = match definition {
        Definition::Declaration => declaration_module(&module_name, &def, vis, exported, text),
        Definition::Tokens => None,
    }
    .unwrap_or_else(|| {
        definition_module(&module_name, &def, vis, exported, &definition_rules(decl))
    });
    // Only a name that rustc's `non_camel_case_types` might report gets the `allow` (each
    // attribute is a cost for every item).
    let camel = quote!(#[allow(non_camel_case_types)]);
    let camel = (!plainly_camel_case(&name.to_string())).then_some(camel);
    // An item's `pub use` is not reported unused even where its scope is private (rustc does
    // not lint imports that another crate's macro wrote; `tests/tests/expansion_fast_paths.rs`
    // denies `unused_imports` over items no expression names); a narrower one keeps its
    // `allow`, as before.
    let unused = (!exported).then(|| quote!(#[allow(unused_imports)]));
    quote! {
        #(#attrs)*
        #camel
        #vis type #name = #ty;
        // The constant's type and value name the type alias: the type is written once.
        #(#attrs)*
        #vis const #name: #name = <#name as #k::__private::New>::NEW;
        #(#cfgs)*
        #module
        #(#cfgs2)*
        #unused
        #vis use #module_name::m as #name;
    }
}

/// Whether rustc's `non_camel_case_types` lint certainly accepts `name` as a type's name: ASCII
/// letters and digits only, the first an upper-case letter (the lint reports lower-case starts
/// and underscores next to letters; anything else is left to an `allow`).
fn plainly_camel_case(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The rules of an item's definition macro: `{ ({ $($cb:tt)* } $($rest:tt)*) => { $($cb)*!
/// { $($rest)* [= DECL] } }; }`: called with the next callback first, it calls that callback
/// with the rest and its definition appended ([`crate::frame::fill_definitions`] puts it into
/// the expression's `[PATH =]`). Made tree by tree: `quote!` writes each `$` by parsing a text,
/// a call across the macro's bridge.
fn definition_rules(decl: &TokenStream) -> TokenStream {
    let group = |d: Delimiter, t: TokenStream| TokenTree::Group(Group::new(d, t));
    let punct = |c: char| TokenTree::Punct(Punct::new(c, Spacing::Alone));
    let ident = |n: &str| TokenTree::Ident(Ident::new(n, proc_macro2::Span::call_site()));
    // `$($name:tt)*` (a matcher) or `$($name)*` (a transcriber).
    let repeat = |name: &str, matcher: bool| {
        let mut inner = vec![punct('$'), ident(name)];
        if matcher {
            inner.extend([punct(':'), ident("tt")]);
        }
        [
            punct('$'),
            group(Delimiter::Parenthesis, inner.into_iter().collect()),
            punct('*'),
        ]
    };
    let mut matcher: TokenStream = [group(
        Delimiter::Brace,
        repeat("cb", true).into_iter().collect(),
    )]
    .into_iter()
    .collect();
    matcher.extend(repeat("rest", true));
    let mut def: TokenStream = [punct('=')].into_iter().collect();
    def.extend([decl.clone()]);
    let mut call: TokenStream = repeat("rest", false).into_iter().collect();
    call.extend([group(Delimiter::Bracket, def)]);
    let mut body: TokenStream = repeat("cb", false).into_iter().collect();
    body.extend([punct('!'), group(Delimiter::Brace, call)]);
    let arrow = [
        TokenTree::Punct(Punct::new('=', Spacing::Joint)),
        punct('>'),
    ];
    let mut rules: TokenStream = [group(Delimiter::Parenthesis, matcher)]
        .into_iter()
        .collect();
    rules.extend(arrow);
    rules.extend([group(Delimiter::Brace, body), punct(';')]);
    [group(Delimiter::Brace, rules)].into_iter().collect()
}

/// An item's definition module `def`: its definition macro (of rules `rules`, exported when
/// the item is `pub`) and the macro's re-export as `m`, with the item's visibility `vis`.
fn definition_module(
    module: &proc_macro2::Ident,
    def: &proc_macro2::Ident,
    vis: &syn::Visibility,
    exported: bool,
    rules: &TokenStream,
) -> TokenStream {
    // An item in a function body cannot be named from outside it; its exported macro is
    // harmless there, and the lint about it is silenced. Few attributes (each is a cost for
    // every item): an exported macro is never reported unused, and a private one is not
    // documented (its `allow` only states that it may go unused: rustc does not report a
    // macro whose name starts with `_`). [`declaration_module`] writes the same as text.
    let export = if exported {
        quote!(#[doc(hidden)] #[macro_export] #[allow(non_local_definitions)])
    } else {
        quote!(#[allow(unused_macros)])
    };
    let inner = if exported {
        quote!(pub)
    } else {
        quote!(pub(crate))
    };
    let hidden = exported.then(|| quote!(#[doc(hidden)]));
    quote! {
        #hidden
        #vis mod #module {
            #export
            macro_rules! #def #rules
            #inner use #def as m;
        }
    }
}

/// A declared item's definition module ([`definition_module`] writes it, with [`definition_rules`]), read
/// from one text across the macro's bridge, its declaration as one string literal of `text`
/// (the text the core parsed and checked): `[= "TEXT"]`, put into the expression's `[KEY =]`
/// ([`crate::frame::fill_definitions`]), which [`Text`] writes back as `[KEY = TEXT]`, the text
/// the item's own checks read (the key of [`crate::valid::known`]).
/// `None` where the text would need an escape in a literal, or the visibility is neither `pub`
/// nor private (it is then written token by token).
fn declaration_module(
    module: &proc_macro2::Ident,
    def: &proc_macro2::Ident,
    vis: &syn::Visibility,
    exported: bool,
    text: &str,
) -> Option<TokenStream> {
    let vis = match vis {
        syn::Visibility::Public(_) => "pub",
        syn::Visibility::Inherited => "",
        syn::Visibility::Restricted(_) => return None,
    };
    if !crate::text::plain_definition(text) {
        return None;
    }
    let (hidden, export, inner) = if exported {
        (
            "#[doc(hidden)]",
            "#[doc(hidden)] #[macro_export] #[allow(non_local_definitions)]",
            "pub",
        )
    } else {
        ("", "#[allow(unused_macros)]", "pub(crate)")
    };
    let module = format!(
        "{hidden} {vis} mod {module} {{ {export} macro_rules! {def} \
         {{ ({{ $($cb:tt)* }} $($rest:tt)*) => \
         {{ $($cb)* ! {{ $($rest)* [= \"{text}\"] }} }}; }} \
         {inner} use {def} as m; }}"
    );
    // The compiler's own lexer, in one call: `proc_macro2`'s parse would first lex the text
    // again in this (unoptimised) crate to validate it.
    if proc_macro::is_available() {
        module
            .parse::<proc_macro::TokenStream>()
            .ok()
            .map(TokenStream::from)
    } else {
        module.parse().ok()
    }
}

/// A hash of an item (its name, its declaration's text `decl`, where it is written, and which
/// `layout!` call wrote it): the suffix of its exported definition macro's name, which
/// `#[macro_export]` puts at the crate's root. The debug forms of the name's span and of the
/// closing `;`'s tell apart equal declarations written in different places or made by
/// different expansions of one `macro_rules!` (also one that declares the same `pub` item, its
/// name one token of one span, in two modules: the `;`s are two tokens); the spans of the
/// `$crate` path that this call of `layout_typed::layout!` wrote (`k`, carried as it is along
/// the fetch chain) tell apart calls whose tokens are all the same, such as one file
/// `include!`d in two modules or one `macro_rules!` repetition. A function of the input alone,
/// so that an input expands alike whatever was expanded before it. The declaration is hashed
/// as the text the core read, made already, rather than printed again from its tokens.
fn unique(k: &Krate, it: &frame::Item, decl: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    it.name.to_string().hash(&mut h);
    format!("{:?} {:?}", it.name.span(), it.end).hash(&mut h);
    for span in k.spans_debug() {
        span.hash(&mut h);
    }
    decl.hash(&mut h);
    h.finish()
}

/// Whether an outer attribute (`#` and its bracketed group) is `#[cfg(..)]`.
pub fn is_cfg(attr: &TokenStream) -> bool {
    attr.clone().into_iter().any(|tt| match tt {
        proc_macro2::TokenTree::Group(g) => {
            g.stream().into_iter().next().is_some_and(
                |first| matches!(first, proc_macro2::TokenTree::Ident(i) if i == "cfg"),
            )
        }
        _ => false,
    })
}

fn errors(errs: Vec<syn::Error>) -> TokenStream {
    errs.into_iter().map(|e| e.to_compile_error()).collect()
}

/// Appends token trees one by one. Inside the compiler the trees are the compiler's own
/// (`proc_macro`'s), gathered on the macro's side of the bridge and handed across it once per
/// stream ([`Emit::finish`]): `proc_macro2`'s wrapper would convert and buffer each tree
/// again, in this crate's unoptimised code. Elsewhere (unit tests) they are `proc_macro2`'s.
/// The types of the expansion are made this way.
enum Emit {
    /// Inside the compiler, with the call site's span.
    Compiler(Vec<proc_macro::TokenTree>, proc_macro::Span),
    /// Outside it.
    Fallback(TokenStream),
}

impl Emit {
    fn new() -> Self {
        if proc_macro::is_available() {
            Emit::Compiler(Vec::new(), proc_macro::Span::call_site())
        } else {
            Emit::Fallback(TokenStream::new())
        }
    }
    /// The trees appended, as one stream.
    fn finish(self) -> TokenStream {
        match self {
            Emit::Compiler(trees, _) => {
                TokenStream::from(trees.into_iter().collect::<proc_macro::TokenStream>())
            }
            Emit::Fallback(t) => t,
        }
    }
    fn punct(&mut self, c: char) {
        self.punct_spaced(c, false);
    }
    /// A punctuation character, joint with the next one when `joint`.
    fn punct_spaced(&mut self, c: char, joint: bool) {
        match self {
            Emit::Compiler(trees, span) => {
                let spacing = if joint {
                    proc_macro::Spacing::Joint
                } else {
                    proc_macro::Spacing::Alone
                };
                let mut p = proc_macro::Punct::new(c, spacing);
                p.set_span(*span);
                trees.push(proc_macro::TokenTree::Punct(p));
            }
            Emit::Fallback(t) => {
                let spacing = if joint {
                    Spacing::Joint
                } else {
                    Spacing::Alone
                };
                t.extend([TokenTree::Punct(Punct::new(c, spacing))]);
            }
        }
    }
    fn colons(&mut self) {
        self.punct_spaced(':', true);
        self.punct(':');
    }
    fn ident(&mut self, name: &str) {
        match self {
            Emit::Compiler(trees, span) => {
                trees.push(proc_macro::TokenTree::Ident(proc_macro::Ident::new(
                    name, *span,
                )));
            }
            Emit::Fallback(t) => t.extend([TokenTree::Ident(Ident::new(
                name,
                proc_macro2::Span::call_site(),
            ))]),
        }
    }
    /// An unsuffixed integer literal.
    fn int(&mut self, n: i64) {
        match self {
            Emit::Compiler(trees, span) => {
                let mut l = proc_macro::Literal::i64_unsuffixed(n);
                l.set_span(*span);
                trees.push(proc_macro::TokenTree::Literal(l));
            }
            Emit::Fallback(t) => t.extend([TokenTree::Literal(Literal::i64_unsuffixed(n))]),
        }
    }
    /// An unsuffixed literal of an unsigned integer.
    fn uint(&mut self, n: u128) {
        match self {
            Emit::Compiler(trees, span) => {
                let mut l = proc_macro::Literal::u128_unsuffixed(n);
                l.set_span(*span);
                trees.push(proc_macro::TokenTree::Literal(l));
            }
            Emit::Fallback(t) => t.extend([TokenTree::Literal(Literal::u128_unsuffixed(n))]),
        }
    }
    /// The crate path.
    fn krate(&mut self, k: &Krate) {
        match self {
            Emit::Compiler(trees, _) => trees.extend(k.compiler_trees().iter().cloned()),
            Emit::Fallback(t) => k.to_tokens(t),
        }
    }
    /// `k::name`.
    fn path(&mut self, k: &Krate, name: &str) {
        self.krate(k);
        self.colons();
        self.ident(name);
    }
    /// `k::__n::name`: an alias of `layout_core::interned`.
    fn interned(&mut self, k: &Krate, name: &str) {
        self.path(k, "__n");
        self.colons();
        self.ident(name);
    }
    /// A group of `delimiter` around what `inner` appended.
    fn group(&mut self, delimiter: Delimiter, inner: Emit) {
        match (self, inner) {
            (Emit::Compiler(trees, span), Emit::Compiler(inner, _)) => {
                let d = match delimiter {
                    Delimiter::Parenthesis => proc_macro::Delimiter::Parenthesis,
                    Delimiter::Brace => proc_macro::Delimiter::Brace,
                    Delimiter::Bracket => proc_macro::Delimiter::Bracket,
                    Delimiter::None => proc_macro::Delimiter::None,
                };
                let mut g = proc_macro::Group::new(d, inner.into_iter().collect());
                g.set_span(*span);
                trees.push(proc_macro::TokenTree::Group(g));
            }
            (this, inner) => {
                let g = TokenTree::Group(Group::new(delimiter, inner.finish()));
                match this {
                    Emit::Compiler(trees, _) => {
                        trees.extend(proc_macro::TokenStream::from(TokenStream::from(g)));
                    }
                    Emit::Fallback(t) => t.extend([g]),
                }
            }
        }
    }
    /// An empty emitter of the same kind, for a group's contents.
    fn inner(&self) -> Emit {
        match self {
            Emit::Compiler(_, span) => Emit::Compiler(Vec::new(), *span),
            Emit::Fallback(_) => Emit::Fallback(TokenStream::new()),
        }
    }
}

pub(crate) fn form(k: &Krate, shape: &Tree<i64>, stride: &Tree<Stride>) -> TokenStream {
    let mut e = Emit::new();
    form_into(&mut e, k, shape, stride);
    e.finish()
}

fn form_into(e: &mut Emit, k: &Krate, shape: &Tree<i64>, stride: &Tree<Stride>) {
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(d)) => {
            // Sizes are positive (checked by `layout-core`); an unsuffixed literal takes the
            // parameter's type, and one that does not fit is a compile error, never a wrap.
            // A common leaf is named by its alias in `layout_typed::__n` (one constant for
            // rustc to lower per crate, not two per use; `layout_core::interned`).
            let alias = match d {
                Stride::Broadcast => interned::bcast(*n),
                Stride::Int(d) => interned::dim(*n, *d),
            };
            if let Some(alias) = alias {
                e.interned(k, &alias);
                return;
            }
            match d {
                Stride::Broadcast => {
                    e.path(k, "Bcast");
                    e.punct('<');
                    e.int(*n);
                    e.punct('>');
                }
                Stride::Int(d) => {
                    e.path(k, "Dim");
                    e.punct('<');
                    e.int(*n);
                    e.punct(',');
                    if *d < 0 {
                        let mut neg = e.inner();
                        neg.punct('-');
                        neg.uint(u128::from(d.unsigned_abs()));
                        e.group(Delimiter::Brace, neg);
                    } else {
                        e.int(*d);
                    }
                    e.punct('>');
                }
            }
        }
        // A rank-1 tuple is its entry (spec: Layouts and evaluation).
        (Tree::Tuple(a), Tree::Tuple(b)) if let ([a], [b]) = (a.as_slice(), b.as_slice()) => {
            form_into(e, k, a, b);
        }
        (Tree::Tuple(a), Tree::Tuple(b)) => {
            let mut i = e.inner();
            for (s, d) in a.iter().zip(b) {
                form_into(&mut i, k, s, d);
                i.punct(',');
            }
            e.group(Delimiter::Parenthesis, i);
        }
        // Profiles were checked equal by `layout-core`.
        _ => {
            let empty = e.inner();
            e.group(Delimiter::Parenthesis, empty);
        }
    }
}

pub(crate) fn index_type(i: IntType) -> TokenStream {
    let mut e = Emit::new();
    index_type_into(&mut e, i);
    e.finish()
}

fn index_type_into(e: &mut Emit, i: IntType) {
    e.colons();
    e.ident("core");
    e.colons();
    e.ident("primitive");
    e.colons();
    e.ident(match i {
        IntType::I32 => "i32",
        IntType::I64 => "i64",
        IntType::U32 => "u32",
        IntType::Usize => "usize",
    });
}

pub(crate) fn space(k: &Krate, s: Space) -> TokenStream {
    let mut e = Emit::new();
    e.path(k, space_name(s));
    e.finish()
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Logical => "LogicalSpace",
        Space::ThreadValue => "ThreadValueSpace",
        Space::Physical => "PhysicalSpace",
    }
}

fn tile(k: &Krate, t: Option<&Vec<i64>>) -> TokenStream {
    let mut e = Emit::new();
    tile_into(&mut e, k, t);
    e.finish()
}

fn tile_into(e: &mut Emit, k: &Krate, t: Option<&Vec<i64>>) {
    let Some(t) = t else {
        e.path(k, "NoTile");
        return;
    };
    if let [a, b] = t.as_slice()
        && let Some(alias) = interned::tile2(*a, *b)
    {
        e.interned(k, &alias);
        return;
    }
    e.path(k, &format!("Tile{}", t.len()));
    e.punct('<');
    for (i, x) in t.iter().enumerate() {
        if i > 0 {
            e.punct(',');
        }
        e.int(*x);
    }
    e.punct('>');
}

/// The value of a declaration with run-time leaves: `Result<Dynamic<..>, layout_core::Error>`,
/// checked when it is built (spec: Typed surface).
fn dynamic(k: &Krate, c: &Checked<TokenStream>) -> TokenStream {
    let f = form(k, c.layout.shape(), c.layout.stride());
    let (dom, cod) = (space(k, c.domain), space(k, c.codomain));
    let idx = index_type(c.index);
    let modes = c.layout.modes();
    let sizes = modes.iter().zip(&c.runtime).map(|(m, (rs, _))| match rs {
        Some(e) => quote!(#k::__private::leaf(#e)),
        None => {
            let n = Literal::i64_suffixed(m.size);
            quote!(#k::__private::leaf(#n))
        }
    });
    let strides = modes
        .iter()
        .zip(&c.runtime)
        .map(|(m, (_, rd))| match (rd, m.stride) {
            (Some(e), _) => quote!(::core::option::Option::Some(#k::__private::leaf(#e))),
            (None, Stride::Int(d)) => {
                let d = Literal::i64_suffixed(d);
                quote!(::core::option::Option::Some(#k::__private::leaf(#d)))
            }
            (None, Stride::Broadcast) => quote!(::core::option::Option::None),
        });
    let new = quote!(#k::Dynamic::<#f, #dom, #cod, #idx>::__new(&[#(#sizes),*], &[#(#strides),*]));
    if c.operands.is_empty() {
        return new;
    }
    // The operand clauses, on the real values.
    let spaces = |s: Space| {
        let name = Ident::new(space_variant(s), proc_macro2::Span::call_site());
        quote!(#k::core_algebra::Space::#name)
    };
    let (d, cd) = (spaces(c.domain), spaces(c.codomain));
    let checks = c.operands.iter().map(|&(operand, bytes)| {
        let operand = match operand {
            expr::Operand::Wgmma(major) => {
                let m = Ident::new(
                    match major {
                        layout_core::gmma::Major::K => "K",
                        layout_core::gmma::Major::MN => "MN",
                    },
                    proc_macro2::Span::call_site(),
                );
                quote!(#k::core_algebra::expr::Operand::Wgmma(#k::core_algebra::gmma::Major::#m))
            }
            expr::Operand::TmaBox => quote!(#k::core_algebra::expr::Operand::TmaBox),
        };
        let bytes = Literal::i64_suffixed(bytes);
        quote!(#k::core_algebra::expr::check_operand(&__map, #operand, #bytes)?;)
    });
    quote!(#new.and_then(|__value| {
        let __map: #k::core_algebra::Map =
            #k::core_algebra::Annotated::new(__value.to_layout()?, #d, #cd)?.into();
        #(#checks)*
        ::core::result::Result::Ok(__value)
    }))
}

/// The name of a space's variant of `layout_core::Space`.
fn space_variant(s: Space) -> &'static str {
    match s {
        Space::Logical => "Logical",
        Space::ThreadValue => "ThreadValue",
        Space::Physical => "Physical",
    }
}

/// The type of a checked declaration (`()` for one with run-time leaves, whose value is a
/// `Result`).
pub fn typed_type(k: &Krate, c: &Checked<Span>) -> TokenStream {
    if !c.runtime.is_empty() {
        return quote!(());
    }
    static_type(k, c, names_fingerprint(c.layout.names()))
}

/// The value expression of a checked declaration.
pub fn typed_expr(k: &Krate, c: &Checked<Span>, text: &Text) -> TokenStream {
    let tokens = |s: &Option<Span>| s.as_ref().map(|s| text.leaf_value(s));
    let c = Checked {
        layout: c.layout.clone(),
        domain: c.domain,
        codomain: c.codomain,
        domain_tile: c.domain_tile.clone(),
        codomain_tile: c.codomain_tile.clone(),
        swizzle: c.swizzle,
        index: c.index,
        runtime: c
            .runtime
            .iter()
            .map(|(a, b)| (tokens(a), tokens(b)))
            .collect(),
        offset_range: c.offset_range,
        operands: c.operands.clone(),
    };
    typed_value(k, &c)
}

/// The value expression of a checked declaration whose run-time leaves are tokens.
fn typed_value(k: &Krate, c: &Checked<TokenStream>) -> TokenStream {
    if !c.runtime.is_empty() {
        return dynamic(k, c);
    }
    let ty = static_type(k, c, names_fingerprint(c.layout.names()));
    quote!(<#ty as #k::__private::New>::NEW)
}

/// `Static<Form, Spec<Domain, Codomain, Size<N>, Access, DomainTile, CodomainTile, Index>>`,
/// wrapped in `Swizzled<.., B, SRC, DST, MIN, MAX>` when swizzled; `names` is `Spec`'s
/// `NAMES` (`None`: the default, 0): [`names_fingerprint`] for a declaration,
/// [`decided_fingerprint`] for a composite decided to be a layout.
fn static_type<S>(k: &Krate, c: &Checked<S>, names: Option<u128>) -> TokenStream {
    let mut out = Emit::new();
    let e = &mut out;
    if c.swizzle.is_some() {
        e.path(k, "Swizzled");
        e.punct('<');
    }
    // The alias of `Static<F, Spec<..>>` open in the numbers (`layout_core::interned`).
    let alias = interned::static_spec(c.domain, c.codomain, c.layout.is_broadcast(), c.index);
    e.interned(k, &alias);
    e.punct('<');
    form_into(e, k, c.layout.shape(), c.layout.stride());
    e.punct(',');
    size_into(e, k, c.layout.size());
    e.punct(',');
    tile_into(e, k, c.domain_tile.as_ref());
    e.punct(',');
    tile_into(e, k, c.codomain_tile.as_ref());
    if let Some(h) = names {
        e.punct(',');
        e.uint(h);
    }
    e.punct('>');
    swizzle_params(e, c);
    out.finish()
}

/// `Size<n>`, by its alias where there is one.
fn size_into(e: &mut Emit, k: &Krate, n: i64) {
    if let Some(alias) = interned::size(n) {
        e.interned(k, &alias);
    } else {
        e.path(k, "Size");
        e.punct('<');
        e.int(n);
        e.punct('>');
    }
}

/// The parameters of `Swizzled<L, ..>` after `L`, and its closing `>`, when `c` is swizzled.
fn swizzle_params<S>(e: &mut Emit, c: &Checked<S>) {
    if let Some(s) = c.swizzle {
        // The exact range (checked by `check_decl`, which reported an undecided one; the
        // bound then only keeps the value well-typed next to that error).
        let (min, max) = c.offset_range;
        for n in [
            i64::from(s.bits()),
            i64::from(s.src()),
            i64::from(s.dst()),
            min,
            max,
        ] {
            e.punct(',');
            e.int(n);
        }
        e.punct('>');
    }
}

/// `Spec`'s `NAMES` parameter: `None` (the default, 0) when no top-level mode has a name, else
/// a non-zero [`Fnv128`] fingerprint of the names in the written order (an unnamed mode and
/// the end of each name are separate bytes that no name contains), so that two declarations that
/// differ only in names have different types.
fn names_fingerprint(names: &[Option<String>]) -> Option<u128> {
    use std::hash::Hasher;
    if names.iter().all(Option::is_none) {
        return None;
    }
    let mut h = Fnv128::new();
    for n in names {
        match n {
            Some(n) => {
                h.write(n.as_bytes());
                h.write_u8(0xff);
            }
            None => h.write_u8(0xfe),
        }
    }
    Some(h.0.max(1))
}

/// `Spec`'s `NAMES` for a composite `m` decided to be a layout (in the index type `i`): its
/// [`program_fingerprint`], never 0 (the default, a layout without names), so that two maps
/// decided to be the same layout — their domains named or nested otherwise — have different
/// types, and an expression whose definition of an item (written by hand, or of another item
/// shadowing it) differs from the item's own fails to compile at the item's path.
pub(crate) fn decided_fingerprint(m: &Map, i: IntType) -> u128 {
    program_fingerprint(m, i).max(1)
}

/// Whether stores through the map are refused: a broadcast anywhere on its left chain.
fn read_only(m: &Map) -> bool {
    match m {
        Map::Layout(a) => a.layout().is_broadcast(),
        Map::Swizzled { inner, .. } | Map::Restricted { inner, .. } => read_only(inner),
        Map::Composite(c) => read_only(&c.left()),
    }
}

/// The typed value of an evaluated algebra expression (spec: Typed surface): a `Static` layout when the
/// result is a layout (an operation's result, or a composite decided to be one, Theorem 1), a
/// swizzled `Static` when it is a swizzled layout, and otherwise a generated type whose
/// `offset` is the emitted program (spec: Code emission). A run-time `restrict` value is a field of that
/// type; its constant part is computed once when the value is built.
pub fn typed_map(
    k: &Krate,
    map: &Map,
    index: IntType,
    runtime: &[(usize, TokenStream)],
    algebra: &str,
) -> Result<TokenStream, Error> {
    if runtime.is_empty() {
        return typed_static(k, map, index, algebra, &quote!(__LayoutExpr)).map(|e| e.value(k));
    }
    // The values are evaluated once each, in the order written (which is the order the
    // evaluator met them), into locals that the entries, sorted, then take.
    let written: Vec<(usize, TokenStream)> = runtime
        .iter()
        .enumerate()
        .map(|(i, (e, _))| {
            let name = Ident::new(&format!("__w{i}"), proc_macro2::Span::call_site());
            (*e, quote!(#name))
        })
        .collect();
    let evaluate: Vec<TokenStream> = runtime
        .iter()
        .zip(&written)
        .map(|((_, v), (_, name))| quote!(let #name = #v;))
        .collect();
    let mut entries: Vec<(usize, &TokenStream)> = written.iter().map(|(e, v)| (*e, v)).collect();
    entries.sort_by_key(|(e, _)| *e);
    // Decide every slice at compile time (spec: Restriction): equal layouts → constant + that layout.
    // When the whole map is a layout, every slice is a constant plus the same layout (the
    // free coordinates' part, by separability): one slice decides them all. Otherwise every
    // combination of the run-time entries' values is a slice, up to `SLICES_LIMIT` of them;
    // past it the full program runs.
    let full = emit(map, false)?;
    let sizes: Vec<i64> = entries.iter().map(|(e, _)| entry_size(map, *e)).collect();
    let count = if full.decision.is_layout() {
        Some(1)
    } else {
        sizes
            .iter()
            .try_fold(1i64, |a, &n| a.checked_mul(n))
            .filter(|&n| entries.len() == 1 || n <= SLICES_LIMIT)
    };
    let mut common: Option<Program> = None;
    let mut agree = count.is_some();
    for v in 0..count.unwrap_or(0) {
        // The values of the run-time entries at combination `v` (the last fastest).
        let mut rest = v;
        let mut pairs = vec![(0usize, 0i64); entries.len()];
        for ((slot, (e, _)), &n) in pairs.iter_mut().zip(&entries).zip(&sizes).rev() {
            *slot = (*e, rest.checked_rem(n).unwrap_or(0));
            rest = rest.checked_div(n).unwrap_or(0);
        }
        let slice = map.restrict(&pairs)?;
        let d = decide(&slice, false)?;
        match layout_form(&Decision { constant: 0, ..d }) {
            Some(p) if common.as_ref().is_none_or(|c| *c == p) => common = Some(p),
            _ => {
                agree = false;
                break;
            }
        }
    }
    let range = decided_range(map, &full.decision);
    let full = full.program;
    generated(
        k,
        map,
        index,
        if agree {
            common.as_ref().unwrap_or(&full)
        } else {
            &full
        },
        range,
        Ok(Runtime {
            entries,
            evaluate,
            agree,
            full: &full,
        }),
    )
    .map(|e| e.value(k))
}

/// What the expansion emits for a value: its type, and the definitions it needs at item level
/// (a generated value's unit struct), or (for a run-time `restrict`) an expression of its own.
pub enum Emitted {
    /// A type with a `New` constant, after the items that define it.
    Type {
        /// Items: the unit struct of a generated value, then its `Program` impl; else none.
        defs: Vec<TokenStream>,
        /// The value's type.
        ty: TokenStream,
    },
    /// An expression (a block defining its own type).
    Value(TokenStream),
}

impl Emitted {
    /// The value as an expression.
    pub fn value(self, k: &Krate) -> TokenStream {
        match self {
            Emitted::Type { defs, ty } if defs.is_empty() => {
                quote!(<#ty as #k::__private::New>::NEW)
            }
            Emitted::Type { defs, ty } => {
                quote!({ #(#defs)* <#ty as #k::__private::New>::NEW })
            }
            Emitted::Value(v) => v,
        }
    }
}

/// The typed value of an evaluated algebra expression without a run-time `restrict` (see
/// [`typed_map`]): a `Static` or swizzled `Static` type, or a `Generated` one whose program is
/// carried by a unit struct named `unit`, defined in `defs`.
pub fn typed_static(
    k: &Krate,
    map: &Map,
    index: IntType,
    algebra: &str,
    unit: &TokenStream,
) -> Result<Emitted, Error> {
    let checked = |layout: Layout,
                   swizzle: Option<layout_core::Swizzle>,
                   offset_range: (i64, i64)| Checked::<()> {
        domain_tile: map.domain_tile().map(<[i64]>::to_vec),
        codomain_tile: if swizzle.is_some() {
            None
        } else {
            map.codomain_tile().map(<[i64]>::to_vec)
        },
        layout,
        domain: map.domain(),
        codomain: if map.is_swizzled() {
            Space::Physical
        } else {
            map.codomain()
        },
        swizzle,
        index,
        runtime: Vec::new(),
        offset_range,
        operands: Vec::new(),
    };
    match map {
        Map::Layout(a) => {
            typed_limits(a.layout().shape())?;
            let range = a.layout().span();
            return Ok(Emitted::Type {
                defs: Vec::new(),
                ty: static_type(
                    k,
                    &checked(a.layout().clone(), None, range),
                    names_fingerprint(a.layout().names()),
                ),
            });
        }
        Map::Swizzled { swizzle, inner } => {
            if let Map::Layout(a) = inner.as_ref() {
                typed_limits(a.layout().shape())?;
                // An undecided range is an error here (the type carries the exact one).
                let range = map.offset_range()?;
                let c = checked(a.layout().clone(), Some(*swizzle), range);
                return Ok(Emitted::Type {
                    defs: Vec::new(),
                    ty: static_type(k, &c, names_fingerprint(c.layout.names())),
                });
            }
        }
        _ => {}
    }
    if !map.is_swizzled() && !map.is_restricted() {
        let d = decide(map, false)?;
        if let Some(l) = decided_layout(&map.domain_shape(), &d) {
            let range = l.span();
            // The layout's form keeps neither the names of the map's domain nor its tree (a
            // leaf the coarsest layout cuts reads as a nested mode), which an expression
            // naming the item reads off the item's definition: the map's fingerprint in
            // `NAMES` makes the type of another definition of the same layout another type.
            return Ok(Emitted::Type {
                defs: Vec::new(),
                ty: static_type(
                    k,
                    &checked(l, None, range),
                    Some(decided_fingerprint(map, index)),
                ),
            });
        }
    }
    // A swizzled composite is decided by tabulating it (a swizzle has no symbolic
    // decision); a witness that it is not a layout spares that: `emit` would then take
    // the program as written, and no decided range.
    if map.is_swizzled() && !map.is_restricted() && not_a_layout(map) {
        return generated(
            k,
            map,
            index,
            &written(map, false),
            None,
            Err((algebra, unit)),
        );
    }
    let e = emit(map, false)?;
    let range = decided_range(map, &e.decision);
    generated(k, map, index, &e.program, range, Err((algebra, unit)))
}

/// Whether a few values of `map` show that `map − map(0)` is not a layout of its domain
/// leaves, so that [`decide`] would find it not to be one (spec: Theorem 1) — without
/// tabulating it. A layout is separable: for two leaves `i ≠ j` and values `a`, `b` of them
/// (the others at 0), `f(a·eᵢ + b·eⱼ) − f(0) = (f(a·eᵢ) − f(0)) + (f(b·eⱼ) − f(0))`. The
/// values tried are the powers of two below each leaf's size and its last value, where a swizzle's
/// bits meet. `false` (decide it) when none breaks that, when the map is past [`DECIDE_LIMIT`]
/// (where `decide` reports its error), or when a value or a difference cannot be computed.
fn not_a_layout(map: &Map) -> bool {
    if map.size() > layout_core::DECIDE_LIMIT {
        return false;
    }
    let sizes: Vec<i64> = map.domain_shape().leaves().into_iter().copied().collect();
    // The weight of each leaf in the flat index (last fastest); the product is the size,
    // within the limit, so no weight overflows.
    let mut weights = vec![0i64; sizes.len()];
    let mut w = 1i64;
    for (slot, &n) in weights.iter_mut().zip(&sizes).rev() {
        *slot = w;
        w = w.saturating_mul(n);
    }
    let f = |flat: i64| map.eval_index(flat).ok();
    let Some(base) = f(0) else { return false };
    // Per leaf: the values tried and `f(a·eᵢ) − f(0)` at each.
    let mut samples: Vec<Vec<(i64, i64)>> = Vec::with_capacity(sizes.len());
    for (&n, &wt) in sizes.iter().zip(&weights) {
        let mut vals: Vec<i64> = core::iter::successors(Some(1i64), |&a| a.checked_mul(2))
            .take_while(|&a| a < n)
            .collect();
        let last = n.saturating_sub(1);
        if last > 0 && vals.last() != Some(&last) {
            vals.push(last);
        }
        let mut leaf = Vec::with_capacity(vals.len());
        for a in vals {
            let Some(v) = a.checked_mul(wt).and_then(f) else {
                return false;
            };
            let Some(d) = v.checked_sub(base) else {
                return false;
            };
            leaf.push((a.saturating_mul(wt), d));
        }
        samples.push(leaf);
    }
    for (i, si) in samples.iter().enumerate() {
        for sj in samples.iter().skip(i.saturating_add(1)) {
            for &(fa, da) in si {
                for &(fb, db) in sj {
                    let (Some(v), Some(sum)) = (f(fa.saturating_add(fb)), da.checked_add(db))
                    else {
                        return false;
                    };
                    if v.checked_sub(base) != Some(sum) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The exact offset range of a map decided to be a constant plus a layout, from the layout's
/// strides (no enumeration); `None` when it is not one or the range leaves `i64`.
fn decided_range(map: &Map, d: &Decision) -> Option<(i64, i64)> {
    let layout = Decision {
        constant: 0,
        ..d.clone()
    };
    let (min, max) = layout.coarsest_layout(&map.domain_shape())?.span();
    Some((min.checked_add(d.constant)?, max.checked_add(d.constant)?))
}

/// The product of a shape's sizes: a domain of a checked map, so it fits `i64` (saturating
/// instead of wrapping, were it ever not to).
fn checked_product(t: &Tree<i64>) -> i64 {
    t.leaves()
        .into_iter()
        .try_fold(1i64, |a, &n| a.checked_mul(n))
        .unwrap_or(i64::MAX)
}

/// The most combinations of run-time values whose slices are decided one by one while
/// compiling when a map fixes several entries at run time.
const SLICES_LIMIT: i64 = 1 << 12;

/// The run-time part of a restriction: the fixed top-level entries of the map with their
/// values (sorted by entry), whether every slice agrees, and the full program.
#[derive(Clone)]
struct Runtime<'a> {
    /// The run-time entries, sorted, each with the local that holds its value.
    entries: Vec<(usize, &'a TokenStream)>,
    /// The statements that evaluate the values into those locals, in the order written.
    evaluate: Vec<TokenStream>,
    agree: bool,
    full: &'a Program,
}

impl Runtime<'_> {
    /// The position of `entry` among the run-time entries, if it is one.
    fn position(&self, entry: usize) -> Option<usize> {
        self.entries.iter().position(|(e, _)| *e == entry)
    }
}

fn entry_size(map: &Map, entry: usize) -> i64 {
    map.domain_entry_sizes().get(entry).copied().unwrap_or(1)
}

/// The decided layout of a composite, within the typed API's limits (8 entries a tuple, 32
/// leaves).
fn decided_layout(shape: &Tree<i64>, d: &Decision) -> Option<Layout> {
    let l = d.coarsest_layout(shape)?;
    typed_limits(l.shape()).is_ok().then_some(l)
}

/// The integer type the emitted `eval` computes in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Arith {
    /// `isize`, the offset converted to the index type at the end.
    Wide,
    /// `i32` (divisions and remainders of the non-negative values they take, in `u32`).
    I32,
    /// `u32`.
    U32,
}

impl Arith {
    /// The 32-bit computation for an `i32` or `u32` index type when `fits` (the proof that
    /// every intermediate fits, [`Arith::prove`]) holds for it; else the wide one.
    fn choose(index: IntType, fits: impl Fn(Arith) -> bool) -> Arith {
        let narrow = match index {
            IntType::I32 => Arith::I32,
            IntType::U32 => Arith::U32,
            IntType::I64 | IntType::Usize => return Arith::Wide,
        };
        if fits(narrow) { narrow } else { Arith::Wide }
    }

    fn ty(self) -> TokenStream {
        match self {
            Arith::Wide => quote!(isize),
            Arith::I32 => quote!(i32),
            Arith::U32 => quote!(u32),
        }
    }

    /// A constant of the program: unsuffixed for `isize` (as always), suffixed for the narrow
    /// types, where [`Arith::prove`] checked that it fits.
    fn literal(self, v: i64) -> Literal {
        match (self, i32::try_from(v), u32::try_from(v)) {
            (Arith::I32, Ok(v), _) => Literal::i32_suffixed(v),
            (Arith::U32, _, Ok(v)) => Literal::u32_suffixed(v),
            _ => Literal::i64_unsuffixed(v),
        }
    }

    /// A divisor or modulus: `u32` for the narrow types (the operation is unsigned).
    fn divisor(self, v: i64) -> Literal {
        match (self, u32::try_from(v)) {
            (Arith::I32 | Arith::U32, Ok(v)) => Literal::u32_suffixed(v),
            _ => Literal::i64_unsuffixed(v),
        }
    }

    /// A division or remainder of `v`: for `i32`, of `v as u32` (non-negative, proved), cast
    /// back; otherwise in the type itself.
    fn unsigned(self, v: &TokenStream, op: impl Fn(TokenStream) -> TokenStream) -> TokenStream {
        match self {
            Arith::I32 => {
                let r = op(quote!((#v as u32)));
                quote!((#r as i32))
            }
            Arith::Wide | Arith::U32 => op(v.clone()),
        }
    }

    /// The range of the result of `p` when every intermediate of its evaluation in this type
    /// lies in the type's range: each coordinate it reads (`coords`: their ranges), constant,
    /// coefficient, term, product and partial sum (in emission order), each division's and
    /// remainder's argument non-negative with a divisor that fits, and each swizzle's argument
    /// non-negative with its shifted field and result in range. Interval arithmetic in `i128`,
    /// exact for every bound here; `None` when anything may leave the range.
    fn prove(self, p: &Program, coords: &[(i64, i64)]) -> Option<(i64, i64)> {
        let (lo, hi) = match self {
            Arith::Wide => return None,
            Arith::I32 => IntType::I32.range(),
            Arith::U32 => IntType::U32.range(),
        };
        let (lo, hi) = (i128::from(lo), i128::from(hi));
        let fits = |(a, b): (i128, i128)| (lo <= a && b <= hi).then_some((a, b));
        let var = |v: &Var, temps: &[(i128, i128)]| match v {
            Var::Coord(i) => coords
                .get(*i)
                .and_then(|&(a, b)| fits((i128::from(a), i128::from(b)))),
            Var::Temp(i) => temps.get(*i).copied(),
        };
        let divisor = |w: i64| fits((i128::from(w), i128::from(w))).filter(|&(w, _)| w > 0);
        let sum = |s: &Sum, temps: &[(i128, i128)]| -> Option<(i128, i128)> {
            let c = i128::from(s.constant);
            let mut acc = fits((c, c))?;
            for (coef, t) in &s.terms {
                let k = fits((i128::from(*coef), i128::from(*coef)))?.0;
                let (x, y) = match *t {
                    Term::Var(v) => var(&v, temps)?,
                    Term::Div(v, w) => {
                        let ((x, y), (w, _)) = (var(&v, temps)?, divisor(w)?);
                        (x >= 0).then_some((x.checked_div(w)?, y.checked_div(w)?))?
                    }
                    Term::Mod(v, m) => {
                        let ((x, y), (m, _)) = (var(&v, temps)?, divisor(m)?);
                        let r = if y < m {
                            (x, y)
                        } else {
                            (0, m.checked_sub(1)?)
                        };
                        (x >= 0).then_some(r)?
                    }
                    Term::DivMod(v, w, m) => {
                        let ((x, y), (w, _), (m, _)) = (var(&v, temps)?, divisor(w)?, divisor(m)?);
                        let (x, y) = (x >= 0).then_some((x.checked_div(w)?, y.checked_div(w)?))?;
                        if y < m {
                            (x, y)
                        } else {
                            (0, m.checked_sub(1)?)
                        }
                    }
                    Term::Swizzle { x, src, mask, dst } => {
                        let (a, b) = var(&x, temps)?;
                        let field = i128::from(mask).checked_shl(dst)?;
                        fits((field, field))?;
                        if a < 0 || mask < 0 || src >= 32 || dst >= 32 {
                            return None;
                        }
                        // The XOR changes bits below the highest bit of `max(b, field)` only.
                        let top = b.max(field);
                        let bits = 128u32.checked_sub(top.leading_zeros())?;
                        let bound = 1i128.checked_shl(bits)?.checked_sub(1)?;
                        (0, bound)
                    }
                };
                fits((x, y))?;
                let (p, q) = (k.checked_mul(x)?, k.checked_mul(y)?);
                let term = fits((p.min(q), p.max(q)))?;
                acc = fits((acc.0.checked_add(term.0)?, acc.1.checked_add(term.1)?))?;
            }
            Some(acc)
        };
        let mut temps = Vec::with_capacity(p.lets.len());
        for s in &p.lets {
            let r = sum(s, &temps)?;
            temps.push(r);
        }
        let (a, b) = sum(&p.result, &temps)?;
        Some((i64::try_from(a).ok()?, i64::try_from(b).ok()?))
    }
}

/// Rust tokens of a program over leaf coordinates `l[first + i]`, in `a`'s type (`isize`, or a
/// 32-bit type that [`Arith::prove`] admitted for this program). A variable the program reads
/// but does not have (a coordinate past `coords`, a temporary not yet bound) is an error
/// ([`Error::ProgramUndefined`]), never a silent 0.
fn program_tokens(p: &Program, coords: &[TokenStream], a: Arith) -> Result<TokenStream, Error> {
    let ty = a.ty();
    let var = |v: &Var, bound: usize| match v {
        Var::Coord(i) => coords.get(*i).cloned().ok_or(Error::ProgramUndefined {
            variable: *v,
            defined: coords.len(),
        }),
        Var::Temp(i) if *i < bound => {
            let t = quote::format_ident!("t{}", *i);
            Ok(quote!(#t))
        }
        Var::Temp(_) => Err(Error::ProgramUndefined {
            variable: *v,
            defined: bound,
        }),
    };
    let sum = |s: &Sum, bound: usize| -> Result<TokenStream, Error> {
        let c = a.literal(s.constant);
        let mut terms = Vec::with_capacity(s.terms.len());
        for (coef, t) in &s.terms {
            let body = match t {
                Term::Var(v) => var(v, bound)?,
                Term::Div(v, w) => {
                    let (v, w) = (var(v, bound)?, a.divisor(*w));
                    a.unsigned(&v, |v| quote!((#v / #w)))
                }
                Term::Mod(v, m) => {
                    let (v, m) = (var(v, bound)?, a.divisor(*m));
                    a.unsigned(&v, |v| quote!((#v % #m)))
                }
                Term::DivMod(v, w, m) => {
                    let (v, w, m) = (var(v, bound)?, a.divisor(*w), a.divisor(*m));
                    a.unsigned(&v, |v| quote!(((#v / #w) % #m)))
                }
                Term::Swizzle { x, src, mask, dst } => {
                    let x = var(x, bound)?;
                    let (src, mask, dst) = (
                        Literal::u32_unsuffixed(*src),
                        a.literal(*mask),
                        Literal::u32_unsuffixed(*dst),
                    );
                    quote!((#x ^ (((#x >> #src) & #mask) << #dst)))
                }
            };
            let coef = a.literal(*coef);
            terms.push(quote!(+ (#coef as #ty) * #body));
        }
        Ok(quote!((#c as #ty) #(#terms)*))
    };
    let mut lets = Vec::with_capacity(p.lets.len());
    for (i, s) in p.lets.iter().enumerate() {
        let t = quote::format_ident!("t{}", i);
        let v = sum(s, i)?;
        lets.push(quote!(let #t: #ty = #v;));
    }
    let r = sum(&p.result, p.lets.len())?;
    Ok(quote!({ #(#lets)* #r }))
}

/// Rust code that rebuilds the map at run time with `layout-core` (for `to_map`).
fn map_builder(k: &Krate, m: &Map) -> TokenStream {
    let sp = |s: Space| match s {
        Space::Logical => quote!(#k::core_algebra::Space::Logical),
        Space::ThreadValue => quote!(#k::core_algebra::Space::ThreadValue),
        Space::Physical => quote!(#k::core_algebra::Space::Physical),
    };
    let tile = |t: Option<&[i64]>| match t {
        Some(v) => quote!(::core::option::Option::Some(#k::__private::vec![#(#v),*])),
        None => quote!(::core::option::Option::None),
    };
    match m {
        Map::Layout(a) => {
            // The layout's own trees, names and spaces: nothing is printed and read again.
            let l = a.layout();
            let shape = tree_tokens(k, l.shape(), &|n: &i64| quote!(#n));
            let stride = tree_tokens(k, l.stride(), &|s: &Stride| match s {
                Stride::Int(d) => quote!(#k::core_algebra::Stride::Int(#d)),
                Stride::Broadcast => quote!(#k::core_algebra::Stride::Broadcast),
            });
            let layout = quote!(#k::core_algebra::Layout::new(#shape, #stride)?);
            let layout = if l.names().iter().any(Option::is_some) {
                let names = l.names().iter().map(|n| match n {
                    Some(n) => {
                        quote!(::core::option::Option::Some(::core::convert::From::from(#n)))
                    }
                    None => quote!(::core::option::Option::None),
                });
                quote!(#layout.with_names(#k::__private::vec![#(#names),*])?)
            } else {
                layout
            };
            let (d, c) = (sp(m.domain()), sp(m.codomain()));
            let (dt, ct) = (tile(m.domain_tile()), tile(m.codomain_tile()));
            quote!(#k::core_algebra::Map::from(
                #k::core_algebra::Annotated::new(#layout, #d, #c)?.with_tiles(#dt, #ct)?
            ))
        }
        Map::Swizzled { swizzle, inner } => {
            let i = map_builder(k, inner);
            let (b, s, d) = (swizzle.bits(), swizzle.src(), swizzle.dst());
            quote!(#i.swizzle(#k::core_algebra::Swizzle::new(#b, #s, #d)?)?)
        }
        Map::Composite(c) => {
            let (l, r) = (map_builder(k, &c.left()), map_builder(k, &c.right()));
            quote!(#k::core_algebra::compose(&#l, &#r)?)
        }
        Map::Restricted { fixed, inner } => {
            let i = map_builder(k, inner);
            let f = fixed.iter().map(|(e, v)| quote!((#e, #v)));
            quote!(#i.restrict(&[#(#f),*])?)
        }
    }
}

/// Rust code that builds `t` as a `layout_core::Tree`, each leaf written by `leaf`.
fn tree_tokens<T>(k: &Krate, t: &Tree<T>, leaf: &dyn Fn(&T) -> TokenStream) -> TokenStream {
    match t {
        Tree::Leaf(x) => {
            let x = leaf(x);
            quote!(#k::core_algebra::Tree::Leaf(#x))
        }
        Tree::Tuple(v) => {
            let parts = v.iter().map(|x| tree_tokens(k, x, leaf));
            quote!(#k::core_algebra::Tree::Tuple(#k::__private::vec![#(#parts),*]))
        }
    }
}

/// A readable description of a map, for `Display`.
fn describe(m: &Map) -> String {
    match m {
        Map::Layout(a) => a.layout().to_string(),
        Map::Swizzled { swizzle, inner } => format!("{swizzle} ∘ {}", describe(inner)),
        Map::Composite(c) => format!("[{}] ∘ [{}]", describe(&c.left()), describe(&c.right())),
        Map::Restricted { fixed, inner } => {
            let f: Vec<String> = fixed.iter().map(|(e, v)| format!("{e} = {v}")).collect();
            format!("restrict({}, {})", describe(inner), f.join(", "))
        }
    }
}

/// The type the generated `eval` computes in (and whether it is a 32-bit one): the index type
/// when it is `i32` or `u32` and [`Arith::prove`] shows that every intermediate fits, else
/// `isize`. The coordinates of `shape`'s leaves range over `[0, size)`. With a run-time
/// `restrict` (`runtime`: entry, value, whether every slice agrees, the full program), the
/// fixed entry's leaves range over their sizes too; when the slices agree, the base (computed
/// once, in `isize`) ranges over the full program's values with the free leaves at 0, and the
/// sum of base and slice must fit as well.
fn generated_arith(
    map: &Map,
    index: IntType,
    shape: &Tree<i64>,
    program: &Program,
    runtime: Option<&Runtime<'_>>,
) -> (Arith, bool) {
    let span = |n: &i64| (0, n.saturating_sub(1));
    let free: Vec<(i64, i64)> = shape.leaves().into_iter().map(span).collect();
    let arith = Arith::choose(index, |a| match runtime {
        None => a.prove(program, &free).is_some(),
        Some(rt) => {
            let (agree, full) = (rt.agree, rt.full);
            // The full map's leaves: the fixed entries', then the free ones (read in the order
            // of `free`; at 0 for the base when the slices agree).
            let mut rest = free.iter();
            let mut whole = Vec::new();
            for (e, t) in map.domain_entries().iter().enumerate() {
                let fixed = rt.position(e).is_some();
                for n in t.leaves() {
                    whole.push(match (fixed, agree) {
                        (true, _) => span(n),
                        (false, true) => (0, 0),
                        (false, false) => rest.next().copied().unwrap_or((0, 0)),
                    });
                }
            }
            let (lo, hi) = index.range();
            match (a.prove(full, &whole), agree) {
                (Some(_), false) => true,
                (Some((a0, a1)), true) => a.prove(program, &free).is_some_and(|(b0, b1)| {
                    matches!(
                        (a0.checked_add(b0), a1.checked_add(b1)),
                        (Some(x), Some(y)) if lo <= x && y <= hi
                    )
                }),
                (None, _) => false,
            }
        }
    });
    (arith, arith != Arith::Wide)
}

/// A generated type whose `offset` runs `program` over the domain's leaf coordinates: without
/// a run-time `restrict` (`runtime` is `Err` of the expression's text, which `to_map`
/// evaluates again), the library's `Generated` over a unit struct that carries the program;
/// with one, `map` is the unrestricted map and `entry` the fixed top-level entry, and the value
/// is a struct of its own that holds the value.
fn generated(
    k: &Krate,
    map: &Map,
    index: IntType,
    program: &Program,
    range: Option<(i64, i64)>,
    runtime: Result<Runtime<'_>, (&str, &TokenStream)>,
) -> Result<Emitted, Error> {
    let full_shape = map.domain_shape();
    let entries = map.domain_entries();
    // The domain of the value: the map's, less the run-time restricted entries.
    let shape = match &runtime {
        Err(_) => full_shape.clone(),
        Ok(rt) => {
            let free: Vec<Tree<i64>> = entries
                .iter()
                .enumerate()
                .filter(|(e, _)| rt.position(*e).is_none())
                .map(|(_, t)| t.clone())
                .collect();
            match free.len() {
                0 => Tree::Leaf(1),
                1 => free.into_iter().next().unwrap_or(Tree::Leaf(1)),
                _ => Tree::Tuple(free),
            }
        }
    };
    typed_limits(&shape)?;
    let size: i64 = checked_product(&shape);
    let form = Layout::new(shape.clone(), shape.map(&mut |_| Stride::Int(1)))
        .map_or(quote!(#k::Dim<1, 0>), |l| form(k, l.shape(), l.stride()));
    let n = Literal::i64_unsuffixed(size);
    let dom = space(k, map.domain());
    let cod = if map.is_swizzled() {
        quote!(#k::SwizzledPhysicalSpace)
    } else {
        space(k, map.codomain())
    };
    let acc = if read_only(map) {
        quote!(#k::ReadOnly)
    } else {
        quote!(#k::Exclusive)
    };
    let dt = tile(
        k,
        if runtime.is_ok() {
            None
        } else {
            map.domain_tile_shape()
        }
        .as_ref(),
    );
    // The codomain keeps its tile (a swizzled map's codomain is physical and has none).
    let ct = tile(
        k,
        if map.is_swizzled() {
            None
        } else {
            map.codomain_tile().map(<[i64]>::to_vec)
        }
        .as_ref(),
    );
    let idx = index_type(index);
    let (min, max) = match range {
        Some(r) => r,
        None => map.offset_range()?,
    };
    let (arith, narrow) = generated_arith(map, index, &shape, program, runtime.as_ref().ok());
    let cty = arith.ty();
    let coords: Vec<TokenStream> = (0..shape.leaves().len())
        .map(|i| quote!((l[#i] as #cty)))
        .collect();
    let text = describe(map);
    let (fields, init, body, restrict) = match runtime {
        Err((algebra, unit)) => {
            // The library's type, generic over a unit struct that carries what is this map's
            // own: the range, the notation, the text and the program.
            let body = program_tokens(program, &coords, arith)?;
            let (min, max) = (Literal::i64_unsuffixed(min), Literal::i64_unsuffixed(max));
            return Ok(Emitted::Type {
                defs: vec![
                    quote!(struct #unit;),
                    quote! {
                    impl #k::__private::Program<#idx> for #unit {
                        const MIN_OFFSET: i64 = #min;
                        const MAX_OFFSET: i64 = #max;
                        const NOTATION: &'static str = #text;
                        const ALGEBRA: &'static str = #algebra;
                        const NARROW: bool = #narrow;
                        #[inline(always)]
                        #[allow(unused_parens, clippy::all)]
                        fn eval(l: &[usize; #k::MAX_LEAVES]) -> #idx {
                            let _ = l;
                            let v: #cty = #body;
                            v as #idx
                        }
                    }
                    },
                ],
                ty: quote!(#k::Generated<#form, #k::Spec<#dom, #cod, #k::Size<#n>, #acc, #dt, #ct, #idx>, #unit>),
            });
        }
        Ok(rt) => {
            let (agree, full) = (rt.agree, rt.full);
            // The full map's leaves: each fixed entry's from its value `t[j]` (unflattened,
            // last fastest), the others from `l` (or 0, for the constant part).
            let full_coords = |free_leaf: &dyn Fn(usize) -> TokenStream| {
                let mut out = Vec::new();
                let mut free = 0usize;
                for (e, t) in entries.iter().enumerate() {
                    let leaves: Vec<i64> = t.leaves().into_iter().copied().collect();
                    if let Some(j) = rt.position(e) {
                        let mut w = 1i64;
                        let mut parts = Vec::new();
                        for &sz in leaves.iter().rev() {
                            let (wl, szl) =
                                (Literal::i64_unsuffixed(w), Literal::i64_unsuffixed(sz));
                            parts.push(quote!(((((t[#j] as usize) / #wl) % #szl) as #cty)));
                            // The product of the entry's leaves is its size, which fits.
                            w = w.saturating_mul(sz);
                        }
                        parts.reverse();
                        out.extend(parts);
                    } else {
                        for _ in &leaves {
                            out.push(free_leaf(free));
                            free = free.saturating_add(1);
                        }
                    }
                }
                out
            };
            let pairs = rt
                .entries
                .iter()
                .enumerate()
                .map(|(j, (e, _))| quote!((#e, self.t[#j] as i64)));
            let restrict = quote!(__m.restrict(&[#(#pairs),*])?);
            // Each value is a coordinate of its entry: checked like a slice index, in every
            // profile, once when the value is built (never in `offset`): a value of any integer
            // type outside `[0, size)` panics with the value and the entry's range
            // (`Error::RuntimeValueOutOfRange`); a non-integer type is a compile error.
            let n = rt.entries.len();
            let evaluate = &rt.evaluate;
            let mut take = quote!(#(#evaluate)*);
            let mut names = Vec::new();
            for (j, (entry, value)) in rt.entries.iter().enumerate() {
                let esize = Literal::i64_unsuffixed(entry_size(map, *entry));
                let name = Ident::new(&format!("__t{j}"), proc_macro2::Span::call_site());
                take.extend([quote!(
                    let __value = #value;
                    let #name: isize = match ::core::convert::TryInto::<isize>::try_into(__value) {
                        ::core::result::Result::Ok(t) if (0..#esize).contains(&t) => t,
                        _ => {
                            // The value as sign and magnitude (every integer type fits one of
                            // `i128`, `u128`), worded by the core's table.
                            let (negative, magnitude) =
                                match ::core::convert::TryInto::<i128>::try_into(__value) {
                                    ::core::result::Result::Ok(v) => (v < 0, v.unsigned_abs()),
                                    ::core::result::Result::Err(_) => (
                                        false,
                                        ::core::convert::TryInto::<u128>::try_into(__value)
                                            .unwrap_or(u128::MAX),
                                    ),
                                };
                            ::core::panic!(
                                "{}",
                                #k::core_algebra::Error::RuntimeValueOutOfRange {
                                    negative,
                                    magnitude,
                                    size: #esize,
                                }
                            )
                        }
                    };
                )]);
                names.push(name);
            }
            take.extend([quote!(let t: [isize; #n] = [#(#names),*];)]);
            if agree {
                // The base is computed once, when the value is built, in `isize`.
                let wide: Vec<TokenStream> = full_coords(&|_| quote!(0isize))
                    .into_iter()
                    .map(|c| quote!((#c as isize)))
                    .collect();
                let base = program_tokens(full, &wide, Arith::Wide)?;
                let restricted = program_tokens(program, &coords, arith)?;
                (
                    quote!(t: [isize; #n], base: isize,),
                    quote!({ #take let base: isize = #base; __LayoutExpr { t, base } }),
                    quote!((self.base as #cty) + #restricted),
                    restrict,
                )
            } else {
                let full_body =
                    program_tokens(full, &full_coords(&|i| quote!((l[#i] as #cty))), arith)?;
                (
                    quote!(t: [isize; #n],),
                    quote!({ #take __LayoutExpr { t } }),
                    quote!({ let t: [isize; #n] = self.t; #full_body }),
                    restrict,
                )
            }
        }
    };
    let build = map_builder(k, map);
    Ok(Emitted::Value(quote!({
        #[derive(Clone, Copy, Debug)]
        struct __LayoutExpr { #fields }
        impl #k::__private::Sealed for __LayoutExpr {}
        #[allow(clippy::all, unused_parens)]
        impl #k::Layout for __LayoutExpr {
            type Domain = #dom;
            type Codomain = #cod;
            type Size = #k::Size<#n>;
            type Access = #acc;
            type DomainTile = #dt;
            type CodomainTile = #ct;
            type Index = #idx;
            type Form = #form;
            const SIZE: usize = #n;
            const MIN_OFFSET: i64 = #min;
            const MAX_OFFSET: i64 = #max;
            const LINEAR: ::core::option::Option<#k::Leaves> = ::core::option::Option::None;
            const NARROW: bool = #narrow;
            #[inline(always)]
            fn offset<C: #k::Coord<Self::Form>>(&self, c: C) -> #idx {
                let mut l = [0usize; #k::MAX_LEAVES];
                c.leaves(&mut l, 0);
                self.eval(&l)
            }
            #[inline(always)]
            fn offset_index(&self, i: usize) -> #idx {
                let mut l = [0usize; #k::MAX_LEAVES];
                <#form as #k::Form>::leaves_of_index(i, &mut l, 0);
                self.eval(&l)
            }
            fn write(f: &mut ::core::fmt::Formatter<'_>, _cute: bool) -> ::core::fmt::Result {
                f.write_str(#text)
            }
            fn to_map(&self) -> ::core::result::Result<#k::core_algebra::Map, #k::core_algebra::Error> {
                let __m = #build;
                ::core::result::Result::Ok(#restrict)
            }
        }
        #[allow(clippy::all, unused_parens)]
        impl __LayoutExpr {
            #[inline(always)]
            #[allow(unused_parens, clippy::all)]
            fn eval(&self, l: &[usize; #k::MAX_LEAVES]) -> #idx {
                let _ = l;
                let v: #cty = #body;
                v as #idx
            }
        }
        #init
    })))
}

/// [`Arith::prove`] on hand-made programs: each intermediate it must check, one at a time.
#[cfg(test)]
mod arith_tests {
    use super::{Arith, Program, Sum, Term, Var};

    fn program(lets: Vec<Sum>, result: Sum, sizes: &[i64]) -> Program {
        Program {
            names: (0..sizes.len()).map(|i| format!("c{i}")).collect(),
            sizes: sizes.to_vec(),
            lets,
            result,
        }
    }

    fn sum(constant: i64, terms: Vec<(i64, Term)>) -> Sum {
        Sum { constant, terms }
    }

    const C0: Var = Var::Coord(0);
    const C1: Var = Var::Coord(1);
    const C2: Var = Var::Coord(2);

    #[test]
    fn exact_ranges_of_weighted_sums_divisions_and_remainders() {
        // t0 = 32·c0 + c1; result = 33·(t0 / 32) + (t0 mod 32), c0 < 16, c1 < 32.
        let p = program(
            vec![sum(0, vec![(32, Term::Var(C0)), (1, Term::Var(C1))])],
            sum(
                0,
                vec![
                    (33, Term::Div(Var::Temp(0), 32)),
                    (1, Term::Mod(Var::Temp(0), 32)),
                ],
            ),
            &[16, 32],
        );
        let coords = [(0, 15), (0, 31)];
        assert_eq!(Arith::I32.prove(&p, &coords), Some((0, 33 * 15 + 31)));
        assert_eq!(Arith::U32.prove(&p, &coords), Some((0, 33 * 15 + 31)));
        assert_eq!(Arith::Wide.prove(&p, &coords), None);
        // (t0 / 4) mod 8 and a negative coefficient, in i32; u32 refuses the coefficient.
        let p = program(
            vec![],
            sum(5, vec![(-3, Term::DivMod(C0, 4, 8)), (2, Term::Var(C1))]),
            &[64, 10],
        );
        let coords = [(0, 63), (0, 9)];
        assert_eq!(Arith::I32.prove(&p, &coords), Some((5 - 21, 5 + 18)));
        assert_eq!(Arith::U32.prove(&p, &coords), None);
    }

    #[test]
    fn every_intermediate_must_fit() {
        let big = 1i64 << 30;
        // A partial sum leaves i32 (2^31) although the result, at most 2^30, fits.
        let p = program(
            vec![],
            sum(
                0,
                vec![
                    (big, Term::Var(C0)),
                    (big, Term::Var(C1)),
                    (-big, Term::Var(C2)),
                ],
            ),
            &[2, 2, 1],
        );
        assert_eq!(Arith::I32.prove(&p, &[(0, 1), (0, 1), (1, 1)]), None);
        assert!(Arith::U32.prove(&p, &[(0, 1), (0, 1), (1, 1)]).is_none());
        // The same terms in an order whose partial sums fit.
        let p = program(
            vec![],
            sum(
                0,
                vec![
                    (big, Term::Var(C0)),
                    (-big, Term::Var(C2)),
                    (big, Term::Var(C1)),
                ],
            ),
            &[2, 2, 1],
        );
        assert_eq!(
            Arith::I32.prove(&p, &[(0, 1), (0, 1), (1, 1)]),
            Some((-big, big))
        );
        // A coordinate past i32, though its remainder is small: u32 only.
        let p = program(vec![], sum(0, vec![(1, Term::Mod(C0, 4))]), &[1 << 32]);
        assert_eq!(Arith::I32.prove(&p, &[(0, (1 << 32) - 1)]), None);
        assert_eq!(Arith::U32.prove(&p, &[(0, (1 << 32) - 1)]), Some((0, 3)));
        // A division of a value that may be negative.
        let p = program(
            vec![sum(-1, vec![(1, Term::Var(C0))])],
            sum(0, vec![(1, Term::Div(Var::Temp(0), 2))]),
            &[4],
        );
        assert_eq!(Arith::I32.prove(&p, &[(0, 3)]), None);
        // A product past the type: 2^16 · 2^16.
        let p = program(vec![], sum(0, vec![(1 << 16, Term::Var(C0))]), &[1 << 16]);
        assert_eq!(Arith::I32.prove(&p, &[(0, 1 << 16)]), None);
        assert_eq!(Arith::U32.prove(&p, &[(0, 1 << 16)]), None);
        assert_eq!(
            Arith::U32.prove(&p, &[(0, (1 << 16) - 1)]),
            Some((0, (1 << 32) - (1 << 16)))
        );
    }

    #[test]
    fn swizzles_fit_below_the_top_bit() {
        let swz = |src, mask, dst| Term::Swizzle {
            x: C0,
            src,
            mask,
            dst,
        };
        // Swizzle<3,3,3> on [0, 4096): the XOR stays below 2^12.
        let p = program(vec![], sum(0, vec![(1, swz(6, 7, 3))]), &[4096]);
        assert_eq!(Arith::I32.prove(&p, &[(0, 4095)]), Some((0, 4095)));
        // A field at bits 28..31 fits u32 only; a source past 32 bits is refused.
        let p = program(vec![], sum(0, vec![(1, swz(0, 15, 28))]), &[16]);
        assert_eq!(Arith::I32.prove(&p, &[(0, 15)]), None);
        assert_eq!(Arith::U32.prove(&p, &[(0, 15)]), Some((0, u32::MAX.into())));
        let p = program(vec![], sum(0, vec![(1, swz(40, 1, 0))]), &[16]);
        assert_eq!(Arith::U32.prove(&p, &[(0, 15)]), None);
    }
}

/// [`not_a_layout`] against the decision it spares: over swizzled composites of row-major,
/// column-major and padded tiles, swizzles that move bits within a leaf, across leaves, or
/// none at all (a field past the offsets), and right operands that split and permute the
/// domain, a witness is found only where enumerating every coordinate shows the map is not a
/// layout, and then `emit` takes the program as written with no decided range (what the
/// expansion emits instead).
#[cfg(test)]
mod witness_tests {
    #![allow(
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        clippy::indexing_slicing
    )]

    use super::{decided_range, not_a_layout};
    use layout_core::{Annotated, Map, Space, Swizzle, compose, emit, written};

    /// Whether `f − f(0)` is a sum of one function per leaf that is a layout of that leaf,
    /// by enumeration: separable (`f(x) − f(0) = Σ gᵢ(xᵢ)` for every `x`), and each `gᵢ`
    /// equal to a layout over some refinement of its leaf, read off greedily (the digit that
    /// starts at the first `t` where `g(t) ≠ t·g(1)`, and so on, as a mixed radix).
    fn is_layout_by_enumeration(map: &Map) -> bool {
        let sizes: Vec<i64> = map.domain_shape().leaves().into_iter().copied().collect();
        let n: i64 = sizes.iter().product();
        let values: Vec<i64> = (0..n).map(|i| map.eval_index(i).unwrap()).collect();
        let base = values[0];
        let mut weights = vec![1i64; sizes.len()];
        for i in (0..sizes.len().saturating_sub(1)).rev() {
            weights[i] = weights[i + 1] * sizes[i + 1];
        }
        let g = |i: usize, t: i64| values[(t * weights[i]) as usize] - base;
        for (x, &v) in values.iter().enumerate() {
            let sum: i64 = (0..sizes.len())
                .map(|i| g(i, (x as i64 / weights[i]) % sizes[i]))
                .sum();
            if v - base != sum {
                return false;
            }
        }
        // Each leaf: a layout of one coordinate is, for some mixed radix r₀ r₁ … (first
        // fastest), t ↦ Σ dₖ·digitₖ(t). Try every radix whose factors divide the size.
        fn radices(n: i64) -> Vec<Vec<i64>> {
            if n == 1 {
                return vec![vec![]];
            }
            let mut out = Vec::new();
            for r in 2..=n {
                if n % r == 0 {
                    for mut rest in radices(n / r) {
                        rest.insert(0, r);
                        out.push(rest);
                    }
                }
            }
            out
        }
        (0..sizes.len()).all(|i| {
            radices(sizes[i]).iter().any(|radix| {
                let mut w = 1i64;
                let strides: Vec<i64> = radix
                    .iter()
                    .map(|&r| {
                        let d = g(i, w);
                        w *= r;
                        d
                    })
                    .collect();
                (0..sizes[i]).all(|t| {
                    let (mut rest, mut acc) = (t, 0i64);
                    for (&r, &d) in radix.iter().zip(&strides) {
                        acc += (rest % r) * d;
                        rest /= r;
                    }
                    acc == g(i, t)
                })
            })
        })
    }

    /// A bijection onto `[0, n)`: leaves `sizes`, compact in the order `order` (first
    /// fastest), written in seed order.
    fn permuted(sizes: &[i64], order: &[usize]) -> String {
        let mut strides = vec![0i64; sizes.len()];
        let mut w = 1;
        for &i in order {
            strides[i] = w;
            w *= sizes[i];
        }
        let j = |v: &[i64]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("({}):({})", j(sizes), j(&strides))
    }

    #[test]
    fn a_witness_is_found_only_where_the_map_is_not_a_layout() {
        let lefts = [
            "(8,8):(8,1)",
            "(16,8):(8,1)",
            "(8,16):(1,8)",
            "(4,16):(17,1)",
            "(4):(16)",
            "(2,2,2,2):(32,8,16,1)",
        ];
        let swizzles = [
            (1, 5, 3),
            (2, 3, 0),
            (2, 4, 1),
            (1, 2, 0),
            (3, 3, 0),
            (1, 12, 0),
        ];
        // Splits of 2^k into leaves (as exponents), each under two orders.
        let splits: [&[u32]; 6] = [&[6], &[3, 3], &[1, 2, 3], &[2, 1, 1, 2], &[4, 2], &[2]];
        let (mut refuted, mut layouts, mut undecided) = (0, 0, 0);
        for l in lefts {
            let left: Map = Annotated::new(l.parse().unwrap(), Space::Logical, Space::Physical)
                .unwrap()
                .into();
            let n = left.size();
            for &(b, src, dst) in &swizzles {
                let Ok(sw) = left.clone().swizzle(Swizzle::new(b, src, dst).unwrap()) else {
                    continue;
                };
                for split in splits {
                    if split.iter().map(|&e| 1i64 << e).product::<i64>() != n {
                        continue;
                    }
                    let sizes: Vec<i64> = split.iter().map(|&e| 1i64 << e).collect();
                    let fwd: Vec<usize> = (0..sizes.len()).collect();
                    let rev: Vec<usize> = (0..sizes.len()).rev().collect();
                    for order in [fwd, rev] {
                        let r = Annotated::new(
                            permuted(&sizes, &order).parse().unwrap(),
                            Space::ThreadValue,
                            Space::Logical,
                        )
                        .unwrap();
                        let map = compose(&sw, &r.into()).unwrap();
                        let layout = is_layout_by_enumeration(&map);
                        let e = emit(&map, false).unwrap();
                        assert_eq!(e.decision.result.is_ok(), layout, "decide on {map:?}");
                        if not_a_layout(&map) {
                            assert!(!layout, "a witness against the layout {map:?}");
                            // What the expansion takes instead of `emit`'s result.
                            assert_eq!(e.program, written(&map, false));
                            assert_eq!(decided_range(&map, &e.decision), None);
                            refuted += 1;
                        } else if layout {
                            layouts += 1;
                        } else {
                            undecided += 1;
                        }
                    }
                }
            }
        }
        // Every outcome occurs: the class reaches both sides and the fallback.
        assert!(
            refuted > 0 && layouts > 0 && undecided > 0,
            "{refuted} {layouts} {undecided}"
        );
    }
}

#[cfg(test)]
mod definition_rules_tests {
    use super::*;

    /// The rules made tree by tree are token for token (spacing included) those that `quote!`
    /// writes from their text, for declarations of every kind of tree.
    #[test]
    fn rules_are_quotes() {
        for decl in [
            "",
            "(4,8):(32,1), logical -> physical",
            "cute (4):(1), logical -> physical, index = i32",
            "{ $x } [a] 'a \"s\" 1.5 ::x => $ # !",
        ] {
            let decl: TokenStream = decl.parse().unwrap();
            let want = quote! {
                {
                    ({ $($cb:tt)* } $($rest:tt)*) => {
                        $($cb)*! { $($rest)* [= #decl] }
                    };
                }
            };
            let got = definition_rules(&decl);
            assert_eq!(got.to_string(), want.to_string());
            assert_eq!(format!("{got:?}"), format!("{want:?}"));
        }
    }

    /// A declared item's definition module, lexed from one text, is the one made tree by tree
    /// with the declaration as one string literal of its text, for each visibility; a text
    /// that would need an escape, or a restricted visibility, gets none (the tokens are
    /// handed on instead).
    #[test]
    fn declaration_modules_hand_on_one_literal() {
        let module = quote::format_ident!("__layout_0123456789abcdef");
        let def = quote::format_ident!("__layout_def_A_0123456789abcdef");
        let public: syn::Visibility = syn::parse_quote!(pub);
        let private = syn::Visibility::Inherited;
        for text in [
            "(4,8):(32,1), logical -> physical",
            "cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)",
            "(16,8):(8,1), logical(16,8) -> physical, Swizzle<2,2,3> over elements",
            "",
        ] {
            let literal: TokenStream =
                TokenTree::Literal(proc_macro2::Literal::string(text)).into();
            for (vis, exported) in [(&public, true), (&private, false)] {
                let want =
                    definition_module(&module, &def, vis, exported, &definition_rules(&literal));
                let got = declaration_module(&module, &def, vis, exported, text).unwrap();
                assert_eq!(got.to_string(), want.to_string(), "{text}");
            }
        }
        for text in ["(4):(1) \"x\"", "(4):(1) \\", "(4):(1)\n", "é"] {
            assert!(
                declaration_module(&module, &def, &public, true, text).is_none(),
                "{text:?}"
            );
        }
        let restricted: syn::Visibility = syn::parse_quote!(pub(crate));
        assert!(
            declaration_module(
                &module,
                &def,
                &restricted,
                false,
                "(4):(1), logical -> physical"
            )
            .is_none()
        );
    }
}

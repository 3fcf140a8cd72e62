//! The frame of an invocation: the crate path before `;`, which of the three forms the rest
//! is, and an item's attributes, visibility and name around its declaration. A plain item or
//! layout is read by scanning its token trees; every other form, and every error, is read with
//! `syn`, and the scan reads what `syn` reads (tested against it).
//! What is inside a declaration or an expression is the core's (`layout_core::expr`).

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{Ident, Token};

use layout_core::{Error, Expected};

use crate::text::frame_error;

/// The frame's syntax error: `expected` was expected at `span`.
fn expected(span: Span, expected: Expected) -> syn::Error {
    frame_error(span, Error::Syntax { expected })
}

/// One `#[attrs] VIS const NAME = DECL;` of the item form.
pub struct Item {
    pub attrs: Vec<TokenStream>,
    pub vis: syn::Visibility,
    pub name: Ident,
    /// The declaration's tokens as written, handed to algebra expressions that name the item.
    pub tokens: TokenStream,
    /// The `;` after them: where an error at the end of the declaration points.
    pub end: Span,
}

/// The crate path `layout_typed::layout!` passes (`$crate`), kept as its token trees: each
/// use in the expansion copies the trees (identifiers and punctuation, cheap) instead of
/// cloning a token stream, which inside the compiler is a call across the macro's bridge.
pub struct Krate(
    Vec<TokenTree>,
    std::cell::OnceCell<Vec<proc_macro::TokenTree>>,
);

impl Krate {
    /// The debug forms of the path's spans, which tell one `layout!` call from another whose
    /// tokens are the same (each call's expansion writes its own `$crate`).
    pub(crate) fn spans_debug(&self) -> impl Iterator<Item = String> + '_ {
        self.0.iter().map(|t| format!("{:?}", t.span()))
    }
    /// The path as the compiler's own token trees, converted once per invocation (inside the
    /// compiler only: `proc_macro` panics elsewhere).
    pub(crate) fn compiler_trees(&self) -> &[proc_macro::TokenTree] {
        self.1.get_or_init(|| {
            let path: TokenStream = self.0.iter().cloned().collect();
            proc_macro::TokenStream::from(path).into_iter().collect()
        })
    }
}

impl quote::ToTokens for Krate {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.0.iter().cloned());
    }
}

/// The macro input after the crate path.
pub enum Input {
    /// `LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`: a value.
    Expr,
    /// Items; a frame error stops the reading (the items before it are kept).
    Items(Vec<Item>, Option<syn::Error>),
    /// `[PATH = DECL]* EXPR`: an algebra expression.
    Algebra,
}

/// Everything the macro reads: the crate path, the tokens after it and their form.
pub struct Invocation {
    pub krate: Krate,
    /// The tokens after the crate path, as given.
    pub rest: TokenStream,
    pub input: Input,
}

/// Splits `$crate; rest` and tells the form of the rest.
pub fn invocation(tokens: TokenStream) -> syn::Result<Invocation> {
    let mut krate = Vec::new();
    let mut iter = tokens.into_iter();
    let mut seen_semi = false;
    for tt in iter.by_ref() {
        if let TokenTree::Punct(p) = &tt
            && p.as_char() == ';'
        {
            seen_semi = true;
            break;
        }
        krate.push(tt);
    }
    if !seen_semi {
        return Err(frame_error(Span::call_site(), Error::MacroPath));
    }
    // The trees after the path, fetched across the bridge once for both glances.
    let mut trees: Vec<TokenTree> = iter.collect();
    fill_definitions(&mut trees);
    let rest: TokenStream = trees.iter().cloned().collect();
    let input = if algebra_trees_at_a_glance(&trees) {
        Input::Algebra
    } else if let Some(input) = trees_at_a_glance(&trees) {
        input
    } else {
        input.parse2(rest.clone())?
    };
    Ok(Invocation {
        krate: Krate(krate, std::cell::OnceCell::new()),
        rest,
        input,
    })
}

/// Puts the definitions that the operands' definition macros appended, `[= DECL]` each at the
/// end, into the empty `[PATH =]` written for them, in order: `[PATH = DECL]`. Anything else
/// (as many appended as empty, or none) is left as it is, for the grammar to read.
pub(crate) fn fill_definitions(trees: &mut Vec<TokenTree>) {
    let bracket = |t: &TokenTree| match t {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => {
            Some(g.stream().into_iter().collect::<Vec<TokenTree>>())
        }
        _ => None,
    };
    let is_eq =
        |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '=');
    // The appended definitions: the trailing brackets that start with `=`.
    let appended = trees
        .iter()
        .rev()
        .take_while(|t| bracket(t).is_some_and(|inner| inner.len() >= 2 && is_eq(inner.first())))
        .count();
    let Some(first) = trees.len().checked_sub(appended) else {
        return;
    };
    if appended == 0 {
        return;
    }
    let empty: Vec<usize> = trees
        .iter()
        .take(first)
        .enumerate()
        .filter_map(|(i, t)| {
            let inner = bracket(t)?;
            (inner.len() >= 2 && is_eq(inner.last())).then_some(i)
        })
        .collect();
    if empty.len() != appended {
        return;
    }
    let defs: Vec<TokenTree> = trees.split_off(first);
    for (i, def) in empty.into_iter().zip(defs) {
        let (Some(TokenTree::Group(slot)), TokenTree::Group(def)) = (trees.get_mut(i), def) else {
            continue;
        };
        let mut inner = slot.stream();
        inner.extend(def.stream().into_iter().skip(1));
        let mut g = proc_macro2::Group::new(Delimiter::Bracket, inner);
        g.set_span(slot.span());
        *slot = g;
    }
}

/// Whether the input is an algebra expression by its first two token trees: a bracketed
/// definition, or an operation's name and its parenthesis, which [`input`] reads as one too.
/// The callback of an expression carries its operands' declarations; this spares reading them
/// into `syn`'s buffer. Anything else is left to [`input`].
fn algebra_at_a_glance(rest: &TokenStream) -> bool {
    let trees: Vec<TokenTree> = rest.clone().into_iter().collect();
    algebra_trees_at_a_glance(&trees)
}

/// [`algebra_at_a_glance`] of the trees of the input.
fn algebra_trees_at_a_glance(trees: &[TokenTree]) -> bool {
    match trees {
        [TokenTree::Group(g), ..] => g.delimiter() == Delimiter::Bracket,
        [TokenTree::Ident(op), TokenTree::Group(g), ..] => {
            g.delimiter() == Delimiter::Parenthesis
                && layout_core::expr::Op::from_name(&op.to_string()).is_some()
        }
        _ => false,
    }
}

/// [`trees_at_a_glance`] of a token stream (the tests compare it with [`input`]).
#[cfg(test)]
fn at_a_glance(rest: &TokenStream) -> Option<Input> {
    let trees: Vec<TokenTree> = rest.clone().into_iter().collect();
    trees_at_a_glance(&trees)
}

/// The well-formed common cases of [`input`] read by scanning its token trees `trees`, without `syn`
/// (whose buffer of the whole input is most of the frame's cost): a layout that starts with
/// its parenthesised shape or with `cute (`, and items whose parts are plain (outer
/// attributes, `pub` or no visibility, `const NAME =`, tokens, `;`). Anything else, and every
/// error, is left to [`input`] (`None`), which reads the same cases the same way.
fn trees_at_a_glance(trees: &[TokenTree]) -> Option<Input> {
    // A group without delimiters (a `macro_rules!` fragment) is one that `syn` sees through.
    if trees
        .iter()
        .any(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::None))
    {
        return None;
    }
    match trees {
        [TokenTree::Group(g), _, ..] if g.delimiter() == Delimiter::Parenthesis => {
            Some(Input::Expr)
        }
        [TokenTree::Ident(i), TokenTree::Group(g), ..]
            if g.delimiter() == Delimiter::Parenthesis && i == "cute" =>
        {
            Some(Input::Expr)
        }
        [TokenTree::Punct(_) | TokenTree::Ident(_), ..] => {
            let mut items = Vec::new();
            let mut rest = trees;
            while !rest.is_empty() {
                let (item, after) = plain_item(rest)?;
                items.push(item);
                rest = after;
            }
            Some(Input::Items(items, None))
        }
        _ => None,
    }
}

/// One item of [`at_a_glance`]'s plain form and the trees after it; `None` for anything else.
fn plain_item(trees: &[TokenTree]) -> Option<(Item, &[TokenTree])> {
    let mut rest = trees;
    let mut attrs = Vec::new();
    while let [TokenTree::Punct(p), TokenTree::Group(g), after @ ..] = rest {
        if p.as_char() != '#' || g.delimiter() != Delimiter::Bracket {
            return None;
        }
        // As `syn` prints `#`: a lone punct at its span.
        let mut pound = proc_macro2::Punct::new('#', proc_macro2::Spacing::Alone);
        pound.set_span(p.span());
        attrs.push(TokenStream::from_iter([
            TokenTree::Punct(pound),
            TokenTree::Group(g.clone()),
        ]));
        rest = after;
    }
    let vis = match rest {
        // `pub(..)` (a restricted visibility) is `syn`'s to read.
        [TokenTree::Ident(v), after @ ..]
            if v == "pub" && matches!(after.first(), Some(TokenTree::Ident(_))) =>
        {
            rest = after;
            syn::Visibility::Public(Token![pub](v.span()))
        }
        _ => syn::Visibility::Inherited,
    };
    let [
        TokenTree::Ident(kw),
        TokenTree::Ident(name),
        TokenTree::Punct(eq),
        after @ ..,
    ] = rest
    else {
        return None;
    };
    if kw != "const" || eq.as_char() != '=' || is_keyword(&name.to_string()) {
        return None;
    }
    let semi = after
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))?;
    let (decl, after) = after.split_at(semi);
    let (TokenTree::Punct(end), after) = after.split_first()? else {
        return None;
    };
    Some((
        Item {
            attrs,
            vis,
            name: name.clone(),
            tokens: decl.iter().cloned().collect(),
            end: end.span(),
        },
        after,
    ))
}

/// Whether `syn` refuses `name` as an item's name (a keyword, or `_`): such an item is left to
/// `syn`, which reports it. A word listed here that `syn` accepts is only read more slowly.
fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "_" | "abstract"
            | "as"
            | "async"
            | "await"
            | "become"
            | "box"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "do"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "final"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "macro"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "override"
            | "priv"
            | "pub"
            | "ref"
            | "return"
            | "Self"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "try"
            | "type"
            | "typeof"
            | "union"
            | "unsafe"
            | "unsized"
            | "use"
            | "virtual"
            | "where"
            | "while"
            | "yield"
            | "default"
            | "macro_rules"
            | "raw"
            | "safe"
            | "auto"
    )
}

/// Whether an item's right-hand side is an algebra expression (definitions, an operation, or
/// a path alone) rather than a declaration.
pub fn is_algebra(tokens: &TokenStream) -> bool {
    // A path is identifiers and `::`: a literal or a delimited group (every declaration has
    // one) rules it out without `syn`. A group without delimiters (`$p:path` forwarded by
    // `macro_rules!`) is one that `syn` sees through: it is left to `syn`.
    let plain_path = || {
        tokens.clone().into_iter().all(|t| match t {
            TokenTree::Ident(_) => true,
            TokenTree::Punct(p) => p.as_char() == ':',
            TokenTree::Group(g) => g.delimiter() == Delimiter::None,
            TokenTree::Literal(_) => false,
        })
    };
    algebra_at_a_glance(tokens)
        || (plain_path()
            && (|s: ParseStream| {
                s.call(syn::Path::parse_mod_style)?;
                Ok(())
            })
            .parse2(tokens.clone())
            .is_ok())
}

fn input(s: ParseStream) -> syn::Result<Input> {
    if s.is_empty() {
        return Err(frame_error(s.span(), Error::EmptyMacro));
    }
    // An algebra expression starts with `[PATH = ..]` definitions or `op(` (any name but
    // `cute`, which starts a layout in CuTe order; an unknown operation is reported as one).
    // A path alone (`SMEM`, `crate::m::SMEM`) is an operand, an expression of its own.
    let path_alone = {
        let f = s.fork();
        f.call(syn::Path::parse_mod_style).is_ok() && f.is_empty()
    };
    if path_alone
        || s.peek(syn::token::Bracket)
        || (s.peek(Ident)
            && s.peek2(syn::token::Paren)
            && s.fork().parse::<Ident>().is_ok_and(|i| i != "cute"))
    {
        let _: TokenStream = s.parse()?;
        return Ok(Input::Algebra);
    }
    if s.peek(Token![#]) || s.peek(Token![pub]) || s.peek(Token![const]) {
        let mut items = Vec::new();
        while !s.is_empty() {
            match item(s) {
                Ok(i) => items.push(i),
                Err(e) => {
                    let _: TokenStream = s.parse()?;
                    return Ok(Input::Items(items, Some(e)));
                }
            }
        }
        return Ok(Input::Items(items, None));
    }
    let _: TokenStream = s.parse()?;
    Ok(Input::Expr)
}

fn item(s: ParseStream) -> syn::Result<Item> {
    // Outer attributes are forwarded as tokens (`#` and the bracketed group), never parsed:
    // syn parses an attribute's value as an expression, recursively, and a deeply nested one
    // would exhaust the compiler's stack; rustc checks them where they land.
    let mut attrs = Vec::new();
    while s.peek(Token![#]) {
        let pound: Token![#] = s.parse()?;
        let group: proc_macro2::Group = s
            .parse()
            .map_err(|e| expected(e.span(), Expected::Attribute))?;
        if group.delimiter() != proc_macro2::Delimiter::Bracket {
            return Err(expected(group.span(), Expected::Attribute));
        }
        attrs.push(quote::quote!(#pound #group));
    }
    let vis: syn::Visibility = s.parse()?;
    s.parse::<Token![const]>()
        .map_err(|e| expected(e.span(), Expected::Item))?;
    let name: Ident = s
        .parse()
        .map_err(|e| expected(e.span(), Expected::ItemName))?;
    s.parse::<Token![=]>()
        .map_err(|e| expected(e.span(), Expected::Equals))?;
    // The declaration: every token up to the next `;` (the core reads it).
    let tokens: TokenStream = s.step(|c| {
        let mut rest = *c;
        let mut out = TokenStream::new();
        while let Some((tt, next)) = rest.token_tree() {
            if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ';') {
                break;
            }
            out.extend([tt]);
            rest = next;
        }
        Ok((out, rest))
    })?;
    let semi = s
        .parse::<Token![;]>()
        .map_err(|e| expected(e.span(), Expected::ItemEnd))?;
    Ok(Item {
        attrs,
        vis,
        name,
        tokens,
        end: semi.span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Group;

    /// An item as text: its attributes, visibility, name and tokens.
    pub(super) fn item_text(it: &Item) -> String {
        let attrs: Vec<String> = it.attrs.iter().map(|a| a.to_string()).collect();
        let vis = &it.vis;
        format!(
            "{attrs:?} [{}] {} = [{}]",
            quote::quote!(#vis),
            it.name,
            it.tokens
        )
    }

    /// An input's form and items as text, to compare the two readings.
    fn shape(i: &Input) -> String {
        match i {
            Input::Expr => "expr".into(),
            Input::Algebra => "algebra".into(),
            Input::Items(items, err) => {
                let items: Vec<String> = items.iter().map(item_text).collect();
                format!("items {items:?} {}", err.is_some())
            }
        }
    }

    /// The scan reads what `syn` reads, or leaves the input to it.
    #[test]
    fn the_scan_reads_as_syn_does() {
        let inputs = [
            "(4,8):(32,1), logical -> physical",
            "cute (4,8):(1,4), logical -> physical, index = i32",
            "(4,8)",
            "cute",
            "cute (4,8)",
            "SMEM",
            "crate::m::SMEM",
            "compose(A, B)",
            "foo(A, B)",
            "[A = (4):(1), logical -> physical] compose(A, A)",
            "const A = (4):(1), logical -> physical;",
            "pub const A = (4):(1), logical -> physical;",
            "#[doc = \"x\"] #[cfg(test)] pub const A = (4):(1), logical -> physical; const B = compose(A, A);",
            "pub(crate) const A = (4):(1), logical -> physical;",
            "pub(in crate::m) const A = (4):(1), logical -> physical;",
            "pub const A = (4):(1), logical -> physical",
            "pub const type = (4):(1), logical -> physical;",
            "pub const _ = (4):(1), logical -> physical;",
            "pub const r#type = (4):(1), logical -> physical;",
            "const A == (4):(1);",
            "const A = ;",
            "static A = (4):(1);",
            "pub static A = (4):(1);",
            "const A = (4):(1); junk",
            "# const A = (4):(1);",
            "#(x) const A = (4):(1);",
            "! const A = (4):(1);",
            "const = (4):(1);",
            "const A (4):(1);",
            "",
        ];
        for text in inputs {
            let tokens: TokenStream = text.parse().unwrap_or_default();
            let by_syn = input.parse2(tokens.clone());
            match at_a_glance(&tokens) {
                Some(scanned) => {
                    let by_syn = by_syn.unwrap_or_else(|e| panic!("{text}: syn refused it: {e}"));
                    assert_eq!(shape(&scanned), shape(&by_syn), "{text}");
                    // The scan only reads inputs that `syn` reads without an error.
                    assert!(!matches!(by_syn, Input::Items(_, Some(_))), "{text}");
                }
                None => {
                    // Left to `syn`: an error, an algebra expression or a form the scan
                    // does not read.
                    let _ = by_syn;
                }
            }
        }
        // The common forms are read by the scan.
        for text in [inputs[0], inputs[1], inputs[10], inputs[11], inputs[12]] {
            let tokens: TokenStream = text.parse().unwrap_or_default();
            assert!(at_a_glance(&tokens).is_some(), "{text}");
        }
    }

    /// A group without delimiters (as `macro_rules!` makes) is left to `syn`.
    #[test]
    fn undelimited_groups_are_left_to_syn() {
        let vis = Group::new(Delimiter::None, quote::quote!(pub));
        let tokens = quote::quote!(#vis const A = (4):(1), logical -> physical;);
        assert!(at_a_glance(&tokens).is_none());
    }
}

/// Adversarial inputs for the scan of plain items and for [`is_algebra`], against the reading
/// by `syn` alone (what the frame did before the scan): the same form, the same items, the same
/// errors, whatever the spelling, the grouping or the forwarding through `macro_rules!`.
#[cfg(test)]
mod scan_against_syn {
    use super::*;
    use proc_macro2::Group;

    /// The reading by `syn` alone, as the frame read every input before the scan.
    fn by_syn(rest: &TokenStream) -> syn::Result<Input> {
        if algebra_at_a_glance(rest) {
            return Ok(Input::Algebra);
        }
        input.parse2(rest.clone())
    }

    /// Whether `tokens` is an algebra expression, read by `syn` alone.
    fn is_algebra_by_syn(tokens: &TokenStream) -> bool {
        algebra_at_a_glance(tokens)
            || (|s: ParseStream| {
                s.call(syn::Path::parse_mod_style)?;
                Ok(())
            })
            .parse2(tokens.clone())
            .is_ok()
    }

    /// An input's reading as text: its form, its items (attributes, visibility, name, tokens)
    /// and its error's message.
    fn reading(r: &syn::Result<Input>) -> String {
        let err = |e: &syn::Error| format!("error {e}");
        match r {
            Err(e) => err(e),
            Ok(Input::Expr) => "expr".into(),
            Ok(Input::Algebra) => "algebra".into(),
            Ok(Input::Items(items, e)) => {
                let items: Vec<String> = items.iter().map(super::tests::item_text).collect();
                format!("items {items:?} {:?}", e.as_ref().map(err))
            }
        }
    }

    /// Each text, as written and with each of its token trees in turn wrapped in a group
    /// without delimiters (what `macro_rules!` forwards for `$x:expr`, `$p:path`, `$v:vis`…).
    fn variants(text: &str) -> Vec<TokenStream> {
        let Ok(tokens) = text.parse::<TokenStream>() else {
            return Vec::new();
        };
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        let mut out = vec![tokens];
        for i in 0..trees.len() {
            for len in 1..=3 {
                let wrapped: TokenStream = trees.iter().skip(i).take(len).cloned().collect();
                if trees.len().saturating_sub(i) < len {
                    break;
                }
                let mut v: Vec<TokenTree> = trees.iter().take(i).cloned().collect();
                v.push(TokenTree::Group(Group::new(Delimiter::None, wrapped)));
                v.extend(trees.iter().skip(i.saturating_add(len)).cloned());
                out.push(v.into_iter().collect());
            }
        }
        out
    }

    const INPUTS: &[&str] = &[
        "",
        ";",
        "(4,8):(32,1), logical -> physical",
        "(4,8)",
        "(4, 8) : (1, 4)",
        "cute (4,8):(1,4), logical -> physical",
        "cute(4,8):(1,4), logical -> physical",
        "r#cute (4,8):(1,4), logical -> physical",
        "cute",
        "cute [4]",
        "cute {4}",
        "{4}:{1}",
        "[4]:[1]",
        "4:1",
        "\"(4):(1)\"",
        "SMEM",
        "r#SMEM",
        "crate::m::SMEM",
        "::m::SMEM",
        "self::SMEM",
        "compose(A, B)",
        "compose (A, B)",
        "r#compose(A, B)",
        "foo(A, B)",
        "const A = (4):(1), logical -> physical;",
        "const A = (4):(1), logical -> physical",
        "const A = (4):(1), logical -> physical;;",
        "const A = (4):(1), logical -> physical; const B = A;",
        "const A = (4):(1), logical -> physical; const B = compose(A, A);",
        "const A = (4):(1), logical -> physical; const B = crate::A;",
        "const A = (4):(1), logical -> physical; B",
        "const A = (4):(1); static B = (4):(1);",
        "const A = ;",
        "const A = ; ;",
        "const A;",
        "const A: T = (4):(1);",
        "const A == (4):(1);",
        "const A =; const B = (2):(1);",
        "const a = (4):(1);",
        "const é = (4):(1);",
        "const Ä = (4):(1);",
        "const r#type = (4):(1);",
        "const r#A = (4):(1);",
        "const r#const = (4):(1);",
        "r#const A = (4):(1);",
        "r#pub const A = (4):(1);",
        "const type = (4):(1);",
        "const _ = (4):(1);",
        "const Self = (4):(1);",
        "const self = (4):(1);",
        "const union = (4):(1);",
        "const default = (4):(1);",
        "const auto = (4):(1);",
        "const try = (4):(1);",
        "const gen = (4):(1);",
        "const async = (4):(1);",
        "const dyn = (4):(1);",
        "const macro_rules = (4):(1);",
        "pub const A = (4):(1);",
        "pub pub const A = (4):(1);",
        "pub crate const A = (4):(1);",
        "crate const A = (4):(1);",
        "pub(crate) const A = (4):(1);",
        "pub (crate) const A = (4):(1);",
        "pub(self) const A = (4):(1);",
        "pub(super) const A = (4):(1);",
        "pub(in crate::m) const A = (4):(1);",
        "pub(in self) const A = (4):(1);",
        "pub(A) const A = (4):(1);",
        "pub(A, B) const A = (4):(1);",
        "pub(crate) const A = (4):(1); pub const B = (2):(1);",
        "pub const A = (4):(1); pub(crate) const B = (2):(1);",
        "#[doc = \"x\"] const A = (4):(1);",
        "/// A layout.\nconst A = (4):(1);",
        "/** A layout. */ const A = (4):(1);",
        "//! Inner.\nconst A = (4):(1);",
        "/*! Inner. */ const A = (4):(1);",
        "// A comment.\nconst A = (4):(1); // After.",
        "/* A */ const /* B */ A /* C */ = /* D */ (4):(1) /* E */;",
        "#[cfg(test)] #[allow(dead_code)] pub const A = (4):(1);",
        "#[] const A = (4):(1);",
        "#[1] const A = (4):(1);",
        "#[a::b(c)] const A = (4):(1);",
        "#![allow(x)] const A = (4):(1);",
        "# [doc = \"x\"] const A = (4):(1);",
        "#(doc) const A = (4):(1);",
        "#{doc} const A = (4):(1);",
        "# const A = (4):(1);",
        "#",
        "#[doc]",
        "#[doc] const",
        "#[doc] pub",
        "pub",
        "pub const",
        "pub const A",
        "pub const A =",
        "const",
        "const A",
        "const A =",
        "const A = (4):(1); #[doc]",
        "! const A = (4):(1);",
        "const = (4):(1);",
        "const A (4):(1);",
        "const 1 = (4):(1);",
        "const A = [;];",
        "const A = (;);",
        "const A = {;};",
        "const A = (4):(1), logical -> physical, index = i32;",
        "const A = cute (4):(1), logical -> physical;",
        "const A = 'a;",
        "const A = \"x;\";",
        "const A = b';';",
        "static A = (4):(1);",
        "pub static A = (4):(1);",
        "type A = (4):(1);",
        "fn A = (4):(1);",
        "let A = (4):(1);",
        "const fn A = (4):(1);",
        "unsafe const A = (4):(1);",
        "'a const A = (4):(1);",
        "1 const A = (4):(1);",
        "= (4):(1);",
        "[A = (4):(1), logical -> physical] compose(A, A)",
        "[A = (4):(1)]",
        "()",
        "() ()",
        "(4):(1) ;",
    ];

    /// The scan gives exactly `syn`'s reading where it reads an input, for every input above
    /// and every grouping of up to three of its trees without delimiters; whatever it leaves to
    /// `syn` is read as before by construction. Nothing panics.
    #[test]
    fn every_reading_is_syns() {
        let mut scanned = 0usize;
        for text in INPUTS {
            for tokens in variants(text) {
                let want = reading(&by_syn(&tokens));
                if algebra_at_a_glance(&tokens) {
                    continue;
                }
                if let Some(got) = at_a_glance(&tokens) {
                    scanned = scanned.saturating_add(1);
                    assert_eq!(reading(&Ok(got)), want, "{text} as {tokens:?}");
                }
            }
        }
        assert!(scanned > 30, "{scanned}");
    }

    /// An item's right-hand side is an algebra expression exactly when `syn` reads it as one:
    /// paths alone (plain, global, `crate::`, raw), forwarded whole or in part through groups
    /// without delimiters (`$p:path`, `$e:expr`), and everything else, declarations included.
    #[test]
    fn algebra_right_hand_sides_are_syns() {
        let sides = [
            "A",
            "r#A",
            "r#type",
            "type",
            "crate::A",
            "::A",
            "self::m::A",
            "super::A",
            "a::b::c::D",
            "A::",
            "A::<B>",
            "A:B",
            "A :: B",
            "A::B::",
            "compose(A, B)",
            "compose(A, B) extra",
            "[B = A] B",
            "(4):(1)",
            "(4):(1), logical -> physical",
            "cute (4):(1), logical -> physical",
            "4",
            "",
            "A B",
            "'a",
            "é",
        ];
        for text in sides {
            for tokens in variants(text) {
                assert_eq!(
                    is_algebra(&tokens),
                    is_algebra_by_syn(&tokens),
                    "{text} as {tokens:?}"
                );
            }
        }
    }
}

//! The frame of an invocation, read with `syn`: the crate path before `;`, which of the three
//! forms the rest is, and an item's attributes, visibility and name around its declaration.
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
pub struct Krate(Vec<TokenTree>);

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
    let rest: TokenStream = iter.collect();
    let input = if algebra_at_a_glance(&rest) {
        Input::Algebra
    } else {
        input.parse2(rest.clone())?
    };
    Ok(Invocation {
        krate: Krate(krate),
        rest,
        input,
    })
}

/// Whether the input is an algebra expression by its first two token trees: a bracketed
/// definition, or an operation's name and its parenthesis, which [`input`] reads as one too.
/// The callback of an expression carries its operands' declarations; this spares reading them
/// into `syn`'s buffer. Anything else is left to [`input`].
fn algebra_at_a_glance(rest: &TokenStream) -> bool {
    let mut trees = rest.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(g)), _) => g.delimiter() == Delimiter::Bracket,
        (Some(TokenTree::Ident(op)), Some(TokenTree::Group(g))) => {
            g.delimiter() == Delimiter::Parenthesis
                && layout_core::expr::Op::from_name(&op.to_string()).is_some()
        }
        _ => false,
    }
}

/// Whether an item's right-hand side is an algebra expression (definitions, an operation, or
/// a path alone) rather than a declaration.
pub fn is_algebra(tokens: &TokenStream) -> bool {
    algebra_at_a_glance(tokens)
        || (|s: ParseStream| {
            s.call(syn::Path::parse_mod_style)?;
            Ok(())
        })
        .parse2(tokens.clone())
        .is_ok()
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

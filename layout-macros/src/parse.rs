//! Tokens → `ast`, keeping the span of every leaf. Never panics: every failure is a
//! `syn::Error` at the offending token.

use layout_core::{Space, Stride};
use proc_macro2::{Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{Ident, LitInt, Token};

use crate::ast::{Decl, IndexTy, Input, Invocation, Item, LayoutAst, Node, Side, SwizzleAst};

const FORMAT_HELP: &str = "help: write `layout!(SHAPE:STRIDE, DOMAIN -> CODOMAIN)`, e.g. `layout!((16,32):(32,1), logical -> physical)`";

/// Splits `$crate; rest` and parses the rest.
pub fn invocation(tokens: TokenStream) -> syn::Result<Invocation> {
    let mut krate = TokenStream::new();
    let mut iter = tokens.into_iter();
    let mut rest = TokenStream::new();
    let mut seen_semi = false;
    for tt in iter.by_ref() {
        if let TokenTree::Punct(p) = &tt
            && p.as_char() == ';'
        {
            seen_semi = true;
            break;
        }
        krate.extend([tt]);
    }
    if !seen_semi {
        return Err(syn::Error::new(
            Span::call_site(),
            "use `layout!` through `layout_typed::layout!`",
        ));
    }
    rest.extend(iter);
    let input = input.parse2(rest.clone())?;
    Ok(Invocation { krate, rest, input })
}

fn input(s: ParseStream) -> syn::Result<Input> {
    if s.is_empty() {
        return Err(syn::Error::new(
            s.span(),
            format!("empty `layout!`\n{FORMAT_HELP}"),
        ));
    }
    if crate::algebra::is_algebra(s) {
        return Ok(Input::Algebra(Box::new(crate::algebra::parse(s)?)));
    }
    if s.peek(Token![#]) || s.peek(Token![pub]) || s.peek(Token![const]) {
        let mut items = Vec::new();
        while !s.is_empty() {
            items.push(item(s)?);
        }
        return Ok(Input::Items(items));
    }
    let d = decl(s)?;
    if !s.is_empty() {
        return Err(s.error("unexpected tokens after the layout's options"));
    }
    Ok(Input::Expr(Box::new(d)))
}

fn item(s: ParseStream) -> syn::Result<Item> {
    // Outer attributes are forwarded as tokens (`#` and the bracketed group), never parsed:
    // syn parses an attribute's value as an expression, recursively, and a deeply nested one
    // would exhaust the compiler's stack; rustc checks them where they land.
    let mut attrs = Vec::new();
    while s.peek(Token![#]) {
        let pound: Token![#] = s.parse()?;
        let group: proc_macro2::Group = s.parse()?;
        if group.delimiter() != proc_macro2::Delimiter::Bracket {
            return Err(syn::Error::new(group.span(), "expected `#[..]`"));
        }
        attrs.push(quote::quote!(#pound #group));
    }
    let vis: syn::Visibility = s.parse()?;
    s.parse::<Token![const]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected `const NAME = LAYOUT, DOMAIN -> CODOMAIN;`",
        )
    })?;
    let name: Ident = s.parse()?;
    s.parse::<Token![=]>()?;
    let start = s.cursor();
    let d = decl(s)?;
    let mut tokens = TokenStream::new();
    let mut c = start;
    while c != s.cursor() {
        match c.token_tree() {
            Some((tt, next)) => {
                tokens.extend([tt]);
                c = next;
            }
            None => break,
        }
    }
    s.parse::<Token![;]>()
        .map_err(|e| syn::Error::new(e.span(), "expected `;` after the item"))?;
    Ok(Item {
        attrs,
        vis,
        name,
        decl: d,
        tokens,
    })
}

/// A declaration `LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`.
pub fn decl_stream(s: ParseStream) -> syn::Result<Decl> {
    decl(s)
}

/// A layout `[cute] SHAPE:STRIDE` (seed order after conversion).
pub fn layout_stream(s: ParseStream) -> syn::Result<LayoutAst> {
    layout(s)
}

/// A shape: an integer or a tuple of shapes.
pub fn shape_tree(s: ParseStream) -> syn::Result<layout_core::Tree<i64>> {
    Ok(tree(s, 0, None, &mut |s| int(s))?.to_tree())
}

/// The swizzle of `swizzle(L, ..)`: the fields `b = .., src = .., dst = ..` of a seed
/// swizzle, or CuTe's `Swizzle<B,M,S>` with its unit, as in a declaration's options.
pub fn seed_swizzle_stream(s: ParseStream, span: Span) -> syn::Result<SwizzleAst> {
    if s.peek(Ident) && s.peek2(Token![<]) {
        let id: Ident = s.parse()?;
        if id == "Swizzle" {
            return cute_swizzle(s, id.span());
        }
        return Err(syn::Error::new(
            id.span(),
            "expected the swizzle's fields\nhelp: write `b = 3, src = 7, dst = 4`, or CuTe's `Swizzle<3,4,3> over bytes of 16-bit elements`",
        ));
    }
    seed_swizzle(s, span)
}

/// CuTe's `Swizzle<B,M,S>` after its name, with its unit (`over elements`, `over bytes of N-bit
/// elements`), as a swizzle of element offsets: a byte swizzle is converted exactly, or refused.
fn cute_swizzle(s: ParseStream, at: Span) -> syn::Result<SwizzleAst> {
    let cute_help = "write CuTe's swizzle as `Swizzle<B,M,S>` and its unit, e.g. `Swizzle<3,4,3> over bytes of 16-bit elements`";
    let fields = (|| -> syn::Result<_> {
        s.parse::<Token![<]>()?;
        let b = int(s)?;
        s.parse::<Token![,]>()?;
        let m = int(s)?;
        s.parse::<Token![,]>()?;
        let sh = int(s)?;
        s.parse::<Token![>]>()?;
        Ok((b, m, sh))
    })()
    .map_err(|e| syn::Error::new(e.span(), format!("{e}\nhelp: {cute_help}")))?;
    let (b, m, sh) = fields;
    let unit = swizzle_unit(s, at, (b.0, m.0, sh.0))?;
    let elements = layout_core::Swizzle::from_cute(b.0, m.0, sh.0, unit)
        .map_err(|e| crate::valid::error(at, &e))?;
    let (b, m, sh) = elements.to_cute();
    Ok(SwizzleAst::Cute { b, m, s: sh })
}

fn decl(s: ParseStream) -> syn::Result<Decl> {
    let layout = layout(s)?;
    let comma = s.parse::<Token![,]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("expected `,` and the spaces after the layout\n{FORMAT_HELP}"),
        )
    })?;
    let _ = comma;
    let mut domain = side(s)?;
    let _arrow: Token![->] = s.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected `->` between the domain and the codomain space",
        )
    })?;
    let mut codomain = side(s)?;
    if layout.cute {
        // CuTe order: `logical(M, K)` is the seed-order tile `(K, M)`.
        for side in [&mut domain, &mut codomain] {
            if let Some((t, _)) = &mut side.tile {
                t.reverse();
            }
        }
    }
    let mut swizzle = None;
    let mut index = None;
    while s.peek(Token![,]) {
        s.parse::<Token![,]>()?;
        if s.is_empty() || s.peek(Token![;]) {
            break;
        }
        let id: Ident = s.parse().map_err(|e| {
            syn::Error::new(e.span(), "expected an option: `swizzle(b = .., src = .., dst = ..)`, `Swizzle<B,M,S>` or `index = i64`")
        })?;
        match id.to_string().as_str() {
            "swizzle" => {
                if !s.peek(syn::token::Paren) {
                    return Err(syn::Error::new(
                        id.span(),
                        "expected `swizzle(b = .., src = .., dst = ..)`\nhelp: write `swizzle(b = 3, src = 7, dst = 4)`, or CuTe's `Swizzle<3,4,3>`",
                    ));
                }
                let content;
                syn::parenthesized!(content in s);
                let sw = seed_swizzle(&content, id.span())?;
                if swizzle.replace((sw, id.span())).is_some() {
                    return Err(syn::Error::new(id.span(), "a second swizzle"));
                }
            }
            "Swizzle" => {
                let sw = cute_swizzle(s, id.span())?;
                if swizzle.replace((sw, id.span())).is_some() {
                    return Err(syn::Error::new(
                        id.span(),
                        "a second swizzle\nhelp: a map has at most one swizzle, its last step",
                    ));
                }
            }
            "index" => {
                s.parse::<Token![=]>().map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        "expected `=`\nhelp: write `index = i32`, `i64`, `u32` or `usize`",
                    )
                })?;
                let ty: Ident = s.parse()?;
                let t = match ty.to_string().as_str() {
                    "i32" => IndexTy::I32,
                    "i64" => IndexTy::I64,
                    "u32" => IndexTy::U32,
                    "usize" => IndexTy::Usize,
                    _ => {
                        return Err(syn::Error::new(
                            ty.span(),
                            "unsupported index type\nhelp: use `i32`, `i64`, `u32` or `usize`",
                        ));
                    }
                };
                if index.replace((t, ty.span())).is_some() {
                    return Err(syn::Error::new(
                        ty.span(),
                        "a second index type\nhelp: give `index = ..` once",
                    ));
                }
            }
            other => {
                return Err(syn::Error::new(
                    id.span(),
                    format!(
                        "unknown option `{other}`\nhelp: the options are `swizzle(b = .., src = .., dst = ..)`, `Swizzle<B,M,S>` and `index = TYPE`"
                    ),
                ));
            }
        }
    }
    Ok(Decl {
        layout,
        domain,
        codomain,
        swizzle,
        index,
    })
}

/// The help of a CuTe swizzle pasted without its unit, showing both ways to write it.
fn swizzle_unit_help((b, m, sh): (i64, i64, i64)) -> String {
    let fp16 = layout_core::Swizzle::from_cute(
        b,
        m,
        sh,
        layout_core::SwizzleUnit::Bytes { elem_bits: 16 },
    )
    .map(|e| {
        let (b, m, sh) = e.to_cute();
        format!(" (for fp16 the same as `Swizzle<{b},{m},{sh}> over elements`)")
    })
    .unwrap_or_default();
    format!(
        "CuTe's GMMA and TMA swizzles act on byte addresses: write `Swizzle<{b},{m},{sh}> over bytes of 16-bit elements` with the element width in bits{fp16}, or `Swizzle<{b},{m},{sh}> over elements` if it acts on element offsets"
    )
}

/// The unit after a pasted `Swizzle<B,M,S>`: `over elements`, or `over bytes of N-bit elements`
/// (`N` the element width in bits).
fn swizzle_unit(
    s: ParseStream,
    span: Span,
    fields: (i64, i64, i64),
) -> syn::Result<layout_core::SwizzleUnit> {
    let missing = |at: Span| {
        syn::Error::new(
            at,
            format!(
                "a CuTe swizzle needs its unit: `over elements` or `over bytes of N-bit elements`\nhelp: {}",
                swizzle_unit_help(fields)
            ),
        )
    };
    let word = |s: ParseStream, w: &str| -> syn::Result<Span> {
        let fork = s.fork();
        match fork.parse::<Ident>() {
            Ok(id) if id == w => {
                s.parse::<Ident>()?;
                Ok(id.span())
            }
            _ => Err(missing(s.span())),
        }
    };
    if !s.peek(Ident) {
        return Err(missing(span));
    }
    word(s, "over")?;
    let fork = s.fork();
    match fork.parse::<Ident>() {
        Ok(id) if id == "elements" => {
            s.parse::<Ident>()?;
            Ok(layout_core::SwizzleUnit::Elements)
        }
        Ok(id) if id == "bytes" => {
            s.parse::<Ident>()?;
            word(s, "of")?;
            let lit: syn::LitInt = s.parse().map_err(|e| missing(e.span()))?;
            let bits = lit.base10_parse::<u32>().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    format!("{e}\nhelp: the element width in bits, e.g. `16-bit`"),
                )
            })?;
            s.parse::<Token![-]>().map_err(|e| missing(e.span()))?;
            word(s, "bit")?;
            word(s, "elements")?;
            Ok(layout_core::SwizzleUnit::Bytes { elem_bits: bits })
        }
        _ => Err(missing(s.span())),
    }
}

fn seed_swizzle(s: ParseStream, span: Span) -> syn::Result<SwizzleAst> {
    let (mut b, mut src, mut dst) = (None, None, None);
    while !s.is_empty() {
        let key: Ident = s.parse()?;
        s.parse::<Token![=]>()?;
        let v = int(s)?.0;
        let slot = match key.to_string().as_str() {
            "b" => &mut b,
            "src" => &mut src,
            "dst" => &mut dst,
            _ => {
                return Err(syn::Error::new(
                    key.span(),
                    "unknown swizzle field\nhelp: write `swizzle(b = BITS, src = LOWEST_SOURCE_BIT, dst = LOWEST_DESTINATION_BIT)`",
                ));
            }
        };
        if slot.replace(v).is_some() {
            return Err(syn::Error::new(key.span(), "field given twice"));
        }
        if !s.is_empty() {
            s.parse::<Token![,]>()?;
        }
    }
    match (b, src, dst) {
        (Some(b), Some(src), Some(dst)) => Ok(SwizzleAst::Seed { b, src, dst }),
        _ => Err(syn::Error::new(
            span,
            "a swizzle needs `b`, `src` and `dst`\nhelp: write `swizzle(b = 3, src = 7, dst = 4)` or CuTe's `Swizzle<3,4,3>`",
        )),
    }
}

/// An integer literal, possibly negated, with its span.
fn int(s: ParseStream) -> syn::Result<(i64, Span)> {
    let neg = if s.peek(Token![-]) {
        Some(s.parse::<Token![-]>()?.span)
    } else {
        None
    };
    let lit: LitInt = s.parse()?;
    if !lit.suffix().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            "write the integer without a type suffix",
        ));
    }
    // The magnitude in `i128`, so `-9223372036854775808` (`i64::MIN`) reads exactly.
    let v: i128 = lit.base10_parse::<i128>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            "integer does not fit in i64\nhelp: every size, stride and offset must fit in i64",
        )
    })?;
    let span = neg.and_then(|n| n.join(lit.span())).unwrap_or(lit.span());
    // `- -9223372036854775808`: syn reads the second `-` into the literal.
    let v = if neg.is_some() {
        v.checked_neg()
    } else {
        Some(v)
    };
    let v = v.and_then(|v| i64::try_from(v).ok());
    let v = v.ok_or_else(|| {
        syn::Error::new(
            span,
            "integer does not fit in i64\nhelp: every size, stride and offset must fit in i64",
        )
    })?;
    Ok((v, span))
}

fn layout(s: ParseStream) -> syn::Result<LayoutAst> {
    let cute = if s.peek(Ident) && s.fork().parse::<Ident>().is_ok_and(|i| i == "cute") {
        s.parse::<Ident>()?;
        true
    } else {
        false
    };
    let start = s.span();
    let mut names = Vec::new();
    // Run-time `{expr}` leaves, in leaf order (`None` for a static leaf). In the trees they are
    // placeholders that every static check ignores: size 1, stride `_`.
    let mut runtime_sizes = Vec::new();
    let mut runtime_strides = Vec::new();
    let shape = tree(s, 0, Some(&mut names), &mut |s| {
        if s.peek(syn::token::Brace) {
            let g: proc_macro2::Group = s.parse()?;
            runtime_sizes.push(Some(g.stream()));
            return Ok((1, g.span()));
        }
        runtime_sizes.push(None);
        if let Some(r) = cute_static(s, cute) {
            return r;
        }
        if s.peek(Token![_]) {
            let u: Token![_] = s.parse()?;
            return Err(syn::Error::new(
                u.span,
                "a size must be a positive integer; `_` is a stride (broadcast)",
            ));
        }
        int(s)
    })?;
    s.parse::<Token![:]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("expected `:` between the shape and the stride\n{FORMAT_HELP}"),
        )
    })?;
    let stride = tree(s, 0, None, &mut |s| {
        if s.peek(syn::token::Brace) {
            let g: proc_macro2::Group = s.parse()?;
            runtime_strides.push(Some(g.stream()));
            return Ok((Stride::Broadcast, g.span()));
        }
        runtime_strides.push(None);
        if let Some(r) = cute_static(s, cute) {
            return r.map(|(v, sp)| (Stride::Int(v), sp));
        }
        if s.peek(Token![_]) {
            let u: Token![_] = s.parse()?;
            return Ok((Stride::Broadcast, u.span));
        }
        let (v, span) = int(s)?;
        Ok((Stride::Int(v), span))
    })?;
    let span = start;
    let last = stride.span();
    let (mut shape, mut stride) = (shape, stride);
    if names.iter().all(Option::is_none) {
        names.clear();
    }
    if cute {
        shape = shape.reversed();
        stride = cute_strides(&shape, &stride.reversed());
        names.reverse();
        // A recursive reversal reverses the order of the leaves.
        runtime_sizes.reverse();
        runtime_strides.reverse();
    }
    let runtime = if runtime_sizes
        .iter()
        .chain(&runtime_strides)
        .any(Option::is_some)
    {
        runtime_sizes.into_iter().zip(runtime_strides).collect()
    } else {
        Vec::new()
    };
    Ok(LayoutAst {
        names,
        runtime,
        shape: shape.normalised(),
        stride: stride.normalised(),
        span,
        last,
        cute,
    })
}

fn cute_strides(shape: &Node<i64>, stride: &Node<Stride>) -> Node<Stride> {
    match (shape, stride) {
        (Node::Leaf(n, _), Node::Leaf(Stride::Int(0), sp)) if *n > 1 => {
            Node::Leaf(Stride::Broadcast, *sp)
        }
        (Node::Tuple(a, _), Node::Tuple(b, sp)) if a.len() == b.len() => Node::Tuple(
            a.iter().zip(b).map(|(x, y)| cute_strides(x, y)).collect(),
            *sp,
        ),
        _ => stride.clone(),
    }
}

fn tree<T>(
    s: ParseStream,
    depth: usize,
    names: Option<&mut Vec<Option<String>>>,
    leaf: &mut dyn FnMut(ParseStream) -> syn::Result<(T, Span)>,
) -> syn::Result<Node<T>> {
    if depth > layout_core::MAX_DEPTH {
        return Err(s.error(format!(
            "nesting deeper than {} levels",
            layout_core::MAX_DEPTH
        )));
    }
    if s.peek(syn::token::Paren) {
        let content;
        let paren = syn::parenthesized!(content in s);
        let mut items = Vec::new();
        let mut names = names;
        while !content.is_empty() {
            let name = if content.peek(Ident)
                && content.peek2(Token![:])
                && !content.peek2(Token![::])
            {
                let name: Ident = content.parse()?;
                content.parse::<Token![:]>()?;
                if names.is_none() {
                    return Err(syn::Error::new(
                        name.span(),
                        "mode names label top-level modes of the shape only\nhelp: name the top-level mode instead: `(rows: (2,4), cols: 8):(..)`",
                    ));
                }
                Some(name.to_string())
            } else {
                None
            };
            if let Some(list) = names.as_deref_mut() {
                list.push(name);
            }
            // `depth` is at most `MAX_DEPTH + 1` (checked above).
            items.push(tree(&content, depth.saturating_add(1), None, leaf)?);
            if content.is_empty() {
                break;
            }
            content
                .parse::<Token![,]>()
                .map_err(|e| syn::Error::new(e.span(), "expected `,` or `)`"))?;
        }
        if items.len() > 255 {
            return Err(syn::Error::new(
                paren.span.join(),
                "more than 255 modes in one tuple",
            ));
        }
        return Ok(Node::Tuple(items, paren.span.join()));
    }
    let (v, span) = leaf(s).map_err(|e| {
        let msg = e.to_string();
        if msg.contains("help:") {
            e
        } else {
            syn::Error::new(e.span(), format!("{msg}\nhelp: a shape or stride is an integer, `_` (stride only) or a parenthesised tuple"))
        }
    })?;
    Ok(Node::Leaf(v, span))
}

/// CuTe prints static integers as `_8`: read them under `cute`, explain them otherwise.
fn cute_static(s: ParseStream, cute: bool) -> Option<syn::Result<(i64, Span)>> {
    let id = s.fork().parse::<Ident>().ok()?;
    let text = id.to_string();
    let digits = text.strip_prefix('_')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let _ = s.parse::<Ident>();
    if !cute {
        return Some(Err(syn::Error::new(
            id.span(),
            format!(
                "`{text}` is CuTe's static integer {digits}\nhelp: write `{digits}`, or put `cute` before a layout pasted in CuTe order"
            ),
        )));
    }
    Some(
        digits
            .parse::<i64>()
            .map(|v| (v, id.span()))
            .map_err(|_| syn::Error::new(id.span(), "integer does not fit in i64")),
    )
}

fn side(s: ParseStream) -> syn::Result<Side> {
    let id: Ident = s.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a space: `logical`, `thread-value` (or `tv`) or `physical`",
        )
    })?;
    let mut span = id.span();
    let space = match id.to_string().as_str() {
        "logical" => Space::Logical,
        "physical" => Space::Physical,
        "tv" => Space::ThreadValue,
        "thread" => {
            let v: Ident = s
                .parse::<Token![-]>()
                .and_then(|_| s.parse())
                .map_err(|e| syn::Error::new(e.span(), "expected `thread-value`\nhelp: the spaces are `logical`, `thread-value` (or `tv`) and `physical`"))?;
            if v != "value" {
                return Err(syn::Error::new(v.span(), "expected `thread-value`"));
            }
            span = span.join(v.span()).unwrap_or(span);
            Space::ThreadValue
        }
        other => {
            return Err(syn::Error::new(
                id.span(),
                format!(
                    "unknown space `{other}`\nhelp: the spaces are `logical`, `thread-value` (or `tv`) and `physical`"
                ),
            ));
        }
    };
    let tile = if s.peek(syn::token::Paren) {
        let content;
        let paren = syn::parenthesized!(content in s);
        let mut extents = Vec::new();
        while !content.is_empty() {
            extents.push(int(&content)?.0);
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
        Some((extents, paren.span.join()))
    } else {
        None
    };
    Ok(Side { space, span, tile })
}

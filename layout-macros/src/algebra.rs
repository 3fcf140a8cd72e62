//! Algebra expressions in `layout!`: `compose(SMEM, TV)`, `divide(SMEM, (64, 32))`,
//! `restrict(ADDR, thread = t)`, `repeat(STAGE, (3):(1))`, `broadcast(L, (4))`, `inverse(TV)`,
//! `swizzle(L, b = 3, src = 7, dst = 4)`.
//!
//! Named operands are items made by `layout! { const NAME = ..; }` elsewhere. Each such item
//! also defines a hidden `macro_rules!` that hands its declaration back, re-exported under the
//! item's own name in the macro namespace (a `pub` item's is `#[macro_export]`ed under a unique
//! hidden name, so other crates reach it too). This module resolves every operand by invoking
//! that macro through the operand's path exactly as written (`a::P!`, `crate::m::P!`,
//! `other_crate::P!`), so Rust's own name resolution picks the item, imports, re-exports and
//! renames included. One callback per distinct path: the definitions arrive as
//! `[PATH = DECL]` groups before the expression, keyed by the path as written, and an operand is
//! looked up by that key only (never by its last segment). Then the expression is evaluated
//! with `layout-core` during expansion, so every rule is a compile error with the numbers, and
//! the expansion is a typed value whose `offset` is the decided code.

use std::collections::BTreeMap;

use layout_core::{Annotated, Error, Layout, Map, Space, Tree};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::ParseStream;
use syn::{Ident, Token};

use crate::ast::{Decl, IndexTy, LayoutAst, Node};
use crate::parse;
use crate::valid::{self, Checked};

/// The operations an expression may use.
pub const OPS: &[&str] = &[
    "compose",
    "divide",
    "divide_modes",
    "restrict",
    "repeat",
    "interleave",
    "broadcast",
    "inverse",
    "swizzle",
];

/// A value fixed by `restrict`: a literal, or a run-time Rust expression.
pub enum Value {
    Static(i64),
    /// A coordinate of the entry's shape, `(1, 3)` (spec: Restriction).
    Coord(Tree<i64>, Span),
    Runtime(TokenStream),
}

/// Which entry `restrict` fixes.
pub enum Entry {
    Position(usize, Span),
    Name(String, Span),
}

/// The tile of `divide`: its entries (leaves, in order) with their tokens, and the whole tile.
pub struct Tile {
    entries: Vec<(i64, Span)>,
    span: Span,
}

/// An expression as written.
pub enum AExpr {
    Named(syn::Path, Span),
    Literal(Box<Decl>, Span),
    /// A literal arrangement of `repeat`/`interleave`, `(3):(1)`: a layout without spaces.
    Arrangement(Box<LayoutAst>, Span),
    Compose(Box<AExpr>, Box<AExpr>, Span),
    Divide(Box<AExpr>, Tile, bool, Span),
    Restrict(Box<AExpr>, Vec<(Entry, Value)>, Span),
    Repeat(Box<AExpr>, Box<AExpr>, bool, Span),
    Broadcast(Box<AExpr>, Tree<i64>, Span),
    Inverse(Box<AExpr>, Span),
    Swizzle(Box<AExpr>, crate::ast::SwizzleAst, Span),
}

/// A parsed algebra invocation: the definitions resolved so far (by the path that named them)
/// and the expression.
pub struct Algebra {
    pub defs: Vec<(syn::Path, Decl)>,
    pub expr: AExpr,
}

/// Whether the input is an algebra expression: `[PATH = ..]` groups or `op(` (any name but
/// `cute`, which starts a layout in CuTe order; an unknown operation is reported as one).
pub fn is_algebra(s: ParseStream) -> bool {
    if s.peek(syn::token::Bracket) {
        return true;
    }
    s.peek(Ident)
        && s.peek2(syn::token::Paren)
        && s.fork().parse::<Ident>().is_ok_and(|i| i != "cute")
}

fn unknown_op(op: &Ident) -> syn::Error {
    let known: Vec<String> = OPS.iter().map(|o| format!("`{o}`")).collect();
    syn::Error::new(
        op.span(),
        format!(
            "unknown operation `{op}`\nhelp: the operations are {}",
            known.join(", ")
        ),
    )
}

pub fn parse(s: ParseStream) -> syn::Result<Algebra> {
    let mut defs = Vec::new();
    while s.peek(syn::token::Bracket) {
        let content;
        syn::bracketed!(content in s);
        let path = content.call(syn::Path::parse_mod_style)?;
        content.parse::<Token![=]>()?;
        let d = parse::decl_stream(&content)?;
        defs.push((path, d));
    }
    let expr = expr(s, 0)?;
    if !s.is_empty() {
        return Err(s.error("unexpected tokens after the expression"));
    }
    Ok(Algebra { defs, expr })
}

/// How deeply operations may nest in one expression (the parser recurses once per level).
pub const MAX_EXPR_DEPTH: usize = 64;

fn expr(s: ParseStream, depth: usize) -> syn::Result<AExpr> {
    if depth > MAX_EXPR_DEPTH {
        return Err(s.error(format!(
            "operations nest deeper than {MAX_EXPR_DEPTH} levels\nhelp: name intermediate results with `layout! {{ const NAME = ..; }}` items"
        )));
    }
    if s.peek(syn::token::Bracket) {
        let content;
        let b = syn::bracketed!(content in s);
        let d = parse::decl_stream(&content)?;
        return Ok(AExpr::Literal(Box::new(d), b.span.join()));
    }
    if s.peek(Ident) && s.peek2(syn::token::Paren) {
        let op: Ident = s.fork().parse()?;
        if OPS.contains(&op.to_string().as_str()) {
            return call(s, depth);
        }
        return Err(unknown_op(&op));
    }
    // A path to an item, without generic arguments (whose types syn parses recursively).
    let path = s.call(syn::Path::parse_mod_style).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a layout: a name made by `layout! { const NAME = ..; }`, `[LAYOUT, DOMAIN -> CODOMAIN]`, or an operation such as `compose(A, B)`",
        )
    })?;
    let span = path
        .segments
        .last()
        .map_or(Span::call_site(), |seg| seg.ident.span());
    Ok(AExpr::Named(path, span))
}

fn call(s: ParseStream, depth: usize) -> syn::Result<AExpr> {
    let depth = depth.saturating_add(1);
    let op: Ident = s.parse()?;
    let span = op.span();
    let content;
    syn::parenthesized!(content in s);
    let a = Box::new(expr(&content, depth)?);
    let next = |what: &str, help: &str| -> syn::Result<()> {
        content
            .parse::<Token![,]>()
            .map_err(|e| syn::Error::new(e.span(), format!("`{op}` takes {what}\nhelp: {help}")))?;
        Ok(())
    };
    let out = match op.to_string().as_str() {
        "compose" => {
            next(
                "two maps",
                "write `compose(left, right)`: `right` is applied first, e.g. `compose(SMEM, TV)`",
            )?;
            AExpr::Compose(a, Box::new(expr(&content, depth)?), span)
        }
        name @ ("divide" | "divide_modes") => {
            next(
                "a layout and a tile",
                &format!("write `{name}(L, (64, 32))`, one tile entry per top-level mode"),
            )?;
            AExpr::Divide(a, tile(&content)?, name == "divide_modes", span)
        }
        "restrict" => {
            next(
                "a map and the entries to fix",
                "write `restrict(ADDR, thread = t)` or `restrict(ADDR, 0 = 2)`",
            )?;
            let mut fixed = Vec::new();
            while !content.is_empty() {
                let entry = if content.peek(syn::LitInt) {
                    let l: syn::LitInt = content.parse()?;
                    Entry::Position(l.base10_parse()?, l.span())
                } else {
                    let i: Ident = content.parse()?;
                    Entry::Name(i.to_string(), i.span())
                };
                content.parse::<Token![=]>()?;
                let value = if content.peek(syn::token::Paren) && is_int_tuple(&content) {
                    let span = content.span();
                    Value::Coord(parse::shape_tree(&content)?, span)
                } else if content.peek(syn::LitInt)
                    && (content.peek2(Token![,]) || peek_end(&content))
                {
                    let l: syn::LitInt = content.parse()?;
                    Value::Static(l.base10_parse()?)
                } else {
                    // A run-time Rust expression: every token up to the next top-level `,`.
                    let e: TokenStream = content.step(|c| {
                        let mut rest = *c;
                        let mut out = TokenStream::new();
                        while let Some((tt, next)) = rest.token_tree() {
                            if matches!(&tt, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',')
                            {
                                break;
                            }
                            out.extend([tt]);
                            rest = next;
                        }
                        Ok((out, rest))
                    })?;
                    if e.is_empty() {
                        return Err(content.error("expected a value after `=`"));
                    }
                    Value::Runtime(e)
                };
                fixed.push((entry, value));
                if !content.is_empty() {
                    content.parse::<Token![,]>()?;
                }
            }
            AExpr::Restrict(a, fixed, span)
        }
        name @ ("repeat" | "interleave") => {
            next(
                "a layout and an arrangement",
                &format!("write `{name}(L, (3):(1))`; the arrangement is a dense layout"),
            )?;
            let b = if content.peek(syn::token::Paren) || content.peek(syn::LitInt) {
                let l = parse::layout_stream(&content)?;
                let span = l.span;
                AExpr::Arrangement(Box::new(l), span)
            } else {
                expr(&content, depth)?
            };
            AExpr::Repeat(a, Box::new(b), name == "interleave", span)
        }
        "broadcast" => {
            next(
                "a layout and a shape",
                "write `broadcast(L, (4))`: 4 copies of `L` at the same addresses",
            )?;
            AExpr::Broadcast(a, parse::shape_tree(&content)?, span)
        }
        "inverse" => AExpr::Inverse(a, span),
        "swizzle" => {
            next(
                "a map and the fields",
                "write `swizzle(L, b = 3, src = 7, dst = 4)`",
            )?;
            let sw = parse::seed_swizzle_stream(&content, span)?;
            AExpr::Swizzle(a, sw, span)
        }
        _ => return Err(unknown_op(&op)),
    };
    if !content.is_empty() {
        return Err(content.error(format!("unexpected arguments to `{op}`")));
    }
    Ok(out)
}

/// A tile: an integer or a tuple of tiles; its leaves are the entries.
fn tile(s: ParseStream) -> syn::Result<Tile> {
    fn walk(s: ParseStream, out: &mut Vec<(i64, Span)>) -> syn::Result<()> {
        if s.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in s);
            while !content.is_empty() {
                walk(&content, out)?;
                if !content.is_empty() {
                    content.parse::<Token![,]>()?;
                }
            }
            return Ok(());
        }
        let l: syn::LitInt = s.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a tile entry\nhelp: a tile is an integer or a tuple of integers, `(64, 32)`",
            )
        })?;
        out.push((l.base10_parse()?, l.span()));
        Ok(())
    }
    // The whole tuple (a group's span covers both delimiters), or the integer.
    let span = s
        .fork()
        .parse::<proc_macro2::TokenTree>()
        .map_or_else(|_| s.span(), |t| t.span());
    let mut entries = Vec::new();
    walk(s, &mut entries)?;
    Ok(Tile { entries, span })
}

/// Whether the next tokens are a parenthesised tuple of integers followed by `,` or the end (a
/// coordinate value), rather than a run-time Rust expression that starts with `(`.
fn is_int_tuple(s: ParseStream) -> bool {
    let f = s.fork();
    parse::shape_tree(&f).is_ok() && (f.is_empty() || f.peek(Token![,]))
}

fn peek_end(s: ParseStream) -> bool {
    let f = s.fork();
    let _ = f.parse::<syn::LitInt>();
    f.is_empty()
}

/// The names an expression uses, in order of first use.
fn names(e: &AExpr, out: &mut Vec<syn::Path>) {
    match e {
        AExpr::Named(p, _) => {
            if !out.iter().any(|q| key(q) == key(p)) {
                out.push(p.clone());
            }
        }
        AExpr::Literal(..) | AExpr::Arrangement(..) => {}
        AExpr::Compose(a, b, _) | AExpr::Repeat(a, b, _, _) => {
            names(a, out);
            names(b, out);
        }
        AExpr::Divide(a, ..)
        | AExpr::Restrict(a, ..)
        | AExpr::Broadcast(a, ..)
        | AExpr::Inverse(a, _)
        | AExpr::Swizzle(a, ..) => names(a, out),
    }
}

/// The key of an operand: its whole path as written (`a::P`, `crate::a::P`), so two items of the
/// same name in different modules or crates never share a definition. Two paths that name the
/// same item are two keys with the same definition.
fn key(p: &syn::Path) -> String {
    quote!(#p).to_string()
}

/// Either the callback that fetches the next definition, or the evaluated expression.
pub fn expand(k: &TokenStream, rest: TokenStream, a: Algebra) -> TokenStream {
    let mut used = Vec::new();
    names(&a.expr, &mut used);
    let defined: Vec<String> = a.defs.iter().map(|(p, _)| key(p)).collect();
    if let Some(p) = used.iter().find(|p| !defined.contains(&key(p))) {
        // Ask the item's hidden macro (re-exported under the item's name in the macro
        // namespace) for its declaration; it calls us back with it, keyed by `p`.
        return quote!(#p! { { #k::__private::layout_impl } { #p } { (#k) #rest } });
    }
    match evaluate(k, &a) {
        Ok(t) => t,
        // In expression position: the errors as statements of a block whose value diverges, so
        // that several errors (a rule and its note) read as they are and the unusable value
        // raises no error of its own.
        Err(errs) => {
            let errs: TokenStream = errs.into_iter().map(|e| e.to_compile_error()).collect();
            quote!({ #errs ::core::unreachable!() })
        }
    }
}

/// A map with what the typed value needs besides it.
struct Value2 {
    map: Map,
    index: IndexTy,
    runtime: Vec<(usize, TokenStream)>,
}

fn err(span: Span, e: &Error) -> Vec<syn::Error> {
    vec![valid::error(span, e)]
}

fn from_checked(c: &Checked) -> Result<Map, Error> {
    let a = Annotated::new(c.layout.clone(), c.domain, c.codomain)?
        .with_tiles(c.domain_tile.clone(), c.codomain_tile.clone())?;
    let m: Map = a.into();
    match c.swizzle {
        Some(s) => m.swizzle(s),
        None => Ok(m),
    }
}

/// The layout of a map that is one (a plain layout, or a composite decided to be a layout).
fn as_layout(m: &Map) -> Option<(Layout, Space, Space)> {
    match m {
        Map::Layout(a) => Some((a.layout().clone(), m.domain(), m.codomain())),
        _ => None,
    }
}

fn eval_expr(
    e: &AExpr,
    defs: &BTreeMap<String, (Checked, Span)>,
) -> Result<Value2, Vec<syn::Error>> {
    match e {
        AExpr::Named(p, span) => {
            let (c, _) = defs
                .get(&key(p))
                .ok_or_else(|| vec![syn::Error::new(*span, "unknown layout")])?;
            let map = from_checked(c).map_err(|e| err(*span, &e))?;
            Ok(Value2 {
                map,
                index: c.index,
                runtime: Vec::new(),
            })
        }
        AExpr::Literal(d, span) => {
            if !d.layout.runtime.is_empty() {
                return Err(vec![syn::Error::new(
                    *span,
                    "an operand of an algebra expression has static leaves only\nhelp: give every size and stride as an integer; run-time leaves live in `layout!(LAYOUT, ..)` values, composed with `try_compose`",
                )]);
            }
            let (c, errs) = valid::check(d);
            match c {
                Some(c) if errs.is_empty() => {
                    let map = from_checked(&c).map_err(|e| err(*span, &e))?;
                    Ok(Value2 {
                        map,
                        index: c.index,
                        runtime: Vec::new(),
                    })
                }
                _ => Err(errs),
            }
        }
        AExpr::Compose(a, b, span) => {
            let (va, vb) = (eval_expr(a, defs)?, eval_expr(b, defs)?);
            if !vb.runtime.is_empty() {
                return Err(err(
                    *span,
                    &Error::RightNotLogical {
                        codomain: vb.map.codomain(),
                    },
                ));
            }
            if !va.runtime.is_empty() {
                return Err(runtime_not_last(a, "compose"));
            }
            let at = |e: &Error| match e {
                Error::LeftDomainNotLogical { .. } => span_of(a),
                _ => span_of(b),
            };
            let map = layout_core::compose(&va.map, &vb.map).map_err(|e| match e {
                Error::SizeMismatch { left, right } => vec![syn::Error::new(
                    span_of(b),
                    format!(
                        "size mismatch in `compose`: the right operand has {right} positions, the left operand reads {left}\nhelp: the right operand must enumerate all {left} positions of the left operand's domain; `divide` or `repeat` one operand so that the sizes agree"
                    ),
                )],
                _ => err(at(&e), &e),
            })?;
            Ok(Value2 {
                map,
                index: va.index,
                runtime: va.runtime,
            })
        }
        AExpr::Restrict(a, fixed, span) => {
            let v = eval_expr(a, defs)?;
            if v.map.codomain() != Space::Physical {
                return Err(err(
                    span_of(a),
                    &Error::RestrictNotPhysical {
                        codomain: v.map.codomain(),
                    },
                ));
            }
            // An entry fixed by a run-time value stays in `v.map` until emission; the entries
            // this `restrict` sees are the others (spec: Restriction; later indices count the remaining
            // entries).
            let all_names = v.map.domain_names();
            let visible: Vec<usize> = (0..v.map.domain_entries().len())
                .filter(|i| !v.runtime.iter().any(|(r, _)| r == i))
                .collect();
            let mut statics = Vec::new();
            let mut runtime = v.runtime.clone();
            let mut seen = Vec::new();
            for (entry, value) in fixed {
                let (pos, espan) = match entry {
                    Entry::Position(p, s) => (*p, *s),
                    Entry::Name(n, s) => {
                        let named = |i: &usize| all_names.get(*i).and_then(Option::as_deref);
                        match visible.iter().position(|i| named(i) == Some(n.as_str())) {
                            Some(p) => (p, *s),
                            None => return Err(err(*s, &Error::UnknownModeName)),
                        }
                    }
                };
                let Some(&actual) = visible.get(pos).filter(|i| !seen.contains(*i)) else {
                    return Err(err(
                        espan,
                        &Error::RestrictEntry {
                            entry: pos,
                            rank: visible.len(),
                        },
                    ));
                };
                seen.push(actual);
                match value {
                    Value::Static(x) => statics.push((actual, *x)),
                    Value::Coord(c, cspan) => {
                        let x = v.map.entry_index(actual, c).map_err(|e| err(*cspan, &e))?;
                        statics.push((actual, x));
                    }
                    Value::Runtime(t) => runtime.push((actual, t.clone())),
                }
            }
            if runtime.len() > 1 {
                return Err(vec![syn::Error::new(
                    *span,
                    "one run-time value per map: the other entries of a run-time `restrict` must be literals\nhelp: fix the other entries with literal values, or restrict a smaller map",
                )]);
            }
            let map = if statics.is_empty() {
                v.map
            } else {
                // Fixing entries renumbers the later ones, the run-time entry among them.
                // The fixed entries are distinct and below `r`, so there are at most `r`.
                for (r, _) in &mut runtime {
                    *r = r.saturating_sub(statics.iter().filter(|(e, _)| e < r).count());
                }
                v.map.restrict(&statics).map_err(|e| err(*span, &e))?
            };
            Ok(Value2 {
                map,
                index: v.index,
                runtime,
            })
        }
        AExpr::Swizzle(a, sw, span) => {
            let v = eval_expr(a, defs)?;
            let s = match *sw {
                crate::ast::SwizzleAst::Seed { b, src, dst } => {
                    layout_core::Swizzle::from_fields(b, src, dst)
                }
                crate::ast::SwizzleAst::Cute { b, m, s } => {
                    layout_core::Swizzle::from_cute(b, m, s, layout_core::SwizzleUnit::Elements)
                }
            }
            .map_err(|e| err(*span, &e))?;
            if v.map.is_swizzled() {
                return Err(vec![syn::Error::new(
                    *span,
                    "a second swizzle\nhelp: a map has at most one swizzle, its last step",
                )]);
            }
            let map = v.map.swizzle(s).map_err(|e| err(span_of(a), &e))?;
            Ok(Value2 { map, ..v })
        }
        other => layout_op(other, defs),
    }
}

/// Operations on layouts: divide, repeat, interleave, broadcast, inverse. A composite operand
/// that is decided to be a layout is used as that layout.
fn layout_op(
    e: &AExpr,
    defs: &BTreeMap<String, (Checked, Span)>,
) -> Result<Value2, Vec<syn::Error>> {
    let (a, span, op) = match e {
        AExpr::Divide(a, _, false, s) => (a, *s, "divide"),
        AExpr::Divide(a, _, true, s) => (a, *s, "divide_modes"),
        AExpr::Repeat(a, _, false, s) => (a, *s, "repeat"),
        AExpr::Repeat(a, _, true, s) => (a, *s, "interleave"),
        AExpr::Broadcast(a, _, s) => (a, *s, "broadcast"),
        AExpr::Inverse(a, s) => (a, *s, "inverse"),
        _ => {
            return Err(vec![syn::Error::new(
                span_of(e),
                "not an operation on layouts",
            )]);
        }
    };
    let v = eval_expr(a, defs)?;
    if !v.runtime.is_empty() {
        return Err(runtime_not_last(a, op));
    }
    let (l, dom, cod) = materialise(&v.map).ok_or_else(|| not_a_layout(a, &v.map, op))?;
    if op == "inverse" && cod == Space::Physical && layout_core::is_dense_bijection(&l) {
        return Err(vec![syn::Error::new(
            span_of(a),
            format!(
                "`inverse` needs a dense bijection into logical or thread-value space, but this map is {dom} -> physical\nhelp: invert the thread-value or logical layout before composing it with storage"
            ),
        )]);
    }
    // The operand's tile shapes (on its logical sides), from which the result's are computed.
    let t_dom = v.map.domain_tile().map(<[i64]>::to_vec);
    let t_cod = v.map.codomain_tile().map(<[i64]>::to_vec);
    let (layout, dom, cod, tiles) = match e {
        AExpr::Divide(_, tile, modes, _) => {
            let k: Vec<i64> = tile.entries.iter().map(|(k, _)| *k).collect();
            let r = if *modes {
                layout_core::divide_modes(&l, &k)
            } else {
                layout_core::divide(&l, &k)
            };
            // Point at the offending tile entry, or at the whole tile.
            let at = |e: &Error| match e {
                Error::NotDivisible { mode, .. } | Error::TileSplit { mode, .. } => mode
                    .indices()
                    .first()
                    .and_then(|i| tile.entries.get(usize::from(*i)))
                    .map_or(tile.span, |(_, s)| *s),
                Error::TileRank { .. } => tile.span,
                _ => span,
            };
            let r = r.map_err(|e| err(at(&e), &e))?;
            // `divide_modes` is the same function on flat indices: both tiles stay. `divide`
            // reorders the domain to `(tile, rest)`: a domain tile equal to the top-level sizes
            // `(n_i)` becomes `(k_i.., n_i/k_i..)`; the codomain is untouched.
            let dt = match t_dom {
                Some(t) if !*modes => Some(divided_tile(&l, &t, &k).ok_or_else(|| {
                    vec![syn::Error::new(
                        span_of(a),
                        format!(
                            "`divide` reorders a domain whose tile shape {t:?} is not its top-level sizes, so the result's tile shape is unknown\nhelp: declare the layout with one top-level mode per tile extent, or use `divide_modes`, which keeps the order"
                        ),
                    )]
                })?),
                t => t,
            };
            (r, dom, cod, (dt, t_cod))
        }
        AExpr::Repeat(_, b, interleave, _) => {
            let arr = match b.as_ref() {
                AExpr::Arrangement(l, _) => arrangement(l, op)?,
                _ => {
                    let vb = eval_expr(b, defs)?;
                    if !vb.runtime.is_empty() {
                        return Err(runtime_not_last(b, op));
                    }
                    materialise(&vb.map)
                        .ok_or_else(|| not_a_layout(b, &vb.map, op))?
                        .0
                }
            };
            let r = if *interleave {
                layout_core::interleave(&l, &arr)
            } else {
                layout_core::repeat(&l, &arr)
            };
            // `repeat`: index `a·size(L) + l`, value `size(L)·A(a) + L(l)` on a logical
            // codomain (dense, so `M = size(L)`): the arrangement's size is the slowest extent.
            // `interleave`: `l·size(A) + a` and `size(A)·L(l) + A(a)`: the fastest.
            let n = arr.size();
            let extend = |t: Option<Vec<i64>>| {
                t.map(|mut t| {
                    if *interleave {
                        t.push(n);
                    } else {
                        t.insert(0, n);
                    }
                    t
                })
            };
            (
                r.map_err(|e| not_dense(op, "the arrangement", span_of(b), &e))?,
                dom,
                cod,
                (extend(t_dom), extend(t_cod)),
            )
        }
        AExpr::Broadcast(_, shape, _) => {
            if cod != Space::Physical {
                return Err(vec![syn::Error::new(
                    span_of(a),
                    format!(
                        "`broadcast` makes copies at the same addresses, a read-only map into physical, and this map's codomain is {}\nhelp: broadcast a map into physical, e.g. `broadcast(SMEM, (4))` or `broadcast(compose(SMEM, TV), (4))`",
                        cod.as_str()
                    ),
                )]);
            }
            let r = layout_core::broadcast(&l, shape).map_err(|e| err(span, &e))?;
            // The copies are the slowest group of the domain.
            let copies = shape
                .leaves()
                .into_iter()
                .try_fold(1i64, |a, &n| a.checked_mul(n))
                .unwrap_or(i64::MAX);
            let dt = t_dom.map(|mut t| {
                t.insert(0, copies);
                t
            });
            (r, dom, cod, (dt, None))
        }
        _ => {
            let r =
                layout_core::inverse(&l).map_err(|e| not_dense(op, "this map", span_of(a), &e))?;
            // The two sides exchange places, with their tiles.
            (r, cod, dom, (t_cod, t_dom))
        }
    };
    let (dt, ct) = tiles;
    for t in [&dt, &ct].into_iter().flatten() {
        if t.len() > MAX_TILE_EXTENTS {
            return Err(vec![syn::Error::new(
                span,
                format!(
                    "the result's tile shape {t:?} has {} extents; a tile shape has at most {MAX_TILE_EXTENTS}\nhelp: apply `{op}` to a layout without a tile shape on that side, or with fewer extents",
                    t.len()
                ),
            )]);
        }
    }
    let map = layout_map(layout, dom, cod, dt, ct).map_err(|e| err(span, &e))?;
    Ok(Value2 {
        map,
        index: v.index,
        runtime: v.runtime,
    })
}

/// A dense-bijection failure (Lemma 1) of an operand of `op`, in the operation's words; other
/// errors as they are.
fn not_dense(op: &str, what: &str, span: Span, e: &Error) -> Vec<syn::Error> {
    let help = match (op, e) {
        ("inverse", Error::NotDense { .. } | Error::BroadcastNotDense { .. }) => {
            "only a dense bijection onto [0, size) has an inverse; a layout with gaps or broadcasts has none".to_string()
        }
        (_, Error::NotDense { mode, expected, .. }) => format!(
            "the arrangement numbers the copies, so its strides, sorted, are the running products of its sizes: stride {expected} for mode {}",
            mode_text(mode)
        ),
        (_, Error::BroadcastNotDense { .. }) => {
            "an arrangement cannot broadcast; `broadcast(L, shape)` makes read-only copies at the same addresses".to_string()
        }
        _ => return err(span, e),
    };
    let e = e.to_string();
    let why = e.strip_prefix("not a dense bijection ").unwrap_or(&e);
    vec![syn::Error::new(
        span,
        format!("`{op}` needs a dense bijection, and {what} is not one {why}\nhelp: {help}"),
    )]
}

fn mode_text(m: &layout_core::ModePath) -> String {
    let parts: Vec<String> = m.indices().iter().map(u8::to_string).collect();
    parts.join(".")
}

/// A literal arrangement `(3):(1)`: built, then checked dense at the token of the mode that
/// breaks Lemma 1. Structural errors (profiles, sizes, zero strides) as for any layout.
fn arrangement(l: &LayoutAst, op: &str) -> Result<Layout, Vec<syn::Error>> {
    let built = Layout::new(l.shape.to_tree(), l.stride.to_tree())
        .and_then(|x| x.with_names(l.names.clone()));
    let Ok(layout) = built else {
        let side = |space| crate::ast::Side {
            space,
            span: l.span,
            tile: None,
        };
        let d = Decl {
            layout: l.clone(),
            domain: side(Space::Logical),
            codomain: side(Space::Logical),
            swizzle: None,
            index: None,
        };
        let (_, errs) = valid::check(&d);
        return Err(if errs.is_empty() {
            vec![syn::Error::new(l.span, "not a layout")]
        } else {
            errs
        });
    };
    match layout_core::check_dense_bijection(&layout) {
        Ok(()) => Ok(layout),
        Err(e) => {
            let span = e
                .mode()
                .and_then(|m| l.stride.at(m.indices()).map(Node::span))
                .unwrap_or(l.span);
            Err(not_dense(op, "the arrangement", span, &e))
        }
    }
}

/// A run-time `restrict` under another operation.
fn runtime_not_last(a: &AExpr, op: &str) -> Vec<syn::Error> {
    vec![syn::Error::new(
        span_of(a),
        format!(
            "`{op}` after a `restrict` by a run-time value: the run-time restriction is the last step of an expression (only a swizzle may follow it)\nhelp: apply `{op}` first and restrict its result"
        ),
    )]
}

/// An operand of a layout operation that is not a layout.
fn not_a_layout(a: &AExpr, m: &Map, op: &str) -> Vec<syn::Error> {
    let (what, help) = if m.is_restricted() {
        (
            "a restriction (constant + map)".to_string(),
            format!("apply `{op}` first and restrict its result"),
        )
    } else if m.is_swizzled() {
        (
            "swizzled".to_string(),
            format!("apply `{op}` to the layout and swizzle the result"),
        )
    } else {
        let why = match layout_core::decide(m, false).map(|d| d.result) {
            Ok(Err(layout_core::NotLayout::Separability { witness })) => {
                format!(": not separable at the coordinate {witness:?}")
            }
            Ok(Err(layout_core::NotLayout::Scan { coordinate, t })) => {
                format!(": the scan of coordinate {coordinate} rejects at {t}")
            }
            Ok(Ok(_)) => String::new(),
            Err(e) => format!(": {e}"),
        };
        (
            format!("a composite that is not a layout (Theorem 1{why})"),
            format!("apply `{op}` to the operands before composing them"),
        )
    };
    vec![syn::Error::new(
        span_of(a),
        format!("`{op}` needs a layout, and this map is {what}\nhelp: {help}"),
    )]
}

/// An operation's result as a map. Thread-value -> physical exists only as a composite
/// (spec: Constructible annotations): such a layout (an operation on a composite decided to be a layout) is itself after
/// the identity `canonical(shape)`, thread-value -> logical, which keeps its mode names.
fn layout_map(
    l: Layout,
    dom: Space,
    cod: Space,
    domain_tile: Option<Vec<i64>>,
    codomain_tile: Option<Vec<i64>>,
) -> Result<Map, Error> {
    if (dom, cod) == (Space::ThreadValue, Space::Physical) {
        let id = layout_core::canonical(l.shape())?.with_names(l.names().to_vec())?;
        let left = Annotated::new(l, Space::Logical, Space::Physical)?;
        let right = Annotated::new(id, Space::ThreadValue, Space::Logical)?;
        return layout_core::compose(&left.into(), &right.into());
    }
    Ok(Annotated::new(l, dom, cod)?
        .with_tiles(domain_tile, codomain_tile)?
        .into())
}

/// The most extents a tile shape has (the typed API's `Tile1` to `Tile4`).
const MAX_TILE_EXTENTS: usize = 4;

/// The domain tile of `divide(l, k)` when `l`'s domain tile `t` is its top-level sizes `(n_i)`:
/// `(k_i.., n_i/k_i..)`, the order of the `(tile, rest)` groups. `None` otherwise.
fn divided_tile(l: &Layout, t: &[i64], k: &[i64]) -> Option<Vec<i64>> {
    let sizes: Vec<i64> = match l.shape() {
        Tree::Tuple(v) => v
            .iter()
            .map(|m| {
                m.leaves()
                    .into_iter()
                    .try_fold(1i64, |a, &n| a.checked_mul(n))
            })
            .collect::<Option<_>>()?,
        Tree::Leaf(n) => vec![*n],
    };
    if sizes != t || sizes.len() != k.len() {
        return None;
    }
    let mut out = k.to_vec();
    for (n, k) in sizes.iter().zip(k) {
        out.push(n.checked_div(*k)?);
    }
    Some(out)
}

fn span_of(e: &AExpr) -> Span {
    match e {
        AExpr::Named(_, s)
        | AExpr::Literal(_, s)
        | AExpr::Arrangement(_, s)
        | AExpr::Compose(_, _, s)
        | AExpr::Divide(_, _, _, s)
        | AExpr::Restrict(_, _, s)
        | AExpr::Repeat(_, _, _, s)
        | AExpr::Broadcast(_, _, s)
        | AExpr::Inverse(_, s)
        | AExpr::Swizzle(_, _, s) => *s,
    }
}

/// A map as a layout: itself, or the coarsest layout Theorem 1 finds for a composite.
fn materialise(m: &Map) -> Option<(Layout, Space, Space)> {
    if let Some(l) = as_layout(m) {
        return Some(l);
    }
    if m.is_swizzled() || m.is_restricted() {
        return None;
    }
    let l = layout_core::decide(m, false)
        .ok()?
        .coarsest_layout(&m.domain_shape())?;
    Some((l, m.domain(), m.codomain()))
}

fn evaluate(k: &TokenStream, a: &Algebra) -> Result<TokenStream, Vec<syn::Error>> {
    let mut defs = BTreeMap::new();
    // The declaration arrives through the macro namespace (the item's hidden macro), the
    // operand's value through the value namespace: a value of another type under the same path
    // (a `const` shadowing a glob-imported item, say) would make them two different items. The
    // expansion asserts that the operand's value has the declaration's type, which is the
    // layout itself (form, spaces, tiles, swizzle): equal types, equal offsets.
    let mut same_item = TokenStream::new();
    for (path, d) in &a.defs {
        let (c, errs) = valid::check(d);
        match c {
            Some(c) if errs.is_empty() => {
                let span = path
                    .segments
                    .last()
                    .map_or_else(Span::call_site, |s| s.ident.span());
                let (ty, _) = crate::expand::typed(k, &c);
                same_item.extend(quote::quote_spanned!(span=> let _: #ty = #path;));
                defs.insert(key(path), (c, span));
            }
            _ => return Err(errs),
        }
    }
    let v = eval_expr(&a.expr, &defs)?;
    // The result's offsets must fit the index type its left operand declared: its exact range,
    // or, where that is undecided, bounds that contain it (then the range error stands).
    let (type_min, type_max) = v.index.range();
    let (min, max) = match v.map.offset_range() {
        Ok(r) => r,
        Err(e) => match v.map.offset_bounds() {
            (lo, hi) if lo >= type_min && hi <= type_max => (lo, hi),
            _ => return Err(err(span_of(&a.expr), &e)),
        },
    };
    if min < type_min || max > type_max {
        return Err(err(
            span_of(&a.expr),
            &Error::IndexTypeRange {
                min,
                max,
                type_min,
                type_max,
            },
        ));
    }
    let value = crate::expand::typed_map(k, &v.map, v.index, &v.runtime).map_err(|e| match e {
        crate::expand::Failure::Core(e) => err(span_of(&a.expr), &e),
        crate::expand::Failure::Message(m) => vec![syn::Error::new(span_of(&a.expr), m)],
    })?;
    Ok(if same_item.is_empty() {
        value
    } else {
        quote!({ #same_item #value })
    })
}

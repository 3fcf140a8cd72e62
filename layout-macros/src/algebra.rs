//! Algebra expressions in `layout!`: `compose(SMEM, TV)`, `divide(SMEM, (64, 32))`,
//! `restrict(ADDR, thread = t)`, `repeat(STAGE, (3):(1))`, `broadcast(L, (4))`, `inverse(TV)`,
//! `swizzle(L, b = 3, src = 7, dst = 4)`.
//!
//! Named operands are items made by `layout! { const NAME = ..; }` elsewhere. Each such item
//! also defines a hidden `macro_rules! __layout_def_NAME` that hands its declaration back; this
//! module first resolves every name through those macros (one callback per name: the
//! definitions arrive as `[NAME = DECL]` groups before the expression), then evaluates the
//! expression with `layout-core` during expansion, so every rule is a compile error with the
//! numbers, and emits a typed value whose `offset` is the decided code.

use std::collections::BTreeMap;

use layout_core::{Annotated, Decision, Error, Layout, Map, Space, Stride, Tree};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::ParseStream;
use syn::{Ident, Token};

use crate::ast::{Decl, IndexTy};
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
    Runtime(TokenStream),
}

/// Which entry `restrict` fixes.
pub enum Entry {
    Position(usize, Span),
    Name(String, Span),
}

/// An expression as written.
pub enum AExpr {
    Named(syn::Path, Span),
    Literal(Box<Decl>, Span),
    Compose(Box<AExpr>, Box<AExpr>, Span),
    Divide(Box<AExpr>, Vec<i64>, bool, Span),
    Restrict(Box<AExpr>, Vec<(Entry, Value)>, Span),
    Repeat(Box<AExpr>, Box<AExpr>, bool, Span),
    Broadcast(Box<AExpr>, Tree<i64>, Span),
    Inverse(Box<AExpr>, Span),
    Swizzle(Box<AExpr>, crate::ast::SwizzleAst, Span),
}

/// A parsed algebra invocation: the definitions resolved so far and the expression.
pub struct Algebra {
    pub defs: Vec<(Ident, Decl)>,
    pub expr: AExpr,
}

/// Whether the input is an algebra expression: `[NAME = ..]` groups or `op(`.
pub fn is_algebra(s: ParseStream) -> bool {
    if s.peek(syn::token::Bracket) {
        return true;
    }
    s.peek(Ident)
        && s.peek2(syn::token::Paren)
        && s.fork()
            .parse::<Ident>()
            .is_ok_and(|i| OPS.contains(&i.to_string().as_str()))
}

pub fn parse(s: ParseStream) -> syn::Result<Algebra> {
    let mut defs = Vec::new();
    while s.peek(syn::token::Bracket) {
        let content;
        syn::bracketed!(content in s);
        let name: Ident = content.parse()?;
        content.parse::<Token![=]>()?;
        let d = parse::decl_stream(&content)?;
        defs.push((name, d));
    }
    let expr = expr(s)?;
    if !s.is_empty() {
        return Err(s.error("unexpected tokens after the expression"));
    }
    Ok(Algebra { defs, expr })
}

fn expr(s: ParseStream) -> syn::Result<AExpr> {
    if s.peek(syn::token::Bracket) {
        let content;
        let b = syn::bracketed!(content in s);
        let d = parse::decl_stream(&content)?;
        return Ok(AExpr::Literal(Box::new(d), b.span.join()));
    }
    if s.peek(Ident) && s.peek2(syn::token::Paren) {
        let op: Ident = s.fork().parse()?;
        if OPS.contains(&op.to_string().as_str()) {
            return call(s);
        }
    }
    let path: syn::Path = s.parse().map_err(|e| {
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

fn call(s: ParseStream) -> syn::Result<AExpr> {
    let op: Ident = s.parse()?;
    let span = op.span();
    let content;
    syn::parenthesized!(content in s);
    let a = Box::new(expr(&content)?);
    let next = |what: &str| -> syn::Result<()> {
        content
            .parse::<Token![,]>()
            .map_err(|e| syn::Error::new(e.span(), format!("`{op}` takes {what}")))?;
        Ok(())
    };
    let out = match op.to_string().as_str() {
        "compose" => {
            next("two layouts: `compose(left, right)` applies `right` first")?;
            AExpr::Compose(a, Box::new(expr(&content)?), span)
        }
        name @ ("divide" | "divide_modes") => {
            next("a layout and a tile shape: `divide(L, (64, 32))`")?;
            let tile = parse::shape_tree(&content)?;
            let tile = tile.leaves().into_iter().copied().collect();
            AExpr::Divide(a, tile, name == "divide_modes", span)
        }
        "restrict" => {
            next(
                "a map and fixed entries: `restrict(ADDR, thread = t)` or `restrict(ADDR, 0 = 2)`",
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
                let value = if content.peek(syn::LitInt)
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
            next("a layout and an arrangement: `repeat(L, (3):(1))`")?;
            let b = if content.peek(syn::token::Paren) || content.peek(syn::LitInt) {
                let l = parse::layout_stream(&content)?;
                let span = l.span;
                AExpr::Literal(
                    Box::new(Decl {
                        layout: l,
                        domain: crate::ast::Side {
                            space: Space::Logical,
                            span,
                            tile: None,
                        },
                        codomain: crate::ast::Side {
                            space: Space::Logical,
                            span,
                            tile: None,
                        },
                        swizzle: None,
                        index: None,
                    }),
                    span,
                )
            } else {
                expr(&content)?
            };
            AExpr::Repeat(a, Box::new(b), name == "interleave", span)
        }
        "broadcast" => {
            next("a layout and a shape: `broadcast(L, (4))`")?;
            AExpr::Broadcast(a, parse::shape_tree(&content)?, span)
        }
        "inverse" => AExpr::Inverse(a, span),
        "swizzle" => {
            next("a map and the fields: `swizzle(L, b = 3, src = 7, dst = 4)`")?;
            let sw = parse::seed_swizzle_stream(&content, span)?;
            AExpr::Swizzle(a, sw, span)
        }
        other => {
            return Err(syn::Error::new(
                span,
                format!("unknown operation `{other}`"),
            ));
        }
    };
    if !content.is_empty() {
        return Err(content.error("unexpected arguments"));
    }
    Ok(out)
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
        AExpr::Literal(..) => {}
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

fn key(p: &syn::Path) -> String {
    p.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// Either the callback that fetches the next definition, or the evaluated expression.
pub fn expand(k: &TokenStream, rest: TokenStream, a: Algebra) -> TokenStream {
    let mut used = Vec::new();
    names(&a.expr, &mut used);
    let defined: Vec<String> = a.defs.iter().map(|(n, _)| n.to_string()).collect();
    if let Some(p) = used.iter().find(|p| !defined.contains(&key(p))) {
        // Ask the item's hidden macro (re-exported under the item's name in the macro
        // namespace) for its declaration; it calls us back with it.
        return quote!(#p! { { #k::__private::layout_impl } { (#k) #rest } });
    }
    match evaluate(k, &a) {
        Ok(t) => t,
        Err(errs) => errs.into_iter().map(|e| e.to_compile_error()).collect(),
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
            let at = |e: &Error| match e {
                Error::LeftDomainNotLogical { .. } => span_of(a),
                _ => span_of(b),
            };
            let map = layout_core::compose(&va.map, &vb.map).map_err(|e| err(at(&e), &e))?;
            Ok(Value2 {
                map,
                index: va.index,
                runtime: va.runtime,
            })
        }
        AExpr::Restrict(a, fixed, span) => {
            let v = eval_expr(a, defs)?;
            let names = v.map.domain_names();
            let free = match v.map.domain_shape() {
                Tree::Tuple(t) => t.len(),
                Tree::Leaf(_) => 1,
            };
            let mut statics = Vec::new();
            let mut runtime = v.runtime.clone();
            for (entry, value) in fixed {
                let (pos, espan) = match entry {
                    Entry::Position(p, s) => (*p, *s),
                    Entry::Name(n, s) => {
                        match names.iter().position(|m| m.as_deref() == Some(n.as_str())) {
                            Some(p) => (p, *s),
                            None => return Err(err(*s, &Error::UnknownModeName)),
                        }
                    }
                };
                if pos >= free {
                    return Err(err(
                        espan,
                        &Error::RestrictEntry {
                            entry: pos,
                            rank: free,
                        },
                    ));
                }
                match value {
                    Value::Static(x) => statics.push((pos, *x)),
                    Value::Runtime(t) => {
                        if v.map.codomain() != Space::Physical {
                            return Err(err(
                                *span,
                                &Error::RestrictNotPhysical {
                                    codomain: v.map.codomain(),
                                },
                            ));
                        }
                        runtime.push((pos, t.clone()));
                    }
                }
            }
            if !runtime.is_empty() && !statics.is_empty() {
                return Err(vec![syn::Error::new(
                    *span,
                    "fix either literal values or run-time values in one `restrict`\nhelp: nest two `restrict` calls",
                )]);
            }
            if runtime.len() > 1 {
                return Err(vec![syn::Error::new(
                    *span,
                    "one run-time value per `restrict`",
                )]);
            }
            let map = if statics.is_empty() {
                if v.map.codomain() != Space::Physical {
                    return Err(err(
                        *span,
                        &Error::RestrictNotPhysical {
                            codomain: v.map.codomain(),
                        },
                    ));
                }
                v.map
            } else {
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
                crate::ast::SwizzleAst::Seed { b, src, dst } => layout_core::Swizzle::new(
                    b.clamp(0, 64) as u32,
                    src.clamp(0, 64) as u32,
                    dst.clamp(0, 64) as u32,
                ),
                crate::ast::SwizzleAst::Cute { b, m, s } => {
                    layout_core::Swizzle::from_cute(b, m, s)
                }
            }
            .map_err(|e| err(*span, &e))?;
            let map = v.map.swizzle(s).map_err(|e| err(*span, &e))?;
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
    let (a, span) = match e {
        AExpr::Divide(a, _, _, s)
        | AExpr::Repeat(a, _, _, s)
        | AExpr::Broadcast(a, _, s)
        | AExpr::Inverse(a, s) => (a, *s),
        _ => {
            return Err(vec![syn::Error::new(
                span_of(e),
                "not an operation on layouts",
            )]);
        }
    };
    let v = eval_expr(a, defs)?;
    let (l, dom, cod) = materialise(&v.map).ok_or_else(|| {
        vec![syn::Error::new(span_of(a), "this operation needs a layout, and this map is not one (Theorem 1); apply it to the operands before composing")]
    })?;
    let result = match e {
        AExpr::Divide(_, tile, false, _) => layout_core::divide(&l, tile).map(|r| (r, dom, cod)),
        AExpr::Divide(_, tile, true, _) => {
            layout_core::divide_modes(&l, tile).map(|r| (r, dom, cod))
        }
        AExpr::Repeat(_, b, interleave, _) => {
            let vb = eval_expr(b, defs)?;
            let (arr, _, _) = materialise(&vb.map).ok_or_else(|| {
                vec![syn::Error::new(
                    span_of(b),
                    "the arrangement must be a layout",
                )]
            })?;
            if *interleave {
                layout_core::interleave(&l, &arr)
            } else {
                layout_core::repeat(&l, &arr)
            }
            .map(|r| (r, dom, cod))
            .map_err(|e| err(span_of(b), &e))?
            .pipe_ok()
        }
        AExpr::Broadcast(_, shape, _) => layout_core::broadcast(&l, shape).map(|r| (r, dom, cod)),
        AExpr::Inverse(..) => layout_core::inverse(&l).map(|r| (r, cod, dom)),
        _ => unreachable_op(),
    }
    .map_err(|e| err(span, &e))?;
    let (layout, dom, cod) = result;
    let map: Map = Annotated::new(layout, dom, cod)
        .map_err(|e| err(span, &e))?
        .into();
    Ok(Value2 {
        map,
        index: v.index,
        runtime: v.runtime,
    })
}

trait PipeOk<T> {
    fn pipe_ok(self) -> Result<T, Error>;
}
impl<T> PipeOk<T> for T {
    fn pipe_ok(self) -> Result<T, Error> {
        Ok(self)
    }
}

fn unreachable_op() -> Result<(Layout, Space, Space), Error> {
    Err(Error::UnknownModeName)
}

fn span_of(e: &AExpr) -> Span {
    match e {
        AExpr::Named(_, s)
        | AExpr::Literal(_, s)
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
    let d = layout_core::decide(m, false).ok()?;
    let (shape, stride) = refined(&m.domain_shape(), &d)?;
    let l = Layout::new(shape, stride).ok()?;
    Some((l, m.domain(), m.codomain()))
}

/// The domain shape with every leaf replaced by its coarsest refinement (slowest first).
fn refined(shape: &Tree<i64>, d: &Decision) -> Option<(Tree<i64>, Tree<Stride>)> {
    let chains = d.result.as_ref().ok()?;
    if d.constant != 0 {
        return None;
    }
    let mut next = chains.iter();
    fn walk<'a>(
        t: &Tree<i64>,
        next: &mut impl Iterator<Item = &'a layout_core::Chain>,
    ) -> Option<(Tree<i64>, Tree<Stride>)> {
        match t {
            Tree::Leaf(_) => {
                let c = next.next()?;
                let pieces: Vec<(i64, i64)> = c
                    .shape
                    .iter()
                    .copied()
                    .zip(c.strides.iter().copied())
                    .collect();
                // Zero strides are internal broadcasts of the refinement: `_`.
                let st = |s: i64| {
                    if s == 0 {
                        Stride::Broadcast
                    } else {
                        Stride::Int(s)
                    }
                };
                if pieces.len() == 1 {
                    Some((Tree::Leaf(pieces[0].0), Tree::Leaf(st(pieces[0].1))))
                } else {
                    Some((
                        Tree::Tuple(pieces.iter().map(|p| Tree::Leaf(p.0)).collect()),
                        Tree::Tuple(pieces.iter().map(|p| Tree::Leaf(st(p.1))).collect()),
                    ))
                }
            }
            Tree::Tuple(v) => {
                let mut s = Vec::new();
                let mut d = Vec::new();
                for x in v {
                    let (a, b) = walk(x, next)?;
                    s.push(a);
                    d.push(b);
                }
                Some((Tree::Tuple(s), Tree::Tuple(d)))
            }
        }
    }
    walk(shape, &mut next)
}

fn evaluate(k: &TokenStream, a: &Algebra) -> Result<TokenStream, Vec<syn::Error>> {
    let mut defs = BTreeMap::new();
    for (name, d) in &a.defs {
        let (c, errs) = valid::check(d);
        match c {
            Some(c) if errs.is_empty() => {
                defs.insert(name.to_string(), (c, name.span()));
            }
            _ => return Err(errs),
        }
    }
    let v = eval_expr(&a.expr, &defs)?;
    crate::expand::typed_map(k, &v.map, v.index, &v.runtime).map_err(|e| err(span_of(&a.expr), &e))
}

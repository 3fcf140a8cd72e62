//! Algebra expressions with run-time leaves: an operand written `[({m}, {k}):({ld}, 1), ..]`.
//!
//! While compiling, each such operand's static leaves are checked among themselves (as for a
//! `layout!` value with run-time leaves), and the expression is evaluated on stand-ins: every
//! run-time size taken as a multiple of every tile of the expression, the operand's strides
//! packed (last leaf fastest, `_` kept), every run-time `restrict` value taken as 0. That
//! checks the operations' rules that hold whatever the run-time values, and gives the nesting
//! of the result's domain, which is the type's coordinates. The expansion is
//! `DynamicMap::__build` with the expression's text cut at its run-time values: the program
//! writes the values in and evaluates the expression once, when the value is built, with every
//! rule checked again on the real values (`layout_typed::DynamicMap`).

use layout_core::expr::{self, Arrangement, Decl, Env, Expr, Leaf, Located, Node, Span, Value};
use layout_core::{Error, Stride};
use proc_macro2::TokenStream;
use quote::quote;

use crate::frame::Krate;
use crate::text::Text;

/// Whether an operand written in the expression has a run-time leaf.
pub fn has_runtime(e: &Expr<Span>) -> bool {
    let mut found = false;
    visit(e, &mut |v| {
        if let Visit::Literal(d) = v {
            found |= d.layout.has_runtime();
        }
    });
    found
}

enum Visit<'a> {
    Literal(&'a Decl<Span>),
    Value(&'a Value<Span>),
    Tile(i64),
}

/// Every literal operand, `restrict` value and tile extent of `e`, in the order written.
fn visit<'a>(e: &'a Expr<Span>, f: &mut dyn FnMut(Visit<'a>)) {
    match e {
        Expr::Operand(_) | Expr::Bare(..) => {}
        Expr::Literal(d, _) => f(Visit::Literal(d)),
        Expr::Compose { left, right, .. } => {
            visit(left, f);
            visit(right, f);
        }
        Expr::Divide { operand, tile, .. } => {
            visit(operand, f);
            for (k, _) in &tile.extents {
                f(Visit::Tile(*k));
            }
        }
        Expr::Restrict { operand, fixed, .. } => {
            visit(operand, f);
            fn parts<'a>(v: &'a Value<Span>, f: &mut dyn FnMut(Visit<'a>)) {
                match v {
                    Value::Parts(p, _) => p.iter().for_each(|x| parts(x, f)),
                    v => f(Visit::Value(v)),
                }
            }
            for (_, v) in fixed {
                parts(v, f);
            }
        }
        Expr::Repeat {
            operand,
            arrangement,
            ..
        } => {
            visit(operand, f);
            if let Arrangement::Expr(x) = arrangement.as_ref() {
                visit(x, f);
            }
        }
        Expr::Broadcast { operand, .. }
        | Expr::Inverse { operand, .. }
        | Expr::Swizzle { operand, .. }
        | Expr::Regroup { operand, .. } => visit(operand, f),
    }
}

/// The same expression with every run-time value replaced by a stand-in: run-time sizes by
/// `size`, the strides of a layout with run-time leaves packed, run-time `restrict` values by
/// 0. Spans are kept, so that errors point at what is written.
fn stand_in(e: &Expr<Span>, size: i64) -> Expr<Span> {
    let sub = |x: &Expr<Span>| Box::new(stand_in(x, size));
    match e {
        Expr::Operand(_) | Expr::Bare(..) => e.clone(),
        Expr::Literal(d, s) => {
            if !d.layout.has_runtime() {
                return e.clone();
            }
            let mut d = (**d).clone();
            d.layout.shape = sizes(&d.layout.shape, size);
            if let Some(stride) = packed(&d.layout.shape, &d.layout.stride, d.layout.cute) {
                d.layout.stride = stride;
            }
            Expr::Literal(Box::new(d), s.clone())
        }
        Expr::Compose { left, right, span } => Expr::Compose {
            left: sub(left),
            right: sub(right),
            span: span.clone(),
        },
        Expr::Divide {
            operand,
            tile,
            kind,
            span,
        } => Expr::Divide {
            operand: sub(operand),
            tile: tile.clone(),
            kind: *kind,
            span: span.clone(),
        },
        Expr::Restrict {
            operand,
            fixed,
            span,
        } => Expr::Restrict {
            operand: sub(operand),
            fixed: fixed
                .iter()
                .map(|(entry, v)| (entry.clone(), zeroed(v)))
                .collect(),
            span: span.clone(),
        },
        Expr::Repeat {
            operand,
            arrangement,
            kind,
            span,
        } => Expr::Repeat {
            operand: sub(operand),
            arrangement: Box::new(match arrangement.as_ref() {
                Arrangement::Expr(x) => Arrangement::Expr(stand_in(x, size)),
                a => a.clone(),
            }),
            kind: *kind,
            span: span.clone(),
        },
        Expr::Broadcast {
            operand,
            shape,
            shape_span,
            span,
        } => Expr::Broadcast {
            operand: sub(operand),
            shape: shape.clone(),
            shape_span: shape_span.clone(),
            span: span.clone(),
        },
        Expr::Inverse { operand, span } => Expr::Inverse {
            operand: sub(operand),
            span: span.clone(),
        },
        Expr::Swizzle {
            operand,
            swizzle,
            span,
        } => Expr::Swizzle {
            operand: sub(operand),
            swizzle: *swizzle,
            span: span.clone(),
        },
        Expr::Regroup {
            operand,
            regroup,
            span,
        } => Expr::Regroup {
            operand: sub(operand),
            regroup: regroup.clone(),
            span: span.clone(),
        },
    }
}

/// A `restrict` value with its run-time parts replaced by 0 (its tuples and `_` kept).
fn zeroed(v: &Value<Span>) -> Value<Span> {
    match v {
        Value::Runtime(s) => Value::Int(0, s.clone()),
        Value::Parts(p, s) => Value::Parts(p.iter().map(zeroed).collect(), s.clone()),
        v => v.clone(),
    }
}

/// A shape with its run-time sizes replaced by `size`.
fn sizes(n: &Node<Span>, size: i64) -> Node<Span> {
    match n {
        Node::Leaf(Leaf::Runtime(_), s) => Node::Leaf(Leaf::Int(size), s.clone()),
        Node::Leaf(..) => n.clone(),
        Node::Tuple(v, s) => Node::Tuple(v.iter().map(|x| sizes(x, size)).collect(), s.clone()),
    }
}

/// Packed strides for a shape (the fastest leaf stride 1, each next the product of the sizes
/// before it; the last written leaf fastest, the first in CuTe order), `_` and CuTe's `0` kept.
/// `None` when the profiles differ (an error the operand's own check reports) or a product
/// overflows.
fn packed(shape: &Node<Span>, stride: &Node<Span>, cute: bool) -> Option<Node<Span>> {
    let mut pairs: Vec<(i64, bool)> = Vec::new();
    fn leaves(s: &Node<Span>, d: &Node<Span>, out: &mut Vec<(i64, bool)>) -> Option<()> {
        match (s, d) {
            (Node::Leaf(Leaf::Int(n), _), Node::Leaf(l, _)) => {
                let keep = matches!(l, Leaf::Under | Leaf::Int(0));
                out.push((*n, keep));
                Some(())
            }
            (Node::Tuple(a, _), Node::Tuple(b, _)) if a.len() == b.len() => {
                a.iter().zip(b).try_for_each(|(x, y)| leaves(x, y, out))
            }
            _ => None,
        }
    }
    leaves(shape, stride, &mut pairs)?;
    let mut strides = vec![0i64; pairs.len()];
    let mut w = 1i64;
    let order: Vec<usize> = if cute {
        (0..pairs.len()).collect()
    } else {
        (0..pairs.len()).rev().collect()
    };
    for i in order {
        let (n, keep) = *pairs.get(i)?;
        if !keep {
            *strides.get_mut(i)? = w;
            w = w.checked_mul(n)?;
        }
    }
    fn rebuild(d: &Node<Span>, strides: &[i64], next: &mut usize) -> Node<Span> {
        match d {
            Node::Leaf(l, s) => {
                let v = strides.get(*next).copied().unwrap_or(1);
                *next = next.saturating_add(1);
                match l {
                    Leaf::Under | Leaf::Int(0) => d.clone(),
                    _ => Node::Leaf(Leaf::Int(v), s.clone()),
                }
            }
            Node::Tuple(v, s) => Node::Tuple(
                v.iter().map(|x| rebuild(x, strides, next)).collect(),
                s.clone(),
            ),
        }
    }
    Some(rebuild(stride, &strides, &mut 0))
}

/// A run-time value of the expression: where it is written (what the program replaces), the
/// tokens that compute it, and what it stands for.
struct Part {
    at: Span,
    value: Written,
    part: TokenStream,
}

/// A run-time value as written: one integer expression (a tuple of them is a `Value::Parts`
/// of the expression language, one part each).
struct Written(TokenStream);

impl Written {
    /// Appends the value, and an empty piece for the text after it.
    fn lay_out(
        &self,
        k: &Krate,
        part: &TokenStream,
        pieces: &mut Vec<String>,
        values: &mut Vec<TokenStream>,
    ) {
        let t = &self.0;
        values.push(quote!((#k::__private::leaf(#t), #part)));
        pieces.push(String::new());
    }
}

/// The run-time values of `e`, in the order written.
fn parts(k: &Krate, e: &Expr<Span>, text: &Text) -> Vec<Part> {
    let mut out = Vec::new();
    visit(e, &mut |v| match v {
        Visit::Literal(d) if d.layout.has_runtime() => {
            let n = d.layout.shape.leaves().len();
            for (tree, stride) in [(&d.layout.shape, false), (&d.layout.stride, true)] {
                for (written, (l, braces)) in tree.leaves().into_iter().enumerate() {
                    if let Leaf::Runtime(inner) = l {
                        // The leaf's number in seed order (CuTe order reverses the leaves).
                        let leaf = if d.layout.cute {
                            n.saturating_sub(written).saturating_sub(1)
                        } else {
                            written
                        };
                        let part = if stride {
                            quote!(#k::__private::Part::Stride(#leaf))
                        } else {
                            quote!(#k::__private::Part::Size(#leaf))
                        };
                        out.push(Part {
                            at: braces.clone(),
                            value: Written(text.tokens(inner)),
                            part,
                        });
                    }
                }
            }
        }
        Visit::Value(Value::Runtime(s)) => out.push(Part {
            at: s.clone(),
            value: Written(text.tokens(s)),
            part: quote!(#k::__private::Part::Value),
        }),
        _ => {}
    });
    out.sort_by_key(|p| p.at.start);
    out
}

/// The expansion of an expression with run-time leaves (`has_runtime`), its operands defined
/// in `env`: a `Result<DynamicMap<..>, Error>` built at run time, or the errors found while
/// compiling.
pub fn expand(
    k: &Krate,
    e: &Expr<Span>,
    env: &Env<Span>,
    text: &Text,
) -> Result<TokenStream, Vec<syn::Error>> {
    // Each operand's static leaves among themselves, as for a value with run-time leaves.
    let mut errs = Vec::new();
    let mut lcm = 1i64;
    visit(e, &mut |v| match v {
        Visit::Literal(d) if d.layout.has_runtime() => {
            let (_, es) = expr::check_decl(d);
            errs.extend(es.iter().flat_map(|l| text.errors(l)));
        }
        Visit::Tile(t) if t > 0 => {
            lcm = lcm_of(lcm, t).filter(|&l| l <= 1 << 20).unwrap_or(lcm);
        }
        _ => {}
    });
    if !errs.is_empty() {
        return Err(errs);
    }
    // The stand-ins' sizes: multiples of every tile, small ones first (the packed offsets
    // must fit the index type), then one past most static `restrict` values.
    let samples = [2, 3, 4096].map(|m| lcm.saturating_mul(m));
    let opts = expr::Options::default();
    let mut first_err: Option<Vec<Located<Span>>> = None;
    let mut sizes_differ = None;
    let mut found = None;
    for s in samples {
        match expr::evaluate(&stand_in(e, s), env, &opts) {
            Ok(v) => {
                found = Some(v);
                break;
            }
            Err(es) => {
                if let (Some(first), Some(l)) = (&first_err, es.first())
                    && let (
                        Some(Located {
                            error: Error::SizeMismatch { left: a, .. },
                            ..
                        }),
                        Error::SizeMismatch { left: b, .. },
                    ) = (first.first(), &l.error)
                    && a != b
                {
                    sizes_differ = Some(l.span.clone());
                }
                first_err.get_or_insert(es);
            }
        }
    }
    let Some(v) = found else {
        if let Some(at) = sizes_differ {
            // The error points at the right operand; the rule is about the left one.
            let at = left_of(e, &at).unwrap_or(at);
            return Err(text.errors(&Located::new(Error::RuntimeLeftSize, at)));
        }
        let es = first_err.unwrap_or_default();
        return Err(es.iter().flat_map(|l| text.errors(l)).collect());
    };
    let at = e.span();
    let domain = v.map.domain_shape();
    expr::typed_limits(&domain).map_err(|err| text.errors(&Located::new(err, at.clone())))?;
    // The type's form: the domain's nesting, every leaf a placeholder (its size is run-time).
    let shape = domain.map(&mut |_| 1i64);
    let stride = domain.map(&mut |_| Stride::Broadcast);
    let f = crate::expand::form(k, &shape, &stride);
    let dom = crate::expand::space(k, v.map.domain());
    let cod = crate::expand::space(
        k,
        if v.map.is_swizzled() {
            layout_core::Space::Physical
        } else {
            v.map.codomain()
        },
    );
    let idx = crate::expand::index_type(v.index);
    let parts = parts(k, e, text);
    // The text before each value; the last piece is the text after the last value.
    let mut pieces = vec![String::new()];
    let mut values = Vec::new();
    let mut from = 0usize;
    for p in &parts {
        if let Some(last) = pieces.last_mut() {
            last.push_str(text.text.get(from..p.at.start).unwrap_or_default());
        }
        p.value.lay_out(k, &p.part, &mut pieces, &mut values);
        from = p.at.end;
    }
    if let Some(last) = pieces.last_mut() {
        last.push_str(text.text.get(from..).unwrap_or_default());
    }
    Ok(quote!(
        #k::DynamicMap::<#f, #dom, #cod, #idx>::__build(&[#(#pieces),*], &[#(#values),*])
    ))
}

/// The left operand's span of the `compose` whose right operand is written at `right`.
fn left_of(e: &Expr<Span>, right: &Span) -> Option<Span> {
    let mut found = None;
    fn walk(e: &Expr<Span>, right: &Span, found: &mut Option<Span>) {
        if let Expr::Compose { left, right: r, .. } = e
            && r.span() == *right
        {
            found.get_or_insert(left.span());
        }
        match e {
            Expr::Compose { left, right: r, .. } => {
                walk(left, right, found);
                walk(r, right, found);
            }
            Expr::Divide { operand, .. }
            | Expr::Restrict { operand, .. }
            | Expr::Repeat { operand, .. }
            | Expr::Broadcast { operand, .. }
            | Expr::Inverse { operand, .. }
            | Expr::Swizzle { operand, .. }
            | Expr::Regroup { operand, .. } => walk(operand, right, found),
            Expr::Operand(_) | Expr::Literal(..) | Expr::Bare(..) => {}
        }
    }
    walk(e, right, &mut found);
    found
}

/// The least common multiple, `None` on overflow.
fn lcm_of(a: i64, b: i64) -> Option<i64> {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x.checked_rem(y)?);
    }
    a.checked_div(x)?.checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::lcm_of;

    #[test]
    fn lcm() {
        assert_eq!(lcm_of(4, 6), Some(12));
        assert_eq!(lcm_of(128, 64), Some(128));
        assert_eq!(lcm_of(i64::MAX, 2), None);
    }
}

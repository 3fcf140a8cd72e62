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
use layout_core::{Error, IntType, Stride};
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
fn stand_in(e: &Expr<Span>, c: Stand) -> Expr<Span> {
    let sub = |x: &Expr<Span>| Box::new(stand_in(x, c));
    match e {
        Expr::Operand(_) | Expr::Bare(..) => e.clone(),
        Expr::Literal(d, s) => {
            if !d.layout.has_runtime() {
                return e.clone();
            }
            let mut d = (**d).clone();
            d.layout.shape = sizes(&d.layout.shape, c.size);
            if c.wide {
                d.index = Some((layout_core::IntType::I64, s.clone()));
            }
            if let Some(stride) = packed(&d.layout.shape, &d.layout.stride, d.layout.cute) {
                d.layout.stride = stride;
            }
            // The operand clauses hold for the real values, not the stand-ins: they are
            // checked when the value is built (their element widths were checked with the
            // operand's static leaves).
            d.operands.clear();
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
                .map(|(entry, v)| (entry.clone(), zeroed(v, c.all_values)))
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
                Arrangement::Expr(x) => Arrangement::Expr(stand_in(x, c)),
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

/// A `restrict` value with its run-time parts replaced by 0, and with `all` its integers too
/// (its tuples and `_` kept).
fn zeroed(v: &Value<Span>, all: bool) -> Value<Span> {
    match v {
        Value::Runtime(s) => Value::Int(0, s.clone()),
        Value::Parts(p, s) => Value::Parts(p.iter().map(|x| zeroed(x, all)).collect(), s.clone()),
        Value::Int(_, s) if all => Value::Int(0, s.clone()),
        Value::Coord(t, s) if all => Value::Coord(t.map(&mut |_| 0), s.clone()),
        v => v.clone(),
    }
}

/// How [`stand_in`] replaces the run-time values.
#[derive(Clone, Copy)]
struct Stand {
    /// Every run-time size.
    size: i64,
    /// Whether operands with run-time leaves compute in `i64` (their packed offsets are not
    /// the real ones, so the declared index type is checked when the value is built).
    wide: bool,
    /// Whether the static `restrict` values are 0 as well (they may lie in run-time entries).
    all_values: bool,
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
    kind: Kind,
}

/// What a run-time value stands for; leaves are numbered per operand (`op`), in seed order.
enum Kind {
    Size {
        op: usize,
        leaf: usize,
    },
    Stride {
        leaf: usize,
    },
    /// A stride of an operand written in CuTe order, where a literal 0 reads as a broadcast:
    /// the seed mode path and the size of its leaf (static, or the run-time size's `op`/`leaf`).
    CuteStride {
        leaf: usize,
        path: Vec<usize>,
        size: Result<i64, (usize, usize)>,
    },
    Value,
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

/// The seed-order mode path of every leaf of `t`.
fn leaf_paths(t: &layout_core::Tree<i64>, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    match t {
        layout_core::Tree::Leaf(_) => out.push(at.clone()),
        layout_core::Tree::Tuple(v) => {
            for (i, x) in v.iter().enumerate() {
                at.push(i);
                leaf_paths(x, at, out);
                at.pop();
            }
        }
    }
}

/// The run-time values of `e`, in the order written, each with the tokens of what it stands
/// for (`Part` of `layout_typed::__private`).
fn parts(k: &Krate, e: &Expr<Span>, text: &Text) -> Vec<(Span, Written, TokenStream)> {
    let mut out = Vec::new();
    let mut op = 0usize;
    visit(e, &mut |v| match v {
        Visit::Literal(d) if d.layout.has_runtime() => {
            let n = d.layout.shape.leaves().len();
            let seed = d.layout.seed();
            let mut paths = Vec::new();
            leaf_paths(&seed.shape, &mut Vec::new(), &mut paths);
            let sizes = seed.shape.leaves();
            for (tree, stride) in [(&d.layout.shape, false), (&d.layout.stride, true)] {
                for (written, (l, braces)) in tree.leaves().into_iter().enumerate() {
                    if let Leaf::Runtime(inner) = l {
                        // The leaf's number in seed order (CuTe order reverses the leaves).
                        let leaf = if d.layout.cute {
                            n.saturating_sub(written).saturating_sub(1)
                        } else {
                            written
                        };
                        let kind = match (stride, d.layout.cute) {
                            (false, _) => Kind::Size { op, leaf },
                            (true, false) => Kind::Stride { leaf },
                            (true, true) => Kind::CuteStride {
                                leaf,
                                path: paths.get(leaf).cloned().unwrap_or_default(),
                                size: match seed.runtime.get(leaf) {
                                    Some((Some(_), _)) => Err((op, leaf)),
                                    _ => Ok(sizes.get(leaf).map_or(1, |x| **x)),
                                },
                            },
                        };
                        out.push(Part {
                            at: braces.clone(),
                            value: Written(text.leaf_value(inner)),
                            kind,
                        });
                    }
                }
            }
            op = op.saturating_add(1);
        }
        Visit::Value(Value::Runtime(s)) => out.push(Part {
            at: s.clone(),
            value: Written(text.tokens(s)),
            kind: Kind::Value,
        }),
        _ => {}
    });
    out.sort_by_key(|p| p.at.start);
    // Where each run-time size is, for the CuTe-order strides that need it.
    let size_index = |o: usize, l: usize| {
        out.iter()
            .position(|p| matches!(p.kind, Kind::Size { op, leaf } if op == o && leaf == l))
    };
    let tokens: Vec<TokenStream> = out
        .iter()
        .map(|p| match &p.kind {
            Kind::Size { leaf, .. } => quote!(#k::__private::Part::Size(#leaf)),
            Kind::Stride { leaf } => quote!(#k::__private::Part::Stride(#leaf)),
            Kind::CuteStride { leaf, path, size } => {
                let size = match size {
                    Ok(n) => quote!(::core::result::Result::Ok(#n)),
                    Err((o, l)) => {
                        let at = size_index(*o, *l).unwrap_or(usize::MAX);
                        quote!(::core::result::Result::Err(#at))
                    }
                };
                quote!(#k::__private::Part::CuteStride {
                    leaf: #leaf,
                    path: &[#(#path),*],
                    size: #size,
                })
            }
            Kind::Value => quote!(#k::__private::Part::Value),
        })
        .collect();
    out.into_iter()
        .zip(tokens)
        .map(|(p, t)| (p.at, p.value, t))
        .collect()
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
            lcm = lcm_of(lcm, t).unwrap_or(lcm);
        }
        _ => {}
    });
    if !errs.is_empty() {
        return Err(errs);
    }
    if let Some(at) = coalesce_of_runtime(e) {
        return Err(text.errors(&Located::new(Error::RuntimeCoalesce, at)));
    }
    // The stand-ins' sizes: multiples of every tile (small ones first: the packed offsets of
    // several run-time sizes multiply), then one past most static `restrict` values, then the
    // tiles themselves.
    let samples: Vec<i64> = [2, 3, 4096, 1]
        .into_iter()
        .filter_map(|m| lcm.checked_mul(m))
        .filter(|&s| s <= 1 << 40)
        .collect();
    let opts = expr::Options::default();
    let attempt = |c: Stand| -> Result<expr::Evaluated<Span>, Vec<Located<Span>>> {
        match expr::evaluate(&stand_in(e, c), env, &opts) {
            // The stand-in's offsets are not the value's: its index type is checked when the
            // value is built. Which type it is, the error says.
            Err(es) => match es.first().map(|l| l.error) {
                Some(Error::IndexTypeRange {
                    type_min, type_max, ..
                }) => {
                    let declared = [IntType::I32, IntType::U32, IntType::I64, IntType::Usize]
                        .into_iter()
                        .find(|t| t.range() == (type_min, type_max));
                    let mut v = expr::evaluate(&stand_in(e, Stand { wide: true, ..c }), env, &opts)
                        .map_err(|_| es.clone())?;
                    v.index = declared.unwrap_or(v.index);
                    Ok(v)
                }
                _ => Err(es),
            },
            ok => ok,
        }
    };
    let mut errors: Vec<Vec<Located<Span>>> = Vec::new();
    let mut found = None;
    for &size in &samples {
        match attempt(Stand {
            size,
            wide: false,
            all_values: false,
        }) {
            Ok(v) => {
                found = Some(v);
                break;
            }
            Err(es) => errors.push(es),
        }
    }
    let firsts: Vec<Option<&Located<Span>>> = errors.iter().map(|es| es.first()).collect();
    let differ = firsts.windows(2).any(|w| match w {
        [Some(a), Some(b)] => a.error != b.error,
        _ => false,
    });
    if found.is_none() && differ {
        // A compose whose one operand's size follows the stand-in's: a rule of its own.
        for (left, side) in [(true, 0usize), (false, 1usize)] {
            let sizes: Vec<i64> = firsts
                .iter()
                .filter_map(|l| match l.map(|l| (l.error, l.span.clone())) {
                    Some((Error::SizeMismatch { left: a, right: b }, _)) => {
                        Some(if side == 0 { a } else { b })
                    }
                    _ => None,
                })
                .collect();
            if sizes.len() == firsts.len()
                && sizes.windows(2).any(|w| matches!(w, [a, b] if a != b))
            {
                let right = firsts.first().copied().flatten().map(|l| l.span.clone());
                let at = match (left, right) {
                    (true, Some(r)) => left_of(e, &r).unwrap_or(r),
                    (false, Some(r)) => r,
                    (_, None) => e.span(),
                };
                return Err(text.errors(&Located::new(Error::RuntimeComposeSize { left }, at)));
            }
        }
        // An error that follows the stand-in's sizes depends on the run-time values: it is the
        // value's, when it is built. The static `restrict` values may be what the stand-in's
        // entries are too small for; with them 0 the stand-in gives the domain's nesting.
        for &size in &samples {
            if let Ok(v) = attempt(Stand {
                size,
                wide: false,
                all_values: true,
            }) {
                found = Some(v);
                break;
            }
        }
    }
    let Some(v) = found else {
        let es = errors.into_iter().next().unwrap_or_default();
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
    for (at, value, part) in &parts {
        if let Some(last) = pieces.last_mut() {
            last.push_str(text.text.get(from..at.start).unwrap_or_default());
        }
        value.lay_out(k, part, &mut pieces, &mut values);
        from = at.end;
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

/// Where a `coalesce` is applied to a map with run-time leaves, if anywhere.
fn coalesce_of_runtime(e: &Expr<Span>) -> Option<Span> {
    let here = match e {
        Expr::Regroup {
            operand,
            regroup: expr::Regroup::Coalesce,
            span,
        } if has_runtime(operand) => Some(span.clone()),
        _ => None,
    };
    here.or_else(|| match e {
        Expr::Compose { left, right, .. } => {
            coalesce_of_runtime(left).or_else(|| coalesce_of_runtime(right))
        }
        Expr::Divide { operand, .. }
        | Expr::Restrict { operand, .. }
        | Expr::Broadcast { operand, .. }
        | Expr::Inverse { operand, .. }
        | Expr::Swizzle { operand, .. }
        | Expr::Regroup { operand, .. } => coalesce_of_runtime(operand),
        Expr::Repeat {
            operand,
            arrangement,
            ..
        } => coalesce_of_runtime(operand).or_else(|| match arrangement.as_ref() {
            Arrangement::Expr(x) => coalesce_of_runtime(x),
            Arrangement::Layout(_) => None,
        }),
        Expr::Operand(_) | Expr::Literal(..) | Expr::Bare(..) => None,
    })
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

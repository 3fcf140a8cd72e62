//! Checks a parsed declaration with `layout-core` and maps every error back to its token.
//! Independent errors are all reported (layout, annotation, tiles, swizzle, index type).

use layout_core::{
    Error, Layout, ModePath, Space, Swizzle, check_annotation, check_codomain, check_tile,
    mode_errors,
};
use proc_macro2::Span;

use crate::ast::{Decl, IndexTy, LayoutAst, Node, SwizzleAst};

/// A declaration that passed every check.
pub struct Checked {
    pub layout: Layout,
    pub domain: Space,
    pub codomain: Space,
    pub domain_tile: Option<Vec<i64>>,
    pub codomain_tile: Option<Vec<i64>>,
    pub swizzle: Option<Swizzle>,
    pub index: IndexTy,
    /// Per leaf, the run-time size and stride expressions (empty for a static layout).
    pub runtime: Vec<(
        Option<proc_macro2::TokenStream>,
        Option<proc_macro2::TokenStream>,
    )>,
}

/// Formats a core error as a diagnostic: the rule with its numbers, then the fix.
pub fn error(span: Span, e: &Error) -> syn::Error {
    match e.help() {
        Some(h) => syn::Error::new(span, format!("{e}\nhelp: {h}")),
        None => syn::Error::new(span, e.to_string()),
    }
}

/// An error underlined from `first` to `last` (a range, on stable Rust, comes from two tokens).
pub fn range_error(first: Span, last: Span, e: &Error, extra: &str) -> syn::Error {
    let tokens: proc_macro2::TokenStream = [
        proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("first", first)),
        proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("last", last)),
    ]
    .into_iter()
    .collect();
    let msg = match e.help() {
        Some(h) => format!("{e}{extra}\nhelp: {h}"),
        None => format!("{e}{extra}"),
    };
    syn::Error::new_spanned(tokens, msg)
}

/// A mode path in CuTe order (each level's index counted from the other end).
fn cute_path(shape: &Node<i64>, m: &ModePath) -> ModePath {
    let mut node = shape;
    let mut out = Vec::new();
    for &i in m.indices() {
        match node {
            Node::Tuple(v, _) => {
                out.push(v.len().saturating_sub(usize::from(i)).saturating_sub(1));
                match v.get(i as usize) {
                    Some(n) => node = n,
                    None => break,
                }
            }
            Node::Leaf(..) => break,
        }
    }
    ModePath::from_indices(&out).unwrap_or(*m)
}

/// A flat index as a coordinate of the shape, in the notation the layout was written in.
fn coordinate(shape: &layout_core::Tree<i64>, mut i: i64, cute: bool) -> String {
    fn go(t: &layout_core::Tree<i64>, i: &mut i64) -> layout_core::Tree<i64> {
        match t {
            layout_core::Tree::Leaf(n) => {
                // Sizes are positive: neither operation can fail.
                let c = i.checked_rem(*n).unwrap_or(0);
                *i = i.checked_div(*n).unwrap_or(0);
                layout_core::Tree::Leaf(c)
            }
            layout_core::Tree::Tuple(v) => {
                let mut parts: Vec<_> = v.iter().rev().map(|x| go(x, i)).collect();
                parts.reverse();
                layout_core::Tree::Tuple(parts)
            }
        }
    }
    let c = go(shape, &mut i);
    if cute {
        c.reversed().to_string()
    } else {
        c.to_string()
    }
}

/// A layout's error at the token of its mode (or over the whole layout), with the mode path in
/// the notation the layout was written in.
fn layout_error(
    l: &LayoutAst,
    layout: Option<&Layout>,
    e: &Error,
    stride: bool,
) -> Vec<syn::Error> {
    let at = paths(l);
    let conv = |m: &ModePath| if l.cute { cute_path(&l.shape, m) } else { *m };
    match *e {
        Error::Aliasing {
            first,
            second,
            offset,
            modes: Some((a, b)),
        } => {
            let shown = Error::Aliasing {
                first,
                second,
                offset,
                modes: Some((conv(&a), conv(&b))),
            };
            vec![
                error(at(&a, true), &shown),
                syn::Error::new(at(&b, true), "the colliding mode's stride is here"),
            ]
        }
        Error::Aliasing { first, second, .. } => {
            let extra = layout.map_or(String::new(), |lay| {
                format!(
                    " (coordinates {} and {})",
                    coordinate(lay.shape(), first, l.cute),
                    coordinate(lay.shape(), second, l.cute)
                )
            });
            vec![range_error(l.span, l.last, e, &extra)]
        }
        _ => match e.mode() {
            Some(m) if l.shape.at(m.indices()).is_some() => {
                vec![error(at(&m, stride), &e.with_mode(conv(&m)))]
            }
            _ => vec![range_error(l.span, l.last, e, "")],
        },
    }
}

fn paths(l: &LayoutAst) -> impl Fn(&ModePath, bool) -> Span + '_ {
    move |p: &ModePath, stride: bool| {
        let node = if stride {
            l.stride.at(p.indices()).map(Node::span)
        } else {
            l.shape.at(p.indices()).map(Node::span)
        };
        node.unwrap_or(l.span)
    }
}

/// Every mode-local error (profiles, sizes, zero strides), at its token.
fn leaf_errors(l: &LayoutAst, out: &mut Vec<syn::Error>) {
    let at = paths(l);
    for e in mode_errors(&l.shape.to_tree(), &l.stride.to_tree()) {
        let mode = e.mode().unwrap_or(ModePath::ROOT);
        let shown = if l.cute {
            e.with_mode(cute_path(&l.shape, &mode))
        } else {
            e
        };
        match e {
            Error::ProfileMismatch { .. } => {
                out.push(error(at(&mode, true), &shown));
                out.push(syn::Error::new(
                    at(&mode, false),
                    "the matching shape is here",
                ));
            }
            Error::ZeroStride { .. } => out.push(error(at(&mode, true), &shown)),
            _ => out.push(error(at(&mode, false), &shown)),
        }
    }
}

/// Runs every check (spec: Rules) on a declaration: the declaration when the layout could be
/// built at all (so that code after a failed check still type-checks without cascading
/// errors), and every error found.
pub fn check(d: &Decl) -> (Option<Checked>, Vec<syn::Error>) {
    let mut errs = Vec::new();

    // The annotation is independent of the layout.
    if let Err(e) = check_annotation(d.domain.space, d.codomain.space) {
        // Point at the side that breaks the rule: a physical domain, else the codomain.
        let span = if d.domain.space == Space::Physical {
            d.domain.span
        } else {
            d.codomain.span
        };
        errs.push(error(span, &e));
    }

    // Swizzle fields and their space are independent of the layout too.
    let swizzle = d.swizzle.and_then(|(sw, span)| {
        if d.codomain.space != Space::Physical {
            errs.push(error(
                span,
                &Error::SwizzleNotPhysical {
                    codomain: d.codomain.space,
                },
            ));
        }
        let made = match sw {
            SwizzleAst::Seed { b, src, dst } => Swizzle::from_fields(b, src, dst),
            SwizzleAst::Cute { b, m, s } => {
                Swizzle::from_cute(b, m, s, layout_core::SwizzleUnit::Elements)
            }
        };
        made.map_err(|e| errs.push(error(span, &e))).ok()
    });

    let mut leaf = Vec::new();
    leaf_errors(&d.layout, &mut leaf);
    typed_limits(&d.layout.shape, &mut leaf);
    let leaves = d.layout.shape.to_tree().leaves().len();
    if leaves > MAX_TYPED_LEAVES {
        let tokens: proc_macro2::TokenStream = [
            proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("first", d.layout.span)),
            proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("last", d.layout.last)),
        ]
        .into_iter()
        .collect();
        leaf.push(syn::Error::new_spanned(tokens, too_many_leaves(leaves)));
    }
    for side in [&d.domain, &d.codomain] {
        if let Some((t, span)) = &side.tile
            && (t.is_empty() || t.len() > 4)
        {
            leaf.push(syn::Error::new(*span, "a tile shape has 1 to 4 extents"));
        }
    }
    let layout = if !leaf.is_empty() {
        errs.extend(leaf);
        None
    } else {
        let named = |l: Layout| {
            if d.layout.names.is_empty() {
                Ok(l)
            } else {
                l.with_names(d.layout.names.clone())
            }
        };
        match Layout::new(d.layout.shape.to_tree(), d.layout.stride.to_tree()).and_then(named) {
            Ok(l) => Some(l),
            Err(e) => {
                errs.extend(layout_error(&d.layout, None, &e, false));
                None
            }
        }
    };

    // With run-time leaves, what depends on them is checked when the value is built; the
    // placeholders (size 1, stride `_`) leave the static modes' own checks here.
    let dynamic = !d.layout.runtime.is_empty();
    if dynamic {
        if let Some((_, span)) = d.swizzle {
            errs.push(syn::Error::new(span, "a swizzle needs a layout without run-time leaves\nhelp: give every size and stride as an integer"));
        }
        for side in [&d.domain, &d.codomain] {
            if let Some((_, span)) = &side.tile {
                errs.push(syn::Error::new(*span, "a tile shape needs a layout without run-time leaves\nhelp: remove the tile shape; sizes are checked when the value is built"));
            }
        }
    }
    if let Some(l) = &layout {
        // The static modes must already be alias-free among themselves (the run-time ones are
        // `_` placeholders, which the test ignores); density needs every value.
        if !(dynamic && d.codomain.space.requires_dense())
            && let Err(e) = check_codomain(l, d.codomain.space)
        {
            errs.extend(layout_error(&d.layout, Some(l), &e, true));
        }
        if let (Some((_, span)), (min, _)) = (d.swizzle, l.span())
            && min < 0
        {
            errs.push(error(span, &Error::SwizzleNegativeOffset { min }));
        }
        for side in [&d.domain, &d.codomain] {
            if let Some((t, span)) = &side.tile
                && !dynamic
                && let Err(e) = check_tile(t, side.space, l.size())
            {
                errs.push(error(*span, &e));
            }
        }
        let index = d.index.map_or(IndexTy::I64, |i| i.0);
        let (mut min, mut max) = l.span();
        // The swizzled range is exact (the typed value carries it); a search past its limit is
        // an error at the swizzle, and the index type is then checked against a bound.
        if let (Some(s), Some((_, span))) = (swizzle, d.swizzle)
            && !dynamic
            && min >= 0
            && d.codomain.space == Space::Physical
            && check_codomain(l, Space::Physical).is_ok()
        {
            match swizzled_range(l, s) {
                Ok(r) => (min, max) = r,
                Err(e) => {
                    errs.push(error(span, &e));
                    max = s.max_offset(max);
                }
            }
        }
        let (type_min, type_max) = index.range();
        if !dynamic && (min < type_min || max > type_max) {
            let span = d.index.map_or(d.layout.span, |i| i.1);
            errs.push(error(
                span,
                &Error::IndexTypeRange {
                    min,
                    max,
                    type_min,
                    type_max,
                },
            ));
        }
    }

    // A tile that failed its check is left off, so the value still type-checks.
    let keep = |side: &crate::ast::Side, size: i64| {
        side.tile
            .as_ref()
            .map(|t| t.0.clone())
            .filter(|t| check_tile(t, side.space, size).is_ok())
    };
    let checked = layout.map(|layout| Checked {
        domain_tile: keep(&d.domain, layout.size()),
        codomain_tile: keep(&d.codomain, layout.size()),
        layout,
        domain: d.domain.space,
        codomain: d.codomain.space,
        swizzle,
        index: d.index.map_or(IndexTy::I64, |i| i.0),
        runtime: d.layout.runtime.clone(),
    });
    (checked, errs)
}

/// The exact least and greatest offsets of `swizzle ∘ layout` (as a map into physical space).
///
/// # Errors
/// [`Error::RangeUndecided`] when the branch-and-bound needs more than
/// `layout_core::RANGE_SEARCH_LIMIT` steps; the errors of a swizzle over a layout with a
/// negative offset ([`Error::SwizzleNegativeOffset`]) or of an offset past `i64`.
pub fn swizzled_range(layout: &Layout, swizzle: Swizzle) -> Result<(i64, i64), Error> {
    let inner: layout_core::Map =
        layout_core::Annotated::new(layout.clone(), Space::Logical, Space::Physical)?.into();
    inner.swizzle(swizzle)?.offset_range()
}

/// `layout_typed::MAX_LEAVES`: the typed API evaluates composites through fixed arrays.
pub const MAX_TYPED_LEAVES: usize = 32;
/// The typed API implements forms for tuples of 2 to 8 entries.
pub const MAX_TYPED_RANK: usize = 8;

/// The message of a layout past [`MAX_TYPED_LEAVES`].
pub fn too_many_leaves(leaves: usize) -> String {
    format!(
        "{leaves} leaf modes; the typed API takes at most {MAX_TYPED_LEAVES}\nhelp: merge contiguous modes"
    )
}

/// The message of a tuple past [`MAX_TYPED_RANK`].
pub fn too_wide(rank: usize) -> String {
    format!(
        "{rank} modes in one tuple; the typed API takes at most {MAX_TYPED_RANK}\nhelp: group modes into nested tuples"
    )
}

fn typed_limits(shape: &Node<i64>, out: &mut Vec<syn::Error>) {
    if let Node::Tuple(v, span) = shape {
        if v.len() > MAX_TYPED_RANK {
            out.push(syn::Error::new(*span, too_wide(v.len())));
        }
        v.iter().for_each(|t| typed_limits(t, out));
    }
}

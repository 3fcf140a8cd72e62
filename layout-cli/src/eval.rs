//! Evaluating an expression with `layout-core`, as `layout!` does during expansion: every
//! precondition is checked and its failure points at the operand or token that caused it.

use layout_core::{
    Annotated, Decision, Error, Layout, Map, NotLayout, Space, Stride, Swizzle, Tree,
};

use crate::diag::{Diag, Source, Span};
use crate::expr::{Arrangement, Entry, Expr, LayoutSrc, Operand, SwizzleSrc};

type R<T> = Result<T, Diag>;

/// Evaluates expressions of one argument.
pub struct Evaluator<'a> {
    /// The argument, for columns.
    pub src: Source<'a>,
    /// Positions of `restrict` count in CuTe order (`--cute`).
    pub cute: bool,
}

impl Evaluator<'_> {
    fn at(&self, e: &Error, span: Span) -> Diag {
        Diag::core(e, &self.src, span.start, Some(span))
    }

    /// The map an expression denotes.
    pub fn eval(&self, e: &Expr) -> R<Map> {
        match e {
            Expr::Operand(o, defaults) => self.operand(o, *defaults),
            Expr::Compose(a, b, _) => {
                let (ma, mb) = (self.eval(a)?, self.eval(b)?);
                layout_core::compose(&ma, &mb).map_err(|err| match err {
                    Error::LeftDomainNotLogical { .. } => self.at(&err, a.span()),
                    Error::SizeMismatch { left, right } => Diag::rule(
                        "size-mismatch",
                        &self.src,
                        Some(b.span().start),
                        format!(
                            "size mismatch in `compose`: the right operand has {right} positions, the left operand reads {left}"
                        ),
                        err.help().map(|h| h.to_string()),
                    ),
                    _ => self.at(&err, b.span()),
                })
            }
            Expr::Restrict(a, fixed, span) => {
                let m = self.eval(a)?;
                if m.codomain() != Space::Physical {
                    return Err(self.at(
                        &Error::RestrictNotPhysical {
                            codomain: m.codomain(),
                        },
                        a.span(),
                    ));
                }
                let names = m.domain_names();
                let rank = m.domain_entries().len();
                let mut by_position = Vec::new();
                for (entry, value, espan) in fixed {
                    let pos = match entry {
                        Entry::Position(p) if self.cute => {
                            // CuTe order: entry 0 is the fastest free entry (all the positions of
                            // one `restrict` count the same free entries; spec: Restriction).
                            let free = rank;
                            match free.checked_sub(p.saturating_add(1)) {
                                Some(q) => q,
                                None => {
                                    return Err(self.at(
                                        &Error::RestrictEntry {
                                            entry: *p,
                                            rank: free,
                                        },
                                        *espan,
                                    ));
                                }
                            }
                        }
                        Entry::Position(p) => *p,
                        Entry::Name(n) => names
                            .iter()
                            .position(|x| x.as_deref() == Some(n.as_str()))
                            .ok_or_else(|| self.at(&Error::UnknownModeName, *espan))?,
                    };
                    by_position.push((pos, *value, *espan));
                }
                let pairs: Vec<(usize, i64)> = by_position.iter().map(|p| (p.0, p.1)).collect();
                m.restrict(&pairs).map_err(|err| {
                    let at = match err {
                        Error::RestrictEntry { entry, .. } => by_position
                            .iter()
                            .find(|p| p.0 == entry)
                            .map_or(*span, |p| p.2),
                        Error::CoordOutOfRange { .. } => by_position.first().map_or(*span, |p| p.2),
                        _ => *span,
                    };
                    self.at(&err, at)
                })
            }
            Expr::Swizzle(a, sw, span) => {
                let m = self.eval(a)?;
                let s = self.swizzle(sw, *span)?;
                if m.is_swizzled() {
                    return Err(Diag::rule(
                        "swizzle-fields",
                        &self.src,
                        Some(span.start),
                        "a second swizzle",
                        Some("a map has at most one swizzle, its last step".into()),
                    ));
                }
                m.swizzle(s).map_err(|err| self.at(&err, a.span()))
            }
            _ => self.layout_op(e),
        }
    }

    fn swizzle(&self, sw: &SwizzleSrc, span: Span) -> R<Swizzle> {
        match *sw {
            SwizzleSrc::Seed { b, src, dst } => Swizzle::from_fields(b, src, dst),
            SwizzleSrc::Cute { b, m, s, unit } => Swizzle::from_cute(b, m, s, unit),
        }
        .map_err(|e| self.at(&e, span))
    }

    /// A layout operand with its written or default spaces, tiles and swizzle.
    pub fn operand(&self, o: &Operand, defaults: (Space, Space)) -> R<Map> {
        let layout = self.layout(&o.layout)?;
        let domain = o.domain.as_ref().map_or(defaults.0, |s| s.space);
        let codomain = o.codomain.as_ref().map_or(defaults.1, |s| s.space);
        let a = Annotated::new(layout, domain, codomain).map_err(|e| match e {
            Error::ForbiddenSpaces { .. } => {
                let span = match (&o.domain, &o.codomain) {
                    (Some(d), Some(c)) => Span::new(d.span.start, c.span.end),
                    _ => o.span,
                };
                self.at(&e, span)
            }
            _ => o.layout.diag(&e, &self.src),
        })?;
        let dt = o.domain.as_ref().and_then(|s| s.tile.clone());
        let ct = o.codomain.as_ref().and_then(|s| s.tile.clone());
        let a = a.with_tiles(dt, ct).map_err(|e| {
            let span = match e {
                Error::TileNotLogical { space }
                    if Some(space) == o.domain.as_ref().map(|s| s.space) =>
                {
                    o.domain.as_ref().map_or(o.span, |s| s.span)
                }
                _ => o
                    .codomain
                    .as_ref()
                    .filter(|s| s.tile.is_some())
                    .or(o.domain.as_ref())
                    .map_or(o.span, |s| s.span),
            };
            self.at(&e, span)
        })?;
        let m: Map = a.into();
        match &o.swizzle {
            Some((sw, span)) => {
                let s = self.swizzle(sw, *span)?;
                m.swizzle(s).map_err(|e| self.at(&e, o.span))
            }
            None => Ok(m),
        }
    }

    /// The layout of a layout argument, or its first error, located.
    pub fn layout(&self, l: &LayoutSrc) -> R<Layout> {
        l.layout.clone().map_err(|e| {
            l.errors(&self.src)
                .into_iter()
                .next()
                .unwrap_or_else(|| l.diag(&e, &self.src))
        })
    }

    fn layout_op(&self, e: &Expr) -> R<Map> {
        let (a, span, op) = match e {
            Expr::Divide(a, _, _, false, s) => (a, *s, "divide"),
            Expr::Divide(a, _, _, true, s) => (a, *s, "divide_modes"),
            Expr::Repeat(a, _, false, s) => (a, *s, "repeat"),
            Expr::Repeat(a, _, true, s) => (a, *s, "interleave"),
            Expr::Broadcast(a, _, s) => (a, *s, "broadcast"),
            Expr::Inverse(a, s) => (a, *s, "inverse"),
            _ => return self.eval(e),
        };
        let m = self.eval(a)?;
        let (l, dom, cod) = self.materialise(&m, a.span(), op)?;
        let (layout, dom, cod) = match e {
            Expr::Divide(_, tile, tile_span, modes, _) => {
                let k: Vec<i64> = tile.iter().map(|t| t.0).collect();
                let r = if *modes {
                    layout_core::divide_modes(&l, &k)
                } else {
                    layout_core::divide(&l, &k)
                };
                let r = r.map_err(|err| {
                    let at = match err {
                        Error::NotDivisible { mode, .. } | Error::TileSplit { mode, .. } => mode
                            .indices()
                            .first()
                            .and_then(|i| tile.get(usize::from(*i)))
                            .map_or(*tile_span, |t| t.1),
                        Error::TileRank { .. } => *tile_span,
                        _ => span,
                    };
                    self.at(&err, at)
                })?;
                (r, dom, cod)
            }
            Expr::Repeat(_, arr, interleave, _) => {
                let (arrangement, arr_span) = match arr.as_ref() {
                    Arrangement::Layout(src) => (self.layout(src)?, src.span),
                    Arrangement::Expr(x) => {
                        let mx = self.eval(x)?;
                        (self.materialise(&mx, x.span(), op)?.0, x.span())
                    }
                };
                let r = if *interleave {
                    layout_core::interleave(&l, &arrangement)
                } else {
                    layout_core::repeat(&l, &arrangement)
                };
                (r.map_err(|err| self.at(&err, arr_span))?, dom, cod)
            }
            Expr::Broadcast(_, shape, _) => {
                if cod != Space::Physical {
                    return Err(Diag::rule(
                        "broadcast-not-physical",
                        &self.src,
                        Some(a.span().start),
                        format!(
                            "`broadcast` makes read-only copies at the same addresses, a map into physical, but this map's codomain is {cod}"
                        ),
                        Some(
                            "broadcast a map into physical, e.g. `broadcast((16,32):(32,1), (4))`"
                                .into(),
                        ),
                    ));
                }
                let r = layout_core::broadcast(&l, shape).map_err(|err| self.at(&err, span))?;
                (r, dom, cod)
            }
            _ => {
                if cod == Space::Physical {
                    return Err(Diag::rule(
                        "not-dense",
                        &self.src,
                        Some(a.span().start),
                        format!(
                            "`inverse` needs a dense bijection into logical or thread-value space, but this map is {dom} -> physical"
                        ),
                        Some("invert the thread-value or logical layout, e.g. `inverse([(4,8):(1,4), thread-value -> logical])`".into()),
                    ));
                }
                let r = layout_core::inverse(&l).map_err(|err| self.at(&err, a.span()))?;
                (r, cod, dom)
            }
        };
        layout_map(layout, dom, cod).map_err(|err| self.at(&err, span))
    }

    /// A map as a layout: itself, or the coarsest layout Theorem 1 finds for a composite.
    fn materialise(&self, m: &Map, span: Span, op: &str) -> R<(Layout, Space, Space)> {
        if let Map::Layout(a) = m {
            return Ok((a.layout().clone(), m.domain(), m.codomain()));
        }
        let what = if m.is_restricted() {
            "a restriction (constant + map)".to_string()
        } else if m.is_swizzled() {
            "swizzled".to_string()
        } else {
            match layout_core::decide(m, false) {
                Ok(d) => match d.coarsest_layout(&m.domain_shape()) {
                    Some(l) => return Ok((l, m.domain(), m.codomain())),
                    None => format!("a composite that is not a layout ({})", reason(&d)),
                },
                Err(e) => return Err(self.at(&e, span)),
            }
        };
        Err(Diag::rule(
            "not-a-layout",
            &self.src,
            Some(span.start),
            format!("`{op}` needs a layout, and this map is {what}"),
            Some(format!(
                "apply `{op}` to the operands first, then compose, restrict or swizzle"
            )),
        ))
    }
}

/// Why a decision is not a layout, in words.
pub fn reason(d: &Decision) -> String {
    match &d.result {
        Ok(_) => "a layout".into(),
        Err(NotLayout::Separability { witness }) => format!(
            "Theorem 1: not separable at the coordinate {witness:?}, where f(c) differs from the sum of f along each coordinate"
        ),
        Err(NotLayout::Scan { coordinate, t }) => {
            format!("Theorem 1: the scan of coordinate {coordinate} rejects at t = {t}")
        }
    }
}

/// An operation's result as a map; `thread-value -> physical` exists only as a composite
/// (spec: Constructible annotations), so such a layout is composed after the identity on its shape.
fn layout_map(l: Layout, dom: Space, cod: Space) -> Result<Map, Error> {
    if (dom, cod) == (Space::ThreadValue, Space::Physical) {
        let id = layout_core::canonical(l.shape())?.with_names(l.names().to_vec())?;
        let left = Annotated::new(l, Space::Logical, Space::Physical)?;
        let right = Annotated::new(id, Space::ThreadValue, Space::Logical)?;
        return layout_core::compose(&left.into(), &right.into());
    }
    Ok(Annotated::new(l, dom, cod)?.into())
}

/// The coarsest refinement over the decided coordinates (one mode per coordinate, its pieces
/// slowest first), zero strides as `_`: what Theorem 1 found, without the constant.
pub fn coarsest(d: &Decision) -> Option<Layout> {
    let chains = d.result.as_ref().ok()?;
    let shape = Tree::Tuple(
        chains
            .iter()
            .map(|c| Tree::Tuple(c.shape.iter().map(|&n| Tree::Leaf(n)).collect()))
            .collect(),
    );
    let stride = Tree::Tuple(
        chains
            .iter()
            .map(|c| {
                Tree::Tuple(
                    c.strides
                        .iter()
                        .map(|&s| {
                            Tree::Leaf(if s == 0 {
                                Stride::Broadcast
                            } else {
                                Stride::Int(s)
                            })
                        })
                        .collect(),
                )
            })
            .collect(),
    );
    Layout::new(shape, stride).ok()
}

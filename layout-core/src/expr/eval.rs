//! Evaluating an expression: each operation's preconditions, checked with the numbers, each
//! failure located at the operand or token that caused it.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::ast::{
    Arrangement, Decl, DivideKind, Entry, Expr, LayoutExpr, Op, RepeatKind, Side, Value,
};
use super::check::{Checked, check_decl, check_layout, locate_layout_error};
use super::{Located, MAX_TILE_EXTENTS, Options, Order};
use crate::decide::{NotLayout, decide};
use crate::emit::IntType;
use crate::error::{Error, ModePath, NotLayoutReason};
use crate::layout::Layout;
use crate::map::{Annotated, Map, compose};
use crate::space::Space;
use crate::tree::Tree;

/// The named operands an expression may use, keyed by [`super::Path::key`] (the path as
/// written: two paths naming one item are two keys with the same definition).
#[derive(Clone, Debug)]
pub struct Env<S> {
    defs: BTreeMap<String, Checked<S>>,
    /// Operands defined by an expression: its value and index type.
    values: BTreeMap<String, (Map, IntType)>,
}

impl<S> Default for Env<S> {
    fn default() -> Env<S> {
        Env {
            defs: BTreeMap::new(),
            values: BTreeMap::new(),
        }
    }
}

impl<S> Env<S> {
    /// No operands.
    #[must_use]
    pub fn new() -> Env<S> {
        Env::default()
    }

    /// Defines (or redefines) an operand by its key.
    pub fn define(&mut self, key: String, checked: Checked<S>) {
        self.values.remove(&key);
        self.defs.insert(key, checked);
    }

    /// Defines (or redefines) an operand by its key as a value: a map and the index type of
    /// its offsets (an operand defined by an expression, [`super::Algebra::define_derived`]).
    pub fn define_value(&mut self, key: String, map: Map, index: IntType) {
        self.defs.remove(&key);
        self.values.insert(key, (map, index));
    }

    /// The definition of a key.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Checked<S>> {
        self.defs.get(key)
    }

    /// The value of a key defined by an expression ([`Env::define_value`]): its map and index
    /// type.
    #[must_use]
    pub fn value(&self, key: &str) -> Option<&(Map, IntType)> {
        self.values.get(key)
    }
}

/// An expression's value: the map, the index type carried from the left operand, and the
/// entries a run-time `restrict` fixes (entry among the map's top-level domain entries, the
/// value's span), applied at emission.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Evaluated<S> {
    /// The map (a run-time restriction not yet applied).
    pub map: Map,
    /// The index type of the offsets.
    pub index: IntType,
    /// Run-time restrictions: `(entry, value)`, at most one.
    pub runtime: Vec<(usize, S)>,
}

type R<T, S> = Result<T, Vec<Located<S>>>;

fn one<S>(e: Error, span: S) -> Vec<Located<S>> {
    vec![Located::new(e, span)]
}

struct Eval<'a, S> {
    env: &'a Env<S>,
    opts: &'a Options,
}

/// Evaluates an expression: every operand checked ([`check_decl`]), every operation's
/// preconditions, and the result's exact offset range against the index type of its left
/// operand.
///
/// # Errors
/// Every error of a literal operand's declaration, else the first error of the evaluation,
/// located: [`Error::UnknownOperand`], [`Error::RuntimeOperand`], [`Error::RuntimeValue`],
/// [`Error::RuntimeNotLast`], [`Error::RuntimeRestrictTwice`], [`Error::NotALayout`],
/// [`Error::BroadcastNotPhysical`], [`Error::InverseOfPhysical`],
/// [`Error::DivideTileUnknown`], [`Error::ResultTileExtents`], [`Error::SecondSwizzle`],
/// [`Error::IndexTypeRange`], [`Error::RangeUndecided`] (as for a declaration's swizzle
/// option), and the errors of the operations themselves.
pub fn evaluate<S: Clone>(e: &Expr<S>, env: &Env<S>, opts: &Options) -> R<Evaluated<S>, S> {
    let v = Eval { env, opts }.expr(e)?;
    let (type_min, type_max) = v.index.range();
    // The exact range, as a declaration's swizzle option requires it ([`check_decl`]): one
    // map, one verdict, however it is spelled.
    let (min, max) = v.map.offset_range().map_err(|err| one(err, e.span()))?;
    if min < type_min || max > type_max {
        return Err(one(
            Error::IndexTypeRange {
                min,
                max,
                type_min,
                type_max,
            },
            e.span(),
        ));
    }
    Ok(v)
}

/// A seed-order mode path of `shape` in CuTe order (each level counted from the other end).
fn cute_path(shape: &Tree<i64>, m: &ModePath) -> ModePath {
    let mut node = shape;
    let mut out = Vec::new();
    for &i in m.indices() {
        let Tree::Tuple(v) = node else { break };
        out.push(v.len().saturating_sub(usize::from(i)).saturating_sub(1));
        match v.get(usize::from(i)) {
            Some(n) => node = n,
            None => break,
        }
    }
    ModePath::from_indices(&out).unwrap_or(*m)
}

/// A Lemma 1 failure of the arrangement of `op` (`repeat`, `interleave`) in the arrangement's
/// words; other errors as they are.
fn arrangement_error(op: Op, e: Error) -> Error {
    match e {
        Error::NotDense {
            mode,
            expected,
            found,
        } => Error::ArrangementNotDense {
            op,
            mode,
            expected,
            found,
        },
        Error::BroadcastNotDense { mode, size } => Error::ArrangementBroadcast { op, mode, size },
        e => e,
    }
}

/// The coarsest layout of a map (see [`materialise`]), else [`Error::NotALayout`] at `span`;
/// a composite that is not separable has a note with the coordinate that shows it.
fn layout_operand<S: Clone>(m: &Map, op: Op, span: S) -> R<(Layout, Space, Space), S> {
    materialise(m).map_err(|why| {
        let mut l = Located::new(Error::NotALayout { op, why }, span.clone());
        if let Ok(d) = decide(m, false)
            && let Err(NotLayout::Separability { witness }) = d.result
        {
            l.notes.push(super::Note {
                kind: super::NoteKind::Witness {
                    coordinate: witness,
                },
                span,
            });
        }
        vec![l]
    })
}

/// The coarsest layout of a map: itself, or what Theorem 1 finds for a composite.
fn materialise(m: &Map) -> Result<(Layout, Space, Space), NotLayoutReason> {
    if let Map::Layout(a) = m {
        return Ok((a.layout().clone(), m.domain(), m.codomain()));
    }
    if m.is_restricted() {
        return Err(NotLayoutReason::Restricted);
    }
    if m.is_swizzled() {
        return Err(NotLayoutReason::Swizzled);
    }
    match decide(m, false) {
        Ok(d) => match d.coarsest_layout(&m.domain_shape()) {
            Some(l) => Ok((l, m.domain(), m.codomain())),
            None => Err(match d.result {
                Err(NotLayout::Scan { coordinate, t }) => NotLayoutReason::Scan { coordinate, t },
                _ => NotLayoutReason::NotSeparable,
            }),
        },
        Err(_) => Err(NotLayoutReason::Undecided),
    }
}

/// An operation's result as a map. Thread-value -> physical exists only as a composite
/// (spec: Constructible annotations): such a layout is itself after the identity `canonical(shape)`, thread-value ->
/// logical, which keeps its mode names.
fn layout_map(
    l: Layout,
    dom: Space,
    cod: Space,
    domain_tile: Option<Vec<i64>>,
    codomain_tile: Option<Vec<i64>>,
) -> Result<Map, Error> {
    if (dom, cod) == (Space::ThreadValue, Space::Physical) {
        let id = crate::ops::canonical(l.shape())?.with_names(l.names().to_vec())?;
        let left = Annotated::new(l, Space::Logical, Space::Physical)?;
        let right = Annotated::new(id, Space::ThreadValue, Space::Logical)?;
        return compose(&left.into(), &right.into());
    }
    Ok(Annotated::new(l, dom, cod)?
        .with_tiles(domain_tile, codomain_tile)?
        .into())
}

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

impl<S: Clone> Eval<'_, S> {
    fn decl(&self, d: &Decl<S>, span: &S) -> R<Evaluated<S>, S> {
        let (c, errs) = check_decl(d);
        match c {
            Some(c) if errs.is_empty() => {
                if !c.runtime.is_empty() {
                    return Err(one(Error::RuntimeOperand, span.clone()));
                }
                let map = c.map().map_err(|e| one(e, span.clone()))?;
                Ok(Evaluated {
                    map,
                    index: c.index,
                    runtime: Vec::new(),
                })
            }
            _ => Err(errs),
        }
    }

    fn expr(&self, e: &Expr<S>) -> R<Evaluated<S>, S> {
        match e {
            Expr::Operand(p) => {
                if let Some((map, index)) = self.env.values.get(&p.key()) {
                    return Ok(Evaluated {
                        map: map.clone(),
                        index: *index,
                        runtime: Vec::new(),
                    });
                }
                let c = self
                    .env
                    .get(&p.key())
                    .ok_or_else(|| one(Error::UnknownOperand, p.span.clone()))?;
                if !c.runtime.is_empty() {
                    return Err(one(Error::RuntimeOperand, p.span.clone()));
                }
                let map = c.map().map_err(|err| one(err, p.span.clone()))?;
                Ok(Evaluated {
                    map,
                    index: c.index,
                    runtime: Vec::new(),
                })
            }
            Expr::Literal(d, span) => {
                if d.layout.has_runtime() {
                    return Err(one(Error::RuntimeOperand, span.clone()));
                }
                self.decl(d, span)
            }
            Expr::Bare(l, (dom, cod)) => {
                let side = |space| Side {
                    space,
                    span: l.span.clone(),
                    tile: None,
                };
                let d = Decl {
                    layout: (**l).clone(),
                    domain: side(*dom),
                    codomain: side(*cod),
                    swizzle: None,
                    index: None,
                };
                self.decl(&d, &l.span)
            }
            Expr::Compose { left, right, span } => {
                let (va, vb) = (self.expr(left)?, self.expr(right)?);
                if !vb.runtime.is_empty() {
                    return Err(one(
                        Error::RightNotLogical {
                            codomain: vb.map.codomain(),
                        },
                        span.clone(),
                    ));
                }
                if !va.runtime.is_empty() {
                    return Err(one(Error::RuntimeNotLast { op: Op::Compose }, left.span()));
                }
                let map = compose(&va.map, &vb.map).map_err(|err| {
                    let at = match err {
                        Error::LeftDomainNotLogical { .. } => left.span(),
                        _ => right.span(),
                    };
                    one(err, at)
                })?;
                Ok(Evaluated {
                    map,
                    index: va.index,
                    runtime: va.runtime,
                })
            }
            Expr::Restrict {
                operand,
                fixed,
                span,
            } => self.restrict(operand, fixed, span),
            Expr::Swizzle {
                operand,
                swizzle,
                span,
            } => {
                let v = self.expr(operand)?;
                let s = swizzle.build().map_err(|err| one(err, span.clone()))?;
                if v.map.is_swizzled() {
                    return Err(one(Error::SecondSwizzle, span.clone()));
                }
                let map = v.map.swizzle(s).map_err(|err| one(err, operand.span()))?;
                Ok(Evaluated { map, ..v })
            }
            _ => self.layout_op(e),
        }
    }

    fn restrict(
        &self,
        operand: &Expr<S>,
        fixed: &[(Entry<S>, Value<S>)],
        span: &S,
    ) -> R<Evaluated<S>, S> {
        let v = self.expr(operand)?;
        if v.map.codomain() != Space::Physical {
            return Err(one(
                Error::RestrictNotPhysical {
                    codomain: v.map.codomain(),
                },
                operand.span(),
            ));
        }
        // An entry fixed by a run-time value stays in `v.map` until emission; the entries this
        // `restrict` sees are the others (spec: Restriction; later indices count the remaining entries).
        let all_names = v.map.domain_names();
        let visible: Vec<usize> = (0..v.map.domain_entries().len())
            .filter(|i| !v.runtime.iter().any(|(r, _)| r == i))
            .collect();
        let mut statics: Vec<(usize, i64, S)> = Vec::new();
        let mut runtime = v.runtime.clone();
        let mut seen = Vec::new();
        for (entry, value) in fixed {
            let espan = entry.span().clone();
            let pos = match entry {
                Entry::Position(p, _) if self.opts.order == Order::Cute => {
                    // CuTe order: position 0 is the fastest free entry.
                    visible
                        .len()
                        .checked_sub(p.saturating_add(1))
                        .ok_or_else(|| {
                            one(
                                Error::RestrictEntry {
                                    entry: *p,
                                    rank: visible.len(),
                                },
                                espan.clone(),
                            )
                        })?
                }
                Entry::Position(p, _) => *p,
                Entry::Name(n, _) => {
                    let named = |i: &usize| all_names.get(*i).and_then(Option::as_deref);
                    visible
                        .iter()
                        .position(|i| named(i) == Some(n.as_str()))
                        .ok_or_else(|| one(Error::UnknownModeName, espan.clone()))?
                }
            };
            let written = match entry {
                Entry::Position(p, _) => *p,
                Entry::Name(..) => pos,
            };
            let Some(&actual) = visible.get(pos).filter(|i| !seen.contains(*i)) else {
                return Err(one(
                    Error::RestrictEntry {
                        entry: written,
                        rank: visible.len(),
                    },
                    espan,
                ));
            };
            seen.push(actual);
            match value {
                Value::Int(x, _) => statics.push((actual, *x, espan)),
                Value::Coord(c, cspan) => {
                    let x = v
                        .map
                        .entry_index(actual, c)
                        .map_err(|err| one(err, cspan.clone()))?;
                    statics.push((actual, x, espan));
                }
                Value::Runtime(s) => {
                    if !self.opts.runtime {
                        return Err(one(Error::RuntimeValue, s.clone()));
                    }
                    runtime.push((actual, s.clone()));
                }
            }
        }
        if runtime.len() > 1 {
            return Err(one(Error::RuntimeRestrictTwice, span.clone()));
        }
        let map = if statics.is_empty() {
            v.map
        } else {
            // Fixing entries renumbers the later ones, the run-time entry among them. The
            // fixed entries are distinct and below `r`, so there are at most `r`.
            for (r, _) in &mut runtime {
                *r = r.saturating_sub(statics.iter().filter(|(e, _, _)| e < r).count());
            }
            let pairs: Vec<(usize, i64)> = statics.iter().map(|(e, x, _)| (*e, *x)).collect();
            v.map.restrict(&pairs).map_err(|err| {
                let at = match err {
                    Error::CoordOutOfRange { value, .. } => statics
                        .iter()
                        .find(|(_, x, _)| *x == value)
                        .map_or_else(|| span.clone(), |s| s.2.clone()),
                    _ => span.clone(),
                };
                one(err, at)
            })?
        };
        Ok(Evaluated {
            map,
            index: v.index,
            runtime,
        })
    }

    /// A literal arrangement `(3):(1)` of `op`: built, then checked dense at the token of the
    /// mode that breaks Lemma 1.
    fn arrangement(&self, l: &LayoutExpr<S>, op: Op) -> R<Layout, S> {
        if l.has_runtime() {
            return Err(one(Error::RuntimeOperand, l.span.clone()));
        }
        let layout = check_layout(l)?;
        crate::dense::check_dense_bijection(&layout).map_err(|e| {
            let mut x = locate_layout_error(l, Some(&layout), &e, true);
            x.error = arrangement_error(op, x.error);
            vec![x]
        })?;
        Ok(layout)
    }

    /// Operations on layouts: divide, repeat, interleave, broadcast, inverse. A composite
    /// operand decided to be a layout is used as that layout.
    fn layout_op(&self, e: &Expr<S>) -> R<Evaluated<S>, S> {
        let (a, span, op) = match e {
            Expr::Divide {
                operand,
                kind,
                span,
                ..
            } => (operand, span, kind.op()),
            Expr::Repeat {
                operand,
                kind,
                span,
                ..
            } => (operand, span, kind.op()),
            Expr::Broadcast { operand, span, .. } => (operand, span, Op::Broadcast),
            Expr::Inverse { operand, span } => (operand, span, Op::Inverse),
            _ => return self.expr(e),
        };
        let v = self.expr(a)?;
        if !v.runtime.is_empty() {
            return Err(one(Error::RuntimeNotLast { op }, a.span()));
        }
        let (l, dom, cod) = layout_operand(&v.map, op, a.span())?;
        let t_dom = v.map.domain_tile().map(<[i64]>::to_vec);
        let t_cod = v.map.codomain_tile().map(<[i64]>::to_vec);
        let (layout, dom, cod, (dt, ct)) = match e {
            Expr::Divide { tile, kind, .. } => {
                let k: Vec<i64> = tile.extents.iter().map(|(k, _)| *k).collect();
                let r = match kind {
                    DivideKind::Modes => crate::ops::divide_modes(&l, &k),
                    DivideKind::Whole => crate::ops::divide(&l, &k),
                };
                let r = r.map_err(|err| {
                    let at = match err {
                        Error::NotDivisible { mode, .. } | Error::TileSplit { mode, .. } => mode
                            .indices()
                            .first()
                            .and_then(|i| tile.extents.get(usize::from(*i)))
                            .map_or_else(|| tile.span.clone(), |(_, s)| s.clone()),
                        Error::TileRank { .. } => tile.span.clone(),
                        _ => span.clone(),
                    };
                    let mut loc = Located::new(err, at);
                    if self.opts.order == Order::Cute
                        && let Some(m) = err.mode()
                    {
                        let w = cute_path(l.shape(), &m);
                        loc.error = err.with_mode(w);
                        loc.mode = Some(w);
                    }
                    vec![loc]
                })?;
                // `divide_modes` is the same function on flat indices: both tiles stay.
                // `divide` reorders the domain to `(tile, rest)`: a domain tile equal to the
                // top-level sizes `(n_i)` becomes `(k_i.., n_i/k_i..)`.
                let dt = match t_dom {
                    Some(t) if *kind == DivideKind::Whole => Some(
                        divided_tile(&l, &t, &k)
                            .ok_or_else(|| one(Error::DivideTileUnknown, a.span()))?,
                    ),
                    t => t,
                };
                (r, dom, cod, (dt, t_cod))
            }
            Expr::Repeat {
                arrangement, kind, ..
            } => {
                let (arr, arr_span) = match arrangement.as_ref() {
                    Arrangement::Layout(x) => (self.arrangement(x, op)?, x.span.clone()),
                    Arrangement::Expr(x) => {
                        let vb = self.expr(x)?;
                        if !vb.runtime.is_empty() {
                            return Err(one(Error::RuntimeNotLast { op }, x.span()));
                        }
                        let m = layout_operand(&vb.map, op, x.span())?;
                        (m.0, x.span())
                    }
                };
                let r = match kind {
                    RepeatKind::Interleave => crate::ops::interleave(&l, &arr),
                    RepeatKind::Repeat => crate::ops::repeat(&l, &arr),
                }
                .map_err(|err| one(arrangement_error(op, err), arr_span))?;
                // `repeat`: the arrangement's size is the slowest extent; `interleave`: the
                // fastest.
                let n = arr.size();
                let extend = |t: Option<Vec<i64>>| {
                    t.map(|mut t| {
                        if *kind == RepeatKind::Interleave {
                            t.push(n);
                        } else {
                            t.insert(0, n);
                        }
                        t
                    })
                };
                (r, dom, cod, (extend(t_dom), extend(t_cod)))
            }
            Expr::Broadcast { shape, .. } => {
                if cod != Space::Physical {
                    return Err(one(Error::BroadcastNotPhysical { codomain: cod }, a.span()));
                }
                let r = crate::ops::broadcast(&l, shape).map_err(|err| one(err, span.clone()))?;
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
                if cod == Space::Physical {
                    return Err(one(Error::InverseOfPhysical { domain: dom }, a.span()));
                }
                let r = crate::ops::inverse(&l).map_err(|err| one(err, a.span()))?;
                // The two sides exchange places, with their tiles.
                (r, cod, dom, (t_cod, t_dom))
            }
        };
        for t in [&dt, &ct].into_iter().flatten() {
            if t.len() > MAX_TILE_EXTENTS {
                return Err(one(
                    Error::ResultTileExtents { op, count: t.len() },
                    span.clone(),
                ));
            }
        }
        let map = layout_map(layout, dom, cod, dt, ct).map_err(|err| one(err, span.clone()))?;
        Ok(Evaluated {
            map,
            index: v.index,
            runtime: v.runtime,
        })
    }
}

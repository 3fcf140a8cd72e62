//! Evaluating an expression: each operation's preconditions, checked with the numbers, each
//! failure located at the operand or token that caused it.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::ast::{
    Arrangement, Decl, DivideKind, Entry, Expr, LayoutExpr, Op, Regroup, RepeatKind, Side, Value,
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
    /// Run-time restrictions: `(entry, value)`, each entry a free top-level entry of `map`
    /// (a part of a written entry when the value was a tuple), at most one value each.
    pub runtime: Vec<(usize, S)>,
}

type R<T, S> = Result<T, Vec<Located<S>>>;

/// A part of a restricted entry: fixed to a flat index, free (`_`), or fixed by a run-time
/// value (free in the map until emission).
#[derive(Clone, Debug)]
enum Part<S> {
    Static(i64),
    Free,
    Runtime(S),
}

impl<S> Part<S> {
    /// The value the core's slice takes: the index, or free.
    fn fixed(&self) -> Option<i64> {
        match self {
            Part::Static(x) => Some(*x),
            Part::Free | Part::Runtime(_) => None,
        }
    }
}

/// Counts the free parts of an entry's plan, depth first, recording the run-time ones at
/// their position among the result's entries.
fn count_parts<S: Clone>(plan: &Tree<Part<S>>, counter: &mut usize, runtime: &mut Vec<(usize, S)>) {
    match plan {
        Tree::Leaf(Part::Static(_)) => {}
        Tree::Leaf(Part::Free) => *counter = counter.saturating_add(1),
        Tree::Leaf(Part::Runtime(s)) => {
            runtime.push((*counter, s.clone()));
            *counter = counter.saturating_add(1);
        }
        Tree::Tuple(v) => {
            for p in v {
                count_parts(p, counter, runtime);
            }
        }
    }
}

/// The values of the whole-domain form, one per free entry (`rank` of them; seed order): a
/// tuple's elements, or the value itself for a domain of one entry.
///
/// # Errors
/// [`Error::CoordProfile`] at the root when the tuple's rank is not `rank`.
fn whole_values<S: Clone>(value: &Value<S>, rank: usize) -> R<Vec<Value<S>>, S> {
    if rank == 1 {
        return Ok(vec![value.clone()]);
    }
    let items: Vec<Value<S>> = match value {
        Value::Parts(items, _) => items.clone(),
        Value::Coord(Tree::Tuple(v), s) => v
            .iter()
            .map(|t| match t {
                Tree::Leaf(x) => Value::Int(*x, s.clone()),
                t => Value::Coord(t.clone(), s.clone()),
            })
            .collect(),
        _ => Vec::new(),
    };
    if items.len() != rank {
        let coord_rank = match value {
            Value::Parts(..) | Value::Coord(..) => items.len().max(1),
            _ => 1,
        };
        return Err(one(
            Error::CoordProfile {
                mode: ModePath::ROOT,
                shape_rank: rank,
                coord_rank,
            },
            value.span().clone(),
        ));
    }
    Ok(items)
}

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
/// [`Error::RuntimeNotLast`], [`Error::NotALayout`],
/// [`Error::BroadcastNotPhysical`], [`Error::InverseOfPhysical`],
/// [`Error::DivideTileUnknown`], [`Error::RegroupTileUnknown`], [`Error::ResultTileExtents`],
/// [`Error::SecondSwizzle`], the regroupings' [`Error::GroupRange`], [`Error::ModeIndex`],
/// [`Error::RepeatedMode`], [`Error::EmptySelection`], [`Error::PermutationRank`] (each at the
/// index that causes it),
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

/// Whether `r` is a `select` of fewer modes than the map's domain has: one that fixes modes at 0
/// (a `select` of every mode, or of more, is a `permute` or its error).
fn drops_modes<S: Clone>(r: &Regroup<S>, m: &Map) -> bool {
    matches!(r, Regroup::Select(i) if i.indices.len() < m.domain_entries().len())
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
                // Separable, each coordinate a layout: what is left is the constant (a
                // composite over a restriction).
                Ok(_) if d.constant != 0 => NotLayoutReason::Restricted,
                _ => NotLayoutReason::NotSeparable,
            }),
        },
        Err(_) => Err(NotLayoutReason::Undecided),
    }
}

/// Whether two trees nest alike (the leaves' values aside).
fn same_nesting(a: &Tree<i64>, b: &Tree<i64>) -> bool {
    match (a, b) {
        (Tree::Leaf(_), Tree::Leaf(_)) => true,
        (Tree::Tuple(x), Tree::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_nesting(p, q))
        }
        _ => false,
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
    let sizes = top_sizes(l)?;
    if sizes != t || sizes.len() != k.len() {
        return None;
    }
    let mut out = k.to_vec();
    for (n, k) in sizes.iter().zip(k) {
        out.push(n.checked_div(*k)?);
    }
    Some(out)
}

/// The sizes of the top-level modes of `l` (its size when it has one mode).
fn top_sizes(l: &Layout) -> Option<Vec<i64>> {
    match l.shape() {
        Tree::Tuple(v) => v
            .iter()
            .map(|m| {
                m.leaves()
                    .into_iter()
                    .try_fold(1i64, |a, &n| a.checked_mul(n))
            })
            .collect(),
        Tree::Leaf(n) => Some(vec![*n]),
    }
}

/// The domain tile of `repeat_modewise(l, a)` (or its raked form) from `l`'s tile `t`: `t`
/// must be `l`'s top-level sizes `(n_i)`, and becomes `(a_i·n_i)` with `a_i` the size of the
/// arrangement's mode `i`. `None` when `t` is not the top-level sizes (or on overflow).
fn modewise_tile(l: &Layout, a: &Layout, t: &[i64]) -> Option<Vec<i64>> {
    let sizes = top_sizes(l)?;
    let copies = top_sizes(a)?;
    if sizes != t || sizes.len() != copies.len() {
        return None;
    }
    sizes
        .iter()
        .zip(&copies)
        .map(|(n, c)| n.checked_mul(*c))
        .collect()
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
                    operands: Vec::new(),
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
            Expr::Regroup {
                operand,
                regroup,
                span,
            } => {
                let v = self.expr(operand)?;
                if !v.runtime.is_empty() {
                    return Err(one(
                        Error::RuntimeNotLast { op: regroup.op() },
                        operand.span(),
                    ));
                }
                let map = self.regroup_map(&v.map, regroup, operand, span)?;
                Ok(Evaluated {
                    map,
                    index: v.index,
                    runtime: v.runtime,
                })
            }
            _ => self.layout_op(e),
        }
    }

    /// A regrouping of a map's domain. A layout is regrouped itself (its domain tile follows
    /// the modes for `select` and `permute`); a swizzled map is its inner map regrouped, then
    /// swizzled (the swizzle acts on offsets only); a composite `compose(A, B)` is
    /// `compose(A, r(B))`, since `B` is applied first and its domain is the composite's, except
    /// for a `select` that drops modes (whose `r(B)` is not a bijection onto `A`'s domain):
    /// that and a restriction are regrouped through their coarsest layout (Theorem 1), else
    /// [`Error::NotALayout`].
    fn regroup_map(&self, m: &Map, r: &Regroup<S>, operand: &Expr<S>, span: &S) -> R<Map, S> {
        match m {
            Map::Layout(a) => {
                let dt = m.domain_tile().map(<[i64]>::to_vec);
                let ct = m.codomain_tile().map(<[i64]>::to_vec);
                let (out, dt) = self.regroup_layout(a.layout(), dt, r, operand, span)?;
                let a = Annotated::new(out, m.domain(), m.codomain())
                    .and_then(|a| a.with_tiles(dt, ct))
                    .map_err(|err| one(err, span.clone()))?;
                Ok(a.into())
            }
            Map::Swizzled { swizzle, inner } => self
                .regroup_map(inner, r, operand, span)?
                .swizzle(*swizzle)
                .map_err(|err| one(err, span.clone())),
            Map::Composite(c) if !drops_modes(r, m) => {
                let right = self.regroup_map(&c.right(), r, operand, span)?;
                compose(&c.left(), &right).map_err(|err| one(err, span.clone()))
            }
            _ => {
                let (l, dom, cod) = layout_operand(m, r.op(), operand.span())?;
                let dt = m.domain_tile().map(<[i64]>::to_vec);
                let ct = m.codomain_tile().map(<[i64]>::to_vec);
                let (out, dt) = self.regroup_layout(&l, dt, r, operand, span)?;
                if !same_nesting(l.shape(), &m.domain_shape()) {
                    // The coarsest layout cuts a mode of the domain into several leaves, so
                    // its modes are not the map's: a `select` of modes kept in order is the
                    // map with the others fixed at 0, the modes as they are; any other is
                    // refused rather than indexing leaves the map's domain does not have.
                    return self.select_by_restriction(m, r, span).ok_or_else(|| {
                        one(
                            Error::NotALayout {
                                op: r.op(),
                                why: NotLayoutReason::Refined,
                            },
                            operand.span(),
                        )
                    });
                }
                layout_map(out, dom, cod, dt, ct).map_err(|err| one(err, span.clone()))
            }
        }
    }

    /// `select(m, I)` as `m` with the top-level entries not in `I` fixed at 0, when `r` is a
    /// `select` that keeps its modes in their order (seed order): the same function, the kept
    /// entries' shapes unchanged. `None` otherwise.
    fn select_by_restriction(&self, m: &Map, r: &Regroup<S>, _span: &S) -> Option<Map> {
        let Regroup::Select(list) = r else {
            return None;
        };
        let rank = m.domain_entries().len();
        let cute = self.opts.order == Order::Cute;
        let mut kept: Vec<usize> = list
            .indices
            .iter()
            .map(|(w, _)| {
                if cute {
                    rank.checked_sub(w.checked_add(1)?)
                } else {
                    Some(*w)
                }
            })
            .collect::<Option<Vec<usize>>>()?;
        if cute {
            kept.reverse();
        }
        if kept.windows(2).any(|w| matches!(w, [a, b] if a >= b)) {
            return None;
        }
        let fixed: Vec<(usize, i64)> = (0..rank)
            .filter(|e| !kept.contains(e))
            .map(|e| (e, 0))
            .collect();
        m.restrict(&fixed).ok()
    }

    /// A layout regrouped by `r` ([`crate::ops`]'s `group`, `flatten`, `select`, `permute`,
    /// `coalesce`) and its domain tile `t` after it. Indices written in CuTe order count from
    /// the fastest mode; an index out of range is passed on as written, so that the error
    /// names it. Each error points at the index that causes it.
    fn regroup_layout(
        &self,
        l: &Layout,
        t: Option<Vec<i64>>,
        r: &Regroup<S>,
        operand: &Expr<S>,
        span: &S,
    ) -> R<(Layout, Option<Vec<i64>>), S> {
        let rank = l.rank();
        let cute = self.opts.order == Order::Cute;
        // Seed-order index of a written one.
        let seed = |w: usize| {
            if cute && w < rank {
                rank.saturating_sub(w.saturating_add(1))
            } else {
                w
            }
        };
        let list = match r {
            Regroup::Group { start, end } => {
                let (s, e) = (start.0, end.0);
                let (s, e) = if cute && s < e && e <= rank {
                    (rank.saturating_sub(e), rank.saturating_sub(s))
                } else {
                    (s, e)
                };
                let out = crate::ops::group(l, s, e).map_err(|err| {
                    let at = if end.0 > rank { &end.1 } else { &start.1 };
                    one(err, at.clone())
                })?;
                return Ok((out, t));
            }
            Regroup::Flatten | Regroup::Coalesce => {
                let out = if matches!(r, Regroup::Flatten) {
                    crate::ops::flatten(l)
                } else {
                    crate::ops::coalesce(l)
                }
                .map_err(|err| one(err, span.clone()))?;
                return Ok((out, t));
            }
            Regroup::Select(i) | Regroup::Permute(i) => i,
        };
        // Seed order: the written list, reversed when written fastest first; each index with
        // its token.
        let mut pairs: Vec<(usize, &(usize, S))> =
            list.indices.iter().map(|w| (seed(w.0), w)).collect();
        let written = pairs.clone();
        if cute {
            pairs.reverse();
        }
        let indices: Vec<usize> = pairs.iter().map(|(i, _)| *i).collect();
        let out = match r {
            Regroup::Permute(_) => crate::ops::permute(l, &indices),
            _ => crate::ops::select(l, &indices),
        }
        .map_err(|err| {
            // The token of seed index `k`, the first (or, `repeated`, the second) written.
            let token = |k: usize, repeated: bool| {
                let mut hits = written.iter().filter(|(i, _)| *i == k).map(|(_, w)| *w);
                if repeated { hits.nth(1) } else { hits.next() }
            };
            match err {
                Error::ModeIndex { index, .. } => token(index, false)
                    .map_or_else(|| one(err, list.span.clone()), |w| one(err, w.1.clone())),
                Error::RepeatedMode { index } => match token(index, true) {
                    Some(w) => one(Error::RepeatedMode { index: w.0 }, w.1.clone()),
                    None => one(err, list.span.clone()),
                },
                Error::EmptySelection | Error::PermutationRank { .. } => {
                    one(err, list.span.clone())
                }
                _ => one(err, span.clone()),
            }
        })?;
        let t = match t {
            None => None,
            Some(t) => {
                let sizes: Option<Vec<i64>> = match l.shape() {
                    Tree::Tuple(v) => v
                        .iter()
                        .map(|m| {
                            m.leaves()
                                .into_iter()
                                .try_fold(1i64, |a, &n| a.checked_mul(n))
                        })
                        .collect(),
                    Tree::Leaf(n) => Some(vec![*n]),
                };
                if sizes.as_deref() != Some(t.as_slice()) {
                    return Err(one(
                        Error::RegroupTileUnknown { op: r.op() },
                        operand.span(),
                    ));
                }
                Some(indices.iter().filter_map(|&i| t.get(i).copied()).collect())
            }
        };
        Ok((out, t))
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
        let entries = v.map.domain_entries();
        let all_names = v.map.domain_names();
        let visible: Vec<usize> = (0..entries.len())
            .filter(|i| !v.runtime.iter().any(|(r, _)| r == i))
            .collect();
        // Each value with its entry among the map's entries and where the entry is written.
        let mut targets: Vec<(usize, Value<S>, S)> = Vec::new();
        let mut seen = Vec::new();
        for (entry, value) in fixed {
            let espan = entry.span().clone();
            let pos = match entry {
                Entry::All(_) => {
                    for (i, x) in whole_values(value, visible.len())?.into_iter().enumerate() {
                        if let Some(&actual) = visible.get(i) {
                            seen.push(actual);
                            targets.push((actual, x, espan.clone()));
                        }
                    }
                    continue;
                }
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
                _ => pos,
            };
            let Some(&actual) = visible.get(pos) else {
                return Err(one(
                    Error::RestrictEntry {
                        entry: written,
                        rank: visible.len(),
                    },
                    espan,
                ));
            };
            if seen.contains(&actual) {
                return Err(one(Error::RepeatedMode { index: written }, espan));
            }
            seen.push(actual);
            targets.push((actual, value.clone(), espan));
        }
        // Each value as the parts of its entry: fixed, free, or fixed by a run-time value.
        let mut plans: Vec<Option<Tree<Part<S>>>> = alloc::vec![None; entries.len()];
        let mut split = false;
        let mut statics: Vec<(i64, S)> = Vec::new();
        for (actual, value, espan) in &targets {
            let shape = entries.get(*actual).cloned().unwrap_or(Tree::Leaf(1));
            let mut path = alloc::vec![*actual];
            let plan = self.plan(&shape, value, &mut path, true)?;
            if let Tree::Leaf(Part::Static(x)) = &plan {
                statics.push((*x, espan.clone()));
            }
            split |= matches!(plan, Tree::Tuple(_)) || matches!(plan, Tree::Leaf(Part::Static(_)));
            plans[*actual] = Some(plan);
        }
        // The run-time entries of the result: the map's free parts in order, counted.
        let mut runtime: Vec<(usize, S)> = Vec::new();
        let mut counter = 0usize;
        for (e, plan) in plans.iter().enumerate() {
            if let Some((_, s)) = v.runtime.iter().find(|(r, _)| *r == e) {
                runtime.push((counter, s.clone()));
                counter = counter.saturating_add(1);
                continue;
            }
            match plan {
                Some(p) => count_parts(p, &mut counter, &mut runtime),
                None => counter = counter.saturating_add(1),
            }
        }
        let map = if split {
            let pairs: Vec<(usize, Tree<Option<i64>>)> = plans
                .iter()
                .enumerate()
                .filter_map(|(e, p)| Some((e, p.as_ref()?.map(&mut Part::fixed))))
                .collect();
            v.map.slice_entries(&pairs).map_err(|err| {
                let at = match err {
                    Error::CoordOutOfRange { value, .. } => statics
                        .iter()
                        .find(|(x, _)| *x == value)
                        .map_or_else(|| span.clone(), |s| s.1.clone()),
                    _ => span.clone(),
                };
                one(err, at)
            })?
        } else {
            v.map
        };
        Ok(Evaluated {
            map,
            index: v.index,
            runtime,
        })
    }

    /// The parts a restriction value names in a sub-shape (at mode `path`): a tuple value
    /// has one value per entry of the sub-shape's tuple; an integer or a coordinate is one
    /// fixed flat index (checked here inside a tuple; a whole entry's by the core, `top`).
    fn plan(
        &self,
        shape: &Tree<i64>,
        value: &Value<S>,
        path: &mut Vec<usize>,
        top: bool,
    ) -> R<Tree<Part<S>>, S> {
        Ok(match value {
            Value::Int(x, s) => {
                // A sub-shape of a checked domain: its size fits.
                let size = shape
                    .leaves()
                    .into_iter()
                    .try_fold(1i64, |a, &n| a.checked_mul(n))
                    .unwrap_or(i64::MAX);
                if !top && !(0..size).contains(x) {
                    let mode = ModePath::from_indices(path).map_err(|e| one(e, s.clone()))?;
                    return Err(one(
                        Error::CoordOutOfRange {
                            mode,
                            value: *x,
                            size,
                        },
                        s.clone(),
                    ));
                }
                Tree::Leaf(Part::Static(*x))
            }
            Value::Coord(c, s) => {
                let x = crate::ops::canonical(shape)
                    .and_then(|l| l.eval(c))
                    .map_err(|e| one(e, s.clone()))?;
                Tree::Leaf(Part::Static(x))
            }
            Value::Free(_) => Tree::Leaf(Part::Free),
            Value::Runtime(s) => {
                if !self.opts.runtime {
                    return Err(one(Error::RuntimeValue, s.clone()));
                }
                Tree::Leaf(Part::Runtime(s.clone()))
            }
            Value::Parts(items, s) => {
                let subs = match shape {
                    Tree::Tuple(v) if v.len() == items.len() => v,
                    _ => {
                        let mode = ModePath::from_indices(path).map_err(|e| one(e, s.clone()))?;
                        return Err(one(
                            Error::CoordProfile {
                                mode,
                                shape_rank: shape.rank(),
                                coord_rank: items.len(),
                            },
                            s.clone(),
                        ));
                    }
                };
                let mut out = Vec::with_capacity(items.len());
                for (i, (sub, item)) in subs.iter().zip(items).enumerate() {
                    path.push(i);
                    out.push(self.plan(sub, item, path, false)?);
                    path.pop();
                }
                Tree::Tuple(out)
            }
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

    /// Operations on layouts: divide, repeat, interleave, the per-mode products, broadcast,
    /// inverse. A composite
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
                    RepeatKind::Modewise => crate::ops::repeat_modewise(&l, &arr),
                    RepeatKind::ModewiseRaked => crate::ops::repeat_modewise_raked(&l, &arr),
                }
                .map_err(|err| one(arrangement_error(op, err), arr_span))?;
                // `repeat` and the per-mode forms place the copies `M·A(a)` apart, `A(a)` in
                // `[0, size(A))`: the codomain's tile gains the arrangement's size as its
                // slowest extent. `interleave`: as the fastest of both.
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
                let dt = match kind {
                    RepeatKind::Repeat | RepeatKind::Interleave => extend(t_dom),
                    // Per mode: mode `i`'s flat index is `x·n_i + y`, so a domain tile equal
                    // to the top-level sizes `(n_i)` becomes `(a_i·n_i)`.
                    RepeatKind::Modewise | RepeatKind::ModewiseRaked => match t_dom {
                        Some(t) => Some(
                            modewise_tile(&l, &arr, &t)
                                .ok_or_else(|| one(Error::RegroupTileUnknown { op }, a.span()))?,
                        ),
                        None => None,
                    },
                };
                (r, dom, cod, (dt, extend(t_cod)))
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

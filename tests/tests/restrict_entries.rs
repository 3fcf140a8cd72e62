//! Restrictions whose free entries are tuples, swizzles of every form of map, and the checks of
//! `Program::eval`, each compared with a brute-force model written here (no call into the code
//! under test computes an expected value).
//!
//! A restriction that leaves one entry free has that one entry as its domain, whatever its shape
//! (spec: Layouts and evaluation; a rank-1 tuple is its entry): later restrictions number it 0 and take a flat index
//! or a coordinate of the whole entry, a run-time value ranges over the whole entry, and the
//! by-mode coordinates of its programs count one coordinate for it. The classes covered:
//! - every layout of 2 or 3 top-level entries drawn from leaves and tuples of depth 1 and 2,
//!   restricted in 2 or 3 steps by every subset of the free entries, each value given as a flat
//!   index or as a coordinate; as a plain layout, a swizzled layout and the left side of a
//!   composite whose right operand has the tuple entries;
//! - the same through `layout!`, by coordinate and by run-time value (every value of the entry,
//!   one past it), in one `restrict` and in nested ones;
//! - swizzles of layouts, restrictions (negative and non-negative slices of layouts with
//!   negative strides), composites whose left operand is either, and restrictions of those;
//! - programs that read a missing coordinate or temporary, or are given the wrong number of
//!   coordinates or values outside them.

use layout_core::{
    Annotated, Error, IntType, Map, Program, Space, Sum, Swizzle, Term, Tree, Var, compose, emit,
    written,
};
use layout_typed::IndexType;
use layout_typed::prelude::*;

const L: Space = Space::Logical;
const TV: Space = Space::ThreadValue;
const P: Space = Space::Physical;

/// A mode of the model: a leaf `(size, stride)` or a tuple.
#[derive(Clone, Debug)]
enum S {
    Leaf(i64, i64),
    Tuple(Vec<S>),
}

impl S {
    fn leaves(&self) -> Vec<(i64, i64)> {
        match self {
            S::Leaf(n, d) => vec![(*n, *d)],
            S::Tuple(v) => v.iter().flat_map(S::leaves).collect(),
        }
    }

    fn size(&self) -> i64 {
        self.leaves().iter().map(|l| l.0).product()
    }

    fn shape(&self) -> Tree<i64> {
        match self {
            S::Leaf(n, _) => Tree::Leaf(*n),
            S::Tuple(v) => Tree::Tuple(v.iter().map(S::shape).collect()),
        }
    }

    fn text(&self, stride: bool) -> String {
        match self {
            S::Leaf(n, d) => (if stride { d } else { n }).to_string(),
            S::Tuple(v) => {
                let parts: Vec<String> = v.iter().map(|s| s.text(stride)).collect();
                format!("({})", parts.join(","))
            }
        }
    }

    /// The leaf coordinates of flat index `x` (last leaf fastest).
    fn digits(&self, x: i64) -> Vec<i64> {
        let sizes: Vec<i64> = self.leaves().iter().map(|l| l.0).collect();
        digits(x, &sizes)
    }

    /// The natural coordinate of flat index `x`, shaped like the mode.
    fn coord(&self, x: i64) -> Tree<i64> {
        fn build(s: &S, d: &mut std::slice::Iter<'_, i64>) -> Tree<i64> {
            match s {
                S::Leaf(..) => Tree::Leaf(*d.next().expect("one digit per leaf")),
                S::Tuple(v) => Tree::Tuple(v.iter().map(|c| build(c, d)).collect()),
            }
        }
        build(self, &mut self.digits(x).iter())
    }

    /// The offset of flat index `x`.
    fn offset(&self, x: i64) -> i64 {
        self.digits(x)
            .iter()
            .zip(self.leaves())
            .map(|(c, (_, d))| c * d)
            .sum()
    }

    /// The same shape with strides `f(leaf number, size)`.
    fn restride(&self, next: &mut impl FnMut(i64) -> i64) -> S {
        match self {
            S::Leaf(n, _) => S::Leaf(*n, next(*n)),
            S::Tuple(v) => S::Tuple(v.iter().map(|c| c.restride(next)).collect()),
        }
    }
}

fn digits(mut x: i64, sizes: &[i64]) -> Vec<i64> {
    let mut c = vec![0; sizes.len()];
    for j in (0..sizes.len()).rev() {
        c[j] = x % sizes[j];
        x /= sizes[j];
    }
    c
}

/// A layout of top-level entries, as `layout-core` reads it.
fn text(entries: &[S]) -> String {
    let t = S::Tuple(entries.to_vec());
    format!("{}:{}", t.text(false), t.text(true))
}

/// Compact strides, last leaf fastest (`row`) or first leaf fastest.
fn compact(entries: &[S], row: bool) -> Vec<S> {
    let t = S::Tuple(entries.to_vec());
    let sizes: Vec<i64> = t.leaves().iter().map(|l| l.0).collect();
    let mut strides = vec![0; sizes.len()];
    let mut w = 1;
    let order: Vec<usize> = if row {
        (0..sizes.len()).rev().collect()
    } else {
        (0..sizes.len()).collect()
    };
    for i in order {
        strides[i] = w;
        w *= sizes[i];
    }
    let mut it = strides.into_iter();
    match t.restride(&mut |_| it.next().expect("one stride per leaf")) {
        S::Tuple(v) => v,
        S::Leaf(..) => unreachable!("a tuple stays one"),
    }
}

/// The model of a restricted map: the original top-level entries, the fixed ones (original
/// entry, flat value), and what follows the entries' offset (`post`).
struct Model<'a> {
    entries: Vec<S>,
    fixed: Vec<(usize, i64)>,
    post: &'a dyn Fn(i64) -> i64,
}

impl Model<'_> {
    fn free(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|e| !self.fixed.iter().any(|(f, _)| f == e))
            .collect()
    }

    fn free_sizes(&self) -> Vec<i64> {
        self.free()
            .iter()
            .map(|&e| self.entries[e].size())
            .collect()
    }

    fn size(&self) -> i64 {
        self.free_sizes().iter().product()
    }

    /// The offset at flat index `i` of the free entries (last free entry fastest).
    fn at(&self, i: i64) -> i64 {
        let free = self.free();
        let d = digits(i, &self.free_sizes());
        let inner: i64 = (0..self.entries.len())
            .map(|e| {
                let x = match self.fixed.iter().find(|(f, _)| *f == e) {
                    Some((_, v)) => *v,
                    None => d[free.iter().position(|f| *f == e).expect("free")],
                };
                self.entries[e].offset(x)
            })
            .sum();
        (self.post)(inner)
    }
}

/// Checks a restricted map against its model: size, domain entries, `eval_index`, and the
/// emitted and written programs by leaf and by entry.
fn check(m: &Map, model: &Model<'_>, id: &str) {
    let n = model.size();
    assert_eq!(m.size(), n, "{id}: size");
    let want: Vec<Tree<i64>> = model
        .free()
        .iter()
        .map(|&e| model.entries[e].shape())
        .collect();
    assert_eq!(m.domain_entries(), want, "{id}: domain entries");
    let values: Vec<i64> = (0..n).map(|i| model.at(i)).collect();
    for i in 0..n {
        assert_eq!(
            m.eval_index(i),
            Ok(values[i as usize]),
            "{id}: eval_index({i})"
        );
    }
    for by_mode in [false, true] {
        let e = emit(m, by_mode).unwrap_or_else(|e| panic!("{id}: emit: {e}"));
        for (what, p) in [("emitted", e.program), ("written", written(m, by_mode))] {
            if by_mode {
                // One coordinate per free entry; a map with none has the one of size 1.
                let sizes = Some(model.free_sizes()).filter(|s| !s.is_empty());
                assert_eq!(
                    p.sizes,
                    sizes.unwrap_or(vec![1]),
                    "{id}: {what} by-mode sizes"
                );
            }
            assert_eq!(p.sizes.iter().product::<i64>(), n, "{id}: {what} size");
            for i in 0..n {
                assert_eq!(
                    p.eval(&digits(i, &p.sizes)),
                    Ok(values[i as usize]),
                    "{id}: {what} (by mode: {by_mode}) at {i}: {}",
                    p.to_python()
                );
            }
        }
    }
}

/// Entry forms: leaves, a flat tuple, tuples of depth 2.
fn forms() -> Vec<S> {
    let l = |n| S::Leaf(n, 0);
    vec![
        l(2),
        l(3),
        S::Tuple(vec![l(3), l(4)]),
        S::Tuple(vec![l(2), S::Tuple(vec![l(2), l(3)])]),
        S::Tuple(vec![S::Tuple(vec![l(2), l(2)]), l(3)]),
    ]
}

/// The layouts: every pair of forms and the triples with at most 432 positions.
fn layouts() -> Vec<Vec<S>> {
    let f = forms();
    let mut out = Vec::new();
    for a in &f {
        for b in &f {
            out.push(vec![a.clone(), b.clone()]);
            for c in &f {
                let t = vec![a.clone(), b.clone(), c.clone()];
                if t.iter().map(S::size).product::<i64>() <= 432 {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// The steps of a restriction: each step fixes a non-empty subset of the entries still free (as
/// positions among them, ascending); every step but the last leaves one entry free or more.
fn plans(rank: usize) -> Vec<Vec<Vec<usize>>> {
    fn go(free: usize, depth: usize, out: &mut Vec<Vec<Vec<usize>>>, acc: &mut Vec<Vec<usize>>) {
        if !acc.is_empty() {
            out.push(acc.clone());
        }
        if free == 0 || depth == 0 {
            return;
        }
        for mask in 1u32..(1 << free) {
            let subset: Vec<usize> = (0..free).filter(|i| mask & (1 << i) != 0).collect();
            let left = free - subset.len();
            acc.push(subset);
            go(left, depth - 1, out, acc);
            acc.pop();
        }
    }
    let mut out = Vec::new();
    go(rank, 3, &mut out, &mut Vec::new());
    // Only plans of at least two steps where a step starts from one free entry, or leaves a
    // tuple entry among the free ones, exercise the renumbering; keep all, they are cheap.
    out
}

/// Applies a plan to `base`, giving each value as a flat index or (`by_coord`) as the natural
/// coordinate of the entry, and the model alongside.
fn apply<'a>(
    base: &Map,
    entries: &[S],
    plan: &[Vec<usize>],
    by_coord: bool,
    post: &'a dyn Fn(i64) -> i64,
) -> (Map, Model<'a>) {
    let mut model = Model {
        entries: entries.to_vec(),
        fixed: Vec::new(),
        post,
    };
    let mut m = base.clone();
    for step in plan {
        let free = model.free();
        let mut pairs = Vec::new();
        for &pos in step {
            let e = free[pos];
            let s = &model.entries[e];
            // A value inside the entry, not 0, that differs per entry.
            let v = (s.size() - 1 - (e as i64 % 2)).max(0);
            let x = if by_coord {
                let c = s.coord(v);
                let x = m
                    .entry_index(pos, &c)
                    .unwrap_or_else(|err| panic!("entry_index({pos}, {c:?}) of {m:?}: {err}"));
                assert_eq!(x, v, "entry_index({pos}, {c:?})");
                x
            } else {
                v
            };
            pairs.push((pos, x));
            model.fixed.push((e, v));
        }
        m = m
            .restrict(&pairs)
            .unwrap_or_else(|err| panic!("restrict {pairs:?} of {m:?}: {err}"));
    }
    (m, model)
}

#[test]
fn restrictions_of_every_entry_shape_and_depth_match_brute_force() {
    let id = |x: i64| x;
    let sw = Swizzle::new(1, 3, 1).expect("fields");
    let swz = move |x: i64| x ^ (((x >> 3) & 1) << 1);
    let mut maps = 0;
    for entries in layouts() {
        let rank = entries.len();
        // A plain layout (row-major compact strides, scaled so offsets differ per leaf).
        let phys = compact(&entries, true);
        let plain: Map = Annotated::new(text(&phys).parse().expect("layout"), L, P)
            .expect("annotated")
            .into();
        let swizzled = plain.clone().swizzle(sw).expect("non-negative");
        // A composite whose right operand carries the entries (column-major, a bijection
        // onto the left's domain), the left a transposed compact layout of the same size.
        let tv = compact(&entries, false);
        let n = S::Tuple(entries.clone()).size();
        let a = (2..=n).find(|k| n % k == 0).expect("a divisor");
        let b = n / a;
        let left: Map = Annotated::new(format!("({a},{b}):(1,{a})").parse().expect("left"), L, P)
            .expect("left")
            .into();
        let right: Map = Annotated::new(text(&tv).parse().expect("right"), TV, L)
            .expect("right")
            .into();
        let comp = compose(&left, &right).expect("composite");
        let left_at = move |j: i64| (j / b) + (j % b) * a;
        for plan in plans(rank) {
            for by_coord in [false, true] {
                let what = format!("{} {plan:?} by coordinate: {by_coord}", text(&phys));
                let (m, model) = apply(&plain, &phys, &plan, by_coord, &id);
                check(&m, &model, &format!("layout {what}"));
                let (m, model) = apply(&swizzled, &phys, &plan, by_coord, &swz);
                check(&m, &model, &format!("swizzled {what}"));
                let (m, model) = apply(&comp, &tv, &plan, by_coord, &left_at);
                check(&m, &model, &format!("composite {what}"));
                maps += 3;
            }
        }
    }
    assert!(maps > 3000, "{maps} maps");
}

#[test]
fn the_example_restriction_by_coordinate() {
    // R = (2,(3,4)):(12,(4,1)); restrict(restrict(R, 0 = 1), 0 = (1, 2)) is 12 + 4 + 2.
    let r: Map = Annotated::new("(2,(3,4)):(12,(4,1))".parse().expect("R"), L, P)
        .expect("R")
        .into();
    let once = r.restrict(&[(0, 1)]).expect("first");
    let c = Tree::Tuple(vec![Tree::Leaf(1), Tree::Leaf(2)]);
    assert_eq!(once.entry_index(0, &c), Ok(6));
    assert_eq!(
        once.restrict(&[(0, 6)]).and_then(|m| m.eval_index(0)),
        Ok(18)
    );
}

/// The offsets of a typed layout at every flat index.
fn offsets<T: Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

/// The model's offsets at every flat index.
fn table(model: &Model<'_>) -> Vec<i64> {
    (0..model.size()).map(|i| model.at(i)).collect()
}

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let p = std::panic::catch_unwind(f).expect_err("panics");
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

fn leaf(n: i64, d: i64) -> S {
    S::Leaf(n, d)
}

fn tup(v: Vec<S>) -> S {
    S::Tuple(v)
}

#[test]
fn layout_restrictions_by_coordinate_and_runtime_value_of_a_tuple_entry() {
    let id = |x: i64| x;
    let model = |entries: &[S], text_: &str, fixed: Vec<(usize, i64)>| {
        assert_eq!(text(entries), text_, "the model is the macro's literal");
        Model {
            entries: entries.to_vec(),
            fixed,
            post: &id,
        }
    };
    // R = (2,(3,4)):(12,(4,1)): the second entry, a flat tuple, is left free.
    let r = [leaf(2, 12), tup(vec![leaf(3, 4), leaf(4, 1)])];
    let rt = "(2,(3,4)):(12,(4,1))";
    let a =
        layout!(restrict(restrict([(2,(3,4)):(12,(4,1)), logical -> physical], 0 = 1), 0 = (1, 2)));
    assert_eq!(offsets(a), table(&model(&r, rt, vec![(0, 1), (1, 6)])));
    assert_eq!(offsets(a), vec![18]);
    for t in 0..12usize {
        let want = table(&model(&r, rt, vec![(0, 1), (1, t as i64)]));
        let a =
            layout!(restrict(restrict([(2,(3,4)):(12,(4,1)), logical -> physical], 0 = 1), 0 = t));
        assert_eq!(offsets(a), want, "restrict(restrict(R, 0 = 1), 0 = {t})");
        // One `restrict`, the tuple entry by run-time value and the other by literal.
        let b = layout!(restrict([(2,(3,4)):(12,(4,1)), logical -> physical], 1 = t, 0 = 1));
        assert_eq!(offsets(b), want, "restrict(R, 1 = {t}, 0 = 1)");
    }
    // X = ((3,4),2):((2,6),1): entry 0 a tuple fixed at run time, entry 1 by literal.
    let x = [tup(vec![leaf(3, 2), leaf(4, 6)]), leaf(2, 1)];
    let xt = "((3,4),2):((2,6),1)";
    for t in 0..12usize {
        let want = table(&model(&x, xt, vec![(0, t as i64), (1, 1)]));
        let a = layout!(restrict([((3,4),2):((2,6),1), logical -> physical], 0 = t, 1 = 1));
        assert_eq!(offsets(a), want, "restrict(X, 0 = {t}, 1 = 1)");
        let b =
            layout!(restrict(restrict([((3,4),2):((2,6),1), logical -> physical], 1 = 1), 0 = t));
        assert_eq!(offsets(b), want, "restrict(restrict(X, 1 = 1), 0 = {t})");
    }
    // Q = (2,((2,3),2),3):(72,((18,6),3),1): a depth-2 entry left free by two restrictions,
    // fixed by coordinate, by run-time value, and left free in a three-step restriction.
    let q = [
        leaf(2, 72),
        tup(vec![tup(vec![leaf(2, 18), leaf(3, 6)]), leaf(2, 3)]),
        leaf(3, 1),
    ];
    let qt = "(2,((2,3),2),3):(72,((18,6),3),1)";
    let a = layout!(restrict(
        restrict(restrict([(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical], 2 = 2), 0 = 1),
        0 = ((1, 2), 1)
    ));
    // ((1,2),1) is flat index (1·3 + 2)·2 + 1 = 11 of the entry.
    assert_eq!(
        offsets(a),
        table(&model(&q, qt, vec![(0, 1), (1, 11), (2, 2)]))
    );
    let a = layout!(restrict(
        restrict([(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical], 0 = 1, 2 = 2),
        0 = ((0, 1), 1)
    ));
    assert_eq!(
        offsets(a),
        table(&model(&q, qt, vec![(0, 1), (1, 3), (2, 2)]))
    );
    let a = layout!(restrict(
        restrict([(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical], 0 = 1),
        1 = 2
    ));
    assert_eq!(offsets(a), table(&model(&q, qt, vec![(0, 1), (2, 2)])));
    for t in 0..12usize {
        let want = table(&model(&q, qt, vec![(0, 1), (1, t as i64), (2, 0)]));
        let a = layout!(restrict(
            restrict([(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical], 2 = 0),
            0 = 1,
            1 = t
        ));
        assert_eq!(
            offsets(a),
            want,
            "restrict(restrict(Q, 2 = 0), 0 = 1, 1 = {t})"
        );
        let b = layout!(restrict(
            restrict(restrict([(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical], 2 = 0), 0 = 1),
            0 = t
        ));
        assert_eq!(offsets(b), want, "three steps, {t}");
        let c = layout!(restrict(
            [(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical],
            1 = t,
            0 = 1,
            2 = 0
        ));
        assert_eq!(offsets(c), want, "one step, {t}");
    }
    // The run-time value is checked against the whole entry (12 positions), in every profile.
    let msg = "restrict: the run-time value 12 is outside its entry [0, 12)";
    assert_eq!(
        panic_message(|| {
            let t = 12usize;
            let _ = layout!(restrict(restrict([(2,(3,4)):(12,(4,1)), logical -> physical], 0 = 1), 0 = t));
        }),
        msg
    );
    assert_eq!(
        panic_message(|| {
            let t = 12usize;
            let _ = layout!(restrict([((3,4),2):((2,6),1), logical -> physical], 0 = t, 1 = 0));
        }),
        msg
    );
    assert_eq!(
        panic_message(|| {
            let t = 12u8;
            let _ = layout!(restrict(
                restrict([(2,((2,3),2),3):(72,((18,6),3),1), logical -> physical], 2 = 0),
                0 = 1,
                1 = t
            ));
        }),
        msg
    );
}

/// The smallest offset of a model, by enumeration.
fn min_of(model: &Model<'_>) -> i64 {
    table(model).into_iter().min().expect("not empty")
}

#[test]
fn a_swizzle_checks_the_exact_smallest_offset_of_every_form_of_map() {
    let sw = Swizzle::new(1, 3, 0).expect("fields");
    let id = |x: i64| x;
    // Layouts with negative strides, restricted to negative and to non-negative slices.
    let layouts: Vec<Vec<S>> = vec![
        vec![leaf(4, -8), leaf(8, 1)],
        vec![leaf(4, 8), leaf(8, -1)],
        vec![tup(vec![leaf(2, -16), leaf(2, 8)]), leaf(8, 1)],
        vec![leaf(2, 32), tup(vec![leaf(2, -8), leaf(2, 4)]), leaf(4, 1)],
    ];
    let mut negative = 0;
    let mut accepted = 0;
    for entries in layouts {
        let t = text(&entries);
        let plain: Map = Annotated::new(t.parse().expect("layout"), L, P)
            .expect("annotated")
            .into();
        let mut want = |m: &Model<'_>| {
            let min = min_of(m);
            if min < 0 {
                negative += 1;
                Err(Error::SwizzleNegativeOffset { min })
            } else {
                accepted += 1;
                Ok(())
            }
        };
        let whole = Model {
            entries: entries.clone(),
            fixed: vec![],
            post: &id,
        };
        assert_eq!(plain.clone().swizzle(sw).map(|_| ()), want(&whole), "{t}");
        // Every restriction by one or two entries, at every value.
        let rank = entries.len();
        for e in 0..rank {
            for v in 0..entries[e].size() {
                let m = plain.restrict(&[(e, v)]).expect("restrict");
                let model = Model {
                    entries: entries.clone(),
                    fixed: vec![(e, v)],
                    post: &id,
                };
                let expected = want(&model);
                assert_eq!(
                    m.clone().swizzle(sw).map(|_| ()),
                    expected,
                    "{t} | {e} = {v}"
                );
                // As the left operand of a composite (its domain is the free entries).
                let sizes = model.free_sizes();
                let tv_text = if sizes.len() == 1 {
                    format!("{}:1", sizes[0])
                } else {
                    let tv = compact(
                        &sizes.iter().map(|&n| leaf(n, 0)).collect::<Vec<_>>(),
                        false,
                    );
                    text(&tv)
                };
                let right: Map = Annotated::new(tv_text.parse().expect("tv"), TV, L)
                    .expect("tv")
                    .into();
                let c = compose(&m, &right).expect("composite");
                assert_eq!(
                    c.swizzle(sw).map(|_| ()),
                    expected,
                    "{t} | {e} = {v} ∘ {tv_text}"
                );
                // A restriction of a restriction: the remaining entries one at a time.
                for f in 0..rank - 1 {
                    for w in 0..model.entries[model.free()[f]].size() {
                        let mm = m.restrict(&[(f, w)]).expect("restrict");
                        let mut fixed = vec![(e, v), (model.free()[f], w)];
                        fixed.sort_unstable();
                        let deeper = Model {
                            entries: entries.clone(),
                            fixed,
                            post: &id,
                        };
                        assert_eq!(
                            mm.swizzle(sw).map(|_| ()),
                            want(&deeper),
                            "{t} | {e} = {v}, {f} = {w}"
                        );
                    }
                }
            }
        }
        // A composite whose left operand has negative offsets, and its restrictions.
        let n = whole.size();
        let right: Map = Annotated::new(format!("{n}:1").parse().expect("tv"), TV, L)
            .expect("tv")
            .into();
        let c = compose(&plain, &right).expect("composite");
        assert_eq!(
            c.clone().swizzle(sw).map(|_| ()),
            want(&whole),
            "{t} ∘ {n}:1"
        );
        let tv: Map = Annotated::new(text(&compact(&entries, true)).parse().expect("tv"), TV, L)
            .expect("tv")
            .into();
        let c = compose(&plain, &tv).expect("composite");
        for v in 0..entries[0].size() {
            let m = c.restrict(&[(0, v)]).expect("restrict");
            let model = Model {
                entries: entries.clone(),
                fixed: vec![(0, v)],
                post: &id,
            };
            assert_eq!(
                m.swizzle(sw).map(|_| ()),
                want(&model),
                "({t} ∘ id) | 0 = {v}"
            );
        }
    }
    assert!(
        negative > 20 && accepted > 20,
        "{negative} refused, {accepted} accepted"
    );
}

/// A two-coordinate program `t0 = 8·c0; result = t0 + c1`, built by hand.
fn program() -> Program {
    let a: Map = Annotated::new("(4,8):(8,1)".parse().expect("layout"), L, P)
        .expect("annotated")
        .into();
    let mut p = emit(&a, false).expect("emits").program;
    p.lets = vec![Sum {
        constant: 0,
        terms: vec![(8, Term::Var(Var::Coord(0)))],
    }];
    p.result = Sum {
        constant: 0,
        terms: vec![(1, Term::Var(Var::Temp(0))), (1, Term::Var(Var::Coord(1)))],
    };
    p
}

#[test]
fn program_evaluation_never_substitutes_a_value() {
    let p = program();
    assert_eq!(p.sizes, vec![4, 8]);
    for i in 0..32 {
        let (r, c) = (i / 8, i % 8);
        assert_eq!(p.eval(&[r, c]), Ok(8 * r + c), "at ({r}, {c})");
    }
    // Too few, too many coordinates.
    assert_eq!(
        p.eval(&[1]),
        Err(Error::ProgramArity {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        p.eval(&[1, 2, 3]),
        Err(Error::ProgramArity {
            expected: 2,
            found: 3
        })
    );
    // Values outside their coordinate.
    for (c, bad) in [([4, 0], 0usize), ([-1, 0], 0), ([0, 8], 1), ([0, -1], 1)] {
        assert!(
            matches!(p.eval(&c), Err(Error::CoordOutOfRange { value, size, .. })
                if value == c[bad] && size == p.sizes[bad]),
            "{c:?}: {:?}",
            p.eval(&c)
        );
    }
    // A coordinate the program does not have, in a `let` and in the result.
    let mut q = p.clone();
    q.lets[0].terms.push((1, Term::Div(Var::Coord(2), 2)));
    assert_eq!(
        q.eval(&[1, 1]),
        Err(Error::ProgramUndefined {
            variable: Var::Coord(2),
            defined: 2
        })
    );
    let mut q = p.clone();
    q.result.terms.push((3, Term::Mod(Var::Coord(5), 2)));
    assert_eq!(
        q.eval(&[1, 1]),
        Err(Error::ProgramUndefined {
            variable: Var::Coord(5),
            defined: 2
        })
    );
    // A temporary read before it is defined (by itself), and one never defined.
    let mut q = p.clone();
    q.lets[0].terms.push((1, Term::Var(Var::Temp(0))));
    assert_eq!(
        q.eval(&[1, 1]),
        Err(Error::ProgramUndefined {
            variable: Var::Temp(0),
            defined: 0
        })
    );
    let mut q = p.clone();
    q.result.terms.push((
        1,
        Term::Swizzle {
            x: Var::Temp(1),
            src: 3,
            mask: 1,
            dst: 0,
        },
    ));
    assert_eq!(
        q.eval(&[1, 1]),
        Err(Error::ProgramUndefined {
            variable: Var::Temp(1),
            defined: 1
        })
    );
    // Divisors and moduli below 1, shifts past bit 62.
    for (term, value) in [
        (Term::Div(Var::Coord(0), 0), 0),
        (Term::Mod(Var::Coord(0), -2), -2),
        (Term::DivMod(Var::Coord(0), 1, 0), 0),
        (
            Term::Swizzle {
                x: Var::Coord(0),
                src: 64,
                mask: 1,
                dst: 0,
            },
            64,
        ),
    ] {
        let mut q = p.clone();
        q.result.terms.push((1, term));
        assert_eq!(
            q.eval(&[1, 1]),
            Err(Error::ProgramTerm { value }),
            "{term:?}"
        );
    }
    // A value past `i64`.
    let mut q = p.clone();
    q.result.terms.push((i64::MAX, Term::Var(Var::Coord(1))));
    assert!(matches!(q.eval(&[1, 2]), Err(Error::Overflow { .. })));
    // The errors print their numbers and offer help.
    for (e, text) in [
        (
            Error::ProgramArity {
                expected: 2,
                found: 1,
            },
            "the program has 2 coordinates, but 1 were given",
        ),
        (
            Error::ProgramUndefined {
                variable: Var::Coord(5),
                defined: 2,
            },
            "the program reads coordinate c5, but has 2 coordinates",
        ),
        (
            Error::ProgramUndefined {
                variable: Var::Temp(1),
                defined: 1,
            },
            "the program reads temporary t1 where 1 are defined",
        ),
        (
            Error::ProgramTerm { value: 0 },
            "the program divides by, takes the modulus of, or shifts by 0",
        ),
    ] {
        assert_eq!(e.to_string(), text);
        assert_eq!(e.rule(), "program");
        assert!(e.help().is_some_and(|h| !h.to_string().is_empty()), "{e:?}");
    }
    // `check_range` reports an undefined variable too.
    let mut q = p;
    q.result.terms.push((1, Term::Var(Var::Temp(3))));
    assert_eq!(
        q.check_range(IntType::I64),
        Err(Error::ProgramUndefined {
            variable: Var::Temp(3),
            defined: 1
        })
    );
}

/// The value of `T` itself: a function with two generic arguments, for turbofish calls.
fn pick<T: Into<usize>, U>(t: T, _: U) -> usize {
    t.into()
}

/// A type with generic arguments, for qualified paths and nested generics.
struct Grid<A, B>(A, B);

impl<A, B> Grid<A, B> {
    fn tile(t: usize) -> usize {
        t
    }
}

/// A trait with generic arguments, for `<T as Trait<A, B>>::f()`.
trait Tile<A, B> {
    fn tile(self) -> usize;
}

impl Tile<u8, u16> for usize {
    fn tile(self) -> usize {
        self
    }
}

/// Hands its value to `restrict` as an `expr` fragment (tokens in a group without delimiters).
macro_rules! restrict_rest {
    ($v:expr) => {
        layout!(restrict(divide([(16,32):(32,1), logical -> physical], (4, 8)), rest = $v))
    };
}

/// A run-time `restrict` value is a Rust expression, as Rust reads it: a comma inside the
/// generic arguments of a path (a turbofish, a qualified path, nested generics closing with
/// `>>`) or between a closure's bars belongs to the value, in the first and the last entry,
/// written in place and handed in by `macro_rules!`. Each is tile `t` of
/// `divide((16,32):(32,1), (4, 8))`, compared with the offsets of the tile computed here.
#[test]
// A closure called where it is written: its parameters' commas are the point.
#[allow(clippy::redundant_closure_call)]
fn run_time_values_with_commas_in_generic_arguments_and_closures() {
    // Tile t of the 4×4 grid of 4×8 tiles (seed order: the column of tiles varies fastest).
    let tile = |t: usize| -> Vec<i64> {
        let (r, c) = ((t / 4) as i64, (t % 4) as i64);
        (0..4i64)
            .flat_map(|i| (0..8i64).map(move |j| (4 * r + i) * 32 + 8 * c + j))
            .collect()
    };
    for t in 0..16usize {
        let want = tile(t);
        let f = |t: usize| t;
        let got = [
            offsets(layout!(restrict(
                divide([(16,32):(32,1), logical -> physical], (4, 8)),
                rest = pick::<usize, u8>(t, 0)
            ))),
            offsets(layout!(restrict(
                divide([(16,32):(32,1), logical -> physical], (4, 8)),
                rest = Grid::<u8, Vec<Vec<u16>>>::tile(t)
            ))),
            offsets(layout!(restrict(
                divide([(16,32):(32,1), logical -> physical], (4, 8)),
                rest = <usize as Tile<u8, u16>>::tile(t)
            ))),
            offsets(layout!(restrict(
                divide([(16,32):(32,1), logical -> physical], (4, 8)),
                rest = (|a: usize, _b: u8| a)(t, 0)
            ))),
            offsets(layout!(restrict(
                divide([(16,32):(32,1), logical -> physical], (4, 8)),
                rest = f(pick::<usize, Grid<u8, u16>>(t, Grid(0, 0)))
            ))),
            offsets(restrict_rest!(pick::<usize, u8>(t, 0))),
            offsets(restrict_rest!(<usize as Tile<u8, u16>>::tile(t))),
        ];
        for (k, g) in got.iter().enumerate() {
            assert_eq!(g, &want, "form {k}, tile {t}");
        }
        // Not the last entry: the next entry (the tile, entry 0, at flat index 3) follows the
        // value's generic arguments.
        let a = layout!(restrict(
            divide([(16,32):(32,1), logical -> physical], (4, 8)),
            rest = pick::<usize, u8>(t, 0),
            0 = 3
        ));
        let want = vec![want[3]];
        assert_eq!(offsets(a), want, "tile {t}, element 3");
        let b = layout!(restrict(
            divide([(16,32):(32,1), logical -> physical], (4, 8)),
            0 = 3,
            rest = <usize as Tile<u8, u16>>::tile(t)
        ));
        assert_eq!(offsets(b), want, "tile {t}, element 3 first");
    }
}

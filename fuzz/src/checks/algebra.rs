//! Every algebra operation of `layout-core` against brute force: `compose`, `divide`,
//! `divide_modes`, `restrict`, `repeat` (and its mode-wise forms), `interleave`, `broadcast`,
//! `inverse`, `swizzle`, `decide`, `is_alias_free`, `is_dense_bijection`, and the regroupings.
//! Where the operation is defined its result is compared at every position with the value the
//! operation's definition gives, computed here; where it is not, it must return an error.

use layout_core::{
    Annotated, Decision, Error, Layout, Map, NotLayout, Space, Stride, Swizzle, SwizzleUnit, Tree,
    broadcast, canonical, check_dense_bijection, decide, divide, divide_modes, flatten, group,
    interleave, inverse, is_alias_free, is_dense_bijection, layout_form, permute, repeat,
    repeat_modewise, repeat_modewise_raked, scale_mode, select,
};

use super::BRUTE_LIMIT;
use super::bytes::Bytes;
use super::maps::{self, touch};
use super::model::{Lay, Model, tree_size};

/// The top-level modes of a layout as (shape, stride) trees (the whole layout for a leaf).
fn top_modes(l: &Layout) -> Vec<(Tree<i64>, Tree<Stride>)> {
    match (l.shape(), l.stride()) {
        (Tree::Tuple(s), Tree::Tuple(d)) => s.iter().cloned().zip(d.iter().cloned()).collect(),
        (s, d) => vec![(s.clone(), d.clone())],
    }
}

/// The entries of a tree (the tree itself for a leaf).
fn entries<T: Clone>(t: &Tree<T>) -> Vec<Tree<T>> {
    match t {
        Tree::Tuple(v) => v.clone(),
        leaf => vec![leaf.clone()],
    }
}

fn small(l: &Layout) -> bool {
    l.size() <= BRUTE_LIMIT
}

fn fits(v: i128) -> bool {
    i64::try_from(v).is_ok()
}

/// Asserts that `got` is the layout whose flat index `i` gives `want(i)`, for every `i`.
fn assert_values(what: &str, got: &Layout, size: i128, want: impl Fn(i128) -> i128) {
    let m = Lay::of(got);
    assert_eq!(m.size(), size, "{what}: size of {got}");
    if size > i128::from(BRUTE_LIMIT) {
        return;
    }
    for i in 0..size {
        assert_eq!(m.eval(i), Some(want(i)), "{what}: {got} at {i}");
        if let Ok(v) = got.eval_index(i as i64) {
            assert_eq!(i128::from(v), want(i), "{what}: eval_index of {got} at {i}");
        }
    }
}

fn dense_checks(l: &Layout) {
    let m = Lay::of(l);
    let d = is_dense_bijection(l);
    assert_eq!(d, check_dense_bijection(l).is_ok(), "{l}");
    if small(l) {
        assert_eq!(d, m.is_dense_bijection(), "is_dense_bijection({l})");
    }
    match is_alias_free(l) {
        Ok(a) => {
            if small(l) {
                assert_eq!(a, m.is_alias_free(), "is_alias_free({l})");
            }
        }
        Err(e) => {
            touch(&e);
            assert!(!small(l), "is_alias_free({l}) undecided: {e}");
        }
    }
    // The annotations: dense into logical / thread-value, alias-free into physical.
    for (dom, cod) in [
        (Space::ThreadValue, Space::Logical),
        (Space::Logical, Space::Logical),
    ] {
        match Annotated::new(l.clone(), dom, cod) {
            Ok(_) => assert!(d, "{l} accepted as {dom} -> {cod}"),
            Err(e) => assert!(!d, "{l} refused as {dom} -> {cod}: {e}"),
        }
    }
    if small(l) {
        match Annotated::new(l.clone(), Space::Logical, Space::Physical) {
            Ok(_) => assert!(m.is_alias_free(), "{l} accepted into physical"),
            Err(e) => assert!(
                !m.is_alias_free() || matches!(e, Error::Overflow { .. }),
                "{l} refused into physical: {e}"
            ),
        }
    }
}

/// A tile: one entry per top-level mode mostly, each a divisor of the mode's size mostly.
fn tile(b: &mut Bytes, l: &Layout) -> Vec<i64> {
    let sizes: Vec<i64> = top_modes(l)
        .iter()
        .map(|(s, _)| i64::try_from(tree_size(s)).unwrap_or(i64::MAX))
        .collect();
    let mut n = sizes.len();
    if b.chance(16) {
        n = usize::from(b.below(4));
    }
    (0..n)
        .map(|i| {
            let size = sizes.get(i).copied().unwrap_or(1);
            if b.chance(200) && size <= 4096 {
                let divs: Vec<i64> = (1..=size).filter(|k| size % k == 0).collect();
                divs[usize::from(b.byte()) % divs.len()]
            } else {
                b.size()
            }
        })
        .collect()
}

fn check_divide(b: &mut Bytes, l: &Layout) {
    let t = tile(b, l);
    let modes = top_modes(l);
    let sizes: Vec<i128> = modes.iter().map(|(s, _)| tree_size(s)).collect();
    let divisible = t.len() == modes.len()
        && t.iter()
            .zip(&sizes)
            .all(|(&k, &n)| k >= 1 && n % i128::from(k) == 0);
    let mode_models: Vec<Lay> = modes.iter().map(|(s, d)| Lay::from_trees(s, d)).collect();
    let lm = Lay::of(l);
    match divide_modes(l, &t) {
        Ok(r) => {
            assert!(divisible, "divide_modes({l}, {t:?}) accepted: {r}");
            assert_values("divide_modes", &r, lm.size(), |i| lm.eval(i).unwrap_or(0));
            let rm = top_modes(&r);
            assert_eq!(
                rm.len(),
                modes.len(),
                "divide_modes({l}, {t:?}) = {r}: rank"
            );
            for (i, (s, _)) in rm.iter().enumerate() {
                let e = entries(s);
                assert_eq!(e.len(), 2, "divide_modes({l}, {t:?}) = {r}: mode {i}");
                assert_eq!(tree_size(&e[1]), i128::from(t[i]), "{r}: tile piece {i}");
            }
        }
        Err(e) => {
            touch(&e);
            assert!(
                !divisible || matches!(e, Error::TileSplit { .. } | Error::Overflow { .. }),
                "divide_modes({l}, {t:?}) refused: {e}"
            );
        }
    }
    match divide(l, &t) {
        Ok(r) => {
            assert!(divisible, "divide({l}, {t:?}) accepted: {r}");
            let (rs, _) = (r.shape(), r.stride());
            let groups = entries(rs);
            assert_eq!(groups.len(), 2, "divide({l}, {t:?}) = {r}");
            let rest_sizes: Vec<i128> = sizes
                .iter()
                .zip(&t)
                .map(|(&n, &k)| n / i128::from(k))
                .collect();
            let tiles: Vec<i128> = t.iter().map(|&k| i128::from(k)).collect();
            let rest_total: i128 = rest_sizes.iter().product();
            let want = |i: i128| {
                // Flat index = tile digits (by mode, last fastest), then rest digits.
                let (mut tf, mut rf) = (i / rest_total, i % rest_total);
                let mut acc = 0i128;
                for m in (0..tiles.len()).rev() {
                    let (tm, rm) = (tf % tiles[m], rf % rest_sizes[m]);
                    tf /= tiles[m];
                    rf /= rest_sizes[m];
                    acc += mode_models[m].eval(rm * tiles[m] + tm).unwrap_or(0);
                }
                acc
            };
            assert_values("divide", &r, lm.size(), want);
        }
        Err(e) => {
            touch(&e);
            assert!(
                !divisible || matches!(e, Error::TileSplit { .. } | Error::Overflow { .. }),
                "divide({l}, {t:?}) refused: {e}"
            );
        }
    }
}

/// An arrangement for the products: dense mostly.
fn arrangement(b: &mut Bytes, rank: usize) -> Option<Layout> {
    if b.chance(40) {
        return maps::layout(b);
    }
    let shape = if b.chance(128) && rank > 1 {
        Tree::Tuple(
            (0..rank)
                .map(|_| Tree::Leaf(1 + i64::from(b.below(4))))
                .collect(),
        )
    } else {
        b.shape(1)
    };
    let stride = b.dense_strides(&shape);
    Layout::new(shape, stride).ok()
}

fn check_products(b: &mut Bytes, l: &Layout) {
    let Some(a) = arrangement(b, l.rank()) else {
        return;
    };
    let (lm, am) = (Lay::of(l), Lay::of(&a));
    let a_dense = small(&a) && am.is_dense_bijection();
    let (min, max) = lm.span();
    let m = max - min + 1;
    let (ls, as_) = (lm.size(), am.size());
    // repeat: (a, l) -> M·A(a) + L(l).
    match repeat(l, &a) {
        Ok(r) => {
            assert!(
                !small(&a) || a_dense,
                "repeat({l}, {a}) accepted, {a} not dense"
            );
            assert_values("repeat", &r, ls * as_, |i| {
                m * am.eval(i / ls).unwrap_or(0) + lm.eval(i % ls).unwrap_or(0)
            });
        }
        Err(e) => {
            touch(&e);
            assert!(
                !a_dense || matches!(e, Error::Overflow { .. }),
                "repeat({l}, {a}) refused: {e}"
            );
        }
    }
    // interleave: (l, a) -> size(A)·L(l) + A(a).
    match interleave(l, &a) {
        Ok(r) => {
            assert!(!small(&a) || a_dense, "interleave({l}, {a}) accepted");
            assert_values("interleave", &r, ls * as_, |i| {
                as_ * lm.eval(i / as_).unwrap_or(0) + am.eval(i % as_).unwrap_or(0)
            });
        }
        Err(e) => {
            touch(&e);
            assert!(
                !a_dense || matches!(e, Error::Overflow { .. }),
                "interleave({l}, {a}) refused: {e}"
            );
        }
    }
    // Mode-wise: mode i is (a_i, n_i) (blocked) or (n_i, a_i) (raked), M·A_i(x) + L_i(y).
    let lmodes = top_modes(l);
    let amodes = top_modes(&a);
    for raked in [false, true] {
        let r = if raked {
            repeat_modewise_raked(l, &a)
        } else {
            repeat_modewise(l, &a)
        };
        let same_rank = lmodes.len() == amodes.len();
        match r {
            Ok(r) => {
                assert!(
                    same_rank && (!small(&a) || a_dense),
                    "modewise({l}, {a}) = {r}"
                );
                let per: Vec<(Lay, Lay)> = lmodes
                    .iter()
                    .zip(&amodes)
                    .map(|((s, d), (t, e))| (Lay::from_trees(s, d), Lay::from_trees(t, e)))
                    .collect();
                assert_values("repeat_modewise", &r, ls * as_, |i| {
                    let mut rest = i;
                    let mut acc = 0;
                    for (x, y) in per.iter().rev() {
                        let n = x.size() * y.size();
                        let k = rest % n;
                        rest /= n;
                        let (ai, li) = if raked {
                            (k % y.size(), k / y.size())
                        } else {
                            (k / x.size(), k % x.size())
                        };
                        acc += m * y.eval(ai).unwrap_or(0) + x.eval(li).unwrap_or(0);
                    }
                    acc
                });
            }
            Err(e) => {
                touch(&e);
                assert!(
                    !same_rank || !a_dense || matches!(e, Error::Overflow { .. }),
                    "modewise({l}, {a}) refused: {e}"
                );
            }
        }
    }
}

fn check_broadcast(b: &mut Bytes, l: &Layout) {
    let s = b.shape(1);
    let lm = Lay::of(l);
    let valid = super::bytes::leaves(&s).iter().all(|&n| n >= 1);
    match broadcast(l, &s) {
        Ok(r) => {
            assert!(valid, "broadcast({l}, {s:?}) accepted");
            let ls = lm.size();
            assert_values("broadcast", &r, ls * tree_size(&s), |i| {
                lm.eval(i % ls).unwrap_or(0)
            });
            assert_eq!(
                r.is_broadcast(),
                tree_size(&s) > 1 || l.is_broadcast(),
                "{r}"
            );
        }
        Err(e) => {
            touch(&e);
            assert!(
                !valid || matches!(e, Error::Overflow { .. } | Error::TooDeep { .. }),
                "broadcast({l}, {s:?}) refused: {e}"
            );
        }
    }
}

fn check_inverse(l: &Layout) {
    let lm = Lay::of(l);
    let dense = small(l) && lm.is_dense_bijection();
    match inverse(l) {
        Ok(r) => {
            assert!(!small(l) || dense, "inverse({l}) accepted: {r}");
            let rm = Lay::of(&r);
            assert_eq!(rm.size(), lm.size(), "inverse({l}) = {r}: size");
            if small(l) {
                for i in 0..lm.size() {
                    let v = lm.eval(i).unwrap_or(-1);
                    assert_eq!(rm.eval(v), Some(i), "inverse({l}) = {r} at L({i}) = {v}");
                }
            }
        }
        Err(e) => {
            touch(&e);
            assert!(!dense, "inverse({l}) refused: {e}");
        }
    }
}

fn check_regroup(b: &mut Bytes, l: &Layout) {
    let lm = Lay::of(l);
    let rank = l.rank();
    if let Ok(r) = flatten(l) {
        assert_values("flatten", &r, lm.size(), |i| lm.eval(i).unwrap_or(0));
    }
    let (s, e) = (usize::from(b.below(4)), usize::from(b.below(5)));
    match group(l, s, e) {
        Ok(r) => {
            assert!(s < e && e <= rank, "group({l}, {s}, {e}) accepted");
            assert_values("group", &r, lm.size(), |i| lm.eval(i).unwrap_or(0));
        }
        Err(err) => {
            touch(&err);
            assert!(!(s < e && e <= rank), "group({l}, {s}, {e}) refused: {err}");
        }
    }
    let k = usize::from(b.below(4));
    let idx: Vec<usize> = (0..k).map(|_| usize::from(b.below(4))).collect();
    let _ = select(l, &idx).map_err(|e| touch(&e));
    let _ = permute(l, &idx).map_err(|e| touch(&e));
    let _ = canonical(l.shape()).map_err(|e| touch(&e));
    let sh = b.shape(1);
    let _ = scale_mode(l, &sh).map_err(|e| touch(&e));
}

fn check_swizzle(b: &mut Bytes, l: &Layout) {
    let read = |b: &mut Bytes| {
        if b.chance(16) {
            b.edge()
        } else {
            i64::from(b.below(12))
        }
    };
    let (bits, src, dst) = (read(b), read(b), read(b));
    let valid = bits >= 0
        && src >= 0
        && dst >= 0
        && bits <= 62
        && src <= 62 - bits
        && dst <= 62 - bits
        && (src - dst).abs() >= bits;
    let sw = match Swizzle::from_fields(bits, src, dst) {
        Ok(sw) => {
            assert!(valid, "swizzle({bits}, {src}, {dst}) accepted");
            sw
        }
        Err(e) => {
            touch(&e);
            assert!(!valid, "swizzle({bits}, {src}, {dst}) refused: {e}");
            return;
        }
    };
    let (cb, cm, cs) = sw.to_cute();
    assert_eq!(
        Swizzle::from_cute(cb, cm, cs, SwizzleUnit::Elements),
        Ok(sw),
        "{sw}: CuTe round trip"
    );
    let _ = Swizzle::from_cute(bits, src, dst - 4, SwizzleUnit::Elements).map_err(|e| touch(&e));
    let apply = |x: i128| x ^ (((x >> src) & ((1i128 << bits) - 1)) << dst);
    for x in [0i64, 1, 255, 1 << 20, (1 << 40) + 12345, i64::MAX >> 1] {
        assert_eq!(i128::from(sw.apply(x)), apply(i128::from(x)), "{sw} at {x}");
        if x <= sw.max_offset(x) {
            assert!(
                apply(i128::from(x)) <= i128::from(sw.max_offset(x)),
                "{sw}: bound at {x}"
            );
        }
    }
    let Ok(a) = Annotated::new(l.clone(), Space::Logical, Space::Physical) else {
        return;
    };
    let lm = Lay::of(l);
    let (min, _) = lm.span();
    match Map::from(a).swizzle(sw) {
        Ok(m) => {
            assert!(min >= 0, "swizzle of {l} with offset {min} accepted");
            if small(l) {
                for i in 0..lm.size() {
                    let want = apply(lm.eval(i).unwrap_or(0));
                    if fits(want) {
                        assert_eq!(
                            m.eval_index(i as i64).map(i128::from),
                            Ok(want),
                            "{sw} o {l} at {i}"
                        );
                    }
                }
            }
        }
        Err(e) => {
            touch(&e);
            assert!(min < 0, "swizzle of {l} refused: {e}");
        }
    }
}

fn check_compose(b: &mut Bytes) {
    let Some((left, lm)) = maps::physical(b, 1) else {
        return;
    };
    let n = left.size();
    if n > 1 << 16 {
        return;
    }
    let wrong = b.chance(24);
    let size = if wrong {
        n + 1 + i64::from(b.below(3))
    } else {
        n
    };
    let Some((right, rm)) = maps::logical(b, size, 1) else {
        return;
    };
    match layout_core::compose(&left, &right) {
        Ok(m) => {
            assert!(!wrong, "compose of sizes {n} and {size} accepted");
            let model = Model::Compose(Box::new(lm), Box::new(rm));
            map_values("compose", &m, &model);
        }
        Err(e) => {
            touch(&e);
            assert!(
                wrong || left.domain() != Space::Logical || left.is_restricted(),
                "compose refused: {e}"
            );
        }
    }
}

/// Asserts that `m` evaluates as `model` at every flat index of its domain.
pub fn map_values(what: &str, m: &Map, model: &Model) {
    let size = model.size();
    assert_eq!(i128::from(m.size()), size, "{what}: size of {m:?}");
    assert_eq!(
        tree_size(&m.domain_shape()),
        size,
        "{what}: domain shape of {m:?}"
    );
    if size > i128::from(BRUTE_LIMIT) {
        return;
    }
    for i in 0..size {
        let want = model.eval(i).expect("a valid map evaluates everywhere");
        match m.eval_index(i as i64) {
            Ok(v) => assert_eq!(i128::from(v), want, "{what}: {m:?} at {i}"),
            Err(e) => assert!(!fits(want), "{what}: {m:?} at {i}: {e} for {want}"),
        }
    }
}

/// The distinct orderings of the prime factors of `n`.
fn prime_orders(n: i64) -> Vec<Vec<i64>> {
    let mut ps = Vec::new();
    let (mut x, mut p) = (n, 2);
    while p * p <= x {
        while x % p == 0 {
            ps.push(p);
            x /= p;
        }
        p += 1;
    }
    if x > 1 {
        ps.push(x);
    }
    fn rec(left: &mut Vec<i64>, cur: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if left.is_empty() {
            out.push(cur.clone());
            return;
        }
        let mut seen = Vec::new();
        for i in 0..left.len() {
            if seen.contains(&left[i]) {
                continue;
            }
            seen.push(left[i]);
            let v = left.remove(i);
            cur.push(v);
            rec(left, cur, out);
            cur.pop();
            left.insert(i, v);
        }
    }
    let mut out = Vec::new();
    rec(&mut ps, &mut Vec::new(), &mut out);
    out
}

/// Whether `g` on `[0, n)` (with `g(0) = 0`) is the function of a layout of one mode: some
/// ordering of `n`'s prime factors (every layout refines to one) with the strides it implies.
fn is_layout_1d(g: &[i128]) -> bool {
    let n = g.len() as i64;
    if n <= 1 {
        return true;
    }
    prime_orders(n).iter().any(|order| {
        // Slowest first: weights w_j = product of the later factors.
        let mut w = vec![1i128; order.len()];
        for j in (0..order.len().saturating_sub(1)).rev() {
            w[j] = w[j + 1] * i128::from(order[j + 1]);
        }
        let s: Vec<i128> = w.iter().map(|&wj| g[wj as usize]).collect();
        (0..g.len()).all(|t| {
            let mut rest = t as i128;
            let mut acc = 0;
            for j in (0..order.len()).rev() {
                acc += (rest % i128::from(order[j])) * s[j];
                rest /= i128::from(order[j]);
            }
            acc == g[t]
        })
    })
}

fn restricted(m: &Model) -> bool {
    match m {
        Model::Restrict { .. } => true,
        Model::Swizzle { inner, .. } => restricted(inner),
        _ => false,
    }
}

/// `decide(m, by_mode)` against Theorem 1 by brute force: separability, and each coordinate a
/// layout of one mode; the layout form equal to the map everywhere when it is a layout.
pub fn check_decision(m: &Map, model: &Model, by_mode: bool, d: &Decision) {
    let size = model.size();
    let sizes: Vec<i64> = d.coordinate_shape.to_vec();
    let total: i128 = sizes.iter().map(|&n| i128::from(n)).product();
    assert_eq!(total, size, "decide({m:?}): coordinate sizes {sizes:?}");
    if by_mode && sizes != model.entries() {
        // A restriction that leaves one entry has that entry's shape as its domain, whose
        // top-level entries are the entry's own (restrict still counts the entry as one).
        assert!(
            restricted(model) && model.entries().len() <= 1,
            "decide by mode: coordinates {sizes:?} of {m:?}, entries {:?}",
            model.entries()
        );
    }
    if size > i128::from(BRUTE_LIMIT) {
        return;
    }
    let f0 = model.eval(0).expect("in range");
    assert_eq!(i128::from(d.constant), f0, "decide({m:?}): constant");
    let f: Vec<i128> = (0..size)
        .map(|i| model.eval(i).expect("in range") - f0)
        .collect();
    // Weights of the coordinates in the flat index (last fastest).
    let mut w = vec![1i128; sizes.len()];
    for j in (0..sizes.len().saturating_sub(1)).rev() {
        w[j] = w[j + 1] * i128::from(sizes[j + 1]);
    }
    let separable = (0..size).all(|i| {
        let mut rest = i;
        let mut acc = 0;
        for j in (0..sizes.len()).rev() {
            let c = rest % i128::from(sizes[j]);
            rest /= i128::from(sizes[j]);
            acc += f[(c * w[j]) as usize];
        }
        acc == f[i as usize]
    });
    let coords_ok = (0..sizes.len()).all(|j| {
        let g: Vec<i128> = (0..sizes[j])
            .map(|t| f[(i128::from(t) * w[j]) as usize])
            .collect();
        is_layout_1d(&g)
    });
    assert_eq!(
        d.is_layout(),
        separable && coords_ok,
        "decide({m:?}, by_mode = {by_mode}): separable {separable}, coordinates {coords_ok}: {:?}",
        d.result
    );
    match &d.result {
        Ok(_) => {
            let p = layout_form(d).expect("a layout has a layout form");
            assert_eq!(p.sizes, sizes, "layout form sizes");
            program_values("layout form", &p, model);
        }
        Err(NotLayout::Separability { witness }) => {
            assert_eq!(witness.len(), sizes.len(), "witness {witness:?}");
            let idx: i128 = witness
                .iter()
                .zip(&w)
                .map(|(&c, &wj)| i128::from(c) * wj)
                .sum();
            let parts: i128 = witness
                .iter()
                .zip(&w)
                .map(|(&c, &wj)| f[(i128::from(c) * wj) as usize])
                .sum();
            assert_ne!(f[idx as usize], parts, "witness {witness:?} is separable");
        }
        Err(NotLayout::Scan { coordinate, .. }) => {
            assert!(*coordinate < sizes.len(), "scan coordinate {coordinate}");
        }
    }
}

/// Asserts that a program evaluates as `model` at every coordinate (last fastest).
pub fn program_values(what: &str, p: &layout_core::Program, model: &Model) {
    let size = model.size();
    if size > i128::from(BRUTE_LIMIT) {
        return;
    }
    let mut c = vec![0i64; p.sizes.len()];
    for i in 0..size {
        let want = model.eval(i).expect("in range");
        if fits(want) {
            assert_eq!(
                p.eval(&c).map(i128::from),
                Ok(want),
                "{what} {p:?} at {c:?} of {model:?}"
            );
        }
        for j in (0..c.len()).rev() {
            c[j] += 1;
            if c[j] < p.sizes[j] {
                break;
            }
            c[j] = 0;
        }
    }
}

fn check_decide(b: &mut Bytes) {
    let Some((m, model)) = maps::physical(b, 3) else {
        return;
    };
    let by_mode = b.chance(100);
    super::debug(|| format!("decide map {m:?}\nmodel {model:?}, by_mode {by_mode}"));
    map_values("map", &m, &model);
    match decide(&m, by_mode) {
        Ok(d) => check_decision(&m, &model, by_mode, &d),
        Err(e) => {
            touch(&e);
            assert!(model.size() > 1 << 24, "decide({m:?}) refused: {e}");
        }
    }
}

/// Reads one operation and its operands from the bytes and checks it.
pub fn check(data: &[u8]) {
    let mut b = Bytes::new(data);
    let op = b.below(10);
    match op {
        0 => check_compose(&mut b),
        1 | 2 => check_decide(&mut b),
        _ => {
            let Some(l) = maps::layout(&mut b) else {
                return;
            };
            super::debug(|| format!("op {op}, L = {l}"));
            match op {
                3 => dense_checks(&l),
                4 => check_divide(&mut b, &l),
                5 => check_products(&mut b, &l),
                6 => check_broadcast(&mut b, &l),
                7 => check_inverse(&l),
                8 => check_swizzle(&mut b, &l),
                _ => check_regroup(&mut b, &l),
            }
        }
    }
}

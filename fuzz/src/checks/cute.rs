//! CuTe's operations (`layout_core::cute`) against an independent evaluator in CuTe order
//! (first leaf fastest, the last leaf extended past the size). Each result is checked by the
//! definition of its operation, computed here: coalesce keeps the function, composition is
//! `A(B(i))`, the complement's four conditions, the divides' tile mode is `A ∘ B`, the
//! products' first mode is `A`, the zipped/tiled/flat forms regroup the logical one, the
//! inverses invert; strict mode only ever refuses more. Nothing may panic.

use layout_core::Tree;
use layout_core::cute::{self, Composed, Cute, CuteLayout, Diagnostic, Tiler};

use super::BRUTE_LIMIT;
use super::bytes::Bytes;
use super::model::CuteLay;

fn touch(d: &Diagnostic) {
    let _ = (
        d.to_string(),
        d.rule(),
        d.help(),
        d.suggestion(),
        d.error().rule(),
    );
}

fn layout(b: &mut Bytes) -> Option<CuteLayout> {
    if b.chance(8) {
        return CuteLayout::new(Tree::Tuple(Vec::new()), Tree::Tuple(Vec::new())).ok();
    }
    let shape = b.shape(2);
    let stride = if b.chance(64) {
        b.dense_strides(&shape)
    } else {
        b.strides_for(&shape)
    };
    let stride = stride.map(&mut |s| s.value());
    let l = CuteLayout::new(shape, stride).ok()?;
    // Keep the evaluations of the product's own checks cheap, mostly (sizes past its check
    // limit are refused at once).
    // The product's checks evaluate up to 2^24 positions and its complements reach the
    // cosize: keep both small, or far past every limit (refused at once).
    let reach = l.leaves().iter().fold(0i128, |acc, &(n, d)| {
        acc + i128::from(n - 1) * i128::from(d).abs()
    });
    let small = l.size() <= 1 << 9 && (reach <= 1 << 11 || reach > 1 << 40);
    if !small && l.size() <= 1 << 24 {
        return None;
    }
    Some(l)
}

fn tiler(b: &mut Bytes, depth: u8) -> Option<Tiler> {
    match b.below(8) {
        0 => Some(Tiler::Underscore),
        1 if depth > 0 => {
            let n = usize::from(b.below(4));
            (0..n)
                .map(|_| tiler(b, depth - 1))
                .collect::<Option<Vec<_>>>()
                .map(Tiler::Modes)
        }
        _ => layout(b).map(Tiler::Layout),
    }
}

/// The size and reach of a layout: a product's result and the complement inside it grow with
/// both.
fn weight(l: &CuteLayout) -> i128 {
    let reach = l.leaves().iter().fold(0i128, |acc, &(n, d)| {
        acc + i128::from(n - 1) * i128::from(d).abs()
    });
    i128::from(l.size()) + reach
}

fn tiler_weight(t: &Tiler) -> i128 {
    match t {
        Tiler::Underscore => 1,
        Tiler::Layout(l) => weight(l),
        Tiler::Modes(v) => v
            .iter()
            .map(tiler_weight)
            .fold(1i128, |a, w| a.saturating_mul(w)),
    }
}

/// Products whose result the product's own checks would evaluate at millions of positions.
fn too_big(a: &CuteLayout, w: i128) -> bool {
    weight(a).saturating_mul(w) > 1 << 12
}

fn small(l: &CuteLayout) -> bool {
    l.size() <= BRUTE_LIMIT
}

fn sorted_offsets(l: &CuteLayout) -> Vec<i128> {
    let mut v = CuteLay::of(l).offsets();
    v.sort_unstable();
    v
}

/// Strict mode refuses more, never answers differently.
fn same_or_refused(
    what: &str,
    lax: &Result<CuteLayout, Diagnostic>,
    strict: &Result<CuteLayout, Diagnostic>,
) {
    if let Err(d) = lax {
        touch(d);
    }
    match strict {
        Ok(s) => assert_eq!(lax.as_ref().ok(), Some(s), "{what}: strict answers {s}"),
        Err(d) => touch(d),
    }
}

fn check_coalesce(a: &CuteLayout) {
    let r = cute::coalesce(a);
    same_or_refused("coalesce", &r, &Cute::strict().coalesce(a));
    if let Ok(r) = r {
        assert_eq!(r.size(), a.size(), "coalesce({a}) = {r}: size");
        assert!(r.depth() <= 1, "coalesce({a}) = {r}: depth");
        if small(a) {
            assert_eq!(
                CuteLay::of(&r).offsets(),
                CuteLay::of(a).offsets(),
                "coalesce({a}) = {r}"
            );
        }
    }
}

fn check_composition(a: &CuteLayout, t: &Tiler) {
    super::debug(|| format!("composition({a}, {t})"));
    if too_big(a, tiler_weight(t)) {
        return;
    }
    let r = Cute::new().composition(a, t);
    same_or_refused("composition", &r, &Cute::strict().composition(a, t));
    let Ok(r) = r else { return };
    match t {
        Tiler::Underscore => assert_eq!(&r, a, "composition({a}, _)"),
        Tiler::Layout(bl) => {
            assert_eq!(r.size(), bl.size(), "composition({a}, {bl}) = {r}: size");
            if small(bl) {
                let (am, bm, rm) = (CuteLay::of(a), CuteLay::of(bl), CuteLay::of(&r));
                for i in 0..i128::from(bl.size()) {
                    let x = bm.eval(i).expect("in range");
                    if x >= 0 {
                        assert_eq!(
                            rm.eval(i),
                            am.eval_extended(x),
                            "composition({a}, {bl}) = {r} at {i} (B = {x})"
                        );
                    }
                }
            }
        }
        Tiler::Modes(_) => {}
    }
}

fn check_complement(l: &CuteLayout, cotarget: i64) {
    super::debug(|| format!("complement({l}, {cotarget})"));
    let r = cute::complement(l, cotarget);
    same_or_refused("complement", &r, &Cute::strict().complement(l, cotarget));
    let Ok(r) = r else { return };
    if !small(l) || !small(&r) {
        return;
    }
    let (lo, ro) = (CuteLay::of(l).offsets(), CuteLay::of(&r).offsets());
    let lmax = lo.iter().copied().max().unwrap_or(0);
    let rmax = ro.iter().copied().max().unwrap_or(0);
    // (1) (L, R) reaches at least cotarget − 1.
    assert!(
        lmax + rmax + 1 >= i128::from(cotarget),
        "complement({l}, {cotarget}) = {r}: coverage"
    );
    // (2) cosize(R) <= round_up(cotarget, cosize(L)).
    let lc = lmax + 1;
    let bound = (i128::from(cotarget) + lc - 1) / lc * lc;
    assert!(
        rmax < bound,
        "complement({l}, {cotarget}) = {r}: bound {bound}"
    );
    // (3) increasing; (4) disjoint from L beyond offset 0.
    assert!(
        ro.windows(2).all(|w| w[0] < w[1]),
        "complement({l}, {cotarget}) = {r}: order"
    );
    for &v in ro.iter().skip(1) {
        assert!(
            !lo.contains(&v),
            "complement({l}, {cotarget}) = {r}: {v} in L"
        );
    }
}

fn check_divides(a: &CuteLayout, t: &Tiler) {
    super::debug(|| format!("divide({a}, {t})"));
    if too_big(a, tiler_weight(t)) {
        return;
    }
    let c = Cute::new();
    let logical = c.logical_divide(a, t);
    same_or_refused(
        "logical_divide",
        &logical,
        &Cute::strict().logical_divide(a, t),
    );
    let forms = [
        c.zipped_divide(a, t),
        c.tiled_divide(a, t),
        c.flat_divide(a, t),
    ];
    for f in &forms {
        if let Err(d) = f {
            touch(d);
        }
    }
    let Ok(r) = logical else { return };
    if let Tiler::Layout(bl) = t
        && small(bl)
        && small(&r)
    {
        let tile = r.mode(0).expect("a divide has a tile mode");
        let (am, bm, tm) = (CuteLay::of(a), CuteLay::of(bl), CuteLay::of(&tile));
        assert_eq!(
            tile.size(),
            bl.size(),
            "logical_divide({a}, {bl}) = {r}: tile size"
        );
        for i in 0..i128::from(bl.size()) {
            let x = bm.eval(i).expect("in range");
            if x >= 0 {
                assert_eq!(
                    tm.eval(i),
                    am.eval_extended(x),
                    "logical_divide({a}, {bl}) = {r} at {i}"
                );
            }
        }
    }
    if small(&r) {
        let want = sorted_offsets(&r);
        for f in forms.into_iter().flatten() {
            assert_eq!(f.size(), r.size(), "{f} regroups {r}");
            assert_eq!(sorted_offsets(&f), want, "{f} regroups {r}");
        }
    }
}

fn check_products(a: &CuteLayout, t: &Tiler) {
    super::debug(|| format!("product({a}, {t})"));
    if too_big(a, tiler_weight(t)) {
        return;
    }
    let c = Cute::new();
    let logical = c.logical_product(a, t);
    same_or_refused(
        "logical_product",
        &logical,
        &Cute::strict().logical_product(a, t),
    );
    let forms = [
        c.zipped_product(a, t),
        c.tiled_product(a, t),
        c.flat_product(a, t),
    ];
    for f in &forms {
        if let Err(d) = f {
            touch(d);
        }
    }
    let Ok(r) = logical else { return };
    if let Tiler::Layout(bl) = t {
        assert_eq!(
            i128::from(r.size()),
            i128::from(a.size()) * i128::from(bl.size()),
            "logical_product({a}, {bl}) = {r}: size"
        );
        if small(&r) {
            let first = r.mode(0).expect("a product has the block mode");
            assert_eq!(
                CuteLay::of(&first).offsets(),
                CuteLay::of(a).offsets(),
                "{r}: block"
            );
        }
    }
    if small(&r) {
        let want = sorted_offsets(&r);
        for f in forms.into_iter().flatten() {
            assert_eq!(sorted_offsets(&f), want, "{f} regroups {r}");
        }
    }
}

fn check_block_products(a: &CuteLayout, bl: &CuteLayout) {
    super::debug(|| format!("blocked/raked({a}, {bl})"));
    if too_big(a, weight(bl)) {
        return;
    }
    for raked in [false, true] {
        let (lax, strict) = if raked {
            (
                Cute::new().raked_product(a, bl),
                Cute::strict().raked_product(a, bl),
            )
        } else {
            (
                Cute::new().blocked_product(a, bl),
                Cute::strict().blocked_product(a, bl),
            )
        };
        same_or_refused("blocked/raked product", &lax, &strict);
        if let Ok(r) = lax {
            assert_eq!(
                i128::from(r.size()),
                i128::from(a.size()) * i128::from(bl.size()),
                "product({a}, {bl}) = {r}: size"
            );
        }
    }
}

fn check_inverses(l: &CuteLayout) {
    let lm = CuteLay::of(l);
    let r = cute::right_inverse(l);
    same_or_refused("right_inverse", &r, &Cute::strict().right_inverse(l));
    if let Ok(r) = r
        && small(&r)
        && small(l)
    {
        let rm = CuteLay::of(&r);
        for i in 0..rm.size() {
            let x = rm.eval(i).expect("in range");
            assert!(
                (0..lm.size()).contains(&x),
                "right_inverse({l}) = {r}: R({i}) = {x}"
            );
            assert_eq!(lm.eval(x), Some(i), "right_inverse({l}) = {r} at {i}");
        }
    }
    let r = cute::left_inverse(l);
    same_or_refused("left_inverse", &r, &Cute::strict().left_inverse(l));
    if let Ok(r) = r
        && small(l)
    {
        let rm = CuteLay::of(&r);
        for i in 0..lm.size() {
            let v = lm.eval(i).expect("in range");
            let x = rm.eval_extended(v);
            let x = x.filter(|x| (0..lm.size()).contains(x));
            let x = x.unwrap_or_else(|| panic!("left_inverse({l}) = {r}: R(L({i})) outside L"));
            assert_eq!(lm.eval(x), Some(v), "left_inverse({l}) = {r} at {i}");
        }
    }
}

fn check_swizzled(b: &mut Bytes, a: &CuteLayout) {
    let Ok(sw) = layout_core::Swizzle::new(
        u32::from(b.below(4)),
        u32::from(b.below(10)),
        u32::from(b.below(10)),
    ) else {
        return;
    };
    let Some(bl) = layout(b) else { return };
    let lhs = Composed::swizzled(sw, a.clone());
    for strict in [false, true] {
        match lhs.compose(&Composed::layout(bl.clone()), strict) {
            Ok(c) => {
                let _ = (c.to_string(), c.stages(), c.size());
                if small(&bl) {
                    let _ = c.offsets();
                }
            }
            Err(d) => touch(&d),
        }
    }
}

/// Reads an operation and its operands from the bytes and checks it.
pub fn check(data: &[u8]) {
    let mut b = Bytes::new(data);
    let op = b.below(8);
    let Some(a) = layout(&mut b) else { return };
    super::debug(|| format!("op {op}, A = {a}"));
    let _ = (a.to_string(), a.cosize(), a.to_seed());
    match op {
        0 => check_coalesce(&a),
        1 => {
            if let Some(t) = tiler(&mut b, 1) {
                check_composition(&a, &t);
            }
        }
        2 => {
            let cot = if b.chance(24) {
                b.edge()
            } else {
                i64::from(b.byte())
            };
            if (1 << 16..1 << 40).contains(&cot) {
                return; // a complement that large is checked at millions of positions
            }
            check_complement(&a, cot);
        }
        3 => {
            if let Some(t) = tiler(&mut b, 1) {
                check_divides(&a, &t);
            }
        }
        4 => {
            if let Some(t) = tiler(&mut b, 1) {
                check_products(&a, &t);
            }
        }
        5 => {
            if let Some(bl) = layout(&mut b) {
                check_block_products(&a, &bl);
            }
        }
        6 => check_inverses(&a),
        _ => {
            if b.chance(128) {
                check_swizzled(&mut b, &a);
            } else {
                let p = b.shape(1);
                match cute::Cute::new().coalesce_by(&a, &p) {
                    Ok(r) => {
                        if small(&a) {
                            assert_eq!(CuteLay::of(&r).offsets(), CuteLay::of(&a).offsets());
                        }
                    }
                    Err(d) => touch(&d),
                }
            }
        }
    }
}

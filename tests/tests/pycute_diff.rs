//! Differential test against NVIDIA's pycute.
//!
//! A fixed seed generates at least 5,000 calls of every CuTe operation of
//! `layout_core::cute` (coalesce with and without a profile, composition with layouts and
//! by-mode tilers, complement, the four divides, the four products, blocked and raked products,
//! right and left inverses) over nested shapes with sizes that are mostly not powers of two and
//! strides of every kind (compact, permuted, with gaps, broadcast, negative, random). The calls
//! are written to a file; `tests/pycute/driver.py` runs them through pycute (the `nvidia-cutlass`
//! wheel, installed with `--no-deps` into `.venv-pycute` by `.ci/run`) and prints its answers as
//! JSON lines. Each call then ends in one of two ways, and anything else fails the test:
//!
//! * **compared**: both return a layout, and ours prints (`{:#}`, pycute's `str()`) exactly as
//!   pycute's — our operations follow pycute's algorithms, so the printed form, not only the
//!   function, must agree;
//! * **diagnosed**: we return a diagnostic, and it is *justified*: the pycute call that the
//!   diagnostic names (the operation itself, or the complement or composition inside a divide
//!   or product, found by the diagnostic's mode path through the tiler) either raises, or
//!   returns something that violates exactly the named condition, checked here by the test
//!   crate's own evaluator ([`layout_tests::cute_eval_extended`], [`layout_tests::CuteText`]),
//!   independently of `layout-core`.
//!
//! Known differences, each handled explicitly (never by loosening the comparison):
//!
//! * [`INTEGER_TILER_PRODUCT`]: pycute's `logical_product` sends an integer tiler to
//!   `logical_divide`; C++ CuTe (and we) take the layout `n:1`. The driver answers these calls
//!   with `n:1` substituted and also reports pycute's own answer, which must equal the divide.
//! * [`SIZE_ONE_COALESCE`]: pycute coalesces a size-1 `A` such as `1:48` to `1:0`, so its
//!   `composition(1:48, B)` is `B`'s shape with stride 0 where `A(B(i)) = 48·B(i)`; we diagnose
//!   `composition-value`, and the evaluator confirms pycute's value is wrong.
//! * [`NEGATIVE_COSIZE_PRODUCT`]: a product whose tiler has `cosize(B) ≤ 0` (negative strides)
//!   asks for `complement(A, size(A)·cosize(B))` with a cotarget below 1; pycute builds a mode of
//!   size ≤ 0 there (not a layout) and C++ truncates differently; we refuse
//!   (`complement-cotarget`), justified by pycute's complement having that non-positive size.
//!
//! Outside CI the test skips with a message when Python or the venv is missing; with
//! `CI=true` (`.ci/run` sets it for this test) a skip is a failure. `PYCUTE_PYTHON` names
//! another interpreter that can `import pycute`.

use layout_tests::Rng;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use layout_core::Error;
use layout_core::cute::{Cute, CuteOp, Diagnostic, Value};
use layout_tests::{CuteText, Nest, cute_complement_checks, cute_eval_extended};
use serde_json::{Value as Json, json};

/// Why an integer tiler in a product is compared under C++ CuTe's semantics.
pub const INTEGER_TILER_PRODUCT: &str = "pycute's logical_product sends an integer tiler n to \
     logical_divide (layout.py: `elif is_int(layoutB): return logical_divide(layoutA, \
     Layout(layoutB))`), a pycute bug; C++ CuTe's logical_product takes the layout n:1, and so do \
     we. The driver runs pycute with n:1 substituted, and this test checks that pycute's own \
     answer is the divide.";

/// Why a composition with a size-1 `A` of non-zero stride is a diagnosis.
pub const SIZE_ONE_COALESCE: &str = "pycute coalesces a size-1 A such as 1:48 to 1:0 before \
     composing, so composition(1:48, B) has stride 0 where A(B(i)) = 48·B(i) on CuTe's extended \
     domain: pycute's result violates R(i) == A(B(i)) (checked here), and we diagnose \
     composition-value.";

/// Why a product with `cosize(B) ≤ 0` is a diagnosis.
pub const NEGATIVE_COSIZE_PRODUCT: &str = "logical_product(A, B) takes complement(A, \
     size(A)·cosize(B)); with negative strides cosize(B) = B(size-1)+1 can be ≤ 0, the cotarget \
     is below 1 and pycute's complement has a mode of size ≤ 0 (not a layout; C++ truncates the \
     division differently). We refuse with complement-cotarget, justified by that mode.";

const SEED: u64 = 0x000C_07E5_EED0_0004;
const CALLS: usize = 10_000;

// ---------------------------------------------------------------------------------------------
// A small deterministic generator (splitmix64).

/// Leaf sizes: mostly not powers of two.
const SIZES: &[i64] = &[1, 2, 3, 3, 4, 5, 5, 6, 6, 7, 8, 9, 10, 12, 15];

fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|d| n % d == 0).collect()
}

fn prime_factors(mut n: i64) -> Vec<i64> {
    let mut f = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            f.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        f.push(n);
    }
    f
}

fn size_of(n: &Nest) -> i64 {
    n.leaves().iter().product()
}

fn rank_of(n: &Nest) -> usize {
    match n {
        Nest::Int(_) => 1,
        Nest::Tup(v) => v.len(),
    }
}

/// A random shape of nesting depth at most `depth`.
fn random_shape(rng: &mut Rng, depth: usize) -> Nest {
    if depth == 0 || rng.chance(40) {
        return Nest::Int(rng.pick(SIZES));
    }
    let n = 1 + rng.below(3);
    Nest::Tup((0..n).map(|_| random_shape(rng, depth - 1)).collect())
}

/// A random shape of size exactly `n`: its prime factors grouped into leaves at random, a few of
/// them size-1 leaves, nested at random.
fn shape_of_size(rng: &mut Rng, n: i64, depth: usize) -> Nest {
    let mut factors = prime_factors(n);
    rng.shuffle(&mut factors);
    let mut leaves: Vec<i64> = Vec::new();
    for f in factors {
        match leaves.last_mut() {
            Some(l) if rng.chance(45) => *l *= f,
            _ => leaves.push(f),
        }
    }
    if leaves.is_empty() || rng.chance(8) {
        let at = rng.below(leaves.len() + 1);
        leaves.insert(at, 1);
    }
    nest_leaves(rng, &leaves, depth)
}

fn nest_leaves(rng: &mut Rng, leaves: &[i64], depth: usize) -> Nest {
    if leaves.len() == 1 && (depth == 0 || rng.chance(70)) {
        return Nest::Int(leaves[0]);
    }
    if depth == 0 || leaves.len() == 1 {
        return Nest::Tup(leaves.iter().map(|&x| Nest::Int(x)).collect());
    }
    // Cut into 1..=3 groups.
    let groups = 1 + rng.below(leaves.len().min(3));
    let mut cuts: Vec<usize> = (1..leaves.len()).collect();
    rng.shuffle(&mut cuts);
    let mut cuts: Vec<usize> = cuts.into_iter().take(groups - 1).collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut start = 0;
    for c in cuts.into_iter().chain([leaves.len()]) {
        out.push(nest_leaves(rng, &leaves[start..c], depth - 1));
        start = c;
    }
    Nest::Tup(out)
}

/// `shape` with its leaves replaced, in order, by `values`.
fn with_leaves(shape: &Nest, values: &mut impl Iterator<Item = i64>) -> Nest {
    match shape {
        Nest::Int(_) => Nest::Int(values.next().expect("one value per leaf")),
        Nest::Tup(v) => Nest::Tup(v.iter().map(|s| with_leaves(s, values)).collect()),
    }
}

#[derive(Clone, Copy, Debug)]
enum Style {
    /// CuTe's default: prefix products of the sizes, first mode fastest.
    Compact,
    /// Prefix products assigned to the leaves in a random order (a bijection).
    Permuted,
    /// Permuted with a random gap factor before some leaves.
    Gapped,
    /// Compact times a factor.
    Scaled,
    /// Permuted with one leaf's stride 0 (a broadcast).
    Broadcast,
    /// Independent strides, zero and negative included.
    Random,
}

const STYLES: &[Style] = &[
    Style::Compact,
    Style::Permuted,
    Style::Permuted,
    Style::Gapped,
    Style::Scaled,
    Style::Broadcast,
    Style::Random,
    Style::Random,
];

fn strides(rng: &mut Rng, shape: &Nest, style: Style) -> Nest {
    let sizes = shape.leaves();
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    if !matches!(style, Style::Compact | Style::Scaled) {
        rng.shuffle(&mut order);
    }
    let mut d = vec![0i64; sizes.len()];
    let mut current = if matches!(style, Style::Scaled) {
        rng.range(2, 5)
    } else {
        1
    };
    for &k in &order {
        if matches!(style, Style::Gapped) && rng.chance(35) {
            current *= rng.range(2, 3);
        }
        d[k] = current;
        current *= sizes[k];
    }
    match style {
        Style::Broadcast => {
            let k = rng.below(d.len());
            d[k] = 0;
        }
        Style::Random => {
            for x in &mut d {
                *x = match rng.below(10) {
                    0 => rng.range(-6, -1),
                    1 => 0,
                    _ => rng.range(1, 30),
                };
            }
        }
        _ => {}
    }
    with_leaves(shape, &mut d.into_iter())
}

#[derive(Clone, Debug)]
struct Lay {
    shape: Nest,
    stride: Nest,
}

impl Lay {
    fn new(rng: &mut Rng, shape: Nest, style: Style) -> Lay {
        let stride = strides(rng, &shape, style);
        Lay { shape, stride }
    }

    fn text(&self) -> String {
        format!("{}:{}", self.shape.text(), self.stride.text())
    }

    fn json(&self) -> Json {
        json!({"shape": nest_json(&self.shape), "stride": nest_json(&self.stride)})
    }

    fn size(&self) -> i64 {
        size_of(&self.shape)
    }

    fn modes(&self) -> Vec<Lay> {
        match (&self.shape, &self.stride) {
            (Nest::Tup(s), Nest::Tup(d)) => s
                .iter()
                .zip(d)
                .map(|(s, d)| Lay {
                    shape: s.clone(),
                    stride: d.clone(),
                })
                .collect(),
            _ => vec![self.clone()],
        }
    }
}

fn nest_json(n: &Nest) -> Json {
    match n {
        Nest::Int(x) => json!(x),
        Nest::Tup(v) => Json::Array(v.iter().map(nest_json).collect()),
    }
}

/// A random layout of size at most `cap`.
fn random_layout(rng: &mut Rng, depth: usize, cap: i64, style: Style) -> Lay {
    loop {
        let shape = random_shape(rng, depth);
        if size_of(&shape) <= cap {
            return Lay::new(rng, shape, style);
        }
    }
}

#[derive(Clone, Debug)]
enum Til {
    Under,
    Int(i64),
    Lay(Lay),
    Modes(Vec<Til>),
}

impl Til {
    fn text(&self) -> String {
        match self {
            Til::Under => "_".into(),
            Til::Int(n) => n.to_string(),
            Til::Lay(l) => l.text(),
            Til::Modes(v) => format!(
                "<{}>",
                v.iter().map(Til::text).collect::<Vec<_>>().join(",")
            ),
        }
    }

    fn json(&self) -> Json {
        match self {
            Til::Under => Json::Null,
            Til::Int(n) => json!(n),
            Til::Lay(l) => l.json(),
            Til::Modes(v) => Json::Array(v.iter().map(Til::json).collect()),
        }
    }

    fn has_int(&self) -> bool {
        match self {
            Til::Int(_) => true,
            Til::Modes(v) => v.iter().any(Til::has_int),
            _ => false,
        }
    }
}

/// A tile for a (sub)layout of size `n`: mostly a divisor of `n`, compact-ish strides.
fn tile_layout(rng: &mut Rng, n: i64) -> Lay {
    let k = if rng.chance(85) {
        rng.pick(&divisors(n))
    } else {
        rng.range(1, n + 3)
    };
    let shape = shape_of_size(rng, k, 2);
    let style = rng.pick(&[
        Style::Compact,
        Style::Permuted,
        Style::Gapped,
        Style::Scaled,
        Style::Random,
    ]);
    Lay::new(rng, shape, style)
}

/// A divide (or composition) tiler for `a`: a layout, an integer, `_`, or by mode.
fn divide_tiler(rng: &mut Rng, a: &Lay, depth: usize) -> Til {
    match rng.below(20) {
        0 => Til::Under,
        1..=2 => Til::Int(rng.pick(&divisors(a.size()))),
        3..=10 => Til::Lay(tile_layout(rng, a.size())),
        _ => {
            let modes = a.modes();
            let n = 1 + rng.below(modes.len());
            let mut v: Vec<Til> = modes[..n]
                .iter()
                .map(|m| match rng.below(10) {
                    0..=1 => Til::Under,
                    2..=3 => Til::Int(rng.pick(&divisors(m.size()))),
                    4 if depth > 0 && matches!(m.shape, Nest::Tup(_)) => {
                        divide_tiler(rng, m, depth - 1)
                    }
                    _ => Til::Lay(tile_layout(rng, m.size())),
                })
                .collect();
            if rng.chance(3) {
                v.push(Til::Int(2)); // more entries than modes: tiler-rank
            }
            Til::Modes(v)
        }
    }
}

/// A product tiler: a small layout (negative strides included), an integer, a shape of
/// integers, or by mode (integers only in the whole tiler or in an all-integer shape).
fn product_tiler(rng: &mut Rng, a: &Lay) -> Til {
    let small = |rng: &mut Rng| {
        let style = rng.pick(STYLES);
        random_layout(rng, 1, 12, style)
    };
    match rng.below(20) {
        0 => Til::Under,
        1..=2 => Til::Int(rng.range(1, 7)),
        3..=11 => Til::Lay(small(rng)),
        12..=13 => Til::Modes(
            (0..1 + rng.below(rank_of(&a.shape)))
                .map(|_| {
                    if rng.chance(20) {
                        Til::Under
                    } else {
                        Til::Int(rng.range(1, 5))
                    }
                })
                .collect(),
        ),
        _ => {
            let n = 1 + rng.below(rank_of(&a.shape));
            let mut v: Vec<Til> = (0..n)
                .map(|_| {
                    if rng.chance(20) {
                        Til::Under
                    } else {
                        Til::Lay(small(rng))
                    }
                })
                .collect();
            if rng.chance(3) {
                v.push(Til::Under);
            }
            Til::Modes(v)
        }
    }
}

/// A profile for `coalesce(L, profile)`: by mode over a prefix of `L`'s modes.
fn profile(rng: &mut Rng, shape: &Nest) -> Nest {
    match shape {
        Nest::Tup(v) if rng.chance(75) => {
            let n = 1 + rng.below(v.len());
            Nest::Tup(v[..n].iter().map(|s| profile(rng, s)).collect())
        }
        _ => Nest::Int(1),
    }
}

#[derive(Debug)]
struct Call {
    op: &'static str,
    text: Vec<String>,
    json: Vec<Json>,
    /// The tiler (composition, divides, products), to find a diagnostic's sub-call.
    tiler: Option<Til>,
}

fn call(op: &'static str, text: Vec<String>, json: Vec<Json>) -> Call {
    Call {
        op,
        text,
        json,
        tiler: None,
    }
}

fn with_tiler(op: &'static str, a: &Lay, t: Til) -> Call {
    Call {
        op,
        text: vec![a.text(), t.text()],
        json: vec![a.json(), t.json()],
        tiler: Some(t),
    }
}

const OPS: &[(&str, usize)] = &[
    ("coalesce", 7),
    ("composition", 20),
    ("complement", 14),
    ("logical_divide", 8),
    ("zipped_divide", 5),
    ("tiled_divide", 4),
    ("flat_divide", 4),
    ("logical_product", 7),
    ("zipped_product", 4),
    ("tiled_product", 3),
    ("flat_product", 3),
    ("blocked_product", 5),
    ("raked_product", 5),
    ("right_inverse", 6),
    ("left_inverse", 5),
];

fn generate(rng: &mut Rng) -> Call {
    let total: usize = OPS.iter().map(|o| o.1).sum();
    let mut r = rng.below(total);
    let op = OPS
        .iter()
        .find(|o| {
            if r < o.1 {
                true
            } else {
                r -= o.1;
                false
            }
        })
        .expect("an op")
        .0;
    match op {
        "coalesce" => {
            let style = rng.pick(STYLES);
            let l = random_layout(rng, 3, 600, style);
            if rng.chance(35) {
                let p = profile(rng, &l.shape);
                call(op, vec![l.text(), p.text()], vec![l.json(), nest_json(&p)])
            } else {
                call(op, vec![l.text()], vec![l.json()])
            }
        }
        "composition" => {
            let style = rng.pick(STYLES);
            let a = random_layout(rng, 2, 400, style);
            let t = match rng.below(10) {
                0..=4 => {
                    let n = rng.pick(&divisors(a.size()));
                    let shape = shape_of_size(rng, n, 2);
                    let style = rng.pick(&[Style::Compact, Style::Permuted, Style::Scaled]);
                    let mut b = Lay::new(rng, shape, style);
                    if rng.chance(50) {
                        // Strides that step over whole modes of A.
                        let d = rng.pick(&divisors(a.size() / n));
                        b.stride = with_leaves(
                            &b.stride,
                            &mut b.stride.leaves().into_iter().map(|x| x * d),
                        );
                    }
                    Til::Lay(b)
                }
                5..=7 => {
                    let style = rng.pick(STYLES);
                    Til::Lay(random_layout(rng, 2, a.size().max(4), style))
                }
                _ => divide_tiler(rng, &a, 1),
            };
            with_tiler(op, &a, t)
        }
        "complement" => {
            let style = rng.pick(STYLES);
            let l = random_layout(rng, 2, 48, style);
            let cosize = l
                .shape
                .leaves()
                .iter()
                .zip(l.stride.leaves())
                .map(|(n, d)| (n - 1) * d)
                .sum::<i64>()
                + 1;
            let (text, m) = match rng.below(20) {
                0 => {
                    let m = rng.range(-2, 0);
                    (m.to_string(), m)
                }
                1..=2 => {
                    let s = Nest::Tup(vec![Nest::Int(rng.range(1, 9)), Nest::Int(rng.range(1, 9))]);
                    (s.text(), size_of(&s))
                }
                3..=10 => {
                    let m = cosize.max(1) * rng.range(1, 4);
                    (m.to_string(), m)
                }
                _ => {
                    let m = rng.range(1, 2 * cosize.max(1) + 8);
                    (m.to_string(), m)
                }
            };
            call(op, vec![l.text(), text], vec![l.json(), json!(m)])
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" => {
            let style = rng.pick(STYLES);
            let a = random_layout(rng, 2, 400, style);
            let t = divide_tiler(rng, &a, 1);
            with_tiler(op, &a, t)
        }
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product" => {
            let style = rng.pick(STYLES);
            let a = random_layout(rng, 2, 48, style);
            let t = product_tiler(rng, &a);
            with_tiler(op, &a, t)
        }
        "blocked_product" | "raked_product" => {
            let (s1, s2) = (rng.pick(STYLES), rng.pick(STYLES));
            let a = random_layout(rng, 2, 40, s1);
            let b = random_layout(rng, 1, 12, s2);
            call(op, vec![a.text(), b.text()], vec![a.json(), b.json()])
        }
        _ => {
            let style = rng.pick(&[
                Style::Permuted,
                Style::Permuted,
                Style::Compact,
                Style::Gapped,
                Style::Broadcast,
                Style::Random,
                Style::Scaled,
            ]);
            let l = random_layout(rng, 2, 120, style);
            call(op, vec![l.text()], vec![l.json()])
        }
    }
}

// ---------------------------------------------------------------------------------------------
// pycute's answers, read back.

/// pycute's printing (`(4, 2):(1, 4)`, `(3,):(1,)`) in the notation of [`CuteText`].
fn parse_pycute(text: &str) -> Option<CuteText> {
    CuteText::parse(&text.replace(' ', "").replace(",)", ")"))
}

/// Leaves of a pycute layout whose sizes are all positive (else `None`: not a layout).
fn leaves_of(text: &str) -> Option<(i64, Vec<(i64, i64)>)> {
    let l = parse_pycute(text)?;
    l.sizes_positive().then(|| (l.size(), l.leaves()))
}

fn has_nonpositive_size(text: &str) -> bool {
    parse_pycute(text).is_some_and(|l| !l.sizes_positive())
}

/// CuTe's `compatible(B, R)`: where `B` has an integer, `R` has a subtree of that size; where
/// `B` has a tuple, `R` has a tuple of the same rank, recursively.
fn compatible(b: &Nest, r: &Nest) -> bool {
    match (b, r) {
        (Nest::Int(n), _) => size_of(r) == *n,
        (Nest::Tup(x), Nest::Tup(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| compatible(p, q))
        }
        _ => false,
    }
}

/// Whether pycute's `record` (a call and its answer) violates `rule`, by the evaluator of the
/// test crate; `Err` explains why not.
fn violates(rule: &str, record: &Json) -> Result<&'static str, String> {
    let raised = record.get("raised").and_then(Json::as_str);
    let result = record.get("result").and_then(Json::as_str);
    let arg = |i: usize| record["args"][i].as_str().unwrap_or("").to_string();
    let no = |why: &str| Err(format!("{rule} not shown: {why} ({record})"));
    match rule {
        "composition-stride-divisibility"
        | "complement-negative-stride"
        | "tiler-rank"
        | "product-zip-rank" => match raised {
            Some(_) => Ok("pycute raises"),
            None => no("pycute returns a result"),
        },
        "complement-overlap" | "complement-cotarget" => match (raised, result) {
            (Some(_), _) => Ok("pycute raises"),
            (None, Some(r)) if has_nonpositive_size(r) => {
                Ok("pycute's complement has a mode of size <= 0 (not a layout)")
            }
            _ => no("pycute's complement is a layout"),
        },
        "complement-coverage"
        | "complement-bound"
        | "complement-ordered"
        | "complement-disjoint" => {
            let (Some((_, l)), Some((_, r))) = (leaves_of(&arg(0)), result.and_then(leaves_of))
            else {
                return no("unreadable");
            };
            let m: i64 = arg(1)
                .parse()
                .map_err(|_| format!("cotarget of {record}"))?;
            let checks = cute_complement_checks(&l, &r, m);
            let k = [
                "complement-coverage",
                "complement-bound",
                "complement-ordered",
            ]
            .iter()
            .position(|x| *x == rule)
            .unwrap_or(3);
            if checks[k] {
                Ok("pycute's complement fails the check")
            } else {
                no("pycute's complement passes the check")
            }
        }
        "composition-value" | "composition-compatible" => {
            let (Some(a), Some(b)) = (leaves_of(&arg(0)), parse_pycute(&arg(1))) else {
                return no("unreadable operands");
            };
            let Some(r) = result.and_then(parse_pycute) else {
                return no("no result");
            };
            if !r.sizes_positive() || !compatible(&b.shape, &r.shape) {
                return if rule == "composition-compatible" {
                    Ok("pycute's result is not compatible with B")
                } else {
                    no("incompatible, not a wrong value")
                };
            }
            let (bl, rl) = (b.leaves(), r.leaves());
            let wrong = (0..b.size()).any(|i| {
                cute_eval_extended(&rl, i) != cute_eval_extended(&a.1, cute_eval_extended(&bl, i))
            });
            match (rule, wrong) {
                ("composition-value", true) => Ok("pycute's R(i) != A(B(i))"),
                _ => no("pycute's composition is right"),
            }
        }
        "right-inverse-domain" | "right-inverse-value" => {
            let (Some((n, l)), Some((size_r, r))) =
                (leaves_of(&arg(0)), result.and_then(leaves_of))
            else {
                return no("unreadable");
            };
            for i in 0..size_r {
                let x = cute_eval_extended(&r, i);
                let first = if !(0..n).contains(&x) {
                    "right-inverse-domain"
                } else if cute_eval_extended(&l, x) != i {
                    "right-inverse-value"
                } else {
                    continue;
                };
                return match (first == rule, first) {
                    (true, "right-inverse-domain") => Ok("pycute's R(i) is not a coordinate of L"),
                    (true, _) => Ok("pycute's inverse fails L(R(i)) == i"),
                    _ => no(first),
                };
            }
            no("pycute's right inverse is right")
        }
        "left-inverse-domain" | "left-inverse-value" => {
            let (Some((n, l)), Some((_, r))) = (leaves_of(&arg(0)), result.and_then(leaves_of))
            else {
                return no("unreadable");
            };
            for i in 0..n {
                let y = cute_eval_extended(&l, i);
                let x = cute_eval_extended(&r, y);
                let first = if !(0..n).contains(&x) {
                    "left-inverse-domain"
                } else if cute_eval_extended(&l, x) != y {
                    "left-inverse-value"
                } else {
                    continue;
                };
                return match (first == rule, first) {
                    (true, "left-inverse-domain") => {
                        Ok("pycute's R(L(i)) is not a coordinate of L")
                    }
                    (true, _) => Ok("pycute's inverse fails L(R(L(i))) == L(i)"),
                    _ => no(first),
                };
            }
            no("pycute's left inverse is right")
        }
        _ => no("a rule this test does not expect"),
    }
}

/// The mode path and the operation a diagnostic names.
fn named(d: &Diagnostic) -> Option<(CuteOp, Vec<usize>)> {
    match d.error() {
        Error::CutePostcondition { op, mode, .. } | Error::CuteRefused { op, mode, .. } => {
            Some((op, mode.indices().iter().map(|&i| usize::from(i)).collect()))
        }
        _ => None,
    }
}

/// The pycute call a diagnostic names: the answer itself for the one-step operations, else the
/// sub-call of its operation whose tiler path is the longest prefix of its mode path.
fn named_record(call: &Call, answer: &Json, op: CuteOp, path: &[usize]) -> Option<Json> {
    let main = || {
        let mut r = answer.clone();
        r["args"] = Json::Array(call.text.iter().map(|t| json!(t)).collect());
        r
    };
    let one_step = matches!(
        call.op,
        "coalesce" | "complement" | "right_inverse" | "left_inverse"
    );
    if op == CuteOp::Complement && call.op == "complement" {
        return Some(main());
    }
    if one_step && op != CuteOp::Complement {
        return Some(main());
    }
    answer["subs"]
        .as_array()?
        .iter()
        .filter(|s| s["op"] == op.name())
        .filter_map(|s| {
            let p: Vec<usize> = s["path"]
                .as_array()?
                .iter()
                .filter_map(|x| x.as_u64().map(|x| x as usize))
                .collect();
            path.starts_with(&p).then_some((p.len(), s))
        })
        .max_by_key(|(n, _)| *n)
        .map(|(_, s)| s.clone())
}

/// Whether `a` (the composition's left operand) has size 1 and a non-zero stride: pycute
/// coalesces it to `1:0`.
fn size_one_left(call: &Call) -> bool {
    CuteText::parse(&call.text[0])
        .is_some_and(|a| a.size() == 1 && a.leaves().iter().any(|l| l.1 != 0))
}

// ---------------------------------------------------------------------------------------------

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn python() -> Option<PathBuf> {
    let candidate = match std::env::var_os("PYCUTE_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(".venv-pycute")
            .join("bin")
            .join("python"),
    };
    let ok = Command::new(&candidate)
        .args(["-c", "import pycute"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(candidate)
}

#[test]
fn agrees_with_pycute() {
    let Some(python) = python() else {
        let msg = "pycute differential test: no Python with pycute (create it with \
                   `python3 -m venv .venv-pycute && .venv-pycute/bin/pip install --no-deps \
                   nvidia-cutlass==4.2.0.0`, or set PYCUTE_PYTHON)";
        assert!(!ci(), "{msg}; under CI=true this is a failure, not a skip");
        println!("SKIPPED: {msg}");
        return;
    };

    let mut rng = Rng(SEED);
    let calls: Vec<Call> = (0..CALLS).map(|_| generate(&mut rng)).collect();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let input = dir.join("pycute_calls.jsonl");
    let lines: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"id": i, "op": c.op, "args": c.json}).to_string())
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").expect("write the calls");
    let driver = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pycute/driver.py");
    let out = Command::new(&python)
        .arg(&driver)
        .arg(&input)
        .output()
        .expect("run the driver");
    assert!(
        out.status.success(),
        "driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let mut answers = stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).expect("JSON line"));
    let version = answers.next().expect("version line")["pycute"].clone();
    let answers: Vec<Json> = answers.collect();
    assert_eq!(answers.len(), calls.len(), "one answer per call");

    let mut compared: BTreeMap<&str, usize> = BTreeMap::new();
    let mut diagnosed: BTreeMap<String, usize> = BTreeMap::new();
    let mut integer_tilers = 0usize;
    let mut size_one = 0usize;
    let mut negative_cosize = 0usize;
    let mut failures: Vec<String> = Vec::new();
    for (i, (c, ans)) in calls.iter().zip(&answers).enumerate() {
        assert_eq!(ans["id"], json!(i), "answers in order");
        let op: CuteOp = c.op.parse().expect("known op");
        let args: Vec<&str> = c.text.iter().map(String::as_str).collect();
        let ours: Result<Value, Diagnostic> = Cute::new().apply(op, &args);
        // Strict mode may refuse more, never answer differently.
        if let (Ok(strict), Ok(v)) = (Cute::strict().apply(op, &args), &ours)
            && strict != *v
        {
            failures.push(format!("#{i}: strict mode gives {strict}, not {v}"));
        }
        let theirs = ans.get("result").and_then(Json::as_str);
        let what = format!("#{i} {}({})", c.op, c.text.join(", "));
        if c.tiler.as_ref().is_some_and(Til::has_int) && c.op.ends_with("_product") {
            // INTEGER_TILER_PRODUCT: pycute's own answer is the divide.
            if ans["raw"] != ans["raw_divide"] {
                failures.push(format!(
                    "{what}: pycute's integer-tiler product {} is not its divide {}",
                    ans["raw"], ans["raw_divide"]
                ));
            }
            integer_tilers += 1;
        }
        match (&ours, theirs) {
            (Ok(v), Some(t)) => {
                let printed = format!("{v:#}");
                if printed == t {
                    *compared.entry(c.op).or_default() += 1;
                } else {
                    failures.push(format!("{what}: ours {printed}, pycute {t}"));
                }
            }
            (Ok(v), None) => failures.push(format!(
                "{what}: ours {v:#}, pycute raises {}",
                ans["raised"]
            )),
            (Err(d), _) => {
                let Some((sub_op, path)) = named(d) else {
                    failures.push(format!("{what}: unexpected error {d}"));
                    continue;
                };
                // A tiler with too many entries, or rank-1 product halves that C++'s `zip`
                // cannot zip (the driver transcribes its static_assert): the call itself raises.
                let record = if matches!(d.rule(), "tiler-rank" | "product-zip-rank") {
                    Some(ans.clone())
                } else {
                    named_record(c, ans, sub_op, &path)
                };
                let Some(record) = record else {
                    failures.push(format!("{what}: no pycute call for {d} ({ans})"));
                    continue;
                };
                match violates(d.rule(), &record) {
                    Ok(why) => {
                        *diagnosed
                            .entry(format!("{} ({why})", d.rule()))
                            .or_default() += 1;
                        if d.rule() == "composition-value" && size_one_left(c) {
                            size_one += 1; // SIZE_ONE_COALESCE
                        }
                        if d.rule() == "complement-cotarget" && c.op.contains("product") {
                            negative_cosize += 1; // NEGATIVE_COSIZE_PRODUCT
                        }
                    }
                    Err(e) => failures.push(format!("{what}: our diagnostic {d} unjustified: {e}")),
                }
            }
        }
    }
    let n_compared: usize = compared.values().sum();
    let n_diagnosed: usize = diagnosed.values().sum();
    println!(
        "pycute differential test (nvidia-cutlass {version}), seed {SEED:#x}: {} calls",
        calls.len()
    );
    println!("  compared (same printed form as pycute): {n_compared}");
    for (op, n) in &compared {
        println!("    {op}: {n}");
    }
    println!("  diagnosed instead (each justified by pycute's own answer): {n_diagnosed}");
    for (rule, n) in &diagnosed {
        println!("    {rule}: {n}");
    }
    println!("  known differences, each handled explicitly:");
    for (n, what, why) in [
        (
            integer_tilers,
            "integer-tiler products compared under C++ semantics",
            INTEGER_TILER_PRODUCT,
        ),
        (
            size_one,
            "compositions diagnosed because pycute coalesces a size-1 A to 1:0",
            SIZE_ONE_COALESCE,
        ),
        (
            negative_cosize,
            "products refused for cosize(B) <= 0",
            NEGATIVE_COSIZE_PRODUCT,
        ),
    ] {
        println!("    {n} {what}: {why}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} calls disagree with pycute:\n{}",
        failures.len(),
        calls.len(),
        failures[..failures.len().min(40)].join("\n")
    );
    assert_eq!(n_compared + n_diagnosed, calls.len());
    assert!(calls.len() >= 5000);
    assert!(
        n_compared * 2 > calls.len(),
        "most calls must be compared, not diagnosed"
    );
    for (op, _) in OPS {
        assert!(
            compared.get(op).is_some_and(|&n| n >= 20),
            "too few {op} compared"
        );
    }
}

/// The justifications reject right answers: a diagnosis is accepted only where pycute is
/// really wrong.
#[test]
fn justification_needs_a_wrong_pycute_answer() {
    let rec = |args: &[&str], result: &str| json!({"args": args, "result": result});
    // (spec: Postconditions): pycute's complement((2,2):(1,3), 24) is 4:6, covering 16 of 24.
    assert!(violates("complement-coverage", &rec(&["(2,2):(1,3)", "24"], "4:6")).is_ok());
    assert!(
        violates(
            "complement-coverage",
            &rec(&["(2,2):(1,4)", "24"], "(2, 3):(2, 8)")
        )
        .is_err()
    );
    // A right composition, a wrong one (pycute's size-1 coalescing: 1:48 o 4:2 = 4:0).
    assert!(
        violates(
            "composition-value",
            &rec(
                &["(6, 2):(8, 2)", "(4, 3):(3, 1)"],
                "((2, 2), 3):((24, 2), 8)"
            )
        )
        .is_err()
    );
    assert!(violates("composition-value", &rec(&["1:48", "4:2"], "4:0")).is_ok());
    // A true inverse is no violation; a diagnosis of a raise needs a raise.
    assert!(
        violates(
            "right-inverse-value",
            &rec(&["(4, 8):(8, 1)"], "(8, 4):(4, 1)")
        )
        .is_err()
    );
    assert!(
        violates(
            "composition-stride-divisibility",
            &rec(&["8:1", "2:3"], "2:3")
        )
        .is_err()
    );
    assert!(violates("tiler-rank", &json!({"raised": "AssertionError: "})).is_ok());
    // A complement with a mode of size 0 is not a layout.
    assert!(
        violates(
            "complement-overlap",
            &rec(&["(3,2):(2,3)", "24"], "(2, 0, 4):(1, 6, 6)")
        )
        .is_ok()
    );
}

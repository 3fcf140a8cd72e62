//! Helpers for the integration tests of the layout workspace.
//!
//! * loaders for the shared case files in `data/` (`cute_corpus.json`, `seed000_cases.json`),
//! * conversions from the seed cases' JSON (`{"shape": [..], "stride": [..]}`, `"BOT"` = `_`)
//!   to [`Layout`]s,
//! * oracles written independently of `layout-core`: a tiny CuTe-notation parser with
//!   colexicographic evaluation ([`CuteText`]), brute-force enumeration of flat layouts
//!   ([`Flat`]) for dense bijections and alias-freedom, and a brute-force Theorem 1 oracle
//!   ([`ChainOracle`]) that tries every chain of divisors,
//! * [`json_map`]: the seed cases' JSON serialisation of maps as a [`Map`],
//! * [`expr`]: an evaluator of `layout!` algebra expressions written from the specification
//!   alone, and a generator of random expression trees,
//! * [`brute`]: brute-force models of slices and flat layouts for the algebra's tests,
//! * [`cargo_crate`]: a generated crate that uses `layout!`, checked, built or run by `cargo`,
//! * [`cute_cpp`]: CuTe C++ programs over the CUTLASS 4.2 headers, compiled on the host and run,
//! * [`host_cpp`]: plain C++ programs (emitted code, the GEMM's template on CPU threads),
//!   compiled with the system compiler and run.
//!
//! Expected values always come from the case files or from these oracles, never from
//! `layout-core` itself.

pub mod brute;
pub mod cute_cpp;
pub mod expr;
pub mod host_cpp;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output};

use layout_core::{Error, Layout, Map, Space, Stride, Swizzle, Tree, compose};
use serde_json::Value;

/// The folder that holds the case files.
#[must_use]
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Every case of one JSON file of `data/` (a list of objects).
///
/// # Panics
/// When the file is missing or not a JSON list.
#[must_use]
pub fn load(file: &str) -> Vec<Value> {
    let path = data_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Array(v)) => v,
        Ok(_) => panic!("{} is not a JSON list", path.display()),
        Err(e) => panic!("{} is not JSON: {e}", path.display()),
    }
}

/// The cases of `seed000_cases.json` of one `kind` (e.g. `"lemma1"`).
#[must_use]
pub fn seed_cases(kind: &str) -> Vec<Value> {
    load("seed000_cases.json")
        .into_iter()
        .filter(|c| c["kind"] == kind)
        .collect()
}

/// The cases of `cute_corpus.json` of one `op` (e.g. `"mma_atom"`).
#[must_use]
pub fn corpus(op: &str) -> Vec<Value> {
    load("cute_corpus.json")
        .into_iter()
        .filter(|c| c["op"] == op)
        .collect()
}

/// An integer of a case.
///
/// # Panics
/// When `v` is not an integer.
#[must_use]
pub fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// A list of integers of a case (`null` gives `None`).
///
/// # Panics
/// When `v` is neither `null` nor a list of integers.
#[must_use]
pub fn ints(v: &Value) -> Option<Vec<i64>> {
    match v {
        Value::Null => None,
        Value::Array(a) => Some(a.iter().map(int).collect()),
        _ => panic!("not a list of integers: {v}"),
    }
}

/// A nested JSON list of integers as a tree (shapes and coordinates).
///
/// # Panics
/// On anything else.
#[must_use]
pub fn json_tree(v: &Value) -> Tree<i64> {
    match v {
        Value::Array(a) => Tree::Tuple(a.iter().map(json_tree).collect()),
        _ => Tree::Leaf(int(v)),
    }
}

/// A nested JSON list of strides as a tree; `"BOT"` is the broadcast `_`.
///
/// # Panics
/// On anything else.
#[must_use]
pub fn json_stride_tree(v: &Value) -> Tree<Stride> {
    match v {
        Value::Array(a) => Tree::Tuple(a.iter().map(json_stride_tree).collect()),
        Value::String(s) if s == "BOT" => Tree::Leaf(Stride::Broadcast),
        _ => Tree::Leaf(Stride::Int(int(v))),
    }
}

/// The seed-order layout of a case object with `shape` and `stride` (other keys are ignored).
///
/// # Errors
/// Whatever [`Layout::new`] says about it.
pub fn json_layout(v: &Value) -> Result<Layout, Error> {
    Layout::new(json_tree(&v["shape"]), json_stride_tree(&v["stride"]))
}

/// A nested integer tuple, as written in CuTe text or in the case files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nest {
    /// One integer.
    Int(i64),
    /// A tuple.
    Tup(Vec<Nest>),
}

impl Nest {
    /// The leaves in written order.
    #[must_use]
    pub fn leaves(&self) -> Vec<i64> {
        match self {
            Nest::Int(x) => vec![*x],
            Nest::Tup(v) => v.iter().flat_map(Nest::leaves).collect(),
        }
    }

    /// A nested JSON list of integers.
    ///
    /// # Panics
    /// On anything else.
    #[must_use]
    pub fn from_json(v: &Value) -> Nest {
        match v {
            Value::Array(a) => Nest::Tup(a.iter().map(Nest::from_json).collect()),
            _ => Nest::Int(int(v)),
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Nest::Int(x) => write!(out, "{x}").expect("write to a String"),
            Nest::Tup(v) => {
                out.push('(');
                for (i, t) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    t.write(out);
                }
                out.push(')');
            }
        }
    }

    /// The text of the tuple, e.g. `(4,(2,2))`.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
}

/// A layout in CuTe text, read by a parser of its own (independent of `layout-core`):
/// first mode fastest, stride `0` contributes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CuteText {
    /// The shape as written.
    pub shape: Nest,
    /// The stride as written.
    pub stride: Nest,
}

struct NestParser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl NestParser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn nest(&mut self) -> Option<Nest> {
        self.ws();
        if self.s.get(self.pos) == Some(&b'(') {
            self.pos += 1;
            let mut items = Vec::new();
            loop {
                items.push(self.nest()?);
                self.ws();
                match self.s.get(self.pos)? {
                    b',' => self.pos += 1,
                    b')' => {
                        self.pos += 1;
                        return Some(Nest::Tup(items));
                    }
                    _ => return None,
                }
            }
        }
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        while self.s.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        std::str::from_utf8(&self.s[start..self.pos])
            .ok()?
            .parse()
            .ok()
            .map(Nest::Int)
    }
}

fn same_profile(a: &Nest, b: &Nest) -> bool {
    match (a, b) {
        (Nest::Int(_), Nest::Int(_)) => true,
        (Nest::Tup(x), Nest::Tup(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_profile(p, q))
        }
        _ => false,
    }
}

/// Whether a string of the corpus is written in layout notation (digits, parentheses, commas,
/// minus signs and one colon): tilers `<..>`, `_` and names are not.
#[must_use]
pub fn looks_like_layout(s: &str) -> bool {
    s.contains(':')
        && s.bytes()
            .all(|c| c.is_ascii_digit() || b"(),:- ".contains(&c))
}

impl CuteText {
    /// Parses `shape:stride` with integer leaves; `None` when the text is not of that form or
    /// the profiles differ.
    #[must_use]
    pub fn parse(text: &str) -> Option<CuteText> {
        let (a, b) = text.split_once(':')?;
        let shape = NestParser {
            s: a.as_bytes(),
            pos: 0,
        }
        .whole()?;
        let stride = NestParser {
            s: b.as_bytes(),
            pos: 0,
        }
        .whole()?;
        same_profile(&shape, &stride).then_some(CuteText { shape, stride })
    }

    /// `(size, stride)` of every leaf, in CuTe order (the first varies fastest).
    #[must_use]
    pub fn leaves(&self) -> Vec<(i64, i64)> {
        self.shape
            .leaves()
            .into_iter()
            .zip(self.stride.leaves())
            .collect()
    }

    /// Whether every size is at least 1.
    #[must_use]
    pub fn sizes_positive(&self) -> bool {
        self.shape.leaves().iter().all(|&n| n >= 1)
    }

    /// The product of the sizes.
    #[must_use]
    pub fn size(&self) -> i64 {
        self.shape.leaves().iter().product()
    }

    /// Whether a mode of size > 1 has stride 0 (CuTe's broadcast).
    #[must_use]
    pub fn has_broadcast(&self) -> bool {
        self.leaves().iter().any(|&(n, d)| n > 1 && d == 0)
    }

    /// The value at integral coordinate `i`, colexicographic (first leaf fastest), as CuTe and
    /// pycute compute it.
    #[must_use]
    pub fn eval(&self, mut i: i64) -> i64 {
        let mut acc = 0;
        for (n, d) in self.leaves() {
            acc += (i % n) * d;
            i /= n;
        }
        acc
    }

    /// The seed-order flat layout of the same function: the leaves reversed, stride `0` of
    /// size > 1 as a broadcast.
    #[must_use]
    pub fn to_flat(&self) -> Flat {
        Flat {
            modes: self
                .leaves()
                .into_iter()
                .rev()
                .map(|(n, d)| (n, if n > 1 && d == 0 { None } else { Some(d) }))
                .collect(),
        }
    }
}

impl NestParser<'_> {
    fn whole(&mut self) -> Option<Nest> {
        let n = self.nest()?;
        self.ws();
        (self.pos == self.s.len()).then_some(n)
    }
}

/// A flat layout in seed order (last mode fastest) for brute force: `(size, stride)` per mode,
/// `None` for the broadcast `_`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flat {
    /// The modes, slowest first.
    pub modes: Vec<(i64, Option<i64>)>,
}

impl Flat {
    /// The same layout as a `layout-core` value (a flat tuple; rank 1 is the bare leaf).
    ///
    /// # Errors
    /// Whatever [`Layout::new`] says.
    pub fn to_layout(&self) -> Result<Layout, Error> {
        let shape = Tree::Tuple(self.modes.iter().map(|m| Tree::Leaf(m.0)).collect());
        let stride = Tree::Tuple(
            self.modes
                .iter()
                .map(|m| Tree::Leaf(m.1.map_or(Stride::Broadcast, Stride::Int)))
                .collect(),
        );
        Layout::new(shape, stride)
    }

    /// The product of the sizes.
    #[must_use]
    pub fn size(&self) -> i64 {
        self.modes.iter().map(|m| m.0).product()
    }

    /// The coordinate of flat index `i` (last mode fastest).
    #[must_use]
    pub fn coord(&self, mut i: i64) -> Vec<i64> {
        let mut c = vec![0; self.modes.len()];
        for (k, m) in self.modes.iter().enumerate().rev() {
            c[k] = i % m.0;
            i /= m.0;
        }
        c
    }

    /// The offset at flat index `i`.
    #[must_use]
    pub fn eval(&self, i: i64) -> i64 {
        self.coord(i)
            .iter()
            .zip(&self.modes)
            .map(|(c, m)| c * m.1.unwrap_or(0))
            .sum()
    }

    /// Every offset, by flat index.
    #[must_use]
    pub fn offsets(&self) -> Vec<i64> {
        (0..self.size()).map(|i| self.eval(i)).collect()
    }

    /// Brute force: the offsets are exactly a permutation of `0..size`.
    #[must_use]
    pub fn brute_dense(&self) -> bool {
        let size = self.size();
        let mut seen = vec![false; usize::try_from(size).expect("small size")];
        for off in self.offsets() {
            if !(0..size).contains(&off) {
                return false;
            }
            let k = usize::try_from(off).expect("in range");
            if seen[k] {
                return false;
            }
            seen[k] = true;
        }
        true
    }

    /// Whether the flat indices `a` and `b` are `~`-equivalent: they differ only at broadcast
    /// modes (size-1 modes take only the value 0).
    #[must_use]
    pub fn equivalent(&self, a: i64, b: i64) -> bool {
        let (ca, cb) = (self.coord(a), self.coord(b));
        self.modes
            .iter()
            .zip(ca.iter().zip(&cb))
            .all(|(m, (x, y))| m.1.is_none() || x == y)
    }

    /// The class of flat index `i` under `~`: the index with every broadcast coordinate zeroed.
    #[must_use]
    pub fn class(&self, i: i64) -> i64 {
        let c = self.coord(i);
        let mut key = 0;
        for (m, x) in self.modes.iter().zip(c) {
            key = key * m.0 + if m.1.is_some() { x } else { 0 };
        }
        key
    }

    /// Brute force: offsets of coordinates that are not `~`-equivalent differ.
    #[must_use]
    pub fn brute_alias_free(&self) -> bool {
        let mut owner: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
        (0..self.size()).all(|i| {
            let class = self.class(i);
            *owner.entry(self.eval(i)).or_insert(class) == class
        })
    }
}

/// Every flat layout of rank 1..=`max_rank` with sizes in `sizes` and strides in `strides`
/// (`None` = broadcast), in a fixed order.
#[must_use]
pub fn all_flat(max_rank: usize, sizes: &[i64], strides: &[Option<i64>]) -> Vec<Flat> {
    let mut modes = Vec::new();
    for &n in sizes {
        for &d in strides {
            modes.push((n, d));
        }
    }
    let mut out = Vec::new();
    let mut level: Vec<Vec<(i64, Option<i64>)>> = vec![Vec::new()];
    for _ in 0..max_rank {
        let mut next = Vec::with_capacity(level.len() * modes.len());
        for prefix in &level {
            for &m in &modes {
                let mut v = prefix.clone();
                v.push(m);
                next.push(v);
            }
        }
        out.extend(next.iter().map(|m| Flat { modes: m.clone() }));
        level = next;
    }
    out
}

/// The strides of the exhaustive sets: `-2..=12` and the broadcast.
#[must_use]
pub fn small_strides() -> Vec<Option<i64>> {
    (-2..=12).map(Some).chain([None]).collect()
}

/// A deterministic sample of flat indices of `[0, size)`: all of them when `size <= limit`,
/// else about `limit` spread over the range, including both ends.
#[must_use]
pub fn sample_indices(size: i64, limit: i64) -> Vec<i64> {
    if size <= limit {
        return (0..size).collect();
    }
    let step = size / limit;
    let mut v: Vec<i64> = (0..limit).map(|k| k * step + (k * 7919) % step).collect();
    v.push(size - 1);
    v
}

/// The space named by a case's `dom`/`cod` field (`logical`, `thread-value`, `physical`).
///
/// # Panics
/// When `v` is not a space name.
#[must_use]
pub fn json_space(v: &Value) -> Space {
    v.as_str()
        .unwrap_or_else(|| panic!("not a space name: {v}"))
        .parse()
        .unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// A map of `seed000_cases.json`, built through `layout-core`'s checked constructors:
/// `{"type":"layout","shape","stride","dom","cod"}`, `{"type":"composite","left","right"}`,
/// `{"type":"swizzle","b","src","dst","inner"}` and `{"type":"restrict","fixed":{"0":2},"inner"}`
/// (`fixed` maps 0-based top-level entries of `inner`'s domain to flat values).
///
/// # Errors
/// Whatever `layout-core` says about the construction.
///
/// # Panics
/// On a malformed serialisation.
pub fn json_map(v: &Value) -> Result<Map, Error> {
    let field = |key: &str| -> u32 {
        u32::try_from(int(&v[key])).unwrap_or_else(|_| panic!("bad {key} in {v}"))
    };
    match v["type"].as_str() {
        Some("layout") => Ok(layout_core::Annotated::new(
            json_layout(v)?,
            json_space(&v["dom"]),
            json_space(&v["cod"]),
        )?
        .into()),
        Some("composite") => compose(&json_map(&v["left"])?, &json_map(&v["right"])?),
        Some("swizzle") => {
            json_map(&v["inner"])?.swizzle(Swizzle::new(field("b"), field("src"), field("dst"))?)
        }
        Some("restrict") => {
            let fixed: Vec<(usize, i64)> = v["fixed"]
                .as_object()
                .unwrap_or_else(|| panic!("no fixed entries in {v}"))
                .iter()
                .map(|(k, x)| (k.parse().unwrap_or_else(|_| panic!("entry {k}")), int(x)))
                .collect();
            // One call: every entry is then numbered among the inner map's own entries.
            json_map(&v["inner"])?.restrict(&fixed)
        }
        _ => panic!("unknown map type in {v}"),
    }
}

/// The answer of [`ChainOracle::check`] for one `g`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OracleVerdict {
    /// Every chain of divisors whose forced strides reproduce `g` at every point, each
    /// increasing (`1 = w_1 | w_2 | … | w_k`).
    pub accepting: Vec<Vec<i64>>,
    /// When none accepts: the first `t` at which every chain has failed, that is, the largest
    /// over the chains of the first point where the chain's forced strides miss `g`. (A chain
    /// reproduces `g` on `[0, t)` exactly when a prefix of the scan could have built it, so this
    /// is where the scan of Theorem 1 must reject.)
    pub reject_at: Option<i64>,
}

impl OracleVerdict {
    /// The accepting chain with the fewest elements (the coarsest shape), if any.
    #[must_use]
    pub fn minimal(&self) -> Option<&Vec<i64>> {
        self.accepting.iter().min_by_key(|c| c.len())
    }

    /// Whether the minimal accepting chain is contained in every accepting chain (Theorem 1's
    /// "every flat shape of which g is a layout has a chain containing {1} ∪ R"). Vacuously true
    /// when none accepts.
    #[must_use]
    pub fn minimal_in_all(&self) -> bool {
        self.minimal().is_none_or(|m| {
            self.accepting
                .iter()
                .all(|c| m.iter().all(|w| c.contains(w)))
        })
    }
}

/// A brute-force oracle for Theorem 1 (spec: Theorem 1) that shares no code with
/// `layout_core::scan`: for `g : [0, n) → ℤ` with `g(0) = 0` it tries every chain of divisors
/// `1 = w_1 | w_2 | … | w_k | n` with `w_k < n`, forces the strides `s_j = g(w_j)` and checks
/// `g(v) = Σ_j s_j·((v / w_j) mod m_j)` (`m_j = w_{j+1} / w_j`, `w_{k+1} = n`) at every point.
///
/// The chains and their digit tables are computed once per `n` by [`ChainOracle::new`], so one
/// [`ChainOracle::check`] is a few multiply-adds per chain and point.
#[derive(Clone, Debug)]
pub struct ChainOracle {
    n: usize,
    /// Every chain, increasing.
    chains: Vec<Vec<usize>>,
    /// Per chain, `digits[v * k + j] = (v / w_j) mod m_j` for its `k` elements.
    digits: Vec<Vec<i64>>,
}

impl ChainOracle {
    /// Every chain of divisors of `n` below `n` that starts at 1, with digit tables.
    ///
    /// # Panics
    /// When `n == 0`.
    #[must_use]
    pub fn new(n: usize) -> ChainOracle {
        assert!(n >= 1, "the oracle needs n >= 1");
        let divisors: Vec<usize> = (1..n).filter(|&d| n.is_multiple_of(d)).collect();
        let mut chains = Vec::new();
        let mut stack = vec![vec![1usize]];
        while let Some(chain) = stack.pop() {
            let last = *chain.last().expect("non-empty chain");
            for &d in &divisors {
                if d > last && d.is_multiple_of(last) {
                    let mut longer = chain.clone();
                    longer.push(d);
                    stack.push(longer);
                }
            }
            chains.push(chain);
        }
        // For n = 1 this leaves the one chain {1}: the layout (1):0.
        chains.sort();
        let digits = chains
            .iter()
            .map(|chain| {
                let k = chain.len();
                let mut table = vec![0i64; n * k];
                for v in 0..n {
                    for (j, &w) in chain.iter().enumerate() {
                        let next = chain.get(j + 1).copied().unwrap_or(n.max(1));
                        let m = next / w;
                        table[v * k + j] = i64::try_from((v / w) % m.max(1)).expect("small");
                    }
                }
                table
            })
            .collect();
        ChainOracle { n, chains, digits }
    }

    /// The `n` of this oracle.
    #[must_use]
    pub fn n(&self) -> usize {
        self.n
    }

    /// Every chain of divisors tried, increasing.
    #[must_use]
    pub fn chains(&self) -> Vec<Vec<i64>> {
        self.chains.iter().map(|c| to_i64(c)).collect()
    }

    /// Tries every chain on `g` (`g.len() == n`, `g[0] == 0`).
    ///
    /// # Panics
    /// When `g` has the wrong length or `g[0] != 0`.
    #[must_use]
    pub fn check(&self, g: &[i64]) -> OracleVerdict {
        assert_eq!(g.len(), self.n, "g has the wrong length");
        assert_eq!(g[0], 0, "g(0) must be 0");
        let mut accepting = Vec::new();
        let mut latest_failure = 0usize;
        for (chain, table) in self.chains.iter().zip(&self.digits) {
            let k = chain.len();
            // The strides the chain forces (a point past the domain only for n = 1).
            let strides: Vec<i64> = chain
                .iter()
                .map(|&w| g.get(w).copied().unwrap_or(0))
                .collect();
            let first_miss = (0..self.n).find(|&v| {
                let row = &table[v * k..(v + 1) * k];
                let sum: i64 = row.iter().zip(&strides).map(|(d, s)| d * s).sum();
                sum != g[v]
            });
            match first_miss {
                None => accepting.push(to_i64(chain)),
                Some(v) => latest_failure = latest_failure.max(v),
            }
        }
        let reject_at = accepting
            .is_empty()
            .then(|| i64::try_from(latest_failure).expect("small"));
        OracleVerdict {
            accepting,
            reject_at,
        }
    }

    /// The shape of an increasing chain, slowest first: `m_j = w_{j+1} / w_j`, `w_{k+1} = n`.
    #[must_use]
    pub fn shape(&self, chain: &[i64]) -> Vec<i64> {
        let n = i64::try_from(self.n).expect("small");
        (0..chain.len())
            .rev()
            .map(|j| chain.get(j + 1).copied().unwrap_or(n) / chain[j])
            .collect()
    }

    /// The strides a chain forces, slowest first: `s_j = g(w_j)` (0 for `n = 1`).
    #[must_use]
    pub fn strides(&self, chain: &[i64], g: &[i64]) -> Vec<i64> {
        chain
            .iter()
            .rev()
            .map(|&w| {
                g.get(usize::try_from(w).expect("positive"))
                    .copied()
                    .unwrap_or(0)
            })
            .collect()
    }
}

fn to_i64(v: &[usize]) -> Vec<i64> {
    v.iter()
        .map(|&x| i64::try_from(x).expect("small"))
        .collect()
}

/// The value of a layout-form coordinate: `Σ_j s_j·((t / w_j) mod m_j)` for an increasing chain
/// `w`, its shape `m` and strides `s` given slowest first (as `layout_core::Chain` and the case
/// files write them). Written here from the definition, for rebuilding values from a decision.
#[must_use]
pub fn chain_value(t: i64, chain: &[i64], shape: &[i64], strides: &[i64]) -> i64 {
    let k = chain.len();
    (0..k)
        .map(|j| strides[k - 1 - j] * ((t / chain[j]) % shape[k - 1 - j]))
        .sum()
}

/// The corpus operations that `layout_core::cute` runs (atoms are loaded elsewhere).
pub const CUTE_OPS: &[&str] = &[
    "layout_eval",
    "coalesce",
    "composition",
    "complement",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "right_inverse",
    "left_inverse",
    "swizzle",
];

/// The verdict a corpus case's own fields imply, before review: `"result"` or
/// `"diagnostic:<rule>"` (rule names of `layout_core::Error::rule`). Derived only from the
/// case's pycute answer (`expected`), C++ answer (`cpp`) and `postconditions_failed`:
///
/// * `layout_eval` and `swizzle` involve no CuTe formula: `result`;
/// * pycute raised: in `composition` its one assertion is stride divisibility
///   (`composition-stride-divisibility`); elsewhere the assertion is the complement's bound
///   check, on a negative stride (`complement-negative-stride`) or on overlapping modes
///   (`complement-overlap`);
/// * C++ refused with "Non-injective Layout detected in complement": `complement-overlap`;
/// * pycute's result fails a postcondition: the rule of the first one listed;
/// * otherwise `result`.
///
/// # Panics
/// On a postcondition name it does not know.
#[must_use]
pub fn derive_cute_verdict(case: &Value) -> String {
    let op = case["op"].as_str().unwrap_or("");
    if matches!(op, "layout_eval" | "swizzle") {
        return "result".into();
    }
    let expected = &case["expected"];
    let cpp_error = case["cpp"]["error"].as_str().unwrap_or("");
    if expected.get("error").is_some() {
        if op == "composition" {
            return "diagnostic:composition-stride-divisibility".into();
        }
        let layout = case["inputs"]["layout"].as_str().unwrap_or("");
        let negative =
            CuteText::parse(layout).is_some_and(|l| l.leaves().iter().any(|&(_, d)| d < 0));
        return if negative {
            "diagnostic:complement-negative-stride".into()
        } else {
            "diagnostic:complement-overlap".into()
        };
    }
    if cpp_error.contains("Non-injective") {
        return "diagnostic:complement-overlap".into();
    }
    let failed: Vec<&str> = expected["postconditions_failed"]
        .as_array()
        .map(|v| v.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    match failed.first() {
        None => "result".into(),
        Some(&name) => {
            let rule = match name {
                "R(i)==A(B(i))" => "composition-value",
                "L(R(L(i)))==L(i)" => "left-inverse-value",
                "L(R(i))==i" => "right-inverse-value",
                n if n.starts_with("(1)") => "complement-coverage",
                n if n.starts_with("(2)") => "complement-bound",
                n if n.starts_with("(3)") => "complement-ordered",
                n if n.starts_with("(4)") => "complement-disjoint",
                other => panic!("unknown postcondition name {other:?}"),
            };
            format!("diagnostic:{rule}")
        }
    }
}

/// The operation that runs a CuTe corpus case: its `op`, except that a `swizzle` case with an
/// `outer` layout is CuTe's `composition(outer, Swizzle o layout)`.
#[must_use]
pub fn cute_case_op(case: &Value) -> &str {
    match case["op"].as_str().unwrap_or("") {
        "swizzle" if case["inputs"].get("outer").is_some() => "composition",
        op => op,
    }
}

/// The arguments of a CuTe corpus case for `layout_core::cute::Cute::apply`, in order.
///
/// # Panics
/// On a case without the inputs its op needs.
#[must_use]
pub fn cute_case_args(case: &Value) -> Vec<String> {
    let inputs = &case["inputs"];
    let text = |k: &str| -> String {
        match &inputs[k] {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => panic!("input {k} of {} is {other}", case["id"]),
        }
    };
    let swizzle = |k: &str| -> String {
        let v: Vec<String> = inputs[k]
            .as_array()
            .unwrap_or_else(|| panic!("swizzle {k} of {}", case["id"]))
            .iter()
            .map(ToString::to_string)
            .collect();
        format!("Swizzle<{}>", v.join(","))
    };
    match case["op"].as_str().unwrap_or("") {
        "layout_eval" | "right_inverse" | "left_inverse" => vec![text("layout")],
        "coalesce" if inputs.get("profile").is_some() => vec![text("layout"), text("profile")],
        "coalesce" => vec![text("layout")],
        "complement" => vec![text("layout"), text("cotarget")],
        "composition" | "blocked_product" | "raked_product" | "logical_product"
        | "zipped_product" | "tiled_product" | "flat_product"
            if inputs.get("B").is_some() =>
        {
            vec![text("A"), text("B")]
        }
        "swizzle" => {
            let inner = format!("{} o {}", swizzle("swizzle"), text("layout"));
            match (inputs.get("outer"), inputs.get("outer_swizzle")) {
                (None, _) => vec![swizzle("swizzle"), text("layout")],
                (Some(_), None) => vec![text("outer"), inner],
                (Some(_), Some(_)) => {
                    vec![
                        format!("{} o {}", swizzle("outer_swizzle"), text("outer")),
                        inner,
                    ]
                }
            }
        }
        _ => vec![text("A"), text("tiler")],
    }
}

/// CuTe's complement of a flat layout, `(N_i):(d_i)` in CuTe order, computed as pycute's
/// formula from its definition (independently of `layout-core`): modes of size > 1 and stride
/// ≠ 0 sorted by stride, quotients `d / current`, then `ceil(M / current)`. `None` where C++
/// CuTe refuses (a quotient of 0). The result is returned uncoalesced, as `(size, stride)` per
/// mode (coalescing does not change the function).
#[must_use]
pub fn cute_complement_oracle(modes: &[(i64, i64)], m: i64) -> Option<Vec<(i64, i64)>> {
    let mut sorted: Vec<(i64, i64)> = modes
        .iter()
        .filter(|&&(n, d)| n > 1 && d != 0)
        .map(|&(n, d)| (d, n))
        .collect();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut current = 1;
    for (d, n) in sorted {
        if d / current == 0 {
            return None;
        }
        out.push((d / current, current));
        current = n * d;
    }
    out.push(((m + current - 1) / current, current));
    Some(out)
}

/// The value of a flat CuTe-order layout `(size, stride)` at integral coordinate `i`
/// (colexicographic, first mode fastest).
#[must_use]
pub fn cute_flat_eval(modes: &[(i64, i64)], mut i: i64) -> i64 {
    let mut acc = 0;
    for &(n, d) in modes {
        acc += (i % n) * d;
        i /= n;
    }
    acc
}

/// Which of CuTe's `test_complement` checks (1)–(4) a complement `r` of `l` in `m` violates,
/// by brute force on flat CuTe-order layouts: `[(1), (2), (3), (4)]`.
#[must_use]
pub fn cute_complement_checks(l: &[(i64, i64)], r: &[(i64, i64)], m: i64) -> [bool; 4] {
    let size = |x: &[(i64, i64)]| x.iter().map(|&(n, _)| n).product::<i64>();
    let cosize = |x: &[(i64, i64)]| cute_flat_eval(x, size(x) - 1) + 1;
    let completed: Vec<(i64, i64)> = l.iter().chain(r).copied().collect();
    let check1 = cosize(&completed) < m;
    let lc = cosize(l);
    let check2 = cosize(r) > (m + lc - 1) / lc * lc;
    let rv: Vec<i64> = (0..size(r)).map(|i| cute_flat_eval(r, i)).collect();
    let lv: Vec<i64> = (0..size(l)).map(|j| cute_flat_eval(l, j)).collect();
    let check3 = rv.windows(2).any(|w| w[0] >= w[1]);
    let check4 = rv.iter().skip(1).any(|v| lv.contains(v));
    [check1, check2, check3, check4]
}

/// A CuTe-order layout `(size, stride)` per leaf at any integer `x`, on CuTe's extended domain:
/// colexicographic digits with floor division, the last leaf taking the unbounded quotient.
/// Written from the CuTe paper's `idx2crd`, independently of `layout-core`.
#[must_use]
pub fn cute_eval_extended(leaves: &[(i64, i64)], mut x: i64) -> i64 {
    let Some(((_, last), init)) = leaves.split_last() else {
        return 0;
    };
    let mut acc = 0;
    for &(n, d) in init {
        acc += x.rem_euclid(n) * d;
        x = x.div_euclid(n);
    }
    acc + x * last
}

/// A small deterministic generator (SplitMix64) shared by the randomised tests, so that every
/// sample is fixed by its seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)` (the modulo bias is below 2⁻⁵⁰ for the small `n` used here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `[lo, hi]`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// True with the given percentage.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One of `items`, uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// The workspace's root folder.
#[must_use]
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes the crate `name` (one `src/main.rs`, a path dependency on `layout-typed`, the
/// workspace's `Cargo.lock`) under `target/generated-crates/` and runs `cargo ARGS --quiet
/// --offline` on it. Every generated crate shares one target folder there, so the
/// dependencies are built once and repeated runs are incremental; files are written only when
/// their text changes. Diagnostics are `--message-format=short` unless `args` names a format.
///
/// # Panics
/// When the folder cannot be written or `cargo` cannot be started.
#[must_use]
pub fn cargo_crate(name: &str, main: &str, args: &[&str]) -> Output {
    let root = workspace_root();
    let dir = root.join("target").join("generated-crates");
    let krate = dir.join(name);
    std::fs::create_dir_all(krate.join("src")).expect("crate dir");
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nlayout-typed = {{ path = {:?} }}\n\n[workspace]\n",
        root.join("layout-typed").display().to_string()
    );
    let write_if_changed = |p: PathBuf, text: &str| {
        if std::fs::read_to_string(&p).ok().as_deref() != Some(text) {
            std::fs::write(&p, text).expect("write");
        }
    };
    write_if_changed(krate.join("Cargo.toml"), &manifest);
    write_if_changed(krate.join("src").join("main.rs"), main);
    if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) {
        write_if_changed(krate.join("Cargo.lock"), &lock);
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.args(args).args(["--quiet", "--offline"]);
    if !args.iter().any(|a| a.starts_with("--message-format")) {
        cmd.arg("--message-format=short");
    }
    cmd.current_dir(&krate)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("cargo runs")
}

//! Helpers for the integration tests of the layout workspace.
//!
//! * loaders for the shared case files in `data/` (`cute_corpus.json`, `seed000_cases.json`),
//! * conversions from the seed cases' JSON (`{"shape": [..], "stride": [..]}`, `"BOT"` = `_`)
//!   to [`Layout`]s,
//! * oracles written independently of `layout-core`: a tiny CuTe-notation parser with
//!   colexicographic evaluation ([`CuteText`]), and brute-force enumeration of flat layouts
//!   ([`Flat`]) for dense bijections and alias-freedom.
//!
//! Expected values always come from the case files or from these oracles, never from
//! `layout-core` itself.

use std::fmt::Write as _;
use std::path::PathBuf;

use layout_core::{Error, Layout, Stride, Tree};
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

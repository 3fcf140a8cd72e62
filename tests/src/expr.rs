//! An evaluator of `layout!` algebra expressions written from the specification alone (spec: Algebra; spec: Theorem 1)
//! (and docs/algebra.md), sharing no code with `layout-core`, and a seeded generator of
//! random expression trees over small layouts.
//!
//! Every value is brute force: a domain shape (the tree the typed value is read through), the
//! value at every flat index of the domain (last leaf fastest) and its spaces. The operations
//! are the definitions, applied to those tables; validity is decided from the definitions too
//! (sizes agree, spaces legal, dense bijections by enumeration, Theorem 1 by its scan).

use std::fmt::Write as _;

use crate::Rng;

/// A shape tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sh {
    /// One mode.
    Leaf(i64),
    /// A tuple of modes.
    Tuple(Vec<Sh>),
}

impl Sh {
    /// The product of the leaves.
    #[must_use]
    pub fn size(&self) -> i64 {
        self.leaves().iter().product()
    }

    /// The leaves, in order.
    #[must_use]
    pub fn leaves(&self) -> Vec<i64> {
        fn walk(s: &Sh, out: &mut Vec<i64>) {
            match s {
                Sh::Leaf(n) => out.push(*n),
                Sh::Tuple(v) => v.iter().for_each(|x| walk(x, out)),
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// The top-level entries (a leaf is one entry).
    #[must_use]
    pub fn entries(&self) -> Vec<Sh> {
        match self {
            Sh::Leaf(_) => vec![self.clone()],
            Sh::Tuple(v) => v.clone(),
        }
    }

    /// The domain made of the given entries: none is the point `1`, one is that entry.
    fn of_entries(mut v: Vec<Sh>) -> Sh {
        match v.len() {
            0 => Sh::Leaf(1),
            1 => v.remove(0),
            _ => Sh::Tuple(v),
        }
    }

    /// A group of an operation's result: the tree, or its single mode when it has one.
    fn group(&self) -> Sh {
        match self {
            Sh::Tuple(v) if v.len() == 1 => v[0].clone(),
            _ => self.clone(),
        }
    }

    /// Seed notation of the tree.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Sh::Leaf(n) => n.to_string(),
            Sh::Tuple(v) => {
                let parts: Vec<String> = v.iter().map(Sh::text).collect();
                format!("({})", parts.join(","))
            }
        }
    }

    /// A tree of the same profile whose leaves are `values` in order.
    fn with_leaves(&self, values: &mut impl Iterator<Item = i64>) -> Sh {
        match self {
            Sh::Leaf(_) => Sh::Leaf(values.next().unwrap_or(0)),
            Sh::Tuple(v) => Sh::Tuple(v.iter().map(|x| x.with_leaves(values)).collect()),
        }
    }

    /// The tree with each leaf replaced by a piece.
    fn refine(&self, pieces: &mut impl Iterator<Item = Sh>) -> Sh {
        match self {
            Sh::Leaf(_) => pieces.next().unwrap_or(Sh::Leaf(1)),
            Sh::Tuple(v) => Sh::Tuple(v.iter().map(|x| x.refine(pieces)).collect()),
        }
    }
}

/// The digits of `i` over `sizes`, last fastest.
#[must_use]
pub fn digits(mut i: i64, sizes: &[i64]) -> Vec<i64> {
    let mut c = vec![0; sizes.len()];
    for j in (0..sizes.len()).rev() {
        c[j] = i % sizes[j];
        i /= sizes[j];
    }
    c
}

/// The flat index of digits over `sizes`, last fastest.
#[must_use]
pub fn flat(c: &[i64], sizes: &[i64]) -> i64 {
    c.iter().zip(sizes).fold(0, |a, (x, n)| a * n + x)
}

/// A space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sp {
    /// `logical`
    Logical,
    /// `thread-value`
    Tv,
    /// `physical`
    Physical,
}

impl Sp {
    /// As written in `layout!`.
    #[must_use]
    pub fn text(self) -> &'static str {
        match self {
            Sp::Logical => "logical",
            Sp::Tv => "thread-value",
            Sp::Physical => "physical",
        }
    }
}

/// A declared layout: `layout! { pub const NAME = LAYOUT, DOM -> COD[, swizzle(..)]; }`.
#[derive(Clone, Debug)]
pub struct Decl {
    /// The item's name.
    pub name: String,
    /// The shape.
    pub shape: Sh,
    /// One stride per leaf, `None` for the broadcast `_`.
    pub stride: Vec<Option<i64>>,
    /// Names of the top-level entries (empty: unnamed).
    pub names: Vec<Option<String>>,
    /// Domain space.
    pub dom: Sp,
    /// Codomain space.
    pub cod: Sp,
    /// `(b, src, dst)` of a swizzle option.
    pub swizzle: Option<(u32, u32, u32)>,
}

fn stride_text(shape: &Sh, strides: &mut impl Iterator<Item = Option<i64>>) -> String {
    match shape {
        Sh::Leaf(_) => match strides.next().flatten() {
            Some(d) => d.to_string(),
            None => "_".to_string(),
        },
        Sh::Tuple(v) => {
            let parts: Vec<String> = v.iter().map(|x| stride_text(x, strides)).collect();
            format!("({})", parts.join(","))
        }
    }
}

impl Decl {
    /// `shape:stride`, with the names of the top-level entries.
    #[must_use]
    pub fn layout_text(&self) -> String {
        let strides = stride_text(&self.shape, &mut self.stride.iter().copied());
        let shape = match (&self.shape, self.names.is_empty()) {
            (Sh::Tuple(v), false) => {
                let parts: Vec<String> = v
                    .iter()
                    .zip(&self.names)
                    .map(|(x, n)| match n {
                        Some(n) => format!("{n}: {}", x.text()),
                        None => x.text(),
                    })
                    .collect();
                format!("({})", parts.join(", "))
            }
            _ => self.shape.text(),
        };
        format!("{shape}:{strides}")
    }

    /// The declaration after `NAME =`, or inside `[..]`.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}, {} -> {}",
            self.layout_text(),
            self.dom.text(),
            self.cod.text()
        );
        if let Some((b, src, dst)) = self.swizzle {
            let _ = write!(s, ", swizzle(b = {b}, src = {src}, dst = {dst})");
        }
        s
    }

    /// Its value.
    #[must_use]
    pub fn value(&self) -> Val {
        let sizes = self.shape.leaves();
        let n = self.shape.size();
        let table = (0..n)
            .map(|i| {
                let x: i64 = digits(i, &sizes)
                    .iter()
                    .zip(&self.stride)
                    .map(|(c, d)| c * d.unwrap_or(0))
                    .sum();
                match self.swizzle {
                    Some((b, src, dst)) => swizzle(x, b, src, dst),
                    None => x,
                }
            })
            .collect();
        let names = if self.names.is_empty() {
            vec![None; self.shape.entries().len()]
        } else {
            self.names.clone()
        };
        Val {
            shape: self.shape.clone(),
            entries: self.shape.entries(),
            names: Some(names),
            table,
            dom: self.dom,
            cod: self.cod,
            composite: false,
            swizzled: self.swizzle.is_some(),
            restricted: false,
            contains_restriction: false,
            runtime: false,
            broadcast: sizes
                .iter()
                .zip(&self.stride)
                .any(|(n, d)| *n > 1 && d.is_none()),
        }
    }
}

/// `x XOR (((x >> src) & (2^b − 1)) << dst)` (spec: Swizzles).
#[must_use]
pub fn swizzle(x: i64, b: u32, src: u32, dst: u32) -> i64 {
    x ^ (((x >> src) & ((1 << b) - 1)) << dst)
}

/// A value: the map as a table over the flat domain.
#[derive(Clone, Debug)]
pub struct Val {
    /// The domain shape.
    pub shape: Sh,
    /// The top-level entries of the domain: the shape's, or for a restriction the entries
    /// still free (one free entry that is a tuple is one entry, not its children).
    pub entries: Vec<Sh>,
    /// The names of the top-level entries, when known.
    pub names: Option<Vec<Option<String>>>,
    /// The value at every flat index.
    pub table: Vec<i64>,
    /// Domain space.
    pub dom: Sp,
    /// Codomain space.
    pub cod: Sp,
    /// A composite: a layout operand only when Theorem 1 decides it is one.
    pub composite: bool,
    /// A swizzle is its last step (or the last step of its left operand).
    pub swizzled: bool,
    /// A restriction (constant + map).
    pub restricted: bool,
    /// A restriction somewhere inside (the left operand of a composite).
    pub contains_restriction: bool,
    /// Restricted by a run-time value.
    pub runtime: bool,
    /// Has a broadcast mode of size > 1.
    pub broadcast: bool,
}

impl Val {
    /// The number of positions of the domain.
    #[must_use]
    pub fn size(&self) -> i64 {
        self.table.len() as i64
    }

    fn is_permutation(&self) -> bool {
        let mut seen = vec![false; self.table.len()];
        self.table.iter().all(|&x| {
            usize::try_from(x)
                .ok()
                .and_then(|x| seen.get_mut(x))
                .is_some_and(|s| !std::mem::replace(s, true))
        })
    }
}

/// The entry of `restrict`.
#[derive(Clone, Debug)]
pub enum Entry {
    /// By position among the free entries.
    Pos(usize),
    /// By name.
    Name(String),
}

/// The value of `restrict`.
#[derive(Clone, Debug)]
pub enum RVal {
    /// An integer (a flat index into the entry).
    Int(i64),
    /// A natural coordinate of the entry's shape.
    Coord(Sh),
    /// An integer given at run time.
    Runtime(i64),
}

/// The arrangement of `repeat`/`interleave`.
#[derive(Clone, Debug)]
pub enum Arr {
    /// A literal `shape:stride`, strides per leaf.
    Lit(Sh, Vec<i64>),
    /// An expression.
    Expr(Box<Expr>),
}

impl Arr {
    /// A literal arrangement as written, `(3):(1)` or `(2,2):(1,2)` (empty for an expression).
    #[must_use]
    pub fn literal_text(&self) -> String {
        let Arr::Lit(sh, d) = self else {
            return String::new();
        };
        let d = stride_text(sh, &mut d.iter().map(|&x| Some(x)));
        let sh = match sh {
            Sh::Leaf(n) => format!("({n})"),
            Sh::Tuple(_) => sh.text(),
        };
        let d = if d.starts_with('(') {
            d
        } else {
            format!("({d})")
        };
        format!("{sh}:{d}")
    }
}

/// An expression tree.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A declared item, by index.
    Name(usize),
    /// A declaration written in place, `[..]`.
    Lit(usize),
    /// `compose(A, B)`.
    Compose(Box<Expr>, Box<Expr>),
    /// `divide(L, tile)` or (`true`) `divide_modes(L, tile)`.
    Divide(Box<Expr>, Vec<i64>, bool),
    /// `restrict(M, entry = value, ..)`.
    Restrict(Box<Expr>, Vec<(Entry, RVal)>),
    /// `repeat(L, A)` or (`true`) `interleave(L, A)`.
    Repeat(Box<Expr>, Arr, bool),
    /// `repeat_modewise(L, A)` or (`true`) `repeat_modewise_raked(L, A)`.
    Modewise(Box<Expr>, Arr, bool),
    /// `broadcast(L, shape)`.
    Broadcast(Box<Expr>, Sh),
    /// `inverse(L)`.
    Inverse(Box<Expr>),
    /// `swizzle(M, b = .., src = .., dst = ..)`.
    Swizzle(Box<Expr>, u32, u32, u32),
}

/// The operations of `layout!` expressions.
pub const OPS: [&str; 11] = [
    "compose",
    "divide",
    "divide_modes",
    "restrict",
    "repeat",
    "interleave",
    "repeat_modewise",
    "repeat_modewise_raked",
    "broadcast",
    "inverse",
    "swizzle",
];

impl Expr {
    /// The operation at the root (`item` for an operand).
    #[must_use]
    pub fn op(&self) -> &'static str {
        match self {
            Expr::Name(_) | Expr::Lit(_) => "item",
            Expr::Compose(..) => "compose",
            Expr::Divide(_, _, false) => "divide",
            Expr::Divide(_, _, true) => "divide_modes",
            Expr::Restrict(..) => "restrict",
            Expr::Repeat(_, _, false) => "repeat",
            Expr::Repeat(_, _, true) => "interleave",
            Expr::Modewise(_, _, false) => "repeat_modewise",
            Expr::Modewise(_, _, true) => "repeat_modewise_raked",
            Expr::Broadcast(..) => "broadcast",
            Expr::Inverse(_) => "inverse",
            Expr::Swizzle(..) => "swizzle",
        }
    }

    /// Nesting depth (an operand is 0).
    #[must_use]
    pub fn depth(&self) -> usize {
        match self {
            Expr::Name(_) | Expr::Lit(_) => 0,
            Expr::Compose(a, b) => 1 + a.depth().max(b.depth()),
            Expr::Repeat(a, Arr::Expr(b), _) | Expr::Modewise(a, Arr::Expr(b), _) => {
                1 + a.depth().max(b.depth())
            }
            Expr::Divide(a, ..)
            | Expr::Restrict(a, _)
            | Expr::Repeat(a, ..)
            | Expr::Modewise(a, ..)
            | Expr::Broadcast(a, _)
            | Expr::Inverse(a)
            | Expr::Swizzle(a, ..) => 1 + a.depth(),
        }
    }

    /// Whether a `compose` in the tree has a composition as its left or right operand:
    /// `(left-nested, right-nested)`.
    #[must_use]
    pub fn nesting(&self) -> (bool, bool) {
        let sub = |e: &Expr| e.nesting();
        let or = |a: (bool, bool), b: (bool, bool)| (a.0 || b.0, a.1 || b.1);
        match self {
            Expr::Name(_) | Expr::Lit(_) => (false, false),
            Expr::Compose(a, b) => or(
                (
                    matches!(**a, Expr::Compose(..)),
                    matches!(**b, Expr::Compose(..)),
                ),
                or(sub(a), sub(b)),
            ),
            Expr::Repeat(a, Arr::Expr(b), _) | Expr::Modewise(a, Arr::Expr(b), _) => {
                or(sub(a), sub(b))
            }
            Expr::Divide(a, ..)
            | Expr::Restrict(a, _)
            | Expr::Repeat(a, ..)
            | Expr::Modewise(a, ..)
            | Expr::Broadcast(a, _)
            | Expr::Inverse(a)
            | Expr::Swizzle(a, ..) => sub(a),
        }
    }

    /// The expression as written inside `layout!(..)`.
    #[must_use]
    pub fn render(&self, decls: &[Decl]) -> String {
        match self {
            Expr::Name(i) => decls[*i].name.clone(),
            Expr::Lit(i) => format!("[{}]", decls[*i].text()),
            Expr::Compose(a, b) => format!("compose({}, {})", a.render(decls), b.render(decls)),
            Expr::Divide(a, tile, modes) => {
                let t: Vec<String> = tile.iter().map(i64::to_string).collect();
                let op = if *modes { "divide_modes" } else { "divide" };
                format!("{op}({}, ({}))", a.render(decls), t.join(", "))
            }
            Expr::Restrict(a, fixed) => {
                let mut s = format!("restrict({}", a.render(decls));
                for (e, v) in fixed {
                    let e = match e {
                        Entry::Pos(p) => p.to_string(),
                        Entry::Name(n) => n.clone(),
                    };
                    let v = match v {
                        RVal::Int(x) => x.to_string(),
                        RVal::Coord(c) => c.text(),
                        RVal::Runtime(x) => format!("::std::hint::black_box({x}usize)"),
                    };
                    let _ = write!(s, ", {e} = {v}");
                }
                s.push(')');
                s
            }
            Expr::Repeat(a, arr, _) | Expr::Modewise(a, arr, _) => {
                let op = self.op();
                let arr = match arr {
                    Arr::Lit(..) => arr.literal_text(),
                    Arr::Expr(b) => b.render(decls),
                };
                format!("{op}({}, {arr})", a.render(decls))
            }
            Expr::Broadcast(a, sh) => {
                let sh = match sh {
                    Sh::Leaf(n) => format!("({n})"),
                    Sh::Tuple(_) => sh.text(),
                };
                format!("broadcast({}, {sh})", a.render(decls))
            }
            Expr::Inverse(a) => format!("inverse({})", a.render(decls)),
            Expr::Swizzle(a, b, src, dst) => format!(
                "swizzle({}, b = {b}, src = {src}, dst = {dst})",
                a.render(decls)
            ),
        }
    }
}

/// Theorem 1's scan (spec: The scan) of `g` on `[0, n)`: the chain `{1} ∪ R`, ascending, or `None`.
#[must_use]
pub fn scan(g: &[i64]) -> Option<Vec<usize>> {
    let n = g.len();
    let mut rho: Vec<i64> = (0..n)
        .map(|t| if t == 0 { 0 } else { g[t] - g[t - 1] })
        .collect();
    let (mut w_last, mut chain) = (1, vec![1]);
    for t in 1..n {
        if rho[t] != 0 {
            if !n.is_multiple_of(t) || !t.is_multiple_of(w_last) {
                return None;
            }
            if t != 1 {
                chain.push(t);
            }
            let a = rho[t];
            w_last = t;
            for r in rho.iter_mut().skip(t).step_by(t) {
                *r -= a;
            }
        }
    }
    Some(chain)
}

/// The shape a composite is read through as a layout: each leaf of the domain refined by its
/// chain (coarsest refinement, slowest piece first), when Theorem 1 (by leaves) decides it is
/// one; `Err` with the reason otherwise.
fn decided_shape(v: &Val) -> Result<Sh, String> {
    let sizes = v.shape.leaves();
    if v.table[0] != 0 {
        return Err("not a layout: f(0) != 0".into());
    }
    let weights: Vec<i64> = (0..sizes.len())
        .map(|j| sizes[j + 1..].iter().product())
        .collect();
    for (i, &f) in v.table.iter().enumerate() {
        let c = digits(i as i64, &sizes);
        let sum: i64 = c
            .iter()
            .zip(&weights)
            .map(|(x, w)| v.table[(x * w) as usize])
            .sum();
        if sum != f {
            return Err("not a layout: not separable".into());
        }
    }
    let mut pieces = Vec::new();
    for (j, &n) in sizes.iter().enumerate() {
        let g: Vec<i64> = (0..n).map(|t| v.table[(t * weights[j]) as usize]).collect();
        let chain = scan(&g).ok_or("not a layout: the scan rejects")?;
        if chain.len() == 1 {
            pieces.push(Sh::Leaf(n));
        } else {
            let mut parts = Vec::new();
            let mut upper = n as usize;
            for &w in chain.iter().rev() {
                parts.push(Sh::Leaf((upper / w) as i64));
                upper = w;
            }
            pieces.push(Sh::Tuple(parts));
        }
    }
    Ok(v.shape.refine(&mut pieces.into_iter()))
}

/// An operand of a layout operation, read as a layout: its shape.
fn as_layout(v: &Val) -> Result<Sh, String> {
    if v.runtime {
        return Err("run-time restriction not last".into());
    }
    if v.restricted || v.contains_restriction {
        return Err("layout operation on a restriction".into());
    }
    if v.swizzled {
        return Err("layout operation on a swizzled map".into());
    }
    if v.composite {
        decided_shape(v)
    } else {
        Ok(v.shape.clone())
    }
}

/// The tile and rest pieces of a mode of leaves `sizes` cut by `k` (docs/algebra.md §3).
fn split(sizes: &[i64], k: i64) -> Result<(Vec<i64>, Vec<i64>), String> {
    let size: i64 = sizes.iter().product();
    if k < 1 || size % k != 0 {
        return Err("divide: not divisible".into());
    }
    let mut needed = k;
    for q in (0..sizes.len()).rev() {
        let n = sizes[q];
        if n == needed && q > 0 {
            return Ok((sizes[q..].to_vec(), sizes[..q].to_vec()));
        }
        if n % needed == 0 {
            let mut tile = vec![needed];
            tile.extend(&sizes[q + 1..]);
            let mut rest = sizes[..q].to_vec();
            rest.push(n / needed);
            return Ok((tile, rest));
        }
        if needed % n != 0 {
            return Err("divide: tile split".into());
        }
        needed /= n;
    }
    Err("divide: not divisible".into())
}

fn piece(sizes: &[i64]) -> Sh {
    if sizes.len() == 1 {
        Sh::Leaf(sizes[0])
    } else {
        Sh::Tuple(sizes.iter().map(|&n| Sh::Leaf(n)).collect())
    }
}

/// The value of a literal arrangement, or `Err` when it is not a dense bijection.
fn arrangement(sh: &Sh, d: &[i64]) -> Result<Val, String> {
    let sizes = sh.leaves();
    let table: Vec<i64> = (0..sh.size())
        .map(|i| digits(i, &sizes).iter().zip(d).map(|(c, d)| c * d).sum())
        .collect();
    let v = Val {
        shape: sh.clone(),
        entries: sh.entries(),
        names: None,
        table,
        dom: Sp::Logical,
        cod: Sp::Logical,
        composite: false,
        swizzled: false,
        restricted: false,
        contains_restriction: false,
        runtime: false,
        broadcast: false,
    };
    if v.is_permutation() {
        Ok(v)
    } else {
        Err("arrangement not dense".into())
    }
}

/// The arrangement of `repeat`, `interleave` and the per-mode products: a literal, or an
/// expression whose value is a dense bijection.
fn arrangement_of(arr: &Arr, decls: &[Decl]) -> Result<Val, String> {
    match arr {
        Arr::Lit(s, d) => arrangement(s, d),
        Arr::Expr(b) => {
            let bv = eval(b, decls)?;
            let bsh = as_layout(&bv)?;
            if !bv.is_permutation() {
                return Err("arrangement not dense".into());
            }
            Ok(Val { shape: bsh, ..bv })
        }
    }
}

/// Evaluates an expression; `Err` names the rule it breaks.
///
/// # Errors
/// The broken rule, in words.
pub fn eval(e: &Expr, decls: &[Decl]) -> Result<Val, String> {
    match e {
        Expr::Name(i) | Expr::Lit(i) => Ok(decls[*i].value()),
        Expr::Compose(a, b) => {
            let (a, b) = (eval(a, decls)?, eval(b, decls)?);
            if a.runtime || b.runtime {
                return Err("run-time restriction not last".into());
            }
            if b.restricted || b.swizzled || b.cod != Sp::Logical {
                return Err("compose: right operand not into logical".into());
            }
            if a.dom != Sp::Logical {
                return Err("compose: left domain not logical".into());
            }
            if a.size() != b.size() {
                return Err("compose: size mismatch".into());
            }
            let table = b.table.iter().map(|&x| a.table[x as usize]).collect();
            Ok(Val {
                shape: b.shape,
                entries: b.entries,
                names: b.names,
                table,
                dom: b.dom,
                cod: a.cod,
                composite: true,
                swizzled: a.swizzled,
                restricted: false,
                contains_restriction: a.restricted || a.contains_restriction,
                runtime: false,
                broadcast: a.broadcast,
            })
        }
        Expr::Restrict(a, fixed) => {
            let v = eval(a, decls)?;
            if v.runtime {
                return Err("restrict after a run-time restriction".into());
            }
            if v.cod != Sp::Physical {
                return Err("restrict: not into physical".into());
            }
            let entries = v.entries.clone();
            let esizes: Vec<i64> = entries.iter().map(Sh::size).collect();
            let mut values: Vec<Option<i64>> = vec![None; entries.len()];
            let mut runtime = false;
            for (entry, value) in fixed {
                let pos = match entry {
                    Entry::Pos(p) => *p,
                    Entry::Name(n) => {
                        let names = v.names.as_ref().ok_or("restrict: names unknown")?;
                        names
                            .iter()
                            .position(|x| x.as_deref() == Some(n.as_str()))
                            .ok_or("restrict: unknown name")?
                    }
                };
                if pos >= entries.len() || values[pos].is_some() {
                    return Err("restrict: no such free entry".into());
                }
                let x = match value {
                    RVal::Int(x) => *x,
                    RVal::Runtime(x) => {
                        runtime = true;
                        *x
                    }
                    RVal::Coord(c) => {
                        let shape = &entries[pos];
                        let (cl, sl) = (c.leaves(), shape.leaves());
                        let same_profile = c.with_leaves(&mut sl.iter().copied()) == *shape;
                        if !same_profile || cl.iter().zip(&sl).any(|(x, n)| *x < 0 || x >= n) {
                            return Err("restrict: coordinate outside the entry".into());
                        }
                        flat(&cl, &sl)
                    }
                };
                if !(0..esizes[pos]).contains(&x) {
                    return Err("restrict: value outside the entry".into());
                }
                values[pos] = Some(x);
            }
            let free: Vec<usize> = (0..entries.len())
                .filter(|&i| values[i].is_none())
                .collect();
            let fsizes: Vec<i64> = free.iter().map(|&i| esizes[i]).collect();
            let n: i64 = fsizes.iter().product();
            let table = (0..n)
                .map(|i| {
                    let d = digits(i, &fsizes);
                    let mut full: Vec<i64> = values.iter().map(|x| x.unwrap_or(0)).collect();
                    for (k, &f) in free.iter().enumerate() {
                        full[f] = d[k];
                    }
                    v.table[flat(&full, &esizes) as usize]
                })
                .collect();
            let names = v
                .names
                .as_ref()
                .map(|ns| free.iter().map(|&i| ns[i].clone()).collect());
            let kept: Vec<Sh> = free.iter().map(|&i| entries[i].clone()).collect();
            Ok(Val {
                shape: Sh::of_entries(kept.clone()),
                entries: kept,
                names,
                table,
                restricted: true,
                runtime,
                ..v
            })
        }
        Expr::Swizzle(a, b, src, dst) => {
            let v = eval(a, decls)?;
            if v.cod != Sp::Physical {
                return Err("swizzle: not into physical".into());
            }
            if v.swizzled {
                return Err("swizzle: a second swizzle".into());
            }
            if *b == 0 || (*src < dst + b && *dst < src + b) {
                return Err("swizzle: fields overlap".into());
            }
            if src + b > 62 || dst + b > 62 {
                return Err("swizzle: too wide".into());
            }
            if v.table.iter().any(|&x| x < 0) {
                return Err("swizzle: negative offset".into());
            }
            let table = v
                .table
                .iter()
                .map(|&x| swizzle(x, *b, *src, *dst))
                .collect();
            Ok(Val {
                table,
                swizzled: true,
                ..v
            })
        }
        Expr::Divide(a, tile, modes) => {
            let v = eval(a, decls)?;
            let sh = as_layout(&v)?;
            let entries = sh.entries();
            if entries.len() != tile.len() {
                return Err("divide: tile rank".into());
            }
            let mut cuts = Vec::new();
            for (m, &k) in entries.iter().zip(tile) {
                cuts.push(split(&m.leaves(), k)?);
            }
            if *modes {
                let shape = Sh::Tuple(
                    cuts.iter()
                        .map(|(t, r)| Sh::Tuple(vec![piece(r), piece(t)]))
                        .collect(),
                );
                return Ok(Val {
                    entries: shape.entries(),
                    shape,
                    composite: false,
                    ..v
                });
            }
            let n: Vec<i64> = entries.iter().map(Sh::size).collect();
            let rs: Vec<i64> = n.iter().zip(tile).map(|(n, k)| n / k).collect();
            let (kt, rt): (i64, i64) = (tile.iter().product(), rs.iter().product());
            let table = (0..kt * rt)
                .map(|i| {
                    let (t, r) = (digits(i / rt, tile), digits(i % rt, &rs));
                    let m: Vec<i64> = (0..n.len()).map(|j| r[j] * tile[j] + t[j]).collect();
                    v.table[flat(&m, &n) as usize]
                })
                .collect();
            let tiles = cuts.iter().map(|(t, _)| piece(t)).collect();
            let rests = cuts.iter().map(|(_, r)| piece(r)).collect();
            let shape = Sh::Tuple(vec![Sh::Tuple(tiles), Sh::Tuple(rests)]);
            Ok(Val {
                entries: shape.entries(),
                shape,
                names: Some(vec![Some("tile".into()), Some("rest".into())]),
                table,
                composite: false,
                ..v
            })
        }
        Expr::Repeat(a, arr, il) => {
            let v = eval(a, decls)?;
            let sh = as_layout(&v)?;
            let av = arrangement_of(arr, decls)?;
            let (nl, na) = (v.size(), av.size());
            let (lo, hi) = (
                v.table.iter().min().copied().unwrap_or(0),
                v.table.iter().max().copied().unwrap_or(0),
            );
            let m = hi - lo + 1;
            let (shape, table) = if *il {
                let t = (0..nl * na)
                    .map(|i| na * v.table[(i / na) as usize] + av.table[(i % na) as usize])
                    .collect();
                (Sh::Tuple(vec![sh.group(), av.shape.group()]), t)
            } else {
                let t = (0..nl * na)
                    .map(|i| m * av.table[(i / nl) as usize] + v.table[(i % nl) as usize])
                    .collect();
                (Sh::Tuple(vec![av.shape.group(), sh.group()]), t)
            };
            Ok(Val {
                entries: shape.entries(),
                shape,
                names: None,
                table,
                composite: false,
                ..v
            })
        }
        Expr::Modewise(a, arr, raked) => {
            // docs/algebra.md §4: mode `i` becomes `(a_i, n_i)` (raked: `(n_i, a_i)`), its flat
            // index split into a copy `x` and a position `y`, mapped to `M·A(x) + L(y)` with
            // `M = max − min + 1` over `L`'s offsets.
            let v = eval(a, decls)?;
            let sh = as_layout(&v)?;
            let av = arrangement_of(arr, decls)?;
            let (le, ae) = (sh.entries(), av.shape.entries());
            if le.len() != ae.len() {
                return Err("modewise: arrangement rank".into());
            }
            let (lo, hi) = (
                v.table.iter().min().copied().unwrap_or(0),
                v.table.iter().max().copied().unwrap_or(0),
            );
            let m = hi - lo + 1;
            let n: Vec<i64> = le.iter().map(Sh::size).collect();
            let c: Vec<i64> = ae.iter().map(Sh::size).collect();
            let sizes: Vec<i64> = n.iter().zip(&c).map(|(n, c)| n * c).collect();
            let table = (0..sizes.iter().product::<i64>())
                .map(|i| {
                    let k = digits(i, &sizes);
                    let (mut x, mut y) = (Vec::new(), Vec::new());
                    for j in 0..k.len() {
                        if *raked {
                            x.push(k[j] % c[j]);
                            y.push(k[j] / c[j]);
                        } else {
                            x.push(k[j] / n[j]);
                            y.push(k[j] % n[j]);
                        }
                    }
                    m * av.table[flat(&x, &c) as usize] + v.table[flat(&y, &n) as usize]
                })
                .collect();
            let shape = Sh::Tuple(
                le.into_iter()
                    .zip(ae)
                    .map(|(l, a)| Sh::Tuple(if *raked { vec![l, a] } else { vec![a, l] }))
                    .collect(),
            );
            Ok(Val {
                entries: shape.entries(),
                shape,
                names: None,
                table,
                composite: false,
                ..v
            })
        }
        Expr::Broadcast(a, s) => {
            let v = eval(a, decls)?;
            let sh = as_layout(&v)?;
            if v.cod != Sp::Physical {
                return Err("broadcast: not into physical".into());
            }
            let n = s.size();
            let table = (0..n * v.size())
                .map(|i| v.table[(i % v.size()) as usize])
                .collect();
            let shape = Sh::Tuple(vec![s.clone(), sh.group()]);
            Ok(Val {
                entries: shape.entries(),
                shape,
                names: None,
                table,
                composite: false,
                broadcast: v.broadcast || n > 1,
                ..v
            })
        }
        Expr::Inverse(a) => {
            let v = eval(a, decls)?;
            let sh = as_layout(&v)?;
            if v.cod == Sp::Physical {
                return Err("inverse: into physical".into());
            }
            if !v.is_permutation() {
                return Err("inverse: not dense".into());
            }
            let sizes = sh.leaves();
            let mut leaves: Vec<(i64, i64)> = (0..sizes.len())
                .filter(|&j| sizes[j] > 1)
                .map(|j| {
                    let w: i64 = sizes[j + 1..].iter().product();
                    (v.table[w as usize], sizes[j])
                })
                .collect();
            leaves.sort_by_key(|x| std::cmp::Reverse(x.0));
            let shape = piece(&leaves.iter().map(|l| l.1).collect::<Vec<_>>());
            let mut table = vec![0; v.table.len()];
            for (i, &x) in v.table.iter().enumerate() {
                table[x as usize] = i as i64;
            }
            Ok(Val {
                entries: shape.entries(),
                shape,
                names: None,
                table,
                dom: v.cod,
                cod: v.dom,
                composite: false,
                ..v
            })
        }
    }
}

/// The generated declarations and trees.
pub struct Generated {
    /// The declared items, `D0`, `D1`, ….
    pub decls: Vec<Decl>,
    /// Trees the evaluator accepts, with their values.
    pub valid: Vec<(Expr, Val)>,
    /// Trees the evaluator rejects, with the rule they break.
    pub invalid: Vec<(Expr, String)>,
}

/// Sizes of the declared layouts.
const SIZES: [i64; 9] = [4, 6, 8, 12, 16, 24, 32, 48, 64];

/// A random factorisation of `n` into at most three leaves of size ≥ 2.
fn factor(rng: &mut Rng, n: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut rest = n;
    while rest > 1 {
        if out.len() == 2 {
            out.push(rest);
            break;
        }
        let ds: Vec<i64> = (2..=rest).filter(|d| rest % d == 0).collect();
        let d = ds[rng.below(ds.len())];
        out.push(d);
        rest /= d;
    }
    rng.shuffle(&mut out);
    out
}

fn group_leaves(rng: &mut Rng, l: &[i64]) -> Sh {
    let leaf = |i: usize| Sh::Leaf(l[i]);
    match l.len() {
        1 => leaf(0),
        2 => Sh::Tuple(vec![leaf(0), leaf(1)]),
        _ => match rng.below(3) {
            0 => Sh::Tuple(vec![leaf(0), leaf(1), leaf(2)]),
            1 => Sh::Tuple(vec![Sh::Tuple(vec![leaf(0), leaf(1)]), leaf(2)]),
            _ => Sh::Tuple(vec![leaf(0), Sh::Tuple(vec![leaf(1), leaf(2)])]),
        },
    }
}

/// Strides of the leaves `sizes` in a random order, each the running product (plus padding
/// when `pad`): a dense bijection without padding, alias-free with it.
fn running_strides(rng: &mut Rng, sizes: &[i64], pad: bool) -> Vec<i64> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    rng.shuffle(&mut order);
    let mut s = vec![0; sizes.len()];
    let mut w = 1;
    for j in order {
        s[j] = w;
        w = w * sizes[j] + if pad { rng.pick(&[0, 0, 1, 3]) } else { 0 };
    }
    s
}

fn make_decl(rng: &mut Rng, k: usize, n: i64, dom: Sp, cod: Sp, named: bool) -> Decl {
    let leaves = factor(rng, n);
    let shape = group_leaves(rng, &leaves);
    let stride = running_strides(rng, &leaves, cod == Sp::Physical)
        .into_iter()
        .map(Some)
        .collect();
    let names = match &shape {
        Sh::Tuple(v) if v.len() == 2 && named => {
            let (a, b) = if dom == Sp::Tv {
                ("thread", "value")
            } else {
                ("rows", "cols")
            };
            vec![Some(a.to_string()), Some(b.to_string())]
        }
        _ => Vec::new(),
    };
    Decl {
        name: format!("D{k}"),
        shape,
        stride,
        names,
        dom,
        cod,
        swizzle: None,
    }
}

fn declarations(rng: &mut Rng) -> Vec<Decl> {
    let mut out = Vec::new();
    for n in SIZES {
        let kinds = [
            (Sp::Logical, Sp::Physical, false),
            (Sp::Logical, Sp::Physical, true),
            (Sp::Logical, Sp::Logical, false),
            (Sp::Logical, Sp::Logical, false),
            (Sp::Tv, Sp::Logical, true),
            (Sp::Tv, Sp::Logical, false),
            (Sp::Logical, Sp::Tv, false),
            (Sp::Tv, Sp::Tv, false),
        ];
        for (dom, cod, named) in kinds {
            let k = out.len();
            out.push(make_decl(rng, k, n, dom, cod, named));
        }
    }
    let lp = |k: usize, sh: Sh, stride: Vec<Option<i64>>, swizzle| Decl {
        name: format!("D{k}"),
        shape: sh,
        stride,
        names: Vec::new(),
        dom: Sp::Logical,
        cod: Sp::Physical,
        swizzle,
    };
    let two = |a, b| Sh::Tuple(vec![Sh::Leaf(a), Sh::Leaf(b)]);
    let specials = [
        (two(4, 8), vec![Some(8), Some(1)], Some((1, 3, 0))),
        (two(8, 8), vec![Some(8), Some(1)], Some((2, 4, 1))),
        (two(4, 6), vec![Some(6), Some(1)], Some((1, 4, 1))),
        (two(4, 8), vec![None, Some(1)], None),
        (two(8, 4), vec![Some(1), None], None),
        (two(4, 8), vec![Some(-8), Some(1)], None),
        (two(8, 6), vec![Some(1), Some(-8)], None),
    ];
    for (sh, st, sw) in specials {
        let k = out.len();
        out.push(lp(k, sh, st, sw));
    }
    out
}

/// A node of the pool: a tree, its value, and its shape as a layout when it can be one.
struct Node {
    e: Expr,
    v: Val,
    lay: Option<Sh>,
}

fn node(e: Expr, v: Val) -> Node {
    let lay = as_layout(&v).ok();
    Node { e, v, lay }
}

/// A random node below `level` satisfying `pred`, preferring one of depth `level - 1`; an item
/// is sometimes written in place.
fn pick(
    rng: &mut Rng,
    pool: &[Node],
    level: usize,
    pred: &dyn Fn(&Node) -> bool,
) -> Option<(Expr, Val, Option<Sh>)> {
    let deep: Vec<&Node> = pool
        .iter()
        .filter(|n| n.e.depth() + 1 == level && pred(n))
        .collect();
    let any: Vec<&Node> = pool
        .iter()
        .filter(|n| n.e.depth() < level && pred(n))
        .collect();
    let n = if !deep.is_empty() && rng.chance(70) {
        deep[rng.below(deep.len())]
    } else if !any.is_empty() {
        any[rng.below(any.len())]
    } else {
        return None;
    };
    let e = match n.e {
        Expr::Name(i) if rng.chance(15) => Expr::Lit(i),
        _ => n.e.clone(),
    };
    Some((e, n.v.clone(), n.lay.clone()))
}

/// The tile entries `k` (a proper divisor) that cut a mode of these leaves.
fn tile_choices(leaves: &[i64]) -> Vec<i64> {
    let n: i64 = leaves.iter().product();
    (2..n).filter(|&k| split(leaves, k).is_ok()).collect()
}

fn candidate(rng: &mut Rng, pool: &[Node], level: usize, op: &str) -> Option<Expr> {
    let wild = rng.chance(8);
    // A composite whose left operand is restricted is a layout operand only when f(0) = 0;
    // the specification is silent there, so such operands are not generated.
    let layout_or_wild =
        |n: &Node| n.lay.is_some() || (wild && (n.v.restricted || !n.v.contains_restriction));
    let b = Box::new;
    Some(match op {
        "compose" => {
            // Compositions as operands are favoured: half the right operands and a third of
            // the left ones are compositions when there is one.
            let nested_right = rng.chance(50);
            let nested_left = rng.chance(33);
            let right = |n: &Node| {
                wild || (n.v.cod == Sp::Logical && !n.v.swizzled && !n.v.restricted && !n.v.runtime)
            };
            let (r, rv, _) = pick(rng, pool, level, &|n| {
                right(n) && (!nested_right || matches!(n.e, Expr::Compose(..)))
            })
            .or_else(|| pick(rng, pool, level, &right))?;
            let size = rv.size();
            let left =
                |n: &Node| n.v.dom == Sp::Logical && (wild || (n.v.size() == size && !n.v.runtime));
            let (l, ..) = pick(rng, pool, level, &|n| {
                left(n) && (!nested_left || matches!(n.e, Expr::Compose(..)))
            })
            .or_else(|| pick(rng, pool, level, &left))
            .or_else(|| {
                pick(rng, pool, 1, &|n| {
                    n.v.dom == Sp::Logical && n.v.size() == size
                })
            })?;
            Expr::Compose(b(l), b(r))
        }
        "divide" | "divide_modes" => {
            let (a, v, lay) = pick(rng, pool, level, &layout_or_wild)?;
            let lay = lay.unwrap_or_else(|| v.shape.clone());
            let mut tile = Vec::new();
            for m in lay.entries() {
                let ks = tile_choices(&m.leaves());
                if wild || ks.is_empty() {
                    tile.push(rng.range(2, m.size().max(2)));
                } else {
                    tile.push(rng.pick(&ks));
                }
            }
            if wild && rng.chance(30) {
                tile.push(2);
            }
            Expr::Divide(b(a), tile, op == "divide_modes")
        }
        "restrict" => {
            let (a, v, _) = pick(rng, pool, level, &|n| {
                wild || (n.v.cod == Sp::Physical && !n.v.runtime)
            })?;
            let entries = v.entries.clone();
            if entries.is_empty() {
                return Some(Expr::Restrict(b(a), vec![(Entry::Pos(0), RVal::Int(0))]));
            }
            let mut free: Vec<usize> = (0..entries.len()).collect();
            rng.shuffle(&mut free);
            let count = if entries.len() > 1 && rng.chance(35) {
                2
            } else {
                1
            };
            let mut fixed = Vec::new();
            let mut runtime = false;
            for &p in free.iter().take(count) {
                let esize = entries[p].size();
                let name = v.names.as_ref().and_then(|ns| {
                    let n = ns.get(p)?.clone()?;
                    (ns.iter().filter(|x| x.as_deref() == Some(&n)).count() == 1).then_some(n)
                });
                let entry = match name {
                    Some(n) if rng.chance(40) => Entry::Name(n),
                    _ => Entry::Pos(p),
                };
                let value = match &entries[p] {
                    Sh::Tuple(t) if t.len() > 1 && rng.chance(30) => {
                        let l = entries[p].leaves();
                        let c: Vec<i64> = l.iter().map(|&n| rng.range(0, n - 1)).collect();
                        RVal::Coord(entries[p].with_leaves(&mut c.into_iter()))
                    }
                    _ if !runtime && rng.chance(20) => {
                        runtime = true;
                        RVal::Runtime(rng.range(0, esize - 1))
                    }
                    _ => RVal::Int(rng.range(0, esize - 1)),
                };
                fixed.push((entry, value));
            }
            if wild {
                let e = entries.len();
                fixed[0].1 = RVal::Int(entries[free[0]].size());
                if rng.chance(50) {
                    fixed[0] = (Entry::Pos(e), RVal::Int(0));
                }
            }
            // Positions count the entries still free in this call only when they are listed
            // in increasing order; keep the positions as absolute entries of the operand.
            Expr::Restrict(b(a), fixed)
        }
        "repeat" | "interleave" | "repeat_modewise" | "repeat_modewise_raked" => {
            let (a, ..) = pick(rng, pool, level, &layout_or_wild)?;
            let arr = if rng.chance(70) || wild {
                let lits: [(Sh, Vec<i64>); 8] = [
                    (Sh::Leaf(2), vec![1]),
                    (Sh::Leaf(3), vec![1]),
                    (Sh::Leaf(4), vec![1]),
                    (Sh::Tuple(vec![Sh::Leaf(2), Sh::Leaf(2)]), vec![1, 2]),
                    (Sh::Tuple(vec![Sh::Leaf(2), Sh::Leaf(2)]), vec![2, 1]),
                    (Sh::Tuple(vec![Sh::Leaf(2), Sh::Leaf(3)]), vec![1, 2]),
                    (Sh::Tuple(vec![Sh::Leaf(3), Sh::Leaf(2)]), vec![2, 1]),
                    (Sh::Leaf(2), vec![2]),
                ];
                let (sh, d) = lits[rng.below(if wild { 8 } else { 7 })].clone();
                Arr::Lit(sh, d)
            } else {
                let (x, ..) = pick(rng, pool, level, &|n| {
                    n.lay.is_some() && n.v.size() <= 6 && n.v.is_permutation()
                })?;
                Arr::Expr(b(x))
            };
            match op {
                "repeat" | "interleave" => Expr::Repeat(b(a), arr, op == "interleave"),
                _ => Expr::Modewise(b(a), arr, op == "repeat_modewise_raked"),
            }
        }
        "broadcast" => {
            let (a, ..) = pick(rng, pool, level, &|n| {
                n.lay.is_some() && (wild || n.v.cod == Sp::Physical)
            })?;
            let shapes = [
                Sh::Leaf(2),
                Sh::Leaf(3),
                Sh::Tuple(vec![Sh::Leaf(2), Sh::Leaf(2)]),
            ];
            Expr::Broadcast(b(a), shapes[rng.below(3)].clone())
        }
        "inverse" => {
            let (a, ..) = pick(rng, pool, level, &|n| {
                n.lay.is_some() && (wild || n.v.cod != Sp::Physical)
            })?;
            Expr::Inverse(b(a))
        }
        "swizzle" => {
            let (a, v, _) = pick(rng, pool, level, &|n| {
                wild || (n.v.cod == Sp::Physical && !n.v.swizzled)
            })?;
            let mx = v.table.iter().copied().max().unwrap_or(1).max(1);
            let nb = 64 - mx.leading_zeros();
            let bits = if nb >= 4 && rng.chance(40) { 2 } else { 1 };
            let (src, dst) = if nb >= 2 * bits {
                let dst = rng.range(0, i64::from(nb - 2 * bits)) as u32;
                let src = rng.range(i64::from(dst + bits), i64::from(nb - bits)) as u32;
                (src, dst)
            } else {
                (bits, 0)
            };
            let (src, dst) = if wild && rng.chance(30) {
                (src, src)
            } else {
                (src, dst)
            };
            Expr::Swizzle(b(a), bits, src, dst)
        }
        _ => return None,
    })
}

/// The trees of one seed: every operation at every depth 1..=`max_depth`, at most `per` valid
/// trees per operation and depth, results of at most `max_size` positions; invalid trees at
/// most three per broken rule.
#[must_use]
pub fn generate(seed: u64, max_depth: usize, per: usize, max_size: i64) -> Generated {
    let mut rng = Rng(seed);
    let decls = declarations(&mut rng);
    let mut pool: Vec<Node> = decls
        .iter()
        .enumerate()
        .map(|(i, d)| node(Expr::Name(i), d.value()))
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut valid = Vec::new();
    let mut invalid: Vec<(Expr, String)> = Vec::new();
    for level in 1..=max_depth {
        let mut fresh = Vec::new();
        for op in OPS {
            let mut kept = 0;
            for _ in 0..60 {
                let Some(e) = candidate(&mut rng, &pool, level, op) else {
                    continue;
                };
                if !seen.insert(e.render(&decls)) {
                    continue;
                }
                match eval(&e, &decls) {
                    Ok(v) => {
                        if v.size() > max_size || v.shape.leaves().len() > 16 {
                            continue;
                        }
                        if kept < per && e.depth() == level {
                            valid.push((e.clone(), v.clone()));
                            kept += 1;
                        }
                        fresh.push(node(e, v));
                    }
                    Err(why) => {
                        if invalid.iter().filter(|(_, w)| *w == why).count() < 3 {
                            invalid.push((e, why));
                        }
                    }
                }
            }
        }
        pool.extend(fresh);
    }
    Generated {
        decls,
        valid,
        invalid,
    }
}

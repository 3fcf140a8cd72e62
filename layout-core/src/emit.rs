//! Emitting the offset code of a map (spec: Code emission): the layout form of a decided
//! map, the composite as written, and the cheaper of the two, rendered as Rust or C/CUDA text.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::decide::{Decision, decide};
use crate::error::Error;
use crate::map::Map;
use crate::tree::{Stride, Tree};

/// A variable of a program: a coordinate `c_i` or a temporary `t_i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Var {
    /// The i-th coordinate.
    Coord(usize),
    /// The i-th `let`.
    Temp(usize),
}

/// One term of a sum, before its coefficient.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Term {
    /// `x`.
    Var(Var),
    /// `x / w` (floor; `x ≥ 0`).
    Div(Var, i64),
    /// `x mod m` (`x ≥ 0`).
    Mod(Var, i64),
    /// `(x / w) mod m`.
    DivMod(Var, i64, i64),
    /// The XOR swizzle `x ^ (((x >> src) & mask) << dst)`.
    Swizzle {
        /// Its argument.
        x: Var,
        /// Lowest source bit.
        src: u32,
        /// `2^b − 1`.
        mask: i64,
        /// Lowest destination bit.
        dst: u32,
    },
}

impl Term {
    /// Divisions plus moduli in the term.
    #[must_use]
    pub const fn cost(&self) -> usize {
        match self {
            Term::Var(_) | Term::Swizzle { .. } => 0,
            Term::Div(..) | Term::Mod(..) => 1,
            Term::DivMod(..) => 2,
        }
    }
}

/// `constant + Σ coefficient·term`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Sum {
    /// The constant part (a restriction's `f|p(0)`; else 0).
    pub constant: i64,
    /// The terms, in emission order.
    pub terms: Vec<(i64, Term)>,
}

impl Sum {
    /// The sum is a bare variable: no temporary is needed to reuse it.
    fn as_var(&self) -> Option<Var> {
        match self.terms.as_slice() {
            [(1, Term::Var(v))] if self.constant == 0 => Some(*v),
            _ => None,
        }
    }

    fn cost(&self) -> usize {
        self.terms.iter().map(|(_, t)| t.cost()).sum()
    }
}

/// Which expression [`emit`] chose.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProgramForm {
    /// One weighted sum over the coarsest refinement (plus a constant for a restriction).
    Layout,
    /// The composite as written.
    Written,
}

/// A straight-line integer program over coordinates `c_0..c_{k-1}` (each in `[0, sizes[i])`):
/// `let t_0 = …; …; result`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Program {
    /// The coordinates' names (default `c0`, `c1`, …).
    pub names: Vec<String>,
    /// The coordinates' sizes.
    pub sizes: Vec<i64>,
    /// The temporaries, in order; `t_i` may use `t_j` for `j < i`.
    pub lets: Vec<Sum>,
    /// The offset.
    pub result: Sum,
}

/// An integer type of emitted code.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IntType {
    /// `i32` / `int32_t`.
    I32,
    /// `i64` / `int64_t`.
    I64,
    /// `u32` / `uint32_t`.
    U32,
    /// `usize` / `size_t` (64-bit).
    Usize,
}

impl IntType {
    /// The smallest and largest value.
    #[must_use]
    pub const fn range(self) -> (i64, i64) {
        match self {
            IntType::I32 => (i32::MIN as i64, i32::MAX as i64),
            IntType::I64 => (i64::MIN, i64::MAX),
            IntType::U32 => (0, u32::MAX as i64),
            IntType::Usize => (0, i64::MAX),
        }
    }

    /// The Rust spelling.
    #[must_use]
    pub const fn rust(self) -> &'static str {
        match self {
            IntType::I32 => "i32",
            IntType::I64 => "i64",
            IntType::U32 => "u32",
            IntType::Usize => "usize",
        }
    }

    /// The C spelling (`<stdint.h>` / `<stddef.h>`).
    #[must_use]
    pub const fn c(self) -> &'static str {
        match self {
            IntType::I32 => "int32_t",
            IntType::I64 => "int64_t",
            IntType::U32 => "uint32_t",
            IntType::Usize => "size_t",
        }
    }
}

impl Program {
    fn new(sizes: Vec<i64>) -> Program {
        Program {
            names: (0..sizes.len()).map(|i| format!("c{i}")).collect(),
            sizes,
            lets: Vec::new(),
            result: Sum::default(),
        }
    }

    /// The same program with its coordinates in the opposite order: coordinate `i` becomes
    /// `k − 1 − i` (names and sizes reversed with it). CuTe lists modes first-fastest, the
    /// reverse of this crate's order, so a program read in CuTe's order takes its parameters
    /// this way round.
    ///
    /// ```
    /// use layout_core::{emit, Annotated, Space};
    /// let a = Annotated::new("(8,4):(1,8)".parse()?, Space::Logical, Space::Physical)?; // CuTe (4,8):(8,1)
    /// let mut p = emit(&a.into(), false)?.program;
    /// assert_eq!(p.to_python(), "result = c0 + 8*c1");
    /// p.reverse_coordinates();
    /// p.names = vec!["c0".into(), "c1".into()];
    /// assert_eq!((p.to_python().as_str(), p.sizes.as_slice()), ("result = c1 + 8*c0", &[4, 8][..]));
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    pub fn reverse_coordinates(&mut self) {
        let k = self.sizes.len();
        let flip = |v: &mut Var| {
            if let Var::Coord(i) = v {
                *i = k.saturating_sub(1).saturating_sub(*i);
            }
        };
        for s in self
            .lets
            .iter_mut()
            .chain(core::iter::once(&mut self.result))
        {
            for (_, t) in &mut s.terms {
                match t {
                    Term::Var(v)
                    | Term::Div(v, _)
                    | Term::Mod(v, _)
                    | Term::DivMod(v, _, _)
                    | Term::Swizzle { x: v, .. } => flip(v),
                }
            }
        }
        self.names.reverse();
        self.sizes.reverse();
    }

    /// Divisions plus moduli (spec: Cost); shifts, masks and XOR count 0.
    #[must_use]
    pub fn cost(&self) -> usize {
        self.lets
            .iter()
            .map(Sum::cost)
            .fold(self.result.cost(), usize::saturating_add)
    }

    /// Divisions and moduli counted apart: `(div, mod)`, a `(x / w) mod m` counting one each.
    #[must_use]
    pub fn div_mod(&self) -> (usize, usize) {
        let mut d = 0usize;
        let mut m = 0usize;
        for (_, t) in self
            .lets
            .iter()
            .chain(core::iter::once(&self.result))
            .flat_map(|s| &s.terms)
        {
            match t {
                Term::Div(..) => d = d.saturating_add(1),
                Term::Mod(..) => m = m.saturating_add(1),
                Term::DivMod(..) => {
                    d = d.saturating_add(1);
                    m = m.saturating_add(1);
                }
                _ => {}
            }
        }
        (d, m)
    }

    /// The offset at a coordinate: one value per coordinate, each in `[0, sizes[i])`, in
    /// exact arithmetic (never a wrap).
    ///
    /// ```
    /// use layout_core::{emit, Annotated, Error, Space};
    /// let a = Annotated::new("(4,8):(8,1)".parse()?, Space::Logical, Space::Physical)?;
    /// let p = emit(&a.into(), false)?.program;
    /// assert_eq!(p.eval(&[2, 3]), Ok(19));
    /// assert_eq!(p.eval(&[2]), Err(Error::ProgramArity { expected: 2, found: 1 }));
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::ProgramArity`] for a number of values other than the program's coordinates,
    /// [`Error::CoordOutOfRange`] for a value outside its coordinate's range,
    /// [`Error::ProgramUndefined`] when the program reads a coordinate it does not have or a
    /// temporary before defining it, [`Error::ProgramTerm`] for a divisor or modulus below 1 or
    /// a shift past bit 62, [`Error::Overflow`] when a value leaves `i64`.
    pub fn eval(&self, coords: &[i64]) -> Result<i64, Error> {
        if coords.len() != self.sizes.len() {
            return Err(Error::ProgramArity {
                expected: self.sizes.len(),
                found: coords.len(),
            });
        }
        for (i, (&value, &size)) in coords.iter().zip(&self.sizes).enumerate() {
            if !(0..size).contains(&value) {
                return Err(Error::CoordOutOfRange {
                    mode: crate::ModePath::from_indices(&[i])?,
                    value,
                    size,
                });
            }
        }
        let value = |s: &Sum, temps: &[i64]| {
            i64::try_from(eval_sum_wide(s, coords, temps)?).map_err(|_| Error::Overflow {
                mode: crate::ModePath::ROOT,
                what: crate::Quantity::Offset,
            })
        };
        let mut temps = Vec::with_capacity(self.lets.len());
        for s in &self.lets {
            temps.push(value(s, &temps)?);
        }
        value(&self.result, &temps)
    }

    /// Checks that every intermediate value and the result fit `ty` at every coordinate
    /// (spec: Range checks; an offset range that overflows the index type is an error), that every
    /// product and partial sum the rendered text computes fits `ty` (interval bounds, so a
    /// program whose whole values fit may still be refused), and that every literal the
    /// rendered text spells is a value of `ty`.
    ///
    /// Interval bounds of every value come first, in O(program size): when they fit, so does
    /// every value. Otherwise the coordinates are enumerated, up to [`crate::DECIDE_LIMIT`];
    /// past it, a layout form (a sum of independent digits of its coordinates, whose bounds are
    /// attained) is refused with its exact range.
    ///
    /// # Errors
    /// [`Error::IndexTypeRange`] with the range found (or, for a literal outside `ty`, that
    /// literal as both ends); [`Error::DecideTooLarge`] past [`crate::DECIDE_LIMIT`]
    /// coordinates when the bounds do not fit and are not exact; as [`Program::eval`] for a
    /// program that reads an undefined variable or has an invalid term.
    pub fn check_range(&self, ty: IntType) -> Result<(), Error> {
        let (type_min, type_max) = ty.range();
        let outside = |lo: i128, hi: i128| lo < i128::from(type_min) || hi > i128::from(type_max);
        // Interval bounds of every value first, in O(program): exact for a layout form (its
        // terms are independent digits of distinct coordinates), containing every value always.
        let bounds = self.bounds();
        if let Some((lo, hi)) = bounds
            && !outside(lo, hi)
        {
            self.check_intermediates(ty)?;
            return self.check_literals(ty);
        }
        let total = self.sizes.iter().try_fold(1i64, |a, &n| a.checked_mul(n));
        let total = match (total, bounds) {
            (Some(t), _) if t <= crate::DECIDE_LIMIT => t,
            (_, Some((lo, hi))) if self.lets.is_empty() && self.is_digit_sum() => {
                return Err(Error::IndexTypeRange {
                    min: clamp_i64(lo),
                    max: clamp_i64(hi),
                    type_min,
                    type_max,
                });
            }
            _ => {
                return Err(Error::DecideTooLarge {
                    size: total.unwrap_or(i64::MAX),
                    limit: crate::DECIDE_LIMIT,
                });
            }
        };
        let (mut lo, mut hi) = (i128::MAX, i128::MIN);
        let mut c = vec![0i64; self.sizes.len()];
        for _ in 0..total {
            let mut temps: Vec<i64> = Vec::with_capacity(self.lets.len());
            for s in self.lets.iter().chain(core::iter::once(&self.result)) {
                let v = eval_sum_wide(s, &c, &temps)?;
                lo = lo.min(v);
                hi = hi.max(v);
                temps.push(clamp_i64(v));
            }
            for (cj, &n) in c.iter_mut().zip(&self.sizes).rev() {
                *cj = cj.saturating_add(1);
                if *cj < n {
                    break;
                }
                *cj = 0;
            }
        }
        if outside(lo, hi) {
            return Err(Error::IndexTypeRange {
                min: clamp_i64(lo),
                max: clamp_i64(hi),
                type_min,
                type_max,
            });
        }
        self.check_intermediates(ty)?;
        self.check_literals(ty)
    }

    /// Interval bounds containing every intermediate value and the result at every coordinate,
    /// `None` when a term's bound is unknown (a swizzle of a value that may be negative, an
    /// invalid term) or leaves `i128`.
    fn bounds(&self) -> Option<(i128, i128)> {
        let mut vars: Vec<(i128, i128)> = Vec::with_capacity(self.lets.len());
        let coords: Vec<(i128, i128)> = self
            .sizes
            .iter()
            .map(|&n| (n >= 1).then(|| (0, i128::from(n).saturating_sub(1))))
            .collect::<Option<_>>()?;
        let (mut lo, mut hi) = (i128::MAX, i128::MIN);
        for s in self.lets.iter().chain(core::iter::once(&self.result)) {
            let (a, b) = sum_bounds(s, &coords, &vars)?;
            lo = lo.min(a);
            hi = hi.max(b);
            vars.push((a, b));
        }
        Some((lo, hi))
    }

    /// The result is a sum over the coordinates' digits: each term `(c_i / w) mod m` of its
    /// own coordinate, the pieces of one coordinate the digits of one mixed radix (the layout
    /// form), so its interval bounds are attained.
    fn is_digit_sum(&self) -> bool {
        let mut seen: Vec<Vec<(i64, i64)>> = vec![Vec::new(); self.sizes.len()];
        for (_, t) in &self.result.terms {
            let (v, w, m) = match *t {
                Term::Var(v) => (v, 1, i64::MAX),
                Term::Div(v, w) => (v, w, i64::MAX),
                Term::Mod(v, m) => (v, 1, m),
                Term::DivMod(v, w, m) => (v, w, m),
                Term::Swizzle { .. } => return false,
            };
            let Var::Coord(i) = v else { return false };
            let Some(pieces) = seen.get_mut(i) else {
                return false;
            };
            pieces.push((w, m));
        }
        // Each coordinate's pieces, by weight, are digits of one mixed radix within its size:
        // `w_j·m_j ≤ w_{j+1}` and `w_last·m_last ≤ n` (a piece without a modulus has
        // `m = n / w`, `w` dividing `n`), so every combination of digits is some coordinate.
        for (pieces, &n) in seen.iter_mut().zip(&self.sizes) {
            pieces.sort_unstable();
            let mut next = 1i64;
            for &(w, m) in pieces.iter() {
                let m = if m == i64::MAX {
                    match (n.checked_rem(w), n.checked_div(w)) {
                        (Some(0), Some(q)) => q,
                        _ => return false,
                    }
                } else {
                    m
                };
                if w < next || m < 1 {
                    return false;
                }
                match w.checked_mul(m) {
                    Some(x) if x <= n => next = x,
                    _ => return false,
                }
            }
        }
        true
    }

    /// Every product and partial sum the rendered text computes fits `ty`, by interval bounds
    /// in the text's order (the constant, then the terms left to right; a later negative term
    /// as the subtraction of its magnitude's product): the values of the whole sums can fit
    /// while `c0 - 1073741824*c1` overflows `i32` in the product. A sum whose terms have no
    /// bound (a swizzle of a value that may be negative) was enumerated whole by the caller.
    fn check_intermediates(&self, ty: IntType) -> Result<(), Error> {
        let (type_min, type_max) = ty.range();
        let check = |(lo, hi): (i128, i128)| {
            if lo < i128::from(type_min) || hi > i128::from(type_max) {
                Err(Error::IndexTypeRange {
                    min: clamp_i64(lo),
                    max: clamp_i64(hi),
                    type_min,
                    type_max,
                })
            } else {
                Ok(())
            }
        };
        let scale = |k: i128, (a, b): (i128, i128)| {
            let (x, y) = (k.checked_mul(a)?, k.checked_mul(b)?);
            Some((x.min(y), x.max(y)))
        };
        let overflow = Error::Overflow {
            mode: crate::ModePath::ROOT,
            what: crate::Quantity::Offset,
        };
        let Some(coords) = self
            .sizes
            .iter()
            .map(|&n| (n >= 1).then(|| (0, i128::from(n).saturating_sub(1))))
            .collect::<Option<Vec<(i128, i128)>>>()
        else {
            return Ok(());
        };
        let mut vars: Vec<(i128, i128)> = Vec::with_capacity(self.lets.len());
        for s in self.lets.iter().chain(core::iter::once(&self.result)) {
            let mut acc: Option<(i128, i128)> = (s.constant != 0 || s.terms.is_empty())
                .then(|| (i128::from(s.constant), i128::from(s.constant)));
            let mut bounded = true;
            for (k, t) in &s.terms {
                let Some(tb) = term_bounds(t, &coords, &vars) else {
                    bounded = false;
                    break;
                };
                check(tb)?;
                let k = i128::from(*k);
                // What the text multiplies: the signed coefficient when the term comes first
                // (`-K*x` is `(-K)*x`) or is the type's minimum (`+ MIN*x`), else |k|.
                let signed = acc.is_none() || k == i128::from(type_min);
                let product = scale(if signed { k } else { k.abs() }, tb).ok_or(overflow)?;
                check(product)?;
                let value = scale(k, tb).ok_or(overflow)?;
                let next = match acc {
                    None => value,
                    Some((lo, hi)) => (
                        lo.checked_add(value.0).ok_or(overflow)?,
                        hi.checked_add(value.1).ok_or(overflow)?,
                    ),
                };
                check(next)?;
                acc = Some(next);
            }
            let whole = if bounded {
                acc.unwrap_or((0, 0))
            } else {
                sum_bounds(s, &coords, &vars).unwrap_or((i128::MIN, i128::MAX))
            };
            vars.push(whole);
        }
        Ok(())
    }

    /// Every literal the text spells (constants, coefficients, divisors, moduli, masks) is a
    /// value of `ty`, so the text compiles and means what the program means.
    fn check_literals(&self, ty: IntType) -> Result<(), Error> {
        let (type_min, type_max) = ty.range();
        let bad = |v: i64| Error::IndexTypeRange {
            min: v,
            max: v,
            type_min,
            type_max,
        };
        for s in self.lets.iter().chain(core::iter::once(&self.result)) {
            if !(type_min..=type_max).contains(&s.constant) {
                return Err(bad(s.constant));
            }
            for (k, t) in &s.terms {
                // A negative coefficient is spelled `- |k|·x`, or as the type's minimum.
                let spelled =
                    *k == type_min || u64::try_from(type_max).is_ok_and(|m| k.unsigned_abs() <= m);
                if !spelled {
                    return Err(bad(*k));
                }
                let params: &[i64] = match t {
                    Term::Var(_) => &[],
                    Term::Div(_, w) | Term::Mod(_, w) => &[*w],
                    Term::DivMod(_, w, m) => &[*w, *m],
                    Term::Swizzle { mask, .. } => &[*mask],
                };
                if let Some(&p) = params.iter().find(|&&p| p > type_max) {
                    return Err(bad(p));
                }
            }
        }
        Ok(())
    }

    /// The program in the Python syntax of the seed's case files: `t0 = …` lines, then
    /// `result = …` (`//` floor division, `%` modulus, `^` XOR).
    #[must_use]
    pub fn to_python(&self) -> String {
        let mut out = String::new();
        for (i, s) in self.lets.iter().enumerate() {
            let _ = writeln!(out, "t{i} = {}", self.render(s, Syntax::Python));
        }
        let _ = write!(
            out,
            "result = {}",
            self.render(&self.result, Syntax::Python)
        );
        out
    }

    /// A Rust function `fn name(c0: T, …) -> T`, `#[inline(always)]`, in integer type `ty`.
    ///
    /// # Errors
    /// As [`Program::check_range`]: the text is emitted only when every value fits `ty`.
    pub fn to_rust(&self, name: &str, ty: IntType) -> Result<String, Error> {
        self.check_range(ty)?;
        let t = ty.rust();
        let params: Vec<String> = self.names.iter().map(|n| format!("{n}: {t}")).collect();
        let mut out = format!(
            "#[inline(always)]\n#[allow(unused_parens, clippy::all)]\npub fn {name}({}) -> {t} {{\n",
            params.join(", ")
        );
        for (i, s) in self.lets.iter().enumerate() {
            let _ = writeln!(
                out,
                "    let t{i}: {t} = {};",
                self.render(s, Syntax::Rust(ty))
            );
        }
        let _ = writeln!(
            out,
            "    {}\n}}",
            self.render(&self.result, Syntax::Rust(ty))
        );
        Ok(out)
    }

    /// A C (`cuda = false`) or CUDA function in integer type `ty`; needs `<stdint.h>`.
    ///
    /// # Errors
    /// As [`Program::check_range`].
    pub fn to_c(&self, name: &str, ty: IntType, cuda: bool) -> Result<String, Error> {
        self.check_range(ty)?;
        let t = ty.c();
        let params: Vec<String> = self.names.iter().map(|n| format!("{t} {n}")).collect();
        let qual = if cuda {
            "__host__ __device__ __forceinline__"
        } else {
            "static inline"
        };
        let mut out = format!(
            "{qual} {t} {name}({}) {{\n",
            if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            }
        );
        for (i, s) in self.lets.iter().enumerate() {
            let _ = writeln!(
                out,
                "    const {t} t{i} = {};",
                self.render(s, Syntax::C(ty))
            );
        }
        let _ = writeln!(
            out,
            "    return {};\n}}",
            self.render(&self.result, Syntax::C(ty))
        );
        Ok(out)
    }

    fn var(&self, v: Var) -> String {
        match v {
            Var::Coord(i) => self
                .names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("c{i}")),
            Var::Temp(i) => format!("t{i}"),
        }
    }

    fn term(&self, t: &Term, syn: Syntax) -> String {
        let div = if matches!(syn, Syntax::Python) {
            "//"
        } else {
            "/"
        };
        match *t {
            Term::Var(v) => self.var(v),
            Term::Div(v, w) => format!("({} {div} {w})", self.var(v)),
            Term::Mod(v, m) => format!("({} % {m})", self.var(v)),
            Term::DivMod(v, w, m) => format!("(({} {div} {w}) % {m})", self.var(v)),
            Term::Swizzle { x, src, mask, dst } => {
                let x = self.var(x);
                format!("({x} ^ ((({x} >> {src}) & {mask}) << {dst}))")
            }
        }
    }

    fn render(&self, s: &Sum, syn: Syntax) -> String {
        // A literal of the text; the type's minimum by name (its magnitude is no literal of
        // the type).
        let lit = |v: i64| match syn {
            Syntax::Python => v.to_string(),
            Syntax::Rust(ty) if v < 0 && v == ty.range().0 => format!("{}::MIN", ty.rust()),
            Syntax::Rust(_) => v.to_string(),
            Syntax::C(IntType::I64) if v == i64::MIN => "INT64_MIN".to_string(),
            Syntax::C(IntType::I32) if v == i64::from(i32::MIN) => "INT32_MIN".to_string(),
            Syntax::C(ty) => format!("(({}){v})", ty.c()),
        };
        let mut out = String::new();
        if s.constant != 0 || s.terms.is_empty() {
            out.push_str(&lit(s.constant));
        }
        for (k, t) in &s.terms {
            let body = self.term(t, syn);
            let (neg, mag) = (*k < 0, k.unsigned_abs());
            let type_min = match syn {
                Syntax::Python => None,
                Syntax::Rust(ty) | Syntax::C(ty) => Some(ty.range().0),
            };
            let (neg, piece) = if mag == 1 {
                (neg, body)
            } else if neg && Some(*k) == type_min {
                // `- |k|·x` would spell a literal past the type: `+ MIN·x` instead.
                (false, format!("{}*{body}", lit(*k)))
            } else if let Ok(m) = i64::try_from(mag) {
                (neg, format!("{}*{body}", lit(m)))
            } else {
                // Only Python reaches here (`|i64::MIN|`): its integers are unbounded.
                (neg, format!("{mag}*{body}"))
            };
            match (out.is_empty(), neg) {
                (true, false) => out.push_str(&piece),
                (true, true) => {
                    out.push('-');
                    out.push_str(&piece);
                }
                (false, false) => {
                    out.push_str(" + ");
                    out.push_str(&piece);
                }
                (false, true) => {
                    out.push_str(" - ");
                    out.push_str(&piece);
                }
            }
        }
        out
    }
}

#[derive(Clone, Copy)]
enum Syntax {
    Python,
    Rust(IntType),
    C(IntType),
}

/// The value of a variable: a coordinate given or a temporary defined before.
fn var_value(v: Var, coords: &[i64], temps: &[i64]) -> Result<i64, Error> {
    let (Var::Coord(i) | Var::Temp(i)) = v;
    let defined = match v {
        Var::Coord(_) => coords,
        Var::Temp(_) => temps,
    };
    defined.get(i).copied().ok_or(Error::ProgramUndefined {
        variable: v,
        defined: defined.len(),
    })
}

fn term_value(t: &Term, coords: &[i64], temps: &[i64]) -> Result<i64, Error> {
    let positive = |n: i64| {
        if n >= 1 {
            Ok(n)
        } else {
            Err(Error::ProgramTerm { value: n })
        }
    };
    Ok(match *t {
        Term::Var(v) => var_value(v, coords, temps)?,
        Term::Div(v, w) => var_value(v, coords, temps)?.div_euclid(positive(w)?),
        Term::Mod(v, m) => var_value(v, coords, temps)?.rem_euclid(positive(m)?),
        Term::DivMod(v, w, m) => var_value(v, coords, temps)?
            .div_euclid(positive(w)?)
            .rem_euclid(positive(m)?),
        Term::Swizzle { x, src, mask, dst } => {
            if let Some(&shift) = [src, dst].iter().find(|&&b| b > 62) {
                return Err(Error::ProgramTerm {
                    value: i64::from(shift),
                });
            }
            let x = var_value(x, coords, temps)?;
            x ^ (((x >> src) & mask) << dst)
        }
    })
}

/// A sum in `i128` (each product of two `i64` fits); [`Error::Overflow`] past it.
fn eval_sum_wide(s: &Sum, coords: &[i64], temps: &[i64]) -> Result<i128, Error> {
    let overflow = Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Offset,
    };
    s.terms
        .iter()
        .try_fold(i128::from(s.constant), |acc, (k, t)| {
            let product = i128::from(*k)
                .checked_mul(i128::from(term_value(t, coords, temps)?))
                .ok_or(overflow)?;
            acc.checked_add(product).ok_or(overflow)
        })
}

/// Bounds of a sum from its variables' bounds: coordinates, then temporaries.
fn sum_bounds(s: &Sum, coords: &[(i128, i128)], temps: &[(i128, i128)]) -> Option<(i128, i128)> {
    let (mut lo, mut hi) = (i128::from(s.constant), i128::from(s.constant));
    for (k, t) in &s.terms {
        let (a, b) = term_bounds(t, coords, temps)?;
        let k = i128::from(*k);
        let (x, y) = (k.checked_mul(a)?, k.checked_mul(b)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

/// Bounds of a term's value.
fn term_bounds(t: &Term, coords: &[(i128, i128)], temps: &[(i128, i128)]) -> Option<(i128, i128)> {
    let var = |v: Var| match v {
        Var::Coord(i) => coords.get(i).copied(),
        Var::Temp(i) => temps.get(i).copied(),
    };
    let div = |(a, b): (i128, i128), w: i64| {
        let w = i128::from(w);
        (w >= 1).then(|| (a.div_euclid(w), b.div_euclid(w)))
    };
    let modulo = |(a, b): (i128, i128), m: i64| {
        let m = i128::from(m);
        if m < 1 {
            None
        } else if a >= 0 && b < m {
            Some((a, b))
        } else {
            Some((0, m.checked_sub(1)?))
        }
    };
    match *t {
        Term::Var(v) => var(v),
        Term::Div(v, w) => div(var(v)?, w),
        Term::Mod(v, m) => modulo(var(v)?, m),
        Term::DivMod(v, w, m) => modulo(div(var(v)?, w)?, m),
        Term::Swizzle { x, src, mask, dst } => {
            let (a, b) = var(x)?;
            if a < 0 || src > 62 || dst > 62 || mask < 0 {
                return None;
            }
            // Only the bits of `mask << dst` change: the value stays below the next power of
            // two above both.
            let changed = i128::from(mask).checked_shl(dst)?;
            let top = b.max(changed);
            let bits = 128u32.checked_sub(top.leading_zeros())?;
            let limit = 1i128.checked_shl(bits).filter(|_| bits <= 126)?;
            Some((0, limit.checked_sub(1)?))
        }
    }
}

/// `v` clamped into `i64` (exact when it fits).
fn clamp_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

/// A leaf coordinate of some map's domain, as an expression of the program's coordinates.
#[derive(Clone, Copy, Debug)]
enum Leaf {
    Const(i64),
    Term(Term),
}

struct Builder {
    program: Program,
}

impl Builder {
    /// A variable holding the sum, binding a temporary unless it is one already.
    fn atomize(&mut self, s: Sum) -> Var {
        if let Some(v) = s.as_var() {
            return v;
        }
        self.program.lets.push(s);
        Var::Temp(self.program.lets.len().saturating_sub(1))
    }

    /// The leaves of `shape` from one integer `x` (last leaf fastest): `/ 1` dropped, the
    /// slowest leaf's modulus dropped, size-1 leaves constant 0.
    fn unflatten(x: Var, shape: &Tree<i64>) -> Vec<Leaf> {
        let sizes: Vec<i64> = shape.leaves().into_iter().copied().collect();
        let mut weights = vec![1i64; sizes.len()];
        for j in (0..sizes.len().saturating_sub(1)).rev() {
            let next = j.saturating_add(1);
            weights[j] = weights[next].saturating_mul(sizes[next]);
        }
        let slowest = sizes.iter().position(|&n| n > 1);
        sizes
            .iter()
            .zip(&weights)
            .enumerate()
            .map(|(j, (&n, &w))| {
                if n == 1 {
                    return Leaf::Const(0);
                }
                let needs_mod = Some(j) != slowest;
                Leaf::Term(match (w == 1, needs_mod) {
                    (true, false) => Term::Var(x),
                    (true, true) => Term::Mod(x, n),
                    (false, false) => Term::Div(x, w),
                    (false, true) => Term::DivMod(x, w, n),
                })
            })
            .collect()
    }

    /// The map as written, at the given domain leaves.
    fn written(&mut self, map: &Map, leaves: &[Leaf]) -> Sum {
        match map {
            Map::Layout(a) => {
                let mut s = Sum::default();
                for (m, leaf) in a.layout().modes().iter().zip(leaves) {
                    let d = match m.stride {
                        Stride::Int(d) if m.size > 1 && d != 0 => d,
                        _ => continue, // `_` and size-1 leaves are never computed
                    };
                    match leaf {
                        Leaf::Const(v) => s.constant = s.constant.wrapping_add(d.wrapping_mul(*v)),
                        Leaf::Term(t) => s.terms.push((d, *t)),
                    }
                }
                s
            }
            Map::Swizzled { swizzle, inner } => {
                let inner = self.written(inner, leaves);
                let x = self.atomize(inner);
                Sum {
                    constant: 0,
                    terms: vec![(
                        1,
                        Term::Swizzle {
                            x,
                            src: swizzle.src(),
                            // bits ≤ 62 (a built swizzle): 2^b − 1 ≥ 0.
                            mask: (1i64 << swizzle.bits()).wrapping_sub(1),
                            dst: swizzle.dst(),
                        },
                    )],
                }
            }
            Map::Composite(c) => {
                let r = self.written(&c.right(), leaves);
                let x = self.atomize(r);
                let left_leaves = Builder::unflatten(x, &c.left().domain_shape());
                self.written(&c.left(), &left_leaves)
            }
            Map::Restricted { fixed, inner } => {
                let entries = inner.domain_entries();
                let mut all = Vec::new();
                let mut free = leaves.iter();
                for (e, entry) in entries.iter().enumerate() {
                    let n = entry.leaves().len();
                    if let Some((_, value)) = fixed.iter().find(|(f, _)| *f == e) {
                        let sizes: Vec<i64> = entry.leaves().into_iter().copied().collect();
                        let mut digits = vec![0i64; n];
                        let mut rest = *value;
                        for (digit, &size) in digits.iter_mut().zip(&sizes).rev() {
                            // Sizes are at least 1.
                            *digit = rest.checked_rem(size).unwrap_or(0);
                            rest = rest.checked_div(size).unwrap_or(0);
                        }
                        all.extend(digits.into_iter().map(Leaf::Const));
                    } else {
                        all.extend(free.by_ref().take(n).copied());
                    }
                }
                self.written(inner, &all)
            }
        }
    }
}

/// The program's coordinates: the domain leaves, or (`by_mode`) its top-level entries, and
/// the domain leaves as expressions of them.
fn coordinates(map: &Map, by_mode: bool) -> (Vec<i64>, Vec<Leaf>) {
    let shape = map.domain_shape();
    match (&shape, by_mode) {
        (Tree::Tuple(_), true) => {
            let mut leaves = Vec::new();
            let mut sizes = Vec::new();
            for (m, e) in map.domain_entries().iter().enumerate() {
                sizes.push(e.leaves().into_iter().product());
                leaves.extend(Builder::unflatten(Var::Coord(m), e));
            }
            (sizes, leaves)
        }
        _ => {
            let sizes: Vec<i64> = shape.leaves().into_iter().copied().collect();
            let leaves = (0..sizes.len())
                .map(|i| Leaf::Term(Term::Var(Var::Coord(i))))
                .collect();
            (sizes, leaves)
        }
    }
}

/// The composite as written (spec: Composite as written): each right operand's value bound to a temporary and
/// unflattened into the left operand's leaves, a swizzle as `x ^ (((x >> src) & mask) << dst)`,
/// a restriction with its fixed coordinates substituted.
#[must_use]
pub fn written(map: &Map, by_mode: bool) -> Program {
    let (sizes, leaves) = coordinates(map, by_mode);
    let mut b = Builder {
        program: Program::new(sizes),
    };
    let result = b.written(map, &leaves);
    b.program.result = result;
    b.program
}

/// The layout form of a decision (spec: Layout form): `constant + Σ s_ij·((c_i / w_ij) mod m_ij)` over the
/// coarsest refinement, `/ 1`, the slowest piece's modulus and zero-stride terms dropped.
/// `None` when the map is not a layout.
#[must_use]
pub fn layout_form(decision: &Decision) -> Option<Program> {
    let chains = decision.result.as_ref().ok()?;
    let mut p = Program::new(decision.coordinate_shape.to_vec());
    p.result.constant = decision.constant;
    for (i, c) in chains.iter().enumerate() {
        // Pieces slowest first; the chain is increasing, so piece j has weight chain[k-1-j].
        let chain = c.chain();
        let k = chain.len();
        for j in 0..k {
            let (m, s, w) = (
                c.shape[j],
                c.strides[j],
                chain[k.saturating_sub(1).saturating_sub(j)],
            );
            if s == 0 || m == 1 {
                continue;
            }
            let x = Var::Coord(i);
            let t = match (w == 1, j == 0) {
                (true, true) => Term::Var(x),
                (true, false) => Term::Mod(x, m),
                (false, true) => Term::Div(x, w),
                (false, false) => Term::DivMod(x, w, m),
            };
            p.result.terms.push((s, t));
        }
    }
    Some(p)
}

/// What [`emit`] produced.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Emitted {
    /// The program emitted.
    pub program: Program,
    /// Which form it is.
    pub form: ProgramForm,
    /// The cost of the composite as written (the emitted cost never exceeds it).
    pub written_cost: usize,
    /// The decision.
    pub decision: Decision,
}

/// The offset code of `map` (spec: Code emission): decides it, builds the layout form and the form as
/// written, and takes the cheaper (the layout form on a tie), so the emitted cost never
/// exceeds the as-written cost.
///
/// ```
/// use layout_core::{compose, emit, Annotated, Space};
/// let a = Annotated::new("(2,6):(2,8)".parse()?, Space::Logical, Space::Physical)?;
/// let b = Annotated::new("(3,4):(1,3)".parse()?, Space::ThreadValue, Space::Logical)?;
/// let e = emit(&compose(&a.into(), &b.into())?, false)?;
/// assert_eq!(e.program.to_python(), "result = 8*c0 + 2*(c1 // 2) + 24*(c1 % 2)");
/// assert_eq!((e.program.cost(), e.written_cost), (2, 2));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`decide`].
pub fn emit(map: &Map, by_mode: bool) -> Result<Emitted, Error> {
    let decision = decide(map, by_mode)?;
    let as_written = written(map, by_mode);
    let written_cost = as_written.cost();
    let (program, form) = match layout_form(&decision) {
        Some(p) if p.cost() <= written_cost => (p, ProgramForm::Layout),
        _ => (as_written, ProgramForm::Written),
    };
    Ok(Emitted {
        program,
        form,
        written_cost,
        decision,
    })
}

//! `check`, `eval`, `explain` and `emit`, with the JSON (spec: Machine-readable output).

use std::fmt::Write as _;

use layout_core::{IntType, Layout, Map, Stride, Tree};
use serde::Serialize;

use crate::Output;
use crate::diag::{Diag, JsonError, Source, exit_status};
use crate::eval::{coarsest, reason};
use crate::expr::{LayoutArg, diags, layout_arg, parse_spaces};

/// The main argument, for columns.
pub fn main_source(text: &str) -> Source<'_> {
    Source { name: "", text }
}

/// Errors only: what `--json` prints when the input could not be read (exit status 2).
#[derive(Serialize)]
struct ErrorsJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
    errors: Vec<JsonError>,
}

/// A failed command: the errors as JSON or as one line each on stderr.
pub fn failure(errors: &[Diag], json: bool, with_ok: bool) -> Output {
    let status = exit_status(errors).max(1);
    if json {
        let j = ErrorsJson {
            ok: with_ok.then_some(false),
            errors: errors.iter().map(Diag::json).collect(),
        };
        Output {
            stdout: to_json(&j),
            stderr: Vec::new(),
            status,
        }
    } else {
        // One line: the first error; `check` and `--json` list them all.
        let mut line = errors.first().map(Diag::line).unwrap_or_default();
        if errors.len() > 1 {
            let _ = write!(
                line,
                " ({} more: `--json` lists every error)",
                errors.len().saturating_sub(1)
            );
        }
        Output {
            stdout: String::new(),
            stderr: vec![line],
            status,
        }
    }
}

/// One line of compact JSON.
pub fn to_json<T: Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"errors\":[{e:?}]}}"));
    s.push('\n');
    s
}

/// A layout in the notation of the command.
pub fn notation(l: &Layout, cute: bool) -> String {
    if cute {
        l.to_cute().to_string()
    } else {
        l.to_string()
    }
}

fn raw_text<T: std::fmt::Display>(t: &Tree<T>) -> String {
    t.to_string()
}

#[derive(Serialize)]
struct CheckJson {
    ok: bool,
    layout: String,
    cute: String,
    space: String,
    size: i64,
    cosize: Option<i64>,
    dense_bijection: bool,
    alias_free: bool,
    broadcast: bool,
    errors: Vec<JsonError>,
}

/// `layout check LAYOUT --space A->B [--cute] [--json]`.
pub fn check(text: &str, space: &str, cute: bool, json: bool) -> Output {
    let src = main_source(text);
    let (domain, codomain) = match parse_spaces(space) {
        Ok(s) => s,
        Err(d) => return failure(&[d], json, true),
    };
    let l = match layout_arg(&src, cute) {
        Ok(l) => l,
        Err(d) => return failure(&[d], json, true),
    };
    let written_cute = l.written.cute;
    let space_text = format!("{domain}->{codomain}");
    let report = match &l.layout {
        Ok(layout) => {
            let mut errors = Vec::new();
            if let Err(e) = layout_core::check_annotation(domain, codomain) {
                let mut d = Diag::core(&e, &src, 0, None);
                d.message = format!("{} (in --space)", d.message);
                errors.push(d);
            }
            if let Err(e) = layout_core::check_codomain(layout, codomain) {
                let at = layout_core::expr::locate_layout_error(&l.written, Some(layout), &e, true);
                errors.push(Diag::located(&at, &src));
            }
            CheckJson {
                ok: errors.is_empty(),
                layout: notation(layout, written_cute),
                cute: layout.to_cute().to_string(),
                space: space_text,
                size: layout.size(),
                cosize: layout.cosize().ok(),
                dense_bijection: layout_core::is_dense_bijection(layout),
                alias_free: layout_core::is_alias_free(layout).unwrap_or(false),
                broadcast: layout.is_broadcast(),
                errors: errors.iter().map(Diag::json).collect(),
            }
            .with_diags(errors)
        }
        Err(errs) => {
            let mut errors = Vec::new();
            if let Err(e) = layout_core::check_annotation(domain, codomain) {
                let mut d = Diag::core(&e, &src, 0, None);
                d.message = format!("{} (in --space)", d.message);
                errors.push(d);
            }
            errors.extend(diags(errs, &src));
            let seed = l.written.seed();
            let (shape, stride) = (seed.shape, seed.stride);
            let size = shape
                .leaves()
                .into_iter()
                .fold(1i64, |a, &n| a.saturating_mul(n));
            let broadcast = shape
                .leaves()
                .iter()
                .zip(stride.leaves())
                .any(|(n, d)| **n > 1 && *d == Stride::Broadcast);
            let cute_stride = stride.reversed().map(&mut |d| match d {
                Stride::Broadcast => 0,
                Stride::Int(v) => *v,
            });
            let seed_text = format!("{}:{}", raw_text(&shape), raw_text(&stride));
            let cute_text = format!("{}:{}", raw_text(&shape.reversed()), raw_text(&cute_stride));
            CheckJson {
                ok: false,
                layout: if written_cute {
                    cute_text.clone()
                } else {
                    seed_text
                },
                cute: cute_text,
                space: space_text,
                size,
                cosize: None,
                dense_bijection: false,
                alias_free: false,
                broadcast,
                errors: errors.iter().map(Diag::json).collect(),
            }
            .with_diags(errors)
        }
    };
    let (j, diags) = report;
    let status = exit_status(&diags);
    if json {
        return Output {
            stdout: to_json(&j),
            stderr: Vec::new(),
            status,
        };
    }
    let mut out = String::new();
    let _ = writeln!(out, "layout   {}", j.layout);
    if !written_cute {
        let _ = writeln!(out, "cute     {}", j.cute);
    } else if let Ok(layout) = &l.layout {
        let _ = writeln!(out, "seed     {layout}");
    }
    let _ = writeln!(out, "space    {domain} -> {codomain}");
    let cosize = j.cosize.map_or("undefined".into(), |c| c.to_string());
    let _ = writeln!(out, "size     {}, cosize {cosize}", j.size);
    let _ = writeln!(
        out,
        "facts    dense bijection: {}, alias-free: {}, broadcast: {}",
        yes(j.dense_bijection),
        yes(j.alias_free),
        yes(j.broadcast)
    );
    if diags.is_empty() {
        let rule = if codomain.requires_dense() {
            "a dense bijection (Lemma 1)"
        } else {
            "alias-free"
        };
        let _ = writeln!(
            out,
            "ok       {rule}: a valid `{domain} -> {codomain}` layout"
        );
    } else {
        for d in &diags {
            let _ = writeln!(out, "error    [{}] {}", d.rule, d.message);
            if let Some(h) = &d.help {
                let _ = writeln!(out, "help     {h}");
            }
        }
    }
    Output {
        stdout: out,
        stderr: Vec::new(),
        status,
    }
}

impl CheckJson {
    fn with_diags(self, d: Vec<Diag>) -> (CheckJson, Vec<Diag>) {
        (self, d)
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

#[derive(Serialize)]
struct EvalJson {
    layout: String,
    size: i64,
    offsets: Vec<i64>,
}

/// The largest domain `eval`, `explain` and `draw` list value by value.
pub const LIST_LIMIT: i64 = 1 << 20;

/// The natural coordinate of flat index `i` (last leaf fastest), as a tree of the shape.
pub fn unflatten(shape: &Tree<i64>, i: i64) -> Tree<i64> {
    fn walk(t: &Tree<i64>, rest: &mut i64) -> Tree<i64> {
        match t {
            Tree::Leaf(n) => {
                let c = rest.checked_rem(*n).unwrap_or(0);
                *rest = rest.checked_div(*n).unwrap_or(0);
                Tree::Leaf(c)
            }
            Tree::Tuple(v) => {
                let mut out: Vec<Tree<i64>> = v.iter().rev().map(|x| walk(x, rest)).collect();
                out.reverse();
                Tree::Tuple(out)
            }
        }
    }
    let mut rest = i;
    walk(shape, &mut rest)
}

fn parse_layout(text: &str, cute: bool, json: bool) -> Result<(LayoutArg, Layout), Output> {
    let src = main_source(text);
    let l = layout_arg(&src, cute).map_err(|d| failure(&[d], json, false))?;
    match &l.layout {
        Ok(layout) => {
            let layout = layout.clone();
            Ok((l, layout))
        }
        Err(errs) => Err(failure(&diags(errs, &src), json, false)),
    }
}

/// `layout eval LAYOUT [--cute] [--json]`.
pub fn eval(text: &str, cute: bool, json: bool) -> Output {
    let (l, layout) = match parse_layout(text, cute, json) {
        Ok(x) => x,
        Err(o) => return o,
    };
    if layout.size() > LIST_LIMIT {
        let e = layout_core::Error::ListTooLarge {
            size: layout.size(),
            limit: LIST_LIMIT,
        };
        let d = Diag::core(&e, &main_source(text), 0, None);
        return failure(&[d], json, false);
    }
    let offsets: Vec<i64> = match (0..layout.size()).map(|i| layout.eval_index(i)).collect() {
        Ok(o) => o,
        Err(e) => return failure(&[Diag::core(&e, &main_source(text), 0, None)], json, false),
    };
    if json {
        return Output {
            stdout: to_json(&EvalJson {
                layout: notation(&layout, l.written.cute),
                size: layout.size(),
                offsets,
            }),
            stderr: Vec::new(),
            status: 0,
        };
    }
    let mut out = String::new();
    let _ = writeln!(out, "seed   {layout}");
    let _ = writeln!(out, "cute   {}", layout.to_cute());
    let _ = writeln!(out, "size   {}", layout.size());
    // (index, seed coordinate, CuTe coordinate, offset)
    type Row = (String, String, String, String);
    let rows: Vec<Row> = offsets
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let c = unflatten(layout.shape(), i64::try_from(i).unwrap_or(i64::MAX));
            (
                i.to_string(),
                c.to_string(),
                c.reversed().to_string(),
                o.to_string(),
            )
        })
        .collect();
    let w = |f: &dyn Fn(&Row) -> usize, h: &str| rows.iter().map(f).max().unwrap_or(0).max(h.len());
    let (w0, w1, w2) = (
        w(&|r| r.0.len(), "index"),
        w(&|r| r.1.len(), "seed coordinate"),
        w(&|r| r.2.len(), "cute coordinate"),
    );
    let _ = writeln!(
        out,
        "{:>w0$}  {:<w1$}  {:<w2$}  offset",
        "index", "seed coordinate", "cute coordinate"
    );
    for r in &rows {
        let _ = writeln!(out, "{:>w0$}  {:<w1$}  {:<w2$}  {}", r.0, r.1, r.2, r.3);
    }
    Output {
        stdout: out,
        stderr: Vec::new(),
        status: 0,
    }
}

/// A parsed and evaluated expression over the `--def` definitions (the value of a run-time
/// `restrict` does not exist here: the CLI has no run-time values).
pub fn eval_expr(text: &str, cute: bool, defs: &[String]) -> Result<Map, Vec<Diag>> {
    let env = crate::expr::definitions(defs, cute)?;
    crate::expr::evaluate(&main_source(text), cute, &env).map(|v| v.map)
}

#[derive(Serialize)]
struct ExplainJson {
    result: Option<String>,
    cute: Option<String>,
    is_layout: bool,
    coarsest: Option<String>,
    reason: Option<String>,
    emitted: String,
    cost: usize,
    written_cost: usize,
    size: i64,
    /// Every value, or `null` past [`layout_core::DECIDE_LIMIT`] positions.
    values: Option<Vec<i64>>,
    errors: Vec<JsonError>,
}

/// The result of a map as a layout, when it is one: the layout itself, or the domain refined by
/// Theorem 1 (constant 0).
pub fn result_layout(map: &Map, d: &layout_core::Decision) -> Option<Layout> {
    if let Map::Layout(a) = map {
        return Some(a.layout().clone());
    }
    d.coarsest_layout(&map.domain_shape())
}

fn spaces(m: &Map) -> String {
    let t = |t: Option<&[i64]>| t.map_or(String::new(), |t| format!("{t:?}"));
    format!(
        "{}{} -> {}{}",
        m.domain(),
        t(m.domain_tile()),
        m.codomain(),
        t(m.codomain_tile())
    )
}

fn describe(m: &Map) -> &'static str {
    match m {
        Map::Layout(_) => "a layout",
        Map::Swizzled { .. } => "a swizzled map",
        Map::Composite { .. } => "a composite",
        Map::Restricted { .. } => "a restriction",
    }
}

/// `layout explain EXPR [--cute] [--by-mode] [--json]`.
pub fn explain(text: &str, cute: bool, defs: &[String], by_mode: bool, json: bool) -> Output {
    let map = match eval_expr(text, cute, defs) {
        Ok(m) => m,
        Err(d) => return failure(&d, json, false),
    };
    let emitted = match layout_core::emit(&map, by_mode) {
        Ok(e) => e,
        Err(e) => {
            let d = Diag::core(&e, &main_source(text), 0, None);
            return failure(&[d], json, false);
        }
    };
    let mut emitted = emitted;
    if cute {
        reverse_for_cute(&mut emitted.program);
    }
    let d = &emitted.decision;
    let size = map.size();
    // A layout is decided from its strides at any size: every value is listed only up to
    // `DECIDE_LIMIT` positions; the range is exact at any size (`Map::offset_range`).
    let values: Option<Vec<i64>> = if size <= layout_core::DECIDE_LIMIT {
        match (0..size).map(|i| map.eval_index(i)).collect() {
            Ok(v) => Some(v),
            Err(e) => {
                return failure(&[Diag::core(&e, &main_source(text), 0, None)], json, false);
            }
        }
    } else {
        None
    };
    let range = match (map.offset_range(), &values) {
        (Ok(r), _) => Some(r),
        (Err(_), Some(v)) => Some(
            v.iter()
                .fold((i64::MAX, i64::MIN), |(a, b), &x| (a.min(x), b.max(x))),
        ),
        (Err(_), None) => None,
    };
    let coarse = coarsest(d);
    let is_layout = d.is_layout();
    // One source for both lines: a map Theorem 1 decides to be a layout (without a constant)
    // has a result, its coarsest refinement where the domain's own shape does not carry it.
    let result = result_layout(&map, d).or_else(|| {
        if is_layout && d.constant == 0 {
            coarse.clone()
        } else {
            None
        }
    });
    let j = ExplainJson {
        result: result.as_ref().map(|l| notation(l, cute)),
        cute: result.as_ref().map(|l| l.to_cute().to_string()),
        is_layout,
        coarsest: coarse.as_ref().map(|l| notation(l, cute)),
        reason: (!is_layout).then(|| reason(d)),
        emitted: emitted.program.to_python(),
        cost: emitted.program.cost(),
        written_cost: emitted.written_cost,
        size,
        values,
        errors: Vec::new(),
    };
    if json {
        return Output {
            stdout: to_json(&j),
            stderr: Vec::new(),
            status: 0,
        };
    }
    let mut out = String::new();
    let _ = writeln!(out, "map        {}: {}", describe(&map), spaces(&map));
    match range {
        Some((lo, hi)) => {
            let cosize = if lo >= 0 {
                i128::from(hi).saturating_add(1).to_string()
            } else {
                format!("undefined (smallest offset {lo})")
            };
            let _ = writeln!(
                out,
                "size       {size}, cosize {cosize}, offsets {lo}..={hi}"
            );
        }
        None => {
            let _ = writeln!(out, "size       {size}, offset range undecided");
        }
    }
    match &result {
        Some(l) => {
            let _ = writeln!(out, "result     {l}");
            let _ = writeln!(out, "cute       {}", l.to_cute());
        }
        None if d.constant != 0 && is_layout => {
            let _ = writeln!(
                out,
                "result     {} + a layout (a restriction: constant plus map)",
                d.constant
            );
        }
        None => {
            let _ = writeln!(out, "result     not a layout");
        }
    }
    match (&coarse, is_layout) {
        (Some(c), true) => {
            let _ = writeln!(
                out,
                "layout     yes (Theorem 1); coarsest refinement {} ({})",
                notation(c, cute),
                if by_mode {
                    "per top-level mode"
                } else {
                    "per leaf"
                }
            );
        }
        _ => {
            let _ = writeln!(out, "layout     no: {}", reason(d));
        }
    }
    let (dv, md) = emitted.program.div_mod();
    let form = match emitted.form {
        layout_core::ProgramForm::Layout => "layout form",
        layout_core::ProgramForm::Written => "as written",
    };
    for (k, line) in emitted.program.to_python().lines().enumerate() {
        let head = if k == 0 { "emitted" } else { "" };
        let _ = writeln!(out, "{head:<10} {line}");
    }
    let _ = writeln!(
        out,
        "cost       {} ({dv} div, {md} mod, {form}); the composite as written costs {}",
        emitted.program.cost(),
        emitted.written_cost
    );
    Output {
        stdout: out,
        stderr: Vec::new(),
        status: 0,
    }
}

/// The program's coordinates in CuTe's order (the reverse of seed order), named `c0`, `c1`, …
/// in that order.
fn reverse_for_cute(p: &mut layout_core::Program) {
    p.reverse_coordinates();
    p.names = (0..p.sizes.len()).map(|i| format!("c{i}")).collect();
}

/// Options of `emit`.
pub struct EmitOptions<'a> {
    /// `rust`, `c`, `cuda` or `python`.
    pub lang: &'static str,
    /// The integer type.
    pub index: IntType,
    /// The function's name.
    pub name: &'a str,
    /// CuTe order.
    pub cute: bool,
    /// One coordinate per top-level mode.
    pub by_mode: bool,
    /// The `--def` definitions.
    pub defs: &'a [String],
}

#[derive(Serialize)]
struct EmitJson {
    lang: &'static str,
    index: &'static str,
    name: String,
    code: String,
    form: &'static str,
    cost: usize,
    written_cost: usize,
    errors: Vec<JsonError>,
}

/// `layout emit EXPR --lang rust|c|cuda --index i32|i64|u32|usize [--name N] [--json]`.
pub fn emit(text: &str, o: &EmitOptions<'_>, json: bool) -> Output {
    let src = main_source(text);
    if !valid_name(o.name) {
        let src = Source {
            name: "--name",
            text: o.name,
        };
        let d = Diag::option(layout_core::CliOption::Name, &src, 0);
        return failure(&[d], json, false);
    }
    let map = match eval_expr(text, o.cute, o.defs) {
        Ok(m) => m,
        Err(d) => return failure(&d, json, false),
    };
    let mut e = match layout_core::emit(&map, o.by_mode) {
        Ok(e) => e,
        Err(err) => return failure(&[Diag::core(&err, &src, 0, None)], json, false),
    };
    // Under `--cute`, the coordinates in CuTe's order (first mode first).
    if o.cute {
        reverse_for_cute(&mut e.program);
    }
    // Name the coordinates after the domain's modes when each is one coordinate.
    let mut names = map.domain_names();
    if o.cute {
        names.reverse();
    }
    if (o.by_mode || map.domain_shape().leaves().len() == names.len())
        && names.len() == e.program.names.len()
        && names.iter().all(|n| n.as_deref().is_some_and(valid_name))
    {
        e.program.names = names.into_iter().flatten().collect();
    }
    let code = match o.lang {
        "rust" => e.program.to_rust(o.name, o.index),
        "c" => e.program.to_c(o.name, o.index, false),
        "cuda" => e.program.to_c(o.name, o.index, true),
        _ => e.program.check_range(o.index).map(|()| {
            let mut s = e.program.to_python();
            s.push('\n');
            s
        }),
    };
    let code = match code {
        Ok(c) => c,
        Err(err) => return failure(&[Diag::core(&err, &src, 0, None)], json, false),
    };
    if json {
        let j = EmitJson {
            lang: o.lang,
            index: o.index.rust(),
            name: o.name.to_string(),
            code,
            form: match e.form {
                layout_core::ProgramForm::Layout => "layout",
                layout_core::ProgramForm::Written => "written",
            },
            cost: e.program.cost(),
            written_cost: e.written_cost,
            errors: Vec::new(),
        };
        return Output {
            stdout: to_json(&j),
            stderr: Vec::new(),
            status: 0,
        };
    }
    Output {
        stdout: code,
        stderr: Vec::new(),
        status: 0,
    }
}

fn valid_name(n: &str) -> bool {
    let mut c = n.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

//! `layout cute OP ARGS... [--strict] [--json]`: CuTe's operations with CuTe's semantics and
//! CuTe's printing (`layout_core::cute`), (spec: CuTe interoperability; spec: Machine-readable output).
//!
//! A result is printed only when it satisfies CuTe's own unit-test postconditions; otherwise the
//! diagnostic names the violated condition, and where CuTe refuses (or goes wrong on) a
//! composition whose map is still a layout, a note offers that layout.

use std::fmt::Write as _;

use layout_core::Error;
use layout_core::Tree;
use layout_core::cute::{Arg, Cute, CuteOp, Diagnostic, Stage, Value, arity, read_args};
use serde::Serialize;

use crate::Output;
use crate::commands::{LIST_LIMIT, to_json};
use crate::diag::{Diag, JsonError, Source, exit_status};

/// Options of `cute`.
pub struct Options<'a> {
    /// The operation's CuTe name, e.g. `composition`.
    pub op: &'a str,
    /// Its arguments, in CuTe notation.
    pub args: &'a [String],
    /// Require the admissibility conditions (spec: Strict mode) up front.
    pub strict: bool,
    /// Print the JSON (spec: Machine-readable output).
    pub json: bool,
}

/// (spec: Machine-readable output): `{"result", "offsets", "errors", "note"}`.
#[derive(Serialize)]
struct CuteJson {
    result: Option<String>,
    offsets: Option<Vec<i64>>,
    errors: Vec<JsonError>,
    note: Option<String>,
}

/// The names of arguments in messages ("column 5 of argument 2").
const ARG_NAMES: [&str; 2] = ["argument 1", "argument 2"];

/// Reads the operation's name (`logical-divide` is accepted for `logical_divide`); an unknown
/// one is [`Error::UnknownCuteOperation`] with the closest name, located at the argument.
fn read_op(text: &str) -> Result<CuteOp, Diag> {
    let name = text.trim().replace('-', "_");
    name.parse::<CuteOp>().map_err(|_| {
        let src = Source {
            name: "the operation",
            text,
        };
        let closest = CuteOp::ALL
            .iter()
            .map(|op| (distance(&name, op.name()), op.name(), *op))
            .min_by_key(|&(d, n, _)| (d, n))
            .filter(|&(d, _, _)| d <= 3)
            .map(|(_, _, op)| op);
        let span = crate::diag::Span::new(0, text.len());
        let mut d = Diag::core(
            &Error::UnknownCuteOperation { closest },
            &src,
            0,
            Some(span),
        );
        d.unreadable = true;
        // The name as given is the span's text in the JSON.
        d.at = Some(Box::new(crate::diag::At {
            span: src.json_span(&(0..text.len())),
            notes: Vec::new(),
        }));
        d
    })
}

/// The edit distance of two short names (for "did you mean").
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i.saturating_add(1);
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j.saturating_add(1)];
            row[j.saturating_add(1)] = (prev.saturating_add(usize::from(ca != cb)))
                .min(row[j].saturating_add(1))
                .min(cur.saturating_add(1));
            prev = cur;
        }
    }
    row[b.len()]
}

/// The diagnostic of argument `i` that cannot be read: located at its column when the error
/// has one, else naming the argument.
fn arg_diag(e: &Error, i: usize, text: &str) -> Diag {
    let src = Source {
        name: ARG_NAMES[i.min(ARG_NAMES.len().saturating_sub(1))],
        text,
    };
    let located = matches!(
        e,
        Error::Parse { .. }
            | Error::IntegerTooLarge { .. }
            | Error::RuntimeLeaf { .. }
            | Error::NestedName { .. }
    );
    let mut d = Diag::core(e, &src, 0, None);
    if !located {
        d.message = format!("{} (in {})", d.message, src.name);
    }
    d
}

/// Reads the operation and its arguments, each once; the first error found.
fn read(o: &Options<'_>) -> Result<(CuteOp, Vec<Arg>), Diag> {
    let op = read_op(o.op)?;
    let (lo, hi) = arity(op);
    let n = o.args.len();
    if !(lo..=hi).contains(&n) {
        let e = Error::CuteArguments {
            op,
            expected: lo,
            most: hi,
            found: n,
        };
        let mut d = Diag::core(&e, &Source { name: "", text: "" }, 0, None);
        d.unreadable = true;
        return Err(d);
    }
    let args: Vec<&str> = o.args.iter().map(String::as_str).collect();
    let read = read_args(op, &args)
        .map_err(|(i, e)| arg_diag(&e, i, args.get(i).copied().unwrap_or("")))?;
    Ok((op, read))
}

/// The note offering the layout a composition really is ([`Diagnostic::note`]).
fn note(d: &Diagnostic) -> Option<String> {
    d.note().map(|n| n.to_string())
}

/// The diagnostic of a CuTe operation as a CLI error (a rule violation: exit status 1).
fn op_diag(d: &Diagnostic, src: &Source<'_>) -> Diag {
    let mut diag = Diag::core(&d.error(), src, 0, None);
    // Argument parsing was checked first; whatever remains is a rule, not unreadable input.
    diag.unreadable = false;
    diag
}

/// The CuTe (colexicographic, first mode fastest) coordinate of integral index `i`.
fn colex(shape: &Tree<i64>, i: i64) -> Tree<i64> {
    fn walk(t: &Tree<i64>, rest: &mut i64) -> Tree<i64> {
        match t {
            Tree::Leaf(n) => {
                let n = (*n).max(1);
                let c = rest.checked_rem(n).unwrap_or(0);
                *rest = rest.checked_div(n).unwrap_or(0);
                Tree::Leaf(c)
            }
            Tree::Tuple(v) => Tree::Tuple(v.iter().map(|x| walk(x, rest)).collect()),
        }
    }
    let mut rest = i;
    walk(shape, &mut rest)
}

/// The shape of a value's domain: the (innermost) layout's.
fn domain(v: &Value) -> Option<Tree<i64>> {
    match v {
        Value::Layout(l) => Some(l.shape().clone()),
        Value::Composed(c) => match c.stages().pop() {
            Some(Stage::Layout(l)) => Some(l.shape().clone()),
            _ => None,
        },
    }
}

/// The one-line form on stderr; CuTe's conditions carry their rule name.
fn line(d: &Diag) -> String {
    if matches!(d.rule, "syntax" | "cute-arguments" | "unknown-operation") {
        return d.line();
    }
    match &d.help {
        Some(h) => format!("error: [{}] {}; help: {h}", d.rule, d.message),
        None => format!("error: [{}] {}", d.rule, d.message),
    }
}

fn report(errors: &[Diag], note: Option<String>, json: bool) -> Output {
    let status = exit_status(errors).max(1);
    if json {
        return Output {
            stdout: to_json(&CuteJson {
                result: None,
                offsets: None,
                errors: errors.iter().map(Diag::json).collect(),
                note,
            }),
            stderr: Vec::new(),
            status,
        };
    }
    let mut stderr: Vec<String> = errors.iter().map(line).collect();
    if let Some(n) = note {
        stderr.push(format!("note: {n}"));
    }
    Output {
        stdout: String::new(),
        stderr,
        status,
    }
}

/// `layout cute OP ARGS... [--strict] [--json]`.
pub fn command(o: &Options<'_>) -> Output {
    let (op, read) = match read(o) {
        Ok(x) => x,
        Err(d) => return report(&[d], None, o.json),
    };
    let cute = if o.strict {
        Cute::strict()
    } else {
        Cute::new()
    };
    let args: Vec<&str> = o.args.iter().map(String::as_str).collect();
    let src = Source {
        name: ARG_NAMES[0],
        text: args.first().copied().unwrap_or(""),
    };
    let (value, notes) = match cute.apply_args(op, &read) {
        Ok(v) => v,
        Err(d) => return report(&[op_diag(&d, &src)], note(&d), o.json),
    };
    let mut lines: Vec<String> = notes
        .iter()
        .map(|e| {
            format!(
                "{e}; the {} itself satisfies its own postconditions, so this is CuTe's result and it is right",
                op.name()
            )
        })
        .collect();
    let size = value.size();
    let offsets = if size > LIST_LIMIT {
        lines.push(format!(
            "the result has {size} coordinates; offsets are listed for at most {LIST_LIMIT}"
        ));
        None
    } else {
        match value.offsets() {
            Ok(o) => Some(o),
            Err(e) => {
                let d = Diagnostic::from(e);
                return report(&[op_diag(&d, &src)], None, o.json);
            }
        }
    };
    let note = (!lines.is_empty()).then(|| lines.join("; "));
    if o.json {
        return Output {
            stdout: to_json(&CuteJson {
                result: Some(value.to_string()),
                offsets,
                errors: Vec::new(),
                note,
            }),
            stderr: Vec::new(),
            status: 0,
        };
    }
    let mut out = String::new();
    let _ = writeln!(out, "result  {value}");
    let _ = writeln!(out, "size    {size}");
    if let Some(n) = &note {
        let _ = writeln!(out, "note    {n}");
    }
    if let (Some(offsets), Some(shape)) = (offsets, domain(&value)) {
        let rows: Vec<(String, String, String)> = offsets
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let i = i64::try_from(i).unwrap_or(i64::MAX);
                (i.to_string(), colex(&shape, i).to_string(), v.to_string())
            })
            .collect();
        let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(5);
        let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(10);
        let _ = writeln!(out, "{:>w0$}  {:<w1$}  offset", "index", "coordinate");
        for (i, c, v) in rows {
            let _ = writeln!(out, "{i:>w0$}  {c:<w1$}  {v}");
        }
    }
    Output {
        stdout: out,
        stderr: Vec::new(),
        status: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_is_first_mode_fastest() {
        let l: layout_core::cute::CuteLayout = "((2,2),3):((24,2),8)".parse().expect("layout");
        assert_eq!(colex(l.shape(), 0).to_string(), "((0,0),0)");
        assert_eq!(colex(l.shape(), 1).to_string(), "((1,0),0)");
        assert_eq!(colex(l.shape(), 2).to_string(), "((0,1),0)");
        assert_eq!(colex(l.shape(), 5).to_string(), "((1,0),1)");
    }

    #[test]
    fn names_close_to_an_operation_are_suggested() {
        assert_eq!(distance("compositon", "composition"), 1);
        assert_eq!(distance("", "abc"), 3);
        let d = read_op("logical_divde").expect_err("unknown");
        assert!(
            d.help
                .expect("help")
                .starts_with("did you mean `logical_divide`?")
        );
        assert_eq!(read_op("logical-divide").ok(), Some(CuteOp::LogicalDivide));
    }

    #[test]
    fn every_argument_has_a_name() {
        for op in CuteOp::ALL {
            let (lo, hi) = arity(op);
            assert!(lo >= 1 && lo <= hi && hi <= ARG_NAMES.len(), "{op}");
        }
    }
}

//! Conformance of the two front ends of the expression language: the `layout!` macro and the
//! `layout` command are fed the same inputs and must give the same verdict; for a refusal the
//! same diagnostics (message, help, the text they point at, and the secondary notes such as
//! "the colliding mode's stride is here"), for an acceptance the same offset at every
//! enumerated position (at most [`CAP`] per input).
//!
//! The inputs are collected, never retyped:
//! - the UI suite: every `layout!(..)` expression and `layout! { const NAME = ..; }` item of
//!   `ui-tests/ui/**/*.rs` (items become `--def NAME = DECL` for the command, `mod a { .. }`
//!   items `--def a::P = DECL`);
//! - the docs: every `layout!` of the fenced Rust blocks of `docs/*.md`, `README.md` and the
//!   rustdoc of `layout-typed` and `layout-macros`, and the `layout` examples of `docs/cli.md`
//!   (a bare layout becomes the literal `[L, DOMAIN -> CODOMAIN]` of the spaces the command
//!   gives it, `--cute` the `cute` keyword, `--index T` the left operand's `index = T`);
//! - the case files of `tests/data`: the layouts and maps of `seed000_cases.json` (`lemma1`,
//!   `alias_free`, `decide`, `restrict`, and the operations of `op`), and of
//!   `cute_corpus.json` the layouts, the swizzled shared-memory atoms and the thread-value
//!   layouts of the MMA and copy atoms (in CuTe order, under `cute`), each distinct one once.
//!
//! The macro side is one generated crate with one module per input, checked once with
//! `cargo check --message-format=json` (errors of separate invocations do not stop each other);
//! each diagnostic is mapped to its input by its span. The accepted inputs are built and run
//! in a second crate that prints the offsets. The command side runs the built `layout` binary
//! with `--json` per input: `explain [DECL]` for a declaration, `explain NAME --def 'NAME =
//! DECL'` for an item, `explain EXPR --def ..` for an expression or an item defined by one,
//! and each `docs/cli.md` example as written; an error's `span` gives the text it points at.
//!
//! The macro's text carries no rule name and no mode path, so messages and helps are compared
//! exactly (the command's message less the column it adds), and they name both: the test
//! checks that each message names the mode path of the command's `mode`. One rule is
//! worded by rustc: an operand that names no item (`layout!` resolves operands through Rust).
//! Inputs one front end cannot express are counted per source and skipped with the reason:
//! run-time `{expr}` leaves and run-time `restrict` values (the command reads static text),
//! operands that only Rust's `use` or a crate-root path resolves, operands defined by an
//! expression (the command's `--def` reads declarations), text Rust's lexer refuses
//! (unbalanced delimiters), and the `docs/cli.md` examples that ask another question
//! (`conflicts`, `cute`) or use `--cute` order inside operations.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use layout_core::expr::{self, Arrangement, BareSpaces, Expr, Options, Order, Span};
use layout_tests::{cargo_crate, load, looks_like_layout, workspace_root};
use serde_json::Value as Json;

/// The most positions whose offsets are compared per accepted input.
const CAP: usize = 4096;

/// Where the inputs come from.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Origin {
    Ui,
    Docs,
    CliDocs,
    Data,
}

/// What `layout!` is given.
#[derive(Clone, Debug)]
enum Form {
    /// `layout!(DECL)`.
    Decl(String),
    /// `layout!(EXPR)` with the items of `defs` declared beside it.
    Expr(String),
    /// `layout! { const NAME = DECL; }`: `defs[0]`.
    Item,
}

/// One input for both front ends.
#[derive(Clone, Debug)]
struct Input {
    origin: Origin,
    /// File and line, for messages.
    place: String,
    form: Form,
    /// `(name, decl)` of the items the input declares or uses.
    defs: Vec<(String, String)>,
    /// The command's arguments (without `--json`).
    cli: Vec<String>,
}

/// An input that one front end cannot express, and why.
#[derive(Debug)]
struct Skipped {
    origin: Origin,
    place: String,
    why: &'static str,
}

/// A `layout!` call found in a text: its argument, the byte offset of the argument, and
/// whether it is the item form (`layout! { .. }`).
struct Call {
    text: String,
    at: usize,
    item: bool,
}

/// The text with `//` comments blanked (same length, so offsets stay).
fn blank_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let bytes = line.as_bytes();
        let mut in_str = false;
        let mut cut = None;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' if in_str => i += 1,
                b'"' => in_str = !in_str,
                b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => {
                    cut = Some(i);
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        match cut {
            Some(c) => {
                out.push_str(&line[..c]);
                for ch in line[c..].chars() {
                    if ch == '\n' {
                        out.push('\n');
                    } else {
                        out.push_str(&" ".repeat(ch.len_utf8()));
                    }
                }
            }
            None => out.push_str(line),
        }
    }
    out
}

/// Every `layout!` call of a Rust text.
fn calls(text: &str) -> Vec<Call> {
    let clean = blank_comments(text);
    let b = clean.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = clean[from..].find("layout!") {
        let start = from + k;
        from = start + 7;
        if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
            continue;
        }
        let mut i = from;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let (open, close) = match b.get(i) {
            Some(b'(') => (b'(', b')'),
            Some(b'{') => (b'{', b'}'),
            Some(b'[') => (b'[', b']'),
            _ => continue,
        };
        let mut depth = 0usize;
        let mut j = i;
        while j < b.len() {
            if b[j] == open {
                depth += 1;
            } else if b[j] == close {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            j += 1;
        }
        assert!(j < b.len(), "unbalanced `layout!` call at byte {start}");
        out.push(Call {
            text: text[i + 1..j].to_string(),
            at: i + 1,
            item: open == b'{',
        });
        from = j;
    }
    out
}

/// The items `const NAME = DECL;` of an item-form call: name, declaration and the
/// declaration's byte offset in the call's text.
fn items(call: &str) -> Vec<(String, String)> {
    let clean = blank_comments(call);
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in clean.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ';' if depth == 0 => {
                out.push(item(&clean[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    assert!(clean[start..].trim().is_empty(), "an item without `;`");
    out
}

/// One item, `#[attrs] vis const NAME = DECL`.
fn item(text: &str) -> (String, String) {
    let at = text
        .find("const ")
        .unwrap_or_else(|| panic!("not an item: {text}"));
    let rest = &text[at + 6..];
    let (name, decl) = rest
        .split_once('=')
        .unwrap_or_else(|| panic!("not an item: {text}"));
    (name.trim().to_string(), decl.trim().to_string())
}

/// A declaration (`layout!(DECL)`) rather than an algebra expression: it starts with a layout.
fn is_decl(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with(|c: char| c == '(' || c == '_' || c == '-' || c == '{' || c.is_ascii_digit())
        || t.starts_with("cute ")
}

/// The path of `mod` blocks around byte `at` of a text (comments blanked).
fn module_at(clean: &str, at: usize) -> Vec<String> {
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    for (i, c) in clean[..at].char_indices() {
        match c {
            '{' => {
                depth += 1;
                let before: Vec<&str> = clean[..i].split_whitespace().rev().take(2).collect();
                if let [name, "mod"] = before[..] {
                    stack.push((name.to_string(), depth));
                }
            }
            '}' => {
                if stack.last().is_some_and(|(_, d)| *d == depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    stack.into_iter().map(|(n, _)| n).collect()
}

/// `module::name`.
fn qualified(module: &[String], name: &str) -> String {
    module
        .iter()
        .map(String::as_str)
        .chain([name])
        .collect::<Vec<_>>()
        .join("::")
}

/// Why the command cannot express an expression, if it cannot: run-time leaves and values.
fn runtime(text: &str) -> Option<&'static str> {
    if text.contains('{') {
        return Some("run-time `{expr}` leaves (the command reads static layouts only)");
    }
    let opts = Options::default();
    let e = expr::parse_algebra(text, &opts).ok()?.expr;
    fn walk(e: &Expr<Span>) -> bool {
        match e {
            Expr::Operand(_) | Expr::Literal(..) | Expr::Bare(..) => false,
            Expr::Compose { left, right, .. } => walk(left) || walk(right),
            Expr::Restrict { operand, fixed, .. } => {
                fixed.iter().any(|(_, v)| v.has_runtime()) || walk(operand)
            }
            Expr::Repeat {
                operand,
                arrangement,
                ..
            } => {
                walk(operand)
                    || match &**arrangement {
                        Arrangement::Layout(_) => false,
                        Arrangement::Expr(a) => walk(a),
                    }
            }
            Expr::Divide { operand, .. }
            | Expr::Broadcast { operand, .. }
            | Expr::Inverse { operand, .. }
            | Expr::Swizzle { operand, .. }
            | Expr::Regroup { operand, .. } => walk(operand),
        }
    }
    walk(&e).then_some("run-time `restrict` values (the command reads static values only)")
}

/// The path operands of an expression (keys as written, `a::P`).
fn operands(text: &str) -> Vec<String> {
    match expr::parse_algebra(text, &Options::default()) {
        Ok(a) => a.expr.operands().iter().map(|p| p.key()).collect(),
        Err(_) => Vec::new(),
    }
}

/// Turns the calls of one unit of Rust text (a UI file, a doc block) into inputs.
fn unit_inputs(
    origin: Origin,
    (file, first_line): (&str, usize),
    text: &str,
    inputs: &mut Vec<Input>,
    skipped: &mut Vec<Skipped>,
) {
    let cs = calls(text);
    let line = |at: usize| text[..at].lines().count().max(1);
    // Items by their path from the unit's root (`a::P` for `mod a { .. const P .. }`).
    let clean = blank_comments(text);
    let mut defs: Vec<(String, String)> = Vec::new();
    for c in &cs {
        if c.item {
            let module = module_at(&clean, c.at);
            for (n, d) in items(&c.text) {
                defs.push((qualified(&module, &n), d));
            }
        }
    }
    // Each operand of an expression as written, and the item it names: in the expression's
    // module, or (for a plain name) at the unit's root. A path from the crate root, or one
    // that only Rust's imports resolve, has no item here; an item defined by an expression is
    // no `--def` of the command.
    let resolve = |t: &str, at: usize| -> Result<Vec<(String, String)>, &'static str> {
        let module = module_at(&clean, at);
        let mut mine: Vec<(String, String)> = Vec::new();
        let mut unresolved = false;
        for k in operands(t) {
            let here = qualified(&module, &k);
            let found = defs
                .iter()
                .rev()
                .find(|(n, _)| *n == here)
                .or_else(|| defs.iter().rev().find(|(n, _)| *n == k));
            match found {
                Some((_, d)) if !is_decl(d) => {
                    return Err(
                        "an operand defined by an expression (the command's `--def` reads declarations)",
                    );
                }
                Some((_, d)) if !k.starts_with("crate::") && !k.starts_with("::") => {
                    mine.push((k, d.clone()));
                }
                _ => unresolved |= k.contains("::"),
            }
        }
        if unresolved {
            return Err(
                "an operand named by a path from the crate root or through `use` (Rust's name lookup)",
            );
        }
        Ok(mine)
    };
    for c in &cs {
        let place = format!("{file}:{}", first_line + line(c.at) - 1);
        if c.item {
            for (name, decl) in items(&c.text) {
                if let Some(why) = runtime(&decl) {
                    skipped.push(Skipped {
                        origin,
                        place: place.clone(),
                        why,
                    });
                    continue;
                }
                if !is_decl(&decl) {
                    // An item defined by an expression: the command explains the expression
                    // over the operands' definitions; the macro's value is the item's.
                    match resolve(&decl, c.at) {
                        Ok(mine) => {
                            let mut cli = vec!["explain".into(), decl.clone()];
                            for (n, d) in &mine {
                                cli.push("--def".into());
                                cli.push(format!("{n} = {d}"));
                            }
                            let mut defs = vec![(name, decl)];
                            defs.extend(mine);
                            inputs.push(Input {
                                origin,
                                place: place.clone(),
                                form: Form::Item,
                                cli,
                                defs,
                            });
                        }
                        Err(why) => skipped.push(Skipped {
                            origin,
                            place: place.clone(),
                            why,
                        }),
                    }
                    continue;
                }
                inputs.push(Input {
                    origin,
                    place: place.clone(),
                    form: Form::Item,
                    cli: vec![
                        "explain".into(),
                        name.clone(),
                        "--def".into(),
                        format!("{name} = {decl}"),
                    ],
                    defs: vec![(name, decl)],
                });
            }
            continue;
        }
        let t = c.text.trim().to_string();
        if let Some(why) = runtime(&t) {
            skipped.push(Skipped { origin, place, why });
            continue;
        }
        if is_decl(&t) {
            inputs.push(Input {
                origin,
                place,
                cli: vec!["explain".into(), format!("[{t}]")],
                form: Form::Decl(t),
                defs: Vec::new(),
            });
            continue;
        }
        let mine = match resolve(&t, c.at) {
            Ok(mine) => mine,
            Err(why) => {
                skipped.push(Skipped { origin, place, why });
                continue;
            }
        };
        let mut cli = vec!["explain".into(), t.clone()];
        for (n, d) in &mine {
            cli.push("--def".into());
            cli.push(format!("{n} = {d}"));
        }
        inputs.push(Input {
            origin,
            place,
            form: Form::Expr(t),
            defs: mine,
            cli,
        });
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(workspace_root())
        .unwrap_or(p)
        .display()
        .to_string()
        .trim_start_matches("../")
        .to_string()
}

/// The fenced blocks of a Markdown text whose info string `keep`s: (first line, text).
fn fenced(text: &str, keep: impl Fn(&str) -> bool) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    // The open block: its first line, whether it is kept, and its code.
    let mut cur: Option<(usize, bool, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(info) = t.strip_prefix("```") {
            match cur.take() {
                Some((first, true, code)) => out.push((first, code)),
                Some(_) => {}
                None => cur = Some((n + 2, keep(info.trim()), String::new())),
            }
            continue;
        }
        if let Some((_, true, code)) = &mut cur {
            // Rustdoc's hidden lines are code too.
            let line = if t == "#" {
                ""
            } else {
                t.strip_prefix("# ").unwrap_or(line)
            };
            code.push_str(line);
            code.push('\n');
        }
    }
    out
}

fn is_rust_info(info: &str) -> bool {
    info.is_empty()
        || info.split(',').any(|w| {
            matches!(
                w.trim(),
                "rust" | "ignore" | "no_run" | "compile_fail" | "should_panic"
            ) || w.trim().starts_with("edition")
        })
}

/// The UI suite.
fn ui_inputs(inputs: &mut Vec<Input>, skipped: &mut Vec<Skipped>) {
    let mut files = Vec::new();
    rs_files(&workspace_root().join("ui-tests").join("ui"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        unit_inputs(Origin::Ui, (&rel(&f), 1), &text, inputs, skipped);
    }
}

/// The docs: Markdown blocks and rustdoc blocks.
fn docs_inputs(inputs: &mut Vec<Input>, skipped: &mut Vec<Skipped>) {
    let root = workspace_root();
    let mut mds: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    mds.sort();
    mds.push(root.join("README.md"));
    for md in mds {
        let text = std::fs::read_to_string(&md).expect("read");
        for (line, block) in fenced(&text, |i| i.starts_with("rust")) {
            unit_inputs(Origin::Docs, (&rel(&md), line), &block, inputs, skipped);
        }
    }
    for krate in ["layout-typed", "layout-macros"] {
        let mut files = Vec::new();
        rs_files(&root.join(krate).join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).expect("read");
            // Runs of doc comment lines, as Markdown.
            let mut doc = String::new();
            let mut first = 0;
            let lines: Vec<&str> = text.lines().collect();
            for (n, l) in lines.iter().enumerate() {
                let t = l.trim_start();
                let body = t
                    .strip_prefix("///")
                    .or_else(|| t.strip_prefix("//!"))
                    .map(|b| b.strip_prefix(' ').unwrap_or(b));
                if let Some(b) = body {
                    if doc.is_empty() {
                        first = n + 1;
                    }
                    doc.push_str(b);
                    doc.push('\n');
                }
                if body.is_none() || n + 1 == lines.len() {
                    if !doc.is_empty() {
                        for (line, block) in fenced(&doc, is_rust_info) {
                            let at = (rel(&f), first + line - 1);
                            unit_inputs(Origin::Docs, (&at.0, at.1), &block, inputs, skipped);
                        }
                    }
                    doc.clear();
                }
            }
        }
    }
}

/// Shell words of one command line (single and double quotes, no escapes inside single ones).
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut q: Option<char> = None;
    for c in line.chars() {
        match (q, c) {
            (Some(open), c) if c == open => q = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                q = Some(c);
                have = true;
            }
            (None, '#') if !have => break,
            (None, c) if c.is_whitespace() => {
                if have {
                    out.push(std::mem::take(&mut cur));
                    have = false;
                }
            }
            (None, c) => {
                cur.push(c);
                have = true;
            }
        }
    }
    if have {
        out.push(cur);
    }
    out
}

/// A bare layout of the command's expression written as the literal `[L, DOM -> COD]` of its
/// position's spaces (what the command gives it), `cute` first under `--cute`, and the first
/// with `index = T` for `--index T`; `None` when the text does not parse (the macro then gets
/// it as written).
fn bracket_bare(text: &str, cute: bool, index: Option<&str>) -> Option<String> {
    let opts = Options {
        order: if cute { Order::Cute } else { Order::Seed },
        bare: Some(BareSpaces::default()),
        runtime: false,
    };
    let e = expr::parse_expr(text, &opts).ok()?;
    let mut bare: Vec<(Span, String)> = Vec::new();
    fn walk(e: &Expr<Span>, text: &str, cute: bool, out: &mut Vec<(Span, String)>) {
        match e {
            Expr::Bare(l, (d, c)) => {
                let k = if cute && !l.cute { "cute " } else { "" };
                out.push((
                    l.span.clone(),
                    format!("[{k}{}, {d} -> {c}]", &text[l.span.clone()]),
                ));
            }
            Expr::Operand(_) | Expr::Literal(..) => {}
            Expr::Compose { left, right, .. } => {
                walk(left, text, cute, out);
                walk(right, text, cute, out);
            }
            Expr::Repeat {
                operand,
                arrangement,
                ..
            } => {
                walk(operand, text, cute, out);
                if let Arrangement::Expr(a) = &**arrangement {
                    walk(a, text, cute, out);
                }
            }
            Expr::Divide { operand, .. }
            | Expr::Restrict { operand, .. }
            | Expr::Broadcast { operand, .. }
            | Expr::Inverse { operand, .. }
            | Expr::Swizzle { operand, .. }
            | Expr::Regroup { operand, .. } => walk(operand, text, cute, out),
        }
    }
    walk(&e, text, cute, &mut bare);
    bare.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
    // The index type is the left operand's: the first layout written.
    if let (Some(i), Some((_, r))) = (index, bare.last_mut()) {
        r.insert_str(r.len() - 1, &format!(", index = {i}"));
    }
    let mut t = text.to_string();
    for (s, r) in bare {
        // A bare layout under `cute` starts at the keyword.
        let start = if t[..s.start].trim_end().ends_with("cute") {
            t[..s.start].trim_end().len() - 4
        } else {
            s.start
        };
        t.replace_range(start..s.end, &r);
    }
    Some(t)
}

/// Whether an expression applies an operation (not one layout or literal).
fn has_operation(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with(|c: char| c.is_ascii_alphabetic()) && !t.starts_with("cute")
}

/// The examples of `docs/cli.md`: `$ layout ...` lines of its text blocks.
fn cli_docs_inputs(inputs: &mut Vec<Input>, skipped: &mut Vec<Skipped>) {
    let path = workspace_root().join("docs").join("cli.md");
    let text = std::fs::read_to_string(&path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let mut n = 0;
    while n < lines.len() {
        let Some(mut cmd) = lines[n]
            .trim_start()
            .strip_prefix("$ layout ")
            .map(String::from)
        else {
            n += 1;
            continue;
        };
        let place = format!("docs/cli.md:{}", n + 1);
        // Continuation lines.
        while cmd.trim_end().ends_with('\\') && n + 1 < lines.len() {
            let t = cmd.trim_end();
            cmd = format!("{} {}", &t[..t.len() - 1], lines[n + 1].trim());
            n += 1;
        }
        n += 1;
        let mut words = shell_words(&cmd);
        let command = words.remove(0);
        let cute = words.iter().any(|w| w == "--cute");
        let flag_value = |name: &str| {
            words
                .iter()
                .position(|w| w == name)
                .and_then(|i| words.get(i + 1).cloned())
        };
        let positional: Vec<String> = {
            let mut v = Vec::new();
            let mut i = 0;
            while i < words.len() {
                let w = &words[i];
                if matches!(
                    w.as_str(),
                    "--space" | "--lang" | "--index" | "--name" | "--tile" | "-o" | "--def"
                ) {
                    i += 2;
                    continue;
                }
                if !w.starts_with('-') {
                    v.push(w.clone());
                }
                i += 1;
            }
            v
        };
        let mut cli: Vec<String> = std::iter::once(command.clone())
            .chain(words.iter().filter(|w| *w != "--json").cloned())
            .collect();
        if command == "draw" && !cli.iter().any(|w| w == "--text" || w == "-o") {
            cli.push("--text".into());
        }
        let form = match command.as_str() {
            "check" | "eval" => {
                let l = &positional[0];
                let spaces = if command == "check" {
                    flag_value("--space").unwrap_or_else(|| "logical->physical".into())
                } else {
                    "logical->physical".into()
                };
                let k = if cute { "cute " } else { "" };
                Form::Decl(format!("{k}{l}, {spaces}"))
            }
            "explain" | "emit" | "draw" => {
                let e = &positional[0];
                if cute && has_operation(e) {
                    skipped.push(Skipped {
                        origin: Origin::CliDocs,
                        place,
                        why: "`--cute` reads an operation's tiles, shapes and positions in CuTe order: `layout!` has no such form",
                    });
                    continue;
                }
                let index = flag_value("--index");
                // `--index T` is the index type of the left operand: the first layout written,
                // which must be a bare layout to take the option.
                let mut left = e.trim_start();
                while let Some((op, rest)) = left.split_once('(')
                    && !op.is_empty()
                    && op
                        .trim()
                        .chars()
                        .all(|c| c.is_ascii_alphabetic() || c == '_')
                    && op.trim() != "cute"
                {
                    left = rest.trim_start();
                }
                let parsed = bracket_bare(e, cute, index.as_deref());
                if index.is_some() && (!is_decl(left) || parsed.is_none()) {
                    skipped.push(Skipped {
                        origin: Origin::CliDocs,
                        place,
                        why: "`--index` where the left operand is not a bare layout: `layout!` takes the index type in a declaration",
                    });
                    continue;
                }
                match parsed {
                    Some(t) if t.starts_with('[') && t.ends_with(']') && !has_operation(e) => {
                        Form::Decl(t[1..t.len() - 1].to_string())
                    }
                    Some(t) => Form::Expr(t),
                    None => Form::Expr(e.clone()),
                }
            }
            _ => {
                skipped.push(Skipped {
                    origin: Origin::CliDocs,
                    place,
                    why: "another question than the language's verdict (`conflicts`: bank conflicts; `cute`: CuTe's operations with CuTe's semantics): no `layout!` form",
                });
                continue;
            }
        };
        if let Form::Decl(t) | Form::Expr(t) = &form
            && !balanced(t)
        {
            skipped.push(Skipped {
                origin: Origin::CliDocs,
                place,
                why: "unbalanced delimiters: Rust's lexer refuses the tokens before `layout!` sees them",
            });
            continue;
        }
        inputs.push(Input {
            origin: Origin::CliDocs,
            place,
            form,
            defs: Vec::new(),
            cli,
        });
    }
}

/// Whether `()`, `[]` and `{}` nest properly (Rust's lexer refuses the tokens otherwise).
fn balanced(text: &str) -> bool {
    let mut stack = Vec::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if stack.pop() != Some(open) {
                    return false;
                }
            }
            _ => {}
        }
    }
    stack.is_empty()
}

/// A seed-case layout as text: nested JSON lists, `"BOT"` as `_`.
fn json_text(v: &Json) -> String {
    match v {
        Json::Array(a) => format!(
            "({})",
            a.iter().map(json_text).collect::<Vec<_>>().join(",")
        ),
        Json::String(s) if s == "BOT" => "_".into(),
        _ => v.to_string(),
    }
}

/// A seed-case map as an expression.
fn map_text(m: &Json) -> Option<String> {
    let ty = m.get("type").and_then(Json::as_str).unwrap_or("layout");
    Some(match ty {
        "layout" => format!(
            "[{}:{}, {} -> {}]",
            json_text(&m["shape"]),
            json_text(&m["stride"]),
            m.get("dom").and_then(Json::as_str).unwrap_or("logical"),
            m.get("cod").and_then(Json::as_str).unwrap_or("physical"),
        ),
        "composite" => format!(
            "compose({}, {})",
            map_text(&m["left"])?,
            map_text(&m["right"])?
        ),
        "swizzle" => format!(
            "swizzle({}, b = {}, src = {}, dst = {})",
            map_text(&m["inner"])?,
            m["b"],
            m["src"],
            m["dst"]
        ),
        "restrict" => {
            let fixed = m["fixed"].as_object()?;
            let entries: Vec<String> = fixed
                .iter()
                .map(|(k, v)| format!("{k} = {}", json_text(v)))
                .collect();
            format!(
                "restrict({}, {})",
                map_text(&m["inner"])?,
                entries.join(", ")
            )
        }
        _ => return None,
    })
}

/// The case files.
fn data_inputs(inputs: &mut Vec<Input>) {
    // The same layout recurs across cases (an atom's operand, a composition's): once each.
    let mut seen = std::collections::BTreeSet::new();
    let mut push = |place: String, text: String| {
        if !seen.insert(text.clone()) {
            return;
        }
        let (form, cli) = if text.starts_with('[') && text.ends_with(']') {
            let inner = text[1..text.len() - 1].to_string();
            (Form::Decl(inner), vec!["explain".into(), text])
        } else {
            (Form::Expr(text.clone()), vec!["explain".into(), text])
        };
        inputs.push(Input {
            origin: Origin::Data,
            place,
            form,
            defs: Vec::new(),
            cli,
        });
    };
    for (i, c) in load("seed000_cases.json").iter().enumerate() {
        let place = format!("tests/data/seed000_cases.json#{i} ({})", c["kind"]);
        match c["kind"].as_str() {
            Some("lemma1") => {
                let l = &c["layout"];
                push(
                    place,
                    format!(
                        "[{}:{}, logical -> logical]",
                        json_text(&l["shape"]),
                        json_text(&l["stride"])
                    ),
                );
            }
            Some("alias_free") => {
                let m = &c["layout"];
                if let Some(t) = map_text(m) {
                    push(place, t);
                }
            }
            Some("decide" | "restrict") => {
                if let Some(t) = map_text(&c["map"]) {
                    push(place, t);
                }
            }
            Some("op") => {
                let a = &c["args"];
                let l = || {
                    format!(
                        "{}:{}",
                        json_text(&a["L"]["shape"]),
                        json_text(&a["L"]["stride"])
                    )
                };
                let text = match c["op"].as_str() {
                    Some(op @ ("divide" | "divide_modes")) => format!(
                        "{op}([{}, logical -> physical], {})",
                        l(),
                        json_text(&a["S"])
                    ),
                    Some(op @ ("repeat" | "interleave")) => format!(
                        "{op}([{}, logical -> physical], {}:{})",
                        l(),
                        json_text(&a["A"]["shape"]),
                        json_text(&a["A"]["stride"])
                    ),
                    Some("inverse") => format!("inverse([{}, thread-value -> logical])", l()),
                    // `canonical`, `scale_mode` and the mode-wise repeats are not operations
                    // of the expression language.
                    _ => continue,
                };
                push(place, text);
            }
            _ => {}
        }
    }
    for c in load("cute_corpus.json") {
        let id = c["id"].as_str().unwrap_or("?");
        let place = format!("tests/data/cute_corpus.json {id}");
        let inputs = &c["inputs"];
        if let Some(l) = inputs["layout"].as_str().filter(|l| looks_like_layout(l)) {
            push(place.clone(), format!("[cute {l}, logical -> physical]"));
            // A shared-memory atom with its swizzle, on element offsets of its width.
            if let (Some(sw), Some(bits)) = (
                inputs["swizzle"].as_array(),
                inputs["element_bits"].as_i64(),
            ) {
                let f: Vec<String> = sw.iter().map(Json::to_string).collect();
                push(
                    place.clone(),
                    format!(
                        "[cute {l}, logical -> physical, Swizzle<{}> over bytes of {bits}-bit elements]",
                        f.join(",")
                    ),
                );
            }
        }
        // The thread-value layouts of the MMA and copy atoms, and the layout operands of the
        // operations (tilers are not layouts).
        for key in ["ThrID", "A", "B", "C", "Src", "Dst", "Ref"] {
            if let Some(l) = inputs[key].as_str().filter(|l| looks_like_layout(l)) {
                push(
                    format!("{place} {key}"),
                    format!("[cute {l}, thread-value -> logical]"),
                );
            }
        }
    }
}

/// One diagnostic of either front end: message (without the command's column), help and
/// the text it points at (`None`: an error of a command-line flag, not of the text).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Diag {
    message: String,
    help: Option<String>,
    text: Option<String>,
}

/// The command's message less the column it adds (`(column N)`, `syntax error at column N: `,
/// `of --def`).
fn strip_column(m: &str) -> String {
    let mut m = m.to_string();
    if let Some(rest) = m.strip_prefix("syntax error at column ")
        && let Some((_, after)) = rest.split_once(": ")
    {
        m = after.to_string();
    }
    if let Some(open) = m.rfind(" (column ")
        && m.ends_with(')')
    {
        m.truncate(open);
    }
    m
}

/// A message with the column it names inside itself (`integer at column N does not fit`)
/// written `column _`: that column counts in the front end's own frame (the source line for the
/// macro, the argument for the command), and the token itself is compared by its text.
fn frame_free(m: &str) -> String {
    let mut out = String::new();
    let mut rest = m;
    while let Some(i) = rest.find("column ") {
        let (head, tail) = rest.split_at(i + "column ".len());
        out.push_str(head);
        let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 {
            out.push('_');
        }
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
}

/// The verdict of one front end: the offsets of an accepted input, or its diagnostics.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Accepted(Option<Vec<i64>>),
    Refused(Vec<Diag>),
}

impl Verdict {
    /// For messages: the diagnostics, or the first offsets.
    fn show(&self) -> String {
        match self {
            Verdict::Accepted(None) => "accepted".into(),
            Verdict::Accepted(Some(v)) => format!(
                "accepted, {} offsets: {:?}{}",
                v.len(),
                &v[..v.len().min(12)],
                if v.len() > 12 { " .." } else { "" }
            ),
            Verdict::Refused(d) => {
                let mut s = String::from("refused:");
                for x in d {
                    let _ = write!(
                        s,
                        "\n      {:?} (help: {:?}) at {:?}",
                        x.message, x.help, x.text
                    );
                }
                s
            }
        }
    }
}

fn cli_binary() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args([
            "build",
            "-p",
            "layout-cli",
            "--bin",
            "layout",
            "--quiet",
            "--offline",
            "--message-format=json",
        ])
        .current_dir(workspace_root())
        .output()
        .expect("cargo builds the command");
    assert!(
        out.status.success(),
        "the command does not build: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter_map(|j| j["executable"].as_str().map(PathBuf::from))
        .next_back()
        .expect("the command's executable")
}

fn cli_verdict(bin: &Path, input: &Input) -> Verdict {
    let out = Command::new(bin)
        .args(&input.cli)
        .arg("--json")
        .output()
        .expect("the command runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let j: Json = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "{}: `layout {}` prints no JSON ({e}): {stdout}{}",
            input.place,
            input.cli.join(" "),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let errors = j["errors"].as_array().cloned().unwrap_or_default();
    if errors.is_empty() && out.status.success() {
        let field = match input.cli[0].as_str() {
            "explain" => "values",
            "eval" => "offsets",
            _ => "",
        };
        let values = j.get(field).and_then(Json::as_array).map(|v| {
            v.iter()
                .take(CAP)
                .map(|x| x.as_i64().expect("an offset"))
                .collect()
        });
        // `eval --cute` lists the offsets in CuTe order: the macro's are in seed order.
        let cute = input.cli.iter().any(|w| w == "--cute");
        return Verdict::Accepted(if cute { None } else { values });
    }
    let mut diags = Vec::new();
    for e in errors {
        let text = e["span"]["text"].as_str().map(String::from);
        let (message, help) = match (e["rule"].as_str(), &text) {
            // `layout!` resolves its operands through Rust (each operand's item defines a
            // macro that hands its declaration back), so an operand that names no item is
            // rustc's error at the same token: the one rule whose wording is the compiler's.
            (Some("unknown-operand"), Some(t)) => {
                (format!("cannot find macro `{t}` in this scope"), None)
            }
            _ => (
                frame_free(&strip_column(e["message"].as_str().unwrap_or(""))),
                e["help"].as_str().map(String::from),
            ),
        };
        // The mode path: the macro's text has none, but the message names it, and the
        // messages are compared.
        let mode: Vec<String> = e["mode"]
            .as_array()
            .into_iter()
            .flatten()
            .map(Json::to_string)
            .collect();
        let named = match mode.len() {
            0 => None,
            1 => Some(format!("mode {}", mode[0])),
            _ => Some(format!("mode ({})", mode.join(","))),
        };
        if let Some(named) = named {
            assert!(
                message.contains(&named),
                "{}: the message `{message}` does not name its mode path {}",
                input.place,
                e["mode"]
            );
        }
        diags.push(Diag {
            message,
            help,
            text,
        });
        for n in e["notes"].as_array().into_iter().flatten() {
            diags.push(Diag {
                message: n["message"].as_str().unwrap_or("").to_string(),
                help: None,
                text: n["span"]["text"].as_str().map(String::from),
            });
        }
    }
    diags.sort();
    Verdict::Refused(diags)
}

/// The generated module of one input, and where it lies in the crate's source.
struct Module {
    range: std::ops::Range<usize>,
    /// Every `layout!` invocation in it, whole: a diagnostic there is at the end of the input
    /// (the macro's call site), which the command's JSON writes as an empty span.
    calls: Vec<std::ops::Range<usize>>,
}

fn module_source(id: usize, input: &Input, run: bool, src: &mut String) -> Module {
    let start = src.len();
    let mut calls = Vec::new();
    let _ = writeln!(src, "mod input{id} {{\n    use super::*;");
    // An operand `a::P` is the item `P` of a module `a` beside the expression.
    for (key, d) in &input.defs {
        let segments: Vec<&str> = key.split("::").collect();
        let (name, path) = segments.split_last().expect("a name");
        for m in path {
            let _ = write!(src, "mod {m} {{ use layout_typed::prelude::*; ");
        }
        let item = format!("layout! {{ pub const {name} = {d}; }}");
        let at = src.len() + if path.is_empty() { 4 } else { 0 };
        if path.is_empty() {
            src.push_str("    ");
        }
        calls.push(at..at + item.len());
        src.push_str(&item);
        src.push_str(&"}".repeat(path.len()));
        src.push('\n');
    }
    // Checked as the UI suite writes it (`let _ = layout!(..)`); run through `dump`.
    let value = match &input.form {
        Form::Decl(t) | Form::Expr(t) => format!("layout!({t})"),
        Form::Item => input.defs[0].0.clone(),
    };
    if run {
        let _ = writeln!(
            src,
            "    pub fn run() {{\n        dump({id}, &{value});\n    }}"
        );
    } else {
        let _ = write!(src, "    pub fn run() {{\n        let _ = ");
        calls.push(src.len()..src.len() + value.len());
        let _ = writeln!(src, "{value};\n    }}");
    }
    src.push_str("}\n");
    Module {
        range: start..src.len(),
        calls,
    }
}

const PRELUDE: &str = "#![allow(warnings, clippy::all)]\nuse layout_typed::prelude::*;\n\
fn dump<L: Layout>(id: usize, l: &L) {\n    let mut s = id.to_string();\n    \
for i in 0..L::SIZE.min(CAP) {\n        s.push(' ');\n        s.push_str(&l.offset_index(i).to_string());\n    }\n    \
println!(\"{s}\");\n}\n";

fn crate_source(
    inputs: &[Input],
    run: bool,
    keep: impl Fn(usize) -> bool,
) -> (String, Vec<Option<Module>>) {
    let mut src = format!("{PRELUDE}const CAP: usize = {CAP};\n");
    let mut modules = Vec::new();
    let mut main = String::from("fn main() {\n");
    for (id, input) in inputs.iter().enumerate() {
        if keep(id) {
            modules.push(Some(module_source(id, input, run, &mut src)));
            let _ = writeln!(main, "    input{id}::run();");
        } else {
            modules.push(None);
        }
    }
    main.push_str("}\n");
    src.push_str(&main);
    (src, modules)
}

/// `cargo check` of every input at once: the diagnostics of each.
fn macro_diagnostics(inputs: &[Input]) -> Vec<Vec<Diag>> {
    let (src, modules) = crate_source(inputs, false, |_| true);
    let out = cargo_crate(
        "conformance_check",
        &src,
        &["check", "--message-format=json"],
    );
    let mut per: Vec<Vec<Diag>> = vec![Vec::new(); inputs.len()];
    let mut stray = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(j) = serde_json::from_str::<Json>(line) else {
            continue;
        };
        if j["reason"] != "compiler-message" || j["message"]["level"] != "error" {
            continue;
        }
        let msg = &j["message"];
        let text = msg["message"].as_str().unwrap_or("").to_string();
        if text.starts_with("aborting due to") || text.starts_with("could not compile") {
            continue;
        }
        let span = msg["spans"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["is_primary"] == true).cloned());
        let Some(span) = span else {
            stray.push(text);
            continue;
        };
        let (a, b) = (
            span["byte_start"].as_u64().unwrap_or(0) as usize,
            span["byte_end"].as_u64().unwrap_or(0) as usize,
        );
        let Some(id) = modules
            .iter()
            .position(|m| m.as_ref().is_some_and(|m| m.range.contains(&a)))
        else {
            stray.push(format!("{text} at {a}..{b}"));
            continue;
        };
        let (message, help) = match text.split_once("\nhelp: ") {
            Some((m, h)) => (m.to_string(), Some(h.trim().to_string())),
            None => (text.clone(), None),
        };
        let call_site = modules[id]
            .as_ref()
            .is_some_and(|m| m.calls.contains(&(a..b)));
        per[id].push(Diag {
            message: frame_free(&message),
            help,
            text: if call_site {
                Some(String::new())
            } else {
                src.get(a..b).map(String::from)
            },
        });
    }
    assert!(
        stray.is_empty(),
        "errors outside every input's module: {stray:#?}"
    );
    assert_eq!(
        out.status.success(),
        per.iter().all(Vec::is_empty),
        "`cargo check` of the inputs: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for d in &mut per {
        d.sort();
    }
    per
}

/// Builds and runs the inputs the macro accepts: their offsets.
fn macro_values(inputs: &[Input], accepted: &[bool]) -> BTreeMap<usize, Vec<i64>> {
    let (src, _) = crate_source(inputs, true, |id| accepted[id]);
    let out = cargo_crate("conformance_run", &src, &["run"]);
    assert!(
        out.status.success(),
        "the accepted inputs do not build or run:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let id = it.next()?.parse().ok()?;
            Some((id, it.map(|x| x.parse().expect("an offset")).collect()))
        })
        .collect()
}

fn collect() -> (Vec<Input>, Vec<Skipped>) {
    let (mut inputs, mut skipped) = (Vec::new(), Vec::new());
    ui_inputs(&mut inputs, &mut skipped);
    docs_inputs(&mut inputs, &mut skipped);
    cli_docs_inputs(&mut inputs, &mut skipped);
    data_inputs(&mut inputs);
    (inputs, skipped)
}

fn counts<'a>(origins: impl Iterator<Item = &'a Origin>) -> BTreeMap<Origin, usize> {
    let mut m = BTreeMap::new();
    for o in origins {
        *m.entry(*o).or_default() += 1;
    }
    m
}

/// The number of inputs per source, and of those skipped: a change of format that collects
/// nothing fails here.
#[test]
fn inputs_per_source() {
    let (inputs, skipped) = collect();
    let got = counts(inputs.iter().map(|i| &i.origin));
    let skip = counts(skipped.iter().map(|s| &s.origin));
    for s in &skipped {
        println!("skipped {}: {}", s.place, s.why);
    }
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for i in &inputs {
        let file = i.place.split([':', '#', ' ']).next().unwrap_or("");
        *per_file.entry(file).or_default() += 1;
    }
    println!("inputs per file: {per_file:#?}");
    println!("inputs {got:?}, skipped {skip:?}");
    let expected: BTreeMap<Origin, usize> = [
        (Origin::Ui, 177),
        (Origin::Docs, 157),
        (Origin::CliDocs, 10),
        (Origin::Data, 293),
    ]
    .into_iter()
    .collect();
    assert_eq!(got, expected, "inputs per source");
    let expected_skipped: BTreeMap<Origin, usize> =
        [(Origin::Ui, 19), (Origin::Docs, 27), (Origin::CliDocs, 11)]
            .into_iter()
            .collect();
    assert_eq!(skip, expected_skipped, "skipped inputs per source");
}

/// Every input: the same verdict from `layout!` and from `layout`, the same diagnostics for a
/// refusal, the same offsets for an acceptance.
#[test]
fn the_macro_and_the_command_agree() {
    let (inputs, _) = collect();
    let bin = cli_binary();
    let cli: Vec<Verdict> = inputs.iter().map(|i| cli_verdict(&bin, i)).collect();
    let diags = macro_diagnostics(&inputs);
    let accepted: Vec<bool> = diags.iter().map(Vec::is_empty).collect();
    let values = macro_values(&inputs, &accepted);
    let mut wrong = Vec::new();
    for (id, input) in inputs.iter().enumerate() {
        let mac = if accepted[id] {
            let v = values.get(&id).cloned();
            Verdict::Accepted(v)
        } else {
            // An error of a command-line flag (`--index`) has no span in the command's
            // text: the macro's, on the option it became, is compared by message and help.
            let mut d = diags[id].clone();
            if let Verdict::Refused(c) = &cli[id] {
                for flag in c.iter().filter(|x| x.text.is_none()) {
                    if let Some(m) = d
                        .iter_mut()
                        .find(|m| m.message == flag.message && m.help == flag.help)
                    {
                        m.text = None;
                    }
                }
                d.sort();
            }
            Verdict::Refused(d)
        };
        let same = match (&mac, &cli[id]) {
            (Verdict::Accepted(a), Verdict::Accepted(b)) => match (a, b) {
                (Some(a), Some(b)) => a == b,
                (Some(_), None) => true,
                (None, _) => false,
            },
            (a, b) => a == b,
        };
        if !same {
            wrong.push(format!(
                "{} ({:?}): `layout {}`\n    macro:   {}\n    command: {}",
                input.place,
                input.origin,
                input.cli.join(" "),
                mac.show(),
                cli[id].show()
            ));
        }
    }
    println!("{} inputs compared", inputs.len());
    assert!(
        wrong.is_empty(),
        "{} of {} inputs disagree:\n{}",
        wrong.len(),
        inputs.len(),
        wrong.join("\n")
    );
}

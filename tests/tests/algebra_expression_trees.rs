//! Differential test of `layout!` algebra expressions: random expression trees (depth ≤ 4,
//! every operation, compositions nested on the left and on the right, swizzles, restrictions
//! by position, name, coordinate and run-time value) over small declared layouts.
//!
//! The reference is `layout_tests::expr`, an evaluator written from the specification that
//! shares no code with `layout-core`. Against it, at every flat index:
//! - the `layout!` expansion: one generated crate (a path dependency on `layout-typed`, built
//!   by [`layout_tests::cargo_crate`] under `target/generated-crates/`, so repeated runs are
//!   incremental) whose `main` prints
//!   `offset_index(i)` for every `i < SIZE` of every tree;
//! - every renderer of the emitted program (the chosen form and the composite as written) for
//!   the same trees built as `layout_core` maps at run time: Rust (compiled with `rustc`), C
//!   and CUDA (compiled as host C++ with `g++`, `__host__ __device__` defined away) and Python
//!   (run with `python3`).
//!
//! Trees the evaluator rejects are compiled in a second crate, one per line, and each line
//! must carry a compile error. The number of trees per operation is asserted. A third crate
//! declares every valid tree without a run-time value as an item over an item of its first
//! operation operand, and prints each item and each item as an operand alone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use layout_core::{Annotated, IntType, Layout, Map, Program, Space, Swizzle, Tree};
use layout_tests::cargo_crate;
use layout_tests::expr::{self, Arr, Decl, Entry, Expr, Generated, RVal, Sh, Sp};

// Known failures of the current expansion, emission and core, by tree id (as printed). Each
// list is checked both ways: a difference outside the list fails, and so does a listed tree
// that no longer differs — remove its id once the bug is fixed. All are empty: every tree
// agrees with the evaluator.

/// Trees whose `layout!` expansion differs from the evaluator (or is refused).
const EXPANSION_KNOWN_WRONG: &[usize] = &[];

/// Trees whose `layout_core` map or rendered programs differ from the evaluator.
const RENDER_KNOWN_WRONG: &[usize] = &[];

/// Invalid trees (ids as printed) that the expansion accepts.
const ACCEPTED_KNOWN: &[usize] = &[];

/// The valid trees per operation at the root for the fixed seed (with the directed ones).
const EXPECTED_PER_OP: &[(&str, usize)] = &[
    ("broadcast", 40),
    ("compose", 42),
    ("divide", 40),
    ("divide_modes", 40),
    ("interleave", 40),
    ("inverse", 40),
    ("repeat", 40),
    ("repeat_modewise", 40),
    ("repeat_modewise_raked", 40),
    ("restrict", 44),
    ("swizzle", 41),
];

const SEED: u64 = 0x5eed_0e10;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The generated trees plus directed ones: the composition `S ∘ T ∘ I` with
/// `S = (2,3):(3,1)`, `T = (3,2):(1,3)`, `I = (6):(1)`, right- and left-nested, and the
/// restrictions below.
fn cases() -> Generated {
    let mut g = expr::generate(SEED, 4, 10, 512);
    let base = g.decls.len();
    let two = |a, b| Sh::Tuple(vec![Sh::Leaf(a), Sh::Leaf(b)]);
    for (k, (shape, stride, dom, cod)) in [
        (two(2, 3), vec![3, 1], Sp::Logical, Sp::Physical),
        (two(3, 2), vec![1, 3], Sp::Logical, Sp::Logical),
        (Sh::Tuple(vec![Sh::Leaf(6)]), vec![1], Sp::Tv, Sp::Logical),
    ]
    .into_iter()
    .enumerate()
    {
        g.decls.push(Decl {
            name: format!("D{}", base + k),
            shape,
            stride: stride.into_iter().map(Some).collect(),
            names: Vec::new(),
            dom,
            cod,
            swizzle: None,
        });
    }
    let (s, t, i) = (
        || Box::new(Expr::Name(base)),
        || Box::new(Expr::Name(base + 1)),
        || Box::new(Expr::Name(base + 2)),
    );
    let right = Expr::Compose(s(), Box::new(Expr::Compose(t(), i())));
    let left = Expr::Compose(Box::new(Expr::Compose(s(), t())), i());
    // Restrictions that leave one free entry that is a tuple, and a swizzle of a restriction
    // with negative offsets: `R = (2,(3,4)):(12,(4,1))`, `N = (4,8):(-8,1)`.
    let (r, n) = (base + 3, base + 4);
    for (shape, stride) in [
        (Sh::Tuple(vec![Sh::Leaf(2), two(3, 4)]), vec![12, 4, 1]),
        (two(4, 8), vec![-8, 1]),
    ] {
        g.decls.push(Decl {
            name: format!("D{}", g.decls.len()),
            shape,
            stride: stride.into_iter().map(Some).collect(),
            names: Vec::new(),
            dom: Sp::Logical,
            cod: Sp::Physical,
            swizzle: None,
        });
    }
    let row = || {
        Box::new(Expr::Restrict(
            Box::new(Expr::Name(r)),
            vec![(Entry::Pos(0), RVal::Int(1))],
        ))
    };
    let directed = [
        right,
        left,
        *row(),
        Expr::Restrict(row(), vec![(Entry::Pos(0), RVal::Int(5))]),
        Expr::Restrict(row(), vec![(Entry::Pos(0), RVal::Runtime(5))]),
        Expr::Restrict(row(), vec![(Entry::Pos(0), RVal::Coord(two(1, 2)))]),
        Expr::Swizzle(row(), 1, 2, 0),
        Expr::Swizzle(
            Box::new(Expr::Restrict(
                Box::new(Expr::Name(n)),
                vec![(Entry::Pos(1), RVal::Int(3))],
            )),
            1,
            3,
            0,
        ),
    ];
    // Rules the random trees seldom break: a left operand whose domain is thread-value, an
    // unknown name, a nested mode that the tile cannot cut (`((2,3)):((3,1))` by 2).
    let find = |g: &Generated, dom: Sp, cod: Sp, size: i64| {
        g.decls
            .iter()
            .position(|d| {
                d.dom == dom && d.cod == cod && d.shape.size() == size && d.swizzle.is_none()
            })
            .expect("a declaration of each kind and size")
    };
    let (tv, ll, lp) = (
        find(&g, Sp::Tv, Sp::Logical, 8),
        find(&g, Sp::Logical, Sp::Logical, 8),
        find(&g, Sp::Logical, Sp::Physical, 8),
    );
    g.decls.push(Decl {
        name: format!("D{}", g.decls.len()),
        shape: Sh::Tuple(vec![two(2, 3)]),
        stride: vec![Some(3), Some(1)],
        names: Vec::new(),
        dom: Sp::Logical,
        cod: Sp::Physical,
        swizzle: None,
    });
    let q = g.decls.len() - 1;
    let name = |i| Box::new(Expr::Name(i));
    let directed = directed.into_iter().chain([
        Expr::Compose(name(tv), name(ll)),
        Expr::Restrict(
            Box::new(Expr::Compose(name(lp), name(tv))),
            vec![(Entry::Name("warp".into()), RVal::Int(0))],
        ),
        Expr::Divide(name(q), vec![2], false),
        Expr::Divide(name(q), vec![2], true),
    ]);
    for e in directed {
        match expr::eval(&e, &g.decls) {
            Ok(v) => g.valid.push((e, v)),
            Err(why) => g.invalid.push((e, why)),
        }
    }
    g
}

fn decl_items(decls: &[Decl]) -> String {
    let mut s = String::new();
    for d in decls {
        let _ = writeln!(s, "layout! {{ pub const {} = {}; }}", d.name, d.text());
    }
    s
}

/// The lines of `src/main.rs` that carry an error.
fn error_lines(stderr: &str) -> BTreeSet<usize> {
    stderr
        .lines()
        .filter(|l| l.contains(": error"))
        .filter_map(|l| l.strip_prefix("src/main.rs:"))
        .filter_map(|l| l.split(':').next()?.parse().ok())
        .collect()
}

/// `id v0 v1 ..` lines; a line that is not all integers (a panic) keeps its text.
fn parse_lines(text: &str) -> BTreeMap<usize, Result<Vec<i64>, String>> {
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let id = it.next()?.parse().ok()?;
            let vals: Result<Vec<i64>, _> = it.map(str::parse).collect();
            Some((id, vals.map_err(|_| l.to_string())))
        })
        .collect()
}

fn describe(id: usize, e: &Expr, decls: &[Decl]) -> String {
    let mut used = BTreeSet::new();
    operands(e, &mut used);
    let mut s = format!("tree {id}: {}", e.render(decls));
    for i in used {
        let _ = write!(s, "\n    {} = {}", decls[i].name, decls[i].text());
    }
    s
}

fn operands(e: &Expr, out: &mut BTreeSet<usize>) {
    match e {
        Expr::Name(i) => {
            out.insert(*i);
        }
        Expr::Lit(_) => {}
        Expr::Compose(a, b)
        | Expr::Repeat(a, Arr::Expr(b), _)
        | Expr::Modewise(a, Arr::Expr(b), _) => {
            operands(a, out);
            operands(b, out);
        }
        Expr::Divide(a, ..)
        | Expr::Restrict(a, _)
        | Expr::Repeat(a, ..)
        | Expr::Modewise(a, ..)
        | Expr::Broadcast(a, _)
        | Expr::Inverse(a)
        | Expr::Swizzle(a, ..) => operands(a, out),
    }
}

/// Compares ids found wrong with the known list: every other wrong id fails, and every known
/// id that is now right fails too.
fn judge(what: &str, wrong: &BTreeMap<usize, String>, known: &[usize]) {
    let unexpected: Vec<&String> = wrong
        .iter()
        .filter(|(id, _)| !known.contains(id))
        .map(|(_, s)| s)
        .collect();
    let fixed: Vec<&usize> = known.iter().filter(|id| !wrong.contains_key(id)).collect();
    if !wrong.is_empty() {
        println!(
            "{what}: {} trees differ (ids {:?})",
            wrong.len(),
            wrong.keys()
        );
    }
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{what}: {} unexpected differences, {} known ones now right ({fixed:?}):\n{}",
        unexpected.len(),
        fixed.len(),
        unexpected
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn trees_per_operation() {
    let g = cases();
    let mut per: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut left, mut right) = (0, 0);
    for (e, _) in &g.valid {
        *per.entry(e.op()).or_default() += 1;
        let (l, r) = e.nesting();
        left += usize::from(l);
        right += usize::from(r);
    }
    let mut depth: BTreeMap<usize, usize> = BTreeMap::new();
    for (e, _) in &g.valid {
        *depth.entry(e.depth()).or_default() += 1;
    }
    println!(
        "{} valid trees: {per:?}; by depth {depth:?}; {left} with a left-nested and {right} with a right-nested composition; {} invalid",
        g.valid.len(),
        g.invalid.len()
    );
    let mut why: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, w) in &g.invalid {
        *why.entry(w.as_str()).or_default() += 1;
    }
    println!("invalid trees by rule: {why:?}");
    let expected: BTreeMap<&str, usize> = EXPECTED_PER_OP.iter().copied().collect();
    assert_eq!(per, expected);
    for op in expr::OPS {
        assert!(
            per.get(op).copied().unwrap_or(0) >= 8,
            "too few `{op}` trees"
        );
    }
    assert!(
        left >= 20 && right >= 20,
        "nesting: {left} left, {right} right"
    );
    assert_eq!(g.invalid.len(), 57, "invalid trees");
}

/// The `layout!` expansion of every valid tree equals the evaluator at every flat index.
#[test]
fn expansion_matches_the_evaluator() {
    let g = cases();
    let mut wrong: BTreeMap<usize, String> = BTreeMap::new();
    let mut skip: BTreeSet<usize> = BTreeSet::new();
    for _round in 0..4 {
        let items = decl_items(&g.decls);
        let mut src = String::from(
            "#![allow(unused, clippy::all)]\nuse layout_typed::prelude::*;\n\
             fn dump<L: Layout>(id: usize, l: impl FnOnce() -> L) {\n    \
             let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {\n        \
             let l = l();\n        let mut s = id.to_string();\n        \
             for i in 0..L::SIZE {\n            s.push(' ');\n            s.push_str(&l.offset_index(i).to_string());\n        }\n        s\n    }));\n    \
             match r {\n        Ok(s) => println!(\"{s}\"),\n        Err(e) => println!(\"{id} panic {:?}\", e.downcast_ref::<String>().map(String::as_str).or(e.downcast_ref::<&str>().copied())),\n    }\n}\n",
        );
        src.push_str(&items);
        let mut line_of = BTreeMap::new();
        let mut parts = 0;
        for (id, (e, _)) in g.valid.iter().enumerate() {
            if skip.contains(&id) {
                continue;
            }
            if line_of.len() % 50 == 0 {
                if !line_of.is_empty() {
                    src.push_str("}\n");
                }
                let _ = writeln!(src, "fn part{parts}() {{");
                parts += 1;
            }
            line_of.insert(src.lines().count() + 1, id);
            let _ = writeln!(src, "    dump({id}, || layout!({}));", e.render(&g.decls));
        }
        src.push_str("}\nfn main() {\n");
        for p in 0..parts {
            let _ = writeln!(src, "    part{p}();");
        }
        src.push_str("}\n");
        let out = cargo_crate("expr_valid", &src, &["run"]);
        if out.status.success() {
            let got = parse_lines(&String::from_utf8_lossy(&out.stdout));
            for (id, (e, v)) in g.valid.iter().enumerate() {
                if skip.contains(&id) {
                    continue;
                }
                match got.get(&id) {
                    Some(Ok(vals)) if *vals == v.table => {}
                    other => {
                        let first = other.and_then(|vals| vals.as_ref().ok()).and_then(|vals| {
                            (0..v.table.len().max(vals.len()))
                                .find(|&i| vals.get(i) != v.table.get(i))
                        });
                        wrong.insert(
                            id,
                            format!(
                                "{}\n    expected {:?}\n    got      {:?}\n    first difference at flat index {first:?}",
                                describe(id, e, &g.decls),
                                v.table,
                                other
                            ),
                        );
                    }
                }
            }
            break;
        }
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let lines = error_lines(&stderr);
        let ids: Vec<usize> = lines
            .iter()
            .filter_map(|l| line_of.get(l).copied())
            .collect();
        assert!(
            !ids.is_empty(),
            "the generated crate does not build, and not at a tree:\n{stderr}"
        );
        for id in ids {
            let (e, _) = &g.valid[id];
            let msg: Vec<&str> = stderr
                .lines()
                .filter(|l| {
                    l.starts_with(&format!(
                        "src/main.rs:{}:",
                        line_of
                            .iter()
                            .find(|(_, i)| **i == id)
                            .map_or(0, |(l, _)| *l)
                    ))
                })
                .collect();
            wrong.insert(
                id,
                format!(
                    "{}\n    rejected: {}",
                    describe(id, e, &g.decls),
                    msg.join(" | ")
                ),
            );
            skip.insert(id);
        }
    }
    judge("layout! expansion", &wrong, EXPANSION_KNOWN_WRONG);
}

/// The first operand of the root operation that is itself an operation (the item
/// [`items_match_the_evaluator`] defines for it).
fn operation_operand(e: &Expr) -> Option<&Expr> {
    let op = |x: &Expr| !matches!(x, Expr::Name(_) | Expr::Lit(_));
    match e {
        Expr::Name(_) | Expr::Lit(_) => None,
        Expr::Compose(a, b)
        | Expr::Repeat(a, Arr::Expr(b), _)
        | Expr::Modewise(a, Arr::Expr(b), _) => [a, b].into_iter().map(|x| &**x).find(|x| op(x)),
        Expr::Divide(a, ..)
        | Expr::Restrict(a, _)
        | Expr::Repeat(a, ..)
        | Expr::Modewise(a, ..)
        | Expr::Broadcast(a, _)
        | Expr::Inverse(a)
        | Expr::Swizzle(a, ..) => Some(&**a).filter(|x| op(x)),
    }
}

/// Every valid tree without a run-time value, as items in a module: its first operand that
/// is an operation as an item `S{id}` and the tree over it as an item `T{id}`, so that each
/// operation is an item and has an item operand, at every nesting of the trees. Each equals
/// the evaluator at every flat index, as the constant `T{id}` and as an operand alone,
/// `layout!(items::T{id})`, evaluated again from what its definition macro hands on.
#[test]
fn items_match_the_evaluator() {
    let g = cases();
    let mut src = String::from(
        "#![allow(unused, clippy::all)]\nuse layout_typed::prelude::*;\n\
         fn dump<L: Layout>(id: usize, l: L) {\n    \
         let mut s = id.to_string();\n    \
         for i in 0..L::SIZE {\n        s.push(' ');\n        s.push_str(&l.offset_index(i).to_string());\n    }\n    \
         println!(\"{s}\");\n}\n",
    );
    src.push_str(&decl_items(&g.decls));
    src.push_str("mod items {\n    use super::*;\n");
    let mut ids = Vec::new();
    let mut with_operand = 0;
    for (id, (e, v)) in g.valid.iter().enumerate() {
        if v.runtime {
            continue;
        }
        let mut text = e.render(&g.decls);
        if let Some(c) = operation_operand(e) {
            let c = c.render(&g.decls);
            let _ = writeln!(src, "    layout! {{ pub const S{id} = {c}; }}");
            text = text.replacen(&c, &format!("S{id}"), 1);
            with_operand += 1;
        }
        let _ = writeln!(src, "    layout! {{ pub const T{id} = {text}; }}");
        ids.push(id);
    }
    src.push_str("}\n");
    // The operand alone reads the item from the definitions it hands on.
    const ALONE: usize = 1_000_000;
    for (part, chunk) in ids.chunks(50).enumerate() {
        let _ = writeln!(src, "fn part{part}() {{");
        for id in chunk {
            let _ = writeln!(src, "    dump({id}, items::T{id});");
            let _ = writeln!(src, "    dump({}, layout!(items::T{id}));", ALONE + id);
        }
        src.push_str("}\n");
    }
    src.push_str("fn main() {\n");
    for part in 0..ids.len().div_ceil(50) {
        let _ = writeln!(src, "    part{part}();");
    }
    src.push_str("}\n");
    // Every valid tree without a run-time value (for the fixed seed), 328 with an item operand.
    assert_eq!(
        (ids.len(), with_operand),
        (435, 328),
        "items, items with an item operand"
    );
    let out = cargo_crate("expr_items", &src, &["run"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the items build and run:\n{stderr}");
    let got = parse_lines(&String::from_utf8_lossy(&out.stdout));
    let mut wrong: BTreeMap<usize, String> = BTreeMap::new();
    for &id in &ids {
        let (e, v) = &g.valid[id];
        for key in [id, ALONE + id] {
            match got.get(&key) {
                Some(Ok(vals)) if *vals == v.table => {}
                other => {
                    wrong.insert(
                        key,
                        format!(
                            "{}\n    expected {:?}\n    got      {other:?}",
                            describe(id, e, &g.decls),
                            v.table
                        ),
                    );
                }
            }
        }
    }
    judge("layout! items", &wrong, &[]);
}

/// Every tree the evaluator rejects is a compile error at its own line.
#[test]
fn invalid_trees_do_not_compile() {
    let g = cases();
    let mut src = String::from("#![allow(unused, clippy::all)]\nuse layout_typed::prelude::*;\n");
    src.push_str(&decl_items(&g.decls));
    src.push_str("fn main() {\n");
    let mut line_of = BTreeMap::new();
    for (id, (e, _)) in g.invalid.iter().enumerate() {
        line_of.insert(src.lines().count() + 1, id);
        let _ = writeln!(
            src,
            "    {{ let v = layout!({}); let _ = v.offset_index(0); }}",
            e.render(&g.decls)
        );
    }
    src.push_str("}\n");
    let out = cargo_crate("expr_invalid", &src, &["check"]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let lines = error_lines(&stderr);
    assert!(
        lines.iter().all(|l| line_of.contains_key(l)),
        "errors outside the trees:\n{stderr}"
    );
    let mut accepted = BTreeMap::new();
    for (line, id) in &line_of {
        if !lines.contains(line) {
            let (e, why) = &g.invalid[*id];
            // Confirmed alone, so that no other error can have hidden this one's.
            let alone = format!(
                "#![allow(unused, clippy::all)]\nuse layout_typed::prelude::*;\n{}fn main() {{\n    \
                 let v = layout!({}); let _ = v.offset_index(0);\n}}\n",
                decl_items(&g.decls),
                e.render(&g.decls)
            );
            if !cargo_crate("expr_invalid_one", &alone, &["check"])
                .status
                .success()
            {
                continue;
            }
            accepted.insert(
                *id,
                format!("{}\n    the evaluator: {why}", describe(*id, e, &g.decls)),
            );
        }
    }
    judge("invalid trees accepted", &accepted, ACCEPTED_KNOWN);
}

// ---- renderers: the same trees as `layout_core` maps ----

fn space(s: Sp) -> Space {
    match s {
        Sp::Logical => Space::Logical,
        Sp::Tv => Space::ThreadValue,
        Sp::Physical => Space::Physical,
    }
}

fn tree(s: &Sh) -> Tree<i64> {
    match s {
        Sh::Leaf(n) => Tree::Leaf(*n),
        Sh::Tuple(v) => Tree::Tuple(v.iter().map(tree).collect()),
    }
}

/// A map as a layout, as `layout!` reads an operand of a layout operation.
fn materialise(m: &Map) -> Result<(Layout, Space, Space), String> {
    if let Map::Layout(a) = m {
        return Ok((a.layout().clone(), m.domain(), m.codomain()));
    }
    if m.is_swizzled() || m.is_restricted() {
        return Err("not a layout".into());
    }
    let d = layout_core::decide(m, false).map_err(|e| e.to_string())?;
    let l = d.coarsest_layout(&m.domain_shape()).ok_or("not a layout")?;
    Ok((l, m.domain(), m.codomain()))
}

/// A layout as a map; thread-value -> physical exists only as a composite.
fn layout_map(l: Layout, dom: Space, cod: Space) -> Result<Map, layout_core::Error> {
    if (dom, cod) == (Space::ThreadValue, Space::Physical) {
        let id = layout_core::canonical(l.shape())?.with_names(l.names().to_vec())?;
        let left = Annotated::new(l, Space::Logical, Space::Physical)?;
        let right = Annotated::new(id, Space::ThreadValue, Space::Logical)?;
        return layout_core::compose(&left.into(), &right.into());
    }
    Ok(Annotated::new(l, dom, cod)?.into())
}

/// The tree built with `layout_core` at run time.
fn core_map(e: &Expr, decls: &[Decl]) -> Result<Map, String> {
    let s = |e: layout_core::Error| e.to_string();
    Ok(match e {
        Expr::Name(i) | Expr::Lit(i) => {
            let d = &decls[*i];
            let l: Layout = d.layout_text().parse().map_err(s)?;
            let m: Map = Annotated::new(l, space(d.dom), space(d.cod))
                .map_err(s)?
                .into();
            match d.swizzle {
                Some((b, src, dst)) => m
                    .swizzle(Swizzle::new(b, src, dst).map_err(s)?)
                    .map_err(s)?,
                None => m,
            }
        }
        Expr::Compose(a, b) => {
            layout_core::compose(&core_map(a, decls)?, &core_map(b, decls)?).map_err(s)?
        }
        Expr::Restrict(a, fixed) => {
            let m = core_map(a, decls)?;
            let names = m.domain_names();
            let mut statics = Vec::new();
            for (entry, value) in fixed {
                let pos = match entry {
                    Entry::Pos(p) => *p,
                    Entry::Name(n) => names
                        .iter()
                        .position(|x| x.as_deref() == Some(n.as_str()))
                        .ok_or("unknown name")?,
                };
                let x = match value {
                    RVal::Int(x) | RVal::Runtime(x) => *x,
                    RVal::Coord(c) => m.entry_index(pos, &tree(c)).map_err(s)?,
                };
                statics.push((pos, x));
            }
            m.restrict(&statics).map_err(s)?
        }
        Expr::Swizzle(a, b, src, dst) => core_map(a, decls)?
            .swizzle(Swizzle::new(*b, *src, *dst).map_err(s)?)
            .map_err(s)?,
        Expr::Divide(a, tile, modes) => {
            let (l, dom, cod) = materialise(&core_map(a, decls)?)?;
            let r = if *modes {
                layout_core::divide_modes(&l, tile)
            } else {
                layout_core::divide(&l, tile)
            };
            layout_map(r.map_err(s)?, dom, cod).map_err(s)?
        }
        Expr::Repeat(a, arr, il) => {
            let (l, dom, cod) = materialise(&core_map(a, decls)?)?;
            let arr = match arr {
                Arr::Lit(..) => arr.literal_text().parse::<Layout>().map_err(s)?,
                Arr::Expr(b) => materialise(&core_map(b, decls)?)?.0,
            };
            let r = if *il {
                layout_core::interleave(&l, &arr)
            } else {
                layout_core::repeat(&l, &arr)
            };
            layout_map(r.map_err(s)?, dom, cod).map_err(s)?
        }
        Expr::Modewise(a, arr, raked) => {
            let (l, dom, cod) = materialise(&core_map(a, decls)?)?;
            let arr = match arr {
                Arr::Lit(..) => arr.literal_text().parse::<Layout>().map_err(s)?,
                Arr::Expr(b) => materialise(&core_map(b, decls)?)?.0,
            };
            let r = if *raked {
                layout_core::repeat_modewise_raked(&l, &arr)
            } else {
                layout_core::repeat_modewise(&l, &arr)
            };
            layout_map(r.map_err(s)?, dom, cod).map_err(s)?
        }
        Expr::Broadcast(a, shape) => {
            let (l, dom, cod) = materialise(&core_map(a, decls)?)?;
            layout_map(
                layout_core::broadcast(&l, &tree(shape)).map_err(s)?,
                dom,
                cod,
            )
            .map_err(s)?
        }
        Expr::Inverse(a) => {
            let (l, dom, cod) = materialise(&core_map(a, decls)?)?;
            layout_map(layout_core::inverse(&l).map_err(s)?, cod, dom).map_err(s)?
        }
    })
}

/// Every program to render: (tree id, label, program, expected values).
fn programs(g: &Generated, wrong: &mut BTreeMap<usize, String>) -> Vec<(usize, String, Program)> {
    let mut out = Vec::new();
    for (id, (e, v)) in g.valid.iter().enumerate() {
        let built = core_map(e, &g.decls).and_then(|m| {
            let em = layout_core::emit(&m, false).map_err(|e| e.to_string())?;
            Ok((em.program, layout_core::written(&m, false)))
        });
        match built {
            Err(why) => {
                wrong.insert(
                    id,
                    format!(
                        "{}\n    layout_core refuses it: {why}",
                        describe(id, e, &g.decls)
                    ),
                );
            }
            Ok((emitted, as_written)) => {
                for (label, p) in [("emitted", emitted), ("as written", as_written)] {
                    if p.sizes.iter().product::<i64>() != v.size() {
                        wrong.insert(
                            id,
                            format!(
                                "{}\n    {label} program has coordinates {:?}, the domain {} positions",
                                describe(id, e, &g.decls),
                                p.sizes,
                                v.size()
                            ),
                        );
                        continue;
                    }
                    out.push((id, label.to_string(), p));
                }
            }
        }
    }
    out
}

fn loop_sizes(p: &Program) -> String {
    p.sizes
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs a renderer's output and records every program whose values differ.
fn compare(
    renderer: &str,
    g: &Generated,
    all: &[(usize, String, Program)],
    stdout: &str,
    wrong: &mut BTreeMap<usize, String>,
) {
    let got = parse_lines(stdout);
    for (k, (id, label, p)) in all.iter().enumerate() {
        let expected = &g.valid[*id].1.table;
        let vals = got.get(&k);
        if vals != Some(&Ok(expected.clone())) {
            let (e, _) = &g.valid[*id];
            wrong.entry(*id).or_insert_with(|| {
                format!(
                    "{}\n    {renderer}, {label} program:\n{}\n    expected {expected:?}\n    got      {vals:?}",
                    describe(*id, e, &g.decls),
                    p.to_python()
                )
            });
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = root()
        .join("target")
        .join("expr-differential")
        .join(format!("render-{name}"));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn have(tool: &str) -> bool {
    let found = Command::new(tool).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "`{tool}` is required in CI"
        );
        eprintln!("skipping the `{tool}` renderer: `{tool}` not found");
    }
    found
}

/// A program to render: its tree, its label and the program.
type Rendered = (usize, String, Program);

/// The source of all programs but those left out, and the line where each program starts.
type SourceFn = fn(&[Rendered], &BTreeSet<usize>) -> (String, Vec<(usize, usize)>);

/// A renderer: the source of all programs but `skip`, with the line where each program's
/// function starts; the command that builds it (none for a script) and the command that runs it.
struct Renderer {
    name: &'static str,
    file: &'static str,
    source: SourceFn,
    build: Option<fn(&std::path::Path, &std::path::Path) -> Command>,
    run: fn(&std::path::Path, &std::path::Path) -> Command,
}

/// Renders, builds and runs; a program whose text does not build is recorded as wrong and left
/// out, and the rest is built again.
fn render(
    r: &Renderer,
    g: &Generated,
    all: &[(usize, String, Program)],
    wrong: &mut BTreeMap<usize, String>,
) {
    let dir = scratch(r.name);
    let (file, exe) = (dir.join(r.file), dir.join("emitted_bin"));
    let mut skip = BTreeSet::new();
    for _ in 0..6 {
        let (src, starts) = (r.source)(all, &skip);
        std::fs::write(&file, &src).expect("write the rendered source");
        if let Some(build) = r.build {
            let out = build(&file, &exe).output().expect("the compiler runs");
            if !out.status.success() {
                let stderr = String::from_utf8_lossy(&out.stderr).to_string();
                let tag = format!("{}:", r.file);
                let mut bad = BTreeSet::new();
                for l in stderr.lines().filter(|l| l.contains("error")) {
                    let Some(at) = l.find(&tag) else { continue };
                    let line: Option<usize> = l[at + tag.len()..]
                        .split(':')
                        .next()
                        .and_then(|x| x.parse().ok());
                    let Some(line) = line else { continue };
                    if let Some(&(_, k)) = starts.iter().rev().find(|(s, _)| *s <= line)
                        && k != usize::MAX
                    {
                        bad.insert((k, l.to_string()));
                    }
                }
                assert!(
                    !bad.is_empty(),
                    "{}: the rendered programs do not build, and not at a program:\n{stderr}",
                    r.name
                );
                for (k, msg) in bad {
                    let (id, label, p) = &all[k];
                    let (e, _) = &g.valid[*id];
                    wrong.entry(*id).or_insert_with(|| {
                        format!(
                            "{}\n    {}, {label} program does not build: {msg}\n{}",
                            describe(*id, e, &g.decls),
                            r.name,
                            p.to_python()
                        )
                    });
                    skip.insert(k);
                }
                continue;
            }
        }
        let run = (r.run)(&file, &exe)
            .output()
            .expect("run the rendered programs");
        assert!(
            run.status.success(),
            "{}: {}",
            r.name,
            String::from_utf8_lossy(&run.stderr)
        );
        let kept: Vec<(usize, String, Program)> = all
            .iter()
            .enumerate()
            .filter(|(k, _)| !skip.contains(k))
            .map(|(_, x)| x.clone())
            .collect();
        // Lines are numbered by the program's index in `all`; renumber to `kept`.
        let text = String::from_utf8_lossy(&run.stdout).to_string();
        let index: BTreeMap<usize, usize> = all
            .iter()
            .enumerate()
            .filter(|(k, _)| !skip.contains(k))
            .enumerate()
            .map(|(n, (k, _))| (k, n))
            .collect();
        let renumbered: String = text
            .lines()
            .filter_map(|l| {
                let (k, rest) = l.split_once(' ').unwrap_or((l, ""));
                let n = index.get(&k.parse().ok()?)?;
                Some(format!("{n} {rest}\n"))
            })
            .collect();
        compare(r.name, g, &kept, &renumbered, wrong);
        return;
    }
    panic!("{}: still not building after leaving programs out", r.name);
}

fn rust_source(
    all: &[(usize, String, Program)],
    skip: &BTreeSet<usize>,
) -> (String, Vec<(usize, usize)>) {
    let mut src = String::from(
        "fn show(k: usize, sizes: &[i64], f: &dyn Fn(&[i64]) -> i64) {\n    \
         let total: i64 = sizes.iter().product();\n    let mut s = k.to_string();\n    \
         let mut c = vec![0i64; sizes.len()];\n    for i in 0..total {\n        let mut r = i;\n        \
         for j in (0..sizes.len()).rev() {\n            c[j] = r % sizes[j];\n            r /= sizes[j];\n        }\n        \
         s.push_str(&format!(\" {}\", f(&c)));\n    }\n    println!(\"{s}\");\n}\n",
    );
    let mut starts = Vec::new();
    let mut main = String::from("fn main() {\n");
    for (k, (_, _, p)) in all.iter().enumerate() {
        if skip.contains(&k) {
            continue;
        }
        starts.push((src.lines().count() + 1, k));
        src.push_str(&p.to_rust(&format!("f{k}"), IntType::I64).expect("fits i64"));
        let args: Vec<String> = (0..p.sizes.len()).map(|j| format!("c[{j}]")).collect();
        let _ = writeln!(
            main,
            "    show({k}, &[{}], &|c| f{k}({}));",
            loop_sizes(p),
            args.join(", "),
        );
    }
    main.push_str("}\n");
    starts.push((src.lines().count() + 1, usize::MAX));
    src.push_str(&main);
    (src, starts)
}

fn cpp_source(
    all: &[(usize, String, Program)],
    skip: &BTreeSet<usize>,
    cuda: bool,
) -> (String, Vec<(usize, usize)>) {
    let mut src = String::from(
        "#include <stdint.h>\n#include <stdio.h>\n#define __host__\n#define __device__\n#define __forceinline__ inline\n",
    );
    let mut starts = Vec::new();
    let mut main = String::from("int main() {\n");
    for (k, (_, _, p)) in all.iter().enumerate() {
        if skip.contains(&k) {
            continue;
        }
        starts.push((src.lines().count() + 1, k));
        src.push_str(
            &p.to_c(&format!("f{k}"), IntType::I64, cuda)
                .expect("fits i64"),
        );
        let n = p.sizes.len();
        let mut body = String::new();
        for j in (0..n).rev() {
            let _ = write!(body, "int64_t c{j} = r % {s}; r /= {s}; ", s = p.sizes[j]);
        }
        let args: Vec<String> = (0..n).map(|j| format!("c{j}")).collect();
        let _ = writeln!(
            main,
            "  printf(\"{k}\"); for (int64_t i = 0; i < {total}; ++i) {{ int64_t r = i; {body}(void)r; printf(\" %lld\", (long long)f{k}({})); }} printf(\"\\n\");",
            args.join(", "),
            total = p.sizes.iter().product::<i64>(),
        );
    }
    main.push_str("  return 0;\n}\n");
    starts.push((src.lines().count() + 1, usize::MAX));
    src.push_str(&main);
    (src, starts)
}

fn python_source(
    all: &[(usize, String, Program)],
    skip: &BTreeSet<usize>,
) -> (String, Vec<(usize, usize)>) {
    let mut src = String::from("import itertools\n");
    for (k, (_, _, p)) in all.iter().enumerate() {
        if skip.contains(&k) {
            continue;
        }
        let _ = writeln!(src, "def f{k}({}):", p.names.join(", "));
        for line in p.to_python().lines() {
            let _ = writeln!(src, "    {line}");
        }
        src.push_str("    return result\n");
        // A program that fails prints its error instead of its values.
        let _ = writeln!(
            src,
            "try:\n    print(' '.join(['{k}'] + [str(f{k}(*c)) for c in itertools.product(*[range(n) for n in [{}]])]))\nexcept Exception as e:\n    print('{k} error', repr(e))",
            loop_sizes(p)
        );
    }
    (src, Vec::new())
}

const RUST: Renderer = Renderer {
    name: "Rust",
    file: "emitted.rs",
    source: rust_source,
    build: Some(|file, exe| {
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
        let mut c = Command::new(rustc);
        c.args([
            "--edition",
            "2021",
            "-C",
            "opt-level=0",
            "-A",
            "warnings",
            "--error-format=short",
            "-o",
        ])
        .arg(exe)
        .arg(file);
        c
    }),
    run: |_, exe| Command::new(exe),
};

fn gpp(file: &std::path::Path, exe: &std::path::Path) -> Command {
    let mut c = Command::new("g++");
    c.args(["-std=c++17", "-O0", "-w", "-o"]).arg(exe).arg(file);
    c
}

const C: Renderer = Renderer {
    name: "C as host C++",
    file: "emitted_c.cpp",
    source: |all, skip| cpp_source(all, skip, false),
    build: Some(gpp),
    run: |_, exe| Command::new(exe),
};

const CUDA: Renderer = Renderer {
    name: "CUDA as host C++",
    file: "emitted_cuda.cpp",
    source: |all, skip| cpp_source(all, skip, true),
    build: Some(gpp),
    run: |_, exe| Command::new(exe),
};

const PYTHON: Renderer = Renderer {
    name: "Python",
    file: "emitted.py",
    source: python_source,
    build: None,
    run: |file, _| {
        let mut c = Command::new("python3");
        c.arg(file);
        c
    },
};

/// Every renderer of the emitted program, and of the composite as written, equals the
/// evaluator at every coordinate.
#[test]
fn renderers_match_the_evaluator() {
    let g = cases();
    let mut wrong = BTreeMap::new();
    let started = std::time::Instant::now();
    let all = programs(&g, &mut wrong);
    println!("built and emitted: {:?}", started.elapsed());
    // The programs' own evaluation first: it needs no tool.
    for (id, label, p) in &all {
        let v = &g.valid[*id].1;
        let total = p.sizes.iter().product::<i64>();
        let vals = std::panic::catch_unwind(|| {
            (0..total)
                .map(|i| p.eval(&expr::digits(i, &p.sizes)))
                .collect::<Result<Vec<i64>, _>>()
        })
        .map_err(|_| "Program::eval panics".to_string())
        .and_then(|r| r.map_err(|e| format!("Program::eval: {e}")));
        if vals.as_ref() != Ok(&v.table) {
            let (e, _) = &g.valid[*id];
            wrong.entry(*id).or_insert_with(|| {
                format!(
                    "{}\n    Program::eval, {label} program:\n{}\n    expected {:?}\n    got      {vals:?}",
                    describe(*id, e, &g.decls),
                    p.to_python(),
                    v.table
                )
            });
        }
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let started = std::time::Instant::now();
    for (r, tool) in [
        (&RUST, rustc.as_str()),
        (&C, "g++"),
        (&CUDA, "g++"),
        (&PYTHON, "python3"),
    ] {
        if have(tool) {
            render(r, &g, &all, &mut wrong);
            println!("{}: {:?}", r.name, started.elapsed());
        }
    }
    println!("{} programs of {} trees rendered", all.len(), g.valid.len());
    judge("renderers", &wrong, RENDER_KNOWN_WRONG);
}

//! `layout!` expansions attacked as a user would: every algebra expression whose value is a
//! `Generated` map (swizzled composites, composites that are not layouts) or a run-time
//! restriction, with operands named in every path form (two modules with items of the same
//! name, `pub use … as` re-exports, raw identifiers, items local to a block, the same operand
//! twice, 1 to 4 operands) and the call wrapped in `macro_rules!`, including operands named
//! through `$crate` by the macros of two crates in one expression
//! (`fixtures/operand_crates/user/src/bin/crate_paths.rs`). Each value's `offset` (flat and by
//! coordinate), `offset_index` and `to_map()` are compared with a brute-force evaluator of the
//! declared `shape:stride` text written here.

use layout_typed::prelude::*;

pub mod a {
    layout_typed::layout! {
        pub const SW = (8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0);
        pub const P = (thread: 16, value: 4):(4,1), thread-value -> logical(8, 8);
        pub const T = (8,8):(1,8), logical(8, 8) -> logical(8, 8);
    }
}
pub mod b {
    layout_typed::layout! {
        pub const SW = (8,8):(1,8), logical(8, 8) -> physical, swizzle(b = 1, src = 4, dst = 1);
        pub const P = (4,16):(1,4), thread-value -> logical(8, 8);
        pub const T = (2,32):(1,2), logical(8, 8) -> logical(8, 8);
    }
}
pub mod c {
    pub use super::b::SW as Q;
}

/// The flat layout `shape:stride` (one level of parentheses at most; last leaf fastest) at
/// every flat index.
fn lay(text: &str) -> Vec<i64> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (s, d) = t.split_once(':').expect("shape:stride");
    let nums = |x: &str| -> Vec<i64> {
        x.split(['(', ')', ','])
            .filter(|p| !p.is_empty())
            .map(|p| p.parse().expect("an integer"))
            .collect()
    };
    let (sizes, strides) = (nums(s), nums(d));
    assert_eq!(sizes.len(), strides.len(), "{text}");
    let n: i64 = sizes.iter().product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for (s, d) in sizes.iter().zip(&strides).rev() {
                v += (i % s) * d;
                i /= s;
            }
            v
        })
        .collect()
}

/// `x ^ (((x >> src) & (2^b − 1)) << dst)` at every value.
fn swz(v: &[i64], b: u32, src: u32, dst: u32) -> Vec<i64> {
    v.iter()
        .map(|&x| x ^ (((x >> src) & ((1 << b) - 1)) << dst))
        .collect()
}

/// `(x ∘ y)(i) = x(y(i))`.
fn comp(x: &[i64], y: &[i64]) -> Vec<i64> {
    y.iter().map(|&i| x[i as usize]).collect()
}

/// `offset_index`, `offset` of the flat index and `to_map()` at every flat index, and the
/// notation.
fn values<L: Layout>(l: L) -> Vec<i64>
where
    L::Index: Into<i64>,
{
    let m = l.to_map().expect("to_map");
    let v: Vec<i64> = (0..L::SIZE).map(|i| l.offset_index(i).into()).collect();
    for (i, &w) in v.iter().enumerate() {
        assert_eq!(l.offset(i).into(), w, "offset at flat index {i}");
        assert_eq!(m.eval_index(i as i64), Ok(w), "to_map at flat index {i}");
    }
    assert_eq!(m.size(), L::SIZE as i64);
    v
}

/// As [`values`], and `offset((t, v))` over a domain of two modes `(_, inner)`.
fn values2<L: Layout>(l: L, inner: usize) -> Vec<i64>
where
    L::Index: Into<i64>,
    (usize, usize): layout_typed::Coord<L::Form>,
{
    let v = values(l);
    for (i, &w) in v.iter().enumerate() {
        assert_eq!(
            l.offset((i / inner, i % inner)).into(),
            w,
            "offset at ({}, {})",
            i / inner,
            i % inner
        );
    }
    v
}

fn a_sw() -> Vec<i64> {
    swz(&lay("(8,8):(8,1)"), 2, 3, 0)
}
fn b_sw() -> Vec<i64> {
    swz(&lay("(8,8):(1,8)"), 1, 4, 1)
}
fn a_p() -> Vec<i64> {
    lay("(16,4):(4,1)")
}
fn b_p() -> Vec<i64> {
    lay("(4,16):(1,4)")
}

#[test]
fn same_names_in_two_modules() {
    // Every mix differs from the others, so a confused operand changes the values.
    let mixes = [
        comp(&a_sw(), &a_p()),
        comp(&a_sw(), &b_p()),
        comp(&b_sw(), &a_p()),
        comp(&b_sw(), &b_p()),
    ];
    for (i, x) in mixes.iter().enumerate() {
        for y in &mixes[i + 1..] {
            assert_ne!(x, y);
        }
    }
    assert_eq!(values2(layout!(compose(a::SW, a::P)), 4), mixes[0]);
    assert_eq!(values2(layout!(compose(a::SW, b::P)), 16), mixes[1]);
    assert_eq!(values2(layout!(compose(b::SW, a::P)), 4), mixes[2]);
    assert_eq!(
        values2(layout!(compose(crate::b::SW, self::b::P)), 16),
        mixes[3]
    );
    assert_eq!(values2(layout!(compose(c::Q, a::P)), 4), mixes[2]);
    assert_eq!(values2(layout!(compose(r#b::SW, r#a::P)), 4), mixes[2]);
}

macro_rules! compose_paths {
    ($x:path, $y:path) => {
        layout_typed::layout!(compose($x, $y))
    };
}
macro_rules! pass_tokens {
    ($($t:tt)*) => {
        layout_typed::layout!($($t)*)
    };
}
macro_rules! compose_idents {
    ($m:ident, $n:ident) => {
        layout_typed::layout!(compose($m::SW, $n::P))
    };
}

#[test]
fn calls_made_by_macros() {
    assert_eq!(values(compose_paths!(a::SW, b::P)), comp(&a_sw(), &b_p()));
    assert_eq!(values(compose_paths!(b::SW, a::P)), comp(&b_sw(), &a_p()));
    assert_eq!(
        values(pass_tokens!(compose(b::SW /* a comment */, a::P))),
        comp(&b_sw(), &a_p())
    );
    assert_eq!(values(compose_idents!(a, b)), comp(&a_sw(), &b_p()));
    assert_eq!(values(compose_idents!(b, a)), comp(&b_sw(), &a_p()));
}

#[test]
fn items_local_to_a_block() {
    let outer = {
        layout_typed::layout! {
            const SW = (8,8):(1,8), logical(8, 8) -> physical, swizzle(b = 2, src = 4, dst = 0);
        }
        values(layout!(compose(SW, a::P)))
    };
    assert_eq!(outer, comp(&swz(&lay("(8,8):(1,8)"), 2, 4, 0), &a_p()));
}

#[test]
fn one_to_four_operands_and_operands_named_twice() {
    let t = lay("(8,8):(1,8)");
    // One named operand.
    assert_eq!(
        values(layout!(compose(a::SW, [(64):(1), logical(8, 8) -> logical(8, 8)]))),
        a_sw()
    );
    assert_eq!(
        values(layout!(compose(a::SW, compose(a::T, a::P)))),
        comp(&a_sw(), &comp(&t, &a_p()))
    );
    assert_eq!(
        values(layout!(compose(compose(b::SW, a::T), compose(a::T, b::P)))),
        comp(&comp(&b_sw(), &t), &comp(&t, &b_p()))
    );
    assert_eq!(
        values(layout!(compose(
            a::SW,
            compose(a::T, compose(crate::a::T, b::P))
        ))),
        comp(&a_sw(), &comp(&t, &comp(&t, &b_p())))
    );
    // Four distinct operands, one of them under two paths.
    let u = lay("(2,32):(1,2)");
    assert_eq!(
        values(layout!(compose(
            a::SW,
            compose(a::T, compose(b::T, compose(self::a::T, b::P)))
        ))),
        comp(&a_sw(), &comp(&t, &comp(&u, &comp(&t, &b_p()))))
    );
    assert_eq!(
        values(layout!(compose(compose(b::SW, b::T), compose(a::T, a::P)))),
        comp(&b_sw(), &comp(&u, &comp(&t, &a_p())))
    );
}

#[test]
fn composites_that_are_not_layouts() {
    // `(4,6):(1,4) ∘ (8,3):(1,8)`: the second's values cross the first's mode boundary.
    let want = comp(&lay("(4,6):(1,4)"), &lay("(8,3):(1,8)"));
    let l = layout!(compose(
        [(4,6):(1,4), logical -> physical],
        [(8,3):(1,8), logical -> logical]
    ));
    assert_eq!(values2(l, 3), want);
    let l = layout!(compose(
        [(4,6):(1,4), logical -> physical, index = i32],
        [(8,3):(1,8), logical -> logical]
    ));
    assert_eq!(values2(l, 3), want);
    let l = layout!(compose(
        [(4,6):(1,4), logical -> physical, index = u32],
        [(8,3):(1,8), logical -> logical]
    ));
    let v: Vec<i64> = (0..24).map(|i| i64::from(l.offset_index(i))).collect();
    assert_eq!(v, want);
    // Padded, swizzled, then composed.
    let want = comp(&swz(&lay("(8,8):(9,1)"), 1, 3, 1), &a_p());
    let l = layout!(compose(
        swizzle([(8,8):(9,1), logical(8,8) -> physical], b = 1, src = 3, dst = 1),
        a::P
    ));
    assert_eq!(values2(l, 4), want);
}

#[test]
fn restrictions_of_generated_maps() {
    let full = comp(&a_sw(), &a_p());
    for t in 0..16usize {
        let want = full[t * 4..t * 4 + 4].to_vec();
        let r = layout!(restrict(compose(a::SW, a::P), thread = t));
        assert_eq!(values(r), want, "thread {t}");
        let r = layout!(restrict(compose(a::SW, a::P), 0 = { t }));
        assert_eq!(values(r), want, "thread {t}");
    }
    assert_eq!(
        values(layout!(restrict(compose(a::SW, a::P), thread = 7))),
        full[28..32].to_vec()
    );
    let full = comp(&b_sw(), &b_p());
    assert_eq!(
        values(layout!(restrict(compose(b::SW, b::P), 0 = 3))),
        full[48..64].to_vec()
    );
}

/// The values of `fixtures/operand_crates/user`'s binary `bin`, one `name values` line each.
fn fixture_lines(bin: &str) -> Vec<String> {
    use std::path::Path;
    use std::process::Command;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "run",
            "--quiet",
            "--offline",
            "--bin",
            bin,
            "--manifest-path",
        ])
        .arg(root.join("fixtures/operand_crates/user/Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("operand_crates"),
        )
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the fixture builds and runs:\n{stderr}"
    );
    assert!(!stderr.contains("warning"), "no warnings:\n{stderr}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn line(name: &str, v: &[i64]) -> String {
    let v: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("{name} {}", v.join(","))
}

#[test]
fn operands_named_through_dollar_crate_by_macros_of_two_crates() {
    // `$crate::M` of the user crate and of the other crate are two layouts; `crate::M` written
    // in the user crate is the user's.
    let user_m = lay("(3,2):(1,3)");
    let other_m = lay("(2,3):(1,2)");
    let store = lay("(2,3):(8,1)");
    assert_ne!(comp(&user_m, &other_m), comp(&other_m, &other_m));
    assert_ne!(comp(&user_m, &other_m), comp(&user_m, &user_m));
    let expected = [
        line("ours", &comp(&store, &comp(&other_m, &user_m))),
        line(
            "ours-swizzled",
            &comp(&swz(&store, 1, 3, 0), &comp(&other_m, &user_m)),
        ),
        line("theirs-crate", &comp(&user_m, &other_m)),
        line("theirs-dollar-crate", &comp(&user_m, &other_m)),
        line("theirs-other", &comp(&other_m, &other_m)),
    ];
    assert_eq!(fixture_lines("crate_paths"), expected);
}

//! One map, one verdict: an expression of `layout_core::expr` is refused exactly when the map
//! it denotes has no exact offset range (`Map::offset_range`, built here through the `Map`
//! API), whether the map is spelled as a declaration with a swizzle option or as the
//! `swizzle` operation, alone, over a composite or restricted afterwards; and the declaration
//! and the operation give the same verdict and the same offsets.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::expr::{self, Env, Options};
use layout_core::{Annotated, Error, Map, Space, Swizzle, compose};

/// Layouts (seed notation) and swizzle fields `(b, src, dst)`: the first pair's range is past
/// the exact search (multiples of 3 copied up by 30 bits), the others are decided.
const CASES: &[(&str, (u32, u32, u32))] = &[
    ("1048576:3", (20, 0, 30)),
    ("(1024,1024):(3,3072)", (20, 0, 30)),
    ("(4,8):(16,1)", (2, 4, 1)),
    ("(8192,4096):(4096,1)", (3, 7, 4)),
    ("(64,64):(64,1)", (3, 3, 0)),
];

fn layout_map(text: &str, dom: Space, cod: Space) -> Map {
    Annotated::new(text.parse().expect("a layout"), dom, cod)
        .expect("annotated")
        .into()
}

fn evaluate(text: &str) -> Result<Map, Error> {
    let opts = Options::default();
    let e = expr::parse_expr(text, &opts).unwrap_or_else(|l| panic!("{text}: {}", l.error));
    expr::evaluate(&e, &Env::new(), &opts)
        .map(|v| v.map)
        .map_err(|l| l[0].error)
}

fn decl(text: &str) -> Result<(), Error> {
    let d = expr::parse_decl(text, &Options::default())
        .unwrap_or_else(|l| panic!("{text}: {}", l.error));
    match expr::check_decl(&d) {
        (Some(_), errs) if errs.is_empty() => Ok(()),
        (_, errs) => Err(errs[0].error),
    }
}

fn same_offsets(a: &Map, b: &Map) {
    assert_eq!(a.size(), b.size());
    let step = (a.size() / 4096).max(1);
    for i in (0..a.size()).step_by(step as usize) {
        assert_eq!(a.eval_index(i).ok(), b.eval_index(i).ok(), "index {i}");
    }
}

#[test]
fn a_map_without_an_exact_range_is_refused_however_it_is_spelled() {
    let mut undecided = 0;
    for &(l, (b, src, dst)) in CASES {
        let sw = Swizzle::new(b, src, dst).expect("a swizzle");
        let fields = format!("b = {b}, src = {src}, dst = {dst}");
        let inner = layout_map(l, Space::Logical, Space::Physical);
        let size = inner.size();
        let right = format!("{size}:1");
        // Swizzled, a swizzled composite, and a swizzle restricted to its first half.
        let swizzled = inner.clone().swizzle(sw).expect("swizzled");
        let composite = compose(
            &inner,
            &layout_map(&right, Space::ThreadValue, Space::Logical),
        )
        .expect("composite")
        .swizzle(sw)
        .expect("swizzled");
        let forms = [
            (
                format!("swizzle([{l}, logical -> physical], {fields})"),
                swizzled.clone(),
            ),
            (
                format!(
                    "swizzle(compose([{l}, logical -> physical], [{right}, thread-value -> logical]), {fields})"
                ),
                composite,
            ),
        ];
        for (text, map) in forms {
            let got = evaluate(&text);
            match map.offset_range() {
                Ok(_) => {
                    let got = got.unwrap_or_else(|e| panic!("{text}: {e}"));
                    same_offsets(&got, &map);
                }
                Err(e) => {
                    assert!(matches!(e, Error::RangeUndecided { .. }), "{text}: {e}");
                    undecided += 1;
                    assert_eq!(got.err(), Some(e), "{text}");
                }
            }
        }
        // The declaration with the swizzle option: the same verdict as the operation.
        let as_decl = decl(&format!("{l}, logical -> physical, swizzle({fields})"));
        let as_op = evaluate(&format!("swizzle([{l}, logical -> physical], {fields})"));
        assert_eq!(as_decl.err(), as_op.as_ref().err().copied(), "{l} {fields}");
        if let Ok(m) = as_op {
            same_offsets(&m, &swizzled);
        }
    }
    // Both spellings of the first two layouts are past the exact search.
    assert_eq!(undecided, 4);
}

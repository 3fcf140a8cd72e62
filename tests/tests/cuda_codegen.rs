//! `layout_core::cuda`, checked without a GPU: the emitted functions, compiled as plain C++
//! with the system compiler, against brute-force evaluations written here (layouts as their
//! leaves, CuTe's `Swizzle<B,M,S>` as its bit formula, `r·ld + c` for a global tile), at every
//! coordinate; which of `Uniform`, `Xor`, `Written` a restriction is, against the property each
//! promises; the vector proofs against a brute-force search for the first broken vector; every
//! error with its exact variant.

use std::fmt::Write as _;

use layout_core::cuda::{
    Along, ENUMERATION_LIMIT, LdSplit, Major, PerThread, Source, check_vector, check_vector_entry,
    func, per_thread, per_thread_entry, tile_index,
};
use layout_core::{
    Annotated, Error, IntType, Layout, Map, Space, Swizzle, SwizzleUnit, compose, emit,
};
use layout_tests::{brute, host_cpp};

/// A map for the tests: `layout` (seed notation, named entries allowed) with its spaces.
fn map(layout: &str, domain: Space, codomain: Space) -> Map {
    let l: Layout = layout.parse().expect("layout");
    Annotated::new(l, domain, codomain).expect("checked").into()
}

/// A thread-value layout into logical.
fn tv(layout: &str) -> Map {
    map(layout, Space::ThreadValue, Space::Logical)
}

/// CuTe's `Swizzle<B,M,S>` on an element offset, from its definition: bits `[M+S, M+S+B)`
/// XORed into `[M, M+B)`.
fn swizzle(bms: (i64, i64, i64), x: i64) -> i64 {
    let (b, m, s) = bms;
    x ^ (((x >> (m + s)) & ((1 << b) - 1)) << m)
}

/// The leaves `(size, stride)` of a flat-or-nested layout text's shape and stride, slowest
/// first, read by the test (not by the crate): `((8,32),4):((1,32),8)` -> 8:1, 32:32, 4:8.
fn leaves(layout: &str) -> Vec<(i64, i64)> {
    let body = match layout.split_once(':') {
        // A named entry (`thread:256`) has a colon inside the shape: split at the `):(`.
        _ if layout.contains("):(") => {
            let (s, d) = layout.split_once("):(").expect("shape and stride");
            (format!("{s})"), format!("({d}"))
        }
        Some((s, d)) => (s.to_string(), d.to_string()),
        None => panic!("no stride in {layout}"),
    };
    let ints = |t: &str| -> Vec<i64> {
        // Drop entry names (`thread:`), keep the integers in order.
        let mut out = Vec::new();
        let mut word = String::new();
        for ch in t.chars().chain(std::iter::once(',')) {
            if ch.is_ascii_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                if ch != ':' && !word.is_empty() {
                    out.push(if word == "_" {
                        0
                    } else {
                        word.parse().expect("an integer")
                    });
                }
                word.clear();
            }
        }
        out
    };
    let (sizes, strides) = (ints(&body.0), ints(&body.1));
    assert_eq!(sizes.len(), strides.len(), "{layout}");
    sizes.into_iter().zip(strides).collect()
}

/// Compiles `src` with the system C++ compiler, runs it, and returns the integers it prints.
fn run_cpp(name: &str, src: &str) -> Vec<i64> {
    host_cpp::run(
        &format!("cuda-codegen-{name}"),
        src,
        &[
            "-std=c++17",
            "-O1",
            "-Wall",
            "-Werror",
            "-Wno-unused-function",
        ],
    )
    .lines()
    .map(|l| l.parse().expect("integer"))
    .collect()
}

/// The C++ prelude: the CUDA qualifiers defined away, as for the addressing part of a `.cu`.
const PRELUDE: &str = "#include <cstdint>\n#include <cstdio>\n#define __host__\n#define __device__\n\
                       #define __forceinline__ inline\n";

/// Nested C loops over `sizes` (last fastest) printing `expr` of the loop variables `c0..`.
fn print_loops(src: &mut String, sizes: &[i64], call: &dyn Fn(&[String]) -> String) {
    for (k, n) in sizes.iter().enumerate() {
        let _ = writeln!(src, "for (uint32_t c{k} = 0; c{k} < {n}u; ++c{k})");
    }
    let vars: Vec<String> = (0..sizes.len()).map(|k| format!("c{k}")).collect();
    let _ = writeln!(
        src,
        "    printf(\"%lld\\n\", (long long)({}));",
        call(&vars)
    );
}

/// Every coordinate of `sizes`, last fastest, with its flat index.
fn coordinates(sizes: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = sizes.iter().product();
    (0..total)
        .map(|i| {
            let mut c = vec![0; sizes.len()];
            let mut r = i;
            for k in (0..sizes.len()).rev() {
                c[k] = r % sizes[k];
                r /= sizes[k];
            }
            c
        })
        .collect()
}

/// A restriction case: shared memory `smem` (logical -> physical, optional CuTe swizzle), a
/// thread-value layout `tv` (thread first), the entries' names, and the kind expected.
struct Case {
    smem: &'static str,
    swizzle: Option<(i64, i64, i64)>,
    tv: &'static str,
    names: &'static [&'static str],
    kind: &'static str,
}

const CASES: &[Case] = &[
    // The transpose's tile, Swizzle<5,0,5>: thread bits and value bits of the row apart.
    Case {
        smem: "(32,32):(32,1)",
        swizzle: Some((5, 0, 5)),
        tv: "(thread:256,value:4):(1,256)",
        names: &["thread", "value"],
        kind: "Xor",
    },
    Case {
        smem: "(32,32):(32,1)",
        swizzle: Some((5, 0, 5)),
        tv: "(thread:(8,32),value:4):((1,32),8)",
        names: &["thread", "value"],
        kind: "Xor",
    },
    // The staging tile, the GMMA 128-byte swizzle on halves, three entries.
    Case {
        smem: "(128,64):(64,1)",
        swizzle: Some((3, 3, 3)),
        tv: "(thread:(16,8),value:8,vec:8):((512,8),64,1)",
        names: &["thread", "value", "vec"],
        kind: "Xor",
    },
    Case {
        smem: "(128,64):(64,1)",
        swizzle: Some((3, 3, 3)),
        tv: "(thread:(16,8),value:8,vec:8):((64,8),1024,1)",
        names: &["thread", "value", "vec"],
        kind: "Uniform",
    },
    // Padded rows, no swizzle: every slice the same layout.
    Case {
        smem: "(32,32):(33,1)",
        swizzle: None,
        tv: "(thread:(8,32),value:4):((1,32),8)",
        names: &["thread", "value"],
        kind: "Uniform",
    },
    // Rows of 9: the thread's and the value's parts carry into the swizzle's bits.
    Case {
        smem: "(8,8):(9,1)",
        swizzle: Some((3, 0, 3)),
        tv: "(thread:8,value:8):(8,1)",
        names: &["thread", "value"],
        kind: "Written",
    },
    // Rows of 12 elements under a swizzle of 16-element blocks: not XOR-separable.
    Case {
        smem: "(8,12):(12,1)",
        swizzle: Some((2, 2, 3)),
        tv: "(thread:(4,3),value:(2,4)):((24,4),(12,1))",
        names: &["thread", "value"],
        kind: "Written",
    },
    // No swizzle, but the thread's and the value's parts cross the rows of 6: each thread's
    // slice another function (not a layout's translate), and no XOR split.
    Case {
        smem: "(4,6):(1,4)",
        swizzle: None,
        tv: "(thread:4,value:6):(1,4)",
        names: &["thread", "value"],
        kind: "Written",
    },
];

/// The brute-force offset of a case at flat index `i` of its domain.
fn case_offset(c: &Case, i: i64) -> i64 {
    let position = brute::eval(&leaves(c.tv), i);
    let off = brute::eval(&leaves(c.smem), position);
    c.swizzle.map_or(off, |s| swizzle(s, off))
}

fn case_map(c: &Case) -> Map {
    let mut smem = map(c.smem, Space::Logical, Space::Physical);
    if let Some((b, m, s)) = c.swizzle {
        smem = smem
            .swizzle(Swizzle::from_cute(b, m, s, SwizzleUnit::Elements).expect("swizzle"))
            .expect("swizzled");
    }
    compose(&smem, &tv(c.tv)).expect("composite")
}

/// The case's map with its thread-value layout's thread entry moved to entry `pos`, the other
/// entries keeping their order: the same offsets at the same (thread, others).
fn case_map_at(c: &Case, pos: usize) -> Map {
    let mut smem = map(c.smem, Space::Logical, Space::Physical);
    if let Some((b, m, s)) = c.swizzle {
        smem = smem
            .swizzle(Swizzle::from_cute(b, m, s, SwizzleUnit::Elements).expect("swizzle"))
            .expect("swizzled");
    }
    compose(&smem, &tv_at(c.tv, pos)).expect("composite")
}

/// `layout` (a thread-value layout, thread first) with the thread entry moved to entry `pos`.
fn tv_at(layout: &str, pos: usize) -> Map {
    let l: Layout = layout.parse().expect("layout");
    let n = l.names().len();
    let order: Vec<usize> = (1..=pos).chain([0]).chain(pos + 1..n).collect();
    let moved = layout_core::permute(&l, &order).expect("permute");
    Annotated::new(moved, Space::ThreadValue, Space::Logical)
        .expect("checked")
        .into()
}

fn kind(p: &PerThread) -> &'static str {
    match p {
        PerThread::Uniform { .. } => "Uniform",
        PerThread::Xor { .. } => "Xor",
        PerThread::Written { .. } => "Written",
    }
}

#[test]
fn per_thread_compiled_equals_brute_force_at_every_thread_and_value() {
    let mut src = Source::new("the test", "");
    let mut body = String::from("int main() {\n");
    let mut expected = Vec::new();
    let mut kinds = Vec::new();
    for (k, c) in CASES.iter().enumerate() {
        for pos in 0..c.names.len() {
            let m = case_map_at(c, pos);
            let name = format!("case{k}_{pos}");
            let p = per_thread_entry(&name, c.tv, &m, pos, c.names).expect("per_thread");
            if pos == 0 {
                assert_eq!(per_thread(&name, c.tv, &m, c.names), Ok(p.clone()));
            }
            kinds.push((c.tv, pos, c.kind, kind(&p)));
            src.add_per_thread(&p);
            // The functions' coordinates: the thread first, then the others in order.
            let sizes = case_map(c).domain_entry_sizes();
            let (threads, rest): (i64, i64) = (sizes[0], sizes[1..].iter().product());
            // The property each kind promises, by brute force over every (t, x).
            let f = |t: i64, x: i64| case_offset(c, t * rest + x);
            match p {
                PerThread::Uniform { .. } => {
                    for t in 0..threads {
                        for x in 0..rest {
                            assert_eq!(
                                f(t, x) - f(t, 0),
                                f(0, x) - f(0, 0),
                                "{} t {t} x {x}",
                                c.tv
                            );
                        }
                    }
                }
                PerThread::Xor { .. } => {
                    for t in 0..threads {
                        for x in 0..rest {
                            assert_eq!(f(t, x), f(t, 0) ^ f(0, x), "{} t {t} x {x}", c.tv);
                        }
                    }
                }
                PerThread::Written { .. } => {
                    let broken =
                        (0..threads).any(|t| (0..rest).any(|x| f(t, x) != f(t, 0) ^ f(0, x)));
                    assert!(broken, "{}: XOR-separable but emitted as written", c.tv);
                }
            }
            let params: Vec<String> = c.names.iter().map(|n| format!("uint32_t {n}")).collect();
            src.add_address(
                &format!("{name}_at"),
                "the offset of (thread, rest..)",
                IntType::I32,
                &params.join(", "),
                &p.call(c.names[0], &c.names[1..], "int32_t"),
            )
            .expect("address");
            print_loops(&mut body, &sizes, &|v| {
                format!("{name}_at({})", v.join(", "))
            });
            for (i, coord) in coordinates(&sizes).iter().enumerate() {
                let i = i as i64;
                let want = case_offset(c, i);
                if pos == 0 {
                    assert_eq!(m.eval_index(i), Ok(want), "{} at {coord:?}: the map", c.tv);
                }
                expected.push((format!("{} thread at {pos}, at {coord:?}", c.tv), want));
            }
        }
    }
    body.push_str("return 0;\n}\n");
    // The kind does not depend on where the thread entry is.
    for (tv, pos, want, got) in &kinds {
        assert_eq!(got, want, "{tv}, thread at entry {pos}");
    }
    let got = run_cpp(
        "per-thread",
        &format!("{PRELUDE}{}{body}", src.addressing()),
    );
    assert_eq!(got.len(), expected.len(), "one value per coordinate");
    for ((what, want), got) in expected.iter().zip(&got) {
        assert_eq!(got, want, "{what}: compiled C++");
    }
}

/// Thread-value layouts over `rows × cols` tiles for the leading-dimension split: the
/// transpose's and the staging copy's, and tiles that are not powers of two.
const SPLITS: &[(&str, [i64; 2], &[&str])] = &[
    (
        "(thread:256,value:4):(1,256)",
        [32, 32],
        &["thread", "value"],
    ),
    (
        "(thread:(8,32),value:4):((1,32),8)",
        [32, 32],
        &["thread", "value"],
    ),
    (
        "(thread:(32,8),vec:4):((32,4),1)",
        [32, 32],
        &["thread", "vec"],
    ),
    (
        "(thread:(16,8),value:8,vec:8):((512,8),64,1)",
        [128, 64],
        &["thread", "value", "vec"],
    ),
    ("(thread:4,value:6):(1,4)", [4, 6], &["thread", "value"]),
    (
        "(thread:(3,4),value:5):((4,1),12)",
        [12, 5],
        &["thread", "value"],
    ),
];

#[test]
fn tile_index_is_position_div_and_mod_cols_at_every_position() {
    for &(layout, [rows, cols], _) in SPLITS {
        let ti = tile_index(&tv(layout), [rows, cols]).expect("tile_index");
        let size = rows * cols;
        for i in 0..size {
            let p = brute::eval(&leaves(layout), i);
            assert_eq!(ti.row.eval_index(i), Ok(p / cols), "{layout} row at {i}");
            assert_eq!(ti.col.eval_index(i), Ok(p % cols), "{layout} col at {i}");
        }
        // The parts `ld` multiplies and adds.
        assert_eq!(ti.ld_parts(Major::Row), (&ti.row, &ti.col));
        assert_eq!(ti.ld_parts(Major::Column), (&ti.col, &ti.row));
    }
}

#[test]
fn tile_index_refuses_what_is_not_a_rows_by_cols_tile() {
    let t = tv("(thread:256,value:4):(1,256)");
    assert_eq!(
        tile_index(&t, [32, 16]),
        Err(Error::SizeMismatch {
            left: 512,
            right: 1024
        })
    );
    assert_eq!(
        tile_index(&t, [0, 32]),
        Err(Error::TileExtent {
            position: 0,
            extent: 0
        })
    );
    assert_eq!(
        tile_index(&t, [1 << 40, 1 << 40]),
        Err(Error::Overflow {
            mode: layout_core::ModePath::ROOT,
            what: layout_core::Quantity::Positions
        })
    );
    let physical = map(
        "(thread:256,value:4):(1,256)",
        Space::Logical,
        Space::Physical,
    );
    assert_eq!(
        tile_index(&physical, [32, 32]),
        Err(Error::RightNotLogical {
            codomain: Space::Physical
        })
    );
    // A map whose codomain is a 16×64 tile is not a 32×32 one.
    let l: Layout = "(thread:256,value:4):(1,256)".parse().expect("layout");
    let tiled: Map = Annotated::new(l, Space::ThreadValue, Space::Logical)
        .and_then(|a| a.with_tiles(None, Some(vec![16, 64])))
        .expect("tiled")
        .into();
    assert_eq!(
        tile_index(&tiled, [32, 32]),
        Err(Error::TileMismatch {
            left_rank: 2,
            right_rank: 2,
            position: 0,
            left: 32,
            right: 16
        })
    );
    assert!(tile_index(&tiled, [16, 64]).is_ok());
}

#[test]
fn ld_split_compiled_equals_row_times_ld_plus_col_at_two_leading_dimensions() {
    let mut src = Source::new("the test", "");
    let mut body = String::from("int main() {\n");
    let mut expected = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for (k, &(layout, [rows, cols], names)) in SPLITS.iter().enumerate() {
        let m = tv(layout);
        let sizes = m.domain_entry_sizes();
        // The thread first, and (`new_entry`) last: the same offsets at the same coordinates.
        for (major, pos) in [Major::Row, Major::Column]
            .into_iter()
            .flat_map(|major| [(major, 0), (major, names.len() - 1)])
        {
            let name = format!("g{k}{}{pos}", if major == Major::Row { "r" } else { "c" });
            let split = if pos == 0 {
                LdSplit::new(&name, ["row", "col"], &m, [rows, cols], major, names)
            } else {
                let moved = tv_at(layout, pos);
                LdSplit::new_entry(
                    &name,
                    ["row", "col"],
                    &moved,
                    pos,
                    [rows, cols],
                    major,
                    names,
                )
            }
            .expect("split");
            assert_eq!(split.major, major);
            kinds.insert(kind(&split.row));
            kinds.insert(kind(&split.col));
            // The parts: `ld` multiplies the row index of a row-major tile.
            let (coef, rest) = if major == Major::Row {
                (&split.row, &split.col)
            } else {
                (&split.col, &split.row)
            };
            assert_eq!((split.coefficient(), split.rest()), (coef, rest));
            for f in split.funcs() {
                src.add_func(f);
            }
            let mut params: Vec<String> = names.iter().map(|n| format!("uint32_t {n}")).collect();
            params.push("int32_t ld".to_string());
            src.add_address(
                &format!("{name}_at"),
                "",
                IntType::I32,
                &params.join(", "),
                &split.call(names[0], &names[1..], "ld", "int32_t"),
            )
            .expect("address");
            let base = if major == Major::Row { cols } else { rows };
            for ld in [base, base + 37] {
                print_loops(&mut body, &sizes, &|v| {
                    format!("{name}_at({}, {ld})", v.join(", "))
                });
                for (i, coord) in coordinates(&sizes).iter().enumerate() {
                    let p = brute::eval(&leaves(layout), i as i64);
                    let (r, c) = (p / cols, p % cols);
                    let want = if major == Major::Row {
                        r * ld + c
                    } else {
                        r + c * ld
                    };
                    expected.push((format!("{layout} {major:?} ld {ld} at {coord:?}"), want));
                }
            }
        }
    }
    body.push_str("return 0;\n}\n");
    // The cases reach more than one kind of restriction.
    assert!(
        kinds.contains("Uniform") && kinds.contains("Written"),
        "{kinds:?}"
    );
    let got = run_cpp("ld-split", &format!("{PRELUDE}{}{body}", src.addressing()));
    assert_eq!(got.len(), expected.len(), "one value per coordinate");
    for ((what, want), got) in expected.iter().zip(&got) {
        assert_eq!(got, want, "{what}: compiled C++");
    }
}

/// The first vector that breaks `along`, by brute force over the map's offsets (flat order)
/// from the definition: groups of `width` consecutive flat indices inside the last entry.
fn first_broken(
    offsets: &[i64],
    sizes: &[i64],
    entry: usize,
    width: i64,
    along: Along,
) -> Result<(), Error> {
    let n = sizes[entry];
    if width < 1 || n % width != 0 {
        return Err(Error::VectorWidth { width, size: n });
    }
    let flat = |c: &[i64]| c.iter().zip(sizes).fold(0, |acc, (&x, &k)| acc * k + x);
    for (first, c) in coordinates(sizes).iter().enumerate() {
        if c[entry] % width != 0 {
            continue;
        }
        let first = first as i64;
        let v0 = offsets[first as usize];
        if along == Along::Contiguous && v0.rem_euclid(width) != 0 {
            return Err(Error::VectorAligned {
                index: first,
                offset: v0,
                width,
            });
        }
        for e in 0..width {
            let mut ce = c.clone();
            ce[entry] += e;
            let index = flat(&ce);
            let o = offsets[index as usize];
            let expected = match along {
                Along::Contiguous => v0 + e,
                Along::Constant => v0,
            };
            if o != expected {
                return Err(Error::VectorAlong {
                    along,
                    index,
                    offset: o,
                    expected,
                });
            }
        }
    }
    Ok(())
}

#[test]
fn check_vector_equals_a_brute_force_search_for_the_first_broken_vector() {
    let physical = |s: &str| map(s, Space::Logical, Space::Physical);
    let mut maps: Vec<(String, Map)> = [
        "(thread:8,vec:4):(4,1)", // aligned and contiguous
        "(thread:8,vec:4):(6,1)", // contiguous, thread 1 misaligned
        "(thread:8,vec:4):(1,8)", // strided
        "(thread:8,vec:4):(4,_)", // broadcast: constant
        "(thread:4,value:2,vec:8):(16,8,1)",
        "(vec:4,thread:8):(1,4)", // the vector first: CuTe's (thread, vec)
        "(value:8,thread:(16,8)):(1,(8,128))",
        "(thread:4,vec:4):(-4,1)",        // negative offsets, aligned
        "(thread:4,vec:4):(-5,1)",        // negative offsets, misaligned
        "(thread:4,vec:(2,4)):(8,(1,2))", // the vector's halves interleaved
    ]
    .iter()
    .map(|s| ((*s).to_string(), physical(s)))
    .collect();
    for c in CASES {
        maps.push((format!("{} ∘ {}", c.smem, c.tv), case_map(c)));
    }
    for &(layout, tile, _) in SPLITS {
        let ti = tile_index(&tv(layout), tile).expect("tile_index");
        maps.push((format!("row of {layout}"), ti.row));
        maps.push((format!("col of {layout}"), ti.col));
    }
    let padded = compose(
        &physical("(32,32):(33,1)"),
        &tv("(thread:(32,8),vec:4):((32,4),1)"),
    )
    .expect("composite");
    maps.push(("padded rows".to_string(), padded));
    let mut outcomes = std::collections::BTreeSet::new();
    for (what, m) in &maps {
        let offsets: Vec<i64> = (0..m.size())
            .map(|i| m.eval_index(i).expect("offset"))
            .collect();
        let sizes = m.domain_entry_sizes();
        let last = sizes.len() - 1;
        for width in [0, 1, 2, 3, 4, 8, 16, -4] {
            for along in [Along::Contiguous, Along::Constant] {
                for entry in 0..sizes.len() {
                    let want = first_broken(&offsets, &sizes, entry, width, along);
                    assert_eq!(
                        check_vector_entry(m, entry, width, along),
                        want,
                        "{what}, entry {entry}, width {width}, {along:?}"
                    );
                    if entry == last {
                        assert_eq!(check_vector(m, width, along), want, "{what}");
                    }
                    outcomes.insert(want.map_err(|e| e.rule()).err().unwrap_or("ok"));
                }
            }
        }
    }
    // Every outcome is reached.
    for rule in [
        "ok",
        "vector-width",
        "vector-aligned",
        "vector-contiguous",
        "vector-constant",
    ] {
        assert!(
            outcomes.contains(rule),
            "{rule} never reached: {outcomes:?}"
        );
    }
}

#[test]
fn tile_vectors_are_proven_for_the_major_they_move_along() {
    let load4 = tile_index(&tv("(thread:(32,8),vec:4):((32,4),1)"), [32, 32]).expect("load");
    let store4 = tile_index(&tv("(thread:(32,8),vec:4):((1,128),32)"), [32, 32]).expect("store");
    assert_eq!(load4.check_vector(Major::Row, 4), Ok(()));
    assert_eq!(store4.check_vector(Major::Column, 4), Ok(()));
    // The other way round the coefficient of `ld` changes inside the vector: thread 0's
    // vector covers columns 0..4 of row 0 (load) and rows 0..4 of column 0 (store).
    let constant = |offset| Error::VectorAlong {
        along: Along::Constant,
        index: 1,
        offset,
        expected: 0,
    };
    assert_eq!(load4.check_vector(Major::Column, 4), Err(constant(1)));
    assert_eq!(store4.check_vector(Major::Row, 4), Err(constant(1)));
    assert_eq!(
        load4.check_vector(Major::Row, 3),
        Err(Error::VectorWidth { width: 3, size: 4 })
    );
    // A tiled copy's (value, thread) layout over a 64×16 tile (`copy::TiledCopy` of 16×8
    // threads, 8 values): a thread's 8 values run down a column, one vector of a
    // column-major tile.
    let copy = tile_index(&tv("(value:8,thread:(16,8)):(16,(1,128))"), [64, 16]).expect("copy");
    assert_eq!(copy.check_vector_entry(Major::Column, 0, 8), Ok(()));
    assert_eq!(
        copy.check_vector_entry(Major::Row, 0, 8),
        Err(Error::VectorAlong {
            along: Along::Constant,
            index: 128,
            offset: 1,
            expected: 0
        })
    );
    assert_eq!(
        copy.check_vector_entry(Major::Column, 2, 8),
        Err(Error::RestrictEntry { entry: 2, rank: 2 })
    );
}

#[test]
fn enumerations_stop_at_the_limit() {
    assert_eq!(ENUMERATION_LIMIT, 1 << 22);
    let physical = |s: &str| map(s, Space::Logical, Space::Physical);
    // check_vector: exactly the limit is proven, past it refused before enumerating.
    let at = physical(&format!("(thread:{},vec:4):(4,1)", ENUMERATION_LIMIT / 4));
    assert_eq!(check_vector(&at, 4, Along::Contiguous), Ok(()));
    let past = physical(&format!(
        "(thread:{},vec:4):(4,1)",
        ENUMERATION_LIMIT / 4 + 1
    ));
    assert_eq!(
        check_vector(&past, 4, Along::Contiguous),
        Err(Error::CudaTooLarge {
            size: ENUMERATION_LIMIT + 4,
            limit: ENUMERATION_LIMIT
        })
    );
    // per_thread: one decision per thread, the threads bounded first.
    let threads = physical(&format!("(thread:{},value:2):(2,1)", ENUMERATION_LIMIT + 1));
    assert_eq!(
        per_thread("f", "", &threads, &["thread", "value"]),
        Err(Error::CudaTooLarge {
            size: ENUMERATION_LIMIT + 1,
            limit: ENUMERATION_LIMIT
        })
    );
}

#[test]
fn names_entries_and_ranges_are_refused_with_their_variant() {
    let physical = |s: &str| map(s, Space::Logical, Space::Physical);
    let m = physical("(thread:8,value:4):(4,1)");
    let pt = |name: &str, names: &[&str]| per_thread(name, "", &m, names);
    assert!(pt("f", &["thread", "value"]).is_ok());
    assert_eq!(
        pt("f", &["thread"]),
        Err(Error::CudaNames {
            expected: 2,
            found: 1
        })
    );
    for (name, names, position) in [
        ("f", ["thread", "thread"], Some(1)),
        ("f", ["thread", "t1"], Some(1)),
        ("f", ["t0", "v"], Some(0)),
        ("f", ["2x", "v"], Some(0)),
        ("f", ["a-b", "v"], Some(0)),
        ("f", ["", "v"], Some(0)),
        ("thread", ["thread", "v"], Some(0)),
        ("bad name", ["thread", "v"], None),
        ("t2", ["thread", "v"], None),
        ("", ["thread", "v"], None),
    ] {
        assert_eq!(
            pt(name, &names),
            Err(Error::CudaName { position }),
            "{name} {names:?}"
        );
    }
    // `t` alone, `t_0`, `tx` are identifiers, not temporaries.
    assert!(pt("f", &["t", "t_0"]).is_ok());
    assert_eq!(
        per_thread("f", "", &physical("8:1"), &["thread"]),
        Err(Error::PerThreadEntries { entries: 1 })
    );
    assert_eq!(
        per_thread_entry("f", "", &m, 2, &["thread", "value"]),
        Err(Error::RestrictEntry { entry: 2, rank: 2 })
    );
    assert_eq!(
        per_thread(
            "f",
            "",
            &tv("(thread:8,value:4):(4,1)"),
            &["thread", "value"]
        ),
        Err(Error::RestrictNotPhysical {
            codomain: Space::Logical
        })
    );
    let mut s = Source::new("g", "");
    assert_eq!(
        s.add_address("no-name", "", IntType::I32, "", "0"),
        Err(Error::CudaName { position: None })
    );
    // The range checks: past int32_t, and below 0 (uint32_t).
    let program = |s: &str| emit(&physical(s), true).expect("emit").program;
    assert_eq!(
        func("f", "", program("(4,2):(1073741824,1)"), &["a", "b"]),
        Err(Error::IndexTypeRange {
            min: 0,
            max: 3 * (1 << 30) + 1,
            type_min: i64::from(i32::MIN),
            type_max: i64::from(i32::MAX)
        })
    );
    assert_eq!(
        func("f", "", program("(2,2):(-4,1)"), &["a", "b"]),
        Err(Error::IndexTypeRange {
            min: -4,
            max: 1,
            type_min: 0,
            type_max: i64::from(u32::MAX)
        })
    );
}

#[test]
fn source_is_header_pragma_markers_functions_then_kernels() {
    let m = map("(thread:8,value:4):(4,1)", Space::Logical, Space::Physical);
    let p = per_thread("at", "eight threads", &m, &["thread", "value"]).expect("per_thread");
    let mut s = Source::new("`gen`", "line one\nline two");
    s.add_per_thread(&p);
    s.add_address("addr", "doc", IntType::I32, "uint32_t t", "(int32_t)t")
        .expect("address");
    s.add_c("// host\n");
    s.add_kernels("__global__ void k() {}\n");
    let fs = p.funcs();
    let want = format!(
        "// @generated by `gen`\n// line one\n// line two\n#pragma once\n#include <stdint.h>\n\n\
         {}\n// {}: cost {} (div, mod) = {:?}\n{}\n// {}: cost {} (div, mod) = {:?}\n{}\n\
         // doc\n__host__ __device__ __forceinline__ int32_t addr(uint32_t t) {{\n    return (int32_t)t;\n}}\n\n\
         // host\n{}\n\n__global__ void k() {{}}\n",
        layout_core::cuda::BEGIN,
        fs[0].doc,
        fs[0].program.cost(),
        fs[0].program.div_mod(),
        fs[0].c,
        fs[1].doc,
        fs[1].program.cost(),
        fs[1].program.div_mod(),
        fs[1].c,
        layout_core::cuda::END,
    );
    assert_eq!(s.text(), want);
    assert!(want.contains(s.addressing()));
    assert_eq!(fs[0].call(&["t", "0"]), "at(t, 0)");
}

/// `split`: the emitted parts, compiled and combined as `Split::call` combines them, equal a
/// brute force of the swizzled layout (its leaves and CuTe's swizzle formula, written here) at
/// every coordinate, for a `ldmatrix`-like row address (`Swizzle<3,3,3>` over a 16×64 tile of
/// halves: copy `i` along rows above the swizzle, k-block `kb` in the swizzled chunk bits,
/// thread in the rows the swizzle reads) and one with the XOR part only; the wrong split (the
/// k-block as an additive part) is refused at the first position where it breaks, and an
/// entry list that does not name every entry before the thread is refused.
#[test]
fn split_compiled_equals_brute_force_and_refuses_a_wrong_split() {
    use layout_core::cuda::{Part, split};
    let sw = Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).expect("swizzle");
    let cases: &[(&str, &[(Part, &str)])] = &[
        (
            "(i:2,kb:8,thread:8):(512,8,64)",
            &[(Part::Add, "i"), (Part::Xor, "kb")],
        ),
        ("(kb:8,thread:16):(8,64)", &[(Part::Xor, "kb")]),
        ("(i:4,thread:16):(1024,64)", &[(Part::Add, "i")]),
    ];
    let mut src = String::from(PRELUDE);
    let mut body = String::new();
    let mut expected = Vec::new();
    for (n, (layout, parts)) in cases.iter().enumerate() {
        let m = map(layout, Space::Logical, Space::Physical)
            .swizzle(sw)
            .expect("swizzled");
        let name = format!("s{n}");
        let s = split(&name, "a split", &m, parts).expect("split");
        for f in s.funcs() {
            src.push_str(&f.c);
        }
        let lv = leaves(layout);
        let sizes: Vec<i64> = lv.iter().map(|l| l.0).collect();
        print_loops(&mut body, &sizes, &|v| {
            let last = v.len() - 1;
            let xs: Vec<&str> = (0..last)
                .filter(|&e| parts[e].0 == Part::Xor)
                .map(|e| v[e].as_str())
                .collect();
            let ys: Vec<&str> = (0..last)
                .filter(|&e| parts[e].0 == Part::Add)
                .map(|e| v[e].as_str())
                .collect();
            s.call(&v[last], &xs, &ys, "uint32_t")
        });
        for c in coordinates(&sizes) {
            let linear: i64 = c.iter().zip(&lv).map(|(x, l)| x * l.1).sum();
            expected.push(swizzle((3, 3, 3), linear));
        }
    }
    src.push_str("int main() {\n");
    src.push_str(&body);
    src.push_str("return 0;\n}\n");
    assert_eq!(run_cpp("split", &src), expected);
    // The k-block is mixed with the thread's rows by the swizzle: not additive. The first
    // position where it breaks: thread 1 (row 1), k-block 1 (chunk 1), i = 0: flat index 9.
    let m = map(
        "(i:2,kb:8,thread:8):(512,8,64)",
        Space::Logical,
        Space::Physical,
    )
    .swizzle(sw)
    .expect("swizzled");
    let at = 9;
    let want = swizzle((3, 3, 3), 8 + 64);
    let parts_give = (64 ^ 8) + 8;
    assert_eq!(
        split("s", "", &m, &[(Part::Add, "i"), (Part::Add, "kb")]),
        Err(Error::SplitMismatch {
            index: at,
            offset: want,
            parts: parts_give
        })
    );
    assert_eq!(
        split("s", "", &m, &[(Part::Add, "i")]),
        Err(Error::PerThreadEntries { entries: 3 })
    );
}

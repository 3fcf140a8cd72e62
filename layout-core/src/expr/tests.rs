//! Unit tests of the expression language: the grammar (compact and token-joined text alike),
//! the located errors of declarations and operations, and evaluated values against brute-force
//! enumeration written here.

#![allow(clippy::arithmetic_side_effects)] // test arithmetic on small known values

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::emit::IntType;
use crate::error::{Error, Expected, NotLayoutReason};
use crate::space::Space;

fn macro_opts() -> Options {
    Options::default()
}

fn cli_opts() -> Options {
    Options {
        order: Order::Seed,
        bare: Some(BareSpaces::default()),
        runtime: false,
    }
}

/// The text of a span.
fn at(text: &str, s: &Span) -> String {
    text[s.clone()].to_string()
}

/// The expression with spans erased, to compare two parses.
fn shape_of(text: &str, opts: &Options) -> Expr<()> {
    parse_expr(text, opts)
        .unwrap_or_else(|e| panic!("{text}: {} at {:?}", e.error, e.span))
        .map_spans(&mut |_| ())
}

/// Joins the tokens of a compact text with spaces, as a token stream prints.
fn spaced(text: &str) -> String {
    let mut out = String::new();
    for t in super::lex::lex(text, true) {
        if t.kind == super::lex::Kind::End {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&text[t.start..t.end]);
    }
    out
}

const EXPRESSIONS: &[&str] = &[
    "compose([(16,32):(32,1), logical -> physical], [(thread: 64, value: 8):(8,1), thread-value -> logical])",
    "divide([(8,8):(8,1), logical(8,8) -> physical], (4,2))",
    "divide_modes([(8,8):(8,1), logical -> physical], (4,(2)))",
    "restrict(compose(crate::m::SMEM, a::TV), thread = 3, 0 = (1,3))",
    "restrict(::c::D, 1 = t + 1, value = f(x, y)[2])",
    "repeat([cute (4,2):(1,4), logical -> logical], (3):(1))",
    "interleave(self::A, super::B)",
    "repeat_modewise([(8,64):(1,64), logical -> physical], cute (16,1):(1,1))",
    "repeat_modewise_raked(A, divide(B, (2, 2)))",
    "broadcast([(4,8):(8,1), logical -> physical, index = i32], (2,2))",
    "inverse([cute (_4,_8):(_1,_4), tv -> logical])",
    "swizzle([(8,64):(64,1), logical -> physical], b = 3, src = 7, dst = 4)",
    "swizzle(A, Swizzle<3,4,3> over bytes of 16-bit elements)",
    "[(4,{n}):({n},1), logical -> physical, Swizzle<3,4,3> over elements,]",
    "[(4,8):(-8,1), logical -> physical, swizzle(b = 1, src = 4, dst = 0), index = usize]",
];

#[test]
fn token_joined_text_parses_as_compact_text() {
    // The macro hands over its tokens joined by spaces: `thread - value`, `- >`,
    // `crate :: m :: P`, `16 - bit`, `Swizzle < 3 , 4 , 3 >`.
    for text in EXPRESSIONS {
        let joined = spaced(text);
        assert_ne!(&joined, text);
        assert_eq!(
            shape_of(text, &macro_opts()),
            shape_of(&joined, &macro_opts()),
            "{joined}"
        );
    }
    assert!(spaced(EXPRESSIONS[0]).contains("thread - value - >"));
    assert!(spaced(EXPRESSIONS[3]).contains("crate : : m : : SMEM"));
}

#[test]
fn the_grammar_reads_every_form() {
    let e = shape_of(EXPRESSIONS[3], &macro_opts());
    let Expr::Restrict { operand, fixed, .. } = e else {
        panic!("not a restrict")
    };
    let Expr::Compose { left, right, .. } = *operand else {
        panic!("not a compose")
    };
    let key = |e: &Expr<()>| match e {
        Expr::Operand(p) => p.key(),
        _ => String::new(),
    };
    assert_eq!(key(&left), "crate::m::SMEM");
    assert_eq!(key(&right), "a::TV");
    assert_eq!(
        fixed,
        vec![
            (Entry::Name("thread".into(), ()), Value::Int(3, ())),
            (
                Entry::Position(0, ()),
                Value::Coord(Tree::Tuple(vec![Tree::Leaf(1), Tree::Leaf(3)]), ())
            ),
        ]
    );
    // Run-time values are every token up to the next top-level `,`.
    let text = EXPRESSIONS[4];
    let Ok(Expr::Restrict { operand, fixed, .. }) = parse_expr(text, &macro_opts()) else {
        panic!("not a restrict")
    };
    assert!(matches!(&*operand, Expr::Operand(p) if p.key() == "::c::D"));
    let values: Vec<String> = fixed.iter().map(|(_, v)| at(text, v.span())).collect();
    assert_eq!(values, ["t + 1", "f(x, y)[2]"]);
    assert!(fixed.iter().all(|(_, v)| matches!(v, Value::Runtime(_))));

    // CuTe's `_N` in a `cute` layout, reversed to seed order; stride 0 of a mode > 1 is `_`.
    let l = parse_layout("cute (_4,_8):(_1,_0)", &macro_opts()).unwrap();
    let seed = l.seed();
    assert_eq!(seed.shape.to_string(), "(8,4)");
    assert_eq!(seed.stride.to_string(), "(_,1)");
    // `_N` outside CuTe order is explained.
    let err = parse_layout("(_4,8):(8,1)", &macro_opts()).unwrap_err();
    assert_eq!(err.error, Error::StaticInteger { value: 4 });
    assert_eq!(at("(_4,8):(8,1)", &err.span), "_4");

    // Run-time leaves: opaque spans, placeholders in seed order (CuTe order reversed).
    let text = "cute (4,{m + 1}):({s},1)";
    let l = parse_layout(text, &macro_opts()).unwrap();
    let seed = l.seed();
    assert_eq!(seed.shape.to_string(), "(1,4)");
    let rt: Vec<(Option<String>, Option<String>)> = seed
        .runtime
        .iter()
        .map(|(a, b)| {
            (
                a.as_ref().map(|s| at(text, s)),
                b.as_ref().map(|s| at(text, s)),
            )
        })
        .collect();
    // Written leaves (4, {s}) and ({m + 1}, 1); seed order reverses them.
    assert_eq!(rt, [(Some("m + 1".into()), None), (None, Some("s".into()))]);

    // Declaration options, tiles in the order written.
    let text = EXPRESSIONS[1];
    let Ok(Expr::Divide {
        operand,
        tile,
        kind,
        ..
    }) = parse_expr(text, &macro_opts())
    else {
        panic!()
    };
    assert_eq!(kind, DivideKind::Whole);
    assert_eq!(at(text, &tile.span), "(4,2)");
    let Expr::Literal(d, _) = *operand else {
        panic!()
    };
    let t = d.domain.tile.unwrap();
    assert_eq!(t.extents.iter().map(|e| e.0).collect::<Vec<_>>(), [8, 8]);
    let d = parse_decl(
        "(4,8):(8,1), logical -> physical, index = u32, Swizzle<3,4,3> over bytes of 32-bit elements",
        &macro_opts(),
    )
    .unwrap();
    assert_eq!(d.index.map(|i| i.0), Some(IntType::U32));
    assert_eq!(
        d.swizzle.map(|s| s.0),
        Some(SwizzleSpec::Cute {
            b: 3,
            m: 4,
            s: 3,
            unit: crate::SwizzleUnit::Bytes { elem_bits: 32 }
        })
    );
}

#[test]
fn definitions_then_expression() {
    let text =
        "[a::P = (4,8):(8,1), logical -> physical] [Q = 32:1, tv -> logical] compose(a::P, Q)";
    let alg = parse_algebra(text, &macro_opts()).unwrap();
    let keys: Vec<String> = alg.defs.iter().map(|(p, _)| p.key()).collect();
    assert_eq!(keys, ["a::P", "Q"]);
    let used: Vec<String> = alg.expr.operands().iter().map(|p| p.key()).collect();
    assert_eq!(used, ["a::P", "Q"]);
    // A literal operand at the start is not a definition.
    let alg = parse_algebra("[(4,8):(8,1), logical -> physical]", &macro_opts()).unwrap();
    assert!(alg.defs.is_empty());
}

/// An operand defined by an expression (`[PATH = ALGEBRA]`, what an item defined by an
/// expression hands on) is that expression's value under its own definitions only: an inner
/// path neither sees nor leaks to the outer ones, at every depth and position.
#[test]
fn definitions_by_an_expression_are_scoped() {
    let s1 = "[S = 8:1, logical -> physical]";
    let s2 = "[S = 8:2, logical -> physical]";
    let t = "[T = 8:1, tv -> logical]";
    // D(i) = 2i (the inner S); S(i) = i (the outer S).
    let d = format!("[D = {s2} {t} compose(S, T)]");
    let values = |text: &str| -> Result<Vec<i64>, Error> {
        let m = evaluate_text(text)?;
        (0..m.size()).map(|i| m.eval_index(i)).collect()
    };
    let doubled: Vec<i64> = (0..8).map(|i| 2 * i).collect();
    let identity: Vec<i64> = (0..8).collect();
    assert_eq!(values(&format!("{s1} {d} D")), Ok(doubled.clone()));
    assert_eq!(values(&format!("{d} {s1} D")), Ok(doubled.clone()));
    assert_eq!(values(&format!("{s1} {d} S")), Ok(identity));
    // The inner `T` is not an operand outside.
    assert_eq!(values(&format!("{d} T")), Err(Error::UnknownOperand));
    // Nested: E = restrict(D, 0 = 3), D defined inside E's own definitions.
    let e = format!("[E = {d} broadcast(D, 2)]");
    let twice: Vec<i64> = (0..16).map(|i| 2 * (i % 8)).collect();
    assert_eq!(values(&format!("{e} E")), Ok(twice));
    // The parsed shape: one declaration and one expression definition at the top.
    let alg = parse_algebra(&format!("{s1} {d} D"), &macro_opts()).unwrap();
    assert_eq!(alg.defs.len(), 1);
    let keys: Vec<String> = alg.derived.iter().map(|(p, _)| p.key()).collect();
    assert_eq!(keys, ["D"]);
    assert_eq!(alg.derived[0].1.defs.len(), 2);
    // Nesting past the limit is an error, not a deep recursion.
    let mut deep = String::from("[(4):(1), logical -> physical]");
    for _ in 0..=MAX_EXPR_DEPTH {
        deep = format!("[D = [S = 4:1, logical -> physical] broadcast(S, 1)] {deep}");
    }
    let mut nested = String::from("broadcast([4:1, logical -> physical], 1)");
    for _ in 0..=MAX_EXPR_DEPTH + 1 {
        nested = format!("[D = {nested}] D");
    }
    let err = parse_algebra(&nested, &macro_opts()).unwrap_err();
    assert_eq!(err.error, Error::ExprTooDeep);
    // Definitions side by side do not nest.
    assert!(parse_algebra(&deep, &macro_opts()).is_ok());
}

/// Every syntax error, located at its token (the text under the span).
#[test]
fn syntax_errors_point_at_their_token() {
    let cases: &[(&str, Error, &str)] = &[
        ("frobnicate(A, B)", Error::UnknownOperation, "frobnicate"),
        (
            "compose(A B)",
            Error::Syntax {
                expected: Expected::Argument(Op::Compose),
            },
            "B",
        ),
        (
            "divide(A, (4,2)",
            Error::Syntax {
                expected: Expected::CloseCall(Op::Divide),
            },
            "",
        ),
        (
            "[(4,8):(8,1) logical -> physical]",
            Error::Syntax {
                expected: Expected::SpacesComma,
            },
            "logical",
        ),
        (
            "[(4,8):(8,1), logical => physical]",
            Error::Syntax {
                expected: Expected::Arrow,
            },
            "=",
        ),
        (
            "[(4,8):(8,1), logical -> memory]",
            Error::Syntax {
                expected: Expected::Space,
            },
            "memory",
        ),
        (
            "[(4,8):(8,1), logical -> physical, index = i16]",
            Error::Syntax {
                expected: Expected::IndexType,
            },
            "i16",
        ),
        (
            "[(4,8):(8,1), logical -> physical, index = i32, index = i64]",
            Error::SecondIndexType,
            "i64",
        ),
        (
            "[(4,8):(8,1), logical -> physical, swizzle(b = 1, src = 4, dst = 0), Swizzle<1,0,4> over elements]",
            Error::SecondSwizzle,
            "Swizzle",
        ),
        (
            "swizzle(A, b = 1, src = 4)",
            Error::Syntax {
                expected: Expected::SwizzleFields,
            },
            "swizzle",
        ),
        (
            "swizzle(A, b = 1, b = 2, src = 4, dst = 0)",
            Error::SwizzleFieldTwice,
            "b",
        ),
        (
            "swizzle(A, Swizzle<3,4,3>)",
            Error::SwizzleUnitMissing { b: 3, m: 4, s: 3 },
            "Swizzle",
        ),
        (
            "[(4,8i32):(8,1), logical -> physical]",
            Error::IntegerSuffix,
            "8i32",
        ),
        (
            "[(4,(a: 8)):(8,1), logical -> physical]",
            Error::NestedName { column: 5 },
            "a",
        ),
        (
            "[(4,_):(8,1), logical -> physical]",
            Error::Syntax {
                expected: Expected::PositiveSize,
            },
            "_",
        ),
        (
            "[(4,99999999999999999999):(8,1), logical -> physical]",
            Error::IntegerTooLarge { column: 4 },
            "99999999999999999999",
        ),
        (
            "restrict(A, 0 = )",
            Error::Syntax {
                expected: Expected::Value,
            },
            ")",
        ),
        (
            "cute(A)",
            Error::Syntax {
                expected: Expected::Expression,
            },
            "cute",
        ),
    ];
    for (text, error, token) in cases {
        let e = parse_expr(text, &macro_opts()).unwrap_err();
        assert_eq!(
            (&e.error, at(text, &e.span).as_str()),
            (error, *token),
            "{text}"
        );
        // The same error, at the same token, from the token-joined text.
        let joined = spaced(text);
        let j = parse_expr(&joined, &macro_opts()).unwrap_err();
        assert_eq!(j.error.rule(), e.error.rule(), "{joined}");
        assert_eq!(at(&joined, &j.span), *token, "{joined}");
    }
}

/// Nesting past the limit is an error for every operation, and the limit itself is accepted.
#[test]
fn nesting_limit_for_every_operation() {
    let leaf = "[(4,8):(8,1), logical -> physical]";
    let wraps: &[(&str, &str)] = &[
        ("compose(", ", [32:1, tv -> logical])"),
        ("divide(", ", (1,1))"),
        ("divide_modes(", ", (1,1))"),
        ("restrict(", ", 0 = 0)"),
        ("repeat(", ", 1:1)"),
        ("interleave(", ", 1:1)"),
        ("repeat_modewise(", ", (1,1):(1,1))"),
        ("repeat_modewise_raked(", ", (1,1):(1,1))"),
        ("broadcast(", ", 1)"),
        ("inverse(", ")"),
        ("swizzle(", ", b = 0, src = 0, dst = 0)"),
    ];
    for (open, close) in wraps {
        for (n, ok) in [(MAX_EXPR_DEPTH, true), (MAX_EXPR_DEPTH + 1, false)] {
            let text = alloc::format!("{}{leaf}{}", open.repeat(n), close.repeat(n));
            let r = parse_expr(&text, &macro_opts());
            assert_eq!(r.is_ok(), ok, "{open} x {n}");
            if let Err(e) = r {
                assert_eq!(e.error, Error::ExprTooDeep);
                assert_eq!(e.error.rule(), "too-large");
            }
        }
    }
}

/// Every independent error of a declaration, at once, each at its token, mode paths as
/// written.
#[test]
fn every_error_of_a_declaration_at_its_token() {
    let text = "(4,0,8):(8,1,0), physical -> logical(3,5), swizzle(b = 3, src = 1, dst = 2)";
    let d = parse_decl(text, &macro_opts()).unwrap();
    let (c, errs) = check_decl(&d);
    assert!(c.is_none());
    let got: Vec<(&str, String)> = errs
        .iter()
        .map(|e| (e.error.rule(), at(text, &e.span)))
        .collect();
    assert_eq!(
        got,
        [
            ("forbidden-spaces", "physical".to_string()),
            ("swizzle-not-physical", "swizzle".to_string()),
            ("swizzle-fields", "swizzle".to_string()),
            ("non-positive-size", "0".to_string()),
            ("zero-stride", "0".to_string()),
        ]
    );
    // The zero stride is the last stride token, not the size's `0`.
    assert_eq!(errs[4].span.start, text.rfind("0)").unwrap());
}

#[test]
fn lemma1_error_in_cute_order_points_at_the_written_stride() {
    // CuTe (4,8):(1,5): sorted by stride, 4:1 then 8:5, and 5 should be 4.
    let text = "cute (4,8):(1,5), logical -> logical";
    let (c, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert!(c.is_some());
    assert_eq!(errs.len(), 1);
    let e = &errs[0];
    assert_eq!(
        e.error,
        Error::NotDense {
            mode: crate::ModePath::from_indices(&[1]).unwrap(),
            expected: 4,
            found: 5
        }
    );
    assert_eq!(e.mode, Some(crate::ModePath::from_indices(&[1]).unwrap()));
    assert_eq!(at(text, &e.span), "5");
    // Seed order: the same layout is `(8,4):(5,1)`, mode 0.
    let text = "(8,4):(5,1), logical -> logical";
    let (_, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert_eq!(
        errs[0].mode,
        Some(crate::ModePath::from_indices(&[0]).unwrap())
    );
    assert_eq!(at(text, &errs[0].span), "5");
}

#[test]
fn aliasing_pairs_and_profiles_carry_notes() {
    let text = "(4,8):(4,1), logical -> physical";
    let (_, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].error.rule(), "aliasing");
    // Mode 1 (stride 1, 8 apart... reaching 4) collides with mode 0 (stride 4).
    assert_eq!(errs[0].span, 9..10);
    assert_eq!(
        errs[0].mode,
        Some(crate::ModePath::from_indices(&[1]).unwrap())
    );
    assert_eq!(errs[0].notes.len(), 1);
    assert_eq!(errs[0].notes[0].kind, NoteKind::CollidingStride);
    assert_eq!(errs[0].notes[0].span, 7..8);

    let text = "(4,(2,2)):(8,1), logical -> physical";
    let (_, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].error.rule(), "profile-mismatch");
    assert_eq!(at(text, &errs[0].span), "1");
    assert_eq!(at(text, &errs[0].notes[0].span), "(2,2)");
}

#[test]
fn tiles_and_index_types_are_checked() {
    let text = "(4,8):(8,1), logical(4,4) -> physical, index = i32";
    let (c, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].error, Error::TileSize { tile: 16, size: 32 });
    assert_eq!(at(text, &errs[0].span), "(4,4)");
    assert_eq!(c.unwrap().domain_tile, None);

    let text = "(4,8):(8,1), logical(2,2,2,2,2) -> physical";
    let (_, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert_eq!(errs[0].error, Error::TileExtents { count: 5 });

    let text = "(4,1073741824):(1073741824,1), logical -> physical, index = i32";
    let (_, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert_eq!(errs.len(), 1);
    assert_eq!(
        errs[0].error,
        Error::IndexTypeRange {
            min: 0,
            max: 4 * 1073741824 - 1,
            type_min: i64::from(i32::MIN),
            type_max: i64::from(i32::MAX)
        }
    );
    assert_eq!(at(text, &errs[0].span), "i32");

    // CuTe order: a tile in CuTe order is reversed to seed order.
    let text = "cute (4,8):(1,4), logical(4,8) -> physical";
    let (c, errs) = check_decl(&parse_decl(text, &macro_opts()).unwrap());
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(c.unwrap().domain_tile, Some(vec![8, 4]));
}

// ---- evaluation against brute force -------------------------------------------------------

/// A layout as flat (size, stride) leaves, seed order (the last leaf fastest), evaluated by
/// enumeration: independent of the crate's evaluator.
fn brute(leaves: &[(i64, i64)], mut i: i64) -> i64 {
    let mut off = 0;
    for (n, d) in leaves.iter().rev() {
        off += (i % n) * d;
        i /= n;
    }
    off
}

fn eval_text(
    text: &str,
    env: &Env<Span>,
    opts: &Options,
) -> Result<Evaluated<Span>, Vec<Located<Span>>> {
    let e = parse_expr(text, opts).map_err(|e| vec![e])?;
    evaluate(&e, env, opts)
}

#[test]
fn compose_values_match_enumeration() {
    let a = [(16, 32), (32, 1)];
    let b = [(64, 8), (8, 1)];
    let text =
        "compose([(16,32):(32,1), logical -> physical], [(64,8):(8,1), thread-value -> logical])";
    let v = eval_text(text, &Env::new(), &macro_opts()).unwrap();
    for i in 0..512 {
        assert_eq!(v.map.eval_index(i).unwrap(), brute(&a, brute(&b, i)));
    }
    assert_eq!(v.map.domain(), Space::ThreadValue);
    assert_eq!(v.map.codomain(), Space::Physical);
    assert_eq!(v.index, IntType::I64);
}

#[test]
fn named_operands_resolve_through_the_environment() {
    let mut env = Env::new();
    for (key, decl) in [
        (
            "crate::m::SMEM",
            "(16,32):(32,1), logical -> physical, index = i32",
        ),
        ("TV", "(64,8):(8,1), thread-value -> logical"),
    ] {
        let (c, errs) = check_decl(&parse_decl(decl, &macro_opts()).unwrap());
        assert!(errs.is_empty());
        env.define(key.to_string(), c.unwrap());
    }
    let v = eval_text("compose(crate::m::SMEM, TV)", &env, &macro_opts()).unwrap();
    assert_eq!(v.index, IntType::I32); // from the left operand
    assert_eq!(
        v.map.eval_index(9).unwrap(),
        brute(&[(16, 32), (32, 1)], brute(&[(64, 8), (8, 1)], 9))
    );
    let text = "compose(crate::n::SMEM, TV)";
    let e = eval_text(text, &env, &macro_opts()).unwrap_err();
    assert_eq!(e[0].error, Error::UnknownOperand);
    assert_eq!(at(text, &e[0].span), "SMEM");
}

#[test]
fn operation_errors_point_at_their_operand() {
    let env = Env::new();
    let cases: &[(&str, Error, &str)] = &[
        (
            "compose([(16,32):(32,1), logical -> physical], [(8,8):(8,1), tv -> logical])",
            Error::SizeMismatch {
                left: 512,
                right: 64,
            },
            "[(8,8):(8,1), tv -> logical]",
        ),
        (
            "divide([(8,6):(6,1), logical -> physical], (4,4))",
            Error::NotDivisible {
                mode: crate::ModePath::from_indices(&[1]).unwrap(),
                size: 6,
                tile: 4,
            },
            "4",
        ),
        (
            "broadcast([(4,8):(8,1), logical -> logical], (2))",
            Error::BroadcastNotPhysical {
                codomain: Space::Logical,
            },
            "[(4,8):(8,1), logical -> logical]",
        ),
        (
            "inverse([(4,8):(8,1), logical -> physical])",
            Error::InverseOfPhysical {
                domain: Space::Logical,
            },
            "[(4,8):(8,1), logical -> physical]",
        ),
        (
            "divide(restrict([(4,8):(8,1), logical -> physical], 0 = 1), 4)",
            Error::NotALayout {
                op: Op::Divide,
                why: NotLayoutReason::Restricted,
            },
            "restrict",
        ),
        (
            "swizzle(swizzle([(8,8):(8,1), logical -> physical], b = 1, src = 3, dst = 0), b = 1, src = 4, dst = 0)",
            Error::SecondSwizzle,
            "swizzle",
        ),
        (
            "restrict([(4,8):(8,1), logical -> physical], x = 1)",
            Error::UnknownModeName,
            "x",
        ),
        (
            "divide(restrict([(4,8):(8,1), logical -> physical], 0 = n), 4)",
            Error::RuntimeNotLast { op: Op::Divide },
            "restrict",
        ),
        (
            "[(4,{n}):(8,1), logical -> physical]",
            Error::RuntimeOperand,
            "[(4,{n}):(8,1), logical -> physical]",
        ),
        (
            "restrict([(4,8):(8,1), logical -> physical], 0 = a, 0 = b)",
            // Listed twice: the entry is free, it may not be fixed again.
            Error::RepeatedMode { index: 0 },
            "0",
        ),
        (
            "repeat([(4,8):(8,1), logical -> physical], (3,2):(1,4))",
            // Sorted by stride: 3:1, then 2:4 where the running product is 3; in the words of
            // an arrangement.
            Error::ArrangementNotDense {
                op: Op::Repeat,
                mode: crate::ModePath::from_indices(&[1]).unwrap(),
                expected: 3,
                found: 4,
            },
            "4",
        ),
    ];
    for (text, error, token) in cases {
        let e = eval_text(text, &env, &macro_opts()).unwrap_err();
        assert_eq!(
            (&e[0].error, at(text, &e[0].span).as_str()),
            (error, *token),
            "{text}"
        );
    }
}

#[test]
fn runtime_values_only_where_allowed() {
    let text = "restrict([(thread: 4, value: 8):(8,1), logical -> physical], thread = t + 1)";
    let v = eval_text(text, &Env::new(), &macro_opts()).unwrap();
    assert_eq!(v.runtime.len(), 1);
    assert_eq!(v.runtime[0].0, 0);
    assert_eq!(at(text, &v.runtime[0].1), "t + 1");
    let e = eval_text(text, &Env::new(), &cli_opts()).unwrap_err();
    assert_eq!(e[0].error, Error::RuntimeValue);
    assert_eq!(e[0].error.rule(), "runtime-value");
    assert_eq!(at(text, &e[0].span), "t + 1");
    // A run-time leaf in the CLI is refused by the parser.
    let e = parse_expr("[(4,{n}):(8,1), logical -> physical]", &cli_opts()).unwrap_err();
    assert_eq!(e.error, Error::RuntimeLeaf { column: 4 });
}

#[test]
fn tiles_propagate_through_operations() {
    let env = Env::new();
    let tile = |text: &str| {
        let v = eval_text(text, &env, &macro_opts()).unwrap();
        (
            v.map.domain_tile().map(<[i64]>::to_vec),
            v.map.codomain_tile().map(<[i64]>::to_vec),
        )
    };
    assert_eq!(
        tile("divide([(8,8):(8,1), logical(8,8) -> physical], (4,2))"),
        (Some(vec![4, 2, 2, 4]), None)
    );
    assert_eq!(
        tile("divide_modes([(8,8):(8,1), logical(8,8) -> physical], (4,2))"),
        (Some(vec![8, 8]), None)
    );
    assert_eq!(
        tile("repeat([(4,8):(8,1), logical(4,8) -> logical(4,8)], 3:1)"),
        (Some(vec![3, 4, 8]), Some(vec![3, 4, 8]))
    );
    assert_eq!(
        tile("interleave([(4,8):(8,1), logical(4,8) -> logical], 3:1)"),
        (Some(vec![4, 8, 3]), None)
    );
    // Per mode: the domain tile's extents grow by the arrangement's mode sizes; the codomain's
    // offsets are `M·A(x) + L(y)` as for `repeat`.
    assert_eq!(
        tile("repeat_modewise([(4,8):(8,1), logical(4,8) -> logical(4,8)], (2,3):(1,2))"),
        (Some(vec![8, 24]), Some(vec![6, 4, 8]))
    );
    assert_eq!(
        tile("repeat_modewise_raked([(4,8):(8,1), logical(4,8) -> physical], (1,3):(1,1))"),
        (Some(vec![4, 24]), None)
    );
    let e = eval_text(
        "repeat_modewise([(32):(1), logical(4,8) -> physical], (2):(1))",
        &env,
        &macro_opts(),
    )
    .unwrap_err();
    assert_eq!(
        e[0].error,
        Error::RegroupTileUnknown {
            op: Op::RepeatModewise
        }
    );
    assert_eq!(
        tile("broadcast([(4,8):(8,1), logical(4,8) -> physical], (2,3))"),
        (Some(vec![6, 4, 8]), None)
    );
    assert_eq!(
        tile("inverse([(4,8):(1,4), tv -> logical(8,4)])"),
        (Some(vec![8, 4]), None)
    );
    let e = eval_text(
        "divide([(8,8):(8,1), logical(4,16) -> physical], (4,2))",
        &env,
        &macro_opts(),
    )
    .unwrap_err();
    assert_eq!(e[0].error, Error::DivideTileUnknown);
}

#[test]
fn cute_order_numbers_positions_and_paths_in_cute_order() {
    let opts = Options {
        order: Order::Cute,
        bare: Some(BareSpaces::default()),
        runtime: false,
    };
    // CuTe (8,4):(1,8) is seed (4,8):(8,1); position 0 in CuTe order is the fastest entry,
    // seed entry 1 (size 8).
    let v = eval_text("restrict((8,4):(1,8), 0 = 3)", &Env::new(), &opts).unwrap();
    for i in 0..4 {
        assert_eq!(v.map.eval_index(i).unwrap(), 3 + 8 * i);
    }
    // A divide error's mode path in CuTe order: CuTe (6,8) tiled by (4,4) fails at CuTe mode 0.
    let text = "divide((6,8):(1,6), (4,4))";
    let e = eval_text(text, &Env::new(), &opts).unwrap_err();
    assert_eq!(
        e[0].mode,
        Some(crate::ModePath::from_indices(&[0]).unwrap())
    );
    assert!(matches!(
        e[0].error,
        Error::NotDivisible {
            size: 6,
            tile: 4,
            ..
        }
    ));
    assert_eq!(
        e[0].error.to_string(),
        "divide: tile entry 4 does not divide the size 6 of mode 0"
    );
    assert_eq!(e[0].span.start, text.find("(4,4)").unwrap() + 1);
}

/// Free parts and the whole-domain form in both orders: in CuTe order every tuple is reversed,
/// recursively, before it meets the seed-order domain.
#[test]
fn free_parts_in_both_orders() {
    let cute = Options {
        order: Order::Cute,
        bare: Some(BareSpaces::default()),
        runtime: false,
    };
    // CuTe (2,(2,3),4):(1,(2,4),12), sliced (_, (1, _), 2): a + 2 + 4c + 24 over CuTe (a, c),
    // whose seed order is (c, a).
    for text in [
        "restrict((2,(2,3),4):(1,(2,4),12), (_, (1, _), 2))",
        "restrict((2,(2,3),4):(1,(2,4),12), 1 = (1, _), 2 = 2)",
        "restrict(restrict((2,(2,3),4):(1,(2,4),12), 2 = 2), (_, (1, _)))",
    ] {
        let v = eval_text(text, &Env::new(), &cute).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(v.map.size(), 6, "{text}");
        for c in 0..3 {
            for a in 0..2 {
                assert_eq!(
                    v.map.eval_index(c * 2 + a).unwrap(),
                    a + 2 + 4 * c + 24,
                    "{text}"
                );
            }
        }
    }
    // The same in seed order: seed (4,(3,2),2):(12,(4,2),1).
    let v = eval_text(
        "restrict((4,(3,2),2):(12,(4,2),1), (2, (_, 1), _))",
        &Env::new(),
        &cli_opts(),
    )
    .unwrap();
    for i in 0..6 {
        assert_eq!(v.map.eval_index(i).unwrap(), i % 2 + 2 + 4 * (i / 2) + 24);
    }
    // Parses: `_`, nested parts, a tuple of one value is the value, run-time parts.
    let e = shape_of("restrict(M, 0 = ((1, _), k + 1), 1 = (j))", &macro_opts());
    let Expr::Restrict { fixed, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(
        fixed[0].1,
        Value::Parts(
            vec![
                Value::Parts(vec![Value::Int(1, ()), Value::Free(())], ()),
                Value::Runtime(())
            ],
            ()
        )
    );
    assert_eq!(fixed[1].1, Value::Runtime(()));
    let e = shape_of("restrict(M, _)", &macro_opts());
    let Expr::Restrict { fixed, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(fixed, vec![(Entry::All(()), Value::Free(()))]);
    // Run-time parts are refused where values are static.
    let e = eval_text(
        "restrict((4,(3,2),2):(12,(4,2),1), 1 = (k, _))",
        &Env::new(),
        &cli_opts(),
    )
    .unwrap_err();
    assert_eq!(e[0].error, Error::RuntimeValue);
}

#[test]
fn from_str_keeps_its_errors() {
    use crate::Layout;
    let cases: &[(&str, Error)] = &[
        (
            "(4,8):(8,1",
            Error::Parse {
                column: 10,
                expected: Expected::CommaOrClose,
            },
        ),
        (
            "(4,8)(8,1)",
            Error::Parse {
                column: 5,
                expected: Expected::Colon,
            },
        ),
        (
            "(4,8):(8,1) x",
            Error::Parse {
                column: 12,
                expected: Expected::End,
            },
        ),
        (
            "(4,_):(8,1)",
            Error::Parse {
                column: 3,
                expected: Expected::PositiveSize,
            },
        ),
        ("(4,{n}):(8,1)", Error::RuntimeLeaf { column: 3 }),
        ("(4,(a: 2)):(8,1)", Error::NestedName { column: 4 }),
        (
            "",
            Error::Parse {
                column: 0,
                expected: Expected::Tree,
            },
        ),
    ];
    for (text, e) in cases {
        assert_eq!(text.parse::<Layout>().unwrap_err(), *e, "{text}");
    }
    let l: Layout = "(thread-id: 4, value: 8):(8, 1)".parse().unwrap();
    assert_eq!(l.names()[0].as_deref(), Some("thread-id"));
    assert_eq!(
        Layout::from_cute("(_4,_8):(_1,_0)").unwrap(),
        Layout::from_cute("(4,8):(1,0)").unwrap()
    );
}

/// A layout operation on a composite that is not separable (Theorem 1) names the first
/// coordinate where it is not, found here by enumeration: `PADDED ∘ TV` with
/// `PADDED = (2,6):(7,1)`, `TV = (3,4):(4,1)`, so `f(t, v) = 7·⌊x/6⌋ + x mod 6` for `x = 4t + v`,
/// and the witness is the first `(t, v)` (last entry fastest) where `f(t, v) ≠ f(t, 0) + f(0, v)`.
#[test]
fn a_composite_that_is_not_a_layout_names_its_witness() {
    let f = |t: i64, v: i64| {
        let x = 4 * t + v;
        7 * (x / 6) + x % 6
    };
    let witness = (0..3)
        .flat_map(|t| (0..4).map(move |v| (t, v)))
        .find(|&(t, v)| f(t, v) != f(t, 0) + f(0, v))
        .map(|(t, v)| vec![t, v]);
    assert_eq!(witness, Some(vec![1, 2]));
    for op in ["divide", "inverse", "broadcast"] {
        let arg = match op {
            "divide" => ", (3, 2)",
            "broadcast" => ", (2)",
            _ => "",
        };
        let text = alloc::format!(
            "{op}(compose([(2,6):(7,1), logical -> physical], [(3,4):(4,1), thread-value -> logical]){arg})"
        );
        let errs = eval_text(&text, &Env::new(), &macro_opts()).unwrap_err();
        assert_eq!(errs.len(), 1, "{text}");
        let e = &errs[0];
        assert_eq!(
            e.error,
            Error::NotALayout {
                op: Op::from_name(op).unwrap(),
                why: NotLayoutReason::NotSeparable,
            },
            "{text}"
        );
        assert_eq!(&text[e.span.clone()], "compose", "{text}");
        assert_eq!(
            e.notes.iter().map(|n| n.kind.clone()).collect::<Vec<_>>(),
            vec![NoteKind::Witness {
                coordinate: witness.clone().unwrap()
            }],
            "{text}"
        );
        assert!(
            e.to_string().ends_with(
                "(Theorem 1: not separable); separability fails at the coordinate [1, 2]"
            ),
            "{text}: {e}"
        );
    }
}

/// A `restrict` value written with integer literals only is static in both front ends: an
/// integer past `i64`, alone, signed or in a coordinate, is reported as that literal's error at
/// that literal (never read as a run-time value, which the command would call not allowed and
/// the macro would hand to Rust), for a position and a name entry, the first and the last
/// entry, in seed and CuTe order. A suffixed literal (`3usize`, `(1, 2i32)`) and a value with
/// other tokens (`3 - 1`, `f(99999999999999999999)`) stay run-time values, Rust's to type.
#[test]
fn restrict_values_of_literals_report_the_literal() {
    let big = "99999999999999999999";
    let cases: Vec<String> = vec![
        big.into(),
        alloc::format!("-{big}"),
        alloc::format!("(1, {big})"),
        alloc::format!("((0, -{big}), 2)"),
    ];
    let decl = "[(4,(2,8)):((2,8),1), logical -> physical]";
    for order in [Order::Seed, Order::Cute] {
        for base in [macro_opts(), cli_opts()] {
            let opts = Options { order, ..base };
            for value in &cases {
                for entries in [
                    alloc::format!("0 = {value}"),
                    alloc::format!("1 = {value}, 0 = 1"),
                    alloc::format!("0 = 1, 1 = {value}"),
                    alloc::format!("rows = {value}"),
                ] {
                    let text = alloc::format!("restrict({decl}, {entries})");
                    let err = parse_expr(&text, &opts).expect_err(&text);
                    assert!(
                        matches!(err.error, Error::IntegerTooLarge { .. }),
                        "{text}: {}",
                        err.error
                    );
                    assert_eq!(at(&text, &err.span).trim_start_matches('-'), big, "{text}");
                }
            }
        }
    }
    // A tuple with a run-time element is a tuple of parts; the element is Rust's.
    let text = alloc::format!("restrict({decl}, 0 = (1, 2i32))");
    let Ok(Expr::Restrict { fixed, .. }) = parse_expr(&text, &macro_opts()) else {
        panic!("{text}")
    };
    let Value::Parts(parts, _) = &fixed[0].1 else {
        panic!("{text}: {:?}", fixed[0].1)
    };
    assert!(matches!(parts[0], Value::Int(1, _)), "{text}");
    assert!(
        matches!(&parts[1], Value::Runtime(s) if at(&text, s) == "2i32"),
        "{text}"
    );
    for value in [
        "3usize",
        "(1, 2i32).0",
        "3 - 1",
        "n + 5i32",
        "f(99999999999999999999)",
    ] {
        let text = alloc::format!("restrict({decl}, 0 = {value})");
        let Ok(Expr::Restrict { fixed, .. }) = parse_expr(&text, &macro_opts()) else {
            panic!("{text}")
        };
        assert!(
            matches!(&fixed[0].1, Value::Runtime(s) if at(&text, s) == value),
            "{text}"
        );
    }
}

/// A run-time `restrict` value ends at the next `,` of its top level as Rust reads the
/// expression: commas inside a path's generic arguments (a turbofish, a qualified path, nested
/// generics closing with `>>`, `->` inside them) and between a closure's bars belong to it; a
/// comparison or a shift opens nothing. Each value is given first and last, compactly and
/// token-joined.
#[test]
fn run_time_values_end_where_rust_ends_the_expression() {
    let values = [
        "f::<A, B>(x)",
        "W::<u8, Vec<Vec<u16>>>::h(3)",
        "<T as Tr<A, B>>::k()",
        "<T as Tr<A, B>>::k::<C, D>(1, 2)",
        "g::<Box<dyn Fn(u8, u8) -> u8>, u8>(h)",
        "|a, b| a + b",
        "move |a, b| a",
        "a < b",
        "a << 2",
        "x > y",
        "m.get::<A, B>()",
    ];
    let decl = "[(4,8):(8,1), logical -> physical]";
    for value in values {
        for text in [
            alloc::format!("restrict({decl}, 0 = {value}, 1 = 2)"),
            alloc::format!("restrict({decl}, 1 = 2, 0 = {value})"),
            spaced(&alloc::format!("restrict({decl}, 0 = {value}, 1 = 2)")),
        ] {
            let Ok(Expr::Restrict { fixed, .. }) = parse_expr(&text, &macro_opts()) else {
                panic!("{text}: {:?}", parse_expr(&text, &macro_opts()).err())
            };
            assert_eq!(fixed.len(), 2, "{text}");
            let got: Vec<String> = fixed
                .iter()
                .filter(|(e, _)| matches!(e, Entry::Position(0, _)))
                .map(|(_, v)| at(&text, v.span()).replace(' ', ""))
                .collect();
            assert_eq!(got, [value.replace(' ', "")], "{text}");
        }
    }
}

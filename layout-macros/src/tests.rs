//! The macro never panics: random token streams, mutations of valid inputs and random
//! declarations go through `expand::layout`, the function the proc-macro calls, and come back
//! either as an expansion or as `compile_error!`s, never as a panic. Deterministic tests pin the
//! messages of a few invalid inputs and the form of a few expansions.
//!
//! `proc_macro2` runs on its fallback here (no compiler session), so spans carry no positions;
//! the UI snapshots in `ui-tests` check where errors point.

// Test code: an overflow or a failed index panics, which fails the test it is in.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::indexing_slicing
)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use layout_core::{Layout, Space, Swizzle, check_annotation, check_codomain, check_tile};
use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use proptest::prelude::*;

use crate::expand;

const KRATE: &str = "::layout_typed;";

/// What one expansion produced: the error messages (in order) and the whole output as text.
#[derive(Debug)]
struct Expansion {
    errors: Vec<String>,
    text: String,
}

impl Expansion {
    fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The output without whitespace, for substring checks on types.
    fn compact(&self) -> String {
        self.text.chars().filter(|c| !c.is_whitespace()).collect()
    }
}

/// Runs the macro on `tokens`; a panic is an `Err` with its message.
fn expand_tokens(tokens: TokenStream) -> Result<Expansion, String> {
    let input = tokens.to_string();
    let out = catch_unwind(AssertUnwindSafe(|| expand::layout(tokens))).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("`layout!` panicked on `{input}`: {msg}")
    })?;
    let mut errors = Vec::new();
    collect_errors(out.clone(), &mut errors);
    let text = out.to_string();
    // Every error is a `compile_error!` with a string message; nothing else names it.
    let mentions = text.matches("compile_error").count();
    if mentions != errors.len() {
        return Err(format!(
            "malformed `compile_error!` in the expansion of `{input}`: {text}"
        ));
    }
    Ok(Expansion { errors, text })
}

fn expand_str(input: &str) -> Expansion {
    let tokens = TokenStream::from_str(&format!("{KRATE} {input}"))
        .unwrap_or_else(|e| panic!("test input `{input}` does not lex: {e}"));
    expand_tokens(tokens).unwrap_or_else(|e| panic!("{e}"))
}

/// The messages of every `compile_error! { "..." }` in `ts`, depth first, in order.
fn collect_errors(ts: TokenStream, out: &mut Vec<String>) {
    let tts: Vec<TokenTree> = ts.into_iter().collect();
    for (i, tt) in tts.iter().enumerate() {
        match tt {
            TokenTree::Ident(id) if id == "compile_error" => {
                if let (Some(TokenTree::Punct(bang)), Some(TokenTree::Group(g))) =
                    (tts.get(i + 1), tts.get(i + 2))
                    && bang.as_char() == '!'
                    && let Ok(lit) = syn::parse2::<syn::LitStr>(g.stream())
                {
                    out.push(lit.value());
                }
            }
            TokenTree::Group(g) => collect_errors(g.stream(), out),
            _ => {}
        }
    }
}

/// What every output must look like: either errors whose messages start with the rule in
/// lowercase (`CuTe` is a name), a typed value built from the facade's `Static`
/// without a placeholder, or the hand-over to an operand's macro. The crate path is whatever came before the first `;`.
fn assert_well_formed(input: &str, e: &Expansion) {
    if e.has_errors() {
        for m in &e.errors {
            let first = m.lines().next().unwrap_or("");
            assert!(
                !first.is_empty()
                    && (!first.starts_with(char::is_uppercase) || first.starts_with("CuTe")),
                "message of `{input}` should start with a lowercase rule: {m:?}"
            );
        }
    } else {
        let c = e.compact();
        // An expression naming an operand hands itself to the operand's macro, which
        // continues with the operand's declaration (`SMEM ! { { ..layout_impl } .. }`).
        let continued = c.contains("!{{") && c.contains("__private::layout_impl}");
        assert!(
            // `__n::Static_..<` is `Static<..>` (`layout_core::interned::static_spec`).
            ((c.contains("Static<") || c.contains("__n::Static_")) && c.contains(">::NEW"))
                || (c.contains("Dynamic::<") && c.contains(">::__new("))
                || continued,
            "`{input}` expanded to neither errors nor a typed value: {}",
            e.text
        );
        assert!(!c.contains("unreachable"), "`{input}`: {}", e.text);
    }
}

/// Inputs the macro accepts: expression and item forms, CuTe order, both swizzle spellings,
/// tiles, index types, broadcast and negative strides.
const VALID: &[&str] = &[
    "(16,32):(32,1), logical -> physical",
    "(128,4):(4,1), thread-value -> logical",
    "(8,64):(64,1), logical -> physical, swizzle(b = 3, src = 7, dst = 4)",
    "(8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements",
    "(8,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements",
    "(8,32):(32,1), logical -> physical, Swizzle<3,4,3> over bytes of 32-bit elements",
    "(8,256):(256,1), logical -> physical, Swizzle<3,4,3> over bytes of 4-bit elements",
    "cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)",
    "cute (4,8):(1,4), logical -> physical, Swizzle<1,2,3> over elements",
    "():(), logical -> logical",
    "cute ():(), logical -> physical",
    "cute ((),4):((),1), logical -> physical",
    "cute ((2,2),8):((1,2),4), logical -> logical(4,8)",
    "pub const SMEM = (16,32):(32,1), logical -> physical;",
    "pub const TV = (128,4):(4,1), thread-value -> logical; const B = 8:2, logical -> physical;",
    "#[doc = \"x\"] pub(crate) const A = ((2,2),(8,4)):((8,16),(1,32)), logical -> physical, index = u32;",
    "(4,8):(_,1), logical -> physical",
    "(4,8):(-8,1), logical -> physical, index = i32",
    "8:2, logical -> physical, index = i32",
    "(32,4):(4,1), tv -> tv",
    "(16,8):(1,16), logical -> logical(16,8)",
    "((8,8),(4,2)):((8,1),(64,256)), logical -> physical, index = usize",
    "pub const X = (2,4,8):(32,8,1), logical -> logical(64), index = i64;",
];

#[test]
fn valid_inputs_expand_without_errors() {
    for input in VALID {
        let e = expand_str(input);
        assert!(!e.has_errors(), "`{input}` gave {:?}", e.errors);
        assert_well_formed(input, &e);
    }
}

/// The first line (the rule) of each message of `input`.
fn rules(input: &str) -> Vec<String> {
    let e = expand_str(input);
    assert_well_formed(input, &e);
    e.errors
        .iter()
        .map(|m| m.lines().next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn error_messages() {
    let cases: &[(&str, &[&str])] = &[
        (
            "(16,32) (32,1), logical -> physical",
            &["expected `:` between shape and stride"],
        ),
        (
            "(4,8,2):(0,1,0), physical -> logical",
            &[
                "forbidden annotation `physical -> logical`",
                "zero stride in mode 0 of size 4",
                "zero stride in mode 2 of size 2",
            ],
        ),
        (
            "(4,8):(4,1), logical -> physical",
            &[
                "not alias-free: flat indices 4 and 8 both reach offset 4 (mode 1 and mode 0 collide)",
                "the colliding mode's stride is here",
            ],
        ),
        (
            "(4,8):(9,1), logical -> logical",
            &[
                "not a dense bijection (Lemma 1): sorted by stride, mode 0 should have stride 8 but has 9",
            ],
        ),
        (
            "(4,2):(_,1), logical -> logical",
            &["not a dense bijection (Lemma 1): mode 0 of size 4 is a broadcast `_`"],
        ),
        (
            "((2,2),8):(4,1), logical -> physical",
            &[
                "shape and stride differ in profile at mode 0: the shape has 2 entries there, the stride 1",
                "the matching shape is here",
            ],
        ),
        (
            "(0,4):(4,1), logical -> physical",
            &["size 0 in mode 0 is not positive"],
        ),
        (
            "(4294967296,4294967296):(4294967296,1), logical -> physical",
            &["overflow: the offset range exceeds i64 at mode 0"],
        ),
        (
            "(65536,65536):(65536,1), logical -> physical, index = i32",
            &[
                "offsets [0, 4294967295] do not fit the index type's range [-2147483648, 2147483647]",
            ],
        ),
        (
            "(16,32):(32,1), logical -> memory",
            &["expected a space: `logical`, `thread-value` (or `tv`) or `physical`"],
        ),
        (
            "(128,4):(4,1), thread-value -> physical",
            &["forbidden annotation `thread-value -> physical`"],
        ),
        (
            "(8,64):(64,1), logical -> physical, swizzle(b = 3, src = 4, dst = 2)",
            &["swizzle fields overlap: source bits [4, 7) and destination bits [2, 5) share a bit"],
        ),
        (
            "(8,64):(64,1), logical -> logical, Swizzle<3,4,3> over elements",
            &["a swizzle runs from physical to physical, but this map's codomain is logical"],
        ),
        (
            "(128,4):(4,1), thread-value -> logical(16,4)",
            &["logical tile shape of 64 positions on a side of size 512"],
        ),
        (
            "(99999999999999999999,1):(1,1), logical -> physical",
            &["integer at column 2 does not fit in i64"],
        ),
        (
            "(4u32,8):(8,1), logical -> physical",
            &["an integer with a type suffix"],
        ),
        (
            "(_,8):(8,1), logical -> physical",
            &["expected a positive size"],
        ),
        (
            "((m: 2, 2), 8):(8,1), logical -> physical",
            &["mode name at column 4 is below the top level"],
        ),
        (
            "(4,8):({ld},1), logical -> physical, Swizzle<3,4,3> over elements",
            &["a swizzle needs a layout without run-time leaves"],
        ),
        (
            "(1,2,3,4,5,6,7,8,9):(_,_,_,_,_,_,_,_,1), logical -> physical",
            &["9 modes in one tuple; the typed API takes at most 8"],
        ),
        (
            "(16,32):(32,1), logical -> physical, layout = i64",
            &[
                "expected an option: `swizzle(b = .., src = .., dst = ..)`, `Swizzle<B,M,S>`, `index = i64`, `wgmma K-major` or `tma box`",
            ],
        ),
        (
            "(16,32):(32,1), logical -> physical, index = u8",
            &["expected an index type: `i32`, `i64`, `u32` or `usize`"],
        ),
        (
            "(16,32):(32,1), logical -> physical, Swizzle<3,4,3> over elements, Swizzle<3,4,3> over elements",
            &["a second swizzle"],
        ),
        // A CuTe swizzle pasted without its unit: both fixes in the help.
        (
            "(8,64):(64,1), logical -> physical, Swizzle<3,4,3>",
            &["a CuTe swizzle needs its unit: `over elements` or `over bytes of N-bit elements`"],
        ),
        (
            "(8,64):(64,1), logical -> physical, Swizzle<3,4,3> over words",
            &["a CuTe swizzle needs its unit: `over elements` or `over bytes of N-bit elements`"],
        ),
        (
            "(8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16 elements",
            &["a CuTe swizzle needs its unit: `over elements` or `over bytes of N-bit elements`"],
        ),
        // Over bytes, a swizzle that moves bytes inside an element has no element form.
        (
            "(8,8):(8,1), logical -> physical, Swizzle<1,2,3> over bytes of 64-bit elements",
            &[
                "CuTe Swizzle<1,2,3> over bytes of 64-bit elements moves bytes inside an element: M = 2 < log2(8 bytes) = 3",
            ],
        ),
        (
            "(8,8):(8,1), logical -> physical, Swizzle<1,4,3> over bytes of 24-bit elements",
            &[
                "CuTe Swizzle<1,4,3> over bytes of 24-bit elements has no form on element offsets: the element width is not a power of two",
            ],
        ),
        (
            "(16,32):(32,1), logical -> physical, swizzle(b = 3, src = 7)",
            &["expected all three swizzle fields `b`, `src` and `dst`"],
        ),
        (
            "(16,32):(32,1), logical -> physical extra",
            &["expected the end of the layout"],
        ),
        (
            "pub const A = (16,32):(32,1), logical -> physical",
            &["expected `;` after the item"],
        ),
        (
            "(((((((((((2))))))))))):(1), logical -> logical",
            &["nesting deeper than 8 levels at the layout"],
        ),
        // A restriction keeps its free entries' tile shape, checked by a composition.
        (
            "compose(restrict([(4,16,8):(128,8,1), logical(4,16,8) -> physical], 0 = 1), [(8,16):(16,1), thread-value -> logical(8,16)])",
            &["logical tile shapes differ at extent 0: 8 on the right operand vs 16 on the left"],
        ),
        // Algebra results past the typed API's limits, named at expansion.
        (
            "broadcast([(4,8):(8,1), logical -> physical], (2,2,2,2,2,2,2,2,2))",
            &["9 modes in one tuple; the typed API takes at most 8"],
        ),
        (
            "broadcast([((2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2)):((1,2,4,8,16,32,64,128),(256,512,1024,2048,4096,8192,16384,32768),(65536,131072,262144,524288,1048576,2097152,4194304,8388608),(16777216,33554432,67108864,134217728,268435456,536870912,1073741824,2147483648)), logical -> physical], (2))",
            &["33 leaf modes; the typed API takes at most 32"],
        ),
        (
            "repeat([((2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2)):((1,2,4,8,16,32,64,128),(256,512,1024,2048,4096,8192,16384,32768),(65536,131072,262144,524288,1048576,2097152,4194304,8388608),(16777216,33554432,67108864,134217728,268435456,536870912,1073741824,2147483648)), logical -> physical], (2):(1))",
            &["33 leaf modes; the typed API takes at most 32"],
        ),
    ];
    for (input, want) in cases {
        assert_eq!(&rules(input), want, "messages of `{input}`");
    }
    // The help of a CuTe swizzle pasted without its unit shows both fixes.
    let e = expand_str("(8,64):(64,1), logical -> physical, Swizzle<3,4,3>");
    assert_eq!(
        e.errors[0].lines().nth(1),
        Some(
            "help: CuTe's GMMA and TMA swizzles act on byte addresses: write `Swizzle<3,4,3> over bytes of 16-bit elements` with the element width in bits (for fp16 the same as `Swizzle<3,3,3> over elements`), or `Swizzle<3,4,3> over elements` if it acts on element offsets"
        )
    );
    // Without the `$crate;` prefix the facade was bypassed.
    let e = expand_tokens(TokenStream::from_str("(16,32):(32,1), logical -> physical").unwrap())
        .unwrap();
    assert_eq!(
        e.errors,
        [crate::text::message(&layout_core::expr::Located::new(
            layout_core::Error::MacroPath,
            0..0
        ))]
    );
}

/// Every error of the invocation's frame (read with `syn` before the core sees the text) is a
/// rule of the core's table: its message and help, whole, for each place the frame can fail.
#[test]
fn frame_errors_read_the_table() {
    use layout_core::{Error, Expected};
    let syntax = |expected| Error::Syntax { expected };
    let cases: &[(&str, Error)] = &[
        ("", Error::EmptyMacro),
        (
            "# const A = 8:1, logical -> logical;",
            syntax(Expected::Attribute),
        ),
        (
            "#(x) const A = 8:1, logical -> logical;",
            syntax(Expected::Attribute),
        ),
        (
            "#{x} const A = 8:1, logical -> logical;",
            syntax(Expected::Attribute),
        ),
        (
            "pub static A = 8:1, logical -> logical;",
            syntax(Expected::Item),
        ),
        (
            "#[doc = \"x\"] A = 8:1, logical -> logical;",
            syntax(Expected::Item),
        ),
        (
            "pub const = 8:1, logical -> logical;",
            syntax(Expected::ItemName),
        ),
        (
            "const 5 = 8:1, logical -> logical;",
            syntax(Expected::ItemName),
        ),
        ("const A 8:1, logical -> logical;", syntax(Expected::Equals)),
        (
            "const A := 8:1, logical -> logical;",
            syntax(Expected::Equals),
        ),
        (
            "const A = 8:1, logical -> logical",
            syntax(Expected::ItemEnd),
        ),
        (
            "const A = 8:1, logical -> logical; const B = 8:1, logical -> logical",
            syntax(Expected::ItemEnd),
        ),
    ];
    for (input, e) in cases {
        let got = expand_str(input);
        let want = format!("{e}\nhelp: {}", e.help().expect("a frame error has a help"));
        assert_eq!(got.errors, [want], "`{input}`");
    }
}

/// The text the core reads and the table back to the tokens: integers in base 10 with their
/// suffixes, other literals as `?`, delimiters kept; a byte range gives back the outermost
/// tokens inside it (a run-time leaf's contents, a run-time value), and a path's range its
/// tokens, a leading `::` included.
#[test]
fn tokens_become_text_and_ranges_become_tokens() {
    use crate::text::Text;
    let tokens =
        TokenStream::from_str("(0x10, 1_000usize, \"s\") : ({ f(a, b) + 1 }, ::c::D, - 5)")
            .unwrap();
    let t = Text::new(&tokens);
    assert_eq!(
        t.text,
        "( 16 , 1000usize , ? ) : ( { f ( a , b ) + 1 } , : : c : : D , - 5 )"
    );
    let range = |needle: &str| {
        let start = t.text.find(needle).unwrap();
        start..start + needle.len()
    };
    let back = |needle: &str| t.tokens(&range(needle)).to_string();
    assert_eq!(back("f ( a , b ) + 1"), "f (a , b) + 1");
    assert_eq!(back("{ f ( a , b ) + 1 }"), "{ f (a , b) + 1 }");
    assert_eq!(back("- 5"), "- 5");
    // A range inside a group but not covering it gives the tokens inside only.
    assert_eq!(back("a , b"), "a , b");
    // A literal made with its sign (by a macro) reads as the negative integer.
    let signed: TokenStream = TokenTree::Literal(proc_macro2::Literal::i64_unsuffixed(-5)).into();
    assert_eq!(Text::new(&signed).text, "- 5");
    let opts = layout_core::expr::Options::default();
    for (path, want) in [("D", "D"), ("c :: D", "c :: D"), (":: c :: D", ":: c :: D")] {
        let p = TokenStream::from_str(&format!("compose({path}, X)")).unwrap();
        let t = Text::new(&p);
        let e = layout_core::expr::parse_expr(&t.text, &opts).unwrap();
        let operand = e.operands()[0];
        assert_eq!(t.path_tokens(operand).to_string(), want, "{path}");
    }
}

/// Every diagnostic of the macro is a rule of the core's error table, worded there: for inputs
/// of every class (the syntax of layouts, sides, options and expressions, the rules of one
/// declaration, the preconditions of each kind of operation, the typed API's limits, a constant
/// with run-time leaves), each message is exactly the core's message of the expected rule, with
/// its numbers, then `help:` and the core's help.
#[test]
fn every_message_is_a_rule_of_the_core() {
    use layout_core::expr::Op;
    use layout_core::{Error, Expected, ModePath};
    let mode = |i: &[usize]| ModePath::from_indices(i).unwrap();
    let leaves32 = "((2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2)):((1,2,4,8,16,32,64,128),(256,512,1024,2048,4096,8192,16384,32768),(65536,131072,262144,524288,1048576,2097152,4194304,8388608),(16777216,33554432,67108864,134217728,268435456,536870912,1073741824,2147483648)), logical -> physical";
    let leaves33 = "((2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),2):((1,2,4,8,16,32,64,128),(256,512,1024,2048,4096,8192,16384,32768),(65536,131072,262144,524288,1048576,2097152,4194304,8388608),(16777216,33554432,67108864,134217728,268435456,536870912,1073741824,2147483648),4294967296), logical -> physical";
    let cases: Vec<(String, Vec<Error>)> = vec![
        (
            "(16,32) (32,1), logical -> physical".into(),
            vec![Error::Syntax {
                expected: Expected::Colon,
            }],
        ),
        (
            "(16,32):(32,1), logical -> memory".into(),
            vec![Error::Syntax {
                expected: Expected::Space,
            }],
        ),
        (
            "(16,32):(32,1), logical -> physical, index = u8".into(),
            vec![Error::Syntax {
                expected: Expected::IndexType,
            }],
        ),
        (
            "(4u32,8):(8,1), logical -> physical".into(),
            vec![Error::IntegerSuffix],
        ),
        (
            "(4,8):(0,1), logical -> physical".into(),
            vec![Error::ZeroStride {
                mode: mode(&[0]),
                size: 4,
            }],
        ),
        (
            "(1,2,3,4,5,6,7,8,9):(_,_,_,_,_,_,_,_,1), logical -> physical".into(),
            vec![Error::TypedRank { rank: 9 }],
        ),
        (leaves33.into(), vec![Error::TypedLeaves { leaves: 33 }]),
        (
            "const A = (4,{n}):(1,4), logical -> physical;".into(),
            vec![Error::RuntimeConstant],
        ),
        // An item defined by an expression holds no run-time value either, at any depth.
        (
            "const A = restrict([(4,8):(8,1), logical -> physical], 0 = k);".into(),
            vec![Error::RuntimeConstant],
        ),
        (
            "const A = compose(restrict([(4,8):(8,1), logical -> physical], 0 = k + 1), [8:1, tv -> logical]);".into(),
            vec![Error::RuntimeConstant],
        ),
        (
            "const A = repeat([(4,8):(8,1), logical -> physical], ({n}):(1));".into(),
            vec![Error::RuntimeConstant],
        ),
        (
            "const A = divide([(4,{n}):(8,1), logical -> physical], (2, 2));".into(),
            vec![Error::RuntimeConstant],
        ),
        // Its rules are an expression's.
        (
            "const A = divide([(4,8):(8,1), logical -> physical], (3, 2));".into(),
            vec![Error::NotDivisible {
                mode: mode(&[0]),
                size: 4,
                tile: 3,
            }],
        ),
        (
            "transpose([4:1, logical -> logical])".into(),
            vec![Error::UnknownOperation],
        ),
        (
            "compose([(16,32):(32,1), logical -> physical], [8:1, thread-value -> logical])".into(),
            vec![Error::SizeMismatch {
                left: 512,
                right: 8,
            }],
        ),
        (
            "repeat([4:1, logical -> logical], (2,2):(4,1))".into(),
            vec![Error::ArrangementNotDense {
                op: Op::Repeat,
                mode: mode(&[0]),
                expected: 2,
                found: 4,
            }],
        ),
        (
            "interleave([4:1, logical -> logical], (2,3):(_,1))".into(),
            vec![Error::ArrangementBroadcast {
                op: Op::Interleave,
                mode: mode(&[0]),
                size: 2,
            }],
        ),
        (
            "inverse([(4,6):(8,1), logical -> physical])".into(),
            vec![Error::InverseOfPhysical {
                domain: Space::Logical,
            }],
        ),
        (
            "broadcast([4:1, logical -> logical], (2))".into(),
            vec![Error::BroadcastNotPhysical {
                codomain: Space::Logical,
            }],
        ),
        // The same limits on the result of an operation.
        (
            format!("broadcast([{leaves32}], (2))"),
            vec![Error::TypedLeaves { leaves: 33 }],
        ),
        (
            "broadcast([(4,8):(8,1), logical -> physical], (2,2,2,2,2,2,2,2,2))".into(),
            vec![Error::TypedRank { rank: 9 }],
        ),
    ];
    for (input, want) in cases {
        let want: Vec<String> = want
            .iter()
            .map(|e| match e.help() {
                Some(h) => format!("{e}\nhelp: {h}"),
                None => e.to_string(),
            })
            .collect();
        assert_eq!(expand_str(&input).errors, want, "{input}");
    }
}

/// `- -9223372036854775808` (syn puts the second `-` into the literal, which is written back
/// as `- 9223372036854775808`): a double negation, refused by the grammar, never an overflow
/// panic; the magnitude alone does not fit in i64. Found by `random_streams_never_panic`.
#[test]
fn negated_minimum_is_an_error() {
    for (input, want) in [
        (
            "(- -9223372036854775808):(1), logical -> physical",
            "expected an integer, `_` or `(`",
        ),
        (
            "(4):(- -9223372036854775808), logical -> physical",
            "expected an integer, `_` or `(`",
        ),
        (
            "(4):(9223372036854775808), logical -> physical",
            "integer at column 10 does not fit in i64",
        ),
    ] {
        assert_eq!(rules(input), [want], "{input}");
    }
}

/// A swizzle is refused exactly when the map it follows reaches a negative offset, for every
/// form of map: a layout, a restriction (of a layout, of a restriction, of a composite), and a
/// composite whose left operand is a restriction. The smallest offsets are worked out by hand
/// in the comments.
#[test]
fn a_swizzle_of_any_map_reaching_a_negative_offset_is_refused() {
    let sw = "b = 1, src = 3, dst = 0";
    let n = "[(4,8):(-8,1), logical -> physical]";
    let q = "[(2,4,8):(64,-8,1), logical -> physical]";
    let cases: Vec<(String, Option<i64>)> = vec![
        // 3·(−8) + 0.
        (format!("swizzle({n}, {sw})"), Some(-24)),
        // 3 − 8r for r < 4.
        (format!("swizzle(restrict({n}, 1 = 3), {sw})"), Some(-21)),
        // 0..8.
        (format!("swizzle(restrict({n}, 0 = 0), {sw})"), None),
        (
            format!("swizzle(compose(restrict({n}, 1 = 3), [4:1, thread-value -> logical]), {sw})"),
            Some(-21),
        ),
        (
            format!(
                "swizzle(compose(restrict({n}, 0 = 0), [(2,4):(1,2), thread-value -> logical]), {sw})"
            ),
            None,
        ),
        // x = 2 + 4j for j < 8, offset −8·(x / 8) + x mod 8: the smallest is at x = 26.
        (
            format!(
                "swizzle(restrict(compose({n}, [(4,8):(1,4), thread-value -> logical]), 0 = 2), {sw})"
            ),
            Some(-22),
        ),
        // 64 − 24 + c for c < 8.
        (
            format!("swizzle(restrict(restrict({q}, 0 = 1), 0 = 3), {sw})"),
            None,
        ),
        // −24 + c for c < 8.
        (
            format!("swizzle(restrict(restrict({q}, 0 = 0), 0 = 3), {sw})"),
            Some(-24),
        ),
        (
            format!("swizzle(restrict({q}, 0 = 0, 1 = 1), {sw})"),
            Some(-8),
        ),
        (format!("swizzle(restrict({q}, 1 = 3), {sw})"), Some(-24)),
        // 64 − 8b + c for b < 4, c < 8: at least 40.
        (format!("swizzle(restrict({q}, 0 = 1), {sw})"), None),
    ];
    for (input, min) in cases {
        match min {
            Some(m) => assert_eq!(
                rules(&input),
                [format!(
                    "a swizzle acts on non-negative offsets, but this map reaches offset {m}"
                )],
                "{input}"
            ),
            None => assert_eq!(expand_str(&input).errors, Vec::<String>::new(), "{input}"),
        }
    }
}

#[test]
fn independent_items_are_reported_together_and_good_items_still_expand() {
    let input = "pub const A = (4,8):(0,1), logical -> physical; \
                 pub const B = (16,32):(32,1), logical -> physical; \
                 const C = (4,8):(8,1), physical -> logical;";
    let e = expand_str(input);
    assert_eq!(
        e.errors
            .iter()
            .map(|m| m.lines().next().unwrap_or(""))
            .collect::<Vec<_>>(),
        [
            "zero stride in mode 0 of size 4",
            "forbidden annotation `physical -> logical`"
        ]
    );
    let c = e.compact();
    assert!(c.contains("pubtypeB="), "{c}");
    assert!(c.contains("pubconstB:B="), "{c}");
    assert!(!c.contains("typeA="), "{c}");
    // A layout that is built but breaks a later rule still yields a value, so uses of it do not
    // cascade into further errors.
    assert!(c.contains("typeC="), "{c}");
}

/// `compact` text with each alias of `layout_core::interned` (`__n::D16_32`) replaced by the type
/// it names (`Dim<16,32>`), longest names first so that no name is read as a prefix of another.
fn unalias(compact: &str) -> String {
    let mut table = layout_core::interned::declarations();
    table.sort_by_key(|(name, _)| core::cmp::Reverse(name.len()));
    let mut out = unalias_static(compact);
    for (name, ty) in table {
        out = out.replace(&format!("__n::{name}"), &ty.replace(' ', ""));
    }
    out
}

/// `compact` text with each `Static` alias of `layout_core::interned`
/// (`::layout_typed::__n::Static_LP_i64<F,Sz,DT,CT>`) replaced by the type it declares, written
/// as the expansion writes a type in full (`::layout_typed::Static<F,::layout_typed::Spec<..>>`).
fn unalias_static(compact: &str) -> String {
    let mut out = compact.to_owned();
    for (name, ty) in layout_core::interned::static_declarations() {
        let alias = format!("__n::{}<", name.split('<').next().unwrap());
        while let Some(found) = out.find(&alias) {
            // The crate's path before `__n` (the tests also feed mutated ones).
            let at = out[..found]
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '$'))
                .map_or(0, |i| i + 1);
            let k = out[at..found].to_owned();
            // The four arguments, split at the commas outside brackets.
            let start = found + alias.len();
            let (mut depth, mut args, mut from, mut end) = (0i32, Vec::new(), start, start);
            for (i, ch) in out[start..].char_indices() {
                match ch {
                    '<' | '(' => depth += 1,
                    ')' => depth -= 1,
                    '>' if depth == 0 => {
                        args.push(out[from..start + i].to_owned());
                        end = start + i + 1;
                        break;
                    }
                    '>' => depth -= 1,
                    ',' if depth == 0 => {
                        args.push(out[from..start + i].to_owned());
                        from = start + i + 1;
                    }
                    _ => {}
                }
            }
            assert!(matches!(args.len(), 4 | 5), "{out}");
            // The declared type, its names written from the crate's path (`NAMES` left out
            // where the alias takes its default, as the full type is then written).
            let ty = if args.len() == 4 {
                ty.replace(", NAMES", "")
            } else {
                ty.clone()
            };
            let full: String = ty
                .replace(' ', "")
                .split_inclusive(['<', ',', '>'])
                .map(|piece| {
                    let word = piece.trim_end_matches(['<', ',', '>']);
                    let rest = &piece[word.len()..];
                    let word = match word {
                        "F" => args[0].clone(),
                        "Sz" => args[1].clone(),
                        "DT" => args[2].clone(),
                        "CT" => args[3].clone(),
                        "NAMES" => args[4].clone(),
                        "i32" | "i64" | "u32" | "usize" => format!("::core::primitive::{word}"),
                        "" => String::new(),
                        w => format!("{k}{w}"),
                    };
                    word + rest
                })
                .collect();
            out.replace_range(at..end, &full);
        }
    }
    out
}

#[test]
fn expansions_name_the_checked_form() {
    let k = "::layout_typed::";
    let cases: &[(&str, &[&str])] = &[
        (
            "(16,32):(32,1), logical -> physical",
            &[
                "(::layout_typed::Dim<16,32>,::layout_typed::Dim<32,1>,)",
                "Spec<::layout_typed::LogicalSpace,::layout_typed::PhysicalSpace,::layout_typed::Size<512>,::layout_typed::Exclusive,::layout_typed::NoTile,::layout_typed::NoTile,::core::primitive::i64>",
            ],
        ),
        // CuTe order is reversed recursively: ((4,8),(2,2)):((32,1),(16,8)) is
        // ((2,2),(8,4)):((8,16),(1,32)) in seed order; the tile (16,8) becomes (8,16).
        (
            "cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)",
            &[
                "((Dim<2,8>,Dim<2,16>,),(Dim<8,1>,Dim<4,32>,),)",
                "ThreadValueSpace,::layout_typed::LogicalSpace,::layout_typed::Size<128>",
                "NoTile,::layout_typed::Tile2<8,16>,",
            ],
        ),
        (
            "(4,8):(_,1), logical -> physical, index = u32",
            &["(Bcast<4>,Dim<8,1>,)", "ReadOnly", "::core::primitive::u32"],
        ),
        ("(4,8):(-8,1), logical -> physical", &["Dim<4,{-8}>"]),
        // Numbers without an alias are written as literals.
        (
            "(3,5):(10,-1), logical(3,5) -> physical",
            &["(Dim<3,10>,Dim<5,{-1}>,)", "Size<15>", "Tile2<3,5>"],
        ),
        // A size-1 mode's stride is normalised away.
        ("(1,8):(0,1), logical -> physical", &["(Dim<1,"]),
        (
            "(8,64):(64,1), logical -> physical, Swizzle<3,4,3> over elements",
            &["Swizzled<", ",3,7,4,0,511>", ">::NEW"],
        ),
        // Over the bytes of 16-bit elements, the 128-byte swizzle is Swizzle<3,3,3> on elements.
        (
            "(8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements",
            &["Swizzled<", ",3,6,3,0,511>", ">::NEW"],
        ),
        (
            "(8,64):(64,1), logical -> physical, swizzle(b = 3, src = 7, dst = 4)",
            &["Swizzled<", ",3,7,4,0,511>", ">::NEW"],
        ),
        ("8:2, tv -> physical", &[]),
        // Integer literals in any base and with separators read as their values.
        (
            "(0x10,1_0):(0b1010,0o1), logical -> physical",
            &["(Dim<16,10>,Dim<10,1>,)"],
        ),
        // A run-time value keeps its tokens as written, a suffixed literal included; so does a
        // run-time leaf.
        (
            "restrict([(4,8):(8,1), logical -> physical], 0 = 3usize)",
            &["let__w0=3usize;"],
        ),
        (
            "(4,{n+1usize}):(8,1), logical -> physical",
            &["leaf(n+1usize)"],
        ),
    ];
    for (input, want) in cases {
        let e = expand_str(input);
        let c = unalias(&e.compact()).replace(k, "");
        if want.is_empty() {
            assert!(e.has_errors(), "`{input}` should fail");
            continue;
        }
        assert!(!e.has_errors(), "`{input}` gave {:?}", e.errors);
        for w in *want {
            let w = w.replace(k, "");
            assert!(c.contains(&w), "`{input}` should mention `{w}`:\n{c}");
        }
    }
    let item = expand_str("pub const SMEM = (16,32):(32,1), logical -> physical;").compact();
    // Powers of two are named by their aliases; read back, the type is the form.
    assert!(item.contains("pubtypeSMEM=::layout_typed::__n::Static_LP_i64<(::layout_typed::__n::D16_32,::layout_typed::__n::D32_1,),::layout_typed::__n::S512,::layout_typed::NoTile,::layout_typed::NoTile>;"), "{item}");
    let item = unalias(&item);
    assert!(item.contains("pubtypeSMEM=::layout_typed::Static<(::layout_typed::Dim<16,32>,::layout_typed::Dim<32,1>,)"), "{item}");
    assert!(
        item.contains("pubconstSMEM:SMEM=<SMEMas::layout_typed::__private::New>::NEW;"),
        "{item}"
    );
}

// ---------------------------------------------------------------------------------------------
// (a) Random token streams over the macro's vocabulary.

/// Tokens the macro reads or might confuse with what it reads.
const VOCAB: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "8",
    "16",
    "32",
    "64",
    "128",
    "255",
    "256",
    "65536",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999999",
    "4u32",
    "0x10",
    "1_000",
    "1.5",
    "1e3",
    "_",
    ":",
    "::",
    ",",
    "-",
    "->",
    "<",
    ">",
    "=",
    ";",
    "#",
    "!",
    "*",
    "..",
    "'a",
    "logical",
    "physical",
    "thread",
    "value",
    "thread-value",
    "tv",
    "memory",
    "cute",
    "swizzle",
    "Swizzle",
    "index",
    "i32",
    "i64",
    "u32",
    "usize",
    "u8",
    "b",
    "src",
    "dst",
    "pub",
    "crate",
    "const",
    "SMEM",
    "r#type",
    "\"s\"",
    "b\"x\"",
    "'c'",
    "true",
];

#[derive(Clone, Debug)]
enum Tok {
    Atom(&'static str),
    Group(char, Vec<Tok>),
}

fn tok() -> impl Strategy<Value = Tok> {
    let atom = prop_oneof![
        4 => prop::sample::select(VOCAB),
        // The structural tokens, more often.
        3 => prop::sample::select(&[":", ",", "->", "_", "1", "8", "-"][..]),
    ]
    .prop_map(Tok::Atom);
    atom.prop_recursive(4, 48, 8, |inner| {
        (
            prop::sample::select(&['(', '(', '(', '[', '{'][..]),
            prop::collection::vec(inner, 0..8),
        )
            .prop_map(|(d, v)| Tok::Group(d, v))
    })
}

/// A shape or stride: mostly a well-formed tree of integers and `_`, sometimes a group of
/// layout-like tokens in any order.
fn tuple() -> impl Strategy<Value = Tok> {
    let leaf = prop::sample::select(
        &[
            "1",
            "2",
            "4",
            "8",
            "16",
            "32",
            "0",
            "_",
            "-1",
            "-8",
            "4294967296",
            "{ld}",
            "m:",
        ][..],
    )
    .prop_map(Tok::Atom);
    let tree = leaf.prop_recursive(3, 24, 5, |inner| {
        prop::collection::vec(inner, 1..5).prop_map(|v| {
            let mut items = Vec::new();
            for (i, t) in v.into_iter().enumerate() {
                if i > 0 {
                    items.push(Tok::Atom(","));
                }
                items.push(t);
            }
            Tok::Group('(', items)
        })
    });
    let noise = prop::collection::vec(
        prop::sample::select(&["1", "8", "_", "-", ",", ",", ":", "()", "(4,8)"][..])
            .prop_map(Tok::Atom),
        0..6,
    )
    .prop_map(|v| Tok::Group('(', v));
    prop_oneof![4 => tree, 1 => noise]
}

/// The skeleton of a declaration, `[cute] T : T , SPACE -> SPACE [, OPTION]*`, with random
/// pieces: these streams get past the first tokens and reach the checks.
fn skeleton() -> impl Strategy<Value = Vec<Tok>> {
    let filler = || prop::collection::vec(tok(), 0..3);
    let space = || {
        prop_oneof![
            3 => prop::sample::select(
                &["logical", "physical", "tv", "thread-value", "logical(16,8)", "logical(8)"][..]
            )
            .prop_map(|s| vec![Tok::Atom(s)]),
            1 => filler(),
        ]
    };
    let option = prop_oneof![
        3 => prop::sample::select(
            &[
                "Swizzle<3,4,3> over elements",
                "Swizzle<3,4,3> over bytes of 16-bit elements",
                "Swizzle<3,4,3>",
                "Swizzle<1,2,3> over elements",
                "swizzle(b = 3, src = 7, dst = 4)",
                "swizzle(b = 2, dst = 0, src = 9)",
                "index = u32",
                "index = i32",
                "index = usize",
            ][..]
        )
        .prop_map(|s| vec![Tok::Atom(s)]),
        1 => filler(),
    ];
    (
        prop::bool::weighted(0.3),
        tuple(),
        tuple(),
        space(),
        space(),
        prop::collection::vec(option, 0..3),
    )
        .prop_map(|(cute, shape, stride, dom, cod, opts)| {
            let mut v = Vec::new();
            if cute {
                v.push(Tok::Atom("cute"));
            }
            v.extend([shape, Tok::Atom(":"), stride, Tok::Atom(",")]);
            v.extend(dom);
            v.push(Tok::Atom("->"));
            v.extend(cod);
            for o in opts {
                v.push(Tok::Atom(","));
                v.extend(o);
            }
            v
        })
}

fn render(toks: &[Tok], out: &mut String) {
    for t in toks {
        match t {
            Tok::Atom(a) => out.push_str(a),
            Tok::Group(d, v) => {
                let close = match d {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                out.push(*d);
                render(v, out);
                out.push(close);
            }
        }
        out.push(' ');
    }
}

/// Every accepted input has a top-level `->` after the first top-level `;` (the one that ends
/// the crate path): the arrow of a declaration is never inside a group.
fn surely_invalid(toks: &[Tok]) -> bool {
    let Some(semi) = toks.iter().position(|t| matches!(t, Tok::Atom(";"))) else {
        return true;
    };
    // A path alone is an expression: it hands over to its operand's macro, which Rust
    // resolves (or reports).
    let mut rest = String::new();
    render(&toks[semi + 1..], &mut rest);
    let path = syn::parse::Parser::parse_str(syn::Path::parse_mod_style, &rest).is_ok();
    !path && !toks[semi..].iter().any(|t| matches!(t, Tok::Atom("->")))
}

// ---------------------------------------------------------------------------------------------
// (b) Mutations of valid inputs.

/// Applies `f` to the sibling list and index of the `target`-th token (depth first, a group
/// counted before its contents) that satisfies `pred`; returns whether it was found.
fn edit(
    ts: TokenStream,
    target: &mut usize,
    pred: &dyn Fn(&TokenTree) -> bool,
    f: &mut dyn FnMut(&mut Vec<TokenTree>, usize),
) -> (TokenStream, bool) {
    let mut v: Vec<TokenTree> = ts.into_iter().collect();
    let mut i = 0;
    while i < v.len() {
        if pred(&v[i]) {
            if *target == 0 {
                f(&mut v, i);
                return (v.into_iter().collect(), true);
            }
            *target -= 1;
        }
        if let TokenTree::Group(g) = &v[i] {
            let (inner, done) = edit(g.stream(), target, pred, f);
            if done {
                let mut ng = Group::new(g.delimiter(), inner);
                ng.set_span(g.span());
                v[i] = TokenTree::Group(ng);
                return (v.into_iter().collect(), true);
            }
        }
        i += 1;
    }
    (v.into_iter().collect(), false)
}

fn count(ts: &TokenStream, pred: &dyn Fn(&TokenTree) -> bool) -> usize {
    ts.clone()
        .into_iter()
        .map(|tt| {
            let inner = match &tt {
                TokenTree::Group(g) => count(&g.stream(), pred),
                _ => 0,
            };
            usize::from(pred(&tt)) + inner
        })
        .sum()
}

fn every(_: &TokenTree) -> bool {
    true
}

fn is_int(tt: &TokenTree) -> bool {
    matches!(tt, TokenTree::Literal(l) if l.to_string().starts_with(|c: char| c.is_ascii_digit()))
}

fn is_punct(tt: &TokenTree) -> bool {
    matches!(tt, TokenTree::Punct(_))
}

fn is_group(tt: &TokenTree) -> bool {
    matches!(tt, TokenTree::Group(_))
}

fn lex(s: &str) -> Vec<TokenTree> {
    TokenStream::from_str(s)
        .unwrap_or_else(|e| panic!("`{s}` does not lex: {e}"))
        .into_iter()
        .collect()
}

/// Integers a mutation puts in place of one integer.
const INTS: &[&str] = &[
    "0",
    "-1",
    "1",
    "9223372036854775807",
    "-9223372036854775807",
    "1099511627776",
    "4294967296",
    "18446744073709551616",
];

#[derive(Clone, Copy, Debug)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    SwapWithNext(usize),
    Replace(usize, &'static str),
    Insert(usize, &'static str),
    Integer(usize, &'static str),
    Spacing(usize),
    Delimiter(usize, Delimiter),
}

/// Applies `m` (positions taken modulo the number of candidates); `None` when there is no
/// candidate (no integer to change, say).
fn mutate(ts: TokenStream, m: Mutation) -> Option<TokenStream> {
    let (pred, pos): (&dyn Fn(&TokenTree) -> bool, usize) = match m {
        Mutation::Delete(p)
        | Mutation::Duplicate(p)
        | Mutation::SwapWithNext(p)
        | Mutation::Replace(p, _)
        | Mutation::Insert(p, _) => (&every, p),
        Mutation::Integer(p, _) => (&is_int, p),
        Mutation::Spacing(p) => (&is_punct, p),
        Mutation::Delimiter(p, _) => (&is_group, p),
    };
    let n = count(&ts, pred);
    if n == 0 {
        return None;
    }
    let mut target = pos % n;
    let (out, done) = edit(ts, &mut target, pred, &mut |v, i| match m {
        Mutation::Delete(_) => {
            v.remove(i);
        }
        Mutation::Duplicate(_) => {
            let t = v[i].clone();
            v.insert(i, t);
        }
        Mutation::SwapWithNext(_) => {
            if i + 1 < v.len() {
                v.swap(i, i + 1);
            } else if i > 0 {
                v.swap(i - 1, i);
            }
        }
        Mutation::Replace(_, s) | Mutation::Integer(_, s) => {
            v.splice(i..=i, lex(s));
        }
        Mutation::Insert(_, s) => {
            v.splice(i..i, lex(s));
        }
        Mutation::Spacing(_) => {
            if let TokenTree::Punct(p) = &v[i] {
                let spacing = match p.spacing() {
                    Spacing::Alone => Spacing::Joint,
                    Spacing::Joint => Spacing::Alone,
                };
                let mut q = proc_macro2::Punct::new(p.as_char(), spacing);
                q.set_span(p.span());
                v[i] = TokenTree::Punct(q);
            }
        }
        Mutation::Delimiter(_, d) => {
            if let TokenTree::Group(g) = &v[i] {
                v[i] = TokenTree::Group(Group::new(d, g.stream()));
            }
        }
    });
    assert!(done, "mutation target {pos} of {n} not found");
    Some(out)
}

fn valid_tokens(i: usize) -> TokenStream {
    TokenStream::from_str(&format!("{KRATE} {}", VALID[i % VALID.len()])).unwrap()
}

fn check_mutant(i: usize, ms: &[Mutation]) -> Result<bool, TestCaseError> {
    let mut ts = valid_tokens(i);
    for m in ms {
        if let Some(t) = mutate(ts.clone(), *m) {
            ts = t;
        }
    }
    let input = ts.to_string();
    let e = expand_tokens(ts).map_err(TestCaseError::fail)?;
    assert_well_formed(&input, &e);
    Ok(e.has_errors())
}

const DELIMITERS: &[Delimiter] = &[
    Delimiter::Parenthesis,
    Delimiter::Bracket,
    Delimiter::Brace,
    Delimiter::None,
];

/// Every single structural mutation of every valid input: delete, duplicate or swap any token,
/// set any integer to each of `INTS`, flip the spacing of any punctuation (`->` into `- >`),
/// change the delimiter of any group.
#[test]
fn every_single_mutation_of_a_valid_input() {
    let (mut total, mut rejected) = (0usize, 0usize);
    for i in 0..VALID.len() {
        let ts = valid_tokens(i);
        let mut ms = Vec::new();
        for p in 0..count(&ts, &every) {
            ms.extend([
                Mutation::Delete(p),
                Mutation::Duplicate(p),
                Mutation::SwapWithNext(p),
            ]);
        }
        for p in 0..count(&ts, &is_int) {
            ms.extend(INTS.iter().map(|s| Mutation::Integer(p, s)));
        }
        for p in 0..count(&ts, &is_punct) {
            ms.push(Mutation::Spacing(p));
        }
        for p in 0..count(&ts, &is_group) {
            ms.extend(DELIMITERS.iter().map(|d| Mutation::Delimiter(p, *d)));
        }
        for m in ms {
            total += 1;
            rejected += usize::from(check_mutant(i, &[m]).unwrap_or_else(|e| panic!("{e}")));
        }
    }
    // Most single mutations break an input; some (a larger stride into physical) do not.
    assert!(total > 1500, "{total} mutations");
    assert!(rejected * 2 > total, "{rejected} of {total} rejected");
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let p = 0usize..64;
    prop_oneof![
        1 => p.clone().prop_map(Mutation::Delete),
        1 => p.clone().prop_map(Mutation::Duplicate),
        1 => p.clone().prop_map(Mutation::SwapWithNext),
        3 => (p.clone(), prop::sample::select(VOCAB)).prop_map(|(p, s)| Mutation::Replace(p, s)),
        2 => (p.clone(), prop::sample::select(VOCAB)).prop_map(|(p, s)| Mutation::Insert(p, s)),
        3 => (p.clone(), prop::sample::select(INTS)).prop_map(|(p, s)| Mutation::Integer(p, s)),
        1 => p.clone().prop_map(Mutation::Spacing),
        1 => (p, prop::sample::select(DELIMITERS)).prop_map(|(p, d)| Mutation::Delimiter(p, d)),
    ]
}

// ---------------------------------------------------------------------------------------------
// (c) Random declarations, checked against `layout-core` as an oracle.

#[derive(Clone, Debug)]
enum Tree {
    Leaf(String),
    Tuple(Vec<Tree>),
}

impl Tree {
    fn text(&self) -> String {
        match self {
            Tree::Leaf(s) => s.clone(),
            Tree::Tuple(v) => {
                let parts: Vec<String> = v.iter().map(Tree::text).collect();
                format!("({})", parts.join(","))
            }
        }
    }

    fn too_wide(&self) -> bool {
        match self {
            Tree::Leaf(_) => false,
            Tree::Tuple(v) => v.len() > 8 || v.iter().any(Tree::too_wide),
        }
    }

    fn leaves(&self) -> Vec<i64> {
        match self {
            Tree::Leaf(s) => vec![s.parse().unwrap_or(0)],
            Tree::Tuple(v) => v.iter().flat_map(Tree::leaves).collect(),
        }
    }

    /// The same profile with the leaves taken from `it`.
    fn relabel(&self, it: &mut impl Iterator<Item = String>) -> Tree {
        match self {
            Tree::Leaf(_) => Tree::Leaf(it.next().unwrap_or_default()),
            Tree::Tuple(v) => Tree::Tuple(v.iter().map(|t| t.relabel(it)).collect()),
        }
    }

    /// The product of each top-level mode.
    fn extents(&self) -> Vec<i64> {
        match self {
            Tree::Leaf(_) => self.leaves(),
            Tree::Tuple(v) => v.iter().map(|t| t.leaves().iter().product()).collect(),
        }
    }
}

const STRIDES: &[&str] = &[
    "_", "0", "1", "1", "2", "4", "8", "16", "32", "64", "128", "3", "-1", "-4",
];

fn shape() -> impl Strategy<Value = Tree> {
    let size = prop_oneof![
        20 => prop::sample::select(&["1", "2", "2", "3", "4", "4", "8", "16", "32"][..]),
        1 => prop::sample::select(&["0", "-2"][..]),
    ];
    size.prop_map(|s| Tree::Leaf(s.to_owned()))
        .prop_recursive(3, 12, 9, |inner| {
            prop_oneof![
                12 => prop::collection::vec(inner.clone(), 1..=4),
                1 => prop::collection::vec(inner, 9..=9),
            ]
            .prop_map(Tree::Tuple)
        })
}

/// A shape and a stride of the same profile, by `kind`: dense in a random mode order (0–3),
/// with rows padded by 0 to 2 (4, 5), one stride replaced by a random one (odd kinds), all
/// strides random (6); or a stride of another random profile (7, half the time).
fn shape_and_stride() -> impl Strategy<Value = (Tree, Tree)> {
    (shape(), shape()).prop_flat_map(|(s, other)| {
        let n = s.leaves().len();
        (
            Just(s),
            Just(other),
            0u8..8,
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
            prop::option::of((0..n, prop::sample::select(STRIDES))),
            prop::collection::vec(0i64..=2, n),
            prop::collection::vec(prop::sample::select(STRIDES), n),
        )
            .prop_map(|(s, other, kind, order, edit, pads, random)| {
                let sizes = s.leaves();
                let mut strides = vec![String::new(); sizes.len()];
                let mut next = 1i64;
                for &i in &order {
                    strides[i] = next.to_string();
                    let pad = if kind >= 4 { pads[i] } else { 0 };
                    next = next.saturating_mul(sizes[i].max(1)).saturating_add(pad);
                }
                if kind % 2 == 1
                    && let Some((i, st)) = edit
                {
                    strides[i] = st.to_owned();
                }
                if kind == 6 {
                    strides = random.iter().map(|r| (*r).to_owned()).collect();
                }
                let stride = if kind == 7 && order.first() == Some(&0) {
                    other
                } else {
                    s.relabel(&mut strides.into_iter())
                };
                (s, stride)
            })
    })
}

#[derive(Clone, Debug)]
struct Decl {
    cute: bool,
    shape: Tree,
    stride: Tree,
    domain: &'static str,
    codomain: &'static str,
    tile: Option<Vec<i64>>,
    swizzle: Option<(i64, i64, i64, bool)>,
    index: Option<&'static str>,
}

impl Decl {
    fn text(&self) -> String {
        let mut s = format!(
            "{}{}:{}, {} -> {}",
            if self.cute { "cute " } else { "" },
            self.shape.text(),
            self.stride.text(),
            self.domain,
            self.codomain,
        );
        if let Some(t) = &self.tile {
            let t: Vec<String> = t.iter().map(i64::to_string).collect();
            s += &format!("({})", t.join(","));
        }
        match self.swizzle {
            Some((b, x, y, true)) => s += &format!(", Swizzle<{b},{x},{y}> over elements"),
            Some((b, x, y, false)) => s += &format!(", swizzle(b = {b}, src = {x}, dst = {y})"),
            None => {}
        }
        if let Some(i) = self.index {
            s += &format!(", index = {i}");
        }
        s
    }

    /// Whether `layout-core` accepts the declaration, rule by rule (spec: Rules).
    fn accepted(&self) -> bool {
        let text = format!("{}:{}", self.shape.text(), self.stride.text());
        let layout = if self.cute {
            Layout::from_cute(&text)
        } else {
            text.parse::<Layout>()
        };
        let (Ok(l), Ok(dom), Ok(cod)) = (
            layout,
            self.domain.parse::<Space>(),
            self.codomain.parse::<Space>(),
        ) else {
            return false;
        };
        if self.shape.too_wide()
            || check_annotation(dom, cod).is_err()
            || check_codomain(&l, cod).is_err()
        {
            return false;
        }
        if let Some(t) = &self.tile
            && (t.is_empty() || t.len() > 4 || check_tile(t, cod, l.size()).is_err())
        {
            return false;
        }
        let (min, mut max) = l.span();
        if let Some((b, x, y, cute)) = self.swizzle {
            let sw = if cute {
                Swizzle::from_cute(b, x, y, layout_core::SwizzleUnit::Elements)
            } else {
                match (u32::try_from(b), u32::try_from(x), u32::try_from(y)) {
                    (Ok(b), Ok(x), Ok(y)) => Swizzle::new(b, x, y),
                    _ => return false,
                }
            };
            let Ok(sw) = sw else { return false };
            // A swizzle runs physical -> physical, on non-negative offsets.
            if cod != Space::Physical || min < 0 {
                return false;
            }
            max = sw.max_offset(max);
        }
        let (lo, hi) = match self.index.unwrap_or("i64") {
            "i32" => (i64::from(i32::MIN), i64::from(i32::MAX)),
            "u32" => (0, i64::from(u32::MAX)),
            "usize" => (0, i64::MAX),
            _ => (i64::MIN, i64::MAX),
        };
        lo <= min && max <= hi
    }
}

fn decl() -> impl Strategy<Value = Decl> {
    let domain = prop_oneof![
        4 => Just("logical"),
        2 => Just("thread-value"),
        1 => Just("tv"),
        1 => Just("physical"),
    ];
    let codomain = prop_oneof![3 => Just("logical"), 1 => Just("tv"), 3 => Just("physical")];
    // A tile: the top-level extents of the shape (the right size), or random extents.
    let tile = prop::option::weighted(
        0.25,
        prop_oneof![
            Just(None),
            prop::collection::vec(1i64..=16, 0..=5).prop_map(Some)
        ],
    );
    let swizzle = prop::option::weighted(0.2, (0i64..5, -2i64..9, -3i64..9, any::<bool>()));
    let index = prop::option::weighted(
        0.2,
        prop::sample::select(&["i32", "i64", "u32", "usize"][..]),
    );
    (
        any::<bool>(),
        shape_and_stride(),
        domain,
        codomain,
        tile,
        swizzle,
        index,
    )
        .prop_map(
            |(cute, (shape, stride), domain, codomain, tile, swizzle, index)| Decl {
                cute,
                tile: tile.map(|t| t.unwrap_or_else(|| shape.extents())),
                shape,
                stride,
                domain,
                codomain,
                swizzle,
                index,
            },
        )
}

// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// (a) Random streams: no panic, well-formed output, and an error whenever the stream
    /// cannot be a declaration.
    #[test]
    fn random_streams_never_panic(
        prefix in prop::bool::weighted(0.9),
        toks in prop_oneof![prop::collection::vec(tok(), 0..24), skeleton()],
    ) {
        let mut text = String::new();
        if prefix {
            text.push_str(KRATE);
            text.push(' ');
        }
        render(&toks, &mut text);
        let ts = TokenStream::from_str(&text).map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
        let e = expand_tokens(ts).map_err(TestCaseError::fail)?;
        assert_well_formed(&text, &e);
        let mut all = Vec::new();
        if prefix {
            all.push(Tok::Atom(";"));
        }
        all.extend(toks);
        if surely_invalid(&all) {
            prop_assert!(e.has_errors(), "`{}` expanded without errors: {}", text, e.text);
        }
    }

    /// (b) One to three random mutations (replace or insert a vocabulary token, change an
    /// integer, delete, duplicate, swap, respace, re-delimit) of a valid input.
    #[test]
    fn mutated_inputs_never_panic(i in 0..VALID.len(), ms in prop::collection::vec(mutation(), 1..=3)) {
        check_mutant(i, &ms)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// (c) Random declarations: the macro accepts exactly what `layout-core` accepts.
    #[test]
    fn random_declarations_agree_with_the_core(d in decl()) {
        let text = d.text();
        let e = expand_str(&text);
        assert_well_formed(&text, &e);
        prop_assert_eq!(!e.has_errors(), d.accepted(), "`{}`: {:?}", text, e.errors);
    }
}

/// The slowest expansions known, each timed: a restriction of a 2^25-position layout (a constant
/// plus a layout, decided in O(rank)), restrictions of a composite and by a run-time value,
/// `broadcast` to a 32-leaf layout, a swizzled restriction, a large composite, and the
/// rejections at the typed API's limits (33 leaves, 9 entries in one tuple). Each must expand (or fail) well within the bound; the
/// times are printed. The bound is generous so that the test is not flaky on a loaded machine;
/// the target is 100 ms in the dev profile.
#[test]
fn worst_expansions_are_fast() {
    // 31 leaves of size 2, row-major, in four groups of at most 8.
    let leaves31 = {
        let (mut shape, mut stride, mut k) = (Vec::new(), Vec::new(), 31);
        for group in [8, 8, 8, 7] {
            let mut d = Vec::new();
            for _ in 0..group {
                k -= 1;
                d.push((1i64 << k).to_string());
            }
            shape.push(format!("({})", vec!["2"; group].join(",")));
            stride.push(format!("({})", d.join(",")));
        }
        format!("({}):({})", shape.join(","), stride.join(","))
    };
    let cases: Vec<(String, bool)> = vec![
        (
            "restrict([(4096,8192):(8192,1), logical -> physical], 0 = 5)".into(),
            false,
        ),
        (
            "restrict([(32768,1024):(1,32768), logical -> physical], 1 = 1000)".into(),
            false,
        ),
        (
            "restrict(compose([(4096,8192):(8192,1), logical -> physical], [(thread: 4096, value: 8192):(8192,1), thread-value -> logical]), thread = 7)".into(),
            false,
        ),
        (
            "restrict(compose([(4096,8192):(8192,1), logical -> physical], [(thread: 4096, value: 8192):(8192,1), thread-value -> logical]), thread = t)".into(),
            false,
        ),
        (
            "restrict([(4096,8192):(8192,1), logical -> physical], 0 = t)".into(),
            false,
        ),
        (
            format!("broadcast([{leaves31}, logical -> physical], (4))"),
            false,
        ),
        (
            format!("broadcast([{leaves31}, logical -> physical], (2, 2))"),
            true,
        ),
        (
            "broadcast([(4,8):(8,1), logical -> physical], (2,2,2,2,2,2,2,2,2))".into(),
            true,
        ),
        (
            "divide([(4096,8192):(8192,1), logical -> physical], (64, 128))".into(),
            false,
        ),
        (
            "restrict(swizzle(compose([(4096,8192):(8192,1), logical -> physical], [(thread: 4096, value: 8192):(8192,1), thread-value -> logical]), b = 3, src = 7, dst = 4), thread = 9)".into(),
            false,
        ),
        (
            "compose([(4096,8192):(8192,1), logical -> physical], [(8192,4096):(1,8192), thread-value -> logical])".into(),
            false,
        ),
        // The range of a swizzle of 2^25 positions, searched instead of scanned.
        (
            "swizzle([(8192,4096):(4096,1), logical -> physical, index = i32], b = 3, src = 7, dst = 4)".into(),
            false,
        ),
        (
            "(8192,4096):(4096,1), logical -> physical, swizzle(b = 4, src = 21, dst = 27), index = i32".into(),
            false,
        ),
    ];
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (input, must_fail) in &cases {
        let start = std::time::Instant::now();
        let e = expand_str(input);
        let took = start.elapsed();
        report.push(format!("{:>8.1} ms  {input}", took.as_secs_f64() * 1e3));
        if e.has_errors() != *must_fail {
            failures.push(format!("{input}: errors {:?}", e.errors));
        }
        if took > std::time::Duration::from_secs(1) {
            failures.push(format!("{input} took {took:?}"));
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Deeply nested input of every form the macro reads returns an expansion or errors, never a
/// stack overflow: the front end runs here on a thread with 2 MiB of stack, a quarter of the
/// compiler's, and nothing it parses recursively may nest without a limit (operations nest at
/// most `MAX_EXPR_DEPTH` levels, shapes `MAX_DEPTH`; attributes are forwarded as tokens; operand
/// paths take no generic arguments, whose types syn would parse recursively).
#[test]
fn deep_nesting_never_overflows_the_stack() {
    let n = 2000;
    let open = |s: &str| s.repeat(n);
    let cases: Vec<(String, Option<&str>)> = vec![
        (
            format!("#[h = {}] const X = 4:1, logical -> physical;", open("<")),
            None,
        ),
        (
            format!(
                "#[doc = {}0{}] const X = 4:1, logical -> physical;",
                open("("),
                open(")")
            ),
            None,
        ),
        (
            format!("{}X{}", open("inverse("), open(")")),
            Some("operations nest deeper than 64 levels"),
        ),
        (
            format!("{}[4:1, logical -> logical]{}", open("inverse("), open(")")),
            Some("operations nest deeper than 64 levels"),
        ),
        (
            format!("compose(a::P::<{}u8{}>, B)", open("Vec<"), open(">")),
            None,
        ),
        (
            format!("restrict(X, 0 = {}1{})", open("("), open(")")),
            None,
        ),
        (
            format!("({}4{}):(1), logical -> logical", open("("), open(")")),
            Some("nesting deeper than 8 levels"),
        ),
        (
            format!("({{{}4{}}}):(1), logical -> logical", open("("), open(")")),
            None,
        ),
        (format!("divide(X, {}4{})", open("("), open(")")), None),
        (format!("broadcast(X, {}4{})", open("("), open(")")), None),
    ];
    for (input, want) in cases {
        let head: String = input.chars().take(40).collect();
        let worker = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let tokens =
                    TokenStream::from_str(&format!("{KRATE} {input}")).expect("the case lexes");
                expand_tokens(tokens)
            })
            .expect("thread");
        let e = worker
            .join()
            .expect("no panic outside the macro")
            .unwrap_or_else(|p| panic!("{p}"));
        if let Some(want) = want {
            assert!(
                e.errors.iter().any(|m| m.contains(want)),
                "`{head}..`: expected an error containing {want:?}, got {:?}",
                e.errors
            );
        }
    }
}

/// A syntax error points at the token the user wrote, also where the core reads one token as
/// several: an identifier or an integer's suffix with letters outside ASCII (`physicál`,
/// `1é`), in a declaration, a side, an option, a path operand, a tile and a run-time-free
/// restrict entry, at the start, the middle and the end of the input; a lifetime at its
/// quote. Each input is read as the macro reads it (a declaration, or definitions and an
/// expression), and the error's range is mapped back to the tokens.
#[test]
fn an_error_inside_one_token_points_at_that_token() {
    use crate::text::Text;
    let opts = layout_core::expr::Options::default();
    let cases: &[(bool, &str, &str)] = &[
        (false, "(16,32):(32,1é), logical -> physical", "1é"),
        (false, "(16é,32):(32,1), logical -> physical", "16é"),
        (false, "(16,32):(32,1), logicál -> physical", "logicál"),
        (false, "(16,32):(32,1), logical -> physicál", "physicál"),
        (
            false,
            "(16,32):(32,1), logical -> physical, index = u32é",
            "u32é",
        ),
        (
            false,
            "(16,32):(32,1), logical -> physical, swizzle(bé = 1)",
            "bé",
        ),
        (
            false,
            "(thréad: 16,32):(32,1), logical -> physical",
            "thréad",
        ),
        (false, "(16,32):(32,1), logical -> 'a physical", "'"),
        (true, "compose(S, Té)", "Té"),
        (true, "compose(S, m::Té)", "Té"),
        (true, "compose(Sé, T)", "Sé"),
        (true, "divide(S, (4, 8é))", "8é"),
        (true, "restrict(S, 0é = 1)", "0é"),
        (true, "restrict(S, rest = 1, é = 2)", "é"),
        (true, "inverse(S)é", "é"),
    ];
    for &(algebra, input, want) in cases {
        let t = Text::new(&TokenStream::from_str(input).unwrap());
        let err = if algebra {
            layout_core::expr::parse_algebra(&t.text, &opts).err()
        } else {
            layout_core::expr::parse_decl(&t.text, &opts).err()
        };
        let err = err.unwrap_or_else(|| panic!("`{input}` is accepted"));
        assert_eq!(t.pointed(&err.span), want, "`{input}`: {}", err.error);
    }
}

/// A raw identifier is the identifier, as in Rust: a side, an option, a mode name and a path
/// segment written raw expand exactly as written plainly, and a path keeps its tokens as
/// written (`r#type::T` names a module that only a raw identifier can).
#[test]
fn raw_identifiers_read_as_the_identifiers() {
    use crate::text::Text;
    for (raw, plain) in [
        (
            "(16,32):(32,1), r#logical -> r#physical",
            "(16,32):(32,1), logical -> physical",
        ),
        (
            "(r#thread: 64, r#value: 4):(4,1), r#thread-r#value -> logical(16, 16), index = r#u32",
            "(thread: 64, value: 4):(4,1), thread-value -> logical(16, 16), index = u32",
        ),
        (
            "(16,32):(32,1), r#logical -> r#physical, r#swizzle(r#b = 1, r#src = 0, r#dst = 3)",
            "(16,32):(32,1), logical -> physical, swizzle(b = 1, src = 0, dst = 3)",
        ),
        (
            "r#restrict(r#divide([(16,32):(32,1), logical -> physical], (4, 8)), r#rest = 5)",
            "restrict(divide([(16,32):(32,1), logical -> physical], (4, 8)), rest = 5)",
        ),
    ] {
        let (r, p) = (expand_str(raw), expand_str(plain));
        assert!(!p.has_errors(), "{plain}: {:?}", p.errors);
        assert_eq!(r.errors, p.errors, "{raw}");
        assert_eq!(r.text, p.text, "{raw}");
    }
    let opts = layout_core::expr::Options::default();
    for (path, want) in [
        ("r#S", "r#S"),
        ("r#type :: S", "r#type :: S"),
        (":: r#c :: r#type :: D", ":: r#c :: r#type :: D"),
        ("crate :: r#m :: D", "crate :: r#m :: D"),
    ] {
        let p = TokenStream::from_str(&format!("compose({path}, X)")).unwrap();
        let t = Text::new(&p);
        let e = layout_core::expr::parse_expr(&t.text, &opts).unwrap();
        assert_eq!(t.path_tokens(e.operands()[0]).to_string(), want, "{path}");
    }
}

/// An operand's path is handed to Rust as the core read it: each `::` a joint pair of colons,
/// also where the colons were written apart (the core reads tokens whitespace-free), at the
/// start, the middle and the end of the path, and for a path handed in by a `macro_rules!`
/// fragment (a group without delimiters), which is given without its group.
#[test]
fn operand_paths_reach_rust_as_the_core_read_them() {
    use crate::text::Text;
    let opts = layout_core::expr::Options::default();
    let none = |s: &str| -> TokenStream {
        TokenTree::Group(Group::new(
            Delimiter::None,
            TokenStream::from_str(s).unwrap(),
        ))
        .into()
    };
    let cases: Vec<(TokenStream, &str)> = vec![
        (
            TokenStream::from_str("crate: :m::D").unwrap(),
            "crate :: m :: D",
        ),
        (TokenStream::from_str(": :c::D").unwrap(), ":: c :: D"),
        (TokenStream::from_str("a::b: :C").unwrap(), "a :: b :: C"),
        (
            TokenStream::from_str("self : : m : : D").unwrap(),
            "self :: m :: D",
        ),
        (none("super::m::D"), "super :: m :: D"),
        (none("::c::D"), ":: c :: D"),
        (none("D"), "D"),
    ];
    for (path, want) in cases {
        let mut p = TokenStream::from_str("compose").unwrap();
        let mut args = path.clone();
        args.extend(TokenStream::from_str(", X").unwrap());
        p.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, args))]);
        let t = Text::new(&p);
        let e = layout_core::expr::parse_expr(&t.text, &opts).unwrap();
        let got = t.path_tokens(e.operands()[0]);
        assert_eq!(got.to_string(), want, "{path}");
        // Rust reads it as that path.
        let parsed: syn::Path = syn::parse2(got).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(quote::quote!(#parsed).to_string(), want, "{path}");
    }
}

/// A run-time leaf that is not one expression (empty, or statements) is handed to Rust as the
/// block written, braces included, so Rust reads its statements and reports an empty one's
/// type at its braces; a leaf of one expression is handed as that expression (no braces, which
/// `unused_braces` would flag in the user's code). Sizes and strides, top-level and nested.
#[test]
fn run_time_leaves_reach_rust_as_blocks() {
    for (input, leaf) in [
        ("({}, 32):(32, 1), logical -> physical", "leaf({})"),
        ("(16, 32):(32, {}), logical -> physical", "leaf({})"),
        (
            "({ let m = n; m }, 32):(32, 1), logical -> physical",
            "leaf({letm=n;m})",
        ),
        (
            "(4, (2, { f(); n })):(1, (4, 8)), logical -> physical",
            "leaf({f();n})",
        ),
        ("({ n }, 32):(32, 1), logical -> physical", "leaf(n)"),
        (
            "(16, 32):(32, { ld + 1 }), logical -> physical",
            "leaf(ld+1)",
        ),
    ] {
        let e = expand_str(input);
        assert!(!e.has_errors(), "{input}: {:?}", e.errors);
        assert!(e.compact().contains(leaf), "{input}: {}", e.text);
    }
}

// ---------------------------------------------------------------------------------------------
// What an expansion emits, and how it fetches its operands.

/// An item writes its layout's type once (the constant is typed and valued through the type
/// alias); a composite that is not a layout is the library's `Generated` over a unit struct of
/// the expansion, which carries the program and the expression's text, and no code that
/// rebuilds the map: that text evaluates, at run time, to the map the expansion decided.
#[test]
fn expansions_write_each_type_once_and_no_map_builder() {
    for (item, ty) in [
        (
            "pub const SMEM = (16,32):(32,1), logical -> physical;",
            "Static<",
        ),
        (
            "const SW = (8,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0);",
            "Swizzled<",
        ),
        (
            "pub(crate) const TV = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);",
            "Static<",
        ),
    ] {
        let c = unalias(&expand_str(item).compact());
        assert_eq!(c.matches(ty).count(), 1, "{item}: {c}");
        assert_eq!(c.matches("Static<").count(), 1, "{item}: {c}");
    }
    // σ(x) = x ^ ((x >> 3) & 3) after two identities of 64 positions.
    let sw = "(8,8):(8,1), logical(8,8) -> physical, swizzle(b = 2, src = 3, dst = 0)";
    let tv = "(16,4):(4,1), thread-value -> logical(8,8)";
    // Two named operands: the library's typed `compose` of their values, nothing spelled.
    for (input, call) in [
        (
            format!("[S = {sw}] [T = {tv}] compose(S, T)"),
            "::layout_typed::compose(S,T)",
        ),
        (
            format!("[T = {tv}] [a::S = {sw}] compose(a::S, T)"),
            "::layout_typed::compose(a::S,T)",
        ),
    ] {
        let e = expand_str(&input);
        assert!(!e.has_errors(), "{input}: {:?}", e.errors);
        assert_eq!(e.compact(), call, "{input}");
    }
    for input in [
        format!("compose([{sw}], [{tv}])"),
        format!("[S = {sw}] compose(S, [{tv}])"),
    ] {
        let e = expand_str(&input);
        assert!(!e.has_errors(), "{input}: {:?}", e.errors);
        let c = e.compact();
        for want in ["::layout_typed::Generated<", "__private::Program<"] {
            assert!(c.contains(want), "{input}: {c}");
        }
        for unwanted in ["core_algebra", "vec!", "derive"] {
            assert!(!c.contains(unwanted), "{input}: {unwanted} in {c}");
        }
        // The text `to_map` evaluates: the expansion's only string literal after `ALGEBRA`.
        let text = string_after(&e.text, "ALGEBRA");
        let map = layout_core::expr::evaluate_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(map.size(), 64, "{text}");
        for i in 0..64i64 {
            assert_eq!(map.eval_index(i), Ok(i ^ ((i >> 3) & 3)), "{text} at {i}");
        }
    }
}

/// The value of the first string literal after the identifier `name` in `text`.
fn string_after(text: &str, name: &str) -> String {
    let tokens: Vec<TokenTree> = TokenStream::from_str(text).unwrap().into_iter().collect();
    fn find(ts: &[TokenTree], name: &str, seen: &mut bool) -> Option<String> {
        for tt in ts {
            match tt {
                TokenTree::Ident(i) if i == name => *seen = true,
                TokenTree::Literal(l) if *seen => {
                    if let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) {
                        return Some(s.value());
                    }
                }
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    if let Some(s) = find(&inner, name, seen) {
                        return Some(s);
                    }
                }
                _ => {}
            }
        }
        None
    }
    find(&tokens, name, &mut false).unwrap_or_else(|| panic!("no string after {name}: {text}"))
}

/// An expression fetches the declarations of all its named operands in one chain of their
/// items' hidden macros and comes back to `layout!` once, with every definition: one operand,
/// several, a path named twice, every path form. The hidden macros are played here by their
/// rule, `{cb} rest => cb! { rest [= DECL] }`, with the item's declaration; `layout!` puts each
/// appended definition into the empty `[PATH =]` written for it.
#[test]
fn operands_are_fetched_in_one_chain() {
    let a = "(2,3):(1,2), logical -> logical";
    let b = "(3,2):(1,3), logical -> logical";
    let c = "(2,3):(3,1), logical -> logical";
    let decls: Vec<(&str, &str)> = vec![
        ("a :: A", a),
        ("crate :: m :: B", b),
        ("C", c),
        (":: x :: D", a),
        ("super :: E", b),
        ("self :: F", c),
    ];
    let decl_of = |key: &str| -> &str {
        decls
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, d)| *d)
            .unwrap_or_else(|| panic!("no item at `{key}`"))
    };
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("compose(C, C)", vec!["C"]),
        (
            "compose(a::A, crate::m::B)",
            vec!["a :: A", "crate :: m :: B"],
        ),
        (
            "compose(a::A, compose(crate::m::B, compose(C, a::A)))",
            vec!["a :: A", "crate :: m :: B", "C"],
        ),
        (
            "compose(::x::D, compose(super::E, compose(self::F, compose(C, ::x::D))))",
            vec![":: x :: D", "super :: E", "self :: F", "C"],
        ),
        // A definition already given is not fetched again.
        (
            "[C = (2,3):(3,1), logical -> logical] compose(a::A, C)",
            vec!["a :: A"],
        ),
    ];
    // Each expression as a value and as the right-hand side of an item, whose attributes,
    // visibility and name travel before the definitions.
    let cases = cases.into_iter().flat_map(|(expr, want)| {
        [
            (expr.to_owned(), want.clone(), false),
            (
                format!("#[doc = \"item\"] pub(crate) const ITEM = {expr};"),
                want,
                true,
            ),
        ]
    });
    for (expr, want, item) in cases {
        let mut out = TokenStream::from_str(&format!("{KRATE} {expr}")).unwrap();
        out = expand::layout(out);
        let mut hops = Vec::new();
        let mut callbacks = 0;
        loop {
            // `PATH ! { .. }`: the path before `!`, then one brace group.
            let tts: Vec<TokenTree> = out.clone().into_iter().collect();
            let Some(bang) = tts
                .iter()
                .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '!'))
            else {
                break;
            };
            let path: TokenStream = tts[..bang].iter().cloned().collect();
            let Some(TokenTree::Group(body)) = tts.get(bang + 1) else {
                break;
            };
            if body.delimiter() != Delimiter::Brace || tts.len() != bang + 2 {
                break;
            }
            let path = path.to_string();
            if path.ends_with("layout_impl") {
                callbacks += 1;
                out = expand::layout(body.stream());
                continue;
            }
            hops.push(path.clone());
            let parts: Vec<TokenTree> = body.stream().into_iter().collect();
            let group = |i: usize| match parts.get(i) {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g.stream(),
                other => panic!("{expr}: part {i} of `{path}!` is {other:?}"),
            };
            let cb = group(0);
            let rest: TokenStream = parts[1..].iter().cloned().collect();
            // The empty definition of the path as written, before the expression.
            let slots: Vec<String> = parts[1..]
                .iter()
                .filter_map(|t| match t {
                    TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => {
                        Some(g.stream().to_string())
                    }
                    _ => None,
                })
                .collect();
            assert!(
                slots.contains(&format!("{path} =")),
                "{expr}: `[{path} =]` among {slots:?}"
            );
            out = TokenStream::from_str(&format!("{cb} ! {{ {rest} [= {}] }}", decl_of(&path)))
                .unwrap();
        }
        assert_eq!(hops, want, "{expr}: the items' macros, in order");
        assert_eq!(callbacks, 1, "{expr}: one callback of `layout!`");
        let mut errors = Vec::new();
        collect_errors(out.clone(), &mut errors);
        assert!(errors.is_empty(), "{expr}: {errors:?}");
        // One assertion of the declaration's type per definition fetched or given.
        let defs = want.len() + usize::from(expr.contains("= [") || expr.starts_with('['));
        let text: String = out.to_string().split_whitespace().collect();
        assert_eq!(text.matches("let_:").count(), defs, "{expr}: {text}");
        if item {
            // The item, with its attributes and visibility, a type and a constant; its macro
            // hands on the expression with every definition.
            for part in [
                "#[doc=\"item\"]pub(crate)typeITEM=",
                "pub(crate)constITEM:ITEM=",
                "macro_rules!__layout_def_ITEM",
            ] {
                assert!(text.contains(part), "{expr}: `{part}` in {text}");
            }
            for key in &want {
                let key: String = key.split_whitespace().collect();
                assert!(
                    text.contains(&format!("[{key}=")),
                    "{expr}: the definition of {key} handed on: {text}"
                );
            }
        }
    }
}

/// A checked declaration is remembered by its text (`valid::check_known`): the text an
/// item's declaration reads and the text `algebra::definition_text` finds for the same tokens
/// as a definition `[PATH = DECL]` of an expression are equal, and the core reads and checks
/// the same declaration from both.
#[test]
fn a_definitions_text_is_its_items_text() {
    let decls = [
        "(16,32):(32,1), logical -> physical",
        "cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)",
        "(16,16):(16,1), logical(16,16) -> physical, Swizzle<2,2,3> over elements",
        "(8,8):(1,8), logical -> physical, index = i32",
        "((2,2),(4,4)):((1,2),(4,16)) , logical -> physical ,",
        "(8,2):(1,_), logical -> physical",
    ];
    let paths = ["P", "a::P", "::c::D", "crate::m::Q", "self::x"];
    let opts = layout_core::expr::Options::default();
    for d in decls {
        let item = crate::text::Text::new(&TokenStream::from_str(d).unwrap()).text;
        let standalone = layout_core::expr::parse_decl(&item, &opts).unwrap();
        for p in paths {
            let input = format!("[{p} = {d}] [Z = {}] compose({p}, Z)", decls[0]);
            let text = crate::text::Text::new(&TokenStream::from_str(&input).unwrap());
            let alg = layout_core::expr::parse_algebra(&text.text, &opts).unwrap();
            let (path, decl) = &alg.defs[0];
            let written = crate::algebra::definition_text(&text.text, path).unwrap();
            assert_eq!(written, item, "{input}");
            assert_eq!(
                layout_core::expr::check_decl(decl).0,
                layout_core::expr::check_decl(&standalone).0,
                "{input}"
            );
            let (path, _) = &alg.defs[1];
            let item0 = crate::text::Text::new(&TokenStream::from_str(decls[0]).unwrap()).text;
            assert_eq!(
                crate::algebra::definition_text(&text.text, path),
                Some(item0.as_str())
            );
        }
    }
}

/// The text read from the printing of a whole stream (`Text::printed`) is the text written
/// token by token, whenever it is taken; it is not taken for tokens the printing might show
/// otherwise (suffixes, other bases, separators, floats, raw identifiers, `$crate`,
/// strings, other punctuation).
#[test]
fn printed_text_is_the_written_text() {
    use crate::text::Text;
    let mut taken = 0;
    let inputs = VALID.iter().copied().chain([
        "(4,8):(-8,1), logical -> physical, index = i32",
        "cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)",
        "(16,16):(16,1), logical(16,16) -> physical, Swizzle<2,2,3> over elements",
        "( 4 , 8 ) : ( _ , 1 ) , logical->physical",
        "_1:_2, a -> b",
    ]);
    for input in inputs {
        let ts = TokenStream::from_str(input).unwrap();
        let written = Text::new(&ts).text;
        if let Some(printed) = Text::printed(&ts) {
            assert_eq!(printed, written, "{input}");
            taken += 1;
        }
    }
    assert!(taken > VALID.len() / 2, "{taken}");
    for input in [
        "(0x10,8):(1,16), logical -> physical",
        "(1_6,8):(1,16), logical -> physical",
        "(16i64,8):(1,16), logical -> physical",
        "(016,8):(1,16), logical -> physical",
        "(1.5,8):(1,16), logical -> physical",
        "(16,8):(1,16), r#logical -> physical",
        "(16,8):(1,16), \"logical\" -> physical",
        "(16,8):(1,16), logical -> physical, x = 'a'",
        "(16,8):(1,16), logical -> physical, é",
        "(16,8):(1,16) + logical -> physical",
    ] {
        let ts = TokenStream::from_str(input).unwrap();
        assert_eq!(Text::printed(&ts), None, "{input}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random declarations: the printed text, when taken, is the written text.
    #[test]
    fn random_printed_texts_are_the_written_texts(d in decl()) {
        let text = d.text();
        let ts = TokenStream::from_str(&text).map_err(|e| TestCaseError::fail(format!("`{text}`: {e}")))?;
        if let Some(printed) = crate::text::Text::printed(&ts) {
            prop_assert_eq!(printed, crate::text::Text::new(&ts).text, "{}", text);
        }
    }
}

/// An item's text that plainly starts a declaration is never an algebra expression
/// (`frame::is_algebra`, which the expansion then does not ask).
#[test]
fn plain_declarations_are_not_algebra() {
    for input in VALID.iter().copied().chain([
        "8:2, logical -> physical",
        "cute 32:1, thread-value -> thread-value",
        "cute (4,8):(1,4), logical -> physical",
        "compose(A, B)",
        "[A = (4):(1), logical -> logical] inverse(A)",
        "other::P",
        "P",
    ]) {
        let ts = TokenStream::from_str(input).unwrap();
        let Some(text) = crate::text::Text::printed(&ts) else {
            continue;
        };
        if crate::expand::plainly_a_declaration(&text) {
            assert!(!crate::frame::is_algebra(&ts), "{input}");
        } else {
            assert!(
                [
                    "compose(A, B)",
                    "[A = (4):(1), logical -> logical] inverse(A)",
                    "other::P",
                    "P"
                ]
                .contains(&input)
                    || input.starts_with("pub")
                    || input.starts_with("const")
                    || input.starts_with('#'),
                "{input}: {text}"
            );
        }
    }
}

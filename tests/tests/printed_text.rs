//! `Text::printed` (the text of an item's declaration read from the token stream's printing)
//! against `Text::new` (the same text written token by token): wherever `printed` answers, the
//! two texts must be equal, since the declaration's type, value, cache key and hash are made
//! from whichever of the two the expansion took. The front end of `layout!` is compiled from
//! the macro crate's own modules, as in `fuzz_replay.rs`; outside a compiler `proc_macro2`
//! prints with its own printer, which writes a delimiter-less group as its contents, as the
//! compiler does.

// `text` asks `proc_macro` whether a compiler runs it (here, never).
extern crate proc_macro;

#[path = "../../layout-macros/src/algebra.rs"]
#[allow(dead_code, unused_imports)]
mod algebra;
#[path = "../../layout-macros/src/expand.rs"]
#[allow(dead_code, unused_imports)]
mod expand;
#[path = "../../layout-macros/src/frame.rs"]
#[allow(dead_code, unused_imports)]
mod frame;
#[path = "../../layout-macros/src/runtime.rs"]
#[allow(dead_code, unused_imports)]
mod runtime;
#[path = "../../layout-macros/src/text.rs"]
#[allow(dead_code, unused_imports)]
mod text;
#[path = "../../layout-macros/src/valid.rs"]
#[allow(dead_code, unused_imports)]
mod valid;

use layout_core::expr::{Options, parse_decl};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use text::Text;

fn punct(c: char) -> TokenTree {
    TokenTree::Punct(Punct::new(c, Spacing::Alone))
}

fn ident(s: &str) -> TokenTree {
    TokenTree::Ident(Ident::new(s, Span::call_site()))
}

fn group(d: Delimiter, t: Vec<TokenTree>) -> TokenTree {
    TokenTree::Group(Group::new(d, t.into_iter().collect()))
}

fn lit(s: &str) -> TokenTree {
    TokenTree::Literal(s.parse::<Literal>().expect("a literal"))
}

/// `(2,4):(S, 2), logical -> physical` with the stride `S` given as token trees.
fn decl_with_stride(s: Vec<TokenTree>) -> TokenStream {
    let mut stride = s;
    stride.extend([punct(','), lit("2")]);
    let mut t = vec![
        group(Delimiter::Parenthesis, vec![lit("2"), punct(','), lit("4")]),
        punct(':'),
        group(Delimiter::Parenthesis, stride),
        punct(','),
        ident("logical"),
        TokenTree::Punct(Punct::new('-', Spacing::Joint)),
        punct('>'),
        ident("physical"),
    ];
    t.shrink_to_fit();
    t.into_iter().collect()
}

/// Where `printed` answers, it writes the tokens `Text::new` writes (the core's lexer ignores
/// whitespace), and so the core parses the same declaration from both.
fn agree(tokens: &TokenStream) {
    let by_token = Text::new(tokens).text;
    if let Some(p) = Text::printed(tokens) {
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            words(&p),
            words(&by_token),
            "printed vs token by token for `{tokens}`"
        );
    }
}

/// The exact text, spaces included: `printed` is the text `Text::new` writes but for the
/// spacing around a group without delimiters (a `macro_rules!` fragment), before whose first
/// token `Text::new` writes two spaces (one before the group, one before the token) and
/// `printed` one. Only spacing, as its documentation says: the core reads the same tokens, and
/// the consequence is a different key for remembered checks.
#[test]
fn a_group_without_delimiters_prints_one_space_fewer() {
    let t = decl_with_stride(vec![group(Delimiter::None, vec![punct('-'), lit("8")])]);
    let by_token = Text::new(&t).text;
    let printed = Text::printed(&t).expect("a plain declaration");
    assert_ne!(printed, by_token);
    assert_eq!(printed, by_token.replacen("  ", " ", 1));
}

#[test]
fn plain_declarations_print_as_written_token_by_token() {
    for s in [
        vec![lit("1")],
        vec![lit("0")],
        vec![punct('-'), lit("8")],
        vec![group(Delimiter::None, vec![punct('-'), lit("8")])],
        vec![group(Delimiter::None, vec![lit("8")])],
        vec![lit("0x10")],
        vec![lit("1_6")],
        vec![lit("016")],
        vec![lit("16usize")],
        vec![lit("00")],
    ] {
        let t = decl_with_stride(s);
        agree(&t);
        // The text the expansion would take parses to the same declaration (or fails alike).
        let by_token = Text::new(&t).text;
        let p = Text::printed(&t).unwrap_or_else(|| by_token.clone());
        // The checked layouts (which hold no span) of both readings.
        let read = |s: &str| {
            parse_decl(s, &Options::default()).map(|d| {
                format!(
                    "{:?}",
                    layout_core::expr::check_decl(&d).0.map(|c| c.layout)
                )
            })
        };
        let (a, b) = (read(&by_token), read(&p));
        assert_eq!(a.is_ok(), b.is_ok(), "`{t}`");
        if let (Ok(a), Ok(b)) = (a, b) {
            assert_eq!(a, b, "`{t}`");
        }
    }
}

/// A literal that carries its sign, as a procedural macro makes it
/// (`Literal::i64_unsuffixed(-8)`): both paths read `- 8`, the stride -8.
#[test]
fn a_literal_with_its_sign_prints_as_written_token_by_token() {
    let t = decl_with_stride(vec![TokenTree::Literal(Literal::i64_unsuffixed(-8))]);
    let by_token = Text::new(&t).text;
    let printed = Text::printed(&t);
    // The printed path takes this item (plain: `-`, digits).
    assert_eq!(
        printed.as_deref(),
        Some("( 2 , 4 ) : ( - 8 , 2 ) , logical - > physical")
    );
    assert_eq!(printed.as_deref(), Some(by_token.as_str()));
    assert!(
        parse_decl(&by_token, &Options::default()).is_ok(),
        "{by_token}"
    );
}

/// A small deterministic generator (xorshift) of token streams built from the pieces a
/// declaration is made of, plus the pieces a macro may hand over (delimiter-less groups,
/// raw identifiers, literals in other bases, suffixes, separators): wherever `printed` answers,
/// it agrees with `Text::new`. Literals carrying their sign are left out (the test above).
#[test]
fn random_streams_print_as_written_token_by_token() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    fn stream(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Vec<TokenTree> {
        let len = next(6) + 1;
        let mut out = Vec::new();
        for _ in 0..len {
            let tt = match next(if depth < 3 { 16 } else { 12 }) {
                0 => lit(&next(40).to_string()),
                1 => lit(["0x10", "1_6", "016", "0", "00", "7u32", "1e3", "2.0"][next(8) as usize]),
                2 => ident(
                    ["logical", "physical", "cute", "index", "u32", "_", "thread"]
                        [next(7) as usize],
                ),
                3 => TokenTree::Ident(Ident::new_raw("logical", Span::call_site())),
                4 => punct([',', ':', '-', '>', '=', ';', '<', '*', '#', '.'][next(10) as usize]),
                5 => TokenTree::Punct(Punct::new(
                    [':', '-', '='][next(3) as usize],
                    Spacing::Joint,
                )),
                6..=11 => lit(&(next(9) + 1).to_string()),
                12 => group(Delimiter::Parenthesis, stream(next, depth + 1)),
                13 => group(Delimiter::None, stream(next, depth + 1)),
                14 => group(Delimiter::Bracket, stream(next, depth + 1)),
                _ => group(Delimiter::Brace, stream(next, depth + 1)),
            };
            out.push(tt);
        }
        out
    }
    let mut answered = 0;
    for _ in 0..20_000 {
        let t: TokenStream = stream(&mut next, 0).into_iter().collect();
        if Text::printed(&t).is_some() {
            answered += 1;
        }
        agree(&t);
    }
    // The generator reaches the printed path often enough to mean something.
    assert!(answered > 2_000, "{answered}");
}

/// Declarations that pass, fail, differ only in spelling, or hold run-time leaves.
const DECLS: &[&str] = &[
    "(4,8):(16,1), logical -> physical",
    "(0x4,8):(0x10,1), logical -> physical",
    "(4,8):(1_6,1), logical -> physical",
    "( 4 , 8 ) : ( 16 , 1 ) , logical->physical",
    "(4,8):(16,1), logical -> physical, index = u32",
    "(4,8):(16,1), logical -> physical, index = i32",
    "(4,8):(16,1), logical -> physical,",
    "cute (8,4):(1,16), logical -> physical",
    "(4,8):(10,1), logical -> physical",
    "(4,8):(-16,1), logical -> physical",
    "(4,8):(16,1), physical -> logical",
    "(4,8):(16,1), logical -> logical",
    "(8,4):(1,8), logical -> logical",
    "(8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0)",
    "(8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 9)",
    "(thread: 16, value: 4):(4,1), thread-value -> logical(8, 8)",
    "(4,16):(1,4), thread-value -> logical(8, 8)",
    "(2147483648,2):(1,2147483648), logical -> physical, index = i32",
    "(4,8):({s},1), logical -> physical",
    "(4,8):(16,1u32), logical -> physical",
    "(4,8):(16,1), logical -> physical, index = u32, index = u32",
];

/// The inputs of the macro that read `decl`: an item, an expression, and algebra expressions
/// that define operands by it (alone, twice, beside another definition).
fn inputs_of(decl: &str) -> Vec<String> {
    vec![
        format!("::layout_typed; const P = {decl};"),
        format!("::layout_typed; pub const P = {decl};"),
        format!("::layout_typed; {decl}"),
        format!("::layout_typed; [P = {decl}] compose(P, P)"),
        format!("::layout_typed; [P = {decl}] [Q = (8,4):(1,8), logical -> logical] compose(P, Q)"),
        format!(
            "::layout_typed; [Q = (4,8):(16,1), logical -> physical] [P = {decl}] compose(Q, P)"
        ),
        format!("::layout_typed; [P = {decl}] P"),
        format!("::layout_typed; const D = [P = {decl}] compose(P, P);"),
    ]
}

fn expand_all(inputs: &[String]) -> Vec<String> {
    inputs
        .iter()
        .map(|s| expand::layout(s.parse::<TokenStream>().expect("tokens")).to_string())
        .collect()
}

/// The remembered checks give exactly what checking gives: every input expanded once in a
/// fresh thread (the cache is thread-local, so empty), then all of them in one thread, twice,
/// where the later ones find the declarations their earlier ones remembered, in every order
/// of forms. The expansions must be equal token for token.
#[test]
fn remembered_declarations_expand_as_fresh_ones() {
    let mut inputs: Vec<String> = DECLS.iter().flat_map(|d| inputs_of(d)).collect();
    let cold: Vec<String> = inputs
        .iter()
        .map(|s| {
            let s = s.clone();
            std::thread::spawn(move || expand_all(&[s]).remove(0))
                .join()
                .expect("no panic")
        })
        .collect();
    let warm = {
        let inputs = inputs.clone();
        std::thread::spawn(move || {
            let mut first = expand_all(&inputs);
            let second = expand_all(&inputs);
            first.extend(second);
            first
        })
        .join()
        .expect("no panic")
    };
    for (i, w) in warm.iter().enumerate() {
        let c = &cold[i % cold.len()];
        assert_eq!(w, c, "input {}", inputs[i % cold.len()]);
    }
    // Reversed: expression and algebra forms before the items.
    inputs.reverse();
    let warm_rev = {
        let inputs = inputs.clone();
        std::thread::spawn(move || expand_all(&inputs))
            .join()
            .expect("no panic")
    };
    for (i, w) in warm_rev.iter().enumerate() {
        assert_eq!(w, &cold[cold.len() - 1 - i], "input {}", inputs[i]);
    }
}

/// The same with random streams as declarations: an item, then the same text as a definition.
#[test]
fn remembered_random_declarations_expand_as_fresh_ones() {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let layouts = [
        "(4,8):(16,1)",
        "(4,8):(0x10,1)",
        "(4,8):(1_6,01)",
        "(8,4):(1,8)",
        "(2,2):(1,2)",
        "cute (2,2):(2,1)",
        "(thread: 2, value: 2):(2,1)",
        "(4,8):(-16,1)",
        "(4,8):(16,1u32)",
        "(16):(1)",
        "((2,2),4):((1,2),4)",
        "(4,8):(16,{s})",
        "(4,8):(16)",
    ];
    let sides = [
        ("logical", "physical"),
        ("logical", "logical"),
        ("thread-value", "logical"),
        ("logical(2, 2)", "physical"),
        ("logical(4, 8)", "physical"),
        ("physical", "logical"),
    ];
    let options = [
        "",
        "",
        ", index = u32",
        ", index = i32,",
        ", index = usize",
        ", swizzle(b = 1, src = 2, dst = 0)",
        ", swizzle(b = 1, src = 2, dst = 0), index = u32",
    ];
    let mut inputs = Vec::new();
    for _ in 0..300 {
        let (dom, cod) = sides[next(sides.len() as u64) as usize];
        let decl = format!(
            "{}, {dom} -> {cod}{}",
            layouts[next(layouts.len() as u64) as usize],
            options[next(options.len() as u64) as usize],
        );
        inputs.extend(inputs_of(&decl));
    }
    let cold: Vec<String> = inputs
        .chunks(1)
        .map(|c| {
            let c = c.to_vec();
            std::thread::spawn(move || expand_all(&c).remove(0))
                .join()
                .expect("no panic")
        })
        .collect();
    let warm = {
        let inputs = inputs.clone();
        std::thread::spawn(move || expand_all(&inputs))
            .join()
            .expect("no panic")
    };
    for (i, w) in warm.iter().enumerate() {
        assert_eq!(w, &cold[i], "input {}", inputs[i]);
    }
    // Enough of the items pass (and so are remembered) to mean something.
    let passed = cold
        .iter()
        .step_by(inputs_of("").len())
        .filter(|o| !o.contains("compile_error"))
        .count();
    assert!(passed >= 30, "{passed} of 300 items passed");
}

/// No panic on any item or definition made of random token streams (the printed path, the
/// remembered checks and the definitions' texts all see them), twice in one thread so that the
/// second expansion finds what the first remembered; the output is the same both times.
#[test]
fn random_items_and_definitions_never_panic() {
    let mut state: u64 = 0x1234_5678_9abc_def1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    fn stream(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Vec<TokenTree> {
        let len = next(7) + 1;
        let mut out = Vec::new();
        for _ in 0..len {
            let tt = match next(if depth < 3 { 15 } else { 11 }) {
                0 | 1 => lit(&(next(9) + 1).to_string()),
                2 => lit(["0x10", "1_6", "016", "0", "7u32", "-3"][next(6) as usize]),
                3 => ident(
                    [
                        "logical", "physical", "cute", "index", "u32", "_", "swizzle", "P",
                    ][next(8) as usize],
                ),
                4 => TokenTree::Ident(Ident::new_raw("logical", Span::call_site())),
                5 | 6 => punct([',', ':', '-', '>', '=', ';'][next(6) as usize]),
                7 => TokenTree::Punct(Punct::new('-', Spacing::Joint)),
                8..=10 => lit(&(next(4) + 1).to_string()),
                11 | 12 => group(Delimiter::Parenthesis, stream(next, depth + 1)),
                13 => group(Delimiter::None, stream(next, depth + 1)),
                _ => group(Delimiter::Bracket, stream(next, depth + 1)),
            };
            out.push(tt);
        }
        out
    }
    let mut inputs = Vec::new();
    for _ in 0..3_000 {
        let body: TokenStream = stream(&mut next, 0).into_iter().collect();
        // A declaration's usual frame around a random part, and the random part alone.
        let framed = format!("{body} , logical -> physical");
        for decl in [body.to_string(), framed] {
            inputs.push(format!("::layout_typed; const P = {decl};"));
            inputs.push(format!("::layout_typed; [P = {decl}] compose(P, P)"));
        }
    }
    let inputs: Vec<String> = inputs
        .into_iter()
        .filter(|s| s.parse::<TokenStream>().is_ok())
        .collect();
    let (first, second) = std::thread::spawn(move || {
        let first = expand_all(&inputs);
        let second = expand_all(&inputs);
        (first, second)
    })
    .join()
    .expect("no panic");
    assert_eq!(first, second);
}

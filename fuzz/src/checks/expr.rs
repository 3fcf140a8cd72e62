//! The expression language of `layout_core::expr` (the text `layout!` and the `layout` command
//! both read): on any text, parsing, checking and evaluating never panic; every error and every
//! run-time piece points inside the text, on character boundaries; and the text with its tokens
//! joined by spaces (as the macro hands over its token stream) reads the same.

use std::ops::Range;

use layout_core::expr::{self, BareSpaces, Env, Options, Order};

fn touch(e: &layout_core::Error) {
    let _ = (e.to_string(), e.rule(), e.help(), e.mode());
}

fn inside(text: &str, s: &Range<usize>) {
    assert!(
        s.start <= s.end
            && s.end <= text.len()
            && text.is_char_boundary(s.start)
            && text.is_char_boundary(s.end),
        "{text:?}: span {s:?} outside the text"
    );
}

/// The tokens of `text` joined by single spaces: runs of `[A-Za-z0-9_]`, and every other
/// non-blank character alone (the lexer's tokens).
pub fn spaced(text: &str) -> String {
    let mut out = String::new();
    let mut word = false;
    for c in text.chars() {
        if c.is_ascii_whitespace() {
            word = false;
            continue;
        }
        let w = c.is_ascii_alphanumeric() || c == '_';
        if !out.is_empty() && !(w && word) {
            out.push(' ');
        }
        out.push(c);
        word = w;
    }
    out
}

/// The macro's, the CLI's and the CLI's `--cute` options.
const OPTIONS: [Options; 3] = [
    Options {
        order: Order::Seed,
        bare: None,
        runtime: true,
    },
    Options {
        order: Order::Seed,
        bare: Some(BareSpaces {
            storage: (layout_core::Space::Logical, layout_core::Space::Physical),
            right: (layout_core::Space::ThreadValue, layout_core::Space::Logical),
        }),
        runtime: false,
    },
    Options {
        order: Order::Cute,
        bare: Some(BareSpaces {
            storage: (layout_core::Space::Logical, layout_core::Space::Physical),
            right: (layout_core::Space::ThreadValue, layout_core::Space::Logical),
        }),
        runtime: false,
    },
];

/// Runs the whole language on `text` under every option set.
pub fn check_text(text: &str) {
    let joined = spaced(text);
    for opts in &OPTIONS {
        let parsed = expr::parse_algebra(text, opts);
        let again = expr::parse_algebra(&joined, opts);
        match (&parsed, &again) {
            (Ok(a), Ok(b)) => assert_eq!(
                a.expr.map_spans(&mut |_| ()),
                b.expr.map_spans(&mut |_| ()),
                "{text:?} and {joined:?} read differently"
            ),
            (Err(a), Err(b)) => assert_eq!(
                a.error.rule(),
                b.error.rule(),
                "{text:?} and {joined:?} fail differently"
            ),
            _ => panic!("{text:?} and {joined:?}: one reads, the other does not"),
        }
        let a = match parsed {
            Ok(a) => a,
            Err(e) => {
                inside(text, &e.span);
                touch(&e.error);
                continue;
            }
        };
        let mut env = Env::new();
        for (path, decl) in &a.defs {
            let (c, errs) = expr::check_decl(decl);
            for e in &errs {
                inside(text, &e.span);
                e.notes.iter().for_each(|n| inside(text, &n.span));
                touch(&e.error);
            }
            if let (Some(c), true) = (c, errs.is_empty()) {
                env.define(path.key(), c);
            }
        }
        match expr::evaluate(&a.expr, &env, opts) {
            Ok(v) => {
                assert!(v.runtime.len() <= 1, "{text:?}: two run-time restrictions");
                assert!(
                    opts.runtime || v.runtime.is_empty(),
                    "{text:?}: a run-time value"
                );
                v.runtime.iter().for_each(|(_, s)| inside(text, s));
            }
            Err(errs) => {
                assert!(
                    !errs.is_empty(),
                    "{text:?}: an evaluation error without errors"
                );
                for e in &errs {
                    inside(text, &e.span);
                    e.notes.iter().for_each(|n| inside(text, &n.span));
                    touch(&e.error);
                }
            }
        }
    }
}

//! The tokens of the text grammar: integers, identifiers and single punctuation characters,
//! each with its byte range. Whitespace separates tokens and is otherwise ignored, so text
//! joined from a token stream (`thread - value`, `- >`, `crate :: m :: P`) reads as written
//! compactly.

use alloc::vec::Vec;

/// What a token is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// Decimal digits; `suffixed` when letters follow without a space (`5i32`).
    Int { suffixed: bool },
    /// `[A-Za-z_][A-Za-z0-9_]*`.
    Ident,
    /// One punctuation character (the first byte of any other character).
    Punct(u8),
    /// The end of the text.
    End,
}

/// One token: its kind and byte range.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// Splits `text` into tokens, ending with one [`Kind::End`] token at the text's length.
/// Lexing never fails: anything that is not an integer or an identifier is punctuation.
/// `suffixes`: letters right after digits belong to the integer (a suffixed literal, an error
/// of its own); else they start an identifier (the text interfaces of `FromStr` and the CuTe
/// layer, which report what they expected there).
pub(crate) fn lex(text: &str, suffixes: bool) -> Vec<Token> {
    let s = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0usize;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while let Some(&c) = s.get(i) {
        if c.is_ascii_whitespace() {
            i = i.saturating_add(1);
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_digit() {
            while s.get(i).is_some_and(u8::is_ascii_digit) {
                i = i.saturating_add(1);
            }
            let digits = i;
            while suffixes && s.get(i).copied().is_some_and(word) {
                i = i.saturating_add(1);
            }
            Kind::Int {
                suffixed: i != digits,
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while s.get(i).copied().is_some_and(word) {
                i = i.saturating_add(1);
            }
            Kind::Ident
        } else {
            i = i.saturating_add(1);
            // A multi-byte character is one token.
            while s.get(i).is_some_and(|b| (b & 0xC0) == 0x80) {
                i = i.saturating_add(1);
            }
            Kind::Punct(c)
        };
        out.push(Token {
            kind,
            start,
            end: i,
        });
    }
    out.push(Token {
        kind: Kind::End,
        start: s.len(),
        end: s.len(),
    });
    out
}

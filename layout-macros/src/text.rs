//! Tokens ↔ text: the token stream written as the text `layout_core::expr` parses, with a
//! table that maps each byte range of that text back to the tokens it came from, so that every
//! located core error becomes a `syn::Error` at the tokens the user wrote.
//!
//! Tokens are written separated by spaces (the core's lexer is token based and ignores
//! whitespace); delimited groups keep their delimiters, a group without delimiters (from a
//! `macro_rules!` fragment) is written as its contents. Integer literals are written in base 10
//! (`0x10`, `1_000` read as 16 and 1000); a suffix stays attached (`5i32`), which the core
//! reports at that token. Other literals (strings, floats, characters) are written as one `?`,
//! a token the grammar never accepts, so the error points at the literal. A raw identifier is
//! written without its `r#`; `$crate` as an identifier of its own per crate ([`dollar_crate`]). The core may read one token as several (`1é` as `1` and `é`):
//! a range that starts or ends inside a token is widened to the whole token.

use layout_core::Error;
use layout_core::expr::{Located, NoteKind};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// `$crate` (in a path a `macro_rules!` wrote) as an identifier: `__crate_` and a hash of the
/// token's span. `$crate` names the crate of the macro that wrote it, so the same text can name
/// two crates in one expression (`$crate::M` of a library's macro given `$crate::M` by a macro
/// of the crate calling it); an operand is looked up by its path's text, so the two must be
/// written apart. Two `$crate`s written alike come from one place of one macro, hence one crate;
/// two written apart that name one crate are only fetched twice.
fn dollar_crate(span: Span) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{span:?}").hash(&mut h);
    format!("__crate_{:016x}", h.finish())
}

/// Where a core span points in the tokens: one token (or group), or the range from the first
/// to the last of several (on stable Rust a range is made of two tokens' spans).
#[derive(Clone, Copy, Debug)]
pub struct At {
    first: Span,
    last: Option<Span>,
}

impl At {
    /// One token's span.
    pub fn one(span: Span) -> At {
        At {
            first: span,
            last: None,
        }
    }

    /// A `syn::Error` spanning this place.
    pub fn error(self, message: impl std::fmt::Display) -> syn::Error {
        match self.last {
            None => syn::Error::new(self.first, message),
            Some(last) => {
                let tokens: TokenStream = [
                    TokenTree::Ident(proc_macro2::Ident::new("first", self.first)),
                    TokenTree::Ident(proc_macro2::Ident::new("last", last)),
                ]
                .into_iter()
                .collect();
                syn::Error::new_spanned(tokens, message)
            }
        }
    }

    /// The span of the first token (a single span for quoted code).
    pub fn span(self) -> Span {
        self.first
    }
}

/// What a byte range of the text points at: token trees (the first and the last, indices into
/// the table), a group's delimiter (the group, and whether it is the closing one), the end of
/// the input, or nothing found.
enum Place {
    Tokens(usize, usize),
    Delimiter(usize, bool),
    End,
    Nowhere,
}

/// One token tree of the input: its bytes in the text (a group's include its delimiters), the
/// enclosing group, and the token itself.
struct Entry {
    start: usize,
    end: usize,
    parent: Option<usize>,
    tt: TokenTree,
}

/// The text of a token stream and the table back to its tokens.
pub struct Text {
    /// The text the core parses.
    pub text: String,
    entries: Vec<Entry>,
    /// Where the end of the text points (the invocation, or the `;` after an item).
    end: Span,
}

/// Whether `text` can stand in a string literal as it is, for a definition macro: printable
/// ASCII without `"` or `\\` (every declaration the core accepts is; anything else keeps its
/// tokens).
pub(crate) fn plain_definition(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\')
}

/// Where the literal of a definition `PATH = LITERAL` stands in `tokens` (the inside of a
/// bracket): the tokens before the one `=` are a path (identifiers and `:`), and the literal is
/// the last token, right after it. `None` for any other shape.
fn definition_literal_at(tokens: &TokenStream) -> Option<usize> {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let [path @ .., TokenTree::Punct(eq), TokenTree::Literal(_)] = trees.as_slice() else {
        return None;
    };
    let is_path = !path.is_empty()
        && path.iter().all(|t| match t {
            TokenTree::Ident(_) => true,
            TokenTree::Punct(p) => p.as_char() == ':',
            _ => false,
        });
    (eq.as_char() == '=' && is_path).then(|| trees.len().saturating_sub(1))
}

/// The text of a string literal `"TEXT"` whose text is [`plain_definition`] (no prefix,
/// suffix or escape), else `None`.
fn definition_literal(l: &proc_macro2::Literal) -> Option<String> {
    let written = l.to_string();
    let text = written.strip_prefix('"')?.strip_suffix('"')?;
    plain_definition(text).then(|| text.to_owned())
}

impl Text {
    /// Writes `tokens` as text, recording every token tree's byte range; the end of the text
    /// is the end of the invocation.
    pub fn new(tokens: &TokenStream) -> Text {
        Text::ending_at(tokens, Span::call_site())
    }

    /// The text [`Text::new`] writes for `tokens`, read from the compiler's printing of the
    /// whole stream (one call across the macro's bridge instead of one per token), or `None`
    /// where the printing might read otherwise: tokens are then written one by one. Only
    /// ASCII words, integers written in plain decimal (no suffix, base, separator or leading
    /// zero) and the punctuation of declarations are taken, each a token of its own, so the
    /// core's lexer splits the printing into the token trees' own texts, joined here by single
    /// spaces: the tokens [`Text::new`] writes, in the same order, so the core reads the same
    /// declaration from both. The spacing is [`Text::new`]'s too, except around a group
    /// without delimiters (a `macro_rules!` fragment), before which [`Text::new`] writes one
    /// more space (a different key for remembered checks, never another declaration).
    /// Without the table back to the tokens: for inputs that expand without error.
    pub fn printed(tokens: &TokenStream) -> Option<String> {
        let printed = tokens.to_string();
        let b = printed.as_bytes();
        let mut out = String::with_capacity(b.len().saturating_mul(2));
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let mut i = 0usize;
        while let Some(&c) = b.get(i) {
            let start = i;
            if c.is_ascii_whitespace() {
                i = i.saturating_add(1);
                continue;
            } else if c.is_ascii_digit() {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i = i.saturating_add(1);
                }
                // A suffix, another base, a separator, a float, a leading zero.
                let next = b.get(i).copied();
                if next.is_some_and(|n| word(n) || n == b'.')
                    || (c == b'0' && i.saturating_sub(start) > 1)
                {
                    return None;
                }
            } else if c.is_ascii_alphabetic() || c == b'_' {
                while b.get(i).copied().is_some_and(word) {
                    i = i.saturating_add(1);
                }
            } else if b"()[]{},:;<>=-".contains(&c) {
                i = i.saturating_add(1);
            } else {
                return None;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(printed.get(start..i)?);
        }
        Some(out)
    }

    /// As [`Text::new`], with the end of the text at `end`.
    pub fn ending_at(tokens: &TokenStream, end: Span) -> Text {
        let mut t = Text {
            text: String::new(),
            entries: Vec::new(),
            end,
        };
        t.write(tokens, None);
        t
    }

    fn write(&mut self, tokens: &TokenStream, parent: Option<usize>) {
        // A definition `[PATH = "TEXT"]` (the whole bracket a path, `=` and one literal): its
        // declaration, which a declared item's definition macro hands on as one string literal
        // of its text. Nowhere else is a literal read as text.
        let definition = self.definition_at(tokens, parent);
        let mut position = 0usize;
        for tt in tokens.clone() {
            if !self.text.is_empty() {
                self.text.push(' ');
            }
            let start = self.text.len();
            let index = self.entries.len();
            self.entries.push(Entry {
                start,
                end: start,
                parent,
                tt: tt.clone(),
            });
            match &tt {
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::None => ("", ""),
                    };
                    self.text.push_str(open);
                    self.write(&g.stream(), Some(index));
                    if !close.is_empty() {
                        self.text.push(' ');
                    }
                    self.text.push_str(close);
                }
                TokenTree::Ident(i) => {
                    // A raw identifier is the identifier (`r#logical` is `logical` to Rust);
                    // a path keeps the tokens as written.
                    let word = i.to_string();
                    if word == "$crate" {
                        self.text.push_str(&dollar_crate(i.span()));
                    } else {
                        self.text.push_str(word.strip_prefix("r#").unwrap_or(&word));
                    }
                }
                TokenTree::Punct(p) => self.text.push(p.as_char()),
                TokenTree::Literal(l) => match definition_literal(l) {
                    Some(text) if definition == Some(position) => self.text.push_str(&text),
                    _ => self.literal(l),
                },
            }
            position = position.saturating_add(1);
            let end = self.text.len();
            if let Some(e) = self.entries.get_mut(index) {
                e.end = end;
            }
        }
    }

    /// Where a definition's literal stands in `tokens`, the inside of the entry `parent`:
    /// [`definition_literal_at`] inside a bracket, else `None`. Out of line: [`Text::write`]
    /// recurses once per level of nesting and keeps its frame small.
    #[inline(never)]
    fn definition_at(&self, tokens: &TokenStream, parent: Option<usize>) -> Option<usize> {
        let in_brackets = parent.and_then(|p| self.entries.get(p)).is_some_and(
            |e| matches!(&e.tt, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket),
        );
        if in_brackets {
            definition_literal_at(tokens)
        } else {
            None
        }
    }

    fn literal(&mut self, l: &proc_macro2::Literal) {
        let written = l.to_string();
        // The common case, a plain decimal without suffix, underscores or leading zeros, is
        // its own value's digits: `syn` is asked only for the others.
        let b = written.as_bytes();
        if b.iter().all(u8::is_ascii_digit)
            && (b.len() == 1 || b.first().is_some_and(|&d| d != b'0'))
        {
            self.text.push_str(&written);
            return;
        }
        let lit = syn::Lit::new(l.clone());
        match lit {
            syn::Lit::Int(i) => {
                // A literal made by a macro may carry its sign (`Literal::i64_unsuffixed(-5)`).
                if written.starts_with('-') {
                    self.text.push_str("- ");
                }
                self.text.push_str(i.base10_digits());
                self.text.push_str(i.suffix());
            }
            _ => self.text.push('?'),
        }
    }

    fn entry_span(e: &Entry) -> Span {
        e.tt.span()
    }

    /// Whether entry `i` lies inside `a..b`.
    fn inside(&self, i: usize, a: usize, b: usize) -> bool {
        self.entries
            .get(i)
            .is_some_and(|e| e.start >= a && e.end <= b)
    }

    /// The outermost token trees inside `a..b`, in order (their parents are not inside).
    fn maximal(&self, a: usize, b: usize) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| {
                self.inside(i, a, b)
                    && self
                        .entries
                        .get(i)
                        .and_then(|e| e.parent)
                        .is_none_or(|p| !self.inside(p, a, b))
            })
            .collect()
    }

    /// The group whose delimiter is at byte `at`, and whether it is the closing one.
    fn delimiter_at(&self, at: usize) -> Option<(usize, bool)> {
        self.entries
            .iter()
            .enumerate()
            .find_map(|(i, e)| match &e.tt {
                TokenTree::Group(g) if g.delimiter() != Delimiter::None => {
                    if e.start == at {
                        Some((i, false))
                    } else if e.end.checked_sub(1) == Some(at) {
                        Some((i, true))
                    } else {
                        None
                    }
                }
                _ => None,
            })
    }

    /// `a..b` widened to whole tokens: the core reads some tokens as several (`r#x` as `r`,
    /// `#`, `x`; `1é` as `1` and `é`), so its range may begin or end inside one.
    fn widened(&self, a: usize, b: usize) -> (usize, usize) {
        let (mut a, mut b) = (a, b);
        for e in &self.entries {
            if matches!(e.tt, TokenTree::Group(_)) {
                continue;
            }
            if e.start < a && a < e.end {
                a = e.start;
            }
            if e.start < b && b < e.end {
                b = e.end;
            }
        }
        (a, b.max(a))
    }

    /// The tokens a byte range of the text came from (see the module docs).
    pub fn at(&self, r: &std::ops::Range<usize>) -> At {
        let span = |i: usize| {
            self.entries
                .get(i)
                .map_or_else(Span::call_site, Self::entry_span)
        };
        let delimiter = |i: usize, close: bool| match self.entries.get(i).map(|e| &e.tt) {
            Some(TokenTree::Group(g)) if close => g.span_close(),
            Some(TokenTree::Group(g)) => g.span_open(),
            _ => Span::call_site(),
        };
        match self.place(r) {
            Place::End => At::one(self.end),
            Place::Tokens(f, l) if f == l => At::one(span(f)),
            Place::Tokens(f, l) => At {
                first: span(f),
                last: Some(span(l)),
            },
            Place::Delimiter(i, close) => At::one(delimiter(i, close)),
            Place::Nowhere => At::one(Span::call_site()),
        }
    }

    /// Where a byte range of the text points in the table (see [`Text::at`]).
    fn place(&self, r: &std::ops::Range<usize>) -> Place {
        let (a, b) = self.widened(r.start, r.end);
        if a >= self.text.len() {
            return Place::End;
        }
        let max = if a < b {
            self.maximal(a, b)
        } else {
            Vec::new()
        };
        if let (Some(&f), Some(&l)) = (max.first(), max.last()) {
            return Place::Tokens(f, l);
        }
        // An empty range, or one delimiter: the delimiter there, else the first token that
        // starts at or after it.
        if let Some((i, close)) = self.delimiter_at(a) {
            return Place::Delimiter(i, close);
        }
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.start >= a
                    && !matches!(&e.tt, TokenTree::Group(g) if g.delimiter() == Delimiter::None)
            })
            .min_by_key(|(_, e)| e.start)
            .map_or(Place::Nowhere, |(i, _)| Place::Tokens(i, i))
    }

    /// The tokens [`Text::at`] points at for `r`, as written (`)` for a closing delimiter,
    /// `$` for the end of the input), for tests: spans carry no positions outside a compiler.
    #[cfg(test)]
    pub fn pointed(&self, r: &std::ops::Range<usize>) -> String {
        let tt = |i: usize| {
            self.entries
                .get(i)
                .map(|e| e.tt.to_string())
                .unwrap_or_default()
        };
        match self.place(r) {
            Place::End => "$".into(),
            Place::Nowhere => String::new(),
            Place::Tokens(f, l) if f == l => tt(f),
            Place::Tokens(f, l) => format!("{} .. {}", tt(f), tt(l)),
            Place::Delimiter(i, close) => {
                let d = match self.entries.get(i).map(|e| &e.tt) {
                    Some(TokenTree::Group(g)) => g.delimiter(),
                    _ => Delimiter::None,
                };
                match (d, close) {
                    (Delimiter::Parenthesis, false) => "(",
                    (Delimiter::Parenthesis, true) => ")",
                    (Delimiter::Bracket, false) => "[",
                    (Delimiter::Bracket, true) => "]",
                    (Delimiter::Brace, false) => "{",
                    (Delimiter::Brace, true) => "}",
                    (Delimiter::None, _) => "",
                }
                .into()
            }
        }
    }

    /// The tokens of a byte range (a run-time `{expr}` leaf's contents, a run-time `restrict`
    /// value, a path), as written: the outermost token trees inside it.
    pub fn tokens(&self, r: &std::ops::Range<usize>) -> TokenStream {
        let (a, b) = self.widened(r.start, r.end);
        self.maximal(a, b)
            .into_iter()
            .filter_map(|i| self.entries.get(i).map(|e| e.tt.clone()))
            .collect()
    }

    /// The value of a run-time `{expr}` leaf whose contents are the byte range `r`: its
    /// contents as written, or the whole `{ .. }` block when the contents are not one expression
    /// (empty, or statements ending in `;` at their top level), so that Rust reads the block as
    /// the user wrote it and reports its type at its braces.
    pub fn leaf_value(&self, r: &std::ops::Range<usize>) -> TokenStream {
        let inner = self.tokens(r);
        let statements = inner.is_empty()
            || inner
                .clone()
                .into_iter()
                .any(|tt| matches!(&tt, TokenTree::Punct(p) if p.as_char() == ';'));
        if !statements {
            return inner;
        }
        self.entries
            .iter()
            .filter(|e| {
                matches!(&e.tt, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
                    && e.start < r.start
                    && e.end > r.end.max(r.start)
            })
            .min_by_key(|e| e.end.saturating_sub(e.start))
            .map_or(inner, |e| e.tt.clone().into())
    }

    /// The tokens of a path of the core (`crate::m::P`, `::c::D`): its segments and the `::`
    /// between them, with the `::` before the first when it leads; a path handed in by a
    /// `macro_rules!` fragment is given without its group.
    pub fn path_tokens<S: Clone + Into<std::ops::Range<usize>>>(
        &self,
        p: &layout_core::expr::Path<S>,
    ) -> TokenStream {
        let (Some((_, first)), Some((_, last))) = (p.segments.first(), p.segments.last()) else {
            return TokenStream::new();
        };
        let (first, last): (std::ops::Range<usize>, std::ops::Range<usize>) =
            (first.clone().into(), last.clone().into());
        let mut start = first.start;
        if p.leading {
            // The two `:` written before the first segment.
            let colons = self
                .entries
                .iter()
                .filter(|e| {
                    e.end <= first.start
                        && matches!(&e.tt, TokenTree::Punct(c) if c.as_char() == ':')
                })
                .map(|e| e.start)
                .collect::<Vec<_>>();
            if let Some(&s) = colons.len().checked_sub(2).and_then(|i| colons.get(i)) {
                start = s;
            }
        }
        // The path's identifiers and `::` separators, each `::` made of a joint `:` and an
        // alone one at the colons' spans: the core reads `:` `:` written apart (`crate: :m`)
        // as `::`, as it reads all tokens whitespace-free, and Rust must read the same path.
        let (a, b) = self.widened(start, last.end);
        let mut first_colon = true;
        self.entries
            .iter()
            .filter(|e| !matches!(e.tt, TokenTree::Group(_)) && e.start >= a && e.end <= b)
            .map(|e| match &e.tt {
                TokenTree::Punct(c) if c.as_char() == ':' => {
                    let spacing = if first_colon {
                        proc_macro2::Spacing::Joint
                    } else {
                        proc_macro2::Spacing::Alone
                    };
                    first_colon = !first_colon;
                    let mut colon = proc_macro2::Punct::new(':', spacing);
                    colon.set_span(c.span());
                    TokenTree::Punct(colon)
                }
                tt => tt.clone(),
            })
            .collect()
    }

    /// A located core error as `syn::Error`s: the error (its message, the coordinates of an
    /// aliasing pair, then `help:` and the help) at its tokens, then each note at its own.
    ///
    /// The syntax errors that carry a column ([`Error::IntegerTooLarge`], [`Error::NestedName`],
    /// [`Error::RuntimeLeaf`]) have it in the joined text; it is replaced by the token's column
    /// in the source (1-based, as rustc prints it) when the compiler gives one.
    pub fn errors(&self, l: &Located<std::ops::Range<usize>>) -> Vec<syn::Error> {
        let at = self.at(&l.span);
        let mut l = l.clone();
        if let Some(c) = source_column(at.first) {
            l.error = match l.error {
                Error::IntegerTooLarge { .. } => Error::IntegerTooLarge { column: c },
                Error::NestedName { .. } => Error::NestedName { column: c },
                Error::RuntimeLeaf { .. } => Error::RuntimeLeaf { column: c },
                e => e,
            };
        }
        let l = &l;
        let mut out = vec![at.error(message(l))];
        for n in &l.notes {
            if !matches!(
                n.kind,
                NoteKind::Coordinates { .. } | NoteKind::Witness { .. }
            ) {
                out.push(self.at(&n.span).error(&n.kind));
            }
        }
        out
    }
}

/// A core error about the invocation's frame (read before the core sees the text), at `span`:
/// the core's message, then `help:` and the help.
pub fn frame_error(span: Span, e: Error) -> syn::Error {
    match e.help() {
        Some(h) => syn::Error::new(span, format!("{e}\nhelp: {h}")),
        None => syn::Error::new(span, e),
    }
}

/// The message of a located error: the core's text, then `help:` and the help.
pub fn message<S>(l: &Located<S>) -> String {
    match l.error.help() {
        Some(h) => format!("{l}\nhelp: {h}"),
        None => l.to_string(),
    }
}

/// The 1-based column of a token in its source line, when the compiler runs the macro (never
/// in unit tests, where spans have no position).
fn source_column(span: Span) -> Option<usize> {
    proc_macro::is_available().then(|| span.unwrap().column())
}

/// Integer literals in every spelling read as their value's decimal digits and suffix: the
/// plain decimals written directly, the others (leading zeros, underscores, bases, suffixes,
/// a sign carried by a macro-made literal) as `syn` reads them.
#[cfg(test)]
mod literal_tests {
    use super::Text;
    use proc_macro2::{Literal, TokenStream, TokenTree};
    use std::str::FromStr;

    #[test]
    fn every_spelling_reads_as_its_value() {
        for (written, text) in [
            ("0", "0"),
            ("7", "7"),
            ("10", "10"),
            ("4096", "4096"),
            ("00", "0"),
            ("007", "7"),
            ("1_0", "10"),
            ("0b101", "5"),
            ("0o17", "15"),
            ("0x1F", "31"),
            ("18446744073709551616", "18446744073709551616"),
            ("5i64", "5i64"),
            ("0_5usize", "5usize"),
        ] {
            let t = TokenStream::from_str(written).unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(Text::new(&t).text, text, "{written}");
        }
        for (v, text) in [
            (-12i64, "- 12"),
            (0, "0"),
            (i64::MIN, "- 9223372036854775808"),
        ] {
            let t: TokenStream = TokenTree::Literal(Literal::i64_unsuffixed(v)).into();
            assert_eq!(Text::new(&t).text, text, "{v}");
        }
    }
}

/// A definition macro's string literal reads as its text, only where a definition's
/// declaration stands (a whole bracket `[PATH = "TEXT"]`); anywhere else a string literal stays
/// a literal, which the core rejects.
#[cfg(test)]
mod definition_literal_tests {
    use super::Text;
    use proc_macro2::TokenStream;
    use std::str::FromStr;

    fn text(written: &str) -> String {
        let t = TokenStream::from_str(written).unwrap_or_else(|e| panic!("{written}: {e}"));
        Text::new(&t).text
    }

    #[test]
    fn read_back_only_in_definitions() {
        assert_eq!(
            text(r#"k; [A = "(4,8):(8,1), logical -> physical"] A"#),
            "k ; [ A = (4,8):(8,1), logical -> physical ] A"
        );
        assert_eq!(
            text(r#"[a::B = "cute (4):(1), logical -> physical"]"#),
            "[ a : : B = cute (4):(1), logical -> physical ]"
        );
        // Nested: an algebra item's definition holding a declared operand's.
        assert_eq!(
            text(r#"[D = [S = "(4):(1), logical -> physical"] S]"#),
            "[ D = [ S = (4):(1), logical -> physical ] S ]"
        );
        // Elsewhere, or with an escape, a prefix or a suffix: not read as text (`?`).
        for written in [
            r#""(4):(1), logical -> physical""#,
            r#"("(4):(1)")"#,
            r#"[A "(4):(1)"]"#,
            r#"[A = b"(4):(1)"]"#,
            r#"[A = "(4):(1)"x]"#,
            r#"[A = "(4)\":(1)"]"#,
            r#"[A = r"(4):(1)"]"#,
            r#"[(4,8):(16,1), logical -> physical, index = "u32"]"#,
            r#"[A = "(4):(1)" "(4):(1)"]"#,
            r#"[= "(4):(1)"]"#,
            r#"[A = B = "(4):(1)"]"#,
        ] {
            assert!(text(written).contains('?'), "{written}: {}", text(written));
        }
    }
}

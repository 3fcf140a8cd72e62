//! Diagnostics: one error with its rule, mode, message, help and column, printed as one line
//! on stderr or as an entry of the `errors` list of `--json` (spec: Machine-readable output).

use layout_core::Error;
use serde::Serialize;

/// A byte range of one command-line argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The range `[start, end)`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// Where in the command line an error points: an argument's text and a byte offset in it.
#[derive(Clone, Debug)]
pub struct Source<'a> {
    /// How the argument is named in messages (`""` for the main argument, `"--tv"`).
    pub name: &'static str,
    /// The argument's text.
    pub text: &'a str,
}

impl Source<'_> {
    /// The 1-based column (in characters) of byte `at`.
    pub fn column(&self, at: usize) -> usize {
        let at = at.min(self.text.len());
        let mut b = at;
        while b > 0 && !self.text.is_char_boundary(b) {
            b = b.saturating_sub(1);
        }
        self.text[..b].chars().count().saturating_add(1)
    }

    /// "column N" or "column N of --tv".
    pub fn at(&self, at: usize) -> String {
        if self.name.is_empty() {
            format!("column {}", self.column(at))
        } else {
            format!("column {} of {}", self.column(at), self.name)
        }
    }
}

/// One error as the CLI reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// The rule's stable name (`syntax`, `not-dense`, …).
    pub rule: &'static str,
    /// The mode path, in the notation the layout was written in.
    pub mode: Vec<usize>,
    /// One sentence, with the column when the error points into an argument.
    pub message: String,
    /// The suggested fix.
    pub help: Option<String>,
    /// Whether the input could not be read at all (exit status 2) rather than breaking a rule
    /// (exit status 1).
    pub unreadable: bool,
    /// Where an error of the expression language points, and its secondary locations.
    pub at: Option<Box<At>>,
}

/// The location of an error of the expression language: its span and its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// The span of the error.
    pub span: JsonSpan,
    /// The secondary locations (the colliding mode's stride, the matching shape).
    pub notes: Vec<JsonNote>,
}

/// A span of one argument in the JSON: byte offsets into the argument and the text there.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct JsonSpan {
    /// The argument (`""` for the main argument, `"--def"`, `"--tv"`).
    pub argument: &'static str,
    /// First byte.
    pub start: usize,
    /// One past the last byte (`start == end`: the end of the argument).
    pub end: usize,
    /// The argument's text in `start..end`.
    pub text: String,
}

/// A secondary location of an error in the JSON.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct JsonNote {
    /// What is there.
    pub message: String,
    /// Where.
    pub span: JsonSpan,
}

/// The JSON form of an error (spec: Machine-readable output; `rule`, `mode`, `message`, `help`).
#[derive(Serialize, Debug)]
pub struct JsonError {
    /// The rule's stable name.
    pub rule: &'static str,
    /// The mode path.
    pub mode: Vec<usize>,
    /// One sentence.
    pub message: String,
    /// The suggested fix.
    pub help: Option<String>,
    /// Where an error of the expression language points (absent for other errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<JsonSpan>,
    /// The secondary locations of an error of the expression language.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<JsonNote>,
}

impl Source<'_> {
    /// The span `r` of this argument in the JSON.
    pub fn json_span(&self, r: &std::ops::Range<usize>) -> JsonSpan {
        let end = r.end.min(self.text.len());
        let start = r.start.min(end);
        JsonSpan {
            argument: self.name,
            start,
            end,
            text: self.text.get(start..end).unwrap_or_default().to_string(),
        }
    }
}

impl Diag {
    /// A diagnostic from a layout error, located in `src` at `span` when given. Syntax errors
    /// carry their own column (relative to `offset`).
    pub fn core(e: &Error, src: &Source<'_>, offset: usize, span: Option<Span>) -> Diag {
        let located = |msg: String, at: Option<usize>| match at {
            Some(a) => format!("{msg} ({})", src.at(a)),
            None => msg,
        };
        // The errors of the text that carry a column: the core's message with the column in
        // the argument (in characters), and the argument's name.
        let col = |c: usize| src.column(offset.saturating_add(c));
        let columned = match *e {
            Error::Parse { column, expected } => Some(Error::Parse {
                column: col(column),
                expected,
            }),
            Error::IntegerTooLarge { column } => Some(Error::IntegerTooLarge {
                column: col(column),
            }),
            Error::RuntimeLeaf { column } => Some(Error::RuntimeLeaf {
                column: col(column),
            }),
            Error::NestedName { column } => Some(Error::NestedName {
                column: col(column),
            }),
            _ => None,
        };
        let message = match columned {
            Some(c) if src.name.is_empty() => c.to_string(),
            Some(c) => format!("{c} (in {})", src.name),
            _ => located(e.to_string(), span.map(|s| s.start)),
        };
        Diag {
            rule: e.rule(),
            mode: e
                .mode()
                .map(|m| m.indices().iter().map(|&i| usize::from(i)).collect())
                .unwrap_or_default(),
            message,
            help: e.help().map(|h| h.to_string()),
            unreadable: e.rule() == "syntax",
            at: None,
        }
    }

    /// A diagnostic from an error of the expression language, at the column of its span, with
    /// its mode path as written.
    pub fn located(
        l: &layout_core::expr::Located<std::ops::Range<usize>>,
        src: &Source<'_>,
    ) -> Diag {
        let e = &l.error;
        // An error about a mode points at its first leaf (a tuple's span starts at its `(`).
        let mut at = l.span.start;
        if l.mode.is_some() {
            let bytes = src.text.as_bytes();
            while at < l.span.end && matches!(bytes.get(at), Some(b'(' | b' ' | b'\t')) {
                at = at.saturating_add(1);
            }
        }
        let message = match *e {
            Error::Parse { .. }
            | Error::IntegerTooLarge { .. }
            | Error::RuntimeLeaf { .. }
            | Error::NestedName { .. } => {
                let mut d = Diag::core(e, src, 0, None);
                d.at = Some(Box::new(At {
                    span: src.json_span(&l.span),
                    notes: Vec::new(),
                }));
                return d;
            }
            _ => format!("{l} ({})", src.at(at)),
        };
        let notes = l
            .notes
            .iter()
            // The notes that are secondary locations; the others extend the message.
            .filter(|n| {
                matches!(
                    n.kind,
                    layout_core::expr::NoteKind::CollidingStride
                        | layout_core::expr::NoteKind::MatchingShape
                )
            })
            .map(|n| JsonNote {
                message: n.kind.to_string(),
                span: src.json_span(&n.span),
            })
            .collect();
        Diag {
            rule: e.rule(),
            mode: l
                .mode
                .map(|m| m.indices().iter().map(|&i| usize::from(i)).collect())
                .unwrap_or_default(),
            message,
            help: e.help().map(|h| h.to_string()),
            unreadable: e.rule() == "syntax"
                || matches!(e, Error::ExprTooDeep | Error::UnknownOperation),
            at: Some(Box::new(At {
                span: src.json_span(&l.span),
                notes,
            })),
        }
    }

    /// A diagnostic from an error of [`layout_core::banks::conflicts`], pointing at the argument
    /// it is about where there is one (no mode path: the JSON `mode` is empty).
    pub fn bank(e: &Error, src: Option<(&Source<'_>, Span)>) -> Diag {
        let message = match src {
            Some((s, span)) => format!("{e} ({})", s.at(span.start)),
            None => e.to_string(),
        };
        Diag {
            rule: e.rule(),
            mode: Vec::new(),
            message,
            help: e.help().map(|h| h.to_string()),
            unreadable: false,
            at: None,
        }
    }

    /// An option's value that cannot be read ([`Error::OptionValue`]), at byte `at` of `src`
    /// (the option's text): unreadable input.
    pub fn option(option: layout_core::CliOption, src: &Source<'_>, at: usize) -> Diag {
        let mut d = Diag::core(
            &Error::OptionValue { option },
            src,
            0,
            Some(Span::new(at, at)),
        );
        d.unreadable = true;
        d
    }

    /// A file that cannot be written ([`Error::OutputWrite`]), with the path and the operating
    /// system's reason (exit status 2, like unreadable input).
    pub fn io(path: &std::path::Path, e: &std::io::Error) -> Diag {
        let err = Error::OutputWrite;
        Diag {
            rule: err.rule(),
            mode: Vec::new(),
            message: format!("{err} ({}: {e})", path.display()),
            help: err.help().map(|h| h.to_string()),
            unreadable: true,
            at: None,
        }
    }

    /// The one-line form for stderr: `error: MESSAGE; help: HELP`.
    pub fn line(&self) -> String {
        match &self.help {
            Some(h) => format!("error: {}; help: {h}", self.message),
            None => format!("error: {}", self.message),
        }
    }

    /// The JSON form.
    pub fn json(&self) -> JsonError {
        JsonError {
            rule: self.rule,
            mode: self.mode.clone(),
            message: self.message.clone(),
            help: self.help.clone(),
            span: self.at.as_ref().map(|a| a.span.clone()),
            notes: self
                .at
                .as_ref()
                .map(|a| a.notes.clone())
                .unwrap_or_default(),
        }
    }
}

/// The exit status for a list of errors (spec: Machine-readable output): 0 when there is none, 2 when one of them is
/// unreadable input, else 1.
pub fn exit_status(errors: &[Diag]) -> u8 {
    if errors.is_empty() {
        0
    } else if errors.iter().any(|d| d.unreadable) {
        2
    } else {
        1
    }
}

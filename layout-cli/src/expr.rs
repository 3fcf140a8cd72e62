//! The CLI's front end over `layout_core::expr`: the options of the flags, `--def`
//! definitions, and the core's located errors as diagnostics (docs/cli.md). The grammar, the
//! checks, the operations and every rule's wording are the core's.

use layout_core::expr::{
    self, BareSpaces, Env, Evaluated, LayoutExpr, Located, Options, Order, Span,
};
use layout_core::{Layout, Space};

use crate::diag::{Diag, Source};

/// The options of the CLI: bare layouts allowed (`logical -> physical`, `thread-value ->
/// logical` on the right of `compose` and in `inverse`), no run-time values, and CuTe order
/// everywhere under `--cute`.
pub fn options(cute: bool) -> Options {
    Options {
        order: if cute { Order::Cute } else { Order::Seed },
        bare: Some(BareSpaces::default()),
        runtime: false,
    }
}

/// Every located error as a diagnostic of `src`.
pub fn diags(errs: &[Located<Span>], src: &Source<'_>) -> Vec<Diag> {
    errs.iter().map(|e| Diag::located(e, src)).collect()
}

/// A layout argument as written, and the layout or every error of it.
pub struct LayoutArg {
    /// As written.
    pub written: LayoutExpr<Span>,
    /// The layout, or every mode-local error (else the one error of its construction).
    pub layout: Result<Layout, Vec<Located<Span>>>,
}

/// Reads a whole argument as one layout (an optional `cute` keyword allowed).
///
/// # Errors
/// The syntax error, located.
pub fn layout_arg(src: &Source<'_>, cute: bool) -> Result<LayoutArg, Diag> {
    let written =
        expr::parse_layout(src.text, &options(cute)).map_err(|e| Diag::located(&e, src))?;
    let layout = expr::check_layout(&written);
    Ok(LayoutArg { written, layout })
}

/// The `--def 'NAME = DECL'` definitions, each checked.
///
/// # Errors
/// Every error of every definition, located in its own argument.
pub fn definitions(defs: &[String], cute: bool) -> Result<Env<Span>, Vec<Diag>> {
    let mut env = Env::new();
    let mut errors = Vec::new();
    for text in defs {
        let src = Source {
            name: "--def",
            text,
        };
        match expr::parse_definition(text, &options(cute)) {
            Err(e) => errors.push(Diag::located(&e, &src)),
            Ok((path, decl)) => match expr::check_decl(&decl) {
                (Some(c), errs) if errs.is_empty() => env.define(path.key(), c),
                (_, errs) => errors.extend(diags(&errs, &src)),
            },
        }
    }
    if errors.is_empty() {
        Ok(env)
    } else {
        Err(errors)
    }
}

/// Parses and evaluates the main argument as an expression over the definitions.
///
/// # Errors
/// The syntax error, or the errors of the evaluation, located.
pub fn evaluate(
    src: &Source<'_>,
    cute: bool,
    env: &Env<Span>,
) -> Result<Evaluated<Span>, Vec<Diag>> {
    let opts = options(cute);
    let e = expr::parse_expr(src.text, &opts).map_err(|e| vec![Diag::located(&e, src)])?;
    expr::evaluate(&e, env, &opts).map_err(|errs| diags(&errs, src))
}

/// Reads `A->B` (`logical -> physical`, `tv->logical`, …).
pub fn parse_spaces(text: &str) -> Result<(Space, Space), Diag> {
    let src = Source {
        name: "--space",
        text,
    };
    let bad = |at: usize| Diag::option(layout_core::CliOption::Space, &src, at);
    let (a, b) = text.split_once("->").ok_or_else(|| bad(0))?;
    let lead = |s: &str| s.len().saturating_sub(s.trim_start().len());
    let da: Space = a.trim().parse().map_err(|_| bad(lead(a)))?;
    let b_at = a.len().saturating_add(2);
    let db: Space = b
        .trim()
        .parse()
        .map_err(|_| bad(b_at.saturating_add(lead(b))))?;
    Ok((da, db))
}

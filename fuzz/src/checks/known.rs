//! Defects found by these targets and not fixed yet: while one is listed here, the checks step
//! around it (so a campaign explores everything else), and its minimised input lies in
//! `fuzz/artifacts-found/`, replayed by an ignored test until the fix lands. To clear one,
//! delete its guard here and un-ignore its test in `tests/tests/fuzz_replay.rs`.

use std::cell::Cell;

use super::model::Model;

thread_local! {
    static STEP_AROUND: Cell<bool> = const { Cell::new(true) };
}

/// Whether the checks step around the defects listed here (true unless inside
/// [`exposing`]).
#[must_use]
pub fn step_around() -> bool {
    STEP_AROUND.with(Cell::get)
}

/// Runs `f` with every guard off: the input reaches the defect.
pub fn exposing<R>(f: impl FnOnce() -> R) -> R {
    STEP_AROUND.with(|s| s.set(false));
    let r = f();
    STEP_AROUND.with(|s| s.set(true));
    r
}

/// `decide` (not by mode) of `left ∘ (t ∘ i)`: the symbolic path reads the refined pieces of
/// the right composite as separate coordinates, so the layout form names a coordinate the
/// domain does not have (`artifacts-found/algebra-right-nested-decide`).
#[must_use]
pub fn right_nested_decide(model: &Model, by_mode: bool) -> bool {
    step_around()
        && !by_mode
        && matches!(model, Model::Compose(_, r) if matches!(**r, Model::Compose(..)))
}

/// `restrict` of `swizzle(restrict(..))`: the entries are counted on the restricted domain's
/// shape, not among the remaining entries of the original domain as for a restriction of a
/// restriction (`artifacts-found/emit-restrict-through-swizzle`).
#[must_use]
pub fn restrict_through_swizzle(inner: &Model) -> bool {
    fn restricted(m: &Model) -> bool {
        match m {
            Model::Restrict { .. } => true,
            Model::Swizzle { inner, .. } => restricted(inner),
            _ => false,
        }
    }
    step_around() && matches!(inner, Model::Swizzle { .. }) && restricted(inner)
}

/// The exact alias check's walk adds a stride before subtracting `stride · size` on a carry, so
/// a layout whose offsets fit `i64` overflows in between: `is_alias_free` and an annotation
/// into physical panic on `(6,2,2):(-11,4611686018427387904,-16)` (debug builds, the
/// proc-macro's default) (`artifacts-found/algebra-alias-walk-overflow`).
#[must_use]
pub fn alias_walk_overflow(l: &layout_core::Layout) -> bool {
    let reach: i128 = l
        .modes()
        .iter()
        .map(|m| i128::from(m.size) * i128::from(m.stride.value()).abs())
        .sum();
    step_around() && reach > i128::from(i64::MAX)
}

/// An attribute of the item form whose value nests deeply (`#[h = <<<…]`, 400 `<`) overflows
/// the stack in a debug build (the proc-macro's default): `syn::Attribute::parse_outer` parses
/// the value as an expression, recursively; the macro only forwards attributes, so it could
/// keep them as tokens (`artifacts-found/macro-front-deep-attribute`).
#[must_use]
pub fn deep_attribute(text: &str) -> bool {
    step_around()
        && text.contains('#')
        && text.chars().filter(|c| "<&!-*|".contains(*c)).count() >= 64
}

//! Defects found by these targets and not fixed yet (none at present): while one is listed here, the checks step
//! around it (so a campaign explores everything else), and its minimised input lies in
//! `fuzz/artifacts-found/`, replayed by an ignored test until the fix lands. To clear one,
//! delete its guard here and un-ignore its test in `tests/tests/fuzz_replay.rs`.

use std::cell::Cell;

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

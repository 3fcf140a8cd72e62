//! trybuild compile-fail cases live in `ui/`; the runner is `tests/ui.rs`.

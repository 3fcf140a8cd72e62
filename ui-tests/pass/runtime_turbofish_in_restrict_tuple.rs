// A component of a run-time coordinate with a turbofish of two generic arguments: a valid Rust
// expression, split at the comma inside `<..>`.
use layout_typed::prelude::*;

fn conv<A: Into<u64>, B>(a: A) -> u64 {
    a.into()
}

fn main() {
    let (m, k, ld) = (16usize, 16usize, 16usize);
    let i = 1u8;
    let d = layout!(restrict(
        divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 8)),
        rest = (conv::<u8, ()>(i), 0)
    ))
    .unwrap();
    assert_eq!(d.offset((0usize, 0usize)), 128);
}

// A static `restrict` value inside a run-time entry: valid for m = 10000.
use layout_typed::prelude::*;

fn main() {
    let m = 10000usize;
    let d = layout!(restrict(divide([({m}):(1), logical -> physical], (2)), rest = 4999)).unwrap();
    assert_eq!(d.offset(1usize), 9999);
}

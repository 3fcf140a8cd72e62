use layout_typed::prelude::*;

layout! {
    const ROWS = (4,4096):(1048576,1), logical(4,4096) -> physical;
    const OTHER = (4,4096):(2097152,1), logical(4,4096) -> physical;
}

fn main() {
    // Two layouts that differ in one stride are different types; the message writes both
    // with their numbers.
    let _bad: ROWS = OTHER;
}

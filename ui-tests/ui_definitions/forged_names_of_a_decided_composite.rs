// `D = compose(A, P)` is decided to be the layout `(4,4):(4,1)`, whose form does not keep the
// names of `P`'s modes. A definition written by hand with those names swapped decides to the
// same layout; evaluated in the item's place, `restrict(m::D, thread = 1)` would give
// [1, 5, 9, 13] instead of the item's [4, 5, 6, 7]. Refused at the item's path.
mod m {
    layout_typed::layout! {
        pub const A = (4,4):(4,1), logical -> physical;
        pub const P = (thread: 4, value: 4):(4,1), thread-value -> logical;
        pub const D = compose(A, P);
    }
}

fn main() {
    let _ = layout_typed::layout!(
        [m::D = [A = "(4,4):(4,1), logical -> physical"]
            [P = "(value: 4, thread: 4):(4,1), thread-value -> logical"]
            compose(A, P)]
        restrict(m::D, thread = 1)
    );
}

// No definition written by hand: `D` and `E` are both decided to be `(4,4):(4,1)`, their modes
// named otherwise. A `const D` of `E`'s value shadows the glob-imported `D` in the value
// namespace while `D!` still hands on `D`'s definition: the value under the path is not the
// item the definition defines. Refused at the path.
mod m {
    layout_typed::layout! {
        pub const A = (4,4):(4,1), logical -> physical;
        pub const P = (thread: 4, value: 4):(4,1), thread-value -> logical;
        pub const Q = (value: 4, thread: 4):(4,1), thread-value -> logical;
        pub const D = compose(A, P);
        pub const E = compose(A, Q);
    }
}

mod shadow {
    use super::m::*;
    const D: super::m::E = super::m::E;
    pub fn thread_1() {
        let _ = layout_typed::layout!(restrict(D, thread = 1));
    }
}

fn main() {
    shadow::thread_1();
}

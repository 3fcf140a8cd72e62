// A definition written by hand whose mode names differ from the item's: `P`'s modes are
// `(thread, zcb76f7cd7adf5f1f)`, the hand-written one's `(z108fc3ecae8ef89a, thread)`. The two
// lists were searched out to hash alike under a 64-bit FNV-1a fingerprint (about 2^32 tries);
// evaluated in `P`'s place, thread 1 would be [1, 5, 9, 13] instead of [4, 5, 6, 7]. The
// 128-bit fingerprint tells them apart: refused at the item's path.
mod m {
    layout_typed::layout! {
        pub const A = (4,4):(4,1), logical -> physical;
        pub const P = (thread: 4, zcb76f7cd7adf5f1f: 4):(4,1), thread-value -> logical;
    }
}

fn main() {
    let _ = layout_typed::layout!(
        [m::P = (z108fc3ecae8ef89a: 4, thread: 4):(4,1), thread-value -> logical]
        restrict(compose(m::A, m::P), thread = 1)
    );
}

// A definition of an item written by hand, as a definition macro writes it but with another
// swizzle (`b = 1`, the same offset range): the item's value is a `Generated` map, whose type
// leaves its program open, and its program's fingerprint ties it to the definition the
// expression evaluates, which is not the item's: refused at the item's path.
mod derived {
    layout_typed::layout! {
        pub const SW = (8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0);
        pub const P = (thread: 16, value: 4):(4,1), thread-value -> logical(8, 8);
        pub const D = compose(SW, P);
    }
}

fn main() {
    let _ = layout_typed::layout!(
        [derived::D = [SW = "(8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 1, src = 3, dst = 0)"]
            [P = "(thread: 16, value: 4):(4,1), thread-value -> logical(8, 8)"]
            compose(SW, P)]
        restrict(derived::D, thread = 5)
    );
    // The same with the definitions as tokens.
    let _ = layout_typed::layout!(
        [derived::D = [SW = (8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 1, src = 3, dst = 0)]
            [P = (thread: 16, value: 4):(4,1), thread-value -> logical(8, 8)]
            compose(SW, P)]
        restrict(derived::D, thread = 5)
    );
    // The item's own definition, written out the same way, is accepted.
    let _ = layout_typed::layout!(
        [derived::D = [SW = "(8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0)"]
            [P = "(thread: 16, value: 4):(4,1), thread-value -> logical(8, 8)"]
            compose(SW, P)]
        restrict(derived::D, thread = 5)
    );
}

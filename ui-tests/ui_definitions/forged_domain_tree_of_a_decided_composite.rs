// `ST = compose(S, T)` is decided to be `(4,(2,2)):(2,(1,8))`: the layout cuts `T`'s second mode
// in two. A definition written by hand whose `T` is refined to `(4,(2,2)):(4,(2,1))` decides to
// the same layout; evaluated in the item's place, `restrict(flatten(m::ST), 1 = 1)` would fix
// another mode. Refused at the item's path.
mod m {
    layout_typed::layout! {
        pub const S = (8,2):(1,8), logical -> physical;
        pub const T = (4,4):(4,1), thread-value -> logical;
        pub const ST = compose(S, T);
    }
}

fn main() {
    let _ = layout_typed::layout!(
        [m::ST = [S = "(8,2):(1,8), logical -> physical"]
            [T = "(4,(2,2)):(4,(2,1)), thread-value -> logical"]
            compose(S, T)]
        restrict(flatten(m::ST), 1 = 1)
    );
}

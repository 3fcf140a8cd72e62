// Definitions of items decided to be layouts, not the items' own (`P`'s mode names swapped), in
// every place an expression can meet one: negative strides, a 32-bit index, a broadcast, a
// private item in its own module, an item of an item, an item defined by such an expression,
// and a `macro_rules!` wrapper. Each is refused at the item's path.
mod m {
    layout_typed::layout! {
        pub const A = (4,4):(4,1), logical -> physical;
        pub const AN = (4,4):(-4,1), logical -> physical;
        pub const A32 = (4,4):(4,1), logical -> physical, index = i32;
        pub const AB = (4,4):(_,1), logical -> physical;
        pub const P = (thread: 4, value: 4):(4,1), thread-value -> logical;
        pub const D = compose(A, P);
        pub(crate) const DN = compose(AN, P);
        pub const D32 = compose(A32, P);
        const DB = compose(AB, P);
        pub const DD = compose(compose(A, [(4,4):(4,1), logical -> logical]), P);
    }

    pub fn private_broadcast() {
        let _ = layout_typed::layout!(
            [DB = [AB = (4,4):(_,1), logical -> physical]
                [P = (value: 4, thread: 4):(4,1), thread-value -> logical]
                compose(AB, P)]
            restrict(DB, thread = 1)
        );
    }
}

mod item {
    layout_typed::layout! {
        pub const T1 = [crate::m::D = [A = "(4,4):(4,1), logical -> physical"]
            [P = "(value: 4, thread: 4):(4,1), thread-value -> logical"]
            compose(A, P)]
            restrict(crate::m::D, thread = 1);
    }
}

macro_rules! thread_of {
    ($p:path, $t:literal) => {
        layout_typed::layout!(
            [$p = [A = (4,4):(4,1), logical -> physical]
                [P = (value: 4, thread: 4):(4,1), thread-value -> logical]
                compose(A, P)]
            restrict($p, thread = $t)
        )
    };
}

fn main() {
    let _ = layout_typed::layout!(
        [m::DN = [AN = (4,4):(-4,1), logical -> physical]
            [P = (value: 4, thread: 4):(4,1), thread-value -> logical]
            compose(AN, P)]
        restrict(m::DN, thread = 1)
    );
    let _ = layout_typed::layout!(
        [m::D32 = [A = "(4,4):(4,1), logical -> physical, index = i32"]
            [P = "(value: 4, thread: 4):(4,1), thread-value -> logical"]
            compose(A, P)]
        restrict(m::D32, thread = 1)
    );
    let _ = layout_typed::layout!(
        [m::DD = [X = [A = (4,4):(4,1), logical -> physical]
                compose(A, [(4,4):(4,1), logical -> logical])]
            [P = (value: 4, thread: 4):(4,1), thread-value -> logical]
            compose(X, P)]
        restrict(m::DD, thread = 1)
    );
    m::private_broadcast();
    let _ = item::T1;
    let _ = thread_of!(m::D, 1);
}

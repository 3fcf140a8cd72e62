//! Items defined by algebra expressions, `layout! { const D = divide(SM, (4, 8)); }`: of every
//! kind of value (an operation's layout, a composite decided to be a layout, a swizzled
//! layout, a swizzled composite and a restriction, both generated), in modules and at the
//! root, each an operand of later items and expressions (by path, through a `use`, as a path
//! alone, an item of an item of an item), and each a type: a struct field, a `static`, a
//! `const`; under `cfg`s (an item compiled out names nothing); and of 2^20 elements, past the
//! typed API's enumeration limit.
//!
//! Every value is compared at every flat index with `layout_tests::expr`, the evaluator
//! written from the specification; the expression trees given to it are the items' own, and
//! each item's expression is also written inline in `layout!` so that the item's type is
//! asserted equal to the expression's (spaces, tiles, names, index type: the same `Layout`
//! associated types).

use layout_tests::expr::{Decl, Entry, Expr, RVal, Sh, Sp, eval};
use layout_typed::prelude::*;
use layout_typed::{IndexType, Layout};

layout! {
    /// Storage, with a narrow index type the items keep.
    pub const SM = (16,32):(32,1), logical -> physical, index = i32;
    /// Threads and values over the 512 elements of `SM`, with named modes.
    pub const TV = (thread: 128, value: 4):(4,1), thread-value -> logical;
    /// A column-major 8×4 tile of threads.
    pub const T32 = (8,4):(1,8), thread-value -> logical;
}

/// Items of every kind of value, defined beside the operands' module.
pub mod m {
    use layout_typed::prelude::*;

    layout! {
        /// An operation's result: a layout.
        pub const D = divide(super::SM, (4, 8));
        /// A composite decided to be a layout, from thread-value into physical (a space pair
        /// no declaration has).
        pub const C = compose(super::SM, super::TV);
        /// A swizzled layout.
        pub const W = swizzle(super::SM, b = 2, src = 5, dst = 0);
        /// A swizzled composite: not a layout, a generated value.
        pub const G = compose(swizzle(super::SM, b = 2, src = 5, dst = 0), super::TV);
        /// An item of the item above, in the same invocation: a restriction.
        pub(crate) const E = restrict(D, rest = 3);
    }
}

use m::D as Tiles;

layout! {
    /// An item of another module's item, through a `use` rename.
    const F = compose(Tiles, TV);
    /// A generated item restricted: generated again.
    const H = restrict(m::G, thread = 5);
    /// A path alone: the same value under another name.
    const K = m::C;
    /// An item of an item of an item.
    const J = compose(m::E, T32);
    /// Compiled out: its operand exists under the same `cfg` only.
    #[cfg(any())]
    const Z = divide(ONLY_WHEN_NEVER, (2, 2));
    /// Two definitions under opposite `cfg`s, one compiled.
    #[cfg(all())]
    const Y = divide(SM, (2, 2));
    #[cfg(not(all()))]
    const Y = divide(SM, (4, 4));
}

layout! {
    /// 2^20 elements, past every enumeration limit of the typed API.
    pub const BIG = (1024,1024):(1024,1), logical -> physical;
    pub const BIG_TV = (thread: 1024, value: 1024):(1,1024), thread-value -> logical;
    /// Decided to be a layout without enumeration.
    const BIG_C = compose(BIG, BIG_TV);
    /// A swizzled composite, generated.
    const BIG_G = compose(swizzle(BIG, b = 3, src = 10, dst = 4), BIG_TV);
}

/// The declarations, for the evaluator.
fn decls() -> Vec<Decl> {
    vec![
        Decl {
            name: "SM".into(),
            shape: Sh::Tuple(vec![Sh::Leaf(16), Sh::Leaf(32)]),
            stride: vec![Some(32), Some(1)],
            names: vec![],
            dom: Sp::Logical,
            cod: Sp::Physical,
            swizzle: None,
        },
        Decl {
            name: "TV".into(),
            shape: Sh::Tuple(vec![Sh::Leaf(128), Sh::Leaf(4)]),
            stride: vec![Some(4), Some(1)],
            names: vec![Some("thread".into()), Some("value".into())],
            dom: Sp::Tv,
            cod: Sp::Logical,
            swizzle: None,
        },
        Decl {
            name: "T32".into(),
            shape: Sh::Tuple(vec![Sh::Leaf(8), Sh::Leaf(4)]),
            stride: vec![Some(1), Some(8)],
            names: vec![],
            dom: Sp::Tv,
            cod: Sp::Logical,
            swizzle: None,
        },
    ]
}

fn sm() -> Box<Expr> {
    Box::new(Expr::Name(0))
}

fn tv() -> Box<Expr> {
    Box::new(Expr::Name(1))
}

fn d() -> Box<Expr> {
    Box::new(Expr::Divide(sm(), vec![4, 8], false))
}

fn c() -> Box<Expr> {
    Box::new(Expr::Compose(sm(), tv()))
}

fn w() -> Box<Expr> {
    Box::new(Expr::Swizzle(sm(), 2, 5, 0))
}

fn g() -> Box<Expr> {
    Box::new(Expr::Compose(w(), tv()))
}

fn e() -> Box<Expr> {
    Box::new(Expr::Restrict(
        d(),
        vec![(Entry::Name("rest".into()), RVal::Int(3))],
    ))
}

#[test]
fn items_past_the_enumeration_limits_equal_the_evaluator() {
    let big = vec![
        Decl {
            name: "BIG".into(),
            shape: Sh::Tuple(vec![Sh::Leaf(1024), Sh::Leaf(1024)]),
            stride: vec![Some(1024), Some(1)],
            names: vec![],
            dom: Sp::Logical,
            cod: Sp::Physical,
            swizzle: None,
        },
        Decl {
            name: "BIG_TV".into(),
            shape: Sh::Tuple(vec![Sh::Leaf(1024), Sh::Leaf(1024)]),
            stride: vec![Some(1), Some(1024)],
            names: vec![Some("thread".into()), Some("value".into())],
            dom: Sp::Tv,
            cod: Sp::Logical,
            swizzle: None,
        },
    ];
    let (l, r) = (Box::new(Expr::Name(0)), Box::new(Expr::Name(1)));
    let c = Expr::Compose(l.clone(), r.clone());
    let g = Expr::Compose(Box::new(Expr::Swizzle(l, 3, 10, 4)), r);
    for (name, got, e) in [("BIG_C", table(&BIG_C), c), ("BIG_G", table(&BIG_G), g)] {
        let want = eval(&e, &big).expect("valid").table;
        assert_eq!(want.len(), 1 << 20);
        assert!(got == want, "{name} differs from the evaluator");
    }
    use std::any::type_name;
    assert!(type_name::<BIG_C>().contains("Static<"));
    assert!(type_name::<BIG_G>().contains("Generated<"));
}

/// The evaluator's table of `e`: the value at every flat index.
fn expected(e: &Expr) -> Vec<i64> {
    eval(e, &decls())
        .unwrap_or_else(|why| panic!("{why}: {}", e.render(&decls())))
        .table
}

/// The offsets of a typed value at every flat index.
fn table<L: Layout>(l: &L) -> Vec<i64> {
    (0..L::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

/// What a typed value's type says of it besides its offsets.
fn signature<L: Layout>(_: &L) -> [&'static str; 8] {
    use std::any::type_name;
    [
        type_name::<L::Form>(),
        type_name::<L::Domain>(),
        type_name::<L::Codomain>(),
        type_name::<L::Size>(),
        type_name::<L::Access>(),
        type_name::<L::DomainTile>(),
        type_name::<L::CodomainTile>(),
        type_name::<L::Index>(),
    ]
}

#[test]
fn items_of_every_kind_of_value_equal_the_evaluator() {
    let cases: [(&str, Vec<i64>, Box<Expr>); 10] = [
        ("D", table(&m::D), d()),
        ("C", table(&m::C), c()),
        ("W", table(&m::W), w()),
        ("G", table(&m::G), g()),
        ("E", table(&m::E), e()),
        ("F", table(&F), Box::new(Expr::Compose(d(), tv()))),
        (
            "H",
            table(&H),
            Box::new(Expr::Restrict(
                g(),
                vec![(Entry::Name("thread".into()), RVal::Int(5))],
            )),
        ),
        ("K", table(&K), c()),
        (
            "Y",
            table(&Y),
            Box::new(Expr::Divide(sm(), vec![2, 2], false)),
        ),
        (
            "J",
            table(&J),
            Box::new(Expr::Compose(e(), Box::new(Expr::Name(2)))),
        ),
    ];
    for (name, got, e) in cases {
        let want = expected(&e);
        assert!(want.len() > 1, "{name}: a value of more than one offset");
        assert_eq!(got, want, "{name} = {}", e.render(&decls()));
    }
    // G is not a layout: its offsets are no sum of per-leaf terms (`G(1) + G(32) − G(0) ≠
    // G(33)`), so it is a generated value, and the layouts are `Static` ones.
    let g = expected(&g());
    assert_ne!(g[1] + g[32] - g[0], g[33], "G is not a layout");
    // The type's name without its path and parameters.
    let of = |t: &str| {
        t.split('<')
            .next()
            .and_then(|p| p.rsplit("::").next())
            .map(str::to_owned)
    };
    use std::any::type_name;
    assert_eq!(of(type_name::<m::D>()).as_deref(), Some("Static"));
    assert_eq!(of(type_name::<m::C>()).as_deref(), Some("Static"));
    assert_eq!(of(type_name::<m::W>()).as_deref(), Some("Swizzled"));
    assert_eq!(of(type_name::<m::G>()).as_deref(), Some("Generated"));
    assert_eq!(of(type_name::<m::E>()).as_deref(), Some("Generated"));
    assert_eq!(of(type_name::<H>()).as_deref(), Some("Generated"));
}

#[test]
fn an_item_has_its_expression_type() {
    // A layout's item is the expression's `Static` type, the same type.
    let _: m::D = layout!(divide(SM, (4, 8)));
    let _: m::C = layout!(compose(SM, TV));
    let _: m::W = layout!(swizzle(SM, b = 2, src = 5, dst = 0));
    let _: K = layout!(compose(SM, TV));
    assert_eq!(signature(&m::D), signature(&layout!(divide(SM, (4, 8)))));
    assert_eq!(signature(&m::C), signature(&layout!(compose(SM, TV))));
    assert_eq!(
        signature(&m::W),
        signature(&layout!(swizzle(SM, b = 2, src = 5, dst = 0)))
    );
    // A generated item: the same form, spaces, tiles and index type as the expression's.
    assert_eq!(
        signature(&m::G),
        signature(&layout!(compose(swizzle(SM, b = 2, src = 5, dst = 0), TV)))
    );
    assert_eq!(
        signature(&m::E),
        signature(&layout!(restrict(divide(SM, (4, 8)), rest = 3)))
    );
    assert_eq!(
        signature(&H),
        signature(&layout!(restrict(
            compose(swizzle(SM, b = 2, src = 5, dst = 0), TV),
            thread = 5
        )))
    );
    // The index type is the left operand's, kept through items of items.
    assert!(signature(&J)[7].ends_with("i32"), "{:?}", signature(&J));
    assert!(signature(&F)[7].ends_with("i32"), "{:?}", signature(&F));
}

#[test]
fn items_are_operands_of_expressions() {
    let want_f = expected(&Expr::Compose(d(), tv()));
    assert_eq!(table(&layout!(compose(m::D, TV))), want_f);
    assert_eq!(table(&layout!(compose(Tiles, TV))), want_f);
    // A path alone, of each kind.
    assert_eq!(table(&layout!(m::C)), expected(&c()));
    assert_eq!(table(&layout!(m::G)), expected(&g()));
    assert_eq!(table(&layout!(K)), expected(&c()));
    // A generated operand restricted, and an operation on a restricted one.
    let h = Expr::Restrict(g(), vec![(Entry::Pos(0), RVal::Int(7))]);
    assert_eq!(table(&layout!(restrict(m::G, 0 = 7))), expected(&h));
    let j = Expr::Compose(e(), Box::new(Expr::Name(2)));
    assert_eq!(table(&layout!(compose(m::E, T32))), expected(&j));
    assert_eq!(table(&layout!(J)), expected(&j));
    // The same value as the expression written inline.
    assert_eq!(
        table(&layout!(compose(m::D, TV))),
        table(&layout!(compose(divide(SM, (4, 8)), TV)))
    );
    // An item operand next to a declared one of the same last name in another module.
    mod other {
        layout_typed::layout! { pub const D = 512:1, logical -> physical; }
    }
    assert_eq!(
        table(&layout!(compose(other::D, [512:1, thread-value -> logical]))),
        (0..512).collect::<Vec<i64>>()
    );
    assert_eq!(table(&layout!(m::D)), expected(&d()));
}

/// Items as types: a struct's fields, a `static`, a `const`, a function's parameter.
struct Kernel {
    tiles: m::D,
    program: m::G,
    slice: H,
}

static PROGRAM: m::G = m::G;
const THREADS: K = K;
static KERNEL: Kernel = Kernel {
    tiles: m::D,
    program: m::G,
    slice: H,
};

fn through(l: m::E) -> Vec<i64> {
    table(&l)
}

#[test]
fn items_are_nameable_types() {
    assert_eq!(table(&KERNEL.tiles), expected(&d()));
    assert_eq!(table(&KERNEL.program), expected(&g()));
    assert_eq!(
        table(&KERNEL.slice),
        expected(&Expr::Restrict(
            g(),
            vec![(Entry::Name("thread".into()), RVal::Int(5))]
        ))
    );
    assert_eq!(table(&PROGRAM), expected(&g()));
    assert_eq!(table(&THREADS), expected(&c()));
    assert_eq!(through(m::E), expected(&e()));
    assert_eq!(std::mem::size_of::<Kernel>(), 0);
    // `to_map` of a generated item rebuilds its map from its expression's text, definitions
    // included.
    let map = PROGRAM.to_map().expect("the item's map");
    let want = expected(&g());
    for (i, &v) in want.iter().enumerate() {
        assert_eq!(map.eval_index(i as i64), Ok(v), "flat index {i}");
    }
}

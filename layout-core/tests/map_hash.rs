//! `Map`'s `Hash` agrees with its `Eq`: maps built twice alike hash alike, also through shared
//! composites, and maps that differ only where a layout's form does not show it (the names of a
//! composite's domain, its tree) hash otherwise. `layout!` fingerprints items with it.

use std::hash::{DefaultHasher, Hash, Hasher};

use layout_core::{Annotated, Map, Space, compose};

fn hash(m: &Map) -> u64 {
    let mut h = DefaultHasher::new();
    m.hash(&mut h);
    h.finish()
}

fn map(text: &str, dom: Space, cod: Space) -> Map {
    Annotated::new(text.parse().expect("a layout"), dom, cod)
        .expect("checked")
        .into()
}

#[test]
fn maps_built_alike_hash_alike() {
    let build = || {
        let a = map("(4,4):(4,1)", Space::Logical, Space::Physical);
        let p = map(
            "(thread: 4, value: 4):(4,1)",
            Space::ThreadValue,
            Space::Logical,
        );
        let b = map("(4,4):(1,4)", Space::Logical, Space::Logical);
        let ab = compose(&a, &b).expect("composable");
        compose(&ab, &p).expect("composable")
    };
    let (x, y) = (build(), build());
    assert_eq!(x, y);
    assert_eq!(hash(&x), hash(&y));
    // A clone shares the composite's operands: the same hash.
    assert_eq!(hash(&x.clone()), hash(&x));
}

#[test]
fn composites_of_one_layout_with_other_domains_hash_otherwise() {
    let a = map("(4,4):(4,1)", Space::Logical, Space::Physical);
    let named = |text: &str| {
        compose(&a, &map(text, Space::ThreadValue, Space::Logical)).expect("composable")
    };
    let d = named("(thread: 4, value: 4):(4,1)");
    let e = named("(value: 4, thread: 4):(4,1)");
    let flat = named("(4,4):(4,1)");
    // The same function on every index.
    for i in 0..16 {
        assert_eq!(d.eval_index(i), e.eval_index(i));
        assert_eq!(d.eval_index(i), flat.eval_index(i));
    }
    assert_ne!(d, e);
    assert_ne!(hash(&d), hash(&e));
    assert_ne!(hash(&d), hash(&flat));
    // The domain refined: (8,2):(1,8) ∘ (4,(2,2)):(4,(2,1)) is (8,2):(1,8) ∘ (4,4):(4,1).
    let s = map("(8,2):(1,8)", Space::Logical, Space::Physical);
    let t1 = compose(&s, &map("(4,4):(4,1)", Space::ThreadValue, Space::Logical)).expect("ok");
    let t2 = compose(
        &s,
        &map("(4,(2,2)):(4,(2,1))", Space::ThreadValue, Space::Logical),
    )
    .expect("ok");
    for i in 0..16 {
        assert_eq!(t1.eval_index(i), t2.eval_index(i));
    }
    assert_ne!(hash(&t1), hash(&t2));
}

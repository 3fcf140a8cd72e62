//! The inherent `offset` of `Static` and `Composed`, which takes the value, called every way a
//! user writes a call: on a value, through `&`, `&&` and `&mut`, on the items of an iterator of
//! references, in generic code, by the type's path (the item's type alias) and by the trait's,
//! with `Layout` in scope or not, and with a user's own trait that has an `offset` method. Every
//! offset is compared with a brute-force evaluator of the declared text written here.

// No prelude: each test brings the traits it wants into scope.
use layout_typed::IndexType;

/// The flat layout `shape:stride` (flat tuples; last leaf fastest) at every flat index.
fn lay(text: &str) -> Vec<i64> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (s, d) = t.split_once(':').expect("shape:stride");
    let nums = |x: &str| -> Vec<i64> {
        x.split(['(', ')', ','])
            .filter(|p| !p.is_empty())
            .map(|p| p.parse().expect("an integer"))
            .collect()
    };
    let (sizes, strides) = (nums(s), nums(d));
    assert_eq!(sizes.len(), strides.len(), "{text}");
    let n: i64 = sizes.iter().product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for (s, d) in sizes.iter().zip(&strides).rev() {
                v += (i % s) * d;
                i /= s;
            }
            v
        })
        .collect()
}

/// `(x ∘ y)(i) = x(y(i))`.
fn comp(x: &[i64], y: &[i64]) -> Vec<i64> {
    y.iter().map(|&i| x[i as usize]).collect()
}

pub mod items {
    layout_typed::layout! {
        pub const S = (4,8):(16,1), logical -> physical;
        pub const B = (8,4):(1,8), logical -> logical;
        pub const N = (4,8):(16,1), logical -> physical, index = i32;
    }
}

const S_T: &str = "(4,8):(16,1)";
const B_T: &str = "(8,4):(1,8)";

/// A user's trait with an `offset` method for every layout, returning values no layout here has.
mod user_trait {
    pub trait MyOffset {
        fn offset(&self, i: usize) -> i64;
    }
    impl<T: layout_typed::Layout> MyOffset for T {
        fn offset(&self, i: usize) -> i64 {
            -1_000 - i as i64
        }
    }
}

/// No trait in scope: the inherent method through every kind of reference, on a `Static` and on
/// a `Composed`, and on the items of an iterator of references.
#[test]
fn through_references_without_a_trait_in_scope() {
    use items::{B, N, S};
    let (s, b) = (lay(S_T), lay(B_T));
    let sb = comp(&s, &b);
    assert_eq!(s.len(), 32);
    let r = &S;
    let rr = &r;
    let mut m = S;
    let mr = &mut m;
    let n = &N;
    let c = layout_typed::compose(S, B);
    let rc = &c;
    let rrc = &rc;
    for i in 0..32usize {
        assert_eq!(S.offset(i), s[i]);
        assert_eq!(r.offset(i), s[i]);
        assert_eq!(rr.offset(i), s[i]);
        assert_eq!(mr.offset(i), s[i]);
        let narrow: i32 = n.offset(i);
        assert_eq!(i64::from(narrow), s[i]);
        assert_eq!(c.offset(i), sb[i]);
        assert_eq!(rc.offset(i), sb[i]);
        assert_eq!(rrc.offset(i), sb[i]);
    }
    // A coordinate (row, column) of the 4×8 domain.
    assert_eq!(r.offset((3usize, 5usize)), 3 * 16 + 5);
    let all = [S, S, S];
    let got: Vec<i64> = all.iter().zip(7usize..).map(|(l, i)| l.offset(i)).collect();
    assert_eq!(got, s[7..10]);
    let cs = [c, c];
    let got: Vec<i64> = cs.iter().map(|l| l.offset(31usize)).collect();
    assert_eq!(got, [sb[31], sb[31]]);
}

/// `Layout` in scope: the same calls (a call through a reference now reaches the trait's method,
/// which must give the inherent method's values).
#[test]
fn through_references_with_layout_in_scope() {
    use items::{B, S};
    use layout_typed::Layout;
    let (s, b) = (lay(S_T), lay(B_T));
    let sb = comp(&s, &b);
    let r = &S;
    let rr = &r;
    let c = layout_typed::compose(S, B);
    let rc = &c;
    for i in 0..32usize {
        assert_eq!(S.offset(i), s[i]);
        assert_eq!(r.offset(i), s[i]);
        assert_eq!(rr.offset(i), s[i]);
        assert_eq!(c.offset(i), sb[i]);
        assert_eq!(rc.offset(i), sb[i]);
        assert_eq!(S.offset_index(i).to_isize() as i64, s[i]);
    }
    let got: Vec<i64> = [S, S].iter().map(|l| l.offset(9usize)).collect();
    assert_eq!(got, [s[9], s[9]]);
}

/// Generic code over `Layout`, over `Copy + Layout` by value, and over references.
#[test]
fn in_generic_code() {
    use items::{B, S};
    fn by_ref<L: layout_typed::Layout>(l: &L, i: usize) -> i64 {
        l.offset(i).to_isize() as i64
    }
    fn by_value<L: layout_typed::Layout>(l: L, i: usize) -> i64 {
        l.offset(i).to_isize() as i64
    }
    fn by_ref_ref<L: layout_typed::Layout>(l: &&L, i: usize) -> i64 {
        l.offset(i).to_isize() as i64
    }
    let (s, b) = (lay(S_T), lay(B_T));
    let sb = comp(&s, &b);
    let c = layout_typed::compose(S, B);
    for i in 0..32usize {
        assert_eq!(by_ref(&S, i), s[i]);
        assert_eq!(by_value(S, i), s[i]);
        assert_eq!(by_ref_ref(&&S, i), s[i]);
        assert_eq!(by_ref(&c, i), sb[i]);
        assert_eq!(by_value(c, i), sb[i]);
    }
}

/// The function written in full: by the item's type alias, by `Static` and by the trait, each
/// taking a reference.
#[test]
fn written_as_paths() {
    use items::{B, S};
    let (s, b) = (lay(S_T), lay(B_T));
    let sb = comp(&s, &b);
    let c = layout_typed::compose(S, B);
    for i in 0..32usize {
        assert_eq!(S::offset(&S, i), s[i]);
        assert_eq!(<S>::offset(&S, i), s[i]);
        assert_eq!(layout_typed::Static::offset(&S, i), s[i]);
        assert_eq!(<S as layout_typed::Layout>::offset(&S, i), s[i]);
        assert_eq!(layout_typed::Layout::offset(&S, i), s[i]);
        assert_eq!(layout_typed::Composed::offset(&c, i), sb[i]);
        assert_eq!(layout_typed::Layout::offset(&c, i), sb[i]);
    }
}

/// A user's trait with an `offset` method in scope, `Layout` not: a call on a value is the
/// library's (the inherent method comes first, as the 0.x changelog promises); naming the trait
/// reaches the user's.
#[test]
fn on_a_value_with_a_user_trait_in_scope() {
    use items::{B, S};
    use user_trait::MyOffset;
    let (s, b) = (lay(S_T), lay(B_T));
    let sb = comp(&s, &b);
    let c = layout_typed::compose(S, B);
    for i in 0..32usize {
        assert_eq!(S.offset(i), s[i]);
        assert_eq!(c.offset(i), sb[i]);
        assert_eq!(MyOffset::offset(&S, i), -1_000 - i as i64);
    }
}

/// The same call through a reference: the inherent method takes `&self`, so it matches the
/// receiver `&Static` before any trait's. Were it to take `self`, it would match only after a
/// dereference, the user's trait method (`&self`) would be found first at `&Static`, and
/// `r.offset(i)` would silently be the user's `-1000 - i` while `S.offset(i)` is the library's.
#[test]
fn through_a_reference_with_a_user_trait_in_scope() {
    use items::{B, S};
    use user_trait::MyOffset;
    let (s, b) = (lay(S_T), lay(B_T));
    let sb = comp(&s, &b);
    let r = &S;
    let c = layout_typed::compose(S, B);
    let rc = &c;
    let all = [S, S];
    for i in 0..32usize {
        assert_eq!(S.offset(i), s[i]);
        assert_eq!(r.offset(i), s[i], "offset {i} through a reference");
        assert_eq!(
            rc.offset(i),
            sb[i],
            "composed offset {i} through a reference"
        );
        let got: Vec<i64> = all.iter().map(|l| l.offset(i)).collect();
        assert_eq!(got, [s[i], s[i]]);
    }
    let _ = MyOffset::offset(&S, 0);
}

// `Layout` (from the prelude) and a user's trait with an `offset(&self)` method, both in scope: a
// call on a value is the inherent method; so must a call through a reference be. The inherent
// method takes `&self`, so it matches the receiver `&Static` before either trait's; were it to
// take `self`, it would match only after a dereference and rustc would refuse the call as
// ambiguous between the two traits (E0034).
use layout_typed::prelude::*;

layout! {
    const S = (4,8):(16,1), logical -> physical;
}

trait MyOffset {
    fn offset(&self, i: usize) -> i64;
}

impl<T: Layout> MyOffset for T {
    fn offset(&self, i: usize) -> i64 {
        -1_000 - i as i64
    }
}

fn main() {
    let r = &S;
    assert_eq!(S.offset(5usize), 5);
    assert_eq!(r.offset(5usize), 5);
    let all = [S, S];
    let sums: i64 = all.iter().map(|l| l.offset(33usize % 32)).sum();
    assert_eq!(sums, 2);
    assert_eq!(MyOffset::offset(&S, 5), -1_005);
}

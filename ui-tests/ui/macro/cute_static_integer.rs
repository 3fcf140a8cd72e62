use layout_typed::layout;

fn main() {
    // CuTe prints static integers as `_8`; they are read under `cute` only.
    let _l = layout!((_8,_4):(_1,_8), logical -> physical);
}

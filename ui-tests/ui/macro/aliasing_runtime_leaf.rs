use layout_typed::layout;

fn main() {
    let ld = 64i64;
    // The run-time leading dimension is checked when the value is built, but the two static
    // modes already overlap: a compile error.
    let _g = layout!(({4}, 4, 8):({ld}, 4, 1), logical -> physical);
}

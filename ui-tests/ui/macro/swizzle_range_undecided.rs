use layout_typed::layout;

fn main() {
    // σ copies the low 20 bits of 3·i to bits 30..50: the largest offset needs the largest low
    // part among the multiples of 3, past what the exact search decides.
    let _d = layout!(1048576:3, logical -> physical, swizzle(b = 20, src = 0, dst = 30));
    let _e = layout!(swizzle([1048576:3, logical -> physical], b = 20, src = 0, dst = 30));
}

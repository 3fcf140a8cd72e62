use layout_typed::layout;

layout! {
    // The chunks of K 1032 bytes apart: not a multiple of 16.
    const TILE = cute ((8,8),(8,2)):((8,64),(1,516)), logical -> physical, wgmma K-major of 16-bit elements;
}

fn main() {}

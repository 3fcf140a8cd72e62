use layout_typed::layout;

layout! {
    pub const G = ({16}, 64):(64, 1), logical -> physical;
}

fn main() {}

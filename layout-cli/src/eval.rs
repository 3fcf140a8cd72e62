//! What `explain` says about a decision of Theorem 1.

use layout_core::{Decision, Layout, Stride, Tree};

/// Why a decision is not a layout, in the core's words (`layout_core::NotLayout`'s `Display`).
pub fn reason(d: &Decision) -> String {
    match &d.result {
        Ok(_) => "a layout".into(),
        Err(n) => n.to_string(),
    }
}

/// The coarsest refinement over the decided coordinates (one mode per coordinate, its pieces
/// slowest first), zero strides as `_`: what Theorem 1 found, without the constant.
pub fn coarsest(d: &Decision) -> Option<Layout> {
    let chains = d.result.as_ref().ok()?;
    let shape = Tree::Tuple(
        chains
            .iter()
            .map(|c| Tree::Tuple(c.shape.iter().map(|&n| Tree::Leaf(n)).collect()))
            .collect(),
    );
    let stride = Tree::Tuple(
        chains
            .iter()
            .map(|c| {
                Tree::Tuple(
                    c.strides
                        .iter()
                        .map(|&s| {
                            Tree::Leaf(if s == 0 {
                                Stride::Broadcast
                            } else {
                                Stride::Int(s)
                            })
                        })
                        .collect(),
                )
            })
            .collect(),
    );
    Layout::new(shape, stride).ok()
}

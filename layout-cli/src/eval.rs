//! What `explain` says about a decision of Theorem 1.

use layout_core::{Decision, Layout, NotLayout, Stride, Tree};

/// Why a decision is not a layout, in words.
pub fn reason(d: &Decision) -> String {
    match &d.result {
        Ok(_) => "a layout".into(),
        Err(NotLayout::Separability { witness }) => format!(
            "Theorem 1: not separable at the coordinate {witness:?}, where f(c) differs from the sum of f along each coordinate"
        ),
        Err(NotLayout::Scan { coordinate, t }) => {
            format!("Theorem 1: the scan of coordinate {coordinate} rejects at t = {t}")
        }
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

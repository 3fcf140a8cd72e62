//! CuTe tilers: the second argument of composition, the divides and the products.

use alloc::vec::Vec;

use super::layout::CuteLayout;

/// A CuTe tiler: a layout, `_` (keep the mode), or a by-mode tuple `<t0,t1,…>` whose `i`-th
/// entry applies to the `i`-th top-level mode (modes past the tuple are kept).
///
/// Text (the corpus's notation): `_`, a layout `4:2`, an integer `n` (the layout `n:1`, as CuTe's
/// integral tilers), `<t0,t1,…>` (entries are tilers again), or a shape tuple `(4,8)` (CuTe's
/// `Shape` tiler, by-mode integers: `<4:1,8:1>`).
///
/// ```
/// use layout_core::cute::Tiler;
/// let t: Tiler = "<3:3,(2,4):(1,8)>".parse()?;
/// assert_eq!(t.to_string(), "<3:3,(2,4):(1,8)>");
/// assert_eq!("(4,8)".parse::<Tiler>()?.to_string(), "<4:1,8:1>");
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tiler {
    /// A layout applied to the whole (sub)layout.
    Layout(CuteLayout),
    /// CuTe's `_`: the (sub)layout is kept as it is.
    Underscore,
    /// A by-mode tuple: entry `i` applies to top-level mode `i`.
    Modes(Vec<Tiler>),
}

impl From<CuteLayout> for Tiler {
    fn from(l: CuteLayout) -> Tiler {
        Tiler::Layout(l)
    }
}

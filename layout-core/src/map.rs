//! Annotated layouts, swizzles and composition as maps (SPEC §2–4, seed 000 Definitions 4–5).

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::error::Error;
use crate::layout::Layout;
use crate::space::{Space, check};
use crate::swizzle::Swizzle;

/// A layout with its two spaces and, on a logical side, an optional tile shape (SPEC §1,
/// "logical index order"), checked by [`Annotated::new`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Annotated {
    layout: Layout,
    domain: Space,
    codomain: Space,
    domain_tile: Option<Vec<i64>>,
    codomain_tile: Option<Vec<i64>>,
}

impl Annotated {
    /// Checks `layout` as a `domain -> codomain` layout ([`check`]).
    ///
    /// # Errors
    /// As [`check`].
    pub fn new(layout: Layout, domain: Space, codomain: Space) -> Result<Annotated, Error> {
        check(&layout, domain, codomain)?;
        Ok(Annotated {
            layout,
            domain,
            codomain,
            domain_tile: None,
            codomain_tile: None,
        })
    }

    /// Attaches tile shapes (seed order, slowest extent first) to the logical sides.
    ///
    /// # Errors
    /// [`Error::TileNotLogical`] for a tile on a side that is not logical, [`Error::TileSize`]
    /// when the extents do not multiply to the layout's size.
    pub fn with_tiles(
        mut self,
        domain_tile: Option<Vec<i64>>,
        codomain_tile: Option<Vec<i64>>,
    ) -> Result<Annotated, Error> {
        for (tile, space) in [(&domain_tile, self.domain), (&codomain_tile, self.codomain)] {
            if let Some(t) = tile {
                check_tile(t, space, self.layout.size())?;
            }
        }
        self.domain_tile = domain_tile;
        self.codomain_tile = codomain_tile;
        Ok(self)
    }

    /// The layout.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

/// Checks a tile shape on a side of the given space and size: only a logical side carries one,
/// and its extents multiply to `size`.
///
/// # Errors
/// [`Error::TileNotLogical`], [`Error::TileSize`] (also when the product overflows).
pub fn check_tile(tile: &[i64], space: Space, size: i64) -> Result<(), Error> {
    if space != Space::Logical {
        return Err(Error::TileNotLogical { space });
    }
    let product = tile.iter().try_fold(
        1i64,
        |acc, &k| if k < 1 { None } else { acc.checked_mul(k) },
    );
    match product {
        Some(p) if p == size => Ok(()),
        Some(p) => Err(Error::TileSize { tile: p, size }),
        None => Err(Error::TileSize { tile: -1, size }),
    }
}

/// Compares the tile shapes of the two sides a composition joins.
///
/// # Errors
/// [`Error::TileMismatch`] at the first differing extent, or when the ranks differ.
pub fn check_same_tile(left: &[i64], right: &[i64]) -> Result<(), Error> {
    if left == right {
        return Ok(());
    }
    let position = left
        .iter()
        .zip(right)
        .position(|(a, b)| a != b)
        .unwrap_or(left.len().min(right.len()));
    Err(Error::TileMismatch {
        left_rank: left.len(),
        right_rank: right.len(),
        position,
        left: left.get(position).copied().unwrap_or(0),
        right: right.get(position).copied().unwrap_or(0),
    })
}

/// A map built from checked layouts: a layout, a swizzle after a map into physical, or a
/// composition (SPEC §4). Evaluated at flat indices of its domain (last mode fastest).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Map {
    /// One annotated layout.
    Layout(Annotated),
    /// `σ ∘ inner`, `inner` into physical.
    Swizzled {
        /// The swizzle.
        swizzle: Swizzle,
        /// The map it follows.
        inner: Box<Map>,
    },
    /// `left ∘ right`: `right` first.
    Composite {
        /// The outer map, domain logical.
        left: Box<Map>,
        /// The inner map, into logical, a dense bijection onto the left domain.
        right: Box<Map>,
    },
}

impl From<Annotated> for Map {
    fn from(a: Annotated) -> Map {
        Map::Layout(a)
    }
}

impl Map {
    /// The space of the domain.
    #[must_use]
    pub fn domain(&self) -> Space {
        match self {
            Map::Layout(a) => a.domain,
            Map::Swizzled { inner, .. } => inner.domain(),
            Map::Composite { right, .. } => right.domain(),
        }
    }

    /// The space of the codomain.
    #[must_use]
    pub fn codomain(&self) -> Space {
        match self {
            Map::Layout(a) => a.codomain,
            Map::Swizzled { .. } => Space::Physical,
            Map::Composite { left, .. } => left.codomain(),
        }
    }

    /// Number of coordinates of the domain.
    #[must_use]
    pub fn size(&self) -> i64 {
        match self {
            Map::Layout(a) => a.layout.size(),
            Map::Swizzled { inner, .. } => inner.size(),
            Map::Composite { right, .. } => right.size(),
        }
    }

    /// The tile shape of the domain, if it carries one.
    #[must_use]
    pub fn domain_tile(&self) -> Option<&[i64]> {
        match self {
            Map::Layout(a) => a.domain_tile.as_deref(),
            Map::Swizzled { inner, .. } => inner.domain_tile(),
            Map::Composite { right, .. } => right.domain_tile(),
        }
    }

    /// The tile shape of the codomain, if it carries one.
    #[must_use]
    pub fn codomain_tile(&self) -> Option<&[i64]> {
        match self {
            Map::Layout(a) => a.codomain_tile.as_deref(),
            Map::Swizzled { .. } => None,
            Map::Composite { left, .. } => left.codomain_tile(),
        }
    }

    /// Whether a swizzle is the last step.
    #[must_use]
    pub fn is_swizzled(&self) -> bool {
        match self {
            Map::Layout(_) => false,
            Map::Swizzled { .. } => true,
            Map::Composite { left, .. } => left.is_swizzled(),
        }
    }

    /// `σ ∘ self`.
    ///
    /// # Errors
    /// [`Error::SwizzleNotPhysical`] unless this map is into physical.
    pub fn swizzle(self, swizzle: Swizzle) -> Result<Map, Error> {
        if self.codomain() != Space::Physical {
            return Err(Error::SwizzleNotPhysical {
                codomain: self.codomain(),
            });
        }
        Ok(Map::Swizzled {
            swizzle,
            inner: Box::new(self),
        })
    }

    /// The value at flat index `index` of the domain.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] outside `[0, size)`.
    pub fn eval_index(&self, index: i64) -> Result<i64, Error> {
        match self {
            Map::Layout(a) => a.layout.eval_index(index),
            Map::Swizzled { swizzle, inner } => Ok(swizzle.apply(inner.eval_index(index)?)),
            Map::Composite { left, right } => left.eval_index(right.eval_index(index)?),
        }
    }
}

/// `left ∘ right` (seed 000, Definition 5; SPEC §4): `right : X -> logical` first, then
/// `left : logical -> Y`, giving `X -> Y`. CuTe: `composition(left, right)`.
///
/// The one precondition is that `right` is a dense bijection onto `[0, size(left))`. Its
/// codomain being logical makes it dense (checked when it was built), so what remains is
/// `size(right) = size(left)`, and equal tile shapes where both sides carry one.
///
/// ```
/// use layout_core::{compose, Annotated, Layout, Map, Space};
/// let smem = Annotated::new("(16,32):(32,1)".parse()?, Space::Logical, Space::Physical)?;
/// let tv = Annotated::new("(128,4):(4,1)".parse()?, Space::ThreadValue, Space::Logical)?;
/// let addr = compose(&smem.into(), &tv.into())?;
/// assert_eq!((addr.domain(), addr.codomain()), (Space::ThreadValue, Space::Physical));
/// assert_eq!(addr.eval_index(5)?, 5);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::RightSwizzled`], [`Error::RightNotLogical`], [`Error::LeftDomainNotLogical`],
/// [`Error::SizeMismatch`], [`Error::TileMismatch`], in that order.
pub fn compose(left: &Map, right: &Map) -> Result<Map, Error> {
    if right.is_swizzled() {
        return Err(Error::RightSwizzled);
    }
    if right.codomain() != Space::Logical {
        return Err(Error::RightNotLogical {
            codomain: right.codomain(),
        });
    }
    if left.domain() != Space::Logical {
        return Err(Error::LeftDomainNotLogical {
            domain: left.domain(),
        });
    }
    if left.size() != right.size() {
        return Err(Error::SizeMismatch {
            left: left.size(),
            right: right.size(),
        });
    }
    if let (Some(l), Some(r)) = (left.domain_tile(), right.codomain_tile()) {
        check_same_tile(l, r)?;
    }
    Ok(Map::Composite {
        left: Box::new(left.clone()),
        right: Box::new(right.clone()),
    })
}

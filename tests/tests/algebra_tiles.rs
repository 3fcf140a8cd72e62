//! Algebra results keep or recompute the tile shapes of their operands' logical sides, so the
//! rule that composed logical sides index the same tile still applies after an operation:
//!
//! - `divide_modes` (the same function on flat indices) and `swizzle` keep both tiles;
//! - `divide` keeps the codomain's; a domain tile equal to the top-level sizes `(n_i)` becomes
//!   `(k_i.., n_i/k_i..)`, the order of the `(tile, rest)` groups;
//! - `repeat(L, A)` puts `size(A)` first on each tiled logical side, `interleave` last;
//! - `broadcast(L, S)` puts `size(S)` first on the domain;
//! - `inverse` exchanges the two sides with their tiles (so `inverse(inverse(C))` is `C`'s);
//! - `restrict` keeps the free entries' extents of a domain tile equal to the top-level sizes;
//! - `compose` takes the right operand's domain tile and the left operand's codomain tile, also
//!   when the composite is not a layout (a generated type).
//!
//! Each expected tile is written out here from those definitions.

use layout_typed::Layout;
use layout_typed::prelude::*;

fn tiles<T: Layout>(_: T) -> (String, String) {
    let short = |s: &str| s.rsplit("::").next().unwrap_or(s).to_owned();
    (
        short(std::any::type_name::<T::DomainTile>()),
        short(std::any::type_name::<T::CodomainTile>()),
    )
}

fn pair(d: &str, c: &str) -> (String, String) {
    (d.to_owned(), c.to_owned())
}

layout! {
    /// Thread-value layout over a 16×8 tile (seed order).
    const C = (thread: 16, value: 8):(8,1), thread-value -> logical(16, 8);
    /// A logical permutation with both tiles.
    const LL = (16,8):(1,16), logical(16, 8) -> logical(8, 16);
    /// Storage over a 16×8 tile.
    const G = (16,8):(8,1), logical(16, 8) -> physical;
    /// Four 16×8 stages.
    const G3 = (4,16,8):(128,8,1), logical(4, 16, 8) -> physical;
}

#[test]
fn restrict_keeps_the_free_entries_tile() {
    assert_eq!(
        tiles(layout!(restrict(G3, 0 = 1))),
        pair("Tile2<16, 8>", "NoTile")
    );
    assert_eq!(
        tiles(layout!(restrict(G3, 0 = 1, 1 = 3))),
        pair("Tile1<8>", "NoTile")
    );
}

#[test]
fn divide_modes_keeps_both_tiles() {
    assert_eq!(
        tiles(layout!(divide_modes(C, (4, 2)))),
        pair("NoTile", "Tile2<16, 8>")
    );
    assert_eq!(
        tiles(layout!(divide_modes(LL, (4, 2)))),
        pair("Tile2<16, 8>", "Tile2<8, 16>")
    );
}

#[test]
fn divide_recomputes_the_domain_tile() {
    assert_eq!(
        tiles(layout!(divide(LL, (4, 2)))),
        pair("Tile4<4, 2, 4, 4>", "Tile2<8, 16>")
    );
    assert_eq!(
        tiles(layout!(divide(G, (2, 8)))),
        pair("Tile4<2, 8, 8, 1>", "NoTile")
    );
    assert_eq!(
        tiles(layout!(divide(C, (4, 2)))),
        pair("NoTile", "Tile2<16, 8>")
    );
}

#[test]
fn repeat_and_interleave_extend_the_tiles() {
    assert_eq!(
        tiles(layout!(repeat(LL, (3):(1)))),
        pair("Tile3<3, 16, 8>", "Tile3<3, 8, 16>")
    );
    assert_eq!(
        tiles(layout!(interleave(LL, (3):(1)))),
        pair("Tile3<16, 8, 3>", "Tile3<8, 16, 3>")
    );
    assert_eq!(
        tiles(layout!(repeat(G, (2):(1)))),
        pair("Tile3<2, 16, 8>", "NoTile")
    );
}

#[test]
fn broadcast_extends_the_domain_tile() {
    assert_eq!(
        tiles(layout!(broadcast(G, (4)))),
        pair("Tile3<4, 16, 8>", "NoTile")
    );
}

#[test]
fn inverse_exchanges_the_tiles() {
    assert_eq!(tiles(layout!(inverse(C))), pair("Tile2<16, 8>", "NoTile"));
    assert_eq!(tiles(layout!(inverse(inverse(C)))), tiles(C));
    assert_eq!(
        tiles(layout!(inverse(LL))),
        pair("Tile2<8, 16>", "Tile2<16, 8>")
    );
}

#[test]
fn swizzle_and_compose_keep_the_tiles() {
    assert_eq!(
        tiles(layout!(swizzle(G, b = 1, src = 4, dst = 0))),
        pair("Tile2<16, 8>", "NoTile")
    );
    // A composite that is not a layout (a generated type) keeps the left operand's codomain
    // tile.
    let not_a_layout = layout!(compose(
        [(6,4):(1,6), logical(6, 4) -> logical(4, 6)],
        [(3,8):(1,3), thread-value -> logical(6, 4)]
    ));
    assert!(std::any::type_name_of_val(&not_a_layout).contains("__LayoutExpr"));
    assert_eq!(tiles(not_a_layout), pair("NoTile", "Tile2<4, 6>"));
    assert_eq!(tiles(layout!(compose(G, C))), pair("NoTile", "NoTile"));
}

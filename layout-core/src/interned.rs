//! Names for the common type-level numbers of the typed surface (an implementation detail of
//! `layout!` and `layout-typed`, hidden from the documentation).
//!
//! `layout!` writes a layout's type with const generic arguments (`Dim<4, 1>`, `Size<32>`,
//! `Tile2<8, 4>`). rustc lowers every literal const argument as a constant of its own (a body it
//! type-checks and evaluates), in every type the expansion writes, and that lowering is most of
//! the time `cargo check` spends on `layout!`. `layout-typed` therefore declares, once, a type
//! alias for each of these leaves and markers whose numbers are powers of two, which most GPU
//! layouts' sizes and strides are (`layout_typed::__n::D4_1` is `Dim<4, 1>`); the expansion
//! names the alias where there is one and writes the literals otherwise. The alias is the same
//! type: error messages and type names print `Dim<4, 1>`. Only what prints a type alias as
//! written shows the names (rustdoc of a `pub` item's alias: `Static<(D4_1, ..), ..>`).
//!
//! This module is the one definition of which aliases exist: `layout!` asks it for a name, and
//! `layout-typed`'s alias file is checked against [`declarations`] by a test.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Leaf sizes with an alias: `2^0 ..= 2^12`.
pub const SIZE_LOG2_MAX: u32 = 12;
/// Strides with an alias: `±2^0 ..= ±2^20`.
pub const STRIDE_LOG2_MAX: u32 = 20;
/// `Size` markers with an alias: `2^0 ..= 2^24`.
pub const TOTAL_LOG2_MAX: u32 = 24;
/// `Tile2` extents with an alias: `2^0 ..= 2^12` each.
pub const TILE_LOG2_MAX: u32 = 12;

/// `Some(k)` when `n = 2^k` with `k <= max`.
fn log2_at_most(n: i64, max: u32) -> Option<u32> {
    let k = n.trailing_zeros();
    (n > 0 && n.count_ones() == 1 && k <= max).then_some(k)
}

/// The alias of `Dim<n, d>` (`D4_1`, `D4_m2` for a stride of -2), if there is one.
#[must_use]
pub fn dim(n: i64, d: i64) -> Option<String> {
    log2_at_most(n, SIZE_LOG2_MAX)?;
    log2_at_most(d.checked_abs()?, STRIDE_LOG2_MAX)?;
    Some(if d < 0 {
        format!("D{n}_m{}", d.unsigned_abs())
    } else {
        format!("D{n}_{d}")
    })
}

/// The alias of `Bcast<n>` (`B4`), if there is one.
#[must_use]
pub fn bcast(n: i64) -> Option<String> {
    log2_at_most(n, SIZE_LOG2_MAX).map(|_| format!("B{n}"))
}

/// The alias of `Size<n>` (`S32`), if there is one.
#[must_use]
pub fn size(n: i64) -> Option<String> {
    log2_at_most(n, TOTAL_LOG2_MAX).map(|_| format!("S{n}"))
}

/// The alias of `Tile2<a, b>` (`T8_4`), if there is one.
#[must_use]
pub fn tile2(a: i64, b: i64) -> Option<String> {
    log2_at_most(a, TILE_LOG2_MAX)?;
    log2_at_most(b, TILE_LOG2_MAX)?;
    Some(format!("T{a}_{b}"))
}

/// Every alias as `(name, type)`, the type written with the names `Dim`, `Bcast`, `Size` and
/// `Tile2` in scope: the contents of `layout-typed`'s alias module, in order.
#[must_use]
pub fn declarations() -> Vec<(String, String)> {
    // Every exponent is at most 24: the shifts stay far inside i64.
    let pow = |max: u32| (0..=max).map(|k| 1i64 << k);
    let mut out = Vec::new();
    for n in pow(SIZE_LOG2_MAX) {
        for d in pow(STRIDE_LOG2_MAX) {
            for d in [Some(d), d.checked_neg()].into_iter().flatten() {
                let ty = if d < 0 {
                    format!("Dim<{n}, {{ {d} }}>")
                } else {
                    format!("Dim<{n}, {d}>")
                };
                out.extend(dim(n, d).map(|name| (name, ty)));
            }
        }
        out.extend(bcast(n).map(|name| (name, format!("Bcast<{n}>"))));
    }
    for n in pow(TOTAL_LOG2_MAX) {
        out.extend(size(n).map(|name| (name, format!("Size<{n}>"))));
    }
    for a in pow(TILE_LOG2_MAX) {
        for b in pow(TILE_LOG2_MAX) {
            out.extend(tile2(a, b).map(|name| (name, format!("Tile2<{a}, {b}>"))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_numbers_and_stop_at_the_bounds() {
        assert_eq!(dim(4, 1).as_deref(), Some("D4_1"));
        assert_eq!(dim(4096, -(1 << 20)).as_deref(), Some("D4096_m1048576"));
        assert_eq!(dim(8192, 1), None);
        assert_eq!(dim(4, 1 << 21), None);
        assert_eq!(dim(3, 1), None);
        assert_eq!(dim(4, 0), None);
        assert_eq!(dim(4, 6), None);
        assert_eq!(dim(4, i64::MIN), None);
        assert_eq!(dim(0, 1), None);
        assert_eq!(bcast(16).as_deref(), Some("B16"));
        assert_eq!(bcast(12), None);
        assert_eq!(size(1 << 24).as_deref(), Some("S16777216"));
        assert_eq!(size(1 << 25), None);
        assert_eq!(tile2(8, 4).as_deref(), Some("T8_4"));
        assert_eq!(tile2(8, 8192), None);
    }

    /// Every alias's name, read back into numbers, is the type it declares.
    #[test]
    fn every_name_reads_back_as_its_type() {
        for (name, ty) in declarations() {
            let (kind, rest) = name.split_at(1);
            let num = |t: &str| -> i64 {
                t.strip_prefix('m')
                    .map_or_else(|| t.parse().unwrap(), |t| -t.parse::<i64>().unwrap())
            };
            let want = match (kind, rest.split_once('_')) {
                ("D", Some((n, d))) => {
                    let (n, d) = (num(n), num(d));
                    assert_eq!(dim(n, d).as_deref(), Some(name.as_str()));
                    if d < 0 {
                        format!("Dim<{n}, {{ {d} }}>")
                    } else {
                        format!("Dim<{n}, {d}>")
                    }
                }
                ("T", Some((a, b))) => format!("Tile2<{}, {}>", num(a), num(b)),
                ("B", None) => format!("Bcast<{}>", num(rest)),
                ("S", None) => format!("Size<{}>", num(rest)),
                _ => panic!("unexpected alias {name}"),
            };
            assert_eq!(ty, want, "{name}");
        }
    }

    #[test]
    fn declarations_are_every_alias_once() {
        let all = declarations();
        // 13 sizes × 21 strides × 2 signs, 13 broadcasts, 25 sizes, 13 × 13 tiles.
        assert_eq!(all.len(), 13 * 21 * 2 + 13 + 25 + 13 * 13);
        let mut names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(all.contains(&("D2_m4".into(), "Dim<2, { -4 }>".into())));
    }
}

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
//! The same holds for the layout type itself: `Static<F, Spec<D, C, Sz, Acc, DT, CT, I>>` has
//! ten paths for rustc to resolve and lower, of which six (the spaces, the access and the index
//! type) take few values. `layout-typed` declares one generic alias per combination of those,
//! open in the other four (`__n::Static_TvL_i64<F, Sz, DT, CT>` is
//! `Static<F, Spec<ThreadValueSpace, LogicalSpace, Sz, Exclusive, DT, CT, i64>>`;
//! [`static_spec`]), and `layout!` writes a layout's type through it.
//!
//! This module is the one definition of which aliases exist: `layout!` asks it for a name, and
//! `layout-typed`'s alias file is checked against [`declarations`] and [`static_declarations`]
//! by a test.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::{IntType, Space};

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

/// The spaces, the access and the index types of [`static_spec`]'s aliases, in declaration order.
const SPACES: [Space; 3] = [Space::Logical, Space::ThreadValue, Space::Physical];
const INDEX_TYPES: [IntType; 4] = [IntType::I32, IntType::I64, IntType::U32, IntType::Usize];

/// The short name of a space in an alias (`L`, `Tv`, `P`) and its marker type.
fn space_names(s: Space) -> (&'static str, &'static str) {
    match s {
        Space::Logical => ("L", "LogicalSpace"),
        Space::ThreadValue => ("Tv", "ThreadValueSpace"),
        Space::Physical => ("P", "PhysicalSpace"),
    }
}

/// The Rust name of an index type.
fn index_name(i: IntType) -> &'static str {
    match i {
        IntType::I32 => "i32",
        IntType::I64 => "i64",
        IntType::U32 => "u32",
        IntType::Usize => "usize",
    }
}

/// The alias of `Static<F, Spec<D, C, Sz, Acc, DT, CT, I, NAMES>>` open in `F, Sz, DT, CT` and
/// `NAMES` (default 0), for the domain `D`, codomain `C`, access (`ReadOnly` when `read_only`,
/// else `Exclusive`) and index type `I`: `Static_TvL_i64`, `Static_LP_ro_u32`. Every
/// combination has one.
#[must_use]
pub fn static_spec(domain: Space, codomain: Space, read_only: bool, index: IntType) -> String {
    let ro = if read_only { "_ro" } else { "" };
    format!(
        "Static_{}{}{ro}_{}",
        space_names(domain).0,
        space_names(codomain).0,
        index_name(index)
    )
}

/// Every alias of [`static_spec`] as `(name, type)`, both with the parameters
/// `F, Sz, DT, CT, NAMES`
/// (`("Static_TvL_i64<F, Sz, DT, CT, const NAMES: u128 = 0>", "Static<F, Spec<ThreadValueSpace, ..>>")`),
/// the type written with the names of `layout-typed` in scope, in order.
#[must_use]
pub fn static_declarations() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in SPACES {
        for c in SPACES {
            for read_only in [false, true] {
                for i in INDEX_TYPES {
                    let access = if read_only { "ReadOnly" } else { "Exclusive" };
                    out.push((
                        format!(
                            "{}<F, Sz, DT, CT, const NAMES: u128 = 0>",
                            static_spec(d, c, read_only, i)
                        ),
                        format!(
                            "Static<F, Spec<{}, {}, Sz, {access}, DT, CT, {}, NAMES>>",
                            space_names(d).1,
                            space_names(c).1,
                            index_name(i)
                        ),
                    ));
                }
            }
        }
    }
    out
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
    fn static_aliases_name_every_combination_once() {
        assert_eq!(
            static_spec(Space::ThreadValue, Space::Logical, false, IntType::I64),
            "Static_TvL_i64"
        );
        assert_eq!(
            static_spec(Space::Logical, Space::Physical, true, IntType::U32),
            "Static_LP_ro_u32"
        );
        let all = static_declarations();
        assert_eq!(all.len(), 3 * 3 * 2 * 4);
        let mut names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(all.contains(&(
            "Static_PTv_ro_usize<F, Sz, DT, CT, const NAMES: u128 = 0>".into(),
            "Static<F, Spec<PhysicalSpace, ThreadValueSpace, Sz, ReadOnly, DT, CT, usize, NAMES>>"
                .into()
        )));
        // Every name reads back as its type: the letters of the spaces, the access, the index.
        for (name, ty) in &all {
            let name = name
                .strip_suffix("<F, Sz, DT, CT, const NAMES: u128 = 0>")
                .unwrap();
            let mut found = 0;
            for d in SPACES {
                for c in SPACES {
                    for ro in [false, true] {
                        for i in INDEX_TYPES {
                            if static_spec(d, c, ro, i) == name {
                                found += 1;
                                let (_, dn) = space_names(d);
                                let (_, cn) = space_names(c);
                                assert!(ty.contains(&format!("<{dn}, {cn}, Sz, ")), "{ty}");
                                assert_eq!(ty.contains("ReadOnly"), ro, "{ty}");
                                assert!(
                                    ty.ends_with(&format!(", {}, NAMES>>", index_name(i))),
                                    "{ty}"
                                );
                            }
                        }
                    }
                }
            }
            assert_eq!(found, 1, "{name}");
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

//! `src/interned.rs`, the aliases of common type-level numbers that `layout!` names, is written
//! from `layout_core::interned::declarations` (the one definition of which aliases exist):
//! `UPDATE_INTERNED=1 cargo test -p layout-typed --test interned` writes it, and otherwise this
//! test fails when the file differs from what it would write.

use std::fmt::Write as _;

fn contents() -> String {
    let mut s = String::from(
        "//! Written by `UPDATE_INTERNED=1 cargo test -p layout-typed --test interned` from\n\
         //! `layout_core::interned::declarations`, which says why they exist. Do not edit.\n\n\
         use crate::{\n    Bcast, Dim, Exclusive, LogicalSpace, PhysicalSpace, ReadOnly, Size, Spec, Static,\n    ThreadValueSpace, Tile2,\n};\n\n",
    );
    for (name, ty) in layout_core::interned::declarations() {
        writeln!(s, "pub type {name} = {ty};").expect("a String takes every write");
    }
    // As rustfmt writes them: a declaration longer than a line breaks after `=`.
    for (name, ty) in layout_core::interned::static_declarations() {
        let line = format!("pub type {name} = {ty};");
        if line.len() <= 100 {
            writeln!(s, "{line}").expect("a String takes every write");
        } else {
            writeln!(s, "pub type {name} =\n    {ty};").expect("a String takes every write");
        }
    }
    s
}

#[test]
fn the_alias_file_is_what_the_core_declares() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/interned.rs");
    let want = contents();
    if std::env::var_os("UPDATE_INTERNED").is_some() {
        std::fs::write(path, &want).expect("write src/interned.rs");
    }
    let have = std::fs::read_to_string(path).expect("read src/interned.rs");
    assert!(
        have == want,
        "src/interned.rs differs from layout_core::interned::declarations(): run \
         `UPDATE_INTERNED=1 cargo test -p layout-typed --test interned`"
    );
}

/// Every alias names the type it says: `D4_m2` is `Dim<4, -2>` and so on, through the aliases'
/// own numbers read back by the type system.
#[test]
fn aliases_are_the_types_they_name() {
    use layout_typed::__n;
    use layout_typed::{Bcast, Dim, Size, Tile2};
    fn same<T: 'static, U: 'static>() -> bool {
        std::any::TypeId::of::<T>() == std::any::TypeId::of::<U>()
    }
    assert!(same::<__n::D4_1, Dim<4, 1>>());
    assert!(same::<__n::D4096_m1048576, Dim<4096, -1048576>>());
    assert!(same::<__n::D1_m1, Dim<1, -1>>());
    assert!(same::<__n::B8, Bcast<8>>());
    assert!(same::<__n::S16777216, Size<16777216>>());
    assert!(same::<__n::T1_4096, Tile2<1, 4096>>());
    assert!(!same::<__n::D4_1, Dim<4, -1>>());
    use layout_typed::{
        Exclusive, LogicalSpace, NoTile, PhysicalSpace, ReadOnly, Spec, Static, ThreadValueSpace,
    };
    assert!(same::<
        __n::Static_TvL_i64<__n::D4_1, __n::S4, NoTile, __n::T4_1>,
        Static<
            Dim<4, 1>,
            Spec<ThreadValueSpace, LogicalSpace, Size<4>, Exclusive, NoTile, Tile2<4, 1>, i64>,
        >,
    >());
    assert!(same::<
        __n::Static_LP_ro_u32<__n::B8, __n::S8, NoTile, NoTile>,
        Static<Bcast<8>, Spec<LogicalSpace, PhysicalSpace, Size<8>, ReadOnly, NoTile, NoTile, u32>>,
    >());
    assert!(!same::<
        __n::Static_LP_i64<__n::B8, __n::S8, NoTile, NoTile>,
        Static<Bcast<8>, Spec<LogicalSpace, PhysicalSpace, Size<8>, ReadOnly, NoTile, NoTile, i64>>,
    >());
}

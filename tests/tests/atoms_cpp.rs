//! Every atom of `layout_typed::atoms` against CuTe C++ over the CUTLASS 4.2 headers.
//!
//! `tests/cpp/atoms.cpp` prints, for every atom, CuTe's text of each layout and the value CuTe
//! computes at every integral coordinate (for a shared-memory atom: the element offset of a
//! tensor over a shared-memory pointer, where CuTe applies the swizzle). This file
//!
//! - compares every constant, the ones declared from the corpus and the generated ones, with
//!   those values at every coordinate, and checks its classification: a dense bijection
//!   (`thread-value -> ..`, `Exclusive`) exactly where CuTe's values are a permutation of
//!   `0..size`; otherwise a read-only broadcast (`logical -> physical`, `ReadOnly`) whose `_DENSE`
//!   part equals CuTe's values with the stride-0 digits dropped from the coordinate (a
//!   brute-force walk over the leaves of CuTe's text, read by `layout_tests::CuteText`);
//! - checks that every atom of the printout has a module and every constant a printed layout;
//! - writes `layout-typed/src/atoms/generated.rs` (the atoms not declared from the corpus) and
//!   `tests/tests/atoms_cpp/generated.rs` (the list of their constants for the comparison) from
//!   the printout under `UPDATE_ATOMS=1`, and otherwise fails when either differs from what it
//!   would write (`UPDATE_ATOMS=1 cargo test -p layout-tests --test atoms_cpp`);
//! - checks `bits_to_elements` against `Copy_Atom<OP, T>`'s element layouts.
//!
//! Without the headers every test is skipped (a failure under `CI=true`).

use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

use layout_tests::{CuteText, Nest, cute_cpp, workspace_root};
use layout_typed::atoms::{self, bits_to_elements};
use layout_typed::{
    Exclusive, IndexType, Layout, LogicalSpace, PhysicalSpace, ReadOnly, SwizzledPhysicalSpace,
    ThreadValueSpace, TileMarker,
};

#[path = "atoms_cpp/generated.rs"]
mod generated;

// ---------------------------------------------------------------------------------------------
// The printout.

/// One printed layout: CuTe's text and its values at every integral coordinate.
#[derive(Debug)]
struct Printed {
    text: String,
    offsets: Vec<i64>,
}

/// One atom of the printout.
#[derive(Debug, Default)]
struct Atom {
    kind: String,
    module: String,
    name: String,
    header: String,
    /// `Shape_MNK` of an MMA atom.
    mnk: Option<(i64, i64, i64)>,
    /// A copy atom's value type and its bits.
    value: Option<(String, i64)>,
    /// A shared-memory atom's `Swizzle<B,M,S>` and element bits.
    swizzle: Option<(i64, i64, i64, i64)>,
    layouts: BTreeMap<String, Printed>,
}

fn nums(it: &mut std::str::SplitWhitespace<'_>, line: &str) -> Vec<i64> {
    it.map(|x| x.parse().unwrap_or_else(|_| panic!("`{x}` in `{line}`")))
        .collect()
}

fn parse(out: &str) -> Vec<Atom> {
    let mut atoms = Vec::new();
    let mut cur: Option<Atom> = None;
    for line in out.lines() {
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        let a = if tag == "atom" {
            assert!(cur.is_none(), "`atom` inside an atom: {line}");
            let f: Vec<&str> = rest.splitn(3, ' ').collect();
            cur = Some(Atom {
                kind: f[0].to_string(),
                module: f[1].to_ascii_lowercase(),
                name: f[2].to_string(),
                ..Atom::default()
            });
            continue;
        } else {
            cur.as_mut()
                .unwrap_or_else(|| panic!("outside an atom: {line}"))
        };
        let mut it = rest.split_whitespace();
        match tag {
            "header" => a.header = rest.to_string(),
            "shape" => {
                let v = nums(&mut it, line);
                a.mnk = Some((v[0], v[1], v[2]));
            }
            "value" => {
                let f: Vec<&str> = rest.split(' ').collect();
                a.value = Some((f[0].to_string(), f[1].parse().expect("bits")));
            }
            "swizzle" => {
                let v = nums(&mut it, line);
                a.swizzle = Some((v[0], v[1], v[2], v[3]));
            }
            "text" => {
                let (key, text) = rest.split_once(' ').expect("text KEY TEXT");
                let old = a.layouts.insert(
                    key.to_string(),
                    Printed {
                        text: text.to_string(),
                        offsets: Vec::new(),
                    },
                );
                assert!(old.is_none(), "{}: two texts {key}", a.module);
            }
            "offsets" => {
                let key = it.next().expect("key");
                let v = nums(&mut it, line);
                let p = a
                    .layouts
                    .get_mut(key)
                    .unwrap_or_else(|| panic!("{}: offsets of {key} before its text", a.module));
                assert_eq!(v[0] as usize, v.len() - 1, "{}.{key}: count", a.module);
                p.offsets = v[1..].to_vec();
            }
            "end" => atoms.push(cur.take().expect("an atom")),
            _ => panic!("unknown line `{line}`"),
        }
    }
    assert!(cur.is_none(), "the printout ends inside an atom");
    atoms
}

/// The printout of `tests/cpp/atoms.cpp`, compiled and run once; `None` without the headers.
fn printout() -> Option<&'static [Atom]> {
    static P: OnceLock<Option<Vec<Atom>>> = OnceLock::new();
    P.get_or_init(|| {
        cute_cpp::run("atoms", include_str!("../cpp/atoms.cpp")).map(|out| parse(&out))
    })
    .as_deref()
}

/// CuTe's text without the `_` of static integers, read by the independent parser.
fn cute_text(text: &str) -> CuteText {
    let t = text.replace('_', "");
    CuteText::parse(&t).unwrap_or_else(|| panic!("not a layout: `{text}`"))
}

// ---------------------------------------------------------------------------------------------
// The typed constants.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// `thread-value -> logical` or `thread-value -> thread-value`, `Exclusive`.
    Dense,
    /// `logical -> physical`, `ReadOnly`: a broadcast.
    Broadcast,
    /// `logical -> physical` (swizzled or not), `Exclusive`: a storage layout.
    Storage,
}

fn is<A: 'static, B: 'static>() -> bool {
    TypeId::of::<A>() == TypeId::of::<B>()
}

fn class_of<L: Layout>(_: &L) -> Class
where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
{
    let tv = is::<L::Domain, ThreadValueSpace>()
        && (is::<L::Codomain, LogicalSpace>() || is::<L::Codomain, ThreadValueSpace>())
        && is::<L::Access, Exclusive>();
    let lp = is::<L::Domain, LogicalSpace>()
        && (is::<L::Codomain, PhysicalSpace>() || is::<L::Codomain, SwizzledPhysicalSpace>());
    match (tv, lp) {
        (true, false) => Class::Dense,
        (false, true) if is::<L::Access, ReadOnly>() => Class::Broadcast,
        (false, true) if is::<L::Access, Exclusive>() => Class::Storage,
        _ => panic!(
            "neither a dense, broadcast nor storage atom type: {} -> {}, {}",
            std::any::type_name::<L::Domain>(),
            std::any::type_name::<L::Codomain>(),
            std::any::type_name::<L::Access>()
        ),
    }
}

fn tiles<L: Layout>(_: &L) -> (Option<Vec<i64>>, Option<Vec<i64>>) {
    (L::DomainTile::extents(), L::CodomainTile::extents())
}

/// One typed constant, type-erased.
struct Typed {
    name: &'static str,
    size: usize,
    eval: Box<dyn Fn(usize) -> i64>,
    class: Class,
    tiles: (Option<Vec<i64>>, Option<Vec<i64>>),
}

fn typed<L: Layout + Copy + 'static>(name: &'static str, l: L) -> Typed
where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
{
    Typed {
        name,
        size: L::SIZE,
        eval: Box::new(move |i| l.offset_index(i).to_isize() as i64),
        class: class_of(&l),
        tiles: tiles(&l),
    }
}

/// A constant compared with printed layout `key`, with its dense part where it is a broadcast.
struct Check {
    key: &'static str,
    whole: Typed,
    dense: Option<Typed>,
}

/// The constants of one module.
struct ModuleChecks {
    module: &'static str,
    checks: Vec<Check>,
}

/// `atom_checks!(module { CONST = "Key" [/ DENSE], .. } ..)`: the checks of these modules.
macro_rules! atom_checks {
    ($( $m:ident { $( $c:ident = $key:literal $(/ $d:ident)? ),+ $(,)? } )*) => {{
        vec![$(
            ModuleChecks {
                module: stringify!($m),
                checks: vec![$(
                    Check {
                        key: $key,
                        whole: typed(stringify!($c), atoms::$m::$c),
                        dense: None $(.or(Some(typed(stringify!($d), atoms::$m::$d))))?,
                    },
                )+],
            },
        )*]
    }};
}
pub(crate) use atom_checks;

/// The constants declared from the corpus (`src/atoms/{sm80,sm90,copy}.rs`) that the printout
/// also holds. Their `_B16` layouts are compared with `Copy_Atom<OP, half_t>`'s `ValLayout*`.
fn corpus_checks() -> Vec<ModuleChecks> {
    atom_checks! {
        sm80_16x8x8_f16f16f16f16_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x8_f32f16f16f32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x16_f32f16f16f32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x16_f32bf16bf16f32_tn {
            THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout"
        }
        sm80_16x8x4_f32tf32tf32f32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x8_f32tf32tf32f32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x16_s32s8s8s32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x32_s32s8s8s32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_8x8x4_f64f64f64f64_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x64_s32s4s4s32_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm80_16x8x256_s32u1u1s32_tn_xorpopc {
            THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout"
        }
        sm90_16x8x4_f64f64f64f64_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm90_16x8x8_f64f64f64f64_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm90_16x8x16_f64f64f64f64_tn { THR = "ThrID", A = "ALayout", B = "BLayout", C = "CLayout" }
        sm90_64x128x32_s32s8s8_ss_tn {
            THR = "ThrID", A = "ALayout" / A_DENSE, B = "BLayout" / B_DENSE, C = "CLayout"
        }
        sm90_64x128x32_s32s8s8_rs_tn {
            THR = "ThrID", A = "ALayout", B = "BLayout" / B_DENSE, C = "CLayout"
        }
        sm90_64x128x32_f32e4m3e4m3_ss_tn {
            THR = "ThrID", A = "ALayout" / A_DENSE, B = "BLayout" / B_DENSE, C = "CLayout"
        }
        sm90_64x64x16_f32f16f16_ss_k_k {
            THR = "ThrID", A = "ALayout" / A_DENSE, B = "BLayout" / B_DENSE, C = "CLayout"
        }
        sm90_64x128x16_f32f16f16_ss_k_k {
            THR = "ThrID", A = "ALayout" / A_DENSE, B = "BLayout" / B_DENSE, C = "CLayout"
        }
        sm90_64x128x16_f32f16f16_rs_k_k {
            THR = "ThrID", A = "ALayout", B = "BLayout" / B_DENSE, C = "CLayout"
        }
        sm75_u32x2_ldsm_n {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc" / SRC_B16_DENSE,
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm75_u16x2_ldsm_t {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc" / SRC_B16_DENSE,
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm75_u16x4_ldsm_t {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc" / SRC_B16_DENSE,
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm75_u16x8_ldsm_t {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm90_u32x1_stsm_n {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst" / DST_B16_DENSE,
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm90_u32x2_stsm_n {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst" / DST_B16_DENSE,
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm90_u16x4_stsm_t {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst" / DST_B16_DENSE,
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
        sm90_u16x8_stsm_t {
            THR = "ThrID", SRC_BITS = "SrcLayout", SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout", DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout", REF_B16 = "ValLayoutRef",
        }
    }
}

/// The modules declared from the corpus: the generator leaves these alone.
fn corpus_modules() -> BTreeSet<&'static str> {
    corpus_checks().iter().map(|m| m.module).collect()
}

// ---------------------------------------------------------------------------------------------
// The comparison.

/// Brute force: the values are exactly a permutation of `0..len`.
fn is_permutation(v: &[i64]) -> bool {
    let mut seen = vec![false; v.len()];
    for &x in v {
        match usize::try_from(x) {
            Ok(k) if k < v.len() && !seen[k] => seen[k] = true,
            _ => return false,
        }
    }
    true
}

/// The tile a constant of an MMA atom carries on its codomain, in seed order: CuTe's
/// `logical(M, K)` is seed `(K, M)`.
fn mma_tile(a: &Atom, key: &str) -> Option<Vec<i64>> {
    let (m, n, k) = a.mnk?;
    match key {
        "ALayout" => Some(vec![k, m]),
        "BLayout" => Some(vec![k, n]),
        "CLayout" => Some(vec![n, m]),
        _ => None,
    }
}

/// The index of the dense part at CuTe's integral coordinate `i`: the digits of the leaves of
/// size > 1 and stride 0 dropped (CuTe order, first leaf fastest).
fn dense_index(leaves: &[(i64, i64)], mut i: i64) -> i64 {
    let (mut j, mut w) = (0, 1);
    for &(n, d) in leaves {
        let digit = i % n;
        i /= n;
        if !(n > 1 && d == 0) {
            j += digit * w;
            w *= n;
        }
    }
    j
}

/// Compares one constant (and its dense part) with the printed layout; the number of
/// coordinates compared.
fn compare(a: &Atom, c: &Check) -> u64 {
    let what = format!("{}::{}", a.module, c.whole.name);
    let p = a
        .layouts
        .get(c.key)
        .unwrap_or_else(|| panic!("{what}: no printed layout {}", c.key));
    let t = &c.whole;
    assert_eq!(t.size, p.offsets.len(), "{what}: size");
    for (i, want) in p.offsets.iter().enumerate() {
        assert_eq!((t.eval)(i), *want, "{what} at integral coordinate {i}");
    }
    let mut n = p.offsets.len() as u64;
    let permutation = is_permutation(&p.offsets);
    if a.kind == "smem" {
        assert!(permutation, "{what}: CuTe's offsets are not a permutation");
        assert_eq!(t.class, Class::Storage, "{what}: type");
        assert!(c.dense.is_none());
        // The tile is CuTe's (MN, K) shape of the atom, seed order (K, MN).
        let inner = cute_text(&a.layouts["Inner"].text);
        let tile = match &inner.shape {
            Nest::Tup(v) => v
                .iter()
                .rev()
                .map(|m| m.leaves().iter().product())
                .collect(),
            Nest::Int(n) => vec![*n],
        };
        assert_eq!(t.tiles.0, Some(tile), "{what}: domain tile");
        return n;
    }
    let oracle = cute_text(&p.text);
    assert_eq!(
        oracle.has_broadcast(),
        !permutation,
        "{what}: a stride-0 leaf exactly where CuTe's values are not a permutation"
    );
    if permutation {
        assert_eq!(t.class, Class::Dense, "{what}: type");
        assert!(c.dense.is_none(), "{what}: a dense part of a dense layout");
        if c.key != "ThrID" {
            assert_eq!(t.tiles.1, mma_tile(a, c.key), "{what}: codomain tile");
        }
        return n;
    }
    assert_eq!(t.class, Class::Broadcast, "{what}: type");
    let Some(d) = &c.dense else {
        // A broadcast `_BITS` layout of a copy atom has its dense part in elements only.
        assert!(c.whole.name.ends_with("_BITS"), "{what}: no dense part");
        return n;
    };
    let dwhat = format!("{}::{}", a.module, d.name);
    assert_eq!(d.class, Class::Dense, "{dwhat}: type");
    assert_eq!(d.tiles.1, mma_tile(a, c.key), "{dwhat}: codomain tile");
    let leaves = oracle.leaves();
    let kept: i64 = leaves
        .iter()
        .filter(|&&(s, st)| !(s > 1 && st == 0))
        .map(|l| l.0)
        .product();
    assert_eq!(d.size as i64, kept, "{dwhat}: size");
    let mut hit = vec![false; d.size];
    for (i, want) in p.offsets.iter().enumerate() {
        let j = dense_index(&leaves, i as i64) as usize;
        assert_eq!((d.eval)(j), *want, "{dwhat} at {j} (CuTe's coordinate {i})");
        hit[j] = true;
    }
    assert!(hit.iter().all(|h| *h), "{dwhat}: indices not reached");
    let dv: Vec<i64> = (0..d.size).map(|j| (d.eval)(j)).collect();
    assert!(is_permutation(&dv), "{dwhat}: not a permutation");
    n += d.size as u64;
    n
}

fn all_checks() -> Vec<ModuleChecks> {
    let mut v = corpus_checks();
    v.extend(generated::checks());
    v
}

#[test]
fn every_atom_matches_cute_cpp() {
    let Some(atoms) = printout() else { return };
    let by_module: BTreeMap<&str, &Atom> = atoms.iter().map(|a| (a.module.as_str(), a)).collect();
    assert_eq!(by_module.len(), atoms.len(), "two atoms of one module");
    let checks = all_checks();
    let mut covered = BTreeSet::new();
    let mut coordinates = 0u64;
    let mut constants = 0usize;
    for m in &checks {
        let a = by_module
            .get(m.module)
            .unwrap_or_else(|| panic!("{}: not in the printout", m.module));
        assert!(covered.insert(m.module), "{}: listed twice", m.module);
        let mut keys = BTreeSet::new();
        for c in &m.checks {
            coordinates += compare(a, c);
            constants += 1 + usize::from(c.dense.is_some());
            keys.insert(c.key);
        }
        // Every printed layout has a constant.
        let printed: BTreeSet<&str> = a.layouts.keys().map(String::as_str).collect();
        assert_eq!(keys, printed, "{}: constants", m.module);
    }
    let missing: Vec<&str> = by_module
        .keys()
        .filter(|m| !covered.contains(*m))
        .copied()
        .collect();
    assert!(missing.is_empty(), "atoms without a module: {missing:?}");
    println!(
        "{} atoms, {constants} constants, {coordinates} coordinates compared with CuTe C++",
        checks.len()
    );
    // 10 SM80 and 24 GMMA f16 MMA atoms, the 9 other MMA atoms declared from the corpus,
    // 6 ldmatrix, 6 stmatrix, 4 cp.async, 5 universal copies and 24 shared-memory atoms.
    assert_eq!(checks.len(), 10 + 24 + 9 + 6 + 6 + 4 + 5 + 24);
}

/// `bits_to_elements` of each printed `Copy_Traits` layout (bits) equals `Copy_Atom<OP, T>`'s
/// element layout at every coordinate.
#[test]
fn bits_to_elements_matches_copy_atom() {
    let Some(atoms) = printout() else { return };
    let mut n = 0;
    for a in atoms.iter().filter(|a| a.kind == "copy") {
        let (_, w) = a.value.clone().expect("value type");
        for (bits, elems) in [
            ("SrcLayout", "ValLayoutSrc"),
            ("DstLayout", "ValLayoutDst"),
            ("RefLayout", "ValLayoutRef"),
        ] {
            let text = a.layouts[bits].text.replace('_', "");
            let l = layout_core::Layout::from_cute(&text).expect("a layout");
            let e = bits_to_elements(&l, w)
                .unwrap_or_else(|err| panic!("{}.{bits} at {w} bits: {err}", a.module));
            let want = &a.layouts[elems].offsets;
            assert_eq!(e.size(), want.len() as i64, "{}.{elems}: size", a.module);
            for (i, v) in want.iter().enumerate() {
                assert_eq!(
                    e.eval_index(i as i64),
                    Ok(*v),
                    "{}.{elems} at {i}",
                    a.module
                );
            }
            n += 1;
        }
    }
    assert_eq!(n, 3 * (6 + 6 + 4 + 5));
}

// ---------------------------------------------------------------------------------------------
// The generator.

const GENERATED_ATOMS: &str = "layout-typed/src/atoms/generated.rs";
const GENERATED_CHECKS: &str = "tests/tests/atoms_cpp/generated.rs";

/// Greedy wrap of `text` into `///` lines of at most 100 characters at `indent`.
fn doc(out: &mut String, indent: &str, text: &str) {
    for (k, para) in text.split("\n\n").enumerate() {
        if k > 0 {
            writeln!(out, "{indent}///").unwrap();
        }
        let mut line = format!("{indent}///");
        for word in para.split_whitespace() {
            if line.chars().count() + 1 + word.chars().count() > 100
                && line.len() > indent.len() + 3
            {
                writeln!(out, "{line}").unwrap();
                line = format!("{indent}///");
            }
            line.push(' ');
            line.push_str(word);
        }
        writeln!(out, "{line}").unwrap();
    }
}

/// A nest with the leaves of `shape` for which `drop` holds removed, one-element tuples
/// replaced by their element; `None` when nothing is left.
fn drop_leaves(
    shape: &Nest,
    stride: &Nest,
    drop: &dyn Fn(i64, i64) -> bool,
) -> Option<(Nest, Nest)> {
    match (shape, stride) {
        (Nest::Int(n), Nest::Int(d)) => (!drop(*n, *d)).then_some((Nest::Int(*n), Nest::Int(*d))),
        (Nest::Tup(s), Nest::Tup(d)) => {
            let (mut ks, mut kd): (Vec<Nest>, Vec<Nest>) = s
                .iter()
                .zip(d)
                .filter_map(|(a, b)| drop_leaves(a, b, drop))
                .unzip();
            match ks.len() {
                0 => None,
                1 => Some((ks.pop().unwrap(), kd.pop().unwrap())),
                _ => Some((Nest::Tup(ks), Nest::Tup(kd))),
            }
        }
        _ => panic!("profiles differ"),
    }
}

fn text_of(c: &CuteText) -> String {
    format!("{}:{}", c.shape.text(), c.stride.text())
}

/// `T threads × V values` (or `× V bits`/`elements`) of a (thread, value) layout in CuTe text.
fn counts(c: &CuteText, unit: &str) -> String {
    let (Nest::Tup(s), _) = (&c.shape, &c.stride) else {
        panic!("not a (thread, value) layout");
    };
    let t: i64 = s[0].leaves().iter().product();
    let v: i64 = s[1..].iter().flat_map(Nest::leaves).product();
    let plural = |n: i64, w: &str| {
        if n == 1 {
            format!("{n} {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    format!("{} × {}", plural(t, "thread"), plural(v, unit))
}

/// One generated constant: its name, doc, text and annotation, and its check entry.
struct Gen {
    consts: String,
    checks: Vec<String>,
}

fn broadcast_sizes(c: &CuteText) -> Vec<i64> {
    c.leaves()
        .into_iter()
        .filter(|&(n, d)| n > 1 && d == 0)
        .map(|l| l.0)
        .collect()
}

/// A (thread, value) constant: dense, or a broadcast with its dense part.
#[allow(clippy::too_many_arguments)]
fn tv_const(
    g: &mut Gen,
    name: &str,
    head: &str,
    key: &str,
    p: &Printed,
    what: &str,
    unit: &str,
    codomain: &str,
) {
    let c = cute_text(&p.text);
    let text = text_of(&c);
    let ind = "        ";
    if c.has_broadcast() {
        let b: Vec<String> = broadcast_sizes(&c).iter().map(i64::to_string).collect();
        let (ds, dd) =
            drop_leaves(&c.shape, &c.stride, &|n, d| n > 1 && d == 0).expect("a dense part");
        let dense = CuteText {
            shape: ds,
            stride: dd,
        };
        let dname = if name.ends_with("_BITS") {
            None
        } else {
            Some(format!("{name}_DENSE"))
        };
        let mut s = format!(
            "{head}: {} -> {what}. A read-only broadcast (a leaf of size {} has stride `_`, CuTe \
             `0`), so it is annotated `logical -> physical`, its domain holding CuTe's (thread, \
             value) in CuTe's mode order.",
            counts(&c, unit),
            b.join(" and ")
        );
        if let Some(d) = &dname {
            write!(s, " Its dense part is `{d}`.").unwrap();
        }
        write!(s, " CuTe `{}`.", p.text).unwrap();
        doc(&mut g.consts, ind, &s);
        writeln!(
            g.consts,
            "{ind}pub const {name} = cute {text}, logical -> physical;"
        )
        .unwrap();
        if let Some(d) = dname {
            let s = format!(
                "The dense part of `{name}`: its broadcast leaves removed, {} -> {what}. A dense \
                 bijection. CuTe `{}`.",
                kept_counts(&c, unit),
                text_of(&dense)
            );
            doc(&mut g.consts, ind, &s);
            writeln!(
                g.consts,
                "{ind}pub const {d} = cute {}, thread-value -> {codomain};",
                text_of(&dense)
            )
            .unwrap();
            g.checks.push(format!("{name} = \"{}\" / {d}", key));
        } else {
            g.checks.push(format!("{name} = \"{}\"", key));
        }
    } else {
        let s = format!(
            "{head}: {} -> {what}. A dense bijection. CuTe `{}`.",
            counts(&c, unit),
            p.text
        );
        doc(&mut g.consts, ind, &s);
        writeln!(
            g.consts,
            "{ind}pub const {name} = cute {text}, thread-value -> {codomain};"
        )
        .unwrap();
        g.checks.push(format!("{name} = \"{}\"", key));
    }
}

/// `T threads × V values` of the dense part of a (thread, value) layout: the threads of the
/// leaves that are not broadcasts.
fn kept_counts(c: &CuteText, unit: &str) -> String {
    let (Nest::Tup(s), Nest::Tup(d)) = (&c.shape, &c.stride) else {
        panic!("not a (thread, value) layout");
    };
    let t: i64 = s[0]
        .leaves()
        .iter()
        .zip(d[0].leaves())
        .filter(|&(&n, st)| !(n > 1 && st == 0))
        .map(|(n, _)| n)
        .product();
    let v: i64 = s[1..].iter().flat_map(Nest::leaves).product();
    let vs = if v == 1 {
        format!("1 {unit}")
    } else {
        format!("{v} {unit}s")
    };
    match t {
        1 => vs,
        _ => format!("{t} threads × {vs}"),
    }
}

fn gen_mma(a: &Atom, out: &mut String) -> Vec<String> {
    let (m, n, k) = a.mnk.expect("Shape_MNK");
    let thr = cute_text(&a.layouts["ThrID"].text);
    let threads: i64 = thr.shape.leaves().iter().product();
    let mut head = format!(
        "`{}`: the `MMA_Traits` of `{}` (CUTLASS 4.2).\n\nM×N×K = {m}×{n}×{k}, {threads} threads. \
         Each layout maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index \
         `t + {threads}·v`) to a position in its tile, in elements: A to `m + {m}·k` ({m}×{k}, \
         M×K), B to `n + {n}·k` ({n}×{k}, N×K), C to `m + {m}·n` ({m}×{n}, M×N).",
        a.name, a.header
    );
    let bc: Vec<&str> = ["ALayout", "BLayout"]
        .into_iter()
        .filter(|k| cute_text(&a.layouts[*k].text).has_broadcast())
        .collect();
    if !bc.is_empty() {
        let names: Vec<String> = bc.iter().map(|k| format!("`{}`", &k[..1])).collect();
        let dense: Vec<String> = bc.iter().map(|k| format!("`{}_DENSE`", &k[..1])).collect();
        write!(
            head,
            " {} read from shared memory by the whole warpgroup: a read-only broadcast over \
             the thread mode, whose dense part is {} (see [the module \
             docs](crate::atoms#dense-bijections-and-broadcasts)).",
            if names.len() == 2 {
                format!("{} and {} are", names[0], names[1])
            } else {
                format!("{} is", names[0])
            },
            dense.join(" and ")
        )
        .unwrap();
    }
    write!(head, "\n\n{GENERATED_NOTE}").unwrap();
    doc(out, "", &head);
    let mut g = Gen {
        consts: String::new(),
        checks: Vec::new(),
    };
    let ind = "        ";
    doc(
        &mut g.consts,
        ind,
        &format!(
            "`ThrID`: logical thread -> lane, {threads} threads (the identity). CuTe `{}`.",
            a.layouts["ThrID"].text
        ),
    );
    writeln!(
        g.consts,
        "{ind}pub const THR = cute {}, thread-value -> thread-value;",
        text_of(&thr)
    )
    .unwrap();
    g.checks.push("THR = \"ThrID\"".to_string());
    for (name, key, what, tile) in [
        (
            "A",
            "ALayout",
            format!("`m + {m}·k` in the {m}×{k} (M×K) tile, in elements"),
            (m, k),
        ),
        (
            "B",
            "BLayout",
            format!("`n + {n}·k` in the {n}×{k} (N×K) tile, in elements"),
            (n, k),
        ),
        (
            "C",
            "CLayout",
            format!("`m + {m}·n` in the {m}×{n} (M×N) tile, in elements"),
            (m, n),
        ),
    ] {
        tv_const(
            &mut g,
            name,
            &format!("`{key}`"),
            key,
            &a.layouts[key],
            &what,
            "value",
            &format!("logical({},{})", tile.0, tile.1),
        );
    }
    write_module(out, &a.module, &g.consts);
    g.checks
}

fn gen_copy(a: &Atom, out: &mut String) -> Vec<String> {
    let thr = cute_text(&a.layouts["ThrID"].text);
    let threads: i64 = thr.shape.leaves().iter().product();
    let (vt, w) = a.value.clone().expect("value type");
    let bits: i64 = cute_text(&a.layouts["RefLayout"].text).size() / threads;
    let head = format!(
        "`{}`: the `Copy_Traits` of `{}` (CUTLASS 4.2).\n\n{} {}, {bits} bits each. Each \
         layout maps CuTe's (thread, value) (seed coordinates `(value, thread)`, flat index \
         {}) to a position in the copied block: the `_BITS` layouts to a bit (the \
         `Copy_Traits` unit), the `_B{w}` layouts to a {w}-bit element, as `Copy_Atom<{}, {vt}>` \
         gives them (`ValLayoutSrc`, `ValLayoutDst`, `ValLayoutRef`; `bits_to_elements(_, {w})` \
         of the bits, see [the module docs](crate::atoms#bits-to-elements)).\n\n{GENERATED_NOTE}",
        a.name,
        a.header,
        threads,
        if threads == 1 { "thread" } else { "threads" },
        if threads == 1 {
            "`v`".to_string()
        } else {
            format!("`t + {threads}·v`")
        },
        a.name,
    );
    doc(out, "", &head);
    let mut g = Gen {
        consts: String::new(),
        checks: Vec::new(),
    };
    let ind = "        ";
    doc(
        &mut g.consts,
        ind,
        &format!(
            "`ThrID`: logical thread -> lane, {threads} thread{} (the identity). CuTe `{}`.",
            if threads == 1 { "" } else { "s" },
            a.layouts["ThrID"].text
        ),
    );
    writeln!(
        g.consts,
        "{ind}pub const THR = cute {}, thread-value -> thread-value;",
        text_of(&thr)
    )
    .unwrap();
    g.checks.push("THR = \"ThrID\"".to_string());
    for (pre, key, vkey) in [
        ("SRC", "SrcLayout", "ValLayoutSrc"),
        ("DST", "DstLayout", "ValLayoutDst"),
        ("REF", "RefLayout", "ValLayoutRef"),
    ] {
        tv_const(
            &mut g,
            &format!("{pre}_BITS"),
            &format!("`{key}` in bits"),
            key,
            &a.layouts[key],
            "a bit of the block",
            "bit",
            "logical",
        );
        tv_const(
            &mut g,
            &format!("{pre}_B{w}"),
            &format!("`{vkey}`, in {w}-bit elements"),
            vkey,
            &a.layouts[vkey],
            &format!("a {w}-bit element of the block"),
            "element",
            "logical",
        );
    }
    write_module(out, &a.module, &g.consts);
    g.checks
}

fn gen_smem(a: &Atom, out: &mut String) -> Vec<String> {
    let (b, m, s, w) = a.swizzle.expect("swizzle");
    let inner = cute_text(&a.layouts["Inner"].text);
    let Nest::Tup(sh) = &inner.shape else {
        panic!("a rank-2 atom")
    };
    let (mn, k) = (sh[0].leaves()[0], sh[1].leaves()[0]);
    let major = if a.module.contains("_k_") { "K" } else { "MN" };
    let same = match w {
        8 => "`uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`",
        16 => "`half_t`, `bfloat16_t`, `uint16_t`",
        _ => "`float`, `tfloat32_t`, `uint32_t`, `int32_t`",
    };
    let head = format!(
        "`{}`: the GMMA shared-memory layout atom of `{}` (CUTLASS 4.2), for {w}-bit elements \
         (the atom depends on the width only: {same}).\n\n`ATOM` maps a position of the \
         {mn}×{k} (MN×K) tile, {major}-major, to the element offset in shared memory: CuTe \
         `Swizzle<{b},{m},{s}>` over byte addresses after `{}`{}. CuTe prints it `{}`.\n\n\
         {GENERATED_NOTE}",
        a.name,
        a.header,
        a.layouts["Inner"].text,
        if b == 0 {
            " (`B = 0`: no swizzle, the interleaved atom)"
        } else {
            ""
        },
        a.layouts["Atom"].text,
    );
    doc(out, "", &head);
    let ind = "        ";
    let mut consts = String::new();
    doc(
        &mut consts,
        ind,
        &format!(
            "The atom: position in the {mn}×{k} (MN×K) tile -> offset of a {w}-bit element, {}. \
             A bijection onto `0..{}`.",
            if b == 0 {
                "unswizzled".to_string()
            } else {
                format!("swizzled by `Swizzle<{b},{m},{s}>` on byte addresses")
            },
            mn * k
        ),
    );
    let swz = if b == 0 {
        String::new()
    } else {
        format!(", Swizzle<{b},{m},{s}> over bytes of {w}-bit elements")
    };
    writeln!(
        consts,
        "{ind}pub const ATOM = cute {}, logical({mn},{k}) -> physical{swz};",
        text_of(&inner)
    )
    .unwrap();
    doc(
        &mut consts,
        ind,
        &format!(
            "`ATOM` without its swizzle (CuTe's `layout_b()`): position in the {mn}×{k} (MN×K) \
             tile -> offset of a {w}-bit element. CuTe `{}`.",
            a.layouts["Inner"].text
        ),
    );
    writeln!(
        consts,
        "{ind}pub const INNER = cute {}, logical({mn},{k}) -> physical;",
        text_of(&inner)
    )
    .unwrap();
    write_module(out, &a.module, &consts);
    vec![
        "ATOM = \"Atom\"".to_string(),
        "INNER = \"Inner\"".to_string(),
    ]
}

const GENERATED_NOTE: &str = "Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ \
                              over the CUTLASS 4.2 headers); `tests/tests/atoms_cpp.rs` compares \
                              it with that printout at every coordinate.";

fn write_module(out: &mut String, module: &str, consts: &str) {
    writeln!(
        out,
        "pub mod {module} {{\n    use crate::layout;\n\n    layout! {{"
    )
    .unwrap();
    out.push_str(consts);
    writeln!(out, "    }}\n}}\n").unwrap();
}

/// The two generated files: the atoms and their checks.
fn generate(atoms: &[Atom]) -> (String, String) {
    let old = corpus_modules();
    let mut src = String::from(
        "//! Atoms generated from CuTe C++ over the CUTLASS 4.2 headers: the printout of\n\
         //! `tests/cpp/atoms.cpp`, written out by `tests/tests/atoms_cpp.rs`\n\
         //! (`UPDATE_ATOMS=1 cargo test -p layout-tests --test atoms_cpp`), which fails when this\n\
         //! file differs from what it would write. Do not edit.\n\n",
    );
    let mut checks = String::from(
        "//! The generated atoms' constants, for `atoms_cpp.rs`; written with\n\
         //! `layout-typed/src/atoms/generated.rs` by `UPDATE_ATOMS=1`. Do not edit.\n\n\
         use super::*;\n\n\
         pub(crate) fn checks() -> Vec<ModuleChecks> {\n    atom_checks! {\n",
    );
    for a in atoms.iter().filter(|a| !old.contains(a.module.as_str())) {
        let c = match a.kind.as_str() {
            "mma" => gen_mma(a, &mut src),
            "copy" => gen_copy(a, &mut src),
            "smem" => gen_smem(a, &mut src),
            k => panic!("unknown kind {k}"),
        };
        writeln!(checks, "        {} {{", a.module).unwrap();
        for c in c {
            writeln!(checks, "            {c},").unwrap();
        }
        writeln!(checks, "        }}").unwrap();
    }
    while src.ends_with("\n\n") {
        src.pop();
    }
    checks.push_str("    }\n}\n");
    (src, checks)
}

#[test]
fn generated_atoms_are_current() {
    let Some(atoms) = printout() else { return };
    let (src, checks) = generate(atoms);
    let root = workspace_root();
    let update = std::env::var_os("UPDATE_ATOMS").is_some_and(|v| v == "1");
    for (path, text) in [(GENERATED_ATOMS, &src), (GENERATED_CHECKS, &checks)] {
        let p = root.join(path);
        if update {
            std::fs::write(&p, text).unwrap_or_else(|e| panic!("write {path}: {e}"));
        } else {
            let cur = std::fs::read_to_string(&p).unwrap_or_default();
            assert!(
                cur == *text,
                "{path} is not what the printout of tests/cpp/atoms.cpp gives: regenerate it with \
                 `UPDATE_ATOMS=1 cargo test -p layout-tests --test atoms_cpp`"
            );
        }
    }
}

//! The typed atoms of `layout_typed::atoms` against the corpus (`cute_corpus.json`, ops
//! `mma_atom` and `copy_atom`).
//!
//! Each constant is compared with the corpus offsets of its case (found by case id) at every
//! coordinate; above 16384 coordinates, where the corpus stores `null`, the expected values are
//! the case's CuTe text evaluated by the independent oracle of `layout_tests::CuteText`. Each
//! layout's classification is checked three ways: what this file declares (dense, or broadcast
//! with its dense part), what the corpus values are (a permutation of `0..size`, or a CuTe
//! stride-0 leaf), and what the constant's type says (`thread-value -> logical`/`Exclusive`, or
//! `logical -> physical`/`ReadOnly`). A broadcast's dense part is checked against the corpus
//! values with the broadcast digits dropped, and the whole atom against
//! `layout_core::broadcast` of that dense part. Copy atoms count bits: their 16-bit constants
//! and `bits_to_elements` are checked against the corpus bits converted here, independently,
//! as `bits[t + T·(e·w)] / w` with the `w` bits of every element checked consecutive.

use std::any::TypeId;
use std::collections::BTreeSet;

use layout_core::{Tree, broadcast, is_dense_bijection};
use layout_tests::{CuteText, Nest, corpus, ints};
use layout_typed::atoms::{self, bits_to_elements};
use layout_typed::{
    Exclusive, IndexType, Layout, LogicalSpace, PhysicalSpace, ReadOnly, ThreadValueSpace,
    TileMarker,
};
use serde_json::Value;

/// Counts of what was checked.
#[derive(Default)]
struct Tally {
    atoms: usize,
    constants: usize,
    dense: usize,
    broadcast: usize,
    coordinates: u64,
}

/// The case of `op` with this id.
fn case(op: &str, id: &str) -> Value {
    let mut found = corpus(op).into_iter().filter(|c| c["id"] == id);
    let c = found
        .next()
        .unwrap_or_else(|| panic!("no {op} case `{id}` in the corpus"));
    assert!(found.next().is_none(), "two {op} cases `{id}`");
    c
}

/// The CuTe text of layout `key` of a case, read by the oracle, and its expected offsets: the
/// corpus list, or the oracle's values where the corpus has `null` (above 16384 coordinates).
fn expected(c: &Value, key: &str) -> (CuteText, Vec<i64>) {
    let text = c["inputs"][key].as_str().expect("layout text");
    let oracle = CuteText::parse(text).unwrap_or_else(|| panic!("`{text}`"));
    let offsets = match ints(&c["expected"][format!("{key}_offsets")]) {
        Some(o) => {
            assert_eq!(o.len() as i64, oracle.size(), "{}.{key}", c["id"]);
            o
        }
        None => {
            assert!(oracle.size() > 16384, "{}.{key}: offsets missing", c["id"]);
            (0..oracle.size()).map(|i| oracle.eval(i)).collect()
        }
    };
    (oracle, offsets)
}

/// Every value of a typed layout, by flat index.
fn values<L: Layout>(l: L) -> Vec<i64> {
    (0..L::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// `thread-value -> logical` (or `-> thread-value`), `Exclusive`.
    Dense,
    /// `logical -> physical`, `ReadOnly`.
    Broadcast,
}

fn is<A: 'static, B: 'static>() -> bool {
    TypeId::of::<A>() == TypeId::of::<B>()
}

/// The classification the constant's type states.
fn class_of<L: Layout>() -> Class
where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
{
    let dense = is::<L::Domain, ThreadValueSpace>()
        && (is::<L::Codomain, LogicalSpace>() || is::<L::Codomain, ThreadValueSpace>())
        && is::<L::Access, Exclusive>();
    let bcast = is::<L::Domain, LogicalSpace>()
        && is::<L::Codomain, PhysicalSpace>()
        && is::<L::Access, ReadOnly>();
    match (dense, bcast) {
        (true, false) => Class::Dense,
        (false, true) => Class::Broadcast,
        _ => panic!("{}: neither a dense nor a broadcast atom type", L::SIZE),
    }
}

/// The constant as a run-time `layout-core` layout.
fn core<L: Layout>(l: L) -> layout_core::Layout {
    let map = l.to_map().expect("a checked layout");
    map.as_layout().expect("one layout").clone()
}

/// `l` equals `exp` at every flat index.
fn check_values<L: Layout>(what: &str, l: L, exp: &[i64], t: &mut Tally) {
    assert_eq!(L::SIZE, exp.len(), "{what}: size");
    for (i, (got, want)) in values(l).into_iter().zip(exp).enumerate() {
        assert_eq!(got, *want, "{what} at flat index {i}");
    }
    t.constants += 1;
    t.coordinates += exp.len() as u64;
}

/// A dense atom layout: the corpus values are a permutation, no CuTe stride-0 leaf, the type
/// is a dense `thread-value -> ..` layout, and `layout-core` agrees.
fn check_dense<L: Layout>(what: &str, l: L, oracle: &CuteText, exp: &[i64], t: &mut Tally)
where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
{
    check_values(what, l, exp, t);
    assert!(
        is_permutation(exp),
        "{what}: the corpus values are not a permutation"
    );
    assert!(
        !oracle.has_broadcast(),
        "{what}: the corpus has a stride-0 leaf"
    );
    assert_eq!(class_of::<L>(), Class::Dense, "{what}: type");
    assert!(is_dense_bijection(&core(l)), "{what}: layout-core");
    t.dense += 1;
}

/// The leaves `(size, stride)` of the first top-level mode of a CuTe text (the thread mode).
fn thread_leaves(oracle: &CuteText) -> Vec<(i64, i64)> {
    match (&oracle.shape, &oracle.stride) {
        (Nest::Tup(s), Nest::Tup(d)) => s[0].leaves().into_iter().zip(d[0].leaves()).collect(),
        _ => panic!("not a (thread, value) layout"),
    }
}

/// A broadcast atom layout `l` with its dense part `d`. `exp` are `l`'s expected values,
/// `thread` the thread mode's leaves (CuTe order), `value_broadcasts` whether the value mode
/// has a stride-0 leaf (it must not).
fn check_broadcast<L: Layout, D: Layout>(
    what: &str,
    (l, d): (L, D),
    thread: &[(i64, i64)],
    value_broadcasts: bool,
    exp: &[i64],
    t: &mut Tally,
) where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
    D::Domain: 'static,
    D::Codomain: 'static,
    D::Access: 'static,
{
    check_values(what, l, exp, t);
    assert!(
        !is_permutation(exp),
        "{what}: the corpus values are a permutation"
    );
    assert_eq!(class_of::<L>(), Class::Broadcast, "{what}: type");
    assert!(core(l).is_broadcast(), "{what}: layout-core");
    // The broadcast is in the thread mode: one leaf of size > 1 with stride 0.
    assert!(
        !value_broadcasts,
        "{what}: a stride-0 leaf in the value mode"
    );
    let bleaves: Vec<i64> = thread
        .iter()
        .filter(|(n, s)| *n > 1 && *s == 0)
        .map(|m| m.0)
        .collect();
    assert_eq!(bleaves.len(), 1, "{what}: broadcast leaves {bleaves:?}");
    let copies = bleaves[0];
    let threads: i64 = thread.iter().map(|m| m.0).product();
    let kept = threads / copies;

    // The dense part: the corpus values with the broadcast digit dropped from the thread index.
    let dense_what = format!("{what}_DENSE");
    assert_eq!(
        D::SIZE as i64 * copies,
        exp.len() as i64,
        "{dense_what}: size"
    );
    assert_eq!(class_of::<D>(), Class::Dense, "{dense_what}: type");
    let dv = values(d);
    assert!(is_permutation(&dv), "{dense_what}: not a permutation");
    let bcast = broadcast(&core(d), &Tree::Leaf(copies)).expect("broadcast");
    let mut hit = vec![false; D::SIZE];
    for (i, &want) in exp.iter().enumerate() {
        let i = i as i64;
        let (mut tid, rest) = (i % threads, i / threads);
        let (mut j_t, mut w, mut s) = (0, 1, 0);
        for &(n, stride) in thread {
            let digit = tid % n;
            tid /= n;
            if n > 1 && stride == 0 {
                s = digit;
            } else {
                j_t += digit * w;
                w *= n;
            }
        }
        let j = j_t + kept * rest;
        assert_eq!(dv[j as usize], want, "{dense_what} at {j} (full index {i})");
        hit[j as usize] = true;
        // `broadcast(X_DENSE, copies)`: the copy index is the slowest mode.
        assert_eq!(
            bcast.eval_index(s * D::SIZE as i64 + j),
            Ok(want),
            "broadcast({dense_what}, {copies}) at copy {s}, index {j}"
        );
    }
    assert!(
        hit.iter().all(|h| *h),
        "{dense_what}: positions not reached"
    );
    t.constants += 1;
    t.coordinates += D::SIZE as u64;
    t.broadcast += 1;
}

/// The corpus key of a constant name: `A` → `A`, `SRC_BITS` → `Src`.
fn key_of(name: &str) -> String {
    let base = name.strip_suffix("_BITS").unwrap_or(name);
    let mut k = base[..1].to_string();
    k.push_str(&base[1..].to_ascii_lowercase());
    k
}

/// The tile extents of an MMA operand in seed order: `logical(M,K)` in CuTe order is `(K,M)`.
fn mma_tile(c: &Value, key: &str) -> Vec<i64> {
    let get = |k: &str| c["inputs"][k].as_i64().expect("extent");
    match key {
        "A" => vec![get("K"), get("M")],
        "B" => vec![get("K"), get("N")],
        _ => vec![get("N"), get("M")],
    }
}

/// One layout of an MMA atom: dense (`A`) or broadcast with its dense part (`A / A_DENSE`).
macro_rules! mma_layout {
    ($c:ident, $t:ident, $id:literal, $l:expr, $name:ident) => {{
        let key = key_of(stringify!($name));
        let what = format!("{}.{}", $id, stringify!($name));
        let (oracle, exp) = expected(&$c, &key);
        check_dense(&what, $l, &oracle, &exp, $t);
        assert_tile(&what, &$l, Some(mma_tile(&$c, &key)));
    }};
    ($c:ident, $t:ident, $id:literal, $l:expr, $name:ident, $d:expr) => {{
        let key = key_of(stringify!($name));
        let what = format!("{}.{}", $id, stringify!($name));
        let (oracle, exp) = expected(&$c, &key);
        let thread = thread_leaves(&oracle);
        let value_bcast = oracle.leaves().len() > thread.len()
            && oracle.leaves()[thread.len()..]
                .iter()
                .any(|&(n, s)| n > 1 && s == 0);
        check_broadcast(&what, ($l, $d), &thread, value_bcast, &exp, $t);
        assert_tile(&what, &$d, Some(mma_tile(&$c, &key)));
    }};
}

fn assert_tile<L: Layout>(what: &str, _: &L, tile: Option<Vec<i64>>) {
    assert_eq!(L::CodomainTile::extents(), tile, "{what}: codomain tile");
}

/// `THR`: the corpus `ThrID`, dense, `thread-value -> thread-value`.
fn check_thr<L: Layout>(id: &str, l: L, c: &Value, t: &mut Tally)
where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
{
    let (oracle, exp) = expected(c, "ThrID");
    check_dense(&format!("{id}.THR"), l, &oracle, &exp, t);
    assert!(is::<L::Codomain, ThreadValueSpace>(), "{id}.THR: codomain");
}

macro_rules! mma_atoms {
    ($($m:ident = $id:literal : $($name:ident $(/ $d:ident)?),+ ;)+) => {
        /// Checks every listed MMA atom; returns the case ids.
        fn check_mma_atoms(t: &mut Tally) -> Vec<&'static str> {
            let mut ids = Vec::new();
            $({
                use atoms::$m as a;
                let c = case("mma_atom", $id);
                check_thr($id, a::THR, &c, t);
                $( mma_layout!(c, t, $id, a::$name, $name $(, a::$d)?); )+
                t.atoms += 1;
                ids.push($id);
            })+
            ids
        }
    };
}

mma_atoms! {
    sm80_16x8x8_f16f16f16f16_tn = "mma_SM80_16x8x8_F16F16F16F16_TN": A, B, C;
    sm80_16x8x8_f32f16f16f32_tn = "mma_SM80_16x8x8_F32F16F16F32_TN": A, B, C;
    sm80_16x8x16_f32f16f16f32_tn = "mma_SM80_16x8x16_F32F16F16F32_TN": A, B, C;
    sm80_16x8x16_f32bf16bf16f32_tn = "mma_SM80_16x8x16_F32BF16BF16F32_TN": A, B, C;
    sm80_16x8x4_f32tf32tf32f32_tn = "mma_SM80_16x8x4_F32TF32TF32F32_TN": A, B, C;
    sm80_16x8x8_f32tf32tf32f32_tn = "mma_SM80_16x8x8_F32TF32TF32F32_TN": A, B, C;
    sm80_8x8x4_f64f64f64f64_tn = "mma_SM80_8x8x4_F64F64F64F64_TN": A, B, C;
    sm80_16x8x16_s32s8s8s32_tn = "mma_SM80_16x8x16_S32S8S8S32_TN": A, B, C;
    sm80_16x8x32_s32s8s8s32_tn = "mma_SM80_16x8x32_S32S8S8S32_TN": A, B, C;
    sm80_16x8x64_s32s4s4s32_tn = "mma_SM80_16x8x64_S32S4S4S32_TN": A, B, C;
    sm80_16x8x256_s32u1u1s32_tn_xorpopc = "mma_SM80_16x8x256_S32U1U1S32_TN_XORPOPC": A, B, C;
    sm90_16x8x4_f64f64f64f64_tn = "mma_SM90_16x8x4_F64F64F64F64_TN": A, B, C;
    sm90_16x8x8_f64f64f64f64_tn = "mma_SM90_16x8x8_F64F64F64F64_TN": A, B, C;
    sm90_16x8x16_f64f64f64f64_tn = "mma_SM90_16x8x16_F64F64F64F64_TN": A, B, C;
    sm90_64x64x16_f32f16f16_ss_k_k = "mma_SM90_64x64x16_F32F16F16_SS_K_K":
        A / A_DENSE, B / B_DENSE, C;
    sm90_64x128x16_f32f16f16_ss_k_k = "mma_SM90_64x128x16_F32F16F16_SS_K_K":
        A / A_DENSE, B / B_DENSE, C;
    sm90_64x128x16_f32f16f16_rs_k_k = "mma_SM90_64x128x16_F32F16F16_RS_K_K": A, B / B_DENSE, C;
    sm90_64x128x32_s32s8s8_ss_tn = "mma_SM90_64x128x32_S32S8S8_SS_TN":
        A / A_DENSE, B / B_DENSE, C;
    sm90_64x128x32_s32s8s8_rs_tn = "mma_SM90_64x128x32_S32S8S8_RS_TN": A, B / B_DENSE, C;
    sm90_64x128x32_f32e4m3e4m3_ss_tn = "mma_SM90_64x128x32_F32E4M3E4M3_SS_TN":
        A / A_DENSE, B / B_DENSE, C;
}

/// The corpus bits converted to elements of `w` bits, independently of `bits_to_elements`:
/// `E[t + T·e] = bits[t + T·(e·w)] / w`, `None` unless every element's `w` bits are consecutive
/// values of its thread starting at a multiple of `w`.
fn to_elements(bits: &[i64], threads: usize, w: usize) -> Option<Vec<i64>> {
    let v = bits.len() / threads;
    if w == 0 || !v.is_multiple_of(w) {
        return None;
    }
    let mut out = vec![0; bits.len() / w];
    for e in 0..v / w {
        for t in 0..threads {
            let base = bits[t + threads * (e * w)];
            if base.rem_euclid(w as i64) != 0 {
                return None;
            }
            for j in 0..w {
                if bits[t + threads * (e * w + j)] != base + j as i64 {
                    return None;
                }
            }
            out[t + threads * e] = base / w as i64;
        }
    }
    Some(out)
}

/// One layout of a copy atom: `_BITS` and `_B16` (dense), or with the dense part
/// (`SRC_BITS SRC_B16 / SRC_B16_DENSE`), and `bits_to_elements` of the bits at every width.
macro_rules! copy_layout {
    ($c:ident, $t:ident, $id:literal, $bits:ident, $b16:ident $(, $d:ident)?) => {{
        let key = key_of(stringify!($bits));
        let what = format!("{}.{}", $id, stringify!($bits));
        let (oracle, exp) = expected(&$c, &key);
        let threads = usize::try_from(CuteText::parse($c["inputs"]["ThrID"].as_str().unwrap())
            .unwrap()
            .size())
            .unwrap();
        let e16 = to_elements(&exp, threads, 16).expect("16-bit elements fit every copy atom");
        let what16 = format!("{}.{}", $id, stringify!($b16));
        copy_layout!(@check $c, $t, what, what16, oracle, exp, e16, a::$bits, a::$b16 $(, a::$d)?);
        assert_tile(&what, &a::$bits, None);
        assert_tile(&what16, &a::$b16, None);
        check_bits_to_elements(&what, &core(a::$bits), threads, &exp, $t);
        assert_eq!(
            bits_to_elements(&core(a::$bits), 16).expect("16 bits").to_string(),
            a::$b16.notation().to_string(),
            "{what16}: bits_to_elements(_, 16)"
        );
    }};
    (@check $c:ident, $t:ident, $what:ident, $what16:ident, $oracle:ident, $exp:ident, $e16:ident,
     $bits:expr, $b16:expr) => {{
        check_dense(&$what, $bits, &$oracle, &$exp, $t);
        let o16 = CuteText::parse(&core($b16).to_cute().to_string()).expect("cute text");
        check_dense(&$what16, $b16, &o16, &$e16, $t);
    }};
    (@check $c:ident, $t:ident, $what:ident, $what16:ident, $oracle:ident, $exp:ident, $e16:ident,
     $bits:expr, $b16:expr, $d:expr) => {{
        let thread = thread_leaves(&$oracle);
        let value_bcast = $oracle.leaves()[thread.len()..]
            .iter()
            .any(|&(n, s)| n > 1 && s == 0);
        // The bits layout is a broadcast; its dense part is checked with the 16-bit one.
        check_values(&$what, $bits, &$exp, $t);
        assert!(!is_permutation(&$exp), "{}: a permutation", $what);
        assert!($oracle.has_broadcast() && !value_bcast, "{}: corpus broadcast", $what);
        assert_eq!(class_of_val(&$bits), Class::Broadcast, "{}: type", $what);
        $t.broadcast += 1;
        // The conversion leaves the thread mode as it is: same broadcast leaf.
        check_broadcast(&$what16, ($b16, $d), &thread, false, &$e16, $t);
    }};
}

fn class_of_val<L: Layout>(_: &L) -> Class
where
    L::Domain: 'static,
    L::Codomain: 'static,
    L::Access: 'static,
{
    class_of::<L>()
}

/// `bits_to_elements` at widths 1..=130 agrees with the independent conversion: `Ok` exactly
/// where it succeeds, with the same value at every coordinate.
fn check_bits_to_elements(
    what: &str,
    bits: &layout_core::Layout,
    threads: usize,
    exp: &[i64],
    t: &mut Tally,
) {
    for w in 1..=130usize {
        let ours = bits_to_elements(bits, w as i64);
        match (to_elements(exp, threads, w), ours) {
            (Some(e), Ok(l)) => {
                assert_eq!(l.size(), e.len() as i64, "{what} at width {w}: size");
                for (i, want) in e.iter().enumerate() {
                    assert_eq!(
                        l.eval_index(i as i64),
                        Ok(*want),
                        "{what} at width {w}, {i}"
                    );
                }
                assert_eq!(l.is_broadcast(), bits.is_broadcast(), "{what} at width {w}");
                t.coordinates += e.len() as u64;
            }
            (None, Err(e)) => assert!(!e.to_string().is_empty()),
            (Some(_), Err(e)) => panic!("{what}: width {w} fits, but: {e}"),
            (None, Ok(l)) => panic!("{what}: width {w} does not fit, but got {l}"),
        }
    }
}

macro_rules! copy_atoms {
    ($($m:ident = $id:literal : $($bits:ident $b16:ident $(/ $d:ident)?),+ ;)+) => {
        /// Checks every listed copy atom; returns the case ids.
        fn check_copy_atoms(t: &mut Tally) -> Vec<&'static str> {
            let mut ids = Vec::new();
            $({
                use atoms::$m as a;
                let c = case("copy_atom", $id);
                check_thr($id, a::THR, &c, t);
                $( copy_layout!(c, t, $id, $bits, $b16 $(, $d)?); )+
                t.atoms += 1;
                ids.push($id);
            })+
            ids
        }
    };
}

copy_atoms! {
    sm75_u32x2_ldsm_n = "copy_SM75_U32x2_LDSM_N":
        SRC_BITS SRC_B16 / SRC_B16_DENSE, DST_BITS DST_B16, REF_BITS REF_B16;
    sm75_u16x2_ldsm_t = "copy_SM75_U16x2_LDSM_T":
        SRC_BITS SRC_B16 / SRC_B16_DENSE, DST_BITS DST_B16, REF_BITS REF_B16;
    sm75_u16x4_ldsm_t = "copy_SM75_U16x4_LDSM_T":
        SRC_BITS SRC_B16 / SRC_B16_DENSE, DST_BITS DST_B16, REF_BITS REF_B16;
    sm75_u16x8_ldsm_t = "copy_SM75_U16x8_LDSM_T":
        SRC_BITS SRC_B16, DST_BITS DST_B16, REF_BITS REF_B16;
    sm90_u32x1_stsm_n = "copy_SM90_U32x1_STSM_N":
        SRC_BITS SRC_B16, DST_BITS DST_B16 / DST_B16_DENSE, REF_BITS REF_B16;
    sm90_u32x2_stsm_n = "copy_SM90_U32x2_STSM_N":
        SRC_BITS SRC_B16, DST_BITS DST_B16 / DST_B16_DENSE, REF_BITS REF_B16;
    sm90_u16x4_stsm_t = "copy_SM90_U16x4_STSM_T":
        SRC_BITS SRC_B16, DST_BITS DST_B16 / DST_B16_DENSE, REF_BITS REF_B16;
    sm90_u16x8_stsm_t = "copy_SM90_U16x8_STSM_T":
        SRC_BITS SRC_B16, DST_BITS DST_B16, REF_BITS REF_B16;
}

#[test]
fn mma_atoms_match_the_corpus() {
    let mut t = Tally::default();
    let ids = check_mma_atoms(&mut t);
    // Every SM80 and SM90 MMA atom of the corpus has a module.
    let want: BTreeSet<String> = corpus("mma_atom")
        .iter()
        .map(|c| c["id"].as_str().expect("id").to_string())
        .filter(|id| id.starts_with("mma_SM80_") || id.starts_with("mma_SM90_"))
        .collect();
    let got: BTreeSet<String> = ids.iter().map(|s| (*s).to_string()).collect();
    assert_eq!(got, want);
    println!(
        "mma atoms: {} atoms, {} constants ({} dense, {} broadcast with their dense part), {} coordinates",
        t.atoms, t.constants, t.dense, t.broadcast, t.coordinates
    );
    assert_eq!((t.atoms, t.broadcast), (20, 10));
}

#[test]
fn copy_atoms_match_the_corpus() {
    let mut t = Tally::default();
    let ids = check_copy_atoms(&mut t);
    let want: BTreeSet<String> = corpus("copy_atom")
        .iter()
        .map(|c| c["id"].as_str().expect("id").to_string())
        .collect();
    let got: BTreeSet<String> = ids.iter().map(|s| (*s).to_string()).collect();
    assert_eq!(got, want);
    println!(
        "copy atoms: {} atoms, {} constants ({} dense, {} broadcast), {} coordinates (with bits_to_elements at widths 1..=130)",
        t.atoms, t.constants, t.dense, t.broadcast, t.coordinates
    );
    assert_eq!(t.atoms, 8);
}

/// `bits_to_elements`: its errors name the reason.
#[test]
fn bits_to_elements_errors() {
    use layout_typed::atoms::ElementsError;
    let dst = layout_core::Layout::from_cute("(32,(32,2)):(32,(1,1024))").expect("layout");
    assert_eq!(bits_to_elements(&dst, 0), Err(ElementsError::Width(0)));
    assert!(matches!(
        bits_to_elements(&dst, 64),
        Err(ElementsError::NotContiguous {
            size: 2,
            expected: 32,
            remaining: 2,
            ..
        })
    ));
    let t16 = layout_core::Layout::from_cute("((4,8),(16,2)):((256,16),(1,128))").expect("layout");
    assert!(matches!(
        bits_to_elements(&t16, 32),
        Err(ElementsError::NotContiguous {
            size: 2,
            expected: 16,
            ..
        })
    ));
    assert!(matches!(
        bits_to_elements(&t16, 64),
        Err(ElementsError::NotContiguous { .. })
    ));
    let rank3 = layout_core::Layout::from_cute("(2,2,2):(1,2,4)").expect("layout");
    assert_eq!(
        bits_to_elements(&rank3, 2),
        Err(ElementsError::NotThreadValue { rank: 3 })
    );
    let short = layout_core::Layout::from_cute("(32,8):(8,1)").expect("layout");
    assert_eq!(
        bits_to_elements(&short, 16),
        Err(ElementsError::TooFewBits { bits: 8, width: 16 })
    );
    let odd = layout_core::Layout::from_cute("(32,16):(24,1)").expect("layout");
    assert_eq!(
        bits_to_elements(&odd, 16),
        Err(ElementsError::Misaligned {
            size: 32,
            stride: 24,
            width: 16
        })
    );
    for e in [
        ElementsError::Width(0),
        ElementsError::TooFewBits { bits: 8, width: 16 },
    ] {
        assert!(!e.to_string().is_empty());
    }
}

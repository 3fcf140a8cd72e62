//! `layout_core::gmma`: the wgmma shared-memory descriptors of operand tiles built from every
//! GMMA atom of `layout_typed::atoms`, decoded by an independent implementation of the PTX
//! ISA's canonical layouts and compared with the layout at every coordinate; and each reason a
//! layout has no descriptor, on a minimal layout.

use layout_core::gmma::{ByteOffset, Descriptor, Major, SwizzleMode, descriptor};
use layout_core::{
    Annotated, Error, Layout, Map, Space, Swizzle, SwizzleUnit, Tree, divide, repeat,
    repeat_modewise,
};
use layout_tests::cute_cpp;
use layout_typed::atoms;
use std::collections::BTreeMap;

/// One GMMA atom: its name, major-ness, element bytes, unswizzled layout and swizzle.
struct Atom {
    name: &'static str,
    major: Major,
    bytes: i64,
    inner: Layout,
    swizzle: Option<Swizzle>,
}

macro_rules! atom_list {
    ($($module:ident: $major:ident, $bytes:literal;)*) => {
        vec![$({
            let inner = layout_typed::Layout::to_map(&atoms::$module::INNER)
                .unwrap()
                .as_layout()
                .cloned()
                .unwrap();
            let swizzle = match layout_typed::Layout::to_map(&atoms::$module::ATOM).unwrap() {
                Map::Swizzled { swizzle, .. } => Some(swizzle),
                _ => None,
            };
            Atom { name: stringify!($module), major: Major::$major, bytes: $bytes, inner, swizzle }
        }),*]
    };
}

fn all_atoms() -> Vec<Atom> {
    atom_list! {
        gmma_layout_k_inter_atom_uint8_t: K, 1;
        gmma_layout_k_inter_atom_half_t: K, 2;
        gmma_layout_k_inter_atom_float: K, 4;
        gmma_layout_k_sw32_atom_uint8_t: K, 1;
        gmma_layout_k_sw32_atom_half_t: K, 2;
        gmma_layout_k_sw32_atom_float: K, 4;
        gmma_layout_k_sw64_atom_uint8_t: K, 1;
        gmma_layout_k_sw64_atom_half_t: K, 2;
        gmma_layout_k_sw64_atom_float: K, 4;
        gmma_layout_k_sw128_atom_uint8_t: K, 1;
        gmma_layout_k_sw128_atom_half_t: K, 2;
        gmma_layout_k_sw128_atom_float: K, 4;
        gmma_layout_mn_inter_atom_uint8_t: MN, 1;
        gmma_layout_mn_inter_atom_half_t: MN, 2;
        gmma_layout_mn_inter_atom_float: MN, 4;
        gmma_layout_mn_sw32_atom_uint8_t: MN, 1;
        gmma_layout_mn_sw32_atom_half_t: MN, 2;
        gmma_layout_mn_sw32_atom_float: MN, 4;
        gmma_layout_mn_sw64_atom_uint8_t: MN, 1;
        gmma_layout_mn_sw64_atom_half_t: MN, 2;
        gmma_layout_mn_sw64_atom_float: MN, 4;
        gmma_layout_mn_sw128_atom_uint8_t: MN, 1;
        gmma_layout_mn_sw128_atom_half_t: MN, 2;
        gmma_layout_mn_sw128_atom_float: MN, 4;
    }
}

/// The shared-memory byte address of position (`mn`, `k`) of an operand tile as the PTX ISA's
/// canonical layouts place it, from the 64-bit descriptor alone: core matrices of 8 rows × 16
/// bytes; K-major: rows `16·2^B` bytes apart (`B` the swizzle's bits), groups of 8 rows SBO
/// apart, the two 16-byte chunks of K LBO apart without a swizzle and adjacent under one;
/// MN-major: 16-byte chunks along MN SBO apart without a swizzle (LBO apart per swizzled row
/// of `2^B` chunks under one), the K rows 16 (or `16·2^B`) bytes apart in groups of 8, those
/// LBO (SBO under a swizzle) apart. The swizzle XORs address bits [7, 7+B) into [4, 4+B).
fn ptx_address(desc: u64, element_bytes: i64, major: Major, mn: i64, k: i64) -> i64 {
    let start = ((desc & 0x3fff) << 4) as i64;
    let lbo = (((desc >> 16) & 0x3fff) << 4) as i64;
    let sbo = (((desc >> 32) & 0x3fff) << 4) as i64;
    assert_eq!((desc >> 49) & 7, 0, "base offset");
    let b: i64 = match desc >> 62 {
        0 => 0,
        1 => 3,
        2 => 2,
        _ => 1,
    };
    let row = 16 << b;
    let linear = match (major, b) {
        (Major::K, 0) => {
            let kb = k * element_bytes;
            (mn / 8) * sbo + (kb / 16) * lbo + (mn % 8) * 16 + kb % 16
        }
        (Major::K, _) => (mn / 8) * sbo + (mn % 8) * row + k * element_bytes,
        (Major::MN, 0) => {
            let mb = mn * element_bytes;
            (mb / 16) * sbo + (k / 8) * lbo + (k % 8) * 16 + mb % 16
        }
        (Major::MN, _) => {
            let mb = mn * element_bytes;
            (mb / row) * lbo + (k / 8) * sbo + (k % 8) * row + mb % row
        }
    };
    let a = start + linear;
    a ^ (((a >> 7) & ((1 << b) - 1)) << 4)
}

fn layout(text: &str) -> Layout {
    text.parse().unwrap()
}

/// The sizes of a layout's two top-level modes (seed `(K, MN)`).
fn sizes(l: &Layout) -> (i64, i64) {
    match l.shape() {
        Tree::Tuple(v) if v.len() == 2 => (
            v[0].leaves().into_iter().product(),
            v[1].leaves().into_iter().product(),
        ),
        s => panic!("not two modes: {s:?}"),
    }
}

/// The buffer of `stages` stages, each `k_total × mn_total` (seed `(K, MN)`) tiled from the
/// atom as CuTe's `tile_to_shape` does (MN copies fastest), divided into operand tiles of
/// `kw × mnw`: seed `(stage, (tile:(K, MN), rest:(K, MN)))`, swizzled by the atom's swizzle.
fn buffer(atom: &Atom, k_total: i64, mn_total: i64, kw: i64, mnw: i64, stages: i64) -> Map {
    let (ka, mna) = sizes(&atom.inner);
    let (rk, rmn) = (k_total / ka, mn_total / mna);
    let tile = repeat_modewise(&atom.inner, &layout(&format!("({rk},{rmn}):({rmn},1)"))).unwrap();
    let divided = divide(&tile, &[kw, mnw]).unwrap();
    let staged = repeat(&divided, &layout(&format!("{stages}:1"))).unwrap();
    let map: Map = Annotated::new(staged, Space::Logical, Space::Physical)
        .unwrap()
        .into();
    match atom.swizzle {
        Some(s) => map.swizzle(s).unwrap(),
        None => map,
    }
}

/// The operand tile of stage `s`, K block `bk` and MN block `bmn`.
fn operand(buffer: &Map, s: i64, bk: i64, bmn: i64) -> Map {
    let free = Tree::Tuple(vec![Tree::Leaf(None), Tree::Leaf(None)]);
    let rest = Tree::Tuple(vec![Tree::Leaf(Some(bk)), Tree::Leaf(Some(bmn))]);
    buffer
        .slice(&Tree::Tuple(vec![
            Tree::Leaf(Some(s)),
            Tree::Tuple(vec![free, rest]),
        ]))
        .unwrap()
}

/// Every GMMA atom, tiled to the operand tiles of a 64×N×16 wgmma (A: 64 rows; B: N rows for
/// several N) in a 2-stage buffer at a nonzero address: the descriptor of every tile of every
/// stage decodes, by the PTX ISA's formulas, to the layout's address at every coordinate.
#[test]
fn every_atom_tile_decodes_to_its_layout() {
    const START: u32 = 3 * 1024;
    let mut checked = 0usize;
    for atom in all_atoms() {
        let (ka, mna) = sizes(&atom.inner);
        let kw = 32 / atom.bytes;
        for mnw in [8, 16, 64, 128, 256] {
            if mnw % mna != 0 {
                continue;
            }
            let k_total = ka.max(kw);
            let mn_total = 2 * mnw.max(mna);
            let buf = buffer(&atom, k_total, mn_total, kw, mnw, 2);
            for s in 0..2 {
                for bk in 0..k_total / kw {
                    for bmn in 0..mn_total / mnw {
                        let tile = operand(&buf, s, bk, bmn);
                        let d = descriptor(&tile, atom.bytes, atom.major, START)
                            .unwrap_or_else(|e| panic!("{} {mnw}: {e}", atom.name));
                        let bits = d.encode().unwrap();
                        for k in 0..kw {
                            for mn in 0..mnw {
                                let off = tile.eval_index(k * mnw + mn).unwrap();
                                assert_eq!(
                                    ptx_address(bits, atom.bytes, atom.major, mn, k),
                                    i64::from(START) + atom.bytes * off,
                                    "{} N={mnw} stage {s} block ({bk},{bmn}) at (mn {mn}, k {k}): {d:?}",
                                    atom.name
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// The operand tiles of `every_atom_tile_decodes_to_its_layout` against CuTe's
/// `make_gmma_desc` (`cpp/gmma_desc.cpp`): the same tiles, the same fields (the start as the
/// tile's first byte from the buffer; LBO and SBO in 16-byte units; a stride the hardware
/// never reads, of one group of core matrices, is 0 in both).
#[test]
fn agree_with_cute_cpp() {
    let Some(out) = cute_cpp::run("gmma_desc", include_str!("../cpp/gmma_desc.cpp")) else {
        return;
    };
    let cute: BTreeMap<(String, i64, i64, i64, i64), Vec<i64>> = out
        .lines()
        .filter(|l| !l.starts_with("ERROR"))
        .map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            let n: Vec<i64> = w[1..].iter().map(|x| x.parse().unwrap()).collect();
            ((w[0].to_string(), n[0], n[1], n[2], n[3]), n[4..].to_vec())
        })
        .collect();
    let mut compared = 0;
    for atom in all_atoms() {
        let (ka, mna) = sizes(&atom.inner);
        let kw = 32 / atom.bytes;
        for mnw in [8, 16, 64, 128, 256] {
            if mnw % mna != 0 {
                continue;
            }
            let (k_total, mn_total) = (ka.max(kw), 2 * mnw);
            let buf = buffer(&atom, k_total, mn_total, kw, mnw, 2);
            for s in 0..2 {
                for bk in 0..k_total / kw {
                    for bmn in 0..mn_total / mnw {
                        let key = (atom.name.to_string(), mnw, s, bk, bmn);
                        let c = cute
                            .get(&key)
                            .unwrap_or_else(|| panic!("CuTe has no {key:?}"));
                        let d = descriptor(&operand(&buf, s, bk, bmn), atom.bytes, atom.major, 0)
                            .unwrap();
                        let ours = vec![
                            i64::from(d.start),
                            i64::from(d.leading_byte_offset / 16),
                            i64::from(d.stride_byte_offset / 16),
                            d.swizzle.field() as i64,
                            i64::from(d.base_offset),
                        ];
                        assert_eq!(&ours, c, "{key:?}: {d:?}");
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compared, cute.len());
}

/// The descriptor's fields of the hand-computed cases: A of `SM90_64x64x16` from the SW128
/// K-major fp16 atom (SBO = 8 rows × 128 bytes), and B MN-major from the SW64 atom.
#[test]
fn known_descriptors() {
    let atoms = all_atoms();
    let find = |n: &str| atoms.iter().find(|a| a.name == n).unwrap();
    let k128 = find("gmma_layout_k_sw128_atom_half_t");
    let buf = buffer(k128, 64, 128, 16, 64, 2);
    let d = descriptor(&operand(&buf, 1, 2, 1), 2, Major::K, 0).unwrap();
    // stage 1 at 128·64·2 bytes, M block 1 at 64 rows × 128 bytes, K block 2 at 64 bytes.
    assert_eq!(
        d,
        Descriptor {
            start: 16384 + 8192 + 64,
            leading_byte_offset: 16,
            stride_byte_offset: 1024,
            base_offset: 0,
            swizzle: SwizzleMode::B128,
        }
    );
    assert_eq!(Descriptor::from_u64(d.encode().unwrap()), d);
    let mn64 = find("gmma_layout_mn_sw64_atom_half_t");
    let buf = buffer(mn64, 16, 64, 16, 64, 1);
    let d = descriptor(&operand(&buf, 0, 0, 0), 2, Major::MN, 0).unwrap();
    // 32 rows of 64 bytes per atom, 8 K rows of an atom = 512 bytes, 2 atoms along MN.
    assert_eq!(
        (d.leading_byte_offset, d.stride_byte_offset, d.swizzle),
        (512, 1024, SwizzleMode::B64)
    );
}

fn plain(text: &str) -> Map {
    Annotated::new(layout(text), Space::Logical, Space::Physical)
        .unwrap()
        .into()
}

fn sw(b: i64, elem_bits: u32) -> Swizzle {
    Swizzle::from_cute(b, 4, 3, SwizzleUnit::Bytes { elem_bits }).unwrap()
}

fn refusal(map: &Map, bytes: i64, major: Major, start: u32) -> Error {
    descriptor(map, bytes, major, start).unwrap_err()
}

/// Each reason a layout has no descriptor, on a minimal layout (fp16 unless said; seed
/// `(K, MN)`).
#[test]
fn each_refusal() {
    // The canonical interleaved K-major tile 16×8: two core matrices along K.
    let ok = plain("((2,8),8):((64,1),8)");
    let d = descriptor(&ok, 2, Major::K, 0).unwrap();
    assert_eq!(
        (d.leading_byte_offset, d.swizzle),
        (128, SwizzleMode::Interleave)
    );
    assert_eq!(
        refusal(&ok, 8, Major::K, 0),
        Error::GmmaElementBytes { bytes: 8 }
    );
    let tv = Map::from(
        Annotated::new(layout("(16,8):(8,1)"), Space::ThreadValue, Space::Logical).unwrap(),
    );
    assert_eq!(
        refusal(&tv, 2, Major::K, 0),
        Error::GmmaSpaces {
            domain: Space::ThreadValue,
            codomain: Space::Logical
        }
    );
    assert_eq!(
        refusal(&plain("128:1"), 2, Major::K, 0),
        Error::GmmaEntries { entries: 1 }
    );
    let twice = ok
        .clone()
        .swizzle(sw(1, 16))
        .unwrap()
        .swizzle(sw(1, 16))
        .unwrap();
    assert_eq!(refusal(&twice, 2, Major::K, 0), Error::GmmaTwoSwizzles);
    let odd = ok
        .clone()
        .swizzle(Swizzle::from_cute(2, 2, 3, SwizzleUnit::Elements).unwrap())
        .unwrap();
    assert_eq!(
        refusal(&odd, 2, Major::K, 0),
        Error::GmmaSwizzle {
            b: 2,
            src: 5,
            dst: 2,
            elem_bits: 16
        }
    );
    // The fp16 128-byte swizzle on 32-bit elements is not theirs.
    let k128_fp32 = plain("(8,8):(1,32)").swizzle(sw(3, 16)).unwrap();
    assert_eq!(refusal(&k128_fp32, 4, Major::K, 0).rule(), "gmma-swizzle");
    let k128 = plain("(16,8):(1,64)").swizzle(sw(3, 16)).unwrap();
    assert!(descriptor(&k128, 2, Major::K, 2048).is_ok());
    assert_eq!(
        refusal(&k128, 2, Major::K, 512),
        Error::GmmaBaseOffset {
            start: 512,
            repeat: 1024
        }
    );
    assert_eq!(
        refusal(&plain("(8,8):(1,8)"), 2, Major::K, 0),
        Error::GmmaKExtent {
            elements: 8,
            bytes: 16
        }
    );
    assert_eq!(
        refusal(&plain("(16,4):(1,16)"), 2, Major::K, 0),
        Error::GmmaMnExtent {
            major: Major::K,
            swizzle: SwizzleMode::Interleave,
            extent: 4,
            multiple: 8
        }
    );
    // MN-major under the 64-byte swizzle: 32 positions of MN per swizzled row.
    let mn64 = plain("(16,16):(32,1)").swizzle(sw(2, 16)).unwrap();
    assert_eq!(
        refusal(&mn64, 2, Major::MN, 0),
        Error::GmmaMnExtent {
            major: Major::MN,
            swizzle: SwizzleMode::B64,
            extent: 16,
            multiple: 32
        }
    );
    // MN-major: the canonical interleaved tile, then its swizzled row split into far chunks.
    let d = descriptor(&plain("(16,8):(8,1)"), 2, Major::MN, 0).unwrap();
    assert_eq!((d.leading_byte_offset, d.stride_byte_offset), (128, 0));
    let far_chunks = plain("(16,(4,8)):(32,(512,1))").swizzle(sw(2, 16)).unwrap();
    assert_eq!(
        refusal(&far_chunks, 2, Major::MN, 0),
        Error::GmmaSwizzleRow {
            major: Major::MN,
            swizzle: SwizzleMode::B64,
            found: Some(1024)
        }
    );
    assert_eq!(
        refusal(&plain("(16,8):(1,16)"), 2, Major::MN, 0),
        Error::GmmaCoreMatrix { major: Major::MN }
    );
    // (k, mn) -> x = 24k + mn -> x/128 + 3·(x%128): the carry into x/128 mixes k and mn.
    let not_layout = layout_core::compose(
        &plain("(3,128):(1,3)"),
        &Map::from(
            Annotated::new(layout("(16,24):(24,1)"), Space::Logical, Space::Logical).unwrap(),
        ),
    )
    .unwrap();
    assert_eq!(refusal(&not_layout, 2, Major::K, 0), Error::GmmaNotLayout);
    // Rows contiguous along MN asked as K-major.
    assert_eq!(
        refusal(&plain("(16,8):(8,1)"), 2, Major::K, 0),
        Error::GmmaCoreMatrix { major: Major::K }
    );
    // SW128 K-major with the two K chunks 32 bytes apart.
    let split_k = plain("((2,8),8):((16,1),64)").swizzle(sw(3, 16)).unwrap();
    assert_eq!(
        refusal(&split_k, 2, Major::K, 0),
        Error::GmmaSwizzleRow {
            major: Major::K,
            swizzle: SwizzleMode::B128,
            found: Some(32)
        }
    );
    // Rows 64 bytes apart under the 128-byte swizzle: the SW64 atom with the SW128 swizzle.
    let pitch = plain("(16,8):(1,32)").swizzle(sw(3, 16)).unwrap();
    assert_eq!(
        refusal(&pitch, 2, Major::K, 0),
        Error::GmmaRowPitch {
            major: Major::K,
            swizzle: SwizzleMode::B128,
            expected: 128,
            found: Some(64)
        }
    );
    // Two groups of 8 rows, 2048 bytes apart: one SBO; three levels of groups: none.
    let groups = plain("(16,(2,8)):(1,(1024,64))")
        .swizzle(sw(3, 16))
        .unwrap();
    assert_eq!(
        descriptor(&groups, 2, Major::K, 0)
            .unwrap()
            .stride_byte_offset,
        2048
    );
    let groups = plain("(16,(2,2,8)):(1,(4096,512,64))")
        .swizzle(sw(3, 16))
        .unwrap();
    assert_eq!(
        refusal(&groups, 2, Major::K, 0),
        Error::GmmaStride {
            field: ByteOffset::Stride
        }
    );
    // Interleaved: K chunks 136 bytes apart.
    let lbo = plain("((2,8),8):((68,1),8)");
    assert_eq!(
        refusal(&lbo, 2, Major::K, 0),
        Error::GmmaByteOffsetAlignment {
            field: ByteOffset::Leading,
            bytes: 136
        }
    );
    let far = plain("((2,8),8):((131072,1),8)");
    assert_eq!(
        refusal(&far, 2, Major::K, 0),
        Error::GmmaByteOffsetRange {
            field: ByteOffset::Leading,
            bytes: 262144
        }
    );
    assert_eq!(
        refusal(&ok, 2, Major::K, 8),
        Error::GmmaStartAlignment { address: 8 }
    );
    assert_eq!(
        refusal(&ok, 2, Major::K, 262144),
        Error::GmmaStartRange { address: 262144 }
    );
    let bad = Descriptor {
        base_offset: 8,
        ..d
    };
    assert_eq!(
        bad.encode(),
        Err(Error::GmmaBaseOffsetRange { base_offset: 8 })
    );
    // Every refusal has a message and a help naming a fix.
    for e in [
        Error::GmmaTwoSwizzles,
        Error::GmmaNotLayout,
        Error::GmmaCoreMatrix { major: Major::MN },
    ] {
        assert!(!e.to_string().is_empty() && e.help().is_some(), "{e}");
    }
}

//! `layout_core::banks::conflicts` against a brute-force enumeration of bytes, banks and words
//! on the corpus's shared-memory atoms (GMMA K-major atoms, swizzled and not), its `ldmatrix` /
//! `stmatrix` copy atoms and its register-sourced GMMA A operands.
//!
//! The oracle here uses only the corpus text (evaluated with the independent [`CuteText`]) and
//! the hardware model: 32 banks of 4 bytes, phases of 128 bytes (`32`, `16` or `8` lanes for
//! accesses of at most 4, 8 or 16 bytes per lane), a phase costs the most distinct words any one
//! bank holds. It enumerates every byte of every element; it does not assume vectors are
//! contiguous.

use std::collections::{BTreeMap, BTreeSet};

use layout_core::banks::{Conflicts, WarpAccess, conflicts};
use layout_core::{Annotated, Error, Layout, Map, ModePath, Space, Swizzle, SwizzleUnit};
use layout_tests::{CuteText, corpus, ints};

/// A CuTe `Swizzle<B,M,S>` on element offsets, written out (not through `layout-core`).
#[derive(Clone, Copy, Debug)]
struct Sw {
    b: i64,
    m: i64,
    s: i64,
}

impl Sw {
    fn apply(self, x: i64) -> i64 {
        let mask = (1 << self.b) - 1;
        let (src, dst) = if self.s >= 0 {
            (self.m + self.s, self.m)
        } else {
            (self.m, self.m - self.s)
        };
        x ^ (((x >> src) & mask) << dst)
    }

    /// The corpus's GMMA swizzles act on byte addresses: on elements of `bytes` bytes they are
    /// `Swizzle<B, M - log2(bytes), S>`.
    fn on_elements(self, bytes: i64) -> Sw {
        Sw {
            m: self.m - i64::from(bytes.trailing_zeros()),
            ..self
        }
    }
}

/// What the oracle counts.
#[derive(Debug, PartialEq, Eq)]
struct Count {
    ways: u64,
    wavefronts: u64,
    ideal: u64,
}

impl From<&Conflicts> for Count {
    fn from(c: &Conflicts) -> Count {
        Count {
            ways: c.ways,
            wavefronts: c.wavefronts,
            ideal: c.ideal,
        }
    }
}

/// Brute force over every byte: `offset(thread, value)` is the element offset a lane reads,
/// `repeat(thread)` whether the lane only repeats an earlier lane's access.
fn oracle(
    offset: &dyn Fn(i64, i64) -> i64,
    repeat: &dyn Fn(i64) -> bool,
    values: i64,
    vector: i64,
    elem_bytes: i64,
) -> Count {
    let access = vector * elem_bytes;
    let lanes_per_phase = if access <= 4 { 32 } else { 128 / access };
    let (mut ways, mut wavefronts, mut ideal) = (0u64, 0u64, 0u64);
    for first in (0..values).step_by(vector as usize) {
        for phase in (0..32).step_by(lanes_per_phase as usize) {
            let mut words = BTreeSet::new();
            for lane in phase..phase + lanes_per_phase {
                if repeat(lane) {
                    continue;
                }
                for k in 0..vector {
                    let e = offset(lane, first + k);
                    for byte in 0..elem_bytes {
                        words.insert((e * elem_bytes + byte).div_euclid(4));
                    }
                }
            }
            let mut per_bank: BTreeMap<i64, u64> = BTreeMap::new();
            for w in &words {
                *per_bank.entry(w.rem_euclid(32)).or_default() += 1;
            }
            let worst = per_bank.values().copied().max().unwrap_or(0);
            ways = ways.max(worst);
            wavefronts += worst;
            ideal += (words.len() as u64).div_ceil(32);
        }
    }
    Count {
        ways,
        wavefronts,
        ideal,
    }
}

/// Every integer of a layout text, in order.
fn numbers(s: &str) -> Vec<i64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("integer"))
        .collect()
}

/// The text with its integers replaced, in order.
fn with_numbers(s: &str, mut new: impl Iterator<Item = i64>) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in s.chars() {
        if c.is_ascii_digit() || c == '-' {
            if !in_number {
                out.push_str(&new.next().expect("one per integer").to_string());
                in_number = true;
            }
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// A CuTe layout into bit indices, recast to elements of `bits` bits: the stride-1 leaf that
/// walks the bits of one element shrinks by `bits`, every other stride is divided by `bits`.
fn recast_bits(text: &str, bits: i64) -> String {
    let (shape, stride) = text.split_once(':').expect("shape:stride");
    let (n, d) = (numbers(shape), numbers(stride));
    let mut sizes = Vec::new();
    let mut strides = Vec::new();
    for (&n, &d) in n.iter().zip(&d) {
        if d == 1 {
            assert_eq!(n % bits, 0, "{text}: a stride-1 leaf of whole elements");
            sizes.push(n / bits);
            strides.push(1);
        } else {
            assert_eq!(d % bits, 0, "{text}: strides of whole elements");
            sizes.push(n);
            strides.push(d / bits);
        }
    }
    format!(
        "{}:{}",
        with_numbers(shape, sizes.into_iter()),
        with_numbers(stride, strides.into_iter())
    )
}

/// A K-major GMMA atom from the corpus: rows of `row_bytes`, its swizzle on byte addresses.
struct Atom {
    name: String,
    row_bytes: i64,
    swizzle: Sw,
}

/// The K-major atoms: the bit-granular ones (`Layout_K_*_Atom_Bits`, `(8, R):(R, 1)` in bits)
/// and the typed `K_SW128<float>`, whose rows are 128 bytes.
fn k_major_atoms() -> Vec<Atom> {
    let mut atoms = Vec::new();
    for c in corpus("smem_atom") {
        let name = c["inputs"]["name"].as_str().unwrap().to_string();
        if !name.contains("Layout_K_") {
            continue;
        }
        let sw = ints(&c["inputs"]["swizzle"]).unwrap();
        let bits = c["inputs"]["element_bits"].as_i64().unwrap();
        let cute = CuteText::parse(c["inputs"]["layout"].as_str().unwrap()).unwrap();
        let leaves = cute.leaves();
        // (8, K):(K, 1): 8 rows of K elements.
        assert_eq!((leaves[0].0, leaves[1].1), (8, 1), "{name}");
        assert_eq!(
            leaves[0].1, leaves[1].0,
            "{name}: K-major, rows back to back"
        );
        atoms.push(Atom {
            name,
            row_bytes: leaves[1].0 * bits / 8,
            swizzle: Sw {
                b: sw[0],
                m: sw[1],
                s: sw[2],
            },
        });
    }
    atoms.sort_by_key(|a| a.row_bytes);
    atoms
}

#[test]
fn element_swizzles_reproduce_the_corpus() {
    // The conversion of a byte-address swizzle to elements, checked where the corpus gives the
    // pointer-level element offsets.
    let mut n = 0;
    for c in corpus("smem_atom") {
        let Some(expected) = ints(&c["expected"]["element_offsets"]) else {
            continue;
        };
        let sw = ints(&c["inputs"]["swizzle"]).unwrap();
        let bytes = c["inputs"]["element_bits"].as_i64().unwrap() / 8;
        let sw = Sw {
            b: sw[0],
            m: sw[1],
            s: sw[2],
        }
        .on_elements(bytes);
        let cute = CuteText::parse(c["inputs"]["layout"].as_str().unwrap()).unwrap();
        let l = Layout::from_cute(c["inputs"]["layout"].as_str().unwrap()).unwrap();
        let m: Map = Annotated::new(l, Space::Logical, Space::Physical)
            .unwrap()
            .into();
        let m = m
            .swizzle(Swizzle::from_cute(sw.b, sw.m, sw.s, SwizzleUnit::Elements).unwrap())
            .unwrap();
        for (i, &e) in expected.iter().enumerate() {
            assert_eq!(sw.apply(cute.eval(i as i64)), e, "{} at {i}", c["id"]);
            assert_eq!(m.eval_index(i as i64), Ok(e), "{} at {i}", c["id"]);
        }
        n += 1;
    }
    assert!(n >= 5, "{n} atoms with element offsets");
}

/// The corpus's `ldmatrix` sources and `stmatrix` destinations: the side that addresses shared
/// memory, a TV layout into bit indices of rows of 128 bits.
fn matrix_copies() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in corpus("copy_atom") {
        let name = c["inputs"]["name"].as_str().unwrap().to_string();
        let side = if name.contains("LDSM") {
            "Src"
        } else if name.contains("STSM") {
            "Dst"
        } else {
            continue;
        };
        assert_eq!(c["inputs"]["ThrID"], "32:1");
        out.push((name, c["inputs"][side].as_str().unwrap().to_string()));
    }
    out
}

#[test]
fn ldmatrix_and_stmatrix_on_gmma_atoms() {
    let atoms = k_major_atoms();
    let names: Vec<&str> = atoms.iter().map(|a| a.name.as_str()).collect();
    // INTER, SW32 (bit-granular and half_t), SW64, SW128 (float).
    assert_eq!(atoms.len(), 5, "{names:?}");
    let copies = matrix_copies();
    assert_eq!(copies.len(), 8);
    let half = 2i64;
    let mut table = Vec::new();
    for (copy, bits_tv) in &copies {
        let text = recast_bits(bits_tv, 16);
        let oracle_tv = CuteText::parse(bits_tv).unwrap();
        let tv = Layout::from_cute(&text).unwrap();
        let values = 8; // one 128-bit row per addressing lane
        assert_eq!(tv.size(), 32 * values, "{copy}: {text}");
        let rows = (0..32)
            .map(|t| oracle_tv.eval(t) / 128)
            .collect::<BTreeSet<_>>()
            .len() as i64;
        for atom in &atoms {
            let k = atom.row_bytes / half; // elements per atom row
            for swizzled in [false, true] {
                let sw = atom.swizzle.on_elements(half);
                // Row r of the copy is atom row r (atoms stacked along M), its first 8 halves.
                let smem_oracle = |i: i64| {
                    let x = (i / 8) * k + i % 8;
                    if swizzled { sw.apply(x) } else { x }
                };
                let offset = |t: i64, v: i64| smem_oracle(oracle_tv.eval(t + 32 * v * 16) / 16);
                let repeat =
                    |t: i64| (0..t).any(|u| (0..values).all(|v| offset(u, v) == offset(t, v)));
                let expected = oracle(&offset, &repeat, values, 8, half);

                let l: Layout = format!("({rows},8):({k},1)").parse().unwrap();
                let mut m: Map = Annotated::new(l, Space::Logical, Space::Physical)
                    .unwrap()
                    .into();
                if swizzled {
                    m = m
                        .swizzle(
                            Swizzle::from_cute(sw.b, sw.m, sw.s, SwizzleUnit::Elements).unwrap(),
                        )
                        .unwrap();
                }
                let access = WarpAccess {
                    element_bits: 16,
                    vector: 8,
                    warp: 0,
                    thread_mode: 1, // CuTe's first mode, the last in seed order
                };
                let got = conflicts(&m, &tv, &access).unwrap();
                assert_eq!(
                    Count::from(&got),
                    expected,
                    "{copy} on {} (swizzled: {swizzled})",
                    atom.name
                );
                table.push((copy.clone(), atom.row_bytes, swizzled, expected.ways));
            }
        }
    }
    // What the enumeration finds: rows of 16·2^B bytes read 8 at a time collide 2^B ways
    // (16 B rows: none), and the atom's own swizzle removes every conflict.
    for (copy, row_bytes, swizzled, ways) in &table {
        let want = if *swizzled {
            1
        } else {
            (*row_bytes as u64 / 16).max(1)
        };
        assert_eq!(
            *ways, want,
            "{copy}, rows of {row_bytes} bytes, swizzled: {swizzled}"
        );
    }
    assert_eq!(table.len(), 8 * 5 * 2);
}

#[test]
fn register_sourced_gmma_a_fragments() {
    // The A operand of the RS GMMA atoms, one warp at a time, read with 32-bit loads from a
    // K-major tile of 32-byte rows (the K_SW32 atom stacked along M), without and with its
    // swizzle Swizzle<1,4,3> on bytes.
    let mut seen = 0;
    for c in corpus("mma_atom") {
        let name = c["inputs"]["name"].as_str().unwrap();
        if !name.contains("_RS") {
            continue;
        }
        let a = c["inputs"]["A"].as_str().unwrap();
        let (m_size, k_size) = (
            c["inputs"]["M"].as_i64().unwrap(),
            c["inputs"]["K"].as_i64().unwrap(),
        );
        let elem_bytes = if name.contains("S8S8") { 1 } else { 2 };
        let oracle_tv = CuteText::parse(a).unwrap();
        let tv = Layout::from_cute(a).unwrap();
        let threads = 128;
        let values = tv.size() / threads;
        let vector = 4 / elem_bytes; // the contiguous K pair (half) or quad (int8): 32 bits
        let row = 32 / elem_bytes; // elements per 32-byte row
        assert_eq!(k_size, row, "{name}: K is one 32-byte row");
        for warp in 0..4 {
            for swizzled in [false, true] {
                let sw = Sw { b: 1, m: 4, s: 3 }.on_elements(elem_bytes);
                // Logical index m + M·k (CuTe's column-major tile), stored K-major: m·K + k.
                let smem_oracle = |i: i64| {
                    let x = (i % m_size) * k_size + i / m_size;
                    if swizzled { sw.apply(x) } else { x }
                };
                let offset =
                    |t: i64, v: i64| smem_oracle(oracle_tv.eval(32 * warp + t + threads * v));
                let expected = oracle(&offset, &|_| false, values, vector, elem_bytes);
                let l: Layout = format!("({k_size},{m_size}):(1,{k_size})").parse().unwrap();
                let mut m: Map = Annotated::new(l, Space::Logical, Space::Physical)
                    .unwrap()
                    .into();
                if swizzled {
                    m = m
                        .swizzle(
                            Swizzle::from_cute(sw.b, sw.m, sw.s, SwizzleUnit::Elements).unwrap(),
                        )
                        .unwrap();
                }
                let access = WarpAccess {
                    element_bits: 8 * elem_bytes as u32,
                    vector,
                    warp,
                    thread_mode: 1,
                };
                let got = conflicts(&m, &tv, &access).unwrap();
                assert_eq!(
                    Count::from(&got),
                    expected,
                    "{name}, warp {warp}, swizzled: {swizzled}"
                );
                // Eight rows of 32 bytes span 256 bytes: rows m and m + 4 share banks (2-way);
                // the swizzle moves rows 4..8 by 16 bytes.
                assert_eq!(expected.ways, if swizzled { 1 } else { 2 }, "{name}");
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 2 * 4 * 2);
}

#[test]
fn the_issue_examples() {
    // A warp reading one column of a 32×32 fp32 row-major tile: 32-way; Swizzle<5,0,5>: none.
    let tile: Layout = "(32,32):(32,1)".parse().unwrap();
    let oracle_offset = |sw: bool| {
        move |t: i64, v: i64| {
            let x = 32 * t + v;
            if sw {
                Sw { b: 5, m: 0, s: 5 }.apply(x)
            } else {
                x
            }
        }
    };
    for swizzled in [false, true] {
        let mut m: Map = Annotated::new(tile.clone(), Space::Logical, Space::Physical)
            .unwrap()
            .into();
        if swizzled {
            m = m
                .swizzle(Swizzle::from_cute(5, 0, 5, SwizzleUnit::Elements).unwrap())
                .unwrap();
        }
        let got = conflicts(&m, &tile, &WarpAccess::new(32)).unwrap();
        let expected = oracle(&oracle_offset(swizzled), &|_| false, 32, 1, 4);
        assert_eq!(Count::from(&got), expected);
        let want = if swizzled {
            Count {
                ways: 1,
                wavefronts: 32,
                ideal: 32,
            }
        } else {
            Count {
                ways: 32,
                wavefronts: 1024,
                ideal: 32,
            }
        };
        assert_eq!(expected, want);
    }
}

/// Every refusal of [`conflicts`], one input per rule and path (the storage map's spaces, the
/// element width, each way a vector is refused, each way the thread mode is, the warp, a lane
/// outside the tile, the instruction limit, a vector split or misaligned, and a layout error
/// passed through): its stable rule name, message and help, written out.
#[test]
fn refusals_read_as_before() {
    let storage = |text: &str| -> Map {
        Annotated::new(text.parse().unwrap(), Space::Logical, Space::Physical)
            .unwrap()
            .into()
    };
    let layout = |text: &str| -> Layout { text.parse().unwrap() };
    let access = |bits: u32, vector: i64, warp: i64, thread_mode: usize| WarpAccess {
        element_bits: bits,
        vector,
        warp,
        thread_mode,
    };
    let tv_map: Map = Annotated::new(layout("(32,4):(4,1)"), Space::ThreadValue, Space::Logical)
        .unwrap()
        .into();
    // The storage map, the thread-value layout, the access; the rule, message and help.
    type Refusal = (
        Map,
        Layout,
        WarpAccess,
        &'static str,
        &'static str,
        Option<&'static str>,
    );
    let cases: Vec<Refusal> = vec![
        (
            tv_map,
            layout("(32,4):(4,1)"),
            access(32, 1, 0, 0),
            "forbidden-spaces",
            "bank conflicts need a `logical -> physical` storage map, not `thread-value -> logical`",
            Some("give the shared-memory layout as `logical -> physical` (a swizzle may follow)"),
        ),
        (
            storage("128:1"),
            layout("(32,4):(4,1)"),
            access(12, 1, 0, 0),
            "access-width",
            "element width 12 bits is not 8, 16, 32, 64 or 128",
            Some(
                "give the element width in bits: 8, 16, 32, 64 or 128 (a copy atom that counts bits is converted to elements first)",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,4):(4,1)"),
            access(32, 3, 0, 0),
            "access-width",
            "a vector of 3 elements of 32 bits is not an access of 1, 2, 4, 8 or 16 bytes dividing 4 values",
            Some(
                "a lane moves 1, 2, 4, 8 or 16 bytes per instruction, and the vector must divide the 4 values per thread",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,4):(4,1)"),
            access(32, 0, 0, 0),
            "access-width",
            "a vector of 0 elements of 32 bits is not an access of 1, 2, 4, 8 or 16 bytes dividing 4 values",
            Some(
                "a lane moves 1, 2, 4, 8 or 16 bytes per instruction, and the vector must divide the 4 values per thread",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,4):(4,1)"),
            access(64, 4, 0, 0),
            "access-width",
            "a vector of 4 elements of 64 bits is not an access of 1, 2, 4, 8 or 16 bytes dividing 4 values",
            Some(
                "a lane moves 1, 2, 4, 8 or 16 bytes per instruction, and the vector must divide the 4 values per thread",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,4):(4,1)"),
            access(32, 1, 0, 2),
            "thread-mode",
            "thread mode 2 of a thread-value layout with 2 top-level modes (expected `(thread, value)`)",
            Some(
                "the thread-value layout has a thread mode and at most one value mode: `(thread, value)`",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,2,2):(4,2,1)"),
            access(32, 1, 0, 0),
            "thread-mode",
            "thread mode 0 of a thread-value layout with 3 top-level modes (expected `(thread, value)`)",
            Some(
                "the thread-value layout has a thread mode and at most one value mode: `(thread, value)`",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,4):(4,1)"),
            access(32, 1, 1, 0),
            "thread-mode",
            "warp 1 does not exist: the thread mode has 32 threads",
            Some("the thread mode has 32 threads: warps 0 to 0"),
        ),
        (
            storage("128:1"),
            layout("(64,2):(2,1)"),
            access(32, 1, -1, 0),
            "thread-mode",
            "warp -1 does not exist: the thread mode has 64 threads",
            Some("the thread mode has 64 threads: warps 0 to 1"),
        ),
        (
            storage("128:1"),
            layout("(32,8):(8,1)"),
            access(32, 1, 0, 0),
            "coordinate",
            "thread 16, value 0 reads logical position 128, outside [0, 128)",
            Some("the thread-value layout must map into the storage map's 128 logical positions"),
        ),
        (
            storage("128:1"),
            layout("(32,65537):(65537,1)"),
            access(32, 1, 0, 0),
            "too-large",
            "65537 instructions per warp exceed the limit of 65536",
            Some(
                "count the conflicts of one tile or one k-block: `restrict` or `divide` the layouts first",
            ),
        ),
        (
            storage("128:1"),
            layout("(32,4):(1,32)"),
            access(32, 2, 0, 0),
            "not-vector",
            "thread 0: the vector from value 0 (offset 0) is not contiguous and aligned in memory",
            Some(
                "use a smaller vector, or a layout (and swizzle) that keeps each lane's values contiguous and aligned",
            ),
        ),
        (
            storage("96:1"),
            layout("(32,2):(3,1)"),
            access(32, 2, 0, 0),
            "not-vector",
            "thread 1: the vector from value 0 (offset 3) is not contiguous and aligned in memory",
            Some(
                "use a smaller vector, or a layout (and swizzle) that keeps each lane's values contiguous and aligned",
            ),
        ),
        (
            storage("2:4611686018427387904"),
            layout("(2,1):(1,1)"),
            access(128, 1, 0, 0),
            "overflow",
            "overflow: the offset range exceeds i64 at the layout",
            Some("use smaller sizes or strides: every offset must fit in i64"),
        ),
    ];
    for (smem, tv, a, rule, message, help) in cases {
        // A refusal is a value of the one error type, about no mode (the overflow of a byte
        // offset: about the whole storage map).
        let e: Error = conflicts(&smem, &tv, &a).unwrap_err();
        let mode = (rule == "overflow").then_some(ModePath::ROOT);
        assert_eq!(e.mode(), mode, "{e:?}");
        let got = (e.rule(), e.to_string(), e.help().map(|h| h.to_string()));
        assert_eq!(
            got,
            (rule, message.to_string(), help.map(str::to_string)),
            "{smem:?} {tv} {a:?}"
        );
    }
}

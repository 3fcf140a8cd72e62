//! `layout_core::tma::tensor_map`: the tensor map derived from a GMMA shared-memory layout (every
//! K- and MN-major atom of `layout_typed::atoms`, 8-, 16- and 32-bit, tiled to a CTA tile by
//! the algebra) decodes, by the CUDA tensor-map semantics written again here (not the crate's
//! code: the box row-major, innermost dimension first, then the 16-byte chunk index XOR'd with
//! the 128-byte row index's low bits), to the layout's offset at every position of the tile, and
//! its global fields to the global tensor's offset of every element of every box, residue boxes
//! included; each refusal has its exact variant.

use layout_core::tma::{TensorMap, TmaSwizzle, tensor_map};
use layout_core::{Annotated, Error, Layout, Map, Space, Swizzle, SwizzleUnit, repeat_modewise};
use layout_typed::Layout as _;
use layout_typed::atoms;

/// The shared-memory byte address of box element `x` (innermost first) by CUDA's rule.
fn decode_smem(t: &TensorMap, x: &[i64]) -> i64 {
    let mut linear = 0;
    for d in (0..x.len()).rev() {
        linear = linear * t.box_dims[d] + x[d];
    }
    let addr = linear * t.element_bytes;
    let bits = match t.swizzle {
        TmaSwizzle::None => 0,
        TmaSwizzle::B32 => 1,
        TmaSwizzle::B64 => 2,
        TmaSwizzle::B128 => 3,
    };
    let row = (addr / 128) % (1 << bits);
    let chunk = (addr / 16) % 8;
    addr - chunk * 16 + (chunk ^ row) * 16
}

/// The global byte offset of the element at global coordinate `g` (per dimension) by the
/// tensor map's strides: the innermost dimension's stride is the element.
fn decode_global(t: &TensorMap, g: &[i64]) -> i64 {
    let mut off = g[0] * t.element_bytes;
    for (x, stride) in g.iter().skip(1).zip(&t.global_strides) {
        off += x * stride;
    }
    off
}

/// An atom's layout without its swizzle (`INNER`), a plain layout.
fn inner<L: layout_typed::Layout>(l: &L) -> Layout {
    l.to_map()
        .expect("map")
        .as_layout()
        .cloned()
        .expect("an atom's INNER is a plain layout")
}

/// A GMMA atom: its `ATOM` (swizzled) and `INNER`, the swizzle's bits, the element's bits, and
/// whether it is K-major.
struct Atom {
    name: &'static str,
    atom: Map,
    inner: Layout,
    bits: i64,
    elem_bits: i64,
    k_major: bool,
}

macro_rules! atom {
    ($m:ident, $bits:expr, $elem:expr, $k:expr) => {
        Atom {
            name: stringify!($m),
            atom: atoms::$m::ATOM.to_map().expect("atom"),
            inner: inner(&atoms::$m::INNER),
            bits: $bits,
            elem_bits: $elem,
            k_major: $k,
        }
    };
}

fn all_atoms() -> Vec<Atom> {
    vec![
        atom!(gmma_layout_k_inter_atom_uint8_t, 0, 8, true),
        atom!(gmma_layout_k_inter_atom_half_t, 0, 16, true),
        atom!(gmma_layout_k_inter_atom_float, 0, 32, true),
        atom!(gmma_layout_k_sw32_atom_uint8_t, 1, 8, true),
        atom!(gmma_layout_k_sw32_atom_half_t, 1, 16, true),
        atom!(gmma_layout_k_sw32_atom_float, 1, 32, true),
        atom!(gmma_layout_k_sw64_atom_uint8_t, 2, 8, true),
        atom!(gmma_layout_k_sw64_atom_half_t, 2, 16, true),
        atom!(gmma_layout_k_sw64_atom_float, 2, 32, true),
        atom!(gmma_layout_k_sw128_atom_uint8_t, 3, 8, true),
        atom!(gmma_layout_k_sw128_atom_half_t, 3, 16, true),
        atom!(gmma_layout_k_sw128_atom_float, 3, 32, true),
        atom!(gmma_layout_mn_inter_atom_uint8_t, 0, 8, false),
        atom!(gmma_layout_mn_inter_atom_half_t, 0, 16, false),
        atom!(gmma_layout_mn_inter_atom_float, 0, 32, false),
        atom!(gmma_layout_mn_sw32_atom_uint8_t, 1, 8, false),
        atom!(gmma_layout_mn_sw32_atom_half_t, 1, 16, false),
        atom!(gmma_layout_mn_sw32_atom_float, 1, 32, false),
        atom!(gmma_layout_mn_sw64_atom_uint8_t, 2, 8, false),
        atom!(gmma_layout_mn_sw64_atom_half_t, 2, 16, false),
        atom!(gmma_layout_mn_sw64_atom_float, 2, 32, false),
        atom!(gmma_layout_mn_sw128_atom_uint8_t, 3, 8, false),
        atom!(gmma_layout_mn_sw128_atom_half_t, 3, 16, false),
        atom!(gmma_layout_mn_sw128_atom_float, 3, 32, false),
    ]
}

/// The atom tiled along its strided dimension `copies` times (`repeat_modewise`: K-major atoms
/// stack rows of MN, MN-major atoms columns of K), with the atom's swizzle.
fn tiled(a: &Atom, copies: i64) -> Map {
    // Seed order: the atom's domain is (K, MN); repeat MN (K-major) or K (MN-major).
    let rep: Layout = if a.k_major {
        format!("(1,{copies}):({copies},1)")
    } else {
        format!("({copies},1):(1,{copies})")
    }
    .parse()
    .expect("repeat");
    let l = repeat_modewise(&a.inner, &rep).expect("tiled");
    let m: Map = Annotated::new(l, Space::Logical, Space::Physical)
        .expect("checked")
        .into();
    if a.bits == 0 {
        m
    } else {
        m.swizzle(
            Swizzle::from_cute(
                a.bits,
                4,
                3,
                SwizzleUnit::Bytes {
                    elem_bits: u32::try_from(a.elem_bits).expect("bits"),
                },
            )
            .expect("swizzle"),
        )
        .expect("swizzled")
    }
}

#[test]
fn every_gmma_atom_tiled_decodes_to_its_layout_at_every_position() {
    for a in all_atoms() {
        let eb = a.elem_bits / 8;
        // The tiled map restricted to its first atom is the typed ATOM (the tiling and the
        // swizzle are the atom's).
        let one = tiled(&a, 1);
        assert_eq!(one.size(), a.atom.size(), "{}", a.name);
        for i in 0..one.size() {
            assert_eq!(one.eval_index(i), a.atom.eval_index(i), "{} at {i}", a.name);
        }
        let copies = if a.k_major { 16 } else { 8 };
        let smem = tiled(&a, copies);
        let tile = smem.domain_entry_sizes();
        // Global tensors (seed order (K, MN)) with residues and a padded leading dimension (208
        // elements: a multiple of 16 bytes for every width): K-major CuTe (300, 200):(208, 1),
        // MN-major CuTe (200, 300):(1, 208).
        let ld = 208;
        let global = if a.k_major {
            Layout::from_cute(&format!("(300,200):({ld},1)"))
        } else {
            Layout::from_cute(&format!("(200,300):(1,{ld})"))
        }
        .expect("global");
        let t = tensor_map(&global, &smem, eb).unwrap_or_else(|e| panic!("{}: {e}", a.name));
        // The contiguous mode first: K (seed mode 0) for K-major, MN (seed mode 1) otherwise.
        let inner_mode = if a.k_major { 0 } else { 1 };
        assert_eq!(t.modes, vec![inner_mode, 1 - inner_mode], "{}", a.name);
        assert_eq!(
            t.box_dims,
            vec![tile[inner_mode], tile[1 - inner_mode]],
            "{}",
            a.name
        );
        let want_swizzle = [
            TmaSwizzle::None,
            TmaSwizzle::B32,
            TmaSwizzle::B64,
            TmaSwizzle::B128,
        ][usize::try_from(a.bits).expect("bits")];
        assert_eq!(t.swizzle, want_swizzle, "{}", a.name);
        assert_eq!(t.global_strides, vec![ld * eb], "{}", a.name);
        assert_eq!(t.element_strides, vec![1, 1]);
        // Shared memory: every position of the tile.
        for c0 in 0..tile[0] {
            for c1 in 0..tile[1] {
                let flat = c0 * tile[1] + c1;
                let seed = [c0, c1];
                let x = [seed[inner_mode], seed[1 - inner_mode]];
                assert_eq!(
                    decode_smem(&t, &x),
                    smem.eval_index(flat).expect("eval") * eb,
                    "{} smem at {seed:?}",
                    a.name
                );
            }
        }
        // Global memory: every element of a first and a residue box (the box at the last
        // tile of each mode), where it lies inside the tensor.
        let leaves = global.shape().leaves();
        let extents = [*leaves[0], *leaves[1]];
        assert_eq!(
            t.global_dims,
            vec![extents[inner_mode], extents[1 - inner_mode]],
            "{}",
            a.name
        );
        for origin in [
            [0, 0],
            [(extents[0] - 1) / tile[0], (extents[1] - 1) / tile[1]],
        ] {
            for c0 in 0..tile[0] {
                for c1 in 0..tile[1] {
                    let g = [origin[0] * tile[0] + c0, origin[1] * tile[1] + c1];
                    if g[0] >= extents[0] || g[1] >= extents[1] {
                        continue;
                    }
                    let want = global.eval_index(g[0] * extents[1] + g[1]).expect("global") * eb;
                    let gd = [g[inner_mode], g[1 - inner_mode]];
                    assert_eq!(decode_global(&t, &gd), want, "{} global at {g:?}", a.name);
                }
            }
        }
    }
}

fn plain(cute: &str) -> Map {
    Annotated::new(
        Layout::from_cute(cute).expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("checked")
    .into()
}

fn sw128(m: Map) -> Map {
    m.swizzle(Swizzle::from_cute(3, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 }).expect("sw"))
        .expect("swizzled")
}

#[test]
fn what_no_tensor_map_writes_is_refused_with_its_reason() {
    let global = Layout::from_cute("(300,200):(208,1)").expect("global");
    let tile = sw128(plain("(128,64):(64,1)"));
    assert_eq!(
        tensor_map(&global, &tile, 3),
        Err(Error::TmaElement { bytes: 3 })
    );
    // A global mode that is not one leaf.
    let nested = Layout::from_cute("((4,75),200):((208,832),1)").expect("nested");
    assert_eq!(
        tensor_map(&nested, &tile, 2),
        Err(Error::TmaRank { rank: 2 })
    );
    // No contiguous mode.
    let strided = Layout::from_cute("(300,200):(416,2)").expect("strided");
    assert_eq!(tensor_map(&strided, &tile, 2), Err(Error::TmaInnerStride));
    // A leading dimension of 201 halves: 402 bytes, not a multiple of 16.
    let odd = Layout::from_cute("(300,200):(201,1)").expect("odd");
    assert_eq!(
        tensor_map(&odd, &tile, 2),
        Err(Error::TmaStride {
            mode: 1,
            stride: 201
        })
    );
    // A box of 512 rows.
    let tall = sw128(plain("(512,64):(64,1)"));
    assert_eq!(
        tensor_map(
            &Layout::from_cute("(600,200):(208,1)").expect("g"),
            &tall,
            2
        ),
        Err(Error::TmaBox { dim: 1, size: 512 })
    );
    // Two 16-byte-wide INTER atoms side by side along K: not one row-major box of 16 halves.
    // The first difference (positions in seed order (k, m), m fastest): (0, 1) is at offset 8,
    // the box puts it at 16.
    let two = plain("(128,(8,2)):(8,(1,1024))");
    assert_eq!(
        tensor_map(&global, &two, 2),
        Err(Error::TmaNotBox {
            index: 1,
            offset: 8,
            expected: 16
        })
    );
    // The 128-byte swizzle over 256-byte rows: the image matches, the span does not.
    let wide = sw128(plain("(8,128):(128,1)"));
    assert_eq!(
        tensor_map(&global, &wide, 2),
        Err(Error::TmaSwizzleSpan {
            bytes: 256,
            span: 128
        })
    );
}

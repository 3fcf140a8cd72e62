//! The demo (`layout-typed/examples/mma_gemm.rs`) as a test: the typed offsets of the SM80
//! atom equal the corpus and the run-time maps at every coordinate, the GEMM verifies, and a
//! corrupted atom that still passes the compile-time checks (two strides swapped, still a dense
//! bijection) fails the verification. The corrupted atom that is *not* dense is a compile
//! error: `ui-tests/ui/macro/corrupted_atom.rs`.

#[path = "../../layout-typed/examples/mma_gemm.rs"]
#[allow(dead_code)]
mod demo;

use demo::{Atom, M, N, Sm80};
use layout_tests::{CuteText, corpus};
use layout_typed::IndexType;
use layout_typed::prelude::*;

layout! {
    /// TV_A with the value strides 16 and 8 exchanged: still a dense bijection, but wrong.
    const SWAPPED_A = cute ((4,8),(2,2,2)):((32,1),(8,16,128)), thread-value -> logical(16,16);
}

#[derive(Clone, Copy)]
struct Swapped;
impl Atom for Swapped {
    type A = SWAPPED_A;
    type B = demo::TV_B;
    type C = demo::TV_C;
    fn layouts(self) -> (SWAPPED_A, demo::TV_B, demo::TV_C) {
        (SWAPPED_A, demo::TV_B, demo::TV_C)
    }
}

fn sm80_case() -> serde_json::Value {
    corpus("mma_atom")
        .into_iter()
        .find(|c| c["inputs"]["name"] == "SM80_16x8x16_F32F16F16F32_TN")
        .expect("the SM80 atom is in the corpus")
}

fn offsets<L: Layout>(l: L) -> Vec<i64> {
    (0..L::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

#[test]
fn typed_atom_layouts_equal_the_corpus_and_the_oracle() {
    let case = sm80_case();
    let (a, b, c) = Sm80.layouts();
    for (key, got) in [("A", offsets(a)), ("B", offsets(b)), ("C", offsets(c))] {
        let expected: Vec<i64> = case["expected"][format!("{key}_offsets")]
            .as_array()
            .expect("offsets")
            .iter()
            .map(|v| v.as_i64().expect("integer"))
            .collect();
        assert_eq!(got, expected, "{key}");
        let text = case["inputs"][key].as_str().expect("layout text");
        let oracle = CuteText::parse(text).expect("CuTe text");
        let by_oracle: Vec<i64> = (0..oracle.size()).map(|i| oracle.eval(i)).collect();
        assert_eq!(got, by_oracle, "{key} vs the independent CuTe evaluator");
    }
}

#[test]
fn composed_offsets_equal_the_run_time_maps() {
    let (a, b, c) = Sm80.layouts();
    fn check<L: Layout>(l: L) {
        let map = l.to_map().expect("typed maps are valid at run time");
        assert_eq!(map.size(), L::SIZE as i64);
        for i in 0..L::SIZE {
            assert_eq!(
                l.offset_index(i).to_isize() as i64,
                map.eval_index(i as i64).expect("in range")
            );
        }
    }
    check(compose(demo::GA, a));
    check(compose(demo::GB, b));
    check(compose(demo::GC, c));
    // Coarse (value, lane) coordinates agree with the flat index value·32 + lane.
    let addr = compose(demo::GA, a);
    for v in 0..8usize {
        for lane in 0..32usize {
            assert_eq!(
                addr.offset((v, lane)),
                addr.offset_index(v * 32 + lane).to_isize() as i64
            );
        }
    }
}

fn mismatches<T: Atom>(atom: T) -> usize
where
    (usize, usize): layout_typed::Coord<<T::A as Layout>::Form>
        + layout_typed::Coord<<T::B as Layout>::Form>
        + layout_typed::Coord<<T::C as Layout>::Form>,
{
    let (a, b) = demo::inputs();
    let mut c = vec![f32::NAN; M * N];
    let mut reference = vec![0f32; M * N];
    demo::gemm_by_layouts(atom, &a, &b, &mut c);
    demo::gemm_naive(&a, &b, &mut reference);
    c.iter().zip(&reference).filter(|(x, y)| x != y).count()
}

#[test]
fn the_real_atom_verifies() {
    assert_eq!(mismatches(Sm80), 0);
}

#[test]
fn a_swapped_atom_fails_the_verification() {
    // Still a dense bijection, so only the verification can catch it.
    assert!(layout_core_dense(SWAPPED_A));
    let wrong = mismatches(Swapped);
    assert!(wrong > M * N / 2, "only {wrong} elements differ");
}

fn layout_core_dense<L: Layout>(l: L) -> bool {
    match l.to_map().expect("valid") {
        layout_typed::core_algebra::Map::Layout(a) => {
            layout_typed::core_algebra::is_dense_bijection(a.layout())
        }
        _ => false,
    }
}

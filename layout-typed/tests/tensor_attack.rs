//! Hostile checks of `Tensor` and `recast`: every element read or stored through a tensor is
//! compared with the element a brute-force model written here picks, and every store through
//! an aliasing layout is refused. A test marked `ignore` reproduces a known defect.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use layout_typed::prelude::*;
use layout_typed::{Tensor, TensorError};

/// Distinct 16-bit values in a 16-byte aligned buffer.
#[repr(C, align(16))]
struct Aligned([u16; 512]);

fn halves() -> Aligned {
    let mut a = Aligned([0; 512]);
    for (i, x) in a.0.iter_mut().enumerate() {
        *x = (i as u16).wrapping_mul(0x9e37) ^ 0x1234;
    }
    a
}

/// The `u32` made of halves `at` and `at + 1` (native byte order).
fn word(h: &[u16], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b[..2].copy_from_slice(&h[at].to_ne_bytes());
    b[2..].copy_from_slice(&h[at + 1].to_ne_bytes());
    u32::from_ne_bytes(b)
}

#[test]
fn recast_of_a_literal_restriction_keeps_its_constant() {
    // (4,8,4):(32,1,8) with entry 0 fixed to 2: offset 64 + r + 8·v over (8, 4).
    let a = halves();
    let fixed = layout!(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = 2));
    let t = Tensor::new(&a.0[..], fixed);
    for r in 0..8usize {
        for v in 0..4usize {
            assert_eq!(*t.get((r, v)), a.0[64 + r + 8 * v]);
        }
    }
    match t.recast::<u32>() {
        Err(e) => assert_eq!(e, TensorError::NotLinear),
        Ok(w) => {
            // (4, 4) words: word (r, v) is halves 64 + 2r + 8v and the next.
            for r in 0..4usize {
                for v in 0..4usize {
                    assert_eq!(*w.get((r, v)), word(&a.0, 64 + 2 * r + 8 * v), "({r}, {v})");
                }
            }
        }
    }
}

#[test]
fn recast_of_a_literal_restriction_of_a_composite() {
    layout! {
        const SMEM = (16,32):(32,1), logical -> physical;
        const TV = (thread: 64, value: 8):(8, 1), thread-value -> logical;
    }
    let a = halves();
    let slice = layout!(restrict(compose(SMEM, TV), thread = 5));
    let t = Tensor::new(&a.0[..], slice);
    for v in 0..8usize {
        assert_eq!(*t.get(v), a.0[40 + v]);
    }
    match t.recast::<u32>() {
        Err(e) => assert_eq!(e, TensorError::NotLinear),
        Ok(w) => {
            for v in 0..4usize {
                assert_eq!(*w.get(v), word(&a.0, 40 + 2 * v), "{v}");
            }
        }
    }
}

#[test]
fn recast_of_a_swizzle_is_refused_or_exact() {
    let a = halves();
    let s = layout!((8,16):(16,1), logical -> physical, swizzle(b = 2, src = 4, dst = 1));
    let t = Tensor::new(&a.0[..], s);
    let swz = |o: usize| o ^ (((o >> 4) & 3) << 1);
    for r in 0..8usize {
        for c in 0..16usize {
            assert_eq!(*t.get((r, c)), a.0[swz(r * 16 + c)]);
        }
    }
    match t.recast::<u32>() {
        Err(e) => assert_eq!(e, TensorError::NotLinear),
        Ok(w) => {
            for r in 0..8usize {
                for c in 0..8usize {
                    let o = swz(r * 16 + 2 * c);
                    assert_eq!(*w.get((r, c)), word(&a.0, o), "({r}, {c})");
                }
            }
        }
    }
}

#[test]
fn recast_mut_of_a_static_broadcast_stays_read_only() {
    let mut a = halves();
    let mut t = Tensor::new(&mut a.0[..], layout!((4,8):(_,1), logical -> physical));
    assert!(t.is_read_only());
    let mut w = t.recast_mut::<u32>().expect("recast");
    assert!(w.is_read_only());
    assert_eq!(w.try_set((1usize, 1usize), 7), Err(7));
    let r = catch_unwind(AssertUnwindSafe(|| w.set((1usize, 1usize), 7)));
    assert!(r.is_err(), "a store through a broadcast must panic");
    let mut w = t.recast_mut::<u8>().expect("recast down");
    assert!(w.is_read_only());
    assert_eq!(w.try_set((1usize, 1usize), 7), Err(7));
    let _ = t;
    assert_eq!(a.0[..], halves().0[..]);
}

#[test]
fn tensor_through_a_run_time_operand_with_negative_strides() {
    let (m, n, ld) = (4usize, 6usize, 8i64);
    let neg = -ld;
    let d = layout!(divide([({m}, {n}):({neg}, 1), logical -> physical], (2, 3))).expect("valid");
    let (lo, hi) = d.offset_range();
    assert_eq!((lo, hi), (-3 * ld, 5));
    let buf: Vec<u32> = (0..64).map(|i| i * 3 + 1).collect();
    assert!(matches!(
        Tensor::try_with_base(&buf[..], 23, &d),
        Err(TensorError::BelowStart { .. })
    ));
    let t = Tensor::with_base(&buf[..], 24, &d);
    for x in 0..m {
        for y in 0..n {
            let c = ((x % 2, y % 3), (x / 2, y / 3));
            assert_eq!(*t.get(c), buf[(24 - x as i64 * ld + y as i64) as usize]);
        }
    }
    let mut store = vec![0u32; 64];
    let mut t = Tensor::with_base(&mut store[..], 24, &d);
    t.set(((1usize, 2usize), (1usize, 1usize)), 77);
    assert_eq!(store[(24 - 3 * ld + 5) as usize], 77);
    assert_eq!(store.iter().filter(|&&v| v != 0).count(), 1);
}

#[test]
fn tensor_through_a_run_time_tile_exact_range_boundary() {
    let (m, k, ld) = (8usize, 8usize, 9usize);
    for (i, j) in [(0usize, 0usize), (1, 1)] {
        let d = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (4, 4)), rest = (i, j)))
            .expect("valid");
        let last = (4 * i + 3) * ld + 4 * j + 3;
        assert_eq!(
            d.offset_range(),
            (((4 * i) * ld + 4 * j) as i64, last as i64)
        );
        let buf = vec![1u8; last + 1];
        assert!(Tensor::try_new(&buf[..], &d).is_ok());
        assert!(Tensor::try_new(&buf[..last], &d).is_err());
        assert!(Tensor::try_with_base(&buf[..], 1, &d).is_err());
    }
}

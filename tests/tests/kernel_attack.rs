//! Hostile tests of the kernel builders (`copy`, `mma`, `residue`, `banks`): random
//! configurations compared with brute-force evaluators written here from CuTe's definitions
//! and the documented contracts, and inputs at the edges (size-1 modes, negative and huge
//! strides, `i64` extremes) that must give a value or a precise error, never a panic or a wrap.

use layout_core::copy::{CopySide, Storage, TiledCopy, max_common_vector};
use layout_core::{Annotated, Error, Layout, Map, Space, Swizzle, SwizzleUnit};
use layout_tests::Rng;

// ---------------------------------------------------------------------------------------------
// Brute-force models.

/// A layout as the test sees it: per top-level mode (seed order), its leaves `(size, stride)`
/// slowest first; the last mode, and in a mode the last leaf, vary fastest.
#[derive(Clone, Debug)]
struct Model {
    modes: Vec<Vec<(i64, i64)>>,
    /// CuTe's `Swizzle<B, M, S>` applied to the offset, if any.
    swizzle: Option<(i64, i64, i64)>,
}

impl Model {
    fn size(&self) -> i64 {
        self.modes.iter().flatten().map(|l| l.0).product()
    }

    fn extent(&self, m: usize) -> i64 {
        self.modes[m].iter().map(|l| l.0).product()
    }

    fn extents(&self) -> Vec<i64> {
        (0..self.modes.len()).map(|m| self.extent(m)).collect()
    }

    /// The offset at flat index `i`.
    fn eval(&self, mut i: i64) -> i64 {
        let mut off = 0;
        for &(n, d) in self.modes.iter().flatten().rev() {
            off += (i % n) * d;
            i /= n;
        }
        assert_eq!(i, 0);
        match self.swizzle {
            Some((b, m, s)) => {
                let mask = ((1 << b) - 1) << (m + s);
                off ^ ((off & mask) >> s)
            }
            None => off,
        }
    }

    /// Seed-order text.
    fn text(&self) -> String {
        let part = |f: &dyn Fn(&(i64, i64)) -> i64| -> String {
            let modes: Vec<String> = self
                .modes
                .iter()
                .map(|leaves| {
                    if leaves.len() == 1 {
                        f(&leaves[0]).to_string()
                    } else {
                        let v: Vec<String> = leaves.iter().map(|l| f(l).to_string()).collect();
                        format!("({})", v.join(","))
                    }
                })
                .collect();
            format!("({})", modes.join(","))
        };
        format!("{}:{}", part(&|l| l.0), part(&|l| l.1))
    }

    fn layout(&self) -> Layout {
        self.text()
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", self.text()))
    }

    fn map(&self) -> Map {
        let m: Map = Annotated::new(self.layout(), Space::Logical, Space::Physical)
            .unwrap()
            .into();
        match self.swizzle {
            Some((b, mm, s)) => m
                .swizzle(Swizzle::from_cute(b, mm, s, SwizzleUnit::Elements).unwrap())
                .unwrap(),
            None => m,
        }
    }
}

/// A random injective layout over modes of these extents, each mode one or two leaves, the
/// leaves' strides compact in a random order with random gaps (leading dimensions), negated
/// with `neg` percent chance.
fn random_storage(rng: &mut Rng, extents: &[i64], neg: u64, gap: u64) -> Model {
    let mut modes: Vec<Vec<(i64, i64)>> = extents
        .iter()
        .map(|&n| {
            let divisors: Vec<i64> = (1..=n).filter(|d| n % d == 0).collect();
            let d = rng.pick(&divisors);
            if d > 1 && d < n && rng.chance(50) {
                vec![(n / d, 0), (d, 0)]
            } else {
                vec![(n, 0)]
            }
        })
        .collect();
    let mut leaves: Vec<(usize, usize)> = modes
        .iter()
        .enumerate()
        .flat_map(|(m, l)| (0..l.len()).map(move |k| (m, k)))
        .collect();
    // Half of them in the natural order (the last leaf fastest), half shuffled.
    leaves.reverse();
    if rng.chance(50) {
        for i in (1..leaves.len()).rev() {
            leaves.swap(i, rng.below(i + 1));
        }
    }
    let mut run = 1;
    for (m, k) in leaves {
        let n = modes[m][k].0;
        let sign = if rng.chance(neg) { -1 } else { 1 };
        modes[m][k].1 = if n == 1 && gap > 0 && rng.chance(30) {
            0
        } else {
            sign * run
        };
        run *= n + if rng.chance(gap) { rng.range(1, 3) } else { 0 };
    }
    Model {
        modes,
        swizzle: None,
    }
}

fn ok<T>(r: Result<T, Error>, what: &str) -> T {
    r.unwrap_or_else(|e| panic!("{what}: {e:?}"))
}

// ---------------------------------------------------------------------------------------------
// max_common_vector

/// `N` as documented: the largest with `a(b⁻¹(n)) − a(0) = n` for every `n < N`, `b⁻¹(n)` the
/// flat index where `b` reaches `b(0) + n` (b injective).
fn brute_common_vector(a: &Model, b: &Model) -> i64 {
    let size = a.size();
    let (a0, b0) = (a.eval(0), b.eval(0));
    let mut inv = std::collections::HashMap::new();
    for i in 0..size {
        inv.entry(b.eval(i) - b0).or_insert(i);
    }
    let mut n = 0;
    while n < size {
        match inv.get(&n) {
            Some(&i) if a.eval(i) - a0 == n => n += 1,
            _ => break,
        }
    }
    n.max(1)
}

#[test]
fn max_common_vector_matches_brute_force_on_random_layouts() {
    let mut rng = Rng(0x6b65_726e_656c);
    for case in 0..400 {
        let rank = rng.range(1, 3) as usize;
        let extents: Vec<i64> = (0..rank)
            .map(|_| rng.pick(&[1, 2, 3, 4, 6, 8, 16]))
            .collect();
        let neg = if case % 3 == 0 { 30 } else { 0 };
        let mut a = random_storage(&mut rng, &extents, neg, 25);
        let mut b = random_storage(&mut rng, &extents, neg, 25);
        if neg == 0 {
            for m in [&mut a, &mut b] {
                if rng.chance(30) {
                    let bits = rng.range(1, 2);
                    m.swizzle = Some((bits, rng.range(0, 2), rng.range(bits, 3)));
                }
            }
        }
        if rng.chance(40) {
            b = a.clone();
            b.swizzle = None;
        }
        let want = brute_common_vector(&a, &b);
        let got = ok(
            max_common_vector(&a.map(), &b.map()),
            &format!("{a:?} {b:?}"),
        );
        // A negative stride is outside CuTe's right inverse: the answer may then be smaller (a
        // narrower vector is never wrong), never larger.
        if neg == 0 {
            assert_eq!(got, want, "case {case}: a {a:?}, b {b:?}");
        } else {
            assert!(got <= want, "case {case}: {got} > {want}: a {a:?}, b {b:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TiledCopy

/// The coordinate of each top-level mode of `l` at flat index `i` (inverse of the flat index).
fn mode_coords(l: &Model, mut i: i64) -> Vec<i64> {
    let mut c = vec![0; l.modes.len()];
    for m in (0..l.modes.len()).rev() {
        let n = l.extent(m);
        c[m] = i % n;
        i /= n;
    }
    c
}

/// The inverse of a dense bijection: `inv[offset] = flat index`.
fn inverse(l: &Model) -> Vec<i64> {
    let mut inv = vec![-1; l.size() as usize];
    for i in 0..l.size() {
        let o = l.eval(i) as usize;
        assert_eq!(inv[o], -1);
        inv[o] = i;
    }
    inv
}

/// CuTe's `raked_product(thr, val)` read as a thread-value map: thread `t`'s value `v` sits,
/// per mode, at `val`'s coordinate plus `size(val_i)` times `thr`'s; returns the coordinate.
fn brute_copy_coord(thr: &Model, val: &Model, t: i64, v: i64) -> Vec<i64> {
    brute_copy_coord_with(thr, val, &inverse(thr), &inverse(val), t, v)
}

/// [`brute_copy_coord`] with the inverses of `thr` and `val` given.
fn brute_copy_coord_with(
    thr: &Model,
    val: &Model,
    ti: &[i64],
    vi: &[i64],
    t: i64,
    v: i64,
) -> Vec<i64> {
    let tc = mode_coords(thr, ti[t as usize]);
    let vc = mode_coords(val, vi[v as usize]);
    (0..tc.len())
        .map(|m| vc[m] + val.extent(m) * tc[m])
        .collect()
}

fn index_of(coord: &[i64], extents: &[i64]) -> i64 {
    coord.iter().zip(extents).fold(0, |acc, (c, n)| acc * n + c)
}

/// A random copy: thread and value layouts of rank 2 (dense, random leaf orders) and a vector
/// dividing the values.
fn random_copy(rng: &mut Rng) -> (Model, Model, i64) {
    let te: Vec<i64> = (0..2).map(|_| rng.pick(&[1, 2, 4, 8])).collect();
    let ve: Vec<i64> = (0..2).map(|_| rng.pick(&[1, 2, 4])).collect();
    let thr = random_storage(rng, &te, 0, 0);
    let val = random_storage(rng, &ve, 0, 0);
    let values = val.size();
    let divisors: Vec<i64> = (1..=values).filter(|d| values % d == 0).collect();
    (thr, val, rng.pick(&divisors))
}

#[test]
fn tiled_copy_partition_matches_raked_product_on_random_copies() {
    let mut rng = Rng(0x636f_7079);
    for case in 0..150 {
        let (thr, val, vector) = random_copy(&mut rng);
        let copy = ok(
            TiledCopy::new(&thr.layout(), &val.layout(), vector),
            &format!("{thr:?} {val:?}"),
        );
        let tile: Vec<i64> = (0..2).map(|m| thr.extent(m) * val.extent(m)).collect();
        assert_eq!(copy.tile(), &tile[..]);
        let (threads, values) = (thr.size(), val.size());
        // The tensor: an optional stage mode, then each mode a random multiple of the tile.
        let stages = rng.pick(&[0, 1, 3]);
        let reps: Vec<i64> = (0..2).map(|_| rng.range(1, 3)).collect();
        let mut extents: Vec<i64> = (0..2).map(|m| tile[m] * reps[m]).collect();
        if stages > 0 {
            extents.insert(0, stages);
        }
        let storage = random_storage(&mut rng, &extents, 20, 25);
        let part = ok(copy.partition(&storage.map()), &format!("case {case}"));
        let lead = usize::from(stages > 0);
        for t in 0..threads {
            let mine = ok(copy.partition_thread(&storage.map(), t), "partition_thread");
            let mut j = 0;
            // Flat order of (rest…, value): value fastest, then the last rest.
            let rest: Vec<i64> = extents[..lead]
                .iter()
                .copied()
                .chain(reps.clone())
                .collect();
            let rests: i64 = rest.iter().product();
            for r in 0..rests {
                let mut rc = vec![0; rest.len()];
                let mut x = r;
                for k in (0..rest.len()).rev() {
                    rc[k] = x % rest[k];
                    x /= rest[k];
                }
                for v in 0..values {
                    let c = brute_copy_coord(&thr, &val, t, v);
                    let mut g: Vec<i64> = rc[..lead].to_vec();
                    g.extend((0..2).map(|m| rc[lead + m] * tile[m] + c[m]));
                    let want = storage.eval(index_of(&g, &extents));
                    let got = ok(mine.eval_index(j), "eval");
                    assert_eq!(
                        got, want,
                        "case {case}: thread {t} rest {r} value {v}: {thr:?} {val:?} {storage:?}"
                    );
                    let all = ok(part.eval_index(j * threads + t), "eval");
                    assert_eq!(all, want, "case {case}: all threads, thread {t} index {j}");
                    if r == 0 {
                        let tv = ok(copy.tv().layout().eval_index(v * threads + t), "tv");
                        assert_eq!(
                            tv,
                            index_of(&c, &tile),
                            "case {case}: tv of thread {t} value {v}"
                        );
                    }
                    j += 1;
                }
            }
        }
    }
}

/// Thread `t`'s partition of `storage` (offsets at the partition's flat index: value fastest,
/// then the rest modes, the last fastest): the tensor has `lead` whole leading modes, then the
/// copy's tile repeated `reps` times per mode.
fn brute_partition(thr: &Model, val: &Model, storage: &Model, lead: usize, t: i64) -> Vec<i64> {
    let extents = storage.extents();
    let tile: Vec<i64> = (0..2).map(|m| thr.extent(m) * val.extent(m)).collect();
    let rest: Vec<i64> = (0..extents.len())
        .map(|k| {
            if k < lead {
                extents[k]
            } else {
                extents[k] / tile[k - lead]
            }
        })
        .collect();
    let rests: i64 = rest.iter().product();
    let (ti, vi) = (inverse(thr), inverse(val));
    let mut out = vec![];
    for r in 0..rests {
        let mut rc = vec![0; rest.len()];
        let mut x = r;
        for k in (0..rest.len()).rev() {
            rc[k] = x % rest[k];
            x /= rest[k];
        }
        for v in 0..val.size() {
            let c = brute_copy_coord_with(thr, val, &ti, &vi, t, v);
            let mut g: Vec<i64> = rc[..lead].to_vec();
            g.extend((0..2).map(|m| rc[lead + m] * tile[m] + c[m]));
            out.push(storage.eval(index_of(&g, &extents)));
        }
    }
    out
}

/// The first vector of `width` values that breaks a rule, as the documented error:
/// source then destination, threads then values in order; in a vector, the alignment of its
/// first value, then the contiguity of the others.
fn brute_vector_error(parts: [&[Vec<i64>]; 2], bases: [i64; 2], width: i64) -> Option<Error> {
    for (side, (part, base)) in [CopySide::Source, CopySide::Destination]
        .into_iter()
        .zip(parts.into_iter().zip(bases))
    {
        for (thread, offs) in part.iter().enumerate() {
            for first in (0..offs.len()).step_by(width as usize) {
                if (base + offs[first]).rem_euclid(width) != 0 {
                    return Some(Error::CopyVectorAligned {
                        side,
                        thread: thread as i64,
                        value: first as i64,
                        offset: offs[first],
                        base,
                        width,
                    });
                }
                for k in 1..width as usize {
                    if offs[first + k] != offs[first] + k as i64 {
                        return Some(Error::CopyVectorContiguous {
                            side,
                            thread: thread as i64,
                            value: (first + k) as i64,
                            offset: offs[first + k],
                            expected: offs[first] + k as i64,
                        });
                    }
                }
            }
        }
    }
    None
}

#[test]
fn copy_vector_checks_match_brute_force_on_random_storages() {
    let mut rng = Rng(0x7665_6374);
    let mut widths_seen = [0usize; 9];
    for case in 0..300 {
        let (thr, val, vector) = random_copy(&mut rng);
        let copy = ok(TiledCopy::new(&thr.layout(), &val.layout(), vector), "copy");
        let tile = copy.tile().to_vec();
        let stages = rng.pick(&[0, 1, 2]);
        let lead = usize::from(stages > 0);
        let mut extents: Vec<i64> = (0..2).map(|m| tile[m] * rng.range(1, 2)).collect();
        if stages > 0 {
            extents.insert(0, stages);
        }
        let mut sides = vec![];
        for _ in 0..2 {
            let mut st = random_storage(&mut rng, &extents, 10, 20);
            if st.modes.iter().flatten().all(|l| l.1 >= 0) && rng.chance(25) {
                st.swizzle = Some((1, rng.range(0, 2), rng.range(1, 3)));
            }
            let base = rng.pick(&[0, 0, 0, 0, 1, 2, 4, -2, -8, 6]);
            sides.push((st, base));
        }
        let parts: Vec<Vec<Vec<i64>>> = sides
            .iter()
            .map(|(st, _)| {
                (0..thr.size())
                    .map(|t| brute_partition(&thr, &val, st, lead, t))
                    .collect()
            })
            .collect();
        let (src_map, dst_map) = (sides[0].0.map(), sides[1].0.map());
        let src = Storage::new(&src_map).with_base(sides[0].1);
        let dst = Storage::new(&dst_map).with_base(sides[1].1);
        let bases = [sides[0].1, sides[1].1];
        let mut best = 1;
        for w in 1..=vector {
            if vector % w != 0 {
                assert!(matches!(
                    copy.check_vector_width(src, dst, w),
                    Err(Error::CopyVector { .. })
                ));
                continue;
            }
            let want = brute_vector_error([&parts[0], &parts[1]], bases, w);
            let got = copy.check_vector_width(src, dst, w).err();
            assert_eq!(
                got, want,
                "case {case} width {w}: {thr:?} {val:?} {sides:?}"
            );
            if want.is_none() {
                best = w;
            }
        }
        let max = ok(copy.max_vector(src, dst), "max_vector");
        assert_eq!(max, best, "case {case}: {thr:?} {val:?} {sides:?}");
        widths_seen[max as usize] += 1;
        assert_eq!(
            copy.check_vector(src, dst).err(),
            brute_vector_error([&parts[0], &parts[1]], bases, vector),
        );
    }
    // The random cases reach vectors past one element.
    assert!(
        widths_seen[2..].iter().sum::<usize>() > 10,
        "{widths_seen:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Residue tiles

/// Every tile and position of `ceil_divide(tensor, tile)` against the definitions: the grid is
/// `ceil(n/k)`, the global coordinate `r·k + t`, the predicate `elem_less`, the offset the
/// tensor's at the global coordinate, and the padded layout equal to it wherever the predicate
/// holds; then every thread and value of a thread-value layout over the tile.
fn check_residue(tensor: &Model, tile: &[i64], tv: Option<&Model>) {
    let what = format!("{} by {tile:?}", tensor.text());
    let tiles = ok(
        layout_core::residue::ceil_divide(&tensor.layout(), tile),
        &what,
    );
    let ext = tensor.extents();
    let grid: Vec<i64> = ext.iter().zip(tile).map(|(n, k)| (n + k - 1) / k).collect();
    assert_eq!(tiles.grid(), &grid[..], "{what}");
    assert_eq!(tiles.extents(), &ext[..], "{what}");
    let residue: Vec<i64> = (0..ext.len())
        .map(|m| ext[m] - (grid[m] - 1) * tile[m])
        .collect();
    assert_eq!(tiles.residue(), residue, "{what}");
    let padded = tiles.padded();
    ok(
        layout_core::residue::check_padded(&tensor.layout(), tile, padded),
        &format!("{what}: check_padded of {padded}"),
    );
    let tile_size: i64 = tile.iter().product();
    let tiles_count: i64 = grid.iter().product();
    // The tensor's offset per mode at a global coordinate.
    let mode_offset = |m: usize, mut x: i64| -> i64 {
        let mut off = 0;
        for &(n, d) in tensor.modes[m].iter().rev() {
            off += (x % n) * d;
            x /= n;
        }
        off
    };
    for r in 0..tiles_count {
        let rc = {
            let mut x = r;
            let mut c = vec![0; grid.len()];
            for m in (0..grid.len()).rev() {
                c[m] = x % grid[m];
                x /= grid[m];
            }
            c
        };
        assert_eq!(
            ok(tiles.origin(&rc), "origin"),
            rc.iter().zip(tile).map(|(r, k)| r * k).collect::<Vec<_>>()
        );
        for p in 0..tile_size {
            let pc = {
                let mut x = p;
                let mut c = vec![0; tile.len()];
                for m in (0..tile.len()).rev() {
                    c[m] = x % tile[m];
                    x /= tile[m];
                }
                c
            };
            let g: Vec<i64> = (0..tile.len()).map(|m| rc[m] * tile[m] + pc[m]).collect();
            let pred = g.iter().zip(&ext).all(|(g, n)| g < n);
            assert_eq!(ok(tiles.global(&rc, &pc), "global"), g, "{what}");
            assert_eq!(ok(tiles.predicate(&rc, &pc), "predicate"), pred, "{what}");
            let want = pred.then(|| (0..g.len()).map(|m| mode_offset(m, g[m])).sum::<i64>());
            assert_eq!(
                ok(tiles.offset(&rc, &pc), "offset"),
                want,
                "{what} at {rc:?} {pc:?}"
            );
            if let Some(w) = want {
                let at = ok(padded.eval_index(p * tiles_count + r), "padded");
                assert_eq!(
                    at, w,
                    "{what}: padded {padded} at tile {rc:?} position {pc:?}"
                );
            }
        }
        if let Some(tv) = tv {
            let part = ok(
                tiles.partition(&tv.layout()),
                &format!("{what}: tv {}", tv.text()),
            );
            let threads = tv.extent(tv.modes.len() - 1);
            let values = tv.size() / threads;
            for t in 0..threads {
                for v in 0..values {
                    let l = tv.eval(v * threads + t);
                    let mut c = vec![0; tile.len()];
                    let mut x = l;
                    for m in (0..tile.len()).rev() {
                        c[m] = x % tile[m];
                        x /= tile[m];
                    }
                    assert_eq!(ok(part.coord(t, v), "coord"), c);
                    let g: Vec<i64> = (0..tile.len()).map(|m| rc[m] * tile[m] + c[m]).collect();
                    // The programs the emitted predicate computes, one per mode.
                    for (m, prog) in part.coordinate_programs().iter().enumerate() {
                        assert_eq!(
                            ok(prog.eval(&[t, v, rc[m]]), "program"),
                            g[m],
                            "{what}: tv {}: mode {m} program {prog:?} at thread {t} value {v}",
                            tv.text()
                        );
                    }
                    let pred = g.iter().zip(&ext).all(|(g, n)| g < n);
                    assert_eq!(ok(part.predicate(&rc, t, v), "predicate"), pred);
                    let want =
                        pred.then(|| (0..g.len()).map(|m| mode_offset(m, g[m])).sum::<i64>());
                    assert_eq!(ok(part.offset(&rc, t, v), "offset"), want);
                }
            }
        }
    }
}

/// A size-1 mode, whatever its stride (0, the default of a size-1 mode, or any other) and
/// however it is nested, is cut by any tile entry: CuTe's `local_tile` pads it, and only its
/// coordinate 0 is predicated.
#[test]
fn residue_tiles_cut_size_one_modes_of_every_stride() {
    let ones: [Vec<(i64, i64)>; 5] = [
        vec![(1, 0)],
        vec![(1, 5)],
        vec![(1, 0), (1, 0)],
        vec![(1, 0), (1, 3)],
        vec![(1, -2)],
    ];
    let others: [Vec<(i64, i64)>; 3] = [vec![(7, 1)], vec![(3, 7), (7, 1)], vec![(5, 2)]];
    for one in &ones {
        for other in &others {
            for first in [true, false] {
                let modes = if first {
                    vec![one.clone(), other.clone()]
                } else {
                    vec![other.clone(), one.clone()]
                };
                let tensor = Model {
                    modes,
                    swizzle: None,
                };
                for k1 in [1, 2, 4] {
                    for k2 in [1, 7, 8, 32] {
                        let tile = if first { [k1, k2] } else { [k2, k1] };
                        let tv = Model {
                            modes: vec![vec![(tile[0], tile[1])], vec![(tile[1], 1)]],
                            swizzle: None,
                        };
                        check_residue(&tensor, &tile, Some(&tv));
                    }
                }
            }
        }
    }
}

/// Random tensors (nested modes, gaps, negative strides, size-1 modes) cut by random tiles
/// (dividing or not, larger than the tensor), partitioned by random thread-value layouts.
#[test]
fn residue_tiles_match_brute_force_on_random_tensors() {
    let mut rng = Rng(0x7265_7369);
    let mut accepted = 0;
    for _ in 0..250 {
        let rank = rng.range(1, 3) as usize;
        let extents: Vec<i64> = (0..rank)
            .map(|_| rng.pick(&[1, 2, 3, 5, 6, 12, 13]))
            .collect();
        let tensor = random_storage(&mut rng, &extents, 25, 25);
        let tile: Vec<i64> = (0..rank).map(|_| rng.pick(&[1, 2, 4, 8, 16])).collect();
        match layout_core::residue::ceil_divide(&tensor.layout(), &tile) {
            Err(Error::ResidueSplit { .. } | Error::TileSplit { .. }) => continue,
            Err(e) => panic!("{} by {tile:?}: {e:?}", tensor.text()),
            Ok(_) => {}
        }
        accepted += 1;
        let size: i64 = tile.iter().product();
        let divisors: Vec<i64> = (1..=size).filter(|d| size % d == 0).collect();
        let threads = rng.pick(&divisors);
        let tv = random_storage(&mut rng, &[size / threads, threads], 0, 0);
        check_residue(&tensor, &tile, Some(&tv));
    }
    assert!(accepted > 150, "{accepted}");
}

// ---------------------------------------------------------------------------------------------
// Tiled MMA

/// The SM80 atoms of `layout_typed::atoms`: shape and the (A, B, C) layouts.
fn sm80_atoms() -> Vec<([i64; 3], [Layout; 3])> {
    use layout_typed::Layout as _;
    use layout_typed::atoms::{
        sm80_16x8x8_f16f16f16f16_tn as h8, sm80_16x8x8_f32bf16bf16f32_tn as b8,
        sm80_16x8x16_f16f16f16f16_tn as h16,
    };
    let l = |m: Map| m.as_layout().unwrap().clone();
    vec![
        (
            [16, 8, 16],
            [h16::A.to_map(), h16::B.to_map(), h16::C.to_map()].map(|m| l(m.unwrap())),
        ),
        (
            [16, 8, 8],
            [h8::A.to_map(), h8::B.to_map(), h8::C.to_map()].map(|m| l(m.unwrap())),
        ),
        (
            [16, 8, 8],
            [b8::A.to_map(), b8::B.to_map(), b8::C.to_map()].map(|m| l(m.unwrap())),
        ),
    ]
}

/// CuTe's `thrfrg_A/B/C` of `make_tiled_mma(atom, Layout<Shape<WM,WN,_1>>)` with identity
/// permutations, evaluated from its definition: thread `t = lane + T·(wm + WM·wn)`, value
/// `v = frg + V·(r0 + R0·r1)` (`(FrgV, RestM, RestN)` for C, `(FrgV, RestM|N, RestK)` for A|B);
/// the atom's block along M is `wm + WM·rm` (N: `wn + WN·rn`), along K `rk`. Returns the
/// position in the operand's replicated tile (see `TiledMma::a`/`b`/`c`).
fn brute_mma(
    mnk: [i64; 3],
    atom: &Layout,
    op: usize,
    warps: [i64; 2],
    tile: [i64; 3],
    t: i64,
    v: i64,
) -> i64 {
    let [am, an, ak] = mnk;
    let [wm, wn] = warps;
    let [m_, n_, k_] = tile;
    let lanes = 32;
    let lane = t % lanes;
    let (w_m, w_n) = ((t / lanes) % wm, t / lanes / wm);
    let frgs = atom.size() / lanes;
    let frg = v % frgs;
    let r = v / frgs;
    let idx = atom.eval_index(frg * lanes + lane).unwrap();
    match op {
        // A: (FrgV, RestM, RestK); position m + M·k + M·K·wn.
        0 => {
            let rm_count = m_ / (am * wm);
            let (rm, rk) = (r % rm_count, r / rm_count);
            let m = (w_m + wm * rm) * am + idx % am;
            let k = rk * ak + idx / am;
            m + m_ * k + m_ * k_ * w_n
        }
        // B: (FrgV, RestN, RestK); position n + N·k + N·K·wm.
        1 => {
            let rn_count = n_ / (an * wn);
            let (rn, rk) = (r % rn_count, r / rn_count);
            let n = (w_n + wn * rn) * an + idx % an;
            let k = rk * ak + idx / an;
            n + n_ * k + n_ * k_ * w_m
        }
        // C: (FrgV, RestM, RestN); position m + M·n.
        _ => {
            let rm_count = m_ / (am * wm);
            let (rm, rn) = (r % rm_count, r / rm_count);
            let m = (w_m + wm * rm) * am + idx % am;
            let n = (w_n + wn * rn) * an + idx / am;
            m + m_ * n
        }
    }
}

#[test]
fn tiled_mma_partitions_match_cute_definition_on_random_warps_and_tiles() {
    use layout_core::mma::{MmaAtom, TiledMma};
    let mut rng = Rng(0x006d_6d61);
    for (mnk, [a, b, c]) in sm80_atoms() {
        for case in 0..12 {
            let warps = [rng.range(1, 4), rng.range(1, 3)];
            let tile = [
                mnk[0] * warps[0] * rng.range(1, 2),
                mnk[1] * warps[1] * rng.range(1, 3),
                mnk[2] * rng.range(1, 2),
            ];
            let atom = ok(MmaAtom::new(mnk, a.clone(), b.clone(), c.clone()), "atom");
            let mma = ok(TiledMma::new(atom, [warps[0], warps[1], 1], tile), "mma");
            let threads = 32 * warps[0] * warps[1];
            assert_eq!(mma.threads(), threads);
            let maps = [ok(mma.a(), "a"), ok(mma.b(), "b"), ok(mma.c(), "c")];
            let sizes = [tile[0] * tile[2], tile[1] * tile[2], tile[0] * tile[1]];
            // Random storages of the operand tiles (seed `(K, M)`, `(K, N)`, `(N, M)`).
            let dims = [[tile[2], tile[0]], [tile[2], tile[1]], [tile[1], tile[0]]];
            for op in 0..3 {
                let atom_l = [&a, &b, &c][op];
                let values = sizes[op] / threads;
                let storage = random_storage(&mut rng, &dims[op], 20, 25);
                let part = ok(
                    match op {
                        0 => mma.partition_a(&storage.map()),
                        1 => mma.partition_b(&storage.map()),
                        _ => mma.partition_c(&storage.map()),
                    },
                    "partition",
                );
                for t in 0..threads {
                    for v in 0..values {
                        let want = brute_mma(mnk, atom_l, op, warps, tile, t, v);
                        let got = ok(maps[op].eval_index(v * threads + t), "eval");
                        assert_eq!(
                            got, want,
                            "{mnk:?} case {case} operand {op} warps {warps:?} tile {tile:?} t {t} v {v}"
                        );
                        let off = ok(part.eval_index(v * threads + t), "eval");
                        assert_eq!(off, storage.eval(want % sizes[op]), "partition {op}");
                    }
                }
            }
        }
    }
}

/// The threads of a tiled MMA, `32·WM·WN`, are exact or `Error::Overflow`: never a saturated
/// count. Warp grids at and past the limit, along M, along N and along both.
#[test]
fn tiled_mma_thread_count_is_exact_or_overflow() {
    use layout_core::mma::{MmaAtom, TiledMma};
    let (mnk, [a, b, c]) = sm80_atoms().remove(0);
    let limit = i128::from(i64::MAX);
    for (wm, wn) in [
        (1, 1),
        (1 << 20, 1 << 20),
        (1 << 27, 1 << 30),
        (1 << 30, 1 << 28),
        (1 << 30, 1 << 30),
        (1 << 58, 1),
        (1, 1 << 58),
        (3, 1 << 57),
        (1 << 56, 5),
    ] {
        let atom = ok(MmaAtom::new(mnk, a.clone(), b.clone(), c.clone()), "atom");
        let tile = [
            i64::try_from(i128::from(mnk[0]) * i128::from(wm)).unwrap_or(mnk[0]),
            i64::try_from(i128::from(mnk[1]) * i128::from(wn)).unwrap_or(mnk[1]),
            mnk[2],
        ];
        let threads = 32 * i128::from(wm) * i128::from(wn);
        let extents_fit = tile[0] != mnk[0] || wm == 1;
        let extents_fit = extents_fit && (tile[1] != mnk[1] || wn == 1);
        match TiledMma::new(atom, [wm, wn, 1], tile) {
            Ok(mma) => {
                assert!(
                    threads <= limit,
                    "{wm}×{wn} accepted: {} threads",
                    mma.threads()
                );
                assert_eq!(i128::from(mma.threads()), threads, "{wm}×{wn}");
            }
            Err(e) => {
                assert!(threads > limit || !extents_fit, "{wm}×{wn}: {e:?}");
                assert!(matches!(e, Error::Overflow { .. }), "{wm}×{wn}: {e:?}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bank conflicts

/// One warp's conflicts from the documented model: lane groups of 128 bytes (32, 16 or 8
/// lanes for 4-, 8- and 16-byte accesses), each bank serving one distinct word per cycle.
/// Returns (ways, wavefronts, ideal) summed over the instructions.
fn brute_conflicts(parts: &[Vec<i64>], vector: i64, bytes: i64) -> (u64, u64, u64) {
    let access = vector * bytes;
    let per_phase = match access {
        ..=4 => 32,
        8 => 16,
        _ => 8,
    };
    let (mut ways, mut waves, mut ideal) = (0u64, 0u64, 0u64);
    for first in (0..parts[0].len()).step_by(vector as usize) {
        for phase in parts.chunks(per_phase) {
            let mut words = std::collections::BTreeSet::new();
            for lane in phase {
                let a = lane[first] * bytes;
                for w in a / 4..=(a + access - 1) / 4 {
                    words.insert(w);
                }
            }
            let mut banks = [0u64; 32];
            for w in &words {
                banks[(w % 32) as usize] += 1;
            }
            let most = *banks.iter().max().unwrap();
            ways = ways.max(most);
            waves += most;
            ideal += (words.len() as u64).div_ceil(32);
        }
    }
    (ways, waves, ideal)
}

#[test]
fn copy_conflicts_match_the_bank_model_on_random_copies() {
    use layout_core::banks::copy_conflicts;
    let mut rng = Rng(0x6261_6e6b);
    let mut checked = 0;
    let mut conflicted = 0;
    for case in 0..200 {
        let te = rng.pick(&[
            [4, 8],
            [8, 4],
            [2, 16],
            [16, 4],
            [8, 8],
            [32, 1],
            [1, 32],
            [16, 8],
        ]);
        let ve: Vec<i64> = (0..2).map(|_| rng.pick(&[1, 2, 4, 8])).collect();
        let thr = random_storage(&mut rng, &te, 0, 0);
        let val = random_storage(&mut rng, &ve, 0, 0);
        let bits = rng.pick(&[8u32, 16, 32, 64]);
        let bytes = i64::from(bits / 8);
        let values = val.size();
        let vectors: Vec<i64> = (1..=values)
            .filter(|d| values % d == 0 && d * bytes <= 16)
            .collect();
        let vector = rng.pick(&vectors);
        let copy = ok(TiledCopy::new(&thr.layout(), &val.layout(), vector), "copy");
        let tile = copy.tile().to_vec();
        let extents: Vec<i64> = (0..2).map(|m| tile[m] * rng.range(1, 2)).collect();
        let mut smem = random_storage(&mut rng, &extents, 0, 15);
        if rng.chance(40) {
            let b = rng.range(1, 3);
            smem.swizzle = Some((b, rng.range(0, 3), rng.range(b, 4)));
        }
        let parts: Vec<Vec<i64>> = (0..thr.size())
            .map(|t| brute_partition(&thr, &val, &smem, 0, t))
            .collect();
        let vector_ok = brute_vector_error([&parts, &parts], [0, 0], vector).is_none();
        match copy_conflicts(&copy, &smem.map(), bits) {
            Ok(per_warp) => {
                assert!(vector_ok, "case {case}: accepted a vector that is not one");
                assert_eq!(per_warp.len() as i64, thr.size() / 32);
                for (w, c) in per_warp.iter().enumerate() {
                    let lanes = &parts[w * 32..w * 32 + 32];
                    let want = brute_conflicts(lanes, vector, bytes);
                    assert_eq!(
                        (c.ways, c.wavefronts, c.ideal),
                        want,
                        "case {case} warp {w}: {thr:?} {val:?} vector {vector} bits {bits} {smem:?}"
                    );
                    conflicted += usize::from(want.0 > 1);
                }
                checked += 1;
            }
            Err(e) => assert!(!vector_ok, "case {case}: {e:?}: {thr:?} {val:?} {smem:?}"),
        }
    }
    assert!(checked > 60 && conflicted > 10, "{checked} {conflicted}");
}

/// The copies that feed an MMA operand (`copy_a`/`copy_b` through `ldmatrix` x4, N and T) on
/// random warps, tiles and permutation tiles, against their contracts: source and destination
/// are dense bijections onto the operand's replicated tile; each thread's destination holds
/// exactly the positions of its MMA fragment, `retile` names the fragment value of each, and
/// `partition_s` reads the storage at the source's position.
#[test]
fn operand_copies_deliver_each_thread_its_fragment() {
    use layout_core::mma::{CopyAtom, MmaAtom, TiledMma};
    use layout_typed::Layout as _;
    use layout_typed::atoms::{sm75_u16x8_ldsm_t as t4, sm75_u32x4_ldsm_n as n4};
    let l = |m: Result<Map, Error>| m.unwrap().as_layout().unwrap().clone();
    let atoms = [
        ("x4 N", l(n4::SRC_B16.to_map()), l(n4::DST_B16.to_map())),
        ("x4 T", l(t4::SRC_B16.to_map()), l(t4::DST_B16.to_map())),
    ];
    let (mnk, [a, b, c]) = sm80_atoms().remove(0);
    let mut rng = Rng(0x6c64_736d);
    for case in 0..16 {
        let warps = [rng.range(1, 4), rng.range(1, 2)];
        let perm = [16 * warps[0], 16 * warps[1], 16];
        let tile = [
            perm[0] * rng.range(1, 2),
            perm[1] * rng.range(1, 2),
            16 * rng.range(1, 2),
        ];
        let atom = ok(MmaAtom::new(mnk, a.clone(), b.clone(), c.clone()), "atom");
        let mma = ok(TiledMma::new(atom, [warps[0], warps[1], 1], tile), "mma");
        let mma = ok(mma.with_permutation(perm), "perm");
        let threads = mma.threads();
        for (name, src, dst) in &atoms {
            let atom = ok(CopyAtom::new(src.clone(), dst.clone()), "copy atom");
            for op in 0..2 {
                let what = format!("case {case} {name} operand {op} warps {warps:?} tile {tile:?}");
                let (copy, frag) = if op == 0 {
                    (ok(mma.copy_a(&atom), &what), ok(mma.a(), &what))
                } else {
                    (ok(mma.copy_b(&atom), &what), ok(mma.b(), &what))
                };
                let size = frag.size();
                assert_eq!(copy.source().size(), size, "{what}");
                assert_eq!(copy.destination().size(), size, "{what}");
                let values = size / threads;
                let mut seen = [vec![false; size as usize], vec![false; size as usize]];
                let operand_tile = if op == 0 {
                    tile[0] * tile[2]
                } else {
                    tile[1] * tile[2]
                };
                let dims = if op == 0 {
                    [tile[2], tile[0]]
                } else {
                    [tile[2], tile[1]]
                };
                let storage = random_storage(&mut rng, &dims, 10, 20);
                let reads = ok(copy.partition_s(&storage.map()), &what);
                let retile = copy.retile();
                for t in 0..threads {
                    let mut mine = vec![];
                    let mut want = vec![];
                    for j in 0..values {
                        let s = ok(copy.source().eval_index(j * threads + t), &what);
                        let d = ok(copy.destination().eval_index(j * threads + t), &what);
                        for (k, p) in [s, d].into_iter().enumerate() {
                            assert!((0..size).contains(&p), "{what}: {p}");
                            assert!(!seen[k][p as usize], "{what}: position {p} twice");
                            seen[k][p as usize] = true;
                        }
                        mine.push(d);
                        want.push(ok(frag.eval_index(j * threads + t), &what));
                        let r = ok(retile.eval_index(j), &what);
                        assert_eq!(
                            ok(frag.eval_index(r * threads + t), &what),
                            d,
                            "{what}: retile of thread {t} value {j}"
                        );
                        assert_eq!(
                            ok(reads.eval_index(j * threads + t), &what),
                            storage.eval(s % operand_tile),
                            "{what}: partition_s of thread {t} value {j}"
                        );
                    }
                    mine.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(mine, want, "{what}: thread {t}'s destination");
                }
            }
        }
    }
}

/// `check_padded` decides a padded layout written by hand: accepted exactly when, at every
/// predicated position of every tile, it reaches the tensor's offset (brute force over every
/// position), for padded layouts with one or two strides changed at random.
#[test]
fn check_padded_accepts_exactly_the_layouts_equal_on_predicated_positions() {
    use layout_core::residue::{ResidueTiles, ceil_divide, check_padded};
    use layout_core::{Stride, Tree};
    let mut rng = Rng(0x7061_6464);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..300 {
        let rank = rng.range(1, 2) as usize;
        let extents: Vec<i64> = (0..rank).map(|_| rng.pick(&[1, 3, 5, 6, 12])).collect();
        let tensor = random_storage(&mut rng, &extents, 20, 25);
        let tile: Vec<i64> = (0..rank).map(|_| rng.pick(&[1, 2, 4, 8])).collect();
        let Ok(tiles) = ceil_divide(&tensor.layout(), &tile) else {
            continue;
        };
        let padded = tiles.padded().clone();
        let mut strides: Vec<Stride> = padded.stride().leaves().into_iter().copied().collect();
        for _ in 0..rng.range(1, 2) {
            let k = rng.below(strides.len());
            strides[k] = match rng.below(4) {
                0 => Stride::Int(0),
                1 => Stride::Broadcast,
                _ => Stride::Int(rng.range(-40, 40)),
            };
        }
        // Rebuild the layout with the new strides, leaf by leaf in order.
        fn refill(t: &Tree<Stride>, it: &mut dyn Iterator<Item = Stride>) -> Tree<Stride> {
            match t {
                Tree::Leaf(_) => Tree::Leaf(it.next().unwrap()),
                Tree::Tuple(v) => Tree::Tuple(v.iter().map(|x| refill(x, it)).collect()),
            }
        }
        let stride = refill(padded.stride(), &mut strides.clone().into_iter());
        let Ok(hand) = Layout::new(padded.shape().clone(), stride) else {
            continue;
        };
        let Ok(hand) = hand.with_names(vec![Some("tile".into()), Some("rest".into())]) else {
            continue;
        };
        // Brute force: every predicated position of every tile.
        let grid = tiles.grid().to_vec();
        let (tsize, gsize): (i64, i64) = (tile.iter().product(), grid.iter().product());
        let mut equal = true;
        'all: for r in 0..gsize {
            let mut rc = vec![0; rank];
            let mut x = r;
            for m in (0..rank).rev() {
                rc[m] = x % grid[m];
                x /= grid[m];
            }
            for p in 0..tsize {
                let mut pc = vec![0; rank];
                let mut x = p;
                for m in (0..rank).rev() {
                    pc[m] = x % tile[m];
                    x /= tile[m];
                }
                if let Some(want) = tiles.offset(&rc, &pc).unwrap()
                    && hand.eval_index(p * gsize + r) != Ok(want)
                {
                    equal = false;
                    break 'all;
                }
            }
        }
        let verdict = check_padded(&tensor.layout(), &tile, &hand);
        assert_eq!(
            verdict.is_ok(),
            equal,
            "{} by {tile:?}: {hand} (ceil_divide's {padded}): {verdict:?}",
            tensor.text()
        );
        if equal {
            accepted += 1;
            let again = ok(
                ResidueTiles::with_padded(&tensor.layout(), &tile, &hand),
                "with_padded",
            );
            assert_eq!(again.grid(), tiles.grid());
        } else {
            refused += 1;
        }
    }
    assert!(accepted > 20 && refused > 50, "{accepted} {refused}");
}

/// Size-1 modes (stride 0 and others, run-time sizes) cut by tiles larger than them:
/// every predicated offset of every tile equal to CuTe's `local_tile` over `ceil_div`
/// (`tests/cpp/kernel_attack.cpp`, CUTLASS 4.2 headers), and to the brute-force model.
#[test]
fn residue_tiles_of_size_one_modes_equal_cute() {
    use layout_core::residue::ceil_divide;
    let Some(out) =
        layout_tests::cute_cpp::run("kernel_attack", include_str!("../cpp/kernel_attack.cpp"))
    else {
        return;
    };
    // name -> (CuTe layout, CuTe tile (M, N)).
    let cases = [
        ("m1_s0", "(7,1):(1,0)", [4, 4]),
        ("n1_s0", "(1,7):(0,1)", [2, 4]),
        ("both1", "(1,1):(0,0)", [8, 2]),
        ("m1_s5", "(1,7):(5,1)", [4, 3]),
        ("dyn", "(13,1):(3,0)", [8, 4]),
    ];
    let mut lines = 0;
    for (name, cute, [tm, tn]) in cases {
        let tensor = ok(Layout::from_cute(cute), cute);
        let tiles = ok(ceil_divide(&tensor, &[tn, tm]), cute);
        let mut cute_offsets = std::collections::BTreeMap::new();
        for l in out.lines().filter(|l| l.starts_with(&format!("{name} "))) {
            let v: Vec<i64> = l.split(' ').skip(1).map(|x| x.parse().unwrap()).collect();
            cute_offsets.insert((v[0], v[1], v[2]), v[3]);
            lines += 1;
        }
        let grid = tiles.grid().to_vec();
        let mut ours = std::collections::BTreeMap::new();
        for i in 0..grid[1] {
            for j in 0..grid[0] {
                for k in 0..tm * tn {
                    if let Some(o) = ok(tiles.offset(&[j, i], &[k / tm, k % tm]), name) {
                        ours.insert((i, j, k), o);
                    }
                }
            }
        }
        assert_eq!(ours, cute_offsets, "{name}: {cute} by ({tm},{tn})");
    }
    assert!(lines >= 35, "{lines}");
}

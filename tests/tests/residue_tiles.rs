//! Residue tiles: `residue::ceil_divide`, each thread's coordinates, the predicate as a function
//! and as compiled C, and the check of a padded layout, against brute-force enumeration written
//! here (every tile, thread and value) and against CuTe C++ (`tests/cpp/residue.cpp`:
//! `local_tile` over `make_identity_tensor`, `partition_S` of a tiled copy and
//! `local_partition`, `elem_less`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

use layout_core::residue::{self, ResidueTiles};
use layout_core::{Error, IntType, Layout, ModePath, Stride, Tree, divide};
use layout_tests::{CuteText, Rng, cute_cpp};

// ---------------------------------------------------------------------------------------------
// Brute-force models, written from the definitions.

/// A tensor as the test sees it: per top-level mode (seed order), its leaves `(size, stride)`
/// slowest first.
#[derive(Clone, Debug)]
struct Model {
    modes: Vec<Vec<(i64, i64)>>,
}

impl Model {
    fn extent(&self, m: usize) -> i64 {
        self.modes[m].iter().map(|l| l.0).product()
    }

    /// The offset of the mode's flat coordinate `x` (last leaf fastest).
    fn mode_offset(&self, m: usize, mut x: i64) -> i64 {
        let mut off = 0;
        for &(n, d) in self.modes[m].iter().rev() {
            off += (x % n) * d;
            x /= n;
        }
        assert_eq!(x, 0);
        off
    }

    fn offset(&self, x: &[i64]) -> i64 {
        (0..self.modes.len())
            .map(|m| self.mode_offset(m, x[m]))
            .sum()
    }

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
        self.text().parse().expect("a layout")
    }
}

fn ceil(n: i64, k: i64) -> i64 {
    (n + k - 1) / k
}

/// Every tile index of a grid, or every position of a tile (row-major: last fastest).
fn all_coords(bounds: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = bounds.iter().product();
    (0..total)
        .map(|mut i| {
            let mut c = vec![0; bounds.len()];
            for j in (0..bounds.len()).rev() {
                c[j] = i % bounds[j];
                i /= bounds[j];
            }
            c
        })
        .collect()
}

/// The offset of a padded layout (`(tile, rest)`, one piece per mode) at tile `r`, position
/// `t`, read from its shape and stride trees by mixed-radix digits (no evaluation call).
fn padded_offset(padded: &Layout, r: &[i64], t: &[i64]) -> i64 {
    let (Tree::Tuple(shape), Tree::Tuple(stride)) = (padded.shape(), padded.stride()) else {
        panic!("(tile, rest)");
    };
    let mut off = 0;
    for (g, coord) in [(0, t), (1, r)] {
        let pieces: Vec<(&Tree<i64>, &Tree<Stride>)> = if coord.len() == 1 {
            vec![(&shape[g], &stride[g])]
        } else {
            let (Tree::Tuple(s), Tree::Tuple(d)) = (&shape[g], &stride[g]) else {
                panic!("one piece per mode");
            };
            s.iter().zip(d).collect()
        };
        for ((s, d), &c) in pieces.into_iter().zip(coord) {
            let sizes: Vec<i64> = s.leaves().into_iter().copied().collect();
            let strides: Vec<i64> = d.leaves().into_iter().map(|x| x.value()).collect();
            let mut x = c;
            for (n, d) in sizes.iter().zip(&strides).rev() {
                off += (x % n) * d;
                x /= n;
            }
            assert_eq!(x, 0, "coordinate {c} past the piece");
        }
    }
    off
}

/// Checks a ceil-divide against the model at every tile and position.
fn check_tiles(model: &Model, tile: &[i64], tiles: &ResidueTiles) {
    let rank = model.modes.len();
    let extents: Vec<i64> = (0..rank).map(|m| model.extent(m)).collect();
    let grid: Vec<i64> = (0..rank).map(|m| ceil(extents[m], tile[m])).collect();
    let residue: Vec<i64> = (0..rank)
        .map(|m| extents[m] - (grid[m] - 1) * tile[m])
        .collect();
    assert_eq!(tiles.extents(), extents.as_slice());
    assert_eq!(tiles.grid(), grid.as_slice(), "{}", model.text());
    assert_eq!(tiles.residue(), residue);
    let mut hit = std::collections::HashSet::new();
    for r in all_coords(&grid) {
        let origin: Vec<i64> = r.iter().zip(tile).map(|(a, b)| a * b).collect();
        assert_eq!(tiles.origin(&r).unwrap(), origin);
        for t in all_coords(tile) {
            let x: Vec<i64> = origin.iter().zip(&t).map(|(a, b)| a + b).collect();
            let pred = x.iter().zip(&extents).all(|(a, n)| a < n);
            assert_eq!(tiles.global(&r, &t).unwrap(), x);
            assert_eq!(tiles.predicate(&r, &t).unwrap(), pred);
            let off = tiles.offset(&r, &t).unwrap();
            if pred {
                let want = model.offset(&x);
                assert_eq!(off, Some(want), "{} tile {r:?} pos {t:?}", model.text());
                // The padded layout's strides give the tensor's offset where predicated.
                assert_eq!(padded_offset(tiles.padded(), &r, &t), want);
                assert!(hit.insert(x), "a global coordinate reached twice");
            } else {
                assert_eq!(off, None);
            }
        }
    }
    // Every coordinate of the tensor is reached exactly once.
    assert_eq!(hit.len() as i64, extents.iter().product::<i64>());
}

// ---------------------------------------------------------------------------------------------
// The example and the divide it replaces.

#[test]
fn the_gemm_sizes_tile_with_residues() {
    // CuTe's hgemm: M = 300, N = 260, K = 200, tiles (128, 128, 64). A is (M, K):(K, 1) in
    // CuTe, (K, M):(1, K) in seed order; B is (N, K):(K, 1); C is (M, N):(1, M).
    let (m, n, k) = (300, 260, 200);
    let cases = [
        (
            Model {
                modes: vec![vec![(k, 1)], vec![(m, k)]],
            },
            [64, 128],
        ),
        (
            Model {
                modes: vec![vec![(k, 1)], vec![(n, k)]],
            },
            [64, 128],
        ),
        (
            Model {
                modes: vec![vec![(n, m)], vec![(m, 1)]],
            },
            [128, 128],
        ),
    ];
    for (model, tile) in &cases {
        let l = model.layout();
        // The exact divide refuses the sizes.
        assert!(matches!(divide(&l, tile), Err(Error::NotDivisible { .. })));
        let tiles = residue::ceil_divide(&l, tile).expect("ceil-divide");
        check_tiles(model, tile, &tiles);
    }
}

#[test]
fn random_tensors_and_tiles() {
    let mut rng = Rng(0x5e51d);
    let (mut ok, mut split, mut divides) = (0, 0, 0);
    for _ in 0..300 {
        let rank = rng.range(1, 3) as usize;
        // Column- or row-major with padding, some modes nested (coalescable or not).
        let mut modes: Vec<Vec<(i64, i64)>> = Vec::new();
        let mut running = 1;
        let order: Vec<usize> = if rng.chance(50) {
            (0..rank).collect()
        } else {
            (0..rank).rev().collect()
        };
        let mut placed = vec![Vec::new(); rank];
        for &m in &order {
            let leaves = if rng.chance(30) { 2 } else { 1 };
            let mut v = Vec::new();
            for _ in 0..leaves {
                v.push(rng.range(1, 9));
            }
            // Strides: the fastest leaf at `running`, slower ones above it (gapped or not).
            let mut ls = vec![(0, 0); leaves];
            for j in (0..leaves).rev() {
                ls[j] = (v[j], running);
                running = running * v[j] + if rng.chance(30) { rng.range(1, 3) } else { 0 };
            }
            placed[m] = ls;
        }
        modes.extend(placed);
        let model = Model { modes };
        let l = model.layout();
        let tile: Vec<i64> = (0..rank)
            .map(|m| rng.range(1, model.extent(m) + 3))
            .collect();
        let padded: i64 = (0..rank)
            .map(|m| ceil(model.extent(m), tile[m]) * tile[m])
            .product();
        if padded > 20_000 {
            continue;
        }
        match residue::ceil_divide(&l, &tile) {
            Ok(tiles) => {
                check_tiles(&model, &tile, &tiles);
                // Where every entry divides, the padded layout is `divide`'s result.
                if (0..rank).all(|m| model.extent(m) % tile[m] == 0) {
                    assert_eq!(
                        tiles.padded(),
                        &divide(&l, &tile).unwrap(),
                        "{}",
                        model.text()
                    );
                    divides += 1;
                }
                ok += 1;
            }
            Err(
                e @ (Error::ResidueSplit { mode, tile: k, .. }
                | Error::TileSplit { mode, tile: k, .. }),
            ) => {
                // The named leaf is a faster leaf of a nested mode.
                let top = usize::from(mode.indices()[0]);
                assert!(mode.indices()[1] > 0, "{e}");
                assert_eq!(k, tile[top]);
                let divides = model.extent(top) % k == 0;
                assert_eq!(matches!(e, Error::TileSplit { .. }), divides, "{e}");
                // A residue is refused only where the mode's leaves are not one contiguous
                // run (which would be cut as one leaf).
                let leaves: Vec<(i64, i64)> = model.modes[top]
                    .iter()
                    .copied()
                    .filter(|l| l.0 > 1)
                    .collect();
                let contiguous = leaves.windows(2).all(|w| w[0].1 == w[1].0 * w[1].1);
                assert!(divides || !contiguous, "{}: {e}", model.text());
                split += 1;
            }
            Err(e) => panic!("{}: {e}", model.text()),
        }
    }
    assert!(
        ok > 150 && split > 0 && divides > 10,
        "{ok} {split} {divides}"
    );
}

#[test]
fn a_tile_past_the_tensor_and_entries_of_one() {
    for (text, tile, grid) in [
        ("(5,3):(3,1)", &[8, 4][..], &[1, 1][..]),
        ("(5,3):(3,1)", &[1, 1], &[5, 3]),
        ("7:2", &[3], &[3]),
        ("(2,(3,4)):(12,(4,1))", &[2, 5], &[1, 3]),
    ] {
        let l: Layout = text.parse().unwrap();
        let t = residue::ceil_divide(&l, tile).unwrap();
        assert_eq!(t.grid(), grid, "{text}");
    }
    // Every position of the rank-1 tensor 7:2 by 3: offsets 0, 2, .., 12 then padding.
    let l: Layout = "7:2".parse().unwrap();
    let t = residue::ceil_divide(&l, &[3]).unwrap();
    let offs: Vec<Option<i64>> = (0..3)
        .flat_map(|r| (0..3).map(move |p| (r, p)))
        .map(|(r, p)| t.offset(&[r], &[p]).unwrap())
        .collect();
    let want: Vec<Option<i64>> = (0..9).map(|x| (x < 7).then_some(2 * x)).collect();
    assert_eq!(offs, want);
}

#[test]
fn errors_of_the_ceil_divide() {
    let l: Layout = "(300,200):(200,1)".parse().unwrap();
    assert_eq!(
        residue::ceil_divide(&l, &[128]).unwrap_err(),
        Error::TileRank { rank: 2, tile: 1 }
    );
    assert_eq!(
        residue::ceil_divide(&l, &[0, 64]).unwrap_err(),
        Error::NonPositiveSize {
            mode: ModePath::from_indices(&[0]).unwrap(),
            size: 0
        }
    );
    // A padded tensor that aliases is no tensor.
    let aliasing: Layout = "(4,8):(4,1)".parse().unwrap();
    assert_eq!(
        residue::ceil_divide(&aliasing, &[3, 3]).unwrap_err().rule(),
        "aliasing"
    );
    // A residue cutting a leaf that slower leaves follow: the tile would not be strided.
    let nested: Layout = "((2,3),5):((100,1),3)".parse().unwrap();
    let e = residue::ceil_divide(&nested, &[4, 5]).unwrap_err();
    assert_eq!(
        e,
        Error::ResidueSplit {
            mode: ModePath::from_indices(&[0, 1]).unwrap(),
            tile: 4,
            needed: 4,
            size: 3
        }
    );
    assert_eq!(e.rule(), "residue-split");
    assert!(e.help().is_some());
    // Positions outside the grid or the tile.
    let t = residue::ceil_divide(&l, &[128, 64]).unwrap();
    assert_eq!(
        t.offset(&[3, 0], &[0, 0]).unwrap_err(),
        Error::CoordOutOfRange {
            mode: ModePath::from_indices(&[0]).unwrap(),
            value: 3,
            size: 3
        }
    );
    assert_eq!(
        t.global(&[0, 0], &[0, 64]).unwrap_err(),
        Error::CoordOutOfRange {
            mode: ModePath::from_indices(&[1]).unwrap(),
            value: 64,
            size: 64
        }
    );
}

// ---------------------------------------------------------------------------------------------
// The check of a padded layout written by hand.

/// Whether a padded layout differs from the model at some predicated position.
fn brute_padded_differs(model: &Model, tile: &[i64], padded: &Layout) -> bool {
    let rank = tile.len();
    let extents: Vec<i64> = (0..rank).map(|m| model.extent(m)).collect();
    let grid: Vec<i64> = (0..rank).map(|m| ceil(extents[m], tile[m])).collect();
    let positions = all_coords(tile);
    all_coords(&grid).iter().any(|r| {
        positions.iter().any(|t| {
            let x: Vec<i64> = (0..rank).map(|m| r[m] * tile[m] + t[m]).collect();
            x.iter().zip(&extents).all(|(a, n)| a < n)
                && padded_offset(padded, r, t) != model.offset(&x)
        })
    })
}

#[test]
fn padded_layouts_written_by_hand() {
    // (M, K) = (300, 200) K-major, (128, 64) tiles: every stride of the padded layout changed
    // in turn (off by one, or the padded extent's leading dimension), and shapes changed.
    let model = Model {
        modes: vec![vec![(200, 1)], vec![(300, 200)]],
    };
    let small = Model {
        modes: vec![vec![(10, 1)], vec![(7, 10)]],
    };
    for (model, tile) in [(&model, [64, 128]), (&small, [4, 3]), (&small, [16, 2])] {
        let l = model.layout();
        let good = residue::ceil_divide(&l, &tile).unwrap();
        residue::check_padded(&l, &tile, good.padded()).unwrap();
        let text = good.padded().to_string();
        let leaves: Vec<i64> = good
            .padded()
            .modes()
            .iter()
            .map(|m| m.stride.value())
            .collect();
        let padded_ld = ceil(model.extent(0), tile[0]) * tile[0];
        let mut refused = 0;
        for (i, &d) in leaves.iter().enumerate() {
            for wrong in [d + 1, d * padded_ld / model.extent(0).max(1), 2 * d] {
                if wrong == d || wrong == 0 {
                    continue;
                }
                let mut strides = leaves.clone();
                strides[i] = wrong;
                let p = relayout(good.padded(), &strides);
                let got = residue::check_padded(&l, &tile, &p);
                if !brute_padded_differs(model, &tile, &p) {
                    assert_eq!(got, Ok(()), "{p}");
                    continue;
                }
                let e = got.expect_err("a predicated access leaves the tensor");
                let Error::ResidueOffset {
                    tensor_mode,
                    coord,
                    offset,
                    expected,
                    ..
                } = e
                else {
                    panic!("{e:?}");
                };
                // The access reported is one whose offsets differ, as the brute force
                // computes them: global `coord` along `tensor_mode`, the other modes at 0.
                let mut x = vec![0; tile.len()];
                x[tensor_mode] = coord;
                assert!(coord < model.extent(tensor_mode));
                let r: Vec<i64> = (0..tile.len()).map(|m| x[m] / tile[m]).collect();
                let t: Vec<i64> = (0..tile.len()).map(|m| x[m] % tile[m]).collect();
                assert_eq!(model.offset(&x), expected, "{p}");
                assert_eq!(padded_offset(&p, &r, &t), offset, "{p}");
                assert_ne!(offset, expected);
                assert_eq!(e.rule(), "residue-offset");
                refused += 1;
            }
        }
        assert!(refused > 0, "{text}");
        // ResidueTiles::with_padded accepts the good one and gives the same offsets.
        let again = ResidueTiles::with_padded(&l, &tile, good.padded()).unwrap();
        check_tiles(model, &tile, &again);
    }
    // A shape that is not the ceil-divide's.
    let l = model.layout();
    let p: Layout = "(tile:(64,64),rest:(4,3)):((200,1),(64,128))"
        .parse()
        .unwrap();
    let e = residue::check_padded(&l, &[64, 128], &p).unwrap_err();
    assert_eq!(
        e,
        Error::ResidueShape {
            mode: ModePath::from_indices(&[0, 1]).unwrap()
        }
    );
    assert_eq!(e.rule(), "residue-shape");
}

/// The same shape with other strides (leaves in order).
fn relayout(l: &Layout, strides: &[i64]) -> Layout {
    fn go(t: &Tree<Stride>, it: &mut std::slice::Iter<'_, i64>) -> Tree<Stride> {
        match t {
            Tree::Leaf(_) => Tree::Leaf(Stride::Int(*it.next().unwrap())),
            Tree::Tuple(v) => Tree::Tuple(v.iter().map(|x| go(x, it)).collect()),
        }
    }
    let stride = go(l.stride(), &mut strides.iter());
    Layout::new(l.shape().clone(), stride)
        .unwrap()
        .with_names(l.names().to_vec())
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// Thread-value partitions, against CuTe C++.

/// A value's global coordinate `(x0, x1)` (CuTe order) and its predicate.
type Access = (i64, i64, bool);

/// One case of the C++ program: extents and tile (CuTe order), the thread-value layout CuTe
/// printed, and per (tile, thread) the coordinates and predicates of every value.
struct CppCase {
    extents: [i64; 2],
    tile: [i64; 2],
    threads: i64,
    values: i64,
    tv: String,
    rows: BTreeMap<(i64, i64, i64), Vec<Access>>,
}

fn cpp_cases() -> Option<BTreeMap<String, CppCase>> {
    let out = cute_cpp::run("residue", include_str!("../cpp/residue.cpp"))?;
    let mut cases = BTreeMap::new();
    let mut current = String::new();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("case") => {
                let n: Vec<i64> = w[2..].iter().map(|x| x.parse().unwrap()).collect();
                current = w[1].to_string();
                cases.insert(
                    current.clone(),
                    CppCase {
                        extents: [n[0], n[1]],
                        tile: [n[2], n[3]],
                        threads: n[4],
                        values: n[5],
                        tv: String::new(),
                        rows: BTreeMap::new(),
                    },
                );
            }
            Some("tv") => cases.get_mut(&current).unwrap().tv = w[1].replace('_', ""),
            Some("t") => {
                let n: Vec<i64> = w[1..].iter().map(|x| x.parse().unwrap()).collect();
                let vals = n[3..].chunks(3).map(|c| (c[0], c[1], c[2] == 1)).collect();
                cases
                    .get_mut(&current)
                    .unwrap()
                    .rows
                    .insert((n[0], n[1], n[2]), vals);
            }
            _ => panic!("unexpected line {line}"),
        }
    }
    Some(cases)
}

/// The thread-value layout in CuTe text evaluated by the independent parser at CuTe's integral
/// index `t + T·v` (first mode fastest).
fn tv_eval(tv: &CuteText, index: i64) -> i64 {
    let mut x = index;
    let mut off = 0;
    for (n, d) in tv.leaves() {
        off += (x % n) * d;
        x /= n;
    }
    off
}

#[test]
fn partitions_match_cute() {
    let Some(cases) = cpp_cases() else {
        return;
    };
    assert_eq!(cases.len(), 4);
    for (name, c) in &cases {
        // A K-major tensor in CuTe, (E0, E1):(E1, 1): seed (E1, E0):(1, E1).
        let [e0, e1] = c.extents;
        let model = Model {
            modes: vec![vec![(e1, 1)], vec![(e0, e1)]],
        };
        let tile = [c.tile[1], c.tile[0]];
        let tiles = residue::ceil_divide(&model.layout(), &tile).unwrap();
        let tv = Layout::from_cute(&c.tv).unwrap();
        let part = tiles.partition(&tv).unwrap();
        assert_eq!((part.threads(), part.values()), (c.threads, c.values));
        let cute_tv = CuteText::parse(&c.tv).unwrap();
        if name != "C" {
            // The copy's layout used by the emission test is the one CuTe prints.
            let mine = hgemm_copy_tv();
            for i in 0..tv.size() {
                assert_eq!(mine.eval_index(i).unwrap(), tv_eval(&cute_tv, i), "{name}");
            }
        }
        let grid = [ceil(e0, c.tile[0]), ceil(e1, c.tile[1])];
        // The first and last tile of each mode were printed, every thread of each.
        let distinct = |g: i64| if g > 1 { 2 } else { 1 };
        assert_eq!(
            c.rows.len() as i64,
            distinct(grid[0]) * distinct(grid[1]) * c.threads,
            "{name}"
        );
        let mut predicated = [0, 0];
        for (&(a, b, t), vals) in &c.rows {
            assert!(a == 0 || a == grid[0] - 1);
            assert!(b == 0 || b == grid[1] - 1);
            assert_eq!(vals.len() as i64, c.values);
            for (v, &(x0, x1, p)) in vals.iter().enumerate() {
                let v = v as i64;
                // Independent: the CuTe-text TV at t + T·v is the tile position m + M·n.
                let pos = tv_eval(&cute_tv, t + c.threads * v);
                let (m, n) = (pos % c.tile[0], pos / c.tile[0]);
                assert_eq!((a * c.tile[0] + m, b * c.tile[1] + n), (x0, x1), "{name}");
                assert_eq!(part.coord(t, v).unwrap(), vec![n, m]);
                assert_eq!(part.global(&[b, a], t, v).unwrap(), vec![x1, x0], "{name}");
                assert_eq!(
                    part.predicate(&[b, a], t, v).unwrap(),
                    p,
                    "{name} {a} {b} {t} {v}"
                );
                assert_eq!(p, x0 < e0 && x1 < e1);
                let off = part.offset(&[b, a], t, v).unwrap();
                assert_eq!(off, p.then_some(x0 * e1 + x1));
                predicated[usize::from(p)] += 1;
            }
        }
        assert!(predicated[0] > 0 && predicated[1] > 0, "{name}");
    }
}

#[test]
fn partition_errors() {
    let l: Layout = "(300,200):(200,1)".parse().unwrap();
    let t = residue::ceil_divide(&l, &[8, 4]).unwrap();
    // Three top-level modes.
    let tv: Layout = "(2,2,8):(16,8,1)".parse().unwrap();
    assert_eq!(
        t.partition(&tv).unwrap_err(),
        Error::PartitionRank { rank: 3 }
    );
    // Half the tile.
    let tv: Layout = "(2,8):(8,1)".parse().unwrap();
    let e = t.partition(&tv).unwrap_err();
    assert_eq!(
        e,
        Error::PartitionTile {
            reach: 16,
            tile: 32
        }
    );
    assert_eq!(e.rule(), "partition-tile");
    // Not a dense bijection.
    let tv: Layout = "(4,8):(9,1)".parse().unwrap();
    assert_eq!(t.partition(&tv).unwrap_err().rule(), "not-dense");
    // A thread or value outside the domain.
    let tv: Layout = "(4,8):(8,1)".parse().unwrap();
    let p = t.partition(&tv).unwrap();
    assert_eq!(
        p.coord(8, 0).unwrap_err(),
        Error::CoordOutOfRange {
            mode: ModePath::from_indices(&[1]).unwrap(),
            value: 8,
            size: 8
        }
    );
    assert_eq!(
        p.coord(0, 4).unwrap_err(),
        Error::CoordOutOfRange {
            mode: ModePath::from_indices(&[0]).unwrap(),
            value: 4,
            size: 4
        }
    );
}

// ---------------------------------------------------------------------------------------------
// The predicate as code, compiled and run.

/// Random thread-value layouts over a tile: a dense bijection onto the tile's positions,
/// a random factorisation with the running products in a random order.
fn random_tv(rng: &mut Rng, positions: i64) -> Layout {
    let mut sizes = Vec::new();
    let mut rest = positions;
    while rest > 1 {
        let divisors: Vec<i64> = (2..=rest).filter(|d| rest % d == 0).collect();
        let d = divisors[rng.below(divisors.len().min(3))];
        sizes.push(d);
        rest /= d;
    }
    if sizes.len() < 2 {
        sizes.push(1);
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut strides = vec![0i64; sizes.len()];
    let mut w = 1;
    for &i in &order {
        strides[i] = w;
        w *= sizes[i];
    }
    // Values: the first leaves; threads: the others.
    let cut = 1 + rng.below(sizes.len() - 1);
    let group = |r: std::ops::Range<usize>| {
        (
            Tree::Tuple(sizes[r.clone()].iter().map(|&n| Tree::Leaf(n)).collect()),
            Tree::Tuple(
                strides[r]
                    .iter()
                    .map(|&d| Tree::Leaf(Stride::Int(d)))
                    .collect(),
            ),
        )
    };
    let (vs, vd) = group(0..cut);
    let (ts, td) = group(cut..sizes.len());
    Layout::new(Tree::Tuple(vec![vs, ts]), Tree::Tuple(vec![vd, td])).unwrap()
}

/// The tiled copy's thread-value layout of the hgemm built with the algebra: thread
/// `(i, j)` of the `(16, 8)` thread grid (CuTe stride `(8, 1)`) reads the 8 halves at
/// `(i + 16·r, 8·j + w)` of the (M, K) tile, r the repeat, w the vector element.
fn hgemm_copy_tv() -> Layout {
    // CuTe: ((8,16),(8,8)):((1024,1),(128,16)) over the tile (128, 64) as m + 128·k: the
    // thread's `j` (fastest, 8) steps k by 8 (128·8), its `i` steps m by 1; the vector steps k
    // by 1 (128), the repeat m by 16.
    let thread = Layout::from_cute("(8,16):(1024,1)").unwrap();
    let value = Layout::from_cute("(8,8):(128,16)").unwrap();
    let (Tree::Tuple(ts), Tree::Tuple(td)) = (thread.shape().clone(), thread.stride().clone())
    else {
        panic!()
    };
    let (Tree::Tuple(vs), Tree::Tuple(vd)) = (value.shape().clone(), value.stride().clone()) else {
        panic!()
    };
    Layout::new(
        Tree::Tuple(vec![Tree::Tuple(vs), Tree::Tuple(ts)]),
        Tree::Tuple(vec![Tree::Tuple(vd), Tree::Tuple(td)]),
    )
    .unwrap()
}

#[test]
fn emitted_predicates_compile_and_run() {
    let mut rng = Rng(77);
    // (tensor, tile, tv) with brute-force predicates for every tile, thread and value.
    let mut cases: Vec<(Model, Vec<i64>, Layout)> = vec![
        (
            Model {
                modes: vec![vec![(200, 1)], vec![(300, 200)]],
            },
            vec![64, 128],
            hgemm_copy_tv(),
        ),
        (
            Model {
                modes: vec![vec![(200, 1)], vec![(260, 200)]],
            },
            vec![64, 128],
            hgemm_copy_tv(),
        ),
    ];
    for _ in 0..12 {
        let rank = rng.range(1, 3) as usize;
        let ext: Vec<i64> = (0..rank).map(|_| rng.range(1, 40)).collect();
        let tile: Vec<i64> = (0..rank)
            .map(|m| rng.range(1, ext[m] + 4).min(16))
            .collect();
        let mut modes = vec![Vec::new(); rank];
        let mut running = 1;
        for m in (0..rank).rev() {
            modes[m] = vec![(ext[m], running)];
            running *= ext[m];
        }
        let positions = tile.iter().product();
        cases.push((Model { modes }, tile, random_tv(&mut rng, positions)));
    }
    let mut src = String::from("#include <stdint.h>\n#include <stdio.h>\n");
    let mut main = String::from("int main(void) {\n");
    let mut rs = String::new();
    let mut rs_main = String::from("fn main() {\n    let mut out = String::new();\n");
    let mut expected = String::new();
    // Programs that are weighted sums of the digits, and ones that unflatten the logical index.
    let mut forms = [0, 0];
    for (k, (model, tile, tv)) in cases.iter().enumerate() {
        let tiles = residue::ceil_divide(&model.layout(), tile).unwrap();
        let part = tiles.partition(tv).unwrap();
        for p in part.coordinate_programs() {
            forms[usize::from(p.lets.is_empty())] += 1;
        }
        src.push_str(&part.to_c(&format!("p{k}"), IntType::I64, false).unwrap());
        rs.push_str(&part.to_rust(&format!("p{k}"), IntType::I64).unwrap());
        let rank = tile.len();
        let ext: Vec<i64> = (0..rank).map(|m| model.extent(m)).collect();
        let grid: Vec<i64> = (0..rank).map(|m| ceil(ext[m], tile[m])).collect();
        let (threads, values) = (part.threads(), part.values());
        // Brute force: tv at t + T·v (its own mixed-radix evaluation), the tile position
        // unflattened last-fastest, the global coordinate, one compare per mode.
        let leaves: Vec<(i64, i64)> = tv
            .modes()
            .iter()
            .map(|m| (m.size, m.stride.value()))
            .collect();
        for r in all_coords(&grid) {
            for t in 0..threads {
                for v in 0..values {
                    let mut x = v * threads + t;
                    let mut pos = 0;
                    for &(n, d) in leaves.iter().rev() {
                        pos += (x % n) * d;
                        x /= n;
                    }
                    let mut c = vec![0; rank];
                    for m in (0..rank).rev() {
                        c[m] = pos % tile[m];
                        pos /= tile[m];
                    }
                    let pred = (0..rank).all(|m| r[m] * tile[m] + c[m] < ext[m]);
                    expected.push(if pred { '1' } else { '0' });
                    assert_eq!(part.predicate(&r, t, v).unwrap(), pred);
                }
            }
        }
        expected.push('\n');
        let loops: String = (0..rank)
            .map(|m| format!("for (int64_t r{m} = 0; r{m} < {}; ++r{m}) ", grid[m]))
            .collect();
        let tiles_args: Vec<String> = (0..rank).map(|m| format!("r{m}")).collect();
        let ext_args: Vec<String> = ext.iter().map(i64::to_string).collect();
        let _ = writeln!(
            main,
            "  {loops}for (int64_t t = 0; t < {threads}; ++t) for (int64_t v = 0; v < {values}; ++v) putchar(p{k}(t, v, {}, {}) ? '1' : '0');\n  putchar('\\n');",
            tiles_args.join(", "),
            ext_args.join(", ")
        );
        let rs_loops: String = (0..rank)
            .map(|m| format!("for r{m} in 0..{}i64 {{ ", grid[m]))
            .collect();
        let _ = writeln!(
            rs_main,
            "    {rs_loops}for t in 0..{threads}i64 {{ for v in 0..{values}i64 {{ out.push(if p{k}(t, v, {}, {}) {{ '1' }} else {{ '0' }}); }} }}{}\n    out.push('\\n');",
            tiles_args.join(", "),
            ext_args.join(", "),
            "}".repeat(rank)
        );
    }
    main.push_str("  return 0;\n}\n");
    src.push_str(&main);
    rs_main.push_str("    print!(\"{out}\");\n}\n");
    rs.push_str(&rs_main);
    let dir = std::env::temp_dir().join(format!("layout-residue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (c_file, exe) = (dir.join("predicate.c"), dir.join("predicate"));
    std::fs::write(&c_file, &src).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-std=c99", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .status()
        .expect("the system C compiler");
    assert!(status.success(), "C did not compile:\n{src}");
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    let got = String::from_utf8(out.stdout).unwrap();
    for (k, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert!(g == e, "case {k}: the emitted C predicate differs\n{src}");
    }
    assert_eq!(got.lines().count(), cases.len());
    // The same predicates as Rust.
    let (rs_file, rs_exe) = (dir.join("predicate.rs"), dir.join("predicate_rs"));
    std::fs::write(&rs_file, &rs).unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let status = Command::new(&rustc)
        .args(["--edition", "2024", "-O", "-D", "warnings", "-o"])
        .arg(&rs_exe)
        .arg(&rs_file)
        .status()
        .expect("rustc");
    assert!(status.success(), "Rust did not compile:\n{rs}");
    let out = Command::new(&rs_exe).output().unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout).unwrap() == expected,
        "the emitted Rust predicate differs"
    );
    assert!(forms[0] > 0 && forms[1] > 0, "{forms:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_hgemm_predicate_is_one_weighted_sum_per_mode() {
    // The copy's coordinates are sums of the thread's and the value's digits, no div/mod of
    // the logical index: k = 8·(t % 8) + (v % 8), m = (t / 8) + 16·(v / 8).
    let l = Model {
        modes: vec![vec![(200, 1)], vec![(300, 200)]],
    }
    .layout();
    let tiles = residue::ceil_divide(&l, &[64, 128]).unwrap();
    let part = tiles.partition(&hgemm_copy_tv()).unwrap();
    let c = part.to_c("pred", IntType::I32, false).unwrap();
    assert!(
        c.contains("return ((int32_t)64)*tile + ((int32_t)8)*(thread % 8) + (value % 8);"),
        "{c}"
    );
    assert!(
        c.contains("return ((int32_t)128)*tile + (thread / 8) + ((int32_t)16)*(value / 8);"),
        "{c}"
    );
    assert!(!c.contains("const"), "{c}");
    assert!(c.contains("(pred_coord0(thread, value, tile0) < extent0) & (pred_coord1(thread, value, tile1) < extent1)"), "{c}");
    let r = part.to_rust("pred", IntType::I64).unwrap();
    assert!(r.contains("-> bool"), "{r}");
}

#[test]
fn errors_say_their_numbers_and_help() {
    let at = |v: &[usize]| ModePath::from_indices(v).unwrap();
    let cases = [
        (
            Error::ResidueSplit {
                mode: at(&[0, 1]),
                tile: 4,
                needed: 4,
                size: 3,
            },
            "residue-split",
            "ceil-divide: tile entry 4 leaves a residue and cuts mode (0,1) of size 3 unevenly: 4 positions remain for it after the faster leaves, neither of 4 and 3 divides the other, and slower leaves follow it",
        ),
        (
            Error::ResidueOffset {
                mode: at(&[1, 0]),
                tensor_mode: 0,
                coord: 64,
                offset: 24576,
                expected: 19200,
            },
            "residue-offset",
            "a predicated access leaves the tensor: at global coordinate 64 of mode 0 the padded layout (mode (1,0)) reaches offset 24576, the tensor 19200",
        ),
        (
            Error::ResidueShape { mode: at(&[0, 1]) },
            "residue-shape",
            "the padded layout's mode (0,1) does not have the shape of the ceil-divide's `(tile, rest)` layout",
        ),
        (
            Error::PartitionRank { rank: 3 },
            "partition-rank",
            "a thread-value layout over a tile has the domain `(value, thread)`, but this one has 3 top-level modes",
        ),
        (
            Error::PartitionTile {
                reach: 16,
                tile: 32,
            },
            "partition-tile",
            "the thread-value layout reaches logical positions [0, 16), but the tile has 32",
        ),
    ];
    for (e, rule, text) in cases {
        assert_eq!(e.rule(), rule);
        assert_eq!(e.to_string(), text);
        assert!(!e.help().expect("a help").to_string().is_empty());
    }
    assert_eq!(
        Error::ResidueSplit {
            mode: at(&[0, 1]),
            tile: 4,
            needed: 4,
            size: 3
        }
        .mode(),
        Some(at(&[0, 1]))
    );
}

//! What one `layout!` costs under `cargo check` (the target: at most 1 ms per layout).
//!
//! Ignored in normal runs (it runs `cargo check` about forty times). Run it with
//!
//! ```text
//! cargo test -p layout-tests --release -- --ignored check_time --nocapture
//! ```
//!
//! It writes throwaway crates into a temporary folder, each depending on this workspace's
//! `layout-typed` by path and holding N distinct `layout!` invocations (N = 0, 100, 1000 by
//! default; `LAYOUT_CHECK_N=0,1000` picks others), about 60 % item forms and 40 % expression
//! forms whose values are used through `offset`:
//! - MMA-style thread-value atoms in CuTe order, `cute ((4,8),(2,2)):((32,1),(16,8)),
//!   thread-value -> logical(16,8)`, with a random dense stride order and optional tile;
//! - row-major, column-major and padded shared-memory tiles, some with `index = u32 | i32`;
//! - swizzled tiles, `(8,64):(64,1), logical -> physical, Swizzle<3,4,3>` or the seed spelling;
//! - blocked nested tiles, `((4,8),(8,4)):((256,32),(4,1))`, into physical or logical;
//! - broadcasts, `(16,32):(_,1)`;
//!
//! plus 0.3 N `compose(SMEM, TV)` calls over the item forms whose sizes match (a crate with
//! N layouts and no composition isolates their share). For each configuration (the default
//! `dev` profile, incremental; `CARGO_INCREMENTAL=0`; `CARGO_INCREMENTAL=0` with the proc-macro
//! built at `opt-level = 3`) it builds the dependencies once, then per crate touches
//! `src/lib.rs` and times `cargo check` three times (`LAYOUT_CHECK_RUNS` for more), and prints
//! the medians, `per layout = (t(N) - t(0)) / N` and the share of one composition. Every crate
//! must check cleanly, so this also proves the generated layouts are accepted. `KEEP=1` keeps
//! the folder.

use layout_tests::Rng;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

/// What a declaration can be composed as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// `thread-value -> logical`: a right operand.
    Tv,
    /// `logical -> physical`: a left operand.
    Smem,
    Other,
}

struct Decl {
    text: String,
    size: i64,
    role: Role,
}

/// Dense strides for `sizes` in a random order of the modes.
fn dense_strides(rng: &mut Rng, sizes: &[i64]) -> Vec<i64> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    rng.shuffle(&mut order);
    let mut strides = vec![0; sizes.len()];
    let mut next = 1;
    for i in order {
        strides[i] = next;
        next *= sizes[i];
    }
    strides
}

/// An MMA-style thread-value atom in CuTe order: `((t1,t2),(v1,v2))`, dense.
fn tv_atom(rng: &mut Rng) -> Decl {
    let threads = rng.pick(&[32i64, 64, 128]);
    let t1 = rng.pick(&[2i64, 4, 8, 16]);
    let values = rng.pick(&[2i64, 4, 8]);
    let v1 = rng.pick(&[1i64, 2]);
    let sizes = [t1, threads / t1, v1, values / v1];
    let s = dense_strides(rng, &sizes);
    let size = threads * values;
    let tile = if rng.chance(60) {
        let n = rng.pick(&[4i64, 8, 16]);
        format!("({},{n})", size / n)
    } else {
        String::new()
    };
    Decl {
        text: format!(
            "cute (({},{}),({},{})):(({},{}),({},{})), thread-value -> logical{tile}",
            sizes[0], sizes[1], sizes[2], sizes[3], s[0], s[1], s[2], s[3]
        ),
        size,
        role: Role::Tv,
    }
}

/// A row-major, column-major or padded tile in memory.
fn smem_tile(rng: &mut Rng) -> Decl {
    let (m, n) = (
        rng.pick(&[8i64, 16, 32, 64, 128]),
        rng.pick(&[8i64, 16, 32, 64, 128]),
    );
    let pad = rng.pick(&[0i64, 0, 1, 4, 8]);
    let layout = if rng.chance(50) {
        format!("({m},{n}):({},1)", n + pad)
    } else {
        format!("({m},{n}):(1,{})", m + pad)
    };
    let index = rng.pick(&["", "", "", ", index = u32", ", index = i32"]);
    Decl {
        text: format!("{layout}, logical -> physical{index}"),
        size: m * n,
        role: Role::Smem,
    }
}

/// A swizzled row-major tile, in CuTe's or the seed's spelling.
fn swizzled(rng: &mut Rng) -> Decl {
    let (r, c) = (rng.pick(&[8i64, 16, 32, 64]), rng.pick(&[32i64, 64, 128]));
    let b = rng.pick(&[1i64, 2, 3]);
    let m = rng.pick(&[0i64, 1, 2, 3, 4]);
    let s = b + rng.pick(&[0i64, 1, 2]);
    let sw = if rng.chance(60) {
        format!("Swizzle<{b},{m},{s}> over elements")
    } else {
        format!("swizzle(b = {b}, src = {}, dst = {m})", m + s)
    };
    Decl {
        text: format!("({r},{c}):({c},1), logical -> physical, {sw}"),
        size: r * c,
        role: Role::Smem,
    }
}

/// A tile split into blocks: row-major with split modes, or blocks stored contiguously.
fn blocked(rng: &mut Rng) -> Decl {
    let (m, n) = (
        rng.pick(&[16i64, 32, 64, 128]),
        rng.pick(&[16i64, 32, 64, 128]),
    );
    let (b, c) = (rng.pick(&[2i64, 4, 8]), rng.pick(&[2i64, 4, 8]));
    let layout = if rng.chance(50) {
        format!(
            "(({},{b}),({},{c})):(({},{n}),({c},1))",
            m / b,
            n / c,
            b * n
        )
    } else {
        format!(
            "(({},{b}),({},{c})):(({},{c}),({},1))",
            m / b,
            n / c,
            n * b,
            b * c
        )
    };
    let space = if rng.chance(66) {
        "physical"
    } else {
        "logical"
    };
    Decl {
        text: format!("{layout}, logical -> {space}"),
        size: m * n,
        role: Role::Other,
    }
}

/// A broadcast along rows or columns (read-only).
fn broadcast(rng: &mut Rng) -> Decl {
    let (m, n) = (rng.pick(&[4i64, 8, 16, 32]), rng.pick(&[8i64, 16, 32, 64]));
    let layout = if rng.chance(50) {
        format!("({m},{n}):(_,1)")
    } else {
        format!("({m},{n}):(1,_)")
    };
    Decl {
        text: format!("{layout}, logical -> physical"),
        size: m * n,
        role: Role::Other,
    }
}

/// The source of a crate with `n` distinct `layout!`s and, if asked, 0.3 n compositions;
/// returns the source and the number of compositions.
fn source(n: usize, with_compose: bool) -> (String, usize) {
    let mut rng = Rng(0x1a40_u64 ^ n as u64);
    let mut seen = HashSet::new();
    let mut items = String::new();
    let mut exprs: Vec<String> = Vec::new();
    let mut by_size: BTreeMap<i64, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut made = 0;
    while made < n {
        let d = match rng.below(10) {
            0..=2 => tv_atom(&mut rng),
            3..=5 => smem_tile(&mut rng),
            6 | 7 => swizzled(&mut rng),
            8 => blocked(&mut rng),
            _ => broadcast(&mut rng),
        };
        if !seen.insert(d.text.clone()) {
            continue;
        }
        if rng.chance(60) {
            let name = format!("L{made}");
            writeln!(items, "layout! {{ pub const {name} = {}; }}", d.text).unwrap();
            let slot = by_size.entry(d.size).or_default();
            match d.role {
                Role::Tv => slot.0.push(name),
                Role::Smem => slot.1.push(name),
                Role::Other => {}
            }
        } else {
            exprs.push(format!(
                "acc += layout!({}).offset(i % {}) as i64;",
                d.text, d.size
            ));
        }
        made += 1;
    }
    let mut composes = Vec::new();
    if with_compose {
        let pairs: Vec<(String, String, i64)> = by_size
            .iter()
            .flat_map(|(size, (tvs, smems))| {
                tvs.iter()
                    .flat_map(move |t| smems.iter().map(move |s| (s.clone(), t.clone(), *size)))
            })
            .collect();
        // Distinct pairs first; a small crate may have to repeat one.
        let want = if pairs.is_empty() { 0 } else { n * 3 / 10 };
        let mut picked = HashSet::new();
        while composes.len() < want {
            let k = rng.below(pairs.len());
            if picked.insert(k) || picked.len() == pairs.len() {
                let (s, t, size) = &pairs[k];
                composes.push(format!(
                    "acc += compose({s}, {t}).offset(i % {size}) as i64;"
                ));
            }
        }
    }
    let mut src = String::from(
        "//! Generated by layout-tests/tests/check_time.rs.\n#![allow(dead_code, unused_imports, unused_mut)]\n\
         use layout_typed::prelude::*;\n\n",
    );
    src += &items;
    for (k, chunk) in exprs.chunks(50).chain(composes.chunks(50)).enumerate() {
        writeln!(
            src,
            "\npub fn body{k}(i: usize) -> i64 {{\n    let mut acc = 0i64;"
        )
        .unwrap();
        for line in chunk {
            writeln!(src, "    {line}").unwrap();
        }
        src += "    acc\n}\n";
    }
    (src, composes.len())
}

struct Config {
    name: &'static str,
    env: &'static [(&'static str, &'static str)],
}

const CONFIGS: &[Config] = &[
    Config {
        name: "dev profile, incremental (default)",
        env: &[],
    },
    Config {
        name: "dev profile, CARGO_INCREMENTAL=0",
        env: &[("CARGO_INCREMENTAL", "0")],
    },
    Config {
        name: "CARGO_INCREMENTAL=0, proc-macro at opt-level 3",
        env: &[
            ("CARGO_INCREMENTAL", "0"),
            ("CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL", "3"),
        ],
    },
];

fn cargo_check(dir: &Path, target: &Path, config: &Config) -> Duration {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut cmd = Command::new(cargo);
    cmd.arg("check")
        .arg("--quiet")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("CARGO_INCREMENTAL")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    for (k, v) in config.env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let out = cmd.output().expect("cargo runs");
    let t = start.elapsed();
    assert!(
        out.status.success(),
        "cargo check failed in {}:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    t
}

fn touch(path: &Path) {
    let f = fs::File::options()
        .append(true)
        .open(path)
        .expect("source exists");
    f.set_modified(SystemTime::now()).expect("set mtime");
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[test]
#[ignore = "runs cargo check ~40 times; see the file's header"]
fn check_time() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let typed = manifest
        .join("../layout-typed")
        .canonicalize()
        .expect("layout-typed");
    let lock = manifest.join("../Cargo.lock");
    let root = std::env::temp_dir().join(format!("layout-check-time-{}", std::process::id()));
    let ns: Vec<usize> = std::env::var("LAYOUT_CHECK_N")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![0, 100, 1000]);
    let big = ns.iter().copied().max().unwrap_or(0);
    let runs: usize = std::env::var("LAYOUT_CHECK_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);

    // (label, layouts, compositions, folder)
    let mut crates = Vec::new();
    let mut variants: Vec<(usize, bool)> = ns.iter().map(|&n| (n, true)).collect();
    if big > 0 {
        variants.push((big, false));
    }
    for (n, with_compose) in variants {
        let name = format!("check_n{n}{}", if with_compose { "" } else { "_nocompose" });
        let dir = root.join(&name);
        fs::create_dir_all(dir.join("src")).unwrap();
        let (src, composes) = source(n, with_compose);
        fs::write(dir.join("src/lib.rs"), src).unwrap();
        fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
                 [dependencies]\nlayout-typed = {{ path = {:?} }}\n\n[workspace]\n",
                typed.display().to_string()
            ),
        )
        .unwrap();
        if lock.exists() {
            fs::copy(&lock, dir.join("Cargo.lock")).unwrap();
        }
        crates.push((
            format!("{n:>5} layouts + {composes:>3} compose"),
            n,
            composes,
            dir,
        ));
    }

    let mut report = String::new();
    for (ci, config) in CONFIGS.iter().enumerate() {
        let target = root.join(format!("target{ci}"));
        writeln!(report, "\n== {}", config.name).unwrap();
        let mut medians = Vec::new();
        for (label, n, composes, dir) in &crates {
            let warm = cargo_check(dir, &target, config);
            let runs: Vec<Duration> = (0..runs)
                .map(|_| {
                    touch(&dir.join("src/lib.rs"));
                    cargo_check(dir, &target, config)
                })
                .collect();
            let runs_ms: Vec<String> = runs.iter().map(|d| format!("{:.0}", ms(*d))).collect();
            let m = median(runs);
            writeln!(
                report,
                "{label}: first check {:>7.0} ms, re-checks [{}] ms, median {:>6.0} ms",
                ms(warm),
                runs_ms.join(", "),
                ms(m)
            )
            .unwrap();
            medians.push((*n, *composes, m));
        }
        let base = medians.iter().find(|(n, _, _)| *n == 0).map(|x| x.2);
        if let Some(base) = base {
            for (n, composes, m) in &medians {
                if *n > 0 {
                    writeln!(
                        report,
                        "per layout (N = {n}, {composes} compose) = ({:.0} - {:.0}) / {n} = {:.3} ms",
                        ms(*m),
                        ms(base),
                        (ms(*m) - ms(base)) / *n as f64
                    )
                    .unwrap();
                }
            }
        }
        // The same N with and without compositions: what one `compose(..).offset(..)` adds.
        let with = medians.iter().find(|(n, c, _)| *n == big && *c > 0);
        let without = medians.iter().find(|(n, c, _)| *n == big && *c == 0);
        if let (Some((_, c, a)), Some((_, _, b))) = (with, without) {
            writeln!(
                report,
                "per compose (N = {big}) = ({:.0} - {:.0}) / {c} = {:.3} ms",
                ms(*a),
                ms(*b),
                (ms(*a) - ms(*b)) / *c as f64
            )
            .unwrap();
        }
    }
    println!("{report}");
    if std::env::var_os("KEEP").is_none() {
        let _ = fs::remove_dir_all(&root);
    } else {
        println!("kept {}", root.display());
    }
}

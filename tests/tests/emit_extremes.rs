//! Emitted code at the index type's extremes: layouts (and restrictions of them) whose strides
//! and constants are each type's minimum and maximum are rendered as Rust (`rustc`, overflow
//! checks on), C (`g++`, `-Werror`, the undefined-behaviour sanitizer where it links) and Python
//! (`python3`), run at every coordinate and compared with a brute-force evaluation in `i128`
//! written here; a map whose offsets leave the type is refused.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use layout_core::{Annotated, IntType, Layout, Map, Program, Space, emit, layout_form, written};

/// A flat layout `(sizes):(strides)` in type `ty`, with at most one mode fixed.
struct Case {
    ty: IntType,
    sizes: Vec<i64>,
    strides: Vec<i64>,
    fixed: Option<(usize, i64)>,
}

impl Case {
    fn text(&self) -> String {
        let j = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        format!("({}):({})", j(&self.sizes), j(&self.strides))
    }

    /// Every offset, last free mode fastest, in `i128`.
    fn brute_force(&self) -> Vec<i128> {
        let free: Vec<usize> = (0..self.sizes.len())
            .filter(|&m| self.fixed.is_none_or(|(f, _)| f != m))
            .collect();
        let total: i64 = free.iter().map(|&m| self.sizes[m]).product();
        (0..total)
            .map(|mut i| {
                let mut coord = vec![0i64; self.sizes.len()];
                if let Some((f, v)) = self.fixed {
                    coord[f] = v;
                }
                for &m in free.iter().rev() {
                    coord[m] = i % self.sizes[m];
                    i /= self.sizes[m];
                }
                coord
                    .iter()
                    .zip(&self.strides)
                    .map(|(&c, &d)| i128::from(c) * i128::from(d))
                    .sum()
            })
            .collect()
    }

    fn fits(&self) -> bool {
        let (lo, hi) = self.ty.range();
        self.brute_force()
            .iter()
            .all(|&v| (i128::from(lo)..=i128::from(hi)).contains(&v))
    }

    /// The map; `None` when the layout is refused for offsets past `i64` (checked here).
    fn map(&self) -> Option<Map> {
        let l: Layout = match self.text().parse() {
            Ok(l) => l,
            Err(e) => {
                let all = self.brute_force();
                assert!(
                    all.iter().any(|&v| i64::try_from(v).is_err()),
                    "{} refused: {e:?}",
                    self.text()
                );
                return None;
            }
        };
        let m: Map = Annotated::new(l, Space::Logical, Space::Physical)
            .expect("alias-free")
            .into();
        Some(match self.fixed {
            Some(f) => m.restrict(&[f]).expect("restrictable"),
            None => m,
        })
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for ty in [IntType::I32, IntType::I64, IntType::U32, IntType::Usize] {
        let (min, max) = ty.range();
        let mut add = |sizes: &[i64], strides: &[i64], fixed: Option<(usize, i64)>| {
            out.push(Case {
                ty,
                sizes: sizes.to_vec(),
                strides: strides.to_vec(),
                fixed,
            });
        };
        add(&[2], &[max], None);
        add(&[3], &[max], None);
        add(&[2, 2], &[max, 1], None);
        add(&[2, 3], &[1, max / 2], None);
        if min < 0 {
            add(&[2, 2], &[max, min], None);
            add(&[2, 2], &[min, max], None);
            add(&[2], &[min], None);
            add(&[2, 2], &[min, 1], None);
            add(&[2, 2], &[-1, min], None);
            add(&[2, 3], &[min / 2, 1], None);
            add(&[2, 2], &[max, min], Some((1, 1)));
            add(&[2, 2], &[max, min], Some((0, 1)));
            add(&[2, 2], &[1, min], Some((1, 1)));
            add(&[2, 2, 2], &[min, 1, max / 2], Some((0, 1)));
        }
    }
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("layout-extremes-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The programs to run: every case's layout form and form as written, with its expected
/// values; a case that does not fit its type is refused by every renderer.
fn programs() -> Vec<(String, IntType, Program, Vec<i128>)> {
    let mut out = Vec::new();
    let mut refused = 0;
    for case in cases() {
        let Some(map) = case.map() else {
            refused += 1;
            continue;
        };
        let e = emit(&map, false).expect("emit");
        let mut forms = vec![("written", written(&map, false))];
        if let Some(p) = layout_form(&e.decision) {
            forms.push(("layout", p));
        }
        for (form, p) in forms {
            let desc = format!(
                "{} fixed {:?} as {:?} [{form}]",
                case.text(),
                case.fixed,
                case.ty
            );
            if case.fits() {
                out.push((desc, case.ty, p, case.brute_force()));
            } else {
                refused += 1;
                for r in [
                    p.to_rust("f", case.ty),
                    p.to_c("f", case.ty, false),
                    p.to_c("f", case.ty, true),
                    p.check_range(case.ty).map(|()| String::new()),
                ] {
                    assert!(
                        matches!(r, Err(layout_core::Error::IndexTypeRange { .. })),
                        "{desc}: {r:?}"
                    );
                }
            }
        }
    }
    assert!(
        refused >= 8 && out.len() >= 40,
        "{refused} refused, {} run",
        out.len()
    );
    out
}

fn check_output(
    all: &[(String, IntType, Program, Vec<i128>)],
    out: std::process::Output,
    lang: &str,
) {
    assert!(
        out.status.success(),
        "{lang} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), all.len(), "{lang}");
    for ((desc, _, p, expected), line) in all.iter().zip(lines) {
        let got: Vec<i128> = line
            .split_whitespace()
            .map(|v| v.parse().expect("integer"))
            .collect();
        assert_eq!(&got, expected, "{lang}: {desc}\n{}", p.to_python());
    }
}

/// Row-major coordinates of a program, as literal lists.
fn coordinates(p: &Program) -> Vec<Vec<i64>> {
    let total: i64 = p.sizes.iter().product();
    (0..total)
        .map(|mut i| {
            let mut c = vec![0; p.sizes.len()];
            for j in (0..c.len()).rev() {
                c[j] = i % p.sizes[j];
                i /= p.sizes[j];
            }
            c
        })
        .collect()
}

fn args(c: &[i64]) -> String {
    c.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

#[test]
fn rust_at_the_extremes() {
    let all = programs();
    let mut src = String::new();
    let mut main = String::from("fn main() {\n");
    for (k, (_, ty, p, _)) in all.iter().enumerate() {
        src.push_str(&p.to_rust(&format!("f{k}"), *ty).expect("fits"));
        for c in coordinates(p) {
            let _ = writeln!(main, "    print!(\"{{}} \", f{k}({}));", args(&c));
        }
        main.push_str("    println!();\n");
    }
    main.push_str("}\n");
    src.push_str(&main);
    let dir = scratch("rust");
    let (file, exe) = (dir.join("extremes.rs"), dir.join("extremes_rs"));
    std::fs::write(&file, &src).expect("write Rust");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    // Debug: every overflow of the generated arithmetic panics.
    let out = Command::new(&rustc)
        .args([
            "--edition",
            "2024",
            "-C",
            "overflow-checks=on",
            "-D",
            "warnings",
            "-o",
        ])
        .arg(&exe)
        .arg(&file)
        .output()
        .expect("rustc");
    assert!(
        out.status.success(),
        "Rust did not compile:\n{}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_output(&all, Command::new(&exe).output().expect("run"), "rust");
}

#[test]
fn c_and_cuda_at_the_extremes() {
    let all = programs();
    let dir = scratch("c");
    // The undefined-behaviour sanitizer where it links, else plain warnings-as-errors.
    let probe = dir.join("probe.cc");
    std::fs::write(&probe, "int main() { return 0; }\n").expect("write probe");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    let ubsan = Command::new(&cxx)
        .args(["-fsanitize=undefined", "-o"])
        .arg(dir.join("probe"))
        .arg(&probe)
        .status()
        .is_ok_and(|s| s.success());
    for cuda in [false, true] {
        let mut src = String::from(
            "#include <stdint.h>\n#include <stddef.h>\n#include <stdio.h>\n\
             #define __host__\n#define __device__\n#define __forceinline__ inline\n",
        );
        let mut main = String::from("int main() {\n");
        for (k, (_, ty, p, _)) in all.iter().enumerate() {
            src.push_str(&p.to_c(&format!("f{k}"), *ty, cuda).expect("fits"));
            for c in coordinates(p) {
                let _ = writeln!(main, "  printf(\"%lld \", (long long)f{k}({}));", args(&c));
            }
            main.push_str("  printf(\"\\n\");\n");
        }
        main.push_str("  return 0;\n}\n");
        src.push_str(&main);
        let (file, exe) = (dir.join("extremes.cc"), dir.join("extremes_c"));
        std::fs::write(&file, &src).expect("write C");
        let mut cmd = Command::new(&cxx);
        cmd.args(["-std=c++17", "-O0", "-Wall", "-Wextra", "-Werror"]);
        if ubsan {
            cmd.args(["-fsanitize=undefined", "-fno-sanitize-recover=all"]);
        }
        let out = cmd
            .arg("-o")
            .arg(&exe)
            .arg(&file)
            .output()
            .expect("the C++ compiler");
        assert!(
            out.status.success(),
            "C did not compile:\n{}\n{src}",
            String::from_utf8_lossy(&out.stderr)
        );
        check_output(&all, Command::new(&exe).output().expect("run"), "c");
    }
}

#[test]
fn python_at_the_extremes() {
    let all = programs();
    let mut src = String::new();
    for (k, (_, ty, p, _)) in all.iter().enumerate() {
        p.check_range(*ty).expect("fits");
        let params: Vec<&str> = p.names.iter().map(String::as_str).collect();
        let _ = writeln!(src, "def f{k}({}):", params.join(", "));
        for line in p.to_python().lines() {
            let _ = writeln!(src, "    {line}");
        }
        src.push_str("    return result\n");
        let calls: Vec<String> = coordinates(p)
            .iter()
            .map(|c| format!("f{k}({})", args(c)))
            .collect();
        let _ = writeln!(
            src,
            "print(' '.join(str(v) for v in [{}]))",
            calls.join(", ")
        );
    }
    let dir = scratch("py");
    let file = dir.join("extremes.py");
    std::fs::write(&file, &src).expect("write Python");
    let out = Command::new("python3")
        .arg(&file)
        .output()
        .expect("python3");
    check_output(&all, out, "python");
}

/// The reported example: `(2,2):(i64::MAX, i64::MIN)` in Python.
#[test]
fn python_spells_the_minimum_exactly() {
    let c = Case {
        ty: IntType::I64,
        sizes: vec![2, 2],
        strides: vec![i64::MAX, i64::MIN],
        fixed: None,
    };
    let p = emit(&c.map().expect("fits i64"), false)
        .expect("emit")
        .program;
    assert_eq!(
        p.to_python(),
        "result = 9223372036854775807*c0 - 9223372036854775808*c1"
    );
}

/// Whole values that fit the type do not make the text safe: `c0 - 1073741824*c1` computes the
/// product `2^31` in `i32` before subtracting it. Every product and partial sum the text
/// computes must fit, so these programs (every offset fits; an intermediate does not) are
/// refused by every fixed-width renderer, in both forms; the offsets are checked to fit here.
#[test]
fn intermediates_past_the_type_are_refused() {
    let cases = [
        Case {
            ty: IntType::I32,
            sizes: vec![2, 3],
            strides: vec![1, -1_073_741_824],
            fixed: None,
        },
        Case {
            ty: IntType::I32,
            sizes: vec![4, 2],
            strides: vec![1_073_741_823, -1_073_741_824],
            fixed: Some((1, 1)),
        },
        Case {
            ty: IntType::I64,
            sizes: vec![3, 2],
            strides: vec![-4_611_686_018_427_387_904, 1],
            fixed: Some((1, 1)),
        },
        Case {
            ty: IntType::I64,
            sizes: vec![2, 3],
            strides: vec![1, -4_611_686_018_427_387_904],
            fixed: None,
        },
    ];
    for case in cases {
        assert!(case.fits(), "{}: every offset fits", case.text());
        let map = case.map().expect("a layout");
        let e = emit(&map, false).expect("emit");
        let mut forms = vec![written(&map, false)];
        forms.extend(layout_form(&e.decision));
        for p in forms {
            for r in [
                p.to_rust("f", case.ty),
                p.to_c("f", case.ty, false),
                p.to_c("f", case.ty, true),
            ] {
                assert!(
                    matches!(r, Err(layout_core::Error::IndexTypeRange { .. })),
                    "{} fixed {:?}: {r:?}",
                    case.text(),
                    case.fixed
                );
            }
        }
    }
}

//! Emitted code is compiled and run: for a sample of maps (padded storage composed with random
//! dense bijections, some swizzled, some restricted), both the layout form and the composite
//! as written are rendered as C (compiled with the system C compiler) and as Rust (compiled with
//! `rustc`), run at every coordinate, and compared with the map's own evaluation.

use layout_tests::Rng;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use layout_core::{
    Annotated, IntType, Layout, Map, Program, ProgramForm, Space, Stride, Swizzle, Tree, compose,
    emit, layout_form, written,
};

/// A random dense bijection of size `n`: a random factorisation into modes, strides the running
/// products in a random order.
fn dense_bijection(rng: &mut Rng, n: i64) -> Layout {
    let mut sizes = Vec::new();
    let mut rest = n;
    while rest > 1 {
        let divisors: Vec<i64> = (2..=rest).filter(|d| rest % d == 0).collect();
        let d = divisors[rng.below(divisors.len().min(3))];
        sizes.push(d);
        rest /= d;
    }
    if sizes.is_empty() {
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
    let shape = Tree::Tuple(sizes.into_iter().map(Tree::Leaf).collect());
    let stride = Tree::Tuple(
        strides
            .into_iter()
            .map(|d| Tree::Leaf(Stride::Int(d)))
            .collect(),
    );
    Layout::new(shape, stride).expect("dense bijection")
}

fn sample_maps() -> Vec<(String, Map)> {
    let mut rng = Rng(2026);
    let mut out = Vec::new();
    for k in 0..24 {
        let rows = [2, 4, 6, 8][rng.below(4)];
        let cols = [4, 6, 8, 16][rng.below(4)];
        let pad = rng.below(3) as i64;
        let text = if k % 2 == 0 {
            format!("({rows},{cols}):({},1)", cols + pad)
        } else {
            format!("({rows},{cols}):(1,{})", rows + pad)
        };
        let p: Layout = text.parse().expect("storage");
        let mut storage: Map = Annotated::new(p, Space::Logical, Space::Physical)
            .expect("alias-free")
            .into();
        if k % 3 == 0 {
            let sw = Swizzle::new(1 + rng.below(2) as u32, 3, 0).expect("disjoint");
            storage = storage.swizzle(sw).expect("physical");
        }
        let b = dense_bijection(&mut rng, rows * cols);
        let desc = format!("{storage:?} ∘ {b}");
        let b: Map = Annotated::new(b, Space::ThreadValue, Space::Logical)
            .expect("dense")
            .into();
        let mut map = compose(&storage, &b).expect("composable");
        if k % 4 == 1 {
            map = map.restrict(&[(0, 1)]).expect("restrictable");
        }
        out.push((desc, map));
    }
    out
}

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

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("layout-emit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Every program of the sample with its expected values (the map at every flat index).
fn programs() -> Vec<(String, Program, Vec<i64>)> {
    let mut out = Vec::new();
    for (desc, map) in sample_maps() {
        let expected: Vec<i64> = (0..map.size())
            .map(|i| map.eval_index(i).expect("in range"))
            .collect();
        let e = emit(&map, false).expect("emit");
        assert!(
            e.program.cost() <= e.written_cost,
            "{desc}: emitted costs more"
        );
        let as_written = written(&map, false);
        assert_eq!(as_written.cost(), e.written_cost);
        if e.form == ProgramForm::Layout {
            assert_eq!(Some(&e.program), layout_form(&e.decision).as_ref());
        }
        // The layout form is checked whenever the map is a layout, chosen or not.
        if let Some(p) = layout_form(&e.decision) {
            out.push((format!("{desc} [layout form]"), p, expected.clone()));
        }
        out.push((format!("{desc} [as written]"), as_written, expected));
    }
    out
}

#[test]
fn programs_evaluate_to_their_maps() {
    let all = programs();
    let layouts = all
        .iter()
        .filter(|(d, ..)| d.ends_with("[layout form]"))
        .count();
    println!("{} programs, {layouts} in layout form", all.len());
    assert!(layouts >= 5 && all.len() - layouts >= 20);
    for (desc, p, expected) in &all {
        for (i, c) in coordinates(p).iter().enumerate() {
            assert_eq!(p.eval(c), Ok(expected[i]), "{desc}\n{}", p.to_python());
        }
    }
}

#[test]
fn emitted_c_compiles_and_runs() {
    let all = programs();
    let mut src = String::from("#include <stdint.h>\n#include <stdio.h>\n");
    let mut main = String::from("int main(void) {\n");
    for (k, (_, p, _)) in all.iter().enumerate() {
        src.push_str(
            &p.to_c(&format!("f{k}"), IntType::I64, false)
                .expect("fits i64"),
        );
        let args: Vec<String> = (0..p.sizes.len()).map(|j| format!("c[{j}]")).collect();
        let _ = writeln!(
            main,
            "  {{ int64_t sizes[] = {{{}}}; int64_t c[{}] = {{0}}; int64_t total = {};\n    for (int64_t i = 0; i < total; ++i) {{ int64_t r = i; for (int j = {}; j >= 0; --j) {{ c[j] = r % sizes[j]; r /= sizes[j]; }} printf(\"%lld \", (long long)f{k}({})); }} printf(\"\\n\"); }}",
            p.sizes
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(","),
            p.sizes.len().max(1),
            p.sizes.iter().product::<i64>(),
            p.sizes.len() as i64 - 1,
            args.join(", ")
        );
    }
    main.push_str("  return 0;\n}\n");
    src.push_str(&main);
    let dir = scratch("c");
    let (c_file, exe) = (dir.join("emitted.c"), dir.join("emitted"));
    std::fs::write(&c_file, &src).expect("write C");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-std=c99", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .status()
        .expect("the system C compiler");
    assert!(status.success(), "C did not compile:\n{src}");
    check_output(&all, Command::new(&exe).output().expect("run"));
}

#[test]
fn emitted_rust_compiles_and_runs() {
    let all = programs();
    let mut src = String::new();
    let mut main = String::from("fn main() {\n");
    for (k, (_, p, _)) in all.iter().enumerate() {
        src.push_str(&p.to_rust(&format!("f{k}"), IntType::I64).expect("fits i64"));
        let args: Vec<String> = (0..p.sizes.len()).map(|j| format!("c[{j}]")).collect();
        let _ = writeln!(
            main,
            "    {{ let sizes: [i64; {n}] = [{}]; let mut c = [0i64; {n}]; for i in 0..{total}i64 {{ let mut r = i; for j in (0..{n}).rev() {{ c[j] = r % sizes[j]; r /= sizes[j]; }} print!(\"{{}} \", f{k}({})); }} println!(); }}",
            p.sizes
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(","),
            args.join(", "),
            n = p.sizes.len(),
            total = p.sizes.iter().product::<i64>(),
        );
    }
    main.push_str("}\n");
    src.push_str(&main);
    let dir = scratch("rust");
    let (rs_file, exe) = (dir.join("emitted.rs"), dir.join("emitted_rs"));
    std::fs::write(&rs_file, &src).expect("write Rust");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let out = Command::new(&rustc)
        .args(["--edition", "2021", "-O", "-D", "warnings", "-o"])
        .arg(&exe)
        .arg(&rs_file)
        .output()
        .expect("rustc");
    assert!(
        out.status.success(),
        "Rust did not compile:\n{}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_output(&all, Command::new(&exe).output().expect("run"));
}

fn check_output(all: &[(String, Program, Vec<i64>)], out: std::process::Output) {
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), all.len());
    for ((desc, p, expected), line) in all.iter().zip(lines) {
        let got: Vec<i64> = line
            .split_whitespace()
            .map(|v| v.parse().expect("integer"))
            .collect();
        assert_eq!(&got, expected, "{desc}\n{}", p.to_python());
    }
}

#[test]
fn range_check_refuses_a_narrow_type() {
    let l: Layout = "(4,8):(-9,1)".parse().expect("layout");
    let (min, max) = l.span();
    let map: Map = Annotated::new(l, Space::Logical, Space::Physical)
        .expect("alias-free")
        .into();
    let p = emit(&map, false).expect("emit").program;
    assert!(p.to_rust("f", IntType::I32).is_ok());
    assert_eq!(
        p.to_rust("f", IntType::U32),
        Err(layout_core::Error::IndexTypeRange {
            min,
            max,
            type_min: 0,
            type_max: i64::from(u32::MAX)
        })
    );
}

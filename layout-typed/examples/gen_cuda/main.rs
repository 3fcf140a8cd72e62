//! Writes `gpu/gen/kernels.cu` (CUDA kernels whose every address is the algebra's emitted code)
//! `gpu/gen/gemm.cuh` (the GEMM's address functions, `gemm.rs`) and `gpu/gen/hopper_gemm.cuh`
//! (the Hopper GEMM's layouts, descriptors and boxes, `hopper.rs`). See `generate.rs` for what
//! is declared and how it is emitted, `gpu/run.sh` and `gpu/gemm.sh` for the measurements on the
//! GPU, `docs/gpu.md` for how it is checked and `docs/performance.md` for the results.
//!
//! Run: `cargo run -p layout-typed --example gen_cuda [OUT.cu]` (`OUT.cu` replaces the path of
//! `kernels.cu` only; `gemm.cuh` and `hopper_gemm.cuh` are always written to `gpu/gen/`).

// An example, exempt from the checked-arithmetic lints of the library: its sizes are
// constants, and an overflow would panic in the run.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

#[allow(dead_code)]
mod gemm;
#[allow(dead_code)] // `typed_reference` and friends serve the CI test
mod generate;
#[allow(dead_code)]
mod hopper;

fn main() {
    // Errors through `Display`: the algebra's message and help, or the generator's check.
    if let Err(e) = run() {
        eprintln!("gen_cuda: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| root.join("gpu/gen/kernels.cu"), std::path::PathBuf::from);
    let text = generate::cuda_source()?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, &text)?;
    let g = generate::generate()?;
    // Self-check against the typed API before anyone runs the kernels (the CI test does it
    // again, through the compiled C).
    for f in g.funcs() {
        let sizes = &f.program.sizes;
        let total: i64 = sizes.iter().product();
        for i in 0..total {
            let mut c = vec![0i64; sizes.len()];
            let mut r = i;
            for k in (0..sizes.len()).rev() {
                c[k] = r % sizes[k];
                r /= sizes[k];
            }
            let cu: Vec<usize> = c.iter().map(|&x| x as usize).collect();
            let want =
                generate::typed_reference(&f.name, &cu).expect("a reference for every function");
            assert_eq!(f.program.eval(&c), Ok(want), "{} at {c:?}", f.name);
        }
    }
    for f in g.funcs() {
        println!(
            "{:<16} cost {} {:?}  {}",
            f.name,
            f.program.cost(),
            f.program.div_mod(),
            f.program.to_python().replace('\n', "; ")
        );
    }
    println!("wrote {}", out.display());
    let gemm_out = root.join("gpu/gen/gemm.cuh");
    std::fs::write(&gemm_out, gemm::header()?)?;
    println!("wrote {}", gemm_out.display());
    let hopper_out = root.join("gpu/gen/hopper_gemm.cuh");
    std::fs::write(&hopper_out, hopper::header()?)?;
    println!("wrote {}", hopper_out.display());
    Ok(())
}

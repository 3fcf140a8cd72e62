//! The CUDA generator, checked without a GPU: the committed `gpu/gen/kernels.cu` is
//! exactly what the generator writes, and its addressing functions, compiled as plain C++ with
//! the system compiler, equal the typed API's evaluation (`layout!` values, `try_compose` with a
//! run-time leading dimension) at every coordinate of every emitted function, and at every
//! thread and value of sampled tiles, for two leading dimensions, for the address functions
//! that the kernels call.

#[path = "../../layout-typed/examples/gen_cuda/generate.rs"]
#[allow(dead_code)]
mod generate;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn committed_cuda_file_is_what_the_generator_writes() {
    let committed =
        std::fs::read_to_string(root().join("gpu/gen/kernels.cu")).expect("gpu/gen/kernels.cu");
    let fresh = generate::cuda_source().expect("generation");
    assert!(
        committed == fresh,
        "gpu/gen/kernels.cu is stale: run `cargo run -p layout-typed --example gen_cuda`"
    );
    // The addressing part is what the CI compiles below.
    assert!(fresh.contains(generate::BEGIN) && fresh.contains(generate::END));
}

/// Every coordinate of `sizes`, last fastest.
fn coordinates(sizes: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = sizes.iter().product();
    (0..total)
        .map(|i| {
            let mut c = vec![0i64; sizes.len()];
            let mut r = i;
            for k in (0..sizes.len()).rev() {
                c[k] = r % sizes[k];
                r /= sizes[k];
            }
            c
        })
        .collect()
}

/// The tiles (valid in both matrices) and leading dimensions at which the address functions
/// are compared.
const BLOCKS: [(usize, usize); 4] = [(0, 0), (1, 2), (77, 301), (127, 511)];

fn lds(rows_cols: (i64, i64)) -> [i64; 2] {
    [rows_cols.1, rows_cols.1 + 64]
}

#[test]
fn addressing_compiled_as_cpp_equals_the_typed_api_at_every_coordinate() {
    let g = generate::generate().expect("generation");
    let mut src = String::from(
        "#include <cstdint>\n#include <cstdio>\n#define __host__\n#define __device__\n\
         #define __forceinline__ inline\n",
    );
    src.push_str(&generate::addressing(&g));
    src.push_str("int main() {\n");
    // Expected values, in the order the program prints them.
    let mut expected: Vec<(String, i64)> = Vec::new();
    for f in g.funcs() {
        let sizes = &f.program.sizes;
        // Nested loops over the function's coordinates, last fastest.
        for (k, n) in sizes.iter().enumerate() {
            let _ = writeln!(src, "for (uint32_t c{k} = 0; c{k} < {n}u; ++c{k})");
        }
        let args: Vec<String> = (0..sizes.len()).map(|k| format!("c{k}")).collect();
        let _ = writeln!(
            src,
            "    printf(\"%lld\\n\", (long long){}({}));",
            f.name,
            args.join(", ")
        );
        for c in coordinates(sizes) {
            let cu: Vec<usize> = c.iter().map(|&x| x as usize).collect();
            let typed = generate::typed_reference(&f.name, &cu).expect("a reference");
            assert_eq!(
                f.program.eval(&c),
                Ok(typed),
                "{} at {c:?}: Rust evaluation",
                f.name
            );
            expected.push((format!("{} at {c:?}", f.name), typed));
        }
    }
    for (name, sizes, rows_cols) in generate::ADDRESSES {
        for ld in lds(rows_cols) {
            for (by, bx) in BLOCKS {
                for (k, n) in sizes.iter().enumerate() {
                    let _ = writeln!(src, "for (uint32_t c{k} = 0; c{k} < {n}u; ++c{k})");
                }
                let args: Vec<String> = (0..sizes.len()).map(|k| format!("c{k}")).collect();
                let _ = writeln!(
                    src,
                    "    printf(\"%lld\\n\", (long long){name}({by}u, {bx}u, {}, {ld}));",
                    args.join(", ")
                );
                let typed = generate::typed_addresses(name, ld, by, bx).expect("typed");
                for (c, want) in coordinates(sizes).into_iter().zip(typed) {
                    expected.push((format!("{name} ld {ld} tile ({by}, {bx}) at {c:?}"), want));
                }
            }
        }
    }
    src.push_str("return 0;\n}\n");

    let dir = std::env::temp_dir().join(format!("layout-gpu-codegen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (cpp, exe) = (dir.join("addressing.cpp"), dir.join("addressing"));
    std::fs::write(&cpp, &src).expect("write");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let out = Command::new(&cxx)
        .args(["-std=c++17", "-O1", "-Wall", "-o"])
        .arg(&exe)
        .arg(&cpp)
        .output()
        .expect("run the system C++ compiler");
    assert!(
        out.status.success(),
        "{cxx} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run");
    assert!(run.status.success());
    let text = String::from_utf8(run.stdout).expect("utf-8");
    let got: Vec<i64> = text.lines().map(|l| l.parse().expect("integer")).collect();
    assert_eq!(got.len(), expected.len(), "one value per coordinate");
    for ((what, want), got) in expected.iter().zip(&got) {
        assert_eq!(got, want, "{what}: compiled C++");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shim that runs a CUDA kernel of `gpu/gen/kernels.cu` on the CPU: one `std::thread` per
/// CUDA thread, a `std::barrier` for `__syncthreads`, blocks one after another (so `__shared__`
/// arrays may be `static`).
const EMULATION: &str = r#"
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>
struct dim3 { unsigned x = 0, y = 0, z = 0; };
struct float4 { float x, y, z, w; };
struct uint4 { unsigned x, y, z, w; };
thread_local dim3 threadIdx, blockIdx;
static std::barrier<>* block_barrier;
#define __global__
#define __host__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
static void __syncthreads() { block_barrier->arrive_and_wait(); }
#include KERNELS
template <class F> static void launch(unsigned gx, unsigned gy, unsigned threads, F f) {
    for (unsigned by = 0; by < gy; ++by)
        for (unsigned bx = 0; bx < gx; ++bx) {
            std::barrier<> b(threads);
            block_barrier = &b;
            std::vector<std::thread> ts;
            for (unsigned t = 0; t < threads; ++t)
                ts.emplace_back([=] { threadIdx.x = t; blockIdx.x = bx; blockIdx.y = by; f(); });
            for (auto& th : ts) th.join();
        }
}
int main() {
    long bad = 0;
    for (int ld : {64, 96}) {  // a 64×64 fp32 matrix: 2×2 tiles of 32×32
        std::vector<float> in(64 * ld), out(64 * ld);
        for (int i = 0; i < 64 * ld; ++i) in[i] = 0.5f * (float)i + 1.0f;
        for (int k = 0; k < 2; ++k) {
            std::fill(out.begin(), out.end(), -1.0f);
            if (k == 0) launch(2, 2, 256, [&] { gen_transpose(in.data(), out.data(), ld, ld); });
            else launch(2, 2, 256, [&] { gen_transpose_v4(in.data(), out.data(), ld, ld); });
            for (int i = 0; i < 64; ++i)
                for (int j = 0; j < 64; ++j) bad += out[j * ld + i] != in[i * ld + j];
        }
    }
    for (int ld : {128, 192}) {  // a 256×128 fp16 matrix: 2×2 tiles of 128×64
        std::vector<uint16_t> in(256 * ld), out(256 * ld, 0xFFFF);
        for (int i = 0; i < 256 * ld; ++i) in[i] = (uint16_t)(7 * i + 3);
        launch(2, 2, 128, [&] { gen_stage(in.data(), out.data(), ld, ld); });
        for (int i = 0; i < 256; ++i)
            for (int j = 0; j < 128; ++j) bad += out[i * ld + j] != in[i * ld + j];
    }
    printf("%ld\n", bad);
    return 0;
}
"#;

/// The generated kernels themselves (not only their addressing) run on the CPU: gen_transpose
/// and gen_transpose_v4 on a 64×64 matrix, gen_stage on a 256×128 one, at a dense and a padded
/// leading dimension, every element compared with a poisoned output. (gen_transpose_r's raster
/// order is made for the 512×512 grid of the benchmark; its addressing is checked above.)
#[test]
fn generated_kernels_run_on_cpu_threads_as_cuda_threads() {
    let dir = std::env::temp_dir().join(format!("layout-gpu-emulation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (cpp, exe) = (dir.join("emulate.cpp"), dir.join("emulate"));
    std::fs::write(&cpp, EMULATION).expect("write");
    let kernels = root().join("gpu/gen/kernels.cu");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let out = Command::new(&cxx)
        .args([
            "-std=c++20",
            "-O1",
            "-pthread",
            "-fno-strict-aliasing",
            "-w",
        ])
        .arg(format!("-DKERNELS=\"{}\"", kernels.display()))
        .arg("-o")
        .arg(&exe)
        .arg(&cpp)
        .output()
        .expect("run the system C++ compiler");
    assert!(
        out.status.success(),
        "{cxx} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run");
    assert!(run.status.success());
    assert_eq!(
        String::from_utf8_lossy(&run.stdout).trim(),
        "0",
        "elements wrong"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! `layout`: the layout algebra (spec: Algebra) from the shell.
//!
//! `check`, `eval`, `explain`, `emit`, `draw`, `conflicts` and `cute`; every command has `--json`
//! (spec: Machine-readable output) and exits 0 when there is no error, 1 for a rule violation and 2 for input it
//! cannot read. See `docs/cli.md`.

mod commands;
mod conflicts;
mod cute;
mod diag;
mod draw;
mod eval;
mod expr;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Layouts in `shape:stride` notation, checked, explained, emitted and drawn.
#[derive(Parser, Debug)]
#[command(name = "layout", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Check a layout against its spaces: a dense bijection into logical or thread-value
    /// space, alias-free into physical space.
    Check {
        /// The layout, e.g. `(16,32):(32,1)`.
        layout: String,
        /// The spaces `DOMAIN->CODOMAIN`: logical, thread-value (tv), physical.
        #[arg(long, default_value = "logical->physical")]
        space: String,
        /// Read the layout in CuTe order (first mode fastest, stride 0 = broadcast).
        #[arg(long)]
        cute: bool,
        /// Print the JSON (spec: Machine-readable output).
        #[arg(long)]
        json: bool,
    },
    /// The value at every integral index, with the coordinates in both notations.
    Eval {
        /// The layout.
        layout: String,
        /// Read and print the layout in CuTe order.
        #[arg(long)]
        cute: bool,
        /// Print the JSON (spec: Machine-readable output).
        #[arg(long)]
        json: bool,
    },
    /// Explain an algebra expression: its result in both notations, whether it is a layout
    /// (Theorem 1) with its coarsest form, the emitted code and its cost.
    Explain {
        /// The expression, e.g. `compose([(16,32):(32,1), logical -> physical], (128,4):(4,1))`.
        expr: String,
        /// An operand the expression names: `NAME = LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`
        /// (repeatable), as `layout! { const NAME = ..; }` defines it.
        #[arg(long = "def", value_name = "NAME = DECL")]
        def: Vec<String>,
        /// Read every layout, tile, shape and entry position in CuTe order; print CuTe order.
        #[arg(long)]
        cute: bool,
        /// Decide each top-level mode as one coordinate instead of each leaf.
        #[arg(long)]
        by_mode: bool,
        /// Print the JSON (spec: Machine-readable output).
        #[arg(long)]
        json: bool,
    },
    /// The offset function of an expression as source code.
    Emit {
        /// The expression.
        expr: String,
        /// The language.
        #[arg(long, value_enum, default_value_t = Lang::Rust)]
        lang: Lang,
        /// The integer type; an offset range that does not fit is an error.
        #[arg(long, value_enum, default_value_t = Index::I64)]
        index: Index,
        /// The function's name.
        #[arg(long, default_value = "offset")]
        name: String,
        /// An operand the expression names: `NAME = LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`
        /// (repeatable), as `layout! { const NAME = ..; }` defines it.
        #[arg(long = "def", value_name = "NAME = DECL")]
        def: Vec<String>,
        /// Read the expression in CuTe order.
        #[arg(long)]
        cute: bool,
        /// One coordinate per top-level mode instead of one per leaf.
        #[arg(long)]
        by_mode: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A picture: the grid of offsets of a 2-D map (like CuTe's print_layout), a
    /// thread-value layout's tile colored by thread (like print_latex), a swizzle before and
    /// after.
    Draw {
        /// The expression or layout.
        expr: String,
        /// Write the SVG here (`-` for stdout).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print the grid to the terminal.
        #[arg(long)]
        text: bool,
        /// The 2-D tile of a thread-value layout, `ROWS,COLS` (when its codomain carries none).
        #[arg(long)]
        tile: Option<String>,
        /// An operand the expression names: `NAME = LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`
        /// (repeatable), as `layout! { const NAME = ..; }` defines it.
        #[arg(long = "def", value_name = "NAME = DECL")]
        def: Vec<String>,
        /// Read in CuTe order and draw CuTe's orientation (rows = CuTe's first mode).
        #[arg(long)]
        cute: bool,
        /// Print JSON (the grid's values) instead of the text grid.
        #[arg(long)]
        json: bool,
    },
    /// Shared-memory bank conflicts of one warp accessing memory through a layout.
    Conflicts {
        /// The shared-memory map, logical -> physical, e.g. `[(32,32):(32,1), logical -> physical, Swizzle<5,0,5> over elements]`.
        smem: String,
        /// The thread-value layout `(thread, value) -> logical` (thread mode written first).
        #[arg(long)]
        tv: String,
        /// Element width in bits: 8, 16, 32, 64 or 128.
        #[arg(long, default_value_t = 32)]
        bits: u32,
        /// Consecutive values one lane moves per instruction (a vector access of up to 16 bytes).
        #[arg(long, default_value_t = 1)]
        vector: i64,
        /// Which warp of the thread mode.
        #[arg(long, default_value_t = 0)]
        warp: i64,
        /// An operand the expression names: `NAME = LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]`
        /// (repeatable), as `layout! { const NAME = ..; }` defines it.
        #[arg(long = "def", value_name = "NAME = DECL")]
        def: Vec<String>,
        /// Read both layouts in CuTe order.
        #[arg(long)]
        cute: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A CuTe operation with CuTe's semantics and CuTe's printing (CuTe order), returned only
    /// when it satisfies CuTe's own postconditions, e.g. `layout cute complement '4:2' 16`.
    Cute {
        /// The operation: coalesce, composition, complement, logical_divide, zipped_divide,
        /// tiled_divide, flat_divide, logical_product, zipped_product, tiled_product,
        /// flat_product, blocked_product, raked_product, right_inverse, left_inverse,
        /// swizzle, layout_eval.
        op: String,
        /// Its arguments in CuTe notation: layouts, a tiler (`_`, `<4,8>`, `<4:1,8:2>`), a
        /// cotarget, a profile, a swizzle (`Swizzle<3,4,3>`) or a chain `Swizzle<3,4,3> o L`.
        #[arg(allow_negative_numbers = true)]
        args: Vec<String>,
        /// Require the admissibility conditions (spec: Strict mode) up front (complement divisibility;
        /// composition's prefix/leftover divisibility, weak left divisibility, disjointness;
        /// a divide's tile dividing its mode).
        #[arg(long)]
        strict: bool,
        /// Print the JSON (spec: Machine-readable output).
        #[arg(long)]
        json: bool,
    },
}

/// Target language of `emit`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Lang {
    /// A Rust function.
    Rust,
    /// A C function (`static inline`, `<stdint.h>`).
    C,
    /// A CUDA function (`__host__ __device__ __forceinline__`).
    Cuda,
    /// The seed's case-file syntax.
    Python,
}

/// Integer type of `emit`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Index {
    /// `i32` / `int32_t`.
    I32,
    /// `i64` / `int64_t`.
    I64,
    /// `u32` / `uint32_t`.
    U32,
    /// `usize` / `size_t`.
    Usize,
}

impl Index {
    fn core(self) -> layout_core::IntType {
        match self {
            Index::I32 => layout_core::IntType::I32,
            Index::I64 => layout_core::IntType::I64,
            Index::U32 => layout_core::IntType::U32,
            Index::Usize => layout_core::IntType::Usize,
        }
    }
}

/// What a command prints and its exit status.
pub struct Output {
    /// Standard output.
    pub stdout: String,
    /// One-line errors for standard error.
    pub stderr: Vec<String>,
    /// The exit status.
    pub status: u8,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = match cli.command {
        Command::Check {
            layout,
            space,
            cute,
            json,
        } => commands::check(&layout, &space, cute, json),
        Command::Eval { layout, cute, json } => commands::eval(&layout, cute, json),
        Command::Explain {
            expr,
            def,
            cute,
            by_mode,
            json,
        } => commands::explain(&expr, cute, &def, by_mode, json),
        Command::Emit {
            expr,
            lang,
            index,
            name,
            def,
            cute,
            by_mode,
            json,
        } => commands::emit(
            &expr,
            &commands::EmitOptions {
                lang: match lang {
                    Lang::Rust => "rust",
                    Lang::C => "c",
                    Lang::Cuda => "cuda",
                    Lang::Python => "python",
                },
                index: index.core(),
                name: &name,
                cute,
                by_mode,
                defs: &def,
            },
            json,
        ),
        Command::Draw {
            expr,
            output,
            text,
            tile,
            def,
            cute,
            json,
        } => draw::command(&draw::Options {
            expr: &expr,
            output: output.as_deref(),
            text,
            tile: tile.as_deref(),
            cute,
            defs: &def,
            json,
        }),
        Command::Conflicts {
            smem,
            tv,
            bits,
            vector,
            warp,
            def,
            cute,
            json,
        } => conflicts::command(&conflicts::Options {
            smem: &smem,
            tv: &tv,
            bits,
            vector,
            warp,
            cute,
            defs: &def,
            json,
        }),
        Command::Cute {
            op,
            args,
            strict,
            json,
        } => cute::command(&cute::Options {
            op: &op,
            args: &args,
            strict,
            json,
        }),
    };
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`layout eval .. | head`) is not an error worth a panic.
    let _ = stdout.write_all(out.stdout.as_bytes());
    let _ = stdout.flush();
    let mut stderr = std::io::stderr().lock();
    for line in &out.stderr {
        let _ = writeln!(stderr, "{line}");
    }
    ExitCode::from(out.status)
}

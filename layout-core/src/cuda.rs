//! CUDA address functions from checked maps: what a kernel generator needs around
//! [`crate::emit`] (spec: Code emission).
//!
//! - [`func`]: one emitted [`Program`] as a `__host__ __device__` function in `uint32_t`
//!   (so that `/` and `%` by powers of two are shifts and masks), every value range-checked
//!   for `uint32_t` and `int32_t` first ([`Func`]).
//! - [`per_thread`] / [`per_thread_entry`]: a thread-value composite restricted to one thread
//!   known only at run time, as `layout!(restrict(M, thread = t))` does, plus the XOR split of
//!   a swizzle ([`PerThread`]: `Uniform`, `Xor`, `Written`). The thread is any top-level entry
//!   (CuTe's `(thread, value)` is `(value, thread)` here).
//! - [`tile_index`] and [`LdSplit`]: a global tile whose leading dimension `ld` is a run-time
//!   value. Its offset is linear in `ld`, so it is emitted as two static maps,
//!   `G ∘ M = rest ∘ M + ld · coefficient ∘ M`, each emitted and restricted to a thread.
//! - [`check_vector`] / [`check_vector_entry`] and [`TileIndex::check_vector`]: the proof, at
//!   every coordinate, that the last (or any) entry of a map moves one aligned vector (a
//!   128-bit access), before a generator emits one access for it.
//! - [`split`]: an address over `(x.., thread)` as `(thread part ^ XOR part) + added part`
//!   ([`Split`], [`Part`]), checked at every coordinate: a swizzled `ldmatrix` row whose
//!   k-block the swizzle mixes with the thread's bits and whose copy offset is an immediate.
//! - [`Source`]: the text of a `.cu` file: an `@generated` header, `#pragma once`, the
//!   functions in order between the [`BEGIN`] and [`END`] markers (the part that also compiles
//!   as plain C++), then the kernels.
//!
//! All maps are in seed order (the last mode fastest); offsets count elements. Proofs that
//! enumerate say so, and refuse maps past [`ENUMERATION_LIMIT`] positions with
//! [`Error::CudaTooLarge`] instead of running long.
//!
//! ```
//! use layout_core::cuda::{per_thread, LdSplit, Major, PerThread};
//! use layout_core::{compose, Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
//! // A 32×32 shared tile, Swizzle<5,0,5>, read by 256 threads × 4 values (thread t, value v:
//! // element (t/32 + 8v, t%32)).
//! let smem: Map = Annotated::new("(32,32):(32,1)".parse()?, Space::Logical, Space::Physical)?.into();
//! let smem = smem.swizzle(Swizzle::from_cute(5, 0, 5, SwizzleUnit::Elements)?)?;
//! let tv: Map = Annotated::new(
//!     "(thread:256,value:4):(1,256)".parse()?, Space::ThreadValue, Space::Logical)?.into();
//! let p = per_thread("smem_load", "smem ∘ tv", &compose(&smem, &tv)?, &["thread", "value"])?;
//! assert!(matches!(p, PerThread::Xor { .. }));
//! assert_eq!(p.call("t", &["v"], "uint32_t"), "(uint32_t)(smem_load(t, 0) ^ smem_load_x(v))");
//! // The same values in global memory, row-major with a run-time leading dimension `ld`.
//! let g = LdSplit::new("g", ["row", "column"], &tv, [32, 32], Major::Row, &["thread", "value"])?;
//! assert_eq!(
//!     g.call("t", &["v"], "ld", "int32_t"),
//!     "((int32_t)g_col(t, 0) + (int32_t)g_col_v(v)) + ld * ((int32_t)g_row(t, 0) + (int32_t)g_row_v(v))"
//! );
//! # Ok::<(), layout_core::Error>(())
//! ```

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::decide::{Decision, decide};
use crate::emit::{IntType, Program, Term, Var, emit, layout_form};
use crate::error::Error;
use crate::layout::Layout;
use crate::map::{Annotated, Map, compose};
use crate::space::Space;
use crate::tree::{Stride, Tree};

/// The most positions (or, for [`per_thread`]'s first test, threads) a proof of this module
/// enumerates: past it, [`Error::CudaTooLarge`].
pub const ENUMERATION_LIMIT: i64 = 1 << 22;

/// [`Error::CudaTooLarge`] for a proof that would enumerate `size` positions past
/// [`ENUMERATION_LIMIT`].
fn within_limit(size: i64) -> Result<(), Error> {
    if size > ENUMERATION_LIMIT {
        return Err(Error::CudaTooLarge {
            size,
            limit: ENUMERATION_LIMIT,
        });
    }
    Ok(())
}

/// The marker line before the addressing part of a [`Source`] (the part that compiles as plain
/// C++ once `__host__`, `__device__` and `__forceinline__` are defined away).
pub const BEGIN: &str = "// ---- begin addressing (plain C++ too) ----";
/// The marker line after the addressing part of a [`Source`]; see [`BEGIN`].
pub const END: &str = "// ---- end addressing ----";

/// Whether `s` is a C identifier that is not one of the temporaries `t0`, `t1`, … that
/// [`Program::to_c`] declares.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let temp = s
        .strip_prefix('t')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') && !temp
}

/// One emitted address function: a [`Program`] with named coordinates and its CUDA text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// The C name.
    pub name: String,
    /// What it computes: the comment a [`Source`] writes above it.
    pub doc: String,
    /// The emitted program, its coordinates named.
    pub program: Program,
    /// The CUDA text: `__host__ __device__ __forceinline__ uint32_t name(uint32_t c, ..)`.
    pub c: String,
}

impl Func {
    /// The C expression calling the function with `args` (one C expression per coordinate).
    #[must_use]
    pub fn call(&self, args: &[&str]) -> String {
        format!("{}({})", self.name, args.join(", "))
    }
}

/// Renders `program` as the CUDA function `name` with coordinates `names` (one per coordinate
/// of the program, in order): `__host__ __device__ __forceinline__`, in `uint32_t`, after
/// checking that every value it computes (every temporary, product and partial sum, at every
/// coordinate: [`Program::check_range`]) fits both `uint32_t` and `int32_t`, so that callers may
/// convert the result to `int32_t` and add parts without a wrap.
///
/// ```
/// use layout_core::cuda::func;
/// use layout_core::{emit, Annotated, Error, Space};
/// let m = Annotated::new("(4,8):(8,1)".parse()?, Space::Logical, Space::Physical)?;
/// let f = func("at", "a 4×8 tile", emit(&m.into(), true)?.program, &["row", "col"])?;
/// assert_eq!(f.c, "__host__ __device__ __forceinline__ uint32_t at(uint32_t row, uint32_t col) {\n    return ((uint32_t)8)*row + col;\n}\n");
/// assert_eq!(f.call(&["1", "2"]), "at(1, 2)");
/// let p = emit(&Annotated::new("8:1".parse()?, Space::Logical, Space::Physical)?.into(), true)?.program;
/// assert_eq!(func("f", "", p.clone(), &["a", "b"]), Err(Error::CudaNames { expected: 1, found: 2 }));
/// assert_eq!(func("f", "", p, &["t0"]), Err(Error::CudaName { position: Some(0) }));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::CudaName`] for a name that is not a C identifier or is one of the temporaries
/// `t0`, `t1`, …, or a coordinate name given twice; [`Error::CudaNames`] for a number of names
/// other than the program's coordinates; [`Error::IndexTypeRange`] (and the other errors of
/// [`Program::check_range`]) when a value leaves `int32_t` or `uint32_t`.
pub fn func(name: &str, doc: &str, mut program: Program, names: &[&str]) -> Result<Func, Error> {
    if !is_identifier(name) {
        return Err(Error::CudaName { position: None });
    }
    if names.len() != program.sizes.len() {
        return Err(Error::CudaNames {
            expected: program.sizes.len(),
            found: names.len(),
        });
    }
    for (i, n) in names.iter().enumerate() {
        if !is_identifier(n)
            || names.get(..i).is_some_and(|before| before.contains(n))
            || *n == name
        {
            return Err(Error::CudaName { position: Some(i) });
        }
    }
    program.names = names.iter().map(|s| (*s).to_string()).collect();
    // Unsigned, so that `/` and `%` by powers of two are shifts and masks; every value also
    // fits `int32_t`, which callers convert the parts to.
    program.check_range(IntType::I32)?;
    let c = program.to_c(name, IntType::U32, true)?;
    Ok(Func {
        name: name.to_string(),
        doc: doc.to_string(),
        program,
        c,
    })
}

/// A thread-value composite restricted to `thread = t` at run time: how the offset of thread
/// `t` at the other coordinates `x` is computed. Built by [`per_thread`] (the thread is
/// top-level entry 0 of the map's domain) or [`per_thread_entry`] (any entry); the functions
/// take the thread's coordinate first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerThread {
    /// Every thread's slice is the same layout up to a constant (`layout!`'s rule; spec:
    /// Restriction): `full(t, 0, ..)` once per thread, plus `value(x)`, that layout without its
    /// constant.
    Uniform {
        /// The composite, one coordinate per top-level entry (`NAME`).
        full: Func,
        /// The common slice, constant 0 (`NAME_v`).
        value: Func,
    },
    /// The slices differ, but `f(t, x) = f(t, 0) ^ f(0, x)` at every coordinate: a swizzle is
    /// linear over XOR, and the thread's and the other coordinates' parts of its argument have
    /// disjoint bits. `full(t, 0, ..)` once per thread, XOR `value(x)`.
    Xor {
        /// The composite, one coordinate per top-level entry (`NAME`).
        full: Func,
        /// The restriction to thread 0 (`NAME_x`).
        value: Func,
    },
    /// Neither: the composite with `t` substituted.
    Written {
        /// The composite, one coordinate per top-level entry (`NAME`).
        full: Func,
    },
}

impl PerThread {
    /// The functions, in the order a [`Source`] writes them: `full`, then `value`.
    #[must_use]
    pub fn funcs(&self) -> Vec<&Func> {
        match self {
            PerThread::Uniform { full, value } | PerThread::Xor { full, value } => {
                vec![full, value]
            }
            PerThread::Written { full } => vec![full],
        }
    }

    /// The C expression of the offset at thread `t` and the other coordinates `rest` (C
    /// expressions, one per top-level entry after the thread; the C compiler refuses a call
    /// with another number), each function's `uint32_t` value converted to `ty` before the
    /// parts are added or XORed.
    ///
    /// ```
    /// use layout_core::cuda::per_thread;
    /// use layout_core::{Annotated, Space};
    /// let m = Annotated::new("(thread:8,value:4):(4,1)".parse()?, Space::Logical, Space::Physical)?;
    /// let p = per_thread("at", "", &m.into(), &["thread", "value"])?;
    /// assert_eq!(p.call("t", &["v"], "int32_t"), "(int32_t)at(t, 0) + (int32_t)at_v(v)");
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    #[must_use]
    pub fn call(&self, t: &str, rest: &[&str], ty: &str) -> String {
        let args = |first: &str, others: &[&str]| {
            let mut all = vec![first];
            all.extend_from_slice(others);
            all.join(", ")
        };
        let zeros = args(t, &vec!["0"; rest.len()]);
        let rest_args = rest.join(", ");
        match self {
            PerThread::Uniform { full, value } => {
                format!(
                    "({ty}){}({zeros}) + ({ty}){}({rest_args})",
                    full.name, value.name
                )
            }
            PerThread::Xor { full, value } => {
                format!(
                    "({ty})({}({zeros}) ^ {}({rest_args}))",
                    full.name, value.name
                )
            }
            PerThread::Written { full } => format!("({ty}){}({})", full.name, args(t, rest)),
        }
    }
}

/// Moves coordinate `k` of `program` to the front (names and sizes with it), the others
/// keeping their order.
fn move_to_front(program: &mut Program, k: usize) {
    if k == 0 || k >= program.sizes.len() {
        return;
    }
    let moved = |i: usize| match i.cmp(&k) {
        core::cmp::Ordering::Less => i.saturating_add(1),
        core::cmp::Ordering::Equal => 0,
        core::cmp::Ordering::Greater => i,
    };
    for sum in program
        .lets
        .iter_mut()
        .chain(core::iter::once(&mut program.result))
    {
        for (_, term) in &mut sum.terms {
            match term {
                Term::Var(v)
                | Term::Div(v, _)
                | Term::Mod(v, _)
                | Term::DivMod(v, _, _)
                | Term::Swizzle { x: v, .. } => {
                    if let Var::Coord(i) = v {
                        *i = moved(*i);
                    }
                }
            }
        }
    }
    let size = program.sizes.remove(k);
    program.sizes.insert(0, size);
    let name = program.names.remove(k);
    program.names.insert(0, name);
}

/// [`per_thread_entry`] with the thread at top-level entry 0 of the map's domain.
///
/// ```
/// use layout_core::cuda::{per_thread, PerThread};
/// use layout_core::{Annotated, Space};
/// let m = Annotated::new("(thread:8,value:4):(4,1)".parse()?, Space::Logical, Space::Physical)?;
/// let PerThread::Uniform { full, value } = per_thread("at", "", &m.into(), &["thread", "value"])? else {
///     unreachable!()
/// };
/// assert_eq!((full.program.eval(&[3, 1])?, value.program.eval(&[1])?), (13, 1));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`per_thread_entry`].
pub fn per_thread(name: &str, doc: &str, map: &Map, names: &[&str]) -> Result<PerThread, Error> {
    per_thread_entry(name, doc, map, 0, names)
}

/// Restricts `map` (into physical; its thread is top-level entry `thread` of its domain, which
/// has at least one other entry) to a thread known at run time, emitted as functions of
/// [`func`] named `name` (the whole map, by top-level entry, the thread's coordinate moved
/// first) and `name_v` / `name_x` (the other entries, in order). `names` are the functions'
/// coordinates: the thread's name first, then the other entries' in the map's order.
///
/// 1. every thread's slice is decided (one decision per thread); when all are the same layout
///    up to their constant, [`PerThread::Uniform`];
/// 2. else, when `f(t, x) = f(t, 0) ^ f(0, x)` at every position (enumerated: three
///    evaluations per position), [`PerThread::Xor`];
/// 3. else [`PerThread::Written`].
///
/// `doc` is extended with which case holds. The thread count is bounded by
/// [`ENUMERATION_LIMIT`] before step 1, the map's size before step 2.
///
/// ```
/// use layout_core::cuda::{per_thread_entry, PerThread};
/// use layout_core::{Annotated, Space};
/// // CuTe's order of a thread-value layout is (thread, value): (value, thread) here.
/// let m = Annotated::new("(value:4,thread:8):(1,4)".parse()?, Space::Logical, Space::Physical)?;
/// let p = per_thread_entry("at", "", &m.into(), 1, &["thread", "value"])?;
/// assert_eq!(p.call("t", &["v"], "int32_t"), "(int32_t)at(t, 0) + (int32_t)at_v(v)");
/// let PerThread::Uniform { full, .. } = p else { unreachable!() };
/// assert_eq!(full.program.eval(&[3, 1])?, 13); // thread 3, value 1
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::PerThreadEntries`] for a domain of fewer than two top-level entries;
/// [`Error::RestrictEntry`] for a thread entry past them; [`Error::RestrictNotPhysical`] for a
/// map not into physical; [`Error::CudaTooLarge`] past the limit; the errors of [`func`]
/// (names, ranges), of [`crate::decide`] and of evaluation.
pub fn per_thread_entry(
    name: &str,
    doc: &str,
    map: &Map,
    thread: usize,
    names: &[&str],
) -> Result<PerThread, Error> {
    let entries = map.domain_entry_sizes();
    if entries.len() < 2 {
        return Err(Error::PerThreadEntries {
            entries: entries.len(),
        });
    }
    // Checked here so that a map into logical, or an entry past the domain's, is refused
    // before anything is emitted.
    map.restrict(&[(thread, 0)])?;
    let threads = entries.get(thread).copied().unwrap_or(1);
    if names.len() != entries.len() {
        return Err(Error::CudaNames {
            expected: entries.len(),
            found: names.len(),
        });
    }
    let value_names = names.get(1..).unwrap_or(&[]);
    within_limit(threads)?;
    let mut full = emit(map, true)?.program;
    move_to_front(&mut full, thread);
    // `layout!`'s rule: decide every slice; equal layouts -> constant + that layout.
    let mut common: Option<Program> = None;
    let mut agree = true;
    for t in 0..threads {
        let d = decide(&map.restrict(&[(thread, t)])?, true)?;
        match layout_form(&Decision { constant: 0, ..d }) {
            Some(p) if common.as_ref().is_none_or(|c| *c == p) => common = Some(p),
            _ => {
                agree = false;
                break;
            }
        }
    }
    if let (true, Some(p)) = (agree, common) {
        return Ok(PerThread::Uniform {
            full: func(
                name,
                &format!("{doc}; every thread's slice the same layout"),
                full,
                names,
            )?,
            value: func(
                &format!("{name}_v"),
                &format!("{doc}: the slice common to every thread, minus its constant"),
                p,
                value_names,
            )?,
        });
    }
    let size = map.size();
    within_limit(size)?;
    // XOR-separable: f(t, x) = f(t, 0) ^ f(0, x) at every coordinate. `x` runs over the
    // other entries (last fastest): its digits above the thread's entry are `x / inner`, below
    // `x % inner`, so position (t, x) is `(x / inner · threads + t) · inner + x % inner`.
    let inner = entries
        .get(thread.saturating_add(1)..)
        .unwrap_or(&[])
        .iter()
        .product::<i64>();
    let rest = size.checked_div(threads).unwrap_or(0);
    // Every value below is a flat index, less than `size`: no overflow.
    let at = |t: i64, x: i64| -> Result<i64, Error> {
        let (hi, lo) = (x.checked_div(inner), x.checked_rem(inner));
        let flat = hi
            .and_then(|h| h.checked_mul(threads))
            .and_then(|h| h.checked_add(t))
            .and_then(|h| h.checked_mul(inner))
            .and_then(|h| h.checked_add(lo?))
            .ok_or(Error::Overflow {
                mode: crate::ModePath::ROOT,
                what: crate::Quantity::Index,
            })?;
        map.eval_index(flat)
    };
    let mut separable = true;
    'all: for t in 0..threads {
        let base = at(t, 0)?;
        for x in 0..rest {
            if at(t, x)? != base ^ at(0, x)? {
                separable = false;
                break 'all;
            }
        }
    }
    if separable {
        let zero = emit(&map.restrict(&[(thread, 0)])?, true)?.program;
        return Ok(PerThread::Xor {
            full: func(
                name,
                &format!("{doc}; slices differ, but f(t, x) = f(t, 0) ^ f(0, x)"),
                full,
                names,
            )?,
            value: func(
                &format!("{name}_x"),
                &format!("{doc}: the restriction to thread 0"),
                zero,
                value_names,
            )?,
        });
    }
    Ok(PerThread::Written {
        full: func(
            name,
            &format!("{doc}; slices differ, as written"),
            full,
            names,
        )?,
    })
}

/// Which index of a `rows × cols` tile (seed order: the column index fastest) a run-time
/// leading dimension `ld` multiplies in global memory.
///
/// In CuTe's order the tile is `cols × rows` (`(M, N)` with seed tile `(N, M)`), so
/// [`Major::Row`] is CuTe's `(M, N):(1, ld)` (M-major, `LayoutLeft`) and [`Major::Column`]
/// CuTe's `(M, N):(ld, 1)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Major {
    /// `(rows, cols):(ld, 1)`: offset `row·ld + col`, each row contiguous.
    Row,
    /// `(rows, cols):(1, ld)`: offset `row + col·ld`, each column contiguous.
    Column,
}

/// The row and the column index of every position of a map into a `rows × cols` logical tile,
/// as two static maps (into physical, so that they can be restricted and emitted). Built by
/// [`tile_index`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileIndex {
    /// `(rows, cols):(1, _) ∘ map`: the row index (`position / cols`).
    pub row: Map,
    /// `(rows, cols):(_, 1) ∘ map`: the column index (`position % cols`).
    pub col: Map,
}

impl TileIndex {
    /// `(coefficient, rest)`: the map whose values the leading dimension multiplies and the one
    /// added to it, `offset = rest + ld · coefficient`: `(row, col)` for [`Major::Row`],
    /// `(col, row)` for [`Major::Column`].
    #[must_use]
    pub fn ld_parts(&self, major: Major) -> (&Map, &Map) {
        match major {
            Major::Row => (&self.row, &self.col),
            Major::Column => (&self.col, &self.row),
        }
    }

    /// Proves that the map's last entry moves one aligned vector of `width` elements in global
    /// memory for every leading dimension that is a multiple of `width`: the coefficient of
    /// `ld` is [`Along::Constant`] and the rest [`Along::Contiguous`] ([`check_vector`] on
    /// each; enumerates both).
    ///
    /// # Errors
    /// As [`check_vector`]: the coefficient first, then the rest.
    pub fn check_vector(&self, major: Major, width: i64) -> Result<(), Error> {
        let last = self.row.domain_entry_sizes().len().saturating_sub(1);
        self.check_vector_entry(major, last, width)
    }

    /// [`TileIndex::check_vector`] along top-level entry `entry` ([`check_vector_entry`]).
    ///
    /// # Errors
    /// As [`check_vector_entry`]: the coefficient first, then the rest.
    pub fn check_vector_entry(&self, major: Major, entry: usize, width: i64) -> Result<(), Error> {
        let (coefficient, rest) = self.ld_parts(major);
        check_vector_entry(coefficient, entry, width, Along::Constant)?;
        check_vector_entry(rest, entry, width, Along::Contiguous)
    }
}

/// The row and column index maps of `map` (into logical, of size `rows·cols`; `tile` is
/// `[rows, cols]`, seed order): `(rows, cols):(1, _) ∘ map` and `(rows, cols):(_, 1) ∘ map`,
/// `_` the broadcast stride. The global offset of a tile with a run-time leading dimension is
/// then `col + ld·row` ([`Major::Row`]) or `row + ld·col` ([`Major::Column`]), each part a
/// static map for [`per_thread`] or [`crate::emit`].
///
/// ```
/// use layout_core::cuda::tile_index;
/// use layout_core::{Annotated, Space};
/// // 256 threads × 4 values over a 32×32 tile: thread t, value v at (t/32 + 8v, t%32).
/// let tv = Annotated::new("(thread:256,value:4):(1,256)".parse()?, Space::ThreadValue, Space::Logical)?;
/// let ti = tile_index(&tv.into(), [32, 32])?;
/// let (t, v) = (77, 3);
/// assert_eq!(ti.row.eval_index(t * 4 + v)?, t / 32 + 8 * v);
/// assert_eq!(ti.col.eval_index(t * 4 + v)?, t % 32);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::TileExtent`] for an extent below 1; [`Error::Overflow`] when `rows·cols` leaves
/// `i64`; the errors of [`compose`]: [`Error::RightNotLogical`] for a map not into logical,
/// [`Error::SizeMismatch`] when its size is not `rows·cols`, [`Error::TileMismatch`] when it
/// carries another codomain tile shape.
pub fn tile_index(map: &Map, tile: [i64; 2]) -> Result<TileIndex, Error> {
    // Extents of at least 1 whose product fits `i64` (a saturated product is refused there).
    crate::map::check_tile(&tile, Space::Logical, tile[0].saturating_mul(tile[1]))?;
    let index = |row: Stride, col: Stride| -> Result<Map, Error> {
        let layout = Layout::new(
            Tree::Tuple(vec![Tree::Leaf(tile[0]), Tree::Leaf(tile[1])]),
            Tree::Tuple(vec![Tree::Leaf(row), Tree::Leaf(col)]),
        )?;
        let a = Annotated::new(layout, Space::Logical, Space::Physical)?
            .with_tiles(Some(tile.to_vec()), None)?;
        compose(&a.into(), map)
    };
    Ok(TileIndex {
        row: index(Stride::Int(1), Stride::Broadcast)?,
        col: index(Stride::Broadcast, Stride::Int(1))?,
    })
}

/// A map into a `rows × cols` tile of global memory with a run-time leading dimension, split
/// into its two static parts, each restricted to a thread ([`per_thread`]): the offset is
/// `rest + ld · coefficient`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LdSplit {
    /// The row index (`NAME_row`).
    pub row: PerThread,
    /// The column index (`NAME_col`).
    pub col: PerThread,
    /// Which of them `ld` multiplies.
    pub major: Major,
}

impl LdSplit {
    /// Splits `map` (a thread-value map into logical, its thread top-level entry 0, of size
    /// `rows·cols`; `tile = [rows, cols]`) by [`tile_index`] and restricts both parts to a
    /// thread by [`per_thread`], as `NAME_row` (documented `docs[0]`) and `NAME_col`
    /// (`docs[1]`), coordinates `names`. Enumerates as [`per_thread`] does.
    ///
    /// # Errors
    /// As [`tile_index`] and [`per_thread`].
    pub fn new(
        name: &str,
        docs: [&str; 2],
        map: &Map,
        tile: [i64; 2],
        major: Major,
        names: &[&str],
    ) -> Result<LdSplit, Error> {
        LdSplit::new_entry(name, docs, map, 0, tile, major, names)
    }

    /// [`LdSplit::new`] of a map whose thread is top-level entry `thread` (as
    /// [`per_thread_entry`]: `names` the thread's first, the functions' thread coordinate
    /// first).
    ///
    /// ```
    /// use layout_core::cuda::{LdSplit, Major};
    /// use layout_core::{Annotated, Space};
    /// // (value, thread): thread t, value v at (t/32 + 8v, t%32) of a 32×32 tile.
    /// let tv = Annotated::new("(value:4,thread:256):(256,1)".parse()?, Space::ThreadValue, Space::Logical)?;
    /// let g = LdSplit::new_entry("g", ["row", "col"], &tv.into(), 1, [32, 32], Major::Row, &["t", "v"])?;
    /// let (row, col) = (&g.row.funcs()[0].program, &g.col.funcs()[0].program);
    /// assert_eq!((row.eval(&[77, 0])?, col.eval(&[77, 0])?), (2, 13));
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`tile_index`] and [`per_thread_entry`].
    pub fn new_entry(
        name: &str,
        docs: [&str; 2],
        map: &Map,
        thread: usize,
        tile: [i64; 2],
        major: Major,
        names: &[&str],
    ) -> Result<LdSplit, Error> {
        let ti = tile_index(map, tile)?;
        Ok(LdSplit {
            row: per_thread_entry(&format!("{name}_row"), docs[0], &ti.row, thread, names)?,
            col: per_thread_entry(&format!("{name}_col"), docs[1], &ti.col, thread, names)?,
            major,
        })
    }

    /// The part `ld` multiplies: the row index for [`Major::Row`], else the column index.
    #[must_use]
    pub fn coefficient(&self) -> &PerThread {
        match self.major {
            Major::Row => &self.row,
            Major::Column => &self.col,
        }
    }

    /// The part added to `ld · coefficient`.
    #[must_use]
    pub fn rest(&self) -> &PerThread {
        match self.major {
            Major::Row => &self.col,
            Major::Column => &self.row,
        }
    }

    /// The functions, in order: the row index's, then the column index's.
    #[must_use]
    pub fn funcs(&self) -> Vec<&Func> {
        let mut out = self.row.funcs();
        out.extend(self.col.funcs());
        out
    }

    /// The C expression of the offset from the tile's first element at thread `t` and the
    /// other coordinates `rest`: `(REST) + ld * (COEFFICIENT)`, each part as
    /// [`PerThread::call`] with type `ty` (e.g. `int32_t`: the host checks that
    /// `(rows − 1)·ld + cols − 1` fits it). `ld` is the C expression of the leading dimension.
    #[must_use]
    pub fn call(&self, t: &str, rest: &[&str], ld: &str, ty: &str) -> String {
        format!(
            "({}) + {ld} * ({})",
            self.rest().call(t, rest, ty),
            self.coefficient().call(t, rest, ty)
        )
    }
}

/// How a part of a [`split`] address combines with the thread's part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// XOR'd with the thread's part: the entries a swizzle mixes with the thread's bits (a
    /// swizzle is linear over XOR).
    Xor,
    /// Added: a kernel may fold it into an immediate offset (the sum is what [`split`] checks).
    Add,
}

/// An address split three ways by [`split`]: `(thread(t) ^ xor(..)) + add(..)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The thread's part, `NAME_t(thread)`: the map at the other entries 0.
    pub thread: Func,
    /// The XOR part, `NAME_x(..)` over the [`Part::Xor`] entries (at thread 0); `None` when no
    /// entry is one.
    pub xor: Option<Func>,
    /// The additive part, `NAME_y(..)` over the [`Part::Add`] entries; `None` when no entry is
    /// one.
    pub add: Option<Func>,
}

impl Split {
    /// The functions, in order.
    #[must_use]
    pub fn funcs(&self) -> Vec<&Func> {
        let mut out = vec![&self.thread];
        out.extend(self.xor.iter());
        out.extend(self.add.iter());
        out
    }

    /// The C expression of the offset: `(NAME_t(t) ^ NAME_x(xs..)) + NAME_y(ys..)`, each part
    /// converted to `ty`.
    #[must_use]
    pub fn call(&self, t: &str, xs: &[&str], ys: &[&str], ty: &str) -> String {
        let mut e = format!("({ty}){}", self.thread.call(&[t]));
        if let Some(x) = &self.xor {
            e = format!("({e} ^ ({ty}){})", x.call(xs));
        }
        if let Some(y) = &self.add {
            e = format!("{e} + ({ty}){}", y.call(ys));
        }
        e
    }
}

/// A map over `(x.., thread)` (the thread its last top-level entry, as in a `(value, thread)`
/// layout) emitted as `(NAME_t(thread) ^ NAME_x(xor entries)) + NAME_y(add entries)`, `parts`
/// saying, for each entry before the thread, which part it belongs to and its name; checked at
/// every coordinate, so that a kernel computes the thread's part once, XORs only what a swizzle
/// mixes with it, and adds the rest as immediate offsets. `NAME_y` is the map at the other
/// entries 0 minus its value at the origin (which must be 0).
///
/// This is the form of an `ldmatrix` row address of a swizzled operand: the thread's row XOR
/// the k-block (whose bits the swizzle mixes with the row's) plus the copy's offset along M
/// (bits above the swizzle's).
///
/// ```
/// use layout_core::cuda::{split, Part};
/// use layout_core::{Annotated, Error, Map, Space, Swizzle, SwizzleUnit};
/// // A 16×64 tile of halves, Swizzle<3,3,3>: (copy i: 2 rows of 8, k-block: 8 columns, thread: 8 rows).
/// let m: Map = Annotated::new("(i:2,kb:8,thread:8):(512,8,64)".parse()?, Space::Logical, Space::Physical)?.into();
/// let m = m.swizzle(Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements)?)?;
/// let s = split("row", "a row", &m, &[(Part::Add, "i"), (Part::Xor, "kb")])?;
/// assert_eq!(s.call("t", &["kb"], &["i"], "uint32_t"),
///     "((uint32_t)row_t(t) ^ (uint32_t)row_x(kb)) + (uint32_t)row_y(i)");
/// // The k-block is not additive: the swizzle mixes it with the thread's row.
/// assert!(matches!(split("row", "", &m, &[(Part::Add, "i"), (Part::Add, "kb")]),
///     Err(Error::SplitMismatch { .. })));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::PerThreadEntries`] unless `parts` names every entry before the thread (and there is
/// one); [`Error::CudaTooLarge`] past [`ENUMERATION_LIMIT`] positions; [`Error::SplitMismatch`]
/// at the first position where the parts do not give the map's offset (or where the additive
/// part is not 0 at the origin); as [`func`] for the names; evaluation errors.
pub fn split(name: &str, doc: &str, map: &Map, parts: &[(Part, &str)]) -> Result<Split, Error> {
    let sizes = map.domain_entry_sizes();
    let Some(last) = sizes
        .len()
        .checked_sub(1)
        .filter(|&l| l == parts.len() && l > 0)
    else {
        return Err(Error::PerThreadEntries {
            entries: sizes.len(),
        });
    };
    let size = map.size();
    within_limit(size)?;
    let of = |kind: Part| -> Vec<usize> { (0..last).filter(|&e| parts[e].0 == kind).collect() };
    let (xe, ye) = (of(Part::Xor), of(Part::Add));
    let only = |keep: &[usize]| -> Result<Map, Error> {
        let fixed: Vec<(usize, i64)> = (0..sizes.len())
            .filter(|e| !keep.contains(e))
            .map(|e| (e, 0))
            .collect();
        map.restrict(&fixed)
    };
    let t_part = only(&[last])?;
    let x_part = if xe.is_empty() {
        None
    } else {
        Some(only(&xe)?)
    };
    let y_part = if ye.is_empty() {
        None
    } else {
        Some(only(&ye)?)
    };
    let origin = map.eval_index(0)?;
    if y_part.is_some() && origin != 0 {
        return Err(Error::SplitMismatch {
            index: 0,
            offset: origin,
            parts: 0,
        });
    }
    let overflow = Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Index,
    };
    // Flat index of the sub-coordinate over `es`, from the full coordinate `c` (below `size`,
    // so no step overflows; checked all the same).
    let sub = |c: &[i64], es: &[usize]| -> Result<i64, Error> {
        es.iter().try_fold(0i64, |a, &e| {
            a.checked_mul(sizes[e])
                .and_then(|v| v.checked_add(c[e]))
                .ok_or(overflow)
        })
    };
    let mut c = vec![0i64; sizes.len()];
    for index in 0..size {
        // `c` is the coordinate of `index`, last entry fastest.
        let mut r = index;
        for k in (0..sizes.len()).rev() {
            c[k] = r.checked_rem(sizes[k]).ok_or(overflow)?;
            r = r.checked_div(sizes[k]).ok_or(overflow)?;
        }
        let offset = map.eval_index(index)?;
        let t = t_part.eval_index(c[last])?;
        let x = match &x_part {
            Some(m) => m.eval_index(sub(&c, &xe)?)?,
            None => 0,
        };
        let y = match &y_part {
            Some(m) => m.eval_index(sub(&c, &ye)?)?,
            None => 0,
        };
        let combined = (t ^ x).checked_add(y).ok_or(Error::SplitMismatch {
            index,
            offset,
            parts: i64::MAX,
        })?;
        if combined != offset {
            return Err(Error::SplitMismatch {
                index,
                offset,
                parts: combined,
            });
        }
    }
    let names = |es: &[usize]| -> Vec<&str> { es.iter().map(|&e| parts[e].1).collect() };
    let emitted = |m: &Map, suffix: &str, what: &str, ns: &[&str]| -> Result<Func, Error> {
        func(
            &format!("{name}_{suffix}"),
            &format!("{doc}: {what}"),
            emit(m, true)?.program,
            ns,
        )
    };
    Ok(Split {
        thread: emitted(&t_part, "t", "the thread's part", &["thread"])?,
        xor: match &x_part {
            Some(m) => Some(emitted(
                m,
                "x",
                "the part XOR'd with the thread's",
                &names(&xe),
            )?),
            None => None,
        },
        add: match &y_part {
            Some(m) => Some(emitted(m, "y", "the part added", &names(&ye))?),
            None => None,
        },
    })
}

/// How a map behaves along a vector of its last entry, in [`check_vector`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Along {
    /// `f(.., e) = f(.., 0) + e`, and `f(.., 0)` a multiple of the width: one aligned vector.
    Contiguous,
    /// `f(.., e) = f(.., 0)`: e.g. the row index of a vector inside one row.
    Constant,
}

impl core::fmt::Display for Along {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Along::Contiguous => "contiguous",
            Along::Constant => "constant",
        })
    }
}

/// Proves, at every position (enumerated, up to [`ENUMERATION_LIMIT`]), that `map` is `along`
/// over each group of `width` consecutive values of its last top-level entry: the flat indices
/// `i` with the same `i / width`. With [`Along::Contiguous`] the group's first offset is also a
/// multiple of `width` (elements), so one access of `width` elements moves it.
///
/// ```
/// use layout_core::cuda::{check_vector, Along};
/// use layout_core::{Annotated, Error, Map, Space};
/// let map = |s: &str| -> Result<Map, Error> {
///     Ok(Annotated::new(s.parse()?, Space::Logical, Space::Physical)?.into())
/// };
/// check_vector(&map("(thread:8,vec:4):(4,1)")?, 4, Along::Contiguous)?;
/// assert_eq!(
///     check_vector(&map("(thread:8,vec:4):(6,1)")?, 4, Along::Contiguous),
///     Err(Error::VectorAligned { index: 4, offset: 6, width: 4 })
/// );
/// assert_eq!(
///     check_vector(&map("(thread:8,vec:4):(1,8)")?, 4, Along::Contiguous),
///     Err(Error::VectorAlong { along: Along::Contiguous, index: 1, offset: 8, expected: 1 })
/// );
/// assert_eq!(
///     check_vector(&map("(thread:8,vec:4):(4,1)")?, 3, Along::Contiguous),
///     Err(Error::VectorWidth { width: 3, size: 4 })
/// );
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::VectorWidth`] when `width` is not a positive divisor of the last entry's size;
/// [`Error::CudaTooLarge`] past the limit; [`Error::VectorAligned`] for a vector of
/// [`Along::Contiguous`] whose first offset is not a multiple of `width`;
/// [`Error::VectorAlong`] at the first position that is not `along`; evaluation errors.
pub fn check_vector(map: &Map, width: i64, along: Along) -> Result<(), Error> {
    let last = map.domain_entry_sizes().len().saturating_sub(1);
    check_vector_entry(map, last, width, along)
}

/// [`check_vector`] along top-level entry `entry` of the map's domain: each group of `width`
/// consecutive values of that entry, the other entries fixed, e.g. the `value` entry of a
/// `(value, thread)` layout (CuTe's `(thread, value)`). Positions in flat order: the group
/// starting at flat index `i` (its entry's coordinate a multiple of `width`) is checked whole
/// before the next; a reported index is the flat index of the position that fails.
///
/// ```
/// use layout_core::cuda::{check_vector_entry, Along};
/// use layout_core::{Annotated, Error, Map, Space};
/// // (vec, thread): thread t's 4 elements at 4t .. 4t + 3.
/// let m: Map = Annotated::new("(vec:4,thread:8):(1,4)".parse()?, Space::Logical, Space::Physical)?.into();
/// check_vector_entry(&m, 0, 4, Along::Contiguous)?;
/// assert_eq!(
///     check_vector_entry(&m, 1, 4, Along::Contiguous),
///     Err(Error::VectorAlong { along: Along::Contiguous, index: 1, offset: 4, expected: 1 })
/// );
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`check_vector`], the width checked against entry `entry`'s size;
/// [`Error::RestrictEntry`] for an entry past the domain's.
pub fn check_vector_entry(map: &Map, entry: usize, width: i64, along: Along) -> Result<(), Error> {
    let entries = map.domain_entry_sizes();
    let Some(&n) = entries.get(entry) else {
        return Err(Error::RestrictEntry {
            entry,
            rank: entries.len(),
        });
    };
    if width < 1 || n.checked_rem(width) != Some(0) {
        return Err(Error::VectorWidth { width, size: n });
    }
    let size = map.size();
    within_limit(size)?;
    // One step of the entry's coordinate is `inner` flat indices.
    let inner = entries
        .get(entry.saturating_add(1)..)
        .unwrap_or(&[])
        .iter()
        .product::<i64>();
    let overflow = Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Offset,
    };
    for first in 0..size {
        let coordinate = first
            .checked_div(inner)
            .and_then(|q| q.checked_rem(n))
            .ok_or(overflow)?;
        if coordinate.checked_rem(width) != Some(0) {
            continue;
        }
        let v0 = map.eval_index(first)?;
        if along == Along::Contiguous && v0.rem_euclid(width) != 0 {
            return Err(Error::VectorAligned {
                index: first,
                offset: v0,
                width,
            });
        }
        for e in 1..width {
            // The group lies inside the entry: first + e·inner < size.
            let index = e
                .checked_mul(inner)
                .and_then(|d| first.checked_add(d))
                .ok_or(overflow)?;
            let offset = map.eval_index(index)?;
            let expected = match along {
                Along::Contiguous => v0.checked_add(e).ok_or(overflow)?,
                Along::Constant => v0,
            };
            if offset != expected {
                return Err(Error::VectorAlong {
                    along,
                    index,
                    offset,
                    expected,
                });
            }
        }
    }
    Ok(())
}

/// The text of a generated `.cu` file, assembled in order:
///
/// ```text
/// // @generated by GENERATOR
/// // NOTES (each line)
/// #pragma once
/// #include <stdint.h>
///
/// BEGIN marker
/// the addressing part: functions, address functions, any C text
/// END marker
///
/// the kernels
/// ```
///
/// The addressing part compiles as plain C++ once `__host__`, `__device__` and
/// `__forceinline__` are defined away ([`Source::addressing`]); host tests compare it with the
/// maps at every coordinate.
///
/// ```
/// use layout_core::cuda::{Source, per_thread, BEGIN, END};
/// use layout_core::{Annotated, IntType, Space};
/// let m = Annotated::new("(thread:8,value:4):(4,1)".parse()?, Space::Logical, Space::Physical)?;
/// let p = per_thread("at", "8 threads × 4 values", &m.into(), &["thread", "value"])?;
/// let mut s = Source::new("`my-generator`", "Do not edit.");
/// s.add_per_thread(&p);
/// s.add_address("addr", "one thread's element", IntType::I32, "uint32_t t, uint32_t v", &p.call("t", &["v"], "int32_t"))?;
/// s.add_kernels("__global__ void k() {}\n");
/// let text = s.text();
/// assert!(text.starts_with("// @generated by `my-generator`\n// Do not edit.\n#pragma once\n"));
/// assert!(text.contains("int32_t addr(uint32_t t, uint32_t v) {\n    return (int32_t)at(t, 0) + (int32_t)at_v(v);\n}\n"));
/// assert!(text.find(BEGIN) < text.find("uint32_t at(") && text.find(END) < text.find("__global__"));
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    header: String,
    addressing: String,
    kernels: String,
}

/// `text` as `//` comment lines.
fn comment(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "// {line}");
    }
}

impl Source {
    /// An empty file: `// @generated by GENERATOR` (how to regenerate it), then `notes` as
    /// comment lines (what it holds, what the host must check).
    #[must_use]
    pub fn new(generator: &str, notes: &str) -> Source {
        let mut header = String::new();
        comment(&mut header, &format!("@generated by {generator}"));
        comment(&mut header, notes);
        Source {
            header,
            ..Source::default()
        }
    }

    /// Appends a function to the addressing part, after a comment with its doc, its cost and
    /// its `(div, mod)` counts.
    pub fn add_func(&mut self, f: &Func) {
        let mut doc = String::new();
        comment(
            &mut doc,
            &format!(
                "{}: cost {} (div, mod) = {:?}",
                f.doc,
                f.program.cost(),
                f.program.div_mod()
            ),
        );
        let _ = writeln!(self.addressing, "{doc}{}", f.c);
    }

    /// Appends the functions of a [`PerThread`], in order.
    pub fn add_per_thread(&mut self, p: &PerThread) {
        for f in p.funcs() {
            self.add_func(f);
        }
    }

    /// Appends an address function `ty name(params) { return body; }` (`__host__ __device__
    /// __forceinline__`) after a comment `doc`: `params` and `body` are C text, e.g. a sum of
    /// [`PerThread::call`] and [`LdSplit::call`] expressions.
    ///
    /// # Errors
    /// [`Error::CudaName`] for a name that is not a C identifier.
    pub fn add_address(
        &mut self,
        name: &str,
        doc: &str,
        ty: IntType,
        params: &str,
        body: &str,
    ) -> Result<(), Error> {
        if !is_identifier(name) {
            return Err(Error::CudaName { position: None });
        }
        comment(&mut self.addressing, doc);
        let _ = writeln!(
            self.addressing,
            "__host__ __device__ __forceinline__ {} {name}({params}) {{\n    return {body};\n}}\n",
            ty.c()
        );
        Ok(())
    }

    /// Appends C text to the addressing part as it is (host checks, constants).
    pub fn add_c(&mut self, text: &str) {
        self.addressing.push_str(text);
    }

    /// Appends CUDA text after the addressing part (the kernels).
    pub fn add_kernels(&mut self, text: &str) {
        self.kernels.push_str(text);
    }

    /// The addressing part: what lies between [`BEGIN`] and [`END`].
    #[must_use]
    pub fn addressing(&self) -> &str {
        &self.addressing
    }

    /// The whole file.
    #[must_use]
    pub fn text(&self) -> String {
        format!(
            "{}#pragma once\n#include <stdint.h>\n\n{BEGIN}\n{}{END}\n\n{}",
            self.header, self.addressing, self.kernels
        )
    }
}

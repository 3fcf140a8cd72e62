//! Shared-memory bank conflicts of one warp's access through a physical map.
//!
//! The model is the one NVIDIA documents for shared memory since Maxwell: 32 banks of 4 bytes,
//! a byte address `a` lies in word `a / 4` and bank `(a / 4) mod 32`. One warp-wide access
//! instruction in which every lane moves `B` bytes (`B = vector · element bytes`, at most 16) is
//! served in **phases** of 128 bytes: all 32 lanes for `B ≤ 4`, half-warps for `B = 8`,
//! quarter-warps for `B = 16`. Within a phase, lanes that touch the same word share it (a
//! broadcast), and each bank serves one word per cycle, so the phase takes as many
//! **wavefronts** as the most distinct words any one bank holds. A phase is conflict-free when
//! that number is the minimum, `ceil(distinct words / 32)`; an `n`-way conflict is a bank that
//! holds `n` distinct words of one phase.
//!
//! The warp's lanes are the threads `32·warp .. 32·warp + 31` of the thread-value layout's
//! thread mode; the value mode is walked in groups of `vector` consecutive values, one
//! instruction per group (a lane's group must be contiguous and aligned in memory, as a vector
//! load needs). A lane whose thread coordinate is non-zero at a broadcast `_` leaf of the thread
//! mode repeats another lane's access and issues nothing (the `ldmatrix` sources of CuTe's copy
//! atoms, `((16,2),128):((128,0),1)`, give 16 row addresses for 32 lanes).
//!
//! [`copy_conflicts`] counts the conflicts of a tiled copy's partition of shared memory
//! ([`crate::copy::TiledCopy`]), warp by warp, with the copy's vector as the access width.
//!
//! ```
//! use layout_core::banks::{conflicts, WarpAccess};
//! use layout_core::{Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
//! // A warp reading one column of a 32×32 fp32 row-major tile per instruction.
//! let tile: Layout = "(32,32):(32,1)".parse()?;
//! let smem: Map = Annotated::new(tile.clone(), Space::Logical, Space::Physical)?.into();
//! let tv = tile; // (thread t, value v) -> logical (t, v): lane t reads row t
//! let r = conflicts(&smem, &tv, &WarpAccess::new(32))?;
//! assert_eq!((r.ways, r.wavefronts, r.ideal), (32, 32 * 32, 32));
//! // CuTe's Swizzle<5,0,5> spreads every column over the 32 banks.
//! let swizzled = smem.swizzle(Swizzle::from_cute(5, 0, 5, SwizzleUnit::Elements)?)?;
//! let r = conflicts(&swizzled, &tv, &WarpAccess::new(32))?;
//! assert_eq!((r.ways, r.wavefronts, r.ideal), (1, 32, 32));
//! # Ok::<(), layout_core::Error>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::error::Error;
use crate::layout::Layout;
use crate::map::Map;
use crate::space::Space;
use crate::tree::{Stride, Tree};

/// Number of shared-memory banks.
pub const BANKS: usize = 32;
/// [`BANKS`] as `i64`.
const BANKS_I64: i64 = 32;
/// [`BANKS`] as `u64`.
const BANKS_U64: u64 = 32;
/// Width of one bank word, in bytes.
pub const BANK_BYTES: i64 = 4;
/// Bytes one phase serves: 32 banks of 4 bytes.
pub const PHASE_BYTES: i64 = 128;
/// Lanes in a warp.
pub const WARP_SIZE: i64 = 32;
/// The most instructions (value groups) [`conflicts`] walks.
pub const MAX_INSTRUCTIONS: i64 = 1 << 16;

/// How one warp accesses shared memory: the element width, how many consecutive values a lane
/// moves per instruction, which warp, and which top-level mode of the thread-value layout
/// numbers the threads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WarpAccess {
    /// Element width in bits: 8, 16, 32, 64 or 128.
    pub element_bits: u32,
    /// Consecutive values of the value mode moved by one instruction (a vector access);
    /// `vector · element_bits / 8` is at most 16 bytes.
    pub vector: i64,
    /// Which warp of the thread mode: threads `32·warp ..= 32·warp + 31`.
    pub warp: i64,
    /// The top-level mode of the thread-value layout that numbers threads (seed order, from 0);
    /// the other top-level mode, if any, numbers values.
    pub thread_mode: usize,
}

impl WarpAccess {
    /// Warp 0, one element per lane and instruction, threads in top-level mode 0.
    #[must_use]
    pub const fn new(element_bits: u32) -> WarpAccess {
        WarpAccess {
            element_bits,
            vector: 1,
            warp: 0,
            thread_mode: 0,
        }
    }
}

/// One phase of one instruction: a group of lanes served together.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Phase {
    /// The first lane of the phase and the number of lanes in it.
    pub lanes: (i64, i64),
    /// The lanes of the phase that issue an address (not repeats through a broadcast).
    pub active: i64,
    /// Cycles the phase takes: the most distinct words in one bank (0 when no lane issues).
    pub wavefronts: u64,
    /// The fewest cycles its bytes could take: `ceil(distinct words / 32)`.
    pub ideal: u64,
    /// Distinct words requested from each bank.
    pub banks: [u32; BANKS],
}

/// One instruction: the values `first_value .. first_value + vector` of every lane.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Instruction {
    /// The first value index (flat, in the value mode) this instruction moves.
    pub first_value: i64,
    /// Its phases, in lane order.
    pub phases: Vec<Phase>,
}

impl Instruction {
    /// Cycles of the instruction: the sum over its phases.
    #[must_use]
    pub fn wavefronts(&self) -> u64 {
        self.phases.iter().map(|p| p.wavefronts).sum()
    }

    /// The fewest cycles its bytes could take.
    #[must_use]
    pub fn ideal(&self) -> u64 {
        self.phases.iter().map(|p| p.ideal).sum()
    }

    /// The worst conflict of the instruction: the most distinct words one bank holds in one
    /// phase (1 = conflict-free, 0 = nothing issued).
    #[must_use]
    pub fn ways(&self) -> u64 {
        self.phases.iter().map(|p| p.wavefronts).max().unwrap_or(0)
    }
}

/// The bank conflicts of one warp's access, instruction by instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Conflicts {
    /// Bytes each lane moves per instruction.
    pub access_bytes: i64,
    /// Lanes per phase: 32, 16 or 8.
    pub lanes_per_phase: i64,
    /// The instructions, in value order.
    pub instructions: Vec<Instruction>,
    /// The worst conflict over all instructions: `n` for an `n`-way conflict, 1 when
    /// conflict-free.
    pub ways: u64,
    /// Total cycles (wavefronts) of all instructions.
    pub wavefronts: u64,
    /// The fewest cycles the same bytes could take.
    pub ideal: u64,
}

impl Conflicts {
    /// Whether every phase takes its minimum number of cycles.
    #[must_use]
    pub fn is_conflict_free(&self) -> bool {
        self.wavefronts == self.ideal
    }
}

/// The leaves of top-level mode `k` (all leaves when the layout has one mode).
fn mode_leaves(l: &Layout, k: usize) -> Vec<(i64, Stride)> {
    l.modes()
        .into_iter()
        .filter(|m| l.rank() == 1 || m.path.indices().first().map(|&i| usize::from(i)) == Some(k))
        .map(|m| (m.size, m.stride))
        .collect()
}

fn size_of(leaves: &[(i64, Stride)]) -> i64 {
    // The leaves of one mode of a layout: their product divides its size, which fits.
    leaves.iter().fold(1i64, |acc, l| acc.saturating_mul(l.0))
}

/// Whether thread `t` of a mode with these leaves is a repeat through a broadcast leaf.
fn repeats(leaves: &[(i64, Stride)], mut t: i64) -> bool {
    for &(n, d) in leaves.iter().rev() {
        if n > 1 && d == Stride::Broadcast && t.checked_rem(n) != Some(0) {
            return true;
        }
        t = t.checked_div(n).unwrap_or(0);
    }
    false
}

/// The bank conflicts of one warp reading or writing shared memory through `smem` (a
/// `logical -> physical` map, possibly swizzled) at the logical positions that the
/// thread-value layout `tv` gives each lane (offsets in elements; spec: The three spaces).
///
/// `tv` is a plain [`Layout`] so that broadcast thread modes (`ldmatrix` sources, GMMA
/// operands), which are not dense bijections, are accepted; its values must lie in
/// `[0, size(smem))`. See the module documentation for the hardware model.
///
/// # Errors
/// [`Error::BankStorage`], [`Error::ElementBits`], [`Error::AccessVector`],
/// [`Error::ThreadMode`], [`Error::NoSuchWarp`], [`Error::TooManyInstructions`],
/// [`Error::LaneOutOfTile`], [`Error::NotVector`], and evaluation errors of the maps
/// ([`Error::Overflow`] of an offset in bytes).
pub fn conflicts(smem: &Map, tv: &Layout, access: &WarpAccess) -> Result<Conflicts, Error> {
    if (smem.domain(), smem.codomain()) != (Space::Logical, Space::Physical) {
        return Err(Error::BankStorage {
            domain: smem.domain(),
            codomain: smem.codomain(),
        });
    }
    let bits = access.element_bits;
    if !matches!(bits, 8 | 16 | 32 | 64 | 128) {
        return Err(Error::ElementBits { bits });
    }
    let elem_bytes = i64::from(bits / 8);
    let rank = tv.rank();
    if rank > 2 || access.thread_mode >= rank {
        return Err(Error::ThreadMode {
            thread_mode: access.thread_mode,
            rank,
        });
    }
    let thread_leaves = mode_leaves(tv, access.thread_mode);
    let threads = size_of(&thread_leaves);
    let values = if rank == 2 {
        size_of(&mode_leaves(tv, 1usize.saturating_sub(access.thread_mode)))
    } else {
        1
    };
    let vector = access.vector;
    let access_bytes = vector.saturating_mul(elem_bytes);
    if vector < 1
        || values.checked_rem(vector) != Some(0)
        || !matches!(access_bytes, 1 | 2 | 4 | 8 | 16)
    {
        return Err(Error::AccessVector {
            vector,
            bits,
            values,
        });
    }
    // vector ≥ 1 here.
    let instructions_count = values.checked_div(vector).unwrap_or(0);
    if instructions_count > MAX_INSTRUCTIONS {
        return Err(Error::TooManyInstructions {
            instructions: instructions_count,
        });
    }
    let first_thread = access.warp.checked_mul(WARP_SIZE).unwrap_or(i64::MAX);
    if access.warp < 0 || first_thread >= threads {
        return Err(Error::NoSuchWarp {
            warp: access.warp,
            threads,
        });
    }
    // first_thread < threads, and an access is 1 to 16 bytes: a phase has 8 to 32 lanes.
    let lanes = WARP_SIZE.min(threads.saturating_sub(first_thread));
    let lanes_per_phase = PHASE_BYTES
        .checked_div(access_bytes.max(BANK_BYTES))
        .unwrap_or(1)
        .min(WARP_SIZE);
    let step = |n: i64| usize::try_from(n).unwrap_or(1).max(1);
    let size = smem.size();
    let at = |thread: i64, value: i64| -> Result<i64, Error> {
        let coord = if rank == 1 {
            Tree::Leaf(thread)
        } else if access.thread_mode == 0 {
            Tree::Tuple(vec![Tree::Leaf(thread), Tree::Leaf(value)])
        } else {
            Tree::Tuple(vec![Tree::Leaf(value), Tree::Leaf(thread)])
        };
        let index = tv.eval(&coord)?;
        if !(0..size).contains(&index) {
            return Err(Error::LaneOutOfTile {
                thread,
                value,
                index,
                size,
            });
        }
        smem.eval_index(index)
    };
    let mut instructions = Vec::new();
    for first_value in (0..values).step_by(step(vector)) {
        let mut phases = Vec::new();
        for phase_start in (0..lanes).step_by(step(lanes_per_phase)) {
            let phase_lanes = lanes_per_phase.min(lanes.saturating_sub(phase_start));
            // word -> present; BTreeMap keeps the crate no_std and the result deterministic.
            let mut words: BTreeMap<i64, ()> = BTreeMap::new();
            let mut active = 0i64;
            for lane in phase_start..phase_start.saturating_add(phase_lanes) {
                // A thread of the mode: below `threads`.
                let thread = first_thread.saturating_add(lane);
                if repeats(&thread_leaves, thread) {
                    continue;
                }
                active = active.saturating_add(1);
                let offset = at(thread, first_value)?;
                for k in 1..vector {
                    // Values below `values`; an offset plus k < 16 is compared in i128.
                    let next = at(thread, first_value.saturating_add(k))?;
                    if i128::from(next) != i128::from(offset).saturating_add(i128::from(k)) {
                        return Err(Error::NotVector {
                            thread,
                            value: first_value,
                            offset,
                        });
                    }
                }
                let overflow = Error::Overflow {
                    mode: crate::ModePath::ROOT,
                    what: crate::Quantity::Offset,
                };
                let start = offset.checked_mul(elem_bytes).ok_or(overflow)?;
                let end = start
                    .checked_add(access_bytes.saturating_sub(1))
                    .ok_or(overflow)?;
                if start.rem_euclid(access_bytes) != 0 {
                    return Err(Error::NotVector {
                        thread,
                        value: first_value,
                        offset,
                    });
                }
                let first_word = start.div_euclid(BANK_BYTES);
                let last_word = end.div_euclid(BANK_BYTES);
                for w in first_word..=last_word {
                    words.insert(w, ());
                }
            }
            let mut banks = [0u32; BANKS];
            for w in words.keys() {
                let bank = usize::try_from(w.rem_euclid(BANKS_I64)).unwrap_or(0);
                if let Some(b) = banks.get_mut(bank) {
                    *b = b.saturating_add(1);
                }
            }
            let distinct = u64::try_from(words.len()).unwrap_or(u64::MAX);
            phases.push(Phase {
                lanes: (phase_start, phase_lanes),
                active,
                wavefronts: banks.iter().copied().max().map_or(0, u64::from),
                ideal: distinct.div_ceil(BANKS_U64),
                banks,
            });
        }
        instructions.push(Instruction {
            first_value,
            phases,
        });
    }
    let ways = instructions
        .iter()
        .map(Instruction::ways)
        .max()
        .unwrap_or(0);
    let wavefronts = instructions.iter().map(Instruction::wavefronts).sum();
    let ideal = instructions.iter().map(Instruction::ideal).sum();
    Ok(Conflicts {
        access_bytes,
        lanes_per_phase,
        instructions,
        ways,
        wavefronts,
        ideal,
    })
}

/// The bank conflicts of a tiled copy's partition of a shared-memory map, one [`Conflicts`] per
/// warp (warp `w` is threads `32·w ..= 32·w + 31` of the copy).
///
/// `smem` is `logical -> physical` (a swizzle may follow) over a tensor whose modes are
/// multiples of the copy's tile ([`crate::copy::TiledCopy::partition`]); each thread moves
/// its partition's values [`crate::copy::TiledCopy::vector`] at a time, one instruction per
/// group of values (every repeat of the tile included), served in phases as the module
/// documentation says: a 128-bit access (8 halves) is served per quarter-warp, 8 lanes × 16
/// bytes per phase.
///
/// ```
/// use layout_core::banks::copy_conflicts;
/// use layout_core::copy::TiledCopy;
/// use layout_core::{Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
/// // 128 threads, 8 halves each, row by row over a 16×64 tile (CuTe order).
/// let copy = TiledCopy::new(&Layout::from_cute("(16,8):(8,1)")?, &Layout::from_cute("(1,8):(1,1)")?, 8)?;
/// let rows: Map = Annotated::new(Layout::from_cute("(16,64):(64,1)")?, Space::Logical, Space::Physical)?.into();
/// let per_warp = copy_conflicts(&copy, &rows, 16)?;
/// assert_eq!(per_warp.len(), 4);
/// // A phase is one 128-byte row: conflict-free.
/// assert!(per_warp.iter().all(|c| c.is_conflict_free()));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// The errors of [`crate::copy::TiledCopy::partition`] and of [`conflicts`] (an element width
/// and vector that are not an access of 1 to 16 bytes, a vector that is not contiguous and
/// aligned in shared memory).
pub fn copy_conflicts(
    copy: &crate::copy::TiledCopy,
    smem: &Map,
    element_bits: u32,
) -> Result<Vec<Conflicts>, Error> {
    let tv = copy.access_layout(smem)?;
    let warps = copy
        .threads()
        .checked_add(WARP_SIZE - 1)
        .unwrap_or(i64::MAX)
        .checked_div(WARP_SIZE)
        .unwrap_or(0);
    (0..warps)
        .map(|warp| {
            conflicts(
                smem,
                &tv,
                &WarpAccess {
                    element_bits,
                    vector: copy.vector(),
                    warp,
                    thread_mode: 1,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Annotated, Swizzle, SwizzleUnit};
    use alloc::string::ToString;

    fn smem(text: &str) -> Map {
        Annotated::new(text.parse().unwrap(), Space::Logical, Space::Physical)
            .unwrap()
            .into()
    }

    #[test]
    fn column_of_a_row_major_tile_is_32_way() {
        let tv: Layout = "(32,32):(32,1)".parse().unwrap();
        let r = conflicts(&smem("(32,32):(32,1)"), &tv, &WarpAccess::new(32)).unwrap();
        assert_eq!(r.instructions.len(), 32);
        for i in &r.instructions {
            assert_eq!((i.ways(), i.wavefronts(), i.ideal()), (32, 32, 1));
            // Column v lives in bank v: 32 distinct words there, none elsewhere.
            let bank = usize::try_from(i.first_value).expect("a value index");
            assert_eq!(i.phases[0].banks[bank], 32);
            assert_eq!(i.phases[0].banks.iter().sum::<u32>(), 32);
        }
        assert_eq!((r.ways, r.wavefronts, r.ideal), (32, 1024, 32));
        assert!(!r.is_conflict_free());
    }

    #[test]
    fn swizzle_5_0_5_removes_them() {
        let tv: Layout = "(32,32):(32,1)".parse().unwrap();
        let m = smem("(32,32):(32,1)")
            .swizzle(Swizzle::from_cute(5, 0, 5, SwizzleUnit::Elements).unwrap())
            .unwrap();
        let r = conflicts(&m, &tv, &WarpAccess::new(32)).unwrap();
        assert_eq!((r.ways, r.wavefronts, r.ideal), (1, 32, 32));
        assert!(r.is_conflict_free());
        assert!(r.instructions.iter().all(|i| i.phases[0].banks == [1; 32]));
    }

    #[test]
    fn rows_are_conflict_free_and_padding_fixes_columns() {
        // Thread mode second: lane t reads column t of row v.
        let tv: Layout = "(32,32):(32,1)".parse().unwrap();
        let by_rows = WarpAccess {
            thread_mode: 1,
            ..WarpAccess::new(32)
        };
        let r = conflicts(&smem("(32,32):(32,1)"), &tv, &by_rows).unwrap();
        assert_eq!(r.ways, 1);
        let padded = conflicts(&smem("(32,32):(33,1)"), &tv, &WarpAccess::new(32)).unwrap();
        assert_eq!(padded.ways, 1);
    }

    #[test]
    fn narrow_elements_share_words_and_wide_ones_use_phases() {
        // 16-bit elements, lane t reads element t: 16 words, one each in banks 0..16.
        let tv: Layout = "(32,1):(1,1)".parse().unwrap();
        let r = conflicts(&smem("32:1"), &tv, &WarpAccess::new(16)).unwrap();
        assert_eq!((r.ways, r.wavefronts, r.ideal), (1, 1, 1));
        // 128-bit vectors of four floats: 4 phases of 8 lanes, each 128 contiguous bytes.
        let tv: Layout = "(32,4):(4,1)".parse().unwrap();
        let v4 = WarpAccess {
            vector: 4,
            ..WarpAccess::new(32)
        };
        let r = conflicts(&smem("128:1"), &tv, &v4).unwrap();
        assert_eq!((r.lanes_per_phase, r.instructions[0].phases.len()), (8, 4));
        assert_eq!((r.ways, r.wavefronts, r.ideal), (1, 4, 4));
    }

    #[test]
    fn broadcast_thread_modes_issue_once() {
        // Threads 16..32 repeat threads 0..16 (`_`): only 16 lanes issue.
        let tv: Layout = "((2,16),1):((_,1),1)".parse().unwrap();
        let r = conflicts(&smem("16:1"), &tv, &WarpAccess::new(32)).unwrap();
        assert_eq!(r.instructions[0].phases[0].active, 16);
        assert_eq!(r.ways, 1);
    }

    #[test]
    fn errors() {
        let tv: Layout = "(32,4):(4,1)".parse().unwrap();
        let m = smem("128:1");
        let bad = |a: WarpAccess| conflicts(&m, &tv, &a).unwrap_err();
        assert_eq!(bad(WarpAccess::new(12)), Error::ElementBits { bits: 12 });
        assert_eq!(
            bad(WarpAccess {
                vector: 3,
                ..WarpAccess::new(32)
            })
            .rule(),
            "access-width"
        );
        assert_eq!(
            bad(WarpAccess {
                warp: 1,
                ..WarpAccess::new(32)
            }),
            Error::NoSuchWarp {
                warp: 1,
                threads: 32
            }
        );
        let strided: Layout = "(32,4):(1,32)".parse().unwrap();
        let v2 = WarpAccess {
            vector: 2,
            ..WarpAccess::new(32)
        };
        assert_eq!(
            conflicts(&m, &strided, &v2).unwrap_err(),
            Error::NotVector {
                thread: 0,
                value: 0,
                offset: 0
            }
        );
        let wide: Layout = "(32,8):(8,1)".parse().unwrap();
        assert!(matches!(
            conflicts(&m, &wide, &WarpAccess::new(32)).unwrap_err(),
            Error::LaneOutOfTile { index: 128, .. }
        ));
        let tvmap: Map = Annotated::new(tv.clone(), Space::ThreadValue, Space::Logical)
            .unwrap()
            .into();
        assert_eq!(
            conflicts(&tvmap, &tv, &WarpAccess::new(32))
                .unwrap_err()
                .to_string(),
            "bank conflicts need a `logical -> physical` storage map, not `thread-value -> logical`"
        );
    }
}

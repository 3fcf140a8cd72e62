//! `docs/diagnostics.md`, the diagnostics gallery, is generated from the UI snapshots by this
//! file, so it cannot go stale:
//!
//! - `gallery_is_current` renders the page from the table below and the current `.stderr`
//!   files and fails if `docs/diagnostics.md` differs (regenerate with
//!   `UPDATE_GALLERY=1 cargo test -p layout-ui-tests --test gallery`, e.g. after re-blessing
//!   the snapshots with `TRYBUILD=overwrite`);
//! - `every_case_is_in_the_gallery`: each case file of `ui/` has exactly one entry;
//! - `quoted_messages_match_the_snapshots`: every compiler message quoted anywhere in `docs/`
//!   or the README (a ```` ```text ```` block naming `--> ui/FAMILY/CASE.rs`) is a contiguous
//!   excerpt of that case's current snapshot.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// One gallery entry: a case file under `ui/` and what its rule is.
struct Case {
    /// `FAMILY/NAME.rs` under `ui-tests/ui/`.
    file: &'static str,
    /// The entry's heading.
    title: &'static str,
    /// One or two sentences: the rule, and what this case does wrong.
    about: &'static str,
}

/// A group of related rules.
struct Section {
    title: &'static str,
    intro: &'static str,
    cases: &'static [Case],
}

const fn case(file: &'static str, title: &'static str, about: &'static str) -> Case {
    Case { file, title, about }
}

const SECTIONS: &[Section] = &[
    Section {
        title: "Reading a layout",
        intro: "The grammar (spec: Grammar) (`shape:stride`, nested tuples, `_`, mode names) and of \
                the annotation. The parser names what it expected where it stopped.",
        cases: &[
            case(
                "macro/missing_colon.rs",
                "A missing `:` between shape and stride",
                "The help line shows the form of a layout.",
            ),
            case(
                "macro/profile_mismatch.rs",
                "Shape and stride of different profiles",
                "Shape and stride must nest the same way. The second message points at the part \
                 of the shape that the stride should match.",
            ),
            case(
                "macro/non_positive_size.rs",
                "A size that is not positive",
                "Sizes count positions, so they are at least 1 (a size-1 mode is fine: its stride \
                 is ignored).",
            ),
            case(
                "macro/integer_too_large.rs",
                "An integer past `i64`",
                "Every size, stride and offset is an `i64`; the column is the integer's in the \
                 source line.",
            ),
            case(
                "macro/duplicate_name.rs",
                "Two modes with the same name",
                "A name picks one top-level mode (`restrict(.., rows = 1)`), so the modes of one \
                 layout have different names.",
            ),
            case(
                "macro/unknown_space.rs",
                "An unknown space",
                "The spaces are `logical`, `thread-value` (or `tv`) and `physical`.",
            ),
            case(
                "macro/cute_static_integer.rs",
                "CuTe's static integers outside `cute`",
                "CuTe prints static integers as `_8`. They are read only under `cute`: a layout \
                 pasted from CuTe is in CuTe order, and reading it in seed order would reverse \
                 it silently.",
            ),
            case(
                "macro/several_errors.rs",
                "Several independent errors at once",
                "Independent mistakes are all reported by one expansion: here a forbidden \
                 annotation and two zero strides.",
            ),
        ],
    },
    Section {
        title: "Zero strides and broadcasts",
        intro: "A broadcast is written `_` (the seed's ⊥; CuTe writes `0`, which `cute` reads as \
                `_`). It is legal into physical space and makes the layout read-only.",
        cases: &[case(
            "macro/zero_stride.rs",
            "A zero stride",
            "A literal `0` stride on a mode of size > 1 is an error, never a broadcast, so that a \
             read-only layout is never made by a typo.",
        )],
    },
    Section {
        title: "Dense bijections (Lemma 1)",
        intro: "Into `logical` or `thread-value` space a layout must be a dense bijection onto \
                `[0, size)`. It is decided from the sizes and strides alone (Lemma 1; spec: Dense bijections): \
                drop size-1 modes, no `_`, and sorted by stride the strides are `1, n₁, n₁n₂, …`. \
                The message names the first mode, in stride order, whose stride breaks the \
                running product, and the stride it should have.",
        cases: &[
            case(
                "macro/not_dense_logical.rs",
                "Padding in a map into logical space",
                "Rows of 8 placed 9 apart are fine in memory, but leave gaps in a logical tile.",
            ),
            case(
                "macro/not_dense_thread_value.rs",
                "Gaps in a map into thread-value space",
                "32 × 4 positions with stride 8 cover only half of `[0, 128)`.",
            ),
            case(
                "macro/broadcast_into_logical.rs",
                "A broadcast into logical space",
                "A `_` mode gives several coordinates one position: not a bijection.",
            ),
            case(
                "macro/corrupted_atom.rs",
                "A corrupted CuTe atom",
                "The SM80 16×8 C fragment with one stride changed (16 → 12), pasted in CuTe \
                 order. Mode paths count in the order the layout is written: `(1,0)` is CuTe's \
                 value mode, first leaf.",
            ),
        ],
    },
    Section {
        title: "Alias-freedom",
        intro: "Into `physical` space a layout must be alias-free: two coordinates share an \
                offset only when they differ at `_` modes. Two fast tests run first (strides \
                that exceed the span of the smaller modes; a pair of modes that must collide), \
                then an exact enumeration. The message gives a witness: two flat indices and \
                the offset they share.",
        cases: &[
            case(
                "macro/aliasing_physical.rs",
                "Two modes that collide",
                "The pair test: rows of 8 elements placed 4 apart. Both strides are underlined.",
            ),
            case(
                "macro/aliasing_enumerated.rs",
                "A collision found by enumeration",
                "No pair of modes explains the collision, so the enumeration finds it; the \
                 message names both coordinates and underlines the whole layout.",
            ),
        ],
    },
    Section {
        title: "Annotations",
        intro: "The constructible annotations are `logical`/`thread-value` → \
                `logical`/`thread-value` and `logical -> physical` (spec: Constructible annotations).",
        cases: &[
            case(
                "macro/physical_to_logical.rs",
                "Nothing maps out of physical space",
                "A memory offset is never the input of a layout.",
            ),
            case(
                "macro/thread_value_to_physical.rs",
                "Thread-value → physical only as a composite",
                "Each thread's addresses are `compose(storage, tv)`: the thread-value layout \
                 into the tile, then the tile's storage.",
            ),
        ],
    },
    Section {
        title: "Overflow and the index type",
        intro: "Every product of sizes and strides is checked; `offset` returns the index type \
                of the declaration (`index = i32 | i64 | u32 | usize`, default `i64`), and the \
                offset range must fit it.",
        cases: &[
            case(
                "macro/overflow.rs",
                "Offsets beyond `i64`",
                "2³² × 2³² positions with stride 2³² reach past `i64::MAX`.",
            ),
            case(
                "macro/index_range.rs",
                "An offset range that does not fit the index type",
                "`index = i32` asks for 32-bit offsets; this layout reaches 2³² − 1.",
            ),
        ],
    },
    Section {
        title: "Tile shapes",
        intro: "A logical side may carry its tile shape, `logical(K, M)`, so that `compose` can \
                refuse a storage layout written over a transposed tile.",
        cases: &[
            case(
                "macro/tile_size.rs",
                "A tile shape of the wrong size",
                "`logical(16,4)` has 64 positions; the layout's logical side has 512.",
            ),
            case(
                "macro/tile_extent.rs",
                "A tile extent of 0",
                "Tile extents count positions, like sizes.",
            ),
        ],
    },
    Section {
        title: "Swizzles",
        intro: "A swizzle `σ(x) = x XOR (((x >> src) & (2^b − 1)) << dst)` runs from physical to \
                physical, once, as the last step (spec: Swizzles). CuTe's `Swizzle<B,M,S>` is `b = B, \
                dst = M, src = M + S` on the offsets it is written for, so it is pasted with its \
                unit: `over elements`, or `over bytes of N-bit elements` (CuTe's GMMA and TMA \
                swizzles act on byte addresses).",
        cases: &[
            case(
                "macro/swizzle_unit_missing.rs",
                "A CuTe swizzle pasted without its unit",
                "`Swizzle<3,4,3>` is the 128-byte swizzle on byte addresses; on fp16 element \
                 offsets it would be `Swizzle<3,3,3>`. The help shows both ways to say which.",
            ),
            case(
                "macro/swizzle_unit_inexact.rs",
                "A byte swizzle with no element form",
                "Over the bytes of 64-bit elements, `Swizzle<1,2,3>` moves 4-byte pieces, which \
                 splits elements: no swizzle of element offsets gives the same addresses.",
            ),
            case(
                "macro/swizzle_overlap.rs",
                "Overlapping swizzle fields",
                "The source and destination bit fields must be disjoint.",
            ),
            case(
                "macro/swizzle_negative_field.rs",
                "A negative swizzle field",
                "Bit positions and widths are at least 0.",
            ),
            case(
                "macro/swizzle_negative_offsets.rs",
                "A swizzle over negative offsets",
                "A swizzle acts on the bits of non-negative offsets; a negative stride reaches \
                 below 0.",
            ),
            case(
                "macro/swizzle_not_physical.rs",
                "A swizzle on a map into logical space",
                "Swizzles permute memory addresses only.",
            ),
            case(
                "macro/swizzle_not_physical_expression.rs",
                "A swizzle of a composite into logical space",
                "The same rule for the `swizzle(..)` operation of an expression: the composite \
                 of two maps into logical space is a map into logical space.",
            ),
            case(
                "algebra/second_swizzle.rs",
                "A second swizzle",
                "`SMEM` is already swizzled, and a map has at most one swizzle.",
            ),
            case(
                "macro/swizzle_index_range.rs",
                "A swizzled offset range that does not fit the index type",
                "The swizzle moves bits 21–24 to bits 28–31; past flat index 2²⁴ offsets reach \
                 2³¹ and more. The range is computed exactly, not from the first positions.",
            ),
            case(
                "macro/swizzle_range_undecided.rs",
                "A swizzled offset range past the exact search",
                "The offset range of a swizzled layout is computed exactly when the macro \
                 expands (it sizes buffers). Where the search would need more than its limit, \
                 the declaration and the `swizzle(..)` operation are refused, naming the limit.",
            ),
        ],
    },
    Section {
        title: "Composition",
        intro: "The rules of `compose(left, right)` are trait bounds with their own messages \
                (`#[diagnostic::on_unimplemented]`): the first line is the rule, the `note: help:` \
                line the fix. rustc then shows where the bound is introduced; `$WORKSPACE` is \
                trybuild's placeholder for the workspace root. The typed markers are named \
                `LogicalSpace`, `Size<N>`, … so that rustc prints them without a path.",
        cases: &[
            case(
                "compose/right_physical.rs",
                "The operands the wrong way round",
                "`compose(tv, smem)`: `tv` does not read logical positions and `smem` maps into \
                 physical space. Both rules fail, and both are reported.",
            ),
            case(
                "compose/left_thread_value.rs",
                "A left operand that does not read logical positions",
                "The left operand is applied second, to the logical positions the right operand \
                 produces.",
            ),
            case(
                "compose/after_swizzle.rs",
                "Composing after a swizzle",
                "A swizzled map's codomain is `SwizzledPhysicalSpace`: nothing composes after \
                 it.",
            ),
            case(
                "compose/size_mismatch.rs",
                "Operands of different sizes",
                "The right operand must be a dense bijection onto every position the left \
                 operand reads: 256 positions cannot cover 512.",
            ),
            case(
                "compose/tile_mismatch.rs",
                "Logical tiles that differ: a transposed storage layout",
                "The C fragment indexes a 16×8 (M×N) tile; this storage was written over an \
                 8×16 one. The sizes agree, so without tile shapes this would compile and \
                 address the wrong elements.",
            ),
            case(
                "compose/tile_mismatch_after_divide_modes.rs",
                "Logical tiles that differ, through an algebra result",
                "An operation's result keeps or recomputes its operand's tile shapes \
                 (`divide_modes` keeps them), so the transposed storage is still refused.",
            ),
            case(
                "compose/right_physical_expression.rs",
                "A `layout!` result into physical space as the right operand",
                "The value of a `layout!` expression carries its spaces like a declared layout.",
            ),
            case(
                "compose/size_mismatch_expression.rs",
                "Sizes that differ inside `layout!`",
                "Inside a `layout!` expression the same rule is checked during expansion, with \
                 plain numbers and an arrow at the operand.",
            ),
            case(
                "compose/size_mismatch_at_alias_bound.rs",
                "Sizes of 2^24 and 2^25",
                "Large sizes are compared like small ones, and printed with their numbers.",
            ),
            case(
                "compose/tile_mismatch_at_alias_bound.rs",
                "Tiles of 2×4096 and 1×8192",
                "Two tiles of the same size in different shapes are refused at any extent.",
            ),
            case(
                "compose/type_mismatch_prints_literals.rs",
                "Two layouts as one type",
                "A layout's type is its form: two layouts that differ in one stride are \
                 different types, and rustc writes both with their numbers.",
            ),
            case(
                "macro/aliasing_literal_operand.rs",
                "A literal operand that breaks a rule",
                "A literal `[LAYOUT, DOMAIN -> CODOMAIN]` inside an expression is checked like a \
                 declaration: the rule and the colliding stride, and no other error.",
            ),
            case(
                "algebra/operand_value_shadowed.rs",
                "An operand whose value and declaration are two items",
                "`layout!` reads an operand's declaration through the item's name in the macro \
                 namespace and its value through the value namespace; when a `const` shadows only \
                 the value, the two differ, and the expansion refuses at the operand instead of \
                 computing with the other layout (a swizzled composite of two named items, made \
                 of the values themselves, composes the values instead).",
            ),
            case(
                "algebra/operand_names_shadowed.rs",
                "An operand shadowed by the same layout with other names",
                "The names of an item's modes are part of its type (a fingerprint in `Spec`), so \
                 a value that differs from the declaration only in its names is refused at the \
                 operand too: `restrict(P, x = 1)` never reads `x` off one declaration and \
                 applies it to the other.",
            ),
        ],
    },
    Section {
        title: "Views and stores",
        intro: "A `View` is a buffer seen through a layout into physical space; `View::set` \
                requires exclusive access, so a store through a broadcast does not compile.",
        cases: &[
            case(
                "view/not_physical.rs",
                "A view through a layout that does not address memory",
                "A thread-value → logical layout yields tile positions, not offsets.",
            ),
            case(
                "view/store_broadcast.rs",
                "A store through a broadcast layout",
                "Four rows share one buffer: stores to one address from several coordinates \
                 are a race.",
            ),
            case(
                "view/store_broadcast_expression.rs",
                "A store through a `broadcast(..)` result",
                "The result of `broadcast` is read-only like a layout written with `_`.",
            ),
        ],
    },
    Section {
        title: "Tensors and recast",
        intro: "A `Tensor` is data from a base offset seen through any checked layout into \
                physical space, static or with run-time leaves. Stores need exclusive access: \
                through a static broadcast they do not compile (a run-time layout that its values \
                make a broadcast refuses them when they run). `recast` reinterprets the elements' \
                bytes as another type, so both types must be plain data.",
        cases: &[
            case(
                "tensor/not_physical.rs",
                "A tensor through a layout that does not address memory",
                "A thread-value → logical layout yields tile positions, not offsets.",
            ),
            case(
                "tensor/store_broadcast.rs",
                "A store through a broadcast tensor",
                "Four rows share one buffer: stores to one address from several coordinates \
                 are a race.",
            ),
            case(
                "tensor/store_broadcast_expression.rs",
                "A checked store through a `broadcast(..)` result",
                "`try_set` checks the coordinate at run time, but the access rule is a type: the \
                 result of `broadcast` is read-only.",
            ),
            case(
                "tensor/recast_not_pod.rs",
                "A recast to a type with invalid bit patterns",
                "Not every byte is a `bool`: reading bytes as one could make a value that is not.",
            ),
            case(
                "tensor/recast_from_not_pod.rs",
                "A recast from a type with padding",
                "A tuple `(u32, u16)` has two bytes of padding, whose contents are not values.",
            ),
        ],
    },
    Section {
        title: "Algebra expressions",
        intro: "`layout!(divide(..))`, `restrict(..)`, `repeat(..)`, … are evaluated during \
                expansion with `layout-core`, so every precondition of [the \
                algebra](algebra.md) is a compile error pointing at the offending operand.",
        cases: &[
            case(
                "algebra/divide_not_dividing.rs",
                "A tile entry that does not divide its mode",
                "`divide` needs each tile entry to divide its mode's size: 12 does not divide 32.",
            ),
            case(
                "algebra/item_rule.rs",
                "A rule broken by an item defined by an expression",
                "An item's expression is checked while compiling as an expression is, each error \
                 at the tokens that cause it.",
            ),
            case(
                "algebra/divide_tile_rank.rs",
                "A tile with the wrong number of entries",
                "One tile entry per top-level mode.",
            ),
            case(
                "algebra/divide_tile_split.rs",
                "A tile entry that cuts a nested mode unevenly",
                "In the nested mode `(4,6)` (last leaf fastest) a tile of 4 neither fits in nor \
                 covers the leaf of size 6.",
            ),
            case(
                "algebra/divide_not_a_layout.rs",
                "`divide` of a composite that is not a layout",
                "Layout operations need a layout; Theorem 1 decides that this composite is not \
                 one, and the message gives its witness.",
            ),
            case(
                "algebra/repeat_not_dense.rs",
                "`repeat` with an arrangement that is not dense",
                "The arrangement numbers the copies, so it must be a dense bijection.",
            ),
            case(
                "algebra/repeat_arrangement_broadcast.rs",
                "`repeat` with a broadcast arrangement",
                "Copies at the same addresses are `broadcast`, not `repeat`.",
            ),
            case(
                "algebra/interleave_not_dense.rs",
                "`interleave` with an arrangement that is not dense",
                "The same rule for `interleave`.",
            ),
            case(
                "algebra/repeat_modewise_raked_not_dense.rs",
                "`repeat_modewise_raked` with an arrangement that is not dense",
                "The same rule for the per-mode products, `repeat_modewise` and \
                 `repeat_modewise_raked`; a declared arrangement is named at its operand.",
            ),
            case(
                "algebra/repeat_modewise_rank.rs",
                "`repeat_modewise` with an arrangement of another rank",
                "The per-mode products repeat each top-level mode by the arrangement's mode of the \
                 same position, so both have the same number of top-level modes.",
            ),
            case(
                "algebra/inverse_not_bijection.rs",
                "`inverse` of a layout with gaps",
                "Only a dense bijection onto `[0, size)` has an inverse, so only a map into \
                 logical or thread-value space: a layout into physical space, here one with gaps, \
                 has none.",
            ),
            case(
                "algebra/broadcast_not_physical.rs",
                "`broadcast` of a map into logical space",
                "Broadcast copies share addresses, so they are read-only maps into physical \
                 space.",
            ),
            case(
                "algebra/restrict_not_physical.rs",
                "`restrict` of a map into logical space",
                "Restriction (fixing a thread, a tile, …) is for maps into physical space, after \
                 composition.",
            ),
            case(
                "algebra/restrict_entry_out_of_range.rs",
                "`restrict` of an entry that does not exist",
                "Entries are numbered from 0; `SMEM` has two.",
            ),
            case(
                "algebra/restrict_unknown_name.rs",
                "`restrict` by an unknown name",
                "The domain's top-level modes are named `thread` and `value`.",
            ),
            case(
                "algebra/restrict_part_profile.rs",
                "A `restrict` value whose tuple does not mirror its entry",
                "A tuple value has one part per entry of the sub-shape it fixes (`_` for a part \
                 left free): entry 0 of `Q` is `(2,3)`.",
            ),
            case(
                "algebra/restrict_runtime_part_of_leaf.rs",
                "A tuple of run-time values for an entry that is one leaf",
                "Run-time parts follow the same shape rule as literal ones: a leaf takes one \
                 value.",
            ),
            case(
                "algebra/restrict_part_out_of_range.rs",
                "A part of a `restrict` value outside its sub-shape",
                "Each part is a flat index into the sub-shape it stands for; the mode path names \
                 that sub-shape.",
            ),
            case(
                "algebra/restrict_whole_rank.rs",
                "A whole-domain `restrict` value of the wrong rank",
                "`restrict(M, (_, _, k))` has one element per free top-level entry of the \
                 domain.",
            ),
            case(
                "algebra/restrict_whole_not_alone.rs",
                "A whole-domain `restrict` value next to other entries",
                "The whole-domain value is the one argument after the map; fix single entries \
                 with `entry = value` instead.",
            ),
            case(
                "algebra/runtime_restrict_not_last.rs",
                "An operation after a run-time `restrict`",
                "A restriction by a run-time value is the last step of an expression (only a \
                 swizzle may follow).",
            ),
            case(
                "algebra/malformed_expression.rs",
                "An operation with the wrong number of operands",
                "The arrow points where the second operand is missing.",
            ),
            case(
                "algebra/unknown_operation.rs",
                "An unknown operation inside an expression",
                "The help lists the operations.",
            ),
            case(
                "algebra/operation_at_top_level.rs",
                "An unknown operation at the top level",
                "The same at the top of the expression.",
            ),
            case(
                "algebra/undefined_name.rs",
                "An operand that is not declared",
                "Declared items reach later expressions through a hidden macro of the same \
                 name, so an undeclared operand is rustc's own error.",
            ),
        ],
    },
    Section {
        title: "Regroupings",
        intro: "`group`, `flatten`, `select`, `permute` and `coalesce` regroup the domain of a \
                map inside `layout!` with the rules of the run-time functions of the same names. \
                Mode indices count top-level modes from 0, slowest first.",
        cases: &[
            case(
                "algebra/regroup_group_range.rs",
                "`group` past the last mode",
                "`group(L, start, end)` groups the modes `start..end`: `SMEM` has three, so `end` \
                 is at most 3.",
            ),
            case(
                "algebra/regroup_mode_index.rs",
                "`select` of a mode that does not exist",
                "Modes are numbered from 0; `SMEM` has three.",
            ),
            case(
                "algebra/regroup_repeated_mode.rs",
                "A mode listed twice",
                "`select` and `permute` list each mode at most once; the arrow points at the \
                 second listing.",
            ),
            case(
                "algebra/regroup_empty_selection.rs",
                "`select` of no mode",
                "A layout has at least one mode.",
            ),
            case(
                "algebra/regroup_permutation_rank.rs",
                "`permute` that drops a mode",
                "A permutation lists every mode; `select` keeps some of them.",
            ),
            case(
                "algebra/regroup_tile_unknown.rs",
                "`permute` of a domain tiled across its modes",
                "The tile `(4, 6)` has two extents over three modes (its `6` covers the modes `2` \
                 and `3`), so a reordering of the modes has no tile shape.",
            ),
            case(
                "algebra/regroup_select_not_a_layout.rs",
                "`select` of a composite that is not a layout",
                "A `select` that drops modes fixes them at 0, which a composite's right operand \
                 cannot do and stay a bijection: the composite must be a layout (Theorem 1), and \
                 this one is not.",
            ),
            case(
                "algebra/regroup_select_not_dense.rs",
                "`select` of a thread-value layout that leaves gaps",
                "The values of one thread reach every fourth position: a map into logical space \
                 must be a dense bijection.",
            ),
        ],
    },
    Section {
        title: "Run-time leaves",
        intro: "Sizes and strides in braces (`{m}`, `{ld}`) are run-time values: such a \
                `layout!` is a `Result` checked once when it is built. Everything that does not \
                depend on them is still checked while compiling.",
        cases: &[
            case(
                "runtime/item_form.rs",
                "A run-time leaf in the item form",
                "A constant cannot depend on a run-time value.",
            ),
            case(
                "runtime/item_runtime_leaf.rs",
                "A run-time leaf in an item's expression",
                "An operand with run-time leaves makes the item's value depend on them: only a \
                 value can.",
            ),
            case(
                "runtime/item_restrict_value.rs",
                "A `restrict` by a run-time value in an item",
                "An item defined by an expression is a constant too: its expression cannot \
                 depend on a run-time value.",
            ),
            case(
                "macro/zero_stride_runtime_leaf.rs",
                "A zero stride next to run-time leaves",
                "The static mode's stride is known while compiling.",
            ),
            case(
                "macro/aliasing_runtime_leaf.rs",
                "Static modes that already collide",
                "Whatever the run-time leading dimension, the two static modes overlap.",
            ),
            case(
                "runtime/leaf_not_integer.rs",
                "A run-time leaf that is not an integer",
                "Leaves convert to `i64` with a check (`LeafInteger`, every integer type); a \
                 floating-point value or a `bool` is refused instead of truncated.",
            ),
            case(
                "runtime/operand_static_error.rs",
                "A run-time operand's static leaves",
                "An operand of an algebra expression may have run-time leaves; its static \
                 leaves are checked among themselves while compiling, as in a value.",
            ),
            case(
                "runtime/operand_rule_for_every_value.rs",
                "A rule that holds whatever the run-time values",
                "The operations are checked while compiling on a stand-in of each run-time \
                 operand; a rule that fails for every value (here the tile's rank) is a \
                 compile error, the others are the value's `Err` when it is built.",
            ),
            case(
                "runtime/compose_left_runtime_size.rs",
                "A left operand whose size is run-time",
                "The right operand of `compose` enumerates a static number of positions, so \
                 the left operand must be cut to a static tile first.",
            ),
            case(
                "runtime/compose_right_runtime_size.rs",
                "A right operand whose size is run-time",
                "The other way round: the left operand's positions are a static number, so the \
                 right operand that enumerates them has static sizes.",
            ),
            case(
                "runtime/restrict_value_arity.rs",
                "A run-time coordinate of the wrong rank",
                "The stand-in keeps the coordinate's shape, so an entry count that no value \
                 can fix is found while compiling.",
            ),
            case(
                "runtime/coalesce_runtime_operand.rs",
                "`coalesce` of a run-time operand",
                "Which leaves merge depends on the run-time strides, so the result's modes \
                 would not be known while compiling; `flatten` keeps every leaf whatever they are.",
            ),
            case(
                "runtime/empty_leaf.rs",
                "An empty run-time leaf",
                "Braces hold a Rust block; an empty one has the type `()`, refused at its \
                 braces as in a value.",
            ),
        ],
    },
    Section {
        title: "Hardware operand clauses",
        intro: "`wgmma K-major`, `wgmma MN-major` and `tma box` after a shared-memory declaration \
                require the tile to be what a `wgmma` descriptor describes or what a tiled \
                tensor map writes; the expansion derives the descriptor or tensor map and \
                refuses with the rule that no field can express. The run-time rules (the \
                global strides of a tensor map, the buffer's address) are checked when those \
                are known: see the guide.",
        cases: &[
            case(
                "operand/element_missing.rs",
                "An operand clause without the element width",
                "`wgmma` and `tma box` count bytes, so the clause needs the element width: from \
                 the swizzle's `over bytes of N-bit elements`, or written after the clause.",
            ),
            case(
                "operand/element_bits.rs",
                "An element width that is not whole bytes",
                "Descriptors and tensor maps address bytes; a 4-bit width has no byte count.",
            ),
            case(
                "operand/element_conflict.rs",
                "Two element widths",
                "The swizzle and the clause each give a width, and they differ; one of them is \
                 wrong.",
            ),
            case(
                "operand/second_clause.rs",
                "A clause given twice",
                "Each operand clause is given at most once (a tile may carry both `tma box` and \
                 `wgmma ..`).",
            ),
            case(
                "operand/major_missing.rs",
                "`wgmma` without `K-major` or `MN-major`",
                "Which mode is contiguous decides how the descriptor's strides are read, so the \
                 clause names it.",
            ),
            case(
                "operand/gmma_element_bytes.rs",
                "A wgmma operand of 8-byte elements",
                "`wgmma` reads 1-, 2- and 4-byte elements from shared memory.",
            ),
            case(
                "operand/gmma_spaces.rs",
                "A wgmma operand that is not a shared-memory tile",
                "A descriptor describes a `logical -> physical` map; the arrow points at the side \
                 that breaks it.",
            ),
            case(
                "operand/gmma_entries.rs",
                "A wgmma operand with three entries",
                "An operand tile's domain is `(K, MN)` in seed order (CuTe's `(MN, K)`): one tile, \
                 not a buffer of stages.",
            ),
            case(
                "operand/gmma_swizzle.rs",
                "A swizzle no descriptor has",
                "The descriptor's swizzles are CuTe's `Swizzle<B,4,3>` over bytes (B = 1, 2, 3) or \
                 none; this is the element-offset swizzle of fp16 written over bytes.",
            ),
            case(
                "operand/gmma_k_extent.rs",
                "A K extent of two wgmma's",
                "One dense `wgmma` reads 32 bytes of K; slice the stage's K into such tiles.",
            ),
            case(
                "operand/gmma_mn_extent.rs",
                "An MN extent that is not whole atoms",
                "Along MN the tile is whole core matrices (and, MN-major, whole swizzled rows).",
            ),
            case(
                "operand/gmma_core_matrix.rs",
                "The wrong major-ness",
                "Along the contiguous mode the first 16 bytes of each core-matrix row are \
                 consecutive elements; an MN-major tile is not K-major.",
            ),
            case(
                "operand/gmma_swizzle_row.rs",
                "A swizzled row with gaps",
                "Under a swizzle the 16-byte chunks of one row are adjacent, as in the GMMA atoms.",
            ),
            case(
                "operand/gmma_row_pitch.rs",
                "A swizzle that does not match the row width",
                "The 8 rows of a core matrix are the swizzle's row width apart: the 64-byte rows \
                 of the SW64 atom need the 64-byte swizzle.",
            ),
            case(
                "operand/gmma_stride.rs",
                "Core-matrix groups at two strides",
                "The descriptor has one stride per direction (LBO and SBO), so the groups of core \
                 matrices step uniformly.",
            ),
            case(
                "operand/gmma_byte_offset_alignment.rs",
                "A byte offset that is not a multiple of 16",
                "LBO and SBO are encoded in 16-byte units.",
            ),
            case(
                "operand/gmma_byte_offset_range.rs",
                "A byte offset past its field",
                "LBO and SBO are 14-bit fields of 16-byte units: at most 262128 bytes.",
            ),
            case(
                "operand/tma_spaces.rs",
                "A box that is not a shared-memory tile",
                "A tensor map writes its box into shared memory: the clause takes a \
                 `logical -> physical` declaration.",
            ),
            case(
                "operand/tma_element.rs",
                "A tensor map of 16-byte elements",
                "A tensor map's element is 1, 2, 4 or 8 bytes.",
            ),
            case(
                "operand/tma_rank.rs",
                "A box of six dimensions",
                "A tiled tensor map has 1 to 5 dimensions, one per top-level entry of the tile.",
            ),
            case(
                "operand/tma_box.rs",
                "A box too tall",
                "Each box dimension is 1 to 256 elements, the innermost a multiple of 16 bytes: \
                 load the stage as several boxes.",
            ),
            case(
                "operand/tma_not_box.rs",
                "A padded tile",
                "A tensor map writes its box densely, row-major with the innermost dimension \
                 contiguous, then swizzled; padding the rows is a layout it cannot write.",
            ),
            case(
                "operand/tma_swizzle_span.rs",
                "A box row wider than its swizzle",
                "Under a swizzle the box's innermost dimension spans at most the swizzle's 32, 64 \
                 or 128 bytes.",
            ),
        ],
    },
    Section {
        title: "No way around the checks",
        intro: "Every checked value comes from `layout!`, the typed operations (`compose`) or \
                a run-time constructor that checks (`Dynamic::new`, `View::new`): the traits \
                are sealed and the types have no public constructor. The one door left is \
                `layout_typed::__private`, hidden and not API: the expansion of `layout!` runs \
                in the user's crate, so what it names a user can name too. Code that names \
                `__private` by hand voids every guarantee, as with any macro's support module.",
        cases: &[
            case(
                "bypass/static_by_hand.rs",
                "A declared layout built by hand",
                "`Static` has no constructor outside `layout!`: not `NEW`, not `Default`, not \
                 its private field.",
            ),
            case(
                "bypass/swizzled_by_hand.rs",
                "A swizzle built by hand",
                "`Swizzled` has no public constructor, and wraps only maps into physical space.",
            ),
            case(
                "bypass/composed_by_hand.rs",
                "A composite built by hand",
                "`Composed` is made by `compose`, whose trait bounds are the composition rules.",
            ),
            case(
                "bypass/user_layout.rs",
                "A `Layout` of one's own",
                "`Layout` is sealed, so no type of one's own claims `Access = Exclusive` to \
                 store through a view.",
            ),
            case(
                "bypass/form_and_coord_by_hand.rs",
                "A form or a coordinate of one's own",
                "`Form` and `Coord` are sealed: sizes and offsets come from the crate's types.",
            ),
            case(
                "bypass/dynamic_and_view_by_hand.rs",
                "Run-time layouts and views as struct literals",
                "Their fields are private: `Dynamic::new` and `View::new` check.",
            ),
        ],
    },
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ui")
}

fn snapshot(case: &str) -> String {
    let path = ui_dir().join(case).with_extension("stderr");
    fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .replace("\r\n", "\n")
}

/// GitHub's heading anchor: lower case, spaces to `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The page, from the table and the current snapshots.
fn render() -> String {
    let mut p = String::new();
    p.push_str(
        "# Diagnostics gallery\n\n\
         <!-- Generated by ui-tests/tests/gallery.rs from the snapshots in ui-tests/ui/; do not \
         edit. Regenerate: UPDATE_GALLERY=1 cargo test -p layout-ui-tests --test gallery -->\n\n\
         Every rule of `layout!` and of the typed API, with the message the compiler prints when \
         it is broken. Each message below is the current snapshot of a compile-fail case of \
         `ui-tests/` (`cargo test -p layout-ui-tests` compiles every case and compares), and \
         this page is generated from those snapshots by a test that fails when they differ: what \
         you read here is what rustc 1.95 prints. Paths read `ui/FAMILY/CASE.rs` because \
         trybuild prints them relative to the `ui-tests` crate.\n\n\
         **How to read a message.** The first line names the rule and its numbers (a mode, a \
         size, a stride, a witness); `help:` (or `note: help:` for the trait-bound rules) is the \
         fix; the arrow points at the offending token. Modes are numbered from 0 in the order \
         the layout is written — under `cute`, in CuTe order — and nested modes are paths like \
         `(1,0)`. [Getting started](getting-started.md#7-read-an-error) walks through one \
         message line by line; [spaces and the rules](guide.md#2-spaces-and-the-rules) states \
         the rules themselves.\n\n",
    );
    let mut n = 0;
    for (i, s) in SECTIONS.iter().enumerate() {
        let heading = format!("{}. {}", i + 1, s.title);
        let _ = writeln!(p, "- [{heading}](#{})", slug(&heading));
        for c in s.cases {
            let _ = writeln!(p, "  - [{}](#{})", c.title, slug(c.title));
        }
    }
    for (i, s) in SECTIONS.iter().enumerate() {
        let _ = write!(p, "\n## {}. {}\n\n{}\n", i + 1, s.title, s.intro);
        for c in s.cases {
            n += 1;
            let stderr = snapshot(c.file);
            let _ = write!(
                p,
                "\n### {}\n\n{} Case: [`{}`](../ui-tests/ui/{}).\n\n```text\n{}\n```\n",
                c.title,
                c.about,
                c.file,
                c.file,
                stderr.trim_end()
            );
        }
    }
    let _ = write!(
        p,
        "\n---\n\n{n} cases. A new rule gets a case in `ui-tests/ui/` (one rejected rule per \
         file), its snapshot (`TRYBUILD=overwrite cargo test -p layout-ui-tests`) and an entry \
         in `ui-tests/tests/gallery.rs`; then regenerate this page.\n"
    );
    p
}

#[test]
fn gallery_is_current() {
    let path = workspace().join("docs").join("diagnostics.md");
    let want = render();
    if std::env::var_os("UPDATE_GALLERY").is_some() {
        fs::write(&path, &want).expect("write docs/diagnostics.md");
        return;
    }
    let have = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .replace("\r\n", "\n");
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
        panic!(
            "docs/diagnostics.md is stale (first difference at line {}): regenerate it with \
             `UPDATE_GALLERY=1 cargo test -p layout-ui-tests --test gallery`\n  page:     {:?}\n  \
             expected: {:?}",
            line + 1,
            have.lines().nth(line),
            want.lines().nth(line),
        );
    }
}

#[test]
fn every_case_is_in_the_gallery() {
    let mut listed = BTreeSet::new();
    let mut titles = BTreeSet::new();
    for s in SECTIONS {
        for c in s.cases {
            assert!(listed.insert(c.file), "{} is listed twice", c.file);
            assert!(
                titles.insert(slug(c.title)),
                "two entries share the anchor of {:?}",
                c.title
            );
            assert!(
                ui_dir().join(c.file).exists(),
                "{} is listed but does not exist",
                c.file
            );
        }
    }
    let mut cases = BTreeSet::new();
    for family in fs::read_dir(ui_dir()).expect("ui/") {
        let family = family.expect("entry").path();
        if !family.is_dir() {
            continue;
        }
        for entry in fs::read_dir(&family).expect("family") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(ui_dir()).expect("under ui/");
                cases.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let listed: BTreeSet<String> = listed.into_iter().map(String::from).collect();
    let missing: Vec<_> = cases.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "cases without a gallery entry (add them to SECTIONS in ui-tests/tests/gallery.rs): \
         {missing:?}"
    );
}

/// The ```` ```text ```` blocks of a markdown file, with the line each starts on.
fn text_blocks(md: &str) -> Vec<(usize, Vec<&str>)> {
    let mut blocks = Vec::new();
    // The open fence: its first line, whether it is `text`, and its lines so far.
    let mut open: Option<(usize, bool, Vec<&str>)> = None;
    for (i, line) in md.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if let Some((start, is_text, lines)) = &mut open {
            if !fence {
                lines.push(line);
                continue;
            }
            if *is_text {
                blocks.push((*start, std::mem::take(lines)));
            }
            open = None;
        } else if fence {
            let info = line.trim_start().trim_start_matches('`').trim();
            open = Some((i + 1, info == "text", Vec::new()));
        }
    }
    blocks
}

#[test]
fn quoted_messages_match_the_snapshots() {
    let root = workspace();
    let mut pages = vec![root.join("README.md")];
    for entry in fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut quotes = 0;
    for page in &pages {
        let md = fs::read_to_string(page).expect("page");
        for (start, block) in text_blocks(&md) {
            // A block may quote several messages, separated by blank lines.
            for chunk in block.split(|l| l.trim().is_empty()) {
                let Some(case) = chunk.iter().find_map(|l| {
                    let rest = l.trim_start().strip_prefix("--> ui/")?;
                    Some(rest.split(':').next()?.to_string())
                }) else {
                    continue;
                };
                quotes += 1;
                let snap = snapshot(&case);
                let lines: Vec<&str> = snap.lines().map(str::trim_end).collect();
                let quoted: Vec<&str> = chunk.iter().map(|l| l.trim_end()).collect();
                let found = lines.windows(quoted.len()).any(|w| w == quoted.as_slice());
                assert!(
                    found,
                    "{} (block at line {start}) quotes a message of ui/{case} that is not in its \
                     current snapshot ui/{}; copy it again from the .stderr file:\n{}",
                    page.display(),
                    Path::new(&case).with_extension("stderr").display(),
                    quoted.join("\n")
                );
            }
        }
    }
    assert!(quotes >= 55, "only {quotes} quoted messages found in docs/");
}

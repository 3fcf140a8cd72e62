"""Generates the compile-time checking workloads: the same N layouts and compositions as
`layout!` items (a Rust crate, checked by `cargo check`) and as CuTe static layouts with
`static_assert`s (one C++ file, checked by `g++ -fsyntax-only`).

Every group is one thread-value layout, one shared-memory layout over the same tile and their
composition, so a third of the N checked units are compositions. The thread-value layouts are
the corpus MMA atoms (tests/data/cute_corpus.json, `mma_atom`), and tiled GEMM partitions of
them (the atom repeated over a grid of warps and values, CTA tiles of at most 128×256); the
shared-memory layouts are
row-major, column-major, padded and swizzled (`Swizzle<B,M,S>`) tiles. Everything is written in
CuTe order on both sides (`layout!(cute ...)`), so the two files declare the same functions.

    python3 bench/gen_check.py OUT_DIR N [N ...]

writes OUT_DIR/rust_nN/{Cargo.toml,src/lib.rs} and OUT_DIR/cute_nN.cpp for each N.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def leaves(t):
    if isinstance(t, int):
        return [t]
    return [x for c in t for x in leaves(c)]


def fmt(t):
    if isinstance(t, int):
        return str(t)
    return "(" + ",".join(fmt(c) for c in t) + ")"


def parse(text):
    """CuTe text `(a,(b,c)):(d,(e,f))` -> (shape, stride) nested tuples."""

    def tree(s):
        s = s.strip()
        if not s.startswith("("):
            return int(s)
        depth, parts, cur = 0, [], ""
        for ch in s[1:-1]:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "("
            depth -= ch == ")"
            cur += ch
        parts.append(cur)
        return tuple(tree(p) for p in parts)

    shape, stride = text.split(":")
    return tree(shape), tree(stride)


def evaluate(layout, i):
    """CuTe order: the first leaf varies fastest."""
    shape, stride = layout
    acc = 0
    for n, d in zip(leaves(shape), leaves(stride)):
        acc += (i % n) * d
        i //= n
    return acc


def size(layout):
    p = 1
    for n in leaves(layout[0]):
        p *= n
    return p


def cosize(layout):
    return 1 + sum((n - 1) * d for n, d in zip(leaves(layout[0]), leaves(layout[1])))


def dense(layout):
    """Lemma 1 (spec: Dense bijections): without size-1 leaves, sorted by stride, the strides are 1, n1, n1n2..."""
    pairs = sorted((d, n) for n, d in zip(leaves(layout[0]), leaves(layout[1])) if n > 1)
    want = 1
    for d, n in pairs:
        if d != want:
            return False
        want *= n
    return True


def swizzle(b, m, s, x):
    return x ^ (((x >> (m + s)) & ((1 << b) - 1)) << m)


def cpp_tree(t, fn):
    if isinstance(t, int):
        return f"Int<{t}>{{}}"
    return f"{fn}(" + ",".join(cpp_tree(c, fn) for c in t) + ")"


def cpp_layout(layout):
    return f"make_layout({cpp_tree(layout[0], 'make_shape')}, {cpp_tree(layout[1], 'make_stride')})"


def atoms():
    """Dense TV layouts of the corpus MMA atoms: (name, layout, tile (P, Q)), CuTe order."""
    with open(os.path.join(ROOT, "tests", "data", "cute_corpus.json")) as f:
        corpus = json.load(f)
    out, seen = [], set()
    for case in corpus:
        if case["op"] != "mma_atom":
            continue
        i = case["inputs"]
        for part, tile in (("A", (i["M"], i["K"])), ("B", (i["N"], i["K"])), ("C", (i["M"], i["N"]))):
            layout = parse(i[part])
            key = (fmt(layout[0]), fmt(layout[1]), tile)
            if size(layout) > 1 and dense(layout) and key not in seen:
                seen.add(key)
                out.append((f"{i['name']}.{part}", layout, tile))
    return out


def drop_ones(shape, stride):
    pairs = [(n, d) for n, d in zip(shape, stride) if n != 1]
    if not pairs:
        return 1, 0
    if len(pairs) == 1:
        return pairs[0]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def tiled(atom, a, b, c, d):
    """The atom repeated over a × b warps (threads) and c × d values: a TV layout over the tile
    (P·a·c, Q·b·d), index p + P'·q. None when an atom stride crosses both tile modes."""
    (thr_shape, val_shape), (thr_stride, val_stride) = atom[1][0], atom[1][1]
    p, q = atom[2]
    big_p, big_q = p * a * c, q * b * d

    def remap(t):
        if isinstance(t, int):
            if t >= p and t % p:
                raise ValueError
            return t % p + big_p * (t // p)
        return tuple(remap(x) for x in t)

    try:
        ts, vs = remap(thr_stride), remap(val_stride)
    except ValueError:
        return None
    thr = drop_ones((thr_shape, a, b), (ts, p, big_p * q))
    val = drop_ones((val_shape, c, d), (vs, p * a, big_p * q * b))
    layout = ((thr[0], val[0]), (thr[1], val[1]))
    assert dense(layout), layout
    return (f"{atom[0]}x{a}{b}{c}{d}", layout, (big_p, big_q))


MAX_TILE = 128 * 256

SWIZZLES = [(3, 3, 3), (2, 3, 3), (1, 3, 3), (3, 4, 3), (2, 4, 3), (3, 2, 3), (2, 2, 3)]


def smem(rng, tile):
    """A shared-memory layout over `tile` (CuTe order): (layout, swizzle or None, text)."""
    m, k = tile
    kind = rng.choice(["row", "col", "padded", "swizzled", "swizzled"])
    if kind == "row":
        return ((m, k), (k, 1)), None
    if kind == "col":
        return ((m, k), (1, m)), None
    if kind == "padded":
        pad = rng.choice([1, 2, 4, 8])
        return ((m, k), (k + pad, 1)) if rng.random() < 0.5 else ((m, k), (1, m + pad)), None
    fits = [s for s in SWIZZLES if (1 << (s[0] + s[1] + s[2])) <= m * k]
    if not fits:
        return ((m, k), (k, 1)), None
    return ((m, k), (k, 1)), rng.choice(fits)


def groups(n):
    """Deterministic list of (tv, smem layout, swizzle) groups, enough for n units."""
    rng = random.Random(0x1A40)
    base = atoms()
    tvs = list(base)
    for atom in base:
        for a in (1, 2, 4):
            for b in (1, 2, 4):
                for c in (1, 2):
                    for d in (1, 2):
                        if (a, b, c, d) != (1, 1, 1, 1):
                            t = tiled(atom, a, b, c, d)
                            # Real CTA tiles: at most 128×256 positions.
                            if t and size(t[1]) <= MAX_TILE:
                                tvs.append(t)
    seen, unique = set(), []
    for t in tvs:
        key = (fmt(t[1][0]), fmt(t[1][1]), t[2])
        if key not in seen:
            seen.add(key)
            unique.append(t)
    # The atoms first (the real shapes), then the tiled partitions in a fixed random order.
    head, tail = unique[: len(base)], unique[len(base):]
    rng.shuffle(tail)
    tvs = head + tail
    out = []
    for i in range((n + 2) // 3):
        tv = tvs[i % len(tvs)]
        layout, sw = smem(rng, tv[2])
        out.append((tv, layout, sw))
    return out


def rust_source(n):
    lines = [
        "//! Generated by bench/gen_check.py: layouts and compositions checked by `cargo check`.",
        "#![allow(dead_code, unused_imports)]",
        "use layout_typed::prelude::*;",
        "",
    ]
    bodies = []
    units = 0
    for g, (tv, layout, sw) in enumerate(groups(n)):
        if units >= n:
            break
        p, q = tv[2]
        lines.append(
            f"layout! {{ pub const T{g} = cute {fmt(tv[1][0])}:{fmt(tv[1][1])}, "
            f"thread-value -> logical({p},{q}); }}"
        )
        units += 1
        if units >= n:
            break
        swz = f", Swizzle<{sw[0]},{sw[1]},{sw[2]}> over elements" if sw else ""
        lines.append(
            f"layout! {{ pub const S{g} = cute {fmt(layout[0])}:{fmt(layout[1])}, "
            f"logical({p},{q}) -> physical{swz}; }}"
        )
        units += 1
        if units >= n:
            break
        bodies.append(f"    acc += layout!(compose(S{g}, T{g})).offset(i % {p * q}) as i64;")
        units += 1
    for k in range(0, len(bodies), 50):
        lines.append(f"\npub fn body{k // 50}(i: usize) -> i64 {{\n    let mut acc = 0i64;")
        lines.extend(bodies[k : k + 50])
        lines.append("    acc\n}")
    return "\n".join(lines) + "\n", units


def cpp_source(n):
    lines = [
        "// Generated by bench/gen_check.py: CuTe static layouts and compositions with static_asserts.",
        "#include <cute/layout.hpp>",
        "#include <cute/swizzle.hpp>",
        "#include <cute/swizzle_layout.hpp>",
        "using namespace cute;",
        "",
    ]
    units = 0
    for g, (tv, layout, sw) in enumerate(groups(n)):
        if units >= n:
            break
        t = tv[1]
        lines.append(f"constexpr auto T{g} = {cpp_layout(t)};")
        lines.append(f"static_assert(size(T{g}) == {size(t)} && cosize(T{g}) == {cosize(t)});")
        units += 1
        if units >= n:
            break
        s = cpp_layout(layout)
        if sw:
            s = f"composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, {s})"
        lines.append(f"constexpr auto S{g} = {s};")
        lines.append(f"static_assert(size(S{g}) == {size(layout)} && cosize(S{g}) == {cosize(layout)});")
        units += 1
        if units >= n:
            break

        def at(i):
            v = evaluate(layout, evaluate(t, i))
            return swizzle(*sw, v) if sw else v

        last, mid = size(t) - 1, size(t) // 2 + 1
        lines.append(f"constexpr auto C{g} = composition(S{g}, T{g});")
        lines.append(
            f"static_assert(size(C{g}) == {size(t)} && C{g}({last}) == {at(last)} && C{g}({mid}) == {at(mid)});"
        )
        units += 1
    lines.append("int main() { return 0; }")
    return "\n".join(lines) + "\n", units


def main():
    out = sys.argv[1]
    typed = os.path.join(ROOT, "layout-typed")
    for n in map(int, sys.argv[2:]):
        src, units = rust_source(n)
        assert units == n, (units, n)
        crate = os.path.join(out, f"rust_n{n}")
        os.makedirs(os.path.join(crate, "src"), exist_ok=True)
        with open(os.path.join(crate, "Cargo.toml"), "w") as f:
            f.write(
                f'[package]\nname = "check_n{n}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
                f'[dependencies]\nlayout-typed = {{ path = "{typed}" }}\n\n[workspace]\n'
            )
        with open(os.path.join(crate, "src", "lib.rs"), "w") as f:
            f.write(src)
        csrc, cunits = cpp_source(n)
        assert cunits == n
        with open(os.path.join(out, f"cute_n{n}.cpp"), "w") as f:
            f.write(csrc)


if __name__ == "__main__":
    main()

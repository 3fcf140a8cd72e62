#!/usr/bin/env python3
"""Differential-test driver: NVIDIA's pycute on the calls of `tests/tests/pycute_diff.rs`.

Usage: driver.py CALLS.jsonl   (prints one JSON line per call on stdout, in order)

pycute is the reference implementation of CuTe's layout algebra in the `nvidia-cutlass` wheel
(`pip install --no-deps nvidia-cutlass`; the PyPI package named `pycute` is unrelated). This
script only calls it; nothing of it is copied into the workspace.

Input, one call per line: {"id": N, "op": NAME, "args": [ARG, ...]} where a layout is
{"shape": S, "stride": D} (S, D nested lists or integers, CuTe order), a tiler is null (CuTe's
`_`), an integer, a layout or a list of tilers (by mode), a cotarget an integer and a coalesce
profile a nested list or an integer.

Output, one line per call:
  {"id": N, "result": str(layout)}  or  {"id": N, "raised": "ExceptionName: message"}
plus, where the operation is built from others, "subs": the pycute calls it is made of, each
{"path": [tiler modes], "op": "complement" | "composition" | "right_inverse", "args": [text],
 "result" | "raised": ...}, so that the test can check a diagnosis against the very pycute result
that it names. The first line is {"pycute": VERSION}.

Operations pycute lacks are built from pycute's own operations exactly as C++ CuTe 4.2 defines
them: `flat_divide` / `flat_product` flatten the two groups of `zipped_divide` /
`zipped_product`; `blocked_product` / `raked_product` pad both layouts to the larger rank with
`1:0` modes (`append<R>`), take `logical_product` and zip its two halves (C++ `zip`; raked:
the halves exchanged), raising where C++'s `zip` fails its static_assert "Mismatched Ranks".

Known pycute difference, reported rather than hidden: pycute's `logical_product` sends an
integer tiler `n` to `logical_divide` (layout.py: `elif is_int(layoutB): return
logical_divide(...)`), where C++ CuTe takes the layout `n:1`. For a product whose tiler holds
integers the driver answers with the tiler's integers replaced by `Layout(n)` (C++ CuTe's
semantics, which the workspace follows) and adds "raw" (pycute's own answer) and "raw_divide"
(the matching divide), which the test checks are equal.
"""

import json
import sys
from importlib import metadata

import pycute as P


def tup(x):
    return tuple(tup(e) for e in x) if isinstance(x, list) else x


def layout(j):
    return P.Layout(tup(j["shape"]), tup(j["stride"]))


def tiler(j):
    if j is None:
        return None
    if isinstance(j, int):
        return j
    if isinstance(j, list):
        return tuple(tiler(e) for e in j)
    return layout(j)


def ints_as_layouts(t):
    """C++ CuTe's reading of an integer tiler entry: the layout n:1."""
    if isinstance(t, int):
        return P.Layout(t)
    if isinstance(t, tuple):
        return tuple(ints_as_layouts(e) for e in t)
    return t


def has_int(t):
    return isinstance(t, int) or (isinstance(t, tuple) and any(has_int(e) for e in t))


def modes(l):
    return [l[i] for i in range(len(l))]


def flat_form(z):
    return P.make_layout(modes(z[0]) + modes(z[1]))


def append(l, r):
    """C++ `append<R>(layout)`: pad with 1:0 modes up to rank R."""
    if len(l) >= r:
        return l
    return P.make_layout(modes(l) + [P.Layout(1, 0)] * (r - len(l)))


def zip_halves(first, second):
    """C++ `zip(first, second)` of two layouts (tuple_algorithms.hpp): an integer-shaped first
    gives ((first, second)); two tuples of the same rank are zipped mode by mode; anything
    else fails C++'s static_assert "Mismatched Ranks"."""
    if not isinstance(first.shape, tuple):
        return P.make_layout([P.make_layout(first, second)])
    if isinstance(second.shape, tuple) and len(first.shape) == len(second.shape):
        return P.make_layout([P.make_layout(first[i], second[i]) for i in range(len(first))])
    raise AssertionError("Mismatched Ranks (C++ static_assert in zip)")


def rank_product(a, b, swap):
    r = max(len(a), len(b))
    p = P.logical_product(append(a, r), append(b, r))
    return zip_halves(p[1], p[0]) if swap else zip_halves(p[0], p[1])


def answer(f):
    try:
        return {"result": str(f())}
    except Exception as e:  # pycute signals refusals with AssertionError, ZeroDivisionError, ...
        return {"raised": f"{type(e).__name__}: {e}"}


def record(subs, path, op, args, f):
    entry = {"path": path, "op": op, "args": [str(a) for a in args]}
    entry.update(answer(f))
    subs.append(entry)
    return entry


def call_and_keep(subs, path, op, args, f):
    """Like `record`, keeping the value for the next step."""
    box = {}

    def g():
        box["v"] = f()
        return box["v"]

    record(subs, path, op, args, g)
    return box.get("v")


def by_mode(a, t, path, subs, leaf):
    """Walks a tiler as pycute does (None keeps the mode, a tuple goes by mode, an integer is
    the layout n:1) and calls `leaf` at every layout entry."""
    if t is None:
        return
    if isinstance(t, int):
        t = P.Layout(t)
    if isinstance(t, tuple):
        if len(a) < len(t):
            return
        for i, ti in enumerate(t):
            by_mode(a[i], ti, path + [i], subs, leaf)
        return
    leaf(a, t, path, subs)


def composition_subs(a, b, path, subs):
    record(subs, path, "composition", [a, b], lambda: P.composition(a, b))


def divide_subs(a, b, path, subs):
    rest = call_and_keep(subs, path, "complement", [b, P.size(a)],
                         lambda: P.complement(b, P.size(a)))
    if rest is not None:
        tile = P.make_layout(b, rest)
        record(subs, path, "composition", [a, tile], lambda: P.composition(a, tile))


def product_subs(a, b, path, subs):
    cotarget = P.size(a) * P.cosize(b)
    rest = call_and_keep(subs, path, "complement", [a, cotarget],
                         lambda: P.complement(a, cotarget))
    if rest is not None:
        record(subs, path, "composition", [rest, b], lambda: P.composition(rest, b))


DIVIDES = {
    "logical_divide": P.logical_divide,
    "zipped_divide": P.zipped_divide,
    "tiled_divide": P.tiled_divide,
    "flat_divide": lambda a, t: flat_form(P.zipped_divide(a, t)),
}
PRODUCTS = {
    "logical_product": P.logical_product,
    "zipped_product": P.zipped_product,
    "tiled_product": P.tiled_product,
    "flat_product": lambda a, t: flat_form(P.zipped_product(a, t)),
}
DIVIDE_OF = dict(zip(PRODUCTS, DIVIDES))


def run(call):
    op, args = call["op"], call["args"]
    out = {"id": call["id"]}
    subs = []
    if op == "coalesce":
        l = layout(args[0])
        profile = tup(args[1]) if len(args) > 1 else None
        out.update(answer(lambda: P.coalesce(l, profile)))
    elif op == "composition":
        a, t = layout(args[0]), tiler(args[1])
        out.update(answer(lambda: P.composition(a, t)))
        by_mode(a, t, [], subs, composition_subs)
    elif op == "complement":
        l = layout(args[0])
        out.update(answer(lambda: P.complement(l, args[1])))
    elif op in DIVIDES:
        a, t = layout(args[0]), tiler(args[1])
        out.update(answer(lambda: DIVIDES[op](a, t)))
        by_mode(a, t, [], subs, divide_subs)
    elif op in PRODUCTS:
        a, t = layout(args[0]), tiler(args[1])
        cpp = ints_as_layouts(t)
        out.update(answer(lambda: PRODUCTS[op](a, cpp)))
        if has_int(t):
            out["raw"] = answer(lambda: PRODUCTS[op](a, t))
            out["raw_divide"] = answer(lambda: DIVIDES[DIVIDE_OF[op]](a, t))
        by_mode(a, cpp, [], subs, product_subs)
    elif op in ("blocked_product", "raked_product"):
        a, b = layout(args[0]), layout(args[1])
        out.update(answer(lambda: rank_product(a, b, op == "raked_product")))
        r = max(len(a), len(b))
        product_subs(append(a, r), append(b, r), [], subs)
    elif op == "right_inverse":
        l = layout(args[0])
        out.update(answer(lambda: P.right_inverse(l)))
    elif op == "left_inverse":
        l = layout(args[0])
        out.update(answer(lambda: P.left_inverse(l)))
        record(subs, [], "complement", [l, 1], lambda: P.complement(l))
    else:
        raise SystemExit(f"unknown op {op!r}")
    if subs:
        out["subs"] = subs
    return out


def main():
    print(json.dumps({"pycute": metadata.version("nvidia-cutlass")}))
    with open(sys.argv[1]) as f:
        for line in f:
            if line.strip():
                print(json.dumps(run(json.loads(line))))


if __name__ == "__main__":
    main()

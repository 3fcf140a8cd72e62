#!/usr/bin/env python3
"""SASS instruction counts of the GEMM kernels, from `cuobjdump --dump-sass` output.

Usage: gemm_sass.py SASS_TXT [PTXAS_TXT]

Per kernel (ours: names holding `gen_gemm` (the mma.sync HGEMM) or `hg_gemm` (the TMA + wgmma
GEMM); CuTe's tutorial kernels: `gemm_device`, told apart by their template arguments: with
`SM90_TMA_LOAD` hopper/wgmma_tma_sm90, with a GMMA `MMA_64x64x16` hopper/wgmma_sm90, else
sgemm_sm80; the tutorials' NT instantiations, compiled but never run, are left out):
  - total: the function's instructions without the NOP padding at its end (and without the
    never-executed `@!PT` placeholders, here and below); MMA: its HMMA (mma.sync) and HGMMA
    (wgmma) instructions;
  - the main loop: among the backward branches (a `BRA` whose target lies before it), the one whose
    body [target, branch] holds the most MMA (on a tie, the shortest body: the innermost loop);
    its body is one iteration; counted: all instructions, MMA, LDSM, LDGSTS (cp.async), TMA
    (UTMALDG and the other UTMA*/UBLK* bulk copies), SYNCS (mbarrier arrive, expect-tx, wait), BAR,
    and the others (integer/address arithmetic, predicates, moves, DEPBAR, WARPGROUP arrive and
    wait, the branch), with the others listed by opcode. An mbarrier wait's retry loop nested in
    the body counts once, as written. Without MMA in any loop, the longest loop is shown, marked so;
  - the TMA loop, where it is another loop than the main loop (a producer warp's, in a
    warp-specialised kernel): the loop with the most TMA instructions (on a tie, the shortest),
    counted the same way, in a row of its own below the kernel's;
  - from PTXAS_TXT (`nvcc -Xptxas -v` output): registers, barriers, static shared memory.
"""
import re
import subprocess
import sys
from collections import Counter

INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNC = re.compile(r"^\s*Function : (\S+)")
# `BRA 0x1230`, `BRA.U !UP0, 0x1230`, `BRA `(.L_x_12)`-style forms: the last address is the target
BRANCH_TARGET = re.compile(r"\bBRA(?:\.\w+)*\s+(?:!?U?P[T0-9]+\s*,\s*)?`?\(?(0x[0-9a-f]+)")
NAMED = ("MMA", "LDSM", "LDGSTS", "TMA", "SYNCS", "BAR")


def named_class(base):
    """The counted class of an opcode's base (its first dot-separated word), or None."""
    if base in ("HMMA", "HGMMA"):
        return "MMA"
    if base.startswith("UTMA") or base.startswith("UBLK"):
        return "TMA"
    if base in ("LDSM", "LDGSTS", "SYNCS", "BAR"):
        return base
    return None


def demangle(name):
    for tool in ("cu++filt", "c++filt"):
        try:
            out = subprocess.run([tool, name], capture_output=True, text=True, check=True).stdout.strip()
            return out or name
        except (OSError, subprocess.CalledProcessError):
            continue
    return name


def cute_label(name):
    """CuTe's tutorial kernels by their template arguments (a mangled or a demangled name)."""
    if "gemm_device" not in name:
        return None
    if "SM90_TMA_LOAD" in name:
        base = "cute_wgmma_tma_sm90"
    elif "MMA_64x64x16" in name:
        base = "cute_wgmma_sm90"
    else:
        base = "cute_sgemm_sm80"
    # GMMA::Major::MN (1) operands: the tutorials' gemm_nt, compiled for their main, never run here.
    if re.search(r"5MajorE1|GMMA::Major\)1|Major::MN", name):
        return base + "_nt"
    return base + "_tn"


def label(name):
    if name.startswith("gen_gemm") or name.startswith("hg_gemm"):
        return name
    if "gen_gemm" in name or "hg_gemm" in name:  # a C++ (mangled) name: `void f<...>(...)` without `void `
        d = demangle(name)
        d = d[5:] if d.startswith("void ") else d
        return d.split("(")[0]
    lab = cute_label(name)
    if lab is None or lab.endswith("_nt"):
        return None
    return lab


def opcode(text):
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def parse(path):
    funcs, cur = {}, None
    with open(path) as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                cur = m.group(1)
                funcs[cur] = []
                continue
            m = INSTR.match(line)
            # `@!PT` instructions never execute (ptxas's placeholders, e.g. `@!PT LDS RZ, [RZ]`).
            if m and cur is not None and not m.group(2).lstrip().startswith("@!PT"):
                funcs[cur].append((int(m.group(1), 16), m.group(2)))
    return funcs


def trim_padding(instrs):
    # The function ends with `BRA self` (the trap loop) followed by NOP padding.
    end = len(instrs)
    while end > 0 and opcode(instrs[end - 1][1]) == "NOP":
        end -= 1
    return instrs[:end]


def loops(instrs):
    out = []
    for i, (addr, text) in enumerate(instrs):
        if opcode(text).split(".")[0] != "BRA":
            continue
        m = BRANCH_TARGET.search(text)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target < addr:
            body = [t for a, t in instrs if target <= a <= addr]
            out.append((target, addr, body))
    return out


def classify(body):
    named = Counter()
    other = Counter()
    for t in body:
        op = opcode(t)
        cls = named_class(op.split(".")[0])
        if cls:
            named[cls] += 1
        else:
            other[op] += 1
    return named, other


def loop_row(name, loop):
    named, other = classify(loop[2])
    n_other = sum(other.values())
    row = (name, "", "", len(loop[2])) + tuple(named[c] for c in NAMED) + (n_other,)
    ops = ", ".join("%s %d" % (op, n) for op, n in sorted(other.items(), key=lambda kv: (-kv[1], kv[0])))
    return row, ops or "-"


def ptxas_info(path):
    info, cur = {}, None
    if not path:
        return info
    try:
        with open(path) as f:
            for line in f:
                m = re.search(r"Compiling entry function '([^']+)'", line)
                if m:
                    cur = m.group(1)
                    continue
                m = re.search(r"Used (\d+) registers(.*)", line)
                if m and cur:
                    rest = m.group(2)
                    bar = re.search(r"used (\d+) barriers", rest)
                    smem = re.search(r"(\d+) bytes smem", rest)
                    info[cur] = (int(m.group(1)), bar.group(1) if bar else "0",
                                 smem.group(1) if smem else "0")
                    cur = None
    except OSError:
        pass
    return info


FMT = "%-30s %6s %5s | %-5s %5s %5s %7s %4s %5s %4s %6s"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    funcs = parse(sys.argv[1])
    regs = ptxas_info(sys.argv[2] if len(sys.argv) > 2 else None)
    rows, details = [], []
    for name, instrs in sorted(funcs.items(), key=lambda kv: (label(kv[0]) or "", kv[0])):
        lab = label(name)
        if lab is None:
            continue
        body_all = trim_padding(instrs)
        total = len([1 for _, t in body_all if opcode(t) != "NOP"])
        named_all, _ = classify([t for _, t in body_all])
        ls = loops(body_all)
        best, note = None, ""
        if ls:
            best = min(ls, key=lambda l: (-classify(l[2])[0]["MMA"], len(l[2])))
            if classify(best[2])[0]["MMA"] == 0:
                best = max(ls, key=lambda l: len(l[2]))
                note = " (no MMA in any loop: the longest loop)"
        r = regs.get(name)
        reg = "%s regs, %s bar, %s B static smem" % r if r else "ptxas: -"
        if best is None:
            rows.append((lab, total, named_all["MMA"]) + ("-",) * 8)
            details.append("%s: %d instructions, no loop; %s" % (lab, total, reg))
            continue
        row, ops = loop_row(lab, best)
        rows.append((lab, total, named_all["MMA"]) + row[3:])
        details.append("%s: %s; main loop 0x%04x..0x%04x%s\n    others: %s" % (lab, reg, best[0], best[1], note, ops))
        tma = [l for l in ls if classify(l[2])[0]["TMA"] > 0]
        if tma:
            prod = min(tma, key=lambda l: (-classify(l[2])[0]["TMA"], len(l[2])))
            if prod[:2] != best[:2]:
                row, ops = loop_row("  TMA loop", prod)
                rows.append(row)
                details.append("%s: TMA loop 0x%04x..0x%04x\n    others: %s" % (lab, prod[0], prod[1], ops))
    print(FMT % ("kernel", "total", "MMA", "loop", "MMA", "LDSM", "LDGSTS", "TMA", "SYNCS", "BAR", "other"))
    for row in rows:
        print(FMT % row)
    print("(total: the function's instructions without the NOP padding; MMA: HMMA and HGMMA, in the whole")
    print(" function; loop ..: one iteration of the main loop, the backward branch around the most MMA;")
    print(" TMA loop: the loop around the most TMA instructions, where it is another one)")
    for d in details:
        print(d)
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""SASS instruction counts of the GEMM kernels, from `cuobjdump --dump-sass` output.

Usage: gemm_sass.py SASS_TXT [PTXAS_TXT]

Per kernel (ours: names starting with `gen_gemm`; CuTe's tutorial kernel: `gemm_device`):
  - total: the function's instructions without the NOP padding at its end (and without the
    never-executed `@!PT` placeholders, here and below);
  - the main loop: among the backward branches (a `BRA` whose target lies before it), the one whose
    body [target, branch] holds the most HMMA (on a tie, the shortest body: the innermost loop);
    its body is one iteration; counted: all instructions, HMMA, LDSM, LDGSTS (cp.async), BAR,
    and the others (integer/address arithmetic, predicates, moves, DEPBAR, the branch), with the
    others listed by opcode. Without HMMA in any loop, the longest loop is shown, marked so;
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
NAMED = ("HMMA", "LDSM", "LDGSTS", "BAR")


def demangle(name):
    for tool in ("cu++filt", "c++filt"):
        try:
            out = subprocess.run([tool, name], capture_output=True, text=True, check=True).stdout.strip()
            return out or name
        except (OSError, subprocess.CalledProcessError):
            continue
    return name


def label(name):
    if name.startswith("gen_gemm"):
        return name
    if "gen_gemm" in name:  # a C++ (mangled) name: `void gen_gemm...<...>(...)` without `void `
        d = demangle(name)
        d = d[5:] if d.startswith("void ") else d
        return d.split("(")[0]
    if "gemm_device" in name:
        return "cute_sgemm_sm80_tn"
    return None


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
        base = op.split(".")[0]
        if base in NAMED:
            named[base] += 1
        else:
            other[op] += 1
    return named, other


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
            def key(l):
                return (-classify(l[2])[0]["HMMA"], len(l[2]))
            best = min(ls, key=key)
            if classify(best[2])[0]["HMMA"] == 0:
                best = max(ls, key=lambda l: len(l[2]))
                note = " (no HMMA in any loop: the longest loop)"
        r = regs.get(name)
        reg = "%s regs, %s bar, %s B static smem" % r if r else "ptxas: -"
        if best is None:
            rows.append((lab, total, named_all["HMMA"], "-", "-", "-", "-", "-", "-"))
            details.append("%s: %d instructions, no loop; %s" % (lab, total, reg))
            continue
        named, other = classify(best[2])
        n_other = sum(other.values())
        rows.append((lab, total, named_all["HMMA"], len(best[2]), named["HMMA"], named["LDSM"],
                     named["LDGSTS"], named["BAR"], n_other))
        ops = ", ".join("%s %d" % (op, n) for op, n in sorted(other.items(), key=lambda kv: (-kv[1], kv[0])))
        details.append("%s: %s; main loop 0x%04x..0x%04x%s\n    others: %s"
                       % (lab, reg, best[0], best[1], note, ops or "-"))
    print("%-26s %6s %5s | %-5s %5s %5s %7s %4s %6s" % (
        "kernel", "total", "HMMA", "loop", "HMMA", "LDSM", "LDGSTS", "BAR", "other"))
    for row in rows:
        print("%-26s %6s %5s | %-5s %5s %5s %7s %4s %6s" % row)
    print("(total: the function's instructions without the NOP padding; HMMA: in the whole function;")
    print(" loop ..: one iteration of the main loop, the backward branch around the most HMMA)")
    for d in details:
        print(d)
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())

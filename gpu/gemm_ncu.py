#!/usr/bin/env python3
"""The ncu side of gpu/gemm.sh.

  gemm_ncu.py metrics QUERY_TXT   the metrics to collect, comma-separated, keeping only those whose
                                  base name `ncu --query-metrics` (QUERY_TXT) lists; every wanted
                                  metric when QUERY_TXT lists none (the query failed)
  gemm_ncu.py summary NCU_CSV     a compact per-kernel summary of `ncu --csv --page raw` output
                                  (CuTe's tutorial kernels named as gemm_sass.py names them)
"""
import csv
import re
import sys

from gemm_sass import cute_label

STALL = re.compile(r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active$")
# The tensor pipes besides hmma that `ncu --query-metrics` lists (on sm_90 the wgmma one, if it
# has a name of its own there), each as a percentage of its peak.
PIPE = re.compile(r"^sm__pipe_tensor_op_(\w+)_cycles_active$")
WANTED = [
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg.per_second",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_dynamic",
    "launch__cluster_dim_x",
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "smsp__inst_executed.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_sector_hit_rate.pct",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    "smsp__average_warps_active_per_issue_active.ratio",
]
STALL_REASONS = ["barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss", "lg_throttle",
                 "long_scoreboard", "math_pipe_throttle", "membar", "mio_throttle", "misc",
                 "no_instruction", "not_selected", "selected", "short_scoreboard", "sleeping",
                 "tex_throttle", "wait"]


def metrics(query_path):
    bases = set()
    try:
        with open(query_path) as f:
            for line in f:
                w = line.split()
                if w and "__" in w[0]:
                    bases.add(w[0])
    except OSError:
        pass
    stalls = sorted("smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % STALL.match(b).group(1)
                    for b in bases if STALL.match(b))
    if not bases:
        stalls = ["smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % r for r in STALL_REASONS]
    pipes = sorted("%s.avg.pct_of_peak_sustained_active" % b for b in bases
                   if PIPE.match(b) and PIPE.match(b).group(1) != "hmma")
    want = WANTED + pipes + stalls
    keep = [m for m in want if not bases or m.split(".")[0] in bases]
    print(",".join(keep))
    return 0


def num(v):
    try:
        return float(v.replace(",", ""))
    except (ValueError, AttributeError):
        return None


def summary(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    rows = list(csv.reader(lines))
    header = next((r for r in rows if "Kernel Name" in r), None)
    if header is None:
        print("ncu: no data in %s" % path)
        return 1
    col = {name: i for i, name in enumerate(header)}
    units = rows[rows.index(header) + 1] if rows.index(header) + 1 < len(rows) else []
    data = [r for r in rows if r and r[0].isdigit() and len(r) == len(header)]

    def get(r, name):
        return num(r[col[name]]) if name in col else None

    def unit(name):
        return units[col[name]] if name in col and col[name] < len(units) else ""

    for r in data:
        name = r[col["Kernel Name"]]
        short = cute_label(name) or name.split("(")[0]
        short = short[5:] if short.startswith("void ") else short
        print("%s (grid %s, block %s)" % (short, r[col["Grid Size"]] if "Grid Size" in col else "?",
                                          r[col["Block Size"]] if "Block Size" in col else "?"))

        def show(label, name, fmt="%.1f"):
            v = get(r, name)
            return ("%s %s %s" % (label, fmt % v if v is not None else "-", unit(name) if v is not None else "")).rstrip()

        print("  " + ", ".join([
            show("time", "gpu__time_duration.sum", "%.0f"),
            show("SM clock", "sm__cycles_elapsed.avg.per_second", "%.4g"),
            show("tensor pipe", "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"),
            show("issue slots", "smsp__issue_active.avg.pct_of_peak_sustained_active"),
        ] + [show("%s pipe" % PIPE.match(n.split(".")[0]).group(1), n) for n in col
             if PIPE.match(n.split(".")[0]) and not n.startswith("sm__pipe_tensor_op_hmma")]))
        print("  " + ", ".join([
            show("registers", "launch__registers_per_thread", "%.0f"),
            show("dynamic smem", "launch__shared_mem_per_block_dynamic", "%.0f"),
            show("cluster x", "launch__cluster_dim_x", "%.0f"),
        ]))
        print("  " + ", ".join([
            show("occupancy achieved", "sm__warps_active.avg.pct_of_peak_sustained_active"),
            show("theoretical", "sm__maximum_warps_per_active_cycle_pct"),
            show("dram", "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            show("L2 hit", "lts__t_sector_hit_rate.pct"),
            show("instructions", "smsp__inst_executed.sum", "%.4g"),
        ]))
        parts = []
        for op in ("ld", "st", "ldsm", "ldgsts"):
            c = get(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % op)
            w = get(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % op)
            if c is not None or w is not None:
                parts.append("%s %s/%s" % (op, "%.4g" % c if c is not None else "-", "%.4g" % w if w is not None else "-"))
        print("  smem bank conflicts / wavefronts: " + (", ".join(parts) or "-"))
        stalls = []
        for n in col:
            m = re.match(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$", n)
            v = get(r, n) if m else None
            if v is not None:
                stalls.append((v, m.group(1)))
        stalls.sort(reverse=True)
        cpi = get(r, "smsp__average_warps_active_per_issue_active.ratio")
        print("  stalls, warp cycles per issued instruction%s: %s" % (
            " (of %.2f in all)" % cpi if cpi is not None else "",
            ", ".join("%s %.2f" % (s, v) for v, s in stalls[:8]) or "-"))
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("metrics", "summary"):
        print(__doc__)
        return 2
    return metrics(sys.argv[2]) if sys.argv[1] == "metrics" else summary(sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())

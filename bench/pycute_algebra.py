"""pycute (nvidia-cutlass 4.2.0 wheel) reference for the run-time algebra rows: the operands of
bench/benches/runtime_algebra.rs and bench/cpp/algebra.cpp. Prints `name ops_per_second`
(fastest of 7 rounds). Usage: python3 bench/pycute_algebra.py PYCUTE_PARENT_DIR"""

import sys
import timeit

sys.path.insert(0, sys.argv[1])
from pycute import Layout, coalesce, composition, right_inverse, zipped_divide  # noqa: E402

small_a = Layout((6, 2), (8, 2))
small_b = Layout((4, 3), (3, 1))
part_a = Layout(((64, 32), (2, 4)), ((128, 1), (8192, 32)))
part_tv = Layout(((16, 16), (4, 2)), ((128, 4), (1, 64)))
tile = Layout((128, 128), (128, 1))
sm80 = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))

ops = [
    ("compose_small", lambda: composition(small_a, small_b)),
    ("compose_partition", lambda: composition(part_a, (part_tv, None))),
    ("divide", lambda: zipped_divide(tile, (Layout(64, 1), Layout(32, 1)))),
    ("decide_small", lambda: coalesce(composition(small_a, small_b))),
    ("decide_partition", lambda: coalesce(composition(part_a, (part_tv, None)))),
    ("inverse_sm80", lambda: right_inverse(sm80)),
    ("inverse_partition", lambda: right_inverse(part_tv)),
]

for name, f in ops:
    f()
    n = 200
    best = min(timeit.repeat(f, number=n, repeat=7)) / n
    print(f"{name} {1.0 / best:.0f}")

"""A fixed amount of BLAS work (matrix products through numpy and
OpenBLAS), for tests/bench/outcomes: reports the threads OpenBLAS used."""
import sys

import numpy as np
from threadpoolctl import threadpool_info

n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
a = np.random.default_rng(0).random((700, 700))
for _ in range(n):
    b = a @ a
blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
print(f"blas_work=finished threads={blas[0] if blas else 1} sum={b.sum():.0f}")

"""numpy in a default multiprocessing.Pool, as a Python 3.11 user writes it
(tests/bench/outcomes): the pool's size is os.cpu_count(), the host's
before 3.13, and every worker starts OpenBLAS's threads.  Reports the
workers and the threads each one's OpenBLAS used."""
import multiprocessing
import sys

import numpy as np
from threadpoolctl import threadpool_info


def work(seed):
    a = np.random.default_rng(seed).random((600, 600))
    for _ in range(6):
        a = a @ a
        a /= a.max()
    blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    return blas[0] if blas else 1


if __name__ == "__main__":
    items = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    with multiprocessing.Pool() as pool:
        threads = pool.map(work, range(items))
        workers = pool._processes
    print(f"pool_work=finished workers={workers} threads={workers * max(threads)}")

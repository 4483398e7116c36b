"""Reports the threads OpenBLAS (through numpy) uses: threadpoolctl's count,
and the threads the process really has after a matrix product."""
import os

import numpy as np
from threadpoolctl import threadpool_info

a = np.random.default_rng(0).random((600, 600))
(a @ a).sum()
blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
print(f"blas={blas[0] if blas else 'none'} tasks={len(os.listdir('/proc/self/task'))} "
      f"cpu_count={os.cpu_count()}")

"""A fixed amount of PyTorch work on the CPU, for tests/bench/outcomes:
element-wise operators on a large tensor, which run on PyTorch's own
intra-op pool (a matrix product would run on the BLAS library's pool,
which counts CPUs its own way); reports that pool's threads."""
import sys

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
torch.manual_seed(0)
x = torch.rand(4_000_000, dtype=torch.float64)
for _ in range(n):
    y = torch.sin(x).exp().sum()
print(f"torch_work=finished threads={torch.get_num_threads()} sum={y.item():.0f}")

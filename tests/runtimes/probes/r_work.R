# mclapply() as an R user writes it (tests/bench/outcomes.sh): its default
# mc.cores is the option, 2 unless MC_CORES says otherwise, whatever the
# step holds; each item fills a vector of MIB mebibytes in the worker that
# runs it.  A worker the kernel killed returns an error, not a result:
# then the status is 137, as for a killed process.
#   Rscript r_work.R MIB
suppressMessages(library(parallel))
mib <- as.integer(commandArgs(TRUE)[1])
r <- mclapply(1:8, function(i) {
  x <- numeric(mib * 131072)
  x[] <- i
  mean(x)
})
ok <- all(vapply(r, function(v) is.numeric(v) && length(v) == 1, logical(1)))
cat("r_work=", if (ok) "finished" else "failed", " threads=", getOption("mc.cores", 2L), "\n",
    sep = "")
if (!ok) quit(status = 137)

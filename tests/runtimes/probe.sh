#!/usr/bin/env bash
# Run one runtime probe and print its KEY=VALUE line (tests/runtimes).
#   probe.sh WORK OMP_COUNT NAME [LIVE_MIB]
# WORK holds what build.sh built; LIVE_MIB is the Go churn's live set
# (the Java one, jchurn, holds 200 MiB).
set -uo pipefail
work=$1 omp=$2 name=$3 live=${4:-280}
case $name in
omp) "$omp" | cut -d' ' -f1 ;;
blas) /usr/bin/python3 "$work/blas.py" ;;
go) "$work/gomaxprocs" ;;
rayon) "$work/rayon_probe" ;;
node) /usr/bin/node "$work/node_probe.js" ;;
python)
	/usr/bin/python3 -c 'import os; print("affinity=%d cpu_count=%d" % (len(os.sched_getaffinity(0)), os.cpu_count()))' ;;
java) /usr/lib/jvm/default-java/bin/java -cp "$work/java" Probe ;;
jchurn)
	# 200 MiB live: the live set of issue 37's Java rows.
	rc=0
	out=$(/usr/lib/jvm/default-java/bin/java -cp "$work/java" Churn 200 2>/dev/null) || rc=$?
	[[ -n $out ]] || out="jchurn=killed(exit $rc)"
	echo "${out%% sum=*}" ;;
nproc) echo "nproc=$(nproc)" ;;
r)
	# mclapply()'s workers: the distinct processes its default mc.cores
	# forked (one: it ran in R itself); parallelly is the oracle.  One -e
	# a statement: Rscript takes an expression's tabs for arguments.
	/usr/bin/Rscript -e 'suppressMessages(library(parallel))' \
		-e 'w <- length(unique(unlist(mclapply(1:8, function(i) Sys.getpid()))))' \
		-e 'cat("mc_cores=", getOption("mc.cores", 2L), " workers=", w, " detect=", detectCores(), " available=", parallelly::availableCores(), "\n", sep = "")' ;;
churn)
	rc=0
	"$work/churn" -live "$live" >/dev/null 2>&1 || rc=$?
	if ((rc == 0)); then echo churn=finished; else echo "churn=killed(exit $rc)"; fi ;;
*) echo "probe.sh: unknown probe '$name'" >&2; exit 2 ;;
esac

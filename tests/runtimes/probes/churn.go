// Holds a live set of -live MiB and churns -churn MiB of garbage through
// the heap.  Go's default collector lets the heap grow to about twice the
// live set before collecting, so a live set above half the allocation gets
// the program killed unless GOMEMLIMIT tells the collector the budget.
//
// With -follow it keeps its limit in step with the cgroup's while it runs
// (Slurm 26.05 can lower a running job's memory): the pattern
// docs/runtimes.md gives Go programs.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// cgroupLimit: the lowest hard memory limit on the way from this
// process's cgroup up to the hierarchy's root (v2 memory.max, v1
// memory.limit_in_bytes); 0 when none is found.
func cgroupLimit() int64 {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	defer f.Close()
	dir, file := "", ""
	for sc := bufio.NewScanner(f); sc.Scan(); {
		parts := strings.SplitN(sc.Text(), ":", 3)
		switch {
		case len(parts) != 3:
		case parts[1] == "memory" || strings.Contains(parts[1], "memory,") || strings.HasSuffix(parts[1], ",memory"):
			dir, file = "/sys/fs/cgroup/memory"+parts[2], "memory.limit_in_bytes"
		case parts[0] == "0" && parts[1] == "" && dir == "":
			dir, file = "/sys/fs/cgroup"+parts[2], "memory.max"
		}
	}
	var low int64
	for d := filepath.Clean(dir); dir != "" && strings.HasPrefix(d, "/sys/fs/cgroup"); d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, file))
		if v, perr := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && perr == nil && (low == 0 || v < low) {
			low = v
		}
		if d == "/sys/fs/cgroup" {
			break
		}
	}
	return low
}

// follow: every 100 ms, the limit governor run set (GOMEMLIMIT) scaled by
// the cgroup's limit now against the share it was sized from
// (GOVERNOR_MEMORY_SHARE); only ever lowered.
func follow() {
	share, err := strconv.ParseInt(os.Getenv("GOVERNOR_MEMORY_SHARE"), 10, 64)
	start := debug.SetMemoryLimit(-1)
	if err != nil || share <= 0 || start == math.MaxInt64 {
		return
	}
	go func() {
		for {
			if lim := cgroupLimit(); lim > 0 && lim < share {
				want := int64(float64(start) * float64(lim) / float64(share))
				if want < debug.SetMemoryLimit(-1) {
					debug.SetMemoryLimit(want)
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
}

const chunk = 4 << 20

// Globals, so that the live set stays reachable to the end.
var kept [][]byte
var sink []byte

func main() {
	live := flag.Int("live", 280, "live set, MiB")
	churn := flag.Int("churn", 3072, "garbage to allocate, MiB")
	follows := flag.Bool("follow", false, "lower the limit with the cgroup's while running")
	flag.Parse()
	if *follows {
		follow()
	}

	kept = make([][]byte, 0, *live*(1<<20)/chunk)
	for i := 0; i < *live*(1<<20)/chunk; i++ {
		b := make([]byte, chunk)
		for j := 0; j < len(b); j += 4096 {
			b[j] = 1
		}
		kept = append(kept, b)
	}
	for i := 0; i < *churn*(1<<20)/chunk; i++ {
		sink = make([]byte, chunk)
		for j := 0; j < len(sink); j += 4096 {
			sink[j] = byte(i)
		}
	}
	sum := 0
	for _, b := range kept {
		sum += int(b[0])
	}
	fmt.Printf("churn=finished live_mib=%d memlimit_mib=%d\n", sum*chunk>>20,
		debug.SetMemoryLimit(-1)>>20)
}

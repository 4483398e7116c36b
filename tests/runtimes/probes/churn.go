// Holds a live set of -live MiB and churns -churn MiB of garbage through
// the heap.  Go's default collector lets the heap grow to about twice the
// live set before collecting, so a live set above half the allocation gets
// the program killed unless GOMEMLIMIT tells the collector the budget.
package main

import (
	"flag"
	"fmt"
	"runtime/debug"
)

const chunk = 4 << 20

// Globals, so that the live set stays reachable to the end.
var kept [][]byte
var sink []byte

func main() {
	live := flag.Int("live", 280, "live set, MiB")
	churn := flag.Int("churn", 3072, "garbage to allocate, MiB")
	flag.Parse()

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

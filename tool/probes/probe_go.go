// probe_go.go - what the Go runtime decided for this process, for
// `governor doctor --runtimes`: GOMAXPROCS and its soft memory limit
// (GOMEMLIMIT, Go 1.19+), as key=value lines.
package main

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
)

func main() {
	fmt.Printf("version=%s\nthreads=%d\n", runtime.Version(), runtime.GOMAXPROCS(0))
	// A negative value reads the limit without changing it.
	if limit := debug.SetMemoryLimit(-1); limit == math.MaxInt64 {
		fmt.Println("memory=none")
	} else {
		fmt.Printf("memory=%d\n", limit)
	}
}

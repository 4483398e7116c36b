// Reports the parallelism the Go runtime chose for itself.
package main

import (
	"fmt"
	"runtime"
)

func main() {
	fmt.Printf("gomaxprocs=%d numcpu=%d\n", runtime.GOMAXPROCS(0), runtime.NumCPU())
}

// Command extract writes one code object of a fat binary or bundle to a
// file, for scripts that feed it to llvm-objdump (isa/bench.sh):
//
//	go run ./isa/internal/extract -largest -target gfx803 LIB.so OUT.co
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/wavedbg/wavedbg/loader"
)

func main() {
	target := flag.String("target", "gfx803", "processor of the code object")
	largest := flag.Bool("largest", true, "take the largest code object for the processor (else the first)")
	all := flag.Bool("all", false, "write every code object for the processor into the directory OUT as N.co")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: extract [-target gfxNNN] [-largest] CONTAINER OUT")
		os.Exit(2)
	}
	c, err := loader.OpenContainer(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer c.Close()
	var best *loader.BundleEntry
	n := 0
	for i := range c.Entries {
		e := &c.Entries[i]
		if !e.IsAMDGPU() || e.Processor() != *target {
			continue
		}
		if *all {
			write(e, fmt.Sprintf("%s/%d.co", flag.Arg(1), n))
			n++
			continue
		}
		if best == nil || *largest && e.Size > best.Size {
			best = e
		}
	}
	if *all {
		return
	}
	if best == nil {
		fmt.Fprintf(os.Stderr, "extract: no %s code object in %s\n", *target, flag.Arg(0))
		os.Exit(1)
	}
	write(best, flag.Arg(1))
}

// write copies a code object to the file path.
func write(e *loader.BundleEntry, path string) {
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := io.Copy(out, e.Reader()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := out.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

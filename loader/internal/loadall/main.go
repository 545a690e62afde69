// Command loadall loads every code object in a file (bundle, compressed
// bundle or host ELF with .hip_fatbin) with package loader — target,
// metadata, kernel descriptors and their consistency checks — and prints
// totals. With -extract DIR it also writes each code object to DIR, so
// other tools (bench.sh runs llvm-readelf --notes) can read the same ones.
//
//	go run ./loader/internal/loadall [-extract DIR] FILE...
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wavedbg/wavedbg/loader"
)

func main() {
	extract := flag.String("extract", "", "write every code object to this directory")
	flag.Parse()
	for _, path := range flag.Args() {
		if err := run(path, *extract); err != nil {
			fmt.Fprintln(os.Stderr, "loadall:", err)
			os.Exit(1)
		}
	}
}

func run(path, extract string) error {
	c, err := loader.OpenContainer(path)
	if err != nil {
		return err
	}
	defer c.Close()
	var objects, kernels, problems int
	for i := range c.Entries {
		e := &c.Entries[i]
		if !e.IsAMDGPU() {
			continue
		}
		co, err := e.Load()
		if err != nil {
			return fmt.Errorf("%s[%s]: %w", path, e.ID, err)
		}
		objects++
		kernels += len(co.Kernels)
		for k := range co.Kernels {
			problems += len(co.Kernels[k].Check(co.Target.Processor))
		}
		if extract != "" {
			name := fmt.Sprintf("%04d-%s.co", objects, strings.NewReplacer(":", "_", "+", "on", "-", "_").Replace(e.TargetID))
			out, err := os.Create(filepath.Join(extract, name))
			if err != nil {
				return err
			}
			_, err = io.Copy(out, e.Reader())
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
	fmt.Printf("%s: %d bundles, %d code objects, %d kernels, %d descriptor/metadata disagreements\n", path, c.Bundles, objects, kernels, problems)
	return nil
}

// Command mkbundle writes clang offload bundles for loader's tests, since
// Debian ships no clang-offload-bundler:
//
//	mkbundle -o OUT [-compress zlib|zstd] [-ccob-version N] ID=FILE...
//	mkbundle -o OUT -align 4096 -concat FILE...
//
// An entry with an empty FILE (ID=) is a host entry of size 0.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/wavedbg/wavedbg/loader"
)

func main() {
	out := flag.String("o", "", "output file")
	compress := flag.String("compress", "", "compress with zlib or zstd (a CCOB bundle)")
	version := flag.Int("ccob-version", 3, "CCOB header version (1, 2 or 3)")
	concat := flag.Bool("concat", false, "concatenate the FILE arguments, each aligned")
	align := flag.Int("align", 4096, "alignment for -concat")
	flag.Parse()
	if err := run(*out, *compress, *version, *concat, *align, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mkbundle:", err)
		os.Exit(1)
	}
}

func run(out, compress string, version int, concat bool, align int, args []string) error {
	if out == "" || len(args) == 0 {
		return fmt.Errorf("usage: mkbundle -o OUT ID=FILE... (see the package doc)")
	}
	var data []byte
	if concat {
		for _, name := range args {
			b, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			for len(data)%align != 0 {
				data = append(data, 0)
			}
			data = append(data, b...)
		}
		return os.WriteFile(out, data, 0o644)
	}
	var entries []loader.BundleInput
	for _, a := range args {
		id, file, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("entry %q is not ID=FILE", a)
		}
		e := loader.BundleInput{ID: id}
		if file != "" {
			b, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			e.Data = b
		}
		entries = append(entries, e)
	}
	data = loader.WriteBundle(entries)
	if compress != "" {
		var err error
		if data, err = loader.CompressBundle(data, compress, version); err != nil {
			return err
		}
	}
	return os.WriteFile(out, data, 0o644)
}

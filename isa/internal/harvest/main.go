// Command harvest distils instruction-table rows (isa/tables/*.txt) from
// LLVM 19's disassembler, so the tables are regenerated rather than typed:
// for every opcode of an encoding it disassembles representative words for
// gfx803 and gfx900 and reads the mnemonic and operand list off the text.
//
//	go run ./isa/internal/harvest FAMILY     rewrite isa/tables/FAMILY.txt
//	go run ./isa/internal/harvest probe CPU HEXWORD...
//
// Each family lives in its own file and registers itself in families.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

// families maps a family name to the function that writes its table text.
var families = map[string]func() (string, error){}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	if os.Args[1] == "probe" {
		if len(os.Args) < 4 {
			usage()
		}
		probe(os.Args[2], os.Args[3:])
		return
	}
	fn, ok := families[os.Args[1]]
	if !ok {
		usage()
	}
	text, err := fn()
	if err != nil {
		fmt.Fprintf(os.Stderr, "harvest: %v\n", err)
		os.Exit(1)
	}
	dir := "isa/tables"
	if _, err := os.Stat("tables"); err == nil {
		dir = "tables"
	}
	if err := os.WriteFile(filepath.Join(dir, os.Args[1]+".txt"), []byte(text), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "harvest: %v\n", err)
		os.Exit(1)
	}
}

func usage() {
	var names []string
	for n := range families {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "usage: harvest {%s} | probe CPU HEXWORDS...\n", strings.Join(names, "|"))
	os.Exit(2)
}

// probe prints LLVM's text for each argument, a case of comma-separated
// hex words.
func probe(cpu string, args []string) {
	var cases [][]uint32
	for _, a := range args {
		var c []uint32
		for _, h := range strings.Split(a, ",") {
			v, err := strconv.ParseUint(strings.TrimPrefix(h, "0x"), 16, 32)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			c = append(c, uint32(v))
		}
		cases = append(cases, c)
	}
	res, err := llvmdis.Disasm(cpu, cases)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i, r := range res {
		fmt.Printf("%s\t%d\t%s\n", args[i], r.Words, r.Text)
	}
}

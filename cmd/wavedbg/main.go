// Command wavedbg is a terminal debugger for AMD GCN wavefronts.
//
// With no subcommand it opens the interactive debugger; the subcommands
// inspect code objects and run kernels headless:
//
//	wavedbg [FILE]            open the debugger (a picker of bundled samples without FILE)
//	wavedbg info FILE         summarise a code object, bundle or fat binary
//	wavedbg disasm FILE       disassemble like llvm-objdump -d
//	wavedbg run FILE ...      run a kernel over a whole grid
//	wavedbg trace FILE ...    run and stream one JSON step record per instruction
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
)

// version is overridden at link time (-ldflags "-X main.version=...").
var version = ""

// command is one subcommand of wavedbg.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands; each registers itself from its own file.
var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// usageError is returned for bad command lines; main exits 2 for it.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	os.Exit(mainExit(os.Args[1:], os.Stdout, os.Stderr))
}

// mainExit runs wavedbg with args and returns the process exit status.
func mainExit(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintf(stderr, "wavedbg: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help", "help":
			printUsage(stdout)
			return nil
		case "-version", "--version", "version":
			fmt.Fprintf(stdout, "wavedbg %s\n", buildVersion())
			return nil
		}
		if c, ok := commands[args[0]]; ok {
			return c.run(args[1:], stdout, stderr)
		}
	}
	if c, ok := commands["debug"]; ok {
		return c.run(args, stdout, stderr)
	}
	printUsage(stderr)
	return usageError{"no interactive debugger in this build; use a subcommand"}
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "wavedbg — a terminal debugger for AMD GCN wavefronts\n\n")
	fmt.Fprintf(w, "Usage:\n  wavedbg [FILE] [flags]     open the interactive debugger (a sample picker without FILE)\n")
	fmt.Fprintf(w, "  wavedbg COMMAND [flags]    run a subcommand\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		if n != "debug" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nRun 'wavedbg COMMAND --help' for a command's flags; 'wavedbg --version' prints the version.\n")
}

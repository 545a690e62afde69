package tui

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateKeys = flag.Bool("update-keys", false, "rewrite KEYS.md from the key map and command table")

// keysDoc renders the key map and the command table as Markdown.
func keysDoc() string {
	var b strings.Builder
	b.WriteString("# wavedbg debugger keys and commands\n\n")
	b.WriteString("Generated from tui/keys.go and tui/commands.go by\n`go test ./tui -run TestKeysDoc -update-keys`; a test fails when it is stale.\n\n")
	b.WriteString("| key | action |\n| --- | --- |\n")
	for _, g := range DefaultKeyMap().FullHelp() {
		for _, k := range g {
			fmt.Fprintf(&b, "| `%s` | %s |\n", strings.Join(k.Keys(), "`, `"), k.Help().Desc)
		}
	}
	b.WriteString("\nPress `:` for the command line (↑ recalls the last command). LOC is `0xADDR`, a label or `FILE:LINE`.\n\n")
	b.WriteString("| command | does |\n| --- | --- |\n")
	for _, c := range commandTable {
		use := strings.TrimSpace(c.names[0] + " " + c.args)
		if len(c.names) > 1 {
			use += "` (`" + strings.Join(c.names[1:], "`, `") + "`)"
			fmt.Fprintf(&b, "| `%s | %s |\n", strings.ReplaceAll(use, "|", "\\|"), c.help)
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(use, "|", "\\|"), c.help)
	}
	b.WriteString("\nThe commands are gdb's (Enter on an empty line\n" +
		"repeats the last stepping command). LOC is `0xADDR` or a label. EXPR is a C expression over registers\n" +
		"(`s8`, `v3[5]`, `exec`, `vcc`, `m0`, `scc`, `s[4:5]`, `pc`), earlier results (`$1`, `$`), counters (`cycle`, `vmcnt`, `lgkmcnt`, `expcnt`),\n" +
		"buffer names (their addresses) and memory (`*(uint*)ADDR`, `*(float*)ADDR`), with `+ - * / % & | ^ << >>`,\n" +
		"comparisons and parentheses. `wavedbg FILE --batch --ex CMD -x CMDFILE` runs the same commands without a terminal.\n\n")
	return b.String()
}

func TestKeysDoc(t *testing.T) {
	want := keysDoc()
	if *updateKeys {
		if err := os.WriteFile("KEYS.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("KEYS.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Error("tui/KEYS.md is stale: go test ./tui -run TestKeysDoc -update-keys")
	}
}

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sampleSources lists samples/*/*.s with their committed code objects.
func sampleSources(t *testing.T) map[string]string {
	t.Helper()
	srcs, _ := filepath.Glob("../../samples/*/*.s")
	if len(srcs) == 0 {
		t.Fatal("no samples/*/*.s")
	}
	m := map[string]string{}
	for _, s := range srcs {
		m[s] = strings.TrimSuffix(strings.TrimSuffix(s, ".s"), ".cl") + ".co"
	}
	return m
}

// listingWords matches an instruction line of disasm's listing: the text
// and, in the comment, its words.
var listingWords = regexp.MustCompile(`^\t(.*?)\s+// [0-9A-F]{12}: ([0-9A-F ]+)$`)

// TestAsmRawInvertsDisasmRaw: for every instruction of every sample's
// listing, asm --raw gives the words the listing shows, and disasm --raw
// of those words gives the text back; the listing itself pipes into
// asm --raw.
func TestAsmRawInvertsDisasmRaw(t *testing.T) {
	for src, co := range sampleSources(t) {
		source, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		target := "gfx900"
		if _, v, ok := strings.Cut(filepath.Base(strings.TrimSuffix(co, ".co")), "."); ok {
			target = v // NAME.TARGET.co, a sample's build for another target
		}
		code, listing, errOut := runCmd("disasm", co)
		if code != 0 {
			t.Fatalf("disasm %s: %s", co, errOut)
		}
		var texts, words []string
		for _, l := range strings.Split(listing, "\n") {
			if m := listingWords.FindStringSubmatch(l); m != nil {
				texts = append(texts, m[1])
				w := strings.Fields(m[2])
				for i := range w {
					w[i] = "0x" + strings.ToLower(w[i])
				}
				words = append(words, strings.Join(w, " "))
			}
		}
		code, out, errOut := runCmd(append([]string{"asm", "--raw", "--target", target}, texts...)...)
		if code != 0 {
			t.Fatalf("%s: asm --raw: %s", co, errOut)
		}
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(got) != len(words) {
			t.Fatalf("%s: %d lines of words, want %d", co, len(got), len(words))
		}
		for i := range words {
			// A sample may write words for another target as .long (the
			// gfx803 build of smem_gfx8_gfx9 holds gfx900 SMEM words): no
			// text of this target assembles to them.
			raw := ".long " + strings.ReplaceAll(words[i], " ", ", ")
			if got[i] != words[i] && !strings.Contains(string(source), raw) {
				t.Errorf("%s: %q: asm --raw %s, want %s", co, texts[i], got[i], words[i])
			}
		}
		code, back, errOut := runCmd(append([]string{"disasm", "--raw", "--target", target}, got...)...)
		if code != 0 {
			t.Fatalf("disasm --raw: %s", errOut)
		}
		var again []string
		for _, l := range strings.Split(back, "\n") {
			if m := listingWords.FindStringSubmatch(l); m != nil {
				again = append(again, m[1])
			}
		}
		if strings.Join(again, "\n") != strings.Join(texts, "\n") {
			t.Errorf("%s: disasm --raw of asm --raw's words:\n%s\nwant\n%s", co, strings.Join(again, "\n"), strings.Join(texts, "\n"))
		}
	}
}

// TestAsmRawReadsListingOnStdin: disasm --raw's output, comments and all,
// is asm --raw's input.
func TestAsmRawReadsListingOnStdin(t *testing.T) {
	_, listing, _ := runCmd("disasm", "--raw", "--target", "gfx900", "0xbe8000ff", "0x00001234", "0xbf810000")
	f := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(f, []byte(listing), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out strings.Builder
	if err := asmRaw(nil, "gfx900", in, &out); err != nil {
		t.Fatal(err)
	}
	if want := "0xbe8000ff 0x00001234\n0xbf810000\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestAsmRawErrors: a rejected instruction is reported as llvm-mc does,
// with its argument and column, and the exit status is 1.
func TestAsmRawErrors(t *testing.T) {
	code, _, errOut := runCmd("asm", "--raw", "--target", "gfx900", "s_endpgm", "  s_foo s0")
	if code != 1 || !strings.Contains(errOut, "<arg2>:1:3: error: invalid instruction") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCmd("asm", "--raw", "s_endpgm"); code != 2 || !strings.Contains(errOut, "want --target") {
		t.Errorf("no target: code %d, stderr %q", code, errOut)
	}
}

// TestAsmWritesCodeObject: asm -o writes a code object whose .text and
// kernel descriptor are the committed build's (the file offset of the
// section headers aside, there is no .comment).
func TestAsmWritesCodeObject(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.co")
	if code, _, errOut := runCmd("asm", "../../samples/reduction/reduction.s", "-o", out, "--target", "gfx900"); code != 0 {
		t.Fatalf("asm: %s", errOut)
	}
	ours, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile("../../samples/reduction/reduction.co")
	const allocEnd = 0x620 // the end of .dynamic in the committed build
	if string(ours[64:allocEnd]) != string(want[64:allocEnd]) {
		t.Error("allocated sections differ from samples/reduction/reduction.co")
	}
}

// TestAsmFileErrors: errors name file:line:col, repeat the line with a
// caret, and exit 1; nothing is written.
func TestAsmFileErrors(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bad.s")
	os.WriteFile(src, []byte(".text\n\ts_endpgm\n\t.bogus 1\n"), 0o644)
	code, _, errOut := runCmd("asm", src, "--target", "gfx900")
	want := src + ":3:2: error: unknown directive\n\t.bogus 1\n\t^\n1 error(s)"
	if code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("code %d, stderr %q, want %q", code, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.co")); err == nil {
		t.Error("bad.co written")
	}
}

// TestSourceAcceptedAsCodeObject: info, disasm and run take a .s file,
// assembled in memory, and say what they say of its committed build.
func TestSourceAcceptedAsCodeObject(t *testing.T) {
	for src, co := range sampleSources(t) {
		for _, cmd := range [][]string{{"disasm"}, {"info"}} {
			c1, a, e1 := runCmd(append(cmd, src)...)
			c2, b, e2 := runCmd(append(cmd, co)...)
			if c1 != 0 || c2 != 0 {
				t.Fatalf("%v %s: %s %s", cmd, src, e1, e2)
			}
			a = strings.ReplaceAll(a, src, "FILE")
			b = strings.ReplaceAll(b, co, "FILE")
			if cmd[0] == "info" && strings.HasSuffix(src, ".cl.s") {
				continue // no .amdhsa_code_object_version: v5, the build is v4
			}
			if a != b {
				t.Errorf("%v %s:\n%s\nwant\n%s", cmd, src, a, b)
			}
		}
	}
	dir := t.TempDir()
	run := func(file string) string {
		out := filepath.Join(dir, "out.bin")
		code, _, errOut := runCmd("run", file, "--manifest", "../../samples/reduction/manifest.json", "--out", dir)
		if code != 0 {
			t.Fatalf("run %s: %s", file, errOut)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	if a, b := run("../../samples/reduction/reduction.s"), run("../../samples/reduction/reduction.co"); a != b || a == "" {
		t.Errorf("run of the .s wrote %x, of the .co %x", a, b)
	}
}

// TestDebuggerOpensSource: the debugger (wavedbg K.s) assembles a .s in
// memory and loads its kernel; a .s with an error reports it.
func TestDebuggerOpensSource(t *testing.T) {
	d, err := openDebuggee(&debugOptions{file: "../../samples/reduction/reduction.s", manifest: "../../samples/reduction/manifest.json"})
	if err != nil || d == nil {
		t.Fatalf("open reduction.s: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.s")
	os.WriteFile(bad, []byte(".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n\ts_bogus\n"), 0o644)
	if _, err := openDebuggee(&debugOptions{file: bad}); err == nil || !strings.Contains(err.Error(), bad+":2:2: error: invalid instruction") {
		t.Errorf("bad.s: %v", err)
	}
}

// TestEditReassemblesSource: the debugger's :edit reload reads the .s
// again: an edit that breaks it gives file:line:col, one that fixes it a
// new session.
func TestEditReassemblesSource(t *testing.T) {
	src, _ := os.ReadFile("../../samples/reduction/reduction.s")
	path := filepath.Join(t.TempDir(), "reduction.s")
	os.WriteFile(path, src, 0o644)
	reload := reassemble(&debugOptions{file: path, manifest: "../../samples/reduction/manifest.json"})
	d, labels, err := reload()
	if err != nil || d == nil {
		t.Fatalf("reload: %v", err)
	}
	if labels[".Lround"] != 0x1538 || labels["reduction"] != 0x1500 {
		t.Errorf("labels %v", labels)
	}
	os.WriteFile(path, []byte(strings.Replace(string(src), "\ts_barrier", "\ts_barrier_bogus", 1)), 0o644)
	if _, _, err := reload(); err == nil || !strings.HasPrefix(err.Error(), path+":25:2: error: invalid instruction") {
		t.Errorf("broken source: %v", err)
	}
}

// TestBatchNamesSourceLabels: a .s session in batch mode breaks at a .L
// label of the source (code objects keep none); edit says it needs the
// terminal.
func TestBatchNamesSourceLabels(t *testing.T) {
	code, out, errOut := runCmd("../../samples/reduction/reduction.s", "--manifest", "../../samples/reduction/manifest.json",
		"--batch", "--ex", "break .Lround", "--ex", "continue", "--ex", "print s10")
	if code != 0 || !strings.Contains(out, "breakpoint 1 at 0x1538") || !strings.Contains(out, "= 128") {
		t.Errorf("code %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runCmd("../../samples/reduction/reduction.s", "--batch", "--ex", "edit")
	if code == 0 || !strings.Contains(errOut, "the editor needs the interactive debugger") {
		t.Errorf("edit in batch: code %d, %s", code, errOut)
	}
}

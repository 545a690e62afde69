package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// dirState maps each file under dir to its contents ("<dir>" for a
// directory), to compare the tree before and after a command.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	st := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			st[rel] = "<dir>"
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			st[rel] = "-> " + target
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sameState fails the test if dir's tree is not what it was.
func sameState(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := dirState(t, dir)
	for name, b := range before {
		if a, ok := after[name]; !ok {
			t.Errorf("%s was removed", name)
		} else if a != b {
			t.Errorf("%s changed (%d bytes, was %d)", name, len(a), len(b))
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s was created", name)
		}
	}
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// failingSecondOutput runs cmd with two outputs, the first over an existing
// file and the second where a directory is in the way: the command fails
// and leaves the directory as it was.
func failingSecondOutput(t *testing.T, cmd string) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.bin"), "old a")
	if err := os.Mkdir(filepath.Join(dir, "b.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)
	code, _, stderr := runCmd(cmd, co("int_alu"), "-q", "--kernel", "int_alu", "--grid", "1024", "--block", "64",
		"--arg", "buffer,type=int,count=1024,fill=iota,out=a.bin", "--arg", "buffer,type=int,count=1024,out=b.bin",
		"--arg", "buffer,type=int,count=16384", "--out", dir)
	if code == 0 {
		t.Fatal("exit 0 with a directory where an output goes")
	}
	if !strings.Contains(stderr, "b.bin") || !strings.Contains(stderr, "directory") {
		t.Errorf("message does not name the output and the directory: %s", stderr)
	}
	sameState(t, dir, before)
}

func TestRunFailingSecondOutputKeepsFirst(t *testing.T)   { failingSecondOutput(t, "run") }
func TestTraceFailingSecondOutputKeepsFirst(t *testing.T) { failingSecondOutput(t, "trace") }

// TestOutputSetCommitAllOrNone: whichever step of a commit fails, every
// destination is as it was and no temporary file is left.
func TestOutputSetCommitAllOrNone(t *testing.T) {
	defer func(r func(string, string) error) { rename = r }(rename)
	tests := []struct {
		name  string
		setup func(dir string)
		fail  func(from, to string) bool
	}{
		{"directory appears", func(dir string) { os.Mkdir(filepath.Join(dir, "c.bin"), 0o755) }, nil},
		{"moving aside fails", nil, func(from, to string) bool { return filepath.Base(from) == "b.bin" }},
		{"renaming in fails", nil, func(from, to string) bool { return filepath.Base(to) == "c.bin" }},
		{"renaming the last in fails", nil, func(from, to string) bool {
			return filepath.Base(to) == "d.bin" && strings.Contains(from, "wavedbg-tmp")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "a.bin"), "old a")
			writeFile(t, filepath.Join(dir, "b.bin"), "old b")
			writeFile(t, filepath.Join(dir, "d.bin"), "old d")
			if tt.setup != nil {
				tt.setup(dir)
			}
			before := dirState(t, dir)
			var set outputSet
			for _, n := range []string{"a.bin", "b.bin", "c.bin", "d.bin"} {
				if err := set.write(filepath.Join(dir, n), []byte("new "+n)); err != nil {
					t.Fatal(err)
				}
			}
			f, err := set.create(filepath.Join(dir, "prof"))
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("profile")
			rename = func(from, to string) error {
				if tt.fail != nil && tt.fail(from, to) {
					return errors.New("injected failure")
				}
				return os.Rename(from, to)
			}
			if err := set.commit(); err == nil {
				t.Fatal("commit succeeded")
			}
			sameState(t, dir, before)
		})
	}

	rename = os.Rename
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.bin"), "old a")
	var set outputSet
	for _, n := range []string{"a.bin", "sub/b.bin"} {
		if err := set.write(filepath.Join(dir, n), []byte("new "+n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := set.commit(); err != nil {
		t.Fatal(err)
	}
	set.abort() // after a commit: nothing to do
	want := map[string]string{"a.bin": "new a.bin", "sub": "<dir>", "sub/b.bin": "new sub/b.bin"}
	sameState(t, dir, want)
}

// TestRunProfileNotWrittenOnFault: a run that faults or fails leaves the
// --cpuprofile and --gotrace targets as they were.
func TestRunProfileNotWrittenOnFault(t *testing.T) {
	bad := filepath.Join("testdata", "run", "bad.co")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"fault", []string{"--kernel", "wild", "--grid", "64", "--block", "64", "--arg", "buffer,type=int,count=64,out=o.bin"}, "memory fault"},
		{"step budget", []string{"--kernel", "spin", "--grid", "64", "--block", "64", "--max-steps", "2000",
			"--arg", "buffer,type=int,count=1", "--arg", "buffer,type=int,count=64,out=o.bin"}, "step budget"},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"run", "trace"} {
			t.Run(tt.name+"/"+cmd, func(t *testing.T) {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "old.prof"), "old profile")
				writeFile(t, filepath.Join(dir, "old.trace"), "old trace")
				before := dirState(t, dir)
				for _, p := range [][2]string{{"old.prof", "new.trace"}, {"new.prof", "old.trace"}} {
					args := append([]string{cmd, bad, "--out", dir, "--cpuprofile", filepath.Join(dir, p[0]),
						"--gotrace", filepath.Join(dir, p[1])}, tt.args...)
					code, _, stderr := runCmd(args...)
					if code == 0 || !strings.Contains(stderr, tt.want) {
						t.Errorf("%v: exit %d, stderr %q; want a failure mentioning %q", p, code, stderr, tt.want)
					}
					sameState(t, dir, before)
				}
			})
		}
	}
}

// TestWriteManifestNotWrittenOnFault: --write-manifest writes nothing when
// the run faults, over an existing file or not.
func TestWriteManifestNotWrittenOnFault(t *testing.T) {
	bad := filepath.Join("testdata", "run", "bad.co")
	for _, name := range []string{"old.json", "new.json"} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "old.json"), "{}")
		before := dirState(t, dir)
		code, _, stderr := runCmd("run", bad, "--kernel", "wild", "--grid", "64", "--block", "64",
			"--arg", "buffer,type=int,count=64,out=o.bin", "--out", dir, "--write-manifest", filepath.Join(dir, name))
		if code == 0 || !strings.Contains(stderr, "memory fault") {
			t.Errorf("%s: exit %d, stderr %q", name, code, stderr)
		}
		sameState(t, dir, before)
	}
}

// TestRunOutputNamesInput: an output naming an input of the run, however
// spelt, or another output is refused before anything runs (exit 2), and
// the input is untouched.
func TestRunOutputNamesInput(t *testing.T) {
	saved := launch
	defer func() { launch = saved }()
	ran := false
	launch = func(context.Context, *loader.CodeObject, *loader.Kernel, *runConfig, [][]byte, io.Writer) (*runResult, error) {
		ran = true
		return nil, errors.New("ran")
	}
	coBytes, err := os.ReadFile(co("int_alu"))
	if err != nil {
		t.Fatal(err)
	}
	cwd, _ := os.Getwd()
	manifestJSON := func(output string) string {
		return `{"kernel": "int_alu", "grid": [1024], "block": [64], "args": [
			{"kind": "buffer", "type": "int", "size": 4096, "input": "in.bin"},
			{"kind": "buffer", "type": "int", "size": 4096},
			{"kind": "buffer", "type": "int", "size": 65536, "output": "` + output + `"}]}`
	}
	// flags runs int_alu from dir/k.co, given by flags, with its output at out.
	flags := func(dir, out string, extra ...string) []string {
		return append([]string{"run", filepath.Join(dir, "k.co"), "--kernel", "int_alu", "--grid", "1024", "--block", "64",
			"--arg", "buffer,type=int,count=1024,in=" + filepath.Join(dir, "in.bin"), "--arg", "buffer,type=int,count=1024",
			"--arg", "buffer,type=int,count=16384,out=" + out, "--out", dir}, extra...)
	}
	manifest := func(dir, m string, extra ...string) []string {
		return append([]string{"run", filepath.Join(dir, "k.co"), "--manifest", filepath.Join(dir, m), "--out", dir}, extra...)
	}
	tests := []struct {
		name string
		args func(dir string) []string
		want string
	}{
		{"out= the code object", func(d string) []string { return flags(d, "k.co") }, "the code object"},
		{"out= the manifest", func(d string) []string { return manifest(d, "self.json") }, "--manifest"},
		{"out= an in= file", func(d string) []string { return flags(d, "in.bin") }, "argument 0's input"},
		{"manifest output its input", func(d string) []string { return manifest(d, "in.json") }, "argument 0's input"},
		{"out= a symlink to the code object", func(d string) []string { return flags(d, "link.co") }, "the code object"},
		{"out= a hard link to the code object", func(d string) []string { return flags(d, "hard.co") }, "the code object"},
		{"out= through a symlinked directory", func(d string) []string { return flags(d, "k.co", "--out", filepath.Join(d, "linkdir")) }, "the code object"},
		{"two outputs with one name", func(d string) []string { return flags(d, "o.bin", "--cpuprofile", filepath.Join(d, "o.bin")) }, "name the same file"},
		{"--cpuprofile and --gotrace", func(d string) []string {
			return flags(d, "o.bin", "--cpuprofile", filepath.Join(d, "p"), "--gotrace", filepath.Join(d, "sub", "..", "p"))
		}, "name the same file"},
		{"--cpuprofile the code object", func(d string) []string { return flags(d, "o.bin", "--cpuprofile", filepath.Join(d, "k.co")) }, "the code object"},
		{"--cpuprofile relative", func(d string) []string {
			rel, err := filepath.Rel(cwd, filepath.Join(d, "k.co"))
			if err != nil {
				t.Fatal(err)
			}
			return flags(d, "o.bin", "--cpuprofile", rel)
		}, "the code object"},
		{"--gotrace the in= file", func(d string) []string { return flags(d, "o.bin", "--gotrace", filepath.Join(d, "in.bin")) }, "argument 0's input"},
		{"--write-manifest the manifest", func(d string) []string {
			return manifest(d, "m.json", "--write-manifest", filepath.Join(d, "m.json"))
		}, "--manifest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "k.co"), string(coBytes))
			writeFile(t, filepath.Join(dir, "in.bin"), strings.Repeat("i", 4096))
			writeFile(t, filepath.Join(dir, "m.json"), manifestJSON("o.bin"))
			writeFile(t, filepath.Join(dir, "self.json"), manifestJSON("self.json"))
			writeFile(t, filepath.Join(dir, "in.json"), manifestJSON("in.bin"))
			if err := os.Symlink("k.co", filepath.Join(dir, "link.co")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(".", filepath.Join(dir, "linkdir")); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(dir, "k.co"), filepath.Join(dir, "hard.co")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "sub", "x"), "")
			before := dirState(t, dir)
			ran = false
			code, _, stderr := runCmd(tt.args(dir)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %q", code, stderr, tt.want)
			}
			if ran {
				t.Error("the kernel ran")
			}
			sameState(t, dir, before)
		})
	}

	// The same shapes with distinct files are accepted.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "k.co"), string(coBytes))
	writeFile(t, filepath.Join(dir, "in.bin"), strings.Repeat("i", 4096))
	code, _, stderr := runCmd(flags(dir, "o.bin", "--cpuprofile", filepath.Join(dir, "p"))...)
	if code != 1 || !ran || !strings.Contains(stderr, "ran") {
		t.Errorf("distinct outputs: exit %d, stderr %q; want the launch to run", code, stderr)
	}
	if ents, _ := os.ReadDir(dir); !slices.EqualFunc(ents, []string{"in.bin", "k.co"}, func(e os.DirEntry, n string) bool { return e.Name() == n }) {
		t.Errorf("after a failed launch the directory holds %v", ents)
	}
}

// TestRunOutputNotAFile: an output over a directory, a device or a link to
// one is refused before the run and the file is left alone.
func TestRunOutputNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.DevNull, filepath.Join(dir, "null")); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)
	for _, tt := range []struct{ flag, path, want string }{
		{"--cpuprofile", filepath.Join(dir, "d"), "directory"},
		{"--gotrace", os.DevNull, "character device"},
		{"--write-manifest", filepath.Join(dir, "null"), "character device"},
	} {
		code, _, stderr := runCmd("run", co("int_alu"), "--manifest", filepath.Join(clDir, "int_alu.json"), "--out", dir, tt.flag, tt.path)
		if code != 1 || !strings.Contains(stderr, tt.flag) || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s %s: exit %d, stderr %q; want a failure naming the flag and %q", tt.flag, tt.path, code, stderr, tt.want)
		}
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a device: %v", os.DevNull, err)
	}
	sameState(t, dir, before)
}

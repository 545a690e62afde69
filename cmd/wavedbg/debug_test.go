package main

import (
	"io"
	"testing"

	"github.com/wavedbg/wavedbg/samples"
)

func TestParseDebugArgs(t *testing.T) {
	o, err := parseDebugArgs([]string{"k.co", "--kernel", "vadd", "--block", "256", "--arg", "n=5", "--arg", "x=1.5"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.file != "k.co" || o.launch.Kernel != "vadd" || o.launch.Block != 256 || o.launch.Args["n"] != "5" || o.launch.Args["x"] != "1.5" {
		t.Errorf("parsed %+v", o)
	}
	o, err = parseDebugArgs([]string{"--groups", "2", "f.co"}, io.Discard)
	if err != nil || o.file != "f.co" || o.launch.Groups != 2 {
		t.Errorf("flags before the file: %+v %v", o, err)
	}
	for _, bad := range [][]string{{"a", "b"}, {"--arg", "novalue"}, {"--nosuchflag"}} {
		if _, err := parseDebugArgs(bad, io.Discard); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestDefaultSampleOpens checks that `wavedbg` with no file has something to open.
func TestDefaultSampleOpens(t *testing.T) {
	o, err := parseDebugArgs(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	d, err := openDebuggee(o)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name() != samples.Default().Kernel || len(d.Waves()) == 0 || len(d.Program()) == 0 {
		t.Errorf("default sample: name %q, %d waves, %d instructions", d.Name(), len(d.Waves()), len(d.Program()))
	}
	for _, s := range append(samples.All(), samples.Sample{Name: "scale"}) {
		d, err := openDebuggee(&debugOptions{sample: s.Name})
		if err != nil {
			t.Errorf("--sample %s: %v", s.Name, err)
			continue
		}
		for i := 0; i < 50; i++ {
			if d.Step() != nil {
				break
			}
		}
	}
	if _, err := openDebuggee(&debugOptions{sample: "nope"}); err == nil {
		t.Error("--sample nope: no error")
	}
	if _, err := openDebuggee(&debugOptions{file: "/nonexistent.co"}); err == nil {
		t.Error("opening a missing file succeeded")
	}
}

package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunKernelOptionalWithOneKernel: run takes the code object's only
// kernel without --kernel, and bare scalars (3, value=3) take the types the
// kernel declares: scalars.cl writes back exactly what PoCL wrote for the
// typed manifest (3.0f, 3.0, -7, 0x123456789abcdef0).
func TestRunKernelOptionalWithOneKernel(t *testing.T) {
	for _, target := range []string{"gfx900", "gfx803"} {
		t.Run(target, func(t *testing.T) {
			out := t.TempDir()
			code, _, stderr := runCmd("run", filepath.Join(clDir, target, "scalars.co"), "--grid", "1", "--block", "1",
				"--arg", "buffer,type=float,count=2,out=of.bin", "--arg", "buffer,type=double,count=2,out=od.bin",
				"--arg", "buffer,type=long,count=2,out=ol.bin",
				"--arg", "3", "--arg", "value=3", "--arg", "-7", "--arg", "0x123456789abcdef0", "--out", out, "-q")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, f := range []string{"of", "od", "ol"} {
				got, err := os.ReadFile(filepath.Join(out, f+".bin"))
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(clDir, "golden", "scalars."+f+".bin"))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: % x, want PoCL's % x", f, got, want)
				}
			}
		})
	}
	code, _, stderr := runCmd("run", filepath.Join(clDir, "gfx900", "scalars.co"), "--grid", "1", "--block", "1",
		"--arg", "buffer,type=float,count=2", "--arg", "buffer,type=double,count=2", "--arg", "buffer,type=long,count=2",
		"--arg", "3", "--arg", "3", "--arg", "2.5", "--arg", "1")
	if want := "argument 5 (int (by_value)): 2.5 is not an integer"; code == 0 || !strings.Contains(stderr, want) {
		t.Errorf("fraction for an int: exit %d, stderr %q; want %q", code, stderr, want)
	}
}

// TestRunBufferPlacement: run launches places.cl with a pointer into a
// buffer, an alias, a null pointer and a table of pointers given by --arg;
// dst[i] = src[i] + p[i]*1000 + 7 with p = buf+768 bytes (even i) or
// buf+256 (odd i), computed by hand.
func TestRunBufferPlacement(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCmd("run", filepath.Join(clDir, "gfx900", "places.co"), "--grid", "64", "--block", "64",
		"--arg", "buffer,name=buf,type=uint,count=256,fill=iota,offset=512,out=buf.bin",
		"--arg", "buffer,buffer=buf",
		"--arg", "buffer,type=ulong,count=2,pointers=buf+768@0;buf+256@8",
		"--arg", "null",
		"--arg", "buffer,type=ulong,count=6",
		"--out", out, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(out, "buf.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for k := range 256 {
		want := uint32(k)
		if i := k - 128; i >= 0 && i < 64 {
			p := 64 + i
			if i%2 == 0 {
				p = 192 + i
			}
			want = uint32(i + p*1000 + 7)
		}
		if g := binary.LittleEndian.Uint32(got[4*k:]); g != want {
			t.Fatalf("buf[%d] = %d, want %d", k, g, want)
		}
	}
}

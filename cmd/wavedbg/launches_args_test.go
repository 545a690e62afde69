package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

// TestParseArgSpecPlacement: --arg spells every placement feature of the
// manifest (offset, alias, null, fixed address, pointers) and the untyped
// scalar shorthands.
func TestParseArgSpecPlacement(t *testing.T) {
	tests := []struct {
		spec string
		want manifest.Arg
		err  string
	}{
		{spec: "buffer,name=buf,type=uint,count=4,offset=8,address=0x40000000",
			want: manifest.Arg{Kind: manifest.Buffer, Name: "buf", Type: "uint", Size: 16, Offset: 8, Address: "0x40000000"}},
		{spec: "buffer,buffer=buf,offset=4", want: manifest.Arg{Kind: manifest.Buffer, Buffer: "buf", Offset: 4}},
		{spec: "null", want: manifest.Arg{Kind: manifest.Null}},
		{spec: "buffer,type=ulong,count=2,pointers=b@0;buf+256@8",
			want: manifest.Arg{Kind: manifest.Buffer, Type: "ulong", Size: 16, Pointers: []manifest.Pointer{{To: "b", At: 0}, {To: "buf", Offset: 256, At: 8}}}},
		{spec: "3", want: manifest.Arg{Kind: manifest.Scalar, Value: "3"}},
		{spec: "-2.5", want: manifest.Arg{Kind: manifest.Scalar, Value: "-2.5"}},
		{spec: "value=0x10", want: manifest.Arg{Kind: manifest.Scalar, Value: "0x10"}},
		{spec: "buffer,type=ulong,count=2,pointers=b", err: `pointer "b" is not NAME[+OFFSET]@AT`},
		{spec: "buffer,type=ulong,count=2,pointers=b+x@0", err: `pointer "b+x@0" is not NAME[+OFFSET]@AT`},
		{spec: "buffer,type=uint,count=2,offset=eight", err: "offset: "},
	}
	for _, tt := range tests {
		got, err := parseArgSpec(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %+v, %v; want %+v", tt.spec, got, err, tt.want)
		}
	}
}

package isa

import "testing"

func TestSmoke(t *testing.T) {
	for _, c := range []struct {
		words []byte
		want  string
	}{
		{[]byte{0x02, 0x01, 0x80, 0xbe}, "s_mov_b64 s[0:1], s[2:3]"},
		{[]byte{0xff, 0x00, 0x80, 0xbe, 0x78, 0x56, 0x34, 0x12}, "s_mov_b32 s0, 0x12345678"},
	} {
		inst, err := Decode(c.words, GFX9)
		if err != nil || inst.String() != c.want {
			t.Errorf("% x: %q, %v; want %q", c.words, inst.String(), err, c.want)
		}
	}
}

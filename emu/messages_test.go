package emu

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestStopMessages checks the words of the errors a wave stops with, in
// both Step and Run: an invalid word is called an invalid encoding (with
// the word), and a branch before address 0 names no negative hex number.
func TestStopMessages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		words []uint32
		want  []string
		not   []string
	}{
		{"InvalidEncodingMessage", []uint32{0xffffffff}, []string{"pc 0x0", "invalid instruction encoding 0xffffffff", "GFX9"}, []string{"not implemented", "unknown"}},
		{"BackwardBranchTargetMessage", []uint32{0xbf800000, 0xbf828000}, []string{"pc 0x4", "0x1fff8 bytes before address 0"}, []string{"0x-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := make([]byte, 4*len(tc.words))
			for i, w := range tc.words {
				binary.LittleEndian.PutUint32(text[4*i:], w)
			}
			check := func(how string, err error) {
				t.Helper()
				if err == nil {
					t.Fatalf("%s: no error", how)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: %q does not say %q", how, err, w)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(err.Error(), w) {
						t.Errorf("%s: %q says %q", how, err, w)
					}
				}
			}
			m := NewMachine(DecodeProgram(isa.GFX9, 0, text), nil, core.DefaultConfig(isa.GFX9))
			var err error
			for i := 0; i < len(tc.words) && err == nil; i++ {
				_, err = m.Step()
			}
			check("Step", err)
			m = NewMachine(DecodeProgram(isa.GFX9, 0, text), nil, core.DefaultConfig(isa.GFX9))
			_, err = m.Run(context.Background(), 100)
			check("Run", err)
		})
	}
}

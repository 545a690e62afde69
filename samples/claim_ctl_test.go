package samples

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
)

// TestCtlClaimsHold judges claim_ctl.go's claims against a hand-made
// state: each holds, and each turns false when the state changes under it.
func TestCtlClaimsHold(t *testing.T) {
	snap := &emu.Snapshot{SGPR: make([]uint32, 102), VCC: 0x5555555555555555, SCC: true}
	snap.SGPR[4], snap.SGPR[5] = 0xffffffff, 0 // 0xffffffff
	snap.SGPR[6], snap.SGPR[7] = 0x3c, 1       // 0x10000003c: the difference borrows
	rec := &emu.StepRecord{NextPC: 0x1554}
	st := &State{Snap: snap, Last: rec, PCOf: func(at string) (uint64, error) {
		switch at {
		case "s_or_b64 exec, exec, s[6:7]":
			return 0x1554, nil
		case "s_mov_b32 s8, 0xbad":
			return 0x1548, nil
		}
		return 0, fmt.Errorf("no %q", at)
	}}
	for _, c := range []struct {
		claim  string
		change func()
	}{
		{"vcc = 0x5555555555555555", func() { snap.VCC = 0 }},
		{"vcc = 0", func() { snap.VCC = 1 << 63 }},
		{"scc = 1", func() { snap.SCC = false }},
		{"scc = 0", func() { snap.SCC = true }},
		{"next s_or_b64 exec, exec, s[6:7]", func() { rec.NextPC = 0x1548 }},
		{"not next s_or_b64 exec, exec, s[6:7]", func() { rec.NextPC = 0x1554 }},
		{"s[6:7] - s[4:5] = 0x3d", func() { snap.SGPR[7] = 0 }},
		// s[6:7] = 0x3c now: the difference wraps modulo 2^64
		{"s[6:7] - s[4:5] = 0xffffffff0000003d", func() { snap.SGPR[4] = 0 }},
	} {
		k, err := parseClaim(c.claim)
		if err != nil {
			t.Fatalf("%s: %v", c.claim, err)
		}
		cl := Claim{Text: c.claim, k: k}
		if err := cl.Holds(st); err != nil {
			t.Errorf("%s: %v", c.claim, err)
		}
		c.change()
		if cl.Holds(st) == nil {
			t.Errorf("%s still holds after the state changed", c.claim)
		}
	}
}

// TestCtlClaimsNeedState checks that the claims about a step or source
// instructions fail, naming what is missing, when the state lacks them.
func TestCtlClaimsNeedState(t *testing.T) {
	st := &State{Snap: &emu.Snapshot{SGPR: make([]uint32, 4)}}
	for claim, want := range map[string]string{
		"next s_endpgm":          "no step has executed",
		"s[6:7] - s[0:1] = 1":    "no s6",
		"s[2:3] - s[0:1] = 0x10": "the difference is 0",
	} {
		k, err := parseClaim(claim)
		if err != nil {
			t.Fatalf("%s: %v", claim, err)
		}
		if err := (Claim{Text: claim, k: k}).Holds(st); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", claim, err, want)
		}
	}
	st.Last = &emu.StepRecord{}
	k, _ := parseClaim("next s_endpgm")
	if err := (Claim{k: k}).Holds(st); err == nil || !strings.Contains(err.Error(), "source instructions are not known") {
		t.Errorf("next without PCOf: got %v", err)
	}
}

// TestCtlClaimErrors checks that malformed claims of claim_ctl.go's kinds
// are refused with the reason.
func TestCtlClaimErrors(t *testing.T) {
	for claim, want := range map[string]string{
		"scc = 2":                      "SCC is 0 or 1",
		"vcc = banana":                 `bad number "banana"`,
		"s[4:6] - s[0:1] = 1":          "s[4:6] is not an SGPR pair",
		"s[4:5] - s[1:0] = 1":          "s[1:0] is not an SGPR pair",
		"s[101:102] - s[0:1] = 1":      "s[101:102] is not an SGPR pair",
		"s[4:5] - s[0:1] = -1":         `bad number "-1"`,
		"s[99999:100000] - s[0:1] = 1": "s[99999:100000] is not an SGPR pair",
	} {
		if _, err := parseClaim(claim); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", claim, err, want)
		}
	}
}

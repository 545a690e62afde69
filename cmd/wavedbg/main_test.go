package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestTopLevelFlags(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		wantOut  string
	}{
		{[]string{"--help"}, 0, "Usage:"},
		{[]string{"--version"}, 0, "wavedbg "},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := mainExit(tt.args, &out, &errOut)
		if code != tt.wantCode {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tt.args, code, tt.wantCode, errOut.String())
		}
		if !strings.Contains(out.String(), tt.wantOut) {
			t.Errorf("%v: stdout %q does not contain %q", tt.args, out.String(), tt.wantOut)
		}
	}
}

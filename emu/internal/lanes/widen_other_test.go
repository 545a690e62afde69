//go:build !linux

package lanes

import "testing"

// guardedPage returns a page of memory (without the guards of Linux's
// version: a stray access goes unnoticed here).
func guardedPage(t *testing.T) []byte { return make([]byte, 4096) }

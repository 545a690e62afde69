//go:build !linux

package emu

// populate is Linux's MADV_POPULATE_WRITE; elsewhere Adopt faults pages in
// one by one.
func populate(b []byte) bool { return false }

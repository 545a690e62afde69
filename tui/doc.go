// Package tui is wavedbg's interactive debugger: a Bubble Tea program whose
// panes show the state of one emulated wave (disassembly, registers, counters,
// scalar cache, decoded addresses, memory) and whose keys step it both ways.
// It sees the emulator only through package emu's snapshot and step-record
// types.
package tui

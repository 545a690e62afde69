// Package emu executes decoded GCN instructions: wave state, memory, the
// scalar data cache, counters with a latency model, dispatch of a grid, and
// reversible step records. It consumes isa.Inst values and never imports the
// user interface.
package emu

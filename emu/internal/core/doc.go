// Package core is the state both engines work on: a wave's registers and
// slots (state, sregs), the compiled program and operand model (program,
// operands, vop), the scalar data cache (cache), the in-flight operations
// and s_waitcnt's wait (counters), memory with its page log (memory*), the
// step journal and records (history, record, trace), and Env, what a wave
// reaches beyond itself.
//
// Every write to wave state goes through the recording primitives here
// (Ws, Wv, MemStore, ...): they journal when the step is journaled (JOn)
// and write directly otherwise. Nothing in core executes an instruction;
// the reference engine (package ref) and the fast engine (package fast)
// do.
package core

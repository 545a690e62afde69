// Package fast is the fast engine: for each compiled instruction it
// either has a fast form, chosen once by FastForm when the program is
// compiled, or the instruction runs its reference form (package ref).
// Fast forms never record: an unjournaled step runs them, a journaled one
// never does (emu's form, in machine.go, makes that choice).
//
// Files: forms (the choice and the tables built from ref's), salu_*,
// sopp_fast, smem_fast (scalar), valu_fast*, valu_sdwa, valu_ff,
// valu_f64*, glue_* (vector ALU over whole registers, with the AVX2 rows
// and their pure-Go twins in ../lanes), vmem_* (whole-wave vector memory),
// ds_fast (LDS).
package fast

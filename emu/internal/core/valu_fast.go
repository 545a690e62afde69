package core

// Fast kernels: whole-register loops for the common VALU operations when
// the instruction has no SDWA, DPP, modifiers or 64-bit operands and (for
// floats) MODE rounds to nearest even. They compute lanes 0 to e.live-1,
// and may compute the rest of the quad of lanes holding lane e.live-1
// (the commonest integer kernels run a quad a step); the write keeps only
// the EXEC lanes. Results equal the lane functions'.

type Kernel func(e *Fenv, d, a, b, c *[64]uint32)

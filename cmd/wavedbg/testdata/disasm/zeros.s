// A hand-written gfx900 code object for `wavedbg disasm` golden tests: two
// functions, a run of zero words (llvm-objdump prints "..."), a lone zero
// word, an invalid word (.long), literals and branches across symbols.
// Build: llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj zeros.s -o zeros.o
//        ld.lld-15 -shared zeros.o -o zeros.co
	.text
	.globl first
	.type first,@function
	.p2align 8
first:
	s_mov_b32 s0, 0x12345678
	s_cbranch_scc0 .Lskip
	.long 0
	s_waitcnt vmcnt(0) lgkmcnt(1)
.Lskip:
	.long 0xffffffff
	s_branch .Lsecond
	s_endpgm
	.long 0, 0, 0, 0
	.size first, .-first
	.globl second
	.type second,@function
	.p2align 6
second:
.Lsecond:
	s_getreg_b32 s4, hwreg(HW_REG_HW_ID, 8, 4)
	s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)
	s_load_dwordx4 s[0:3], s[4:5], -0x10
	s_endpgm
	.size second, .-second

//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 plain 32-bit rows (glue.go has their Go definitions). Each runs
// eight lanes a YMM step, then one XMM step when a quad is left, so it
// reads and writes exactly the quads holding lanes 0 to n-1.
//	BX	quads left (first (n+3)/4)
//	R13	byte offset of the step's first lane

// ROW32 is the body of a row d = a OP b: OP is a VEX instruction taking
// b's register, a's register and the destination, in Go's operand order.
#define ROW32(OP) \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), BX; \
	ADDQ $3, BX; \
	SHRQ $2, BX; \
	XORQ R13, R13; \
loop: \
	CMPQ BX, $2; \
	JB   tail; \
	VMOVDQU (SI)(R13*1), Y0; \
	VMOVDQU (DX)(R13*1), Y1; \
	OP   Y1, Y0, Y0; \
	VMOVDQU Y0, (DI)(R13*1); \
	ADDQ $32, R13; \
	SUBQ $2, BX; \
	JMP  loop; \
tail: \
	TESTQ BX, BX; \
	JZ    done; \
	VMOVDQU (SI)(R13*1), X0; \
	VMOVDQU (DX)(R13*1), X1; \
	OP   X1, X0, X0; \
	VMOVDQU X0, (DI)(R13*1); \
done: \
	VZEROUPPER; \
	RET

// func add32AVX2(d, a, b *[64]uint32, n int)
TEXT ·add32AVX2(SB), NOSPLIT, $0-32
	ROW32(VPADDD)

// func sub32AVX2(d, a, b *[64]uint32, n int)
TEXT ·sub32AVX2(SB), NOSPLIT, $0-32
	ROW32(VPSUBD)

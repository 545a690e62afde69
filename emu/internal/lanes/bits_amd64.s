//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 bitwise rows and Fill (bits.go has their Go definitions).
// shiftLeftOrAVX2 runs eight lanes a YMM step, then one XMM step when a
// quad is left, so it reads and writes exactly the quads holding lanes 0
// to n-1; fillAVX2 stores whole blocks of eight.
//	BX	quads left (first (n+3)/4)
//	R13	byte offset of the step's first lane

// func shiftLeftOrAVX2(d, a, b, c *[64]uint32, n int)
TEXT ·shiftLeftOrAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R11
	MOVQ n+32(FP), BX
	ADDQ $3, BX
	SHRQ $2, BX
	XORQ R13, R13
	// Y7 = 31 in every lane: the shift counts' mask.
	MOVL $31, AX
	VMOVD AX, X7
	VPBROADCASTD X7, Y7
loop:
	CMPQ BX, $2
	JB   tail
	// d = a << (b & 31) | c, eight lanes.
	VPAND (DX)(R13*1), Y7, Y1
	VMOVDQU (SI)(R13*1), Y0
	VPSLLVD Y1, Y0, Y0
	VPOR (R11)(R13*1), Y0, Y0
	VMOVDQU Y0, (DI)(R13*1)
	ADDQ $32, R13
	SUBQ $2, BX
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	// The last quad, four lanes.
	VPAND (DX)(R13*1), X7, X1
	VMOVDQU (SI)(R13*1), X0
	VPSLLVD X1, X0, X0
	VPOR (R11)(R13*1), X0, X0
	VMOVDQU X0, (DI)(R13*1)
done:
	VZEROUPPER
	RET

// func fillAVX2(d *[64]uint32, x uint32, n int)
TEXT ·fillAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVL x+8(FP), AX
	VMOVD AX, X0
	VPBROADCASTD X0, Y0
	// BX = blocks of eight lanes to store: (n+7)/8.
	MOVQ n+16(FP), BX
	ADDQ $7, BX
	SHRQ $3, BX
	JZ   done
loop:
	VMOVDQU Y0, (DI)
	ADDQ $32, DI
	DECQ BX
	JNZ  loop
done:
	VZEROUPPER
	RET

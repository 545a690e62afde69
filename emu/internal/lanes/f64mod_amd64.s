//go:build amd64 && !purego

#include "textflag.h"

// func signsF64AVX(d, a *F64, am, nm uint32)
// Eight lanes a step: the low dwords copied, the high dwords ANDed with
// ^am and XORed with nm. CX is the step's byte offset in a row.
TEXT ·signsF64AVX(SB), NOSPLIT, $0-24
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVL         am+16(FP), AX
	VMOVD        AX, X0
	VPBROADCASTD X0, Y0
	MOVL         nm+20(FP), AX
	VMOVD        AX, X1
	VPBROADCASTD X1, Y1
	XORQ         CX, CX

loop:
	VMOVDQU (SI)(CX*1), Y2    // low dwords: as they are
	VMOVDQU 256(SI)(CX*1), Y3 // high dwords: abs, then neg
	VPANDN  Y3, Y0, Y3
	VPXOR   Y1, Y3, Y3
	VMOVDQU Y2, (DI)(CX*1)
	VMOVDQU Y3, 256(DI)(CX*1)
	ADDQ    $32, CX
	CMPQ    CX, $256
	JNE     loop
	VZEROUPPER
	RET

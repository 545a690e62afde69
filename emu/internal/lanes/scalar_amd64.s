//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 scalar-operand rows (scalar.go has their Go definitions). The
// scalar is broadcast to every lane of Y15 (VPBROADCASTD) once; each row
// then runs eight lanes a YMM step and one XMM step when a quad is left,
// so it reads and writes exactly the quads holding lanes 0 to n-1.
//	BX	quads left (first (n+3)/4)
//	R13	byte offset of the step's first lane
//	CX	the step's first lane (the shift of its mask bits)
//	AX	the mask built so far
// Plan 9 operand order is Intel's reversed: VPSUBD B, A, D is D = A - B.

// ROWS is the body of a row d = OP(a, x): OP sets D from a's lanes in A
// and x's in X, clobbering A. d at DI, a at SI, n at n+24(FP).
#define ROWS(OP) \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVL x+16(FP), R8; \
	VMOVD R8, X15; \
	VPBROADCASTD X15, Y15; \
	MOVQ n+24(FP), BX; \
	ADDQ $3, BX; \
	SHRQ $2, BX; \
	XORQ R13, R13; \
loop: \
	CMPQ BX, $2; \
	JB   tail; \
	VMOVDQU (SI)(R13*1), Y0; \
	OP(Y0, Y15, Y1, Y2); \
	VMOVDQU Y1, (DI)(R13*1); \
	ADDQ $32, R13; \
	SUBQ $2, BX; \
	JMP  loop; \
tail: \
	TESTQ BX, BX; \
	JZ    done; \
	VMOVDQU (SI)(R13*1), X0; \
	OP(X0, X15, X1, X2); \
	VMOVDQU X1, (DI)(R13*1); \
done: \
	VZEROUPPER; \
	RET

#define ADDS(A, X, D, T) VPADDD X, A, D
#define SUBFROMS(A, X, D, T) VPSUBD A, X, D
#define MULLOS(A, X, D, T) VPMULLD X, A, D

// MULHIS: the even lanes' products (qwords) in D, the odd lanes' in T;
// the high dwords in lane order are D's shifted down blended with T's.
#define MULHIS(A, X, D, T) \
	VPMULUDQ X, A, D; \
	VPSRLQ   $32, A, A; \
	VPMULUDQ X, A, T; \
	VPSRLQ   $32, D, D; \
	VPBLENDD $0xAA, T, D, D

// SHIFTS is the body of a shift d = OP(a) by x & 31, the count in X14.
#define SHIFTS(OP) \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVL x+16(FP), R8; \
	ANDL $31, R8; \
	VMOVD R8, X14; \
	MOVQ n+24(FP), BX; \
	ADDQ $3, BX; \
	SHRQ $2, BX; \
	XORQ R13, R13; \
loop: \
	CMPQ BX, $2; \
	JB   tail; \
	VMOVDQU (SI)(R13*1), Y0; \
	OP   X14, Y0, Y1; \
	VMOVDQU Y1, (DI)(R13*1); \
	ADDQ $32, R13; \
	SUBQ $2, BX; \
	JMP  loop; \
tail: \
	TESTQ BX, BX; \
	JZ    done; \
	VMOVDQU (SI)(R13*1), X0; \
	OP   X14, X0, X1; \
	VMOVDQU X1, (DI)(R13*1); \
done: \
	VZEROUPPER; \
	RET

// COMPARES is the body of a compare of a (at SI) with the scalar z in Z
// (Y15), the lanes XORed with F (Y14) first: OP sets T from A and Z, and
// T's sign bits are the step's lane bits, added to AX.
#define COMPARES(OP) \
	MOVQ n+16(FP), BX; \
	ADDQ $3, BX; \
	SHRQ $2, BX; \
	XORQ R13, R13; \
	XORQ CX, CX; \
	XORQ AX, AX; \
loop: \
	CMPQ BX, $2; \
	JB   tail; \
	VPXOR (SI)(R13*1), Y14, Y0; \
	OP(Y0, Y15, Y1); \
	VMOVMSKPS Y1, R8; \
	SHLQ CX, R8; \
	ORQ  R8, AX; \
	ADDQ $32, R13; \
	ADDQ $8, CX; \
	SUBQ $2, BX; \
	JMP  loop; \
tail: \
	TESTQ BX, BX; \
	JZ    done; \
	VPXOR (SI)(R13*1), X14, X0; \
	OP(X0, X15, X1); \
	VMOVMSKPS X1, R8; \
	SHLQ CX, R8; \
	ORQ  R8, AX; \
done: \
	VZEROUPPER; \
	MOVQ AX, ret+24(FP); \
	RET

// FLIPS sets Y14 to flip and Y15 to x^flip in every lane.
#define FLIPS \
	MOVQ a+0(FP), SI; \
	MOVL x+8(FP), R8; \
	MOVL flip+12(FP), R9; \
	XORL R9, R8; \
	VMOVD R9, X14; \
	VPBROADCASTD X14, Y14; \
	VMOVD R8, X15; \
	VPBROADCASTD X15, Y15

// LESSS: z > a as int32s; GREATERS: a > z; EQUALS: a == z.
#define LESSS(A, Z, T) VPCMPGTD A, Z, T
#define GREATERS(A, Z, T) VPCMPGTD Z, A, T
#define EQUALS(A, Z, T) VPCMPEQD Z, A, T

// func addSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·addSAVX2(SB), NOSPLIT, $0-32
	ROWS(ADDS)

// func subFromSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·subFromSAVX2(SB), NOSPLIT, $0-32
	ROWS(SUBFROMS)

// func mulLoSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·mulLoSAVX2(SB), NOSPLIT, $0-32
	ROWS(MULLOS)

// func mulHiSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·mulHiSAVX2(SB), NOSPLIT, $0-32
	ROWS(MULHIS)

// func shiftLeftSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·shiftLeftSAVX2(SB), NOSPLIT, $0-32
	SHIFTS(VPSLLD)

// func shiftRightSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·shiftRightSAVX2(SB), NOSPLIT, $0-32
	SHIFTS(VPSRLD)

// func shiftRightSignedSAVX2(d, a *[64]uint32, x uint32, n int)
TEXT ·shiftRightSignedSAVX2(SB), NOSPLIT, $0-32
	SHIFTS(VPSRAD)

// func lessSAVX2(a *[64]uint32, x, flip uint32, n int) uint64
TEXT ·lessSAVX2(SB), NOSPLIT, $0-32
	FLIPS
	COMPARES(LESSS)

// func greaterSAVX2(a *[64]uint32, x, flip uint32, n int) uint64
TEXT ·greaterSAVX2(SB), NOSPLIT, $0-32
	FLIPS
	COMPARES(GREATERS)

// func equalSAVX2(a *[64]uint32, x uint32, n int) uint64
TEXT ·equalSAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	VPXOR Y14, Y14, Y14
	MOVL x+8(FP), R8
	VMOVD R8, X15
	VPBROADCASTD X15, Y15
	COMPARES(EQUALS)

//go:build amd64 && !purego

#include "textflag.h"

// The flushing f32 rows eight lanes a step, laid out as f32_amd64.s
// (DI = d, SI = a, DX = b, R9 = c, CX = the first lane of the step, BX =
// the quads left, R8 = the lanes found NaN). A step STEP(A, B, C, M, KE,
// KI, KO, KZ) works in A, B, C and M with the constants KE = 0x7f800000,
// KI and KO = the bits a denormal input and result lose, KZ = 0 (Y9..Y12,
// or X9..X12 for the last single quad). The arithmetic rows flush their
// inputs with MXCSR's DAZ (denormals are zero: a denormal source counts
// as a zero of its sign), set while they run when in is not 0 (assembly
// is never preempted asynchronously: no other code sees it). Results they
// flush themselves: MXCSR's FTZ decides underflow before rounding, the
// GPU after.

// ROWSF runs STEP over the (n+3)/4 quads in BX, as ROWS does.
#define ROWSF(STEP) \
	XORL  CX, CX                                  \
	XORL  R8, R8                                  \
	ADDQ  $3, BX                                  \
	SHRQ  $2, BX                                  \
eight:                                                \
	CMPQ  BX, $2                                  \
	JB    last                                    \
	STEP(Y0, Y1, Y2, Y14, Y9, Y10, Y11, Y12)      \
	ADDQ  $8, CX                                  \
	SUBQ  $2, BX                                  \
	JMP   eight                                   \
last:                                                 \
	TESTQ BX, BX                                  \
	JZ    done                                    \
	STEP(X0, X1, X2, X14, X9, X10, X11, X12)      \
done:                                                 \
	VZEROUPPER

// FTZ clears the bits K of A's denormals and zeros (T a temporary).
#define FTZ(A, T, KE, K, KZ) \
	VPAND    KE, A, T   \
	VPCMPEQD KZ, T, T   \
	VPAND    K, T, T    \
	VPANDN   A, T, A

// LOAD loads lanes of P into A (DAZ flushes them as they are used).
#define LOAD(P, A) \
	VMOVUPS P(CX*4), A

// STOREF writes A, flushed by KO, to d but for its NaN lanes, which keep
// d's words and are added to R8.
#define STOREF(A, T, M, KE, KO, KZ) \
	VCMPPS    $3, A, A, M        \
	FTZ(A, T, KE, KO, KZ)        \
	VBLENDVPS M, (DI)(CX*4), A, A \
	VMOVUPS   A, (DI)(CX*4)      \
	VMOVMSKPS M, AX              \
	SHLQ      CX, AX             \
	ORQ       AX, R8

#define FADD(A, B, C, M, KE, KI, KO, KZ) \
	LOAD((SI), A) \
	LOAD((DX), B) \
	VADDPS B, A, A                \
	STOREF(A, C, M, KE, KO, KZ)

#define FSUB(A, B, C, M, KE, KI, KO, KZ) \
	LOAD((SI), A) \
	LOAD((DX), B) \
	VSUBPS B, A, A                \
	STOREF(A, C, M, KE, KO, KZ)

#define FMUL(A, B, C, M, KE, KI, KO, KZ) \
	LOAD((SI), A) \
	LOAD((DX), B) \
	VMULPS B, A, A                \
	STOREF(A, C, M, KE, KO, KZ)

// FMAD flushes the rounded product by KO before the add.
#define FMAD(A, B, C, M, KE, KI, KO, KZ) \
	LOAD((SI), A) \
	LOAD((DX), B) \
	VMULPS B, A, A                \
	FTZ(A, C, KE, KO, KZ)         \
	LOAD((R9), B) \
	VADDPS B, A, A                \
	STOREF(A, C, M, KE, KO, KZ)

// FFMA rounds a × b + c once (VFMADD213PS).
#define FFMA(A, B, C, M, KE, KI, KO, KZ) \
	LOAD((SI), A) \
	LOAD((DX), B) \
	LOAD((R9), C) \
	VFMADD213PS C, B, A           \
	STOREF(A, C, M, KE, KO, KZ)

// FLUSH copies a flushed by KI (no NaN lanes).
#define FLUSH(A, B, C, M, KE, KI, KO, KZ) \
	LOAD((SI), A)         \
	FTZ(A, C, KE, KI, KZ) \
	VMOVUPS A, (DI)(CX*4)

// CONSTS sets KE, KI (from in), KO (from out) and KZ.
// (VEX encodings only: no SSE/AVX transitions.)
#define CONSTS(in, out) \
	MOVL         $0x7f800000, AX \
	VMOVD        AX, X9          \
	VPBROADCASTD X9, Y9          \
	VPBROADCASTD in, Y10         \
	VPBROADCASTD out, Y11        \
	VPXOR        Y12, Y12, Y12

// DAZ sets MXCSR's DAZ bit when in is not 0, keeping MXCSR at 0(SP);
// UNDAZ restores it.
#define DAZ(in) \
	STMXCSR 0(SP)        \
	MOVL    0(SP), AX    \
	MOVL    in, R10      \
	TESTL   R10, R10     \
	JZ      keepin       \
	ORL     $0x40, AX    \
keepin:                      \
	MOVL    AX, 4(SP)    \
	LDMXCSR 4(SP)

#define UNDAZ LDMXCSR 0(SP)

// BINARYF is the body of a function d, a, b, n, in, out → NaN lanes.
#define BINARYF(STEP) \
	MOVQ d+0(FP), DI                  \
	MOVQ a+8(FP), SI                  \
	MOVQ b+16(FP), DX                 \
	MOVQ n+24(FP), BX                 \
	CONSTS(in+32(FP), out+36(FP))     \
	DAZ(in+32(FP))                    \
	ROWSF(STEP)                       \
	UNDAZ                             \
	MOVQ R8, ret+40(FP)               \
	RET

// TERNARYF is the body of a function d, a, b, c, n, in, out → NaN lanes.
#define TERNARYF(STEP) \
	MOVQ d+0(FP), DI                  \
	MOVQ a+8(FP), SI                  \
	MOVQ b+16(FP), DX                 \
	MOVQ c+24(FP), R9                 \
	MOVQ n+32(FP), BX                 \
	CONSTS(in+40(FP), out+44(FP))     \
	DAZ(in+40(FP))                    \
	ROWSF(STEP)                       \
	UNDAZ                             \
	MOVQ R8, ret+48(FP)               \
	RET

// func flushF32AVX(d, a *[64]uint32, n int, m uint32)
TEXT ·flushF32AVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	CONSTS(m+24(FP), m+24(FP))
	ROWSF(FLUSH)
	RET

// func addF32FlushAVX(d, a, b *[64]uint32, n int, in, out uint32) uint64
TEXT ·addF32FlushAVX(SB), NOSPLIT, $8-48
	BINARYF(FADD)

// func subF32FlushAVX(d, a, b *[64]uint32, n int, in, out uint32) uint64
TEXT ·subF32FlushAVX(SB), NOSPLIT, $8-48
	BINARYF(FSUB)

// func mulF32FlushAVX(d, a, b *[64]uint32, n int, in, out uint32) uint64
TEXT ·mulF32FlushAVX(SB), NOSPLIT, $8-48
	BINARYF(FMUL)

// func madF32FlushAVX(d, a, b, c *[64]uint32, n int, in, out uint32) uint64
TEXT ·madF32FlushAVX(SB), NOSPLIT, $8-56
	TERNARYF(FMAD)

// func fmaF32FlushAVX(d, a, b, c *[64]uint32, n int, in, out uint32) uint64
TEXT ·fmaF32FlushAVX(SB), NOSPLIT, $8-56
	TERNARYF(FFMA)

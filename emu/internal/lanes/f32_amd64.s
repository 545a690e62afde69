//go:build amd64 && !purego

#include "textflag.h"

// The f32 rows eight lanes a step. Registers: DI = d, SI = a, DX = b,
// R9 = c, CX = the first lane of the step, BX = the quads left, R8 = the
// lanes found NaN. A step's macro STEP(A, B, C, M, K1, K2, K3) works in
// the registers A, B, C and M (the NaN mask) with the constants K1..K3
// (Y9..Y11, set by the function): Y registers for eight lanes, X for the
// last single quad, so that no load reads past lane 63.

// ROWS runs STEP over the (n+3)/4 quads in BX: pairs of quads, then a
// last single quad. The mask of NaN lanes is left in R8.
#define ROWS(STEP) \
	XORL  CX, CX                            \
	XORL  R8, R8                            \
	ADDQ  $3, BX                            \
	SHRQ  $2, BX                            \
eight:                                          \
	CMPQ  BX, $2                            \
	JB    last                              \
	STEP(Y0, Y1, Y2, Y14, Y9, Y10, Y11)     \
	ADDQ  $8, CX                            \
	SUBQ  $2, BX                            \
	JMP   eight                             \
last:                                           \
	TESTQ BX, BX                            \
	JZ    done                              \
	STEP(X0, X1, X2, X14, X9, X10, X11)     \
done:                                           \
	VZEROUPPER

// STORE writes A to d but for its NaN lanes, which keep d's words and
// are added to R8.
#define STORE(A, M) \
	VCMPPS    $3, A, A, M          \
	KEEP(A, M)

// KEEP writes A to d but for the lanes in the mask M, which keep d's
// words and are added to R8.
#define KEEP(A, M) \
	VBLENDVPS M, (DI)(CX*4), A, A  \
	VMOVUPS   A, (DI)(CX*4)        \
	VMOVMSKPS M, AX                \
	SHLQ      CX, AX               \
	ORQ       AX, R8

// The arithmetic steps: a (op) b …, then STORE.
#define ADD(A, B, C, M, K1, K2, K3) \
	VMOVUPS (SI)(CX*4), A       \
	VADDPS  (DX)(CX*4), A, A    \
	STORE(A, M)

#define SUB(A, B, C, M, K1, K2, K3) \
	VMOVUPS (SI)(CX*4), A       \
	VSUBPS  (DX)(CX*4), A, A    \
	STORE(A, M)

#define MUL(A, B, C, M, K1, K2, K3) \
	VMOVUPS (SI)(CX*4), A       \
	VMULPS  (DX)(CX*4), A, A    \
	STORE(A, M)

// MAD rounds the product before the add: two instructions, not an fma.
#define MAD(A, B, C, M, K1, K2, K3) \
	VMOVUPS (SI)(CX*4), A       \
	VMULPS  (DX)(CX*4), A, A    \
	VADDPS  (R9)(CX*4), A, A    \
	STORE(A, M)

// FMA rounds a × b + c once (VFMADD213PS).
#define FMA(A, B, C, M, K1, K2, K3) \
	VMOVUPS     (SI)(CX*4), A    \
	VMOVUPS     (DX)(CX*4), B    \
	VFMADD213PS (R9)(CX*4), B, A \
	STORE(A, M)

// RCP divides K1 = 1.0 by a.
#define RCP(A, B, C, M, K1, K2, K3) \
	VMOVUPS (SI)(CX*4), A       \
	VDIVPS  A, K1, A            \
	STORE(A, M)

// ROUND rounds a with VROUNDPS's mode (0 nearest even, 1 floor, 2 ceil,
// 3 trunc).
#define ROUND(mode, A, M) \
	VROUNDPS $mode, (SI)(CX*4), A \
	STORE(A, M)

#define TRUNC(A, B, C, M, K1, K2, K3) ROUND(3, A, M)
#define FLOOR(A, B, C, M, K1, K2, K3) ROUND(1, A, M)
#define CEIL(A, B, C, M, K1, K2, K3) ROUND(2, A, M)
#define RNDNE(A, B, C, M, K1, K2, K3) ROUND(0, A, M)

// FROMU32 converts the high and low 16 bits of a apart (both exactly)
// and adds them: K1 = 65536.0, K2 = 0xffff. The one rounding is the sum's.
#define FROMU32(A, B, C, M, K1, K2, K3) \
	VMOVDQU    (SI)(CX*4), A   \
	VPSRLD     $16, A, B       \
	VCVTDQ2PS  B, B            \
	VMULPS     K1, B, B        \
	VPAND      K2, A, A        \
	VCVTDQ2PS  A, A            \
	VADDPS     B, A, A         \
	VMOVUPS    A, (DI)(CX*4)

// FROMI32 converts a (VCVTDQ2PS rounds to nearest even).
#define FROMI32(A, B, C, M, K1, K2, K3) \
	VCVTDQ2PS (SI)(CX*4), A    \
	VMOVUPS   A, (DI)(CX*4)

// TOI32 truncates a (0x80000000 out of range and for NaNs), flips that to
// 0x7fffffff from 2^31 (K1) up and zeroes the NaN lanes.
#define TOI32(A, B, C, M, K1, K2, K3) \
	VMOVUPS    (SI)(CX*4), A    \
	VCVTTPS2DQ A, M             \
	VCMPPS     $0x1d, K1, A, C  \
	VPXOR      C, M, M          \
	VCMPPS     $7, A, A, C      \
	VPAND      C, M, M          \
	VMOVDQU    M, (DI)(CX*4)

// TOU32 truncates a: below 2^31 (K1) directly; from 2^31 as a - 2^31
// with the top bit set back (K2 = 0x80000000); from 2^32 (K3) all ones;
// not above 0 (a NaN too) zero.
#define TOU32(A, B, C, M, K1, K2, K3) \
	VMOVUPS    (SI)(CX*4), A    \
	VCVTTPS2DQ A, M             \
	VSUBPS     K1, A, B         \
	VCVTTPS2DQ B, B             \
	VPXOR      K2, B, B         \
	VCMPPS     $0x1d, K1, A, C  \
	VBLENDVPS  C, B, M, M       \
	VCMPPS     $0x1d, K3, A, C  \
	VPOR       C, M, M          \
	VXORPS     B, B, B          \
	VCMPPS     $0x1e, B, A, C   \
	VPAND      C, M, M          \
	VMOVDQU    M, (DI)(CX*4)

// ORDER maps A's f32s to int32s in the order of their values (-0 below
// +0), or back: negative numbers' magnitude bits are flipped.
#define ORDER(A, C) \
	VPSRAD $31, A, C \
	VPSRLD $1, C, C  \
	VPXOR  C, A, A

// MINMAX takes VPMINSD or VPMAXSD of the ordered a and b, for the lanes
// where neither is a NaN (K1 = 0x7fffffff, K2 = 0x7f800000: M marks the
// rest).
#define MINMAX(OP, A, B, C, M, K1, K2) \
	VPAND    (SI)(CX*4), K1, C  \
	VPCMPGTD K2, C, M           \
	VPAND    (DX)(CX*4), K1, C  \
	VPCMPGTD K2, C, C           \
	VPOR     C, M, M            \
	VMOVDQU  (SI)(CX*4), A      \
	ORDER(A, C)                 \
	VMOVDQU  (DX)(CX*4), B      \
	ORDER(B, C)                 \
	OP       B, A, A            \
	ORDER(A, C)                 \
	KEEP(A, M)

#define MIN(A, B, C, M, K1, K2, K3) MINMAX(VPMINSD, A, B, C, M, K1, K2)
#define MAX(A, B, C, M, K1, K2, K3) MINMAX(VPMAXSD, A, B, C, M, K1, K2)

// BCASTD sets every double word of Y to v.
#define BCASTD(v, X, Y) \
	MOVL         $v, AX \
	MOVL         AX, X  \
	VPBROADCASTD X, Y

// BINARY is the body of a function d, a, b, n → NaN lanes.
#define BINARY(STEP) \
	MOVQ d+0(FP), DI    \
	MOVQ a+8(FP), SI    \
	MOVQ b+16(FP), DX   \
	MOVQ n+24(FP), BX   \
	ROWS(STEP)          \
	MOVQ R8, ret+32(FP) \
	RET

// UNARY is the body of a function d, a, n → NaN lanes.
#define UNARY(STEP) \
	MOVQ d+0(FP), DI    \
	MOVQ a+8(FP), SI    \
	MOVQ n+16(FP), BX   \
	ROWS(STEP)          \
	MOVQ R8, ret+24(FP) \
	RET

// func addF32AVX(d, a, b *[64]uint32, n int) uint64
TEXT ·addF32AVX(SB), NOSPLIT, $0-40
	BINARY(ADD)

// func subF32AVX(d, a, b *[64]uint32, n int) uint64
TEXT ·subF32AVX(SB), NOSPLIT, $0-40
	BINARY(SUB)

// func mulF32AVX(d, a, b *[64]uint32, n int) uint64
TEXT ·mulF32AVX(SB), NOSPLIT, $0-40
	BINARY(MUL)

// func madF32AVX(d, a, b, c *[64]uint32, n int) uint64
TEXT ·madF32AVX(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R9
	MOVQ n+32(FP), BX
	ROWS(MAD)
	MOVQ R8, ret+40(FP)
	RET

// func fmaF32AVX(d, a, b, c *[64]uint32, n int) uint64
TEXT ·fmaF32AVX(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R9
	MOVQ n+32(FP), BX
	ROWS(FMA)
	MOVQ R8, ret+40(FP)
	RET

// func rcpF32AVX(d, a *[64]uint32, n int) uint64
TEXT ·rcpF32AVX(SB), NOSPLIT, $0-32
	BCASTD(0x3f800000, X9, Y9)
	UNARY(RCP)

// func truncF32AVX(d, a *[64]uint32, n int) uint64
TEXT ·truncF32AVX(SB), NOSPLIT, $0-32
	UNARY(TRUNC)

// func floorF32AVX(d, a *[64]uint32, n int) uint64
TEXT ·floorF32AVX(SB), NOSPLIT, $0-32
	UNARY(FLOOR)

// func ceilF32AVX(d, a *[64]uint32, n int) uint64
TEXT ·ceilF32AVX(SB), NOSPLIT, $0-32
	UNARY(CEIL)

// func rndneF32AVX(d, a *[64]uint32, n int) uint64
TEXT ·rndneF32AVX(SB), NOSPLIT, $0-32
	UNARY(RNDNE)

// func f32FromU32AVX(d, a *[64]uint32, n int)
TEXT ·f32FromU32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	BCASTD(0x47800000, X9, Y9)
	BCASTD(0xffff, X10, Y10)
	ROWS(FROMU32)
	RET

// func u32FromF32AVX(d, a *[64]uint32, n int)
TEXT ·u32FromF32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	BCASTD(0x4f000000, X9, Y9)
	BCASTD(0x80000000, X10, Y10)
	BCASTD(0x4f800000, X11, Y11)
	ROWS(TOU32)
	RET

// func minF32AVX(d, a, b *[64]uint32, n int) uint64
TEXT ·minF32AVX(SB), NOSPLIT, $0-40
	BCASTD(0x7fffffff, X9, Y9)
	BCASTD(0x7f800000, X10, Y10)
	BINARY(MIN)

// func maxF32AVX(d, a, b *[64]uint32, n int) uint64
TEXT ·maxF32AVX(SB), NOSPLIT, $0-40
	BCASTD(0x7fffffff, X9, Y9)
	BCASTD(0x7f800000, X10, Y10)
	BINARY(MAX)

// func f32FromI32AVX(d, a *[64]uint32, n int)
TEXT ·f32FromI32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(FROMI32)
	RET

// func i32FromF32AVX(d, a *[64]uint32, n int)
TEXT ·i32FromF32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	BCASTD(0x4f000000, X9, Y9)
	ROWS(TOI32)
	RET

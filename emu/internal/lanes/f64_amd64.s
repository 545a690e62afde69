//go:build amd64 && !purego

#include "textflag.h"

// The f64 rows eight lanes a step. Registers: DI = d, SI = a, DX = b,
// R9 = c, CX = the first lane of the step, BX = the quads left, R8 = the
// NaN lanes found, Y9 = a uniform operand, Y10 = a's sign flip.
//
// LOAD reads lanes CX..CX+7 (or CX..CX+3 with L0, L1 = X12, X13) of the
// register at R, low words then high words, and interleaves them: A holds
// the f64 lanes 0, 1, 4, 5 of the eight, B lanes 2, 3, 6, 7.
#define LOAD(R, L0, L1, A, B) \
	VMOVDQU    (R)(CX*4), L0    \
	VMOVDQU    256(R)(CX*4), L1 \
	VPUNPCKLDQ Y13, Y12, A      \
	VPUNPCKHDQ Y13, Y12, B

// STORE splits the results Y0, Y1 (LOAD's order) back into low words
// (Y12) and high words (Y13), keeps d's old words in the NaN lanes (Y14,
// the unordered compare), writes the eight (or four with S0, S1 = X12,
// X13) lanes and adds the NaN lanes to R8.
#define STORE(S0, S1) \
	VCMPPD    $3, Y0, Y0, Y14             \
	VCMPPD    $3, Y1, Y1, Y13             \
	VSHUFPS   $0x88, Y13, Y14, Y14        \
	VSHUFPS   $0x88, Y1, Y0, Y12          \
	VSHUFPS   $0xdd, Y1, Y0, Y13          \
	VBLENDVPS Y14, (DI)(CX*4), Y12, Y12   \
	VBLENDVPS Y14, 256(DI)(CX*4), Y13, Y13 \
	VMOVDQU   S0, (DI)(CX*4)              \
	VMOVDQU   S1, 256(DI)(CX*4)           \
	VMOVMSKPS Y14, AX                     \
	SHLQ      CX, AX                      \
	ORQ       AX, R8

// ROWS runs BODY (LOAD and compute into Y0, Y1) and STORE over the
// (n+3)/4 quads in BX: pairs of quads, then a last single quad. The NaN
// mask is left in R8.
#define ROWS(BODY) \
	XORL  CX, CX       \
	XORL  R8, R8       \
	ADDQ  $3, BX       \
	SHRQ  $2, BX       \
eight:                 \
	CMPQ  BX, $2       \
	JB    last         \
	BODY(Y12, Y13)     \
	STORE(Y12, Y13)    \
	ADDQ  $8, CX       \
	SUBQ  $2, BX       \
	JMP   eight        \
last:                  \
	TESTQ BX, BX       \
	JZ    done         \
	BODY(X12, X13)     \
	STORE(X12, X13)    \
done:                  \
	VZEROUPPER

#define ADD(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	LOAD(DX, L0, L1, Y2, Y3) \
	VADDPD Y2, Y0, Y0        \
	VADDPD Y3, Y1, Y1

#define ADDU(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	VADDPD Y9, Y0, Y0        \
	VADDPD Y9, Y1, Y1

#define MUL(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	LOAD(DX, L0, L1, Y2, Y3) \
	VMULPD Y2, Y0, Y0        \
	VMULPD Y3, Y1, Y1

#define MULU(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	VMULPD Y9, Y0, Y0        \
	VMULPD Y9, Y1, Y1

// NEGA loads a with its sign flip.
#define NEGA(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	VXORPD Y10, Y0, Y0       \
	VXORPD Y10, Y1, Y1

#define FMA(L0, L1) \
	NEGA(L0, L1)             \
	LOAD(DX, L0, L1, Y2, Y3) \
	LOAD(R9, L0, L1, Y4, Y5) \
	VFMADD213PD Y4, Y2, Y0   \
	VFMADD213PD Y5, Y3, Y1

#define FMAUB(L0, L1) \
	NEGA(L0, L1)             \
	LOAD(R9, L0, L1, Y4, Y5) \
	VFMADD213PD Y4, Y9, Y0   \
	VFMADD213PD Y5, Y9, Y1

#define FMAUC(L0, L1) \
	NEGA(L0, L1)             \
	LOAD(DX, L0, L1, Y2, Y3) \
	VFMADD213PD Y9, Y2, Y0   \
	VFMADD213PD Y9, Y3, Y1

// RCP divides Y9 = 1.0 by a.
#define RCP(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	VDIVPD Y0, Y9, Y0        \
	VDIVPD Y1, Y9, Y1

#define RSQ(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	VSQRTPD Y0, Y0           \
	VSQRTPD Y1, Y1           \
	VDIVPD  Y0, Y9, Y0       \
	VDIVPD  Y1, Y9, Y1

#define SQRT(L0, L1) \
	LOAD(SI, L0, L1, Y0, Y1) \
	VSQRTPD Y0, Y0           \
	VSQRTPD Y1, Y1

// ONE sets Y9 to 1.0 in every element.
#define ONE \
	MOVQ         $0x3ff0000000000000, AX \
	MOVQ         AX, X9                  \
	VPBROADCASTQ X9, Y9

// func addF64AVX(d, a, b *F64, n int) uint64
TEXT ·addF64AVX(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	ROWS(ADD)
	MOVQ R8, ret+32(FP)
	RET

// func addF64UAVX(d, a *F64, y float64, n int) uint64
TEXT ·addF64UAVX(SB), NOSPLIT, $0-40
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	VBROADCASTSD y+16(FP), Y9
	MOVQ         n+24(FP), BX
	ROWS(ADDU)
	MOVQ         R8, ret+32(FP)
	RET

// func mulF64AVX(d, a, b *F64, n int) uint64
TEXT ·mulF64AVX(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	ROWS(MUL)
	MOVQ R8, ret+32(FP)
	RET

// func mulF64UAVX(d, a *F64, y float64, n int) uint64
TEXT ·mulF64UAVX(SB), NOSPLIT, $0-40
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	VBROADCASTSD y+16(FP), Y9
	MOVQ         n+24(FP), BX
	ROWS(MULU)
	MOVQ         R8, ret+32(FP)
	RET

// func fmaF64AVX(d, a, b, c *F64, an uint64, n int) uint64
TEXT ·fmaF64AVX(SB), NOSPLIT, $0-56
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), DX
	MOVQ         c+24(FP), R9
	VPBROADCASTQ an+32(FP), Y10
	MOVQ         n+40(FP), BX
	ROWS(FMA)
	MOVQ         R8, ret+48(FP)
	RET

// func fmaF64UBAVX(d, a *F64, y float64, c *F64, an uint64, n int) uint64
TEXT ·fmaF64UBAVX(SB), NOSPLIT, $0-56
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	VBROADCASTSD y+16(FP), Y9
	MOVQ         c+24(FP), R9
	VPBROADCASTQ an+32(FP), Y10
	MOVQ         n+40(FP), BX
	ROWS(FMAUB)
	MOVQ         R8, ret+48(FP)
	RET

// func fmaF64UCAVX(d, a, b *F64, z float64, an uint64, n int) uint64
TEXT ·fmaF64UCAVX(SB), NOSPLIT, $0-56
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), DX
	VBROADCASTSD z+24(FP), Y9
	VPBROADCASTQ an+32(FP), Y10
	MOVQ         n+40(FP), BX
	ROWS(FMAUC)
	MOVQ         R8, ret+48(FP)
	RET

// func rcpF64AVX(d, a *F64, n int) uint64
TEXT ·rcpF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ONE
	ROWS(RCP)
	MOVQ R8, ret+24(FP)
	RET

// func rsqF64AVX(d, a *F64, n int) uint64
TEXT ·rsqF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ONE
	ROWS(RSQ)
	MOVQ R8, ret+24(FP)
	RET

// func sqrtF64AVX(d, a *F64, n int) uint64
TEXT ·sqrtF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(SQRT)
	MOVQ R8, ret+24(FP)
	RET

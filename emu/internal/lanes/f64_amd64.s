//go:build amd64 && !purego

#include "textflag.h"

// The f64 rows eight lanes a step. Registers: DI = d, SI = a, DX = b,
// R9 = c, CX + O/4 = the first lane of the step (O, a step's byte
// offset, is a macro argument), BX = the rounds left, R8 = the lanes
// found NaN (or left to the caller), Y9 = a uniform operand. A step reads
// eight lanes even when it writes only the last quad's four: that quad's
// index is even, so the reads stay within the 64 lanes.
//
// LOAD reads the step's eight lanes of the f64 register at R, low words
// then high words, and interleaves them: A holds the f64 lanes 0, 1, 4, 5
// of the eight, B lanes 2, 3, 6, 7.
#define LOAD(R, A, B, O)                  \
	VMOVDQU    O(R)(CX*4), Y12        \
	VPUNPCKLDQ O+256(R)(CX*4), Y12, A \
	VPUNPCKHDQ O+256(R)(CX*4), Y12, B

// SPLIT turns the f64 lanes Y0, Y1 (LOAD's order) back into low words
// (Y12) and high words (Y13).
#define SPLIT                      \
	VSHUFPS $0x88, Y1, Y0, Y12 \
	VSHUFPS $0xdd, Y1, Y0, Y13

// BLEND keeps d's words in the lanes of the mask Y14 (Y12 and Y13 get
// them) and adds those lanes to R8.
#define BLEND(O)                                 \
	VBLENDVPS Y14, O(DI)(CX*4), Y12, Y12     \
	VBLENDVPS Y14, O+256(DI)(CX*4), Y13, Y13 \
	VMOVMSKPS Y14, AX                        \
	SHLQ      CX, AX                         \
	SHLQ      $(O/4), AX                     \
	ORQ       AX, R8

// PUTW writes the words Y12 and Y13 to the eight (S0, S1 = Y12, Y13) or
// four (X12, X13) lanes of d.
#define PUTW(S0, S1, O)         \
	VMOVDQU S0, O(DI)(CX*4) \
	VMOVDQU S1, O+256(DI)(CX*4)

// KEEP writes the words Y12 and Y13 to d but for the lanes in the mask
// Y14, which keep d's words and are added to R8; a step without such
// lanes (the common case) jumps over BLEND to the label L.
#define KEEP(S0, S1, L, O) \
	VPTEST Y14, Y14    \
	JZ     L           \
	BLEND(O)           \
L:                         \
	PUTW(S0, S1, O)

// STORE writes the f64 lanes Y0, Y1 (LOAD's order) to d but for the NaN
// ones. One unordered compare of Y0 with Y1 finds whether the step has
// any; only then are they put in lane order in Y14 and kept (BLEND).
#define STORE(S0, S1, L, O)          \
	VCMPPD  $3, Y1, Y0, Y14      \
	SPLIT                        \
	VTESTPD Y14, Y14             \
	JZ      L                    \
	VCMPPD  $3, Y0, Y0, Y14      \
	VCMPPD  $3, Y1, Y1, Y15      \
	VSHUFPS $0x88, Y15, Y14, Y14 \
	BLEND(O)                     \
L:                                   \
	PUTW(S0, S1, O)

// ROWS runs STEP(S0, S1, L, O) (a step's loads, arithmetic and stores
// for the eight lanes from CX + O/4; L a label of its own) over the
// (n+3)/4 quads in BX: sixteen lanes a loop round (two steps, O = 0 and
// 32), then eight (R11&2), then a last single quad (R11&1). The mask of
// lanes is left in R8.
#define ROWS(STEP)                 \
	XORL  CX, CX               \
	XORL  R8, R8               \
	ADDQ  $3, BX               \
	SHRQ  $2, BX               \
	MOVQ  BX, R11              \
	SHRQ  $2, BX               \
	JZ    eight                \
sixteen:                           \
	STEP(Y12, Y13, put16a, 0)  \
	STEP(Y12, Y13, put16b, 32) \
	ADDQ  $16, CX              \
	DECQ  BX                   \
	JNZ   sixteen              \
eight:                             \
	TESTQ $2, R11              \
	JZ    last                 \
	STEP(Y12, Y13, put8, 0)    \
	ADDQ  $8, CX               \
last:                              \
	TESTQ $1, R11              \
	JZ    done                 \
	STEP(X12, X13, put4, 0)    \
done:                              \
	VZEROUPPER

// The float rows' steps: LOAD, the arithmetic into Y0 and Y1, STORE.
#define ADD(S0, S1, L, O)   \
	LOAD(SI, Y0, Y1, O) \
	LOAD(DX, Y2, Y3, O) \
	VADDPD Y2, Y0, Y0   \
	VADDPD Y3, Y1, Y1   \
	STORE(S0, S1, L, O)

#define ADDU(S0, S1, L, O)  \
	LOAD(SI, Y0, Y1, O) \
	VADDPD Y9, Y0, Y0   \
	VADDPD Y9, Y1, Y1   \
	STORE(S0, S1, L, O)

#define MUL(S0, S1, L, O)   \
	LOAD(SI, Y0, Y1, O) \
	LOAD(DX, Y2, Y3, O) \
	VMULPD Y2, Y0, Y0   \
	VMULPD Y3, Y1, Y1   \
	STORE(S0, S1, L, O)

#define MULU(S0, S1, L, O)  \
	LOAD(SI, Y0, Y1, O) \
	VMULPD Y9, Y0, Y0   \
	VMULPD Y9, Y1, Y1   \
	STORE(S0, S1, L, O)

// The fmas: OP is VFMADD213PD, or VFNMADD213PD (−(a × b) + c, rounded
// once, which is (−a) × b + c) when a's sign flips; with a uniform b the
// flip is y's.
#define FMA3(OP, S0, S1, L, O) \
	LOAD(SI, Y0, Y1, O)    \
	LOAD(DX, Y2, Y3, O)    \
	LOAD(R9, Y4, Y5, O)    \
	OP Y4, Y2, Y0          \
	OP Y5, Y3, Y1          \
	STORE(S0, S1, L, O)

#define FMA(S0, S1, L, O) FMA3(VFMADD213PD, S0, S1, L, O)
#define FNMA(S0, S1, L, O) FMA3(VFNMADD213PD, S0, S1, L, O)

#define FMAUB(S0, S1, L, O)    \
	LOAD(SI, Y0, Y1, O)    \
	LOAD(R9, Y4, Y5, O)    \
	VFMADD213PD Y4, Y9, Y0 \
	VFMADD213PD Y5, Y9, Y1 \
	STORE(S0, S1, L, O)

#define FMAUC3(OP, S0, S1, L, O) \
	LOAD(SI, Y0, Y1, O)      \
	LOAD(DX, Y2, Y3, O)      \
	OP Y9, Y2, Y0            \
	OP Y9, Y3, Y1            \
	STORE(S0, S1, L, O)

#define FMAUC(S0, S1, L, O) FMAUC3(VFMADD213PD, S0, S1, L, O)
#define FNMAUC(S0, S1, L, O) FMAUC3(VFNMADD213PD, S0, S1, L, O)

// RCP divides Y9 = 1.0 by a.
#define RCP(S0, S1, L, O)   \
	LOAD(SI, Y0, Y1, O) \
	VDIVPD Y0, Y9, Y0   \
	VDIVPD Y1, Y9, Y1   \
	STORE(S0, S1, L, O)

#define RSQ(S0, S1, L, O)   \
	LOAD(SI, Y0, Y1, O) \
	VSQRTPD Y0, Y0      \
	VSQRTPD Y1, Y1      \
	VDIVPD  Y0, Y9, Y0  \
	VDIVPD  Y1, Y9, Y1  \
	STORE(S0, S1, L, O)

#define SQRT(S0, S1, L, O)  \
	LOAD(SI, Y0, Y1, O) \
	VSQRTPD Y0, Y0      \
	VSQRTPD Y1, Y1      \
	STORE(S0, S1, L, O)

// BCASTQ and BCASTD set every quad or double word of Y to v.
#define BCASTQ(v, X, Y)     \
	MOVQ         $v, AX \
	MOVQ         AX, X  \
	VPBROADCASTQ X, Y

#define BCASTD(v, X, Y)     \
	MOVL         $v, AX \
	MOVL         AX, X  \
	VPBROADCASTD X, Y

// ONE sets Y9 to 1.0 in every element.
#define ONE BCASTQ(0x3ff0000000000000, X9, Y9)

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
	MOVQ an+32(FP), AX
	TESTQ AX, AX
	JZ   2(PC)
	JMP  ·fnmaF64AVX(SB)
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R9
	MOVQ n+40(FP), BX
	ROWS(FMA)
	MOVQ R8, ret+48(FP)
	RET

// func fnmaF64AVX(d, a, b, c *F64, an uint64, n int) uint64
TEXT ·fnmaF64AVX(SB), NOSPLIT, $0-56
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R9
	MOVQ n+40(FP), BX
	ROWS(FNMA)
	MOVQ R8, ret+48(FP)
	RET

// func fmaF64UBAVX(d, a *F64, y float64, c *F64, an uint64, n int) uint64
TEXT ·fmaF64UBAVX(SB), NOSPLIT, $0-56
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         y+16(FP), AX
	XORQ         an+32(FP), AX
	MOVQ         AX, X9
	VPBROADCASTQ X9, Y9
	MOVQ         c+24(FP), R9
	MOVQ         n+40(FP), BX
	ROWS(FMAUB)
	MOVQ         R8, ret+48(FP)
	RET

// func fmaF64UCAVX(d, a, b *F64, z float64, an uint64, n int) uint64
TEXT ·fmaF64UCAVX(SB), NOSPLIT, $0-56
	VBROADCASTSD z+24(FP), Y9
	MOVQ         an+32(FP), AX
	TESTQ        AX, AX
	JZ           2(PC)
	JMP          ·fnmaF64UCAVX(SB)
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), DX
	MOVQ         n+40(FP), BX
	ROWS(FMAUC)
	MOVQ         R8, ret+48(FP)
	RET

// func fnmaF64UCAVX(d, a, b *F64, z float64, an uint64, n int) uint64
TEXT ·fnmaF64UCAVX(SB), NOSPLIT, $0-56
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), DX
	VBROADCASTSD z+24(FP), Y9
	MOVQ         n+40(FP), BX
	ROWS(FNMAUC)
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

// The word rows' steps compute the result words into Y12, Y13 and the
// mask of lanes left to the caller into Y14, then KEEP.

// DIVSCALE: a but where expD (Y1) is 0, expN (Y0) < 53 (Y5) or expN -
// expD > 767 (Y6). Y8 = 0x7ff, Y7 = 0.
#define DIVSCALE(S0, S1, L, O)        \
	VMOVDQU  O+256(R9)(CX*4), Y0  \
	VPSRLD   $20, Y0, Y0          \
	VPAND    Y8, Y0, Y0           \
	VMOVDQU  O+256(DX)(CX*4), Y1  \
	VPSRLD   $20, Y1, Y1          \
	VPAND    Y8, Y1, Y1           \
	VPCMPEQD Y7, Y1, Y14          \
	VPCMPGTD Y0, Y5, Y2           \
	VPOR     Y2, Y14, Y14         \
	VPSUBD   Y1, Y0, Y0           \
	VPCMPGTD Y6, Y0, Y0           \
	VPOR     Y0, Y14, Y14         \
	VMOVDQU  O(SI)(CX*4), Y12     \
	VMOVDQU  O+256(SI)(CX*4), Y13 \
	KEEP(S0, S1, L, O)

// DIVFIXUP: |a| with the sign of b^c (Y9 = the sign bit) but where b or
// c is infinite or NaN (Y8 = 0x7ff00000) or zero (Y7 = 0).
#define DIVFIXUP(S0, S1, L, O)            \
	VMOVDQU  O+256(DX)(CX*4), Y0      \
	VMOVDQU  O+256(R9)(CX*4), Y1      \
	VPAND    Y8, Y0, Y2               \
	VPCMPEQD Y8, Y2, Y14              \
	VPAND    Y8, Y1, Y2               \
	VPCMPEQD Y8, Y2, Y2               \
	VPOR     Y2, Y14, Y14             \
	VPSLLD   $1, Y0, Y2               \
	VPOR     O(DX)(CX*4), Y2, Y2      \
	VPCMPEQD Y7, Y2, Y2               \
	VPOR     Y2, Y14, Y14             \
	VPSLLD   $1, Y1, Y2               \
	VPOR     O(R9)(CX*4), Y2, Y2      \
	VPCMPEQD Y7, Y2, Y2               \
	VPOR     Y2, Y14, Y14             \
	VMOVDQU  O(SI)(CX*4), Y12         \
	VPXOR    Y1, Y0, Y0               \
	VPAND    Y9, Y0, Y0               \
	VPANDN   O+256(SI)(CX*4), Y9, Y13 \
	VPOR     Y0, Y13, Y13             \
	KEEP(S0, S1, L, O)

// LDEXP: a's exponent field e plus k but where e is 0 (Y7) or 0x7ff (Y8)
// or the sum is above 0x7fe (Y6) or below 1 (Y5).
#define LDEXP(S0, S1, L, O)          \
	VMOVDQU  O+256(SI)(CX*4), Y0 \
	VMOVDQU  O(DX)(CX*4), Y1     \
	VPSRLD   $20, Y0, Y2         \
	VPAND    Y8, Y2, Y2          \
	VPCMPEQD Y7, Y2, Y14         \
	VPCMPEQD Y8, Y2, Y3          \
	VPOR     Y3, Y14, Y14        \
	VPADDD   Y1, Y2, Y2          \
	VPCMPGTD Y6, Y2, Y3          \
	VPOR     Y3, Y14, Y14        \
	VPCMPGTD Y2, Y5, Y3          \
	VPOR     Y3, Y14, Y14        \
	VMOVDQU  O(SI)(CX*4), Y12    \
	VPSLLD   $20, Y1, Y1         \
	VPADDD   Y1, Y0, Y13         \
	KEEP(S0, S1, L, O)

// func divScaleF64AVX(d, a, b, c *F64, n int) uint64
TEXT ·divScaleF64AVX(SB), NOSPLIT, $0-48
	MOVQ  d+0(FP), DI
	MOVQ  a+8(FP), SI
	MOVQ  b+16(FP), DX
	MOVQ  c+24(FP), R9
	MOVQ  n+32(FP), BX
	BCASTD(0x7ff, X8, Y8)
	VPXOR Y7, Y7, Y7
	BCASTD(767, X6, Y6)
	BCASTD(53, X5, Y5)
	ROWS(DIVSCALE)
	MOVQ  R8, ret+40(FP)
	RET

// func divFixupF64AVX(d, a, b, c *F64, n int) uint64
TEXT ·divFixupF64AVX(SB), NOSPLIT, $0-48
	MOVQ  d+0(FP), DI
	MOVQ  a+8(FP), SI
	MOVQ  b+16(FP), DX
	MOVQ  c+24(FP), R9
	MOVQ  n+32(FP), BX
	BCASTD(0x7ff00000, X8, Y8)
	VPXOR Y7, Y7, Y7
	BCASTD(0x80000000, X9, Y9)
	ROWS(DIVFIXUP)
	MOVQ  R8, ret+40(FP)
	RET

// func ldexpF64AVX(d, a *F64, k *[64]uint32, n int) uint64
TEXT ·ldexpF64AVX(SB), NOSPLIT, $0-40
	MOVQ  d+0(FP), DI
	MOVQ  a+8(FP), SI
	MOVQ  k+16(FP), DX
	MOVQ  n+24(FP), BX
	BCASTD(0x7ff, X8, Y8)
	VPXOR Y7, Y7, Y7
	BCASTD(0x7fe, X6, Y6)
	BCASTD(1, X5, Y5)
	ROWS(LDEXP)
	MOVQ  R8, ret+32(FP)
	RET

// fmasShifts are the VCC bit of each f64 lane of a step in LOAD's order.
DATA fmasShifts<>+0(SB)/8, $0
DATA fmasShifts<>+8(SB)/8, $1
DATA fmasShifts<>+16(SB)/8, $4
DATA fmasShifts<>+24(SB)/8, $5
DATA fmasShifts<>+32(SB)/8, $2
DATA fmasShifts<>+40(SB)/8, $3
DATA fmasShifts<>+48(SB)/8, $6
DATA fmasShifts<>+56(SB)/8, $7
GLOBL fmasShifts<>(SB), RODATA|NOPTR, $64

// SCALE multiplies Y0, Y1 by 2^64 in the lanes whose bit of the VCC
// mask R10 is set: the bit (Y6, Y7 shift it down, Y8 = 1) moved to 64 in
// the exponent of 1.0 (Y9).
#define SCALE(O)                 \
	MOVQ         R10, AX     \
	SHRQ         CX, AX      \
	SHRQ         $(O/4), AX  \
	MOVQ         AX, X2      \
	VPBROADCASTQ X2, Y2      \
	VPSRLVQ      Y7, Y2, Y3  \
	VPSRLVQ      Y6, Y2, Y2  \
	VPAND        Y8, Y2, Y2  \
	VPAND        Y8, Y3, Y3  \
	VPSLLQ       $58, Y2, Y2 \
	VPSLLQ       $58, Y3, Y3 \
	VPADDQ       Y9, Y2, Y2  \
	VPADDQ       Y9, Y3, Y3  \
	VMULPD       Y2, Y0, Y0  \
	VMULPD       Y3, Y1, Y1

#define DIVFMAS(S0, S1, L, O)  \
	LOAD(SI, Y0, Y1, O)    \
	LOAD(DX, Y2, Y3, O)    \
	LOAD(R9, Y4, Y5, O)    \
	VFMADD213PD Y4, Y2, Y0 \
	VFMADD213PD Y5, Y3, Y1 \
	SCALE(O)               \
	STORE(S0, S1, L, O)

// func divFmasF64AVX(d, a, b, c *F64, vcc uint64, n int) uint64
TEXT ·divFmasF64AVX(SB), NOSPLIT, $0-56
	MOVQ    d+0(FP), DI
	MOVQ    a+8(FP), SI
	MOVQ    b+16(FP), DX
	MOVQ    c+24(FP), R9
	MOVQ    vcc+32(FP), R10
	MOVQ    n+40(FP), BX
	VMOVDQU fmasShifts<>+0(SB), Y6
	VMOVDQU fmasShifts<>+32(SB), Y7
	BCASTQ(1, X8, Y8)
	ONE
	ROWS(DIVFMAS)
	MOVQ    R8, ret+48(FP)
	RET

// The conversions write every lane.

// PUT writes the f64 lanes Y0, Y1 (LOAD's order) to d.
#define PUT(S0, S1, O)          \
	SPLIT                   \
	VMOVDQU S0, O(DI)(CX*4) \
	VMOVDQU S1, O+256(DI)(CX*4)

// FROMI32 converts the words of a, reordered to LOAD's lane order.
#define FROMI32(S0, S1, L, O)               \
	VPERMQ       $0xd8, O(SI)(CX*4), Y1 \
	VEXTRACTI128 $1, Y1, X2             \
	VCVTDQ2PD    X1, Y0                 \
	VCVTDQ2PD    X2, Y1                 \
	PUT(S0, S1, O)

// FROMU32 converts a - 2^31 (the sign bit flipped, Y9) and adds 2^31
// (Y10).
#define FROMU32(S0, S1, L, O)               \
	VPERMQ       $0xd8, O(SI)(CX*4), Y1 \
	VPXOR        Y9, Y1, Y1             \
	VEXTRACTI128 $1, Y1, X2             \
	VCVTDQ2PD    X1, Y0                 \
	VCVTDQ2PD    X2, Y1                 \
	VADDPD       Y10, Y0, Y0            \
	VADDPD       Y10, Y1, Y1            \
	PUT(S0, S1, O)

// func f64FromI32AVX(d *F64, a *[64]uint32, n int)
TEXT ·f64FromI32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(FROMI32)
	RET

// func f64FromU32AVX(d *F64, a *[64]uint32, n int)
TEXT ·f64FromU32AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	BCASTD(0x80000000, X9, Y9)
	BCASTQ(0x41e0000000000000, X10, Y10)
	ROWS(FROMU32)
	RET

// CLAMP zeroes the NaN lanes of Y0, Y1 and clamps them to [Y8, Y9].
#define CLAMP                 \
	VCMPPD $7, Y0, Y0, Y2 \
	VCMPPD $7, Y1, Y1, Y3 \
	VANDPD Y2, Y0, Y0     \
	VANDPD Y3, Y1, Y1     \
	VMAXPD Y8, Y0, Y0     \
	VMAXPD Y8, Y1, Y1     \
	VMINPD Y9, Y0, Y0     \
	VMINPD Y9, Y1, Y1

// WORDS truncates Y0, Y1 (LOAD's order) to words, in lane order in Y12.
#define WORDS                   \
	VCVTTPD2DQY Y0, X0      \
	VCVTTPD2DQY Y1, X1      \
	VPUNPCKLQDQ X1, X0, X12 \
	VPUNPCKHQDQ X1, X0, X13 \
	VINSERTI128 $1, X13, Y12, Y12

#define TOI32(S0, S1, L, O) \
	LOAD(SI, Y0, Y1, O) \
	CLAMP               \
	WORDS               \
	VMOVDQU S0, O(DI)(CX*4)

// TOU32 truncates first, then converts a - 2^31 (Y10) and flips the
// sign bit back (Y11).
#define TOU32(S0, S1, L, O)    \
	LOAD(SI, Y0, Y1, O)    \
	CLAMP                  \
	VROUNDPD $3, Y0, Y0    \
	VROUNDPD $3, Y1, Y1    \
	VSUBPD   Y10, Y0, Y0   \
	VSUBPD   Y10, Y1, Y1   \
	WORDS                  \
	VPXOR    Y11, Y12, Y12 \
	VMOVDQU  S0, O(DI)(CX*4)

// func i32FromF64AVX(d *[64]uint32, a *F64, n int)
TEXT ·i32FromF64AVX(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	BCASTQ(0xc1e0000000000000, X8, Y8)
	BCASTQ(0x41dfffffffc00000, X9, Y9)
	ROWS(TOI32)
	RET

// func u32FromF64AVX(d *[64]uint32, a *F64, n int)
TEXT ·u32FromF64AVX(SB), NOSPLIT, $0-24
	MOVQ  d+0(FP), DI
	MOVQ  a+8(FP), SI
	MOVQ  n+16(FP), BX
	VPXOR Y8, Y8, Y8
	BCASTQ(0x41efffffffe00000, X9, Y9)
	BCASTQ(0x41e0000000000000, X10, Y10)
	BCASTD(0x80000000, X11, Y11)
	ROWS(TOU32)
	RET

// ROUND rounds a with VROUNDPD's mode (0 nearest even, 1 floor, 2 ceil,
// 3 trunc).
#define ROUND(mode, S0, S1, L, O) \
	LOAD(SI, Y0, Y1, O)       \
	VROUNDPD $mode, Y0, Y0    \
	VROUNDPD $mode, Y1, Y1    \
	STORE(S0, S1, L, O)

#define TRUNC(S0, S1, L, O) ROUND(3, S0, S1, L, O)
#define FLOOR(S0, S1, L, O) ROUND(1, S0, S1, L, O)
#define CEIL(S0, S1, L, O) ROUND(2, S0, S1, L, O)
#define RNDNE(S0, S1, L, O) ROUND(0, S0, S1, L, O)

// func truncF64AVX(d, a *F64, n int) uint64
TEXT ·truncF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(TRUNC)
	MOVQ R8, ret+24(FP)
	RET

// func floorF64AVX(d, a *F64, n int) uint64
TEXT ·floorF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(FLOOR)
	MOVQ R8, ret+24(FP)
	RET

// func ceilF64AVX(d, a *F64, n int) uint64
TEXT ·ceilF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(CEIL)
	MOVQ R8, ret+24(FP)
	RET

// func rndneF64AVX(d, a *F64, n int) uint64
TEXT ·rndneF64AVX(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), BX
	ROWS(RNDNE)
	MOVQ R8, ret+24(FP)
	RET

// The comparisons find each lane's outcome with two compares, NLE_US
// (greater or unordered) and EQ_UQ (equal or unordered), and add the two
// masks doubled and as they are into an outcome index: 0 less, -1 equal,
// -2 greater, -3 unordered, whose two low bits VPERMILPS looks up in the
// table Y6 of the code's outcomes (all ones where accepted): its words
// are the less, unordered, greater and equal outcomes.

// CMP adds the lanes of the step where the comparison holds to R8.
#define CMP(S0, S1, L, O)           \
	LOAD(SI, Y0, Y1, O)         \
	LOAD(DX, Y2, Y3, O)         \
	VCMPPD    $0x06, Y2, Y0, Y4 \
	VCMPPD    $0x06, Y3, Y1, Y5 \
	VCMPPD    $0x08, Y2, Y0, Y0 \
	VCMPPD    $0x08, Y3, Y1, Y1 \
	VSHUFPS   $0x88, Y5, Y4, Y4 \
	VSHUFPS   $0x88, Y1, Y0, Y0 \
	VPADDD    Y4, Y4, Y4        \
	VPADDD    Y0, Y4, Y4        \
	VPERMILPS Y4, Y6, Y4        \
	VMOVMSKPS Y4, AX            \
	SHLQ      CX, AX            \
	SHLQ      $(O/4), AX        \
	ORQ       AX, R8

// cmpShifts move the code's less, unordered, greater and equal bits (0,
// 3, 2, 1) to the top of a word.
DATA cmpShifts<>+0(SB)/4, $31
DATA cmpShifts<>+4(SB)/4, $28
DATA cmpShifts<>+8(SB)/4, $29
DATA cmpShifts<>+12(SB)/4, $30
DATA cmpShifts<>+16(SB)/4, $31
DATA cmpShifts<>+20(SB)/4, $28
DATA cmpShifts<>+24(SB)/4, $29
DATA cmpShifts<>+28(SB)/4, $30
GLOBL cmpShifts<>(SB), RODATA|NOPTR, $32

// func cmpF64AVX(a, b *F64, c int, n int) uint64
TEXT ·cmpF64AVX(SB), NOSPLIT, $0-40
	MOVQ         a+0(FP), SI
	MOVQ         b+8(FP), DX
	MOVQ         c+16(FP), AX
	MOVQ         n+24(FP), BX
	MOVQ         AX, X6
	VPBROADCASTD X6, Y6
	VPSLLVD      cmpShifts<>+0(SB), Y6, Y6
	VPSRAD       $31, Y6, Y6
	ROWS(CMP)
	MOVQ         R8, ret+32(FP)
	RET

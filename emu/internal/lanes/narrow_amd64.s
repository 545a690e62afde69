//go:build amd64 && !purego

#include "textflag.h"

// The f16 rows (f16.go) and the small-integer rows (narrow.go) eight
// lanes a YMM step, then one XMM step when a quad is left. Registers:
// DI = d, SI = a, DX = b, R9 = c, BX = the quads left (first (n+3)/4),
// R13 = the byte offset of the step's first lane; the f16 rows keep
// Y8 = 0x7c00 (the f16 exponent field), Y9 = flush and Y10 = 0 in every
// lane, the 16-bit adds Y8 = 0xffff and the 24-bit multiply
// Y8 = 0xffffff.
// The f16 conversions take Go's MXCSR as it always is (exceptions masked,
// DAZ and FTZ off); their rounding is VCVTPS2PH's immediate.

// QUADS sets BX and R13 from n at n(FP).
#define QUADS(nArg) \
	MOVQ nArg, BX   \
	ADDQ $3, BX     \
	SHRQ $2, BX     \
	XORQ R13, R13

// BROADCAST sets every lane of Y from the low word of AX (X its XMM).
#define BROADCAST(X, Y) \
	VMOVD        AX, X  \
	VPBROADCASTD X, Y

// ROWS runs STEP over the quads: pairs of quads with Y registers, then a
// last single quad with X registers; STEP(A, T, K8, K9, K10, K11, K12)
// works in A and T with the constants Y8 to Y12.
#define ROWS(STEP) \
eight:                                       \
	CMPQ  BX, $2                         \
	JB    last                           \
	STEP(Y0, Y1, Y8, Y9, Y10, Y11, Y12)  \
	ADDQ  $32, R13                       \
	SUBQ  $2, BX                         \
	JMP   eight                          \
last:                                        \
	TESTQ BX, BX                         \
	JZ    done                           \
	STEP(X0, X1, X8, X9, X10, X11, X12)  \
done:                                        \
	VZEROUPPER                           \
	RET

// F16SETUP sets Y8 to Y10 (flush from CX) for the f16 rows.
#define F16SETUP \
	MOVL         $0x7c00, AX  \
	BROADCAST(X8, Y8)         \
	MOVL         CX, AX       \
	BROADCAST(X9, Y9)         \
	VPXOR        Y10, Y10, Y10

// FLUSH clears the bits of flush (K9) from the lanes of H whose exponent
// field (K8) is zero (K10); T is a temporary.
#define FLUSH(H, T, K8, K9, K10) \
	VPAND    K8, H, T   \
	VPCMPEQD K10, T, T  \
	VPAND    K9, T, T   \
	VPANDN   H, T, H

// NARROW: d = a's f32 lanes to f16 rounding to nearest even (VCVTPS2PH
// immediate 0: the rounding is the immediate's, not MXCSR's) into X0,
// zero-extended to words, flushed.
#define NARROW(A, T, K8, K9, K10, K11, K12) \
	VMOVUPS   (SI)(R13*1), A    \
	VCVTPS2PH $0, A, X0         \
	VPMOVZXWD X0, A             \
	FLUSH(A, T, K8, K9, K10)    \
	VMOVDQU   A, (DI)(R13*1)

// WIDEN: the low halves of a with clear (K11, holding the high halves
// too) cleared and flip (K12) flipped, flushed, packed to words (lanes
// 0-3 and 4-7 of a YMM land in its quadwords 0 and 2, which VPERMQ joins;
// in the quad step it leaves quadword 0 where it is) and widened to f32
// (VCVTPH2PS).
#define WIDEN(A, T, K8, K9, K10, K11, K12) \
	VPANDN    (SI)(R13*1), K11, A  \
	VPXOR     K12, A, A            \
	FLUSH(A, T, K8, K9, K10)       \
	VPACKUSDW A, A, A              \
	VPERMQ    $0x08, Y0, Y0        \
	VCVTPH2PS X0, A                \
	VMOVUPS   A, (DI)(R13*1)

// func f16FromF32F16C(d, a *[64]uint32, n int, flush uint32)
TEXT ·f16FromF32F16C(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVL flush+24(FP), CX
	QUADS(n+16(FP))
	F16SETUP
	ROWS(NARROW)

// func f32FromF16F16C(d, a *[64]uint32, n int, clear, flip, flush uint32)
TEXT ·f32FromF16F16C(SB), NOSPLIT, $0-36
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVL flush+32(FP), CX
	QUADS(n+16(FP))
	F16SETUP
	// Y11 = clear and the high halves, Y12 = flip's low half.
	MOVL clear+24(FP), AX
	ORL  $0xffff0000, AX
	BROADCAST(X11, Y11)
	MOVL flip+28(FP), AX
	ANDL $0xffff, AX
	BROADCAST(X12, Y12)
	ROWS(WIDEN)

// MIN: d = min(a, b) as int32s.
#define MIN(A, T, K8, K9, K10, K11, K12) \
	VMOVDQU (SI)(R13*1), A     \
	VPMINSD (DX)(R13*1), A, A  \
	VMOVDQU A, (DI)(R13*1)

// MED3: d = max(min(a, b), min(max(a, b), c)) as int32s.
#define MED3(A, T, K8, K9, K10, K11, K12) \
	VMOVDQU (SI)(R13*1), A     \
	VPMINSD (DX)(R13*1), A, T  \
	VPMAXSD (DX)(R13*1), A, A  \
	VPMINSD (R9)(R13*1), A, A  \
	VPMAXSD T, A, A            \
	VMOVDQU A, (DI)(R13*1)

// SEXT24 sign-extends the low 24 bits of each lane of A.
#define SEXT24(A) \
	VPSLLD $8, A, A  \
	VPSRAD $8, A, A

// MAD24: d = sext24(a) × sext24(b) + c, the low 32 bits.
#define MAD24(A, T, K8, K9, K10, K11, K12) \
	VMOVDQU (SI)(R13*1), A     \
	SEXT24(A)                  \
	VMOVDQU (DX)(R13*1), T     \
	SEXT24(T)                  \
	VPMULLD T, A, A            \
	VPADDD  (R9)(R13*1), A, A  \
	VMOVDQU A, (DI)(R13*1)

// MUL24: d = (a & K8) × (b & K8), the low 32 bits (K8 = 0xffffff).
#define MUL24(A, T, K8, K9, K10, K11, K12) \
	VPAND   (SI)(R13*1), K8, A  \
	VPAND   (DX)(R13*1), K8, T  \
	VPMULLD T, A, A             \
	VMOVDQU A, (DI)(R13*1)

// ADD16: d = (a + b) & K8 (K8 = 0xffff).
#define ADD16(A, T, K8, K9, K10, K11, K12) \
	VMOVDQU (SI)(R13*1), A     \
	VPADDD  (DX)(R13*1), A, A  \
	VPAND   K8, A, A           \
	VMOVDQU A, (DI)(R13*1)

// ADDSAT16: d = the low halves of a and b added saturating as uint16s
// (VPADDUSW), the high halves cleared (K8 = 0xffff).
#define ADDSAT16(A, T, K8, K9, K10, K11, K12) \
	VMOVDQU  (SI)(R13*1), A     \
	VPADDUSW (DX)(R13*1), A, A  \
	VPAND    K8, A, A           \
	VMOVDQU  A, (DI)(R13*1)

// func minI32AVX2(d, a, b *[64]uint32, n int)
TEXT ·minI32AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	QUADS(n+24(FP))
	ROWS(MIN)

// func med3I32AVX2(d, a, b, c *[64]uint32, n int)
TEXT ·med3I32AVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R9
	QUADS(n+32(FP))
	ROWS(MED3)

// func madI24AVX2(d, a, b, c *[64]uint32, n int)
TEXT ·madI24AVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R9
	QUADS(n+32(FP))
	ROWS(MAD24)

// func mulU24AVX2(d, a, b *[64]uint32, n int)
TEXT ·mulU24AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	QUADS(n+24(FP))
	MOVL $0xffffff, AX
	BROADCAST(X8, Y8)
	ROWS(MUL24)

// func addU16AVX2(d, a, b *[64]uint32, n int)
TEXT ·addU16AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	QUADS(n+24(FP))
	MOVL $0xffff, AX
	BROADCAST(X8, Y8)
	ROWS(ADD16)

// func addSatU16AVX2(d, a, b *[64]uint32, n int)
TEXT ·addSatU16AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	QUADS(n+24(FP))
	MOVL $0xffff, AX
	BROADCAST(X8, Y8)
	ROWS(ADDSAT16)

//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 address shape check (shape.go has its Go definition): eight
// lanes a step, each register compared with its expected lanes, the
// differences ORed together and tested once at the end.

// laneIndex holds k in dword k.
DATA laneIndex<>+0(SB)/4, $0
DATA laneIndex<>+4(SB)/4, $1
DATA laneIndex<>+8(SB)/4, $2
DATA laneIndex<>+12(SB)/4, $3
DATA laneIndex<>+16(SB)/4, $4
DATA laneIndex<>+20(SB)/4, $5
DATA laneIndex<>+24(SB)/4, $6
DATA laneIndex<>+28(SB)/4, $7
GLOBL laneIndex<>(SB), RODATA|NOPTR, $32

// EXPECT sets E to the first eight lanes of the run from R's lane 0 by
// the step at S(FP), and D to eight steps (D and E's moves a step).
#define EXPECT(R, S, E, D) \
	VPBROADCASTD S, D; \
	VPMULLD laneIndex<>(SB), D, E; \
	VPBROADCASTD (R), Y6; \
	VPADDD Y6, E, E; \
	VPSLLD $3, D, D

// CHECK ORs into Y4 the differences of the eight lanes at byte offset OFF
// of a (SI) and b (DI) from the expected lanes Y0 and Y1, then moves
// those on to the next eight lanes.
#define CHECK(OFF) \
	VPXOR OFF(SI), Y0, Y5; \
	VPXOR OFF(DI), Y1, Y6; \
	VPOR Y5, Y4, Y4; \
	VPOR Y6, Y4, Y4; \
	VPADDD Y2, Y0, Y0; \
	VPADDD Y3, Y1, Y1

// func progressionsAVX2(a, b *[64]uint32, stepA, stepB uint32) bool
TEXT ·progressionsAVX2(SB), NOSPLIT, $0-25
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	EXPECT(SI, stepA+16(FP), Y0, Y2)
	EXPECT(DI, stepB+20(FP), Y1, Y3)
	VPXOR Y4, Y4, Y4
	CHECK(0)
	CHECK(32)
	CHECK(64)
	CHECK(96)
	CHECK(128)
	CHECK(160)
	CHECK(192)
	CHECK(224)
	VPTEST Y4, Y4 // ZF: no lane differs
	SETEQ ret+24(FP)
	VZEROUPPER
	RET

package isa

import (
	"iter"
	"sync"
)

// BranchCond is what a SOPP branch (s_branch, s_cbranch_*) tests before it
// jumps, as GCN3's and Vega's ISA guides define it. It is table data (the
// br=COND fact word of isa/tables/scalar.txt), generated into OpInfo.Branch.
type BranchCond uint8

const (
	BranchNone           BranchCond = iota // not a SOPP branch
	BranchAlways                           // s_branch
	BranchSCC0                             // s_cbranch_scc0: SCC = 0
	BranchSCC1                             // s_cbranch_scc1: SCC = 1
	BranchVCCZ                             // s_cbranch_vccz: VCC = 0
	BranchVCCNZ                            // s_cbranch_vccnz: VCC ≠ 0
	BranchEXECZ                            // s_cbranch_execz: EXEC = 0
	BranchEXECNZ                           // s_cbranch_execnz: EXEC ≠ 0
	BranchCDbgSys                          // s_cbranch_cdbgsys: the system debug bit
	BranchCDbgUser                         // s_cbranch_cdbguser: the user debug bit
	BranchCDbgSysOrUser                    // s_cbranch_cdbgsys_or_user
	BranchCDbgSysAndUser                   // s_cbranch_cdbgsys_and_user
)

var branchCondNames = [...]string{"none", "always", "scc0", "scc1", "vccz", "vccnz", "execz", "execnz",
	"cdbgsys", "cdbguser", "cdbgsys-or-user", "cdbgsys-and-user"}

// String returns the condition's word as written in the tables (br=COND).
func (c BranchCond) String() string {
	if int(c) < len(branchCondNames) {
		return branchCondNames[c]
	}
	return "?"
}

// Debug reports whether the condition tests the debug bits (s_cbranch_cdbg*).
func (c BranchCond) Debug() bool { return c >= BranchCDbgSys && c <= BranchCDbgSysAndUser }

// Ops yields every operation of the tables, OpUnknown excepted, in name
// order.
func Ops() iter.Seq[Op] {
	return func(yield func(Op) bool) {
		for op := Op(1); op < numOps; op++ {
			if !yield(op) {
				return
			}
		}
	}
}

var opsByName = sync.OnceValue(func() map[string]Op {
	m := make(map[string]Op, numOps)
	for op := range Ops() {
		m[opNames[op]] = op
	}
	return m
})

// OpByName returns the operation whose name (Op.String, lower case) is
// name.
func OpByName(name string) (Op, bool) {
	op, ok := opsByName()[name]
	return op, ok
}

package main

// Op fact words: the key=value words of any row's FLAGS column that become
// OpInfo fields rather than Flags bits or MemInfo. See isa/tables/README.md.

import (
	"fmt"
	"strings"
)

// branchConds maps br=COND words to BranchCond constants (isa/opfacts.go).
var branchConds = map[string]string{"always": "BranchAlways", "scc0": "BranchSCC0", "scc1": "BranchSCC1",
	"vccz": "BranchVCCZ", "vccnz": "BranchVCCNZ", "execz": "BranchEXECZ", "execnz": "BranchEXECNZ",
	"cdbgsys": "BranchCDbgSys", "cdbguser": "BranchCDbgUser", "cdbgsys-or-user": "BranchCDbgSysOrUser",
	"cdbgsys-and-user": "BranchCDbgSysAndUser"}

// addOpFact records an op fact word; ok is false when k is not one.
func (r *row) addOpFact(k, v string) (ok bool, err error) {
	if k != "br" {
		return false, nil
	}
	if _, valid := branchConds[v]; !valid {
		return true, fmt.Errorf("bad value in br=%s", v)
	}
	if encodings[r.enc] != "SOPP" || r.class != "ClassBranch" {
		return true, fmt.Errorf("br=%s on a %s row of class %s", v, encodings[r.enc], strings.ToLower(strings.TrimPrefix(r.class, "Class")))
	}
	if r.branch != "" {
		return true, fmt.Errorf("fact br given twice")
	}
	r.branch = v
	return true, nil
}

// srcType is the type of the row's first register source operand, "" when
// it has none.
func (r *row) srcType() string {
	for _, o := range r.operands {
		if o.access == "r" && o.typ != "TypeNone" && o.dwords > 0 {
			return o.typ
		}
	}
	return ""
}

// opFactSet holds the generated OpInfo fields of one op beyond class,
// raises and flags.
type opFactSet struct {
	branch string // BranchCond constant, "" for none
	src    string // DataType constant; "" for none, "-" once rows disagree
	pos    string
}

// newOpFactSet returns the facts of an op's first row.
func newOpFactSet(r row) opFactSet {
	return opFactSet{branch: branchConds[r.branch], src: r.srcType(), pos: r.pos}
}

// merge adds another row of the op, checking that the rows agree on br=.
func (o *opFactSet) merge(r row) error {
	if branchConds[r.branch] != o.branch {
		return fmt.Errorf("%s: op %s: br= differs from %s", r.pos, r.op, o.pos)
	}
	if r.srcType() != o.src {
		o.src = "-"
	}
	return nil
}

// literal returns the extra OpInfo fields, each with a leading ", ".
func (o *opFactSet) literal() string {
	s := ""
	if o.branch != "" {
		s += ", Branch: " + o.branch
	}
	if o.src != "" && o.src != "-" {
		s += ", Src: " + o.src
	}
	return s
}

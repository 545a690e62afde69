package tui

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// This file is a Chroma lexer for GCN assembly as LLVM prints and parses it:
// mnemonics (coloured by unit), registers and register ranges, special
// registers, constants, modifiers, labels, directives and comments.

// Token types the lexer emits beyond Chroma's plain ones. Mnemonics are split
// by unit so that scalar, vector, memory and branch instructions can be told
// apart at a glance.
const (
	TokScalar = chroma.Keyword          // s_* ALU and control
	TokVector = chroma.KeywordType      // v_*
	TokMemory = chroma.KeywordNamespace // s_load/s_store/s_buffer, buffer_, global_, flat_, ds_, ...
	TokBranch = chroma.KeywordPseudo    // s_branch, s_cbranch_*, s_setpc, s_swappc, s_call, s_endpgm
	TokReg    = chroma.NameVariable     // s0, v[0:3], ttmp4, a1
	TokSpec   = chroma.NameBuiltin      // vcc, exec, m0, scc, flat_scratch, ...
	TokMod    = chroma.NameAttribute    // offset:16, glc, vmcnt(0), row_shl:1
	TokLabel  = chroma.NameLabel        // .Lloop, BB0_1, <scale+0x60>
)

// GCNLexer is the Chroma lexer for GCN assembly.
var GCNLexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "GCN",
	Aliases:   []string{"gcn", "amdgcn"},
	Filenames: []string{"*.gcn", "*.amdgcn"},
	MimeTypes: []string{"text/x-amdgcn"},
	EnsureNL:  true,
}, gcnRules)

const (
	reComment = `(;|//|#).*?$`
	reIdent   = `[A-Za-z_.$][\w.$]*`
)

func gcnRules() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `\n`, Type: chroma.Text},
			{Pattern: `[ \t]+`, Type: chroma.TextWhitespace},
			{Pattern: reComment, Type: chroma.CommentSingle},
			{Pattern: reIdent + `:`, Type: TokLabel},
			{Pattern: `\.[A-Za-z_][\w.]*`, Type: chroma.NameBuiltinPseudo, Mutator: chroma.Push("directive")},
			{Pattern: `(s_load|s_store|s_buffer|s_scratch|s_atomic|s_buffer_atomic|s_dcache|s_memtime|s_memrealtime|buffer|tbuffer|global|flat|scratch|ds|image)_\w*`, Type: TokMemory, Mutator: chroma.Push("operands")},
			{Pattern: `(s_branch|s_cbranch_\w+|s_setpc_b64|s_swappc_b64|s_call_b64|s_endpgm\w*)\b`, Type: TokBranch, Mutator: chroma.Push("operands")},
			{Pattern: `s_\w+`, Type: TokScalar, Mutator: chroma.Push("operands")},
			{Pattern: `v_\w+`, Type: TokVector, Mutator: chroma.Push("operands")},
			{Pattern: `\w+`, Type: chroma.Keyword, Mutator: chroma.Push("operands")},
			{Pattern: `.`, Type: chroma.Text},
		},
		"directive": {
			{Pattern: `\n`, Type: chroma.Text, Mutator: chroma.Pop(1)},
			{Pattern: reComment, Type: chroma.CommentSingle},
			{Pattern: `"[^"\n]*"`, Type: chroma.LiteralString},
			chroma.Include("values"),
			{Pattern: reIdent, Type: chroma.Name},
			{Pattern: `[^\n]`, Type: chroma.Text},
		},
		"operands": {
			{Pattern: `\n`, Type: chroma.Text, Mutator: chroma.Pop(1)},
			{Pattern: reComment, Type: chroma.CommentSingle},
			chroma.Include("values"),
			{Pattern: `<[^>\n]*>`, Type: TokLabel},
			{Pattern: reIdent, Type: TokLabel},
			{Pattern: `[^\n]`, Type: chroma.Text},
		},
		"values": {
			{Pattern: `[ \t]+`, Type: chroma.TextWhitespace},
			{Pattern: `(?:[svat]|ttmp)\[\d+(?::\d+)?\]`, Type: TokReg},
			{Pattern: `(?:[sva]|ttmp)\d+\b`, Type: TokReg},
			{Pattern: `(?:vcc|exec|flat_scratch|xnack_mask|tba|tma)(?:_lo|_hi)?\b|(?:m0|scc|vccz|execz|lds_direct|src_(?:shared|private)_(?:base|limit)|src_pops_exiting_wave_id|off)\b`, Type: TokSpec},
			{Pattern: `(?:vmcnt|expcnt|lgkmcnt|hwreg|sendmsg|sext|neg|abs|quad_perm|row_\w+|wave_\w+|bank_mask|row_mask|bound_ctrl|dst_sel|dst_unused|src0_sel|src1_sel|op_sel|op_sel_hi|neg_lo|neg_hi|offset[01]?|format|dfmt|nfmt|dmask|mul|div)\b(?::|\()?`, Type: TokMod},
			{Pattern: `(?:glc|slc|dlc|tfe|lds|idxen|offen|addr64|gds|nv|clamp|unorm|da|r128|a16|lwe|d16|compr|done|vm|UNUSED_\w+|BYTE_\d|WORD_\d|DWORD)\b`, Type: TokMod},
			{Pattern: `-?0x[0-9A-Fa-f]+`, Type: chroma.LiteralNumberHex},
			{Pattern: `-?\d+\.\d*(?:[eE][+-]?\d+)?`, Type: chroma.LiteralNumberFloat},
			{Pattern: `-?\d+`, Type: chroma.LiteralNumberInteger},
			{Pattern: `[,\[\]:()|+*&-]`, Type: chroma.Punctuation},
		},
	}
}

// gcnTokens splits one line of assembly into Chroma tokens; it never fails
// (unknown text comes back as chroma.Text).
func gcnTokens(line string) []chroma.Token {
	it, err := GCNLexer.Tokenise(nil, line)
	if err != nil {
		return []chroma.Token{{Type: chroma.Text, Value: line}}
	}
	toks := it.Tokens()
	// Drop the newline that EnsureNL added.
	if n := len(toks); n > 0 && !strings.HasSuffix(line, "\n") && toks[n-1].Value == "\n" {
		toks = toks[:n-1]
	} else if n > 0 && !strings.HasSuffix(line, "\n") && strings.HasSuffix(toks[n-1].Value, "\n") {
		toks[n-1].Value = strings.TrimSuffix(toks[n-1].Value, "\n")
	}
	return toks
}

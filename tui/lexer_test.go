package tui

import (
	"strings"
	"testing"
)

func TestGCNLexer(t *testing.T) {
	tests := []struct {
		line string
		want string // "type:value" of non-space tokens, space separated
	}{
		{"s_load_dwordx2 s[4:5], s[0:1], 0x0", "KeywordNamespace:s_load_dwordx2 NameVariable:s[4:5] Punctuation:, NameVariable:s[0:1] Punctuation:, LiteralNumberHex:0x0"},
		{"v_add_co_u32_e32 v1, vcc, s4, v1", "KeywordType:v_add_co_u32_e32 NameVariable:v1 Punctuation:, NameBuiltin:vcc Punctuation:, NameVariable:s4 Punctuation:, NameVariable:v1"},
		{"s_waitcnt vmcnt(0) lgkmcnt(0)", "Keyword:s_waitcnt NameAttribute:vmcnt( LiteralNumberInteger:0 Punctuation:) NameAttribute:lgkmcnt( LiteralNumberInteger:0 Punctuation:)"},
		{"s_cbranch_scc1 65532 <.Lloop>", "KeywordPseudo:s_cbranch_scc1 LiteralNumberInteger:65532 NameLabel:<.Lloop>"},
		{"global_load_dword v3, v[1:2], off offset:16 glc", "KeywordNamespace:global_load_dword NameVariable:v3 Punctuation:, NameVariable:v[1:2] Punctuation:, NameBuiltin:off NameAttribute:offset: LiteralNumberInteger:16 NameAttribute:glc"},
		{"s_mov_b64 exec, ttmp[2:3]", "Keyword:s_mov_b64 NameBuiltin:exec Punctuation:, NameVariable:ttmp[2:3]"},
		{"s_mov_b32 m0, -1", "Keyword:s_mov_b32 NameBuiltin:m0 Punctuation:, LiteralNumberInteger:-1"},
		{"v_mul_f32_e32 v0, 0.5, v1 ; halve", "KeywordType:v_mul_f32_e32 NameVariable:v0 Punctuation:, LiteralNumberFloat:0.5 Punctuation:, NameVariable:v1 CommentSingle:; halve"},
		{".Lloop:", "NameLabel:.Lloop:"},
		{"\t.p2align 8", "NameBuiltinPseudo:.p2align LiteralNumberInteger:8"},
		{"s_branch .Ldone", "KeywordPseudo:s_branch NameLabel:.Ldone"},
		{"s_mov_b32 s0, flat_scratch_lo", "Keyword:s_mov_b32 NameVariable:s0 Punctuation:, NameBuiltin:flat_scratch_lo"},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range gcnTokens(tt.line) {
			if strings.TrimSpace(tok.Value) == "" {
				continue
			}
			got = append(got, tok.Type.String()+":"+tok.Value)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.line, g, tt.want)
		}
	}
}

func TestGCNLexerNeverErrors(t *testing.T) {
	for _, s := range []string{"", "@@@", "s_[", "v[", "<unterminated", "\x00ü€"} {
		toks := gcnTokens(s)
		var b strings.Builder
		for _, tok := range toks {
			b.WriteString(tok.Value)
		}
		if b.String() != s {
			t.Errorf("%q: tokens rebuild %q", s, b.String())
		}
	}
}

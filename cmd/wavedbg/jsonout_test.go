package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const schemaFile = "../../doc/wavedbg.schema.json"

// compileSchema compiles the repository's JSON Schema.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.NewCompiler().Compile(abs)
	if err != nil {
		t.Fatalf("compiling %s: %v", schemaFile, err)
	}
	return sch
}

// jsonDocs splits s into its JSON documents (one per line for JSON Lines,
// or one indented document).
func jsonDocs(t *testing.T, s string) []any {
	t.Helper()
	var docs []any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("document %d: %v", len(docs)+1, err)
		}
		docs = append(docs, v)
	}
	return docs
}

// mustRun runs wavedbg and returns its stdout, failing on a non-zero exit.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCmd(args...)
	if code != 0 {
		t.Fatalf("wavedbg %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

func scanArgs(cmd, out string, extra ...string) []string {
	return append([]string{cmd, filepath.Join(clDir, "gfx803", "scan_local.co"), "--manifest",
		filepath.Join(clDir, "scan_local.json"), "--out", out, "-q"}, extra...)
}

// TestJSONOutputsMatchSchema: real outputs of trace (a clean and a faulting
// kernel), run --json (ok and faulted) and info --json (every kind of file,
// --list-bundles) validate against the repository's schema, and documents
// in the old or a broken shape do not.
func TestJSONOutputsMatchSchema(t *testing.T) {
	sch := compileSchema(t)
	dir := t.TempDir()
	bad := filepath.Join("testdata", "run", "bad.co")
	outputs := map[string]string{
		"trace":      mustRun(t, scanArgs("trace", dir, "--wave", "0,3")...),
		"run --json": mustRun(t, scanArgs("run", dir, "--json", "--write-manifest", filepath.Join(dir, "m.json"))...),
	}
	for _, args := range infoJSONArgs(t) {
		outputs["info "+strings.Join(args, " ")] = mustRun(t, append([]string{"info"}, args...)...)
	}
	for _, cmd := range []string{"run", "trace"} {
		// A fault exits non-zero but still prints its JSON.
		_, stdout, _ := runCmd(cmd, bad, "--kernel", "wild", "--grid", "64", "--block", "64", "--json",
			"--arg", "buffer,type=int,count=64,out=o.bin", "--out", dir)
		if cmd == "trace" {
			_, stdout, _ = runCmd(cmd, bad, "--kernel", "wild", "--grid", "64", "--block", "64",
				"--arg", "buffer,type=int,count=64,out=o.bin", "--out", dir, "-q")
		}
		outputs[cmd+" fault"] = stdout
	}
	for name, out := range outputs {
		docs := jsonDocs(t, out)
		if len(docs) == 0 {
			t.Errorf("%s: no JSON output", name)
		}
		for i, d := range docs {
			if err := sch.Validate(d); err != nil {
				t.Errorf("%s: document %d does not match the schema: %v", name, i+1, err)
				break
			}
		}
	}
	if !strings.Contains(outputs["trace fault"], `"error":`) || !strings.Contains(outputs["run fault"], `"memory":`) {
		t.Errorf("fault outputs lack the error: trace %q, run %q", outputs["trace fault"], outputs["run fault"])
	}

	step := jsonDocs(t, outputs["trace"])[0].(map[string]any)
	broken := []struct {
		name string
		edit func(map[string]any)
	}{
		{"no schema", func(m map[string]any) { delete(m, "schema") }},
		{"other version", func(m map[string]any) { m["schema"] = "wavedbg/0" }},
		{"decimal pc", func(m map[string]any) { m["pc"] = json.Number("5888") }},
		{"upper-case hex", func(m map[string]any) { m["pc"] = "0x1A00" }},
		{"padded hex", func(m map[string]any) { m["next_pc"] = "0x0001708" }},
		{"Go field name", func(m map[string]any) { m["Counters"] = m["counters"] }},
		{"internal slot", func(m map[string]any) {
			m["sregs"] = []any{map[string]any{"name": "retired", "old": json.Number("0"), "new": json.Number("1")}}
		}},
		{"numbered kind", func(m map[string]any) {
			m["cache"] = []any{map[string]any{"kind": json.Number("4"), "addr": "0x0", "set": json.Number("0"),
				"way": json.Number("0"), "dirty": false, "glc": false}}
		}},
	}
	for _, b := range broken {
		m := map[string]any{}
		for k, v := range step {
			m[k] = v
		}
		b.edit(m)
		if err := sch.Validate(m); err == nil {
			t.Errorf("broken trace step (%s) validates", b.name)
		}
	}

	info := mustRun(t, "info", "--json", loaderTestdata+"/co/vadd-gfx900-v4.co")
	brokenInfo := []struct {
		name string
		edit func(doc, co, k map[string]any)
	}{
		{"Go field name", func(d, _, _ map[string]any) { d["CodeObjects"] = d["code_objects"] }},
		{"Go field name in a kernel", func(_, _, k map[string]any) { k["DescriptorAddr"] = json.Number("1536") }},
		{"Go field name in v2 notes", func(_, co, _ map[string]any) {
			co["metadata"].(map[string]any)["v2"] = map[string]any{"ISAName": "amdgcn-amd-amdhsa--gfx900"}
		}},
		{"decimal entry", func(_, _, k map[string]any) { k["entry"] = json.Number("5888") }},
		{"decimal mach", func(_, co, _ map[string]any) { co["mach"] = json.Number("44") }},
		{"container in words", func(d, _, _ map[string]any) { d["container"] = "host ELF with .hip_fatbin" }},
		{"no type", func(d, _, _ map[string]any) { delete(d, "type") }},
	}
	// Value kinds hold digits (hidden_heap_v1): the schema once refused them.
	d := jsonDocs(t, info)[0].(map[string]any)
	k := d["code_objects"].([]any)[0].(map[string]any)["kernels"].([]any)[0].(map[string]any)
	k["metadata"].(map[string]any)["args"].([]any)[0].(map[string]any)["value_kind"] = "hidden_heap_v1"
	if err := sch.Validate(d); err != nil {
		t.Errorf("info document with a hidden_heap_v1 argument does not validate: %v", err)
	}
	for _, b := range brokenInfo {
		d := jsonDocs(t, info)[0].(map[string]any)
		co := d["code_objects"].([]any)[0].(map[string]any)
		b.edit(d, co, co["kernels"].([]any)[0].(map[string]any))
		if err := sch.Validate(d); err == nil {
			t.Errorf("broken info document (%s) validates", b.name)
		}
	}
}

// TestTraceJSONNoInternalFields: trace lines hold snake_case keys only,
// none of the emulator's internal slots, every PC and address as a hex
// string and every kind as a name.
func TestTraceJSONNoInternalFields(t *testing.T) {
	out := mustRun(t, scanArgs("trace", t.TempDir(), "--wave", "all")...)
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	hex := regexp.MustCompile(`^0x[0-9a-f]+$`)
	internal := map[string]bool{"retired": true, "cache_lru_clock": true, "next_op_id": true, "clock": true, "pc": true, "state": true}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !snake.MatchString(k) {
					t.Fatalf("%s: key %q is not snake_case", path, k)
				}
				switch k {
				case "pc", "next_pc", "addr", "pending_pc", "lanes":
					if s, ok := x.(string); !ok || !hex.MatchString(s) {
						t.Fatalf("%s.%s = %v, not a 0x hex string", path, k, x)
					}
				case "kind", "counter":
					if _, ok := x.(string); !ok {
						t.Fatalf("%s.%s = %v, not a name", path, k, x)
					}
				}
				walk(path+"."+k, x)
			}
			if path == ".sregs[]" && internal[v["name"].(string)] {
				t.Fatalf("internal slot %q in sregs", v["name"])
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	docs := jsonDocs(t, out)
	for _, d := range docs {
		walk("", d)
	}
	if len(docs) < 100 || !strings.Contains(out, `"sregs"`) || !strings.Contains(out, `"cache"`) {
		t.Errorf("trace of %d lines lacks sregs or cache events", len(docs))
	}
}

// TestRunJSONSummary: run --json prints one summary document and nothing
// else on stdout, with the counts, the launch and the files written.
func TestRunJSONSummary(t *testing.T) {
	dir := t.TempDir()
	man := filepath.Join(dir, "m.json")
	out := mustRun(t, scanArgs("run", dir, "--json", "--write-manifest", man)...)
	var s runSummary
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil || dec.More() {
		t.Fatalf("stdout is not one run summary (%v): %s", err, out)
	}
	if s.Schema != "wavedbg/1" || s.Type != "run-summary" || s.Status != "ok" || s.Kernel != "scan_local" {
		t.Errorf("summary header %+v", s)
	}
	if s.WorkGroups != 8 || s.Waves != 16 || s.Instructions == 0 || s.Cycles == 0 || s.WaveCycles < s.Cycles || len(s.Faults) != 0 {
		t.Errorf("summary counts %+v", s)
	}
	if len(s.Grid) != 1 || s.Grid[0] != 1024 || len(s.Block) != 1 || s.Block[0] != 128 {
		t.Errorf("grid %v block %v", s.Grid, s.Block)
	}
	want := []string{filepath.Join(dir, "scan_local.out.bin"), man}
	if len(s.Outputs) != len(want) {
		t.Fatalf("outputs %+v, want %v", s.Outputs, want)
	}
	for i, o := range s.Outputs {
		fi, err := os.Stat(o.Path)
		if o.Path != want[i] || err != nil || fi.Size() != o.Bytes {
			t.Errorf("output %d: %+v (file: %v)", i, o, err)
		}
	}
	if s.Outputs[0].Kind != "buffer" || s.Outputs[0].Arg == nil || *s.Outputs[0].Arg != 1 || s.Outputs[1].Kind != "manifest" {
		t.Errorf("output kinds %+v", s.Outputs)
	}

	// A fault: the summary says so and names it, and nothing was written.
	code, stdout, _ := runCmd("run", filepath.Join("testdata", "run", "bad.co"), "--kernel", "wild", "--grid", "64", "--block", "64",
		"--json", "--arg", "buffer,type=int,count=64,out=o.bin", "--out", dir)
	var f runSummary
	if err := json.NewDecoder(bytes.NewReader([]byte(stdout))).Decode(&f); err != nil || code == 0 {
		t.Fatalf("faulting run: exit %d, %v: %s", code, err, stdout)
	}
	if f.Status != "faulted" || len(f.Faults) == 0 || f.Faults[0].Memory == nil || f.Faults[0].Memory.Access != "write" ||
		!strings.HasPrefix(f.Faults[0].PC, "0x") || len(f.Outputs) != 0 {
		t.Errorf("faulting run summary %+v", f)
	}
}

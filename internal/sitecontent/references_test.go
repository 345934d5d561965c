package sitecontent

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"studio/contracts/cases"
)

// The table of contracts/cases/content-references.json, which
// web/scripts/content-references.test.ts feeds to the build's check too:
// both give every case the same problems.
func TestReferencesJudgeTheSharedTable(t *testing.T) {
	b, err := cases.Files.ReadFile("content-references.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Case, File string
			Document   json.RawMessage
			Problems   []string
		}
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) == 0 {
		t.Fatal("the table has no cases")
	}
	for _, c := range table.Cases {
		got, err := ReferenceProblems(c.File, c.Document)
		if err != nil {
			t.Errorf("%s: %v", c.Case, err)
			continue
		}
		if !slices.Equal(got, c.Problems) {
			t.Errorf("%s: problems %q, want %q", c.Case, got, c.Problems)
		}
	}
}

// The server refuses the content the build refuses: a WhatsApp label that
// names no phone, and a featured piece that is no product, each with the
// build's words.
func TestLoadRejectsReferencesToNothing(t *testing.T) {
	for _, tt := range []struct {
		file  string
		spoil func(doc map[string]any)
		want  string
	}{
		{"site.json", func(doc map[string]any) { doc["whatsappPhone"] = "Fax" }, `content: site.json: whatsappPhone: "Fax" is the label of none of the phones (`},
		{"catalogue.json", func(doc map[string]any) { doc["featured"].(map[string]any)["fresh"] = 99999 }, "content: catalogue.json: featured: product 99999 is not in the catalogue"},
	} {
		fsys := shippedCopy(t)
		var doc map[string]any
		if err := json.Unmarshal(fsys[tt.file].Data, &doc); err != nil {
			t.Fatal(err)
		}
		tt.spoil(doc)
		fsys[tt.file] = &fstest.MapFile{Data: must(json.Marshal(doc))}
		if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.file, err, tt.want)
		}
	}
}

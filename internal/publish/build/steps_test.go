package build

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The steps a publish runs are those of web/package.json's build script,
// the one `make build` runs, in its order: the repository's own, and a
// build script the builder cannot run step by step is refused, saying why.
func TestTheStepsAreThoseOfTheBuildScript(t *testing.T) {
	t.Parallel()
	file := filepath.Join("..", "..", "..", "web", "package.json")
	scripts, steps, err := packageScripts(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(scripts[buildScript], "&&") {
		if !strings.Contains(part, "npm run") {
			t.Fatalf("the build script has a step that is not a script: %q", part)
		}
	}
	if len(steps) != strings.Count(scripts[buildScript], "&&")+1 || !slices.Contains(steps, bundleStep) || !slices.Contains(steps, checkScript) {
		t.Errorf("steps %q, want every step of %q, the bundle and the check among them", steps, scripts[buildScript])
	}
	for _, c := range []struct {
		build, want string
	}{
		{"npm run check && node scripts/other.mjs", "must be `npm run <script>`"},
		{"npm run --silent check && npm run missing", `has no script "missing"`},
		{"", "must be `npm run <script>`"},
	} {
		_, err := buildSteps("package.json", map[string]string{buildScript: c.build, "check": "node check.mjs"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("build script %q: %v, want an error saying %q", c.build, err, c.want)
		}
	}
	if got := stageName("lint"); got != "running lint" {
		t.Errorf("a step with no stage name shows %q", got)
	}
}

// The images step's count of pictures made becomes the build's stage, line
// by line, whatever the pieces its lines are written in; its lines are
// still the log's, and another step's are only the log's.
func TestThePicturesMadeAreCountedAsTheStage(t *testing.T) {
	var stages []string
	var log strings.Builder
	w := countingPictures(&log, "images", func(s string) { stages = append(stages, s) })
	for _, piece := range []string{"images: made 0 of 2 pictures\nimages: ma", "de 1 of 2 pictures\n", "images: warning: narrow\nimages: made 2 of 2 pictures\n"} {
		if _, err := w.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"making the images: 0 of 2", "making the images: 1 of 2", "making the images: 2 of 2"}
	if !slices.Equal(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	if !strings.Contains(log.String(), "images: warning: narrow\n") || strings.Count(log.String(), "\n") != 4 {
		t.Errorf("the log lost lines:\n%s", log.String())
	}
	other := countingPictures(&log, "prerender", func(s string) { t.Errorf("a prerender line became the stage %q", s) })
	other.Write([]byte("images: made 1 of 1 pictures\n"))
}

// Package build runs the front end's own pipeline, the one `make build`
// runs, on a content to publish (NodeBuilder), and the content check and
// Markdown preview the workspace's editor asks for. What it runs is read
// from one place, web/package.json: its "build" script, `npm run <step>`
// after `npm run <step>`, is the list of steps.
package build

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Stats is what a build measured of itself.
type Stats struct {
	PeakMiB int64 // the largest resident size of one of its steps (of the warm renderer, for the steps run in it)
}

// A ContentError is a build stopped by its content: one line per problem,
// "file: field: problem", as the content check prints them.
type ContentError struct{ Problems []string }

func (e *ContentError) Error() string {
	return fmt.Sprintf("%d problem(s) in the content: %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// The scripts of web/package.json the builder runs by name: the build
// (whose steps a publish runs one by one), the step whose output depends
// on the code alone (kept in Cache/bundle), the content check and the
// Markdown preview.
const (
	buildScript    = "build"
	bundleStep     = "bundle"
	checkScript    = "check"
	markdownScript = "preview-markdown"
)

// stageNames are what the studio shows while a step of the build runs; a
// step not named here shows "running <step>".
var stageNames = map[string]string{
	checkScript: "checking the content",
	"images":    "making the images",
	bundleStep:  "bundling the code",
	"prerender": "prerendering the pages",
	"compress":  "compressing",
}

// stageName is what the studio shows while step runs.
func stageName(step string) string {
	if name, ok := stageNames[step]; ok {
		return name
	}
	return "running " + step
}

// aStep is one step of the build script: `npm run --silent <step>`.
var aStep = regexp.MustCompile(`^npm run (?:--silent )?([A-Za-z0-9:_-]+)$`)

// buildSteps reads the steps of the build script of scripts, in order,
// each a script of its own.
func buildSteps(file string, scripts map[string]string) ([]string, error) {
	var steps []string
	for _, part := range strings.Split(scripts[buildScript], "&&") {
		m := aStep.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return nil, fmt.Errorf("publish: %s: each step of the %q script must be `npm run <script>`, not %q", file, buildScript, strings.TrimSpace(part))
		}
		if scripts[m[1]] == "" {
			return nil, fmt.Errorf("publish: %s has no script %q", file, m[1])
		}
		steps = append(steps, m[1])
	}
	return steps, nil
}

// packageScripts reads the scripts of a package.json, and the steps of its
// build script.
func packageScripts(file string) (scripts map[string]string, steps []string, err error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	var pkg struct{ Scripts map[string]string }
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return nil, nil, fmt.Errorf("publish: %s: %w", file, err)
	}
	if steps, err = buildSteps(file, pkg.Scripts); err != nil {
		return nil, nil, err
	}
	return pkg.Scripts, steps, nil
}

// contentLines are the content check's lines of out: "content/catalogue.json:
// product 3 (Chair): images[0].src: ...".
func contentLines(out io.Reader) []string {
	var problems []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "content/") {
			problems = append(problems, line)
		}
	}
	return problems
}

// stepEnv is env with bin first on its PATH, as npm puts a package's
// programs (react-router, for the bundle) on the path of its scripts.
func stepEnv(env []string, bin string) []string {
	out := make([]string, 0, len(env)+1)
	path := "PATH=" + bin
	for _, kv := range env {
		if old, ok := strings.CutPrefix(kv, "PATH="); ok {
			path += string(os.PathListSeparator) + old
			continue
		}
		out = append(out, kv)
	}
	return append(out, path)
}

// madePictures is the images step's line for each picture it makes
// ("images: made 2 of 5 pictures", web/scripts/images.mjs).
var madePictures = regexp.MustCompile(`(?m)^images: made (\d+) of (\d+) pictures$`)

// countingPictures is log, for the images step, also saying each picture
// made as the build's stage ("making the images: 2 of 5"), which the page
// that follows a publish shows.
func countingPictures(log io.Writer, step string, stage func(string)) io.Writer {
	if step != "images" {
		return log
	}
	return &pictureCounter{log: log, stage: stage}
}

// A pictureCounter passes lines to log, and the images step's counts to stage.
type pictureCounter struct {
	log   io.Writer
	stage func(string)
	part  []byte // a line not ended yet
}

func (c *pictureCounter) Write(b []byte) (int, error) {
	c.part = append(c.part, b...)
	if end := bytes.LastIndexByte(c.part, '\n'); end >= 0 {
		for _, m := range madePictures.FindAllSubmatch(c.part[:end+1], -1) {
			c.stage(fmt.Sprintf("%s: %s of %s", stageName("images"), m[1], m[2]))
		}
		c.part = slices.Clone(c.part[end+1:])
	}
	return c.log.Write(b)
}

package main

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"studio/internal/publish/build"
	"studio/internal/server"
)

func TestADraftsProblemsReachTheServerAsProblems(t *testing.T) {
	lines := []string{"content/site.json: tagline: is empty"}
	var problems *server.DraftProblems
	if err := draftError(fmt.Errorf("preview: %w", &build.ContentError{Problems: lines})); !errors.As(err, &problems) || !slices.Equal(problems.Problems, lines) {
		t.Errorf("a draft the check refuses: %v, want its problems", err)
	}
	crashed := &build.RenderError{Kind: "crashed", Message: "the renderer stopped"}
	if err := draftError(crashed); err != crashed {
		t.Errorf("a failed render: %v, want it as it is", err)
	}
}

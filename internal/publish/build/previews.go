package build

// The warm renderer's work for the studio's previews (renderer.go).

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
)

// Render renders paths of the snapshot s in the warm renderer, for a preview.
func (b *NodeBuilder) Render(ctx context.Context, s Snapshot, paths []string) ([]Page, error) {
	return b.renderer().Render(ctx, s, paths)
}

// Describe writes the image manifest of the snapshot s (s.GeneratedDir)
// without encoding its photographs, for a preview.
func (b *NodeBuilder) Describe(ctx context.Context, s Snapshot) error {
	return b.renderer().Describe(ctx, s)
}

// Image makes one image variant, name, of contentDir's photographs, for a
// preview, and returns its file.
func (b *NodeBuilder) Image(ctx context.Context, contentDir, name string) (string, error) {
	return b.renderer().Image(ctx, contentDir, name)
}

// Encode makes every variant of the photographs srcs of contentDir into
// the image cache, so that a publish finds them made.
func (b *NodeBuilder) Encode(ctx context.Context, contentDir string, srcs []string) error {
	return b.renderer().Encode(ctx, contentDir, srcs)
}

// Metrics is the gauge studio_renderer_resident_bytes, for /metrics.
func (b *NodeBuilder) Metrics() prometheus.Collector { return b.renderer().Collector() }

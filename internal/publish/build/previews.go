package build

// The warm renderer's work for the studio's previews (renderer.go).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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

// Asset is where the code's file name ("assets/…") of the renderer's
// bundle is, the code the previews' pages are rendered with.
func (b *NodeBuilder) Asset(name string) (string, error) {
	return b.renderer().Asset(name)
}

// Encode makes every variant of the photographs srcs of contentDir into
// the image cache, so that a publish finds them made.
func (b *NodeBuilder) Encode(ctx context.Context, contentDir string, srcs []string) error {
	return b.renderer().Encode(ctx, contentDir, srcs)
}

// Metrics is the gauge studio_renderer_resident_bytes, for /metrics.
func (b *NodeBuilder) Metrics() prometheus.Collector { return b.renderer().Collector() }

// PrepareImage makes every variant of the photograph at path (a workspace
// upload) into the image cache, so that the publish of the form saving it
// finds them made (edit.ImagePreparer). It runs in the renderer's build
// queue, after the build before it; a failure is only logged, the build
// then making them as it always has.
func (b *NodeBuilder) PrepareImage(path string) {
	dir, err := os.MkdirTemp(b.Scratch, "upload-")
	if err == nil {
		defer os.RemoveAll(dir)
		name := filepath.Base(path)
		if err = os.Mkdir(filepath.Join(dir, "images"), 0o755); err == nil {
			err = os.Link(path, filepath.Join(dir, "images", name))
		}
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), b.TimeOut)
			defer cancel()
			err = b.Encode(ctx, dir, []string{name})
		}
	}
	if err != nil {
		out := b.Log
		if out == nil {
			out = os.Stderr // beside the renderer's own lines
		}
		fmt.Fprintf(out, "publish: the uploaded photograph %s was not resized ahead of its build: %v\n", filepath.Base(path), err)
	}
}

package releases

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkVerify300Products checks a release the size of a 300-product
// catalogue with 200 photographed pieces (make bench-publish's site): 1,600
// pages with their data and compressed copies, 800 originals of 850 kB and
// 9,600 image variants of 30 kB, about 1 GB in 17,000 files, as a start-up
// or a Make live checks it (the originals by size), and as studio releases
// --verify checks it, every byte (make bench-verify).
func BenchmarkVerify300Products(b *testing.B) {
	dir := b.TempDir()
	rs, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	r := Release{ID: "20261128-120000-abcdef1"}
	write := func(name string, size int) {
		path := filepath.Join(rs.Dir(r.ID), name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		body := make([]byte, size)
		rand.Read(body)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 1600 {
		for ext, size := range map[string]int{"index.html": 40_000, "index.html.br": 8_000, "index.html.gz": 10_000, "page.data": 12_000} {
			write(fmt.Sprintf("client/p%d/%s", i, ext), size)
		}
	}
	for i := range 800 {
		write(fmt.Sprintf("content/images/products/photo-%d.jpg", i), 850_000)
		for w := range 12 {
			write(fmt.Sprintf("client/images/products/photo-%d.%d.avif", i, w), 30_000)
		}
	}
	if r.Manifest, err = rs.WriteManifest(r.ID); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		verify func(Release) error
	}{{"start", rs.Verify}, {"every-byte", rs.VerifyAll}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.verify(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

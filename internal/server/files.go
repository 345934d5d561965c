package server

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// file is one response body held in memory with its precompressed
// variants, read once at start-up.
type file struct {
	body        []byte   // the original, for start-up work (hashes, tests)
	identity    *variant // the body as it is
	gzip        *variant // nil when no smaller .gz was built
	brotli      *variant // nil when no smaller .br was built
	contentType []string
	csp         []string // a page's own Content-Security-Policy; nil for other files
}

// newFile makes a file from its body and the compressed bodies the build
// wrote (nil when there are none). Each encoding is its own representation
// with its own validator: the body's hash, plus a suffix.
func newFile(name string, body, gz, br []byte) *file {
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	f := &file{body: body, identity: newVariant(body, `"`+tag+`"`, ""), contentType: []string{contentTypeOf(name)}}
	if gz != nil {
		f.gzip = newVariant(gz, `"`+tag+`-gz"`, "gzip")
	}
	if br != nil {
		f.brotli = newVariant(br, `"`+tag+`-br"`, "br")
	}
	return f
}

// contentTypes names the types whose mime.TypeByExtension answer differs
// between machines (it reads the system's mime tables).
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".txt":         "text/plain; charset=utf-8",
	".xml":         "application/xml",
	".webmanifest": "application/manifest+json",
	".woff2":       "font/woff2",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".data":        "text/x-script", // React Router's route data (turbo-stream), as its own server sends it
}

func contentTypeOf(name string) string {
	ext := path.Ext(name)
	if ct, ok := contentTypes[ext]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// streamedFile is a photograph's file: read from the client build on each
// request instead of held in memory, because there are many and each is
// large (the build makes several widths and formats of every photograph).
type streamedFile struct {
	etag        []string
	contentType []string
}

// streamed reports whether a file of the build is served from the build on
// each request: the raster images, which the build never compresses.
func streamed(name string) bool {
	switch path.Ext(name) {
	case ".avif", ".webp", ".jpg", ".jpeg", ".png":
		return true
	}
	return false
}

// hashedImage matches the names the image pipeline gives its files
// (web/scripts/images.mjs): the original's content hash, then the variant.
var hashedImage = regexp.MustCompile(`^images/.+\.[0-9a-f]{12}\.[^/]+$`)

// loadFiles reads every file of the client build into memory, keyed by its
// path without a leading slash, except the raster images, which are only
// listed. The .gz and .br siblings written by the build become the
// variants of their original, not files of their own.
func loadFiles(fsys fs.FS) (map[string]*file, map[string]*streamedFile, error) {
	files := make(map[string]*file)
	images := make(map[string]*streamedFile)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") {
			return nil
		}
		if streamed(name) {
			info, err := d.Info()
			if err != nil {
				return err
			}
			// Reading each image to hash it would bring them all into
			// memory; the pipeline's names change with the content, and
			// with the size that tells apart the few other versions.
			sum := sha256.Sum256([]byte(name + "\x00" + strconv.FormatInt(info.Size(), 10)))
			images[name] = &streamedFile{etag: []string{`"` + hex.EncodeToString(sum[:12]) + `"`}, contentType: []string{contentTypeOf(name)}}
			return nil
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		gz, err := readOptional(fsys, name+".gz")
		if err != nil {
			return err
		}
		br, err := readOptional(fsys, name+".br")
		if err != nil {
			return err
		}
		files[name] = newFile(name, body, gz, br)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("server: load client build: %w", err)
	}
	return files, images, nil
}

func readOptional(fsys fs.FS, name string) ([]byte, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return b, nil
}

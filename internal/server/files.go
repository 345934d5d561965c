package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// file is one file of the build with its precompressed variants. The
// brotli variant, the smallest, which every current browser takes, is held
// in memory; the gzip and identity variants of a file that has one are read
// from the build when a client asks for them, so memory holds one copy of
// each page, not three (with hundreds of product pages, that is most of it).
type file struct {
	identity    *variant // the body as it is
	gzip        *variant // nil when no smaller .gz was built
	brotli      *variant // nil when no smaller .br was built
	contentType []string
	scripts     []string // a page's inline scripts' hashes, for its Content-Security-Policy
	styles      []string // a page's inline styles' hashes, likewise
	noindex     bool     // a page that asks not to be indexed: the sitemap leaves it out
	title       string   // a page's <title>
	csp         []string // a page's own Content-Security-Policy; nil for other files
}

// newFile makes a file held wholly in memory from its body and the
// compressed bodies (nil when there are none). Each encoding is its own
// representation with its own validator: the body's hash, plus a suffix.
func newFile(name string, body, gz, br []byte) *file {
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	f := &file{identity: newVariant(body, `"`+tag+`"`, ""), contentType: []string{contentTypeOf(name)}}
	if gz != nil {
		f.gzip = newVariant(gz, `"`+tag+`-gz"`, "gzip")
	}
	if br != nil {
		f.brotli = newVariant(br, `"`+tag+`-br"`, "br")
	}
	return f
}

// loadFile reads one file of the build: wholly when the build wrote no
// brotli variant of it (small or incompressible files); else only that
// variant, the others left in the build to be read when asked for. A page
// is read once more, unpacked from its gzip variant, to hash its scripts
// and styles and see whether it asks not to be indexed.
func loadFile(fsys fs.FS, name string) (*file, error) {
	br, err := readOptional(fsys, name+".br")
	if err != nil {
		return nil, err
	}
	var f *file
	var source []byte
	if br == nil {
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		gz, err := readOptional(fsys, name+".gz")
		if err != nil {
			return nil, err
		}
		f, source = newFile(name, body, gz, nil), body
	} else {
		sum := sha256.Sum256(br)
		tag := hex.EncodeToString(sum[:12])
		f = &file{brotli: newVariant(br, `"`+tag+`-br"`, "br"), contentType: []string{contentTypeOf(name)}}
		if f.identity, err = streamedVariant(fsys, name, `"`+tag+`"`, ""); err != nil {
			return nil, err
		}
		if f.gzip, err = streamedVariant(fsys, name+".gz", `"`+tag+`-gz"`, "gzip"); errors.Is(err, fs.ErrNotExist) {
			f.gzip = nil
		} else if err != nil {
			return nil, err
		}
		if path.Ext(name) == ".html" {
			if source, err = unpacked(fsys, name, f.gzip != nil); err != nil {
				return nil, err
			}
		}
	}
	if path.Ext(name) == ".html" {
		f.scripts = inlineHashes(source, "script")
		f.styles = inlineHashes(source, "style")
		f.noindex = bytes.Contains(source, []byte(`<meta name="robots" content="noindex"/>`))
		f.title = titleOf(source)
	}
	return f, nil
}

// unpacked is a file's body: from a build embedded in the binary, read
// from its gzip variant when there is one (the identity variant, mapped
// from the binary, would stay in memory once read); from a build on disk
// (a release), read as it is, 20 times faster than unpacking.
func unpacked(fsys fs.FS, name string, fromGzip bool) ([]byte, error) {
	if info, err := fs.Stat(fsys, name); !fromGzip || (err == nil && info.Sys() != nil) {
		return fs.ReadFile(fsys, name)
	}
	gz, err := fsys.Open(name + ".gz")
	if err != nil {
		return nil, err
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	return io.ReadAll(zr)
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

// loadFiles reads the client build (loadFile), keyed by path without the
// leading slash; the raster images are only listed. The .gz and .br
// siblings written by the build become the variants of their original, not
// files of their own.
func loadFiles(fsys fs.FS) (map[string]*file, map[string]*streamedFile, error) {
	files := make(map[string]*file)
	images := make(map[string]*streamedFile)
	var names []string
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
		names = append(names, name)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("server: load client build: %w", err)
	}
	// The pages are read, unpacked and hashed on every core: a switch to a
	// release of a large catalogue (1,637 pages) waits for it.
	loaded := make([]*file, len(names))
	errs := make([]error, len(names))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				loaded[i], errs[i] = loadFile(fsys, names[i])
			}
		})
	}
	wg.Wait()
	for i, name := range names {
		if errs[i] != nil {
			return nil, nil, fmt.Errorf("server: load client build: %w", errs[i])
		}
		files[name] = loaded[i]
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

// titleOf is the text of a page's <title>, "" if it has none.
func titleOf(page []byte) string {
	_, rest, ok := bytes.Cut(page, []byte("<title>"))
	title, _, closed := bytes.Cut(rest, []byte("</title>"))
	if !ok || !closed {
		return ""
	}
	return html.UnescapeString(string(title))
}

// variant is one encoding of a file, with its header values made once, at
// start-up: the hot path assigns them without formatting or allocating.
type variant struct {
	body     []byte // held in memory; nil when read from fsys on each request
	fsys     fs.FS
	name     string
	etag     string   // quoted
	headers  []string // ETag value
	length   []string // Content-Length value
	encoding []string // Content-Encoding value; nil for identity
}

func newVariant(body []byte, etag, encoding string) *variant {
	v := &variant{body: body, etag: etag, headers: []string{etag}, length: []string{strconv.Itoa(len(body))}}
	if encoding != "" {
		v.encoding = []string{encoding}
	}
	return v
}

// streamedVariant is a variant left in the build, read when it is sent.
func streamedVariant(fsys fs.FS, name, etag, encoding string) (*variant, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	v := &variant{fsys: fsys, name: name, etag: etag, headers: []string{etag}, length: []string{strconv.FormatInt(info.Size(), 10)}}
	if encoding != "" {
		v.encoding = []string{encoding}
	}
	return v, nil
}

// writeBody sends the variant's bytes, from memory or from the build.
func (v *variant) writeBody(w io.Writer) {
	if v.fsys == nil {
		w.Write(v.body)
		return
	}
	f, err := v.fsys.Open(v.name)
	if err != nil {
		return // the build is embedded: a file listed at start-up is there
	}
	defer f.Close()
	io.Copy(w, f)
}

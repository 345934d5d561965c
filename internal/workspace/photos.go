package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	_ "image/png" // thumbnails of PNG photographs
	"iter"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // thumbnails of WebP photographs

	"studio/internal/publish/repo"
)

// A photograph: what it must be to be taken (its kind, by its bytes, and
// its size in pixels, both read from its header before anything decodes
// it), and its thumbnail, made once and kept by the picture's hash.

// photos.json is the one source of the photographs' limits: the build's
// image step (web/scripts/images.mjs) reads it too.
//
//go:embed photos.json
var photosJSON []byte

// photoRules is photos.json.
type photoRules struct {
	// MaxPixels is the most pixels (width × height) of a photograph.
	MaxPixels int `json:"maxPixels"`
}

var photoLimits = mustPhotoRules(photosJSON)

func mustPhotoRules(b []byte) photoRules {
	var r photoRules
	if err := json.Unmarshal(b, &r); err != nil {
		panic("workspace: photos.json: " + err.Error())
	}
	if r.MaxPixels <= 0 {
		panic("workspace: photos.json: maxPixels is missing")
	}
	return r
}

// tooManyPixels says whether a picture of width × height is over the
// limit (without multiplying: an AVIF may say 2³² × 2³²).
func tooManyPixels(width, height int) bool {
	return height > 0 && width > photoLimits.MaxPixels/height
}

// megapixels is the limit as it is said: "50".
func megapixels() string {
	return strconv.FormatFloat(float64(photoLimits.MaxPixels)/1e6, 'f', -1, 64)
}

// checkPhoto is what is wrong with an uploaded photograph (label names it),
// "" when nothing is; its extension by its bytes; and a warning when it is
// narrow.
func checkPhoto(label string, body []byte) (ext, problem, narrow string) {
	ext, width, height := photoKind(body)
	if ext == "" {
		return "", label + " is not a photograph: only JPEG, PNG, WebP and AVIF files can be added, whatever a file’s name says.", ""
	}
	if tooManyPixels(width, height) {
		return "", fmt.Sprintf("%s is %d × %d pixels: a photograph may have at most %s megapixels. Export it smaller (a phone’s “large” size is plenty).", label, width, height, megapixels()), ""
	}
	if width < minPhotoWidth {
		narrow = fmt.Sprintf("%s is %d px wide: it will look soft on large screens (%d px or more is better). It was added all the same.", label, width, minPhotoWidth)
	}
	return ext, "", narrow
}

// photoKind is a photograph's extension by its first bytes (not its name)
// and its size in pixels by its header (nothing is decoded); "" when it is
// none of JPEG, PNG, WebP and AVIF, or its header says no size.
func photoKind(b []byte) (ext string, width, height int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		ext = ".jpg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		ext = ".png"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		ext = ".webp"
	case len(b) >= 12 && string(b[4:8]) == "ftyp" && (string(b[8:12]) == "avif" || string(b[8:12]) == "avis"):
		if width, height, ok := avifSize(b); ok {
			return ".avif", width, height
		}
		return "", 0, 0
	default:
		return "", 0, 0
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return "", 0, 0 // the right first bytes, but not a picture that can be read
	}
	return ext, cfg.Width, cfg.Height
}

// avifSize is the largest picture an AVIF file declares, Go having no
// decoder of AVIF to ask: the "ispe" boxes (meta → iprp → ipco) give the
// size of each of its pictures: the photograph, and its tiles, alpha or
// preview, which are smaller. ok is false when it declares none.
func avifSize(b []byte) (width, height int, ok bool) {
	meta := childBox(b, "meta")
	if len(meta) < 4 {
		return 0, 0, false
	}
	for typ, ispe := range boxes(childBox(childBox(meta[4:], "iprp"), "ipco")) { // meta's first 4 bytes: version and flags
		if typ != "ispe" || len(ispe) < 12 {
			continue
		}
		w, h := int(binary.BigEndian.Uint32(ispe[4:8])), int(binary.BigEndian.Uint32(ispe[8:12]))
		if w > 0 && h > 0 && (!ok || uint64(w)*uint64(h) > uint64(width)*uint64(height)) {
			width, height, ok = w, h, true
		}
	}
	return width, height, ok
}

// boxes are the ISO media boxes that b holds, type and body, up to the
// first that does not fit.
func boxes(b []byte) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		for len(b) >= 8 {
			size, head := uint64(binary.BigEndian.Uint32(b)), uint64(8)
			switch size {
			case 0: // to the end
				size = uint64(len(b))
			case 1: // a 64-bit size follows the type
				if len(b) < 16 {
					return
				}
				size, head = binary.BigEndian.Uint64(b[8:16]), 16
			}
			if size < head || size > uint64(len(b)) || !yield(string(b[4:8]), b[head:size]) {
				return
			}
			b = b[size:]
		}
	}
}

// childBox is the body of b's first box of type typ; nil without one.
func childBox(b []byte, typ string) []byte {
	for t, body := range boxes(b) {
		if t == typ {
			return body
		}
	}
	return nil
}

// thumbnailURL is the address of a picture's thumbnail: a file of the
// draft's content/images, or an upload not yet saved.
func thumbnailURL(src string) string {
	if name, ok := strings.CutPrefix(src, uploadSrcPrefix); ok {
		return "/studio/content/thumbnail?upload=" + name
	}
	return "/studio/content/thumbnail?src=" + src
}

// Thumbnail is GET /studio/content/thumbnail?src=products/x.jpg (a file of
// the draft) or ?upload=NAME: the picture 240 px wide, as JPEG (made when
// it was uploaded, or now); an SVG or AVIF as it is. A picture over the
// pixel limit has none: the page shows its alt text.
func (h *Handler) Thumbnail(w http.ResponseWriter, r *http.Request) {
	var body []byte
	var err error
	if name := r.URL.Query().Get("upload"); name != "" {
		if filepath.Base(name) != name {
			http.NotFound(w, r)
			return
		}
		body, err = os.ReadFile(filepath.Join(h.uploadsDir(), name))
	} else {
		src := path.Clean(r.URL.Query().Get("src"))
		if src == "." || strings.HasPrefix(src, "..") || strings.HasPrefix(src, "/") {
			http.NotFound(w, r)
			return
		}
		var head repo.Commit
		if head, _, err = h.opts.Content.Draft(); err == nil {
			body, err = h.opts.Content.ReadFile(head.Hash, "images/"+src)
		}
	}
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if strings.HasSuffix(strings.ToLower(r.URL.Query().Get("src")), ".svg") {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(body)
		return
	}
	if ext, width, height := photoKind(body); ext == ".avif" {
		if tooManyPixels(width, height) {
			http.NotFound(w, r)
			return
		}
		// Go decodes no AVIF; every browser the workspace supports does,
		// and an AVIF photograph is small enough to show as it is.
		w.Header().Set("Content-Type", "image/avif")
		w.Write(body)
		return
	}
	thumb, err := h.thumbnail(r.Context(), body)
	if err != nil {
		http.NotFound(w, r) // not a picture, or too large a one: the page shows its alt text
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Write(thumb)
}

// thumbnailSlots holds a token for each thumbnail being made, whoever asked
// for it: decoding a photograph takes up to 4 bytes a pixel, 200 MB at the
// limit, so the server makes one at a time.
var thumbnailSlots = make(chan struct{}, 1)

// thumbnailMaking, when a test sets it, is called as each thumbnail is
// made, its slot held.
var thumbnailMaking func()

var errTooManyPixels = errors.New("workspace: a picture over the pixel limit has no thumbnail")

// thumbnail is a picture's thumbnail: found by the picture's hash, or made
// (and kept) when the picture, measured first, is within the pixel limit
// and its turn comes (or ctx ends the wait).
func (h *Handler) thumbnail(ctx context.Context, body []byte) ([]byte, error) {
	digest := sha256.Sum256(body)
	cache := filepath.Join(h.opts.Scratch, "thumbnails", hex.EncodeToString(digest[:])+".jpg")
	if b, err := os.ReadFile(cache); err == nil {
		return b, nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if tooManyPixels(cfg.Width, cfg.Height) {
		return nil, errTooManyPixels
	}
	select {
	case thumbnailSlots <- struct{}{}:
		defer func() { <-thumbnailSlots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if b, err := os.ReadFile(cache); err == nil {
		return b, nil // made while this one waited
	}
	if thumbnailMaking != nil {
		thumbnailMaking()
	}
	img, _, err := image.Decode(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	bounds := img.Bounds()
	height := max(1, bounds.Dy()*thumbnailWidth/max(1, bounds.Dx()))
	dst := image.NewRGBA(image.Rect(0, 0, thumbnailWidth, height))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, bounds, draw.Src, nil)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 80}); err != nil {
		return nil, err
	}
	// Written whole or not at all: a reader never finds half of one.
	if err := os.MkdirAll(filepath.Dir(cache), 0o755); err == nil {
		if f, err := os.CreateTemp(filepath.Dir(cache), "thumbnail-*"); err == nil {
			_, err = f.Write(out.Bytes())
			if err = errors.Join(err, f.Close()); err == nil {
				err = os.Rename(f.Name(), cache)
			}
			if err != nil {
				os.Remove(f.Name())
			}
		}
	}
	return out.Bytes(), nil
}

package edit

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png" // PNG photographs' sizes and thumbnails
	"iter"
	"strconv"

	_ "golang.org/x/image/webp" // WebP photographs' sizes and thumbnails

	"studio/contracts"
)

// A photograph: what it must be to be taken (its kind, by its bytes, and
// its size in pixels, both read from its header before anything decodes
// it).

const (
	MaxPhotoBytes = 30 << 20 // a photograph may be this large (a phone's are 3–12 MB)
	minPhotoWidth = 1200     // narrower ones look soft on a large screen: a warning
)

// contracts/photos.json is the one source of the photographs' limits: the
// build's image step (web/scripts/images.mjs) reads it too.
var photosJSON = contracts.Photos

// photoRules is photos.json.
type photoRules struct {
	// MaxPixels is the most pixels (width × height) of a photograph.
	MaxPixels int `json:"maxPixels"`
}

// PhotoLimits are photos.json's limits.
var PhotoLimits = mustPhotoRules(photosJSON)

func mustPhotoRules(b []byte) photoRules {
	var r photoRules
	if err := json.Unmarshal(b, &r); err != nil {
		panic("edit: photos.json: " + err.Error())
	}
	if r.MaxPixels <= 0 {
		panic("edit: photos.json: maxPixels is missing")
	}
	return r
}

// TooManyPixels says whether a picture of width × height is over the
// limit (without multiplying: an AVIF may say 2³² × 2³²).
func TooManyPixels(width, height int) bool {
	return height > 0 && width > PhotoLimits.MaxPixels/height
}

// megapixels is the limit as it is said: "50".
func megapixels() string {
	return strconv.FormatFloat(float64(PhotoLimits.MaxPixels)/1e6, 'f', -1, 64)
}

// CheckPhoto is what is wrong with an uploaded photograph (label names it),
// "" when nothing is; its extension by its bytes; and a warning when it is
// narrow.
func CheckPhoto(label string, body []byte) (ext, problem, narrow string) {
	ext, width, height := PhotoKind(body)
	if ext == "" {
		return "", label + " is not a photograph: only JPEG, PNG, WebP and AVIF files can be added, whatever a file’s name says.", ""
	}
	if TooManyPixels(width, height) {
		return "", fmt.Sprintf("%s is %d × %d pixels: a photograph may have at most %s megapixels. Export it smaller (a phone’s “large” size is plenty).", label, width, height, megapixels()), ""
	}
	if width < minPhotoWidth {
		narrow = fmt.Sprintf("%s is %d px wide: it will look soft on large screens (%d px or more is better). It was added all the same.", label, width, minPhotoWidth)
	}
	return ext, "", narrow
}

// PhotoKind is a photograph's extension by its first bytes (not its name)
// and its size in pixels by its header (nothing is decoded); "" when it is
// none of JPEG, PNG, WebP and AVIF, or its header says no size.
func PhotoKind(b []byte) (ext string, width, height int) {
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

package edit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"

	"golang.org/x/image/draw"
)

// ThumbnailWidth is a thumbnail's width in pixels.
const ThumbnailWidth = 240

// Thumbnails are the photographs' thumbnails, made once and kept in Dir by
// the picture's hash.
type Thumbnails struct {
	Dir string
	// Making, when a test sets it, is called as each thumbnail is made,
	// its slot held.
	Making func()
}

// thumbnailSlots holds a token for each thumbnail being made, whoever asked
// for it: decoding a photograph takes up to 4 bytes a pixel, 200 MB at the
// limit, so the server makes one at a time.
var thumbnailSlots = make(chan struct{}, 1)

// ErrTooManyPixels: a picture over the pixel limit has no thumbnail.
var ErrTooManyPixels = errors.New("edit: a picture over the pixel limit has no thumbnail")

// Of is a picture's thumbnail: found by the picture's hash, or made (and
// kept) when the picture, measured first, is within the pixel limit and
// its turn comes (or ctx ends the wait).
func (t *Thumbnails) Of(ctx context.Context, body []byte) ([]byte, error) {
	digest := sha256.Sum256(body)
	cache := filepath.Join(t.Dir, hex.EncodeToString(digest[:])+".jpg")
	if b, err := os.ReadFile(cache); err == nil {
		return b, nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if TooManyPixels(cfg.Width, cfg.Height) {
		return nil, ErrTooManyPixels
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
	if t.Making != nil {
		t.Making()
	}
	thumb, err := scaled(body)
	if err != nil {
		return nil, err
	}
	keep(cache, thumb)
	return thumb, nil
}

// scaled is a picture ThumbnailWidth wide, as JPEG.
func scaled(body []byte) ([]byte, error) {
	img, _, err := image.Decode(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	bounds := img.Bounds()
	height := max(1, bounds.Dy()*ThumbnailWidth/max(1, bounds.Dx()))
	dst := image.NewRGBA(image.Rect(0, 0, ThumbnailWidth, height))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, bounds, draw.Src, nil)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 80}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// keep writes a thumbnail whole or not at all: a reader never finds half
// of one. A thumbnail not kept is made again next time.
func keep(cache string, thumb []byte) {
	if err := os.MkdirAll(filepath.Dir(cache), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(cache), "thumbnail-*")
	if err != nil {
		return
	}
	_, err = f.Write(thumb)
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), cache)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

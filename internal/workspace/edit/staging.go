package edit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"studio/internal/contentform"
)

// Photographs added to a product's form wait in a folder of their own
// until the form is saved, which names them and commits them; one never
// saved is deleted after a day.

const (
	uploadsKeptFor = 24 * time.Hour // an upload never saved is deleted after this
	// UploadSrcPrefix starts the src of a photograph of a form not yet
	// saved: "upload:NAME", NAME in the uploads folder.
	UploadSrcPrefix = "upload:"
)

// Staging is the folder photographs wait in (Dir), with their thumbnails,
// made as each arrives. Images, when set, is asked to make each one's
// resized files too.
type Staging struct {
	Dir        string
	Thumbnails *Thumbnails
	Log        *slog.Logger
	Images     ImagePreparer
}

// An ImagePreparer makes a photograph's resized files (the site's
// variants) ahead of the build that needs them: the builder, when it can.
// A phone's publish of a new product waited for them (20–57 s); made from
// the upload on, they are ready by the time the form is saved and
// published, the build finding them by the photograph's bytes.
type ImagePreparer interface {
	// PrepareImage makes the files of the photograph at path (an upload's
	// absolute path, holding the bytes its save will commit). Nothing
	// waits for it; when it fails, the build makes them as it always has.
	PrepareImage(path string)
}

// Ready makes the folder if need be and deletes the uploads never saved.
func (s *Staging) Ready() error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	entries, _ := os.ReadDir(s.Dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > uploadsKeptFor {
			os.Remove(filepath.Join(s.Dir, e.Name()))
		}
	}
	return nil
}

// Read is an upload's photograph, by its name in the folder.
func (s *Staging) Read(name string) ([]byte, error) {
	if filepath.Base(name) != name || name == "" || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("the upload %q is not one of this server's", name)
	}
	return os.ReadFile(filepath.Join(s.Dir, name))
}

// Stage keeps one uploaded file: its name in the folder, or the problem
// that refused it; and a warning when it is narrow. Files that are no
// photograph the site can show, an empty one, a HEIC one (a phone's) and
// an SVG drawing, are refused each in its own words.
func (s *Staging) Stage(fh *multipart.FileHeader) (name, problem, narrow string) {
	if problem := unshowable(fh); problem != "" {
		return "", problem, ""
	}
	label := "“" + fh.Filename + "”"
	if fh.Size > MaxPhotoBytes {
		return "", SayPhoto("large", fh.Filename, Megabytes(fh.Size)), ""
	}
	f, err := fh.Open()
	if err != nil {
		return "", label + " could not be read: " + err.Error(), ""
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, MaxPhotoBytes+1))
	if err != nil {
		return "", label + " could not be read: " + err.Error(), ""
	}
	if len(body) > MaxPhotoBytes {
		return "", SayPhoto("large", fh.Filename, fmt.Sprintf("over %d MB", MaxPhotoBytes>>20)), ""
	}
	ext, problem, narrow := CheckPhoto(label, body)
	if problem != "" {
		return "", problem, ""
	}
	token := make([]byte, 12)
	rand.Read(token)
	name = hex.EncodeToString(token) + ext
	if err := os.WriteFile(filepath.Join(s.Dir, name), body, 0o644); err != nil {
		return "", label + " could not be kept: " + err.Error(), ""
	}
	// Made now, once: the form shows it next (an AVIF is shown as it is).
	if ext != ".avif" {
		if _, err := s.Thumbnails.Of(context.Background(), body); err != nil {
			s.Log.Warn("studio: no thumbnail of an upload", "upload", name, "err", err)
		}
	}
	if s.Images != nil {
		if path, err := filepath.Abs(filepath.Join(s.Dir, name)); err == nil {
			go s.Images.PrepareImage(path)
		}
	}
	return name, "", narrow
}

// SentAhead is a photograph the script sent ahead ("NAME/FILENAME"), as
// the form adds it: still in the folder, and a photograph.
func (s *Staging) SentAhead(token string) (name, problem, narrow string) {
	name, filename, _ := strings.Cut(token, "/")
	label := "“" + filename + "”"
	if name == "" || filepath.Base(name) != name || strings.HasPrefix(name, ".") {
		return "", label + " is not one of this server’s uploads: add it again.", ""
	}
	body, err := os.ReadFile(filepath.Join(s.Dir, name))
	if err != nil {
		return "", label + " is no longer on the server (uploads are kept a day): add it again.", ""
	}
	// Checked again: the name came back from the browser.
	if _, problem, narrow = CheckPhoto(label, body); problem != "" {
		return "", problem, ""
	}
	return name, "", narrow
}

// unshowable says what is wrong with an empty, HEIC or SVG file ("" for any
// other: Stage checks those).
func unshowable(fh *multipart.FileHeader) string {
	if fh.Size == 0 {
		return SayPhoto("empty", fh.Filename, "")
	}
	f, err := fh.Open()
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	if IsHEIC(head[:n]) {
		return SayPhoto("heic", fh.Filename, "")
	}
	if isSVG(fh.Filename, head[:n]) {
		return SayPhoto("svg", fh.Filename, "")
	}
	return ""
}

// isSVG tells an SVG drawing by its name or its first bytes. Any other
// file that is no picture is refused by CheckPhoto: this one only gets
// its own words.
func isSVG(filename string, head []byte) bool {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
	return strings.EqualFold(path.Ext(filename), ".svg") || bytes.HasPrefix(head, []byte("<svg")) || bytes.HasPrefix(head, []byte("<?xml"))
}

// IsHEIC tells a HEIC or HEIF picture (an iPhone's) by its first box's
// brands; an AVIF, the same container, is not one.
func IsHEIC(b []byte) bool {
	if len(b) < 16 || string(b[4:8]) != "ftyp" {
		return false
	}
	box := b[8:min(len(b), max(16, int(binary.BigEndian.Uint32(b[:4]))))]
	heif := false
	for i := 0; i+4 <= len(box); i += 4 {
		if i == 4 {
			continue // the minor version
		}
		switch string(box[i : i+4]) {
		case "avif", "avis":
			return false
		case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1":
			heif = true
		}
	}
	return heif
}

// place names each uploaded photograph of the product at pointer in doc
// (products/12-chair-3f9a1c.jpg), writing its new src into doc, and
// returns the files to commit.
func (s *Staging) place(doc *contentform.Value, pointer string) (map[string][]byte, error) {
	files := map[string][]byte{}
	product := doc.At(pointer)
	for _, image := range doc.At(pointer + "/images").List() {
		name, ok := strings.CutPrefix(image.Get("src").Text(), UploadSrcPrefix)
		if !ok {
			continue
		}
		if filepath.Base(name) != name || name == "" {
			return nil, fmt.Errorf("the upload %q is not one of this server's", name)
		}
		body, err := os.ReadFile(filepath.Join(s.Dir, name))
		if err != nil {
			return nil, fmt.Errorf("the photograph uploaded is no longer on the server (uploads are kept a day): add it again: %w", err)
		}
		src := fmt.Sprintf("products/%s-%s-%s", product.Get("id").Text(), slugOf(product.Get("name").Text()), name[:6]+path.Ext(name))
		image.Set("src", contentform.Text(src))
		files["images/"+src] = body
	}
	return files, nil
}

// placePictures names each picture uploaded for a picture or drawing
// field of form (doc's part's) after its place
// ("pages/home-hero-3f9a1c.jpg", "pages/home-craft-3f9a1c.jpg"), writing
// it into doc, and adds its file to files.
func (s *Staging) placePictures(form *contentform.Field, doc *contentform.Value, files map[string][]byte) error {
	var err error
	var walk func(f *contentform.Field)
	walk = func(f *contentform.Field) {
		name, ok := strings.CutPrefix(f.Value, UploadSrcPrefix)
		if uploadable(f) && ok && err == nil {
			if filepath.Base(name) != name || name == "" || strings.HasPrefix(name, ".") {
				err = fmt.Errorf("the upload %q is not one of this server's", name)
				return
			}
			body, readErr := os.ReadFile(filepath.Join(s.Dir, name))
			if readErr != nil {
				err = fmt.Errorf("the picture uploaded is no longer on the server (uploads are kept a day): choose it again: %w", readErr)
				return
			}
			// Named after the group the field is in: "/home/craft/image" → home-craft.
			src := fmt.Sprintf("pages/%s-%s", slugOf(strings.ReplaceAll(path.Dir(f.Name), "/", " ")), name[:6]+path.Ext(name))
			doc.Replace(f.Name, contentform.Text(src))
			files["images/"+src] = body
		}
		for _, child := range f.Fields {
			walk(child)
		}
	}
	walk(form)
	return err
}

// slugOf is a name as a file's: "Jharokha Mirror" → "jharokha-mirror"; and
// as a list's address word (web/app/lib/filters.ts, slugOf: the same rule).
func slugOf(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "product"
	}
	return b.String()
}

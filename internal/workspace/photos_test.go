package workspace

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/jpeg"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
)

// bombPNG is the trial's picture: a greyscale PNG of 30000 × 30000 black
// pixels, about a megabyte, that decodes into 900 MB. It is written row by
// row, so making it takes little memory.
var bombPNG = sync.OnceValue(func() []byte { return blackPNG(30000, 30000) })

// blackPNG is a greyscale PNG of width × height black pixels.
func blackPNG(width, height int) []byte {
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+width) // filter "none", then the row's pixels
	for range height {
		zw.Write(row)
	}
	zw.Close()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
		b.WriteString(typ)
		b.Write(data)
		b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(append([]byte(typ), data...))))
	}
	header := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(width)), uint32(height))
	chunk("IHDR", append(header, 8, 0, 0, 0, 0)) // 8 bits a pixel, greyscale
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// avifWith is the start of an AVIF file whose pictures (the photograph,
// its tiles, its alpha) have these sizes, each in an "ispe" box, as an
// exporter writes them: ftyp, then meta → iprp → ipco.
func avifWith(sizes ...[2]uint32) []byte {
	box := func(typ string, body ...[]byte) []byte {
		all := bytes.Join(body, nil)
		return append(append(binary.BigEndian.AppendUint32(nil, uint32(8+len(all))), typ...), all...)
	}
	var properties [][]byte
	for _, s := range sizes {
		properties = append(properties, box("ispe", make([]byte, 4), binary.BigEndian.AppendUint32(nil, s[0]), binary.BigEndian.AppendUint32(nil, s[1])))
	}
	return append(box("ftyp", []byte("avif\x00\x00\x00\x00avifmif1miaf")),
		box("meta", make([]byte, 4), box("hdlr", make([]byte, 24)), box("iprp", box("ipco", properties...)))...)
}

// commitToDraft commits files to the draft, as a save or a push would.
func (rig *editorRig) commitToDraft(t *testing.T, files map[string][]byte) {
	t.Helper()
	head, _, err := rig.repo.Draft()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rig.repo.SaveDraft(head.Hash, files, nil, repo.Signature{Name: "Test", Email: "test@example.com"}, "Pictures"); err != nil {
		t.Fatal(err)
	}
}

// allocated is how many bytes the process allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const mostAllocated = 200 << 20

// The trial's 937 KB PNG of 30000 × 30000 pixels took the server to 1 GB
// for its thumbnail. Measured before it is decoded, it is refused at
// upload, and a copy in the draft has no thumbnail: neither costs 200 MB.
// Not parallel: it measures the allocations of the whole process.
func TestAPictureOfTooManyPixelsIsRefusedBeforeItIsDecoded(t *testing.T) {
	rig := setupEditor(t)
	bomb := bombPNG()
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(bomb)); err != nil || cfg.Width != 30000 || cfg.Height != 30000 {
		t.Fatalf("the bomb: %+v %v", cfg, err)
	}
	main, _ := rig.repo.Main()
	var body string
	if n := allocated(func() {
		w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{"bomb.png": bomb})
		body = w.Body.String()
	}); n > mostAllocated {
		t.Errorf("the upload allocated %d MB", n>>20)
	}
	want := fmt.Sprintf("“bomb.png” is 30000 × 30000 pixels: a photograph may have at most %d megapixels.", edit.PhotoLimits.MaxPixels/1e6)
	if !strings.Contains(body, want) {
		t.Errorf("the page does not say %q:\n%s", want, body)
	}
	if strings.Contains(body, "thumbnail?upload=") {
		t.Error("the bomb was added to the form")
	}
	if entries, _ := os.ReadDir(rig.h.editor.Photos.Dir); len(entries) != 0 {
		t.Errorf("the uploads folder holds %d files", len(entries))
	}

	// One pushed to the draft, or kept from before the check, is measured too.
	rig.commitToDraft(t, map[string][]byte{"images/products/bomb.png": bomb})
	var code int
	if n := allocated(func() {
		code = do(rig.h, "GET", "/studio/content/thumbnail?src=products/bomb.png", nil, withCookie(rig.asha)).Code
	}); n > mostAllocated {
		t.Errorf("its thumbnail allocated %d MB", n>>20)
	}
	if code != http.StatusNotFound {
		t.Errorf("its thumbnail: %d, want 404 (the page shows the alt text)", code)
	}
}

// Go decodes no AVIF: its size is read from its boxes, the largest
// picture's (a tile or an alpha may come first).
func TestAnAVIFIsMeasuredByItsLargestPicture(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		file  []byte
		ext   string
		w, h  int
		label string
	}{
		{"a photograph", avifWith([2]uint32{4032, 3024}), ".avif", 4032, 3024, ""},
		{"tiles before the whole", avifWith([2]uint32{512, 512}, [2]uint32{8064, 6048}), ".avif", 8064, 6048, ""},
		{"a bomb after a small alpha", avifWith([2]uint32{64, 64}, [2]uint32{30000, 30000}), ".avif", 30000, 30000, "“bomb.avif” is 30000 × 30000 pixels"},
		{"a size past 32 bits of pixels", avifWith([2]uint32{1 << 31, 1 << 31}), ".avif", 1 << 31, 1 << 31, "“bomb.avif” is 2147483648 × 2147483648 pixels"},
		{"no size", avifWith(), "", 0, 0, "“bomb.avif” is not a photograph"},
		{"a box longer than the file", avifWith([2]uint32{4032, 3024})[:60], "", 0, 0, "“bomb.avif” is not a photograph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ext, w, h := edit.PhotoKind(c.file)
			if ext != c.ext || w != c.w || h != c.h {
				t.Errorf("photoKind = %q %d × %d, want %q %d × %d", ext, w, h, c.ext, c.w, c.h)
			}
			if _, problem, _ := edit.CheckPhoto("“bomb.avif”", c.file); !strings.HasPrefix(problem, c.label) || (c.label == "") != (problem == "") {
				t.Errorf("CheckPhoto: %q, want %q", problem, c.label)
			}
		})
	}
}

// preparingBuilder is the build's tools, able to make a photograph's
// files at upload: it passes on each path it is asked to prepare.
type preparingBuilder struct {
	*fakeBuilder
	prepared chan string
}

func (b *preparingBuilder) PrepareImage(path string) { b.prepared <- path }

// A builder that can make a photograph's files is asked to, once the
// upload is taken, with the upload's file: the bytes its save commits.
func TestAnUploadedPhotographIsPreparedForTheBuild(t *testing.T) {
	t.Parallel()
	builder := &preparingBuilder{fakeBuilder: &fakeBuilder{}, prepared: make(chan string, 4)}
	rig := setupEditorOn(t, editorContent, func(o *Options) { o.Builder = builder })
	main, _ := rig.repo.Main()
	picture := photo(t, 1600, 1200)
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{"workshop.png": picture})
	if !strings.Contains(w.Body.String(), "1 photograph added") {
		t.Fatalf("upload: %d\n%s", w.Code, w.Body)
	}
	select {
	case path := <-builder.prepared:
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, picture) || !filepath.IsAbs(path) {
			t.Errorf("prepared %s (%v): not the upload's file", path, err)
		}
		if filepath.Dir(path) != rig.h.editor.Photos.Dir {
			t.Errorf("prepared %s, not a file of the uploads folder %s", path, rig.h.editor.Photos.Dir)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the upload was not prepared")
	}
}

// countThumbnails counts the thumbnails made while the test runs.
func countThumbnails(rig *editorRig) *atomic.Int32 {
	var made atomic.Int32
	rig.h.editor.Photos.Thumbnails.Making = func() { made.Add(1) }
	return &made
}

// A thumbnail is made when its photograph is uploaded, and only then: the
// form's page asks for it at once, and finds it made.
func TestAThumbnailIsMadeOnceWhenItsPhotographIsUploaded(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	made := countThumbnails(rig)
	main, _ := rig.repo.Main()
	picture := photo(t, 1600, 1200)
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{"workshop.png": picture})
	if !strings.Contains(w.Body.String(), "1 photograph added") {
		t.Fatalf("upload: %d\n%s", w.Code, w.Body)
	}
	digest := sha256.Sum256(picture)
	if _, err := os.Stat(filepath.Join(rig.h.opts.Scratch, "thumbnails", hex.EncodeToString(digest[:])+".jpg")); err != nil {
		t.Errorf("no thumbnail kept at upload: %v", err)
	}
	if made.Load() != 1 {
		t.Errorf("%d thumbnails made at upload, want 1", made.Load())
	}
	_, rest, _ := strings.Cut(w.Body.String(), `src="/studio/content/thumbnail?upload=`)
	name, _, _ := strings.Cut(rest, `"`)
	thumb := do(rig.h, "GET", "/studio/content/thumbnail?upload="+name, nil, withCookie(rig.asha))
	if cfg, err := jpeg.DecodeConfig(thumb.Body); err != nil || cfg.Width != edit.ThumbnailWidth {
		t.Errorf("the thumbnail: %d %+v %v", thumb.Code, cfg, err)
	}
	if made.Load() != 1 {
		t.Errorf("%d thumbnails made after it was asked for, want still 1", made.Load())
	}
}

// Thumbnails are made one at a time in the whole server: a second waits
// for the first (or for its asker to give up).
func TestThumbnailsAreMadeOneAtATime(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	rig.commitToDraft(t, map[string][]byte{"images/products/first.png": photo(t, 1600, 1200)})
	second := photo(t, 1200, 900)
	var calls atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	rig.h.editor.Photos.Thumbnails.Making = func() {
		if calls.Add(1) == 1 { // the first is held until the test lets it go
			close(entered)
			<-release
		}
	}
	first := make(chan int, 1)
	go func() {
		first <- do(rig.h, "GET", "/studio/content/thumbnail?src=products/first.png", nil, withCookie(rig.asha)).Code
	}()
	select {
	case <-entered:
	case <-time.After(2 * time.Minute):
		t.Fatal("the first thumbnail was never begun")
	}
	// Its asker gone, the second stops waiting, and makes none.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rig.h.editor.Photos.Thumbnails.Of(gone, second); !errors.Is(err, context.Canceled) {
		t.Errorf("a second thumbnail made while the first was: %v, want the wait given up", err)
	}
	close(release)
	if code := <-first; code != http.StatusOK {
		t.Errorf("the first thumbnail: %d", code)
	}
	if thumb, err := rig.h.editor.Photos.Thumbnails.Of(context.Background(), second); err != nil || len(thumb) == 0 {
		t.Errorf("the second, after the first: %v", err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d thumbnails made, want 2", calls.Load())
	}
}

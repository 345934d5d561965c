package editor

import (
	_ "image/png" // thumbnails of PNG photographs
	"net/http"
	"path"
	"path/filepath"
	"strings"

	_ "golang.org/x/image/webp" // thumbnails of WebP photographs

	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
)

// The photographs' thumbnails, as the Content section shows them (made
// by package edit).

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
		body, err = h.editor.Photos.Read(name)
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
	if ext, width, height := edit.PhotoKind(body); ext == ".avif" {
		if edit.TooManyPixels(width, height) {
			http.NotFound(w, r)
			return
		}
		// Go decodes no AVIF; every browser the workspace supports does,
		// and an AVIF photograph is small enough to show as it is.
		w.Header().Set("Content-Type", "image/avif")
		w.Write(body)
		return
	}
	thumb, err := h.editor.Photos.Thumbnails.Of(r.Context(), body)
	if err != nil {
		http.NotFound(w, r) // not a picture, or too large a one: the page shows its alt text
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Write(thumb)
}

package edit

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"studio/internal/contentform"
	"studio/internal/sitecontent"
	"studio/web"
)

// The content's single pictures: the home page's hero, a picture of the
// content's own, chosen with the uploader of the products' photographs;
// and the pages' drawings, each one of the drawings the site is made with
// or a picture uploaded in its place, as the hero is (never an SVG: the
// uploader takes none). Neither is ever typed as a file's name.

const (
	// PictureKind is the Kind of a field that holds a picture of the
	// content's images (the hero): shown, and replaced by an upload.
	PictureKind = "picture"
	// DrawingKind is the Kind of a field that holds one of the site's
	// drawings, chosen from them (its Options), or a picture uploaded.
	DrawingKind = "drawing"
	// ChosenDrawingKind is a drawing's field of an earlier schema, which a
	// content repository made before keeps: its value is one of the
	// site's drawings, chosen, and a picture uploaded would be refused.
	ChosenDrawingKind = "drawing-choice"
	// PictureFilePrefix and the field's name name a picture field's file
	// input ("_picture/home/hero/src"), posted without the script.
	PictureFilePrefix = "_picture"
	// PictureSentPrefix and the field's name name what the upload script
	// sent ahead for it: "NAME/FILENAME", as a product's UploadedField.
	PictureSentPrefix = "_uploaded"
)

// A Drawing is one of the drawings the site is made with (web/public/images):
// its address on the site and what it shows, from its own <title>.
type Drawing struct{ Src, Name string }

// Drawings are the site's drawings, by name, read once from the build.
var Drawings = sync.OnceValue(func() []Drawing { return drawingsOf(web.Client()) })

var svgTitle = regexp.MustCompile(`<title>([^<]+)</title>`)

// drawingsOf reads the drawings of a build: images/NAME.svg (the image
// pipeline's own files have a hash in their names, NAME.HASH.svg).
func drawingsOf(build fs.FS) []Drawing {
	names, _ := fs.Glob(build, "images/*.svg")
	var list []Drawing
	for _, name := range names {
		if strings.Count(path.Base(name), ".") != 1 {
			continue
		}
		b, err := fs.ReadFile(build, name)
		if err != nil {
			continue
		}
		list = append(list, Drawing{Src: "/" + name, Name: shortName(b, name)})
	}
	return list
}

// shortName is what a drawing shows, in a few words: its title up to the
// first comma, colon or "with" ("A drafting table seen from above").
func shortName(svg []byte, name string) string {
	m := svgTitle.FindSubmatch(svg)
	if m == nil {
		return strings.TrimSuffix(path.Base(name), ".svg")
	}
	title := strings.TrimSpace(string(m[1]))
	for _, cut := range []string{":", ",", " with "} {
		title, _, _ = strings.Cut(title, cut)
	}
	return title
}

// DrawingName is what the drawing at src shows, or "" for a picture that
// is none of the site's drawings.
func DrawingName(src string) string {
	for _, d := range Drawings() {
		if d.Src == src {
			return d.Name
		}
	}
	return ""
}

// pictureFields makes each text field whose pattern is a path's a picture
// (the content's images) or a drawing (the site's, listed as its
// Options, the one it has first when it is none of them).
func pictureFields(f *contentform.Field) {
	if f.Kind == "text" || f.Kind == "textarea" {
		switch kind, current := sitecontent.KindOfPattern(f.Pattern); kind {
		case sitecontent.ImagePath:
			namePicture(f, PictureKind, "Picture")
		case sitecontent.DrawingPath:
			namePicture(f, ChosenDrawingKind, "Drawing")
			if current {
				f.Kind = DrawingKind
			}
			for _, d := range Drawings() {
				f.Options = append(f.Options, d.Src)
			}
			if !slices.Contains(f.Options, f.Value) {
				f.Options = append([]string{f.Value}, f.Options...)
			}
		}
	}
	for _, c := range f.Fields {
		pictureFields(c)
	}
}

// namePicture makes f a picture field of kind, named label when its
// schema gives it no title (its key, "src", is its label), without a
// hint that names a folder: an earlier schema's, written for those who
// edit the files by hand.
func namePicture(f *contentform.Field, kind, label string) {
	f.Kind = kind
	if strings.EqualFold(f.Label, path.Base(f.Name)) {
		f.Label = label
	}
	if strings.Contains(f.Hint, "images/") {
		f.Hint = ""
	}
}

// uploadable says whether a field of a form takes a picture uploaded.
func uploadable(f *contentform.Field) bool { return f.Kind == PictureKind || f.Kind == DrawingKind }

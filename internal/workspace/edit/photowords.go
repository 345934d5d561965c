package edit

import (
	"encoding/json"
	"fmt"
	"strings"
)

// What is said of a photograph (or a page's picture) that cannot be taken because of what the
// phone sent: the server says it of a form sent without the upload script,
// and the script (editor.UploadJS, given these words where it is served)
// says it before sending a byte. {name} is the file's name, quoted;
// {size} its size ("45.2 MB").
var PhotoWords = map[string]string{
	"empty": "{name} is empty (0 bytes): choose it again (a photograph still on its way from the phone’s cloud can be empty).",
	"heic":  "{name} is an iPhone HEIC photo: choose it again from Photos, which sends a JPEG, or set the camera to Most Compatible.",
	"svg":   "{name} is an SVG drawing, which cannot be uploaded (an SVG file can hide a program that would run on the site): save it as PNG or JPEG, then choose it again.",
	"large": fmt.Sprintf("{name} is {size}: a photograph may be up to %d MB. Export it smaller (a phone’s “large” size is plenty).", MaxPhotoBytes>>20),
}

// SayPhoto is PhotoWords[kind] said of the file name, of size (in words).
func SayPhoto(kind, name, size string) string {
	return strings.NewReplacer("{name}", "“"+name+"”", "{size}", size).Replace(PhotoWords[kind])
}

// Megabytes is a size as the words say it: "45.2 MB" (as the script does).
func Megabytes(n int64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + " MB"
}

// PhotoWordsJSON is PhotoWords for the script.
func PhotoWordsJSON() string {
	b, err := json.Marshal(PhotoWords)
	if err != nil {
		panic(err)
	}
	return string(b)
}

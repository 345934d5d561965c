package workspace

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"studio/internal/workspace/edit"
	"studio/internal/workspace/editor"
)

// A form sent without the script with a file over 30 MB is refused whole,
// naming the file and the limit (its size is not read past the limit).
func TestAPhotographOverTheLimitInTheFormIsNamed(t *testing.T) {
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	huge := append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, make([]byte, edit.MaxPhotoBytes)...)
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{"huge.jpg": huge})
	want := "Nothing was saved: “huge.jpg” is over 30 MB: a photograph may be up to 30 MB. Export it smaller (a phone’s “large” size is plenty)."
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(bodyText(w), want) {
		t.Errorf("a photograph over 30 MB: %d\n%s", w.Code, bodyText(w))
	}
}

// The upload script says of a file it will not send what the server says
// of it: the words are the server's, written into the script.
func TestTheScriptSaysWhatTheServerSaysOfAPhotograph(t *testing.T) {
	for kind, words := range edit.PhotoWords {
		if !strings.Contains(editor.UploadJS, strings.TrimSuffix(words, ".")) {
			t.Errorf("the script lacks the words for %s: %s", kind, words)
		}
	}
	if strings.Contains(editor.UploadJS, "/* edit.PhotoWords */") {
		t.Error("the script's words were not written in")
	}
}

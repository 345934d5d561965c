package edit

import (
	"studio/internal/contentform"
	"studio/internal/publish/repo"
)

// The saves of the draft since a form's version, as a conflict names them:
// who changed a field, and when.

// version is one save of the draft with the part as it left it (nil:
// not there).
type version struct {
	save Save
	part *contentform.Value
}

// historyLimit is how many saves back a conflict's history is read.
const historyLimit = 200

// history is what of the content repository (a Content) a part's
// history is read from.
type history interface {
	Log(hash string, n int) ([]repo.Commit, error)
	ReadFile(hash, name string) ([]byte, error)
}

// partHistory is the part as each save from commit to back to since (not
// included) left it, newest first, then as since had it.
func partHistory(content history, part Part, since, to string) ([]version, error) {
	commits, err := content.Log(to, historyLimit)
	if err != nil {
		return nil, err
	}
	var out []version
	for _, c := range commits {
		out = append(out, version{Save{c.Author, c.When}, partAt(content, part, c.Hash)})
		if c.Hash == since {
			break
		}
	}
	return out, nil
}

// partAt is the part's own value at commit hash (a text's whole text),
// nil when it is not there.
func partAt(content history, part Part, hash string) *contentform.Value {
	raw, err := content.ReadFile(hash, part.File)
	if err != nil {
		return nil
	}
	if part.IsText() {
		return contentform.Text(string(raw))
	}
	doc, err := contentform.Parse(raw)
	if err != nil {
		return nil
	}
	pointer, ok := part.PointerIn(doc)
	if !ok || part.Product == NewProduct {
		return nil
	}
	return part.ownPart(doc, pointer)
}

// changedBy is the newest save of history that changed the part's field
// at rel (the newest save, when none of those read did).
func changedBy(history []version, rel string) Save {
	for i := 0; i+1 < len(history); i++ {
		if !contentform.Equal(history[i].part.At(rel), history[i+1].part.At(rel)) {
			return history[i].save
		}
	}
	if len(history) == 0 {
		return Save{}
	}
	return history[0].save
}

// deletedBy is the save of history that took the part out.
func deletedBy(history []version) Save {
	var by Save
	for _, v := range history {
		if v.part != nil {
			break
		}
		by = v.save
	}
	return by
}

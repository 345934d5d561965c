package edit

// OpenAt reads part as commit has it (a release's content, to find the
// field a failed build names), as Open reads the draft's.
func (e *Editor) OpenAt(part Part, commit string) (*Change, error) {
	c := &Change{Part: part, Version: commit}
	var err error
	if c.Schema, c.Base, err = e.readPart(commit, part); err != nil {
		return nil, err
	}
	c.Doc = c.Base
	var ok bool
	if c.Pointer, ok = part.PointerIn(c.Base); !ok {
		return nil, ErrNoProduct
	}
	return c, nil
}

package edit

import (
	"strings"
	"testing"
)

const relinkCatalogue = `{
  "categories": [{ "name": "Seatings" }, { "name": "Tables" }, { "name": "Shelves", "tabs": ["Partition", "Storage"] }],
  "filters": { "material": { "Wood": ["Wood"], "Metal": ["Metal"] }, "finish": { "Wood": ["Walnut"], "Black": ["Black"] } }
}`

const relinkPages = `{
  "home": { "rooms": [
    { "to": "/products/material/wood" },
    { "to": "/products/tables/material/wood/page/2" },
    { "to": "/products/finish/wood" },
    { "to": "/products/tables" },
    { "to": "/products/partition?material=Wood" },
    { "to": "/about" }
  ] }
}`

// A renamed tab, material or finish takes the pages' links to its lists
// along, and only those of its kind; a move or an added option renames nothing.
func TestARenameTakesThePagesLinksAlong(t *testing.T) {
	cases := []struct {
		name, from, to string
		want           []string
	}{
		{"a material", `"material": { "Wood"`, `"material": { "Solid wood"`, []string{"/products/material/solid-wood", "/products/tables/material/solid-wood/page/2", "/products/finish/wood", "/products/tables"}},
		{"a finish", `"finish": { "Wood"`, `"finish": { "Timber"`, []string{"/products/material/wood", "/products/tables/material/wood/page/2", "/products/finish/timber", "/products/tables"}},
		{"a tab", `{ "name": "Tables" }`, `{ "name": "Dining tables" }`, []string{"/products/material/wood", "/products/dining-tables/material/wood/page/2", "/products/finish/wood", "/products/dining-tables"}},
		{"a category's tab", `"tabs": ["Partition"`, `"tabs": ["Screens"`, []string{"/products/material/wood", "/products/tables/material/wood/page/2", "/products/finish/wood", "/products/tables", "/products/screens?material=Wood"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := strings.Replace(relinkCatalogue, c.from, c.to, 1)
			if after == relinkCatalogue {
				t.Fatalf("the case changes nothing: %s", c.from)
			}
			pages := parse(t, relinkPages)
			if !followRenames(parse(t, relinkCatalogue), parse(t, after), pages) {
				t.Fatal("no link followed the rename")
			}
			for i, want := range c.want {
				if got := pages.At("/home/rooms").Items[i].Get("to").Text(); got != want {
					t.Errorf("link %d: %q, want %q", i, got, want)
				}
			}
			if got := pages.At("/home/rooms").Items[5].Get("to").Text(); got != "/about" {
				t.Errorf("a link to another page changed: %q", got)
			}
		})
	}
	for name, after := range map[string]string{
		"a move":          strings.Replace(relinkCatalogue, `"Wood": ["Wood"], "Metal": ["Metal"]`, `"Metal": ["Metal"], "Wood": ["Wood"]`, 1),
		"an added option": strings.Replace(relinkCatalogue, `"Metal": ["Metal"] }`, `"Metal": ["Metal"], "Stone": ["Stone"] }`, 1),
		"two renamed":     strings.Replace(strings.Replace(relinkCatalogue, `"Wood": ["Wood"]`, `"Woods": ["Wood"]`, 1), `"Metal": ["Metal"]`, `"Metals": ["Metal"]`, 1),
	} {
		if followRenames(parse(t, relinkCatalogue), parse(t, after), parse(t, relinkPages)) {
			t.Errorf("%s changed a link", name)
		}
	}
}

// Package catalogue reads the studio's facts and products from content/,
// the same files the front end is built from.
package catalogue

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
)

// Product is one piece of the catalogue (content/catalogue.json).
type Product struct {
	ID          int      `json:"id"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Category    string   `json:"category"`
	Material    []string `json:"material"`
	Finish      []string `json:"finish"`
	Description string   `json:"description"`
	Images      []Image  `json:"images"`
}

// Image is one of a product's pictures: a file under content/images/ that
// the build turns into right-sized files (web/scripts/images.mjs checks
// each one and stops the build on a problem).
type Image struct {
	Src string `json:"src"`
	Alt string `json:"alt"`
}

// Phone is one of the studio's phone numbers.
type Phone struct {
	Label   string `json:"label"`
	Display string `json:"display"`
	Tel     string `json:"tel"`
}

// Social is a link to one of the studio's social profiles.
type Social struct {
	Kind     string `json:"kind"`
	Platform string `json:"platform"`
	URL      string `json:"url"`
}

// Site holds the studio's facts (content/site.json).
type Site struct {
	Name        string  `json:"name"`
	Tagline     string  `json:"tagline"`
	Description string  `json:"description"`
	City        string  `json:"city"`
	BaseURL     string  `json:"baseUrl"`
	Phones      []Phone `json:"phones"`
	Email       string  `json:"email"`
	Address     struct {
		Street     string `json:"street"`
		Locality   string `json:"locality"`
		Region     string `json:"region"`
		PostalCode string `json:"postalCode"`
		Country    string `json:"country"`
	} `json:"address"`
	Social []Social `json:"social"`
	Map    struct {
		EmbedURL string `json:"embedUrl"`
		LinkURL  string `json:"linkUrl"`
	} `json:"map"`
	GA4MeasurementID string `json:"ga4MeasurementId"`
}

// Catalogue is the content the server needs: the site facts and the products by id.
type Catalogue struct {
	Site     Site
	Products []Product // in id order
	byID     map[int]Product
}

// Load reads site.json and catalogue.json from fsys and checks them.
func Load(fsys fs.FS) (*Catalogue, error) {
	var c Catalogue
	if err := readJSON(fsys, "site.json", &c.Site); err != nil {
		return nil, err
	}
	var file struct {
		Products []Product `json:"products"`
	}
	if err := readJSON(fsys, "catalogue.json", &file); err != nil {
		return nil, err
	}
	c.byID = make(map[int]Product, len(file.Products))
	for _, p := range file.Products {
		if p.ID <= 0 || p.Name == "" || len(p.Material) == 0 || len(p.Finish) == 0 || len(p.Images) == 0 {
			return nil, fmt.Errorf("catalogue: product %d (%q) needs a positive id, a name, materials, finishes and an image", p.ID, p.Name)
		}
		if _, dup := c.byID[p.ID]; dup {
			return nil, fmt.Errorf("catalogue: product id %d appears twice", p.ID)
		}
		c.byID[p.ID] = p
	}
	c.Products = file.Products
	sort.Slice(c.Products, func(i, j int) bool { return c.Products[i].ID < c.Products[j].ID })
	return &c, nil
}

// Product returns the product with that id.
func (c *Catalogue) Product(id int) (Product, bool) {
	p, ok := c.byID[id]
	return p, ok
}

func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("catalogue: read %s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("catalogue: parse %s: %w", name, err)
	}
	return nil
}

// Package sitecontent reads the studio's facts and products from content/,
// the same files the front end is built from.
package sitecontent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// RemovedProduct is a product taken out of the catalogue (catalogue.json's
// "removed"), kept so that its address says it is gone.
type RemovedProduct struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Category string `json:"category"`
}

// Image is one of a product's pictures: a file under content/images/ that
// the build turns into right-sized files (the build's content check and
// web/scripts/images.mjs check each one and stop the build on a problem).
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
	Country     string  `json:"country"` // the country's name, as the site shows it ("India")
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
	WhatsAppPhone    string `json:"whatsappPhone"` // the label of one of Phones
	TimeZone         string `json:"timeZone"`
	// Location is TimeZone, loaded.
	Location *time.Location `json:"-"`
}

// WhatsAppTel is the tel of the phone that answers WhatsApp ("+91…").
func (s Site) WhatsAppTel() string {
	for _, p := range s.Phones {
		if p.Label == s.WhatsAppPhone {
			return p.Tel
		}
	}
	return ""
}

// Service holds the studio's service promises (content/service.json) that
// the server uses; the site's pages read the whole file.
type Service struct {
	EmailReplyHours int `json:"emailReplyHours"` // the studio answers an e-mail within this many hours
}

// Content is the content the server needs: the site facts, the service
// promises and the products by id.
type Content struct {
	Site     Site
	Service  Service
	Products []Product // in id order
	// The products taken out of the catalogue whose id no product has
	// again, in id order: their addresses answer 410.
	Removed []RemovedProduct
	// The inbox's ready answers (content/replies.json); none in a release
	// made before the file was shipped.
	ReplyTemplates []ReplyTemplate
	byID           map[int]Product
}

// ReplyTemplate is one of the studio's ready answers to an enquiry.
type ReplyTemplate struct {
	Name string `json:"name"`
	Body string `json:"body"`
}

// Load reads site.json, service.json, catalogue.json and (when it is
// there) replies.json from fsys and
// checks them against their schemas (schema/*.schema.json, the same files the build's
// content check uses: web/scripts/content-rules.ts), and the fields that
// name another part of their file against contracts/content-references.json
// (references.go), as the build does.
func Load(fsys fs.FS) (*Content, error) {
	var c Content
	if err := readJSON(fsys, "site", &c.Site); err != nil {
		return nil, err
	}
	if err := readJSON(fsys, "service", &c.Service); err != nil {
		return nil, err
	}
	var file struct {
		Products []Product        `json:"products"`
		Removed  []RemovedProduct `json:"removed"`
	}
	if err := readJSON(fsys, "catalogue", &file); err != nil {
		return nil, err
	}
	loaded, err := New(c.Site, file.Products)
	if err != nil {
		return nil, err
	}
	if err := referencesHold(fsys, "site.json", "catalogue.json"); err != nil {
		return nil, err
	}
	loaded.Service = c.Service
	loaded.Removed = loaded.stillRemoved(file.Removed)
	if _, err := fs.Stat(fsys, "replies.json"); err == nil {
		var replies struct {
			Templates []ReplyTemplate `json:"templates"`
		}
		if err := readJSON(fsys, "replies", &replies); err != nil {
			return nil, err
		}
		loaded.ReplyTemplates = replies.Templates
	}
	return loaded, nil
}

// New makes a catalogue of site facts and products already in hand (Load's
// second half; tests build theirs with it). Products are put in id order.
func New(site Site, products []Product) (*Content, error) {
	var err error
	// "" is UTC (site.json must name one; tests need not).
	if site.Location, err = time.LoadLocation(site.TimeZone); err != nil {
		return nil, fmt.Errorf("content: site.json: timeZone %q is not a time zone (an IANA name such as Asia/Kolkata)", site.TimeZone)
	}
	c := Content{Site: site, byID: make(map[int]Product, len(products))}
	for _, p := range products {
		if _, dup := c.byID[p.ID]; dup {
			return nil, fmt.Errorf("content: catalogue.json: product id %d appears twice", p.ID)
		}
		c.byID[p.ID] = p
	}
	c.Products = append([]Product(nil), products...)
	sort.Slice(c.Products, func(i, j int) bool { return c.Products[i].ID < c.Products[j].ID })
	return &c, nil
}

// stillRemoved is the removed products that no product has the id of,
// each id once, in id order: a product given a removed id again is back.
func (c *Content) stillRemoved(removed []RemovedProduct) []RemovedProduct {
	var gone []RemovedProduct
	seen := make(map[int]bool, len(removed))
	for _, r := range removed {
		if _, back := c.byID[r.ID]; !back && !seen[r.ID] {
			seen[r.ID] = true
			gone = append(gone, r)
		}
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i].ID < gone[j].ID })
	return gone
}

// Product returns the product with that id.
func (c *Content) Product(id int) (Product, bool) {
	p, ok := c.byID[id]
	return p, ok
}

// readJSON reads name.json, checks it against schema/name.schema.json and
// decodes it into v.
func readJSON(fsys fs.FS, name string, v any) error {
	file, schemaFile := name+".json", "schema/"+name+".schema.json"
	b, doc, err := readDocument(fsys, file)
	if err != nil {
		return err
	}
	_, schemaDoc, err := readDocument(fsys, schemaFile)
	if err != nil {
		return err
	}
	compiler := jsonschema.NewCompiler()
	if err := compiler.AddResource(schemaFile, schemaDoc); err != nil {
		return fmt.Errorf("content: %s: %w", schemaFile, err)
	}
	schema, err := compiler.Compile(schemaFile)
	if err != nil {
		return fmt.Errorf("content: %s: %w", schemaFile, err)
	}
	if err := schema.Validate(doc); err != nil {
		return fmt.Errorf("content: %s does not match %s: %w", file, schemaFile, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("content: decode %s: %w", file, err)
	}
	return nil
}

// readDocument reads a JSON file as bytes and as the value the schema
// library checks.
func readDocument(fsys fs.FS, file string) ([]byte, any, error) {
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, nil, fmt.Errorf("content: read %s: %w", file, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("content: parse %s: %w", file, err)
	}
	return b, doc, nil
}

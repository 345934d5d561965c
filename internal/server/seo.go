package server

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// sitemap lists every prerendered page by its absolute URL. The base URL
// is the one the pages' canonical links use (content/site.json), so the
// two always agree.
func sitemap(baseURL string, paths []string) []byte {
	type urlEntry struct {
		Loc string `xml:"loc"`
	}
	doc := struct {
		XMLName xml.Name   `xml:"urlset"`
		XMLNS   string     `xml:"xmlns,attr"`
		URLs    []urlEntry `xml:"url"`
	}{XMLNS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	sorted := slices.Clone(paths)
	slices.SortFunc(sorted, comparePaths)
	for _, p := range sorted {
		doc.URLs = append(doc.URLs, urlEntry{Loc: absoluteURL(baseURL, p)})
	}
	out, _ := xml.MarshalIndent(doc, "", "  ") // cannot fail: plain strings
	return append([]byte(xml.Header), append(out, '\n')...)
}

func robotsTxt(baseURL string) []byte {
	return []byte("User-agent: *\nAllow: /\nDisallow: /studio\nDisallow: /api/\n\nSitemap: " + absoluteURL(baseURL, "/sitemap.xml") + "\n")
}

func absoluteURL(baseURL, path string) string {
	base, err := url.Parse(baseURL)
	if err != nil {
		return path
	}
	return base.JoinPath(path).String()
}

// comparePaths orders pages for people reading the sitemap: by path, the
// home page first, /product/2 before /product/10.
func comparePaths(a, b string) int {
	key := func(p string) string {
		if id, ok := strings.CutPrefix(p, "/product/"); ok {
			return fmt.Sprintf("/product/%08s", id)
		}
		return p
	}
	return strings.Compare(key(a), key(b))
}

// generatedFile is a file made at start-up, compressed once there.
func generatedFile(name string, body []byte) *file {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	if gz.Len() >= len(body) {
		return newFile(name, body, nil, nil)
	}
	return newFile(name, body, gz.Bytes(), nil)
}

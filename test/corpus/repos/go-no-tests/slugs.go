// Package slugs turns titles into URL slugs.
package slugs

import (
	"regexp"
	"strings"
)

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// Slugify lowercases title and joins its words with dashes.
func Slugify(title string) string {
	return strings.Trim(nonWord.ReplaceAllString(strings.ToLower(title), "-"), "-")
}

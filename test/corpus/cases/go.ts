import type { CorpusCase } from '../cases.js';
import { broken, ran, verdict } from '../expectations.js';

const slugTests = `package slugs

import "testing"

func TestSlugifyJoinsWords(t *testing.T) {
	if got := Slugify("Hello World"); got != "hello-world" {
		t.Fatalf("Slugify = %q", got)
	}
}

func TestSlugifyTrimsPunctuation(t *testing.T) {
	if got := Slugify("  Why? "); got != "why" {
		t.Fatalf("Slugify = %q", got)
	}
}
`;

const knownBug = 'example.com/textstats/words > TestCountEmpty';

export const goCases: CorpusCase[] = [
  {
    framework: 'go',
    name: 'correct-change',
    repo: 'go-basic',
    change: {
      'format.go': `package durations

import (
	"fmt"
	"strings"
)

// Format returns the shortest text Parse reads back, largest units first: 5400 is "1h 30m".
func Format(seconds int) string {
	var parts []string
	for _, name := range []string{"h", "m", "s"} {
		if size := units[name]; seconds >= size {
			parts = append(parts, fmt.Sprintf("%d%s", seconds/size, name))
			seconds %= size
		}
	}
	if len(parts) == 0 {
		return "0s"
	}
	return strings.Join(parts, " ")
}
`,
      'format_test.go': `package durations

import "testing"

func TestFormat(t *testing.T) {
	cases := []struct {
		name    string
		seconds int
		want    string
	}{
		{"hours", 5400, "1h 30m"},
		{"zero", 0, "0s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Format(c.seconds); got != c.want {
				t.Fatalf("Format(%d) = %q, want %q", c.seconds, got, c.want)
			}
		})
	}
}
`,
    },
    expect: { baseline: ran(4, 0, 1), after: verdict('pass', 6, 0, 1) },
  },
  {
    framework: 'go',
    name: 'breaking-change',
    repo: 'go-basic',
    change: {
      'durations.go': `// Package durations reads durations such as "1h", "90m" or "45 s".
package durations

import (
	"fmt"
	"regexp"
	"strconv"
)

// Spelled out as products, and the minute became an hour.
var units = map[string]int{"h": 60 * 60, "m": 60 * 60, "s": 1}

var pattern = regexp.MustCompile(\`^(\\d+)\\s*([hms])$\`)

// Parse returns the seconds in text.
func Parse(text string) (int, error) {
	m := pattern.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("not a duration: %q", text)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, err
	}
	return n * units[m[2]], nil
}
`,
    },
    expect: {
      baseline: ran(4, 0, 1),
      after: verdict('fail', 3, 1, 1, ['example.com/durations > TestParse/minutes']),
    },
  },
  {
    framework: 'go',
    name: 'edits-failing-test-file',
    repo: 'go-known-bug',
    change: {
      'words/words.go': `// Package words counts words.
package words

import (
	"strings"
	"unicode/utf8"
)

// Count returns the number of words in text.
// Known bug (issue #3): an empty text counts as one word.
func Count(text string) int {
	return len(strings.Split(text, " "))
}

// CountChars returns the number of characters in text.
func CountChars(text string) int {
	return utf8.RuneCountInString(text)
}
`,
      'words/words_test.go': `package words

import "testing"

func TestCount(t *testing.T) {
	if got := Count("the quick brown fox"); got != 4 {
		t.Fatalf("Count = %d, want 4", got)
	}
}

func TestCountEmpty(t *testing.T) {
	if got := Count(""); got != 0 {
		t.Fatalf("Count(\\"\\") = %d, want 0", got)
	}
}

func TestCountChars(t *testing.T) {
	if got := CountChars("fox"); got != 3 {
		t.Fatalf("CountChars = %d, want 3", got)
	}
}
`,
    },
    expect: { baseline: ran(1, 1, 0, [knownBug]), after: verdict('pass', 2, 1, 0, [knownBug]) },
  },
  {
    framework: 'go',
    name: 'broken-command',
    repo: 'go-broken-command',
    change: { 'slugs_test.go': slugTests },
    expect: { baseline: broken(), after: null },
  },
  {
    framework: 'go',
    name: 'no-tests-yet',
    repo: 'go-no-tests',
    change: { 'slugs_test.go': slugTests },
    expect: { baseline: ran(0), after: verdict('pass', 2) },
  },
  {
    framework: 'go',
    name: 'baseline-failures',
    repo: 'go-known-bug',
    change: {
      'lines/lines.go': `// Package lines counts lines.
package lines

import "strings"

// Count returns the number of lines in text; a final newline ends the last line.
func Count(text string) int {
	if text == "" {
		return 0
	}
	return len(strings.Split(strings.TrimSuffix(text, "\\n"), "\\n"))
}
`,
      'lines/lines_test.go': `package lines

import "testing"

func TestCount(t *testing.T) {
	if got := Count("a\\nb\\n"); got != 2 {
		t.Fatalf("Count = %d, want 2", got)
	}
}

func TestCountEmpty(t *testing.T) {
	if got := Count(""); got != 0 {
		t.Fatalf("Count = %d, want 0", got)
	}
}
`,
    },
    expect: { baseline: ran(1, 1, 0, [knownBug]), after: verdict('pass', 3, 1, 0, [knownBug]) },
  },
  {
    framework: 'go',
    name: 'install-writes-home',
    repo: 'go-install-home',
    change: {
      'format.go': `package durations

import (
	"fmt"
	"strings"
)

// Format returns the shortest text Parse reads back, largest units first: 5400 is "1h 30m".
func Format(seconds int) (string, error) {
	units, err := LoadUnits()
	if err != nil {
		return "", err
	}
	var parts []string
	for _, name := range []string{"h", "m", "s"} {
		if size := units[name]; size > 0 && seconds >= size {
			parts = append(parts, fmt.Sprintf("%d%s", seconds/size, name))
			seconds %= size
		}
	}
	if len(parts) == 0 {
		return "0s", nil
	}
	return strings.Join(parts, " "), nil
}
`,
      'format_test.go': `package durations

import "testing"

func TestFormat(t *testing.T) {
	if got, err := Format(5400); err != nil || got != "1h 30m" {
		t.Fatalf("Format(5400) = %q, %v", got, err)
	}
}
`,
    },
    expect: { baseline: ran(2), after: verdict('pass', 3) },
  },
];

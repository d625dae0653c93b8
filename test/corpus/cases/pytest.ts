import type { CorpusCase } from '../cases.js';
import { broken, ran, verdict } from '../expectations.js';

const durationsWithFormat = `import re

UNITS = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """Seconds in a duration such as "1 h", "90 m" or "45s"."""
    match = re.fullmatch(r"(\\d+)\\s*([hms])", text.strip())
    if not match:
        raise ValueError(f"not a duration: {text!r}")
    return int(match.group(1)) * UNITS[match.group(2)]


def format_duration(seconds: int) -> str:
    """The shortest text parse_duration reads back, largest units first: 5400 -> "1h 30m"."""
    parts = []
    for unit, size in UNITS.items():
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return " ".join(parts) or "0s"
`;

const slugTests = `from slugs import slugify


def test_lowercases_and_joins_words():
    assert slugify("Hello World") == "hello-world"


def test_drops_punctuation_at_the_ends():
    assert slugify("  Why? ") == "why"
`;

export const pytestCases: CorpusCase[] = [
  {
    framework: 'pytest',
    name: 'correct-change',
    repo: 'pytest-basic',
    change: {
      'durations.py': durationsWithFormat,
      'tests/test_format.py': `from durations import format_duration


def test_formats_hours_and_minutes():
    assert format_duration(5400) == "1h 30m"


def test_formats_zero():
    assert format_duration(0) == "0s"
`,
    },
    expect: { baseline: ran(5, 0, 1), after: verdict('pass', 7, 0, 1) },
  },
  {
    framework: 'pytest',
    name: 'breaking-change',
    repo: 'pytest-basic',
    change: {
      'durations.py': `import re

# Spelled out as products, and the minute became an hour.
UNITS = {"h": 60 * 60, "m": 60 * 60, "s": 1}


def parse_duration(text: str) -> int:
    """Seconds in a duration such as "1 h", "90 m" or "45s"."""
    match = re.fullmatch(r"(\\d+)\\s*([hms])", text.strip())
    if not match:
        raise ValueError(f"not a duration: {text!r}")
    return int(match.group(1)) * UNITS[match.group(2)]
`,
    },
    expect: {
      baseline: ran(5, 0, 1),
      after: verdict('fail', 4, 1, 1, ['tests/test_parse.py::test_parse[90 m]']),
    },
  },
  {
    framework: 'pytest',
    name: 'edits-failing-test-file',
    repo: 'pytest-known-bug',
    change: {
      'textstats.py': `def word_count(text: str) -> int:
    # Known bug (issue #3): an empty text counts as one word.
    return len(text.split(" "))


def char_count(text: str) -> int:
    return len(text)
`,
      'tests/test_words.py': `from textstats import char_count, word_count


def test_counts_words():
    assert word_count("the quick brown fox") == 4


def test_empty_text_has_no_words():
    assert word_count("") == 0


def test_counts_characters():
    assert char_count("fox") == 3
`,
    },
    expect: {
      baseline: ran(1, 1, 0, ['tests/test_words.py::test_empty_text_has_no_words']),
      after: verdict('pass', 2, 1, 0, ['tests/test_words.py::test_empty_text_has_no_words']),
    },
  },
  {
    framework: 'pytest',
    name: 'broken-command',
    repo: 'pytest-broken-command',
    change: { 'tests/test_slugs.py': slugTests },
    expect: { baseline: broken(), after: null },
  },
  {
    framework: 'pytest',
    name: 'no-tests-yet',
    repo: 'pytest-no-tests',
    change: { 'tests/test_slugs.py': slugTests },
    expect: { baseline: ran(0), after: verdict('pass', 2) },
  },
  {
    framework: 'pytest',
    name: 'baseline-failures',
    repo: 'pytest-known-bug',
    change: {
      'textstats.py': `def word_count(text: str) -> int:
    # Known bug (issue #3): an empty text counts as one word.
    return len(text.split(" "))


def line_count(text: str) -> int:
    return len(text.splitlines())
`,
      'tests/test_lines.py': `from textstats import line_count


def test_counts_lines():
    assert line_count("a\\nb\\n") == 2


def test_empty_text_has_no_lines():
    assert line_count("") == 0
`,
    },
    expect: {
      baseline: ran(1, 1, 0, ['tests/test_words.py::test_empty_text_has_no_words']),
      after: verdict('pass', 3, 1, 0, ['tests/test_words.py::test_empty_text_has_no_words']),
    },
  },
  {
    framework: 'pytest',
    name: 'install-writes-home',
    repo: 'pytest-install-home',
    change: {
      'durations.py': `import re

from corpus_units import UNIT_SECONDS


def parse_duration(text: str) -> int:
    match = re.fullmatch(r"(\\d+)\\s*([hms])", text.strip())
    if not match:
        raise ValueError(f"not a duration: {text!r}")
    return int(match.group(1)) * UNIT_SECONDS[match.group(2)]


def format_duration(seconds: int) -> str:
    parts = []
    for unit, size in UNIT_SECONDS.items():
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return " ".join(parts) or "0s"
`,
      'tests/test_format.py': `from durations import format_duration


def test_formats_hours_and_minutes():
    assert format_duration(5400) == "1h 30m"
`,
    },
    expect: { baseline: ran(2), after: verdict('pass', 3) },
  },
  {
    framework: 'pytest',
    name: 'tool-unreachable',
    repo: 'pytest-tool-unreachable',
    change: { 'tests/test_slugs.py': slugTests },
    expect: { baseline: broken(), after: null },
  },
  {
    framework: 'pytest',
    name: 'collection-error',
    repo: 'pytest-collection-error',
    change: {
      'report.py': `def render_report(title: str) -> str:
    return f"# {title}\\n"
`,
    },
    expect: { baseline: broken(1, ['tests/test_report.py']), after: null },
  },
];

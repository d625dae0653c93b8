import type { CorpusCase } from '../cases.js';
import { broken, ran, verdict } from '../expectations.js';

/** cargo-basic's src/lib.rs, with the minute's size and any code added after parse. */
const durationsLib = (minute: string, more = '') => `//! Reads durations such as "1h", "90m" or "45 s".

/// The seconds in \`text\`, or \`None\` when it is not a duration.
pub fn parse(text: &str) -> Option<u64> {
    let text = text.trim();
    let unit = text.chars().last()?;
    let seconds = match unit {
        'h' => 3600,
        'm' => ${minute},
        's' => 1,
        _ => return None,
    };
    let number: u64 = text[..text.len() - 1].trim().parse().ok()?;
    Some(number * seconds)
}
${more}
#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn parses_hours() {
        assert_eq!(parse("1h"), Some(3600));
    }

    #[test]
    fn parses_minutes() {
        assert_eq!(parse("90m"), Some(5400));
    }

    #[test]
    fn parses_seconds() {
        assert_eq!(parse("45 s"), Some(45));
    }

    #[test]
    fn rejects_an_unknown_unit() {
        assert_eq!(parse("3 weeks"), None);
    }

    #[test]
    #[ignore = "days are not supported yet"]
    fn parses_days() {
        assert_eq!(parse("2d"), Some(172_800));
    }
}
`;

const format = (units: string) => `
/// The shortest text \`parse\` reads back, largest units first: 5400 is "1h 30m".
pub fn format(mut seconds: u64) -> String {
    let mut parts = Vec::new();
    for (unit, size) in ${units} {
        if seconds >= size {
            parts.push(format!("{}{unit}", seconds / size));
            seconds %= size;
        }
    }
    if parts.is_empty() {
        "0s".to_string()
    } else {
        parts.join(" ")
    }
}
`;

const wordsLib = (more: string) => `//! Counts things in a text.

/// The number of words in \`text\`.
/// Known bug (issue #3): an empty text counts as one word.
pub fn word_count(text: &str) -> usize {
    text.split(' ').count()
}
${more}`;

const slugTests = `use slugs::slugify;

#[test]
fn lowercases_and_joins_words() {
    assert_eq!(slugify("Hello World"), "hello-world");
}

#[test]
fn drops_punctuation_at_the_ends() {
    assert_eq!(slugify("  Why? "), "why");
}
`;

const knownBug = 'tests/words.rs > counts_an_empty_text_as_no_words';

export const cargoCases: CorpusCase[] = [
  {
    framework: 'cargo',
    name: 'correct-change',
    repo: 'cargo-basic',
    change: {
      'src/lib.rs': durationsLib('60', format('[("h", 3600), ("m", 60), ("s", 1)]')),
      'tests/format.rs': `use durations::format;

#[test]
fn formats_hours_and_minutes() {
    assert_eq!(format(5400), "1h 30m");
}

#[test]
fn formats_zero() {
    assert_eq!(format(0), "0s");
}
`,
    },
    expect: { baseline: ran(4, 0, 1), after: verdict('pass', 6, 0, 1) },
  },
  {
    framework: 'cargo',
    name: 'breaking-change',
    repo: 'cargo-basic',
    // The minute became an hour.
    change: { 'src/lib.rs': durationsLib('60 * 60') },
    expect: {
      baseline: ran(4, 0, 1),
      after: verdict('fail', 3, 1, 1, ['src/lib.rs > tests::parses_minutes']),
    },
  },
  {
    framework: 'cargo',
    name: 'edits-failing-test-file',
    repo: 'cargo-known-bug',
    change: {
      'src/lib.rs': wordsLib(`
/// The number of characters in \`text\`.
pub fn char_count(text: &str) -> usize {
    text.chars().count()
}
`),
      'tests/words.rs': `use textstats::{char_count, word_count};

#[test]
fn counts_words() {
    assert_eq!(word_count("the quick brown fox"), 4);
}

#[test]
fn counts_an_empty_text_as_no_words() {
    assert_eq!(word_count(""), 0);
}

#[test]
fn counts_characters() {
    assert_eq!(char_count("fox"), 3);
}
`,
    },
    expect: { baseline: ran(1, 1, 0, [knownBug]), after: verdict('pass', 2, 1, 0, [knownBug]) },
  },
  {
    framework: 'cargo',
    name: 'broken-command',
    repo: 'cargo-broken-command',
    change: { 'tests/slugs.rs': slugTests },
    expect: { baseline: broken(), after: null },
  },
  {
    framework: 'cargo',
    name: 'no-tests-yet',
    repo: 'cargo-no-tests',
    change: { 'tests/slugs.rs': slugTests },
    expect: { baseline: ran(0), after: verdict('pass', 2) },
  },
  {
    framework: 'cargo',
    name: 'baseline-failures',
    repo: 'cargo-known-bug',
    change: {
      'src/lib.rs': wordsLib(`
/// The number of lines in \`text\`.
pub fn line_count(text: &str) -> usize {
    text.lines().count()
}
`),
      'tests/lines.rs': `use textstats::line_count;

#[test]
fn counts_lines() {
    assert_eq!(line_count("a\\nb\\n"), 2);
}

#[test]
fn counts_an_empty_text_as_no_lines() {
    assert_eq!(line_count(""), 0);
}
`,
    },
    expect: { baseline: ran(1, 1, 0, [knownBug]), after: verdict('pass', 3, 1, 0, [knownBug]) },
  },
  {
    framework: 'cargo',
    name: 'install-writes-home',
    repo: 'cargo-install-home',
    change: {
      'src/lib.rs': `//! Reads durations with the unit table the install step cached.

use std::collections::HashMap;
use std::path::PathBuf;

/// Reads \`~/.cache/corpus/units.txt\`: one "<unit> <seconds>" per line.
pub fn load_units() -> std::io::Result<HashMap<String, u64>> {
    let home = std::env::var_os("HOME").unwrap_or_default();
    let path = PathBuf::from(home).join(".cache/corpus/units.txt");
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let (unit, seconds) = line.split_once(' ')?;
            Some((unit.to_string(), seconds.trim().parse().ok()?))
        })
        .collect())
}

/// The seconds in \`text\`, or \`None\` when it is not a duration.
pub fn parse(text: &str) -> Option<u64> {
    let text = text.trim();
    let unit = &text[text.len().checked_sub(1)?..];
    let number: u64 = text[..text.len() - 1].trim().parse().ok()?;
    Some(number * load_units().ok()?.get(unit)?)
}

/// The shortest text \`parse\` reads back, largest units first: 5400 is "1h 30m".
pub fn format(mut seconds: u64) -> std::io::Result<String> {
    let units = load_units()?;
    let mut parts = Vec::new();
    for unit in ["h", "m", "s"] {
        let size = units[unit];
        if seconds >= size {
            parts.push(format!("{}{unit}", seconds / size));
            seconds %= size;
        }
    }
    Ok(if parts.is_empty() { "0s".to_string() } else { parts.join(" ") })
}
`,
      'tests/format.rs': `#[test]
fn formats_hours_and_minutes() {
    assert_eq!(durations::format(5400).unwrap(), "1h 30m");
}
`,
    },
    expect: { baseline: ran(2), after: verdict('pass', 3) },
  },
];

//! Reads durations with the unit table the install step cached.

use std::collections::HashMap;
use std::path::PathBuf;

/// Reads `~/.cache/corpus/units.txt`: one "<unit> <seconds>" per line.
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

/// The seconds in `text`, or `None` when it is not a duration.
pub fn parse(text: &str) -> Option<u64> {
    let text = text.trim();
    let unit = &text[text.len().checked_sub(1)?..];
    let number: u64 = text[..text.len() - 1].trim().parse().ok()?;
    Some(number * load_units().ok()?.get(unit)?)
}

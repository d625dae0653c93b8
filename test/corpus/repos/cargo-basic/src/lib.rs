//! Reads durations such as "1h", "90m" or "45 s".

/// The seconds in `text`, or `None` when it is not a duration.
pub fn parse(text: &str) -> Option<u64> {
    let text = text.trim();
    let unit = text.chars().last()?;
    let seconds = match unit {
        'h' => 3600,
        'm' => 60,
        's' => 1,
        _ => return None,
    };
    let number: u64 = text[..text.len() - 1].trim().parse().ok()?;
    Some(number * seconds)
}

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

//! Turns titles into URL slugs.

/// Lowercases `title` and joins its words with dashes.
pub fn slugify(title: &str) -> String {
    title
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

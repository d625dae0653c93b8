use textstats::word_count;

#[test]
fn counts_words() {
    assert_eq!(word_count("the quick brown fox"), 4);
}

#[test]
fn counts_an_empty_text_as_no_words() {
    assert_eq!(word_count(""), 0);
}

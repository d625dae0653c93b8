from textstats import word_count


def test_counts_words():
    assert word_count("the quick brown fox") == 4


def test_empty_text_has_no_words():
    assert word_count("") == 0

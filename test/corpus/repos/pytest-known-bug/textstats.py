def word_count(text: str) -> int:
    # Known bug (issue #3): an empty text counts as one word.
    return len(text.split(" "))

from slugs import slugify


def test_lowercases_and_joins_words():
    assert slugify("Hello World") == "hello-world"

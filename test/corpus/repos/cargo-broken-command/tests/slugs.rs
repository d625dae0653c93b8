#[test]
fn lowercases_and_joins_words() {
    assert_eq!(slugs::slugify("Hello World"), "hello-world");
}

const WORD = /[\p{Lu}]?[\p{Ll}\d]+|[\p{Lu}\d]+(?![\p{Ll}])/gu;

/** `foo-bar`, `foo_bar` and `Foo Bar` all become `fooBar`. */
export default function camelCase(input) {
  const words = String(input).match(WORD) ?? [];
  return words
    .map((word, i) => (i === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

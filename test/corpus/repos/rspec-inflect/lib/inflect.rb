# Plural forms of English nouns, by the common rules.
module Inflect
  IRREGULAR = { 'child' => 'children', 'person' => 'people' }.freeze

  def self.pluralize(word)
    return IRREGULAR[word] if IRREGULAR.key?(word)
    return "#{word[0..-2]}ies" if word.end_with?('y') && !'aeiou'.include?(word[-2])
    return "#{word}es" if word.end_with?('s', 'x', 'ch', 'sh')

    "#{word}s"
  end
end

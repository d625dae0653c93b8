require_relative '../lib/inflect'

RSpec.describe Inflect do
  describe '.pluralize' do
    it 'adds an s' do
      expect(Inflect.pluralize('cat')).to eq('cats')
    end

    it 'turns a final y into ies' do
      expect(Inflect.pluralize('city')).to eq('cities')
    end

    it 'adds es after a hiss' do
      expect(Inflect.pluralize('box')).to eq('boxes')
    end

    it 'knows irregular words' do
      expect(Inflect.pluralize('child')).to eq('children')
    end
  end
end

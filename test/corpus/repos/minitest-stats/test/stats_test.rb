require 'minitest/autorun'
require 'stats'

describe Stats do
  it 'averages' do
    _(Stats.mean([1, 2, 3, 4])).must_equal 2.5
  end

  it 'finds the middle of an odd list' do
    _(Stats.median([3, 1, 2])).must_equal 2.0
  end

  it 'averages the middle two of an even list' do
    _(Stats.median([4, 1, 3, 2])).must_equal 2.5
  end
end

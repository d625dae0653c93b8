require 'test_helper'

class DurationTest < Minitest::Test
  def test_hours_minutes_seconds
    assert_equal '1h 2m 5s', Duration.words(3725)
  end

  def test_zero
    assert_equal '0s', Duration.words(0)
  end

  def test_minutes_only
    assert_equal '2m', Duration.words(120)
  end
end

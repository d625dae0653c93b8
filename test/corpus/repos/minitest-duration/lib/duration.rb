# Seconds in words: 3725 is "1h 2m 5s".
module Duration
  UNITS = { 'h' => 3600, 'm' => 60, 's' => 1 }.freeze

  def self.words(seconds)
    parts = UNITS.filter_map do |unit, size|
      next if seconds < size

      count, seconds = seconds.divmod(size)
      "#{count}#{unit}"
    end
    parts.empty? ? '0s' : parts.join(' ')
  end
end

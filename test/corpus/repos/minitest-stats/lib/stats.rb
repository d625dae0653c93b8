# Summary statistics of a list of numbers.
module Stats
  def self.mean(values)
    values.sum.to_f / values.size
  end

  def self.median(values)
    sorted = values.sort
    mid = sorted.size / 2
    sorted.size.odd? ? sorted[mid].to_f : (sorted[mid - 1] + sorted[mid]) / 2.0
  end
end

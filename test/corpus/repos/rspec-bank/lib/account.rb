# A bank account that never goes below zero.
class Account
  class Overdrawn < StandardError; end

  attr_reader :balance

  def initialize(balance = 0)
    @balance = balance
  end

  def deposit(amount)
    @balance += amount
    self
  end

  def withdraw(amount)
    raise Overdrawn, "balance #{@balance} is less than #{amount}" if amount > @balance

    @balance -= amount
    self
  end
end

require_relative '../lib/account'

RSpec.describe Account do
  it 'starts at zero' do
    expect(Account.new.balance).to eq(0)
  end

  it 'adds deposits' do
    expect(Account.new.deposit(5).deposit(7).balance).to eq(12)
  end

  context 'when withdrawing' do
    it 'takes the amount off' do
      expect(Account.new(10).withdraw(4).balance).to eq(6)
    end

    it 'refuses more than the balance' do
      expect { Account.new(3).withdraw(4) }.to raise_error(Account::Overdrawn)
    end
  end
end

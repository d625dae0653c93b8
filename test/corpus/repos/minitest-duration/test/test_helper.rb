require 'minitest/autorun'
require 'minitest/reporters'
require 'duration'

Minitest::Reporters.use! Minitest::Reporters::SpecReporter.new

from corpus_units import UNIT_SECONDS

from durations import parse_duration


def test_installed_unit_table():
    assert UNIT_SECONDS["h"] == 3600


def test_parses_minutes():
    assert parse_duration("90 m") == 5400

import pytest

from durations import parse_duration

EXPECTED = {"1 h": 3600, "90 m": 5400, "45 s": 45}


@pytest.mark.parametrize("text", ["1 h", "90 m", "45 s"])
def test_parse(text):
    assert parse_duration(text) == EXPECTED[text]


class TestRejects:
    def test_empty(self):
        with pytest.raises(ValueError):
            parse_duration("")

    def test_unknown_unit(self):
        with pytest.raises(ValueError):
            parse_duration("3 weeks")


@pytest.mark.xfail(reason="days are not supported yet")
def test_days():
    assert parse_duration("2 d") == 172800

from report import render_report  # report.py was never committed


def test_renders_title():
    assert render_report("Hello").startswith("# Hello")

import re

from corpus_units import UNIT_SECONDS


def parse_duration(text: str) -> int:
    match = re.fullmatch(r"(\d+)\s*([hms])", text.strip())
    if not match:
        raise ValueError(f"not a duration: {text!r}")
    return int(match.group(1)) * UNIT_SECONDS[match.group(2)]

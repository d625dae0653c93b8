UNIT_SECONDS = {"h": 3600, "m": 60, "s": 1}

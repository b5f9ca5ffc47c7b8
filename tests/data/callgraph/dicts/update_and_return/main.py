def parse_int(text):
    return int(text)


def parse_float(text):
    return float(text)


def make_parsers():
    return {"int": parse_int}


parsers = make_parsers()
parsers.update({"float": parse_float})
print(parsers["int"]("1"), parsers["float"]("2.5"))

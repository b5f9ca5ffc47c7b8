def encode_json(value):
    return "json:%s" % value


def encode_xml(value):
    return "xml:%s" % value


ENCODERS = {"json": encode_json, "xml": encode_xml}


def encode(kind, value):
    return ENCODERS[kind](value)


print(encode("json", 1), encode("xml", 2))

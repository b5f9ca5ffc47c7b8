def save(data):
    return "saved %s" % data


def discard(data):
    return "discarded %s" % data


def handle(data, on_ok, on_error):
    return on_ok(data) if data else on_error(data)


print(handle(1, on_error=discard, on_ok=save))
print(handle(0, on_ok=save, on_error=discard))

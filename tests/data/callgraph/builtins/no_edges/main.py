def summarize(values):
    ordered = sorted(values)
    return "%d items, min %d" % (len(ordered), min(ordered))


data = list(range(5))
print(summarize(data), str(abs(-1)), isinstance(data, list))

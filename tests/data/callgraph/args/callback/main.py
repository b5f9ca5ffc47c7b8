def process(value):
    return value * 2


def run(callback, value):
    return callback(value)


print(run(process, 4))

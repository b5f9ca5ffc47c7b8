class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current


class Cursor:
    def __next__(self):
        raise StopIteration


class Rows:
    def __iter__(self):
        return Cursor()

    def __next__(self):
        return "never: Rows is not its own iterator"


class Lines:
    def __iter__(self):
        yield "a"
        yield "b"


def total(counter):
    result = 0
    for value in counter:
        result += value
    return result


def upper(lines):
    return [line.upper() for line in lines]


def walk(rows):
    for row in rows:
        print(row)


print(total(Countdown(3)), upper(Lines()))
walk(Rows())
for item in [1, 2]:
    print(item)

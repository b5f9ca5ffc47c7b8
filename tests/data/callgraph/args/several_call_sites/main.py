def to_upper(text):
    return text.upper()


def to_lower(text):
    return text.lower()


def transform(text, first, second):
    return second(first(text))


print(transform("Ab", to_upper, to_lower))
print(transform("Cd", to_lower, to_lower))

def clean(text):
    return text.strip()


def count(text):
    return len(text)

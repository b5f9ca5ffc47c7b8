class Csv:
    def __init__(self, path):
        self.path = path

    @classmethod
    def open(cls, path):
        return cls(path)

    def rows(self):
        return [self.path]


class Tsv(Csv):
    def rows(self):
        return [self.path, "tabs"]


def load(reader_class, path):
    reader = reader_class.open(path)
    return reader.rows()


print(load(Csv, "a.csv"), load(Tsv, "b.tsv"))

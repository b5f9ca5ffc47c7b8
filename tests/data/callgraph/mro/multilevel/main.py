class Reader:
    def read(self):
        return "data"


class Writer:
    def write(self, data):
        return len(data)

    def read(self):
        return "writer"


class Stream(Reader, Writer):
    def copy(self):
        return self.write(self.read())


print(Stream().copy())

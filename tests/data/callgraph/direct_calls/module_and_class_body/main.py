def default_size():
    return 10


def describe(size):
    return "size=%d" % size


class Config:
    size = default_size()
    label = describe(size)

    def show(self):
        return describe(self.size)


def start():
    return Config().show()


if __name__ == "__main__":
    print(start())

class Counter:
    def __init__(self, start):
        self.value = start

    def increment(self):
        self.value += 1
        return self

    def get(self):
        return self.value


counter = Counter(1)
counter.increment()
print(counter.get())

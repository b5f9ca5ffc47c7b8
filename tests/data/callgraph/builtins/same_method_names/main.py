class Stack:
    def __init__(self):
        self.items = []

    def append(self, item):
        self.items.append(item)

    def join(self, separator):
        return separator.join(str(i) for i in self.items)

    def pop(self):
        return self.items.pop()


words = ["a", "b"]
words.append("c")
print(", ".join(words), words.pop())
stack = Stack()
stack.append(1)
print(stack.join("-"))
